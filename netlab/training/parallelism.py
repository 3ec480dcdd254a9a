"""Parallelism: the bytes a training step moves, and when the network bounds the step.

Training a dense transformer of N parameters on D tokens costs about ``6 N D``
floating-point operations: each parameter does one multiply-add (2 FLOPs) per token
in the forward pass and twice that in the backward pass. Spreading the work over
GPUs is done three ways, each with its own traffic [shoeybi-megatron]:

* **data parallelism** (DP, degree ``dp``): every replica computes gradients on its
  own share of the batch, then all replicas sum them with an all-reduce. A ring
  all-reduce sends ``2 (dp - 1) / dp`` times the gradient bytes out of every GPU.
* **tensor parallelism** (TP, degree ``tp``): each layer's matrices are split across
  GPUs; Megatron-LM's layout needs two all-reduces of the activations
  (``micro_batch x seq_len x hidden`` values) per layer in the forward pass and two
  in the backward pass.
* **pipeline parallelism** (PP, degree ``pp``): consecutive layers live on different
  GPUs; each micro-batch's activations cross every stage boundary forward, and
  their gradients cross back.

The step time is compute plus whatever communication does not hide behind it.
With a fixed global batch, adding GPUs shrinks compute per GPU while the
all-reduce does not shrink, so efficiency falls: the network bounds the job.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import validate
from netlab.collectives import alpha_beta as collective_cost
from netlab.units import format_bytes, format_time


def training_flops(n_params: float, n_tokens: float) -> float:
    """FLOPs to train ``n_params`` parameters on ``n_tokens`` tokens: ``6 * N * D``.

    >>> training_flops(7e9, 1e12)   # a 7-billion-parameter model on a trillion tokens
    4.2e+22
    """
    n_params = validate.positive("n_params", n_params)
    n_tokens = validate.positive("n_tokens", n_tokens)
    return 6.0 * n_params * n_tokens


@dataclass(frozen=True)
class StepTraffic:
    """Bytes one GPU sends per training step, by kind of parallelism."""

    dp_bytes: float   # gradient all-reduce
    tp_bytes: float   # activation all-reduces inside layers
    pp_bytes: float   # activations and their gradients across stage boundaries

    @property
    def total_bytes(self) -> float:
        return self.dp_bytes + self.tp_bytes + self.pp_bytes

    def __str__(self) -> str:
        return (f"each GPU sends per step: data parallel {format_bytes(self.dp_bytes)}, tensor parallel "
                f"{format_bytes(self.tp_bytes)}, pipeline parallel {format_bytes(self.pp_bytes)}; "
                f"{format_bytes(self.total_bytes)} in all")

    def __repr__(self) -> str:
        return (f"StepTraffic(per GPU: DP {format_bytes(self.dp_bytes)}, TP {format_bytes(self.tp_bytes)}, "
                f"PP {format_bytes(self.pp_bytes)}; total {format_bytes(self.total_bytes)})")


def step_traffic(n_params: float, n_layers: int, hidden: int, seq_len: int, micro_batch: int,
                 n_microbatches: int, dp: int = 1, tp: int = 1, pp: int = 1,
                 grad_bytes_per_param: float = 2.0, activation_bytes: float = 2.0) -> StepTraffic:
    """Bytes sent by one GPU in one training step, per kind of parallelism.

    Parameters
    ----------
    n_params : float
        Model parameters.
    n_layers, hidden, seq_len : int
        Transformer layers, hidden size, tokens per sequence.
    micro_batch, n_microbatches : int
        Sequences per micro-batch, and micro-batches per step on each replica.
    dp, tp, pp : int
        Degrees of data, tensor and pipeline parallelism (each >= 1).
    grad_bytes_per_param, activation_bytes : float
        Bytes per gradient value and per activation value (2 for BF16).

    Examples
    --------
    A 7-billion-parameter model, data parallel over 64 GPUs, BF16 gradients: each GPU sends
    ``2 x 63/64 x 14 GB = 27.6 GB`` per step.

    >>> t = step_traffic(7e9, 32, 4096, 4096, 1, 1, dp=64)
    >>> round(t.dp_bytes / 1e9, 2)
    27.56
    """
    n_params = validate.positive("n_params", n_params)
    n_layers = validate.integer("n_layers", n_layers, minimum=1)
    hidden = validate.integer("hidden", hidden, minimum=1)
    seq_len = validate.integer("seq_len", seq_len, minimum=1)
    micro_batch = validate.integer("micro_batch", micro_batch, minimum=1)
    n_microbatches = validate.integer("n_microbatches", n_microbatches, minimum=1)
    dp = validate.integer("dp", dp, minimum=1)
    tp = validate.integer("tp", tp, minimum=1)
    pp = validate.integer("pp", pp, minimum=1)
    grad_bytes_per_param = validate.positive("grad_bytes_per_param", grad_bytes_per_param)
    activation_bytes = validate.positive("activation_bytes", activation_bytes)
    if pp > n_layers:
        raise ValueError(f"pp must be an integer in [1, n_layers={n_layers}], got {pp}")

    # DP: each GPU holds 1/(tp*pp) of the parameters; ring all-reduce of their gradients.
    grad_bytes = n_params / (tp * pp) * grad_bytes_per_param
    dp_bytes = 2.0 * (dp - 1) / dp * grad_bytes
    # TP: 4 all-reduces (2 forward, 2 backward) per layer of this stage, per micro-batch.
    activation_tensor = micro_batch * seq_len * hidden * activation_bytes
    layers_per_stage = n_layers / pp
    tp_bytes = 4 * layers_per_stage * n_microbatches * 2.0 * (tp - 1) / tp * activation_tensor
    # PP: a stage boundary carries activations forward and gradients back; averaged over the
    # pp stages, (pp - 1) boundaries x 2 directions / pp GPUs. TP ranks each carry 1/tp.
    pp_bytes = 2.0 * (pp - 1) / pp * n_microbatches * activation_tensor / tp
    return StepTraffic(dp_bytes=dp_bytes, tp_bytes=tp_bytes, pp_bytes=pp_bytes)


@dataclass(frozen=True)
class DataParallelStep:
    """One data-parallel training step: compute, gradient all-reduce, and efficiency."""

    n_gpus: int
    compute_s: float
    allreduce_s: float
    exposed_comm_s: float   # the part of the all-reduce not hidden behind compute
    step_s: float
    efficiency: float       # compute_s / step_s: 1.0 is perfect scaling
    allreduce_latency_s: float = 0.0    # the ring's 2 (n - 1) alpha
    allreduce_transfer_s: float = 0.0   # the ring's 2 (n - 1) / n x bytes / bandwidth

    @property
    def bound(self) -> str:
        """``"network-bound"`` when exposed communication exceeds compute."""
        return "network-bound" if self.exposed_comm_s > self.compute_s else "compute-bound"

    def __str__(self) -> str:
        return (f"{self.n_gpus:,} GPUs: compute {format_time(self.compute_s)}, all-reduce "
                f"{format_time(self.allreduce_s)} ({format_time(self.allreduce_transfer_s)} moving bytes + "
                f"{format_time(self.allreduce_latency_s)} of start-ups), efficiency {self.efficiency:.0%}, "
                f"{self.bound}")

    def __repr__(self) -> str:
        return (f"DataParallelStep({self.n_gpus} GPUs: compute {format_time(self.compute_s)}, "
                f"all-reduce {format_time(self.allreduce_s)}, step {format_time(self.step_s)}, "
                f"efficiency {self.efficiency:.0%}, {self.bound})")


def max_data_parallel(tokens_per_step: float, seq_len: int) -> int:
    """The largest data-parallel degree a global batch allows: one whole sequence per GPU.

    Each data-parallel replica needs at least one sequence per step, so a batch of
    ``tokens_per_step`` tokens in sequences of ``seq_len`` caps the degree at
    ``tokens_per_step // seq_len``. Real jobs stop well before (a batch larger than the
    critical batch size buys no faster training) and scale further with tensor and
    pipeline parallelism instead.

    >>> max_data_parallel(4e6, 4096)     # 4 M tokens in 4,096-token sequences
    976
    """
    tokens_per_step = validate.positive("tokens_per_step", tokens_per_step)
    seq_len = validate.integer("seq_len", seq_len, minimum=1)
    return int(tokens_per_step // seq_len)


def data_parallel_step(n_params: float, tokens_per_step: float, n_gpus: int, flops_per_gpu: float,
                       bandwidth_bps: float, alpha_s: float, overlap: float = 0.0,
                       grad_bytes_per_param: float = 2.0) -> DataParallelStep:
    """Step time of pure data parallelism with a fixed global batch.

    ``compute_s = 6 N T / (n_gpus * flops_per_gpu)``; the gradients (``N x
    grad_bytes_per_param`` bytes) are summed with a ring all-reduce costed by
    :func:`netlab.collectives.alpha_beta.ring_all_reduce_time`; a fraction ``overlap`` of it
    hides behind the backward pass (at most as much as there is compute).

    ``flops_per_gpu`` is the *achieved* rate (peak times utilisation), in FLOP/s.
    """
    n_params = validate.positive("n_params", n_params)
    tokens_per_step = validate.positive("tokens_per_step", tokens_per_step)
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1)
    flops_per_gpu = validate.positive("flops_per_gpu", flops_per_gpu)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    alpha_s = validate.non_negative("alpha_s", alpha_s)
    overlap = validate.in_range("overlap", overlap, 0.0, 1.0)
    grad_bytes_per_param = validate.positive("grad_bytes_per_param", grad_bytes_per_param)

    compute_s = training_flops(n_params, tokens_per_step) / (n_gpus * flops_per_gpu)
    if n_gpus == 1:
        allreduce_s = latency_s = transfer_s = 0.0
    else:
        ring = collective_cost.ring_all_reduce_time(n_params * grad_bytes_per_param, n_gpus, alpha_s,
                                                    bandwidth_bps)
        allreduce_s, latency_s, transfer_s = ring.time_s, ring.latency_s, ring.transfer_s
    exposed = max(allreduce_s - min(overlap * allreduce_s, compute_s), 0.0)
    step_s = compute_s + exposed
    return DataParallelStep(n_gpus=n_gpus, compute_s=compute_s, allreduce_s=allreduce_s,
                            exposed_comm_s=exposed, step_s=step_s, efficiency=compute_s / step_s,
                            allreduce_latency_s=latency_s, allreduce_transfer_s=transfer_s)
