"""netlab.sim.loadbalance: spraying and adaptive routing against ECMP on a leaf-spine."""

import math
from types import SimpleNamespace

from hypothesis import given, settings, strategies as st
import pytest

from netlab.fabric import ecmp
from netlab.sim import PFC, leaf_spine
from netlab.sim.uet import uet
from netlab.fabric import experiments
from netlab.sim import loadbalance as lb
from netlab.sim.switch import LoadBalancer
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    experiments.run_pattern: dict(scheme="ecmp", pattern="permutation", n_leaves=2, n_spines=2, hosts_per_leaf=2,
                         bytes_per_host=10_000, bandwidth_bps=100e9, seed=0, ack_every=1),
    experiments.fail_spine_link: dict(net=leaf_spine(2, 2, 1, 100e9, 100e9), n_leaves=2, n_spines=2, hosts_per_leaf=1,
                             leaf=0, spine=1),
    experiments.interleaved_jobs: dict(n_leaves=2, hosts_per_leaf=4, n_jobs=2),
    experiments.fat_tree_pattern: dict(scheme="ecmp", k=4, pattern="permutation", bytes_per_host=10_000,
                                       bandwidth_bps=100e9, tiers=3, seed=0, propagation_s=1e-6, ack_every=1,
                                       max_events=1_000_000, max_wall_s=600.0),
    experiments.rail_network: dict(n_gpus=64, switch="quantum2", domain="dgx-h100"),
    experiments.rail_pattern: dict(scheme="ecmp", n_gpus=64, pattern="rail_ring", switch="quantum2",
                                   domain="dgx-h100", bytes_per_host=10_000, seed=0, propagation_s=1e-6, ack_every=1),
    experiments.fluid_on_packet_paths: dict(k=4, bytes_per_host=10_000, bandwidth_bps=100e9, seed=0,
                                            propagation_s=1e-6),
    experiments.ecmp_link_loads: dict(k=4, seed=0),
    experiments.summary: dict(run=experiments.run_pattern("ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2,
                                                          bytes_per_host=10_000), tail_percentile=99.0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def _fake_switch(queue_bytes, busy=None):
    busy = busy or [False] * len(queue_bytes)
    return SimpleNamespace(name="s", queues=[SimpleNamespace(bytes=b) for b in queue_bytes],
                           ports=[SimpleNamespace(busy=x) for x in busy])


def test_spray_takes_candidates_in_turn():
    spray, sw = lb.Spray(), _fake_switch([0] * 6)
    picks = [spray.choose(sw, None, (1, 3, 5)) for _ in range(7)]
    assert picks == [1, 3, 5, 1, 3, 5, 1]


def test_shuffled_spray_uses_every_candidate_once_per_round_in_varying_orders():
    import random
    spray = lb.Spray(shuffle=True)
    sw = SimpleNamespace(name="s", sim=SimpleNamespace(rng=random.Random(3)))
    picks = [spray.choose(sw, None, (1, 3, 5, 7)) for _ in range(40)]
    rounds = [tuple(picks[i:i + 4]) for i in range(0, 40, 4)]
    assert all(sorted(r) == [1, 3, 5, 7] for r in rounds)
    assert len(set(rounds)) > 3                 # the order changes from round to round


def test_spray_gives_acks_their_own_turn():
    from types import SimpleNamespace
    spray, sw = lb.Spray(), _fake_switch([0] * 6)
    data, ack = SimpleNamespace(kind="data"), SimpleNamespace(kind="sack")
    picks = [spray.choose(sw, p, (1, 3, 5)) for p in (data, ack, ack, data, ack, data)]
    assert picks == [1, 1, 3, 3, 5, 5]      # data 1, 3, 5 in turn, whatever the ACKs took


def test_adaptive_picks_the_shortest_queue():
    ar = lb.Adaptive()
    assert ar.choose(_fake_switch([9000, 4000, 100, 8000]), None, (0, 1, 2, 3)) == 2
    assert ar.choose(_fake_switch([9000, 4000, 100, 8000]), None, (0, 1, 3)) == 1
    # Equal queues: an idle wire beats a busy one.
    assert ar.choose(_fake_switch([0, 0], busy=[True, False]), None, (0, 1)) == 1


def test_adaptive_rotates_among_ties():
    ar, sw = lb.Adaptive(), _fake_switch([0, 0, 0, 0])
    assert sorted(ar.choose(sw, None, (0, 1, 2, 3)) for _ in range(4)) == [0, 1, 2, 3]


def test_path_telemetry_counts_the_next_queue():
    # Two uplinks, both empty here; behind uplink 0 the spine's queue towards host 7 is full,
    # behind uplink 1 it is empty: local adaptive routing cannot tell them apart, telemetry can.
    spine0 = SimpleNamespace(routes={7: (3,)}, queues=[SimpleNamespace(bytes=0)] * 3 + [SimpleNamespace(bytes=50_000)],
                             ports=[SimpleNamespace(busy=True)] * 4)
    spine1 = SimpleNamespace(routes={7: (2,)}, queues=[SimpleNamespace(bytes=0)] * 4,
                             ports=[SimpleNamespace(busy=False)] * 4)
    leaf = SimpleNamespace(name="leaf0", queues=[SimpleNamespace(bytes=0), SimpleNamespace(bytes=0)],
                           ports=[SimpleNamespace(busy=False, peer=spine0), SimpleNamespace(busy=False, peer=spine1)])
    packet = SimpleNamespace(dst=7)
    pa = lb.PathAware()
    assert [pa.choose(leaf, packet, (0, 1)) for _ in range(4)] == [1, 1, 1, 1]
    ar = lb.Adaptive()
    assert sorted(ar.choose(leaf, packet, (0, 1)) for _ in range(2)) == [0, 1]   # blind to the spine


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="scheme"):
        lb.balancer("hash-and-pray")


