"""The compiled fast path: the same simulator, built by Cython from the same source.

The ``.py`` modules of :mod:`netlab.sim` are the model, and they run as they are. Beside
the hottest of them lies a ``.pxd`` file (Cython's "augmenting" declarations) that says
only which classes are extension types and which of their attributes are C fields
(times as ``double``; sizes, counters and the UET transport's sequence numbers and
transmission indices as 64-bit integers, a SACK's 64-bit bitmap as an unsigned one; a
packet's sequence number and entropy stay Python integers). A C integer field truncates a
float silently (1500.7 becomes 1500), so only values that are always integers may be
typed so: the sizes are, as :class:`~netlab.sim.network.Network` checks them and a
:class:`~netlab.sim.packet.Packet` refuses any other. ``make install`` runs
``python netlab/sim/compiled.py``, which compiles those modules in place; Python then
imports the compiled module before the ``.py`` beside it. Nothing in the model is
written twice, so both should give the same events in the same order: the tests check the
same packet arrivals in the same order, results and event counts
(``tests/sim/test_compiled.py``) on small scenarios and small versions of the benchmark runs. Two
small pieces are written twice: the event heap, whose ``.py`` is :mod:`heapq` on a list and
whose ``eventheap.pyx`` is the same pushes and pops on a heap of four children a node, with
a comparison of C numbers and no tuple made per event (``tests/sim/test_eventheap.py``); and
ECMP's hash, whose ``.py`` is
:mod:`zlib`'s CRC-32 and whose ``ecmphash.pyx`` computes the same CRC in C
(``tests/sim/test_ecmphash.py``).

Which one runs:

* the compiled modules, when every one of :data:`MODULES` was compiled from the
  source now on disk (the build records a hash of each ``.py``, ``.pxd`` and ``.pyx`` in
  :data:`MANIFEST`, and the import checks it: edit a ``.py`` and the stale build is
  ignored, with a warning, until it is rebuilt);
* the plain Python modules otherwise, or whenever the environment variable
  ``NETLAB_SIM_PURE=1`` is set (what a reader stepping through the code with a debugger
  wants; the results are identical, the time five to seven times as long).

:data:`netlab.sim.COMPILED` says which. Without a C compiler or Cython the build
prints why and the plain modules are used.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import pathlib
import sys
import warnings

HERE = pathlib.Path(__file__).resolve().parent
#: The modules compiled, together or not at all (their .pxd files cimport one another's types).
MODULES = ("eventheap", "ecmphash", "accounting", "flow", "engine", "packet", "queues", "port", "switch", "host",
           "transport", "uet", "trimming", "loadbalance", "uet_cc", "cc")
#: The build record, with the hash of the sources the compiled modules were built from.
MANIFEST = HERE / "_compiled.json"
PURE_ENV = "NETLAB_SIM_PURE"
DIRECTIVES = {"language_level": 3, "annotation_typing": False, "binding": True}


def _source_hash() -> str:
    """A hash of what the build depends on: the Python version, Cython's version, the
    directives, this file and every source of :data:`MODULES`."""
    try:
        from Cython import __version__ as cython_version
    except ImportError:
        cython_version = "none"
    digest = hashlib.sha256(f"{sys.implementation.cache_tag} {cython_version} {sorted(DIRECTIVES.items())}".encode())
    digest.update(pathlib.Path(__file__).read_bytes())
    for name in MODULES:
        for suffix in (".py", ".pxd", ".pyx"):
            path = HERE / f"{name}{suffix}"
            digest.update(path.name.encode())
            digest.update(path.read_bytes() if path.exists() else b"-")
    return digest.hexdigest()


def _compiled_source(name: str) -> pathlib.Path:
    """What the build compiles for module ``name``: its ``.pyx`` if it has one (the event
    heap, which stands in for the ``.py`` of the same name), else the ``.py`` itself."""
    pyx = HERE / f"{name}.pyx"
    return pyx if pyx.exists() else HERE / f"{name}.py"


def _extension(name: str) -> pathlib.Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = HERE / f"{name}{suffix}"
        if path.exists():
            return path
    return None


def status() -> tuple[bool, str]:
    """(use the compiled modules?, why) for the files on disk and the environment."""
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False, f"{PURE_ENV} is set"
    built = [name for name in MODULES if _extension(name) is not None]
    if not built:
        return False, "not compiled (run `python netlab/sim/compiled.py`)"
    if len(built) < len(MODULES):
        return False, f"only {len(built)} of {len(MODULES)} modules are compiled"
    try:
        recorded = json.loads(MANIFEST.read_text())["source_hash"]
    except (OSError, ValueError, KeyError):
        return False, f"no build record {MANIFEST.name}"
    if recorded != _source_hash():
        return False, "the source changed since the build (run `python netlab/sim/compiled.py`)"
    return True, "compiled"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Import the plain ``.py`` of the compiled modules, past the extension beside it."""

    def find_spec(self, fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def choose() -> bool:
    """Called once by ``netlab/sim/__init__.py`` before it imports the modules."""
    use, why = status()
    stale = not use and any(_extension(name) for name in MODULES) and PURE_ENV not in why
    if stale:
        warnings.warn(f"netlab.sim runs its plain Python modules: the compiled ones are unusable ({why})",
                      RuntimeWarning, stacklevel=3)
    if not use and not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFinder())
    return use


def build(quiet: bool = False) -> bool:
    """Compile :data:`MODULES` in place; False (with the reason printed) if it cannot."""
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError as err:
        print(f"netlab.sim: not compiled, the plain Python modules will run ({err})")
        return False
    MANIFEST.unlink(missing_ok=True)
    # a new file, not one a running process has mapped; and no extension left from an older
    # build of a module no longer compiled (Python would import it before the .py)
    for source in sorted(HERE.glob("*.py")):
        old = _extension(source.stem)
        while old is not None:
            old.unlink()
            old = _extension(source.stem)
    root = HERE.parent.parent
    extensions = [Extension(f"netlab.sim.{name}", [str(_compiled_source(name).relative_to(root))])
                  for name in MODULES]
    cwd = os.getcwd()
    try:
        os.chdir(root)
        modules = cythonize(extensions, compiler_directives=DIRECTIVES, quiet=quiet, nthreads=os.cpu_count() or 1,
                            force=True,     # (a changed .pxd alone does not make cythonize regenerate)
                            build_dir=str(pathlib.Path("build") / "cython"))
        command = build_ext(Distribution({"ext_modules": modules}))
        command.inplace = True
        command.force = True
        command.parallel = os.cpu_count() or 1
        command.build_temp = str(pathlib.Path("build") / "temp")
        command.ensure_finalized()
        command.run()
    except Exception as err:                      # no compiler, no Python headers, ...
        print(f"netlab.sim: not compiled, the plain Python modules will run ({type(err).__name__}: {err})")
        return False
    finally:
        os.chdir(cwd)
    MANIFEST.write_text(json.dumps({"source_hash": _source_hash(), "modules": list(MODULES)}, indent=1) + "\n")
    return True


if __name__ == "__main__":
    ok = build(quiet="-q" in sys.argv)
    if ok:
        print(f"netlab.sim: compiled {len(MODULES)} modules in place ({', '.join(MODULES)})")
    sys.exit(0 if ok or "--require" not in sys.argv else 1)
