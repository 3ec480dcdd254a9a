"""Input checks shared by every public netlab function.

A model must refuse input that has no physical meaning rather than return a
wrong number. Each check names the parameter and the valid range in its message,
so a learner who types ``bandwidth_bps=0`` reads exactly what to change:

    >>> positive("bandwidth_bps", 0)
    Traceback (most recent call last):
    ...
    ValueError: bandwidth_bps must be a finite number > 0, got 0

Wrong types (a string, ``None``, a bool where a number is expected) raise
``TypeError``; NaN, infinities, integers too large for a float and out-of-range
numbers raise ``ValueError``. Inputs whose cost grows with their value (ranks,
senders, packets, samples) have explicit upper bounds, stated in the message with
what would be reasonable, so that an unreasonable input is refused at once instead
of running for minutes or exhausting memory:

    >>> integer("world_size", 2**31, minimum=1, maximum=MAX_RANKS, why="ranks simulated one by one")
    Traceback (most recent call last):
    ...
    ValueError: world_size must be an integer >= 1 and <= 1048576 (ranks simulated one by one), got 2147483648
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TypeVar

_T = TypeVar("_T")


# Upper bounds for inputs whose cost grows with their value. Each is far above any real system
# (the largest AI clusters announced have ~10^5 GPUs) and small enough to answer in about a second.
MAX_RANKS = 1 << 20          # ranks or endpoints enumerated one by one (schedules, per-rank arrays)
MAX_SAMPLES = 10_000_000     # Monte Carlo draws, trials or samples held in memory
MAX_EVENTS = 50_000_000      # simulator events in one run
MAX_COUNT = 10**15           # any count used in closed-form arithmetic only (ranks, GPUs, packets)
DEFAULT_MAX_INT = 10**18     # default ceiling of integer(): no count netlab models comes near it
LARGEST = 1e30               #: default ceiling of positive()/non_negative(), above every SI quantity here
SMALLEST = 1e-30             #: floor of positive(); a divisor this small would overflow to infinity


def _why(why: str | None) -> str:
    return f" ({why})" if why else ""


def number(name: str, value: object, rule: str) -> float:
    """``value`` as a finite float, or an error whose message states ``rule``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number ({rule}), got {type(value).__name__} {value!r}")
    try:
        x = float(value)
    except OverflowError:   # an int beyond ~1.8e308: not a physical quantity here
        raise ValueError(f"{name} must be a finite number {rule}, got an integer too large for a float "
                         f"({len(str(abs(math.trunc(value))))} digits)") from None
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number {rule}, got {value}")
    return x


def positive(name: str, value: object, maximum: float | None = None, why: str | None = None) -> float:
    """``value`` as a float, which must be finite and > 0 (and <= ``maximum`` if given).

    Values below :data:`SMALLEST` or above :data:`LARGEST` (1e-30, 1e30, in SI units) are
    refused too: no quantity in netlab is that small or large, and they turn results into
    infinities."""
    rule = "> 0" if maximum is None else f"> 0 and <= {maximum:g}"
    x = number(name, value, rule)
    if x <= 0 or (maximum is not None and x > maximum):
        raise ValueError(f"{name} must be a finite number {rule}{_why(why)}, got {value}")
    if not SMALLEST <= x <= LARGEST:
        raise ValueError(f"{name} must be between {SMALLEST:g} and {LARGEST:g} (no quantity netlab models is "
                         f"smaller or larger, in SI units), got {value}")
    return x


def non_negative(name: str, value: object, maximum: float | None = None, why: str | None = None) -> float:
    """``value`` as a float, which must be finite and >= 0 (and <= ``maximum`` if given)."""
    rule = ">= 0" if maximum is None else f">= 0 and <= {maximum:g}"
    x = number(name, value, rule)
    if x < 0 or (maximum is not None and x > maximum):
        raise ValueError(f"{name} must be a finite number {rule}{_why(why)}, got {value}")
    if x > LARGEST:
        raise ValueError(f"{name} must be <= {LARGEST:g} (no quantity netlab models is larger, in SI units), "
                         f"got {value}")
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
    if low_open and low == 0 and x < SMALLEST:     # a fraction of 5e-324 divides into infinity
        raise ValueError(f"{name} must be a finite number {rule} and >= {SMALLEST:g}, got {value}")
    return x


def integer(name: str, value: object, minimum: int = 0, maximum: int | None = None,
            why: str | None = None) -> int:
    """``value`` as an int in [minimum, maximum]; floats that are whole are refused too.

    ``why`` says what the upper bound protects (shown in the message)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    x = int(value)
    if maximum is None and x > DEFAULT_MAX_INT:
        maximum, why = DEFAULT_MAX_INT, why or "no count netlab models comes near it"
    upper = "" if maximum is None else f" and <= {maximum}"
    if x < minimum or (maximum is not None and x > maximum):
        shown = x if len(str(x)) <= 40 else f"an integer of {len(str(abs(x)))} digits"
        raise ValueError(f"{name} must be an integer >= {minimum}{upper}{_why(why)}, got {shown}")
    return x


def steps(name: str, step: object, span: float, maximum: int = MAX_SAMPLES, what: str = "samples") -> float:
    """``step`` (> 0) such that ``span / step`` is at most ``maximum`` (a sampling interval, a
    time step, a bin width): a step so small that the loop would never end is refused."""
    x = positive(name, step)
    if span / x > maximum:
        raise ValueError(f"{name} must be >= {span / maximum:.3g} (at most {maximum:,} {what} over "
                         f"{span:.3g}), got {step}")
    return x


def key(name: str, value: object, options: Iterable[object]) -> str:
    """``value`` if it is a string among ``options`` (a registry name, a mode): a list or a number
    is a ``TypeError`` naming the parameter, an unknown string a ``ValueError`` listing the choices."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string naming one of the choices, got {type(value).__name__} {value!r}")
    options = list(options)
    if value not in options:
        shown = options if len(options) <= 30 else options[:30] + ["..."]
        raise ValueError(f"{name} must be one of {shown}, got {value!r}")
    return value


def result(name: str, value: float, minimum: float = 0.0) -> float:
    """A computed quantity that must be finite and >= ``minimum``; a degenerate input that would
    make it NaN, infinite or negative is reported instead of returned."""
    x = float(value)
    if not math.isfinite(x) or x < minimum:
        raise ValueError(f"{name} came out as {x} (must be finite and >= {minimum}): the inputs are "
                         f"degenerate, check the zero or extreme values among them")
    return x


def choice(name: str, value: _T, options: Iterable[object]) -> _T:
    """``value`` if it is one of ``options``."""
    options = list(options)
    try:
        ok = value in options
    except TypeError:          # an unhashable or incomparable value
        ok = False
    if not ok:
        if isinstance(value, (list, dict, set)):
            raise TypeError(f"{name} must be one of {options}, got {type(value).__name__} {value!r}")
        raise ValueError(f"{name} must be one of {options}, got {value!r}")
    return value


def boolean(name: str, value: object) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return value


def instance(name: str, value: object, kind: type | tuple[type, ...], what: str) -> None:
    """Refuse ``value`` unless it is an instance of ``kind``: a ``TypeError`` naming the parameter
    and saying what it must be (``what``: "a Design, e.g. from cluster.capstone_design")."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r:.80}")


def sequence(name: str, value: object, what: str = "a list or tuple") -> list:
    """``value`` as a list, if it is a sequence of items (a list, tuple, range or array; not a
    string, a mapping or a single number)."""
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__} {value!r:.80}")
    return list(value)
