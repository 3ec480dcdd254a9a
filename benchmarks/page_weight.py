"""Page weight: what a first visit to each page of the built site transfers.

Each page is loaded in headless Chromium (Debian's, as the browser tests use) in
a fresh browser context, so nothing comes from a cache, from a local server on
127.0.0.1 with every other host blocked. Everything the page fetches until the
network is idle and MathJax has typeset is counted: the HTML (with its embedded
widget frames), scripts, styles, fonts, images, the search index.

- *transferred*: bytes over the wire from the local server (uncompressed, as
  ``python -m http.server`` sends them), headers included;
- *gzip*: the same resources compressed with gzip level 6, an estimate of what a
  host that compresses (GitHub Pages does) sends.

Goals (issue 16): every page under 2 MB, the median under 1 MB. Figures are
reported, never asserted. Usage (after ``make book``)::

    .venv/bin/python benchmarks/page_weight.py [SITE_DIR]

SITE_DIR defaults to ``$NETLAB_SITE_DIR`` or ``_build/_build/html``. A JSON copy
goes to ``benchmarks/results/page_weight.json``.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import statistics
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.site.browser_checks import CHROMIUM, CHROMIUM_ARGS, WAIT_FOR_MATH, browser_missing  # noqa: E402
from tests.site.sitefiles import SiteServer, content_pages, site_dir  # noqa: E402

MB = 1e6
GOAL_MAX_BYTES, GOAL_MEDIAN_BYTES = 2 * MB, 1 * MB


def _gzip_size(root: Path, url: str, base: str, cache: dict) -> int:
    path = root / unquote(urlsplit(url.removeprefix(base)).path)
    if path not in cache:
        cache[path] = len(gzip.compress(path.read_bytes(), 6)) if path.is_file() else 0
    return cache[path]


async def weigh(root: Path, pages: list[str]) -> list[dict]:
    from playwright.async_api import async_playwright

    rows, gz_cache = [], {}
    with SiteServer(root) as server:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            for page_path in pages:
                context = await browser.new_context()
                await context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(server.base_url)
                                    else r.abort("blockedbyclient"))
                page = await context.new_page()
                finished = []
                page.on("requestfinished", lambda r, seen=finished: seen.append(r))
                await page.goto(server.base_url + page_path, wait_until="load")
                await page.evaluate(WAIT_FOR_MATH)
                await page.wait_for_load_state("networkidle")
                total = html = gz = 0
                for request in finished:
                    sizes = await request.sizes()
                    n = sizes["responseBodySize"] + sizes["responseHeadersSize"]
                    total += n
                    gz += _gzip_size(root, request.url, server.base_url, gz_cache) + sizes["responseHeadersSize"]
                    if request.url.split("?")[0] == server.base_url + page_path:
                        html = sizes["responseBodySize"]
                rows.append({"page": page_path, "requests": len(finished), "transferred_bytes": total,
                             "gzip_bytes": gz, "html_bytes": html})
                await context.close()
            await browser.close()
    return rows


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else site_dir()
    if reason := browser_missing():
        print(f"page_weight: {reason}")
        return 1
    pages = content_pages(root)
    if not pages:
        print(f"page_weight: no built site in {root}: run `make book` first")
        return 1
    rows = asyncio.run(weigh(root, pages))
    print(f"{'page':52s} {'requests':>8s} {'transferred KB':>14s} {'gzip KB':>8s} {'HTML KB':>8s}")
    for r in rows:
        flag = "  > 2 MB" if r["transferred_bytes"] > GOAL_MAX_BYTES else ""
        print(f"{r['page']:52s} {r['requests']:8d} {r['transferred_bytes'] / 1e3:14.0f} "
              f"{r['gzip_bytes'] / 1e3:8.0f} {r['html_bytes'] / 1e3:8.0f}{flag}")
    sizes = [r["transferred_bytes"] for r in rows]
    gz = [r["gzip_bytes"] for r in rows]
    median, largest = statistics.median(sizes), max(sizes)
    print(f"{len(rows)} pages: median {median / MB:.2f} MB (goal < 1 MB: {'met' if median < GOAL_MEDIAN_BYTES else 'NOT met'}), "
          f"largest {largest / MB:.2f} MB (goal < 2 MB: {'met' if largest < GOAL_MAX_BYTES else 'NOT met'}); "
          f"gzip: median {statistics.median(gz) / MB:.2f} MB, largest {max(gz) / MB:.2f} MB")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "page_weight.json").write_text(json.dumps({"pages": rows, "median_bytes": median, "max_bytes": largest},
                                                     indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
