"""Memory: how many bytes a model needs per parameter, and what fits on one GPU.

Inference needs the weights: 2 bytes per parameter in BF16/FP16, 1 in FP8, 0.5
in 4-bit formats (plus a KV cache and activations, left out here). Training with
mixed-precision Adam needs far more. The ZeRO paper counts ``(2 + 2 + K)`` bytes
per parameter: 16-bit weights (2) and gradients (2), and K = 12 bytes of optimizer
state (an FP32 master copy and Adam's two FP32 moments) — 16 bytes in all
[rajbhandari-zero]. Hugging Face's accounting keeps FP32 gradients too and gets
18 bytes [hf-memory-anatomy]. Activations come on top of either.

So an 80 GB GPU holds the weights of a 40-billion-parameter model for inference,
but trains only about 5 billion parameters on its own: the rest must be spread
over many GPUs, and spreading is what puts the network on the critical path.

Sizes are decimal (80 GB = 80e9 bytes), as GPU memory is quoted.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import validate
from netlab.units import format_bytes

# Bytes of each number format (definitions, not measurements).
DTYPE_BYTES = {"fp32": 4.0, "bf16": 2.0, "fp16": 2.0, "fp8": 1.0, "int8": 1.0, "fp4": 0.5, "int4": 0.5}


@dataclass(frozen=True)
class Recipe:
    """Bytes per parameter, by what they hold, for one way of running a model."""

    name: str
    weights: float
    gradients: float
    optimizer: float
    source: str   # bibliography key

    @property
    def bytes_per_param(self) -> float:
        return self.weights + self.gradients + self.optimizer

    def __repr__(self) -> str:
        return (f"Recipe({self.name}: {self.bytes_per_param:g} bytes/param = {self.weights:g} weights + "
                f"{self.gradients:g} gradients + {self.optimizer:g} optimizer [{self.source}])")


def _inference(dtype: str) -> Recipe:
    return Recipe(f"inference, {dtype} weights", DTYPE_BYTES[dtype], 0.0, 0.0, "hf-memory-anatomy")


#: The named recipes of :func:`recipe`, name -> :class:`Recipe`.
RECIPES = {
    "inference-fp32": _inference("fp32"),
    "inference-bf16": _inference("bf16"),
    "inference-fp8": _inference("fp8"),
    "inference-int4": _inference("int4"),
    # ZeRO: fp16 weights + fp16 gradients + (fp32 master, fp32 momentum, fp32 variance).
    "train-adam-zero": Recipe("mixed-precision Adam (ZeRO accounting)",
                              DTYPE_BYTES["bf16"], DTYPE_BYTES["bf16"], 3 * DTYPE_BYTES["fp32"],
                              "rajbhandari-zero"),
    # Hugging Face: fp32 + fp16 weights (6), fp32 gradients (4), two fp32 Adam moments (8).
    "train-adam-hf": Recipe("mixed-precision AdamW (Hugging Face accounting)",
                            DTYPE_BYTES["fp32"] + DTYPE_BYTES["fp16"], DTYPE_BYTES["fp32"],
                            2 * DTYPE_BYTES["fp32"], "hf-memory-anatomy"),
}


def recipe(name: str) -> Recipe:
    """A named recipe from :data:`RECIPES`."""
    validate.choice("name", name, RECIPES)
    return RECIPES[name]


@dataclass(frozen=True)
class Fit:
    """How a model of ``n_params`` parameters fits into GPUs of ``gpu_memory_bytes``."""

    n_params: float
    recipe: Recipe
    gpu_memory_bytes: float
    usable_fraction: float
    model_bytes: float          # n_params * bytes per parameter
    max_params_per_gpu: float   # usable memory / bytes per parameter
    min_gpus: int               # GPUs needed just to hold the model state

    def __repr__(self) -> str:
        return (f"Fit({self.n_params / 1e9:g} billion params x {self.recipe.bytes_per_param:g} bytes/param = "
                f"{format_bytes(self.model_bytes)}; one {format_bytes(self.gpu_memory_bytes)} GPU holds "
                f"{self.max_params_per_gpu / 1e9:.3g} billion params; needs >= {self.min_gpus} GPUs)")

    def __str__(self) -> str:
        return (f"{self.n_params / 1e9:g} billion parameters x {self.recipe.bytes_per_param:g} bytes each = "
                f"{format_bytes(self.model_bytes)}; one {format_bytes(self.gpu_memory_bytes)} GPU holds "
                f"{self.max_params_per_gpu / 1e9:.3g} billion of them, so at least {self.min_gpus} GPUs")


def max_params(gpu_memory_bytes: float, bytes_per_param: float, usable_fraction: float = 1.0) -> float:
    """Parameters that fit in ``gpu_memory_bytes`` at ``bytes_per_param`` (no activations).

    >>> max_params(80e9, 2) / 1e9      # an 80 GB GPU, BF16 weights only
    40.0
    """
    gpu_memory_bytes = validate.positive("gpu_memory_bytes", gpu_memory_bytes)
    bytes_per_param = validate.positive("bytes_per_param", bytes_per_param)
    usable_fraction = validate.in_range("usable_fraction", usable_fraction, 0.0, 1.0, low_open=True)
    return gpu_memory_bytes * usable_fraction / bytes_per_param


def fit(n_params: float, recipe_name: str, gpu_memory_bytes: float, usable_fraction: float = 1.0) -> Fit:
    """How many GPUs of ``gpu_memory_bytes`` a model needs to hold its state.

    ``usable_fraction`` leaves room for activations, KV cache and fragmentation
    (1.0 counts every byte for the model state, a lower bound on GPUs).

    >>> fit(70e9, "train-adam-zero", 80e9).min_gpus   # 70 billion params x 16 bytes = 1.12 TB
    14
    """
    n_params = validate.positive("n_params", n_params)
    r = recipe(validate.choice("recipe_name", recipe_name, RECIPES))
    per_gpu = max_params(gpu_memory_bytes, r.bytes_per_param, usable_fraction)
    model_bytes = n_params * r.bytes_per_param
    return Fit(n_params=n_params, recipe=r, gpu_memory_bytes=gpu_memory_bytes,
               usable_fraction=usable_fraction, model_bytes=model_bytes,
               max_params_per_gpu=per_gpu, min_gpus=math.ceil(n_params / per_gpu - 1e-12))


# ZeRO's partitioning stages: what each shards over the data-parallel GPUs [rajbhandari-zero].
ZERO_STAGES = {0: "no sharding (plain data parallelism)", 1: "optimizer states sharded (ZeRO-1)",
               2: "optimizer states and gradients sharded (ZeRO-2)",
               3: "optimizer states, gradients and weights sharded (ZeRO-3 / FSDP)"}
# Bytes each GPU moves per step, in units of the plain all-reduce's: ZeRO-1/2 replace the
# all-reduce by a reduce-scatter plus an all-gather (the same 2 x gradient bytes); ZeRO-3
# gathers the weights again for the forward and the backward pass, 1.5 times as much.
ZERO_COMM_FACTOR = {0: 1.0, 1: 1.0, 2: 1.0, 3: 1.5}


def zero_state_per_gpu(n_params: float, n_gpus: int, stage: int, recipe_name: str = "train-adam-zero") -> float:
    """Bytes of training state on each of ``n_gpus`` data-parallel GPUs under ZeRO ``stage``.

    With weights ``w``, gradients ``g`` and optimizer state ``k`` bytes per parameter (the
    recipe; 2, 2 and 12 for mixed-precision Adam), the ZeRO paper's per-GPU memory is
    ``(w + g + k) N`` at stage 0, ``(w + g) N + k N / n`` at stage 1, ``w N + (g + k) N / n``
    at stage 2 and ``(w + g + k) N / n`` at stage 3 [rajbhandari-zero]. Activations come on top.

    >>> zero_state_per_gpu(7e9, 8, 0) / 1e9     # a full 7-billion-parameter replica: 16 bytes each
    112.0
    >>> zero_state_per_gpu(7e9, 8, 1) / 1e9     # 28 GB of weights and gradients + 84 GB / 8
    38.5
    """
    n_params = validate.positive("n_params", n_params)
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1)
    stage = validate.integer("stage", stage, minimum=0, maximum=3)
    r = recipe(validate.choice("recipe_name", recipe_name, RECIPES))
    w, g, k = r.weights, r.gradients, r.optimizer
    per_param = {0: w + g + k, 1: w + g + k / n_gpus, 2: w + (g + k) / n_gpus, 3: (w + g + k) / n_gpus}[stage]
    return n_params * per_param


def least_zero_stage(n_params: float, n_gpus: int, gpu_memory_bytes: float, usable_fraction: float = 0.8,
                     recipe_name: str = "train-adam-zero") -> int | None:
    """The lowest ZeRO stage whose training state fits in ``usable_fraction`` of each GPU's
    memory (the rest left for activations), or ``None`` if even stage 3 does not fit.

    >>> least_zero_stage(7e9, 64, 80e9)     # 112 GB will not fit in 64 GB; ZeRO-1 leaves 29.3 GB
    1
    """
    gpu_memory_bytes = validate.positive("gpu_memory_bytes", gpu_memory_bytes)
    usable_fraction = validate.in_range("usable_fraction", usable_fraction, 0.0, 1.0, low_open=True)
    for stage in ZERO_STAGES:
        if zero_state_per_gpu(n_params, n_gpus, stage, recipe_name) <= usable_fraction * gpu_memory_bytes:
            return stage
    return None
