"""Figures and readouts for chapter 10 (lab 10): an all-reduce split across two sites, against
the distance between them.

``plot_two_site`` draws :func:`netlab.longhaul.distance.two_site_allreduce` over distance;
``two_site_summary`` says in a sentence what one distance costs. ``plot_lossless_distance`` and
``lossless_summary`` do the same for the PFC headroom a lossless link of that length reserves
(:func:`netlab.longhaul.distance.lossless_distance`).
"""

from __future__ import annotations

from netlab import plots, specs, validate
from netlab.longhaul.distance import TwoSiteAllReduce, lossless_distance, two_site_allreduce
from netlab.units import format_bytes, format_rate, format_time


EXAMPLE_DISTANCES_M = tuple(d * 1e3 for d in (0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000))


def _example(n_bytes: float, distance_m: float, window_bytes: float | None) -> TwoSiteAllReduce:
    """Chapter 10's example: 8 GPUs per site on NVLink 5, 800 Gb/s each across, alpha from the registry."""
    v = specs.value
    return two_site_allreduce(n_bytes, 8, distance_m, v("nvlink.5.per_gpu"), v("assume.network_alpha"),
                              v("eth.800g.port_rate"), window_bytes)


def plot_two_site(n_bytes: float, window_bytes: float | None = None):
    """All-reduce time against distance for chapter 10's example: capped window vs full BDP in flight."""
    n_bytes = validate.positive("n_bytes", n_bytes)
    if window_bytes is not None:
        window_bytes = validate.positive("window_bytes", window_bytes)
    km_ = [d / 1e3 for d in EXAMPLE_DISTANCES_M]
    aware = [_example(n_bytes, d, None).time_s * 1e3 for d in EXAMPLE_DISTANCES_M]
    capped = [_example(n_bytes, d, window_bytes).time_s * 1e3 for d in EXAMPLE_DISTANCES_M]
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    ax.loglog(km_, aware, "--", color=plots.color("grey"), label="full BDP in flight (distance-aware)")
    label = "full BDP in flight" if window_bytes is None else f"in flight capped at {format_bytes(window_bytes)}"
    ax.loglog(km_, capped, "o-", color=plots.color("ethernet"), label=label)
    ax.axvline(specs.value("xgs.claim_distance") / 1e3, color=plots.color("green"), linewidth=1)
    ax.minorticks_off()
    ax.set_xlabel("distance between the sites (km)")
    ax.set_ylabel("all-reduce time (ms)")
    ax.set_title(f"{format_bytes(n_bytes)} over 2 x 8 GPUs")
    ax.legend()
    fig.alt = f"Log-log curves of all-reduce time against site distance for {format_bytes(n_bytes)}, {label}"
    return fig


def two_site_summary(n_bytes: float, window_bytes: float | None = None, distance_m: float = 10e3) -> str:
    """One sentence: chapter 10's example at ``distance_m``, capped, against distance-aware control."""
    n_bytes = validate.positive("n_bytes", n_bytes)
    distance_m = validate.non_negative("distance_m", distance_m)
    r = _example(n_bytes, distance_m, window_bytes)
    s = r.time_s / _example(n_bytes, distance_m, None).time_s
    verdict = ("this is the distance-aware case, a full BDP in flight" if window_bytes is None
               else f"a full BDP in flight is {s:.2f} times faster")
    return (f"At {distance_m / 1e3:g} km: {format_time(r.time_s)}, {100 * r.cross_share:.0f} % of it across the "
            f"long link at {format_rate(r.cross_rate_bps)} per GPU; {verdict}.")


LOSSLESS_DISTANCES_M = tuple(d * 1e3 for d in (0.01, 0.03, 0.1, 0.3, 1, 3, 10, 30, 100))


def plot_lossless_distance(gbps: float, n_lossless: int = 1):
    """Headroom a 64-port switch reserves for PFC against link length, beside its 128 MB buffer (lab 10)."""
    gbps = validate.positive("gbps", gbps)
    rows = [lossless_distance(d, gbps * 1e9, n_lossless=n_lossless) for d in LOSSLESS_DISTANCES_M]
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    ax.loglog([r.distance_m / 1e3 for r in rows], [r.switch_bytes / 1e6 for r in rows], "o-",
              color=plots.color("roce"), label=f"headroom, 64 ports x {n_lossless} lossless")
    ax.axhline(rows[0].buffer_bytes / 1e6, color=plots.color("grey"), linestyle="--", linewidth=1,
               label="whole switch buffer (SN5600, 128 MB)")
    ax.axvline(specs.value("xgs.claim_distance") / 1e3, color=plots.color("green"), linewidth=1)
    ax.minorticks_off()
    ax.set_xlabel("link length (km)")
    ax.set_ylabel("reserved headroom (MB)")
    ax.set_title(f"PFC at {gbps:g} Gb/s: headroom grows with the round trip")
    ax.legend(loc="upper left")
    fig.alt = (f"Log-log line of PFC headroom for 64 ports at {gbps:g} Gb/s with {n_lossless} lossless "
               "priorities against link length, crossing the 128 MB buffer line")
    return fig


def lossless_summary(gbps: float, n_lossless: int = 1, distance_m: float = 10e3) -> str:
    """One sentence under lab 10's PFC explorer: the headroom at ``distance_m``."""
    gbps = validate.positive("gbps", gbps)
    return str(lossless_distance(distance_m, gbps * 1e9, n_lossless=n_lossless))
