"""What a simulation run reports, as frozen dataclasses.

:class:`RunResult` holds per-flow results (:class:`FlowResult`: completion time,
goodput, retransmissions, reordering), per-port counters (:class:`PortStats`:
bytes sent, drops, PFC pause events and paused time, peak queue, lowest credit),
queue occupancy samples (:class:`QueueTrace`), byte accounting for the
conservation check, why the run stopped, and the events processed.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab.units import format_bytes, format_rate, format_time


@dataclass(frozen=True)
class FlowResult:
    """One flow. ``completion_time_s`` is from its start to the receiver holding every
    byte (``nan`` if it did not finish); ``goodput_bps = size_bytes * 8 / completion_time_s``."""

    flow_id: int
    src: str
    dst: str
    size_bytes: int
    start_s: float
    finished: bool
    completion_time_s: float
    goodput_bps: float
    delivered_bytes: int
    duplicate_bytes: int
    packets_sent: int
    retransmitted_packets: int
    timeouts: int
    out_of_order_packets: int

    def __repr__(self) -> str:
        if not self.finished:
            return (f"FlowResult({self.flow_id} {self.src}->{self.dst}: unfinished, "
                    f"{format_bytes(self.delivered_bytes)} of {format_bytes(self.size_bytes)})")
        return (f"FlowResult({self.flow_id} {self.src}->{self.dst}: {format_bytes(self.size_bytes)} in "
                f"{format_time(self.completion_time_s)}, {format_rate(self.goodput_bps)}, "
                f"{self.retransmitted_packets} resent, {self.timeouts} timeouts)")


@dataclass(frozen=True)
class PortStats:
    """One transmitting port ``node[index]`` towards ``peer``."""

    name: str
    peer: str
    tx_bytes: int
    tx_packets: int
    dropped_packets: int
    dropped_bytes: int
    pause_events: int
    paused_time_s: float
    max_queue_bytes: int
    min_credits_bytes: float     # nan where the link has no credit flow control


@dataclass(frozen=True)
class QueueTrace:
    """Occupancy of one output queue sampled every ``interval_s``."""

    port: str
    interval_s: float
    time_s: tuple[float, ...]
    queue_bytes: tuple[int, ...]


@dataclass(frozen=True)
class FlowTrace:
    """Bytes one flow's receiver held, sampled every ``interval_s`` (differences give rates)."""

    flow_id: int
    interval_s: float
    time_s: tuple[float, ...]
    delivered_bytes: tuple[int, ...]

    def rates_bps(self) -> tuple[float, ...]:
        """Goodput in each sampling interval, bit/s."""
        d, t = self.delivered_bytes, self.time_s
        return tuple((d[i] - d[i - 1]) * 8 / (t[i] - t[i - 1]) for i in range(1, len(d)))


@dataclass(frozen=True)
class RunResult:
    """Everything a run reports. ``stop_reason``: ``"complete"`` (every flow done),
    ``"idle"`` (nothing left to do), ``"until"``, ``"max_events"`` or ``"deadlock"``."""

    stop_reason: str
    time_s: float
    events_processed: int
    flows: tuple[FlowResult, ...]
    ports: tuple[PortStats, ...]
    queue_traces: tuple[QueueTrace, ...]
    dropped_packets: int
    dropped_bytes: int
    pfc_frames: int
    sent_bytes: int              # data bytes (wire size) put on the wire by hosts, resends included
    received_bytes: int          # data bytes that reached a host NIC, duplicates included
    trimmed_bytes: int           # bytes cut off by trimming queues
    in_flight_bytes: int         # data bytes still in queues, switch pipelines or on wires
    deadlock_cycle: tuple[str, ...] = ()
    flow_traces: tuple[FlowTrace, ...] = ()

    @property
    def all_finished(self) -> bool:
        return all(f.finished for f in self.flows)

    @property
    def max_completion_time_s(self) -> float:
        """The slowest flow's completion time (``inf`` if one did not finish)."""
        return max((f.completion_time_s if f.finished else math.inf) for f in self.flows)

    def port(self, name: str) -> PortStats:
        """The stats of the port called ``name`` (e.g. ``"s0[3]"``)."""
        if not isinstance(name, str):
            raise TypeError(f"name must be a port name such as 's0[3]', got {type(name).__name__} {name!r:.80}")
        for p in self.ports:
            if p.name == name:
                return p
        raise ValueError(f"name: no port {name!r}; ports: {[p.name for p in self.ports][:12]}...")

    @property
    def total_pause_events(self) -> int:
        return sum(p.pause_events for p in self.ports)

    def __repr__(self) -> str:
        done = sum(f.finished for f in self.flows)
        text = (f"RunResult({self.stop_reason} at {format_time(self.time_s)}: {done}/{len(self.flows)} flows "
                f"done, {self.dropped_packets} drops, {self.total_pause_events} pauses, "
                f"{self.events_processed} events")
        if self.deadlock_cycle:
            text += f"; deadlock cycle {' -> '.join(self.deadlock_cycle)}"
        return text + ")"


