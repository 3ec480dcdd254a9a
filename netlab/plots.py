"""Plots: one matplotlib style for the whole book, and a colour per technology.

Every figure in the book comes from a function here or from a chapter's
``plot_*`` helper that starts with :func:`figure`, so that a technology keeps its
colour from chapter to chapter (InfiniBand is always the same blue).

The palette starts from Okabe and Ito's colour-blind-safe hues, darkened or
lightened where needed so that every colour has at least 3:1 contrast (WCAG's
minimum for graphics) against both the site's light background (white) and its
dark one (:data:`DARK_BACKGROUND`): one palette serves both themes, and only the
neutrals (text, axes, background) switch. :func:`figure_to_svg` writes a figure
as a small SVG whose neutrals follow the reader's colour scheme. Inside
:func:`narrow_figures`, :func:`figure` draws for a phone's column instead (the explorers'
phone frames): at most :data:`NARROW_WIDTH_IN` wide, side-by-side panels stacked.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
import contextlib
import html
import io
import math
import re
import threading

import matplotlib
import matplotlib.figure
import matplotlib.ticker


def _share_mathtext_parses() -> None:
    """Let every renderer reuse a formula matplotlib has already laid out (a build-time speed-up).

    matplotlib keeps the layout of each math text (a log axis's ``$10^{3}$`` tick labels among
    them) in a cache of its parser, but every renderer (every figure saved, every layout pass)
    makes a parser of its own, so each frame of an explorer parsed all its tick labels again:
    about a third of the time of drawing a frame. Here the parsers share one cache, keyed as
    matplotlib keys its own plus the parser's output type and the ``mathtext.*`` settings; a
    parse is a pure function of those, so every figure comes out byte for byte the same.
    """
    import functools

    from matplotlib import mathtext

    parse = getattr(mathtext.MathTextParser._parse_cached, "__wrapped__", None)
    if parse is None or getattr(mathtext.MathTextParser, "_netlab_shared", False):
        return      # another matplotlib than the one this was written for, or done already
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

    mathtext.MathTextParser._parse_cached = _parse_cached
    mathtext.MathTextParser._netlab_shared = True
    mathtext.MathTextParser._netlab_unshared_parse = parse      # matplotlib's own, for the tests


_share_mathtext_parses()


#: The two page backgrounds every colour must stand out from (the book theme's light and dark).
LIGHT_BACKGROUND = "#ffffff"
#: The dark theme's page background.
DARK_BACKGROUND = "#14181e"
#: Text and axes colour in each theme
#: (both above 4.5:1 against their background).
LIGHT_FOREGROUND = "#1a1a1a"
DARK_FOREGROUND = "#e6e6e6"

# Okabe-Ito hues, adjusted for 3:1 against both backgrounds: the original orange (#E69F00,
# 2.25:1 on white), sky blue (#56B4E9, 2.31:1) and yellow (#F0E442, 1.32:1) are too light for a
# white page, black is invisible on a dark one. Measured ratios are in tests/test_plots.py.
OKABE_ITO = {
    "black": "#000000", "orange": "#C27A00", "sky": "#2E90D0", "green": "#009E73",
    "yellow": "#8F8A00", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#C46B9A",
    "grey": "#7F7F7F",
}

TECH_COLORS = {
    "infiniband": OKABE_ITO["blue"],
    "ethernet": OKABE_ITO["orange"],
    "roce": OKABE_ITO["orange"],
    "uet": OKABE_ITO["green"],
    "nvlink": OKABE_ITO["purple"],
    "pcie": OKABE_ITO["grey"],
    "tcp": OKABE_ITO["vermillion"],
    "rdma": OKABE_ITO["blue"],
    "gpudirect": OKABE_ITO["green"],
    "optics": OKABE_ITO["sky"],
    "cpo": OKABE_ITO["green"],
    "compute": "#6B6B6B",
}

# Categorical cycle for series that are not a technology.
CYCLE = [OKABE_ITO[k] for k in ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "grey")]

STYLE = {
    "figure.figsize": (6.4, 3.6),
    "figure.dpi": 100,
    "figure.facecolor": "white",
    "savefig.facecolor": "white",
    "axes.facecolor": "white",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "font.size": 10,
    "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
}


class _RememberedTicks:
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
    frames take about a fifth less CPU, and with :class:`_RememberedLabelBoxes` as well about
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
    """What decides an axis's ticks and where they are drawn (see :class:`_RememberedTicks`)."""
    return (tuple(map(float, axis.get_view_interval())), tuple(axis.axes.bbox.bounds), axis.get_scale(),
            axis.major.locator, axis.minor.locator, axis.major.formatter, axis.minor.formatter,
            repr(axis._major_tick_kw), repr(axis._minor_tick_kw), len(axis.majorTicks), len(axis.minorTicks))


