"""InfiniBand vs Ethernet: what the switch latency figures and the cost shares buy.

Two comparisons that need no simulator (chapter 4; the behaviour under contention is
in :mod:`netlab.sim`):

*Latency.* A small message crosses two adapters, ``n_sw`` switches and ``n_sw + 1`` cables.
Each switch adds its port-to-port latency; a store-and-forward switch also waits for
the whole packet (``links.path_time``)::

    T = t_nic + n_sw * t_switch + (n_sw + 1) * t_cable + path serialization

Published switch latencies are weak (fact sheet B.2, B.5, J1, J2): InfiniBand figures
are unconfirmed or conflicting (~100-330 ns), Ethernet figures secondary (250-300 ns
for low-latency chips, "< 1 µs" for a general datacenter switch). So
:func:`switch_latency_range` returns a range with the status of every entry used, and
:func:`small_message_latency` is evaluated at both ends (references
``linley-spectrum2``, ``briefly-tomahawk-ultra``, ``nvidia-connectx6-en-manual``).

*Cost.* If the network is a share ``c_p`` of a premium cluster's cost and ``c_b`` of a
baseline one, and both buy the same GPUs, the premium cluster costs
``(1 - c_b) / (1 - c_p)`` times as much; it pays for itself when its speed-up ``sigma``
reaches that ratio, and ``sigma * (1 - c_p) / (1 - c_b)`` is its performance per dollar relative to
the baseline (seed claims C6, C7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from netlab import links, specs, validate
from netlab.lossless import roce
from netlab.units import format_time

if TYPE_CHECKING:        # imported for the annotations only: the simulator loads when a run is asked for
    import netlab.lossless.experiments

SWITCH_LATENCY_KEYS = {
    "infiniband": ("switch.ib.quantum_x800.latency", "switch.ib.quantum_hdr.latency",
                   "switch.ib.quantum2.latency_low", "switch.ib.quantum2.latency_high"),
    "ethernet": ("switch.eth.tomahawk_ultra.latency", "switch.eth.spectrum2.latency"),
}
NIC_LATENCY_KEYS = ("nic.connectx6.latency", "nic.connectx6_en.latency")


@dataclass(frozen=True)
class LatencyRange:
    """The spread of registry figures for one family, with their standing."""

    family: str
    low_s: float
    high_s: float
    keys: tuple[str, ...]
    statuses: tuple[str, ...]
    grades: tuple[str, ...]

    @property
    def all_unconfirmed_or_secondary(self) -> bool:
        """True if no entry is graded P (primary)."""
        return "P" not in self.grades

    def __str__(self) -> str:
        return (f"{self.family}: {format_time(self.low_s)} to {format_time(self.high_s)} from "
                f"{len(self.keys)} registry entries graded {'/'.join(sorted(set(self.grades)))}")

    def __repr__(self) -> str:
        return (f"LatencyRange({self.family}: {format_time(self.low_s)} - {format_time(self.high_s)}, "
                f"from {len(self.keys)} entries graded {'/'.join(sorted(set(self.grades)))})")


def _range(family: str, keys) -> LatencyRange:
    entries = [specs.get(k) for k in keys]
    return LatencyRange(family, min(e.value for e in entries), max(e.value for e in entries),
                        tuple(keys), tuple(e.status for e in entries), tuple(e.grade for e in entries))


def switch_latency_range(family: str) -> LatencyRange:
    """Lowest and highest registry port-to-port latency for ``"infiniband"`` or ``"ethernet"``."""
    family = validate.choice("family", family, tuple(SWITCH_LATENCY_KEYS))
    return _range(family, SWITCH_LATENCY_KEYS[family])


def nic_latency_range() -> LatencyRange:
    """Adapter latency range from the registry (the same ConnectX-6 silicon serves both)."""
    return _range("adapter", NIC_LATENCY_KEYS)


@dataclass(frozen=True)
class SmallMessageLatency:
    """One-way time of a small message across ``n_switches`` switches, by part."""

    n_bytes: float
    n_switches: int
    nic_s: float
    switches_s: float
    cables_s: float
    wire_s: float            # serialization and pipeline fill (links.path_time)
    time_s: float

    @property
    def switch_share(self) -> float:
        """Fraction of the time spent in switch forwarding latency."""
        return self.switches_s / self.time_s

    def __repr__(self) -> str:
        return (f"SmallMessageLatency({self.n_bytes:g} B over {self.n_switches} switches: "
                f"{format_time(self.time_s)} = NIC {format_time(self.nic_s)} + switches "
                f"{format_time(self.switches_s)} + cables {format_time(self.cables_s)} + wire "
                f"{format_time(self.wire_s)})")


def small_message_latency(n_bytes: float, n_switches: int, bandwidth_bps: float,
                          switch_latency_s: float, nic_latency_s: float, cable_s: float,
                          cut_through: bool = True, mtu_bytes: float = 4096,
                          header_bytes: float = 64) -> SmallMessageLatency:
    """One-way latency of an ``n_bytes`` message over ``n_switches`` switches.

    ``nic_latency_s`` is the adapters' share (both ends together), ``cable_s`` the
    propagation of one cable.

    >>> r = small_message_latency(64, 3, 400e9, 300e-9, 600e-9, 25e-9)
    >>> round(r.time_s * 1e9, 2)     # 600 + 3*300 + 4*25 + (128 bytes serialized + 3 headers)
    1606.4
    """
    n_bytes = validate.positive("n_bytes", n_bytes)
    n_switches = validate.integer("n_switches", n_switches, minimum=0)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    switch_latency_s = validate.non_negative("switch_latency_s", switch_latency_s)
    nic_latency_s = validate.non_negative("nic_latency_s", nic_latency_s)
    cable_s = validate.non_negative("cable_s", cable_s)
    validate.boolean("cut_through", cut_through)
    path = links.path_time(n_bytes, n_switches + 1, bandwidth_bps, cable_s, mtu_bytes=mtu_bytes,
                           header_bytes=header_bytes,
                           switching="cut_through" if cut_through else "store_and_forward")
    wire_s = path.serialization_s + path.pipeline_fill_s
    switches_s = n_switches * switch_latency_s
    return SmallMessageLatency(n_bytes=n_bytes, n_switches=n_switches, nic_s=nic_latency_s,
                               switches_s=switches_s, cables_s=path.latency_s, wire_s=wire_s,
                               time_s=nic_latency_s + switches_s + path.latency_s + wire_s)


@dataclass(frozen=True)
class PerfPerDollar:
    """A premium fabric (network share ``share_premium``) against a baseline."""

    share_premium: float
    share_baseline: float
    speedup: float
    cost_ratio: float              # premium cluster cost / baseline cluster cost, same GPUs
    perf_per_dollar_ratio: float   # > 1: the premium fabric is the better buy
    breakeven_speedup: float       # = cost_ratio
    naive_cost_ratio: float        # 1 + share_premium: reading "20 % of the cost" as "+20 %"

    def __str__(self) -> str:
        return (f"network {self.share_premium:.0%} vs {self.share_baseline:.0%} of the cost: the cluster costs "
                f"{self.cost_ratio:.3f} times as much; a {self.speedup:.2f}x speed-up gives "
                f"{self.perf_per_dollar_ratio:.3f} times the performance per dollar; break-even at "
                f"{self.breakeven_speedup:.3f}x")

    def __repr__(self) -> str:
        return (f"PerfPerDollar(network {self.share_premium:.0%} vs {self.share_baseline:.0%}: cluster costs "
                f"x{self.cost_ratio:.3f}, speed-up x{self.speedup:.3f} -> performance per dollar "
                f"x{self.perf_per_dollar_ratio:.3f}; break-even at x{self.breakeven_speedup:.3f})")


def perf_per_dollar(share_premium: float, share_baseline: float, speedup: float) -> PerfPerDollar:
    """Performance per dollar of a cluster whose network is ``share_premium`` of its cost
    against one whose network is ``share_baseline``, when the premium network makes
    training ``speedup`` times faster. Both clusters buy the same GPUs.

    >>> round(perf_per_dollar(0.20, 0.10, 1.20).perf_per_dollar_ratio, 4)   # 1.2 * 0.8 / 0.9
    1.0667
    """
    share_premium = validate.in_range("share_premium", share_premium, 0.0, 1.0, high_open=True)
    share_baseline = validate.in_range("share_baseline", share_baseline, 0.0, 1.0, high_open=True)
    speedup = validate.positive("speedup", speedup)
    cost_ratio = (1 - share_baseline) / (1 - share_premium)
    return PerfPerDollar(share_premium=share_premium, share_baseline=share_baseline, speedup=speedup,
                         cost_ratio=cost_ratio, perf_per_dollar_ratio=speedup / cost_ratio,
                         breakeven_speedup=cost_ratio, naive_cost_ratio=1 + share_premium)


# --- lab 4: the like-for-like incast and the figures ---------------------------------------

@dataclass(frozen=True)
class IncastCase:
    """One row of :func:`incast_like_for_like`: a lossy run against its lossless twin."""

    label: str
    lossy: netlab.lossless.experiments.IncastResult
    lossless: netlab.lossless.experiments.IncastResult

    @property
    def ratio(self) -> float:
        """Lossy completion time over lossless completion time."""
        return self.lossy.completion_time_s / self.lossless.completion_time_s

    def __str__(self) -> str:
        return (f"{self.label}: lossy {format_time(self.lossy.completion_time_s)} "
                f"({self.lossy.dropped_packets} drops, {self.lossy.timeouts} timeouts) against PFC "
                f"{format_time(self.lossless.completion_time_s)} ({self.lossless.pause_events} pause events): "
                f"lossy takes {self.ratio:,.1f} times as long")


def credit_loop(bandwidth_bps: float, propagation_s: float, switch_s: float, packet_bytes: int = 4160) -> float:
    """Seconds from spending a credit to getting it back: ``8(P+H)/B + 2 t_p + t_sw``, the
    packet's serialization, the link there and back, and the switch's forwarding time.

    >>> round(credit_loop(400e9, 489.7e-9, 100e-9) * 1e9, 1)     # chapter 4's exercise, in ns
    1162.6
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    propagation_s = validate.non_negative("propagation_s", propagation_s)
    switch_s = validate.non_negative("switch_s", switch_s)
    packet_bytes = validate.integer("packet_bytes", packet_bytes, minimum=1, maximum=65_536)
    return packet_bytes * 8 / bandwidth_bps + 2 * propagation_s + switch_s


