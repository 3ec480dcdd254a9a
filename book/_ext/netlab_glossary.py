"""Glossary terms linked at their first use in each chapter and lab, at build time.

The glossary (``book/glossary.md``, a ``{glossary}`` directive) holds every acronym and term of
the book. A reader who meets "DCQCN" or "busbw" in a chapter should reach its entry in one
click, without each page's author marking every first use by hand. So, when a chapter or a lab
is written out (``doctree-resolved``, after every page has been read), the first occurrence of
each glossary term in the page's body text becomes a link to the term's entry, with the entry's
words as the link's title (a tooltip).

What is body text: a paragraph, a list item, a table cell, an admonition's or an exercise's
words. Not a heading or any other title, code (inline or a block), a code cell with its
outputs, math, an existing link or citation, or raw HTML; and not the glossary page itself.

How a term is matched: as a whole word, case-sensitive (``GB/s`` is not ``Gb/s``), the longest
term first where terms overlap (``KV cache`` before ``KV``, ``RoCEv2`` before ``RoCE``), a
plural ``s`` included (``GPUs``), and a lower-case term also with a capital first letter at the
start of a sentence. A few glossary words are also everyday words with another meaning in the
book (``channel`` is NCCL's, but chapter 9's electrical channel is not); they are left out
(``AMBIGUOUS``).

``link_terms`` does the work on any docutils tree (the unit tests give it a small document);
``setup`` wires it into the book.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docutils import nodes

#: the page that holds the glossary
GLOSSARY_DOC = "book/glossary"
#: the pages whose terms are linked: the chapters and the labs
LINKED_PAGES = re.compile(r"^(?:book/ch\d|labs/)")
#: glossary words that also read as ordinary words elsewhere in the book
AMBIGUOUS = frozenset({"channel", "Simple"})

# where a term is not body text: titles, code, math, links, raw HTML, API signatures
_SKIP = (nodes.title, nodes.subtitle, nodes.rubric, nodes.literal, nodes.literal_block, nodes.math,
         nodes.math_block, nodes.reference, nodes.target, nodes.raw, nodes.term, nodes.label,
         nodes.citation, nodes.comment, nodes.field_name, nodes.option_list, nodes.image, nodes.caption,
         nodes.abbreviation, nodes.problematic, nodes.system_message)


@dataclass(frozen=True)
class Term:
    """A glossary entry: its words as written, the address of its entry, and its definition."""

    text: str
    uri: str
    definition: str = ""


def _skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _SKIP) or type(parent).__name__.endswith(("title", "signature", "glossary")):
            return True
        if isinstance(parent, nodes.container) and str(parent.get("nb_element", "")).startswith("cell_code"):
            return True
        if isinstance(parent, nodes.Element) and "netlab-no-glossary" in parent.get("classes", ()):
            return True
        parent = parent.parent
    return False


def term_pattern(terms: list[str]) -> re.Pattern[str]:
    """One regular expression for all ``terms``: whole words, longest first, an optional plural ``s``."""
    forms = set()
    for term in terms:
        forms.add(re.escape(term))
        if term[0].islower() and term.replace(" ", "").replace("-", "").isalpha():
            forms.add(re.escape(term[0].upper() + term[1:]))
    alternation = "|".join(sorted(forms, key=lambda f: (-len(f), f)))
    return re.compile(rf"(?<![\w/-])({alternation})((?<=[A-Za-z])s)?(?![\w/])")


def link_terms(doctree: nodes.Node, terms: list[Term]) -> list[str]:
    """Link the first occurrence of each of ``terms`` in the body text of ``doctree``; return the terms linked.

    Raises:
        TypeError: if ``terms`` holds something other than :class:`Term`.
    """
    if not all(isinstance(t, Term) for t in terms):
        raise TypeError("terms: a list of netlab_glossary.Term")
    usable = {t.text: t for t in terms if t.text and t.text not in AMBIGUOUS}
    if not usable:
        return []
    pattern = term_pattern(list(usable))
    by_form = {**{t: t for t in usable}, **{t[0].upper() + t[1:]: t for t in usable if t[0].islower()}}
    done: list[str] = []
    for text in list(doctree.findall(nodes.Text)):
        if _skipped(text):
            continue
        source = str(text)
        pieces: list[nodes.Node] = []
        at = 0
        for m in pattern.finditer(source):
            name = by_form[m.group(1)]
            if name in done:
                continue
            done.append(name)
            term = usable[name]
            if m.start() > at:
                pieces.append(nodes.Text(source[at:m.start()]))
            link = nodes.reference("", "", nodes.Text(m.group(0)), refuri=term.uri, internal=True,
                                   classes=["netlab-term"])
            if term.definition:
                link["reftitle"] = term.definition
            pieces.append(link)
            at = m.end()
        if pieces:
            if at < len(source):
                pieces.append(nodes.Text(source[at:]))
            text.parent.replace(text, pieces)
    return done


def glossary_terms(doctree: nodes.Node) -> list[tuple[str, str, str]]:
    """(term, anchor, definition) for every entry of the ``{glossary}`` directives in ``doctree``."""
    found = []
    for glossary in doctree.findall(lambda n: type(n).__name__ == "glossary"):
        for item in glossary.findall(nodes.definition_list_item):
            definition = " ".join(" ".join(d.astext().split()) for d in item.findall(nodes.definition))
            for term in item.findall(nodes.term):
                ids = term.get("ids") or []
                words = "".join(t.astext() for t in term.children if isinstance(t, nodes.Text)) or term.astext()
                if ids and words.strip():
                    found.append((words.strip(), ids[0], definition))
    return found


def _terms_for(app, docname: str) -> list[Term]:
    env = app.env
    cached = getattr(env, "_netlab_glossary_terms", None)
    if cached is None:
        cached = []
        if GLOSSARY_DOC in env.all_docs:
            cached = glossary_terms(env.get_doctree(GLOSSARY_DOC))
        env._netlab_glossary_terms = cached
    base = app.builder.get_relative_uri(docname, GLOSSARY_DOC)
    return [Term(text, f"{base}#{anchor}", definition) for text, anchor, definition in cached]


def _doctree_resolved(app, doctree, docname: str) -> None:
    if docname == GLOSSARY_DOC or not LINKED_PAGES.match(docname):
        return
    link_terms(doctree, _terms_for(app, docname))


def _env_updated(app, env) -> None:
    env._netlab_glossary_terms = None      # a new read: the glossary may have changed


def setup(app):
    app.connect("env-updated", _env_updated)
    app.connect("doctree-resolved", _doctree_resolved)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