class _RememberedLabelBoxes:
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


#: Draw netlab's figures with ``_RememberedTicks`` and ``_RememberedLabelBoxes``
#: (False: matplotlib's own tick updates and measurements).
REMEMBER_TICKS = True

#: The widest span (in decades) at which a log axis of a netlab figure still shows minor ticks
#: (the marks at 2, 3, ... 9 times a power of ten); wider, it shows only its labelled ticks.
MINOR_TICK_DECADES = 4.0


class _MinorTicksOnShortLogAxes(matplotlib.ticker.LogLocator):
    """matplotlib's minor locator of a log axis, silent when the axis spans more than
    :data:`MINOR_TICK_DECADES` decades.

    Across seven decades (lab 2's fibre from 1 cm to 100 km) the eight marks per decade are about
    60 unlabelled ticks per axis in view, 4-5 points apart in a phone's frame: they add nothing a reader
    can use, and creating and measuring them was half the time of drawing such a figure. On a
    short axis, where they help a reader read a value between the labels, they stay as they are.
    """

    def tick_values(self, vmin, vmax):
        low, high = sorted((float(vmin), float(vmax)))
        if low > 0 and math.log10(high / low) > MINOR_TICK_DECADES:     # decades, whatever the base
            return []
        return super().tick_values(vmin, vmax)


def _quiet_long_log_axes(axis) -> None:
    """Replace a log axis's default ('auto') minor locator with :class:`_MinorTicksOnShortLogAxes`.

    (An explicit ``set_xscale("log", subs="auto")`` cannot be told from the default, and is treated
    the same.)"""
    old = axis.get_minor_locator()
    if (axis.get_scale() != "log" or not axis.isDefault_minloc or type(old) is not matplotlib.ticker.LogLocator
            or not (isinstance(old._subs, str) and old._subs == "auto")):
        return      # not a log axis, or its minor ticks were chosen (a locator, or the scale's subs=...)
    axis.set_minor_locator(_MinorTicksOnShortLogAxes(base=old._base, subs=old._subs, numticks=old.numticks))
    axis.isDefault_minloc = True        # still the default: setting the scale again replaces it


class Figure(matplotlib.figure.Figure):
    """A matplotlib figure that shows itself as a PNG in Jupyter, with or without pyplot.

    netlab never imports pyplot (so nothing is drawn behind a reader's back and no
    figure leaks into pyplot's global list); Jupyter then finds no formatter for a
    plain Figure and would print ``<Figure size ...>``. This method gives it one.
    """

    #: Alternative text (what the figure shows, for readers who cannot see it). Set it with
    #: ``fig.alt = "..."`` before displaying the figure: the book then shows an ``<img>`` that
    #: carries it (the site's checks require alt text on every figure).
    alt: str = ""

    def _prepare_axes(self) -> None:
        """Install netlab's tick rules and memos on every axis (before anything measures the ticks)."""
        for ax in self.axes:
            for axis in (ax.xaxis, ax.yaxis):
                _quiet_long_log_axes(axis)
        if REMEMBER_TICKS:
            for ax in self.axes:
                for axis in (ax.xaxis, ax.yaxis):
                    if not isinstance(axis.__dict__.get("_update_ticks"), _RememberedTicks):
                        axis._update_ticks = _RememberedTicks(axis)
                    if not isinstance(axis.__dict__.get("_get_ticklabel_bboxes"), _RememberedLabelBoxes):
                        axis._get_ticklabel_bboxes = _RememberedLabelBoxes(axis)

    def lay_out(self, renderer) -> None:
        """What a draw does before it draws any artist: axes aspects, then the layout engine."""
        self._prepare_axes()
        self._get_draw_artists(renderer)
        if self.axes and self.get_layout_engine() is not None:
            try:
                self.get_layout_engine().execute(self)
            except ValueError:      # as in matplotlib's Figure.draw
                pass

    def draw(self, renderer):
        if self.__dict__.pop("_layout_only_once", False):
            # savefig's first, silent draw (figure_to_svg sets the flag): its output is thrown away and
            # savefig's second draw recomputes every artist, so only what that draw relies on is done
            # here: axes aspects and the layout, as Figure.draw does them before drawing its artists.
            self.lay_out(renderer)
            return None
        self._prepare_axes()
        return super().draw(renderer)

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        _savefig(self, buffer, format="png", dpi=100, facecolor="white")
        return buffer.getvalue()

    def _repr_html_(self) -> str | None:
        """An ``<img>`` (a themed SVG, see :func:`figure_to_svg`) with :attr:`alt` as its
        alternative text, or None (plain PNG) when unset.

        The book ranks ``text/html`` before images, so a described figure keeps its
        description on the site; without one, myst-nb would use the file name as alt text.
        """
        alt = self.alt or self.described()
        if not alt:
            return None
        return (f'<img class="netlab-figure dark-light" src="{html.escape(svg_data_uri(figure_to_svg(self)))}" '
                f'alt="{html.escape(alt)}">')

    def described(self) -> str:
        """A description read off the figure when no :attr:`alt` was set: its titles and axis labels
        ("Queue depth against time (s)"), one sentence per panel; empty when the figure has no words."""
        parts = []
        title = self.get_suptitle() if hasattr(self, "get_suptitle") else ""
        if title:
            parts.append(title.rstrip(".") + ".")
        for ax in self.axes:
            what = ax.get_title() or ax.get_ylabel()
            x, y = ax.get_xlabel(), ax.get_ylabel()
            if not (what or x):
                continue
            sentence = what if what else y
            if y and y != sentence:
                sentence += f": {y}"
            if x:
                sentence += f" against {x}"
            parts.append(sentence.strip().rstrip(".") + ".")
        return " ".join(parts)


