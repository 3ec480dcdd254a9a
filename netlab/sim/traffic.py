"""Open-loop traffic: packets offered at random times, with no reliability.

Queueing theory's simplest model with a closed form is a single server fed by a
Poisson process. :class:`PoissonSender` offers fixed-size packets at exponential
inter-arrival times of mean ``1 / rate``; they wait in the host NIC's queue (a FIFO
served at the link rate) and :class:`Sink` takes whatever arrives. The NIC is then
an M/D/1 queue, whose mean wait is the Pollaczek-Khinchine formula
``W_q = rho * S / (2 * (1 - rho))`` with service time ``S`` and load ``rho``
(reference ``kleinrock1975``). :func:`md1_mean_wait` computes it.

Use ``transport=poisson(load)``, where ``load`` is the offered load as a fraction of
the NIC rate; the waits are in ``flow.sender.waits_s``.
"""

from __future__ import annotations

import math

from netlab import validate
from netlab.sim.transport import Receiver, Sender


def md1_mean_wait(service_time_s: float, load: float) -> float:
    """Mean time in queue (not counting service) of an M/D/1 queue.

    >>> md1_mean_wait(1e-6, 0.5)     # 0.5 * 1 µs / (2 * 0.5)
    5e-07
    """
    service_time_s = validate.positive("service_time_s", service_time_s)
    load = validate.in_range("load", load, 0.0, 1.0, high_open=True)
    return load * service_time_s / (2 * (1 - load))


class PoissonSender(Sender):
    """Offers the flow's packets at Poisson times (rate ``load`` x line rate / packet)."""

    load = 0.5

    def __init__(self, network, flow, host, cc=None) -> None:
        super().__init__(network, flow, host, cc)
        service_s = self.next_size_bytes() * 8 / self.line_rate_bps
        self.mean_gap_s = service_s / self.load
        self.rng = network.sim.rng
        self.next_seq = 0
        self.arrival_s = flow.start_s + self.rng.expovariate(1 / self.mean_gap_s)
        self.waits_s: list[float] = []

    def has_packet(self) -> bool:
        return self.next_seq < self.n_packets

    def ready_at(self, now_s: float) -> float:
        if self.next_seq >= self.n_packets:
            return math.inf
        return max(self.arrival_s, now_s)

    def make_packet(self):
        now = self.sim.now_s
        self.waits_s.append(now - self.arrival_s)
        packet = self.data_packet(self.next_seq)
        self.next_seq += 1
        self.arrival_s += self.rng.expovariate(1 / self.mean_gap_s)
        if self.next_seq >= self.n_packets:
            self.finish()
        return packet


class Sink(Receiver):
    """Accepts every packet, in any order, and acknowledges nothing."""

    def on_packet(self, packet) -> None:
        self.packets_received += 1
        self.deliver(packet.offset_bytes, packet.payload_bytes)


def poisson(load: float):
    """A ``transport`` pair offering packets as a Poisson process at ``load`` (0 < load < 1)."""
    load = validate.in_range("load", load, 0.0, 1.0, low_open=True, high_open=True)
    sender = type("PoissonSender", (PoissonSender,), {"load": load})
    return sender, Sink
