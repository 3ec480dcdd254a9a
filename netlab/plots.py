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

The book's style (:data:`STYLE`) is set on each netlab figure's own artists (its axes are
:class:`Axes`), never on matplotlib's session-wide ``rcParams``: importing netlab and drawing its
figures leaves a reader's own matplotlib figures as they would be without netlab. The speed devices
that reach into matplotlib's internals live in :mod:`netlab._mpl_speedups` and work only while the
book builds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import contextlib
import html
import io
import math
import re
import threading
from typing import Any

import matplotlib
import matplotlib.axes
import matplotlib.figure
import matplotlib.ticker

from netlab import _mpl_speedups, validate


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

#: The book's style, as matplotlib settings. netlab does not set them on the session's ``rcParams``:
#: :func:`figure` gives them to each figure it makes (:class:`Figure`, :class:`Axes`). To draw a
#: figure of your own in the same style: ``with matplotlib.rc_context(plots.STYLE): ...``.
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


_TITLE_SIZE_KEYS = frozenset({"fontsize", "size", "fontproperties", "font", "font_properties"})


def _legend_style(kwargs: dict) -> dict:
    """A legend's options with the book's defaults for what the caller left unsaid (its frame, its size)."""
    if kwargs.get("frameon") is None:
        kwargs["frameon"] = STYLE["legend.frameon"]
    if kwargs.get("fontsize") is None:
        prop = kwargs.get("prop")
        if prop is None:
            kwargs["fontsize"] = STYLE["legend.fontsize"]
        elif isinstance(prop, dict) and "size" not in prop:
            kwargs["prop"] = {**prop, "size": STYLE["legend.fontsize"]}
    return kwargs


class Axes(matplotlib.axes.Axes):
    """An Axes in the book's style (:data:`STYLE`), whatever the session's ``rcParams`` say.

    matplotlib reads its defaults from ``rcParams`` when it makes an artist: the axes' background,
    spines, grid, colour cycle and title and label sizes when the axes is made or cleared (set here
    after matplotlib's own :meth:`clear`), a title's size when it is set, a legend's frame and size
    when it is made, a gridline's opacity when a tick is made. Each of those is given the book's
    value here, so no session-wide setting is changed. (Text that a figure's code sizes relative
    to ``font.size``, such as tick labels and annotations, follows the session's ``font.size``:
    matplotlib's default, 10 points, is the book's.)
    """

    def clear(self) -> None:
        """matplotlib's clear, then the book's background, spines, grid, colours and text sizes."""
        super().clear()
        self.set_facecolor(STYLE["axes.facecolor"])
        for side in ("top", "right"):
            if side in self.spines:
                self.spines[side].set_visible(STYLE[f"axes.spines.{side}"])
        # as matplotlib's clear turns the grid on from rcParams, and each tick made later reads its opacity
        self.grid(STYLE["axes.grid"], which=matplotlib.rcParams["axes.grid.which"],
                  axis=matplotlib.rcParams["axes.grid.axis"])
        self.tick_params(which="both", grid_alpha=STYLE["grid.alpha"])
        self.set_prop_cycle(STYLE["axes.prop_cycle"])
        for axis in (self.xaxis, self.yaxis):
            axis.label.set_fontsize(STYLE["axes.labelsize"])
        for title in (self.title, getattr(self, "_left_title", None), getattr(self, "_right_title", None)):
            if title is not None:
                title.set_fontsize(STYLE["axes.titlesize"])

    def set_title(self, label, fontdict=None, loc=None, pad=None, *, y=None, **kwargs):
        """matplotlib's set_title, at the book's title size unless a size is given."""
        if not _TITLE_SIZE_KEYS & (set(kwargs) | set(fontdict or ())):
            kwargs["fontsize"] = STYLE["axes.titlesize"]
        return super().set_title(label, fontdict, loc, pad, y=y, **kwargs)

    def legend(self, *args, **kwargs):
        """matplotlib's legend, with the book's frame and text size unless given."""
        return super().legend(*args, **_legend_style(kwargs))


def _book_axes(args: tuple, kwargs: dict) -> dict:
    """``add_subplot``'s or ``add_axes``' options, asking for an :class:`Axes` unless the caller chose a kind."""
    chosen = {"projection", "polar", "axes_class"} & kwargs.keys()
    if not chosen and not (args and isinstance(args[0], matplotlib.axes.Axes)):
        kwargs["axes_class"] = Axes
    return kwargs