def credit_throughput(credit_bytes: float, bandwidth_bps: float, propagation_s: float, switch_s: float,
                      packet_bytes: int = 4160) -> float:
    """Fraction of the link rate a sender with ``credit_bytes`` of credit sustains:
    ``min(1, floor(C / (P+H)) x 8(P+H)/B / loop)`` (whole packets per loop)."""
    credit_bytes = validate.positive("credit_bytes", credit_bytes)
    loop = credit_loop(bandwidth_bps, propagation_s, switch_s, packet_bytes)
    return min(1.0, (credit_bytes // packet_bytes) * packet_bytes * 8 / bandwidth_bps / loop)


def incast_ideal_time(n_senders: int, size_bytes: int, bandwidth_bps: float, propagation_s: float,
                      switch_s: float, mtu_bytes: int = 4096, header_bytes: int = 64) -> float:
    """The lossless incast's completion time: ``8(P+H)/B + 2 t_p + t_sw + 8 n (S + ceil(S/P) H)/B``,
    the first packet's way to the receiver's link, then every wire byte back to back on it."""
    n_senders = validate.integer("n_senders", n_senders, minimum=1)
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1)
    mtu_bytes = validate.integer("mtu_bytes", mtu_bytes, minimum=1, maximum=65_536)
    header_bytes = validate.integer("header_bytes", header_bytes, minimum=0, maximum=1024)
    first = credit_loop(bandwidth_bps, propagation_s, switch_s, min(size_bytes, mtu_bytes) + header_bytes)
    wire = n_senders * (size_bytes + -(-size_bytes // mtu_bytes) * header_bytes)
    return first + wire * 8 / bandwidth_bps


@dataclass(frozen=True)
class Headroom:
    """PFC headroom for one link: the simulator's closed form against the Linux mlx5e driver's."""

    bandwidth_bps: float
    cable_m: float
    mtu_bytes: int
    simulator_bytes: float     # 2 t_p B / 8 + 2 (P + H): a round trip of the cable and a packet each way
    driver_bytes: float        # (301 + 2.16 L) x speed in Gb/s + 2.72 MTU

    def __str__(self) -> str:
        return (f"{self.bandwidth_bps / 1e9:g} Gb/s, {self.cable_m:g} m, MTU {self.mtu_bytes:,} B: simulator "
                f"{self.simulator_bytes / 1e3:.1f} KB, mlx5e driver {self.driver_bytes / 1e3:.1f} KB "
                f"({self.driver_bytes / self.simulator_bytes:.1f}x)")


def pfc_headroom(bandwidth_bps: float, cable_m: float, mtu_bytes: int = 4096, header_bytes: int = 64) -> Headroom:
    """Bytes of PFC headroom above XOFF, two ways.

    The simulator's (``netlab.sim.switch``): ``2 t_p B/8 + 2 (P + H)``, the cable's round
    trip at line rate plus one packet in flight each way, with ``t_p`` the fibre delay of
    ``cable_m`` metres; it assumes a port acts on a pause at once. The Linux mlx5e driver's
    (registry ``nic.mlx5.pfc_xoff_*``): ``(301 + 2.16 L) x speed + 2.72 MTU`` bytes, speed in
    Gb/s (at least 40), whose fixed term stands for the reaction and processing delay at
    both ends that the simulator leaves out.

    >>> round(pfc_headroom(100e9, 100).driver_bytes)      # (301 + 216) x 100 + 2.72 x 4096
    62841
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    cable_m = validate.non_negative("cable_m", cable_m)
    mtu_bytes = validate.integer("mtu_bytes", mtu_bytes, minimum=256, maximum=9216)
    header_bytes = validate.integer("header_bytes", header_bytes, minimum=0, maximum=1024)
    t_p = links.propagation_time(cable_m) if cable_m else 0.0
    simulator = 2 * t_p * bandwidth_bps / 8 + 2 * (mtu_bytes + header_bytes)
    driver = roce.mlx5_headroom(bandwidth_bps, cable_m, mtu_bytes).total_bytes    # the same formula, term by term
    return Headroom(bandwidth_bps, cable_m, mtu_bytes, simulator, driver)


@dataclass(frozen=True)
class TimeoutCase:
    """One row of :func:`incast_by_timeout`: a lossy incast whose first retransmission fires after
    ``timeout_s``, against the lossless incast with the same total buffer."""

    label: str
    timeout_s: float
    lossy: netlab.lossless.experiments.IncastResult
    lossless: netlab.lossless.experiments.IncastResult

    @property
    def ratio(self) -> float:
        """Lossy completion time over lossless completion time."""
        return self.lossy.completion_time_s / self.lossless.completion_time_s

    def __str__(self) -> str:
        return (f"{self.label:42s} timeout {format_time(self.timeout_s):>9s}: lossy "
                f"{format_time(self.lossy.completion_time_s)} ({self.lossy.dropped_packets} drops, "
                f"{self.lossy.retransmitted_packets} resent), {self.ratio:,.1f} x the lossless "
                f"{format_time(self.lossless.completion_time_s)}")


def incast_by_timeout(n_senders: int = 8, total_buffer_bytes: float = 200e3,
                      timeouts_s: tuple[float, ...] | None = None) -> tuple[TimeoutCase, ...]:
    """The same lossy incast as the RoCE retransmission timeout ranges from an adaptive NIC's
    floor to the QP's configured timeout.

    ConnectX adapters with adaptive retransmission enabled (NVIDIA's ROCE_ACCL register)
    fire their first retransmission from a per-QP profile whose base is at least
    ``transport.roce.adaptive_retx_min_base_timeout`` (4 µs), with up to a 4x delay on top;
    the QP's local ACK timeout (perftest's default 67.1 ms) is the upper bound. By default
    the rows are 4 µs and 16 µs (adaptive, at the floor and with the documented 4x), 100 µs,
    and the configured 67.1 ms. Each lossy run (``total_buffer_bytes`` at the receiver's
    port) is compared with the lossless run (PFC, the same total split over the inputs, its
    timeout left at the configured 67.1 ms so that it never fires on merely queued data).
    The simulator's go-back-N keeps one timeout (no doubling): right for a single lost tail,
    optimistic when the retransmission is lost again.
    """
    from netlab.lossless import experiments as sc

    n_senders = validate.integer("n_senders", n_senders, minimum=2, maximum=64)
    total_buffer_bytes = validate.positive("total_buffer_bytes", total_buffer_bytes)
    floor = specs.value("transport.roce.adaptive_retx_min_base_timeout")
    ceiling = specs.value("transport.roce.default_ack_timeout")
    rows: tuple[tuple[str, float], ...]
    if timeouts_s is None:
        rows = (("adaptive retransmission, at the floor", floor),
                ("adaptive, with the documented 4x delay", 4 * floor),
                ("a fixed short timer", 100e-6),
                ("the configured local ACK timeout", ceiling))
    else:
        if not isinstance(timeouts_s, (tuple, list)) or not timeouts_s:
            raise ValueError(f"timeouts_s must be a non-empty tuple of seconds, got {timeouts_s!r}")
        rows = tuple((f"timeout {i + 1}", validate.positive("timeouts_s", t, maximum=0.5,
                                                               why="the incasts run for at most 1 s of simulated time"))
                     for i, t in enumerate(timeouts_s))
    try:
        lossless = sc.incast("pfc", n_senders, buffer_bytes=total_buffer_bytes / n_senders, rto_s=ceiling)
        return tuple(TimeoutCase(label, t, sc.incast("lossy", n_senders, buffer_bytes=total_buffer_bytes, rto_s=t),
                                 lossless) for label, t in rows)
    except ValueError as err:
        raise ValueError(f"total_buffer_bytes = {total_buffer_bytes:g} gives a buffer the switch refuses: "
                         f"{err}") from None


def incast_like_for_like(n_senders: int = 8, per_input_bytes: float = 100e3, small_total_bytes: float = 200e3,
                         short_rto_s: float = 100e-6) -> tuple[IncastCase, ...]:
    """Lab 4's opening comparison taken apart, one change at a time.

    1. the original, confounded pair: lossy with ``per_input_bytes`` in all against PFC
       with ``per_input_bytes`` *per input* (``n_senders`` times more buffer), timeout
       ``short_rto_s``;
    2. the same total buffer: lossy gets ``n_senders * per_input_bytes`` too;
    3. a smaller equal total, ``small_total_bytes`` (PFC: that over ``n_senders`` per input),
       with the short timeout;
    4. the same buffers with the RoCE QP's configured local ACK timeout (registry
       ``transport.roce.default_ack_timeout``, 67.1 ms): the worst case; adapters with adaptive
       retransmission fire much sooner (:func:`incast_by_timeout`).
    """
    from netlab.lossless import experiments as sc

    n_senders = validate.integer("n_senders", n_senders, minimum=2, maximum=64)
    per_input_bytes = validate.positive("per_input_bytes", per_input_bytes)
    small_total_bytes = validate.positive("small_total_bytes", small_total_bytes)
    short_rto_s = validate.positive("short_rto_s", short_rto_s, maximum=0.1,
                                    why="the incasts run for at most 1 s of simulated time")
    rto = specs.value("transport.roce.default_ack_timeout")
    big, small = n_senders * per_input_bytes, small_total_bytes / n_senders

    def pair(label, lossy_buffer, pfc_buffer, rto_s):
        try:
            return IncastCase(label, sc.incast("lossy", n_senders, buffer_bytes=lossy_buffer, rto_s=rto_s),
                              sc.incast("pfc", n_senders, buffer_bytes=pfc_buffer, rto_s=rto_s))
        except ValueError as err:   # a buffer the switch refuses: say which of our inputs made it
            raise ValueError(f"per_input_bytes / small_total_bytes give a switch buffer of {lossy_buffer:g} / "
                             f"{pfc_buffer:g} bytes, which the switch refuses: {err}") from None

    return (
        pair(f"1. lossy {per_input_bytes / 1e3:g} KB in all vs PFC {per_input_bytes / 1e3:g} KB per input, "
             f"{format_time(short_rto_s)} timeout", per_input_bytes, per_input_bytes, short_rto_s),
        pair(f"2. both {big / 1e3:g} KB in all, {format_time(short_rto_s)} timeout", big, per_input_bytes, short_rto_s),
        pair(f"3. both {small_total_bytes / 1e3:g} KB in all, {format_time(short_rto_s)} timeout",
             small_total_bytes, small, short_rto_s),
        pair(f"4. both {small_total_bytes / 1e3:g} KB in all, RoCE default {format_time(rto)} timeout",
             small_total_bytes, small, rto),
    )
