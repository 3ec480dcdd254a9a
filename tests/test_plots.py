"""The palette passes WCAG's 3:1 for graphics on both site themes; SVG output follows the theme."""

import io
import math
import re

import pytest

from netlab import _mpl_speedups, plots


def _luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour (independent of netlab's code)."""
    h = hex_colour.lstrip("#")
    channels = [int(h[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_contrast_formula_against_known_values():
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)
    assert contrast("#E69F00", "#ffffff") == pytest.approx(2.25, abs=0.01)   # the old Ethernet orange
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)   # WebAIM's AA grey


@pytest.mark.parametrize("name", sorted(plots.TECH_COLORS))
def test_every_technology_colour_passes_3_to_1_on_both_themes(name):
    colour = plots.color(name)
    assert contrast(colour, plots.LIGHT_BACKGROUND) >= 3.0, (name, colour)
    assert contrast(colour, plots.DARK_BACKGROUND) >= 3.0, (name, colour)


@pytest.mark.parametrize("colour", plots.CYCLE)
def test_every_series_colour_passes_3_to_1_on_both_themes(colour):
    assert contrast(colour, plots.LIGHT_BACKGROUND) >= 3.0
    assert contrast(colour, plots.DARK_BACKGROUND) >= 3.0


def test_text_colours_pass_4_5_to_1():
    assert contrast(plots.LIGHT_FOREGROUND, plots.LIGHT_BACKGROUND) >= 4.5
    assert contrast(plots.DARK_FOREGROUND, plots.DARK_BACKGROUND) >= 4.5


def test_svg_neutrals_follow_the_theme_and_text_stays_text():
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 1], color=plots.color("ethernet"), label="RoCE")
    ax.set_title("a title")
    ax.legend()
    svg = plots.figure_to_svg(fig)
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert plots.DARK_MEDIA in svg and "var(--fg)" in svg and "var(--bg)" in svg
    body = svg.split("</style>", 1)[1]
    assert "#000000" not in body and "#ffffff" not in body        # no fixed black or white left
    assert plots.color("ethernet").lower() in svg.lower()        # technology colours kept
    assert ">a title<" in svg and "<metadata" not in svg
    assert not any(re.search(r"\d\.\d{2,}", tag) for tag in re.findall(r"<[^>]*>", svg))  # coordinates cut


def test_svg_keeps_every_digit_of_the_text_it_shows():
    # The static explorers showed a bar's "0.778" as "0.7" and a tick's "0.25" as "0.2": the
    # coordinate rounding also cut the numbers in the text (truncated, not even rounded).
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 1])
    ax.set_xticks([0.0, 0.25, 0.5])
    ax.text(0.1, 0.9, "0.778")
    ax.set_title("tail 20.6498 ms")
    svg = plots.figure_to_svg(fig)
    for shown in (">0.778<", ">0.25<", ">tail 20.6498 ms<"):
        assert shown in svg, shown
    assert not any(re.search(r"\d\.\d{2,}", tag) for tag in re.findall(r"<[^>]*>", svg))


def test_described_figure_is_an_svg_image_with_alt():
    fig, ax = plots.figure()
    ax.plot([0, 1], [1, 0])
    fig.alt = "A falling line"
    out = fig._repr_html_()
    assert 'src="data:image/svg+xml' in out and 'alt="A falling line"' in out and "dark-light" in out


def test_bad_decimals_are_refused():
    fig, _ = plots.figure()
    with pytest.raises(ValueError, match="decimals"):
        plots.figure_to_svg(fig, decimals=9)


def _minor_marks(ax, axis_name):
    """The minor tick positions a drawn axis shows (inside its view)."""
    ax.figure.draw_without_rendering()
    axis = getattr(ax, f"{axis_name}axis")
    low, high = sorted(axis.get_view_interval())
    return [loc for loc in axis.get_minorticklocs() if low <= loc <= high]


