"""netlab.nvlink.inference against hand-computed decode times, MoE traffic and the Pareto definition."""

from hypothesis import given, settings, strategies as st
import pytest

import dataclasses

from netlab import specs
from netlab.nvlink import inference, domains as scaleup
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

DGX_H100 = scaleup.preset("dgx-h100")
DGX_B200 = scaleup.preset("dgx-b200")
LLAMA70 = inference.model("llama3-70b")

API = {
    inference.transformer: dict(n_params=70e9, n_layers=80, d_model=8192, bytes_per_param=2.0,
                                bytes_per_activation=2.0),
    inference.dense_transformer_params: dict(n_layers=80, d_model=8192, d_ffn=28672, n_heads=64,
                                             n_kv_heads=8, vocab=128256),
    inference.model: dict(name="llama3-70b", bytes_per_param=2.0, bytes_per_activation=2.0),
    inference.tp_traffic_per_token: dict(d_model=8192, tp=8, bytes_per_activation=2.0),
    inference.tp_all_reduce_time: dict(n_bytes=16384, tp=8, domain=DGX_H100, algorithm="best"),
    inference.decode_step: dict(shape=LLAMA70, domain=DGX_H100, tp=8, batch=4, algorithm="best"),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_llama_shapes_from_the_registry():
    # Llama 3 70B: 70,553,706,496 params x 2 bytes = 141.107 GB of BF16 weights; 80 layers, d 8192.
    assert LLAMA70.weight_bytes == pytest.approx(141.107413e9, rel=1e-8)
    assert (LLAMA70.n_layers, LLAMA70.d_model) == (80, 8192)
    # Llama 3.1 405B: the published 405,853,388,800 parameters, 811.7 GB in BF16, 101.5 GB per GPU at TP 8.
    big = inference.model("llama3.1-405b")
    assert big.n_params == 405_853_388_800
    assert big.weight_bytes / 8 == pytest.approx(101.46e9, rel=1e-4)


@pytest.mark.parametrize("prefix", sorted(set(inference.MODELS.values())))
def test_every_registry_model_size_recounts_from_its_architecture(prefix):
    # The stored count must equal the count implied by the published configuration
    # (tolerance 1e-9: the recount is exact integer arithmetic). 410.14e9 for 405B failed this by 1.1 %.
    v = lambda field: int(specs.value(f"{prefix}.{field}"))  # noqa: E731
    recount = inference.dense_transformer_params(v("n_layers"), v("d_model"), v("d_ffn"), v("n_heads"),
                                                 v("n_kv_heads"), v("vocab"))
    assert specs.value(f"{prefix}.n_params") == pytest.approx(recount, rel=1e-9)


def test_decode_reads_all_weights_but_the_embedding_lookup_table():
    # The input embedding (vocab x d_model) is looked up one row per token; the output projection,
    # the same size, is read in full. Both count for memory (fits), only the latter for the reads.
    assert LLAMA70.lookup_params == 128256 * 8192
    assert LLAMA70.streamed_params == 70_553_706_496 - 128256 * 8192
    assert LLAMA70.weight_bytes == 2 * 70_553_706_496
    with pytest.raises(ValueError, match="lookup_params"):
        inference.transformer(1e9, 10, 1024, lookup_params=2e9)


def test_parameter_count_by_hand_for_llama3_70b():
    # Per layer: q and o 8192^2 each, k and v 8192 x 1024 each, MLP 3 x 8192 x 28672, norms 2 x 8192
    # = 855,654,400; x 80 = 68,452,352,000; embeddings 2 x 128,256 x 8192 = 2,101,346,304; final norm 8192.
    assert inference.dense_transformer_params(80, 8192, 28672, 64, 8, 128256) == 70_553_706_496
    assert inference.dense_transformer_params(80, 8192, 28672, 64, 8, 128256, tied_embeddings=True) == \
        70_553_706_496 - 128256 * 8192
    with pytest.raises(ValueError, match="n_heads"):
        inference.dense_transformer_params(80, 8190, 28672, 64, 8, 128256)


def test_tp_traffic_per_token_per_layer():
    # d = 8192 BF16 activations = 16,384 B per all-reduce; ring sends 2(t-1)/t of it, twice per layer.
    t = inference.tp_traffic_per_token(8192, 8)
    assert t.message_bytes == 16384
    assert t.sent_per_gpu_bytes == pytest.approx(2 * 2 * 7 / 8 * 16384)
    assert inference.tp_traffic_per_token(8192, 1).sent_per_gpu_bytes == 0


def test_decode_llama70b_tp8_batch1_on_dgx_h100_by_hand():
    # Streamed per layer: (70,553,706,496 - 128,256 x 8192 embedding rows looked up, not read) / 80
    #   = 69,503,033,344 / 80 = 868.788e6 params.
    #   weights: 868.788e6 x 2 bytes / 8 GPUs / 3.35e12 B/s      = 64.835 us  (memory-bound)
    #   comm:    NCCL 2.30.7's tuner for 16,384 bytes over 8 H100s picks ring/LL:
    #            base 6.6 us + 14 steps x 0.6 us = 15.0 us; LL busbw min(141, 370.8 / 2) = 141 GB/s,
    #            algbw 141 x 8/14 = 80.57 GB/s, so + 16,384 / 80.57e9 s = 0.2034 us -> 15.2034 us
    # token latency = 80 x (64.835 + 2 x 15.2034) us = 7.619 ms; power 8 x 10.2 kW / 8 = 10.2 kW.
    layer_params = (70_553_706_496 - 128256 * 8192) / 80
    memory = layer_params * 2 / 8 / 3.35e12
    one = 6.6e-6 + 14 * 0.6e-6 + 16384 / (141e9 * 8 / 14)
    r = inference.decode_step(LLAMA70, DGX_H100, tp=8, batch=1)
    assert r.algorithm == "ring/LL"
    assert r.memory_s == pytest.approx(memory, rel=1e-9)
    assert r.compute_s == pytest.approx(2 * layer_params / 8 / 989.4e12, rel=1e-9)
    assert r.comm_s == pytest.approx(2 * one, rel=1e-6)
    assert r.token_latency_s == pytest.approx(80 * (memory + 2 * one), rel=1e-6)
    assert r.token_latency_s == pytest.approx(7.619e-3, rel=1e-3)
    assert r.power_w == pytest.approx(10.2e3)
    assert r.tokens_per_joule == pytest.approx(1 / r.token_latency_s / 10.2e3, rel=1e-12)
    assert r.fits and not r.crosses_domain


def test_decode_all_reduce_pays_nccl_base_latency_not_a_3_us_tree():
    # The old model priced this all-reduce as a 6-step double binary tree, ~3 us. NCCL's own
    # model: never below its 6.6 us base latency, and ~15 us for 8 GPUs on NVLink, ~21 us on PCIe.
    assert inference.tp_all_reduce_time(16384, 8, DGX_H100) > 6.6e-6
    assert inference.tp_all_reduce_time(16384, 8, DGX_H100) == pytest.approx(15.2e-6, rel=2e-3)
    pcie = scaleup.preset("pcie-h100")
    # ring/LL on PCIe: 6.6 + 14 x 1.0 us = 20.6 us; LL busbw min(141, 63 / 2) = 31.5 GB/s x 8/14.
    assert inference.tp_all_reduce_time(16384, 8, pcie) == pytest.approx(
        20.6e-6 + 16384 / (31.5e9 * 8 / 14), rel=1e-4)


@pytest.mark.parametrize("field, bad", [("power_w", 0.0), ("n_gpus", 0), ("per_gpu_bps", 0.0),
                                        ("scaleout_per_gpu_bps", -1.0)])
def test_decode_step_refuses_a_degenerate_domain(field, bad):
    # A ScaleUpDomain built by hand with no power or no GPUs gave inf tokens per joule (issue 17).
    broken = dataclasses.replace(DGX_H100, **{field: bad})
    with pytest.raises(ValueError, match=f"domain.{field}"):
        inference.decode_step(LLAMA70, broken, 8, 1)
    with pytest.raises(ValueError, match=f"domain.{field}"):
        inference.tp_all_reduce_time(16384, 8, broken)


def test_large_batch_becomes_compute_bound():
    # Compute = memory when batch = F x bytes_per_param / (2 x B_hbm) = 989.4e12 x 2 / (2 x 3.35e12)
    # = 295.3 sequences: below it the weights dominate, above it the FLOPs.
    assert inference.decode_step(LLAMA70, DGX_H100, 8, 295).compute_s < \
        inference.decode_step(LLAMA70, DGX_H100, 8, 295).memory_s
    r = inference.decode_step(LLAMA70, DGX_H100, 8, 296)
    assert r.compute_s > r.memory_s


def test_405b_does_not_fit_one_dgx_h100_and_spills_over():
    # 405.85e9 x 2 bytes = 811.7 GB: / 8 = 101.5 GB > 80 GB; / 16 = 50.7 GB fits, but crosses the domain.
    big = inference.model("llama3.1-405b")
    assert not inference.decode_step(big, DGX_H100, 8, 1).fits
    r = inference.decode_step(big, DGX_H100, 16, 1, algorithm="ring")
    assert r.fits and r.crosses_domain
    # Ring over 2 nodes of 8, 32,768 bytes: LL wins; 30 steps, 2 of them across the network.
    # Base 6.6 us + 28 x max(0.6, 1.0 us net overhead) + 2 x 2.7 us = 40.0 us;
    # LL busbw min(39.0 GB/s 2-node cap, 370.8 / 2) = 39.0 GB/s, algbw x 16/30.
    one = 6.6e-6 + 28 * 1.0e-6 + 2 * 2.7e-6 + 32768 / (39.0e9 * 16 / 30)
    assert r.algorithm == "ring/LL"
    assert r.comm_s == pytest.approx(2 * one, rel=1e-6)


def test_tp_must_fit_the_domain_or_be_a_multiple_of_it():
    with pytest.raises(ValueError, match="tp"):
        inference.decode_step(LLAMA70, DGX_H100, 12, 1)


@given(batch=st.integers(1, 1024))
def test_d9_pcie_to_nvlink_improves_latency_and_tokens_per_joule(batch):
    # Same GPUs, same power (assumption ratio 1.0): only the interconnect differs, and NVLink
    # has both a higher rate (370.8 vs 63 GB/s in NCCL's model) and a lower step latency (0.6 vs 1.0 us).
    pcie = inference.decode_step(LLAMA70, scaleup.preset("pcie-h100"), 8, batch)
    nvl = inference.decode_step(LLAMA70, DGX_H100, 8, batch)
    assert nvl.token_latency_s < pcie.token_latency_s
    assert nvl.tokens_per_joule > pcie.tokens_per_joule


def test_pareto_front_small_case():
    # (1, 1) and (2, 3) and (2.5, 4) are not beaten on both axes; (3, 2) is beaten by (2, 3).
    assert inference.pareto_front([1.0, 2.0, 3.0, 2.5], [1.0, 3.0, 2.0, 4.0]) == [0, 1, 3]
    with pytest.raises(ValueError, match="same length"):
        inference.pareto_front([1.0], [1.0, 2.0])


@given(st.lists(st.tuples(st.floats(0, 1e3), st.floats(-1e3, 1e3)), min_size=1, max_size=30))
def test_pareto_front_definition(points):
    lat = [p[0] for p in points]
    val = [p[1] for p in points]
    front = set(inference.pareto_front(lat, val))

    def beats(j, i):
        return lat[j] <= lat[i] and val[j] >= val[i] and (lat[j] < lat[i] or val[j] > val[i])

    for i in range(len(points)):
        dominated = any(beats(j, i) for j in range(len(points)))
        assert (i in front) == (not dominated)


def test_across_nodes_nccl_runs_a_chain_in_each_node_and_a_tree_between():
    # 4 bytes over 8 DGX H100 nodes, tp = 64: tree/LL = base 6.8 us + 2 x (7 x 0.6 + 3 x 5.0 us)
    # = 45.2 us; the ring/LL pays 6.6 + 112 x 1.0 + 14 x 2.7 = 156.4 us.
    t = inference.tp_all_reduce_time(4, 64, DGX_H100)
    assert t == pytest.approx(45.2e-6, rel=1e-3)
    ring = inference.tp_all_reduce_time(4, 64, DGX_H100, algorithm="ring")
    assert ring == pytest.approx(156.4e-6, rel=1e-3)


def test_inside_an_nvl72_large_groups_use_nvls():
    # NVLS: one flat 25 us inside the NVLink domain, whatever the group size, so TP 64 costs
    # no more latency than TP 16; a ring over 64 GPUs would pay 6.6 + 126 x 0.6 = 82.2 us.
    nvl72 = scaleup.preset("gb200-nvl72")
    assert inference.tp_all_reduce_time(4, 64, nvl72) == pytest.approx(25e-6, rel=1e-3)
    assert inference.tp_all_reduce_time(4, 64, nvl72, algorithm="ring") == pytest.approx(82.2e-6, rel=1e-3)


@given(n=st.floats(0, 1e9), tp=st.sampled_from([1, 2, 3, 5, 8, 16, 24, 64]))
def test_best_is_never_slower_than_ring(n, tp):
    assert inference.tp_all_reduce_time(n, tp, DGX_H100) <= \
        inference.tp_all_reduce_time(n, tp, DGX_H100, algorithm="ring") * (1 + 1e-12)


def test_leaving_the_domain_stops_tp_from_paying_off():
    # Llama 3.1 405B, batch 8: inside the NVL72 the time per token keeps falling up to TP 64;
    # across DGX H100 nodes TP 64 is slower than TP 32 (the tree's network levels grow with m).
    big = inference.model("llama3.1-405b")
    nvl72 = scaleup.preset("gb200-nvl72")
    inside = [inference.decode_step(big, nvl72, tp, 8).token_latency_s for tp in (16, 32, 64)]
    across = [inference.decode_step(big, DGX_H100, tp, 8).token_latency_s for tp in (16, 32, 64)]
    assert inside[0] > inside[1] > inside[2]
    assert across[2] > across[1]


def test_custom_all_reduce_kernels_sit_below_nccls_floor():
    # Review 2026-12-05 M5: serving engines run one-shot custom kernels, measured at 5.7 µs
    # (16 KiB) and 7.8 µs (128 KiB) per call on 8 H100 (sglang PR 2904, whose sizes count float32
    # values). NCCL's tuner, by hand for 16 KiB:
    # ring/LL base 6.6 µs + 14 NVLink steps x 0.6 µs = 15.0 µs, plus 16384 B at the LL ring's
    # algbw (LL busbw min(370.8 / 2, Hopper's LL cap 141) = 141 GB/s, times 8/14): 15.2 µs. The page must not present the
    # 15 µs as what decode pays on any stack.
    from netlab.collectives import nccl_tuner
    nccl = nccl_tuner.predict(16384, 8)
    assert nccl.latency_s == pytest.approx(6.6e-6 + 14 * 0.6e-6, rel=1e-9)
    for size, key in ((16384, "nccl.alternative.custom_all_reduce.h100_tp8_16kib"),
                      (131072, "nccl.alternative.custom_all_reduce.h100_tp8_128kib")):
        assert specs.get(key).grade == "S" and specs.get(key).source == "sglang-pr-2904"
        assert specs.value(key) < nccl_tuner.predict(size, 8).time_s / 1.9
    # 160 all-reduces of 16 KiB per Llama 3 70B token at TP 8: 2.4 ms with NCCL, 0.9 ms with the kernel
    assert 160 * nccl.time_s == pytest.approx(2.43e-3, rel=0.01)
    assert 160 * specs.value("nccl.alternative.custom_all_reduce.h100_tp8_16kib") == pytest.approx(0.912e-3, rel=0.01)
