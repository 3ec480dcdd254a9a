"""The host path of a message: kernel TCP vs RDMA vs GPUDirect RDMA, in time and CPU.

A message's latency is not only the wire. With **kernel TCP** the sending thread
makes a system call, the kernel copies the bytes into its buffers and runs the
TCP/IP stack; at the receiver an interrupt starts the stack again, the sleeping
thread is woken, and a second copy moves the bytes to the application. With
**RDMA** the application writes a work request and rings the NIC's doorbell; the
NIC reads the bytes by DMA, and the remote NIC writes them straight into
registered memory: no system call, no copy, no interrupt on the data path. With
data in **GPU memory**, both need a staging copy through host memory on each
side (a ``cudaMemcpy``), unless the NIC reads and writes GPU memory itself,
which is **GPUDirect RDMA** :cite:p:`nvidia-gpudirect-rdma-doc`.

Each path is a list of stages that the bytes cross in chunks (TCP segments, or
the whole message). With ``k`` chunks of ``c`` bytes and stage times
``t_i = c * 8 / r_i + p_i``, a phase takes (chapter 2's pipeline formula)::

    T = sum_i f_i + sum_i t_i + (k - 1) * max_i t_i

where ``f_i`` is a stage's fixed cost per message, ``r_i`` its rate and ``p_i``
its cost per chunk. Every cost comes from the registry (``netlab.specs.rdma``);
most are netlab's stated assumptions, in a :class:`HostCosts` a reader can change
with ``dataclasses.replace``. Registration (pinning pages and loading their
translations into the NIC) is expensive and is done once, outside the data path.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
import math

from netlab import specs, validate
from netlab.units import format_bytes, format_rate, format_time

PATHS = ("tcp", "rdma", "gpudirect")
#: Step -> the kind of work it is, for breakdown plots.
CATEGORIES = {
    "cudaMemcpy GPU->host": "GPU staging copies", "cudaMemcpy host->GPU": "GPU staging copies",
    "send(): syscall + copy + TCP/IP": "kernel: calls, stack, copies",
    "interrupt + TCP/IP receive": "kernel: calls, stack, copies",
    "wake-up + recv(): syscall + copy": "kernel: calls, stack, copies",
    "NIC DMA + wire": "NIC + wire", "post + doorbell": "verbs: post + poll", "poll completion": "verbs: post + poll",
}


@dataclass(frozen=True)
class HostCosts:
    """Costs of the steps of a host path, in seconds, bytes and bit/s (see ``netlab.specs.rdma``)."""

    syscall_s: float
    tcp_tx_stack_s: float
    tcp_rx_stack_s: float
    wakeup_s: float
    tcp_per_segment_s: float
    tcp_segment_bytes: float
    memcpy_bps: float              # one core copying kernel <-> user
    post_s: float                  # build a work request + doorbell
    poll_s: float                  # poll one completion
    nic_tx_s: float
    nic_rx_s: float
    pcie_bps: float                # host <-> NIC and host <-> GPU, one direction
    gpu_memcpy_overhead_s: float   # one cudaMemcpy's fixed cost
    hop_latency_s: float           # per network hop (switch + cable)

    def __post_init__(self) -> None:
        for f in fields(self):
            check = validate.positive if f.name.endswith(("_bps", "_bytes")) else validate.non_negative
            check(f.name, getattr(self, f.name))


def default_costs() -> HostCosts:
    """The registry's figures: PCIe 5.0 x16, netlab's host-path assumptions."""
    v = specs.value
    return HostCosts(
        syscall_s=v("host.assume.syscall"), tcp_tx_stack_s=v("host.assume.tcp_tx_stack"),
        tcp_rx_stack_s=v("host.assume.tcp_rx_stack"), wakeup_s=v("host.assume.wakeup"),
        tcp_per_segment_s=v("host.assume.tcp_per_segment"),
        tcp_segment_bytes=v("host.assume.tcp_segment_bytes"), memcpy_bps=v("host.assume.memcpy_rate"),
        post_s=v("rdma.assume.post"), poll_s=v("rdma.assume.poll"), nic_tx_s=v("rdma.assume.nic_tx"),
        nic_rx_s=v("rdma.assume.nic_rx"), pcie_bps=v("pcie.5.x16_rate"),
        gpu_memcpy_overhead_s=v("gpu.assume.memcpy_overhead"), hop_latency_s=v("assume.latency_per_hop"))


@dataclass(frozen=True)
class _Stage:
    name: str
    fixed_s: float           # once per message
    rate_bps: float = math.inf
    per_chunk_s: float = 0.0


def _phase(stages: list[_Stage], n_bytes: float, chunk_bytes: float) -> list[tuple[str, float]]:
    """Each stage's share of a pipelined phase; the shares add up to the phase time."""
    k = max(1, math.ceil(n_bytes / chunk_bytes))
    chunk = min(n_bytes, chunk_bytes)
    t = [chunk * 8.0 / s.rate_bps + s.per_chunk_s for s in stages]
    slowest = max(range(len(stages)), key=t.__getitem__)
    return [(s.name, s.fixed_s + t[i] + ((k - 1) * t[i] if i == slowest else 0.0))
            for i, s in enumerate(stages)]


