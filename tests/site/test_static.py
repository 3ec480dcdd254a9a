"""The built HTML, checked without a browser: offline, linked, described, complete.

Every page the build produced is checked (discovered from the build output).
"""

import re

import pytest

from tests.site import static_checks
from tests.site.sitefiles import all_pages, content_pages, redirect_target

pytestmark = pytest.mark.site


def _explain(problems):
    return "\n".join(problems)


def test_the_site_has_its_parts(site_root):
    pages = all_pages(site_root)
    assert "search.html" in pages
    assert any(p.startswith("labs/") for p in pages), "no lab page was built"
    assert any(p.startswith("book/") for p in pages), "no reading page was built"
    assert (site_root / "404.html").is_file(), "no 404.html (GitHub Pages shows it for a missing page)"


def test_formulas_are_typeset_at_build_time(site_root):
    """Every formula is MathML in the page (book/_ext/mathml.py): no page loads MathJax or holds raw TeX math."""
    problems, n = [], 0
    for page in all_pages(site_root):
        text = (site_root / page).read_text(encoding="utf-8", errors="replace")
        if "mathjax" in text.lower() and re.search(r"<script[^>]+mathjax", text, re.I):
            problems.append(f"{page} loads MathJax")
        for m in re.finditer(r'<(?:span|div) class="math notranslate nohighlight"[^>]*>', text):
            n += 1
            if "<math" not in text[m.end():m.end() + 400]:
                problems.append(f"{page}: a formula is not MathML: {text[m.end():m.end() + 80]}")
        problems += [f"{page}: a formula could not be converted: {m[:80]}"
                     for m in re.findall(r'<code class="math-error">(.*?)</code>', text)]
    assert n > 50, f"only {n} formulas in the whole site: is math rendered at all?"
    assert not problems, _explain(problems)


def test_index_redirects_to_a_page(site_root):
    target = redirect_target(site_root, "index.html")
    assert target is None or (site_root / target).is_file(), f"index.html redirects to a missing {target}"


def test_no_external_resources(site_root, page):
    """A page references no script, stylesheet, font, image or frame on another host."""
    assert not (problems := static_checks.external_resources(site_root, page)), _explain(problems)


def test_internal_links_and_anchors_resolve(site_root, page):
    assert not (problems := static_checks.broken_links(site_root, page)), _explain(problems)


def test_images_have_alternative_text(site_root, page):
    assert not (problems := static_checks.images_without_alt(site_root, page)), _explain(problems)


def test_explorers_carry_every_frame(site_root, page):
    assert not (problems := static_checks.explorer_problems(site_root, page)), _explain(problems)


def test_no_page_prints_a_python_warning(site_root):
    """A warning a lab's cell printed (stderr) is noise to a reader and a sign of a broken figure: lab 1's phone
    figure printed matplotlib's "constrained_layout not applied" while its axes were squeezed to a sliver, and eight
    labs printed matplotlib's "findfont: Font family ... not found" from a foreign font list."""
    problems = []
    for page in content_pages(site_root):
        text = (site_root / page).read_text(encoding="utf-8", errors="replace")
        problems += [f"{page}: {m.group(0)[:120]}"
                     for m in re.finditer(r"\b(?:\w*(?:Warning|Error)|findfont): [^<\n]*", text)
                     if 'class="output stderr' in text[max(0, m.start() - 3000):m.start()]]
    assert not problems, _explain(problems)


def test_every_page_is_reachable(site_root):
    """No orphan page (e.g. a stale output of an older build): each is linked from another page."""
    pages = content_pages(site_root)
    reached = static_checks.linked_pages(site_root, all_pages(site_root))
    orphans = sorted(set(pages) - reached - {"genindex.html", "search.html"})
    assert not orphans, (f"pages no other page links to: {orphans} (left over from an older build? "
                         "rebuild from clean: make clean book)")


def test_the_registry_has_readable_sections_and_contents(site_root):
    """book/appendix-registry: sections named in words (not "Ibeth", "Ra", "Xgs"), each linked from an in-page contents."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((site_root / "book" / "appendix-registry.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.select_one("article.bd-article")
    # headings printed by a cell are rubrics (h3.rubric), written ones sections: either will do
    headings = article.select("h3")
    assert len(headings) >= 10, f"only {len(headings)} sections"
    titles = [h.get_text(" ", strip=True).rstrip("#").strip() for h in headings]
    assert not {"Ibeth", "Ra", "Xgs"} & set(titles), titles
    linked = {a["href"].lstrip("#") for a in article.select('a[href^="#"]')}
    def ids(h):
        return {h.get("id"), (h.parent.get("id") if h.parent.name == "section" else None)} | {x.get("id") for x in h.select("[id]")}
    unlinked = [t for h, t in zip(headings, titles) if not ids(h) & linked]
    assert not unlinked, f"sections missing from the in-page contents: {unlinked}"
    wide = [t for t in article.select("table") if len(t.select("thead th")) > 3]
    assert not wide, f"{len(wide)} tables with more than three columns"
