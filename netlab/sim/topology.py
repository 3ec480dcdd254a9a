"""Ready-made topologies: one switch, a chain of switches, a ring, a leaf-spine, a fat tree,
a rail-optimized fabric.

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

A *fat tree* of radix ``k`` (Al-Fares et al., reference ``al-fares-fat-tree``) is
the non-blocking Clos of ``k``-port switches: two tiers attach ``k^2/2`` hosts,
three tiers ``k^3/4`` (``k`` pods of ``k/2`` edge and ``k/2`` aggregation switches,
``(k/2)^2`` core switches). A *rail-optimized* fabric puts NIC ``g`` of every
scale-up domain (GPU ``g`` of a node) on the leaves of rail ``g``, and joins all
leaves by spines (chapter 5, :mod:`netlab.fabric.rails`).
"""

from __future__ import annotations

from netlab import validate
from netlab.sim.network import Network

MAX_NODES = 65_536      # hosts or switches per topology: the simulator keeps every node and packet in Python
_WHY = ("every node is simulated in Python: 8,192 hosts run a 2 MB permutation in about a minute; "
        "use netlab.fabric.flowlevel beyond")


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


def fat_tree(k: int, bandwidth_bps: float, propagation_s: float | None = None, tiers: int = 3,
             **network_kwargs) -> Network:
    """The non-blocking fat tree of ``k``-port switches, every link at ``bandwidth_bps``.

    ``tiers=2`` is :func:`leaf_spine` with ``k`` leaves of ``k/2`` hosts and ``k/2`` spines
    (``k^2/2`` hosts). ``tiers=3``: ``k`` pods, each of ``k/2`` edge switches ``edge{e}`` and
    ``k/2`` aggregation switches ``agg{a}`` (pod ``e // (k/2)``), every edge joined to every
    aggregation switch of its pod; aggregation switch ``j`` of each pod (``j = a % (k/2)``)
    joined to core switches ``core{j * k/2}`` .. ``core{j * k/2 + k/2 - 1}``; host
    ``h{e * k/2 + i}`` on ``edge{e}``, ``k^3/4`` hosts in all. On an edge switch ports
    ``0..k/2-1`` go to the aggregation switches; on an aggregation switch ports ``0..k/2-1`` go
    down to the edges, ``k/2..k-1`` up to the cores.

    >>> net = fat_tree(4, 100e9)
    >>> len(net.hosts), len(net.switches)          # k^3/4 hosts, 5k^2/4 switches
    (16, 20)
    """
    k = validate.integer("k", k, minimum=2, maximum=512, why="the largest switch radix in the registry")
    if k % 2:
        raise ValueError(f"k must be even (k/2 ports down and k/2 up per switch), got {k}")
    tiers = validate.integer("tiers", tiers, minimum=2, maximum=3)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    h = k // 2
    if tiers == 2:
        validate.integer("k", k, minimum=2, maximum=int((2 * MAX_NODES) ** 0.5), why=_WHY)
        return leaf_spine(k, h, h, bandwidth_bps, bandwidth_bps, propagation_s, **network_kwargs)
    validate.integer("k", k, minimum=2, maximum=int(round((4 * MAX_NODES) ** (1 / 3))), why=_WHY)
    net = Network(**network_kwargs)
    n_edges = k * h
    for e in range(n_edges):
        net.add_switch(f"edge{e}")
    for a in range(n_edges):
        net.add_switch(f"agg{a}")
    for c in range(h * h):
        net.add_switch(f"core{c}")
    for a in range(n_edges):                    # down-links first, so ports 0..h-1 face the edges
        pod = a // h
        for e in range(pod * h, pod * h + h):
            net.connect(f"edge{e}", f"agg{a}", bandwidth_bps, propagation_s)
    for a in range(n_edges):
        j = a % h
        for c in range(j * h, j * h + h):
            net.connect(f"agg{a}", f"core{c}", bandwidth_bps, propagation_s)
    for e in range(n_edges):
        for i in range(h):
            name = f"h{e * h + i}"
            net.add_host(name)
            net.connect(name, f"edge{e}", bandwidth_bps, propagation_s)
    return net


def rail_optimized(n_domains: int, n_rails: int, hosts_per_leaf: int, n_spines: int, bandwidth_bps: float,
                   propagation_s: float | None = None, links_per_spine: int = 1,
                   **network_kwargs) -> Network:
    """A two-tier rail-optimized fabric for ``n_domains`` scale-up domains (nodes) of ``n_rails``
    GPUs, one NIC each, every link at ``bandwidth_bps``.

    GPU ``g`` of domain ``n`` is host ``h{n * n_rails + g}``. Rail ``g`` has
    ``ceil(n_domains / hosts_per_leaf)`` leaves ``rail{g}_leaf{j}``; leaf ``j`` of rail ``g``
    holds GPU ``g`` of domains ``j * hosts_per_leaf`` .. (the last leaf of a rail may be part
    filled). Every leaf joins every spine ``spine{s}`` by ``links_per_spine`` parallel links
    (ports ``0..n_spines * links_per_spine - 1`` of a leaf). A ring among the GPUs of one rail
    stays on the rail's leaves; traffic between rails crosses a spine (or, with PXN, first the
    scale-up domain, which this fabric does not model). :func:`netlab.fabric.experiments.rail_network`
    takes its dimensions from :mod:`netlab.fabric.rails`.

    >>> net = rail_optimized(4, 2, 2, 2, 100e9)       # 4 nodes of 2 GPUs: 2 rails of 2 leaves
    >>> sorted(net.switches)[:3], net.hosts["h5"].port.peer.name     # GPU 1 of node 2
    (['rail0_leaf0', 'rail0_leaf1', 'rail1_leaf0'], 'rail1_leaf1')
    """
    n_domains = validate.integer("n_domains", n_domains, minimum=1, maximum=MAX_NODES, why=_WHY)
    n_rails = validate.integer("n_rails", n_rails, minimum=1, maximum=MAX_NODES // n_domains, why=_WHY)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=MAX_NODES)
    n_spines = validate.integer("n_spines", n_spines, minimum=1, maximum=MAX_NODES, why=_WHY)
    links_per_spine = validate.integer("links_per_spine", links_per_spine, minimum=1, maximum=512)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    leaves_per_rail = -(-n_domains // hosts_per_leaf)
    net = Network(**network_kwargs)
    for g in range(n_rails):
        for j in range(leaves_per_rail):
            net.add_switch(f"rail{g}_leaf{j}")
    for s in range(n_spines):
        net.add_switch(f"spine{s}")
    for g in range(n_rails):
        for j in range(leaves_per_rail):
            for s in range(n_spines):
                for _ in range(links_per_spine):
                    net.connect(f"rail{g}_leaf{j}", f"spine{s}", bandwidth_bps, propagation_s)
    for n in range(n_domains):
        for g in range(n_rails):
            name = f"h{n * n_rails + g}"
            net.add_host(name)
            net.connect(name, f"rail{g}_leaf{n // hosts_per_leaf}", bandwidth_bps, propagation_s)
    return net
