"""Inference across a scale-up domain: tensor-parallel decode, its latency and tokens per joule.

Generating one token of a dense transformer reads every weight once, except the input
embedding table, of which it looks up one row per token. Split over a
tensor-parallel (TP) group of ``tp`` GPUs [shoeybi-megatron], each GPU reads
``1/tp`` of the weights per layer, and the group then sums its partial results with
two all-reduces per layer (after attention and after the MLP), each of
``batch * d_model`` activations. Per layer and step:

    t_layer = max(W_layer / (tp * B_hbm),  2 * P_layer * batch / (tp * F))  +  2 * T_allreduce

The first term is the roofline of the GPU (memory-bound at small batch, compute-bound
at large), the second the network. ``T_allreduce`` is what NCCL's own tuner predicts
(:mod:`netlab.collectives.nccl_tuner`): a base latency of 6.6-8.4 µs per collective plus a latency
per step, with the algorithm and protocol that come out fastest. Decode messages are
a few kB to a few MB, so that latency, not the bandwidth, sets their cost. Once the
TP group spills over the domain (``tp`` larger than it), the steps between domains
cross the scale-out network, whose step latency is several times NVLink's. Decode
cannot hide these all-reduces behind compute (each layer needs the previous one's
sum), so they add to the token latency directly.

A mixture-of-experts layer exchanges tokens with an all-to-all instead: see
:mod:`netlab.nvlink.moe`.

Throughput per watt is tokens per second over the power of the GPUs used (their
share of node or rack power), i.e. tokens per joule. Sweeping the batch traces a
latency vs tokens-per-joule curve per system; :func:`pareto_front` keeps the points
no other point beats on both.

Left out, and said so wherever results are shown: the KV cache reads (which grow
with context), attention FLOPs, kernel launch overheads beyond NCCL's modelled
latency, and any overlap.

Model shapes come from the published configuration (layers, hidden size, FFN size,
attention and key-value heads, vocabulary); :func:`dense_transformer_params` recounts
the parameters from it, and the tests hold the registry's count to that recount.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from netlab import specs, validate
from netlab.collectives import nccl_tuner as nccl_model
from netlab.nvlink import kernels
from netlab.nvlink.domains import ScaleUpDomain, check_domain
from netlab.units import format_bytes, format_time

#: The model shapes :func:`model` knows, name -> the prefix of their registry keys.
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
    lookup_params: float = 0.0    # the input embedding table: held in memory, one row read per token

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {type(self.name).__name__} {self.name!r:.80}")
        n_params = validate.positive("n_params", self.n_params)
        validate.integer("n_layers", self.n_layers, minimum=1)
        validate.integer("d_model", self.d_model, minimum=1)
        validate.positive("bytes_per_param", self.bytes_per_param)
        validate.positive("bytes_per_activation", self.bytes_per_activation)
        if validate.non_negative("lookup_params", self.lookup_params) >= n_params:
            raise ValueError(f"lookup_params must be below n_params ({n_params:g}), got {self.lookup_params:g}")

    @property
    def weight_bytes(self) -> float:
        """Bytes of all weights, as held in GPU memory."""
        return self.n_params * self.bytes_per_param

    @property
    def streamed_params(self) -> float:
        """Parameters one decode step reads (and multiplies) in full:
        all but the lookup table."""
        return self.n_params - self.lookup_params

    def __repr__(self) -> str:
        return (f"{self.name}: {self.n_params / 1e9:.5g} billion parameters in {self.n_layers} layers, "
                f"d_model {self.d_model}, {format_bytes(self.weight_bytes, digits=4)} of weights.")


def transformer(n_params: float, n_layers: int, d_model: int, bytes_per_param: float = 2.0,
                bytes_per_activation: float = 2.0, name: str = "custom",
                lookup_params: float = 0.0) -> ModelShape:
    """A dense transformer of ``n_params`` parameters in ``n_layers`` layers of width ``d_model``.

    ``lookup_params`` are the input embedding table's parameters (``vocab * d_model``
    when the output projection is not tied to it): decode looks up one row per token
    instead of reading the table, so they count for memory but not for the weight reads.

    >>> transformer(70e9, 80, 8192).weight_bytes / 1e9   # BF16 weights
    140.0
    """
    n_params = validate.positive("n_params", n_params)
    lookup_params = validate.non_negative("lookup_params", lookup_params)
    if lookup_params >= n_params:
        raise ValueError(f"lookup_params must be below n_params ({n_params:g}), got {lookup_params:g}")
    return ModelShape(name=name, n_params=n_params,
                      n_layers=validate.integer("n_layers", n_layers, minimum=1),
                      d_model=validate.integer("d_model", d_model, minimum=1),
                      bytes_per_param=validate.positive("bytes_per_param", bytes_per_param),
                      bytes_per_activation=validate.positive("bytes_per_activation", bytes_per_activation),
                      lookup_params=lookup_params)


def dense_transformer_params(n_layers: int, d_model: int, d_ffn: int, n_heads: int, n_kv_heads: int,
                             vocab: int, tied_embeddings: bool = False) -> int:
    """Parameters of a Llama-style dense transformer, counted from its configuration.

    Per layer: the query and output projections (``d^2`` each), keys and values
    (``d * n_kv_heads * d/n_heads`` each, grouped-query attention), a gated MLP of three
    ``d x d_ffn`` matrices, and two RMS-norm weight vectors (``2d``). Then the token
    embedding and the output projection (``vocab x d`` each, once if tied) and a final
    norm (``d``). No biases.

    >>> dense_transformer_params(126, 16384, 53248, 128, 8, 128256)   # Llama 3.1 405B
    405853388800
    """
    L = validate.integer("n_layers", n_layers, minimum=1)
    d = validate.integer("d_model", d_model, minimum=1)
    f = validate.integer("d_ffn", d_ffn, minimum=1)
    h = validate.integer("n_heads", n_heads, minimum=1)
    kv = validate.integer("n_kv_heads", n_kv_heads, minimum=1, maximum=h)
    V = validate.integer("vocab", vocab, minimum=1)
    validate.boolean("tied_embeddings", tied_embeddings)
    if d % h:
        raise ValueError(f"d_model ({d}) must be a multiple of n_heads ({h})")
    kv_width = kv * (d // h)
    per_layer = 2 * d * d + 2 * d * kv_width + 3 * d * f + 2 * d
    return L * per_layer + (1 if tied_embeddings else 2) * V * d + d


def model(name: str, bytes_per_param: float = 2.0, bytes_per_activation: float = 2.0) -> ModelShape:
    """A published model shape from the registry: one of :data:`MODELS`.

    Its input embedding table (``vocab x d_model``, untied in both Llama models) is the
    lookup table of :func:`transformer`.
    """
    validate.choice("name", name, MODELS)
    prefix = MODELS[name]
    d_model = int(specs.value(f"{prefix}.d_model"))
    return transformer(specs.value(f"{prefix}.n_params"), int(specs.value(f"{prefix}.n_layers")),
                       d_model, bytes_per_param, bytes_per_activation, name=name,
                       lookup_params=specs.value(f"{prefix}.vocab") * d_model)


@dataclass(frozen=True)
class TPTraffic:
    """What a TP group exchanges per generated token and per layer."""

    tp: int
    allreduces_per_layer: int      # 2 in Megatron's layout
    message_bytes: float           # one all-reduce's payload per token: d_model * bytes_per_activation
    sent_per_gpu_bytes: float      # bytes one GPU sends per token per layer with a ring all-reduce

    def __repr__(self) -> str:
        return (f"At TP {self.tp}: {self.allreduces_per_layer} all-reduces of "
                f"{format_bytes(self.message_bytes)} per token per layer; with a ring each GPU sends "
                f"{format_bytes(self.sent_per_gpu_bytes)}.")


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
    algorithm: str             # NCCL's pick for the TP all-reduce ("ring/LL", "tree/LL", "nvls/Simple"; "none" at tp 1)
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
        where = ("across domains" if self.crosses_domain else "inside the domain") + f", {self.algorithm}"
        return (f"{self.model} on {self.system}, TP {self.tp} {where}, batch {self.batch}: "
                f"{format_time(self.token_latency_s)} per token, {self.tokens_per_s:.4g} tokens/s, "
                f"{self.tokens_per_joule:.3g} tokens/J; communication is {self.comm_share:.0%} of a layer"
                + ("." if self.fits else "; the weights do not fit."))


ALGORITHMS = ("best", "ring", "custom")


@dataclass(frozen=True)
class _Choice:
    """An all-reduce a serving engine picks: its time and a label (as NCCL's estimate has)."""

    time_s: float
    label: str
_ARCH = {"h100": "hopper", "h200": "hopper", "b200": "blackwell", "gb200": "blackwell"}
_NVLINK_GEN = {"hopper": "nvlink.4.per_gpu", "blackwell": "nvlink.5.per_gpu"}


def _checked_domain(domain: ScaleUpDomain) -> ScaleUpDomain:
    """The domain, if its fields make sense and its GPU is one the models know."""
    domain = check_domain(domain)
    validate.choice("domain.gpu", domain.gpu, _ARCH)
    return domain


def _tp_all_reduce(n_bytes: float, tp: int, domain: ScaleUpDomain, algorithm: str):
    """NCCL's own predicted time (:mod:`netlab.collectives.nccl_tuner`) for one TP all-reduce, or None if tp = 1.

    Inside the domain the group is one NVLink (or PCIe) "node"; beyond it, ``tp / n_gpus``
    nodes joined by each GPU's scale-out port. The NVLink bus bandwidth scales NCCL's
    figure for the GPU generation (370.8 GB/s for 450 GB/s of NVLink 4) to the domain's rate.
    """
    d = domain.n_gpus
    if tp > d and tp % d:
        raise ValueError(f"tp must be at most the domain size {d} or a multiple of it, got {tp}")
    if tp == 1:
        return None
    arch = _ARCH[domain.gpu]
    if domain.fabric == "nvlink":
        intra = domain.per_gpu_bps * nccl_model.nvlink_busbw(arch) / specs.value(_NVLINK_GEN[arch])
    else:
        intra = domain.per_gpu_bps
    algorithms = ("ring",) if algorithm == "ring" else nccl_model.ALGORITHMS
    nccl = nccl_model.predict(n_bytes, tp, 1 if tp <= d else tp // d, fabric=domain.fabric, arch=arch,
                              intra_busbw_bps=intra, nic_bps=domain.scaleout_per_gpu_bps,
                              algorithms=algorithms)
    if algorithm != "custom" or tp > d or domain.fabric != "nvlink":
        return nccl
    # A serving engine inside one NVLink domain: its one-shot or two-shot kernel, or NCCL, whichever is
    # fastest (netlab.nvlink.kernels; the kernels read peers at the domain's line rate, a floor).
    options = [(kernels.one_shot_s(n_bytes, tp, domain.per_gpu_bps), "custom one-shot"),
               (kernels.two_shot_s(n_bytes, tp, domain.per_gpu_bps), "custom two-shot"),
               (nccl.time_s, nccl.label)]
    time_s, label = min(options)
    return _Choice(time_s=time_s, label=label)


def tp_all_reduce_time(n_bytes: float, tp: int, domain: ScaleUpDomain, algorithm: str = "best") -> float:
    """Seconds for one all-reduce of ``n_bytes`` in a TP group of ``tp`` GPUs, as NCCL's tuner prices it.

    NCCL's own model (:mod:`netlab.collectives.nccl_tuner`, NCCL 2.30.7): a base latency per
    collective plus a latency per step, ring, tree (a chain inside a node) or NVLS, with
    the protocol (LL, LL128, Simple) that comes out fastest. Inside the domain
    (``tp <= domain.n_gpus``) the group is one node; beyond it (``tp`` a multiple of the
    domain size) the nodes are joined by each GPU's scale-out port. ``algorithm="best"``
    takes NCCL's pick; ``"ring"`` keeps only rings; ``"custom"`` lets a serving engine's one-shot or
    two-shot kernel (:mod:`netlab.nvlink.engines`) run instead where it is faster, inside one NVLink
    domain only.

    >>> from netlab.nvlink import domains
    >>> round(tp_all_reduce_time(16384, 8, domains.preset("dgx-h100")) * 1e6, 1)   # ring/LL
    15.2
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    tp = validate.integer("tp", tp, minimum=1, maximum=nccl_model.MAX_RANKS)
    validate.choice("algorithm", algorithm, ALGORITHMS)
    choice = _tp_all_reduce(n_bytes, tp, _checked_domain(domain), algorithm)
    return 0.0 if choice is None else choice.time_s


def decode_step(shape: ModelShape, domain: ScaleUpDomain, tp: int, batch: int,
                algorithm: str = "best") -> DecodeStep:
    """One decode step of ``batch`` sequences of ``shape`` on a TP group of ``tp`` GPUs.

    ``t_layer = max(W_l / (tp B_hbm), 2 P_l batch / (tp F)) + 2 T_allreduce(batch d b)``, with
    ``P_l`` the streamed parameters (all but the embedding lookup table) over ``n_layers``,
    ``token latency = n_layers * t_layer``, ``tokens/s = batch / latency``. The GPU
    figures (HBM bandwidth ``B_hbm``, dense BF16 FLOP/s ``F``, memory) come from the
    registry entries of ``domain.gpu``, at their peak. ``algorithm`` is passed to
    :func:`tp_all_reduce_time`.
    """
    if not isinstance(shape, ModelShape):
        raise TypeError(f"shape must be a ModelShape, got {type(shape).__name__}")
    domain = _checked_domain(domain)
    tp = validate.integer("tp", tp, minimum=1, maximum=nccl_model.MAX_RANKS)
    batch = validate.integer("batch", batch, minimum=1)
    validate.choice("algorithm", algorithm, ALGORITHMS)
    hbm_bytes_per_s = specs.value(f"gpu.{domain.gpu}.memory_bandwidth") / 8.0
    flops = specs.value(f"gpu.{domain.gpu}.bf16_dense")
    layer_params = shape.streamed_params / shape.n_layers    # the output projection spread over layers
    memory_s = layer_params * shape.bytes_per_param / tp / hbm_bytes_per_s
    compute_s = 2.0 * layer_params * batch / tp / flops
    traffic = tp_traffic_per_token(shape.d_model, tp, shape.bytes_per_activation)
    reduce = _tp_all_reduce(traffic.message_bytes * batch, tp, domain, algorithm)
    comm_s = 0.0 if reduce is None else traffic.allreduces_per_layer * reduce.time_s
    latency = shape.n_layers * (max(memory_s, compute_s) + comm_s)
    power_w = tp * domain.power_per_gpu_w
    return DecodeStep(model=shape.name, system=domain.name, tp=tp, batch=batch,
                      algorithm="none" if reduce is None else reduce.label,
                      fits=shape.weight_bytes / tp <= specs.value(f"gpu.{domain.gpu}.memory"),
                      crosses_domain=tp > domain.n_gpus, memory_s=memory_s, compute_s=compute_s,
                      comm_s=comm_s, token_latency_s=latency, tokens_per_s=batch / latency,
                      power_w=power_w, tokens_per_joule=batch / latency / power_w)


def pareto_front(latencies_s: Sequence[float], values: Sequence[float]) -> list[int]:
    """Indices of the points no other point beats on both axes (lower latency, higher value).

    >>> pareto_front([1.0, 2.0, 3.0, 2.5], [1.0, 3.0, 2.0, 4.0])
    [0, 1, 3]
    """
    latencies_s = validate.sequence("latencies_s", latencies_s, "a list of latencies (s)")
    values = validate.sequence("values", values, "a list of numbers")
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
