"""The sidebar's kept titles-only toctree entries (book/_ext/toc_titles.py) against Sphinx's own."""

import importlib.util
import itertools
import pathlib

import pytest
from docutils import nodes
from sphinx import addnodes
from sphinx.environment.adapters import toctree as sphinx_toctree
from sphinx.util.matching import Matcher
from sphinx.util.tags import Tags

_PATH = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext" / "toc_titles.py"
_SPEC = importlib.util.spec_from_file_location("netlab_book_toc_titles", _PATH)
toc_titles = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(toc_titles)


def _item(doc, anchor, text, *children):
    ref = nodes.reference("", "", nodes.Text(text), internal=True, refuri=doc, anchorname=anchor)
    item = nodes.list_item("", addnodes.compact_paragraph("", "", ref))
    if children:
        item += nodes.bullet_list("", *children)
    return item


def _toctree(*entries, **options):
    node = addnodes.toctree()
    node["entries"] = [(None, e) for e in entries]
    node["includefiles"] = list(entries)
    for key, value in options.items():
        node[key] = value
    return node


class _Env:
    """The parts of a BuildEnvironment that the toctree functions read: a small book's tocs."""

    def __init__(self):
        sub_a, sub_b = _toctree("lab", "api", caption="Labs"), _toctree("api")
        only = addnodes.only(expr="html")
        only += _item("lab", "#extra", "Only in HTML")
        self.tocs = {
            # a chapter: sections, one holding a toctree, and a second top-level section
            "chapter": nodes.bullet_list("", _item("chapter", "", "Chapter", _item("chapter", "#a", "A", _item(
                "chapter", "#a1", "A.1")), _item("chapter", "#b", "B"), nodes.list_item("", sub_a)),
                _item("chapter", "#two", "Second top")),
            # a lab: sections nested three deep and a tag-dependent entry
            "lab": nodes.bullet_list("", _item("lab", "", "Lab", _item("lab", "#s", "S", _item(
                "lab", "#s1", "S.1", _item("lab", "#s11", "S.1.1"))), only)),
            # an API page: many objects, and a toctree directly under its title
            "api": nodes.bullet_list("", _item("api", "", "API", *[_item("api", f"#f{i}", f"f{i}") for i in range(30)],
                                               nodes.list_item("", sub_b.deepcopy()))),
            "leaf": nodes.bullet_list("", _item("leaf", "", "Leaf")),
            "untitled": nodes.bullet_list(),
        }
        self.tocs["api"][0][1].append(_toctree("leaf"))
        self.metadata: dict[str, dict[str, int]] = {doc: {} for doc in self.tocs}
        self.metadata["lab"]["tocdepth"] = 2
        self.titles = {doc: nodes.title("", doc) for doc in self.tocs}

    def doc2path(self, doc, base=True):
        return f"{doc}.md"


ROOTS = [_toctree("chapter", "leaf"), _toctree("lab", "api", "untitled"), _toctree("chapter", "api", "lab")]


def _resolve(env, titles_only, collapse, ancestors, root, tags):
    return sphinx_toctree._entries_from_toctree(env, True, titles_only, collapse, True, tags, ancestors,
                                               Matcher([]), Matcher([]), root, [])


CASES = list(itertools.product([True, False], [False, True], [(), ("lab", "chapter"), ("api",)], range(len(ROOTS))))


@pytest.mark.filterwarnings("ignore")
def test_kept_entries_give_sphinxs_own_trees_every_time(monkeypatch):
    monkeypatch.setattr(sphinx_toctree, "_toctree_entry", sphinx_toctree._toctree_entry)
    monkeypatch.setattr(sphinx_toctree, "_entries_from_toctree", sphinx_toctree._entries_from_toctree)
    env, tags = _Env(), Tags(["html"])
    plain = {case: [n.pformat() for n in _resolve(env, *case[:3], ROOTS[case[3]], tags)] for case in CASES}
    cache = toc_titles.install()
    assert cache is not None and toc_titles.install() is None        # twice is once
    cache.start()
    made: list[str] = []
    entry = cache.entry

    def counted(*args):
        made.append(args[1])
        return entry(*args)

    cache.entry = counted
    for round in range(3):                                             # first made, then kept
        for case in CASES:
            assert [n.pformat() for n in _resolve(env, *case[:3], ROOTS[case[3]], tags)] == plain[case], case
        if round == 0:
            assert {"chapter", "lab", "api", "leaf", "untitled"} <= set(made)
            made.clear()
    # a titles-only entry is made once (one per key); an entry Sphinx warns about is never kept
    kept = [key for key, value in cache.kept.items() if value is not None]
    assert {key[0] for key in kept} == {"chapter", "lab", "api", "leaf"}
    assert {key[0] for key, value in cache.kept.items() if value is None} == {"untitled"}
    made.clear()
    for case in CASES:
        if case[0]:
            _resolve(env, *case[:3], ROOTS[case[3]], tags)
    # left to Sphinx each time: the untitled page, and the API page's toctree naming itself (circular)
    assert set(made) == {"untitled", "api"}
    cache.stop()
    assert not cache.kept and not cache.active


def test_trimming_keeps_titles_and_every_sub_toctree_in_order():
    env = _Env()
    trimmed = toc_titles.titles_trimmed(env.tocs["chapter"].deepcopy())
    assert [n.astext() for n in trimmed.findall(nodes.reference)] == ["Chapter", "Second top"]
    assert [t["entries"] for t in trimmed.findall(addnodes.toctree)] == [[(None, "lab"), (None, "api")]]
    api = toc_titles.titles_trimmed(env.tocs["api"].deepcopy())
    assert [t["includefiles"] for t in api.findall(addnodes.toctree)] == [["api"], ["leaf"]]
    assert [n.astext() for n in api.findall(nodes.reference)] == ["API"]
    once = toc_titles.titles_trimmed(env.tocs["lab"].deepcopy()).pformat()
    assert toc_titles.titles_trimmed(env.tocs["lab"].deepcopy()).pformat() == once
    assert "S.1" not in once and "Lab" in once
