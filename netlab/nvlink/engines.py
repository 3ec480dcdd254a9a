"""Inference all-reduce as serving engines run it, and the smallest cluster: two DGX Spark boxes.

Tensor-parallel decode all-reduces a few kilobytes per layer (:mod:`netlab.nvlink.inference`).
NCCL prices such a message at a base latency plus a latency per ring or chain step, about 15 µs on
eight H100s in its own tuner. Serving engines (vLLM, SGLang, TensorRT-LLM) instead ship *custom*
all-reduce kernels for these sizes [sglang-pr-2904]. Buffers are registered once on every GPU
of the NVLink domain, so a kernel can read its peers' memory directly:

* **one-shot**: after one flag barrier, every GPU reads the ``n - 1`` peers' whole buffers and adds
  them. One synchronisation, but each GPU pulls ``(n - 1) S`` bytes:
  ``t_1 = t_sync + 8 (n - 1) S / B``;
* **two-shot**: a reduce-scatter (each GPU reads its ``1/n`` slice from every peer and adds) and an
  all-gather, each behind a barrier: ``t_2 = 2 t_sync + 2 (n - 1)/n x 8 S / B``, the ring's bytes
  with two synchronisations instead of ``2 (n - 1)`` steps.

One-shot wins below ``S* = t_sync B / (8 (n - 1)(1 - 2/n))`` (n > 2); above a few megabytes NCCL's
pipelined ring, whose bandwidth the custom kernels do not beat, takes over again. ``t_sync`` is a
floor of the kernel launch and flag exchange: by default it is calibrated on one measurement (16 KiB
on 8 H100, 5.7 µs, minus its byte term), so the model is anchored there and *predicts* other sizes.

**Two DGX Spark boxes.** A Spark holds 128 GB of unified memory read at 273 GB/s and has a
ConnectX-7 NIC of 200 Gb/s; two of them cabled back to back are a two-node cluster whose only
link is that NIC. Decode at batch ``b`` is bound by reading the weights: split by **tensor**
parallelism each box reads half of every layer and the two exchange two all-reduces of
``b d_model`` activations per layer over the link; split by **pipeline** each box reads its half of
the layers in turn, and a token crosses the link twice (activations forward, the sampled token
back). :func:`two_box_decode` prices both; the link's latency is the measured RDMA write latency
between two Sparks (a floor: no library overhead).
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import specs, validate
from netlab.nvlink.domains import ScaleUpDomain
from netlab.nvlink.inference import ModelShape, _tp_all_reduce, _checked_domain
from netlab.nvlink.kernels import (CALIBRATION, default_sync_s, fit_one_shot, one_shot_s, one_two_shot_crossover_bytes,
                                   two_shot_s)
from netlab.units import format_bytes, format_time

__all__ = ["CALIBRATION", "default_sync_s", "fit_one_shot", "one_shot_s", "two_shot_s",
           "one_two_shot_crossover_bytes", "EngineAllReduce", "engine_all_reduce", "SPLITS", "TwoBoxDecode",
           "two_box_decode"]

@dataclass(frozen=True)
class EngineAllReduce:
    """One TP all-reduce inside a scale-up domain: the custom kernels beside NCCL's pick."""

    n_bytes: float
    tp: int
    one_shot_s: float
    two_shot_s: float
    nccl_s: float
    nccl_label: str

    @property
    def best_label(self) -> str:
        options = {"one-shot": self.one_shot_s, "two-shot": self.two_shot_s, f"NCCL {self.nccl_label}": self.nccl_s}
        return min(options, key=lambda k: options[k])

    @property
    def best_s(self) -> float:
        return min(self.one_shot_s, self.two_shot_s, self.nccl_s)

    def __repr__(self) -> str:
        return (f"{format_bytes(self.n_bytes)} all-reduce at TP {self.tp}: one-shot {format_time(self.one_shot_s)}, "
                f"two-shot {format_time(self.two_shot_s)}, NCCL's tuner ({self.nccl_label}) "
                f"{format_time(self.nccl_s)}; fastest: {self.best_label}.")


