"""netlab.reliability: Poisson fleet failures and laser counts, by hand."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab import fabric, reliability, specs
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

FIT = reliability.FIT

API = {
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
