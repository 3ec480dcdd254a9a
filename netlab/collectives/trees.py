"""Tree all-reduce schedules: the binomial tree, and NCCL's double binary tree.

A tree all-reduce sums the data up a tree to its root (reduce) and sends the sum
back down (broadcast). Its latency grows with the depth, ``log2 n``, not with
``n`` as a ring's does, which is why trees win for small messages.

* The **binomial tree** (rooted at rank 0): rank ``r`` sends to ``r - lowbit(r)`` at
  step ``log2 lowbit(r)``, so no rank receives twice in a step. Unpipelined it costs
  ``2 ceil(log2 n) (alpha + 8N/B)``: every step moves the whole message.
* The **double binary tree** :cite:p:`sanders-two-tree-2009` :cite:p:`nccl-dbt-blog`:
  two binary trees, each carrying half of the data, built so that every rank is an
  inner node in at most one of them (the second tree is the first mirrored, or shifted
  by one rank when ``n`` is odd). Pipelined in ``k`` chunks per tree, a port moves at
  most ``N/k`` bytes per step, so for large messages the transfer term tends to
  ``2 * 8N/B``, about the ring's ``2(n-1)/n * 8N/B``, with a latency of ``log2 n`` steps.

The first binary tree is the in-order tree on ``v = rank + 1``: ``v`` with lowest set
bit ``b`` hangs under ``v - b`` or ``v + b`` (whichever has lowest bit ``2b``), walking up
while that node does not exist. Odd ``v`` (even ranks) are leaves.

In both trees a node of level ``l`` (the binomial ``log2 lowbit(r)``, the binary tree's
``log2 lowbit(v)``) sends chunk ``j`` up at step ``l + j``; the broadcast is the reduce
played backwards, with every transfer reversed.
"""

from __future__ import annotations

from netlab import validate
from netlab.collectives.schedules import Schedule, Transfer, _make


_MAX_TRANSFERS = 1 << 14     # a schedule lists every transfer: bound world_size x chunks (~0.5 s)
_MAX_PARENTS = 1 << 18       # parent lists: one entry per rank
_WHY = "a schedule lists every rank and transfer; netlab.collectives.alpha_beta times larger collectives"


def _lowbit(v: int) -> int:
    return v & -v


def binomial_parents(world_size: int) -> list[int | None]:
    """Parent of each rank in the binomial tree rooted at rank 0 (``None`` for the root)."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=_MAX_PARENTS, why=_WHY)
    return [None] + [r - _lowbit(r) for r in range(1, n)]


def binary_tree_parents(world_size: int) -> list[int | None]:
    """Parent of each rank in the in-order binary tree (the first tree of the pair)."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=_MAX_PARENTS, why=_WHY)
    parents = []
    for v in range(1, n + 1):
        b, p, parent = _lowbit(v), v, None
        while b <= n:
            p = p - b if (p // (2 * b)) % 2 == 1 else p + b
            b *= 2
            if p <= n:
                parent = p - 1
                break
        parents.append(parent)
    return parents


def mirror_rank(rank: int, world_size: int) -> int:
    """Where the second tree puts ``rank``: mirrored (``n-1-r``) for even ``n``, shifted by
    one for odd ``n``; either way inner nodes of the first tree become leaves."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=validate.MAX_RANKS,
                         why="a schedule lists every rank")
    r = validate.integer("rank", rank, minimum=0, maximum=n - 1)
    return n - 1 - r if n % 2 == 0 else (r + 1) % n


def _tree_steps(parents, levels, slots):
    """Reduce up the tree (level ``l`` sends chunk ``j`` at step ``l + j``), then the reverse."""
    up: dict[int, list[Transfer]] = {}          # step -> its transfers
    for node, parent in enumerate(parents):
        if parent is None:
            continue
        for j, c in enumerate(slots):
            up.setdefault(levels[node] + j, []).append(Transfer(node, parent, c, c, True))
    n_up = max(up, default=-1) + 1
    steps = [up.get(s, []) for s in range(n_up)]
    down = [[Transfer(t.dst, t.src, t.chunk, t.chunk, False) for t in step]
            for step in reversed(steps)]
    return steps + down


def tree_all_reduce(world_size: int, n_pipeline_chunks: int = 1) -> Schedule:
    """Binomial-tree all-reduce: ``2 ceil(log2 n)`` steps when unpipelined (``k = 1``).

    >>> tree_all_reduce(4).describe()
    'step 0: 1->0 [0] +=, 3->2 [0] +=\\nstep 1: 2->0 [0] +=\\nstep 2: 0->2 [0] =\\nstep 3: 0->1 [0] =, 2->3 [0] ='
    """
    n = validate.integer("world_size", world_size, minimum=1, maximum=_MAX_TRANSFERS, why=_WHY)
    k = validate.integer("n_pipeline_chunks", n_pipeline_chunks, minimum=1, maximum=max(1, _MAX_TRANSFERS // n),
                         why=f"world_size x n_pipeline_chunks <= {_MAX_TRANSFERS}: every transfer is listed")
    levels = [0] + [_lowbit(r).bit_length() - 1 for r in range(1, n)]
    return _make(f"binomial tree (k={k})", "all_reduce", n, k,
                 _tree_steps(binomial_parents(n), levels, list(range(k))))


def double_binary_tree_all_reduce(world_size: int, n_pipeline_chunks: int = 1) -> Schedule:
    """Double binary tree all-reduce: tree 1 carries chunks ``0..k-1``, tree 2 ``k..2k-1``."""
    n = validate.integer("world_size", world_size, minimum=1, maximum=_MAX_TRANSFERS, why=_WHY)
    k = validate.integer("n_pipeline_chunks", n_pipeline_chunks, minimum=1, maximum=max(1, _MAX_TRANSFERS // n),
                         why=f"world_size x n_pipeline_chunks <= {_MAX_TRANSFERS}: every transfer is listed")
    first = binary_tree_parents(n)
    levels = [_lowbit(r + 1).bit_length() - 1 for r in range(n)]
    second: list[int | None] = [None] * n
    levels2 = [0] * n
    for r in range(n):
        m = mirror_rank(r, n)
        parent = first[r]
        second[m] = None if parent is None else mirror_rank(parent, n)
        levels2[m] = levels[r]
    steps1 = _tree_steps(first, levels, list(range(k)))
    steps2 = _tree_steps(second, levels2, list(range(k, 2 * k)))
    merged = [a + b for a, b in zip(steps1, steps2)]   # same shape, relabelled: same step count
    return _make(f"double binary tree (k={k})", "all_reduce", n, 2 * k, merged)
