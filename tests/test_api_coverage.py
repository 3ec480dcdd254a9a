"""Every public model function of netlab is in some test module's ``API`` table,
so that the bad-input sweep (tests/sweep.py) reaches it."""

import importlib
import inspect
import pathlib
import pkgutil

import netlab

# Modules that hold no numeric models: presentation, input checks, unit formatters.
EXEMPT_MODULES = {"netlab.plots", "netlab.widgets", "netlab.validate", "netlab.units", "netlab.specs",
                  "netlab.exercises"}  # exercises: answers may be negative; tested in test_exercises.py
TESTS = pathlib.Path(__file__).parent


def _public_functions():
    for info in pkgutil.walk_packages(netlab.__path__, "netlab."):
        if info.name in EXEMPT_MODULES or info.name.startswith("netlab.specs."):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if name.startswith("_") or not inspect.isfunction(obj) or obj.__module__ != info.name:
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
