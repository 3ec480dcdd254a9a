"""Diagrams for the reading pages: pictures of structure, drawn with the book's palette.

Each ``draw_*`` function returns a :class:`netlab.plots.Figure` of boxes and arrows (no
data axes); :func:`write_all` saves them as themed SVGs (:func:`netlab.plots.figure_to_svg`:
text stays text, neutrals follow the reader's light or dark theme, technology colours pass
3:1 on both) into ``book/figures/``, where the chapters show them with a ``{figure}``
directive. The ring all-reduce diagram is computed, not drawn by hand:
:func:`ring_reduce_scatter` runs the schedule and the picture shows its result.

    >>> state = ring_reduce_scatter(4)
    >>> [sorted(state[3][r][(r + 1) % 4]) for r in range(4)]     # after 3 steps: one full chunk each
    [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from netlab import plots, validate

FG = "#000000"        # drawn as the theme's foreground (figure_to_svg turns black into var(--fg))
BG = "#ffffff"        # drawn as the theme's background


def _canvas(width_in: float, height_in: float, xmax: float, ymax: float):
    fig, ax = plots.figure(width_in=width_in, height_in=height_in)
    ax.set_xlim(0, xmax)
    ax.set_ylim(0, ymax)
    ax.set_axis_off()
    ax.set_aspect("equal")
    return fig, ax


def _box(ax, x, y, w, h, text="", color=FG, size=9, weight="normal", fill=BG, lw=1.6):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0,rounding_size=0.12",
                                facecolor=fill, edgecolor=color, linewidth=lw))
    if text:
        ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=size, color=FG,
                fontweight=weight)


def _arrow(ax, start, end, color=FG, lw=1.4, style="-|>", both=False, dashed=False):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle=("<|-|>" if both else style), mutation_scale=10,
                                 color=color, linewidth=lw, linestyle="--" if dashed else "-",
                                 shrinkA=0, shrinkB=0))


def _label(ax, x, y, text, size=8.5, ha="center", color=FG, style="normal"):
    ax.text(x, y, text, ha=ha, va="center", fontsize=size, color=color, fontstyle=style)


# --- chapter 4: incast, and what a pause does -------------------------------------------------
def draw_incast_pause():
    """Four senders converge on one switch port; the queue fills; PFC pauses them upstream."""
    fig, ax = _canvas(6.4, 3.3, 12.8, 6.6)
    eth = plots.color("ethernet")
    for k in range(4):
        y = 5.2 - 1.45 * k
        _box(ax, 0.2, y, 2.0, 0.9, f"sender {k + 1}", color=eth)
        _arrow(ax, (2.2, y + 0.6), (5.0, 3.45), color=eth)
        _arrow(ax, (5.0, 3.05), (2.2, y + 0.3), color=plots.color("tcp"), dashed=True, lw=1.1)
    _box(ax, 5.0, 1.6, 3.6, 3.4, "", color=FG)
    _label(ax, 6.8, 4.6, "switch", size=9)
    # the egress queue of the receiver's port: full cells
    for i in range(6):
        _box(ax, 5.5 + 0.43 * i, 2.6, 0.36, 0.8, "", color=eth, fill=eth if i < 5 else BG, lw=1.0)
    _label(ax, 6.8, 2.15, "one egress queue fills", size=8)
    _arrow(ax, (8.6, 3.0), (10.2, 3.0), color=eth, lw=2.2)
    _box(ax, 10.2, 2.5, 2.4, 1.0, "receiver", color=eth)
    _label(ax, 10.3, 1.6, "one link's worth\nof bandwidth", size=8)
    _label(ax, 3.6, 0.35, "dashed: PFC pause frames, sent upstream above XOFF; "
           "without them the queue drops", size=8)
    fig.alt = ("Four senders send to one receiver through a switch; the switch's egress queue towards the "
               "receiver fills, and the switch sends pause frames back to every sender.")
    return fig


# --- chapter 5: a two-tier folded Clos -----------------------------------------------------------
def draw_leaf_spine(n_spines: int = 4, n_leaves: int = 8, hosts_per_leaf: int = 4):
    """A two-tier folded Clos: every leaf connects to every spine; hosts hang off the leaves."""
    n_spines = validate.integer("n_spines", n_spines, minimum=1, maximum=8)
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=2, maximum=12)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=6)
    fig, ax = _canvas(6.4, 3.4, 12.8, 6.8)
    ib = plots.color("infiniband")
    leaf_w, gap = 1.1, (12.4 - n_leaves * 1.1) / max(n_leaves - 1, 1)
    leaves = [0.2 + k * (leaf_w + gap) for k in range(n_leaves)]
    spine_w = 1.6
    spine_gap = (12.4 - 2.0 - n_spines * spine_w) / max(n_spines - 1, 1)
    spines = [1.2 + k * (spine_w + spine_gap) for k in range(n_spines)]
    for sx in spines:
        for lx in leaves:
            ax.plot([sx + spine_w / 2, lx + leaf_w / 2], [5.2, 3.6], color=ib, linewidth=0.9, alpha=0.9)
    for k, sx in enumerate(spines):
        _box(ax, sx, 5.2, spine_w, 0.8, f"spine {k + 1}", color=ib, size=8)
    for k, lx in enumerate(leaves):
        _box(ax, lx, 2.9, leaf_w, 0.7, f"leaf {k + 1}", color=ib, size=7.5)
        for h in range(hosts_per_leaf):
            hx = lx + (h + 0.5) * leaf_w / hosts_per_leaf
            ax.plot([lx + leaf_w / 2, hx], [2.9, 2.0], color=plots.color("grey"), linewidth=0.8)
            _box(ax, hx - 0.11, 1.6, 0.22, 0.4, "", color=plots.color("compute"), lw=1.0)
    _label(ax, 6.4, 6.45, "every leaf has one uplink to every spine", size=8.5)
    _label(ax, 6.4, 1.0, f"{n_leaves * hosts_per_leaf} hosts: any two on different leaves are "
           "two hops apart (leaf, spine, leaf),", size=8.5)
    _label(ax, 6.4, 0.5, f"over any of {n_spines} equal paths: ECMP picks one per flow", size=8.5)
    fig.alt = (f"A leaf-spine fabric: {n_spines} spine switches at the top, {n_leaves} leaf switches below, each "
               f"leaf wired to every spine, and {hosts_per_leaf} hosts under each leaf.")
    return fig


# --- chapter 6: ring all-reduce, step by step -----------------------------------------------------
def ring_reduce_scatter(n: int) -> list[list[list[frozenset]]]:
    """The reduce-scatter half of a ring all-reduce of ``n`` ranks, ``n`` chunks each.

    ``state[s][r][c]`` is the set of ranks whose chunk ``c`` has been summed into rank ``r``'s
    copy after ``s`` steps. At step ``s`` (from 0) rank ``r`` sends its chunk ``(r - s) mod n``
    to rank ``r + 1``, which adds it to its own. After ``n - 1`` steps rank ``r`` holds chunk
    ``(r + 1) mod n`` summed over all ranks; the all-gather half then circulates those.
    """
    n = validate.integer("n", n, minimum=2, maximum=16)
    state = [[frozenset([r]) for _ in range(n)] for r in range(n)]
    history = [[list(row) for row in state]]
    for s in range(n - 1):
        sent = [(r, (r - s) % n, state[r][(r - s) % n]) for r in range(n)]
        for r, c, contribution in sent:
            dst = (r + 1) % n
            state[dst][c] = state[dst][c] | contribution
        history.append([list(row) for row in state])
    return history


def draw_ring_allreduce(n: int = 4):
    """Reduce-scatter on a ring of ``n`` ranks: a grid per step, cells shaded by how summed they are."""
    history = ring_reduce_scatter(n)
    steps = len(history)
    fig, axes = plots.figure(ncols=steps, width_in=6.4, height_in=2.6)
    nv = plots.color("nvlink")
    for s, (ax, state) in enumerate(zip(axes, history)):
        ax.set_xlim(-0.6, n)
        ax.set_ylim(-0.3, n + 0.9)
        ax.set_axis_off()
        for r in range(n):
            for c in range(n):
                k = len(state[r][c])
                full = k == n
                _box(ax, c + 0.05, n - 1 - r + 0.05, 0.9, 0.9, str(k), color=nv,
                     fill=nv if full else BG, size=8, weight="bold" if full else "normal")
            if s == 0:
                ax.text(-0.15, n - 1 - r + 0.5, f"rank {r}", ha="right", va="center", fontsize=7.5, color=FG)
        ax.text(n / 2, n + 0.5, "start" if s == 0 else f"after step {s}", ha="center", va="center",
                fontsize=8.5, color=FG)
    cast(ConstrainedLayoutEngine, fig.get_layout_engine()).set(w_pad=0.02)   # plots.figure's engine
    fig.alt = (f"Reduce-scatter on a ring of {n} ranks: a grid of ranks (rows) by chunks (columns) per step; "
               f"each cell counts the ranks summed into it. After {n - 1} steps every rank holds one chunk "
               f"summed over all {n} ranks (filled), ready for the all-gather.")
    return fig


# --- chapter 8: UET's transport sublayers ---------------------------------------------------------
def draw_uet_layers():
    """UET's four transport sublayers between libfabric and an Ethernet/IP network."""
    fig, ax = _canvas(6.4, 3.5, 12.8, 7.0)
    uet = plots.color("uet")
    _box(ax, 0.4, 6.0, 12.0, 0.8, "application, collectives library (e.g. NCCL/RCCL), libfabric API",
         color=plots.color("grey"))
    layers = [("SES", "semantics: sends, writes, reads, atomics"),
              ("PDS", "packet delivery: modes, ACK/NACK, retransmission"),
              ("CMS", "congestion management: NSCC, RCCC, multipath")]
    for k, (name, what) in enumerate(layers):
        y = 4.8 - 1.15 * k
        _box(ax, 0.4, y, 1.6, 0.9, name, color=uet, weight="bold")
        _box(ax, 2.2, y, 7.2, 0.9, what, color=uet, size=8.5)
    _box(ax, 9.6, 2.5, 2.8, 3.2, "TSS\nsecurity:\nencryption,\nauthentication", color=uet, size=8.5)
    _box(ax, 0.4, 1.3, 12.0, 0.8, "UDP / IP network (ECN; switches may trim packets)", color=plots.color("grey"))
    _box(ax, 0.4, 0.2, 12.0, 0.8, "Ethernet link (optional: LLR, CBFC)",
         color=plots.color("ethernet"))
    fig.alt = ("UET's transport sits between the libfabric API above and UDP/IP over Ethernet below; it has "
               "four sublayers: SES (semantics), PDS (packet delivery), CMS (congestion management), and TSS "
               "(security) beside them.")
    return fig