class Figure(matplotlib.figure.Figure):
    """A matplotlib figure in the book's style that shows itself as a PNG in Jupyter, with or without pyplot.

    netlab never imports pyplot (so nothing is drawn behind a reader's back and no
    figure leaks into pyplot's global list); Jupyter then finds no formatter for a
    plain Figure and would print ``<Figure size ...>``. This method gives it one.
    Its axes (those made by :func:`figure`, :meth:`add_subplot`, :meth:`add_axes`, ``twinx``)
    are :class:`Axes`, in the book's style.
    """

    #: Alternative text (what the figure shows, for readers who cannot see it). Set it with
    #: ``fig.alt = "..."`` before displaying the figure: the book then shows an ``<img>`` that
    #: carries it (the site's checks require alt text on every figure).
    alt: str = ""

    def add_subplot(self, *args, **kwargs):
        """matplotlib's add_subplot, making an :class:`Axes` unless another kind is asked for."""
        return super().add_subplot(*args, **_book_axes(args, kwargs))

    def add_axes(self, *args, **kwargs):
        """matplotlib's add_axes, making an :class:`Axes` unless another kind is asked for."""
        return super().add_axes(*args, **_book_axes(args, kwargs))

    def legend(self, *args, **kwargs):
        """matplotlib's figure legend, with the book's frame and text size unless given."""
        return super().legend(*args, **_legend_style(kwargs))

    def savefig(self, fname, *, transparent=None, **kwargs):
        """matplotlib's savefig, on the book's background unless transparent."""
        if not (matplotlib.rcParams["savefig.transparent"] if transparent is None else transparent):
            kwargs.setdefault("facecolor", STYLE["savefig.facecolor"])
        return super().savefig(fname, transparent=transparent, **kwargs)

    def _prepare_axes(self) -> None:
        """Install netlab's tick rule (and, while the book builds, the tick memos) on every axis,
        before anything measures the ticks."""
        for ax in self.axes:
            for axis in (ax.xaxis, ax.yaxis):
                _quiet_long_log_axes(axis)
        _mpl_speedups._remember_ticks(self)

    def draw(self, renderer):
        """matplotlib's draw, with netlab's tick rule (and, while the book builds, its speed-ups)."""
        with _mpl_speedups._active():
            self._prepare_axes()
            if _mpl_speedups._take_layout_only(self):
                # savefig's first, silent draw, while the book builds (_savefig asked for it): its output
                # is thrown away and savefig's second draw recomputes every artist, so only what that draw
                # relies on is done here: axes aspects and the layout, as Figure.draw does them first.
                _mpl_speedups._lay_out(self, renderer)
                return None
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
_SVG_RC = {"svg.fonttype": "none", "svg.hashsalt": "netlab", "svg.id": None}


def _savefig(fig, buffer, **options) -> None:
    """``fig.savefig(buffer, **options)``; while the book builds, a netlab figure is laid out once
    without being drawn first (:func:`netlab._mpl_speedups._laid_out_once`)."""
    bbox = options.get("bbox_inches")
    if bbox is None:                         # as savefig reads it: None means the rcParam
        bbox = matplotlib.rcParams["savefig.bbox"]
    with _mpl_speedups._active():
        if not isinstance(fig, Figure):
            fig.savefig(buffer, **options)
            return
        with _mpl_speedups._laid_out_once(fig, bbox):
            fig.savefig(buffer, **options)


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


#: Width (inches) of the figures drawn inside :func:`narrow_figures`, an explorer's phone frames.
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
    the axes' box; the x-axis' extent (computed when asked). While the book builds, a netlab figure is
    only laid out (:func:`netlab._mpl_speedups._lay_out`); otherwise it is drawn without output, as
    matplotlib's ``draw_without_rendering`` does."""
    if isinstance(fig, Figure) and _mpl_speedups._layout_without_drawing():
        fig._prepare_axes()
        _mpl_speedups._lay_out(fig, renderer)
    else:
        fig.draw_without_rendering()


