"""Exercises: check a learner's numeric answer and say what probably went wrong.

Most wrong answers in networking arithmetic are not random: they are off by a
factor that names the slip. Off by 8 is bits vs bytes (Gb/s vs GB/s); off by 2 is
one-way vs bidirectional (or ring all-reduce's factor of 2); off by 1000 is a
prefix; off by 1.024, 1.048576 or 1.073741824 is a binary prefix used as a decimal
one. :meth:`NumericExercise.check` recognises these and says so, but only where the
quantity can make the slip: the kind of quantity (a data size, a rate, a time, a
percentage, a count...) is read from the exercise's unit, so a switch count is never
told about gibibytes. A slip is named only when the answer matches it closely (its
own tolerance, at most the exercise's), and an exercise can add the tempting wrong
values its solution names.

The expected answer is computed by netlab in the notebook, never typed in, so the
book cannot teach a number its own library disagrees with::

    >>> from netlab import exercises, links
    >>> ex = exercises.numeric("ex-serialize", "Time to serialize 4 KiB at 100 Gb/s, in ns?",
    ...                        answer=links.serialization_time(4096, 100e9) / 1e-9, unit="ns")
    >>> ex.check(327.68).correct
    True
    >>> print(ex.check(40.96).message)      # forgot the 8 bits per byte
    Not yet: your answer is 8x too small. Bits vs bytes? 1 byte = 8 bits; link rates are in bits per second.
    >>> print(ex.check("0.32768 µs").message)   # a unit is converted
    0.32768 µs = 327.68 ns. Correct: 327.7 ns.
    >>> print(ex.check("327,68").message)       # a decimal comma
    Correct: 327.7 ns.

Typed answers are read as follows (the browser checker reads them the same way):

- surrounding spaces are ignored; ``1e-6``, ``1E-6`` and ``1 x 10^-6`` are scientific notation;
- thousands may be grouped with commas, spaces, underscores or apostrophes
  (``1,250,000``, ``1 250 000``, ``1_250_000``): every group after the first has 3 digits;
- one point is a decimal point. One comma is a decimal comma (``327,68`` = 327.68), except
  when it is followed by exactly 3 digits after 1-3 leading digits (not ``0``) and nothing
  else groups the number: then it separates thousands (``1,250`` = 1250, ``0,125`` = 0.125).
  With both, the last one is the decimal separator (``1,250.5`` = ``1.250,5`` = 1250.5);
- a unit may follow the number (``327.68 ns``, ``0.32768 us``): it is converted to the
  exercise's unit, and a unit of another kind (``327 MB`` for a time) is explained, not judged.
  ``B`` is a byte and ``b`` a bit; ``KB`` and ``kB`` are 1000 bytes, ``KiB`` 1024.

In a notebook, an exercise displays a small form (an input and a Check button)
that runs the same checks in the browser, so it also works on the static site
without a kernel (``_static/netlab-exercise.js``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
import html
import json
import math
import numbers
import os
from pathlib import Path
import re

from netlab import validate

_CHECKER_JS = Path(__file__).resolve().parents[1] / "_static" / "netlab-exercise.js"

# ---------------------------------------------------------------------------------------------
# Quantities and units.  The same tables are in _static/netlab-exercise.js (a test compares them).

#: Kind of quantity -> how a message names it.
QUANTITIES: dict[str, str] = {
    "data": "a data size",
    "rate": "a data rate",
    "time": "a time",
    "power": "a power",
    "energy_per_bit": "an energy per bit",
    "percent": "a percentage",
    "db": "a level in decibels",
    "db_ratio": "a plain ratio (a factor)",
    "ratio": "a plain ratio (a factor)",
    "count": "a count",
}


def _data_units() -> dict[str, tuple[str, float]]:
    units: dict[str, tuple[str, float]] = {}
    dec = {"": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
    binary = {"Ki": 1024.0, "Mi": 1048576.0, "Gi": 1073741824.0, "Ti": 1099511627776.0}
    for prefix, scale in {**dec, **binary}.items():
        units[prefix + "B"] = ("data", 8.0 * scale)
        units[prefix + "B/s"] = ("rate", 8.0 * scale)
        if prefix not in binary:
            for bit in ("b", "bit"):
                units[prefix + bit] = ("data", scale)
                units[prefix + bit + "/s"] = ("rate", scale)
            units[prefix + "bps"] = ("rate", scale)
    for word, scale in (("bit", 1.0), ("bits", 1.0), ("byte", 8.0), ("bytes", 8.0)):
        units[word] = ("data", scale)
    return units


#: Unit as written -> (the kind of quantity, its scale to SI).
UNITS: dict[str, tuple[str, float]] = {
    **_data_units(),
    "ps": ("time", 1e-12), "ns": ("time", 1e-9), "us": ("time", 1e-6), "\u00b5s": ("time", 1e-6),
    "\u03bcs": ("time", 1e-6), "ms": ("time", 1e-3), "s": ("time", 1.0), "sec": ("time", 1.0),
    "min": ("time", 60.0), "h": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0),
    "day": ("time", 86400.0), "days": ("time", 86400.0),
    "mW": ("power", 1e-3), "W": ("power", 1.0), "kW": ("power", 1e3), "KW": ("power", 1e3),
    "MW": ("power", 1e6), "GW": ("power", 1e9),
    "fJ/bit": ("energy_per_bit", 1e-15), "pJ/bit": ("energy_per_bit", 1e-12), "nJ/bit": ("energy_per_bit", 1e-9),
    "fJ/b": ("energy_per_bit", 1e-15), "pJ/b": ("energy_per_bit", 1e-12), "nJ/b": ("energy_per_bit", 1e-9),
    "%": ("percent", 1.0), "percent": ("percent", 1.0),
    "dB": ("db", 1.0),
    "x": ("ratio", 1.0), "\u00d7": ("ratio", 1.0), "times": ("ratio", 1.0),
}


def quantity_of(unit: str) -> str:
    """The kind of quantity a unit string measures (``"ns"`` -> ``"time"``, ``"GPUs"`` -> ``"count"``).

    Units not in :data:`UNITS` (``""``, ``"GPUs"``, ``"switches"``, ``"B params"``) are counts.
    """
    return UNITS[unit][0] if unit in UNITS else "count"


# ---------------------------------------------------------------------------------------------
# Slips.  A slip is tested as a factor (answer/key near f or 1/f) or as a value (the answer is
# the tempting wrong number itself), within its own tolerance, never more than the exercise's.

_BINARY = ("data", "rate")
_SCALED = ("data", "rate", "time", "power", "energy_per_bit")
_BITS_BYTES = ("data", "rate", "time", "energy_per_bit")   # a time or an energy derived from a size or a rate

_PREFIX_EXAMPLE = {"data": "KB vs MB", "rate": "Gb/s vs Tb/s", "time": "µs vs ms",
                   "power": "W vs kW", "energy_per_bit": "pJ vs nJ"}
_PREFIX_EXAMPLE_M = {"data": "KB vs GB", "rate": "Mb/s vs Tb/s", "time": "µs vs s",
                     "power": "W vs MW", "energy_per_bit": "fJ vs nJ"}
_TWO = {
    "rate": "One-way vs bidirectional? A bidirectional figure counts both directions. "
            "Or a missing factor of 2 in the formula.",
    "data": "A factor of 2: a bidirectional figure counted, or the 2(n-1)/n of a ring all-reduce left out?",
    "time": "A factor of 2: a round trip vs one way, a bidirectional bandwidth, or a step counted twice "
            "or left out?",
    "db": "10 log10 vs 20 log10? A power ratio in dB is 10 log10(P1/P2); 20 log10 is for voltages.",
}
_TWO_OTHER = "A factor of 2: a term counted twice or left out (both directions? a round trip?)"

# (factor, match tolerance, kinds it applies to, text or {kind: text})
_FACTOR_SLIPS: tuple[tuple[float, float, tuple[str, ...], object], ...] = (
    (8.0, 0.05, _BITS_BYTES, "Bits vs bytes? 1 byte = 8 bits; link rates are in bits per second."),
    (2.0, 0.05, tuple(QUANTITIES), _TWO),
    (1000.0, 0.05, _SCALED, {k: f"A prefix slip? Check {v}." for k, v in _PREFIX_EXAMPLE.items()}),
    (1e6, 0.05, _SCALED, {k: f"A prefix slip of a million? Check {v}." for k, v in _PREFIX_EXAMPLE_M.items()}),
    (100.0, 0.05, ("percent",), "Percent vs fraction? A share of 0.25 is 25 %."),
    (1.024, 0.005, _BINARY, "Binary vs decimal? 1 KiB = 1024 B but 1 KB = 1000 B."),
    (1.048576, 0.005, _BINARY, "Binary vs decimal? 1 MiB = 1,048,576 B but 1 MB = 1,000,000 B."),
    (1.073741824, 0.005, _BINARY, "Binary vs decimal? 1 GiB = 2^30 B but 1 GB = 10^9 B."),
    (1.099511627776, 0.005, _BINARY, "Binary vs decimal? 1 TiB = 2^40 B but 1 TB = 10^12 B."),
    (16.0, 0.05, ("data", "rate", "time"), "Off by 16: bits vs bytes and one-way vs bidirectional together?"),
)
# Units of time without SI prefixes, and the slips they invite instead of a factor of 1000.
_HOURS = (3600.0, 0.05, "Seconds vs hours? An hour has 3,600 s.")
_CALENDAR: dict[str, list[tuple[float, float, str]]] = {
    "min": [(60.0, 0.05, "Seconds vs minutes? A minute has 60 s.")],
    "h": [(60.0, 0.05, "Minutes vs hours? An hour has 60 minutes."), _HOURS],
    "hour": [(60.0, 0.05, "Minutes vs hours? An hour has 60 minutes."), _HOURS],
    "hours": [(60.0, 0.05, "Minutes vs hours? An hour has 60 minutes."), _HOURS],
    "day": [(24.0, 0.05, "Hours vs days? A day has 24 hours."), (86400.0, 0.05, "Seconds vs days? A day has 86,400 s.")],
    "days": [(24.0, 0.05, "Hours vs days? A day has 24 hours."), (86400.0, 0.05, "Seconds vs days? A day has 86,400 s.")],
}
VALUE_SLIP_TOL = 0.02     # a tempting wrong value matches within 2 % (or the exercise's tolerance if tighter)
EXTRA_SLIP_TOL = 0.02     # likewise for an exercise's own factors

# Kept for code that listed the classic factors (each as factor, explanation).
COMMON_SLIPS: tuple[tuple[float, str], ...] = tuple(
    (f, text if isinstance(text, str) else text.get("rate", _TWO_OTHER)) for f, _, _, text in _FACTOR_SLIPS)


def _value_slips(answer: float, kind: str) -> list[tuple[float, str]]:
    """Wrong values that follow from the answer itself (decibels: the voltage formula, the dB figure)."""
    slips: list[tuple[float, str]] = []
    if kind == "db_ratio" and answer > 0:
        slips.append((math.sqrt(answer), "That is 10^(dB/20), a voltage (amplitude) ratio; "
                                         "a power ratio is 10^(dB/10)."))
        slips.append((answer * answer, "That is 10^(dB/5): a power ratio is 10^(dB/10)."))
        slips.append((10 * math.log10(answer), "That is the gap in decibels; as a power ratio it is 10^(dB/10)."))
    if kind == "db" and abs(answer) < 300:
        slips.append((10 ** (answer / 10), "That is the linear power ratio; in decibels it is 10 log10 of it."))
    if kind in ("ratio", "db_ratio"):
        slips.append((1 / answer, "The ratio upside down? Check which quantity goes on top."))
    return slips


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer: ``correct`` and a ``message`` for the learner."""

    correct: bool
    message: str
    ratio: float  # given / expected (nan if not a number)

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        css = "correct" if self.correct else "wrong"
        return f'<p class="netlab-exercise-feedback {css}">{html.escape(self.message)}</p>'


