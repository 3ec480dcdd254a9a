"""The book as a reference: every seed claim checked, every cited function real, every
acronym in the glossary, every bibliography key used by the registry present."""

import importlib
import inspect
import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# The seed list: a copy of the shared reference's seed-claims.md kept in the repository (its first
# lines say where and when it was copied from), so that every checkout checks the book against it.
SEEDS = ROOT / "tests" / "data" / "seed-claims.md"
CLAIMS_PAGE = ROOT / "book" / "appendix-claims.md"
VERDICTS = {"holds", "holds with qualification", "does not hold", "unverifiable"}
# The seed articles' claims (tests/data/seed-claims.md): E1-E9, C1-C8, D1-D14.
CLAIM_IDS = [f"E{i}" for i in range(1, 10)] + [f"C{i}" for i in range(1, 9)] + [f"D{i}" for i in range(1, 15)]


# A row's first cell starts with its id: a numbered claim (E4), one of its parts (E4a), or a
# further claim the numbered list left out (Ex1).
_ROW_ID = re.compile(r"\|\s*([ECD](?:\d+[a-z]?|x\d+))\s")
# The page's rule for a claim with parts: it takes the verdict of its weakest part.
VERDICT_RANK = {"does not hold": 0, "unverifiable": 1, "holds with qualification": 2, "holds": 3}


def _all_rows() -> dict[str, list[str]]:
    rows = {}
    for line in CLAIMS_PAGE.read_text().splitlines():
        m = _ROW_ID.match(line)
        if m:
            assert m.group(1) not in rows, f"row {m.group(1)} appears twice"
            rows[m.group(1)] = [cell.strip() for cell in line.strip().strip("|").split("|")]
    return rows


def _claim_rows():
    return {k: v for k, v in _all_rows().items() if re.fullmatch(r"[ECD]\d+", k)}


def test_seed_list_matches_the_shared_reference():
    found = re.findall(r"^- ([ECD]\d+) ", SEEDS.read_text(encoding="utf-8"), re.M)
    assert sorted(found) == sorted(CLAIM_IDS)
    # and the book's claims page answers every claim of that list, and no other numbered claim
    assert sorted(_claim_rows()) == sorted(found)


def test_every_seed_claim_has_a_row_with_verdict_computation_and_source():
    rows = _claim_rows()
    assert sorted(rows) == sorted(CLAIM_IDS)
    for claim, cells in _all_rows().items():
        assert len(cells) == 4, claim
        assert cells[1] in VERDICTS, f"{claim}: verdict {cells[1]!r}"
        assert cells[2], f"{claim}: no computation"
        assert "{cite:p}" in cells[3], f"{claim}: no source"


def test_sub_claims_are_judged_beyond_the_numbered_list():
    rows = _all_rows()
    parts = [k for k in rows if re.fullmatch(r"[ECD]\d+[a-z]", k)]
    further = [k for k in rows if "x" in k]
    assert len(parts) >= 40 and len(further) >= 15, (len(parts), len(further))
    for article in "ECD":
        assert any(k.startswith(article + "x") for k in further), article


def test_a_claim_with_parts_takes_the_verdict_of_its_weakest_part():
    rows = _all_rows()
    for claim, cells in _claim_rows().items():
        parts = {k: v for k, v in rows.items() if re.fullmatch(claim + r"[a-z]", k)}
        if not parts:
            continue
        letters = sorted(k[-1] for k in parts)
        assert letters == [chr(ord("a") + i) for i in range(len(letters))], f"{claim}: parts {letters}"
        weakest = min((v[1] for v in parts.values()), key=VERDICT_RANK.__getitem__)
        assert cells[1] == weakest, f"{claim} says {cells[1]!r}, its weakest part {weakest!r}"