# 64 hosts (8 leaves x 8 hosts, 8 spines, non-blocking at 100 Gb/s), 250 KB each.
@pytest.fixture(scope="module")
def permutation_64():
    return {s: experiments.run_pattern(s, bytes_per_host=250_000, seed=1) for s in lb.SCHEMES}


def test_ecmp_tail_against_spraying_on_64_hosts(permutation_64):
    e, s, a, t = (permutation_64[k] for k in lb.SCHEMES)
    assert e.n_hosts == 64 and e.n_flows == 64
    for run in (e, s, a, t):
        assert run.dropped_packets == 0                     # PFC: lossless
        assert run.slowdown >= 1.0
    # ECMP's slowest flow waits on a hash collision; spraying and adaptive routing spread it.
    assert e.slowdown > 2.0 * s.slowdown
    assert e.slowdown > 2.0 * a.slowdown
    assert e.percentile_s(99) > 2.0 * s.percentile_s(99)
    # Reordering is the price of spreading one flow: none under ECMP, plenty otherwise.
    assert e.out_of_order_packets == 0
    assert s.out_of_order_packets > 0 and a.out_of_order_packets > 0
    # Seeing the spine's queue as well as its own, the leaf avoids the second collision point.
    assert t.slowdown < a.slowdown


def test_ecmp_job_time_is_bounded_by_its_busiest_uplink(permutation_64):
    # A leaf uplink that carries k flows of 250 KB must send k x 250 KB at 100 Gb/s:
    # the job cannot finish before the busiest uplink's bytes are serialized.
    e = permutation_64["ecmp"]
    busiest = max(e.uplink_bytes)
    assert busiest >= 2 * 250_000                           # this seeded hash collides
    assert e.job_time_s >= busiest * 8 / 100e9 * (1 - 1e-9)


def test_spraying_evens_uplink_bytes(permutation_64):
    # Each leaf sends 8 x 250 KB over 8 uplinks: about 250 KB (plus 1.6 % headers and the
    # ACKs) each. Allow +-30 % for the adaptive schemes; ECMP puts 0 to 3 flows (0 to
    # 750 KB) on an uplink.
    for scheme in ("spray", "adaptive", "telemetry"):
        up = permutation_64[scheme].uplink_bytes
        assert max(up) < 1.3 * 250_000 and min(up) > 0.7 * 250_000
    assert min(permutation_64["ecmp"].uplink_bytes) < 0.1 * 250_000


def test_round_robin_spraying_evens_uplinks_to_two_packets():
    # Round-robin spraying keeps the data's turn apart from the ACKs' (each direction has
    # its own path choice): a leaf's 8 x 62 data packets go 62 to each uplink, so the
    # uplinks differ by at most two packets (4160 B each; the last of a flow is shorter).
    # With one turn shared with the irregular ACKs they differed by about 20 %.
    net = leaf_spine(8, 8, 8, 100e9, 100e9, flow_control=PFC(500e3), load_balancer=lb.Spray(), seed=1)
    pair = uet(spray=False, reorder_threshold=experiments.REORDER_THRESHOLD)
    for h in range(64):
        net.add_flow(f"h{h}", f"h{(h + 8) % 64}", 250_000, transport=pair)
    r = net.run()
    assert r.stop_reason == "complete"
    up = [p.tx_bytes for p in r.ports if p.name.startswith("leaf") and p.peer.startswith("spine")]
    assert len(up) == 64 and max(up) - min(up) <= 2 * 4160


