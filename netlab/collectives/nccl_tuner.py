"""NCCL's own cost model: how the library's tuner prices a collective before running it.

Before it launches a collective NCCL predicts, for every algorithm and protocol it could
use, ``time = latency + n_bytes / bandwidth``, and runs the fastest :cite:p:`nccl-tuning-cc-2-30`.
The latency is a *base* charged once per collective (6.6 µs for a ring with the LL
protocol in NCCL 2.30.7) plus a *hardware latency per step*, which depends on what the
step crosses (NVLink, PCIe or the network). The bandwidth is the bus bandwidth the
topology search found (on an H100, 18 NVLinks at the 20.6 GB/s NCCL assumes for each:
370.8 GB/s) times an efficiency per protocol, under caps. Protocols trade latency for
bandwidth: LL (8-byte stores with a flag) halves the bandwidth, LL128 (128-byte lines)
keeps about 92 % of it, Simple (plain copies, then a fence) keeps all of it but has the
slowest steps. Algorithms, as the tuner counts their steps for ``n`` ranks on ``m``
nodes of ``p = n/m`` GPUs:

* ring all-reduce: ``2(n-1)`` steps, of which ``2(m-1)`` cross the network;
  ``algbw = busbw * n / (2(n-1))``;
* tree all-reduce: a chain through the ``p`` GPUs of a node and a tree across nodes,
  up and down: ``2((p-1) lat_intra + floor(log2 m) lat_net)``; ``algbw = busbw / 2``,
  further scaled by an empirical correction for mid-sized messages;
* ring reduce-scatter and all-gather: ``n-1`` steps, ``algbw = busbw * n / (n-1)``;
* NVLS (NVLink SHARP, the NVSwitch adds): one flat 25 µs inside an NVLink domain, plus
  ``2 floor(log2 m)`` network levels of 20.9 µs across nodes (NVLS tree); bus bandwidth
  ``2 * efficiency * busbw * (p-1)/p``, assuming one NVLS channel per GPU.

Left out, and said so where results are shown: CollNet and PAT (NCCL's network-offload
and one-GPU-per-node algorithms; :func:`collnet_latency_s` gives CollNet's latency term only,
since its bandwidth comes from the topology search), and tuner plugins. The per-channel caps of
the LL128 ring and of the tree apply when a channel count is given (``n_channels``, what
``NCCL_MIN/MAX_NCHANNELS`` bound); by default they do not bind. ``NCCL_ALGO`` and ``NCCL_PROTO``
are read with NCCL's own syntax by :func:`env_choices`; :func:`choice_table` lists the pick size
by size. Across nodes this module takes the bus bandwidth as the smaller of the intra-node one
and the node's NICs (``gpus_per_node * nic_bps``); NCCL gets both from its topology search.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import specs, validate
from netlab.units import format_byte_rate, format_bytes, format_time

ARCHS = ("hopper", "blackwell")
FABRICS = ("nvlink", "pcie")
ALGORITHMS = ("ring", "tree", "nvls")
PROTOCOLS = ("ll", "ll128", "simple")
PROTOCOL_NAMES = {"ll": "LL", "ll128": "LL128", "simple": "Simple"}
COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather")
MAX_RANKS = 1 << 20
NVLINKS_PER_GPU = {"hopper": "nvlink.4.links_per_gpu", "blackwell": "nvlink.5.links_per_gpu"}

# Tree bandwidth correction NCCL applies by message size (ncclTopoGetAlgoTime, NCCL 2.30.7):
# index i covers 64 * 2^i bytes, i = 0..22; beyond, the factor is 1.
_TREE_CORRECTION = {
    "ll": (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0,
           1.0, 1.0),
    "ll128": (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9,
              1.0, 1.0),
    "simple": (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8,
               .9, .9),
}
_LL128_EFFICIENCY = {"ring": 0.92, "tree_one_node": 7.0 / 9.0, "tree_nodes": 120.0 / 128.0}
_N_CHANNELS = 32   # assumed channel count; it only decides where the Simple ring's 1.4x "plateau" starts
_MAX_CHANNELS = 64  # MAXCHANNELS in NCCL 2.30.7's src/include/device.h (registry: nccl.channels.max)


@dataclass(frozen=True)
class TunerEstimate:
    """NCCL's predicted time for one collective with one algorithm and protocol."""

    collective: str
    algorithm: str            # "ring" or "tree"
    protocol: str             # "ll", "ll128" or "simple"
    n_bytes: float
    n_ranks: int
    n_nodes: int
    latency_s: float          # base latency plus the per-step latencies
    busbw_bps: float          # the model's bus bandwidth after the protocol's efficiency and caps
    algbw_bps: float          # what n_bytes / time tends to for large messages (after tree correction)
    time_s: float

    @property
    def label(self) -> str:
        """``"ring/LL"``, ``"tree/LL128"``, ``"ring/Simple"``, ... as NCCL's logs name them."""
        return f"{self.algorithm}/{PROTOCOL_NAMES[self.protocol]}"

    def __repr__(self) -> str:
        where = "one node" if self.n_nodes == 1 else f"{self.n_nodes} nodes"
        return (f"NCCL's model for a {format_bytes(self.n_bytes)} {self.collective.replace('_', '-')} on "
                f"{self.n_ranks} GPUs ({where}) with {self.label}: {format_time(self.time_s)} = "
                f"{format_time(self.latency_s)} latency + {format_time(self.time_s - self.latency_s)} "
                f"at {format_byte_rate(self.algbw_bps)} algbw")


