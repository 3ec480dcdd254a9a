"""`make test-browser` and `make test-static` collect only tests/site (collecting the whole tests
folder imported every unit test module in each process and worker), and the unit run leaves out
the site and browser marks: a test marked so anywhere else would run nowhere. None is."""

import pathlib
import re

TESTS = pathlib.Path(__file__).resolve().parent
MARK = re.compile(r"\bpytest\.mark\.(site|browser)\b|[\"'](?:site|browser)[\"']\s*\)")


def test_every_site_or_browser_test_is_under_tests_site():
    makefile = (TESTS.parent / "Makefile").read_text()
    assert re.search(r'^test-browser:.*\n\t.* tests/site -m "browser and not site"', makefile, re.M)
    assert re.search(r"^test-static:.*\n\t.* tests/site -m site$", makefile, re.M)
    outside = [str(path.relative_to(TESTS)) for path in TESTS.rglob("*.py")
               if TESTS / "site" not in path.parents and path != pathlib.Path(__file__).resolve()
               and MARK.search(path.read_text(encoding="utf-8"))]
    assert outside == [], f"site or browser tests outside tests/site would not run: {outside}"
    inside = [p for p in (TESTS / "site").glob("test_*.py") if MARK.search(p.read_text(encoding="utf-8"))]
    assert len(inside) >= 5          # the pattern does find the marks where they are