@dataclass(frozen=True)
class NumericExercise:
    """A question whose answer is a number, checked within a relative tolerance.

    ``slips`` are the exercise's own factors (``extra_slips``), ``wrong_answers`` its tempting
    wrong values; the common slips that fit ``quantity`` are added by :meth:`spec`.
    """

    key: str
    prompt: str
    answer: float
    unit: str = ""
    rel_tol: float = 0.02
    slips: tuple[tuple[float, str], ...] = ()
    wrong_answers: tuple[tuple[float, str], ...] = ()
    quantity: str = field(default="")

    @property
    def kind(self) -> str:
        """The kind of quantity:
        ``quantity`` if given, else read from ``unit``."""
        return self.quantity or quantity_of(self.unit)

    def spec(self) -> dict:
        """Everything the checker needs (as the browser gets it in ``data-spec``): the key, the
        tolerance, the unit and its scale, and the slips that apply, each with its tolerance."""
        return {"answer": self.answer, "rel_tol": self.rel_tol, "unit": self.unit, "quantity": self.kind,
                "scale": UNITS[self.unit][1] if self.unit in UNITS else None,
                "slips": _applicable_slips(self.answer, self.rel_tol, self.kind, self.unit, self.slips,
                                           self.wrong_answers)}

    def check(self, value) -> Feedback:
        """Feedback on ``value``: a number, or text such as ``"1,250"``, ``"3.2e-6"`` or ``"327.68 ns"``."""
        return check_spec(self.spec(), value)

    def __repr__(self) -> str:
        return f"NumericExercise({self.key}: {self.prompt} [{self.unit}], ±{self.rel_tol:.2g} relative)"

    def _repr_html_(self) -> str:
        unit = f" {html.escape(self.unit)}" if self.unit else ""
        input_id = f"ex-{html.escape(self.key)}-input"
        return (
            f'<div class="netlab-exercise" data-key="{html.escape(self.key)}" '
            f'data-spec="{html.escape(json.dumps(self.spec(), ensure_ascii=False))}">'
            f'<p class="netlab-exercise-prompt">{html.escape(self.prompt)}</p>'
            f'<label for="{input_id}">Your answer{unit}:</label> '
            f'<input type="text" id="{input_id}" class="netlab-exercise-input" inputmode="decimal" '
            f'autocomplete="off"> <button type="button" class="netlab-exercise-check">Check</button>'
            f'<p class="netlab-exercise-feedback" aria-live="polite"></p>'
            f'<p class="netlab-exercise-note">Checked in your browser; in a running notebook you can '
            f'also call <code>.check(value)</code> on the exercise.</p></div>'
            + _live_script()
        )


