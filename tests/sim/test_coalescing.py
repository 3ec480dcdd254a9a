"""Coalesced SACKs and credits (``ack_every``, ``packets_per_credit`` in :mod:`netlab.sim.uet`).

A receiver that acknowledges every k-th packet must send about a k-th of the SACKs, must
not change when data arrives (ACKs do not carry data), must never leave a sender whose
window is full waiting for a timeout, and must answer an ECN mark at once. A credit
packet that carries k credits must hand out the same credits at the same average rate.
"""

from functools import partial
import math

import pytest

from netlab.sim import Lossy, single_switch
from netlab.sim.cc import CongestionControl
from netlab.sim.packet import SACK, Packet
from netlab.sim.queues import DropTail, ECNMarking
from netlab.sim.uet import UETConfig, UETReceiver, UETSender, uet
from netlab.sim.uet_cc import NSCC
from netlab.uet.experiments import incast

MTU = 4096


def one_flow(n_packets, ack_every, window_bytes=10e6, ecn=None, seed=0):
    net = single_switch(2, 100e9, propagation_s=1e-6, window_bytes=window_bytes, seed=seed,
                        flow_control=Lossy(10e6), queue_policy=DropTail(ecn=ecn), rto_s=1e-3)
    net.add_flow("h0", "h1", n_packets * MTU, transport=uet(spray=False, ack_every=ack_every))
    result = net.run()
    receiver = next(iter(net.hosts["h1"].receivers.values()))
    return result, receiver


@pytest.mark.parametrize("k", [2, 4, 8])
def test_one_sack_per_k_packets_and_the_same_arrivals(k):
    # An open window: the sender never waits for an ACK, so SACKs only come every k-th packet
    # and with the last one: ceil(100 / k) of them. Data does not wait for ACKs, so the flow
    # completes at the same instant as with one SACK per packet.
    base, base_rx = one_flow(100, 1)
    result, rx = one_flow(100, k)
    assert base_rx.sacks_sent == 100
    assert rx.sacks_sent == math.ceil(100 / k)
    assert result.flows[0].completion_time_s == base.flows[0].completion_time_s
    assert result.events_processed < base.events_processed


def test_a_full_window_asks_for_an_ack_instead_of_waiting_for_a_timeout():
    # A window of two packets and one SACK per 8: without the sender's ack request the
    # receiver would hold its SACK for packets that cannot come, and every two packets would
    # wait 1 ms for the timer (32 ms in all). With it no timer fires, and the flow takes at
    # most 10 % longer than with one SACK per packet (a SACK now frees two packets at once).
    base, _ = one_flow(64, 1, window_bytes=2 * (MTU + 64))
    result, rx = one_flow(64, 8, window_bytes=2 * (MTU + 64))
    assert result.flows[0].timeouts == 0
    assert base.flows[0].completion_time_s <= result.flows[0].completion_time_s
    assert result.flows[0].completion_time_s <= 1.1 * base.flows[0].completion_time_s
    assert rx.sacks_sent == 32                    # the second of every pair asks


class SpyReceiver(UETReceiver):
    """Records the marked packets that arrive and the packets each SACK answers."""

    marked: list = []
    sacked: list = []

    def on_packet(self, packet):
        if packet.ecn:
            self.marked.append((packet.flow_id, packet.seq))
        UETReceiver.on_packet(self, packet)

    def _sack(self, packet):
        self.sacked.append((packet.flow_id, packet.seq))
        UETReceiver._sack(self, packet)


def test_an_ecn_mark_is_acknowledged_at_once():
    # Two senders into one receiver keep the switch queue non-empty; any queued byte marks.
    # Every marked packet must get its own SACK, whatever ack_every says.
    marked, sacked = [], []
    SpyReceiver.marked, SpyReceiver.sacked = marked, sacked
    config = UETConfig(spray=False, ack_every=8)
    pair = (partial(UETSender, config=config), partial(SpyReceiver, config=config, schedulers={}))
    net = single_switch(3, 100e9, propagation_s=1e-6, window_bytes=10e6, seed=0, flow_control=Lossy(10e6),
                        queue_policy=DropTail(ecn=ECNMarking(0.0, 1.0, 1.0)), rto_s=1e-3)
    for src in ("h0", "h1"):
        net.add_flow(src, "h2", 40 * MTU, transport=pair)
    net.run()
    assert len(marked) > 40                       # the test means something: most packets marked
    assert set(marked) <= set(sacked)
    # without marks, 8 packets per SACK would have sent ceil(40 / 8) = 5 per flow
    assert len(sacked) > 2 * 5


