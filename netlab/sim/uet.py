"""A UET-like transport: selective repeat with SACK, trimming NACKs, spraying, receiver credits.

RoCEv2 inherited InfiniBand's reliable connection: the receiver accepts packets only
in order, and one loss makes the sender resend everything after it (go-back-N,
:mod:`netlab.sim.transport`). Ultra Ethernet's packet delivery sublayer (PDS)
changes that [uet-ref-prov]:

* **Out-of-order placement.** Every packet carries its byte offset, so the receiver
  writes it where it belongs whatever order it arrives in (``RUD``, reliable
  unordered delivery). ``ROD`` (reliable ordered) keeps one path (one entropy
  value) and releases data to the application in sequence; ``RUDI`` (idempotent
  operations, no connection) and ``UUD`` (unreliable datagrams) are explained in
  chapter 8 and not simulated.
* **Selective acknowledgement.** Each ACK carries a cumulative point and a 64-bit
  bitmap of the packets received after it (``sack_bitmap`` in the reference
  provider's header); the sender resends only what is missing.
* **Loss detection without waiting for a timeout.** A packet is presumed lost when
  ``reorder_threshold`` packets sent after it have been acknowledged; a *trimmed*
  packet (a switch cut its payload, see :mod:`netlab.sim.trimming`) reaches the
  receiver as a bare header and is NACKed at once -- fast retransmission. A
  retransmission timeout (RTO) remains the last resort.
* **Packet spraying.** With ``spray=True`` each packet gets a new 16-bit entropy
  value, so switches' ECMP hashing spreads one message over all equal-cost paths.
* **Receiver credits** (RCCC-like) for incast: with ``credits=True`` a sender may
  send ``initial_credit_packets`` unsolicited, then one packet per credit; the
  receiving host's :class:`~netlab.sim.uet_cc.CreditScheduler` grants credits round-robin at its own
  line rate, so N senders can never push more than the last link carries
  (:class:`~netlab.sim.uet_cc.CreditScheduler`). ``packets_per_credit`` credits
  travel in one ``CREDIT`` packet (htsim's UEC sink pulls 4 MTUs at a time).
* **Coalesced acknowledgements.** With ``ack_every = k`` the receiver sends one SACK
  for every ``k`` packets it places, as real receivers do (htsim's UEC sink sends
  one per 16 KB, 4 packets of 4 KB). It answers at once, whatever the count, a
  packet marked ECN (the congestion signal must not wait), a duplicate, the flow's
  last missing packet, and a packet whose sender asks for an ACK: the sender sets
  ``ack_request`` on a retransmission and on the packet that fills its window. The
  window can also shrink *after* its packets left (NSCC cuts it on a SACK): then no
  packet in flight asks for an ACK, and the receiver, short of ``k``, would wait for
  packets the sender may not send. A sender so blocked sends an *ACK request*, a
  header-only probe (UE's PDS has an ``ACK_REQ`` control packet for this
  [xdp2-uet-pds]); the receiver SACKs at once what it holds, or, holding nothing
  unacknowledged, the next packet it places. So a sender that must wait for an ACK
  always gets one, without its timeout. The default, ``k = 1``, acknowledges every
  packet and never probes.

EXTENSION POINTS used: :class:`~netlab.sim.transport.Sender` /
:class:`~netlab.sim.transport.Receiver` subclasses; a ``CREDIT`` control kind
handled by overriding ``on_control``. :func:`uet` returns the
``(sender, receiver)`` pair ``Network.add_flow`` expects.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import partial
import math

from netlab import specs, validate
from netlab.sim.packet import DATA, NACK, SACK, Packet
from netlab.sim.transport import Receiver, Sender
from netlab.sim.uet_cc import CREDIT, CreditScheduler

MODES = ("RUD", "ROD")
BITMAP_BITS = int(specs.value("uet.sack_bitmap_bits"))
PROBE_SEQ = -1          # the seq (and transmission index) of an ACK request


@dataclass(frozen=True)
class UETConfig:
    """Settings of one UET-like transport (see the module docstring)."""

    mode: str = "RUD"
    spray: bool = True
    credits: bool = False
    initial_credit_packets: int = 8      # unsolicited packets before the first credit
    reorder_threshold: int = 16          # later packets acknowledged before presuming a loss
    credit_timeout_s: float = 20e-6      # a credit unused this long is presumed lost with its packet
    ack_every: int = 1                   # packets placed per SACK (1: acknowledge every packet)
    packets_per_credit: int = 1          # credits carried by one CREDIT packet

    def __post_init__(self) -> None:
        validate.choice("mode", self.mode, MODES)
        validate.boolean("spray", self.spray)
        validate.boolean("credits", self.credits)
        validate.integer("initial_credit_packets", self.initial_credit_packets, minimum=1)
        validate.integer("reorder_threshold", self.reorder_threshold, minimum=1)
        validate.positive("credit_timeout_s", self.credit_timeout_s)
        validate.integer("ack_every", self.ack_every, minimum=1, maximum=BITMAP_BITS,
                         why="a SACK's bitmap covers at most that many packets")
        validate.integer("packets_per_credit", self.packets_per_credit, minimum=1)


def uet(mode: str = "RUD", spray: bool = True, credits: bool = False,
        initial_credit_packets: int = 8, reorder_threshold: int = 16, credit_timeout_s: float = 20e-6,
        ack_every: int = 1, packets_per_credit: int = 1):
    """The ``(sender, receiver)`` pair for ``Network.add_flow(transport=...)``.

    ROD never sprays (ordered delivery wants one path). Each call makes fresh credit
    schedulers, one per receiving host, shared by the flows added with this pair.
    """
    config = UETConfig(mode, spray and mode != "ROD", credits, initial_credit_packets, reorder_threshold,
                       credit_timeout_s, ack_every, packets_per_credit)
    schedulers: dict = {}
    return (partial(UETSender, config=config),
            partial(UETReceiver, config=config, schedulers=schedulers))


class UETSender(Sender):
    """Selective-repeat sender: window of in-flight bytes, SACK scoreboard, resend queue."""

    LAZY_NIC = True     # fast path: readiness changes only where the host is kicked (see Host.idle_after_send)

    def __init__(self, network, flow, host, cc=None, config: UETConfig = UETConfig()) -> None:
        self.config = config
        # fast path: the settings read for every packet, as attributes (C fields in the compiled build)
        self.spray, self.ack_every = config.spray, config.ack_every
        self.reorder_threshold = config.reorder_threshold
        w = network.window_bytes
        self.max_cwnd_bytes = w if w is not None else specs.value("assume.uet.window_bytes")
        self.cwnd_bytes = self.max_cwnd_bytes      # NSCC-like control lowers it
        super().__init__(network, flow, host, cc)
        n = self.n_packets
        self.acked = bytearray(n)                  # acked[s] = 1 once packet s is acknowledged
        self.n_acked = 0
        self.cumulative_acked = 0                  # every seq below it is acknowledged
        self.next_new = 0
        self.resend: deque = deque()               # seqs presumed lost, to send again
        # Transmissions, by index (the tx-th packet sent, first sends and resends alike):
        # its seq, and whether it is still in flight. Indices only grow, so the packets in
        # flight, oldest first, are the live ones from ``oldest_tx`` on.
        self.tx_seq: list[int] = []
        self.tx_live = bytearray()
        self.oldest_tx = 0                         # no transmission before it is in flight
        self.n_in_flight = 0
        self.tx_of = [-1] * n                      # seq -> index of its latest transmission
        self.in_flight_bytes = 0
        self.tx_count = 0
        self.credits = config.initial_credit_packets if config.credits else math.inf
        self.trim_nacks = 0
        self.presumed_lost = 0
        self.ack_request_tx = -1                   # the latest transmission that asked for an ACK
        self.probe_pending = False                 # an ACK request is to go out (see _check_blocked)
        self.ack_probes = 0                        # ACK requests sent

    # --- what to send --------------------------------------------------------------
    def _next_seq(self) -> int | None:
        while self.resend and self.acked[self.resend[0]]:
            self.resend.popleft()                  # acknowledged after all
        if self.resend:
            return self.resend[0]
        return self.next_new if self.next_new < self.n_packets else None

    def _wire_bytes(self, seq: int) -> int:
        return min(self.mtu_bytes, self.flow.size_bytes - seq * self.mtu_bytes) + self.header_bytes

    def has_packet(self) -> bool:
        if self.probe_pending:
            return True                               # a header-only ACK request: no window, no credit
        if self.resend:
            seq = self._next_seq()
            if seq is None:
                return False
        elif self.next_new < self.n_packets:          # fast path: the common case of _next_seq, inline
            seq = self.next_new
        else:
            return False
        if self.credits < 1:
            return False
        return not self.n_in_flight or self.in_flight_bytes + self._wire_bytes(seq) <= self.cwnd_bytes

    def next_size_bytes(self) -> int:
        if self.probe_pending:
            return self.header_bytes
        seq = self._next_seq()
        return self._wire_bytes(seq if seq is not None else 0)

    def make_packet(self) -> Packet:
        if self.probe_pending:
            return self._ack_request_probe()
        seq = self._next_seq()
        resent = bool(self.resend) and self.resend[0] == seq
        if resent:
            self.resend.popleft()
            self.retransmitted_packets += 1
        else:
            self.next_new += 1
        tx = self.tx_count
        self.tx_count += 1
        packet = self.data_packet(seq)
        if self.spray:
            packet.entropy = (self.flow.entropy + tx) & 0xFFFF
        packet.info = tx
        self.tx_seq.append(seq)
        self.tx_live.append(1)
        self.n_in_flight += 1
        self.tx_of[seq] = tx
        self.in_flight_bytes += packet.size_bytes
        self.credits -= 1
        if self.ack_every > 1 and (resent or self._window_full()):
            packet.ack_request = True              # a retransmission, or nothing more until an ACK
            self.ack_request_tx = tx
        if self._deadline_s == math.inf:
            self.arm_timer(self.sim.now_s + self.rto_s)
        return packet

    def _window_full(self) -> bool:
        """After the packet just made: is there nothing more to send, or no window for it?"""
        seq = self._next_seq()
        return seq is None or self.in_flight_bytes + self._wire_bytes(seq) > self.cwnd_bytes

    def _ack_request_probe(self) -> Packet:
        """The ACK request: a header with no payload, seq -1, not in flight, no credit spent."""
        self.probe_pending = False
        self.ack_probes += 1
        flow = self.flow
        packet = Packet(DATA, flow.flow_id, flow.src_id, flow.dst_id, self.header_bytes,
                        PROBE_SEQ, 0, 0, self.priority, flow.entropy, PROBE_SEQ)
        packet.ack_request = True
        return packet

    def _check_blocked(self) -> None:
        """With coalesced SACKs: if the window now blocks the next packet and no packet in
        flight asks for an ACK (the window shrank after they left), send an ACK request."""
        if self.done or self.probe_pending or not self.n_in_flight:
            return
        tx = self.ack_request_tx
        if tx >= 0 and self.tx_live[tx]:
            return                                 # an ACK is on its way already
        seq = self._next_seq()
        if seq is None or self.in_flight_bytes + self._wire_bytes(seq) <= self.cwnd_bytes:
            return                                 # nothing left to send, or the window allows it
        self.probe_pending = True
        self.host.kick()

    # --- what comes back -------------------------------------------------------------
    def on_control(self, packet) -> None:
        if packet.kind == CREDIT:
            self.credits += packet.seq
            self.host.kick()
        else:
            Sender.on_control(self, packet)   # fast path: (the base class by name: the compiled class has no super() cell)
            if self.ack_every > 1:
                self._check_blocked()         # after congestion control has moved the window

    def _forget(self, tx: int) -> int | None:
        """Take transmission ``tx`` out of flight; its seq, or None if it was not in flight."""
        if not self.tx_live[tx]:
            return None
        self.tx_live[tx] = 0
        self.n_in_flight -= 1
        seq = self.tx_seq[tx]
        self.in_flight_bytes -= self._wire_bytes(seq)     # (the size it was sent with)
        return seq

    def _ack(self, seq: int) -> None:
        """Packet ``seq`` (< n_packets) is acknowledged: its latest transmission leaves flight."""
        if not self.acked[seq]:
            self.acked[seq] = 1
            self.n_acked += 1
            tx = self.tx_of[seq]
            if tx >= 0:
                self._forget(tx)

    def on_sack(self, packet) -> None:
        if self.done:
            return
        cumulative, bitmap, seq, tx = packet.info[:4]
        before = self.n_acked
        # What this SACK acknowledges: every seq below ``cumulative``, seq cumulative + i for
        # each set bit i of the bitmap, and ``seq`` itself (acknowledging is idempotent and
        # order-free). Below the highest cumulative point seen, every seq is acknowledged
        # already, so only the seqs from there on are walked.
        s = self.cumulative_acked
        if cumulative > s:
            self.cumulative_acked = cumulative
            while s < cumulative:
                self._ack(s)
                s += 1
        n = self.n_packets
        s = cumulative
        while bitmap and s < n:
            if bitmap & 1:
                self._ack(s)
            bitmap >>= 1
            s += 1
        if 0 <= seq < n:                       # (an ACK request's answer refers to seq -1)
            self._ack(seq)
        # Presume lost whatever was sent reorder_threshold transmissions before this one.
        limit = tx - self.reorder_threshold
        first = self.oldest_tx
        while first < limit and self.n_in_flight:
            if self.tx_live[first]:
                self.resend.append(self._forget(first))
                self.presumed_lost += 1
            first += 1
        self.oldest_tx = first
        if self.n_acked == self.n_packets:
            self.finish()
            return
        if self.n_acked > before:
            self.arm_timer(self.sim.now_s + self.rto_s)
        self.host.kick()

    def on_nack(self, packet) -> None:
        """A trimmed packet's header arrived: resend that packet first (fast retransmit)."""
        if self.done:
            return
        seq, tx = packet.seq, packet.info
        self.trim_nacks += 1
        if self._forget(tx) is not None and not self.acked[seq]:
            self.resend.appendleft(seq)
        if self.cc is not None and hasattr(self.cc, "on_trim"):
            self.cc.on_trim(self, packet)
        self.host.kick()

    def on_timeout(self) -> None:
        """No progress for an RTO: presume everything in flight lost; the first resend may go
        without credit (a dropped packet used a credit the receiver cannot know was lost)."""
        first = self.oldest_tx
        while self.n_in_flight:
            if self.tx_live[first]:
                self.resend.append(self._forget(first))
            first += 1
        self.oldest_tx = first
        if self.config.credits and self._next_seq() is not None:
            self.credits = max(self.credits, 1)
        self.arm_timer(self.sim.now_s + self.rto_s)
        self.host.kick()


