"""netlab.uet.connections: counts by hand, and the shape of the model as the job grows."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.uet import connections
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    connections.connection_state: dict(world_size=1024, active_peers=2, ranks_per_nic=1,
                                       qps_per_peer=1, phase_s=1e-3, idle_timeout_s=1e-3,
                                       context_bytes=512.0, setup_per_qp_s=0.0, distinct_peers=8),
    connections.state_vs_job_size: dict(world_sizes=[8, 64], active_peers=2),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_ring_job_by_hand():
    # 1024 ranks, one per NIC, 4 QPs per peer: 1023 x 4 = 4092 QPs, x 512 B = 2.095 MB.
    # 2 peers per phase, fresh ones every phase; phases of 1 ms, idle timeout 2.5 ms ->
    # 1 + ceil(2.5) = 4 phases alive -> 8 PDCs (4 KB).
    r = connections.connection_state(1024, 2, qps_per_peer=4, phase_s=1e-3, idle_timeout_s=2.5e-3,
                                     context_bytes=512, setup_per_qp_s=10e-6, distinct_peers=1023)
    assert r.roce_qps == 4092 and r.uet_pdcs == 8
    assert r.roce_lazy_qps == 4092                # lazy, but the job has used every peer
    assert r.roce_bytes == pytest.approx(4092 * 512) and r.uet_bytes == pytest.approx(8 * 512)
    assert r.roce_setup_s == pytest.approx(40.92e-3) and r.uet_setup_s == 0.0
    assert r.ratio == pytest.approx(4092 / 8)


def test_like_with_like_a_repeating_ring_needs_as_few_lazy_qps_as_pdcs():
    # Review 2026-12-05 M2: NCCL connects lazily by default (NCCL_RUNTIME_CONNECT=1): a ring
    # connects its 2 neighbours, not 32,767 peers. Repeating ring, 4 QPs per neighbour:
    # eager 32,767 x 4 = 131,068 QPs; lazy 2 x 4 = 8; UET 2 PDCs (one per neighbour, sprayed).
    r = connections.connection_state(32768, 2, qps_per_peer=4)
    assert (r.roce_qps, r.roce_lazy_qps, r.uet_pdcs) == (131068, 8, 2)
    assert r.lazy_ratio == 4.0                    # the extra QPs per peer that spread paths
    assert r.roce_lazy_bytes == pytest.approx(8 * specs.value("assume.connection_context_bytes"))
    # the 255-peer all-to-all phase: eager 32,767 against 255 for lazy RoCE and UET alike
    a2a = connections.connection_state(32768, 255)
    assert (a2a.roce_qps, a2a.roce_lazy_qps, a2a.uet_pdcs) == (32767, 255, 255)


def test_changing_partners_is_where_idle_teardown_pays():
    # 8 new partners each 1 ms phase, 1 ms idle timeout: UET holds 8 x 2 = 16 PDCs; lazy RoCE
    # keeps every peer it has touched until the communicator is destroyed.
    r = connections.connection_state(4096, 8, distinct_peers=4095)
    assert (r.roce_lazy_qps, r.uet_pdcs) == (4095, 16)


def test_distinct_peers_outside_its_range_is_refused():
    with pytest.raises(ValueError, match="distinct_peers"):
        connections.connection_state(64, 8, distinct_peers=4)
    with pytest.raises(ValueError, match="distinct_peers"):
        connections.connection_state(64, 8, distinct_peers=64)


def test_all_to_all_saturates_at_every_peer():
    # An all-to-all touches every peer: PDCs cannot be fewer than peers... nor more.
    r = connections.connection_state(64, 63, idle_timeout_s=5e-3)
    assert r.uet_pdcs == 63 == r.roce_qps


def test_ranks_sharing_a_nic_multiply_both():
    one = connections.connection_state(128, 2, ranks_per_nic=1)
    eight = connections.connection_state(128, 2, ranks_per_nic=8)
    assert eight.roce_qps == 8 * one.roce_qps and eight.uet_pdcs == 8 * one.uet_pdcs


def test_default_context_size_is_the_registry_assumption():
    r = connections.connection_state(16, 2)
    assert r.roce_bytes == r.roce_qps * specs.value("assume.connection_context_bytes")


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 100_000), peers=st.integers(1, 64), idle=st.floats(0, 1e-2))
def test_uet_never_holds_more_than_roce(n, peers, idle):
    r = connections.connection_state(n, min(peers, n - 1), idle_timeout_s=idle)
    assert 1 <= r.uet_pdcs <= r.roce_qps


def test_roce_grows_linearly_uet_stays_flat():
    rows = connections.state_vs_job_size([8, 64, 512, 4096, 32768], active_peers=2)
    assert [r.roce_qps for r in rows] == [7, 63, 511, 4095, 32767]
    assert len({r.uet_pdcs for r in rows}) == 1 and len({r.roce_lazy_qps for r in rows}) == 1
    assert "QPs" in repr(rows[-1])


def test_active_peers_above_world_is_refused():
    with pytest.raises(ValueError, match="active_peers"):
        connections.connection_state(8, 8)
