"""netlab.collectives.nccl_tuner against NCCL 2.30.7's tuner constants, worked by hand."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.collectives import nccl_tuner as nm
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    nm.nvlink_busbw: dict(arch="hopper"),
    nm.estimate: dict(n_bytes=16384, n_ranks=8, n_nodes=1, algorithm="ring", protocol="ll",
                      extra_net_step_s=0.0),
    nm.candidates: dict(n_bytes=16384, n_ranks=16, n_nodes=2, nic_bps=400e9),
    nm.predict: dict(n_bytes=16384, n_ranks=16, n_nodes=2, nic_bps=400e9),
    nm.switch_latency_effect: dict(n_bytes=2**30, n_ranks=1024, n_nodes=128, extra_net_step_s=0.9e-6,
                                   nic_bps=400e9),
    nm.env_choices: dict(nccl_algo="^Tree", nccl_proto="LL,Simple", n_nodes=1),
    nm.choice_table: dict(n_ranks=16, n_nodes=2, sizes=(4096.0, 2.0**20), nic_bps=400e9, n_channels=16),
    nm.collnet_latency_s: dict(n_ranks=64, n_nodes=8, variant="direct"),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    params = numeric_params(API[func])
    if not params:
        return
    name = data.draw(st.sampled_from(params))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_hopper_nvlink_cap_is_18_links_of_20_6_gbyte_s():
    # topo.h: SM90_NVLINK_BW 20.6 GB/s per link; 18 links -> 370.8 GB/s (the measured ~370 GB/s busbw).
    assert nm.nvlink_busbw("hopper") == pytest.approx(18 * 20.6e9 * 8)
    assert nm.nvlink_busbw("blackwell") == pytest.approx(18 * 40.1e9 * 8)


def test_small_all_reduce_on_one_h100_node_by_hand():
    # 8 ranks, 1 node: ring LL = 6.6 + 14 x 0.6 = 15.0 us; tree LL = 6.8 + 2 x 7 x 0.6 = 15.2 us
    # (a chain through the node, not a 6-step binary tree); ring LL128 = 14 + 14 x 1.9 = 40.6 us;
    # ring Simple = 8.4 + 14 x 3.4 = 56.0 us; NVLS = 25 us.
    expected = {("ring", "ll"): 15.0, ("tree", "ll"): 15.2, ("ring", "ll128"): 40.6,
                ("ring", "simple"): 56.0, ("tree", "ll128"): 14.0 + 14 * 1.25,
                ("tree", "simple"): 8.4 + 14 * 4.0, ("nvls", "simple"): 25.0}
    for (algorithm, protocol), us in expected.items():
        e = nm.estimate(0, 8, algorithm=algorithm, protocol=protocol)
        assert e.latency_s == pytest.approx(us * 1e-6, rel=1e-9), (algorithm, protocol)
    assert nm.predict(8, 8).label == "ring/LL"
    # On PCIe (no LL128, no NVLS): ring LL = 6.6 + 14 x 1.0 = 20.6 us.
    assert nm.predict(8, 8, fabric="pcie").latency_s == pytest.approx(20.6e-6)


def test_bandwidths_by_protocol_by_hand():
    # Ring: Simple keeps 370.8 GB/s busbw, LL128 x 0.92, LL min(141, half); algbw = busbw x 8/14.
    bus = 370.8e9 * 8
    simple = nm.estimate(2**30, 8, protocol="simple")
    assert simple.busbw_bps == pytest.approx(bus) and simple.algbw_bps == pytest.approx(bus * 8 / 14)
    assert nm.estimate(2**30, 8, protocol="ll128").busbw_bps == pytest.approx(0.92 * bus)
    assert nm.estimate(2**30, 8, protocol="ll").busbw_bps == pytest.approx(141e9 * 8)
    # Tree Simple: 0.92 x bus, algbw half of it (above 256 MB no size correction applies).
    tree = nm.estimate(2**30, 8, algorithm="tree", protocol="simple")
    assert tree.algbw_bps == pytest.approx(0.92 * bus / 2)
    # ... and 0.5 of that at 64 KB-2 MB sizes with Simple (the correction table).
    mid = nm.estimate(2**17, 8, algorithm="tree", protocol="simple")   # log2(2^17 / 64) = 11 -> 0.5
    assert mid.algbw_bps == pytest.approx(0.92 * bus / 2 * 0.5)
    # NVLS on 8 H100s: 2 x 0.85 x 370.8 x 7/8 = 551.6 GB/s bus, algbw x 8/14 = 315 GB/s
    # (measured NVLS algbw: about 275 GB/s).
    nvls = nm.estimate(2**30, 8, algorithm="nvls", protocol="simple")
    assert nvls.algbw_bps / 8e9 == pytest.approx(2 * 0.85 * 370.8 * 7 / 8 * 8 / 14, rel=1e-9)


def test_multi_node_counts_only_inter_node_steps_as_network_steps():
    # 1024 ranks on 128 nodes, ring LL, 4 bytes: 2046 steps, of which 2 x 127 = 254 cross the
    # network at 2.7 us; the other 1792 pay max(0.6 us NVLink, 1.0 us net overhead).
    e = nm.estimate(4, 1024, 128, "ring", "ll", nic_bps=400e9)
    assert e.latency_s == pytest.approx((6.6 + 1792 * 1.0 + 254 * 2.7) * 1e-6, rel=1e-9)
    # Tree: 6.8 + 2 x (7 x 0.6 + log2(128) x 5.0) = 85.2 us.
    t = nm.estimate(4, 1024, 128, "tree", "ll", nic_bps=400e9)
    assert t.latency_s == pytest.approx(85.2e-6, rel=1e-9)
    # One GPU per node: the ring's network steps use the tree's network latency (5.0 us for LL).
    one = nm.estimate(4, 4, 4, "ring", "ll", nic_bps=400e9)
    assert one.latency_s == pytest.approx((6.6 + 6 * 5.0) * 1e-6, rel=1e-9)


def test_e4_switch_latency_barely_matters_for_a_large_all_reduce():
    # Seed claim E4: +0.3 us per switch, 3 switches per network step, 1024 GPUs in 128 nodes at
    # 400 Gb/s. Charging all 2046 ring steps gave "4 %"; NCCL's model charges only the steps that
    # cross the network, and picks NVLS tree for 1 GB: 14 network levels x 0.9 us on 5.68 ms.
    big = nm.switch_latency_effect(2**30, 1024, 128, 0.9e-6, 400e9)
    assert big.base.label == "nvls/Simple" and big.network_steps == 14
    assert big.slowdown == pytest.approx(14 * 0.9e-6 / big.base.time_s, rel=1e-9)
    assert big.slowdown < 0.005
    # A small (64 KB) all-reduce runs tree/LL: 14 x 0.9 us on ~96 us, +13 %.
    small = nm.switch_latency_effect(65536, 1024, 128, 0.9e-6, 400e9)
    assert small.base.label == "tree/LL"
    assert 0.10 < small.slowdown < 0.16


def test_predict_is_the_fastest_candidate_and_refusals():
    cands = nm.candidates(2**20, 8)
    assert nm.predict(2**20, 8) == cands[0]
    assert all(a.time_s <= b.time_s for a, b in zip(cands, cands[1:]))
    with pytest.raises(ValueError, match="nic_bps"):
        nm.estimate(4, 16, 2)
    with pytest.raises(ValueError, match="multiple of n_nodes"):
        nm.estimate(4, 12, 5, nic_bps=1e11)
    with pytest.raises(ValueError, match="LL128"):
        nm.estimate(4, 8, protocol="ll128", fabric="pcie")
    with pytest.raises(ValueError, match="all_reduce"):
        nm.estimate(4, 8, algorithm="tree", collective="all_gather")
    with pytest.raises(ValueError, match="n_ranks"):
        nm.estimate(4, 1)


@settings(max_examples=60, deadline=None)
@given(n_bytes=st.floats(0, 1e10), nodes=st.sampled_from([1, 2, 4, 16]), ppn=st.sampled_from([1, 2, 8]))
def test_times_are_finite_positive_and_grow_with_size(n_bytes, nodes, ppn):
    n = nodes * ppn
    if n < 2:
        return
    a = nm.predict(n_bytes, n, nodes, nic_bps=400e9)
    b = nm.predict(n_bytes * 2 + 1, n, nodes, nic_bps=400e9)
    assert 0 < a.latency_s <= a.time_s < float("inf")
    assert b.time_s >= a.time_s


# --- NCCL's choice on a table of sizes and GPU counts, worked by hand from NCCL 2.30.7 ---------------
# The hand computation below uses NCCL 2.30.7's formulas (src/graph/tuning.cc, ncclTopoTuneModel and
# ncclTopoGetAlgoTime): time = latency + bytes / algbw, with
#   ring:  lat = base + (steps - netSteps) * max(intra, netOverhead) + netSteps * net, algbw = bus * n / (2(n-1))
#   tree:  lat = base + 2 * ((ppn - 1) * intra + floor(log2 nodes) * net), algbw = bus / 2 * treeCorrection[log2(S/64)]
#   NVLS(Tree): lat = 25 + 2 * floor(log2 nodes) * 20.9, algbw = min(2 * 0.85 * bus * (ppn-1)/ppn, ppn * nic) * n / (2(n-1))
# and netlab's stated inputs: H100, 18 NVLinks x 20.6 GB/s = 370.8 GB/s of bus bandwidth, 400 Gb/s
# (50 GB/s) per GPU across nodes, Intel hosts, enough channels that no per-channel cap binds.
# Times in µs, bandwidths in GB/s (bytes / (1e3 * GB/s) = µs), as tuning.cc writes them.
BUS = 18 * 20.6                                   # 370.8 GB/s
TREE_LL = (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0)
TREE_LL128 = (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0)
TREE_SIMPLE = (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9)


def _corr(table, size):
    i = (size // 64).bit_length() - 1
    return table[i] if 0 <= i < len(table) else 1.0


def _hand_one_node_8(size):
    """8 H100 in one node: {label: time in µs}."""
    return {
        "ring/LL": 6.6 + 14 * 0.6 + size / (1e3 * min(141.0, BUS / 2) * 8 / 14),
        "ring/LL128": 14.0 + 14 * 1.9 + size / (1e3 * 0.92 * BUS * 8 / 14),
        "ring/Simple": 8.4 + 14 * 3.4 + size / (1e3 * BUS * 8 / 14),
        "tree/LL": 6.8 + 2 * 7 * 0.6 + size / (1e3 * min(0.92 * BUS / 3.8, 141.0) / 2 * _corr(TREE_LL, size)),
        "tree/LL128": 14.0 + 2 * 7 * 1.25 + size / (1e3 * 0.92 * BUS * 7 / 9 / 2 * _corr(TREE_LL128, size)),
        "tree/Simple": 8.4 + 2 * 7 * 4.0 + size / (1e3 * 0.92 * BUS / 2 * _corr(TREE_SIMPLE, size)),
        "nvls/Simple": 25.0 + size / (1e3 * 2 * 0.85 * BUS * 7 / 8 * 8 / 14),
    }


def _hand_8_nodes_64(size):
    """64 H100 in 8 nodes of 8, 50 GB/s per GPU: bus = min(370.8, 8 x 50) = 370.8 GB/s."""
    plateau = 1.4 if size / (32 * 64) >= 64 else 1.0
    return {
        # 126 ring steps, 14 across the network; intra steps pay max(0.6, 1.0 net overhead) (LL) or
        # max(3.4, 3 x 1.0) (Simple); the LL cap is llMaxBws[Intel][4+ nodes] = 20.4 GB/s.
        "ring/LL": 6.6 + 112 * 1.0 + 14 * 2.7 + size / (1e3 * 20.4 * 64 / 126),
        "ring/LL128": 14.0 + 112 * 1.9 + 14 * 4.0 + size / (1e3 * 0.92 * BUS * 64 / 126),
        "ring/Simple": (8.4 + 112 * 3.4 + 14 * 14.0) * plateau + size / (1e3 * BUS * 64 / 126),
        "tree/LL": 6.8 + 2 * (7 * 0.6 + 3 * 5.0) + size / (1e3 * 20.4 / 2 * _corr(TREE_LL, size)),
        "tree/LL128": 14.0 + 2 * (7 * 1.25 + 3 * 8.5)
        + size / (1e3 * 0.92 * BUS * 120 / 128 / 2 * _corr(TREE_LL128, size)),
        "tree/Simple": 8.4 + 2 * (7 * 4.0 + 3 * 14.0) + size / (1e3 * 0.92 * BUS / 2 * _corr(TREE_SIMPLE, size)),
        "nvls/Simple": 25.0 + 2 * 3 * 20.9 + size / (1e3 * min(2 * 0.85 * BUS * 7 / 8, 8 * 50.0) * 64 / 126),
    }


def _hand_2_nodes_16(size):
    """16 H100 in 2 nodes: the LL cap is llMaxBws[Intel][2 nodes] = 39.0 GB/s; NVLS tree's network x2."""
    return {
        "ring/LL": 6.6 + 28 * 1.0 + 2 * 2.7 + size / (1e3 * 39.0 * 16 / 30),
        "tree/LL": 6.8 + 2 * (7 * 0.6 + 1 * 5.0) + size / (1e3 * 39.0 / 2 * _corr(TREE_LL, size)),
        "tree/LL128": 14.0 + 2 * (7 * 1.25 + 1 * 8.5)
        + size / (1e3 * 0.92 * BUS * 120 / 128 / 2 * _corr(TREE_LL128, size)),
        "nvls/Simple": 25.0 + 2 * 1 * 20.9 + size / (1e3 * min(2 * 0.85 * BUS * 7 / 8, 8 * 50.0 * 2) * 16 / 30),
    }


