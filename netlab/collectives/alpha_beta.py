"""Collective cost: alpha-beta closed forms, and algbw and busbw as nccl-tests defines them.

A collective built from point-to-point steps costs, in the alpha-beta model, a
latency term (steps times ``alpha_s``) plus a transfer term (bytes through the
busiest port divided by its rate). For ``n`` ranks, ``N = n_bytes`` and a port
rate ``B`` (bit/s, one-way) the textbook forms are :cite:p:`thakur-collectives-2005`:

* ring all-reduce (reduce-scatter then all-gather):
  ``2(n-1) alpha + 2(n-1)/n * 8N/B``;
* ring reduce-scatter, ring all-gather, pairwise all-to-all: ``(n-1) alpha + (n-1)/n * 8N/B``;
* binomial tree all-reduce (reduce, then broadcast): ``2 ceil(log2 n) (alpha + 8N/B)``;
* recursive halving-doubling (Rabenseifner) all-reduce, ``n`` a power of two:
  ``2 log2(n) alpha + 2(n-1)/n * 8N/B``; otherwise two more full-size steps;
* hierarchical all-reduce over ``m`` domains of ``d`` ranks: reduce-scatter inside a
  domain, all-reduce of each ``N/d`` shard across domains, all-gather inside:
  ``2(d-1)(a_in + 8N/(d B_in)) + 2(m-1)(a_out + 8N/(d m B_out))``;
* in-network reduction (SHARP), pipelined in ``k`` chunks: each rank sends ``N`` into
  the switch and receives the reduced ``N`` back, ``(k+1)(alpha + 8N/(kB))``; NVLink
  SHARP (NVLS) moves ``(n+1)/n N`` per port.

nccl-tests reports ``algbw = S / t`` and ``busbw = algbw * factor`` with the factors
of :func:`busbw_factor` :cite:p:`nccl-tests-performance`, so that busbw can be set
beside the rate of the busiest link whatever ``n`` is. Bandwidths here are bit/s;
``n_bytes`` is nccl-tests' ``size`` column (for all-gather the gathered output, for
reduce-scatter the full input).

Every ``*_time`` function returns a :class:`CollectiveTime`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
import math

from netlab import validate
from netlab.units import format_byte_rate, format_bytes, format_time

COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather", "all_to_all", "broadcast", "reduce")


def busbw_factor(collective: str, world_size: int, in_network: bool = False) -> float:
    """busbw / algbw for ``collective`` on ``world_size`` ranks, as nccl-tests computes it.

    ``in_network=True`` (all-reduce only) is the factor nccl-tests applies when
    ``NCCL_ALGO`` is NVLS or NVLSTREE: ``(n-1)/(n+1)`` (src/all_reduce.cu).

    >>> busbw_factor("all_reduce", 8)
    1.75
    """
    collective = validate.choice("collective", collective, COLLECTIVES)
    n = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_COUNT)
    validate.boolean("in_network", in_network)
    if in_network:
        if collective != "all_reduce":
            raise ValueError("in_network applies to collective='all_reduce' only")
        return (n - 1) / (n + 1)
    if collective == "all_reduce":
        return 2 * (n - 1) / n
    if collective in ("reduce_scatter", "all_gather", "all_to_all"):
        return (n - 1) / n
    return 1.0  # broadcast, reduce: all data leaves (or reaches) one root


def algbw(n_bytes: float, time_s: float) -> float:
    """Algorithm bandwidth ``S / t`` in bit/s (nccl-tests prints it in GB/s)."""
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    time_s = validate.positive("time_s", time_s)
    return n_bytes * 8.0 / time_s


def busbw(n_bytes: float, time_s: float, collective: str, world_size: int,
          in_network: bool = False) -> float:
    """Bus bandwidth in bit/s: ``algbw * busbw_factor(collective, world_size)``."""
    return algbw(n_bytes, time_s) * busbw_factor(collective, world_size, in_network)


@dataclass(frozen=True)
class CollectiveTime:
    """The alpha-beta time of one collective: ``time_s = latency_s + transfer_s``."""

    collective: str
    algorithm: str
    n_bytes: float
    world_size: int
    latency_s: float     # the alpha terms
    transfer_s: float    # the bytes-over-bandwidth terms
    time_s: float
    algbw_bps: float     # n_bytes * 8 / time_s (0 when time_s is 0: nothing to move)
    busbw_bps: float     # algbw_bps * nccl-tests factor (the point-to-point one)

    @property
    def regime(self) -> str:
        """``"latency-bound"`` if the alpha terms are more than half the time."""
        return "latency-bound" if self.latency_s > self.transfer_s else "bandwidth-bound"

    def __repr__(self) -> str:
        return (f"A {self.algorithm} {self.collective.replace('_', '-')} of {format_bytes(self.n_bytes)} "
                f"on {self.world_size} ranks takes {format_time(self.time_s)} = "
                f"{format_time(self.latency_s)} latency + {format_time(self.transfer_s)} transfer; "
                f"algbw {format_byte_rate(self.algbw_bps)}, busbw {format_byte_rate(self.busbw_bps)}; "
                f"{self.regime}.")


def _result(collective: str, algorithm: str, n_bytes: float, n: int, latency_s: float,
            transfer_s: float) -> CollectiveTime:
    time_s = latency_s + transfer_s
    # An empty collective with no latency takes no time and moves nothing: report 0 bit/s
    # rather than 0/0 (NaN) or N/0 (inf).
    alg = n_bytes * 8.0 / time_s if time_s > 0 else 0.0
    bus = alg * busbw_factor(collective, n)
    return CollectiveTime(collective, algorithm, n_bytes, n, latency_s, transfer_s, time_s, alg,
                          bus if n > 1 else 0.0)


def _checked(n_bytes, world_size, alpha_s, bandwidth_bps):
    return (validate.non_negative("n_bytes", n_bytes),
            validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_COUNT),
            validate.non_negative("alpha_s", alpha_s),
            validate.positive("bandwidth_bps", bandwidth_bps))


def ring_all_reduce_time(n_bytes: float, world_size: int, alpha_s: float,
                         bandwidth_bps: float) -> CollectiveTime:
    """Ring all-reduce: ``2(n-1) alpha + 2(n-1)/n * 8N/B``.

    >>> round(ring_all_reduce_time(1e9, 8, 5e-6, 400e9).time_s * 1e3, 4)   # 1 GB, 8 ranks
    35.07
    """
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    return _result("all_reduce", "ring", N, n, 2 * (n - 1) * a, 2 * (n - 1) / n * 8 * N / B)


def ring_reduce_scatter_time(n_bytes: float, world_size: int, alpha_s: float,
                             bandwidth_bps: float) -> CollectiveTime:
    """Ring reduce-scatter of an ``n_bytes`` input per rank: ``(n-1) alpha + (n-1)/n * 8N/B``."""
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    return _result("reduce_scatter", "ring", N, n, (n - 1) * a, (n - 1) / n * 8 * N / B)


def ring_all_gather_time(n_bytes: float, world_size: int, alpha_s: float,
                         bandwidth_bps: float) -> CollectiveTime:
    """Ring all-gather into an ``n_bytes`` output per rank: ``(n-1) alpha + (n-1)/n * 8N/B``."""
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    return _result("all_gather", "ring", N, n, (n - 1) * a, (n - 1) / n * 8 * N / B)


def all_to_all_time(n_bytes: float, world_size: int, alpha_s: float,
                    bandwidth_bps: float) -> CollectiveTime:
    """Pairwise all-to-all of ``n_bytes`` per rank (``N/n`` to each peer), ``n-1`` steps:
    ``(n-1) alpha + (n-1)/n * 8N/B``."""
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    return _result("all_to_all", "pairwise", N, n, (n - 1) * a, (n - 1) / n * 8 * N / B)


def tree_all_reduce_time(n_bytes: float, world_size: int, alpha_s: float,
                         bandwidth_bps: float) -> CollectiveTime:
    """Binomial-tree reduce then broadcast, whole message per step: ``2 ceil(log2 n)(alpha + 8N/B)``."""
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    levels = math.ceil(math.log2(n)) if n > 1 else 0
    return _result("all_reduce", "tree", N, n, 2 * levels * a, 2 * levels * 8 * N / B)


def halving_doubling_all_reduce_time(n_bytes: float, world_size: int, alpha_s: float,
                                     bandwidth_bps: float) -> CollectiveTime:
    """Recursive halving (reduce-scatter) then doubling (all-gather), after Rabenseifner.

    With ``p`` the largest power of two <= n: ``2 log2(p) alpha + 2(p-1)/p * 8N/B``, plus,
    when ``n > p``, one full-size step before (the extra ranks hand their data to a
    partner) and one after (the partner hands the result back): ``2(alpha + 8N/B)``.
    """
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    p = 1 << (n.bit_length() - 1)
    log_p = p.bit_length() - 1
    extra = 0 if n == p else 2
    return _result("all_reduce", "halving-doubling", N, n, (2 * log_p + extra) * a,
                   (2 * (p - 1) / p + extra) * 8 * N / B)


def double_binary_tree_all_reduce_time(n_bytes: float, world_size: int, alpha_s: float,
                                       bandwidth_bps: float,
                                       n_pipeline_chunks: int | None = None) -> CollectiveTime:
    """Double binary tree (NCCL's tree), pipelined in ``k`` chunks: a steady-state estimate.

    Each tree carries half the data; every rank is inner node of at most one tree, so a
    step moves at most ``N/k`` bytes through a port (two children's ``N/(2k)``). Reduce
    then broadcast take ``2(H + k - 1)`` steps with ``H = floor(log2 n)`` levels:
    ``T = 2(H + k - 1)(alpha + 8N/(k B))``. This bounds the step-by-step cost of
    :func:`netlab.collectives.trees.double_binary_tree_all_reduce` from above. ``k = None``
    picks the best ``k``: about ``sqrt((H - 1) * 8N / (alpha B))``.
    """
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    if n == 1:
        return _result("all_reduce", "double binary tree", N, n, 0.0, 0.0)
    H = n.bit_length() - 1

    def time_for(k):
        steps = 2 * (H + k - 1)
        return steps * a, steps * 8 * N / (k * B)

    if n_pipeline_chunks is None:
        guess = math.sqrt(max(H - 1, 0) * 8 * N / (a * B)) if a > 0 else 1024.0
        candidates = {max(1, min(4096, int(guess) + d)) for d in (-1, 0, 1)} | {1}
        k = min(candidates, key=lambda c: sum(time_for(c)))
    else:
        k = validate.integer("n_pipeline_chunks", n_pipeline_chunks, minimum=1)
    latency_s, transfer_s = time_for(k)
    return _result("all_reduce", f"double binary tree (k={k})", N, n, latency_s, transfer_s)


def hierarchical_all_reduce_time(n_bytes: float, domain_size: int, n_domains: int,
                                 intra_alpha_s: float, intra_bandwidth_bps: float,
                                 inter_alpha_s: float, inter_bandwidth_bps: float) -> CollectiveTime:
    """All-reduce inside scale-up domains, then across them, then inside again.

    Ring reduce-scatter in each domain of ``d`` ranks (each rank ends with an ``N/d``
    shard), ring all-reduce of each shard among the ``m`` ranks holding it (one per
    domain), ring all-gather in each domain:
    ``2(d-1)(a_in + 8N/(d B_in)) + 2(m-1)(a_out + 8N/(d m B_out))``.
    """
    N = validate.non_negative("n_bytes", n_bytes)
    d = validate.integer("domain_size", domain_size, minimum=1)
    m = validate.integer("n_domains", n_domains, minimum=1)
    a_in = validate.non_negative("intra_alpha_s", intra_alpha_s)
    B_in = validate.positive("intra_bandwidth_bps", intra_bandwidth_bps)
    a_out = validate.non_negative("inter_alpha_s", inter_alpha_s)
    B_out = validate.positive("inter_bandwidth_bps", inter_bandwidth_bps)
    latency_s = 2 * (d - 1) * a_in + 2 * (m - 1) * a_out
    transfer_s = 2 * (d - 1) * 8 * N / (d * B_in) + 2 * (m - 1) * 8 * N / (d * m * B_out)
    return _result("all_reduce", "hierarchical", N, d * m, latency_s, transfer_s)


def in_network_all_reduce_time(n_bytes: float, world_size: int, alpha_s: float,
                               bandwidth_bps: float, variant: str = "switch",
                               n_pipeline_chunks: int | None = None) -> CollectiveTime:
    """All-reduce summed inside the switch (SHARP), pipelined in ``k`` chunks.

    ``variant="switch"`` (InfiniBand SHARP aggregation): at each of ``k + 1`` steps a
    port sends one chunk up while it receives the previous, reduced chunk back:
    ``(k+1)(alpha + 8N/(k B))``, tending to ``8N/B`` - half the ring's traffic.
    ``variant="nvls"`` (NVLink SHARP as NCCL uses it: reduce-scatter through the
    switch, then a multicast all-gather) moves ``(n+1)/n N`` per port each way, so its
    transfer term is ``(n+1)/n`` times larger: the maintainer's
    ``algbw = busbw * n/(n+1)`` :cite:p:`nccl-tests-pr-239`. ``k = None`` picks the best
    ``k`` (about ``sqrt(8N share / (alpha B))``). ``busbw_bps`` uses the point-to-point
    factor ``2(n-1)/n``, as nccl-tests does unless ``NCCL_ALGO`` names NVLS.
    """
    N, n, a, B = _checked(n_bytes, world_size, alpha_s, bandwidth_bps)
    variant = validate.choice("variant", variant, ("switch", "nvls"))
    share = 1.0 if variant == "switch" else (n + 1) / n

    def time_for(k):
        return (k + 1) * a, (k + 1) / k * share * 8 * N / B

    if n_pipeline_chunks is None:
        guess = math.sqrt(share * 8 * N / (a * B)) if a > 0 else 4096.0
        candidates = {max(1, min(4096, int(guess) + d)) for d in (-1, 0, 1)} | {1}
        k = min(candidates, key=lambda c: sum(time_for(c)))
    else:
        k = validate.integer("n_pipeline_chunks", n_pipeline_chunks, minimum=1)
    return _result("all_reduce", f"in-network {variant} (k={k})", N, n, *time_for(k))


def ring_tree_crossover_bytes(world_size: int, alpha_s: float, bandwidth_bps: float) -> float:
    """Message size below which the binomial tree all-reduce beats the ring.

    Setting ``2(n-1) a + 2(n-1)/n * 8N/B`` equal to ``2L (a + 8N/B)``, ``L = ceil(log2 n)``:
    ``N* = a B/8 * ((n-1) - L) / (L - (n-1)/n)``. Zero when the ring never loses (n <= 3).
    """
    n = validate.integer("world_size", world_size, minimum=2)
    a = validate.non_negative("alpha_s", alpha_s)
    B = validate.positive("bandwidth_bps", bandwidth_bps)
    L = math.ceil(math.log2(n))
    if (n - 1) - L <= 0:
        return 0.0
    return a * B / 8.0 * ((n - 1) - L) / (L - (n - 1) / n)


def straggler_ring_all_reduce_time(n_bytes: float, link_bandwidths_bps: Sequence[float],
                                   alpha_s: float) -> CollectiveTime:
    """Ring all-reduce whose ``n`` links have different rates: every step waits for the
    slowest, so the ring runs at ``min(link_bandwidths_bps)``."""
    if isinstance(link_bandwidths_bps, (str, bytes)) or not isinstance(link_bandwidths_bps, Sequence):
        raise TypeError("link_bandwidths_bps must be a sequence of link rates in bit/s")
    rates = [validate.positive("link_bandwidths_bps", b) for b in link_bandwidths_bps]
    if len(rates) < 1:
        raise ValueError("link_bandwidths_bps must hold one rate per rank (at least one)")
    return ring_all_reduce_time(n_bytes, len(rates), alpha_s, min(rates))
