"""Pricing a collective schedule step by step on a topology, with alpha-beta per port.

The model is a full-duplex *port model*: every rank has one port into the scale-up
domain (NVLink) and one into the scale-out fabric (a NIC), each with a start-up
cost ``alpha_s`` and a one-way rate ``bandwidth_bps``, and the switches between
them never block. In one step, a port that sends ``b`` bytes is busy for
``alpha + 8b/B``, and so is a port that receives them; the step lasts as long as
its busiest port, and the steps run one after another:

    ``T = sum over steps of max over ports (alpha_port + 8 * bytes_port / B_port)``.

A transfer between ranks of the same domain uses the scale-up ports, otherwise the
scale-out ports; a transfer to or from a switch node (in-network reduction) uses
the rank's scale-up port if the whole job fits in one domain, else its scale-out
port. A *straggler* is a rank whose ports are slower: since every ring step
involves every rank, the whole ring runs at the straggler's pace.

Summing these steps reproduces the textbook closed forms of
``netlab.collectives.alpha_beta`` (the tests check it), and prices the schedules that
have no simple closed form (the pipelined double binary tree).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from netlab import validate
from netlab.collectives.alpha_beta import busbw_factor
from netlab.collectives.schedules import Schedule
from netlab.units import format_byte_rate, format_bytes, format_time


@dataclass(frozen=True)
class Topology:
    """Ranks in scale-up domains of ``domain_size``; per-rank port rates (bit/s, one-way)."""

    world_size: int
    domain_size: int
    intra_alpha_s: float
    inter_alpha_s: float
    intra_bandwidth_bps: tuple[float, ...]   # one per rank
    inter_bandwidth_bps: tuple[float, ...]   # one per rank

    def __post_init__(self):
        n = validate.integer("world_size", self.world_size, minimum=1, maximum=validate.MAX_RANKS)
        validate.integer("domain_size", self.domain_size, minimum=1)
        validate.non_negative("intra_alpha_s", self.intra_alpha_s)
        validate.non_negative("inter_alpha_s", self.inter_alpha_s)
        for name in ("intra_bandwidth_bps", "inter_bandwidth_bps"):
            rates = getattr(self, name)
            if not isinstance(rates, tuple) or len(rates) != n:
                raise ValueError(f"{name} must be a tuple of {n} rates (one per rank), got {rates!r:.80}")
            # a straggler's rate divided to 0 (underflow) would give an infinite step
            if not all(type(b) is float and validate.SMALLEST <= b <= validate.LARGEST for b in rates):  # fast path
                for i, b in enumerate(rates):
                    validate.positive(f"{name}[{i}]", b)

    def __repr__(self) -> str:
        return (f"Topology({self.world_size} ranks in domains of {self.domain_size}; "
                f"scale-up {format_byte_rate(min(self.intra_bandwidth_bps))} per rank, "
                f"scale-out {format_byte_rate(min(self.inter_bandwidth_bps))} per rank (slowest))")


def flat_topology(world_size: int, alpha_s: float, bandwidth_bps: float) -> Topology:
    """Every rank one port of ``bandwidth_bps`` on one non-blocking switch."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_RANKS)
    a = validate.non_negative("alpha_s", alpha_s)
    B = validate.positive("bandwidth_bps", bandwidth_bps)
    return Topology(n, n, a, a, (B,) * n, (B,) * n)


