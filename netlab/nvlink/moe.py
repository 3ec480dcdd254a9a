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
import math

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


# --- MoE all-to-all as deployed: node-limited routing and NVLink forwarding (DeepSeek-V3, DeepEP) ---
#
# DeepSeek-V3 sends each token to at most M = 4 nodes [deepseek-v3-report]. Its dispatch kernels
# (DeepEP's "normal" kernels [deepep-readme]) send a token over RDMA *once per target node*, to the
# GPU with the same local index there (the same rail), which forwards it over NVLink to every GPU of
# that node holding one of its experts. The network carries one copy per node instead of one per
# expert; NVLink carries the fan-out. The two run at once, so the slower sets the time.


def expected_nodes(top_k: int, n_experts: int, n_nodes: int, max_nodes: int | None = None) -> float:
    """Expected number of distinct nodes a token's ``top_k`` experts lie on, with uniform routing.

    ``n_experts`` spread evenly over ``n_nodes``. Without a limit the experts are ``top_k`` of all
    ``E``; node-limited routing first picks ``M = max_nodes`` nodes, then the experts among the
    ``M E / N`` experts there. Either way, for ``m`` candidate nodes of ``e = E/N`` experts:
    ``m (1 - C(m e - e, k) / C(m e, k))`` (a node is missed only if all ``k`` picks avoid it).

    >>> round(expected_nodes(8, 256, 8), 3)              # DeepSeek-V3's experts over 8 nodes, no limit
    5.295
    >>> round(expected_nodes(8, 256, 8, max_nodes=4), 3) # at most 4 nodes
    3.629
    """
    k = validate.integer("top_k", top_k, minimum=1)
    E = validate.integer("n_experts", n_experts, minimum=1, maximum=1 << 20)
    N = validate.integer("n_nodes", n_nodes, minimum=1, maximum=E)
    if E % N:
        raise ValueError(f"n_experts ({E}) must be a multiple of n_nodes ({N})")
    m = N if max_nodes is None else min(N, validate.integer("max_nodes", max_nodes, minimum=1))
    per_node = E // N
    pool = m * per_node
    if k > pool:
        raise ValueError(f"top_k must be at most the {pool} experts on {m} node(s), got {k}")
    return m * (1.0 - math.comb(pool - per_node, k) / math.comb(pool, k))


def free_experts_per_node(nvlink_bps: float, nic_bps: float) -> float:
    """Experts per target node a token may have before NVLink forwarding, not the network, binds.

    One network copy per node costs ``S / B_nic``; forwarding it to ``e`` GPUs costs ``e S / B_nvl``;
    they balance at ``e = B_nvl / B_nic``: 160 / 50 = 3.2 in DeepSeek-V3's report.

    >>> free_experts_per_node(160e9 * 8, 50e9 * 8)
    3.2
    """
    return validate.positive("nvlink_bps", nvlink_bps) / validate.positive("nic_bps", nic_bps)


@dataclass(frozen=True)
class NodeLimitedDispatch:
    """One MoE dispatch from one GPU, sent once per node and forwarded over NVLink (per GPU, bytes and seconds)."""

    n_nodes: int
    gpus_per_node: int
    top_k: int
    max_nodes: int | None
    nodes_per_token: float      # distinct target nodes per token (own node included)
    token_bytes: float          # d_model x bytes per activation
    rdma_bytes: float           # one copy per remote target node
    direct_rdma_bytes: float    # one copy per remote expert (no forwarding)
    nvlink_bytes: float         # the fan-out inside nodes, per GPU
    rdma_s: float
    nvlink_s: float
    direct_rdma_s: float        # every remote copy straight over the network
    direct_nvlink_s: float      # and the copies for the own node over NVLink

    @property
    def direct_s(self) -> float:
        """Sending one copy per expert, network and NVLink at once."""
        return max(self.direct_rdma_s, self.direct_nvlink_s)

    @property
    def time_s(self) -> float:
        """The slower of the RDMA and NVLink parts, which run at once in DeepEP's normal kernels."""
        return max(self.rdma_s, self.nvlink_s)

    @property
    def dedup_factor(self) -> float:
        """Network bytes saved by sending once per node (direct over forwarded)."""
        return self.direct_rdma_bytes / self.rdma_bytes if self.rdma_bytes else 1.0

    @property
    def bottleneck(self) -> str:
        return "NVLink" if self.nvlink_s > self.rdma_s else "network"

    def __repr__(self) -> str:
        limit = f"at most {self.max_nodes} nodes" if self.max_nodes else "no node limit"
        return (f"Dispatch over {self.n_nodes} nodes of {self.gpus_per_node} GPUs, top-{self.top_k}, {limit}: "
                f"{self.nodes_per_token:.2f} nodes per token; network {format_bytes(self.rdma_bytes)} per GPU "
                f"({self.dedup_factor:.2f}x less than one copy per expert), {format_time(self.time_s)} "
                f"({self.bottleneck}-bound) vs {format_time(self.direct_s)} sending each copy directly.")


