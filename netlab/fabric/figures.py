"""Figures and readouts for chapter 5's balls-into-bins explorer (lab 5).

``draw_paths`` shows one seeded throw of flows (per-flow ECMP) or packets (spraying) onto
equal paths; ``paths_readout`` says in one sentence what that throw did and what the
closed forms of :mod:`netlab.fabric.ecmp` expect on average.
"""

from __future__ import annotations

import numpy as np

from netlab import plots, validate
from netlab.fabric import ecmp

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