def fit_narrow(fig) -> None:
    """Finish a figure drawn inside :func:`narrow_figures` for a phone's column, in place.

    A narrow figure keeps every text at its size in points, so a title or axis label written
    for 6.4 inches can be wider than the figure (and be cut at its edges), and a legend inside
    the axes covers more of the data. Here every title and x-axis label wider than the figure
    is wrapped onto more lines, and each axes' legend moves under its axes, in as many columns
    as fit the width (a label wider than the figure on its own is wrapped too); the figure grows
    by the legend's height, so the plot keeps its size.
    """
    with _mpl_speedups._active():
        _fit_narrow(fig)


def _fit_narrow(fig) -> None:
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
        # centred under the axes, a legend wider than the axes makes the layout engine narrow the axes
        # until its overhang fits: keep it within the axes' width (the figure less the y-axis' labels,
        # with a fifth to spare for the layout's pads), in fewer columns, then with its labels wrapped
        width = 0.8 * (room - ax.yaxis.get_tightbbox(renderer).width)
        for ncols in range(len(labels), 0, -1):
            legend = ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0),
                               bbox_transform=ax.transAxes + shift, ncols=ncols, **options)
            if legend.get_window_extent(renderer).width <= width:
                break
        chars = max(map(len, labels), default=0)
        while legend.get_window_extent(renderer).width > width and chars > 8:
            chars -= 2
            for text, label in zip(legend.get_texts(), labels):
                if "$" not in label:        # (mathtext is not wrapped)
                    text.set_text("\n".join(textwrap.wrap(label, chars, break_long_words=False,
                                                           break_on_hyphens=False)))
        fig.set_figheight(fig.get_figheight() + legend.get_window_extent(renderer).height / fig.dpi + 0.05)
        if k + 1 < len(with_legend):
            _lay_out(fig, renderer)             # the next axes is measured in the new layout


def figure(ncols: int = 1, nrows: int = 1, width_in: float = 6.4, height_in: float = 3.6,
           **subplot_kw) -> tuple[Figure, Any]:
    """A new figure in the book's style; returns ``(fig, ax)`` like ``plt.subplots``.

    The figure is not registered with pyplot, so creating many (as the
    kernel-free widgets do) leaks nothing; display it with ``display(fig)`` or by
    making it a cell's last expression. The book style (:data:`STYLE`) is given to this
    figure and its axes (:class:`Figure`, :class:`Axes`), not to matplotlib's session-wide
    settings, so every netlab figure looks the same and a reader's own figures are left as they
    are. Inside :func:`narrow_figures` the figure is drawn for a phone instead.
    """
    narrow = getattr(_NARROW, "width_in", None)
    if narrow is not None:
        if nrows == 1 and ncols > 1:
            nrows, ncols, height_in = ncols, 1, height_in * ncols
        width_in = min(width_in, narrow)
    fig = Figure(figsize=(width_in, height_in), dpi=STYLE["figure.dpi"], facecolor=STYLE["figure.facecolor"],
                 layout="constrained")
    axes = fig.subplots(nrows=nrows, ncols=ncols, **subplot_kw)
    return fig, axes


def thin(xs: Sequence[float], ys: Sequence[float], max_points: int = 400) -> tuple[list[float], list[float]]:
    """A long trace cut to at most ``max_points`` points that still draw the same line at a figure's
    width: the points are split into ``max_points // 2`` runs in order, and each run keeps its lowest and
    its highest point (in their order), so every peak and every trough survives. A trace already short
    enough is returned as it is.

    >>> thin([0, 1, 2, 3, 4, 5], [0, 5, 1, 4, 2, 3], max_points=4)
    ([0, 1, 3, 4], [0, 5, 4, 2])
    """
    max_points = validate.integer("max_points", max_points, minimum=2)
    if len(xs) != len(ys):
        raise ValueError(f"xs and ys must have the same length, got {len(xs)} and {len(ys)}")
    xs, ys = list(xs), list(ys)
    if len(xs) <= max_points:
        return xs, ys
    runs = max_points // 2
    out_x: list[float] = []
    out_y: list[float] = []
    for r in range(runs):
        lo, hi = r * len(xs) // runs, (r + 1) * len(xs) // runs
        low = min(range(lo, hi), key=ys.__getitem__)
        high = max(range(lo, hi), key=ys.__getitem__)
        for i in sorted({low, high}):
            out_x.append(xs[i])
            out_y.append(ys[i])
    return out_x, out_y


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
