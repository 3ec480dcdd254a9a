"""Bad configurations give clear errors, or a reported deadlock -- never a hang."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.sim import PFC, Credits, LoadBalancer, Lossy, Network, chain, leaf_spine, ring, single_switch
from netlab.sim.traffic import md1_mean_wait, poisson
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    md1_mean_wait: dict(service_time_s=1e-6, load=0.5),
    poisson: dict(load=0.5),
    single_switch: dict(n_hosts=4, bandwidth_bps=100e9, propagation_s=25e-9),
    chain: dict(n_switches=3, hosts_per_switch=2, bandwidth_bps=100e9, propagation_s=25e-9),
    ring: dict(n_switches=4, hosts_per_switch=1, bandwidth_bps=100e9, propagation_s=25e-9),
    leaf_spine: dict(n_leaves=2, n_spines=2, hosts_per_leaf=2, host_bandwidth_bps=100e9,
                     fabric_bandwidth_bps=400e9, propagation_s=25e-9),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_zero_bandwidth():
    with pytest.raises(ValueError, match="bandwidth_bps"):
        single_switch(2, 0.0)


@pytest.mark.parametrize("mode", [Lossy, PFC, Credits])
def test_negative_buffer(mode):
    with pytest.raises(ValueError, match="buffer_bytes"):
        mode(-1)


def test_host_not_on_topology():
    net = single_switch(2, 100e9)
    with pytest.raises(ValueError, match="no host or switch 'h9'"):
        net.add_flow("h0", "h9", 1000)


def test_host_not_connected():
    net = single_switch(2, 100e9)
    net.add_host("lonely")
    net.add_flow("h0", "lonely", 1000)
    with pytest.raises(ValueError, match="lonely is not connected"):
        net.run()


def test_unreachable_host():
    net = single_switch(2, 100e9)
    net.add_switch("island")
    net.add_host("far")
    net.connect("far", "island", 100e9)
    net.add_flow("h0", "far", 1000)
    with pytest.raises(ValueError, match="cannot reach"):
        net.run()


def test_flow_endpoints_must_be_distinct_hosts():
    net = single_switch(2, 100e9)
    with pytest.raises(ValueError, match="src and dst"):
        net.add_flow("h0", "h0", 1000)
    with pytest.raises(ValueError, match="must be a host"):
        net.add_flow("h0", "s0", 1000)
    with pytest.raises((ValueError, TypeError), match="size_bytes"):
        net.add_flow("h0", "h1", 0)


def test_pfc_buffer_smaller_than_headroom_is_refused():
    # headroom = 2 x 1 us x 100 Gb/s / 8 + 2 x 4160 = 33 320 bytes; 30 kB leaves no room.
    with pytest.raises(ValueError, match="headroom"):
        single_switch(2, 100e9, propagation_s=1e-6, flow_control=PFC(30_000))


def test_run_needs_flows_and_runs_once():
    net = single_switch(2, 100e9)
    with pytest.raises(ValueError, match="at least one flow"):
        net.run()
    net.add_flow("h0", "h1", 1000)
    net.run()
    with pytest.raises(RuntimeError, match="runs once"):
        net.run()


@pytest.mark.parametrize("fc", [PFC(60_000), Credits(60_000)], ids=["PFC", "credits"])
def test_cyclic_buffer_dependency_is_reported_as_deadlock(fc):
    # Four switches in a ring, every flow forced two hops clockwise: each ring link carries
    # two flows at line rate, buffers fill, and each switch waits on the next.
    net = ring(4, 1, 100e9, clockwise=True, flow_control=fc, seed=1)
    for i in range(4):
        net.add_flow(f"h{i}", f"h{(i + 2) % 4}", 2_000_000)
    result = net.run(until_s=1.0)
    assert result.stop_reason == "deadlock"
    assert result.deadlock_cycle == ("s0", "s1", "s2", "s3", "s0")
    assert not result.all_finished
    assert result.time_s < 1e-3                      # found within a millisecond, not at the limit


def test_same_ring_without_forced_routes_completes():
    net = ring(4, 1, 100e9, flow_control=PFC(60_000), seed=1)
    for i in range(4):
        net.add_flow(f"h{i}", f"h{(i + 1) % 4}", 200_000)
    assert net.run(until_s=1.0).stop_reason == "complete"


def test_overloaded_lossy_run_is_bounded_by_max_events():
    net = ring(4, 1, 100e9, clockwise=True, flow_control=Lossy(60_000), seed=1)
    for i in range(4):
        net.add_flow(f"h{i}", f"h{(i + 2) % 4}", 2_000_000)
    result = net.run(max_events=20_000)
    assert result.stop_reason == "max_events"
    assert result.events_processed == 20_000


def test_set_route_checks_port_numbers():
    net = single_switch(2, 100e9)
    with pytest.raises(ValueError, match="port"):
        net.set_route("s0", "h1", [5])


def test_duplicate_names_and_direct_host_links():
    net = Network()
    net.add_host("a")
    net.add_host("b")
    with pytest.raises(ValueError, match="exists already"):
        net.add_switch("a")
    with pytest.raises(ValueError, match="cannot be joined directly"):
        net.connect("a", "b", 100e9)


def test_a_load_balancer_must_choose_a_candidate():
    class Broken(LoadBalancer):
        def choose(self, switch, packet, candidates):
            return 99

    net = leaf_spine(2, 2, 1, 100e9, 100e9, load_balancer=Broken())
    net.add_flow("h0", "h1", 10_000)
    with pytest.raises(ValueError, match="chose port 99"):
        net.run()
