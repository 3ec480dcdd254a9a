"""The verbs objects: fabric, device context, protection domain and memory region.

Names follow libibverbs :cite:p:`ibv-reg-mr-man` :cite:p:`ibv-post-send-man`: a
memory region (MR) is registered in a protection domain (PD) with access flags and
gets an ``lkey`` (for local work requests) and an ``rkey`` (handed to a peer, which
puts it in one-sided RDMA and atomic requests). REMOTE_WRITE and REMOTE_ATOMIC
require LOCAL_WRITE; local read is always allowed. Addresses are the real virtual
addresses of the numpy buffers, as ``ibv_reg_mr`` uses the buffer's address.

Keys come in two layouts (``Fabric(key_layout=...)``):

- ``"random"`` (the default, an emulation choice): each context draws its keys
  from its own random generator, seeded from the fabric's ``seed`` and the host
  name (so a run is reproducible), and a key never repeats on one fabric. Using
  one's own lkey as the peer's rkey then always fails with a remote access error,
  which makes the slip visible.
- ``"mlx5"``: keys formed as the Linux mlx5 driver forms them for ConnectX
  adapters {cite:p}`linux-mlx5-mr`: lkey == rkey == (index << 8) | variant, where
  the index is a slot in the device's key table and the low byte comes from a
  per-device counter incremented at each registration. Keys are then predictable
  and repeat across hosts: two hosts that register in the same order hand out the
  same key values, so the own-lkey slip can land in the peer's region and succeed.
  The index order is firmware's and not documented; the emulation takes the lowest
  free slot, starting at :data:`MLX5_FIRST_INDEX`.

Neither layout makes a key a secret: keys travel in clear text in every request
{cite:p}`rothenberger-redmark`; isolation comes from protection domains, access
flags, memory windows, partitions and network policy.

A :class:`Fabric` stands for the wire and the host-path costs between emulated
hosts; each host opens a :class:`Context` with its own simulated clock.
"""

from __future__ import annotations

import hashlib
import itertools
import numbers
import random

import numpy as np

from netlab import validate
from netlab.rdma.hoststack import HostCosts, default_costs
from netlab.rdma.core import (SGE, Access, AsyncEvent, CompletionQueue, Opcode, VerbsError, WCOpcode, WCStatus,
                              WorkCompletion)
from netlab.rdma.qp import GID_TYPES, PATH_MTUS, QueuePair, SharedReceiveQueue
from netlab.units import format_rate, format_time

#: The first key-table slot the "mlx5" layout hands out (an emulation choice).
MLX5_FIRST_INDEX = 1
KEY_LAYOUTS = ("random", "mlx5")
#: A RoCE port's GID table as the emulation builds it by default — one address entered twice,
#: once per RoCE version (index 0 RoCE v1, index 1 RoCE v2), as Linux lists a port's IPv6
#: link-local address :cite:p:`nvidia-rdma-aware-manual`.
DEFAULT_GID_TYPES = ("RoCE v1", "RoCE v2")

__all__ = ["DEFAULT_GID_TYPES", "KEY_LAYOUTS", "MLX5_FIRST_INDEX", "Access", "AsyncEvent", "CompletionQueue", "Context", "Fabric",
           "MemoryRegion", "Opcode", "ProtectionDomain",
           "SGE", "VerbsError", "WCOpcode", "WCStatus", "WorkCompletion"]


