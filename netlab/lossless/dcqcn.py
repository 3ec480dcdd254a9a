"""A fluid model of DCQCN: N flows, one bottleneck, rates as smooth functions of time.

Zhu et al. (SIGCOMM 2015, ``zhu-dcqcn``) analyse DCQCN with a fluid model: instead
of individual packets and CNPs, each flow's current rate ``RC``, target rate ``RT``
and congestion estimate ``alpha`` follow differential equations whose terms are the
*expected* rates of DCQCN's events. This module writes those equations out for N
flows that share one switch queue ``q`` and integrates them with numpy (explicit
Euler with a fixed step and a delayed feedback). The event rates, with ``p`` the
per-packet marking probability seen one feedback delay ago and ``R`` a flow's rate
in packets per second, are:

* a CNP interval ``tau`` holds ``tau R`` packets; the receiver sends a CNP if at
  least one was marked, probability ``a = 1 - (1 - p)**(tau R)``: CNPs arrive at
  ``a / tau`` per second, and each cuts ``RC`` by ``RC alpha / 2`` and sets
  ``RT = RC``;
* ``alpha`` moves towards the chance of a CNP in an alpha period ``tau'`` with
  gain ``g / tau'``;
* the byte counter fires after ``B`` unmarked packets: between two marks
  (``R p`` per second) it fires on average ``1 / ((1 - p)**-B - 1)`` times; the rate
  timer likewise with ``T R`` packets per period. Each such event halves the gap
  ``RT - RC``; once ``F`` events have passed without a mark (probability
  ``(1 - p)**(F B)`` or ``(1 - p)**(F T R)``) it also raises ``RT`` by ``R_AI``;
* the queue grows at ``sum(RC) - C`` and is never negative; ``p`` follows the
  RED-like profile of the switch: 0 up to ``K_min``, rising to ``P_max`` at
  ``K_max``, then 1.

Hyper increase (both counters past ``F``) is left out, as it is rare at the fixed
point. With all flows equal, ``RC = C / N`` at a fixed point and the equations
``dRT/dt = dRC/dt = dalpha/dt = 0`` leave one unknown, ``p``:
``RC alpha a**2 = tau**2 R_AI (b_F + t_F)(b + t)`` (with ``alpha = 1 - (1-p)**(tau' R)``),
which :func:`fixed_point` solves by bisection; the queue then sits where the marking
profile gives that ``p``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math

import numpy as np

import inspect

from netlab import specs, validate
from netlab.sim.cc import DCQCN as _PacketDCQCN

# The sender's settings are those of the packet simulation's DCQCN (the authors' ns-3 sample).
_SENDER = {name: p.default for name, p in inspect.signature(_PacketDCQCN.__init__).parameters.items()
           if p.default is not inspect.Parameter.empty}


@dataclass(frozen=True)
class Params:
    """DCQCN settings for the fluid model (SI units; rates in bit/s, sizes in bytes).

    The defaults are those of chapter 4's packet simulation: the switch marking
    profile recommended in the DCQCN paper (registry ``dcqcn.paper.*``), the
    sender's timers of :class:`netlab.sim.cc.DCQCN` and a 10 MB byte counter.
    """

    capacity_bps: float = 40e9
    n_flows: int = 2
    packet_bytes: float = 4160.0             # wire bytes per packet (4096 payload + 64 header)
    kmin_bytes: float = field(default_factory=lambda: specs.value("dcqcn.paper.kmin"))
    kmax_bytes: float = field(default_factory=lambda: specs.value("dcqcn.paper.kmax"))
    pmax: float = field(default_factory=lambda: specs.value("dcqcn.paper.pmax"))
    g: float = _SENDER["g"]
    cnp_interval_s: float = _SENDER["cnp_interval_s"]      # tau
    alpha_timer_s: float = _SENDER["alpha_timer_s"]        # tau'
    rate_timer_s: float = _SENDER["rate_timer_s"]          # T_inc
    byte_counter_bytes: float = field(default_factory=lambda: specs.value("assume.dcqcn.byte_counter"))
    fast_recovery_steps: int = _SENDER["fast_recovery_steps"]   # F
    rate_ai_bps: float = _SENDER["rate_ai_bps"]
    feedback_delay_s: float = 4e-6           # tau*: marking to the sender's reaction

    def __post_init__(self) -> None:
        validate.positive("capacity_bps", self.capacity_bps)
        validate.integer("n_flows", self.n_flows, minimum=1, maximum=1000)
        validate.positive("packet_bytes", self.packet_bytes, maximum=65536,
                          why="an IP datagram's largest size; RoCE packets carry at most 4 KB of payload")
        validate.non_negative("kmin_bytes", self.kmin_bytes)
        validate.positive("kmax_bytes", self.kmax_bytes)
        if self.kmax_bytes <= self.kmin_bytes:
            raise ValueError(f"kmax_bytes must be > kmin_bytes ({self.kmin_bytes}), got {self.kmax_bytes}")
        validate.in_range("pmax", self.pmax, 0.0, 1.0, low_open=True)
        validate.in_range("g", self.g, 0.0, 1.0, low_open=True)
        for name in ("cnp_interval_s", "alpha_timer_s", "rate_timer_s", "byte_counter_bytes", "rate_ai_bps"):
            validate.positive(name, getattr(self, name))
        validate.integer("fast_recovery_steps", self.fast_recovery_steps, minimum=1)
        validate.non_negative("feedback_delay_s", self.feedback_delay_s)


def marking_probability(queue_bytes, kmin_bytes: float, kmax_bytes: float, pmax: float):
    """The switch's marking probability for a queue (a number or a numpy array):
    0 up to ``kmin_bytes``, linear to ``pmax`` at ``kmax_bytes``, 1 above it."""
    kmin_bytes = validate.non_negative("kmin_bytes", kmin_bytes)
    kmax_bytes = validate.positive("kmax_bytes", kmax_bytes)
    if kmax_bytes <= kmin_bytes:
        raise ValueError(f"kmax_bytes must be > kmin_bytes ({kmin_bytes}), got {kmax_bytes}")
    pmax = validate.in_range("pmax", pmax, 0.0, 1.0, low_open=True)
    if isinstance(queue_bytes, np.ndarray):
        if not (np.isfinite(queue_bytes).all() and (queue_bytes >= 0).all()):
            raise ValueError("queue_bytes must hold finite numbers >= 0")
    else:
        validate.non_negative("queue_bytes", queue_bytes)     # a number; a list or text is refused
    q = np.asarray(queue_bytes, dtype=float)
    ramp = pmax * (q - kmin_bytes) / (kmax_bytes - kmin_bytes)
    p = np.where(q <= kmin_bytes, 0.0, np.where(q <= kmax_bytes, ramp, 1.0))
    return float(p) if p.ndim == 0 else p


def _event_rates(p, r_pkt, prm: Params):
    """(a, b, t, b_F, t_F): CNP probability per interval, byte-counter and timer event
    rates (1/s), and their additive-increase parts, for marking ``p`` and rate ``r_pkt``."""
    p = np.clip(p, 0.0, 1.0 - 1e-12)
    log1 = np.log1p(-p)                                   # log(1 - p) <= 0
    a = -np.expm1(prm.cnp_interval_s * r_pkt * log1)
    b_pkts = prm.byte_counter_bytes / prm.packet_bytes
    t_pkts = np.maximum(prm.rate_timer_s * r_pkt, 1e-12)

    def per_second(n_pkts):
        # R p / ((1-p)^-n - 1); its limit for p -> 0 is R / n; huge n p gives 0
        with np.errstate(over="ignore"):
            denom = np.expm1(-n_pkts * log1)
        safe = np.where(denom > 0, denom, 1.0)
        return np.where(denom > 0, r_pkt * p / safe, r_pkt / n_pkts)

    b, t = per_second(b_pkts), per_second(t_pkts)
    f = prm.fast_recovery_steps
    return a, b, t, b * np.exp(f * b_pkts * log1), t * np.exp(f * t_pkts * log1)


@dataclass(frozen=True)
class FixedPoint:
    """The symmetric fixed point: every flow at ``rate_bps``, the queue at ``queue_bytes``."""

    rate_bps: float
    target_bps: float
    alpha: float
    marking_probability: float
    queue_bytes: float

    def __str__(self) -> str:
        return (f"each flow at {self.rate_bps / 1e9:.3f} Gb/s (target {self.target_bps / 1e9:.3f} Gb/s), "
                f"alpha {self.alpha:.4f}, marking probability {self.marking_probability:.4%}, "
                f"queue {self.queue_bytes / 1e3:.1f} KB")


def fixed_point(params: Params | None = None) -> FixedPoint:
    """Solve the fixed-point equations directly (bisection on ``log p``)."""
    prm = _params(params)
    rc = prm.capacity_bps / prm.n_flows
    r_pkt = rc / (8 * prm.packet_bytes)

    def residual(p):
        a, b, t, bf, tf = _event_rates(p, r_pkt, prm)
        alpha = -math.expm1(prm.alpha_timer_s * r_pkt * math.log1p(-p))
        return rc * alpha * a * a - prm.cnp_interval_s ** 2 * prm.rate_ai_bps * (bf + tf) * (b + t)

    lo, hi = -14.0, math.log(1 - 1e-9)                   # residual < 0 at tiny p, > 0 near 1
    if residual(math.exp(lo)) > 0 or residual(math.exp(hi)) < 0:
        raise ValueError("no fixed point in (1e-6, 1): check the parameters")
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if residual(math.exp(mid)) < 0 else (lo, mid)
    p = math.exp(0.5 * (lo + hi))
    a, b, t, bf, tf = (float(x) for x in _event_rates(p, r_pkt, prm))
    alpha = -math.expm1(prm.alpha_timer_s * r_pkt * math.log1p(-p))
    rt = rc + prm.cnp_interval_s * prm.rate_ai_bps * (bf + tf) / a
    if p <= prm.pmax:
        q = prm.kmin_bytes + p / prm.pmax * (prm.kmax_bytes - prm.kmin_bytes)
    else:
        q = prm.kmax_bytes                                 # the profile jumps from pmax to 1 there
    return FixedPoint(rate_bps=rc, target_bps=rt, alpha=alpha, marking_probability=p, queue_bytes=q)


@dataclass(frozen=True)
class Trajectory:
    """The integrated model: ``rates_bps[i][k]`` is flow i at ``time_s[k]``."""

    time_s: np.ndarray
    rates_bps: np.ndarray          # shape (n_flows, n_samples)
    queue_bytes: np.ndarray
    alpha: np.ndarray              # shape (n_flows, n_samples)

    def mean_rates_bps(self, since_s: float) -> np.ndarray:
        """Each flow's mean rate from ``since_s`` to the end."""
        since_s = validate.non_negative("since_s", since_s)
        keep = self.time_s >= since_s
        if not keep.any():
            raise ValueError(f"since_s must be before the end ({self.time_s[-1]} s), got {since_s}")
        return self.rates_bps[:, keep].mean(axis=1)


