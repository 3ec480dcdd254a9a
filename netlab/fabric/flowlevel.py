"""Flow-level simulation: max-min fair rates on whole fabrics, in numpy.

The packet simulator follows every packet through every queue, which is what the
chapters need for incast, pauses and reordering, and what limits it to a few
thousand hosts. The capstone and chapter 5 talk about fabrics of 10,000 to
100,000 GPUs. At that scale a flow-level model answers the first question (which
links are the bottlenecks, and how long does a permutation take) in seconds:

* every flow is a *fluid* with one rate, the same along its whole path;
* the rates are **max-min fair** (Bertsekas and Gallager, *Data Networks*, 6.5.2):
  no flow can get faster without slowing a flow that is already slower. They are
  found by *progressive filling*: raise every unfrozen flow's rate together until
  some link is full, freeze the flows crossing it, repeat;
* when a flow finishes, the rates of the others are filled again, so a flow that
  shared a link with a finished one speeds up.

Load balancing enters through the paths. Under ``"ecmp"`` each flow hashes onto
one equal-cost path (drawn uniformly, as a good hash does) and keeps it: flows
collide as balls fall into bins (chapter 5). Under ``"spray"`` every flow splits
evenly over all equal-cost paths, which in a fluid is exact to model as one
*bundle* per tier whose capacity is the sum of its parallel links (every flow puts
the same share on each link of a bundle, so each link carries the bundle's load
divided by its number of links).

What it leaves out, and so its limits: no queues, so no queueing delay, no
transient while a congestion control converges, no incast overshoot, no pauses,
no loss or retransmission, no reordering; the rates are the ideal a perfect
congestion control would reach. ``tests/fabric/test_flowlevel.py`` holds it against
closed forms (one bottleneck shared by n flows, a hand-worked max-min example, a
sprayed permutation at line rate) and against the packet simulator on
128-host permutations.

Example: a 2 MB permutation on a 2-tier fabric of 128 hosts::

    >>> from netlab.fabric import flowlevel
    >>> run = flowlevel.leaf_spine_permutation(16, 8, 8, 100e9, 100e9, scheme="spray",
    ...                                        n_bytes=2_000_000, propagation_s=0.0)
    >>> round(run.median_s * 1e6, 3)          # 16 Mbit at 100 Gb/s: 160 µs, every flow
    160.0
"""

from __future__ import annotations

from dataclasses import dataclass, replace
import math

import numpy as np

from netlab import specs, validate
from netlab.fabric import clos, rails
from netlab.nvlink import domains

SCHEMES = ("ecmp", "spray")
MAX_FLOWS = 2_000_000        # ~12 M path entries: a few GB of numpy at most
_REL_EPS = 1e-9              # a link within this fraction of full counts as full


def max_min_rates(flow_of: np.ndarray, link_of: np.ndarray, weight: np.ndarray,
                  capacity_bps: np.ndarray, n_flows: int, active: np.ndarray | None = None) -> np.ndarray:
    """Max-min fair rates (bit/s) of ``n_flows`` flows, by progressive filling.

    The path of flow ``f`` is given as entries ``(flow_of[i], link_of[i], weight[i])``:
    flow ``f`` puts ``weight * rate_f`` on link ``link_of[i]`` (weight 1 for a link it
    crosses whole). Link ``l`` holds at most ``capacity_bps[l]``. Every flow must
    cross at least one link. Flows outside ``active`` (a boolean mask) get rate 0.

    All unfrozen flows share one rate, the water *level*. A link with frozen load
    ``F`` and unfrozen weight ``W`` fills at level ``(C - F) / W``; the lowest such
    level is the next one reached: its links are full, and their flows freeze there.

    >>> import numpy as np
    >>> # two flows share link 0 (10 b/s); flow 1 also crosses link 1 (3 b/s)
    >>> max_min_rates(np.array([0, 1, 1]), np.array([0, 0, 1]), np.ones(3), np.array([10.0, 3.0]), 2)
    array([7., 3.])
    """
    n_flows = validate.integer("n_flows", n_flows, minimum=1, maximum=MAX_FLOWS)
    flow_of, link_of, weight, capacity_bps = _check_paths(flow_of, link_of, weight, capacity_bps, n_flows)
    if active is None:
        active = np.ones(n_flows, dtype=bool)
    else:
        active = np.asarray(active)
        if active.shape != (n_flows,) or active.dtype != bool:
            raise TypeError(f"active must be a boolean array of n_flows = {n_flows} entries, got {active!r:.80}")
    if (np.bincount(flow_of, minlength=n_flows)[active] == 0).any():
        raise ValueError("every flow must cross at least one link (flow_of)")
    return _fill(_Paths(flow_of, link_of, weight, n_flows, len(capacity_bps)), capacity_bps, active)


def _vector(name: str, value, integer: bool = False) -> np.ndarray:
    """``value`` as a 1-D numpy array of integers (or of numbers), or a TypeError naming it."""
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError):
        array = None
    kinds = "iu" if integer else "iuf"
    if array is None or array.ndim != 1 or array.dtype.kind not in kinds:
        raise TypeError(f"{name} must be a 1-D array of {'integers' if integer else 'numbers'}, "
                        f"got {type(value).__name__} {value!r:.80}")
    return array


