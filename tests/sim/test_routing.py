"""Routes by edge switch give, for every switch and host, the equal-cost ports a breadth-first
search from that host gives (the definition, written out here as the reference)."""

from collections import deque

import pytest

from netlab.sim import Host, Switch
from netlab.sim.routing import compute_routes
from netlab.sim.topology import chain, fat_tree, leaf_spine, rail_optimized, ring, single_switch


def reference_routes(net):
    """{(switch name, host id): ports}: from a BFS out of each host (hosts do not forward), the
    ports whose peer is one hop closer to it."""
    nodes = list(net.hosts.values()) + list(net.switches.values())
    out = {}
    for dst in net.hosts.values():
        dist = {dst: 0}
        frontier = deque([dst])
        while frontier:
            node = frontier.popleft()
            if node is not dst and isinstance(node, Host):
                continue
            for p in node.ports:
                if p.peer not in dist:
                    dist[p.peer] = dist[node] + 1
                    frontier.append(p.peer)
        for sw in nodes:
            if isinstance(sw, Switch) and sw in dist:
                out[(sw.name, dst.id)] = tuple(p.index for p in sw.ports
                                               if dist.get(p.peer, -9) == dist[sw] - 1
                                               and (isinstance(p.peer, Switch) or p.peer is dst))
    return out


@pytest.mark.parametrize("build", [
    lambda: single_switch(3, 1e9),
    lambda: chain(3, 2, 1e9),
    lambda: ring(5, 1, 1e9),
    lambda: leaf_spine(3, 2, 2, 1e9, 1e9),
    lambda: fat_tree(4, 1e9),
    lambda: fat_tree(4, 1e9, tiers=2),
    lambda: rail_optimized(3, 2, 2, 2, 1e9, links_per_spine=2),
], ids=["switch", "chain", "ring", "leaf-spine", "fat-tree-3", "fat-tree-2", "rails"])
def test_routes_by_edge_switch_equal_routes_by_host(build):
    net = build()
    compute_routes(net)
    expected = reference_routes(net)
    got = {(sw.name, h.id): sw.route(h.id) for sw in net.switches.values() for h in net.hosts.values()
           if sw.route(h.id) is not None}
    assert got == expected


def test_hand_set_routes_come_first():
    net = ring(4, 1, 1e9, clockwise=True)
    compute_routes(net)
    s0 = net.switches["s0"]
    towards_s1 = next(p.index for p in s0.ports if p.peer.name == "s1")
    assert s0.route(net.hosts["h3"].id) == (towards_s1,)      # the long way round, as set
    assert reference_routes(net)[("s0", net.hosts["h3"].id)] != (towards_s1,)


def test_fat_tree_counts_and_paths():
    """k = 4: 16 hosts, 8 edge, 8 aggregation and 4 core switches; between pods a switch at
    the edge has k/2 = 2 ways up, an aggregation switch 2, a core switch 1 way down."""
    net = fat_tree(4, 1e9)
    names = sorted(net.switches)
    assert len(net.hosts) == 16
    assert sum(n.startswith("edge") for n in names) == 8 and sum(n.startswith("core") for n in names) == 4
    compute_routes(net)
    far = net.hosts["h15"].id                                 # on edge7, pod 3
    assert len(net.switches["edge0"].route(far)) == 2
    assert len(net.switches["agg0"].route(far)) == 2
    assert len(net.switches["core0"].route(far)) == 1
    assert len(net.switches["agg0"].route(net.hosts["h3"].id)) == 1      # same pod: down to edge1


@pytest.mark.parametrize("call, name", [
    (lambda: fat_tree(5, 1e9), "k"),
    (lambda: fat_tree(66, 1e9), "k"),                # 71,874 hosts: over MAX_NODES
    (lambda: fat_tree(4, 1e9, tiers=4), "tiers"),
    (lambda: rail_optimized(0, 2, 2, 2, 1e9), "n_domains"),
])
def test_bad_sizes_are_refused(call, name):
    with pytest.raises(ValueError, match=name):
        call()
