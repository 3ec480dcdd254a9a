"""The checkable seed claims the 2026-12-05 review of chapters 9-11 found unexamined now have rows in
the claims appendix (issue 31); each row's numbers are recomputed here from netlab and the registry."""

import pathlib
import re

import pytest

from netlab import cluster, specs
from netlab.longhaul import distance
from netlab.optics import cpo

APPENDIX = (pathlib.Path(__file__).resolve().parents[1] / "book" / "appendix-claims.md").read_text()


def _row(claim: str) -> str:
    return next(line for line in APPENDIX.splitlines() if line.startswith(f"| {claim} "))


@pytest.mark.parametrize("claim, verdict", [("Dx13", "does not hold"), ("Dx14", "holds with qualification"),
                                            ("Dx15", "unverifiable"), ("Dx16", "unverifiable"),
                                            ("Dx17", "does not hold"), ("Dx18", "unverifiable"),
                                            ("Dx19", "unverifiable"), ("Cx5", "holds with qualification"),
                                            ("Cx6", "holds with qualification")])
def test_every_examined_claim_has_a_verdict_and_sources(claim, verdict):
    cells = [c.strip() for c in _row(claim).strip("|").split("|")]
    assert cells[1] == verdict and "{cite:p}" in cells[3]


def test_dx13_most_of_a_pluggables_30_w_is_not_signal_restoration():
    port = cpo.port_power("dsp_pluggable", 1.6e12)
    assert port.module_w == pytest.approx(30.0) and port.dsp_w == pytest.approx(13.0)
    assert port.optics_w == pytest.approx(17.0) == cpo.port_power("lpo", 1.6e12).optics_w
    assert "13 W of DSP" in _row("Dx13") and "17 W of optics" in _row("Dx13")


def test_dx14_a_30_w_module_exceeds_an_sn5600_cage():
    cage = specs.value("fabric.sn5600.cage_power")
    assert cage == 18.0 and 30.0 > cage and 64 * 30.0 == pytest.approx(1.92e3)
    assert "1.9 kW" in _row("Dx14")


def test_dx18_pfc_headroom_over_10_km_exceeds_a_shallow_buffer():
    # 800 Gb/s x 97.9 us round trip / 8 = 9.79 MB per lossless priority and port
    bdp = distance.long_link(10e3, 800e9).bdp_bytes
    assert bdp == pytest.approx(800e9 * 2 * 10 * 4.897e-6 / 8, rel=1e-3)
    buffer = specs.value("fabric.sn5600.buffer")
    assert round(bdp / 1e6, 1) == 9.8 and round(64 * bdp / 1e6) == 627 and round(64 * bdp / buffer, 1) == 4.9
    assert all(x in _row("Dx18") for x in ("9.8 MB", "627 MB", "4.9 times"))


def test_e7d_the_delay_is_weeks():
    work = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, tokens_per_step=1152 * 4096,
                            n_tokens=15e12)
    days = {k: cluster.evaluate(cluster.capstone_design("dgx-h100", k, "dsp_pluggable", 1.0), work).training_days
            for k in ("eth-ecmp", "ib-adaptive")}
    assert round(days["eth-ecmp"], 1) == 91.5 and round(days["ib-adaptive"], 1) == 69.9   # interruptions included
    assert 14 < days["eth-ecmp"] - days["ib-adaptive"] < 28          # weeks, not months
    assert "91.5 days against 69.9" in _row("E7d")


def test_cx5_compute_and_networking_share():
    assert 47.41 / 60.92 == pytest.approx(0.778, abs=0.0005)
    assert re.search(r"78 %.*22 %", _row("Cx5"))
