"""Plots: one matplotlib style for the whole book, and a colour per technology.

Every figure in the book comes from a function here or from a chapter's
``plot_*`` helper that starts with :func:`figure`, so that a technology keeps its
colour from chapter to chapter (InfiniBand is always the same blue) and figures
stay readable on the site's light and dark themes (opaque white background).

The palette is Okabe and Ito's, which stays distinguishable for the common forms
of colour blindness.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
import html
import io

import matplotlib
import matplotlib.figure

# Okabe-Ito colour-blind-safe palette.
# The Okabe-Ito colour-blind-safe palette, with its four light colours darkened (same hue and
# saturation, lower lightness) to at least 3:1 contrast against the white figure background, the
# WCAG minimum for graphics: figures are opaque white PNGs in light and dark mode alike. The
# originals were orange #E69F00 (2.25:1), sky #56B4E9 (2.31:1), yellow #F0E442 (1.32:1), purple
# #CC79A7 (3.06:1).
OKABE_ITO = {
    "black": "#000000", "orange": "#BB8100", "sky": "#1C95D9", "green": "#009E73",
    "yellow": "#9A900C", "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#C870A1",
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
    "compute": OKABE_ITO["black"],
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

    def _repr_png_(self) -> bytes:
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=100, facecolor="white")
        return buffer.getvalue()

    def _repr_html_(self) -> str | None:
        """An ``<img>`` with :attr:`alt` as its alternative text, or None (plain PNG) when unset.

        The book ranks ``text/html`` before images, so a described figure keeps its
        description on the site; without one, myst-nb would use the file name as alt text.
        """
        alt = self.alt or self.described()
        if not alt:
            return None
        data = base64.b64encode(self._repr_png_()).decode("ascii")
        return f'<img class="netlab-figure" src="data:image/png;base64,{data}" alt="{html.escape(alt)}">'

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


def color(name: str) -> str:
    """The colour of a technology (``"infiniband"``, ``"ethernet"``, ...) or an Okabe-Ito name."""
    key = name.lower()
    if key in TECH_COLORS:
        return TECH_COLORS[key]
    if key in OKABE_ITO:
        return OKABE_ITO[key]
    raise ValueError(f"name must be one of {sorted(TECH_COLORS) + sorted(OKABE_ITO)}, got {name!r}")


def figure(ncols: int = 1, nrows: int = 1, width_in: float = 6.4, height_in: float = 3.6,
           **subplot_kw) -> tuple[Figure, object]:
    """A new figure in the book's style; returns ``(fig, ax)`` like ``plt.subplots``.

    The figure is not registered with pyplot, so creating many (as the
    kernel-free widgets do) leaks nothing; display it with ``display(fig)`` or by
    making it a cell's last expression. The book style is applied to matplotlib's
    defaults on first use, so every netlab figure looks the same.
    """
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
