"""Chapters 0-4 and labs 1, 2, 4: one symbol one meaning, units that add up, no stray
control characters, and exercise tolerances that reject the tempting wrong answers."""

import json
import pathlib
import re

import pytest

from netlab import links

ROOT = pathlib.Path(__file__).resolve().parents[1]
BOOK, LABS = ROOT / "book", ROOT / "labs"


def _page(name):
    return (BOOK / name).read_text()


def _notation_rows():
    table = _page("ch00-how-to-use.md").split("## Notation", 1)[1]
    return {r.split("|")[1].strip(): r for r in table.splitlines() if r.startswith("| $")}


def _cells(name, kind=None):
    nb = json.loads((LABS / name).read_text())
    return [("".join(c["source"]), c.get("metadata", {}).get("tags", [])) for c in nb["cells"]
            if kind is None or c["cell_type"] == kind]


def test_beta_is_a_byte_rate_so_that_s_half_is_alpha_beta_in_bytes():
    # T = alpha + S/beta with S in bytes needs beta in bytes/s; the table said bit/s, which
    # makes alpha*beta = 500,000 bits, not the 62.5 KB the chapter prints.
    row = _notation_rows()["$\\alpha$, $\\beta$"]
    assert "byte/s" in row and "bit/s" not in row
    s_half = links.alpha_beta(1.0, 5e-6, 100e9).half_bandwidth_bytes
    assert s_half == pytest.approx(5e-6 * 100e9 / 8) == pytest.approx(62_500)
    ch2 = _page("ch02-links.md")
    assert "12.5 GB/s" in ch2 and "62{,}500$ bytes" in ch2


def test_dcqcn_estimate_is_not_the_alpha_beta_alpha():
    assert "$\\alpha_D$" in _notation_rows()
    section = _page("ch04-infiniband-vs-ethernet.md").split("## RoCEv2 with ECN and DCQCN", 1)[1]
    section = section.split("## The economics", 1)[0]
    assert "alpha_D" in section
    assert not re.search(r"\\alpha(?![_a-zA-Z])", section.replace("the paper's $\\alpha$", "")
                         .replace("$\\alpha$ alone", ""))
    lab = "\n".join(s for s, _ in _cells("lab04-infiniband-vs-ethernet.ipynb", "markdown"))
    dcqcn = lab.split("## 5. RoCEv2 with ECN and DCQCN", 1)[1].split("## 6.", 1)[0]
    assert "alpha_D" in dcqcn and not re.search(r"\\alpha(?![_a-zA-Z])", dcqcn)


def test_no_control_characters_in_pages_or_labs():
    # Lab 4 carried "\x07lpha" (a Python "\a" escape eaten from "\alpha").
    bad = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
    for path in list(BOOK.glob("*.md")) + list(LABS.glob("*.ipynb")):
        text = path.read_text() if path.suffix == ".md" else "".join(
            s for s, _ in _cells(path.name))
        assert not bad.search(text), f"{path.name}: control character {bad.search(text).group()!r}"


def test_b_means_bytes_not_billion():
    billion_b = re.compile(r"\d ?B (parameters|params|model)\b|~\d+ B\b")
    texts = {n: _page(n) for n in ("ch00-how-to-use.md", "ch01-training-is-networking.md", "ch02-links.md",
                                   "ch04-infiniband-vs-ethernet.md")}
    guide = _page("appendix-instructor-guide.md")
    texts["guide, labs 1-4"] = guide.split("## Lab 1:", 1)[1].split("## Lab 5:", 1)[0]
    texts["lab 1"] = "\n".join(s for s, _ in _cells("lab01-training-is-networking.ipynb"))
    texts["memory.py"] = (ROOT / "netlab" / "training" / "memory.py").read_text()
    for name, text in texts.items():
        assert not billion_b.search(text), (name, billion_b.search(text).group())


def test_chapter_2_takeaway_covers_its_own_crossovers():
    small = links.serialization_propagation_crossover_m(64, 800e9)
    big = links.serialization_propagation_crossover_m(4096, 400e9)
    assert small == pytest.approx(0.1307, rel=1e-3) and big == pytest.approx(16.73, rel=1e-3)
    takeaways = _page("ch02-links.md").split("## Takeaways", 1)[1]
    assert "centimetres" in takeaways and "a few metres to" not in takeaways


@pytest.mark.parametrize("name", ["lab01-training-is-networking.ipynb", "lab02-links.ipynb",
                                  "lab04-infiniband-vs-ethernet.ipynb"])
def test_labs_1_2_4_check_their_tolerances_against_tempting_wrong_answers(name):
    code = _cells(name, "code")
    checks = [s for s, tags in code if "remove-cell" in tags and "TEMPTING" in s]
    assert len(checks) == 1
    exercises = {m for s, _ in code for m in re.findall(r"(\w+) = exercises\.(?:numeric|varied)\(", s)}
    assert len(exercises) == (5 if name.startswith("lab04") else 3)    # lab 4: + headroom, perftest's MiB/s (issue 33)
    for ex in exercises:
        assert f"{ex}:" in checks[0], f"{name}: {ex} has no tempting wrong answers checked"
    assert all(len(s.splitlines()) <= 20 for s, _ in code)
