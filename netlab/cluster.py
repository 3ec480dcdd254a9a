"""Cluster: design an AI factory by composing the models of chapters 1, 5, 6, 7 and 9.

A design is a handful of choices: how many GPUs, which scale-up domain they sit
in (an 8-GPU NVLink node, an NVL72 rack, or a PCIe mesh), which switch builds the
scale-out fabric and how oversubscribed it is, how traffic is spread over its
paths (per-flow ECMP hashing, per-packet spraying, adaptive routing), which
optics connect it, and how the model is laid out (tensor, pipeline and data
parallelism). :func:`evaluate` turns a design and a workload into a step time,
its scaling efficiency, the training time, capital cost, facility power and
tokens per joule, by calling the chapters' own functions, never copies of them:

* memory and compute per step: :mod:`netlab.training.memory`, :mod:`netlab.training.parallelism` (chapter 1);
* tensor-parallel all-reduces inside a domain: :func:`netlab.nvlink.inference.tp_all_reduce_time` (chapter 7);
* the data-parallel gradient all-reduce across domains:
  :func:`netlab.nvlink.domains.hierarchical_all_reduce` (chapters 6-7), its two tiers overlapped as
  NCCL runs them (``pipelined_s``: the slower tier sets the time), with the scale-out
  rate reduced by the load-balancing scheme (:mod:`netlab.fabric.ecmp`, chapter 5) and by
  oversubscription; run bucket by bucket behind the backward pass as PyTorch DDP runs it, which
  sets how much of it the step waits for (:mod:`netlab.training.overlap`, chapter 7);
* the fabric's switches and transceivers: :func:`netlab.fabric.clos.for_switch` (chapter 5), or
  :func:`netlab.fabric.rails.size` for a rail-optimized or rail-only wiring (``Design.wiring``);
* its price: :func:`netlab.optics.costs.fabric_price` (the one price model chapters 5 and 11 share);
* facility power: :func:`netlab.optics.power.site_power` (chapter 9);
* interruptions, checkpoints and restarts: :func:`netlab.training.failures.checkpointing` (chapter 9).

Step time = compute + pipeline bubble + tensor-parallel + pipeline transfers + the
exposed part of the gradient all-reduce. That exposed part is derived, not assumed: the
gradients of a stage are final only in the backward pass of the replica's last micro-batch
(gradient accumulation: DDP's ``no_sync`` for the others), which takes
:data:`BACKWARD_SHARE` of that micro-batch's compute; DDP's buckets (``bucket_bytes``, default
25 MiB) are all-reduced one after another behind it, and what still runs when it ends is exposed. A synchronous job also stops at every interruption
(one every 11 hours on 4,608 GPUs at the Llama 3 run's rate per GPU), restarts, and redoes the
work since its last checkpoint: the *effective* step time is the step time over the goodput of
Daly's model at his optimum checkpoint interval, and the training days follow from it. Capital cost is a range, because the
prices behind it are street-price estimates (see the registry's ``cost.*``). Power is
nameplate (maximum) power: right for the facility envelope, an upper bound for energy
(an average draw of about 0.75 of it is a common assumption, fact sheet J7).

What it leaves out: the transport (lossless or lossy Ethernet, UET: chapters 4 and 8) and
sites (chapter 10) are not decisions here; the load balancing stands for the transport's
effect on the fabric. A check that a brief "meets" is only as firm as its margins:
:func:`robustness` re-runs a brief over PUE, bucket size, backward share and flows per GPU and
says which decisions hold.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math

from netlab import specs, sweep, validate
from netlab.collectives import nccl_tuner
from netlab.fabric import ecmp, rails, clos as fabric
from netlab.nvlink import inference, domains as scaleup
from netlab.training import failures, overlap as overlap_mod, parallelism
from netlab.optics import costs, power
from netlab.optics import cpo as optics_mod
from netlab.units import format_power, format_time

LOAD_BALANCING = ("ecmp", "spraying", "adaptive")
TRAINING_BYTES_PER_PARAM = 16.0   # mixed-precision Adam, ZeRO accounting (chapter 1)
MTU_BYTES = 4096
#: Share of a training step's compute spent in the backward pass, 2/3.
#: Of the 6ND FLOPs of a step the forward pass takes 2ND and the backward pass twice that, 4ND
#: (gradients with respect to both the activations and the weights): Kaplan et al.'s count, chapter 1.
BACKWARD_SHARE = 2.0 / 3.0


@dataclass(frozen=True)
class Workload:
    """A training job: model shape, tokens per optimizer step, and tokens to train on."""

    n_params: float
    n_layers: int
    hidden: int
    seq_len: int
    tokens_per_step: float
    n_tokens: float
    micro_batch: int = 1

    def __post_init__(self):
        # at most 1e14: 2 bytes of gradient each stay within a petabyte, what the bucket model takes
        validate.positive("n_params", self.n_params, maximum=1e14, why="a hundred trillion parameters")
        validate.integer("n_layers", self.n_layers, minimum=1)
        validate.integer("hidden", self.hidden, minimum=1)
        validate.integer("seq_len", self.seq_len, minimum=1)
        validate.positive("tokens_per_step", self.tokens_per_step)
        validate.positive("n_tokens", self.n_tokens)
        validate.integer("micro_batch", self.micro_batch, minimum=1)
        if self.tokens_per_step < self.seq_len:
            raise ValueError(f"tokens_per_step must hold at least one sequence of seq_len ({self.seq_len}) "
                             f"tokens, got {self.tokens_per_step}")


@dataclass(frozen=True)
class Design:
    """The choices an architect makes. Names are keys of the chapters' tables."""

    name: str
    n_gpus: int
    domain: str = "dgx-h100"            # netlab.nvlink.domains.PRESETS
    switch: str = "quantum2"            # netlab.fabric.clos.SWITCHES
    oversubscription: float = 1.0
    load_balancing: str = "adaptive"    # LOAD_BALANCING
    optics: str = "dsp_pluggable"       # netlab.optics.cpo.OPTIONS
    tp: int = 8
    pp: int = 1
    flows_per_gpu: int = 1              # flows each GPU's NIC hashes onto the fabric (NCCL channels x QPs)
    wiring: str = "fat_tree"            # netlab.fabric.rails.KINDS: fat_tree, rail_optimized, rail_only

    def __post_init__(self):
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {type(self.name).__name__}")
        validate.integer("n_gpus", self.n_gpus, minimum=1, maximum=validate.MAX_COUNT)
        validate.choice("domain", self.domain, scaleup.PRESETS)
        validate.choice("switch", self.switch, fabric.SWITCHES)
        validate.in_range("oversubscription", self.oversubscription, 1.0, 1000.0)
        validate.choice("load_balancing", self.load_balancing, LOAD_BALANCING)
        validate.choice("optics", self.optics, optics_mod.OPTIONS)
        validate.integer("tp", self.tp, minimum=1)
        validate.integer("pp", self.pp, minimum=1)
        validate.integer("flows_per_gpu", self.flows_per_gpu, minimum=1, maximum=64)
        validate.choice("wiring", self.wiring, rails.KINDS)
        if self.wiring != "fat_tree" and self.oversubscription != 1.0:
            raise ValueError(f"oversubscription must be 1 for a {rails.KIND_NAMES[self.wiring]} wiring "
                             f"(netlab sizes rails non-blocking), got {self.oversubscription:g}")


