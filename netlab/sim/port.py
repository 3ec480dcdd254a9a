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

from heapq import heappush


class Port:
    """One direction of a link, owned by the node that transmits on it."""

    __slots__ = ("sim", "node", "index", "name", "bandwidth_bps", "propagation_s",
                 "peer", "peer_index", "reverse", "busy", "paused", "n_paused",
                 "paused_since_s", "pause_events", "paused_time_s", "credits_bytes",
                 "min_credits_bytes", "tx_bytes", "tx_packets", "_bits_to_s", "_heap", "_counter")

    def __init__(self, sim, node, index: int, bandwidth_bps: float, propagation_s: float,
                 n_priorities: int = 8) -> None:
        self.sim = sim
        self.node = node
        self.index = index
        self.name = f"{node.name}[{index}]"
        self.bandwidth_bps = bandwidth_bps
        self.propagation_s = propagation_s
        self._bits_to_s = 8.0 / bandwidth_bps
        self._heap = sim._heap          # hot path: push events without Simulator.at's checks
        self._counter = sim._counter
        self.peer = None            # node at the far end
        self.peer_index = -1        # our link's port index at the far end
        self.reverse = None         # the far end's Port on the same link (sends towards us)
        self.busy = False
        self.paused = [False] * n_priorities
        self.n_paused = 0
        self.paused_since_s = 0.0
        self.pause_events = 0
        self.paused_time_s = 0.0
        self.credits_bytes = None   # None: no credit flow control on this link
        self.min_credits_bytes = None
        self.tx_bytes = 0
        self.tx_packets = 0

    def serialization_s(self, n_bytes: float) -> float:
        return n_bytes * self._bits_to_s

    def kick(self) -> None:
        """Start sending if the wire is idle (call after queueing something)."""
        if not self.busy:
            self._start()

    def _start(self) -> None:
        """Send the node's next packet, if any. Also the end-of-transmission event:
        ``kick`` calls it only when the wire is idle, so clearing ``busy`` is safe."""
        self.busy = False
        packet = self.node.next_packet(self)
        if packet is None:
            return
        now = self.sim.now_s
        size = packet.size_bytes
        end = now + size * self._bits_to_s
        if packet.tail_s > end:                 # cut-through: wait for the tail to arrive
            end = packet.tail_s
        self.busy = True
        self.tx_bytes += size
        self.tx_packets += 1
        if self.credits_bytes is not None:
            self.credits_bytes -= size
            if self.credits_bytes < self.min_credits_bytes:
                self.min_credits_bytes = self.credits_bytes
        packet.hops += 1
        peer = self.peer
        tail = packet.tail_s = end + self.propagation_s
        if peer.cut_through:                    # hand over once the header is in
            arrive = now + min(peer.header_bytes, size) * self._bits_to_s + self.propagation_s
        else:
            arrive = tail
        # (Simulator.at without its checks: both times are >= now by construction)
        heappush(self._heap, (arrive, next(self._counter), peer.receive, (packet, self.peer_index)))
        heappush(self._heap, (end, next(self._counter), self._start, ()))

    # --- flow control, driven by the far end -------------------------------------
    def set_paused(self, priority: int, paused: bool) -> None:
        """PFC: pause (``True``) or resume (``False``) one priority of this port."""
        if paused == self.paused[priority]:
            return
        self.paused[priority] = paused
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
