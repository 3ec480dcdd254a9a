"""Reliable transports: a sender/receiver pair per flow, and go-back-N.

EXTENSION POINT: a transport is a :class:`Sender` subclass and a :class:`Receiver`
subclass. The host NIC asks the sender ``ready_at(now)`` (when could it send?),
``next_size_bytes()`` and ``next_packet()``; arriving control packets go to
``on_control(packet)``, which dispatches to ``on_ack``, ``on_nack``, ``on_cnp``,
``on_sack``. A retransmission timer (``arm_timer``/``cancel_timer``) calls
``on_timeout``. Congestion control (:mod:`netlab.sim.cc`) sets ``rate_bps``
through its own hooks. The receiver's ``on_packet(packet)`` records payload with
``deliver(offset_bytes, n_bytes)`` -- which keeps the delivered byte ranges,
counts duplicates -- counts ``out_of_order_packets``, and answers with
``send_ack(kind, seq, info)``.

``GoBackN`` is what RoCE and InfiniBand reliable connections do: the receiver
accepts only the next packet in sequence and acknowledges cumulatively; on the first
gap it sends one NACK, and the sender goes back and resends everything from the
first missing packet. A timeout (RTO) does the same when the NACK or every later
packet was lost (references ``ibta-spec``, ``guo2016rdma``).
"""

from __future__ import annotations

import math

from netlab.sim.packet import ACK, CNP, DATA, NACK, SACK, Packet


class Sender:
    """Base class: the sending half of one flow (pacing, timer, counters)."""

    def __init__(self, network, flow, host, cc=None) -> None:
        self.network = network
        self.sim = network.sim
        self.flow = flow
        self.host = host
        self.priority = flow.priority
        self.mtu_bytes = network.mtu_bytes
        self.header_bytes = network.header_bytes
        self.n_packets = max(1, math.ceil(flow.size_bytes / self.mtu_bytes))
        self.rto_s = network.rto_s
        self.line_rate_bps = host.port.bandwidth_bps
        self.rate_bps = self.line_rate_bps       # congestion control lowers this
        self.next_send_s = 0.0                   # pacing: earliest time for the next packet
        self.done = False
        self.packets_sent = 0
        self.retransmitted_packets = 0
        self.timeouts = 0
        self._deadline_s = math.inf
        self._timer_pending = False
        # fast path: the LAZY_NIC promise (see Host.idle_after_send) of this sender's own class, read once
        self.lazy_nic = bool(type(self).__dict__.get("LAZY_NIC", False))
        self.cc = cc
        if cc is not None:
            cc.attach(self)

    # --- what subclasses implement ---------------------------------------------------
    def has_packet(self) -> bool:
        """Does the window allow another packet now?"""
        raise NotImplementedError

    def make_packet(self) -> Packet:
        """Build the next packet to send (and advance the sender's state)."""
        raise NotImplementedError

    def on_ack(self, packet) -> None: ...
    def on_nack(self, packet) -> None: ...
    def on_sack(self, packet) -> None: ...
    def on_timeout(self) -> None: ...

    # --- used by the host NIC --------------------------------------------------------
    def ready_at(self, now_s: float) -> float:
        if self.done or not self.has_packet():
            return math.inf
        return self.next_send_s if self.next_send_s > now_s else now_s

    def next_size_bytes(self) -> int:
        return self.mtu_bytes + self.header_bytes

    def next_packet(self) -> Packet:
        packet = self.make_packet()
        self.packets_sent += 1
        now = self.sim.now_s
        if self.rate_bps < self.line_rate_bps:
            self.next_send_s = now + packet.size_bytes * 8.0 / self.rate_bps
        if self.cc is not None:
            self.cc.on_send(self, packet)
        return packet

    def on_control(self, packet) -> None:
        kind = packet.kind
        cc = self.cc
        if kind == ACK:
            self.on_ack(packet)
        elif kind == NACK:
            self.on_nack(packet)
        elif kind == CNP:
            if cc is not None:
                cc.on_cnp(self, packet)
        elif kind == SACK:
            self.on_sack(packet)
        if cc is not None and (kind == ACK or kind == SACK):
            cc.on_ack(self, packet)
            self.host.nic.notify()               # fast path: the window may have grown after the kick

    def data_packet(self, seq: int) -> Packet:
        """Packet ``seq`` of this flow (payload ``mtu_bytes`` except the last)."""
        flow = self.flow
        offset = seq * self.mtu_bytes
        payload = min(self.mtu_bytes, flow.size_bytes - offset)
        # positional: kind, flow_id, src, dst, size_bytes, seq, offset_bytes, payload_bytes, priority, entropy
        return Packet(DATA, flow.flow_id, flow.src_id, flow.dst_id, payload + self.header_bytes,
                      seq, offset, payload, self.priority, flow.entropy)

    # --- retransmission timer (one pending event; re-armed lazily) -------------------
    # fast path: one timer event at a time; when it fires before the deadline it is pushed again
    # for the deadline, instead of a new event for every arm_timer
    def arm_timer(self, deadline_s: float) -> None:
        self._deadline_s = deadline_s
        if not self._timer_pending:
            self._timer_pending = True
            self.sim.at(deadline_s, self._timer_fire)

    def cancel_timer(self) -> None:
        self._deadline_s = math.inf

    def _timer_fire(self) -> None:
        self._timer_pending = False
        if self.done or self._deadline_s == math.inf:
            return
        if self.sim.now_s < self._deadline_s:
            self.arm_timer(self._deadline_s)
            return
        self.timeouts += 1
        self._deadline_s = math.inf
        if self.cc is not None:
            self.cc.on_timeout(self)
        self.on_timeout()

    def finish(self) -> None:
        self.done = True
        self.cancel_timer()
        self.host.retire(self)
        if self.cc is not None:
            self.cc.detach(self)


