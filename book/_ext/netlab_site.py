"""Site hygiene for the published book: offline, no console errors, accessible.

Jupyter Book 1 always loads ``sphinx_thebe``. The book does not use Thebe (its
pages read with no kernel), yet sphinx-thebe adds to every page an inline script
declaring ``const THEBE_JS_URL`` (which points at unpkg.com) — twice, so every
page logs "Identifier 'THEBE_JS_URL' has already been declared" — and a loader
that would fetch Thebe from that CDN. This extension drops both from each page.

It sets the theme's ``default_mode`` (a template variable) to ``auto`` (follow the reader's system
setting): left empty, pydata-sphinx-theme logs "Got invalid theme mode" as a
console error on a reader's first visit.

It drops the theme's ``fontawesome.js`` (1.5 MB, more than half of what a
first visit to a page transfers): it only swaps the icons for inline SVGs, while
the theme's stylesheet already draws the same icons from the Font Awesome web
fonts it ships (``.fa-moon:before`` ... with ``@font-face``), fetched only when
used.

It drops the search scripts and the search index (170 KB) from every page but
the search page: they serve the theme's search-as-you-type, which the book
leaves off.

It cuts the theme's icon fonts (Font Awesome, 300 KB of WOFF2 fetched by nearly every
page) down to the icons the site uses: every ``fa-*`` class named in a page or a script
is kept (fontTools subsets the fonts' TrueType files to WOFF), and the stylesheet points
at the subsets.

It also mends two accessibility faults of the theme and of docutils that
axe-core reports as serious or critical, by rewriting the built HTML:

- the chapter toggles of the navigation (``<summary>`` holding only an icon)
  get an accessible name;
- bibliography entries inside ``role="list"`` carry ``role="doc-biblioentry"``,
  which is not a list item; they get ``role="listitem"``.

Publishing (the repository URL is set once, ``repository.url`` in ``_config.yml``):

- the site's address (``html_baseurl``) follows from it: ``https://github.com/OWNER/NAME``
  is published at ``https://OWNER.github.io/NAME/`` (set ``html.baseurl`` to override);
- ``{{ repository_url }}``, ``{{ issues_url }}`` and ``{{ discussions_url }}`` may be
  written in a page (MyST substitutions, also inside code blocks), and
  ``{{ repository_link }}``, ``{{ issues_link }}``, ``{{ discussions_link }}`` as links;
- ``sitemap.xml`` lists every page at its address, ``robots.txt`` points to it;
- every page carries its title, a description (its first paragraph) and a preview image
  (drawn at build time, ``_static/netlab-preview.png``) as Open Graph and Twitter metadata;
- ``404.html`` is a self-contained page (GitHub Pages serves it for any missing address,
  at any depth, so it loads nothing relative to itself).

Reading fixes:

- the author's own step numbers in a lab heading ("1. Predict") are dropped, since the
  book numbers the lab's sections itself (it read "4.10.2. 1. Predict").

The browser tests in ``tests/site`` check the result on every page.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlsplit

from docutils import nodes

SUMMARY = re.compile(r'<summary>(\s*<span class="toctree-toggle")')
FONTAWESOME_JS = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
# the theme's search-as-you-type loads the whole search index on every page (off in this book:
# the search page loads it when a reader searches)
SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>')
BIBLIOENTRY = re.compile(r'(<div class="citation" id="[^"]*" )role="doc-biblioentry"')


def _is_thebe(js) -> bool:
    filename = str(getattr(js, "filename", "") or "")
    body = str(getattr(js, "attributes", {}).get("body", ""))
    return filename.endswith("sphinx-thebe.js") or "THEBE_JS_URL" in body or "unpkg.com/thebe" in filename


def _drop_thebe(app, pagename, templatename, context, doctree) -> None:
    scripts = context.get("script_files")
    if isinstance(scripts, list):
        scripts[:] = [js for js in scripts if not _is_thebe(js)]


def _mend_html(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    for path in Path(app.outdir).rglob("*.html"):
        if "_static" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        mended = SUMMARY.sub(r'<summary aria-label="Show or hide the sections">\1', text)
        mended = BIBLIOENTRY.sub(r'\1role="listitem"', mended)
        mended = FONTAWESOME_JS.sub("", mended)
        if path.name != "search.html":
            mended = SEARCH_SCRIPTS.sub("", mended)
        depth = len(path.relative_to(app.outdir).parts) - 1
        mended = mended.replace('class="netlab-pdf-link" href="netlab.pdf"',
                                f'class="netlab-pdf-link" href="{"../" * depth}netlab.pdf"')
        if mended != text:
            path.write_text(mended, encoding="utf-8")


FA_FACE = re.compile(r'url\(\.\./vendor/fontawesome/webfonts/(fa-[a-z]+-\d+)\.woff2\) format\("woff2"\),'
                     r'url\(\.\./vendor/fontawesome/webfonts/\1\.ttf\) format\("truetype"\)')
FA_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"\\([0-9a-f]+)"')
FA_CLASS = re.compile(r"\bfa-[a-z0-9-]+")


def _subset_icons(app, exc) -> None:
    """Subset the Font Awesome fonts to the icons used anywhere in the site (see the module docstring)."""
    if exc is not None or app.builder.format != "html":
        return
    from fontTools import subset

    out = Path(app.outdir)
    css = out / "_static" / "styles" / "pydata-sphinx-theme.css"
    fonts = out / "_static" / "vendor" / "fontawesome" / "webfonts"
    if not css.is_file() or not fonts.is_dir():
        return
    text = css.read_text(encoding="utf-8")
    used = set()
    for path in list(out.rglob("*.html")) + list((out / "_static").rglob("*.js")):
        used |= set(FA_CLASS.findall(path.read_text(encoding="utf-8", errors="replace")))
    codepoints = set()
    for selectors, code in FA_RULE.findall(text):
        if used & {sel.split(":")[0].lstrip(".") for sel in selectors.split(",") if sel}:
            codepoints.add(int(code, 16))
    if not codepoints:
        return
    for name in sorted(set(FA_FACE.findall(text))):
        options = subset.Options()
        options.flavor = "woff"
        options.layout_features = ["*"]
        font = subset.load_font(str(fonts / f"{name}.ttf"), options)
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=codepoints)
        subsetter.subset(font)
        subset.save_font(font, str(fonts / f"{name}.subset.woff"), options)
    css.write_text(FA_FACE.sub(r'url(../vendor/fontawesome/webfonts/\1.subset.woff) format("woff")', text),
                   encoding="utf-8")


def _default_mode(app, pagename, templatename, context, doctree) -> None:
    context.setdefault("default_mode", "auto")


# --- publishing -------------------------------------------------------------------------------

def repository_url(config) -> str:
    return str((config.html_theme_options or {}).get("repository_url") or "").rstrip("/")


def pages_url(repo: str) -> str:
    """Where GitHub Pages publishes ``repo`` (https://github.com/OWNER/NAME -> https://OWNER.github.io/NAME/)."""
    parts = urlsplit(repo)
    path = [p for p in parts.path.split("/") if p]
    if parts.netloc.lower() != "github.com" or len(path) < 2:
        return ""
    owner, name = path[0], path[1].removesuffix(".git")
    if name.lower() == f"{owner.lower()}.github.io":
        return f"https://{name.lower()}/"
    return f"https://{owner.lower()}.github.io/{name}/"


def _config_inited(app, config) -> None:
    repo = repository_url(config)
    if repo and not config.html_baseurl:
        config.html_baseurl = pages_url(repo)
    subs = dict(getattr(config, "myst_substitutions", {}) or {})
    subs.setdefault("repository_url", repo)
    subs.setdefault("issues_url", f"{repo}/issues")
    subs.setdefault("discussions_url", f"{repo}/discussions")
    # as links (a substitution inside a link's target is not parsed as one)
    subs.setdefault("repository_link", f"[the repository]({repo})")
    subs.setdefault("issues_link", f"[open an issue]({repo}/issues)")
    subs.setdefault("discussions_link", f"[the discussions]({repo}/discussions)")
    config.myst_substitutions = subs


LAB_STEP = re.compile(r"^\s*\d+[.)]\s+(?=\S)")


def _doctree_read(app, doctree) -> None:
    subs = app.config.myst_substitutions
    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if "{{" in text:
            new = re.sub(r"\{\{\s*(repository_url|issues_url|discussions_url)\s*\}\}", lambda m: subs[m.group(1)], text)
            if new != text:
                block.children = [nodes.Text(new)]
                block.rawsource = new
    if not app.env.docname.startswith("labs/"):
        return
    for title in doctree.findall(nodes.title):
        first = title.children[0] if title.children else None
        if isinstance(first, nodes.Text) and LAB_STEP.match(first.astext()):
            title.replace(first, nodes.Text(LAB_STEP.sub("", first.astext(), count=1)))


def _description(doctree) -> str:
    if doctree is None:
        return ""
    for para in doctree.findall(nodes.paragraph):
        text = " ".join(para.astext().split())
        if len(text) > 40:
            return text if len(text) <= 200 else text[:197].rsplit(" ", 1)[0] + "..."
    return ""


def _social(app, pagename, templatename, context, doctree) -> None:
    base = app.config.html_baseurl
    title = re.sub(r"<[^>]+>", "", str(context.get("title") or app.config.project))
    site = str(app.config.html_title or app.config.project)
    description = _description(doctree) or str(app.config.html_context.get("description", "")) or site
    tags = [("og:type", "website"), ("og:site_name", site), ("og:title", title), ("og:description", description)]
    if base:
        tags += [("og:url", base + app.builder.get_target_uri(pagename)),
                 ("og:image", base + "_static/netlab-preview.png"), ("og:image:alt", site)]
    meta = "".join(f'<meta property="{k}" content="{html.escape(v)}" />\n' for k, v in tags)
    meta += f'<meta name="description" content="{html.escape(description)}" />\n'
    meta += '<meta name="twitter:card" content="summary_large_image" />\n'
    context["metatags"] = context.get("metatags", "") + meta


def _preview_image(path: Path, title: str) -> None:
    """A 1200 x 630 preview card (the size social sites show), drawn with matplotlib."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle

    fig = Figure(figsize=(12, 6.3), dpi=100, facecolor="#0b3d5c")
    head, _, tail = title.partition(":")
    fig.text(0.07, 0.62, head.strip(), color="white", fontsize=64, weight="bold")
    fig.text(0.07, 0.45, tail.strip() or title, color="#cfe8f7", fontsize=34)
    fig.text(0.07, 0.16, "RDMA · InfiniBand · Ethernet · NVLink · optics · Ultra Ethernet, with exact numbers",
             color="#cfe8f7", fontsize=18)
    for k in range(6):   # a small fat-tree motif
        fig.add_artist(Circle((0.72 + 0.04 * k, 0.83), 0.008, transform=fig.transFigure,
                                                 color="#ffb000"))
    fig.savefig(path, facecolor=fig.get_facecolor())


NOT_FOUND = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · {title}</title>{base}
<style>
body {{ font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5;
       color: #1b1b1b; background: #fff; }}
a {{ color: #0b5cad; }}
@media (prefers-color-scheme: dark) {{ body {{ color: #e6e6e6; background: #121212; }} a {{ color: #7cc0ff; }} }}
</style></head>
<body><main>
<h1>Page not found</h1>
<p>No page of <em>{title}</em> lives at this address: it may have moved when the book was reorganised.</p>
<ul>
<li><a href="{home}">Start at the first page</a></li>
<li><form action="{search}" method="get"><label>Search the book: <input type="search" name="q"></label>
<button type="submit">Search</button></form></li>
{issues}
</ul>
</main></body></html>
"""


def _publish(app, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    base = app.config.html_baseurl
    title = str(app.config.html_title or app.config.project)
    _preview_image(out / "_static" / "netlab-preview.png", title)
    repo = repository_url(app.config)
    issues = f'<li><a href="{repo}/issues">Report a broken link</a></li>' if repo else ""
    root = app.config.root_doc
    (out / "404.html").write_text(NOT_FOUND.format(
        title=html.escape(title), base=f'<base href="{base}">' if base else "",
        home=("" if base else "/") + app.builder.get_target_uri(root), search=("" if base else "/") + "search.html",
        issues=issues), encoding="utf-8")
    if not base:
        return
    skip = {"404.html", "genindex.html", "search.html"}
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html")
                   if not ({"_static", "_sources", "_images"} & set(p.relative_to(out).parts)))
    urls = [f"  <url><loc>{html.escape(base + p)}</loc></url>" for p in pages
            if p not in skip and "http-equiv=\"refresh\"" not in (out / p).read_text(encoding="utf-8")[:2000]]
    (out / "sitemap.xml").write_text('<?xml version="1.0" encoding="UTF-8"?>\n'
                                     '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
                                     + "\n".join(urls) + "\n</urlset>\n", encoding="utf-8")
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n", encoding="utf-8")


def setup(app):
    app.connect("config-inited", _config_inited)
    app.connect("doctree-read", _doctree_read)
    app.connect("html-page-context", _social)
    app.connect("build-finished", _publish)
    app.connect("build-finished", _subset_icons)
    app.connect("html-page-context", _default_mode)
    app.connect("html-page-context", _drop_thebe, priority=900)
    app.connect("build-finished", _mend_html)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