class Fabric:
    """The wire between emulated hosts and the cost model of their host path.

    ``bandwidth_bps`` is the link rate (one direction), ``hops`` the network hops
    between NICs; step costs come from :class:`netlab.rdma.hoststack.HostCosts`.
    ``key_layout`` is ``"random"`` (default) or ``"mlx5"``; see the module docstring.
    """

    def __init__(self, bandwidth_bps: float, hops: int = 1, costs: HostCosts | None = None,
                 seed: int = 0, key_layout: str = "random") -> None:
        if key_layout not in KEY_LAYOUTS:
            raise ValueError(f"key_layout must be one of {KEY_LAYOUTS}, got {key_layout!r}")
        self.key_layout = key_layout
        self.bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
        self.seed = validate.integer("seed", seed, minimum=0, maximum=2**64 - 1)
        self.hops = validate.integer("hops", hops, minimum=1, maximum=64)
        self.costs = default_costs() if costs is None else costs
        if not isinstance(self.costs, HostCosts):
            raise TypeError(f"costs must be a HostCosts, got {type(self.costs).__name__}")
        self.hosts: dict[str, Context] = {}
        self._keys_in_use: set[int] = set()     # keys never repeat across devices of one fabric

    def open_device(self, host: str, *, active_mtu: int = 4096, pkeys: tuple[int, ...] = (0xFFFF,),
                    gid_types: tuple[str, ...] = DEFAULT_GID_TYPES) -> Context:
        """Open the RDMA device of ``host`` (``ibv_open_device``); one context per host name.

        The port it uses has an ``active_mtu`` (an InfiniBand MTU, 256-4096 bytes: what the
        link carries per packet; on RoCE the largest one that fits the Ethernet MTU, 1024 for a
        1500-byte MTU and 4096 for jumbo frames), a P_Key table ``pkeys`` (the partitions it
        belongs to; 0xFFFF is the default partition) and a GID table whose entries have the
        types ``gid_types`` (``"RoCE v1"``, ``"RoCE v2"`` or ``"IB"``)."""
        if not isinstance(host, str):
            raise TypeError(f"host must be a non-empty string, got {type(host).__name__} {host!r}")
        if not host:
            raise ValueError("host must be a non-empty string, got ''")
        if host in self.hosts:
            raise ValueError(f"host {host!r} already has an open device on this fabric")
        if active_mtu not in PATH_MTUS:
            raise ValueError(f"active_mtu must be one of {PATH_MTUS} bytes, got {active_mtu!r}")
        if (not isinstance(pkeys, tuple) or not pkeys
                or not all(isinstance(k, int) and not isinstance(k, bool) and 0 < k < 2**16 for k in pkeys)):
            raise ValueError(f"pkeys must be a non-empty tuple of 16-bit P_Keys (1..0xFFFF), got {pkeys!r}")
        if not isinstance(gid_types, tuple) or not gid_types or not all(g in GID_TYPES for g in gid_types):
            raise ValueError(f"gid_types must be a non-empty tuple of {GID_TYPES}, got {gid_types!r}")
        self.hosts[host] = Context(self, host, active_mtu, pkeys, gid_types)
        return self.hosts[host]

    def network_s(self, n_bytes: int) -> float:
        """NIC to NIC: NIC processing at both ends, the hops, and the bytes at the slower of link and PCIe."""
        size = validate.non_negative("n_bytes", n_bytes)
        c = self.costs
        return (c.nic_tx_s + self.hops * c.hop_latency_s + c.nic_rx_s
                + size * 8.0 / min(self.bandwidth_bps, c.pcie_bps))

    def __repr__(self) -> str:
        return f"Fabric({format_rate(self.bandwidth_bps)}, {self.hops} hop(s), hosts {sorted(self.hosts)})"


class Context:
    """An opened device on one host: owns PDs, CQs, QPs, the key table and the host's clock."""

    def __init__(self, fabric: Fabric, host: str, active_mtu: int = 4096, pkeys: tuple[int, ...] = (0xFFFF,),
                 gid_types: tuple[str, ...] = DEFAULT_GID_TYPES) -> None:
        self.fabric = fabric
        self.host = host
        self.active_mtu = active_mtu
        self.pkeys = pkeys
        self.gid_types = gid_types
        # packets this device's port dropped, by reason (what real port and QP counters count)
        self.rx_drops: dict[str, int] = {}
        self.cqs: list[CompletionQueue] = []
        self.srqs: list[SharedReceiveQueue] = []
        self.clock_s = 0.0                   # this host's CPU time line
        self.mrs: dict[int, MemoryRegion] = {}   # key -> MR (lkey == rkey here, as on many HCAs)
        self.qps: dict[int, QueuePair] = {}
        digest = hashlib.sha256(f"{fabric.seed}/{host}".encode()).digest()
        self._rng = random.Random(int.from_bytes(digest[:8], "little"))
        self._qpns = itertools.count(0x40)
        self._mkey_var = 0                   # mlx5 layout: the per-device 8-bit variant counter
        self.async_events: list[AsyncEvent] = []   # affiliated events not yet read, oldest first

    def _new_key(self) -> int:
        """A fresh 32-bit key in the fabric's layout (see the module docstring)."""
        if self.fabric.key_layout == "mlx5":
            used = {key >> 8 for key in self.mrs}
            index = next(i for i in itertools.count(MLX5_FIRST_INDEX) if i not in used)
            self._mkey_var = (self._mkey_var + 1) % 256     # atomic_inc_return on a u8
            return (index << 8) | self._mkey_var
        while True:
            key = self._rng.getrandbits(32)
            if key and key not in self.fabric._keys_in_use:
                self.fabric._keys_in_use.add(key)
                return key

    def get_async_event(self) -> AsyncEvent | None:
        """``ibv_get_async_event``: the oldest unread event of this device, or ``None`` (the
        real call blocks until one arrives; a program reads them on a thread of its own)."""
        return self.async_events.pop(0) if self.async_events else None

    def alloc_pd(self) -> ProtectionDomain:
        return ProtectionDomain(self)

    def create_cq(self, cqe: int = 65536) -> CompletionQueue:
        """``ibv_create_cq``: a completion queue holding ``cqe`` completions not yet polled (a
        provider may give more than asked :cite:p:`ibv-create-cq-man`; the emulation gives exactly
        ``cqe``). One more is an overrun: see :class:`~netlab.rdma.core.CompletionQueue`."""
        cq = CompletionQueue(self, cqe)
        self.cqs.append(cq)
        return cq

    @property
    def default_gid_index(self) -> int:
        """The first RoCE v2 entry of the GID table (index 0 if there is none) — what a correct
        program picks, by ``show_gids`` or NCCL_IB_GID_INDEX, on a RoCE v2 fabric."""
        return self.gid_types.index("RoCE v2") if "RoCE v2" in self.gid_types else 0

    def __repr__(self) -> str:
        return f"Context({self.host}, clock {format_time(self.clock_s)}, {len(self.mrs)} MRs, {len(self.qps)} QPs)"


