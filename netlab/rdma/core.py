"""The verbs vocabulary every RDMA module shares: flags, opcodes, statuses, SGEs, completions
and the completion queue.

It imports nothing else of :mod:`netlab.rdma`, so :mod:`netlab.rdma.qp` (the queue
pair) and :mod:`netlab.rdma.verbs` (fabric, device, PD, MR) both build on it and
neither needs the other at import time.
"""

from __future__ import annotations

from dataclasses import dataclass
import enum
import heapq
import itertools

from netlab import validate
from netlab.units import format_time


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

    def __post_init__(self) -> None:
        validate.integer("addr", self.addr, minimum=0, maximum=2**64 - 1)
        validate.integer("length", self.length, minimum=0, maximum=2**31)   # IBTA: a message is at most 2 GiB
        validate.integer("lkey", self.lkey, minimum=0, maximum=2**32 - 1)


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
    src_qp: int | None = None    # UD receives: the sending QP's number (``ibv_wc.src_qp``)

    @property
    def ok(self) -> bool:
        return self.status is WCStatus.SUCCESS

    def __repr__(self) -> str:
        imm = "" if self.imm_data is None else f", imm={self.imm_data:#x}"
        src = "" if self.src_qp is None else f", from qp {self.src_qp:#x}"
        return (f"WC(wr_id={self.wr_id}, {self.status.value}, {self.opcode.value}, qp={self.qp_num}, "
                f"{self.byte_len} B{imm}{src}, t={format_time(self.time_s)})")


@dataclass(frozen=True)
class AsyncEvent:
    """An affiliated asynchronous event (``ibv_get_async_event``): how a QP's owner learns that
    the QP failed as a *responder*, where no work request of its own completes with the error.
    ``event_type`` is the ibverbs name, e.g. ``"IBV_EVENT_QP_ACCESS_ERR"``; a completion-queue
    event (``"IBV_EVENT_CQ_ERR"``) names the CQ in ``cq_num``, a shared-receive-queue event the SRQ
    in ``srq_num``; neither has a ``qp_num``."""

    event_type: str
    qp_num: int | None
    time_s: float
    cq_num: int | None = None
    srq_num: int | None = None

    def __repr__(self) -> str:
        if self.qp_num is not None:
            what = f"qp={self.qp_num:#x}"
        elif self.cq_num is not None:
            what = f"cq={self.cq_num}"
        else:
            what = f"srq={self.srq_num}"
        return f"AsyncEvent({self.event_type}, {what}, t={format_time(self.time_s)})"


class CompletionQueue:
    """Completions in the order they happen; :meth:`poll` busy-polls on the host's clock.

    It holds at most ``cqe`` completions not yet polled. One more is a *CQ overrun*
    :cite:p:`nvidia-rdma-aware-events`: the CQ goes into error (``errored``) and takes no more
    completions, the device reports ``IBV_EVENT_CQ_ERR``, and every QP whose send or receive
    queue completes into it moves to ERR with ``IBV_EVENT_QP_FATAL`` (IBTA C9-218, C11-37). A
    program sizes a CQ for every completion that can be outstanding on all the queues feeding it.
    """

    def __init__(self, context, cqe: int = 65536) -> None:   # a verbs.Context (no annotation: import cycle)
        self.context = context
        self.cqe = validate.integer("cqe", cqe, minimum=1, maximum=2**22)
        self.cq_num = len(getattr(context, "cqs", ()))
        self.errored = False
        self._heap: list[tuple[float, int, WorkCompletion]] = []
        self._seq = itertools.count()

    def push(self, wc: WorkCompletion) -> None:
        if self.errored:                 # an overrun CQ takes nothing more
            return
        if len(self._heap) >= self.cqe:
            self._overrun(wc.time_s)
            return
        heapq.heappush(self._heap, (wc.time_s, next(self._seq), wc))

    def _overrun(self, time_s: float) -> None:
        self.errored = True
        events = self.context.async_events
        events.append(AsyncEvent("IBV_EVENT_CQ_ERR", None, time_s, cq_num=self.cq_num))
        for qp in list(self.context.qps.values()):
            if (qp.send_cq is self or qp.recv_cq is self) and qp.state.value not in ("RESET", "ERR"):
                qp._enter_error(time_s)
                events.append(AsyncEvent("IBV_EVENT_QP_FATAL", qp.qp_num, time_s))

    def __len__(self) -> int:
        return len(self._heap)

    def poll(self, max_entries: int = 1) -> list[WorkCompletion]:
        """Up to ``max_entries`` completions, earliest first (``ibv_poll_cq`` in a spin loop).

        The host's clock moves to each completion's time (it waited for it) plus the
        cost of polling it.
        """
        max_entries = validate.integer("max_entries", max_entries, minimum=1)
        out: list[WorkCompletion] = []
        while self._heap and len(out) < max_entries:
            _, _, wc = heapq.heappop(self._heap)
            self.context.clock_s = max(self.context.clock_s, wc.time_s) + self.context.fabric.costs.poll_s
            qp = self.context.qps.get(wc.qp_num)
            if qp is not None:
                qp._reaped(wc)           # a send completion frees its send-queue slots
            out.append(wc)
        return out
