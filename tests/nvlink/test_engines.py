"""Custom one-shot/two-shot all-reduce against published measurements, and two DGX Spark boxes."""

import pytest

from netlab import specs
from netlab.nvlink import domains, engines, inference

API = {
    engines.default_sync_s: dict(),
    engines.fit_one_shot: dict(n_gpus=8, sizes_bytes=(16384, 131072), times_s=(5.7e-6, 7.8e-6)),
    engines.one_shot_s: dict(n_bytes=16384, n_gpus=8, bandwidth_bps=3.6e12, sync_s=5e-6),
    engines.two_shot_s: dict(n_bytes=16384, n_gpus=8, bandwidth_bps=3.6e12, sync_s=5e-6),
    engines.one_two_shot_crossover_bytes: dict(n_gpus=8, bandwidth_bps=3.6e12, sync_s=5e-6),
    engines.engine_all_reduce: dict(n_bytes=16384, tp=8, domain=domains.preset("dgx-h100"), sync_s=5e-6),
    engines.two_box_decode: dict(shape=inference.model("llama3-70b", bytes_per_param=1.0), split="tensor", batch=1,
                                 link_bps=200e9, link_latency_s=1.5e-6),
}

# SGLang PR 2904's table gives sizes as counts of float32 values (its test allocates
# torch.randint(..., (sz,), dtype=torch.float32)): 4,096 / 32,768 / 262,144 / 2,097,152 values.
FLOAT32 = 4
H100_16KIB = "nccl.alternative.custom_all_reduce.h100_tp8_16kib"
H100_128KIB = "nccl.alternative.custom_all_reduce.h100_tp8_128kib"
H100_1MIB = "serving.sglang_custom_all_reduce.h100_tp8_1mib"
H100_2MIB = "serving.sglang_custom_all_reduce.h100_tp8_2mib"
H100_4MIB = "serving.sglang_custom_all_reduce.h100_tp8_4mib"


def test_one_and_two_shot_closed_forms_and_their_crossover():
    B, sync = 450e9 * 8, 5e-6
    assert engines.one_shot_s(32768, 8, B, sync) == pytest.approx(5e-6 + 7 * 32768 / 450e9)
    assert engines.two_shot_s(32768, 8, B, sync) == pytest.approx(10e-6 + 2 * 7 / 8 * 32768 / 450e9)
    cross = engines.one_two_shot_crossover_bytes(8, B, sync)
    assert engines.one_shot_s(cross, 8, B, sync) == pytest.approx(engines.two_shot_s(cross, 8, B, sync))
    assert engines.one_two_shot_crossover_bytes(2, B, sync) == float("inf")


def test_line_rate_model_is_a_floor_under_the_measurements():
    # The default model: calibrated at 16 KiB, NVLink at line rate. Above it the model must stay
    # below what SGLang measured (the kernel does not read peers at line rate).
    from netlab.nvlink import kernels
    assert kernels.CALIBRATION[0] == 4096 * FLOAT32
    dom = domains.preset("dgx-h100")
    for size, key in ((32768 * FLOAT32, H100_128KIB), (262144 * FLOAT32, H100_1MIB)):
        r = engines.engine_all_reduce(size, 8, dom)
        assert r.best_s < specs.value(key) < 2 * r.best_s


def test_two_point_fit_predicts_a_third_measurement():
    # Fitted on 16 KiB and 128 KiB, the model predicts 1 MiB (two-shot wins there) within 10 %
    # of SGLang's 16.7 us, a point it never saw.
    sizes = (4096 * FLOAT32, 32768 * FLOAT32)
    sync, rate = engines.fit_one_shot(8, sizes, (specs.value(H100_16KIB), specs.value(H100_128KIB)))
    assert rate / 8e9 == pytest.approx(7 * 114688 / 2.1e-6 / 1e9, rel=1e-9)   # about 382 GB/s, 85 % of 450
    big = 262144 * FLOAT32
    predicted = min(engines.one_shot_s(big, 8, rate, sync), engines.two_shot_s(big, 8, rate, sync))
    assert predicted == pytest.approx(specs.value(H100_1MIB), rel=0.10)