def test_many_verdicts_are_computed_with_netlab():
    # Rows settled by a document need no netlab call; rows settled by a number should compute it.
    # This guards against the table sliding back into prose: 25 rows cite a netlab function.
    with_netlab = [k for k, v in _all_rows().items() if "`netlab." in v[2]]
    assert len(with_netlab) >= 25, sorted(with_netlab)


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
    "SEND", "RECV", "READ", "WRITE", "IMM", "WITH", "AND", "ATOMIC", "CMP", "SWP",
    "FETCH", "ADD", "OK", "TODO", "II", "III", "IV", "US", "USD", "GB", "TB", "KB", "MB",
    "PB", "TFLOPS", "PFLOPS", "MW", "GW", "KW", "W", "PF", "EB", "SIMPLE", "NET",
    "CLOSE", "TRIMMED", "LAST", "HOP", "CREDIT", "REQ", "NOT", "FOR", "ALL",
    "AI", "THE", "A", "I", "OR", "OF", "IN", "TO", "IS",
    "NVIDIA", "AMD", "HPE", "IBM",  # company names, not acronyms to expand
    "REMOTE", "PAUSE", "EN",        # verbs flag names (IBV_ACCESS_REMOTE_*), frame names, product suffixes
}
# Queue-pair states (RESET, INIT, RTR, RTS, ERR), ACK, FLOPS and the like are terms a reader must
# look up, so they are not in this list: the glossary defines them. TFLOPS and PFLOPS are FLOPS
# with an SI prefix.


def _markdown_texts(include_glossary: bool = False):
    for path in sorted((ROOT / "book").glob("*.md")):
        if include_glossary or path.name != "glossary.md":
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
    block = text.split("```{glossary}")[1].split("```")[0]
    return set(re.findall(r"^([^\s:].*?)\s*$", block, re.M))   # term lines; not ":sorted:"


def test_every_acronym_used_in_the_book_is_in_the_glossary():
    terms = _glossary_terms()
    missing = {}
    for name, text in _markdown_texts():
        for word in _acronyms(text) - terms:
            missing.setdefault(word, name)
    assert not missing, f"add to book/glossary.md: {dict(sorted(missing.items()))}"


def test_the_glossary_defines_every_rate_unit_and_their_factor_of_8():
    # review 31 F11: Gb/s and GB/s were defined, Tb/s and TB/s (the seed's "102.4 TB/s" slip) were not
    terms = _glossary_terms()
    assert {"Gb/s", "GB/s", "Tb/s", "TB/s"} <= terms
    block = (ROOT / "book" / "glossary.md").read_text().split("\nTB/s\n")[1].split("\n\n")[0]
    bits, byte_rate = map(float, re.search(r"([\d.]+) Tb/s, which is ([\d.]+) TB/s", block).groups())
    assert "eight times a Tb/s" in block and bits / 8 == byte_rate == 12.8


# --- dollar amounts that dollarmath would read as math ----------------------------------
# MyST's dollarmath turns any `$...$` on one line into inline math, so "USD 6.9 B ... $7 B" written
# with two bare dollar signs renders as italic run-together text. Real math holds symbols and
# numbers; a span with ordinary words in it is a pair of unescaped dollar amounts.
# A span may run over several lines of one paragraph, never across a blank line.
_INLINE_MATH = re.compile(r"(?<![\\$])\$(?!\$)((?:(?!\n[ \t]*\n)[^$])+?)(?<![\\$])\$(?!\$)")


def _math_spans(text: str) -> list[str]:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)     # code blocks
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)   # display math
    text = re.sub(r"`[^`\n]*`", " ", text)                 # code spans and roles
    return _INLINE_MATH.findall(text)


def _ordinary_words(span: str) -> list[str]:
    span = re.sub(r"\\(?:text|mathrm|textrm|mbox|operatorname|mathit|textit)\s*\{[^}]*\}", " ", span)
    span = re.sub(r"[_^](?:\{[^}]*\}|\w)", " ", span)     # subscripts and superscripts (B_{out})
    span = re.sub(r"\\[A-Za-z]+", " ", span)               # LaTeX commands (\alpha, \times, \to)
    return re.findall(r"(?<![A-Za-z])[a-z]{3,}(?![A-Za-z])", span)   # lower-case words: prose