# --- SVG output -----------------------------------------------------------------------------
#: Marker of the dark-theme block inside every SVG netlab writes; the explorer script rewrites it
#: to follow the site's theme switch (an SVG shown by an ``<img>`` sees only the system setting).
DARK_MEDIA = "@media (prefers-color-scheme:dark)"
SVG_THEME = (f"<style>svg{{--fg:{LIGHT_FOREGROUND};--bg:{LIGHT_BACKGROUND}}}"
             f"{DARK_MEDIA}{{svg{{--fg:{DARK_FOREGROUND};--bg:{DARK_BACKGROUND}}}}}"
             "text{fill:var(--fg);font-family:'DejaVu Sans',Verdana,Arial,sans-serif}</style>")
#: Where a draw is only there to lay a figure out, lay it out without drawing its artists:
#: savefig's first, silent draw (:func:`figure_to_svg`, Jupyter's PNG) and :func:`fit_narrow`'s measuring passes
#: (False: draw, as matplotlib's savefig and ``draw_without_rendering`` do). The output is the same
#: (every explorer frame of the book, 610 SVGs, compared equal); an explorer setting took 13-17 % less
#: time for the first, then 7 % less for the second.
LAYOUT_WITHOUT_DRAWING = True
_SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "netlab", "svg.id": None}


def _savefig(fig, buffer, **options) -> None:
    """``fig.savefig(buffer, **options)``, laying a netlab figure out once without drawing it.

    savefig draws a figure that has a layout engine twice: once, with no output, to run the layout,
    then for real, with the layout off. The first draw of a :class:`Figure` runs only the layout
    (:meth:`Figure.draw`), unless :data:`LAYOUT_WITHOUT_DRAWING` is False."""
    bbox = options.get("bbox_inches")
    if bbox is None:                         # as savefig reads it: None means the rcParam
        bbox = matplotlib.rcParams["savefig.bbox"]
    if LAYOUT_WITHOUT_DRAWING and isinstance(fig, Figure) and fig.get_layout_engine() is not None and bbox != "tight":
        fig._layout_only_once = True
    try:
        fig.savefig(buffer, **options)
    finally:
        fig.__dict__.pop("_layout_only_once", None)


