"""The reliable-connection queue pair: its state machine and what each opcode does to memory.

A QP is brought up RESET -> INIT (receives may be posted) -> RTR (the remote QP is
known; may receive) -> RTS (may send) :cite:p:`nvidia-rdma-aware-manual`. Legal
transitions follow the Linux RDMA core's table (SQD/SQE not modelled); an error
can be forced from any state except RESET, and any state may go back to RESET
:cite:p:`linux-qp-state-table`. Each transition takes the attributes that table's
masks require and may take those it allows (see :data:`REQUIRED` and
:data:`OPTIONAL`); any other attribute, a missing one or an illegal transition is
refused synchronously with a ``VerbsError`` (like the errno of the C call), and a
refused ``modify`` changes nothing. A post in a state that forbids it is refused
the same way. Faults found while executing a request are reported as hardware reports
them: an error completion, and the QP moves to ERR, where every queued and later
request completes with ``WR_FLUSH_ERR``. Memory is only written by a request that
passes every check.

Requests execute when posted (the emulation is synchronous), and each completion
carries the simulated time at which the real one would appear: the poster's clock,
plus the NIC-to-NIC time of the fabric for the request and for its response or ack.
A request nobody acknowledges is retried ``retry_cnt`` times at the local ACK
timeout; ``timeout=0`` means wait forever (as in ibverbs), so such a request never
completes and the send queue behind it waits, until the QP is moved to ERR (all are
flushed) or RESET.
"""

from __future__ import annotations

from dataclasses import dataclass
import enum
from typing import cast

import numpy as np

from netlab import validate
from netlab.rdma.core import (SGE, Access, AsyncEvent, CompletionQueue, Opcode, VerbsError, WCOpcode, WCStatus,
                              WorkCompletion)


class QPState(enum.Enum):
    RESET = "RESET"
    INIT = "INIT"
    RTR = "RTR"
    RTS = "RTS"
    ERR = "ERR"


S = QPState
LEGAL = {  # from -> allowed targets (ib_modify_qp_is_ok, without SQD/SQE)
    S.RESET: {S.RESET, S.INIT},
    S.INIT: {S.RESET, S.ERR, S.INIT, S.RTR},
    S.RTR: {S.RESET, S.ERR, S.RTS},
    S.RTS: {S.RESET, S.ERR, S.RTS},
    S.ERR: {S.RESET, S.ERR},
}
#: Attribute masks of ibverbs for an RC QP (the kernel's qp_state_table req_param / opt_param),
#: limited to what the emulation models (IBV_QP_ACCESS_FLAGS -> access, IBV_QP_AV + IBV_QP_DEST_QPN ->
#: dest_host + dest_qp_num, IBV_QP_TIMEOUT, IBV_QP_RETRY_CNT, IBV_QP_RNR_RETRY). A transition not listed
#: takes no attribute (to RESET, to ERR, RESET -> RESET). These are the required ones.
REQUIRED = {(S.RESET, S.INIT): {"access"}, (S.INIT, S.RTR): {"dest_host", "dest_qp_num"},
            (S.RTR, S.RTS): {"timeout", "retry_cnt", "rnr_retry"}}
#: The attributes a transition may also take (see :data:`REQUIRED`).
OPTIONAL = {(S.INIT, S.INIT): {"access"}, (S.INIT, S.RTR): {"access"}, (S.RTR, S.RTS): {"access"},
            (S.RTS, S.RTS): {"access"}}
ACK_TIMEOUT_UNIT_S = 4.096e-6       # IBTA: local ACK timeout = 4.096 µs * 2**timeout
_REMOTE_NEED = {Opcode.RDMA_WRITE: Access.REMOTE_WRITE, Opcode.RDMA_WRITE_WITH_IMM: Access.REMOTE_WRITE,
                Opcode.RDMA_READ: Access.REMOTE_READ, Opcode.ATOMIC_FETCH_AND_ADD: Access.REMOTE_ATOMIC,
                Opcode.ATOMIC_CMP_AND_SWP: Access.REMOTE_ATOMIC}
