"""Small, named experiments on the simulator, sized to run in well under a second.

Each function builds a network, runs it and returns a frozen result with the
figures chapter 4 discusses (and the full :class:`~netlab.sim.results.RunResult`):

* :func:`incast` -- N senders to one receiver: lossy drop-tail vs PFC vs credits;
  the ideal time is the receiver link busy from start to end.
* :func:`victim` -- head-of-line blocking: an incast on one switch pauses the link
  between two switches, slowing a flow to an idle receiver (``guo-rdma-at-scale``).
* :func:`deadlock` -- four switches in a ring with routes that form a cycle of
  buffer dependencies: PFC (or credits) stop everything (``hu-deadlock``).
* :func:`pause_storm` -- a receiver NIC stuck sending PAUSE: the pause spreads back
  through the fabric and stops flows that never go near that receiver
  (``guo-rdma-at-scale``).
* :func:`dcqcn_sharing` -- flows with DCQCN on one bottleneck (``zhu-dcqcn``).

``mode`` is ``"lossy"``, ``"pfc"`` or ``"credits"``; sizes in bytes, rates in bit/s.
"""

from __future__ import annotations

from dataclasses import dataclass
import functools

from netlab import specs, validate
from netlab.sim.network import MAX_SCENARIO_BYTES, SCENARIO_WHY
from netlab.sim.cc import DCQCN
from netlab.sim.queues import ECNMarking
from netlab.sim.results import RunResult
from netlab.sim.switch import PFC, Credits, Lossy
from netlab.sim.topology import chain, ring, single_switch
from netlab.units import format_rate, format_time

MODES = ("lossy", "pfc", "credits")


def flow_control(mode: str, buffer_bytes: float):
    """The flow-control object for ``mode`` with ``buffer_bytes`` per port."""
    mode = validate.choice("mode", mode, MODES)
    buffer_bytes = validate.positive("buffer_bytes", buffer_bytes)
    return {"lossy": Lossy, "pfc": PFC, "credits": Credits}[mode](buffer_bytes)


@dataclass(frozen=True)
class IncastResult:
    """An N-to-1 incast. ``goodput_fraction`` = ideal time / completion time."""

    mode: str
    n_senders: int
    completion_time_s: float      # until the last byte of the last flow arrived
    ideal_time_s: float           # all wire bytes back to back on the receiver's link
    goodput_bps: float
    goodput_fraction: float
    dropped_packets: int
    retransmitted_packets: int
    timeouts: int
    pause_events: int
    run: RunResult

    @property
    def slowdown(self) -> float:
        """Completion time over the ideal time (1.0 = the receiver's link never idle)."""
        return self.completion_time_s / self.ideal_time_s

    def __repr__(self) -> str:
        return (f"IncastResult({self.mode}, {self.n_senders} senders: {format_time(self.completion_time_s)} "
                f"({self.slowdown:.1f}x the ideal time), {self.dropped_packets} drops, "
                f"{self.timeouts} timeouts, {self.pause_events} pauses)")

    def __str__(self) -> str:
        return (f"{self.mode}, {self.n_senders} senders: done in {format_time(self.completion_time_s)}, "
                f"{self.slowdown:,.1f} times the ideal {format_time(self.ideal_time_s)}; "
                f"{self.dropped_packets} drops, {self.timeouts} timeouts, {self.pause_events} pause events")


