"""Queues and QPs at scale: what a queue costs in memory, how many QPs each transport needs,
and when NCCL lets the NIC reach GPU memory directly.

**Queue sizes on mlx5.** ``ibv_create_qp`` may give a deeper send queue and more inline room
than asked :cite:p:`ibv-create-qp-man`. The mlx5 provider :cite:p:`rdma-core-mlx5-qp` sizes a
send work-queue entry (WQE) as the largest control segments any allowed opcode needs, plus 16
bytes per scatter/gather entry (or the inline data), rounded up to 64-byte basic blocks; the
whole queue is ``max_send_wr`` entries rounded up to a power of two bytes, and the depth it
reports back is that buffer divided by the entry size. :func:`mlx5_send_queue` repeats that
arithmetic; :func:`mlx5_recv_queue` the receive side (16 bytes per scatter entry, both the
entry and the count rounded up to powers of two).

**QPs at scale.** A reliable connection (RC) joins exactly two QPs, so a process that talks to
every other GPU of a job holds one QP (or ``qps_per_peer``) per peer, and the memory grows
with the job. XRC lets the processes of a node share receive-side state, so a process needs one
send QP per remote *node*; dynamically connected transport (DC, mlx5 only) keeps a small pool of
initiators that attach to any target per message; UD needs one QP per process but leaves
reliability and segmentation to software :cite:p:`mlnx-ofed-advanced-transport`.
:func:`qp_memory` counts the QPs and multiplies by a per-QP buffer size (by default what the
mlx5 provider allocates for the queues NCCL asks for); the adapter's own per-QP context, held
in memory the driver hands the adapter and cached on the chip, is not published and is left out.

**GPUDirect level.** NCCL uses GPUDirect RDMA between a GPU and a NIC only if their PCIe path is
no longer than ``NCCL_NET_GDR_LEVEL`` (default PXB: through PCIe switches, not through the CPU)
:cite:p:`nccl-env-gdr-level`; :func:`gdr_enabled` applies that rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import specs, validate
from netlab.units import format_bytes

__all__ = ["PCIE_PATHS", "GDR_LEVELS", "QPMemory", "SendQueue", "TRANSPORTS", "gdr_enabled", "mlx5_recv_queue",
           "mlx5_send_queue", "nccl_qp_bytes", "qp_memory"]

#: PCIe path types between a GPU and a NIC, nearest first, as ``nvidia-smi topo -m`` and NCCL name them.
PCIE_PATHS = {
    "PIX": "through at most one PCIe switch (the same switch)",
    "PXB": "through several PCIe switches, not through a CPU's root complex",
    "PHB": "through a CPU's PCIe host bridge (the root complex), on one NUMA node",
    "SYS": "across the link between CPU sockets (NUMA nodes)",
}
#: The values of NCCL_NET_GDR_LEVEL — LOC never uses GPUDirect RDMA, SYS always does.
GDR_LEVELS = ("LOC", "PIX", "PXB", "PHB", "SYS")
#: The transports :func:`qp_memory` counts.
TRANSPORTS = ("RC", "XRC", "DC", "UD")


def _pow2(n: int) -> int:
    return 1 << (n - 1).bit_length()


def _align(n: int, to: int) -> int:
    return -(-n // to) * to


@dataclass(frozen=True)
class SendQueue:
    """What ``ibv_create_qp`` gives on mlx5: the size of one send WQE and of the whole send queue,
    and the depth and inline room it reports back (``cap.max_send_wr``, ``cap.max_inline_data``)."""

    wqe_bytes: int
    buffer_bytes: int
    max_send_wr: int
    max_inline_data: int

    def __repr__(self) -> str:
        return (f"SendQueue({self.wqe_bytes} B per WQE, {format_bytes(self.buffer_bytes, binary=True)} in all; gives "
                f"max_send_wr={self.max_send_wr}, max_inline_data={self.max_inline_data} B)")


def mlx5_send_queue(max_send_wr: int, max_send_sge: int = 1, max_inline_data: int = 0,
                    qp_type: str = "RC") -> SendQueue:
    """The send queue the mlx5 provider builds for an ``ibv_create_qp`` request
    (``mlx5_calc_send_wqe`` and ``mlx5_calc_sq_size`` in rdma-core :cite:p:`rdma-core-mlx5-qp`).

    ``qp_type`` is ``"RC"`` (default opcodes, which include memory-window binds: 192 bytes of
    control segments) or ``"UD"`` (SEND only, plus a 48-byte datagram segment: 64 bytes).
    """
    max_send_wr = validate.integer("max_send_wr", max_send_wr, minimum=1, maximum=2**15)
    max_send_sge = validate.integer("max_send_sge", max_send_sge, minimum=1, maximum=30)
    max_inline_data = validate.integer("max_inline_data", max_inline_data, minimum=0, maximum=900)
    validate.choice("qp_type", qp_type, ("RC", "UD"))
    block = int(specs.value("rdma.mlx5.send_wqe_basic_block"))
    data_seg = int(specs.value("rdma.mlx5.data_segment"))
    overhead = int(specs.value(f"rdma.mlx5.{qp_type.lower()}_wqe_overhead"))
    size = overhead + max_send_sge * data_seg
    inline = overhead + _align(4 + max_inline_data, 16) if max_inline_data else 0   # 4: inline byte count
    wqe = _align(max(size, inline), block)
    if wqe > 16 * block:
        raise ValueError(f"max_send_sge and max_inline_data must fit a WQE of at most {16 * block} B, "
                         f"got {max_send_sge} SGEs and {max_inline_data} B inline ({wqe} B)")
    buffer = _pow2(max_send_wr * wqe)
    return SendQueue(wqe, buffer, buffer // wqe, wqe - overhead - 4)


def mlx5_recv_queue(max_recv_wr: int, max_recv_sge: int = 1) -> int:
    """Bytes of the receive queue the mlx5 provider builds (``mlx5_calc_rq_size``): 16 bytes per
    scatter entry, rounded up to a power of two, times ``max_recv_wr`` rounded up to a power of
    two, and at least one 64-byte block. Zero when ``max_recv_wr`` is 0 (a send-only QP)."""
    max_recv_wr = validate.integer("max_recv_wr", max_recv_wr, minimum=0, maximum=2**15)
    max_recv_sge = validate.integer("max_recv_sge", max_recv_sge, minimum=1, maximum=32)
    if max_recv_wr == 0:
        return 0
    wqe = _pow2(max_recv_sge * int(specs.value("rdma.mlx5.data_segment")))
    return max(_pow2(max_recv_wr) * wqe, int(specs.value("rdma.mlx5.send_wqe_basic_block")))


def nccl_qp_bytes() -> float:
    """Host memory of the work queues of one NCCL connection's QPs on mlx5, averaged over its two
    ends: the sending end's QP asks for 512 send requests and no receives, the receiving end's for
    512 sends and 256 receives, each with one SGE and no inline data (NCCL's defaults
    :cite:p:`nccl-net-ib-connect`)."""
    sq = mlx5_send_queue(int(specs.value("nccl.ib.max_send_wr"))).buffer_bytes
    rq = mlx5_recv_queue(int(specs.value("nccl.ib.max_recv_wr")))
    return (sq + (sq + rq)) / 2


@dataclass(frozen=True)
class QPMemory:
    """How many QPs a job's processes hold and what their queues take in host memory."""

    transport: str
    n_gpus: int
    gpus_per_node: int
    n_peers: int
    qps_per_process: int
    bytes_per_qp: float

    @property
    def bytes_per_process(self) -> float:
        return self.qps_per_process * self.bytes_per_qp

    @property
    def qps_per_node(self) -> int:
        return self.qps_per_process * self.gpus_per_node

    @property
    def bytes_per_node(self) -> float:
        return self.bytes_per_process * self.gpus_per_node

    def __repr__(self) -> str:
        qps = f"{self.qps_per_process:,} QP" + ("s" if self.qps_per_process != 1 else "")
        return (f"QPMemory({self.transport}, {self.n_gpus:,} GPUs, {self.n_peers:,} peers each: "
                f"{qps} per process, {format_bytes(self.bytes_per_process, binary=True)} per process, "
                f"{format_bytes(self.bytes_per_node, binary=True)} per node of {self.gpus_per_node})")


