"""The UET-like transport: closed forms, exactly-once placement, trimming, incast, spraying."""

from functools import partial
import math
import random

from hypothesis import given, settings, strategies as st, HealthCheck
import numpy as np
import pytest

from netlab.uet import loss_recovery as transport
from netlab.sim import topology
from netlab.sim.packet import DATA, NACK, SACK, Packet
from netlab.sim.queues import OutputQueue
from netlab.sim.switch import Lossy
from netlab.sim.trimming import RandomLoss, Trimming
from netlab.sim.uet import UETConfig, UETReceiver, UETSender, uet
from netlab.uet.experiments import (INCAST_CONFIGS, go_back_n_pipe, goodput_vs_loss, incast,
                                      spraying)
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    uet: dict(mode="RUD", spray=True, credits=False, initial_credit_packets=8, reorder_threshold=16,
              credit_timeout_s=20e-6, ack_every=1, packets_per_credit=1),
    go_back_n_pipe: dict(bandwidth_bps=100e9, propagation_s=1e-6, mtu_bytes=4096, header_bytes=64,
                         ack_bytes=64),
    goodput_vs_loss: dict(transport="uet", loss_rate=0.01, n_bytes=40_000, bandwidth_bps=100e9,
                          propagation_s=1e-6, rto_s=20e-6, window_bytes=256e3, seed=0),
    incast: dict(config="uet", n_senders=2, bytes_per_sender=20_000, bandwidth_bps=100e9,
                 buffer_bytes=500e3, propagation_s=1e-6, seed=0, max_events=100_000, ack_every=1,
                 packets_per_credit=1),
    spraying: dict(config="uet-spray", n_leaves=2, n_spines=2, hosts_per_leaf=1, bytes_per_flow=20_000,
                   bandwidth_bps=100e9, propagation_s=1e-6, seed=0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


# --- the closed forms ------------------------------------------------------------------
def test_go_back_n_pipe_by_hand():
    # T = 4160 B * 8 / 100 Gb/s = 332.8 ns; 4 d = 4 us; 2 t_ack = 10.24 ns
    # K = ceil(3 + 4010.24 / 332.8) = ceil(15.05) = 16
    assert go_back_n_pipe(100e9, 1e-6, 4096, 64, 64) == 16


@pytest.mark.parametrize("p", [0.005, 0.02])
def test_simulated_goodput_matches_closed_forms(p):
    # 8 seeds per point; the mean must lie within a 99.9 % confidence interval (3.3 standard
    # errors) of the closed form, plus 1.5 percentage points for what the closed form leaves
    # out: the start and the tail of a finite transfer (a tail loss waits for an RTO) and
    # go-back-N's second loss of the same packet (no second NACK: an RTO, IB-style).
    k = go_back_n_pipe(100e9, 1e-6, 4096, 64, 64)
    w = 256e3 / 4096                                   # window in packets (62.5 >= K)
    expected = {"roce": transport.go_back_n_efficiency(p, w, k),
                "uet": transport.selective_repeat_efficiency(p, w, k)}
    for name in ("roce", "uet"):
        runs = [goodput_vs_loss(name, p, n_bytes=2_000_000, seed=s).efficiency for s in range(8)]
        mean, half = np.mean(runs), 3.3 * np.std(runs, ddof=1) / math.sqrt(len(runs))
        assert abs(mean - expected[name]) <= half + 0.015, (name, mean, half, expected[name])


def test_selective_repeat_beats_go_back_n_in_the_simulator():
    roce = goodput_vs_loss("roce", 0.01, n_bytes=1_000_000, seed=3)
    rud = goodput_vs_loss("uet", 0.01, n_bytes=1_000_000, seed=3)
    assert rud.efficiency > roce.efficiency
    assert rud.retransmitted_packets < roce.retransmitted_packets


# --- exactly-once placement at the right offset ------------------------------------------
class PlacementReceiver(UETReceiver):
    """Counts, byte by byte, how often the application buffer is written."""

    writes: dict = {}

    def place(self, packet) -> None:
        assert packet.offset_bytes == packet.seq * self.network.mtu_bytes      # right offset
        buf = self.writes.setdefault(self.flow.flow_id, np.zeros(self.flow.size_bytes, np.int32))
        buf[packet.offset_bytes:packet.offset_bytes + packet.payload_bytes] += 1
        super().place(packet)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=st.floats(0.0, 0.15), spray=st.booleans(), mode=st.sampled_from(["RUD", "ROD"]),
       sizes=st.lists(st.integers(1, 120_000), min_size=1, max_size=4), seed=st.integers(0, 1000))
