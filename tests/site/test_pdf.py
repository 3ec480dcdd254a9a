"""The PDF edition (``make pdf``, book/_ext/pdf.py): one file with the whole book in it.

Checked on the built PDF (``$NETLAB_SITE_DIR/netlab.pdf``, made after the site): it has
a plausible number of pages, every part of the book's table of contents (chapters, labs,
appendices, bibliography) by its title, a contents list whose page numbers point to the
page where that part starts, formulas typeset (MathML prints as mathematical italic
letters, U+1D400-1D7FF, not as TeX source), embedded figures, and a number on every page.
"""

import os
import re
import sys
import unicodedata

import pytest

from tests.site.sitefiles import ROOT

pytestmark = pytest.mark.site
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import pdf as pdf_edition  # noqa: E402

MATH_ITALIC = re.compile("[\U0001D400-\U0001D7FF]")


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text)   # the PDF's ligatures (fi, ffi) back to letters
    return re.sub(r"\s+", " ", text.replace("\u00ad", "").replace("-\n", "")).strip().lower()


@pytest.fixture(scope="module")
def book(site_root):
    path = site_root / "netlab.pdf"
    if not path.is_file():
        message = f"no PDF edition at {path}: run `make pdf` after `make book`"
        if os.environ.get("NETLAB_SITE_DIR"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    import pypdfium2
    from pypdf import PdfReader

    # pypdf for the file's structure (pages, their images), PDFium for the contents' page numbers and the
    # text of every page: the same words (and the same 2,061 mathematical letters, page numbers and
    # diagram labels on the 313-page book), read in 1 CPU-s instead of pypdf's 18
    reader = PdfReader(str(path))
    document = pypdfium2.PdfDocument(str(path))
    try:
        texts = [_pdfium_text(document[i]) for i in range(len(document))]
    finally:
        document.close()
    assert len(texts) == len(reader.pages)
    return reader, texts, pdf_edition.page_order(site_root)


def _pdfium_text(page) -> str:
    """A page's text as PDFium reads it, with pypdf's conventions: lines end in \\n, and a word
    broken at a line's end by a hyphen ends the line in "-". PDFium writes that hyphen and the line
    break after it as one \\x02 (never followed by a line break), so it becomes "-\\n": without the
    break, a URL broken at a page's last line ran into the page number ("mission-302")."""
    text = page.get_textpage().get_text_bounded()
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x02", "-\n")


def test_the_pdf_has_every_part_of_the_book(book):
    reader, texts, order = book
    assert len(order) >= 25, f"only {len(order)} parts found in the site's navigation"
    assert len(reader.pages) >= 4 * len(order), f"{len(reader.pages)} pages for {len(order)} parts of the book"
    whole = _norm(" ".join(texts))
    missing = [title for _, title, _ in order if _norm(title) not in whole]
    assert not missing, f"titles not found in the PDF: {missing}"


def _lines_as_laid_out(page) -> str:
    """A page's text line by line as it is laid out (top to bottom, left to right), whatever the order of
    its drawing: the contents' page numbers are laid over the finished pages (book/_ext/pdf.py), so in the
    file they come after every title, each on its title's line."""
    textpage = page.get_textpage()
    runs = sorted((textpage.get_rect(i) for i in range(textpage.count_rects())), key=lambda r: (-r[3], r[0]))
    lines: list[list] = []
    for left, bottom, right, top in runs:
        middle = (top + bottom) / 2
        line = next((ln for ln in lines if ln[0] - ln[1] <= middle <= ln[0] + ln[1]), None)
        if line is None:
            lines.append(line := [middle, max(1.0, (top - bottom) / 2), []])
        line[2].append((left, textpage.get_text_bounded(left, bottom, right, top).strip()))
    lines.sort(key=lambda ln: -ln[0])
    return "\n".join(" ".join(text for _, text in sorted(ln[2])) for ln in lines)


def test_the_contents_give_the_page_where_each_part_starts(book, site_root):
    """Each line of the contents ends with a page number; that page is where the part's title is."""
    import pypdfium2

    reader, texts, order = book
    contents = next(i for i, t in enumerate(texts) if t.strip().lower().startswith("contents"))
    lines = []
    document = pypdfium2.PdfDocument(str(site_root / "netlab.pdf"))
    try:
        for i in range(contents, min(contents + 3, len(document))):
            lines += [m.group(1) for m in re.finditer(r"\S\s+(\d+)\s*$", _lines_as_laid_out(document[i]), re.M)]
    finally:
        document.close()
    numbers = [int(n) for n in lines[:len(order)]]
    assert len(numbers) == len(order), f"{len(numbers)} numbered lines in the contents for {len(order)} parts"
    squeeze = lambda text: re.sub(r"[\s-]+", "", _norm(text))  # noqa: E731 - stray spaces, hyphenation
    for (_, title, _), start in zip(order, numbers):
        assert 1 <= start <= len(reader.pages), (title, start)
        assert squeeze(title)[:30] in squeeze(texts[start - 1]), f"{title!r} is not on page {start}, as the contents say"


def test_formulas_are_typeset(book):
    _, texts, _ = book
    whole = " ".join(texts)
    assert len(MATH_ITALIC.findall(whole)) > 200, "few typeset formulas in the PDF"
    assert "\U0001D6FC" in whole, "the alpha-beta model's alpha (math italic) is not in the PDF"
    assert not re.search(r"\\(frac|text|alpha)\b", whole), "TeX source printed instead of a formula"


# netlab's figures are SVG (explorer frames, described lab figures, the chapters' diagrams): Chromium
# prints them as vector drawings whose labels are text, so they are found by their words (chosen
# without fi/ff/fl, which the PDF writes as ligatures).
DIAGRAM_WORDS = ["every leaf has one uplink to every spine", "one egress queue", "package substrate",
                 "after step 3", "NVLink switch", "no kernel on the data path", "time saved", "ACKs and congestion signals",
                 "serializations", "packet delivery", "a surprise: predict again", "NIC share: ECMP, spraying"]


def test_figures_are_embedded(book):
    reader, texts, _ = book
    images = 0
    for page in reader.pages:
        xobjects = (page.get("/Resources") or {}).get("/XObject") or {}
        images += sum(1 for k in xobjects if xobjects[k].get_object().get("/Subtype") == "/Image")
    whole = " ".join(" ".join(t.split()) for t in texts)
    drawn = [w for w in DIAGRAM_WORDS if w in whole]
    assert drawn == DIAGRAM_WORDS, f"diagrams missing from the PDF: {sorted(set(DIAGRAM_WORDS) - set(drawn))}"
    explorer_axes = whole.count("busbw (GB/s)")        # lab 6's explorer, printed at its default frame
    assert explorer_axes >= 1, "lab 6's explorer frame is not in the PDF"
    assert images + len(drawn) >= 11, f"only {images} images and {len(drawn)} diagrams embedded"   # one per chapter


def test_every_page_has_its_number(book):
    _, texts, _ = book
    unnumbered = [i + 1 for i, t in enumerate(texts) if not re.search(rf"(^|\n)\s*{i + 1}\s*(\n|$)", t)]
    assert not unnumbered[:3] and len(unnumbered) <= len(texts) // 20, f"pages without their number: {unnumbered[:10]}"


def _headings(page_html: str) -> list[str]:
    """The h1 and h2 texts of a page's article as a reader sees them (regular expressions, not the PDF's code)."""
    import html as html_lib

    article = page_html[page_html.index('<article class="bd-article"'):page_html.index("</article>")]
    heads = []
    for _, inner in re.findall(r"<h([12])(?:\s[^>]*)?>(.*?)</h\1>", article, re.S):
        inner = re.sub(r'<a class="headerlink".*?</a>', "", inner, flags=re.S)
        heads.append(" ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", inner)).split()).replace(" .", "."))
    return heads