def qp_memory(n_gpus: int, transport: str = "RC", gpus_per_node: int = 8, n_peers: int | None = None,
              qps_per_peer: int = 1, bytes_per_qp: float | None = None, dc_initiators: int = 8) -> QPMemory:
    """The QPs one process (one per GPU) needs to reach ``n_peers`` other GPUs (all the others by
    default), and their work-queue memory.

    - ``"RC"``: ``qps_per_peer`` QPs per peer (NCCL_IB_QPS_PER_CONNECTION), each end of a
      connection holding its own.
    - ``"XRC"``: ``qps_per_peer`` send QPs per remote *node* holding a peer, plus as many receive
      (target) QPs, which the node's processes share; the count falls by about ``gpus_per_node``.
    - ``"DC"``: a pool of ``dc_initiators`` initiator QPs and one target, whatever the job size.
    - ``"UD"``: one QP (no connection; software must add reliability and cut messages to the MTU).

    ``bytes_per_qp`` defaults to :func:`nccl_qp_bytes`. The adapter's per-QP context is not included.
    """
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=2, maximum=10**7)
    gpus_per_node = validate.integer("gpus_per_node", gpus_per_node, minimum=1, maximum=1024)
    validate.choice("transport", transport, TRANSPORTS)
    n_peers = n_gpus - 1 if n_peers is None else validate.integer("n_peers", n_peers, minimum=1, maximum=n_gpus - 1)
    qps_per_peer = validate.integer("qps_per_peer", qps_per_peer, minimum=1, maximum=128)
    dc_initiators = validate.integer("dc_initiators", dc_initiators, minimum=1, maximum=1024)
    per_qp = nccl_qp_bytes() if bytes_per_qp is None else validate.positive("bytes_per_qp", bytes_per_qp)
    if transport == "RC":
        qps = 2 * qps_per_peer * n_peers                 # a send QP and a receive QP per peer
    elif transport == "XRC":
        remote_nodes = min(-(-n_peers // gpus_per_node), -(-n_gpus // gpus_per_node) - 1) or 1
        qps = 2 * qps_per_peer * remote_nodes
    elif transport == "DC":
        qps = dc_initiators + 1
    else:
        qps = 1
    return QPMemory(transport, n_gpus, gpus_per_node, n_peers, qps, per_qp)


def gdr_enabled(path: str, level: str = "PXB") -> bool:
    """Whether NCCL uses GPUDirect RDMA between a GPU and a NIC whose PCIe path type is ``path``
    (one of :data:`PCIE_PATHS`) under ``NCCL_NET_GDR_LEVEL=level`` (default PXB, NCCL's default
    without a C2C link): only if the path is no longer than the level :cite:p:`nccl-env-gdr-level`."""
    validate.choice("path", path, tuple(PCIE_PATHS))
    validate.choice("level", level, GDR_LEVELS)
    return level != "LOC" and GDR_LEVELS.index(path) <= GDR_LEVELS.index(level)