def test_ecmp_idle_uplinks_match_balls_into_bins():
    # Over 6 seeds x 64 uplinks, the share of uplinks carrying a flow's data should be
    # 1 - (1 - 1/8)^8 = 0.656 (8 flows hashed onto 8 uplinks per leaf). An uplink with only
    # ACKs carries < 5 % of a flow. Binomial sd with 384 samples: 0.024; allow 3.5 sd.
    used = []
    for seed in range(6):
        run = experiments.run_pattern("ecmp", bytes_per_host=20_000, seed=seed)
        used += [b > 0.5 * 20_000 for b in run.uplink_bytes]
    expected = ecmp.expected_paths_used(8, 8)
    sd = math.sqrt(expected * (1 - expected) / len(used))
    assert abs(sum(used) / len(used) - expected) < 3.5 * sd


@pytest.mark.parametrize("scheme", lb.SCHEMES)
def test_one_spine_link_down(scheme):
    # leaf0-spine0 removed: nothing crosses it, every flow still completes, nothing dropped.
    run = experiments.run_pattern(scheme, n_leaves=4, n_spines=4, hosts_per_leaf=4, bytes_per_host=100_000,
                         failed_link=(0, 0), seed=3)
    assert run.uplink_bytes[0] == 0                          # leaf0 port 0 faces spine0
    assert run.dropped_packets == 0
    assert all(math.isfinite(t) for t in run.completion_times_s)


def test_failed_link_routes_avoid_the_spine():
    net = leaf_spine(3, 2, 1, 100e9, 100e9)
    experiments.fail_spine_link(net, 3, 2, 1, leaf=1, spine=0)
    # leaf1 reaches h0 and h2 only via spine1 (its port 1); leaf0 and leaf2 reach h1 via port 1.
    assert net.route_overrides[("leaf1", "h0")] == (1,)
    assert net.route_overrides[("leaf1", "h2")] == (1,)
    assert net.route_overrides[("leaf0", "h1")] == (1,)
    assert ("leaf0", "h2") not in net.route_overrides


def test_noisy_neighbour_slows_ecmp_more_than_adaptive():
    jobs = experiments.interleaved_jobs(8, 8)
    slow = {}
    for scheme in ("ecmp", "adaptive"):
        alone = experiments.run_pattern(scheme, bytes_per_host=100_000, jobs=jobs[:1], seed=2)
        shared = experiments.run_pattern(scheme, bytes_per_host=100_000, jobs=jobs, seed=2)
        assert alone.n_hosts == 32 and shared.n_hosts == 64
        slow[scheme] = shared.job_times_s[0] / alone.ideal_s
    assert slow["ecmp"] > 1.5 * slow["adaptive"]


def test_all_to_all_completes_on_every_scheme():
    for scheme in lb.SCHEMES:
        run = experiments.run_pattern(scheme, "all_to_all", n_leaves=4, n_spines=4, hosts_per_leaf=2,
                             bytes_per_host=70_000, seed=0)
        assert run.n_flows == 8 * 7 and run.dropped_packets == 0


def test_same_seed_same_run():
    a = experiments.run_pattern("spray", n_leaves=4, n_spines=2, hosts_per_leaf=2, bytes_per_host=30_000, seed=9)
    b = experiments.run_pattern("spray", n_leaves=4, n_spines=2, hosts_per_leaf=2, bytes_per_host=30_000, seed=9)
    assert a.completion_times_s == b.completion_times_s and a.uplink_bytes == b.uplink_bytes


