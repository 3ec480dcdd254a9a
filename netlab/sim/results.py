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
        for p in self.ports:
            if p.name == name:
                return p
        raise KeyError(f"no port {name!r}; ports: {[p.name for p in self.ports][:12]}...")

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