def test_a_log_axis_wider_than_four_decades_shows_no_minor_ticks():
    from matplotlib.figure import Figure

    fig, ax = plots.figure()
    ax.loglog([1e-2, 1e5], [1, 1e3])          # x: 7 decades, y: 3 (3.3 with the margins)
    assert _minor_marks(ax, "x") == []
    # y: matplotlib's own minor ticks, 2-9 times each power of ten
    plain = Figure()
    reference = plain.add_subplot()
    reference.set_position(ax.get_position())
    reference.loglog([1e-2, 1e5], [1, 1e3])
    reference.set_ylim(ax.get_ylim())
    expected = _minor_marks(reference, "y")
    assert len(expected) >= 3 * 8 - 2
    assert _minor_marks(ax, "y") == expected
    assert plots.MINOR_TICK_DECADES == 4.0


@pytest.mark.parametrize("decades, quiet", [(3.8, False), (4.3, True)])
def test_the_four_decade_boundary(decades, quiet):
    from matplotlib.figure import Figure

    fig, ax = plots.figure()
    ax.semilogx([1, 10 ** decades], [0, 1])
    ax.set_xlim(1, 10 ** decades)
    plain = Figure().add_subplot()
    plain.set_position(ax.get_position())
    plain.semilogx([1, 10 ** decades], [0, 1])
    plain.set_xlim(1, 10 ** decades)
    expected = _minor_marks(plain, "x")
    assert len(expected) >= 8 * 3                     # matplotlib itself draws them at both spans
    assert _minor_marks(ax, "x") == ([] if quiet else expected)


def test_minor_ticks_chosen_by_the_caller_are_kept_on_any_log_axis():
    from matplotlib.ticker import LogLocator

    fig, ax = plots.figure()
    ax.semilogx([1e-2, 1e5], [0, 1])
    ax.xaxis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))
    marks = _minor_marks(ax, "x")
    mantissas = {round(m / 10 ** math.floor(math.log10(m)), 6) for m in marks}
    assert mantissas == {2.0, 5.0} and len(marks) >= 14
    # so are the minor ticks a caller asks the scale for
    fig, ax = plots.figure()
    ax.plot([1e-2, 1e5], [0, 1])
    ax.set_xscale("log", subs=(3.0,))
    assert {round(m / 10 ** math.floor(math.log10(m)), 6) for m in _minor_marks(ax, "x")} == {3.0}
    # and an axis set back to linear, then to log again, is quieted again
    fig, ax = plots.figure()
    ax.semilogx([1e-2, 1e5], [0, 1])
    fig.draw_without_rendering()
    ax.set_xscale("linear")
    ax.set_xscale("log")
    assert _minor_marks(ax, "x") == []


# --- while the book builds, saving lays a figure out once, without drawing it first -------------

@pytest.fixture
def build(monkeypatch):
    """As while the book builds (make sets NETLAB_STATIC_WIDGETS=1)."""
    monkeypatch.setenv(_mpl_speedups.ENV, "1")


def _two_panels_with_legends():
    from netlab import links, specs
    return links.draw_path_breakdown(4096, specs.value("eth.400g.port_rate"), 4, 500e-9)


def _log_axis_with_title():
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    for k in range(3):
        ax.loglog([1, 10, 100, 1e4], [k + 1, 5 * k + 2, 30 * k + 4, 90], label=f"series {k}")
    ax.set_title("A title long enough to move the layout when it wraps on a narrow figure")
    ax.set_xlabel("message size (B)")
    ax.legend()
    return fig


def _narrow_fitted():
    with plots.narrow_figures():
        fig = _two_panels_with_legends()
    plots.fit_narrow(fig)
    return fig


def _narrow_wrapped():
    with plots.narrow_figures():
        fig = _log_axis_with_title()
    fig.axes[0].set_xlabel("message size in bytes, from one cache line to a whole shard, per rank")
    plots.fit_narrow(fig)
    assert "\n" in fig.axes[0].get_title() and "\n" in fig.axes[0].get_xlabel()    # wrapped: the case tested
    return fig


@pytest.mark.parametrize("make", [_two_panels_with_legends, _log_axis_with_title, _narrow_fitted, _narrow_wrapped])
def test_laying_out_without_drawing_gives_matplotlibs_own_output(make, build, monkeypatch):
    """The reference is matplotlib's own savefig (the silent draw, then the real one) and, for the
    narrow figures, fit_narrow measuring after full draws (``draw_without_rendering``), on fresh figures."""
    fast_svg, fast_png = plots.figure_to_svg(make()), make()._repr_png_()
    monkeypatch.setattr(_mpl_speedups, "LAYOUT_WITHOUT_DRAWING", False)
    assert plots.figure_to_svg(make()) == fast_svg
    assert make()._repr_png_() == fast_png


