"""Figures and readouts for chapter 6's explorer: which all-reduce wins at which size (lab 6).

``draw_algorithms`` plots, for one rank count and step latency on 400 Gb/s ports, each
algorithm's time relative to the ring (left) and its busbw (right) against message size,
from the closed forms of :mod:`netlab.collectives.alpha_beta`; ``algorithms_readout`` gives the
ring/tree crossover in one sentence.
"""

from __future__ import annotations

import functools

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


# --- NCCL under the hood: protocols, the tuner's choice, the knobs, the log, in-network reduction ----
#: Communicators the NCCL explorers offer, name -> (n_ranks, n_nodes, fabric). Across nodes every
#: GPU has its own 400 Gb/s NIC (``ib.ndr.port_rate``).
SETUPS = {
    "8 GPUs, NVLink": (8, 1, "nvlink"),
    "8 GPUs, PCIe": (8, 1, "pcie"),
    "64 GPUs, 8 nodes": (64, 8, "nvlink"),
    "1024 GPUs, 128 nodes": (1024, 128, "nvlink"),
}
TUNER_SIZES = tuple(float(2 ** k) for k in range(4, 33))     # 16 B ... 4 GiB, x2 apart
_PROTO_COLOURS = {"ll": "vermillion", "ll128": "blue", "simple": "green"}
_ALGO_STYLES = {"ring": "-", "tree": "--", "nvls": ":"}


def _setup(setup: str) -> tuple[int, int, str, float | None]:
    validate.choice("setup", setup, tuple(SETUPS))
    n, m, fabric = SETUPS[setup]
    return n, m, fabric, (_port_bps() if m > 1 else None)


def draw_protocols(setup: str):
    """The tuner's ring time for LL, LL128 and Simple against size, with the two crossovers."""
    from netlab.collectives import nccl_tuner, protocols
    n, m, fabric, nic = _setup(setup)
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    sizes = np.array(TUNER_SIZES)
    used = [p for p in protocols.PROTOCOLS if not (p == "ll128" and fabric == "pcie")]
    times = {p: np.array([nccl_tuner.estimate(s, n, m, "ring", p, fabric=fabric, nic_bps=nic).time_s
                          for s in sizes]) for p in used}
    best = np.min(np.array(list(times.values())), axis=0)
    for proto in used:
        eff = protocols.protocol_format(proto).efficiency
        ax.semilogx(sizes, times[proto] / best, color=plots.color(_PROTO_COLOURS[proto]),
                  label=f"ring/{protocols.NAMES[proto]} ({100 * eff:.4g} % payload)")
    for x in protocols.crossovers(n, m, "ring", fabric, nic_bps=nic):
        if x.n_bytes is not None:
            ax.axvline(x.n_bytes, color=plots.color("grey"), linestyle=":", linewidth=1)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("time / fastest protocol's time")
    ax.set_title(f"NCCL's model of a ring all-reduce, {setup}")
    ax.legend(loc="center left", fontsize=8)
    return fig


def protocols_readout(setup: str) -> str:
    """Where the tuner's ring switches protocol, in one sentence."""
    from netlab.collectives import protocols
    n, m, fabric, nic = _setup(setup)
    parts = [repr(x).split(": ", 1)[1] for x in protocols.crossovers(n, m, "ring", fabric, nic_bps=nic)]
    return f"{setup}, ring all-reduce: " + "; ".join(parts) + " (dotted lines)."


#: The knobs the choice explorer turns, name -> (NCCL_ALGO, NCCL_PROTO) as NCCL reads them.
KNOBS = {"none": (None, None), "NCCL_ALGO=Ring": ("Ring", None), "NCCL_ALGO=Tree": ("Tree", None),
         "NCCL_PROTO=^LL128": (None, "^LL128"), "NCCL_PROTO=Simple": (None, "Simple")}


def _choices(setup: str, knob: str):
    from netlab.collectives import nccl_tuner
    n, m, fabric, nic = _setup(setup)
    validate.choice("knob", knob, tuple(KNOBS))
    algos, protos = nccl_tuner.env_choices(*KNOBS[knob], n_nodes=m)
    return n, m, fabric, nic, algos, protos