def test_the_dollar_detector_catches_amounts_and_spares_math():
    assert _math_spans(r"paid $6.9 B in 2019; closing coverage rounds it to $7 B") == \
        ["6.9 B in 2019; closing coverage rounds it to "]
    assert len(_ordinary_words(_math_spans(r"paid $6.9 B; press rounds it to $7 B")[0])) >= 2
    for math in (r"$0.81/1.64 = 49$", r"$1-(1-1/n)^n \to 1 - 1/e$", r"$B_\text{in}$",
                 r"$t(S) = a + 8S/\text{algbw}$", r"$\alpha = a / (2(n-1))$", r"$72 \times 1.8 = 129.6$",
                 r"$2(m-1)(\alpha_{out} + \frac{8N}{dmB_{out}})$", "$N^* = 135\\,\\text{KB}\n\\times 57$"):
        spans = _math_spans(math)
        assert spans and not any(len(_ordinary_words(s)) >= 2 for s in spans), math
    assert _math_spans(r"paid \$6.9 B, press rounds it to \$7 B") == []      # escaped: no math


def test_no_unescaped_dollar_amount_reads_as_math():
    bad = {}
    for name, text in _markdown_texts(include_glossary=True):
        for span in _math_spans(text):
            if len(_ordinary_words(span)) >= 2:
                bad.setdefault(name, []).append(span.strip()[:60])
    assert not bad, f"escape dollar amounts (\\$ or 'USD'): {bad}"


# Number formats, optical module codes and symbol rates carry digits or lower-case letters, so the
# acronym pattern above skips them; they are just as opaque to a newcomer.
_CODES = re.compile(r"(?<![\w-])((?:NV|MX)?FP\d+|BF16|INT\d+|[DSFL]R\d|GBd)(?![\w-])")


def test_every_number_format_and_module_code_is_in_the_glossary():
    terms = _glossary_terms()
    missing = {}
    for name, text in _markdown_texts():
        for code in set(_CODES.findall(_strip(text))) - terms:
            missing.setdefault(code, name)
    assert not missing, f"add to book/glossary.md: {dict(sorted(missing.items()))}"


# --- glossary terms marked in the pages --------------------------------------------------
# A page marks a term's first use with MyST's {term} role, {term}`RDMA` or {term}`text <RDMA>`;
# Sphinx resolves it against the glossary (exactly, else ignoring case) and the strict build
# fails on a term it cannot find. This test finds the same failure without a build.
_TERM_ROLE = re.compile(r"\{term\}`([^`]+)`")


def _term_targets(text: str) -> list[str]:
    targets = []
    for body in _TERM_ROLE.findall(text):
        m = re.fullmatch(r"(?s).*<([^<>]+)>\s*", body)
        targets.append((m.group(1) if m else body).strip())
    return targets


def test_term_role_targets_are_read_like_sphinx():
    assert _term_targets("{term}`RDMA` and {term}`queue pairs <QP>`") == ["RDMA", "QP"]


def test_glossary_lists_one_term_per_line():
    # Sphinx takes a glossary line as one term: "LL, LL128" could be referenced only as a whole.
    assert not [t for t in _glossary_terms() if "," in t]


def test_every_term_marked_in_a_page_is_in_the_glossary():
    terms = _glossary_terms()
    lower = {t.lower() for t in terms}
    marked, missing = 0, {}
    for name, text in _markdown_texts(include_glossary=True):
        for target in _term_targets(text):
            marked += 1
            if target not in terms and target.lower() not in lower:
                missing.setdefault(target, name)
    assert not missing, f"{{term}} targets not in book/glossary.md: {missing}"
    assert marked >= 10, "the claims appendix marks the first use of its terms"


# --- the instructor guide tells the truth about where the answers are ----------------------
def test_instructor_guide_says_the_key_is_in_the_page_source():
    import html as html_mod

    from netlab import exercises

    box = exercises.numeric("ex-probe", "A probe (GB)", answer=12.5, unit="GB")._repr_html_()
    spec = re.search(r'data-spec="([^"]*)"', box)
    assert spec and json.loads(html_mod.unescape(spec.group(1)))["answer"] == 12.5   # clear text
    guide = (ROOT / "book" / "appendix-instructor-guide.md").read_text()
    intro = guide.split("## ", 1)[0]
    assert "`data-spec`" in intro and "graded variants" in intro and "self-check" in intro