def test_nscc_counts_the_packets_a_sack_reports():
    # Fast increase is fi_bytes * acked / cwnd, with acked the bytes the SACK reports:
    # a SACK for 4 packets raises the window 4 times as much as a SACK for one.
    from types import SimpleNamespace
    grown = []
    for count in (1, 4):
        s = SimpleNamespace(sim=SimpleNamespace(now_s=1e-3), cwnd_bytes=100e3, max_cwnd_bytes=1e6,
                            mtu_bytes=MTU, header_bytes=64)
        cc = NSCC(target_rtt_s=20e-6, fi_bytes=16384)
        cc.attach(s)
        cc.on_ack(s, Packet(SACK, 0, 1, 0, 64, info=(0, 0, 0, 0, False, 1e-3 - 5e-6, count)))
        grown.append(s.cwnd_bytes - 100e3)
    assert grown[0] == pytest.approx(16384 * MTU / 100e3)
    assert grown[1] == pytest.approx(4 * grown[0])


def test_credits_in_fours_keep_the_incast_at_line_rate():
    # 8 senders x 200 KB through one switch with receiver credits: the receiver's link is
    # the bottleneck, so the last flow ends near 8 x 200 KB at 100 Gb/s plus headers either
    # way; four credits per CREDIT packet send about a quarter of the credit packets.
    one = incast("uet-trim-credits", 8, 200_000, seed=1)
    four = incast("uet-trim-credits", 8, 200_000, seed=1, ack_every=4, packets_per_credit=4)
    wire = 8 * (200_000 + math.ceil(200_000 / MTU) * 64) * 8 / 100e9
    for r in (one, four):
        assert wire <= r.max_completion_s <= 1.05 * wire
        assert r.timeouts == 0
    assert four.events < 0.8 * one.events


@pytest.mark.parametrize("field, value", [("ack_every", 0), ("ack_every", 65), ("packets_per_credit", 0)])
def test_bad_coalescing_is_rejected(field, value):
    with pytest.raises(ValueError, match=field):
        UETConfig(**{field: value})
    with pytest.raises(TypeError, match=field):
        UETConfig(**{field: 2.5})


def test_go_back_n_does_not_coalesce():
    with pytest.raises(ValueError, match="ack_every"):
        incast("roce-pfc", 2, 20_000, ack_every=4)


def test_a_duplicate_is_acknowledged_at_once():
    # A duplicate means the sender resent a packet whose SACK it has not seen: it must hear
    # at once, not after ack_every more packets.
    net = single_switch(2, 100e9)
    flow = net.add_flow("h0", "h1", 10 * MTU)
    sent = []
    rx = UETReceiver(net, flow, net.hosts["h1"], None, config=UETConfig(ack_every=8))
    rx.send_ack = lambda kind, seq, info=None: sent.append((kind, seq, info))

    def data(seq):
        return Packet("data", 0, 0, 1, MTU + 64, seq=seq, offset_bytes=seq * MTU, payload_bytes=MTU, info=seq)
    rx.on_packet(data(0))
    rx.on_packet(data(1))
    assert sent == []                             # 2 of 8 packets: no SACK yet
    rx.on_packet(data(1))                         # the duplicate
    assert len(sent) == 1 and sent[0][0] == SACK and sent[0][1] == 2      # cumulative point 2
    assert rx.duplicate_bytes == MTU


@pytest.mark.parametrize("k", [1, 4])
def test_a_credit_packet_carries_up_to_k_credits(k):
    # Four senders of 49 packets into one receiver with credits: after the 8 unsolicited packets
    # each flow needs 41 more credits. Every CREDIT packet that reaches a sender carries at most
    # k, together exactly what the scheduler granted, and with k = 4 nearly all carry 4.
    from tests.sim.tracing import trace_arrivals
    n_packets = math.ceil(200_000 / MTU)
    net = single_switch(5, 100e9, propagation_s=1e-6, flow_control=Lossy(10e6), seed=1)
    pair = uet(spray=False, credits=True, packets_per_credit=k)
    for i in range(1, 5):
        net.add_flow(f"h{i}", "h0", 200_000, transport=pair)
    log = trace_arrivals(net, [])
    r = net.run()
    assert r.stop_reason == "complete" and r.dropped_packets == 0
    scheduler = next(iter(net.hosts["h0"].receivers.values())).scheduler
    carried = [seq for _, node, _, kind, _, seq, *_ in log if kind == "credit" and node != "s0"]
    assert sum(carried) == scheduler.credits_sent >= 4 * (n_packets - 8)
    assert max(carried) == k and min(carried) >= 1
    assert len(carried) <= math.ceil(scheduler.credits_sent / k) + 4     # a short last grant per flow


class CutOnce(CongestionControl):
    """A congestion control that cuts the window to one packet at the first SACK, after
    the packets in flight left with an open window (what NSCC does under incast)."""

    cut = False

    def on_ack(self, sender, packet):
        if not self.cut:
            self.cut = True
            sender.cwnd_bytes = MTU + 64


