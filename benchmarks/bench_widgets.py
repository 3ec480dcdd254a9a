"""Widget speed: every lab's Explorer, timed over the same control grid its kernel-free form precomputes.

How the explorers are found: each lab notebook's code cells are executed in this
process (one namespace per lab, working directory ``labs/``, matplotlib's Agg
backend), with ``netlab.widgets.Explorer.__init__`` wrapped to record every
explorer a cell creates. Nothing is displayed, so no frame is precomputed while
the notebook runs; cells tagged ``skip-execution`` or ``raises-exception`` are
skipped, and IPython magics (``%``/``!`` lines) are dropped.

For each explorer, over every combination of its controls (the frame grid):

- *update*: what moving a control costs in a live kernel — the explorer's
  ``render`` (model + drawing) plus rendering the figure to PNG, as the inline
  backend does. Reported as p50 / p95 / max per widget. Goals (issue 10): p95
  under 100 ms for analytic widgets, about 1 s for simulations.
- *precompute*: ``static_html()`` — every frame drawn, quantised and embedded —
  which is the build time the kernel-free form adds to ``make book``, and the
  size it adds to the page.

Figures are reported, never asserted. Usage::

    .venv/bin/python benchmarks/bench_widgets.py [labs/lab02-links.ipynb ...]

A JSON copy of the table goes to ``benchmarks/results/widgets.json``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
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


def time_updates(explorer: widgets.Explorer) -> dict[str, list[float]]:
    """Per frame of the grid: seconds of wall and CPU time for one update (render + PNG, as a
    live kernel does), and CPU seconds of the model + figure building alone (``render``)."""
    out = {"wall": [], "cpu": [], "render_cpu": []}
    ranges = [range(len(c.values)) for c in explorer.controls.values()]
    for indices in itertools.product(*ranges):
        values = {name: c.values[i] for (name, c), i in zip(explorer.controls.items(), indices)}
        wall, cpu = time.perf_counter(), time.process_time()
        fig, _ = explorer.render(**values)
        render_cpu = time.process_time() - cpu
        fig.savefig(io.BytesIO(), format="png")
        out["wall"].append(time.perf_counter() - wall)
        out["cpu"].append(time.process_time() - cpu)
        out["render_cpu"].append(render_cpu)
    return out


def main(paths: list[str]) -> int:
    notebooks = [Path(p).resolve() for p in paths] or sorted((ROOT / "labs").glob("lab*.ipynb"))
    rows = []
    print("update = model + figure + PNG, per frame of the grid; p95 over the grid. Wall time depends on the\n"
          "machine's load; CPU time is this process's alone. model = render() only (no PNG).")
    print(f"{'lab / widget':50s} {'frames':>6s} {'p50 wall':>9s} {'p95 wall':>9s} {'p95 cpu':>8s} "
          f"{'model p95':>9s} {'precomp s':>9s} {'cpu s':>6s} {'html KB':>7s}")
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
            times = time_updates(ex)
            start, cpu = time.perf_counter(), time.process_time()
            html = ex.static_html()
            precompute_s, precompute_cpu_s = time.perf_counter() - start, time.process_time() - cpu
            total_precompute += precompute_s
            total_precompute_cpu += precompute_cpu_s
            row = {"lab": notebook.name, "widget": name, "frames": ex.n_frames,
                   "update_p50_wall_ms": 1e3 * statistics.median(times["wall"]),
                   "update_p95_wall_ms": 1e3 * _percentile(times["wall"], 0.95),
                   "update_p95_cpu_ms": 1e3 * _percentile(times["cpu"], 0.95),
                   "model_p95_cpu_ms": 1e3 * _percentile(times["render_cpu"], 0.95),
                   "precompute_wall_s": precompute_s, "precompute_cpu_s": precompute_cpu_s,
                   "html_kb": len(html) / 1e3, "notebook_run_s": run_s}
            rows.append(row)
            print(f"  {name[:48]:48s} {ex.n_frames:6d} {row['update_p50_wall_ms']:9.0f} "
                  f"{row['update_p95_wall_ms']:9.0f} {row['update_p95_cpu_ms']:8.0f} {row['model_p95_cpu_ms']:9.0f} "
                  f"{precompute_s:9.1f} {precompute_cpu_s:6.1f} {row['html_kb']:7.0f}")
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