def test_the_fit_undershoots_the_2_and_4_mib_points_by_the_pages_margins():
    # SGLang's table ends at 1,048,576 float32 values (4 MiB). By hand, with the fit's
    # t_sync = 5.4 us and 7 x 114,688 B / 2.1 us = 382.3 GB/s, two-shot is
    # 2 x 5.4 + 2 x 7/8 x S / 382.3 GB/s: 20.4 us at 2 MiB (22.1 measured) and 30.0 us at 4 MiB
    # (33.8 measured): the model is 8 % and 11 % under, as chapter 7 says.
    sizes = (4096 * FLOAT32, 32768 * FLOAT32)
    sync, rate = engines.fit_one_shot(8, sizes, (specs.value(H100_16KIB), specs.value(H100_128KIB)))
    bps = 7 * 114688 / 2.1e-6
    for n_floats, key, by_hand in ((524288, H100_2MIB, 2 * 5.4e-6 + 1.75 * 2097152 / bps),
                                   (1048576, H100_4MIB, 2 * 5.4e-6 + 1.75 * 4194304 / bps)):
        model = min(engines.one_shot_s(n_floats * FLOAT32, 8, rate, sync),
                    engines.two_shot_s(n_floats * FLOAT32, 8, rate, sync))
        assert model == pytest.approx(by_hand, rel=1e-6)
        assert 0.85 < model / specs.value(key) < 0.95


def test_custom_kernel_beats_nccl_for_decode_messages():
    r = engines.engine_all_reduce(16384, 8, domains.preset("dgx-h100"))
    assert r.best_label == "one-shot"
    assert r.nccl_s > 2 * r.one_shot_s


def test_two_sparks_tensor_split_by_hand():
    # 1e9 parameters of 1 byte in 10 layers, d_model 1000, BF16 activations; link 200 Gb/s, 2 us.
    shape = inference.transformer(1e9, 10, 1000, bytes_per_param=1.0)
    t = engines.two_box_decode(shape, "tensor", batch=1, link_bps=200e9, link_latency_s=2e-6)
    assert t.weights_s == pytest.approx(1e9 / (2 * 273e9))
    assert t.link_s == pytest.approx(20 * (2 * 2e-6 + 8 * 2000 / 200e9))
    p = engines.two_box_decode(shape, "pipeline", batch=1, link_bps=200e9, link_latency_s=2e-6)
    assert p.weights_s == pytest.approx(1e9 / 273e9)
    assert p.link_s == pytest.approx(2 * 2e-6 + 8 * 2000 / 200e9)


def test_405b_in_fp4_needs_both_boxes():
    shape = inference.model("llama3.1-405b", bytes_per_param=0.5)
    t = engines.two_box_decode(shape, "tensor")
    assert not t.fits_one_box and t.fits_two_boxes          # 203 GB vs 128 GB per box
    assert t.messages_per_token == 2 * 126
    assert t.link_share < 0.01


def test_bad_input():
    with pytest.raises(ValueError, match="split"):
        engines.two_box_decode(inference.model("llama3-70b"), "expert")
    with pytest.raises(ValueError, match="tp"):
        engines.engine_all_reduce(4096, 16, domains.preset("dgx-h100"))
    with pytest.raises(ValueError, match="sizes_bytes"):
        engines.fit_one_shot(8, (2.0, 1.0), (1e-6, 2e-6))


def test_decode_with_the_engines_kernel():
    # Llama 3 70B at TP 8, batch 1 on a DGX H100: each of a layer's two 16 KiB all-reduces becomes a
    # one-shot kernel, t_sync + 7 x 16,384 B / 450 GB/s, where NCCL's tuner charges 15.2 us (ring/LL).
    shape, dom = inference.model("llama3-70b"), domains.preset("dgx-h100")
    custom = inference.decode_step(shape, dom, 8, 1, algorithm="custom")
    nccl = inference.decode_step(shape, dom, 8, 1)
    one_shot = engines.default_sync_s() + 7 * 16384 / 450e9
    assert custom.algorithm == "custom one-shot"
    assert custom.comm_s == pytest.approx(2 * one_shot, rel=1e-12)
    assert nccl.comm_s == pytest.approx(2 * 15.2e-6, rel=0.01)
    # Across nodes the kernels cannot run (no peer access): NCCL's pick stays.
    big = inference.model("llama3.1-405b")
    assert inference.decode_step(big, dom, 16, 8, algorithm="custom").algorithm == \
        inference.decode_step(big, dom, 16, 8).algorithm