def _value(key: str) -> float:
    return specs.value(key)


def nvlink_busbw(arch: str = "hopper") -> float:
    """The bus bandwidth NCCL's topology model gives one GPU's NVLinks, bit/s, one way.

    ``links * per-link bandwidth``: 18 x 20.6 GB/s = 370.8 GB/s on Hopper (82 % of the
    450 GB/s line rate), 18 x 40.1 GB/s = 721.8 GB/s on Blackwell.

    >>> round(nvlink_busbw("hopper") / 8e9, 1)
    370.8
    """
    validate.choice("arch", arch, ARCHS)
    return _value(NVLINKS_PER_GPU[arch]) * _value(f"nccl.tuner.nvlink_bw_per_link.{arch}")


def _ll_cap(arch: str, n_nodes: int) -> float:
    if n_nodes == 1:
        return _value(f"nccl.tuner.ll_max_busbw.{arch}")
    return _value("nccl.tuner.ll_max_busbw.x86_2_nodes" if n_nodes == 2 else "nccl.tuner.ll_max_busbw.x86_many_nodes")


def _bus_bandwidth(intra_bps: float, nic_bps: float | None, ppn: int, n_nodes: int) -> float:
    return intra_bps if n_nodes == 1 or nic_bps is None else min(intra_bps, ppn * nic_bps)


def _channel_cap(what: str, arch: str, m: int, n_channels: int | None) -> float:
    """``n_channels`` x the tuner's per-channel cap (no cap when the channel count is not given)."""
    if n_channels is None:
        return float("inf")
    nodes = "1_node" if m == 1 else ("2_nodes" if m == 2 else "many_nodes")
    return n_channels * _value(f"nccl.tuner.per_channel_cap.{arch}.{what}.{nodes}")


def _ring(collective, protocol, n_bytes, n, m, fabric, arch, bus, extra_net_s, n_channels=None):
    ppn = n // m
    steps = 2 * (n - 1) if collective == "all_reduce" else n - 1
    inter_steps = 0 if m == 1 else (2 * (m - 1) if collective == "all_reduce" else m - 1)
    if protocol == "ll":
        bus = min(_ll_cap(arch, m), 0.5 * bus)
    elif protocol == "ll128":
        bus = min(_LL128_EFFICIENCY["ring"] * bus, _channel_cap("ring_ll128", arch, m, n_channels))
    intra = _value(f"nccl.tuner.step_latency.{fabric}.ring.{protocol}")
    inter = _value(f"nccl.tuner.step_latency.net.{'tree' if ppn == 1 else 'ring'}.{protocol}") + extra_net_s
    if m > 1:   # every step of a multi-node ring also pays the network post overhead
        intra = max(intra, _value("nccl.tuner.net_overhead.x86_intel") * (3 if protocol == "simple" else 1))
    latency = (_value(f"nccl.tuner.base_latency.ring.{protocol}") + (steps - inter_steps) * intra
               + inter_steps * inter)
    if (protocol == "simple" and m > 1 and collective == "all_reduce"
            and n_bytes / ((n_channels or _N_CHANNELS) * n) >= 64):
        latency *= 1.4
    return latency, bus, bus * n / steps


