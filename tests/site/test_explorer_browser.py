"""A kernel-free explorer in Chromium: each move of a slider or a select shows the frame it selects,
and the frames follow the page's light/dark switch. How long a move takes is printed in the run's
notes (never asserted: a time depends on the machine and its load; benchmarks/ measure speed).

The explorer is one of the book's own, taken from the built site (the largest with a slider and a
select): its frames are already drawn there. Without a built site, one is drawn here (about 14 CPU-s
of matplotlib for its 24 frames, which is why the built one is preferred).
"""

import asyncio
import re
import shutil
import tempfile

import pytest

from netlab import plots, widgets
from tests.site import browser_checks, notes
from tests.site.sitefiles import ROOT, SiteServer, content_pages, site_dir

pytestmark = pytest.mark.browser

PAGE = """<!DOCTYPE html><html lang="en" data-theme="light"><head><meta charset="utf-8"><title>explorer</title>
<link rel="icon" href="data:,"><script src="_static/netlab-explorer.js"></script></head><body>{body}</body></html>"""


def _draw(rate, mode):
    fig, ax = plots.figure(ncols=2, width_in=8.4, height_in=3.4)
    for k, a in enumerate(ax):
        a.loglog([1, 10, 100, 1000], [1, rate, rate * (2 if mode == "pfc" else 3), 1000], color=plots.CYCLE[k])
        a.set_title(f"{rate} Gb/s, {mode}")
    return fig


MOVES = """async (root) => {
  const img = root.querySelector("img.netlab-explorer-frame");
  const slider = root.querySelector("input[type=range]"), select = root.querySelector("select");
  // each control's number of settings read from its own markup (a select's options, a slider's range),
  // not from the data-count the page script wraps on
  const size = c => c.tagName === "SELECT" ? c.options.length : Number(c.max) - Number(c.min) + 1;
  const counts = Array.from(root.querySelectorAll(".netlab-explorer-input")).map(c => [c === slider || c === select, Number(c.value), size(c)]);
  const times = [];
  for (let k = 0; k < 12; k++) {
    const control = k % 2 ? select : slider;
    const n = Number(control.dataset.count);
    const t = performance.now();
    control.value = String((Number(control.value) + 1) % n);
    control.dispatchEvent(new Event(control.tagName === "SELECT" ? "change" : "input"));
    await img.decode();
    times.push(performance.now() - t);
  }
  // the frame 6 moves of the slider and 6 of the select lead to (the other controls stay where they are)
  const expected = counts.map(([moved, value, n]) => moved ? (value + 6) % n : value).join("-");
  return {times, frame: root.dataset.frame, expected, width: img.naturalWidth, alt: img.alt};
}"""


async def _run(root):
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, profile)
                page = await context.new_page()
                await page.goto(server.base_url + "/explorer.html")
                explorer = page.locator(".netlab-explorer")
                await explorer.evaluate("async (root) => { const i = root.querySelector('img'); await i.decode(); }")
                result = await explorer.evaluate(MOVES)
                light = await page.locator("img.netlab-explorer-frame").get_attribute("src")
                await page.evaluate("document.documentElement.dataset.theme = 'dark'")
                await page.wait_for_timeout(100)
                dark = await page.locator("img.netlab-explorer-frame").get_attribute("src")
                await context.close()
                return result, light, dark
    finally:
        shutil.rmtree(profile, ignore_errors=True)


# one explorer of a built page: from its opening tag to the closing note that ends every explorer
# (netlab.widgets.Explorer.static_html)
BUILT_EXPLORER = re.compile(r'<div class="netlab-explorer" id=.*?Run the notebook for the live version\.</p>\n</div>', re.S)


def built_explorer(root) -> tuple[str, str] | None:
    """(page, HTML) of the largest explorer of the built site with a slider and a select, if any."""
    found = []
    for page in content_pages(root):
        for html in BUILT_EXPLORER.findall((root / page).read_text(encoding="utf-8")):
            if 'type="range"' in html and "<select " in html:
                found.append((len(html), page, html))
    return max(found)[1:] if found else None


def _drawn_explorer() -> str:
    ex = widgets.Explorer(_draw, {"rate": widgets.choice("Rate", [100, 200, 400, 800]),
                                  "mode": widgets.choice("Flow control", ["lossy", "pfc", "credits"],
                                                         fmt={"pfc": "PFC", "credits": "Credit-based"})},
                          readout=lambda rate, mode: f"{rate} {mode}", title="speed test")
    return ex.static_html()


@pytest.fixture(scope="module")
def explorer_run(tmp_path_factory, browser_required):
    root = tmp_path_factory.mktemp("explorer-site")
    (root / "_static").mkdir()
    shutil.copy(ROOT / "_static" / "netlab-explorer.js", root / "_static")
    built = built_explorer(site_dir())
    if built:
        notes.add(f"explorer timing: the largest explorer with a slider and a select of the built site, on {built[0]}")
    (root / "explorer.html").write_text(PAGE.format(body=built[1] if built else _drawn_explorer()))
    return asyncio.run(_run(root))


def test_every_move_shows_the_frame_it_selects(explorer_run):
    result, _, _ = explorer_run
    times = sorted(result["times"])
    p95 = times[int(0.95 * (len(times) - 1))]
    assert result["width"] > 0 and result["alt"]
    assert result["frame"] == result["expected"], result   # 6 moves of the slider, 6 of the select
    assert len(result["times"]) == 12
    notes.add(f"explorer moves in Chromium: p95 {p95:.1f} ms, max {times[-1]:.1f} ms")


def test_frames_follow_the_theme_switch(explorer_run):
    _, light, dark = explorer_run
    assert "not%20all" in light or "not all" in light
    assert dark != light and ("@media all" in dark or "%40media%20all" in dark)
