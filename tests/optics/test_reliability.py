"""netlab.optics.reliability: Poisson fleet failures and laser counts, by hand."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.fabric import clos as fabric
from netlab.optics import figures, reliability
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

FIT = reliability.FIT

API = {
    reliability.fabric_failures: dict(fab=fabric.fat_tree(4, 800e9), option="cpo", failure_rate_per_s=100 * FIT,
                                      cpo_mtbf_gain=10.0),
    figures.fabric_failures_summary: dict(n_gpus=1000, fit=100.0, cpo_mtbf_gain=10.0),
    figures.plot_fabric_failures: dict(fit=100.0, cpo_mtbf_gain=10.0, sizes=(1000,)),
    reliability.fleet_failures: dict(n_parts=1e6, failure_rate_per_s=100 * FIT, mtbf_gain=1.0,
                                     job_duration_s=86400.0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_fit_unit():
    # 1 FIT = 1e-9 failures per hour = 1e-9 / 3600 per second.
    assert FIT == pytest.approx(2.7778e-13, rel=1e-4)


def test_million_lasers_by_hand():
    # 1e6 lasers x 100e-9 per hour = 0.1 per hour = 2.4 per day; MTBF of the fleet = 10 h = 36,000 s;
    # P(no failure in 24 h) = exp(-2.4) = 0.0907.
    f = reliability.fleet_failures(1e6, 100 * FIT)
    assert f.failures_per_day == pytest.approx(2.4)
    assert f.mtbf_fleet_s == pytest.approx(36_000)
    assert f.p_job_unaffected == pytest.approx(math.exp(-2.4))
    # A 10x MTBF: 0.24 per day, one every 100 h, P(clean day) = exp(-0.24) = 0.787.
    g = reliability.fleet_failures(1e6, 100 * FIT, mtbf_gain=10)
    assert g.failures_per_day == pytest.approx(0.24)
    assert g.mtbf_fleet_s == pytest.approx(360_000)
    assert g.p_job_unaffected == pytest.approx(math.exp(-0.24))


def test_default_rate_is_the_registry_laser():
    assert reliability.fleet_failures(10).failure_rate_per_s == specs.value("optics.laser.failure_rate")


@given(n=st.floats(1, 1e8), gain=st.floats(1, 100))
def test_failures_scale_linearly(n, gain):
    a = reliability.fleet_failures(n, 50 * FIT)
    b = reliability.fleet_failures(n, 50 * FIT, mtbf_gain=gain)
    assert b.failures_per_day == pytest.approx(a.failures_per_day / gain)
    assert 0 <= a.p_job_unaffected <= b.p_job_unaffected <= 1


def test_k4_laser_count_by_hand():
    # k = 4 fat tree at 800 Gb/s: 80 switch-side ports and 16 NIC ports, 8 lasers per 800G pluggable.
    # Pluggable: (80 + 16) x 8 = 768 lasers. CPO (a quarter on the switch side): 80 x 2 + 16 x 8 = 288.
    fab = fabric.fat_tree(4, 800e9)
    assert reliability.fabric_lasers(fab, "dsp_pluggable").n_lasers == pytest.approx(768)
    assert reliability.fabric_lasers(fab, "cpo").n_lasers == pytest.approx(288)
    # At 400 Gb/s a port has half a module's lasers: 4 each.
    assert reliability.fabric_lasers(fabric.fat_tree(4, 400e9), "lpo").n_lasers == pytest.approx(384)


def test_laser_count_against_lambdas_estimate():
    """Lambda estimates ~5 M lasers for 128k GPUs on pluggables (grade S). Our count from a
    3-tier Quantum-X800 fabric (144 ports of 800G) must land within a factor 1.5 of it."""
    fab = fabric.for_switch("quantum_x800", 131_072)
    ours = reliability.fabric_lasers(fab, "dsp_pluggable").n_lasers
    lambda_estimate = specs.value("optics.lasers.pluggable_128k")
    assert lambda_estimate / 1.5 < ours < lambda_estimate * 1.5


def test_cpo_gain_reaches_only_the_switch_side_lasers_128k_by_hand():
    """Chapter 9: 128k GPUs on a 3-tier Quantum-X800 fabric, CPO on the switches, pluggables on
    the NICs, 100 FIT per laser. Hand count: 655,520 switch ports x 2 lasers = 1,311,040 CPO lasers;
    131,072 NIC ports x 8 = 1,048,576 pluggable lasers. With a 10x MTBF on the CPO lasers only:
    1,311,040 x 10e-9 + 1,048,576 x 100e-9 = 0.0131 + 0.1049 = 0.1180 failures per hour,
    one every 8.48 h (not the 42 h a 10x on every laser would give), 89 % of them at the NICs."""
    fab = fabric.for_switch("quantum_x800", 131_072)
    f = reliability.fabric_failures(fab, "cpo", 100 * FIT, cpo_mtbf_gain=10)
    per_hour = 1_311_040 * 10e-9 + 1_048_576 * 100e-9
    assert f.failures_per_day == pytest.approx(per_hour * 24)
    assert f.mtbf_fleet_s / 3600 == pytest.approx(1 / per_hour)
    assert 8.4 < f.mtbf_fleet_s / 3600 < 8.6
    assert f.nic_share == pytest.approx(1_048_576 * 100e-9 / per_hour)
    assert f.nic_share > 0.85
    # Without the gain: 2,359,616 lasers x 100e-9 per hour = 5.66 a day.
    assert reliability.fabric_failures(fab, "cpo", 100 * FIT).failures_per_day == pytest.approx(
        2_359_616 * 100e-9 * 24)
    # A CPO claim does nothing for a pluggable fabric.
    plug = reliability.fabric_failures(fab, "dsp_pluggable", 100 * FIT, cpo_mtbf_gain=10)
    assert plug.failures_per_day == pytest.approx(6_292_736 * 100e-9 * 24)


def test_fabric_failures_rejects_a_gain_below_one():
    fab = fabric.fat_tree(4, 800e9)
    with pytest.raises(ValueError, match="cpo_mtbf_gain"):
        reliability.fabric_failures(fab, "cpo", cpo_mtbf_gain=0.5)
