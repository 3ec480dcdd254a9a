"""Reading an ``NCCL_DEBUG=INFO`` log: ranks, nodes, channels, rings, trees, NICs, GPUDirect RDMA, PXN.

With ``NCCL_DEBUG=INFO`` every rank prints, while its communicator starts, what NCCL found and
built. Each line starts ``host:pid:tid [cudaDev] NCCL INFO`` and then one of the formats of NCCL
2.30.7's ``INFO()`` calls :cite:p:`nccl-src-2-30-7`; :func:`parse` reads these:

=================================================================  ===================================
``NCCL version 2.30.7+cuda12.9``                                   the library (``src/init.cc``)
``NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/RoCE ; OOB ...``       the NICs (``net_ib/init.cc``)
``comm 0x... rank 3 nRanks 16 nNodes 2 localRanks 8 localRank 3``  who is where (``src/init.cc``)
``Channel 00/32 :  0  1  2 ...``                                   rank 0's list of each ring (``graph/rings.cc``)
``Trees [0] 1/8/-1->0->-1 [1] ...``                                per channel: children -> rank -> parent
``Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM``                      an NVLink/PCIe hop (``transport/p2p.cc``)
``Channel 00/0 : 7[7] -> 8[0] [send] via NET/IB/0/GDRDMA``         a network hop, NIC 0, GPUDirect RDMA
``... via NET/IB/0(0)/GDRDMA``                                     the same through a proxy GPU (PXN)
``32 coll channels, 32 collnet channels, 16 nvls channels, ...``   channel counts (``src/init.cc``)
``Connected all rings, use ring PXN 1 GDR 1``                      PXN and GPUDirect RDMA in use
``NVLS multicast support is available on dev 0``                   NVLink SHARP possible
``NCCL_IB_QPS_PER_CONNECTION set by environment to 4.``            a knob that was set
=================================================================  ===================================

:func:`example_log` writes such a log for a small cluster, in the same formats, for the lab.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import re

from netlab import validate

_PREFIX = re.compile(r"^(?:\S+:\d+:\d+ )?\[(\d+)\] NCCL INFO (.*)$")
_VERSION = re.compile(r"NCCL version (\d+\.\d+\.\d+)")
_COMM = re.compile(r"comm 0x[0-9a-f]+ rank (\d+) nRanks (\d+) nNodes (\d+) localRanks (\d+) localRank (\d+)")
_NET_IB = re.compile(r"NET/IB : Using(.*?);")
_NIC = re.compile(r"\[(\d+)\]([\w.-]+):(\d+)(?::[\d:]*)?/(IB|RoCE)")
_RING = re.compile(r"Channel (\d+)/(\d+) :((?: +\d+)+)\s*$")
_HOP = re.compile(r"Channel (\d+)/(\d+) : (\d+)\[(\d+)\] -> (\d+)\[(\d+)\] (?:\[(send|receive)\] )?via (\S+)")
_TREES = re.compile(r"\[(\d+)\] (-?\d+)/(-?\d+)/(-?\d+)->(\d+)->(-?\d+)")
_COUNTS = re.compile(r"(\d+) coll channels, (\d+) collnet channels, (\d+) nvls channels, (\d+) p2p channels")
_CONNECTED = re.compile(r"Connected all rings, use ring PXN (\d) GDR (\d)")
_NVLS = re.compile(r"NVLS multicast support is (not )?available")
_ENV = re.compile(r"(NCCL_[A-Z0-9_]+) set by environment to (.+?)\.?\s*$")
_NET_VIA = re.compile(r"NET/(\w+)/(\d+)(?:\((\d+)\))?(/GDRDMA)?")


@dataclass(frozen=True)
class Hop:
    """One connection a rank set up: ``src -> dst`` on one channel, over NVLink/PCIe or the network."""

    channel: int
    src_rank: int
    src_dev: int
    dst_rank: int
    dst_dev: int
    via: str                  # "P2P/CUMEM", "NET/IB/0/GDRDMA", ...
    direction: str = ""       # "send" or "receive" for network hops

    @property
    def network(self) -> bool:
        return self.via.startswith("NET/")

    @property
    def nic(self) -> int | None:
        """The NIC index a network hop uses (``NET/IB/<nic>``), None for an NVLink/PCIe hop."""
        m = _NET_VIA.match(self.via)
        return int(m.group(2)) if m else None

    @property
    def gdr(self) -> bool:
        """True when the network hop uses GPUDirect RDMA (``/GDRDMA``), the NIC reading GPU memory."""
        return "/GDRDMA" in self.via

    @property
    def proxy_rank(self) -> int | None:
        """The rank whose NIC carries this hop when PXN routes it through another GPU (``NIC(rank)``)."""
        m = _NET_VIA.match(self.via)
        return int(m.group(3)) if m and m.group(3) else None


@dataclass(frozen=True)
class NcclLog:
    """What an ``NCCL_DEBUG=INFO`` log says about one communicator."""

    version: str | None
    n_ranks: int | None
    n_nodes: int | None
    local_ranks: int | None
    nics: tuple[tuple[str, str], ...]             # (device:port, "IB" or "RoCE") in NCCL's order
    rings: dict[int, tuple[int, ...]]             # channel -> ranks in ring order (rank 0's view)
    n_ring_channels: int | None                   # the "/32" of "Channel 00/32"
    trees: dict[int, dict[int, tuple[tuple[int, ...], int]]]   # rank -> channel -> (children, parent)
    hops: tuple[Hop, ...]
    coll_channels: int | None
    nvls_channels: int | None
    ring_pxn: bool | None
    gdr: bool | None
    nvls_available: bool | None
    env: dict[str, str] = field(default_factory=dict)

    @property
    def gpus_per_node(self) -> int | None:
        return self.local_ranks

    def network_hops(self) -> list[Hop]:
        return [h for h in self.hops if h.network]

    def nics_used(self) -> list[int]:
        """NIC indices the network hops use, sorted."""
        return sorted({h.nic for h in self.network_hops() if h.nic is not None})

    def explain(self) -> str:
        """The log in sentences: who is where, how many rings, which NICs, GPUDirect RDMA, PXN, NVLS."""
        out = []
        if self.version:
            out.append(f"NCCL {self.version}.")
        if self.n_ranks is not None:
            out.append(f"{self.n_ranks} ranks on {self.n_nodes} node(s), {self.local_ranks} GPUs per node.")
        if self.nics:
            kinds = sorted({k for _, k in self.nics})
            out.append(f"{len(self.nics)} NIC(s) found ({', '.join(d for d, _ in self.nics)}), link layer "
                       f"{'/'.join(kinds)}.")
        if self.n_ring_channels is not None:
            first = self.rings[min(self.rings)] if self.rings else ()
            out.append(f"{self.n_ring_channels} channels, each its own ring over all ranks, each carrying "
                       f"1/{self.n_ring_channels} of every buffer (ring 0: {' '.join(map(str, first))}).")
        net = self.network_hops()
        if net:
            used = self.nics_used()
            if all(h.gdr for h in net):
                gdr_words = ("every network hop uses GPUDirect RDMA (GDRDMA: the NIC reads and writes GPU "
                             "memory directly)")
            elif not any(h.gdr for h in net):
                gdr_words = ("no network hop uses GPUDirect RDMA: data is staged through host memory, "
                             "which costs a copy and PCIe bandwidth")
            else:
                gdr_words = "some network hops use GPUDirect RDMA, some do not"
            out.append(f"Network hops use NIC(s) {', '.join(map(str, used))}; {gdr_words}.")
            proxied = [h for h in net if h.proxy_rank is not None]
            if proxied:
                out.append(f"{len(proxied)} network hop(s) go through another GPU's NIC (PXN: an NVLink hop "
                           "first, then that GPU's NIC on the destination's rail).")
        elif self.hops:
            out.append("All hops stay inside the node (NVLink or PCIe): no network.")
        if self.gdr is not None:
            out.append(f"Rings connected with PXN {'on' if self.ring_pxn else 'off'} and GPUDirect RDMA "
                       f"{'on' if self.gdr else 'off'}.")
        if self.nvls_channels is not None:
            out.append(f"{self.coll_channels} collective channels, {self.nvls_channels} NVLS channels.")
        if self.nvls_available is not None:
            out.append("NVLink SHARP (NVLS) is available." if self.nvls_available
                       else "NVLink SHARP (NVLS) is not available.")
        for name, value in sorted(self.env.items()):
            out.append(f"{name}={value} was set.")
        return "\n".join(out)

    def __repr__(self) -> str:
        return (f"NcclLog(version={self.version!r}, n_ranks={self.n_ranks}, n_nodes={self.n_nodes}, "
                f"channels={self.n_ring_channels}, hops={len(self.hops)}, gdr={self.gdr}, ring_pxn={self.ring_pxn})")


def _agree(name: str, old, new, line_no: int):
    if old is not None and old != new:
        raise ValueError(f"line {line_no}: {name} {new} disagrees with {old} earlier in the log "
                         "(two communicators in one log? split it per communicator)")
    return new


def parse(text: str) -> NcclLog:
    """Read the INFO lines of one communicator from ``text`` (other lines are skipped).

    Raises ValueError when the text holds no NCCL INFO line, or when two lines disagree on the
    rank count, node count or GPUs per node.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be the log as a string, got {type(text).__name__}")
    version = n_ranks = n_nodes = local = n_ring_channels = coll = nvls_ch = None
    pxn = gdr = nvls = None
    nics: list[tuple[str, str]] = []
    rings: dict[int, tuple[int, ...]] = {}
    trees: dict[int, dict[int, tuple[tuple[int, ...], int]]] = {}
    hops: list[Hop] = []
    env: dict[str, str] = {}
    seen = False
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        m = _PREFIX.match(line)
        body = m.group(2) if m else line
        if m:
            seen = True
        v = _VERSION.search(body)
        if v and body.startswith("NCCL version"):
            version = v.group(1)
            seen = True
            continue
        if not m:
            continue
        if (c := _COMM.search(body)):
            n_ranks = _agree("nRanks", n_ranks, int(c.group(2)), line_no)
            n_nodes = _agree("nNodes", n_nodes, int(c.group(3)), line_no)
            local = _agree("localRanks", local, int(c.group(4)), line_no)
        elif (c := _NET_IB.search(body)):
            if not nics:
                nics = [(f"{d}:{p}", k) for _, d, p, k in _NIC.findall(c.group(1))]
        elif (c := _RING.match(body)):
            rings[int(c.group(1))] = tuple(int(x) for x in c.group(3).split())
            n_ring_channels = int(c.group(2))
        elif (c := _HOP.match(body)):
            hops.append(Hop(int(c.group(1)), int(c.group(3)), int(c.group(4)), int(c.group(5)),
                            int(c.group(6)), c.group(8), c.group(7) or ""))
        elif body.startswith("Trees"):
            for ch, d0, d1, d2, rank, up in _TREES.findall(body):
                children = tuple(int(x) for x in (d0, d1, d2) if int(x) >= 0)
                trees.setdefault(int(rank), {})[int(ch)] = (children, int(up))
        elif (c := _COUNTS.search(body)):
            coll, nvls_ch = int(c.group(1)), int(c.group(3))
        elif (c := _CONNECTED.search(body)):
            pxn, gdr = c.group(1) == "1", c.group(2) == "1"
        elif (c := _NVLS.search(body)):
            nvls = c.group(1) is None
        elif (c := _ENV.search(body)):
            env[c.group(1)] = c.group(2)
    if not seen:
        raise ValueError("text holds no 'NCCL INFO' line: run with NCCL_DEBUG=INFO and paste the output")
    return NcclLog(version, n_ranks, n_nodes, local, tuple(nics), rings, n_ring_channels, trees,
                   tuple(hops), coll, nvls_ch, pxn, gdr, nvls, env)


