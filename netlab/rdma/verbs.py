"""The verbs objects: fabric, device context, protection domain, memory region, completion queue.

Names follow libibverbs {cite:p}`ibv-reg-mr-man` {cite:p}`ibv-post-send-man`: a
memory region (MR) is registered in a protection domain (PD) with access flags and
gets an ``lkey`` (for local work requests) and an ``rkey`` (handed to a peer, which
puts it in one-sided RDMA and atomic requests). REMOTE_WRITE and REMOTE_ATOMIC
require LOCAL_WRITE; local read is always allowed. Addresses are the real virtual
addresses of the numpy buffers, as ``ibv_reg_mr`` uses the buffer's address.

A :class:`Fabric` stands for the wire and the host-path costs between emulated
hosts; each host opens a :class:`Context` with its own simulated clock.
"""

from __future__ import annotations

from dataclasses import dataclass
import enum
import heapq
import itertools

import numpy as np

from netlab import validate
from netlab.hoststack import HostCosts, default_costs
from netlab.units import format_rate, format_time


class Access(enum.IntFlag):
    """Memory-region and QP access flags (``IBV_ACCESS_*``)."""

    NONE = 0
    LOCAL_WRITE = 1
    REMOTE_WRITE = 2
    REMOTE_READ = 4
    REMOTE_ATOMIC = 8


class Opcode(enum.Enum):
    """Send-queue opcodes (``IBV_WR_*``)."""

    SEND = "SEND"
    RDMA_WRITE = "RDMA_WRITE"
    RDMA_WRITE_WITH_IMM = "RDMA_WRITE_WITH_IMM"
    RDMA_READ = "RDMA_READ"
    ATOMIC_FETCH_AND_ADD = "ATOMIC_FETCH_AND_ADD"
    ATOMIC_CMP_AND_SWP = "ATOMIC_CMP_AND_SWP"


class WCOpcode(enum.Enum):
    """What a work completion reports (``IBV_WC_*`` opcodes)."""

    SEND = "SEND"
    RDMA_WRITE = "RDMA_WRITE"
    RDMA_READ = "RDMA_READ"
    COMP_SWAP = "COMP_SWAP"
    FETCH_ADD = "FETCH_ADD"
    RECV = "RECV"
    RECV_RDMA_WITH_IMM = "RECV_RDMA_WITH_IMM"


class WCStatus(enum.Enum):
    """Completion status codes, named after ``enum ibv_wc_status``."""

    SUCCESS = "IBV_WC_SUCCESS"
    LOC_LEN_ERR = "IBV_WC_LOC_LEN_ERR"            # receive buffer too small / bad local length
    LOC_PROT_ERR = "IBV_WC_LOC_PROT_ERR"          # bad lkey, local range or local access flag
    WR_FLUSH_ERR = "IBV_WC_WR_FLUSH_ERR"          # the QP was in ERR: request flushed
    REM_INV_REQ_ERR = "IBV_WC_REM_INV_REQ_ERR"    # the responder found the request invalid
    REM_ACCESS_ERR = "IBV_WC_REM_ACCESS_ERR"      # bad rkey, remote range or remote access flag
    REM_OP_ERR = "IBV_WC_REM_OP_ERR"              # the responder failed to complete it
    RETRY_EXC_ERR = "IBV_WC_RETRY_EXC_ERR"        # no acknowledgement after all retries
    RNR_RETRY_EXC_ERR = "IBV_WC_RNR_RETRY_EXC_ERR"  # receiver never had a receive posted


class VerbsError(OSError):
    """A verb refused synchronously, as ``ibv_post_send`` or ``ibv_modify_qp`` return an errno."""


@dataclass(frozen=True)
class SGE:
    """A scatter/gather element: ``length`` bytes at virtual address ``addr`` in the MR of ``lkey``."""

    addr: int
    length: int
    lkey: int


@dataclass(frozen=True)
class WorkCompletion:
    """One completion-queue entry; ``time_s`` is when it appears, on the simulated clock."""

    wr_id: int
    status: WCStatus
    opcode: WCOpcode
    qp_num: int
    byte_len: int = 0
    imm_data: int | None = None
    time_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status is WCStatus.SUCCESS

    def __repr__(self) -> str:
        imm = "" if self.imm_data is None else f", imm={self.imm_data:#x}"
        return (f"WC(wr_id={self.wr_id}, {self.status.value}, {self.opcode.value}, qp={self.qp_num}, "
                f"{self.byte_len} B{imm}, t={format_time(self.time_s)})")


class Fabric:
    """The wire between emulated hosts and the cost model of their host path.

    ``bandwidth_bps`` is the link rate (one direction), ``hops`` the network hops
    between NICs; step costs come from :class:`netlab.hoststack.HostCosts`.
    """

    def __init__(self, bandwidth_bps: float, hops: int = 1, costs: HostCosts | None = None) -> None:
        self.bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
        self.hops = validate.integer("hops", hops, minimum=1)
        self.costs = default_costs() if costs is None else costs
        if not isinstance(self.costs, HostCosts):
            raise TypeError(f"costs must be a HostCosts, got {type(self.costs).__name__}")
        self.hosts: dict[str, Context] = {}

    def open_device(self, host: str) -> Context:
        """Open the RDMA device of ``host`` (``ibv_open_device``); one context per host name."""
        if not isinstance(host, str) or not host:
            raise ValueError(f"host must be a non-empty string, got {host!r}")
        if host in self.hosts:
            raise ValueError(f"host {host!r} already has an open device on this fabric")
        self.hosts[host] = Context(self, host)
        return self.hosts[host]

    def network_s(self, n_bytes: int) -> float:
        """NIC to NIC: NIC processing at both ends, the hops, and the bytes at the slower of link and PCIe."""
        c = self.costs
        return (c.nic_tx_s + self.hops * c.hop_latency_s + c.nic_rx_s
                + n_bytes * 8.0 / min(self.bandwidth_bps, c.pcie_bps))

    def __repr__(self) -> str:
        return f"Fabric({format_rate(self.bandwidth_bps)}, {self.hops} hop(s), hosts {sorted(self.hosts)})"


