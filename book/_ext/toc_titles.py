"""The sidebar's document titles copied once per build, not once per page.

Every page carries the whole book's navigation: sphinx-book-theme asks Sphinx for the global toctree
with ``titles_only=True``, once for each of the ~50 pages. For each entry of that tree Sphinx first
copies the document's whole table of contents (``env.tocs``: every section and, on an API page, every
documented object) and only then, because of ``titles_only``, drops all of it but the document's
title and its sub-toctrees. So each page copied every page's contents list, to keep a line of each:
a fifth of the build under cProfile (36 of 168 s); without it the build takes about 7 CPU seconds
less (54 -> 47, measured with /work/notes/tools/cgcpu.sh).

The trimmed entry cannot change while pages are written (the documents were all read before), so
this extension keeps it. Sphinx's ``_toctree_entry`` (which makes the copy) is wrapped, only while the
HTML pages are written and only inside a ``titles_only`` resolution: the first time a document is
asked for with given arguments, the wrapper takes Sphinx's own copy and trims it as Sphinx is about
to (``titles_trimmed``), and keeps that; every later request gets a fresh deep copy of the kept,
trimmed entry. Sphinx then trims it again, which changes nothing: the wrapper checks that on the
first request and keeps nothing (the original runs every time) for an entry where trimming twice
would differ from trimming once. What the entry depends on is the key: the document, the title
the toctree gives it, the pruning and collapsing asked for, whether the document is an ancestor of
the page being written (Sphinx copies those another way) and the builder's tags; a lookup that
fails or warns is never kept.

A build of the whole site with and without it gave the same bytes in every HTML file, and a build
that also asked Sphinx for each of the 2,180 entries compared them all equal (both when it was
written); ``tests/test_toc_titles.py`` checks the entries against Sphinx's own on a small book's
trees (nested sections, sub-toctrees, an ``only`` entry, a circular and an untitled page).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes

from sphinx import addnodes

_INSTALLED = "netlab_titles_cached"


def titles_trimmed(toc: nodes.Element) -> nodes.Element:
    """``toc`` trimmed in place as Sphinx trims an entry for ``titles_only``: of each top-level item only its
    first child (the title) and, in place of the rest of its second, the sub-toctrees found anywhere in it."""
    for top in toc.children:
        if len(top) > 1:
            found = list(top.findall(addnodes.toctree))
            if found:
                top[1][:] = found
            else:
                top.pop(1)
    return toc


class TitlesCache:
    """Sphinx's ``_toctree_entry`` and ``_entries_from_toctree``, with each titles-only entry made once."""

    def __init__(self, entry, entries) -> None:
        self.entry, self.entries = entry, entries
        self.kept: dict[tuple, Any] = {}        # key -> (trimmed toc, refdoc), or None: do not keep
        self.titles_only: list[bool] = []       # the titles_only of each resolution under way
        self.active = False                     # only while the pages are written

    def entries_from_toctree(self, env, prune, titles_only, *args, **kwargs):
        self.titles_only.append(bool(titles_only))
        try:
            return self.entries(env, prune, titles_only, *args, **kwargs)
        finally:
            self.titles_only.pop()

    def toctree_entry(self, title, ref, env, prune, collapse, tags, toctree_ancestors, included, excluded,
                      toctreenode, parents):
        args = (title, ref, env, prune, collapse, tags, toctree_ancestors, included, excluded, toctreenode, parents)
        if not (self.active and self.titles_only and self.titles_only[-1]) or ref in parents \
                or ref not in env.tocs or ref not in env.metadata:
            return self.entry(*args)
        key = (ref, title, bool(prune), bool(collapse), ref in toctree_ancestors,
               env.metadata[ref].get("tocdepth", 0), id(tags), tuple(sorted(tags)))
        if key in self.kept:
            hit = self.kept[key]
            if hit is None:
                return self.entry(*args)
            toc, refdoc = hit
            return toc.deepcopy(), refdoc
        toc, refdoc = self.entry(*args)
        if not toc.children:
            self.kept[key] = None               # Sphinx warned about it: let it warn every time
            return toc, refdoc
        once = titles_trimmed(toc.deepcopy())
        twice = titles_trimmed(once.deepcopy())
        self.kept[key] = (once, refdoc) if twice.pformat() == once.pformat() else None
        return toc, refdoc

    def start(self, *_args) -> None:
        self.kept.clear()
        self.active = True

    def stop(self, *_args) -> None:
        self.kept.clear()
        self.active = False


def install(app=None) -> TitlesCache | None:
    """Wrap Sphinx's toctree functions (once); returns the cache, or None if they are already wrapped."""
    from sphinx.environment.adapters import toctree

    if getattr(toctree, _INSTALLED, None) is not None:
        return None
    cache = TitlesCache(toctree._toctree_entry, toctree._entries_from_toctree)
    toctree._toctree_entry = cache.toctree_entry
    toctree._entries_from_toctree = cache.entries_from_toctree
    setattr(toctree, _INSTALLED, cache)
    if app is not None:
        # every document is read (and the tocs final) before the pages are written
        app.connect("env-check-consistency", cache.start)
        app.connect("build-finished", cache.stop)
    return cache


def setup(app):
    install(app)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
