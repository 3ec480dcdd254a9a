"""Drive the built site in headless Chromium and collect every problem a reader would meet.

One browser, one visit per page (a few pages at a time), every check on that
visit: the page loads with no console error and no failed or external request;
every figure loads and has alternative text; math is typeset; axe-core finds no
serious or critical violation; every kernel-free explorer changes its figure when
a control moves (keyboard, as a reader would); every exercise checker answers;
every solution is hidden until its toggle is clicked; in dark mode, figures and
math stay readable. The result is a plain report (problems as sentences), so the
same code checks the real site and a deliberately broken one.

Network: every request that does not go to the local server is aborted and
recorded; the page must not need it.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.site.sitefiles import SiteServer, content_pages

CHROMIUM = os.environ.get("NETLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# pages visited at a time: 3 on 2 cores keeps both busy while a page waits on a round trip (the visit of the
# 48 pages alone, 6 December 2026: 109.5 s and 211.6 CPU-s with 3, 119.2 s and 215.7 CPU-s with 2)
CONCURRENCY = int(os.environ.get("NETLAB_BROWSER_PAGES", "3"))
TIMEOUT_MS = 60_000
SERIOUS = {"serious", "critical"}
CATEGORIES = ("load", "figures", "math", "accessibility", "explorers", "exercises", "solutions", "dark", "phone")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def browser_missing() -> str | None:
    """Why the browser tests cannot run here (None when they can)."""
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed in this Python environment (run `make install`)"
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        return (f"Chromium not found at {CHROMIUM}: the browser tests of the site are skipped "
                "(on Debian/Ubuntu: `sudo apt-get install chromium`; or set NETLAB_CHROMIUM)")
    return None


@dataclass
class PageReport:
    """Problems found on one page, by category; an empty list means the check passed."""

    path: str
    problems: dict[str, list[str]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    counts: dict[str, int] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    widget_update_s: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, category: str, message: str) -> None:
        self.problems[category].append(message)


@dataclass
class SiteReport:
    pages: dict[str, PageReport]
    search: list[str]
    seconds: float
    layout: list[str] | None = None   # reader_layout's problems, when asked for (None: not checked)
    phone: list[str] | None = None    # phone_fit's problems, when asked for


# --- in-page scripts --------------------------------------------------------------------------

WAIT_FOR_MATH = """async () => {
  if (!window.MathJax) { return "none"; }
  for (let i = 0; i < 200 && !(MathJax.startup && MathJax.startup.promise); i++) {
    await new Promise(r => setTimeout(r, 50));
  }
  if (!(MathJax.startup && MathJax.startup.promise)) { return "MathJax never started"; }
  await MathJax.startup.promise;
  return "ok";
}"""

FIGURES = """async () => {
  const out = [];
  for (const img of Array.from(document.images)) {
    if (!img.complete || img.naturalWidth === 0) {
      try { await img.decode(); } catch (e) { /* reported below */ }
    }
    const src = img.currentSrc || img.src || "";
    out.push({src: src.startsWith("data:") ? src.slice(0, 40) + "..." : src,
              alt: img.getAttribute("alt"), width: img.naturalWidth,
              inArticle: !!img.closest("article, .bd-article, main")});
  }
  return out;
}"""

MATH = """() => {
  // formulas are typeset at build time as MathML (book/_ext/mathml.py); the browser lays them out
  const sources = Array.from(document.querySelectorAll(".math"));
  const unrendered = sources.filter(el => {
    const m = el.querySelector("math");
    return !(m && m instanceof MathMLElement && m.getBoundingClientRect().width > 0);
  }).map(el => el.textContent.trim().slice(0, 60));
  const errors = Array.from(document.querySelectorAll("merror, .math-error, mjx-merror"))
                      .map(el => el.textContent.slice(0, 80));
  // raw TeX left in the reading text (not in code): $...$ holding TeX, \\( \\[ or $$ delimiters
  const clone = document.querySelector("article, .bd-article, main, body").cloneNode(true);
  clone.querySelectorAll("pre, code, script, style, math, .highlight, kbd, samp").forEach(n => n.remove());
  const text = clone.textContent;
  const raw = [];
  const patterns = [/\\$\\$[^$]+\\$\\$/g, /\\$[^$\\n]*[\\\\^_{}][^$\\n]*\\$/g, /\\\\\\([^]*?\\\\\\)/g, /\\\\\\[[^]*?\\\\\\]/g];
  for (const re of patterns) { for (const m of text.matchAll(re)) { raw.push(m[0].slice(0, 60)); } }
  return {n: sources.length, rendered: document.querySelectorAll(".math math").length, unrendered, errors, raw,
          mathjax: !!window.MathJax};
}"""

SOLUTIONS = """() => Array.from(document.querySelectorAll(".admonition.dropdown, details.sd-dropdown")).map((el, i) => {
  const title = el.querySelector(".admonition-title, summary");
  const body = Array.from(el.children).filter(c => c !== title && !c.matches(".admonition-title, summary, button"));
  return {index: i, id: el.id || "", title: title ? title.textContent.trim().slice(0, 60) : "",
          visible: body.some(c => c.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) && c.getBoundingClientRect().height > 0), nBody: body.length,
          isDetails: el.tagName === "DETAILS"};
})"""

SOLUTION_VISIBLE = """([i]) => {
  const el = document.querySelectorAll(".admonition.dropdown, details.sd-dropdown")[i];
  const title = el.querySelector(".admonition-title, summary");
  const body = Array.from(el.children).filter(c => c !== title && !c.matches(".admonition-title, summary, button"));
  return body.length > 0 && body.every(c => c.checkVisibility({checkOpacity: true, checkVisibilityCSS: true}) && c.getBoundingClientRect().height > 0);
}"""

ALL_SOLUTIONS_VISIBLE = f"(indices) => indices.every(i => ({SOLUTION_VISIBLE})([i]))"

DARK = """async () => {
  const problems = [];
  function rgba(s) { const m = s.match(/[\\d.]+/g) || [0, 0, 0, 0]; return m.map(Number).concat([1]).slice(0, 4); }
  function lum([r, g, b]) {
    const f = c => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  }
  function background(el) {            // first opaque background up the tree
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c[3] > 0.5) { return c; }
    }
    return rgba(getComputedStyle(document.body).backgroundColor);
  }
  function contrast(a, b) { const [x, y] = [lum(a) + 0.05, lum(b) + 0.05]; return Math.max(x, y) / Math.min(x, y); }
  const page = background(document.querySelector("article, main, body"));
  if (lum(page) > 0.4) { problems.push("the page background is not dark in dark mode"); }
  for (const img of Array.from(document.querySelectorAll("article img, .bd-article img, main img"))) {
    if (!img.naturalWidth) { continue; }
    const style = getComputedStyle(img);
    const name = (img.getAttribute("alt") || img.src).slice(0, 60);
    if (Number(style.opacity) < 0.6 || style.visibility === "hidden") { problems.push(`figure "${name}" is faded out in dark mode`); }
    if (/invert/.test(style.filter)) { continue; }
    // transparent pixels show the page behind: dark ink on a dark page vanishes
    const canvas = document.createElement("canvas");
    const w = canvas.width = Math.min(img.naturalWidth, 200), h = canvas.height = Math.min(img.naturalHeight, 200);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0, w, h);
    let transparent = 0;
    try {
      const data = ctx.getImageData(0, 0, w, h).data;
      for (let i = 3; i < data.length; i += 4) { if (data[i] < 200) { transparent++; } }
    } catch (e) { continue; }
    if (transparent / (w * h) > 0.05 && lum(background(img)) < 0.4) {
      problems.push(`figure "${name}" is transparent on a dark background: dark lines and labels would vanish`);
    }
  }
  const maths = Array.from(document.querySelectorAll(".math math")).slice(0, 40);
  for (const m of maths) {
    const ratio = contrast(rgba(getComputedStyle(m).color), background(m));
    if (ratio < 4.5) { problems.push(`math "${m.textContent.slice(0, 30)}" has contrast ${ratio.toFixed(2)} in dark mode`); break; }
  }
  return problems;
}"""


# --- one page ---------------------------------------------------------------------------------

# axe-core runs as its package ships it (axe_playwright_python's bundle). Three speed patches of it,
# below, are opt-in: NETLAB_AXE_FAST=1 applies them (the colour slots and the memoization in Maps
# are string patches of the minified bundle, each applied only where its text is found; the colour
# parse once replaces a method of axe's Color class in the page). tests/site/test_axe_patches.py
# checks on its pages that axe finds exactly what axe as shipped finds with all three applied.
AXE_FAST_ENV = "NETLAB_AXE_FAST"


def axe_fast() -> bool:
    """True when the opt-in speed patches of axe-core are asked for (``NETLAB_AXE_FAST=1``)."""
    return os.environ.get(AXE_FAST_ENV) == "1"


# axe's colour class (axe.commons.color.Color) keeps its six channels in private fields, which its
# bundle compiles to one WeakMap per field (and a WeakSet for its private method): every Color made
# inserts itself into seven weak tables, and every channel read or write is a lookup in one. The
# colour-contrast rule makes hundreds of thousands of Colors on a long page; the weak tables and their
# garbage collection were about a quarter of axe's time. Here that class's tables are replaced by slots
# that keep each value on the object itself, under a symbol of the slot, with a WeakMap's has/get/set/add
# (the only methods the bundle's helpers call on them): the same values, read and written by the same
# code. A slot is a plain assignment: a symbol-keyed property, which for-in, Object.keys and JSON do not
# list (making it non-enumerable as well, with Object.defineProperty, took a quarter of axe's time). The
# full axe results of every page of the book (violations, incomplete, passes, inapplicable, with each
# node's target, impact and check data, in light mode, and the dark colour-contrast run: 96,731 result
# nodes) compared equal with axe as shipped, as did those of the broken page
# (tests/site/test_broken_page.py); the 32 pages took 70 s instead of 122. If the pinned axe-core's
# bundle no longer has this text, axe's colours are left as they come.
AXE_COLOR_FIELDS = ("ep=(Se=new WeakMap,_e=new WeakMap,Me=new WeakMap,Pe=new WeakMap,Ie=new WeakMap,"
                    "Be=new WeakMap,je=new WeakSet,")
AXE_SLOT = """window.netlabAxeSlot = class {
  constructor() { this.key = Symbol("axe private field"); }
  has(o) { return Object.prototype.hasOwnProperty.call(o, this.key); }
  get(o) { return o[this.key]; }
  set(o, v) { o[this.key] = v; return this; }
  add(o) { return this.set(o, true); }
};
"""


# axe memoizes its helpers with memoizee (each memoized function in axe._memoizedFns, cleared after
# every run). For a function of one or more objects (a node, a virtual node) memoizee finds a call's
# arguments by a linear search (indexOf) through every argument it has seen, so on a page of a few
# thousand elements each lookup walks a list of thousands: a tenth of axe's time. Here the same
# functions are memoized in Maps (one per argument position, keyed by identity as indexOf is, NaN
# included): the same calls answered from the same cache, with the same clear(), and a call that throws
# is not kept, as with memoizee. Like memoizee, a function is keyed by its first fn.length arguments.
# (memoizee's error for a function that calls itself again with the same arguments is not copied: no
# run on any page of the book or the tiny test site raised it.)
# With both patches, the full axe results of all 32 pages (as above, 96,731 result nodes) compared
# equal with axe as shipped; the 32 pages took 64 s instead of 117 (70 s with the colour slots alone).
AXE_MEMOIZE = "axe._memoizedFns=[],function(e){return e=(0,so.default)(e),axe._memoizedFns.push(e),e}"
AXE_MAP_MEMOIZE = """window.netlabMemoize = function (fn) {
  const n = fn.length;
  let root = new Map();
  const memoized = function (...args) {
    let level = root;
    for (let i = 0; i < n - 1; i++) {
      let next = level.get(args[i]);
      if (next === undefined) { next = new Map(); level.set(args[i], next); }
      level = next;
    }
    const key = args[n - 1];      // undefined for a function of no declared arguments: one value
    if (level.has(key)) { return level.get(key); }
    const value = fn.apply(this, args);
    level.set(key, value);
    return value;
  };
  memoized.clear = () => { root = new Map(); };
  return memoized;
};
"""


def _axe_source() -> str:
    """The axe-core script a page is given: as shipped, or with the two string patches under
    NETLAB_AXE_FAST=1."""
    from axe_playwright_python.base import AXE_SCRIPT
    return _patched_axe_source() if axe_fast() else AXE_SCRIPT


@functools.cache
def _patched_axe_source() -> str:
    """axe-core with the colour slots and the memoization in Maps, where their text is found."""
    from axe_playwright_python.base import AXE_SCRIPT
    source, prelude = AXE_SCRIPT, ""
    if source.count(AXE_COLOR_FIELDS) == 1:
        slots = AXE_COLOR_FIELDS.replace("new WeakMap", "new netlabAxeSlot").replace("new WeakSet", "new netlabAxeSlot")
        source, prelude = source.replace(AXE_COLOR_FIELDS, slots), prelude + AXE_SLOT
    if source.count(AXE_MEMOIZE) == 1:
        source = source.replace(AXE_MEMOIZE, AXE_MEMOIZE.replace("(0,so.default)(e)", "netlabMemoize(e)"))
        prelude += AXE_MAP_MEMOIZE
    return prelude + source


# axe's colour-contrast rule reads the computed colour of every element behind every piece of text
# and parses that string into a Color (colorjs.io underneath: a parse, a gamut map, a conversion to
# sRGB), hundreds of thousands of times on a long page, though a page has a few dozen distinct
# colour strings. Each string is parsed once per page here, and a repeat sets the same four numbers
# through the same setters that the parse ends with: the same Color, the same verdicts (the full
# axe results, passes and incomplete included, of every page compared equal with and without it).
# A string that does not parse still throws, every time. The parse was a fifth of axe's time.
# (Opt-in with the two patches above: NETLAB_AXE_FAST=1.)
AXE_PARSE_ONCE = """() => {
  const Color = window.axe && axe.commons && axe.commons.color && axe.commons.color.Color;
  if (!Color || typeof Color.prototype.parseString !== "function" || Color.prototype.parseString.netlabOnce) { return; }
  const parse = Color.prototype.parseString, parsed = new Map();
  const once = function (text) {
    const known = parsed.get(text);
    if (known) { [this.r, this.g, this.b, this.alpha] = known; return this; }
    parse.call(this, text);
    parsed.set(text, [this.r, this.g, this.b, this.alpha]);
    return this;
  };
  once.netlabOnce = true;
  Color.prototype.parseString = once;
}"""


# Switching the theme starts CSS colour transitions (150 ms in the theme); a check that reads the
# colours before they end reads colours between light and dark. Every running animation or transition
# that has an end is brought to that end at once (Animation.finish(): the same end values the page
# reaches when it has run its course; one that never ends is left alone, as the wait left it). Waiting
# for them instead had Chromium draw every frame of every transition on every page (about 5 CPU-s of
# the visit) and the broken page's 1.5 s transition in real time.
FINISH_TRANSITIONS = """() => {
  for (const a of document.getAnimations()) {
    if (a.effect && Number.isFinite(a.effect.getComputedTiming().endTime)) { try { a.finish(); } catch (e) { /* paused at rate 0: no end to reach */ } }
  }
}"""


# The rules that cannot find a serious or critical violation, from axe's own metadata: a violation's
# impact is its rule's declared impact (every rule of axe-core 4.12 declares one; without one it would
# be the highest impact among its failing checks), so a rule is left out only if its own impact and
# that of every one of its checks is at most "moderate" (a check whose impact is not given keeps its
# rule). Their findings are never read (only serious and critical ones are reported), so they are not
# run: 29 of axe-core 4.12's 105 rules (landmarks, region, heading order, ...; a few of them off by
# default anyway). The 32-page visit took 108.2/108.5 CPU-s with them left out, 111.5/111.3 without.
AXE_MILD_RULES = """() => {
  const mild = new Set(["minor", "moderate"]);
  const impact = id => (axe._audit.data.checks[id] || {}).impact;
  return axe._audit.rules.filter(r => (r.impact === undefined || mild.has(r.impact))
      && [...r.any, ...r.all, ...r.none].every(c => mild.has(impact(c.id || c)))).map(r => r.id);
}"""


async def _axe(page, options: dict, context="html") -> list[dict]:
    # preload=false: axe would otherwise re-fetch stylesheets itself (and resolve their
    # @import against the page, a 404 that is axe's, not the site's)
    options = {"preload": False, **options}
    if not await page.evaluate("typeof window.axe === 'object'"):
        await page.evaluate(_axe_source())
        if axe_fast():
            await page.evaluate(AXE_PARSE_ONCE)
    if "runOnly" not in options:
        options.setdefault("rules", {}).update({rule: {"enabled": False} for rule in await page.evaluate(AXE_MILD_RULES)})
    result = await page.evaluate(f"axe.run({json.dumps(context)}, {json.dumps(options)})")
    return [v for v in result["violations"] if v.get("impact") in SERIOUS]


def _axe_lines(violations: list[dict]) -> list[str]:
    lines = []
    for v in violations:
        targets = ", ".join(str(n["target"][0]) for n in v["nodes"][:3])
        lines.append(f"axe {v['id']} ({v['impact']}): {v['help']} — {len(v['nodes'])} element(s), e.g. {targets}")
    return lines


async def _check_explorers(page, report: PageReport) -> None:
    explorers = page.locator(".netlab-explorer")
    n = await explorers.count()
    report.counts["explorers"] = n
    for k in range(n):
        root = explorers.nth(k)
        name = await root.get_attribute("id") or f"explorer {k + 1}"
        img = root.locator("img.netlab-explorer-frame")
        inputs = root.locator(".netlab-explorer-input")
        if await img.count() != 1:
            report.add("explorers", f"{name}: no frame image")
            continue
        n_inputs = await inputs.count()
        if n_inputs == 0:
            report.add("explorers", f"{name}: no controls")
            continue
        if await root.get_attribute("data-ready") != "1":
            report.add("explorers", f"{name}: its script did not set it up (netlab-explorer.js missing or failing)")
        for i in range(n_inputs):
            control = inputs.nth(i)
            label = await root.locator(f'label[for="{await control.get_attribute("id")}"]').text_content() or f"control {i + 1}"
            value, high = int(await control.input_value()), int(await control.get_attribute("data-count") or 0) - 1
            if high < 0:
                high = int(await control.get_attribute("max"))
            if high == 0:
                continue  # a single-valued control cannot move
            before_src = await img.get_attribute("src")
            before_out = await root.locator("output").nth(i).text_content() if await root.locator("output").count() > i else None
            key = "ArrowRight" if value < high else "ArrowLeft"
            await control.focus()
            started = time.perf_counter()
            await control.press(key)
            moved = await img.evaluate("async (im, before) => { if (im.src !== before) { try { await im.decode(); } catch (e) {} } "
                                       "return {changed: im.src !== before, width: im.naturalWidth, alt: im.alt}; }", before_src)
            report.widget_update_s.append(time.perf_counter() - started)   # key press -> new frame decoded
            if not moved["changed"]:
                report.add("explorers", f'{name}: moving "{label.strip()}" did not change the figure (frames missing?)')
            elif moved["width"] == 0:
                report.add("explorers", f'{name}: the frame shown after moving "{label.strip()}" does not load')
            elif not moved["alt"].strip():
                report.add("explorers", f'{name}: the frame shown after moving "{label.strip()}" has no alt text')
            if before_out is not None and await root.locator("output").nth(i).text_content() == before_out:
                report.add("explorers", f'{name}: the value shown for "{label.strip()}" did not follow the control')
            await control.press("ArrowLeft" if key == "ArrowRight" else "ArrowRight")  # back to the default


EXERCISES = """() => Array.from(document.querySelectorAll(".netlab-exercise")).map((root, k) => {
  const name = root.dataset.key || `exercise ${k + 1}`;
  let spec;
  try { spec = JSON.parse(root.dataset.spec); } catch (e) { return [`${name}: no answer specification (data-spec)`]; }
  const input = root.querySelector(".netlab-exercise-input"), button = root.querySelector(".netlab-exercise-check");
  const feedback = root.querySelector(".netlab-exercise-feedback");
  if (!input || !button || !feedback) { return [`${name}: missing its input, check button or feedback area`]; }
  const problems = [];
  // typed into the field and checked with the button, as a reader would (the page's own handlers answer)
  for (const [given, expect] of [[String(spec.answer), "correct"], [String(spec.answer * 1000), "wrong"], ["not a number", "wrong"]]) {
    input.value = given;
    input.dispatchEvent(new Event("input", {bubbles: true}));
    button.click();
    const text = feedback.textContent.trim();
    if (!feedback.classList.contains(expect) || !text) {
      problems.push(`${name}: answering "${given}" gave "${text}" (expected '${expect}' feedback)`);
    }
  }
  input.value = "";
  return problems;
}).flat()"""


async def _check_exercises(page, report: PageReport) -> None:
    report.counts["exercises"] = await page.locator(".netlab-exercise").count()
    for problem in await page.evaluate(EXERCISES):
        report.add("exercises", problem)


async def _check_solutions(page, report: PageReport) -> None:
    solutions = await page.evaluate(SOLUTIONS)
    report.counts["solutions"] = len(solutions)
    clicked = []
    for s in solutions:
        name = s["id"] or s["title"] or f"dropdown {s['index'] + 1}"
        if s["nBody"] == 0:
            report.add("solutions", f"{name}: the dropdown has no content")
            continue
        if s["visible"]:
            report.add("solutions", f"{name}: the solution is visible before it is clicked")
            continue
        el = page.locator(".admonition.dropdown, details.sd-dropdown").nth(s["index"])
        # the title, where a reader clicks (sphinx-togglebutton makes the whole title the toggle)
        toggle = el.locator("summary" if s["isDetails"] else ".admonition-title").first
        if await toggle.count() == 0:
            report.add("solutions", f"{name}: no toggle to reveal the solution")
            continue
        # a real click at the title's centre (scrolled into view); force=True skips Playwright's wait for
        # the title to stop moving, which the reveal of the solution before it keeps starting again. A
        # title covered by something else still fails: that gets the click, and nothing is revealed.
        await toggle.click(force=True)
        clicked.append((name, s["index"], el))
    # every toggle clicked, one after the other as a reader would; then one wait for all of them to
    # show (each wait used to poll on its own, one solution at a time)
    if not clicked:
        return
    try:
        await page.wait_for_function(ALL_SOLUTIONS_VISIBLE, arg=[i for _, i, _ in clicked], timeout=10_000, polling=100)
    except Exception:
        for name, index, el in clicked:
            if not await page.evaluate(SOLUTION_VISIBLE, [index]):
                state = await el.evaluate("el => el.className + '; ' + el.innerHTML.slice(0, 300)")
                report.add("solutions", f"{name}: clicking the toggle did not reveal the solution ({state})")


async def _settled(pending: set, timeout_s: float) -> bool:
    """True once no request is in flight at two looks 50 ms apart; False after ``timeout_s``."""
    deadline, quiet = time.perf_counter() + timeout_s, 0
    while time.perf_counter() < deadline:
        quiet = quiet + 1 if not pending else 0
        if quiet >= 2:
            return True
        await asyncio.sleep(0.05)
    return False


def elsewhere(base_url: str) -> re.Pattern:
    """Every URL not under ``base_url``: what the routes block. Only those requests are routed, so
    the site's own requests go straight to the server instead of each waiting on a Python handler
    to let it through (as the glob of every URL, ``**/*``, made them)."""
    return re.compile("^(?!" + re.escape(base_url) + ")")


async def inspect_page(context, base_url: str, path: str) -> PageReport:
    report = PageReport(path)
    start = time.perf_counter()
    page = await context.new_page()
    page.on("console", lambda m: report.add("load", f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: report.add("load", f"JavaScript error: {e}"))
    page.on("requestfailed", lambda r: None if not r.url.startswith(base_url)
            else report.add("load", f"request failed: {r.url} ({r.failure})"))
    page.on("response", lambda r: report.add("load", f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    async def route(r):
        if r.request.url.startswith(base_url):
            await r.continue_()
        else:
            report.add("load", f"request to another host (blocked; the page must not need it): {r.request.url}")
            await r.abort("blockedbyclient")

    await page.route(elsewhere(base_url), route)
    # requests in flight (what Playwright's "networkidle" waits on, without its half second of quiet)
    pending = set()
    page.on("request", lambda r: pending.add(r))
    page.on("requestfinished", lambda r: pending.discard(r))
    page.on("requestfailed", lambda r: pending.discard(r))
    mark = [time.perf_counter()]

    def lap(name):
        now = time.perf_counter()
        report.timings[name] = round(now - mark[0], 2)
        mark[0] = now

    try:
        response = await page.goto(base_url + path, wait_until="load", timeout=TIMEOUT_MS)
        if response is None or not response.ok:
            report.add("load", f"the page itself did not load ({response.status if response else 'no response'})")
        math_state = await page.evaluate(WAIT_FOR_MATH)
        if math_state not in ("ok", "none"):
            report.add("math", math_state)
        if not await _settled(pending, TIMEOUT_MS / 1000):
            report.add("load", f"requests still unanswered after {TIMEOUT_MS // 1000} s: "
                               f"{sorted(r.url[:100] for r in pending)[:5]}")
        lap("load")

        figures = await page.evaluate(FIGURES)
        report.counts["figures"] = len(figures)
        for f in figures:
            if f["width"] == 0:
                report.add("figures", f"figure does not load: {f['src']}")
            alt = (f["alt"] or "").strip()
            if f["alt"] is None or (f["inArticle"] and not alt):
                report.add("figures", f"figure without alternative text: {f['src']}")
            elif alt.lower().endswith((".png", ".svg", ".jpg", ".jpeg", ".gif")):
                report.add("figures", f"figure whose alternative text is a file name ({alt}): describe it")

        math = await page.evaluate(MATH)
        report.counts["math"] = math["n"]
        if math["mathjax"]:
            report.add("math", "the page loads MathJax: formulas are typeset at build time (book/_ext/mathml.py)")
        for t in math["unrendered"][:5]:
            report.add("math", f"formula not typeset: {t}")
        for t in math["errors"][:5]:
            report.add("math", f"TeX error: {t}")
        for t in math["raw"][:5]:
            report.add("math", f"raw TeX left in the text: {t}")

        lap("figures+math")
        for line in _axe_lines(await _axe(page, {"resultTypes": ["violations"]})):
            report.add("accessibility", line)
        lap("axe")
        await _check_explorers(page, report)
        lap("explorers")
        await _check_exercises(page, report)
        lap("exercises")
        await _check_solutions(page, report)
        lap("solutions")

        await page.set_viewport_size(PHONE)          # a phone, before any reveal is opened
        for line in await page.evaluate(PHONE_FIT):
            report.add("phone", f"at 390 px, light: {line}")
        await page.set_viewport_size(DESKTOP)
        lap("phone")

        await page.emulate_media(color_scheme="dark")
        try:
            await page.wait_for_function("document.documentElement.dataset.theme === 'dark'", timeout=3000)
        except Exception:
            report.add("dark", "the page does not switch to its dark theme when the reader prefers dark")
        else:
            await page.evaluate(FINISH_TRANSITIONS)   # the dark colours as they end, not midway
            for line in await page.evaluate(DARK):
                report.add("dark", line)
            # the reading area, without code blocks (their colours are the theme's accessible-pygments
            # dark style; the navigation chrome is checked in light mode above)
            main = "#main-content" if await page.locator("#main-content").count() else "html"
            dark_axe = await _axe(page, {"runOnly": ["color-contrast"], "resultTypes": ["violations"]},
                                  context={"include": [[main]], "exclude": [[".highlight"]]})
            for line in _axe_lines(dark_axe):
                report.add("dark", "dark mode: " + line)
            lap("dark")
            await page.set_viewport_size(PHONE)
            for line in await page.evaluate(PHONE_FIT):
                if "shows its result" not in line:       # the solutions check has opened every dropdown
                    report.add("phone", f"at 390 px, dark: {line}")
        lap("phone dark")
    except Exception as exc:  # a crash of the visit is a problem of the page, reported, not hidden
        report.add("load", f"visiting the page failed: {type(exc).__name__}: {exc}")
    finally:
        await page.close()
        report.seconds = time.perf_counter() - start
    return report


async def check_search(context, base_url: str, root: Path, term: str) -> list[str]:
    page = await context.new_page()
    problems = []
    try:
        await page.goto(f"{base_url}search.html?q={term}", wait_until="load", timeout=TIMEOUT_MS)
        await page.wait_for_function(
            "() => { const s = document.querySelector('#search-results');"
            " return s && /found|did not match|no results/i.test(s.textContent) ; }", timeout=20_000)
        hrefs = await page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(a => a.href)")
        if not hrefs:
            problems.append(f"searching for {term!r} found nothing")
        for href in hrefs:
            rel = href.split("#")[0].split("?")[0].removeprefix(base_url)
            target = root / rel
            if not target.is_file():
                problems.append(f"search result {href} does not exist")
            elif term.lower() not in target.read_text(encoding="utf-8", errors="replace").lower():
                problems.append(f"search result {rel} does not contain {term!r}")
    except Exception as exc:
        problems.append(f"the search page failed: {type(exc).__name__}: {exc}")
    finally:
        await page.close()
    return problems


async def launch(playwright, user_data_dir: str):
    """Debian's Chromium, headless, on a fresh profile (``user_data_dir``, a new temporary directory).

    Routing (aborting every request not to the local server) is set up by the caller."""
    return await playwright.chromium.launch_persistent_context(
        user_data_dir, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
        viewport=DESKTOP, color_scheme="light", service_workers="block")


async def _checked(name: str, check) -> list[str]:
    """The problems ``check`` (a coroutine) finds; its crash is one more problem, not the end of the visit."""
    try:
        return await check
    except Exception as exc:
        return [f"{name} failed: {type(exc).__name__}: {exc}"]


async def _inspect(root: Path, pages: list[str], search_term: str | None,
                   layout_page: str | None = None, phone_pages: list[str] | None = None) -> SiteReport:
    from playwright.async_api import async_playwright

    start = time.perf_counter()
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        with SiteServer(root) as server:
            async with async_playwright() as pw:
                context = await launch(pw, profile)
                # each page routes its own requests (inspect_page); this catches anything else
                await context.route(elsewhere(server.base_url), lambda r: r.abort("blockedbyclient"))
                gate = asyncio.Semaphore(CONCURRENCY)

                async def gated(job):
                    async with gate:
                        return await job

                # every page, then the search, the reading layout and the phone fit (each of these two
                # in its own browser, as reader_layout and phone_fit run it), all through one gate of
                # CONCURRENCY places: the last three fill the places the last pages leave, where they
                # used to run one after the other once the visit was over (the search) or after it.
                # the largest pages first, so that the visit ends on small ones and no core waits on one
                # long page at the end (each report names its page: the order changes nothing else)
                largest_first = sorted(pages, key=lambda p: -(root / p).stat().st_size)
                jobs = [gated(inspect_page(context, server.base_url, p)) for p in largest_first]
                extras = {"search": check_search(context, server.base_url, root, search_term) if search_term else None,
                          "layout": _reader_layout_in(pw, server.base_url, layout_page) if layout_page else None,
                          "phone": _phone_fit_in(pw, server.base_url, phone_pages) if phone_pages else None}
                extras = {k: v for k, v in extras.items() if v is not None}
                results = await asyncio.gather(*jobs, *(gated(_checked(f"the {k} check", v)) for k, v in extras.items()))
                reports, found = results[:len(pages)], dict(zip(extras, results[len(pages):]))
                await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return SiteReport({r.path: r for r in reports}, found.get("search", []), time.perf_counter() - start,
                      layout=found.get("layout"), phone=found.get("phone"))


def inspect_site(root: Path, pages: list[str] | None = None, search_term: str | None = None,
                 layout_page: str | None = None, phone_pages: list[str] | None = None) -> SiteReport:
    """Visit ``pages`` (default: every content page under ``root``) and return what went wrong.

    With ``layout_page`` and ``phone_pages``, the report also holds what :func:`reader_layout` and
    :func:`phone_fit` find on them (``layout``, ``phone``), checked during the same visit."""
    root = Path(root)
    return asyncio.run(_inspect(root, content_pages(root) if pages is None else pages, search_term,
                                layout_page, phone_pages))


# --- reading on a phone, a tablet and a desktop -------------------------------------------------

NAV_OPEN = """(kind) => {
  const dialog = document.getElementById(`pst-${kind}-sidebar-modal`);
  if (!dialog || !dialog.open) { return 0; }
  return Array.from(dialog.querySelectorAll("a")).filter(a => a.getBoundingClientRect().width > 0).length;
}"""

SEARCH_FIELDS = """() => {
  const visible = el => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0 &&
                          getComputedStyle(el).visibility !== "hidden"; };
  const fields = Array.from(document.querySelectorAll("form.bd-search, button.search-button-field")).filter(visible);
  return fields.map(f => f.className);
}"""

SEARCH_ICON = """() => {
  const form = document.querySelector("#pst-search-dialog form.bd-search");
  const input = form && form.querySelector("input");
  const icon = form && form.querySelector(".icon, svg, i");
  if (!input || !icon) { return "no search field in the search dialog"; }
  input.value = "bandwidth";
  const i = icon.getBoundingClientRect(), r = input.getBoundingClientRect();
  const textStart = r.left + parseFloat(getComputedStyle(input).paddingLeft);
  return i.right <= textStart + 1 ? "" : `the magnifier (right edge ${i.right.toFixed(0)} px) covers the typed text (from ${textStart.toFixed(0)} px)`;
}"""


async def _reader_layout(root: Path, page_path: str) -> list[str]:
    from playwright.async_api import async_playwright

    with SiteServer(root) as server:
        async with async_playwright() as pw:
            return await _reader_layout_in(pw, server.base_url, page_path)


async def _reader_layout_in(pw, base_url: str, page_path: str) -> list[str]:
    """reader_layout on the site served at ``base_url``, in a browser of its own."""
    problems = []
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        context = await launch(pw, profile)
        await context.route(elsewhere(base_url), lambda r: r.abort("blockedbyclient"))
        page = await context.new_page()
        for width, kind, name in ((390, "primary", "menu"), (800, "primary", "menu"),
                                  (390, "secondary", "contents"), (800, "secondary", "contents")):
            await page.set_viewport_size({"width": width, "height": 844})
            await page.goto(base_url + page_path, wait_until="load")
            button = page.locator(f"button.{kind}-toggle:visible").first
            if await button.count() == 0:
                problems.append(f"at {width} px there is no visible {name} button")
                continue
            await button.click()
            try:
                await page.wait_for_function(NAV_OPEN, arg=kind, timeout=3000)
            except Exception:
                problems.append(f"at {width} px, tapping the {name} button does not open the {name}")
        await page.set_viewport_size({"width": 1366, "height": 900})
        await page.goto(base_url + page_path, wait_until="load")
        fields = await page.evaluate(SEARCH_FIELDS)
        if len(fields) != 1:
            problems.append(f"at 1366 px the page shows {len(fields)} search boxes: {fields}")
        await page.keyboard.press("Control+k")
        await page.wait_for_timeout(300)
        if message := await page.evaluate(SEARCH_ICON):
            problems.append(message)
        await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return problems


def reader_layout(root: Path, page_path: str) -> list[str]:
    """Navigation opens from its buttons at phone and tablet width; one search box; a readable search field."""
    return asyncio.run(_reader_layout(Path(root), page_path))


PHONE_FIT = """async () => {
  // What a phone reader meets: the page never scrolls sideways; whatever is wider than the screen sits in a
  // box that scrolls (and a table that scrolls shows its frame); diagram text at least 11 px; titles sized
  // for a phone; a lab's "Predict" result hidden until asked for.
  const problems = [];
  const vw = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > vw + 1) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide on a ${vw} px screen`);
  }
  const article = document.querySelector("article.bd-article") || document.body;
  const scrolls = el => /(auto|scroll)/.test(getComputedStyle(el).overflowX) && el.getBoundingClientRect().right <= vw + 1;
  const framed = el => ["Top", "Left"].some(s => parseFloat(getComputedStyle(el)[`border${s}Width`]) > 0);
  const name = el => el.tagName.toLowerCase() + (el.className && typeof el.className === "string"
                     ? "." + el.className.trim().split(/\\s+/).slice(0, 2).join(".") : "");
  const unboxed = new Map(), unframed = new Set();
  for (const el of article.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= vw + 1) { continue; }
    let box = el.parentElement;
    while (box && box !== article.parentElement && !scrolls(box)) { box = box.parentElement; }
    if (!box || box === article.parentElement) {
      if (![...unboxed.keys()].some(k => k.contains(el))) { unboxed.set(el, `${name(el)} (${Math.round(r.width)} px)`); }
    } else if (el.tagName === "TABLE" && box.scrollWidth > box.clientWidth + 1 && !framed(box)) {
      unframed.add(name(box));
    }
  }
  if (unboxed.size) { problems.push(`wider than the screen outside a scrolling box: ${[...unboxed.values()].slice(0, 4).join(", ")}`); }
  if (unframed.size) { problems.push(`a wide table scrolls with no visible frame: ${[...unframed].join(", ")}`); }
  for (const img of article.querySelectorAll("img.netlab-diagram")) {
    const svg = await (await fetch(img.currentSrc || img.src)).text();
    const sizes = [...svg.matchAll(/font-size:\\s*([0-9.]+)px/g)].map(m => parseFloat(m[1]));
    const box = svg.match(/viewBox="[-0-9.]+ [-0-9.]+ ([0-9.]+) [0-9.]+"/);
    if (!sizes.length || !box) { continue; }
    const px = Math.min(...sizes) * img.getBoundingClientRect().width / parseFloat(box[1]);
    if (px < 10.95) { problems.push(`diagram ${img.src.split("/").pop()}: its smallest text is ${px.toFixed(1)} px`); }
  }
  const h1 = article.querySelector("h1");
  if (h1 && parseFloat(getComputedStyle(h1).fontSize) > 28.5) {
    problems.push(`the title is set at ${getComputedStyle(h1).fontSize}, too large for a phone`);
  }
  if (/\\/labs\\//.test(location.pathname)) {
    for (const h2 of article.querySelectorAll("section > h2")) {
      const title = h2.textContent.replace(/^[0-9.\\s]+/, "").trim().toLowerCase();
      const first = h2.parentElement.querySelector(".cell_output");
      if (title.startsWith("predict") && first && first.checkVisibility()) {
        problems.push(`"${h2.textContent.replace("#", "").trim()}" shows its result before the reader asks`);
      }
    }
  }
  return problems;
}"""


async def _phone_fit(root: Path, pages: list[str]) -> list[str]:
    from playwright.async_api import async_playwright

    with SiteServer(root) as server:
        async with async_playwright() as pw:
            return await _phone_fit_in(pw, server.base_url, pages)


async def _phone_fit_in(pw, base_url: str, pages: list[str]) -> list[str]:
    """phone_fit on the site served at ``base_url``, in a browser of its own."""
    problems = []
    profile = tempfile.mkdtemp(prefix="netlab-chromium-")
    try:
        context = await launch(pw, profile)
        await context.route(elsewhere(base_url), lambda r: r.abort("blockedbyclient"))
        page = await context.new_page()
        await page.set_viewport_size({"width": 390, "height": 844})
        for path in pages:
            await page.goto(base_url + path, wait_until="load")
            problems += [f"{path} at 390 px: {p}" for p in await page.evaluate(PHONE_FIT)]
        await context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return problems


def phone_fit(root: Path, pages: list[str]) -> list[str]:
    """Pages that do not fit a 390 px phone: sideways scrolling, or tables wider than the column."""
    return asyncio.run(_phone_fit(Path(root), pages))