# --- a log written in NCCL's formats, for the lab --------------------------------------------------
def _ring_order(channel: int, n_nodes: int, ppn: int) -> list[int]:
    """Ranks of ``channel``'s ring: each node entered at GPU ``c mod ppn`` and left by the GPU before it."""
    g = channel % ppn
    order = []
    for node in range(n_nodes):
        order += [node * ppn + (g - i) % ppn for i in range(ppn)]
    return order


def example_log(n_nodes: int = 2, gpus_per_node: int = 8, n_channels: int = 16, gdr: bool = True,
                pxn: bool = True, nvls: bool = True, link_layer: str = "IB",
                qps_per_connection: int | None = None) -> str:
    """The ``NCCL_DEBUG=INFO`` lines the ranks of the first node print, in NCCL 2.30.7's formats.

    **Synthetic**: written by netlab for a small cluster (one NIC per GPU; channel ``c`` enters
    each node at GPU ``c mod gpus_per_node`` and leaves it through that GPU's NIC), not captured
    from a machine. Hosts, pids and pointers are made up.
    """
    m = validate.integer("n_nodes", n_nodes, minimum=1, maximum=64)
    ppn = validate.integer("gpus_per_node", gpus_per_node, minimum=1, maximum=72)
    channels = validate.integer("n_channels", n_channels, minimum=1, maximum=64)
    validate.choice("link_layer", link_layer, ("IB", "RoCE"))
    for name, flag in (("gdr", gdr), ("pxn", pxn), ("nvls", nvls)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    n = m * ppn
    if n < 2:
        raise ValueError("n_nodes * gpus_per_node must be at least 2 (a communicator of one rank prints no rings)")
    q = None if qps_per_connection is None else validate.integer("qps_per_connection", qps_per_connection,
                                                                  minimum=1, maximum=128)
    lines = ["NCCL version 2.30.7+cuda12.9"]
    width = len(str(n - 1))
    orders = [_ring_order(c, m, ppn) for c in range(channels)]
    for r in range(ppn):                                   # the ranks of node 0
        pre = f"node00:{4242 + r}:{4300 + r} [{r}] NCCL INFO "
        if q is not None:
            lines.append(pre + f"NCCL_IB_QPS_PER_CONNECTION set by environment to {q}.")
        if m > 1:
            nic_list = "".join(f" [{i}]mlx5_{i}:1/{link_layer}" for i in range(ppn))
            lines.append(pre + f"NET/IB : Using{nic_list} ; OOB eth0:10.0.0.1<0>")
        lines.append(pre + f"comm 0x7f3a1c{r:06x} rank {r} nRanks {n} nNodes {m} localRanks {ppn} "
                     f"localRank {r} MNNVL 0")
        if r == 0:
            for c, order in enumerate(orders):
                ranks = "".join(f" {x:>{width}d}" for x in order)
                lines.append(pre + f"Channel {c:02d}/{channels:02d} :{ranks}")
        parts = []
        for c in range(channels):
            up = r - 1 if r > 0 else -1
            kids = [r + 1] if r < ppn - 1 else []
            if r == 0:
                kids += [k * ppn for k in (1, 2) if k < m]
            kids = (kids + [-1, -1, -1])[:3]
            parts.append(f" [{c}] {kids[0]}/{kids[1]}/{kids[2]}->{r}->{up}")
        lines.append(pre + "Trees" + "".join(parts))
        for c, order in enumerate(orders):
            nic = c % ppn                                   # the rail this channel uses
            prv = order[(order.index(r) - 1) % n]
            if prv // ppn != 0:                             # the network hop into the node
                lines.append(pre + f"Channel {c:02d}/0 : {prv}[{prv % ppn}] -> {r}[{r}] [receive] via "
                             f"NET/IB/{nic}{'/GDRDMA' if gdr else ''}")
            nxt = order[(order.index(r) + 1) % n]
            nxt_node, nxt_local = divmod(nxt, ppn)
            if nxt_node == 0:
                lines.append(pre + f"Channel {c:02d}/0 : {r}[{r}] -> {nxt}[{nxt_local}] via P2P/CUMEM")
            else:
                proxy = f"({nic})" if pxn and nic != r else ""
                lines.append(pre + f"Channel {c:02d}/0 : {r}[{r}] -> {nxt}[{nxt_local}] [send] via "
                             f"NET/IB/{nic}{proxy}{'/GDRDMA' if gdr else ''}")
        if ppn > 1 and nvls:
            lines.append(pre + f"NVLS multicast support is available on dev {r}")
        lines.append(pre + f"{channels} coll channels, {channels} collnet channels, "
                     f"{16 if nvls and ppn > 1 else 0} nvls channels, {channels} p2p channels, "
                     f"{max(1, channels // ppn)} p2p channels per peer")
        lines.append(pre + f"Connected all rings, use ring PXN {int(pxn and m > 1)} GDR {int(gdr)}")
    return "\n".join(lines) + "\n"
