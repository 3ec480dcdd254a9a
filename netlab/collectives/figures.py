"""Figures and readouts for chapter 6's explorer: which all-reduce wins at which size (lab 6).

``draw_algorithms`` plots, for one rank count and step latency on 400 Gb/s ports, each
algorithm's time relative to the ring (left) and its busbw (right) against message size,
from the closed forms of :mod:`netlab.collectives.alpha_beta`; ``algorithms_readout`` gives the
ring/tree crossover in one sentence.
"""

from __future__ import annotations

import numpy as np

from netlab import plots, specs, validate
from netlab.collectives import alpha_beta as cc
from netlab.units import GBps, format_bytes

SIZES = np.logspace(1, 10, 37)
#: The all-reduce algorithms :func:`draw_algorithms` compares, name -> its time function.
ALGORITHMS = {
    "ring": cc.ring_all_reduce_time,
    "binomial tree": cc.tree_all_reduce_time,
    "double binary tree": cc.double_binary_tree_all_reduce_time,
    "halving-doubling": cc.halving_doubling_all_reduce_time,
    "in-network (SHARP)": cc.in_network_all_reduce_time,
}


def _port_bps() -> float:
    return specs.value("ib.ndr.port_rate")


def draw_algorithms(world_size: int, alpha_us: float):
    """Time / ring time and busbw against message size for the all-reduces of :data:`ALGORITHMS`."""
    n = validate.integer("world_size", world_size, minimum=2, maximum=1 << 16)
    alpha_s = validate.non_negative("alpha_us", alpha_us) * 1e-6
    port = _port_bps()
    fig, (left, right) = plots.figure(ncols=2, width_in=8.4, height_in=3.4)
    ring = np.array([cc.ring_all_reduce_time(s, n, alpha_s, port).time_s for s in SIZES])
    for (name, model), colour in zip(ALGORITHMS.items(), plots.CYCLE):
        results = [model(s, n, alpha_s, port) for s in SIZES]
        left.loglog(SIZES, np.array([r.time_s for r in results]) / ring, label=name, color=colour)
        right.semilogx(SIZES, [r.busbw_bps / GBps for r in results], color=colour)
    crossover = cc.ring_tree_crossover_bytes(n, alpha_s, port)
    for ax in (left, right):
        ax.axvline(crossover, color=plots.color("grey"), linestyle=":", linewidth=1)
        ax.set_xlabel("message size N (bytes)")
    right.axhline(port / GBps, color=plots.color("grey"), linestyle="--", linewidth=1)
    left.set_ylabel("time / ring time")
    left.set_title("below 1: faster than the ring")
    right.set_ylabel("busbw (GB/s)")
    right.set_title(f"{n} ranks, 400 Gb/s, alpha {alpha_us:g} µs")
    left.legend(loc="lower left", fontsize=8)
    return fig


def algorithms_readout(world_size: int, alpha_us: float) -> str:
    """One sentence: where the ring starts to beat the binomial tree."""
    n = validate.integer("world_size", world_size, minimum=2, maximum=1 << 16)
    x = cc.ring_tree_crossover_bytes(n, validate.non_negative("alpha_us", alpha_us) * 1e-6, _port_bps())
    return (f"The ring beats the binomial tree above {format_bytes(x)} (dotted line); the dashed line "
            "is the port rate.")
