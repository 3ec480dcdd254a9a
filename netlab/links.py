"""Links: how long a message takes to cross a wire, a path of hops, or a network.

Four delays make up the time to move bytes across a network:

* serialization ``n_bytes * 8 / bandwidth_bps``: putting the bits on the wire;
* propagation ``distance / (c / n_g)``: light in fibre covers a km in about 4.9 µs;
* switching: the time a switch needs before it forwards (a registry figure);
* queueing: waiting behind other packets (the simulator in ``netlab.sim``).

The *alpha-beta* model folds them into two numbers, a fixed start-up cost alpha
and a rate beta in bytes per second (``bandwidth_bps / 8``): ``T(S) = alpha + S / beta``
for ``S`` bytes. Small messages are latency-bound (alpha dominates), large ones
bandwidth-bound; the two terms are equal at ``S_1/2 = alpha * beta`` bytes, where the
achieved rate is half of beta.

A message cut into packets crosses ``hops`` store-and-forward links in a pipeline:
the first packet pays every hop, the rest follow one serialization apart::

    T = hops * latency_per_hop + (hops - 1) * 8 * packet / B + 8 * message / B   (bytes, B in bit/s)

The *bandwidth-delay product* ``B * RTT`` (bits; ``B * RTT / 8`` bytes) is the data in flight on a path: a
sender needs a window at least that large to keep the link busy.

All bandwidths here are one-way (one direction of a link).
"""

from __future__ import annotations

from collections.abc import Sequence
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
    """Group index of single-mode fibre at 1310 nm (1.469 at 1550 nm), from the registry."""
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
    half_bandwidth_bytes: float   # S_1/2 = alpha * beta: size reaching half the bandwidth

    @property
    def regime(self) -> str:
        """``"latency-bound"`` if alpha is more than half of the time, else ``"bandwidth-bound"``."""
        return "latency-bound" if self.latency_share > 0.5 else "bandwidth-bound"

    def __repr__(self) -> str:
        return (f"AlphaBeta({format_bytes(self.n_bytes)}: {format_time(self.time_s)}, "
                f"{format_rate(self.effective_bandwidth_bps)} effective, {self.regime}; "
                f"S_1/2 = {format_bytes(self.half_bandwidth_bytes)})")


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

    def __str__(self) -> str:
        packets = f"{self.n_packets} packet{'' if self.n_packets == 1 else 's'}"
        return (f"{format_bytes(self.n_bytes)} in {packets} over {self.hops} hops: "
                f"{format_time(self.time_s)} = {format_time(self.serialization_s)} serialization + "
                f"{format_time(self.pipeline_fill_s)} pipeline fill + {format_time(self.latency_s)} "
                f"per-hop delay ({self.latency_s / self.time_s:.1%} of the total)")

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

    Examples
    --------
    1 MB in 4 KiB packets over 3 hops at 100 Gb/s with 1 µs per hop
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


# --- serialization against propagation, and lab 2's figures ------------------------------

def serialization_propagation_crossover_m(n_bytes: float, bandwidth_bps: float,
                                          group_index: float | None = None) -> float:
    """Distance (m) at which light's travel time equals the serialization time of
    ``n_bytes`` at ``bandwidth_bps``: ``8 n c / (B n_g)``. Shorter links are
    serialization-bound, longer ones propagation-bound.

    >>> round(serialization_propagation_crossover_m(4096, 400e9), 2)   # 81.92 ns of fibre
    16.73
    """
    t = serialization_time(validate.positive("n_bytes", n_bytes), bandwidth_bps)
    return t / propagation_time(1.0, group_index)


