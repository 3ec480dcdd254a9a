"""Figures for chapter 3's explorers (lab 3): where one message's latency goes on each host
path, how much of it GPUDirect RDMA removes as the message grows, and the memory the QPs of
a job take by transport.

``draw_latency_breakdown`` stacks :func:`netlab.rdma.hoststack.host_path_latency`'s categories
for kernel TCP, staged RDMA and GPUDirect RDMA; ``draw_gpudirect_gain`` plots
:func:`netlab.rdma.hoststack.gpudirect_gain` against message size beside seed claim E5's 30 %.
"""

from __future__ import annotations

import numpy as np

from netlab import plots, validate
from netlab.rdma import hoststack, scaling
from netlab.units import GiB, format_bytes, us

PATHS = {"tcp": "kernel TCP", "rdma": "RDMA, staged", "gpudirect": "GPUDirect RDMA"}
CATEGORY_COLORS = {"kernel: calls, stack, copies": "tcp", "GPU staging copies": "grey",
                   "NIC + wire": "rdma", "verbs: post + poll": "gpudirect"}
GAIN_SIZES = np.logspace(1, 9, 33)        # 10 B to 1 GB
CLAIMED_GAIN = 0.30                       # seed claim E5: "another ~30 %"


def three_paths(size_bytes: float, bandwidth_bps: float) -> dict:
    """The one-way latency of a message from GPU memory to GPU memory on each host path."""
    size_bytes = validate.positive("size_bytes", size_bytes)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    return {p: hoststack.host_path_latency(p, size_bytes, bandwidth_bps, data_in_gpu=True) for p in PATHS}


def draw_latency_breakdown(size_bytes: int, bandwidth_bps: float):
    """Stacked bars of one-way latency (µs) by category for the three host paths."""
    cats = [r.by_category() for r in three_paths(size_bytes, bandwidth_bps).values()]
    fig, ax = plots.figure(width_in=6.4, height_in=2.6)
    plots.bar_breakdown(ax, list(PATHS.values()), {c: [x[c] / us for x in cats] for c in CATEGORY_COLORS},
                        colors={c: plots.color(k) for c, k in CATEGORY_COLORS.items()})
    ax.set_xlabel("one-way latency, GPU memory to GPU memory (µs)")
    return fig


def draw_gpudirect_gain(bandwidth_bps: float, label: str):
    """GPUDirect RDMA's share of the staged latency removed (%), against message size."""
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    if not isinstance(label, str):
        raise TypeError(f"label must be a string (the link's name in the legend), got {type(label).__name__}")
    gains = [hoststack.gpudirect_gain(n, bandwidth_bps).gain * 100 for n in GAIN_SIZES]
    fig, ax = plots.figure(height_in=2.8)
    ax.semilogx(GAIN_SIZES, gains, color=plots.color("gpudirect"), label=f"{label} link")
    ax.axhline(100 * CLAIMED_GAIN, color=plots.color("grey"), linestyle="--", linewidth=1,
               label="the claimed 30 %")
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("latency removed (%)")
    ax.set_ylim(0, 100)
    ax.legend()
    return fig


def gain_crossing_bytes(bandwidth_bps: float) -> float | None:
    """The smallest message size on the plotted grid (10 B to 1 GB) at which GPUDirect removes
    less than the claimed 30 % of the staged latency, or ``None`` if it never does."""
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    below = [n for n in GAIN_SIZES if hoststack.gpudirect_gain(n, bandwidth_bps).gain < CLAIMED_GAIN]
    return float(below[0]) if below else None


TRANSPORT_LABELS = {"RC": "RC, a QP per peer", "XRC": "XRC, a QP per node", "DC": "DC, a pool of 8 + 1",
                    "UD": "UD, one QP"}
TRANSPORT_COLORS = {"RC": "blue", "XRC": "sky", "DC": "green", "UD": "grey"}


def qp_memories(n_gpus: int, qps_per_peer: int = 1) -> dict:
    """:func:`netlab.rdma.scaling.qp_memory` for every transport, every GPU talking to all others."""
    return {t: scaling.qp_memory(n_gpus, t, qps_per_peer=qps_per_peer) for t in scaling.TRANSPORTS}


def draw_qp_memory(n_gpus: int, qps_per_peer: int = 1):
    """Horizontal bars (log scale): host memory of the QPs' work queues per node of 8 GPUs, by
    transport, when every GPU's process talks to every other GPU."""
    mems = qp_memories(n_gpus, qps_per_peer)
    fig, ax = plots.figure(width_in=6.4, height_in=2.6)
    labels = [TRANSPORT_LABELS[t] for t in mems]
    values = [m.bytes_per_node / GiB for m in mems.values()]
    ax.barh(labels, values, color=[plots.color(TRANSPORT_COLORS[t]) for t in mems])
    ax.set_xscale("log")
    ax.set_xlim(1e-4, 1e5)
    ax.invert_yaxis()
    for y, (v, m) in enumerate(zip(values, mems.values())):
        ax.text(v * 1.3, y, f"{format_bytes(m.bytes_per_node, binary=True)} ({m.qps_per_node:,} QPs)",
                va="center", fontsize=9)
    ax.set_xlabel(f"work-queue memory per node of 8 GPUs (GiB), {n_gpus:,} GPUs, all-to-all")
    return fig


def qp_memory_readout(n_gpus: int, qps_per_peer: int = 1) -> str:
    """One line: RC's QPs and memory per process and per node, against DC's."""
    mems = qp_memories(n_gpus, qps_per_peer)
    rc, dc = mems["RC"], mems["DC"]
    return (f"{n_gpus:,} GPUs, {qps_per_peer} QP(s) per peer and direction: RC needs {rc.qps_per_process:,} QPs "
            f"per process, {format_bytes(rc.bytes_per_process, binary=True)} of queues per process and "
            f"{format_bytes(rc.bytes_per_node, binary=True)} per node; DC needs {dc.qps_per_process} QPs whatever "
            "the size.")
