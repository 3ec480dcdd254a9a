"""Congestion control at senders, and DCQCN as RoCEv2 uses it.

EXTENSION POINT: a :class:`CongestionControl` object is attached to one sender
and sets ``sender.rate_bps`` (the NIC paces the flow's packets at that rate) or
any window attribute its transport reads. It overrides the hooks it needs:
``attach``/``detach`` (flow start/end), ``on_send``, ``on_ack``, ``on_cnp``,
``on_timeout``. If ``cnp_interval_s`` is not ``None``, the flow's receiver
answers ECN-marked packets with a CNP at most once per interval.

**DCQCN** (Zhu et al., SIGCOMM 2015; reference ``zhu-dcqcn``) has three parts:
the switch queue marks ECN with a RED-like rule
(:class:`~netlab.sim.queues.ECNMarking`); the receiver turns marks into CNPs; the
sender cuts its rate on a CNP and otherwise recovers::

    on CNP:        Rt = Rc;  Rc = Rc (1 - alpha / 2);  alpha = (1 - g) alpha + g
    every K s without CNP:   alpha = (1 - g) alpha
    every T s, or B bytes sent (stage i = count of such events since the last CNP):
        i <  F:    Rc = (Rt + Rc) / 2                     fast recovery
        i >= F:    Rt = Rt + R_AI;  Rc = (Rt + Rc) / 2     additive increase
        both >= F: Rt = Rt + R_HAI                          hyper increase

Flows that share a bottleneck see the same marks and converge to equal rates with
the queue held near the marking thresholds.
"""

from __future__ import annotations

from netlab import validate


class CongestionControl:
    """Base class: no congestion control (line rate). Override the hooks you need."""

    cnp_interval_s = None       # type: float | None  # seconds between CNPs a receiver may send (None: no CNPs)

    def attach(self, sender) -> None:
        self.sender = sender

    def detach(self, sender) -> None:
        pass

    def on_send(self, sender, packet) -> None:
        pass

    def on_ack(self, sender, packet) -> None:
        pass

    def on_cnp(self, sender, packet) -> None:
        pass

    def on_timeout(self, sender) -> None:
        pass

    @staticmethod
    def set_rate(sender, rate_bps: float) -> None:
        """Set the pacing rate (clamped to the line rate) and wake the NIC."""
        sender.rate_bps = min(rate_bps, sender.line_rate_bps)
        sender.host.kick()


class DCQCN(CongestionControl):
    """DCQCN reaction point.

    The defaults are the sample configuration published with the DCQCN authors'
    ns-3 code (reference ``zhu-ns3-rdma``; written for 40 Gb/s): CNP interval 50 µs,
    alpha timer 55 µs, rate-increase timer 60 µs, byte counter 300 000 B, g = 1/256,
    5 fast-recovery steps, R_AI = 40 Mb/s, R_HAI = 200 Mb/s. (The paper's own table
    could not be retrieved; fact sheet B.4.) Recovery at these settings takes many
    milliseconds at 100 Gb/s; the labs raise ``rate_ai_bps`` and say so.
    """

    def __init__(self, g: float = 1 / 256, alpha_timer_s: float = 55e-6,
                 rate_timer_s: float = 60e-6, byte_counter_bytes: float = 300_000,
                 fast_recovery_steps: int = 5, rate_ai_bps: float = 40e6,
                 rate_hai_bps: float = 200e6, min_rate_bps: float = 10e6,
                 cnp_interval_s: float = 50e-6) -> None:
        self.g = validate.in_range("g", g, 0.0, 1.0, low_open=True)
        self.alpha_timer_s = validate.positive("alpha_timer_s", alpha_timer_s)
        self.rate_timer_s = validate.positive("rate_timer_s", rate_timer_s)
        self.byte_counter_bytes = validate.positive("byte_counter_bytes", byte_counter_bytes)
        self.fast_recovery_steps = validate.integer("fast_recovery_steps", fast_recovery_steps, minimum=1)
        self.rate_ai_bps = validate.non_negative("rate_ai_bps", rate_ai_bps)
        self.rate_hai_bps = validate.non_negative("rate_hai_bps", rate_hai_bps)
        self.min_rate_bps = validate.positive("min_rate_bps", min_rate_bps)
        self.cnp_interval_s = validate.positive("cnp_interval_s", cnp_interval_s)
        self.alpha = 1.0
        self.cnps = 0
        self.rate_trace: list[tuple[float, float]] = []   # (time_s, rate_bps) after each change

    def attach(self, sender) -> None:
        self.sender = sender
        self.target_bps = sender.line_rate_bps
        self._cnp_since_alpha_tick = False
        self._timer_events = 0
        self._byte_events = 0
        self._bytes = 0
        self._epoch = 0
        self._active = True
        sender.sim.after(self.alpha_timer_s, self._alpha_tick)
        sender.sim.after(self.rate_timer_s, self._rate_tick, self._epoch)

    def detach(self, sender) -> None:
        self._active = False

    def _set(self, rate_bps: float) -> None:
        s = self.sender
        self.set_rate(s, max(self.min_rate_bps, rate_bps))
        self.rate_trace.append((s.sim.now_s, s.rate_bps))

    def on_cnp(self, sender, packet) -> None:
        self.cnps += 1
        self.target_bps = sender.rate_bps
        self.alpha = (1 - self.g) * self.alpha + self.g
        self._cnp_since_alpha_tick = True
        self._timer_events = self._byte_events = 0
        self._bytes = 0
        self._epoch += 1
        self._set(sender.rate_bps * (1 - self.alpha / 2))
        sender.sim.after(self.rate_timer_s, self._rate_tick, self._epoch)

    def on_send(self, sender, packet) -> None:
        self._bytes += packet.size_bytes
        if self._bytes >= self.byte_counter_bytes:
            self._bytes = 0
            self._byte_events += 1
            self._increase()

    def _alpha_tick(self) -> None:
        if not self._active:
            return
        if not self._cnp_since_alpha_tick:
            self.alpha *= 1 - self.g
        self._cnp_since_alpha_tick = False
        self.sender.sim.after(self.alpha_timer_s, self._alpha_tick)

    def _rate_tick(self, epoch: int) -> None:
        if not self._active or epoch != self._epoch:
            return
        self._timer_events += 1
        self._increase()
        self.sender.sim.after(self.rate_timer_s, self._rate_tick, epoch)

    def _increase(self) -> None:
        s = self.sender
        f = self.fast_recovery_steps
        if max(self._timer_events, self._byte_events) < f:
            pass                                        # fast recovery towards target
        elif min(self._timer_events, self._byte_events) >= f:
            self.target_bps += self.rate_hai_bps        # hyper increase
        else:
            self.target_bps += self.rate_ai_bps         # additive increase
        self.target_bps = min(self.target_bps, s.line_rate_bps)
        if s.rate_bps < s.line_rate_bps or self.target_bps > s.rate_bps:
            self._set((self.target_bps + s.rate_bps) / 2)
