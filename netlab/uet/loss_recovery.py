"""Transport closed forms: what a lost packet costs go-back-N and selective repeat.

A reliable transport resends what the network lost. *How much* it resends is the
difference between RoCEv2, which inherited InfiniBand's go-back-N, and Ultra
Ethernet's transport (UET), which resends only what was lost.

Let a packet take ``T = 8 * packet_bytes / bandwidth_bps`` to send, and let
``feedback_delay_s`` be the time from the end of sending a packet until the
sender learns that it was lost (one round trip, plus the time for the receiver to
notice the gap). The *pipe* is the number of packet slots from the start of a
lost packet to the start of its retransmission::

    K = 1 + feedback_delay_s / T

With independent (Bernoulli) loss of data packets at rate ``p`` and a window of
``W`` packets, the fraction of the link that carries new data is (derived below;
the same forms appear in textbook treatments of ARQ protocols; for go-back-N
below the pipe the form is an approximation that charges each loss a whole
window, a few per cent pessimistic against a slot-level model):

=====================  ===========================  ================================
protocol               ``W >= K`` (window >= pipe)   ``W < K``
=====================  ===========================  ================================
selective repeat       ``1 - p``                     ``W (1 - p) / K``
go-back-N              ``(1 - p) / (1 + (K-1) p)``   ``W (1 - p) / (K (1 - p + W p))``
=====================  ===========================  ================================

Derivation for go-back-N with ``W >= K``: each attempt of a packet fails with
probability ``p`` and then costs ``K`` slots (the lost packet and the ``K - 1``
sent after it, which the receiver discards); the successful attempt costs one
slot. Expected slots per delivered packet: ``1 + K p / (1 - p)``, whose inverse is
the efficiency above. Selective repeat with a window at least the pipe never
idles: every slot carries a packet that arrives with probability ``1 - p``.

Two more closed forms put the numbers in context. The Mathis et al. bound on a
TCP flow that halves its window on each loss, ``rate <= (MSS / RTT) * C /
sqrt(p)``, with ``C = sqrt(3/2) ~ 1.22`` from Mathis et al.'s derivation (periodic loss, one
ACK per segment; ``sqrt(3/4) ~ 0.87`` with delayed ACKs, one per two segments)
[mathis-1997] (GEANT's performance wiki quotes it with ``C = 1`` [geant-mathis]), and
an incast estimate: when N synchronized senders overflow a switch buffer, at
least one of them loses its last packets, and only a retransmission timeout
(RTO) can recover them — a 200 ms TCP minimum RTO [linux-tcp-h] against a few
milliseconds of useful transfer is the classic "incast collapse".
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import validate
from netlab.units import format_rate, format_time


def pipe_packets(bandwidth_bps: float, feedback_delay_s: float, packet_bytes: float) -> float:
    """Packet slots from the start of a lost packet to the start of its resend: ``1 + delay / T``.

    >>> pipe_packets(100e9, 8e-6, 4096)     # 8 us of feedback at 100 Gb/s, 4 KiB packets
    25.4140625
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    feedback_delay_s = validate.non_negative("feedback_delay_s", feedback_delay_s)
    packet_bytes = validate.positive("packet_bytes", packet_bytes)
    return 1.0 + feedback_delay_s * bandwidth_bps / (8.0 * packet_bytes)


def _check(loss_rate: float, window_packets: float, pipe: float) -> tuple[float, float, float]:
    p = validate.in_range("loss_rate", loss_rate, 0.0, 1.0, high_open=True)
    w = validate.number("window_packets", window_packets, ">= 1")
    if w < 1:
        raise ValueError(f"window_packets must be a finite number >= 1, got {window_packets}")
    k = validate.number("pipe_packets", pipe, ">= 1")
    if k < 1:
        raise ValueError(f"pipe_packets must be a finite number >= 1, got {pipe}")
    return p, w, k


def selective_repeat_efficiency(loss_rate: float, window_packets: float, pipe_packets: float) -> float:
    """Share of the link carrying new data when only lost packets are resent.

    >>> selective_repeat_efficiency(0.01, 64, 25)
    0.99
    """
    p, w, k = _check(loss_rate, window_packets, pipe_packets)
    return (1.0 - p) * min(1.0, w / k)


def go_back_n_efficiency(loss_rate: float, window_packets: float, pipe_packets: float) -> float:
    """Share of the link carrying new data when a loss resends everything after it.

    >>> round(go_back_n_efficiency(0.01, 64, 25), 4)     # 0.99 / 1.24
    0.7984
    """
    p, w, k = _check(loss_rate, window_packets, pipe_packets)
    if w >= k:
        return (1.0 - p) / (1.0 + (k - 1.0) * p)
    return w * (1.0 - p) / (k * (1.0 - p + w * p))


@dataclass(frozen=True)
class LossRecovery:
    """Goodput of go-back-N and selective repeat on one path with random loss."""

    loss_rate: float
    window_packets: float
    pipe_packets: float            # K = 1 + feedback_delay_s / T
    go_back_n_efficiency: float    # share of bandwidth_bps carrying new data
    selective_repeat_efficiency: float
    go_back_n_goodput_bps: float
    selective_repeat_goodput_bps: float

    @property
    def advantage(self) -> float:
        """Selective repeat's goodput over go-back-N's (>= 1)."""
        return self.selective_repeat_efficiency / self.go_back_n_efficiency

    def __repr__(self) -> str:
        return (f"At {self.loss_rate:.3g} loss, with a window of {self.window_packets:g} packets and a pipe of "
                f"K = {self.pipe_packets:.3g} packets, go-back-N delivers "
                f"{format_rate(self.go_back_n_goodput_bps)} ({self.go_back_n_efficiency:.1%} of the link) and "
                f"selective repeat {format_rate(self.selective_repeat_goodput_bps)} "
                f"({self.selective_repeat_efficiency:.1%}).")