# --- chapter 9: pluggable optics against co-packaged optics -----------------------------------------
def draw_cpo_package():
    """Where the electrical channel ends: a pluggable module at the front panel against optics on the package."""
    fig, ax = _canvas(6.4, 3.6, 12.8, 7.2)
    opt, cpo, grey = plots.color("optics"), plots.color("cpo"), plots.color("grey")
    _label(ax, 0.3, 6.8, "pluggable: the signal crosses the board to the front panel", ha="left", size=9)
    _box(ax, 0.3, 4.6, 12.2, 1.8, "", color=grey)
    _box(ax, 0.7, 4.95, 2.6, 1.1, "switch ASIC\n(SerDes)", color=FG, size=8.5)
    _arrow(ax, (3.3, 5.5), (7.6, 5.5), color=opt, both=True, lw=2.0)
    _label(ax, 5.45, 6.1, "host trace (tens of cm): loss", size=8)
    _box(ax, 7.6, 4.85, 3.0, 1.3, "module:\nDSP + optics", color=opt, size=8.5)
    _arrow(ax, (10.6, 5.5), (12.7, 5.5), color=opt, lw=1.4)
    _label(ax, 11.6, 5.85, "fibre", size=8)
    _label(ax, 0.3, 3.7, "co-packaged: optical engines beside the ASIC, fibre leaves the package",
           ha="left", size=9)
    _box(ax, 0.3, 0.5, 12.2, 2.8, "", color=grey)
    _box(ax, 1.4, 0.8, 6.8, 2.2, "", color=cpo, lw=1.2)
    _label(ax, 4.8, 2.75, "package substrate", size=8)
    _box(ax, 3.6, 1.2, 2.4, 1.2, "switch ASIC", color=FG, size=8.5)
    for x in (1.7, 6.3):
        _box(ax, x, 1.2, 1.6, 1.2, "optical\nengine", color=cpo, size=7.5)
    _arrow(ax, (8.0, 1.8), (12.7, 1.8), color=opt, lw=1.4)
    _label(ax, 10.2, 2.15, "fibre", size=8)
    _box(ax, 9.4, 0.7, 2.6, 0.75, "external laser", color=opt, size=7.5)
    _arrow(ax, (9.4, 1.05), (7.9, 1.35), color=opt, lw=1.0, dashed=True)
    _label(ax, 4.8, 0.2, "millimetres of electrical path: no DSP, less loss to drive", size=8)
    fig.alt = ("Top: a pluggable port, where the switch ASIC drives a long electrical trace across the board to "
               "a front-panel module holding a DSP and the optics. Bottom: co-packaged optics, where optical "
               "engines sit on the package beside the ASIC, fed by an external laser, and fibre leaves the "
               "package.")
    return fig



