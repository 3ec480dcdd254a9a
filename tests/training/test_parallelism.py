"""netlab.training.parallelism against hand-computed traffic and step times."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.training import figures, parallelism
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    figures.draw_scaling_efficiency: dict(n_params=7e9, bandwidth_bps=400e9, overlap=0.0, flops_per_gpu=4e14,
                                              alpha_s=5e-6, tokens_per_step=4e6, max_log2_gpus=4),
    parallelism.training_flops: dict(n_params=7e9, n_tokens=1e12),
    parallelism.max_data_parallel: dict(tokens_per_step=4e6, seq_len=4096),
    parallelism.step_traffic: dict(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, micro_batch=1,
                                   n_microbatches=16, dp=32, tp=8, pp=4, grad_bytes_per_param=2.0,
                                   activation_bytes=2.0),
    parallelism.data_parallel_step: dict(n_params=7e9, tokens_per_step=4e6, n_gpus=64, flops_per_gpu=4e14,
                                         bandwidth_bps=400e9, alpha_s=5e-6, overlap=0.0,
                                         grad_bytes_per_param=2.0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_six_n_d():
    assert parallelism.training_flops(7e9, 1e12) == pytest.approx(4.2e22)


def test_data_parallel_traffic_7b_64_gpus():
    # 7e9 params x 2 B = 14e9 B of gradients; ring: 2 x 63/64 x 14e9 = 27.5625e9 B
    t = parallelism.step_traffic(7e9, 32, 4096, 4096, 1, 1, dp=64)
    assert t.dp_bytes == pytest.approx(27.5625e9)
    assert t.tp_bytes == 0 and t.pp_bytes == 0


def test_tensor_and_pipeline_traffic_by_hand():
    # Activation tensor: 1 x 4096 x 8192 x 2 B = 67,108,864 B.
    act = 4096 * 8192 * 2
    t = parallelism.step_traffic(70e9, n_layers=80, hidden=8192, seq_len=4096, micro_batch=1,
                                 n_microbatches=16, dp=32, tp=8, pp=4)
    # TP: 4 all-reduces x 20 layers per stage x 16 micro-batches x 2 x 7/8 x act
    assert t.tp_bytes == pytest.approx(4 * 20 * 16 * 2 * 7 / 8 * act)
    # PP: 2 x 3/4 x 16 micro-batches x act / 8 TP ranks
    assert t.pp_bytes == pytest.approx(2 * 3 / 4 * 16 * act / 8)
    # DP: each GPU holds 70e9 / 32 params -> 2 x 31/32 x (70e9 / 32 x 2 B)
    assert t.dp_bytes == pytest.approx(2 * 31 / 32 * 70e9 / 32 * 2)


def test_pp_larger_than_layers_is_refused():
    with pytest.raises(ValueError, match="pp"):
        parallelism.step_traffic(1e9, 4, 1024, 1024, 1, 1, pp=8)


def test_step_time_by_hand():
    # 7 B, 4e6 tokens, 64 GPUs at 4e14 FLOP/s: compute = 6 x 7e9 x 4e6 / (64 x 4e14) = 6.5625 s.
    # Ring all-reduce of 14e9 B: 2 x 63 x 5 us + 2 x 63/64 x 14e9 x 8 / 400e9 = 0.00063 + 0.55125 s.
    s = parallelism.data_parallel_step(7e9, 4e6, 64, 4e14, 400e9, 5e-6)
    assert s.compute_s == pytest.approx(6.5625)
    assert s.allreduce_s == pytest.approx(0.00063 + 0.55125)
    assert s.efficiency == pytest.approx(6.5625 / (6.5625 + 0.55188))
    assert s.bound == "compute-bound"


def test_one_gpu_is_perfectly_efficient_and_overlap_helps():
    assert parallelism.data_parallel_step(7e9, 4e6, 1, 4e14, 400e9, 5e-6).efficiency == 1.0
    none = parallelism.data_parallel_step(7e9, 4e6, 4096, 4e14, 100e9, 5e-6, overlap=0.0)
    most = parallelism.data_parallel_step(7e9, 4e6, 4096, 4e14, 100e9, 5e-6, overlap=0.9)
    assert most.efficiency > none.efficiency
    assert none.bound == "network-bound"


@given(n=st.integers(1, 2 ** 15), overlap=st.floats(0, 1))
def test_efficiency_is_a_fraction_and_falls_with_scale(n, overlap):
    a = parallelism.data_parallel_step(7e9, 4e6, n, 4e14, 400e9, 5e-6, overlap=overlap)
    b = parallelism.data_parallel_step(7e9, 4e6, 2 * n, 4e14, 400e9, 5e-6, overlap=overlap)
    assert 0 < b.efficiency <= a.efficiency <= 1


def test_ring_latency_term_grows_with_the_gpu_count():
    # 7e9 params x 2 bytes = 14 GB at 400 Gb/s, alpha 5 µs, by hand:
    # transfer 2 (n-1)/n x 14e9 x 8 / 400e9, latency 2 (n-1) x 5 µs.
    for n, total in ((8, 0.49007), (4096, 0.60081328125), (16384, 0.7237958203125)):
        s = parallelism.data_parallel_step(7e9, 4e6, n, 4e14, 400e9, 5e-6)
        assert s.allreduce_latency_s == pytest.approx(2 * (n - 1) * 5e-6)
        assert s.allreduce_transfer_s == pytest.approx(2 * (n - 1) / n * 14e9 * 8 / 400e9)
        assert s.allreduce_s == pytest.approx(total)
    # not "about 0.55 s however many GPUs": 724 ms at 16,384 against 552 ms at 64
    assert parallelism.data_parallel_step(7e9, 4e6, 16384, 4e14, 400e9, 5e-6).allreduce_s > \
        1.3 * parallelism.data_parallel_step(7e9, 4e6, 64, 4e14, 400e9, 5e-6).allreduce_s
    text = str(parallelism.data_parallel_step(7e9, 4e6, 4096, 4e14, 400e9, 5e-6))
    assert "41 ms of start-ups" in text and "DataParallelStep(" not in text


def test_scaling_figure_draws():
    fig = figures.draw_scaling_efficiency(7e9, 400e9, 0.5, 4e14, 5e-6, max_log2_gpus=5)
    assert len(fig.axes[0].lines[0].get_xdata()) == 5


def test_max_data_parallel_is_one_sequence_per_gpu():
    """Review N3: 4 M tokens of 4,096-token sequences are 976 sequences, so DP 4,096 cannot run."""
    assert parallelism.max_data_parallel(4e6, 4096) == 976
    assert parallelism.max_data_parallel(4 * 2**20, 4096) == 1024


def test_scaling_figure_shades_the_degrees_the_batch_cannot_feed():
    fig = figures.draw_scaling_efficiency(7e9, 400e9, 0.0, 4e14, 5e-6)
    (ax,) = fig.axes
    shaded = [p for p in ax.patches]
    assert len(shaded) == 1 and ax.get_legend() is not None
    assert "976" in ax.get_legend().get_texts()[0].get_text()
    small = figures.draw_scaling_efficiency(7e9, 400e9, 0.0, 4e14, 5e-6, max_log2_gpus=5)
    assert not small.axes[0].patches