# Each Euler step costs about 45 µs of numpy work (2 flows; 80 µs with 1000), so the cap keeps a
# call under about 10 s of CPU; the transients the chapter shows settle within tens of milliseconds
# (lab 4 integrates 0.1 s), and 200,000 steps are 1 s of simulated time at the default step.
MAX_STEPS = 200_000
STEP_WHY = "about 10 s of CPU; the transients settle within tens of milliseconds"


def _params(params) -> Params:
    """``params``, or the defaults for ``None``; anything but a :class:`Params` is refused."""
    if params is None:
        return Params()
    validate.instance("params", params, Params, "a dcqcn.Params or None")
    return params


def _start_values(name: str, values, n: int, default: float) -> np.ndarray:
    """``values`` as ``n`` finite floats (``default`` for each if ``None``)."""
    if values is None:
        return np.full(n, default)
    try:
        array = np.array(validate.sequence(name, values, f"a list of n_flows = {n} numbers"), dtype=float)
    except (ValueError, OverflowError):
        raise TypeError(f"{name} must be a list of n_flows = {n} numbers, got {values!r:.80}") from None
    if array.shape != (n,) or not np.isfinite(array).all():
        raise ValueError(f"{name} must hold n_flows = {n} finite numbers, got {values!r:.80}")
    return array


