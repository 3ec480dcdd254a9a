"""First use of netlab in the page (issue 36): bytes, time to the first result, time per call, memory.

A calculator page of the built site is opened in headless Chromium (Debian's, as the browser tests
use), served from 127.0.0.1 with every other host blocked, in a fresh profile each run (nothing
cached). Measured per run:

- *before use*: what the page fetches until the network is idle (no Python yet);
- *first use*: the bytes fetched after the first Compute (the runtime, netlab's wheel), and the
  time from the click to the readout computed in the browser (Pyodide start included), in wall
  time and in CPU seconds of Chromium's processes (the figure to read on a shared machine);
- *per call*: 40 further edits of an input, each recomputed; the time inside Python (the worker's
  clock, 0.1 ms steps) and the round trip from the page (post to answer);
- *memory*: the resident memory of Chromium's processes before the click and after the calls (the
  worker runs in the page's renderer), and Pyodide's WebAssembly heap.

Figures are printed, never asserted. Usage (after ``make book``)::

    .venv/bin/python benchmarks/in_page.py [SITE_DIR] [--runs N] [--page book/ch06-collectives.html]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.site import browser_checks  # noqa: E402
from tests.site.sitefiles import SiteServer, site_dir  # noqa: E402


def _chromium_rss(profile: str) -> int:
    """Resident bytes of every Chromium process started with ``profile``."""
    import psutil

    total = 0
    for proc in psutil.process_iter(["cmdline", "memory_info"]):
        try:
            cmd = " ".join(proc.info["cmdline"] or [])
            if profile in cmd or any(profile in " ".join(p.cmdline()) for p in proc.parents()[:3]):
                total += proc.info["memory_info"].rss
        except (psutil.Error, TypeError):
            continue
    return total


def _tree_cpu() -> float:
    """CPU seconds used so far by this process's descendants (Playwright's driver, Chromium)."""
    import psutil

    total = 0.0
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
            total += t.user + t.system
        except psutil.Error:
            continue
    return total


async def _one(root: Path, page_path: str) -> dict:
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, profile)
                outside: list[str] = []

                async def route(r):
                    if r.request.url.startswith(server.base_url):
                        await r.continue_()
                    else:
                        outside.append(r.request.url)
                        await r.abort("blockedbyclient")

                await context.route("**/*", route)
                finished: list = []
                context.on("requestfinished", lambda r: finished.append(r))
                page = await context.new_page()
                await page.goto(server.base_url + page_path)
                await page.wait_for_load_state("networkidle")
                await page.wait_for_timeout(300)
                n_before = len(finished)
                rss_before = _chromium_rss(profile)
                form = page.locator("form.netlab-calc").first
                fid = await form.get_attribute("id")
                cpu0, started = _tree_cpu(), time.perf_counter()
                await form.locator("button.netlab-calc-run").click()
                await page.wait_for_function(f"document.getElementById('{fid}').dataset.live === '1'", timeout=180_000)
                first_s, first_cpu = time.perf_counter() - started, _tree_cpu() - cpu0
                field = form.locator("input[type=text]").first
                default = await field.input_value()
                for k in range(40):      # each edit is one more answer (a readout may not change)
                    answered = await page.evaluate("window.netlabLive.calls.length")
                    await field.fill(str(float(default) * (2 + k)))
                    await page.wait_for_function("n => window.netlabLive.calls.length > n", arg=answered,
                                                 timeout=30_000)
                stats = await page.evaluate("window.netlabLive")
                rss_after = _chromium_rss(profile)
                sizes = []
                for r in finished:
                    s = await r.sizes()
                    sizes.append(s["responseBodySize"] + s["responseHeadersSize"])
                await context.close()
        calls = stats["calls"][1:]
        return {"before_bytes": sum(sizes[:n_before]), "before_requests": n_before,
                "first_use_bytes": sum(sizes[n_before:]), "first_use_requests": len(sizes) - n_before,
                "first_s": first_s, "first_cpu_s": first_cpu, "core_s": stats["start"]["coreMs"] / 1e3, "ready_s": stats["start"]["readyMs"] / 1e3,
                "python_ms": statistics.median(c["workerMs"] for c in calls),
                "round_trip_ms": statistics.median(c["roundTripMs"] for c in calls),
                "rss_before": rss_before, "rss_after": rss_after,
                "wasm_heap": stats["start"]["wasmHeapBytes"], "outside": outside}
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--page", default="book/ch06-collectives.html")
    args = parser.parse_args(argv)
    root = Path(args.site) if args.site else site_dir()
    if reason := browser_checks.browser_missing():
        print(f"in_page: {reason}")
        return 1
    if not (root / args.page).is_file():
        print(f"in_page: no {args.page} in {root}: run `make book` first")
        return 1
    print(f"{'run':>3s} {'before KB':>9s} {'first use MB':>12s} {'requests':>8s} {'first result s':>14s} {'CPU s':>5s} "
          f"{'core s':>6s} {'python ms':>9s} {'round trip ms':>13s} {'RSS +MB':>7s} {'wasm MiB':>8s}")
    for k in range(args.runs):
        r = asyncio.run(_one(root, args.page))
        print(f"{k + 1:3d} {r['before_bytes'] / 1e3:9.0f} {r['first_use_bytes'] / 1e6:12.2f} {r['first_use_requests']:8d} "
              f"{r['first_s']:14.2f} {r['first_cpu_s']:5.1f} {r['core_s']:6.2f} {r['python_ms']:9.2f} {r['round_trip_ms']:13.2f} "
              f"{(r['rss_after'] - r['rss_before']) / 1e6:7.0f} {r['wasm_heap'] / 2**20:8.0f}"
              + (f"  requests to other hosts: {r['outside']}" if r["outside"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
