"""Every exercise of the built book, and the answers a student tries on it.

The exercises are read from the built site (each ``.netlab-exercise`` element carries its
``data-spec`` and the checker's tables as JSON), so no notebook is executed again. For each one, :func:`battery` lists typed
answers: the right one, the same in another unit, the classic slips (x8, x1000, x2, x1.024,
the decibel voltage formula), a unit of the wrong kind and a random wrong number.
:func:`problems` says what is wrong with a verdict. Which slip a quantity can make is
written here again, independently of netlab's own table.
"""

from __future__ import annotations

from dataclasses import dataclass
import html
from html.parser import HTMLParser
import json
import math
from pathlib import Path
import random

from tests.site.sitefiles import content_pages

BITS_BYTES = {"data", "rate", "time", "energy_per_bit"}      # x8 can come from a size or a rate
PREFIXED = {"data", "rate", "time", "power", "energy_per_bit"}  # x1000: an SI prefix
BINARY = {"data", "rate"}                                      # x1.024: KiB vs KB
# the common messages' own words, which must not appear where the quantity cannot make the slip
COMMON_WORDS = {"x8": "Bits vs bytes? 1 byte = 8 bits", "x1000": "A prefix slip",
                "x1.024": "Binary vs decimal? 1 KiB = 1024 B", "voltage": "10^(dB/20)"}
# a value in another unit of the same kind (unit, its SI scale)
OTHER_UNIT = {"data": ("bit", 1.0), "rate": ("bit/s", 1.0), "time": ("s", 1.0), "power": ("W", 1.0),
              "energy_per_bit": ("fJ/bit", 1e-15)}


@dataclass(frozen=True)
class SiteExercise:
    page: str
    key: str
    spec: dict
    cell_classes: tuple[str, ...]    # classes of the enclosing <div>s, innermost first
    tables: dict | None = None       # the checker's tables the form carries (None: it carries none)


class _Finder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.found: list[dict] = []
        self.depth = -1                  # depth of the exercise <div> being read, -1 outside one
        self.tables: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = a.get("class") or ""
        if tag == "script" and self.depth >= 0 and "netlab-exercise-tables" in classes.split():
            self.tables = []
        if tag != "div":
            return
        if "netlab-exercise" in classes.split():
            self.found.append({"key": a.get("data-key", ""), "spec": a.get("data-spec", ""),
                               "classes": tuple(reversed(self.stack)), "tables": None})
            self.depth = len(self.stack)
        self.stack.append(classes)

    def handle_data(self, data):
        if self.tables is not None:
            self.tables.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self.tables is not None:
            self.found[-1]["tables"] = "".join(self.tables)
            self.tables = None
        if tag == "div" and self.stack:
            self.stack.pop()
            if len(self.stack) == self.depth:
                self.depth = -1


def site_exercises(root: Path) -> list[SiteExercise]:
    """Every exercise on every content page of the built site."""
    out = []
    for page in content_pages(root):
        text = (root / page).read_text(encoding="utf-8", errors="replace")
        if "netlab-exercise" not in text:
            continue
        finder = _Finder()
        finder.feed(text)
        for f in finder.found:
            tables = json.loads(f["tables"]) if f["tables"] is not None else None
            out.append(SiteExercise(page, f["key"], json.loads(html.unescape(f["spec"])), f["classes"], tables))
    return out


def _own_texts(spec: dict) -> list[str]:
    """Texts of the slips an exercise declares itself (not in the common vocabulary)."""
    common = ("Bits vs bytes", "A prefix slip", "Binary vs decimal? 1 ", "A factor of 2", "One-way vs",
              "Percent vs", "Off by 16", "10 log10 vs", "That is 10^(dB", "That is the gap", "upside down",
              "That is the linear", "Seconds vs", "Minutes vs", "Hours vs")
    return [s["text"] for s in spec["slips"] if not s["text"].startswith(common)]


