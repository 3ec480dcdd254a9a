"""MoE all-to-all: how much of an expert-parallel exchange leaves the NVLink domain.

A mixture-of-experts (MoE) layer sends each token's activations to ``top_k`` of many
experts, spread over an expert-parallel (EP) group of ``ep`` GPUs, and brings the
results back: two all-to-alls per layer (dispatch and combine). With uniform routing
every GPU of the group receives the same share ``1/ep`` of a GPU's ``N`` dispatch
bytes, so a share ``(ep - d) / ep`` leaves a scale-up domain of ``d`` GPUs and crosses
the scale-out network, 18 times slower than NVLink 5 per GPU. Real routers are not
uniform (popular experts get more), which only makes the slowest GPU slower.

The cost extends the pairwise all-to-all of :mod:`netlab.collectives.alpha_beta` (one peer
per step) to two tiers. NVIDIA argues for large NVLink domains for MoE inference on
these grounds [nvidia-nvlink-fusion-blog].
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import validate
from netlab.collectives import alpha_beta as collective_cost
from netlab.nvlink.domains import ScaleUpDomain, check_domain
from netlab.units import format_bytes, format_time


@dataclass(frozen=True)
class MoEAllToAll:
    """One MoE dispatch (an all-to-all) from one GPU of an expert-parallel group, by tier."""

    ep: int
    domain_size: int
    n_bytes: float           # activations one GPU dispatches: tokens x top_k x d_model x bytes
    intra_bytes: float       # to other GPUs of its domain
    inter_bytes: float       # to GPUs of other domains, over its scale-out port
    intra_s: float
    inter_s: float

    @property
    def time_s(self) -> float:
        return self.intra_s + self.inter_s

    @property
    def inter_fraction(self) -> float:
        """Share of the bytes that leave the domain:
        ``(ep - d) / ep`` for uniform routing."""
        return self.inter_bytes / self.n_bytes if self.n_bytes else 0.0

    def __repr__(self) -> str:
        return (f"MoE dispatch over {self.ep} GPUs in domains of {self.domain_size}: "
                f"{format_bytes(self.n_bytes)} per GPU, {self.inter_fraction:.1%} of it across domains; "
                f"{format_time(self.time_s)} = {format_time(self.intra_s)} inside + "
                + (f"{format_time(self.inter_s)} across." if self.inter_s else "nothing across."))


def moe_all_to_all(tokens_per_gpu: int, d_model: int, top_k: int, ep: int, domain: ScaleUpDomain,
                   bytes_per_activation: float = 2.0) -> MoEAllToAll:
    """Time of one MoE dispatch over an EP group of ``ep`` GPUs, with uniform routing.

    Each of a GPU's ``tokens_per_gpu`` tokens goes to ``top_k`` experts spread evenly
    over the ``ep`` GPUs, so a share ``1/ep`` of the ``N`` bytes goes to each GPU.
    Pairwise exchange, one peer per step: inside the domain ``(d'-1)`` steps
    (``d' = min(ep, d)``) at NVLink rate, across it ``ep - d'`` steps on the scale-out port:

        T = (d'-1)(a_in + 8N/(ep B_up)) + (ep-d')(a_out + 8N/(ep B_out))

    With ``ep <= d`` this is :func:`netlab.collectives.alpha_beta.all_to_all_time`. The combine
    step that brings results back costs the same again.
    """
    tokens_per_gpu = validate.integer("tokens_per_gpu", tokens_per_gpu, minimum=1)
    d_model = validate.integer("d_model", d_model, minimum=1)
    top_k = validate.integer("top_k", top_k, minimum=1)
    ep = validate.integer("ep", ep, minimum=1)
    bytes_per_activation = validate.positive("bytes_per_activation", bytes_per_activation)
    domain = check_domain(domain)
    n_bytes = tokens_per_gpu * top_k * d_model * bytes_per_activation
    local = min(ep, domain.n_gpus)
    # The in-domain part is an all-to-all among `local` GPUs of their share local/ep of N.
    intra = collective_cost.all_to_all_time(n_bytes * local / ep, local, domain.intra_alpha_s,
                                            domain.per_gpu_bps)
    remote = ep - local
    inter_bytes = n_bytes * remote / ep
    inter_s = remote * domain.inter_alpha_s + inter_bytes * 8.0 / domain.scaleout_per_gpu_bps
    return MoEAllToAll(ep=ep, domain_size=domain.n_gpus, n_bytes=n_bytes,
                       intra_bytes=n_bytes * (local - 1) / ep, inter_bytes=inter_bytes,
                       intra_s=intra.time_s, inter_s=inter_s)
