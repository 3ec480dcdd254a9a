"""netlab.training.memory against hand-computed values and the cited accountings."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.training import memory
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    memory.max_params: dict(gpu_memory_bytes=80e9, bytes_per_param=2.0, usable_fraction=1.0),
    memory.fit: dict(n_params=70e9, recipe_name="train-adam-zero", gpu_memory_bytes=80e9, usable_fraction=1.0),
    memory.zero_state_per_gpu: dict(n_params=7e9, n_gpus=8, stage=1),
    memory.least_zero_stage: dict(n_params=7e9, n_gpus=64, gpu_memory_bytes=80e9, usable_fraction=0.8),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_recipes_match_the_papers():
    assert memory.recipe("train-adam-zero").bytes_per_param == 16   # ZeRO: 2 + 2 + 12
    assert memory.recipe("train-adam-hf").bytes_per_param == 18     # HF: 6 + 4 + 8
    assert memory.recipe("inference-bf16").bytes_per_param == 2


def test_a100_holds_40b_params_of_bf16_weights_not_50b():
    # Fact sheet G: 80 GB / 2 B = 40 B parameters (weights only); the seed's "~50 B" does not hold.
    a100 = specs.value("gpu.a100_80gb.memory")
    assert memory.max_params(a100, 2) == pytest.approx(40e9)
    assert memory.max_params(a100, 16) == pytest.approx(5e9)


def test_fit_70b_training():
    f = memory.fit(70e9, "train-adam-zero", 80e9)
    assert f.model_bytes == pytest.approx(1.12e12)
    assert f.min_gpus == 14


def test_fit_exact_multiple_needs_no_extra_gpu():
    assert memory.fit(40e9, "inference-bf16", 80e9).min_gpus == 1
    assert memory.fit(40.000001e9, "inference-bf16", 80e9).min_gpus == 2


def test_unknown_recipe_is_refused():
    with pytest.raises(ValueError, match="recipe"):
        memory.fit(1e9, "adam", 80e9)


def test_text_never_uses_b_for_both_bytes_and_billions():
    import re
    texts = [repr(memory.recipe(n)) for n in memory.RECIPES]
    fit = memory.fit(70e9, "train-adam-zero", 80e9)
    texts += [repr(fit), str(fit)]
    for t in texts:
        assert not re.search(r"\d B\b|B/param|B params", t), t
    assert "70 billion parameters x 16 bytes each" in str(fit) and "at least 14 GPUs" in str(fit)
    assert "16 bytes/param" in repr(memory.recipe("train-adam-zero"))


def test_zero_stages_follow_the_papers_per_gpu_memory():
    """ZeRO (Rajbhandari et al., figure 1): Psi = 7.5 billion, K = 12, N_d = 64 gives 120 GB, 31.4 GB,
    16.6 GB and 1.9 GB per GPU for the baseline and the three stages."""
    got = [memory.zero_state_per_gpu(7.5e9, 64, stage) / 1e9 for stage in range(4)]
    assert got == pytest.approx([120, 31.4, 16.6, 1.9], abs=0.06)
    with pytest.raises(ValueError, match="stage"):
        memory.zero_state_per_gpu(7e9, 8, 4)


def test_lab1_example_needs_sharding_and_70b_needs_zero3():
    """Review N3: a plain 7-billion-parameter replica is 112 GB, over an 80 GB GPU."""
    h100 = specs.value("gpu.h100.memory")
    assert memory.zero_state_per_gpu(7e9, 8, 0) == pytest.approx(112e9)
    assert memory.least_zero_stage(7e9, 8, h100) == 1            # 28 GB + 84 GB / 8 = 38.5 GB
    assert memory.least_zero_stage(70e9, 1024, h100) == 3         # 140 GB of weights alone
    assert memory.least_zero_stage(70e9, 8, h100) is None         # 1.12 TB / 8 = 140 GB
