"""netlab.nvlink.moe: a two-tier all-to-all against hand computations and the one-tier closed form."""

from hypothesis import given, settings, strategies as st
import pytest
from netlab import specs

from netlab.collectives import alpha_beta as collective_cost
from netlab.nvlink import moe, domains as scaleup
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

DGX_B200 = scaleup.preset("dgx-b200")

API = {
    moe.moe_all_to_all: dict(tokens_per_gpu=256, d_model=7168, top_k=8, ep=16, domain=DGX_B200,
                             bytes_per_activation=2.0),
    moe.expected_nodes: dict(top_k=8, n_experts=256, n_nodes=8, max_nodes=4),
    moe.free_experts_per_node: dict(nvlink_bps=1.28e12, nic_bps=4e11),
    moe.node_limited_dispatch: dict(tokens_per_gpu=4096, d_model=7168, top_k=8, n_experts=256, n_nodes=8,
                                    gpus_per_node=8, nvlink_bps=1.28e12, nic_bps=4e11, max_nodes=4,
                                    bytes_per_activation=1.0),
    moe.all_to_all_by_fabric: dict(n_gpus=1024, n_bytes=64e6, domain="dgx-h100", switch="quantum2"),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_moe_dispatch_by_hand():
    # 256 tokens x top-8 x 7168 x 2 B = 29,360,128 B per GPU; EP 16 over DGX B200 nodes (d = 8).
    # Half the bytes stay in the node: all-to-all of 14,680,064 B among 8 at 900 GB/s (7.2e12 b/s):
    #   7 x 0.6 us + 7/8 x 14,680,064 x 8 / 7.2e12 s = 4.2 + 14.273 us
    # The other half leaves over 400 Gb/s in 8 steps of 2.7 us: 21.6 us + 14,680,064 x 8 / 4e11 s.
    r = moe.moe_all_to_all(256, 7168, 8, 16, DGX_B200)
    n = 256 * 8 * 7168 * 2
    assert r.n_bytes == n
    assert r.inter_fraction == pytest.approx(0.5)
    assert r.intra_s == pytest.approx(7 * 0.6e-6 + 7 / 8 * (n / 2) * 8 / 7.2e12, rel=1e-12)
    assert r.inter_s == pytest.approx(8 * 2.7e-6 + (n / 2) * 8 / 4e11, rel=1e-12)


@given(ep=st.integers(1, 8), tokens=st.integers(1, 4096))
def test_moe_inside_the_domain_is_a_plain_all_to_all(ep, tokens):
    r = moe.moe_all_to_all(tokens, 4096, 2, ep, DGX_B200)
    ref = collective_cost.all_to_all_time(tokens * 2 * 4096 * 2, ep, DGX_B200.intra_alpha_s,
                                          DGX_B200.per_gpu_bps)
    assert r.inter_bytes == 0 and r.time_s == pytest.approx(ref.time_s, rel=1e-12)


@given(ep=st.integers(9, 576))
def test_moe_share_leaving_the_domain_is_uniform_routing(ep):
    r = moe.moe_all_to_all(64, 4096, 4, ep, DGX_B200)
    assert r.inter_fraction == pytest.approx((ep - 8) / ep)


def test_a_72_gpu_domain_keeps_a_64_way_group_inside():
    # 64 <= 72: nothing crosses; on 8-GPU nodes 56/64 = 87.5 % does, and it takes ~10x longer
    # (673 us against 70 us: 9.6x).
    rack = moe.moe_all_to_all(256, 7168, 8, 64, scaleup.preset("gb200-nvl72"))
    nodes = moe.moe_all_to_all(256, 7168, 8, 64, DGX_B200)
    assert rack.inter_bytes == 0 and nodes.inter_fraction == pytest.approx(0.875)
    assert 9 * rack.time_s < nodes.time_s < 10 * rack.time_s


@pytest.mark.parametrize("field, bad", [("scaleout_per_gpu_bps", 0.0), ("per_gpu_bps", 0.0),
                                        ("n_gpus", 0), ("inter_alpha_s", -1e-6)])
def test_moe_refuses_a_degenerate_domain_instead_of_inf(field, bad):
    # A hand-built domain with a zero rate gave inf (or a ZeroDivisionError) before (issue 17).
    import dataclasses
    broken = dataclasses.replace(DGX_B200, **{field: bad})
    with pytest.raises(ValueError, match=f"domain.{field}"):
        moe.moe_all_to_all(256, 7168, 8, 64, broken)


# --- as deployed: node-limited routing and forwarding -------------------------------------------------

def test_expected_nodes_matches_enumeration():
    import itertools
    from netlab.nvlink import moe
    # 8 experts on 4 nodes (2 each), top-3: count distinct nodes over every choice.
    choices = list(itertools.combinations(range(8), 3))
    mean = sum(len({e // 2 for e in c}) for c in choices) / len(choices)
    assert moe.expected_nodes(3, 8, 4) == pytest.approx(mean, rel=1e-12)
    # Node-limited to 2 nodes: the 3 experts come from the 4 experts of 2 nodes.
    limited = list(itertools.combinations(range(4), 3))
    assert moe.expected_nodes(3, 8, 4, max_nodes=2) == pytest.approx(
        sum(len({e // 2 for e in c}) for c in limited) / len(limited), rel=1e-12)


def test_deepseek_free_experts_per_node_is_the_bandwidth_ratio():
    from netlab.nvlink import moe
    free = moe.free_experts_per_node(specs.value("deepseek_v3.nvlink_rate"), specs.value("deepseek_v3.ib_rate"))
    assert free == pytest.approx(specs.value("deepseek_v3.free_experts_per_node"), rel=1e-12)
    assert round(specs.value("deepseek_v3.max_nodes_per_token") * free) == 13     # the report's "up to 13 experts"


def test_node_limited_dispatch_bytes_by_hand():
    from netlab.nvlink import moe
    d = moe.node_limited_dispatch(100, 1000, 8, 64, 8, 8, 160e9 * 8, 50e9 * 8, max_nodes=4)
    nodes = moe.expected_nodes(8, 64, 8, max_nodes=4)
    assert d.rdma_bytes == pytest.approx(100 * nodes * 7 / 8 * 1000)
    assert d.direct_rdma_bytes == pytest.approx(100 * 8 * 7 / 8 * 1000)
    assert d.dedup_factor == pytest.approx(8 / nodes)
    assert d.nvlink_bytes == pytest.approx(100 * 8 * 7 / 8 * 1000)
    assert d.time_s == max(d.rdma_s, d.nvlink_s) < d.direct_s


def test_uniform_all_to_all_pays_the_forwarding_hop_on_rail_only():
    from netlab.nvlink import moe
    t = moe.all_to_all_by_fabric(1024, 64e6)
    # rails' closed form: (R-1) N / (R (N-R)) x B_NIC / B_NVLink = 7/8 x 1024/1016 x 50/450.
    assert t["rail_only"] / t["fat_tree"] - 1 == pytest.approx(7 / 8 * 1024 / 1016 * 50 / 450, rel=1e-9)