def test_bad_jobs_are_refused():
    with pytest.raises(ValueError, match="jobs"):
        experiments.run_pattern("ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2, jobs=((0, 1), (1, 2)))
    with pytest.raises(ValueError, match="jobs"):
        experiments.run_pattern("ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2, jobs=((0, 9),))


@settings(max_examples=25, deadline=None)
@given(n_leaves=st.integers(2, 6), hosts_per_leaf=st.integers(1, 6), n_jobs=st.integers(1, 3))
def test_interleaved_jobs_are_disjoint_and_share_leaves(n_leaves, hosts_per_leaf, n_jobs):
    if n_jobs > hosts_per_leaf:
        return
    jobs = experiments.interleaved_jobs(n_leaves, hosts_per_leaf, n_jobs)
    flat = [h for j in jobs for h in j]
    assert len(flat) == len(set(flat)) == n_jobs * n_leaves * (hosts_per_leaf // n_jobs)
    for job in jobs:
        assert {h // hosts_per_leaf for h in job} == set(range(n_leaves))


def test_fail_spine_link_refuses_sizes_that_do_not_describe_the_network():
    # a 2-leaf, 2-spine network described as 4 spines once failed inside set_route with a message
    # naming no parameter (found by the bad-input sweep)
    net = leaf_spine(2, 2, 1, 100e9, 100e9)
    with pytest.raises(ValueError, match="n_spines"):
        experiments.fail_spine_link(net, n_leaves=2, n_spines=4, hosts_per_leaf=1, leaf=0, spine=1)


def test_rail_network_has_the_counts_of_netlab_fabric_rails():
    """256 GPUs in DGX H100 nodes on 64-port Quantum-2: 8 rails of one leaf each (32 NICs), every
    leaf's 32 uplinks over 4 spines (8 links to each): 12 switches, 256 + 256 cables."""
    net, fab = experiments.rail_network(256)
    assert len(net.switches) == fab.n_switches == 8 + 4
    n_links = sum(len(sw.ports) for sw in net.switches.values()) - len(net.hosts)   # switch-switch ends twice
    assert len(net.hosts) + n_links // 2 == fab.n_cables == 256 + 256
    assert net.hosts["h13"].port.peer.name == "rail5_leaf0"                # GPU 5 of node 1 is on rail 5


def test_a_rail_ring_stays_on_its_leaves_a_permutation_does_not():
    """64 GPUs (8 nodes): each rail's 8 NICs share one leaf, so the ring of every rail (GPU g of node n
    to GPU g of node n + 1) sends nothing to the spines, and every flow meets the same empty path."""
    ring = experiments.rail_pattern("ecmp", 64, "rail_ring", bytes_per_host=20_000)
    assert sum(ring.uplink_bytes) == 0
    assert max(ring.completion_times_s) == pytest.approx(min(ring.completion_times_s), rel=1e-12)
    perm = experiments.rail_pattern("ecmp", 64, "permutation", bytes_per_host=20_000)
    assert sum(perm.uplink_bytes) >= 64 * 20_000                    # every flow leaves its leaf


class _Blake2b(LoadBalancer):
    """A non-linear hash of the same four words the packet model's ECMP hashes (no CRC)."""

    def choose(self, switch, packet, candidates):
        import hashlib
        import struct
        words = struct.pack("<4I", packet.src, packet.dst, packet.entropy & 0xFFFFFFFF, switch.salt)
        return candidates[int.from_bytes(hashlib.blake2b(words, digest_size=4).digest(), "little") % len(candidates)]


class _CrcSeedPerTier(_Blake2b):
    """CRC-32, as the packet model's ECMP, with one seed per tier (edge, agg, core) instead of per switch."""

    def choose(self, switch, packet, candidates):
        import struct
        from zlib import crc32
        tier = crc32(switch.name.rstrip("0123456789").encode())
        return candidates[crc32(struct.pack("<4I", packet.src, packet.dst, packet.entropy & 0xFFFFFFFF, tier))
                          % len(candidates)]


class _CrcBitsPerTier(_Blake2b):
    """The packet model's CRC-32 and salt, but each tier reads other bits of it (low, 8-15, 16-23)."""

    def choose(self, switch, packet, candidates):
        import struct
        from zlib import crc32
        shift = {"edge": 0, "agg": 8, "core": 16}[switch.name.rstrip("0123456789")]
        words = struct.pack("<4I", packet.src, packet.dst, packet.entropy & 0xFFFFFFFF, switch.salt)
        return candidates[(crc32(words) >> shift) % len(candidates)]


def test_a_linear_hash_polarizes_whatever_its_seed_and_a_non_linear_one_does_not():
    # review 3, C1: the appendix said real switches cure polarization with "a different hash or seed per
    # tier". A CRC is affine, so a seed (per switch, as the model has, or per tier) only XORs a constant into
    # every flow's hash: with 8 uplinks (k = 16) the aggregation switch's low bits follow the edge's.
    # Independent draws (balls in bins) put at most about 5-6 of 1,024 flows on a link; a non-linear hash of
    # the same words behaves so; the CRC, per switch or per tier, puts twice as many or more.
    crc = max(experiments.ecmp_link_loads(16, seed=1).values())
    per_tier = max(experiments.ecmp_link_loads(16, seed=1, load_balancer=_CrcSeedPerTier()).values())
    mixed = max(experiments.ecmp_link_loads(16, seed=1, load_balancer=_Blake2b()).values())
    assert mixed <= 7
    assert max(experiments.ecmp_link_loads(16, seed=1, load_balancer=_CrcBitsPerTier()).values()) <= 7
    assert crc >= 2 * mixed and per_tier >= 2 * mixed, (crc, per_tier, mixed)


def test_the_appendix_does_not_teach_a_seed_per_tier_as_the_cure():
    from pathlib import Path
    text = " ".join((Path(__file__).parents[2] / "book" / "appendix-simulator.md").read_text().split())
    assert "different hash or seed per tier" not in text
    assert "different hash function" in text
