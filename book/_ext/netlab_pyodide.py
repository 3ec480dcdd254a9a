"""The Pyodide runtime the book's calculators run in: fetched once, checked, cached, staged into the site.

Pyodide (CPython compiled to WebAssembly) comes from the npm registry as the package ``pyodide`` at
the version pinned here. Its tarball is checked three ways: the registry's published integrity
(``dist.integrity``, a SHA-512) must equal the one pinned below, and the downloaded bytes must hash
to it; a cached copy is checked against the pin on every build. So a build never serves bytes that
the registry did not publish for this version, and an offline rebuild reuses the cached copy.

Usage (``make runtime`` runs the first; the Sphinx extension ``netlab_calc`` calls :func:`stage`)::

    python book/_ext/netlab_pyodide.py fetch      # download into the cache if missing; verify
    python book/_ext/netlab_pyodide.py check      # verify the cached copy only (no network)

The cache is ``$NETLAB_PYODIDE_CACHE``, else ``.cache/pyodide`` beside the ``netlab`` package
(the repository root); ``make clean`` leaves it. The registry is ``$NETLAB_NPM_REGISTRY``, else
npm's own setting (``$npm_config_registry``), else npm's default.

Only the runtime's core is staged (the interpreter, its standard library, the loader, the lock
file that the loader reads): no package from Pyodide's repository is needed, since netlab's
numpy-free core is pure Python. Beside it go netlab's own wheel (made here from the source tree:
``.py`` files only, so the simulator's compiled twin is never required), the calculators' module,
and the licence notices of Pyodide (MPL-2.0) and CPython (PSF).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import urllib.request
import zipfile
from pathlib import Path

VERSION = "314.0.8"
# the registry's dist.integrity for pyodide@314.0.8 (checked against the registry when fetched)
INTEGRITY = "sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46AdnGo0oq7YHSVUpHsoarLQ=="
# the files of the tarball the page needs (package/ prefix dropped); the rest (.d.ts, maps,
# the demo consoles, the classic-script loader) stay out of the site
CORE = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
        "package.json")
HERE = Path(__file__).resolve().parent
LICENCES = HERE / "pyodide-licences"
DEFAULT_REGISTRY = "https://registry.npmjs.org"


def cache_dir() -> Path:
    if os.environ.get("NETLAB_PYODIDE_CACHE"):
        return Path(os.environ["NETLAB_PYODIDE_CACHE"])
    import netlab
    return Path(netlab.__file__).resolve().parents[1] / ".cache" / "pyodide"


def tarball_path() -> Path:
    return cache_dir() / f"pyodide-{VERSION}.tgz"


def integrity_of(data: bytes) -> str:
    """npm's Subresource-Integrity form of a SHA-512: ``sha512-<base64>``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _registry() -> str:
    return (os.environ.get("NETLAB_NPM_REGISTRY") or os.environ.get("npm_config_registry")
            or DEFAULT_REGISTRY).rstrip("/")


def _get(url: str, timeout: float = 60) -> bytes:
    request = urllib.request.Request(url, headers={"Accept": "application/json, application/octet-stream",
                                                   "User-Agent": "netlab-book-build"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.read()


def cached() -> bytes | None:
    """The cached tarball's bytes if present and matching the pinned integrity, else None."""
    path = tarball_path()
    if not path.is_file():
        return None
    data = path.read_bytes()
    if integrity_of(data) != INTEGRITY:
        raise RuntimeError(f"{path} does not match the pinned integrity of pyodide@{VERSION}: delete it and "
                           "run `make runtime` again")
    return data


def fetch(log=print) -> bytes:
    """The verified tarball: from the cache, else downloaded (and its registry hash checked)."""
    data = cached()
    if data is not None:
        log(f"pyodide {VERSION}: cached copy {tarball_path()} matches the pinned integrity")
        return data
    registry = _registry()
    try:
        meta = json.loads(_get(f"{registry}/pyodide/{VERSION}"))
    except OSError as exc:
        raise RuntimeError(f"pyodide {VERSION} is not cached ({tarball_path()}) and the npm registry cannot be "
                           f"reached ({exc}); run `make runtime` once with the network on") from exc
    published = meta.get("dist", {}).get("integrity")
    if published != INTEGRITY:
        raise RuntimeError(f"the registry publishes integrity {published} for pyodide@{VERSION}, not the pinned "
                           f"{INTEGRITY}: refusing it")
    data = _get(meta["dist"]["tarball"], timeout=300)
    if integrity_of(data) != INTEGRITY:
        raise RuntimeError(f"the downloaded pyodide-{VERSION}.tgz does not hash to the published integrity")
    path = tarball_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".part")
    tmp.write_bytes(data)
    tmp.replace(path)
    log(f"pyodide {VERSION}: downloaded {len(data):,} bytes; the registry's integrity matches the pin and the bytes")
    return data


def wheel(source: Path, version: str) -> tuple[str, bytes]:
    """netlab as a pure-Python wheel (its ``.py`` files only): ``(file name, bytes)``, deterministic."""
    files = sorted(p for p in source.rglob("*.py") if "__pycache__" not in p.parts)
    dist = f"netlab-{version}.dist-info"
    metadata = (f"Metadata-Version: 2.1\nName: netlab\nVersion: {version}\n"
                "Summary: netlab's Python source, for the book's in-page calculators (Pyodide)\n"
                "License: MIT\nRequires-Python: >=3.11\n").encode()
    wheel_info = b"Wheel-Version: 1.0\nGenerator: netlab book build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries = [(f"netlab/{p.relative_to(source).as_posix()}", p.read_bytes()) for p in files]
    entries += [(f"{dist}/METADATA", metadata), (f"{dist}/WHEEL", wheel_info)]
    record = "".join(f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
                     f"{len(data)}\n" for name, data in entries) + f"{dist}/RECORD,,\n"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries + [(f"{dist}/RECORD", record.encode())]:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return f"netlab-{version}-py3-none-any.whl", buffer.getvalue()


def stage(out: Path, calculators: Path, log=print) -> dict:
    """Write the runtime's core, netlab's wheel, the calculators and the licences into ``out``."""
    import netlab

    data = fetch(log)
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for name in CORE:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeError(f"pyodide-{VERSION}.tgz has no package/{name}")
            (out / name).write_bytes(member.read())
    wheel_name, wheel_bytes = wheel(Path(netlab.__file__).resolve().parent, netlab.__version__)
    (out / wheel_name).write_bytes(wheel_bytes)
    shutil.copyfile(calculators, out / "netlab_calculators.py")
    for licence in sorted(LICENCES.iterdir()):
        shutil.copyfile(licence, out / licence.name)
    manifest = {"pyodide": VERSION, "integrity": INTEGRITY, "wheel": wheel_name, "netlab": netlab.__version__,
                "bytes": {p.name: p.stat().st_size for p in sorted(out.iterdir())
                          if p.is_file() and p.name != "manifest.json"}}   # (a rebuild finds the last one)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "fetch"
    try:
        if command == "fetch":
            fetch()
        elif command == "check":
            if cached() is None:
                print(f"pyodide {VERSION}: no cached copy at {tarball_path()} (run `make runtime`)")
                return 1
            print(f"pyodide {VERSION}: {tarball_path()} matches the pinned integrity")
        else:
            print(__doc__)
            return 2
    except RuntimeError as exc:
        print(f"netlab_pyodide: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))     # the repository root, for `import netlab`
    sys.exit(main(sys.argv[1:]))