def test_every_byte_is_placed_exactly_once(p, spray, mode, sizes, seed):
    config = UETConfig(mode=mode, spray=spray and mode == "RUD")
    writes: dict = {}
    receiver = type("R", (PlacementReceiver,), {"writes": writes})
    pair = (partial(UETSender, config=config), partial(receiver, config=config, schedulers={}))
    # Two leaves, four spines: sprayed packets take different paths and arrive out of order.
    net = topology.leaf_spine(2, 4, 4, 100e9, 100e9, queue_policy=RandomLoss(p), rto_s=30e-6, seed=seed)
    for i, size in enumerate(sizes):
        net.add_flow(f"h{i}", f"h{4 + i}", size, transport=pair)
    r = net.run(max_events=2_000_000)
    assert r.stop_reason == "complete"
    for flow in r.flows:
        assert flow.finished and flow.delivered_bytes == flow.size_bytes
        assert (writes[flow.flow_id] == 1).all()                   # every byte, exactly once
    assert r.sent_bytes == r.received_bytes + r.dropped_bytes + r.trimmed_bytes + r.in_flight_bytes


def test_spraying_reorders_and_rud_places_anyway():
    r = spraying("uet-spray", n_leaves=2, n_spines=4, hosts_per_leaf=4, bytes_per_flow=400_000, seed=2)
    assert r.out_of_order_packets > 0 and r.retransmitted_packets == 0


# --- the SACK bitmap, by hand --------------------------------------------------------------
def test_sack_bitmap_by_hand():
    net = topology.single_switch(2, 100e9)
    flow = net.add_flow("h0", "h1", 10 * 4096)
    sent = []
    rx = UETReceiver(net, flow, net.hosts["h1"], None, config=UETConfig())
    rx.send_ack = lambda kind, seq, info=None: sent.append((kind, seq, info))
    for seq in (0, 2, 3, 6):
        rx.on_packet(Packet(DATA, 0, 0, 1, 4160, seq=seq, offset_bytes=seq * 4096, payload_bytes=4096, info=seq))
    kind, cumulative, info = sent[-1]
    # placed {0, 2, 3, 6}: cumulative point 1; bits relative to 1: 2 -> 1, 3 -> 2, 6 -> 5
    assert kind == SACK and cumulative == 1 and info[1] == 0b100110
    assert rx.out_of_order_packets == 3                       # 2, 3 and 6 arrived past a gap
    trimmed = Packet(DATA, 0, 0, 1, 4160, seq=1, offset_bytes=4096, payload_bytes=4096, info=9)
    trimmed.trim(64)
    rx.on_packet(trimmed)
    assert sent[-1] == (NACK, 1, 9) and rx.delivered_bytes == 4 * 4096



@settings(max_examples=40, deadline=None)
@given(order=st.permutations(range(150)), data=st.data())
def test_sack_bitmaps_match_the_set_of_placed_packets(order, data):
    """Every SACK, for any arrival order (duplicates included, gaps longer than the bitmap):
    its cumulative point is the first missing packet and bit i says whether packet
    cumulative + i was placed, computed here from the set of packets placed so far."""
    n = 150
    net = topology.single_switch(2, 100e9)
    flow = net.add_flow("h0", "h1", n * 4096)
    sent = []
    rx = UETReceiver(net, flow, net.hosts["h1"], None, config=UETConfig())
    rx.send_ack = lambda kind, seq, info=None: sent.append((kind, seq, info))
    arrivals = list(order[:data.draw(st.integers(1, n))])
    arrivals += data.draw(st.lists(st.sampled_from(arrivals), max_size=10))     # duplicates
    placed = set()
    for seq in arrivals:
        placed.add(seq)
        rx.on_packet(Packet(DATA, 0, 0, 1, 4160, seq=seq, offset_bytes=seq * 4096, payload_bytes=4096, info=seq))
        kind, cumulative, info = sent[-1]
        first_missing = min(set(range(n + 1)) - placed)
        expected = sum(1 << i for i in range(64) if cumulative + i in placed)
        assert kind == SACK and cumulative == info[0] == first_missing
        assert info[1] == expected and info[2] == seq
    assert rx.n_received == len(placed)

