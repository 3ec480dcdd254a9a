"""RoCE as it is configured: one lossless priority, the PFC headroom it costs, and the delays behind it.

A RoCE fabric is not lossless as a whole. Traffic is sorted by its DSCP into switch priorities;
one priority (3 in NVIDIA's RoCE mode, registry ``roce.nvidia.roce_priority``) carries RoCE data
and has PFC, another (6) carries the congestion notification packets by strict priority and
without PFC, and everything else stays lossy (Guo et al. made DSCP, not the VLAN tag, carry
the priority so that PFC works across routed hops). Every port then reserves, for each lossless
priority, *headroom* above its XOFF threshold: the bytes that still arrive after it decided to
pause its neighbour.

Those bytes come from four delays. When the receiver's queue crosses XOFF it may be in the
middle of sending a frame, so the pause frame waits for it; the pause then crosses the cable;
the sender takes a *response time* to act on it and finishes the frame it has started; and what
it sent meanwhile is still on the cable. With line rate ``B`` bit/s, a cable of ``L`` metres
whose signal takes ``d`` seconds per metre, response time ``t_r`` and ``k`` frames of ``MTU``
bytes::

    headroom = B/8 x (2 d L + t_r) + k x MTU

:func:`headroom` computes this budget term by term. NVIDIA's Linux driver sizes a ConnectX
receive buffer with the published formula ``xoff = (301 + 2.16 L) x speed[Gb/s] + 2.72 MTU``
bytes (registry ``nic.mlx5.pfc_xoff_*``); :func:`mlx5_headroom` reads its three coefficients as
the budget's three terms: 301 B per Gb/s is a response time of 2.408 µs, 2.16 B per metre and
Gb/s a round trip of 17.28 ns per metre (8.64 ns/m each way, where fibre takes 4.9), and 2.72
frames. The fibre-and-two-frames budget with the same response time is :func:`fibre_headroom`.
Over distance (chapter 10) the cable term is all that matters: it is the round-trip
bandwidth-delay product, and it is reserved per lossless priority on every port.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import links, specs, validate
from netlab.units import Gbps, KB, format_time

#: Size of a PFC frame (a MAC control frame), bytes.
PFC_FRAME_BYTES = 64


@dataclass(frozen=True)
class HeadroomBudget:
    """PFC headroom of one lossless priority on one port, split into its terms (bytes).

    ``cable_bytes`` is what the cable holds in one round trip at line rate, ``response_bytes``
    what the sender transmits during its response time, ``frames_bytes`` the frames in progress
    at both ends (and the pause frame, where counted). ``rate_bps`` is the rate the terms were
    computed at (the driver formula raises slow ports to 40 Gb/s).
    """

    bandwidth_bps: float
    cable_m: float
    mtu_bytes: int
    rate_bps: float
    cable_bytes: float
    response_bytes: float
    frames_bytes: float
    label: str = ""

    @property
    def total_bytes(self) -> float:
        """The headroom, the sum of the three terms."""
        return self.cable_bytes + self.response_bytes + self.frames_bytes

    @property
    def response_s(self) -> float:
        """The response time the budget assumes, seconds."""
        return self.response_bytes * 8 / self.rate_bps

    def __str__(self) -> str:
        head = f"{self.label}: " if self.label else ""
        return (f"{head}{self.bandwidth_bps / Gbps:g} Gb/s, {self.cable_m:g} m, MTU {self.mtu_bytes} B: "
                f"headroom {self.total_bytes / KB:,.1f} KB = cable {self.cable_bytes / KB:,.1f} + response "
                f"{self.response_bytes / KB:,.1f} ({format_time(self.response_s)}) + frames "
                f"{self.frames_bytes / KB:,.1f} KB")


def headroom(bandwidth_bps: float, cable_m: float, mtu_bytes: int, response_s: float,
             round_trip_s_per_m: float | None = None, frames: float = 2.0,
             pause_frame: bool = True, label: str = "") -> HeadroomBudget:
    """PFC headroom as a delay budget: ``B/8 (t_rt L + t_r) + frames x MTU (+ a PFC frame)``.

    ``round_trip_s_per_m`` is the cable's round trip per metre (by default fibre's, twice
    ``links.propagation_time(1)``, 9.8 ns/m); ``response_s`` the sender's time from receiving a
    pause to stopping; ``frames`` the frames of ``mtu_bytes`` in progress (one at each end);
    ``pause_frame`` adds the 64-byte PFC frame itself.

    Example: 100 Gb/s, 100 m, MTU 4096, a 2 µs response: the cable holds
    12.5e9 B/s x 979.4 ns = 12.2 KB, the response 25 KB, two frames and the pause frame 8.3 KB:
    45.5 KB.

    >>> round(headroom(100e9, 100, 4096, 2e-6).total_bytes)
    45498
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    cable_m = validate.non_negative("cable_m", cable_m)
    mtu_bytes = validate.integer("mtu_bytes", mtu_bytes, minimum=256, maximum=9216)
    response_s = validate.non_negative("response_s", response_s, maximum=1e-3)
    if round_trip_s_per_m is None:
        round_trip_s_per_m = 2 * links.propagation_time(1.0)
    round_trip_s_per_m = validate.positive("round_trip_s_per_m", round_trip_s_per_m, maximum=1e-6)
    frames = validate.non_negative("frames", frames, maximum=10)
    pause_frame = validate.boolean("pause_frame", pause_frame)
    if not isinstance(label, str):
        raise TypeError(f"label must be a str, got {type(label).__name__}")
    rate = bandwidth_bps / 8
    return HeadroomBudget(bandwidth_bps, cable_m, mtu_bytes, bandwidth_bps,
                          cable_bytes=rate * round_trip_s_per_m * cable_m,
                          response_bytes=rate * response_s,
                          frames_bytes=frames * mtu_bytes + (PFC_FRAME_BYTES if pause_frame else 0),
                          label=label)


