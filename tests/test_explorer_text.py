"""Explorer text is readable on a phone (issue 16): at a 390 px viewport every piece of figure text
an explorer shows is at least 9 CSS px, its labels at least 10 px; at 1366 px the page shows the
frames drawn at the figure's own size, text no larger than the page's body text.

Static: the frames come from real lab drawing functions, their SVG is parsed here (not with
netlab's own helper), and the frame the page script would pick is worked out from the
``data-narrow-below`` attribute as ``_static/netlab-explorer.js`` does.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from netlab import links, plots, widgets
from netlab.collectives import figures as plots_collectives
from netlab.uet import figures as plots_transport

ROOT = Path(__file__).resolve().parents[1]
#: The book theme's article at a 390 px viewport keeps 1rem on each side (measured in Chromium:
#: the article is 358 px wide inside the 390 px page); the explorer box adds its border (1 px
#: a side) and its own padding, read from netlab.css below.
VIEWPORT_PX, THEME_GUTTER_PX, BORDER_PX = 390, 16, 1
#: Width of an explorer frame at a 1366 px viewport (measured in Chromium on the built lab pages).
DESKTOP_FRAME_PX = 723
BODY_TEXT_PX = 16


def _phone_padding_px() -> float:
    """The explorer box's side padding at 390 px, from netlab.css: the phone rule if its query
    applies at 390 px, else the general one."""
    css = (ROOT / "_static" / "netlab.css").read_text()
    general = re.search(r"\.netlab-explorer, \.netlab-exercise \{[^}]*padding:\s*[\d.]+rem ([\d.]+)rem", css)
    side = float(general.group(1)) * 16
    for query, block in re.findall(r"@media \(max-width: ([\d.]+)rem\) \{(.*?)\n\}", css, flags=re.S):
        rule = re.search(r"\.netlab-explorer \{[^}]*padding:\s*[\d.]+rem ([\d.]+)rem", block)
        if rule and float(query) * 16 >= VIEWPORT_PX:
            side = float(rule.group(1)) * 16
    return side


def phone_frame_px() -> float:
    return VIEWPORT_PX - 2 * THEME_GUTTER_PX - 2 * BORDER_PX - 2 * _phone_padding_px()


def text_sizes(svg: str) -> tuple[float, list[list[float]]]:
    """viewBox width and, per <text>, the font sizes of its parts (same user units)."""
    width = float(re.search(r'viewBox="0 0 ([\d.]+) [\d.]+"', svg).group(1))
    texts = [[float(v) for v in re.findall(r"font-size:\s*([\d.]+)px", t)]
             for t in re.findall(r"<text\b.*?</text>", svg, flags=re.S)]
    return width, [t for t in texts if t]


def shown_px(svg: str, frame_px: float) -> tuple[float, float]:
    """(smallest text part, smallest label) in CSS px when ``svg`` is shown ``frame_px`` wide."""
    width, texts = text_sizes(svg)
    scale = frame_px / width
    return min(min(t) for t in texts) * scale, min(max(t) for t in texts) * scale


def _static_form(explorer):
    html = explorer.static_html()
    lists = {name: json.loads(re.search(rf'class="netlab-explorer-{name}">(.*?)</script>', html, re.S).group(1))
             for name in ("pieces", "narrow-pieces", "frames")}
    below = re.search(r'data-narrow-below="(\d+)"', html)
    return (lists["pieces"], lists["narrow-pieces"]), lists["frames"], int(below.group(1)) if below else 0


def _join(pieces, runs):
    return "".join(pieces[i] for r in range(0, len(runs), 2) for i in range(runs[r], runs[r] + runs[r + 1]))


def _picked(pieces, frame, narrow_below, frame_px):
    """The SVG netlab-explorer.js shows in a frame ``frame_px`` wide (``pieces``: wide, narrow lists)."""
    if narrow_below and frame_px < narrow_below and frame.get("narrow"):
        return _join(pieces[1], frame["narrow"])
    return _join(pieces[0], frame["parts"])


# Three lab explorers, two values per control: the two-panel ones (labs 2 and 6: 8- and 9-point
# legends, log-axis superscripts) were the smallest text on a phone, 3.8-4.3 px before the fix.
EXPLORERS = {
    "lab02 path breakdown": (lambda size, hops: links.draw_path_breakdown(size, 400e9, hops, 250e-9),
                             {"size": widgets.choice("Message", [4096, 1 << 20]), "hops": widgets.choice("Hops", [1, 4])}),
    "lab06 all-reduce algorithms": (plots_collectives.draw_algorithms,
                                    {"world_size": widgets.choice("Ranks", [8, 64]),
                                     "alpha_us": widgets.choice("alpha", [2.7])}),
    "lab08 go-back-N vs selective repeat": (plots_transport.draw_loss,
                                            {"rate": widgets.choice("Rate", ["400G", "800G"]),
                                             "delay_us": widgets.choice("Delay", [8])}),
}


@pytest.fixture(scope="module", params=sorted(EXPLORERS))
def explorer(request):
    draw, controls = EXPLORERS[request.param]
    ex = widgets.Explorer(draw, controls, title=request.param)
    return request.param, ex, _static_form(ex)


def test_the_phone_frame_width_follows_the_stylesheet():
    # 390 - 2 x 16 (theme) - 2 x 1 (border) - 2 x 8 (0.5rem padding) = 340 px (Chromium measured 340)
    assert phone_frame_px() == 340


def test_phone_text_is_at_least_9_px_and_labels_10_px(explorer):
    name, ex, (pieces, table, narrow_below) = explorer
    width = phone_frame_px()
    for key, frame in table.items():
        smallest, label = shown_px(_picked(pieces, frame, narrow_below, width), width)
        assert smallest >= 9.0, f"{name} {key}: smallest text {smallest:.1f} px at {VIEWPORT_PX} px"
        assert label >= 10.0, f"{name} {key}: smallest label {label:.1f} px at {VIEWPORT_PX} px"


def test_the_wide_frames_alone_were_too_small_on_a_phone(explorer):
    """The frames before the fix (the figure at its own size, full width): this test's reference."""
    name, ex, (pieces, table, _) = explorer
    old_width = VIEWPORT_PX - 2 * THEME_GUTTER_PX - 2 * BORDER_PX - 2 * 16    # 1rem padding then: 324 px
    for key, frame in table.items():
        smallest, _ = shown_px(_join(pieces[0], frame["parts"]), old_width)
        assert smallest < 9.0, f"{name} {key}: the wide frame already reads {smallest:.1f} px on a phone"


