"""Widgets: one definition, two forms — live in Jupyter, precomputed on the static site.

An :class:`Explorer` binds controls to a function that draws a figure. In a
running Jupyter kernel it is an ipywidgets panel: moving a slider calls the
function again. On the published site there is no kernel, so the same explorer
also renders a *kernel-free* form: every combination of control values is drawn
at build time, and a few lines of JavaScript (``_static/netlab-explorer.js``)
swap the precomputed frames when a reader moves a control. The controls are
discrete for exactly this reason: the live and static forms show the same grid.

    >>> from netlab import plots, widgets
    >>> def draw(rate_gbps, size_kib):
    ...     fig, ax = plots.figure()
    ...     ax.bar(["serialization"], [size_kib * 1024 * 8 / (rate_gbps * 1e9) * 1e9])
    ...     return fig
    >>> ex = widgets.Explorer(draw, {"rate_gbps": widgets.choice("Link rate (Gb/s)", [100, 400, 800]),
    ...                             "size_kib": widgets.choice("Packet (KiB)", [1, 4])})
    >>> ex.n_frames
    6

The explorer decides what to show through ``_repr_mimebundle_``: it offers the
live widget view and, when ``NETLAB_STATIC_WIDGETS=1`` is set (as ``make book``
and the notebook tests do), the static HTML form. The book ranks the HTML form
first (``nb_mime_priority_overrides`` in ``_config.yml``), Jupyter the widget.

ipywidgets is imported only in this module.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
import html
import io
import itertools
import json
import os
from collections.abc import Callable, Sequence
import uuid

from netlab import validate

STATIC_ENV = "NETLAB_STATIC_WIDGETS"
MAX_FRAMES = 64        # keeps page weight and build time bounded
FRAME_DPI = 72         # PNG resolution of precomputed frames (a 6.4 in figure -> 461 px)


@dataclass(frozen=True)
class Control:
    """A discrete control: a label, the values it takes, and how each is shown."""

    label: str
    values: tuple
    labels: tuple[str, ...]
    default_index: int

    @property
    def default(self):
        return self.values[self.default_index]


def choice(label: str, values: Sequence, default=None, fmt: str | Callable | None = None) -> Control:
    """A control taking one of ``values`` (numbers or strings), shown with ``fmt``.

    ``fmt`` is a format string (``"{:g} Gb/s"``) or a function of the value; the
    default shows the value as is. ``default`` must be one of ``values`` (the
    first one if omitted).
    """
    if not isinstance(label, str) or not label:
        raise ValueError(f"label must be a non-empty string, got {label!r}")
    values = tuple(values)
    if not 1 <= len(values) <= MAX_FRAMES:
        raise ValueError(f"values must hold between 1 and {MAX_FRAMES} options, got {len(values)}")
    if len(set(map(repr, values))) != len(values):
        raise ValueError(f"values must be distinct, got {values}")
    if default is None:
        default_index = 0
    else:
        validate.choice("default", default, values)
        default_index = values.index(default)
    if fmt is None:
        labels = tuple(str(v) for v in values)
    elif isinstance(fmt, str):
        labels = tuple(fmt.format(v) for v in values)
    elif callable(fmt):
        labels = tuple(str(fmt(v)) for v in values)
    else:
        raise TypeError(f"fmt must be a format string or a function, got {type(fmt).__name__}")
    return Control(label=label, values=values, labels=labels, default_index=default_index)


def static_enabled() -> bool:
    """True when the kernel-free form should be rendered (``NETLAB_STATIC_WIDGETS=1``)."""
    return os.environ.get(STATIC_ENV, "") == "1"


def figure_to_png_data_uri(fig, dpi: int = FRAME_DPI, colors: int = 128) -> str:
    """A matplotlib figure as a ``data:image/png;base64,...`` URI.

    The PNG is quantised to an adaptive palette of ``colors`` colours, which
    keeps line plots sharp at a third of the size: pages carry many frames.
    """
    from PIL import Image

    raw = io.BytesIO()
    fig.savefig(raw, format="png", dpi=dpi, facecolor="white")
    raw.seek(0)
    with Image.open(raw) as image:
        small = image.convert("RGB").quantize(colors=colors, method=Image.Quantize.MEDIANCUT)
        out = io.BytesIO()
        small.save(out, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


class Explorer:
    """A figure driven by discrete controls, live in Jupyter and precomputed for the site.

    Parameters
    ----------
    draw : callable
        ``draw(**values) -> matplotlib Figure``; called with one value per control.
    controls : dict[str, Control]
        Keyword name of ``draw`` -> :func:`choice`. Their product is the frame grid
        (at most :data:`MAX_FRAMES` frames).
    readout : callable, optional
        ``readout(**values) -> str``: a line of key numbers shown under the figure.
    alt : callable or str, optional
        Alternative text for each frame (accessibility); a function of the values
        or a fixed string. Defaults to the figure's description from the controls.
    title : str, optional
        Heading shown above the controls.
    """

    def __init__(self, draw: Callable, controls: dict[str, Control], readout: Callable | None = None,
                 alt: Callable | str | None = None, title: str = "") -> None:
        if not callable(draw):
            raise TypeError(f"draw must be callable, got {type(draw).__name__}")
        if not isinstance(controls, dict) or not controls:
            raise ValueError("controls must be a non-empty dict of name -> widgets.choice(...)")
        for name, control in controls.items():
            if not isinstance(control, Control):
                raise TypeError(f"controls[{name!r}] must be made with widgets.choice(), got {type(control).__name__}")
        n_frames = 1
        for control in controls.values():
            n_frames *= len(control.values)
        if n_frames > MAX_FRAMES:
            raise ValueError(f"controls give {n_frames} frames; at most {MAX_FRAMES} are allowed")
        if readout is not None and not callable(readout):
            raise TypeError("readout must be callable or None")
        self.draw = draw
        self.controls = dict(controls)
        self.readout = readout
        self.alt = alt
        self.title = title
        self.n_frames = n_frames

    # --- shared ---------------------------------------------------------------------
    def _values(self, indices: Sequence[int]) -> dict:
        return {name: c.values[i] for (name, c), i in zip(self.controls.items(), indices)}

    def _alt_text(self, values: dict) -> str:
        if callable(self.alt):
            return str(self.alt(**values))
        description = ", ".join(f"{c.label} = {c.labels[c.values.index(values[n])]}"
                                for n, c in self.controls.items())
        prefix = self.alt if isinstance(self.alt, str) else (self.title or "Figure")
        return f"{prefix} ({description})"

    def render(self, **values):
        """Draw one frame: ``(figure, readout text)`` for the given control values."""
        for name, control in self.controls.items():
            if name not in values:
                values[name] = control.default
            validate.choice(name, values[name], control.values)
        fig = self.draw(**values)
        text = self.readout(**values) if self.readout else ""
        return fig, text

    def __repr__(self) -> str:
        names = ", ".join(f"{n}: {len(c.values)} values" for n, c in self.controls.items())
        return f"Explorer({self.title or self.draw.__name__}; {names}; {self.n_frames} frames)"

    # --- kernel-free form -------------------------------------------------------------
    def frames(self) -> dict[str, dict]:
        """Every frame, keyed ``"i-j-..."`` by control indices: ``{"src", "alt", "readout"}``."""
        out = {}
        ranges = [range(len(c.values)) for c in self.controls.values()]
        for indices in itertools.product(*ranges):
            values = self._values(indices)
            fig, text = self.render(**values)
            out["-".join(map(str, indices))] = {
                "src": figure_to_png_data_uri(fig),
                "alt": self._alt_text(values),
                "readout": text,
            }
        return out

    def static_html(self) -> str:
        """The kernel-free form: controls, the default frame, and all frames as JSON."""
        frames = self.frames()
        uid = "nlx-" + uuid.uuid4().hex[:8]
        default_key = "-".join(str(c.default_index) for c in self.controls.values())
        first = frames[default_key]
        parts = [f'<div class="netlab-explorer" id="{uid}" data-default="{default_key}">']
        if self.title:
            parts.append(f'<p class="netlab-explorer-title"><strong>{html.escape(self.title)}</strong></p>')
        parts.append('<div class="netlab-explorer-controls">')
        for k, (name, c) in enumerate(self.controls.items()):
            cid = f"{uid}-c{k}"
            labels_json = html.escape(json.dumps(list(c.labels)))
            parts.append(
                f'<label for="{cid}">{html.escape(c.label)}</label> '
                f'<input type="range" id="{cid}" class="netlab-explorer-input" data-index="{k}" '
                f'min="0" max="{len(c.values) - 1}" step="1" value="{c.default_index}" '
                f'data-labels="{labels_json}" aria-valuetext="{html.escape(c.labels[c.default_index])}"> '
                f'<output for="{cid}" class="netlab-explorer-value">{html.escape(c.labels[c.default_index])}</output><br>')
        parts.append("</div>")
        parts.append(f'<img class="netlab-explorer-frame" src="{first["src"]}" alt="{html.escape(first["alt"])}">')
        parts.append(f'<p class="netlab-explorer-readout" aria-live="polite">{html.escape(first["readout"])}</p>')
        parts.append(f'<script type="application/json" class="netlab-explorer-frames">{json.dumps(frames)}</script>')
        parts.append('<p class="netlab-explorer-note">Precomputed frames: move a control to switch. '
                     'Run the notebook for the live version.</p>')
        parts.append("</div>")
        return "\n".join(parts)

    # --- live form ----------------------------------------------------------------------
    def live(self):
        """The ipywidgets form: a slider or dropdown per control, redrawing on change."""
        import ipywidgets as ipw
        from IPython.display import Image, display

        inputs = {}
        for name, c in self.controls.items():
            options = list(zip(c.labels, c.values))
            widget_cls = ipw.SelectionSlider if all(isinstance(v, (int, float)) for v in c.values) else ipw.Dropdown
            inputs[name] = widget_cls(options=options, value=c.default, description=c.label,
                                      style={"description_width": "initial"},
                                      layout=ipw.Layout(width="min(100%, 32rem)"))
        output = ipw.Output()
        readout = ipw.HTML()

        def update(_change=None):
            fig, text = self.render(**{n: w.value for n, w in inputs.items()})
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=100, facecolor="white")
            with output:
                output.clear_output(wait=True)
                display(Image(data=buffer.getvalue(), format="png"))
            readout.value = html.escape(text)

        for widget in inputs.values():
            widget.observe(update, names="value")
        update()
        children = ([ipw.HTML(f"<strong>{html.escape(self.title)}</strong>")] if self.title else [])
        return ipw.VBox(children + list(inputs.values()) + [output, readout])

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": repr(self)}
        if static_enabled():
            bundle["text/html"] = self.static_html()
        try:
            view = self.live()
        except ImportError:  # no ipywidgets: the static form (or text) is all there is
            if "text/html" not in bundle:
                bundle["text/html"] = self.static_html()
            return bundle
        bundle.update({k: v for k, v in view._repr_mimebundle_().items() if k != "text/plain"})
        return bundle
