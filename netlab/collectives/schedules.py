"""Collectives as explicit schedules: who sends which chunk to whom, step by step.

Each rank's buffer is cut into chunks; a :class:`Schedule` lists, for every step,
the :class:`Transfer` s that happen at the same time (rank ``src`` sends its chunk
``chunk`` to rank ``dst``, which adds it to, or stores it in, its chunk ``to_chunk``).
:func:`execute` runs a schedule on numpy buffers, so a reader can check that a ring
all-reduce really leaves ``sum(inputs)`` on every rank; ``netlab.collectives.on_topology``
prices the same steps with alpha-beta, so the closed forms of
``netlab.collectives.alpha_beta`` can be checked against the steps they summarise.

Builders here: ring reduce-scatter, all-gather and all-reduce (reduce-scatter then
all-gather) :cite:p:`patarasuk-yuan-2009`; pairwise all-to-all; recursive
halving-doubling (Rabenseifner's all-reduce, with the usual fix-up for a rank count
that is not a power of two) :cite:p:`thakur-collectives-2005`; hierarchical
all-reduce (inside each scale-up domain, then across domains, then inside again);
multi-ring all-reduce (one ring per NIC side by side, as NCCL's channels run);
and in-network reduction (SHARP), where node ``world_size`` is the switch
:cite:p:`graham-sharp-2016`. Tree all-reduces are in ``netlab.collectives.trees``.

Chunks: ``n_bytes`` is cut into ``n_chunks`` equal chunks (``np.array_split`` when
the element count does not divide); a rank's buffer has ``n_slots`` chunk slots.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:     # numpy only where a schedule runs on buffers (execute)
    import numpy as np

from netlab import validate

# Schedules list every transfer of every rank: the cost grows with world_size (ring: n^2 transfers).
# ring and halving-doubling list ~n^2 transfers (256 ranks: ~0.4 s); in-network ones n x chunks.
MAX_SCHEDULE_RANKS = 256
MAX_TRANSFERS = 1 << 14
_WHY = "a schedule lists every rank and transfer; netlab.collectives.alpha_beta times larger collectives"
MAX_CHUNKS = 4096


@dataclass(frozen=True)
class Transfer:
    """One message: ``src`` sends its chunk ``chunk`` to ``dst``'s chunk ``to_chunk``,
    added to what is there (``reduce=True``) or replacing it."""

    src: int
    dst: int
    chunk: int
    to_chunk: int
    reduce: bool

    def __repr__(self) -> str:
        op = "+=" if self.reduce else "="
        return f"{self.src}->{self.dst} [{self.chunk}]{'' if self.chunk == self.to_chunk else f'->[{self.to_chunk}]'} {op}"


@dataclass(frozen=True)
class Schedule:
    """A collective as steps of simultaneous transfers.

    ``inputs[r]`` are the slots rank ``r``'s input is split into, ``outputs[r]`` the slots
    whose concatenation is its result. Each slot holds ``n_bytes / n_chunks`` bytes.
    Nodes ``world_size .. world_size + n_switches - 1`` are switches (in-network reduction).
    """

    name: str
    collective: str
    world_size: int
    n_chunks: int
    n_slots: int
    inputs: tuple[tuple[int, ...], ...]
    outputs: tuple[tuple[int, ...], ...]
    steps: tuple[tuple[Transfer, ...], ...]
    n_switches: int = 0

    @property
    def n_steps(self) -> int:
        return len(self.steps)

    def describe(self, max_steps: int = 8) -> str:
        """The first ``max_steps`` steps, one line each: ``step 0: 0->1 [3] +=, ...``."""
        max_steps = validate.integer("max_steps", max_steps, minimum=0)
        lines = [f"step {i}: " + ", ".join(map(repr, step)) for i, step in enumerate(self.steps[:max_steps])]
        if self.n_steps > max_steps:
            lines.append(f"... {self.n_steps - max_steps} more steps")
        return "\n".join(lines)

    def __repr__(self) -> str:
        n_transfers = sum(len(s) for s in self.steps)
        return (f"Schedule({self.name} {self.collective}, {self.world_size} ranks, {self.n_steps} steps, "
                f"{n_transfers} transfers, {self.n_chunks} chunks)")


def _merge(*phases):
    """Steps of independent groups that run side by side: step i of each, together."""
    length = max((len(p) for p in phases), default=0)
    return [[t for p in phases if i < len(p) for t in p[i]] for i in range(length)]


def _ring_reduce_scatter_steps(ranks, groups):
    """Ring over ``ranks``; data in ``len(ranks)`` groups of slots; position i ends owning group i.

    At step s position i sends group (i - s - 1) mod q to position i + 1, which adds it.
    """
    q = len(ranks)
    return [[Transfer(ranks[i], ranks[(i + 1) % q], c, c, True)
             for i in range(q) for c in groups[(i - s - 1) % q]] for s in range(q - 1)]


def _ring_all_gather_steps(ranks, groups):
    """Ring over ``ranks``; position i starts owning group i; at step s it forwards group (i - s)."""
    q = len(ranks)
    return [[Transfer(ranks[i], ranks[(i + 1) % q], c, c, False)
             for i in range(q) for c in groups[(i - s) % q]] for s in range(q - 1)]


def _make(name, collective, n, n_chunks, steps, inputs=None, outputs=None, n_slots=None, n_switches=0):
    every = tuple(range(n_chunks))
    return Schedule(name=name, collective=collective, world_size=n, n_chunks=n_chunks,
                    n_slots=n_slots or n_chunks,
                    inputs=tuple(inputs) if inputs is not None else (every,) * n,
                    outputs=tuple(outputs) if outputs is not None else (every,) * n,
                    steps=tuple(tuple(s) for s in steps), n_switches=n_switches)


def ring_reduce_scatter(world_size: int) -> Schedule:
    """Ring reduce-scatter: ``n-1`` steps; rank ``r`` ends with the sum of chunk ``r``.

    >>> ring_reduce_scatter(3).describe()
    'step 0: 0->1 [2] +=, 1->2 [0] +=, 2->0 [1] +=\\nstep 1: 0->1 [1] +=, 1->2 [2] +=, 2->0 [0] +='
    """
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    groups = [(c,) for c in range(n)]
    return _make("ring", "reduce_scatter", n, n, _ring_reduce_scatter_steps(list(range(n)), groups),
                 outputs=[(r,) for r in range(n)])


def ring_all_gather(world_size: int) -> Schedule:
    """Ring all-gather: rank ``r`` contributes chunk ``r``; ``n-1`` steps."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    groups = [(c,) for c in range(n)]
    return _make("ring", "all_gather", n, n, _ring_all_gather_steps(list(range(n)), groups),
                 inputs=[(r,) for r in range(n)])


