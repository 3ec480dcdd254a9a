"""A long-haul scenario: two sites, each a switch with its hosts, joined by kilometres of fibre.

Hosts ``h0 .. h{p-1}`` hang off switch ``s0`` (site A), hosts ``h{p} .. h{2p-1}`` off
``s1`` (site B); ``s0`` and ``s1`` are joined by one link whose propagation delay is
that of ``distance_m`` of single-mode fibre (:func:`netlab.links.propagation_time`).
Two experiments run on it, each set beside its closed form in
:mod:`netlab.longhaul.distance`:

* :func:`window_throughput`: one go-back-N flow from site A to site B with at most
  ``window_bytes`` in flight. The measured steady goodput should be
  ``min(B, W / RTT)``: a window below the bandwidth-delay product starves the link.
* :func:`dcqcn_overshoot`: ``n_senders`` DCQCN flows from A to B share the long link.
  The queue in front of it is marked (ECN) at ``kmin_bytes``, but the senders hear
  of it only when a CNP comes back from site B, about one round trip later; until
  then the excess rate keeps filling the queue. The peak is a fixed part (marking
  starts at ``kmin``, the marked packet waits its turn, marks are random) plus one
  RTT of the excess rate, ``(n - 1) * B * RTT / 8``: every extra microsecond of
  round trip costs ``(n - 1) * B * 1 µs`` more buffer. Distance-aware control must
  size buffers and reactions to that RTT.

Timers: go-back-N's retransmission timeout must exceed the long RTT, so both
scenarios set ``rto_s`` to several round trips unless told otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from netlab import links, validate
from netlab.longhaul import distance as longhaul
from netlab.sim.cc import DCQCN
from netlab.sim.network import MAX_SCENARIO_BYTES, SCENARIO_WHY, Network
from netlab.sim.queues import ECNMarking
from netlab.sim.switch import Lossy
from netlab.units import format_bytes, format_rate, format_time

MAX_DISTANCE_M = 2e7               # half the Earth's circumference


def two_sites(hosts_per_site: int, bandwidth_bps: float, distance_m: float,
              long_bandwidth_bps: float | None = None, **network_kwargs) -> Network:
    """Two single-switch sites joined by ``distance_m`` of fibre (not yet run).

    ``long_bandwidth_bps`` is the long link's rate (default: ``bandwidth_bps``);
    other keywords pass to :class:`~netlab.sim.network.Network`.
    """
    p = validate.integer("hosts_per_site", hosts_per_site, minimum=1, maximum=256, why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    distance_m = validate.non_negative("distance_m", distance_m, maximum=MAX_DISTANCE_M,
                                       why="half the Earth's circumference")
    long_bw = bandwidth_bps if long_bandwidth_bps is None else validate.positive(
        "long_bandwidth_bps", long_bandwidth_bps)
    net = Network(**network_kwargs)
    net.add_switch("s0")
    net.add_switch("s1")
    net.connect("s0", "s1", long_bw, links.propagation_time(distance_m))   # port s0[0] faces site B
    for i in range(2 * p):
        net.add_host(f"h{i}")
        net.connect(f"h{i}", "s0" if i < p else "s1", bandwidth_bps)
    return net


def base_rtt(net: Network, data_bytes: int) -> float:
    """Unloaded round trip of a ``data_bytes`` packet from ``h0`` (site A) to the last host
    (site B) and its ACK back: on each of the three links, propagation both ways plus the
    data and ACK serializations (switches store and forward)."""
    data_bytes = validate.integer("data_bytes", data_bytes, minimum=1)
    if not isinstance(net, Network) or "h0" not in net.hosts or set(net.switches) != {"s0", "s1"}:
        raise TypeError("net must be a Network built by two_sites()")
    path = (net.hosts["h0"].port, net.switches["s0"].ports[0], net.hosts[f"h{len(net.hosts) - 1}"].port)
    return sum(2 * port.propagation_s + (data_bytes + net.ack_bytes) * 8 / port.bandwidth_bps for port in path)


@dataclass(frozen=True)
class WindowRun:
    """One window-limited flow across the long link: simulated vs closed form."""

    distance_m: float
    window_bytes: float
    rtt_s: float                  # unloaded RTT of the path (fibre + serialization)
    bdp_bytes: float              # payload rate * RTT / 8
    simulated_goodput_bps: float  # steady rate between 20 % and 80 % delivered
    predicted_goodput_bps: float  # min(payload rate, window payload * 8 / RTT)
    events: int

    @property
    def ratio(self) -> float:
        """Simulated over predicted goodput (1 means agreement)."""
        return self.simulated_goodput_bps / self.predicted_goodput_bps

    def __repr__(self) -> str:
        return (f"WindowRun({self.distance_m / 1e3:g} km, window {format_bytes(self.window_bytes)}, "
                f"RTT {format_time(self.rtt_s)}, BDP {format_bytes(self.bdp_bytes)}: simulated "
                f"{format_rate(self.simulated_goodput_bps)} vs predicted {format_rate(self.predicted_goodput_bps)})")


def window_throughput(distance_m: float, bandwidth_bps: float, window_bytes: float, size_bytes: int,
                      seed: int = 0) -> WindowRun:
    """Run one go-back-N flow A -> B with ``window_bytes`` in flight; compare with ``min(B, W/RTT)``."""
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    window_bytes = validate.positive("window_bytes", window_bytes)
    probe = two_sites(1, bandwidth_bps, distance_m)
    mtu, header = probe.mtu_bytes, probe.header_bytes
    rtt = base_rtt(probe, mtu + header)
    net = two_sites(1, bandwidth_bps, distance_m, seed=seed, window_bytes=window_bytes,
                    rto_s=10 * rtt + 1e-3, flow_control=Lossy(1e12))
    net.add_flow("h0", "h1", size_bytes)
    expected_s = size_bytes * 8 / bandwidth_bps + rtt
    net.sample_flows(expected_s / 200)
    result = net.run(max_events=5_000_000)
    times, delivered = result.flow_traces[0].time_s, result.flow_traces[0].delivered_bytes
    payload_rate = bandwidth_bps * mtu / (mtu + header)
    window_payload = max(1, int(window_bytes // mtu)) * mtu
    return WindowRun(distance_m=distance_m, window_bytes=window_bytes, rtt_s=rtt,
                     bdp_bytes=links.bandwidth_delay_product(payload_rate, rtt),
                     simulated_goodput_bps=_steady_rate(times, delivered, size_bytes),
                     predicted_goodput_bps=longhaul.window_limited_rate(window_payload, rtt, payload_rate),
                     events=result.events_processed)


def _steady_rate(times, delivered, size_bytes: int) -> float:
    """Slope of delivered bytes between the samples where 20 % and 80 % had arrived, bit/s."""
    lo = next((i for i, d in enumerate(delivered) if d >= 0.2 * size_bytes), None)
    hi = next((i for i, d in enumerate(delivered) if d >= 0.8 * size_bytes), None)
    if lo is None or hi is None or hi <= lo:
        raise ValueError(f"size_bytes must span several sampling intervals (a flow of many packets, e.g. "
                         f">= 100 x the window), got {size_bytes}")
    return (delivered[hi] - delivered[lo]) * 8 / (times[hi] - times[lo])


@dataclass(frozen=True)
class OvershootRun:
    """DCQCN flows sharing a long link: the peak queue in front of it vs one RTT of excess."""

    distance_m: float
    n_senders: int
    rtt_s: float
    kmin_bytes: float
    peak_queue_bytes: float           # simulated, at s0's port to the long link
    rtt_excess_bytes: float           # (n - 1) * B * RTT / 8: one round trip of the excess rate
    dropped_packets: int

    def __repr__(self) -> str:
        return (f"OvershootRun({self.distance_m / 1e3:g} km, {self.n_senders} DCQCN senders, RTT "
                f"{format_time(self.rtt_s)}: peak queue {format_bytes(self.peak_queue_bytes)}, of which one RTT "
                f"of excess rate is {format_bytes(self.rtt_excess_bytes)})")


def dcqcn_overshoot(distance_m: float, bandwidth_bps: float, n_senders: int = 2, size_bytes: int = 2_000_000,
                    kmin_bytes: float = 100_000, kmax_bytes: float = 400_000, seed: int = 0) -> OvershootRun:
    """``n_senders`` DCQCN flows from site A to site B start together at line rate.

    The long link is as fast as one host link, so the queue at ``s0[0]`` grows at
    ``(n - 1) * B`` until the first CNPs, about one RTT after marking starts.
    Buffers are deep enough that nothing is dropped.
    """
    n = validate.integer("n_senders", n_senders, minimum=2, maximum=16)
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    kmin_bytes = validate.non_negative("kmin_bytes", kmin_bytes)
    probe = two_sites(n, bandwidth_bps, distance_m)
    rtt = base_rtt(probe, probe.mtu_bytes + probe.header_bytes)
    net = two_sites(n, bandwidth_bps, distance_m, seed=seed, rto_s=10 * rtt + 1e-3,
                    flow_control=Lossy(1e12), ecn=ECNMarking(kmin_bytes, kmax_bytes, 1.0))
    for i in range(n):
        net.add_flow(f"h{i}", f"h{n + i}", size_bytes, cc=DCQCN)
    result = net.run(max_events=5_000_000)
    peak = next(p.max_queue_bytes for p in result.ports if p.name == "s0[0]")
    return OvershootRun(distance_m=distance_m, n_senders=n, rtt_s=rtt, kmin_bytes=kmin_bytes,
                        peak_queue_bytes=peak,
                        rtt_excess_bytes=(n - 1) * bandwidth_bps * rtt / 8,
                        dropped_packets=result.dropped_packets)