def _in_bounds(name: str, array: np.ndarray, what: str) -> None:
    """Every entry finite and in [validate.SMALLEST, validate.LARGEST]: a zero, NaN or infinite
    capacity, weight or size would leave the filling without an end or the times infinite."""
    if not ((array >= validate.SMALLEST) & (array <= validate.LARGEST)).all():
        raise ValueError(f"{name} must be finite and between {validate.SMALLEST:g} and {validate.LARGEST:g} "
                         f"on every {what}, got {array!r:.80}")


def _check_paths(flow_of, link_of, weight, capacity_bps, n_flows: int):
    """The path entries and capacities as arrays, checked (see :func:`max_min_rates`)."""
    flow_of, link_of = _vector("flow_of", flow_of, integer=True), _vector("link_of", link_of, integer=True)
    weight, capacity_bps = _vector("weight", weight), _vector("capacity_bps", capacity_bps)
    n_links = len(capacity_bps)
    if not flow_of.shape == link_of.shape == weight.shape:
        raise ValueError(f"flow_of, link_of and weight must have one length (one entry per flow and link), got "
                         f"{len(flow_of)}, {len(link_of)} and {len(weight)}")
    if n_links == 0:
        raise ValueError("capacity_bps must hold at least one link")
    if flow_of.size and (flow_of.min() < 0 or flow_of.max() >= n_flows):
        raise ValueError(f"flow_of must lie in [0, {n_flows - 1}]")
    if link_of.size and (link_of.min() < 0 or link_of.max() >= n_links):
        raise ValueError(f"link_of must lie in [0, {n_links - 1}] (one entry of capacity_bps per link)")
    _in_bounds("weight", weight, "entry")
    _in_bounds("capacity_bps", capacity_bps, "link")
    return flow_of, link_of, weight, capacity_bps


class _Paths:
    """The path entries indexed both ways (compressed rows by link and by flow), built once."""

    def __init__(self, flow_of, link_of, weight, n_flows, n_links):
        self.flow_of, self.link_of, self.weight = flow_of, link_of, weight
        self.n_flows, self.n_links = n_flows, n_links
        self.by_link = np.argsort(link_of, kind="stable")
        self.link_ptr = np.concatenate([[0], np.cumsum(np.bincount(link_of, minlength=n_links))])
        self.by_flow = np.argsort(flow_of, kind="stable")
        self.flow_ptr = np.concatenate([[0], np.cumsum(np.bincount(flow_of, minlength=n_flows))])


def _fill(paths: _Paths, capacity_bps: np.ndarray, active: np.ndarray) -> np.ndarray:
    """Progressive filling over ``paths`` for the ``active`` flows (see :func:`max_min_rates`)."""
    flow_of, link_of, weight = paths.flow_of, paths.link_of, paths.weight
    rate = np.zeros(paths.n_flows)
    frozen = ~active
    free_w = np.bincount(link_of, weights=weight * active[flow_of], minlength=paths.n_links)  # unfrozen weight
    frozen_bps = np.zeros(paths.n_links)                             # load of frozen flows
    level = np.full(paths.n_links, np.inf)                          # level at which each link fills
    loaded = free_w > 1e-12
    level[loaded] = capacity_bps[loaded] / free_w[loaded]
    # The scan for the lowest level runs over a compact list of links that still carry
    # unfrozen flows, rebuilt whenever half of it has gone idle.
    cand = np.flatnonzero(loaded)
    pos = np.full(paths.n_links, -1)
    pos[cand] = np.arange(len(cand))
    cand_level, idle = level[cand], 0
    n_left = int(active.sum())
    while n_left:
        lowest = max(cand_level.min(), 0.0)
        full = cand[cand_level <= lowest * (1.0 + _REL_EPS)]
        flows = flow_of[paths.by_link[_ranges(paths.link_ptr, full)]]
        flows = _distinct(flows[~frozen[flows]])
        rate[flows] = lowest
        frozen[flows] = True
        n_left -= len(flows)
        entries = paths.by_flow[_ranges(paths.flow_ptr, flows)]
        touched, w = link_of[entries], weight[entries]
        np.subtract.at(free_w, touched, w)
        np.add.at(frozen_bps, touched, lowest * w)
        touched = _distinct(np.concatenate([touched, full]))
        busy = free_w[touched] > 1e-12
        idle += int(np.isfinite(level[touched[~busy]]).sum())
        level[touched] = np.inf
        level[touched[busy]] = (capacity_bps[touched[busy]] - frozen_bps[touched[busy]]) / free_w[touched[busy]]
        cand_level[pos[touched]] = level[touched]
        if 2 * idle > len(cand) and n_left:
            cand = cand[np.isfinite(cand_level)]
            pos[cand] = np.arange(len(cand))
            cand_level, idle = level[cand], 0
    return rate


def _distinct(ids: np.ndarray) -> np.ndarray:
    """The distinct values of a small integer array, sorted (cheaper than np.unique here)."""
    ids = np.sort(ids)
    return ids[np.concatenate(([True], ids[1:] != ids[:-1]))] if len(ids) else ids


