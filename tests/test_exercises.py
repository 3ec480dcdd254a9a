"""Exercise checking: right answers pass, classic slips are named, junk is refused."""

import math

import pytest

from netlab import exercises, links
from tests.sweep import assert_rejects

def _ex():
    return exercises.numeric("ex", "4 KiB at 100 Gb/s in ns", answer=327.68, unit="ns")


def test_correct_within_tolerance():
    assert _ex().check(327.68).correct
    assert _ex().check("330").correct         # within 2 %
    assert not _ex().check(340).correct


@pytest.mark.parametrize("factor, word", [(8, "Bits vs bytes"), (1 / 8, "Bits vs bytes"),
                                          (2, "bidirectional"), (1000, "prefix"),
                                          (1.024, "Binary vs decimal")])
def test_slips_are_named(factor, word):
    feedback = _ex().check(327.68 * factor)
    assert not feedback.correct and word in feedback.message


def test_non_numbers_are_refused_politely():
    for junk in ["abc", None, math.nan, True]:
        assert not _ex().check(junk).correct


def test_text_with_separators_is_read():
    ex = exercises.numeric("ex", "KB in flight", answer=400_000)
    assert ex.check("400,000").correct


def test_bad_definitions_raise():
    with pytest.raises(ValueError, match="answer"):
        exercises.numeric("ex", "q", answer=0)
    with pytest.raises(ValueError, match="rel_tol"):
        exercises.numeric("ex", "q", answer=1, rel_tol=0)
    assert_rejects(exercises.numeric, dict(key="k", prompt="q", answer=1.0), "answer", math.nan)


def test_html_form_carries_the_answer_for_the_browser():
    import html as html_lib
    import json
    import re

    form = exercises.numeric("ex-s", "q", answer=links.serialization_time(4096, 1e11) / 1e-9)._repr_html_()
    spec = json.loads(html_lib.unescape(re.search(r'data-spec="([^"]*)"', form).group(1)))
    assert spec["answer"] == pytest.approx(327.68) and spec["rel_tol"] == 0.02


def test_live_form_carries_its_script_and_book_form_does_not(monkeypatch):
    ex = exercises.numeric("ex-q", "q", answer=1.0)
    monkeypatch.setenv("NETLAB_STATIC_WIDGETS", "0")
    assert "<script>" in ex._repr_html_() and "netlab-exercise" in ex._repr_html_()
    monkeypatch.setenv("NETLAB_STATIC_WIDGETS", "1")
    assert "<script>" not in ex._repr_html_()
