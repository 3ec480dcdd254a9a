"""The book as a reference: every seed claim checked, every cited function real, every
acronym in the glossary, every bibliography key used by the registry present."""

import importlib
import inspect
import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SEEDS = ROOT.parent / "shared" / "reference" / "seed-claims.md"
CLAIMS_PAGE = ROOT / "book" / "appendix-claims.md"
VERDICTS = {"holds", "holds with qualification", "does not hold", "unverifiable"}
# The seed articles' claims (shared/reference/seed-claims.md): E1-E9, C1-C8, D1-D14.
CLAIM_IDS = [f"E{i}" for i in range(1, 10)] + [f"C{i}" for i in range(1, 9)] + [f"D{i}" for i in range(1, 15)]


def _claim_rows():
    rows = {}
    for line in CLAIMS_PAGE.read_text().splitlines():
        m = re.match(r"\|\s*([ECD]\d+)\s", line)
        if m:
            rows[m.group(1)] = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return rows


def test_seed_list_matches_the_shared_reference():
    if not SEEDS.exists():
        pytest.skip("shared/reference is not beside this checkout")
    found = re.findall(r"^- ([ECD]\d+) ", SEEDS.read_text(), re.M)
    assert sorted(found) == sorted(CLAIM_IDS)


def test_every_seed_claim_has_a_row_with_verdict_computation_and_source():
    rows = _claim_rows()
    assert sorted(rows) == sorted(CLAIM_IDS)
    for claim, cells in rows.items():
        assert len(cells) == 4, claim
        assert cells[1] in VERDICTS, f"{claim}: verdict {cells[1]!r}"
        assert cells[2], f"{claim}: no computation"
        assert "{cite:p}" in cells[3], f"{claim}: no source"


def _resolve(dotted: str):
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise ImportError(dotted)


def _cited_functions(text: str) -> set[str]:
    return set(re.findall(r"`(netlab(?:\.[A-Za-z_][A-Za-z0-9_]*)+)`", text))


def test_every_netlab_function_cited_in_the_claims_table_exists():
    cited = _cited_functions(CLAIMS_PAGE.read_text())
    assert len(cited) >= 10
    for dotted in sorted(cited):
        obj = _resolve(dotted)
        assert callable(obj) or inspect.ismodule(obj), dotted


def test_every_netlab_name_cited_anywhere_in_the_book_exists():
    for path in sorted((ROOT / "book").glob("*.md")):
        for dotted in _cited_functions(path.read_text()):
            _resolve(dotted)


# --- glossary ------------------------------------------------------------------------------
# Upper-case words that are not acronyms, and units, which the glossary need not list.
NOT_ACRONYMS = {
    "SEND", "RECV", "READ", "WRITE", "RESET", "INIT", "ERR", "IMM", "WITH", "AND", "ATOMIC", "CMP", "SWP",
    "FETCH", "ADD", "OK", "XOFF", "XON", "TODO", "II", "III", "IV", "US", "USD", "GB", "TB", "KB", "MB",
    "PB", "TFLOPS", "PFLOPS", "FLOPS", "FLOP", "MW", "GW", "KW", "W", "PF", "EB", "LL", "SIMPLE", "NET",
    "SYN", "ACK", "NACK", "CLOSE", "TRIMMED", "LAST", "HOP", "CE", "CREDIT", "REQ", "NOT", "FOR", "ALL",
    "AI", "THE", "A", "I", "OR", "OF", "IN", "TO", "IS",
    "NVIDIA", "AMD", "HPE", "IBM",  # company names, not acronyms to expand
    "REMOTE", "PAUSE", "EN",        # verbs flag names (IBV_ACCESS_REMOTE_*), frame names, product suffixes
}


def _markdown_texts():
    for path in sorted((ROOT / "book").glob("*.md")):
        if path.name != "glossary.md":
            yield path.name, path.read_text()
    for folder in ("labs", "book"):
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            nb = json.loads(path.read_text())
            yield path.name, "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def _strip(text: str) -> str:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)          # code blocks and directives' options
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)        # display math
    text = re.sub(r"\$[^$\n]*\$", " ", text)                    # inline math
    text = re.sub(r"`[^`\n]*`", " ", text)                      # code spans and roles' targets
    text = re.sub(r"https?://\S+", " ", text)                   # URLs
    text = re.sub(r"\]\([^)]*\)", "]", text)                    # link targets
    return text


def _acronyms(text: str) -> set[str]:
    words = re.findall(r"(?<![\w-])([A-Z][A-Z0-9]*[A-Z][A-Z0-9]*)(?:s)?(?![\w-])", _strip(text))
    # Names with digits (GB200, SN5600, FP32) are products and formats: only pure-letter acronyms count.
    return {w for w in words if w not in NOT_ACRONYMS and w.isalpha()}


def _glossary_terms() -> set[str]:
    text = (ROOT / "book" / "glossary.md").read_text()
    return set(re.findall(r"^([^\s].*?)\s*$", text.split("```{glossary}")[1].split("```")[0], re.M))


def test_every_acronym_used_in_the_book_is_in_the_glossary():
    terms = _glossary_terms()
    missing = {}
    for name, text in _markdown_texts():
        for word in _acronyms(text) - terms:
            missing.setdefault(word, name)
    assert not missing, f"add to book/glossary.md: {dict(sorted(missing.items()))}"