# --- chapter 1: a data-parallel step, with and without overlap ---------------------------------------
def draw_step_overlap():
    """One training step: forward, backward, gradient all-reduce; overlap hides part of the all-reduce."""
    fig, ax = _canvas(6.4, 2.6, 12.8, 5.2)
    comp, net = plots.color("compute"), plots.color("infiniband")
    rows = [("no overlap", 4.0, 1.6), ("overlap with backward", 2.2, 5.2 - 3.0)]
    for name, y, _ in rows:
        _label(ax, 0.2, y + 0.35, name, ha="left", size=8.5)
    # no overlap: forward 2.0, backward 4.0, then the all-reduce 3.6 units, all in sequence
    _box(ax, 3.2, 3.8, 2.0, 0.7, "forward", color=comp, size=8)
    _box(ax, 5.2, 3.8, 4.0, 0.7, "backward", color=comp, size=8)
    _box(ax, 9.2, 3.8, 3.4, 0.7, "all-reduce", color=net, size=8)
    # overlap: buckets of gradients start their all-reduce during the backward pass
    _box(ax, 3.2, 2.2, 2.0, 0.7, "forward", color=comp, size=8)
    _box(ax, 5.2, 2.2, 4.0, 0.7, "backward", color=comp, size=8)
    _box(ax, 6.6, 1.4, 3.4, 0.7, "all-reduce", color=net, size=8)
    _arrow(ax, (10.0, 1.05), (12.6, 1.05), color=FG, both=True, lw=1.0)
    _label(ax, 11.3, 0.6, "time saved", size=8)
    _arrow(ax, (9.2, 1.05), (10.0, 1.05), color=net, both=True, lw=1.0)
    _label(ax, 9.4, 0.6, "exposed", size=8)
    _label(ax, 8.0, 5.0, "the step ends when the last gradient is reduced", size=8.5)
    fig.alt = ("Two timelines of one data-parallel training step. Without overlap, forward, backward and the "
               "gradient all-reduce run one after another. With overlap, the all-reduce starts during the "
               "backward pass, and only the part that outlasts it is exposed, so the step ends sooner.")
    return fig


