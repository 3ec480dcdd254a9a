"""A figure with alternative text shows as an <img> (a themed SVG) carrying it; without, as a plain PNG."""

import html
import re
from urllib.parse import unquote

from netlab import plots


def _figure():
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 1])
    return fig


def test_figure_without_alt_is_a_plain_png():
    fig = _figure()
    assert fig._repr_html_() is None
    assert fig._repr_png_()[:8] == b"\x89PNG\r\n\x1a\n"


def test_alt_text_is_carried_escaped_by_an_img():
    fig = _figure()
    fig.alt = 'Goodput against loss rate for "go-back-N" & selective repeat'
    out = fig._repr_html_()
    match = re.fullmatch(r'<img class="netlab-figure dark-light" src="data:image/svg\+xml;charset=utf-8,([^"]+)" alt="([^"]*)">', out)
    assert match, out
    assert unquote(html.unescape(match.group(1))).startswith("<svg")
    assert match.group(2) == "Goodput against loss rate for &quot;go-back-N&quot; &amp; selective repeat"
