"""Sweeps: one model or simulation over a grid of settings and seeds, on every core or a cluster.

A study rarely runs once: chapter 5 asks how a load-balancing scheme does over many ECMP draws
(seeds), the capstone over a space of designs. :func:`run` calls ``function(**settings, seed=s)``
for every combination of the ``grid`` (a dict of parameter -> values, in that order) and every
seed, and returns a :class:`Sweep`: one row per call, in grid order, whatever order the calls
finished in. Three ways to run the same calls, with the same rows:

* ``workers=1`` (the default): one after the other in this process;
* ``workers=N`` (``None``: every core): ``N`` local processes
  (``concurrent.futures.ProcessPoolExecutor``), for a function a worker can import
  (defined in a module, not in a notebook cell or as a lambda);
* ``client=`` a Dask ``distributed.Client`` (to a ``LocalCluster`` or a real cluster): the
  calls become Dask tasks, sent with cloudpickle, so lambdas and notebook functions work too.

A seeded function gives the same answer wherever it runs, so the three give identical rows
(``tests/test_sweep.py`` checks it). Progress goes to standard error as calls finish (or to
your ``progress(done, total)``). What a row holds: the settings, the seed, and what
``measure(result)`` returns (a dict of numbers or strings, computed where the call ran, so only
those travel back); without ``measure``, a dataclass result's scalar fields, a dict as it is, or
a number as ``result``.

>>> from netlab.fabric import flowlevel
>>> s = run(flowlevel.leaf_spine_permutation, dict(scheme=["ecmp", "spray"]), seeds=[0, 1],
...         fixed=dict(n_leaves=4, n_spines=4, hosts_per_leaf=4, host_bandwidth_bps=100e9,
...                    fabric_bandwidth_bps=100e9, n_bytes=1_000_000, propagation_s=0.0),
...         measure=flowlevel.summary, progress=False)
>>> s.how, len(s.rows), s.columns[:3]
('serial', 4, ('scheme', 'seed', 'median_s'))
>>> [round(r["max_s"] * 1e6) for r in s.where(scheme="spray")]   # µs: 8 Mbit at 100 Gb/s, every seed
[80, 80]
"""

from __future__ import annotations

import concurrent.futures
from dataclasses import dataclass, fields, is_dataclass
import itertools
import math
import os
import sys
import time
from typing import Any, Callable

from netlab import validate

_SCALARS = (int, float, str, bool)


@dataclass(frozen=True)
class Sweep:
    """The rows of a sweep, in grid order: ``columns`` names each row's entries."""

    columns: tuple[str, ...]
    rows: tuple[tuple, ...]
    how: str                      # "serial", "N processes" or "dask"

    def column(self, name: str) -> list:
        """Every row's value of column ``name``."""
        validate.choice("name", name, self.columns)
        i = self.columns.index(name)
        return [row[i] for row in self.rows]

    def records(self) -> list[dict]:
        """The rows as dicts (column -> value)."""
        return [dict(zip(self.columns, row)) for row in self.rows]

    def where(self, **settings) -> list[dict]:
        """The rows whose columns equal ``settings``."""
        for name in settings:
            validate.choice("settings", name, self.columns)
        return [r for r in self.records() if all(r[k] == v for k, v in settings.items())]

    def __repr__(self) -> str:
        def cell(v):
            return f"{v:.6g}" if isinstance(v, float) else str(v)
        table = [list(self.columns)] + [[cell(v) for v in row] for row in self.rows[:20]]
        width = [max(len(r[i]) for r in table) for i in range(len(self.columns))]
        lines = ["  ".join(c.rjust(w) for c, w in zip(r, width)) for r in table]
        more = f"\n... {len(self.rows) - 20} more rows" if len(self.rows) > 20 else ""
        return f"Sweep({len(self.rows)} runs, {self.how})\n" + "\n".join(lines) + more


def _flatten(result) -> dict:
    """The columns a result gives without a ``measure``."""
    if isinstance(result, dict):
        return dict(result)
    if is_dataclass(result) and not isinstance(result, type):
        return {f.name: getattr(result, f.name) for f in fields(result)
                if isinstance(getattr(result, f.name), _SCALARS)}
    if isinstance(result, _SCALARS):
        return {"result": result}
    raise TypeError(f"measure must be given for a function that returns {type(result).__name__} "
                    f"(a dataclass, a dict or a number need none)")


def _call(function: Callable, kwargs: dict, measure: Callable | None) -> dict:
    """One call, measured where it runs (module level, so that a worker process can import it)."""
    result = function(**kwargs)
    out = measure(result) if measure is not None else _flatten(result)
    if not isinstance(out, dict):
        raise TypeError(f"measure must return a dict of column -> value, got {type(out).__name__}")
    return out


