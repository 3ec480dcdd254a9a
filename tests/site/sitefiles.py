"""Where the built site is, which pages it has, and a local HTTP server for it.

Pages are discovered from the build output (every ``*.html`` outside the theme's
asset folders), so a chapter added tomorrow is checked without editing a test.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SITE = ROOT / "_build" / "_build" / "html"
ASSET_DIRS = {"_static", "_sources", "_images", "_downloads", "_panels_static"}
REDIRECT = re.compile(r'<meta\s+http-equiv="refresh"\s+content="\d+;\s*url=([^"]+)"', re.I)


def site_dir() -> Path:
    """The built HTML: ``$NETLAB_SITE_DIR`` (set by the Makefile) or ``_build/_build/html``."""
    return Path(os.environ.get("NETLAB_SITE_DIR") or DEFAULT_SITE)


def all_pages(root: Path) -> list[str]:
    """Every HTML page of the site, as a POSIX path relative to ``root``, sorted."""
    if not root.is_dir():
        return []
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.html")
                  if not (set(p.relative_to(root).parts[:-1]) & ASSET_DIRS))


def redirect_target(root: Path, page: str) -> str | None:
    """The target of a ``<meta http-equiv="refresh">`` page (Jupyter Book's index.html), else None."""
    head = (root / page).read_text(encoding="utf-8", errors="replace")[:2000]
    match = REDIRECT.search(head)
    return match.group(1) if match else None


def content_pages(root: Path) -> list[str]:
    """The pages a reader reads: every page except redirects and the 404 page (checked on its own)."""
    return [p for p in all_pages(root) if p != "404.html" and redirect_target(root, p) is None]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - signature from the base class
        pass

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()


class SiteServer:
    """Serve ``root`` on 127.0.0.1 (a free port) from a background thread; use as a context manager."""

    def __init__(self, root: Path):
        self.root = Path(root)
        handler = functools.partial(_QuietHandler, directory=str(self.root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_port}/"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> "SiteServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


_SOUPS: dict[tuple, object] = {}


def page_soup(path: Path, errors: str = "strict", keep: bool = True):
    """The page at ``path`` as ``BeautifulSoup(path.read_text(encoding="utf-8", errors=errors), "html.parser")``
    makes it, parsed once and shared by the checks that read the same page: do not change it (change a
    copy). A file rewritten since (another size or time) is parsed anew. ``keep=False``: the last check
    to read it takes it out of the store (a parsed page is megabytes of objects, which every full pass
    of Python's garbage collector walks while it is kept)."""
    from bs4 import BeautifulSoup

    path = Path(path).resolve()
    stat = path.stat()
    key: tuple = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _SOUPS:
        try:    # a page in UTF-8 reads the same whatever ``errors`` says: one parse serves every caller
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            if errors == "strict":
                raise
            key += (errors,)    # characters replaced: another text than a strict read's, so another key
            text = None
        if key not in _SOUPS:
            _SOUPS[key] = BeautifulSoup(text if text is not None else path.read_text(encoding="utf-8", errors=errors),
                                        "html.parser")
    return _SOUPS[key] if keep else _SOUPS.pop(key)
