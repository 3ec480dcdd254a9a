"""Serve MathJax from the site itself, so that math renders with the network off.

Sphinx loads MathJax from a CDN by default. The PyPI package
``sphinx-mathjax-offline`` ships MathJax 3 but cannot be loaded as an extension
(its module name has hyphens), so this extension copies the parts the book
needs from it: the TeX-to-CommonHTML bundle, its web fonts, the TeX extensions
that MathJax loads on demand, and the menu.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

from sphinx.util.fileutil import copy_asset

PARTS = ["tex-chtml.js", "output/chtml/fonts/woff-v2", "input/tex/extensions", "ui"]


def _mathjax_dir() -> Path:
    dist = metadata.distribution("sphinx-mathjax-offline")
    return Path(dist.locate_file("sphinx-mathjax-offline/static/mathjax"))


def _copy(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    source = _mathjax_dir()
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in PARTS:
        destination = target / part
        if (source / part).is_dir():
            copy_asset(str(source / part), str(destination))
        else:
            destination.parent.mkdir(parents=True, exist_ok=True)
            copy_asset(str(source / part), str(destination.parent))


def setup(app):
    if not (_mathjax_dir() / "tex-chtml.js").is_file():
        raise RuntimeError("sphinx-mathjax-offline is not installed: run `make install`")
    app.config.mathjax_path = "mathjax/tex-chtml.js"
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
