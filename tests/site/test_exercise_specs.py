"""Every exercise of the built book: right answers pass, slips are named only where the quantity
can make them, tolerances separate the answer from every slip, and the cells that compute the
answer are hidden, and every form carries netlab's checker tables. Reads the ``data-spec`` and the
tables of each exercise in the built HTML (no notebook runs)."""

import json

import pytest

from netlab import exercises
from tests.site import exercise_battery as eb

pytestmark = pytest.mark.site


@pytest.fixture(scope="module")
def book_exercises(site_root):
    found = eb.site_exercises(site_root)
    assert len(found) >= 30, f"only {len(found)} exercises found in the built site"
    return found


def test_every_exercise_answers_right_slips_and_random_answers(book_exercises):
    trouble, tried = [], 0
    for ex in book_exercises:
        for label, typed in eb.battery(ex):
            feedback = exercises.check_spec(ex.spec, typed)
            trouble += eb.problems(ex, label, typed, feedback.correct, feedback.message)
            tried += 1
    assert tried >= 20 * len(book_exercises)      # 12-14 inputs each before issue 31
    assert not trouble, "\n".join(trouble)


def test_every_exercise_has_the_tempting_values_of_its_lab(book_exercises):
    # the battery tries each exercise's named wrong values: a new exercise lists its own in eb.TEMPTING
    missing = sorted({ex.key for ex in book_exercises} - set(eb.TEMPTING))
    unknown = sorted(set(eb.TEMPTING) - {ex.key for ex in book_exercises})
    assert not missing and not unknown, (missing, unknown)


def test_every_tolerance_separates_the_answer_from_each_slip(book_exercises):
    trouble = [p for ex in book_exercises for p in eb.separation_problems(ex)]
    assert not trouble, "\n".join(trouble)


def test_every_exercise_carries_the_checker_tables_of_netlab(book_exercises):
    # the browser checker has no table of its own: it reads these (issue 30)
    tables = json.loads(json.dumps(exercises.checker_tables()))
    wrong = [f"{ex.page} {ex.key}: {'no tables' if ex.tables is None else 'tables differ from netlab'}"
             for ex in book_exercises if ex.tables != tables]
    assert not wrong, wrong


def test_exercise_keys_are_unique_on_each_page(book_exercises):
    pairs = [(ex.page, ex.key) for ex in book_exercises]
    assert len(pairs) == len(set(pairs))


def test_every_exercise_cell_hides_its_input_in_the_book(book_exercises):
    # the cell that builds the checker computes the answer: the book collapses it (tag hide-input)
    shown = [f"{ex.page} {ex.key}" for ex in book_exercises
             if not any("tag_hide-input" in c.split() for c in ex.cell_classes)]
    assert not shown, shown


def _one(book_exercises, key):
    matches = [ex for ex in book_exercises if ex.key == key]
    assert len(matches) == 1, f"{key}: {len(matches)} exercises"
    return matches[0]


@pytest.mark.parametrize("key, typed, phrase", [
    ("ex-lab07-crossover", "19", "bidirectional"),           # was "too high (by a factor of 1.9)"
    ("ex-lab09-db", "7.94", "10^(dB/20)"),                   # was "8x too small. Bits vs bytes?"
    ("ex-lab09-db", "5.5", "Decibels subtract"),
    ("ex-paths-used", "63.2", "1 - 1/e"),                    # was accepted as correct (1 % tolerance)
    ("ex-paths-used", "60", "Close, but rounded too far"),   # was "1 GiB = 2^30 B"
    ("ex-bisection", "200", "Close, but rounded too far"),   # was "1.024x too small. Binary vs decimal?" (review L1)
    ("ex-crossover", "1.5", "Close, but rounded too far"),   # was the KiB hint (review L1)
    ("ex-rto", "10.16", "timeout alone"),                     # was "1 TiB = 2^40 B" (review L1)
    ("ex-qps", "16384", "itself"),                           # was "Close… check rounding" (review L1)
    ("ex-weights", "85.9", "80 GiB"),                        # was "Close … check rounding" (review N5)
    ("ex-incast", "85.23", "64 KiB"),                        # was "Close … check rounding" (review N5)
    ("ex-gdr", "30", "seed"),                     # was "Re-read the units of each input" (review N5)
    ("ex-gdr", "66.2", "400 Gb/s"),                          # was "a term counted twice" (review N5)
    ("ex-pingpong", "11.45", "kernel"),                  # was "Re-read the units" (review N5)
    ("ex-lab09-lasers", "4.8 per hour", "Per hour vs per day"),   # was "could not read the unit" (review N11)
    ("ex-lab11-bubble", "87.5", "8 micro-batches"),          # the hint read "4,608 / 64 replicas" (review N11)
])
def test_the_slips_the_solutions_name_are_detected(book_exercises, key, typed, phrase):
    feedback = exercises.check_spec(_one(book_exercises, key).spec, typed)
    assert not feedback.correct and phrase in feedback.message, feedback.message


