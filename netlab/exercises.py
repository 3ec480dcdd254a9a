"""Exercises: check a learner's numeric answer and say what probably went wrong.

Most wrong answers in networking arithmetic are not random: they are off by a
factor that names the slip. Off by 8 is bits vs bytes (Gb/s vs GB/s); off by 2 is
one-way vs bidirectional (or ring all-reduce's factor of 2); off by 1000 is a
prefix; off by 1.024, 1.048576 or 1.073741824 is a binary prefix used as a decimal
one. :meth:`NumericExercise.check` recognises these and says so.

The expected answer is computed by netlab in the notebook, never typed in, so the
book cannot teach a number its own library disagrees with::

    >>> from netlab import exercises, links
    >>> ex = exercises.numeric("ex-serialize", "Time to serialize 4 KiB at 100 Gb/s, in ns?",
    ...                        answer=links.serialization_time(4096, 100e9) / 1e-9, unit="ns")
    >>> ex.check(327.68).correct
    True
    >>> print(ex.check(40.96).message)      # forgot the 8 bits per byte
    Not yet: your answer is 8x too small. Bits vs bytes? 1 byte = 8 bits; link rates are in bits per second.

In a notebook, an exercise displays a small form (an input and a Check button)
that runs the same checks in the browser, so it also works on the static site
without a kernel (``_static/netlab-exercise.js``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
import html
import json
import math
import os
from pathlib import Path

from netlab import validate

_CHECKER_JS = Path(__file__).resolve().parents[1] / "_static" / "netlab-exercise.js"

# (factor, explanation): answer/expected close to factor or 1/factor names the slip.
COMMON_SLIPS: tuple[tuple[float, str], ...] = (
    (8.0, "Bits vs bytes? 1 byte = 8 bits; link rates are in bits per second."),
    (2.0, "One-way vs bidirectional? A bidirectional figure counts both directions. "
          "Or a missing factor of 2 in the formula."),
    (1000.0, "A prefix slip? Check µs vs ms, or KB vs MB."),
    (1e6, "A prefix slip of a million? Check µs vs s, or MB vs TB."),
    (1.024, "Binary vs decimal? 1 KiB = 1024 B but 1 KB = 1000 B."),
    (1.048576, "Binary vs decimal? 1 MiB = 1,048,576 B but 1 MB = 1,000,000 B."),
    (1.073741824, "Binary vs decimal? 1 GiB = 2^30 B but 1 GB = 10^9 B."),
    (16.0, "Off by 16: bits vs bytes and one-way vs bidirectional together?"),
)


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
    """A question whose answer is a number, checked within a relative tolerance."""

    key: str
    prompt: str
    answer: float
    unit: str = ""
    rel_tol: float = 0.02
    slips: tuple[tuple[float, str], ...] = field(default=COMMON_SLIPS)

    def check(self, value) -> Feedback:
        """Feedback on ``value`` (a number, or text such as ``"1,250"`` or ``"3.2e-6"``)."""
        given = _parse(value)
        if given is None:
            return Feedback(False, f"Please give a number (in {self.unit or 'the unit asked'}), got {value!r}.",
                            math.nan)
        return _judge(given, self.answer, self.rel_tol, self.slips, self.unit)

    def __repr__(self) -> str:
        return f"NumericExercise({self.key}: {self.prompt} [{self.unit}], ±{self.rel_tol:.2g} relative)"

    def _repr_html_(self) -> str:
        spec = {"answer": self.answer, "rel_tol": self.rel_tol, "unit": self.unit,
                "slips": [[f, text] for f, text in self.slips]}
        unit = f" {html.escape(self.unit)}" if self.unit else ""
        input_id = f"ex-{html.escape(self.key)}-input"
        return (
            f'<div class="netlab-exercise" data-key="{html.escape(self.key)}" '
            f'data-spec="{html.escape(json.dumps(spec))}">'
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
            extra_slips: tuple[tuple[float, str], ...] = ()) -> NumericExercise:
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
        The unit of the answer (``"µs"``, ``"GB/s"``).
    rel_tol : float
        Accepted relative error, in (0, 0.5].
    extra_slips : tuple of (factor, explanation)
        Slips specific to this question, checked before the common ones.
    """
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    if not isinstance(prompt, str) or not prompt:
        raise ValueError(f"prompt must be a non-empty string, got {prompt!r}")
    answer = validate.number("answer", answer, "!= 0")
    if answer == 0:
        raise ValueError("answer must be a finite number != 0 (a relative tolerance needs a scale)")
    rel_tol = validate.in_range("rel_tol", rel_tol, 0.0, 0.5, low_open=True)
    for factor, text in extra_slips:
        validate.positive("extra_slips factor", factor)
    return NumericExercise(key=key, prompt=prompt, answer=answer, unit=unit, rel_tol=rel_tol,
                           slips=tuple(extra_slips) + COMMON_SLIPS)


def _live_script() -> str:
    """The checker's JavaScript inline, for a live notebook (the book loads it from ``_static``).

    JupyterLab runs scripts in the trusted outputs of the current session, so the Check
    button works there too. Omitted when building the book (``NETLAB_STATIC_WIDGETS=1``)
    or when netlab is installed without the repository's ``_static`` folder.
    """
    if os.environ.get("NETLAB_STATIC_WIDGETS", "") == "1" or not _CHECKER_JS.is_file():
        return ""
    return f"<script>{_CHECKER_JS.read_text(encoding='utf-8')}</script>"


def _parse(value) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        text = value.strip().replace(",", "").replace("_", "").replace(" ", "")
        try:
            x = float(text)
        except ValueError:
            return None
        return x if math.isfinite(x) else None
    return None


def _judge(given: float, expected: float, rel_tol: float, slips, unit: str) -> Feedback:
    ratio = given / expected
    if abs(ratio - 1.0) <= rel_tol:
        return Feedback(True, f"Correct: {expected:.4g} {unit}".rstrip() + ".", ratio)
    if ratio <= 0:
        return Feedback(False, "Not yet: the sign is wrong (a time, size or rate here is positive).", ratio)
    for factor, text in slips:
        for r, word in ((factor, "large"), (1.0 / factor, "small")):
            if abs(ratio / r - 1.0) <= rel_tol:
                return Feedback(False, f"Not yet: your answer is {factor:g}x too {word}. {text}", ratio)
    if abs(ratio - 1.0) <= 0.1:
        return Feedback(False, "Close, but outside the tolerance: check rounding and any term you left out.",
                        ratio)
    direction = "high" if ratio > 1 else "low"
    return Feedback(False, f"Not yet: your answer is too {direction} (by a factor of "
                           f"{max(ratio, 1 / ratio):.3g}). Re-read the units of each input.", ratio)
