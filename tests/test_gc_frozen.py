"""The build's frozen heap (book/_ext/gc_frozen.py): garbage is collected before a freeze, and all is handed back."""

import gc
import importlib.util
import pathlib
import weakref

_PATH = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext" / "gc_frozen.py"
_SPEC = importlib.util.spec_from_file_location("netlab_book_gc_frozen", _PATH)
gc_frozen = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(gc_frozen)


class _Node:
    """A tree node with a parent pointer: a reference cycle, as a docutils node's."""

    def __init__(self, parent=None):
        self.parent, self.children = parent, []
        if parent is not None:
            parent.children.append(self)


class _App:
    def __init__(self):
        self.handlers = []

    def connect(self, event, handler, priority=500):
        self.handlers.append((event, handler, priority))


def test_a_document_start_frees_the_garbage_and_freezes_the_living_until_the_build_ends():
    session_froze = gc.get_freeze_count() > 0          # tests/conftest.py freezes as each test file starts
    app = _App()
    gc_frozen.setup(app)
    assert [(e, p) for e, _, p in app.handlers] == [("source-read", 500), ("build-finished", 999)]
    kept = _Node()
    _Node(kept)
    dropped = _Node()
    _Node(dropped)
    gone, alive = weakref.ref(dropped), weakref.ref(kept)
    del dropped
    try:
        gc_frozen._document_starts(app, "book/intro", [""])
        assert gone() is None, "a cycle that was garbage is freed, never frozen"
        assert alive() is kept and gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects()), "what lives is frozen: no collection walks it"
    finally:
        gc_frozen._build_ends(app, None)
        unfrozen = gc.get_freeze_count()
        walked = any(o is kept for o in gc.get_objects())
        if session_froze:
            gc.freeze()
    assert unfrozen == 0 and walked