# --- trimming ------------------------------------------------------------------------------
def test_trimming_a_full_queue_keeps_the_header():
    policy = Trimming(trim_priority=6, header_buffer_bytes=1024)
    q = OutputQueue(8000, policy, random.Random(0))
    first = Packet(DATA, 1, 0, 1, 4160, seq=0, payload_bytes=4096)
    second = Packet(DATA, 1, 0, 1, 4160, seq=1, offset_bytes=4096, payload_bytes=4096)
    assert q.enqueue(first) is first and not first.trimmed
    kept = q.enqueue(second)                                   # 4160 + 4160 > 8000: trim
    assert kept is second and kept.trimmed and kept.size_bytes == 64 and kept.priority == 6
    assert (kept.seq, kept.offset_bytes, kept.flow_id) == (1, 4096, 1)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 24), buffer_kb=st.integers(20, 300), seed=st.integers(0, 100))
def test_trimming_never_loses_a_header(n, buffer_kb, seed):
    # No congestion control: the harshest case, every sender at line rate into one port.
    # The header budget (64 KB: a thousand headers) is far smaller than the data buffer.
    policy = Trimming(header_buffer_bytes=64e3)
    net = topology.single_switch(n + 1, 100e9, flow_control=Lossy(buffer_kb * 1e3),
                                 queue_policy=policy, window_bytes=256e3, seed=seed)
    pair = uet()
    for i in range(1, n + 1):
        net.add_flow(f"h{i}", "h0", 100_000, transport=pair)
    r = net.run(max_events=3_000_000)
    assert r.stop_reason == "complete"
    if (n - 1) * 100_000 > 1.1 * buffer_kb * 1e3:               # the queue peaks near (n-1) x 100 KB
        assert policy.trimmed_packets > 0
    assert policy.headers_dropped == 0 and r.dropped_packets == 0
    # Each trim reached the receiver as a header and came back to its sender as a NACK.
    receivers = [f.receiver for f in net.flows]
    senders = [f.sender for f in net.flows]
    assert policy.trimmed_packets == sum(x.trimmed_received for x in receivers) == sum(s.trim_nacks for s in senders)


# --- incast and spraying in every configuration ----------------------------------------------
@pytest.mark.parametrize("config", INCAST_CONFIGS)
def test_incast_runs_in_every_configuration(config):
    r = incast(config, 15, 200_000, seed=1)
    assert math.isfinite(r.max_completion_s) and r.slowdown >= 1.0
    if config == "roce-pfc":
        assert r.dropped_packets == 0           # lossless (PFC accounts per ingress port)
    if config == "uet-trim-credits":
        assert r.dropped_packets == 0 and r.slowdown < 1.1


def test_incast_lossy_go_back_n_suffers_timeouts_that_trimming_and_credits_avoid():
    roce = incast("roce-lossy", 31, 250_000, seed=1)
    best = incast("uet-trim-credits", 31, 250_000, seed=1)
    assert roce.timeouts > 0 and roce.dropped_packets > 0
    assert best.timeouts == 0 and best.slowdown < roce.slowdown


def test_spraying_helps_uet_and_hurts_go_back_n():
    ecmp = spraying("uet-ecmp", bytes_per_flow=250_000, seed=1)
    spray = spraying("uet-spray", bytes_per_flow=250_000, seed=1)
    roce_spray = spraying("roce-spray", bytes_per_flow=250_000, seed=1)
    assert spray.slowdown < ecmp.slowdown
    assert roce_spray.retransmitted_packets > 0 and roce_spray.slowdown > spray.slowdown


def test_runs_repeat_exactly_for_a_seed():
    a, b = incast("uet-trim", 7, 100_000, seed=5), incast("uet-trim", 7, 100_000, seed=5)
    assert (a.max_completion_s, a.trimmed_packets, a.events) == (b.max_completion_s, b.trimmed_packets, b.events)


# --- the NSCC-like window and the receiver credits -------------------------------------------
def _stub_sender(cwnd):
    from types import SimpleNamespace
    return SimpleNamespace(sim=SimpleNamespace(now_s=1e-3), cwnd_bytes=cwnd, max_cwnd_bytes=256e3,
                           mtu_bytes=4096, header_bytes=64)


def _ack(ecn, sent_s):
    return Packet(SACK, 0, 1, 0, 64, info=(0, 0, 0, 0, ecn, sent_s))


