"""axe-core as shipped against axe with its speed patches (``NETLAB_AXE_FAST=1``), on every page of the built site.

The browser checks run axe on each page twice: every rule in light mode, and the colour-contrast
rule in dark mode on the reading area (code blocks left out). ``tests/site/test_axe_patches.py``
compares the patched and the shipped axe on the two pages of a tiny site in every test run; this
script makes the same comparison on every content page of the built book, and measures what each
costs. For each page, in one headless Chromium: a fresh tab with axe as shipped, then a fresh tab
with the patched axe (the two string patches and the parse once, as the browser checks apply them);
in each, every rule of axe in light mode, then the dark colour-contrast run as the checks make it.
Compared: every result (violations, incomplete, passes, inapplicable), with each node's target,
impact and check data.

Printed per page: equal or not, and the CPU seconds of each tab (Chromium's processes, Playwright's
driver and this Python, sampled before the tab closes). Exit status 1 if any page differs. Usage,
after ``make book``::

    .venv/bin/python benchmarks/axe_every_page.py [SITE_DIR] [--page PAGE ...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.site import browser_checks  # noqa: E402
from tests.site.sitefiles import SiteServer, content_pages, site_dir  # noqa: E402

# every result axe returns, with what identifies each node and each check's verdict
RESULTS = """r => JSON.stringify(["violations", "incomplete", "passes", "inapplicable"].map(kind =>
  r[kind].map(x => [x.id, x.impact, x.nodes.map(n => [n.target, n.impact, n.any.map(c => [c.id, c.data]),
                                                       n.all.map(c => c.id), n.none.map(c => c.id)])])))"""


def _cpu() -> float:
    """CPU seconds used so far by this process and its descendants that are still running."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for proc in me.children(recursive=True):
        try:
            total += sum(proc.cpu_times()[:2])
        except psutil.Error:
            continue
    return total


async def _run(context, base_url: str, path: str, patched: bool) -> tuple[str, str, float, int]:
    """(light results, dark results, CPU seconds, result nodes) of one axe on one page, in a new tab."""
    from axe_playwright_python.base import AXE_SCRIPT

    cpu = _cpu()
    page = await context.new_page()
    await page.goto(base_url + path, wait_until="load", timeout=browser_checks.TIMEOUT_MS)
    await page.evaluate(browser_checks._patched_axe_source() if patched else AXE_SCRIPT)
    if patched:
        await page.evaluate(browser_checks.AXE_PARSE_ONCE)
    light = await page.evaluate(f"axe.run('html', {{preload: false}}).then({RESULTS})")
    await page.emulate_media(color_scheme="dark")
    try:
        await page.wait_for_function("document.documentElement.dataset.theme === 'dark'", timeout=3000)
    except Exception:  # noqa: BLE001 - a page without the theme's switch is compared as it stands
        pass
    await page.evaluate(browser_checks.FINISH_TRANSITIONS)
    main = "#main-content" if await page.locator("#main-content").count() else "html"
    options = {"preload": False, "runOnly": ["color-contrast"]}
    context_arg = {"include": [[main]], "exclude": [[".highlight"]]}
    dark = await page.evaluate(f"axe.run({json.dumps(context_arg)}, {json.dumps(options)}).then({RESULTS})")
    used = _cpu() - cpu
    await page.close()
    nodes = sum(len(rule[2]) for part in (json.loads(light), json.loads(dark)) for kind in part for rule in kind)
    return light, dark, used, nodes


async def _compare(root: Path, pages: list[str]) -> list[dict]:
    from playwright.async_api import async_playwright

    rows = []
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, profile)
                await context.route(browser_checks.elsewhere(server.base_url), lambda r: r.abort("blockedbyclient"))
                for path in pages:
                    shipped = await _run(context, server.base_url, path, patched=False)
                    patched = await _run(context, server.base_url, path, patched=True)
                    rows.append({"page": path, "equal": shipped[:2] == patched[:2], "nodes": shipped[3],
                                 "shipped_cpu_s": shipped[2], "patched_cpu_s": patched[2]})
                    r = rows[-1]
                    print(f"{path:48s} {'equal' if r['equal'] else 'DIFFERENT':9s} {r['nodes']:7d} "
                          f"{r['shipped_cpu_s']:8.1f} {r['patched_cpu_s']:8.1f}", flush=True)
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", default=None, help="the built site (default: $NETLAB_SITE_DIR or _build)")
    parser.add_argument("--page", action="append", help="only this page (repeatable)")
    args = parser.parse_args(argv)
    root = Path(args.site) if args.site else site_dir()
    pages = args.page or content_pages(root)
    if not pages:
        print(f"no built site in {root}: run `make book` first")
        return 1
    started = time.perf_counter()
    print(f"{'page':48s} {'results':9s} {'nodes':>7s} {'shipped':>8s} {'patched':>8s}   (CPU-s per tab)")
    rows = asyncio.run(_compare(root, pages))
    shipped, patched = (sum(r[k] for r in rows) for k in ("shipped_cpu_s", "patched_cpu_s"))
    different = [r["page"] for r in rows if not r["equal"]]
    print(f"{len(rows)} pages, {sum(r['nodes'] for r in rows):,} result nodes: "
          f"{'all equal' if not different else 'DIFFERENT on ' + ', '.join(different)}; "
          f"CPU {shipped:.0f} s as shipped, {patched:.0f} s patched; {time.perf_counter() - started:.0f} s wall")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
