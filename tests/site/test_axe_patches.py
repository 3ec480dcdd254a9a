"""The two speed patches of axe (browser_checks: colour slots, memoization in Maps) change nothing axe finds.

The reference is axe-core as shipped (``axe_playwright_python``'s bundle, unpatched), run on the
tiny site of test_broken_page (a real explorer and exercise, faint text, a missing image, a dark
theme that loses a paragraph): every result, passes and incomplete included, with each node's
target, impact and check data, in light mode and in the dark colour-contrast run.
"""

import asyncio
import json
import tempfile

import pytest

from tests.site import browser_checks
from tests.site.sitefiles import SiteServer
from tests.site.test_broken_page import tiny_site  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser

RESULTS = """r => JSON.stringify(["violations", "incomplete", "passes", "inapplicable"].map(kind =>
  r[kind].map(x => [x.id, x.impact, x.nodes.map(n => [n.target, n.impact, n.any.map(c => [c.id, c.data]),
                                                       n.all.map(c => c.id), n.none.map(c => c.id)])])))"""


def test_the_pinned_axe_is_patched():
    """Both patches found their text in the pinned bundle (a new axe-core would run as shipped: re-check)."""
    source = browser_checks._axe_source()
    assert "new netlabAxeSlot" in source and "netlabMemoize(e)" in source
    assert "(0,so.default)(e),axe._memoizedFns" not in source


async def _results(context, base_url, page_path, source):
    page = await context.new_page()
    await page.goto(base_url + page_path, wait_until="load")
    await page.evaluate(source)
    light = await page.evaluate(f"axe.run('html', {{preload: false}}).then({RESULTS})")
    await page.emulate_media(color_scheme="dark")
    if await page.evaluate("'theme' in document.documentElement.dataset"):    # the broken page's theme
        await page.wait_for_function("document.documentElement.dataset.theme === 'dark'", timeout=3000)
    await page.evaluate(browser_checks.FINISH_TRANSITIONS)
    dark = await page.evaluate("axe.run('html', {preload: false, runOnly: ['color-contrast']})"
                               f".then({RESULTS})")
    await page.close()
    return json.loads(light), json.loads(dark)


PAGES = ["good.html", "broken.html"]


@pytest.fixture(scope="module")
def axe_results(tiny_site, browser_required):  # noqa: F811
    """(page, "shipped" or "patched") -> the light and dark results, each on a fresh page of one browser."""
    from axe_playwright_python.base import AXE_SCRIPT

    async def run():
        from playwright.async_api import async_playwright

        out = {}
        with SiteServer(tiny_site) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, tempfile.mkdtemp(prefix="netlab-chromium-"))
                await context.route(browser_checks.elsewhere(server.base_url), lambda r: r.abort("blockedbyclient"))
                for page_path in PAGES:
                    for which, source in (("shipped", AXE_SCRIPT), ("patched", browser_checks._axe_source())):
                        out[page_path, which] = await _results(context, server.base_url, page_path, source)
                await context.close()
        return out

    return asyncio.run(run())


@pytest.mark.parametrize("page_path", PAGES)
def test_patched_axe_finds_what_axe_as_shipped_finds(axe_results, page_path):
    shipped, patched = axe_results[page_path, "shipped"], axe_results[page_path, "patched"]
    assert patched == shipped
    # what was compared includes the colour-contrast rule at work: it passes text on the good page
    # and finds the broken page's faint text (and its missing alt text)
    light_violations, light_passes = ({rule[0] for rule in shipped[0][k]} for k in (0, 2))
    if page_path == "good.html":
        assert "color-contrast" in light_passes
    else:
        assert {"image-alt", "color-contrast"} <= light_violations


MEMOIZE = """() => {
  const calls = [];
  const one = netlabMemoize(function (a) { calls.push(["one", a]); return [a]; });
  const two = netlabMemoize(function (a, b) { calls.push(["two", a, b]); return {a, b}; });
  const none = netlabMemoize(function () { calls.push(["none"]); return calls.length; });
  const failing = netlabMemoize(function (a) { calls.push(["fail", a]); throw new Error("no"); });
  const node = {}, other = {};
  const same = one(node) === one(node) && one(NaN) === one(NaN) && one(node) !== one(other)
    && two(node, 1) === two(node, 1) && two(node, 1) !== two(node, 2) && two(node, 1) !== two(other, 1)
    && one(node, "ignored") === one(node) && none(1) === none(2);
  let thrown = 0;
  for (let i = 0; i < 2; i++) { try { failing(node); } catch (e) { thrown += 1; } }
  const before = calls.length;
  one.clear();
  one(node);
  return {same, thrown, calls: before, afterClear: calls.length - before};
}"""


def test_the_map_memoization_keeps_memoizees_rules(browser_required):
    async def run():
        from playwright.async_api import async_playwright

        async with async_playwright() as pw:
            context = await browser_checks.launch(pw, tempfile.mkdtemp(prefix="netlab-chromium-"))
            page = await context.new_page()
            await page.set_content("<p>memoize</p>")
            await page.add_script_tag(content=browser_checks.AXE_MAP_MEMOIZE)
            out = await page.evaluate(MEMOIZE)
            await context.close()
            return out

    out = asyncio.run(run())
    # one(node), one(NaN), one(other); two(node,1), two(node,2), two(other,1); none once; failing twice
    assert out == {"same": True, "thrown": 2, "calls": 3 + 3 + 1 + 2, "afterClear": 1}