@pytest.fixture
def drawn_lines(monkeypatch):
    """Every Line2D drawn while the test runs (matplotlib's own draw, counted)."""
    from matplotlib.lines import Line2D

    drawn = []
    real = Line2D.draw
    monkeypatch.setattr(Line2D, "draw", lambda self, renderer: drawn.append(self) or real(self, renderer))
    return drawn


def test_saving_draws_the_artists_once(drawn_lines, build, monkeypatch):
    drawn = drawn_lines
    fig = _log_axis_with_title()
    plots.figure_to_svg(fig)
    once = len(drawn)
    monkeypatch.setattr(_mpl_speedups, "LAYOUT_WITHOUT_DRAWING", False)
    drawn.clear()
    plots.figure_to_svg(_log_axis_with_title())
    assert once > 0 and len(drawn) == 2 * once      # matplotlib's own savefig draws every line twice
    assert _mpl_speedups._LAYOUT_ONLY not in fig.__dict__
    # outside the build, matplotlib's own savefig runs
    monkeypatch.setattr(_mpl_speedups, "LAYOUT_WITHOUT_DRAWING", True)
    monkeypatch.delenv(_mpl_speedups.ENV)
    drawn.clear()
    plots.figure_to_svg(_log_axis_with_title())
    assert len(drawn) == 2 * once


def test_fit_narrow_draws_no_artist(drawn_lines, build, monkeypatch):
    drawn = drawn_lines
    with plots.narrow_figures():
        fig = _log_axis_with_title()
    plots.fit_narrow(fig)
    assert drawn == []
    monkeypatch.setattr(_mpl_speedups, "LAYOUT_WITHOUT_DRAWING", False)
    with plots.narrow_figures():
        fig = _log_axis_with_title()
    plots.fit_narrow(fig)
    assert len(drawn) > 0          # the reference: each measuring pass was a draw


def test_a_failed_save_leaves_the_next_draw_whole(build):
    fig = _log_axis_with_title()
    with pytest.raises(ValueError):
        plots._savefig(fig, io.BytesIO(), format="no-such-format")
    assert _mpl_speedups._LAYOUT_ONLY not in fig.__dict__
    assert "<path" in plots.figure_to_svg(fig)


def test_thin_keeps_every_runs_peak_and_trough_in_order():
    import random
    rng = random.Random(5)
    xs = [i * 0.02 for i in range(3001)]
    ys = [rng.random() for _ in xs]
    ys[1234], ys[2000] = 9.0, -9.0
    tx, ty = plots.thin(xs, ys, 400)
    assert len(tx) <= 400 and tx == sorted(tx)
    assert max(ty) == 9.0 and min(ty) == -9.0
    # each of the 200 runs of 15 points keeps its own lowest and highest value (by hand: run r is xs[15r:15r+15])
    for r in range(200):
        run = ys[15 * r:15 * r + 15]
        assert min(run) in ty and max(run) in ty
    assert all(ys[round(x / 0.02)] == y for x, y in zip(tx, ty))      # points kept, never made up
    assert plots.thin([1, 2], [3, 4], 400) == ([1, 2], [3, 4])
    with pytest.raises(ValueError, match="max_points"):
        plots.thin(xs, ys, 1)
    with pytest.raises(ValueError, match="same length"):
        plots.thin([1, 2], [3], 10)


def test_a_narrow_figure_wraps_a_legend_wider_than_its_axes():
    # lab 1's phone figure: its one legend label ("under one 4,096-token sequence per GPU (> 976 GPUs)") is
    # wider than the axes; moved under them unwrapped, the layout engine squeezed the axes to 10 % of the
    # figure and printed "constrained_layout not applied" on the page
    import warnings

    from netlab.training import figures as training_figures
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with plots.narrow_figures():
            fig = training_figures.draw_scaling_efficiency(7e9, 400e9, 0.0, 400e12, 5e-6)
            plots.fit_narrow(fig)
        fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    assert ax.get_position().width > 0.6
    assert ax.get_legend().get_window_extent(renderer).width <= ax.get_window_extent(renderer).width
    assert "4,096-token" in ax.get_legend().get_texts()[0].get_text()      # words are never cut
