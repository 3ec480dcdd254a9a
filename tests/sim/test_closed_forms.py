"""netlab.sim against closed forms.

Deterministic scenarios must match their formula to rounding; random ones (Poisson
arrivals, ECN marking) must fall inside a confidence interval computed from the run.
"""

import functools
import math
import statistics

import pytest

from netlab import links
from netlab.sim import DCQCN, PFC, Credits, ECNMarking, chain, single_switch
from netlab.sim.traffic import md1_mean_wait, poisson

B = 100e9            # every scenario here runs at 100 Gb/s
MTU, HDR = 4096, 64  # payload and header bytes per packet (the registry defaults)
T_975_19 = 2.093     # Student t, 97.5 % quantile, 19 degrees of freedom (tables)


@pytest.mark.parametrize("load", [0.3, 0.6, 0.85])
def test_md1_mean_wait_within_confidence_interval(load):
    # One host sends fixed-size packets as a Poisson process into its NIC: an M/D/1 queue.
    # Pollaczek-Khinchine: W_q = rho * S / (2 (1 - rho)), S = 4160 * 8 / 1e11 = 332.8 ns.
    net = single_switch(2, B, seed=11)
    n = 40_000
    flow = net.add_flow("h0", "h1", n * MTU, transport=poisson(load))
    result = net.run()
    assert result.stop_reason == "complete"
    waits = flow.sender.waits_s[n // 10:]                 # drop the warm-up tenth
    k = 20                                                # batch means: 20 batches
    size = len(waits) // k
    means = [statistics.fmean(waits[i * size:(i + 1) * size]) for i in range(k)]
    half_width = T_975_19 * statistics.stdev(means) / math.sqrt(k)
    expected = load * (4160 * 8 / B) / (2 * (1 - load))
    assert md1_mean_wait(4160 * 8 / B, load) == pytest.approx(expected)
    # 95 % interval, widened by 1.5 for the residual correlation between batches
    assert abs(statistics.fmean(means) - expected) < 1.5 * half_width


@pytest.mark.parametrize("cut_through", [False, True], ids=["store-and-forward", "cut-through"])
@pytest.mark.parametrize("n_switches", [1, 2, 4])
def test_pipelined_message_time_matches_links_path_time(n_switches, cut_through):
    # 1 MB over n_switches + 1 equal hops; 100 ns propagation per hop and 300 ns per switch.
    # netlab.links.path_time puts latency_per_hop on every hop, so it is given the
    # propagation only and the switch latencies (one per switch) are added by hand.
    prop, switch = 100e-9, 300e-9
    if n_switches == 1:
        net = single_switch(2, B, propagation_s=prop, switch_latency_s=switch, cut_through=cut_through)
        dst = "h1"
    else:
        net = chain(n_switches, 1, B, propagation_s=prop, switch_latency_s=switch, cut_through=cut_through)
        dst = f"h{n_switches - 1}"
    net.add_flow("h0", dst, 1_000_000)
    result = net.run()
    expected = links.path_time(1e6, n_switches + 1, B, prop, mtu_bytes=MTU, header_bytes=HDR,
                               switching="cut_through" if cut_through else "store_and_forward").time_s
    expected += n_switches * switch
    assert result.flows[0].completion_time_s == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("fc", [PFC(150_000), Credits(150_000)], ids=["PFC", "credits"])
@pytest.mark.parametrize("n", [2, 8, 24])
def test_lossless_incast_completion_time(n, fc):
    # n senders x 300 kB to one receiver through one switch. Lossless, the receiver's link
    # never idles once the first packet is through, so the last byte arrives at
    #   first packet serialization + 2 propagations + switch latency + all wire bytes / B.
    # 300 kB = 73 packets of 4096 B plus one of 992 B; each carries 64 header bytes.
    prop, switch = 50e-9, 200e-9
    net = single_switch(n + 1, B, flow_control=fc, propagation_s=prop, switch_latency_s=switch)
    for i in range(1, n + 1):
        net.add_flow(f"h{i}", "h0", 300_000)
    result = net.run()
    wire_per_flow = 300_000 + 74 * HDR
    expected = (MTU + HDR) * 8 / B + 2 * prop + switch + n * wire_per_flow * 8 / B
    assert result.dropped_packets == 0
    assert result.max_completion_time_s == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("credit_fraction", [0.25, 0.5, 0.75, 1.0, 1.5, 3.0])
def test_credit_throughput_around_the_bandwidth_delay_product(credit_fraction):
    # One flow through one switch whose ingress buffer (= the sender's credit) is C bytes.
    # A credit returns one loop after it was spent:
    #   loop = serialization of a packet + 2 propagations + switch latency,
    # so k = floor(C / packet) packets per loop give throughput min(1, k * ser / loop) of B.
    prop, switch = 1e-6, 300e-9
    packet = MTU + HDR
    ser = packet * 8 / B
    loop = ser + 2 * prop + switch
    bdp = B * loop / 8                                   # 32 910 bytes here
    credits = max(packet, credit_fraction * bdp)
    net = single_switch(2, B, propagation_s=prop, switch_latency_s=switch, flow_control=Credits(credits))
    n_packets = 3000
    net.add_flow("h0", "h1", n_packets * MTU)
    flow = net.run().flows[0]
    k = math.floor(credits / packet)
    expected = min(1.0, k * ser / loop)
    measured = n_packets * packet * 8 / flow.completion_time_s / B
    # start-up and the last partial window: at most two loops out of the whole transfer
    tolerance = 2 * loop / flow.completion_time_s
    assert measured == pytest.approx(expected, abs=tolerance)


def test_dcqcn_converges_to_fair_share_with_bounded_queue():
    # Two DCQCN flows share a 100 Gb/s bottleneck (lossless, RED-style ECN marking).
    # Over 2-8 ms the first flow's share of what the two receive must be 1/2: its
    # normalised share x = rate_1 / ((rate_1 + rate_2) / 2) is averaged over three seeds
    # and 1 must lie in the 95 % t-interval (2 dof: t = 4.303); every run must be
    # fair by Jain's index >= 0.9 (a 60:40 split scores 0.96), use at least 85 % of the link's goodput capacity
    # (B * 4096/4160), and keep the queue well below the buffer. Recovery is sped up
    # (R_AI 0.5 Gb/s instead of 40 Mb/s) so that this fits in 8 ms of simulated time.
    cc = functools.partial(DCQCN, rate_ai_bps=0.5e9, rate_hai_bps=2.5e9, byte_counter_bytes=10e6)
    capacity = B * MTU / (MTU + HDR)
    xs = []
    for seed in (1, 2, 3):
        net = single_switch(3, B, flow_control=PFC(1_000_000), ecn=ECNMarking(5e3, 200e3, 0.1), seed=seed)
        net.add_flow("h1", "h0", 200_000_000, cc=cc)
        net.add_flow("h2", "h0", 200_000_000, start_s=100e-6, cc=cc)
        net.sample_flows(1e-3)
        net.sample_queues(["s0[0]"], 20e-6)
        result = net.run(until_s=8e-3)
        rates = []
        for trace in result.flow_traces:
            d, t = trace.delivered_bytes, trace.time_s
            rates.append((d[-1] - d[2]) * 8 / (t[-1] - t[2]))
        assert t[2] == pytest.approx(2e-3) and t[-1] == pytest.approx(8e-3)
        total = sum(rates)
        assert total > 0.85 * capacity
        assert total ** 2 / (2 * sum(r * r for r in rates)) >= 0.9
        xs.append(rates[0] / (total / 2))
        q = result.queue_traces[0]
        assert max(b for time, b in zip(q.time_s, q.queue_bytes) if time >= 2e-3) < 400e3
    half_width = 4.303 * statistics.stdev(xs) / math.sqrt(len(xs))
    assert abs(statistics.fmean(xs) - 1.0) < half_width
    assert half_width < 0.5
