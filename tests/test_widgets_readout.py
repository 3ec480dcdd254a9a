"""An explorer's readout on the published page: the default frame's sentence first, every frame's
own sentence in the page's frame table (which netlab-explorer.js shows as text on each move)."""

import html
import json
import re

from netlab import plots, widgets


def _draw(rate, mode):
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, rate])
    ax.set_title(mode)
    return fig


def _readout(rate, mode):
    # a sentence with characters HTML and a script block treat specially
    return f"{rate} Gb/s & {mode}: 8 x 4,096 B / {rate} Gb/s = {8 * 4096 * 8 / rate:g} ns < 1 µs </p>"


def test_the_page_shows_the_default_frames_readout_and_keeps_every_frames_own():
    ex = widgets.Explorer(_draw, {"rate": widgets.choice("Rate", [100, 400], default=400),
                                  "mode": widgets.choice("Mode", ["lossy", "pfc"], default="pfc")},
                          readout=_readout, title="readout")
    page = ex.static_html()
    # default frame 1-1: 400 Gb/s, pfc; 8 x 4,096 B x 8 / 400 = 655.36 ns
    shown = re.search(r'<p class="netlab-explorer-readout" aria-live="polite">(.*?)</p>\n?', page, re.S)
    assert html.unescape(shown.group(1)) == "400 Gb/s & pfc: 8 x 4,096 B / 400 Gb/s = 655.36 ns < 1 µs </p>"
    assert "<" not in shown.group(1) and "&amp;" in shown.group(1)       # escaped, so it stays text
    raw = re.search(r'class="netlab-explorer-frames">(.*?)</script>', page, re.S).group(1)
    assert "</" not in raw
    table = json.loads(raw)
    # 100 Gb/s: 2,621.44 ns; the "</" of every sentence is written "<\/" so the script block stays whole
    assert table["0-0"]["readout"] == "100 Gb/s & lossy: 8 x 4,096 B / 100 Gb/s = 2621.44 ns < 1 µs </p>"
    assert {k: v["readout"] for k, v in table.items()} == {
        f"{i}-{j}": _readout(rate, mode) for i, rate in enumerate([100, 400]) for j, mode in enumerate(["lossy", "pfc"])}
