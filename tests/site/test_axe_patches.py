"""axe-core runs as shipped unless NETLAB_AXE_FAST=1 asks for its three opt-in speed patches
(browser_checks: colour slots, memoization in Maps, each colour string parsed once), and those
change nothing axe finds.

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


def test_the_pinned_axe_is_patched_when_asked():
    """Both string patches found their text in the pinned bundle (a new axe-core would run as
    shipped: re-check), and the bundle is patched only under NETLAB_AXE_FAST=1."""
    from axe_playwright_python.base import AXE_SCRIPT

    source = browser_checks._patched_axe_source()
    assert "new netlabAxeSlot" in source and "netlabMemoize(e)" in source
    assert "(0,so.default)(e),axe._memoizedFns" not in source
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(browser_checks.AXE_FAST_ENV, raising=False)
        assert browser_checks._axe_source() == AXE_SCRIPT
        mp.setenv(browser_checks.AXE_FAST_ENV, "1")
        assert browser_checks._axe_source() == source


PATCHES_IN_PAGE = """() => ({slots: typeof window.netlabAxeSlot, memoize: typeof window.netlabMemoize,
  parseOnce: Boolean(axe.commons.color.Color.prototype.parseString.netlabOnce)})"""


@pytest.mark.parametrize("fast", [None, "1"], ids=["default", "NETLAB_AXE_FAST=1"])
def test_the_checks_run_axe_as_shipped_unless_asked(browser_required, monkeypatch, fast):
    if fast is None:
        monkeypatch.delenv(browser_checks.AXE_FAST_ENV, raising=False)
    else:
        monkeypatch.setenv(browser_checks.AXE_FAST_ENV, fast)

    async def run():
        from playwright.async_api import async_playwright

        async with async_playwright() as pw:
            context = await browser_checks.launch(pw, tempfile.mkdtemp(prefix="netlab-chromium-"))
            page = await context.new_page()
            await page.set_content('<html lang="en"><title>t</title><main><p>axe</p></main></html>')
            await browser_checks._axe(page, {"runOnly": ["color-contrast"]})
            out = await page.evaluate(PATCHES_IN_PAGE)
            await context.close()
            return out

    patched = {"slots": "function", "memoize": "function", "parseOnce": True}
    shipped = {"slots": "undefined", "memoize": "undefined", "parseOnce": False}
    assert asyncio.run(run()) == (patched if fast else shipped)


async def _results(context, base_url, page_path, source):
    page = await context.new_page()
    await page.goto(base_url + page_path, wait_until="load")
    await page.evaluate(source)
    if source != _shipped():
        await page.evaluate(browser_checks.AXE_PARSE_ONCE)
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


def _shipped() -> str:
    from axe_playwright_python.base import AXE_SCRIPT
    return AXE_SCRIPT


@pytest.fixture(scope="module")
def axe_results(tiny_site, browser_required):  # noqa: F811
    """(page, "shipped" or "patched") -> the light and dark results, each on a fresh page of one browser
    ("patched": the two string patches and the parse once, as NETLAB_AXE_FAST=1 runs axe)."""

    async def run():
        from playwright.async_api import async_playwright

        out = {}
        with SiteServer(tiny_site) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, tempfile.mkdtemp(prefix="netlab-chromium-"))
                await context.route(browser_checks.elsewhere(server.base_url), lambda r: r.abort("blockedbyclient"))
                for page_path in PAGES:
                    for which, source in (("shipped", _shipped()), ("patched", browser_checks._patched_axe_source())):
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
