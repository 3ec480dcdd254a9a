"""netlab.collectives.nccl_log: NCCL_DEBUG=INFO lines, typed by hand in NCCL 2.30.7's formats."""

import pytest

from netlab.collectives import nccl_log

API = {
    nccl_log.parse: dict(text="h:1:2 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 1 localRanks 2 localRank 0"),
    nccl_log.example_log: dict(n_nodes=2, gpus_per_node=4, n_channels=2, qps_per_connection=4),
}

# Written by hand from the format strings of NCCL 2.30.7 (src/init.cc, src/graph/rings.cc,
# src/transport/p2p.cc, net.cc, generic.cc, net_ib/init.cc, src/misc/param.cc): two nodes of two GPUs,
# two channels; the lines of ranks 0 and 1 on node "gpu01", interleaved as mpirun prints them.
HAND = """\
NCCL version 2.30.7+cuda12.9
gpu01:5011:5011 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [1]mlx5_1:1/RoCE [RO]; OOB bond0:10.1.0.11<0>
gpu01:5011:5060 [0] NCCL INFO NCCL_IB_QPS_PER_CONNECTION set by environment to 4.
gpu01:5011:5060 [0] NCCL INFO comm 0x55d1c0a0 rank 0 nRanks 4 nNodes 2 localRanks 2 localRank 0 MNNVL 0
gpu01:5012:5061 [1] NCCL INFO comm 0x55e2f0b0 rank 1 nRanks 4 nNodes 2 localRanks 2 localRank 1 MNNVL 0
gpu01:5011:5060 [0] NCCL INFO Channel 00/02 : 0 1 2 3
gpu01:5011:5060 [0] NCCL INFO Channel 01/02 : 0 1 2 3
gpu01:5011:5060 [0] NCCL INFO Trees [0] 1/2/-1->0->-1 [1] 1/-1/-1->0->2
gpu01:5012:5061 [1] NCCL INFO Trees [0] -1/-1/-1->1->0 [1] -1/-1/-1->1->0
gpu01:5011:5070 [0] NCCL INFO Channel 00/0 : 3[1] -> 0[0] [receive] via NET/IB/0/GDRDMA
gpu01:5011:5070 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM/read
gpu01:5012:5071 [1] NCCL INFO Channel 00/0 : 1[1] -> 2[0] [send] via NET/IB/0(0)/GDRDMA
gpu01:5012:5071 [1] NCCL INFO Channel 01/0 : 1[1] -> 2[0] [send] via NET/IB/1/GDRDMA
gpu01:5011:5060 [0] NCCL INFO 2 coll channels, 2 collnet channels, 0 nvls channels, 2 p2p channels, 2 p2p channels per peer
gpu01:5011:5060 [0] NCCL INFO Connected all rings, use ring PXN 1 GDR 1
some unrelated line from the application
"""


def test_reads_every_kind_of_line_typed_by_hand():
    log = nccl_log.parse(HAND)
    assert log.version == "2.30.7"
    assert (log.n_ranks, log.n_nodes, log.local_ranks) == (4, 2, 2)
    assert log.nics == (("mlx5_0:1", "RoCE"), ("mlx5_1:1", "RoCE"))
    assert log.rings == {0: (0, 1, 2, 3), 1: (0, 1, 2, 3)} and log.n_ring_channels == 2
    assert log.trees[0] == {0: ((1, 2), -1), 1: ((1,), 2)}
    assert log.trees[1][0] == ((), 0)
    assert len(log.hops) == 4 and len(log.network_hops()) == 3
    recv, p2p, pxn, direct = log.hops
    assert (recv.direction, recv.nic, recv.gdr, recv.proxy_rank) == ("receive", 0, True, None)
    assert not p2p.network and p2p.nic is None and p2p.via == "P2P/CUMEM/read"
    assert (pxn.src_rank, pxn.dst_rank, pxn.nic, pxn.proxy_rank) == (1, 2, 0, 0)   # PXN through GPU 0's NIC
    assert (direct.nic, direct.proxy_rank) == (1, None)
    assert log.nics_used() == [0, 1]
    assert (log.coll_channels, log.nvls_channels, log.ring_pxn, log.gdr) == (2, 0, True, True)
    assert log.env == {"NCCL_IB_QPS_PER_CONNECTION": "4"}
    text = log.explain()
    assert "4 ranks on 2 node(s), 2 GPUs per node" in text
    assert "every network hop uses GPUDirect RDMA" in text
    assert "1 network hop(s) go through another GPU's NIC" in text


