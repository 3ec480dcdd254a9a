"""The verbs objects: fabric, device context, protection domain and memory region.

Names follow libibverbs :cite:p:`ibv-reg-mr-man` :cite:p:`ibv-post-send-man`: a
memory region (MR) is registered in a protection domain (PD) with access flags and
gets an ``lkey`` (for local work requests) and an ``rkey`` (handed to a peer, which
puts it in one-sided RDMA and atomic requests). REMOTE_WRITE and REMOTE_ATOMIC
require LOCAL_WRITE; local read is always allowed. Addresses are the real virtual
addresses of the numpy buffers, as ``ibv_reg_mr`` uses the buffer's address.

Keys are per device and unpredictable, as on hardware: each context draws them
from its own random generator, seeded from the fabric's ``seed`` and the host
name (so a run is reproducible), and a key never repeats on one fabric. Using
one's own lkey as the peer's rkey therefore fails with a remote access error.

A :class:`Fabric` stands for the wire and the host-path costs between emulated
hosts; each host opens a :class:`Context` with its own simulated clock.
"""

from __future__ import annotations

import hashlib
import itertools
import random

import numpy as np

from netlab import validate
from netlab.rdma.hoststack import HostCosts, default_costs
from netlab.rdma.core import (SGE, Access, CompletionQueue, Opcode, VerbsError, WCOpcode, WCStatus,
                              WorkCompletion)
from netlab.rdma.qp import QueuePair
from netlab.units import format_rate, format_time

__all__ = ["Access", "CompletionQueue", "Context", "Fabric", "MemoryRegion", "Opcode", "ProtectionDomain",
           "SGE", "VerbsError", "WCOpcode", "WCStatus", "WorkCompletion"]


class Fabric:
    """The wire between emulated hosts and the cost model of their host path.

    ``bandwidth_bps`` is the link rate (one direction), ``hops`` the network hops
    between NICs; step costs come from :class:`netlab.rdma.hoststack.HostCosts`.
    """

    def __init__(self, bandwidth_bps: float, hops: int = 1, costs: HostCosts | None = None,
                 seed: int = 0) -> None:
        self.bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
        self.seed = validate.integer("seed", seed, minimum=0, maximum=2**64 - 1)
        self.hops = validate.integer("hops", hops, minimum=1, maximum=64)
        self.costs = default_costs() if costs is None else costs
        if not isinstance(self.costs, HostCosts):
            raise TypeError(f"costs must be a HostCosts, got {type(self.costs).__name__}")
        self.hosts: dict[str, Context] = {}
        self._keys_in_use: set[int] = set()     # keys never repeat across devices of one fabric

    def open_device(self, host: str) -> Context:
        """Open the RDMA device of ``host`` (``ibv_open_device``); one context per host name."""
        if not isinstance(host, str) or not host:
            raise ValueError(f"host must be a non-empty string, got {host!r}")
        if host in self.hosts:
            raise ValueError(f"host {host!r} already has an open device on this fabric")
        self.hosts[host] = Context(self, host)
        return self.hosts[host]

    def network_s(self, n_bytes: int) -> float:
        """NIC to NIC: NIC processing at both ends, the hops, and the bytes at the slower of link and PCIe."""
        c = self.costs
        return (c.nic_tx_s + self.hops * c.hop_latency_s + c.nic_rx_s
                + n_bytes * 8.0 / min(self.bandwidth_bps, c.pcie_bps))

    def __repr__(self) -> str:
        return f"Fabric({format_rate(self.bandwidth_bps)}, {self.hops} hop(s), hosts {sorted(self.hosts)})"


class Context:
    """An opened device on one host: owns PDs, CQs, QPs, the key table and the host's clock."""

    def __init__(self, fabric: Fabric, host: str) -> None:
        self.fabric = fabric
        self.host = host
        self.clock_s = 0.0                   # this host's CPU time line
        self.mrs: dict[int, MemoryRegion] = {}   # key -> MR (lkey == rkey here, as on many HCAs)
        self.qps: dict[int, QueuePair] = {}
        digest = hashlib.sha256(f"{fabric.seed}/{host}".encode()).digest()
        self._rng = random.Random(int.from_bytes(digest[:8], "little"))
        self._qpns = itertools.count(0x40)

    def _new_key(self) -> int:
        """A fresh 32-bit key: random, non-zero, unused anywhere on the fabric."""
        while True:
            key = self._rng.getrandbits(32)
            if key and key not in self.fabric._keys_in_use:
                self.fabric._keys_in_use.add(key)
                return key

    def alloc_pd(self) -> ProtectionDomain:
        return ProtectionDomain(self)

    def create_cq(self) -> CompletionQueue:
        return CompletionQueue(self)

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

    def create_qp(self, send_cq: CompletionQueue, recv_cq: CompletionQueue) -> QueuePair:
        """A reliable-connection queue pair in state RESET (``ibv_create_qp`` with IBV_QPT_RC)."""
        return QueuePair(self, send_cq, recv_cq)


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
        return length >= 0 and self.addr <= addr and addr + length <= self.addr + self.length

    def view(self, addr: int, length: int) -> np.ndarray:
        start = addr - self.addr
        return self.bytes[start:start + length]

    def dereg(self) -> None:
        """``ibv_dereg_mr``: the keys stop working at once."""
        self.pd.context.mrs.pop(self.lkey, None)

    def __repr__(self) -> str:
        return (f"MR({self.pd.context.host}, {self.length} B at {self.addr:#x}, lkey=rkey={self.lkey:#x}, "
                f"{self.access!s})")


