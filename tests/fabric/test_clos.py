"""netlab.fabric.clos against hand-computed fat-tree counts."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.fabric import clos as fabric
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    fabric.max_hosts: dict(radix=64, n_tiers=2, oversubscription=1.0),
    fabric.clos: dict(n_hosts=1000, radix=64, port_rate_bps=400e9, oversubscription=1.0, n_tiers=2),
    fabric.fat_tree: dict(k=8, port_rate_bps=100e9),
    fabric.for_switch: dict(switch="quantum2", n_hosts=512, oversubscription=1.0, n_tiers=2),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


@pytest.mark.parametrize("k", [4, 6, 8, 16, 24, 48, 64])
def test_k_ary_fat_tree_counts(k):
    # Al-Fares et al.: k pods, each k/2 edge + k/2 aggregation switches; (k/2)^2 core switches;
    # each edge switch serves k/2 hosts. Hosts k * k/2 * k/2 = k^3/4; switches k^2 + k^2/4 = 5k^2/4.
    f = fabric.fat_tree(k, 100e9)
    assert f.n_hosts == k ** 3 // 4
    assert f.n_switches == 5 * k * k // 4
    assert f.switches_per_tier == (k * k // 2, k * k // 2, k * k // 4)
    assert f.n_pods == k
    # Every tier carries k^3/4 cables (non-blocking): hosts, edge-agg, agg-core.
    assert f.links_per_tier == (k ** 3 // 4,) * 3
    assert f.n_transceivers == 2 * 3 * k ** 3 // 4
    # Full bisection: half the hosts at line rate, k^3/8 ports of 100 Gb/s.
    assert f.bisection_bandwidth_bps == pytest.approx(k ** 3 / 8 * 100e9)
    assert f.bisection_ratio == pytest.approx(1.0)
    assert f.max_hosts == f.n_hosts


def test_k4_fat_tree_written_out():
    # k = 4: 16 hosts, 8 edge, 8 aggregation, 4 core = 20 switches; 48 cables.
    f = fabric.clos(16, 4, 100e9, n_tiers=3)
    assert (f.n_hosts, f.n_switches, f.n_links) == (16, 20, 48)


def test_two_tier_non_blocking_radix_64():
    # Leaf: 32 down, 32 up. A spine has 64 ports -> 64 leaves -> 64 * 32 = 2,048 hosts.
    # 64 leaves x 32 uplinks = 2,048 cables onto 2,048 / 64 = 32 spines.
    f = fabric.clos(2048, 64, 400e9)
    assert f.n_tiers == 2
    assert f.switches_per_tier == (64, 32)
    assert f.links_per_tier == (2048, 2048)
    assert f.max_hosts == 2048 == 64 ** 2 // 2
    assert f.bisection_bandwidth_bps == pytest.approx(1024 * 400e9)


def test_two_tier_oversubscribed_3_to_1():
    # Radix 64 at 3:1: u = 64 / 4 = 16 up, d = 48 down; max 64 leaves x 48 = 3,072 hosts.
    # 64 leaves x 16 = 1,024 uplinks on 16 spines. Bisection: 1,024 x 400G / 2 = 204.8 Tb/s,
    # a third of 3,072 x 400G / 2.
    f = fabric.clos(3072, 64, 400e9, oversubscription=3)
    assert (f.leaf_downlinks, f.leaf_uplinks) == (48, 16)
    assert f.switches_per_tier == (64, 16)
    assert f.bisection_bandwidth_bps == pytest.approx(204.8e12)
    assert f.bisection_ratio == pytest.approx(1 / 3)


def test_meta_style_7_to_1_taper():
    # Radix 64 at 7:1: u = 8, d = 56 (56 / 8 = 7). Three tiers: 64 pods x 32 leaves x 56 hosts.
    assert fabric.max_hosts(64, 2, 7) == 64 * 56
    assert fabric.max_hosts(64, 3, 7) == 64 * 32 * 56
    f = fabric.clos(10_000, 64, 400e9, oversubscription=7)
    assert f.n_tiers == 3 and f.oversubscription == 7


def test_three_tier_oversubscribed_full():
    # Radix 8 at 3:1: u = 2, d = 6. Pods: 2 aggs + 4 leaves; 8 pods -> 32 leaves, 192 hosts.
    # 32 leaves x 2 = 64 uplinks; aggs 8 x 2 = 16; cores 64 / 8 = 8.
    f = fabric.clos(192, 8, 100e9, oversubscription=3, n_tiers=3)
    assert f.switches_per_tier == (32, 16, 8)
    assert f.links_per_tier == (192, 64, 64)
    assert f.bisection_ratio == pytest.approx(1 / 3)


def test_partial_three_tier():
    # 100 hosts on radix 8 (max 32 in two tiers): d = u = 4. Leaves ceil(100/4) = 25;
    # pods ceil(25/4) = 7 -> 28 aggs; uplinks 25 x 4 = 100 -> cores ceil(100/8) = 13.
    f = fabric.clos(100, 8, 100e9)
    assert f.n_tiers == 3
    assert f.switches_per_tier == (25, 28, 13)
    assert f.n_pods == 7


def test_non_integer_ratio_is_rounded_up_and_reported():
    # 64 / (1 + 1.5) = 25.6 -> 25 uplinks, 39 downlinks: 1.56:1 as built.
    f = fabric.clos(100, 64, 400e9, oversubscription=1.5)
    assert (f.leaf_downlinks, f.leaf_uplinks) == (39, 25)
    assert f.oversubscription == pytest.approx(39 / 25)


def test_copper_host_links_carry_no_optics():
    f = fabric.clos(2048, 64, 400e9, host_links_optical=False)
    assert f.n_transceivers == 2 * 2048   # only the 2,048 leaf-spine cables


def test_real_switches_from_the_registry():
    radix, rate = fabric.switch_ports("quantum2")
    assert (radix, rate) == (specs.value("fabric.quantum2.ports"), 400e9)
    # 64-port 400G Quantum-2: 2,048 hosts in two tiers, 65,536 in three.
    assert fabric.for_switch("quantum2", 2048).n_tiers == 2
    assert fabric.for_switch("quantum2", 2049).n_tiers == 3
    # A 512-port 800G photonic switch: 512 x 256 = 131,072 hosts in two tiers.
    assert fabric.for_switch("sn6800", 131_072).switches_per_tier == (512, 256)
    assert fabric.switch_ports("sn5600_400g") == (128, 400e9)


def test_refuses_impossible_fabrics():
    with pytest.raises(ValueError, match="n_hosts"):
        fabric.clos(2049, 64, 400e9, n_tiers=2)
    with pytest.raises(ValueError, match="n_hosts"):
        fabric.clos(65_537, 64, 400e9)
    with pytest.raises(ValueError, match="radix"):
        fabric.clos(10, 7, 400e9)
    with pytest.raises(ValueError, match="oversubscription"):
        fabric.clos(10, 4, 400e9, oversubscription=4)   # 4 / 5 < 1 uplink
    with pytest.raises(ValueError, match="switch"):
        fabric.for_switch("no-such-switch", 10)


@settings(max_examples=200, deadline=None)
@given(half_k=st.integers(2, 40), r=st.sampled_from([1, 1.5, 2, 3, 4, 7]), share=st.floats(0.01, 1.0),
       optical=st.booleans())
def test_counts_respect_every_switch_port(half_k, r, share, optical):
    """No tier uses more ports than its switches have; bisection never beats non-blocking."""
    k = 2 * half_k
    try:
        d, u = fabric._leaf_split(k, r)
    except ValueError:
        return
    limit = fabric.max_hosts(k, 3, r)
    n = max(1, int(share * limit))
    f = fabric.clos(n, k, 100e9, oversubscription=r, host_links_optical=optical)
    leaves = f.switches_per_tier[0]
    assert leaves == math.ceil(n / d)
    assert n + f.links_per_tier[1] <= leaves * k                   # leaf ports
    assert f.links_per_tier[1] <= f.switches_per_tier[1] * k      # spine / agg down ports
    if f.n_tiers == 3:
        assert 2 * f.links_per_tier[2] <= f.switches_per_tier[1] * k
        assert f.links_per_tier[2] <= f.switches_per_tier[2] * k
    assert f.n_transceivers % 2 == 0
    assert f.bisection_bandwidth_bps <= f.full_bisection_bps * (1 + 1e-12)
    assert f.bisection_ratio >= 1 / f.oversubscription - 1e-12   # L*u >= (n/d)*u = n/r


@settings(max_examples=100, deadline=None)
@given(k=st.sampled_from([8, 16, 32, 64]), a=st.integers(1, 4000), b=st.integers(1, 4000))
def test_more_hosts_never_need_fewer_switches(k, a, b):
    limit = fabric.max_hosts(k, 3)
    small, large = sorted((min(a, limit), min(b, limit)))
    assert fabric.clos(small, k, 1e11).n_switches <= fabric.clos(large, k, 1e11).n_switches
