"""Site hygiene for the published book: offline, no console errors, accessible.

Jupyter Book 1 always loads ``sphinx_thebe``. The book does not use Thebe (its
pages read with no kernel), yet sphinx-thebe adds to every page an inline script
declaring ``const THEBE_JS_URL`` (which points at unpkg.com) — twice, so every
page logs "Identifier 'THEBE_JS_URL' has already been declared" — and a loader
that would fetch Thebe from that CDN. This extension drops both from each page.

It sets the theme's ``default_mode`` (a template variable) to ``auto`` (follow the reader's system
setting): left empty, pydata-sphinx-theme logs "Got invalid theme mode" as a
console error on a reader's first visit.

It drops the theme's ``fontawesome.js`` (1.5 MB, more than half of what a
first visit to a page transfers): it only swaps the icons for inline SVGs, while
the theme's stylesheet already draws the same icons from the Font Awesome web
fonts it ships (``.fa-moon:before`` ... with ``@font-face``), fetched only when
used.

It also mends two accessibility faults of the theme and of docutils that
axe-core reports as serious or critical, by rewriting the built HTML:

- the chapter toggles of the navigation (``<summary>`` holding only an icon)
  get an accessible name;
- bibliography entries inside ``role="list"`` carry ``role="doc-biblioentry"``,
  which is not a list item; they get ``role="listitem"``.

The browser tests in ``tests/site`` check the result on every page.
"""

from __future__ import annotations

import re
from pathlib import Path

SUMMARY = re.compile(r'<summary>(\s*<span class="toctree-toggle")')
FONTAWESOME_JS = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
BIBLIOENTRY = re.compile(r'(<div class="citation" id="[^"]*" )role="doc-biblioentry"')


def _is_thebe(js) -> bool:
    filename = str(getattr(js, "filename", "") or "")
    body = str(getattr(js, "attributes", {}).get("body", ""))
    return filename.endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body or "unpkg.com/thebe" in filename


def _drop_thebe(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        scripts[:] = [js for js in scripts if not _is_thebe(js)]


def _mend_html(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir).rglob("*.html"):
        if "_static" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        mended = SUMMARY.sub(r'<summary aria-label="Show or hide the sections">\1', text)
        mended = BIBLIOENTRY.sub(r'\1role="listitem"', mended)
        mended = FONTAWESOME_JS.sub("", mended)
        if mended != text:
            path.write_text(mended, encoding="utf-8")


def _default_mode(app, pagename, templatename, context, doctree) -> None:
    context.setdefault("default_mode", "auto")


def setup(app):
    app.connect("html-page-context", _default_mode)
    app.connect("html-page-context", _drop_thebe, priority=900)
    app.connect("build-finished", _mend_html)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
