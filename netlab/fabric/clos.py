"""Fabrics: sizing a fat tree (folded Clos, leaf-spine) from a switch's radix.

A scale-out fabric is built from identical switches of ``radix`` ports. A *leaf*
splits its ports into ``d`` downlinks to hosts and ``u`` uplinks; the ratio
``d / u`` is the **oversubscription** (1 = non-blocking, Meta's clusters taper
7:1 between tiers). Above the leaves every tier is non-blocking here.

* **Two tiers (leaf-spine).** Every leaf links to every spine, so a spine's
  ``radix`` ports bound the leaves: at most ``radix * d`` hosts. Non-blocking
  (``d = u = k/2``) that is ``k^2 / 2`` hosts on ``3k/2`` switches.
* **Three tiers (leaf-aggregation-core).** A *pod* is ``u`` aggregation switches
  and the ``k/2`` leaves below them; an aggregation switch sends ``k/2`` ports
  down and ``k/2`` up; a core switch links once to each of up to ``k`` pods. The
  non-blocking case is the k-ary fat tree of Al-Fares et al. :cite:p:`al-fares-fat-tree`:
  ``k^3 / 4`` hosts, ``5k^2 / 4`` switches (``k^2`` in the pods, ``k^2 / 4`` core).

A fabric for fewer hosts than the maximum uses ``ceil(n / d)`` leaves and the
fewest upper-tier switches that offer the ports the leaves' uplinks need.

**Bisection bandwidth** is the rate (one direction) across a cut splitting the
hosts in two equal halves: ``min(n_hosts, leaves * u) * rate / 2``, i.e. the full
``n_hosts * rate / 2`` divided by the oversubscription.

**Optics.** Every switch-to-switch link has a transceiver at each end; host links
too if they are optical (``host_links_optical``), none if they are copper. The
count is per logical port: a twin-port 800G OSFP serving two 400G switch ports
counts as two here (chapter 9 converts).

The result, :class:`Fabric`, is a frozen dataclass of counts per tier that chapter
9 reuses for fabric power. Switch figures come from ``netlab.specs`` (``fabric.*``).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.units import format_rate

#: Switch name -> (registry key of its port count, registry key of its port rate).
SWITCHES = {
    "quantum_hdr": ("fabric.quantum_hdr.ports", "ib.hdr.port_rate"),
    "quantum2": ("fabric.quantum2.ports", "fabric.quantum2.port_rate"),
    "quantum_x800": ("fabric.quantum_x800.ports", "fabric.quantum_x800.port_rate"),
    "sn5400": ("fabric.sn5400.ports", "eth.400g.port_rate"),
    "sn5600": ("fabric.sn5600.ports", "fabric.sn5600.port_rate"),
    "sn5600_400g": ("fabric.sn5600.ports_400g", "eth.400g.port_rate"),
    "tomahawk5": ("fabric.tomahawk5.ports", "eth.800g.port_rate"),
    "sn6810": ("fabric.sn6810.ports", "fabric.photonics.port_rate"),
    "sn6800": ("fabric.sn6800.ports", "fabric.photonics.port_rate"),
}


@dataclass(frozen=True)
class Fabric:
    """Counts of a fat-tree fabric, per tier from the hosts up.

    ``switches_per_tier`` is ``(leaf, spine)`` or ``(leaf, aggregation, core)``;
    ``links_per_tier`` is ``(host-leaf, leaf-spine)`` or ``(host-leaf, leaf-agg,
    agg-core)``. Rates are one direction.
    """

    n_hosts: int
    n_tiers: int
    radix: int
    port_rate_bps: float
    oversubscription: float          # leaf downlinks / uplinks, as built
    leaf_downlinks: int              # d
    leaf_uplinks: int                # u
    switches_per_tier: tuple[int, ...]
    links_per_tier: tuple[int, ...]
    n_pods: int                      # 1 for two tiers
    n_switches: int
    n_links: int                     # all cables, host links included
    n_transceivers: int              # one per optical link end
    bisection_bandwidth_bps: float   # across an equal split of the hosts, one direction
    full_bisection_bps: float        # n_hosts * rate / 2: what a non-blocking fabric gives
    max_hosts: int                   # the most hosts these switches and tiers can attach

    @property
    def bisection_ratio(self) -> float:
        """Bisection bandwidth over the non-blocking value:
        ``1 / oversubscription`` when full."""
        return self.bisection_bandwidth_bps / self.full_bisection_bps

    def __repr__(self) -> str:
        names = ("leaf", "spine") if self.n_tiers == 2 else ("leaf", "agg", "core")
        per_tier = ", ".join(f"{n} {name}" for n, name in zip(self.switches_per_tier, names))
        return (f"{self.n_hosts:,} hosts at {format_rate(self.port_rate_bps)} on {self.n_tiers} tiers "
                f"of radix-{self.radix} switches at {self.oversubscription:g}:1 need {self.n_switches:,} switches "
                f"({per_tier}), {self.n_links:,} links and {self.n_transceivers:,} transceivers; "
                f"bisection {format_rate(self.bisection_bandwidth_bps)}.")


def _leaf_split(radix: int, oversubscription: float) -> tuple[int, int]:
    """``(d, u)``: the most uplinks ``u`` with ``(radix - u) / u >= oversubscription``."""
    u = int(math.floor(radix / (1.0 + oversubscription) + 1e-9))
    if u < 1 or radix - u < 1:
        raise ValueError(f"oversubscription must leave at least one uplink and one downlink "
                         f"on a radix-{radix} leaf, got {oversubscription}")
    return radix - u, u


def _max_hosts(radix: int, n_tiers: int, d: int) -> int:
    if n_tiers == 2:
        return radix * d               # radix leaves (one spine port each) x d hosts
    return radix * (radix // 2) * d    # radix pods x k/2 leaves x d hosts


def max_hosts(radix: int, n_tiers: int = 2, oversubscription: float = 1.0) -> int:
    """The most hosts a fat tree of ``n_tiers`` tiers of radix-``radix`` switches attaches.

    >>> max_hosts(64, 2), max_hosts(64, 3)        # Quantum-2 class, non-blocking
    (2048, 65536)
    """
    radix = validate.integer("radix", radix, minimum=4)
    n_tiers = validate.integer("n_tiers", n_tiers, minimum=2, maximum=3)
    oversubscription = validate.in_range("oversubscription", oversubscription, 1.0, 1000.0)
    d, _ = _leaf_split(radix, oversubscription)
    return _max_hosts(radix, n_tiers, d)


def clos(n_hosts: int, radix: int, port_rate_bps: float, oversubscription: float = 1.0,
         n_tiers: int | None = None, host_links_optical: bool = True) -> Fabric:
    """Size a fat-tree fabric for ``n_hosts`` host ports of ``port_rate_bps``.

    Parameters
    ----------
    n_hosts : int
        Host ports to attach (one per GPU in a rail-optimised cluster).
    radix : int
        Ports per switch (even, >= 4).
    port_rate_bps : float
        Rate of every port, one direction.
    oversubscription : float
        Leaf downlinks per uplink, >= 1 (1 = non-blocking). The leaf takes the most
        uplinks that keep at least this ratio; the ratio built is in the result.
    n_tiers : int or None
        2 or 3; ``None`` picks the fewest tiers that fit ``n_hosts``.
    host_links_optical : bool
        Whether host-to-leaf links carry a transceiver at each end.

    Examples
    --------
    A k = 4 fat tree has 16 hosts and 20 switches.

    >>> f = clos(16, 4, 100e9, n_tiers=3)
    >>> f.n_hosts, f.n_switches, f.switches_per_tier
    (16, 20, (8, 8, 4))
    """
    n_hosts = validate.integer("n_hosts", n_hosts, minimum=1)
    radix = validate.integer("radix", radix, minimum=4)
    if radix % 2:
        raise ValueError(f"radix must be an even integer >= 4, got {radix}")
    port_rate_bps = validate.positive("port_rate_bps", port_rate_bps)
    oversubscription = validate.in_range("oversubscription", oversubscription, 1.0, 1000.0)
    if n_tiers is not None:
        n_tiers = validate.integer("n_tiers", n_tiers, minimum=2, maximum=3)
    host_links_optical = validate.boolean("host_links_optical", host_links_optical)
    d, u = _leaf_split(radix, oversubscription)
    if n_tiers is None:
        n_tiers = 2 if n_hosts <= _max_hosts(radix, 2, d) else 3
    limit = _max_hosts(radix, n_tiers, d)
    if n_hosts > limit:
        raise ValueError(f"n_hosts must be <= {limit:,} for {n_tiers} tiers of radix-{radix} "
                         f"switches at {d / u:g}:1, got {n_hosts:,}")
    return _build(n_hosts, radix, port_rate_bps, d, u, n_tiers, host_links_optical, limit)


def _build(n: int, k: int, rate: float, d: int, u: int, n_tiers: int, optical: bool, limit: int) -> Fabric:
    leaves = math.ceil(n / d)
    uplinks = leaves * u                     # leaf-to-next-tier cables
    switches: tuple[int, ...]
    links: tuple[int, ...]
    if n_tiers == 2:
        spines = math.ceil(uplinks / k)      # each spine offers k ports to the leaves
        switches, links, pods = (leaves, spines), (n, uplinks), 1
    else:
        pods = math.ceil(leaves / (k // 2))  # k/2 leaves under the u aggregation switches of a pod
        aggs = pods * u
        cores = math.ceil(uplinks / k)       # aggregation uplinks = downlinks (1:1 above the leaf)
        switches, links = (leaves, aggs, cores), (n, uplinks, uplinks)
    switch_links = sum(links[1:])
    transceivers = 2 * switch_links + (2 * n if optical else 0)
    return Fabric(
        n_hosts=n, n_tiers=n_tiers, radix=k, port_rate_bps=rate, oversubscription=d / u,
        leaf_downlinks=d, leaf_uplinks=u, switches_per_tier=switches, links_per_tier=links,
        n_pods=pods, n_switches=sum(switches), n_links=sum(links), n_transceivers=transceivers,
        bisection_bandwidth_bps=min(n, uplinks) * rate / 2, full_bisection_bps=n * rate / 2,
        max_hosts=limit,
    )


def fat_tree(k: int, port_rate_bps: float, host_links_optical: bool = True) -> Fabric:
    """The full k-ary three-tier fat tree: ``k^3/4`` hosts on ``5k^2/4`` switches.

    >>> f = fat_tree(64, 400e9)
    >>> f.n_hosts, f.n_switches
    (65536, 5120)
    """
    k = validate.integer("k", k, minimum=4, maximum=4096, why="switch radix; k = 4096 already gives 1.7e10 hosts")
    if k % 2:
        raise ValueError(f"k must be an even integer >= 4, got {k}")
    return clos(k ** 3 // 4, k, port_rate_bps, 1.0, n_tiers=3, host_links_optical=host_links_optical)


def switch_ports(switch: str) -> tuple[int, float]:
    """``(radix, port_rate_bps)`` of a switch in :data:`SWITCHES`, from the registry."""
    validate.choice("switch", switch, SWITCHES)
    ports_key, rate_key = SWITCHES[switch]
    return int(specs.value(ports_key)), specs.value(rate_key)


def for_switch(switch: str, n_hosts: int, oversubscription: float = 1.0, n_tiers: int | None = None,
               host_links_optical: bool = True) -> Fabric:
    """:func:`clos` with the radix and port rate of a real switch (a key of :data:`SWITCHES`).

    >>> for_switch("quantum2", 2048).switches_per_tier     # 2,048 GPUs at 400 Gb/s
    (64, 32)
    """
    radix, rate = switch_ports(switch)
    return clos(n_hosts, radix, rate, oversubscription, n_tiers, host_links_optical)
