"""netlab leaves a reader's matplotlib alone: importing it and drawing its figures changes none of
matplotlib's classes and none of the session's ``rcParams``, and a reader's own figure comes out
the same bytes before and after. The book's style is carried by each netlab figure itself.

The session is a fresh Python process, as a reader's kernel is: without NETLAB_STATIC_WIDGETS
(a reader's session), and with it (the book's build, whose speed devices must be put back when a
figure has been drawn).
"""

import json
import os
import subprocess
import sys
import textwrap

import matplotlib
import pytest

from netlab import _mpl_speedups, plots

SESSION = textwrap.dedent(r'''
    import io, json, pkgutil, sys, warnings
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure as PlainFigure

    def readers_own_svg():
        """A figure of the reader's own, as plain matplotlib draws it: log axis, math text, legend."""
        fig = PlainFigure(figsize=(4, 3), layout="constrained")
        ax = fig.add_subplot()
        ax.loglog([1, 1e3, 1e6], [2, 30, 5], "o-", label="a")
        ax.plot([1, 1e6], [3, 3], "s--", label="b")
        ax.text(10, 10, "note")
        ax.set_title(r"$\rho S / 2(1-\rho)$")
        ax.set_xlabel("size")
        ax.legend()
        out = io.StringIO()
        with matplotlib.rc_context({"svg.hashsalt": "reader"}):
            fig.savefig(out, format="svg", metadata={"Date": None})
        png = io.BytesIO()
        fig.savefig(png, format="png")
        return out.getvalue() + png.getvalue().hex()

    # Drawing once first loads the matplotlib modules a draw needs and lets matplotlib set what it
    # sets lazily on its own classes (its math-text parser, for one), so the snapshot is of a session
    # that has drawn before.
    before = readers_own_svg()
    classes = {}
    for name, module in list(sys.modules.items()):
        if name == "matplotlib" or name.startswith("matplotlib."):
            for cls in vars(module).values():
                if isinstance(cls, type) and cls.__module__ == name:
                    classes[f"{name}.{cls.__qualname__}"] = (cls, dict(vars(cls)))
    rc = dict(matplotlib.rcParams)
    rc_object = matplotlib.rcParams

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # old module paths warn that they moved
        import netlab
        for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
            if info.name.rsplit(".", 1)[-1] not in ("__main__", "compiled"):
                __import__(info.name)
    from netlab import links, plots, specs, widgets

    # netlab's figures, every way they are drawn: saved as SVG and PNG, shown, fitted for a phone,
    # an explorer's frames and its live form's picture
    fig, (left, right) = plots.figure(ncols=2)
    left.loglog([1, 1e3, 1e6], [2, 30, 5], label="a")
    left.set_title(r"$10^{3}$ and $\rho$")
    left.legend()
    right.plot([0, 1], [1, 0])
    right.twinx().plot([0, 1], [5, 6])
    fig.alt = "two panels"
    svg = plots.figure_to_svg(fig)
    fig._repr_png_()
    fig._repr_html_()
    with plots.narrow_figures():
        narrow = links.draw_link_delay(4096, specs.value("eth.400g.port_rate"), 1000)
    plots.fit_narrow(narrow)
    plots.figure_to_svg(narrow)
    explorer = widgets.Explorer(lambda d: links.draw_link_delay(4096, specs.value("eth.400g.port_rate"), d),
                                {"d": widgets.choice("distance (m)", [10, 1000])})
    explorer.static_html()
    widgets._png_bytes(explorer.render(d=10)[0], 72)

    # Every attribute of every class must be the same object as before, with one exception that is
    # matplotlib's own: a class-level cache it fills on first use (``_parser = None``, then a parser;
    # Path's ``_unit_circle``): None before, a value that is not a function or descriptor after.
    def routine(value):
        return callable(value) or hasattr(value, "__get__") or isinstance(value, type)

    changed, filled = [], []
    for name, (cls, attributes) in classes.items():
        now = vars(cls)
        for key in set(attributes) | set(now):
            if key in now and key in attributes and now[key] is attributes[key]:
                continue
            if key in now and attributes.get(key, 0) is None and not routine(now[key]):
                filled.append(f"{name}.{key}")
            else:
                changed.append(f"{name}.{key}")
    print(json.dumps({
        "classes": sorted(classes), "changed": sorted(changed), "filled": sorted(filled),
        "rc_changed": sorted(k for k in set(rc) | set(matplotlib.rcParams)
                             if k not in rc or k not in matplotlib.rcParams or rc[k] != matplotlib.rcParams[k]),
        "rc_same_object": matplotlib.rcParams is rc_object,
        "readers_figure_same": readers_own_svg() == before,
        "netlab_svg_has_grid": "stroke-opacity: 0.3" in svg,
    }))
''')

