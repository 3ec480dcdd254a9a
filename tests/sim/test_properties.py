"""Invariants of netlab.sim on random small scenarios (hypothesis).

For every run: data bytes are conserved (sent = received + dropped + trimmed + in
flight); lossless modes (PFC, credits) never drop and deliver every flow exactly
once; credits never go negative; simulated time never runs backwards; and the same
seed gives the same result.
"""

import math

from hypothesis import given, settings, strategies as st

from netlab.sim import ECMP, PFC, Credits, Lossy, leaf_spine, single_switch

MODES = {"lossy": Lossy, "pfc": PFC, "credits": Credits}


class ClockWatchingECMP(ECMP):
    """ECMP that also checks the simulated clock never goes backwards between decisions."""

    def __init__(self):
        self.last_s = 0.0
        self.calls = 0

    def choose(self, switch, packet, candidates):
        now = switch.sim.now_s
        assert now >= self.last_s, f"time ran backwards: {now} < {self.last_s}"
        self.last_s = now
        self.calls += 1
        return super().choose(switch, packet, candidates)


scenarios = st.fixed_dictionaries({
    "mode": st.sampled_from(sorted(MODES)),
    "leaf_spine": st.booleans(),
    "buffer_bytes": st.integers(30_000, 200_000),
    "seed": st.integers(0, 2**16),
    "cut_through": st.booleans(),
    "flows": st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(1, 150_000),
                                st.floats(0, 20e-6)), min_size=1, max_size=6),
})


def build(s):
    fc = MODES[s["mode"]](s["buffer_bytes"])
    lb = ClockWatchingECMP()
    common = dict(flow_control=fc, seed=s["seed"], cut_through=s["cut_through"], switch_latency_s=100e-9,
                  load_balancer=lb, rto_s=100e-6)
    if s["leaf_spine"]:
        net = leaf_spine(2, 2, 4, 100e9, 100e9, **common)
    else:
        net = single_switch(8, 100e9, **common)
    added = 0
    for src, dst, size, start in s["flows"]:
        if src != dst:
            net.add_flow(f"h{src}", f"h{dst}", size, start_s=start)
            added += 1
    if not added:
        net.add_flow("h0", "h1", 1000)
    net.sample_queues([f"{next(iter(net.switches))}[0]"], 5e-6)
    return net, lb


def comparable(result):
    """The result as nested tuples with NaN replaced, so two runs can be compared with ==."""
    def clean(x):
        if isinstance(x, float) and math.isnan(x):
            return "nan"
        if isinstance(x, tuple):
            return tuple(clean(y) for y in x)
        if hasattr(x, "__dataclass_fields__"):
            return tuple(clean(getattr(x, f)) for f in x.__dataclass_fields__)
        return x
    return clean(result)


@settings(max_examples=40, deadline=None)
@given(s=scenarios)
def test_invariants(s):
    net, lb = build(s)
    result = net.run(until_s=20e-3, max_events=400_000)
    # bytes conserved, whatever the stop reason
    assert result.sent_bytes == (result.received_bytes + result.dropped_bytes
                                 + result.trimmed_bytes + result.in_flight_bytes)
    assert result.in_flight_bytes >= 0
    # credits never negative
    for port in result.ports:
        if not math.isnan(port.min_credits_bytes):
            assert port.min_credits_bytes >= 0
    # time monotonic: queue samples increase, the load balancer saw a non-decreasing clock
    times = result.queue_traces[0].time_s
    assert all(b > a for a, b in zip(times, times[1:]))
    if s["mode"] != "lossy":
        assert result.dropped_packets == 0
        assert result.stop_reason == "complete"          # no cycles here, so no deadlock
    for flow, f in zip(result.flows, net.flows):
        if flow.finished:
            assert flow.delivered_bytes == flow.size_bytes
            assert f.receiver.ranges == [[0, flow.size_bytes]]      # every byte, once
    if s["mode"] != "lossy":
        assert all(flow.finished and flow.duplicate_bytes == 0 and flow.retransmitted_packets == 0
                   for flow in result.flows)


@settings(max_examples=10, deadline=None)
@given(s=scenarios)
def test_same_seed_same_result(s):
    first = build(s)[0].run(until_s=5e-3, max_events=100_000)
    second = build(s)[0].run(until_s=5e-3, max_events=100_000)
    assert comparable(first) == comparable(second)
