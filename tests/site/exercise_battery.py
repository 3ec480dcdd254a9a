"""Every exercise of the built book, and the answers a student tries on it.

The exercises are read from the built site (each ``.netlab-exercise`` element carries its
``data-spec`` and the checker's tables as JSON), so no notebook is executed again. For each one, :func:`battery` lists typed
answers: the right one, the same in another unit, the answer rounded and cut to 2 and 3
significant figures, the classic slips (x8, x16, x1000, x2, x1.024, the decibel voltage
formula), a percentage typed as a fraction and a factor as a percentage, a unit of the wrong
kind, a random wrong number, and the tempting wrong values the lab's solution and its hidden
instructor check name (:data:`TEMPTING`, copied by hand from the labs, with the words the
message must contain). :func:`problems` says what is wrong with a verdict. Which slip a
quantity can make is written here again, independently of netlab's own table.
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

BITS_BYTES = {"data", "rate", "energy_per_bit"}     # x8: a bit or a byte is in the unit (a time only if the lab says)
PREFIXED = {"data", "rate", "time", "power", "energy", "energy_per_bit"}  # x1000: an SI prefix
BINARY = {"data", "rate"}                                      # x1.024: KiB vs KB
CALENDAR = {"min", "h", "hour", "hours", "d", "day", "days"}  # no SI prefix on days
ROUNDED = "Close, but rounded too far: round the answer to "
CUT = "Close, but cut off instead of rounded: keep "      # the answer truncated, not rounded (review 31 F2)
# the other reading, after a named value that is also the answer rounded to 1 figure or cut (review 31 F4)
OR_ROUNDED, OR_CUT = "you rounded too far: round the answer to ", "you cut them off instead of rounding: keep "
# the common messages' own words, which must not appear where the quantity cannot make the slip
COMMON_WORDS = {"x8": "Bits vs bytes? 1 byte = 8 bits", "x16": "bits vs bytes", "x1000": "A prefix slip",
                "x1.024": "Binary vs decimal? 1 KiB = 1024 B", "voltage": "10^(dB/20)"}
# a value in another unit of the same kind (unit, its SI scale)
OTHER_UNIT = {"data": ("bit", 1.0), "rate": ("bit/s", 1.0), "time": ("s", 1.0), "power": ("W", 1.0),
              "energy_per_bit": ("fJ/bit", 1e-15), "energy": ("MWh", 3.6e9), "frequency": ("per hour", 1 / 3600),
              "ratio": ("%", 0.01)}

# The tempting wrong values each lab names (in its solution or its hidden instructor check), as a
# student would type them, and words of the message the lab intends; "Correct" marks an answer
# that must be accepted. Worked from the labs' texts, not from the checker.
TEMPTING: dict[str, list[tuple[str, str]]] = {
    "ex-weights": [("40", "BF16"), ("85.9", "80 GiB")],
    "ex-gpus": [("5", "weights"), ("33", "80 GiB"), ("40", "18 bytes")],
    "ex-allreduce": [("0.0689", "400 Gb/s is 50 GB/s"), ("0.069", "400 Gb/s is 50 GB/s"),
                     ("0.2756", "half a ring"), ("0.56", "2S/β")],
    "ex-serialize": [("5.12", "32,768 bits"), ("40", "4096 bytes"), ("40.0", OR_ROUNDED), ("81.92", "2x too large")],
    "ex-bdp": [("3200", "Bits vs bytes"), ("200", "half the round trip"), ("390.6", "1 KiB = 1024 B"),
               ("409.6", "1 KiB = 1024 B")],
    "ex-nvlink": [("7200", "bidirectional"), ("7,200", "bidirectional"), ("450", "Bits vs bytes"),
                  ("900", "both directions"), ("1800", "2x too small")],
    "ex-pingpong": [("1.1", "one hop"), ("4.2", "round trip"), ("11.45", "kernel"), ("1.6", "two hops")],
    "ex-cores": [("5.86", "sender"), ("11.89", "both hosts")],
    "ex-gdr": [("30", "seed"), ("66.2", "400 Gb/s"), ("28.4", "large-message limit"),
               ("90", "tiny message, which pays only fixed costs")],
    "ex-reg": [("12.505", "256 MiB"), ("12.5", "256 MiB")],
    "ex-qpmem": [("4.06", "one process"), ("16.25", "one QP per peer"), ("34.9", "GB (10^9")],
    "ex-sqdepth": [("128", "depth asked for"), ("256", "320 B")],
    "ex-keyguess": [("4294967296", "whole 32-bit"), ("16777216", "number of indices"), ("8", "number of bits")],
    "ex-gdrcount": [("7", "PHB"), ("4", "only PIX"), ("8", "Not every path")],
    "ex-rocemtu": [("4096", "4192"), ("4054", "Round down"), ("1024", "Too far down")],
    "ex-breakeven": [("1.25", "+25 %"), ("1.15", "difference of the shares"), ("1.125", "20 % share"),
                     ("120 %", "Correct"), ("1.2", "Correct"), ("1.067", "worked example")],
    "ex-incast": [("81.92", "headers"), ("81.9", "headers"), ("83.89", "64 KiB"), ("85.23", "64 KiB"),
                  ("10.4", "bits per second")],
    "ex-credits": [("33.6", "fibre once"), ("465", "Bits vs bytes"), ("9.16", "leaves out the fibre"), ("49.0", "round trip alone"),
                   ("53.1", "switch"), ("58", "Correct")],
    "ex-lab04-headroom": [("206.8", "frames"), ("131.5", "cable"), ("37.0", "GB/s"), ("212.8", "KiB"),
                          ("217.9", "Correct")],
    "ex-lab04-mib": [("87.56", "MiB as MB"), ("11.48", "GB/s"), ("85.51", "2^30"), ("91.81", "Correct")],
    "ex-fat-tree": [("4096", "leaves out the core"), ("4160", "k core switches")],
    "ex-paths-used": [("63.21", "1 - 1/e"), ("63.2", "1 - 1/e"), ("63", "1 - 1/e"), ("63.0", OR_CUT),
                      ("36.2", "left idle"), ("62.6", "exponent 31")],
    "ex-bisection": [("614.4", "non-blocking"), ("409.6", "every uplink"), ("102.4", "2x too small"),
                     ("200", ROUNDED)],
    "ex-ring-time": [("1.9445", "half a ring"), ("1.94", "half a ring"), ("31.12", "GB/s with Gb/s"),
                     ("31.1", "GB/s with Gb/s"), ("4.444", "(n-1)/n"), ("4.44", "(n-1)/n"), ("3.90", "Correct"),
                     ("1.953", "bidirectional NVLink figure")],
    "ex-busbw": [("134.2", "algbw"), ("143.2", "n/(n-1)"), ("251.7", "Correct")],
    "ex-rail-only": [("320", "rail-optimized"), ("24", "one rail"), ("128", "leaves only"), ("48", "Recheck"),
                     ("192", "Correct")],
    "ex-crossover": [("1.463", "1 MiB = 1,048,576 B"), ("1.2566", "log2(n) + 1"), ("1.5", ROUNDED)],
    "ex-alpha": [("3.857", "n - 1 = 7"), ("1.6875", "2n = 16"), ("1.9", "Correct")],
    "ex-straggler": [("1.143", "slowest port"), ("2", "slowest port"), ("4.0", "Correct")],
    "ex-ll-wire": [("114.688", "data alone"), ("122.368", "LL128's format"), ("262.144", "(n-1)/n"),
                   ("131.072", "forgets the ring"), ("131.1", "2(n-1)/n = 14/8 of the buffer")],
    "ex-tree-time": [("51.63", "size correction"), ("49.11", "base latency"), ("162.7", "ring with LL")],
    "ex-channels": [("341.1", "without the channel limit"), ("36.7", "one channel's cap"), ("46.35", "32 channels"),
                    ("135.06", "two bounds")],
    "ex-log-nics": [("8", "NICs found"), ("1", "own NIC"), ("16", "Count per node")],
    "ex-nvls-wire": [("480", "busbw as printed"), ("274.29", "algbw"), ("540", "Scale algbw")],
    "ex-lab07-nvl72": [("129.6", "bidirectional"), ("130", "bidirectional"), ("518.4", "Bits vs bytes"),
                       ("3.6", "scale-out")],
    "ex-lab07-crossover": [("19", "bidirectional"), ("9", "r itself")],
    "ex-lab07-tpbytes": [("16.384", "one all-reduce's message"), ("28.672", "a layer has two"),
                         ("65.536", "(n-1)/n"), ("114.688", "2x too large"), ("57.3", "Correct")],
    "ex-lab07-moe": [("88.89", "56 of 63"), ("12.5", "stays inside")],
    "ex-lab07-overlap": [("78.64", "all 80"), ("0.9375", "MiB"), ("0.5243", "2(n-1)/n"), ("1.0486", "(n-1)/n"),
                         ("0.983", "Correct")],
    "ex-lab07-dedup": [("2", "3.63"), ("3.2", "NVLink / InfiniBand"), ("1.511", "without the node limit"),
                       ("2.2", "Correct")],
    "ex-lab07-spark": [("535.6", "two, after"), ("700.8", "two steps"), ("782.1", "Bits vs bytes"),
                       ("4.25", "252 of them"), ("4.251", "pipeline split"), ("1071", "Correct")],
    "ex-pipe": [("192.3", "t_det/T alone"), ("196.3", "4,096-byte payload"), ("193.3", "Correct")],
    "ex-gbn": [("82.4", "(1 - p)^K"), ("80.7", "1 - Kp"), ("99.9", "selective repeat"), ("83.8", "Correct")],
    "ex-qps": [("16384", "itself"), ("4095", "one QP per peer"), ("16,380", "Correct")],
    "ex-rto": [("10.16", "timeout alone"), ("1.153", "Bits vs bytes"), ("9.22", "Correct")],
    "ex-lab09-db": [("5.5", "Decibels subtract"), ("7.94", "10^(dB/20)"), ("18", "gap in decibels"),
                    ("63.1", "Correct")],
    "ex-lab09-pjbit": [("5.625", "engine alone"), ("1.8", "SerDes alone"), ("59.4", "Bits vs bytes")],
    "ex-lab09-lasers": [("0.2", "per hour"), ("4800", "10^9"), ("0.2 per hour", "Correct"),
                        ("4.8 per hour", "Per hour vs per day"), ("4.8/day", "Correct")],
    "ex-lab09-tbs": [("102.4", "Bits vs bytes"), ("25.6", "bidirectional"), ("102.4 Tb/s", "Correct")],
    "ex-lab10-rtt": [("244.8", "one-way"), ("245", "one-way"), ("333.6", "vacuum"), ("979.3", "2x too large"),
                     ("489.7", "Correct")],
    "ex-lab10-bdp": [("783.5", "Bits vs bytes"), ("783", "Bits vs bytes"), ("48.97", "one-way"),
                     ("66.7", "vacuum"), ("97.9", "Correct")],
    "ex-lab10-window": [("20.4", "Bits vs bytes"), ("326.7", "one-way"), ("800", "line rate"), ("163", "Correct")],
    "ex-lab10-buffer": [("3.67", "(n - 1)"), ("1.224", "two-sender"), ("19.6", "Bits vs bytes"),
                        ("2.45", "Correct")],
    "ex-lab10-pfc": [("4.90", "one way"), ("19.59", "twice"), ("17.28", "17.28 ns"), ("10.04", "response time"),
                     ("78.3", "Bits vs bytes"),
                     ("9.79", "Correct")],
    "ex-lab11-overlap": [("88.2", "last one"), ("99.4", "queue"), ("16.5", "4ND"), ("0.11", "Percent vs fraction"),
                         ("11.0", "Correct"), ("89", "share exposed"), ("88.98", "share exposed"), ("88", "last one")],
    "ex-lab11-rails": [("33.3", "switches only"), ("50", "optics only"), ("60.8", "one minus"), ("39.2", "Correct")],
    "ex-lab09-young": [("13.6", "16,384"), ("3.90", "2 C M"), ("5.2", "Daly"), ("5.5", "Correct"),
                       ("5.5 h", "Minutes vs hours?"), ("19800 s", "Minutes vs hours?"), ("0.23 d", "Minutes vs hours?"),
                       ("330", "Seconds vs minutes?"), ("330 s", "Correct")],
    "ex-lab11-bubble": [("87.5", "8 micro-batches"), ("50", "(p - 1)/m"), ("37.5", "pp = 4"),
                        ("0.4375", "Percent vs fraction"), ("43.75", "Correct")],
    "ex-lab11-energy": [("4.93", "IT energy"), ("4.9", "IT energy"), ("0.325", "multiply by 24"),
                        ("7790", "MWh"), ("12.31", "PUE"), ("7.46", "failure-free"), ("7790 MWh", "Correct"),
                        ("7,790 MWh", "Correct"), ("7.8", "Correct"), ("7.5", "failure-free"),
                        ("7.77", "Correct")],   # 7.75 MW of IT power lies inside the tolerance (lab 11 says so)
}


@dataclass(frozen=True)
class SiteExercise:
    page: str
    key: str
    spec: dict
    cell_classes: tuple[str, ...]    # classes of the enclosing <div>s, innermost first
    tables: dict | None = None       # the checker's tables the form carries (None: it carries none)
    variant: int = 0                 # which variant of a varied exercise (0: the lab's own numbers)
    prompt: str = ""                 # the question of that variant
    variants: tuple = ()             # a varied exercise's variants as its page carries them (variant 0 only)


class _Finder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.found: list[dict] = []
        self.depth = -1                  # depth of the exercise <div> being read, -1 outside one
        self.tables: list[str] | None = None
        self.variants: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = a.get("class") or ""
        if tag == "script" and self.depth >= 0 and "netlab-exercise-tables" in classes.split():
            self.tables = []
        if tag == "script" and self.depth >= 0 and "netlab-exercise-variants" in classes.split():
            self.variants = []
        if tag != "div":
            return
        if "netlab-exercise" in classes.split():
            self.found.append({"key": a.get("data-key", ""), "spec": a.get("data-spec", ""),
                               "classes": tuple(reversed(self.stack)), "tables": None, "variants": None})
            self.depth = len(self.stack)
        self.stack.append(classes)

    def handle_data(self, data):
        if self.tables is not None:
            self.tables.append(data)
        if self.variants is not None:
            self.variants.append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self.tables is not None:
            self.found[-1]["tables"] = "".join(self.tables)
            self.tables = None
        if tag == "script" and self.variants is not None:
            self.found[-1]["variants"] = "".join(self.variants)
            self.variants = None
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
            variants = tuple(json.loads(f["variants"])) if f["variants"] else ()
            out.append(SiteExercise(page, f["key"], json.loads(html.unescape(f["spec"])), f["classes"], tables,
                                    variants=variants))
    return out


def variant_spec(delta: dict, base: dict) -> dict:
    """A variant's full spec from the delta its page carries (written again here, not netlab's code): an
    int is variant 0's slip at that index; a slip marked whole is complete; any other slip takes the text
    of variant 0's slip at the same place."""
    slips = []
    for i, slip in enumerate(delta["slips"]):
        if isinstance(slip, int):
            slips.append(dict(base["slips"][slip]))
        elif slip.get("whole"):
            slips.append({k: v for k, v in slip.items() if k != "whole"})
        else:
            slips.append({**slip, "text": base["slips"][i]["text"]})
    return {"answer": delta["answer"], **{k: delta.get(k, base[k]) for k in ("rel_tol", "unit", "quantity", "scale")},
            "slips": slips}