class ProtectionDomain:
    """Groups MRs and QPs: a QP can only use keys of MRs registered in its own PD."""

    def __init__(self, context: Context) -> None:
        self.context = context

    def reg_mr(self, buffer: np.ndarray, access: Access = Access.NONE) -> MemoryRegion:
        """Register a C-contiguous numpy buffer (``ibv_reg_mr``); returns its MR with lkey/rkey."""
        if not isinstance(buffer, np.ndarray):
            raise TypeError(f"buffer must be a numpy array, got {type(buffer).__name__}")
        if not buffer.flags.c_contiguous or not buffer.flags.writeable or buffer.nbytes == 0:
            raise ValueError("buffer must be a non-empty, writeable, C-contiguous numpy array")
        if not isinstance(access, Access):
            raise TypeError(f"access must be netlab.rdma.Access flags, got {type(access).__name__}")
        if access & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC) and not access & Access.LOCAL_WRITE:
            raise VerbsError("EINVAL: REMOTE_WRITE and REMOTE_ATOMIC require LOCAL_WRITE (ibv_reg_mr)")
        key = self.context._new_key()
        mr = MemoryRegion(self, buffer, access, key)
        self.context.mrs[key] = mr
        return mr

    def create_srq(self, max_wr: int = 1024) -> SharedReceiveQueue:
        """``ibv_create_srq``: a pool of up to ``max_wr`` receives that QPs created with it share."""
        return SharedReceiveQueue(self, max_wr)

    def create_qp(self, send_cq: CompletionQueue, recv_cq: CompletionQueue, max_send_wr: int = 128, *,
                  qp_type: str = "RC", max_inline_data: int = 0,
                  srq: SharedReceiveQueue | None = None) -> QueuePair:
        """A queue pair in state RESET (``ibv_create_qp``): ``qp_type`` ``"RC"`` (reliable
        connection) or ``"UD"`` (unreliable datagram). ``max_send_wr`` is the send queue's depth
        and ``max_inline_data`` the most bytes one request may carry inline (``cap``); the
        emulation gives exactly what is asked, where a provider may give more
        :cite:p:`ibv-create-qp-man` (:func:`netlab.rdma.scaling.mlx5_send_queue` computes what the
        mlx5 provider gives). With ``srq`` the QP has no receive queue of its own: its incoming SENDs
        consume the shared receive queue's receives."""
        return QueuePair(self, send_cq, recv_cq, max_send_wr, qp_type=qp_type, max_inline_data=max_inline_data,
                         srq=srq)


def _integers(addr, length) -> None:
    for name, value in (("addr", addr), ("length", length)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"{name} must be an integer (bytes), got {type(value).__name__} {value!r:.80}")


class MemoryRegion:
    """Registered memory: the NIC may touch ``bytes`` through ``lkey`` and, if allowed, ``rkey``."""

    def __init__(self, pd: ProtectionDomain, buffer: np.ndarray, access: Access, key: int) -> None:
        self.pd = pd
        self.buffer = buffer
        self.bytes = buffer.reshape(-1).view(np.uint8)   # the same memory, byte-addressed
        self.addr = int(buffer.ctypes.data)
        self.length = int(buffer.nbytes)
        self.access = access
        self.lkey = self.rkey = key

    def sge(self, offset: int = 0, length: int | None = None) -> SGE:
        """An SGE for ``length`` bytes at ``offset`` into this region (all of it by default)."""
        offset = validate.integer("offset", offset, minimum=0, maximum=self.length)
        length = self.length - offset if length is None else validate.integer(
            "length", length, minimum=0, maximum=2**31)
        return SGE(self.addr + offset, length, self.lkey)

    def contains(self, addr: int, length: int) -> bool:
        _integers(addr, length)
        return length >= 0 and self.addr <= addr and addr + length <= self.addr + self.length

    def view(self, addr: int, length: int) -> np.ndarray:
        if not self.contains(addr, length):
            raise ValueError(f"addr and length must lie inside this region ({self.length} B at {self.addr:#x}), "
                             f"got {length} B at {addr:#x}")
        start = addr - self.addr
        return self.bytes[start:start + length]

    def dereg(self) -> None:
        """``ibv_dereg_mr``: the keys stop working at once."""
        self.pd.context.mrs.pop(self.lkey, None)

    def __repr__(self) -> str:
        return (f"MR({self.pd.context.host}, {self.length} B at {self.addr:#x}, lkey=rkey={self.lkey:#x}, "
                f"{self.access!s})")


