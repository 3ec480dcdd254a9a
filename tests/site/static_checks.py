"""Checks of the built HTML files themselves (no browser): each returns a list of problems.

- nothing is loaded from another host: no external script, stylesheet, font,
  image or frame, in the page, in inline scripts, or in the local stylesheets it
  uses (followed through ``@import``);
- every internal link, resource and ``#anchor`` resolves to a file and an id;
- every image has alternative text (not a file name);
- every kernel-free explorer carries a complete grid of frames, each a PNG or SVG with
  alternative text.
"""

from __future__ import annotations

import base64
import functools
import html.parser
import itertools
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

# attributes that make the browser fetch something when the page loads
RESOURCE_ATTRS = {("script", "src"), ("img", "src"), ("img", "srcset"), ("source", "src"), ("source", "srcset"),
                  ("iframe", "src"), ("embed", "src"), ("object", "data"), ("video", "src"), ("video", "poster"),
                  ("audio", "src"), ("track", "src"), ("input", "src")}
FETCHING_RELS = {"stylesheet", "preload", "modulepreload", "prefetch", "icon", "shortcut", "apple-touch-icon",
                 "manifest", "preconnect", "dns-prefetch", "prerender", "mask-icon"}
CSS_URL = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)|url\(\s*["']?([^"')]+?)["']?\s*\)""", re.I)
INLINE_LOAD = re.compile(r"""["'`]((?:https?:)?//[^"'`\s]+?\.(?:m?js|css|woff2?|ttf|otf|eot))(?:[?#][^"'`\s]*)?["'`]""", re.I)
# the same pairs by tag, each tag's attributes in the set's order (the order _resources names them in)
RESOURCE_ATTRS_BY_TAG: dict[str, list[str]] = {}
for _tag, _attr in RESOURCE_ATTRS:
    RESOURCE_ATTRS_BY_TAG.setdefault(_tag, []).append(_attr)
NON_JS_TYPES = {"application/json", "text/x-thebe-config", "application/ld+json", "text/template", "math/tex"}
IMAGE_FILE = re.compile(r"\.(png|svg|jpe?g|gif|webp)$", re.I)


def is_external(url: str) -> bool:
    scheme = urlsplit(url).scheme.lower()
    return url.startswith("//") or scheme in ("http", "https", "ftp", "ws", "wss")


def _is_local_path(url: str) -> bool:
    scheme = urlsplit(url).scheme.lower()
    return not url.startswith("//") and scheme == "" and not url.startswith(("{", "$"))


class _Page(html.parser.HTMLParser):
    """Tags with their attributes, ids, and the text of inline scripts and styles."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.ids: set[str] = set()
        self.inline: list[tuple[str, str, str]] = []   # (tag, type, text)
        self._open: tuple[str, str] | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        self.tags.append((tag, a))
        for key in ("id", "name"):
            if a.get(key) and (key == "id" or tag == "a"):
                self.ids.add(a[key])
        if tag in ("script", "style"):
            self._open, self._buf = (tag, a.get("type", "").lower()), []
        if a.get("style"):
            self.inline.append(("style-attr", "", a["style"]))

    def handle_data(self, data):
        if self._open:
            self._buf.append(data)

    def handle_endtag(self, tag):
        if self._open and tag == self._open[0]:
            self.inline.append((self._open[0], self._open[1], "".join(self._buf)))
            self._open = None


@functools.lru_cache(maxsize=256)
def parse(path: Path) -> _Page:
    parser = _Page()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    parser.close()
    return parser


def _resources(page: _Page):
    """(description, url) of everything the page makes the browser fetch."""
    for tag, a in page.tags:
        for attr in RESOURCE_ATTRS_BY_TAG.get(tag, ()):     # the pairs of RESOURCE_ATTRS for this tag
            if a.get(attr):
                urls = [u.strip().split()[0] for u in a[attr].split(",") if u.strip()] if attr == "srcset" else [a[attr]]
                for url in urls:
                    yield f"<{tag} {attr}>", url
        if tag == "link" and a.get("href"):
            rels = set(a.get("rel", "").lower().split())
            if rels & FETCHING_RELS:
                yield f"<link rel={a.get('rel')}>", a["href"]


