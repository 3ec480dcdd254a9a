"""Overlap of communication with computation: the part of a collective a training step waits for.

Pricing every collective on its own and adding it to the step time (chapter 1's first model) is
what a framework avoids. Three devices hide communication behind computation:

* **Bucketed data-parallel all-reduce** (PyTorch DDP {pytorch-ddp-source}). The backward pass
  produces gradients from the last layer to the first. DDP packs them, in that order, into
  buckets of ``bucket_bytes`` (default 25 MiB, registry ``pytorch.ddp.bucket_cap``) and starts
  the all-reduce of a bucket as soon as its last gradient is computed, on a communication stream
  that runs while the backward pass goes on. The all-reduces run one after another, in order.
  Only what is still running when the backward pass ends is *exposed*.
* **ZeRO-3 / FSDP all-gather prefetch** {rajbhandari-zero}. Each layer's parameters are sharded;
  before a layer computes, its parameters are all-gathered. With prefetch the all-gather of layer
  ``i + 1`` runs while layer ``i`` computes; only the first all-gather, and any all-gather longer
  than the compute it hides behind, are exposed.
* **Chunked tensor-parallel overlap.** A matrix multiply and the collective on its output
  (sequence-parallel all-gather or reduce-scatter) are split into ``k`` chunks so that chunk
  ``j``'s communication runs while chunk ``j + 1`` computes: a two-stage pipeline,
  ``T = max(t_c, t_m) + min(t_c, t_m) / k``.

The bucket model (:func:`ddp_backward`) is a queue: bucket ``j`` becomes ready at ``r_j`` (the end
of the compute that produced its last gradient), takes ``c_j`` to all-reduce (alpha-beta, a ring
from :mod:`netlab.collectives.alpha_beta`), and starts at ``s_j = max(r_j, e_{j-1})``, ending at
``e_j = s_j + c_j``. With backward compute time ``T_b``:

    exposed = max(0, e_last - T_b),   overlap fraction = 1 - exposed / sum(c_j).

With gradients produced at a steady rate into ``n`` equal buckets (fill time ``t_f = T_b / n``,
all-reduce time ``c`` each) the queue has a closed form: ``exposed = max(c, n c - (n - 1) t_f)``.
When every all-reduce is shorter than the compute that fills the next bucket, only the last
bucket's all-reduce is exposed; when it is longer, the queue grows and the communication sets
the step. Smaller buckets shorten that last all-reduce but pay the per-step latency ``2(n-1)
alpha`` more often, so there is a best bucket size.

The public functions the capstone calls are :func:`exposed_comm_s` and :func:`overlap_fraction`
(the share of the data-parallel all-reduce hidden behind the backward pass).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.collectives import alpha_beta
from netlab.units import format_bytes, format_time

#: Most buckets one schedule may hold (a schedule lists every bucket).
MAX_BUCKETS = 100_000


@dataclass(frozen=True)
class OverlapSchedule:
    """Communication items (buckets or layers) run in order on one stream beside the compute.

    ``ready_s[j]`` is when item ``j`` may start, ``start_s``/``end_s`` when it ran; ``compute_s``
    is the compute the items hide behind; ``exposed_s`` the communication still running after it.
    """

    kind: str                        # "ddp buckets", "fsdp all-gather", ...
    item_bytes: tuple[float, ...]
    ready_s: tuple[float, ...]
    start_s: tuple[float, ...]
    end_s: tuple[float, ...]
    compute_s: float
    comm_s: float                    # sum of the items' communication times
    exposed_s: float

    @property
    def n_items(self) -> int:
        return len(self.item_bytes)

    @property
    def step_s(self) -> float:
        """Compute plus exposed communication."""
        return self.compute_s + self.exposed_s

    @property
    def serial_s(self) -> float:
        """Compute plus all communication, the step with no overlap."""
        return self.compute_s + self.comm_s

    @property
    def overlap_fraction(self) -> float:
        """Share of the communication hidden behind compute (1 when there is none)."""
        return 1.0 - self.exposed_s / self.comm_s if self.comm_s > 0 else 1.0

    def __repr__(self) -> str:
        return (f"{self.kind}: {self.n_items} of {format_bytes(max(self.item_bytes, default=0))} at most; "
                f"compute {format_time(self.compute_s)}, communication {format_time(self.comm_s)} of which "
                f"{format_time(self.exposed_s)} exposed ({self.overlap_fraction:.0%} hidden); step "
                f"{format_time(self.step_s)} instead of {format_time(self.serial_s)} in series.")


def run_in_order(item_bytes: Sequence[float], ready_s: Sequence[float], comm_s: Sequence[float],
                 compute_s: float, kind: str = "items") -> OverlapSchedule:
    """Run communication items one after another, each no earlier than it is ready.

    ``s_j = max(r_j, e_{j-1})``, ``e_j = s_j + c_j``; ``exposed = max(0, e_last - compute_s)``.

    >>> run_in_order([1, 1], [1.0, 2.0], [0.5, 0.5], 2.0).exposed_s   # the last item only
    0.5
    """
    item_bytes = [validate.non_negative("item_bytes", b) for b in validate.sequence("item_bytes", item_bytes)]
    ready = [validate.non_negative("ready_s", r) for r in validate.sequence("ready_s", ready_s)]
    comm = [validate.non_negative("comm_s", c) for c in validate.sequence("comm_s", comm_s)]
    compute_s = validate.non_negative("compute_s", compute_s)
    if not isinstance(kind, str):
        raise TypeError(f"kind must be a string, got {type(kind).__name__}")
    if not (len(item_bytes) == len(ready) == len(comm)):
        raise ValueError(f"item_bytes, ready_s and comm_s must have the same length, got "
                         f"{len(item_bytes)}, {len(ready)} and {len(comm)}")
    if len(item_bytes) > MAX_BUCKETS:
        raise ValueError(f"item_bytes must hold at most {MAX_BUCKETS} items, got {len(item_bytes)}")
    starts, ends = [], []
    free = 0.0
    for r, c in zip(ready, comm):
        start = max(r, free)
        free = start + c
        starts.append(start)
        ends.append(free)
    exposed = max(0.0, (ends[-1] if ends else 0.0) - compute_s)
    return OverlapSchedule(kind=kind, item_bytes=tuple(item_bytes), ready_s=tuple(ready), start_s=tuple(starts),
                           end_s=tuple(ends), compute_s=compute_s, comm_s=math.fsum(comm), exposed_s=exposed)


def ddp_bucket_sizes(grad_bytes: float, bucket_bytes: float | None = None) -> list[float]:
    """Equal buckets of ``bucket_bytes`` (default PyTorch DDP's 25 MiB), the last one holding the rest.

    >>> ddp_bucket_sizes(60e6, 25e6)
    [25000000.0, 25000000.0, 10000000.0]
    """
    grad_bytes = validate.positive("grad_bytes", grad_bytes, maximum=1e15, why="a petabyte of gradients")
    cap = specs.value("pytorch.ddp.bucket_cap") if bucket_bytes is None else \
        validate.positive("bucket_bytes", bucket_bytes)
    n_full = int(grad_bytes // cap)
    rest = grad_bytes - n_full * cap
    if n_full + (rest > 0) > MAX_BUCKETS:
        raise ValueError(f"bucket_bytes must give at most {MAX_BUCKETS} buckets for grad_bytes = {grad_bytes:g}, "
                         f"got bucket_bytes = {cap:g} ({math.ceil(grad_bytes / cap)} buckets)")
    return [float(cap)] * n_full + ([rest] if rest > 0 else [])


def _all_reduce_s(n_bytes: float, world_size: int, alpha_s: float, bandwidth_bps: float) -> float:
    return alpha_beta.ring_all_reduce_time(n_bytes, world_size, alpha_s, bandwidth_bps).time_s


def ddp_backward(grad_bytes: float, backward_s: float, world_size: int, alpha_s: float, bandwidth_bps: float,
                 bucket_bytes: float | None = None) -> OverlapSchedule:
    """The backward pass of data parallelism with bucketed all-reduce, gradients produced at a steady rate.

    ``grad_bytes`` of gradients appear evenly over ``backward_s``; a bucket is ready when its last
    byte is computed; each bucket is ring all-reduced over ``world_size`` ranks (per-step latency
    ``alpha_s``, bandwidth ``bandwidth_bps`` one way) after the previous one. ``bucket_bytes`` defaults
    to PyTorch DDP's 25 MiB. With ``n`` equal buckets, ``exposed = max(c, n c - (n-1) T_b / n)``.

    >>> s = ddp_backward(100e6, 0.1, 2, 0.0, 8e9, bucket_bytes=25e6)   # 4 buckets, 25 ms to fill each
    >>> round(s.exposed_s * 1e3, 6)                                     # each all-reduce 25 ms: the last one
    25.0
    """
    sizes = ddp_bucket_sizes(grad_bytes, bucket_bytes)
    backward_s = validate.positive("backward_s", backward_s)
    world_size = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_COUNT)
    alpha_s = validate.non_negative("alpha_s", alpha_s)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    total = math.fsum(sizes)
    ready, done = [], 0.0
    for b in sizes:
        done += b
        ready.append(backward_s * min(1.0, done / total))
    times = {b: _all_reduce_s(b, world_size, alpha_s, bandwidth_bps) for b in set(sizes)}   # at most two sizes
    return run_in_order(sizes, ready, [times[b] for b in sizes], backward_s, kind="DDP buckets")


def exposed_comm_s(grad_bytes: float, backward_s: float, world_size: int, alpha_s: float, bandwidth_bps: float,
                   bucket_bytes: float | None = None) -> float:
    """Seconds of data-parallel all-reduce the step waits for after the backward pass (see :func:`ddp_backward`)."""
    return ddp_backward(grad_bytes, backward_s, world_size, alpha_s, bandwidth_bps, bucket_bytes).exposed_s


def overlap_fraction(grad_bytes: float, backward_s: float, world_size: int, alpha_s: float, bandwidth_bps: float,
                     bucket_bytes: float | None = None) -> float:
    """Share of the bucketed data-parallel all-reduce hidden behind the backward pass, in [0, 1].

    This is the ``overlap`` of the capstone designer, derived instead of assumed: the step pays
    ``(1 - overlap_fraction) x`` the summed all-reduce time of the buckets.
    """
    return ddp_backward(grad_bytes, backward_s, world_size, alpha_s, bandwidth_bps, bucket_bytes).overlap_fraction


def layered_backward(layer_grad_bytes: Sequence[float], layer_backward_s: Sequence[float], world_size: int,
                     alpha_s: float, bandwidth_bps: float, bucket_bytes: float | None = None) -> OverlapSchedule:
    """Bucketed all-reduce with layers given one by one, in the order the backward pass runs them.

    DDP's rule: a layer's gradients join the open bucket; the bucket closes (and its all-reduce
    is queued) once it holds at least ``bucket_bytes``, at the end of that layer's backward; the
    last bucket closes with the last layer.
    """
    grads = [validate.non_negative("layer_grad_bytes", b) for b in validate.sequence("layer_grad_bytes", layer_grad_bytes)]
    times = [validate.non_negative("layer_backward_s", t) for t in validate.sequence("layer_backward_s", layer_backward_s)]
    if len(grads) != len(times) or not grads:
        raise ValueError(f"layer_grad_bytes and layer_backward_s must be non-empty and of the same length, got "
                         f"{len(grads)} and {len(times)}")
    if len(grads) > MAX_BUCKETS:
        raise ValueError(f"layer_grad_bytes must hold at most {MAX_BUCKETS} layers, got {len(grads)}")
    cap = specs.value("pytorch.ddp.bucket_cap") if bucket_bytes is None else \
        validate.positive("bucket_bytes", bucket_bytes)
    world_size = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_COUNT)
    alpha_s = validate.non_negative("alpha_s", alpha_s)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    sizes, ready = [], []
    clock, open_bytes = 0.0, 0.0
    for i, (b, t) in enumerate(zip(grads, times)):
        clock += t
        open_bytes += b
        if open_bytes >= cap or i == len(grads) - 1:
            if open_bytes > 0:
                sizes.append(open_bytes)
                ready.append(clock)
            open_bytes = 0.0
    comm = [_all_reduce_s(b, world_size, alpha_s, bandwidth_bps) for b in sizes]
    return run_in_order(sizes, ready, comm, clock, kind="DDP buckets (by layer)")


def fsdp_forward(layer_compute_s: Sequence[float], layer_param_bytes: Sequence[float], world_size: int,
                 alpha_s: float, bandwidth_bps: float, prefetch: bool = True) -> OverlapSchedule:
    """ZeRO-3 / FSDP forward pass: each layer's parameters all-gathered before it computes.

    Without prefetch every all-gather waits for the previous layer's compute and is exposed in
    full. With prefetch (one layer ahead) the all-gather of layer ``i + 1`` may start once layer
    ``i`` starts computing (at most two layers' full parameters are held at once). The all-gather
    of ``P`` bytes over ``n`` ranks is a ring: ``(n-1) alpha + (n-1)/n 8P/B``. When every
    all-gather is shorter than the compute of the layer before it, only the first is exposed.
    """
    comp = [validate.non_negative("layer_compute_s", t) for t in validate.sequence("layer_compute_s", layer_compute_s)]
    params = [validate.non_negative("layer_param_bytes", b) for b in validate.sequence("layer_param_bytes", layer_param_bytes)]
    if len(comp) != len(params) or not comp:
        raise ValueError(f"layer_compute_s and layer_param_bytes must be non-empty and of the same length, got "
                         f"{len(comp)} and {len(params)}")
    if len(comp) > MAX_BUCKETS:
        raise ValueError(f"layer_compute_s must hold at most {MAX_BUCKETS} layers, got {len(comp)}")
    world_size = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_COUNT)
    alpha_s = validate.non_negative("alpha_s", alpha_s)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    prefetch = validate.boolean("prefetch", prefetch)
    gathers = [alpha_beta.ring_all_gather_time(p, world_size, alpha_s, bandwidth_bps).time_s for p in params]
    starts, ends, ready = [], [], []
    gather_free = 0.0       # when the communication stream is free
    compute_end = 0.0       # when the previous layer finished computing
    compute_start_prev = 0.0
    for i, (g, c) in enumerate(zip(gathers, comp)):
        allowed = (compute_start_prev if i > 0 else 0.0) if prefetch else compute_end
        start = max(gather_free, allowed)
        gather_free = start + g
        starts.append(start)
        ends.append(gather_free)
        ready.append(allowed)
        compute_start_prev = max(compute_end, gather_free)
        compute_end = compute_start_prev + c
    total_compute = math.fsum(comp)
    exposed = compute_end - total_compute
    return OverlapSchedule(kind="FSDP all-gather" + (" with prefetch" if prefetch else ""),
                           item_bytes=tuple(params), ready_s=tuple(ready), start_s=tuple(starts), end_s=tuple(ends),
                           compute_s=total_compute, comm_s=math.fsum(gathers), exposed_s=max(0.0, exposed))


def chunked_exposed_s(compute_s: float, comm_s: float, n_chunks: int) -> float:
    """Communication left exposed when a compute and its collective are split into ``n_chunks`` and pipelined.

    Two stages in a pipeline of ``k`` chunks take ``max(t_c, t_m) + min(t_c, t_m) / k``; the exposed part is
    that minus ``t_c``. ``k = 1`` exposes all of ``t_m``; large ``k`` leaves ``max(0, t_m - t_c)``.

    >>> chunked_exposed_s(4.0, 2.0, 4)    # 4 + 2/4 - 4
    0.5
    """
    compute_s = validate.non_negative("compute_s", compute_s)
    comm_s = validate.non_negative("comm_s", comm_s)
    k = validate.integer("n_chunks", n_chunks, minimum=1, maximum=MAX_BUCKETS)
    return max(compute_s, comm_s) + min(compute_s, comm_s) / k - compute_s
