"""The checks catch a broken page: missing widget frames, a JavaScript error, a CDN script, ...

A tiny site is written to a temporary directory: ``good.html`` holds a real
kernel-free explorer and exercise (made by netlab), ``broken.html`` the same
explorer with its frames removed, plus the usual ways a page breaks. The same
checks that pass on the book must pass on the good page and flag every fault
of the broken one.
"""

import re
import shutil

import pytest

from netlab import exercises, plots, widgets
from tests.site import browser_checks, static_checks
from tests.site.sitefiles import ROOT

HEAD = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="icon" href="data:,">
<script src="_static/netlab-explorer.js"></script><script src="_static/netlab-exercise.js"></script>
{extra_head}</head><body><main><h1>{title}</h1>{body}</main></body></html>"""


def _draw(rate_gbps):
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, rate_gbps])
    ax.set_title(f"{rate_gbps} Gb/s")
    return fig


def _explorer_html():
    explorer = widgets.Explorer(_draw, {"rate_gbps": widgets.choice("Link rate (Gb/s)", [100, 400, 800])},
                                readout=lambda rate_gbps: f"{rate_gbps} Gb/s", title="Test explorer")
    return explorer.static_html()


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiny-site")
    (root / "_static").mkdir()
    for name in ("netlab-explorer.js", "netlab-exercise.js"):
        shutil.copy(ROOT / "_static" / name, root / "_static" / name)
    explorer = _explorer_html()
    exercise = exercises.numeric("ex-test", "Bits in one byte", answer=8.0, unit="bit")._repr_html_()
    solution = '<details class="sd-dropdown"><summary>Solution</summary><p>Eight bits.</p></details>'
    (root / "good.html").write_text(HEAD.format(title="Good page", extra_head="", body=explorer + exercise + solution))
    no_frames = re.sub(r'(class="netlab-explorer-frames">).*?(</script>)', r"\1{}\2", explorer, flags=re.S)
    broken_body = (no_frames
                   + '<img src="missing-figure.png">'
                   + '<p><a href="nowhere.html">a dead link</a> and <a href="#no-such-anchor">a dead anchor</a></p>'
                   + "<script>undefinedFunction();</script>"
                   # a solution shown before any click, and one whose title is covered (the click misses it)
                   + '<details class="sd-dropdown" open><summary>Shown solution</summary><p>Too soon.</p></details>'
                   + '<div style="position:relative"><details class="sd-dropdown"><summary>Covered solution</summary>'
                   + '<p>Out of reach.</p></details><div style="position:absolute;inset:0;background:#fff"></div></div>')
    # text too faint to read in light mode, and text that only dark mode makes unreadable (the page
    # follows the reader's dark preference, as the book's theme does)
    broken_body += ('<p style="color:#c8c8c8">Faint in both modes.</p>'
                    '<p class="dim">Readable in light mode, lost in dark mode.</p>')
    # first on the page (so that a report naming a few elements would name it): readable in both
    # modes once its 1.5 s colour transition has ended (dark grey to near white); a dark check that
    # read it midway would flag it wrongly
    broken_body = '<p class="late">Readable in both modes when the theme has settled.</p>' + broken_body
    theme = ('<script>const dark = matchMedia("(prefers-color-scheme: dark)"); const follow = () => '
             '{ document.documentElement.dataset.theme = dark.matches ? "dark" : "light"; }; '
             'follow(); dark.addEventListener("change", follow);</script>'
             '<style>html[data-theme=dark] body { background: #101010; color: #eeeeee; }'
             ' html[data-theme=dark] .dim { color: #3a3a3a; }'
             ' .late { color: #222222; transition: color 1.5s linear; }'
             ' html[data-theme=dark] .late { color: #eeeeee; }</style>')
    cdn = (theme + '<script src="https://cdn.example.com/lib.js"></script><link rel="stylesheet" href="https://fonts.example.com/f.css">'
           '<link rel="stylesheet" href="_static/site.css">'
           '<script>const THEBE_JS_URL = "https://unpkg.com/thebe@0.8.2/lib/index.js"</script>')
    (root / "_static" / "site.css").write_text('@import url("https://fonts.example.com/css2?family=X");\n'
                                               '@font-face { font-family: X; src: url(fonts/missing.woff2); }\n')
    (root / "broken.html").write_text(HEAD.format(title="Broken page", extra_head=cdn, body=broken_body))
    return root


@pytest.mark.site
def test_static_checks_pass_the_good_page(tiny_site):
    for check in (static_checks.external_resources, static_checks.broken_links,
                  static_checks.images_without_alt, static_checks.explorer_problems):
        assert check(tiny_site, "good.html") == [], check.__name__


@pytest.mark.site
def test_static_checks_catch_the_broken_page(tiny_site):
    external = static_checks.external_resources(tiny_site, "broken.html")
    assert any("cdn.example.com" in p for p in external) and any("fonts.example.com" in p for p in external)
    assert any("inline script loads https://unpkg.com/thebe" in p for p in external)
    assert any("stylesheet _static/site.css loads https://fonts.example.com/css2" in p for p in external)
    assert any("missing file fonts/missing.woff2" in p for p in external)
    links = "\n".join(static_checks.broken_links(tiny_site, "broken.html"))
    assert "nowhere.html" in links and "no-such-anchor" in links and "missing-figure.png" in links
    assert static_checks.images_without_alt(tiny_site, "broken.html")
    assert any("3 of 3 frames missing" in p for p in static_checks.explorer_problems(tiny_site, "broken.html"))


@pytest.mark.browser
def test_browser_checks_pass_the_good_page_and_catch_the_broken_one(tiny_site, browser_required):
    report = browser_checks.inspect_site(tiny_site, pages=["good.html", "broken.html"])
    good, broken = report.pages["good.html"], report.pages["broken.html"]
    assert good.counts["explorers"] == 1 and good.counts["exercises"] == 1 and good.counts["solutions"] == 1
    for category in ("load", "figures", "explorers", "exercises", "solutions"):
        assert good.problems[category] == [], (category, good.problems[category])

    load = "\n".join(broken.problems["load"])
    assert "undefinedFunction" in load                        # the JavaScript error
    assert "cdn.example.com" in load and "fonts.example.com" in load   # blocked, and reported
    assert "missing-figure.png" in load                       # the 404
    assert any("did not change the figure" in p for p in broken.problems["explorers"])
    figures = "\n".join(broken.problems["figures"])
    assert "does not load" in figures and "without alternative text" in figures
    accessibility = "\n".join(broken.problems["accessibility"])
    assert "axe image-alt (critical)" in accessibility and "axe color-contrast (serious)" in accessibility
    dark = "\n".join(broken.problems["dark"])
    assert "dark mode: axe color-contrast (serious)" in dark and ".dim" in dark, dark
    assert ".late" not in dark, dark          # checked once its colour transition had ended
    solutions = "\n".join(broken.problems["solutions"])
    assert "Shown solution: the solution is visible before it is clicked" in solutions
    assert "Covered solution: clicking the toggle did not reveal the solution" in solutions