def _progress_to_stderr(done: int, total: int) -> None:
    end = "\n" if done == total else ""
    print(f"\rsweep: {done}/{total} runs done", end=end, file=sys.stderr, flush=True)


def run(function: Callable, grid: dict | None = None, seeds=(0,), fixed: dict | None = None,
        measure: Callable | None = None, workers: int | None = 1, client: Any = None,
        progress: bool | Callable = True, seed_name: str = "seed") -> Sweep:
    """Call ``function(**fixed, **point, seed_name=seed)`` for every point of ``grid`` and every
    seed, serially, on ``workers`` local processes, or on a Dask ``client``; see the module
    docstring; ``seed_name`` is the name of ``function``'s seed parameter."""
    if not callable(function):
        raise TypeError(f"function must be callable, got {function!r:.80}")
    grid = {} if grid is None else grid
    if not isinstance(grid, dict) or not all(isinstance(k, str) for k in grid):
        raise TypeError(f"grid must be a dict of parameter name -> list of values, got {grid!r:.80}")
    values = {}
    for name, vals in grid.items():
        vals = list(validate.sequence(f"grid[{name!r}]", vals, "a list of values"))
        if not vals:
            raise ValueError(f"grid[{name!r}] must hold at least one value")
        values[name] = vals
    seeds = [validate.integer("seeds", s, minimum=0) for s in validate.sequence("seeds", seeds, "a list of seeds")]
    if not seeds:
        raise ValueError("seeds must hold at least one seed")
    fixed = {} if fixed is None else fixed
    if not isinstance(fixed, dict):
        raise TypeError(f"fixed must be a dict of parameter name -> value, got {fixed!r:.80}")
    if measure is not None and not callable(measure):
        raise TypeError(f"measure must be callable or None, got {measure!r:.80}")
    if not (isinstance(seed_name, str) and seed_name.isidentifier()):
        raise TypeError(f"seed_name must be the name of the function's seed parameter, got {seed_name!r:.80}")
    if workers is not None:
        workers = validate.integer("workers", workers, minimum=1, maximum=4096)
    if client is not None and not (callable(getattr(client, "map", None)) and callable(getattr(client, "gather", None))):
        raise TypeError(f"client must be a Dask distributed.Client (or None), got {client!r:.80}")
    clash = set(fixed) & (set(values) | {seed_name})
    if clash:
        raise ValueError(f"fixed must not repeat a parameter of the grid or the seed, got {sorted(clash)}")
    report = _progress_to_stderr if progress is True else (progress or None)
    if report is not None and not callable(report):
        raise TypeError(f"progress must be True, False or a function progress(done, total), got {progress!r:.80}")

    points = [dict(zip(values, combo)) for combo in itertools.product(*values.values())]
    tasks = []
    for point in points:
        for seed in seeds:
            tasks.append((point, seed, {**fixed, **point, seed_name: seed}))
    total = len(tasks)
    results: list[dict | None] = [None] * total
    done = 0

    def finished(i: int, out: dict) -> None:
        nonlocal done
        results[i] = out
        done += 1
        if report is not None:
            report(done, total)

    if client is not None:
        how = "dask"
        futures = client.map(_call, [function] * total, [t[2] for t in tasks], [measure] * total, pure=False)
        waiting = dict(enumerate(futures))
        while waiting:                       # collected as they finish (Dask futures answer done())
            ready = [i for i, f in waiting.items() if f.done()]
            for i in ready:
                finished(i, waiting.pop(i).result())
            if not ready:
                time.sleep(0.01)
    elif workers == 1 or total == 1:
        how = "serial"
        for i, (_, _, kwargs) in enumerate(tasks):
            finished(i, _call(function, kwargs, measure))
    else:
        n = min(workers or os.cpu_count() or 1, total)
        how = f"{n} processes"
        with concurrent.futures.ProcessPoolExecutor(max_workers=n) as pool:
            pending = {pool.submit(_call, function, kwargs, measure): i for i, (_, _, kwargs) in enumerate(tasks)}
            for future in concurrent.futures.as_completed(pending):
                finished(pending[future], future.result())

    names: list[str] = [*values, seed_name]
    for out in results:
        for key in out or {}:
            if key not in names:
                names.append(key)
    rows = []
    for (point, seed, _), out in zip(tasks, results):
        row = {**point, seed_name: seed, **(out or {})}
        rows.append(tuple(row.get(c, math.nan) for c in names))
    return Sweep(columns=tuple(names), rows=tuple(rows), how=how)
