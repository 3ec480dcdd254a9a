"""Input checks shared by every public netlab function.

A model must refuse input that has no physical meaning rather than return a
wrong number. Each check names the parameter and the valid range in its message,
so a learner who types ``bandwidth_bps=0`` reads exactly what to change:

    >>> positive("bandwidth_bps", 0)
    Traceback (most recent call last):
    ...
    ValueError: bandwidth_bps must be a finite number > 0, got 0

Wrong types (a string, ``None``, a bool where a number is expected) raise
``TypeError``; NaN, infinities and out-of-range numbers raise ``ValueError``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable


def number(name: str, value: object, rule: str) -> float:
    """``value`` as a finite float, or an error whose message states ``rule``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number ({rule}), got {type(value).__name__} {value!r}")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number {rule}, got {value}")
    return x


def positive(name: str, value: object) -> float:
    """``value`` as a float, which must be finite and > 0."""
    x = number(name, value, "> 0")
    if x <= 0:
        raise ValueError(f"{name} must be a finite number > 0, got {value}")
    return x


def non_negative(name: str, value: object) -> float:
    """``value`` as a float, which must be finite and >= 0."""
    x = number(name, value, ">= 0")
    if x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value}")
    return x


def in_range(name: str, value: object, low: float, high: float,
             low_open: bool = False, high_open: bool = False) -> float:
    """``value`` as a float inside [low, high] (or an open end where asked)."""
    rule = f"in {'(' if low_open else '['}{low}, {high}{')' if high_open else ']'}"
    x = number(name, value, rule)
    too_low = x <= low if low_open else x < low
    too_high = x >= high if high_open else x > high
    if too_low or too_high:
        raise ValueError(f"{name} must be a finite number {rule}, got {value}")
    return x


def integer(name: str, value: object, minimum: int = 0, maximum: int | None = None) -> int:
    """``value`` as an int in [minimum, maximum]; floats that are whole are refused too."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    x = int(value)
    upper = "" if maximum is None else f" and <= {maximum}"
    if x < minimum or (maximum is not None and x > maximum):
        raise ValueError(f"{name} must be an integer >= {minimum}{upper}, got {x}")
    return x


def choice(name: str, value: object, options: Iterable[object]) -> object:
    """``value`` if it is one of ``options``."""
    options = list(options)
    if value not in options:
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value


def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return value
