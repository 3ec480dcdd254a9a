"""Chapter 9's table of seed claims D10-D12 gives the verdicts the claims appendix gives (issue 31,
review N5), and its laser counts bracket both of Lambda's estimates (N6)."""

import pathlib
import re

import pytest

from netlab import specs
from netlab.fabric import clos
from netlab.optics import reliability

BOOK = pathlib.Path(__file__).resolve().parents[2] / "book"
VERDICTS = ("holds with qualification", "does not hold", "unverifiable", "holds")


def _chapter_verdicts() -> dict[str, str]:
    rows = [line for line in (BOOK / "ch09-optics-and-power.md").read_text().splitlines()
            if re.match(r"\| D1[0-2]: ", line)]
    return {row.split("|")[1].strip(): re.search(r"\*\*(.+?)\*\*", row.split("|")[2]).group(1) for row in rows}


def _appendix_verdict(claim: str) -> str:
    row = next(line for line in (BOOK / "appendix-claims.md").read_text().splitlines()
               if line.startswith(f"| {claim} "))
    return row.split("|")[2].strip()


def test_chapter_9_uses_the_appendix_vocabulary():
    found = _chapter_verdicts()
    assert len(found) == 8
    for claim, verdict in found.items():
        assert verdict.startswith(VERDICTS) or verdict == "follows from D10", (claim, verdict)


@pytest.mark.parametrize("chapter_row, appendix_row", [
    ("D10: electrical loss 22 dB (pluggable) vs 4 dB (CPO)", "D10a"),
    ("D10: ~30 W per pluggable port vs ~9 W per CPO port", "D10b"),
    ("D12: 3.5x power efficiency", "D12a"),
    ("D12: 1.3x faster bring-up", "D12c"),
])
def test_chapter_9_and_the_appendix_agree(chapter_row, appendix_row):
    # before: "claim, plausible" / "30 W follows" / "roughly follows" against the appendix's verdicts
    assert _chapter_verdicts()[chapter_row].startswith(_appendix_verdict(appendix_row))


def test_laser_counts_at_both_lane_counts_bracket_lambdas_two_estimates():
    fab = clos.for_switch("quantum_x800", 131_072)
    count = {(n, o): reliability.fabric_lasers(fab, o, n).n_lasers
             for n in (8, 4) for o in ("dsp_pluggable", "cpo")}
    # one laser per lane: halving the lanes halves every count
    assert count[4, "dsp_pluggable"] == pytest.approx(count[8, "dsp_pluggable"] / 2)
    assert count[4, "cpo"] == pytest.approx(count[8, "cpo"] / 2)
    assert round(count[4, "dsp_pluggable"] / 1e6, 1) == 3.1 and round(count[4, "cpo"] / 1e6, 1) == 1.2
    pluggable, cpo = specs.value("optics.lasers.pluggable_128k"), specs.value("optics.lasers.cpo_128k")
    # each lane count matches one estimate within 25 % and misses the other by about 2x
    assert abs(count[8, "dsp_pluggable"] / pluggable - 1) < 0.3 and count[8, "cpo"] / cpo > 2
    assert abs(count[4, "cpo"] / cpo - 1) < 0.25 and pluggable / count[4, "dsp_pluggable"] > 1.5
    text = (BOOK / "ch09-optics-and-power.md").read_text()
    assert "about 1 million with CPO" in re.sub(r"\s+", " ", text)


def test_lasers_per_module_is_validated():
    fab = clos.for_switch("quantum_x800", 4096)
    with pytest.raises(ValueError, match="lasers_per_module"):
        reliability.fabric_lasers(fab, "cpo", -4)
