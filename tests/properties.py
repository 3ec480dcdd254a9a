"""Shared machinery of the API property tests (tests/test_api_properties.py).

Every test module lists its public functions with one valid call in a dict named ``API``;
:func:`api_tables` collects them all. :func:`check_result` walks whatever a function returns
(numbers, dataclasses, tuples, dicts, numpy arrays) and insists that every number is finite
and that every quantity whose name says it is a time, rate, size, power, energy or count is
not negative. :func:`call_within` runs a call under a hang guard.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import math
import numbers
import pathlib
import signal

import numpy as np

TESTS = pathlib.Path(__file__).parent

# Names of quantities that cannot be negative: times, rates, sizes, powers, energies, counts.
NON_NEGATIVE_SUFFIXES = ("_s", "_bps", "_bytes", "_bits", "_w", "_j", "_pj", "_flops", "_gpus", "_hosts",
                         "_ports", "_packets", "_events", "_cores", "_m", "_db", "_usd", "_bytes_per_s",
                         "_per_bit", "_count")
NON_NEGATIVE_PREFIXES = ("n_", "num_")


# The real-time limit of :func:`call_within` is a hang guard, not a speed limit: a call fails only
# if it runs for more than a minute (4 s was exceeded under load by fat_tree_permutation(k=40), a
# valid call that takes a few seconds). How fast calls run is measured in benchmarks/, never asserted.
HANG_GUARD_S = 60.0


class TooSlow(Exception):
    """A call did not return within the hang guard."""


def api_tables(exclude: tuple[str, ...] = ()) -> dict:
    """``{function: kwargs}`` over every ``API`` dict in tests/ (later modules do not override)."""
    tables = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        relative = path.relative_to(TESTS.parent).with_suffix("")
        name = ".".join(relative.parts)
        if name in exclude:
            continue
        module = importlib.import_module(name)
        for func, kwargs in getattr(module, "API", {}).items():
            tables.setdefault(func, kwargs)
    return tables


def label(func) -> str:
    return f"{func.__module__}.{getattr(func, '__qualname__', func.__name__)}"


def numeric_params(kwargs: dict) -> list[str]:
    return [k for k, v in kwargs.items() if isinstance(v, numbers.Real) and not isinstance(v, bool)]


def _must_be_non_negative(name: str) -> bool:
    name = name.lower()
    return name.endswith(NON_NEGATIVE_SUFFIXES) or name.startswith(NON_NEGATIVE_PREFIXES)


def check_result(value, where: str = "result", depth: int = 0) -> None:
    """Every number inside ``value`` is finite; quantities named as non-negative are >= 0."""
    if depth > 6:
        return
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        return
    if isinstance(value, numbers.Real):
        x = float(value)
        assert math.isfinite(x), f"{where} is {x}"
        if _must_be_non_negative(where.rsplit(".", 1)[-1].split("[")[0]):
            assert x >= 0, f"{where} is negative: {x}"
        return
    if isinstance(value, np.ndarray):
        if value.dtype.kind in "fiu" and value.size:
            assert np.isfinite(value).all(), f"{where} holds non-finite values"
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            check_result(getattr(value, field.name), f"{where}.{field.name}", depth + 1)
        return
    if isinstance(value, dict):
        for k, v in list(value.items())[:200]:
            check_result(v, f"{where}[{k!r}]", depth + 1)
        return
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value[:200]):
            check_result(v, f"{where}[{i}]", depth + 1)


def _alarm(signum, frame):
    raise TooSlow()


def call_within(limit_s: float, func, kwargs: dict):
    """``func(**kwargs)``, or :class:`TooSlow` after ``max(limit_s, HANG_GUARD_S)`` s of real time.

    A caller's shorter ``limit_s`` is raised to the hang guard: no call is failed for being slow.
    """
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, max(limit_s, HANG_GUARD_S))
    try:
        return func(**kwargs)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def param_names(func) -> set[str]:
    try:
        return set(inspect.signature(func).parameters)
    except (TypeError, ValueError):
        return set()
