"""Publishing: the workflow passes a linter, the repository URL lives in one place, and the built site has
what a published book has (sitemap, social metadata, a 404 page, launch and repository links)."""

import html
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
    # the one exception: a lab's install cell, which runs where no _config.yml is (Colab); the Pages workflow
    # rewrites it with _config.yml, and test_the_labs_install_cell_takes_the_repository_url checks it matches
    def written_out(p):
        text = p.read_text(errors="replace")
        return url in (re.sub(r'\\?"netlab @ git\+[^"\\]+', "", text) if p.suffix == ".ipynb" else text)

    elsewhere = [p.relative_to(ROOT).as_posix() for d in ("book", "labs", "netlab", "_static")
                 for p in (ROOT / d).rglob("*") if p.is_file() and p.suffix in {".md", ".ipynb", ".py", ".js", ".css"}
                 and written_out(p)]
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


@pytest.mark.site
def test_lab_page_contents_are_numbered_once(site_root):
    """The page contents (right sidebar, phone drawer) read the mended titles too (it read "4.10.2. 1. Switch latency")."""
    twice = []
    for page in content_pages(site_root):
        if page.startswith("labs/"):
            text = (site_root / page).read_text(encoding="utf-8")
            entries = re.findall(r'<li class="toc-h\d[^"]*toc-entry"><a [^>]*>\s*([^<]*)</a>', text)
            twice += [f"{page}: {e}" for e in entries if re.match(r"\d+[.)]\s", e)]
    assert not twice, "\n".join(twice[:10])


# --- labs that open anywhere (issue 34) ----------------------------------------------------------

LABS = sorted((ROOT / "labs").glob("lab*.ipynb"))
INSTALL = re.compile(r'"netlab @ git\+([^"]+)"')