def _css_problems(css_path: Path, root: Path, seen: set[Path]) -> list[str]:
    if css_path in seen or not css_path.is_file():
        return []
    seen.add(css_path)
    problems = []
    rel = css_path.relative_to(root).as_posix() if css_path.is_relative_to(root) else css_path.name
    stat = css_path.stat()
    for url in _css_urls(css_path, stat.st_size, stat.st_mtime_ns):
        if not url or url.startswith(("data:", "#", "%23")):
            continue
        if is_external(url):
            problems.append(f"stylesheet {rel} loads {url} from another host")
            continue
        target = (css_path.parent / unquote(urlsplit(url).path)).resolve()
        if not target.exists():
            problems.append(f"stylesheet {rel} refers to a missing file {url}")
        elif target.suffix == ".css":
            problems.extend(_css_problems(target, root, seen))
    return problems


@functools.lru_cache(maxsize=256)
def _css_urls(css_path: Path, size: int, mtime_ns: int) -> tuple[str, ...]:
    """The URLs a stylesheet names, outside comments, in order: read once per file (of that size and time),
    not once per page that uses it."""
    text = re.sub(r"/\*.*?\*/", "", css_path.read_text(encoding="utf-8", errors="replace"), flags=re.S)
    return tuple((match.group(1) or match.group(2) or "").strip() for match in CSS_URL.finditer(text))


def external_resources(root: Path, page_path: str) -> list[str]:
    """Everything ``page_path`` would load from another host (it must load nothing)."""
    root = Path(root)
    path = root / page_path
    page = parse(path)
    problems = [f"{what} loads {url} from another host" for what, url in _resources(page) if is_external(url)]
    for tag, type_, text in page.inline:
        if tag == "script" and type_ not in NON_JS_TYPES:
            problems += [f"an inline script loads {m.group(1)} from another host" for m in INLINE_LOAD.finditer(text)]
        elif tag in ("style", "style-attr"):
            for match in CSS_URL.finditer(text):
                url = (match.group(1) or match.group(2) or "").strip()
                if is_external(url):
                    problems.append(f"an inline style loads {url} from another host")
    seen: set[Path] = set()
    for what, url in _resources(page):
        if what.startswith("<link") and _is_local_path(url) and urlsplit(url).path.endswith(".css"):
            problems += _css_problems((path.parent / unquote(urlsplit(url).path)).resolve(), root.resolve(), seen)
    return problems


def broken_links(root: Path, page_path: str) -> list[str]:
    """Internal links, resources and anchors of ``page_path`` that do not resolve."""
    root = Path(root).resolve()
    path = (root / page_path).resolve()
    page = parse(path)
    problems = []
    targets = [(f"<{tag}>", a["href"]) for tag, a in page.tags if tag in ("a", "area") and a.get("href")]
    targets += list(_resources(page))
    for what, url in targets:
        if not _is_local_path(url) or url.startswith(("mailto:", "javascript:", "data:", "tel:")):
            continue
        parts = urlsplit(url)
        target = path if not parts.path else (path.parent / unquote(parts.path)).resolve()
        if target.is_dir():
            target = target / "index.html"
        if not target.exists():
            problems.append(f"{what} {url}: no such file")
            continue
        if not target.is_relative_to(root):
            problems.append(f"{what} {url}: points outside the site")
            continue
        fragment = unquote(parts.fragment)
        if fragment and what in ("<a>", "<area>") and target.suffix == ".html" and fragment not in parse(target).ids:
            problems.append(f"{what} {url}: no anchor #{fragment} in {target.relative_to(root).as_posix()}")
    return problems


def images_without_alt(root: Path, page_path: str) -> list[str]:
    problems = []
    for tag, a in parse(Path(root) / page_path).tags:
        if tag != "img":
            continue
        src = a.get("src", "")
        src = src[:40] + "..." if src.startswith("data:") else src
        alt = a.get("alt")
        if alt is None or not alt.strip():
            problems.append(f"image without alternative text: {src}")
        elif IMAGE_FILE.search(alt.strip()):
            problems.append(f"image whose alternative text is its file name ({alt}): describe the figure")
    return problems


