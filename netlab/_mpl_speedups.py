"""Speed devices for drawing the book's figures: they reach into matplotlib's private internals, so
they are used only while the book builds, and only while a netlab figure is drawn.

The book's notebooks draw about 1,200 frames of explorers (every setting, wide and narrow) and every
one of them is laid out and measured many times. Three devices make that cheaper; each gives the
same picture, byte for byte, as matplotlib on its own (the tests draw figures both ways and compare):

* **shared math-text parses** (:func:`_shared_parse`): every renderer matplotlib makes has a
  math-text parser of its own, each with its own small cache, so every frame parsed all its
  ``$10^{3}$`` tick labels again. Inside :func:`_active`, ``MathTextParser._parse_cached`` (a
  private method of matplotlib's class) is one that shares a cache between parsers; on leaving
  the block, matplotlib's own is put back.
* **remembered ticks and tick-label boxes** (:class:`RememberedTicks`,
  :class:`RememberedLabelBoxes`): a constrained layout updates and measures each axis's ticks
  dozens of times in one draw while nothing that decides them changes; the private methods
  ``Axis._update_ticks`` and ``Axis._get_ticklabel_bboxes`` of a netlab figure's own axes (the
  instances, never the class) are wrapped so that they answer again from their last answer when
  everything that decided it is the same.
* **a layout without a draw** (:func:`_lay_out`, :func:`_laid_out_once`): matplotlib's savefig
  draws a figure with a layout engine twice, the first time with no output only to lay it out;
  a netlab figure's first draw then runs only the layout (with matplotlib's private
  ``Figure._get_draw_artists``). :func:`netlab.plots.fit_narrow` measures with the same layout.

They are switched on by ``NETLAB_STATIC_WIDGETS=1``, which only the book's build and its tests set
(``make book``, ``make test``): a reader's Jupyter session never sees them, nor do the figures a
reader draws with matplotlib. :func:`_active` is entered by every draw of a
:class:`netlab.plots.Figure` (and by :func:`netlab.plots.figure_to_svg` and
:func:`netlab.plots.fit_narrow`); outside such a block matplotlib's classes are exactly as
matplotlib made them. ``DEVELOPING.md`` (at the repository's root) lists every speed device of the
project with its reason and measured gain. Nothing here is for a reader: its functions, called by
:mod:`netlab.plots` only, are named with a leading underscore.
"""

from __future__ import annotations

from collections.abc import Iterator
import contextlib
import functools
import os
import threading

ENV = "NETLAB_STATIC_WIDGETS"

#: Each device can be switched off on its own (tests and benchmarks compare with and without).
SHARE_MATHTEXT = True
REMEMBER_TICKS = True
LAYOUT_WITHOUT_DRAWING = True


def _enabled() -> bool:
    """True while the book builds (``NETLAB_STATIC_WIDGETS=1``): the only time the devices are used."""
    return os.environ.get(ENV, "") == "1"


# --- shared math-text parses ------------------------------------------------------------------

_LOCK = threading.RLock()
_depth = 0
_restore: list = []        # (class, name, what its __dict__ held, or _ABSENT) for each patched attribute
_ABSENT = object()


@functools.cache
def _shared_parse():
    """matplotlib's ``MathTextParser._parse_cached`` with one cache shared by every parser, or None
    when the installed matplotlib is not the one this was written for (then nothing is replaced).

    matplotlib keeps the layout of each math text in a cache of its parser, but every renderer makes
    a parser of its own. Here the parsers share one cache, keyed as matplotlib keys its own plus the
    parser's output type and the ``mathtext.*`` settings; a parse is a pure function of those, so
    every figure comes out byte for byte the same.
    """
    import matplotlib
    from matplotlib import mathtext

    parse = getattr(mathtext.MathTextParser.__dict__.get("_parse_cached"), "__wrapped__", None)
    if parse is None:
        return None
    parsers: dict[str, object] = {}
    # rcParams has a fixed set of keys; reading the ten mathtext ones directly, not by walking all
    # ~330 items through the Mapping interface, took about 4 % off the time of drawing a lab 1 frame
    keys = tuple(k for k in matplotlib.rcParams if k.startswith("mathtext."))
    read = getattr(matplotlib.rcParams, "_get", matplotlib.rcParams.__getitem__)

    @functools.lru_cache(4096)
    def shared(output_type, settings, s, dpi, prop, antialiased, load_glyph_flags):
        return parse(parsers[output_type], s, dpi, prop, antialiased, load_glyph_flags)

    def _parse_cached(self, s, dpi, prop, antialiased, load_glyph_flags):
        parsers.setdefault(self._output_type, self)
        settings = tuple((k, str(read(k))) for k in keys)
        return shared(self._output_type, settings, s, dpi, prop, antialiased, load_glyph_flags)

    _parse_cached.netlab_shared = True
    _parse_cached.shared = shared               # the shared cache (the tests read its statistics)
    return _parse_cached


