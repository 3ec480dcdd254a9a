"""RDMA verbs, emulated in-process: the bytes really move, and faults fail as on hardware.

The verbs object model :cite:p:`ibv-reg-mr-man` :cite:p:`ibv-post-send-man`: open
a device (a :class:`~netlab.rdma.verbs.Context`), allocate a protection domain, register memory
regions over numpy buffers (each gets an lkey and an rkey), create completion
queues and a reliable-connection queue pair, bring the QP up RESET -> INIT -> RTR
-> RTS, then post work requests: two-sided SEND/RECV, one-sided RDMA_WRITE (with or
without immediate data) and RDMA_READ, and 64-bit atomics. Every request ends in a
work completion with an ``ibv_wc_status``-named status; a fault (a wrong rkey, a
missing access flag, an out-of-bounds address, a SEND with no receive posted) gives
an error completion and moves the QP to ERR, and never touches memory.

Each host has a simulated clock; posting and polling cost CPU time, and each
completion appears when the fabric's host-path model (``netlab.rdma.hoststack``) says
it would, so a ping-pong over the emulation measures a latency::

    >>> import numpy as np
    >>> from netlab import rdma
    >>> fabric = rdma.Fabric(bandwidth_bps=100e9)
    >>> a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    >>> rdma.connect(a.qp, b.qp, access=rdma.Access.REMOTE_WRITE)
    >>> src = np.arange(4, dtype=np.int64); dst = np.zeros(4, dtype=np.int64)
    >>> s_mr = a.pd.reg_mr(src); d_mr = b.pd.reg_mr(dst, rdma.Access.LOCAL_WRITE | rdma.Access.REMOTE_WRITE)
    >>> a.qp.post_send(rdma.SendWR(1, rdma.Opcode.RDMA_WRITE, (s_mr.sge(),), d_mr.addr, d_mr.rkey))
    >>> a.send_cq.poll()[0].status.value, dst.tolist()
    ('IBV_WC_SUCCESS', [0, 1, 2, 3])

The package (chapter 3): the verbs in :mod:`~netlab.rdma.core` (keys, work requests,
completions), :mod:`~netlab.rdma.qp` (the queue pair and its states) and
:mod:`~netlab.rdma.verbs` (devices, protection domains, memory regions, the fabric);
:mod:`~netlab.rdma.hoststack`, the host path of a message (kernel TCP vs RDMA vs GPUDirect
RDMA) in time and CPU; :mod:`~netlab.rdma.scaling`, queue sizes, the memory of QPs at scale by
transport, and NCCL's GPUDirect level; :mod:`~netlab.rdma.figures`, lab 3's figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import validate
from netlab.rdma.core import (SGE, Access, AsyncEvent, CompletionQueue, Opcode, VerbsError, WCOpcode, WCStatus,
                              WorkCompletion)
from netlab.rdma.qp import (GRH_BYTES, LEGAL, OPTIONAL, PATH_MTUS, REQUIRED, QPState, QueuePair, RecvWR, SendWR,
                            SharedReceiveQueue, UDAddress, roce_mtu)
from netlab.rdma.verbs import Context, Fabric, MemoryRegion, ProtectionDomain

__all__ = ["Access", "AsyncEvent", "CompletionQueue", "Context", "Endpoint", "Fabric", "GRH_BYTES", "LEGAL",
           "MemoryRegion", "OPTIONAL", "Opcode", "PATH_MTUS", "ProtectionDomain", "REQUIRED", "QPState", "QueuePair",
           "RecvWR", "SGE", "SendWR", "SharedReceiveQueue", "UDAddress", "VerbsError", "WCOpcode", "WCStatus", "WorkCompletion",
           "connect", "endpoint", "roce_mtu"]


@dataclass(frozen=True)
class Endpoint:
    """What one side needs: its device context, a PD, a send CQ, a receive CQ and an RC QP."""

    ctx: Context
    pd: ProtectionDomain
    send_cq: CompletionQueue
    recv_cq: CompletionQueue
    qp: QueuePair


def endpoint(fabric: Fabric, host: str, max_send_wr: int = 128) -> Endpoint:
    """Open ``host``'s device and create a PD, two CQs and an RC QP (in RESET) whose send queue
    holds ``max_send_wr`` requests."""
    validate.instance("fabric", fabric, Fabric, "an rdma.Fabric")
    max_send_wr = validate.integer("max_send_wr", max_send_wr, minimum=1, maximum=2**15)
    ctx = fabric.open_device(host)
    pd = ctx.alloc_pd()
    send_cq, recv_cq = ctx.create_cq(), ctx.create_cq()
    return Endpoint(ctx, pd, send_cq, recv_cq, pd.create_qp(send_cq, recv_cq, max_send_wr))


def connect(qp_a: QueuePair, qp_b: QueuePair, access: Access = Access.NONE, *, timeout: int = 14,
            retry_cnt: int = 7, rnr_retry: int = 6, path_mtu: int | None = None) -> None:
    """Bring two RC QPs up to RTS, each pointing at the other, with the values a correct
    out-of-band exchange (a socket, or RDMA-CM) gives both: host and QP number, the same
    starting PSN, and a path MTU both ports carry (by default the smaller active MTU; pass
    ``path_mtu`` to force one). ``access`` is what each QP lets its peer do to it;
    ``timeout`` (14: 4.096 µs x 2**14 = 67 ms, perftest's default), ``retry_cnt`` and
    ``rnr_retry`` go into RTR -> RTS."""
    validate.instance("qp_a", qp_a, QueuePair, "a QueuePair (an endpoint's qp)")
    validate.instance("qp_b", qp_b, QueuePair, "a QueuePair (an endpoint's qp)")
    timeout = validate.integer("timeout", timeout, 0, 31)
    retry_cnt = validate.integer("retry_cnt", retry_cnt, 0, 7)
    rnr_retry = validate.integer("rnr_retry", rnr_retry, 0, 6)
    if path_mtu is None:
        path_mtu = min(qp_a.context.active_mtu, qp_b.context.active_mtu)
    elif path_mtu not in PATH_MTUS:
        raise ValueError(f"path_mtu must be one of {PATH_MTUS} bytes or None, got {path_mtu!r}")
    for qp, peer in ((qp_a, qp_b), (qp_b, qp_a)):
        qp.modify(QPState.INIT, access=access)
        qp.modify(QPState.RTR, dest_host=peer.context.host, dest_qp_num=peer.qp_num, path_mtu=path_mtu)
    for qp in (qp_a, qp_b):
        qp.modify(QPState.RTS, timeout=timeout, retry_cnt=retry_cnt, rnr_retry=rnr_retry)