def figure_to_svg(fig, decimals: int = 1) -> str:
    """A matplotlib figure as a compact SVG whose neutrals follow the reader's colour scheme.

    Text stays text (smaller than glyph outlines, and sharp at any size), with every digit it
    was drawn with; coordinates keep ``decimals`` decimals of a point; comments, metadata and unreferenced ids are dropped.
    Black (text, axes) and white (background) become the CSS variables ``--fg`` and ``--bg``,
    set for a light page and, under ``prefers-color-scheme: dark``, for a dark one
    (:data:`DARK_MEDIA`); the technology colours pass 3:1 on both, so they stay as they are.
    The figure paints its own background, so it stays legible on a page of the other theme.
    """
    decimals = int(decimals)
    if not 0 <= decimals <= 4:
        raise ValueError(f"decimals must be between 0 and 4, got {decimals}")
    buffer = io.StringIO()
    with matplotlib.rc_context({k: v for k, v in _SVG_RC.items() if k in matplotlib.rcParams}):
        _savefig(fig, buffer, format="svg", metadata={"Date": None, "Creator": None, "Format": None,
                                                      "Type": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>|<!--.*?-->", "", svg, flags=re.S)
    # Coordinates are cut to ``decimals`` places inside tags only: the text between tags is what
    # the reader sees (a bar's "0.778", a tick's "0.25"), and is kept exactly as drawn.
    cut = re.compile(r"(\d+\.\d{%d})\d+" % decimals if decimals else r"(\d+)\.\d+")
    svg = re.sub(r"<[^>]*>", lambda tag: cut.sub(r"\1", tag.group(0)), svg)
    svg = re.sub(r"\s*\n\s*", " ", svg)
    svg = re.sub(r">\s+<", "><", svg)
    svg = re.sub(r"\s+(\"|/>)", r"\1", svg)
    used = set(re.findall(r"#([A-Za-z_][\w.-]*)\)", svg)) | set(re.findall(r'href="#([^"]+)"', svg))
    svg = re.sub(r' id="([^"]+)"', lambda m: m.group(0) if m.group(1) in used else "", svg)
    svg = re.sub(r"; font-family: [^;\"]*|font-family: [^;\"]*; ", "", svg)
    svg = re.sub(r"#000000\b", "var(--fg)", svg)
    svg = re.sub(r"#ffffff\b", "var(--bg)", svg)
    svg = re.sub(r"<g>(<g>)*</g>|<defs></defs>", "", svg)
    svg = svg.strip()
    head_end = svg.index(">") + 1
    return svg[:head_end] + SVG_THEME + svg[head_end:]


_URI_SAFE = " !$&'()*+,-./:;=?@_~<>[]{}|^`\""


def svg_data_uri(svg: str) -> str:
    """An SVG as a ``data:`` URI, percent-encoding only what must be (text compresses well)."""
    from urllib.parse import quote

    return "data:image/svg+xml;charset=utf-8," + quote(svg, safe=_URI_SAFE)


def color(name: str) -> str:
    """The colour of a technology (``"infiniband"``, ``"ethernet"``, ...) or an Okabe-Ito name."""
    key = name.lower()
    if key in TECH_COLORS:
        return TECH_COLORS[key]
    if key in OKABE_ITO:
        return OKABE_ITO[key]
    raise ValueError(f"name must be one of {sorted(TECH_COLORS) + sorted(OKABE_ITO)}, got {name!r}")


#: Width (inches) of the figures drawn inside :func:`narrow_figures`: an explorer's phone frames.
#: Text keeps its size in points, so a narrower figure shows it larger in the same column: a
#: 3.6-inch (259 pt) frame in a phone's 340 px column draws 10 pt tick labels at 13 px and 7 pt
#: superscripts at 9 px, where a 6.4-inch one drew them at 7 and 5 px.
NARROW_WIDTH_IN = 3.6
_NARROW = threading.local()


@contextlib.contextmanager
def narrow_figures(width_in: float = NARROW_WIDTH_IN) -> Iterator[None]:
    """Within this block (in this thread), :func:`figure` draws for a phone's column.

    A figure is at most ``width_in`` wide, keeping its height; a row of panels
    (``nrows=1, ncols>1``) becomes a column of them, each as tall as the row was. The
    axes come back in the same order and shape (a 1-D array), so a drawing function
    that unpacks ``fig, (left, right) = figure(ncols=2)`` draws both forms unchanged.
    """
    if not 1.0 <= width_in <= 20.0:
        raise ValueError(f"width_in must be between 1 and 20 inches, got {width_in}")
    previous = getattr(_NARROW, "width_in", None)
    _NARROW.width_in = float(width_in)
    try:
        yield
    finally:
        _NARROW.width_in = previous


def _lay_out(fig, renderer) -> None:
    """Lay ``fig`` out for fit_narrow's measures. What they read needs no draw: a text's width, and its
    horizontal place (a title's and an x label's x follow the axes; their y, set by a draw, is not read);
    the axes' box; the x-axis' extent (computed when asked)."""
    if LAYOUT_WITHOUT_DRAWING and isinstance(fig, Figure):
        fig.lay_out(renderer)
    else:
        fig.draw_without_rendering()


def fit_narrow(fig) -> None:
    """Finish a figure drawn inside :func:`narrow_figures` for a phone's column, in place.

    A narrow figure keeps every text at its size in points, so a title or axis label written
    for 6.4 inches can be wider than the figure (and be cut at its edges), and a legend inside
    the axes covers more of the data. Here every title and x-axis label wider than the figure
    is wrapped onto more lines, and each axes' legend moves under its axes, in as many columns
    as fit the width; the figure grows by the legend's height, so the plot keeps its size.
    """
    import textwrap
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.transforms import ScaledTranslation

    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    renderer = fig.canvas.get_renderer()
    room = 0.96 * fig.bbox.width

    def fits(text) -> bool:
        # a centred title or label may reach as far as the nearer edge of the figure on both sides
        box = text.get_window_extent(renderer)
        centre = (box.x0 + box.x1) / 2
        return box.width <= max(0.5 * room, 2 * min(centre, fig.bbox.width - centre) - 0.04 * fig.bbox.width)

    def wrap(text) -> bool:
        words = text.get_text().replace("\n", " ")
        if not words or "$" in words or fits(text):
            return False
        chars = len(words)
        while chars > 8:
            chars -= 2
            text.set_text("\n".join(textwrap.wrap(words, chars)))
            if fits(text):
                break
        return True

    titles = [fig._suptitle] if getattr(fig, "_suptitle", None) is not None else []
    for ax in fig.axes:
        titles += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label]
    for _ in range(3):      # wrapping moves the axes (the layout is redone), and so the room
        _lay_out(fig, renderer)
        if not any([wrap(text) for text in titles]):
            break
    with_legend = [ax for ax in fig.axes if ax.get_legend() is not None and ax.get_legend().get_visible()]
    for k, ax in enumerate(with_legend):
        old = ax.get_legend()
        handles, labels = old.legend_handles, [t.get_text() for t in old.get_texts()]
        options = {"fontsize": old.get_texts()[0].get_fontsize() if labels else None,
                   "title": old.get_title().get_text() or None, "frameon": old.get_frame_on()}
        old.remove()
        # from the bottom of the axes to the bottom of its x-axis (tick labels and label), in points
        below = max(0.0, ax.get_window_extent(renderer).y0 - ax.xaxis.get_tightbbox(renderer).y0)
        shift = ScaledTranslation(0, -(below / fig.dpi + 4 / 72), fig.dpi_scale_trans)
        for ncols in range(len(labels), 0, -1):
            legend = ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                               bbox_transform=ax.transAxes + shift, ncols=ncols, **options)
            if legend.get_window_extent(renderer).width <= room:
                break
        fig.set_figheight(fig.get_figheight() + legend.get_window_extent(renderer).height / fig.dpi + 0.05)
        if k + 1 < len(with_legend):
            _lay_out(fig, renderer)             # the next axes is measured in the new layout


