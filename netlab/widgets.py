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

In Jupyter every setting is drawn once and kept: the default at once, the others in a
background thread (nearest settings first, with a progress line), so moving a control
swaps a ready picture instead of redrawing the figure. On the site the frames are
compact SVGs (sharp at any width, following the light or dark theme) whose common
pieces (axes, ticks, legends) are stored once per explorer. Each setting is drawn twice
there: at the figure's own size, and narrow (:func:`netlab.plots.narrow_figures`, panels
stacked) for a phone, whose column would shrink the wide frame's text below
:data:`SMALLEST_TEXT_PX`; the page script shows the narrow frame where the column is too
narrow for the wide one.

The explorer decides what to show through ``_repr_mimebundle_``: it offers the
live widget view and, when ``NETLAB_STATIC_WIDGETS=1`` is set (as ``make book``
and the notebook tests do), the static HTML form. The book ranks the HTML form
first (``nb_mime_priority_overrides`` in ``_config.yml``), Jupyter the widget. The
same setting lets netlab's figures use their build-time speed devices
(:mod:`netlab._mpl_speedups`), and turns the live form's background drawing off:
a reader's session has neither the devices nor any change to matplotlib, and has the
background drawing (``DEVELOPING.md`` lists both with what they save).

ipywidgets is imported only in this module.
"""

from __future__ import annotations

import atexit
import base64
from dataclasses import dataclass
import html
import io
import itertools
import json
import math
import os
import re
import threading
from collections.abc import Callable, Mapping, Sequence
import uuid

from netlab import validate

STATIC_ENV = "NETLAB_STATIC_WIDGETS"
MAX_FRAMES = 64        #: most frames one explorer carries (keeps page weight and build time bounded)
FRAME_DPI = 72         # resolution of figure_to_png_data_uri's PNGs (site frames are SVG)
LIVE_DPI = 100         # resolution of the live form's PNGs
KINDS = ("slider", "select")
#: The smallest label (CSS px) an explorer's wide frame may show:
#: where a column is too narrow for the wide frame's smallest label to reach it, the page shows the
#: narrow (phone) frame instead.
SMALLEST_TEXT_PX = 9
#: How code names that labs pass as control values are shown when no ``fmt`` is given (anything
#: else shows as is, underscores as spaces): the flow-control modes of chapter 4's simulator,
#: the load-balancing schemes of chapter 5, the optics options of chapter 9.
DISPLAY_NAMES = {
    "lossy": "drop (lossy Ethernet)", "pfc": "pause (PFC)", "credits": "credits (InfiniBand)",
    "ecmp": "ECMP (per flow)", "spray": "packet spraying", "adaptive": "adaptive routing",
    "telemetry": "telemetry-guided",
    "dsp_pluggable": "DSP pluggable", "lpo": "linear pluggable (LPO)", "cpo": "co-packaged (CPO)",
}
# matplotlib's text machinery (font caches) is not thread-safe: every render holds this lock.
_RENDER_LOCK = threading.RLock()
#: How long the interpreter's exit waits for a prefetch thread to finish the frame it is drawing.
PREFETCH_EXIT_WAIT_S = 30.0
_PREFETCH_STOP = threading.Event()
_PREFETCHERS: set[threading.Thread] = set()


@atexit.register
def _stop_prefetching() -> None:
    """At the interpreter's exit, let each live form's prefetch thread finish its frame, then stop.

    The threads are daemons (a reader's script or kernel does not wait for every setting to be
    drawn), but Python stops a daemon thread wherever it stands once finalizing begins: inside
    matplotlib's C++ font code that aborted or crashed the process (``terminate called without an
    active exception``, or a segmentation fault) on its way out."""
    _PREFETCH_STOP.set()
    for thread in list(_PREFETCHERS):
        thread.join(PREFETCH_EXIT_WAIT_S)


@dataclass(frozen=True)
class Control:
    """A discrete control: a label, the values it takes, and how each is shown."""

    label: str
    values: tuple
    labels: tuple[str, ...]
    default_index: int
    kind: str = "slider"

    @property
    def default(self):
        return self.values[self.default_index]


def choice(label: str, values: Sequence, default=None, fmt: str | Callable | Mapping | None = None,
           kind: str | None = None) -> Control:
    """A control taking one of ``values`` (numbers or strings), shown with ``fmt``.

    ``fmt`` is a format string (``"{:g} Gb/s"``), a function of the value, or a mapping
    from value to display name (``{"pfc": "PFC (lossless Ethernet)"}``; values it does
    not name show as they are); the default shows numbers as they are and code names as
    :data:`DISPLAY_NAMES` says (``"pfc"`` -> ``"pause (PFC)"``), underscores as spaces. ``default`` must be
    one of ``values`` (the first one if omitted). ``kind`` is ``"slider"`` (ordered
    values) or ``"select"`` (a list of named choices); by default numbers get a slider
    and anything else a select.
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
        labels = tuple(DISPLAY_NAMES.get(v, v.replace("_", " ")) if isinstance(v, str) else str(v)
                       for v in values)
    elif isinstance(fmt, str):
        labels = tuple(fmt.format(v) for v in values)
    elif isinstance(fmt, Mapping):
        unknown = [k for k in fmt if k not in values]
        if unknown:
            raise ValueError(f"fmt names {unknown}, which are not among values {list(values)}")
        labels = tuple(str(fmt.get(v, v)) for v in values)
    elif callable(fmt):
        labels = tuple(str(fmt(v)) for v in values)
    else:
        raise TypeError(f"fmt must be a format string, a mapping or a function, got {type(fmt).__name__}")
    if kind is None:
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
        kind = "slider" if numeric else "select"
    validate.choice("kind", kind, KINDS)
    return Control(label=label, values=values, labels=labels, default_index=default_index, kind=kind)


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
        self._live_cache: dict[tuple, tuple[bytes, str]] = {}   # indices -> (PNG, readout)

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
        with _RENDER_LOCK:
            fig = self.draw(**values)
            text = self.readout(**values) if self.readout else ""
        return fig, text

    def keys(self) -> list[tuple[int, ...]]:
        """Every setting of the grid, as a tuple of control indices."""
        return list(itertools.product(*[range(len(c.values)) for c in self.controls.values()]))

    def default_key(self) -> tuple[int, ...]:
        return tuple(c.default_index for c in self.controls.values())

    def __repr__(self) -> str:
        names = ", ".join(f"{n}: {len(c.values)} values" for n, c in self.controls.items())
        return f"Explorer({self.title or self.draw.__name__}; {names}; {self.n_frames} frames)"

    # --- kernel-free form -------------------------------------------------------------
    def frames(self) -> dict[str, dict]:
        """Every frame, keyed ``"i-j-..."`` by control indices: ``{"svg", "narrow", "alt", "readout"}``.

        ``narrow`` is the same setting drawn for a phone (:func:`netlab.plots.narrow_figures`),
        or None when that is the same picture (a figure already that narrow).
        """
        from netlab import plots

        out = {}
        for indices in self.keys():
            values = self._values(indices)
            with _RENDER_LOCK:
                fig, text = self.render(**values)
                svg = plots.figure_to_svg(fig)
                with plots.narrow_figures():
                    narrow_fig, _ = self.render(**values)
                plots.fit_narrow(narrow_fig)
                narrow = plots.figure_to_svg(narrow_fig)
            out["-".join(map(str, indices))] = {"svg": svg, "narrow": None if narrow == svg else narrow,
                                                "alt": self._alt_text(values), "readout": text}
        return out

    def static_html(self) -> str:
        """The kernel-free form: controls, the default frame, and all frames as JSON.

        Frames are SVGs cut after every ``</g>``; identical pieces (axes, ticks, legends
        that do not change with the controls) are stored once in a shared list, and a
        frame is a list of ``[first piece, count]`` runs into it (``parts``; ``narrow``
        for its phone form, runs into a list of its own, ``netlab-explorer-narrow-pieces``). ``data-narrow-below`` is the frame width
        (CSS px) under which the wide default frame's smallest label would fall below
        :data:`SMALLEST_TEXT_PX`: the page script shows the narrow frames there.
        """
        from netlab import plots

        frames = self.frames()
        pieces: list[str] = []
        narrow_pieces: list[str] = []
        table = {}

        def runs_of(svg: str, pieces: list[str], index: dict[str, int]) -> list[int]:
            runs: list[int] = []
            for piece in re.split(r"(?<=</g>)", svg):
                if not piece:
                    continue
                k = index.setdefault(piece, len(pieces))
                if k == len(pieces):
                    pieces.append(piece)
                if runs and runs[-2] + runs[-1] == k:
                    runs[-1] += 1
                else:
                    runs += [k, 1]
            return runs

        wide_index: dict[str, int] = {}
        narrow_index: dict[str, int] = {}
        for key, frame in frames.items():
            table[key] = {"parts": runs_of(frame["svg"], pieces, wide_index), "alt": frame["alt"],
                          "readout": frame["readout"]}
            if frame.get("narrow"):
                table[key]["narrow"] = runs_of(frame["narrow"], narrow_pieces, narrow_index)
        uid = "nlx-" + uuid.uuid4().hex[:8]
        default_key = "-".join(map(str, self.default_key()))
        first = frames[default_key]
        narrow_below = ""
        if first.get("narrow") and "<text" in first["svg"]:
            view_width, smallest = svg_text_scale(first["svg"])
            narrow_below = f' data-narrow-below="{math.ceil(SMALLEST_TEXT_PX * view_width / smallest)}"'
        parts = [f'<div class="netlab-explorer" id="{uid}" data-default="{default_key}"{narrow_below}>']
        if self.title:
            parts.append(f'<p class="netlab-explorer-title"><strong>{html.escape(self.title)}</strong></p>')
        parts.append('<div class="netlab-explorer-controls">')
        for k, (_name, c) in enumerate(self.controls.items()):
            cid = f"{uid}-c{k}"
            shown = html.escape(c.labels[c.default_index])
            common = (f'id="{cid}" class="netlab-explorer-input" data-index="{k}" data-count="{len(c.values)}" '
                      f'data-labels="{html.escape(json.dumps(list(c.labels)))}"')
            if c.kind == "select":
                options = "".join(f'<option value="{i}"{" selected" if i == c.default_index else ""}>'
                                  f'{html.escape(text)}</option>' for i, text in enumerate(c.labels))
                parts.append(f'<label for="{cid}">{html.escape(c.label)}</label> <select {common}>{options}</select> '
                             f'<output for="{cid}" class="netlab-explorer-value" hidden>{shown}</output><br>')
            else:
                parts.append(
                    f'<label for="{cid}">{html.escape(c.label)}</label> '
                    f'<input type="range" {common} min="0" max="{len(c.values) - 1}" step="1" '
                    f'value="{c.default_index}" aria-valuetext="{shown}"> '
                    f'<output for="{cid}" class="netlab-explorer-value">{shown}</output><br>')
        parts.append("</div>")
        parts.append(f'<img class="netlab-explorer-frame dark-light" src="{html.escape(plots.svg_data_uri(first["svg"]))}" '
                     f'alt="{html.escape(first["alt"])}">')
        parts.append(f'<p class="netlab-explorer-readout" aria-live="polite">{html.escape(first["readout"])}</p>')
        for cls, data in (("netlab-explorer-pieces", pieces), ("netlab-explorer-narrow-pieces", narrow_pieces),
                          ("netlab-explorer-frames", table)):
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
            parts.append(f'<script type="application/json" class="{cls}">{text}</script>')
        parts.append('<p class="netlab-explorer-note">Precomputed frames: move a control to switch. '
                     'Run the notebook for the live version.</p>')
        parts.append("</div>")
        return "\n".join(parts)

    # --- live form ----------------------------------------------------------------------
    def live_frame(self, key: Sequence[int]) -> tuple[bytes, str]:
        """One setting as the live form shows it, ``(PNG bytes, readout)``, drawn once and kept."""
        key = tuple(key)
        hit = self._live_cache.get(key)
        if hit is None:
            fig, text = self.render(**self._values(key))
            with _RENDER_LOCK:
                hit = (_png_bytes(fig, LIVE_DPI), text)
            self._live_cache[key] = hit
        return hit

    def prefetch_order(self, key: Sequence[int]) -> list[tuple[int, ...]]:
        """Every setting not drawn yet, nearest to ``key`` first (fewest control steps away)."""
        key = tuple(key)
        todo = [k for k in self.keys() if k not in self._live_cache]
        return sorted(todo, key=lambda k: sum(abs(a - b) for a, b in zip(k, key)))

    def live(self, prefetch: bool | None = None):
        """The ipywidgets form: a slider, select or buttons per control, over cached frames.

        The default setting is drawn at once; with ``prefetch`` (default: unless
        ``NETLAB_STATIC_WIDGETS=1``, as in the book build) a background thread draws the
        other settings, nearest first, and a line under the figure counts them. Moving a
        control to a drawn setting swaps the picture at once; to one not drawn yet, it is
        drawn next and the line says so.
        """
        import ipywidgets as ipw

        if prefetch is None:
            prefetch = not static_enabled()
        inputs = {}
        for name, c in self.controls.items():
            options = list(zip(c.labels, c.values))
            common = dict(options=options, value=c.default, description=c.label,
                          style={"description_width": "initial"})
            if c.kind == "slider":
                inputs[name] = ipw.SelectionSlider(layout=ipw.Layout(width="min(100%, 32rem)"), **common)
            elif len(c.values) <= 4:
                inputs[name] = ipw.ToggleButtons(**common)
            else:
                inputs[name] = ipw.Dropdown(layout=ipw.Layout(width="min(100%, 32rem)"), **common)
        image = ipw.Image(format="png", layout=ipw.Layout(width="100%", max_width="60rem", height="auto"))
        readout = ipw.HTML()
        status = ipw.HTML()
        wanted = {"key": self.default_key()}
        thread = threading.Thread(target=lambda: worker(), name=f"netlab-explorer-{id(self):x}", daemon=True)

        def current_key():
            return tuple(c.values.index(inputs[n].value) for n, c in self.controls.items())

        def show(key, frame):
            image.value, readout.value = frame[0], html.escape(frame[1])

        def progress():
            done = sum(1 for k in self.keys() if k in self._live_cache)
            status.value = "" if done == self.n_frames else f"<small>Drawing the other settings: {done} of {self.n_frames} ready.</small>"

        def update(_change=None):
            key = current_key()
            wanted["key"] = key
            hit = self._live_cache.get(key)
            if hit is not None:
                show(key, hit)
                progress()
            elif thread.is_alive():
                status.value = "<small>Drawing this setting (it is next)...</small>"
            else:
                show(key, self.live_frame(key))

        def worker():
            try:
                prefetch_all()
            finally:
                _PREFETCHERS.discard(thread)

        def prefetch_all():
            while not _PREFETCH_STOP.is_set():
                todo = self.prefetch_order(wanted["key"])
                if not todo:
                    progress()
                    return
                key = todo[0]
                try:
                    frame = self.live_frame(key)
                except Exception as exc:  # shown, not swallowed: the reader sees why a setting is missing
                    status.value = html.escape(f"Could not draw this setting: {type(exc).__name__}: {exc}")
                    return
                if key == wanted["key"]:
                    show(key, frame)
                progress()

        for widget in inputs.values():
            widget.observe(update, names="value")
        show(self.default_key(), self.live_frame(self.default_key()))
        if prefetch and self.n_frames > 1 and not _PREFETCH_STOP.is_set():
            progress()
            _PREFETCHERS.add(thread)
            thread.start()
        children = ([ipw.HTML(f"<strong>{html.escape(self.title)}</strong>")] if self.title else [])
        box = ipw.VBox(children + list(inputs.values()) + [image, readout, status])
        box.netlab_update = update      # for tests and benchmarks: the handler a control change runs
        box.netlab_inputs = inputs
        return box

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


def svg_text_scale(svg: str) -> tuple[float, float]:
    """``(viewBox width, smallest label size)`` of a netlab SVG, both in its user units (points):
    shown ``w`` CSS px wide, its smallest label is ``w * smallest / width`` px.

    A label's size is that of its largest part: the superscript of a tick label such as 10^3
    (a smaller ``<tspan>``, 70 % of the label) does not count on its own."""
    view = re.search(r'viewBox="[-\d.]+ [-\d.]+ ([\d.]+) [\d.]+"', svg)
    sizes = [max(map(float, found)) for text in re.findall(r"<text\b.*?</text>", svg, flags=re.S)
             if (found := re.findall(r"font-size: ?([\d.]+)px", text))]
    if view is None or not sizes:
        raise ValueError("not a netlab SVG with text: no viewBox, or no <text> with a font-size")
    return float(view.group(1)), min(sizes)


def _png_bytes(fig, dpi: int) -> bytes:
    """A figure as PNG, with fast compression (the live form encodes many, and sends them locally)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(dpi)
    canvas.draw()
    width, height = canvas.get_width_height(physical=True)
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()