class Receiver:
    """Base class: the receiving half of one flow; records what was delivered."""

    def __init__(self, network, flow, host, cnp_interval_s: float | None = None) -> None:
        self.network = network
        self.sim = network.sim
        self.flow = flow
        self.host = host
        self.ranges: list[list[int]] = []    # delivered [start, end) byte ranges, merged
        self.delivered_bytes = 0
        self.duplicate_bytes = 0
        self.out_of_order_packets = 0
        self.packets_received = 0
        self.complete_s: float | None = None
        self.cnp_interval_s = cnp_interval_s
        self._last_cnp_s = -math.inf

    def on_packet(self, packet) -> None:
        raise NotImplementedError

    def deliver(self, offset_bytes: int, n_bytes: int) -> bool:
        """Record payload bytes [offset, offset + n); False if they were all delivered before."""
        start, end = offset_bytes, offset_bytes + n_bytes
        ranges = self.ranges
        if ranges and ranges[-1][1] == start:     # fast path: in-order data extends the last range
            ranges[-1][1] = end
            self.delivered_bytes += n_bytes
            if self.delivered_bytes >= self.flow.size_bytes and self.complete_s is None:
                self.complete_s = self.sim.now_s
                self.network.flow_complete(self.flow)
            return True
        # i: the first range that starts after ``start`` (a binary search on the starts)
        i, hi = 0, len(ranges)
        while i < hi:
            mid = (i + hi) // 2
            mid_start = ranges[mid][0]
            if mid_start <= start:
                i = mid + 1
            else:
                hi = mid
        # bytes already covered by neighbouring ranges
        covered = 0
        j = i - 1 if i > 0 and ranges[i - 1][1] >= start else i
        k = j
        new_start, new_end = start, end
        while k < len(ranges):
            r_start, r_end = ranges[k]
            if r_start > end:
                break
            covered += max(0, min(end, r_end) - max(start, r_start))
            new_start = min(new_start, r_start)
            new_end = max(new_end, r_end)
            k += 1
        ranges[j:k] = [[new_start, new_end]]
        fresh = n_bytes - covered
        self.delivered_bytes += fresh
        self.duplicate_bytes += covered
        if self.complete_s is None and self.delivered_bytes >= self.flow.size_bytes:
            self.complete_s = self.sim.now_s
            self.network.flow_complete(self.flow)
        return fresh > 0

    def send_ack(self, kind: str, seq: int, info: object = None) -> None:
        """Send a control packet (``ACK``/``NACK``/``SACK``/``CNP``) back to the sender."""
        flow = self.flow
        self.host.send_control(Packet(kind, flow.flow_id, flow.dst_id, flow.src_id, self.network.ack_bytes,
                                      seq, 0, 0, flow.ack_priority, flow.entropy, info))

    def maybe_cnp(self, packet) -> None:
        """DCQCN notification point: at most one CNP per ``cnp_interval_s`` per flow."""
        if packet.ecn and self.cnp_interval_s is not None:
            now = self.sim.now_s
            if now - self._last_cnp_s >= self.cnp_interval_s:
                self._last_cnp_s = now
                self.send_ack(CNP, packet.seq)


