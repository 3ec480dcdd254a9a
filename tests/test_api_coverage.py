"""Every public model function of netlab is in some test module's ``API`` table,
so that the bad-input sweep (tests/sweep.py) reaches it."""

import importlib
import inspect
import pathlib
import pkgutil

import netlab

# Modules that hold no numeric models: presentation, input checks, unit formatters.
EXEMPT_MODULES = {"netlab.plots", "netlab.widgets", "netlab.validate", "netlab.units", "netlab.specs",
                  "netlab.exercises",  # exercises: answers may be negative; tested in test_exercises.py
                  "netlab.sim.ecmphash"}  # the switch's per-packet hash; tested against zlib (tests/sim)
TESTS = pathlib.Path(__file__).parent


def _is_function(obj) -> bool:
    """A plain function, or one of a module compiled by Cython (netlab/sim/compiled.py)."""
    return inspect.isfunction(obj) or type(obj).__name__ == "cython_function_or_method"


def _public_functions():
    for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
        if info.name in EXEMPT_MODULES or info.name.startswith("netlab.specs."):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("_") or not _is_function(obj) or obj.__module__ != info.name:
                continue
            params = inspect.signature(obj).parameters.values()
            if any(p.annotation in ("float", "int", float, int, "float | None", "int | None") for p in params):
                yield obj


def _covered():
    covered = set()
    for path in TESTS.rglob("test_*.py"):
        relative = path.relative_to(TESTS.parent).with_suffix("")
        module = importlib.import_module(".".join(relative.parts))
        covered.update(getattr(module, "API", {}))
    return covered


def test_every_public_model_function_is_swept():
    covered = _covered()
    missing = sorted(f"{f.__module__}.{f.__name__}" for f in _public_functions() if f not in covered)
    assert not missing, f"add these to an API table in tests/: {missing}"


# Every public function of every module (not only those with numeric parameters) is in an API
# table, so that tests/test_api_properties.py reaches it -- except these, each for a reason.
NOT_IN_A_TABLE = {
    "netlab._moved": "the old import paths of 0.1, no model (tests/test_moved.py imports every one)",
    "netlab.sim.compiled": "builds and picks the compiled simulator, no model (tests/sim/test_compiled.py)",
    "netlab.sim.eventheap": "heapq's push and pop, compiled (tests/sim/test_eventheap.py against heapq)",
    "netlab.sim.ecmphash": "ECMP's CRC-32 of four 32-bit words, inside switch.ECMP's hot path "
                           "(tests/sim/test_ecmphash.py against zlib, in both builds)",
    "netlab.validate": "the checks themselves (tests/test_validate.py)",
    "netlab.units": "formatters print any real, negative or not finite included (tests/test_units.py)",
    "netlab.exercises": "answers may be negative; checked against a shared case table in tests/test_exercises.py",
    "netlab.plots": "matplotlib helpers taking axes objects",
    "netlab.widgets": "ipywidgets controls and figure encoders",
    "netlab.specs.register": "mutates the registry (tests/test_specs.py)",
    "netlab.rdma.endpoint": "opens a device: a second call with the same host is refused by design",
    "netlab.sim.deadlock": "steps of a run, taking live switch objects (tests/sim)",
    "netlab.sim.results.collect": "a step of Network.run, taking the network being run",
    "netlab.sim.routing.compute_routes": "a step of Network.run, taking the network being run",
    "netlab.fabric.flowlevel.complete": "the inner solver of the flow-level runs, on prepared arrays",
    "netlab.lossless.figures.draw_incast": "draws a simulated result object (lab 4)",
    "netlab.lossless.figures.draw_victim": "draws a simulated result object (lab 4)",
    "netlab.lossless.figures.draw_sharing": "draws a simulated result object (lab 4)",
    "netlab.cluster.check": "takes an Evaluation built by cluster.evaluate (tests/test_cluster.py)",
    "netlab.cluster.best": "takes Verdicts built by cluster.check (tests/test_cluster.py)",
    "netlab.cluster.binding_counts": "takes Verdicts built by cluster.check (tests/test_cluster.py)",
    "netlab.cluster.plot_brief": "draws a Verdict (lab 10)",
    "netlab.cluster.plot_brief_alt": "describes a Verdict's figure (lab 10)",
    "netlab.cluster.results_table": "formats Verdicts (tests/test_cluster.py)",
    "netlab.cluster.step_parts": "formats an Evaluation (tests/test_cluster.py)",
    "netlab.cluster.brief_explorer": "an ipywidgets explorer of a Workload and Brief (lab 10)",
    "netlab.fabric.figures.completions_readout": "formats simulated runs (lab 5)",
    "netlab.fabric.figures.draw_completions": "draws simulated runs (lab 5)",
    "netlab.specs.registry_page": "renders the registry appendix from its section table (tests/test_specs.py)",
}


def _every_public_function():
    for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if not name.startswith("_") and _is_function(obj) and obj.__module__ == info.name:
                yield obj


PRESENTATION_PREFIXES = ("draw_", "plot_", "render", "write_")   # figures and files, not numbers


def _exempt(func) -> bool:
    full = f"{func.__module__}.{func.__name__}"
    if func.__module__ == "netlab.diagrams" or func.__name__.startswith(PRESENTATION_PREFIXES):
        return True      # book and lab figures (their own tests draw them)
    return any(full == k or func.__module__ == k for k in NOT_IN_A_TABLE)


def test_every_public_function_of_every_module_is_in_a_table():
    covered = _covered()
    missing = sorted(f"{f.__module__}.{f.__name__}" for f in _every_public_function()
                     if f not in covered and not _exempt(f))
    assert not missing, f"add these to an API table in tests/ (or to NOT_IN_A_TABLE with a reason): {missing}"


def test_exemptions_name_real_functions_or_modules():
    names = {f"{f.__module__}.{f.__name__}" for f in _every_public_function()} | {
        f.__module__ for f in _every_public_function()}
    # the event heap has functions of its own only in the compiled build (its .py re-exports heapq's)
    names |= {"netlab.sim.eventheap"}
    assert set(NOT_IN_A_TABLE) <= names, sorted(set(NOT_IN_A_TABLE) - names)