def site_variants(root: Path) -> list[SiteExercise]:
    """Every variant of every exercise of the built site (an exercise with no variants is its variant 0)."""
    out = []
    for ex in site_exercises(root):
        if not ex.variants:
            out.append(ex)
            continue
        for i, v in enumerate(ex.variants):
            out.append(SiteExercise(ex.page, ex.key, variant_spec(v["spec"], ex.spec), ex.cell_classes, ex.tables,
                                    variant=i, prompt=v["prompt"]))
    return out


def variant_tempting(ex: SiteExercise) -> list[tuple[str, str]]:
    """The tempting wrong values a variant names (its own wrong answers), as typed, with the first words
    of their message: for a variant other than the lab's own, the values its page carries."""
    return [(repr(s["value"]), s["text"][:30]) for s in ex.spec["slips"] if "value" in s and s["text"] not in
            {text for _, text in _value_slip_texts(ex.spec)}]


def _value_slip_texts(spec: dict) -> list[tuple[float, str]]:
    """Slips of values netlab derives from the answer itself (decibels, ratios), not a lab's own."""
    words = ("That is 10^(dB", "That is the gap", "That is the linear", "The ratio upside down", "That looks like")
    return [(s["value"], s["text"]) for s in spec["slips"] if "value" in s and s["text"].startswith(words)]


