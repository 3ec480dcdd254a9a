"""Routing: shortest paths by hop count, with every equal-cost next hop kept.

For each destination host a breadth-first search from that host gives every node's
distance to it (hosts do not forward). A switch's candidate ports towards the host
are those whose peer is one hop closer; when there are several (a leaf-spine has one
per spine) the switch's load balancer picks one per packet. ``Network.set_route``
overrides the candidates for one switch and destination, e.g. to build the cyclic
routes of a deadlock experiment.
"""

from __future__ import annotations

from collections import deque
import math

from netlab.sim.host import Host
from netlab.sim.switch import Switch


def compute_routes(network) -> None:
    """Fill every switch's ``routes``: destination host id -> equal-cost output ports."""
    adjacency = {}
    for node in list(network.hosts.values()) + list(network.switches.values()):
        adjacency[node] = [(p.index, p.peer) for p in node.ports]
    # fast path: a switch's ports towards switches, the only ones a path through it can leave by
    # (besides the ports to the destination itself); a leaf's host ports are not scanned for every host
    switch_ports = {sw: [(i, peer) for i, peer in adjacency[sw] if isinstance(peer, Switch)]
                    for sw in network.switches.values()}
    sources: dict[Host, list[Host]] = {}     # destination host -> the sources of its flows
    for flow in network.flows:
        sources.setdefault(flow.dst, []).append(flow.src)
    for dst in network.hosts.values():
        dist = {dst: 0}
        frontier = deque([dst])
        while frontier:
            node = frontier.popleft()
            if node is not dst and isinstance(node, Host):
                continue                     # hosts do not forward
            for _, peer in adjacency[node]:
                if peer not in dist:
                    dist[peer] = dist[node] + 1
                    frontier.append(peer)
        for sw in network.switches.values():
            forced = network.route_overrides.get((sw.name, dst.name))
            if forced is not None:
                sw.routes[dst.id] = forced
            elif sw in dist:
                d = dist[sw]
                if d == 1:                   # the destination's own switch: only ports to it
                    sw.routes[dst.id] = tuple([i for i, peer in adjacency[sw] if peer is dst])
                else:
                    sw.routes[dst.id] = tuple([i for i, peer in switch_ports[sw] if dist.get(peer, math.inf) == d - 1])
        for src in sources.get(dst, ()):
            if src not in dist:
                raise ValueError(f"host {src.name} cannot reach {dst.name}: no path on this topology")
        if network.route_overrides:
            _check_forwarding(network, dst)


def _check_forwarding(network, dst) -> None:
    """With routes set by hand, every path towards ``dst`` must end at ``dst``: no switch may send its
    traffic to another host (it would be counted as delivered where it is not), and no route may
    loop (a packet would circle until the run's event budget ran out)."""
    state: dict = {}                      # switch -> 1 on the current path, 2 checked

    def walk(sw, path):
        state[sw] = 1
        for i in sw.routes.get(dst.id, ()):
            peer = sw.ports[i].peer
            if isinstance(peer, Host):
                if peer is not dst:
                    raise ValueError(f"route towards {dst.name}: {sw.name} port {i} leads to host {peer.name}; "
                                     f"packets for {dst.name} would be delivered to the wrong host")
            elif state.get(peer) == 1:
                loop = path[path.index(peer):] + [peer]
                raise ValueError(f"routing loop towards {dst.name}: {' -> '.join(s.name for s in loop)}; "
                                 f"packets would circle forever (check set_route)")
            elif peer not in state:
                walk(peer, path + [peer])
        state[sw] = 2

    for flow in network.flows:
        if flow.dst is dst:
            first = flow.src.ports[0].peer
            if isinstance(first, Switch) and first not in state:
                walk(first, [first])
