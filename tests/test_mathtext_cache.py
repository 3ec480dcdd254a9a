"""netlab.plots makes matplotlib's math-text parsers share one cache (a build-time speed-up).

A figure drawn with the shared cache must be byte for byte the figure matplotlib draws with
its own per-parser parse, and the cache must tell apart what changes a layout (a change of
``mathtext.fontset``; a cache keyed on the text alone would hand back the old layout).
"""

import io

import matplotlib
from matplotlib import mathtext

from netlab import plots


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


def test_the_shared_cache_is_in_place():
    assert getattr(mathtext.MathTextParser, "_netlab_shared", False)


def test_shared_parses_draw_what_matplotlibs_own_parse_draws(monkeypatch):
    shared = _svg()
    again = _svg()                                    # now every formula comes from the cache
    own = mathtext.MathTextParser._netlab_unshared_parse
    monkeypatch.setattr(mathtext.MathTextParser, "_parse_cached",
                        lambda self, s, dpi, prop, aa, flags: own(self, s, dpi, prop, aa, flags))
    reference = _svg()
    assert shared == again == reference
    assert b"<path" in reference


def test_the_cache_keys_on_the_mathtext_settings():
    with matplotlib.rc_context({"mathtext.fontset": "dejavusans"}):
        sans = _svg()
    with matplotlib.rc_context({"mathtext.fontset": "cm"}):
        cm = _svg()
    assert sans != cm
