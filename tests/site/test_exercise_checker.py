"""The browser checker (_static/netlab-exercise.js) gives the verdicts of the Python checker.

A minimal local page loads the script; Chromium runs it on the shared table of typed answers
(tests/data/exercise_cases.json) and, when the site is built, on every exercise of the book with
the answers of :mod:`tests.site.exercise_battery`. Each message must equal Python's, word for word.
"""

from __future__ import annotations

import json
import shutil
import tempfile

import pytest

from netlab import exercises
from tests.site import browser_checks, exercise_battery as eb
from tests.site.sitefiles import ROOT, SiteServer
from tests.test_exercises import CASES, case_exercise

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Checker</title>
<link rel="icon" href="data:,"><script src="netlab-exercise.js"></script></head>
<body><main>{form}</main></body></html>"""


@pytest.fixture(scope="module")
def checker_page(browser_required, tmp_path_factory):
    """A page with the checker script and one exercise form, open in headless Chromium."""
    from playwright.sync_api import sync_playwright

    root = tmp_path_factory.mktemp("checker")
    shutil.copy(ROOT / "_static" / "netlab-exercise.js", root / "netlab-exercise.js")
    form = case_exercise("serialize-ns")._repr_html_()
    (root / "index.html").write_text(PAGE.format(form=form), encoding="utf-8")
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server, sync_playwright() as pw:
            context = pw.chromium.launch_persistent_context(
                profile, executable_path=browser_checks.CHROMIUM, headless=True, args=browser_checks.CHROMIUM_ARGS)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(server.base_url + "index.html")
            page.wait_for_function("() => window.netlabExercise !== undefined")
            yield page
            context.close()
            assert not errors, errors
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _js_verdicts(page, pairs):
    return page.evaluate("pairs => pairs.map(([spec, text]) => window.netlabExercise.verdict(spec, text))", pairs)


def test_browser_agrees_with_python_on_the_shared_table(checker_page):
    pairs = [[case_exercise(c["exercise"]).spec(), c["input"]] for c in CASES["cases"]]
    disagree = []
    for case, (spec, text), (correct, message) in zip(CASES["cases"], pairs, _js_verdicts(checker_page, pairs)):
        py = exercises.check_spec(spec, text)
        if (correct, message) != (py.correct, py.message):
            disagree.append(f"{case['exercise']} {text!r}: browser {message!r}, Python {py.message!r}")
        if correct is not case["correct"] or not all(p in message for p in case.get("says", [])) \
                or any(p in message for p in case.get("not_says", [])):
            disagree.append(f"{case['exercise']} {text!r}: browser says {message!r}, expected {case}")
    assert not disagree, "\n".join(disagree)


def test_browser_reads_pythons_tables_from_the_page(checker_page):
    tables = checker_page.evaluate("() => window.netlabExercise.tables()")
    assert tables == json.loads(json.dumps(exercises.checker_tables()))
    assert tables["units"] == {u: list(v) for u, v in exercises.UNITS.items()}
    assert tables["quantities"] == exercises.QUANTITIES and tables["messages"] == exercises.MESSAGES


def test_a_page_opened_from_disk_checks_with_the_tables_it_carries(checker_page, tmp_path, monkeypatch):
    # The page is a file (file://, no server), as a reader's saved copy of the book; its form carries
    # altered tables (a message, a unit phrase, a quantity's name, a new unit), so the verdicts below
    # can only come from the JSON in the page, never from a table in the script.
    monkeypatch.setenv("NETLAB_STATIC_WIDGETS", "1")             # the book's form: the script from a file
    monkeypatch.setitem(exercises.MESSAGES, "sign", "Negative? Check the sign.")
    monkeypatch.setitem(exercises.UNIT_PHRASES, "space_unit", " [{unit}]")
    monkeypatch.setitem(exercises.QUANTITIES, "data", "an amount of data")
    monkeypatch.setitem(exercises.UNITS, "fortnight", ("time", 1209600.0))
    ex = case_exercise("serialize-ns")
    shutil.copy(ROOT / "_static" / "netlab-exercise.js", tmp_path / "netlab-exercise.js")
    (tmp_path / "index.html").write_text(PAGE.format(form=ex._repr_html_()), encoding="utf-8")
    page = checker_page.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto((tmp_path / "index.html").as_uri())
        page.wait_for_function("() => window.netlabExercise !== undefined")
        for typed, words in (("-327.68", "Negative? Check the sign."), ("327.68", "Correct: 327.7 [ns]."),
                             ("327 MB", "is an amount of data"), ("1 fortnight", "1 fortnight = 1.2096e15 ns.")):
            page.fill(".netlab-exercise-input", typed)
            page.click(".netlab-exercise-check")
            shown = page.locator(".netlab-exercise-feedback").text_content()
            assert shown == ex.check(typed).message and words in shown, (typed, shown)
    finally:
        page.close()
    assert not errors, errors


def test_browser_formats_numbers_as_python(checker_page):
    xs = [327.68, 65532, 1234.5, 0.00123456, 3.2e-6, 1e9, 9.99996, -2.5, 1.048576, 5e-324, 1.7976931348623157e308,
          0.125, 2.5, 1e-4, 9.9995e8, 123456789.5]
    for digits in (3, 4):
        got = checker_page.evaluate(f"xs => xs.map(x => window.netlabExercise.fmt(x, {digits}))", xs)
        assert got == [exercises.fmt(x, digits) for x in xs]


def test_the_form_on_the_page_checks_a_typed_answer(checker_page):
    for typed, css in (("0.32768 us", "correct"), ("327,68", "correct"), ("327 MB", "wrong")):
        checker_page.fill(".netlab-exercise-input", typed)
        checker_page.click(".netlab-exercise-check")
        feedback = checker_page.locator(".netlab-exercise-feedback")
        assert css in feedback.get_attribute("class")
        assert feedback.text_content() == case_exercise("serialize-ns").check(typed).message


def test_browser_agrees_with_python_on_every_exercise_of_the_book(checker_page, site_root):
    book = eb.site_exercises(site_root)
    assert len(book) >= 30
    tries = [(ex, label, text) for ex in book for label, text in eb.battery(ex)]
    verdicts = _js_verdicts(checker_page, [[ex.spec, text] for ex, _, text in tries])
    trouble = []
    for (ex, label, text), (correct, message) in zip(tries, verdicts):
        py = exercises.check_spec(ex.spec, text)
        if (correct, message) != (py.correct, py.message):
            trouble.append(f"{ex.key} {label} {text!r}: browser {message!r}, Python {py.message!r}")
        trouble += eb.problems(ex, label, text, correct, message)
    assert not trouble, "\n".join(trouble)


def test_browser_agrees_with_python_on_random_text(checker_page):
    # typed junk and near-numbers made of the characters the reader handles (seeded: reproducible)
    import random

    rng = random.Random(20261203)
    specs = [case_exercise(name).spec() for name in ("serialize-ns", "fat-tree", "db-ratio", "busbw-gbs", "paths-pct",
                                                     "energy-gwh", "lasers-day", "breakeven", "qps", "bubble-pct")]
    pieces = list("0123456789") * 3 + list(".,_' eE+-x×^*%") + ["ns", " us", "µs", " MB", "Gb/s", " GPUs", "mb",
                                                               "\u00a0", "\u2212", "10^", " dB", " x", "KiB",
                                                               " MWh", " per hour", "/h", " TJ", " per day"]
    pairs = [[rng.choice(specs), "".join(rng.choice(pieces) for _ in range(rng.randint(0, 9)))] for _ in range(3000)]
    pairs += [[rng.choice(specs), f"{10 ** rng.uniform(-8, 8):.{rng.randint(1, 7)}g}"] for _ in range(1000)]
    # answers of every kind rounded and cut by hand to 1-4 figures, against tolerances of 0.01-5 %
    units = ["KB", "Gb/s", "ns", "days", "%", "x", "GPUs", "GWh", "per day", "W", "pJ/bit", "dB"]
    for _ in range(600):
        answer = rng.uniform(1, 10) * 10.0 ** rng.randint(-5, 8)
        spec = exercises.numeric("ex", "q", answer=answer, unit=rng.choice(units),
                                 rel_tol=rng.choice([1e-4, 0.002, 0.005, 0.01, 0.02, 0.05])).spec()
        digits = f"{answer:.3e}".split("e")
        for k in (1, 2, 3, 4):
            pairs.append([spec, f"{float(digits[0]):.{k - 1}f}e{digits[1]}"])
            pairs.append([spec, f"{int(float(digits[0]) * 10 ** (k - 1)) / 10 ** (k - 1)}e{digits[1]}"])
    disagree = []
    for (spec, text), (correct, message) in zip(pairs, _js_verdicts(checker_page, pairs)):
        py = exercises.check_spec(spec, text)
        if (correct, message) != (py.correct, py.message):
            disagree.append(f"{text!r}: browser {message!r}, Python {py.message!r}")
    assert not disagree, "\n".join(disagree[:20])


def test_browser_agrees_with_python_on_every_variant(checker_page, site_root):
    # the browser rebuilds each variant's spec from the page's delta (variantSpec) and checks on it
    book = [ex for ex in eb.site_exercises(site_root) if ex.variants]
    assert book
    rebuilt = checker_page.evaluate("items => items.map(([d, b]) => window.netlabExercise.variantSpec(d, b))",
                                    [[v["spec"], ex.spec] for ex in book for v in ex.variants])
    expected = [eb.variant_spec(v["spec"], ex.spec) for ex in book for v in ex.variants]
    assert rebuilt == expected
    variants = [v for v in eb.site_variants(site_root) if v.prompt]
    tries = [(ex, label, text) for ex in variants for label, text in eb.battery(ex)]
    verdicts = _js_verdicts(checker_page, [[ex.spec, text] for ex, _, text in tries])
    trouble = [f"{ex.key} v{ex.variant} {label} {text!r}: browser {message!r}, Python {py.message!r}"
               for (ex, label, text), (correct, message) in zip(tries, verdicts)
               if (correct, message) != ((py := exercises.check_spec(ex.spec, text)).correct, py.message)]
    assert not trouble, "\n".join(trouble[:20])


def test_browser_picks_the_variant_python_picks(checker_page):
    names = ["Ada Lovelace", "  alan   TURING ", "Grace Hopper", "s1234567", "Zoë Ångström", "李雷", ""]
    pairs = [[name, key, n] for name in names for key in ("ex-bdp", "ex-gbn") for n in (1, 4, 16)]
    got = checker_page.evaluate("ps => ps.map(([a, k, n]) => window.netlabExercise.variantIndex(a, k, n))", pairs)
    assert got == [exercises.variant_index(a, k, n) for a, k, n in pairs]
    assert checker_page.evaluate("() => window.netlabExercise.stableHash('foobar')") == 0xBF9CF968   # FNV-1a vector
