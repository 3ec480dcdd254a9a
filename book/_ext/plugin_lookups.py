"""Look each bibliography plugin up once per build, not once per citation.

sphinxcontrib-bibtex asks pybtex for its formatting, label and backend plugins every time it
resolves a citation, and pybtex finds a plugin by asking ``importlib.metadata`` for the
entry points of a group and name: a scan of the metadata of every installed distribution
(about 170 in the book's environment). The book's ~1,000 citations and bibliography entries made
that about 1,000 scans, a third of the build's CPU time (profiled: 22 of 61 s under cProfile).

The answer of such a scan cannot change while the book builds (nothing is installed meanwhile),
so this extension keeps it: the ``entry_points`` function that pybtex and sphinxcontrib-bibtex
call is replaced, in those two modules only, by one that remembers the entry points it returned
for each ``(group, name)``. Plugins registered at run time are still found first, as before:
both libraries look in their own registries before they call ``entry_points``. A build of the
whole site with and without it gave the same bytes in every file (compared once, when it was written);
``tests/test_plugin_lookups.py`` checks the lookups against uncached ones, and the run-time order.
"""

from __future__ import annotations

import functools


def remembering(entry_points):
    """``entry_points(group=..., name=...)`` that scans once per ``(group, name)`` and returns a tuple."""

    @functools.lru_cache(maxsize=None)
    def lookup(group, name):
        return tuple(entry_points(group=group, name=name) if name is not None else entry_points(group=group))

    @functools.wraps(entry_points)
    def remembered(**selection):
        if set(selection) - {"group", "name"} or "group" not in selection:
            return entry_points(**selection)        # a query these libraries do not make: not cached
        return lookup(selection["group"], selection.get("name"))

    remembered.netlab_remembered = True
    return remembered


def install() -> list[str]:
    """Give pybtex's and sphinxcontrib-bibtex's plugin modules the remembering lookup; returns
    the modules changed (none if a library is absent or already changed)."""
    import importlib

    changed = []
    for module_name in ("pybtex.plugin", "sphinxcontrib.bibtex.plugin"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        current = getattr(module, "entry_points", None)
        if current is None or getattr(current, "netlab_remembered", False):
            continue
        module.entry_points = remembering(current)
        changed.append(module_name)
    return changed


def setup(app):
    install()
    return {"parallel_read_safe": True, "parallel_write_safe": True}