def numeric(key: str, prompt: str, answer: float, unit: str = "", rel_tol: float = 0.02,
            extra_slips: tuple[tuple[float, str], ...] = (),
            wrong_answers: tuple[tuple[float, str], ...] = (),
            quantity: str | None = None) -> NumericExercise:
    """Make a :class:`NumericExercise`.

    Parameters
    ----------
    key : str
        A short id, unique on its page (``"ex-bdp"``).
    prompt : str
        The question as shown to the learner, including the unit expected.
    answer : float
        The expected value, computed with netlab (finite, non-zero).
    unit : str
        The unit of the answer (``"µs"``, ``"GB/s"``, ``"%"``, ``"GPUs"``).
    rel_tol : float
        Accepted relative error, in (0, 0.5]. It must exclude every wrong value and factor given.
    extra_slips : tuple of (factor, explanation)
        Factors specific to this question (the answer off by ``factor`` or ``1/factor``),
        checked before the common ones.
    wrong_answers : tuple of (value, explanation)
        Tempting wrong answers the solution names, computed in the lab (for example the
        crossover obtained with a bidirectional bandwidth), checked first.
    quantity : str, optional
        The kind of quantity, one of :data:`QUANTITIES`, when the unit does not tell it: for
        example ``"db_ratio"`` for a power ratio computed from decibels (unit ``"x"``), which
        adds the voltage-formula slip. By default it is read from ``unit``
        (:func:`quantity_of`). The kind decides which common slips can be named.
    """
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    if not isinstance(prompt, str) or not prompt:
        raise ValueError(f"prompt must be a non-empty string, got {prompt!r}")
    if not isinstance(unit, str):
        raise TypeError(f"unit must be a string such as 'ns' or 'GB/s', got {unit!r}")
    answer = validate.number("answer", answer, "!= 0")
    if answer == 0:
        raise ValueError("answer must be a finite number != 0 (a relative tolerance needs a scale)")
    rel_tol = validate.in_range("rel_tol", rel_tol, 0.0, 0.5, low_open=True)
    if quantity is not None and quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {', '.join(QUANTITIES)}, got {quantity!r}")
    factors = tuple((validate.positive("extra_slips factor", f), _text("extra_slips", t)) for f, t in extra_slips)
    values = tuple((validate.number("wrong_answers value", v, "!= 0"), _text("wrong_answers", t))
                   for v, t in wrong_answers)
    for f, _ in factors:
        if abs(f - 1) <= rel_tol or abs(1 / f - 1) <= rel_tol:
            raise ValueError(f"extra_slips factor {f:g} is within rel_tol={rel_tol:g} of 1: the tolerance "
                             "would accept that slip as correct; tighten rel_tol")
    for v, _ in values:
        if abs(v / answer - 1) <= rel_tol:
            raise ValueError(f"wrong_answers value {v:g} is within rel_tol={rel_tol:g} of the answer "
                             f"{answer:g}: the tolerance would accept it as correct; tighten rel_tol")
    return NumericExercise(key=key, prompt=prompt, answer=answer, unit=unit, rel_tol=rel_tol,
                           slips=factors, wrong_answers=values, quantity=quantity or "")


