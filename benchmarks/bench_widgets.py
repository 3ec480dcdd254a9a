"""Widget speed: every lab's Explorer, timed over the same control grid its kernel-free form precomputes.

How the explorers are found: each lab notebook's code cells are executed in this
process (one namespace per lab, working directory ``labs/``, matplotlib's Agg
backend), with ``netlab.widgets.Explorer.__init__`` wrapped to record every
explorer a cell creates. Nothing is displayed, so no frame is precomputed while
the notebook runs; cells tagged ``skip-execution`` or ``raises-exception`` are
skipped, and IPython magics (``%``/``!`` lines) are dropped.

For each explorer, over every combination of its controls (the frame grid):

- *update*: what moving a control costs in the live form (``Explorer.live()``):
  the view is built, its background thread draws every setting (*ready s*: how
  long until all are drawn), then every control of every setting of the grid is
  moved once, and each move is timed from the new value to the new picture and
  readout in the view's image widget. Goal (issue 16): p95 under 100 ms.
- *cold*: what a setting not drawn yet costs — ``render`` (model + figure) plus
  the live form's PNG — i.e. the wait before the background thread has reached
  it (the view says "drawing this setting" meanwhile).
- *precompute*: ``static_html()`` — every frame drawn as SVG and its pieces
  shared — the build time the kernel-free form adds to ``make book``, and the
  size it adds to the page (raw and gzip-compressed).

Figures are reported, never asserted. Usage::

    .venv/bin/python benchmarks/bench_widgets.py [labs/lab02-links.ipynb ...]

A JSON copy of the table goes to ``benchmarks/results/widgets.json``.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.pop("NETLAB_STATIC_WIDGETS", None)   # never precompute while the notebook runs

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from netlab import widgets  # noqa: E402

SKIP_TAGS = {"skip-execution", "raises-exception"}


def lab_explorers(notebook: Path) -> tuple[list[widgets.Explorer], float]:
    """Run a lab's code cells; return the explorers it created and the run time (s)."""
    nb = json.loads(notebook.read_text())
    created: list[widgets.Explorer] = []
    original_init = widgets.Explorer.__init__

    def recording_init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        created.append(self)

    namespace = {"__name__": "__main__"}
    cwd = os.getcwd()
    widgets.Explorer.__init__ = recording_init
    start = time.perf_counter()
    try:
        os.chdir(notebook.parent)
        for cell in nb["cells"]:
            if cell["cell_type"] != "code" or SKIP_TAGS & set(cell.get("metadata", {}).get("tags", [])):
                continue
            source = "".join(cell["source"])
            code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!")))
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(code, f"{notebook.name}", "exec"), namespace)
    finally:
        os.chdir(cwd)
        widgets.Explorer.__init__ = original_init
    return created, time.perf_counter() - start


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def time_cold(explorer: widgets.Explorer) -> dict[str, list[float]]:
    """Per frame of the grid: wall and CPU seconds to draw a setting not drawn yet
    (render + the live form's PNG)."""
    out = {"wall": [], "cpu": []}
    for key in explorer.keys():
        values = {name: c.values[i] for (name, c), i in zip(explorer.controls.items(), key)}
        wall, cpu = time.perf_counter(), time.process_time()
        fig, _ = explorer.render(**values)
        widgets._png_bytes(fig, widgets.LIVE_DPI)
        out["wall"].append(time.perf_counter() - wall)
        out["cpu"].append(time.process_time() - cpu)
    return out


def time_live(explorer: widgets.Explorer) -> tuple[list[float], float, bool]:
    """Build the live view, wait for its background drawing, then time every control move
    over the grid (value set -> image widget updated). Returns (seconds per move, seconds
    until every setting was drawn, whether every move showed its setting's picture)."""
    explorer._live_cache.clear()
    start = time.perf_counter()
    view = explorer.live(prefetch=True)
    while len(explorer._live_cache) < explorer.n_frames and time.perf_counter() - start < 600:
        time.sleep(0.01)
    ready_s = time.perf_counter() - start
    image = next(w for w in view.children if type(w).__name__ == "Image")
    moves, correct = [], True
    names = list(explorer.controls)
    for key in explorer.keys():
        for name, i in zip(names, key):
            control = explorer.controls[name]
            widget = view.netlab_inputs[name]
            if widget.value == control.values[i]:
                continue
            t = time.perf_counter()
            widget.value = control.values[i]
            moves.append(time.perf_counter() - t)
        current = tuple(explorer.controls[n].values.index(view.netlab_inputs[n].value) for n in names)
        correct &= image.value == explorer._live_cache[current][0]
    return moves, ready_s, correct


