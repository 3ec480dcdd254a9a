"""netlab.nvlink.figures: lab 7's sentences and titles, against numbers worked by hand.

The hierarchical all-reduce of N bytes over 576 GPUs in domains of d: inside, a ring reduce-scatter
and all-gather, 2 [(d - 1) a_in + (d - 1)/d x 8 N / B_in]; across, a ring all-reduce of N / d over
m = 576 / d domains, 2 (m - 1) a_out + 2 (m - 1)/m x 8 (N / d) / B_out. NVLink 5: B_in = 900 GB/s
= 7.2e12 b/s; 400G: B_out = 4e11 b/s; NCCL's per-step latencies a_in = 0.6 us, a_out = 2.7 us.
"""

import re

import pytest

from netlab.nvlink import domains, figures, inference
from netlab.units import GB

# The explorers added for issue 32 (the older ones are in tests/test_plots_labs.py).
API = {
    figures.overlap_example: dict(bucket_mib=25, backward_s=0.5),
    figures.draw_overlap: dict(bucket_mib=25, backward_s=0.5),
    figures.overlap_readout: dict(bucket_mib=400, backward_s=1.0),
    figures.dispatch_example: dict(n_nodes=8, routing="at most 4 nodes"),
    figures.draw_dispatch: dict(n_nodes=8, routing="no node limit"),
    figures.dispatch_readout: dict(n_nodes=32, routing="at most 4 nodes"),
    figures.draw_engine_all_reduce: dict(system="dgx-h100", tp=8),
    figures.engine_readout: dict(system="dgx-b200", tp=4),
}


def test_lab_7_default_frame_nvlink_5_and_400g_for_1_gb():
    # d = 8 (m = 72): inside 2 x (7 x 0.6 + 7/8 x 8e9 / 7.2e12 s) = 2 x (4.2 + 972.22) us = 1,952.89 us;
    #   across 2 x 71 x 2.7 us + 2 x 71/72 x 8 x 125e6 / 4e11 s = 383.4 + 4,930.56 = 5,313.96 us;
    #   7,266.85 us in series, and the scale-out tier is the larger.
    # d = 72 (m = 8): inside 2 x (71 x 0.6 + 71/72 x 1,111.11) us = 2 x (42.6 + 1,095.68) = 2,276.57 us;
    #   across 2 x 7 x 2.7 + 2 x 7/8 x 8 x 13.889e6 / 4e11 s = 37.8 + 486.11 = 523.91 us; 2,800.48 us
    #   in series, the scale-up tier the larger. busbw = 1e9 / 2.80048e-3 x 2 x 575/576 = 713 GB/s.
    text = figures.hierarchical_readout("NVLink 5", "400G", 1 * GB)
    assert "With 8 GPUs per domain the all-reduce takes 7.27 ms" in text, text
    assert "the scale-out tier is the bottleneck" in text and "(scale-up tier)" in text, text
    assert re.search(r"with 72\D*2\.8 ms", text, re.I), text
    if "busbw" in text:
        assert "a busbw of 713 GB/s" in text, text
    if "overlapped" in text:      # tiers overlapped, as NCCL pipelines them: the slower tier alone
        assert "5.31 ms overlapped" in text and "2.28 ms overlapped" in text, text


def test_hierarchical_title_gives_the_crossover_domain_size():
    # r = 7.2e12 / 4e11 = 18; d* = (1 + r) n / (n + r) = 19 x 576 / 594 = 18.42
    fig = figures.draw_hierarchical("NVLink 5", "400G", 1 * GB)
    assert fig.axes[0].get_title() == "1 GB over 576 GPUs, NVLink 5 + 400G: d* = 18.4"