class Context:
    """An opened device on one host: owns PDs, CQs, QPs, the key table and the host's clock."""

    def __init__(self, fabric: Fabric, host: str) -> None:
        self.fabric = fabric
        self.host = host
        self.clock_s = 0.0                   # this host's CPU time line
        self.mrs: dict[int, MemoryRegion] = {}   # key -> MR (lkey == rkey here, as on many HCAs)
        self.qps: dict[int, object] = {}
        self._keys = itertools.count(0x1000, 0x101)
        self._qpns = itertools.count(0x40)

    def alloc_pd(self) -> ProtectionDomain:
        return ProtectionDomain(self)

    def create_cq(self) -> CompletionQueue:
        return CompletionQueue(self)

    def __repr__(self) -> str:
        return f"Context({self.host}, clock {format_time(self.clock_s)}, {len(self.mrs)} MRs, {len(self.qps)} QPs)"


class ProtectionDomain:
    """Groups MRs and QPs: a QP can only use keys of MRs registered in its own PD."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def reg_mr(self, buffer: np.ndarray, access: Access = Access.NONE) -> MemoryRegion:
        """Register a C-contiguous numpy buffer (``ibv_reg_mr``); returns its MR with lkey/rkey."""
        if not isinstance(buffer, np.ndarray):
            raise TypeError(f"buffer must be a numpy array, got {type(buffer).__name__}")
        if not buffer.flags.c_contiguous or not buffer.flags.writeable or buffer.nbytes == 0:
            raise ValueError("buffer must be a non-empty, writeable, C-contiguous numpy array")
        if not isinstance(access, Access):
            raise TypeError(f"access must be netlab.rdma.Access flags, got {type(access).__name__}")
        if access & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC) and not access & Access.LOCAL_WRITE:
            raise VerbsError("EINVAL: REMOTE_WRITE and REMOTE_ATOMIC require LOCAL_WRITE (ibv_reg_mr)")
        key = next(self.context._keys)
        mr = MemoryRegion(self, buffer, access, key)
        self.context.mrs[key] = mr
        return mr

    def create_qp(self, send_cq: CompletionQueue, recv_cq: CompletionQueue):
        """A reliable-connection queue pair in state RESET (``ibv_create_qp`` with IBV_QPT_RC)."""
        from netlab.rdma.qp import QueuePair
        return QueuePair(self, send_cq, recv_cq)


class MemoryRegion:
    """Registered memory: the NIC may touch ``bytes`` through ``lkey`` and, if allowed, ``rkey``."""

    def __init__(self, pd: ProtectionDomain, buffer: np.ndarray, access: Access, key: int) -> None:
        self.pd = pd
        self.buffer = buffer
        self.bytes = buffer.reshape(-1).view(np.uint8)   # the same memory, byte-addressed
        self.addr = int(buffer.ctypes.data)
        self.length = int(buffer.nbytes)
        self.access = access
        self.lkey = self.rkey = key

    def sge(self, offset: int = 0, length: int | None = None) -> SGE:
        """An SGE for ``length`` bytes at ``offset`` into this region (all of it by default)."""
        length = self.length - offset if length is None else length
        return SGE(self.addr + offset, length, self.lkey)

    def contains(self, addr: int, length: int) -> bool:
        return length >= 0 and self.addr <= addr and addr + length <= self.addr + self.length

    def view(self, addr: int, length: int) -> np.ndarray:
        start = addr - self.addr
        return self.bytes[start:start + length]

    def dereg(self) -> None:
        """``ibv_dereg_mr``: the keys stop working at once."""
        self.pd.context.mrs.pop(self.lkey, None)

    def __repr__(self) -> str:
        return (f"MR({self.pd.context.host}, {self.length} B at {self.addr:#x}, lkey=rkey={self.lkey:#x}, "
                f"{self.access!s})")


class CompletionQueue:
    """Completions in the order they happen; :meth:`poll` busy-polls on the host's clock."""

    def __init__(self, context: Context) -> None:
        self.context = context
        self._heap: list[tuple[float, int, WorkCompletion]] = []
        self._seq = itertools.count()

    def push(self, wc: WorkCompletion) -> None:
        heapq.heappush(self._heap, (wc.time_s, next(self._seq), wc))

    def __len__(self) -> int:
        return len(self._heap)

    def poll(self, max_entries: int = 1) -> list[WorkCompletion]:
        """Up to ``max_entries`` completions, earliest first (``ibv_poll_cq`` in a spin loop).

        The host's clock moves to each completion's time (it waited for it) plus the
        cost of polling it.
        """
        max_entries = validate.integer("max_entries", max_entries, minimum=1)
        out = []
        while self._heap and len(out) < max_entries:
            _, _, wc = heapq.heappop(self._heap)
            self.context.clock_s = max(self.context.clock_s, wc.time_s) + self.context.fabric.costs.poll_s
            out.append(wc)
        return out
