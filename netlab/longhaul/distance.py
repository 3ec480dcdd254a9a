"""Across datacenters: what distance does to round trips, data in flight and collectives.

Light in single-mode fibre travels at ``c / n_g`` with group index ``n_g`` ~1.468,
4.9 µs per km one way, so two sites ``d`` apart have a round-trip time of at least
``RTT = 2 * d * n_g / c``: about 0.1 ms at 10 km and 1 ms at 100 km. Three
consequences follow.

* **In flight.** A sender must keep the bandwidth-delay product ``BDP = B * RTT / 8``
  bytes unacknowledged to fill the link (``B`` in bit/s): 9.8 MB at 800 Gb/s over 10 km. A window capped
  at ``W`` bytes gives ``rate = min(B, 8 W / RTT)``.
* **Reaction.** Congestion control learns of a queue one round trip late; in the
  meantime a full-rate sender has put another ``B * RTT / 8`` bytes on the wire, which the
  far switch must buffer or drop. Deep-buffer switches absorb it but add delay;
  distance-aware control (NVIDIA's Spectrum-XGS, seed D4) sizes windows and
  reactions to the measured RTT instead.
* **Collectives.** A hierarchical all-reduce over two sites reduce-scatters inside
  each site, all-reduces a ``1/p`` shard with the peer rank at the other site over
  the long link, and all-gathers inside each site again. Only the middle step pays
  the distance: ``2 (alpha + RTT/2) + 8 n / (p * beta_cross)`` for ``n`` bytes, where
  ``beta_cross`` is the long link's rate per rank in bit/s, or less when the window caps it.

Phase costs are :mod:`netlab.collectives.alpha_beta`'s ring closed forms (chapter 6); their sum is\nits ``hierarchical_all_reduce_time`` with two domains. Rates are one-way.
References: ``hnkoptic-g657-datasheet``, ``mapyourtech-fiber``, ``nvidia-xgs-blog``, ``brainai-xgs``.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import links, specs, validate
from netlab.collectives import alpha_beta as collective_cost
from netlab.units import format_bytes, format_rate, format_time


@dataclass(frozen=True)
class LongLink:
    """A fibre link of ``distance_m``: its delays and the data it holds."""

    distance_m: float
    bandwidth_bps: float
    one_way_s: float
    rtt_s: float
    bdp_bytes: float          # bandwidth * RTT / 8: in flight to fill it; also one RTT of overshoot

    def __repr__(self) -> str:
        return (f"LongLink({self.distance_m / 1e3:g} km at {format_rate(self.bandwidth_bps)}: one way "
                f"{format_time(self.one_way_s)}, RTT {format_time(self.rtt_s)}, BDP {format_bytes(self.bdp_bytes)})")

    def __str__(self) -> str:
        return (f"{self.distance_m / 1e3:g} km at {format_rate(self.bandwidth_bps)}: {format_time(self.one_way_s)} "
                f"one way, a {format_time(self.rtt_s)} round trip, {format_bytes(self.bdp_bytes)} in flight to fill it.")


def long_link(distance_m: float, bandwidth_bps: float, local_rtt_s: float = 0.0) -> LongLink:
    """Round trip and bandwidth-delay product of a fibre link of ``distance_m``.

    ``local_rtt_s`` adds the round trip inside the two sites (switches, NICs).

    Example: 10 km of fibre: 2 * 10,000 m * 1.468 / c = 97.93 µs; at 800 Gb/s that
    holds 800e9 * 97.93e-6 / 8 = 9.79 MB.

    >>> round(long_link(10e3, 800e9).bdp_bytes / 1e6, 2)
    9.79
    """
    distance_m = validate.non_negative("distance_m", distance_m)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    local_rtt_s = validate.non_negative("local_rtt_s", local_rtt_s)
    one_way_s = links.propagation_time(distance_m) + local_rtt_s / 2
    rtt_s = 2 * one_way_s
    return LongLink(distance_m=distance_m, bandwidth_bps=bandwidth_bps, one_way_s=one_way_s, rtt_s=rtt_s,
                    bdp_bytes=links.bandwidth_delay_product(bandwidth_bps, rtt_s))


def window_limited_rate(window_bytes: float, rtt_s: float, bandwidth_bps: float) -> float:
    """Throughput of a sender allowed ``window_bytes`` in flight: ``min(B, 8 W / RTT)`` bit/s.

    >>> window_limited_rate(1e6, 100e-6, 800e9) / 1e9    # 1 MB per 100 µs = 80 Gb/s
    80.0
    """
    window_bytes = validate.positive("window_bytes", window_bytes)
    rtt_s = validate.non_negative("rtt_s", rtt_s)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    if rtt_s == 0:
        return bandwidth_bps
    return min(bandwidth_bps, window_bytes * 8.0 / rtt_s)


@dataclass(frozen=True)
class TwoSiteAllReduce:
    """A hierarchical all-reduce over two sites, split into its three phases."""

    n_bytes: float
    ranks_per_site: int
    distance_m: float
    reduce_scatter_s: float     # inside each site (ring), in parallel at both sites
    cross_site_s: float         # shard all-reduce with the peer rank at the other site
    all_gather_s: float         # inside each site
    time_s: float
    cross_rate_bps: float       # per-rank rate achieved on the long link

    @property
    def cross_share(self) -> float:
        """Share of the time spent on the long link."""
        return self.cross_site_s / self.time_s

    def __repr__(self) -> str:
        return (f"TwoSiteAllReduce({format_bytes(self.n_bytes)}, 2 x {self.ranks_per_site} ranks, "
                f"{self.distance_m / 1e3:g} km: {format_time(self.time_s)} = "
                f"{format_time(self.reduce_scatter_s)} + {format_time(self.cross_site_s)} across + "
                f"{format_time(self.all_gather_s)}; {format_rate(self.cross_rate_bps)} per rank across)")


def two_site_allreduce(n_bytes: float, ranks_per_site: int, distance_m: float, intra_bandwidth_bps: float,
                       intra_alpha_s: float, cross_bandwidth_bps: float,
                       window_bytes: float | None = None) -> TwoSiteAllReduce:
    """Time of a hierarchical all-reduce of ``n_bytes`` over two sites of ``ranks_per_site`` ranks.

    Parameters
    ----------
    n_bytes : float
        Buffer size per rank (the data being all-reduced).
    ranks_per_site : int
        Ranks ``p`` at each site; rank ``i`` at one site pairs with rank ``i`` at the other.
    distance_m : float
        Fibre between the sites.
    intra_bandwidth_bps, intra_alpha_s : float
        Per-rank ring rate and per-step start-up cost inside a site.
    cross_bandwidth_bps : float
        Long-link rate available to each rank pair (the site link divided by ``p``).
    window_bytes : float or None
        In-flight cap of the cross-site flow (congestion control tuned for short
        RTTs): the cross rate becomes ``min(B, 8 W / (RTT + 2 alpha))``. ``None`` means
        distance-aware control that keeps a full BDP in flight.

    Notes
    -----
    Phases: ring reduce-scatter and all-gather, ``(p - 1)`` steps of ``n / p`` bytes
    each; across, a two-rank all-reduce of the ``n / p`` shard: two steps of
    ``n / (2p)`` bytes, each paying the one-way delay.
    """
    n_bytes = validate.positive("n_bytes", n_bytes)
    p = validate.integer("ranks_per_site", ranks_per_site, minimum=1)
    distance_m = validate.non_negative("distance_m", distance_m)
    intra_bandwidth_bps = validate.positive("intra_bandwidth_bps", intra_bandwidth_bps)
    intra_alpha_s = validate.non_negative("intra_alpha_s", intra_alpha_s)
    cross_bandwidth_bps = validate.positive("cross_bandwidth_bps", cross_bandwidth_bps)
    if window_bytes is not None:
        window_bytes = validate.positive("window_bytes", window_bytes)
    link = long_link(distance_m, cross_bandwidth_bps)
    cross_rate = cross_bandwidth_bps if window_bytes is None else window_limited_rate(
        window_bytes, link.rtt_s + 2 * intra_alpha_s, cross_bandwidth_bps)
    rs_s = collective_cost.ring_reduce_scatter_time(n_bytes, p, intra_alpha_s, intra_bandwidth_bps).time_s
    cross_s = collective_cost.ring_all_reduce_time(n_bytes / p, 2, intra_alpha_s + link.one_way_s,
                                                   cross_rate).time_s
    ag_s = collective_cost.ring_all_gather_time(n_bytes, p, intra_alpha_s, intra_bandwidth_bps).time_s
    return TwoSiteAllReduce(n_bytes=n_bytes, ranks_per_site=p, distance_m=distance_m, reduce_scatter_s=rs_s,
                            cross_site_s=cross_s, all_gather_s=ag_s, time_s=rs_s + cross_s + ag_s,
                            cross_rate_bps=cross_rate)


def distance_aware_speedup(n_bytes: float, ranks_per_site: int, distance_m: float, intra_bandwidth_bps: float,
                           intra_alpha_s: float, cross_bandwidth_bps: float, window_bytes: float) -> float:
    """How much faster the two-site all-reduce runs when the window follows the RTT.

    The ratio of :func:`two_site_allreduce` with ``window_bytes`` to the same without a cap.
    """
    window_bytes = validate.positive("window_bytes", window_bytes)
    capped = two_site_allreduce(n_bytes, ranks_per_site, distance_m, intra_bandwidth_bps, intra_alpha_s,
                                cross_bandwidth_bps, window_bytes)
    aware = two_site_allreduce(n_bytes, ranks_per_site, distance_m, intra_bandwidth_bps, intra_alpha_s,
                               cross_bandwidth_bps, None)
    return capped.time_s / aware.time_s


def baseline_window_for_speedup(speedup: float, n_bytes: float, ranks_per_site: int, distance_m: float,
                                intra_bandwidth_bps: float, intra_alpha_s: float,
                                cross_bandwidth_bps: float) -> float:
    """The in-flight cap (bytes) a baseline must have had for distance-aware control to be
    ``speedup`` times faster: the inverse of :func:`distance_aware_speedup` in ``window_bytes``.

    The speed-up falls as the window grows, so a bisection on ``log(window)`` finds it. A
    speed-up above what an idle link allows (the window would be below one byte) is refused.
    """
    speedup = validate.in_range("speedup", speedup, 1.0, 1e6, low_open=True)
    args = (n_bytes, ranks_per_site, distance_m, intra_bandwidth_bps, intra_alpha_s, cross_bandwidth_bps)
    two_site_allreduce(*args)                   # validates every argument, naming it
    bdp = long_link(distance_m, cross_bandwidth_bps, 2 * intra_alpha_s).bdp_bytes
    low, high = 1.0, max(bdp, 2.0)              # speed-up(low) >= target > speed-up(high) ~ 1
    if distance_aware_speedup(*args, low) < speedup:
        raise ValueError(f"speedup must be reachable with a window of at least 1 byte, got {speedup}")
    for _ in range(100):
        mid = (low * high) ** 0.5
        if distance_aware_speedup(*args, mid) >= speedup:
            low = mid
        else:
            high = mid
    return low


@dataclass(frozen=True)
class LosslessDistance:
    """What PFC across ``distance_m`` of fibre reserves: headroom per lossless priority and port,
    and for a whole switch, against its buffer."""

    distance_m: float
    bandwidth_bps: float
    headroom_bytes: float
    cable_bytes: float
    n_ports: int
    n_lossless: int
    buffer_bytes: float

    @property
    def switch_bytes(self) -> float:
        """Headroom reserved on every port for every lossless priority."""
        return self.headroom_bytes * self.n_ports * self.n_lossless

    @property
    def buffer_ratio(self) -> float:
        """Reserved headroom over the switch's whole packet buffer."""
        return self.switch_bytes / self.buffer_bytes

    def __str__(self) -> str:
        return (f"{self.distance_m / 1e3:g} km at {self.bandwidth_bps / 1e9:g} Gb/s: headroom "
                f"{self.headroom_bytes / 1e6:,.2f} MB per lossless priority and port ({self.cable_bytes / 1e6:,.2f} MB "
                f"of it the fibre's round trip); {self.n_ports} ports x {self.n_lossless} reserve "
                f"{self.switch_bytes / 1e6:,.0f} MB, {self.buffer_ratio:,.2f} x a {self.buffer_bytes / 1e6:g} MB buffer")