def test_bookmarks_read_as_the_headings_do(book, site_root):
    """One bookmark per page of the book, titled as its h1 reads on the site (section number included), its
    h2 headings beneath, each opening the page where that heading is; nothing run together or repeated
    (Chromium's own outline read "Traffic of the threeparallelisms", "GlossaryGlossary")."""
    reader, texts, order = book
    outline = reader.outline
    tops = [o for o in outline if not isinstance(o, list)]
    assert len(tops) == len(order), (len(tops), len(order))
    squeeze = lambda text: re.sub(r"[\s-]+", "", _norm(text))  # noqa: E731
    for (page, _, _), (i, mark) in zip(order, ((i, o) for i, o in enumerate(outline) if not isinstance(o, list))):
        heads = _headings((site_root / page).read_text(encoding="utf-8"))
        assert mark.title == heads[0], (page, mark.title, heads[0])
        below = outline[i + 1] if i + 1 < len(outline) and isinstance(outline[i + 1], list) else []
        assert [b.title for b in below] == heads[1:], (page, [b.title for b in below][:3], heads[1:4])
        start = reader.get_destination_page_number(mark)
        assert squeeze(mark.title)[:25] in squeeze(texts[start]), f"bookmark {mark.title!r} opens page {start + 1}"
        for b in below[:3]:      # a section may start at the foot of a page whose heading moved to the next
            at = reader.get_destination_page_number(b)
            assert squeeze(b.title)[:20] in squeeze(" ".join(texts[at:at + 2])), f"bookmark {b.title!r} opens page {at + 1}"


