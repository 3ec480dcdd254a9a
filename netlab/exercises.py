"""Exercises: check a learner's numeric answer and say what probably went wrong.

Most wrong answers in networking arithmetic are not random: they are off by a
factor that names the slip. Off by 8 is bits vs bytes (Gb/s vs GB/s); off by 2 is
one-way vs bidirectional (or ring all-reduce's factor of 2); off by 1000 is a
prefix; off by 1.024, 1.048576 or 1.073741824 is a binary prefix used as a decimal
one. :meth:`NumericExercise.check` recognises these and says so, but only where the
quantity can make the slip: the kind of quantity (a data size, a rate, a time, a
percentage, a count...) is read from the exercise's unit, so a switch count is never
told about gibibytes, and a time about bits and bytes (a fibre delay or a number of days
has no byte in it: an exercise whose time comes from a size and a rate names its x8
values itself). A slip is named only when the answer matches it closely (its own
tolerance, at most the exercise's), and an exercise adds the tempting wrong values its
solution names. An answer that is the key rounded or cut to 2 or 3 significant figures
is told to keep more digits, never given a slip's name; one cut to 1-3 figures (3.9 for 3.997) is
told to round rather than cut. When such a cut or a 1-figure rounding is also a wrong value the lab
names (63 % for 63.79 % and for the limit 1 - 1/e), the message gives both readings.

The expected answer is computed by netlab in the notebook, never typed in, so the
book cannot teach a number its own library disagrees with::

    >>> from netlab import exercises, links
    >>> ex = exercises.numeric("ex-serialize", "Time to serialize 4 KiB at 100 Gb/s, in ns?",
    ...                        answer=links.serialization_time(4096, 100e9) / 1e-9, unit="ns",
    ...                        wrong_answers=((4096 / 100e9 / 1e-9, "Bits vs bytes? 4 KiB is 32,768 bits."),))
    >>> ex.check(327.68).correct
    True
    >>> print(ex.check(40.96).message)      # forgot the 8 bits per byte
    Not yet: Bits vs bytes? 4 KiB is 32,768 bits.
    >>> print(ex.check(300).message)        # 327.68 rounded to one figure
    Close, but rounded too far: round the answer to 2 or more significant figures (the tolerance is ±2 %).
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
  ``B`` is a byte and ``b`` a bit; ``KB`` and ``kB`` are 1000 bytes, ``KiB`` 1024. Energies are
  in ``J`` or ``Wh`` (``8005 MWh``), numbers per unit of time ``per hour``, ``/h``, ``per day``...
  (``4.8 per hour``), and a factor may be typed as a percentage (``120 %`` = 1.2).

In a notebook, an exercise displays a small form (an input and a Check button)
that runs the same checks in the browser, so it also works on the static site
without a kernel (``_static/netlab-exercise.js``). The tables are written once, here:
:data:`UNITS`, :data:`QUANTITIES` and :data:`MESSAGES` travel with each form as JSON
(:func:`checker_tables`), and the slips that apply in its ``data-spec``
(:meth:`NumericExercise.spec`); the script holds only the reader and the rules.
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
# Quantities and units.  The browser reads these tables from the page (checker_tables).

#: Kind of quantity -> how a message names it.
QUANTITIES: dict[str, str] = {
    "data": "a data size",
    "rate": "a data rate",
    "time": "a time",
    "power": "a power",
    "energy": "an energy",
    "energy_per_bit": "an energy per bit",
    "frequency": "a number of events per unit of time",
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


def _energy_units() -> dict[str, tuple[str, float]]:
    """Joules and watt-hours (1 Wh = 3,600 J), with their decimal prefixes."""
    units: dict[str, tuple[str, float]] = {}
    for prefix, scale in {"": 1.0, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}.items():
        units[prefix + "J"] = ("energy", scale)
        units[prefix + "Wh"] = ("energy", 3600.0 * scale)
    return units


def _frequency_units() -> dict[str, tuple[str, float]]:
    """Events per second, minute, hour, day or week: ``per hour``, ``/h``, ``per day``, ``/day``..."""
    units: dict[str, tuple[str, float]] = {}
    for names, seconds in ((("s", "sec", "second"), 1.0), (("min", "minute"), 60.0), (("h", "hour"), 3600.0),
                           (("d", "day"), 86400.0), (("week",), 604800.0)):
        for name in names:
            units["per " + name] = ("frequency", 1.0 / seconds)
            units["/" + name] = ("frequency", 1.0 / seconds)
    return units


#: Unit as written -> (the kind of quantity, its scale to SI).
UNITS: dict[str, tuple[str, float]] = {
    **_data_units(),
    "ps": ("time", 1e-12), "ns": ("time", 1e-9), "us": ("time", 1e-6), "\u00b5s": ("time", 1e-6),
    "\u03bcs": ("time", 1e-6), "ms": ("time", 1e-3), "s": ("time", 1.0), "sec": ("time", 1.0),
    "min": ("time", 60.0), "h": ("time", 3600.0), "hour": ("time", 3600.0), "hours": ("time", 3600.0),
    "d": ("time", 86400.0), "day": ("time", 86400.0), "days": ("time", 86400.0),
    "mW": ("power", 1e-3), "W": ("power", 1.0), "kW": ("power", 1e3), "KW": ("power", 1e3),
    "MW": ("power", 1e6), "GW": ("power", 1e9),
    **_energy_units(),
    **_frequency_units(),
    "fJ/bit": ("energy_per_bit", 1e-15), "pJ/bit": ("energy_per_bit", 1e-12), "nJ/bit": ("energy_per_bit", 1e-9),
    "fJ/b": ("energy_per_bit", 1e-15), "pJ/b": ("energy_per_bit", 1e-12), "nJ/b": ("energy_per_bit", 1e-9),
    "%": ("percent", 0.01), "percent": ("percent", 0.01),      # 1 % = 0.01, so "120 %" reads as a factor 1.2
    "dB": ("db", 1.0),
    "x": ("ratio", 1.0), "\u00d7": ("ratio", 1.0), "times": ("ratio", 1.0),
}


# Every message the checker gives, with its {fields}. The browser fills the same templates (each form
# carries them as JSON), so a wording changed here changes in both. A field is a plain name, nothing more.
#: Every message the checker gives, by name, with its ``{fields}``.
MESSAGES: dict[str, str] = {
    # reading the typed text
    "empty": "Please type your answer first: a number{in_unit}.",
    "not_a_number": "Please give a number{in_unit} (for example 12.5, 1,250 or 3.2e-6), got “{text}”.",
    "bad_grouping": "I could not read “{body}” as a number: group thousands by 3 digits "
                    "(1,250,000 or 1 250 000) and use one decimal point or comma (1250.5).",
    "huge": "That number is too large to be the answer: give it{in_unit}.",
    "unknown_unit": "I could not read the unit “{text}”. Give a number{in_unit}, optionally followed by its unit.",
    "ambiguous_unit": "Is “{text}” {choices}? Case matters: B is a byte and b a bit, M is mega and m milli. "
                      "Give your answer{in_unit}.",
    "or": " or ",                                 # between the choices of ambiguous_unit
    "wrong_kind": "“{text}” is {typed_quantity}, but this answer is {quantity}{paren_unit}. "
                  "Check what the question asks for.",
    "converted": "{number} {typed_unit} = {value} {unit}. ",     # value to 6 digits: an equation
    "comma": "“{body}” as {digits}",
    "comma_note": " (I read {comma}.)",
    # judging the number read
    "correct": "Correct: {answer}{space_unit}.",
    "zero": "Not yet: the answer is not zero.",
    "sign": "Not yet: the sign is wrong.",
    "named_value": "Not yet: {text}",
    "slip_large": "Not yet: your answer is {factor}x too large. {text}",
    "slip_small": "Not yet: your answer is {factor}x too small. {text}",
    "rounded": "Close, but rounded too far: round the answer to {digits} or more significant figures "
               "(the tolerance is ±{tol} %).",
    # the answer cut (truncated) to a few figures: rounding, not more figures, is what it lacks
    "cut": "Close, but cut off instead of rounded: keep {digits} or more significant figures and round the "
           "last one (the tolerance is ±{tol} %).",
    # a named wrong value that is also the answer rounded to 1 figure, or cut: both readings
    "named_or_rounded": "Not yet: {text} Or, if your working gave more digits, you rounded too far: round the "
                        "answer to {digits} or more significant figures (the tolerance is ±{tol} %).",
    "named_or_cut": "Not yet: {text} Or, if your working gave more digits, you cut them off instead of "
                    "rounding: keep {digits} or more significant figures and round the last one (the "
                    "tolerance is ±{tol} %).",
    "close": "Close, but outside the tolerance (±{tol} %): check rounding and any term you left out.",
    "too_high": "Not yet: your answer is too high (by a factor of {factor}). Recheck each step and its units.",
    "too_low": "Not yet: your answer is too low (by a factor of {factor}). Recheck each step and its units.",
    # a Python value that is not text (only a notebook can pass one)
    "not_a_value": "Please give a number{in_unit}, got {value}.",
    "not_finite": "Please give a finite number{in_unit}, got {value}.",
}
# Fields every message may use: phrases naming the exercise's unit, empty when it has none.
UNIT_PHRASES: dict[str, str] = {"in_unit": " in {unit}", "paren_unit": " (in {unit})", "space_unit": " {unit}"}
CLOSE_BAND = 0.1          # a wrong answer within 10 % is called close
KEY_DIGITS = 12           # the answer is read to 12 significant digits before it is rounded by hand
SAME_NUMBER = 1e-9        # an answer within this of a rounded key is that rounding
# A typed unit of one kind that an answer of another kind accepts: a factor typed with "x" for a
# count or a decibel ratio, a percentage for a factor ("120 %" is 1.2).
COMPATIBLE: dict[str, list[str]] = {"ratio": ["db_ratio", "count"], "percent": ["ratio", "db_ratio"]}


def checker_tables() -> dict:
    """The tables the browser checker reads (JSON-ready): units, quantities, messages.

    Each exercise form carries them in a ``<script type="application/json"
    class="netlab-exercise-tables">``, so a page works offline and from disk.
    """
    return {"units": {u: [kind, scale] for u, (kind, scale) in UNITS.items()}, "quantities": QUANTITIES,
            "messages": MESSAGES, "unit_phrases": UNIT_PHRASES, "close_band": CLOSE_BAND,
            "compatible": COMPATIBLE, "key_digits": KEY_DIGITS, "same_number": SAME_NUMBER}


def _tables_script() -> str:
    text = json.dumps(checker_tables(), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" class="netlab-exercise-tables">{text}</script>'


def _say(name: str, unit: str, **fields: str) -> str:
    """The message ``name`` with its fields filled in (the unit phrases from ``unit``)."""
    phrases = {k: (p.format(unit=unit) if unit else "") for k, p in UNIT_PHRASES.items()}
    return MESSAGES[name].format(unit=unit, **phrases, **fields)


def quantity_of(unit: str) -> str:
    """The kind of quantity a unit string measures (``"ns"`` -> ``"time"``, ``"GPUs"`` -> ``"count"``).

    Units not in :data:`UNITS` (``""``, ``"GPUs"``, ``"switches"``, ``"B params"``) are counts.
    """
    if not isinstance(unit, str):
        raise TypeError(f"unit must be a string such as 'ns' or 'GB/s', got {type(unit).__name__} {unit!r:.80}")
    return UNITS[unit][0] if unit in UNITS else "count"


# ---------------------------------------------------------------------------------------------
# Slips.  A slip is tested as a factor (answer/key near f or 1/f) or as a value (the answer is
# the tempting wrong number itself), within its own tolerance, never more than the exercise's.

_BINARY = ("data", "rate")
_SCALED = ("data", "rate", "time", "power", "energy", "energy_per_bit")
# Bits vs bytes only where a bit or a byte is in the unit. A time may or may not come from a size
# and a rate (a serialization time does, a fibre delay or a number of days does not): an exercise
# whose time does names its x8 values in wrong_answers.
_BITS_BYTES = ("data", "rate", "energy_per_bit")

_PREFIX_EXAMPLE = {"data": "KB vs MB", "rate": "Gb/s vs Tb/s", "time": "µs vs ms",
                   "power": "W vs kW", "energy": "MWh vs GWh", "energy_per_bit": "pJ vs nJ"}
_PREFIX_EXAMPLE_M = {"data": "KB vs GB", "rate": "Mb/s vs Tb/s", "time": "µs vs s",
                     "power": "W vs MW", "energy": "kWh vs GWh", "energy_per_bit": "fJ vs nJ"}
_TWO = {
    "rate": "One-way vs bidirectional? A bidirectional figure counts both directions. "
            "Or a missing factor of 2 in the formula.",
    "data": "A factor of 2: a bidirectional figure counted, or the 2(n-1)/n of a ring all-reduce left out?",
    "time": "A factor of 2: a round trip vs one way, a bidirectional bandwidth, or a step counted twice "
            "or left out?",
    "db": "10 log10 vs 20 log10? A power ratio in dB is 10 log10(P1/P2); 20 log10 is for voltages.",
}
_TWO_OTHER = "A factor of 2: a term counted twice, or one left out?"

# (factor, match tolerance, kinds it applies to, text or {kind: text})
_FACTOR_SLIPS: tuple[tuple[float, float, tuple[str, ...], str | dict[str, str]], ...] = (
    (8.0, 0.05, _BITS_BYTES, "Bits vs bytes? 1 byte = 8 bits; link rates are in bits per second."),
    (2.0, 0.05, tuple(QUANTITIES), _TWO),
    (1000.0, 0.05, _SCALED, {k: f"A prefix slip? Check {v}." for k, v in _PREFIX_EXAMPLE.items()}),
    (1e6, 0.05, _SCALED, {k: f"A prefix slip of a million? Check {v}." for k, v in _PREFIX_EXAMPLE_M.items()}),
    (1.024, 0.005, _BINARY, "Binary vs decimal? 1 KiB = 1024 B but 1 KB = 1000 B."),
    (1.048576, 0.005, _BINARY, "Binary vs decimal? 1 MiB = 1,048,576 B but 1 MB = 1,000,000 B."),
    (1.073741824, 0.005, _BINARY, "Binary vs decimal? 1 GiB = 2^30 B but 1 GB = 10^9 B."),
    (1.099511627776, 0.005, _BINARY, "Binary vs decimal? 1 TiB = 2^40 B but 1 TB = 10^12 B."),
    (16.0, 0.05, _BINARY, "Off by 16: bits vs bytes and one-way vs bidirectional together?"),
)
# A share typed as a fraction (0.44 for 43.75 %), or a factor typed as a percentage (120 for 1.2).
# A fraction for a percentage is recognised even when rounded (within CLOSE_BAND of the answer,
# whatever the exercise's tolerance): a number below 1 for a share of tens of per cent is no other slip.
_PERCENT_SLIPS: dict[str, tuple[float, float, bool, str]] = {     # kind -> (factor, tol, capped, text)
    "percent": (100.0, 0.1, False, "Percent vs fraction? This answer is in per cent: a share of 0.25 is 25 %."),
    "ratio": (100.0, 0.05, True, "Per cent vs factor? This answer is a plain factor: 150 % is a factor of 1.5."),
}
# Units of time without SI prefixes, and the slips they invite instead of a factor of 1000.
# Numbers per hour or per day invite the same slips the other way round.
_HOURS = (3600.0, 0.05, "Seconds vs hours? An hour has 3,600 s.")
_MINUTES = (60.0, 0.05, "Minutes vs hours? An hour has 60 minutes.")
_DAYS = [(24.0, 0.05, "Hours vs days? A day has 24 hours."), (86400.0, 0.05, "Seconds vs days? A day has 86,400 s.")]
_PER_HOUR = [(60.0, 0.05, "Per minute vs per hour? An hour has 60 minutes."),
             (3600.0, 0.05, "Per second vs per hour? An hour has 3,600 s.")]
_PER_DAY = [(24.0, 0.05, "Per hour vs per day? A day has 24 hours."),
            (86400.0, 0.05, "Per second vs per day? A day has 86,400 s.")]
_CALENDAR: dict[str, list[tuple[float, float, str]]] = {
    "min": [(60.0, 0.05, "Seconds vs minutes? A minute has 60 s.")],
    "h": [_MINUTES, _HOURS], "hour": [_MINUTES, _HOURS], "hours": [_MINUTES, _HOURS],
    "d": _DAYS, "day": _DAYS, "days": _DAYS,
    "per minute": [(60.0, 0.05, "Per second vs per minute? A minute has 60 s.")],
    "per min": [(60.0, 0.05, "Per second vs per minute? A minute has 60 s.")],
    "per hour": _PER_HOUR, "per h": _PER_HOUR, "/h": _PER_HOUR, "/hour": _PER_HOUR,
    "per day": _PER_DAY, "per d": _PER_DAY, "/d": _PER_DAY, "/day": _PER_DAY,
    "per week": [(7.0, 0.05, "Per day vs per week? A week has 7 days.")],
}
# A calendar factor names two pairs of units: the exercise's unit and the one `factor` times smaller
# (the text above: 330 typed for 5.5 min is a number of seconds), or the one `factor` times larger
# (the text here: "5.5 h" for 5.5 min is a number of minutes labelled hours). Which pair depends on the
# direction and on whether the student typed a unit (:func:`_factor_text`); no entry: the text above.
_CALENDAR_UP: dict[str, dict[float, str]] = {"min": {60.0: "Minutes vs hours? An hour has 60 minutes."}}
# An answer rounded to 2 or 3 significant figures is told to keep more digits before any slip is
# tried. One rounded to a single figure, or cut (truncated) to 1-3, is told so after the exercise's
# own wrong values only; a lab may name such a value (40 ns for 40.96, from a 4000-byte "KiB"), and
# then the message gives both readings.
ROUNDED_FIRST = {"round": [2, 3], "cut": []}
ROUNDED_LATER = {"round": [1], "cut": [1, 2, 3]}
VALUE_SLIP_TOL = 0.02     # a tempting wrong value matches within 2 % (or the exercise's tolerance if tighter)
EXTRA_SLIP_TOL = 0.02     # likewise for an exercise's own factors

# Kept for code that listed the classic factors (each as factor, explanation).
COMMON_SLIPS: tuple[tuple[float, str], ...] = tuple(
    (f, text if isinstance(text, str) else text.get("rate", _TWO_OTHER)) for f, _, _, text in _FACTOR_SLIPS) + (
    (100.0, _PERCENT_SLIPS["percent"][3]),)


def _value_slips(answer: float, kind: str) -> list[tuple[float, str]]:
    """Wrong values that follow from the answer itself (decibels: the voltage formula, the dB figure)."""
    slips: list[tuple[float, str]] = []
    if kind == "db_ratio" and answer > 0:
        slips.append((math.sqrt(answer), ("That is 10^(dB/20), a voltage (amplitude) ratio; "
                                          "a power ratio is 10^(dB/10).")))
        slips.append((answer * answer, "That is 10^(dB/5): a power ratio is 10^(dB/10)."))
        slips.append((10 * math.log10(answer), "That is the gap in decibels; as a power ratio it is 10^(dB/10)."))
    if kind == "db" and abs(answer) < 300:
        slips.append((10 ** (answer / 10), "That is the linear power ratio; in decibels it is 10 log10 of it."))
    if kind in ("ratio", "db_ratio"):
        slips.append((1 / answer, "The ratio upside down? Check which quantity goes on top."))
    if kind == "ratio" and 1 < answer < 10:
        slips.append((100 * (answer - 1), ("That looks like the increase in per cent; this answer is the "
                                           "factor itself (50 % more is a factor of 1.5).")))
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
            f'also call <code>.check(value)</code> on the exercise.</p>{_tables_script()}</div>'
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
    if quantity is not None and not isinstance(quantity, str):
        raise TypeError(f"quantity must be one of {', '.join(QUANTITIES)} or None, got {quantity!r:.80}")
    if quantity is not None and quantity not in QUANTITIES:
        raise ValueError(f"quantity must be one of {', '.join(QUANTITIES)}, got {quantity!r}")
    factors = tuple((validate.positive("extra_slips factor", f), _text("extra_slips", t))
                    for f, t in _pairs("extra_slips", extra_slips))
    values = tuple((validate.number("wrong_answers value", v, "!= 0"), _text("wrong_answers", t))
                   for v, t in _pairs("wrong_answers", wrong_answers))
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


def _pairs(name: str, pairs) -> list[tuple]:
    """``pairs`` as a list of (number, explanation) pairs."""
    pairs = validate.sequence(name, pairs, "a tuple of (number, explanation) pairs")
    for pair in pairs:
        if isinstance(pair, (str, bytes)) or not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"{name} must be a tuple of (number, explanation) pairs, got the item {pair!r:.80}")
    return pairs


def _text(name: str, text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"{name} explanation must be a non-empty string, got {text!r}")
    return text


def _applicable_slips(answer: float, rel_tol: float, kind: str, unit: str, factors, values) -> list[dict]:
    """The slips to test, in order: the key rounded to 2-3 figures, the exercise's wrong values, the
    key rounded to 1 figure or cut, the exercise's factors, then the common ones that the kind of
    quantity can make and that the tolerance separates from the answer."""
    slips: list[dict] = [{"rounding": dict(ROUNDED_FIRST)}]
    for value, text in values:
        # two named values closer than their tolerances (4096 and 4160 switches) split the gap
        gaps = [abs(other / value - 1) / 2 for other, _ in values if other != value]
        slips.append({"value": value, "tol": min([rel_tol, VALUE_SLIP_TOL] + gaps), "text": text})
    slips.append({"rounding": dict(ROUNDED_LATER)})
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
            if factor == 2.0 and unit in _CALENDAR:
                words = _TWO_OTHER                      # no round trip in a number of days
            slip = {"factor": factor, "tol": min(rel_tol, tol), "text": words}
            if factor in _CALENDAR_UP.get(unit, {}):
                slip["text_up"] = _CALENDAR_UP[unit][factor]
            slips.append(slip)
    if kind in _PERCENT_SLIPS:
        factor, tol, capped, text = _PERCENT_SLIPS[kind]
        slips.append({"factor": factor, "tol": min(rel_tol, tol) if capped else tol, "text": text})
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


def _digits(x: float, digits: int) -> tuple[str, int]:
    """``|x|`` (finite, non-zero) rounded to ``digits`` significant digits: the digits and the decimal
    exponent of the first (``204.8, 3`` -> ``("205", 2)``). Half away from zero, on the double's exact
    value, as JavaScript's toExponential(digits - 1)."""
    with localcontext() as ctx:
        ctx.prec = 1000                       # exact: the double's full decimal expansion
        d = Decimal(abs(x))
        e = d.adjusted()
        q = d.quantize(Decimal(1).scaleb(e - digits + 1), rounding=ROUND_HALF_UP)
        if q.adjusted() > e:                  # 9.9996 -> 10.00
            e += 1
            q = d.quantize(Decimal(1).scaleb(e - digits + 1), rounding=ROUND_HALF_UP)
    return "".join(str(k) for k in q.as_tuple().digits), e