#: What netlab's speed devices reached into (they must be in the snapshot, or the test could pass
#: for not looking): each must be matplotlib's own after netlab has drawn.
WATCHED = ["matplotlib.mathtext.MathTextParser._parse_cached", "matplotlib.axis.Axis._update_ticks",
           "matplotlib.axis.Axis._get_ticklabel_bboxes", "matplotlib.figure.Figure.draw",
           "matplotlib.figure.Figure.savefig", "matplotlib.axes._axes.Axes.legend"]


def _session(static: str | None) -> dict:
    env = dict(os.environ, MPLBACKEND="Agg")
    env.pop(_mpl_speedups.ENV, None)
    if static is not None:
        env[_mpl_speedups.ENV] = static
    done = subprocess.run([sys.executable, "-c", SESSION], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("static", [None, "1"], ids=["a reader's session", "the book's build"])
def test_importing_and_drawing_netlab_leaves_matplotlib_as_it_was(static):
    out = _session(static)
    for watched in WATCHED:
        assert watched.rsplit(".", 1)[0] in out["classes"], watched
    assert not [c for c in out["changed"] if c.endswith(tuple("." + w.rsplit(".", 1)[1] for w in WATCHED))]
    assert out["changed"] == []
    assert out["rc_changed"] == [] and out["rc_same_object"]
    assert out["readers_figure_same"]
    assert out["netlab_svg_has_grid"]           # the netlab figure did get the book's style


# --- the style travels with the figure ----------------------------------------------------------

def _styled_figure() -> str:
    fig, (left, right) = plots.figure(ncols=2)
    left.semilogx([1, 10, 100], [1, 3, 2], label="first")
    left.plot([1, 100], [2, 2], label="second")
    left.set_title("a title")
    left.set_xlabel("size")
    left.legend()
    right.bar(["a", "b"], [1, 2])
    right.set_title("bars", loc="left")
    fig.legend(["x"], loc="upper right")
    return plots.figure_to_svg(fig)


#: A session whose settings differ from the book's in every key of plots.STYLE that a figure's
#: look depends on (font.size aside: see plots.Axes)
OTHER_SESSION = {"axes.grid": False, "grid.alpha": 1.0, "axes.spines.top": True, "axes.spines.right": True,
                 "axes.titlesize": 20, "axes.labelsize": 16, "legend.fontsize": 15, "legend.frameon": True,
                 "axes.facecolor": "#ffff00", "figure.facecolor": "#00ffff", "savefig.facecolor": "#ff00ff",
                 "figure.dpi": 50, "axes.prop_cycle": matplotlib.cycler(color=["#123456", "#654321"])}


def test_a_netlab_figure_looks_the_same_whatever_the_sessions_settings():
    assert set(OTHER_SESSION) | {"font.size", "figure.figsize"} == set(plots.STYLE)
    book = _styled_figure()
    with matplotlib.rc_context(OTHER_SESSION):
        other = _styled_figure()
    assert other == book
    # and the picture is in the book's style: a grid at 0.3, the book's first colours, no yellow
    # background, no frame around the legends (matplotlib's frame has a #cccccc edge)
    assert "stroke-opacity: 0.3" in book
    assert plots.CYCLE[0].lower() in book and plots.CYCLE[1].lower() in book
    assert "#ffff00" not in book and "#123456" not in book and "#cccccc" not in book
    with matplotlib.rc_context(OTHER_SESSION):      # (what the checks above would see in a leak)
        fig, ax = plots.figure()
        ax.plot([0, 1], [0, 1], label="framed")
        ax.legend(frameon=True)
        assert "#cccccc" in plots.figure_to_svg(fig)


def test_figure_sets_no_session_setting():
    before = dict(matplotlib.rcParams)
    fig, ax = plots.figure()
    ax.plot([0, 1], [0, 1], label="a")
    ax.legend()
    plots.figure_to_svg(fig)
    assert dict(matplotlib.rcParams) == before
    assert matplotlib.rcParams["axes.grid"] is False        # the test session's own default
