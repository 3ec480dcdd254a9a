"""The designer composes the chapters' models: the same inputs give the same numbers."""

from dataclasses import replace

from hypothesis import given, settings, strategies as st
import pytest

from netlab import cluster, specs
from netlab.fabric import clos as fabric
from netlab.nvlink import inference, domains as scaleup
from netlab.training import parallelism
from netlab.optics import power
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

W = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, tokens_per_step=1152 * 4096,
                     n_tokens=15e12)
IB = cluster.Design("IB", 4608, "dgx-h100", "quantum2", 1.0, "adaptive", "dsp_pluggable", tp=8, pp=4)

API = {
    cluster.capstone_design: dict(domain="dgx-h100", fabric_key="eth-ecmp", optics="cpo", oversubscription=2.0,
                                  n_gpus=4608, tp=8, pp=4),
    cluster.design_space: dict(n_gpus=4608, tp=8, pp=4),
    cluster.explore: dict(workload=W, brief=cluster.Brief(28.5, 12.35e6, 230e6), mfu=0.4),
    cluster.scaleout_efficiency: dict(load_balancing="ecmp", flows_per_leaf=32, uplinks_per_leaf=32,
                                      bytes_per_flow=1e6),
    cluster.evaluate: dict(design=IB, workload=W, mfu=0.4, pue=1.3, bucket_bytes=25 * 2**20, backward_share=0.6,
                           checkpoint_s=30.0, restart_s=180.0),
    cluster.gradient_overlap: dict(grad_bytes=1e8, backward_s=0.01, dp=2, domain=scaleup.preset("dgx-h100"),
                                   domain_size=1, bucket_bytes=25e6),
    cluster.bucket_all_reduce: dict(n_bytes=2**20, dp=144, domain=scaleup.preset("dgx-h100"), domain_size=1),
    cluster.serve: dict(design=IB, model_name="llama3-70b", batch=8),
    cluster.robustness: dict(workload=W, brief=cluster.Brief(28.5, 12.35e6, 230e6), pues=(1.3,),
                             bucket_bytes=(25 * 2**20,), backward_shares=(0.6,), flows_per_gpu=(1,)),
    cluster.decisions_of: dict(design=IB),
    cluster.robustness_table: dict(rows=[]),
}