def test_labs_print_with_their_solutions_and_no_dead_toggles(book, site_root):
    import copy

    from tests.site.sitefiles import page_soup

    _, texts, order = book
    whole = _norm(" ".join(texts))
    for dead in ("show code cell", "solution on the website", "(solution", "your answer:", "checked in your browser",
                 "name or student id:", "use this name"):
        assert dead not in whole, f"the PDF prints {dead!r}"
    squeezed = re.sub(r"[\s-]+", "", whole)      # the whole book's text, squeezed once (not once per solution)
    missing, counted = [], 0
    for page, _, _ in order:
        if not page.startswith("labs/"):
            continue
        soup = page_soup(site_root / page)          # shared with the explorers' check: left unchanged
        for box in soup.select(".admonition.dropdown"):
            box = copy.copy(box)                     # a solution inside a solution: its formulas are marked
            for math in box.find_all("math"):        # in its copy as in its parent's copy
                math.replace_with("\x00")      # formulas print as MathML glyphs: compare the words between them
            runs = [run for p in box.find_all("p") if "admonition-title" not in (p.get("class") or [])
                    for run in p.get_text(" ", strip=True).split("\x00")]
            words = max(runs, key=len, default="")
            words = words if len(words) >= 20 else ""
            counted += 1
            if words and re.sub(r"[\s-]+", "", _norm(words))[:40] not in squeezed:
                missing.append(f"{page}: {words[:60]}")
    assert counted >= 30 and not missing, (counted, missing[:5])


def test_headings_with_ids_of_their_own_are_named_destinations(book, site_root):
    """An h2 with an id of its own (the registry's) links to itself in the print, so that Chromium writes
    its id as a named destination for its bookmark; the link once named the id with the page's key twice
    ("p-book-appendix-registry--p-book-appendix-registry--..."), pointing nowhere."""
    reader, _, order = book
    named = {str(k).lstrip("/") for k in reader.named_destinations}
    expected = []
    for page, _, _ in order:
        html = (site_root / page).read_text(encoding="utf-8")
        article = html[html.find('<article class="bd-article"'):]
        expected += [f"{pdf_edition._key(page)}--{i}" for i in re.findall(r'<h2\b[^>]*\bid="([^"]+)"', article)]
    assert expected, "no page has an h2 with an id of its own: nothing is checked"
    missing = [e for e in expected if e not in named]
    assert not missing, f"{len(missing)} of {len(expected)} headings are not named destinations: {missing[:3]}"