def test_only_the_nvl72_reaches_the_decode_front_for_llama_3_70b():
    # Per layer, TP 8 streams 868.79 M parameters x 2 B / 8 GPUs = 217.2 MB per GPU: 64.83 us at H100's
    # 3.35 TB/s, 27.15 us at 8 TB/s (B200 and GB200 alike). B200 and GB200 share HBM, NVLink 5 and the
    # TP all-reduce, and GB200 computes faster (2.5 vs 2.25 PFLOP/s), so at every batch it is at least
    # as fast; it also draws less per GPU (120 kW / 72 = 1,666.7 W against 14.3 kW / 8 = 1,787.5 W):
    # more tokens per joule at the same batch, so every B200 point is beaten. The H100 systems are
    # slower at every batch (2.4x the memory time) by more than their lower power (1,275 W) makes up
    # (1,666.7 / 1,275 = 1.31x), so GB200 alone is on the front.
    shape = inference.model("llama3-70b")
    steps = {s: inference.decode_step(shape, domains.preset(s), 8, 1) for s in ("dgx-h100", "gb200-nvl72")}
    assert steps["dgx-h100"].memory_s == pytest.approx(868.79e6 * 2 / 8 / 3.35e12, rel=1e-4)
    assert steps["gb200-nvl72"].memory_s == pytest.approx(868.79e6 * 2 / 8 / 8e12, rel=1e-4)
    assert domains.preset("gb200-nvl72").power_per_gpu_w == pytest.approx(120e3 / 72)
    assert domains.preset("dgx-b200").power_per_gpu_w == pytest.approx(14.3e3 / 8)
    assert figures.pareto_readout("llama3-70b", 8) == "On the Pareto front: GB200 NVL72."


def test_llama_405b_does_not_fit_eight_h100s():
    # 405.9 G parameters x 2 B = 811.7 GB; over TP 8, 101.5 GB per GPU: more than an H100's 80 GB, less
    # than a B200's 180 GB or a GB200's 186 GB.
    assert inference.model("llama3.1-405b").weight_bytes / 8 == pytest.approx(101.46e9, rel=1e-4)
    assert figures.pareto_readout("llama3.1-405b", 8) == (
        "On the Pareto front: GB200 NVL72. The weights do not fit on PCIe 5.0 mesh (H100), DGX H100.")


def test_overlap_readout_at_ddp_default_hides_what_the_closed_form_says():
    # 14 GB in 25 MiB buckets: 534 full + 1 part. Each full bucket: ring over 16 ranks,
    # 30 x 14 us + 2 x 15/16 x 26,214,400 B / 47 GB/s = 0.42 ms + 1.0459 ms = 1.4659 ms; it fills in
    # 0.5 s x 26,214,400 / 14e9 = 0.936 ms < 1.4659 ms, so the queue grows and (n c - (n-1) t_f with the
    # partial bucket) about 0.284 s stays exposed of 0.783 s.
    s = figures.overlap_example(25, 0.5)
    assert s.n_items == 535
    c = 30 * 14e-6 + 2 * 15 / 16 * 26_214_400 / 47e9
    assert s.end_s[0] - s.start_s[0] == pytest.approx(c, rel=1e-9)
    assert s.exposed_s == pytest.approx(0.284, abs=0.001)


def test_dispatch_readout_node_limit_dedups_about_twice():
    # 8 nodes of 32 experts, top-8 within 4 nodes: 4 (1 - C(96, 8) / C(128, 8)) = 3.629 nodes.
    text = figures.dispatch_readout(8, "at most 4 nodes")
    assert "3.63 nodes" in text and "2.20x" in text, text


def test_chapter_7_small_buckets_as_nccls_tuner_would_run_them():
    # Chapter 7: the overlap example's 1 MiB buckets are Simple rings (6.2 s in all, 0.46 ms each);
    # NCCL's tuner picks tree/LL128 at 0.16 ms a bucket, 2.2 s for the 13,352 buckets, against
    # 0.72 s for 535 buckets of 25 MiB (ring/LL128). By hand, the ring's 30 steps x 14 us = 0.42 ms of
    # latency dominate its 1 MiB bucket; the tree pays 2 x log2(16) = 8 network steps.
    from netlab.collectives import nccl_tuner
    ring = figures.overlap_example(1, 0.5)
    assert ring.n_items == 13_352 and ring.comm_s / ring.n_items == pytest.approx(0.46e-3, rel=0.02)
    assert 30 * 14e-6 / (ring.comm_s / ring.n_items) > 0.85
    small = nccl_tuner.predict(2**20, 16, 16, nic_bps=400e9)
    large = nccl_tuner.predict(25 * 2**20, 16, 16, nic_bps=400e9)
    assert (small.label, large.label) == ("tree/LL128", "ring/LL128")
    assert small.time_s == pytest.approx(0.16e-3, rel=0.03)
    assert 13_352 * small.time_s == pytest.approx(2.2, rel=0.02)
    assert 535 * large.time_s == pytest.approx(0.72, rel=0.02)
