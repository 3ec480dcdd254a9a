"""Figures and readouts for chapter 7's explorers: the two tiers of a hierarchical all-reduce, and
decode latency against tokens per joule.

Each explorer of lab 7 is a pair of functions of its controls, a ``draw_*`` that returns a
figure and a ``*_readout`` that returns one plain sentence; the models are
:func:`netlab.nvlink.domains.hierarchical_all_reduce` and :func:`netlab.nvlink.inference.decode_step`.
Controls are display names ("NVLink 5", "800G", "Llama 3 70B", "DGX B200"); the
dictionaries below map them to registry keys and model names.
"""

from __future__ import annotations

import functools

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


# --- overlap of the data-parallel all-reduce with the backward pass (netlab.training.overlap) -------

#: Gradient bytes of the data-parallel example (a 7-billion-parameter model in BF16).
OVERLAP_GRAD_BYTES = 14e9
#: Replicas of the data-parallel example.
OVERLAP_WORLD = 16
#: Bucket sizes the overlap explorer offers, in MiB (25 is PyTorch DDP's default).
BUCKETS_MIB = (1, 25, 400)
#: Backward-pass times the overlap explorer offers, in seconds.
BACKWARD_S = (0.5, 1.0)


@functools.lru_cache(maxsize=16)
def _overlap_example(bucket_mib: float, backward_s: float):
    from netlab.training import overlap
    return overlap.ddp_backward(OVERLAP_GRAD_BYTES, backward_s, OVERLAP_WORLD,
                                specs.value("nccl.tuner.step_latency.net.ring.simple"),
                                specs.value("nccl.ndr.busbw_per_nic"),
                                bucket_bytes=bucket_mib * 2**20)


def overlap_example(bucket_mib: float, backward_s: float):
    """The bucketed all-reduce of :data:`OVERLAP_GRAD_BYTES` over :data:`OVERLAP_WORLD` ranks.

    Each bucket is a ring all-reduce with NCCL's per-step network latency for the Simple protocol
    and the measured bus bandwidth of one 400 Gb/s NIC (registry ``nccl.ndr.busbw_per_nic``).
    """
    bucket_mib = validate.positive("bucket_mib", bucket_mib, maximum=1e6, why="a terabyte per bucket")
    backward_s = validate.positive("backward_s", backward_s)
    return _overlap_example(bucket_mib, backward_s)