_WC_OF = {Opcode.SEND: WCOpcode.SEND, Opcode.RDMA_WRITE: WCOpcode.RDMA_WRITE,
          Opcode.RDMA_WRITE_WITH_IMM: WCOpcode.RDMA_WRITE, Opcode.RDMA_READ: WCOpcode.RDMA_READ,
          Opcode.ATOMIC_FETCH_AND_ADD: WCOpcode.FETCH_ADD, Opcode.ATOMIC_CMP_AND_SWP: WCOpcode.COMP_SWAP}
_U64 = np.dtype("<u8")


@dataclass(frozen=True)
class SendWR:
    """A send-queue work request (``struct ibv_send_wr``, one-sided fields flattened)."""

    wr_id: int
    opcode: Opcode
    sg_list: tuple[SGE, ...] = ()
    remote_addr: int = 0
    rkey: int = 0
    imm_data: int | None = None
    compare_add: int = 0     # FETCH_AND_ADD: the addend; CMP_AND_SWP: the value compared
    swap: int = 0
    signaled: bool = True    # False: no completion on success (IBV_SEND_SIGNALED unset); errors always complete

    def __post_init__(self) -> None:
        if not isinstance(self.opcode, Opcode):
            raise TypeError(f"opcode must be a netlab.rdma.Opcode, got {type(self.opcode).__name__} {self.opcode!r}")
        _check_common(self.wr_id, self.sg_list)
        validate.integer("remote_addr", self.remote_addr, minimum=0, maximum=2**64 - 1)
        validate.integer("rkey", self.rkey, minimum=0, maximum=2**32 - 1)
        if self.imm_data is not None:
            validate.integer("imm_data", self.imm_data, 0, 2**32 - 1)
        # 64-bit operands; a negative addend is taken mod 2**64 (two's complement), as the NIC adds
        validate.integer("compare_add", self.compare_add, minimum=-2**63, maximum=2**64 - 1)
        validate.integer("swap", self.swap, minimum=-2**63, maximum=2**64 - 1)
        validate.boolean("signaled", self.signaled)


@dataclass(frozen=True)
class RecvWR:
    """A receive-queue work request: where an incoming SEND's bytes go."""

    wr_id: int
    sg_list: tuple[SGE, ...] = ()

    def __post_init__(self) -> None:
        _check_common(self.wr_id, self.sg_list)


def _check_common(wr_id: object, sg_list: object) -> None:
    validate.integer("wr_id", wr_id, minimum=0, maximum=2**64 - 1)
    if not isinstance(sg_list, (tuple, list)) or not all(isinstance(s, SGE) for s in sg_list):
        raise TypeError(f"sg_list must be a tuple of SGE, got {sg_list!r}")
    if sum(s.length for s in sg_list) > 2**31:
        raise ValueError(f"sg_list must total at most 2**31 bytes (the RC message limit), "
                         f"got {sum(s.length for s in sg_list)}")


class _Fault(Exception):
    """A request failed: the requester's status, and the responder's if it fails too."""

    def __init__(self, status: WCStatus, responder_err: bool = False, recv_status: WCStatus | None = None):
        super().__init__(status.value)
        self.status, self.responder_err, self.recv_status = status, responder_err, recv_status


