"""netlab.lossless.ib_vs_ethernet against hand computations and the registry."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.lossless import figures, ib_vs_ethernet as ie
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    ie.small_message_latency: dict(n_bytes=64, n_switches=3, bandwidth_bps=400e9, switch_latency_s=300e-9,
                                   nic_latency_s=600e-9, cable_s=25e-9, mtu_bytes=4096, header_bytes=64),
    ie.perf_per_dollar: dict(share_premium=0.2, share_baseline=0.1, speedup=1.2),
    ie.incast_by_timeout: dict(n_senders=8, total_buffer_bytes=200e3),
    ie.credit_loop: dict(bandwidth_bps=400e9, propagation_s=489.7e-9, switch_s=100e-9, packet_bytes=4160),
    ie.credit_throughput: dict(credit_bytes=30e3, bandwidth_bps=100e9, propagation_s=1e-6, switch_s=300e-9,
                               packet_bytes=4160),
    ie.incast_ideal_time: dict(n_senders=8, size_bytes=64_000, bandwidth_bps=100e9, propagation_s=25e-9,
                               switch_s=300e-9, mtu_bytes=4096, header_bytes=64),
    ie.pfc_headroom: dict(bandwidth_bps=100e9, cable_m=100.0, mtu_bytes=4096, header_bytes=64),
    ie.incast_like_for_like: dict(n_senders=8, per_input_bytes=100e3, small_total_bytes=200e3, short_rto_s=100e-6),
    figures.draw_perf_per_dollar: dict(share=0.2, baseline=0.1, speedup=1.2),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_c6_c7_as_performance_per_dollar():
    # network 20 % vs 10 % of cost, same GPU spend G: costs G/0.8 and G/0.9,
    # ratio 0.9/0.8 = 1.125 (not 1.20); a 20 % speed-up gives 1.2/1.125 = 1.0667 per dollar.
    r = ie.perf_per_dollar(0.20, 0.10, 1.20)
    assert r.cost_ratio == pytest.approx(1.125)
    assert r.perf_per_dollar_ratio == pytest.approx(1.2 / 1.125)
    assert r.breakeven_speedup == pytest.approx(1.125)
    assert r.naive_cost_ratio == pytest.approx(1.20)


def test_equal_shares_make_speedup_the_whole_story():
    assert ie.perf_per_dollar(0.15, 0.15, 1.3).perf_per_dollar_ratio == pytest.approx(1.3)


def test_small_message_store_and_forward_pays_the_packet_per_switch():
    # 4096 B at 100 Gb/s, 2 switches, store-and-forward: 3 hops; wire = (4096+64)*8/1e11 = 332.8 ns
    # per hop, so 3 x 332.8 ns of serialization; + 2 x 200 ns + 3 x 10 ns + 500 ns NIC.
    r = ie.small_message_latency(4096, 2, 100e9, 200e-9, 500e-9, 10e-9, cut_through=False)
    assert r.time_s == pytest.approx(3 * 332.8e-9 + 400e-9 + 30e-9 + 500e-9, rel=1e-12)
    assert r.switch_share == pytest.approx(400e-9 / r.time_s)


def test_registry_ranges_and_their_standing():
    ib = ie.switch_latency_range("infiniband")
    eth = ie.switch_latency_range("ethernet")
    assert ib.low_s == specs.value("switch.ib.quantum_x800.latency")
    assert ib.high_s == specs.value("switch.ib.quantum2.latency_high")
    assert "unconfirmed" in ib.statuses and ib.all_unconfirmed_or_secondary
    assert eth.all_unconfirmed_or_secondary
    assert eth.low_s <= eth.high_s
    with pytest.raises(ValueError, match="family"):
        ie.switch_latency_range("omnipath")


def test_default_roce_ack_timeout_is_perftest_exponent_14():
    # 4.096 µs x 2^14 = 67.108864 ms by hand; NCCL 2.23+ uses 2^20: 4.294967296 s.
    assert specs.value("transport.roce.default_ack_timeout") == pytest.approx(0.067108864, rel=1e-12)
    assert specs.value("transport.roce.perftest_timeout_exponent") == 14
    nccl = specs.value("transport.roce.ack_timeout_unit") * 2 ** specs.value("transport.roce.nccl_ib_timeout_exponent")
    assert nccl == pytest.approx(4.294967296, rel=1e-9)


def test_incast_headline_taken_apart():
    # The old headline (7.9x) gave PFC 8 x 100 KB of buffer and lossy 100 KB. With the same
    # 800 KB the lossy switch drops nothing; with the same 200 KB the penalty is set by the
    # timeout: a few times at 100 µs, over a thousand times at RoCE's 67.1 ms.
    confounded, same_big, small_short, small_roce = ie.incast_like_for_like()
    assert 7.0 < confounded.ratio < 9.0
    assert same_big.lossy.dropped_packets == 0 and same_big.ratio < 1.05
    assert small_short.lossy.dropped_packets > 0 and 2.0 < small_short.ratio < 5.0
    assert small_roce.lossy.completion_time_s > specs.value("transport.roce.default_ack_timeout")
    assert small_roce.ratio > 1000 and small_roce.lossless.slowdown < 1.02
    assert "times as long" in str(small_roce) and "IncastResult(" not in str(small_roce)


def test_adaptive_retransmission_makes_lossy_incast_cost_little():
    """NVIDIA's adaptive retransmission (4 µs minimum base, up to 4x delay) against the configured 67.1 ms.
    A lost tail costs one timeout: the lossy time is a fixed drain time plus the timeout, so the
    rows differ by exactly the differences of their timeouts; at the adaptive floor the incast
    takes about 1.1x the lossless time, not the 1,600x of the configured 67.1 ms."""
    rows = ie.incast_by_timeout()
    assert [r.timeout_s for r in rows] == pytest.approx([4e-6, 16e-6, 100e-6, 4.096e-6 * 2 ** 14])
    assert specs.get("transport.roce.adaptive_retx_min_base_timeout").source == "nvidia-adaptive-retx"
    base = [r.lossy.completion_time_s - r.timeout_s for r in rows[1:]]
    assert max(base) - min(base) < 0.1e-6           # 37.2 µs in each: drain, then one timeout
    lossless = rows[0].lossless.completion_time_s
    assert lossless == pytest.approx(42e-6, rel=0.01) and rows[0].lossless.retransmitted_packets == 0
    assert rows[0].ratio < 1.2 and rows[1].ratio < 1.4     # adaptive: tens of per cent
    assert rows[3].ratio > 1000                             # the configured 67.1 ms: the old headline
    assert "x the lossless" in str(rows[0])
    with pytest.raises(ValueError, match="timeouts_s"):
        ie.incast_by_timeout(timeouts_s=())


def test_switch_latency_against_a_one_switch_model():
    # ib_send_lat 0.81-0.83 µs (registry 0.82) against the model with 0, 1 and 3 switches:
    # 0 switches 627.6 ns; 1 switch 753.8-983.8 ns (100-330 ns InfiniBand); 3 switches 1006-1696 ns.
    rate, cable = specs.value("eth.400g.port_rate"), specs.value("sim.assume.link_propagation")
    nic = specs.value("nic.connectx6.latency")
    ib = ie.switch_latency_range("infiniband")
    zero = ie.small_message_latency(64, 0, rate, 0.0, nic, cable).time_s
    one = [ie.small_message_latency(64, 1, rate, t, nic, cable).time_s for t in (ib.low_s, ib.high_s)]
    three = ie.small_message_latency(64, 3, rate, ib.low_s, nic, cable).time_s
    measured = specs.value("rdma.measured.ib_send_lat_rc_32b")
    assert zero == pytest.approx(627.6e-9, rel=1e-3) and one[0] < measured < one[1]
    assert measured < three                                  # a 3-switch model is above it
    assert measured / ib.high_s == pytest.approx(2.48, rel=0.01)   # ~2.5x, not "an order of magnitude"
    # adapters (600 ns) outweigh three switches only at the low InfiniBand figure
    for family, low_wins in (("infiniband", True), ("ethernet", False)):
        rng = ie.switch_latency_range(family)
        assert (3 * rng.low_s < nic) is low_wins and 3 * rng.high_s > nic


def test_readouts_are_sentences():
    r = ie.perf_per_dollar(0.2, 0.1, 1.2)
    assert str(r).startswith("network 20% vs 10% of the cost") and "PerfPerDollar(" not in str(r)
    assert "break-even at 1.125x" in str(r)
    assert "PerfPerDollar(" in repr(r)
    assert "LatencyRange(" not in str(ie.switch_latency_range("ethernet"))


def test_lab4_hides_the_prediction_answer_and_reads_plainly():
    import json
    import pathlib
    import re
    path = pathlib.Path(__file__).resolve().parents[2] / "labs" / "lab04-infiniband-vs-ethernet.ipynb"
    cells = json.loads(path.read_text())["cells"]
    predict = next(i for i, c in enumerate(cells) if "".join(c["source"]).startswith("## Predict first"))
    answer = cells[predict + 1]
    assert answer["cell_type"] == "code" and "hide-output" in answer["metadata"].get("tags", [])
    for c in cells:
        text = "".join(c["source"])
        if c["cell_type"] == "code":
            assert len(c["source"]) <= 20, text[:60]
            assert "repr(" not in text.replace('repr(sc.deadlock("credits").stop_reason)', ""), text[:60]
        else:
            assert not re.search(r"^\+ ", text, re.M), "a line starting with '+' renders as a bullet"
        assert "of ideal" not in text and "assume.dcqcn.pmax" not in text


def test_sharing_figure_shows_every_flow_and_the_fluid_model():
    from netlab.lossless import dcqcn
    from netlab.lossless import experiments as sc
    run = sc.dcqcn_sharing(2, duration_s=2e-3, sample_interval_s=200e-6)
    fluid = dcqcn.simulate(dcqcn.Params(n_flows=2), duration_s=2e-3, start_times_s=[0, 200e-6])
    fig = figures.draw_sharing(run, fluid)
    left, right = fig.axes[:2]
    assert len(left.lines) == 2 * 2 + 1          # each flow simulated and fluid, and the fair share
    assert len(right.lines) == 2                 # simulated and fluid queue


def test_chapter3_qp_default_timeout_is_the_registered_one():
    from netlab import rdma
    ctx = rdma.Fabric(100e9).open_device("a")
    qp = ctx.alloc_pd().create_qp(ctx.create_cq(), ctx.create_cq())
    assert qp.timeout == specs.value("transport.roce.perftest_timeout_exponent")
    assert 4.096e-6 * 2 ** qp.timeout == pytest.approx(specs.value("transport.roce.default_ack_timeout"))


def test_pfc_headroom_simulator_against_the_mlx5e_driver():
    """Review D17: the chapter's headroom is the simulator's and leaves out the reaction delay.
    By hand: 100 m of fibre is 100 x 1.468 / c = 489.7 ns; 2 x 489.7 ns x 100 Gb/s / 8 = 12,241 B,
    plus 2 x 4,160 = 20,561 B. The driver (port_buffer.c): (301 + 2.16 x 100) x 100 + 2.72 x 4096
    = 51,700 + 11,141 = 62,841 B, three times as much."""
    h = ie.pfc_headroom(100e9, 100)
    assert h.simulator_bytes == pytest.approx(2 * 100 * 1.468 / 299_792_458 * 100e9 / 8 + 2 * 4160, rel=1e-3)
    assert h.simulator_bytes == pytest.approx(20_561, abs=5)
    assert h.driver_bytes == pytest.approx(62_841, abs=1)
    assert ie.pfc_headroom(25e9, 0).driver_bytes == pytest.approx(301 * 40 + 2.72 * 4096)   # speed floored at 40
    assert "mlx5e driver" in str(h)


def test_closed_forms_are_callable_and_match_the_simulator():
    """Review D15: the credit loop, credit throughput and lossless incast time, by hand and against
    netlab.sim. Lab 4's credits exercise: 83.2 ns + 2 x 489.7 ns + 100 ns = 1,162.6 ns."""
    from netlab.sim.switch import Credits
    from netlab.sim.topology import single_switch
    assert ie.credit_loop(400e9, 489.7e-9, 100e-9) == pytest.approx(1162.6e-9, abs=0.1e-9)
    assert ie.credit_throughput(1e6, 400e9, 489.7e-9, 100e-9) == 1.0
    loop = 4160 * 8 / 100e9 + 2e-6 + 300e-9                       # 2.633 µs
    assert ie.credit_throughput(4 * 4160, 100e9, 1e-6, 300e-9) == pytest.approx(4 * 332.8e-9 / loop)
    net = single_switch(2, 100e9, propagation_s=1e-6, switch_latency_s=300e-9, flow_control=Credits(4 * 4160))
    net.add_flow("h0", "h1", 2000 * 4096)
    measured = 2000 * 4160 * 8 / net.run().flows[0].completion_time_s / 100e9
    assert measured == pytest.approx(ie.credit_throughput(4 * 4160, 100e9, 1e-6, 300e-9), abs=0.01)
    # 8 x 64 KB: 16 packets each (15 of 4,096 B and one of 2,560 B), 64 header bytes per packet
    expected = 4160 * 8 / 100e9 + 2 * 25e-9 + 300e-9 + 8 * (64_000 + 16 * 64) * 8 / 100e9
    assert ie.incast_ideal_time(8, 64_000, 100e9, 25e-9, 300e-9) == pytest.approx(expected)
    result = ie.incast_like_for_like()[1].lossless     # 8 x 64 KB, PFC, the simulator's defaults
    ideal = ie.incast_ideal_time(8, 64_000, 100e9, specs.value("sim.assume.link_propagation"), 0.0)
    assert result.completion_time_s == pytest.approx(ideal, rel=1e-6)
