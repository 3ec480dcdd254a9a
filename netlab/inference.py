"""Inference across a scale-up domain: tensor-parallel decode, MoE all-to-all, tokens per joule.

Generating one token of a dense transformer reads every weight once. Split over a
tensor-parallel (TP) group of ``tp`` GPUs [shoeybi-megatron], each GPU reads
``1/tp`` of the weights per layer, and the group then sums its partial results with
two all-reduces per layer (after attention and after the MLP), each of
``batch * d_model`` activations. Per layer and step:

    t_layer = max(W_layer / (tp * B_hbm),  2 * P_layer * batch / (tp * F))  +  2 * T_allreduce

The first term is the roofline of the GPU (memory-bound at small batch, compute-bound
at large), the second the network. While the TP group stays inside the NVLink
domain the all-reduce runs at NVLink rate; once it spills over (``tp`` larger than the
domain) it becomes hierarchical and part of it crosses the scale-out network, whose
per-step latency is several times NVLink's. Decode cannot hide these all-reduces
behind compute (each layer needs the previous one's sum), so they add to the token
latency directly.

A mixture-of-experts (MoE) layer instead sends each token's activations to ``top_k``
experts spread over an expert-parallel (EP) group: an all-to-all. With uniform
routing, a fraction ``(ep - d) / ep`` of the traffic leaves a domain of ``d`` GPUs and
crosses the slower network.

Throughput per watt is tokens per second over the power of the GPUs used (their
share of node or rack power), i.e. tokens per joule. Sweeping the batch traces a
latency vs tokens-per-joule curve per system; :func:`pareto_front` keeps the points
no other point beats on both.

Left out, and said so wherever results are shown: the KV cache reads (which grow
with context), attention FLOPs, kernel launch overheads, and any overlap.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from netlab import collective_cost, specs, validate
from netlab.scaleup import ScaleUpDomain
from netlab.units import format_bytes, format_time

MODELS = {"llama3-70b": "model.llama3_70b", "llama3.1-405b": "model.llama31_405b"}


@dataclass(frozen=True)
class ModelShape:
    """The shape of a dense transformer, as decode sees it."""

    name: str
    n_params: float
    n_layers: int
    d_model: int
    bytes_per_param: float        # weights (2 for BF16, 1 for FP8)
    bytes_per_activation: float   # activations exchanged by TP all-reduces

    @property
    def weight_bytes(self) -> float:
        return self.n_params * self.bytes_per_param

    def __repr__(self) -> str:
        return (f"ModelShape({self.name}: {self.n_params / 1e9:.4g} B params, {self.n_layers} layers, "
                f"d_model {self.d_model}, weights {format_bytes(self.weight_bytes)})")


def transformer(n_params: float, n_layers: int, d_model: int, bytes_per_param: float = 2.0,
                bytes_per_activation: float = 2.0, name: str = "custom") -> ModelShape:
    """A dense transformer of ``n_params`` parameters in ``n_layers`` layers of width ``d_model``.

    >>> transformer(70e9, 80, 8192).weight_bytes / 1e9   # BF16 weights
    140.0
    """
    return ModelShape(name=name, n_params=validate.positive("n_params", n_params),
                      n_layers=validate.integer("n_layers", n_layers, minimum=1),
                      d_model=validate.integer("d_model", d_model, minimum=1),
                      bytes_per_param=validate.positive("bytes_per_param", bytes_per_param),
                      bytes_per_activation=validate.positive("bytes_per_activation", bytes_per_activation))


def model(name: str, bytes_per_param: float = 2.0, bytes_per_activation: float = 2.0) -> ModelShape:
    """A published model shape from the registry: one of :data:`MODELS`."""
    validate.choice("name", name, MODELS)
    prefix = MODELS[name]
    return transformer(specs.value(f"{prefix}.n_params"), int(specs.value(f"{prefix}.n_layers")),
                       int(specs.value(f"{prefix}.d_model")), bytes_per_param, bytes_per_activation,
                       name=name)


@dataclass(frozen=True)
class TPTraffic:
    """What a TP group exchanges per generated token and per layer."""

    tp: int
    allreduces_per_layer: int      # 2 in Megatron's layout
    message_bytes: float           # one all-reduce's payload per token: d_model * bytes_per_activation
    sent_per_gpu_bytes: float      # bytes one GPU sends per token per layer with a ring all-reduce

    def __repr__(self) -> str:
        return (f"TPTraffic(tp={self.tp}: {self.allreduces_per_layer} all-reduces of "
                f"{format_bytes(self.message_bytes)} per token per layer; each GPU sends "
                f"{format_bytes(self.sent_per_gpu_bytes)})")


def tp_traffic_per_token(d_model: int, tp: int, bytes_per_activation: float = 2.0) -> TPTraffic:
    """Bytes a TP group of ``tp`` GPUs exchanges per token and layer during decode.

    Two all-reduces of ``d_model`` activations; a ring all-reduce sends
    ``2 (tp - 1) / tp`` times the payload out of every GPU.

    >>> tp_traffic_per_token(8192, 8).sent_per_gpu_bytes   # 2 x 2 x 7/8 x 16384 B
    57344.0
    """
    d_model = validate.integer("d_model", d_model, minimum=1)
    tp = validate.integer("tp", tp, minimum=1)
    bytes_per_activation = validate.positive("bytes_per_activation", bytes_per_activation)
    message = d_model * bytes_per_activation
    return TPTraffic(tp=tp, allreduces_per_layer=2, message_bytes=message,
                     sent_per_gpu_bytes=2 * 2.0 * (tp - 1) / tp * message)


@dataclass(frozen=True)
class DecodeStep:
    """One decode step of a TP group: the time of one layer split into its parts, and the totals.

    Per-layer times are for one layer; ``token_latency_s`` is all layers, i.e. the time
    between two tokens of one sequence. ``tokens_per_joule`` equals tokens per second per
    watt, counting the TP group's share of its node's or rack's power.
    """

    model: str
    system: str
    tp: int
    batch: int
    fits: bool                 # weights / tp fit in one GPU's memory (KV cache not counted)
    crosses_domain: bool       # tp larger than the scale-up domain
    memory_s: float            # reading this GPU's share of one layer's weights
    compute_s: float           # this GPU's share of one layer's FLOPs at peak
    comm_s: float              # the layer's two TP all-reduces
    token_latency_s: float
    tokens_per_s: float
    power_w: float             # tp x the domain's power per GPU
    tokens_per_joule: float

    @property
    def comm_share(self) -> float:
        layer_s = max(self.memory_s, self.compute_s) + self.comm_s
        return self.comm_s / layer_s

    def __repr__(self) -> str:
        where = "across domains" if self.crosses_domain else "inside the domain"
        return (f"DecodeStep({self.model} on {self.system}, tp={self.tp} {where}, batch {self.batch}: "
                f"{format_time(self.token_latency_s)} per token, {self.tokens_per_s:.4g} tokens/s, "
                f"{self.tokens_per_joule:.3g} tokens/J; communication {self.comm_share:.0%} of a layer"
                + ("" if self.fits else "; DOES NOT FIT") + ")")


def tp_all_reduce_time(n_bytes: float, tp: int, domain: ScaleUpDomain) -> float:
    """Seconds for one all-reduce of ``n_bytes`` in a TP group of ``tp`` GPUs.

    Inside the domain (``tp <= domain.n_gpus``) a ring over the scale-up fabric;
    beyond it (``tp`` a multiple of the domain size) the hierarchical all-reduce of
    :mod:`netlab.collective_cost`, whose middle phase crosses the scale-out network.
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    tp = validate.integer("tp", tp, minimum=1)
    d = domain.n_gpus
    if tp <= d:
        return collective_cost.ring_all_reduce_time(n_bytes, tp, domain.intra_alpha_s,
                                                    domain.per_gpu_bps).time_s
    if tp % d:
        raise ValueError(f"tp must be at most the domain size {d} or a multiple of it, got {tp}")
    return collective_cost.hierarchical_all_reduce_time(
        n_bytes, d, tp // d, domain.intra_alpha_s, domain.per_gpu_bps,
        domain.inter_alpha_s, domain.scaleout_per_gpu_bps).time_s