def _text(name: str, text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} explanation must be a non-empty string, got {text!r}")
    return text


def _applicable_slips(answer: float, rel_tol: float, kind: str, unit: str, factors, values) -> list[dict]:
    """The slips to test, in order: the exercise's wrong values and factors, then the common ones
    that the kind of quantity can make and that the tolerance separates from the answer."""
    slips: list[dict] = []
    for value, text in values:
        slips.append({"value": value, "tol": min(rel_tol, VALUE_SLIP_TOL), "text": text})
    for factor, text in factors:
        slips.append({"factor": factor, "tol": min(rel_tol, EXTRA_SLIP_TOL), "text": text})
    for value, text in _value_slips(answer, kind):
        if abs(value / answer - 1) > rel_tol:
            slips.append({"value": value, "tol": min(rel_tol, VALUE_SLIP_TOL), "text": text})
    common = [(f, tol, text) for f, tol, kinds, text in _FACTOR_SLIPS if kind in kinds
              and not (unit in _CALENDAR and f in (1000.0, 1e6))]           # no "kilo-days"
    common += _CALENDAR.get(unit, [])
    for factor, tol, text in common:
        if abs(factor - 1) > rel_tol and abs(1 / factor - 1) > rel_tol:
            words = text if isinstance(text, str) else text.get(kind, _TWO_OTHER)
            slips.append({"factor": factor, "tol": min(rel_tol, tol), "text": words})
    return slips


