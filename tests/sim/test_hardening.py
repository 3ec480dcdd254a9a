"""Issue 17's simulator reproducers: each raises a clear error at build time (before: a 143 s run
returning NaN, a silent stall, 241 drops in a "lossless" incast, an AttributeError at run(), a
hang), and routes that loop or end at the wrong host are refused."""

import math
import time

import pytest

from netlab.sim import PFC, Credits, DropTail, Lossy, Network, Simulator, single_switch
from netlab.lossless import experiments as scenarios
from netlab.longhaul import experiments as sim_longhaul


def quick(f):
    t0 = time.monotonic()
    with pytest.raises((ValueError, TypeError)) as info:
        f()
    assert time.monotonic() - t0 < 2.0      # at once (1 s on an idle machine; margin for a loaded one)
    return str(info.value)


def test_victim_with_a_buffer_smaller_than_a_packet_is_refused():
    msg = quick(lambda: scenarios.victim("lossy", size_bytes=8000, buffer_bytes=4000))
    assert "buffer_bytes must be >= one packet" in msg


def test_credits_smaller_than_a_packet_are_refused():
    msg = quick(lambda: single_switch(2, 100e9, flow_control=Credits(1000)))
    assert "buffer_bytes" in msg and "one packet" in msg


def test_lossy_buffer_of_exactly_one_packet_still_builds():
    probe = single_switch(2, 100e9)
    one_packet = probe.mtu_bytes + probe.header_bytes
    single_switch(2, 100e9, flow_control=Lossy(one_packet))
    with pytest.raises(ValueError, match="buffer_bytes"):
        single_switch(2, 100e9, flow_control=Lossy(one_packet - 1))


def test_pfc_xoff_above_the_headroom_is_refused():
    msg = quick(lambda: single_switch(5, 100e9, flow_control=PFC(20000, xoff_bytes=19000)))
    assert "xoff_bytes must be <=" in msg and "headroom" in msg


def test_pfc_xoff_inside_the_headroom_is_lossless():
    # independent reference: a lossless mode never drops. headroom at 100 Gb/s with the default
    # propagation is well under 10 kB, so xoff = 8 kB below a 20 kB buffer is legal
    net = single_switch(5, 100e9, flow_control=PFC(20000, xoff_bytes=8000))
    for i in range(1, 5):
        net.add_flow(f"h{i}", "h0", 200_000)
    r = net.run()
    assert r.stop_reason == "complete" and r.dropped_packets == 0


def test_window_throughput_of_a_tiny_flow_is_a_value_error_not_stop_iteration():
    msg = quick(lambda: sim_longhaul.window_throughput(1e3, 100e9, 1e5, 4096))
    assert "size_bytes" in msg


def test_dcqcn_sharing_shorter_than_one_sample_is_refused():
    msg = quick(lambda: scenarios.dcqcn_sharing(2, duration_s=50e-6))
    assert "duration_s" in msg and "sample_interval_s" in msg


def test_queue_policy_and_transport_by_name_fail_at_build():
    assert "queue_policy" in quick(lambda: single_switch(2, 100e9, queue_policy="droptail"))
    net = single_switch(2, 100e9)
    assert "transport" in quick(lambda: net.add_flow("h1", "h0", 1000, transport="roce"))
    assert "cc" in quick(lambda: net.add_flow("h1", "h0", 1000, cc="dcqcn"))
    assert "flow_control" in quick(lambda: single_switch(2, 100e9, flow_control="pfc"))


def test_simulator_refuses_infinite_times():
    sim = Simulator()
    for bad in (math.inf, math.nan):
        with pytest.raises(ValueError, match="time_s must be finite"):
            sim.at(bad, print)
        with pytest.raises(ValueError, match="delay_s must be finite"):
            sim.after(bad, print)
    assert sim.pending_events == 0


def test_tiny_timer_and_sampling_intervals_are_refused():
    assert "rto_s must be" in quick(lambda: single_switch(2, 100e9, rto_s=1e-300))
    net = single_switch(2, 100e9)
    assert "interval_s must be" in quick(lambda: net.sample_queues(["s0[0]"], 1e-300))
    assert "interval_s" in quick(lambda: net.sample_flows(5e-324))
    assert "ports" in quick(lambda: net.sample_queues("s0[0]", 1e-6))


def test_huge_topologies_are_refused_at_once():
    assert "n_hosts" in quick(lambda: single_switch(10**6, 100e9))
    assert "4096" in quick(lambda: single_switch(2**31, 100e9))


def test_max_events_and_wall_time_stop_with_a_reason():
    net = single_switch(3, 100e9)
    net.add_flow("h1", "h0", 10_000_000)
    r = net.run(max_events=1000)
    assert r.stop_reason == "max_events" and r.events_processed == 1000
    net = single_switch(3, 100e9)
    net.add_flow("h1", "h0", 4_000_000_000)     # ~1 million packets: far more than 0.2 s of work
    t0 = time.monotonic()
    r = net.run(max_wall_s=0.2)
    assert r.stop_reason == "wall_time" and time.monotonic() - t0 < 10
    with pytest.raises(ValueError, match="max_wall_s"):
        single_switch(2, 100e9).run(max_wall_s=0)


def _two_switches():
    net = Network()
    for s in ("s0", "s1"):
        net.add_switch(s)
    net.connect("s0", "s1", 100e9)
    for h, s in (("h0", "s0"), ("h1", "s0"), ("h2", "s1")):
        net.add_host(h)
        net.connect(h, s, 100e9)
    return net


def test_a_routing_loop_is_refused_with_its_path():
    net = _two_switches()
    net.set_route("s0", "h2", [0])        # s0 -> s1 (port 0 joins s1)
    net.set_route("s1", "h2", [0])        # s1 -> s0: a loop
    net.add_flow("h0", "h2", 10_000)
    with pytest.raises(ValueError, match="routing loop towards h2: s0 -> s1 -> s0"):
        net.run()


def test_a_route_to_the_wrong_host_is_refused():
    net = _two_switches()
    net.set_route("s0", "h2", [2])        # s0 port 2 is h1: delivered to the wrong host
    net.add_flow("h0", "h2", 10_000)
    with pytest.raises(ValueError, match="wrong host"):
        net.run()


def test_hand_set_routes_that_are_sound_still_run():
    net = _two_switches()
    net.set_route("s0", "h2", [0])
    net.add_flow("h0", "h2", 10_000)
    r = net.run()
    assert r.stop_reason == "complete" and r.received_bytes == r.sent_bytes


def test_droptail_default_is_a_queue_policy():
    assert isinstance(single_switch(2, 100e9).queue_policy, DropTail)