def _own_texts(spec: dict) -> list[str]:
    """Texts of the slips an exercise declares itself (not in the common vocabulary)."""
    common = ("Bits vs bytes", "A prefix slip", "Binary vs decimal? 1 ", "A factor of 2", "One-way vs",
              "Percent vs", "Off by 16", "10 log10 vs", "That is 10^(dB", "That is the gap", "upside down",
              "That is the linear", "Seconds vs", "Minutes vs", "Hours vs")
    common += ("Per cent vs", "That looks like the increase", "Per second vs", "Per minute vs", "Per hour vs",
               "Per day vs")
    return [s["text"] for s in spec["slips"] if "text" in s and not s["text"].startswith(common)]


def _figures(x: float, k: int) -> tuple[str, str]:
    """x rounded (half up) and cut to k significant figures, as typed (from its 12-digit form)."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

    d = Decimal(f"{x:.11e}")
    step = Decimal(1).scaleb(d.adjusted() - k + 1)
    return (str(float(d.quantize(step, rounding=ROUND_HALF_UP))), str(float(d.quantize(step, rounding=ROUND_DOWN))))


def battery(ex: SiteExercise) -> list[tuple[str, str]]:
    """(label, typed text) pairs to try on ``ex``."""
    spec, a = ex.spec, ex.spec["answer"]
    kind = spec["quantity"]
    tries = [("right", repr(a)), ("right, rounded", f"{a:.5g}")]
    for k in (2, 3):
        half_up, cut = _figures(a, k)
        tries += [(f"rounded to {k} figures", half_up), (f"cut to {k} figures", cut)]
    if kind in OTHER_UNIT and spec.get("scale"):
        unit, scale = OTHER_UNIT[kind]
        tries.append(("right, other unit", f"{a * spec['scale'] / scale!r} {unit}"))
        tries.append(("wrong kind of unit", f"{a!r} {'ms' if kind != 'time' else 'MB'}"))
    for label, factor in (("x8", 8), ("x16", 16), ("x1000", 1000), ("x2", 2), ("x1.024", 1.024)):
        tries.append((label, repr(a * factor)))
        tries.append((label.replace("x", "/", 1), repr(a / factor)))
    if a > 0:
        tries.append(("voltage", repr(math.sqrt(a))))
    if kind == "percent":
        tries += [("fraction", repr(a / 100)), ("fraction, 2 figures", _figures(a / 100, 2)[0])]
    if kind == "ratio":
        tries.append(("factor as per cent", repr(a * 100)))
    if ex.variant == 0:
        tries += [("tempting", typed) for typed, _ in TEMPTING.get(ex.key, [])]
    else:
        tries += [("own slip", typed) for typed, _ in variant_tempting(ex)]
    rng = random.Random(ex.key)
    while True:       # a wrong answer that is no slip: 2.6-6x off, away from every slip listed
        r = math.exp(rng.uniform(math.log(2.6), math.log(6.0))) ** rng.choice((1, -1))
        centers = [s["value"] / a if "value" in s else s["factor"] for s in spec["slips"] if "rounding" not in s]
        centers += [1 / s["factor"] for s in spec["slips"] if "factor" in s]
        if all(abs(r / c - 1) > 0.15 for c in centers if c > 0):
            break
    tries.append(("random", repr(a * r)))
    return tries


def problems(ex: SiteExercise, label: str, typed: str, correct: bool, message: str) -> list[str]:
    """What is wrong with the verdict (correct, message) on ``typed``; empty when it is right."""
    spec = ex.spec
    kind, tol = spec["quantity"], spec["rel_tol"]
    where = f"{ex.page} {ex.key} variant {ex.variant} ({kind}, ±{tol:g}): {label} {typed!r} -> {message!r}"
    own = any(t in message for t in _own_texts(spec))
    out = []
    if label.startswith("right"):
        return [] if correct else [f"{where}: the right answer is refused"]
    if label.startswith("rounded to"):      # never a slip's name (issue 31)
        return [] if correct or message.startswith(ROUNDED) else [f"{where}: a rounded answer gets a slip's name"]
    if label.startswith("cut to"):          # or the lab's own wrong value, if the lab names it, and the cut too
        k = int(label.split()[2])
        if correct:
            return []
        if typed in {_figures(spec["answer"], j)[0] for j in range(1, k + 1)}:     # also the answer rounded
            ok = message.startswith(ROUNDED) or (own and OR_ROUNDED in message)
        else:                                                                     # cut, not rounded (F2)
            ok = message.startswith(CUT) or (own and OR_CUT in message)
        return [] if ok else [f"{where}: a cut answer is not told to round, or gets only a slip's name"]
    if label == "own slip":
        phrase = dict(variant_tempting(ex))[typed]
        return [] if not correct and phrase in message else [f"{where}: the variant's own slip is not named ({phrase!r})"]
    if label == "tempting":
        phrase = dict(TEMPTING[ex.key])[typed]
        if phrase == "Correct":
            return [] if correct else [f"{where}: the lab's answer is refused"]
        return [] if not correct and phrase in message else [f"{where}: the lab intends a message with {phrase!r}"]
    if label.startswith("fraction"):
        return [] if "Percent vs fraction?" in message else [f"{where}: a fraction for a percentage is not told so"]
    if label == "factor as per cent":
        return [] if own or "Per cent vs factor?" in message else [f"{where}: a percentage for a factor is not told so"]
    given = float(typed) if label != "wrong kind of unit" else math.nan
    if message.startswith((ROUNDED, CUT)) and typed in {t for k in (1, 2, 3) for t in _figures(spec["answer"], k)}:
        return []                      # a slip that lands on the answer rounded (200 for 204.8): told to keep digits
    if correct and abs(given / spec["answer"] - 1) <= tol:
        return []                      # a small factor inside a wide tolerance (separation_problems says so)
    if correct:
        return [f"{where}: a wrong answer is accepted"]
    if label == "wrong kind of unit":
        return [] if "but this answer is" in message else [f"{where}: the wrong unit is not explained"]
    slip = label.replace("/", "x", 1)
    calendar = spec["unit"] in CALENDAR
    named = {"x8": kind in BITS_BYTES, "x16": kind in BINARY, "x1000": kind in PREFIXED and not calendar,
             "x1.024": kind in BINARY, "x2": True, "voltage": kind == "db_ratio"}.get(slip)
    if named is True and not own:
        needle = {"x8": "8x too", "x16": "16x too", "x1000": "1000x too", "x2": "2x too", "x1.024": "1.024x too",
                  "voltage": "10^(dB/20)"}[slip]
        if needle not in message:
            out.append(f"{where}: the slip {slip} is not named")
        if slip == "x2" and kind == "rate" and "bidirectional" not in message:
            out.append(f"{where}: x2 on a rate should suggest one-way vs bidirectional")
    if named is False and slip in COMMON_WORDS and COMMON_WORDS[slip] in message:
        out.append(f"{where}: a {kind} cannot make the slip {slip}, but the message suggests it")
    if slip == "x2" and calendar and ("round trip" in message or "bidirectional" in message):
        out.append(f"{where}: a number of days has no round trip or direction")
    if label == "random" and ("x too" in message or own or "Not yet: your answer is too" not in message):
        out.append(f"{where}: a random wrong answer is explained as a slip")
    return out


def separation_problems(ex: SiteExercise) -> list[str]:
    """Slips whose value falls within the exercise's tolerance (the checker would call them right)."""
    spec, a, tol = ex.spec, ex.spec["answer"], ex.spec["rel_tol"]
    out = []
    for s in spec["slips"]:
        if "rounding" in s:
            continue
        for center in ([s["value"] / a] if "value" in s else [s["factor"], 1 / s["factor"]]):
            if abs(center - 1) <= tol:
                out.append(f"{ex.page} {ex.key}: the slip {s['text']!r} is within ±{tol:g} of the answer")
    if spec["quantity"] in BINARY and tol >= 0.024:
        out.append(f"{ex.page} {ex.key}: ±{tol:g} accepts a KiB-for-KB slip (1.024x) as correct")
    return out
