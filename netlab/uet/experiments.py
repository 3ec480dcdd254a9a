"""Chapter 8 experiments: RoCE-like vs UET-like transports under loss, incast and spraying.

Three scenarios, each one function returning a frozen result:

* :func:`goodput_vs_loss` -- one flow across one store-and-forward switch whose
  queue drops data packets at random (no PFC, no congestion). Goodput is reported
  relative to the same transfer without loss, to compare with the closed forms of
  :mod:`netlab.uet.loss_recovery`. For go-back-N the pipe is computed from the topology by
  :func:`go_back_n_pipe`.
* :func:`incast` -- ``n_senders`` hosts send ``bytes_per_sender`` each to one host on
  one switch, in a transport configuration from :data:`INCAST_CONFIGS`.
* :func:`spraying` -- a permutation across the leaves of a leaf-spine, with one
  entropy per flow (ECMP) or a new entropy per packet (spraying).

Configurations (``uet-*`` all run the NSCC-like window control with ECN marking):

====================  ==========================================================
``roce-lossy``        go-back-N on drop-tail switches, no PFC
``roce-pfc``          go-back-N on PFC (lossless) switches, as RoCE is deployed
``uet``               UET-like RUD, drop-tail switches
``uet-trim``          ... on trimming switches
``uet-credits``       ... with receiver credits (RCCC-like), drop-tail switches
``uet-trim-credits``  ... with both
====================  ==========================================================
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import time
from typing import Any

from netlab import specs, validate
from netlab.sim.network import MAX_SCENARIO_BYTES, SCENARIO_WHY
from netlab.sim.queues import DropTail, ECNMarking
from netlab.sim.switch import PFC, Lossy
from netlab.sim.topology import leaf_spine, single_switch
from netlab.sim.transport import GoBackN, GoBackNSender, GoBackNReceiver
from netlab.sim.trimming import RandomLoss, Trimming
from netlab.sim.uet import uet
from netlab.sim.uet_cc import NSCC
from netlab.units import format_time

MAX_INCAST_BYTES = 1 << 30     # all senders together, in the ready-made incast

_WHY_PROP = "one link inside a datacenter; netlab.longhaul.experiments models long links"

#: The transport configurations :func:`incast` runs (the module docstring says what each is).
INCAST_CONFIGS = ("roce-lossy", "roce-pfc", "uet", "uet-trim", "uet-credits", "uet-trim-credits")
SPRAY_CONFIGS = ("roce-ecmp", "roce-spray", "uet-ecmp", "uet-spray")


def _ecn(buffer_bytes: float) -> ECNMarking:
    """ECN marking from 2 % to 20 % of the buffer (netlab's choice for chapter 8)."""
    return ECNMarking(0.02 * buffer_bytes, 0.2 * buffer_bytes, 0.2)


def go_back_n_pipe(bandwidth_bps: float, propagation_s: float, mtu_bytes: int, header_bytes: int,
                   ack_bytes: int) -> int:
    """Slots K from a lost packet's start to its resend's start, one store-and-forward switch.

    The next packet (one slot later) reveals the gap: it reaches the receiver after two
    serializations T and two propagations d; the NACK returns in 2 t_ack + 2 d; the
    sender finishes the packet on the wire first. So K = ceil(3 + (4 d + 2 t_ack) / T).
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    propagation_s = validate.non_negative("propagation_s", propagation_s)
    mtu_bytes = validate.integer("mtu_bytes", mtu_bytes, minimum=1)
    header_bytes = validate.integer("header_bytes", header_bytes, minimum=0)
    ack_bytes = validate.integer("ack_bytes", ack_bytes, minimum=1)
    t = (mtu_bytes + header_bytes) * 8.0 / bandwidth_bps
    t_ack = ack_bytes * 8.0 / bandwidth_bps
    return math.ceil(3.0 + (4.0 * propagation_s + 2.0 * t_ack) / t - 1e-9)


@dataclass(frozen=True)
class LossRun:
    """One transfer over a randomly lossy path, and the same transfer without loss."""

    transport: str
    loss_rate: float
    n_bytes: int
    completion_time_s: float
    lossless_completion_time_s: float
    efficiency: float               # lossless time / time: 1 means loss cost nothing
    packets_sent: int
    retransmitted_packets: int
    timeouts: int

    def __repr__(self) -> str:
        return (f"LossRun({self.transport}, p = {self.loss_rate:g}: {self.efficiency:.1%} of lossless "
                f"goodput, {self.retransmitted_packets} resent, {self.timeouts} timeouts)")


def _one_flow(transport: str, loss_rate: float, n_bytes: int, bandwidth_bps: float,
              propagation_s: float, rto_s: float, window_bytes: float, seed: int):
    pair = GoBackN if transport == "roce" else uet(spray=False)
    net = single_switch(2, bandwidth_bps, propagation_s, queue_policy=RandomLoss(loss_rate),
                        window_bytes=window_bytes, rto_s=rto_s, seed=seed)
    net.add_flow("h0", "h1", n_bytes, transport=pair)
    return net.run().flows[0]


def goodput_vs_loss(transport: str, loss_rate: float, n_bytes: int = 4_000_000,
                    bandwidth_bps: float = 100e9, propagation_s: float = 1e-6,
                    rto_s: float = 20e-6, window_bytes: float | None = None, seed: int = 0) -> LossRun:
    """Goodput of ``"roce"`` (go-back-N) or ``"uet"`` (selective repeat) at ``loss_rate``."""
    validate.choice("transport", transport, ("roce", "uet"))
    loss_rate = validate.in_range("loss_rate", loss_rate, 0.0, 0.5)
    n_bytes = validate.integer("n_bytes", n_bytes, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    propagation_s = validate.non_negative("propagation_s", propagation_s, maximum=1e-3, why=_WHY_PROP)
    rto_s = validate.positive("rto_s", rto_s)
    window_bytes = specs.value("assume.uet.window_bytes") if window_bytes is None else window_bytes
    args = (n_bytes, bandwidth_bps, propagation_s, rto_s, window_bytes)
    lossy = _one_flow(transport, loss_rate, *args, seed)
    clean = _one_flow(transport, 0.0, *args, seed)
    return LossRun(transport, loss_rate, n_bytes, lossy.completion_time_s, clean.completion_time_s,
                   clean.completion_time_s / lossy.completion_time_s, lossy.packets_sent,
                   lossy.retransmitted_packets, lossy.timeouts)


@dataclass(frozen=True)
class IncastResult:
    """An N-to-1 incast in one configuration."""

    config: str
    n_senders: int
    bytes_per_sender: int
    ideal_s: float                  # all bytes through the receiver's link back to back
    max_completion_s: float         # the last flow to finish (inf if one did not)
    mean_completion_s: float
    dropped_packets: int
    trimmed_packets: int
    retransmitted_packets: int
    timeouts: int
    pause_events: int
    events: int
    wall_s: float
    rto_s: float = math.nan         # the retransmission timeout the senders used

    @property
    def slowdown(self) -> float:
        """Last completion over the ideal time (1 is perfect)."""
        return self.max_completion_s / self.ideal_s

    def __repr__(self) -> str:
        return (f"IncastResult({self.config}, {self.n_senders} senders: last done at "
                f"{format_time(self.max_completion_s)} ({self.slowdown:.2f}x ideal), "
                f"{self.dropped_packets} drops, {self.trimmed_packets} trims, {self.timeouts} timeouts)")


def _incast_network(config: str, n_hosts: int, bandwidth_bps: float, buffer_bytes: float,
                    propagation_s: float, seed: int, fabric=None, coalescing=None, **kw):
    coalescing = coalescing or {}
    kw.update(window_bytes=specs.value("assume.uet.window_bytes"), seed=seed)

    def build(**more):
        if fabric is None:
            return single_switch(n_hosts, bandwidth_bps, propagation_s, **more, **kw)
        n_leaves, n_spines, per_leaf = fabric
        return leaf_spine(n_leaves, n_spines, per_leaf, bandwidth_bps, bandwidth_bps, propagation_s, **more, **kw)
    if config == "roce-pfc":
        return build(flow_control=PFC(buffer_bytes)), GoBackN, None
    fc = Lossy(buffer_bytes)
    if config == "roce-lossy":
        return build(flow_control=fc), GoBackN, None
    policy = Trimming(ecn=_ecn(buffer_bytes)) if "trim" in config else DropTail(ecn=_ecn(buffer_bytes))
    return build(flow_control=fc, queue_policy=policy), uet(credits="credits" in config, **coalescing), NSCC


def incast(config: str, n_senders: int, bytes_per_sender: int, bandwidth_bps: float = 100e9,
           buffer_bytes: float | None = None, propagation_s: float = 1e-6, seed: int = 0,
           max_events: int = 20_000_000, fabric: tuple[int, int, int] | None = None,
           rto_s: float | None = None, event_by_event: bool = False, ack_every: int = 1,
           packets_per_credit: int = 1) -> IncastResult:
    """``n_senders`` hosts each send ``bytes_per_sender`` to ``h0`` through one switch, or,
    with ``fabric = (n_leaves, n_spines, hosts_per_leaf)``, across a leaf-spine whose
    hosts are numbered as in :func:`~netlab.sim.topology.leaf_spine` (``h0`` on
    ``leaf0``). ``rto_s`` overrides the retransmission timeout. Its default for
    ``roce-pfc`` is a RoCE adapter's (``transport.roce.default_ack_timeout``, 67.1 ms):
    on a lossless fabric a packet can wait in paused queues far longer than the
    simulator's generic 1 ms (``sim.assume.rto``), and a shorter timer resends data that
    was only queued (spurious timeouts, see the appendix "How good is the simulator?").
    The other configurations keep the 1 ms: ``roce-lossy`` so that its collapse stays
    on the scale of the transfer (a 67 ms timer would make it far worse), the UET-like
    ones as their own timer. ``event_by_event=True`` runs the simulator's reference mode.
    ``ack_every`` and ``packets_per_credit`` (UET-like configurations only; see
    :mod:`netlab.sim.uet`) coalesce SACKs and credits as htsim's UEC sink does (4 and 4)."""
    validate.choice("config", config, INCAST_CONFIGS)
    n_senders = validate.integer("n_senders", n_senders, minimum=1, maximum=256, why=SCENARIO_WHY)
    # 1 GiB through the receiver's link at most (~260,000 packets, seconds to a minute of
    # simulation): chapter 8's and issue 15's 127 x 2 MB (254 MB) must fit
    bytes_per_sender = validate.integer("bytes_per_sender", bytes_per_sender, minimum=1,
                                        maximum=min(MAX_SCENARIO_BYTES, MAX_INCAST_BYTES // n_senders),
                                        why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    propagation_s = validate.non_negative("propagation_s", propagation_s, maximum=1e-3, why=_WHY_PROP)
    buffer_bytes = specs.value("sim.assume.buffer_per_port") if buffer_bytes is None else validate.positive(
        "buffer_bytes", buffer_bytes)
    extra: dict[str, Any] = {"event_by_event": validate.boolean("event_by_event", event_by_event)}
    coalescing = {"ack_every": validate.integer("ack_every", ack_every, minimum=1, maximum=64),
                  "packets_per_credit": validate.integer("packets_per_credit", packets_per_credit, minimum=1)}
    if config.startswith("roce") and (ack_every, packets_per_credit) != (1, 1):
        raise ValueError(f"ack_every and packets_per_credit apply to the UET-like configurations; "
                         f"{config!r} acknowledges every packet (go-back-N), got ack_every={ack_every}, "
                         f"packets_per_credit={packets_per_credit}")
    if rto_s is not None:
        extra["rto_s"] = validate.positive("rto_s", rto_s)
    elif config == "roce-pfc":
        extra["rto_s"] = specs.value("transport.roce.default_ack_timeout")
    if fabric is not None:
        if (not isinstance(fabric, tuple) or len(fabric) != 3
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in fabric)):
            raise ValueError(f"fabric must be a tuple (n_leaves, n_spines, hosts_per_leaf) of positive ints, "
                             f"got {fabric!r}")
        if fabric[0] * fabric[2] < n_senders + 1:
            raise ValueError(f"fabric {fabric} has {fabric[0] * fabric[2]} hosts; n_senders={n_senders} "
                             f"needs at least {n_senders + 1}")
    net, pair, cc = _incast_network(config, n_senders + 1, bandwidth_bps, buffer_bytes, propagation_s, seed,
                                    fabric, coalescing, **extra)
    for i in range(1, n_senders + 1):
        net.add_flow(f"h{i}", "h0", bytes_per_sender, transport=pair, cc=cc)
    start = time.perf_counter()
    r = net.run(max_events=max_events)
    wall = time.perf_counter() - start
    done = [f.completion_time_s for f in r.flows if f.finished]
    return IncastResult(
        config, n_senders, bytes_per_sender, n_senders * bytes_per_sender * 8.0 / bandwidth_bps,
        r.max_completion_time_s, sum(done) / len(done) if done else math.inf, r.dropped_packets,
        r.trimmed_bytes // net.mtu_bytes, sum(f.retransmitted_packets for f in r.flows),
        sum(f.timeouts for f in r.flows), r.total_pause_events, r.events_processed, wall, net.rto_s)


class SprayingGoBackNSender(GoBackNSender):
    """Go-back-N with a new entropy per packet: what happens if RoCE sprays."""

    LAZY_NIC = True

    def make_packet(self):
        packet = super().make_packet()
        packet.entropy = (self.flow.entropy + self.packets_sent) & 0xFFFF
        return packet


@dataclass(frozen=True)
class SprayResult:
    """A cross-leaf permutation on a leaf-spine in one configuration."""

    config: str
    n_flows: int
    ideal_s: float                  # one flow alone at the host rate
    max_completion_s: float
    mean_completion_s: float
    out_of_order_packets: int
    retransmitted_packets: int
    dropped_packets: int

    @property
    def slowdown(self) -> float:
        return self.max_completion_s / self.ideal_s

    def __repr__(self) -> str:
        return (f"SprayResult({self.config}: last flow {self.slowdown:.2f}x ideal, "
                f"{self.out_of_order_packets} out of order, {self.retransmitted_packets} resent)")


def spraying(config: str, n_leaves: int = 4, n_spines: int = 4, hosts_per_leaf: int = 4,
             bytes_per_flow: int = 1_000_000, bandwidth_bps: float = 100e9,
             propagation_s: float = 1e-6, seed: int = 0) -> SprayResult:
    """Every host on leaf i sends to its twin on leaf i+1; the fabric is not oversubscribed."""
    validate.choice("config", config, SPRAY_CONFIGS)
    n_leaves = validate.integer("n_leaves", n_leaves, minimum=2, maximum=64,
                                why="each leaf's hosts send to the next leaf's: two leaves at least")
    bytes_per_flow = validate.integer("bytes_per_flow", bytes_per_flow, minimum=1, maximum=MAX_SCENARIO_BYTES, why=SCENARIO_WHY)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    propagation_s = validate.non_negative("propagation_s", propagation_s, maximum=1e-3, why=_WHY_PROP)
    buffer_bytes = specs.value("sim.assume.buffer_per_port")
    kw: dict[str, Any] = dict(window_bytes=specs.value("assume.uet.window_bytes"), seed=seed)
    if config.startswith("roce"):
        kw["flow_control"] = PFC(buffer_bytes)
        pair = GoBackN if config == "roce-ecmp" else (SprayingGoBackNSender, GoBackNReceiver)
        cc = None
    else:
        kw.update(flow_control=Lossy(buffer_bytes), queue_policy=Trimming(ecn=_ecn(buffer_bytes)))
        pair, cc = uet(spray=config == "uet-spray"), NSCC
    net = leaf_spine(n_leaves, n_spines, hosts_per_leaf, bandwidth_bps, bandwidth_bps, propagation_s, **kw)
    n_hosts = n_leaves * hosts_per_leaf
    for h in range(n_hosts):
        net.add_flow(f"h{h}", f"h{(h + hosts_per_leaf) % n_hosts}", bytes_per_flow, transport=pair, cc=cc)
    r = net.run()
    done = [f.completion_time_s for f in r.flows if f.finished]
    return SprayResult(config, len(r.flows), bytes_per_flow * 8.0 / bandwidth_bps, r.max_completion_time_s,
                       sum(done) / len(done) if done else math.inf,
                       sum(f.out_of_order_packets for f in r.flows),
                       sum(f.retransmitted_packets for f in r.flows), r.dropped_packets)
