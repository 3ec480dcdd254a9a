"""netlab.nvlink.domains against hand-computed values and the fact sheet (sections D.1, D.2, J5)."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.nvlink import domains as scaleup
from netlab.units import GBps, Gbps, TBps, kW
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

DGX_H100 = scaleup.preset("dgx-h100")

API = {
    scaleup.scaleup_domain: dict(n_gpus=8, per_gpu_bps=450 * GBps, scaleout_per_gpu_bps=400 * Gbps,
                                 power_w=10.2e3, intra_alpha_s=0.5e-6, inter_alpha_s=3e-6),
    scaleup.hierarchical_all_reduce: dict(n_bytes=1e9, world_size=576, domain=DGX_H100, domain_size=8),
    scaleup.nccl_all_reduce: dict(n_bytes=1e9, world_size=576, domain=DGX_H100),
    scaleup.crossover_domain_size: dict(ratio=9.0, world_size=576),
    scaleup.latency_optimal_domain_size: dict(world_size=576, intra_alpha_s=1e-6, inter_alpha_s=4e-6),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_unknown_preset_and_fabric_are_refused():
    with pytest.raises(ValueError, match="name"):
        scaleup.preset("nvl36")
    with pytest.raises(ValueError, match="fabric"):
        scaleup.scaleup_domain(8, 1e12, 4e11, 1e4, fabric="cxl")


# --- the presets, by hand from the fact sheet ---------------------------------------------
def test_dgx_h100_node():
    # NVLink 4: 900 GB/s bidirectional per GPU -> 450 GB/s each way (D.1, NCCL maintainer).
    # 8 GPUs: 3.6 TB/s one way, 7.2 TB/s bidirectional. Scale-out 400 Gb/s = 50 GB/s per GPU.
    # Ratio 450 / 50 = 9. Power 10.2 kW / 8 = 1275 W per GPU.
    d = scaleup.preset("dgx-h100")
    assert d.n_gpus == 8 and d.fabric == "nvlink"
    assert d.per_gpu_bps == pytest.approx(450 * GBps)
    assert d.aggregate_bps == pytest.approx(3.6 * TBps)
    assert d.aggregate_bidir_bps == pytest.approx(7.2 * TBps)
    assert d.scaleout_per_gpu_bps == pytest.approx(50 * GBps)
    assert d.ratio == pytest.approx(9.0)
    assert d.power_per_gpu_w == pytest.approx(1275.0)


def test_dgx_b200_matches_its_quoted_14_4_tbps():
    # 8 x 1.8 TB/s = 14.4 TB/s bidirectional, the DGX B200 user guide's figure (J5).
    d = scaleup.preset("dgx-b200")
    assert d.aggregate_bidir_bps == pytest.approx(specs.value("dgx.b200.nvlink_bandwidth_bidir"))
    assert d.ratio == pytest.approx(18.0)   # 900 GB/s / 50 GB/s


def test_pcie_mesh_counterfactual():
    # PCIe 5.0 x16: 16 lanes x 32 GT/s x 128/130 / 8 = 63.0 GB/s each way (D.3).
    # Ratio to a 50 GB/s NIC: 1.26 -- a PCIe mesh is barely faster than the network.
    d = scaleup.preset("pcie-h100")
    assert d.fabric == "pcie"
    assert d.per_gpu_bps == pytest.approx(16 * 32e9 * 128 / 130)
    assert d.ratio == pytest.approx(16 * 32 * 128 / 130 / 400, rel=1e-12)
    assert d.power_w == pytest.approx(10.2 * kW)   # assumption ratio 1.0


def test_nvl72_rack():
    # 72 GPUs x 900 GB/s = 64.8 TB/s one way; ratio 18; 120 kW / 72 = 1666.7 W per GPU.
    d = scaleup.preset("gb200-nvl72")
    assert d.n_gpus == 72
    assert d.aggregate_bps == pytest.approx(64.8 * TBps)
    assert d.power_per_gpu_w == pytest.approx(120e3 / 72)


def test_d7_130_tbps_is_bidirectional_and_rounded():
    # D7: 72 x 1.8 TB/s = 129.6 TB/s (both directions); 9 trays x 14.4 TB/s = 129.6 TB/s too.
    # The quoted 130 TB/s is 129.6 rounded up by 0.31 %; one way it is 64.8 TB/s.
    c = scaleup.nvl72_check()
    assert c.gpu_sum_bidir_bps == pytest.approx(129.6 * TBps)
    assert c.switch_sum_bidir_bps == pytest.approx(129.6 * TBps)
    assert c.one_way_bps == pytest.approx(64.8 * TBps)
    assert c.rounding_error == pytest.approx(130 / 129.6 - 1)
    assert "129.6" in repr(c)


def test_repr_states_both_conventions():
    text = repr(scaleup.preset("dgx-h100"))
    assert "450 GB/s per GPU each way" in text and "900 GB/s bidir" in text


@given(n=st.integers(1, 1000), up=st.floats(1e9, 1e14), out=st.floats(1e9, 1e13))
def test_aggregate_is_n_times_per_gpu_and_bidir_is_double(n, up, out):
    d = scaleup.scaleup_domain(n, up, out, 1e3)
    assert d.aggregate_bps == pytest.approx(n * up)
    assert d.aggregate_bidir_bps == pytest.approx(2 * n * up)
    assert d.ratio * out == pytest.approx(up)


# --- hierarchical all-reduce ---------------------------------------------------------------
def test_hierarchical_dgx_h100_576_gpus_by_hand():
    # N = 1 GB over 72 DGX H100 (d = 8, m = 72); B_in = 450 GB/s = 3.6e12 b/s, B_out = 4e11 b/s,
    # alpha_in = 0.6 us, alpha_out = 2.7 us (NCCL 2.30.7's LL ring step latencies).
    # inside: 2(d-1) (a_in + 8N/(d B_in)) = 14 (0.6 us + 8e9/(8 * 3.6e12) s) = 8.4 us + 3.88889 ms
    # across: ring all-reduce of N/d = 125 MB over 72: 2*71*2.7 us + 2*71/72 * 1e9/4e11 s
    #       = 383.4 us + 4.930556 ms
    r = scaleup.hierarchical_all_reduce(1e9, 576, DGX_H100)
    assert r.intra_s == pytest.approx(14 * 0.6e-6 + 14 * 8e9 / (8 * 3.6e12), rel=1e-12)
    assert r.inter_s == pytest.approx(142 * 2.7e-6 + 2 * 71 / 72 * 8e9 / 8 / 4e11, rel=1e-12)
    assert r.time_s == pytest.approx(r.intra_s + r.inter_s, rel=1e-12)
    assert r.bottleneck == "scale-out"
    # busbw as nccl-tests defines it: algbw * 2(n-1)/n with n = 576.
    assert r.busbw_bps == pytest.approx(8e9 / r.time_s * 2 * 575 / 576, rel=1e-12)


def test_overlapped_tiers_cost_the_slower_tier_not_the_sum():
    # Review 2026-12-05 M1: NCCL pipelines chunks through NVLink and the network at once, so
    # the slower tier bounds the time. DGX H100 x 72: across = 383.4 us + 4.930556 ms =
    # 5.313956 ms against 3.897289 ms inside; NVL72 x 8: inside 2 * 71 (0.6 us + 8e9 /
    # (72 * 7.2e12) s) = 2.277 ms dominates. The serial sum overstates the NVL72's advantage:
    # 9.21/2.80 = 3.3x against 5.31/2.28 = 2.3x overlapped.
    h100 = scaleup.hierarchical_all_reduce(1e9, 576, DGX_H100)
    nvl72 = scaleup.hierarchical_all_reduce(1e9, 576, scaleup.preset("gb200-nvl72"))
    assert h100.pipelined_s == pytest.approx(142 * 2.7e-6 + 2 * 71 / 72 * 8e9 / 8 / 4e11, rel=1e-12)
    # inside the rack: reduce-scatter + all-gather over 72 at 900 GB/s = 7.2e12 b/s one way
    assert nvl72.pipelined_s == pytest.approx(2 * 71 * (0.6e-6 + 8e9 / (72 * 7.2e12)), rel=1e-12)
    assert h100.time_s / nvl72.time_s == pytest.approx(3.29, abs=0.01)
    assert h100.pipelined_s / nvl72.pipelined_s == pytest.approx(2.33, abs=0.01)


def test_nccl_prices_the_576_gpu_all_reduce_as_an_nvls_tree_by_hand():
    # NCCL 2.30.7's tuner for 1 GB over 72 DGX H100 nodes at 400 Gb/s per GPU: the NVLS tree,
    # latency 25 us + 2 floor(log2 72) = 12 network levels x 20.9 us; bus bandwidth capped by
    # the node's 8 NICs (8 x 50 GB/s = 400 GB/s), algbw = busbw * n / (2(n-1)).
    e = scaleup.nccl_all_reduce(1e9, 576, DGX_H100)
    busbw = 8 * 400e9
    expected = 25e-6 + 12 * 20.9e-6 + 8e9 / (busbw * 576 / (2 * 575))
    assert e.label == "nvls/Simple"
    assert e.time_s == pytest.approx(expected, rel=1e-9)              # 5.267 ms
    serial = scaleup.hierarchical_all_reduce(1e9, 576, DGX_H100)
    assert e.time_s < 0.6 * serial.time_s                            # not the 9.21 ms sum
    assert e.time_s == pytest.approx(serial.pipelined_s, rel=0.02)    # but the slower tier


def test_nccl_all_reduce_refuses_a_gpu_its_tuner_does_not_know():
    odd = scaleup.scaleup_domain(8, 450 * GBps, 400 * Gbps, 10e3, gpu="mi300x")
    with pytest.raises(ValueError, match="domain.gpu"):
        scaleup.nccl_all_reduce(1e9, 16, odd)
    with pytest.raises(ValueError, match="world_size"):
        scaleup.nccl_all_reduce(1e9, 12, DGX_H100)


def test_a_whole_world_in_one_domain_never_crosses():
    r = scaleup.hierarchical_all_reduce(1e9, 72, scaleup.preset("gb200-nvl72"))
    assert r.inter_s == 0 and r.bottleneck == "scale-up"


def test_world_must_be_a_multiple_of_the_domain():
    with pytest.raises(ValueError, match="domain_size"):
        scaleup.hierarchical_all_reduce(1e9, 100, DGX_H100)


def test_bigger_domains_move_the_bottleneck_to_nvlink():
    # r = 9 and n = 576: d* = 10 * 576 / 585 = 9.85. d = 8 is scale-out-bound, d = 16 scale-up-bound.
    assert scaleup.crossover_domain_size(9.0, 576) == pytest.approx(10 * 576 / 585)
    assert scaleup.hierarchical_all_reduce(1e9, 576, DGX_H100, domain_size=8).bottleneck == "scale-out"
    assert scaleup.hierarchical_all_reduce(1e9, 576, DGX_H100, domain_size=16).bottleneck == "scale-up"


@given(d=st.integers(2, 64), m=st.integers(2, 64), b_out=st.floats(1e10, 1e12))
def test_transfer_terms_are_equal_at_the_crossover(d, m, b_out):
    # Choose the ratio that puts the crossover exactly at d: r = (d-1) n / (n-d), n = d m.
    n = d * m
    r = (d - 1) * n / (n - d)
    assert scaleup.crossover_domain_size(r, n) == pytest.approx(d)
    dom = scaleup.scaleup_domain(d, r * b_out, b_out, 1e3, intra_alpha_s=0.0, inter_alpha_s=0.0)
    res = scaleup.hierarchical_all_reduce(1e8, n, dom)
    assert res.intra_s == pytest.approx(res.inter_s, rel=1e-9)


def test_latency_optimum_matches_brute_force():
    # Zero bytes: only steps count, f(d) = 2(d-1) a_in + 2(576/d - 1) a_out with a_in = 1, a_out = 4 us.
    # sqrt(576 * 4) = 48; f(48) = 94 + 88 = 182 us, f(36) = 190, f(64) = 190.
    assert scaleup.latency_optimal_domain_size(576, 1e-6, 4e-6) == pytest.approx(48.0)
    dom = scaleup.scaleup_domain(8, 1e12, 1e11, 1e3, intra_alpha_s=1e-6, inter_alpha_s=4e-6)
    divisors = [d for d in range(1, 577) if 576 % d == 0]
    times = {d: scaleup.hierarchical_all_reduce(0.0, 576, dom, domain_size=d).time_s for d in divisors}
    assert min(times, key=times.get) == 48
    assert times[48] == pytest.approx(182e-6)


def test_step_latencies_default_to_nccl_figures_per_fabric():
    # NCCL 2.30.7 tuning.cc (hwLatencies, ring, LL): NVLink 0.6 us, PCI 1.0 us, network 2.7 us per
    # step (NCCL 2.7 had 0.47 us for NVLink).
    assert scaleup.preset("dgx-h100").intra_alpha_s == pytest.approx(0.6e-6)
    assert scaleup.preset("pcie-h100").intra_alpha_s == pytest.approx(1.0e-6)
    assert all(scaleup.preset(p).inter_alpha_s == pytest.approx(2.7e-6) for p in scaleup.PRESETS)


def test_hierarchical_needs_a_domain_object():
    with pytest.raises(TypeError, match="ScaleUpDomain"):
        scaleup.hierarchical_all_reduce(1e9, 16, {"n_gpus": 8})


def test_measured_ratio_moves_the_crossover_down():
    # nccl-tests: ring busbw on 8 H100 ~370 GB/s, ~47 GB/s per NDR NIC (specs/nccl.py).
    # r = 370 / 47 = 7.8723; d* = (1 + r) * 576 / (576 + r) = 8.8723 * 576 / 583.8723 = 8.7527.
    r = specs.value("nccl.h100_node.ring_busbw") / specs.value("nccl.ndr.busbw_per_nic")
    assert r == pytest.approx(370 / 47)
    assert scaleup.crossover_domain_size(r, 576) == pytest.approx(8.7527, rel=1e-4)
    assert scaleup.crossover_domain_size(DGX_H100.ratio, 576) == pytest.approx(9.8462, rel=1e-4)


def test_pcie_5_is_quoted_at_128_but_carries_126_both_ways():
    # Review 2026-12-05 L3: the quoted x16 figure is 2 x 32 GT/s x 16 / 8 = 128 GB/s; the coded
    # data rate is 2 x 63.0 = 126.0 GB/s. The model uses the coded one.
    assert specs.value("pcie.5.x16_quoted_bidir") == pytest.approx(128e9 * 8)
    assert 2 * specs.value("pcie.5.x16_rate") == pytest.approx(128e9 * 8 * 128 / 130)
    assert scaleup.preset("pcie-h100").per_gpu_bidir_bps == pytest.approx(2 * specs.value("pcie.5.x16_rate"))


def test_nccl_all_reduce_names_world_size_when_it_is_too_large():
    # 2**31 ranks once failed inside NCCL's tuner model with a message naming its n_ranks
    with pytest.raises(ValueError, match="world_size"):
        scaleup.nccl_all_reduce(1e9, 2 ** 31, scaleup.preset("dgx-h100"))
