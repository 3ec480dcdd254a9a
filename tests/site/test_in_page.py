"""netlab in the page (issue 36): the calculators and "Try it" consoles of the built site, in Chromium.

Three chapters' pages are opened (one browser, one Pyodide start per page); on each, new numbers are
typed into the calculator and Compute pressed, one input is changed again (the live recompute), one
input is given a value netlab refuses, and the console's example is run. Every readout, error and
console output must equal what the same call gives here, in CPython (``book/_ext/netlab_calculators.py``,
which the page runs too, on netlab's wheel). Every request that does not go to the local server is
aborted and recorded: there must be none. Before the first Compute a page must not fetch the runtime.
The same page opened from a file must keep its build-time readout and say how to serve the site.

The static half (marker ``site``) reads the built HTML: each calculator's and console's build-time
output equals CPython's for the defaults (what a reader sees with JavaScript off), the runtime and its
licence notices are in the site, and the wheel holds Python source only.

Timings (start, first result, calls) go to the run's notes, never into an assert.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import shutil
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from tests.site import browser_checks, notes
from tests.site.sitefiles import ROOT, SiteServer, content_pages

sys.path.insert(0, str(ROOT / "book" / "_ext"))
import netlab_calculators as calcs  # noqa: E402

# chapters whose reading page must offer a calculator and a console
CHAPTERS = ("ch02", "ch05", "ch06", "ch09", "ch11")
DRIVEN = ("ch02", "ch06", "ch11")            # the browser opens these three
# what the browser types (every field of each calculator differs from its default)
INPUTS = {
    "link-delay": {"message_bytes": "1e6", "rate_gbps": "800", "distance_m": "2000"},
    "fat-tree": {"gpus": "100000", "radix": "128", "rate_gbps": "400", "oversubscription": "2"},
    "nccl-tests": {"gpus": "16", "nic_gbps": "200", "message_mb": "256", "alpha_us": "8"},
    "fabric-power": {"option": "cpo", "gpus": "8192", "radix": "64", "rate_gbps": "1600"},
    "capstone": {"domain": "gb200-nvl72", "fabric": "eth-spraying", "option": "lpo", "oversubscription": "2",
                 "gpus": "4608"},
}
# then one more change, which recomputes as it is typed; then a value netlab refuses
CHANGE = {"link-delay": ("distance_m", "10"), "fat-tree": ("gpus", "5000"), "nccl-tests": ("gpus", "64"),
          "fabric-power": ("option", "lpo"), "capstone": ("oversubscription", "3")}
REFUSED = {"link-delay": ("rate_gbps", "0"), "fat-tree": ("radix", "63"), "nccl-tests": ("gpus", "0"),
           "fabric-power": ("gpus", "0"), "capstone": ("gpus", "4600")}
FORM = re.compile(r'<form class="netlab-live netlab-calc" id="[^"]+" data-calc="([^"]+)".*?</form>', re.S)
VALUE = re.compile(r'<input id="[^"]+" name="([^"]+)" type="text" inputmode="\w+" value="([^"]*)"')
SELECTED = re.compile(r'<select id="[^"]+" name="([^"]+)">.*?<option value="([^"]+)" selected>', re.S)
READOUT = re.compile(r'<p class="netlab-calc-readout netlab-explorer-readout" aria-live="polite">(.*?)</p>', re.S)
CONSOLE = re.compile(r'<textarea [^>]*class="netlab-console-code"[^>]*>(.*?)</textarea>.*?'
                     r'<pre class="netlab-console-output"[^>]*>(.*?)</pre>', re.S)


def chapter_page(root: Path, chapter: str) -> str | None:
    return next((p for p in content_pages(root) if Path(p).name.startswith(chapter + "-")), None)


def _cpython_console(code: str) -> str:
    return calcs.console(code, key=f"test-{time.perf_counter_ns()}")


# --- the build's own pieces (no site needed) -----------------------------------------------------

def test_integrity_is_npms_sha512_form():
    import netlab_pyodide
    # SHA-512 of no bytes (FIPS 180-4's empty-message digest), base64 as npm writes it
    assert netlab_pyodide.integrity_of(b"") == ("sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7"
                                                "kxvUdBeoGlODJ6+SfaPg==")


def test_a_cached_runtime_that_does_not_match_the_pin_is_refused(tmp_path, monkeypatch):
    import netlab_pyodide
    monkeypatch.setenv("NETLAB_PYODIDE_CACHE", str(tmp_path))
    assert netlab_pyodide.cached() is None
    netlab_pyodide.tarball_path().write_bytes(b"not the published tarball")
    with pytest.raises(RuntimeError, match="does not match the pinned integrity"):
        netlab_pyodide.cached()


def test_a_rebuild_stages_a_manifest_whose_sizes_hold(tmp_path, monkeypatch):
    # the second build of a tree listed the first build's manifest.json (544 bytes) in the new one (568)
    import io
    import tarfile

    import netlab_pyodide
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w:gz") as tar:
        for name in netlab_pyodide.CORE:
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(name)
            tar.addfile(info, io.BytesIO(name.encode()))
    monkeypatch.setattr(netlab_pyodide, "fetch", lambda log=print: tar_bytes.getvalue())
    calculators = ROOT / "book" / "_ext" / "netlab_calculators.py"
    for _ in range(2):
        manifest = netlab_pyodide.stage(tmp_path, calculators, log=lambda *a: None)
    for name, size in manifest["bytes"].items():
        assert (tmp_path / name).stat().st_size == size, name


def test_the_wheel_holds_netlabs_python_source_and_a_valid_record():
    import base64
    import hashlib
    import io

    import netlab
    import netlab_pyodide
    name, data = netlab_pyodide.wheel(Path(netlab.__file__).parent, netlab.__version__)
    assert name == f"netlab-{netlab.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        names = z.namelist()
        record = z.read(f"netlab-{netlab.__version__}.dist-info/RECORD").decode().splitlines()
        for line in record:
            path, digest, _ = line.rsplit(",", 2)
            if digest:
                raw = hashlib.sha256(z.read(path)).digest()
                assert digest == "sha256=" + base64.urlsafe_b64encode(raw).rstrip(b"=").decode(), path
    assert "netlab/collectives/alpha_beta.py" in names and "netlab/sim/engine.py" in names
    assert all(n.endswith(".py") or ".dist-info/" in n for n in names)    # no .so, .c, .pyx: no compiled twin
    assert len(record) == len(names)


# --- the static half ---------------------------------------------------------------------------

@pytest.mark.site
def test_each_chapter_offers_a_calculator_and_a_console(site_root):
    for chapter in CHAPTERS:
        page = chapter_page(site_root, chapter)
        assert page, f"no page for {chapter}"
        text = (site_root / page).read_text(encoding="utf-8")
        assert FORM.search(text), f"{page}: no calculator"
        assert CONSOLE.search(text), f"{page}: no console"
        assert "_static/netlab-pyodide.js" in text


@pytest.mark.site
def test_build_time_results_equal_cpython_for_the_defaults(site_root):
    """What a reader sees with JavaScript off or from a file: the defaults' readouts, computed at build time."""
    seen = 0
    for page in content_pages(site_root):
        text = (site_root / page).read_text(encoding="utf-8")
        for form in FORM.finditer(text):
            values = dict(VALUE.findall(form.group(0))) | dict(SELECTED.findall(form.group(0)))
            readout = READOUT.search(form.group(0))
            assert readout, (page, "a calculator without its readout")
            shown = html.unescape(readout.group(1))
            assert shown == calcs.run(form.group(1), values), (page, form.group(1))
            assert "make serve" in form.group(0)
            seen += 1
        for code, output in CONSOLE.findall(text):
            assert html.unescape(output) == _cpython_console(html.unescape(code)), page
    assert seen >= len(CHAPTERS)