def _fastest(times):
    return min(times, key=times.get)


# (GPUs, nodes, size in bytes) -> the choice and time worked out by hand above. The comments give the
# hand numbers: the winner and the runner-up it beats.
CHOICE_TABLE = [
    (8, 1, 4096, "ring/LL"),            # 15.05 µs vs tree/LL 15.33
    (8, 1, 65536, "ring/LL"),           # 15.81 vs tree/LL 17.72
    (8, 1, 2**20, "ring/LL"),           # 28.01 vs nvls 28.33: NVLS's flat 25 µs loses by 1 %
    (8, 1, 2**22, "nvls/Simple"),       # 38.31 vs ring/LL 67.06
    (8, 1, 2**30, "nvls/Simple"),       # 3,432 vs ring/Simple 5,123
    (16, 2, 65536, "tree/LL"),          # 30.8 vs ring/LL 43.2
    (64, 8, 4096, "tree/LL"),           # 45.77 vs tree/LL128 82.5+
    (64, 8, 2**20, "tree/LL128"),       # 93.43 vs nvls 155.6
    (64, 8, 2**28, "nvls/Simple"),      # 1,472 vs tree/LL128 1,761
]


@pytest.mark.parametrize("n, m, size, label", CHOICE_TABLE)
def test_choice_matches_nccl_2_30_7_worked_by_hand(n, m, size, label):
    hand = {1: _hand_one_node_8, 2: _hand_2_nodes_16, 8: _hand_8_nodes_64}[m](size)
    assert _fastest(hand) == label                       # the hand computation itself picks it
    got = nm.predict(size, n, m, nic_bps=None if m == 1 else 400e9)
    assert got.label == label
    assert got.time_s == pytest.approx(hand[label] * 1e-6, rel=1e-6)