def main(paths: list[str]) -> int:
    notebooks = [Path(p).resolve() for p in paths] or sorted((ROOT / "labs").glob("lab*.ipynb"))
    rows = []
    print("update = one control move in the live form, after its background drawing (ready s); cold = drawing a\n"
          "setting not drawn yet (model + figure + PNG), CPU time of this process. html = the kernel-free form.")
    print(f"{'lab / widget':50s} {'frames':>6s} {'upd p50':>7s} {'upd p95':>7s} {'ready s':>7s} {'cold p95':>8s} "
          f"{'cold cpu':>8s} {'precomp s':>9s} {'html KB':>7s} {'gzip KB':>7s}")
    total_precompute = total_precompute_cpu = 0.0
    for notebook in notebooks:
        try:
            explorers, run_s = lab_explorers(notebook)
        except Exception as exc:  # a lab that does not run is reported, and the others still measured
            print(f"{notebook.name}: could not run it: {type(exc).__name__}: {exc}")
            rows.append({"lab": notebook.name, "error": f"{type(exc).__name__}: {exc}"})
            continue
        print(f"{notebook.name} (notebook code ran in {run_s:.1f} s, {len(explorers)} explorer(s))")
        for k, ex in enumerate(explorers):
            name = ex.title or getattr(ex.draw, "__name__", f"explorer {k + 1}")
            cold = time_cold(ex)
            moves, ready_s, correct = time_live(ex)
            start, cpu = time.perf_counter(), time.process_time()
            html = ex.static_html()
            precompute_s, precompute_cpu_s = time.perf_counter() - start, time.process_time() - cpu
            total_precompute += precompute_s
            total_precompute_cpu += precompute_cpu_s
            row = {"lab": notebook.name, "widget": name, "frames": ex.n_frames, "moves": len(moves),
                   "update_p50_ms": 1e3 * statistics.median(moves) if moves else 0.0,
                   "update_p95_ms": 1e3 * _percentile(moves, 0.95) if moves else 0.0,
                   "update_max_ms": 1e3 * max(moves) if moves else 0.0,
                   "updates_show_the_right_frame": correct, "ready_s": ready_s,
                   "cold_p95_wall_ms": 1e3 * _percentile(cold["wall"], 0.95),
                   "cold_p95_cpu_ms": 1e3 * _percentile(cold["cpu"], 0.95),
                   "precompute_wall_s": precompute_s, "precompute_cpu_s": precompute_cpu_s,
                   "html_kb": len(html.encode()) / 1e3, "html_gzip_kb": len(gzip.compress(html.encode(), 6)) / 1e3,
                   "notebook_run_s": run_s}
            rows.append(row)
            flag = "" if correct else "  WRONG FRAME SHOWN"
            print(f"  {name[:48]:48s} {ex.n_frames:6d} {row['update_p50_ms']:7.1f} {row['update_p95_ms']:7.1f} "
                  f"{ready_s:7.1f} {row['cold_p95_wall_ms']:8.0f} {row['cold_p95_cpu_ms']:8.0f} "
                  f"{precompute_s:9.1f} {row['html_kb']:7.0f} {row['html_gzip_kb']:7.0f}{flag}")
    print(f"precomputing every kernel-free widget adds {total_precompute:.1f} s wall "
          f"({total_precompute_cpu:.1f} s CPU) to the book build on this machine ({os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f})")
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "widgets.json").write_text(json.dumps({"widgets": rows, "precompute_total_wall_s": total_precompute,
                                                    "precompute_total_cpu_s": total_precompute_cpu,
                                                    "load_average": os.getloadavg()[0]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
