"""Figures and readouts for chapter 5's explorers (lab 5): balls into bins, and three fabric wirings.

``draw_paths`` shows one seeded throw of flows (per-flow ECMP) or packets (spraying) onto
equal paths; ``paths_readout`` says in one sentence what that throw did and what the
closed forms of :mod:`netlab.fabric.ecmp` expect on average.
"""

from __future__ import annotations

import numpy as np

from netlab import plots, validate
from netlab.fabric import ecmp, rails

SCHEMES = {"ECMP (per flow)": 1, "spraying, 16 packets": 16, "spraying, 256 packets": 256}
PATHS = (8, 32, 64, 128)
SEED = 5


def draw_paths(n_paths: int, scheme: str):
    """Each path's load (flows' worth of bytes) after one throw; the dashed line is a perfect spread."""
    validate.choice("scheme", scheme, SCHEMES)
    load = ecmp.one_throw(n_paths, SCHEMES[scheme], seed=SEED)
    fig, ax = plots.figure(width_in=6.4, height_in=2.8)
    colour = plots.color("ethernet") if SCHEMES[scheme] == 1 else plots.color("uet")
    ax.stairs(load, np.arange(len(load) + 1), fill=True, color=colour)
    ax.axhline(1.0, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.set_xlabel("path")
    ax.set_ylabel("load (flows' worth of bytes)")
    ax.set_ylim(0, 5.5)
    ax.set_title(f"{n_paths} flows on {n_paths} paths, {scheme}")
    return fig


def paths_readout(n_paths: int, scheme: str) -> str:
    """One sentence: this throw's paths used and busiest path, and the expected slowdown."""
    validate.choice("scheme", scheme, SCHEMES)
    packets = SCHEMES[scheme]
    load = ecmp.one_throw(n_paths, packets, seed=SEED)
    expected = (ecmp.ecmp_collisions(n_paths, n_paths).completion_slowdown if packets == 1
                else ecmp.spraying_slowdown(n_paths, n_paths, packets))
    return (f"This throw uses {np.mean(load > 0):.0%} of the paths and loads the busiest to "
            f"{load.max():.2f}x the ideal; on average the job would take {expected:.2f}x the ideal time.")


SCHEME_NAMES = {"ecmp": "ECMP (per flow)", "spray": "spraying", "adaptive": "adaptive routing",
                "telemetry": "path telemetry"}
_SCHEME_COLOURS = {"ecmp": "ethernet", "spray": "uet", "adaptive": "infiniband", "telemetry": "purple"}


def _check(runs: dict, scenario: str, scheme: str) -> None:
    validate.instance("runs", runs, dict, "a dict of run_pattern results by (scheme, scenario)")
    validate.instance("scenario", scenario, str, "a scenario's name")
    validate.instance("scheme", scheme, str, "a scheme's name")


def _run(runs: dict, scenario: str, scheme: str):
    _check(runs, scenario, scheme)
    if (scheme, scenario) not in runs:
        raise ValueError(f"runs must hold a simulated run for (scheme, scenario) = ({scheme!r}, {scenario!r})")
    return runs[scheme, scenario]


def draw_completions(runs: dict, scenario: str, scheme: str):
    """Cumulative flow completion times over the ideal, one curve per scheme, ``scheme`` in bold.

    ``runs`` maps ``(scheme, scenario)`` to a :func:`netlab.fabric.experiments.run_pattern` result.
    """
    _check(runs, scenario, scheme)
    if not any((s, scenario) in runs for s in SCHEME_NAMES):
        raise ValueError(f"scenario: runs hold no run for scenario {scenario!r}")
    fig, ax = plots.figure(width_in=6.4, height_in=3.0)
    for s in SCHEME_NAMES:
        if (s, scenario) not in runs:
            continue
        run = _run(runs, scenario, s)
        x = np.sort(np.array(run.completion_times_s) / run.ideal_s)
        y = np.arange(1, len(x) + 1) / len(x)
        ax.step(x, y, where="post", color=plots.color(_SCHEME_COLOURS[s]), linewidth=3 if s == scheme else 1,
                alpha=1.0 if s == scheme else 0.4, label=SCHEME_NAMES[s])
    ax.set_xlabel("flow completion time / ideal")
    ax.set_ylabel("share of flows done")
    ax.set_xlim(0.9, 5.5)
    ax.legend(loc="lower right")
    ax.set_title(f"{scenario}: completion times, {SCHEME_NAMES.get(scheme, scheme)} in bold")
    return fig


def completions_readout(runs: dict, alone: dict, scenario: str, scheme: str) -> str:
    """One sentence: the timed job and the median flow against the ideal, reordering and drops.

    ``alone`` maps a scheme to the timed job's run without its neighbour (for "two jobs").
    """
    run = _run(runs, scenario, scheme)
    solo = (f" (alone: {alone[scheme].job_times_s[0] / run.ideal_s:.2f}x)"
            if scenario == "two jobs" and scheme in alone else "")
    return (f"{scenario.capitalize()} with {SCHEME_NAMES.get(scheme, scheme)}: the timed job takes "
            f"{run.job_times_s[0] / run.ideal_s:.2f}x the ideal{solo} and the median flow "
            f"{run.percentile_s(50) / run.ideal_s:.2f}x; {run.out_of_order_packets} packets arrive out of "
            f"order and {run.dropped_packets} are dropped.")


# --- rail-optimized, rail-only and fat-tree fabrics (lab 5's fabric calculator) -------------------

RAIL_SIZES = (1152, 2304, 4608, 9216, 18432, 36864, 73728, 101376)   # multiples of 8 and of 72 GPUs
RAIL_DOMAINS = {"dgx-h100": "DGX H100 (8 GPUs)", "gb200-nvl72": "GB200 NVL72 (72 GPUs)"}
RAIL_SWITCHES = {"quantum2": "Quantum-2, 64 x 400G", "sn5600_400g": "SN5600, 128 x 400G"}
RAIL_BYTES = 256e6           # bytes per GPU of the all-reduce and the all-to-all
_RAIL_COLOURS = {"fat_tree": "grey", "rail_optimized": "infiniband", "rail_only": "green"}


def _rails(n_gpus: int, domain: str, switch: str) -> dict:
    validate.choice("domain", domain, RAIL_DOMAINS)
    validate.choice("switch", switch, RAIL_SWITCHES)
    return rails.compare(n_gpus, switch, domain, RAIL_BYTES)


def draw_rails(n_gpus: int, domain: str, switch: str = "quantum2"):
    """Switches, network cost (low-high range), power and collective times of the three wirings.

    A missing bar is a wiring the switch cannot build in three tiers."""
    rows = _rails(n_gpus, domain, switch)
    fig, axes = plots.figure(ncols=2, nrows=2, width_in=6.4, height_in=4.6)
    (ax_sw, ax_cost), (ax_pw, ax_t) = axes
    names = [rails.KIND_NAMES[k] for k in rails.KINDS]
    x = np.arange(len(names))
    colours = [plots.color(_RAIL_COLOURS[k]) for k in rails.KINDS]
    panels = ((ax_sw, "switches", lambda f: f.n_switches),
              (ax_cost, "network cost ($ M, high)", lambda f: f.cost_high_usd / 1e6),
              (ax_pw, "network power (kW)", lambda f: f.power_w / 1e3))
    for ax, label, value in panels:
        heights = [value(rows[k][0]) if rows[k][0] is not None else 0.0 for k in rails.KINDS]
        ax.bar(x, heights, color=colours)
        top = max(heights) or 1.0
        for i, k in enumerate(rails.KINDS):
            if rows[k][0] is None:
                ax.text(i, 0.05 * top, "needs a\n4th tier", ha="center", va="bottom", fontsize=8)
        if ax is ax_cost:    # the low estimate as a tick inside each bar
            lows = [rows[k][0].cost_low_usd / 1e6 if rows[k][0] is not None else np.nan for k in rails.KINDS]
            ax.plot(x, lows, linestyle="none", marker="_", markersize=18, color=plots.color("black"))
        ax.set_ylim(0, top * 1.15)
        ax.set_ylabel(label)
        ax.set_xticks(x, ["fat\ntree", "rail-\noptimized", "rail-\nonly"])
    ar = [rows[k][1].all_reduce_s * 1e3 for k in rails.KINDS]
    a2a = [rows[k][1].all_to_all_s * 1e3 for k in rails.KINDS]
    ax_t.bar(x - 0.2, ar, width=0.4, color=plots.color("blue"), label="all-reduce")
    ax_t.bar(x + 0.2, a2a, width=0.4, color=plots.color("orange"), label="all-to-all")
    ax_t.set_ylabel(f"time, {RAIL_BYTES / 1e6:g} MB per GPU (ms)")
    ax_t.set_xticks(x, ["fat\ntree", "rail-\noptimized", "rail-\nonly"])
    ax_t.set_ylim(0, max(ar + a2a) * 1.4)
    ax_t.legend(loc="upper center", ncol=2, fontsize=8)
    fig.suptitle(f"{n_gpus:,} GPUs, {RAIL_DOMAINS[domain]}, {RAIL_SWITCHES[switch]}")
    fig.alt = rails_alt(n_gpus, domain, switch)
    return fig


def rails_readout(n_gpus: int, domain: str, switch: str = "quantum2") -> str:
    """Two sentences: what rail-only saves over rail-optimized, and what its all-to-all pays."""
    rows = _rails(n_gpus, domain, switch)
    ro, rl = rows["rail_optimized"][0], rows["rail_only"][0]
    t_rl, t_ft = rows["rail_only"][1], rows["fat_tree"][1]
    timing = (f"All-reduce takes {t_rl.all_reduce_s * 1e3:.1f} ms on all three (rail-local); all-to-all takes "
              f"{t_ft.all_to_all_s * 1e3:.1f} ms on a non-blocking fat tree and {t_rl.all_to_all_s * 1e3:.1f} ms "
              f"(+{t_rl.all_to_all_s / t_ft.all_to_all_s - 1:.1%}) where cross-rail bytes hop NVLink first.")
    if rl is None:
        return f"No wiring attaches {n_gpus:,} GPUs in three tiers of this switch. " + timing
    if ro is None:
        return (f"{n_gpus:,} GPUs exceed three tiers of this switch for the fat tree and rail-optimized fabric; "
                f"rail-only builds each rail in {rl.n_tiers} tier{'s' if rl.n_tiers > 1 else ''} with {rl.n_switches:,} switches in all. "
                + timing)
    s = rails.rail_only_saving(n_gpus, switch, domain)
    return (f"Rail-only needs {rl.n_tiers} tier{'s' if rl.n_tiers > 1 else ''} and {rl.n_switches:,} switches against {ro.n_tiers} and "
            f"{ro.n_switches:,}: {s.cost_low:.0%} less network cost and {s.power:.0%} less network power "
            f"than rail-optimized. " + timing)


def rails_alt(n_gpus: int, domain: str, switch: str = "quantum2") -> str:
    """Alternative text of :func:`draw_rails`."""
    rows = _rails(n_gpus, domain, switch)
    parts = []
    for k in rails.KINDS:
        f, t = rows[k]
        size = ("cannot be built in three tiers" if f is None else
                f"{f.n_switches:,} switches, ${f.cost_high_usd / 1e6:,.0f} M, {f.power_w / 1e3:,.0f} kW")
        parts.append(f"{rails.KIND_NAMES[k]}: {size}, all-to-all {t.all_to_all_s * 1e3:.1f} ms")
    return f"Three fabrics for {n_gpus:,} GPUs: " + "; ".join(parts)