def loss_recovery(loss_rate: float, window_packets: float, bandwidth_bps: float,
                  feedback_delay_s: float, packet_bytes: float) -> LossRecovery:
    """Both protocols' goodput on a path of ``bandwidth_bps`` with loss rate ``loss_rate``.

    >>> r = loss_recovery(0.01, 64, 100e9, 8e-6, 4096)
    >>> round(r.go_back_n_goodput_bps / 1e9, 1), round(r.selective_repeat_goodput_bps / 1e9, 1)
    (79.6, 99.0)
    """
    k = pipe_packets(bandwidth_bps, feedback_delay_s, packet_bytes)
    gbn = go_back_n_efficiency(loss_rate, window_packets, k)
    sr = selective_repeat_efficiency(loss_rate, window_packets, k)
    return LossRecovery(float(loss_rate), float(window_packets), k, gbn, sr,
                        gbn * bandwidth_bps, sr * bandwidth_bps)


def mathis_throughput(mss_bytes: float, rtt_s: float, loss_rate: float,
                      constant: float = math.sqrt(1.5)) -> float:
    """Mathis et al. bound on one TCP flow, bit/s: ``8 * MSS / RTT * C / sqrt(p)``.

    Valid for small loss rates (about 1 % and below). ``C = sqrt(3/2)`` is the paper's
    constant for one ACK per segment; pass ``sqrt(3/4)`` for delayed ACKs [mathis-1997].
    Example: 1460-byte segments, 10 ms RTT, 0.1 % loss give about 45.2 Mb/s.

    >>> round(mathis_throughput(1460, 10e-3, 1e-3) / 1e6, 1)
    45.2
    """
    mss_bytes = validate.positive("mss_bytes", mss_bytes)
    rtt_s = validate.positive("rtt_s", rtt_s)
    loss_rate = validate.in_range("loss_rate", loss_rate, 0.0, 1.0, low_open=True)
    constant = validate.positive("constant", constant)
    return 8.0 * mss_bytes / rtt_s * constant / math.sqrt(loss_rate)


@dataclass(frozen=True)
class IncastEstimate:
    """Synchronized N-to-1 transfer through one switch port with a finite buffer."""

    n_senders: int
    burst_bytes: float         # first-round data: n_senders * min(window, bytes_per_sender)
    absorbable_bytes: float    # buffer_bytes + one bandwidth-delay product
    overflows: bool            # burst_bytes > absorbable_bytes: someone loses packets
    wire_time_s: float         # all payload bytes through the bottleneck back to back (headers not counted)
    completion_time_s: float   # wire_time_s, plus one RTO if the burst overflows
    goodput_bps: float

    def __repr__(self) -> str:
        verdict = ("the first burst overflows the buffer, so one RTO stalls the transfer" if self.overflows
                   else "the first burst fits in the buffer")
        return (f"{self.n_senders} senders: {verdict}; it completes in {format_time(self.completion_time_s)} "
                f"against {format_time(self.wire_time_s)} for the payload alone (headers not counted), a goodput of "
                f"{format_rate(self.goodput_bps)}.")


def incast_rto_collapse(n_senders: int, bytes_per_sender: float, bandwidth_bps: float,
                        buffer_bytes: float, window_bytes: float, rtt_s: float,
                        rto_s: float) -> IncastEstimate:
    """Completion time of an N-to-1 incast whose first burst may overflow the buffer.

    The model: all senders start together with ``min(window, message)`` bytes each.
    The bottleneck port absorbs its buffer plus one bandwidth-delay product; beyond
    that, packets drop. A sender that loses the *last* packets of its message gets
    no later packet to reveal the gap, so it waits one full ``rto_s``. The estimate
    assumes exactly one such stall (a lower bound on the damage when it happens):
    ``completion = wire_time + rto_s`` if the burst overflows, ``wire_time``
    otherwise, with ``wire_time = 8 * n * bytes_per_sender / bandwidth_bps``.

    >>> e = incast_rto_collapse(127, 2e6, 100e9, 1e6, 64e3, 10e-6, 0.2)
    >>> e.overflows, round(e.goodput_bps / 1e9, 1)      # 20.3 ms of data, 200 ms stall
    (True, 9.2)
    """
    n = validate.integer("n_senders", n_senders, minimum=1)
    bytes_per_sender = validate.positive("bytes_per_sender", bytes_per_sender)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    buffer_bytes = validate.non_negative("buffer_bytes", buffer_bytes)
    window_bytes = validate.positive("window_bytes", window_bytes)
    rtt_s = validate.non_negative("rtt_s", rtt_s)
    rto_s = validate.non_negative("rto_s", rto_s)
    burst = n * min(window_bytes, bytes_per_sender)
    absorbable = buffer_bytes + bandwidth_bps * rtt_s / 8.0
    overflows = burst > absorbable
    wire = 8.0 * n * bytes_per_sender / bandwidth_bps
    completion = wire + (rto_s if overflows else 0.0)
    return IncastEstimate(n, burst, absorbable, overflows, wire, completion,
                          8.0 * n * bytes_per_sender / completion)
