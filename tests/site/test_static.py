"""The built HTML, checked without a browser: offline, linked, described, complete.

Every page the build produced is checked (discovered from the build output).
"""

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
    assert (site_root / "_static" / "mathjax" / "tex-chtml.js").is_file(), "MathJax is not served by the site"


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


def test_every_page_is_reachable(site_root):
    """No orphan page (e.g. a stale output of an older build): each is linked from another page."""
    pages = content_pages(site_root)
    reached = static_checks.linked_pages(site_root, all_pages(site_root))
    orphans = sorted(set(pages) - reached - {"genindex.html", "search.html"})
    assert not orphans, (f"pages no other page links to: {orphans} (left over from an older build? "
                         "rebuild from clean: make clean book)")
