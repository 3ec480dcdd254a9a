"""netlab.collectives.alpha_beta against textbook closed forms and nccl-tests' busbw definitions."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab.collectives import alpha_beta as cc
from tests.hang_guard import hang_guard
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    cc.busbw_factor: dict(collective="all_reduce", world_size=8),
    cc.algbw: dict(n_bytes=1e6, time_s=1e-3),
    cc.busbw: dict(n_bytes=1e6, time_s=1e-3, collective="all_reduce", world_size=8),
    cc.ring_all_reduce_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.ring_reduce_scatter_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.ring_all_gather_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.all_to_all_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.tree_all_reduce_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.halving_doubling_all_reduce_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6,
                                              bandwidth_bps=400e9),
    cc.double_binary_tree_all_reduce_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6,
                                                bandwidth_bps=400e9, n_pipeline_chunks=4),
    cc.hierarchical_all_reduce_time: dict(n_bytes=1e6, domain_size=8, n_domains=4, intra_alpha_s=2e-6,
                                          intra_bandwidth_bps=3.6e12, inter_alpha_s=5e-6,
                                          inter_bandwidth_bps=400e9),
    cc.in_network_all_reduce_time: dict(n_bytes=1e6, world_size=8, alpha_s=5e-6, bandwidth_bps=400e9,
                                        n_pipeline_chunks=8),
    cc.ring_tree_crossover_bytes: dict(world_size=16, alpha_s=5e-6, bandwidth_bps=400e9),
    cc.straggler_ring_all_reduce_time: dict(n_bytes=1e6, link_bandwidths_bps=[400e9] * 4, alpha_s=5e-6),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


# --- busbw: nccl-tests doc/PERFORMANCE.md and src/*.cu (commit 03a204a1) ---------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 8, 16, 1000])
def test_busbw_factors_match_nccl_tests(n):
    assert cc.busbw_factor("all_reduce", n) == pytest.approx(2 * (n - 1) / n)
    assert cc.busbw_factor("all_reduce", n, in_network=True) == pytest.approx((n - 1) / (n + 1))
    for coll in ("reduce_scatter", "all_gather", "all_to_all"):
        assert cc.busbw_factor(coll, n) == pytest.approx((n - 1) / n)
    assert cc.busbw_factor("broadcast", n) == 1.0
    assert cc.busbw_factor("reduce", n) == 1.0


def test_in_network_factor_only_for_all_reduce():
    with pytest.raises(ValueError, match="in_network"):
        cc.busbw_factor("all_gather", 8, in_network=True)


def test_busbw_of_published_h100_nvls_row():
    # nccl-tests issue 212: 8 x H100 NVLS, algbw about 275 GB/s printed with busbw about 480 GB/s;
    # 275 * 2 * 7 / 8 = 481.25 GB/s. S = 1 GB, t = 1e9 / 275e9 s.
    t = 1e9 / 275e9
    assert cc.algbw(1e9, t) / 8e9 == pytest.approx(275)
    assert cc.busbw(1e9, t, "all_reduce", 8) / 8e9 == pytest.approx(481.25)


# --- closed forms ---------------------------------------------------------------------------------
def test_ring_all_reduce_textbook():
    # 2(n-1) a + 2(n-1)/n N/B with n = 8, a = 5 us, N = 1 GB, B = 400 Gb/s = 50 GB/s:
    # 14 * 5 us = 70 us; 1.75 * 1e9 / 50e9 = 35 ms.
    r = cc.ring_all_reduce_time(1e9, 8, 5e-6, 400e9)
    assert r.latency_s == pytest.approx(70e-6)
    assert r.transfer_s == pytest.approx(35e-3)
    # busbw of the ring is the link rate once the latency term is negligible
    big = cc.ring_all_reduce_time(1e12, 8, 5e-6, 400e9)
    assert big.busbw_bps == pytest.approx(400e9, rel=1e-5)


def test_reduce_scatter_plus_all_gather_is_all_reduce():
    args = (3e8, 12, 3e-6, 200e9)
    rs, ag = cc.ring_reduce_scatter_time(*args), cc.ring_all_gather_time(*args)
    assert rs.time_s + ag.time_s == pytest.approx(cc.ring_all_reduce_time(*args).time_s)
    assert cc.all_to_all_time(*args).time_s == pytest.approx(rs.time_s)


def test_tree_textbook():
    # n = 16: 2 * 4 levels * (a + N/B); N = 1 MB, B = 100 Gb/s (80 us per MB), a = 2 us -> 8 * 82 us
    r = cc.tree_all_reduce_time(1e6, 16, 2e-6, 100e9)
    assert r.time_s == pytest.approx(8 * 82e-6)
    # n = 5 needs ceil(log2 5) = 3 levels
    assert cc.tree_all_reduce_time(1e6, 5, 2e-6, 100e9).time_s == pytest.approx(6 * 82e-6)


def test_halving_doubling_textbook():
    # n = 8: 2 * 3 a + 2 * 7/8 N/B; N = 1 MB at 100 Gb/s is 80 us; a = 2 us -> 12 us + 140 us
    assert cc.halving_doubling_all_reduce_time(1e6, 8, 2e-6, 100e9).time_s == pytest.approx(152e-6)
    # n = 10: p = 8 plus the two extra full-size steps: 152 us + 2 * (2 + 80) us
    assert cc.halving_doubling_all_reduce_time(1e6, 10, 2e-6, 100e9).time_s == pytest.approx(316e-6)


def test_hierarchical_reduces_to_flat_ring():
    flat = cc.ring_all_reduce_time(1e8, 8, 3e-6, 400e9)
    one_domain = cc.hierarchical_all_reduce_time(1e8, 8, 1, 3e-6, 400e9, 9.0, 1.0)
    single_ranks = cc.hierarchical_all_reduce_time(1e8, 1, 8, 9.0, 1.0, 3e-6, 400e9)
    assert one_domain.time_s == pytest.approx(flat.time_s)
    assert single_ranks.time_s == pytest.approx(flat.time_s)


def test_hierarchical_hand_computed():
    # d = 4, m = 2, N = 8 MB; inside: 2*3*(1 us + 8e6*8/(4*8e11) s = 20 us) = 126 us;
    # across: 2*1*(5 us + 8e6*8/(8*1e11) = 80 us) = 170 us. Total 296 us.
    r = cc.hierarchical_all_reduce_time(8e6, 4, 2, 1e-6, 800e9, 5e-6, 100e9)
    assert r.time_s == pytest.approx(296e-6)
    assert r.world_size == 8


def test_in_network_variants():
    # switch, k chunks: (k+1)(a + N/(kB)). N = 1 GB at 400 Gb/s = 20 ms; k = 4, a = 1 us:
    # 5 us + 5/4 * 20 ms = 25.005 ms. NVLS multiplies the transfer term by (n+1)/n = 9/8.
    assert cc.in_network_all_reduce_time(1e9, 8, 1e-6, 400e9, n_pipeline_chunks=4).time_s == \
        pytest.approx(5e-6 + 25e-3)
    assert cc.in_network_all_reduce_time(1e9, 8, 1e-6, 400e9, "nvls", 4).time_s == \
        pytest.approx(5e-6 + 9 / 8 * 25e-3)
    # best k: transfer term near N/B = 20 ms, half of the ring's 2(n-1)/n N/B = 35 ms
    best = cc.in_network_all_reduce_time(1e9, 8, 1e-6, 400e9)
    assert 20e-3 < best.time_s < 20.5e-3
    assert best.time_s < cc.ring_all_reduce_time(1e9, 8, 1e-6, 400e9).time_s * 0.6


def test_dbt_bandwidth_term_approaches_twice_message():
    # with many chunks the transfer term tends to 2N/B, like the ring's 2(n-1)/n N/B
    r = cc.double_binary_tree_all_reduce_time(1e10, 64, 0.0, 400e9, n_pipeline_chunks=4096)
    assert r.transfer_s == pytest.approx(2 * 8e10 / 400e9, rel=0.01)
    best = cc.double_binary_tree_all_reduce_time(1e8, 64, 5e-6, 400e9)
    for k in (1, 2, 8, 32, 128):
        assert best.time_s <= cc.double_binary_tree_all_reduce_time(1e8, 64, 5e-6, 400e9, k).time_s * (1 + 1e-12)


@given(n=st.integers(4, 4096), alpha=st.floats(1e-7, 1e-4), rate=st.floats(1e9, 1e13))
def test_crossover_is_where_ring_and_tree_meet(n, alpha, rate):
    x = cc.ring_tree_crossover_bytes(n, alpha, rate)
    ring, tree = cc.ring_all_reduce_time(x, n, alpha, rate), cc.tree_all_reduce_time(x, n, alpha, rate)
    assert ring.time_s == pytest.approx(tree.time_s, rel=1e-9)
    assert cc.tree_all_reduce_time(x / 2, n, alpha, rate).time_s <= cc.ring_all_reduce_time(x / 2, n, alpha, rate).time_s
    assert cc.tree_all_reduce_time(x * 2, n, alpha, rate).time_s >= cc.ring_all_reduce_time(x * 2, n, alpha, rate).time_s


def test_crossover_zero_for_tiny_rings():
    assert cc.ring_tree_crossover_bytes(2, 5e-6, 1e11) == 0.0
    assert cc.ring_tree_crossover_bytes(3, 5e-6, 1e11) == 0.0


def test_straggler_sets_the_pace():
    rates = [400e9] * 7 + [100e9]
    assert cc.straggler_ring_all_reduce_time(1e9, rates, 5e-6).time_s == \
        pytest.approx(cc.ring_all_reduce_time(1e9, 8, 5e-6, 100e9).time_s)


# sizes are 0 or >= 1 byte: subnormal floats (1e-309 B) lose the precision the ratio needs
@given(n=st.integers(1, 512), N=st.one_of(st.just(0.0), st.floats(1, 1e11)), alpha=st.floats(0, 1e-4), rate=st.floats(1e9, 1e13))
def test_time_is_latency_plus_transfer_and_busbw_never_exceeds_link(n, N, alpha, rate):
    for f in (cc.ring_all_reduce_time, cc.ring_all_gather_time, cc.ring_reduce_scatter_time,
              cc.all_to_all_time, cc.halving_doubling_all_reduce_time, cc.tree_all_reduce_time):
        r = f(N, n, alpha, rate)
        assert math.isclose(r.time_s, r.latency_s + r.transfer_s)
        if r.time_s > 0:
            assert r.busbw_bps <= rate * (1 + 1e-9)


def test_an_empty_collective_reports_zero_bandwidth_not_nan_or_inf():
    # ring_all_reduce_time(0, 8, 0.0, 400e9) took 0 s for 0 bytes and returned algbw = 0/0 (issue 17).
    import math
    for func in (cc.ring_all_reduce_time, cc.tree_all_reduce_time, cc.all_to_all_time):
        r = func(0, 8, 0.0, 400e9)
        assert r.time_s == 0 and r.algbw_bps == 0 and r.busbw_bps == 0
        assert all(math.isfinite(x) for x in (r.algbw_bps, r.busbw_bps))
    one = cc.ring_all_reduce_time(1e6, 1, 0.0, 400e9)      # one rank: nothing to exchange
    assert one.time_s == 0 and one.algbw_bps == 0


@pytest.mark.robustness
def test_closed_forms_refuse_world_sizes_beyond_any_machine():
    # Closed forms stay O(1) in the rank count, so 10^12 ranks still answer; 10^16 is beyond any
    # physical machine (the bound is 10^15) and is refused naming world_size. (The schedules, which
    # list every rank, stop at far fewer: tests/collectives/test_schedules.py.)
    with hang_guard(what="ring_all_reduce_time at 10^12 and 10^16 ranks"):
        with pytest.raises(ValueError, match="world_size"):
            cc.ring_all_reduce_time(1e6, 10 ** 16, 1e-6, 4e11)
        # 2 (10^12 - 1) x 1 us of start-ups = 2.0e6 s; the bytes add 2 x 8e6 / 4e11 = 40 us
        assert cc.ring_all_reduce_time(1e6, 10 ** 12, 1e-6, 4e11).time_s == pytest.approx(2e6, rel=1e-9)


def test_ring_tree_crossover_with_consistent_protocol_pairs():
    # Review 2026-12-05 L4: S* = alpha B / 8 x ((n-1) - lvl) / (lvl - (n-1)/n), B in bit/s.
    # 8 ranks, lvl = 3: factor 4 / 2.125. LL: alpha 0.6 us at half of 3.6 Tb/s -> 254 KB;
    # Simple: alpha 3.4 us at 3.6 Tb/s -> 2.88 MB; the page's 508 KB mixes LL's alpha with B.
    assert cc.ring_tree_crossover_bytes(8, 0.6e-6, 3.6e12) == pytest.approx(0.6e-6 * 3.6e12 / 8 * 4 / 2.125)
    assert cc.ring_tree_crossover_bytes(8, 0.6e-6, 1.8e12) == pytest.approx(254.1e3, rel=1e-3)
    assert cc.ring_tree_crossover_bytes(8, 3.4e-6, 3.6e12) == pytest.approx(2.88e6, rel=1e-3)