@pytest.mark.site
def test_pages_without_a_calculator_load_nothing_new(site_root):
    """The page script is added only where a directive is used; the runtime is never linked from a page."""
    for page in content_pages(site_root):
        text = (site_root / page).read_text(encoding="utf-8")
        uses = 'class="netlab-live ' in text
        assert ("netlab-pyodide.js" in text) == uses, page
        assert "netlab-pyodide-worker.js" not in text and "pyodide.asm" not in text, page


@pytest.mark.site
def test_the_runtime_and_its_licences_are_served_by_the_site(site_root):
    folder = site_root / "_static" / "pyodide"
    manifest = json.loads((folder / "manifest.json").read_text())
    for name, size in manifest["bytes"].items():
        assert (folder / name).stat().st_size == size, name
    for name in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                 "NOTICE.txt", "MPL-2.0.txt", "CPython-LICENSE.txt", "netlab_calculators.py"):
        assert (folder / name).is_file(), name
    assert "Mozilla Public License Version 2.0" in (folder / "MPL-2.0.txt").read_text()
    assert "PYTHON SOFTWARE FOUNDATION LICENSE VERSION 2" in (folder / "CPython-LICENSE.txt").read_text()
    with zipfile.ZipFile(folder / manifest["wheel"]) as wheel:
        names = wheel.namelist()
    assert "netlab/collectives/alpha_beta.py" in names
    assert all(n.endswith(".py") or ".dist-info/" in n for n in names), "the wheel must hold Python source only"


