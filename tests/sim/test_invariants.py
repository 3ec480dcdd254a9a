"""More simulator invariants on random small scenarios (issue 17), beyond tests/sim/test_properties.py:

* no flow completes faster than physics allows: its bytes at line rate plus the propagation of
  the links it crosses, and the flows into one host no faster than their sum on that host's link;
* lossless modes (PFC, credits) never drop, on chains and rings as well as one switch;
* bytes are conserved at every stop (also when a run is cut short by ``until_s`` or
  ``max_events``), with UET transport and packet trimming too;
* a run is a function of its seed;
* random builder inputs either build and run with all of the above, or are refused at build time
  with a ValueError naming a parameter -- never a hang or a silent stall.
"""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab.sim import PFC, Credits, Lossy, chain, ring, single_switch
from netlab.sim.trimming import Trimming
from netlab.sim.uet import uet

BW = 100e9
PROP = 50e-9
MODES = {"lossy": Lossy, "pfc": PFC, "credits": Credits}


def conserved(r):
    return r.sent_bytes == r.received_bytes + r.dropped_bytes + r.trimmed_bytes + r.in_flight_bytes


def fingerprint(r):
    return (r.stop_reason, r.time_s, r.events_processed, r.sent_bytes, r.received_bytes, r.dropped_packets,
            tuple((f.finished, f.delivered_bytes, f.retransmitted_packets) for f in r.flows))


flows = st.lists(st.tuples(st.integers(1, 5), st.integers(1_000, 120_000), st.floats(0, 10e-6)),
                 min_size=1, max_size=5)


@settings(max_examples=15, deadline=None)
@given(mode=st.sampled_from(sorted(MODES)), fl=flows, seed=st.integers(0, 1000))
def test_no_flow_beats_the_physical_lower_bound(mode, fl, seed):
    net = single_switch(6, BW, propagation_s=PROP, flow_control=MODES[mode](200_000), seed=seed)
    for src, size, start in fl:
        net.add_flow(f"h{src}", "h0", size, start_s=start)
    r = net.run(until_s=0.5)
    assert conserved(r)
    done = [f for f in r.flows if f.finished]
    for f in done:
        # payload at line rate, plus two links' propagation (host -> switch -> host)
        assert f.completion_time_s >= f.size_bytes * 8 / BW + 2 * PROP - 1e-15
    if len(done) == len(r.flows):
        # everything crosses h0's one link: the last byte cannot arrive before all of it fits through
        first_start = min(f.start_s for f in r.flows)
        last_end = max(f.start_s + f.completion_time_s for f in r.flows)
        assert last_end - first_start >= sum(f.size_bytes for f in r.flows) * 8 / BW - 1e-15


@settings(max_examples=12, deadline=None)
@given(mode=st.sampled_from(["pfc", "credits"]), shape=st.sampled_from(["chain", "ring"]),
       n=st.integers(3, 4), fl=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(1_000, 80_000)),
                                         min_size=1, max_size=5),
       buffer_bytes=st.integers(40_000, 150_000), seed=st.integers(0, 1000))
def test_lossless_modes_never_drop_on_multi_switch_topologies(mode, shape, n, fl, buffer_bytes, seed):
    build = chain if shape == "chain" else ring
    net = build(n, 2, BW, propagation_s=PROP, flow_control=MODES[mode](buffer_bytes), seed=seed)
    hosts = 2 * n
    added = 0
    for a, b, size in fl:
        a, b = a % hosts, b % hosts
        if a != b:
            net.add_flow(f"h{a}", f"h{b}", size)
            added += 1
    if not added:
        net.add_flow("h0", f"h{hosts - 1}", 5_000)
    r = net.run(until_s=0.05, max_events=300_000)
    assert r.dropped_packets == 0 and conserved(r)
    if r.stop_reason == "complete":
        assert all(f.finished and f.delivered_bytes == f.size_bytes for f in r.flows)


@settings(max_examples=10, deadline=None)
@given(fl=flows, seed=st.integers(0, 1000), trim=st.booleans(), budget=st.sampled_from([200, 2_000, 10**6]))
def test_bytes_are_conserved_with_uet_and_trimming_at_any_stop(fl, seed, trim, budget):
    kwargs = dict(queue_policy=Trimming()) if trim else {}
    net = single_switch(6, BW, propagation_s=PROP, flow_control=Lossy(40_000), seed=seed, **kwargs)
    pair = uet()
    for src, size, start in fl:
        net.add_flow(f"h{src}", "h0", size, start_s=start, transport=pair)
    r = net.run(until_s=0.05, max_events=budget)
    assert conserved(r)
    if r.stop_reason == "complete":
        assert all(f.delivered_bytes == f.size_bytes for f in r.flows)


@settings(max_examples=8, deadline=None)
@given(mode=st.sampled_from(sorted(MODES)), fl=flows, seed=st.integers(0, 1000))
def test_a_run_is_a_function_of_its_seed(mode, fl, seed):
    def run():
        net = single_switch(6, BW, flow_control=MODES[mode](60_000), seed=seed)
        for src, size, start in fl:
            net.add_flow(f"h{src}", "h0", size, start_s=start)
        return fingerprint(net.run(until_s=0.05))
    assert run() == run()


@settings(max_examples=25, deadline=None)
@given(mode=st.sampled_from(sorted(MODES)), buffer_bytes=st.integers(0, 30_000),
       xoff=st.one_of(st.none(), st.integers(0, 30_000)), rto_s=st.sampled_from([1e-9, 1e-6, 1e-4]),
       size=st.integers(1, 50_000))
def test_random_builder_inputs_run_cleanly_or_are_refused_at_build(mode, buffer_bytes, xoff, rto_s, size):
    try:
        fc = PFC(buffer_bytes, xoff_bytes=xoff) if mode == "pfc" else MODES[mode](buffer_bytes)
        net = single_switch(5, BW, flow_control=fc, rto_s=rto_s)
    except ValueError as err:
        assert any(n in str(err) for n in ("buffer_bytes", "xoff_bytes", "rto_s")), err
        return
    for i in range(1, 5):
        net.add_flow(f"h{i}", "h0", size)
    r = net.run(until_s=0.05, max_events=400_000)
    assert conserved(r)
    if mode != "lossy":
        assert r.dropped_packets == 0          # lossless means lossless, whatever was accepted
    assert r.stop_reason in ("complete", "until", "max_events")
    if mode == "credits":
        assert r.stop_reason == "complete"     # credits >= one packet cannot stall (before: Credits(1000) did)


def test_inf_and_nan_never_reach_the_event_heap():
    net = single_switch(2, BW)
    with pytest.raises(ValueError):
        net.add_flow("h1", "h0", 1000, start_s=math.inf)
    with pytest.raises(ValueError):
        net.sim.at(math.nan, print)