# --- chapter 2: packets pipelined over store-and-forward hops ------------------------------------------
def pipeline_schedule(n_packets: int, hops: int) -> list[tuple[int, int, int]]:
    """``(packet, hop, start slot)`` for equal store-and-forward hops with no propagation delay: packet
    ``k`` (from 0) is serialized on hop ``h`` during slot ``k + h``, so the last bit arrives after
    ``n_packets + hops - 1`` slots of one packet's serialization."""
    n_packets = validate.integer("n_packets", n_packets, minimum=1, maximum=12)
    hops = validate.integer("hops", hops, minimum=1, maximum=8)
    return [(k, h, k + h) for h in range(hops) for k in range(n_packets)]


def draw_pipeline(n_packets: int = 4, hops: int = 3):
    """Time-space picture of :func:`pipeline_schedule`: one row per hop, one bar per packet."""
    schedule = pipeline_schedule(n_packets, hops)
    total = n_packets + hops - 1
    fig, ax = plots.figure(width_in=6.4, height_in=2.4)
    colours = [plots.CYCLE[k % len(plots.CYCLE)] for k in range(n_packets)]
    from matplotlib.colors import to_rgba

    for k, h, slot in schedule:
        ax.barh(hops - 1 - h, 0.92, left=slot + 0.04, height=0.6, facecolor=to_rgba(colours[k], 0.3),
                edgecolor=colours[k], linewidth=1.5)
        ax.text(slot + 0.5, hops - 1 - h, f"P{k + 1}", ha="center", va="center", fontsize=8, color=FG)
    ax.set_yticks(range(hops), [f"hop {hops - h}" for h in range(hops)])
    ax.set_xticks(range(total + 1))
    ax.set_xlim(0, total + 0.2)
    ax.set_xlabel("time, in serializations of one packet (8P/B)")
    ax.set_title(f"{n_packets} packets over {hops} hops: {n_packets} + {hops} - 1 = {total} serializations",
                 fontsize=9)
    ax.grid(axis="y", visible=False)
    fig.alt = (f"Time-space diagram of {n_packets} packets crossing {hops} store-and-forward hops: each hop "
               f"forwards a packet once it has all of it, so the packets follow one serialization apart and "
               f"the last arrives after {total} serialization times.")
    return fig