def draw_choice(setup: str, knob: str = "none"):
    """Each (algorithm, protocol)'s predicted time over the time of NCCL's pick, against size.

    The pick sits on 1 (thick); a candidate the knob takes away is drawn faint and may fall below 1:
    the price of the knob at that size.
    """
    from matplotlib.ticker import FuncFormatter

    from netlab.collectives import nccl_tuner
    n, m, fabric, nic, algos, protos = _choices(setup, knob)
    sizes = np.array(TUNER_SIZES)
    table = [nccl_tuner.candidates(s, n, m, fabric=fabric, nic_bps=nic) for s in sizes]
    picks = nccl_tuner.choice_table(n, m, TUNER_SIZES, fabric=fabric, nic_bps=nic, algorithms=algos,
                                    protocols=protos)
    pick_t = np.array([c.time_s for c in picks.choices])
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    for est in table[0]:
        alg, proto = est.algorithm, est.protocol
        row = np.array([next(e for e in r if e.algorithm == alg and e.protocol == proto).time_s for r in table])
        allowed = alg in algos and proto in protos
        ax.loglog(sizes, row / pick_t, color=plots.color(_PROTO_COLOURS[proto]), linestyle=_ALGO_STYLES[alg],
                  linewidth=1.0, alpha=0.8 if allowed else 0.3, label=est.label)
    ax.loglog(sizes, np.ones_like(sizes), color=plots.color("black"), linewidth=2.4)
    for s, label in picks.switch_points():
        ax.annotate(label, (s, 1.0), fontsize=8, rotation=90, xytext=(2, -4), textcoords="offset points",
                    va="top")
    ax.set_ylim(0.3, 30)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("time / time of NCCL's pick")
    ax.set_title(f"All-reduce, {setup}" + ("" if knob == "none" else f", {knob}"))
    ax.legend(loc="upper left", fontsize=8, ncol=3)
    return fig


def choice_readout(setup: str, knob: str = "none") -> str:
    """The sizes at which NCCL's pick changes, in one line."""
    from netlab.collectives import nccl_tuner
    n, m, fabric, nic, algos, protos = _choices(setup, knob)
    table = nccl_tuner.choice_table(n, m, TUNER_SIZES, fabric=fabric, nic_bps=nic, algorithms=algos,
                                    protocols=protos)
    steps = ", ".join(f"{label} from {format_bytes(s, binary=True)}" for s, label in table.switch_points())
    last = table.choices[-1]
    return f"{steps}; at 4 GiB {last.label} takes {last.time_s * 1e3:.3g} ms."


#: The logs the log explorer reads (written by nccl_log.example_log, 8 GPUs per node, 8 channels).
LOG_CASES: dict[str, tuple[int, bool, bool]] = {      # name -> (n_nodes, gdr, pxn)
    "2 nodes, GDR on, PXN on": (2, True, True),
    "2 nodes, GDR off, PXN off": (2, False, False),
    "1 node": (1, True, False),
}



def _log_case(case: str):
    validate.choice("case", case, tuple(LOG_CASES))
    return _parsed_log(case)


@functools.lru_cache(maxsize=len(LOG_CASES))
def _parsed_log(case: str):
    from netlab.collectives import nccl_log
    n_nodes, gdr, pxn = LOG_CASES[case]
    return nccl_log.parse(nccl_log.example_log(n_nodes, 8, 8, gdr=gdr, pxn=pxn))


