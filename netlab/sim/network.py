"""A simulated network: build it, add flows, run it once, read the results.

:class:`Network` owns a :class:`~netlab.sim.engine.Simulator`, the hosts and
switches, the links between them and the flows. Routing is shortest-path by hop
count; where several next hops are equally short, the switch's load balancer
chooses per packet. :meth:`Network.run` starts every flow at its start time and
stops when every flow has been delivered, when ``until_s`` or ``max_events`` is
reached, or when a deadlock is detected: a cycle of switches, each holding packets
for the next on a port the next has paused (PFC) or gives no credit for, that sends
nothing for a whole ``deadlock_check_s`` interval.

A network is a :class:`~netlab.sim.accounting.Ledger`: its counters of data bytes
(wire size, resends included) obey, at any stop, as the tests check::

    sent_bytes = received_bytes + dropped data bytes + trimmed_bytes + in_flight_bytes
"""

from __future__ import annotations

import math
import time

from netlab import specs, validate
from netlab.sim.accounting import Ledger
from netlab.sim.deadlock import blocked_cycle
from netlab.sim.engine import DEFAULT_MAX_EVENTS, Simulator
from netlab.sim.flow import Flow
from netlab.sim.host import Host
from netlab.sim.packet import DATA
from netlab.sim.routing import compute_routes
from netlab.sim.results import RunResult, collect
from netlab.sim.switch import ECMP, PFC, Credits, LoadBalancer, Lossy, Switch
from netlab.sim.queues import DropTail, QueuePolicy
from netlab.sim.transport import GoBackN


MIN_TIMER_S = 1e-6                # shortest retransmission timer accepted
MIN_SAMPLE_S = 1e-9               # shortest sampling interval (a 64 B frame at 400 Gb/s takes 1.28 ns)
MAX_FLOW_BYTES = 10**15           # largest flow (a long-lived flow is bounded by until_s, not by its size)
MAX_SCENARIO_BYTES = 1 << 26      # 64 MiB per flow in the ready-made scenarios (~16,000 packets each)
SCENARIO_WHY = "a ready-made scenario simulates every packet; build a Network for longer runs"
MAX_PROPAGATION_S = 1.0           # one way on one link: 200,000 km of fibre
MAX_LATENCY_S = 1.0               # a switch's forwarding latency (real ones: 0.1 to a few µs)
MAX_START_S = 1e6                 # a flow's start: a double's step at 1e6 s is 1.2e-10 s
MAX_RUN_EVENTS = 4 * validate.MAX_EVENTS   # 200 M: a 2 MB permutation of 8,192 hosts takes about 55 M
DEFAULT_MAX_WALL_S = 600.0        # real seconds before a run stops with reason "wall_time"
_WALL_CHECK_EVENTS = 200_000      # events between two looks at the wall clock


def _sample_interval(interval_s) -> float:
    interval_s = validate.positive("interval_s", interval_s)
    if interval_s < MIN_SAMPLE_S:
        raise ValueError(f"interval_s must be >= {MIN_SAMPLE_S:g} s (finer than a nanosecond records nothing "
                         f"new and fills memory), got {interval_s}")
    return interval_s