# --- the browser half --------------------------------------------------------------------------

async def _fill(form, name: str, value: str) -> None:
    control = form.locator(f'[name="{name}"]')
    if await control.evaluate("c => c.tagName") == "SELECT":
        await control.select_option(value)
    else:
        await control.fill(value)


async def _readout_after(page, form, before: str, timeout_ms: int = 20_000) -> str:
    await page.wait_for_function("([id, before]) => document.getElementById(id)"
                                 ".querySelector('.netlab-calc-readout').textContent !== before",
                                 arg=[await form.get_attribute("id"), before], timeout=timeout_ms)
    return await form.locator(".netlab-calc-readout").text_content()


async def _drive_page(context, base: str, page_path: str, requests: list) -> dict:
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    first = len(requests)
    await page.goto(base + page_path)
    await page.wait_for_load_state("networkidle")
    before_use = [r.url for r in requests[first:]]
    form = page.locator("form.netlab-calc").first
    name = await form.get_attribute("data-calc")
    for field, value in INPUTS[name].items():
        await _fill(form, field, value)
    started = time.perf_counter()
    await form.locator("button.netlab-calc-run").click()
    await page.wait_for_function(f"document.getElementById('{await form.get_attribute('id')}').dataset.live === '1'",
                                 timeout=120_000)
    first_result_s = time.perf_counter() - started
    typed = await form.locator(".netlab-calc-readout").text_content()
    status = await form.locator(".netlab-live-status").text_content()
    field, value = CHANGE[name]
    await _fill(form, field, value)
    changed = await _readout_after(page, form, typed)
    field, value = REFUSED[name]
    await _fill(form, field, value)
    refused = await _readout_after(page, form, changed)
    console = page.locator("div.netlab-console").first
    code = await console.locator(".netlab-console-code").input_value()
    await console.locator(".netlab-console-run").click()
    await page.wait_for_function(f"document.getElementById('{await console.get_attribute('id')}').dataset.live === '1'",
                                 timeout=30_000)
    output = await console.locator(".netlab-console-output").text_content()
    stats = await page.evaluate("window.netlabLive")
    # a run that never ends: Stop ends the worker, and the console is ready for another run
    await console.locator(".netlab-console-code").fill("while True:\n    pass")
    await console.locator(".netlab-console-run").click()
    await console.locator(".netlab-console-stop").click()
    await page.wait_for_function(f"!document.getElementById('{await console.get_attribute('id')}')"
                                 ".querySelector('.netlab-console-run').disabled", timeout=10_000)
    stopped = await console.locator(".netlab-live-status").text_content()
    sizes, urls = 0, []
    for r in requests[first:]:
        urls.append(r.url)
        try:
            s = await r.sizes()
            sizes += s["responseBodySize"] + s["responseHeadersSize"]
        except Exception:     # noqa: BLE001 - a request without a response (aborted) has no sizes
            pass
    await page.close()
    return {"page": page_path, "calc": name, "before_use": before_use, "first_result_s": first_result_s,
            "typed": typed, "status": status, "changed": changed, "refused": refused, "code": code,
            "output": output, "stopped": stopped, "stats": stats, "bytes": sizes, "urls": urls, "errors": errors}


async def _from_file(context, root: Path, page_path: str) -> dict:
    page = await context.new_page()
    await page.goto((root / page_path).as_uri())
    form = page.locator("form.netlab-calc").first
    before = await form.locator(".netlab-calc-readout").text_content()
    await form.locator("button.netlab-calc-run").click()
    status = await form.locator(".netlab-live-status").text_content()
    after = await form.locator(".netlab-calc-readout").text_content()
    await page.close()
    return {"before": before, "after": after, "status": status}


