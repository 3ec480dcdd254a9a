"""Publishing: the workflow passes a linter, the repository URL lives in one place, and the built site has
what a published book has (sitemap, social metadata, a 404 page, launch and repository links)."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from tests.site.sitefiles import ROOT, all_pages, content_pages

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _repository_url() -> str:
    match = re.search(r"^repository:\s*\n\s+url:\s*(\S+)", (ROOT / "_config.yml").read_text(), re.M)
    assert match, "_config.yml has no repository.url"
    return match.group(1).rstrip("/")


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_passes_the_linter(workflow):
    """check-jsonschema against its vendored GitHub workflow schema (offline): keys, types, events, expressions."""
    done = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                           str(workflow)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflow_points_the_book_at_its_own_repository():
    """The Pages workflow replaces repository.url by the repository it runs in: its pattern must match it."""
    text = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    match = re.search(r'sed -i "s#([^#]+)#', text)
    assert match, "the workflow no longer sets repository.url"
    assert match.group(1) == _repository_url(), (match.group(1), _repository_url())
    assert ".ci/run" in text and "upload-pages-artifact" in text and "deploy-pages" in text


def test_the_repository_url_is_set_in_one_place():
    url = _repository_url()
    elsewhere = [p.relative_to(ROOT).as_posix() for d in ("book", "labs", "netlab", "_static")
                 for p in (ROOT / d).rglob("*") if p.is_file() and p.suffix in {".md", ".ipynb", ".py", ".js", ".css"}
                 and url in p.read_text(errors="replace")]
    assert not elsewhere, f"{url} is written out in {elsewhere}: use {{{{ repository_url }}}} (netlab_site.py)"


@pytest.mark.site
def test_sitemap_lists_every_page(site_root):
    path = site_root / "sitemap.xml"
    assert path.is_file(), "no sitemap.xml"
    locs = [e.text for e in ET.parse(path).getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert all(loc.startswith("https://") for loc in locs), locs[:3]
    listed = {loc.split("/", 4)[-1] if loc.count("/") >= 4 else "" for loc in locs}
    wanted = {p for p in content_pages(site_root) if p not in ("search.html", "genindex.html", "404.html")}
    assert wanted <= listed, f"not in the sitemap: {sorted(wanted - listed)}"
    assert "Sitemap:" in (site_root / "robots.txt").read_text()


@pytest.mark.site
def test_every_page_has_social_metadata(site_root):
    image = site_root / "_static" / "netlab-preview.png"
    assert image.is_file() and image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", "no preview image"
    problems = []
    for page in content_pages(site_root):
        if page == "404.html":
            continue
        text = (site_root / page).read_text(encoding="utf-8")
        tags = dict(re.findall(r'<meta property="(og:[a-z:]+)" content="([^"]*)"', text))
        for key in ("og:title", "og:description", "og:image", "og:url"):
            if not tags.get(key, "").strip():
                problems.append(f"{page}: no {key}")
        if tags.get("og:image") and not tags["og:image"].startswith("https://"):
            problems.append(f"{page}: og:image is not an absolute address")
        if not re.search(r'<meta name="description" content="[^"]{20,}"', text):
            problems.append(f"{page}: no description")
    assert not problems, "\n".join(problems[:20])


@pytest.mark.site
def test_404_page_is_self_contained(site_root):
    """GitHub Pages serves 404.html at any depth: it must load nothing by a path relative to itself."""
    path = site_root / "404.html"
    assert path.is_file()
    text = path.read_text()
    assert "Page not found" in text and 'name="q"' in text
    assert not re.search(r'<(script|link|img)\b', text), "404.html loads other files"


@pytest.mark.site
def test_launch_and_repository_links_come_from_repository_url(site_root):
    url = _repository_url()
    owner_repo = url.split("github.com/", 1)[-1]
    lab = next(p for p in content_pages(site_root) if p.startswith("labs/"))
    text = (site_root / lab).read_text(encoding="utf-8")
    binder = re.findall(r'href="(https://mybinder\.org/[^"]+)"', text)
    assert binder and all(owner_repo in b for b in binder), binder
    assert f'href="{url}"' in text, "no link to the repository"
    assert f"{url}/issues" in text, "no link to the issues"
    intro = (site_root / "book" / "intro.html").read_text(encoding="utf-8")
    assert f"{url}/discussions" in intro, "the landing page has no link to the discussions"


@pytest.mark.site
def test_the_pdf_edition_is_linked_from_every_page(site_root):
    missing = [p for p in content_pages(site_root) if p != "404.html"
               and "netlab.pdf" not in (site_root / p).read_text(encoding="utf-8")]
    assert not missing, f"no link to the PDF on {missing[:5]}"


@pytest.mark.site
def test_lab_sections_are_numbered_once(site_root):
    """The book numbers a lab's sections; the author's own "1." must not follow ("4.10.2. 1. Predict")."""
    twice = []
    for page in all_pages(site_root):
        text = (site_root / page).read_text(encoding="utf-8")
        twice += [f"{page}: {m}" for m in re.findall(r'<span class="section-number">[\d.]+ </span>\s*\d+[.)] [^<]{0,40}', text)]
    assert not twice, "\n".join(twice[:10])
