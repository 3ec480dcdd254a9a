"""Ready-made topologies: one switch, a chain of switches, a ring, a leaf-spine.

Each function returns a :class:`~netlab.sim.network.Network` (not yet run) whose
hosts are called ``h0, h1, ...`` and switches as documented below; every keyword
that :class:`~netlab.sim.network.Network` accepts (``seed``, ``flow_control``, ``switch_latency_s``,
``cut_through``, ``ecn``, ``load_balancer``, ...) passes through. Rates are one-way
bit/s per link direction; ``propagation_s`` defaults to the registry's cable
assumption (``sim.assume.link_propagation``).

A two-tier *leaf-spine* joins every leaf to every spine; hosts hang off leaves.
Traffic between leaves has ``n_spines`` equal-cost paths, which is where load
balancing matters (chapter 5). Its oversubscription is
``hosts_per_leaf * host_bandwidth_bps / (n_spines * fabric_bandwidth_bps)``.
"""

from __future__ import annotations

from netlab import validate
from netlab.sim.network import Network

MAX_NODES = 4096        # hosts or switches per topology: the simulator keeps every node and packet in Python
_WHY = "every node is simulated in Python; a few thousand is the practical limit"


def single_switch(n_hosts: int, bandwidth_bps: float, propagation_s: float | None = None,
                  **network_kwargs) -> Network:
    """``n_hosts`` hosts ``h0..`` on one switch ``s0``; host ``hi`` is on port ``i``."""
    n_hosts = validate.integer("n_hosts", n_hosts, minimum=2, maximum=MAX_NODES, why=_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    net = Network(**network_kwargs)
    net.add_switch("s0")
    for i in range(n_hosts):
        net.add_host(f"h{i}")
        net.connect(f"h{i}", "s0", bandwidth_bps, propagation_s)
    return net


def chain(n_switches: int, hosts_per_switch: int, bandwidth_bps: float,
          propagation_s: float | None = None, **network_kwargs) -> Network:
    """Switches ``s0 - s1 - ...`` in a line, ``hosts_per_switch`` hosts on each;
    host ``h{i * hosts_per_switch + j}`` is on switch ``s{i}``. A flow from a host on
    ``s0`` to one on the last switch crosses ``n_switches + 1`` links."""
    n_switches = validate.integer("n_switches", n_switches, minimum=1, maximum=MAX_NODES, why=_WHY)
    hosts_per_switch = validate.integer("hosts_per_switch", hosts_per_switch, minimum=1,
                                        maximum=MAX_NODES // n_switches, why=_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    net = Network(**network_kwargs)
    for i in range(n_switches):
        net.add_switch(f"s{i}")
        if i:
            net.connect(f"s{i - 1}", f"s{i}", bandwidth_bps, propagation_s)
    for i in range(n_switches):
        for j in range(hosts_per_switch):
            name = f"h{i * hosts_per_switch + j}"
            net.add_host(name)
            net.connect(name, f"s{i}", bandwidth_bps, propagation_s)
    return net


def ring(n_switches: int, hosts_per_switch: int, bandwidth_bps: float,
         propagation_s: float | None = None, clockwise: bool = False, **network_kwargs) -> Network:
    """Switches ``s0..s{n-1}`` in a ring, hosts numbered as in :func:`chain`. With
    ``clockwise=True`` every switch forwards to remote hosts only towards ``s{i+1}``
    -- a cyclic buffer dependency, the precondition of a PFC (or credit) deadlock."""
    n_switches = validate.integer("n_switches", n_switches, minimum=3, maximum=MAX_NODES, why=_WHY)
    hosts_per_switch = validate.integer("hosts_per_switch", hosts_per_switch, minimum=1,
                                        maximum=MAX_NODES // n_switches, why=_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    clockwise = validate.boolean("clockwise", clockwise)
    net = Network(**network_kwargs)
    for i in range(n_switches):
        net.add_switch(f"s{i}")
    for i in range(n_switches):
        net.connect(f"s{i}", f"s{(i + 1) % n_switches}", bandwidth_bps, propagation_s)
    for i in range(n_switches):
        for j in range(hosts_per_switch):
            name = f"h{i * hosts_per_switch + j}"
            net.add_host(name)
            net.connect(name, f"s{i}", bandwidth_bps, propagation_s)
    if clockwise:
        for i in range(n_switches):
            sw = net.switches[f"s{i}"]
            nxt = next(p.index for p in sw.ports if p.peer.name == f"s{(i + 1) % n_switches}")
            for h in range(n_switches * hosts_per_switch):
                if h // hosts_per_switch != i:
                    net.set_route(sw, f"h{h}", [nxt])
    return net


def leaf_spine(n_leaves: int, n_spines: int, hosts_per_leaf: int, host_bandwidth_bps: float,
               fabric_bandwidth_bps: float, propagation_s: float | None = None,
               **network_kwargs) -> Network:
    """Leaves ``leaf0..``, spines ``spine0..``, every leaf linked to every spine at
    ``fabric_bandwidth_bps``; host ``h{i * hosts_per_leaf + j}`` on ``leaf{i}`` at
    ``host_bandwidth_bps``. On a leaf, ports ``0..n_spines-1`` go to the spines."""
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=1, maximum=MAX_NODES, why=_WHY)
    n_spines = validate.integer("n_spines", n_spines, minimum=1, maximum=MAX_NODES // n_leaves, why=_WHY)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1,
                                      maximum=MAX_NODES // n_leaves, why=_WHY)
    host_bandwidth_bps = validate.positive("host_bandwidth_bps", host_bandwidth_bps)
    fabric_bandwidth_bps = validate.positive("fabric_bandwidth_bps", fabric_bandwidth_bps)
    net = Network(**network_kwargs)
    for i in range(n_leaves):
        net.add_switch(f"leaf{i}")
    for k in range(n_spines):
        net.add_switch(f"spine{k}")
    for i in range(n_leaves):
        for k in range(n_spines):
            net.connect(f"leaf{i}", f"spine{k}", fabric_bandwidth_bps, propagation_s)
    for i in range(n_leaves):
        for j in range(hosts_per_leaf):
            name = f"h{i * hosts_per_leaf + j}"
            net.add_host(name)
            net.connect(name, f"leaf{i}", host_bandwidth_bps, propagation_s)
    return net