@dataclass(frozen=True)
class LinkDelay:
    """One message over one link of a given length: serialization against propagation."""

    n_bytes: float
    bandwidth_bps: float
    distance_m: float
    serialization_s: float
    propagation_s: float
    crossover_m: float

    @property
    def rtt_s(self) -> float:
        """Round trip of the bare link (propagation both ways)."""
        return 2 * self.propagation_s

    @property
    def bdp_bytes(self) -> float:
        """Bandwidth-delay product of the bare link's round trip."""
        return bandwidth_delay_product(self.bandwidth_bps, self.rtt_s)

    def __str__(self) -> str:
        bound = "propagation" if self.propagation_s > self.serialization_s else "serialization"
        return (f"{self.n_bytes:,.0f} bytes over {self.distance_m:,g} m at {format_rate(self.bandwidth_bps)}: "
                f"serialization {format_time(self.serialization_s)}, propagation "
                f"{format_time(self.propagation_s)} ({bound} dominates; equal at {self.crossover_m:,.1f} m); "
                f"round trip {format_time(self.rtt_s)}, bandwidth-delay product {format_bytes(self.bdp_bytes)}")


def link_delay(n_bytes: float, bandwidth_bps: float, distance_m: float) -> LinkDelay:
    """Serialization and propagation of one ``n_bytes`` message over ``distance_m`` of fibre."""
    n_bytes = validate.positive("n_bytes", n_bytes)
    distance_m = validate.non_negative("distance_m", distance_m)
    return LinkDelay(n_bytes=n_bytes, bandwidth_bps=bandwidth_bps, distance_m=distance_m,
                     serialization_s=serialization_time(n_bytes, bandwidth_bps),
                     propagation_s=propagation_time(distance_m),
                     crossover_m=serialization_propagation_crossover_m(n_bytes, bandwidth_bps))


def draw_link_delay(n_bytes: float, bandwidth_bps: float, distance_m: float):
    """Lab 2's figure: serialization (flat) and propagation (rising) against distance,
    log-log from 1 cm to 100 km, with the chosen distance marked."""
    from netlab import plots

    r = link_delay(n_bytes, bandwidth_bps, distance_m)
    xs = [10.0 ** (k / 4) for k in range(-8, 21)]
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    ax.loglog(xs, [propagation_time(x) * 1e9 for x in xs], color=plots.color("ethernet"), label="propagation")
    ax.axhline(r.serialization_s * 1e9, color=plots.color("infiniband"), label="serialization")
    ax.axvline(r.crossover_m, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.plot([max(distance_m, 1e-2)], [max(r.propagation_s, 1e-12) * 1e9], "o", color=plots.color("vermillion"))
    ax.set_xlabel("fibre length (m)")
    ax.set_ylabel("time (ns)")
    ax.set_title(f"{n_bytes:,.0f} bytes at {format_rate(bandwidth_bps)}: equal at {r.crossover_m:,.1f} m")
    ax.legend(loc="upper left")
    return fig


def draw_path_breakdown(n_bytes: float, bandwidth_bps: float, hops: int, latency_per_hop_s: float):
    """Lab 2's figure: one message's time split (left) and goodput against size (right)."""
    from netlab import plots

    r = path_time(n_bytes, hops, bandwidth_bps, latency_per_hop_s)
    fig, (left, right) = plots.figure(ncols=2, width_in=8.0, height_in=3.2)
    parts: dict[str, Sequence[float]]
    parts = {"serialization": [r.serialization_s / r.time_s * 100],
             "pipeline fill": [r.pipeline_fill_s / r.time_s * 100],
             "per-hop delay": [r.latency_s / r.time_s * 100]}
    plots.bar_breakdown(left, ["message"], parts)
    left.set_xlim(0, 100)
    # one bar as wide as the axes: room above it for the key, which would otherwise sit on the bar
    left.set_ylim(-0.5, 1.5)
    left.legend(loc="upper center")
    left.set_xlabel("share of the message time (%)")
    left.set_title(f"{format_time(r.time_s)} in all")
    sizes = [2.0 ** k for k in range(6, 31)]
    goodput = [path_time(n, hops, bandwidth_bps, latency_per_hop_s).goodput_bps / 1e9 for n in sizes]
    right.semilogx(sizes, goodput, color=plots.color("ethernet"))
    right.axhline(bandwidth_bps / 1e9, color=plots.color("grey"), linestyle="--", linewidth=1)
    right.plot([n_bytes], [r.goodput_bps / 1e9], "o", color=plots.color("vermillion"))
    right.set_xlabel("message size (bytes)")
    right.set_ylabel("goodput (Gb/s)")
    right.set_title(f"{format_rate(bandwidth_bps)} link, {hops} hops")
    return fig

