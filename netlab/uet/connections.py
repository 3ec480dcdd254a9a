"""Connection state per NIC: RoCE queue pairs held ahead of time vs UET's ephemeral PDCs.

A reliable RoCE transfer needs a *queue pair* (QP) in the RTS state at both ends
before the first byte moves (chapter 3): the two sides exchange QP numbers out of
band and walk RESET -> INIT -> RTR -> RTS. A collective library that may talk to
any rank therefore sets up a QP to every peer when the job starts and holds it
for the whole job: per NIC, ``ranks_per_nic * (world_size - 1) * qps_per_peer``
contexts, growing linearly with the job.

Ultra Ethernet's packet delivery sublayer (PDS) keeps reliability state in a
*packet delivery context* (PDC) between two endpoints. In the UEC reference
provider's code a PDC is set up by the first data packet (a SYN flag: "0-RTT"
establishment) and torn down when idle (a CLOSE control packet; a MAINTAIN_PDC
flag keeps it) [uet-ref-prov]. The fact sheet confirms these *ephemeral* PDCs
only from that code, not from the specification's prose; treat the model as
"what the reference provider does".

The model. A rank talks to ``active_peers`` peers in one communication phase
(2 for a ring, about 3 for a tree, ``world_size - 1`` for an all-to-all). A PDC
lives while traffic flows plus ``idle_timeout_s``; phases of ``phase_s`` follow
one another, each with a fresh set of peers (the worst case for reuse). So a
rank holds the PDCs of the current phase and of the phases that ended less than
an idle timeout ago::

    live_pdcs = min(world_size - 1, active_peers * (1 + ceil(idle_timeout_s / phase_s)))

State per NIC is the count times ``context_bytes`` (an assumption: no published
per-QP or per-PDC size was found; the same figure is used for both so only the
count differs). Set-up time on the critical path: RoCE pays an out-of-band
exchange per QP at job start (``setup_per_qp_s``); a PDC rides on its first
data packet and costs no round trip.
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
    roce_qps: int              # queue pairs held for the whole job
    uet_pdcs: int              # packet delivery contexts alive at a time (model above)
    roce_bytes: float          # roce_qps * context_bytes
    uet_bytes: float           # uet_pdcs * context_bytes
    roce_setup_s: float        # roce_qps * setup_per_qp_s, before the first message
    uet_setup_s: float         # 0: the first data packet opens the PDC

    @property
    def ratio(self) -> float:
        """How many times more contexts RoCE holds than UET (>= 1 when peers are few)."""
        return self.roce_qps / self.uet_pdcs

    def __repr__(self) -> str:
        setup = f", {format_time(self.roce_setup_s)} to set up" if self.roce_setup_s > 0 else ""
        return (f"At {self.world_size:,} ranks a NIC holds {self.roce_qps:,} RoCE QPs "
                f"({format_bytes(self.roce_bytes)}{setup}) against {self.uet_pdcs:,} UET PDCs "
                f"({format_bytes(self.uet_bytes)}): {self.ratio:.3g}x as many contexts.")


def connection_state(world_size: int, active_peers: int, ranks_per_nic: int = 1,
                     qps_per_peer: int = 1, phase_s: float = 1e-3, idle_timeout_s: float = 1e-3,
                     context_bytes: float | None = None, setup_per_qp_s: float = 0.0) -> ConnectionState:
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

    Examples
    --------
    >>> r = connection_state(1024, active_peers=2, phase_s=1e-3, idle_timeout_s=1e-3)
    >>> r.roce_qps, r.uet_pdcs        # 1023 peers held vs 2 peers x (current + 1 idle phase)
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
    roce = ranks_per_nic * peers * qps_per_peer
    phases_alive = 1 + math.ceil(idle_timeout_s / phase_s)
    uet = ranks_per_nic * min(peers, active_peers * phases_alive)
    return ConnectionState(world_size, roce, uet, roce * context_bytes, uet * context_bytes,
                           roce * setup_per_qp_s, 0.0)


def state_vs_job_size(world_sizes: list[int], active_peers: int, **kwargs) -> list[ConnectionState]:
    """:func:`connection_state` for each job size (``active_peers`` capped at ``world_size - 1``)."""
    if not isinstance(world_sizes, (list, tuple)) or not world_sizes:
        raise ValueError(f"world_sizes must be a non-empty list of integers, got {world_sizes!r}")
    active_peers = validate.integer("active_peers", active_peers, minimum=1)
    return [connection_state(n, min(active_peers, n - 1), **kwargs) for n in world_sizes]
