"""The PDF edition: every page of the built site, in the book's order, printed by headless Chromium.

Usage (after the site is built; ``make pdf`` does this)::

    python book/_ext/pdf.py SITE_DIR OUT.pdf

How: the reading column (``<article>``) of each page, in the order of the site's
navigation (the table of contents), is put into one HTML document with the site's
stylesheets; links between pages become links inside the document, ids are made
unique per page. Formulas are MathML (typeset at build time), figures are the
pages' images, kernel-free explorers print their default frame, solutions stay
printed after each exercise (every dropdown is open, its toggle gone; so are the "show code"
toggles and the checker's input). A cover and a contents list with
page numbers come first; every page has its number at the foot.

Chromium prints the book once; where each part starts is read from that PDF (Chromium
writes every id of the document as a named destination). Then the book is printed again
with those page numbers in its contents (they fill a fixed-width slot, so nothing moves;
the build checks that). Only Debian's Chromium and PyPI packages (Playwright,
BeautifulSoup, pypdf, pypdfium2) are used; nothing is fetched from the network.
"""

from __future__ import annotations

import asyncio
import logging
import html
import os
import posixpath
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

CHROMIUM = os.environ.get("NETLAB_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SKIP = {"search.html", "genindex.html"}

PRINT_CSS = """
@page { size: A4; margin: 18mm 16mm 20mm 16mm; }
html, body { background: white !important; }
body { font-size: 10.5pt; display: block !important; }
.pdf-book { display: block; max-width: none; }
.pdf-page { display: block; }
.pdf-page { break-before: page; }
.pdf-page:first-of-type { break-before: auto; }
.pdf-cover { height: 240mm; display: flex; flex-direction: column; justify-content: center; }
.pdf-cover h1 { font-size: 30pt; margin-bottom: 0.5em; }
.pdf-cover p { font-size: 13pt; }
.pdf-toc ol { list-style: none; padding-left: 0; }
.pdf-toc li { display: flex; gap: 0.4em; margin: 0.15em 0; }
.pdf-toc li.pdf-toc-part { font-weight: 700; margin-top: 0.8em; }
.pdf-toc li .pdf-toc-dots { flex: 1; border-bottom: 1px dotted #999; margin-bottom: 0.3em; }
.pdf-toc li .pdf-toc-num { min-width: 2.2em; text-align: right; }
.pdf-toc a { color: inherit; text-decoration: none; }
a { color: #0b4f91; }
a.pdf-self-link { color: inherit; text-decoration: none; }
a.headerlink, .headerlink, .toggle-button, button, .copybtn, .netlab-explorer-controls,
.netlab-explorer-note, .netlab-exercise-input, .netlab-exercise-check, .netlab-exercise-feedback,
.netlab-exercise label, .netlab-exercise-note, .netlab-answers, .netlab-answers-downloads, details > summary,
.tag_hide-input .cell_input, .tag_hide-input details.above-input, .bd-sidebar-secondary, .prev-next-area,
#searchbox { display: none !important; }
.admonition.dropdown > .admonition-title::after, .admonition.dropdown > .admonition-title::before { content: none !important; }
.admonition.dropdown > *, .toggle-hidden { display: block !important; visibility: visible !important; }
.netlab-explorer, .admonition, figure { break-inside: avoid; }
.netlab-explorer-frame, .bd-article img { max-width: 100% !important; height: auto; break-inside: avoid; }
pre, .highlight { white-space: pre-wrap !important; word-break: break-word; break-inside: avoid; }
table { break-inside: auto; font-size: 9pt; }
tr, figure, .math { break-inside: avoid; }
h1, h2, h3 { break-after: avoid; break-inside: avoid; }
.pst-scrollable-table-container { overflow: visible !important; }
"""

FOOTER = ('<div style="font-size:8pt;width:100%;text-align:center;color:#555;font-family:sans-serif">'
          '<span class="pageNumber"></span></div>')


def page_order(root: Path) -> list[tuple[str, str, str]]:
    """(page, title, part caption) of every page, in the order of the site's navigation."""
    from bs4 import BeautifulSoup

    index = root / "index.html"
    start = re.search(r'url=([^"]+)"', index.read_text(encoding="utf-8")) if index.is_file() else None
    first = start.group(1) if start else "book/intro.html"
    soup = BeautifulSoup((root / first).read_text(encoding="utf-8"), "html.parser")
    nav = soup.select_one("nav.bd-docs-nav")
    title = soup.title.get_text(" ", strip=True).split(" — ")[0] if soup.title else first
    order = [(first, title, "")]
    part = ""
    for el in nav.find_all(["p", "a"]):
        if el.name == "p" and "caption" in (el.get("class") or []):
            part = el.get_text(" ", strip=True)
            continue
        href = el.get("href", "")
        if el.name != "a" or "reference" not in (el.get("class") or []) or href.startswith(("http", "#")):
            continue
        page = posixpath.normpath(posixpath.join(posixpath.dirname(first), href.split("#")[0]))
        if page not in SKIP and page not in [p for p, _, _ in order] and (root / page).is_file():
            order.append((page, el.get_text(" ", strip=True), part))
    return order


def _key(page: str) -> str:
    return "p-" + re.sub(r"[^A-Za-z0-9]+", "-", page.removesuffix(".html")).strip("-")


def _parse(root: Path, page: str):
    """``page`` of the site as BeautifulSoup reads it (Python's html.parser)."""
    from bs4 import BeautifulSoup

    return BeautifulSoup((root / page).read_text(encoding="utf-8"), "html.parser")


def _classes(el) -> list[str]:
    """The classes of ``el``, as a CSS class selector (soupsieve's) matches them."""
    classes = el.get("class") or []
    return classes.split() if isinstance(classes, str) else classes


def _reading_column(soup):
    """The page's ``<article class="bd-article">`` (CSS ``article.bd-article``: the first in document
    order), else its body. find() with a test walks the tree as soupsieve's select_one did, at less cost."""
    return soup.find(lambda el: el.name == "article" and "bd-article" in _classes(el)) or soup.body


def _article(root: Path, page: str, pages: set[str], site_url: str = "", soup=None) -> str:
    """The reading column of ``page`` with ids, links and image paths rewritten for one document.

    A link to a file of the site that is not a page (a diagram's SVG, a download) points at the published
    site (``site_url``), or is plain text without one: a path into the print's temporary folder is dead.
    ``soup``: the page already parsed (:func:`_parse`), which this changes; else the page is read here.
    """
    from bs4 import Tag

    if soup is None:
        soup = _parse(root, page)
    article = _reading_column(soup)
    key, folder = _key(page), posixpath.dirname(page)
    # find_all with a test, in document order, finds what the CSS selectors "script, .netlab-explorer-frames"
    # found (soupsieve took seconds over the book's 46 pages)
    for el in article.find_all(lambda el: el.name == "script" or "netlab-explorer-frames" in _classes(el)):
        el.decompose()
    # then one walk over the rest finds what each find_all below found in a walk of its own: the changes
    # below remove no element, and each element's change is its own (none reads another element)
    details, hidden, with_id, h2s, links, images = [], [], [], [], [], []
    for el in article.descendants:
        if not isinstance(el, Tag):
            continue
        name = el.name
        if name == "details":
            details.append(el)
        if "toggle-hidden" in _classes(el):
            hidden.append(el)
        if el.get("id") is not None:
            with_id.append(el)
            if name == "h2":
                h2s.append(el)
        if name == "a" and el.get("href") is not None:
            links.append(el)
        if name == "img" and el.get("src") is not None:
            images.append(el)
    for el in details:                          # hidden outputs and predict-first results: printed open
        el["open"] = ""
    for el in hidden:
        el["class"] = [c for c in el["class"] if c != "toggle-hidden"]
    for el in with_id:
        el["id"] = f"{key}--{el['id']}"
    for h2 in h2s:                               # a heading with an id of its own (the registry's): its text links
        link = soup.new_tag("a", href=f"#{h2['id']}")   # to itself, so Chromium writes the id as a named destination
        link["class"] = "pdf-self-link"                 # (it writes only the ids a link points to) for its bookmark
        for child in list(h2.children):
            link.append(child.extract())
        h2.append(link)                          # (its href names the id as rewritten above: final)
    for a in links:
        href = a["href"]
        if re.match(r"^[a-z]+:", href) or href.startswith("//"):
            continue
        path, _, frag = href.partition("#")
        target = posixpath.normpath(posixpath.join(folder, path)) if path else page
        if target in pages:
            a["href"] = f"#{_key(target)}--{frag}" if frag else f"#{_key(target)}"
        elif path and site_url:   # a file of the site that is not a page (a download): on the site
            a["href"] = site_url.rstrip("/") + "/" + posixpath.normpath(posixpath.join(folder, href))
        elif path:
            del a["href"]
    for img in images:
        if not img["src"].startswith(("data:", "http")):
            img["src"] = posixpath.normpath(posixpath.join(folder, img["src"]))
        img["loading"] = "eager"
    return f'<section class="pdf-page" id="{key}">{article.decode_contents()}</section>'


def _stylesheets(root: Path, first: str) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((root / first).read_text(encoding="utf-8"), "html.parser")
    links = []
    for link in soup.select('link[rel="stylesheet"]'):
        href = link["href"].split("?")[0]
        links.append(f'<link rel="stylesheet" href="{posixpath.normpath(posixpath.join(posixpath.dirname(first), href))}">')
    return "\n".join(links)


def document(root: Path, order, numbers: dict[str, int] | None, meta: dict, articles: list[str] | None = None) -> str:
    """The book as one HTML document, with ``numbers`` (page -> its first page) in the contents, if given.
    ``articles``: each page's :func:`_article` (with ``meta``'s url), in ``order``, if already made."""
    pages = {p for p, _, _ in order}
    toc, part = [], None
    for page, title, caption in order:
        if caption and caption != part:
            toc.append(f'<li class="pdf-toc-part">{html.escape(caption)}</li>')
            part = caption
        # a fixed-width slot for the number: the contents take the same room with or without numbers
        number = (numbers or {}).get(page, "")
        toc.append(f'<li><a href="#{_key(page)}">{html.escape(title)}</a><span class="pdf-toc-dots"></span>'
                   f'<span class="pdf-toc-num" data-part="{_key(page)}">{number}</span></li>')
    cover = (f'<section class="pdf-cover"><h1>{html.escape(meta["title"])}</h1>'
             f'<p>{html.escape(meta["author"])}</p><p>PDF edition, printed {time.strftime("%Y-%m-%d")}'
             f'{" from " + html.escape(meta["url"]) if meta["url"] else ""}.</p>'
             '<p>Figures come from netlab\'s hardware registry; each is cited with its source and status. '
             'The labs run in Jupyter; their widgets appear here in their default setting.</p></section>')
    if articles is None:
        articles = [_article(root, page, pages, meta.get("url", "")) for page, _, _ in order]
    body = "".join(articles)
    return (f'<!DOCTYPE html><html lang="en" data-theme="light" data-mode="light"><head><meta charset="utf-8">'
            f'<title>{html.escape(meta["title"])}</title>{_stylesheets(root, order[0][0])}<style>{PRINT_CSS}</style>'
            f'</head><body><main class="pdf-book">{cover}'
            f'<section class="pdf-page pdf-toc"><h1>Contents</h1><ol>{"".join(toc)}</ol></section>'
            f'{body}</main></body></html>')


def outline(root: Path, order) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The bookmarks: each page's title as its heading reads (section number included), with its h2
    headings beneath, each with the named destination Chromium writes for its id."""
    return [_outline_item(_parse(root, page), page, title) for page, title, _ in order]


def _outline_item(soup, page: str, title: str) -> tuple[str, str, list[tuple[str, str]]]:
    """``page``'s bookmark (see :func:`outline`), from the page as parsed, which this leaves as it is (the
    book's build then prints that same parse: each page is parsed once)."""
    article = _reading_column(soup)
    h1 = article.find("h1")
    key = _key(page)
    children = []
    for h2 in article.find_all("h2"):
        section = h2.find_parent("section")
        anchor = h2.get("id") or (section.get("id") if section is not None else None)
        if anchor:
            children.append((_heading(h2), f"{key}--{anchor}"))
    return (_heading(h1) if h1 else title, key, children)


def _heading(el) -> str:
    """A heading's text without its permalink ("#"): read from a copy of the heading, whose permalinks are
    taken out, so the page itself is not changed."""
    import copy

    el = copy.copy(el)
    for link in el.find_all(lambda e: "headerlink" in _classes(e)):
        link.decompose()
    return " ".join(el.get_text(" ", strip=True).split()).replace(" .", ".")


def _pdf_text(text: str) -> bytes:
    """A PDF text string: UTF-16BE with its byte-order mark, in hexadecimal (no escaping needed)."""
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def _pdf_name(name: str) -> bytes:
    return b"/" + "".join(c if c.isalnum() or c in "-_." else f"#{ord(c):02X}" for c in name).encode()


def _updated(data: bytes, reader, objects: dict[int, bytes], size: int | None = None) -> bytes:
    """``data`` (a PDF read by ``reader``) followed by an incremental update that holds ``objects`` (object
    number -> its body), their cross-reference section and a trailer pointing back to the previous one.

    ``size``: the /Size of ``data``'s last trailer, when ``reader`` read an earlier state of the file (the
    same file before an update of ours, which changed no trailer entry but /Size, /Prev and the objects
    it replaced); else the reader's /Size."""
    from io import BytesIO

    trailer = reader.trailer
    size = int(trailer["/Size"]) if size is None else size
    prev = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    tail = BytesIO()
    tail.write(b"\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(data) + tail.tell()
        tail.write(b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n")
    xref_at = len(data) + tail.tell()
    tail.write(b"xref\n")
    for num in sorted(objects):
        tail.write(b"%d 1\n%010d 00000 n \n" % (num, offsets[num]))
    new_size = _size_after(size, objects)
    tail.write(b"trailer\n<< /Size %d /Root %d 0 R /Prev %d" % (new_size, trailer.raw_get("/Root").idnum, prev))
    if "/Info" in trailer:
        tail.write(b" /Info %d 0 R" % trailer.raw_get("/Info").idnum)
    if "/ID" in trailer:
        tail.write(b" /ID ")
        trailer.raw_get("/ID").write_to_stream(tail)
    tail.write(b" >>\nstartxref\n%d\n%%%%EOF\n" % xref_at)
    return data + tail.getvalue()


def _size_after(size: int, objects: dict[int, bytes]) -> int:
    """The /Size of a PDF whose last /Size was ``size`` after an update that writes ``objects``."""
    return max(size, max(objects) + 1)


def write_outline(pdf_path: Path, items, reader=None, size: int | None = None) -> int:
    """Replace the PDF's bookmarks with ``items`` (see :func:`outline`), by an incremental update
    appended to the file (the book is not rewritten: a new catalog, the outline's objects, their
    cross-reference section). Chromium's own outline ran words together at line breaks and
    repeated titles. Returns the number of bookmarks.

    ``reader`` and ``size``: a pypdf reader of the file as Chromium wrote it and the /Size of the file now,
    when only :func:`_lay_over` updated it since (it replaced page objects by ones with the same number,
    annotations and place in the page tree, and left the catalog, names and trailer entries alone, so the
    reader answers what one of the file now would; reading the 160,000 objects again cost 1.5 CPU-s)."""
    from io import BytesIO

    from pypdf import PdfReader
    from pypdf.generic import NameObject

    data = pdf_path.read_bytes()
    if reader is None:
        reader = PdfReader(BytesIO(data))
    trailer = reader.trailer
    root_ref = trailer.raw_get("/Root")
    size = int(trailer["/Size"]) if size is None else size
    catalog = reader.trailer["/Root"]
    numbers = iter(range(size, size + 1 + len(items) + sum(len(c) for _, _, c in items)))
    top = next(numbers)
    objects: dict[int, bytes] = {}

    def chain(parent: int, entries) -> tuple[int, int, int]:
        ids = [next(numbers) for _ in entries]
        count = 0
        for i, (num, entry) in enumerate(zip(ids, entries)):
            title, dest, kids = entry if len(entry) == 3 else (*entry, [])
            target = _pdf_name(dest) if isinstance(dest, str) else b"[%d 0 R /Fit]" % dest.idnum
            body = b"<< /Title " + _pdf_text(title) + b" /Parent %d 0 R /Dest " % parent + target
            if i:
                body += b" /Prev %d 0 R" % ids[i - 1]
            if i + 1 < len(ids):
                body += b" /Next %d 0 R" % ids[i + 1]
            if kids:
                first, last, n = chain(num, kids)
                body += b" /First %d 0 R /Last %d 0 R /Count -%d" % (first, last, n)
            objects[num] = body + b" >>"
            count += 1
        return ids[0], ids[-1], count

    # a heading whose id Chromium did not write as a destination (it writes those a link points to): its
    # bookmark opens the first page, from its part's start on, where its text is
    destinations = reader.named_destinations     # pypdf makes this dictionary anew at each use
    named = {str(k).lstrip("/") for k in destinations}
    missing = [(i, j) for i, (_, dest, kids) in enumerate(items) for j, (_, d) in enumerate(kids) if d not in named]
    if missing:
        import pypdfium2 as pdfium

        squeeze = lambda s: re.sub(r"\W+", "", s).lower()  # noqa: E731
        doc = pdfium.PdfDocument(str(pdf_path))
        texts: dict[int, str] = {}      # a page's text, read when a search first reaches it (the search
                                        # finds the same page as over all the pages' texts, read first)

        def text(k: int) -> str:
            if k not in texts:
                texts[k] = squeeze(doc[k].get_textpage().get_text_bounded())
            return texts[k]

        try:
            items = [(title, dest, list(kids)) for title, dest, kids in items]
            for i, j in missing:
                parent = destinations.get("/" + items[i][1]) or destinations.get(items[i][1])
                start = reader.get_destination_page_number(parent) if parent is not None else 0
                title, _ = items[i][2][j]
                page = next((k for k in range(start, len(doc)) if squeeze(title) in text(k)), start)
                items[i][2][j] = (title, reader.pages[page].indirect_reference)
        finally:
            doc.close()
    first, last, count = chain(top, items)
    objects[top] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first, last, count)
    out = BytesIO()
    out.write(b"<<")
    for k in list(catalog.keys()):
        if k in ("/Outlines", "/PageMode"):
            continue
        NameObject(k).write_to_stream(out)
        out.write(b" ")
        catalog.raw_get(k).write_to_stream(out)
        out.write(b" ")
    out.write(b"/Outlines %d 0 R /PageMode /UseOutlines >>" % top)
    objects[root_ref.idnum] = out.getvalue()
    pdf_path.write_bytes(_updated(data, reader, objects, size))
    return sum(1 + len(c) for _, _, c in items)


def _start_pages(reader, order) -> dict[str, int]:
    """The first page of each book page (``reader``: pypdf's of the printed book): Chromium writes every
    id of the document as a named destination."""
    named = reader.named_destinations
    found = {}
    for page, _, _ in order:
        dest = named.get("/" + _key(page)) or named.get(_key(page))
        if dest is not None:
            found[page] = reader.get_destination_page_number(dest) + 1
    return found


PAGE = {"format": "A4", "header_template": "<div></div>",
        "margin": {"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"}}

# For the second print, in the page that printed the book: each contents slot gets its page number, and
# every other mark is hidden (visibility and transparent colours move nothing), on no background.
NUMBERS_ONLY = """(numbers) => {
  for (const slot of document.querySelectorAll(".pdf-toc-num")) { slot.textContent = numbers[slot.dataset.part] || ""; }
  const style = document.createElement("style");
  style.textContent = "* { visibility: hidden !important; } .pdf-toc-num { visibility: visible !important; }"
                      + " html, body { background: transparent !important; }";
  document.head.append(style);
}"""


async def _print(html_path: Path, book_pdf: Path, numbers_pdf: Path, order):
    """Print the book into ``book_pdf`` and return where each part starts, with the pypdf reader of the
    book that said so; then print its first pages, up to the end of the contents, into ``numbers_pdf``:
    the same document in the same page, laid out the same way, showing nothing but the contents' page
    numbers."""
    from playwright.async_api import async_playwright
    from pypdf import PdfReader

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = await browser.new_context()
        # the document is a local file: nothing may come from another host
        await context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(("file:", "data:"))
                            else r.abort("blockedbyclient"))
        page = await context.new_page()
        await page.goto(html_path.as_uri(), wait_until="load", timeout=180_000)
        await page.evaluate("document.fonts.ready")
        await page.pdf(path=str(book_pdf), print_background=True, outline=True, tagged=True,
                       display_header_footer=True, footer_template=FOOTER, **PAGE)
        reader = PdfReader(str(book_pdf))
        numbers = _start_pages(reader, order)
        if numbers:
            await page.evaluate(NUMBERS_ONLY, {_key(p): str(n) for p, n in numbers.items()})
            # the same header and footer room (the footer left empty), only the pages before the first part
            await page.pdf(path=str(numbers_pdf), page_ranges=f"1-{max(1, min(numbers.values()) - 1)}",
                           print_background=False, outline=False, tagged=False, display_header_footer=True,
                           footer_template="<div></div>", **PAGE)
        await browser.close()
    return numbers, reader


def _lay_over(book_pdf: Path, numbers_pdf: Path, result: Path, book=None) -> int:
    """``book_pdf`` with each page of ``numbers_pdf`` drawn over the same page, written to ``result``.

    An incremental update appended to the book (the book is not rewritten, so its outline, named
    destinations, links and tagged structure stay as Chromium wrote them): each page of the numbers
    becomes a form XObject with its own resources, and the book's page draws it after its own content
    (which is wrapped in q/Q, so the form starts from the page's initial graphics state). pypdf's own
    merge_page with an incremental writer took about 14 CPU-s here for the 640-page book.

    ``book``: pypdf's reader of ``book_pdf``, if there is one already. Returns the /Size of ``result``."""
    from io import BytesIO

    from pypdf import PdfReader
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject, NumberObject, StreamObject

    data = book_pdf.read_bytes()
    book, numbers = book or PdfReader(BytesIO(data)), PdfReader(str(numbers_pdf))
    objects: dict[int, bytes] = {}
    fresh = iter(range(int(book.trailer["/Size"]), 1 << 30))
    copied: dict[int, int] = {}          # object of the numbers' PDF -> its number in the book

    def write(obj, out: BytesIO, own: bool) -> None:
        """Write ``obj``; with ``own``, an object of the numbers' PDF, whose references are copied over."""
        if isinstance(obj, IndirectObject):
            out.write(b"%d 0 R" % (copy(obj) if own else obj.idnum))
        elif isinstance(obj, DictionaryObject):
            out.write(b"<<")
            for key, value in obj.items():
                NameObject(key).write_to_stream(out)
                out.write(b" ")
                write(value, out, own)
                out.write(b" ")
            out.write(b">>")
        elif isinstance(obj, ArrayObject):
            out.write(b"[")
            for value in obj:
                write(value, out, own)
                out.write(b" ")
            out.write(b"]")
        else:
            obj.write_to_stream(out)

    def raw_copy(d: DictionaryObject, leave=()) -> DictionaryObject:
        """A copy of ``d`` whose values are as stored (references stay references)."""
        return DictionaryObject({NameObject(k): d.raw_get(k) for k in d.keys() if k not in leave})

    def stream(head: DictionaryObject, raw: bytes, own: bool) -> bytes:
        out = BytesIO()
        head = raw_copy(head, leave=("/Length",))
        head[NameObject("/Length")] = NumberObject(len(raw))
        write(head, out, own)
        return out.getvalue() + b"\nstream\n" + raw + b"\nendstream"

    def copy(ref: IndirectObject) -> int:
        if ref.idnum not in copied:
            copied[ref.idnum] = num = next(fresh)
            obj = ref.get_object()
            if isinstance(obj, StreamObject):
                objects[num] = stream(obj, obj._data, own=True)
            else:
                out = BytesIO()
                write(obj, out, own=True)
                objects[num] = out.getvalue()
        return copied[ref.idnum]

    for i, over in enumerate(numbers.pages):
        form = DictionaryObject({NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
                                 NameObject("/BBox"): over.mediabox, NameObject("/Resources"): over.raw_get("/Resources")})
        form_num = next(fresh)
        drawn = over.raw_get("/Contents").get_object() if "/Contents" in over else ArrayObject()
        drawn = drawn if isinstance(drawn, ArrayObject) else [drawn]
        objects[form_num] = stream(form, b"\n".join(part.get_object().get_data() for part in drawn), own=True)
        before, after = next(fresh), next(fresh)
        objects[before] = stream(DictionaryObject(), b"q", own=False)
        objects[after] = stream(DictionaryObject(), b"Q q /NetlabNumbers Do Q", own=False)
        page = book.pages[i]
        contents = page.raw_get("/Contents")
        parts = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
        resources = raw_copy(page["/Resources"])
        xobjects = raw_copy(resources["/XObject"]) if "/XObject" in resources else DictionaryObject()
        xobjects[NameObject("/NetlabNumbers")] = IndirectObject(form_num, 0, book)
        resources[NameObject("/XObject")] = xobjects
        updated = raw_copy(page, leave=("/Contents", "/Resources"))
        updated[NameObject("/Resources")] = resources
        updated[NameObject("/Contents")] = ArrayObject([IndirectObject(before, 0, book), *parts,
                                                        IndirectObject(after, 0, book)])
        out = BytesIO()
        write(updated, out, own=False)
        objects[page.indirect_reference.idnum] = out.getvalue()
    result.write_bytes(_updated(data, book, objects))
    return _size_after(int(book.trailer["/Size"]), objects)


def misplaced_numbers(pdf_path: Path, order, numbers: dict[str, int], reader=None) -> list[str]:
    """Each part's number must be the only number on the first line of its entry in the contents, right of
    its title's link (the link's rectangle, written by Chromium, marks the line). The problems found.
    ``reader``: pypdf's of the book as Chromium printed it, if there is one (:func:`_lay_over` leaves the
    pages' links as they are); the text is read from ``pdf_path``."""
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    if reader is None:
        reader = PdfReader(str(pdf_path))
    last = min(numbers.values()) - 1 if numbers else 0
    links: dict[str, tuple[int, list[float]]] = {}      # part -> (page, rectangle of its title's first line)
    for i in range(last):
        for annot in reader.pages[i].get("/Annots") or []:
            annot = annot.get_object()
            dest = str(annot.get("/Dest", "")).lstrip("/")
            rect = [float(v) for v in annot.get("/Rect", [0, 0, 0, 0])]
            if dest and (dest not in links or (links[dest][0] == i and rect[3] > links[dest][1][3])):
                links[dest] = (i, rect)
    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        runs = []
        for i in range(last):
            textpage = doc[i].get_textpage()
            for k in range(textpage.count_rects()):
                left, bottom, right, top = textpage.get_rect(k)
                runs.append((i, left, (bottom + top) / 2, textpage.get_text_bounded(left, bottom, right, top).strip()))
    finally:
        doc.close()
    problems = []
    for page, number in numbers.items():
        if _key(page) not in links:
            problems.append(f"{page}: no link to it in the contents")
            continue
        at, (x0, y0, x1, y1) = links[_key(page)]
        found = [text for i, left, middle, text in runs if i == at and y0 <= middle <= y1 and left >= x1 and text.isdigit()]
        if found != [str(number)]:
            problems.append(f"{page}: the contents show {found} on its line, not [{number!r}]")
    return problems


def build(root: Path, out: Path, meta: dict | None = None) -> dict:
    logging.getLogger("pypdf").setLevel(logging.ERROR)   # Chromium's trailer size: a harmless warning
    root, out = Path(root).resolve(), Path(out).resolve()
    order = page_order(root)
    meta = meta or {}
    meta.setdefault("title", order[0][1])
    meta.setdefault("author", "The netlab authors")
    meta.setdefault("url", "")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="netlab-pdf-") as tmp:
        # the document sits beside links to every top-level file and folder of the site, so that the
        # site's stylesheets, fonts and images load by their relative paths while nothing is written
        # into the site (its checks may be reading it meanwhile: make test prints the PDF beside them)
        shadow = Path(tmp) / "site"
        shadow.mkdir()
        for entry in root.iterdir():
            (shadow / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
        html_path = shadow / "netlab-print.html"
        book_pdf, numbers_pdf = Path(tmp) / "book.pdf", Path(tmp) / "numbers.pdf"
        # each page is parsed once: its bookmarks are read from the parse, which its article then changes
        pages, items, articles = {p for p, _, _ in order}, [], []
        for page, title, _ in order:
            soup = _parse(root, page)
            items.append(_outline_item(soup, page, title))
            articles.append(_article(root, page, pages, meta["url"], soup=soup))
            del soup
        html_path.write_text(document(root, order, None, meta, articles), encoding="utf-8")
        del articles
        # Printed once; the page numbers of the contents are then printed in the same page, alone, and laid
        # over the book's first pages. (An earlier overlay printed another document, the contents without
        # the book, whose lines drifted from the book's by up to a line; this one is the book's own layout,
        # and each number is checked to sit on its part's line, right of the link to it.)
        # pypdf reads the printed book once (1.5 CPU-s for its 160,000 objects): the updates below replace
        # no object but the pages' (same numbers, same links, same page tree), so the reader serves them all
        numbers, reader = asyncio.run(_print(html_path, book_pdf, numbers_pdf, order))
        size = None
        if numbers:
            size = _lay_over(book_pdf, numbers_pdf, out, reader)
            if problems := misplaced_numbers(out, order, numbers, reader):
                raise RuntimeError("pdf: the contents' page numbers are not where they belong:\n" + "\n".join(problems))
        else:
            shutil.copyfile(book_pdf, out)
        n = len(reader.pages)
    bookmarks = write_outline(out, items, reader, size)
    return {"bookmarks": bookmarks, "pages": n, "chapters": len(order), "numbered": len(numbers), "seconds": time.perf_counter() - started}


def site_url(root: Path) -> str:
    """The published site's address, from its sitemap: a page's, up to its book/ or labs/ folder (a project
    site, https://OWNER.github.io/NAME/, keeps its NAME/); empty without a sitemap."""
    sitemap = Path(root) / "sitemap.xml"
    m = re.search(r"<loc>(https?://[^<]*?/)(?:book|labs)/", sitemap.read_text()) if sitemap.is_file() else None
    return m.group(1) if m else ""


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.split("How:")[0].strip())
        return 2
    root, out = Path(argv[0]), Path(argv[1])
    if not (root / "index.html").is_file():
        print(f"pdf: no built site in {root}: run `make book` first")
        return 1
    if not os.access(CHROMIUM, os.X_OK):
        print(f"pdf: Chromium not found at {CHROMIUM} (Debian: apt-get install chromium; or set NETLAB_CHROMIUM)")
        return 1
    meta = {}
    conf = Path(__file__).resolve().parents[2] / "_config.yml"
    if conf.is_file():
        text = conf.read_text(encoding="utf-8")
        if m := re.search(r'^title:\s*"?(.*?)"?\s*$', text, re.M):
            meta["title"] = m.group(1)
        if m := re.search(r'^author:\s*"?(.*?)"?\s*$', text, re.M):
            meta["author"] = m.group(1)
    if url := site_url(root):
        meta["url"] = url
    result = build(root, out, meta)
    print(f"pdf: {out} — {result['pages']} pages, {result['chapters']} parts of the book "
          f"({result['numbered']} with a page number in the contents), {result['seconds']:.0f} s")
    if result["numbered"] < result["chapters"]:
        print("pdf: some parts of the book have no page number in the contents (their title was not found)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
