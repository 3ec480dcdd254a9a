"""Switch output queues, and the policy that decides what happens when one fills.

Each switch output port has a FIFO per priority (traffic class), served in
strict priority, highest number first, skipping priorities that the next hop has
paused. A :class:`QueuePolicy` sees every packet before it joins a queue and
returns it (possibly changed) or ``None`` to drop it. :class:`DropTail` drops a
packet that does not fit in ``capacity_bytes`` -- the classic lossy Ethernet
switch. A trimming policy (Ultra Ethernet) subclasses :class:`QueuePolicy` and
returns a packet cut down to its header instead of ``None``.

A policy may also mark ECN: :class:`ECNMarking` is the RED-style rule DCQCN
relies on -- no marks below ``kmin_bytes`` of queue, probability rising linearly
to ``pmax`` at ``kmax_bytes``, every packet above (references: ``zhu-dcqcn``,
``floyd-red``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
import math

from netlab import validate


@dataclass(frozen=True)
class ECNMarking:
    """RED-style ECN marking on the instantaneous queue length (bytes)."""

    kmin_bytes: float
    kmax_bytes: float
    pmax: float = 1.0

    def __post_init__(self) -> None:
        validate.non_negative("kmin_bytes", self.kmin_bytes)
        validate.positive("kmax_bytes", self.kmax_bytes)
        validate.in_range("pmax", self.pmax, 0.0, 1.0)
        if self.kmax_bytes < self.kmin_bytes:
            raise ValueError(f"kmax_bytes must be >= kmin_bytes ({self.kmin_bytes}), got {self.kmax_bytes}")

    def probability(self, queue_bytes: float) -> float:
        """Marking probability for a queue holding ``queue_bytes``."""
        try:
            if queue_bytes <= self.kmin_bytes:
                return 0.0
            if queue_bytes >= self.kmax_bytes:
                return 1.0
        except TypeError:
            raise TypeError(f"queue_bytes must be a number, got {type(queue_bytes).__name__} {queue_bytes!r:.80}") from None
        if queue_bytes != queue_bytes:          # NaN compares false both ways
            raise ValueError("queue_bytes must be a number, got nan")
        return self.pmax * (queue_bytes - self.kmin_bytes) / (self.kmax_bytes - self.kmin_bytes)


class QueuePolicy:
    """EXTENSION POINT: what a queue does with an arriving packet.

    ``admit(queue, packet)`` returns the packet to enqueue (the same object,
    possibly modified: trimmed, re-prioritised, ECN-marked) or ``None`` to drop
    it. ``queue.bytes``, ``queue.capacity_bytes``, ``queue.priority_bytes[p]`` and
    ``queue.rng`` (the simulation's seeded generator) are there to decide with.
    The default admits everything and marks ECN if ``ecn`` is set.
    """

    def __init__(self, ecn: ECNMarking | None = None) -> None:
        if ecn is not None and not isinstance(ecn, ECNMarking):     # (a flag such as ecn=True has no thresholds)
            raise TypeError(f"ecn must be an ECNMarking(kmin_bytes, kmax_bytes, pmax) or None, "
                            f"got {type(ecn).__name__} {ecn!r:.80}")
        self.ecn = ecn

    def admit(self, queue: "OutputQueue", packet):
        self.mark(queue, packet)
        return packet

    def mark(self, queue: "OutputQueue", packet) -> None:
        """Set ``packet.ecn`` with the ECN rule (data packets only)."""
        ecn = self.ecn
        # fast path: below kmin the probability is 0 (no mark, no random draw), so it is not computed
        if ecn is not None and packet.kind == "data" and queue.bytes > ecn.kmin_bytes:
            p = ecn.probability(queue.bytes)
            if p >= 1.0 or (p > 0.0 and queue.rng.random() < p):
                packet.ecn = True


class DropTail(QueuePolicy):
    """Drop an arriving packet if the queue has no room for it."""

    def admit(self, queue: "OutputQueue", packet):
        if queue.bytes + packet.size_bytes > queue.capacity_bytes:
            return None
        if self.ecn is not None:            # fast path: no call without an ECN rule
            self.mark(queue, packet)
        return packet


class OutputQueue:
    """The packets waiting for one output port, one FIFO per priority."""

    # fast path: no per-object dictionary (a smaller object, faster attribute reads)
    __slots__ = ("capacity_bytes", "policy", "rng", "fifos", "priority_bytes", "bytes",
                 "max_bytes", "packets", "dropped_packets", "dropped_bytes", "nonempty")

    def __init__(self, capacity_bytes: float, policy: QueuePolicy, rng, n_priorities: int = 8) -> None:
        if capacity_bytes != math.inf:
            validate.non_negative("buffer_bytes", capacity_bytes)
        self.capacity_bytes = capacity_bytes
        self.policy = policy
        self.rng = rng
        self.fifos: list[deque] = [deque() for _ in range(n_priorities)]
        self.nonempty = 0           # fast path: bit p set while fifos[p] holds a packet
        self.priority_bytes = [0] * n_priorities
        self.bytes = 0
        self.max_bytes = 0
        self.packets = 0
        self.dropped_packets = 0
        self.dropped_bytes = 0

    def enqueue(self, packet):
        """Offer ``packet`` to the policy; return what was queued, or ``None`` if dropped."""
        admitted = self.policy.admit(self, packet)
        if admitted is None:
            self.dropped_packets += 1
            self.dropped_bytes += packet.size_bytes
            return None
        prio, size = admitted.priority, admitted.size_bytes
        self.fifos[prio].append(admitted)
        self.nonempty |= 1 << prio                  # fast path: (the nonempty bits)
        self.priority_bytes[prio] += size
        self.bytes += size
        self.packets += 1
        if self.bytes > self.max_bytes:
            self.max_bytes = self.bytes
        return admitted

    def dequeue(self, paused_mask: int, credits_bytes):
        """The next packet to send: highest priority first, skipping the priorities whose
        bit is set in ``paused_mask``, and waiting (``None``) if the head packet needs more
        credit than there is."""
        ready = self.nonempty & ~paused_mask        # fast path: the ready priorities as bits, not a scan
        if not ready:
            return None
        prio = ready.bit_length() - 1          # the highest ready priority
        fifo = self.fifos[prio]
        packet = fifo[0]
        size = packet.size_bytes
        if credits_bytes is not None and size > credits_bytes:
            return None
        fifo.popleft()
        if not fifo:
            self.nonempty ^= 1 << prio              # fast path: (the nonempty bits)
        self.priority_bytes[prio] -= size
        self.bytes -= size
        self.packets -= 1
        return packet