def test_choice_table_and_nccl_algo_ring_on_one_node():
    table = nm.choice_table(8, sizes=(4096.0, 2.0**24, 2.0**30))
    assert table.labels == ("ring/LL", "nvls/Simple", "nvls/Simple")
    assert [label for _, label in table.switch_points()] == ["ring/LL", "nvls/Simple"]
    # NCCL_ALGO=^NVLS leaves ring and tree: by hand, at 16 MiB ring/LL128 (126.7 µs) beats
    # ring/Simple (135.2 µs); at 1 GiB ring/Simple (5,123 µs) beats ring/LL128 (5,549 µs).
    algos, protos = nm.env_choices("^NVLS", None, n_nodes=1)
    assert algos == ("ring", "tree") and protos == nm.PROTOCOLS
    hand16 = {k: v for k, v in _hand_one_node_8(2**24).items() if not k.startswith("nvls")}
    hand1g = {k: v for k, v in _hand_one_node_8(2**30).items() if not k.startswith("nvls")}
    assert _fastest(hand16) == "ring/LL128" and _fastest(hand1g) == "ring/Simple"
    forced = nm.choice_table(8, sizes=(2.0**24, 2.0**30), algorithms=algos, protocols=protos)
    assert forced.labels == ("ring/LL128", "ring/Simple")
    assert forced.choices[0].time_s == pytest.approx(hand16["ring/LL128"] * 1e-6, rel=1e-6)
    runner = forced.runners_up[0]
    assert runner is not None and runner.label == "ring/Simple"