@dataclass(frozen=True)
class HostPathTime:
    """One message's one-way latency split into steps, and the CPU time it costs each host."""

    path: str
    n_bytes: float
    bandwidth_bps: float
    data_in_gpu: bool
    steps: tuple[tuple[str, float], ...]   # (step, seconds) along the message's path
    latency_s: float                       # sum of the steps
    sender_cpu_s: float
    receiver_cpu_s: float
    copies: int                            # times the payload is copied in memory on the way

    def by_category(self) -> dict[str, float]:
        """Seconds per kind of work (see :data:`CATEGORIES`), every category present (0 if unused)."""
        out = dict.fromkeys(dict.fromkeys(CATEGORIES.values()), 0.0)
        for step, t in self.steps:
            out[CATEGORIES[step]] += t
        return out

    def __repr__(self) -> str:
        where = "GPU" if self.data_in_gpu else "host"
        return (f"HostPathTime({self.path}, {format_bytes(self.n_bytes)} {where} memory at "
                f"{format_rate(self.bandwidth_bps)}: {format_time(self.latency_s)} one-way; CPU "
                f"{format_time(self.sender_cpu_s)} sender + {format_time(self.receiver_cpu_s)} receiver; "
                f"{self.copies} copies)")


def host_path_latency(path: str, n_bytes: float, bandwidth_bps: float, hops: int = 1,
                      data_in_gpu: bool = False, costs: HostCosts | None = None) -> HostPathTime:
    """One-way latency and CPU cost of a message over ``path``, as a ping-pong would measure it.

    Parameters
    ----------
    path : {"tcp", "rdma", "gpudirect"}
        Kernel TCP sockets, RDMA SEND/RECV from registered memory, or GPUDirect RDMA.
    n_bytes : float
        Message size in bytes (> 0).
    bandwidth_bps : float
        Link rate, one direction, bit/s.
    hops : int
        Network hops between the NICs (1 = back to back).
    data_in_gpu : bool
        The message starts and ends in GPU memory. Then "tcp" and "rdma" stage it
        through host memory with a cudaMemcpy on each side; "gpudirect" requires it.
    costs : HostCosts, optional
        The step costs; :func:`default_costs` if omitted.

    Examples
    --------
    8 bytes of host memory over RDMA at 100 Gb/s, back to back, is
    post + NIC + one hop + NIC + poll = 0.1 + 0.25 + 0.5 + 0.2 + 0.05 µs (plus 0.64 ns on the wire).

    >>> round(host_path_latency("rdma", 8, 100e9).latency_s * 1e6, 3)
    1.101
    """
    path = validate.choice("path", path, PATHS)
    n_bytes = validate.positive("n_bytes", n_bytes)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    hops = validate.integer("hops", hops, minimum=1)
    data_in_gpu = validate.boolean("data_in_gpu", data_in_gpu)
    if path == "gpudirect" and not data_in_gpu:
        raise ValueError("data_in_gpu must be True for path 'gpudirect' (it moves GPU memory)")
    c = default_costs() if costs is None else costs
    if not isinstance(c, HostCosts):
        raise TypeError(f"costs must be a HostCosts, got {type(c).__name__}")

    wire = _Stage("NIC DMA + wire", c.nic_tx_s + hops * c.hop_latency_s + c.nic_rx_s,
                  rate_bps=min(bandwidth_bps, c.pcie_bps))
    staged = data_in_gpu and path != "gpudirect"
    steps: list[tuple[str, float]] = []
    if staged:
        steps += _phase([_Stage("cudaMemcpy GPU->host", c.gpu_memcpy_overhead_s, c.pcie_bps)], n_bytes, n_bytes)
    if path == "tcp":
        per_seg = c.tcp_per_segment_s
        steps += _phase([
            _Stage("send(): syscall + copy + TCP/IP", c.syscall_s + c.tcp_tx_stack_s, c.memcpy_bps, per_seg),
            wire,
            _Stage("interrupt + TCP/IP receive", c.tcp_rx_stack_s, per_chunk_s=per_seg),
            _Stage("wake-up + recv(): syscall + copy", c.wakeup_s + c.syscall_s, c.memcpy_bps),
        ], n_bytes, c.tcp_segment_bytes)
        k = math.ceil(n_bytes / c.tcp_segment_bytes)
        copy_s = n_bytes * 8.0 / c.memcpy_bps
        sender_cpu = c.syscall_s + c.tcp_tx_stack_s + k * per_seg + copy_s
        receiver_cpu = c.tcp_rx_stack_s + k * per_seg + c.wakeup_s + c.syscall_s + copy_s
        copies = 2
    else:
        steps += _phase([_Stage("post + doorbell", c.post_s), wire, _Stage("poll completion", c.poll_s)],
                        n_bytes, n_bytes)
        sender_cpu = c.post_s + c.poll_s          # post the send, reap its completion
        receiver_cpu = c.post_s + c.poll_s        # post the receive, reap its completion
        copies = 0
    if staged:
        steps += _phase([_Stage("cudaMemcpy host->GPU", c.gpu_memcpy_overhead_s, c.pcie_bps)], n_bytes, n_bytes)
        sender_cpu += c.gpu_memcpy_overhead_s
        receiver_cpu += c.gpu_memcpy_overhead_s
        copies += 2
    return HostPathTime(path=path, n_bytes=n_bytes, bandwidth_bps=bandwidth_bps, data_in_gpu=data_in_gpu,
                        steps=tuple(steps), latency_s=sum(t for _, t in steps), sender_cpu_s=sender_cpu,
                        receiver_cpu_s=receiver_cpu, copies=copies)


