"""Glossary terms linked at their first use (book/_ext/netlab_glossary.py), on a small document."""

import importlib.util
import pathlib
import sys

import pytest
from docutils import nodes
from docutils.core import publish_doctree

_PATH = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext" / "netlab_glossary.py"
_SPEC = importlib.util.spec_from_file_location("netlab_book_glossary", _PATH)
glossary = importlib.util.module_from_spec(_SPEC)
sys.modules[_SPEC.name] = glossary      # its dataclass looks its module up
_SPEC.loader.exec_module(glossary)

PAGE = """\
RDMA and GPUs
=============

An RDMA write moves data between GPUs; RDMA needs no kernel on the data path.

A ``QP`` in code is not linked, nor is :math:`QP` or `a QP link <https://example.org>`_; then a QP
in prose is. The KV cache holds keys and values; KV alone comes later.

* Gb/s is not GB/s, and GB/s is not GiB.
* A link at 400 Gb/s.

Rail
----

A rail is one NIC per node. NVLink-C2C joins a CPU to a GPU; NVLink joins GPUs.
A completion channel is not NCCL's channel. Goodput counts new data only.

::

    RDMA in a code block
"""

TERMS = ["RDMA", "GPU", "QP", "KV cache", "KV", "Gb/s", "GB/s", "GiB", "rail", "NVLink", "NVLink-C2C",
         "channel", "goodput", "NIC", "CPU"]


def _linked(doctree):
    return [(r.astext(), r["refuri"]) for r in doctree.findall(nodes.reference) if "netlab-term" in r["classes"]]


@pytest.fixture
def page():
    doctree = publish_doctree(PAGE, settings_overrides={"report_level": 5})
    terms = [glossary.Term(t, f"glossary.html#term-{t}", f"what {t} means") for t in TERMS]
    linked = glossary.link_terms(doctree, terms)
    return doctree, linked


def test_each_term_is_linked_once_at_its_first_use_in_the_body(page):
    doctree, linked = page
    links = _linked(doctree)
    # the heading's "RDMA" and "GPUs" are skipped: the first body use is the paragraph's
    assert links[:2] == [("RDMA", "glossary.html#term-RDMA"), ("GPUs", "glossary.html#term-GPU")]
    assert [text for text, _ in links].count("RDMA") == 1
    assert len(links) == len(linked) == len(set(linked))
    first = doctree.next_node(nodes.paragraph)
    assert first.astext() == "An RDMA write moves data between GPUs; RDMA needs no kernel on the data path."
    assert [type(n).__name__ for n in first.children] == ["Text", "reference", "Text", "reference", "Text"]


def test_code_math_and_links_are_not_body_text(page):
    doctree, _ = page
    qp = [r for r in doctree.findall(nodes.reference) if r.astext() == "QP"]
    assert len(qp) == 1
    para = qp[0].parent
    assert para[para.index(qp[0]) - 1].astext().endswith("; then a ")      # the one in prose
    block = next(iter(doctree.findall(nodes.literal_block)))
    assert block.astext() == "RDMA in a code block" and not list(block.findall(nodes.reference))
    title = next(iter(doctree.findall(nodes.title)))
    assert not list(title.findall(nodes.reference))


def test_the_longest_term_wins_and_case_and_units_are_exact(page):
    doctree, linked = page
    links = dict(_linked(doctree))
    assert links["KV cache"].endswith("#term-KV cache") and "KV" in links        # KV alone, later
    assert links["NVLink-C2C"].endswith("#term-NVLink-C2C") and links["NVLink"].endswith("#term-NVLink")
    # Gb/s, GB/s and GiB are three terms, each linked at its own first use
    assert [t for t in linked if t in ("Gb/s", "GB/s", "GiB")] == ["Gb/s", "GB/s", "GiB"]


def test_a_lower_case_term_matches_at_a_sentence_start_and_ambiguous_words_stay_plain(page):
    doctree, linked = page
    links = dict(_linked(doctree))
    assert "rail" in linked and links["rail"].endswith("#term-rail")     # "Rail" is the heading
    assert links["Goodput"].endswith("#term-goodput")
    assert "channel" not in linked                      # a completion channel is not NCCL's


def test_the_link_carries_the_definition_as_its_title(page):
    doctree, _ = page
    ref = next(r for r in doctree.findall(nodes.reference) if r.astext() == "NIC")
    assert ref["reftitle"] == "what NIC means"


def test_the_glossary_directive_gives_terms_anchors_and_definitions():
    from sphinx import addnodes

    doctree = nodes.document(None, None)
    gloss = addnodes.glossary()
    dl = nodes.definition_list()
    item = nodes.definition_list_item()
    item += nodes.term("", "BDP", ids=["term-BDP"])
    item += nodes.definition("", nodes.paragraph("", "Bandwidth-delay product: bandwidth times\nround-trip time."))
    dl += item
    gloss += dl
    doctree += gloss
    definition = "Bandwidth-delay product: bandwidth times round-trip time."
    assert glossary.glossary_terms(doctree) == [("BDP", "term-BDP", definition)]


def test_bad_terms_are_refused():
    with pytest.raises(TypeError, match="terms"):
        glossary.link_terms(nodes.document(None, None), ["RDMA"])