@pytest.mark.parametrize("k", [4, 8])
def test_a_window_cut_after_sending_does_not_wait_for_the_timeout(k):
    # 40 packets, open window: the first k leave, the k-th SACK cuts the window to one packet.
    # The packets then in flight carry no ack request (they left with the window open); the
    # receiver, short of k, would hold its SACK and the sender wait out the 1 ms timer (the
    # stall of perf review F1). The sender must ask for an ACK instead: no timeout, and the
    # flow ends within one packet-at-a-time pace: 40 round trips of about 2 x (2 hops of 1 us
    # + 0.33 us serialisation), far below the 1 ms timer.
    net = single_switch(2, 100e9, propagation_s=1e-6, window_bytes=10e6, seed=0,
                        flow_control=Lossy(10e6), rto_s=1e-3)
    net.add_flow("h0", "h1", 40 * MTU, transport=uet(spray=False, ack_every=k), cc=CutOnce)
    result = net.run()
    assert result.stop_reason == "complete"
    assert result.flows[0].timeouts == 0
    assert result.flows[0].completion_time_s < 40 * 6e-6


def test_an_ack_request_is_answered_at_once_or_by_the_next_packet():
    # The receiver's half of the ACK request: holding unacknowledged packets it SACKs at once;
    # holding none (the probe overtook its packet), it SACKs the next packet it places.
    net = single_switch(2, 100e9)
    flow = net.add_flow("h0", "h1", 10 * MTU)
    sent = []
    rx = UETReceiver(net, flow, net.hosts["h1"], None, config=UETConfig(ack_every=8))
    rx.send_ack = lambda kind, seq, info=None: sent.append((kind, seq, info))

    def data(seq):
        return Packet("data", 0, 0, 1, MTU + 64, seq=seq, offset_bytes=seq * MTU, payload_bytes=MTU, info=seq)
    probe = Packet("data", 0, 0, 1, 64, seq=-1, offset_bytes=0, payload_bytes=0, info=-1)
    rx.on_packet(data(0))
    assert sent == []
    rx.on_packet(probe)
    assert len(sent) == 1 and sent[0][1] == 1 and sent[0][2][6] == 1     # cumulative 1, reports 1 packet
    rx.on_packet(probe)                           # nothing unacknowledged: no empty SACK ...
    assert len(sent) == 1
    rx.on_packet(data(1))                         # ... but the next packet is answered at once
    assert len(sent) == 2 and sent[1][1] == 2
    rx.on_packet(data(2))                         # and then coalescing resumes
    assert len(sent) == 2
    assert rx.packets_received == 3 and rx.delivered_bytes == 3 * MTU


# htsim's own incast matrix, connection_matrices/incast_128.cm of uet-htsim (the snapshot
# bench_sim.py names): 127 senders of 2 MB into h33, in the file's order.
HTSIM_INCAST_128 = [
    104, 35, 60, 97, 19, 75, 99, 26, 5, 50, 21, 52, 40, 54, 44, 100, 51, 7, 66, 65, 59, 20, 67, 6, 11, 43,
    119, 61, 30, 13, 64, 106, 62, 121, 85, 122, 14, 2, 49, 0, 24, 101, 81, 42, 107, 4, 76, 111, 79, 12, 53,
    113, 80, 98, 31, 37, 8, 72, 68, 74, 39, 102, 89, 48, 91, 90, 70, 25, 105, 22, 108, 125, 57, 92, 87, 115,
    95, 77, 45, 15, 41, 82, 93, 47, 55, 73, 71, 63, 118, 46, 32, 17, 123, 58, 34, 10, 116, 36, 1, 78, 124,
    110, 56, 3, 127, 96, 27, 69, 9, 16, 120, 94, 83, 28, 112, 18, 86, 29, 84, 23, 114, 109, 103, 126, 117,
    88, 38]


def test_htsim_incast_matrix_with_htsim_like_coalescing_has_no_timeout():
    # perf review F1: SACKs per 4 packets and credits in fours, on htsim's incast_128.cm over
    # the 16 x 8 leaf-spine, left 5 senders waiting out the 1 ms timer (tail 21.58 ms, 1.046x
    # the wire time). The receiver's link carries 127 x 2 MB plus a 64-byte header per
    # 4096-byte packet (489 packets per flow): that wire time bounds the tail from below,
    # and with no stall the tail stays within 0.5 % of it.
    from netlab import specs
    from netlab.uet.experiments import _incast_network
    assert sorted(HTSIM_INCAST_128) == [h for h in range(128) if h != 33]
    net, pair, cc = _incast_network("uet-trim-credits", 128, 100e9, specs.value("sim.assume.buffer_per_port"),
                                    1e-6, 1, (16, 8, 8), {"ack_every": 4, "packets_per_credit": 4})
    for h in HTSIM_INCAST_128:
        net.add_flow(f"h{h}", "h33", 2_000_000, transport=pair, cc=cc)
    result = net.run(max_events=50_000_000)
    wire_s = 127 * (2_000_000 + math.ceil(2_000_000 / MTU) * 64) * 8 / 100e9
    assert result.stop_reason == "complete"
    assert sum(f.timeouts for f in result.flows) == 0
    assert wire_s <= result.max_completion_time_s <= 1.005 * wire_s