def draw_log(case: str, channel: int = 0):
    """The ring of one channel, read from a log: ranks by node, NVLink hops and network hops (NIC, GDR)."""
    log = _log_case(case)
    ch = validate.integer("channel", channel, minimum=0, maximum=max(log.rings))
    order = log.rings[ch]
    n = len(order)
    ppn = log.local_ranks or n
    fig, ax = plots.figure(width_in=4.8, height_in=3.6)
    angle = {r: 2 * np.pi * i / n for i, r in enumerate(order)}
    xy = {r: (np.cos(a), np.sin(a)) for r, a in angle.items()}
    net = {(h.src_rank, h.dst_rank): h for h in log.hops if h.channel == ch and h.network}   # send and receive
    for i, r in enumerate(order):
        nxt = order[(i + 1) % n]
        (x0, y0), (x1, y1) = xy[r], xy[nxt]
        hop = net.get((r, nxt))
        crosses = r // ppn != nxt // ppn
        colour = plots.color("infiniband" if crosses else "nvlink")
        dashed = crosses and hop is not None and not hop.gdr        # a network hop staged in host memory
        ax.annotate("", (x1, y1), (x0, y0), arrowprops=dict(arrowstyle="->", color=colour,
                                                             linestyle="--" if dashed else "-",
                                                             linewidth=1.6 if crosses else 1.0))
        if hop is not None:
            label = f"NIC {hop.nic}" + (f" via GPU {hop.proxy_rank}" if hop.proxy_rank is not None else "")
            label += ", GDR" if hop.gdr else ", no GDR"
            ax.annotate(label, ((x0 + x1) / 2 * 1.15, (y0 + y1) / 2 * 1.15), fontsize=8, ha="center")
    for r, (x, y) in xy.items():
        ax.plot(x, y, "o", color=plots.color("blue" if r // ppn == 0 else "orange"), markersize=9)
        ax.annotate(str(r), (x * 1.13, y * 1.13), ha="center", va="center", fontsize=8)
    ax.set_xlim(-1.5, 1.5)
    ax.set_ylim(-1.35, 1.35)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(f"{case}: ring of channel {ch} of {log.n_ring_channels}", fontsize=9)
    return fig


def log_readout(case: str, channel: int = 0) -> str:
    """What the log says, in a few sentences (the same for every channel)."""
    log = _log_case(case)
    validate.integer("channel", channel, minimum=0, maximum=max(log.rings))
    keep = [s for s in log.explain().splitlines() if not s.startswith(("NCCL 2", "8 NIC", "16 NIC"))]
    return " ".join(keep)


def draw_in_network(n_ranks: int):
    """algbw, busbw as nccl-tests prints it, and the wire rate, for ring, NVLS and SHARP on H100 NVLink."""
    from netlab.collectives import in_network, nccl_tuner
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=1 << 16)
    port = nccl_tuner.nvlink_busbw("hopper")
    runs = [in_network.all_reduce_traffic(1e9, n, port, v) for v in in_network.VARIANTS]
    fig, ax = plots.figure(width_in=5.6, height_in=3.2)
    width = 0.27
    x = np.arange(len(runs))
    for k, (name, attr, colour) in enumerate((("algbw = S/t", "algbw_bps", "blue"),
                                               ("busbw as printed", "busbw_printed_bps", "orange"),
                                               ("rate on the wire", "wire_bps", "grey"))):
        ax.bar(x + (k - 1) * width, [getattr(r, attr) / GBps for r in runs], width, label=name,
               color=plots.color(colour))
    ax.axhline(port / GBps, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.set_xticks(x, [f"{r.variant}\n{r.sent_per_gpu_bytes / 1e9:.3g} GB sent" for r in runs])
    ax.set_ylabel("GB/s, 1 GB all-reduce")
    ax.set_title(f"{n} GPUs, every port at {port / GBps:.1f} GB/s (dashed)", fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    return fig


def in_network_readout(n_ranks: int) -> str:
    """The byte saving and how far the printed busbw sits above the wire rate."""
    from netlab.collectives import in_network, nccl_tuner
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=1 << 16)
    port = nccl_tuner.nvlink_busbw("hopper")
    sharp = in_network.all_reduce_traffic(1e9, n, port, "sharp")
    nvls = in_network.all_reduce_traffic(1e9, n, port, "nvls")
    return (f"{n} GPUs: SHARP sends {sharp.traffic_saving:.2f}x fewer bytes than the ring, NVLS "
            f"{nvls.traffic_saving:.2f}x; with every port at {port / GBps:.1f} GB/s nccl-tests would print "
            f"busbw {sharp.busbw_printed_bps / GBps:.0f} (SHARP) and {nvls.busbw_printed_bps / GBps:.0f} GB/s "
            "(NVLS): above the wire rate, because busbw assumes ring bytes.")
