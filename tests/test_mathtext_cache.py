"""While the book builds, netlab's figures let matplotlib's math-text parsers share one cache
(netlab._mpl_speedups, a build-time speed device), and only while such a figure is drawn.

A figure drawn with the shared cache must be byte for byte the figure matplotlib draws with
its own per-parser parse, and the cache must tell apart what changes a layout (a change of
``mathtext.fontset``; a cache keyed on the text alone would hand back the old layout).
"""

import io

import matplotlib
from matplotlib import mathtext
from matplotlib.artist import Artist
import pytest

from netlab import _mpl_speedups, plots

MATPLOTLIBS_OWN = mathtext.MathTextParser.__dict__["_parse_cached"]


@pytest.fixture
def build(monkeypatch):
    """As while the book builds (make sets NETLAB_STATIC_WIDGETS=1)."""
    monkeypatch.setenv(_mpl_speedups.ENV, "1")


def _svg() -> bytes:
    fig, ax = plots.figure(width_in=4.0, height_in=2.5)
    ax.set_xscale("log")
    ax.set_xlim(1, 1e6)
    ax.plot([1, 1e3, 1e6], [0, 1, 0])
    ax.set_title(r"$\rho S / 2(1-\rho)$")
    out = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "netlab", "svg.fonttype": "path"}):
        fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


class _Witness(Artist):
    """An artist that notes which math-text parse matplotlib's class has when the figure draws it."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def draw(self, renderer):
        self.seen.append(mathtext.MathTextParser.__dict__["_parse_cached"])


def _parse_seen_while_drawing():
    fig, ax = plots.figure()
    ax.set_title(r"$10^{3}$")
    witness = _Witness()
    fig.add_artist(witness)
    plots.figure_to_svg(fig)
    fig._repr_png_()
    return witness.seen


def test_the_shared_cache_is_in_place_only_while_a_netlab_figure_draws_in_the_build(build):
    seen = _parse_seen_while_drawing()
    assert len(seen) == 2 and all(getattr(parse, "netlab_shared", False) for parse in seen)
    assert mathtext.MathTextParser.__dict__["_parse_cached"] is MATPLOTLIBS_OWN      # put back afterwards
    with _mpl_speedups._active(), _mpl_speedups._active():                            # nested blocks
        pass
    assert mathtext.MathTextParser.__dict__["_parse_cached"] is MATPLOTLIBS_OWN


def test_outside_the_build_matplotlibs_own_parse_draws(monkeypatch):
    monkeypatch.delenv(_mpl_speedups.ENV, raising=False)
    seen = _parse_seen_while_drawing()
    assert len(seen) >= 2 and all(parse is MATPLOTLIBS_OWN for parse in seen)


def test_shared_parses_draw_what_matplotlibs_own_parse_draws(build, monkeypatch):
    shared_cache = _mpl_speedups._shared_parse().shared
    shared = _svg()
    hits = shared_cache.cache_info().hits
    again = _svg()                                    # now every formula comes from the cache
    assert shared_cache.cache_info().hits > hits
    monkeypatch.setattr(_mpl_speedups, "SHARE_MATHTEXT", False)
    misses = shared_cache.cache_info().misses + shared_cache.cache_info().hits
    reference = _svg()
    assert shared_cache.cache_info().misses + shared_cache.cache_info().hits == misses   # not used
    assert shared == again == reference
    assert b"<path" in reference


def test_the_cache_keys_on_the_mathtext_settings(build):
    with matplotlib.rc_context({"mathtext.fontset": "dejavusans"}):
        sans = _svg()
    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        cm = _svg()
    assert sans != cm
