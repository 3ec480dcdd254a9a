"""Figures and readouts for chapter 5's balls-into-bins explorer (lab 5).

``draw_paths`` shows one seeded throw of flows (per-flow ECMP) or packets (spraying) onto
equal paths; ``paths_readout`` says in one sentence what that throw did and what the
closed forms of :mod:`netlab.ecmp` expect on average.
"""

from __future__ import annotations

import numpy as np

from netlab import ecmp, plots, validate

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