def ring_all_reduce(world_size: int) -> Schedule:
    """Ring all-reduce: reduce-scatter then all-gather, ``2(n-1)`` steps of ``N/n`` bytes."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    ranks, groups = list(range(n)), [(c,) for c in range(n)]
    steps = _ring_reduce_scatter_steps(ranks, groups) + _ring_all_gather_steps(ranks, groups)
    return _make("ring", "all_reduce", n, n, steps)


def all_to_all(world_size: int) -> Schedule:
    """Pairwise all-to-all: at step ``k-1`` rank ``r`` sends its block for rank ``r+k``.

    Slots ``0..n-1`` hold the blocks to send, slots ``n..2n-1`` the blocks received
    (block from rank ``q`` in slot ``n+q``); rank ``r`` keeps its own block locally.
    """
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    steps = [[Transfer(r, (r + k) % n, (r + k) % n, n + r, False) for r in range(n)] for k in range(1, n)]
    local = [Transfer(r, r, r, n + r, False) for r in range(n)]
    steps = [local + steps[0]] + steps[1:] if steps else [local]
    return _make("pairwise", "all_to_all", n, n, steps, inputs=[tuple(range(n))] * n,
                 outputs=[tuple(range(n, 2 * n))] * n, n_slots=2 * n)


def halving_doubling_all_reduce(world_size: int) -> Schedule:
    """Recursive halving reduce-scatter, then recursive doubling all-gather.

    With ``p`` the largest power of two <= n and ``e = n - p``: first each even rank
    ``2i < 2e`` hands its whole buffer to ``2i+1``; the ``p`` remaining ranks exchange
    halves with partners at distance ``p/2, p/4, ..., 1`` (reduce-scatter) and then
    ``1, 2, ..., p/2`` (all-gather); last, ``2i+1`` hands the result back to ``2i``.
    """
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    p = 1 << (n.bit_length() - 1)
    e = n - p
    active = [2 * i + 1 for i in range(e)] + list(range(2 * e, n))   # active[q] = global rank
    every = range(p)
    steps = []
    if e:
        steps.append([Transfer(2 * i, 2 * i + 1, c, c, True) for i in range(e) for c in every])
    span = {q: (0, p) for q in range(p)}                              # chunk range each holds
    d = p // 2
    while d >= 1:                                                      # halving: reduce-scatter
        step = []
        for q in range(p):
            lo, hi = span[q]
            mid = (lo + hi) // 2
            give, keep = ((lo, mid), (mid, hi)) if q & d else ((mid, hi), (lo, mid))
            step += [Transfer(active[q], active[q ^ d], c, c, True) for c in range(*give)]
            span[q] = keep
        steps.append(step)
        d //= 2
    d = 1
    while d < p:                                                       # doubling: all-gather
        step = [Transfer(active[q], active[q ^ d], c, c, False) for q in range(p) for c in range(*span[q])]
        span = {q: (min(span[q][0], span[q ^ d][0]), max(span[q][1], span[q ^ d][1])) for q in range(p)}
        steps.append(step)
        d *= 2
    if e:
        steps.append([Transfer(2 * i + 1, 2 * i, c, c, False) for i in range(e) for c in every])
    return _make("halving-doubling", "all_reduce", n, p, steps)


def hierarchical_all_reduce(domain_size: int, n_domains: int) -> Schedule:
    """All-reduce in three ring phases over ``n_domains`` domains of ``domain_size`` ranks.

    Rank ``r = domain * domain_size + local``. The buffer is ``domain_size`` shards of
    ``n_domains`` chunks. (1) ring reduce-scatter of shards in every domain, (2) ring
    all-reduce of shard ``local`` among the ranks with that local index, one per domain,
    (3) ring all-gather of shards in every domain.
    """
    d = validate.integer("domain_size", domain_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    m = validate.integer("n_domains", n_domains, minimum=1, maximum=MAX_SCHEDULE_RANKS // d, why=_WHY)
    shards = [tuple(range(i * m, (i + 1) * m)) for i in range(d)]
    domains = [[dom * d + i for i in range(d)] for dom in range(m)]
    inside_rs = _merge(*[_ring_reduce_scatter_steps(ranks, shards) for ranks in domains])
    across = []
    for local in range(d):
        ranks = [dom * d + local for dom in range(m)]
        pieces = [(c,) for c in shards[local]]
        across.append(_ring_reduce_scatter_steps(ranks, pieces) + _ring_all_gather_steps(ranks, pieces))
    inside_ag = _merge(*[_ring_all_gather_steps(ranks, shards) for ranks in domains])
    return _make("hierarchical", "all_reduce", d * m, d * m, inside_rs + _merge(*across) + inside_ag)


def multi_ring_all_reduce(domain_size: int, n_domains: int) -> Schedule:
    """``domain_size`` ring all-reduces side by side, one per NIC, each on ``1/domain_size``
    of the buffer: how NCCL runs a flat all-reduce across nodes (one channel per NIC).

    Rank ``r = domain * domain_size + local``. Ring ``k`` enters every domain at local rank
    ``k+1``, walks its ranks over the scale-up links and leaves at local rank ``k`` for the
    next domain, so ring ``k`` alone uses rank ``k``'s NIC to send: every NIC carries one ring
    while each scale-up port carries the other ``domain_size - 1``. Each ring has
    ``2(n-1)`` steps of ``N / (domain_size n)`` bytes, all rings in the same steps.
    """
    d = validate.integer("domain_size", domain_size, minimum=1, maximum=MAX_SCHEDULE_RANKS, why=_WHY)
    m = validate.integer("n_domains", n_domains, minimum=1, maximum=MAX_SCHEDULE_RANKS // d, why=_WHY)
    n = d * m
    if d * n * 2 * (n - 1) > MAX_TRANSFERS * 16:
        raise ValueError(f"domain_size x n_domains = {n} ranks in {d} rings list too many transfers; {_WHY}")
    rings = []
    for k in range(d):
        ranks = [dom * d + (k + 1 + i) % d for dom in range(m) for i in range(d)]
        groups = [(k * n + c,) for c in range(n)]
        rings.append(_ring_reduce_scatter_steps(ranks, groups) + _ring_all_gather_steps(ranks, groups))
    return _make("multi-ring", "all_reduce", n, d * n, _merge(*rings))


def in_network_all_reduce(world_size: int, n_pipeline_chunks: int = 1) -> Schedule:
    """In-network reduction (SHARP): every rank sends chunk ``s`` up to the switch (node
    ``world_size``), which sums it, while the switch sends the finished chunk ``s-1``
    down to every rank: ``k + 1`` steps for ``k`` pipeline chunks."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=MAX_TRANSFERS, why=_WHY)
    k = validate.integer("n_pipeline_chunks", n_pipeline_chunks, minimum=1, maximum=max(1, MAX_TRANSFERS // n),
                         why=f"world_size x n_pipeline_chunks <= {MAX_TRANSFERS}: every transfer is listed")
    switch = n
    steps = []
    for s in range(k + 1):
        up = [Transfer(r, switch, s, s, True) for r in range(n)] if s < k else []
        down = [Transfer(switch, r, s - 1, s - 1, False) for r in range(n)] if s >= 1 else []
        steps.append(up + down)
    return _make(f"in-network (k={k})", "all_reduce", n, k, steps, n_switches=1)


def execute(schedule: Schedule, inputs) -> list[np.ndarray]:
    """Run ``schedule`` on one 1-D numpy array per rank; returns each rank's result.

    All transfers of a step read the buffers as they were when the step began.
    Raises ``RuntimeError`` if a rank sends a chunk it does not hold (a schedule bug).
    """
    import numpy as np

    if not isinstance(schedule, Schedule):
        raise TypeError(f"schedule must be a Schedule, got {type(schedule).__name__}")
    arrays = [np.asarray(x) for x in validate.sequence("inputs", inputs, "a list of one 1-D array per rank")]
    if len(arrays) != schedule.world_size:
        raise ValueError(f"inputs must hold one array per rank ({schedule.world_size}), got {len(arrays)}")
    if any(a.ndim != 1 for a in arrays) or len({a.shape for a in arrays}) != 1 or \
            len({a.dtype for a in arrays}) != 1:
        raise ValueError("inputs must be 1-D arrays of the same length and dtype")
    nodes = schedule.world_size + schedule.n_switches
    buf: list[list[np.ndarray | None]] = [[None] * schedule.n_slots for _ in range(nodes)]
    for r, x in enumerate(arrays):
        for slot, piece in zip(schedule.inputs[r], np.array_split(x, len(schedule.inputs[r]))):
            buf[r][slot] = piece.copy()
    for i, step in enumerate(schedule.steps):
        sent = []
        for t in step:
            if buf[t.src][t.chunk] is None:
                raise RuntimeError(f"step {i}: node {t.src} sends chunk {t.chunk} before holding it")
            sent.append((t, buf[t.src][t.chunk]))
        for t, payload in sent:   # arrays are never modified in place, so `sent` is a snapshot
            held = buf[t.dst][t.to_chunk]
            buf[t.dst][t.to_chunk] = payload + held if (t.reduce and held is not None) else payload
    out: list[np.ndarray] = []
    for r in range(schedule.world_size):
        parts = [buf[r][slot] for slot in schedule.outputs[r]]
        if any(p is None for p in parts):
            raise RuntimeError(f"rank {r} ends without all of its output chunks")
        out.append(np.concatenate(cast("list[np.ndarray]", parts)))     # none is None (checked above)
    return out
