"""netlab.optics.cpo against hand-computed loss budgets and port powers."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.optics import cpo as optics
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    optics.lpo_specified: dict(lane_rate_bps=100e9),
    optics.db_to_ratio: dict(loss_db=22.0),
    optics.ratio_to_db: dict(ratio=63.0),
    optics.channel_loss: dict(trace_length_m=0.25, n_connectors=1, n_package_crossings=1,
                              pcb_loss_db_per_m=60.0, connector_loss_db=1.5, package_loss_db=3.0),
    optics.serdes_energy_per_bit: dict(loss_db=22.0),
    optics.port_power: dict(option="cpo", port_rate_bps=1.6e12),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_decibels():
    # 10 dB is 10x, 20 dB is 100x, 3 dB is about 2x (10**0.3 = 1.995).
    assert optics.db_to_ratio(10) == pytest.approx(10)
    assert optics.db_to_ratio(20) == pytest.approx(100)
    assert optics.db_to_ratio(3) == pytest.approx(1.99526, rel=1e-5)
    assert optics.ratio_to_db(1000) == pytest.approx(30)


@given(st.floats(0, 100))
def test_db_round_trip(loss):
    assert optics.ratio_to_db(optics.db_to_ratio(loss)) == pytest.approx(loss, abs=1e-9)


def test_channel_loss_by_hand():
    # 2 package crossings x 3 dB + 0.1 m x 50 dB/m + 2 connectors x 1 dB = 6 + 5 + 2 = 13 dB;
    # power ratio 10**1.3 = 19.95.
    c = optics.channel_loss(0.1, 2, n_package_crossings=2, pcb_loss_db_per_m=50, connector_loss_db=1,
                            package_loss_db=3)
    assert (c.package_db, c.trace_db, c.connector_db) == pytest.approx((6, 5, 2))
    assert c.loss_db == pytest.approx(13)
    assert c.power_ratio == pytest.approx(19.9526, rel=1e-5)


def test_modelled_channels_bracket_the_claims():
    # Registry assumptions: pluggable = 3 dB package + (0.25 + 0.03) m x 60 dB/m + 1.5 dB cage
    # = 3 + 16.8 + 1.5 = 21.3 dB; CPO = 3 dB + 0.01 m x 60 dB/m = 3.6 dB.
    assert optics.pluggable_channel().loss_db == pytest.approx(21.3)
    assert optics.cpo_channel().loss_db == pytest.approx(3.6)
    # Both within 1 dB of NVIDIA's claimed ~22 dB and ~4 dB.
    assert abs(optics.pluggable_channel().loss_db - specs.value("optics.pluggable.channel_loss")) < 1
    assert abs(optics.cpo_channel().loss_db - specs.value("optics.cpo.channel_loss")) < 1


def test_serdes_energy_by_hand():
    # e0 = 1 pJ/bit, k = 0.2 pJ/bit/dB: 22 dB -> 5.4 pJ/bit, 4 dB -> 1.8 pJ/bit, 0 dB -> 1 pJ/bit.
    assert optics.serdes_energy_per_bit(22) == pytest.approx(5.4e-12)
    assert optics.serdes_energy_per_bit(4) == pytest.approx(1.8e-12)
    assert optics.serdes_energy_per_bit(0) == pytest.approx(1.0e-12)


def test_stage_energies_from_module_figures():
    # DSP: (15 W - 8.5 W) / 800 Gb/s = 8.125 pJ/bit; linear optics: 8.5 W / 800 Gb/s = 10.625 pJ/bit;
    # CPO engine: 9 W / 1.6 Tb/s = 5.625 pJ/bit.
    e = optics.stage_energies()
    assert e["dsp"] == pytest.approx(8.125e-12)
    assert e["linear_optics"] == pytest.approx(10.625e-12)
    assert e["cpo_engine"] == pytest.approx(5.625e-12)


def test_port_power_by_hand_at_1_6t():
    # DSP pluggable: SerDes 5.4 pJ x 1.6e12 = 8.64 W; DSP 8.125 pJ x 1.6e12 = 13 W;
    # optics 10.625 pJ x 1.6e12 = 17 W; module 30 W (= NVIDIA's ~30 W per port); total 38.64 W.
    p = optics.port_power("dsp_pluggable", 1.6e12)
    assert (p.serdes_w, p.dsp_w, p.optics_w) == pytest.approx((8.64, 13.0, 17.0))
    assert p.module_w == pytest.approx(specs.value("optics.pluggable.port_power"))
    assert p.total_w == pytest.approx(38.64)
    assert p.energy_pj_per_bit == pytest.approx(38.64 / 1.6)          # 24.15 pJ/bit
    # LPO: no DSP: 8.64 + 17 = 25.64 W.
    assert optics.port_power("lpo", 1.6e12).total_w == pytest.approx(25.64)
    # CPO: SerDes 1.8 pJ x 1.6e12 = 2.88 W, engine 9 W: 11.88 W, 7.425 pJ/bit.
    c = optics.port_power("cpo", 1.6e12)
    assert (c.serdes_w, c.dsp_w, c.optics_w, c.total_w) == pytest.approx((2.88, 0.0, 9.0, 11.88))
    assert c.energy_pj_per_bit == pytest.approx(7.425)


@given(rate=st.floats(1e9, 1e13))
def test_port_power_scales_with_rate_and_orders_options(rate):
    """Energy per bit is independent of rate, and CPO < LPO < DSP pluggable."""
    powers = {o: optics.port_power(o, rate) for o in optics.OPTIONS}
    assert powers["cpo"].total_w < powers["lpo"].total_w < powers["dsp_pluggable"].total_w
    for p in powers.values():
        assert math.isclose(p.total_w, p.serdes_w + p.dsp_w + p.optics_w)
        assert p.energy_pj_per_bit == pytest.approx(optics.port_power(p.option, 1e12).energy_pj_per_bit)


def test_unknown_option_is_refused():
    with pytest.raises(ValueError, match="option"):
        optics.port_power("copper", 800e9)


def test_cpo_claims_follow_or_not():
    c = optics.cpo_claims()
    # 22 dB - 4 dB = 18 dB -> 10**1.8 = 63.1x: the "63x signal integrity" is the loss gap.
    assert c.loss_gap_db == pytest.approx(18)
    assert c.signal_integrity_derived == pytest.approx(63.0957, rel=1e-4)
    assert c.signal_integrity_derived == pytest.approx(c.signal_integrity_claimed, rel=0.01)
    # 30 W / 9 W = 3.33x, 5 % short of the claimed 3.5x.
    assert c.power_gain_module_derived == pytest.approx(30 / 9)
    assert c.power_gain_module_derived < c.power_gain_claimed
    # With SerDes: 38.64 / 11.88 = 3.2525x.
    assert c.power_gain_port_derived == pytest.approx(38.64 / 11.88)
    assert c.laser_gain_claimed == pytest.approx(4)
    assert (c.resiliency_gain_claimed, c.deployment_speedup_claimed) == (10, 1.3)


def test_claim_statuses_are_honest():
    for key in ("optics.pluggable.channel_loss", "optics.cpo.port_power", "optics.cpo.power_efficiency_gain",
                "optics.cpo.resiliency_gain", "optics.cpo.deployment_speedup"):
        s = specs.get(key)
        assert (s.status, s.grade) == ("vendor claim", "S"), key
    assert specs.get("optics.nvidia_800g_dr8.module_power").grade == "P"


def test_lpo_is_specified_only_at_100g_lanes():
    # LPO MSA's finished 100G-DR-LPO: 100 Gb/s per lane; 200G lanes are future work.
    assert specs.value("optics.lpo_msa.lane_rate") == 100e9
    assert optics.lpo_specified(100e9) and optics.lpo_specified(50e9)
    assert not optics.lpo_specified(200e9)


def test_option_names_are_display_names():
    assert optics.option_name("dsp_pluggable") == "DSP pluggable"
    assert all("_" not in optics.option_name(o) for o in optics.OPTIONS)
    assert "PortPower(" not in str(optics.port_power("lpo", 8e11)) and "no DSP" in str(optics.port_power("lpo", 8e11))
