"""netlab's numpy-free core stays numpy-free (issue 36).

The book's in-page calculators and console run netlab in the reader's browser (Pyodide), where
numpy, matplotlib and ipywidgets do not exist. So every module except the few listed below must
import with those packages absent, and its numpy (or plotting) needs must be imported inside the
functions that use them. A fresh interpreter gets a ``sys.meta_path`` finder that refuses those
packages (as the browser would: ``ModuleNotFoundError``), imports every netlab module, and calls
a few functions the book's calculators use; their numbers are checked against hand-worked values.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess
import sys

import netlab

ROOT = pathlib.Path(netlab.__file__).parent
BLOCKED = ("numpy", "matplotlib", "ipywidgets", "IPython", "PIL", "scipy", "pandas", "Cython")

# The modules that need a blocked package to import at all, and why. Everything else must not.
NEEDS = {
    "netlab.plots": "matplotlib: the book's figure style",
    "netlab.diagrams": "matplotlib: the reading pages' pictures",
    "netlab.lossless.dcqcn": "numpy: the fluid model is vectorised over flows",
    "netlab.fabric.flowlevel": "numpy: max-min rates over 100,000 hosts",
    "netlab.rdma": "numpy: the package imports the verbs, whose memory regions are numpy buffers",
    "netlab.rdma.qp": "numpy: memory regions are numpy buffers",
    "netlab.rdma.verbs": "numpy: memory regions are numpy buffers",
    "netlab.rdma.hoststack": "imports the netlab.rdma package (above), though it uses no numpy itself",
    "netlab.rdma.scaling": "imports the netlab.rdma package (above), though it uses no numpy itself",
}
# a lab's figures module exists to draw: matplotlib (and often numpy) is its point
FIGURES = "figures"

PROBE = r"""
import importlib, json, sys

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked by tests/test_numpy_free.py)", name=name)
        return None

sys.meta_path.insert(0, Refuse())
result = {"imports": {}}
for name in MODULES:
    try:
        importlib.import_module(name)
        result["imports"][name] = "ok"
    except Exception as exc:
        result["imports"][name] = f"{type(exc).__name__}: {exc}"
try:
    importlib.import_module("numpy")
    result["blocker"] = "numpy imported"
except ModuleNotFoundError:
    result["blocker"] = "refused"

from netlab import cluster, links
from netlab.collectives import alpha_beta, nccl_tests, schedules
from netlab.fabric import clos, ecmp
run = alpha_beta.ring_all_reduce_time(1e9, 8, 5e-6, 400e9)
result["ring_time_s"] = run.time_s
result["bdp_bytes"] = links.bandwidth_delay_product(400e9, 10e-6)
result["fat_tree_hosts"] = clos.fat_tree(64, 400e9).n_hosts
result["ring_steps"] = len(schedules.ring_all_reduce(4).steps)
result["paths_used"] = ecmp.expected_paths_used(4, 4)
result["max_of_2_normals"] = ecmp.expected_max_of_normals(2)
table = "\n".join(f"{s:10d} {s // 4:10d} float sum -1 {t:9.2f} {s / t / 1e3:7.2f} {s / t / 1e3 * 1.75:7.2f} 0"
                  f" {t:9.2f} {s / t / 1e3:7.2f} {s / t / 1e3 * 1.75:7.2f} 0"
                  for s, t in ((1 << 20, 100.0), (1 << 24, 1000.0)))
result["busbw_factor"] = nccl_tests.parse(table).busbw_factor
result["designs"] = len(cluster.design_space())
sys.path.insert(0, CALCULATORS_DIR)
import netlab_calculators
result["calculators"] = {name: calc(calc.defaults()) for name, calc in netlab_calculators.CALCULATORS.items()}
print(json.dumps(result))
"""


def module_names() -> list[str]:
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = ("netlab",) + path.relative_to(ROOT).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def needs_blocked(name: str) -> bool:
    return name in NEEDS or name.rpartition(".")[2] == FIGURES


def probe() -> dict:
    modules = module_names()
    code = (f"BLOCKED = {BLOCKED!r}\nMODULES = {modules!r}\n"
            f"CALCULATORS_DIR = {str(ROOT.parent / 'book' / '_ext')!r}\n" + PROBE)
    env = {**os.environ, "PYTHONPATH": str(ROOT.parent), "NETLAB_SIM_PURE": "1", "PYTHONWARNINGS": "ignore"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


_RESULT: dict = {}


def result() -> dict:
    if not _RESULT:
        _RESULT.update(probe())
    return _RESULT


def test_the_blocker_refuses_numpy():
    assert result()["blocker"] == "refused"


def test_every_module_but_the_listed_ones_imports_without_numpy_matplotlib_or_ipywidgets():
    failed = {name: why for name, why in result()["imports"].items() if why != "ok" and not needs_blocked(name)}
    assert not failed, ("these modules import numpy, matplotlib or ipywidgets at top level; move the import "
                        f"into the functions that need it: {failed}")


def test_the_list_of_exceptions_is_not_stale():
    # a module listed as needing numpy that imports without it should leave the list
    stale = [name for name in NEEDS if result()["imports"].get(name) == "ok"]
    assert not stale, f"these modules now import without numpy: drop them from NEEDS: {stale}"
    assert all(name in result()["imports"] for name in NEEDS), "a listed module no longer exists"


def test_the_calculators_functions_run_without_numpy():
    r = result()
    # ring all-reduce, 1 GB over 8 GPUs, 5 us per step, 400 Gb/s: 2*7*5 us + 2*7/8 * 8e9 bit / 400e9 bit/s
    assert abs(r["ring_time_s"] - (14 * 5e-6 + 1.75 * 8e9 / 400e9)) < 1e-12
    assert abs(r["bdp_bytes"] - 400e9 * 10e-6 / 8) < 1e-6          # 500 kB
    assert r["fat_tree_hosts"] == 64 ** 3 // 4                      # k^3/4 hosts for radix k
    assert r["ring_steps"] == 2 * (4 - 1)                           # reduce-scatter then all-gather
    assert abs(r["paths_used"] - (1 - (3 / 4) ** 4)) < 1e-12        # 4 flows on 4 paths
    assert abs(r["max_of_2_normals"] - 1 / math.sqrt(math.pi)) < 1e-9   # E[max of 2 standard normals]
    assert abs(r["busbw_factor"] - 1.75) < 1e-3                      # 2(n-1)/n for n = 8
    assert r["designs"] > 0


def test_the_books_calculators_run_without_numpy():
    """book/_ext/netlab_calculators.py runs in the page, where numpy does not exist."""
    readouts = result()["calculators"]
    assert set(readouts) >= {"link-delay", "fat-tree", "nccl-tests", "fabric-power", "capstone"}
    # the chapter 6 default: 8 GPUs, so busbw = algbw x 2(8-1)/8
    assert "(factor 1.75)" in readouts["nccl-tests"]