@dataclass(frozen=True)
class Evaluation:
    """What a design achieves on a workload. Times are per optimizer step unless named."""

    design: Design
    dp: int
    fits: bool                    # training state of one GPU's shard fits in its memory
    state_bytes_per_gpu: float
    compute_s: float
    bubble_s: float
    tp_s: float
    pp_s: float
    dp_s: float
    step_s: float
    efficiency: float             # compute_s / step_s
    scaleout_efficiency: float    # share of the NIC rate a collective gets from the fabric
    training_days: float
    fabric: fabric.Fabric
    site: power.SitePower
    capex_low_usd: float
    capex_high_usd: float
    network_capex_low_usd: float
    network_capex_high_usd: float
    tokens_per_s: float
    tokens_per_joule: float       # training tokens per joule of facility energy
    dp_exposed_s: float           # the part of dp_s still running when the backward pass ends
    overlap: float                # share of dp_s hidden behind the backward pass, 1 - dp_exposed_s / dp_s
    n_buckets: int                # DDP buckets the gradients are all-reduced in
    backward_window_s: float      # the backward pass they hide behind (the last micro-batch's)
    goodput: float                # share of wall-clock time on kept work (interruptions, checkpoints)
    mtbf_s: float                 # the job's mean time between interruptions
    checkpoint_interval_s: float  # work between checkpoints (Daly's optimum)
    effective_step_s: float       # step_s / goodput: what a step costs once failures are counted
    bucket_algorithm: str = ""    # how a full bucket is all-reduced: "ring (netlab)", "tree/LL128", ... (bucket_all_reduce)

    def __repr__(self) -> str:
        return (f"Evaluation({self.design.name}: step {format_time(self.step_s)} "
                f"(compute {format_time(self.compute_s)}, bubble {format_time(self.bubble_s)}, "
                f"TP {format_time(self.tp_s)}, PP {format_time(self.pp_s)}, DP {format_time(self.dp_exposed_s)} exposed "
                f"of {format_time(self.dp_s)}, {self.overlap:.0%} hidden); "
                f"efficiency {self.efficiency:.0%}; goodput {self.goodput:.1%}, {format_time(self.effective_step_s)} "
                f"per step with failures; {self.training_days:.1f} days; "
                f"{format_power(self.site.facility_w)} facility; capex ${self.capex_low_usd / 1e9:.2f}-"
                f"{self.capex_high_usd / 1e9:.2f} B; {self.tokens_per_joule:.3g} tokens/J"
                + ("" if self.fits else "; DOES NOT FIT") + ")")


def scaleout_efficiency(load_balancing: str, flows_per_leaf: int, uplinks_per_leaf: int,
                        bytes_per_flow: float) -> float:
    """Share of the NIC rate a synchronous collective gets across the leaf uplinks.

    ``ecmp``: per-flow hashing; the collective waits for the busiest uplink, which holds
    ``E[max]`` flows where an even split gives ``flows / uplinks``
    (:func:`netlab.fabric.ecmp.ecmp_collisions`). ``spraying``:
    packets spread at random, ``1 / spraying_slowdown`` (:func:`netlab.fabric.ecmp.spraying_slowdown`).
    ``adaptive``: the vendor-claimed 95 % effective throughput of adaptive routing with
    telemetry (registry ``fabric.claim.spectrum_x_throughput``, a press-reported claim).
    """
    validate.choice("load_balancing", load_balancing, LOAD_BALANCING)
    flows_per_leaf = validate.integer("flows_per_leaf", flows_per_leaf, minimum=1, maximum=ecmp.MAX_BALLS)
    uplinks_per_leaf = validate.integer("uplinks_per_leaf", uplinks_per_leaf, minimum=1, maximum=ecmp.MAX_BINS)
    bytes_per_flow = validate.positive("bytes_per_flow", bytes_per_flow)
    if load_balancing == "adaptive":
        return specs.value("fabric.claim.spectrum_x_throughput")
    if load_balancing == "ecmp":
        # The busiest uplink carries E[max] whole flows where an even split of the bytes would
        # carry flows / uplinks; the collective runs at that ratio of the even split. (Not the
        # integer ideal ceil(flows / uplinks): the 1 / oversubscription factor in evaluate
        # already assumes a fractional, even split.)
        collisions = ecmp.ecmp_collisions(flows_per_leaf, uplinks_per_leaf)
        return max(1.0, flows_per_leaf / uplinks_per_leaf) / collisions.expected_max_load
    packets = max(1, math.ceil(bytes_per_flow / MTU_BYTES))
    return 1.0 / ecmp.spraying_slowdown(flows_per_leaf, uplinks_per_leaf, packets)


def _gpu_price_range(domain: str) -> tuple[float, float]:
    """Price per GPU, server or rack share included (low, high), from the registry."""
    if domain in ("dgx-h100", "pcie-h100"):
        per_gpu = specs.value("cost.dgx_h100.price") / 8
        return per_gpu, per_gpu
    if domain == "gb200-nvl72":
        n = specs.value("nvl72.n_gpus")
        return specs.value("cost.gb200_nvl72.price_low") / n, specs.value("cost.gb200_nvl72.price_high") / n
    raise ValueError(f"domain {domain!r} has no sourced price; choose one of dgx-h100, pcie-h100, gb200-nvl72")


