"""UET-like congestion control: NSCC-like sender windows and RCCC-like receiver credits.

**NSCC-like.** A window steered by ECN marks and measured delay.

Ultra Ethernet's Network-Signaled Congestion Control (NSCC) keeps a congestion
window per sender and adapts it to two signals carried back in ACKs: the round-trip
time and the ECN congestion-experienced bit [nwktimes-nscc]. The reference
provider ships a partial implementation [uet-ref-prov]. The rule below is
netlab's simplification in that spirit, not the specification's algorithm: each
SACK carries the echoed ECN bit and the packet's send time, and the window
``cwnd_bytes`` (read by :class:`~netlab.sim.uet.UETSender`) moves by quadrant::

    ECN marked, RTT above target    multiplicative decrease, at most once per RTT:
                                    cwnd -= cwnd * md_factor
    ECN marked, RTT below target    hold (a queue is forming; it is still short)
    no mark,    RTT above target    gentle increase: + ai_bytes * acked / cwnd
    no mark,    RTT below target    fast increase:  + fi_bytes * acked / cwnd

A trimmed packet's NACK counts as a marked, high-delay ACK; a timeout resets the
window to one packet. The window stays in ``[one packet, max_cwnd_bytes]``.

**RCCC-like.** Receiver credit-based congestion control bounds incast at the receiver:
credits say how much a sender may send, and the receiver hands them out no faster
than its own link drains [nwktimes-rccc]. :class:`CreditScheduler` grants one
packet's credit per packet-time of the receiving host's link, round-robin among the
flows that still need packets (see :class:`~netlab.sim.uet.UETReceiver` for how
need is counted). Credits travel in ``CREDIT`` control packets.
"""

from __future__ import annotations

from netlab import validate
from netlab.sim.cc import CongestionControl

CREDIT = "credit"          # control packet kind: ``seq`` credits (packets) for the sender


class NSCC(CongestionControl):
    """Window-based ECN + delay control for :class:`~netlab.sim.uet.UETSender`."""

    def __init__(self, target_rtt_s: float = 20e-6, md_factor: float = 0.3,
                 ai_bytes: float = 4096.0, fi_bytes: float = 16384.0) -> None:
        self.target_rtt_s = validate.positive("target_rtt_s", target_rtt_s)
        self.md_factor = validate.in_range("md_factor", md_factor, 0.0, 1.0, low_open=True, high_open=True)
        self.ai_bytes = validate.non_negative("ai_bytes", ai_bytes)
        self.fi_bytes = validate.non_negative("fi_bytes", fi_bytes)
        self.decreases = 0
        self.window_trace: list[tuple[float, float]] = []   # (time_s, cwnd_bytes) after each decrease

    def attach(self, sender) -> None:
        self.sender = sender
        self._last_decrease_s = -1.0
        self._min_cwnd = sender.mtu_bytes + sender.header_bytes

    def _decrease(self, sender) -> None:
        now = sender.sim.now_s
        if now - self._last_decrease_s < self.target_rtt_s:
            return                                  # once per round trip
        self._last_decrease_s = now
        sender.cwnd_bytes = max(self._min_cwnd, sender.cwnd_bytes * (1.0 - self.md_factor))
        self.decreases += 1
        self.window_trace.append((now, sender.cwnd_bytes))

    def on_ack(self, sender, packet) -> None:
        info = packet.info
        ecn, sent_s = info[4], info[5]
        rtt = sender.sim.now_s - sent_s
        high = rtt > self.target_rtt_s
        if ecn and high:
            self._decrease(sender)
        elif not ecn:
            step = self.ai_bytes if high else self.fi_bytes
            acked = sender.mtu_bytes * (info[6] if len(info) > 6 else 1)   # packets this SACK reports
            sender.cwnd_bytes = min(sender.max_cwnd_bytes, sender.cwnd_bytes + step * acked / sender.cwnd_bytes)

    def on_trim(self, sender, packet) -> None:
        self._decrease(sender)

    def on_timeout(self, sender) -> None:
        sender.cwnd_bytes = self._min_cwnd


class CreditScheduler:
    """RCCC-like receiver: one credit per packet-time of the host's link, round-robin.

    The request is implied by a flow's first packet; from then on the scheduler
    grants a credit (a ``CREDIT`` control packet) every ``(mtu + header) * 8 / rate``
    seconds to the next flow that still needs packets, and sleeps when none does.
    With ``packets_per_credit = k`` one CREDIT packet carries up to ``k`` credits
    (no more than the flow needs) and the next grant waits that many packet-times.
    """

    def __init__(self, network, host, packets_per_credit: int = 1) -> None:
        self.network = network
        self.sim = network.sim
        self.host = host
        self.packets_per_credit = packets_per_credit
        self.interval_s = (network.mtu_bytes + network.header_bytes) * 8.0 / host.port.bandwidth_bps
        self.flows: list = []
        self._known: set = set()                   # the same flows, to look one up at once
        self._rr = 0
        self._ticking = False
        self.credits_sent = 0

    def wake(self, receiver) -> None:
        if receiver not in self._known:
            self._known.add(receiver)
            self.flows.append(receiver)
        if not self._ticking:
            self._ticking = True
            self.sim.after(0.0, self._tick)

    def _tick(self) -> None:
        n = len(self.flows)
        for i in range(n):
            r = self.flows[(self._rr + i) % n]
            need = r.credit_need
            if need > 0:
                self._rr = (self._rr + i + 1) % n
                k = need if need < self.packets_per_credit else self.packets_per_credit
                r.grants.extend([self.sim.now_s] * k)
                self.credits_sent += k
                r.send_ack(CREDIT, k)
                self.sim.after(k * self.interval_s, self._tick)       # k packet-times of the link
                return
        self._ticking = False                       # nobody needs credit: sleep until woken
