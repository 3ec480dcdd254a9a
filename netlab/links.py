"""Links: how long a message takes to cross a wire, a path of hops, or a network.

Four delays make up the time to move bytes across a network:

* serialization ``n_bytes * 8 / bandwidth_bps``: putting the bits on the wire;
* propagation ``distance / (c / n_g)``: light in fibre covers a km in about 4.9 µs;
* switching: the time a switch needs before it forwards (a registry figure);
* queueing: waiting behind other packets (the simulator in ``netlab.sim``).

The *alpha-beta* model folds them into two numbers, a fixed start-up cost alpha
and a rate beta: ``T(n) = alpha + n / beta``. Small messages are latency-bound
(alpha dominates), large ones bandwidth-bound; the two terms are equal at
``n_half = alpha * beta`` bytes, where the achieved rate is half of beta.

A message cut into packets crosses ``hops`` store-and-forward links in a pipeline:
the first packet pays every hop, the rest follow one serialization apart::

    T = hops * latency_per_hop + (hops - 1) * packet / B + message / B

The *bandwidth-delay product* ``B * RTT`` is the data in flight on a path: a
sender needs a window at least that large to keep the link busy.

All bandwidths here are one-way (one direction of a link).
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.units import SPEED_OF_LIGHT_M_PER_S, format_bytes, format_rate, format_time


def serialization_time(n_bytes: float, bandwidth_bps: float) -> float:
    """Seconds to clock ``n_bytes`` onto a link of ``bandwidth_bps`` (one direction).

    Example: 4096 bytes at 100 Gb/s take 327.68 ns.

    >>> round(serialization_time(4096, 100e9) * 1e9, 2)
    327.68
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    return n_bytes * 8.0 / bandwidth_bps


def fiber_group_index() -> float:
    """Group index of standard single-mode fibre at 1550 nm, from the registry."""
    return specs.value("fiber.smf.group_index")


def propagation_time(distance_m: float, group_index: float | None = None) -> float:
    """Seconds for light to cover ``distance_m`` in a medium of ``group_index``.

    The default is single-mode fibre (group index about 1.468): 4.9 µs per km.
    Use ``group_index=1.0`` for vacuum (3.34 µs per km).
    """
    distance_m = validate.non_negative("distance_m", distance_m)
    n_g = fiber_group_index() if group_index is None else validate.in_range(
        "group_index", group_index, 1.0, 10.0)
    return distance_m * n_g / SPEED_OF_LIGHT_M_PER_S


def bandwidth_delay_product(bandwidth_bps: float, rtt_s: float) -> float:
    """Bytes in flight needed to keep a path busy: ``bandwidth_bps * rtt_s / 8``.

    >>> round(bandwidth_delay_product(400e9, 10e-6))   # 400 Gb/s, 10 µs RTT: 500 KB
    500000
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    rtt_s = validate.non_negative("rtt_s", rtt_s)
    return bandwidth_bps * rtt_s / 8.0


@dataclass(frozen=True)
class AlphaBeta:
    """The alpha-beta time of one message.

    ``time_s = alpha_s + n_bytes * 8 / bandwidth_bps``; ``effective_bandwidth_bps``
    is what a benchmark would report (``n_bytes * 8 / time_s``).
    """

    n_bytes: float
    alpha_s: float
    bandwidth_bps: float
    time_s: float
    latency_share: float          # alpha_s / time_s, in [0, 1]
    effective_bandwidth_bps: float
    half_bandwidth_bytes: float   # n_1/2 = alpha * beta: size reaching half the bandwidth

    @property
    def regime(self) -> str:
        """``"latency-bound"`` if alpha is more than half of the time, else ``"bandwidth-bound"``."""
        return "latency-bound" if self.latency_share > 0.5 else "bandwidth-bound"

    def __repr__(self) -> str:
        return (f"AlphaBeta({format_bytes(self.n_bytes)}: {format_time(self.time_s)}, "
                f"{format_rate(self.effective_bandwidth_bps)} effective, {self.regime}; "
                f"n_1/2 = {format_bytes(self.half_bandwidth_bytes)})")


def alpha_beta(n_bytes: float, alpha_s: float, bandwidth_bps: float) -> AlphaBeta:
    """Time to move ``n_bytes`` with start-up cost ``alpha_s`` and rate ``bandwidth_bps``.

    >>> r = alpha_beta(1e6, 5e-6, 100e9)   # 1 MB, 5 µs, 100 Gb/s
    >>> round(r.time_s * 1e6, 3), r.regime
    (85.0, 'bandwidth-bound')
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    alpha_s = validate.non_negative("alpha_s", alpha_s)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    wire_s = n_bytes * 8.0 / bandwidth_bps
    time_s = alpha_s + wire_s
    return AlphaBeta(
        n_bytes=n_bytes, alpha_s=alpha_s, bandwidth_bps=bandwidth_bps, time_s=time_s,
        latency_share=alpha_s / time_s if time_s > 0 else 1.0,
        effective_bandwidth_bps=n_bytes * 8.0 / time_s if time_s > 0 else 0.0,
        half_bandwidth_bytes=alpha_s * bandwidth_bps / 8.0,
    )