# --- chapter 3: the kernel path against RDMA --------------------------------------------------------------
def draw_host_paths():
    """Where a message goes on each side: through the kernel's socket and TCP/IP, or straight to the NIC."""
    fig, ax = _canvas(6.4, 3.0, 12.8, 6.0)
    tcp, rdma, grey = plots.color("tcp"), plots.color("rdma"), plots.color("grey")
    for x0, title in ((0.2, "kernel TCP"), (6.6, "RDMA")):
        _label(ax, x0 + 3.0, 5.7, title, size=9.5)
        _box(ax, x0, 4.4, 6.0, 0.9, "", color=grey)
        _label(ax, x0 + 0.15, 4.85, "user", ha="left", size=7.5)
        _box(ax, x0, 2.2, 6.0, 1.9, "", color=grey)
        _label(ax, x0 + 0.15, 3.85, "kernel", ha="left", size=7.5)
        _box(ax, x0, 0.3, 6.0, 1.5, "", color=grey)
        _label(ax, x0 + 0.15, 1.55, "NIC", ha="left", size=7.5)
    _box(ax, 1.6, 4.55, 3.2, 0.6, "app buffer: send()", color=tcp, size=8)
    _box(ax, 1.6, 2.45, 3.2, 1.2, "socket copy,\nTCP/IP, interrupts", color=tcp, size=8)
    _box(ax, 1.6, 0.55, 3.2, 0.9, "DMA, wire", color=tcp, size=8)
    _arrow(ax, (3.2, 4.55), (3.2, 3.65), color=tcp)
    _arrow(ax, (3.2, 2.45), (3.2, 1.45), color=tcp)
    _box(ax, 8.0, 4.55, 3.2, 0.6, "registered buffer", color=rdma, size=8)
    _label(ax, 9.0, 3.15, "no kernel on the data path:\npost a work request, ring the doorbell,\npoll the completion", size=7.5)
    _box(ax, 8.0, 0.55, 3.2, 0.9, "NIC DMA, wire", color=rdma, size=8)
    _arrow(ax, (11.4, 4.85), (11.4, 1.0), color=rdma, lw=1.8)
    fig.alt = ("Two host stacks side by side. Kernel TCP: the application's send() copies the data into the "
               "kernel, which runs TCP/IP and hands it to the NIC. RDMA: the application posts a work request "
               "and the NIC reads the registered buffer directly, with no kernel on the data path.")
    return fig


