"""Chapter 5 experiments: one traffic pattern on a leaf-spine, under each load-balancing scheme.

:func:`run_pattern` builds a :func:`~netlab.sim.topology.leaf_spine`, runs a traffic pattern
(a permutation, or an all-to-all) with the same lossless (PFC) fabric and the same
reorder-tolerant transport for every scheme (UET-like RUD without per-packet entropy, so only
the switches decide the path; loss is presumed only after :data:`REORDER_THRESHOLD` later
packets), and returns a :class:`FabricRun`. The schemes are the policies of
:mod:`netlab.sim.loadbalance`. :func:`fail_spine_link` removes one leaf-spine link as routing
does once it has converged around a failure (the transient before convergence is not
simulated); :func:`interleaved_jobs` places several jobs on one fabric (noisy neighbours).
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import random
import time

from netlab import specs, validate
from netlab.fabric import rails
from netlab.sim.engine import DEFAULT_MAX_EVENTS
from netlab.sim.loadbalance import SCHEMES, balancer
from netlab.sim.network import DEFAULT_MAX_WALL_S, MAX_RUN_EVENTS, MAX_SCENARIO_BYTES, SCENARIO_WHY, Network
from netlab.sim.packet import DATA, Packet
from netlab.sim.routing import compute_routes
from netlab.sim.switch import ECMP, PFC
from netlab.sim.topology import fat_tree, leaf_spine, rail_optimized
from netlab.sim.uet import uet

PATTERNS = ("permutation", "all_to_all")
#: Packets acknowledged after a missing one before the sender presumes it lost. The
#: fabric here is lossless, so reordering is the only cause of gaps: the threshold must
#: exceed the reorder depth spraying creates, or the sender resends spuriously.
REORDER_THRESHOLD = 1024


def fail_spine_link(net, n_leaves: int, n_spines: int, hosts_per_leaf: int, leaf: int, spine: int) -> None:
    """Take the link ``leaf{leaf}``-``spine{spine}`` out of every route of a leaf-spine
    built by :func:`~netlab.sim.topology.leaf_spine` (before it runs).

    ``leaf`` stops using that uplink, and every other leaf stops sending traffic for
    ``leaf``'s hosts through ``spine`` (which can no longer reach them).
    """
    validate.instance("net", net, Network, "a Network built by sim.topology.leaf_spine")
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=2, maximum=len(net.switches))
    n_spines = validate.integer("n_spines", n_spines, minimum=2, maximum=len(net.switches))
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=len(net.hosts))
    leaf = validate.integer("leaf", leaf, minimum=0, maximum=n_leaves - 1)
    spine = validate.integer("spine", spine, minimum=0, maximum=n_spines - 1)
    built = (sum(name.startswith("leaf") for name in net.switches), sum(name.startswith("spine") for name in net.switches),
             len(net.hosts))
    if built != (n_leaves, n_spines, n_leaves * hosts_per_leaf):
        raise ValueError(f"n_leaves, n_spines and hosts_per_leaf must describe net, which has {built[0]} leaves, "
                         f"{built[1]} spines and {built[2]} hosts; got {n_leaves}, {n_spines} and {hosts_per_leaf}")
    others = [k for k in range(n_spines) if k != spine]      # leaf ports 0..n_spines-1 face spines
    for i in range(n_leaves):
        for h in range(n_leaves * hosts_per_leaf):
            on = h // hosts_per_leaf
            if on != i and (i == leaf or on == leaf):
                net.set_route(f"leaf{i}", f"h{h}", others)


@dataclass(frozen=True)
class FabricRun:
    """One traffic pattern on a leaf-spine under one load-balancing scheme."""

    scheme: str
    pattern: str
    n_hosts: int                          # hosts taking part
    n_flows: int
    ideal_s: float                        # one host's bytes at its line rate
    completion_times_s: tuple[float, ...]  # per flow, in flow order
    job_times_s: tuple[float, ...]        # per job: its last flow's completion
    uplink_bytes: tuple[int, ...]         # bytes sent on each leaf-to-spine port (data and ACKs)
    out_of_order_packets: int
    retransmitted_packets: int            # resends; spurious ones if nothing was dropped
    dropped_packets: int
    events_processed: int
    wall_s: float

    @property
    def job_time_s(self) -> float:
        return max(self.job_times_s)

    @property
    def slowdown(self) -> float:
        """Time of the slowest job over the ideal:
        1 means the fabric was invisible."""
        return self.job_time_s / self.ideal_s

    def percentile_s(self, q: float) -> float:
        """Flow completion time at percentile ``q`` in [0, 100] (nearest rank)."""
        q = validate.in_range("q", q, 0.0, 100.0)
        times = sorted(self.completion_times_s)
        return times[max(0, math.ceil(q / 100 * len(times)) - 1)]

    @property
    def events_per_s(self) -> float:
        return self.events_processed / self.wall_s if self.wall_s > 0 else math.inf

    def __repr__(self) -> str:
        return (f"FabricRun({self.scheme}, {self.pattern} of {self.n_flows} flows on {self.n_hosts} hosts: "
                f"slowest job {self.slowdown:.2f}x ideal, median flow "
                f"{self.percentile_s(50) / self.ideal_s:.2f}x, {self.out_of_order_packets} out of order, "
                f"{self.events_processed:,} events)")


def run_pattern(scheme: str, pattern: str = "permutation", n_leaves: int = 8, n_spines: int = 8,
                hosts_per_leaf: int = 8, bytes_per_host: int = 1_000_000, bandwidth_bps: float = 100e9,
                failed_link: tuple[int, int] | None = None, jobs: tuple | None = None,
                seed: int = 0, propagation_s: float | None = None,
                event_by_event: bool = False, ack_every: int = 1) -> FabricRun:
    """Run a traffic pattern on a non-blocking leaf-spine and time it.

    ``permutation``: every host sends ``bytes_per_host`` to one host on another leaf.
    ``all_to_all``: every host sends ``bytes_per_host / (n - 1)`` to every other host.
    ``failed_link = (leaf, spine)`` removes that link (:func:`fail_spine_link`).
    ``jobs``: a tuple of host-index tuples; each job runs the pattern among its own
    hosts, all at once (noisy neighbours); ``None`` is one job of every host. Hosts
    and spine links run at ``bandwidth_bps``, with ``propagation_s`` each (default: the
    registry's cable assumption). ``event_by_event=True`` runs the simulator's
    reference mode (same results, more events; see :class:`~netlab.sim.network.Network`).
    ``ack_every``: packets per SACK (see :mod:`netlab.sim.uet`; htsim's UEC sink uses 4).
    """
    validate.choice("scheme", scheme, SCHEMES)
    validate.choice("pattern", pattern, PATTERNS)
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=2, maximum=128, why=SCENARIO_WHY)
    n_spines = validate.integer("n_spines", n_spines, minimum=1, maximum=64, why=SCENARIO_WHY)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=64, why=SCENARIO_WHY)
    bytes_per_host = validate.integer("bytes_per_host", bytes_per_host, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    seed = validate.integer("seed", seed, minimum=0)
    n_hosts = n_leaves * hosts_per_leaf
    if jobs is not None:
        jobs = tuple(validate.sequence("jobs", jobs, "a tuple of host-index tuples"))
        for job in jobs:
            validate.sequence("jobs", job, "a tuple of host-index tuples")
    jobs = (tuple(range(n_hosts)),) if jobs is None else tuple(tuple(sorted(set(j))) for j in jobs)
    taken = [h for job in jobs for h in job]
    if (not jobs or any(len(job) < 2 for job in jobs) or len(taken) != len(set(taken))
            or not all(isinstance(h, int) and 0 <= h < n_hosts for h in taken)):
        raise ValueError(f"jobs must be disjoint tuples of at least two host indices in "
                         f"[0, {n_hosts - 1}], got {jobs!r}")
    if propagation_s is not None:
        propagation_s = validate.non_negative("propagation_s", propagation_s)
    net = leaf_spine(n_leaves, n_spines, hosts_per_leaf, bandwidth_bps, bandwidth_bps, propagation_s,
                     flow_control=PFC(specs.value("sim.assume.buffer_per_port")),
                     load_balancer=balancer(scheme), seed=seed, event_by_event=event_by_event)
    if failed_link is not None:
        leaf_and_spine = validate.sequence("failed_link", failed_link, "a (leaf, spine) pair")
        if len(leaf_and_spine) != 2:
            raise TypeError(f"failed_link must be a (leaf, spine) pair, got {failed_link!r:.80}")
        fail_spine_link(net, n_leaves, n_spines, hosts_per_leaf, *leaf_and_spine)
    return _run_jobs(net, scheme, pattern, jobs, lambda h: h // hosts_per_leaf, bytes_per_host, bandwidth_bps,
                     seed, ack_every, ("leaf", "spine"))


def _run_jobs(net, scheme: str, pattern: str, jobs: tuple, leaf_of, bytes_per_host: int, bandwidth_bps: float,
              seed: int, ack_every: int, uplink: tuple[str, str], max_events: int = DEFAULT_MAX_EVENTS,
              flows: list | None = None, max_wall_s: float = DEFAULT_MAX_WALL_S) -> FabricRun:
    """Add each job's flows to ``net`` (hosts ``h{i}``, ``leaf_of(i)`` the switch a host hangs off),
    run it, and read the result; ``uplink`` names the (lower, upper) switch prefixes of the ports
    counted in ``uplink_bytes``."""
    pair = uet(spray=False, reorder_threshold=REORDER_THRESHOLD, ack_every=ack_every)
    rng = random.Random(seed)
    job_of = []
    taken = [h for job in jobs for h in job]
    for j, members in enumerate(jobs):
        chosen = flows if flows is not None else _flows(pattern, list(members), leaf_of, bytes_per_host, rng)
        for src, dst, size in chosen:
            net.add_flow(f"h{src}", f"h{dst}", size, transport=pair)
            job_of.append(j)
    start = time.perf_counter()
    r = net.run(max_events=max_events, max_wall_s=max_wall_s)
    wall = time.perf_counter() - start
    if r.stop_reason != "complete":
        raise RuntimeError(f"the run stopped early ({r.stop_reason}); shrink the pattern")
    times = tuple(f.completion_time_s for f in r.flows)
    low, high = uplink
    uplinks = tuple(p.tx_bytes for p in r.ports if p.name.startswith(low) and p.peer.startswith(high))
    return FabricRun(
        scheme=scheme, pattern=pattern, n_hosts=len(taken), n_flows=len(times),
        ideal_s=bytes_per_host * 8.0 / bandwidth_bps, completion_times_s=times,
        job_times_s=tuple(max(t for t, j in zip(times, job_of) if j == k) for k in range(len(jobs))),
        uplink_bytes=uplinks, out_of_order_packets=sum(f.out_of_order_packets for f in r.flows),
        retransmitted_packets=sum(f.retransmitted_packets for f in r.flows), dropped_packets=r.dropped_packets,
        events_processed=r.events_processed, wall_s=wall)


def fat_tree_pattern(scheme: str, k: int, pattern: str = "permutation", bytes_per_host: int = 2_000_000,
                     bandwidth_bps: float = 100e9, tiers: int = 3, seed: int = 0,
                     propagation_s: float | None = None, ack_every: int = 1,
                     max_events: int = MAX_RUN_EVENTS, max_wall_s: float = DEFAULT_MAX_WALL_S) -> FabricRun:
    """:func:`run_pattern` on the fat tree of ``k``-port switches
    (:func:`~netlab.sim.topology.fat_tree`: ``k^3/4`` hosts in three tiers, ``k^2/2`` in two),
    the same lossless fabric and transport; a permutation sends every host's bytes to a host
    under another edge switch. One priority is simulated (all the traffic uses priority 0, so
    the results are those of eight), which keeps 8,192 hosts at about 1 GB. ``max_wall_s`` is the
    run's guard in real seconds (:meth:`~netlab.sim.network.Network.run`; a busy shared machine may
    need more than the default for 8,192 hosts).

    >>> run = fat_tree_pattern("spray", 4, bytes_per_host=20_000, propagation_s=1e-6)
    >>> run.n_flows, run.dropped_packets
    (16, 0)
    """
    validate.choice("scheme", scheme, SCHEMES)
    validate.choice("pattern", pattern, PATTERNS)
    k = validate.integer("k", k, minimum=4, maximum=32, why="8,192 hosts in three tiers; use flowlevel beyond")
    tiers = validate.integer("tiers", tiers, minimum=2, maximum=3)
    bytes_per_host = validate.integer("bytes_per_host", bytes_per_host, minimum=1, maximum=MAX_SCENARIO_BYTES,
                                      why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    seed = validate.integer("seed", seed, minimum=0)
    max_events = validate.integer("max_events", max_events, minimum=1, maximum=MAX_RUN_EVENTS)
    max_wall_s = validate.positive("max_wall_s", max_wall_s)
    if propagation_s is not None:
        propagation_s = validate.non_negative("propagation_s", propagation_s)
    net = fat_tree(k, bandwidth_bps, propagation_s, tiers=tiers,
                   flow_control=PFC(specs.value("sim.assume.buffer_per_port")),
                   load_balancer=balancer(scheme), seed=seed, n_priorities=1)
    h = k // 2
    low = ("edge", "agg") if tiers == 3 else ("leaf", "spine")
    return _run_jobs(net, scheme, pattern, (tuple(range(len(net.hosts))),), lambda i: i // h, bytes_per_host,
                     bandwidth_bps, seed, ack_every, low, max_events, max_wall_s=max_wall_s)


def _permutation_paths(k: int, bytes_per_host: int, bandwidth_bps: float, seed: int, propagation_s: float,
                       load_balancer) -> tuple[Network, list[list]]:
    """The ECMP permutation of :func:`fat_tree_pattern` (same seed, same flows), and each flow's
    links in the order it crosses them (its host's own link, then ``(switch, port)`` per hop),
    chosen by ``load_balancer`` at every switch with more than one way on."""
    net = fat_tree(k, bandwidth_bps, propagation_s, seed=seed, n_priorities=1)
    h = k // 2
    for src, dst, size in _flows("permutation", list(range(len(net.hosts))), lambda i: i // h, bytes_per_host,
                                 random.Random(seed)):
        net.add_flow(f"h{src}", f"h{dst}", size)
    compute_routes(net)
    paths = []
    for flow in net.flows:
        probe = Packet(DATA, flow.flow_id, flow.src.id, flow.dst.id, 1, entropy=flow.entropy)
        hops: list = [flow.src.name]                             # the host's own link
        sw = flow.src.port.peer
        while True:
            ports = sw.route(flow.dst.id)
            out = ports[0] if len(ports) == 1 else load_balancer.choose(sw, probe, ports)
            hops.append((sw.name, out))
            nxt = sw.ports[out].peer
            if nxt is flow.dst:
                break
            sw = nxt
        paths.append(hops)
    return net, paths


def ecmp_link_loads(k: int, seed: int = 0, load_balancer=None) -> dict:
    """How many flows of the ECMP permutation :func:`fat_tree_pattern` runs on the ``k``-ary fat tree
    cross each link: ``{link: flows}``, a link being a host's name (its own uplink) or
    ``(switch name, output port)``. Nothing is simulated; the paths are the ones the packet model's
    switches pick, by default its :class:`~netlab.sim.switch.ECMP` (CRC-32 of the flow and a salt
    per switch). Pass another ``load_balancer`` (a :class:`~netlab.sim.switch.LoadBalancer`) to see
    what a different hash does to the same flows.

    >>> max(ecmp_link_loads(8).values()) >= 2     # 128 hosts: some link carries two or more flows
    True
    """
    k = validate.integer("k", k, minimum=4, maximum=32, why="8,192 hosts in three tiers")
    if k % 2:
        raise ValueError(f"k must be even (k/2 ports up and k/2 down), got {k}")
    seed = validate.integer("seed", seed, minimum=0)
    if load_balancer is None:
        load_balancer = ECMP()
    elif not callable(getattr(load_balancer, "choose", None)):
        raise TypeError(f"load_balancer must be a netlab.sim.switch.LoadBalancer such as ECMP(), got {load_balancer!r}")
    _, paths = _permutation_paths(k, 1, 100e9, seed, specs.value("sim.assume.link_propagation"), load_balancer)
    loads: dict = {}
    for hops in paths:
        for hop in hops:
            loads[hop] = loads.get(hop, 0) + 1
    return loads


def fluid_on_packet_paths(k: int, bytes_per_host: int = 2_000_000, bandwidth_bps: float = 100e9, seed: int = 0,
                          propagation_s: float | None = None):
    """The flow-level (max-min fair) model of the ECMP permutation :func:`fat_tree_pattern` runs, on
    the very paths the packet model's ECMP hash gives its flows (same seed, same flows), every
    capacity scaled to the payload share: a :class:`~netlab.fabric.flowlevel.FlowLevelRun`.

    The two models then differ only in what the fluid leaves out (queues, the transport's
    dynamics), not in the draw of paths. The packet model's hash is a CRC-32 of the flow and a
    salt per switch. A CRC is linear (affine in its input), so the salt only XORs every flow's hash
    with a constant at each switch; when the number of uplinks is a power of two the choice is the
    hash's low bits, and the choice at an aggregation switch then follows the choice made at the
    edge (*hash polarization*): more flows share a link than under independent draws
    (:func:`~netlab.fabric.flowlevel.fat_tree_permutation` draws each tier independently).
    With other uplink counts (k = 26: 13) the modulo mixes the high bits in and the effect goes.
    :func:`ecmp_link_loads` counts the flows per link, for this hash or another.
    """
    import numpy as np   # only here: the rest of this module runs without numpy (in the page too)

    from netlab.fabric import flowlevel

    k = validate.integer("k", k, minimum=4, maximum=32, why="8,192 hosts in three tiers")
    bytes_per_host = validate.integer("bytes_per_host", bytes_per_host, minimum=1, maximum=MAX_SCENARIO_BYTES,
                                      why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    seed = validate.integer("seed", seed, minimum=0)
    propagation_s = (specs.value("sim.assume.link_propagation") if propagation_s is None
                     else validate.in_range("propagation_s", propagation_s, 0.0, 1.0))
    net, paths = _permutation_paths(k, bytes_per_host, bandwidth_bps, seed, propagation_s, ECMP())
    link_ids: dict = {}
    flow_of, link_of = [], []
    for flow, hops in zip(net.flows, paths):
        for hop in hops:
            flow_of.append(flow.flow_id)
            link_of.append(link_ids.setdefault(hop, len(link_ids)))
    mtu, header = specs.value("sim.assume.mtu"), specs.value("sim.assume.header")
    payload_bps = bandwidth_bps * mtu / (mtu + header)
    flows, links = np.array(flow_of), np.array(link_of)
    times, rounds = flowlevel.complete(flows, links, np.ones(len(flows)), np.full(len(link_ids), payload_bps),
                                       np.full(len(net.flows), 8.0 * bytes_per_host))
    hops_per_flow = np.bincount(flows)
    load = np.bincount(links, minlength=len(link_ids))
    return flowlevel.FlowLevelRun(
        topology=f"{k}-ary fat tree, the packet model's ECMP paths", scheme="ecmp", n_hosts=len(net.hosts),
        n_flows=len(net.flows), n_bytes=bytes_per_host,
        ideal_s=8.0 * bytes_per_host / payload_bps + int(hops_per_flow.min()) * propagation_s,
        completion_times_s=times + hops_per_flow * propagation_s, rate_recomputations=rounds,
        peak_link_demand=float(load.max()))


def rail_network(n_gpus: int, switch: str = "quantum2", domain: str = "dgx-h100", **network_kwargs):
    """The two-tier rail-optimized fabric :func:`netlab.fabric.rails.size` counts for ``n_gpus``
    GPUs, as a packet-level :class:`~netlab.sim.network.Network`
    (:func:`~netlab.sim.topology.rail_optimized`): its leaves, spines, links between each leaf and
    spine, and port rate. Returns ``(network, rail_fabric)``; the network has the rail fabric's
    ``n_switches`` switches and ``n_cables`` links.

    >>> net, fab = rail_network(64)         # 8 DGX H100 nodes on Quantum-2: 8 rails, 1 leaf each
    >>> len(net.switches), fab.n_switches
    (12, 12)
    """
    fab = rails.size("rail_optimized", n_gpus, switch, domain)
    if fab.n_tiers != 2:
        raise ValueError(f"n_gpus must give a two-tier rail-optimized fabric of {switch} switches (the packet "
                         f"model builds two tiers; netlab.fabric.flowlevel.rail_traffic runs three), got "
                         f"{n_gpus:,} GPUs, {fab.n_tiers} tiers")
    clos_fab = fab.fabric
    n_leaves, n_spines = clos_fab.switches_per_tier
    uplinks = clos_fab.leaf_uplinks
    if uplinks % n_spines:
        raise ValueError(f"n_gpus must split each leaf's {uplinks} uplinks evenly over {n_spines} spines, got "
                         f"{n_gpus:,}")                                               # pragma: no cover
    net = rail_optimized(fab.n_domains, fab.n_rails, clos_fab.leaf_downlinks, n_spines, clos_fab.port_rate_bps,
                         links_per_spine=uplinks // n_spines, **network_kwargs)
    if len(net.switches) != fab.n_switches:
        raise ValueError(f"n_gpus: the fabric's {fab.n_switches} switches are not those of two tiers of "
                         f"{n_leaves} leaves and {n_spines} spines")                   # pragma: no cover
    return net, fab


def rail_pattern(scheme: str, n_gpus: int, pattern: str = "rail_ring", switch: str = "quantum2",
                 domain: str = "dgx-h100", bytes_per_host: int = 200_000, seed: int = 0,
                 propagation_s: float | None = None, ack_every: int = 1) -> FabricRun:
    """Chapter 5's lossless fabric and transport on :func:`rail_network`: ``"rail_ring"`` sends
    every GPU's bytes to the GPU of its rail in the next domain (the network step of a
    hierarchical ring all-reduce), ``"permutation"`` to a random GPU under another leaf.
    ``uplink_bytes`` counts the leaf-to-spine ports: a rail ring on a rail that fits one leaf
    sends nothing up.

    >>> run = rail_pattern("ecmp", 64, bytes_per_host=20_000)
    >>> sum(run.uplink_bytes), run.n_flows
    (0, 64)
    """
    validate.choice("scheme", scheme, SCHEMES)
    validate.choice("pattern", pattern, ("rail_ring", "permutation"))
    bytes_per_host = validate.integer("bytes_per_host", bytes_per_host, minimum=1, maximum=MAX_SCENARIO_BYTES,
                                      why=SCENARIO_WHY)
    seed = validate.integer("seed", seed, minimum=0)
    if propagation_s is not None:
        propagation_s = validate.non_negative("propagation_s", propagation_s)
    net, fab = rail_network(n_gpus, switch, domain, propagation_s=propagation_s,
                            flow_control=PFC(specs.value("sim.assume.buffer_per_port")),
                            load_balancer=balancer(scheme), seed=seed, n_priorities=1)
    d, n_rails, n_domains = fab.fabric.leaf_downlinks, fab.n_rails, fab.n_domains
    leaves_per_rail = -(-n_domains // d)

    def leaf_of(i: int) -> int:
        return (i % n_rails) * leaves_per_rail + (i // n_rails) // d

    flows = None
    if pattern == "rail_ring":
        flows = [(i, ((i // n_rails + 1) % n_domains) * n_rails + i % n_rails, bytes_per_host) for i in range(n_gpus)]
    return _run_jobs(net, scheme, "permutation" if flows is None else pattern, (tuple(range(n_gpus)),), leaf_of,
                     bytes_per_host, fab.fabric.port_rate_bps, seed, ack_every, ("rail", "spine"), flows=flows)


def summary(run: FabricRun, tail_percentile: float = 99.0) -> dict:
    """The figures of a run as a dict of numbers (a sweep's ``measure``, see :mod:`netlab.sweep`);
    ``tail_s`` is the completion time at ``tail_percentile``. The wall time is left out, so that
    the same seed gives the same row wherever it ran."""
    validate.instance("run", run, FabricRun, "a FabricRun")
    tail_percentile = validate.in_range("tail_percentile", tail_percentile, 0.0, 100.0)
    return dict(median_s=run.percentile_s(50), tail_s=run.percentile_s(tail_percentile),
                max_s=max(run.completion_times_s),
                slowdown=run.slowdown, out_of_order_packets=run.out_of_order_packets,
                events_processed=run.events_processed)


def interleaved_jobs(n_leaves: int, hosts_per_leaf: int, n_jobs: int = 2) -> tuple[tuple[int, ...], ...]:
    """Split every leaf's hosts among ``n_jobs`` jobs, so the jobs share every uplink.

    >>> interleaved_jobs(2, 4)
    ((0, 1, 4, 5), (2, 3, 6, 7))
    """
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=1, maximum=4096)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=4096 // n_leaves)
    n_jobs = validate.integer("n_jobs", n_jobs, minimum=1, maximum=hosts_per_leaf)
    per_job = hosts_per_leaf // n_jobs
    return tuple(tuple(leaf * hosts_per_leaf + j * per_job + k for leaf in range(n_leaves) for k in range(per_job))
                 for j in range(n_jobs))


def _flows(pattern: str, members: list[int], leaf_of_host, n_bytes: int,
           rng: random.Random) -> list[tuple[int, int, int]]:
    """(src, dst, bytes) for the pattern among ``members``; ``leaf_of_host(i)``: host i's switch."""
    if pattern == "all_to_all":
        share = max(1, n_bytes // (len(members) - 1))
        return [(s, d, share) for s in members for d in members if s != d]
    leaf_of = {h: leaf_of_host(h) for h in members}
    dst = list(members)
    rng.shuffle(dst)
    for _ in range(100 * len(members)):      # repair: swap until no host sends within its leaf
        bad = [k for k, s in enumerate(members) if leaf_of[s] == leaf_of[dst[k]]]
        if not bad:
            return [(s, d, n_bytes) for s, d in zip(members, dst)]
        k, j = bad[0], rng.randrange(len(members))
        if leaf_of[members[k]] != leaf_of[dst[j]] and leaf_of[members[j]] != leaf_of[dst[k]]:
            dst[k], dst[j] = dst[j], dst[k]
    raise ValueError("the hosts sit on too few leaves for a cross-leaf permutation")