def simulate(params: Params | None = None, duration_s: float = 0.1, dt_s: float = 5e-6,
             start_rates_bps=None, start_times_s=None, sample_every: int = 20) -> Trajectory:
    """Integrate the fluid model for ``duration_s``.

    Flows start at ``start_rates_bps`` (default: line rate, as DCQCN flows do) at
    ``start_times_s`` (default: all at 0); before its start a flow sends nothing.
    ``alpha`` starts at 1, the queue empty. Every ``sample_every``-th step is kept.
    """
    prm = _params(params)
    duration_s = validate.positive("duration_s", duration_s)
    dt_s = validate.in_range("dt_s", dt_s, 0.0, prm.cnp_interval_s / 5, low_open=True)
    if duration_s / dt_s > MAX_STEPS:
        raise ValueError(f"duration_s must be <= {MAX_STEPS * dt_s:g} s at dt_s = {dt_s:g} s (at most {MAX_STEPS:,} "
                         f"integration steps, {STEP_WHY}), got {duration_s:g}")
    sample_every = validate.integer("sample_every", sample_every, minimum=1)
    n = prm.n_flows
    steps = int(round(duration_s / dt_s))
    if n * (steps // sample_every + 1) > validate.MAX_SAMPLES:
        raise ValueError(f"sample_every must be >= {n * steps // validate.MAX_SAMPLES + 1} for {n} flows over {steps:,} "
                         f"steps (at most {validate.MAX_SAMPLES:,} samples kept), got {sample_every}")
    rc = _start_values("start_rates_bps", start_rates_bps, n, prm.capacity_bps)
    starts = _start_values("start_times_s", start_times_s, n, 0.0)
    if (rc <= 0).any() or (rc > prm.capacity_bps).any() or (starts < 0).any():
        raise ValueError("start_rates_bps must be in (0, capacity_bps] and start_times_s >= 0")
    rt, alpha, q = rc.copy(), np.ones(n), 0.0
    lag = int(round(prm.feedback_delay_s / dt_s))
    depth = max(min(lag, steps), 1)         # a delay longer than the run: no feedback arrives in it either way
    hist_p = np.zeros(depth)                              # ring buffers: what the senders see now
    hist_r = np.tile(rc, (depth, 1))                      # was measured ``depth`` steps ago
    out_t, out_r, out_q, out_a = [], [], [], []
    to_pkt = 1 / (8 * prm.packet_bytes)
    for k in range(steps):
        now = k * dt_s
        active = starts <= now
        slot = k % depth
        p_d, r_d = hist_p[slot], hist_r[slot].copy()
        a, b, t, bf, tf = _event_rates(p_d, np.maximum(r_d * to_pkt, 1.0), prm)
        up, cnp_rate = (b + t) / 2, a / prm.cnp_interval_s
        a_alpha = -np.expm1(prm.alpha_timer_s * np.maximum(r_d * to_pkt, 1.0) * np.log1p(-min(p_d, 1 - 1e-12)))
        d_alpha = prm.g / prm.alpha_timer_s * (a_alpha - alpha)
        d_rt = -(rt - rc) * cnp_rate + prm.rate_ai_bps * (bf + tf)
        d_rc = -rc * alpha / 2 * cnp_rate + (rt - rc) * up
        alpha = np.where(active, alpha + dt_s * d_alpha, alpha)
        rt = np.where(active, np.minimum(rt + dt_s * d_rt, prm.capacity_bps), rt)
        rc = np.where(active, np.clip(rc + dt_s * d_rc, 1e6, rt), rc)
        sending = np.where(active, rc, 0.0)
        q = max(0.0, q + dt_s * (sending.sum() - prm.capacity_bps) / 8)
        hist_p[slot] = (0.0 if q <= prm.kmin_bytes else 1.0 if q > prm.kmax_bytes
                        else prm.pmax * (q - prm.kmin_bytes) / (prm.kmax_bytes - prm.kmin_bytes))
        hist_r[slot] = sending
        if k % sample_every == 0:
            out_t.append(now)
            out_r.append(sending)
            out_q.append(q)
            out_a.append(alpha.copy())
    return Trajectory(time_s=np.array(out_t), rates_bps=np.array(out_r).T, queue_bytes=np.array(out_q),
                      alpha=np.array(out_a).T)
