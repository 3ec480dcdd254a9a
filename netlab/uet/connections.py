"""Connection state per NIC: RoCE queue pairs, connected eagerly or lazily, vs UET's ephemeral PDCs.

A reliable RoCE transfer needs a *queue pair* (QP) in the RTS state at both ends
before the first byte moves (chapter 3): the two sides exchange QP numbers out of
band and walk RESET -> INIT -> RTR -> RTS. When that happens is the library's choice:

* **eager**: every peer at start-up, ``ranks_per_nic * (world_size - 1) * qps_per_peer``
  QPs per NIC, growing with the job (NCCL with ``NCCL_RUNTIME_CONNECT=0``, which
  connects during communicator initialisation);
* **lazy**: a peer's QPs on the first operation that needs it, kept until the
  communicator is destroyed: ``ranks_per_nic * distinct_peers * qps_per_peer``, with
  ``distinct_peers`` the peers the job's pattern ever uses (NCCL's default since 2.22,
  ``NCCL_RUNTIME_CONNECT=1``: a ring connects only its neighbours on each channel)
  [nccl-env-runtime-connect].

``qps_per_peer`` is what a library opens per peer: channels times QPs per connection
(``NCCL_IB_QPS_PER_CONNECTION``, default 1, raised to spread one connection over
several ECMP paths).

Ultra Ethernet's packet delivery sublayer (PDS) keeps reliability state in a
*packet delivery context* (PDC) between two endpoints. In the UEC reference
provider's code a PDC is set up by the first data packet (a SYN flag: "0-RTT"
establishment) and torn down when idle (a CLOSE control packet; a MAINTAIN_PDC
flag keeps it) [uet-ref-prov]. The fact sheet confirms these *ephemeral* PDCs
only from that code, not from the specification's prose; treat the model as
"what the reference provider does".

The model. A rank talks to ``active_peers`` peers in one communication phase
(2 for a ring, about 3 for a tree, ``world_size - 1`` for an all-to-all), and to
``distinct_peers`` over the whole job (by default the same ``active_peers`` every
phase, as a training loop repeats its collectives; more when partners change from
phase to phase). A PDC lives while traffic flows plus ``idle_timeout_s``; phases of
``phase_s`` follow one another, each with the next peers of the job's set. So a rank
holds the PDCs of the current phase and of the phases that ended less than an idle
timeout ago, never more than the peers it has::

    live_pdcs = min(distinct_peers, active_peers * (1 + ceil(idle_timeout_s / phase_s)))

Like with like, a lazy RoCE library holds as many contexts as UET for a pattern that
repeats; UET's advantages are elsewhere: no set-up round trip before the first
packet, state that follows the current traffic rather than the communicator's
history (idle teardown), and one PDC sprayed over every path where RoCE opens extra
QPs per peer. State per NIC is the count times ``context_bytes`` (an assumption: no
published per-QP or per-PDC size was found; the same figure is used for both so only
the count differs). Set-up time: an out-of-band exchange per QP (``setup_per_qp_s``),
all at start-up when eager, on each new peer's first operation when lazy; a PDC rides
on its first data packet and costs no round trip.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.units import format_bytes, format_time


@dataclass(frozen=True)
class ConnectionState:
    """Connection contexts one NIC holds, RoCE-style and UET-style."""

    world_size: int
    roce_qps: int              # eager: queue pairs to every peer, held for the whole job
    uet_pdcs: int              # packet delivery contexts alive at a time (model above)
    roce_bytes: float          # roce_qps * context_bytes
    uet_bytes: float           # uet_pdcs * context_bytes
    roce_setup_s: float        # roce_qps * setup_per_qp_s, before the first message (eager)
    uet_setup_s: float         # 0: the first data packet opens the PDC
    roce_lazy_qps: int = 0     # lazy: QPs to the peers the job uses, held until the end
    roce_lazy_bytes: float = 0.0

    @property
    def ratio(self) -> float:
        """How many times more contexts eager RoCE holds than UET."""
        return self.roce_qps / self.uet_pdcs

    @property
    def lazy_ratio(self) -> float:
        """How many times more contexts lazy RoCE holds than UET (like with like)."""
        return self.roce_lazy_qps / self.uet_pdcs

    def __repr__(self) -> str:
        setup = f", {format_time(self.roce_setup_s)} to set up" if self.roce_setup_s > 0 else ""
        return (f"At {self.world_size:,} ranks a NIC holds {self.roce_qps:,} RoCE QPs if it connects "
                f"every peer at start ({format_bytes(self.roce_bytes)}{setup}), {self.roce_lazy_qps:,} "
                f"if it connects on first use ({format_bytes(self.roce_lazy_bytes)}), against "
                f"{self.uet_pdcs:,} UET PDCs alive ({format_bytes(self.uet_bytes)}): "
                f"{self.ratio:.3g}x eager, {self.lazy_ratio:.3g}x lazy.")


def connection_state(world_size: int, active_peers: int, ranks_per_nic: int = 1,
                     qps_per_peer: int = 1, phase_s: float = 1e-3, idle_timeout_s: float = 1e-3,
                     context_bytes: float | None = None, setup_per_qp_s: float = 0.0,
                     distinct_peers: int | None = None) -> ConnectionState:
    """Connection state per NIC for a job of ``world_size`` ranks.

    Parameters
    ----------
    world_size : int
        Ranks in the job (>= 2).
    active_peers : int
        Peers one rank talks to in one phase (1 .. world_size - 1).
    ranks_per_nic : int
        Ranks (processes) sharing one NIC.
    qps_per_peer : int
        RoCE QPs per peer (libraries open several to spread traffic over paths).
    phase_s, idle_timeout_s : float
        Length of one communication phase, and how long an idle PDC lives.
    context_bytes : float, optional
        NIC memory per context; default ``assume.connection_context_bytes``.
    setup_per_qp_s : float
        Out-of-band set-up time per QP at job start (0 to ignore it).
    distinct_peers : int, optional
        Peers a rank talks to over the whole job (``active_peers`` .. world_size - 1);
        default ``active_peers``: the same peers every phase.

    Examples
    --------
    >>> r = connection_state(1024, active_peers=2, phase_s=1e-3, idle_timeout_s=1e-3)
    >>> r.roce_qps, r.roce_lazy_qps, r.uet_pdcs     # eager, lazy, UET: a repeating ring
    (1023, 2, 2)
    >>> r = connection_state(1024, 2, distinct_peers=1023)   # fresh partners every phase
    >>> r.roce_lazy_qps, r.uet_pdcs                  # lazy keeps all; PDCs: current + 1 idle phase
    (1023, 4)
    """
    world_size = validate.integer("world_size", world_size, minimum=2)
    active_peers = validate.integer("active_peers", active_peers, minimum=1, maximum=world_size - 1)
    ranks_per_nic = validate.integer("ranks_per_nic", ranks_per_nic, minimum=1)
    qps_per_peer = validate.integer("qps_per_peer", qps_per_peer, minimum=1)
    phase_s = validate.positive("phase_s", phase_s)
    idle_timeout_s = validate.non_negative("idle_timeout_s", idle_timeout_s)
    if context_bytes is None:
        context_bytes = specs.value("assume.connection_context_bytes")
    context_bytes = validate.positive("context_bytes", context_bytes)
    setup_per_qp_s = validate.non_negative("setup_per_qp_s", setup_per_qp_s)
    peers = world_size - 1
    distinct = active_peers if distinct_peers is None else validate.integer(
        "distinct_peers", distinct_peers, minimum=active_peers, maximum=peers,
        why="from active_peers (the same peers every phase) to every peer")

    roce = ranks_per_nic * peers * qps_per_peer
    lazy = ranks_per_nic * distinct * qps_per_peer
    phases_alive = 1 + math.ceil(idle_timeout_s / phase_s)
    uet = ranks_per_nic * min(distinct, active_peers * phases_alive)
    return ConnectionState(world_size, roce, uet, roce * context_bytes, uet * context_bytes,
                           roce * setup_per_qp_s, 0.0, lazy, lazy * context_bytes)


def state_vs_job_size(world_sizes: list[int], active_peers: int, every_peer: bool = False,
                      **kwargs) -> list[ConnectionState]:
    """:func:`connection_state` for each job size (``active_peers`` capped at ``world_size - 1``);
    ``every_peer=True``: partners change each phase until the job has used every peer."""
    if not isinstance(world_sizes, (list, tuple)) or not world_sizes:
        raise ValueError(f"world_sizes must be a non-empty list of integers, got {world_sizes!r}")
    active_peers = validate.integer("active_peers", active_peers, minimum=1)
    validate.boolean("every_peer", every_peer)
    return [connection_state(n, min(active_peers, n - 1), distinct_peers=n - 1 if every_peer else None,
                             **kwargs) for n in world_sizes]
