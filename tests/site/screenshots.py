"""Screenshots of the built site for review (``make screenshots``; written to ``screenshots/``, not committed).

A reading page, the same page in dark mode, a lab, and a kernel-free widget in
two states (its first control moved one step from the keyboard). Pages are
chosen from the build: the first chapter page with math, and the first lab with
an explorer. Same browser and offline setup as the browser tests.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from tests.site.browser_checks import WAIT_FOR_MATH, browser_missing, launch
from tests.site.sitefiles import ROOT, SiteServer, content_pages, site_dir


def _pick(root: Path) -> tuple[str, str]:
    pages = content_pages(root)
    chapters = [p for p in pages if p.startswith("book/ch")]
    labs = [p for p in pages if p.startswith("labs/")]
    reading = next((p for p in chapters if 'class="math' in (root / p).read_text(errors="replace")),
                   chapters[0] if chapters else pages[0])
    lab = next((p for p in labs if "netlab-explorer" in (root / p).read_text(errors="replace")),
               labs[0] if labs else pages[0])
    return reading, lab


async def shoot(root: Path, out: Path) -> list[Path]:
    from playwright.async_api import async_playwright

    reading, lab = _pick(root)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with SiteServer(root) as server, tempfile.TemporaryDirectory(prefix="netlab-chromium-") as profile:
        async with async_playwright() as pw:
            context = await launch(pw, profile)
            await context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(server.base_url)
                                else r.abort("blockedbyclient"))
            page = await context.new_page()

            async def visit(path):
                await page.goto(server.base_url + path, wait_until="load")
                await page.evaluate(WAIT_FOR_MATH)
                await page.wait_for_load_state("networkidle")

            async def save(name, target=None):
                path = out / name
                await (target or page).screenshot(path=str(path))
                written.append(path)

            await visit(reading)
            await save("reading-page.png")
            await page.emulate_media(color_scheme="dark")
            await page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
            await page.wait_for_timeout(300)
            await save("reading-page-dark.png")
            await page.emulate_media(color_scheme="light")

            await visit(lab)
            await save("lab.png")
            explorer = page.locator(".netlab-explorer").first
            if await explorer.count():
                await explorer.scroll_into_view_if_needed()
                await save("widget-state-1.png", explorer)
                control = explorer.locator("input.netlab-explorer-input").first
                await control.focus()
                key = "ArrowRight" if int(await control.input_value()) < int(await control.get_attribute("max")) else "ArrowLeft"
                await control.press(key)
                await page.wait_for_timeout(200)
                await save("widget-state-2.png", explorer)
            await context.close()
    print(f"reading page: {reading}; lab: {lab}")
    return written


def main() -> int:
    if reason := browser_missing():
        print(f"screenshots: {reason}")
        return 1
    root = site_dir()
    if not content_pages(root):
        print(f"screenshots: no built site in {root}: run `make book` first")
        return 1
    for path in asyncio.run(shoot(root, ROOT / "screenshots")):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