def node_limited_dispatch(tokens_per_gpu: int, d_model: int, top_k: int, n_experts: int, n_nodes: int,
                          gpus_per_node: int, nvlink_bps: float, nic_bps: float, max_nodes: int | None = None,
                          bytes_per_activation: float = 1.0) -> NodeLimitedDispatch:
    """Bandwidth time of one dispatch with uniform routing, sent once per node then forwarded (DeepEP normal).

    Per GPU: network bytes ``T x nodes_per_token x (N-1)/N x S`` (one copy per remote target node),
    against ``T x k x (N-1)/N x S`` sent one copy per expert; NVLink carries every copy that ends on
    another GPU of its node, ``T x k x (G-1)/G x S``. ``bytes_per_activation`` defaults to 1 (FP8
    dispatch, as DeepSeek-V3 and DeepEP's tables use). Latencies are left out: this is the
    bandwidth-bound prefill/training regime of the normal kernels.
    """
    T = validate.integer("tokens_per_gpu", tokens_per_gpu, minimum=1)
    d = validate.integer("d_model", d_model, minimum=1)
    G = validate.integer("gpus_per_node", gpus_per_node, minimum=1, maximum=1 << 20)
    nodes = expected_nodes(top_k, n_experts, n_nodes, max_nodes)
    N = int(n_nodes)
    b_nvl = validate.positive("nvlink_bps", nvlink_bps)
    b_nic = validate.positive("nic_bps", nic_bps)
    size = d * validate.positive("bytes_per_activation", bytes_per_activation)
    remote = (N - 1) / N
    rdma = T * nodes * remote * size
    direct = T * top_k * remote * size
    nvlink = T * top_k * (G - 1) / G * size
    return NodeLimitedDispatch(n_nodes=N, gpus_per_node=G, top_k=int(top_k), max_nodes=max_nodes,
                               nodes_per_token=nodes, token_bytes=size, rdma_bytes=rdma, direct_rdma_bytes=direct,
                               nvlink_bytes=nvlink, rdma_s=rdma * 8.0 / b_nic, nvlink_s=nvlink * 8.0 / b_nvl,
                               direct_rdma_s=direct * 8.0 / b_nic,
                               direct_nvlink_s=T * top_k / N * (G - 1) / G * size * 8.0 / b_nvl)


def all_to_all_by_fabric(n_gpus: int, n_bytes: float, domain: str = "dgx-h100", switch: str = "quantum2") -> dict:
    """A uniform all-to-all of ``n_bytes`` per GPU on each wiring of :mod:`netlab.fabric.rails`: kind -> seconds.

    On a rail-only fabric a byte for another rail must first cross the scale-up domain (PXN's hop,
    in series with the network here); a fat tree carries it through its spines. A dispatch sent once
    per node to the *same local index* (DeepEP's normal kernels) is rail-local by construction, so it
    needs no spine and no source-side hop on any of the three.
    """
    from netlab.fabric import rails
    return {kind: rails.traffic(kind, n_gpus, n_bytes, switch, domain).all_to_all_s for kind in rails.KINDS}