def battery(ex: SiteExercise) -> list[tuple[str, str]]:
    """(label, typed text) pairs to try on ``ex``."""
    spec, a = ex.spec, ex.spec["answer"]
    kind = spec["quantity"]
    tries = [("right", repr(a)), ("right, rounded", f"{a:.5g}")]
    if kind in OTHER_UNIT and spec.get("scale"):
        unit, scale = OTHER_UNIT[kind]
        tries.append(("right, other unit", f"{a * spec['scale'] / scale!r} {unit}"))
        tries.append(("wrong kind of unit", f"{a!r} {'ms' if kind != 'time' else 'MB'}"))
    for label, factor in (("x8", 8), ("x1000", 1000), ("x2", 2), ("x1.024", 1.024)):
        tries.append((label, repr(a * factor)))
        tries.append((label.replace("x", "/", 1), repr(a / factor)))
    if a > 0:
        tries.append(("voltage", repr(math.sqrt(a))))
    rng = random.Random(ex.key)
    while True:       # a wrong answer that is no slip: 2.6-6x off, away from every slip listed
        r = math.exp(rng.uniform(math.log(2.6), math.log(6.0))) ** rng.choice((1, -1))
        centers = [s["value"] / a if "value" in s else s["factor"] for s in spec["slips"]]
        centers += [1 / s["factor"] for s in spec["slips"] if "factor" in s]
        if all(abs(r / c - 1) > 0.15 for c in centers if c > 0):
            break
    tries.append(("random", repr(a * r)))
    return tries


def problems(ex: SiteExercise, label: str, typed: str, correct: bool, message: str) -> list[str]:
    """What is wrong with the verdict (correct, message) on ``typed``; empty when it is right."""
    spec = ex.spec
    kind, tol = spec["quantity"], spec["rel_tol"]
    where = f"{ex.page} {ex.key} ({kind}, ±{tol:g}): {label} {typed!r} -> {message!r}"
    own = any(t in message for t in _own_texts(spec))
    out = []
    if label.startswith("right"):
        return [] if correct else [f"{where}: the right answer is refused"]
    given = float(typed) if label != "wrong kind of unit" else math.nan
    if correct and abs(given / spec["answer"] - 1) <= tol:
        return []                      # a small factor inside a wide tolerance (separation_problems says so)
    if correct:
        return [f"{where}: a wrong answer is accepted"]
    if label == "wrong kind of unit":
        return [] if "but this answer is" in message else [f"{where}: the wrong unit is not explained"]
    slip = label.replace("/", "x", 1)
    calendar = spec["unit"] in ("min", "h", "hour", "hours", "day", "days")     # no SI prefix on days
    named = {"x8": kind in BITS_BYTES, "x1000": kind in PREFIXED and not calendar, "x1.024": kind in BINARY,
             "x2": True, "voltage": kind == "db_ratio"}.get(slip)
    if named is True and not own:
        needle = {"x8": "8x too", "x1000": "1000x too", "x2": "2x too", "x1.024": "1.024x too",
                  "voltage": "10^(dB/20)"}[slip]
        if needle not in message:
            out.append(f"{where}: the slip {slip} is not named")
        if slip == "x2" and kind == "rate" and "bidirectional" not in message:
            out.append(f"{where}: x2 on a rate should suggest one-way vs bidirectional")
    if named is False and slip in COMMON_WORDS and COMMON_WORDS[slip] in message:
        out.append(f"{where}: a {kind} cannot make the slip {slip}, but the message suggests it")
    if label == "random" and ("x too" in message or own or "Not yet: your answer is too" not in message):
        out.append(f"{where}: a random wrong answer is explained as a slip")
    return out


def separation_problems(ex: SiteExercise) -> list[str]:
    """Slips whose value falls within the exercise's tolerance (the checker would call them right)."""
    spec, a, tol = ex.spec, ex.spec["answer"], ex.spec["rel_tol"]
    out = []
    for s in spec["slips"]:
        for center in ([s["value"] / a] if "value" in s else [s["factor"], 1 / s["factor"]]):
            if abs(center - 1) <= tol:
                out.append(f"{ex.page} {ex.key}: the slip {s['text']!r} is within ±{tol:g} of the answer")
    if spec["quantity"] in BINARY and tol >= 0.024:
        out.append(f"{ex.page} {ex.key}: ±{tol:g} accepts a KiB-for-KB slip (1.024x) as correct")
    return out
