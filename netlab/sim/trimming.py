"""Queue policies for chapter 8: packet trimming, and random loss for goodput-vs-loss curves.

**Trimming.** A drop-tail switch that runs out of buffer throws a packet away, and
the sender learns of it only from a gap or a timeout. A *trimming* switch cuts the
payload off instead and forwards the header, in a higher-priority traffic class
so it overtakes the queue; the receiver sees which packet was cut and NACKs it at
once, and the sender resends it -- a loss is known within one round trip
[uet-ref-prov, eantc-uec-2026]. The reference provider's NACK codes include
TRIMMED and TRIMMED_LAST_HOP. Here a trimmed packet keeps ``header_bytes`` (the
network's header size) and moves to ``trim_priority``; trimmed headers have their
own buffer budget, ``header_buffer_bytes``, so the full data queue cannot drop
them. Only if that budget is exhausted too is a header lost (counted in
``headers_dropped``; the tests check it stays zero in the chapter's scenarios).

**Random loss.** :class:`RandomLoss` drops each data packet independently with
probability ``loss_rate`` before the usual drop-tail rule: the Bernoulli loss the
closed forms in :mod:`netlab.uet.loss_recovery` assume (bit errors, a flaky optic), not
congestion. Control packets (ACK, NACK, credits) are never dropped by it.
"""

from __future__ import annotations

import math

from netlab import validate
from netlab.sim.packet import DATA
from netlab.sim.queues import DropTail, QueuePolicy


class Trimming(QueuePolicy):
    """Trim data packets that do not fit; forward their headers at ``trim_priority``."""

    def __init__(self, trim_priority: int = 6, header_buffer_bytes: float = math.inf, ecn=None) -> None:
        super().__init__(ecn)
        self.trim_priority = validate.integer("trim_priority", trim_priority, 0, 7)
        if header_buffer_bytes != math.inf:
            validate.positive("header_buffer_bytes", header_buffer_bytes)
        self.header_buffer_bytes = header_buffer_bytes
        self.trimmed_packets = 0
        self.headers_dropped = 0

    def admit(self, queue, packet):
        if queue.bytes + packet.size_bytes <= queue.capacity_bytes:
            self.mark(queue, packet)
            return packet
        if packet.kind != DATA:
            return None                          # a control packet that does not fit: drop-tail
        if packet.trimmed:                       # already a header: it may use the header budget
            header = packet.size_bytes
        else:
            header = packet.size_bytes - packet.payload_bytes
        prio = self.trim_priority
        if queue.priority_bytes[prio] + header > self.header_buffer_bytes:
            self.headers_dropped += 1
            return None
        if not packet.trimmed:
            packet.trim(header)
            self.trimmed_packets += 1
        packet.priority = prio
        return packet


class RandomLoss(QueuePolicy):
    """Drop each data packet with probability ``loss_rate``, then apply drop-tail."""

    def __init__(self, loss_rate: float, ecn=None) -> None:
        super().__init__(ecn)
        self.loss_rate = validate.in_range("loss_rate", loss_rate, 0.0, 1.0, high_open=True)
        self.inner = DropTail(ecn)
        self.random_drops = 0

    def admit(self, queue, packet):
        if packet.kind == DATA and not packet.trimmed and queue.rng.random() < self.loss_rate:
            self.random_drops += 1
            return None
        return self.inner.admit(queue, packet)