def test_registry_keys_quoted_in_the_claims_table_exist():
    from netlab import specs

    keys = set(re.findall(r"`([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)`", CLAIMS_PAGE.read_text()))
    keys = {k for k in keys if not k.startswith("netlab.") and not re.search(r"\.(?:cc|py|md|h|json)$", k)}
    assert len(keys) >= 4
    for key in sorted(keys):
        assert specs.value(key) > 0, key


# --- the numbers the claims table quotes, recomputed ----------------------------------------
# The table's computations call netlab with stated inputs. If a model changes, the figure the
# page quotes must change with it: each is recomputed here, within the rounding it is quoted to.
def test_claims_table_figures_follow_the_library():
    from netlab.fabric import ecmp
    from netlab.rdma import hoststack
    from netlab.lossless import ib_vs_ethernet
    from netlab.longhaul import distance as longhaul
    from netlab.training import memory, parallelism
    from netlab.collectives import nccl_tuner as nccl_model
    from netlab.optics import cpo as optics
    from netlab.nvlink import domains as scaleup

    page = CLAIMS_PAGE.read_text()
    approx = lambda x, rel=0.02: pytest.approx(x, rel=rel)  # noqa: E731
    # E2b: Llama 3.1 405B at 16 bytes per parameter on 80 GB GPUs
    assert memory.fit(405_853_388_800, "train-adam-zero", 80e9).min_gpus == 82 and "at least 82 GPUs" in page
    # E3a: cores for 400 Gb/s in 1 MiB messages
    assert hoststack.cores_needed("rdma", 400e9, 2**20).sender_cores == approx(0.007, 0.3)
    assert hoststack.cores_needed("tcp", 400e9, 2**20).receiver_cores == approx(6, 0.05)
    # E4d: NCCL's model, 1024 H100s in 128 nodes, three 0.3 µs hops more per network step
    big = nccl_model.switch_latency_effect(1e9, 1024, 128, 0.9e-6, 400e9)
    small = nccl_model.switch_latency_effect(65536, 1024, 128, 0.9e-6, 400e9)
    ring = [nccl_model.estimate(1e9, 1024, 128, "ring", "simple", nic_bps=400e9, extra_net_step_s=x).time_s
            for x in (0.0, 0.9e-6)]
    assert big.base.time_s == approx(5.31e-3, 0.01) and big.slowdown == approx(0.0024, 0.05)
    assert ring[0] == approx(18.9e-3, 0.01) and ring[1] / ring[0] - 1 == approx(0.017, 0.05)
    assert small.base.time_s == approx(96e-6, 0.01) and small.slowdown == approx(0.13, 0.05)
    assert "+0.24 %" in page and "+1.7 %" in page and "slows by 13 %" in page
    # the ring's +1.7 % is 254 network steps x 0.9 µs, times NCCL's 1.4 for a multi-node Simple ring
    assert (ring[1] - ring[0]) == approx(254 * 0.9e-6 * 1.4, 0.01) and "multiplies by the 1.4" in page
    assert "$2(m-1)$" not in page      # m is the micro-batch count (chapter 0); nodes are n_dom
    # E5c: GPUDirect RDMA's gain by message size
    gain = lambda n, b: hoststack.gpudirect_gain(n, b).gain  # noqa: E731
    assert gain(64, 100e9) == approx(0.90, 0.02) and gain(2**20, 100e9) == approx(0.34, 0.03)
    assert gain(1e9, 100e9) == approx(0.28, 0.03) and gain(1e9, 400e9) == approx(0.61, 0.03)
    guide = (ROOT / "book" / "appendix-instructor-guide.md").read_text()
    assert gain(2**20, 400e9) == approx(0.66, 0.01) and "66 % for 1 MiB and 61 % for large messages" in guide
    # E6c: 64 bytes over three 100 ns switches with 600 ns of adapters
    assert ib_vs_ethernet.small_message_latency(64, 3, 400e9, 100e-9, 600e-9, 25e-9).time_s == approx(1.0e-6)
    # C3: 7-billion-parameter model, 512 GPUs (a 4 M-token batch of 4,096-token sequences allows at most
    # 976 data-parallel replicas: the 1,024 GPUs it once used could not run), 400 vs 100 Gb/s
    assert parallelism.max_data_parallel(4e6, 4096) == 976
    fast = parallelism.data_parallel_step(7e9, 4e6, 512, 400e12, 400e9, 5e-6)
    slow = parallelism.data_parallel_step(7e9, 4e6, 512, 400e12, 100e9, 5e-6)
    assert fast.efficiency == approx(0.59, 0.01) and slow.efficiency == approx(0.27, 0.02)
    assert slow.step_s / fast.step_s == approx(2.2, 0.02)
    c3 = next(line for line in (ROOT / "book" / "appendix-claims.md").read_text().splitlines() if line.startswith("| C3 "))
    assert "on 512 GPUs" in c3 and "59 % efficiency at 400 Gb/s, 27 % at 100 Gb/s" in c3
    # D9: Llama 3 70B at TP 8, PCIe mesh -> DGX H100, DGX B200 -> GB200 NVL72
    from netlab.nvlink import inference
    llama = inference.model("llama3-70b")
    step = {(name, b): inference.decode_step(llama, scaleup.preset(name), 8, b)
            for name in ("pcie-h100", "dgx-h100", "dgx-b200", "gb200-nvl72") for b in (1, 64)}
    lat = lambda b: 1 - step["dgx-h100", b].token_latency_s / step["pcie-h100", b].token_latency_s  # noqa: E731
    tpj = lambda a, b, n: step[b, n].tokens_per_joule / step[a, n].tokens_per_joule - 1  # noqa: E731
    assert round(100 * lat(1)) == 12 and round(100 * lat(64)) == 46
    assert round(100 * tpj("pcie-h100", "dgx-h100", 1)) == 13 and round(100 * tpj("pcie-h100", "dgx-h100", 64)) == 84
    assert step["gb200-nvl72", 1].token_latency_s == approx(step["dgx-b200", 1].token_latency_s, 1e-9)
    assert round(100 * tpj("dgx-b200", "gb200-nvl72", 1)) == 7
    assert "by 12 % (batch 1) to 46 % (batch 64)" in page and "13-84 %" in page
    # D5c, D7b
    assert ecmp.expected_paths_used(128, 128) == approx(0.634, 0.001)
    assert scaleup.nvl72_check().gpu_sum_bidir_bps == approx(129.6e12 * 8, 1e-6)
    # D10a, D10b, D12a
    assert optics.pluggable_channel().loss_db == approx(21.3, 0.005) and optics.cpo_channel().loss_db == approx(3.6, 0.02)
    watts = [optics.port_power(o, r).total_w for o in ("dsp_pluggable", "cpo") for r in (800e9, 1.6e12)]
    assert watts == [approx(19.3, 0.005), approx(38.6, 0.005), approx(5.9, 0.01), approx(11.9, 0.005)]
    claims = optics.cpo_claims()
    assert claims.power_gain_module_derived == approx(3.3, 0.02) and claims.power_gain_port_derived == approx(3.25, 0.01)
    # Dx2: Llama 3.1 405B step with a 16 M-token batch on 16,384 GPUs at 400 TFLOPS
    assert parallelism.training_flops(4.06e11, 1.6e7) / (16384 * 4e14) == approx(5.9, 0.01)
    # Dx8: chapter 10's two-site all-reduce
    two = lambda n, d: longhaul.two_site_allreduce(n, 8, d, 7.2e12, 5e-6, 800e9).time_s  # noqa: E731
    assert two(1e9, 0) == approx(3.27e-3, 0.005) and two(1e9, 10e3) == approx(3.37e-3, 0.005)
    assert two(250e6, 10e3) < 1e-3 < two(265e6, 10e3)          # "up to about 257 MB"
    assert two(8, 90e3) < 1e-3 < two(8, 98e3)                  # "beyond about 94 km"


