"""The long-haul scenario against the closed forms of netlab.longhaul.distance.

Tolerances: the window-limited goodput is measured as the slope of delivered bytes
between 20 % and 80 % of the flow, sampled 200 times, so it is within one sample's
worth of bytes of the true steady rate; we allow 3 %. The DCQCN overshoot slope is
the difference of two runs' peak queues over the difference of their RTT excess;
random ECN marks move each peak by a few packets, so we allow 5 %.
"""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.longhaul import distance as longhaul
from netlab.longhaul import experiments as sim_longhaul
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

C = 299_792_458.0
NET = sim_longhaul.two_sites(1, 100e9, 1e3)

API = {
    sim_longhaul.two_sites: dict(hosts_per_site=1, bandwidth_bps=100e9, distance_m=1e3, long_bandwidth_bps=100e9),
    sim_longhaul.base_rtt: dict(net=NET, data_bytes=4160),
    sim_longhaul.window_throughput: dict(distance_m=1e3, bandwidth_bps=100e9, window_bytes=1e5,
                                         size_bytes=1_000_000, seed=0),
    sim_longhaul.dcqcn_overshoot: dict(distance_m=1e3, bandwidth_bps=100e9, n_senders=2, size_bytes=1_000_000,
                                       kmin_bytes=100_000, kmax_bytes=400_000, seed=0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_long_link_has_the_fibre_delay():
    net = sim_longhaul.two_sites(2, 100e9, 10e3)
    long_port = net.switches["s0"].ports[0]
    assert long_port.peer.name == "s1"
    assert long_port.propagation_s == pytest.approx(10e3 * 1.468 / C)      # 48.97 us


def test_base_rtt_by_hand():
    # 1 km: fibre 2 x 4.8967 us; host links 2 x 2 x 25 ns; three links each serialize a 4,160-B data
    # packet and a 64-B ACK at 100 Gb/s: 3 x 4,224 x 8 / 1e11 = 1.01376 us.
    rtt = sim_longhaul.base_rtt(NET, 4160)
    assert rtt == pytest.approx(2 * 1e3 * 1.468 / C + 4 * 25e-9 + 3 * 4224 * 8 / 100e9, rel=1e-9)


@pytest.mark.parametrize("distance_m", [1e3, 10e3])
@pytest.mark.parametrize("fraction_of_bdp", [0.25, 0.5, 2.0])
def test_window_limited_goodput_matches_closed_form(distance_m, fraction_of_bdp):
    """Goodput = min(B, W / RTT): a quarter of the BDP gives a quarter of the link."""
    bdp = longhaul.long_link(distance_m, 100e9).bdp_bytes
    run = sim_longhaul.window_throughput(distance_m, 100e9, fraction_of_bdp * bdp, 8_000_000)
    assert run.simulated_goodput_bps == pytest.approx(run.predicted_goodput_bps, rel=0.03)
    if fraction_of_bdp >= 1.2:
        # A window above the BDP fills the link: payload rate 100 Gb/s x 4096/4160.
        assert run.simulated_goodput_bps == pytest.approx(100e9 * 4096 / 4160, rel=0.03)
    else:
        assert run.simulated_goodput_bps < 0.6 * 100e9


def test_the_same_window_starves_a_longer_link():
    # A window sized for 1 km (its BDP) gets only about 1/9 of a 10 km link: RTT 10.9 us vs 99 us.
    window = longhaul.long_link(1e3, 100e9).bdp_bytes * 1.1
    near = sim_longhaul.window_throughput(1e3, 100e9, window, 4_000_000)
    far = sim_longhaul.window_throughput(10e3, 100e9, window, 4_000_000)
    assert far.simulated_goodput_bps / near.simulated_goodput_bps == pytest.approx(
        near.rtt_s / far.rtt_s, rel=0.05)


def test_dcqcn_overshoot_grows_by_one_rtt_of_excess_rate():
    """Peak queue(10 km) - peak queue(0 km) = (n - 1) * B * (RTT_10km - RTT_0km) / 8, within 5 %."""
    for n in (2, 3):
        near = sim_longhaul.dcqcn_overshoot(0.0, 100e9, n_senders=n, size_bytes=3_000_000)
        far = sim_longhaul.dcqcn_overshoot(10e3, 100e9, n_senders=n, size_bytes=3_000_000)
        assert near.dropped_packets == far.dropped_packets == 0
        growth = far.peak_queue_bytes - near.peak_queue_bytes
        expected = (n - 1) * 100e9 * (far.rtt_s - near.rtt_s) / 8
        assert growth == pytest.approx(expected, rel=0.05)
        assert far.peak_queue_bytes > far.rtt_excess_bytes        # the fixed part comes on top


def test_runs_repeat_exactly_for_a_seed():
    a = sim_longhaul.dcqcn_overshoot(1e3, 100e9, size_bytes=1_000_000, seed=7)
    b = sim_longhaul.dcqcn_overshoot(1e3, 100e9, size_bytes=1_000_000, seed=7)
    assert a == b
