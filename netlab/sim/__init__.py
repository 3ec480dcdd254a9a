"""netlab.sim: a small packet-level discrete-event simulator of datacenter networks.

Formulas describe a network when nothing collides. Contention -- flows meeting
in a queue, buffers filling, pause frames spreading, packets dropped and resent --
needs a simulation. This one is small enough to read in an afternoon (in the reading
order below), plain Python on :mod:`heapq`, deterministic for a seed, and always bounded.
``make install`` also compiles its hot modules with Cython from the same source
(:mod:`netlab.sim.compiled`; :data:`COMPILED` says which build runs): the same results (the
tests compare every packet arrival), five to seven times as fast.

Quick start::

    >>> from netlab.sim import single_switch, PFC
    >>> net = single_switch(5, 100e9, flow_control=PFC(buffer_bytes=50_000), seed=1)
    >>> for i in range(1, 5):
    ...     _ = net.add_flow(f"h{i}", "h0", 200_000)       # 4-to-1 incast
    >>> r = net.run()
    >>> r.stop_reason, r.dropped_packets, r.total_pause_events > 0
    ('complete', 0, True)

Reading order
-------------
Fifteen modules, one concept each, hold the whole simulator: 1,569 lines of code (without
docstrings, comments and blank lines). Read them in this order; each line says what to look for
and gives the module's lines of code.

1. :mod:`~netlab.sim.engine` (66): :meth:`Simulator.run <netlab.sim.engine.Simulator.run>` is the
   whole engine. It pops the earliest event, moves the clock to it and calls it.
2. :mod:`~netlab.sim.eventheap` (17): events ordered by ``(time_s, seq)``; ``seq`` breaks ties, so a
   run is deterministic.
3. :mod:`~netlab.sim.packet` (43): the fields a switch reads (``dst``, ``entropy``, ``priority``,
   ``ecn``) and those a transport reads (``seq``, ``offset_bytes``, ``payload_bytes``).
4. :mod:`~netlab.sim.flow` (11): who sends how many bytes to whom, and when.
5. :mod:`~netlab.sim.accounting` (11): the byte counters, and the sum they obey at any stop.
6. :mod:`~netlab.sim.queues` (90): strict priority skipping paused priorities; a policy drops, trims
   or marks ECN.
7. :mod:`~netlab.sim.port` (124): ``transmit`` holds the wire for the serialization time, and the
   packet reaches the far end a propagation delay after its last bit (its header, at a cut-through
   switch); PFC pause and credits act here.
8. :mod:`~netlab.sim.switch` (233): ``receive`` charges the ingress buffer (PAUSE above ``xoff``),
   routes and queues; ``_release`` sends RESUME or returns credit.
9. :mod:`~netlab.sim.host` (103): ``next_packet``: control packets first, then round-robin over the
   ready senders.
10. :mod:`~netlab.sim.transport` (230): the ``Sender`` and ``Receiver`` hooks; go-back-N resends
    from the first missing packet on a NACK or a timeout.
11. :mod:`~netlab.sim.cc` (96): the congestion-control hooks; DCQCN cuts its rate on a CNP, then
    recovers by timer and by bytes sent.
12. :mod:`~netlab.sim.network` (268): ``Network.run`` makes the transports, starts the flows, runs
    the events in slices, watches for a deadlock and collects the results.
13. :mod:`~netlab.sim.routing` (69): a breadth-first search from every edge switch (the switch a
    host hangs off) keeps every equal-cost next hop.
14. :mod:`~netlab.sim.results` (135): the frozen result records, and ``collect``, which reads a
    network after a run.
15. :mod:`~netlab.sim.topology` (80): single switch, chain, ring and leaf-spine, built with
    ``Network``'s own methods.

Run with ``Network(event_by_event=True)`` (the topologies pass it on) to follow the code: this is
the reading mode, where every end of transmission is an event of its own. By default a port keeps
an end that would find nothing to send off the heap (a lazy end of transmission) and pushes it only
if something is queued before it; the packets arrive at the same instants in the same order and the
results are the same (``tests/sim/test_fastpath.py`` checks both modes). Every line or block that
is there only for speed carries the tag ``# fast path:`` and a short why, so a first reading can
skip it or read it as its plain equivalent: the lazy ends, events pushed past ``Simulator.at``'s
checks, ``__slots__``, bits kept beside lists, and the shapes the compiled build needs. To step
through the plain Python modules (in a debugger, say) where the compiled build is installed, set
``NETLAB_SIM_PURE=1`` before ``netlab.sim`` is first imported: in the shell
(``NETLAB_SIM_PURE=1 python run.py``) or in a notebook's first cell (``import os;
os.environ["NETLAB_SIM_PURE"] = "1"``). :data:`COMPILED` then says False.

The other modules: ``deadlock`` (cycles of blocked ports), ``traffic`` (open-loop Poisson sources,
M/D/1), ``compiled`` (the Cython build), ``ecmphash`` (ECMP's CRC-32), and the policies
``loadbalance`` (spraying, adaptive routing), ``uet`` and ``uet_cc`` (a UET-like transport and its
congestion control) and ``trimming``. Nothing here is chapter-specific: each chapter's
ready-made runs live beside its models (:mod:`netlab.lossless.experiments`,
:mod:`netlab.fabric.experiments`, :mod:`netlab.uet.experiments`,
:mod:`netlab.longhaul.experiments`), and the flow-level model of whole fabrics is
:mod:`netlab.fabric.flowlevel`.

Building and running
--------------------
``Network(seed=0, flow_control=Lossy(...)|PFC(...)|Credits(...), switch_latency_s=0.0,
cut_through=False, mtu_bytes=None, header_bytes=None, ack_bytes=None, rto_s=None,
window_bytes=None, load_balancer=ECMP(), queue_policy=DropTail(ecn=ecn), ecn=None,
n_priorities=8, event_by_event=False)``;
``None`` sizes come from the registry (``sim.assume.*``).
``add_host(name)``, ``add_switch(name, flow_control=, latency_s=, cut_through=,
queue_policy=)`` (per-switch overrides), ``connect(a, b, bandwidth_bps, propagation_s)``,
``set_route(switch, host, [ports])``, ``add_flow(src, dst, size_bytes, start_s=0,
transport=GoBackN, cc=None, priority=0, ack_priority=None, entropy=None) -> Flow``,
``sample_queues(["s0[0]", ...], interval_s)``, ``sample_flows(interval_s)``,
``run(until_s=inf, max_events=2e7, deadlock_check_s=None, max_wall_s=600) -> RunResult``. A network
runs once. Builders refuse what cannot run: a buffer smaller than one packet (Lossy
with drop-tail, Credits), a PFC ``xoff_bytes`` above the link's headroom, a queue policy
or transport given by name, a retransmission timer under 1 µs, a sampling interval
under 1 ns, and hand-set routes that loop or end at the wrong host. After a run, ``flow.sender`` / ``flow.receiver`` hold the transport objects.
Routing is shortest-path by hop count (``switch.route(dst_host_id)`` = equal-cost ports: a
table by edge switch, so memory grows with switches x edge switches, not x hosts).

Topologies: ``single_switch(n_hosts, bandwidth_bps)``, ``chain(n_switches,
hosts_per_switch, bandwidth_bps)``, ``ring(n_switches, hosts_per_switch, bandwidth_bps,
clockwise=False)``, ``leaf_spine(n_leaves, n_spines, hosts_per_leaf, host_bandwidth_bps,
fabric_bandwidth_bps)``; all take ``propagation_s`` and any ``Network`` keyword.
Hosts are ``h0, h1, ...``; a port is named ``"<node>[<index>]"``.

Results (frozen): ``RunResult`` (``stop_reason`` in complete/idle/until/max_events/
wall_time/deadlock, ``time_s``, ``events_processed``, ``flows``, ``ports``, ``queue_traces``,
``dropped_packets``, ``dropped_bytes``, ``pfc_frames``, ``sent_bytes``,
``received_bytes``, ``trimmed_bytes``, ``in_flight_bytes``, ``deadlock_cycle``);
``FlowResult`` (``completion_time_s``, ``goodput_bps``, ``retransmitted_packets``,
``timeouts``, ``out_of_order_packets``, ``duplicate_bytes``, ...); ``PortStats``
(``pause_events``, ``paused_time_s``, ``max_queue_bytes``, ``min_credits_bytes``, drops);
``QueueTrace`` (``time_s``, ``queue_bytes``); ``FlowTrace`` (``time_s``,
``delivered_bytes``, ``rates_bps()``). Data-byte accounting holds at any stop:
``sent_bytes == received_bytes + dropped_bytes + trimmed_bytes + in_flight_bytes``.

Extension points (subclass these in your own module)
----------------------------------------------------
Load balancing -- ``switch.LoadBalancer``::

    class MyLB(LoadBalancer):
        def choose(self, switch, packet, candidates) -> int: ...   # one of candidates

called per packet at each switch with more than one equal-cost output port.
``switch.queues[i].bytes``, ``switch.ports[i]`` and ``switch.salt`` are there to use;
``packet.entropy`` is the per-packet field a sprayer may vary. ``ECMP`` hashes
(src, dst, entropy, salt) with CRC-32. Pass ``load_balancer=MyLB()``.

Transports -- ``transport.Sender`` / ``transport.Receiver``, passed as a pair
``transport=(MySender, MyReceiver)``. Sender: implement ``has_packet()``,
``make_packet()`` (use ``data_packet(seq)``), ``next_size_bytes()``, and the hooks
``on_ack(pkt)``, ``on_nack(pkt)``, ``on_sack(pkt)``, ``on_timeout()``; use
``arm_timer(deadline_s)``, ``cancel_timer()``, ``finish()``, ``host.kick()``;
fields ``n_packets``, ``mtu_bytes``, ``rto_s``, ``rate_bps``, ``packets_sent``,
``retransmitted_packets``, ``timeouts``. Receiver: implement ``on_packet(pkt)``; call
``deliver(offset_bytes, n_bytes)`` (records byte ranges in ``ranges``, counts
``duplicate_bytes``; completes the flow when every byte is in), count
``out_of_order_packets``, reply with ``send_ack(kind, seq, info)``, and call
``maybe_cnp(pkt)`` for DCQCN. ``packet.info`` is free for SACK blocks (numbers or tuples of
numbers: the compiled build's garbage collector does not look inside a packet).
``GoBackN = (GoBackNSender, GoBackNReceiver)``.

Queue policy (drop vs trim) -- ``queues.QueuePolicy``::

    class Trim(QueuePolicy):
        def admit(self, queue, packet): ...   # return packet (maybe packet.trim(h)) or None

``queue.bytes``, ``queue.capacity_bytes``, ``queue.priority_bytes``, ``queue.rng``;
``self.mark(queue, packet)`` applies ECN. ``DropTail(ecn=ECNMarking(...))`` is the default.
Pass ``queue_policy=Trim()`` to ``Network`` or ``add_switch``.

Congestion control -- ``cc.CongestionControl``: override ``attach(sender)``,
``on_send``, ``on_ack``, ``on_cnp``, ``on_timeout``, ``detach``; set the rate with
``self.set_rate(sender, bps)``; set ``cnp_interval_s`` to have receivers send CNPs.
Pass ``cc=MyCC`` (class or factory; one instance per flow). ``DCQCN`` is provided.

Flow control per switch: ``Lossy(buffer_bytes)``, ``PFC(buffer_bytes, xoff_bytes=None,
xon_bytes=None)``, ``Credits(buffer_bytes)`` (see :mod:`netlab.sim.switch`).
"""