@dataclass(frozen=True)
class PathTime:
    """A message's time across a path of equal hops, split into its parts.

    ``time_s = serialization_s + pipeline_fill_s + latency_s``.
    """

    n_bytes: float
    n_packets: int
    hops: int
    switching: str
    serialization_s: float   # all wire bytes once through one link
    pipeline_fill_s: float   # extra serializations before the pipeline is full
    latency_s: float         # per-hop latency (propagation + switch) times hops
    time_s: float
    goodput_bps: float       # n_bytes * 8 / time_s

    def __repr__(self) -> str:
        return (f"PathTime({format_bytes(self.n_bytes)} in {self.n_packets} packets over "
                f"{self.hops} hops, {self.switching}: {format_time(self.time_s)} = "
                f"{format_time(self.serialization_s)} serialization + "
                f"{format_time(self.pipeline_fill_s)} pipeline fill + "
                f"{format_time(self.latency_s)} latency)")


def path_time(n_bytes: float, hops: int, bandwidth_bps: float, latency_per_hop_s: float,
              mtu_bytes: float = 4096, header_bytes: float = 0,
              switching: str = "store_and_forward") -> PathTime:
    """Time for a message cut into packets to cross ``hops`` equal links.

    Parameters
    ----------
    n_bytes : float
        Message payload in bytes (> 0).
    hops : int
        Links crossed (>= 1); a path through ``s`` switches has ``s + 1`` hops.
    bandwidth_bps : float
        One-way rate of every link, bit/s.
    latency_per_hop_s : float
        Fixed delay per hop (propagation plus switching), seconds.
    mtu_bytes : float
        Payload per packet, bytes.
    header_bytes : float
        Header bytes added to each packet on the wire.
    switching : {"store_and_forward", "cut_through"}
        A store-and-forward switch receives a whole packet before sending it on;
        a cut-through switch starts once it has the header.

    Returns
    -------
    PathTime

    Example: 1 MB in 4 KiB packets over 3 hops at 100 Gb/s with 1 µs per hop
    takes 80 µs of serialization, 2 x 327.68 ns of pipeline fill and 3 µs of latency.

    >>> round(path_time(1e6, 3, 100e9, 1e-6).time_s * 1e6, 5)
    83.65536
    """
    n_bytes = validate.positive("n_bytes", n_bytes)
    hops = validate.integer("hops", hops, minimum=1)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    latency_per_hop_s = validate.non_negative("latency_per_hop_s", latency_per_hop_s)
    mtu_bytes = validate.positive("mtu_bytes", mtu_bytes)
    header_bytes = validate.non_negative("header_bytes", header_bytes)
    switching = validate.choice("switching", switching, ("store_and_forward", "cut_through"))

    n_packets = math.ceil(n_bytes / mtu_bytes)
    wire_bytes = n_bytes + n_packets * header_bytes
    first_packet_bytes = min(mtu_bytes, n_bytes) + header_bytes
    # Each intermediate switch holds back the first packet (or its header) once.
    held_bytes = first_packet_bytes if switching == "store_and_forward" else header_bytes
    serialization_s = wire_bytes * 8.0 / bandwidth_bps
    pipeline_fill_s = (hops - 1) * held_bytes * 8.0 / bandwidth_bps
    latency_s = hops * latency_per_hop_s
    time_s = serialization_s + pipeline_fill_s + latency_s
    return PathTime(n_bytes=n_bytes, n_packets=n_packets, hops=hops, switching=switching,
                    serialization_s=serialization_s, pipeline_fill_s=pipeline_fill_s,
                    latency_s=latency_s, time_s=time_s, goodput_bps=n_bytes * 8.0 / time_s)
