"""How fast a kernel-free explorer answers a move in headless Chromium: printed, never asserted.

Run:  .venv/bin/python benchmarks/explorer_moves.py [SITE_DIR] [ROUNDS]     (needs Chromium; not in make bench)

tests/site/test_explorer_browser.py checks that each move shows the frame it selects; this script
times the same moves (12 per round, alternately the slider and the select, from the input event to
the decoded frame) on the largest explorer of the built site that has both, or on one drawn here
without a built site, and prints the median, 95th percentile and largest move over ``ROUNDS``
rounds (default 5). The project's goal from issue 16 is a move under 100 ms.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.site import browser_checks  # noqa: E402
from tests.site.sitefiles import site_dir  # noqa: E402
from tests.site.test_explorer_browser import PAGE, _drawn_explorer, _run, built_explorer  # noqa: E402


def main() -> None:
    missing = browser_checks.browser_missing()
    if missing:
        sys.exit(f"explorer_moves: {missing}")
    site = Path(sys.argv[1]) if len(sys.argv) > 1 else site_dir()
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    built = built_explorer(site) if site.exists() else None
    print(f"explorer: {'the largest with a slider and a select on ' + built[0] if built else 'drawn here'}")
    times = []
    with tempfile.TemporaryDirectory(prefix="netlab-explorer-") as tmp:
        root = Path(tmp)
        (root / "_static").mkdir()
        shutil.copy(ROOT / "_static" / "netlab-explorer.js", root / "_static")
        (root / "explorer.html").write_text(PAGE.format(body=built[1] if built else _drawn_explorer()))
        for _ in range(rounds):
            result, _, _ = asyncio.run(_run(root))
            times += result["times"]
    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"{len(times)} moves: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, "
          f"largest {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
