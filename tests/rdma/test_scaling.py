"""netlab.rdma.scaling against hand arithmetic on rdma-core's mlx5 sizing rules, NCCL's QP
requests and NCCL's GPUDirect-level rule."""

import pytest

from netlab import rdma, specs
from netlab.rdma import figures, scaling

API = {
    scaling.mlx5_send_queue: dict(max_send_wr=128, max_send_sge=1, max_inline_data=0, qp_type="RC"),
    scaling.mlx5_recv_queue: dict(max_recv_wr=256, max_recv_sge=1),
    scaling.nccl_qp_bytes: dict(),
    scaling.qp_memory: dict(n_gpus=1024, transport="RC", gpus_per_node=8, n_peers=None, qps_per_peer=1,
                            bytes_per_qp=None, dc_initiators=8),
    scaling.gdr_enabled: dict(path="PXB", level="PXB"),
    rdma.roce_mtu: dict(ethernet_mtu=1500),
    figures.qp_memories: dict(n_gpus=1024, qps_per_peer=1),
    figures.draw_qp_memory: dict(n_gpus=1024, qps_per_peer=1),
    figures.qp_memory_readout: dict(n_gpus=1024, qps_per_peer=1),
}


@pytest.mark.parametrize("kw,wqe,buffer,depth,inline", [
    # RC, 1 SGE: 192 B of control + 16 = 208 -> 256 B (four 64-byte blocks); 128 x 256 = 32 KiB exactly
    (dict(max_send_wr=128), 256, 32768, 128, 60),
    # asking for 64 B inline: 192 + (4 + 64 -> 80) = 272 -> 320 B; 128 x 320 = 40,960 -> 65,536; 65,536 // 320 = 204
    (dict(max_send_wr=128, max_inline_data=64), 320, 65536, 204, 124),
    # 100 requests: 25,600 B -> 32,768: the provider reports 128, more than asked
    (dict(max_send_wr=100), 256, 32768, 128, 60),
    # NCCL's 512: 512 x 256 = 128 KiB
    (dict(max_send_wr=512), 256, 131072, 512, 60),
    # UD: 16 + 48 + 16 = 80 -> 128 B
    (dict(max_send_wr=64, qp_type="UD"), 128, 8192, 64, 60),
])
def test_mlx5_send_queue_by_hand(kw, wqe, buffer, depth, inline):
    sq = scaling.mlx5_send_queue(**kw)
    assert (sq.wqe_bytes, sq.buffer_bytes, sq.max_send_wr, sq.max_inline_data) == (wqe, buffer, depth, inline)
    assert sq.max_send_wr >= kw["max_send_wr"]               # ibv_create_qp(3): never less than asked


def test_mlx5_recv_queue_and_nccl_qp_bytes_by_hand():
    assert scaling.mlx5_recv_queue(256) == 256 * 16          # 4 KiB
    assert scaling.mlx5_recv_queue(3) == 64                  # 4 x 16 = 64: at least one block
    assert scaling.mlx5_recv_queue(0) == 0
    assert scaling.mlx5_recv_queue(100, max_recv_sge=3) == 128 * 64
    # sending end 128 KiB; receiving end 128 KiB + 4 KiB; mean 130 KiB
    assert scaling.nccl_qp_bytes() == (131072 + 131072 + 4096) / 2 == specs.value("rdma.derived.nccl_qp_host_bytes")


def test_qp_counts_by_transport():
    rc = scaling.qp_memory(1024)
    assert rc.qps_per_process == 2 * 1023 and rc.qps_per_node == 8 * 2046
    assert rc.bytes_per_node == pytest.approx(8 * 2046 * 133120)          # 2.18 GB
    xrc = scaling.qp_memory(1024, "XRC")
    assert xrc.qps_per_process == 2 * 127                                  # 127 other nodes
    assert scaling.qp_memory(100_000, "DC").qps_per_process == 9           # 8 initiators + 1 target
    assert scaling.qp_memory(100_000, "UD").qps_per_process == 1
    # RC grows linearly: 100k GPUs, all peers, 2 QPs per peer per connection
    big = scaling.qp_memory(100_000, qps_per_peer=2)
    assert big.qps_per_process == 4 * 99_999 and big.bytes_per_process == pytest.approx(399_996 * 133_120)
    ring = scaling.qp_memory(100_000, n_peers=2)                           # a ring: two neighbours
    assert ring.qps_per_process == 4
    assert scaling.qp_memory(64, "XRC", n_peers=3).qps_per_process == 2   # peers on one node


@pytest.mark.parametrize("path,level,used", [
    ("PIX", "PXB", True), ("PXB", "PXB", True), ("PHB", "PXB", False), ("SYS", "PXB", False),
    ("PHB", "PHB", True), ("PIX", "LOC", False), ("SYS", "SYS", True), ("PXB", "PIX", False),
])
def test_gdr_level_rule(path, level, used):
    """NCCL env.rst: the level is the largest distance at which GPUDirect RDMA is used; default PXB."""
    assert scaling.gdr_enabled(path, level) is used


def test_bad_arguments_name_the_parameter():
    for call, name in ((lambda: scaling.mlx5_send_queue(0), "max_send_wr"),
                       (lambda: scaling.mlx5_send_queue(8, qp_type="UC"), "qp_type"),
                       (lambda: scaling.mlx5_send_queue(8, max_send_sge=0), "max_send_sge"),
                       (lambda: scaling.qp_memory(8, "RD"), "transport"),
                       (lambda: scaling.qp_memory(8, n_peers=8), "n_peers"),
                       (lambda: scaling.gdr_enabled("NVL"), "path"),
                       (lambda: scaling.gdr_enabled("PIX", "NODE"), "level")):
        with pytest.raises(ValueError, match=name):
            call()


@pytest.mark.parametrize("ethernet_mtu,active", [(1500, 1024), (9000, 4096), (4150, 2048), (4192, 4096),
                                                 (4191, 2048), (1120, 1024), (1119, 512)])
def test_roce_mtu_takes_96_header_bytes_and_rounds_down(ethernet_mtu, active):
    """Linux iboe_get_mtu: the Ethernet MTU less 96 bytes, rounded down to an InfiniBand MTU."""
    assert rdma.roce_mtu(ethernet_mtu) == active


def test_figure_draws_and_readout_matches_the_model():
    import matplotlib.pyplot as plt
    fig = figures.draw_qp_memory(8192, 4)
    assert len(fig.axes[0].patches) == 4
    plt.close(fig)
    text = figures.qp_memory_readout(8192, 1)
    assert "16,382 QPs per process" in text and "9 QPs" in text
