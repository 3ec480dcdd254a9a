"""Ports and links: where packets are serialized onto a wire and fly to the next node.

A link joins two nodes with one :class:`Port` at each end; each port transmits in
one direction at ``bandwidth_bps`` and its bits reach the far end
``propagation_s`` later. A port sends one packet at a time: it asks its node for
the next packet (a switch takes it from the port's output queue, a host from its
transports), holds the wire for ``size_bytes * 8 / bandwidth_bps``, then asks again.

Flow control acts here, on the sending side of a link:

* **PFC pause** (IEEE 802.1Qbb): the next hop can pause one priority of this port;
  a paused priority is skipped until resumed. Pause events and paused time are
  counted.
* **Credits** (InfiniBand link-level flow control): the port holds credits equal
  to the free buffer at the far end; it sends only a packet it has credit for,
  and the far end returns credit when the packet leaves its buffer.

If the node at the far end is a *cut-through* switch, the packet is handed over
when its header has arrived; otherwise (store-and-forward, or a host) when its last
bit has. A cut-through packet cannot leave a switch before it has fully arrived,
so a port never finishes sending before ``packet.tail_s``.
"""

from __future__ import annotations

from typing import Any


class Port:
    """One direction of a link, owned by the node that transmits on it."""

    # fast path: no per-object dictionary (a smaller object, faster attribute reads)
    __slots__ = ("sim", "node", "index", "name", "bandwidth_bps", "propagation_s",
                 "peer", "peer_index", "reverse", "queue", "lazy_host", "busy_until", "paused", "paused_mask", "n_paused",
                 "paused_since_s", "pause_events", "paused_time_s", "credits_bytes",
                 "min_credits_bytes", "tx_bytes", "tx_packets", "_bits_to_s", "_heap",
                 "_next_packet", "_end", "_end_seq", "_end_pushed", "_deliver", "_peer_header_bytes")

    def __init__(self, sim, node, index: int, bandwidth_bps: float, propagation_s: float,
                 n_priorities: int = 8) -> None:
        self.sim = sim
        self.node = node
        self.index = index
        self.name = f"{node.name}[{index}]"
        self.bandwidth_bps = bandwidth_bps
        self.propagation_s = propagation_s
        self._bits_to_s = 8.0 / bandwidth_bps    # fast path: a multiplication per packet, not a division
        self._heap = sim._heap          # fast path: push events without Simulator.at's checks
        self.peer: Any = None       # node at the far end (a Host or a Switch)
        self.peer_index = -1        # our link's port index at the far end
        self.reverse: Port | None = None   # the far end's Port on the same link (sends towards us)
        self.queue: Any = None      # fast path: a switch's output queue: ends of transmission are lazy
        self.lazy_host: Any = None  # fast path: a host NIC: its host (lazy ends while it has nothing to send)
        self.busy_until = -1.0      # end of the current (or last) transmission
        self._end_seq = 0           # the event sequence number reserved for that end
        self._end_pushed = True     # fast path: is that end on the heap? (always, in the reading mode)
        self.paused = [False] * n_priorities
        self.paused_mask = 0        # fast path: the same, as bits (bit p set while priority p is paused)
        self.n_paused = 0
        self.paused_since_s = 0.0
        self.pause_events = 0
        self.paused_time_s = 0.0
        self.credits_bytes: float | None = None   # None: no credit flow control on this link
        self.min_credits_bytes: float | None = None
        self.tx_bytes = 0
        self.tx_packets = 0
        # fast path: bound once, called per packet
        self._next_packet = node.next_packet
        self._end = self._start
        self._deliver = None
        self._peer_header_bytes = None

    def attach(self, peer, peer_index: int, reverse: "Port") -> None:
        """Join this port to ``peer``'s port ``peer_index`` (``reverse`` sends back to us)."""
        self.peer, self.peer_index, self.reverse = peer, peer_index, reverse
        self._deliver = peer.receive
        self._peer_header_bytes = peer.header_bytes if peer.cut_through else None

    def serialization_s(self, n_bytes: float) -> float:
        return n_bytes * self._bits_to_s

    @property
    def busy(self) -> bool:
        """Is a transmission in progress? (see :meth:`is_busy`)"""
        return self.is_busy()

    def is_busy(self) -> bool:
        """Is a transmission in progress? Until its end-of-transmission event has run, in
        the event order (time, then sequence number), whether or not it is on the heap."""
        sim = self.sim
        return sim.now_s < self.busy_until or (sim.now_s == self.busy_until and sim.seq_now < self._end_seq)

    def kick(self) -> None:
        """Start sending if the wire is idle, else make sure the end of the current
        transmission will look for the next packet (call after queueing something)."""
        if self.is_busy():
            self.wait_for_end()
        else:
            self._start()

    def _start(self) -> None:
        """Send the node's next packet, if any. Also the end-of-transmission event:
        ``kick`` calls it only when the wire is idle."""
        packet = self._next_packet(self)
        if packet is not None:
            self.transmit(packet)

    def transmit(self, packet) -> None:
        """Put ``packet`` on the idle wire now: schedule its arrival at the far end and
        this port's end of transmission (which asks the node for the next packet).

        The fast path: when nothing waits to be sent -- a switch port's queue is empty, a
        host has no control packet and its one sender's window is closed -- the end of
        transmission would find nothing to send, so it is not put on the heap; its time
        and sequence number are kept, and :meth:`wait_for_end` pushes it, with that same
        key, if something is queued (or a sender kicks the NIC) before it. The event order
        is exactly that of pushing every end (the reference,
        ``Network(event_by_event=True)``); only events that would do nothing are saved.
        """
        now = self.sim.now_s
        size = packet.size_bytes
        end = now + size * self._bits_to_s
        if packet.tail_s > end:                 # cut-through: wait for the tail to arrive
            end = packet.tail_s
        self.tx_bytes += size
        self.tx_packets += 1
        if self.credits_bytes is not None:
            self.credits_bytes -= size
            if self.credits_bytes < self.min_credits_bytes:
                self.min_credits_bytes = self.credits_bytes
        packet.hops += 1
        tail = packet.tail_s = end + self.propagation_s
        header = self._peer_header_bytes
        if header is None:                      # store-and-forward (or a host): the tail
            arrive = tail
        else:                                   # cut-through: hand over once the header is in
            arrive = now + min(header, size) * self._bits_to_s + self.propagation_s
        # fast path: Simulator.at without its checks (both times are >= now by construction)
        heap = self._heap
        heap.push(arrive, heap.new_seq(), self._deliver, (packet, self.peer_index))
        self.busy_until = end
        self._end_seq = seq = heap.new_seq()
        # fast path: a lazy end (see above); in the reading mode queue and lazy_host are None, so
        # defer is False and the end is pushed, as in heap.push(end, seq, self._end, ())
        queue = self.queue
        if queue is not None:
            defer = not queue.packets
        else:
            host = self.lazy_host
            defer = host is not None and host.idle_after_send()
        if defer:
            self._end_pushed = False
        else:
            heap.push(end, seq, self._end, ())
            self._end_pushed = True

    def notify(self) -> None:
        """A sender's state changed without a kick (e.g. its window grew): if a
        transmission is in progress, its end must look for the next packet."""
        # fast path: needed only by lazy ends; in the reading mode the end is on the heap already
        if self.is_busy():
            self.wait_for_end()

    def wait_for_end(self) -> None:
        """Something was queued behind the current transmission: make sure its end is an event."""
        # fast path: pushes a lazy end; in the reading mode every end is pushed, so this does nothing
        if not self._end_pushed:
            self._end_pushed = True
            self._heap.push(self.busy_until, self._end_seq, self._end, ())

    # --- flow control, driven by the far end -------------------------------------
    def set_paused(self, priority: int, paused: bool) -> None:
        """PFC: pause (``True``) or resume (``False``) one priority of this port."""
        if paused == self.paused[priority]:
            return
        self.paused[priority] = paused
        self.paused_mask ^= 1 << priority
        now = self.sim.now_s
        if paused:
            self.pause_events += 1
            if self.n_paused == 0:
                self.paused_since_s = now
            self.n_paused += 1
        else:
            self.n_paused -= 1
            if self.n_paused == 0:
                self.paused_time_s += now - self.paused_since_s
            self.kick()

    def add_credits(self, n_bytes: int) -> None:
        """Credit flow control: the far end freed ``n_bytes`` of buffer."""
        self.credits_bytes += n_bytes
        self.kick()

    def paused_time_until(self, now_s: float) -> float:
        """Paused time including a pause still in force at ``now_s``."""
        return self.paused_time_s + (now_s - self.paused_since_s if self.n_paused else 0.0)

    def __repr__(self) -> str:
        return f"Port({self.name} -> {self.peer.name if self.peer else None}, {self.bandwidth_bps:g} bit/s)"
