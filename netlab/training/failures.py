"""Failures at scale: which failures stop a synchronous job, how often they come, what they cost.

A synchronous training step needs every rank. A failure that removes a rank (a GPU, its NIC, the
single link from a NIC to its leaf, or the leaf itself when NICs are single-homed) stops the whole
job: it restarts from the last checkpoint. A failure the fabric routes around (a leaf-to-spine
link or a spine, which ECMP or adaptive routing avoids) only slows the collectives that crossed
it, provided the fabric reroutes before the queue pairs' retries run out; so does a failed link of
a *dual-homed* NIC, whose other port keeps the rank on the fabric at half its rate, provided the
two ports act as one to the job (bonded, or merged by NCCL into one virtual NIC; NCCL's port
failover needs a second device on the connection). :func:`failure_effect` says which is which.

Interruptions arrive at a rate proportional to the GPUs a job spans. Meta's Llama 3 405B run
counted 419 unexpected interruptions in 54 days on 16,384 H100 GPUs {meta-llama3-herd}, one every
3.09 hours, 58.7 % of them GPU issues and 10 % network (switch, cable, NIC): :func:`job_mtbf`
scales that rate per GPU to any job.

A job that writes a checkpoint every ``tau`` seconds of work, each write stalling it for ``C``,
and that needs ``R`` to restart after an interruption, loses on average ``C / tau`` to writing,
about half an interval of redone work plus ``R`` per interruption. Young's first-order optimum
{young-checkpoint} is ``tau = sqrt(2 C M)`` for a job mean time between interruptions ``M``;
Daly's higher-order estimate {daly-checkpoint} is

    tau = sqrt(2 C M) [1 + sqrt(C / (2M)) / 3 + (C / (2M)) / 9] - C      (C < 2M), else tau = M,

and his complete model of exponential interruptions gives the wall-clock time per unit of work,
whose inverse is the goodput :func:`goodput` returns:

    goodput = tau / (M exp(R / M) (exp((tau + C) / M) - 1)).

The checkpoint-write and restart times default to netlab's assumptions (``assume.training.*``):
no source gives them for the runs modelled here.
References: ``meta-llama3-herd``, ``young-checkpoint``, ``daly-checkpoint``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.units import hour, minute

#: The failed parts :func:`failure_effect` knows.
COMPONENTS = ("gpu", "nic", "host_link", "leaf_switch", "spine_link", "spine_switch")
COMPONENT_NAMES = {"gpu": "a GPU", "nic": "a NIC", "host_link": "a NIC-to-leaf link", "leaf_switch": "a leaf switch",
                   "spine_link": "a leaf-to-spine link", "spine_switch": "a spine switch"}
MAX_GPUS = 10_000_000


def llama3_rate_per_gpu() -> float:
    """Unexpected interruptions per GPU per second in Meta's Llama 3 405B run (all causes).

    419 / (54 days x 16,384 GPUs) = 5.48e-9 per GPU-second, 1.97e-5 per GPU-hour.
    """
    return (specs.value("util.llama3.unexpected_interruptions")
            / (specs.value("util.llama3.snapshot_duration") * specs.value("util.llama3.n_gpus")))


def job_mtbf(n_gpus: int, rate_per_gpu_per_s: float | None = None) -> float:
    """Mean time between interruptions (s) of a synchronous job spanning ``n_gpus`` GPUs.

    Every GPU's share of failures stops the whole job, so the job's rate is ``n_gpus`` times the
    per-GPU rate (default: the Llama 3 run's, :func:`llama3_rate_per_gpu`).

    >>> round(job_mtbf(16_384) / 3600, 2)      # 54 days x 24 h / 419
    3.09
    """
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1, maximum=MAX_GPUS)
    rate = llama3_rate_per_gpu() if rate_per_gpu_per_s is None else validate.positive(
        "rate_per_gpu_per_s", rate_per_gpu_per_s, maximum=1.0, why="one failure per GPU per second")
    return 1.0 / (n_gpus * rate)


def young_interval(checkpoint_s: float, mtbf_s: float) -> float:
    """Young's first-order optimum work between checkpoints, ``sqrt(2 C M)`` seconds.

    >>> round(young_interval(60.0, 36_000.0), 2)          # sqrt(4.32e6)
    2078.46
    """
    checkpoint_s = validate.positive("checkpoint_s", checkpoint_s, maximum=30 * 86400.0, why="a month")
    mtbf_s = validate.positive("mtbf_s", mtbf_s, maximum=1e12)
    return math.sqrt(2.0 * checkpoint_s * mtbf_s)


def daly_interval(checkpoint_s: float, mtbf_s: float) -> float:
    """Daly's higher-order optimum work between checkpoints (s); ``M`` itself when ``C >= 2M``.

    Daly's own example: M = 24 h, C = 5 min gives 117 min.

    >>> round(daly_interval(300.0, 86_400.0) / 60)
    117
    """
    checkpoint_s = validate.positive("checkpoint_s", checkpoint_s, maximum=30 * 86400.0, why="a month")
    mtbf_s = validate.positive("mtbf_s", mtbf_s, maximum=1e12)
    if checkpoint_s >= 2.0 * mtbf_s:
        return mtbf_s
    x = checkpoint_s / (2.0 * mtbf_s)
    return math.sqrt(2.0 * checkpoint_s * mtbf_s) * (1.0 + math.sqrt(x) / 3.0 + x / 9.0) - checkpoint_s


def goodput(interval_s: float, checkpoint_s: float, restart_s: float, mtbf_s: float) -> float:
    """Share of wall-clock time spent on work that is kept (Daly's complete model).

    ``interval_s`` of work between checkpoints, ``checkpoint_s`` to write one, ``restart_s`` to
    resume after an interruption, interruptions exponential with mean ``mtbf_s``. Without
    interruptions (``mtbf_s`` very large) it tends to ``tau / (tau + C)``.

    >>> round(goodput(3600.0, 60.0, 600.0, 1e12), 6)     # 3600 / 3660
    0.983607
    """
    interval_s = validate.positive("interval_s", interval_s, maximum=1e9)
    checkpoint_s = validate.non_negative("checkpoint_s", checkpoint_s, maximum=30 * 86400.0, why="a month")
    restart_s = validate.non_negative("restart_s", restart_s, maximum=30 * 86400.0, why="a month")
    mtbf_s = validate.positive("mtbf_s", mtbf_s, maximum=1e12)
    lost = mtbf_s * math.exp(restart_s / mtbf_s) * math.expm1((interval_s + checkpoint_s) / mtbf_s)
    return interval_s / lost


@dataclass(frozen=True)
class Checkpointing:
    """A synchronous job's interruptions and checkpoints, and the goodput they leave.

    ``interval_s`` is the work between checkpoints the job uses (Daly's optimum unless given);
    ``lost_per_interruption_s`` the first-order loss per interruption (restart plus half an
    interval and its write); ``goodput`` Daly's complete model at ``interval_s``.
    """

    n_gpus: int
    mtbf_s: float
    checkpoint_s: float
    restart_s: float
    young_s: float
    daly_s: float
    interval_s: float
    interruptions_per_day: float
    lost_per_interruption_s: float
    goodput: float

    def __repr__(self) -> str:
        return (f"Checkpointing({self.n_gpus:,} GPUs: an interruption every {self.mtbf_s / hour:.3g} h "
                f"({self.interruptions_per_day:.3g} a day); checkpoint {self.checkpoint_s:g} s, restart "
                f"{self.restart_s:g} s; Young {self.young_s / minute:.1f} min, Daly {self.daly_s / minute:.1f} min, "
                f"every {self.interval_s / minute:.1f} min: goodput {self.goodput:.1%})")

    def __str__(self) -> str:
        return (f"{self.n_gpus:,} GPUs: one interruption every {self.mtbf_s / hour:.3g} h; checkpoint every "
                f"{self.interval_s / minute:.1f} min (Young {self.young_s / minute:.1f}, Daly "
                f"{self.daly_s / minute:.1f}); goodput {self.goodput:.1%}.")


def checkpointing(n_gpus: int, checkpoint_s: float | None = None, restart_s: float | None = None,
                  interval_s: float | None = None, rate_per_gpu_per_s: float | None = None) -> Checkpointing:
    """Interruptions, checkpoint intervals and goodput of a job on ``n_gpus`` GPUs.

    Defaults: the Llama 3 run's interruption rate per GPU, and netlab's assumed checkpoint-write
    and restart times (``assume.training.checkpoint_write``, ``assume.training.restart``).
    """
    mtbf = job_mtbf(n_gpus, rate_per_gpu_per_s)
    c = specs.value("assume.training.checkpoint_write") if checkpoint_s is None else validate.positive(
        "checkpoint_s", checkpoint_s, maximum=30 * 86400.0, why="a month")
    r = specs.value("assume.training.restart") if restart_s is None else validate.non_negative(
        "restart_s", restart_s, maximum=30 * 86400.0, why="a month")
    daly = daly_interval(c, mtbf)
    tau = daly if interval_s is None else validate.positive("interval_s", interval_s, maximum=1e9)
    return Checkpointing(n_gpus=int(n_gpus), mtbf_s=mtbf, checkpoint_s=c, restart_s=r,
                         young_s=young_interval(c, mtbf), daly_s=daly, interval_s=tau,
                         interruptions_per_day=86400.0 / mtbf, lost_per_interruption_s=r + (tau + c) / 2.0,
                         goodput=goodput(tau, c, r, mtbf))


@dataclass(frozen=True)
class FailureEffect:
    """What one failed part does to a synchronous job.

    ``stops_job``: the job must restart from its last checkpoint. Otherwise ``rate_left`` is the
    share of its scale-out rate the worst-hit rank keeps, which sets the pace of every collective
    (they are synchronous), until the part is repaired.
    """

    component: str
    dual_homed: bool
    stops_job: bool
    gpus_cut_off: int
    rate_left: float
    why: str

    def __str__(self) -> str:
        homing = "dual-homed" if self.dual_homed else "single-homed"
        if self.stops_job:
            verdict = f"stops the job ({self.gpus_cut_off} GPU{'s' if self.gpus_cut_off > 1 else ''} cut off)"
        else:
            verdict = f"does not stop the job; the worst-hit rank keeps {self.rate_left:.0%} of its rate"
        name = COMPONENT_NAMES[self.component]
        return f"{name[0].upper()}{name[1:]} ({homing} NICs) {verdict}: {self.why}"


def failure_effect(component: str, dual_homed: bool = False, hosts_per_leaf: int = 32,
                   uplinks_per_leaf: int = 32, n_spines: int = 32) -> FailureEffect:
    """Whether a failed ``component`` (a key of :data:`COMPONENTS`) stops a synchronous job.

    ``dual_homed``: each NIC has two ports on two different leaves, each carrying half its rate.
    A two-tier Clos is assumed above the leaves: ``uplinks_per_leaf`` spread evenly over
    ``n_spines`` spines, with ECMP or adaptive routing moving flows off a failed path in time
    (before the transport's retries are exhausted). A dual-homed NIC's two ports are assumed to act
    as one to the job (bonded, or one virtual NIC to NCCL); used as two separate NICs, NCCL stops
    the job as for a single-homed NIC.

    >>> failure_effect("host_link").stops_job, failure_effect("host_link", dual_homed=True).rate_left
    (True, 0.5)
    """
    validate.choice("component", component, COMPONENTS)
    dual = validate.boolean("dual_homed", dual_homed)
    hosts = validate.integer("hosts_per_leaf", hosts_per_leaf, minimum=1, maximum=1024)
    uplinks = validate.integer("uplinks_per_leaf", uplinks_per_leaf, minimum=1, maximum=1024)
    spines = validate.integer("n_spines", n_spines, minimum=1, maximum=uplinks)
    if component == "gpu":
        return FailureEffect(component, dual, True, 1, 0.0, "its shard of the model and its gradients are gone")
    if component == "nic":
        return FailureEffect(component, dual, True, 1, 0.0,
                             "dual-homing protects the links and leaves, not the adapter both ports sit on")
    if component == "host_link":
        if dual:
            return FailureEffect(component, dual, False, 0, 0.5, "the NIC's other port carries on at half the rate")
        return FailureEffect(component, dual, True, 1, 0.0, "the GPU has no other way onto the fabric")
    if component == "leaf_switch":
        if dual:
            return FailureEffect(component, dual, False, 0, 0.5,
                                 f"its {hosts} NICs each keep their port on the other leaf")
        return FailureEffect(component, dual, True, hosts, 0.0, f"all {hosts} GPUs below it lose the fabric")
    if component == "spine_link":
        return FailureEffect(component, dual, False, 0, (uplinks - 1) / uplinks,
                             f"routing moves its flows to the leaf's other {uplinks - 1} uplinks")
    return FailureEffect(component, dual, False, 0, 1.0 - 1.0 / spines,
                         f"each leaf loses {uplinks // spines} of its {uplinks} uplinks and routes around them")