async def _run(root: Path, pages: list[str]) -> dict:
    from playwright.async_api import async_playwright

    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server:
            async with async_playwright() as pw:
                context = await browser_checks.launch(pw, profile)
                outside: list[str] = []

                async def route(r):
                    if r.request.url.startswith(server.base_url) or r.request.url.startswith("file:"):
                        await r.continue_()
                    else:
                        outside.append(r.request.url)
                        await r.abort("blockedbyclient")

                await context.route("**/*", route)
                requests: list = []
                context.on("requestfinished", lambda r: requests.append(r))
                runs = [await _drive_page(context, server.base_url, p, requests) for p in pages]
                from_file = await _from_file(context, root, pages[0])
                await context.close()
                return {"runs": runs, "outside": outside, "from_file": from_file}
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def live(site_root, browser_required):
    found = [chapter_page(site_root, c) for c in DRIVEN]
    pages = [p for p in found if p]
    assert len(pages) == len(DRIVEN), f"missing chapter pages among {DRIVEN}"
    started = time.perf_counter()
    result = asyncio.run(_run(site_root, pages))
    result["seconds"] = time.perf_counter() - started
    for r in result["runs"]:
        calls = sorted(c["workerMs"] for c in r["stats"]["calls"][1:]) or [0.0]
        start = r["stats"]["start"]
        notes.add(f"in-page netlab, {r['page']}: first result {r['first_result_s']:.1f} s after Compute "
                  f"(Pyodide core {start['coreMs'] / 1e3:.1f} s, ready {start['readyMs'] / 1e3:.1f} s), "
                  f"{r['bytes'] / 1e6:.1f} MB fetched, later calls {calls[len(calls) // 2]:.2f} ms in Python, "
                  f"wasm heap {start['wasmHeapBytes'] / 2**20:.0f} MiB")
    notes.add(f"in-page netlab: {len(pages)} pages driven in {result['seconds']:.1f} s")
    return result


@pytest.mark.browser
def test_nothing_of_the_runtime_loads_before_first_use(live):
    for r in live["runs"]:
        early = [u for u in r["before_use"] if "/_static/pyodide/" in u or "worker" in u]
        assert not early, (r["page"], early)


@pytest.mark.browser
def test_typed_numbers_give_what_cpython_gives(live):
    for r in live["runs"]:
        typed = INPUTS[r["calc"]]
        assert r["typed"] == calcs.run(r["calc"], typed), r["page"]
        changed = typed | dict([CHANGE[r["calc"]]])
        assert r["changed"] == calcs.run(r["calc"], changed), r["page"]
        assert "computed in your browser by netlab" in r["status"] and "Pyodide" in r["status"]
    nccl = next(r for r in live["runs"] if r["calc"] == "nccl-tests")
    # busbw = algbw x 2(n-1)/n: 1.875 for 16 GPUs, 1.96875 for 64 (nccl-tests' all-reduce factor)
    assert "(factor 1.875)" in nccl["typed"] and "(factor 1.969)" in nccl["changed"]
    # by hand, 16 GPUs, 200 Gb/s, 256 MB, 8 us: 2*15*8 us = 240 us; 2*15/16 * 8*256e6 b / 200e9 b/s = 19.2 ms;
    # algbw = 256e6 B / 19.44 ms = 13.2 GB/s; busbw = 1.875 x that = 24.7 GB/s
    assert "240 µs latency + 19.2 ms transfer" in nccl["typed"] and "busbw 24.7 GB/s" in nccl["typed"]


@pytest.mark.browser
def test_a_refused_value_shows_netlabs_own_message(live):
    for r in live["runs"]:
        values = INPUTS[r["calc"]] | dict([CHANGE[r["calc"]]]) | dict([REFUSED[r["calc"]]])
        with pytest.raises(ValueError) as refused:
            calcs.run(r["calc"], values)
        assert r["refused"] == f"error: {refused.value}", r["page"]


@pytest.mark.browser
def test_the_console_example_runs_as_in_cpython(live):
    for r in live["runs"]:
        assert r["output"] == _cpython_console(r["code"]), r["page"]
        assert "Traceback" not in r["output"]


@pytest.mark.browser
def test_stop_ends_a_run_that_never_ends(live):
    for r in live["runs"]:
        assert r["stopped"].startswith("Stopped."), (r["page"], r["stopped"])


@pytest.mark.browser
def test_no_request_leaves_the_site_and_no_error_is_logged(live):
    assert live["outside"] == []
    for r in live["runs"]:
        assert r["errors"] == [], r["page"]


@pytest.mark.browser
def test_from_a_file_the_build_time_readout_stays_and_says_how_to_serve(live):
    f = live["from_file"]
    assert f["after"] == f["before"] and f["before"]
    assert "make serve" in f["status"] and "opened from a file" in f["status"]
