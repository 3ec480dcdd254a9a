"""Every text colour in the explorers' SVG frames (wide and phone forms) and in the reading pages'
diagrams has at least 4.5:1 contrast (WCAG 2 AA, normal text) against the background it is shown
on, in the light and the dark theme.

Not the palette constants: the colours are read from the SVGs themselves. A <text> is filled by
its own ``fill`` if it has one, else by the SVG's ``text{fill:...}`` rule; CSS variables are
resolved from the SVG's style block, once for the light theme and once for its dark-theme
block. Each SVG paints its whole area with ``var(--bg)`` first, so that colour is what text sits
on; the page background of the same theme (white, or the dark theme's) is checked too, and in
dark mode a figure that the theme put on a white card (an SVG that follows the system's light
setting on a dark page) is on white, which is the light pair. Luminance and ratio are computed
here from WCAG 2's definitions.
"""

from __future__ import annotations

import re

import pytest

from netlab import diagrams, links, plots, widgets
from netlab.collectives import figures as plots_collectives
from netlab.uet import figures as plots_transport

WHITE = "#ffffff"
#: The dark page background of the book theme (pydata-sphinx-theme's dark --pst-color-background).
DARK_PAGE = "#14181e"


def _channel(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour ``#rrggbb``."""
    h = hex_colour.lstrip("#")
    assert re.fullmatch(r"[0-9a-fA-F]{6}", h), hex_colour
    r, g, b = (_channel(int(h[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_luminance_matches_wcag_reference_points():
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)   # the classic just-fails grey
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def theme_variables(svg: str) -> dict[str, dict[str, str]]:
    """{"light": {"--fg": ..., "--bg": ...}, "dark": {...}} from the SVG's own style block."""
    style = re.search(r"<style>(.*?)</style>", svg, re.S).group(1)
    light = dict(re.findall(r"(--\w+):(#[0-9a-fA-F]{6})", style.split("@media", 1)[0]))
    dark_block = re.search(r"@media \(prefers-color-scheme:dark\)\{(.*?)\}\}", style)
    dark = dict(light, **dict(re.findall(r"(--\w+):(#[0-9a-fA-F]{6})", dark_block.group(1))))
    return {"light": light, "dark": dark}


def text_fills(svg: str) -> set[str]:
    """Every fill a <text> (or a <tspan> in it) is painted with, as written (a colour or var(--x))."""
    default = re.search(r"text\{fill:([^;}]+)", svg).group(1)
    fills = set()
    for text in re.findall(r"<text\b.*?</text>", svg, flags=re.S):
        own = re.findall(r"fill:\s*([^;\"]+)", text)
        fills.update(f.strip() for f in own) if own else fills.add(default)
    return fills


def resolve(value: str, variables: dict[str, str]) -> str:
    var = re.fullmatch(r"var\((--\w+)\)", value)
    return variables[var.group(1)] if var else value


def check(svg: str, where: str) -> list[str]:
    problems = []
    themes = theme_variables(svg)
    # the whole figure is painted with the theme background before anything else
    first_path = re.search(r"<path d=\"M 0 ([\d.]+) L ([\d.]+) [\d.]+ L [\d.]+ 0 L 0 0 z\" style=\"fill: ([^\"]+)\"", svg)
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert first_path and first_path.group(3) == "var(--bg)" and first_path.groups()[:2] == view.groups()[::-1], where
    for theme, variables in themes.items():
        page = WHITE if theme == "light" else DARK_PAGE
        backgrounds = {resolve("var(--bg)", variables), page}
        for fill in text_fills(svg):
            colour = resolve(fill, variables)
            for bg in backgrounds:
                ratio = contrast(colour, bg)
                if ratio < 4.5:
                    problems.append(f"{where}, {theme}: text {fill} = {colour} on {bg} is {ratio:.2f}:1")
    return problems


@pytest.mark.parametrize("name", sorted(diagrams.DIAGRAMS))
def test_diagram_text_contrast(name):
    assert not (problems := check(diagrams.render(name), f"diagram {name}")), problems


EXPLORERS = {
    "lab02": (lambda hops: links.draw_path_breakdown(4096, 400e9, hops, 250e-9), {"hops": widgets.choice("Hops", [1, 4])}),
    "lab06": (plots_collectives.draw_algorithms, {"world_size": widgets.choice("Ranks", [8, 64]),
                                                 "alpha_us": widgets.choice("alpha", [2.7])}),
    "lab08": (plots_transport.draw_loss, {"rate": widgets.choice("Rate", ["400G"]),
                                          "delay_us": widgets.choice("Delay", [2, 32])}),
}


@pytest.mark.parametrize("name", sorted(EXPLORERS))
def test_explorer_frame_text_contrast(name):
    draw, controls = EXPLORERS[name]
    frames = widgets.Explorer(draw, controls).frames()
    problems = []
    for key, frame in frames.items():
        problems += check(frame["svg"], f"{name} {key} wide")
        if frame["narrow"]:
            problems += check(frame["narrow"], f"{name} {key} narrow")
    assert not problems, problems


def test_a_coloured_text_would_be_caught():
    """The check reads text colours from the SVG: a light-orange label fails it (reference: WCAG)."""
    fig, ax = plots.figure()
    ax.text(0.5, 0.5, "orange label", color="#E69F00")
    problems = check(plots.figure_to_svg(fig), "probe")
    assert any("#e69f00" in p.lower() and "light" in p for p in problems)
    assert plots.LIGHT_BACKGROUND == WHITE and plots.DARK_BACKGROUND == DARK_PAGE


def shaded_areas(svg: str) -> list[tuple[str, float]]:
    """(fill as written, opacity) of every filled rectangle at least 50 pt wide other than the figure's and
    the axes' own background (var(--bg)): the shades a legend or a label can sit on."""
    found = []
    for d, style in re.findall(r'<path d="M ([\d. LMz-]+)"[^>]*style="([^"]*)"', svg):
        fill = re.search(r"(?:^|;\s*)fill:\s*([^;]+)", style)
        xs = [float(x) for x in re.findall(r"(?:M|L) ([\d.-]+) [\d.-]+", "M " + d)]
        if not fill or fill.group(1).strip() in ("none", "var(--bg)") or len(xs) != 4 or max(xs) - min(xs) < 50:
            continue
        opacity = re.search(r"(?:^|;\s*)(?:fill-)?opacity:\s*([\d.]+)", style)
        found.append((fill.group(1).strip(), float(opacity.group(1)) if opacity else 1.0))
    return found


def over(colour: str, opacity: float, background: str) -> str:
    """``colour`` painted at ``opacity`` over ``background`` (sRGB values mixed, as a browser composites)."""
    a, b = colour.lstrip("#"), background.lstrip("#")
    return "#" + "".join(f"{round(opacity * int(a[i:i + 2], 16) + (1 - opacity) * int(b[i:i + 2], 16)):02x}"
                         for i in (0, 2, 4))


def test_lab1_shade_keeps_its_legend_readable_in_both_themes():
    """Lab 1's shade (GPU counts pure data parallelism cannot reach) has the legend written over it. A fixed
    light grey (#d9d9d9) left the dark theme's light text at 1.1:1 on it; a grey at 30 % opacity over the
    theme's background is #d9d9d9 on white and a dark grey on the dark page. Reference: WCAG 2's ratio."""
    from netlab.training import figures as training_figures

    svg = plots.figure_to_svg(training_figures.draw_scaling_efficiency(7e9, 400e9, 0.0, 989e12, 5e-6))
    shades = shaded_areas(svg)
    assert shades, "the figure has no shade: nothing is checked"
    problems = []
    for theme, variables in theme_variables(svg).items():
        for fill, opacity in shades:
            shade = over(resolve(fill, variables), opacity, resolve("var(--bg)", variables))
            for text in text_fills(svg):
                ratio = contrast(resolve(text, variables), shade)
                if ratio < 4.5:
                    problems.append(f"{theme}: text {text} on the shade {fill} at {opacity} (= {shade}) is {ratio:.2f}:1")
    assert not problems, problems
    assert over("#808080", 0.3, "#ffffff") == "#d9d9d9"     # the light theme keeps the grey it had
