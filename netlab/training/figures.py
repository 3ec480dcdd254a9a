"""Figures for chapter 1 (lab 1): how data-parallel scaling efficiency falls with the GPU count.

``draw_scaling_efficiency`` plots :func:`netlab.training.parallelism.data_parallel_step`'s
efficiency for one model size, network rate and overlap, from 2 GPUs to tens of thousands.
"""

from __future__ import annotations

from netlab import plots, validate
from netlab.training.parallelism import data_parallel_step, max_data_parallel


def draw_scaling_efficiency(n_params: float, bandwidth_bps: float, overlap: float, flops_per_gpu: float,
                            alpha_s: float, tokens_per_step: float = 4e6, max_log2_gpus: int = 14,
                            seq_len: int = 4096, grad_bytes_per_param: float = 2.0):
    """Lab 1's figure: data-parallel scaling efficiency against the GPU count (2 to
    ``2**max_log2_gpus``) for one model size, network rate and overlap.

    GPU counts beyond :func:`~netlab.training.parallelism.max_data_parallel` (under one
    sequence of ``seq_len`` tokens per GPU) are shaded: pure data parallelism cannot run there.
    ``grad_bytes_per_param`` scales the bytes each GPU moves (3 for ZeRO-3's 1.5x)."""

    max_log2_gpus = validate.integer("max_log2_gpus", max_log2_gpus, minimum=1, maximum=20)
    counts = [2 ** k for k in range(1, max_log2_gpus + 1)]
    eff = [data_parallel_step(n_params, tokens_per_step, n, flops_per_gpu, bandwidth_bps, alpha_s,
                              overlap=overlap, grad_bytes_per_param=grad_bytes_per_param).efficiency
           for n in counts]
    cap = max_data_parallel(tokens_per_step, seq_len)
    fig, ax = plots.figure()
    if cap < counts[-1]:
        ax.axvspan(max(cap, counts[0]), counts[-1] * 1.5, color="0.5", alpha=0.3, zorder=0,
                   label=f"under one {seq_len:,}-token sequence per GPU (> {cap:,} GPUs)")
        ax.legend(loc="upper right")
    ax.semilogx(counts, eff, "o-", base=2, color=plots.color("infiniband"))
    ax.set_ylim(0, 1.05)
    ax.set_xlabel(f"GPUs (data parallel, {tokens_per_step / 1e6:g} M tokens per step)")
    ax.set_ylabel("scaling efficiency")
    ax.set_title(f"{n_params / 1e9:g} billion parameters, {bandwidth_bps / 1e9:g} Gb/s per GPU, "
                 f"{overlap:.0%} overlap")
    return fig
