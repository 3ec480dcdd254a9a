"""Old import paths, kept working for one release after the regroup of 0.2.0.

Until 0.2.0 netlab was 35 flat modules; since then each technology is a package
(``netlab.collective_cost`` became :mod:`netlab.collectives.alpha_beta`, and so on).
An old path still imports, and says where the module went with a :class:`MovedWarning`:

* an old module name (``import netlab.collective_cost``, ``from netlab import
  scaleup``) is answered by :class:`_OldPathFinder`, the last finder on
  :data:`sys.meta_path`, which runs only when no real module has that name: it
  gives an :class:`_OldModule` whose every attribute is the new module's (or, for a
  figure that moved on to its package's ``figures.py``, that module's);
* an old name that is now a package (``netlab.fabric``, ``netlab.collectives``,
  ``netlab.optics``, ``netlab.longhaul``) is the package; a name its old module
  held (``netlab.fabric.fat_tree``) is found by the package's ``__getattr__``,
  which calls :func:`old_attribute`;
* a function that moved out of a module that remains (the fabric experiments out of
  :mod:`netlab.sim.loadbalance`) is found the same way.

This module and the ``__getattr__`` hooks go in 0.3.0.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types
import warnings

# old module -> new module
MODULES = {
    "netlab.memory": "netlab.training.memory",
    "netlab.parallelism": "netlab.training.parallelism",
    "netlab.hoststack": "netlab.rdma.hoststack",
    "netlab.plots_hoststack": "netlab.rdma.figures",
    "netlab.ib_vs_ethernet": "netlab.lossless.ib_vs_ethernet",
    "netlab.dcqcn": "netlab.lossless.dcqcn",
    "netlab.sim.scenarios": "netlab.lossless.experiments",
    "netlab.fabric": "netlab.fabric.clos",
    "netlab.ecmp": "netlab.fabric.ecmp",
    "netlab.sim.flowlevel": "netlab.fabric.flowlevel",
    "netlab.plots_fabric": "netlab.fabric.figures",
    "netlab.collectives": "netlab.collectives.schedules",
    "netlab.collective_trees": "netlab.collectives.trees",
    "netlab.collective_cost": "netlab.collectives.alpha_beta",
    "netlab.schedule_cost": "netlab.collectives.on_topology",
    "netlab.nccl_model": "netlab.collectives.nccl_tuner",
    "netlab.nccl_tests": "netlab.collectives.nccl_tests",
    "netlab.plots_collectives": "netlab.collectives.figures",
    "netlab.scaleup": "netlab.nvlink.domains",
    "netlab.inference": "netlab.nvlink.inference",
    "netlab.moe": "netlab.nvlink.moe",
    "netlab.plots_scaleup": "netlab.nvlink.figures",
    "netlab.transport": "netlab.uet.loss_recovery",
    "netlab.connections": "netlab.uet.connections",
    "netlab.sim.uet_scenarios": "netlab.uet.experiments",
    "netlab.plots_transport": "netlab.uet.figures",
    "netlab.optics": "netlab.optics.cpo",
    "netlab.power": "netlab.optics.power",
    "netlab.reliability": "netlab.optics.reliability",
    "netlab.longhaul": "netlab.longhaul.distance",
    "netlab.sim.longhaul": "netlab.longhaul.experiments",
}

# names that left their module for another one: old module -> {name: new module}
NAMES = {
    "netlab.parallelism": dict.fromkeys(["draw_scaling_efficiency"], "netlab.training.figures"),
    "netlab.ib_vs_ethernet": dict.fromkeys(["draw_incast", "draw_victim", "draw_sharing", "draw_perf_per_dollar"],
                                           "netlab.lossless.figures"),
    "netlab.power": dict.fromkeys(["plot_fabric_power", "fabric_power_summary"], "netlab.optics.figures"),
    "netlab.reliability": dict.fromkeys(["plot_fabric_failures", "fabric_failures_summary"], "netlab.optics.figures"),
    "netlab.longhaul": dict.fromkeys(["plot_two_site", "two_site_summary", "EXAMPLE_DISTANCES_M"],
                                     "netlab.longhaul.figures"),
    "netlab.sim.loadbalance": dict.fromkeys(["run_pattern", "interleaved_jobs", "fail_spine_link", "FabricRun",
                                             "PATTERNS", "REORDER_THRESHOLD"], "netlab.fabric.experiments"),
}


class MovedWarning(DeprecationWarning):
    """An old netlab import path was used; the message names the new one."""


def _warn(old: str, new: str) -> None:
    warnings.warn(f"{old} moved to {new} in netlab 0.2.0; the old path goes in 0.3.0", MovedWarning, stacklevel=4)


def old_attribute(module: str, name: str):
    """``name`` as the old module ``module`` had it, with a warning; AttributeError if it had none."""
    if not name.startswith("__"):
        if importlib.util.find_spec(f"{module}.{name}") if hasattr(sys.modules.get(module), "__path__") else False:
            return importlib.import_module(f"{module}.{name}")     # a module of the new package comes first
        target = NAMES.get(module, {}).get(name)
        candidates = [target] if target else ([MODULES[module]] if module in MODULES else [])
        for new in candidates:
            value = getattr(importlib.import_module(new), name, _MISSING)
            if value is not _MISSING:
                _warn(f"{module}.{name}", f"{new}.{name}")
                return value
    raise AttributeError(f"module {module!r} has no attribute {name!r}")


_MISSING = object()


class _OldPathFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds an old module path that no file answers any more, and loads the new module in its place."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname in MODULES:
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return _OldModule(spec.name)

    def exec_module(self, module):
        new = MODULES[module.__name__]
        warnings.warn(f"{module.__name__} moved to {new} in netlab 0.2.0; the old path goes in 0.3.0",
                      MovedWarning, stacklevel=2)
        module.__doc__ = importlib.import_module(new).__doc__


class _OldModule(types.ModuleType):
    """An old module path: each attribute comes from where that name lives now."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        new = NAMES.get(self.__name__, {}).get(name, MODULES[self.__name__])
        return getattr(importlib.import_module(new), name)

    def __dir__(self):
        return sorted(set(dir(importlib.import_module(MODULES[self.__name__]))) | set(NAMES.get(self.__name__, ())))


def install() -> None:
    """Put the finder last on ``sys.meta_path`` (once): real modules are always found first."""
    if not any(isinstance(f, _OldPathFinder) for f in sys.meta_path):
        sys.meta_path.append(_OldPathFinder())