def test_nscc_quadrants_by_hand():
    from netlab.sim.uet_cc import NSCC
    cc = NSCC(target_rtt_s=20e-6, md_factor=0.3, ai_bytes=4096, fi_bytes=16384)
    s = _stub_sender(100e3)
    cc.attach(s)
    cc.on_ack(s, _ack(True, 1e-3 - 50e-6))        # marked, 50 us > 20 us: 100 KB x 0.7 = 70 KB
    assert s.cwnd_bytes == pytest.approx(70e3)
    cc.on_ack(s, _ack(True, 1e-3 - 50e-6))        # a second mark in the same RTT: no second cut
    assert s.cwnd_bytes == pytest.approx(70e3)
    cc.on_ack(s, _ack(True, 1e-3 - 5e-6))         # marked but fast: hold
    assert s.cwnd_bytes == pytest.approx(70e3)
    cc.on_ack(s, _ack(False, 1e-3 - 5e-6))        # clean and fast: + 16384 x 4096 / 70e3
    assert s.cwnd_bytes == pytest.approx(70e3 + 16384 * 4096 / 70e3)
    w = s.cwnd_bytes
    cc.on_ack(s, _ack(False, 1e-3 - 50e-6))       # clean but slow: + 4096 x 4096 / w
    assert s.cwnd_bytes == pytest.approx(w + 4096 * 4096 / w)
    cc.on_timeout(s)
    assert s.cwnd_bytes == 4160                   # one packet


def test_receiver_credits_share_the_link_fairly():
    # Round-robin credits: 15 equal flows finish within a few per cent of one another,
    # and no sender ever holds negative credit.
    from netlab.sim.queues import DropTail
    net = topology.single_switch(16, 100e9, propagation_s=1e-6, queue_policy=DropTail(), seed=4)
    pair = uet(credits=True)
    for i in range(1, 16):
        net.add_flow(f"h{i}", "h0", 300_000, transport=pair)
    r = net.run()
    times = [f.completion_time_s for f in r.flows]
    assert r.stop_reason == "complete" and max(times) / min(times) < 1.05
    assert all(f.sender.credits >= 0 for f in net.flows)
    assert r.dropped_packets == 0                  # 15 x 8 unsolicited packets fit in 500 KB


def test_roce_pfc_incast_uses_a_roce_adapters_ack_timeout():
    # perftest's default local ACK timeout exponent 14: 4.096 us x 2^14 = 67.108864 ms
    # (hand-computed). A shorter generic timer resends data that PFC only held.
    assert incast("roce-pfc", 3, 10_000, seed=1).rto_s == pytest.approx(4.096e-6 * 16384, rel=1e-12)
    assert incast("roce-lossy", 3, 10_000, seed=1).rto_s == pytest.approx(1e-3)
    short = incast("roce-pfc", 63, 500_000, seed=1, fabric=(8, 4, 8), rto_s=200e-6)
    real = incast("roce-pfc", 63, 500_000, seed=1, fabric=(8, 4, 8))
    assert short.dropped_packets == 0 and short.timeouts > 0 and short.retransmitted_packets > 0
    assert real.timeouts == 0 and real.retransmitted_packets == 0
    assert real.max_completion_s < short.max_completion_s


def test_the_chapter_8_incast_of_127_x_2_mb_is_accepted():
    # the per-flow cap divided by the senders refused 127 x 2 MB (at most 528,416 bytes each),
    # the scenario of chapter 8 and of benchmarks/bench_sim.py; 1 GiB in all is the bound now
    r = incast("roce-pfc", 127, 2_000_000, propagation_s=1e-6)
    wire_bytes = 127 * (2_000_000 + 489 * 64)           # payload plus 64 header bytes on each of 489 packets
    assert r.max_completion_s == pytest.approx(wire_bytes * 8 / 100e9, rel=1e-3)   # 20.638 ms, the wire time
    assert r.retransmitted_packets == 0
    with pytest.raises(ValueError, match="bytes_per_sender"):
        incast("roce-pfc", 128, 8_400_000)     # 1.075 GB in all


def test_spraying_needs_two_leaves_and_says_so():
    # one leaf would make every host send to itself (found by the bad-input sweep)
    with pytest.raises(ValueError, match="n_leaves"):
        spraying("uet-spray", n_leaves=1, n_spines=1, hosts_per_leaf=1)
