"""While the book builds, netlab's figures skip tick updates and tick-label measurements that would
repeat the last ones (_mpl_speedups.RememberedTicks and RememberedLabelBoxes): the same bytes as
matplotlib's own updates, in every way a figure is drawn and changed. Outside the build a figure's
axes keep matplotlib's own methods."""

import hashlib

import pytest

from netlab import _mpl_speedups, links, plots, specs

RATE = specs.value("eth.400g.port_rate")


@pytest.fixture
def build(monkeypatch):
    """As while the book builds (make sets NETLAB_STATIC_WIDGETS=1)."""
    monkeypatch.setenv(_mpl_speedups.ENV, "1")


def _log_panels():
    fig, (a, b) = plots.figure(ncols=2, width_in=8.0, height_in=3.0)
    a.loglog([1, 1e3], [0.5, 5e3], label="rising")
    a.axhline(80, label="flat")
    a.legend(loc="upper left")
    b.semilogx([64, 2**20], [1, 390])
    b.set_title("a title long enough to be wrapped when the figure is drawn for a phone's column")
    return fig


def _changed_between_draws():
    """A figure drawn, then changed in each way that decides its ticks, and drawn again."""
    fig = _log_panels()
    a, b = fig.axes
    out = [plots.figure_to_svg(fig)]
    a.set_xlim(3, 300)                                   # view limits
    b.set_xticks([1e2, 1e4, 1e6])                        # a new locator
    b.xaxis.set_major_formatter(lambda x, _: f"{x:.0e}")  # a new formatter
    out.append(plots.figure_to_svg(fig))
    a.tick_params(labelsize=14)                          # tick parameters (and so the room for ticks)
    b.set_yscale("log")                                  # the scale
    out.append(plots.figure_to_svg(fig))
    fig.set_figwidth(4.0)                                # the axes' box in pixels
    out.append(plots.figure_to_svg(fig))
    for label in a.yaxis.get_ticklabels(which="both"):   # labels changed directly, not through
        label.set_rotation(40)                           # the tick parameters: their turn, size,
    for label in b.xaxis.get_ticklabels():               # alignment and text
        label.set_fontsize(15)
        label.set_horizontalalignment("right")
    b.xaxis.get_ticklabels()[0].set_text("first")
    out.append(plots.figure_to_svg(fig))
    out.append(fig._repr_png_().hex())                   # another dpi, through another backend
    return out


def _explorer_frames():
    out = []
    for distance in (1000,):
        out.append(plots.figure_to_svg(links.draw_link_delay(4096, RATE, distance)))
        with plots.narrow_figures():
            narrow = links.draw_link_delay(64, RATE, distance)
        plots.fit_narrow(narrow)
        out.append(plots.figure_to_svg(narrow))
    with plots.narrow_figures():
        panels = _log_panels()
    plots.fit_narrow(panels)
    out.append(plots.figure_to_svg(panels))
    return out


@pytest.mark.parametrize("make", [_explorer_frames, _changed_between_draws])
def test_the_same_bytes_as_matplotlibs_own_tick_updates(make, build, monkeypatch):
    monkeypatch.setattr(_mpl_speedups, "REMEMBER_TICKS", False)
    reference = make()
    monkeypatch.setattr(_mpl_speedups, "REMEMBER_TICKS", True)
    remembered = make()
    assert len(remembered) == len(reference)
    for k, (got, want) in enumerate(zip(remembered, reference)):
        assert got == want, f"drawing {k} differs: {hashlib.md5(got.encode()).hexdigest()} " \
                            f"vs {hashlib.md5(want.encode()).hexdigest()}"
    # the reference really ran matplotlib's own updates, and the remembered run did not
    monkeypatch.setattr(_mpl_speedups, "REMEMBER_TICKS", False)
    fig = _log_panels()
    plots.figure_to_svg(fig)
    assert "_update_ticks" not in fig.axes[0].xaxis.__dict__
    monkeypatch.setattr(_mpl_speedups, "REMEMBER_TICKS", True)
    plots.figure_to_svg(fig)
    assert isinstance(fig.axes[0].xaxis.__dict__["_update_ticks"], _mpl_speedups.RememberedTicks)


def test_outside_the_build_the_axes_keep_matplotlibs_own_methods(monkeypatch):
    monkeypatch.delenv(_mpl_speedups.ENV, raising=False)
    fig = _log_panels()
    plots.figure_to_svg(fig)
    fig._repr_png_()
    with plots.narrow_figures():
        narrow = _log_panels()
    plots.fit_narrow(narrow)
    for axis in [a for f in (fig, narrow) for ax in f.axes for a in (ax.xaxis, ax.yaxis)]:
        assert "_update_ticks" not in axis.__dict__ and "_get_ticklabel_bboxes" not in axis.__dict__


def test_an_unchanged_axis_is_not_updated_again(build):
    fig = links.draw_link_delay(4096, RATE, 10)
    plots.figure_to_svg(fig)                  # the draw attaches the remembering update to both axes
    runs = []
    for axis in (fig.axes[0].xaxis, fig.axes[0].yaxis):
        memo = axis.__dict__["_update_ticks"]
        assert isinstance(memo, _mpl_speedups.RememberedTicks)
        memo.update = lambda update=memo.update: runs.append(1) or update()
        axis._update_ticks()                  # the SVG was drawn at 72 dpi, the figure is at 100 again
        first = len(runs)
        ticks = [axis._update_ticks() for _ in range(5)]
        assert len(runs) == first == 1 + (axis is fig.axes[0].yaxis)   # nothing changed: not recomputed
        assert all(t == ticks[0] for t in ticks) and ticks[0]
    fig.axes[0].set_ylim(1, 1e4)              # a change: recomputed, and the ticks follow it
    assert max(t.get_loc() for t in fig.axes[0].yaxis._update_ticks()) <= 1e4
    assert len(runs) == 3


def test_unchanged_labels_are_not_measured_again(build):
    fig = links.draw_link_delay(4096, RATE, 10)
    plots.figure_to_svg(fig)                  # the draw attaches the remembering measure to both axes
    axis = fig.axes[0].xaxis
    memo = axis.__dict__["_get_ticklabel_bboxes"]
    assert isinstance(memo, _mpl_speedups.RememberedLabelBoxes)
    runs = []
    memo.measure = lambda ticks, renderer, measure=memo.measure: runs.append(1) or measure(ticks, renderer)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    renderer = FigureCanvasAgg(fig).get_renderer()
    ticks = axis._update_ticks()
    boxes = [axis._get_ticklabel_bboxes(ticks, renderer) for _ in range(4)]
    assert len(runs) == 1 and all(b == boxes[0] for b in boxes) and boxes[0][0]
    ticks[3].label1.set_rotation(90)          # one label turned: measured again, and it is taller
    turned = axis._get_ticklabel_bboxes(ticks, renderer)
    assert len(runs) == 2 and turned[0][3].height > boxes[0][0][3].height
    fig.set_dpi(200)                          # another dpi: measured again, the labels placed anew
    moved = axis._get_ticklabel_bboxes(ticks, renderer)
    assert len(runs) == 3 and moved[0][0].x0 > 1.5 * boxes[0][0][0].x0
