"""Figures and readouts for chapter 7's explorers: the two tiers of a hierarchical all-reduce, and
decode latency against tokens per joule.

Each explorer of lab 7 is a pair of functions of its controls, a ``draw_*`` that returns a
figure and a ``*_readout`` that returns one plain sentence; the models are
:func:`netlab.nvlink.domains.hierarchical_all_reduce` and :func:`netlab.nvlink.inference.decode_step`.
Controls are display names ("NVLink 5", "800G", "Llama 3 70B", "DGX B200"); the
dictionaries below map them to registry keys and model names.
"""

from __future__ import annotations

from netlab import plots, specs, validate
from netlab.nvlink import inference, domains as scaleup
from netlab.units import GB, format_time

WORLD = 576             #: GPUs in the hierarchical all-reduce of :func:`hierarchical_split`
#: The scale-up domain sizes :func:`hierarchical_split` compares.
DOMAIN_SIZES = (1, 2, 4, 8, 16, 36, 72, 144)
SCALEUP_LINKS = {"NVLink 4": "nvlink.4.per_gpu", "NVLink 5": "nvlink.5.per_gpu"}
SCALEOUT_PORTS = {"400G": "ra.hgx.scaleout_per_gpu", "800G": "ra.hgx_b300.scaleout_per_gpu"}
SYSTEMS = {"pcie-h100": "PCIe 5.0 mesh (H100)", "dgx-h100": "DGX H100", "dgx-b200": "DGX B200",
           "gb200-nvl72": "GB200 NVL72"}
SYSTEM_COLORS = {"pcie-h100": plots.color("pcie"), "dgx-h100": plots.color("nvlink"),
                 "dgx-b200": plots.color("sky"), "gb200-nvl72": plots.color("green")}
MODEL_NAMES = {"llama3-70b": "Llama 3 70B", "llama3.1-405b": "Llama 3.1 405B"}
#: The batch sizes :func:`decode_curve` tries.
BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


def hierarchical_split(link: str, port: str, n_bytes: float) -> list[scaleup.HierarchicalAllReduce]:
    """The hierarchical all-reduce of ``n_bytes`` over :data:`WORLD` GPUs for each of :data:`DOMAIN_SIZES`."""
    validate.choice("link", link, SCALEUP_LINKS)
    validate.choice("port", port, SCALEOUT_PORTS)
    n_bytes = validate.positive("n_bytes", n_bytes)
    # An 8-GPU domain with the chosen links (its power does not enter an all-reduce's time).
    dom = scaleup.scaleup_domain(8, specs.value(SCALEUP_LINKS[link]), specs.value(SCALEOUT_PORTS[port]),
                                 specs.value("dgx.b200.power"))
    return [scaleup.hierarchical_all_reduce(n_bytes, WORLD, dom, domain_size=d) for d in DOMAIN_SIZES]


def draw_hierarchical(link: str, port: str, n_bytes: float):
    """Stacked bars: time inside domains (NVLink) and across them (network), by domain size."""
    rows = hierarchical_split(link, port, n_bytes)
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    inside, across = "inside domains (NVLink)", "across domains (network)"
    plots.bar_breakdown(ax, [str(d) for d in DOMAIN_SIZES],
                        {inside: [r.intra_s * 1e3 for r in rows], across: [r.inter_s * 1e3 for r in rows]},
                        colors={inside: plots.color("nvlink"), across: plots.color("infiniband")},
                        horizontal=False)
    # NCCL overlaps the tiers (rings through every NIC at once, pipelined chunks): the slower
    # tier sets the time, not the sum of the bars.
    ax.plot([str(d) for d in DOMAIN_SIZES], [r.pipelined_s * 1e3 for r in rows], linestyle="none",
            marker="D", markersize=5, color=plots.color("black"),
            label="tiers overlapped (slower tier)")
    ax.legend(fontsize="small")
    ax.set_xlabel("GPUs per NVLink domain, d")
    ax.set_ylabel("all-reduce time (ms)")
    ratio = specs.value(SCALEUP_LINKS[link]) / specs.value(SCALEOUT_PORTS[port])
    d_star = scaleup.crossover_domain_size(ratio, WORLD)
    ax.set_title(f"{n_bytes / GB:g} GB over {WORLD} GPUs, {link} + {port}: d* = {d_star:.1f}")
    return fig


