"""Rails: how a GPU cluster's scale-out fabric is wired, and where each collective's bytes go.

A GPU sits in a *scale-up domain* (an 8-GPU NVLink node, an NVL72 rack) and owns one NIC on the
scale-out fabric. The GPU with local index ``g`` in every domain forms **rail** ``g``: a cluster of
domains of ``R`` GPUs has ``R`` rails of ``n_domains`` NICs each. Three ways to wire them, all
non-blocking and all built from one registry switch (radix ``k``, leaves of ``d = k/2`` host ports):

* **Fat tree.** The Clos of :func:`netlab.fabric.clos.for_switch` for all ``n_gpus`` NICs, wired
  top-of-rack style: a domain's NICs share a leaf, ``d / R`` domains per leaf. Any GPU reaches any
  other at full rate; a ring of one rail leaves its leaf every ``d / R`` domains.
* **Rail-optimized.** The same tiers, but each leaf serves one rail: NIC ``g`` of ``d`` domains.
  A rail needs ``ceil(n_domains / d)`` leaves, all rails ``R`` times that; the tiers above join
  every leaf as in a fat tree (a rail's last leaf may be part-filled, since it takes no other
  rail). NVIDIA's HGX reference architecture {nvidia-hgx-ra} wires its GPUs' NICs this way.
  With ``n_domains`` a multiple of ``d`` the counts equal the fat tree's: only the wiring
  differs, and with it the traffic.
* **Rail-only** (Wang et al. {wang-rail-only}). Each rail is its own Clos of ``n_domains`` NICs
  (one switch when ``n_domains <= k``) and nothing joins the rails: the spine that would is gone.
  A byte for another rail first crosses the scale-up domain (NVLink) to the GPU on the right rail.

**Counts, cost and power.** Switches, cables (every link, host links included) and transceivers
(one per optical link end) come from :mod:`netlab.fabric.clos`; the rail-only fabric is ``R``
copies of one rail's. Cost is :func:`netlab.optics.costs.fabric_price`, the price model the
capstone designer uses too (switches by capacity from the 64 x 800G street price, one module per
optical link end; the registry's ``cost.*`` estimates, so a low-high range); power is
:func:`netlab.optics.power.fabric_power`. A rail-only fabric saves where a rail needs fewer tiers
than the whole cluster: per host a non-blocking Clos of ``t`` tiers has ``(2t - 1) / k`` switches
and ``2t`` transceivers (all links optical), so dropping from three tiers to two saves 40 % of the
switches and a third of the optics, from three to one 80 % and two thirds. Where a rail needs as
many tiers as the cluster (32,768 GPUs in 8-GPU nodes on 64-port switches: 4,096 NICs per rail
still need three tiers) it saves nothing.

**Where the collectives go** (on non-blocking fabrics with a perfect spread; the all-to-all by its
bandwidth terms only, the all-reduce with the per-step latencies of the domain preset):

* an *all-reduce* (ring or tree, NCCL's hierarchical form) reduces inside each domain over NVLink
  and runs the cross-domain part on each GPU's own rail, ``1/R`` of the bytes per NIC
  (:func:`netlab.nvlink.domains.hierarchical_all_reduce`): rail-local on all three fabrics, and as
  fast on each; the fabrics differ only in how often a ring hop leaves its leaf;
* an *all-to-all* of ``S`` bytes per GPU sends ``S/N`` to every GPU: ``(R - 1)/N`` of it inside
  the domain, ``(N - R)/N`` through the NIC, and of that a share ``(R - 1)/R`` is for GPUs on other
  rails. A fat tree carries those through its spines. NCCL's PXN (PCI x NVLink) instead moves
  such a send over NVLink to the GPU on the destination's rail in the sending node, so it stays
  on one rail; on a rail-only fabric that hop is the only way. The hop adds
  ``(n_domains - 1)(R - 1) S / N`` bytes of NVLink per GPU to its own domain's ``(R - 1) S / N``,
  ``(R - 1) S / R`` in all, against ``(N - R) S / N`` through the NIC; so the forwarded all-to-all
  takes longer by ``(R - 1) N / (R (N - R)) x B_NIC / B_NVLink`` when the hop and the network run
  one after the other: 9.7 % for DGX H100 nodes at scale (400 Gb/s NICs, 450 GB/s of NVLink one
  way), inside the paper's 8.2-11.2 %. Running the two concurrently in chunks would
  hide most of it (``pipelined_s``). What PXN buys, fewer connections and aggregated messages, is
  outside a bandwidth model.

References: ``wang-rail-only`` (the rail-only design and its cost, power and all-to-all claims,
registry ``fabric.rail_only.*``), ``al-fares-fat-tree``, ``nvidia-hgx-ra``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math

from netlab import validate
from netlab.fabric import clos
from netlab.nvlink import domains
from netlab.optics import costs, cpo, power
from netlab.units import format_power, format_time

#: The three wirings this module sizes.
KINDS = ("fat_tree", "rail_optimized", "rail_only")
#: Each wiring's name as the book writes it.
KIND_NAMES = {"fat_tree": "fat tree", "rail_optimized": "rail-optimized", "rail_only": "rail-only"}
#: The largest GPU count the functions accept.
MAX_GPUS = 1_000_000
#: The tables in chapter 5's section on rails, as (switch, domain, GPU counts); each is printed by
#: :func:`comparison_table` (tests/fabric/test_rails.py checks the page against it).
CHAPTER_TABLES = (("quantum2", "dgx-h100", (1024, 4096, 16384, 32768, 65536)),
                  ("quantum2", "gb200-nvl72", (4608, 36864)))


@dataclass(frozen=True)
class RailFabric:
    """One wiring of a cluster's scale-out fabric: its counts, cost range and power.

    ``fabric`` holds the tiers (for ``rail_only`` the sum over the ``n_rails`` independent rails,
    ``switches_per_tier`` then counts every rail's switches of that tier). Costs are a low-high
    range from street-price estimates; power is nameplate, with ``optics`` on the switch ports.
    """

    kind: str
    switch: str
    domain: str
    n_gpus: int
    n_rails: int                # GPUs per scale-up domain, one NIC each
    n_domains: int              # nodes (or racks): NICs per rail
    optics: str
    fabric: clos.Fabric
    cost_low_usd: float
    cost_high_usd: float
    power_w: float

    @property
    def n_tiers(self) -> int:
        return self.fabric.n_tiers

    @property
    def n_switches(self) -> int:
        return self.fabric.n_switches

    @property
    def n_cables(self) -> int:
        """Every link, host links included."""
        return self.fabric.n_links

    @property
    def n_transceivers(self) -> int:
        return self.fabric.n_transceivers

    def __repr__(self) -> str:
        return (f"RailFabric({KIND_NAMES[self.kind]}, {self.n_gpus:,} GPUs in {self.n_domains:,} domains of "
                f"{self.n_rails} on {self.switch}: {self.n_tiers} tier{'s' if self.n_tiers > 1 else ''}, {self.n_switches:,} switches, "
                f"{self.n_cables:,} cables, {self.n_transceivers:,} transceivers; "
                f"${self.cost_low_usd / 1e6:,.1f}-{self.cost_high_usd / 1e6:,.1f} M; {format_power(self.power_w)})")


def _checked(n_gpus: int, switch: str, domain: str) -> tuple[int, int, int]:
    validate.choice("switch", switch, clos.SWITCHES)
    validate.choice("domain", domain, domains.PRESETS)
    rails = domains.preset(domain).n_gpus
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=rails, maximum=MAX_GPUS)
    if n_gpus % rails:
        raise ValueError(f"n_gpus must be a multiple of the {domain} domain's {rails} GPUs, got {n_gpus:,}")
    return n_gpus, rails, n_gpus // rails


def _one_switch(n_hosts: int, radix: int, rate: float, optical: bool) -> clos.Fabric:
    """A 'fabric' of one switch: every host on it, no tier above (a rail of at most ``radix`` NICs)."""
    return clos.Fabric(
        n_hosts=n_hosts, n_tiers=1, radix=radix, port_rate_bps=rate, oversubscription=1.0,
        leaf_downlinks=radix, leaf_uplinks=0, switches_per_tier=(1,), links_per_tier=(n_hosts,), n_pods=1,
        n_switches=1, n_links=n_hosts, n_transceivers=2 * n_hosts if optical else 0,
        bisection_bandwidth_bps=n_hosts * rate / 2, full_bisection_bps=n_hosts * rate / 2, max_hosts=radix)


def _rail_only(switch: str, n_rails: int, n_domains: int, optical: bool) -> clos.Fabric:
    radix, rate = clos.switch_ports(switch)
    if n_domains <= radix:
        rail = _one_switch(n_domains, radix, rate, optical)
    else:
        rail = clos.for_switch(switch, n_domains, host_links_optical=optical)
    times = lambda counts: tuple(n_rails * c for c in counts)  # noqa: E731
    return replace(rail, n_hosts=n_rails * rail.n_hosts, switches_per_tier=times(rail.switches_per_tier),
                   links_per_tier=times(rail.links_per_tier), n_pods=n_rails * rail.n_pods,
                   n_switches=n_rails * rail.n_switches, n_links=n_rails * rail.n_links,
                   n_transceivers=n_rails * rail.n_transceivers,
                   bisection_bandwidth_bps=n_rails * rail.bisection_bandwidth_bps,
                   full_bisection_bps=n_rails * rail.full_bisection_bps, max_hosts=n_rails * rail.max_hosts)


def _rail_optimized(switch: str, n_gpus: int, n_rails: int, n_domains: int, optical: bool) -> clos.Fabric:
    radix, _ = clos.switch_ports(switch)
    d, _ = clos._leaf_split(radix, 1.0)
    padded = n_rails * math.ceil(n_domains / d) * d          # every rail fills whole leaves
    fab = clos.for_switch(switch, padded, host_links_optical=optical)
    unused = padded - n_gpus                                 # empty host ports on rails' last leaves
    return replace(fab, n_hosts=n_gpus, links_per_tier=(n_gpus,) + fab.links_per_tier[1:],
                   n_links=fab.n_links - unused, n_transceivers=fab.n_transceivers - (2 * unused if optical else 0),
                   bisection_bandwidth_bps=min(n_gpus, fab.links_per_tier[1]) * fab.port_rate_bps / 2,
                   full_bisection_bps=n_gpus * fab.port_rate_bps / 2)


def _max_gpus(kind: str, switch: str, n_rails: int) -> int:
    """The most GPUs (in whole domains of ``n_rails``) a wiring attaches with three tiers of ``switch``."""
    radix, _ = clos.switch_ports(switch)
    limit = clos.max_hosts(radix, 3)
    if kind == "fat_tree":
        return limit // n_rails * n_rails
    if kind == "rail_optimized":      # every rail fills whole leaves: n_rails * ceil(n_domains / d) * d <= limit
        d, _ = clos._leaf_split(radix, 1.0)
        return limit // (n_rails * d) * d * n_rails
    return n_rails * limit            # every rail its own Clos of up to ``limit`` domains


def buildable(kind: str, n_gpus: int, switch: str = "quantum2", domain: str = "dgx-h100") -> bool:
    """Whether three tiers of ``switch`` attach ``n_gpus`` GPUs wired as ``kind``.

    >>> buildable("fat_tree", 73_728), buildable("rail_only", 73_728)    # 64-port switches
    (False, True)
    """
    validate.choice("kind", kind, KINDS)
    n_gpus, rails, _ = _checked(n_gpus, switch, domain)
    return n_gpus <= _max_gpus(kind, switch, rails)


def size(kind: str, n_gpus: int, switch: str = "quantum2", domain: str = "dgx-h100",
         optics: str = "dsp_pluggable", host_links_optical: bool = True) -> RailFabric:
    """Size one wiring (a key of :data:`KINDS`) of a non-blocking fabric for ``n_gpus`` GPUs.

    ``switch`` is a key of :data:`netlab.fabric.clos.SWITCHES`; ``domain`` a scale-up preset of
    :mod:`netlab.nvlink.domains` whose GPU count is the number of rails; ``optics`` a switch-port
    option of :mod:`netlab.optics.cpo`. Raises ValueError when the switch cannot attach the GPUs in
    three tiers (a fat tree of 64-port switches stops at 65,536).

    >>> f = size("rail_only", 4096)          # 512 DGX H100 nodes on Quantum-2: two tiers per rail
    >>> f.n_tiers, f.n_switches
    (2, 192)
    """
    validate.choice("kind", kind, KINDS)
    n_gpus, rails, n_domains = _checked(n_gpus, switch, domain)
    optics = validate.choice("optics", optics, cpo.OPTIONS)
    optical = validate.boolean("host_links_optical", host_links_optical)
    limit = _max_gpus(kind, switch, rails)
    if n_gpus > limit:
        raise ValueError(f"n_gpus must be at most {limit:,} for a {KIND_NAMES[kind]} fabric of {switch} switches "
                         f"in three tiers (domains of {rails}), got {n_gpus:,}")
    if kind == "fat_tree":
        fab = clos.for_switch(switch, n_gpus, host_links_optical=optical)
    elif kind == "rail_optimized":
        fab = _rail_optimized(switch, n_gpus, rails, n_domains, optical)
    else:
        fab = _rail_only(switch, rails, n_domains, optical)
    price = costs.fabric_price(fab, optics)
    return RailFabric(kind=kind, switch=switch, domain=domain, n_gpus=n_gpus, n_rails=rails, n_domains=n_domains,
                      optics=optics, fabric=fab, cost_low_usd=price.low_usd, cost_high_usd=price.high_usd,
                      power_w=power.fabric_power(fab, optics).total_w)


@dataclass(frozen=True)
class Traffic:
    """Where a collective's bytes go on one wiring, and how long it takes (bandwidth terms only).

    All-reduce: ``all_reduce_s`` is NCCL's hierarchical form with its tiers overlapped;
    ``ring_hops_leaving_leaf`` is the share of a rail ring's hops that climb above their leaf.
    All-to-all of ``n_bytes`` per GPU: ``nic_bytes`` each NIC sends, ``nvlink_bytes`` each GPU sends
    over NVLink (its own domain's share plus any forwarded cross-rail bytes), ``forwarded_share``
    the share of the NIC's bytes that took an NVLink hop first. ``all_to_all_s`` runs the NVLink
    hop and the network one after the other when bytes are forwarded (else concurrently);
    ``all_to_all_pipelined_s`` overlaps them (the slower sets the time).
    """

    kind: str
    n_gpus: int
    n_bytes: float
    pxn: bool
    all_reduce_s: float
    ring_hops_leaving_leaf: float
    nic_bytes: float
    nvlink_bytes: float
    forwarded_share: float
    all_to_all_network_s: float
    all_to_all_nvlink_s: float
    all_to_all_s: float
    all_to_all_pipelined_s: float

    def __repr__(self) -> str:
        return (f"Traffic({KIND_NAMES[self.kind]}, {self.n_gpus:,} GPUs, {self.n_bytes / 1e6:g} MB per GPU: "
                f"all-reduce {format_time(self.all_reduce_s)} ({self.ring_hops_leaving_leaf:.1%} of ring hops "
                f"leave their leaf); all-to-all {format_time(self.all_to_all_s)} "
                f"({self.forwarded_share:.0%} of NIC bytes forwarded over NVLink first))")


def traffic(kind: str, n_gpus: int, n_bytes: float, switch: str = "quantum2", domain: str = "dgx-h100",
            pxn: bool = True) -> Traffic:
    """All-reduce and all-to-all of ``n_bytes`` per GPU on one wiring (a key of :data:`KINDS`).

    ``pxn`` applies to the rail-optimized fabric: True sends cross-rail bytes over NVLink to the
    destination's rail first (NCCL's PXN), False through the spines. A fat tree never forwards; a
    rail-only fabric always must. The NIC runs at the lower of the domain's scale-out rate and
    the switch's port rate.

    >>> t = traffic("rail_only", 1024, 64e6)
    >>> round(t.all_to_all_s / traffic("fat_tree", 1024, 64e6).all_to_all_s - 1, 3)   # 7/8 x 1024/1016 x 50/450
    0.098
    """
    validate.choice("kind", kind, KINDS)
    n_gpus, rails, n_domains = _checked(n_gpus, switch, domain)
    n_bytes = validate.positive("n_bytes", n_bytes, maximum=1e15, why="a petabyte per GPU")
    pxn = validate.boolean("pxn", pxn)
    dom = domains.preset(domain)
    radix, rate = clos.switch_ports(switch)
    nic_bps = min(dom.scaleout_per_gpu_bps, rate)
    dom = replace(dom, scaleout_per_gpu_bps=nic_bps)
    all_reduce = domains.hierarchical_all_reduce(n_bytes, n_gpus, dom).pipelined_s if n_domains > 1 else \
        domains.hierarchical_all_reduce(n_bytes, n_gpus, dom).intra_s

    d, _ = clos._leaf_split(radix, 1.0)
    if kind == "fat_tree":
        per_leaf = max(1, d // rails)             # domains whose NICs share a top-of-rack leaf
    elif kind == "rail_only" and n_domains <= radix:
        per_leaf = n_domains                      # the whole rail on one switch
    else:
        per_leaf = d                              # a rail leaf takes one NIC from each of d domains
    leaves = math.ceil(n_domains / per_leaf)
    leaving = leaves / n_domains if leaves > 1 else 0.0

    forwards = kind == "rail_only" or (kind == "rail_optimized" and pxn)
    intra = n_bytes * (rails - 1) / n_gpus
    nic = n_bytes * (n_gpus - rails) / n_gpus
    cross_rail = n_bytes * (n_domains - 1) * (rails - 1) / n_gpus
    nvlink = intra + (cross_rail if forwards else 0.0)
    net_s = nic * 8.0 / nic_bps
    nvl_s = nvlink * 8.0 / dom.per_gpu_bps
    if forwards:
        total, pipelined = net_s + nvl_s, max(net_s, nvl_s)
    else:
        total = pipelined = max(net_s, nvl_s)
    return Traffic(kind=kind, n_gpus=n_gpus, n_bytes=n_bytes, pxn=pxn, all_reduce_s=all_reduce,
                   ring_hops_leaving_leaf=leaving, nic_bytes=nic, nvlink_bytes=nvlink,
                   forwarded_share=(cross_rail / nic if forwards and nic > 0 else 0.0),
                   all_to_all_network_s=net_s, all_to_all_nvlink_s=nvl_s, all_to_all_s=total,
                   all_to_all_pipelined_s=pipelined)


@dataclass(frozen=True)
class Saving:
    """What a rail-only fabric saves over a rail-optimized one (shares of the rail-optimized)."""

    n_gpus: int
    switch: str
    domain: str
    tiers_rail_optimized: int
    tiers_rail_only: int
    switches: float
    transceivers: float
    cost_low: float       # on the low prices
    cost_high: float      # on the high prices
    power: float

    def __repr__(self) -> str:
        return (f"Saving({self.n_gpus:,} GPUs on {self.switch}, {self.domain}: {self.tiers_rail_optimized} -> "
                f"{self.tiers_rail_only} tiers; switches {self.switches:.0%}, transceivers {self.transceivers:.0%}, "
                f"cost {self.cost_low:.0%}-{self.cost_high:.0%}, power {self.power:.0%})")


def rail_only_saving(n_gpus: int, switch: str = "quantum2", domain: str = "dgx-h100",
                     optics: str = "dsp_pluggable") -> Saving:
    """Rail-only against rail-optimized: the shares of switches, optics, cost and power saved."""
    ro = size("rail_optimized", n_gpus, switch, domain, optics)
    rl = size("rail_only", n_gpus, switch, domain, optics)
    return Saving(n_gpus=ro.n_gpus, switch=switch, domain=domain, tiers_rail_optimized=ro.n_tiers,
                  tiers_rail_only=rl.n_tiers, switches=1 - rl.n_switches / ro.n_switches,
                  transceivers=1 - rl.n_transceivers / ro.n_transceivers,
                  cost_low=1 - rl.cost_low_usd / ro.cost_low_usd, cost_high=1 - rl.cost_high_usd / ro.cost_high_usd,
                  power=1 - rl.power_w / ro.power_w)


def compare(n_gpus: int, switch: str = "quantum2", domain: str = "dgx-h100", n_bytes: float = 256e6,
            optics: str = "dsp_pluggable") -> dict[str, tuple[RailFabric | None, Traffic]]:
    """Each of :data:`KINDS` -> ``(size, traffic)``; the size is None where the switch cannot
    build that wiring in three tiers (the traffic, on a non-blocking fabric, is still defined)."""
    out = {}
    for kind in KINDS:
        fab = size(kind, n_gpus, switch, domain, optics) if buildable(kind, n_gpus, switch, domain) else None
        out[kind] = (fab, traffic(kind, n_gpus, n_bytes, switch, domain))
    return out


def comparison_table(sizes=(1024, 4096, 16384, 32768, 98304), switch: str = "sn5600_400g",
                     domain: str = "dgx-h100") -> str:
    """A Markdown table of the three wirings at each GPU count: tiers, switches, transceivers,
    cost (millions of dollars, low-high) and power (kW)."""
    sizes = validate.sequence("sizes", sizes)
    rows = ["| GPUs | wiring | tiers | switches | transceivers | cost (\\$ M) | power (kW) |",
            "|---|---|---|---|---|---|---|"]
    for n in sizes:
        for kind in KINDS:
            f = size(kind, n, switch, domain)
            rows.append(f"| {n:,} | {KIND_NAMES[kind]} | {f.n_tiers} | {f.n_switches:,} | {f.n_transceivers:,} | "
                        f"{f.cost_low_usd / 1e6:,.1f}-{f.cost_high_usd / 1e6:,.1f} | {f.power_w / 1e3:,.0f} |")
    return "\n".join(rows)
