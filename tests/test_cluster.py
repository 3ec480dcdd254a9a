"""The designer composes the chapters' models: the same inputs give the same numbers."""

from dataclasses import replace

from hypothesis import given, settings, strategies as st
import pytest

from netlab import cluster, fabric, inference, parallelism, power, scaleup, specs
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

W = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, tokens_per_step=1152 * 4096,
                     n_tokens=15e12)
IB = cluster.Design("IB", 4608, "dgx-h100", "quantum2", 1.0, "adaptive", "dsp_pluggable", tp=8, pp=4)

API = {
    cluster.scaleout_efficiency: dict(load_balancing="ecmp", flows_per_leaf=32, uplinks_per_leaf=32,
                                      bytes_per_flow=1e6),
    cluster.evaluate: dict(design=IB, workload=W, mfu=0.4, pue=1.3, overlap=0.0),
    cluster.serve: dict(design=IB, model_name="llama3-70b", batch=8),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_compute_matches_chapter_1():
    e = cluster.evaluate(IB, W, mfu=0.4)
    peak = specs.value("gpu.h100.bf16_dense")
    # 6 N T / (n F mfu)
    assert e.compute_s == pytest.approx(6 * 70e9 * 1152 * 4096 / (4608 * peak * 0.4))
    assert e.compute_s == pytest.approx(parallelism.training_flops(70e9, 1152 * 4096) / (4608 * peak * 0.4))


def test_gradient_all_reduce_matches_chapters_6_and_7():
    e = cluster.evaluate(IB, W)
    domain = scaleup.preset("dgx-h100")
    fab = fabric.for_switch("quantum2", 4608)
    eff = specs.value("fabric.claim.spectrum_x_throughput")
    rate = min(domain.scaleout_per_gpu_bps, fab.port_rate_bps) * eff
    expected = scaleup.hierarchical_all_reduce(70e9 / 32 * 2, 144, replace(domain, scaleout_per_gpu_bps=rate),
                                               domain_size=1).time_s
    assert e.dp == 144 and e.dp_s == pytest.approx(expected)


def test_tensor_parallel_time_matches_chapter_7():
    e = cluster.evaluate(IB, W)
    n_micro = 1152 // 144
    per_reduce = inference.tp_all_reduce_time(4096 * 8192 * 2, 8, scaleup.preset("dgx-h100"))
    assert e.tp_s == pytest.approx(4 * 80 / 4 * n_micro * per_reduce)


def test_power_matches_chapter_9():
    e = cluster.evaluate(IB, W, pue=1.3)
    fab = fabric.for_switch("quantum2", 4608)
    site = power.site_power(fab, "dsp_pluggable", gpu_power_w=scaleup.preset("dgx-h100").power_per_gpu_w, pue=1.3)
    assert e.site.facility_w == pytest.approx(site.facility_w)
    assert e.fabric == fab


def test_step_is_the_sum_of_its_parts_and_efficiency_is_compute_share():
    e = cluster.evaluate(IB, W, overlap=0.5)
    assert e.step_s == pytest.approx(e.compute_s + e.bubble_s + e.tp_s + e.pp_s + 0.5 * e.dp_s)
    assert e.efficiency == pytest.approx(e.compute_s / e.step_s)
    # 1F1B bubble: (pp - 1) / micro-batches of compute
    assert e.bubble_s == pytest.approx(e.compute_s * 3 / 8)
    assert e.training_days == pytest.approx(15e12 / (1152 * 4096) * e.step_s / 86400)


def test_ecmp_is_slower_than_adaptive_and_spraying_by_the_closed_forms():
    eth = replace(IB, switch="sn5600_400g")
    ecmp = cluster.evaluate(replace(eth, load_balancing="ecmp"), W)
    spray = cluster.evaluate(replace(eth, load_balancing="spraying"), W)
    assert ecmp.dp_s > spray.dp_s
    fab = ecmp.fabric
    from netlab import ecmp as ecmp_mod
    expected = 1 / ecmp_mod.ecmp_collisions(fab.leaf_downlinks, fab.leaf_uplinks).completion_slowdown
    assert ecmp.scaleout_efficiency == pytest.approx(expected)


def test_capex_range_by_hand():
    # Quantum-2: 64 x 400 Gb/s = 25.6 Tb/s, half of a 64 x 800G switch's 51.2 Tb/s, so half its price;
    # every optical link end one 400G module at $600-800.
    e = cluster.evaluate(IB, W)
    gpus = 4608 * specs.value("cost.dgx_h100.price") / 8
    low = gpus + e.fabric.n_switches * 150_000 / 2 + e.fabric.n_transceivers * 600
    high = gpus + e.fabric.n_switches * 250_000 / 2 + e.fabric.n_transceivers * 800
    assert (e.capex_low_usd, e.capex_high_usd) == (pytest.approx(low), pytest.approx(high))


def test_an_sn5600_in_400g_breakout_is_priced_as_one_switch():
    # 128 x 400G on one SN5600 is 51.2 Tb/s: the full 64 x 800G price, not twice it.
    e = cluster.evaluate(replace(IB, switch="sn5600_400g", optics="lpo"), W)
    lpo_ratio = (700 + 900) / (1_100 + 1_400)
    low = e.fabric.n_switches * 150_000 + e.fabric.n_transceivers * 600 * lpo_ratio
    assert e.network_capex_low_usd == pytest.approx(low)


def test_memory_check():
    assert cluster.evaluate(IB, W).fits                       # 70e9 x 16 / 32 = 35 GB <= 80 GB
    assert not cluster.evaluate(replace(IB, pp=1), W).fits    # 70e9 x 16 / 8 = 140 GB > 80 GB


def test_bad_layouts_are_refused():
    with pytest.raises(ValueError, match="tp"):
        cluster.evaluate(replace(IB, tp=3), W)
    with pytest.raises(ValueError, match="n_gpus"):
        cluster.evaluate(replace(IB, n_gpus=4600), W)
    with pytest.raises(ValueError, match="tokens_per_step"):
        cluster.evaluate(IB, replace(W, tokens_per_step=1000 * 4096))
    with pytest.raises(ValueError, match="load_balancing"):
        cluster.evaluate(replace(IB, load_balancing="magic"), W)
    with pytest.raises(ValueError, match="price"):
        cluster.evaluate(replace(IB, domain="dgx-b200"), W)


def test_serving_is_chapter_7s_decode_step():
    got = cluster.serve(IB, "llama3-70b", 8)
    want = inference.decode_step(inference.model("llama3-70b"), scaleup.preset("dgx-h100"), 8, 8)
    assert got == want
