"""The registry: sources resolve in the bibliography, statuses are honest, units are right."""

import pathlib
import re

import pytest

from netlab import specs
from netlab.units import GBps, Gbps

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIB_KEYS = set(re.findall(r"^@\w+\{([^,]+),", (ROOT / "book" / "references.bib").read_text(), re.M))
# The fact sheet's two lists of UNCONFIRMED figures, copied from the shared reference (provenance in
# the file's first lines), so that every checkout checks the registry against them.
UNCONFIRMED_LISTS = ROOT / "tests" / "data" / "facts-unconfirmed.md"


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


# Each item of the fact sheet's UNCONFIRMED lists ("facts N": sections A-I, "addendum N": J1-J10),
# with the registry entries that carry that figure or its nearest secondary stand-in; () where the
# registry holds no such figure.
_IB_SWITCH_LATENCY = ("switch.ib.quantum_hdr.latency", "switch.ib.quantum2.latency_low",
                      "switch.ib.quantum2.latency_high", "switch.ib.quantum_x800.latency")
UNCONFIRMED_FIGURES = {
    "facts 1": ("rdma.unconfirmed.ib_write_lat_modern",),
    "facts 2": ("host.unconfirmed.tcp_latency_modern",),
    "facts 3": ("gpudirect.unconfirmed.latency_gain",),
    "facts 4": _IB_SWITCH_LATENCY,
    "facts 5": ("switch.eth.spectrum2.latency", "switch.eth.tomahawk_ultra.latency"),
    "facts 6": ("dcqcn.paper.kmin", "dcqcn.paper.kmax", "dcqcn.paper.pmax", "assume.dcqcn.byte_counter"),
    "facts 7": (),
    # Spectrum-X's own text is unconfirmed: its 95 %, its 1.6x and the article's "up to 35 %" of GPU cycles
    "facts 8": ("fabric.claim.spectrum_x_throughput", "fabric.claim.spectrum_x_speedup",
                "fabric.claim.gpu_cycle_gain"),
    "facts 9": (),
    "facts 10": ("ibeth.claim.ib_cost_share", "ibeth.claim.eth_cost_share"),
    "facts 11": ("ibeth.claim.ib_speedup",),
    "facts 12": (),      # chapter 1 computes what an A100 holds (netlab.training.memory)
    "facts 13": (),
    "facts 14": (),
    "addendum 1": _IB_SWITCH_LATENCY,
    "addendum 2": (),
    "addendum 3": (),
    "addendum 4": ("host.unconfirmed.tcp_latency_modern",),
    "addendum 5": ("gpudirect.unconfirmed.latency_gain",),
    "addendum 6": (),
    "addendum 7": (),
    "addendum 8": ("cost.switch_64x800g.price_low", "cost.switch_64x800g.price_high",
                   "cost.optics_400g.price_low", "cost.optics_400g.price_high",
                   "cost.optics_800g_dr8.price_low", "cost.optics_800g_dr8.price_high",
                   "cost.optics_800g_lpo.price_low", "cost.optics_800g_lpo.price_high"),
    "addendum 9": (),
    "addendum 10": (),
}
# Statuses that present a figure as established: an UNCONFIRMED figure may not carry one.
ESTABLISHED = ("standard", "shipping", "measured")


def _unconfirmed_items() -> list[str]:
    """``"facts N"`` / ``"addendum N"`` for every numbered item of the two copied lists."""
    items, section = [], None
    for line in UNCONFIRMED_LISTS.read_text(encoding="utf-8").splitlines():
        if line.startswith("## Consolidated UNCONFIRMED"):
            section = "addendum" if "addendum" in line else "facts"
        elif section and (m := re.match(r"(\d+)\. \S", line)):
            items.append(f"{section} {m.group(1)}")
    return items


def test_every_unconfirmed_item_of_the_fact_sheet_is_accounted_for():
    items = _unconfirmed_items()
    assert len(items) == 24 and len(set(items)) == 24          # 14 in sections A-I, 10 in the addendum
    assert sorted(items) == sorted(UNCONFIRMED_FIGURES)


@pytest.mark.parametrize("item", sorted(UNCONFIRMED_FIGURES))
def test_unconfirmed_items_of_the_fact_sheet_are_not_published_here(item):
    """A figure the fact sheet lists as UNCONFIRMED is in the registry, if at all, as unconfirmed
    (grade U) or as a qualified secondary figure (a vendor claim, an estimate): never primary, never
    with a status that presents it as established."""
    for key in UNCONFIRMED_FIGURES[item]:
        s = specs.get(key)
        assert s.grade != "P" and s.status not in ESTABLISHED, (item, key, s.status, s.grade)
        assert (s.grade == "U") == (s.status == "unconfirmed"), (item, key, s.status, s.grade)


def test_every_u_grade_of_the_registry_is_an_unconfirmed_item_of_the_fact_sheet():
    listed = {key for keys in UNCONFIRMED_FIGURES.values() for key in keys}
    graded_u = {s.key for s in specs.all_specs() if s.grade == "U"}
    assert graded_u and graded_u <= listed, sorted(graded_u - listed)
