"""Build-time transforms of the site, on small inputs: glossary terms linked at their first use
(book/_ext/netlab_glossary.py), SVG frames written shorter but drawn the same, and the results of
inline "Predict" prompts behind a reveal (netlab_site.py)."""

import importlib.util
import pathlib
import re
import sys

import pytest
from docutils import nodes
from docutils.core import publish_doctree



def _load(name):
    spec = importlib.util.spec_from_file_location(f"netlab_book_{name}", _EXT / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # a dataclass looks its module up
    spec.loader.exec_module(module)
    return module


_EXT = pathlib.Path(__file__).resolve().parents[1] / "book" / "_ext"
glossary = _load("netlab_glossary")
site = _load("netlab_site")

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


# --- SVG frames written shorter -------------------------------------------------------------------

def _points(d):
    """Absolute (command, x, y) per vertex of a path made of M, L and z (the commands matplotlib's lines use),
    read by the SVG rules: pairs after M or L are linetos."""
    tokens = re.findall(r"[MLz]|-?[0-9.]+", d)
    out, cmd, i = [], None, 0
    while i < len(tokens):
        if tokens[i] in "MLz":
            cmd = tokens[i]
            i += 1
            if cmd == "z":
                out.append(("z",))
            continue
        out.append(("M" if cmd == "M" and (not out or out[-1][0] == "z" or tokens[i - 1] == "M") else "L",
                    float(tokens[i]), float(tokens[i + 1])))
        cmd = "L" if cmd == "M" else cmd
        i += 2
    return out


def _attrs(svg):
    return [{k: a or b for k, a, b in re.findall(r"""([\w:-]+)=(?:"([^"]*)"|'([^']*)')""", tag)}
            for tag in re.findall(r"<[a-z][^>]*>", svg)]


FRAME = ("""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 460.8 230.4"><style>text{font-family:'DejaVu Sans'}"""
         """</style><g><path d="M 36.7 196.3 L 457.7 196.3 L 457.7 17.3 L 36.7 17.3 z M 1 2 L -3.5 0" """
         """style="fill: none; stroke: #b0b0b0; stroke-width: 0.8"/><text style="font-size: 10px; text-anchor: middle" """
         """x="55.8" y="210.9" transform="rotate(-0 55.8 210.9)">a="b" 0</text>"""
         """<text x="1" y="2" transform="rotate(-90 1 2)" style="font-family: 'DejaVu Sans'">y</text></g></svg>""")


def test_a_frame_is_drawn_the_same_in_fewer_bytes():
    short = site.compact_svg(FRAME)
    assert len(short) < len(FRAME)
    d_before = re.search(r' d="([^"]*)"', FRAME).group(1)
    d_after = re.search(r" d='([^']*)'", short).group(1)
    assert d_after == "M36.7 196.3 457.7 196.3 457.7 17.3 36.7 17.3zM1 2 -3.5 0"
    assert _points(d_after) == _points(d_before) == [
        ("M", 36.7, 196.3), ("L", 457.7, 196.3), ("L", 457.7, 17.3), ("L", 36.7, 17.3), ("z",), ("M", 1, 2), ("L", -3.5, 0)]
    before, after = _attrs(FRAME), _attrs(short)
    assert "transform" not in after[4] and after[5]["transform"] == "rotate(-90 1 2)"   # only rotate(-0 ...) goes
    assert after[3]["style"] == "fill:none;stroke:#b0b0b0;stroke-width:0.8"
    assert after[5]["style"] == "font-family:'DejaVu Sans'" and "style=\"font-family:'DejaVu Sans'\"" in short
    for b, a in zip(before, after):
        assert {k: v for k, v in b.items() if k not in ("d", "style", "transform")} == \
               {k: v for k, v in a.items() if k not in ("d", "style", "transform")}
    # text and the style block stay as written
    assert ">a=\"b\" 0</text>" in short and "<style>text{font-family:'DejaVu Sans'}</style>" in short


def test_a_page_keeps_its_frames_and_pieces_valid():
    import html
    import json

    uri = "data:image/svg+xml;charset=utf-8," + FRAME.replace("#", "%23")
    page = (f'<img class="netlab-figure" src="{html.escape(uri)}" alt="x">'
            '<script type="application/json" class="netlab-explorer-pieces">'
            + json.dumps([FRAME[:200 + FRAME[200:].index(">") + 1], FRAME[200 + FRAME[200:].index(">") + 1:]]) + "</script>")
    short = site.compact_frames(page)
    assert len(short) < len(page)
    src = html.unescape(re.search(r'src="([^"]*)"', short).group(1))
    assert src == "data:image/svg+xml;charset=utf-8," + site.compact_svg(FRAME).replace("#", "%23")
    pieces = json.loads(re.search(r'pieces">(.*?)</script>', short).group(1))
    assert "".join(pieces) == site.compact_svg(FRAME)


# --- inline prediction prompts: the answering outputs behind a reveal (netlab_site.py) ------------

def _paragraph(text):
    """A paragraph as the book's Markdown gives it (bold, italic and code parsed)."""
    return publish_doctree(text, settings_overrides={"report_level": 5}).next_node(nodes.paragraph).deepcopy()


def _cell(code, output, hide_mode=None):
    """A code cell as MyST-NB puts it in the doctree: its source, then its output."""
    cell = nodes.container(nb_element="cell_code", classes=["cell"])
    if hide_mode:
        cell["hide_mode"] = hide_mode
    source = nodes.container(nb_element="cell_code_source", classes=["cell_input"])
    source += nodes.literal_block(code, code)
    out = nodes.container(nb_element="cell_code_output", classes=["cell_output"])
    out += nodes.raw("", output, format="html") if output.startswith("<") else nodes.literal_block(output, output)
    cell += [source, out]
    return cell


def _lab(*parts, title="Incast with and without trimming"):
    doctree = publish_doctree("Lab\n===\n", settings_overrides={"report_level": 5})
    section = nodes.section(ids=["s"])
    section += nodes.title("", title)
    section += [_paragraph(p) if isinstance(p, str) else p for p in parts]
    doctree += section
    return doctree


def _html(doctree):
    from docutils.core import publish_from_doctree

    return publish_from_doctree(doctree, writer_name="html5",
                                settings_overrides={"report_level": 5}).decode("utf-8")


def _hidden(page, text):
    """Whether ``text`` is inside a netlab reveal of the HTML ``page`` (and the page holds it once)."""
    assert page.count(text) == 1, text
    at = page.index(text)
    opened = page.rfind('<details class="netlab-reveal', 0, at)
    return opened >= 0 and page.rfind("</details>", 0, at) < opened


@pytest.mark.parametrize("prompt", [
    "Each side sets its path MTU from its own port. **Predict:** which of an 8-byte and a 64 KiB write gets through?",
    "*Predict first:* a spine switch dies during a 16,384-GPU run. Does the job stop?",
    "Until they arrive the queue grows at (n-1)B. Predict how much more buffer 10 km needs than 0 km, then run.",
], ids=["bold-after-a-sentence", "italic-lead", "plain-sentence"])
def test_an_inline_prompt_puts_the_answering_outputs_behind_a_reveal_and_leaves_the_code(prompt):
    doctree = _lab(prompt, "Run the next two cells.",
                   _cell("print(incast(31))", "last flow done after 4336 us"),
                   _cell("fig = bars(incasts)", '<img src="bars.png" alt="bars of completion time">', "output"),
                   "Go-back-N times out again and again.",
                   _cell("print(pfc(31))", "a later result, not the prompt answer"))
    assert site.reveal_inline_prompts(doctree) == 2
    page = _html(doctree)
    assert _hidden(page, "last flow done after 4336 us") and _hidden(page, 'alt="bars of completion time"')
    # the code the reader will run stays in view, as does the text between the prompt and the answer
    for shown in ("print(incast(31))", "fig = bars(incasts)", "Run the next two cells.",
                  "Go-back-N times out", "a later result, not the prompt answer"):
        assert not _hidden(page, shown), shown
    assert page.count("<summary>") == 2 and "write down your guess first" in page
    # the cell's own hide-output toggle is dropped: the reveal already hides its output
    assert all(not cell.get("hide_mode") for cell in doctree.findall(nodes.container))


@pytest.mark.parametrize("mention", [
    "For every (algorithm, protocol) NCCL's tuner predicts latency + size / algbw and runs the fastest.",
    'The tempting 3.6 TB/s of the "Predict first" question is the other tier.',
    "A Prediction of the tuner. Predicted times are kept; predict-first labs come later.",
    "Call ``Predict`` to print the estimate.",
], ids=["predicts", "quoted", "prediction-predicted-lower-case", "in-code"])
def test_a_mention_of_predicting_that_asks_no_guess_hides_nothing(mention):
    doctree = _lab(mention, _cell("print(choice_table())", "ring LL 16 KiB 15.1 us"))
    assert site.reveal_inline_prompts(doctree) == 0
    assert "<details" not in _html(doctree)


def test_an_explorer_is_never_put_behind_a_reveal_and_ends_the_answer():
    explorer = '<div class="netlab-explorer"><img class="netlab-explorer-frame" alt="frame 0"></div>'
    # the explorer right after the prompt is the experiment: nothing is hidden, nor the cell after it
    doctree = _lab("**Predict**: does the step pay all of the all-reduce?",
                   _cell("widgets.Explorer(figures.draw_overlap)", explorer),
                   _cell("print(fit())", "fitted t_sync 7.9 us"))
    assert site.reveal_inline_prompts(doctree) == 0
    assert "<details" not in _html(doctree)
    # after an answering cell, the explorer ends the reveal's run and stays out of it
    doctree = _lab("*Predict:* does one lossless priority fit the buffer?",
                   _cell("print(lossless(10 * km))", "headroom 5.3x the buffer"),
                   _cell("widgets.Explorer(figures.lossless)", explorer),
                   _cell("print(more())", "after the explorer"))
    assert site.reveal_inline_prompts(doctree) == 1
    page = _html(doctree)
    assert _hidden(page, "headroom 5.3x the buffer")
    assert not _hidden(page, 'alt="frame 0"') and not _hidden(page, "after the explorer")


def test_a_prompt_in_a_predict_section_is_left_to_the_sections_reveal():
    doctree = _lab("**Predict**: about 100 Gb/s, 50 Gb/s or 10 Gb/s?", _cell("print(run())", "9.8 Gb/s"),
                   title="Predict first")
    assert site.reveal_inline_prompts(doctree) == 0


def test_a_later_markdown_cell_before_any_code_means_no_output_answers_the_prompt():
    # MyST-NB numbers the lines of a notebook's cell i from (i + 1) * 10000
    def in_cell(paragraph, index):
        paragraph.source, paragraph.line = "labs/lab10.ipynb", (index + 1) * 10000 + 3
        return paragraph

    def lab(second_cell):
        return _lab(in_cell(_paragraph("*Predict:* does any rack design fit the budget?"), 23),
                    in_cell(_paragraph("Then the flow-level model."), second_cell),
                    _cell("print(explore(RAILS))", "no design fits"))

    assert site.reveal_inline_prompts(lab(23)) == 1          # the rest of the prompt's own cell
    assert site.reveal_inline_prompts(lab(24)) == 0          # a markdown cell of its own comes first
