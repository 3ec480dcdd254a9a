"""The fast path gives the same packets at the same instants as the event-by-event path.

``Network(event_by_event=True)`` puts every end of transmission on the event heap
(the reference). By default a port whose end of transmission would find nothing to
send keeps that event off the heap (its time and sequence number reserved) and pushes
it only if something is queued before it; see :meth:`netlab.sim.port.Port.transmit`.
On random small scenarios -- lossy, ECN, trimming, PFC, credits, cut-through, switch
latency, go-back-N and the UET-like transport with spraying, credits, NSCC and coalesced
SACKs and credits, DCQCN
-- both modes must record the same arrival trace (every packet at every node, in
order, at the same float time), the same results, and the fast path must run no more
events than the reference.
"""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab.sim import PFC, Credits, Lossy, leaf_spine, single_switch
from netlab.sim.cc import DCQCN
from netlab.sim.loadbalance import Adaptive, Spray
from netlab.sim.queues import DropTail, ECNMarking
from netlab.sim.transport import GoBackN
from netlab.sim.trimming import Trimming
from netlab.sim.uet import uet
from netlab.sim.uet_cc import NSCC

from tests.sim.test_properties import comparable
from tests.sim.tracing import trace_arrivals


scenarios = st.fixed_dictionaries({
    "mode": st.sampled_from(["lossy", "ecn", "trim", "pfc", "credits"]),
    "transport": st.sampled_from(["gbn", "gbn-dcqcn", "uet", "uet-spray", "uet-credits", "uet-nscc",
                                  "uet-coalesced", "uet-credits-coalesced"]),
    "leaf_spine": st.booleans(),
    "balancer": st.sampled_from(["ecmp", "spray", "adaptive"]),
    "buffer_bytes": st.integers(20_000, 120_000),
    "seed": st.integers(0, 2**16),
    "cut_through": st.booleans(),
    "latency": st.sampled_from([0.0, 100e-9]),
    "flows": st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.integers(1, 60_000),
                                st.sampled_from([0.0, 0.0, 1e-6, 3.3e-6])), min_size=1, max_size=6),
})


def build(s, event_by_event):
    buf = s["buffer_bytes"]
    ecn = ECNMarking(0.05 * buf, 0.5 * buf, 0.5)
    fc = {"pfc": PFC(max(buf, 60_000)), "credits": Credits(buf)}.get(s["mode"], Lossy(buf))
    policy = {"ecn": DropTail(ecn=ecn), "trim": Trimming(ecn=ecn)}.get(s["mode"])
    lb = {"ecmp": None, "spray": Spray(), "adaptive": Adaptive()}[s["balancer"]]
    common = dict(flow_control=fc, queue_policy=policy, seed=s["seed"], cut_through=s["cut_through"],
                  switch_latency_s=s["latency"], rto_s=50e-6, window_bytes=40_000,
                  event_by_event=event_by_event)
    if lb is not None:
        common["load_balancer"] = lb
    if s["leaf_spine"]:
        net = leaf_spine(2, 2, 4, 100e9, 100e9, **common)
    else:
        net = single_switch(8, 100e9, **common)
    t = s["transport"]
    pair = {"gbn": GoBackN, "gbn-dcqcn": GoBackN, "uet": uet(spray=False), "uet-spray": uet(),
            "uet-credits": uet(credits=True), "uet-nscc": uet(),
            "uet-coalesced": uet(ack_every=4),
            "uet-credits-coalesced": uet(credits=True, ack_every=4, packets_per_credit=4)}[t]
    # NSCC with a short target: its window moves (after the SACK's kick) on most ACKs
    cc = {"gbn-dcqcn": DCQCN, "uet-nscc": lambda: NSCC(target_rtt_s=2e-6),
          "uet-coalesced": lambda: NSCC(target_rtt_s=2e-6)}.get(t)
    added = 0
    for src, dst, size, start in s["flows"]:
        if src != dst:
            net.add_flow(f"h{src}", f"h{dst}", size, start_s=start, transport=pair, cc=cc)
            added += 1
    if not added:
        net.add_flow("h0", "h1", 1000, transport=pair, cc=cc)
    return net


@settings(max_examples=60, deadline=None)
@given(s=scenarios)
def test_fast_path_and_event_by_event_give_identical_traces(s):
    runs = []
    for event_by_event in (True, False):
        net = build(s, event_by_event)
        trace = trace_arrivals(net, [])
        result = net.run(until_s=2e-3, max_events=300_000)
        runs.append((trace, result))
    (ref_trace, ref), (fast_trace, fast) = runs
    assert ref.stop_reason != "max_events"           # the bound is there for safety only
    assert fast_trace == ref_trace
    assert fast.stop_reason == ref.stop_reason and fast.time_s == ref.time_s
    without_events = lambda r: comparable(r)[:2] + comparable(r)[3:]   # noqa: E731
    assert without_events(fast) == without_events(ref)
    assert fast.events_processed <= ref.events_processed


def test_fast_path_saves_the_idle_ends_of_an_incast():
    # 8 x 100 kB into one host: the senders' NICs and most switch ports go idle after
    # nearly every packet; the fast path skips those events and nothing else changes.
    def run(event_by_event):
        net = single_switch(9, 100e9, flow_control=PFC(500_000), event_by_event=event_by_event)
        for i in range(1, 9):
            net.add_flow(f"h{i}", "h0", 100_000)
        return net.run()
    ref, fast = run(True), run(False)
    assert [f.completion_time_s for f in fast.flows] == [f.completion_time_s for f in ref.flows]
    assert [p.tx_packets for p in fast.ports] == [p.tx_packets for p in ref.ports]
    n_packets = 8 * math.ceil(100_000 / 4096)
    # every data packet and its ACK cross two links: 4 transmissions, 4 arrivals
    assert ref.events_processed >= 8 * n_packets
    assert fast.events_processed < 0.8 * ref.events_processed


def test_event_by_event_is_validated():
    with pytest.raises(TypeError, match="event_by_event"):
        single_switch(2, 100e9, event_by_event="yes")


def test_window_growth_after_the_kick_is_not_missed():
    # A lossy incast with NSCC: after timeouts the window is one packet, a SACK kicks the
    # idle NIC, which sends and would go quiet -- then NSCC grows the window. The end of
    # that transmission must still look for the next packet (Port.notify).
    def run(event_by_event):
        net = single_switch(17, 100e9, 1e-6, flow_control=Lossy(500_000), window_bytes=256_000, seed=3,
                            queue_policy=DropTail(ecn=ECNMarking(10_000, 100_000, 0.2)),
                            event_by_event=event_by_event)
        pair = uet()
        for i in range(1, 17):
            net.add_flow(f"h{i}", "h0", 200_000, transport=pair, cc=NSCC)
        trace = trace_arrivals(net, [])
        return trace, net.run()
    (ref_trace, ref), (fast_trace, fast) = run(True), run(False)
    assert sum(f.timeouts for f in ref.flows) > 0
    assert len(ref_trace) > 16 * 200_000 // 4096      # (the trace was read before the run, empty)
    assert fast_trace == ref_trace
    assert [f.completion_time_s for f in fast.flows] == [f.completion_time_s for f in ref.flows]