def two_level_topology(domain_size: int, n_domains: int, intra_alpha_s: float,
                       intra_bandwidth_bps: float, inter_alpha_s: float,
                       inter_bandwidth_bps: float) -> Topology:
    """``n_domains`` scale-up domains of ``domain_size`` ranks joined by a scale-out fabric."""
    d = validate.integer("domain_size", domain_size, minimum=1, maximum=validate.MAX_RANKS)
    m = validate.integer("n_domains", n_domains, minimum=1, maximum=validate.MAX_RANKS // d)
    return Topology(d * m, d,
                    validate.non_negative("intra_alpha_s", intra_alpha_s),
                    validate.non_negative("inter_alpha_s", inter_alpha_s),
                    (validate.positive("intra_bandwidth_bps", intra_bandwidth_bps),) * (d * m),
                    (validate.positive("inter_bandwidth_bps", inter_bandwidth_bps),) * (d * m))


def with_straggler(topology: Topology, rank: int, slowdown: float) -> Topology:
    """``topology`` with both ports of ``rank`` slower by a factor ``slowdown`` (>= 1)."""
    if not isinstance(topology, Topology):
        raise TypeError(f"topology must be a Topology, got {type(topology).__name__}")
    r = validate.integer("rank", rank, minimum=0, maximum=topology.world_size - 1)
    f = validate.in_range("slowdown", slowdown, 1.0, 1e6)

    def slowed(rates):
        return tuple(b / f if i == r else b for i, b in enumerate(rates))

    return replace(topology, intra_bandwidth_bps=slowed(topology.intra_bandwidth_bps),
                   inter_bandwidth_bps=slowed(topology.inter_bandwidth_bps))


@dataclass(frozen=True)
class ScheduleTime:
    """A schedule priced step by step; ``time_s = latency_s + transfer_s``."""

    name: str
    collective: str
    n_bytes: float
    world_size: int
    n_steps: int
    step_times_s: tuple[float, ...]
    latency_s: float      # alpha of the busiest port, summed over steps
    transfer_s: float     # bytes over rate of the busiest port, summed over steps
    time_s: float
    algbw_bps: float
    busbw_bps: float

    def __repr__(self) -> str:
        return (f"ScheduleTime({self.name} {self.collective}, {format_bytes(self.n_bytes)} on "
                f"{self.world_size} ranks, {self.n_steps} steps: {format_time(self.time_s)}; "
                f"busbw {format_byte_rate(self.busbw_bps)})")


def schedule_time(schedule: Schedule, n_bytes: float, topology: Topology) -> ScheduleTime:
    """Price ``schedule`` for ``n_bytes`` (nccl-tests' size) on ``topology``, step by step."""
    if not isinstance(schedule, Schedule):
        raise TypeError(f"schedule must be a Schedule, got {type(schedule).__name__}")
    if not isinstance(topology, Topology):
        raise TypeError(f"topology must be a Topology, got {type(topology).__name__}")
    N = validate.non_negative("n_bytes", n_bytes)
    n = schedule.world_size
    if topology.world_size != n:
        raise ValueError(f"topology has {topology.world_size} ranks, the schedule {n}")
    chunk_bytes = N / schedule.n_chunks
    one_domain = topology.domain_size >= n

    def level(src, dst):
        if src >= n or dst >= n:                      # a switch node
            return "intra" if one_domain else "inter"
        return "intra" if src // topology.domain_size == dst // topology.domain_size else "inter"

    alpha = {"intra": topology.intra_alpha_s, "inter": topology.inter_alpha_s}
    rate = {"intra": topology.intra_bandwidth_bps, "inter": topology.inter_bandwidth_bps}
    step_times, latency_s, transfer_s = [], 0.0, 0.0
    for step in schedule.steps:
        port_bytes: defaultdict[tuple[int, str, str], float] = defaultdict(float)   # (rank, level, direction) -> bytes
        for t in step:
            if t.src == t.dst:
                continue                              # a local copy uses no port
            lv = level(t.src, t.dst)
            if t.src < n:
                port_bytes[(t.src, lv, "out")] += chunk_bytes
            if t.dst < n:
                port_bytes[(t.dst, lv, "in")] += chunk_bytes
        if not port_bytes:
            step_times.append(0.0)
            continue
        a, w = max(((alpha[lv], 8 * b / rate[lv][r]) for (r, lv, _), b in port_bytes.items()),
                   key=sum)
        step_times.append(a + w)
        latency_s += a
        transfer_s += w
    time_s = latency_s + transfer_s
    alg = N * 8 / time_s if time_s > 0 else 0.0
    return ScheduleTime(schedule.name, schedule.collective, N, n, schedule.n_steps, tuple(step_times),
                        latency_s, transfer_s, time_s, alg, alg * busbw_factor(schedule.collective, n))


def bytes_sent_per_rank(schedule: Schedule, n_bytes: float) -> tuple[float, ...]:
    """Bytes each rank sends over the whole schedule (local copies excluded).

    A ring all-reduce of 1 MB on 4 ranks: each rank sends 2 (n-1)/n = 1.5 MB.

    >>> from netlab.collectives.schedules import ring_all_reduce
    >>> bytes_sent_per_rank(ring_all_reduce(4), 1e6)
    (1500000.0, 1500000.0, 1500000.0, 1500000.0)
    """
    if not isinstance(schedule, Schedule):
        raise TypeError(f"schedule must be a Schedule, got {type(schedule).__name__}")
    chunk_bytes = validate.non_negative("n_bytes", n_bytes) / schedule.n_chunks
    sent = [0.0] * schedule.world_size
    for step in schedule.steps:
        for t in step:
            if t.src != t.dst and t.src < schedule.world_size:
                sent[t.src] += chunk_bytes
    return tuple(sent)
