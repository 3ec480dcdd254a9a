"""netlab.lossless.dcqcn (the DCQCN fluid model) against its own equations solved by hand,
its integration, and the packet simulation."""


import pytest

from netlab import specs
from netlab.lossless import dcqcn
from netlab.lossless import experiments as sc
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params
from hypothesis import given, settings, strategies as st

API = {
    dcqcn.marking_probability: dict(queue_bytes=50e3, kmin_bytes=5e3, kmax_bytes=200e3, pmax=0.01),
    dcqcn.simulate: dict(duration_s=1e-3, dt_s=5e-6, sample_every=10),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_marking_profile_jumps_to_one_above_kmax():
    p = lambda q: dcqcn.marking_probability(q, 5e3, 200e3, 0.01)  # noqa: E731
    assert p(5e3) == 0 and p(102.5e3) == pytest.approx(0.005) and p(200e3) == pytest.approx(0.01)
    assert p(200.001e3) == 1.0


def test_registry_has_the_papers_marking_profile():
    assert specs.value("dcqcn.paper.kmin") == 5e3 and specs.value("dcqcn.paper.kmax") == 200e3
    assert specs.value("dcqcn.paper.pmax") == 0.01          # not the 10 % netlab used before


def _derivatives_by_hand(prm, p, rc, rt, alpha):
    """The fluid equations for one flow written out directly with math (not numpy)."""
    r = rc / (8 * prm.packet_bytes)                        # packets per second
    a = 1 - (1 - p) ** (prm.cnp_interval_s * r)
    B = prm.byte_counter_bytes / prm.packet_bytes
    TR = prm.rate_timer_s * r
    b = r * p / ((1 - p) ** (-B) - 1)
    t = r * p / ((1 - p) ** (-TR) - 1)
    F = prm.fast_recovery_steps
    d_alpha = prm.g / prm.alpha_timer_s * ((1 - (1 - p) ** (prm.alpha_timer_s * r)) - alpha)
    d_rt = -(rt - rc) * a / prm.cnp_interval_s + prm.rate_ai_bps * (b * (1 - p) ** (F * B) + t * (1 - p) ** (F * TR))
    d_rc = -rc * alpha * a / (2 * prm.cnp_interval_s) + (rt - rc) / 2 * (b + t)
    return d_alpha, d_rt, d_rc


@pytest.mark.parametrize("n", [2, 3, 5])
def test_fixed_point_zeroes_every_equation(n):
    prm = dcqcn.Params(n_flows=n)
    fp = dcqcn.fixed_point(prm)
    assert fp.rate_bps == pytest.approx(40e9 / n)
    d_alpha, d_rt, d_rc = _derivatives_by_hand(prm, fp.marking_probability, fp.rate_bps, fp.target_bps, fp.alpha)
    assert abs(d_alpha) < 1e-9 * 71                          # g / tau' ~ 71 per second
    assert abs(d_rt) < 1e-6 * fp.rate_bps * 1e4 and abs(d_rc) < 1e-6 * fp.rate_bps * 1e4
    # the queue sits where the marking profile gives p
    if fp.marking_probability <= prm.pmax:
        assert dcqcn.marking_probability(fp.queue_bytes, prm.kmin_bytes, prm.kmax_bytes, prm.pmax) == \
            pytest.approx(fp.marking_probability)


def test_more_flows_need_more_marking():
    p = [dcqcn.fixed_point(dcqcn.Params(n_flows=n)).marking_probability for n in (2, 3, 5, 10)]
    assert p == sorted(p) and p[0] == pytest.approx(0.0030, rel=0.05)


@pytest.mark.parametrize("n", [2, 3])
def test_integration_settles_on_the_fixed_point(n):
    prm = dcqcn.Params(n_flows=n)
    fp = dcqcn.fixed_point(prm)
    tr = dcqcn.simulate(prm, duration_s=0.1, start_times_s=[i * 200e-6 for i in range(n)])
    late = tr.time_s >= 0.05
    assert tr.mean_rates_bps(0.05) == pytest.approx([fp.rate_bps] * n, rel=0.005)
    assert tr.queue_bytes[late].mean() == pytest.approx(fp.queue_bytes, rel=0.03)


def test_fluid_model_against_the_packet_simulation_two_flows():
    # Two flows at 40 Gb/s for 100 ms: the fluid model's queue (63.9 KB) against the packet
    # simulation's mean over the last 50 ms (71-74 KB over seeds 0-1): within 25 %.
    fp = dcqcn.fixed_point(dcqcn.Params(n_flows=2))
    r = sc.dcqcn_sharing(2, duration_s=0.1, sample_interval_s=5e-3)
    assert r.mean_queue_bytes(0.05) == pytest.approx(fp.queue_bytes, rel=0.25)
    assert r.mean_rates_bps(0.05) == pytest.approx([fp.rate_bps * 4096 / 4160] * 2, rel=0.05)


def test_fluid_defaults_are_the_packet_senders():
    from netlab.sim.cc import DCQCN
    cc, prm = DCQCN(), dcqcn.Params()
    assert (prm.g, prm.cnp_interval_s, prm.alpha_timer_s, prm.rate_timer_s, prm.fast_recovery_steps,
            prm.rate_ai_bps) == (cc.g, cc.cnp_interval_s, cc.alpha_timer_s, cc.rate_timer_s,
                                 cc.fast_recovery_steps, cc.rate_ai_bps) == (1 / 256, 50e-6, 55e-6, 60e-6, 5, 40e6)


def test_marking_probability_scales_with_packet_size():
    """Review N4: marking is per packet. The CNPs a sender needs per second do not depend on its
    packet size, and for small p the CNP rate is about p x packets per second, so p* grows in
    proportion to the packet size; ten flows sit inside the profile at 1 KB of payload and are
    pinned at K_max only at 4 KB."""
    small = dcqcn.fixed_point(dcqcn.Params(n_flows=2, packet_bytes=1088))
    big = dcqcn.fixed_point(dcqcn.Params(n_flows=2, packet_bytes=4160))
    assert big.marking_probability / small.marking_probability == pytest.approx(4160 / 1088, rel=0.05)
    ten_small = dcqcn.fixed_point(dcqcn.Params(n_flows=10, packet_bytes=1088))
    ten_big = dcqcn.fixed_point(dcqcn.Params(n_flows=10, packet_bytes=4160))
    assert ten_small.marking_probability < specs.value("dcqcn.paper.pmax") < ten_big.marking_probability
    kmax = specs.value("dcqcn.paper.kmax")
    assert ten_small.queue_bytes < 0.7 * kmax and ten_big.queue_bytes == kmax