@pytest.mark.parametrize("key, typed", [("ex-lab10-rtt", "3917"), ("ex-lab10-rtt", "61.21"),
                                        ("ex-lab11-overlap", "1.378")])   # 11.02 % / 8: a share, no byte
def test_a_time_with_no_byte_in_it_is_never_told_about_bits(book_exercises, key, typed):
    # x8 on a fibre delay or on days was "Bits vs bytes? ... link rates are in bits per second" (review N11)
    feedback = exercises.check_spec(_one(book_exercises, key).spec, typed)
    assert not feedback.correct and "bits" not in feedback.message.lower(), feedback.message
    assert "by a factor of 8" in feedback.message


@pytest.mark.parametrize("key, typed, echo", [("ex-lab11-energy", "7790 MWh", "7790 MWh = 7.79"),
                                              ("ex-lab09-lasers", "0.2 per hour", "0.2 per hour = 4.8 per day.")])
def test_energies_and_numbers_per_hour_are_read(book_exercises, key, typed, echo):
    # "8005 MWh" and "4.8 per hour" were "I could not read the unit" (review N11)
    feedback = exercises.check_spec(_one(book_exercises, key).spec, typed)
    assert feedback.correct and feedback.message.startswith(echo), feedback.message


def test_the_book_collapses_hidden_inputs(site_root, book_exercises):
    # myst-nb puts the source of a hide-input cell in a closed <details> above the output
    import re

    for page in sorted({ex.page for ex in book_exercises}):
        text = (site_root / page).read_text(encoding="utf-8")
        cells = re.findall(r'<div class="cell tag_hide-input[^"]*">\s*(<[^>]*>)', text)
        assert cells, page
        for first in cells:
            assert re.match(r'<details class="[^"]*\bhide above-input"', first) and " open" not in first, (page, first)


@pytest.fixture(scope="module")
def book_variants(site_root):
    return eb.site_variants(site_root)


def test_every_variant_of_every_exercise_passes_the_battery(book_exercises, book_variants):
    # an exercise of one's own (issue 34): each variant's answer is accepted and separated from its own
    # slips and from the common ones, as the lab's own numbers are
    varied = [ex for ex in book_exercises if ex.variants]
    # issue 34's floor: at least half of all the book's exercises have at least 16 variants
    many = [ex.key for ex in varied if len(ex.variants) >= 16]
    assert 2 * len(many) >= len(book_exercises), (len(many), len(book_exercises))
    assert len(book_variants) == sum(max(1, len(ex.variants)) for ex in book_exercises)
    trouble, tried = [], 0
    for ex in book_variants:
        trouble += eb.separation_problems(ex)
        for label, typed in eb.battery(ex):
            feedback = exercises.check_spec(ex.spec, typed)
            trouble += eb.problems(ex, label, typed, feedback.correct, feedback.message)
            tried += 1
    assert tried >= 20 * len(book_variants)
    assert not trouble, "\n".join(trouble[:40])


def test_variants_differ_and_variant_0_is_the_page_default(book_exercises, book_variants):
    for ex in book_exercises:
        if not ex.variants:
            continue
        mine = [v for v in book_variants if v.page == ex.page and v.key == ex.key]
        assert mine[0].spec == ex.spec, ex.key                       # variant 0 is what the page shows first
        answers = [v.spec["answer"] for v in mine]
        prompts = [v.prompt for v in mine]
        assert len(set(prompts)) == len(prompts), ex.key            # each variant asks with other numbers
        assert len(set(answers)) >= len(answers) // 2, ex.key       # and mostly gets another answer


def test_the_instructor_guide_lists_every_variants_answer(site_root, book_variants):
    guide = (site_root / "book" / "appendix-instructor-guide.html").read_text(encoding="utf-8")
    import html as html_lib
    for ex in book_variants:
        if ex.prompt:
            row = f"<td>{ex.variant}</td><td>{html_lib.escape(ex.prompt)}</td><td>{exercises.fmt(ex.spec['answer'])}"
            assert row in guide, row