def mlx5_response_s() -> float:
    """The response time hidden in the mlx5 driver's fixed term: 301 B per Gb/s = 2.408 µs."""
    return specs.value("nic.mlx5.pfc_xoff_fixed") * 8 / Gbps


def mlx5_headroom(bandwidth_bps: float, cable_m: float, mtu_bytes: int = 4096) -> HeadroomBudget:
    """NVIDIA's published ConnectX headroom formula, read as a delay budget.

    ``(301 + 2.16 L) x max(speed, 40 Gb/s) + 2.72 MTU`` bytes (Linux mlx5e driver,
    ``port_buffer.c``): a response time of 2.408 µs, a round trip of 17.28 ns per metre of
    cable, 2.72 frames, no separate pause frame.

    >>> round(mlx5_headroom(100e9, 100, 4096).total_bytes)     # (301 + 216) x 100 + 2.72 x 4096
    62841
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    cable_m = validate.non_negative("cable_m", cable_m)
    mtu_bytes = validate.integer("mtu_bytes", mtu_bytes, minimum=256, maximum=9216)
    rate_bps = max(bandwidth_bps, 40 * Gbps)
    per_m = specs.value("nic.mlx5.pfc_xoff_per_metre") * 8 / Gbps       # s of round trip per metre
    budget = headroom(rate_bps, cable_m, mtu_bytes, mlx5_response_s(), round_trip_s_per_m=per_m,
                      frames=specs.value("nic.mlx5.pfc_xoff_mtu_factor"), pause_frame=False,
                      label="NVIDIA mlx5 formula")
    return HeadroomBudget(bandwidth_bps, cable_m, mtu_bytes, rate_bps, budget.cable_bytes,
                          budget.response_bytes, budget.frames_bytes, budget.label)


def fibre_headroom(bandwidth_bps: float, cable_m: float, mtu_bytes: int = 4096,
                   response_s: float | None = None) -> HeadroomBudget:
    """The same budget from physics: fibre's 4.9 ns/m each way, one frame at each end plus the PFC
    frame, and (by default) the mlx5 formula's 2.408 µs response time.

    >>> round(fibre_headroom(100e9, 100, 4096).total_bytes)
    50598
    """
    if response_s is None:
        response_s = mlx5_response_s()
    return headroom(bandwidth_bps, cable_m, mtu_bytes, response_s, label="fibre, 2 frames")


def headroom_buffer_bytes(headroom_bytes: float, n_ports: int, n_lossless: int = 1) -> float:
    """Buffer a switch reserves for headroom: one headroom per lossless priority on every port.

    >>> headroom_buffer_bytes(100e3, 64, 2) / 1e6       # 64 ports, two lossless classes: 12.8 MB
    12.8
    """
    headroom_bytes = validate.non_negative("headroom_bytes", headroom_bytes)
    n_ports = validate.integer("n_ports", n_ports, minimum=1, maximum=4096)
    n_lossless = validate.integer("n_lossless", n_lossless, minimum=1, maximum=8)
    return headroom_bytes * n_ports * n_lossless


@dataclass(frozen=True)
class LosslessClass:
    """The lossless class as NVIDIA's RoCE mode sets it up (registry ``roce.nvidia.*``)."""

    roce_priority: int
    cnp_priority: int
    ecn_min_bytes: float
    ecn_max_bytes: float

    def __str__(self) -> str:
        return (f"RoCE on priority {self.roce_priority} with PFC, ECN marking from {self.ecn_min_bytes / KB:g} KB "
                f"to {self.ecn_max_bytes / KB:g} KB; CNPs on priority {self.cnp_priority}, strict, no PFC")


def nvidia_lossless_class() -> LosslessClass:
    """The shipped defaults of NVIDIA's switch RoCE mode, from the registry."""
    return LosslessClass(int(specs.value("roce.nvidia.roce_priority")), int(specs.value("roce.nvidia.cnp_priority")),
                         specs.value("roce.nvidia.ecn_min"), specs.value("roce.nvidia.ecn_max"))
