"""netlab.fabric.ecmp: closed forms against exact enumeration, the fact sheet and seeded Monte Carlo."""

from fractions import Fraction
import itertools
import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab.fabric import ecmp
from tests.hang_guard import hang_guard
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    ecmp.one_throw: dict(n_paths=8, packets_per_flow=16, seed=0),
    ecmp.expected_paths_used: dict(n_flows=16, n_paths=8),
    ecmp.expected_max_load: dict(n_balls=16, n_bins=8),
    ecmp.ecmp_collisions: dict(n_flows=16, n_paths=8),
    ecmp.expected_max_of_normals: dict(n_samples=8),
    ecmp.spraying_slowdown: dict(n_flows=16, n_paths=8, packets_per_flow=64),
    ecmp.monte_carlo: dict(n_flows=16, n_paths=8, packets_per_flow=1, n_trials=10, seed=0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def _enumerate(n, m):
    """Exact E[max load] and E[share of bins used] over all m^n equally likely throws."""
    e_max, e_used = Fraction(0), Fraction(0)
    for throw in itertools.product(range(m), repeat=n):
        loads = [throw.count(b) for b in range(m)]
        e_max += max(loads)
        e_used += Fraction(sum(1 for x in loads if x), m)
    return e_max / m ** n, e_used / m ** n


@pytest.mark.parametrize("n, m", [(1, 1), (2, 2), (3, 2), (3, 3), (4, 4), (5, 3), (6, 4), (7, 2), (5, 5)])
def test_closed_forms_match_exhaustive_enumeration(n, m):
    e_max, e_used = _enumerate(n, m)
    assert ecmp.expected_max_load(n, m) == pytest.approx(float(e_max), rel=1e-9)
    assert ecmp.expected_paths_used(n, m) == pytest.approx(float(e_used), rel=1e-12)


def test_two_flows_on_two_paths_by_hand():
    # Four equally likely throws: {AA, BB} put both on one path (max 2, one path used),
    # {AB, BA} split them (max 1, both used). E[max] = 1.5, E[used] = 3/4.
    c = ecmp.ecmp_collisions(2, 2)
    assert c.expected_max_load == pytest.approx(1.5)
    assert c.fraction_of_paths_used == pytest.approx(0.75)
    assert c.completion_slowdown == pytest.approx(1.5)


@pytest.mark.parametrize("n, expected", [(2, 0.750), (4, 0.684), (8, 0.656), (16, 0.644), (32, 0.638),
                                         (64, 0.635), (128, 0.634)])
def test_fraction_used_matches_fact_sheet_table(n, expected):
    # facts.md section C: 1 - (1 - 1/n)^n for n flows on n paths, to three decimals.
    assert ecmp.expected_paths_used(n, n) == pytest.approx(expected, abs=5e-4)


def test_limit_is_one_minus_one_over_e():
    assert ecmp.expected_paths_used(10 ** 6, 10 ** 6) == pytest.approx(1 - 1 / math.e, abs=1e-6)


def test_expected_max_of_normals_known_values():
    # E[max of 2] = 1/sqrt(pi); E[max of 3] = 3 / (2 sqrt(pi)); of 1 it is 0.
    assert ecmp.expected_max_of_normals(1) == pytest.approx(0.0, abs=1e-9)
    assert ecmp.expected_max_of_normals(2) == pytest.approx(1 / math.sqrt(math.pi), rel=1e-6)
    assert ecmp.expected_max_of_normals(3) == pytest.approx(1.5 / math.sqrt(math.pi), rel=1e-6)


@pytest.mark.parametrize("n, m", [(8, 8), (64, 64), (128, 128), (256, 16), (100, 300)])
def test_closed_forms_against_monte_carlo(n, m):
    # Seeded, 4,000 trials: the closed form must sit within two 95 % half-widths (about 4 sigma).
    # An event rarer than one in 4,000 trials (an empty path among 16 with 256 flows) may never
    # be sampled, so a share also gets the resolution 1 / n_trials.
    c = ecmp.ecmp_collisions(n, m)
    mc = ecmp.monte_carlo(n, m, n_trials=4000, seed=7)
    assert (abs(mc.fraction_of_paths_used - c.fraction_of_paths_used)
            <= 2 * mc.fraction_of_paths_used_ci + 1 / 4000)
    assert abs(mc.max_load - c.expected_max_load) <= 2 * mc.max_load_ci
    assert abs(mc.completion_slowdown - c.completion_slowdown) <= 2 * mc.completion_slowdown_ci


@pytest.mark.parametrize("n, m, packets", [(128, 128, 512), (64, 16, 100), (128, 128, 64), (64, 64, 32)])
def test_spraying_approximation_against_monte_carlo(n, m, packets):
    # A normal approximation (mu = nP/m >= 32 packets per path): within 2.5 % of the sampled slowdown.
    mc = ecmp.monte_carlo(n, m, packets, n_trials=300, seed=3)
    assert ecmp.spraying_slowdown(n, m, packets) == pytest.approx(mc.completion_slowdown, rel=0.025)


def test_spraying_beats_per_flow_hashing():
    flows = ecmp.ecmp_collisions(128, 128).completion_slowdown
    sprayed = ecmp.spraying_slowdown(128, 128, 512)
    assert flows > 4 > 1.2 > sprayed > 1


def test_monte_carlo_is_deterministic_for_a_seed():
    assert ecmp.monte_carlo(32, 8, 4, 50, seed=5) == ecmp.monte_carlo(32, 8, 4, 50, seed=5)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 300), m=st.integers(1, 300))
def test_invariants(n, m):
    c = ecmp.ecmp_collisions(n, m)
    assert math.ceil(n / m) <= c.expected_max_load <= n + 1e-9
    assert 0 < c.fraction_of_paths_used <= 1
    assert c.busy_throughput_share <= 1 + 1e-12
    assert c.completion_slowdown >= 1 - 1e-12
    # One more flow never empties a path nor lightens the busiest one.
    assert ecmp.expected_paths_used(n + 1, m) >= c.fraction_of_paths_used
    assert ecmp.expected_max_load(n + 1, m) >= c.expected_max_load - 1e-9


def test_one_throw_conserves_flows_and_is_seeded():
    load = ecmp.one_throw(64, 16, seed=5)
    assert load.sum() == pytest.approx(64) and len(load) == 64
    assert (ecmp.one_throw(64, 16, seed=5) == load).all()


@pytest.mark.robustness
def test_monte_carlo_with_2_31_paths_is_refused_naming_n_paths():
    # 2^31 paths x 1,000 trials is a table of 2e12 loads: once a MemoryError (issue 17), now a
    # ValueError naming n_paths before anything is allocated
    with hang_guard(what="monte_carlo(16, 2**31)"), pytest.raises(ValueError, match="n_paths"):
        ecmp.monte_carlo(16, 2**31)