class GoBackNSender(Sender):
    """Go-back-N: resend from the first unacknowledged packet on NACK or timeout."""

    LAZY_NIC = True     # fast path: readiness changes only where the host is kicked (see Host.idle_after_send)

    def __init__(self, network, flow, host, cc=None) -> None:
        super().__init__(network, flow, host, cc)
        self.acked = 0            # packets 0..acked-1 are acknowledged
        self.next_seq = 0
        self.highest_sent = -1
        w = network.window_bytes
        self.window_packets = math.inf if w is None else max(1, int(w // self.mtu_bytes))

    def has_packet(self) -> bool:
        return self.next_seq < self.n_packets and self.next_seq - self.acked < self.window_packets

    def next_size_bytes(self) -> int:
        offset = self.next_seq * self.mtu_bytes
        return min(self.mtu_bytes, self.flow.size_bytes - offset) + self.header_bytes

    def make_packet(self) -> Packet:
        seq = self.next_seq
        self.next_seq += 1
        if seq <= self.highest_sent:
            self.retransmitted_packets += 1
        else:
            self.highest_sent = seq
        if self._deadline_s == math.inf:
            self.arm_timer(self.sim.now_s + self.rto_s)
        return self.data_packet(seq)

    def _advance(self, cumulative: int) -> None:
        if cumulative > self.acked:
            self.acked = cumulative
            if self.acked >= self.n_packets:
                self.finish()
                return
            self.arm_timer(self.sim.now_s + self.rto_s)
        if self.next_seq < self.acked:
            self.next_seq = self.acked

    def on_ack(self, packet) -> None:
        if not self.done:
            self._advance(packet.seq)
            self.host.kick()

    def on_nack(self, packet) -> None:
        if not self.done:
            self._advance(packet.seq)
            if not self.done:
                self.next_seq = self.acked       # go back
                self.host.kick()

    def on_timeout(self) -> None:
        self.next_seq = self.acked
        self.arm_timer(self.sim.now_s + self.rto_s)
        self.host.kick()


class GoBackNReceiver(Receiver):
    """Accept only the next in-order packet; ACK cumulatively; one NACK per gap."""

    def __init__(self, network, flow, host, cnp_interval_s: float | None = None) -> None:
        super().__init__(network, flow, host, cnp_interval_s)
        self.expected = 0
        self._nacked = -1

    def on_packet(self, packet) -> None:
        self.packets_received += 1
        if packet.ecn:                  # fast path: no call for an unmarked packet
            self.maybe_cnp(packet)
        seq = packet.seq
        if seq == self.expected and not packet.trimmed:
            self.deliver(packet.offset_bytes, packet.payload_bytes)
            self.expected += 1
            self.send_ack(ACK, self.expected)
        elif seq > self.expected or packet.trimmed:
            self.out_of_order_packets += 1
            if self._nacked != self.expected:
                self._nacked = self.expected
                self.send_ack(NACK, self.expected)
        else:
            self.duplicate_bytes += packet.payload_bytes
            self.send_ack(ACK, self.expected)


#: Go-back-N as the ``transport=`` pair of :meth:`~netlab.sim.network.Network.add_flow`.
GoBackN = (GoBackNSender, GoBackNReceiver)