def incast(mode: str, n_senders: int, size_bytes: int = 64_000, buffer_bytes: float = 100e3,
           bandwidth_bps: float = 100e9, rto_s: float | None = None, seed: int = 0,
           sample_interval_s: float | None = None) -> IncastResult:
    """``n_senders`` flows of ``size_bytes`` into one receiver through one switch.

    ``rto_s`` defaults to 100 µs in the lossy mode (a short timer, so the collapse shows
    within microseconds; the ratio grows with the timer) and to a RoCE adapter's local
    ACK timeout in the lossless modes (``transport.roce.default_ack_timeout``, 67.1 ms):
    there a packet only waits, and a 100 µs timer would fire on queued data -- 127
    senders x 2 MB resend tens of thousands of packets that were never lost.
    """
    n_senders = validate.integer("n_senders", n_senders, minimum=1, maximum=512)
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    if rto_s is None:
        rto_s = 100e-6 if mode == "lossy" else specs.value("transport.roce.default_ack_timeout")
    rto_s = validate.positive("rto_s", rto_s)
    if sample_interval_s is not None:
        validate.positive("sample_interval_s", sample_interval_s)
    net = single_switch(n_senders + 1, bandwidth_bps, flow_control=flow_control(mode, buffer_bytes),
                        rto_s=rto_s, seed=seed)
    for i in range(1, n_senders + 1):
        net.add_flow(f"h{i}", "h0", size_bytes)
    if sample_interval_s is not None:
        net.sample_queues(["s0[0]"], sample_interval_s)
    run = net.run(until_s=1.0, max_events=2_000_000)
    mtu, hdr = net.mtu_bytes, net.header_bytes
    wire = n_senders * (size_bytes + -(-size_bytes // mtu) * hdr)
    ideal = wire * 8 / bandwidth_bps
    done = run.max_completion_time_s
    return IncastResult(
        mode=mode, n_senders=n_senders, completion_time_s=done, ideal_time_s=ideal,
        goodput_bps=n_senders * size_bytes * 8 / done, goodput_fraction=ideal / done,
        dropped_packets=run.dropped_packets,
        retransmitted_packets=sum(f.retransmitted_packets for f in run.flows),
        timeouts=sum(f.timeouts for f in run.flows), pause_events=run.total_pause_events, run=run)


@dataclass(frozen=True)
class VictimResult:
    """A flow to an idle receiver sharing one inter-switch link with an incast."""

    mode: str
    victim_time_s: float          # the victim's completion time in company
    victim_alone_s: float         # the same flow on an empty network
    slowdown: float               # victim_time_s / victim_alone_s
    shared_link_paused_s: float   # time the s0 -> s1 link was paused
    run: RunResult

    def __repr__(self) -> str:
        return (f"VictimResult({self.mode}: victim {format_time(self.victim_time_s)} vs "
                f"{format_time(self.victim_alone_s)} alone (x{self.slowdown:.1f}); shared link paused "
                f"{format_time(self.shared_link_paused_s)})")

    def __str__(self) -> str:
        if self.shared_link_paused_s > 0:
            paused = f"the shared link s0 -> s1 was paused for {format_time(self.shared_link_paused_s)}"
        elif self.mode == "credits":
            paused = "no pause frames: the shared link s0 -> s1 waited for credit instead"
        else:
            paused = "the shared link s0 -> s1 was never paused"
        return (f"{self.mode}: the victim took {format_time(self.victim_time_s)} against "
                f"{format_time(self.victim_alone_s)} alone, {self.slowdown:.1f} times longer; {paused}")


def victim(mode: str, size_bytes: int = 300_000, buffer_bytes: float = 100e3,
           bandwidth_bps: float = 100e9, rto_s: float = 100e-6, seed: int = 0,
           sample_interval_s: float | None = None) -> VictimResult:
    """Two switches ``s0 - s1`` with four hosts each (``h0..h3`` on ``s0``). ``h1, h2``
    (on ``s0``) and ``h5, h6`` (on ``s1``) send ``size_bytes`` to ``h4``; the victim
    ``h0`` sends ``size_bytes`` to the idle ``h7`` over the same ``s0 -> s1`` link."""
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    rto_s = validate.positive("rto_s", rto_s)
    if sample_interval_s is not None:
        validate.positive("sample_interval_s", sample_interval_s)

    def build():
        return chain(2, 4, bandwidth_bps, flow_control=flow_control(mode, buffer_bytes), rto_s=rto_s, seed=seed)

    net = build()
    for src in ("h1", "h2", "h5", "h6"):
        net.add_flow(src, "h4", size_bytes)
    net.add_flow("h0", "h7", size_bytes)
    if sample_interval_s is not None:
        net.sample_flows(sample_interval_s)
    run = net.run(until_s=1.0, max_events=2_000_000)
    alone_net = build()
    alone_net.add_flow("h0", "h7", size_bytes)
    alone = alone_net.run().flows[0].completion_time_s
    t = run.flows[-1].completion_time_s
    return VictimResult(mode=mode, victim_time_s=t, victim_alone_s=alone, slowdown=t / alone,
                        shared_link_paused_s=run.port(f"s0[{_port_towards(net, 's0', 's1')}]").paused_time_s,
                        run=run)


def _port_towards(net, a: str, b: str) -> int:
    return next(p.index for p in net.switches[a].ports if p.peer.name == b)


def deadlock(mode: str = "pfc", size_bytes: int = 1_000_000, buffer_bytes: float = 60e3,
             bandwidth_bps: float = 100e9, clockwise: bool = True, seed: int = 0) -> RunResult:
    """Four switches in a ring, one host each, host ``i`` sending to host ``i + 2``.
    With ``clockwise=True`` all traffic goes the same way round: each ring link carries
    two flows, buffers fill, and each switch waits for the next -- a cycle."""
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    net = ring(4, 1, bandwidth_bps, clockwise=clockwise, flow_control=flow_control(mode, buffer_bytes),
               seed=seed, rto_s=1e-3)
    for i in range(4):
        net.add_flow(f"h{i}", f"h{(i + 2) % 4}", size_bytes)
    return net.run(until_s=0.1, max_events=2_000_000)


@dataclass(frozen=True)
class StormResult:
    """What a stuck PAUSE stops: the victim's delivered share and every port left paused."""

    mode: str
    victim_delivered_fraction: float   # of the victim flow's bytes, by the end of the run
    paused_ports: tuple[str, ...]      # ports paused at the end of the run
    run: RunResult

    def __repr__(self) -> str:
        return (f"StormResult({self.mode}: victim got {self.victim_delivered_fraction:.0%} of its data; "
                f"{len(self.paused_ports)} ports paused: {', '.join(self.paused_ports)})")

    def __str__(self) -> str:
        ports = ", ".join(self.paused_ports) if self.paused_ports else "none"
        count = f"{len(self.paused_ports)} port{'' if len(self.paused_ports) == 1 else 's'}"
        return (f"{self.mode}: the victim delivered {self.victim_delivered_fraction:.0%} of its data; "
                f"{count} still paused at the end ({ports})")


def pause_storm(mode: str = "pfc", size_bytes: int = 300_000, storm_start_s: float = 10e-6,
                duration_s: float = 300e-6, buffer_bytes: float = 100e3, bandwidth_bps: float = 100e9,
                seed: int = 0) -> StormResult:
    """The network of :func:`victim`; at ``storm_start_s`` the NIC of ``h4`` starts pausing
    its switch port for good (a malfunctioning NIC). ``h1, h2, h5`` send to ``h4``; the
    victim ``h0`` sends to ``h7``, which works normally. Runs ``duration_s``."""
    size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    storm_start_s = validate.non_negative("storm_start_s", storm_start_s)
    duration_s = validate.positive("duration_s", duration_s, maximum=1.0, why=SCENARIO_WHY)
    net = chain(2, 4, bandwidth_bps, flow_control=flow_control(mode, buffer_bytes), rto_s=1.0, seed=seed)
    for src in ("h1", "h2", "h5"):
        net.add_flow(src, "h4", size_bytes)
    victim_flow = net.add_flow("h0", "h7", size_bytes)
    stuck = net.switches["s1"].ports[_port_towards_host(net, "s1", "h4")]
    net.sim.at(storm_start_s, stuck.set_paused, 0, True)
    run = net.run(until_s=duration_s, max_events=2_000_000)
    paused = tuple(p.name for node in list(net.hosts.values()) + list(net.switches.values())
                   for p in node.ports if p.n_paused)
    return StormResult(mode=mode, victim_delivered_fraction=run.flows[victim_flow.flow_id].delivered_bytes
                       / size_bytes, paused_ports=paused, run=run)


def _port_towards_host(net, switch: str, host: str) -> int:
    return next(p.index for p in net.switches[switch].ports if p.peer.name == host)


@dataclass(frozen=True)
class SharingResult:
    """Flows sharing one bottleneck: per-flow goodput over time and the queue."""

    n_flows: int
    time_s: tuple[float, ...]                 # ends of the sampling intervals
    rates_bps: tuple[tuple[float, ...], ...]  # one tuple per flow
    queue_time_s: tuple[float, ...]
    queue_bytes: tuple[int, ...]
    fair_share_bps: float                     # payload goodput per flow if the link is shared equally
    run: RunResult

    def mean_rates_bps(self, since_s: float) -> tuple[float, ...]:
        """Each flow's mean goodput over the sampling intervals that end after ``since_s``."""
        since_s = validate.non_negative("since_s", since_s)
        keep = [i for i, t in enumerate(self.time_s) if t > since_s]
        if not keep:
            raise ValueError(f"since_s must be before the last sample ({self.time_s[-1]} s), got {since_s}")
        return tuple(sum(r[i] for i in keep) / len(keep) for r in self.rates_bps)

    def mean_queue_bytes(self, since_s: float) -> float:
        """The bottleneck queue's mean over the samples after ``since_s``."""
        since_s = validate.non_negative("since_s", since_s)
        kept = [b for t, b in zip(self.queue_time_s, self.queue_bytes) if t > since_s]
        if not kept:
            raise ValueError(f"since_s must be before the last sample ({self.queue_time_s[-1]} s), got {since_s}")
        return sum(kept) / len(kept)

    def jain_index(self, since_s: float) -> float:
        """Jain's fairness index of the mean rates after ``since_s``: 1 when all are equal."""
        m = self.mean_rates_bps(since_s)
        return sum(m) ** 2 / (len(m) * sum(x * x for x in m))

    def __repr__(self) -> str:
        last = ", ".join(format_rate(r[-1]) for r in self.rates_bps)
        return f"SharingResult({self.n_flows} flows, last interval: {last}; fair {format_rate(self.fair_share_bps)})"

    def __str__(self) -> str:
        half = self.time_s[-1] / 2
        shares = ", ".join(f"{m / self.fair_share_bps:.0%}" for m in self.mean_rates_bps(half))
        return (f"{self.n_flows} flows, over the second half of the run each got {shares} of the fair share "
                f"{format_rate(self.fair_share_bps)} (Jain index {self.jain_index(half):.3f}); mean queue "
                f"{self.mean_queue_bytes(half) / 1e3:.0f} KB, largest {max(self.queue_bytes) / 1e3:.0f} KB")


def dcqcn_sharing(n_flows: int, ecn: bool = True, duration_s: float = 0.1, bandwidth_bps: float = 40e9,
                  stagger_s: float = 200e-6, rate_ai_bps: float = 40e6, seed: int = 0,
                  sample_interval_s: float = 5e-3, kmin_bytes: float | None = None,
                  kmax_bytes: float | None = None, pmax: float | None = None,
                  byte_counter_bytes: float | None = None) -> SharingResult:
    """``n_flows`` long flows (one per sender, started ``stagger_s`` apart) into one receiver
    with PFC. With ``ecn`` the switch marks with the DCQCN paper's profile (registry
    ``dcqcn.paper.*``: 5-200 KB, at most 1 %, 100 % above 200 KB, chosen for 40 Gb/s) and the
    senders run :class:`~netlab.sim.cc.DCQCN` with additive increase ``rate_ai_bps`` (hyper
    increase 5x that) and a byte counter of ``byte_counter_bytes`` (registry
    ``assume.dcqcn.byte_counter``, 10 MB). The queue is sampled every
    ``min(sample_interval_s / 10, 20 µs)``."""
    n_flows = validate.integer("n_flows", n_flows, minimum=1, maximum=16)
    validate.boolean("ecn", ecn)
    duration_s = validate.positive("duration_s", duration_s, maximum=1.0, why=SCENARIO_WHY)
    stagger_s = validate.non_negative("stagger_s", stagger_s, maximum=1.0, why="the longest run is 1 s")
    rate_ai_bps = validate.positive("rate_ai_bps", rate_ai_bps)
    sample_interval_s = validate.positive("sample_interval_s", sample_interval_s)
    if duration_s < sample_interval_s:   # no sample at all: nothing to report (repr raised IndexError)
        raise ValueError(f"duration_s must be >= sample_interval_s ({sample_interval_s:g} s), got {duration_s:g}")
    kmin = specs.value("dcqcn.paper.kmin") if kmin_bytes is None else validate.non_negative("kmin_bytes", kmin_bytes)
    kmax = specs.value("dcqcn.paper.kmax") if kmax_bytes is None else validate.positive("kmax_bytes", kmax_bytes)
    pmax = specs.value("dcqcn.paper.pmax") if pmax is None else validate.in_range("pmax", pmax, 0.0, 1.0)
    counter = (specs.value("assume.dcqcn.byte_counter") if byte_counter_bytes is None
               else validate.positive("byte_counter_bytes", byte_counter_bytes))
    net = single_switch(n_flows + 1, bandwidth_bps, flow_control=PFC(1_000_000), seed=seed,
                        ecn=ECNMarking(kmin, kmax, pmax) if ecn else None)
    cc = functools.partial(DCQCN, rate_ai_bps=rate_ai_bps, rate_hai_bps=5 * rate_ai_bps,
                           byte_counter_bytes=counter) if ecn else None
    for i in range(1, n_flows + 1):
        net.add_flow(f"h{i}", "h0", 10**12, start_s=(i - 1) * stagger_s, cc=cc)
    net.sample_flows(sample_interval_s)
    net.sample_queues(["s0[0]"], min(sample_interval_s / 10, 20e-6))
    run = net.run(until_s=duration_s, max_events=50_000_000)
    traces = run.flow_traces
    q = run.queue_traces[0]
    fair = bandwidth_bps * net.mtu_bytes / (net.mtu_bytes + net.header_bytes) / n_flows
    return SharingResult(n_flows=n_flows, time_s=traces[0].time_s[1:],
                         rates_bps=tuple(t.rates_bps() for t in traces), queue_time_s=q.time_s,
                         queue_bytes=q.queue_bytes, fair_share_bps=fair, run=run)
