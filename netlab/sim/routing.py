"""Routing: shortest paths by hop count, with every equal-cost next hop kept.

Hosts do not forward, and each hangs off one switch (its *edge* switch), so a
shortest path to a host is a shortest path to its edge switch plus the last link.
One breadth-first search from each edge switch over the switches gives every
switch's distance to it; a switch's candidate ports towards that edge are those
whose peer is one hop closer. When there are several (a leaf-spine has one per
spine) the switch's load balancer picks one per packet.

So a switch keeps a table by edge switch, ``by_edge[e]``, and a small dict
``routes`` for the hosts on its own ports; :meth:`Switch.route(host_id)
<netlab.sim.switch.Switch.route>` reads them. Memory grows as switches x edge
switches, not switches x hosts: at 8,192 hosts on a fat tree of 32-port switches,
0.66 million entries instead of 10.5 million, most of them the same few tuples.
``Network.set_route`` overrides the candidates for one switch and destination host
(kept in ``routes``, which is read first), e.g. to build the cyclic routes of a
deadlock experiment.
"""

from __future__ import annotations

from netlab.sim.host import Host
from netlab.sim.switch import Switch


def compute_routes(network) -> None:
    """Fill every switch's ``by_edge`` (edge number -> equal-cost output ports) and ``routes``
    (host id -> ports, for its own hosts and hand-set routes), and ``network.edge_of``."""
    switches = list(network.switches.values())
    number = {sw: i for i, sw in enumerate(switches)}
    # a switch's ports towards switches, as (port index, peer number): the only ports a path
    # through it can leave by, besides the ports to the destination host itself
    uplinks = [[(p.index, number[p.peer]) for p in sw.ports if isinstance(p.peer, Switch)] for sw in switches]
    edges: list[Switch] = []                 # the switches hosts hang off, in the order of their hosts
    edge_number: dict[Switch, int] = {}
    edge_of = []                             # host id -> its edge switch's number
    for host in network._host_by_id:
        edge = host.port.peer
        if edge not in edge_number:
            edge_number[edge] = len(edges)
            edges.append(edge)
        edge_of.append(edge_number[edge])
        edge.routes[host.id] = tuple([p.index for p in edge.ports if p.peer is host])
    network.edge_of = edge_of
    for sw in switches:
        sw.edge_of = edge_of
        sw.by_edge = [None] * len(edges)     # None: this switch cannot reach that edge
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}   # one object per distinct tuple of ports
    for e, edge in enumerate(edges):
        dist = [-1] * len(switches)
        start = number[edge]
        dist[start] = 0
        frontier, d = [start], 0
        while frontier:                      # breadth-first, one distance at a time
            d += 1
            reached = []
            for s in frontier:
                for _, peer in uplinks[s]:
                    if dist[peer] < 0:
                        dist[peer] = d
                        reached.append(peer)
            frontier = reached
        for s, sw in enumerate(switches):
            d = dist[s]
            if d > 0:
                ports = tuple([i for i, peer in uplinks[s] if dist[peer] == d - 1])
                sw.by_edge[e] = shared.setdefault(ports, ports)
    for (sw_name, host_name), ports in network.route_overrides.items():
        network.switches[sw_name].routes[network.hosts[host_name].id] = ports
        network.switches[sw_name].set_by_hand = True
    sources: dict[Host, list[Host]] = {}     # destination host -> the sources of its flows
    for flow in network.flows:
        sources.setdefault(flow.dst, []).append(flow.src)
    for dst in network.hosts.values():
        e = edge_of[dst.id]
        for src in sources.get(dst, ()):
            first = src.port.peer
            if first is not edges[e] and first.by_edge[e] is None:
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
        for i in sw.route(dst.id) or ():
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