def test_gdr_off_and_refusals():
    off = HAND.replace("/GDRDMA", "").replace("GDR 1", "GDR 0")
    log = nccl_log.parse(off)
    assert log.gdr is False and not any(h.gdr for h in log.hops)
    assert "staged through host memory" in log.explain()
    with pytest.raises(ValueError, match="NCCL INFO"):
        nccl_log.parse("hello\nworld\n")
    two = HAND + "gpu09:1:1 [0] NCCL INFO comm 0x1 rank 0 nRanks 8 nNodes 2 localRanks 4 localRank 0 MNNVL 0\n"
    with pytest.raises(ValueError, match="nRanks 8 disagrees with 4"):
        nccl_log.parse(two)
    with pytest.raises(TypeError, match="text"):
        nccl_log.parse(None)  # type: ignore[arg-type]


def test_example_log_reads_back_as_written():
    # 2 nodes of 4 GPUs, 2 channels: channel c enters each node at GPU c and leaves from GPU c+1
    # (mod 4) through NIC c, via GPU c's NIC when PXN is on.
    log = nccl_log.parse(nccl_log.example_log(2, 4, 2, gdr=True, pxn=True))
    assert (log.n_ranks, log.n_nodes, log.local_ranks, log.n_ring_channels) == (8, 2, 4, 2)
    assert log.rings[0] == (0, 3, 2, 1, 4, 7, 6, 5) and log.rings[1] == (1, 0, 3, 2, 5, 4, 7, 6)
    net = log.network_hops()
    # Channel 0: rank 1 sends to rank 4 on NIC 0 through GPU 0 (PXN), rank 0 receives from rank 5 on
    # NIC 0; channel 1: rank 2 -> 5 through GPU 1, rank 1 receives from rank 6, NIC 1.
    assert sorted((h.channel, h.direction, h.src_rank, h.dst_rank, h.nic, h.proxy_rank) for h in net) == [
        (0, "receive", 5, 0, 0, None), (0, "send", 1, 4, 0, 0),
        (1, "receive", 6, 1, 1, None), (1, "send", 2, 5, 1, 1)]
    assert all(h.gdr for h in net) and log.ring_pxn and log.gdr
    plain = nccl_log.parse(nccl_log.example_log(2, 4, 2, gdr=False, pxn=False))
    assert {h.proxy_rank for h in plain.network_hops()} == {None} and plain.gdr is False


def test_reads_lines_as_a_user_posted_them():
    # Four INFO lines of a 4-node, 2-GPU-per-node run as posted in nccl-tests issue 311
    # (https://github.com/NVIDIA/nccl-tests/issues/311), with other lines of the paste between them.
    posted = """\
gpu40:2899:2929 [0] NCCL INFO P2P Chunksize set to 131072
gpu36:15433:15499 [0] NCCL INFO comm 0x6426550 rank 2 nRanks 8 nNodes 4 localRanks 2 localRank 0 MNNVL 0
gpu36:15433:15499 [0] NCCL INFO Trees [0] 3/-1/-1->2->5 [1] 3/0/-1->2->6 [2] 3/-1/-1->2->5
gpu40:2900:2930 [1] NCCL INFO Trees [0] 2/-1/-1->5->4 [1] -1/-1/-1->5->4 [2] 2/-1/-1->5->4
gpu34:23655:23685 [1] NCCL INFO comm 0x60005e0 rank 1 nRanks 8 nNodes 4 localRanks 2 localRank 1 MNNVL 0
gpu34:23654:23703 [0] NCCL INFO [Proxy Service UDS] Device 0 CPU core 8
"""
    log = nccl_log.parse(posted)
    assert (log.n_ranks, log.n_nodes, log.local_ranks) == (8, 4, 2)
    # rank 2: channel 1 has children 3 and 0 and parent 6; rank 5: a leaf under 4 on channel 1
    assert log.trees[2] == {0: ((3,), 5), 1: ((3, 0), 6), 2: ((3,), 5)}
    assert log.trees[5][1] == ((), 4) and log.trees[5][0] == ((2,), 4)
    assert log.hops == () and log.version is None