def fmt(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, plainly (``327.7``, ``65530``, ``0.0012``), or as
    ``3.2e-6`` outside 1e-4..1e9. Rounds half away from zero, as JavaScript's toExponential does."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        raise TypeError(f"x must be a real number, got {type(x).__name__} {x!r:.80}")
    try:
        float(x)
    except OverflowError:
        raise ValueError("x must be a real number that fits a float, got a larger integer") from None
    digits = validate.integer("digits", digits, minimum=1, maximum=17, why="a double holds 17 significant digits")
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    mantissa, e = _digits(x, digits)
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
    if text == unit or (unit and unit not in UNITS and _same_word(text, unit)):
        return 1.0, ""
    match = UNITS.get(text)
    if match is None:
        found = sorted(u for u in UNITS if u.lower() == text.lower())
        if len({UNITS[u][0] for u in found}) == 1 and UNITS[found[0]][0] != kind:
            match = UNITS[found[0]]           # "mb" for a time: wrong kind whichever is meant
        elif len({UNITS[u] for u in found}) > 1:
            return None, _say("ambiguous_unit", unit, text=text, choices=MESSAGES["or"].join(found))
        else:
            match = UNITS[found[0]] if found else None
    if match is None:
        return None, _say("unknown_unit", unit, text=text)
    typed_kind, typed_scale = match
    if typed_kind != kind and kind not in COMPATIBLE.get(typed_kind, ()):
        return None, _say("wrong_kind", unit, text=text, typed_quantity=QUANTITIES[typed_kind],
                          quantity=QUANTITIES[kind])
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
    if not isinstance(spec, dict) or "unit" not in spec:
        raise TypeError(f"spec must be an exercise's spec (a dict from NumericExercise.spec()), got {spec!r:.80}")
    unit = spec["unit"]
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        return Reading(None, _say("not_a_value", unit, value=repr(value)))
    if not isinstance(value, str):
        try:
            x = float(value)
        except OverflowError:
            x = math.inf
        return Reading(x) if math.isfinite(x) else Reading(None, _say("not_finite", unit, value=repr(value)))
    text = value.strip(_SPACES)
    if text == "":
        return Reading(None, _say("empty", unit))
    m = _NUMBER.match(text)
    if m is None:
        return Reading(None, _say("not_a_number", unit, text=text))
    sign, body, exp1, exp2 = m.groups()
    digits = _read_number(body)
    if digits is None:
        return Reading(None, _say("bad_grouping", unit, body=body))
    exponent = (exp1 or exp2 or "0").replace("−", "-")
    x = float(("-" if sign in ("-", "−") else "") + digits + "e" + exponent)
    if not math.isfinite(x):
        return Reading(None, _say("huge", unit))
    comma = _say("comma", unit, body=body, digits=digits) if body.count(",") == 1 and "." not in body else ""
    rest = text[m.end():].strip(_SPACES)
    if not rest:
        return Reading(x, comma=comma)
    scale, problem = _unit_scale(rest, spec)
    if scale is None:
        return Reading(None, problem)
    if scale == 1.0:
        return Reading(x, comma=comma)
    x = x * scale
    return Reading(x, converted=_say("converted", unit, number=text[:m.end()].strip(_SPACES), typed_unit=rest,
                                     value=fmt(x, 6)), comma=comma)


def check_spec(spec: dict, value) -> Feedback:
    """The verdict on ``value`` for an exercise given by its ``spec`` (see :meth:`NumericExercise.spec`)."""
    reading = read_answer(value, spec)
    if reading.value is None:
        return Feedback(False, reading.problem, math.nan)
    verdict = _judge(reading.value, spec, typed_unit=bool(reading.converted))
    message = reading.converted + verdict.message
    if reading.comma and not verdict.correct:
        message += _say("comma_note", spec["unit"], comma=reading.comma)
    return Feedback(verdict.correct, message, verdict.ratio)


def _rounded(answer: float, k: int) -> tuple[float, float]:
    """The answer cut and rounded (half up) to ``k`` significant digits, as |values|."""
    mantissa, e = _digits(answer, KEY_DIGITS)
    cut, up = int(mantissa[:k]), int(mantissa[k]) >= 5
    return float(f"{cut}e{e - k + 1}"), float(f"{cut + up}e{e - k + 1}")


def _rounding_match(given: float, answer: float, rounding: dict) -> tuple[str, int] | None:
    """``("round", k)`` if ``given`` is the answer rounded to ``k`` significant digits, one of
    ``rounding["round"]``; else ``("cut", k)`` if it is the answer cut to ``k``, one of ``rounding["cut"]``
    (fewest digits first); else None. A cut that equals the rounding is a rounding."""
    for how, which, ks in (("round", 1, rounding["round"]), ("cut", 0, rounding["cut"])):
        for k in ks:
            if abs(abs(given) / _rounded(answer, k)[which] - 1.0) <= SAME_NUMBER:
                return how, k
    return None


def _rounding_of(given: float, answer: float, rounding: dict) -> bool:
    """Whether ``given`` is the answer rounded to one of ``rounding["round"]`` significant digits, or cut
    to one of ``rounding["cut"]``."""
    return _rounding_match(given, answer, rounding) is not None


def _rounding_fields(match: tuple[str, int], answer: float, rel_tol: float) -> dict[str, str]:
    """The digits to ask for after a rounding or a cut ``match``: enough to be within the tolerance, and
    for a cut at least as many as were kept (3.9 for 3.997: keep 2 and round them, 4.0)."""
    how, k = match
    digits = _digits_needed(answer, rel_tol)
    return {"digits": str(max(digits, k) if how == "cut" else digits), "tol": fmt(100 * rel_tol, 3)}


def _factor_text(slip: dict, too_large: bool, typed_unit: bool) -> str:
    """The words for a factor slip. A calendar factor's ``text_up`` names the pair with the larger unit:
    it applies to a number too small with no unit typed (0.092 for 5.5 min is in hours), and to one too
    large with a unit typed ("5.5 h" for 5.5 min: minutes labelled hours)."""
    return slip["text_up"] if "text_up" in slip and too_large == typed_unit else slip["text"]


def _digits_needed(answer: float, rel_tol: float) -> int:
    """The fewest significant digits to which the answer, rounded, is within the tolerance."""
    return next((k for k in range(1, KEY_DIGITS) if abs(_rounded(answer, k)[1] / abs(answer) - 1.0) <= rel_tol),
                KEY_DIGITS)


def _judge(given: float, spec: dict, typed_unit: bool = False) -> Feedback:
    """The verdict on ``given`` (in the exercise's unit); ``typed_unit``: the student typed another unit,
    converted to the exercise's."""
    expected, rel_tol, unit = spec["answer"], spec["rel_tol"], spec["unit"]
    ratio = given / expected
    if abs(ratio - 1.0) <= rel_tol:
        return Feedback(True, _say("correct", unit, answer=fmt(expected)), ratio)
    if ratio == 0:
        return Feedback(False, _say("zero", unit), ratio)
    if ratio < 0:
        return Feedback(False, _say("sign", unit), ratio)
    slips = spec["slips"]
    for i, slip in enumerate(slips):
        if "rounding" in slip:
            match = _rounding_match(given, expected, slip["rounding"])
            if match is not None:
                name = "rounded" if match[0] == "round" else "cut"
                return Feedback(False, _say(name, unit, **_rounding_fields(match, expected, rel_tol)), ratio)
            continue
        tol = slip["tol"]
        if "value" in slip:
            if abs(given / slip["value"] - 1.0) <= tol:
                # the same number may be the answer rounded to 1 figure or cut (63 for 63.79 and for 1 - 1/e)
                later = next((s["rounding"] for s in slips[i + 1:] if "rounding" in s), None)
                match = None if later is None else _rounding_match(given, expected, later)
                if match is not None:
                    name = "named_or_rounded" if match[0] == "round" else "named_or_cut"
                    return Feedback(False, _say(name, unit, text=slip["text"],
                                                **_rounding_fields(match, expected, rel_tol)), ratio)
                return Feedback(False, _say("named_value", unit, text=slip["text"]), ratio)
            continue
        factor = slip["factor"]
        for r, name in ((factor, "slip_large"), (1.0 / factor, "slip_small")):
            if abs(ratio / r - 1.0) <= tol:
                words = _factor_text(slip, r > 1, typed_unit)
                return Feedback(False, _say(name, unit, factor=fmt(factor), text=words), ratio)
    if abs(ratio - 1.0) <= CLOSE_BAND:
        return Feedback(False, _say("close", unit, tol=fmt(100 * rel_tol, 3)), ratio)
    return Feedback(False, _say("too_high" if ratio > 1 else "too_low", unit, factor=fmt(max(ratio, 1 / ratio), 3)),
                    ratio)


# ---------------------------------------------------------------------------------------------
# An exercise of one's own.  A varied exercise is one question asked with several sets of numbers
# (its variants), each a NumericExercise whose answer netlab computes when the lab runs. A student
# who gives a name or an ID gets one variant, chosen by a stable hash of the name and the
# exercise's key, the same in Python and in the browser (_static/netlab-exercise.js). Variant 0
# is the lab's own scenario, the one its worked solution uses: a named student never gets it.

FNV_OFFSET = 0x811C9DC5
FNV_PRIME = 0x01000193


def student_id(name: str) -> str:
    """A name or ID as the variants read it: NFC, spaces collapsed, lower case (``" Ada  LOVELACE"`` ->
    ``"ada lovelace"``). The browser normalises the same way."""
    import unicodedata

    if not isinstance(name, str):
        raise TypeError(f"name must be a string (a student's name or ID), got {type(name).__name__} {name!r:.80}")
    return " ".join(unicodedata.normalize("NFC", name).split()).lower()


def stable_hash(text: str) -> int:
    """FNV-1a (32 bits) of ``text`` in UTF-8: the same number in every Python and in the browser."""
    if not isinstance(text, str):
        raise TypeError(f"text must be a string, got {type(text).__name__} {text!r:.80}")
    h = FNV_OFFSET
    for byte in text.encode("utf-8"):
        h = ((h ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return h


def variant_index(name: str, key: str, n_variants: int) -> int:
    """The variant of exercise ``key`` that the student ``name`` gets, out of ``n_variants``.

    No name (or a single variant) gives variant 0, the lab's own numbers; a name gives one of
    1..n_variants-1, from :func:`stable_hash` of the normalised name, a newline and the key.
    """
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    n = validate.integer("n_variants", n_variants, minimum=1)
    who = student_id(name)
    if not who or n == 1:
        return 0
    return 1 + stable_hash(who + "\n" + key) % (n - 1)


@dataclass(frozen=True, eq=False)
class Variant:
    """One set of numbers of a varied exercise: its ``params``, its ``prompt``, its ``exercise``."""

    index: int
    params: dict
    prompt: str
    exercise: NumericExercise

    def __repr__(self) -> str:
        return f"Variant {self.index}: {self.prompt} -> {fmt(self.exercise.answer)} {self.exercise.unit}".rstrip()


@dataclass(frozen=True, eq=False)
class VariedExercise:
    """A question with several sets of numbers (see :func:`varied`); variant 0 is the lab's own."""

    key: str
    prompt: str                     # the template, with {fields}
    variants: tuple[Variant, ...]

    @property
    def default(self) -> NumericExercise:
        return self.variants[0].exercise

    @property
    def answer(self) -> float:
        """The answer of variant 0 (the lab's own numbers)."""
        return self.default.answer

    @property
    def unit(self) -> str:
        return self.default.unit

    @property
    def rel_tol(self) -> float:
        return self.default.rel_tol

    def for_student(self, name: str) -> Variant:
        """The variant the student ``name`` gets (variant 0 for no name)."""
        return self.variants[variant_index(name, self.key, len(self.variants))]

    def spec(self) -> dict:
        """The checker's spec of variant 0 (see :meth:`NumericExercise.spec`)."""
        return self.default.spec()

    def check(self, value, student: str = "") -> Feedback:
        """Feedback on ``value`` for the variant of ``student`` (variant 0 without one)."""
        return self.for_student(student).exercise.check(value)

    def answers(self) -> list[dict]:
        """Every variant's numbers and answer, for the instructor: index, params, prompt, answer, unit."""
        return [{"variant": v.index, "params": v.params, "prompt": v.prompt, "answer": v.exercise.answer,
                 "unit": v.exercise.unit} for v in self.variants]

    def __repr__(self) -> str:
        return f"VariedExercise({self.key}: {len(self.variants)} variants of {self.prompt!r})"

    def variants_json(self) -> list[dict]:
        """The variants as the page carries them: prompt, params and spec, each spec written against
        variant 0's (see :func:`variant_delta`)."""
        base = self.default.spec()
        return [{"prompt": v.prompt, "params": _shown(v.params), "spec": variant_delta(v.exercise.spec(), base)}
                for v in self.variants]

    def _repr_html_(self) -> str:
        form = self.default._repr_html_()
        text = json.dumps(self.variants_json(), ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
        script = f'<script type="application/json" class="netlab-exercise-variants">{text}</script>'
        head, sep, tail = form.partition('<p class="netlab-exercise-prompt">')
        return head.replace('class="netlab-exercise" ', 'class="netlab-exercise netlab-varied" ', 1) + script + sep + tail


def _need_spec(name: str, spec) -> None:
    if not isinstance(spec, dict) or not {"answer", "rel_tol", "unit", "quantity", "scale", "slips"} <= set(spec):
        raise TypeError(f"{name} must be an exercise's spec (a dict from NumericExercise.spec()), got {spec!r:.80}")


def variant_delta(spec: dict, base: dict) -> dict:
    """``spec`` written against ``base`` (variant 0's spec), as short as the page can carry it: the
    answer, and each slip as the index of the same slip in ``base``, or its own numbers (its text
    taken from ``base``'s slip at the same place when that is the same), or whole.
    :func:`variant_spec` undoes it; so does the browser."""
    _need_spec("spec", spec)
    _need_spec("base", base)
    out: dict = {"answer": spec["answer"]}
    for k in ("rel_tol", "unit", "quantity", "scale"):
        if spec[k] != base[k]:
            out[k] = spec[k]
    slips: list = []
    for i, slip in enumerate(spec["slips"]):
        if slip in base["slips"]:
            slips.append(base["slips"].index(slip))
        elif i < len(base["slips"]) and "text" in slip and base["slips"][i].get("text") == slip["text"] \
                and set(slip) == set(base["slips"][i]):
            slips.append({k: v for k, v in slip.items() if k != "text"})
        else:
            slips.append(dict(slip, whole=True))
    out["slips"] = slips
    return out


def variant_spec(delta: dict, base: dict) -> dict:
    """The full spec of a variant from :func:`variant_delta`'s form and variant 0's ``base``."""
    if not isinstance(delta, dict) or not isinstance(delta.get("slips"), list) or "answer" not in delta:
        raise TypeError(f"delta must be a variant's spec as variant_delta writes it, got {delta!r:.80}")
    _need_spec("base", base)
    spec = {k: delta.get(k, base[k]) for k in ("rel_tol", "unit", "quantity", "scale")}
    spec["answer"] = delta["answer"]
    slips = []
    for i, slip in enumerate(delta["slips"]):
        if isinstance(slip, int):
            slips.append(dict(base["slips"][slip]))
        elif slip.get("whole"):
            slips.append({k: v for k, v in slip.items() if k != "whole"})
        else:
            slips.append(dict(slip, text=base["slips"][i]["text"]))
    spec["slips"] = slips
    return {"answer": spec["answer"], "rel_tol": spec["rel_tol"], "unit": spec["unit"], "quantity": spec["quantity"],
            "scale": spec["scale"], "slips": slips}


def _shown(params: dict) -> dict:
    """Parameters as JSON can carry them (numbers and text)."""
    return {k: (v if isinstance(v, (int, float, str)) and not isinstance(v, bool) else str(v)) for k, v in params.items()}


def _grid(params) -> list[dict]:
    """Every combination of ``params`` (a mapping of name -> values: the first of each is the lab's own),
    or the variants as listed (a sequence of mappings)."""
    import itertools

    if isinstance(params, dict):
        if not params:
            raise ValueError("params must name at least one parameter, got {}")
        names = list(params)
        lists = []
        for name in names:
            values = validate.sequence(f"params[{name!r}]", params[name], "a list of values")
            if not values:
                raise ValueError(f"params[{name!r}] must list at least one value, got {params[name]!r}")
            lists.append(values)
        return [dict(zip(names, combo)) for combo in itertools.product(*lists)]
    rows = validate.sequence("params", params, "a dict of name -> values, or a list of dicts")
    if not rows or not all(isinstance(r, dict) and r for r in rows):
        raise ValueError("params must be a dict of name -> values, or a non-empty list of non-empty dicts")
    return [dict(r) for r in rows]


MAX_VARIANTS = 256


def _for(slips, params: dict):
    """A variant's slips: ``slips(**params)`` if a callable, else ``slips`` as given."""
    return slips(**params) if callable(slips) else slips


def varied(key: str, prompt: str, params, answer, unit: str = "", rel_tol: float = 0.02,
           extra_slips=(), wrong_answers=(), quantity: str | None = None) -> VariedExercise:
    """A :func:`numeric` exercise asked with several sets of numbers: one per student.

    Parameters
    ----------
    key : str
        A short id, unique on its page (``"ex-bdp"``).
    prompt : str
        The question with ``{fields}`` for the parameters, as ``str.format`` fills them
        (``"Bytes in flight at {rate_gbps} Gb/s and a {rtt_us} µs RTT, in KB"``).
    params : dict of name -> list of values, or list of dicts
        The grid: every combination of the lists is a variant, in order (so the first value of each
        list makes variant 0, the lab's own numbers); or the variants as listed. At most 256.
    answer : callable
        ``answer(**params)`` -> the expected value, computed with netlab.
    unit, rel_tol, quantity
        As for :func:`numeric`, the same for every variant.
    extra_slips, wrong_answers : tuple of pairs, or callable
        As for :func:`numeric`; a callable is called with ``**params`` for each variant's own values.
        Every variant is built by :func:`numeric`, so each variant's tolerance must separate its
        answer from its slips, and none of its wrong values may be its answer rounded to 2 or 3
        figures (a variant that breaks either rule raises ValueError naming it).
    """
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    if not isinstance(prompt, str) or not prompt:
        raise ValueError(f"prompt must be a non-empty string with {{fields}}, got {prompt!r}")
    if not callable(answer):
        raise TypeError(f"answer must be a callable answer(**params) -> number, got {type(answer).__name__}")
    grid = _grid(params)
    if len(grid) > MAX_VARIANTS:
        raise ValueError(f"params must make at most {MAX_VARIANTS} variants, got {len(grid)}")
    variants = []
    for i, p in enumerate(grid):
        try:
            text = prompt.format(**p)
        except (KeyError, IndexError, ValueError) as exc:
            raise ValueError(f"prompt {prompt!r} cannot be filled from params {p}: {exc}") from None
        try:
            ex = numeric(key, text, answer=answer(**p), unit=unit, rel_tol=rel_tol,
                         extra_slips=_for(extra_slips, p), wrong_answers=_for(wrong_answers, p), quantity=quantity)
        except ValueError as exc:
            raise ValueError(f"variant {i} ({p}): {exc}") from None
        for value, _ in ex.wrong_answers:
            if _rounding_of(value, ex.answer, ROUNDED_FIRST):
                raise ValueError(f"variant {i} ({p}): the wrong answer {value:g} is also the answer {ex.answer:g} "
                                 "rounded to 2 or 3 figures, which the checker calls a rounding: choose other params")
        variants.append(Variant(i, p, text, ex))
    return VariedExercise(key, prompt, tuple(variants))


# ---------------------------------------------------------------------------------------------
# Answers a student can hand in.  The browser keeps each exercise's typed answer and verdict in
# localStorage and downloads them as a report (Markdown to read, JSON to grade); in Jupyter,
# Answers does the same. Both write the JSON below and the same Markdown (report_markdown).

REPORT_FORMAT = "netlab-answers/1"
#: Fields of each exercise in a report (the browser writes the same).
REPORT_FIELDS = ("key", "prompt", "variant", "params", "unit", "answer", "correct", "verdict", "attempts",
                 "first_attempt", "last_attempt")


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def report_markdown(report: dict) -> str:
    """The Markdown form of a report (``report`` as :meth:`Answers.report` or the browser writes it)."""
    if not isinstance(report, dict) or report.get("format") != REPORT_FORMAT:
        raise ValueError(f"report must be a dict with format {REPORT_FORMAT!r}, got {str(report)[:80]!r}")
    score = report["score"]
    lines = [f"# Answers: {report['title']}", "",
             f"- Name: {report['name'] or '(none given)'}", f"- Lab: {report['lab']}",
             f"- Written: {report['created']}",
             f"- Score: {score['correct']} of {score['total']} right ({score['answered']} answered)", ""]
    for i, ex in enumerate(report["exercises"], 1):
        verdict = "correct" if ex["correct"] else ("not answered" if not ex["attempts"] else "not yet correct")
        lines += [f"## {i}. {ex['prompt']}", "",
                  f"- Answer: {ex['answer'] if ex['answer'] else '(none)'}" + (f" (in {ex['unit']})" if ex["unit"] else ""),
                  f"- Verdict: {verdict}" + (f": {ex['verdict']}" if ex["verdict"] else ""),
                  f"- Attempts: {ex['attempts']}"
                  + (f", first {ex['first_attempt']}, last {ex['last_attempt']}" if ex["attempts"] else ""),
                  f"- Exercise: {ex['key']}, variant {ex['variant']}", ""]
    return "\n".join(lines)


class Answers:
    """A student's answers to one lab in Jupyter, written as the browser's report.

    >>> from netlab import exercises
    >>> ex = exercises.numeric("ex-one", "One plus one", answer=2.0)
    >>> mine = exercises.Answers("Ada Lovelace", lab="lab00-demo", title="Lab 0: a demo")
    >>> mine.check(ex, "3").correct, mine.check(ex, "2").correct
    (False, True)
    >>> mine.report()["score"]
    {'correct': 1, 'answered': 1, 'total': 1}

    :meth:`save` writes ``<lab>-answers.md`` and ``<lab>-answers.json``. A varied exercise is
    checked (and reported) in the variant of ``name``: :meth:`question` shows its numbers.
    """

    def __init__(self, name: str, lab: str, title: str = ""):
        self.name = " ".join(name.split()) if isinstance(name, str) else name
        student_id(name)                       # TypeError on a non-string
        if not isinstance(lab, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", lab):
            raise ValueError(f"lab must be a page name such as 'lab02-links' (letters, digits, - _ .), got {lab!r}")
        if not isinstance(title, str):
            raise TypeError(f"title must be a string, got {type(title).__name__}")
        self.lab, self.title = lab, title or lab
        self._entries: dict[str, dict] = {}

    def _pick(self, exercise) -> tuple[NumericExercise, int, dict]:
        if isinstance(exercise, VariedExercise):
            v = exercise.for_student(self.name)
            return v.exercise, v.index, _shown(v.params)
        if isinstance(exercise, NumericExercise):
            return exercise, 0, {}
        raise TypeError(f"exercise must be a NumericExercise or a VariedExercise, got {type(exercise).__name__}")

    def question(self, exercise) -> str:
        """The question as this student gets it (their variant's numbers)."""
        return self._pick(exercise)[0].prompt

    def add(self, exercise) -> None:
        """List ``exercise`` in the report even before it is answered."""
        ex, index, params = self._pick(exercise)
        self._entries.setdefault(ex.key, {"key": ex.key, "prompt": ex.prompt, "variant": index, "params": params,
                                          "unit": ex.unit, "answer": "", "correct": False, "verdict": "",
                                          "attempts": 0, "first_attempt": "", "last_attempt": ""})

    def check(self, exercise, value) -> Feedback:
        """Check ``value`` on ``exercise`` (this student's variant) and record the attempt."""
        ex, _, _ = self._pick(exercise)
        feedback = ex.check(value)
        self.add(exercise)
        entry, now = self._entries[ex.key], _now()
        entry.update(answer=str(value).strip(), correct=feedback.correct, verdict=feedback.message,
                     attempts=entry["attempts"] + 1, last_attempt=now, first_attempt=entry["first_attempt"] or now)
        return feedback

    def report(self) -> dict:
        """The report as a dict (what :meth:`save` writes as JSON)."""
        rows = [dict(e) for e in self._entries.values()]
        return {"format": REPORT_FORMAT, "name": self.name, "lab": self.lab, "title": self.title,
                "created": _now(), "exercises": rows,
                "score": {"correct": sum(r["correct"] for r in rows), "answered": sum(r["attempts"] > 0 for r in rows),
                          "total": len(rows)}}

    def save(self, folder=".") -> tuple[Path, Path]:
        """Write ``<lab>-answers.md`` and ``<lab>-answers.json`` into ``folder``; return their paths."""
        if not isinstance(folder, (str, os.PathLike)):
            raise TypeError(f"folder must be a path (a string or a Path), got {type(folder).__name__} {folder!r:.80}")
        out = Path(folder)
        if not out.is_dir():
            raise ValueError(f"folder must be an existing directory, got {str(folder)!r}")
        report = self.report()
        md, js = out / f"{self.lab}-answers.md", out / f"{self.lab}-answers.json"
        md.write_text(report_markdown(report), encoding="utf-8")
        js.write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        return md, js