def _stale_verdicts(text: str, claim: str) -> list[str]:
    """Verdicts a page gives ``claim`` that say it holds: the first italic verdict after the
    claim's name (skipping other bold claim names), or a 'Verdict on X: ...' line."""
    flat = re.sub(r"\s+", " ", text)
    found = re.findall(rf"Verdict on {claim}: (holds|qualified)", flat)
    found += re.findall(rf"\b{claim}\b(?:\*\*)?(?:[^*]|\*\*[A-Z]\d+\*\*){{0,300}}?(?<!\*)\*(?!\*)(holds|qualified)",
                        flat)
    return found


def test_chapter_verdicts_agree_with_the_claims_appendix():
    """A chapter may not say a claim holds where the appendix says 'does not hold' (the chapters
    once said C3 holds and E4/E7 hold with qualification)."""
    root = pathlib.Path(__file__).resolve().parents[1] / "book"
    table = (root / "appendix-claims.md").read_text(encoding="utf-8")
    old = "- **C3** and **D1** (lorem): C3 *holds*, D1 *holds with qualification*"
    assert _stale_verdicts(old, "C3") == ["holds"] and _stale_verdicts("**Verdict on E4: qualified.**", "E4")
    for claim in ("C3", "E4", "E7"):
        assert re.search(rf"^\| {claim} .*?\| does not hold \|", table, re.M), claim
        for page in root.glob("ch[0-9]*.md"):
            stale = _stale_verdicts(page.read_text(encoding="utf-8"), claim)
            assert not stale, f"{page.name} says {claim} {stale}; the appendix says 'does not hold'"