def figure(ncols: int = 1, nrows: int = 1, width_in: float = 6.4, height_in: float = 3.6,
           **subplot_kw) -> tuple[Figure, object]:
    """A new figure in the book's style; returns ``(fig, ax)`` like ``plt.subplots``.

    The figure is not registered with pyplot, so creating many (as the
    kernel-free widgets do) leaks nothing; display it with ``display(fig)`` or by
    making it a cell's last expression. The book style is applied to matplotlib's
    defaults on first use, so every netlab figure looks the same. Inside
    :func:`narrow_figures` the figure is drawn for a phone instead.
    """
    narrow = getattr(_NARROW, "width_in", None)
    if narrow is not None:
        if nrows == 1 and ncols > 1:
            nrows, ncols, height_in = ncols, 1, height_in * ncols
        width_in = min(width_in, narrow)
    matplotlib.rcParams.update(STYLE)
    fig = Figure(figsize=(width_in, height_in), layout="constrained")
    axes = fig.subplots(nrows=nrows, ncols=ncols, **subplot_kw)
    return fig, axes


def apply_style(ax) -> None:
    """Re-apply the grid and spines of the book style to an axes created elsewhere."""
    ax.grid(True, alpha=0.3)
    ax.spines["top"].set_visible(False)
    ax.spines["right"].set_visible(False)


def bar_breakdown(ax, labels: Sequence[str], parts: dict[str, Sequence[float]],
                  colors: dict[str, str] | None = None, horizontal: bool = True) -> None:
    """Stacked bars: one bar per label, one segment per entry of ``parts``.

    Used for latency and power breakdowns (which part of the time or the watts
    goes where).
    """
    left = [0.0] * len(labels)
    for i, (name, values) in enumerate(parts.items()):
        c = (colors or {}).get(name, CYCLE[i % len(CYCLE)])
        if horizontal:
            ax.barh(labels, values, left=left, label=name, color=c)
        else:
            ax.bar(labels, values, bottom=left, label=name, color=c)
        left = [a + b for a, b in zip(left, values)]
    ax.legend(loc="best")
