"""The old flat import paths of netlab 0.1 still work in 0.2, each with a MovedWarning that names
the new path, and give the same objects as the new paths (netlab/_moved.py). The labs, the reading
pages and the library itself name only the new paths."""

import importlib
import json
import pathlib
import re
import subprocess
import sys

import pytest

from netlab import _moved

ROOT = pathlib.Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("old, new", sorted(_moved.MODULES.items()))
def test_every_old_module_path_imports_with_a_warning(old, new):
    # a fresh interpreter: an import already done in this one would not run the finder again
    code = (f"import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            f"import {new} as new\n"
            f"try:\n    import {old} as old\nexcept DeprecationWarning as w:\n    print('WARNED', w)\n"
            f"warnings.simplefilter('ignore'); import {old} as old\n"
            f"names = [n for n in dir(new) if not n.startswith('_')]\n"
            f"print('SAME', all(getattr(old, n) is getattr(new, n) for n in names), len(names))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    if old in ("netlab.fabric", "netlab.collectives", "netlab.optics", "netlab.longhaul"):
        assert "WARNED" not in out      # the name is now the package itself; its old names warn (below)
    else:
        assert f"WARNED {old} moved to {new}" in out
        assert re.search(r"SAME True [1-9]", out), out


@pytest.mark.parametrize("old, name", [("netlab.fabric", "fat_tree"), ("netlab.collectives", "ring_all_reduce"),
                                       ("netlab.optics", "port_power"), ("netlab.longhaul", "long_link"),
                                       ("netlab.sim.loadbalance", "run_pattern"), ("netlab.power", "plot_fabric_power"),
                                       ("netlab.ib_vs_ethernet", "draw_incast")])
def test_a_name_of_an_old_module_is_found_where_it_went(old, name):
    new = _moved.NAMES.get(old, {}).get(name, _moved.MODULES.get(old))
    with pytest.warns(_moved.MovedWarning, match=re.escape(new)) if old not in ("netlab.power", "netlab.ib_vs_ethernet") \
            else pytest.warns(_moved.MovedWarning):
        value = getattr(importlib.import_module(old), name)
    assert value is getattr(importlib.import_module(new), name)


def test_a_module_of_a_new_package_is_never_shadowed_by_an_old_name():
    # the old module netlab.fabric had a function clos(); netlab.fabric.clos is the module now
    from netlab.fabric import clos
    assert clos.__name__ == "netlab.fabric.clos"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        importlib.import_module("netlab.fabric").nothing     # noqa: B018 - the access is what raises


def _old_names_in(text: str) -> set[str]:
    olds = [o for o in _moved.MODULES if o not in ("netlab.fabric", "netlab.collectives", "netlab.optics",
                                                  "netlab.longhaul")]
    found = {o for o in olds if re.search(rf"(?<![\w.]){re.escape(o)}(?![\w])", text)}
    flat = [o.rpartition(".")[2] for o in olds if o.count(".") == 1]
    found |= {f"from netlab import {m}" for m in flat if re.search(rf"from netlab import [^\n]*\b{m}\b", text)}
    return found


def test_the_checker_finds_an_old_path():
    assert _old_names_in("see netlab.collective_cost.busbw") == {"netlab.collective_cost"}
    assert _old_names_in("from netlab import links, scaleup") == {"from netlab import scaleup"}
    assert _old_names_in("netlab.collectives.alpha_beta and netlab.links") == set()


def test_labs_pages_library_and_tests_name_only_the_new_paths():
    files = [*ROOT.glob("labs/*.ipynb"), *ROOT.glob("book/*.md"), *ROOT.glob("book/*.ipynb"),
             *ROOT.glob("netlab/**/*.py"), *ROOT.glob("tests/**/*.py"), *ROOT.glob("benchmarks/*.py"),
             ROOT / "README.md"]
    stale = {}
    for path in files:
        if path.name in ("_moved.py", "test_moved.py"):
            continue
        text = path.read_text()
        if path.suffix == ".ipynb":
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
        if found := _old_names_in(text):
            stale[str(path.relative_to(ROOT))] = sorted(found)
    assert not stale, stale


@pytest.mark.parametrize("script", sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")))
def test_every_benchmark_imports_from_the_new_paths(script):
    # the regroup left bench_sim importing a helper from its old module (an ImportError): import each
    # script as a module (their work runs only under __main__) with moved paths as errors
    code = (f"import runpy, warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            f"runpy.run_path({str(ROOT / 'benchmarks' / script)!r}, run_name='bench')\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, cwd=ROOT)


def test_labs_use_no_name_that_moved_out_of_a_module_that_stays():
    """A module that stays (netlab.sim.loadbalance) still answers for names that moved out of it,
    with a warning; a lab that calls one shows the warning on its page (lab 5 once did, 6 times)."""
    import json
    import re
    from netlab import _moved
    root = pathlib.Path(__file__).resolve().parents[1]
    found = []
    for module, names in _moved.NAMES.items():
        short = module.rsplit(".", 1)[-1]
        for lab in sorted((root / "labs").glob("*.ipynb")):
            code = "\n".join("".join(c["source"]) for c in json.loads(lab.read_text())["cells"]
                             if c["cell_type"] == "code")
            for name in names:
                if re.search(rf"\b{short}\.{name}\b", code):
                    found.append(f"{lab.name}: {short}.{name}")
    assert not found, found