def explorer_problems(root: Path, page_path: str) -> list[str]:
    """Every explorer must carry one frame (a PNG, or an SVG from its shared pieces, with alt text)
    per combination of its controls."""
    text = (Path(root) / page_path).read_text(encoding="utf-8", errors="replace")
    if "netlab-explorer" not in text:
        return []
    from tests.site.sitefiles import page_soup

    problems = []
    # parsed once with the PDF's check of the labs' solutions (which runs first, in test_pdf.py); this
    # check is the page's last reader, which takes it out of the store
    soup = page_soup(Path(root) / page_path, errors="replace", keep=False)
    for k, root_el in enumerate(soup.select("div.netlab-explorer")):
        name = root_el.get("id") or f"explorer {k + 1}"
        inputs = root_el.select(".netlab-explorer-input")
        data = root_el.select_one("script.netlab-explorer-frames")
        pieces_el = root_el.select_one("script.netlab-explorer-pieces")
        pieces = json.loads(pieces_el.string or "[]") if pieces_el is not None else []
        if not inputs:
            problems.append(f"{name}: no controls")
            continue
        if data is None:
            problems.append(f"{name}: no frames")
            continue
        try:
            frames = json.loads(data.string or "")
        except json.JSONDecodeError as exc:
            problems.append(f"{name}: frames are not valid JSON ({exc})")
            continue
        ranges = [range(int(i["data-count"])) if i.get("data-count") else range(int(i.get("min", 0)), int(i.get("max", 0)) + 1)
                  for i in inputs]
        expected = {"-".join(map(str, key)) for key in itertools.product(*ranges)}
        missing = sorted(expected - set(frames))
        if missing:
            problems.append(f"{name}: {len(missing)} of {len(expected)} frames missing (e.g. {missing[:3]})")
        if root_el.get("data-default") not in frames:
            problems.append(f"{name}: its default frame {root_el.get('data-default')!r} is missing")
        for key, frame in frames.items():
            src = frame.get("src", "") if isinstance(frame, dict) else ""
            if isinstance(frame, dict) and "parts" in frame:
                runs = frame["parts"]
                try:
                    svg = "".join(pieces[i] for r in range(0, len(runs), 2) for i in range(runs[r], runs[r] + runs[r + 1]))
                except (IndexError, TypeError):
                    problems.append(f"{name}: frame {key} refers to pieces it does not carry")
                    continue
                if not (svg.startswith("<svg") and svg.endswith("</svg>")):
                    problems.append(f"{name}: frame {key} is not a whole SVG")
                if not str(frame.get("alt", "")).strip():
                    problems.append(f"{name}: frame {key} has no alternative text")
                continue
            if not src.startswith("data:image/png;base64,"):
                problems.append(f"{name}: frame {key} is not an embedded PNG")
                continue
            head = base64.b64decode(src.split(",", 1)[1][:24] + "==")[:8]
            if head != b"\x89PNG\r\n\x1a\n":
                problems.append(f"{name}: frame {key} is not a valid PNG")
            if not str(frame.get("alt", "")).strip():
                problems.append(f"{name}: frame {key} has no alternative text")
    return problems


def linked_pages(root: Path, pages: list[str]) -> set[str]:
    """Pages reached by some link (or redirect) from another page."""
    root = Path(root).resolve()
    reached = set()
    for page_path in pages:
        path = (root / page_path).resolve()
        for tag, a in parse(path).tags:
            url = a.get("href", "") if tag in ("a", "link") else ""
            if tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
                url = a.get("content", "").split("url=", 1)[-1]
            if url and _is_local_path(url) and urlsplit(url).path:
                target = (path.parent / unquote(urlsplit(url).path)).resolve()
                if target != path and target.is_relative_to(root):
                    reached.add(target.relative_to(root).as_posix())
    return reached
