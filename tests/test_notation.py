"""One symbol, one meaning: the notation table of chapter 0 against every chapter's math.

Chapter 0 fixes the meaning of a set of single-letter symbols ($S$ message size, $P$ payload
bytes per packet, $m$ micro-batches, $p$ ECN marking probability, ...). A chapter that writes one
of them bare (not subscripted: $n_{dom}$ is a different symbol from $n$) must mean the table's
meaning. Meaning cannot be read by a test, so the test pins where each fixed symbol is used:
``USED_IN`` lists, per symbol, the chapters whose math uses it with the table's meaning (each
was read by hand). A new use in another chapter, in its text or its lab's markdown, fails until
someone checks it and either renames the clashing symbol or adds the chapter here.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
LABS = ROOT / "labs"

_MATH = re.compile(r"\$\$(.+?)\$\$|\$((?:[^$\n]|\n(?!\s*\n))+?)\$", re.S)
_WORDS = re.compile(r"\\(?:text|mathrm|operatorname|mathit|mathbf|textbf)\{[^}]*\}"
                    r"|\\mu\s*s(?![A-Za-z])")  # "\mu s": the unit, not a symbol
_SUB = re.compile(r"_\\(?:text|mathrm)\{[^}]*\}|_\{[^}]*\}|_\\?[A-Za-z0-9]+")
_TOKEN = re.compile(r"(\\[A-Za-z]+|[A-Za-z])(\s*_)?")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def bare_symbols(math: str) -> set[str]:
    """Letters and Greek commands in one math span that carry no subscript."""
    math = _WORDS.sub(" ", math)
    math = _SUB.sub("_", math)
    return {m.group(1) for m in _TOKEN.finditer(math) if not m.group(2)}


def math_spans(markdown: str) -> list[str]:
    text = markdown.replace("\\$", "  ")
    text = re.sub(r"`[^`\n]*`", " ", text)
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _MATH.finditer(text)]


def table_symbols() -> set[str]:
    """The bare symbols the notation table of chapter 0 defines (subscripted ones excluded)."""
    text = (BOOK / "ch00-how-to-use.md").read_text(encoding="utf-8")
    section = text.split("## Notation", 1)[1].split("\n## ", 1)[0]
    symbols: set[str] = set()
    for row in section.splitlines():
        if not row.startswith("| $"):
            continue
        first = row.split("|")[1]
        for span in re.findall(r"\$([^$]+)\$", first):
            if re.fullmatch(r"\\?[A-Za-z]+", span.strip()) and span.strip() != "RTT":
                symbols.add(span.strip())
    return symbols


def chapter_sources() -> dict[int, list[str]]:
    """Chapter number -> its markdown text and its lab's markdown cells."""
    out: dict[int, list[str]] = {}
    for path in sorted(BOOK.glob("ch[0-9][0-9]-*.md")):
        number = int(path.name[2:4])
        out.setdefault(number, []).append(_FENCE.sub("", path.read_text(encoding="utf-8")))
    for path in sorted(LABS.glob("lab[0-9][0-9]-*.ipynb")):
        number = int(path.name[3:5])
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        out.setdefault(number, []).extend(
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return out


def uses() -> dict[str, set[int]]:
    fixed = table_symbols()
    found: dict[str, set[int]] = {s: set() for s in fixed}
    for number, texts in chapter_sources().items():
        for text in texts:
            for span in math_spans(text):
                for symbol in bare_symbols(span) & fixed:
                    found[symbol].add(number)
    return found


# Chapters (text and lab markdown) whose math uses each fixed symbol with the table's meaning.
USED_IN: dict[str, set[int]] = {
    '\\alpha': {0, 1, 2, 4, 6, 10},
    'B': {0, 2, 3, 4, 5, 6, 8, 10},
    'b': {0, 1},
    '\\beta': {0, 1, 2},
    'c': {0, 2, 10},
    'd': {0, 6, 7, 10},
    'D': {0, 1, 11},
    '\\ell': {0, 2, 3},
    'F': {0, 1, 7},
    'h': {0, 2, 3, 4},
    'H': {0, 2, 4},
    'L': {0, 1, 7},
    'm': {0, 1, 11},
    'N': {0, 1, 11},
    'n': {0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11},
    'P': {0, 2, 4, 8, 10},
    'Q': {0, 3},
    'p': {0, 4},
    '\\rho': {0, 4},
    's': {0, 1},
    'S': {0, 1, 2, 3, 4, 6, 7, 10},
    'u': {0, 1},
    'x': {0, 2, 4, 10},
}


def test_tokenizer_separates_subscripted_symbols():
    assert bare_symbols(r"2(n_{dom}-1)\alpha_{out} + \frac{8S}{d\,B_\text{in}}") == {
        "\\frac", "S", "d"}
    assert bare_symbols(r"1 - p_{loss} + \text{loss rate } p") == {"p"}
    assert math_spans(r"costs \$5 and $x$ or $$y$$") == ["x", "y"]


def test_table_defines_the_fixed_symbols():
    fixed = table_symbols()
    for symbol in ("S", "P", "H", "B", "n", "N", "L", "s", "m", "u", "p", "\\alpha", "\\rho"):
        assert symbol in fixed, symbol
    assert set(USED_IN) <= fixed, sorted(set(USED_IN) - fixed)


@pytest.mark.parametrize("symbol", sorted(table_symbols()))
def test_fixed_symbol_is_used_only_where_it_was_checked(symbol):
    used = uses()[symbol]
    unchecked = sorted(used - USED_IN.get(symbol, set()))
    assert not unchecked, (
        f"${symbol}$ has a fixed meaning in chapter 0's notation table but appears bare in the "
        f"math of chapter(s) {unchecked}: rename it there if it means something else (a "
        f"subscripted symbol is a different symbol), else add the chapter to USED_IN")