def _tree(protocol, n_bytes, n, m, fabric, arch, bus, extra_net_s, n_channels=None):
    ppn = n // m
    bus = min(0.92 * bus, _channel_cap("tree", arch, m, n_channels))
    if protocol == "ll":
        bus = min(bus / 3.8, _ll_cap(arch, m))
    elif protocol == "ll128":
        bus = min(bus * _LL128_EFFICIENCY["tree_one_node" if m == 1 else "tree_nodes"],
                  _channel_cap("tree_ll128", arch, m, n_channels))
    intra = _value(f"nccl.tuner.step_latency.{fabric}.tree.{protocol}")
    inter = _value(f"nccl.tuner.step_latency.net.tree.{protocol}") + extra_net_s
    levels = m.bit_length() - 1                          # floor(log2 m)
    latency = _value(f"nccl.tuner.base_latency.tree.{protocol}") + 2 * ((ppn - 1) * intra + levels * inter)
    algbw = bus * 0.5
    index = int(n_bytes // 64).bit_length() - 1          # floor(log2(n_bytes / 64)), -1 below 64 B
    if 0 <= index < len(_TREE_CORRECTION[protocol]):
        algbw *= _TREE_CORRECTION[protocol][index]
    return latency, bus, algbw


def _nvls(n, m, arch, intra, nic):
    """NVLink SHARP: the NVSwitch adds; one flat latency inside the domain, a tree of nodes beyond."""
    ppn = n // m
    bus = 2.0 * _value(f"nccl.tuner.nvls_efficiency.{arch}") * intra * (ppn - 1) / ppn
    latency = _value("nccl.tuner.step_latency.nvlink.nvls.simple")
    if m > 1:   # NVLS tree: NVLS inside each node, a tree of nodes over the network
        latency += 2 * (m.bit_length() - 1) * _value("nccl.tuner.step_latency.net.nvls_tree.simple")
        bus = min(bus, ppn * nic * (2 if m <= 2 else 1))
    return latency, bus, bus * n / (2 * (n - 1))


def estimate(n_bytes: float, n_ranks: int, n_nodes: int = 1, algorithm: str = "ring",
             protocol: str = "ll", collective: str = "all_reduce", fabric: str = "nvlink",
             arch: str = "hopper", intra_busbw_bps: float | None = None, nic_bps: float | None = None,
             extra_net_step_s: float = 0.0, n_channels: int | None = None) -> TunerEstimate:
    """NCCL's predicted time for one ``collective`` with one ``algorithm`` and ``protocol``.

    Parameters
    ----------
    n_bytes : float
        Message size (nccl-tests' ``size``), bytes.
    n_ranks, n_nodes : int
        GPUs in the communicator, and the nodes they sit in (``n_ranks`` a multiple of it).
    algorithm : {"ring", "tree"}; protocol : {"ll", "ll128", "simple"}
        The tree exists for all-reduce only; LL128 over PCIe is off, as in NCCL.
    fabric : {"nvlink", "pcie"}; arch : {"hopper", "blackwell"}
        What connects the GPUs of a node, and the GPU generation (which sets caps).
    intra_busbw_bps : float, optional
        Bus bandwidth inside a node, bit/s one way; default :func:`nvlink_busbw` for NVLink,
        the PCIe 5.0 x16 line rate for PCIe.
    nic_bps : float, optional
        Network rate per GPU, bit/s one way; needed when ``n_nodes > 1``.
    extra_net_step_s : float
        Latency added to every network step (e.g. slower switches), seconds.
    n_channels : int, optional
        Channels the communicator runs (what ``NCCL_MIN/MAX_NCHANNELS`` bound, 1 to 64). Given, it
        applies the tuner's per-channel caps (ring LL128 and tree: ``n_channels`` x 29-70 GB/s by
        generation and node count) and moves the start of the Simple ring's 1.4x latency plateau;
        by default no cap binds and the plateau assumes 32 channels.

    Examples
    --------
    >>> round(estimate(16384, 8).latency_s * 1e6, 2)   # 6.6 us + 14 steps x 0.6 us
    15.0
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=MAX_RANKS)
    m = validate.integer("n_nodes", n_nodes, minimum=1, maximum=n)
    if n % m:
        raise ValueError(f"n_ranks must be a multiple of n_nodes ({m}), got {n}")
    validate.choice("algorithm", algorithm, ALGORITHMS)
    validate.choice("protocol", protocol, PROTOCOLS)
    validate.choice("collective", collective, COLLECTIVES)
    validate.choice("fabric", fabric, FABRICS)
    validate.choice("arch", arch, ARCHS)
    extra = validate.non_negative("extra_net_step_s", extra_net_step_s)
    if n_channels is not None:
        n_channels = validate.integer("n_channels", n_channels, minimum=1, maximum=_MAX_CHANNELS)
    if algorithm in ("tree", "nvls") and collective != "all_reduce":
        raise ValueError(f"algorithm={algorithm!r} is modelled for collective='all_reduce' only")
    if algorithm == "nvls" and (fabric != "nvlink" or protocol != "simple" or n // m < 2):
        raise ValueError("algorithm='nvls' needs fabric='nvlink' (an NVLink Switch), protocol='simple' "
                         "and at least 2 GPUs per node")
    if protocol == "ll128" and fabric == "pcie":
        raise ValueError("NCCL enables LL128 only over NVLink: use protocol='ll' or 'simple' with fabric='pcie'")
    if intra_busbw_bps is None:
        intra = nvlink_busbw(arch) if fabric == "nvlink" else _value("pcie.5.x16_rate")
    else:
        intra = validate.positive("intra_busbw_bps", intra_busbw_bps)
    if m > 1 and nic_bps is None:
        raise ValueError("nic_bps (the network rate per GPU) must be given when n_nodes > 1")
    nic = None if nic_bps is None else validate.positive("nic_bps", nic_bps)
    bus = _bus_bandwidth(intra, nic, n // m, m)
    if algorithm == "ring":
        latency, busbw, algbw = _ring(collective, protocol, n_bytes, n, m, fabric, arch, bus, extra, n_channels)
    elif algorithm == "nvls":
        latency, busbw, algbw = _nvls(n, m, arch, intra, nic)
        latency += 2 * (m.bit_length() - 1) * extra
    else:
        latency, busbw, algbw = _tree(protocol, n_bytes, n, m, fabric, arch, bus, extra, n_channels)
    time_s = latency + n_bytes * 8.0 / algbw
    return TunerEstimate(collective, algorithm, protocol, n_bytes, n, m, latency, busbw, algbw, time_s)


def candidates(n_bytes: float, n_ranks: int, n_nodes: int = 1, collective: str = "all_reduce",
               fabric: str = "nvlink", arch: str = "hopper", intra_busbw_bps: float | None = None,
               nic_bps: float | None = None, algorithms: tuple[str, ...] = ALGORITHMS,
               extra_net_step_s: float = 0.0, protocols: tuple[str, ...] = PROTOCOLS,
               n_channels: int | None = None) -> list[TunerEstimate]:
    """Every (algorithm, protocol) NCCL's tuner would consider here, fastest first.

    ``algorithms`` and ``protocols`` play ``NCCL_ALGO`` and ``NCCL_PROTO`` (see :func:`env_choices`);
    ``n_channels`` is :func:`estimate`'s.
    """
    algorithms = tuple(validate.sequence("algorithms", algorithms, f"a non-empty tuple of {ALGORITHMS}"))
    if not all(a in ALGORITHMS for a in algorithms) or not algorithms:
        raise ValueError(f"algorithms must be a non-empty tuple of {ALGORITHMS}, got {algorithms!r}")
    protocols = tuple(validate.sequence("protocols", protocols, f"a non-empty tuple of {PROTOCOLS}"))
    if not all(p in PROTOCOLS for p in protocols) or not protocols:
        raise ValueError(f"protocols must be a non-empty tuple of {PROTOCOLS}, got {protocols!r}")
    out = []
    for algorithm in algorithms:
        if algorithm in ("tree", "nvls") and collective != "all_reduce":
            continue
        if algorithm == "nvls" and (fabric != "nvlink" or n_ranks // n_nodes < 2):
            continue
        for protocol in ("simple",) if algorithm == "nvls" else PROTOCOLS:
            if (protocol == "ll128" and fabric == "pcie") or protocol not in protocols:
                continue
            out.append(estimate(n_bytes, n_ranks, n_nodes, algorithm, protocol, collective, fabric, arch,
                                intra_busbw_bps, nic_bps, extra_net_step_s, n_channels))
    if not out:
        raise ValueError(f"no algorithm of {algorithms!r} with a protocol of {protocols!r} runs "
                         f"collective={collective!r} here")
    return sorted(out, key=lambda e: e.time_s)


def predict(n_bytes: float, n_ranks: int, n_nodes: int = 1, collective: str = "all_reduce",
            fabric: str = "nvlink", arch: str = "hopper", intra_busbw_bps: float | None = None,
            nic_bps: float | None = None, algorithms: tuple[str, ...] = ALGORITHMS,
            protocols: tuple[str, ...] = PROTOCOLS, n_channels: int | None = None) -> TunerEstimate:
    """The (algorithm, protocol) NCCL's tuner picks, with its predicted time.

    >>> predict(16384, 8).label                        # 8 H100s, 16 KiB: ring with LL
    'ring/LL'
    """
    return candidates(n_bytes, n_ranks, n_nodes, collective, fabric, arch, intra_busbw_bps, nic_bps,
                      algorithms, 0.0, protocols, n_channels)[0]


@dataclass(frozen=True)
class SwitchLatencyEffect:
    """How much an extra latency per network step slows one collective, NCCL's choice held fixed."""

    base: TunerEstimate
    slower: TunerEstimate
    extra_net_step_s: float
    network_steps: int

    @property
    def slowdown(self) -> float:
        return self.slower.time_s / self.base.time_s - 1.0

    def __repr__(self) -> str:
        return (f"{format_bytes(self.base.n_bytes)} all-reduce with {self.base.label}: "
                f"{self.network_steps} network steps x {format_time(self.extra_net_step_s)} more make it "
                f"{format_time(self.base.time_s)} -> {format_time(self.slower.time_s)} "
                f"({self.slowdown:+.2%})")


def switch_latency_effect(n_bytes: float, n_ranks: int, n_nodes: int, extra_net_step_s: float,
                          nic_bps: float, fabric: str = "nvlink", arch: str = "hopper") -> SwitchLatencyEffect:
    """Slowdown of an all-reduce when every network step costs ``extra_net_step_s`` more.

    NCCL's pick without the extra latency is kept (the tuner does not know the switches).
    Only the steps that cross the network pay: ``2(m-1)`` for a ring over ``m`` nodes,
    ``2 floor(log2 m)`` for a tree.
    """
    base = predict(n_bytes, n_ranks, n_nodes, fabric=fabric, arch=arch, nic_bps=nic_bps)
    extra = validate.non_negative("extra_net_step_s", extra_net_step_s)
    slower = estimate(n_bytes, n_ranks, n_nodes, base.algorithm, base.protocol, fabric=fabric, arch=arch,
                      nic_bps=nic_bps, extra_net_step_s=extra)
    steps = 2 * (n_nodes - 1) if base.algorithm == "ring" else 2 * (int(n_nodes).bit_length() - 1)
    return SwitchLatencyEffect(base, slower, extra, steps)


# --- NCCL_ALGO / NCCL_PROTO, as NCCL parses them ------------------------------------------------
#: NCCL's own names (ncclAlgoStr, ncclProtoStr in src/init.cc), and what netlab models of each.
NCCL_ALGO_NAMES = ("Tree", "Ring", "CollNetDirect", "CollNetChain", "NVLS", "NVLSTree", "PAT")
NCCL_PROTO_NAMES = ("LL", "LL128", "Simple")
_NCCL_FUNCTIONS = {"broadcast": None, "reduce": None, "allgather": "all_gather",
                   "reducescatter": "reduce_scatter", "allreduce": "all_reduce", "sendrecv": None}


def _parse_nccl_list(name: str, text: str, elements: tuple[str, ...], collective: str) -> set[str]:
    """The elements ``text`` enables for ``collective``, with NCCL's syntax (src/graph/tuning.cc).

    ``"Ring,Tree"`` enables only those; ``"^LL128"`` all but that one; ``"allreduce:Tree;..."``
    applies a list to one function only, and entries after the first need such a prefix.
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a string such as 'Ring,Tree' or '^LL128', got {text!r}")
    enabled = {e: True for e in elements}
    entries = text.split(";")
    if not text.strip():
        raise ValueError(f"{name} must name at least one of {elements}, got an empty string")
    for i, entry in enumerate(entries):
        prefix, _, items = entry.rpartition(":")
        if not prefix and i > 0:
            raise ValueError(f"{name}: every entry after the first needs a 'function:' prefix, got {entry!r}")
        if prefix and prefix.strip().lower() not in _NCCL_FUNCTIONS:
            raise ValueError(f"{name}: unknown function prefix {prefix!r}; one of {tuple(_NCCL_FUNCTIONS)}")
        if prefix and _NCCL_FUNCTIONS[prefix.strip().lower()] != collective:
            continue
        negate = items.startswith("^")
        listed = [t.strip() for t in (items[1:] if negate else items).split(",")]
        lookup = {e.lower(): e for e in elements}
        unknown = [t for t in listed if t.lower() not in lookup]
        if unknown:
            raise ValueError(f"{name}: unknown name(s) {unknown}; NCCL knows {elements}")
        for e in elements:
            enabled[e] = negate
        for t in listed:
            enabled[lookup[t.lower()]] = not negate
    return {e for e, on in enabled.items() if on}


def env_choices(nccl_algo: str | None = None, nccl_proto: str | None = None, n_nodes: int = 1,
                collective: str = "all_reduce") -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The ``(algorithms, protocols)`` netlab's tuner may use under ``NCCL_ALGO`` and ``NCCL_PROTO``.

    Both are read as NCCL 2.30.7 reads them (names case-insensitive, ``^`` to exclude, a
    ``allreduce:`` prefix for one function) :cite:p:`nccl-tuning-cc-2-30`. NCCL's ``NVLS`` is
    netlab's ``"nvls"`` on one node and ``NVLSTree`` is it across nodes; CollNet and PAT are not
    modelled, so a setting that leaves only those raises ValueError.

    >>> env_choices("^Tree", "LL,Simple")
    (('ring', 'nvls'), ('ll', 'simple'))
    """
    m = validate.integer("n_nodes", n_nodes, minimum=1, maximum=MAX_RANKS)
    validate.choice("collective", collective, COLLECTIVES)
    algos = set(NCCL_ALGO_NAMES) if nccl_algo is None else _parse_nccl_list(
        "nccl_algo", nccl_algo, NCCL_ALGO_NAMES, collective)
    protos = set(NCCL_PROTO_NAMES) if nccl_proto is None else _parse_nccl_list(
        "nccl_proto", nccl_proto, NCCL_PROTO_NAMES, collective)
    modelled = {"ring": "Ring" in algos, "tree": "Tree" in algos,
                "nvls": ("NVLS" if m == 1 else "NVLSTree") in algos}
    algorithms = tuple(a for a in ALGORITHMS if modelled[a])
    protocols = tuple(p for p in PROTOCOLS if PROTOCOL_NAMES[p] in protos)
    if not algorithms:
        raise ValueError(f"nccl_algo={nccl_algo!r} leaves no algorithm netlab models (Ring, Tree, NVLS on one "
                         "node, NVLSTree across nodes)")
    if not protocols:
        raise ValueError(f"nccl_proto={nccl_proto!r} leaves no protocol")
    return algorithms, protocols


# --- the tuner's choice over a table of sizes ---------------------------------------------------
DEFAULT_SIZES = tuple(float(4 ** k) for k in range(2, 16))   # 16 B ... 1 GiB, x4 apart


@dataclass(frozen=True)
class ChoiceTable:
    """NCCL's pick, with its predicted time, for each size of one collective on one communicator."""

    n_ranks: int
    n_nodes: int
    choices: tuple[TunerEstimate, ...]       # the fastest (algorithm, protocol) per size
    runners_up: tuple[TunerEstimate | None, ...]   # the second fastest, None if there is none

    @property
    def sizes(self) -> tuple[float, ...]:
        return tuple(c.n_bytes for c in self.choices)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(c.label for c in self.choices)

    def switch_points(self) -> list[tuple[float, str]]:
        """``(first size, label)`` each time the choice changes, smallest size first."""
        out: list[tuple[float, str]] = []
        for c in self.choices:
            if not out or out[-1][1] != c.label:
                out.append((c.n_bytes, c.label))
        return out

    def __repr__(self) -> str:
        where = "one node" if self.n_nodes == 1 else f"{self.n_nodes} nodes"
        lines = [f"NCCL's choice for {self.n_ranks} GPUs ({where}):",
                 f"{'size':>10s}  {'choice':12s} {'time':>10s} {'algbw':>12s}   next best"]
        for c, r in zip(self.choices, self.runners_up):
            nxt = "-" if r is None else f"{r.label} (+{r.time_s / c.time_s - 1:.0%})"
            lines.append(f"{format_bytes(c.n_bytes):>10s}  {c.label:12s} {format_time(c.time_s):>10s} "
                         f"{format_byte_rate(c.n_bytes * 8 / c.time_s):>12s}   {nxt}")
        return "\n".join(lines)


def choice_table(n_ranks: int, n_nodes: int = 1, sizes: tuple[float, ...] = DEFAULT_SIZES,
                 collective: str = "all_reduce", fabric: str = "nvlink", arch: str = "hopper",
                 nic_bps: float | None = None, algorithms: tuple[str, ...] = ALGORITHMS,
                 protocols: tuple[str, ...] = PROTOCOLS, n_channels: int | None = None) -> ChoiceTable:
    """NCCL's (algorithm, protocol) choice and predicted time for each of ``sizes`` (bytes).

    The column ``algbw`` of the table is ``size / time``, what nccl-tests would print.

    >>> choice_table(8, sizes=(4096.0, 2.0**30)).labels
    ('ring/LL', 'nvls/Simple')
    """
    sizes = tuple(validate.sequence("sizes", sizes, "a non-empty tuple of sizes in bytes"))
    if not sizes:
        raise ValueError("sizes must be a non-empty tuple of sizes in bytes")
    choices, runners = [], []
    for size in sizes:
        ranked = candidates(validate.non_negative("sizes", size), n_ranks, n_nodes, collective, fabric, arch,
                            None, nic_bps, algorithms, 0.0, protocols, n_channels)
        choices.append(ranked[0])
        runners.append(ranked[1] if len(ranked) > 1 else None)
    return ChoiceTable(int(n_ranks), int(n_nodes), tuple(choices), tuple(runners))


def collnet_latency_s(n_ranks: int, n_nodes: int, variant: str = "direct", fabric: str = "nvlink") -> float:
    """The latency NCCL 2.30.7's tuner charges a CollNet (network SHARP) all-reduce, seconds.

    CollNet Direct: ``2 (min(1, p-1) l_intra + 0.4 µs (p-1)) + l_net`` with ``p`` GPUs per node,
    3.7 µs inside and 31 µs through the network (14 µs, the tree's, with one GPU per node).
    CollNet Chain: ``2 (p-1) 2.8 µs + 30 µs``. No base latency :cite:p:`nccl-tuning-cc-2-30`.
    Its bandwidth comes from NCCL's topology search, which netlab does not rebuild, so CollNet
    is not among :func:`candidates`.

    >>> round(collnet_latency_s(64, 8) * 1e6, 1)     # 2 (3.7 + 7 x 0.4) + 31
    44.0
    """
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=MAX_RANKS)
    m = validate.integer("n_nodes", n_nodes, minimum=2, maximum=n)
    if n % m:
        raise ValueError(f"n_ranks must be a multiple of n_nodes ({m}), got {n}")
    validate.choice("variant", variant, ("direct", "chain"))
    validate.choice("fabric", fabric, FABRICS)
    ppn = n // m
    name = f"collnet_{variant}"
    intra = _value(f"nccl.tuner.step_latency.nvlink.{name}.simple")     # the PCI figures are the same
    net = (_value("nccl.tuner.step_latency.net.tree.simple") if ppn == 1
           else _value(f"nccl.tuner.step_latency.net.{name}.simple"))
    if variant == "direct":
        return 2 * (min(1, ppn - 1) * intra + (ppn - 1) * _value("nccl.tuner.collnet_arity_latency")) + net
    return 2 * (ppn - 1) * intra + net