def test_nccl_retry_arithmetic():
    """NCCL's retry count of 7 means 8 attempts of 4.096 µs x 2^20 before the QP errors."""
    from netlab import specs
    per_attempt = 4.096e-6 * 2 ** specs.value("transport.roce.nccl_ib_timeout_exponent")
    assert round(8 * per_attempt) == 34
    text = (pathlib.Path(__file__).resolve().parents[1] / "book" / "ch03-rdma.md").read_text(encoding="utf-8")
    assert "30 s over its 7 retries" not in text and "34" in text


def test_the_bibliography_parses():
    # a merge once dropped an entry's closing brace: the strict build then failed in Sphinx's
    # bibtex extension, four minutes into make test; pybtex reads the file in a fraction of a second
    from pybtex.database import parse_file
    entries = parse_file(str(ROOT / "book" / "references.bib"), bib_format="bibtex").entries
    assert len(entries) > 150 and "probsee-sn5600" in entries and "nccl-2-27-release" in entries


def _console_code(page: str) -> str:
    text = (ROOT / "book" / page).read_text(encoding="utf-8")
    m = re.search(r"```\{netlab-console\}\n(.*?)```", text, re.S)
    assert m, f"{page} has no netlab-console block"
    return m.group(1)


def test_the_consoles_print_what_they_say():
    # review 31, F15: the ch05 console printed its total as "switches per tier" (2560 = 1024 + 1024 + 512)
    # and the ch02 console called 4,096 bytes "4 KB"
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(_console_code("ch05-fabrics-at-scale.md"), {})
    words = out.getvalue().split()
    total = int(words[words.index("tiers,") + 1])
    tiers = [int(x) for x in re.findall(r"\d+", out.getvalue().split("first:")[1])]
    assert total == sum(tiers) and len(tiers) == int(words[0]) and "per tier" not in " ".join(words[:5])
    ch02 = _console_code("ch02-links.md")
    assert "4096" in ch02 and "4 KB" not in ch02 and "4 KiB" in ch02


def test_failure_table_and_lab3_keys_state_their_conditions():
    # review 31, F8: a dual-homed NIC "runs on" only when its ports act as one (a LAG, or NICs merged into
    # one virtual NIC); a spine-link loss only if the fabric reroutes before the QPs' retries run out.
    # F14: lab 3 said two hosts "hand out the same key values" as a rule (it is a coincidence of history).
    ch09 = " ".join((ROOT / "book" / "ch09-optics-and-power.md").read_text(encoding="utf-8").split())
    assert "act as one to the job" in ch09 and "nccl-issue-998" in ch09 and "nccl-issue-2192" in ch09
    assert "before the queue pairs' retries run out" in ch09
    lab03 = (ROOT / "labs" / "lab03-rdma.ipynb").read_text(encoding="utf-8")
    assert "register in the same order and so hand out the same key values" not in lab03
    assert "not a rule" in lab03