class Network(Ledger):
    """Hosts, switches, links and flows on one simulator (see the module docstring)."""

    def __init__(self, seed: int = 0, flow_control=None, switch_latency_s: float = 0.0,
                 cut_through: bool = False, mtu_bytes: int | None = None,
                 header_bytes: int | None = None, ack_bytes: int | None = None,
                 rto_s: float | None = None, window_bytes: float | None = None,
                 load_balancer: LoadBalancer | None = None, queue_policy=None, ecn=None,
                 n_priorities: int = 8, event_by_event: bool = False) -> None:
        self.sim = Simulator(seed)
        self.event_by_event = validate.boolean("event_by_event", event_by_event)
        self.flow_control = flow_control if flow_control is not None else Lossy(
            specs.value("sim.assume.buffer_per_port"))
        self.switch_latency_s = validate.non_negative("switch_latency_s", switch_latency_s, maximum=MAX_LATENCY_S,
                                                      why="real switches forward in 0.1 to a few µs")
        self.cut_through = validate.boolean("cut_through", cut_through)
        self.mtu_bytes = validate.integer("mtu_bytes", mtu_bytes if mtu_bytes is not None
                                          else int(specs.value("sim.assume.mtu")), minimum=1)
        self.header_bytes = validate.integer("header_bytes", header_bytes if header_bytes is not None
                                             else int(specs.value("sim.assume.header")), minimum=0)
        self.ack_bytes = validate.integer("ack_bytes", ack_bytes if ack_bytes is not None
                                          else int(specs.value("sim.assume.ack")), minimum=1)
        self.rto_s = validate.positive("rto_s", rto_s if rto_s is not None else specs.value("sim.assume.rto"))
        if self.rto_s < MIN_TIMER_S:
            raise ValueError(f"rto_s must be >= {MIN_TIMER_S:g} s (a retransmission timer shorter than a "
                             f"microsecond fires before any datacenter round trip and only spins), got {rto_s}")
        self.window_bytes = None if window_bytes is None else validate.positive("window_bytes", window_bytes)
        self.load_balancer = load_balancer if load_balancer is not None else ECMP()
        if not isinstance(self.load_balancer, LoadBalancer):
            raise TypeError(f"load_balancer must be a LoadBalancer, got {load_balancer!r}")
        self.queue_policy = queue_policy if queue_policy is not None else DropTail(ecn=ecn)
        if not isinstance(self.queue_policy, QueuePolicy):
            raise TypeError(f"queue_policy must be a netlab.sim.QueuePolicy instance such as DropTail() "
                            f"(not a name), got {queue_policy!r}")
        if not isinstance(self.flow_control, (Lossy, PFC, Credits)):
            raise TypeError(f"flow_control must be Lossy(...), PFC(...) or Credits(...), got {flow_control!r}")
        self.n_priorities = validate.integer("n_priorities", n_priorities, minimum=1, maximum=8)
        self.hosts: dict[str, Host] = {}
        self.switches: dict[str, Switch] = {}
        self.flows: list[Flow] = []
        self._host_by_id: list[Host] = []
        self._done = 0
        self._ran = False
        self._periodic = 0
        self._traces: dict[str, tuple] = {}
        self._flow_sampling: tuple[float, list[float], list[list[int]]] | None = None
        self.route_overrides: dict[tuple[str, str], tuple[int, ...]] = {}
        self.drops_by_port: dict[str, list[int]] = {}
        self.drop_log: list[tuple[float, str, str]] = []       # first drops: (time, port, reason)
        Ledger.__init__(self)        # byte accounting (data packets, wire size)

    # --- building --------------------------------------------------------------------
    def add_host(self, name: str) -> Host:
        self._check_new_name(name)
        host = Host(self, name, len(self._host_by_id))
        self.hosts[name] = host
        self._host_by_id.append(host)
        return host

    def add_switch(self, name: str, flow_control=None, latency_s: float | None = None,
                   cut_through: bool | None = None, queue_policy=None) -> Switch:
        self._check_new_name(name)
        sw = Switch(self, name, flow_control if flow_control is not None else self.flow_control,
                    self.switch_latency_s if latency_s is None else latency_s,
                    self.cut_through if cut_through is None else cut_through,
                    self.header_bytes, queue_policy if queue_policy is not None else self.queue_policy,
                    self.load_balancer, self.n_priorities)
        self.switches[name] = sw
        return sw

    def node(self, name_or_node):
        """The host or switch called ``name`` (objects are passed through)."""
        return self._node("name_or_node", name_or_node)

    def _node(self, param: str, name_or_node):
        """:meth:`node`, with errors that name the caller's parameter ``param``."""
        if not isinstance(name_or_node, str):
            if isinstance(name_or_node, (Host, Switch)) and name_or_node.network is self:
                return name_or_node
            raise TypeError(f"{param} must be the name of a host or switch of this network (or the object), "
                            f"got {type(name_or_node).__name__} {name_or_node!r:.80}")
        node = self.hosts.get(name_or_node) or self.switches.get(name_or_node)
        if node is None:
            raise ValueError(f"{param}: no host or switch {name_or_node!r} on this topology; hosts: "
                             f"{sorted(self.hosts)[:10]}, switches: {sorted(self.switches)[:10]}")
        return node

    def connect(self, a, b, bandwidth_bps: float, propagation_s: float | None = None):
        """Join ``a`` and ``b`` by a full-duplex link of ``bandwidth_bps`` each way."""
        a, b = self._node("a", a), self._node("b", b)
        bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
        propagation_s = validate.non_negative("propagation_s", propagation_s if propagation_s is not None
                                              else specs.value("sim.assume.link_propagation"),
                                              maximum=MAX_PROPAGATION_S, why="200,000 km of fibre")
        if isinstance(a, Host) and isinstance(b, Host):
            raise ValueError(f"hosts {a.name} and {b.name} cannot be joined directly; put a switch between")
        pa = a.add_port(bandwidth_bps, propagation_s)
        pb = b.add_port(bandwidth_bps, propagation_s)
        pa.attach(b, pb.index, pb)
        pb.attach(a, pa.index, pa)
        for port, far in ((pa, b), (pb, a)):
            if isinstance(far, Switch) and isinstance(far.flow_control, Credits):
                port.credits_bytes = port.min_credits_bytes = far.flow_control.buffer_bytes
        return pa, pb

    def set_route(self, switch, dst_host, ports) -> None:
        """Force the output ports a switch uses towards one host (e.g. to build a cycle)."""
        sw, dst = self._node("switch", switch), self._node("dst_host", dst_host)
        if not isinstance(sw, Switch) or not isinstance(dst, Host):
            raise ValueError(f"switch must name a switch and dst_host a host, got {sw.name} and {dst.name}")
        ports = validate.sequence("ports", ports, "a list of port indices")
        ports = tuple(validate.integer(f"ports[{i}]", p, 0, len(sw.ports) - 1) for i, p in enumerate(ports))
        if not ports:
            raise ValueError("ports must name at least one port")
        self.route_overrides[(sw.name, dst.name)] = ports

    def add_flow(self, src, dst, size_bytes: int, start_s: float = 0.0, transport=GoBackN,
                 cc=None, priority: int = 0, ack_priority: int | None = None, entropy: int | None = None) -> Flow:
        """A flow of ``size_bytes`` from host ``src`` to host ``dst``, starting at ``start_s``.

        ``transport`` is a ``(SenderClass, ReceiverClass)`` pair; ``cc`` a congestion
        control class or zero-argument factory (one instance per flow), or ``None``.
        """
        if self._ran:
            raise RuntimeError("this network has already run; build a new one")
        src, dst = self._node("src", src), self._node("dst", dst)
        for role, h in (("src", src), ("dst", dst)):
            if not isinstance(h, Host):
                raise ValueError(f"{role} must be a host, got switch {h.name}")
        if src is dst:
            raise ValueError(f"src and dst must differ, got {src.name} twice")
        size_bytes = validate.integer("size_bytes", size_bytes, minimum=1, maximum=MAX_FLOW_BYTES,
                                      why="a petabyte; bound a long-lived flow with run(until_s=...)")
        start_s = validate.non_negative("start_s", start_s, maximum=MAX_START_S,
                                        why="beyond it a double no longer resolves a nanosecond")
        if not (isinstance(transport, tuple) and len(transport) == 2
                and all(callable(c) and not isinstance(c, str) for c in transport)):
            raise TypeError(f"transport must be a (SenderClass, ReceiverClass) pair such as "
                            f"netlab.sim.GoBackN, got {transport!r}")
        if cc is not None and not callable(cc):
            raise TypeError(f"cc must be a congestion-control class or factory (e.g. netlab.sim.DCQCN) or "
                            f"None, got {cc!r}")
        priority = validate.integer("priority", priority, 0, self.n_priorities - 1)
        ack_priority = priority if ack_priority is None else validate.integer(
            "ack_priority", ack_priority, 0, self.n_priorities - 1)
        if entropy is None:
            entropy = self.sim.rng.getrandbits(16)
        flow = Flow(len(self.flows), src, dst, size_bytes, start_s, priority, ack_priority, entropy)
        sender_cls, receiver_cls = transport
        flow.cc_factory = cc
        flow.sender_cls, flow.receiver_cls = sender_cls, receiver_cls
        self.flows.append(flow)
        return flow

    def sample_queues(self, ports, interval_s: float) -> None:
        """Record the occupancy of output ports (names like ``"s0[2]"``) every ``interval_s``."""
        interval_s = _sample_interval(interval_s)
        ports = validate.sequence("ports", ports, "a list of port names such as ['s0[0]']")
        for name in ports:
            if not isinstance(name, str):
                raise TypeError(f"ports must hold port names such as 's0[0]', got {name!r:.80}")
            node_name, _, rest = name.partition("[")
            sw = self.switches.get(node_name)
            if sw is None or not rest.endswith("]") or not rest[:-1].isdigit() or int(rest[:-1]) >= len(sw.ports):
                raise ValueError(f"ports: no switch port {name!r} on this network")
            self._traces[name] = (sw.queues[int(rest[:-1])], interval_s, [], [])

    def sample_flows(self, interval_s: float) -> None:
        """Record every flow's delivered bytes every ``interval_s`` (see ``FlowTrace``)."""
        self._flow_sampling = (_sample_interval(interval_s), [], [])

    # --- internal callbacks --------------------------------------------------------------
    def _check_new_name(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"name must be a non-empty str, got {name!r}")
        if name in self.hosts or name in self.switches:
            raise ValueError(f"a node called {name!r} exists already")

    def record_drop(self, node, port_index: int, packet, reason: str) -> None:
        name = f"{node.name}[{port_index}]"
        self.dropped_packets += 1
        count = self.drops_by_port.setdefault(name, [0, 0])
        count[0] += 1
        count[1] += packet.size_bytes
        if packet.kind == DATA:
            self.dropped_bytes += packet.size_bytes
        if len(self.drop_log) < 1000:
            self.drop_log.append((self.sim.now_s, name, reason))

    def flow_complete(self, flow) -> None:
        self._done += 1
        if self._done == len(self.flows):
            self.sim.stop("complete")

    def _start_flow(self, flow) -> None:
        host = flow.src
        host.senders.append(flow.sender)
        host.kick()

    # --- running ----------------------------------------------------------------------
    def run(self, until_s: float = math.inf, max_events: int = DEFAULT_MAX_EVENTS,
            deadlock_check_s: float | None = None, max_wall_s: float = DEFAULT_MAX_WALL_S) -> RunResult:
        """Run the flows; always bounded by ``until_s``, ``max_events`` and ``max_wall_s``
        seconds of real time (stop reasons ``"until"``, ``"max_events"``, ``"wall_time"``).

        ``deadlock_check_s`` (default: 100 round trips of the slowest link, at least
        50 µs) is how often lossless networks are checked for a cycle of blocked
        ports; a cycle that sends nothing for a whole interval is a deadlock.
        """
        if self._ran:
            raise RuntimeError("a Network runs once; build a new one to run again")
        if until_s != math.inf:
            until_s = validate.positive("until_s", until_s)
        max_events = validate.integer("max_events", max_events, minimum=1, maximum=MAX_RUN_EVENTS,
                                      why="a minute or two of simulation per 50 million events")
        max_wall_s = validate.positive("max_wall_s", max_wall_s)
        if not self.flows:
            raise ValueError("add at least one flow before running")
        for host in self.hosts.values():
            host.port                                    # noqa: B018 - raises if not connected
        self._ran = True
        compute_routes(self)
        for flow in self.flows:
            flow.sender = flow.sender_cls(self, flow, flow.src, flow.cc_factory() if flow.cc_factory else None)
            interval = flow.sender.cc.cnp_interval_s if flow.sender.cc is not None else None
            flow.receiver = flow.receiver_cls(self, flow, flow.dst, interval)
            flow.src.senders_by_flow[flow.flow_id] = flow.sender
            flow.dst.receivers[flow.flow_id] = flow.receiver
            self.sim.at(flow.start_s, self._start_flow, flow)
        for _name, (queue, interval, times, values) in self._traces.items():
            self._periodic += 1
            self.sim.at(0.0, self._sample, queue, interval, times, values)
        if self._flow_sampling is not None:
            self._periodic += 1
            self.sim.at(0.0, self._sample_flows)
        self.deadlock_cycle: tuple[str, ...] = ()
        if any(isinstance(s.flow_control, (PFC, Credits)) for s in self.switches.values()):
            if deadlock_check_s is None:
                slowest = max((2 * p.propagation_s + (self.mtu_bytes + self.header_bytes) * 8 / p.bandwidth_bps)
                              for s in self.switches.values() for p in s.ports)
                deadlock_check_s = max(50e-6, 100 * slowest)
            deadlock_check_s = validate.positive("deadlock_check_s", deadlock_check_s)
            self._periodic += 1
            self.sim.after(deadlock_check_s, self._deadlock_check, deadlock_check_s, None)
        # run in slices of events, so that a run also stops after max_wall_s of real time
        deadline, left = time.monotonic() + max_wall_s, max_events
        while True:
            chunk = min(left, _WALL_CHECK_EVENTS)
            status = self.sim.run(until_s=until_s, max_events=chunk)
            left -= chunk
            if status.reason != "max_events" or left == 0:
                break
            if time.monotonic() > deadline:
                return self._results("wall_time")
        return self._results(status.reason)

    def _keep_going(self) -> bool:
        """Periodic tasks stop once only periodic tasks are left on the heap."""
        return self.sim.pending_events > self._periodic - 1

    def _sample(self, queue, interval, times, values) -> None:
        times.append(self.sim.now_s)
        values.append(queue.bytes)
        if self._keep_going():
            self.sim.after(interval, self._sample, queue, interval, times, values)
        else:
            self._periodic -= 1

    def _sample_flows(self) -> None:
        interval, times, values = self._flow_sampling
        times.append(self.sim.now_s)
        values.append([f.receiver.delivered_bytes for f in self.flows])
        if self._keep_going():
            self.sim.after(interval, self._sample_flows)
        else:
            self._periodic -= 1

    def blocked_cycle(self) -> list:
        """Ports on a cycle of blocked switch ports (see :mod:`netlab.sim.deadlock`)."""
        return blocked_cycle(self.switches.values())

    def _deadlock_check(self, interval: float, previous) -> None:
        cycle = blocked_cycle(self.switches.values())
        snapshot = tuple((p.name, p.tx_packets, p.pause_events) for p in cycle)
        if cycle and snapshot == previous:       # same cycle, nothing sent for a whole interval
            self.deadlock_cycle = tuple(p.node.name for p in cycle) + (cycle[0].node.name,)
            self._periodic -= 1
            self.sim.stop("deadlock")
            return
        if self._keep_going():
            self.sim.after(interval, self._deadlock_check, interval, snapshot if cycle else None)
        else:
            self._periodic -= 1

    # --- results ----------------------------------------------------------------------
    def _results(self, reason: str) -> RunResult:
        return collect(self, reason)
