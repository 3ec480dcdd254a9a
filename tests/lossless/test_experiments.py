"""The chapter 4 scenarios: input checks and the behaviour the chapter states."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.lossless import experiments as sc
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    sc.flow_control: dict(mode="pfc", buffer_bytes=100e3),
    sc.incast: dict(mode="pfc", n_senders=2, size_bytes=8_000, buffer_bytes=100e3, bandwidth_bps=100e9,
                    rto_s=100e-6, seed=0, sample_interval_s=1e-6),
    sc.victim: dict(mode="pfc", size_bytes=8_000, buffer_bytes=100e3, bandwidth_bps=100e9, rto_s=100e-6,
                    seed=0, sample_interval_s=1e-6),
    sc.deadlock: dict(mode="pfc", size_bytes=8_000, buffer_bytes=60e3, bandwidth_bps=100e9, seed=0),
    sc.pause_storm: dict(mode="pfc", size_bytes=8_000, storm_start_s=1e-6, duration_s=20e-6, buffer_bytes=100e3,
                         bandwidth_bps=100e9, seed=0),
    sc.dcqcn_sharing: dict(n_flows=2, duration_s=50e-6, bandwidth_bps=25e9, stagger_s=10e-6,
                           rate_ai_bps=0.5e9, seed=0, sample_interval_s=10e-6, kmin_bytes=5e3,
                           kmax_bytes=200e3, pmax=0.01, byte_counter_bytes=10e6),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_incast_lossless_reaches_ideal_and_lossy_collapses():
    # ideal for 8 x 64 kB at 100 Gb/s: 8 x (64 000 + 16 x 64) x 8 / 1e11 = 41.6 us
    for mode in ("pfc", "credits"):
        r = sc.incast(mode, 8)
        assert r.ideal_time_s == pytest.approx(8 * (64_000 + 16 * 64) * 8 / 100e9)
        assert r.goodput_fraction > 0.95 and r.dropped_packets == 0
    lossy = sc.incast("lossy", 8, buffer_bytes=50e3)
    assert lossy.timeouts > 0 and lossy.goodput_fraction < 0.5


def test_victim_is_slowed_by_pauses_more_than_by_sharing():
    lossy, pfc = sc.victim("lossy"), sc.victim("pfc")
    assert pfc.shared_link_paused_s > 0 and lossy.shared_link_paused_s == 0
    assert pfc.slowdown > 1.5 * lossy.slowdown


def test_deadlock_needs_the_cycle():
    assert sc.deadlock("pfc").stop_reason == "deadlock"
    assert sc.deadlock("pfc", clockwise=False).stop_reason == "complete"


def test_dcqcn_keeps_the_queue_far_below_pfc_alone():
    with_ecn = sc.dcqcn_sharing(2, duration_s=2e-3, sample_interval_s=100e-6)
    without = sc.dcqcn_sharing(2, ecn=False, duration_s=2e-3, sample_interval_s=100e-6)
    assert max(with_ecn.queue_bytes) < 0.25 * max(without.queue_bytes)
    assert len(with_ecn.rates_bps) == 2 and with_ecn.fair_share_bps == pytest.approx(40e9 * 4096 / 4160 / 2)


@pytest.mark.parametrize("n_flows, seed, tolerance, jain", [(2, 0, 0.05, 0.998), (2, 1, 0.05, 0.998),
                                                         (2, 2, 0.05, 0.998), (3, 0, 0.15, 0.985),
                                                         (3, 1, 0.15, 0.985), (3, 2, 0.15, 0.985)])
def test_dcqcn_reaches_the_fair_share_with_the_papers_parameters(n_flows, seed, tolerance, jain):
    # 100 ms at 40 Gb/s with the paper's marking profile (1 % at most): over the last 50 ms
    # two flows each get their fair share within 5 %; three flows wander further (85-113 %
    # over seeds 0-2), the slow timescale the chapter explains. The old 4 ms run with 10 %
    # marking left 11.3 / 7.2 / 6.2 Gb/s against 8.21 (a 38 % spread) and passed a 60:40 test.
    r = sc.dcqcn_sharing(n_flows, duration_s=0.1, seed=seed)
    means = r.mean_rates_bps(0.05)
    assert all(abs(m / r.fair_share_bps - 1) < tolerance for m in means), means
    assert r.jain_index(0.05) > jain
    assert sum(means) > 0.97 * n_flows * r.fair_share_bps
    assert "Jain index" in str(r) and "SharingResult(" not in str(r)


def test_pause_storm_spreads_with_pfc_and_not_when_lossy():
    pfc, lossy = sc.pause_storm("pfc"), sc.pause_storm("lossy")
    assert lossy.victim_delivered_fraction == 1.0 and lossy.paused_ports == ("s1[1]",)
    assert pfc.victim_delivered_fraction < 0.5
    assert {"h0[0]", "s0[0]"} <= set(pfc.paused_ports)      # back to the victim's own NIC


def test_lossless_incast_default_timeout_is_a_roce_adapters_not_100_us():
    # 32 x 200 KB under PFC: nothing is lost, but a paused sender's packets wait longer
    # than 100 us, so a 100 us timer fires on queued data (spurious timeouts). The default
    # is the RoCE adapter's 4.096 us x 2^14 = 67.1 ms: no timeout, nothing resent.
    spurious = sc.incast("pfc", 32, 200_000, rto_s=100e-6)
    assert spurious.dropped_packets == 0 and spurious.timeouts > 0 and spurious.retransmitted_packets > 0
    default = sc.incast("pfc", 32, 200_000)
    assert default.timeouts == 0 and default.retransmitted_packets == 0 and default.goodput_fraction > 0.99
    assert sc.incast("lossy", 8, buffer_bytes=50e3).timeouts > 0      # lossy keeps its short 100 us timer


def test_sharing_readout_reads_the_shares_jain_index_and_queue():
    # Lab 4's explorer shows str(SharingResult). Samples end at 1-4 ms; the second half is after 2 ms:
    # the intervals ending at 3 and 4 ms. Flows average 10, 20 and 30 Gb/s there against a fair share
    # of 20: 50 %, 100 %, 150 %; Jain (10 + 20 + 30)^2 / (3 x (100 + 400 + 900)) = 3,600 / 4,200 = 0.857;
    # the queue samples after 2 ms, 50 and 150 KB, average 100 KB; the largest of all is 150 KB.
    g = 1e9
    r = sc.SharingResult(n_flows=3, time_s=(1e-3, 2e-3, 3e-3, 4e-3),
                         rates_bps=((5 * g, 5 * g, 10 * g, 10 * g), (5 * g, 5 * g, 20 * g, 20 * g),
                                    (5 * g, 5 * g, 30 * g, 30 * g)),
                         queue_time_s=(1e-3, 2e-3, 3e-3, 4e-3), queue_bytes=(0, 120_000, 50_000, 150_000),
                         fair_share_bps=20 * g, run=None)
    assert str(r) == ("3 flows, over the second half of the run each got 50%, 100%, 150% of the fair share "
                      "20 Gb/s (Jain index 0.857); mean queue 100 KB, largest 150 KB")


def test_fair_share_is_the_payload_rate_over_the_flows():
    # 40 Gb/s carries 4,096 B of payload per 4,160 B on the wire: 39.385 Gb/s, 13.13 Gb/s for each of 3
    r = sc.dcqcn_sharing(3, duration_s=0.01, sample_interval_s=1e-3)
    assert r.fair_share_bps == pytest.approx(40e9 * 4096 / 4160 / 3)
    assert "of the fair share 13.1 Gb/s" in str(r)


def test_storm_readout_counts_the_ports_still_paused():
    one = sc.StormResult(mode="lossy", victim_delivered_fraction=1.0, paused_ports=("s1[1]",), run=None)
    assert str(one) == "lossy: the victim delivered 100% of its data; 1 port still paused at the end (s1[1])"
    two = sc.StormResult(mode="pfc", victim_delivered_fraction=0.25, paused_ports=("h0[0]", "s0[0]"), run=None)
    assert str(two) == ("pfc: the victim delivered 25% of its data; 2 ports still paused at the end "
                        "(h0[0], s0[0])")
