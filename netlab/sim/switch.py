"""Switches: forwarding, load balancing and per-port flow control.

A packet arriving at a switch is charged to its ingress port's buffer (in the
lossless modes), routed to one of the equal-cost output ports towards its
destination, delayed by the switch's forwarding latency, and offered to that
port's :class:`~netlab.sim.queues.OutputQueue`. When it leaves, its buffer charge
is released. What happens when buffers fill is the flow-control mode:

``Lossy(buffer_bytes)``
    each output queue holds ``buffer_bytes``; the queue policy drops (or trims)
    what does not fit. Classic Ethernet.
``PFC(buffer_bytes, xoff_bytes, xon_bytes)``
    each ingress port (per priority) may buffer ``buffer_bytes``; above
    ``xoff_bytes`` the switch sends PAUSE upstream, below ``xon_bytes`` RESUME.
    The gap ``buffer_bytes - xoff_bytes`` is the *headroom* for bytes already on
    the wire; if it is at least a round trip of the link plus two packets, nothing is
    ever dropped (IEEE 802.1Qbb; references ``ieee8021qbb``, ``guo2016rdma``).
``Credits(buffer_bytes)``
    the upstream port starts with ``buffer_bytes`` of credit and spends it per
    packet; the switch returns it when the packet leaves. Nothing can be dropped
    (InfiniBand link-level flow control; reference ``ibta-spec``).

A switch is *store-and-forward* (a packet is forwarded after it has fully
arrived) or *cut-through* (after its ``header_bytes`` have arrived); either way
``latency_s`` is added for the forwarding decision.

EXTENSION POINT: load balancing. ``LoadBalancer.choose(switch, packet, candidates)``
returns one port index from ``candidates`` (the equal-cost ports towards
``packet.dst``). :class:`ECMP` hashes the flow's addresses and ``entropy``, so a
flow keeps one path. A policy may read ``switch.queues[i].bytes`` (queue depth)
and ``switch.ports[i]`` (rates, pause state) to adapt.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
from zlib import crc32

from netlab import validate
from netlab.sim.ecmphash import flow_hash
from netlab.sim.packet import DATA
from netlab.sim.port import Port
from netlab.sim.queues import DropTail, OutputQueue, QueuePolicy


@dataclass(frozen=True)
class Lossy:
    """Drop-tail Ethernet: each output queue holds ``buffer_bytes``."""

    buffer_bytes: float

    def __post_init__(self) -> None:
        validate.non_negative("buffer_bytes", self.buffer_bytes)


@dataclass(frozen=True)
class PFC:
    """Priority flow control: per ingress port and priority, pause above ``xoff_bytes``,
    resume below ``xon_bytes``; ``buffer_bytes`` is the most an ingress may hold.
    ``None`` thresholds default to ``xoff = buffer - headroom`` (headroom: a link round
    trip plus two maximum packets, computed per link) and ``xon = xoff / 2``."""

    buffer_bytes: float
    xoff_bytes: float | None = None
    xon_bytes: float | None = None

    def __post_init__(self) -> None:
        validate.positive("buffer_bytes", self.buffer_bytes)
        if self.xoff_bytes is not None:
            validate.in_range("xoff_bytes", self.xoff_bytes, 0.0, self.buffer_bytes)
        if self.xon_bytes is not None:
            top = self.xoff_bytes if self.xoff_bytes is not None else self.buffer_bytes
            validate.in_range("xon_bytes", self.xon_bytes, 0.0, top)


@dataclass(frozen=True)
class Credits:
    """InfiniBand-style credits: ``buffer_bytes`` of receive buffer per ingress port."""

    buffer_bytes: float

    def __post_init__(self) -> None:
        validate.positive("buffer_bytes", self.buffer_bytes)


class LoadBalancer:
    """EXTENSION POINT: pick an output port among equal-cost ``candidates``.

    Called once per packet per switch when there is more than one candidate.
    Must return an element of ``candidates``. Subclasses may keep state per switch
    (e.g. in a dict keyed by ``switch.name``).
    """

    def choose(self, switch: "Switch", packet, candidates: tuple[int, ...]) -> int:
        raise NotImplementedError


class ECMP(LoadBalancer):
    """Per-flow ECMP: CRC-32 of (src, dst, entropy, switch salt) modulo the candidates.

    Every packet of a flow carries the same ``entropy`` (as RoCEv2 keeps one UDP source
    port per queue pair), so a flow sticks to one path; two flows collide on a path
    with the probability of balls falling into the same bin.
    """

    def choose(self, switch: "Switch", packet, candidates: tuple[int, ...]) -> int:
        # (flow_hash: CRC-32 of the four as little-endian 32-bit words, see netlab.sim.ecmphash)
        sw, p = switch, packet          # fast path: typed in the compiled build, their fields read as C fields
        return candidates[flow_hash(p.src, p.dst, p.entropy & 0xFFFFFFFF, sw.salt) % len(candidates)]


class Switch:
    """A switch: ports, output queues, routes, flow control and forwarding latency."""

    def __init__(self, network, name: str, flow_control, latency_s: float, cut_through: bool,
                 header_bytes: int, queue_policy: QueuePolicy | None,
                 load_balancer: LoadBalancer, n_priorities: int = 8) -> None:
        if not isinstance(flow_control, (Lossy, PFC, Credits)):
            raise TypeError(f"flow_control must be Lossy, PFC or Credits, got {flow_control!r}")
        self.network = network
        self.sim = network.sim
        self.name = name
        self.flow_control = flow_control
        self.latency_s = validate.non_negative("switch latency_s", latency_s, maximum=1.0,
                                               why="real switches forward in 0.1 to a few µs")
        self.cut_through = validate.boolean("cut_through", cut_through)
        self.header_bytes = header_bytes
        if queue_policy is not None and not isinstance(queue_policy, QueuePolicy):   # (before a typed field takes it)
            raise TypeError(f"queue_policy must be a netlab.sim.QueuePolicy instance such as DropTail(), "
                            f"got {queue_policy!r}")
        self.queue_policy = queue_policy if queue_policy is not None else DropTail()
        if not isinstance(flow_control, (Lossy, PFC, Credits)):
            raise TypeError(f"flow_control must be Lossy(...), PFC(...) or Credits(...), got {flow_control!r}")
        self.load_balancer = load_balancer
        self.n_priorities = n_priorities
        self.salt = crc32(name.encode())
        self.ports: list[Port] = []
        self.queues: list[OutputQueue] = []
        self.routes: dict[int, tuple[int, ...]] = {}   # host id -> port indices: own hosts, hand-set routes
        self.by_edge: list = []                        # edge switch number -> port indices (routing.py)
        self.edge_of: list[int] = []                   # host id -> its edge switch's number (the network's)
        self.set_by_hand = False                       # does ``routes`` hold a hand-set route (Network.set_route)?
        self.ingress_bytes: list[list[int]] = []       # [port][priority], lossless modes
        self.pausing: list[list[bool]] = []            # [port][priority]: we paused upstream
        self.xoff: list[float] = []
        self.xon: list[float] = []
        # fast path: the flow-control mode as flags, read per packet
        self._pfc = isinstance(flow_control, PFC)
        self._credits = isinstance(flow_control, Credits)
        self._lossless = self._pfc or self._credits
        self._buffer_bytes = flow_control.buffer_bytes

    def add_port(self, bandwidth_bps: float, propagation_s: float) -> Port:
        port = Port(self.sim, self, len(self.ports), bandwidth_bps, propagation_s, self.n_priorities)
        lossy = isinstance(self.flow_control, Lossy)
        capacity = self.flow_control.buffer_bytes if lossy else math.inf
        max_packet = self.network.mtu_bytes + self.network.header_bytes
        if (self._credits or (lossy and isinstance(self.queue_policy, DropTail))) and \
                self.flow_control.buffer_bytes < max_packet:
            # a packet bigger than the buffer can never be admitted (dropped forever, or no credit)
            raise ValueError(f"{type(self.flow_control).__name__} on {self.name}: buffer_bytes must be >= one "
                             f"packet ({max_packet} bytes = mtu + header), got {self.flow_control.buffer_bytes:g}")
        self.ports.append(port)
        self.queues.append(OutputQueue(capacity, self.queue_policy, self.sim.rng, self.n_priorities))
        if not self.network.event_by_event:
            port.queue = self.queues[-1]        # fast path: lazy ends of transmission (see Port.transmit)
        self.ingress_bytes.append([0] * self.n_priorities)
        self.pausing.append([False] * self.n_priorities)
        if isinstance(self.flow_control, PFC):     # as self._pfc, in words the type checker reads
            fc = self.flow_control
            max_packet = self.network.mtu_bytes + self.network.header_bytes
            headroom = 2 * propagation_s * bandwidth_bps / 8 + 2 * max_packet
            xoff = fc.xoff_bytes if fc.xoff_bytes is not None else fc.buffer_bytes - headroom
            if fc.xoff_bytes is not None and fc.buffer_bytes - fc.xoff_bytes < headroom:
                raise ValueError(
                    f"PFC on {self.name}: xoff_bytes must be <= buffer_bytes - headroom = "
                    f"{fc.buffer_bytes - headroom:g} (this link needs {headroom:g} bytes of headroom above "
                    f"xoff for a round trip plus two packets at bandwidth_bps={bandwidth_bps:g} and "
                    f"propagation_s={propagation_s:g}, or a lossless buffer drops), got {fc.xoff_bytes:g}")
            if xoff < max_packet and fc.xoff_bytes is not None:
                raise ValueError(f"PFC on {self.name}: xoff_bytes must be >= one packet ({max_packet} bytes = "
                                 f"mtu + header), got {fc.xoff_bytes:g}")
            if xoff < max_packet:
                raise ValueError(
                    f"PFC on {self.name}: buffer_bytes={fc.buffer_bytes:g} leaves no room above the "
                    f"headroom of {headroom:g} bytes this link needs (a round trip plus two packets at "
                    f"bandwidth_bps={bandwidth_bps:g} and propagation_s={propagation_s:g}); "
                    f"use buffer_bytes >= {headroom + max_packet:g}")
            xon = fc.xon_bytes if fc.xon_bytes is not None else xoff / 2
            self.xoff.append(xoff)
            self.xon.append(min(xon, xoff))
        else:
            self.xoff.append(math.inf)
            self.xon.append(math.inf)
        return port

    # --- data path ---------------------------------------------------------------
    def receive(self, packet, in_port: int) -> None:
        net = self.network
        size = packet.size_bytes
        is_data = packet.kind == DATA
        if is_data:
            net.wire_bytes -= size
        packet.in_port = in_port
        if self._lossless:
            held = self.ingress_bytes[in_port]
            prio = packet.priority
            level = held[prio] + size
            if self._pfc and level > self._buffer_bytes:
                packet.held_bytes = 0
                net.record_drop(self, in_port, packet, "pfc headroom overflow")
                return
            held[prio] = level
            packet.held_bytes = size
            if self._pfc:
                xoff = self.xoff[in_port]
                pausing = self.pausing[in_port]
                if level > xoff and not pausing[prio]:
                    pausing[prio] = True
                    net.pfc_frames += 1
                    upstream = self.ports[in_port].reverse
                    self.sim.after(upstream.propagation_s, upstream.set_paused, prio, True)
        else:
            packet.held_bytes = 0
        candidates = self.route(packet.dst)
        if candidates is None:
            raise ValueError(f"switch {self.name} has no route to host id {packet.dst}")
        if len(candidates) == 1:
            out = candidates[0]
        else:
            out = self.load_balancer.choose(self, packet, candidates)
            if out not in candidates:
                raise ValueError(f"{type(self.load_balancer).__name__} on {self.name} chose port {out!r}, "
                                 f"not one of the candidates {candidates}")
        if self.latency_s > 0.0:
            if is_data:
                net.pipeline_bytes += size
            self.sim.after(self.latency_s, self._enqueue, packet, out, True)
        else:
            self._enqueue(packet, out, False)

    def route(self, dst: int):
        """The equal-cost output ports towards host id ``dst``, or None if there is no way there:
        a hand-set route or a port to the host itself first, else the ports towards its edge switch."""
        # fast path: the table by edge first; ``routes`` (a dict) is read only for this switch's own
        # hosts (their edge is this switch, which by_edge holds as None) or if a route was set by hand
        candidates = self.by_edge[self.edge_of[dst]]
        if candidates is None or self.set_by_hand:
            candidates = self.routes.get(dst, candidates)
        return candidates

    def _enqueue(self, packet, out: int, delayed: bool) -> None:
        size = packet.size_bytes
        is_data = packet.kind == DATA
        if delayed and is_data:
            self.network.pipeline_bytes -= size
        queue = self.queues[out]
        port = self.ports[out]
        sim = self.sim
        now, until = sim.now_s, port.busy_until
        busy = now < until or (now == until and sim.seq_now < port._end_seq)    # fast path: port.is_busy(), inline
        if busy or queue.packets:
            queued = queue.enqueue(packet)
            if queued is None:
                self._dropped(packet, out)
                return
            if is_data and queued.size_bytes < size:
                self.network.trimmed_bytes += size - queued.size_bytes
            if busy:
                port.wait_for_end()
            else:
                port._start()
            return
        # fast path: the port is idle and its queue empty, so the packet would join the queue and
        # leave it at once; skip the FIFO (the policy still decides, the counters still move). The
        # plain way is the branch above, queue.enqueue(packet) then port._start().
        queued = queue.policy.admit(queue, packet)
        if queued is None:
            queue.dropped_packets += 1
            queue.dropped_bytes += size
            self._dropped(packet, out)
            return
        new_size = queued.size_bytes
        if is_data and new_size < size:
            self.network.trimmed_bytes += size - new_size
        if port.paused_mask >> queued.priority & 1 or (
                port.credits_bytes is not None and new_size > port.credits_bytes):
            queue.fifos[queued.priority].append(queued)          # it must wait: queue it after all
            queue.nonempty |= 1 << queued.priority
            queue.priority_bytes[queued.priority] += new_size
            queue.bytes += new_size
            queue.packets += 1
            if queue.bytes > queue.max_bytes:
                queue.max_bytes = queue.bytes
            return
        if new_size > queue.max_bytes:
            queue.max_bytes = new_size
        if queued.held_bytes:                   # fast path: no call when nothing is held
            self._release(queued)
        if is_data:
            self.network.wire_bytes += new_size
        port.transmit(queued)

    def _dropped(self, packet, out: int) -> None:
        self._release(packet)
        self.network.record_drop(self, out, packet, "queue full")

    def next_packet(self, port: Port):
        queue = self.queues[port.index]
        packet = queue.dequeue(port.paused_mask, port.credits_bytes)
        if packet is not None:
            if packet.held_bytes:               # fast path: no call when nothing is held
                self._release(packet)
            if packet.kind == DATA:
                self.network.wire_bytes += packet.size_bytes
        return packet

    def _release(self, packet) -> None:
        """The packet left our buffer: free its ingress charge (maybe RESUME, return credit)."""
        held = packet.held_bytes
        if not held:
            return
        packet.held_bytes = 0
        in_port, prio = packet.in_port, packet.priority
        ingress = self.ingress_bytes[in_port]
        level = ingress[prio] - held
        ingress[prio] = level
        if self._pfc:
            pausing = self.pausing[in_port]
            if pausing[prio] and level <= self.xon[in_port]:
                pausing[prio] = False
                self.network.pfc_frames += 1
                upstream = self.ports[in_port].reverse
                self.sim.after(upstream.propagation_s, upstream.set_paused, prio, False)
        else:
            upstream = self.ports[in_port].reverse
            self.sim.after(upstream.propagation_s, upstream.add_credits, held)

    def __repr__(self) -> str:
        kind = "cut-through" if self.cut_through else "store-and-forward"
        return f"Switch({self.name}, {len(self.ports)} ports, {type(self.flow_control).__name__}, {kind})"
