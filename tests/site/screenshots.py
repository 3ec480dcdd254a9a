"""Screenshots of the built site for review (``make screenshots``; written to ``screenshots/``, not committed).

A chapter with math, a lab with an explorer and the hardware registry, each at
phone width (390 px) and desktop width (1366 px), in light and dark mode; then a
kernel-free widget in two states (its first control moved one step from the
keyboard) and the phone navigation opened from the menu button. Pages are chosen
from the build; other pages can be named on the command line::

    python -m tests.site.screenshots [PAGE ...]

Same browser and offline setup as the browser tests.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from tests.site.browser_checks import WAIT_FOR_MATH, browser_missing, launch
from tests.site.sitefiles import ROOT, SiteServer, content_pages, site_dir

WIDTHS = {"phone": (390, 844), "desktop": (1366, 900)}


def _pick(root: Path) -> list[str]:
    pages = content_pages(root)
    chapters = [p for p in pages if p.startswith("book/ch")]
    labs = [p for p in pages if p.startswith("labs/")]
    reading = next((p for p in chapters if "<math" in (root / p).read_text(errors="replace")),
                   chapters[0] if chapters else pages[0])
    lab = next((p for p in labs if 'class="netlab-explorer"' in (root / p).read_text(errors="replace")),
               labs[0] if labs else pages[0])
    picked = [reading, lab]
    if "book/appendix-registry.html" in pages:
        picked.append("book/appendix-registry.html")
    return picked


async def shoot(root: Path, out: Path, chosen: list[str]) -> list[Path]:
    from playwright.async_api import async_playwright

    out.mkdir(parents=True, exist_ok=True)
    written = []
    with SiteServer(root) as server, tempfile.TemporaryDirectory(prefix="netlab-chromium-") as profile:
        async with async_playwright() as pw:
            context = await launch(pw, profile)
            await context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(server.base_url)
                                else r.abort("blockedbyclient"))
            page = await context.new_page()

            async def save(name, target=None, full=False):
                path = out / f"{name}.png"
                if target is None:
                    await page.screenshot(path=str(path), full_page=full)
                else:
                    await target.screenshot(path=str(path))
                written.append(path)

            for path in chosen:
                stem = path.removesuffix(".html").replace("/", "-")
                for width_name, (w, h) in WIDTHS.items():
                    await page.set_viewport_size({"width": w, "height": h})
                    for scheme in ("light", "dark"):
                        await page.emulate_media(color_scheme=scheme)
                        await page.goto(server.base_url + path, wait_until="load")
                        await page.evaluate(WAIT_FOR_MATH)
                        await page.wait_for_load_state("networkidle")
                        await page.wait_for_timeout(200)
                        await save(f"{stem}-{width_name}-{scheme}")
                        # a second screen further down: the first formula, explorer or table
                        target = page.locator("math[display=block], .netlab-explorer, table").first
                        if await target.count():
                            await target.scroll_into_view_if_needed()
                            await page.wait_for_timeout(100)
                            await save(f"{stem}-{width_name}-{scheme}-2")
            await page.emulate_media(color_scheme="light")

            lab = next((p for p in chosen if 'class="netlab-explorer"' in (root / p).read_text(errors="replace")), None)
            if lab:
                await page.set_viewport_size({"width": 1366, "height": 900})
                await page.goto(server.base_url + lab, wait_until="load")
                explorer = page.locator(".netlab-explorer").first
                await explorer.scroll_into_view_if_needed()
                await save("widget-state-1", explorer)
                control = explorer.locator("input.netlab-explorer-input, select.netlab-explorer-input").first
                await control.focus()
                await control.press("ArrowRight")
                await page.wait_for_timeout(200)
                await save("widget-state-2", explorer)

            # the navigation opened at phone width
            await page.set_viewport_size({"width": 390, "height": 844})
            await page.goto(server.base_url + chosen[0], wait_until="load")
            button = page.locator("button.primary-toggle:visible").first
            if await button.count():
                await button.click()
                await page.wait_for_timeout(400)
                await save("phone-navigation-open")
            await context.close()
    return written


def main(argv: list[str]) -> int:
    if reason := browser_missing():
        print(f"screenshots: {reason}")
        return 1
    root = site_dir()
    if not content_pages(root):
        print(f"screenshots: no built site in {root}: run `make book` first")
        return 1
    chosen = argv or _pick(root)
    print("pages: " + ", ".join(chosen))
    for path in asyncio.run(shoot(root, ROOT / "screenshots", chosen)):
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