def _live_script() -> str:
    """The checker's JavaScript inline, for a live notebook (the book loads it from ``_static``).

    JupyterLab runs scripts in the trusted outputs of the current session, so the Check
    button works there too. Omitted when building the book (``NETLAB_STATIC_WIDGETS=1``)
    or when netlab is installed without the repository's ``_static`` folder.
    """
    if os.environ.get("NETLAB_STATIC_WIDGETS", "") == "1" or not _CHECKER_JS.is_file():
        return ""
    return f"<script>{_CHECKER_JS.read_text(encoding='utf-8')}</script>"


# ---------------------------------------------------------------------------------------------
# Reading a typed answer.  Every regular expression here has a twin in netlab-exercise.js.

_SPACES = " \t\n\r\u00a0\u2009\u202f"
_NUMBER = re.compile(
    "^([+\\-\u2212]?)"
    "([0-9](?:[0-9]|[.,_'\u2019 \u00a0\u2009\u202f](?=[0-9]))*\\.?|[.,][0-9]+)"
    "(?:[eE]([+\\-\u2212]?[0-9]+)"
    "|[ \u00a0\u2009\u202f]*[x\u00d7*\u00b7][ \u00a0\u2009\u202f]*10[ \u00a0\u2009\u202f]*(?:\\^|\\*\\*)"
    "[ \u00a0\u2009\u202f]*([+\\-\u2212]?[0-9]+))?")
_GROUP_SEPS = "_'\u2019 \u00a0\u2009\u202f"


