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


def _old_path_code(old: str, new: str) -> str:
    return (f"import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            f"import {new} as new\n"
            f"try:\n    import {old} as old\nexcept DeprecationWarning as w:\n    print('WARNED', w)\n"
            f"warnings.simplefilter('ignore'); import {old} as old\n"
            f"names = [n for n in dir(new) if not n.startswith('_')]\n"
            f"print('SAME', all(getattr(old, n) is getattr(new, n) for n in names), len(names))\n")


def _benchmark_code(script: str) -> str:
    return (f"import runpy, warnings; warnings.simplefilter('error', DeprecationWarning)\n"
            f"runpy.run_path({str(ROOT / 'benchmarks' / script)!r}, run_name='bench')\n")


# Each case runs in an interpreter of its own, as `python -c CODE` would run it (an import already done
# in this one would not run the old paths' finder again). One process makes them all: it imports what
# every case's first import imports anyway (numpy, matplotlib), under the cases' own warning filter,
# puts the filters back as a fresh interpreter has them, and then forks a child per case, which runs
# the case's code as `python -c` does (in __main__, from its working directory) and exits with its
# status: 42 interpreters start from that one instead of from nothing (about 6 CPU-s less). Should the
# shared imports fail, every case runs in a fresh interpreter of its own instead.
FORKING_RUNNER = r"""
import json, os, sys, tempfile, traceback, warnings

cases = json.loads(sys.stdin.read())
fresh_filters = warnings.filters[:]
warnings.simplefilter("error", DeprecationWarning)
try:
    import numpy, matplotlib, matplotlib.axes, matplotlib.figure, matplotlib.ticker  # noqa: F401
    shared = True
except BaseException:
    shared = False
warnings.filters[:] = fresh_filters
results = []
for code, cwd in cases:
    if not shared:
        results.append(None)
        continue
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sys.stdout.flush(), sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.dup2(out.fileno(), 1), os.dup2(err.fileno(), 2)
            os.chdir(cwd)
            sys.path[0] = ""
            main = type(sys)("__main__")
            sys.modules["__main__"] = main
            exec(compile(code, "<string>", "exec"), main.__dict__)
            status = 0
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush(), sys.stderr.flush()
            os._exit(status)
    status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    out.seek(0), err.seek(0)
    results.append([status, out.read().decode(), err.read().decode()])
print(json.dumps(results))
"""

OLD_PATHS = sorted(_moved.MODULES.items())
BENCHMARKS = sorted(p.name for p in (ROOT / "benchmarks").glob("*.py"))


@pytest.fixture(scope="module")
def runs() -> dict[str, subprocess.CompletedProcess]:
    """{code: its run} for every case of this file, each in an interpreter of its own (FORKING_RUNNER)."""
    cases = [(_old_path_code(old, new), str(pathlib.Path.cwd())) for old, new in OLD_PATHS]
    cases += [(_benchmark_code(script), str(ROOT)) for script in BENCHMARKS]
    done = subprocess.run([sys.executable, "-c", FORKING_RUNNER], input=json.dumps(cases), capture_output=True,
                          text=True, check=True)
    found = {}
    for (code, cwd), result in zip(cases, json.loads(done.stdout.strip().splitlines()[-1]), strict=True):
        if result is None:
            found[code] = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd)
        else:
            found[code] = subprocess.CompletedProcess([sys.executable, "-c", code], *result)
    return found


def _run(runs, code: str) -> str:
    done = runs[code]
    done.check_returncode()             # as subprocess.run(..., check=True) raised
    return done.stdout


@pytest.mark.parametrize("old, new", OLD_PATHS)
def test_every_old_module_path_imports_with_a_warning(old, new, runs):
    # a fresh interpreter: an import already done in this one would not run the finder again
    out = _run(runs, _old_path_code(old, new))
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


@pytest.mark.parametrize("script", BENCHMARKS)
def test_every_benchmark_imports_from_the_new_paths(script, runs):
    # the regroup left bench_sim importing a helper from its old module (an ImportError): import each
    # script as a module (their work runs only under __main__) with moved paths as errors
    _run(runs, _benchmark_code(script))


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
