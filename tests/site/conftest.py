"""Fixtures for the site checks: the built site, its pages (discovered), and one browser visit of each.

Static checks (marker ``site``) need only the built HTML. Browser checks (marker
``browser``) visit every page once in headless Chromium (``browser_checks``) and
each test reads its part of that visit's report, so the whole suite costs one
browser session. Without Chromium the browser checks are skipped with a plain
message, unless ``NETLAB_REQUIRE_BROWSER=1`` (CI), where that is a failure.
"""

from __future__ import annotations

import os

import pytest

from tests.site import browser_checks, notes
from tests.site.sitefiles import all_pages, content_pages, site_dir

SEARCH_TERM = "bandwidth"
PHONE_PAGES = ["book/appendix-registry.html"]   # the widest tables of the book


def layout_page(root) -> str:
    """The page whose navigation and search box are checked at phone, tablet and desktop width: a chapter."""
    return next(p for p in content_pages(root) if p.startswith("book/ch0"))


def pytest_configure(config):
    if not config.pluginmanager.is_registered(notes):
        config.pluginmanager.register(notes, "netlab-site-notes")


def _missing_site_message() -> str:
    return f"no built site in {site_dir()}: run `make book` first (or point NETLAB_SITE_DIR at the built html)"


def pytest_generate_tests(metafunc):
    """Parametrize over the pages the build produced (a new chapter is checked with no edit here)."""
    root = site_dir()
    for name, finder in (("page", all_pages), ("content_page", content_pages)):
        if name in metafunc.fixturenames:
            pages = finder(root)
            metafunc.parametrize(name, pages or [None], ids=pages or ["no-site"])


@pytest.fixture(scope="session")
def site_root():
    root = site_dir()
    if not all_pages(root):
        if os.environ.get("NETLAB_SITE_DIR"):
            pytest.fail(_missing_site_message(), pytrace=False)
        pytest.skip(_missing_site_message())
    return root


@pytest.fixture(scope="session")
def browser_required():
    """Skip (or, under NETLAB_REQUIRE_BROWSER=1, fail) when headless Chromium is not available."""
    reason = browser_checks.browser_missing()
    if reason:
        if os.environ.get("NETLAB_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}. NETLAB_REQUIRE_BROWSER=1 (CI) requires the browser tests.", pytrace=False)
        notes.add(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def site_report(site_root, browser_required):
    report = browser_checks.inspect_site(site_root, search_term=SEARCH_TERM,
                                         layout_page=layout_page(site_root), phone_pages=PHONE_PAGES)
    axe = "axe-core with its speed patches (NETLAB_AXE_FAST=1)" if browser_checks.axe_fast() else "axe-core as shipped"
    notes.add(f"browser checks: {len(report.pages)} pages visited in {report.seconds:.1f} s "
              f"(headless Chromium, {browser_checks.CONCURRENCY} pages at a time, {axe})")
    phone = sum(r.timings.get("phone", 0) + r.timings.get("phone dark", 0) for r in report.pages.values())
    notes.add(f"phone fit (390 px, light and dark) on every page: {phone:.1f} s of the visit, summed over pages")
    moves = sorted(t for r in report.pages.values() for t in r.widget_update_s)
    if moves:
        p95 = moves[min(len(moves) - 1, round(0.95 * (len(moves) - 1)))]
        notes.add(f"kernel-free widgets: {len(moves)} control moves, key press to new frame "
                  f"median {1e3 * moves[len(moves) // 2]:.0f} ms, p95 {1e3 * p95:.0f} ms (includes Playwright's round trips)")
    return report