def evaluate(design: Design, workload: Workload, mfu: float | None = None, pue: float | None = None,
             bucket_bytes: float | None = None, backward_share: float | None = None,
             checkpoint_s: float | None = None, restart_s: float | None = None,
             with_failures: bool = True) -> Evaluation:
    """Step time, efficiency, training time, cost, power and tokens per joule of a design.

    ``mfu`` defaults to the registry assumption ``assume.mfu``; ``pue`` to the 2023
    industry average ``power.pue.industry_2023``. The share of the gradient all-reduce hidden
    behind the backward pass is derived (:func:`gradient_overlap`): ``bucket_bytes`` is DDP's
    bucket size (default 25 MiB, registry ``pytorch.ddp.bucket_cap``), ``backward_share`` the
    backward pass's share of the compute (default :data:`BACKWARD_SHARE`, 2/3).
    ``checkpoint_s`` and ``restart_s``
    default to ``assume.training.*``; interruptions come at the Llama 3 run's rate per GPU
    (:mod:`netlab.training.failures`), and ``with_failures=False`` leaves them out.
    """
    if not isinstance(design, Design):
        raise TypeError(f"design must be a Design, got {type(design).__name__}")
    if not isinstance(workload, Workload):
        raise TypeError(f"workload must be a Workload, got {type(workload).__name__}")
    mfu = specs.value("assume.mfu") if mfu is None else validate.in_range("mfu", mfu, 0.0, 1.0, low_open=True)
    pue = specs.value("power.pue.industry_2023") if pue is None else validate.in_range("pue", pue, 1.0, 5.0)
    backward_share = BACKWARD_SHARE if backward_share is None else validate.in_range(
        "backward_share", backward_share, 0.0, 1.0, low_open=True)
    if bucket_bytes is not None:
        validate.positive("bucket_bytes", bucket_bytes)
    with_failures = validate.boolean("with_failures", with_failures)
    n_gpus = validate.integer("n_gpus", design.n_gpus, minimum=1)
    tp = validate.integer("tp", design.tp, minimum=1)
    pp = validate.integer("pp", design.pp, minimum=1)
    validate.choice("load_balancing", design.load_balancing, LOAD_BALANCING)
    domain = scaleup.preset(design.domain)
    if domain.n_gpus % tp:
        raise ValueError(f"tp must divide the domain size {domain.n_gpus}, got {tp}")
    if n_gpus % (tp * pp) or n_gpus % domain.n_gpus:
        raise ValueError(f"n_gpus must be a multiple of tp * pp ({tp * pp}) and of the domain size "
                         f"({domain.n_gpus}), got {n_gpus}")
    dp = n_gpus // (tp * pp)
    sequences = workload.tokens_per_step / workload.seq_len
    if sequences % (dp * workload.micro_batch):
        raise ValueError(f"tokens_per_step must be a multiple of dp x seq_len x micro_batch "
                         f"({dp * workload.seq_len * workload.micro_batch}), got {workload.tokens_per_step}")
    n_micro = int(sequences // (dp * workload.micro_batch))

    gpu = domain.gpu
    state_bytes = workload.n_params * TRAINING_BYTES_PER_PARAM / (tp * pp)
    fits = state_bytes <= specs.value(f"gpu.{gpu}.memory")
    peak = specs.value(f"gpu.{gpu}.bf16_dense")
    compute_s = parallelism.training_flops(workload.n_params, workload.tokens_per_step) / (n_gpus * peak * mfu)
    bubble_s = compute_s * (pp - 1) / n_micro

    traffic = parallelism.step_traffic(workload.n_params, workload.n_layers, workload.hidden, workload.seq_len,
                                       workload.micro_batch, n_micro, dp=dp, tp=tp, pp=pp)
    activation_bytes = workload.micro_batch * workload.seq_len * workload.hidden * 2.0
    n_tp_reduces = 4 * workload.n_layers / pp * n_micro
    tp_s = n_tp_reduces * inference.tp_all_reduce_time(activation_bytes, tp, domain) if tp > 1 else 0.0

    if design.wiring == "fat_tree":
        fab = fabric.for_switch(design.switch, n_gpus, oversubscription=design.oversubscription)
    else:
        fab = rails.size(design.wiring, n_gpus, design.switch, design.domain, design.optics).fabric
    grad_bytes = workload.n_params / (tp * pp) * 2.0
    # ECMP hashes every flow of every GPU under a leaf onto its uplinks: one flow per GPU is the
    # worst case; NCCL spreads a NIC's traffic over several channels and QPs (flows_per_gpu)
    flows = fab.leaf_downlinks * design.flows_per_gpu
    if fab.leaf_uplinks == 0:       # a rail on one switch: one path between any two NICs, nothing to balance
        lb = 1.0
    else:
        lb = scaleout_efficiency(design.load_balancing, flows, fab.leaf_uplinks,
                                 grad_bytes / dp / design.flows_per_gpu)
    port_bps = min(domain.scaleout_per_gpu_bps, fab.port_rate_bps)
    scaleout_bps = port_bps * lb * min(1.0, 1.0 / fab.oversubscription)
    effective = replace(domain, scaleout_per_gpu_bps=scaleout_bps)
    pp_s = traffic.pp_bytes * 8.0 / scaleout_bps
    inner = domain.n_gpus // tp   # data-parallel ranks that share a domain
    # NCCL overlaps the tiers of a hierarchical all-reduce (chapter 7): the slower tier sets the time
    # the last micro-batch's backward pass: the only one whose gradients are final (gradient accumulation)
    window_s = backward_share * compute_s / n_micro
    if dp > 1:
        schedule = gradient_overlap(grad_bytes, window_s, dp, effective, inner, bucket_bytes)
        dp_s, dp_exposed_s, n_buckets = schedule.comm_s, schedule.exposed_s, schedule.n_items
        algorithm = bucket_all_reduce(max(schedule.item_bytes), dp, effective, inner).algorithm
    else:
        dp_s, dp_exposed_s, n_buckets, algorithm = 0.0, 0.0, 0, ""

    step_s = compute_s + bubble_s + tp_s + pp_s + dp_exposed_s
    site = power.site_power(fab, design.optics, gpu_power_w=domain.power_per_gpu_w, pue=pue)
    gpu_low, gpu_high = _gpu_price_range(design.domain)
    price = costs.fabric_price(fab, design.optics)
    net_low, net_high = price.low_usd, price.high_usd
    ck = failures.checkpointing(n_gpus, checkpoint_s, restart_s)
    good = ck.goodput if with_failures else 1.0
    effective_step_s = step_s / good
    tokens_per_s = workload.tokens_per_step / effective_step_s
    return Evaluation(
        design=design, dp=dp, fits=fits, state_bytes_per_gpu=state_bytes, compute_s=compute_s,
        bubble_s=bubble_s, tp_s=tp_s, pp_s=pp_s, dp_s=dp_s, step_s=step_s, efficiency=compute_s / step_s,
        scaleout_efficiency=lb * min(1.0, 1.0 / fab.oversubscription),
        training_days=workload.n_tokens / workload.tokens_per_step * effective_step_s / 86400.0,
        fabric=fab, site=site,
        capex_low_usd=n_gpus * gpu_low + net_low, capex_high_usd=n_gpus * gpu_high + net_high,
        network_capex_low_usd=net_low, network_capex_high_usd=net_high,
        tokens_per_s=tokens_per_s, tokens_per_joule=tokens_per_s / site.facility_w,
        dp_exposed_s=dp_exposed_s, overlap=1.0 - dp_exposed_s / dp_s if dp_s > 0 else 1.0,
        n_buckets=n_buckets, backward_window_s=window_s,
        goodput=good, mtbf_s=ck.mtbf_s, checkpoint_interval_s=ck.interval_s, effective_step_s=effective_step_s,
        bucket_algorithm=algorithm)


def gradient_overlap(grad_bytes: float, backward_s: float, dp: int, domain: scaleup.ScaleUpDomain,
                     domain_size: int | None = None,
                     bucket_bytes: float | None = None) -> overlap_mod.OverlapSchedule:
    """The data-parallel gradient all-reduce run bucket by bucket behind a backward pass of ``backward_s``.

    :func:`netlab.training.overlap.ddp_backward` with the capstone's collective: the gradients
    (``grad_bytes`` per GPU) appear at a steady rate over ``backward_s`` and fill DDP's buckets
    (:func:`netlab.training.overlap.ddp_bucket_sizes`, ``bucket_bytes`` default 25 MiB); each
    bucket is all-reduced over ``dp`` ranks (``domain_size`` of them in each copy of ``domain``)
    with the algorithm NCCL would pick for its size (:func:`bucket_all_reduce`: the ring of
    :func:`netlab.nvlink.domains.hierarchical_all_reduce`, its tiers overlapped, or NCCL's tree or
    NVLS tree when that is faster), one after another (:func:`netlab.training.overlap.run_in_order`).
    ``overlap.ddp_backward`` prices a flat ring; this wrapper exists because the capstone's
    all-reduce is hierarchical and, for small buckets, not a ring.

    With ``n`` equal buckets each taking ``c`` and filling in ``t_f = backward_s / n``, the exposed
    time is ``max(c, n c - (n - 1) t_f)``.
    """
    if not isinstance(domain, scaleup.ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    sizes = overlap_mod.ddp_bucket_sizes(grad_bytes, bucket_bytes)
    backward_s = validate.positive("backward_s", backward_s)
    dp = validate.integer("dp", dp, minimum=1, maximum=validate.MAX_COUNT)
    total = math.fsum(sizes)
    ready, done = [], 0.0
    for b in sizes:
        done += b
        ready.append(backward_s * min(1.0, done / total))
    picks = {b: bucket_all_reduce(b, dp, domain, domain_size) for b in set(sizes)}   # full buckets and the rest
    return overlap_mod.run_in_order(sizes, ready, [picks[b].time_s for b in sizes], backward_s,
                                    kind=f"DDP buckets, {picks[sizes[0]].algorithm}")


@dataclass(frozen=True)
class BucketAllReduce:
    """One DDP bucket's all-reduce as the capstone prices it: the faster of a ring and NCCL's trees."""

    n_bytes: float
    ring_s: float               # netlab's hierarchical ring, tiers overlapped (pipelined_s)
    tree_s: float               # NCCL's tuner for its best tree or NVLS tree (NaN where none runs)
    tree_label: str             # e.g. "tree/LL128", "nvls/Simple"; "" where none runs
    time_s: float               # min(ring_s, tree_s)
    algorithm: str              # "ring (netlab)" or the tree's label


def bucket_all_reduce(n_bytes: float, dp: int, domain: scaleup.ScaleUpDomain,
                      domain_size: int | None = None) -> BucketAllReduce:
    """The all-reduce of one ``n_bytes`` bucket over ``dp`` data-parallel ranks, priced the way NCCL picks.

    NCCL runs the algorithm its tuner predicts fastest for the message size (chapter 6): a ring
    for large messages, a tree (``2 floor(log2 m)`` network steps across ``m`` nodes instead of the
    ring's ``2(n-1)``) or an NVLS tree for small ones. The ring is priced as the capstone prices the
    whole gradient, :func:`netlab.nvlink.domains.hierarchical_all_reduce`'s ``pipelined_s``; the
    tree and the NVLS tree by NCCL's own model, :func:`netlab.collectives.nccl_tuner.predict`, with
    ``dp / domain_size`` nodes of ``domain_size`` ranks (default ``domain.n_gpus``) and the
    domain's scale-out rate per GPU as the NIC. The bucket takes the faster. A flat ring over
    144 ranks pays 286 step latencies per bucket, which made small buckets look far slower than
    NCCL runs them.
    """
    n_bytes = validate.positive("n_bytes", n_bytes)
    dp = validate.integer("dp", dp, minimum=1, maximum=validate.MAX_COUNT)
    if not isinstance(domain, scaleup.ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    ring = scaleup.hierarchical_all_reduce(n_bytes, dp, domain, domain_size=domain_size).pipelined_s
    d = domain.n_gpus if domain_size is None else domain_size
    tree, label = math.nan, ""                      # no tree on one rank or beyond the tuner's ranks
    if dp >= 2 and domain.gpu in scaleup.ARCH_OF_GPU and dp <= nccl_tuner.MAX_RANKS:
        pick = nccl_tuner.predict(n_bytes, dp, dp // d, fabric=domain.fabric, arch=scaleup.ARCH_OF_GPU[domain.gpu],
                                  nic_bps=domain.scaleout_per_gpu_bps, algorithms=("tree", "nvls"))
        tree, label = pick.time_s, pick.label
    if tree < ring:                                 # False for NaN: the ring
        return BucketAllReduce(n_bytes, ring, tree, label, tree, label)
    return BucketAllReduce(n_bytes, ring, tree, label, ring, "ring (netlab)")


def serve(design: Design, model_name: str, batch: int) -> inference.DecodeStep:
    """Inference on the design's scale-up domain: chapter 7's decode step, tokens per joule included."""
    if not isinstance(design, Design):
        raise TypeError(f"design must be a Design, got {type(design).__name__}")
    batch = validate.integer("batch", batch, minimum=1)
    validate.key("model_name", model_name, inference.MODELS)
    return inference.decode_step(inference.model(model_name), scaleup.preset(design.domain), design.tp, batch)


# --- the capstone brief: constraints, a design space, and which designs meet it ----------------

DOMAIN_NAMES = {"pcie-h100": "H100 in a PCIe mesh", "dgx-h100": "DGX H100 (8-GPU NVLink)",
                "dgx-b200": "DGX B200 (8-GPU NVLink)", "gb200-nvl72": "GB200 NVL72 rack"}
# Scale-out fabric choices of the capstone: key -> (switch, load balancing, display name).
FABRICS = {
    "ib-adaptive": ("quantum2", "adaptive", "InfiniBand NDR, adaptive routing"),
    "eth-ecmp": ("sn5600_400g", "ecmp", "Ethernet 400G, ECMP hashing"),
    "eth-spraying": ("sn5600_400g", "spraying", "Ethernet 400G, packet spraying"),
}
CONSTRAINTS = ("memory", "time", "power", "budget")
# No CPO version of the capstone's switches exists (Spectrum-X and Quantum-X Photonics are
# 800G/1.6T Spectrum-6 and XDR switches): a CPO design on them is a hypothetical variant.
CPO_SHIPPING_SWITCHES: tuple[str, ...] = ()


@dataclass(frozen=True)
class Brief:
    """What a design must meet: training days, facility watts and capital cost.

    The budget is checked against the *high* end of the capital-cost range (the
    prices are estimates: a brief should survive the expensive end). ``bucket_bytes`` (DDP's
    bucket size, default 25 MiB) and ``backward_share`` (default :data:`BACKWARD_SHARE`) are
    what every design's overlap of the gradient all-reduce is derived from (:func:`evaluate`).
    """

    max_days: float
    max_facility_w: float
    max_capex_usd: float
    n_gpus: int = 4608
    bucket_bytes: float | None = None
    backward_share: float | None = None
    pue: float | None = None

    def __post_init__(self):
        validate.positive("max_days", self.max_days)
        validate.positive("max_facility_w", self.max_facility_w)
        validate.positive("max_capex_usd", self.max_capex_usd)
        validate.integer("n_gpus", self.n_gpus, minimum=1, maximum=validate.MAX_COUNT)
        if self.bucket_bytes is not None:
            validate.positive("bucket_bytes", self.bucket_bytes)
        if self.backward_share is not None:
            validate.in_range("backward_share", self.backward_share, 0.0, 1.0, low_open=True)
        if self.pue is not None:
            validate.in_range("pue", self.pue, 1.0, 5.0)

    def __str__(self) -> str:
        return (f"at most {self.max_days:g} days, {self.max_facility_w / 1e6:g} MW at the facility and "
                f"${self.max_capex_usd / 1e6:,.0f} M of hardware (high estimate), {self.n_gpus:,} GPUs, "
                f"gradients all-reduced in {self._bucket_mib():g} MiB buckets behind a backward pass of "
                f"{self._share():.3g} of the compute")

    def _bucket_mib(self) -> float:
        return (specs.value("pytorch.ddp.bucket_cap") if self.bucket_bytes is None else self.bucket_bytes) / 2**20

    def _share(self) -> float:
        return BACKWARD_SHARE if self.backward_share is None else self.backward_share


@dataclass(frozen=True)
class Verdict:
    """A design's evaluation set against a brief: which constraints it misses."""

    evaluation: Evaluation
    brief: Brief
    misses: tuple[str, ...]          # a subset of CONSTRAINTS, in that order

    @property
    def meets(self) -> bool:
        """True when the design meets every constraint of the brief."""
        return not self.misses

    @property
    def margins(self) -> dict[str, float]:
        """Each constraint's use of its limit:
        days / max_days, watts / max, high capex / budget."""
        e, b = self.evaluation, self.brief
        return {"memory": e.state_bytes_per_gpu / specs.value(f"gpu.{_gpu_of(e.design)}.memory"),
                "time": e.training_days / b.max_days, "power": e.site.facility_w / b.max_facility_w,
                "budget": e.capex_high_usd / b.max_capex_usd}

    def __str__(self) -> str:
        e = self.evaluation
        verdict = "meets the brief" if self.meets else "misses the brief on " + " and ".join(self.misses)
        return (f"{e.design.name}: {e.training_days:.1f} days, {e.site.facility_w / 1e6:.2f} MW at the facility, "
                f"${e.capex_low_usd / 1e6:,.0f}-{e.capex_high_usd / 1e6:,.0f} M; {verdict}.")


def _gpu_of(design: Design) -> str:
    return scaleup.preset(design.domain).gpu


def check(evaluation: Evaluation, brief: Brief) -> Verdict:
    """Which of memory, time, power and budget ``evaluation`` misses under ``brief``.

    Memory is a hard check: a design whose training state per GPU does not fit in the GPU's
    memory cannot run, whatever its other numbers (ZeRO sharding of the optimizer state
    across data-parallel ranks, not modelled here, would shrink that state)."""
    if not isinstance(evaluation, Evaluation):
        raise TypeError(f"evaluation must be an Evaluation, got {type(evaluation).__name__}")
    if not isinstance(brief, Brief):
        raise TypeError(f"brief must be a Brief, got {type(brief).__name__}")
    ok = {"memory": evaluation.fits,
          "time": evaluation.training_days <= brief.max_days,
          "power": evaluation.site.facility_w <= brief.max_facility_w,
          "budget": evaluation.capex_high_usd <= brief.max_capex_usd}
    return Verdict(evaluation, brief, tuple(c for c in CONSTRAINTS if not ok[c]))


def capstone_design(domain: str, fabric_key: str, optics: str, oversubscription: float,
                    n_gpus: int = 4608, tp: int = 8, pp: int = 4, wiring: str = "fat_tree") -> Design:
    """A :class:`Design` from the capstone's decisions, named in plain words.

    ``wiring`` (a key of :data:`netlab.fabric.rails.KINDS`) wires the scale-out fabric as a fat
    tree (the default), rail-optimized or rail-only; a name says so unless it is a fat tree."""
    validate.choice("fabric_key", fabric_key, FABRICS)
    validate.choice("wiring", wiring, rails.KINDS)
    validate.key("optics", optics, optics_mod.OPTIONS)
    switch, lb, fabric_name = FABRICS[fabric_key]
    oversubscription = validate.in_range("oversubscription", oversubscription, 1.0, 1000.0)
    optics_name = optics_mod.option_name(optics)
    if optics == "cpo" and switch not in CPO_SHIPPING_SWITCHES:
        optics_name += ", hypothetical"       # no CPO version of this switch exists
    name = (f"{DOMAIN_NAMES[validate.choice('domain', domain, scaleup.PRESETS)]}, {fabric_name}, "
            f"{optics_name}, {oversubscription:g}:1" + ("" if wiring == "fat_tree" else f", {rails.KIND_NAMES[wiring]}"))
    return Design(name, n_gpus, domain=domain, switch=switch, oversubscription=oversubscription,
                  load_balancing=lb, optics=optics, tp=tp, pp=pp, wiring=wiring)


def design_space(domains=("dgx-h100", "gb200-nvl72"), fabrics=tuple(FABRICS), optics=optics_mod.OPTIONS,
                 oversubscriptions=(1.0, 2.0, 3.0), n_gpus: int = 4608, tp: int = 8, pp: int = 4,
                 wirings=rails.KINDS) -> list[Design]:
    """Every combination of the decisions, as :func:`capstone_design` designs.

    A fat tree takes every oversubscription given; a rail-optimized or rail-only wiring is
    non-blocking only (netlab sizes rails 1:1), so it adds one design per domain, fabric and
    optics when 1 is among ``oversubscriptions``: 2 x 3 x 3 x (3 + 1 + 1) = 90 by default."""
    domains, fabrics, optics, oversubscriptions, wirings = (
        validate.sequence(name, value, "a list of choices") for name, value in
        (("domains", domains), ("fabrics", fabrics), ("optics", optics), ("oversubscriptions", oversubscriptions),
         ("wirings", wirings)))
    return [capstone_design(d, f, o, s, n_gpus, tp, pp, wiring=w)
            for w in wirings for d in domains for f in fabrics for o in optics for s in oversubscriptions
            if w == "fat_tree" or s == 1.0]


def explore(workload: Workload, brief: Brief, designs: list[Design] | None = None,
            mfu: float | None = None, workers: int | None = 1, client=None) -> list[Verdict]:
    """Evaluate ``designs`` (default: :func:`design_space` at the brief's GPU count) against ``brief``.

    The designs run through :func:`netlab.sweep.run`, one call per design, in the order given:
    one after another by default, on ``workers`` local processes (``None``: every core), or on a
    Dask ``client``; the verdicts are the same either way."""
    if not isinstance(brief, Brief):
        raise TypeError(f"brief must be a Brief, got {type(brief).__name__}")
    validate.instance("workload", workload, Workload, "a Workload")
    if designs is None:
        designs = design_space(n_gpus=brief.n_gpus)
    else:
        designs = validate.sequence("designs", designs, "a list of Designs")
        for d in designs:
            validate.instance("designs", d, Design, "a list of Designs")
    if not designs:
        return []
    study = sweep.run(_verdict_of, {"design": list(designs)}, fixed=dict(workload=workload, brief=brief, mfu=mfu),
                      workers=workers, client=client, progress=False)
    return study.column("verdict")


def _verdict_of(design: Design, workload: Workload, brief: Brief, mfu: float | None = None,
                seed: int = 0) -> dict[str, Verdict]:
    """One design's verdict, as a row of :func:`netlab.sweep.run` (the seed is unused: no randomness)."""
    return {"verdict": check(_evaluate_for(design, workload, brief, mfu), brief)}


def _setting_verdict(design: Design, workload: Workload, brief: Brief, pue: float, bucket_bytes: float,
                     backward_share: float, flows_per_gpu: int, seed: int = 0) -> dict[str, Verdict]:
    """One design's verdict at one setting of the inputs a brief leaves open (:func:`robustness`)."""
    setting = replace(brief, pue=pue, bucket_bytes=bucket_bytes, backward_share=backward_share)
    return _verdict_of(replace(design, flows_per_gpu=flows_per_gpu), workload, setting)


def _evaluate_for(design: Design, workload: Workload, brief: Brief, mfu: float | None = None) -> Evaluation:
    """``design`` evaluated with the open inputs ``brief`` fixes (PUE, bucket size, backward share)."""
    return evaluate(design, workload, mfu=mfu, pue=brief.pue, bucket_bytes=brief.bucket_bytes,
                    backward_share=brief.backward_share)


OBJECTIVES = {"days": lambda v: v.evaluation.training_days,
              "capex": lambda v: v.evaluation.capex_high_usd,
              "power": lambda v: v.evaluation.site.facility_w}


def best(verdicts: list[Verdict], objective: str = "days") -> Verdict | None:
    """The design that meets its brief with the fewest days (or lowest ``"capex"``, ``"power"``).

    Ties (equal objective) go to the cheaper, then the less power-hungry design. None if no
    design meets the brief.
    """
    validate.choice("objective", objective, OBJECTIVES)
    feasible = [v for v in _verdicts(verdicts) if v.meets]
    if not feasible:
        return None
    key = OBJECTIVES[objective]
    return min(feasible, key=lambda v: (round(key(v), 9), v.evaluation.capex_high_usd, v.evaluation.site.facility_w))


def binding_counts(verdicts: list[Verdict]) -> dict[str, int]:
    """How many designs miss the brief on each constraint (a design can miss several)."""
    verdicts = _verdicts(verdicts)
    return {c: sum(c in v.misses for v in verdicts) for c in CONSTRAINTS}


def _verdicts(verdicts) -> list[Verdict]:
    """``verdicts`` as a list, if it holds only Verdicts (from :func:`check` or :func:`explore`)."""
    verdicts = validate.sequence("verdicts", verdicts, "a list of Verdicts from cluster.explore")
    for v in verdicts:
        validate.instance("verdicts", v, Verdict, "a list of Verdicts from cluster.explore")
    return verdicts


def plot_brief(verdict: Verdict):
    """Bars of each constraint's use of its limit (1 = on the limit), for one design."""
    from netlab import plots
    validate.instance("verdict", verdict, Verdict, "a Verdict from cluster.check")
    fig, ax = plots.figure(width_in=6.4, height_in=2.6)
    margins = verdict.margins
    labels = {"memory": "memory per GPU", "time": "training days", "power": "facility power", "budget": "capex (high)"}
    names = [labels[c] for c in CONSTRAINTS]
    values = [margins[c] for c in CONSTRAINTS]
    colors = [plots.color("vermillion") if c in verdict.misses else plots.color("green") for c in CONSTRAINTS]
    ax.barh(names, values, color=colors)
    ax.axvline(1.0, color=plots.color("black"), linewidth=1.5)
    ax.set_xlim(0, max(1.6, max(values) * 1.05))
    ax.invert_yaxis()
    ax.set_xlabel("share of the brief's limit (beyond 1 = misses)")
    span = ax.get_xlim()[1]
    for y, x in enumerate(values):
        # A value label is up to a quarter of the axis wide in the phone frame: one that would
        # start left of the limit line and run across it goes just right of the line instead.
        start = x + 0.02 * span
        if x < 1.0 and start + 0.25 * span > 1.0:
            start = 1.0 + 0.02 * span
        ax.text(start, y, f"{x:.3f}", va="center")
    fig.alt = plot_brief_alt(verdict)
    return fig


DECISIONS = ("domain", "fabric", "optics", "oversubscription", "wiring")


def decisions_of(design: Design) -> dict[str, object]:
    """The capstone's decisions behind ``design``: domain, fabric key, optics, oversubscription, wiring."""
    if not isinstance(design, Design):
        raise TypeError(f"design must be a Design, got {type(design).__name__}")
    fabric_key = next((k for k, (sw, lb, _) in FABRICS.items()
                       if sw == design.switch and lb == design.load_balancing), None)
    return {"domain": design.domain, "fabric": fabric_key, "optics": design.optics,
            "oversubscription": design.oversubscription, "wiring": design.wiring}


@dataclass(frozen=True)
class Robustness:
    """One setting of the inputs a brief leaves open, and what the design space then says.

    ``choices`` maps each decision to the values it takes among the designs that meet the
    brief: one value is a decision the brief forces; several are a close call, not a lesson."""

    pue: float
    bucket_bytes: float
    backward_share: float
    flows_per_gpu: int
    n_meet: int
    misses: dict[str, int]             # designs missing each constraint (binding_counts)
    fastest: str | None
    cheapest: str | None
    choices: dict[str, tuple]
    nonblocking_wirings: tuple         # the wirings of the 1:1 designs that meet the brief


def robustness(workload: Workload, brief: Brief, pues=(1.1, 1.3, 1.58), bucket_bytes=(25 * 2**20, 100 * 2**20),
               backward_shares=(BACKWARD_SHARE,), flows_per_gpu=(1, 4), workers: int | None = 1,
               client=None) -> list[Robustness]:
    """The brief's design space re-run at every PUE, DDP bucket size, backward share of the compute
    and flows per GPU given: which decisions every design meeting the brief shares (robust), and
    which are close calls. The bucket size and the backward share set each design's overlap.

    Every setting and design is one call of :func:`netlab.sweep.run` (``workers`` and ``client``
    as there: one after another by default); the rows come in the order of the settings."""
    if not isinstance(brief, Brief):
        raise TypeError(f"brief must be a Brief, got {type(brief).__name__}")
    validate.instance("workload", workload, Workload, "a Workload")
    pues = [validate.in_range("pues", p, 1.0, 5.0) for p in validate.sequence("pues", pues)]
    buckets = [validate.positive("bucket_bytes", b) for b in validate.sequence("bucket_bytes", bucket_bytes)]
    shares = [validate.in_range("backward_shares", f, 0.0, 1.0, low_open=True)
              for f in validate.sequence("backward_shares", backward_shares)]
    flows_per_gpu = [validate.integer("flows_per_gpu", f, minimum=1, maximum=64)
                     for f in validate.sequence("flows_per_gpu", flows_per_gpu)]
    if not (pues and buckets and shares and flows_per_gpu):
        raise ValueError("pues, bucket_bytes, backward_shares and flows_per_gpu must each hold at least one value")
    designs = design_space(n_gpus=brief.n_gpus)
    # one sweep over every setting and design (netlab.sweep.run: serial, local processes or Dask)
    study = sweep.run(_setting_verdict, dict(pue=pues, bucket_bytes=buckets, backward_share=shares,
                                             flows_per_gpu=flows_per_gpu, design=designs),
                      fixed=dict(workload=workload, brief=brief), workers=workers, client=client, progress=False)
    records = study.records()          # in grid order: the designs of one setting follow each other
    rows = []
    for start in range(0, len(records), len(designs)):
        chunk = records[start:start + len(designs)]
        pue, bucket, share, flows = (chunk[0][k] for k in ("pue", "bucket_bytes", "backward_share", "flows_per_gpu"))
        verdicts = [r["verdict"] for r in chunk]
        meeting = [decisions_of(v.evaluation.design) for v in verdicts if v.meets]
        choices = {k: tuple(sorted({m[k] for m in meeting}, key=str)) for k in DECISIONS}
        fastest, cheapest = best(verdicts, "days"), best(verdicts, "capex")
        rows.append(Robustness(pue, bucket, share, flows, len(meeting), binding_counts(verdicts),
                               fastest.evaluation.design.name if fastest else None,
                               cheapest.evaluation.design.name if cheapest else None, choices,
                               tuple(sorted({m["wiring"] for m in meeting if m["oversubscription"] == 1.0}))))
    return rows


SHORT_NAMES = {"dgx-h100": "DGX H100", "gb200-nvl72": "NVL72", "pcie-h100": "PCIe H100", "dgx-b200": "DGX B200",
               "ib-adaptive": "IB adaptive", "eth-ecmp": "Eth ECMP", "eth-spraying": "Eth spraying",
               "dsp_pluggable": "DSP", "lpo": "LPO", "cpo": "CPO",
               "fat_tree": "fat tree", "rail_optimized": "rail-opt.", "rail_only": "rail-only"}


def robustness_table(rows: list[Robustness]) -> str:
    """A Markdown table of :func:`robustness` rows: the values each decision takes among the designs
    that meet the brief, in bold when the brief forces one."""
    rows = validate.sequence("rows", rows, "a list of Robustness rows, as robustness() returns")
    if not all(isinstance(r, Robustness) for r in rows):
        raise TypeError("rows must be Robustness rows, as robustness() returns them")

    def show(decision, values):
        if not values:
            return "none"
        text = " / ".join(f"{v:g}:1" if decision == "oversubscription" else SHORT_NAMES.get(v, str(v))
                          for v in values)
        return f"**{text}**" if len(values) == 1 else text

    out = [("| PUE | bucket | backward share | flows per GPU | designs meeting | domain | fabric | optics "
            "| oversubscription | wiring | 1:1 designs meeting are |"), "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append(f"| {r.pue:g} | {r.bucket_bytes / 2**20:g} MiB | {r.backward_share:.3g} | {r.flows_per_gpu} | "
                   f"{r.n_meet} | "
                   + " | ".join(show(k, r.choices[k]) for k in DECISIONS) + " | "
                   + show("wiring", r.nonblocking_wirings) + " |")
    return "\n".join(out)


def results_table(verdicts: list[Verdict]) -> str:
    """A Markdown table of designs against the brief, one row per verdict."""
    rows = ["| design | days | facility | capex (low-high) | verdict |", "|---|---|---|---|---|"]
    for v in _verdicts(verdicts):
        e = v.evaluation
        rows.append(f"| {e.design.name} | {e.training_days:.1f} | {e.site.facility_w / 1e6:.2f} MW | "
                    f"\\${e.capex_low_usd / 1e6:,.0f}-{e.capex_high_usd / 1e6:,.0f} M | "
                    f"{'meets' if v.meets else 'misses ' + ', '.join(v.misses)} |")
    return "\n".join(rows)


def step_parts(evaluation: Evaluation) -> str:
    """One design's step time and its parts, as a sentence (seconds, three decimals)."""
    if not isinstance(evaluation, Evaluation):
        raise TypeError(f"evaluation must be an Evaluation, got {type(evaluation).__name__}")
    e = evaluation
    return (f"{e.design.name}: compute {e.compute_s:.3f} s, pipeline bubble {e.bubble_s:.3f} s, "
            f"tensor parallel {e.tp_s:.3f} s, pipeline transfers {e.pp_s:.4f} s, "
            f"gradient all-reduce {e.dp_s:.3f} s in {e.n_buckets} buckets, of which {e.dp_exposed_s:.3f} s "
            f"exposed after a backward pass of {e.backward_window_s:.4f} s ({e.overlap:.0%} hidden) per step.")


def brief_explorer(workload: Workload, brief: Brief):
    """An explorer over the four capstone decisions: each frame shows the design against ``brief``."""
    from netlab import widgets
    if not isinstance(brief, Brief):
        raise TypeError(f"brief must be a Brief, got {type(brief).__name__}")
    cache: dict[tuple, Verdict] = {}

    def verdict(domain, fabric_key, optics, oversubscription):
        key = (domain, fabric_key, optics, oversubscription)
        if key not in cache:
            d = capstone_design(domain, fabric_key, optics, oversubscription, n_gpus=brief.n_gpus)
            cache[key] = check(_evaluate_for(d, workload, brief), brief)
        return cache[key]

    return widgets.Explorer(
        lambda **k: plot_brief(verdict(**k)),
        {"domain": widgets.choice("Scale-up domain", ["dgx-h100", "gb200-nvl72"], default="dgx-h100",
                                  fmt=DOMAIN_NAMES.get),
         "fabric_key": widgets.choice("Fabric", list(FABRICS), default="ib-adaptive", fmt=lambda k: FABRICS[k][2]),
         "optics": widgets.choice("Switch optics", list(optics_mod.OPTIONS), fmt=optics_mod.option_name),
         "oversubscription": widgets.choice("Oversubscription", [1.0, 2.0, 3.0], fmt="{:g}:1")},
        readout=lambda **k: str(verdict(**k)),
        alt=lambda **k: plot_brief_alt(verdict(**k)),
        title="Capstone: one design against the brief",
    )


def plot_overlap(evaluation: Evaluation):
    """Bars of the backward window and of the gradient all-reduce, split into hidden and exposed."""
    from netlab import plots
    validate.instance("evaluation", evaluation, Evaluation, "an Evaluation from cluster.evaluate")
    e = evaluation
    fig, ax = plots.figure(width_in=6.4, height_in=2.2)
    ms = 1e3
    hidden = e.dp_s - e.dp_exposed_s
    ax.barh([1], [e.backward_window_s * ms], color=plots.color("compute"))
    ax.barh([0], [hidden * ms], color=plots.color("green"))
    ax.barh([0], [e.dp_exposed_s * ms], left=[hidden * ms], color=plots.color("vermillion"))
    ax.axvline(e.backward_window_s * ms, color=plots.color("black"), linewidth=1.2, linestyle="--")
    ax.set_yticks([0, 1], ["gradient all-reduce", "last backward pass"])
    ax.set_xlim(0, max(e.dp_s, e.backward_window_s) * ms * 1.05)
    ax.set_xlabel("milliseconds per step (green hidden, red exposed)")
    fig.alt = plot_overlap_alt(e)
    return fig


def plot_overlap_alt(evaluation: Evaluation) -> str:
    """Alternative text of :func:`plot_overlap` for ``evaluation``."""
    validate.instance("evaluation", evaluation, Evaluation, "an Evaluation from cluster.evaluate")
    e = evaluation
    return (f"{e.design.name}: the last micro-batch's backward pass takes {e.backward_window_s * 1e3:.1f} ms; "
            f"the gradient all-reduce in {e.n_buckets:,} buckets takes {e.dp_s * 1e3:.1f} ms, of which "
            f"{(e.dp_s - e.dp_exposed_s) * 1e3:.1f} ms hidden and {e.dp_exposed_s * 1e3:.1f} ms exposed "
            f"({e.overlap:.0%} hidden)")


def plot_brief_alt(verdict: Verdict) -> str:
    """Alternative text of :func:`plot_brief` for ``verdict``."""
    validate.instance("verdict", verdict, Verdict, "a Verdict from cluster.check")
    m = verdict.margins
    return (f"{verdict.evaluation.design.name}: memory per GPU {m['memory']:.2f} of the GPU's, training days "
            f"{m['time']:.2f}, facility power {m['power']:.2f}, high capex {m['budget']:.2f} of the brief's limits")