def _patch(cls, name: str, value) -> None:
    _restore.append((cls, name, cls.__dict__.get(name, _ABSENT)))
    setattr(cls, name, value)


def _install() -> None:
    if SHARE_MATHTEXT and _shared_parse() is not None:
        from matplotlib import mathtext
        _patch(mathtext.MathTextParser, "_parse_cached", _shared_parse())


def _uninstall() -> None:
    while _restore:
        cls, name, old = _restore.pop()
        if old is _ABSENT:
            delattr(cls, name)
        else:
            setattr(cls, name, old)


@contextlib.contextmanager
def _active() -> Iterator[bool]:
    """Within this block, and only while the book builds (:func:`_enabled`), matplotlib's math-text
    parsers share their parses; on leaving the outermost such block, matplotlib's own method is back.

    Yields whether the devices are on. Blocks nest, in one thread or several (the class's method is
    put back when the last of them ends); outside the build this does nothing at all.
    """
    global _depth
    if not _enabled():
        yield False
        return
    with _LOCK:
        if _depth == 0:
            _install()
        _depth += 1
    try:
        yield True
    finally:
        with _LOCK:
            _depth -= 1
            if _depth == 0:
                _uninstall()


# --- remembered ticks and tick-label boxes ----------------------------------------------------

class RememberedTicks:
    """One axis's tick update (matplotlib's ``Axis._update_ticks``) that does not redo what it has just done.

    A constrained layout measures every axis again and again in one draw (about 40 tick updates
    for one log-log panel, each asking the locator and formatter for every tick and relabelling
    them) while nothing that decides the ticks changes. This wrapper remembers what decided the
    last update (view limits, the axes' box in pixels, scale, locators, formatters, tick
    parameters, how many ticks exist) and, when all of that is the same, returns the same ticks
    without recomputing them; anything different, and matplotlib's own update runs. Only the
    last state is kept, because the tick objects themselves are reused: an older state's labels
    are gone once another update has run. The pictures are the same bytes
    (``tests/test_remembered_ticks.py`` draws figures with and without it); lab 2's explorer
    frames take about a fifth less CPU, and with :class:`RememberedLabelBoxes` as well about
    two fifths less (the same eight frames: 3.2-3.7 CPU-s with neither, 2.7 with this one,
    2.1-2.2 with both; every output of the book's notebooks was the same with both as without).
    """

    __slots__ = ("axis", "update", "state", "ticks")

    def __init__(self, axis):
        self.axis, self.update = axis, axis._update_ticks
        self.state = self.ticks = None

    def _state(self) -> tuple:
        return _axis_state(self.axis)

    def __call__(self) -> list:
        state = self._state()
        if state != self.state:
            self.ticks = self.update()
            self.state = self._state()
        return list(self.ticks)


def _axis_state(axis) -> tuple:
    """What decides an axis's ticks and where they are drawn (see :class:`RememberedTicks`)."""
    return (tuple(map(float, axis.get_view_interval())), tuple(axis.axes.bbox.bounds), axis.get_scale(),
            axis.major.locator, axis.minor.locator, axis.major.formatter, axis.minor.formatter,
            repr(axis._major_tick_kw), repr(axis._minor_tick_kw), len(axis.majorTicks), len(axis.minorTicks))