def hierarchical_readout(link: str, port: str, n_bytes: float) -> str:
    """Two sentences: the time and bottleneck at d = 8 and d = 72, phases in series and overlapped."""
    rows = dict(zip(DOMAIN_SIZES, hierarchical_split(link, port, n_bytes)))
    return (f"With 8 GPUs per domain the all-reduce takes {format_time(rows[8].time_s)} with the tiers one "
            f"after the other, {format_time(rows[8].pipelined_s)} overlapped; the {rows[8].bottleneck} tier "
            f"is the bottleneck. With 72: {format_time(rows[72].time_s)} in series, "
            f"{format_time(rows[72].pipelined_s)} overlapped ({rows[72].bottleneck} tier), so 72-GPU domains "
            f"are {rows[8].time_s / rows[72].time_s:.1f}x faster in series but "
            f"{rows[8].pipelined_s / rows[72].pipelined_s:.1f}x overlapped, as NCCL runs it.")


def decode_curve(model_name: str, system: str, tp: int) -> list[inference.DecodeStep]:
    """Decode steps of ``model_name`` on ``system`` at TP ``tp`` for each of :data:`BATCHES` that fits."""
    validate.choice("system", system, SYSTEMS)
    validate.key("model_name", model_name, inference.MODELS)
    shape = inference.model(model_name)
    domain = scaleup.preset(system)
    steps = [inference.decode_step(shape, domain, tp, b) for b in BATCHES]
    return [s for s in steps if s.fits]


def _front(model_name: str, tp: int):
    everything = [s for system in SYSTEMS for s in decode_curve(model_name, system, tp)]
    front = inference.pareto_front([s.token_latency_s for s in everything],
                                   [s.tokens_per_joule for s in everything])
    return everything, [everything[i] for i in front]


def draw_pareto(model_name: str, tp: int):
    """Log-log curves of tokens per joule against time per token, one per system, Pareto front ringed."""
    validate.key("model_name", model_name, inference.MODELS)
    fig, ax = plots.figure(width_in=6.4, height_in=3.6)
    for system, colour in SYSTEM_COLORS.items():
        steps = decode_curve(model_name, system, tp)
        if steps:
            crossing = " (crosses domain)" if steps[0].crosses_domain else ""
            ax.plot([s.token_latency_s * 1e3 for s in steps], [s.tokens_per_joule for s in steps],
                    ".-", color=colour, label=SYSTEMS[system] + crossing)
    _, front = _front(model_name, tp)
    ax.plot([s.token_latency_s * 1e3 for s in front], [s.tokens_per_joule for s in front], "o",
            markerfacecolor="none", markeredgecolor="black", markersize=8, label="Pareto front")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ticks = [2, 3, 5, 10, 20, 50, 100]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.minorticks_off()
    ax.set_xlabel("time per output token (ms)")
    ax.set_ylabel("tokens per joule")
    ax.set_title(f"{MODEL_NAMES[model_name]}, TP {tp}, batch {BATCHES[0]}-{BATCHES[-1]}")
    ax.legend(loc="lower right")
    return fig


def pareto_readout(model_name: str, tp: int) -> str:
    """One sentence: which systems reach the Pareto front, and which cannot hold the weights."""
    validate.key("model_name", model_name, inference.MODELS)
    _, front = _front(model_name, tp)
    on_front = [SYSTEMS[s] for s in SYSTEMS if any(p.system == s for p in front)]
    missing = [SYSTEMS[s] for s in SYSTEMS if not decode_curve(model_name, s, tp)]
    text = "On the Pareto front: " + ", ".join(on_front) + "."
    return text + (f" The weights do not fit on {', '.join(missing)}." if missing else "")