def test_desktop_shows_the_figure_at_its_own_size_not_oversized(explorer):
    name, ex, (pieces, table, narrow_below) = explorer
    for key, frame in table.items():
        svg = _picked(pieces, frame, narrow_below, DESKTOP_FRAME_PX)
        values = ex._values(tuple(map(int, key.split("-"))))
        assert svg == plots.figure_to_svg(ex.draw(**values)), f"{name} {key}: desktop frame is not the plain figure"
        width, texts = text_sizes(svg)
        biggest = max(max(t) for t in texts) * DESKTOP_FRAME_PX / width
        smallest_label = min(max(t) for t in texts) * DESKTOP_FRAME_PX / width
        assert biggest <= BODY_TEXT_PX * 1.25 and smallest_label >= 9.0, (name, key, biggest, smallest_label)


def test_narrow_frames_keep_every_text_inside_the_figure(explorer):
    """fit_narrow wraps titles and labels and moves legends below: nothing sticks out or is cut."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    name, ex, _ = explorer
    for key in ex.keys():
        with plots.narrow_figures():
            fig = ex.draw(**ex._values(key))
        plots.fit_narrow(fig)
        assert fig.get_figwidth() <= plots.NARROW_WIDTH_IN
        FigureCanvasAgg(fig).draw()
        drawn = fig.get_tightbbox(fig.canvas.get_renderer())      # inches: everything drawn, text included
        width, height = fig.get_size_inches()
        assert drawn.x0 >= -0.02 and drawn.y0 >= -0.02 and drawn.x1 <= width + 0.02 and drawn.y1 <= height + 0.02, \
            f"{name} {key}: something drawn reaches {drawn} outside the {width:.2f} x {height:.2f} in figure"


def test_a_row_of_panels_is_stacked_and_the_live_figure_is_unchanged():
    with plots.narrow_figures():
        fig, axes = plots.figure(ncols=2, width_in=8.4, height_in=3.3)
    assert fig.get_size_inches().tolist() == [plots.NARROW_WIDTH_IN, 6.6] and len(axes) == 2
    left, right = (ax.get_subplotspec() for ax in axes)
    assert (left.rowspan.start, left.colspan.start, right.rowspan.start, right.colspan.start) == (0, 0, 1, 0)
    fig, axes = plots.figure(ncols=2, width_in=8.4, height_in=3.3)      # outside the block: as before
    assert fig.get_size_inches().tolist() == [8.4, 3.3]
    assert [ax.get_subplotspec().colspan.start for ax in axes] == [0, 1]


def _long_words(_=None):
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    for k in range(4):
        ax.semilogx([1, 10, 100, 1000], [k, k + 1, k + 3, k + 2], label=f"series number {k + 1}")
    ax.set_title("100,000 GPUs at 800 Gb/s, 2 tiers of 512-port switches, co-packaged optics")
    ax.set_xlabel("share of the brief's limit (beyond 1 = misses the brief), per design")
    ax.legend(loc="upper left")
    return fig


def test_fit_narrow_wraps_long_titles_and_moves_the_legend_below():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def extent(fig):
        FigureCanvasAgg(fig).draw()
        return fig.get_tightbbox(fig.canvas.get_renderer()), fig.get_size_inches()

    with plots.narrow_figures():
        before = _long_words()
    drawn, (width, _) = extent(before)
    assert drawn.x0 < -0.1 and drawn.x1 > width + 0.1        # the reference: cut at both edges unfitted
    with plots.narrow_figures():
        fig = _long_words()
    plots.fit_narrow(fig)
    drawn, (width, height) = extent(fig)
    assert drawn.x0 >= -0.02 and drawn.x1 <= width + 0.02 and drawn.y0 >= -0.02 and drawn.y1 <= height + 0.02
    ax = fig.axes[0]
    assert "\n" in ax.get_title() and "\n" in ax.get_xlabel()
    renderer = fig.canvas.get_renderer()
    legend, axes_box = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert legend.y1 <= ax.xaxis.get_tightbbox(renderer).y0 + 1 and legend.y1 < axes_box.y0
    assert height > 3.2                                       # grown by the legend: the plot keeps its room