def collect(network, reason: str) -> RunResult:
    """Read a :class:`~netlab.sim.network.Network` after a run into a :class:`RunResult`."""
    now = network.sim.now_s
    flows = []
    for f in network.flows:
        s, r = f.sender, f.receiver
        finished = r.complete_s is not None
        fct = r.complete_s - f.start_s if finished else math.nan
        goodput = (f.size_bytes * 8 / fct if fct > 0 else math.inf) if finished else 0.0
        flows.append(FlowResult(
            flow_id=f.flow_id, src=f.src.name, dst=f.dst.name, size_bytes=f.size_bytes,
            start_s=f.start_s, finished=finished, completion_time_s=fct, goodput_bps=goodput,
            delivered_bytes=r.delivered_bytes, duplicate_bytes=r.duplicate_bytes,
            packets_sent=s.packets_sent, retransmitted_packets=s.retransmitted_packets,
            timeouts=s.timeouts, out_of_order_packets=r.out_of_order_packets))
    ports, queued = [], 0
    for node in list(network.hosts.values()) + list(network.switches.values()):
        queues = getattr(node, "queues", None)          # switches have output queues, hosts not
        for p in node.ports:
            q = queues[p.index] if queues is not None else None
            drops = network.drops_by_port.get(p.name, [0, 0])
            ports.append(PortStats(
                name=p.name, peer=p.peer.name, tx_bytes=p.tx_bytes, tx_packets=p.tx_packets,
                dropped_packets=drops[0], dropped_bytes=drops[1], pause_events=p.pause_events,
                paused_time_s=p.paused_time_until(now), max_queue_bytes=q.max_bytes if q else 0,
                min_credits_bytes=math.nan if p.credits_bytes is None else p.min_credits_bytes))
            if q is not None:                               # data bytes still queued, counted afresh
                queued += sum(pk.size_bytes for fifo in q.fifos for pk in fifo if pk.kind == "data")
    traces = tuple(QueueTrace(name, interval, tuple(t), tuple(v))
                   for name, (_, interval, t, v) in network._traces.items())
    flow_traces: tuple[FlowTrace, ...] = ()
    if network._flow_sampling is not None:
        interval, times, values = network._flow_sampling
        flow_traces = tuple(FlowTrace(f.flow_id, interval, tuple(times), tuple(v[i] for v in values))
                            for i, f in enumerate(network.flows))
    return RunResult(
        stop_reason=reason, time_s=now, events_processed=network.sim.events_processed,
        flows=tuple(flows), ports=tuple(ports), queue_traces=traces, flow_traces=flow_traces,
        dropped_packets=network.dropped_packets, dropped_bytes=network.dropped_bytes,
        pfc_frames=network.pfc_frames, sent_bytes=network.sent_bytes,
        received_bytes=network.received_bytes, trimmed_bytes=network.trimmed_bytes,
        in_flight_bytes=queued + network.wire_bytes + network.pipeline_bytes,
        deadlock_cycle=network.deadlock_cycle)
