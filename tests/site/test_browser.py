"""The built site in headless Chromium, with the network blocked: every page, every widget.

``site_report`` visits every page once (see ``browser_checks``); each test here
reads one part of that visit, so a failure names the page and the problem.
"""

import pytest

from tests.site.sitefiles import content_pages

pytestmark = pytest.mark.browser


def _problems(site_report, page, category):
    report = site_report.pages.get(page)
    assert report is not None, f"{page} was not visited"
    return "\n".join(report.problems[category])


def test_every_page_was_visited(site_root, site_report):
    assert sorted(site_report.pages) == content_pages(site_root)


def test_page_loads_cleanly_offline(site_report, content_page):
    """No console error, no JavaScript error, no failed request, no request to another host."""
    assert not (p := _problems(site_report, content_page, "load")), p


def test_figures_load_and_have_alt_text(site_report, content_page):
    assert not (p := _problems(site_report, content_page, "figures")), p


def test_math_is_typeset(site_report, content_page):
    assert not (p := _problems(site_report, content_page, "math")), p


def test_no_serious_accessibility_violations(site_report, content_page):
    """axe-core (bundled, run in the page): no violation of impact serious or critical."""
    assert not (p := _problems(site_report, content_page, "accessibility")), p


def test_explorers_move_without_a_kernel(site_report, content_page):
    """Each control of each kernel-free explorer, moved from the keyboard, changes the figure."""
    assert not (p := _problems(site_report, content_page, "explorers")), p


def test_exercise_checkers_give_feedback(site_report, content_page):
    assert not (p := _problems(site_report, content_page, "exercises")), p


def test_solutions_stay_hidden_until_clicked(site_report, content_page):
    assert not (p := _problems(site_report, content_page, "solutions")), p


def test_dark_mode_keeps_figures_and_math_readable(site_report, content_page):
    assert not (p := _problems(site_report, content_page, "dark")), p


def test_every_page_fits_a_phone_in_light_and_dark(site_report, content_page):
    """At 390 px, light and dark: no sideways page, wide things in a scrolling (and tables in a framed) box,
    diagram text at least 11 px, a phone-sized title, a lab's predict-first result hidden until asked."""
    assert not (p := _problems(site_report, content_page, "phone")), p


def test_search_finds_a_term(site_report):
    assert not site_report.search, "\n".join(site_report.search)


def test_the_book_has_widgets_exercises_and_solutions(site_report):
    """The interactive checks above ran on something: the labs have explorers, checkers, solutions."""
    totals = {k: sum(r.counts.get(k, 0) for r in site_report.pages.values())
              for k in ("explorers", "exercises", "solutions", "math", "figures")}
    assert totals["explorers"] >= 1 and totals["exercises"] >= 3 and totals["solutions"] >= 3, totals
    assert totals["math"] >= 1, totals


def test_navigation_opens_on_phones_and_tablets(site_report):
    """Tapping the menu or contents button at 390 and 800 px opens the navigation; one search box at 1366 px,
    and the search field's magnifier leaves the typed text readable (``browser_checks.reader_layout``, on a
    chapter, in a browser of its own during the visit)."""
    assert site_report.layout is not None, "the reading layout was not checked"
    assert not site_report.layout, "\n".join(site_report.layout)


def test_the_registry_reads_on_a_phone(site_report):
    """The hardware registry at 390 px: no sideways scrolling and no table wider than the column
    (``browser_checks.phone_fit``, in a browser of its own during the visit)."""
    assert site_report.phone is not None, "the phone fit was not checked"
    assert not site_report.phone, "\n".join(site_report.phone)