def draw_overlap(bucket_mib: float, backward_s: float):
    """Gradients ready vs gradients all-reduced over time; the gap after the backward pass is exposed."""
    s = overlap_example(bucket_mib, backward_s)
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    # Staircases of bytes ready and bytes reduced; with many buckets every k-th step is drawn (the
    # curve is then smooth at the figure's resolution) and the last one always.
    stride = max(1, s.n_items // 200)
    keep = sorted(set(range(stride - 1, s.n_items, stride)) | {s.n_items - 1})
    cumulative, done = [], 0.0
    for b in s.item_bytes:
        done += b / GB
        cumulative.append(done)
    ready_x, ready_y, red_x, red_y = [0.0], [0.0], [0.0], [0.0]
    for j in keep:
        ready_x += [s.ready_s[j], s.ready_s[j]]
        ready_y += [ready_y[-1], cumulative[j]]
        red_x += [s.end_s[j], s.end_s[j]]
        red_y += [red_y[-1], cumulative[j]]
    ax.plot([0.0, s.compute_s], [0.0, done], color=plots.color("compute"), linestyle=":",
            label="gradients computed")
    ax.plot(ready_x, ready_y, color=plots.color("orange"), label="buckets ready")
    ax.plot(red_x, red_y, color=plots.color("infiniband"), label="buckets all-reduced")
    ax.axvline(s.compute_s, color=plots.color("black"), linewidth=0.8)
    if s.exposed_s > 0:
        ax.axvspan(s.compute_s, s.step_s, color=plots.color("vermillion"), alpha=0.15, label="exposed")
    ax.set_xlabel("time since the backward pass began (s)")
    ax.set_ylabel("gradients (GB)")
    ax.set_title(f"{s.n_items} buckets of {bucket_mib:g} MiB, backward {backward_s:g} s: "
                 f"{s.overlap_fraction:.0%} of the all-reduce hidden")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def overlap_readout(bucket_mib: float, backward_s: float) -> str:
    """One sentence: total and exposed communication, and what the step costs."""
    s = overlap_example(bucket_mib, backward_s)
    return (f"{s.n_items} buckets take {format_time(s.comm_s)} of all-reduce in all; "
            f"{format_time(s.exposed_s)} of it runs after the backward pass ({s.overlap_fraction:.0%} hidden), "
            f"so the step pays {format_time(s.step_s)} instead of {format_time(s.serial_s)} in series.")


# --- MoE dispatch as deployed (netlab.nvlink.moe.node_limited_dispatch) ------------------------------

#: Expert-parallel groups the dispatch explorer offers, in 8-GPU nodes.
EP_NODES = (8, 32)
#: The routing rules, each with its node limit M (None for no limit).
ROUTINGS = {"no node limit": None, "at most 4 nodes": 4}
#: Tokens per GPU in DeepSeek-V3's prefill and training dispatch, as DeepEP's tables test it.
DISPATCH_TOKENS = 4096


def dispatch_example(n_nodes: int, routing: str):
    """DeepSeek-V3's dispatch (256 experts, top-8, hidden 7168, FP8) over ``n_nodes`` H800 nodes."""
    from netlab.nvlink import moe
    validate.choice("routing", routing, ROUTINGS)
    return moe.node_limited_dispatch(DISPATCH_TOKENS, int(specs.value("deepseek_v3.d_model")),
                                     int(specs.value("deepseek_v3.top_k")),
                                     int(specs.value("deepseek_v3.routed_experts")), n_nodes,
                                     int(specs.value("dgx.n_gpus")), specs.value("deepseek_v3.nvlink_rate"),
                                     specs.value("deepseek_v3.ib_rate"), max_nodes=ROUTINGS[routing])


def draw_dispatch(n_nodes: int, routing: str):
    """Bars: network and NVLink time of one dispatch, one copy per expert vs one per node forwarded."""
    d = dispatch_example(n_nodes, routing)
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    labels = ["one copy per expert\n(direct)", "one copy per node,\nNVLink forwards"]
    net = [d.direct_rdma_s * 1e3, d.rdma_s * 1e3]
    nvl = [d.direct_nvlink_s * 1e3, d.nvlink_s * 1e3]
    x = [0.0, 1.0]
    ax.bar([v - 0.18 for v in x], net, width=0.36, color=plots.color("infiniband"), label="network (IB)")
    ax.bar([v + 0.18 for v in x], nvl, width=0.36, color=plots.color("nvlink"), label="NVLink")
    ax.set_xticks(x, labels)
    ax.set_ylabel("time per dispatch (ms)")
    ax.set_title(f"EP over {n_nodes} nodes, {routing}: {d.nodes_per_token:.2f} nodes per token")
    ax.legend(fontsize="small")
    return fig


def dispatch_readout(n_nodes: int, routing: str) -> str:
    """One sentence: the dedup factor and the time, against sending every copy directly."""
    d = dispatch_example(n_nodes, routing)
    return (f"A token reaches {d.nodes_per_token:.2f} nodes on average, so sending once per node cuts the network "
            f"bytes {d.dedup_factor:.2f}x; the dispatch takes {format_time(d.time_s)} ({d.bottleneck}-bound) "
            f"instead of {format_time(d.direct_s)}.")


# --- inference all-reduce as engines run it (netlab.nvlink.engines) -----------------------------------

ENGINE_SYSTEMS = {"dgx-h100": "DGX H100", "dgx-b200": "DGX B200"}
ENGINE_TPS = (2, 4, 8)
#: Message sizes the engine figure sweeps, bytes (1 KiB to 64 MiB).
ENGINE_SIZES = tuple(2.0 ** k for k in range(10, 27))


def draw_engine_all_reduce(tp: int, system: str = "dgx-h100"):
    """Log-log: one-shot, two-shot and NCCL's pick by message size; SGLang's measurements on 8 H100."""
    from netlab.nvlink import engines
    validate.choice("system", system, ENGINE_SYSTEMS)
    dom = scaleup.preset(system)
    rows = [engines.engine_all_reduce(s, tp, dom) for s in ENGINE_SIZES]
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    kib = [s / 1024 for s in ENGINE_SIZES]
    ax.plot(kib, [r.one_shot_s * 1e6 for r in rows], color=plots.color("green"), label="one-shot (model)")
    ax.plot(kib, [r.two_shot_s * 1e6 for r in rows], color=plots.color("sky"), label="two-shot (model)")
    ax.plot(kib, [r.nccl_s * 1e6 for r in rows], color=plots.color("black"), linestyle="--",
            label="NCCL's tuner, its pick")
    if system == "dgx-h100" and tp == 8:
        points = [(16, "nccl.alternative.custom_all_reduce.h100_tp8_16kib"),      # KiB (float32 counts x 4)
                  (128, "nccl.alternative.custom_all_reduce.h100_tp8_128kib"),
                  (1024, "serving.sglang_custom_all_reduce.h100_tp8_1mib"),
                  (2048, "serving.sglang_custom_all_reduce.h100_tp8_2mib"),
                  (4096, "serving.sglang_custom_all_reduce.h100_tp8_4mib")]
        ax.plot([p[0] for p in points], [specs.value(p[1]) * 1e6 for p in points], "o",
                color=plots.color("vermillion"), label="SGLang kernel, measured")
    ax.set_xscale("log")
    ax.set_yscale("log")
    # Plain tick labels: log axes would otherwise set every label as mathtext (slow to lay out).
    xticks = [1, 16, 256, 4096, 65536]
    ax.set_xticks(xticks, ["1 KiB", "16 KiB", "256 KiB", "4 MiB", "64 MiB"])
    yticks = [y for y in (5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if y <= 1.5 * max(r.nccl_s for r in rows) * 1e6
              or y <= 1.5 * max(r.one_shot_s for r in rows) * 1e6]
    ax.set_yticks(yticks, [str(y) for y in yticks])
    ax.minorticks_off()
    ax.set_xlabel("message size")
    ax.set_ylabel("all-reduce time (µs)")
    ax.set_title(f"TP {tp} on {ENGINE_SYSTEMS[system]}")
    ax.legend(fontsize="small", loc="upper left")
    return fig


def engine_readout(tp: int, system: str = "dgx-h100") -> str:
    """One sentence: the decode message (16 KiB) with each kernel, and where two-shot takes over."""
    from netlab.nvlink import engines
    validate.choice("system", system, ENGINE_SYSTEMS)
    dom = scaleup.preset(system)
    r = engines.engine_all_reduce(16384, tp, dom)
    cross = engines.one_two_shot_crossover_bytes(tp, dom.per_gpu_bps)
    where = "never (two GPUs)" if cross == float("inf") else f"above {cross / 1e3:.0f} KB"
    return (f"A 16 KiB decode all-reduce: one-shot {format_time(r.one_shot_s)}, two-shot {format_time(r.two_shot_s)}, "
            f"NCCL {format_time(r.nccl_s)} ({r.nccl_label}); two-shot beats one-shot {where}.")
