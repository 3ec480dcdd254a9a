"""netlab.ib_vs_ethernet against hand computations and the registry."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import ib_vs_ethernet as ie, specs
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    ie.small_message_latency: dict(n_bytes=64, n_switches=3, bandwidth_bps=400e9, switch_latency_s=300e-9,
                                   nic_latency_s=600e-9, cable_s=25e-9, mtu_bytes=4096, header_bytes=64),
    ie.perf_per_dollar: dict(share_premium=0.2, share_baseline=0.1, speedup=1.2),
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
