"""Overlap of communication with computation: closed forms of the bucket queue and of prefetch."""

import math

import pytest

from netlab import specs
from netlab.training import overlap

API = {
    overlap.run_in_order: dict(item_bytes=[1e6, 1e6], ready_s=[0.1, 0.2], comm_s=[0.05, 0.05], compute_s=0.2,
                               kind="items"),
    overlap.ddp_bucket_sizes: dict(grad_bytes=60e6, bucket_bytes=25e6),
    overlap.ddp_backward: dict(grad_bytes=1e9, backward_s=0.3, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9,
                               bucket_bytes=25e6),
    overlap.exposed_comm_s: dict(grad_bytes=1e9, backward_s=0.3, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9,
                                 bucket_bytes=25e6),
    overlap.overlap_fraction: dict(grad_bytes=1e9, backward_s=0.3, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9,
                                   bucket_bytes=25e6),
    overlap.layered_backward: dict(layer_grad_bytes=[10e6] * 4, layer_backward_s=[1e-3] * 4, world_size=8,
                                   alpha_s=5e-6, bandwidth_bps=400e9, bucket_bytes=25e6),
    overlap.fsdp_forward: dict(layer_compute_s=[2e-3] * 4, layer_param_bytes=[8e6] * 4, world_size=8, alpha_s=5e-6,
                               bandwidth_bps=400e9, prefetch=True),
    overlap.chunked_exposed_s: dict(compute_s=4.0, comm_s=2.0, n_chunks=4),
}


def test_ddp_default_bucket_is_25_mib():
    # PyTorch multiplies bucket_cap_mb = 25 by 1024 * 1024.
    assert specs.value("pytorch.ddp.bucket_cap") == 25 * 1024 * 1024
    assert overlap.ddp_bucket_sizes(60 * 2**20) == [25 * 2**20, 25 * 2**20, 10 * 2**20]


def test_comm_shorter_than_fill_exposes_only_the_last_bucket():
    # 100 MB in 25 MB buckets over 0.1 s: one bucket every 25 ms. Two ranks, no latency, 4 GB/s:
    # a ring all-reduce of 25 MB takes 2(1)/2 x 25e6 x 8 / 32e9 = 6.25 ms < 25 ms.
    s = overlap.ddp_backward(100e6, 0.1, 2, 0.0, 32e9, bucket_bytes=25e6)
    assert s.n_items == 4
    assert s.exposed_s == pytest.approx(6.25e-3, rel=1e-12)
    assert s.comm_s == pytest.approx(25e-3, rel=1e-12)
    assert s.overlap_fraction == pytest.approx(0.75, rel=1e-12)
    assert s.step_s == pytest.approx(0.1 + 6.25e-3, rel=1e-12)


def test_comm_longer_than_fill_builds_a_queue():
    # Same buckets at 0.5 GB/s: c = 25e6 x 8 / 4e9 = 50 ms > t_f = 25 ms.
    # exposed = n c - (n - 1) t_f = 4 x 50 - 3 x 25 = 125 ms.
    s = overlap.ddp_backward(100e6, 0.1, 2, 0.0, 4e9, bucket_bytes=25e6)
    assert s.exposed_s == pytest.approx(0.125, rel=1e-12)
    assert s.start_s[1] == pytest.approx(0.075, rel=1e-12)   # waits for bucket 0, ready at 50 ms


def test_partial_last_bucket_and_latency_term():
    # 60 MB in 25 MB buckets over 0.3 s; 4 ranks, 10 us per step, 100 Gb/s. The last bucket
    # (10 MB) is ready at the end; its ring: 6 x 10 us + 2 x 3/4 x 8e7 / 1e11 = 60 us + 1.2 ms.
    s = overlap.ddp_backward(60e6, 0.3, 4, 10e-6, 100e9, bucket_bytes=25e6)
    assert s.item_bytes == (25e6, 25e6, 10e6)
    assert s.exposed_s == pytest.approx(60e-6 + 1.2e-3, rel=1e-12)


def test_capstone_api_agrees_with_the_schedule():
    args = (14e9, 0.5, 16, 14e-6, 47e9 * 8)
    s = overlap.ddp_backward(*args)
    assert overlap.exposed_comm_s(*args) == s.exposed_s
    assert overlap.overlap_fraction(*args) == pytest.approx(1 - s.exposed_s / s.comm_s)


@pytest.mark.parametrize("backward_s", [0.01, 0.3, 3.0])
@pytest.mark.parametrize("bucket_bytes", [1e6, 25e6, 400e6])
def test_exposed_is_between_the_last_bucket_and_all_of_it(backward_s, bucket_bytes):
    s = overlap.ddp_backward(1e9, backward_s, 8, 5e-6, 400e9, bucket_bytes=bucket_bytes)
    last = s.end_s[-1] - s.start_s[-1]
    assert last - 1e-15 <= s.exposed_s <= s.comm_s + 1e-15
    assert 0.0 <= s.overlap_fraction <= 1.0


def test_layered_backward_closes_a_bucket_when_full():
    # DDP's rule: gradients join the open bucket; it closes once it holds >= the cap.
    s = overlap.layered_backward([10e6] * 4, [1e-3] * 4, 2, 0.0, 8e12, bucket_bytes=25e6)
    assert s.item_bytes == (30e6, 10e6)
    assert s.ready_s == pytest.approx((3e-3, 4e-3))


def test_fsdp_prefetch_hides_all_but_the_first_gather():
    # 4 layers of 2 ms compute; each all-gather of 8e6 B over 2 ranks at 8 GB/s (64e9 bit/s),
    # no latency: 1/2 x 8e6 x 8 / 64e9 = 0.5 ms < 2 ms.
    comp, params = [2e-3] * 4, [8e6] * 4
    with_prefetch = overlap.fsdp_forward(comp, params, 2, 0.0, 64e9)
    without = overlap.fsdp_forward(comp, params, 2, 0.0, 64e9, prefetch=False)
    assert with_prefetch.exposed_s == pytest.approx(0.5e-3, rel=1e-12)
    assert without.exposed_s == pytest.approx(4 * 0.5e-3, rel=1e-12)


def test_chunked_overlap_closed_form():
    assert overlap.chunked_exposed_s(4.0, 2.0, 1) == 2.0                 # nothing hidden
    assert overlap.chunked_exposed_s(4.0, 2.0, 4) == pytest.approx(0.5)  # 4 + 2/4 - 4
    assert overlap.chunked_exposed_s(1.0, 3.0, 10**5) == pytest.approx(2.0, rel=1e-4)   # comm-bound


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="backward_s"):
        overlap.ddp_backward(1e9, 0.0, 8, 0.0, 1e9)
    with pytest.raises(ValueError, match="bucket_bytes"):
        overlap.ddp_backward(1e9, 1.0, 8, 0.0, 1e9, bucket_bytes=1.0)
    with pytest.raises(TypeError, match="grad_bytes"):
        overlap.exposed_comm_s("1e9", 1.0, 8, 0.0, 1e9)
    with pytest.raises(ValueError, match="same length"):
        overlap.run_in_order([1.0], [0.0, 1.0], [1.0], 1.0)
    assert math.isclose(overlap.run_in_order([], [], [], 1.0).exposed_s, 0.0)