class RememberedLabelBoxes:
    """One axis's tick-label boxes (matplotlib's ``Axis._get_ticklabel_bboxes``), not measured
    again while nothing that places or shapes them has changed.

    Within one draw, a constrained layout asks for the boxes of every tick label of an axis
    about ten times (its two passes each measure the axes, and placing the axis label and the
    title measures the ticks again), and each box transforms the label's position: on a log
    axis with 70 minor ticks that is most of the layout's time. This wrapper remembers the last
    answer with what decided it: the axis's state (:func:`_axis_state`: limits, the axes' box
    in pixels, scale, locators, formatters, tick parameters), the figure's dpi, the renderer,
    and, for every label, its tick, text, visibility, position, size, font, rotation, alignment
    and transform. When all of that is the same it returns the same boxes; anything different,
    and matplotlib measures. The pictures are the same bytes (``tests/test_remembered_ticks.py``).
    """

    __slots__ = ("axis", "measure", "key", "boxes", "renderer")

    def __init__(self, axis):
        self.axis, self.measure = axis, axis._get_ticklabel_bboxes
        self.key = self.boxes = self.renderer = None

    def _key(self, ticks) -> tuple:
        labels = tuple((id(tick), label.get_text(), label.get_visible(), label.get_in_layout(),
                        label.get_position(), hash(label.get_fontproperties()), label.get_rotation(),
                        label.get_rotation_mode(), label.get_horizontalalignment(),
                        label.get_verticalalignment(), id(label.get_transform()))
                       for tick in ticks for label in (tick.label1, tick.label2))
        return _axis_state(self.axis), self.axis.get_figure(root=True).dpi, labels

    def __call__(self, ticks, renderer) -> tuple[list, list]:
        key = self._key(ticks)
        if renderer is not self.renderer or key != self.key:
            self.boxes = self.measure(ticks, renderer)
            self.key, self.renderer = key, renderer
        return list(self.boxes[0]), list(self.boxes[1])


def _remember_ticks(fig) -> None:
    """While the book builds, give every axis of ``fig`` (a netlab figure) the remembering tick update
    and label measure, once; otherwise leave its axes as matplotlib made them."""
    if not (REMEMBER_TICKS and _enabled()):
        return
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if not isinstance(axis.__dict__.get("_update_ticks"), RememberedTicks):
                axis._update_ticks = RememberedTicks(axis)
            if not isinstance(axis.__dict__.get("_get_ticklabel_bboxes"), RememberedLabelBoxes):
                axis._get_ticklabel_bboxes = RememberedLabelBoxes(axis)


# --- a layout without a draw ------------------------------------------------------------------

def _layout_without_drawing() -> bool:
    """True when a draw that is there only to lay a figure out may lay it out without drawing."""
    return LAYOUT_WITHOUT_DRAWING and _enabled()


def _lay_out(fig, renderer) -> None:
    """What matplotlib's ``Figure.draw`` does before it draws any artist: the axes' aspects (through
    its private ``_get_draw_artists``), then the layout engine. What a layout's measures read needs
    no draw: a text's size, the axes' boxes, the axes' tick labels (measured when asked)."""
    fig._get_draw_artists(renderer)
    if fig.axes and fig.get_layout_engine() is not None:
        try:
            fig.get_layout_engine().execute(fig)
        except ValueError:      # as in matplotlib's Figure.draw
            pass


_LAYOUT_ONLY = "_netlab_layout_only_once"


@contextlib.contextmanager
def _laid_out_once(fig, bbox_inches) -> Iterator[None]:
    """Around a ``fig.savefig`` of a netlab figure: while the book builds, the save's first, silent
    draw (matplotlib's, to run the layout; its output is thrown away and the second draw recomputes
    every artist) only lays the figure out (:func:`_take_layout_only`). Not for ``bbox_inches="tight"``,
    whose first draw measures every artist."""
    if _layout_without_drawing() and fig.get_layout_engine() is not None and bbox_inches != "tight":
        fig.__dict__[_LAYOUT_ONLY] = True
    try:
        yield
    finally:
        fig.__dict__.pop(_LAYOUT_ONLY, None)


def _take_layout_only(fig) -> bool:
    """True, once, for the draw that :func:`_laid_out_once` asked to be a layout only."""
    return bool(fig.__dict__.pop(_LAYOUT_ONLY, False))
