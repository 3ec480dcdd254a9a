"""Scale-up domains: a PCIe mesh, an NVLink Switch node, an NVL72 rack, and the fabric beyond.

A *scale-up domain* is the set of GPUs that reach each other over a memory-semantic
link (NVLink through NVLink Switch chips) instead of a network card. Inside it every
GPU sends at its full NVLink rate to any other, one hop away; outside it each GPU
gets one scale-out port of a few hundred Gb/s. Three designs set the scale:

* a *PCIe mesh*: 8 GPUs that can only talk over their PCIe 5.0 x16 links (63 GB/s
  each way at best, less when GPUs share a PCIe switch uplink or cross CPU sockets);
* an *NVLink Switch node* (DGX/HGX): 8 GPUs at 450 GB/s (NVLink 4) or 900 GB/s
  (NVLink 5) each way;
* a *GB200 NVL72 rack*: 72 GPUs at 900 GB/s each way through 9 NVLink Switch trays.

Vendors quote NVLink as the sum of both directions: 1.8 TB/s per Blackwell GPU is
900 GB/s each way, and the NVL72's "130 TB/s" is 72 x 1.8 TB/s = 129.6 TB/s, both
directions added [nvidia-nvlink-page, nccl-issue-1442]. Here every rate is
one-way unless its name ends in ``_bidir``.

The *scale-up to scale-out ratio* ``per_gpu_bps / scaleout_per_gpu_bps`` (18 for
NVLink 5 against a 400 Gb/s NIC) decides where a collective spends its time: a
hierarchical all-reduce over a domain of ``d`` GPUs spends equal time inside and
between domains when ``d - 1`` is about that ratio (see :func:`crossover_domain_size`).
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import numbers

from netlab import specs, validate
from netlab.collectives import alpha_beta as collective_cost
from netlab.units import format_byte_rate, format_power, format_time

FABRICS = ("pcie", "nvlink")


@dataclass(frozen=True)
class ScaleUpDomain:
    """A group of GPUs sharing one scale-up fabric, and the scale-out port each GPU has.

    All rates are one-way (one direction) in bit/s; ``*_bidir_bps`` add both directions,
    as vendors quote NVLink.
    """

    name: str
    fabric: str                    # "pcie" or "nvlink"
    n_gpus: int
    per_gpu_bps: float             # scale-up rate of one GPU, one way
    scaleout_per_gpu_bps: float    # scale-out (NIC) rate of one GPU, one way
    power_w: float                 # whole domain (node or rack), all GPUs and their hosts
    gpu: str                       # registry name of the GPU ("h100", "b200", "gb200")
    intra_alpha_s: float           # latency per collective step inside the domain
    inter_alpha_s: float           # latency per collective step across the scale-out network

    def __post_init__(self) -> None:
        # What is never a domain is refused here; a degenerate but numeric one (no GPUs, no power)
        # may be built by hand, and :func:`check_domain` refuses it where a model reads it.
        for name in ("name", "gpu"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"{name} must be a string, got {getattr(self, name)!r:.80}")
        validate.choice("fabric", self.fabric, FABRICS)
        if isinstance(self.n_gpus, bool) or not isinstance(self.n_gpus, numbers.Integral):
            raise TypeError(f"n_gpus must be an integer, got {type(self.n_gpus).__name__} {self.n_gpus!r:.80}")
        for name in ("per_gpu_bps", "scaleout_per_gpu_bps", "power_w", "intra_alpha_s", "inter_alpha_s"):
            validate.number(name, getattr(self, name), "of any sign")

    @property
    def per_gpu_bidir_bps(self) -> float:
        return 2.0 * self.per_gpu_bps

    @property
    def aggregate_bps(self) -> float:
        """Sum over the GPUs of what each can send at once, one way:
        ``n_gpus * per_gpu_bps``."""
        return self.n_gpus * self.per_gpu_bps

    @property
    def aggregate_bidir_bps(self) -> float:
        """The figure vendors quote:
        both directions of every GPU added."""
        return 2.0 * self.aggregate_bps

    @property
    def scaleout_aggregate_bps(self) -> float:
        return self.n_gpus * self.scaleout_per_gpu_bps

    @property
    def ratio(self) -> float:
        """Scale-up to scale-out bandwidth ratio per GPU (both one-way)."""
        return self.per_gpu_bps / self.scaleout_per_gpu_bps

    @property
    def power_per_gpu_w(self) -> float:
        return self.power_w / self.n_gpus

    def __repr__(self) -> str:
        return (f"Scale-up domain {self.name}: {self.n_gpus} {self.gpu.upper()} GPUs on {self.fabric}, "
                f"{format_byte_rate(self.per_gpu_bps)} per GPU each way "
                f"({format_byte_rate(self.per_gpu_bidir_bps)} bidir), aggregate "
                f"{format_byte_rate(self.aggregate_bidir_bps)} bidir; scale-out "
                f"{format_byte_rate(self.scaleout_per_gpu_bps)} per GPU, a ratio of {self.ratio:.3g}; "
                f"{format_power(self.power_w)} in all.")


def scaleup_domain(n_gpus: int, per_gpu_bps: float, scaleout_per_gpu_bps: float, power_w: float,
                   fabric: str = "nvlink", gpu: str = "h100", name: str = "custom",
                   intra_alpha_s: float | None = None, inter_alpha_s: float | None = None) -> ScaleUpDomain:
    """A scale-up domain of ``n_gpus`` GPUs, each with ``per_gpu_bps`` one way inside it.

    Parameters
    ----------
    n_gpus : int
        GPUs in the domain (>= 1).
    per_gpu_bps : float
        Scale-up rate of one GPU, one direction, bit/s (halve a vendor's NVLink figure).
    scaleout_per_gpu_bps : float
        Scale-out (network) rate per GPU, one direction, bit/s.
    power_w : float
        Power of the whole domain, watts.
    fabric : {"pcie", "nvlink"}
    gpu : str
        Registry name of the GPU, used by :mod:`netlab.nvlink.inference` for compute and memory.
    intra_alpha_s, inter_alpha_s : float, optional
        Latency per collective step inside the domain and across the network. By default
        NCCL 2.30.7's per-step figures for a ring with the small-message LL protocol
        (``nccl.tuner.step_latency.*.ring.ll``): 0.6 µs NVLink, 1.0 µs PCIe, 2.7 µs network.
        NCCL's base latency per collective (6.6 µs) is not part of this alpha; see
        :mod:`netlab.collectives.nccl_tuner` for the whole tuner model.

    Examples
    --------
    72 GPUs at 900 GB/s each way add up to 129.6 TB/s both ways.

    >>> d = scaleup_domain(72, 900e9 * 8, 400e9, 120e3)
    >>> round(d.aggregate_bidir_bps / 8e12, 1), round(d.ratio, 3)
    (129.6, 18.0)
    """
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1)
    per_gpu_bps = validate.positive("per_gpu_bps", per_gpu_bps)
    scaleout_per_gpu_bps = validate.positive("scaleout_per_gpu_bps", scaleout_per_gpu_bps)
    power_w = validate.positive("power_w", power_w)
    fabric = validate.choice("fabric", fabric, FABRICS)
    if not isinstance(gpu, str) or not isinstance(name, str):
        raise TypeError("gpu and name must be strings")
    intra_alpha_s = (specs.value(f"nccl.tuner.step_latency.{fabric}.ring.ll") if intra_alpha_s is None
                     else validate.non_negative("intra_alpha_s", intra_alpha_s))
    inter_alpha_s = (specs.value("nccl.tuner.step_latency.net.ring.ll") if inter_alpha_s is None
                     else validate.non_negative("inter_alpha_s", inter_alpha_s))
    return ScaleUpDomain(name=name, fabric=fabric, n_gpus=n_gpus, per_gpu_bps=per_gpu_bps,
                         scaleout_per_gpu_bps=scaleout_per_gpu_bps, power_w=power_w, gpu=gpu,
                         intra_alpha_s=intra_alpha_s, inter_alpha_s=inter_alpha_s)


def check_domain(domain: object) -> ScaleUpDomain:
    """``domain`` if it is a :class:`ScaleUpDomain` whose counts and rates make sense.

    A domain can be built by hand (or with :func:`dataclasses.replace`), bypassing
    :func:`scaleup_domain`'s checks; models that divide by its rates or power call this.
    """
    if not isinstance(domain, ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    validate.integer("domain.n_gpus", domain.n_gpus, minimum=1)
    for name in ("per_gpu_bps", "scaleout_per_gpu_bps", "power_w"):
        validate.positive(f"domain.{name}", getattr(domain, name))
    for name in ("intra_alpha_s", "inter_alpha_s"):
        validate.non_negative(f"domain.{name}", getattr(domain, name))
    validate.choice("domain.fabric", domain.fabric, FABRICS)
    return domain


def _preset(name: str) -> ScaleUpDomain:
    v = specs.value
    node = int(v("dgx.n_gpus"))
    scaleout = v("ra.hgx.scaleout_per_gpu")
    if name == "pcie-h100":
        # Counterfactual: the DGX H100's GPUs and power, but only PCIe 5.0 x16 between them.
        return scaleup_domain(node, v("pcie.5.x16_rate"), scaleout,
                              v("dgx.h100.power") * v("assume.pcie_mesh_power_ratio"),
                              fabric="pcie", gpu="h100", name=name)
    if name == "dgx-h100":
        return scaleup_domain(node, v("nvlink.4.per_gpu"), scaleout, v("dgx.h100.power"),
                              gpu="h100", name=name)
    if name == "dgx-b200":
        return scaleup_domain(node, v("nvlink.5.per_gpu"), scaleout, v("dgx.b200.power"),
                              gpu="b200", name=name)
    # gb200-nvl72; the scale-out rate per GPU follows the same reference architecture.
    return scaleup_domain(int(v("nvl72.n_gpus")), v("nvlink.5.per_gpu"), scaleout,
                          v("nvl72.rack_power"), gpu="gb200", name=name)


#: The domains :func:`preset` builds from the registry.
PRESETS = ("pcie-h100", "dgx-h100", "dgx-b200", "gb200-nvl72")


def preset(name: str) -> ScaleUpDomain:
    """One of the domains of :data:`PRESETS`, built from the registry.

    ``pcie-h100`` is a counterfactual: the DGX H100's eight GPUs and power
    (times ``assume.pcie_mesh_power_ratio``) with only PCIe 5.0 between them.
    """
    validate.choice("name", name, PRESETS)
    return _preset(name)


@dataclass(frozen=True)
class NVL72Check:
    """Seed claim D7 recomputed: does 72 x 1.8 TB/s give the quoted 130 TB/s?"""

    gpu_sum_bidir_bps: float        # n_gpus x per-GPU bidirectional NVLink
    switch_sum_bidir_bps: float     # trays x tray switching bandwidth
    published_bidir_bps: float      # the quoted "130 TB/s"
    one_way_bps: float              # what all GPUs can send at once, one direction

    @property
    def rounding_error(self) -> float:
        """Relative gap between the published figure and the GPU sum."""
        return self.published_bidir_bps / self.gpu_sum_bidir_bps - 1.0

    def __repr__(self) -> str:
        return (f"The GPUs add up to {format_byte_rate(self.gpu_sum_bidir_bps, 4)} and the switch trays to "
                f"{format_byte_rate(self.switch_sum_bidir_bps, 4)}, both directions counted (published: "
                f"{format_byte_rate(self.published_bidir_bps)}); one way, the GPUs send "
                f"{format_byte_rate(self.one_way_bps, 4)}.")


def nvl72_check() -> NVL72Check:
    """Recompute the NVL72's 130 TB/s from its GPUs and from its switch trays (claim D7)."""
    v = specs.value
    gpus = v("nvl72.n_gpus") * v("nvlink.5.per_gpu_bidir")
    switches = v("nvl72.n_switch_trays") * v("nvswitch.5.tray_bandwidth_bidir")
    return NVL72Check(gpu_sum_bidir_bps=gpus, switch_sum_bidir_bps=switches,
                      published_bidir_bps=v("nvl72.gpu_bandwidth_bidir"), one_way_bps=gpus / 2.0)


# --- a hierarchical all-reduce across the domain and the scale-out fabric -------------------
@dataclass(frozen=True)
class HierarchicalAllReduce:
    """An all-reduce over ``world_size`` GPUs in domains of ``domain_size``, split by tier.

    ``intra_s``: ring reduce-scatter and all-gather inside each domain;
    ``inter_s``: ring all-reduce of each ``n_bytes / domain_size`` shard across domains,
    each GPU on its own scale-out port. ``time_s = intra_s + inter_s`` runs the three
    phases one after the other (no overlap: a bound from above). ``pipelined_s =
    max(intra_s, inter_s)`` lets the tiers work at once on different chunks, as NCCL's
    rings (one per NIC, whose NVLink and network hops proceed concurrently) and its NVLS
    tree do: the slower tier sets the time. :func:`nccl_all_reduce` gives NCCL's own
    prediction for the same job.
    """

    n_bytes: float
    world_size: int
    domain_size: int
    intra_s: float
    inter_s: float
    time_s: float
    busbw_bps: float    # nccl-tests' busbw over the whole world: algbw * 2(n-1)/n (of time_s)
    pipelined_s: float  # max(intra_s, inter_s): the tiers overlap, the slower one sets the time

    @property
    def bottleneck(self) -> str:
        return "scale-up" if self.intra_s > self.inter_s else "scale-out"

    @property
    def inter_share(self) -> float:
        return self.inter_s / self.time_s if self.time_s > 0 else 0.0

    def __repr__(self) -> str:
        return (f"Hierarchical all-reduce over {self.world_size} GPUs in domains of {self.domain_size}: "
                f"{format_time(self.time_s)} = {format_time(self.intra_s)} inside + "
                + (f"{format_time(self.inter_s)} across" if self.inter_s else "nothing across")
                + f" one after the other (busbw {format_byte_rate(self.busbw_bps)}); "
                f"{format_time(self.pipelined_s)} with the tiers overlapped; {self.bottleneck}-bound.")


def hierarchical_all_reduce(n_bytes: float, world_size: int, domain: ScaleUpDomain,
                            domain_size: int | None = None) -> HierarchicalAllReduce:
    """All-reduce ``n_bytes`` over ``world_size`` GPUs built from copies of ``domain``.

    ``domain_size`` (default ``domain.n_gpus``) lets a sweep ask "what if the same GPUs
    and links formed domains of this size?"; ``world_size`` must be a multiple of it.
    The time comes from :func:`netlab.collectives.alpha_beta.hierarchical_all_reduce_time`;
    the split into tiers from its ring reduce-scatter, all-gather and all-reduce parts.
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    world_size = validate.integer("world_size", world_size, minimum=1)
    if not isinstance(domain, ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    d = domain.n_gpus if domain_size is None else validate.integer("domain_size", domain_size, minimum=1)
    if world_size % d:
        raise ValueError(f"world_size must be a multiple of domain_size ({d}), got {world_size}")
    m = world_size // d
    a_in, b_in = domain.intra_alpha_s, domain.per_gpu_bps
    a_out, b_out = domain.inter_alpha_s, domain.scaleout_per_gpu_bps
    intra = (collective_cost.ring_reduce_scatter_time(n_bytes, d, a_in, b_in).time_s
             + collective_cost.ring_all_gather_time(n_bytes, d, a_in, b_in).time_s)
    inter = collective_cost.ring_all_reduce_time(n_bytes / d, m, a_out, b_out).time_s
    total = collective_cost.hierarchical_all_reduce_time(n_bytes, d, m, a_in, b_in, a_out, b_out)
    busbw = collective_cost.busbw(n_bytes, total.time_s, "all_reduce", world_size) if total.time_s > 0 else 0.0
    return HierarchicalAllReduce(n_bytes=n_bytes, world_size=world_size, domain_size=d,
                                 intra_s=intra, inter_s=inter, time_s=total.time_s, busbw_bps=busbw,
                                 pipelined_s=max(intra, inter))


ARCH_OF_GPU = {"h100": "hopper", "b200": "blackwell", "gb200": "blackwell"}


def nccl_all_reduce(n_bytes: float, world_size: int, domain: ScaleUpDomain):
    """NCCL's tuner prediction (:func:`netlab.collectives.nccl_tuner.predict`) for the same
    all-reduce: ``world_size / domain.n_gpus`` NVLink domains ("nodes" to NCCL, which counts
    a multi-node NVLink rack as one), each GPU with ``domain.scaleout_per_gpu_bps`` of network.

    NCCL does not run the three phases of :func:`hierarchical_all_reduce` one after the
    other: its rings cross nodes through every NIC at once and pipeline chunks through
    both tiers, and its NVLS tree reduces in the NVLink Switch while the network tree
    works; its bus bandwidth is the smaller of the two tiers'. Expect a time near
    ``pipelined_s``, not ``time_s`` [nccl-tuning-cc-2-30].

    >>> e = nccl_all_reduce(1e9, 576, preset("dgx-h100"))
    >>> e.label, round(e.time_s * 1e3, 2)
    ('nvls/Simple', 5.27)
    """
    from netlab.collectives import nccl_tuner
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    world_size = validate.integer("world_size", world_size, minimum=2, maximum=nccl_tuner.MAX_RANKS)
    if not isinstance(domain, ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    if world_size % domain.n_gpus:
        raise ValueError(f"world_size must be a multiple of domain.n_gpus ({domain.n_gpus}), got {world_size}")
    if domain.gpu not in ARCH_OF_GPU:
        raise ValueError(f"domain.gpu must be one of {sorted(ARCH_OF_GPU)} (NCCL's tuner knows Hopper and "
                         f"Blackwell), got {domain.gpu!r}")
    return nccl_tuner.predict(n_bytes, world_size, world_size // domain.n_gpus, fabric=domain.fabric,
                              arch=ARCH_OF_GPU[domain.gpu], nic_bps=domain.scaleout_per_gpu_bps)


def crossover_domain_size(ratio: float, world_size: int | None = None) -> float:
    """Domain size at which a large all-reduce spends as long inside domains as across them.

    Equating the transfer terms ``2(d-1)/d * 8N/B_up`` and ``2(m-1)/m * 8N/(d B_out)``
    with ``r = B_up / B_out`` and ``m = n/d`` gives ``d - 1 = r (n - d)/n``, so

        d* = (1 + r) n / (n + r)     and, for a large world, d* -> 1 + r.

    Below ``d*`` the scale-out network is the bottleneck, above it NVLink is.

    >>> crossover_domain_size(18.0)          # NVLink 5 (900 GB/s) over a 400 Gb/s NIC
    19.0
    """
    r = validate.positive("ratio", ratio)
    if world_size is None:
        return 1.0 + r
    n = validate.integer("world_size", world_size, minimum=1)
    return (1.0 + r) * n / (n + r)


def latency_optimal_domain_size(world_size: int, intra_alpha_s: float, inter_alpha_s: float) -> float:
    """Domain size minimising the latency terms of a hierarchical all-reduce (tiny messages).

    ``2(d-1) a_in + 2(n/d - 1) a_out`` is smallest at ``d = sqrt(n * a_out / a_in)``: the
    cheaper the steps inside a domain, the larger the domain should be.

    >>> round(latency_optimal_domain_size(576, 1e-6, 4e-6), 6)
    48.0
    """
    n = validate.integer("world_size", world_size, minimum=1)
    a_in = validate.positive("intra_alpha_s", intra_alpha_s)
    a_out = validate.positive("inter_alpha_s", inter_alpha_s)
    return math.sqrt(n * a_out / a_in)