def engine_all_reduce(n_bytes: float, tp: int, domain: ScaleUpDomain, sync_s: float | None = None) -> EngineAllReduce:
    """The all-reduce a serving engine would run for ``n_bytes`` at TP ``tp`` inside ``domain``.

    The custom kernels need every GPU in one NVLink domain (peer access), so ``tp`` must be at most
    the domain size; they read at the domain's per-GPU NVLink rate, one way. NCCL's time is its
    tuner's pick (:func:`netlab.nvlink.inference.tp_all_reduce_time`).
    """
    n_bytes = validate.positive("n_bytes", n_bytes, maximum=1e12, why="a terabyte per all-reduce")
    domain = _checked_domain(domain)
    tp = validate.integer("tp", tp, minimum=2, maximum=domain.n_gpus)
    nccl = _tp_all_reduce(n_bytes, tp, domain, "best")
    return EngineAllReduce(n_bytes=n_bytes, tp=tp,
                           one_shot_s=one_shot_s(n_bytes, tp, domain.per_gpu_bps, sync_s),
                           two_shot_s=two_shot_s(n_bytes, tp, domain.per_gpu_bps, sync_s),
                           nccl_s=nccl.time_s, nccl_label=nccl.label)


# --- two DGX Spark boxes ------------------------------------------------------------------------

SPLITS = ("tensor", "pipeline")


@dataclass(frozen=True)
class TwoBoxDecode:
    """Decode of one model split over two DGX Spark boxes: the time per token and what the link adds."""

    model: str
    split: str
    batch: int
    bytes_per_param: float
    fits_one_box: bool
    fits_two_boxes: bool
    weights_s: float           # reading the weights, per token step (both boxes' shares, as they run)
    link_s: float              # time on the link per token step
    messages_per_token: int    # link crossings (all-reduces or hops) per token step
    message_bytes: float

    @property
    def token_s(self) -> float:
        return self.weights_s + self.link_s

    @property
    def link_share(self) -> float:
        return self.link_s / self.token_s

    def __repr__(self) -> str:
        return (f"{self.model} ({self.bytes_per_param:g} B/param) split by {self.split} over two Sparks, batch "
                f"{self.batch}: {format_time(self.token_s)} per token step, of which the link "
                f"{format_time(self.link_s)} ({self.messages_per_token} crossings of {format_bytes(self.message_bytes)}, "
                f"{self.link_share:.1%})" + ("" if self.fits_two_boxes else "; the weights do not fit") + ".")


def two_box_decode(shape: ModelShape, split: str, batch: int = 1, link_bps: float | None = None,
                   link_latency_s: float | None = None) -> TwoBoxDecode:
    """Time per decode step of ``shape`` over two DGX Spark boxes joined by their ConnectX-7 link.

    Weights are read at the Spark's memory bandwidth ``B_m`` (registry ``spark.memory_bandwidth``);
    the streamed weights ``W`` (all but the lookup table) take ``W / (2 B_m)`` with a tensor split
    (each box reads half of every layer, at once) and ``W / B_m`` with a pipeline split (each box reads
    its half of the layers, in turn). The link (``link_bps`` one way, default ``spark.nic_rate``;
    latency ``a``, default the measured ``rdma.measured.ib_write_lat_cx7_b2b``) carries, per token step:

    * tensor: ``2 L`` all-reduces of ``S = b d_model b_a`` bytes between two ranks, each a ring of two
      steps of ``S/2``: ``2 L (2 a + 8 S / B)``;
    * pipeline: two hops, the activations forward and the sampled tokens back: ``2 a + 8 S / B``.
    """
    if not isinstance(shape, ModelShape):
        raise TypeError(f"shape must be a ModelShape, got {type(shape).__name__}")
    validate.choice("split", split, SPLITS)
    batch = validate.integer("batch", batch, minimum=1, maximum=1 << 20)
    link = specs.value("spark.nic_rate") if link_bps is None else validate.positive("link_bps", link_bps)
    alpha = specs.value("rdma.measured.ib_write_lat_cx7_b2b") if link_latency_s is None else \
        validate.non_negative("link_latency_s", link_latency_s)
    mem_bw = specs.value("spark.memory_bandwidth")
    memory = specs.value("spark.memory")
    streamed = shape.streamed_params * shape.bytes_per_param
    message = batch * shape.d_model * shape.bytes_per_activation
    if split == "tensor":
        weights_s = streamed / (2 * mem_bw / 8.0)
        crossings = 2 * shape.n_layers
        link_s = crossings * (2 * alpha + 8.0 * message / link)
    else:
        weights_s = streamed / (mem_bw / 8.0)
        crossings = 2
        link_s = 2 * alpha + 8.0 * message / link
    return TwoBoxDecode(model=shape.name, split=split, batch=batch, bytes_per_param=shape.bytes_per_param,
                        fits_one_box=shape.weight_bytes <= memory, fits_two_boxes=shape.weight_bytes / 2 <= memory,
                        weights_s=weights_s, link_s=link_s, messages_per_token=crossings, message_bytes=message)
