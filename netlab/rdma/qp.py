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

**Connection parameters.** Besides the peer's QP number, a real exchange carries the
values both ends must agree on :cite:p:`nvidia-rdma-aware-manual`: the path MTU (set in
INIT -> RTR), the starting packet sequence numbers (the requester's ``sq_psn`` in
RTR -> RTS must equal the responder's ``rq_psn`` in INIT -> RTR), the partition (the P_Key
at ``pkey_index`` of each port's table, set in RESET -> INIT) and, on RoCE, the GID entry
(``sgid_index``) whose type (RoCE v1 or v2) sets the packet format. The kernel requires
most of these in its masks; the emulation takes them as optional and defaults them to
values that match (the port's active MTU, PSN 0, P_Key index 0, the first RoCE v2 GID), so
that only a program that sets them differently sees what a mismatch does. A value the
device cannot hold (a P_Key or GID index beyond its table, a path MTU that is not an
InfiniBand MTU) is refused by ``modify`` with ``EINVAL``, as the driver does. A mismatch
between the two ends passes every ``modify`` (neither end can see the other's values) and
fails at the first request: the responder's port discards what it cannot accept (another
partition, the other RoCE version, a PSN it does not expect, a packet longer than its path
MTU or either port's MTU), counts it in ``Context.rx_drops``, and the requester, never
acknowledged, ends with ``RETRY_EXC_ERR``. A too-large path MTU therefore goes unnoticed by
every message that fits in one smaller packet.

**Unreliable datagram (UD).** ``qp_type="UD"``: no connection (RESET -> INIT takes a
Q_Key, INIT -> RTR nothing), each SEND names its destination (:class:`UDAddress`), a
message is at most one MTU, only SEND exists (no RDMA READ, WRITE or atomics), nothing is
acknowledged or retried: a message that finds no posted receive, another Q_Key or
partition, or no QP, is dropped and the sender still completes with success. The receiver
finds the 40-byte global routing header (GRH) in front of the data, so its buffers must
hold 40 bytes more than the message :cite:p:`ibv-post-recv-man`.

**Shared receive queues.** A QP created with an SRQ (:class:`SharedReceiveQueue`) has no receive
queue of its own: SENDs arriving on any of the SRQ's QPs consume its receives in posting order, a
QP that fails does not flush them, and an armed limit raises ``IBV_EVENT_SRQ_LIMIT_REACHED``.

**Inline data.** A SEND or RDMA WRITE flagged ``inline`` carries its bytes inside the work
request: the NIC need not read them over PCIe, the buffer may be reused as soon as the post
returns, and the lkey is not checked :cite:p:`ibv-post-send-man`. A request larger than the
QP's ``max_inline_data`` is refused with ``ENOMEM``, as the mlx5 provider does
:cite:p:`rdma-core-mlx5-qp`.
"""

from __future__ import annotations

from dataclasses import dataclass
import enum
from typing import cast

import numpy as np

from netlab import validate
from netlab.rdma.core import (SGE, Access, AsyncEvent, CompletionQueue, Opcode, VerbsError, WCOpcode, WCStatus,
                              WorkCompletion)


PATH_MTUS = (256, 512, 1024, 2048, 4096)    # enum ibv_mtu: the InfiniBand MTUs, in bytes
GID_TYPES = ("IB", "RoCE v1", "RoCE v2")
QP_TYPES = ("RC", "UD")
GRH_BYTES = 40                                # global routing header a UD receive buffer starts with


def roce_mtu(ethernet_mtu: int) -> int:
    """The active MTU of a RoCE port on an Ethernet interface of MTU ``ethernet_mtu`` bytes: the
    largest InfiniBand MTU that fits once the RoCE headers are taken off, as Linux computes it
    (``iboe_get_mtu``: the MTU less 96 bytes of GRH, UDP, BTH, XRC and atomic extension headers and
    ICRC) :cite:p:`linux-ib-addr-mtu`. 1500 gives 1024; 9000 gives 4096; 4150 gives 2048."""
    from netlab import specs
    ethernet_mtu = validate.integer("ethernet_mtu", ethernet_mtu, minimum=576, maximum=65535)
    room = ethernet_mtu - int(specs.value("rdma.roce.mtu_header_allowance"))
    fitting = [m for m in PATH_MTUS if m <= room]
    if not fitting:
        raise ValueError(f"ethernet_mtu must leave room for a 256-byte RDMA packet, got {ethernet_mtu}")
    return fitting[-1]


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
#: The attributes a transition may also take (see :data:`REQUIRED`). The connection parameters
#: (``pkey_index``, ``path_mtu``, ``rq_psn``, ``sgid_index``, ``sq_psn``) are required by the kernel;
#: the emulation defaults them to matching values (see the module docstring).
OPTIONAL = {(S.RESET, S.INIT): {"pkey_index"}, (S.INIT, S.INIT): {"access", "pkey_index"},
            (S.INIT, S.RTR): {"access", "path_mtu", "rq_psn", "sgid_index"}, (S.RTR, S.RTS): {"access", "sq_psn"},
            (S.RTS, S.RTS): {"access"}}
#: The same tables for a UD QP (the kernel's UD masks — a Q_Key and P_Key index in INIT; RTR takes
#: nothing; RTS the send PSN, which the emulation defaults).
REQUIRED_UD = {(S.RESET, S.INIT): {"qkey"}}
OPTIONAL_UD = {(S.RESET, S.INIT): {"pkey_index"}, (S.INIT, S.INIT): {"qkey", "pkey_index"},
               (S.RTR, S.RTS): {"qkey", "sq_psn"}, (S.RTS, S.RTS): {"qkey"}}
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
    inline: bool = False     # IBV_SEND_INLINE: the bytes travel inside the request (SEND and RDMA_WRITE only)
    ud: UDAddress | None = None   # UD QPs: where the datagram goes (wr.ud: address handle, QPN, Q_Key)

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
        validate.boolean("inline", self.inline)
        if self.ud is not None and not isinstance(self.ud, UDAddress):
            raise TypeError(f"ud must be an rdma.UDAddress or None, got {type(self.ud).__name__}")


@dataclass(frozen=True)
class UDAddress:
    """Where a UD datagram goes: the destination host (what an address handle resolves), its
    QP number and the Q_Key the destination QP expects (``wr.ud.ah``, ``remote_qpn``, ``remote_qkey``)."""

    host: str
    qp_num: int
    qkey: int

    def __post_init__(self) -> None:
        if not isinstance(self.host, str) or not self.host:
            raise TypeError(f"host must be a non-empty string, got {self.host!r}")
        validate.integer("qp_num", self.qp_num, minimum=0, maximum=2**24 - 1)
        validate.integer("qkey", self.qkey, minimum=0, maximum=2**32 - 1)


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


class SharedReceiveQueue:
    """A shared receive queue (``ibv_create_srq``): one pool of receives that the SENDs arriving on
    every QP created with it consume, first posted first used :cite:p:`mlnx-ofed-advanced-transport`.

    It holds at most ``max_wr`` receives (a post beyond is refused with ``ENOMEM``). :meth:`arm`
    sets a limit (``ibv_modify_srq`` with ``IBV_SRQ_LIMIT``): when the receives left fall below it,
    the device reports ``IBV_EVENT_SRQ_LIMIT_REACHED`` once, and the program refills the pool. A
    receive in an SRQ belongs to no QP, so a QP that fails does not flush it."""

    def __init__(self, pd, max_wr: int = 1024) -> None:
        self.pd, self.context = pd, pd.context
        self.max_wr = validate.integer("max_wr", max_wr, minimum=1, maximum=2**20)
        self.queue: list[RecvWR] = []
        self.limit = 0
        self.srq_num = len(self.context.srqs)
        self.context.srqs.append(self)

    def post_recv(self, wr: RecvWR) -> None:
        """``ibv_post_srq_recv``: add a receive to the pool."""
        if not isinstance(wr, RecvWR):
            raise TypeError(f"wr must be a RecvWR, got {type(wr).__name__}")
        if len(self.queue) >= self.max_wr:
            raise VerbsError(f"ENOMEM: the SRQ holds {self.max_wr} receives already")
        self.context.clock_s += self.context.fabric.costs.post_s
        self.queue.append(wr)

    def arm(self, limit: int) -> None:
        """Report ``IBV_EVENT_SRQ_LIMIT_REACHED`` once, when fewer than ``limit`` receives are left
        (0 disarms)."""
        self.limit = validate.integer("limit", limit, minimum=0, maximum=self.max_wr)

    def _consumed(self, time_s: float) -> None:
        if self.limit and len(self.queue) < self.limit:
            self.limit = 0                        # fires once; the program re-arms after refilling
            self.context.async_events.append(AsyncEvent("IBV_EVENT_SRQ_LIMIT_REACHED", None, time_s,
                                                        srq_num=self.srq_num))

    def __len__(self) -> int:
        return len(self.queue)

    def __repr__(self) -> str:
        return f"SRQ({self.context.host}, {len(self.queue)} of {self.max_wr} receives posted, limit {self.limit})"


class QueuePair:
    """A queue pair: a send queue and a receive queue; reliable connection (RC) or unreliable
    datagram (UD)."""

    def __init__(self, pd, send_cq: CompletionQueue, recv_cq: CompletionQueue, max_send_wr: int = 128,
                 qp_type: str = "RC", max_inline_data: int = 0, srq: SharedReceiveQueue | None = None) -> None:
        for name, cq in (("send_cq", send_cq), ("recv_cq", recv_cq)):
            if not isinstance(cq, CompletionQueue) or cq.context is not pd.context:
                raise TypeError(f"{name} must be a CompletionQueue of the same context")
        validate.choice("qp_type", qp_type, QP_TYPES)
        if srq is not None and (not isinstance(srq, SharedReceiveQueue) or srq.pd is not pd):
            raise TypeError("srq must be a SharedReceiveQueue of the same protection domain, or None")
        self.srq = srq
        self.qp_type = qp_type
        self.max_inline_data = validate.integer("max_inline_data", max_inline_data, minimum=0, maximum=2**12)
        self.pd, self.context = pd, pd.context
        self.send_cq, self.recv_cq = send_cq, recv_cq
        self.qp_num = next(self.context._qpns)
        self.context.qps[self.qp_num] = self
        self.state = QPState.RESET
        self.access = Access.NONE
        self.remote: QueuePair | None = None
        self.retry_cnt, self.rnr_retry, self.timeout = 7, 6, 14
        self._own_recv: list[RecvWR] = []
        self.stalled: list[_Stalled] = []  # timeout=0: an unacknowledged request and those behind it
        self._last_send_done_s = 0.0     # RC: send completions in posting order
        self._last_recv_done_s = 0.0
        self.max_send_wr = validate.integer("max_send_wr", max_send_wr, minimum=1, maximum=2**15)
        self._sq_seq = 0                 # send requests posted so far
        self._sq_reaped = 0              # ... of which the program has freed the slots
        self._wc_seq: dict[int, int] = {}   # id(send completion) -> the request's sequence number
        self._default_connection()

    def _default_connection(self) -> None:
        """The connection parameters a correct exchange agrees on (see the module docstring)."""
        self.pkey_index, self.path_mtu, self.sgid_index = 0, self.context.active_mtu, self.context.default_gid_index
        self.rq_psn = self.sq_psn = 0
        self.qkey = 0

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
        req_table, opt_table = (REQUIRED, OPTIONAL) if self.qp_type == "RC" else (REQUIRED_UD, OPTIONAL_UD)
        required, allowed = req_table.get(step, set()), req_table.get(step, set()) | opt_table.get(step, set())
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
        for name, top in (("timeout", 31), ("retry_cnt", 7), ("rnr_retry", 6), ("rq_psn", 2**24 - 1),
                          ("sq_psn", 2**24 - 1), ("qkey", 2**32 - 1)):
            if name in attrs:
                new[name] = validate.integer(name, attrs[name], 0, top)
        for name, table in (("pkey_index", self.context.pkeys), ("sgid_index", self.context.gid_types)):
            if name in attrs:
                index = validate.integer(name, attrs[name], minimum=0, maximum=2**16 - 1)
                if index >= len(table):
                    raise VerbsError(f"EINVAL: {name} {index} is beyond the port's table of {len(table)} "
                                     f"entries {table}")
                new[name] = index
        if "path_mtu" in attrs:
            if attrs["path_mtu"] not in PATH_MTUS:
                raise VerbsError(f"EINVAL: path_mtu must be an InfiniBand MTU, one of {PATH_MTUS} bytes, "
                                 f"got {attrs['path_mtu']!r}")
            new["path_mtu"] = attrs["path_mtu"]
        # all checks passed: apply
        for name, value in new.items():
            setattr(self, name, value)
        if state is S.RESET:
            self._own_recv.clear()             # an SRQ's receives belong to the SRQ and stay
            self.stalled.clear()
            self._sq_reaped = self._sq_seq       # RESET empties the send queue
            self._wc_seq.clear()
            self.remote, self.access = None, Access.NONE
            self._default_connection()
        if state is S.ERR and self.state is not S.ERR:
            self._enter_error(self.context.clock_s)
        self.state = state

    def _enter_error(self, time_s: float) -> None:
        """Move to ERR: every receive posted to the QP's own queue completes with WR_FLUSH_ERR (an
        SRQ's receives stay in the SRQ for its other QPs)."""
        self.state = S.ERR
        t = max(time_s, self._last_recv_done_s)
        for wr in self._own_recv:
            self.recv_cq.push(WorkCompletion(wr.wr_id, WCStatus.WR_FLUSH_ERR, WCOpcode.RECV, self.qp_num, time_s=t))
        self._own_recv.clear()
        stalled, self.stalled = self.stalled, []
        for item in stalled:
            self._current_seq = item.seq
            self._complete(item.wr, WCStatus.WR_FLUSH_ERR, time_s)

    # --- posting -------------------------------------------------------------------
    def post_recv(self, wr: RecvWR) -> None:
        """``ibv_post_recv``: allowed from INIT on; in ERR the request is flushed at once."""
        if not isinstance(wr, RecvWR):
            raise TypeError(f"wr must be a RecvWR, got {type(wr).__name__}")
        if self.srq is not None:
            raise VerbsError("EINVAL: this QP takes its receives from a shared receive queue: post to the SRQ")
        if self.state is S.RESET:
            raise VerbsError("EINVAL: cannot post a receive to a QP in RESET")
        self.context.clock_s += self.context.fabric.costs.post_s
        if self.state is S.ERR:
            self.recv_cq.push(WorkCompletion(wr.wr_id, WCStatus.WR_FLUSH_ERR, WCOpcode.RECV, self.qp_num,
                                             time_s=self.context.clock_s))
            return
        self._own_recv.append(wr)

    @property
    def recv_queue(self) -> list[RecvWR]:
        """The receives this QP's incoming SENDs consume — its own, or its SRQ's."""
        return self.srq.queue if self.srq is not None else self._own_recv

    def _take_recv(self) -> RecvWR:
        """Consume the first posted receive (an SRQ may then report its limit)."""
        wr = self.recv_queue.pop(0)
        if self.srq is not None:
            self.srq._consumed(self.context.clock_s)
        return wr

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
        if wr.inline:
            if wr.opcode not in (Opcode.SEND, Opcode.RDMA_WRITE, Opcode.RDMA_WRITE_WITH_IMM):
                raise VerbsError(f"EINVAL: inline data is valid only for SEND and RDMA WRITE, not {wr.opcode.value}")
            if sum(s.length for s in wr.sg_list) > self.max_inline_data:
                raise VerbsError(f"ENOMEM: {sum(s.length for s in wr.sg_list)} B inline exceed the QP's "
                                 f"max_inline_data of {self.max_inline_data} B")
            for sge in wr.sg_list:
                _read_inline(self, sge)          # refuses, before anything changes, what it cannot read
        if self.qp_type == "UD":
            if wr.opcode is not Opcode.SEND or wr.ud is None:
                raise VerbsError(f"EINVAL: a UD QP sends only SEND requests, each with a UDAddress (ud=); "
                                 f"got {wr.opcode.value}{'' if wr.ud else ' without ud'}")
        elif wr.ud is not None:
            raise VerbsError("EINVAL: ud= is for UD QPs; an RC QP sends to the peer it is connected to")
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
        if self.qp_type == "UD":
            self._post_ud(wr, n, t0)
            return
        peer = cast(QueuePair, self.remote)     # set in RTR, so in RTS too
        try:
            if peer.state not in (S.RTR, S.RTS):   # nobody answers: the requester retries, then gives up
                raise _Fault(WCStatus.RETRY_EXC_ERR)
            reason = self._mismatch(peer, n)
            if reason:                             # the responder's port discards every attempt
                peer.context.rx_drops[reason] = peer.context.rx_drops.get(reason, 0) + self.retry_cnt + 1
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
                rwr = peer._take_recv()
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

    def _mismatch(self, peer: QueuePair, n: int) -> str:
        """Why the responder's port would discard this request's packets ('' if it would not)."""
        ctx, pctx = self.context, peer.context
        if ctx.pkeys[self.pkey_index] & 0x7FFF != pctx.pkeys[peer.pkey_index] & 0x7FFF:
            return "pkey_violation"             # another partition (the top bit is membership only)
        if ctx.gid_types[self.sgid_index] != pctx.gid_types[peer.sgid_index]:
            return "gid_type_mismatch"          # RoCE v1 and v2 packets differ on the wire
        if self.sq_psn != peer.rq_psn:
            return "out_of_sequence"
        limit = min(peer.path_mtu, ctx.active_mtu, pctx.active_mtu)
        if min(n, self.path_mtu) > limit:       # a packet longer than the path or the responder allows
            return "packet_too_long"
        return ""

    def _post_ud(self, wr: SendWR, n: int, t0: float) -> None:
        """One datagram: at most one MTU, no acknowledgement, dropped silently if undeliverable."""
        fabric = self.context.fabric
        if n > min(self.path_mtu, self.context.active_mtu):
            self._complete(wr, WCStatus.LOC_LEN_ERR, t0)
            self._enter_error(t0)                # a real UD QP goes to SQE; the emulation has no SQE
            return
        try:
            data = _gather([_read_inline(self, s) for s in wr.sg_list] if wr.inline
                           else self._local(wr.sg_list, writes=False))
        except _Fault as fault:
            self._complete(wr, fault.status, t0)
            self._enter_error(t0)
            return
        arrive_s = t0 + fabric.network_s(n)
        ud = cast(UDAddress, wr.ud)
        dest_ctx = fabric.hosts.get(ud.host)
        peer = dest_ctx.qps.get(ud.qp_num) if dest_ctx is not None else None
        reason = ""
        if peer is None or peer.qp_type != "UD" or peer.state not in (S.RTR, S.RTS):
            reason = "no_such_ud_qp"
        elif self.context.pkeys[self.pkey_index] & 0x7FFF != peer.context.pkeys[peer.pkey_index] & 0x7FFF:
            reason = "pkey_violation"
        elif ud.qkey != peer.qkey:
            reason = "qkey_violation"
        elif n > min(peer.context.active_mtu, peer.path_mtu):
            reason = "packet_too_long"
        elif not peer.recv_queue:
            reason = "no_receive_posted"         # UD has no RNR: the datagram is simply lost
        if reason:
            if dest_ctx is not None:
                dest_ctx.rx_drops[reason] = dest_ctx.rx_drops.get(reason, 0) + 1
        else:
            peer = cast(QueuePair, peer)
            rwr = peer._take_recv()
            try:
                targets = peer._local(rwr.sg_list, writes=True)
            except _Fault:
                targets = None
            if targets is None or sum(v.size for v in targets) < GRH_BYTES + n:
                status = WCStatus.LOC_PROT_ERR if targets is None else WCStatus.LOC_LEN_ERR
                peer._push_recv(WorkCompletion(rwr.wr_id, status, WCOpcode.RECV, peer.qp_num, time_s=arrive_s))
                peer._enter_error(arrive_s)
            else:
                _scatter(np.concatenate([np.zeros(GRH_BYTES, np.uint8), data]), targets)
                peer._push_recv(WorkCompletion(rwr.wr_id, WCStatus.SUCCESS, WCOpcode.RECV, peer.qp_num,
                                               GRH_BYTES + n, None, arrive_s, src_qp=self.qp_num))
        self._complete(wr, WCStatus.SUCCESS, arrive_s, n)   # sent: a datagram is never acknowledged

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
                                         self._last_recv_done_s, wc.src_qp))

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
        data = _gather([_read_inline(self, s) for s in wr.sg_list] if wr.inline
                       else self._local(wr.sg_list, writes=False))
        arrive_s = t0 + net(data.size)
        if op in (Opcode.RDMA_WRITE, Opcode.RDMA_WRITE_WITH_IMM):
            target = self._remote(peer, wr, data.size)
            if op is Opcode.RDMA_WRITE_WITH_IMM and not peer.recv_queue:
                raise _Fault(WCStatus.RNR_RETRY_EXC_ERR)
            target[:] = data
            if op is Opcode.RDMA_WRITE_WITH_IMM:
                rwr = peer._take_recv()
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
        peer._take_recv()
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


def _read_inline(qp: QueuePair, sge: SGE) -> np.ndarray:
    """The bytes of an inline SGE. The lkey is not checked (as on hardware); the emulation can only
    read memory it knows, so the bytes must lie in some region registered on this device (any key,
    PD or access); a real NIC would copy unregistered memory just as well."""
    for mr in qp.context.mrs.values():
        if mr.contains(sge.addr, sge.length):
            return mr.view(sge.addr, sge.length).copy()
    raise VerbsError("EINVAL: the emulation reads inline data only from memory registered on this device "
                     f"(any key); nothing holds {sge.length} B at {sge.addr:#x}")


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