def decode_step(shape: ModelShape, domain: ScaleUpDomain, tp: int, batch: int) -> DecodeStep:
    """One decode step of ``batch`` sequences of ``shape`` on a TP group of ``tp`` GPUs.

    ``t_layer = max(W_l / (tp B_hbm), 2 P_l batch / (tp F)) + 2 T_allreduce(batch d b)``,
    ``token latency = n_layers * t_layer``, ``tokens/s = batch / latency``. The GPU
    figures (HBM bandwidth ``B_hbm``, dense BF16 FLOP/s ``F``, memory) come from the
    registry entries of ``domain.gpu``, at their peak.
    """
    if not isinstance(shape, ModelShape):
        raise TypeError(f"shape must be a ModelShape, got {type(shape).__name__}")
    if not isinstance(domain, ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
    tp = validate.integer("tp", tp, minimum=1)
    batch = validate.integer("batch", batch, minimum=1)
    hbm_bytes_per_s = specs.value(f"gpu.{domain.gpu}.memory_bandwidth") / 8.0
    flops = specs.value(f"gpu.{domain.gpu}.bf16_dense")
    layer_params = shape.n_params / shape.n_layers
    memory_s = layer_params * shape.bytes_per_param / tp / hbm_bytes_per_s
    compute_s = 2.0 * layer_params * batch / tp / flops
    traffic = tp_traffic_per_token(shape.d_model, tp, shape.bytes_per_activation)
    comm_s = traffic.allreduces_per_layer * tp_all_reduce_time(traffic.message_bytes * batch, tp, domain)
    latency = shape.n_layers * (max(memory_s, compute_s) + comm_s)
    power_w = tp * domain.power_per_gpu_w
    return DecodeStep(model=shape.name, system=domain.name, tp=tp, batch=batch,
                      fits=shape.weight_bytes / tp <= specs.value(f"gpu.{domain.gpu}.memory"),
                      crosses_domain=tp > domain.n_gpus, memory_s=memory_s, compute_s=compute_s,
                      comm_s=comm_s, token_latency_s=latency, tokens_per_s=batch / latency,
                      power_w=power_w, tokens_per_joule=batch / latency / power_w)


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
        """Share of the bytes that leave the domain: ``(ep - d) / ep`` for uniform routing."""
        return self.inter_bytes / self.n_bytes if self.n_bytes else 0.0

    def __repr__(self) -> str:
        return (f"MoEAllToAll(ep={self.ep}, domain {self.domain_size}: {format_bytes(self.n_bytes)} per GPU, "
                f"{self.inter_fraction:.0%} across domains; {format_time(self.time_s)} = "
                f"{format_time(self.intra_s)} inside + "
                + (f"{format_time(self.inter_s)} across)" if self.inter_s else "nothing across)"))


def moe_all_to_all(tokens_per_gpu: int, d_model: int, top_k: int, ep: int, domain: ScaleUpDomain,
                   bytes_per_activation: float = 2.0) -> MoEAllToAll:
    """Time of one MoE dispatch over an EP group of ``ep`` GPUs, with uniform routing.

    Each of a GPU's ``tokens_per_gpu`` tokens goes to ``top_k`` experts spread evenly
    over the ``ep`` GPUs, so a share ``1/ep`` of the ``N`` bytes goes to each GPU.
    Pairwise exchange, one peer per step: inside the domain ``(d'-1)`` steps
    (``d' = min(ep, d)``) at NVLink rate, across it ``ep - d'`` steps on the scale-out port:

        T = (d'-1)(a_in + 8N/(ep B_up)) + (ep-d')(a_out + 8N/(ep B_out))

    With ``ep <= d`` this is :func:`netlab.collective_cost.all_to_all_time`. The combine
    step that brings results back costs the same again.
    """
    tokens_per_gpu = validate.integer("tokens_per_gpu", tokens_per_gpu, minimum=1)
    d_model = validate.integer("d_model", d_model, minimum=1)
    top_k = validate.integer("top_k", top_k, minimum=1)
    ep = validate.integer("ep", ep, minimum=1)
    bytes_per_activation = validate.positive("bytes_per_activation", bytes_per_activation)
    if not isinstance(domain, ScaleUpDomain):
        raise TypeError(f"domain must be a ScaleUpDomain, got {type(domain).__name__}")
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


def pareto_front(latencies_s: Sequence[float], values: Sequence[float]) -> list[int]:
    """Indices of the points no other point beats on both axes (lower latency, higher value).

    >>> pareto_front([1.0, 2.0, 3.0, 2.5], [1.0, 3.0, 2.0, 4.0])
    [0, 1, 3]
    """
    if len(latencies_s) != len(values):
        raise ValueError(f"latencies_s and values must have the same length, got "
                         f"{len(latencies_s)} and {len(values)}")
    points = [(validate.non_negative("latencies_s", t), validate.number("values", v, "(any finite)"))
              for t, v in zip(latencies_s, values)]
    front = []
    for i, (t, v) in enumerate(points):
        dominated = any((t2 <= t and v2 >= v) and (t2 < t or v2 > v) for t2, v2 in points)
        if not dominated:
            front.append(i)
    return front
