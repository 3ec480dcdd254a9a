"""Units: SI constants and formatters, with decimal and binary prefixes kept apart.

Inside netlab every quantity is a plain float in SI base units: seconds, bytes,
bits per second, watts, joules. Constants convert at the edges::

    >>> 400 * Gbps / GBps              # a 400 Gb/s port moves 50 GB/s
    50.0
    >>> 4 * KiB                         # a 4 KiB packet is 4096 bytes, not 4000
    4096

Networking rates use decimal prefixes (1 Gb/s = 10**9 bit/s, 1 GB/s = 10**9
byte/s); memory sizes are often binary (1 GiB = 2**30 bytes). The two are never
mixed silently here: ``KB`` is 1000 bytes and ``KiB`` is 1024 bytes, and every
formatter says which family it prints. Mixing them is one of the classic slips:
80 GB of HBM is 80e9 bytes, about 74.5 GiB.

Rates are one-way unless a name says ``bidir``: a "900 GB/s" NVLink 4 figure is
the sum of both directions, 450 GB/s each way (see ``netlab.specs``).
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from netlab import validate

# --- time (seconds) ----------------------------------------------------------
s = 1.0
ms = 1e-3
us = 1e-6
ns = 1e-9
ps = 1e-12
minute = 60.0
hour = 3600.0
day = 86400.0

# --- data size (bytes); decimal and binary prefixes are different constants --
bit = 1 / 8
byte = 1
KB = 10**3
MB = 10**6
GB = 10**9
TB = 10**12
PB = 10**15
KiB = 2**10
MiB = 2**20
GiB = 2**30
TiB = 2**40

# --- rate: bits per second (decimal prefixes only, as link speeds are quoted) --
bps = 1.0
Kbps = 1e3
Mbps = 1e6
Gbps = 1e9
Tbps = 1e12

# --- rate: bytes per second, expressed in bits per second ----------------------
# netlab keeps every rate in bit/s. 1 GB/s is 8e9 bit/s.
Bps = 8.0
MBps = 8e6
GBps = 8e9
TBps = 8e12

# --- energy and power ------------------------------------------------------------
W = 1.0
kW = 1e3
MW = 1e6
J = 1.0
pJ = 1e-12

# --- distance ----------------------------------------------------------------------
m = 1.0
km = 1e3

# --- physics -------------------------------------------------------------------------
SPEED_OF_LIGHT_M_PER_S = 299_792_458.0  # exact, by the SI definition of the metre


def bytes_to_bits(n_bytes: float) -> float:
    """Bits in ``n_bytes`` bytes (8 per byte)."""
    return validate.number("n_bytes", n_bytes, "(a size in bytes)") * 8.0


def bits_to_bytes(n_bits: float) -> float:
    """Bytes in ``n_bits`` bits."""
    return validate.number("n_bits", n_bits, "(a size in bits)") / 8.0


def _real(name: str, value: Any) -> float:
    """``value`` as a float, any real number (NaN and the infinities print as they are)."""
    if getattr(value, "shape", None) == () and getattr(getattr(value, "dtype", None), "kind", "-") in "iuf":
        value = value.item()                  # a numpy 0-d array of a number
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r:.80}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a real number that fits a float, got a larger integer") from None


def _digits(digits: object) -> int:
    return validate.integer("digits", digits, minimum=1, maximum=17, why="a double holds 17 significant digits")


def _scaled(value: float, steps: list[tuple[float, str]], unit: str, digits: int) -> str:
    """Pick the largest step not above |value| and print with ``digits`` significant digits."""
    if not math.isfinite(value):
        return f"{value} {unit}"
    magnitude = abs(value)
    factor, prefix = steps[0]
    for f, p in steps:
        if magnitude >= f:
            factor, prefix = f, p
    scaled = value / factor
    text = f"{scaled:.{digits}g}"
    return f"{text} {prefix}{unit}"


_TIME_STEPS = [(ps, "p"), (ns, "n"), (us, "µ"), (ms, "m"), (s, "")]
_DECIMAL_STEPS = [(1.0, ""), (1e3, "k"), (1e6, "M"), (1e9, "G"), (1e12, "T"), (1e15, "P")]
_DECIMAL_BYTE_STEPS = [(1.0, ""), (1e3, "K"), (1e6, "M"), (1e9, "G"), (1e12, "T"), (1e15, "P")]
_BINARY_STEPS = [(1.0, ""), (KiB, "Ki"), (MiB, "Mi"), (GiB, "Gi"), (TiB, "Ti")]


def format_time(seconds: float, digits: int = 3) -> str:
    """A duration with an SI prefix: ``format_time(1.5e-6) == '1.5 µs'``."""
    seconds, digits = _real("seconds", seconds), _digits(digits)
    if abs(seconds) >= minute * 100:
        return f"{seconds / hour:.{digits}g} h"
    return _scaled(seconds, _TIME_STEPS, "s", digits)


def format_rate(bits_per_second: float, digits: int = 3) -> str:
    """A rate in bits per second, decimal prefixes: ``format_rate(4e11) == '400 Gb/s'``."""
    bits_per_second, digits = _real("bits_per_second", bits_per_second), _digits(digits)
    return _scaled(bits_per_second, _DECIMAL_STEPS, "b/s", digits)


def format_byte_rate(bits_per_second: float, digits: int = 3) -> str:
    """A rate (given in bit/s) printed in bytes per second: ``format_byte_rate(4e11) == '50 GB/s'``."""
    bits_per_second, digits = _real("bits_per_second", bits_per_second), _digits(digits)
    return _scaled(bits_per_second / 8.0, _DECIMAL_BYTE_STEPS, "B/s", digits)


def format_bytes(n_bytes: float, binary: bool = False, digits: int = 3) -> str:
    """A size in bytes, decimal (``'80 GB'``) or, with ``binary=True``, binary (``'74.5 GiB'``)."""
    n_bytes, digits = _real("n_bytes", n_bytes), _digits(digits)
    steps = _BINARY_STEPS if binary else _DECIMAL_BYTE_STEPS
    return _scaled(n_bytes, steps, "B", digits)


def format_power(watts: float, digits: int = 3) -> str:
    """Power with an SI prefix: ``format_power(1.2e6) == '1.2 MW'``."""
    watts, digits = _real("watts", watts), _digits(digits)
    return _scaled(watts, _DECIMAL_STEPS, "W", digits)