def _ranges(ptr: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(ptr[i], ptr[i + 1])`` for every ``i`` in ``ids``."""
    starts, lengths = ptr[ids], ptr[ids + 1] - ptr[ids]
    offsets = np.cumsum(lengths) - lengths
    return np.arange(lengths.sum()) - np.repeat(offsets - starts, lengths)


@dataclass(frozen=True)
class FlowLevelRun:
    """Completion times of a set of flows that all start at t = 0."""

    topology: str
    scheme: str
    n_hosts: int
    n_flows: int
    n_bytes: int
    ideal_s: float                    # one flow alone at its host's line rate, plus propagation
    completion_times_s: np.ndarray    # per flow, in flow order
    rate_recomputations: int          # times the max-min rates were filled again
    peak_link_demand: float           # busiest fabric link: its demand over its capacity if every
                                      # flow ran at its host's line rate (under ECMP: flows sharing it)

    @property
    def median_s(self) -> float:
        return float(np.median(self.completion_times_s))

    @property
    def max_s(self) -> float:
        return float(self.completion_times_s.max())

    @property
    def slowdown(self) -> float:
        """Slowest flow over the ideal:
        1 means the fabric was invisible."""
        return self.max_s / self.ideal_s

    def percentile_s(self, q: float) -> float:
        """Completion time at percentile ``q`` in [0, 100] (nearest rank)."""
        q = validate.in_range("q", q, 0.0, 100.0)
        times = np.sort(self.completion_times_s)
        return float(times[max(0, math.ceil(q / 100 * len(times)) - 1)])

    def __repr__(self) -> str:
        return (f"FlowLevelRun({self.scheme} permutation of {self.n_flows:,} flows x {self.n_bytes:,} bytes "
                f"on a {self.topology}: median {self.median_s * 1e6:.1f} µs, slowest {self.max_s * 1e6:.1f} µs "
                f"= {self.slowdown:.2f}x ideal; busiest link asked for {self.peak_link_demand:.2f}x its capacity)")


def summary(run: FlowLevelRun, tail_percentile: float = 99.0) -> dict:
    """The figures of a run as a dict of numbers (a sweep's ``measure``, see :mod:`netlab.sweep`);
    ``tail_s`` is the completion time at ``tail_percentile``."""
    validate.instance("run", run, FlowLevelRun, "a FlowLevelRun")
    tail_percentile = validate.in_range("tail_percentile", tail_percentile, 0.0, 100.0)
    return dict(median_s=run.median_s, tail_s=run.percentile_s(tail_percentile), max_s=run.max_s,
                slowdown=run.slowdown,
                peak_link_demand=run.peak_link_demand, rate_recomputations=run.rate_recomputations)


def complete(flow_of: np.ndarray, link_of: np.ndarray, weight: np.ndarray, capacity_bps: np.ndarray,
             size_bits: np.ndarray, refill: bool | None = None) -> tuple[np.ndarray, int]:
    """Finish times (s) of flows of ``size_bits`` that all start at t = 0 on these paths.

    Between two completions the rates are max-min fair; when flows finish the rest
    are filled again. Returns the times and how many times the rates were computed.
    The inputs are those of :func:`max_min_rates`, one flow per entry of ``size_bits``.

    When every flow has the same size the first rates hold to the end, so one fill gives every
    time as ``size / rate`` (``refill=None``, the default, does that; ``refill=True`` fills again
    at every completion all the same). Why: the flows that finish first are the fastest, and a
    fastest flow shares no full link with a slower one (on a full link every flow whose
    bottleneck it is gets the link's highest rate, so a slower flow's bottleneck carries no
    faster flow); removing them leaves every other flow its bottleneck, so the rates stay max-min
    fair, and by induction the next to finish are again the fastest left.
    """
    size_bits = _vector("size_bits", size_bits)
    n_flows = validate.integer("len(size_bits)", len(size_bits), minimum=1, maximum=MAX_FLOWS)
    _in_bounds("size_bits", size_bits, "flow")
    flow_of, link_of, weight, capacity_bps = _check_paths(flow_of, link_of, weight, capacity_bps, n_flows)
    if (np.bincount(flow_of, minlength=n_flows) == 0).any():
        raise ValueError("every flow must cross at least one link (flow_of)")
    if refill is not None:
        refill = validate.boolean("refill", refill)
    paths = _Paths(flow_of, link_of, weight, n_flows, len(capacity_bps))
    if not refill and (size_bits == size_bits[0]).all():
        # fast path: equal sizes, so the first max-min rates hold to the end (see the docstring);
        # refill=True computes the same times round by round (tests/fabric/test_flowlevel.py)
        rate = _fill(paths, capacity_bps, np.ones(n_flows, dtype=bool))
        return size_bits / rate, 1
    left = size_bits.astype(float)
    done_at = np.full(n_flows, np.nan)
    alive = np.ones(n_flows, dtype=bool)
    now, rounds = 0.0, 0
    while alive.any():
        rate = _fill(paths, capacity_bps, alive)
        rounds += 1
        ids = np.flatnonzero(alive)
        dt = (left[ids] / rate[ids]).min()
        left[ids] -= rate[ids] * dt
        now += dt
        finished = ids[left[ids] <= size_bits[ids] * 1e-9]
        done_at[finished] = now
        alive[finished] = False
    return done_at, rounds


def leaf_spine_permutation(n_leaves: int, n_spines: int, hosts_per_leaf: int, host_bandwidth_bps: float,
                           fabric_bandwidth_bps: float, scheme: str = "ecmp", n_bytes: int = 2_000_000,
                           propagation_s: float | None = None, payload_fraction: float = 1.0,
                           seed: int = 0) -> FlowLevelRun:
    """A permutation (every host sends ``n_bytes`` to one host on another leaf) on a
    two-tier leaf-spine, hosts ``h{leaf * hosts_per_leaf + j}``, as in
    :func:`netlab.sim.topology.leaf_spine`.

    ``propagation_s`` is each link's one-way delay (default: the packet simulator's
    cable assumption ``sim.assume.link_propagation``), added once per link of the path;
    ``payload_fraction`` scales every capacity to the share that carries payload
    (``mtu / (mtu + header)`` to compare with the packet model's goodput).
    """
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=2, maximum=100_000)
    n_spines = validate.integer("n_spines", n_spines, minimum=1, maximum=10_000)
    hosts_per_leaf = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=10_000)
    n_hosts = _check_size(n_leaves * hosts_per_leaf)
    host_bps, fabric_bps, n_bytes, propagation_s, payload_fraction, rng = _common(
        host_bandwidth_bps, fabric_bandwidth_bps, scheme, n_bytes, propagation_s, payload_fraction, seed)
    dst = _permutation(rng, np.arange(n_hosts) // hosts_per_leaf)
    src = np.arange(n_hosts)
    leaf_s, leaf_d = src // hosts_per_leaf, dst // hosts_per_leaf
    # links: host up [0, H), host down [H, 2H), then per leaf an up and a down entry per spine
    # (ECMP) or one up and one down bundle per leaf (spray)
    up0 = 2 * n_hosts
    if scheme == "ecmp":
        spine = rng.integers(0, n_spines, n_hosts)
        down0 = up0 + n_leaves * n_spines
        fabric_links = [up0 + leaf_s * n_spines + spine, down0 + leaf_d * n_spines + spine]
        capacity = np.concatenate([np.full(2 * n_hosts, host_bps), np.full(2 * n_leaves * n_spines, fabric_bps)])
    else:
        fabric_links = [up0 + leaf_s, up0 + n_leaves + leaf_d]
        capacity = np.concatenate([np.full(2 * n_hosts, host_bps), np.full(2 * n_leaves, n_spines * fabric_bps)])
    links = np.stack([src, n_hosts + dst, *fabric_links], axis=1)          # (flow, hop)
    return _run("leaf-spine", scheme, n_hosts, links, capacity * payload_fraction, n_bytes,
                host_bps * payload_fraction, propagation_s)


def fat_tree_permutation(k: int, bandwidth_bps: float, scheme: str = "ecmp", n_bytes: int = 2_000_000,
                         propagation_s: float | None = None, payload_fraction: float = 1.0,
                         seed: int = 0) -> FlowLevelRun:
    """A permutation on a three-tier k-ary fat tree (k pods of k/2 edge and k/2
    aggregation switches, (k/2)^2 core switches, k^3/4 hosts, every link at
    ``bandwidth_bps``): every host sends ``n_bytes`` to a host under another edge switch.

    A flow between pods crosses 6 links (host-edge-agg-core-agg-edge-host), one
    within a pod 4. Under ECMP it draws its aggregation switch and core switch
    uniformly; under spraying it spreads over all of them. k = 74 gives 101,306 hosts.
    """
    k = validate.integer("k", k, minimum=2, maximum=200)
    if k % 2:
        raise ValueError(f"k must be even (k/2 ports up and k/2 down per switch), got {k}")
    h = k // 2                                   # hosts per edge, edges and aggs per pod, cores per agg
    n_hosts = _check_size(k * h * h)
    bps, _, n_bytes, propagation_s, payload_fraction, rng = _common(
        bandwidth_bps, bandwidth_bps, scheme, n_bytes, propagation_s, payload_fraction, seed)
    src = np.arange(n_hosts)
    dst = _permutation(rng, src // h)
    return _fat_tree_run(f"{k}-ary fat tree", k, src, dst, scheme, bps, n_bytes, propagation_s, payload_fraction,
                         rng)


def _fat_tree_run(topology, k, src, dst, scheme, bps, n_bytes, propagation_s, payload_fraction, rng):
    """Flows ``src[i] -> dst[i]`` between host slots of the k-ary fat tree (slot ``e * k/2 + j`` on
    edge switch ``e``), each of ``n_bytes``, and their completion times."""
    h = k // 2
    n_hosts = k * h * h
    edge_of = np.arange(n_hosts) // h            # global edge index, k*h edges
    e_s, e_d = edge_of[src], edge_of[dst]
    pod_s, pod_d = e_s // h, e_d // h
    inter = pod_s != pod_d
    n_flows = len(src)
    n_edges = k * h
    base = 2 * n_hosts
    if scheme == "ecmp":
        agg = rng.integers(0, h, n_flows)        # aggregation switch within the pod (same index in both pods)
        core = rng.integers(0, h, n_flows)       # core switch among those that aggregation switch reaches
        n_ea = n_edges * h                       # edge->agg links (one per edge per agg of its pod)
        n_ac = k * h * h                         # agg->core links (one per agg per core it reaches)
        edge_up = base + e_s * h + agg
        edge_down = base + n_ea + e_d * h + agg
        core_up = base + 2 * n_ea + (pod_s * h + agg) * h + core
        core_down = base + 2 * n_ea + n_ac + (pod_d * h + agg) * h + core
        capacity = np.full(base + 2 * n_ea + 2 * n_ac, bps)
    else:
        edge_up = base + e_s                     # bundle of an edge switch's h uplinks
        edge_down = base + n_edges + e_d
        core_up = base + 2 * n_edges + pod_s     # bundle of a pod's h*h links to the core
        core_down = base + 2 * n_edges + k + pod_d
        capacity = np.concatenate([np.full(base, bps), np.full(2 * n_edges, h * bps), np.full(2 * k, h * h * bps)])
    # a flow within a pod skips the core, and one within an edge switch the aggregation switches
    # too: pad their paths with their own host link at weight 0
    intra = e_s == e_d
    links = np.stack([src, n_hosts + dst, np.where(intra, src, edge_up), np.where(intra, src, edge_down),
                      np.where(inter, core_up, src), np.where(inter, core_down, src)], axis=1)
    weights = np.ones(links.shape)
    weights[~inter, 4:] = 0.0
    weights[intra, 2:] = 0.0
    return _run(topology, scheme, n_hosts, links, capacity * payload_fraction, n_bytes,
                bps * payload_fraction, propagation_s, weights=weights,
                hops=np.where(inter, 6, np.where(intra, 2, 4)))


RAIL_PATTERNS = ("rail_ring", "permutation")
WIRINGS = ("rail_optimized", "fat_tree")


def rail_traffic(n_gpus: int, pattern: str = "rail_ring", wiring: str = "rail_optimized",
                 switch: str = "quantum2", domain: str = "dgx-h100", scheme: str = "ecmp",
                 n_bytes: int = 2_000_000, propagation_s: float | None = None, payload_fraction: float = 1.0,
                 seed: int = 0) -> FlowLevelRun:
    """Traffic of ``n_gpus`` GPUs in scale-up domains of ``domain`` (its GPU count is the number of
    rails), one NIC each at ``switch``'s port rate, on the three-tier fat tree of ``switch``'s
    radix ``k`` (``k^3/4`` host ports), wired one of two ways (:mod:`netlab.fabric.rails`):

    * ``"rail_optimized"``: leaf ``j`` of rail ``g`` holds NIC ``g`` of ``k/2`` consecutive domains,
      a rail's leaves side by side (``ceil(n_domains / (k/2))`` of them);
    * ``"fat_tree"``: top-of-rack, a domain's NICs on consecutive ports of one leaf.

    ``pattern``: ``"rail_ring"``, every GPU sends ``n_bytes`` to the GPU of its rail in the next
    domain (the network step of a hierarchical all-reduce's ring); ``"permutation"``, to a random
    GPU on another leaf. Under ECMP a flow that leaves its leaf draws its path; within a leaf it
    crosses only its two host links.

    >>> run = rail_traffic(256, switch="quantum2")          # 32 DGX H100 nodes, 400 Gb/s NICs
    >>> round(run.slowdown, 9)            # every rail's ring stays on its leaf: all at line rate
    1.0
    >>> round(rail_traffic(256, wiring="fat_tree").slowdown, 9)   # ring hops between leaves collide
    2.0
    """
    validate.choice("switch", switch, clos.SWITCHES)
    validate.choice("domain", domain, domains.PRESETS)
    validate.choice("pattern", pattern, RAIL_PATTERNS)
    validate.choice("wiring", wiring, WIRINGS)
    radix, rate = clos.switch_ports(switch)
    n_rails = domains.preset(domain).n_gpus
    k = radix - radix % 2
    h = k // 2
    n_slots = k * h * h
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=2 * n_rails, maximum=min(n_slots, MAX_FLOWS))
    if n_gpus % n_rails:
        raise ValueError(f"n_gpus must be a multiple of the {domain} domain's {n_rails} GPUs, got {n_gpus:,}")
    if not rails.buildable(wiring, n_gpus, switch, domain):
        raise ValueError(f"n_gpus must fit three tiers of {switch} wired as {wiring}, got {n_gpus:,}")
    _, _, n_bytes, propagation_s, payload_fraction, rng = _common(
        rate, rate, scheme, n_bytes, propagation_s, payload_fraction, seed)
    n_domains = n_gpus // n_rails
    gpu = np.arange(n_gpus)
    node, rail = gpu // n_rails, gpu % n_rails
    if wiring == "rail_optimized":
        leaves_per_rail = -(-n_domains // h)
        slot = (rail * leaves_per_rail + node // h) * h + node % h
    else:
        slot = gpu
    if pattern == "rail_ring":
        peer = ((node + 1) % n_domains) * n_rails + rail
    else:
        peer = _permutation(rng, slot // h)
    run = _fat_tree_run(f"{k}-ary fat tree wired {wiring.replace('_', '-')}", k, slot, slot[peer], scheme, rate,
                        n_bytes, propagation_s, payload_fraction, rng)
    return replace(run, n_hosts=n_gpus)


A2A_CLASSES = ("same edge switch", "same pod", "other pod")   #: the three classes of an all-to-all's flows


@dataclass(frozen=True)
class AllToAllRun:
    """Completion times of an all-to-all (every host sends ``n_bytes`` to every other host, all
    starting at t = 0) on a three-tier fat tree, by class of flow (:data:`A2A_CLASSES`).

    ``model`` says how exact the figures are (see :func:`fat_tree_all_to_all`): under spraying
    every figure is exact; under ECMP the slowest flow is exact for the drawn hashes and the
    median is known to lie in ``median_bounds_s``.
    """

    topology: str
    scheme: str
    model: str
    n_hosts: int
    n_bytes: int
    ideal_s: float                        # (n - 1) * n_bytes at the host's line rate, plus 2 links' propagation
    flows_per_class: tuple[int, int, int]  # ordered pairs (source, destination) in each class
    class_times_s: tuple[float, float, float] | None   # each class's completion time (spraying), else None
    max_s: float                          # the slowest flow, i.e. the whole all-to-all
    median_bounds_s: tuple[float, float]  # the median flow lies in [low, high] (equal ends when exact)
    rate_recomputations: int              # max-min fills run (0: the ECMP figures follow from link counts)
    peak_link_demand: float               # busiest fabric link's load over its capacity if every flow ran
                                          # at its fair share of its host's link, line rate / (n - 1)
    busiest_link_flows: int               # flows crossing the busiest fabric link (spraying: of one link,
                                          # counting a sprayed flow's share)

    @property
    def n_flows(self) -> int:
        return int(sum(self.flows_per_class))

    @property
    def median_s(self) -> float:
        """The median flow's completion time, exact under spraying; under ECMP the middle of
        ``median_bounds_s`` (within half their width of the true median)."""
        return 0.5 * (self.median_bounds_s[0] + self.median_bounds_s[1])

    @property
    def slowdown(self) -> float:
        """The all-to-all's time (its slowest flow) over the ideal."""
        return self.max_s / self.ideal_s

    def __repr__(self) -> str:
        low, high = self.median_bounds_s
        median = (f"median {low * 1e6:,.1f} µs" if low == high
                  else f"median in [{low * 1e6:,.1f}, {high * 1e6:,.1f}] µs")
        return (f"AllToAllRun({self.scheme} all-to-all of {self.n_hosts:,} hosts x {self.n_bytes:,} bytes "
                f"({self.n_flows:,} flows) on a {self.topology}: {median}, slowest {self.max_s * 1e6:,.1f} µs "
                f"= {self.slowdown:.4f}x ideal; {self.model})")


def fat_tree_all_to_all(k: int, bandwidth_bps: float, scheme: str = "ecmp", n_bytes: int = 2_000_000,
                        propagation_s: float | None = None, payload_fraction: float = 1.0, seed: int = 0,
                        fabric_bandwidth_bps: float | None = None) -> AllToAllRun:
    """An all-to-all on the three-tier k-ary fat tree of :func:`fat_tree_permutation`: every one of
    the ``n = k^3/4`` hosts sends ``n_bytes`` to every other host, all ``n(n - 1)`` flows at once,
    at max-min fair rates. Host links run at ``bandwidth_bps``, the links between switches at
    ``fabric_bandwidth_bps`` (default the same; less tapers the fabric).

    Flow by flow this is ``n(n - 1)`` flows (10^12 at k = 160), so it is aggregated. With
    ``h = k/2``, a host's ``n - 1`` flows fall in three classes (:data:`A2A_CLASSES`): ``h - 1``
    to hosts on its own edge switch (2 links), ``h(h - 1)`` to the rest of its pod (4 links, over
    ``h`` aggregation switches) and ``n - h^2`` to other pods (6 links, over ``h^2`` core paths).

    **Spraying** (every flow split evenly over its equal-cost paths). The fat tree's symmetries
    map any flow of a class onto any other, so (max-min rates being unique) every flow of a class
    gets one rate, and every link of a tier carries the same load. Counted on one link of each
    tier, in flows (a sprayed flow counting its share): a host link carries
    ``(h - 1) + h(h - 1) + (n - h^2) = n - 1``; an edge switch's uplink ``h(h - 1) + (n - h^2) =
    n - h`` (its ``h`` hosts' flows that leave it, over ``h`` uplinks); a pod's link to the core
    ``n - h^2``; the same downwards. The run is then exact progressive filling on one representative
    link per tier and direction, each class one flow of those multiplicities (:func:`complete` on
    6 links and 3 weighted flows). With every link at one rate ``C`` the host links fill first,
    every flow gets ``C / (n - 1)`` and the all-to-all takes the ideal ``(n - 1) * 8 * n_bytes / C``:
    the full-bisection fabric is invisible. On a tapered fabric (``C_f < C (n - h)/(n - 1)``) the
    edge uplinks fill first at ``C_f / (n - h)`` for the two classes that cross them, and the
    flows within an edge switch share what is left of the host links, ``(C - C_f) / (h - 1)`` each;
    every class keeps its first rate to the end (equal sizes, see :func:`complete`).

    **ECMP** (every flow hashed onto one path, uniformly, as in :func:`fat_tree_permutation`).
    Per-flow hashes are out of reach at this size, and no exact aggregation exists (no two flows
    share a whole path), so the model draws what decides the slowest flow: the number of flows on
    every fabric link. An edge switch's ``h(n - h^2)`` flows to other pods and ``h^2 (h - 1)``
    within its pod fall on its ``h`` uplinks as two multinomial draws; each aggregation switch's
    share of the first splits over its ``h`` core links the same way. That is the exact joint law
    of every upward link's count; the downward links have the same law by symmetry and are drawn
    independently of the upward ones, the one approximation (an edge uplink and an edge downlink
    share at most ``h^2`` of their ``h(n - h)`` flows, a correlation of ``h / (n - h)``: 8e-5 at
    k = 160; two core links up to ``h^2 / n``, 0.6 %, but a core link never decides, below).
    Then, exactly:

    * every flow's max-min rate is at least ``r_min = 1 / max_l(n_l / C_l)`` over all links ``l``
      (``n_l`` flows on capacity ``C_l``): the filling level cannot pass a link before it is
      full, and a link holding ``n_l`` flows at most at the level fills no sooner;
    * the flows of the link that attains that maximum all run at exactly ``r_min`` (they fill it),
      and it carries flows between pods, so the slowest flow takes ``8 * n_bytes / r_min`` plus 6
      links' propagation;
    * a host link carries ``n - 1`` flows and at most ``C``, all at ``>= r_min``, so fewer than
      half of them run faster than ``2C / (n - 1) - r_min``: the median lies between that rate's
      time (plus 2 links' propagation) and the slowest flow's.

    Why ECMP nearly vanishes here, with numbers: at k = 160 an edge uplink holds about ``n - h``
    = 1,023,920 flows, a binomial count with standard deviation ``sqrt(n (1 - 1/h))`` = 1,005 (a
    link to the core holds ``n - h^2`` = 1,017,600, six standard deviations lower, and never
    decides). The busiest of the 2,048,000 edge uplinks and downlinks sits about 5 standard
    deviations above the mean, some 5,000 flows over a host link's ``n - 1``, so ``r_min`` is
    ``C / (n - 1)`` less about 0.5 %, and so is the all-to-all's time over the ideal: the relative
    spread of a count falls as ``1 / sqrt(n)``. A permutation puts about one flow on each link
    instead, and there the hash's collisions make the slowest flow 8.7 times the ideal on the same
    fabric (``benchmarks/README.md``). (The slowest flow is on the busiest link and crosses 6
    links as long as that link carries a flow between pods; at k = 4 an edge uplink misses all 24
    of them with probability 2^-24, and then only the propagation part of the time is off, by 2
    links.)

    ``propagation_s`` and ``payload_fraction`` are those of :func:`fat_tree_permutation`;
    ``seed`` draws the ECMP hashes. ``k`` runs from 4 to 200 (even).

    >>> run = fat_tree_all_to_all(8, 100e9, scheme="spray", n_bytes=1000, propagation_s=0.0)
    >>> round(run.max_s * 1e6, 6)        # 127 flows of 8 kbit through each 100 Gb/s host link
    10.16
    """
    k = validate.integer("k", k, minimum=4, maximum=200)
    if k % 2:
        raise ValueError(f"k must be even (k/2 ports up and k/2 down per switch), got {k}")
    bps = validate.positive("bandwidth_bps", bandwidth_bps)
    fabric_bps = bps if fabric_bandwidth_bps is None else validate.positive("fabric_bandwidth_bps",
                                                                             fabric_bandwidth_bps)
    _, _, n_bytes, propagation_s, payload_fraction, rng = _common(
        bps, fabric_bps, scheme, n_bytes, propagation_s, payload_fraction, seed)
    h = k // 2
    n = k * h * h
    host_c, fabric_c = bps * payload_fraction, fabric_bps * payload_fraction
    bits = 8.0 * n_bytes
    per_host = (h - 1, h * (h - 1), n - h * h)
    flows_per_class = (n * per_host[0], n * per_host[1], n * per_host[2])
    ideal = (n - 1) * bits / host_c + 2 * propagation_s
    topology = f"{k}-ary fat tree"
    if scheme == "spray":
        same_edge, same_pod, other_pod = (float(c) for c in per_host)
        # links: host up, host down, edge up, edge down, pod up to the core, pod down from it
        flow_of = np.array([0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2])
        link_of = np.array([0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5])
        weight = np.array([same_edge] * 2 + [same_pod] * 4 + [other_pod] * 6)
        capacity = np.array([host_c, host_c] + [fabric_c] * 4)
        times, rounds = complete(flow_of, link_of, weight, capacity, np.full(3, bits))
        times = times + np.array([2, 4, 6]) * propagation_s
        order = np.argsort(times, kind="stable")
        cumulative = np.cumsum(np.array(flows_per_class)[order])
        median = float(times[order][np.searchsorted(cumulative, (sum(flows_per_class) + 1) // 2)])
        fabric_flows = n - h                                  # an edge uplink's load, the fabric's busiest
        return AllToAllRun(topology=topology, scheme=scheme, model="exact (aggregated by class)",
                           n_hosts=n, n_bytes=n_bytes, ideal_s=ideal, flows_per_class=flows_per_class,
                           class_times_s=(float(times[0]), float(times[1]), float(times[2])),
                           max_s=float(times.max()), median_bounds_s=(median, median),
                           rate_recomputations=rounds,
                           peak_link_demand=fabric_flows * host_c / (n - 1) / fabric_c,
                           busiest_link_flows=fabric_flows)
    busiest = max(int(_ecmp_uplink_counts(rng, k).max()), int(_ecmp_uplink_counts(rng, k).max()))
    r_min = 1.0 / max((n - 1) / host_c, busiest / fabric_c)
    r_half = 2.0 * host_c / (n - 1) - r_min
    slowest = bits / r_min + 6 * propagation_s
    return AllToAllRun(topology=topology, scheme=scheme,
                       model="ECMP link counts drawn: slowest flow exact, median bounded",
                       n_hosts=n, n_bytes=n_bytes, ideal_s=ideal, flows_per_class=flows_per_class,
                       class_times_s=None, max_s=slowest,
                       median_bounds_s=(bits / r_half + 2 * propagation_s, slowest), rate_recomputations=0,
                       peak_link_demand=busiest * host_c / (n - 1) / fabric_c, busiest_link_flows=busiest)


def _ecmp_uplink_counts(rng: np.random.Generator, k: int) -> np.ndarray:
    """Flows on every upward fabric link of the k-ary fat tree's all-to-all under ECMP, drawn from
    their exact joint law: per edge switch, its flows to other pods and to its own pod each split
    multinomially over its ``k/2`` uplinks; per aggregation switch, its flows to other pods split
    multinomially over its ``k/2`` core links. Edge uplinks first, then core links, flat."""
    h = k // 2
    n = k * h * h
    even = np.full(h, 1.0 / h)
    to_other_pods = rng.multinomial(h * (n - h * h), even, size=k * h)      # (edge, agg)
    to_own_pod = rng.multinomial(h * h * (h - 1), even, size=k * h)
    per_agg = to_other_pods.reshape(k, h, h).sum(axis=1)                     # (pod, agg)
    to_core = rng.multinomial(per_agg, even)                                 # (pod, agg, core)
    return np.concatenate([(to_other_pods + to_own_pod).ravel(), to_core.ravel()])


def _check_size(n_hosts: int) -> int:
    if n_hosts > MAX_FLOWS:
        raise ValueError(f"at most {MAX_FLOWS:,} hosts (one flow each) fit this model in memory; got {n_hosts:,}")
    return n_hosts


def _common(host_bps, fabric_bps, scheme, n_bytes, propagation_s, payload_fraction, seed):
    host_bps = validate.positive("host_bandwidth_bps", host_bps)
    fabric_bps = validate.positive("fabric_bandwidth_bps", fabric_bps)
    validate.choice("scheme", scheme, SCHEMES)
    n_bytes = validate.integer("n_bytes", n_bytes, minimum=1, maximum=10**15)
    propagation_s = (specs.value("sim.assume.link_propagation") if propagation_s is None
                     else validate.in_range("propagation_s", propagation_s, 0.0, 1.0))
    payload_fraction = validate.in_range("payload_fraction", payload_fraction, 0.0, 1.0, low_open=True)
    seed = validate.integer("seed", seed, minimum=0)
    return host_bps, fabric_bps, n_bytes, propagation_s, payload_fraction, np.random.default_rng(seed)


def _permutation(rng: np.random.Generator, group: np.ndarray) -> np.ndarray:
    """A random permutation ``dst`` with ``group[dst[i]] != group[i]`` for every i."""
    n = len(group)
    if np.bincount(group).max() > n // 2:
        raise ValueError("the hosts sit in too few groups for a permutation that leaves every group")
    dst = rng.permutation(n)
    for _ in range(1000):
        bad = np.flatnonzero(group[dst] == group)
        if len(bad) == 0:
            return dst
        other = rng.integers(0, n, len(bad))
        # swap dst[bad] with dst[other] where both ends then leave their groups
        ok = (group[dst[other]] != group[bad]) & (group[dst[bad]] != group[other])
        b, o = bad[ok], other[ok]
        _, first = np.unique(np.concatenate([b, o]), return_index=True)
        pairs = np.zeros(len(b) * 2, dtype=bool)
        pairs[first] = True
        clean = pairs[:len(b)] & pairs[len(b):]     # no index in two swaps of this round
        b, o = b[clean], o[clean]
        dst[b], dst[o] = dst[o], dst[b].copy()
    raise RuntimeError("could not draw a permutation that leaves every group")  # pragma: no cover


def _run(topology, scheme, n_hosts, links, capacity, n_bytes, host_bps, propagation_s,
         weights=None, hops=None) -> FlowLevelRun:
    n_flows, n_hops = links.shape
    flow_of = np.repeat(np.arange(n_flows), n_hops)
    weight = np.ones(n_flows * n_hops) if weights is None else weights.ravel()
    on_path = weight > 0
    link_of = links.ravel()[on_path]
    times, rounds = complete(flow_of[on_path], link_of, weight[on_path], capacity,
                             np.full(n_flows, 8.0 * n_bytes))
    demand = np.bincount(link_of, weights=weight[on_path] * host_bps, minlength=len(capacity)) / capacity
    peak = float(demand[2 * n_hosts:].max(initial=0.0))             # host links carry one flow each
    hops = np.full(n_flows, n_hops) if hops is None else hops
    times = times + hops * propagation_s
    ideal = 8.0 * n_bytes / host_bps + int(hops.min()) * propagation_s
    return FlowLevelRun(topology=topology, scheme=scheme, n_hosts=n_hosts, n_flows=n_flows, n_bytes=n_bytes,
                        ideal_s=ideal, completion_times_s=times, rate_recomputations=rounds,
                        peak_link_demand=peak)