from netlab.sim import compiled as _compiled

COMPILED = _compiled.choose()     #: True when the Cython build of the same modules runs (see compiled.py)

from netlab.sim.engine import RunStatus, Simulator  # noqa: E402 (after the choice of build)
from netlab.sim.packet import ACK, CNP, DATA, NACK, SACK, Packet  # noqa: E402
from netlab.sim.queues import DropTail, ECNMarking, OutputQueue, QueuePolicy  # noqa: E402
from netlab.sim.port import Port  # noqa: E402
from netlab.sim.switch import ECMP, PFC, Credits, LoadBalancer, Lossy, Switch  # noqa: E402
from netlab.sim.host import Host  # noqa: E402
from netlab.sim.transport import GoBackN, GoBackNReceiver, GoBackNSender, Receiver, Sender  # noqa: E402
from netlab.sim.cc import DCQCN, CongestionControl  # noqa: E402
from netlab.sim.flow import Flow  # noqa: E402
from netlab.sim.network import Network  # noqa: E402
from netlab.sim.results import FlowResult, FlowTrace, PortStats, QueueTrace, RunResult  # noqa: E402
from netlab.sim.topology import chain, leaf_spine, ring, single_switch  # noqa: E402

__all__ = [
    "Simulator", "RunStatus", "Packet", "DATA", "ACK", "NACK", "CNP", "SACK",
    "QueuePolicy", "DropTail", "ECNMarking", "OutputQueue", "Port",
    "LoadBalancer", "ECMP", "Lossy", "PFC", "Credits", "Switch", "Host",
    "Sender", "Receiver", "GoBackN", "GoBackNSender", "GoBackNReceiver",
    "CongestionControl", "DCQCN", "Network", "Flow",
    "RunResult", "FlowResult", "FlowTrace", "PortStats", "QueueTrace",
    "single_switch", "chain", "ring", "leaf_spine",
]