# --- chapter 7: scale-up domain and scale-out fabric ----------------------------------------------------
def draw_scale_up_out(gpus: int = 8):
    """GPUs joined all-to-all through NVLink switches inside a domain; one NIC per GPU to the fabric."""
    gpus = validate.integer("gpus", gpus, minimum=2, maximum=12)
    fig, ax = _canvas(6.4, 3.2, 12.8, 6.4)
    nv, ib = plots.color("nvlink"), plots.color("infiniband")
    _box(ax, 0.2, 2.3, 12.4, 3.9, "", color=nv, lw=1.2)
    _label(ax, 6.4, 5.9, "scale-up domain: any GPU reaches any other through the NVLink switches", size=8.5)
    width = 12.0 / gpus
    for k in range(gpus):
        x = 0.4 + k * width
        _box(ax, x + 0.1, 3.0, width - 0.2, 0.7, f"GPU {k + 1}", color=FG, size=7)
        for sx in (3.0, 7.4):
            ax.plot([x + width / 2, sx + 1.2], [3.7, 4.55], color=nv, linewidth=0.8)
        ax.plot([x + width / 2, x + width / 2], [3.0, 1.6], color=ib, linewidth=1.2)
        _box(ax, x + 0.25, 1.25, width - 0.5, 0.35, "", color=ib, lw=1.0)
    for sx in (3.0, 7.4):
        _box(ax, sx, 4.55, 2.4, 0.8, "NVLink switch", color=nv, size=8)
    _box(ax, 0.2, 0.1, 12.4, 0.8, "one NIC per GPU into the scale-out fabric (InfiniBand or Ethernet) "
         "between domains", color=ib, size=8)
    for k in range(gpus):
        x = 0.4 + k * width + width / 2
        ax.plot([x, x], [1.25, 0.9], color=ib, linewidth=1.2)
    fig.alt = (f"A scale-up domain of {gpus} GPUs, each wired to NVLink switches so that any GPU reaches any "
               "other inside the domain; below, each GPU also has its own NIC into the scale-out fabric that "
               "joins domains at lower bandwidth.")
    return fig


# --- chapter 10: two sites and the data in flight between them -------------------------------------------
def draw_two_sites():
    """Two datacenters joined by long-haul fibre: what is in flight fills the pipe for a round trip."""
    fig, ax = _canvas(6.4, 2.4, 12.8, 4.8)
    ib, opt = plots.color("infiniband"), plots.color("optics")
    for x, name in ((0.2, "site A"), (9.8, "site B")):
        _box(ax, x, 0.9, 2.8, 2.8, "", color=ib)
        _label(ax, x + 1.4, 3.35, name, size=9)
        for row in range(2):
            for col in range(3):
                _box(ax, x + 0.3 + col * 0.8, 1.2 + row * 0.9, 0.6, 0.6, "", color=plots.color("compute"), lw=1.0)
    _arrow(ax, (3.0, 2.6), (9.8, 2.6), color=opt, lw=2.0)
    _arrow(ax, (9.8, 1.9), (3.0, 1.9), color=opt, lw=1.0, dashed=True)
    for i in range(9):
        _box(ax, 3.4 + i * 0.7, 2.75, 0.5, 0.35, "", color=opt, fill=opt, lw=0.8)
    _label(ax, 6.4, 3.6, "bytes in flight = rate x round-trip time", size=8.5)
    _label(ax, 6.4, 1.5, "ACKs and congestion signals: a round trip late", size=8)
    _label(ax, 6.4, 0.5, "fibre: about 5 µs per km each way", size=8)
    fig.alt = ("Two datacenters joined by a long-haul fibre link. The link carries rate times round-trip time of "
               "data in flight; acknowledgements and congestion signals come back a round trip late.")
    return fig