@pytest.mark.parametrize("func", [f for f in API if numeric_params(API[f])], ids=lambda f: f.__name__)
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
    e = cluster.evaluate(IB, W, bucket_bytes=100 * 2**20)
    domain = scaleup.preset("dgx-h100")
    fab = fabric.for_switch("quantum2", 4608)
    eff = specs.value("fabric.claim.spectrum_x_throughput")
    rate = min(domain.scaleout_per_gpu_bps, fab.port_rate_bps) * eff
    # one rank per DGX (TP 8): with 100 MiB buckets a ring of 144 per bucket (NCCL's trees are slower
    # there), 2 x 143 steps of the network's alpha each, and the 4.375 GB of gradients once, in 42
    # DDP buckets (41 of 100 MiB and the rest)
    grad = 70e9 / 32 * 2
    assert e.n_buckets == 42 == -(-grad // 104_857_600)
    expected = 42 * 2 * 143 * domain.inter_alpha_s + 2 * 143 / 144 * 8 * grad / rate
    assert e.dp == 144 and e.dp_s == pytest.approx(expected, rel=1e-9)
    assert e.bucket_algorithm == "ring (netlab)"


def _tree_ll128_by_hand(n_bytes, rate_bps, correction):
    """NCCL 2.30.7's tree/LL128 over 144 nodes of one GPU (ncclTopoGetAlgoTime), worked by hand:
    latency 14 us + 2 x floor(log2 144) = 7 network levels x 8.5 us = 133 us; bandwidth the NIC
    x 0.92 (tree) x 120/128 (LL128's payload per line) x 1/2 (tree algbw) x the size's correction."""
    return 14e-6 + 2 * 7 * 8.5e-6 + 8 * n_bytes / (rate_bps * 0.92 * 120 / 128 * 0.5 * correction)


def test_small_buckets_take_nccl_tree_not_a_144_rank_ring():
    """Review F17: each 1 MiB bucket was priced as a flat ring over the 144 data-parallel ranks,
    286 step latencies (0.77 ms) for 44 us of transfer, which gave 191 days on DGX H100 with
    InfiniBand (210 with ECMP). NCCL's tuner picks its tree there: 133 us of latency, 0.22 ms."""
    e = cluster.evaluate(IB, W, bucket_bytes=2**20)
    rate = 400e9 * 0.95                      # a 400G NIC at adaptive routing's 95 %
    grad = 70e9 / 32 * 2
    full, rest = 4172, grad - 4172 * 2**20   # 4,173 buckets: 4,172 of 1 MiB and 340,928 bytes
    assert e.n_buckets == 4173 and rest == 340_928
    # correction index floor(log2(n / 64)): 14 for 1 MiB and 12 for the rest, both 0.6 for LL128
    by_hand = full * _tree_ll128_by_hand(2**20, rate, 0.6) + _tree_ll128_by_hand(rest, rate, 0.6)
    assert _tree_ll128_by_hand(2**20, rate, 0.6) == pytest.approx(218.3e-6, rel=1e-3)
    assert e.bucket_algorithm == "tree/LL128"
    assert e.dp_s == pytest.approx(by_hand, rel=1e-9)          # the old ring: 3.41 s
    ring = 2 * 143 * 2.7e-6 + 2 * 143 / 144 * 8 * 2**20 / rate  # 0.816 ms, what a bucket cost before
    pick = cluster.bucket_all_reduce(2**20, 144, replace(scaleup.preset("dgx-h100"), scaleout_per_gpu_bps=rate), 1)
    assert pick.ring_s == pytest.approx(ring, rel=1e-9) and pick.time_s == pytest.approx(218.3e-6, rel=1e-3)
    assert e.training_days < 100


def test_default_buckets_on_infiniband_take_the_tree_too():
    """25 MiB over 144 ranks at 380 Gb/s: NCCL's tree/LL128 (correction 0.9 at index 18) takes
    133 us + 1.42 ms = 1.55 ms, the ring 0.77 + 1.09 = 1.87 ms."""
    e = cluster.evaluate(IB, W)
    rate = 400e9 * 0.95
    assert e.bucket_algorithm == "tree/LL128"
    assert e.dp_s / e.n_buckets == pytest.approx(_tree_ll128_by_hand(25 * 2**20, rate, 0.9), rel=2e-3)


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
    e = cluster.evaluate(IB, W)
    assert e.step_s == pytest.approx(e.compute_s + e.bubble_s + e.tp_s + e.pp_s + e.dp_exposed_s)
    assert e.efficiency == pytest.approx(e.compute_s / e.step_s)
    # 1F1B bubble: (pp - 1) / micro-batches of compute
    assert e.bubble_s == pytest.approx(e.compute_s * 3 / 8)
    assert e.training_days == pytest.approx(15e12 / (1152 * 4096) * e.step_s / e.goodput / 86400)
    assert e.effective_step_s == pytest.approx(e.step_s / e.goodput)


def _goodput_by_hand(n_gpus, c=30.0, r=180.0):
    """Daly's interval and complete model, written out, at the Llama 3 run's rate per GPU."""
    import math
    m = 54 * 86400 * 16_384 / (419 * n_gpus)
    x = c / (2 * m)
    tau = math.sqrt(2 * c * m) * (1 + math.sqrt(x) / 3 + x / 9) - c
    return tau / (m * math.exp(r / m) * (math.exp((tau + c) / m) - 1))


def test_days_include_interruptions_checkpoints_and_restarts():
    # 4,608 GPUs: an interruption every 11.0 h; Daly's interval 25.4 min; goodput 95.7 %
    e = cluster.evaluate(IB, W)
    assert e.mtbf_s / 3600 == pytest.approx(54 * 24 * 16_384 / (419 * 4608), rel=1e-9)
    assert e.goodput == pytest.approx(_goodput_by_hand(4608), rel=1e-9)
    assert e.goodput == pytest.approx(0.957, abs=0.0005)
    free = cluster.evaluate(IB, W, with_failures=False)
    assert free.step_s == e.step_s and free.goodput == 1.0
    assert e.training_days / free.training_days == pytest.approx(1 / _goodput_by_hand(4608))
    # a slower restart and checkpoint cost days: 10 min and 2 min
    slow = cluster.evaluate(IB, W, checkpoint_s=120.0, restart_s=600.0)
    assert slow.goodput == pytest.approx(_goodput_by_hand(4608, 120.0, 600.0), rel=1e-9)
    assert slow.training_days > e.training_days


def test_ecmp_is_slower_than_adaptive_and_spraying_by_the_closed_forms():
    eth = replace(IB, switch="sn5600_400g")
    ecmp = cluster.evaluate(replace(eth, load_balancing="ecmp"), W)
    spray = cluster.evaluate(replace(eth, load_balancing="spraying"), W)
    assert ecmp.dp_s > spray.dp_s
    fab = ecmp.fabric
    from netlab.fabric import ecmp as ecmp_mod
    expected = 1 / ecmp_mod.ecmp_collisions(fab.leaf_downlinks, fab.leaf_uplinks).completion_slowdown
    assert ecmp.scaleout_efficiency == pytest.approx(expected)


def test_one_price_model_for_the_designer_and_the_rails():
    # chapter 5's rails and the capstone price a fabric with the same public function: the rails'
    # cost of the capstone's own fat tree equals the designer's network capex (before this, rails.py
    # reached into a private function of netlab.cluster)
    from netlab.fabric import rails
    from netlab.optics import costs
    e = cluster.evaluate(replace(IB, switch="sn5600_400g", optics="lpo"), W)
    r = rails.size("fat_tree", 4608, "sn5600_400g", "dgx-h100", "lpo")
    p = costs.fabric_price(e.fabric, "lpo")
    assert (r.cost_low_usd, r.cost_high_usd) == (p.low_usd, p.high_usd)
    assert (e.network_capex_low_usd, e.network_capex_high_usd) == (p.low_usd, p.high_usd)
    assert not hasattr(cluster, "_network_price_range")


def test_rail_only_racks_make_a_non_blocking_fabric_fit_the_budget():
    # NVL72 racks: 64 racks give 72 rails of 64 NICs, one 128 x 400G SN5600 each: 72 switches
    # where the two-tier fat tree takes 108 (each priced as a whole 51.2 Tb/s switch, $250,000 at the
    # high end), and optics on the host links only: 2 x 4,608 ends at $800
    fat = cluster.evaluate(cluster.capstone_design("gb200-nvl72", "eth-spraying", "dsp_pluggable", 1.0), W)
    only = cluster.evaluate(cluster.capstone_design("gb200-nvl72", "eth-spraying", "dsp_pluggable", 1.0,
                                                    wiring="rail_only"), W)
    assert (fat.fabric.n_switches, only.fabric.n_switches) == (108, 72)
    assert only.fabric.n_transceivers == 2 * 4608
    assert only.network_capex_high_usd == pytest.approx(72 * 250_000 + 4608 * 800 * 2)
    assert "budget" in cluster.check(fat, BRIEF).misses
    assert cluster.check(only, BRIEF).meets
    assert only.step_s <= fat.step_s       # one switch per rail: no path to balance
    assert "rail-only" in only.design.name


def test_rail_wirings_are_non_blocking_only():
    with pytest.raises(ValueError, match="oversubscription"):
        cluster.capstone_design("gb200-nvl72", "eth-ecmp", "lpo", 2.0, wiring="rail_only")
    with pytest.raises(ValueError, match="wiring"):
        replace(IB, wiring="torus")


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
    # LPO on the switch side only: the 4,608 NIC ends keep DSP pluggables ($600 at 400G), as the
    # power model has it (chapter 9); the other link ends are LPO at the 800G LPO-to-DR8 price ratio.
    lpo_ratio = (700 + 900) / (1_100 + 1_400)
    switch_ends = e.fabric.n_transceivers - 4608
    low = e.fabric.n_switches * 150_000 + switch_ends * 600 * lpo_ratio + 4608 * 600
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


def test_ecmp_on_an_oversubscribed_leaf_runs_at_port_over_the_busiest_uplink():
    """86 flows hashed onto 42 uplinks (a 2:1 SN5600 leaf): each flow on the busiest uplink gets
    the uplink's rate over E[max] flows, port / E[max]. The old model divided E[max] by the
    integer ideal ceil(86/42) = 3 and then by the 2.05 oversubscription: 1.46x too fast."""
    from netlab.fabric import ecmp as ecmp_mod
    d = cluster.capstone_design("dgx-h100", "eth-ecmp", "dsp_pluggable", 2.0)
    e = cluster.evaluate(d, W)
    f = e.fabric
    assert (f.leaf_downlinks, f.leaf_uplinks) == (86, 42)
    e_max = ecmp_mod.expected_max_load(86, 42)
    assert e.scaleout_efficiency == pytest.approx(1 / e_max)
    # Non-blocking (64 on 64): 1 / E[max] as before.
    e1 = cluster.evaluate(cluster.capstone_design("dgx-h100", "eth-ecmp", "dsp_pluggable", 1.0), W)
    assert e1.scaleout_efficiency == pytest.approx(1 / ecmp_mod.expected_max_load(64, 64))
    # Oversubscribing an ECMP fabric must not speed it up.
    assert e.training_days > e1.training_days


# --- the capstone brief: every constraint binds somewhere, different briefs choose differently ---

BRIEF = cluster.Brief(max_days=29.8, max_facility_w=12.35e6, max_capex_usd=230e6)


def test_every_constraint_binds_for_some_design_and_the_best_is_not_the_default():
    verdicts = cluster.explore(W, BRIEF, cluster.design_space(wirings=("fat_tree",)))
    assert len(verdicts) == 2 * 3 * 3 * 3
    counts = cluster.binding_counts(verdicts)
    assert all(counts[c] > 0 for c in ("time", "power", "budget")), counts
    # each constraint is the *only* miss of some design: it binds on its own
    for c in ("time", "power", "budget"):
        assert any(v.misses == (c,) for v in verdicts), c
    feasible = [v for v in verdicts if v.meets]
    assert 2 <= len(feasible) < len(verdicts) / 4
    # the four decisions all vary between feasible and infeasible designs with the others fixed
    by_name = {v.evaluation.design.name: v for v in verdicts}
    win = cluster.best(verdicts, "days").evaluation.design
    assert (win.domain, win.load_balancing, win.optics, win.oversubscription) == ("gb200-nvl72", "spraying", "cpo", 2.0)
    for changed in (cluster.capstone_design("dgx-h100", "eth-spraying", "cpo", 2.0),      # domain -> time
                    cluster.capstone_design("gb200-nvl72", "eth-ecmp", "cpo", 2.0),       # fabric -> time
                    cluster.capstone_design("gb200-nvl72", "eth-spraying", "dsp_pluggable", 2.0),  # optics -> power
                    cluster.capstone_design("gb200-nvl72", "eth-spraying", "cpo", 1.0)):  # oversubscription -> budget
        assert not by_name[changed.name].meets, changed.name


def test_different_constraints_and_objectives_select_different_designs():
    fat_trees = cluster.design_space(wirings=("fat_tree",))
    tight = cluster.explore(W, BRIEF, fat_trees)
    cheap = cluster.explore(W, cluster.Brief(max_days=73.2, max_facility_w=10e6, max_capex_usd=200e6), fat_trees)
    rich = cluster.explore(W, cluster.Brief(max_days=31.35, max_facility_w=13e6, max_capex_usd=270e6), fat_trees)
    picks = {cluster.best(v, "days").evaluation.design.name for v in (tight, cheap, rich)}
    assert len(picks) == 3, picks
    assert cluster.best(cheap, "days").evaluation.design.domain == "dgx-h100"
    assert cluster.best(rich, "days").evaluation.design.oversubscription == 1.0
    # the same brief, a different objective: cheapest is 3:1, fastest is 2:1
    assert cluster.best(tight, "capex").evaluation.design.oversubscription == 3.0
    assert cluster.best(cluster.explore(W, cluster.Brief(20, 20e6, 1e9))) is None


def test_a_verdict_names_exactly_the_constraints_missed():
    e = cluster.evaluate(cluster.capstone_design("gb200-nvl72", "ib-adaptive", "dsp_pluggable", 1.0), W)
    v = cluster.check(e, BRIEF)
    assert v.misses == tuple(c for c, over in (("time", e.training_days > 28.5),
                                                ("power", e.site.facility_w > 12.35e6),
                                                ("budget", e.capex_high_usd > 230e6)) if over)
    assert v.margins["power"] == pytest.approx(e.site.facility_w / 12.35e6)
    assert "misses the brief on power and budget" in str(v) and "Evaluation(" not in str(v)


# --- issue 32: the overlap of the gradient all-reduce is derived, not assumed ---------------------------

TINY = cluster.Workload(n_params=4 * 4 * 25 * 2**20, n_layers=8, hidden=1024, seq_len=1024,
                        tokens_per_step=2 * 4 * 1024, n_tokens=1e9)


def test_exposed_gradient_all_reduce_of_a_tiny_design_by_hand():
    """16 H100s, TP 8, PP 1: two data-parallel ranks, one per DGX (inner = 1: the all-reduce is a
    ring of two over the network). Gradients: 4 x 4 x 25 MiB parameters / 8 x 2 B = 4 buckets of
    25 MiB. Four micro-batches of one 1,024-token sequence per rank.
      compute  = 6 x 419,430,400 x 8,192 / (16 x 989.4e12 x 0.4)        = 3.2557 ms
      backward = 2/3 x compute / 4 (the last micro-batch's)            = 0.54262 ms, t_f = 0.13566 ms
      bucket   = 2 x 2.7 us + 8 x 26,214,400 / (400e9 x 0.95)          = 0.55728 ms (ring of 2)
      exposed  = max(c, 4 c - 3 t_f) = 2.22913 - 0.40697              = 1.82216 ms of 2.22913 ms
    """
    e = cluster.evaluate(cluster.Design("tiny", 16, tp=8, pp=1), TINY)
    assert (e.dp, e.n_buckets) == (2, 4)
    assert e.compute_s == pytest.approx(3.2557e-3, rel=1e-4)
    assert e.backward_window_s == pytest.approx(0.54262e-3, rel=1e-4)
    c = 2 * 2.7e-6 + 8 * 26_214_400 / (400e9 * 0.95)
    assert c == pytest.approx(0.55728e-3, rel=1e-4)
    assert e.dp_s == pytest.approx(4 * c, rel=1e-9)
    assert e.dp_exposed_s == pytest.approx(max(c, 4 * c - 3 * e.backward_window_s / 4), rel=1e-9)
    assert e.dp_exposed_s == pytest.approx(1.82216e-3, rel=1e-4)
    assert e.overlap == pytest.approx(1 - 1.82216 / 2.22913, rel=1e-4)
    assert e.step_s == pytest.approx(e.compute_s + e.tp_s + e.pp_s + e.dp_exposed_s)   # PP 1: no bubble
    # one 100 MiB bucket: nothing can start before the backward pass ends, all of it is exposed
    one = cluster.evaluate(cluster.Design("tiny", 16, tp=8, pp=1), TINY, bucket_bytes=100 * 2**20)
    assert one.n_buckets == 1 and one.overlap == pytest.approx(0.0, abs=1e-12)
    assert one.dp_exposed_s == pytest.approx(2 * 2.7e-6 + 8 * 104_857_600 / (400e9 * 0.95), rel=1e-9)


def test_the_overlap_is_no_longer_a_free_parameter():
    """The old designer took ``overlap`` (default 0: the whole all-reduce in every step). On the
    racks over 1:1 InfiniBand the buckets hide all but the last one's all-reduce: 99 % hidden."""
    rack = cluster.capstone_design("gb200-nvl72", "ib-adaptive", "dsp_pluggable", 1.0)
    e = cluster.evaluate(rack, W)
    assert e.step_s < e.compute_s + e.bubble_s + e.tp_s + e.pp_s + e.dp_s
    assert e.overlap > 0.95
    with pytest.raises(TypeError):
        cluster.evaluate(rack, W, overlap=0.5)  # type: ignore[call-arg]  # no assumed overlap any more
    with pytest.raises(TypeError):
        cluster.Brief(29.8, 12.35e6, 230e6, overlap=0.0)  # type: ignore[call-arg]
    # the student's lever: DDP's bucket size moves the overlap, and the step with it
    h100 = cluster.capstone_design("dgx-h100", "ib-adaptive", "dsp_pluggable", 1.0)
    small, default, large = (cluster.evaluate(h100, W, bucket_bytes=b) for b in (2**20, None, 100 * 2**20))
    assert small.n_buckets == 4173 and default.n_buckets == 167 and large.n_buckets == 42
    assert small.overlap < default.overlap < large.overlap
    # a shorter backward hides less: the window scales with backward_share
    assert cluster.evaluate(h100, W, backward_share=0.5).backward_window_s == pytest.approx(
        default.backward_window_s * 0.75)


def test_gradient_overlap_matches_the_flat_ring_of_chapter_7_on_one_rank_per_domain():
    """With one data-parallel rank per domain the hierarchical all-reduce is the flat ring that
    netlab.training.overlap prices: the wrapper must agree with exposed_comm_s there."""
    from netlab.training import overlap
    dom = scaleup.preset("dgx-h100")
    s = cluster.gradient_overlap(1e9, 0.05, 16, dom, domain_size=1, bucket_bytes=25 * 2**20)
    assert s.exposed_s == pytest.approx(overlap.exposed_comm_s(1e9, 0.05, 16, dom.inter_alpha_s,
                                                               dom.scaleout_per_gpu_bps, 25 * 2**20), rel=1e-9)


@pytest.mark.parametrize("field, value", [("n_params", -70e9), ("micro_batch", 0), ("tokens_per_step", 0.0),
                                          ("n_tokens", float("nan")), ("n_layers", 0)])
def test_workload_refuses_values_that_gave_negative_days_or_a_zero_division(field, value):
    with pytest.raises(ValueError, match=field):
        replace(W, **{field: value})


def test_design_refuses_unknown_choices_at_once():
    with pytest.raises(ValueError, match="optics"):
        replace(IB, optics="magic")
    with pytest.raises(ValueError, match="oversubscription"):
        replace(IB, oversubscription=0.5)


def test_chapter_11_results_table_is_what_the_model_gives():
    import pathlib
    import re
    text = (pathlib.Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text()
    verdicts = {v.evaluation.design.name: v for v in cluster.explore(W, BRIEF)}
    rows = [line for line in text.splitlines() if line.startswith("| GB200") or line.startswith("| DGX")]
    assert len(rows) >= 8
    for row in rows:
        name, days, mw, capex, verdict = [c.strip() for c in row.strip("|").split("|")]
        v = verdicts[name]
        e = v.evaluation
        assert days == f"{e.training_days:.1f}", name
        assert mw == f"{e.site.facility_w / 1e6:.2f} MW", name
        low, high = map(int, re.findall(r"\d+", capex))
        assert (low, high) == (round(e.capex_low_usd / 1e6), round(e.capex_high_usd / 1e6)), name
        assert verdict == ("meets" if v.meets else "misses " + ", ".join(v.misses)), name


def test_optics_move_facility_power_by_up_to_two_percent_not_under_one():
    """Chapter 11 said the optics move facility power by 'less than 1 %'. By hand, the non-blocking
    three-tier InfiniBand fabric (64-port switches, 4,608 GPUs: 144 leaves x 32 uplinks, twice) has
    4,608 + 4 x 4,608 = 23,040 switch-side link ends; each saves (24.15 - 7.425) pJ/bit x 400 Gb/s
    = 6.69 W with CPO; at PUE 1.58 that is 0.2435 MW, 1.9 % of about 12.6 MW."""
    by_hand = 23_040 * (24.15 - 7.425) * 1e-12 * 400e9 * 1.58
    dsp, cpo = (cluster.evaluate(cluster.capstone_design("gb200-nvl72", "ib-adaptive", o, 1.0), W)
                for o in ("dsp_pluggable", "cpo"))
    assert dsp.site.facility_w - cpo.site.facility_w == pytest.approx(by_hand, rel=0.005)
    assert 0.018 < (dsp.site.facility_w - cpo.site.facility_w) / dsp.site.facility_w < 0.02
    text = (__import__("pathlib").Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text()
    assert "under 1 %" not in text and "less than\n1 %" not in text


def test_non_blocking_ecmp_on_the_racks_makes_the_deadline_by_a_hair_and_misses_the_budget():
    """Chapter 11: the non-blocking ECMP rack design on a fat tree takes 28.7 days against 29.8
    (inside by 3.8 %; 42 % of its all-reduce hidden) and misses the budget; at 2:1 and 3:1 ECMP
    misses the deadline (30.0 and 31.1 days)."""
    v = cluster.check(cluster.evaluate(cluster.capstone_design("gb200-nvl72", "eth-ecmp", "cpo", 1.0), W), BRIEF)
    assert v.misses == ("budget",) and 0.96 < v.margins["time"] < 0.965
    for over in (2.0, 3.0):
        v = cluster.check(cluster.evaluate(cluster.capstone_design("gb200-nvl72", "eth-ecmp", "cpo", over), W), BRIEF)
        assert "time" in v.misses


def test_the_gradient_all_reduce_overlaps_its_tiers():
    # the racks' data-parallel ranks: 9 per rack (72 / TP 8), 64 racks; the step's all-reduce is the
    # slower tier, not the sum of the tiers (chapter 7, review of chapters 5-8, M1)
    from netlab.nvlink import domains
    e = cluster.evaluate(cluster.capstone_design("gb200-nvl72", "ib-adaptive", "dsp_pluggable", 1.0), W)
    rack = domains.preset("gb200-nvl72")
    eff = replace(rack, scaleout_per_gpu_bps=min(rack.scaleout_per_gpu_bps, e.fabric.port_rate_bps)
                  * e.scaleout_efficiency)
    grad, cap = 70e9 / 32 * 2, 25 * 2**20
    buckets = [cap] * int(grad // cap) + [grad - grad // cap * cap]
    hs = [domains.hierarchical_all_reduce(b, e.dp, eff, domain_size=9) for b in buckets]
    assert e.dp_s == pytest.approx(sum(max(h.intra_s, h.inter_s) for h in hs)) and e.dp_s < sum(h.time_s for h in hs)


@pytest.mark.parametrize("narrow", [False, True])
def test_brief_bar_labels_never_cross_the_limit_line(narrow):
    # Lab 11's explorer: a bar ending just short of the brief's limit had its value printed
    # across the limit line (79 of the 162 labels of the capstone's 54 designs did).
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from netlab import plots
    work = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096,
                            tokens_per_step=1152 * 4096, n_tokens=15e12)
    brief = cluster.Brief(max_days=28.5, max_facility_w=12.35e6, max_capex_usd=230e6, n_gpus=4608)
    checked = 0
    for verdict in cluster.explore(work, brief, cluster.design_space(wirings=("fat_tree",))):
        if narrow:
            with plots.narrow_figures():
                fig = cluster.plot_brief(verdict)
                plots.fit_narrow(fig)
        else:
            fig = cluster.plot_brief(verdict)
        FigureCanvasAgg(fig)
        fig.draw_without_rendering()     # the layout and the text boxes of a draw, without its pixels
        renderer = fig.canvas.get_renderer()
        ax = fig.axes[0]
        line_x = ax.transData.transform((1.0, 0.0))[0]
        for text in ax.texts:
            box = text.get_window_extent(renderer)
            assert not box.x0 - 1 <= line_x <= box.x1 + 1, (text.get_text(), verdict.margins)
            checked += 1
    assert checked == len(cluster.CONSTRAINTS) * 54


# --- issue 31 (chapter 11 review N1-N4, N7): lessons that survive the open inputs -------------------

def test_memory_is_a_hard_constraint_of_the_brief():
    # 70e9 parameters x 16 B / (TP 8 x PP 1) = 140 GB per GPU on an 80 GB H100: the design cannot
    # run, so it misses the brief on memory even when every other limit is loose (it "met" before)
    design = cluster.capstone_design("dgx-h100", "eth-spraying", "cpo", 1.0, pp=1)
    verdict = cluster.check(cluster.evaluate(design, W), cluster.Brief(200, 10e6, 200e6))
    assert verdict.evaluation.state_bytes_per_gpu == pytest.approx(140e9)
    assert verdict.misses == ("memory",) and not verdict.meets
    assert verdict.margins["memory"] == pytest.approx(140 / 80)


@pytest.mark.parametrize("flows, efficiency", [(1, 0.253), (2, 0.335), (4, 0.427), (8, 0.522)])
def test_ecmp_with_several_flows_per_gpu_follows_balls_into_bins(flows, efficiency):
    # 64 GPUs under a leaf, 64 uplinks: 64 x flows balls into 64 bins; efficiency is the even
    # share over the expected busiest bin (the review's table, from ecmp_collisions(64 k, 64))
    e = cluster.evaluate(replace(cluster.capstone_design("dgx-h100", "eth-ecmp", "dsp_pluggable", 1.0),
                                 flows_per_gpu=flows), W)
    assert (e.fabric.leaf_downlinks, e.fabric.leaf_uplinks) == (64, 64)
    assert e.scaleout_efficiency == pytest.approx(efficiency, abs=0.0005)


def test_every_cpo_design_of_the_capstone_is_labelled_hypothetical():
    for d in cluster.design_space():
        assert ("hypothetical" in d.name) == (d.optics == "cpo"), d.name


ROBUST = dict(pues=(1.3, 1.58), bucket_bytes=(25 * 2**20, 100 * 2**20), flows_per_gpu=(1, 4))


def test_design_space_holds_every_wiring_rails_non_blocking_only():
    space = cluster.design_space()
    assert len(space) == 2 * 3 * 3 * (3 + 1 + 1) == 90
    assert all(d.oversubscription == 1.0 for d in space if d.wiring != "fat_tree")


def test_robustness_separates_lessons_from_close_calls():
    rows = cluster.robustness(W, BRIEF, **ROBUST)
    assert len(rows) == 8
    for r in rows:
        assert r.choices["domain"] == ("gb200-nvl72",)                 # forced everywhere
        # the whole design space: a non-blocking design fits the budget only when wired rail-only
        assert r.nonblocking_wirings == ("rail_only",), r
        assert set(r.choices["optics"]) == {"dsp_pluggable", "lpo", "cpo"}   # never forced overall
        assert (r.misses["power"] > 0) == (r.pue == 1.58), r
    # on fat trees alone ECMP is ruled out only with DDP's 25 MiB buckets and one flow per GPU
    for pue in (1.3, 1.58):
        for bucket in (25 * 2**20, 100 * 2**20):
            for flows in (1, 4):
                brief = cluster.Brief(29.8, 12.35e6, 230e6, bucket_bytes=bucket, pue=pue)
                ecmp = [replace(d, flows_per_gpu=flows) for d in cluster.design_space(fabrics=("eth-ecmp",),
                                                                                        wirings=("fat_tree",))]
                meets = any(v.meets for v in cluster.explore(W, brief, ecmp))
                assert meets == (bucket > 25 * 2**20 or flows > 1), (pue, bucket, flows)


def test_chapter_11_robustness_table_is_what_the_model_gives():
    import pathlib
    text = (pathlib.Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text()
    table = cluster.robustness_table(cluster.robustness(W, BRIEF, **ROBUST))
    assert table in text


def test_the_racks_save_mostly_compute_not_all_reduce():
    # chapter 11: of 1.13 s saved per step on InfiniBand 1:1, 0.66 s compute + 0.25 s bubble, 0.06 s
    # TP, 0.17 s exposed gradient all-reduce (the H100s' 91 ms backward window hides 35 % of their
    # 0.26 s; the racks hide 99 % of 0.03 s); compute: 6 N T / (n x peak x MFU), 989.4 vs 2,500 TFLOPS
    h100, rack = (cluster.evaluate(cluster.capstone_design(d, "ib-adaptive", "dsp_pluggable", 1.0), W)
                  for d in ("dgx-h100", "gb200-nvl72"))
    flops = 6 * 70e9 * 1152 * 4096
    assert h100.compute_s == pytest.approx(flops / (4608 * 989.4e12 * 0.4), rel=1e-3)
    assert h100.step_s - rack.step_s == pytest.approx(1.13, abs=0.005)
    assert h100.compute_s - rack.compute_s == pytest.approx(0.66, abs=0.005)
    assert h100.bubble_s - rack.bubble_s == pytest.approx(0.25, abs=0.005)
    assert h100.dp_exposed_s - rack.dp_exposed_s == pytest.approx(0.17, abs=0.005)


def test_chapter_11_small_bucket_days_with_and_without_nccls_tree(monkeypatch):
    """The page's 1 MiB figures: 95 days on InfiniBand and 133 on ECMP with NCCL's tree, where a
    144-rank ring for every bucket (the old pricing, forced here) gave 191 and 210."""
    ib, ecmp = (cluster.capstone_design("dgx-h100", k, "dsp_pluggable", 1.0) for k in ("ib-adaptive", "eth-ecmp"))
    now = [round(cluster.evaluate(d, W, bucket_bytes=2**20).training_days) for d in (ib, ecmp)]
    assert now == [95, 133]
    ring_only = cluster.bucket_all_reduce

    def ring(n_bytes, dp, domain, domain_size=None):
        b = ring_only(n_bytes, dp, domain, domain_size)
        return replace(b, time_s=b.ring_s, algorithm="ring (netlab)")
    monkeypatch.setattr(cluster, "bucket_all_reduce", ring)
    assert [round(cluster.evaluate(d, W, bucket_bytes=2**20).training_days) for d in (ib, ecmp)] == [191, 210]


def test_robustness_and_its_table_refuse_bad_input():
    with pytest.raises(ValueError, match="pues"):
        cluster.robustness(W, BRIEF, pues=(0.9,))
    with pytest.raises(ValueError, match="flows_per_gpu"):
        cluster.robustness(W, BRIEF, flows_per_gpu=())
    with pytest.raises(TypeError, match="design"):
        cluster.decisions_of("dgx-h100")
    with pytest.raises(TypeError, match="rows"):
        cluster.robustness_table([IB])


def test_chapter_11_prices_infiniband_against_ethernet_and_the_budget_margin_of_1_to_1():
    import pathlib
    text = " ".join((pathlib.Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text().split())
    ib, eth = (cluster.evaluate(cluster.capstone_design("gb200-nvl72", k, "dsp_pluggable", 2.0), W)
               for k in ("ib-adaptive", "eth-spraying"))
    runs_per_dollar = (ib.training_days * ib.capex_high_usd) / (eth.training_days * eth.capex_high_usd)
    assert f"{runs_per_dollar:.2f}x as many runs per dollar" in text
    assert f"take {ib.fabric.n_switches} switches where {eth.fabric.n_switches} SN5600s" in text
    # the cheapest non-blocking rack design with a spine misses the budget by 2.7 % at the high prices only
    cheapest = min((cluster.evaluate(d, W) for d in cluster.design_space(wirings=("fat_tree", "rail_optimized"))
                    if d.oversubscription == 1.0 and d.domain == "gb200-nvl72"),
                   key=lambda e: e.capex_high_usd)
    assert round(100 * (cheapest.capex_high_usd / 230e6 - 1), 1) == 2.7 and cheapest.capex_low_usd < 230e6
    assert "2.7 % over the \\$230 M cap" in text


# --- issue 32: the fabric calculator against published clusters ------------------------------------

@pytest.mark.parametrize("n_gpus, leaf_key, spine_key", [(256, "ra.superpod_h100.leaf_1su", "ra.superpod_h100.spine_1su"),
                                                          (1024, "ra.superpod_h100.leaf_4su", "ra.superpod_h100.spine_4su")])
def test_rail_optimized_counts_match_the_dgx_h100_superpod(n_gpus, leaf_key, spine_key):
    # NVIDIA's Table 4: 1 SU (32 node slots) 8 leaves + 4 spines; 4 SUs (127 nodes and a UFM slot,
    # 1,024 leaf ports) 32 leaves + 16 spines, all 64-port QM9700s, one rail per leaf
    from netlab.fabric import rails
    f = rails.size("rail_optimized", n_gpus, "quantum2", "dgx-h100")
    assert f.fabric.switches_per_tier == (specs.value(leaf_key), specs.value(spine_key))


def test_a_three_tier_fabric_matches_the_dgx_b200_superpod():
    # 16 SUs, 512 nodes, 4,096 GPUs: 128 leaf, 128 spine, 64 core switches
    from netlab.fabric import rails
    for kind in ("fat_tree", "rail_optimized"):
        f = rails.size(kind, 4096, "quantum2", "dgx-h100")
        assert f.fabric.switches_per_tier == tuple(specs.value(f"ra.superpod_b200.{t}_16su")
                                                   for t in ("leaf", "spine", "core"))


def test_rail_only_is_a_superpod_unit_without_its_spines():
    # one SU's rail-only wiring keeps its 8 rail leaves (the published leaf count) and drops the 4 spines:
    # a third of the switches and half of the optics (no leaf-spine links), 39-40 % of the cost
    from netlab.fabric import rails
    only = rails.size("rail_only", 256, "quantum2", "dgx-h100")
    assert only.n_switches == specs.value("ra.superpod_h100.leaf_1su")
    s = rails.rail_only_saving(256)
    assert (s.switches, s.transceivers) == (pytest.approx(4 / 12), pytest.approx(0.5))
    # the paper's 38-77 %: netlab brackets it where a rail needs one or two tiers fewer than the cluster
    low, high = specs.value("fabric.rail_only.cost_saving_low"), specs.value("fabric.rail_only.cost_saving_high")
    assert low - 0.01 <= rails.rail_only_saving(16_384).cost_low <= high
    assert low <= rails.rail_only_saving(4608, domain="gb200-nvl72").cost_high <= high
    assert rails.rail_only_saving(32_768).cost_low == 0.0     # a rail of 4,096 NICs still needs three tiers


def test_chapter_11_fabric_table_says_what_the_calculator_gives():
    import pathlib
    from netlab.fabric import rails
    text = (pathlib.Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text()

    def tiers(kind, n, domain="dgx-h100"):
        return " + ".join(str(c) for c in rails.size(kind, n, "quantum2", domain).fabric.switches_per_tier)

    rows = {line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")]
            for line in text.splitlines() if line.startswith("| NVIDIA DGX") or line.startswith("| one SU")
            or "rail-only against rail-optimized |" in line}
    assert rows["NVIDIA DGX H100 SuperPOD, 1 SU (32 node slots, 256 GPUs)"][3] == tiers("rail_optimized", 256)
    assert rows["NVIDIA DGX H100 SuperPOD, 3 SUs (95 nodes, 768 ports)"][3] == tiers("rail_optimized", 768)
    assert rows["NVIDIA DGX H100 SuperPOD, 4 SUs (127 nodes and a UFM slot, 1,024 ports)"][3] == \
        tiers("rail_optimized", 1024)
    assert rows["NVIDIA DGX B200 SuperPOD, 16 SUs (512 nodes, 4,096 GPUs)"][3] == tiers("fat_tree", 4096)
    for label, n, domain in (("16,384 H100 GPUs, rail-only against rail-optimized", 16_384, "dgx-h100"),
                             ("4,608 GPUs in NVL72 racks, rail-only against rail-optimized", 4608, "gb200-nvl72"),
                             ("32,768 H100 GPUs, rail-only against rail-optimized", 32_768, "dgx-h100")):
        only, opt = (rails.size(k, n, "quantum2", domain).n_switches for k in ("rail_only", "rail_optimized"))
        assert rows[label][3] == f"{only:,} against {opt:,}", label


def test_chapter_11_overlap_table_is_what_the_model_gives():
    import pathlib
    text = (pathlib.Path(__file__).parents[1] / "book" / "ch11-capstone.md").read_text()
    for label, domain, fabric_key in (("8-GPU DGX H100, InfiniBand adaptive", "dgx-h100", "ib-adaptive"),
                                      ("8-GPU DGX H100, Ethernet ECMP", "dgx-h100", "eth-ecmp"),
                                      ("NVL72, InfiniBand adaptive", "gb200-nvl72", "ib-adaptive"),
                                      ("NVL72, Ethernet ECMP", "gb200-nvl72", "eth-ecmp")):
        e = cluster.evaluate(cluster.capstone_design(domain, fabric_key, "dsp_pluggable", 1.0), W)
        fill = e.backward_window_s * 25 * 2**20 / (70e9 / 32 * 2)
        exposed = (f"{e.dp_exposed_s * 1e3:.2f} ms" if e.dp_exposed_s < 1e-3 else f"{e.dp_exposed_s * 1e3:.0f} ms")
        row = (f"| {label} | {e.backward_window_s * 1e3:.0f} ms | {e.dp_s * 1e3:.0f} ms | "
               f"{e.dp_s / e.n_buckets * 1e3:.2f} / {fill * 1e3:.2f} ms | {exposed} | {e.overlap:.0%} |")
        assert row.replace("%", " %") in text, row


def test_plot_overlap_draws_the_window_and_the_hidden_and_exposed_all_reduce():
    # DGX H100 on 1:1 ECMP: a 90.6 ms window; 816.8 ms of all-reduce, 90.0 ms hidden, 726.7 ms exposed
    e = cluster.evaluate(cluster.capstone_design("dgx-h100", "eth-ecmp", "dsp_pluggable", 1.0), W)
    fig = cluster.plot_overlap(e)
    widths = [round(p.get_width(), 1) for p in fig.axes[0].patches]
    assert widths == [90.6, 90.0, 726.7]
    assert widths[1] + widths[2] == pytest.approx(816.8, abs=0.1)
    assert "90.0 ms hidden and 726.7 ms exposed (11% hidden)" in fig.alt == cluster.plot_overlap_alt(e)


def test_chapter_11_calculator_shows_the_total_and_the_exposed_all_reduce():
    """Issue 32: the in-page calculator showed the total data-parallel time where the step uses the
    exposed part. By hand, on its default design (DGX H100, InfiniBand adaptive, 1:1): 167 buckets
    (166 of 25 MiB, 23.4 MB left) on NCCL's tree/LL128 at 380 Gb/s, correction 0.9 for both sizes;
    they queue from the first bucket's fill time on, so exposed = fill_0 + total - window, with the
    window 2/3 of one of 8 micro-batches' compute (6 N T / (4,608 x 989.4 TFLOP/s x 0.4))."""
    import importlib
    import pathlib
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "book" / "_ext"))
    try:
        calculators = importlib.import_module("netlab_calculators")
    finally:
        sys.path.pop(0)
    calc = calculators.CALCULATORS["capstone"]
    readout = calc(calc.defaults())
    grad = 70e9 / 32 * 2
    rest = grad - 166 * 25 * 2**20
    total = 166 * _tree_ll128_by_hand(25 * 2**20, 380e9, 0.9) + _tree_ll128_by_hand(rest, 380e9, 0.9)
    window = 2 / 3 * 6 * 70e9 * 1152 * 4096 / (4608 * 989.4e12 * 0.4) / 8
    exposed = window * 25 * 2**20 / grad + total - window
    assert f"{total * 1e3:.0f} ms" == "260 ms" and f"{exposed * 1e3:.0f} ms" == "170 ms"
    assert "data-parallel all-reduce 260 ms in all, of which 170 ms exposed, 35% hidden" in readout, readout


def test_the_design_sweep_runs_through_netlab_sweep_with_the_serial_results(monkeypatch):
    """Issue 35: the capstone's design space goes through netlab.sweep.run, serially or on worker
    processes, with the verdicts a plain loop over the designs gives."""
    from netlab import sweep
    designs = cluster.design_space(domains=("gb200-nvl72",), fabrics=("eth-ecmp", "ib-adaptive"), optics=("lpo",),
                                   oversubscriptions=(1.0, 2.0), wirings=("fat_tree", "rail_only"))
    loop = [cluster.check(cluster.evaluate(d, W, pue=BRIEF.pue, bucket_bytes=BRIEF.bucket_bytes,
                                           backward_share=BRIEF.backward_share), BRIEF) for d in designs]
    calls = []
    real = sweep.run
    monkeypatch.setattr(sweep, "run", lambda *a, **k: calls.append(k.get("workers")) or real(*a, **k))
    assert cluster.explore(W, BRIEF, designs) == loop
    assert cluster.explore(W, BRIEF, designs, workers=2) == loop
    assert calls == [1, 2] and cluster.explore(W, BRIEF, []) == []


def test_robustness_through_the_sweep_is_the_serial_loop():
    """One setting of robustness() against the same setting done by hand with a loop of check()."""
    (row,) = cluster.robustness(W, BRIEF, pues=(1.3,), bucket_bytes=(100 * 2**20,), flows_per_gpu=(4,))
    setting = replace(BRIEF, pue=1.3, bucket_bytes=100 * 2**20)
    verdicts = [cluster.check(cluster.evaluate(replace(d, flows_per_gpu=4), W, pue=1.3, bucket_bytes=100 * 2**20),
                              setting) for d in cluster.design_space(n_gpus=BRIEF.n_gpus)]
    assert row.n_meet == sum(v.meets for v in verdicts) and row.misses == cluster.binding_counts(verdicts)
    assert row.fastest == cluster.best(verdicts, "days").evaluation.design.name   # type: ignore[union-attr]


def test_chapter_11_ecmp_penalty_by_bucket_and_flows():
    """The page's ECMP penalties on DGX H100 (days more than spraying): 21.9 / 15.3 / 11.0 / 7.8 with
    1 / 2 / 4 / 8 flows per GPU at 25 MiB, 19.8 / 13.2 / 8.9 / 6.0 at 100 MiB; 38.3 at 1 MiB, 19.8 at
    400 MiB; and its figures for the buckets: ECMP leaves a quarter of the NIC, the 25 MiB ring over
    144 ranks takes 286 x 2.7 us + 2 x 143/144 x 25 MiB at 380 Gb/s = 1.87 ms on InfiniBand."""
    ecmp, spray = (cluster.capstone_design("dgx-h100", k, "dsp_pluggable", 1.0) for k in ("eth-ecmp", "eth-spraying"))

    def lost(flows, mib):
        return round(cluster.evaluate(replace(ecmp, flows_per_gpu=flows), W, bucket_bytes=mib * 2**20).training_days
                     - cluster.evaluate(replace(spray, flows_per_gpu=flows), W, bucket_bytes=mib * 2**20).training_days,
                     1)
    assert [lost(f, 25) for f in (1, 2, 4, 8)] == [21.9, 15.3, 11.0, 7.8]
    assert [lost(f, 100) for f in (1, 2, 4, 8)] == [19.8, 13.2, 8.9, 6.0]
    assert (lost(1, 1), lost(1, 400)) == (38.3, 19.8)
    assert round(cluster.evaluate(ecmp, W).scaleout_efficiency, 2) == 0.25
    pick = cluster.bucket_all_reduce(25 * 2**20, 144, replace(scaleup.preset("dgx-h100"), scaleout_per_gpu_bps=380e9), 1)
    assert pick.ring_s == pytest.approx(286 * 2.7e-6 + 2 * 143 / 144 * 8 * 25 * 2**20 / 380e9, rel=1e-9)
    assert f"{pick.ring_s * 1e3:.2f} / {pick.time_s * 1e3:.2f}" == "1.87 / 1.55" and pick.algorithm == "tree/LL128"
    # the robust bullet: the DGX H100 designs' all-reduce at 25 MiB spans 0.25-1.36 s, far above the window
    spans = [cluster.evaluate(d, W).dp_s for d in cluster.design_space(domains=("dgx-h100",), optics=("lpo",))]
    assert f"{min(spans):.2f}-{max(spans):.2f}" == "0.25-1.36"
