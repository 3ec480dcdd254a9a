"""Explorers: both forms come from one definition; frames differ where controls differ."""

import json
import re

import pytest

from netlab import plots, widgets


def _draw(a, b):
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 10 * a + (0 if b == "x" else 1)])
    return fig


def _explorer():
    return widgets.Explorer(_draw, {"a": widgets.choice("A", [1, 2, 3]), "b": widgets.choice("B", ["x", "y"])},
                            readout=lambda a, b: f"a={a} b={b}", title="test")


def test_frame_grid_is_the_product_of_controls():
    ex = _explorer()
    frames = ex.frames()
    assert ex.n_frames == 6 and sorted(frames) == ["0-0", "0-1", "1-0", "1-1", "2-0", "2-1"]
    assert frames["1-1"]["readout"] == "a=2 b=y"
    assert len({f["src"] for f in frames.values()}) == 6   # every frame is a different picture


def test_static_html_embeds_controls_and_frames():
    html = _explorer().static_html()
    assert html.count('type="range"') == 2
    data = json.loads(re.search(r'class="netlab-explorer-frames">(.*?)</script>', html, re.S).group(1))
    assert len(data) == 6
    assert 'alt="' in html


def test_mimebundle_has_static_form_only_when_asked(monkeypatch):
    monkeypatch.setenv(widgets.STATIC_ENV, "1")
    assert "text/html" in _explorer()._repr_mimebundle_()
    monkeypatch.setenv(widgets.STATIC_ENV, "0")
    bundle = _explorer()._repr_mimebundle_()
    assert "text/html" not in bundle
    assert "application/vnd.jupyter.widget-view+json" in bundle


def test_too_many_frames_are_refused():
    with pytest.raises(ValueError, match="frames"):
        widgets.Explorer(_draw, {"a": widgets.choice("A", list(range(20))),
                                 "b": widgets.choice("B", list(range(5)))})


def test_bad_controls_are_refused():
    with pytest.raises(ValueError, match="default"):
        widgets.choice("A", [1, 2], default=3)
    with pytest.raises(ValueError, match="distinct"):
        widgets.choice("A", [1, 1])
    with pytest.raises(TypeError, match="choice"):
        widgets.Explorer(_draw, {"a": [1, 2]})


def test_book_figures_display_as_png_without_pyplot():
    """A bare netlab figure as a cell's last line must show a picture, not '<Figure size ...>'."""
    from IPython.core.formatters import PNGFormatter

    fig, ax = plots.figure()
    ax.plot([0, 1], [1, 0])
    png = PNGFormatter()(fig)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