def test_env_choices_reads_nccls_list_syntax():
    assert nm.env_choices("Ring") == (("ring",), nm.PROTOCOLS)
    assert nm.env_choices(None, "^LL128") == (nm.ALGORITHMS, ("ll", "simple"))
    assert nm.env_choices("ring,TREE", "simple") == (("ring", "tree"), ("simple",))
    # NVLS names the one-node algorithm, NVLSTree the one across nodes.
    assert nm.env_choices("NVLS", n_nodes=1)[0] == ("nvls",)
    assert nm.env_choices("NVLSTree", n_nodes=4)[0] == ("nvls",)
    assert nm.env_choices("NVLS,Ring", n_nodes=4)[0] == ("ring",)
    # A prefix applies a list to one function only; entries after the first need one.
    assert nm.env_choices("Ring;allgather:Tree")[0] == ("ring",)
    assert nm.env_choices("Tree;allreduce:Ring")[0] == ("ring",)
    with pytest.raises(ValueError, match="prefix"):
        nm.env_choices("Ring;Tree")
    with pytest.raises(ValueError, match="unknown name"):
        nm.env_choices("Rings")
    with pytest.raises(ValueError, match="no algorithm netlab models"):
        nm.env_choices("CollNetDirect")


def test_fewer_channels_bind_the_per_channel_caps_and_move_the_plateau():
    # NCCL_MAX_NCHANNELS=4 on 8 H100: ring LL128 busbw = min(0.92 x 370.8, 4 x 36.7) = 146.8 GB/s
    # (perChMaxRingLL128Bws[Hopper]); tree = min(0.92 x 370.8, 4 x 38.7) = 154.8 GB/s.
    assert nm.estimate(2**30, 8, protocol="ll128", n_channels=4).busbw_bps == pytest.approx(4 * 36.7e9 * 8)
    assert nm.estimate(2**30, 8, algorithm="tree", protocol="simple", n_channels=4).busbw_bps == \
        pytest.approx(4 * 38.7e9 * 8)
    # 32 channels: no cap binds, as without the argument.
    assert nm.estimate(2**30, 8, protocol="ll128", n_channels=32).busbw_bps == \
        nm.estimate(2**30, 8, protocol="ll128").busbw_bps
    # The Simple ring's 1.4x plateau starts at S / (channels x ranks) >= 64 B: on 16 GPUs in 2 nodes,
    # 32 KiB / (32 x 16) = 64 -> on; 32 KiB / (64 x 16) = 32 -> off.
    on = nm.estimate(32768, 16, 2, protocol="simple", nic_bps=400e9, n_channels=32)
    off = nm.estimate(32768, 16, 2, protocol="simple", nic_bps=400e9, n_channels=64)
    assert on.latency_s == pytest.approx(1.4 * off.latency_s)


def test_collnet_latency_by_hand():
    # CollNet Direct, 8 GPUs per node: 2 (min(1, 7) x 3.7 + 7 x 0.4) + 31 = 44.0 µs; one GPU per node:
    # 2 x 0 + 14 (the tree's network latency). CollNet Chain: 2 x 7 x 2.8 + 30 = 69.2 µs.
    assert nm.collnet_latency_s(64, 8) == pytest.approx(44.0e-6)
    assert nm.collnet_latency_s(8, 8) == pytest.approx(14.0e-6)
    assert nm.collnet_latency_s(64, 8, "chain") == pytest.approx(69.2e-6)