def _install_cell(lab):
    import json

    for cell in json.loads(lab.read_text(encoding="utf-8"))["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "code" and INSTALL.search(text):
            return cell, text
    return None, ""


def test_the_labs_install_cell_takes_the_repository_url_and_does_nothing_inside_it():
    import json

    url = _repository_url()
    with_cell = [lab for lab in LABS if _install_cell(lab)[0] is not None]
    assert with_cell == LABS, f"no install cell in {sorted({p.name for p in LABS} - {p.name for p in with_cell})}"
    for lab in with_cell:
        cell, text = _install_cell(lab)
        assert INSTALL.search(text).group(1) == url, lab.name
        # a no-op where netlab imports: pip runs only under ImportError, before the lab's own imports
        assert re.match(r"try:.*\n\s+import netlab\b.*\nexcept ImportError:\n(\s+.*\n)*?\s+subprocess\.run\("
                        r"\[sys\.executable, \"-m\", \"pip\", \"install\"", text), lab.name
        assert text.index("except ImportError") < text.index("from netlab import"), lab.name
        first_code = next(c for c in json.loads(lab.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "code")
        assert INSTALL.search("".join(first_code["source"])), f"{lab.name}: the install is not the first code cell"
    # the Pages workflow rewrites the labs with _config.yml, so a fork installs from itself
    assert "_config.yml labs/*.ipynb" in (ROOT / ".github" / "workflows" / "pages.yml").read_text()


@pytest.mark.site
def test_colab_and_binder_launch_from_the_repository_url(site_root):
    owner, name = _repository_url().split("github.com/", 1)[-1].split("/")[:2]
    for lab in (p for p in content_pages(site_root) if p.startswith("labs/")):
        text = (site_root / lab).read_text(encoding="utf-8")
        notebook = lab.removesuffix(".html") + ".ipynb"
        colab = f"https://colab.research.google.com/github/{owner}/{name}/blob/main/{notebook}"
        assert f'href="{colab}"' in text, f"{lab}: no Colab button to {colab}"
        assert "Run this lab" in text and 'href="../netlab-labs.zip"' in text, f"{lab}: no note on running it"
        assert f"git clone {_repository_url()}.git" in re.sub(r"<[^>]+>", "", text), lab


@pytest.mark.site
def test_every_lab_in_one_archive_without_outputs(site_root):
    import json
    import zipfile

    with zipfile.ZipFile(site_root / "netlab-labs.zip") as z:
        names = sorted(n for n in z.namelist() if n.endswith(".ipynb"))
        assert [n.split("/")[-1] for n in names] == [p.name for p in LABS]
        for n in names:
            nb = json.loads(z.read(n))
            assert all(not c.get("outputs") for c in nb["cells"] if c["cell_type"] == "code"), n
            assert "widgets" not in nb.get("metadata", {}), n
        assert _repository_url() in z.read("netlab-labs/README.txt").decode()


@pytest.mark.site
def test_no_page_ships_widget_state(site_root):
    """The site never loads widget JavaScript, so the saved widget state (1.29 MB over 11 labs) is dropped."""
    heavy = [p for p in content_pages(site_root)
             if "application/vnd.jupyter.widget-state+json" in (site_root / p).read_text(encoding="utf-8")]
    assert not heavy, heavy


@pytest.mark.site
def test_changelog_citation_and_last_updated(site_root):
    changelog = (site_root / "book" / "changelog.html").read_text(encoding="utf-8")
    first_version = re.search(r"^## \[([0-9.]+)\]", (ROOT / "CHANGELOG.md").read_text(), re.M).group(1)
    assert f"[{first_version}]" in changelog and "Keep a" in changelog
    cff = (ROOT / "CITATION.cff").read_text()
    version = re.search(r"^version:\s*(\S+)", cff, re.M).group(1)
    title = re.search(r'^title:\s*"(.*)"', cff, re.M).group(1)
    for page in ("book/changelog.html", "book/ch00-how-to-use.html"):
        text = html.unescape(re.sub(r"<[^>]+>", "", (site_root / page).read_text(encoding="utf-8")))
        assert "@book{netlab," in text and f"Version {version}" in text and title.split(":")[0] in text, page
    # a date per page, from git: the date of the last commit that changed the chapter's source
    done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%cs", "--", "book/ch04-infiniband-vs-ethernet.md"],
                          capture_output=True, text=True)
    expected = done.stdout.strip()
    if expected:
        ch04 = (site_root / "book" / "ch04-infiniband-vs-ethernet.html").read_text(encoding="utf-8")
        assert f"Last updated on {expected}." in ch04


def test_the_pages_workflow_checks_out_the_whole_history():
    """Each page's "Last updated" date is the date of its last commit: a shallow clone (checkout's default
    depth 1) would date every page with the newest commit."""
    text = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    checkout = text[text.index("actions/checkout@"):].split("\n      - ", 1)[0]
    assert re.search(r"^\s+fetch-depth:\s*0\b", checkout, re.M), checkout


def test_the_pdf_links_a_site_file_to_the_site_or_not_at_all(tmp_path):
    """A diagram's link to its SVG (a file, not a page) pointed into the print's temporary folder (file://)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("netlab_book_pdf", ROOT / "book" / "_ext" / "pdf.py")
    pdf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pdf)
    (tmp_path / "book").mkdir()
    (tmp_path / "book" / "ch04.html").write_text(
        '<html><body><article class="bd-article"><p><a class="reference internal" href="ch05.html#x">next</a>'
        '<a class="reference internal netlab-diagram" href="../_images/incast.svg"><img src="../_images/incast.svg" '
        'alt="an incast"></a></p></article></body></html>', encoding="utf-8")
    pages = {"book/ch04.html", "book/ch05.html"}
    on_site = pdf._article(tmp_path, "book/ch04.html", pages, "https://example.github.io/netlab/")
    assert 'href="https://example.github.io/netlab/_images/incast.svg"' in on_site
    assert 'href="#p-book-ch05--x"' in on_site                       # a page stays a link inside the PDF
    plain = pdf._article(tmp_path, "book/ch04.html", pages)
    assert "incast.svg\"><img" not in plain and 'href="_images/incast.svg"' not in plain
    assert '<img alt="an incast"' in plain or 'alt="an incast"' in plain     # the diagram itself stays
    # the site's address keeps a project site's path (it printed https://owner.github.io/, without netlab/)
    (tmp_path / "sitemap.xml").write_text("<urlset><url><loc>https://owner.github.io/netlab/index.html</loc></url>"
                                          "<url><loc>https://owner.github.io/netlab/book/ch04.html</loc></url></urlset>")
    assert pdf.site_url(tmp_path) == "https://owner.github.io/netlab/"


PREDICT_H2 = re.compile(r"^[0-9.\s]*(predict|check your prediction)", re.I)
# each lab's predict-first answer, words of its result or explanation, that must sit behind the reveal
HIDDEN_ANSWERS = {"lab03-rdma": "The 8 bytes take 0.64 ns", "lab04-infiniband-vs-ethernet": "The lossy run takes several",
                  "lab10-across-datacenters": "About a ninth", "lab11-capstone": "designs meet the brief",
                  "lab02-links": "Serialization dominates", "lab07-nvlink-scale-up": "129.6 TB/s"}
# outputs that answer an inline "Predict" prompt (not a section of its own), each behind a reveal where first printed
INLINE_ANSWERS = {"lab03-rdma": ["bytes landed"], "lab05-fabrics-at-scale": ["of the ideal throughput", "up to the spines"],
                  "lab06-collectives": ["NCCL's tuner picks"], "lab07-nvlink-scale-up": ["on the PCIe mesh", "on one cable"],
                  "lab08-ultra-ethernet": ["last flow done after"], "lab09-optics-and-power": ["stops the job"],
                  "lab10-across-datacenters": ["peak queue", "per lossless priority and port"],
                  "lab11-capstone": ["optical link ends"]}


@pytest.mark.site
def test_every_labs_prediction_is_behind_a_reveal(site_root):
    from bs4 import BeautifulSoup

    labs = [p for p in content_pages(site_root) if p.startswith("labs/")]
    assert len(labs) == 11
    for lab in labs:
        soup = BeautifulSoup((site_root / lab).read_text(encoding="utf-8"), "html.parser")
        sections = [h.parent for h in soup.select("section > h2") if PREDICT_H2.match(h.get_text(" ", strip=True))]
        assert sections, f"{lab}: no Predict section"
        for section in sections:
            output = section.select_one(".cell_output")
            if output is not None:
                reveal = output.find_parent("details", class_="netlab-reveal")
                assert reveal is not None, f"{lab}: {section.h2.get_text(strip=True)} shows its result"
                assert not reveal.select("details.hide"), f"{lab}: a reveal inside the reveal"
        answer = HIDDEN_ANSWERS.get(lab.removeprefix("labs/").removesuffix(".html"))
        if answer:
            holder = soup.find(string=re.compile(re.escape(answer)))
            assert holder is not None, f"{lab}: {answer!r} not found"
            assert holder.find_parent("details", class_="netlab-reveal") is not None, f"{lab}: {answer!r} is shown"
        for phrase in INLINE_ANSWERS.get(lab.removeprefix("labs/").removesuffix(".html"), []):
            first = next((o for o in soup.select(".cell_output") if phrase in o.get_text()), None)
            assert first is not None, f"{lab}: no output prints {phrase!r}"
            reveal = first.find_parent("details", class_="netlab-reveal") or first.select_one("details.netlab-reveal")
            assert reveal is not None and phrase in reveal.get_text(), f"{lab}: {phrase!r} answers a prompt, shown"


@pytest.mark.site
def test_glossary_terms_link_once_per_page_to_their_entries(site_root):
    from bs4 import BeautifulSoup

    glossary = BeautifulSoup((site_root / "book" / "glossary.html").read_text(encoding="utf-8"), "html.parser")
    anchors = {el["id"] for el in glossary.select("dt[id]")}
    pages = [p for p in content_pages(site_root) if re.match(r"(labs/|book/ch\d)", p)]
    linked_pages = 0
    for page in pages:
        soup = BeautifulSoup((site_root / page).read_text(encoding="utf-8"), "html.parser")
        links = soup.select("article a.netlab-term")
        linked_pages += bool(links)
        targets = [a["href"].split("#", 1)[1] for a in links]
        assert len(targets) == len(set(targets)), f"{page}: a term linked twice"
        assert set(targets) <= anchors, f"{page}: links to no glossary entry: {set(targets) - anchors}"
        assert all(a["href"].split("#")[0].endswith("glossary.html") for a in links), page
        bad = [a for a in links if a.find_parent(["h1", "h2", "h3", "h4", "code", "pre", "math"])]
        assert not bad, f"{page}: a term linked in a heading, code or math: {bad[:2]}"
    assert linked_pages == len(pages), f"{len(pages) - linked_pages} chapters or labs link no glossary term"