def fmt(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, plainly (``327.7``, ``65530``, ``0.0012``), or as
    ``3.2e-6`` outside 1e-4..1e9. Rounds half away from zero, as JavaScript's toExponential does."""
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    with localcontext() as ctx:
        ctx.prec = 1000                       # exact: the double's full decimal expansion
        d = Decimal(abs(x))
        e = d.adjusted()
        q = d.quantize(Decimal(1).scaleb(e - digits + 1), rounding=ROUND_HALF_UP)
        if q.adjusted() > e:                  # 9.9996 -> 10.00
            e += 1
            q = d.quantize(Decimal(1).scaleb(e - digits + 1), rounding=ROUND_HALF_UP)
    mantissa = "".join(str(k) for k in q.as_tuple().digits)
    sign = "-" if x < 0 else ""
    if -4 <= e < 9:
        if e >= digits - 1:
            body = mantissa + "0" * (e - digits + 1)
        elif e >= 0:
            body = (mantissa[:e + 1] + "." + mantissa[e + 1:]).rstrip("0").rstrip(".")
        else:
            body = ("0." + "0" * (-e - 1) + mantissa).rstrip("0").rstrip(".")
    else:
        body = (mantissa[0] + "." + mantissa[1:]).rstrip("0").rstrip(".") + "e" + str(e)
    return sign + body


def _read_number(body: str) -> str | None:
    """Digits with separators (``1,250.5``, ``327,68``, ``1 250 000``) -> a plain decimal string, or None."""
    dots, commas = body.count("."), body.count(",")
    grouping = {c for c in body if c in _GROUP_SEPS}
    decimal = ""
    if dots and commas:                       # both: the last one is the decimal separator
        decimal = body[max(body.rfind("."), body.rfind(","))]
        if body.count(decimal) != 1:
            return None
        grouping.add("," if decimal == "." else ".")
    elif dots == 1:
        decimal = "."
    elif dots > 1:
        grouping.add(".")
    elif commas == 1:
        head, tail = body.split(",")
        if not grouping and len(tail) == 3 and 1 <= len(head) <= 3 and head[0] != "0":
            grouping.add(",")                 # 1,250: thousands
        else:
            decimal = ","                     # 327,68 or 0,125: a decimal comma
    elif commas > 1:
        grouping.add(",")
    if len(grouping) > 1:
        return None
    whole, frac = body.split(decimal, 1) if decimal else (body, "")
    if grouping:
        groups = whole.split(grouping.pop())
        if not 1 <= len(groups[0]) <= 3 or any(len(g) != 3 for g in groups[1:]):
            return None
        whole = "".join(groups)
    if not re.fullmatch("[0-9]*", whole) or not re.fullmatch("[0-9]*" if decimal else "", frac):
        return None
    return (whole or "0") + ("." + frac if decimal else "")


def _same_word(text: str, unit: str) -> bool:
    """A count's unit written another way: ``gpu`` for ``GPUs``, ``B`` for ``B params``."""
    t, u = text.lower(), unit.lower()
    forms = {u, u + "s", u + "es", u.split(" ")[0]}
    forms |= {u[:-1]} if u.endswith("s") else set()
    forms |= {u[:-2]} if u.endswith("es") else set()
    return t in forms


def _unit_scale(text: str, spec: dict) -> tuple[float | None, str]:
    """How many of the exercise's units one typed ``text`` unit is, or None and why it cannot be used."""
    unit, kind = spec["unit"], spec["quantity"]
    wanted = f" in {unit}" if unit else ""
    if text == unit or (unit and unit not in UNITS and _same_word(text, unit)):
        return 1.0, ""
    match = UNITS.get(text)
    if match is None:
        found = sorted(u for u in UNITS if u.lower() == text.lower())
        if len({UNITS[u][0] for u in found}) == 1 and UNITS[found[0]][0] != kind:
            match = UNITS[found[0]]           # "mb" for a time: wrong kind whichever is meant
        elif len({UNITS[u] for u in found}) > 1:
            return None, (f"Is “{text}” {' or '.join(found)}? Case matters: B is a byte and b a bit, "
                          f"M is mega and m milli. Give your answer{wanted}.")
        else:
            match = UNITS[found[0]] if found else None
    if match is None:
        return None, f"I could not read the unit “{text}”. Give a number{wanted}, optionally followed by its unit."
    typed_kind, typed_scale = match
    if typed_kind != kind and not (typed_kind == "ratio" and kind in ("db_ratio", "count")):
        return None, (f"“{text}” is {QUANTITIES[typed_kind]}, but this answer is {QUANTITIES[kind]}"
                      f"{' (in ' + unit + ')' if unit else ''}. Check what the question asks for.")
    return (1.0 if spec.get("scale") is None else typed_scale / spec["scale"]), ""


@dataclass(frozen=True)
class Reading:
    """A typed answer read: its ``value`` in the exercise's unit (None if unreadable), and notes."""

    value: float | None
    problem: str = ""       # why it could not be read (value is None)
    converted: str = ""     # "0.32768 µs = 327.68 ns. " when a unit was converted (6 digits: an equation)
    comma: str = ""         # "“327,6” as 327.6" when a single comma was interpreted


def read_answer(value, spec: dict) -> Reading:
    """Read ``value`` (a number, or text with an optional unit) for the exercise of ``spec``."""
    unit = spec["unit"]
    wanted = f" in {unit}" if unit else ""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        return Reading(None, f"Please give a number{wanted}, got {value!r}.")
    if not isinstance(value, str):
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        return Reading(x) if math.isfinite(x) else Reading(None, f"Please give a finite number{wanted}, got {value!r}.")
    text = value.strip(_SPACES)
    if text == "":
        return Reading(None, f"Please type your answer first: a number{wanted}.")
    m = _NUMBER.match(text)
    if m is None:
        return Reading(None, f"Please give a number{wanted} (for example 12.5, 1,250 or 3.2e-6), got “{text}”.")
    sign, body, exp1, exp2 = m.groups()
    digits = _read_number(body)
    if digits is None:
        return Reading(None, f"I could not read “{body}” as a number: group thousands by 3 digits "
                             "(1,250,000 or 1 250 000) and use one decimal point or comma (1250.5).")
    exponent = (exp1 or exp2 or "0").replace("−", "-")
    x = float(("-" if sign in ("-", "−") else "") + digits + "e" + exponent)
    if not math.isfinite(x):
        return Reading(None, f"That number is too large to be the answer: give it{wanted}.")
    comma = f"“{body}” as {digits}" if body.count(",") == 1 and "." not in body else ""
    rest = text[m.end():].strip(_SPACES)
    if not rest:
        return Reading(x, comma=comma)
    scale, problem = _unit_scale(rest, spec)
    if scale is None:
        return Reading(None, problem)
    if scale == 1.0:
        return Reading(x, comma=comma)
    x = x * scale
    return Reading(x, converted=f"{text[:m.end()].strip(_SPACES)} {rest} = {fmt(x, 6)} {unit}. ", comma=comma)


def check_spec(spec: dict, value) -> Feedback:
    """The verdict on ``value`` for an exercise given by its ``spec`` (see :meth:`NumericExercise.spec`)."""
    reading = read_answer(value, spec)
    if reading.value is None:
        return Feedback(False, reading.problem, math.nan)
    verdict = _judge(reading.value, spec)
    message = reading.converted + verdict.message
    if reading.comma and not verdict.correct:
        message += f" (I read {reading.comma}.)"
    return Feedback(verdict.correct, message, verdict.ratio)


def _judge(given: float, spec: dict) -> Feedback:
    expected, rel_tol, unit = spec["answer"], spec["rel_tol"], spec["unit"]
    ratio = given / expected
    if abs(ratio - 1.0) <= rel_tol:
        return Feedback(True, f"Correct: {fmt(expected)} {unit}".rstrip() + ".", ratio)
    if ratio == 0:
        return Feedback(False, "Not yet: the answer is not zero.", ratio)
    if ratio < 0:
        return Feedback(False, "Not yet: the sign is wrong.", ratio)
    for slip in spec["slips"]:
        tol = slip["tol"]
        if "value" in slip:
            if abs(given / slip["value"] - 1.0) <= tol:
                return Feedback(False, "Not yet: " + slip["text"], ratio)
            continue
        factor = slip["factor"]
        for r, word in ((factor, "large"), (1.0 / factor, "small")):
            if abs(ratio / r - 1.0) <= tol:
                return Feedback(False, f"Not yet: your answer is {fmt(factor)}x too {word}. {slip['text']}", ratio)
    if abs(ratio - 1.0) <= 0.1:
        return Feedback(False, f"Close, but outside the tolerance (±{fmt(100 * rel_tol, 3)} %): check rounding "
                               "and any term you left out.", ratio)
    direction = "high" if ratio > 1 else "low"
    return Feedback(False, f"Not yet: your answer is too {direction} (by a factor of "
                           f"{fmt(max(ratio, 1 / ratio), 3)}). Re-read the units of each input.", ratio)