@dataclass(frozen=True)
class CoresNeeded:
    """CPU cores busy to keep a link full with messages of one size over one path."""

    path: str
    bandwidth_bps: float
    n_bytes: float
    messages_per_s: float
    sender_cores: float
    receiver_cores: float

    def __repr__(self) -> str:
        return (f"CoresNeeded({self.path} at {format_rate(self.bandwidth_bps)} in "
                f"{format_bytes(self.n_bytes)} messages: {self.sender_cores:.2f} sender cores, "
                f"{self.receiver_cores:.2f} receiver cores)")


def cores_needed(path: str, bandwidth_bps: float, n_bytes: float, data_in_gpu: bool = False,
                 costs: HostCosts | None = None) -> CoresNeeded:
    """Cores to drive ``bandwidth_bps``: ``messages_per_s * cpu_s_per_message`` on each host.

    >>> round(cores_needed("rdma", 400e9, 65536).sender_cores, 3)   # 763k msg/s x 0.15 µs
    0.114
    """
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    r = host_path_latency(path, n_bytes, bandwidth_bps, data_in_gpu=data_in_gpu, costs=costs)
    rate = bandwidth_bps / (8.0 * r.n_bytes)
    return CoresNeeded(path=r.path, bandwidth_bps=bandwidth_bps, n_bytes=r.n_bytes, messages_per_s=rate,
                       sender_cores=rate * r.sender_cpu_s, receiver_cores=rate * r.receiver_cpu_s)


@dataclass(frozen=True)
class RegistrationCost:
    """Time to register ``n_bytes``: ``reg_base_s + n_pages * reg_per_page_s``."""

    n_bytes: float
    page_bytes: float
    n_pages: int
    time_s: float

    def __repr__(self) -> str:
        return (f"RegistrationCost({format_bytes(self.n_bytes, binary=True)} in {self.n_pages} pages of "
                f"{format_bytes(self.page_bytes, binary=True)}: {format_time(self.time_s)})")


def registration_time(n_bytes: float, page_bytes: float | None = None) -> RegistrationCost:
    """Cost of ``ibv_reg_mr`` on ``n_bytes``: pin each page and load its translation into the NIC.

    ``page_bytes`` defaults to 4 KiB; pass 2 MiB for huge pages.

    >>> round(registration_time(2**30).time_s * 1e3, 3)    # 1 GiB = 262,144 pages
    52.434
    """
    n_bytes = validate.positive("n_bytes", n_bytes)
    page = specs.value("rdma.assume.page_bytes") if page_bytes is None else validate.positive(
        "page_bytes", page_bytes)
    n_pages = math.ceil(n_bytes / page)
    time_s = specs.value("rdma.assume.reg_base") + n_pages * specs.value("rdma.assume.reg_per_page")
    return RegistrationCost(n_bytes=n_bytes, page_bytes=page, n_pages=n_pages, time_s=time_s)


@dataclass(frozen=True)
class GpuDirectGain:
    """Latency of GPU-to-GPU RDMA staged through host memory vs GPUDirect RDMA."""

    n_bytes: float
    bandwidth_bps: float
    staged_s: float
    direct_s: float
    gain: float      # 1 - direct_s / staged_s: the share of latency GPUDirect removes

    def __repr__(self) -> str:
        return (f"GpuDirectGain({format_bytes(self.n_bytes)} at {format_rate(self.bandwidth_bps)}: "
                f"{format_time(self.staged_s)} staged -> {format_time(self.direct_s)} direct, "
                f"{self.gain:.0%} less)")


def gpudirect_gain(n_bytes: float, bandwidth_bps: float, hops: int = 1,
                   costs: HostCosts | None = None) -> GpuDirectGain:
    """How much latency GPUDirect RDMA removes against staging through host memory (seed claim E5)."""
    staged = host_path_latency("rdma", n_bytes, bandwidth_bps, hops, data_in_gpu=True, costs=costs)
    direct = host_path_latency("gpudirect", n_bytes, bandwidth_bps, hops, data_in_gpu=True, costs=costs)
    return GpuDirectGain(n_bytes=staged.n_bytes, bandwidth_bps=staged.bandwidth_bps,
                         staged_s=staged.latency_s, direct_s=direct.latency_s,
                         gain=1.0 - direct.latency_s / staged.latency_s)
