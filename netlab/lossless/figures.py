"""Figures for chapter 4 (lab 4): queues under incast, a victim flow, DCQCN's sharing, and
what a premium network's price buys.

Each ``draw_*`` takes the result of an experiment in :mod:`netlab.lossless.experiments` (or
the closed form of :func:`netlab.lossless.ib_vs_ethernet.perf_per_dollar`) and returns a
figure in the book's style.
"""

from __future__ import annotations

from netlab import plots, validate
from netlab.lossless.dcqcn import Trajectory
from netlab.lossless.experiments import IncastResult, SharingResult, VictimResult
from netlab.lossless.ib_vs_ethernet import perf_per_dollar
from netlab.units import KB, Gbps, us


def draw_incast(result, title: str):
    """The receiver's queue over time for an incast run with queue samples (lab 4)."""
    validate.instance("result", result, IncastResult, "an IncastResult from lossless.experiments.incast")

    trace = result.run.queue_traces[0]
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    ax.plot([t / us for t in trace.time_s], [b / KB for b in trace.queue_bytes],
            color=plots.color("infiniband" if result.mode == "credits" else "ethernet"), linewidth=1)
    ax.axvline(result.ideal_time_s / us, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.set_xlabel("time (µs)")
    ax.set_ylabel("receiver queue (KB)")
    ax.set_title(title)
    return fig


def draw_victim(result):
    """Per-flow goodput of the victim scenario, the victim h0 -> h7 highlighted (lab 4)."""
    validate.instance("result", result, VictimResult, "a VictimResult from lossless.experiments.victim")

    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    for trace, flow in zip(result.run.flow_traces, result.run.flows):
        is_victim = flow.dst == "h7"
        ax.plot([t / us for t in trace.time_s[1:]], [x / Gbps for x in trace.rates_bps()],
                color=plots.color("vermillion" if is_victim else "grey"),
                linewidth=2 if is_victim else 0.8, label="victim h0 -> h7" if is_victim else None)
    ax.set_xlabel("time (µs)")
    ax.set_ylabel("goodput (Gb/s)")
    ax.set_title(f"{result.mode}: the victim takes {result.slowdown:.1f} times as long as alone")
    ax.legend(loc="upper right")
    return fig


def draw_sharing(result, fluid=None):
    """Per-flow goodput as a share of the fair share (left) and the bottleneck queue (right)
    of a ``dcqcn_sharing`` run; ``fluid`` (a :class:`netlab.lossless.dcqcn.Trajectory`) adds the
    fluid model's flows as dashed lines, scaled to payload goodput (lab 4)."""
    validate.instance("result", result, SharingResult, "a SharingResult from lossless.experiments.dcqcn_sharing")
    if fluid is not None:
        validate.instance("fluid", fluid, Trajectory, "a dcqcn.Trajectory or None")

    fig, (left, right) = plots.figure(ncols=2, width_in=8.4, height_in=3.3)
    for i, rates in enumerate(result.rates_bps):
        line, = left.plot([t * 1e3 for t in result.time_s], [x / result.fair_share_bps for x in rates],
                          marker="o", markersize=2.5, linewidth=1, label=f"flow {i + 1}")
        if fluid is not None:
            scale = result.fair_share_bps * result.n_flows / fluid.rates_bps.sum(axis=0).max()
            left.plot(*plots.thin(fluid.time_s * 1e3, fluid.rates_bps[i] * scale / result.fair_share_bps, 200),
                      linestyle="--", linewidth=0.8, color=line.get_color())
    left.axhline(1.0, color=plots.color("grey"), linestyle=":", linewidth=1)
    left.set_xlabel("time (ms)")
    left.set_ylabel("goodput / fair share")
    left.legend(loc="lower right", fontsize=8)
    # long traces (the queue sampled 3,001 times in 60 ms, the fluid's 600 steps) are thinned to each
    # run's lowest and highest points: the same lines at the figure's width, in fewer bytes
    right.plot(*plots.thin([t * 1e3 for t in result.queue_time_s], [b / KB for b in result.queue_bytes]),
               linewidth=0.6, color=plots.color("roce"))
    if fluid is not None:
        right.plot(*plots.thin(fluid.time_s * 1e3, fluid.queue_bytes / KB, 200), linestyle="--", linewidth=0.8,
                   color=plots.color("grey"), label="fluid model")
        right.legend(loc="upper right", fontsize=8)
    right.set_xlabel("time (ms)")
    right.set_ylabel("bottleneck queue (KB)")
    return fig


def draw_perf_per_dollar(share: float, baseline: float, speedup: float):
    """Performance per dollar against speed-up for a premium network share (lab 4)."""

    share = validate.in_range("share", share, 0.0, 1.0, high_open=True)
    baseline = validate.in_range("baseline", baseline, 0.0, 1.0, high_open=True)
    speedup = validate.positive("speedup", speedup)
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    xs = [1.0 + k * 0.01 for k in range(0, 61)]
    ax.plot(xs, [perf_per_dollar(share, baseline, x).perf_per_dollar_ratio for x in xs],
            color=plots.color("infiniband"))
    ax.axhline(1.0, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.plot([speedup], [perf_per_dollar(share, baseline, speedup).perf_per_dollar_ratio], "o",
            color=plots.color("vermillion"))
    ax.set_xlabel("speed-up bought by the premium network")
    ax.set_ylabel("performance per dollar (x)")
    ax.set_title(f"network {share:.0%} vs {baseline:.0%} of cluster cost")
    return fig


def draw_headroom(gbps: float, cable_m: float, mtu_bytes: int):
    """PFC headroom of one lossless priority on one port, term by term: NVIDIA's published formula
    against the fibre budget with the same response time (lab 4)."""
    from netlab.lossless import roce

    gbps = validate.positive("gbps", gbps)
    vendor = roce.mlx5_headroom(gbps * Gbps, cable_m, mtu_bytes)
    fibre = roce.fibre_headroom(gbps * Gbps, cable_m, mtu_bytes)
    fig, ax = plots.figure(width_in=6.4, height_in=2.6)
    labels = ["NVIDIA formula", "fibre, 2 frames"]
    plots.bar_breakdown(ax, labels, {
        "cable round trip": [vendor.cable_bytes / KB, fibre.cable_bytes / KB],
        "response (2.4 µs)": [vendor.response_bytes / KB, fibre.response_bytes / KB],
        "frames in flight": [vendor.frames_bytes / KB, fibre.frames_bytes / KB]},
        colors={"cable round trip": plots.color("ethernet"), "response (2.4 µs)": plots.color("grey"),
                "frames in flight": plots.color("roce")})
    ax.set_xlabel("headroom per lossless priority and port (KB)")
    ax.set_title(f"{gbps:g} Gb/s, {cable_m:g} m cable, MTU {mtu_bytes} B")
    fig.alt = (f"Stacked bars of PFC headroom at {gbps:g} Gb/s over {cable_m:g} m with MTU {mtu_bytes}: "
               f"NVIDIA's formula {vendor.total_bytes / KB:.1f} KB, the fibre budget {fibre.total_bytes / KB:.1f} KB")
    return fig


def headroom_readout(gbps: float, cable_m: float, mtu_bytes: int) -> str:
    """One line under lab 4's headroom explorer: both budgets, and what 64 ports reserve."""
    from netlab.lossless import roce

    gbps = validate.positive("gbps", gbps)
    vendor = roce.mlx5_headroom(gbps * Gbps, cable_m, mtu_bytes)
    fibre = roce.fibre_headroom(gbps * Gbps, cable_m, mtu_bytes)
    per_switch = roce.headroom_buffer_bytes(vendor.total_bytes, 64, 1)
    return (f"NVIDIA's formula {vendor.total_bytes / KB:,.1f} KB, fibre budget {fibre.total_bytes / KB:,.1f} KB; "
            f"cable {vendor.cable_bytes / vendor.total_bytes:.0%} of the formula's; 64 ports x 1 lossless "
            f"priority reserve {per_switch / 1e6:.1f} MB")