# --- chapter 0: how a lab is worked ---------------------------------------------------------------------
def draw_lab_loop():
    """The loop of every lab: predict on paper, run, explain the gap, then the checked exercise."""
    fig, ax = _canvas(6.4, 1.9, 12.8, 3.8)
    steps = [("predict first", "on paper"), ("run the cell", "netlab computes"),
             ("explain the gap", "which term won?"), ("exercise", "checked answer"),
             ("solution", "opened last")]
    colours = [plots.color("grey"), plots.color("infiniband"), plots.color("vermillion"),
               plots.color("green"), plots.color("grey")]
    for k, ((head, sub), colour) in enumerate(zip(steps, colours)):
        x = 0.2 + k * 2.55
        _box(ax, x, 1.4, 2.3, 1.3, "", color=colour)
        _label(ax, x + 1.15, 2.25, head, size=8)
        _label(ax, x + 1.15, 1.8, sub, size=7.5)
        if k:
            _arrow(ax, (x - 0.25, 2.05), (x, 2.05), color=FG)
    _arrow(ax, (5.3, 1.4), (0.9, 1.4), color=FG, dashed=True, lw=1.0, style="-|>")
    _label(ax, 3.1, 0.8, "a surprise: predict again", size=8)
    fig.alt = ("The loop of every lab: predict first on paper, run the cell, explain the gap between the "
               "prediction and the result, then try the checked exercise and open its solution last; a "
               "surprise sends you back to predict again.")
    return fig


# --- chapter 11: what the designer composes ------------------------------------------------------------
def draw_designer():
    """The capstone designer: a brief in, the chapters' models in sequence, a step time and costs out."""
    fig, ax = _canvas(6.4, 3.0, 12.8, 6.0)
    grey = plots.color("grey")
    _box(ax, 0.2, 2.2, 2.2, 1.6, "brief:\nmodel, GPUs,\nbudget, power", color=grey, size=8)
    models = [("memory, compute (ch1)", plots.color("compute")),
              ("TP inside a domain (ch7)", plots.color("nvlink")),
              ("DP across domains (ch6, 7)", plots.color("infiniband")),
              ("DP buckets behind backward (ch7)", plots.color("infiniband")),
              ("NIC share: ECMP, spraying (ch5)", plots.color("ethernet")),
              ("switches, optics, rails (ch5, 9)", plots.color("optics")),
              ("facility power (ch9)", plots.color("vermillion")),
              ("interruptions, restarts (ch9)", plots.color("vermillion"))]
    for k, (name, colour) in enumerate(models):
        y = 5.35 - 0.72 * k
        _box(ax, 3.4, y, 5.0, 0.56, name, color=colour, size=7.5)
        _arrow(ax, (2.4, 3.0), (3.4, y + 0.28), color=grey, lw=0.8)
        ax.plot([8.4, 9.6], [y + 0.28, 3.0], color=grey, linewidth=0.8)
    _box(ax, 9.6, 1.8, 3.0, 2.4, "step time,\ngoodput,\ntraining days,\ntokens per joule,\ncost", color=FG, size=8)
    fig.alt = ("The capstone designer: a brief (model, GPU count, budget, power) feeds the models of the earlier "
               "chapters in turn (memory and compute, tensor parallelism in a domain, data parallelism across "
               "domains, its buckets hidden behind the backward pass, the NIC share under ECMP or spraying, "
               "switches, optics and rail wirings, facility power, interruptions and restarts), which give the "
               "step time, goodput, training days, tokens per joule and cost.")
    return fig

#: Name -> the function that draws the diagram.
DIAGRAMS = {
    "lab-loop": draw_lab_loop,
    "designer": draw_designer,
    "step-overlap": draw_step_overlap,
    "store-and-forward-pipeline": draw_pipeline,
    "host-paths": draw_host_paths,
    "scale-up-scale-out": draw_scale_up_out,
    "two-sites": draw_two_sites,
    "incast-pause": draw_incast_pause,
    "leaf-spine": draw_leaf_spine,
    "ring-reduce-scatter": draw_ring_allreduce,
    "uet-sublayers": draw_uet_layers,
    "cpo-package": draw_cpo_package,
}


def render(name: str) -> str:
    """The themed SVG of one diagram of :data:`DIAGRAMS`."""
    validate.choice("name", name, DIAGRAMS)
    return plots.figure_to_svg(DIAGRAMS[name]()) + "\n"


def write_all(directory: str | Path) -> list[Path]:
    """Write every diagram as ``<name>.svg`` into ``directory``; returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in DIAGRAMS:
        path = directory / f"{name}.svg"
        path.write_text(render(name), encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":  # python -m netlab.diagrams [DIR]: regenerate book/figures
    import sys

    for p in write_all(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "book" / "figures"):
        print(p)
