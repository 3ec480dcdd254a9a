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
    assert tried >= 12 * len(book_exercises)
    assert not trouble, "\n".join(trouble)


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
    ("ex-paths-used", "60", "Close, but outside"),           # was "1 GiB = 2^30 B"
])
def test_the_slips_the_solutions_name_are_detected(book_exercises, key, typed, phrase):
    feedback = exercises.check_spec(_one(book_exercises, key).spec, typed)
    assert not feedback.correct and phrase in feedback.message, feedback.message


def test_the_book_collapses_hidden_inputs(site_root, book_exercises):
    # myst-nb puts the source of a hide-input cell in a closed <details> above the output
    import re

    for page in sorted({ex.page for ex in book_exercises}):
        text = (site_root / page).read_text(encoding="utf-8")
        cells = re.findall(r'<div class="cell tag_hide-input[^"]*">\s*(<[^>]*>)', text)
        assert cells, page
        for first in cells:
            assert re.match(r'<details class="[^"]*\bhide above-input"', first) and " open" not in first, (page, first)