class UETReceiver(Receiver):
    """Places every packet at its offset on arrival; answers with SACK (or NACK if trimmed)."""

    def __init__(self, network, flow, host, cnp_interval_s=None, config: UETConfig = UETConfig(),
                 schedulers: dict | None = None) -> None:
        super().__init__(network, flow, host, cnp_interval_s)
        self.config = config
        self.ack_every, self.rod = config.ack_every, config.mode == "ROD"   # (read per packet)
        self.n_packets = max(1, math.ceil(flow.size_bytes / network.mtu_bytes))
        self.received = bytearray(self.n_packets)    # received[s] = 1 once packet s is placed
        self.highest = -1                           # the highest seq placed
        self.n_received = 0
        self.cumulative = 0                         # every packet below it is placed
        self.trimmed_received = 0
        self.released_bytes = 0                     # ROD: handed to the application in order
        self.scheduler = None
        self.grants: deque = deque()                # times of credits not yet used by an arrival
        self.unacked = 0                            # packets placed since the last SACK
        self.sacks_sent = 0
        self.ack_next = False                       # an ACK request found nothing to acknowledge
        if config.credits:
            if schedulers is None:
                raise ValueError("receiver credits need the schedulers dict that uet() shares; "
                                 "build the transport with uet(credits=True)")
            if host not in schedulers:
                schedulers[host] = CreditScheduler(network, host, config.packets_per_credit)
            self.scheduler = schedulers[host]

    def place(self, packet) -> None:
        """Write the payload at its offset (tests override this to check placement)."""
        self.deliver(packet.offset_bytes, packet.payload_bytes)

    @property
    def credit_need(self) -> int:
        """Packets still missing that no live credit covers (old credits are presumed lost)."""
        grants, oldest = self.grants, self.sim.now_s - self.config.credit_timeout_s
        while grants and grants[0] < oldest:
            grants.popleft()
        return self.n_packets - self.n_received - len(grants)

    def on_packet(self, packet) -> None:
        if packet.seq < 0:                          # an ACK request (see UETSender._check_blocked)
            if self.unacked:
                self._sack(packet)
            else:
                self.ack_next = True                # its packet has not arrived: answer that one
            return
        self.packets_received += 1
        if self.scheduler is not None:
            if self.packets_received == 1:          # the first packet is the request
                self.grants.extend([self.sim.now_s] * self.config.initial_credit_packets)
            if self.grants:
                self.grants.popleft()                # this arrival used a credit
        seq = packet.seq
        if packet.trimmed:
            self.trimmed_received += 1
            self.send_ack(NACK, seq, packet.info)
        elif self.received[seq]:
            self.duplicate_bytes += packet.payload_bytes   # placed before: not delivered again
            self._sack(packet)
        else:
            if seq != self.cumulative:
                self.out_of_order_packets += 1
            self.received[seq] = 1
            if seq > self.highest:
                self.highest = seq
            self.n_received += 1
            self.place(packet)
            while self.cumulative <= self.highest and self.received[self.cumulative]:
                self.cumulative += 1
            if self.rod:
                self.released_bytes = min(self.flow.size_bytes, self.cumulative * self.network.mtu_bytes)
            self.unacked += 1
            if (self.unacked >= self.ack_every or packet.ecn or packet.ack_request or self.ack_next
                    or self.n_received == self.n_packets):
                self.ack_next = False
                self._sack(packet)
        if self.scheduler is not None:
            self.scheduler.wake(self)

    def _sack(self, packet) -> None:
        """One SACK for the packets placed since the last one (at least this one): its
        cumulative point, bitmap, this packet's seq, transmission index, ECN bit and send
        time, and how many packets it reports (congestion control counts them)."""
        # bit i: packet cumulative + i is placed (bit 0 never is: the cumulative point is missing)
        bitmap = 0
        s = min(self.highest, self.cumulative + BITMAP_BITS - 1)
        while s > self.cumulative:
            bitmap = bitmap << 1 | self.received[s]
            s -= 1
        bitmap <<= 1
        count = self.unacked if self.unacked else 1
        self.unacked = 0
        self.sacks_sent += 1
        self.send_ack(SACK, self.cumulative,
                      (self.cumulative, bitmap, packet.seq, packet.info, packet.ecn, packet.sent_s, count))