class QueuePair:
    """A reliable-connection (RC) queue pair: a send queue and a receive queue."""

    def __init__(self, pd, send_cq: CompletionQueue, recv_cq: CompletionQueue, max_send_wr: int = 128) -> None:
        for name, cq in (("send_cq", send_cq), ("recv_cq", recv_cq)):
            if not isinstance(cq, CompletionQueue) or cq.context is not pd.context:
                raise TypeError(f"{name} must be a CompletionQueue of the same context")
        self.pd, self.context = pd, pd.context
        self.send_cq, self.recv_cq = send_cq, recv_cq
        self.qp_num = next(self.context._qpns)
        self.context.qps[self.qp_num] = self
        self.state = QPState.RESET
        self.access = Access.NONE
        self.remote: QueuePair | None = None
        self.retry_cnt, self.rnr_retry, self.timeout = 7, 6, 14
        self.recv_queue: list[RecvWR] = []
        self.stalled: list[_Stalled] = []  # timeout=0: an unacknowledged request and those behind it
        self._last_send_done_s = 0.0     # RC: send completions in posting order
        self._last_recv_done_s = 0.0
        self.max_send_wr = validate.integer("max_send_wr", max_send_wr, minimum=1, maximum=2**15)
        self._sq_seq = 0                 # send requests posted so far
        self._sq_reaped = 0              # ... of which the program has freed the slots
        self._wc_seq: dict[int, int] = {}   # id(send completion) -> the request's sequence number

    def __repr__(self) -> str:
        peer = f" -> {self.remote.context.host}:{self.remote.qp_num:#x}" if self.remote else ""
        return f"QP({self.context.host}:{self.qp_num:#x}, {self.state.value}{peer})"

    # --- state machine -------------------------------------------------------------
    def modify(self, state: QPState, **attrs) -> None:
        """``ibv_modify_qp``: move to ``state``, setting the attributes given (the attribute mask).

        RESET->INIT requires ``access`` (the remote operations the QP allows); INIT->RTR
        requires ``dest_host`` and ``dest_qp_num``; RTR->RTS requires ``timeout`` (0-31, 0 =
        wait forever), ``retry_cnt`` (0-7) and ``rnr_retry`` (0-6; 7, retry forever, is not
        emulated). ``access`` may also be changed in INIT->INIT, INIT->RTR, RTR->RTS and
        RTS->RTS. Anything else (an illegal transition, a missing required attribute, an
        attribute the transition does not take, a bad value) raises ``VerbsError`` or
        ``TypeError``/``ValueError`` and leaves the QP exactly as it was.
        """
        if not isinstance(state, QPState):
            raise TypeError(f"state must be a QPState, got {type(state).__name__}")
        if state not in LEGAL[self.state]:
            raise VerbsError(f"EINVAL: QP {self.qp_num:#x} cannot go from {self.state.value} to {state.value}")
        step = (self.state, state)
        required, allowed = REQUIRED.get(step, set()), REQUIRED.get(step, set()) | OPTIONAL.get(step, set())
        given = set(attrs)
        if given - allowed:
            raise VerbsError(f"EINVAL: {self.state.value} -> {state.value} does not take {sorted(given - allowed)}"
                             f" (it takes {sorted(allowed) or 'no attributes'})")
        if required - given:
            raise VerbsError(f"EINVAL: {self.state.value} -> {state.value} needs {sorted(required - given)}")
        # check every value first: a refused modify changes nothing
        new: dict[str, object] = {}
        if "access" in attrs:
            if not isinstance(attrs["access"], Access):
                raise TypeError(f"access must be netlab.rdma.Access flags, got {attrs['access']!r}")
            new["access"] = attrs["access"]
        if "dest_host" in attrs:
            host, qpn = attrs["dest_host"], attrs["dest_qp_num"]
            if not isinstance(host, str) or host not in self.context.fabric.hosts:
                raise VerbsError(f"EINVAL: RTR needs dest_host, one of {sorted(self.context.fabric.hosts)}, "
                                 f"got {host!r}")
            peer = self.context.fabric.hosts[host].qps.get(qpn) if isinstance(qpn, int) else None
            if peer is None:
                raise VerbsError(f"EINVAL: no QP {qpn!r} on host {host!r}")
            new["remote"] = peer
        for name, top in (("timeout", 31), ("retry_cnt", 7), ("rnr_retry", 6)):
            if name in attrs:
                new[name] = validate.integer(name, attrs[name], 0, top)
        # all checks passed: apply
        for name, value in new.items():
            setattr(self, name, value)
        if state is S.RESET:
            self.recv_queue.clear()
            self.stalled.clear()
            self._sq_reaped = self._sq_seq       # RESET empties the send queue
            self._wc_seq.clear()
            self.remote, self.access = None, Access.NONE
        if state is S.ERR and self.state is not S.ERR:
            self._enter_error(self.context.clock_s)
        self.state = state

    def _enter_error(self, time_s: float) -> None:
        """Move to ERR: every posted receive completes with WR_FLUSH_ERR."""
        self.state = S.ERR
        t = max(time_s, self._last_recv_done_s)
        for wr in self.recv_queue:
            self.recv_cq.push(WorkCompletion(wr.wr_id, WCStatus.WR_FLUSH_ERR, WCOpcode.RECV, self.qp_num, time_s=t))
        self.recv_queue.clear()
        stalled, self.stalled = self.stalled, []
        for item in stalled:
            self._current_seq = item.seq
            self._complete(item.wr, WCStatus.WR_FLUSH_ERR, time_s)

    # --- posting -------------------------------------------------------------------
    def post_recv(self, wr: RecvWR) -> None:
        """``ibv_post_recv``: allowed from INIT on; in ERR the request is flushed at once."""
        if not isinstance(wr, RecvWR):
            raise TypeError(f"wr must be a RecvWR, got {type(wr).__name__}")
        if self.state is S.RESET:
            raise VerbsError("EINVAL: cannot post a receive to a QP in RESET")
        self.context.clock_s += self.context.fabric.costs.post_s
        if self.state is S.ERR:
            self.recv_cq.push(WorkCompletion(wr.wr_id, WCStatus.WR_FLUSH_ERR, WCOpcode.RECV, self.qp_num,
                                             time_s=self.context.clock_s))
            return
        self.recv_queue.append(wr)

    def post_send(self, wr: SendWR) -> None:
        """``ibv_post_send``: needs RTS (in ERR the request is flushed). Executes the request."""
        if not isinstance(wr, SendWR):
            raise TypeError(f"wr must be a SendWR, got {type(wr).__name__}")
        if self.state in (S.RESET, S.INIT, S.RTR):
            raise VerbsError(f"EINVAL: cannot post a send to a QP in {self.state.value} (needs RTS)")
        if self._sq_seq - self._sq_reaped >= self.max_send_wr:
            raise VerbsError(f"ENOMEM: the send queue of QP {self.qp_num:#x} is full ({self.max_send_wr} "
                             "requests not yet freed by a polled completion: signal one request in a few "
                             "and poll its completion)")
        fabric = self.context.fabric
        self.context.clock_s += fabric.costs.post_s
        t0 = self.context.clock_s
        self._sq_seq += 1
        self._current_seq = self._sq_seq
        if self.state is S.ERR:
            self._complete(wr, WCStatus.WR_FLUSH_ERR, t0)
            return
        if self.stalled:                 # waiting (timeout=0) for an ack that never comes: queue behind it
            self.stalled.append(_Stalled(wr, self._sq_seq))
            return
        n = sum(s.length for s in wr.sg_list)
        peer = cast(QueuePair, self.remote)     # set in RTR, so in RTS too
        try:
            if peer.state not in (S.RTR, S.RTS):   # nobody answers: the requester retries, then gives up
                raise _Fault(WCStatus.RETRY_EXC_ERR)
            done_s = self._execute(wr, peer, t0)
        except _Fault as fault:
            done_s = t0 + fabric.network_s(n) + fabric.network_s(0)
            if fault.status is WCStatus.RETRY_EXC_ERR and self.timeout == 0:
                self.stalled.append(_Stalled(wr, self._sq_seq))   # ibverbs: timeout 0 waits forever
                return
            if fault.status is WCStatus.RETRY_EXC_ERR:
                done_s = t0 + (self.retry_cnt + 1) * ACK_TIMEOUT_UNIT_S * 2 ** self.timeout
            elif fault.status is WCStatus.RNR_RETRY_EXC_ERR:
                done_s += self.rnr_retry * _rnr_timer_s()
            if fault.recv_status is not None:
                rwr = peer.recv_queue.pop(0)
                peer._push_recv(WorkCompletion(rwr.wr_id, fault.recv_status, WCOpcode.RECV, peer.qp_num,
                                               time_s=t0 + fabric.network_s(n)))
            if fault.responder_err:
                peer._enter_error(t0 + fabric.network_s(n))
                event = _ASYNC_OF.get(fault.status) if fault.recv_status is None else None
                if event is not None:    # the responder's owner has no completion: it gets an event
                    peer.context.async_events.append(AsyncEvent(event, peer.qp_num, t0 + fabric.network_s(n)))
            self._complete(wr, fault.status, done_s)
            self._enter_error(done_s)
            return
        self._complete(wr, WCStatus.SUCCESS, done_s, n)

    def _complete(self, wr: SendWR, status: WCStatus, time_s: float, byte_len: int = 0) -> None:
        self._last_send_done_s = max(self._last_send_done_s, time_s)
        if status is WCStatus.SUCCESS and not wr.signaled:
            return
        wc = WorkCompletion(wr.wr_id, status, _WC_OF[wr.opcode], self.qp_num, byte_len,
                            time_s=self._last_send_done_s)
        self._wc_seq[id(wc)] = self._current_seq
        self.send_cq.push(wc)

    def _reaped(self, wc: WorkCompletion) -> None:
        """A send completion was polled: its request and every earlier one free their slots."""
        seq = self._wc_seq.pop(id(wc), None)
        if seq is not None:
            self._sq_reaped = max(self._sq_reaped, seq)

    def _push_recv(self, wc: WorkCompletion) -> None:
        self._last_recv_done_s = max(self._last_recv_done_s, wc.time_s)
        self.recv_cq.push(WorkCompletion(wc.wr_id, wc.status, wc.opcode, wc.qp_num, wc.byte_len, wc.imm_data,
                                         self._last_recv_done_s))

    # --- execution: checks first, then the bytes move -------------------------------
    def _local(self, sges, writes: bool) -> list[np.ndarray]:
        """Views of the local buffers; a bad lkey, range or missing LOCAL_WRITE is LOC_PROT_ERR."""
        views = []
        for s in sges:
            mr = self.context.mrs.get(s.lkey)
            if mr is None or mr.pd is not self.pd or not mr.contains(s.addr, s.length) or (
                    writes and not mr.access & Access.LOCAL_WRITE):
                raise _Fault(WCStatus.LOC_PROT_ERR)
            views.append(mr.view(s.addr, s.length))
        return views

    def _remote(self, peer: QueuePair, wr: SendWR, length: int) -> np.ndarray:
        """The peer's bytes at ``remote_addr``; REM_ACCESS_ERR unless rkey, range and flags allow it."""
        need = _REMOTE_NEED[wr.opcode]
        if length == 0 and wr.opcode in (Opcode.RDMA_WRITE, Opcode.RDMA_WRITE_WITH_IMM, Opcode.RDMA_READ):
            # IBTA C9-88: an RC responder does not validate the R_Key of a zero-length RDMA READ or
            # WRITE (even with immediate data); the QP must still allow the operation.
            if not peer.access & need:
                raise _Fault(WCStatus.REM_ACCESS_ERR, responder_err=True)
            return np.zeros(0, np.uint8)
        mr = peer.context.mrs.get(wr.rkey)
        if (mr is None or mr.pd is not peer.pd or not mr.contains(wr.remote_addr, length)
                or not mr.access & need or not peer.access & need):
            raise _Fault(WCStatus.REM_ACCESS_ERR, responder_err=True)
        return mr.view(wr.remote_addr, length)

    def _execute(self, wr: SendWR, peer: QueuePair, t0: float) -> float:
        """Check everything, move the bytes, and return the requester's completion time."""
        net = self.context.fabric.network_s
        op = wr.opcode
        if op in (Opcode.ATOMIC_FETCH_AND_ADD, Opcode.ATOMIC_CMP_AND_SWP):
            if len(wr.sg_list) != 1 or wr.sg_list[0].length != 8:
                raise _Fault(WCStatus.LOC_LEN_ERR)
            (local,) = self._local(wr.sg_list, writes=True)
            if wr.remote_addr % 8:
                raise _Fault(WCStatus.REM_INV_REQ_ERR, responder_err=True)
            target = self._remote(peer, wr, 8).view(_U64)
            old = int(target[0])
            if op is Opcode.ATOMIC_FETCH_AND_ADD:
                target[0] = (old + wr.compare_add) % 2**64          # 64-bit wrap-around
            elif old == wr.compare_add % 2**64:
                target[0] = wr.swap % 2**64
            local.view(_U64)[0] = old                               # the old value comes back
            return t0 + net(0) + net(8)
        if op is Opcode.RDMA_READ:
            locals_ = self._local(wr.sg_list, writes=True)
            data = self._remote(peer, wr, sum(v.size for v in locals_)).copy()
            _scatter(data, locals_)
            return t0 + net(0) + net(data.size)
        data = _gather(self._local(wr.sg_list, writes=False))
        arrive_s = t0 + net(data.size)
        if op in (Opcode.RDMA_WRITE, Opcode.RDMA_WRITE_WITH_IMM):
            target = self._remote(peer, wr, data.size)
            if op is Opcode.RDMA_WRITE_WITH_IMM and not peer.recv_queue:
                raise _Fault(WCStatus.RNR_RETRY_EXC_ERR)
            target[:] = data
            if op is Opcode.RDMA_WRITE_WITH_IMM:
                rwr = peer.recv_queue.pop(0)
                peer._push_recv(WorkCompletion(rwr.wr_id, WCStatus.SUCCESS, WCOpcode.RECV_RDMA_WITH_IMM,
                                               peer.qp_num, data.size, wr.imm_data, arrive_s))
            return arrive_s + net(0)
        # SEND: consumes the first posted receive, whose buffers must hold the message.
        if not peer.recv_queue:
            raise _Fault(WCStatus.RNR_RETRY_EXC_ERR)
        rwr = peer.recv_queue[0]
        try:
            targets = peer._local(rwr.sg_list, writes=True)
        except _Fault:
            raise _Fault(WCStatus.REM_OP_ERR, responder_err=True, recv_status=WCStatus.LOC_PROT_ERR) from None
        if sum(v.size for v in targets) < data.size:
            raise _Fault(WCStatus.REM_INV_REQ_ERR, responder_err=True, recv_status=WCStatus.LOC_LEN_ERR)
        peer.recv_queue.pop(0)
        _scatter(data, targets)
        peer._push_recv(WorkCompletion(rwr.wr_id, WCStatus.SUCCESS, WCOpcode.RECV, peer.qp_num, data.size,
                                       None, arrive_s))
        return arrive_s + net(0)


@dataclass(frozen=True)
class _Stalled:
    """A send request waiting (timeout=0) behind an unacknowledged one, with its sequence number."""

    wr: SendWR
    seq: int


# Responder-side faults reported to the responder's owner as affiliated asynchronous events
# (ibv_get_async_event(3)): an access violation, and an invalid request.
_ASYNC_OF = {WCStatus.REM_ACCESS_ERR: "IBV_EVENT_QP_ACCESS_ERR", WCStatus.REM_INV_REQ_ERR: "IBV_EVENT_QP_REQ_ERR"}


def _gather(views: list[np.ndarray]) -> np.ndarray:
    return np.concatenate(views) if views else np.zeros(0, np.uint8)


def _scatter(data: np.ndarray, views: list[np.ndarray]) -> None:
    """Fill ``views`` in order with ``data`` (which may be shorter than their total)."""
    start = 0
    for v in views:
        take = min(v.size, data.size - start)
        v[:take] = data[start:start + take]
        start += take


def _rnr_timer_s() -> float:
    from netlab import specs
    return specs.value("rdma.assume.rnr_timer")
