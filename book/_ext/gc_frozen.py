"""Python's garbage collector told, as the book builds, which objects are there to stay.

Reading the sources keeps every page's doctree in memory until the pages are written (Sphinx's
cache for a serial build), so the heap grows by a whole document tree per page, to 1.6 million
tracked objects. CPython's collector walks every tracked object of its oldest generation on each
full collection; the build's ~20 full collections (after the last page is read, Sphinx loads every
doctree again to number the figures, and drops it) each walked those same 1.6 million objects, about
a second apiece: 11 to 13 of the build's CPU seconds (measured with ``gc.callbacks``).

So, as each document starts to be read (``source-read``), this extension collects what the last one
left (``gc.collect``, every generation: by then only the objects made since the last freeze) and
freezes what is alive (``gc.freeze``: the permanent generation, which no collection walks). Later
collections walk only what was made since. Nothing that is garbage when a document starts is
frozen; what dies after it was frozen (a page's doctree, once written) is freed when the build
ends, when everything frozen is handed back to the collector (``gc.unfreeze``): the peak memory is
about the same, since all those trees are alive together at the end of the read anyway. The
collector decides nothing about the book: the pages are the same bytes.
"""

from __future__ import annotations

import gc


def _document_starts(app, docname, source) -> None:
    gc.collect()
    gc.freeze()


def _build_ends(app, exc) -> None:
    gc.unfreeze()


def setup(app):
    app.connect("source-read", _document_starts)
    # after every other build-finished handler (they make the site's last files)
    app.connect("build-finished", _build_ends, priority=999)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