def lossless_distance(distance_m: float, bandwidth_bps: float, n_ports: int = 64, n_lossless: int = 1,
                      buffer_bytes: float | None = None) -> LosslessDistance:
    """PFC headroom over a long link (:func:`netlab.lossless.roce.fibre_headroom`: the fibre's round trip
    at line rate, a 2.4 µs response, two 4 KB frames), for ``n_ports`` ports with ``n_lossless``
    lossless priorities each, against ``buffer_bytes`` (by default the SN5600's 128 MB, registry
    ``fabric.sn5600.buffer``).

    Example: 10 km at 800 Gb/s: the round trip 97.93 µs holds 9.79 MB; with the response and frames,
    10.04 MB per port; 64 ports: 643 MB, 5.0 times 128 MB.

    >>> round(lossless_distance(10e3, 800e9).buffer_ratio, 2)
    5.02
    """
    from netlab.lossless import roce

    distance_m = validate.non_negative("distance_m", distance_m)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    n_ports = validate.integer("n_ports", n_ports, minimum=1, maximum=4096)
    n_lossless = validate.integer("n_lossless", n_lossless, minimum=1, maximum=8)
    if buffer_bytes is None:
        buffer_bytes = specs.value("fabric.sn5600.buffer")
    buffer_bytes = validate.positive("buffer_bytes", buffer_bytes)
    budget = roce.fibre_headroom(bandwidth_bps, distance_m)
    return LosslessDistance(distance_m, bandwidth_bps, budget.total_bytes, budget.cable_bytes, n_ports,
                            n_lossless, buffer_bytes)
