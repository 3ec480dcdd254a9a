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
  book numbers the lab's sections itself (it read "4.10.2. 1. Predict"), before the page's
  contents list is collected (it still read "4.10.2. 1. Switch latency");
- in a lab's "Predict" section (or a "Check your prediction" one, for a guess asked before an
  explorer), everything from the first code cell to the section's end, or to an explorer, is behind
  a reveal (``<details class="netlab-reveal">``), so the page does not print the answer under
  "write down your guess";
- an inline prediction prompt elsewhere in a lab gets the same reveal around the output of each
  code cell that answers it (``<details class="netlab-reveal netlab-reveal-output">`` inside the
  cell's output, so the code stays in view). A prompt is a paragraph of a section in which the
  word "Predict" (capitalised, alone: not "predicts", "Prediction" or "Predict-first") opens a
  sentence, in plain, bold or italic type ("Predict how much...", "... MTUs. **Predict:** which",
  "*Predict first:* a spine"), or opens a bold or italic span; "Predict" in inline code or math does
  not count. The cells that answer it are the code cells after the rest of its markdown cell, up to
  the next markdown, heading, explorer or exercise; if a later markdown cell, a heading, an explorer
  or an exercise comes before any code cell, nothing is hidden (an explorer is the experiment: it
  is never put behind a reveal). Prompts inside a "Predict" section are left to that section's
  reveal;
- every lab page says how to run it: in the browser as it is, on Binder or Colab, or locally,
  and links the notebook and ``netlab-labs.zip`` (every lab, outputs cleared, one archive);
- a page loads sphinx-design's stylesheet and script, and netlab's checker and explorer
  scripts, only if it uses them (no page uses sphinx-design);
- the widget state Jupyter saves in a notebook (``application/vnd.jupyter.widget-state+json``)
  is not shipped: the site never loads widget JavaScript, so nothing reads it (1.29 MB over
  the 11 labs).

A living book:

- each page's "Last updated on" date is the date of the last commit that changed its
  source (``git log``; none where the sources are not in a git work tree);
- ``{netlab-cite}`` writes a "cite this book" block (text and BibTeX) from ``CITATION.cff``;
- ``{netlab-variant-answers}`` lists every variant's answer of every varied exercise
  (``netlab.exercises.varied``) of the labs, read from the built lab pages (the instructor guide).

Glossary terms are linked at their first use in each chapter and lab by ``netlab_glossary``
(set up from here).

The browser tests in ``tests/site`` check the result on every page.
"""

from __future__ import annotations

import functools
import html
import math
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
# assets a page loads only when it uses them: sphinx-design (no page uses it; 62 KB), netlab's checker
# and explorer scripts (29 KB) on pages without an exercise or an explorer
SD_ASSETS = re.compile(r'\s*(?:<link rel="stylesheet" type="text/css" href="[^"]*_static/sphinx-design\.min\.css[^"]*" />'
                       r'|<script [^>]*src="[^"]*_static/design-tabs\.js[^"]*"></script>)')
NETLAB_SCRIPT = re.compile(r'\s*<script src="[^"]*_static/netlab-(exercise|explorer)\.js[^"]*"></script>')


def _unused_assets(page: str) -> str:
    if not re.search(r'class="(?:[^"]* )?sd-', page):
        page = SD_ASSETS.sub("", page)
    return NETLAB_SCRIPT.sub(lambda m: m.group(0) if f'class="netlab-{m.group(1)}' in page else "", page)


DIAGRAM_IMG = re.compile(r'(<img [^>]*class="netlab-diagram[^"]*" src="([^"]+\.svg)" style=")([^"]*)(")')
SVG_FONT = re.compile(r"font-size:\s*([0-9.]+)px")
SVG_VIEWBOX = re.compile(r'viewBox="[0-9.\-]+ [0-9.\-]+ ([0-9.]+) [0-9.]+"')
MIN_TEXT_PX = 11.0        # the smallest diagram text a phone reader gets, in CSS px


def _diagram_width(m: re.Match, page: Path) -> str:
    """The diagram's ``<img>`` with the width below which its smallest text would fall under 11 px."""
    svg = (page.parent / m.group(2)).resolve()
    if not svg.is_file() or "--netlab-min-width" in m.group(3):
        return m.group(0)
    text = svg.read_text(encoding="utf-8", errors="replace")
    sizes, box = [float(s) for s in SVG_FONT.findall(text)], SVG_VIEWBOX.search(text)
    if not sizes or box is None:
        return m.group(0)
    width = math.ceil(MIN_TEXT_PX * float(box.group(1)) / min(sizes))
    return f"{m.group(1)}{m.group(3).rstrip().rstrip(';')}; --netlab-min-width: {width}px;{m.group(4)}"


# the live widgets' saved state (ipywidgets models, PNGs included): read only by widget JavaScript,
# which the site does not load
WIDGET_STATE = re.compile(r'\s*<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>', re.S)


# --- explorer frames and SVG figures, written shorter (lab 4 was 1.70 MB, 0.14 MB of it quoting) ---
SVG_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
SVG_ATTR = re.compile(r'(\s)([\w:-]+)="([^"]*)"')
PATH_TOKEN = re.compile(r"([MLHVCSQTAZmlhvcsqtaz])|([^MLHVCSQTAZmlhvcsqtaz]+)")
SVG_SRC = re.compile(r'(src=")(data:image/svg\+xml;charset=utf-8,)([^"]*)(")')
EXPLORER_PIECES = re.compile(r'(<script type="application/json" class="netlab-explorer-(?:narrow-)?pieces">)(.*?)'
                             r'(</script>)', re.S)


def _short_path(d: str) -> str:
    """An SVG path's data without the L that an M or L before it implies, and without spaces around commands."""
    out, last = [], ""
    for cmd, args in PATH_TOKEN.findall(d):
        if cmd == "L" and last in ("M", "L"):
            out.append(" ")          # pairs after a moveto or a lineto are linetos
        elif cmd:
            out.append(cmd)
        else:
            out.append(" ".join(args.split()))
        last = cmd or last
    return re.sub(r" ?([MLHVCSQTAZmlhvcsqtaz]) ?", r"\1", "".join(out)).strip()


def _short_attr(m: re.Match) -> str:
    space, name, value = m.groups()
    if name == "style":
        value = re.sub(r"\s*([:;])\s*", r"\1", value).rstrip(";")
    elif name == "d":
        value = _short_path(value)
    elif name == "transform" and re.fullmatch(r"rotate\(-?0 [-0-9.]+ [-0-9.]+\)", value):
        return ""                    # matplotlib's rotate(-0 x y) of unrotated text
    quote = "'" if "'" not in value else '"'
    return f"{space}{name}={quote}{value}{quote}"


def compact_svg(svg: str) -> str:
    """``svg`` drawn the same, written shorter: attributes in single quotes (no ``&quot;`` in a page, no
    ``\\"`` in JSON), styles without spaces, paths without implied L commands, no ``rotate(-0 ...)``.

    Only the attributes inside tags change; text and ``<style>`` blocks are left as they are.
    """
    return SVG_TAG.sub(lambda tag: SVG_ATTR.sub(_short_attr, tag.group(0)), svg)


def _compact_src(m: re.Match) -> str:
    svg = compact_svg(html.unescape(m.group(3)))
    return m.group(1) + m.group(2) + svg.replace("&", "&amp;").replace('"', "&quot;") + m.group(4)


def _compact_pieces(m: re.Match) -> str:
    import json

    pieces = [compact_svg(p) for p in json.loads(m.group(2))]
    text = json.dumps(pieces, ensure_ascii=False, separators=(",", ":")).replace("</script", "<\\/script")
    return m.group(1) + text + m.group(3)


def compact_frames(page: str) -> str:
    """A page's SVG images (``data:`` URIs) and explorer frame pieces, each drawn as before, in fewer bytes."""
    return EXPLORER_PIECES.sub(_compact_pieces, SVG_SRC.sub(_compact_src, page))


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
        mended = WIDGET_STATE.sub("", mended)
        mended = compact_frames(mended)
        mended = _unused_assets(mended)
        mended = DIAGRAM_IMG.sub(functools.partial(_diagram_width, page=path), mended)
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
# a whole icon rule, at the start of a rule (an icon nobody uses is dropped from the stylesheet: 85 KB)
FA_WHOLE_RULE = re.compile(r'(?<=\})((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:"\\[0-9a-f]+"\}')
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
        if used & _fa_classes(selectors):
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
    text = FA_WHOLE_RULE.sub(lambda m: m.group(0) if used & _fa_classes(m.group(1)) else "", text)
    css.write_text(FA_FACE.sub(r'url(../vendor/fontawesome/webfonts/\1.subset.woff) format("woff")', text),
                   encoding="utf-8")


def _fa_classes(selectors: str) -> set[str]:
    return {sel.split(":")[0].lstrip(".") for sel in selectors.split(",") if sel}


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
    for section in list(doctree.findall(nodes.section)):
        title = section.next_node(nodes.title)
        if title is not None and title.parent is section and PREDICT_TITLE.match(title.astext()):
            _reveal_prediction(section)
    reveal_inline_prompts(doctree)
    _run_this_lab(app, doctree)


def _is_code_cell(node) -> bool:
    return isinstance(node, nodes.container) and node.get("nb_element") == "cell_code"


def _has_output(cell) -> bool:
    return any(isinstance(n, nodes.container) and n.get("nb_element") == "cell_code_output" and n.children
               for n in cell.findall(nodes.container))


REVEAL_OPEN = ('<details class="netlab-reveal"><summary>Show the result and why '
               '(write down your guess first)</summary>')
# a section that asks for a guess ("Predict first", "Predict again: ...") or answers one asked
# before an explorer ("Check your prediction: ...")
PREDICT_TITLE = re.compile(r"\s*(?:[0-9.]+\s+)?(?:predict|check your prediction)\b", re.I)


def _is_explorer(node) -> bool:
    return "netlab-explorer" in node.astext()


def _reveal_prediction(section) -> None:
    """Put the result of a "Predict" section behind a reveal: from its first code cell to the section's end.

    An explorer stays out (it is the experiment, and ends the reveal), as does a subsection; a cell
    tagged hide-output inside the reveal shows its output (the reveal already hides it).
    """
    children = list(section.children)
    start = next((i for i, n in enumerate(children) if _is_code_cell(n)), None)
    if start is None or _is_explorer(children[start]):
        return
    end, seen_output = start, False
    for i in range(start, len(children)):
        node = children[i]
        if isinstance(node, nodes.section) or (_is_code_cell(node) and _is_explorer(node)):
            break
        if _is_code_cell(node):
            seen_output = seen_output or _has_output(node)
        end = i
    if not seen_output:
        return
    for node in children[start:end + 1]:
        if _is_code_cell(node) and node.get("hide_mode") == "output":
            del node["hide_mode"]
    section.insert(end + 1, nodes.raw("", "</details>", format="html"))
    section.insert(start, nodes.raw("", REVEAL_OPEN, format="html"))


OUTPUT_REVEAL_OPEN = ('<details class="netlab-reveal netlab-reveal-output"><summary>Show the result '
                      '(write down your guess first)</summary>')
# "Predict" opening a sentence: at the paragraph's start or after a full stop, a question or an
# exclamation mark (and a closing quote or bracket); not "Predicts", "Prediction" or "Predict-first"
PROMPT_SENTENCE = re.compile(r"(?:^|[.!?][\"')\]]*\s+)Predict\b(?!-)")
# a bold or italic span that opens with "Predict" ("**Predict first.**", "*Predict:*")
PROMPT_LEAD = re.compile(r"\s*Predict\b(?!-)")
# MyST-NB numbers the lines of a notebook's cell i from (i + 1) * 10000 (no source map)
NB_CELL_LINES = 10000


def _prose(node) -> str:
    """``node``'s text with inline code and math each read as one letter (a ``Predict`` in code is no prompt)."""
    if isinstance(node, nodes.Text):
        return node.astext()
    if isinstance(node, (nodes.literal, nodes.math)):
        return "x"
    return "".join(_prose(child) for child in node.children)


def is_prediction_prompt(paragraph) -> bool:
    """Whether ``paragraph`` asks for a guess: "Predict" opens one of its sentences, or a bold or italic span."""
    if PROMPT_SENTENCE.search(_prose(paragraph).strip()):
        return True
    return any(PROMPT_LEAD.match(n.astext())
               for n in paragraph.findall(lambda n: isinstance(n, (nodes.strong, nodes.emphasis))))


def _is_interactive(cell) -> bool:
    """An explorer or an exercise checker: the reader uses it, so it is never behind a reveal."""
    text = cell.astext()
    return "netlab-explorer" in text or "netlab-exercise" in text


def _notebook_cell(node) -> int | None:
    """The notebook cell ``node`` came from, when MyST-NB's line numbers tell it (None otherwise)."""
    if _is_code_cell(node):
        return node.get("cell_index")
    line, source = node.line, str(node.source or "")
    if source.endswith(".ipynb") and line and line > NB_CELL_LINES:
        return line // NB_CELL_LINES - 1
    return None


def _answer_cells(section, prompt) -> list:
    """The code cells that answer ``prompt``: those after the rest of its markdown, up to the next
    markdown, heading, explorer or exercise (none if one of these comes first)."""
    children = list(section.children)
    prompt_cell = _notebook_cell(prompt)
    cells: list = []
    for node in children[children.index(prompt) + 1:]:
        if _is_code_cell(node):
            if _is_interactive(node):
                break
            cells.append(node)
            continue
        if cells or isinstance(node, nodes.section):
            break
        if isinstance(node, nodes.paragraph) and is_prediction_prompt(node):
            break                   # a second prompt answers for itself
        cell = _notebook_cell(node)
        if prompt_cell is not None and cell is not None and cell != prompt_cell:
            break                   # a later markdown cell before any code: the answer is not printed
    return cells


def _reveal_output(cell) -> bool:
    """Put a code cell's output behind a reveal, its code left in view; False if it has no output."""
    outputs = [n for n in cell.children if isinstance(n, nodes.container)
               and n.get("nb_element") == "cell_code_output" and n.children]
    if not outputs:
        return False
    for output in outputs:
        output.insert(0, nodes.raw("", OUTPUT_REVEAL_OPEN, format="html"))
        output.append(nodes.raw("", "</details>", format="html"))
    mode = cell.get("hide_mode")    # the reveal hides the output: no second toggle around it
    if mode == "output":
        del cell["hide_mode"]
    elif mode in ("input+output", "all"):
        cell["hide_mode"] = "input"
    return True


def reveal_inline_prompts(doctree) -> int:
    """Put the output of the code cells answering an inline prediction prompt behind a reveal.

    A prompt is a paragraph of a section (not of a list, an exercise or a "Predict" section, whose
    results are already revealed) for which :func:`is_prediction_prompt` holds. Returns how many
    outputs were put behind a reveal.
    """
    hidden = 0
    for paragraph in list(doctree.findall(nodes.paragraph)):
        section = paragraph.parent
        if not isinstance(section, nodes.section) or not is_prediction_prompt(paragraph):
            continue
        title = section.children[0] if section.children else None
        if isinstance(title, nodes.title) and PREDICT_TITLE.match(title.astext()):
            continue
        hidden += sum(_reveal_output(cell) for cell in _answer_cells(section, paragraph))
    return hidden


def _run_this_lab(app, doctree) -> None:
    """A note near the top of a lab: how to run it here, on Binder or Colab, or locally."""
    repo = repository_url(app.config)
    docname = app.env.docname
    top = doctree.next_node(nodes.section)
    if top is None or not repo:
        return
    depth = docname.count("/")
    note = nodes.admonition(classes=["note", "netlab-run-lab"])
    note += nodes.title("", "Run this lab")
    intro = nodes.paragraph()
    intro += nodes.Text("On this page the explorers and the exercise checkers work without a kernel. To run the "
                        "code: the rocket button at the top opens the lab on Binder or Colab (the first cell "
                        "installs netlab there); or download ")
    intro += nodes.reference("", "this notebook", refuri="../" * depth + "_sources/" + docname + ".ipynb",
                             classes=["netlab-download-notebook"])
    intro += nodes.Text(" or ")
    intro += nodes.reference("", "every lab in one archive", refuri="../" * depth + "netlab-labs.zip",
                             classes=["netlab-download-labs"])
    intro += nodes.Text(" and run it locally, with Python 3.11 or later:")
    note += intro
    code = f"git clone {repo}.git\ncd {repo.rsplit('/', 1)[-1]}\nmake install   # a virtual environment with netlab\nmake lab       # JupyterLab on labs/"
    note += nodes.literal_block(code, code, language="bash")
    tail = nodes.paragraph()
    tail += nodes.Text(f'Or, in any Python environment: pip install "netlab @ git+{repo}", then open the notebook.')
    note += tail
    children = list(top.children)
    at = next((i for i, n in enumerate(children) if isinstance(n, (nodes.section, nodes.container))), len(children))
    top.insert(at, note)


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


# --- a living book: last updated, cite this book, variants' answers, the labs in one archive -------

def _git_dates(srcdir: Path) -> dict[str, str]:
    """{path relative to ``srcdir``: date of the last commit that changed it} (empty outside git)."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", "-c", "safe.directory=*", "-C", str(srcdir), *args], capture_output=True,
                              text=True, check=True, timeout=60).stdout

    try:
        top = Path(git("rev-parse", "--show-toplevel").strip())
        log = git("log", "--format=@%cs", "--name-only", "--", ":(top)book", ":(top)labs")
    except (OSError, subprocess.SubprocessError):
        return {}
    # a staged copy of the sources (make's _build-src) maps to the files it copies
    prefix = srcdir.resolve().relative_to(top.resolve()).as_posix() if srcdir.resolve() != top.resolve() else ""
    dates: dict[str, str] = {}
    date = ""
    for line in log.splitlines():
        if line.startswith("@"):
            date = line[1:]
        elif line:
            dates.setdefault(line, date)
    if prefix and not any(k.startswith(prefix + "/") for k in dates):
        return dates            # the copy is not tracked: its files are the tracked ones at the top
    return {k.removeprefix(prefix + "/"): v for k, v in dates.items()} if prefix else dates


def _last_updated(app, pagename, templatename, context, doctree) -> None:
    if doctree is None or pagename not in app.env.all_docs:
        context["last_updated"] = None
        return
    dates = app.env.netlab_git_dates if hasattr(app.env, "netlab_git_dates") else None
    if dates is None:
        dates = app.env.netlab_git_dates = _git_dates(Path(app.srcdir))
    source = Path(app.env.doc2path(pagename)).relative_to(Path(app.srcdir)).as_posix()
    context["last_updated"] = dates.get(source)


def _citation_file(srcdir: Path) -> Path | None:
    for folder in (srcdir, *srcdir.parents):
        if (folder / "CITATION.cff").is_file():
            return folder / "CITATION.cff"
    return None


def citation(cff: dict, url: str) -> tuple[str, str]:
    """(a reference in words, a BibTeX entry) for the book, from CITATION.cff's fields."""
    authors = [a.get("name") or " ".join(x for x in (a.get("given-names"), a.get("family-names")) if x)
               for a in cff.get("authors", [])]
    year = str(cff.get("date-released", ""))[:4]
    title, version = cff.get("title", ""), cff.get("version", "")
    words = f"{' and '.join(authors)} ({year}). {title}. Version {version}. {url}"
    bib = ("@book{netlab,\n"
           f"  author = {{{{{' and '.join(authors)}}}}},\n"
           f"  title = {{{{{title}}}}},\n"
           f"  year = {{{year}}},\n"
           f"  version = {{{version}}},\n"
           f"  url = {{{url}}},\n"
           "}")
    return words, bib


from docutils.parsers.rst import Directive  # noqa: E402


class CiteDirective(Directive):
    """``{netlab-cite}``: how to cite the book, from CITATION.cff (text and BibTeX)."""

    has_content = False

    def run(self):
        import yaml

        env = self.state.document.settings.env
        path = _citation_file(Path(env.srcdir))
        if path is None:
            raise self.error("netlab-cite: no CITATION.cff in the book's folder or above it")
        env.note_dependency(str(path))
        cff = yaml.safe_load(path.read_text(encoding="utf-8"))
        url = env.config.html_baseurl or repository_url(env.config)
        words, bib = citation(cff, url)
        box = nodes.container(classes=["netlab-cite"])
        para = nodes.paragraph()
        para += nodes.Text(words)
        box += para
        box += nodes.literal_block(bib, bib, language="bibtex")
        return [box]


class VariantAnswersDirective(Directive):
    """``{netlab-variant-answers}``: a place the build fills with every variant's answer (see _variant_answers)."""

    has_content = False

    def run(self):
        return [nodes.raw("", '<div class="netlab-variant-answers"></div>', format="html")]


VARIANTS_SCRIPT = re.compile(r'<div class="netlab-exercise netlab-varied" data-key="([^"]*)" data-spec="([^"]*)"[^>]*>'
                             r'.*?<script type="application/json" class="netlab-exercise-variants">(.*?)</script>', re.S)


def _variant_answers(app, exc) -> None:
    """Fill ``{netlab-variant-answers}`` with a table per varied exercise of the labs, read from their pages."""
    if exc is not None or app.builder.format != "html":
        return
    import json

    out = Path(app.outdir)
    places = [p for p in out.rglob("*.html") if '<div class="netlab-variant-answers"></div>' in
              p.read_text(encoding="utf-8")]
    if not places:
        return
    parts = []
    for page in sorted((out / "labs").glob("*.html")):
        text = page.read_text(encoding="utf-8")
        found = VARIANTS_SCRIPT.findall(text)
        if not found:
            continue
        head = re.search(r'<h1>([^\n]*?)<a class="headerlink"', text)
        name = re.sub(r"<[^>]+>", "", head.group(1)).strip() if head else page.stem
        parts.append(f'<h3>{name}</h3>')
        for key, _, variants in found:
            rows = json.loads(variants)
            unit = html.escape(json.loads(html.unescape(_)).get("unit", ""))
            parts.append(f'<p><strong>{html.escape(key)}</strong> ({len(rows)} variants; variant 0 is the '
                         f'lab\'s own, worked in its solution)</p>')
            body = "".join(f"<tr><td>{i}</td><td>{html.escape(r['prompt'])}</td>"
                           f"<td>{html.escape(_fmt(r['spec']['answer']))} {unit}</td></tr>" for i, r in enumerate(rows))
            parts.append('<div class="pst-scrollable-table-container"><table class="table netlab-variant-table">'
                         '<thead><tr><th>variant</th><th>question</th><th>answer</th></tr></thead>'
                         f'<tbody>{body}</tbody></table></div>')
    filled = "".join(parts) or "<p>No lab has varied exercises yet.</p>"
    for place in places:
        text = place.read_text(encoding="utf-8")
        place.write_text(text.replace('<div class="netlab-variant-answers"></div>',
                                      f'<div class="netlab-variant-answers">{filled}</div>'), encoding="utf-8")


def _fmt(x: float) -> str:
    """An answer to 4 significant digits, as the checker writes it (netlab.exercises.fmt)."""
    from netlab.exercises import fmt

    return fmt(x)


def _labs_archive(app, exc) -> None:
    """``netlab-labs.zip`` in the site: every lab notebook, outputs cleared, and how to run them."""
    if exc is not None or app.builder.format != "html":
        return
    import json
    import zipfile

    labs = sorted((Path(app.srcdir) / "labs").glob("*.ipynb"))
    if not labs:
        return
    repo = repository_url(app.config)
    readme = ("netlab labs\n===========\n\nEach notebook installs netlab from the repository in its first cell when\n"
              f"netlab is not installed ({repo}).\nTo run them all locally:\n\n    git clone {repo}.git\n"
              "    cd netlab && make install && make lab\n\nOr: python -m pip install "
              f"\"netlab @ git+{repo}\" jupyterlab, then jupyter lab in this folder.\n")
    with zipfile.ZipFile(Path(app.outdir) / "netlab-labs.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("netlab-labs/README.txt", readme)
        for lab in labs:
            nb = json.loads(lab.read_text(encoding="utf-8"))
            nb.get("metadata", {}).pop("widgets", None)
            for cell in nb.get("cells", []):
                if cell.get("cell_type") == "code":
                    cell["outputs"], cell["execution_count"] = [], None
            z.writestr(f"netlab-labs/{lab.name}", json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


def setup(app):
    # glossary terms linked at their first use in each chapter and lab (see that module's docstring)
    app.setup_extension("netlab_glossary")
    app.add_directive("netlab-cite", CiteDirective)
    app.add_directive("netlab-variant-answers", VariantAnswersDirective)
    app.connect("html-page-context", _last_updated)
    app.connect("build-finished", _variant_answers)
    app.connect("build-finished", _labs_archive)
    app.connect("config-inited", _config_inited)
    # before Sphinx's contents collector (priority 500): the page contents read the mended titles
    app.connect("doctree-read", _doctree_read, priority=400)
    app.connect("html-page-context", _social)
    app.connect("build-finished", _publish)
    app.connect("build-finished", _subset_icons)
    app.connect("html-page-context", _default_mode)
    app.connect("html-page-context", _drop_thebe, priority=900)
    app.connect("build-finished", _mend_html)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
