"""The registry: sources resolve in the bibliography, statuses are honest, units are right."""

import pathlib
import re

import pytest

from netlab import specs
from netlab.units import GBps, Gbps

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIB_KEYS = set(re.findall(r"^@\w+\{([^,]+),", (ROOT / "book" / "references.bib").read_text(), re.M))
FACTS = ROOT.parent / "shared" / "reference" / "facts.md"


def test_every_source_key_is_in_the_bibliography():
    missing = sorted({s.source for s in specs.all_specs()} - BIB_KEYS)
    assert not missing, f"keys missing from book/references.bib: {missing}"


def test_statuses_and_grades_are_consistent():
    for s in specs.all_specs():
        assert s.status in specs.STATUSES and s.grade in specs.GRADES
        if s.grade == "U":
            assert s.status == "unconfirmed", s.key
        if s.status == "assumption":
            assert s.source == "netlab-assumptions", s.key


def test_a_u_grade_cannot_pose_as_published():
    with pytest.raises(ValueError, match="unconfirmed"):
        specs.Spec("x.y", 1.0, "s", "d", "netlab-assumptions", "2026", "shipping", "U")


def test_duplicate_keys_are_refused():
    with pytest.raises(ValueError, match="twice"):
        specs.register(specs.get("ib.ndr.port_rate"))


def test_unknown_key_lists_neighbours():
    with pytest.raises(KeyError, match="ib.ndr.port_rate"):
        specs.get("ib.ndr.port_rat")


# Values checked against the fact sheet (sections B.1, D.1, D.3, G, J5, H) by hand.
@pytest.mark.parametrize("key, expected", [
    ("ib.sdr.port_signal_rate", 10 * Gbps), ("ib.sdr.port_rate", 8 * Gbps),
    ("ib.qdr.port_rate", 32 * Gbps), ("ib.fdr.port_signal_rate", 56.25 * Gbps),
    ("ib.edr.port_rate", 100 * Gbps), ("ib.hdr.port_rate", 200 * Gbps),
    ("ib.ndr.port_rate", 400 * Gbps), ("ib.xdr.port_rate", 800 * Gbps),
    ("eth.100g.port_rate", 100 * Gbps), ("eth.800g.port_rate", 800 * Gbps),
    ("pcie.3.x16_rate", 15.75 * GBps), ("pcie.4.x16_rate", 31.5 * GBps),
    ("pcie.5.x16_rate", 63.0 * GBps), ("pcie.6.x16_rate", 128 * GBps),
    ("nvlink.1.per_gpu_bidir", 160 * GBps), ("nvlink.4.per_gpu_bidir", 900 * GBps),
    ("nvlink.4.per_gpu", 450 * GBps), ("nvlink.5.per_gpu", 900 * GBps),
    ("gpu.a100_80gb.memory", 80e9), ("gpu.h100.memory", 80e9), ("gpu.h200.memory", 141e9),
    ("gpu.h100.bf16_dense", 989.4e12), ("fiber.smf.group_index", 1.468),
])
def test_values_match_the_fact_sheet(key, expected):
    assert specs.value(key) == pytest.approx(expected, rel=2e-3)


def test_every_bidirectional_figure_has_a_one_way_partner_of_half():
    for s in specs.all_specs():
        if s.key.endswith("_bidir"):
            partner = specs.get(s.key[: -len("_bidir")])
            assert partner.value == pytest.approx(s.value / 2)


@pytest.mark.skipif(not FACTS.exists(), reason="the fact sheet lives outside the repository")
def test_unconfirmed_items_of_the_fact_sheet_are_not_published_here():
    """Figures the fact sheet lists as UNCONFIRMED must not appear with a published status."""
    text = FACTS.read_text()
    assert "UNCONFIRMED" in text
    for s in specs.all_specs():
        if s.status == "unconfirmed":
            assert s.grade == "U"
