"""NCCL's three protocols, LL, LL128 and Simple: what each puts on the wire, and when each wins.

A GPU that receives data from a peer must learn that the data has arrived. NCCL's protocols
differ only in how :cite:p:`nccl-src-2-30-7`:

* **LL** (low latency) writes 8-byte stores that each carry 4 bytes of data and a 4-byte flag
  (``union ncclLLFifoLine`` in ``src/include/device.h``). The receiver polls the flag; a store
  lands whole, so a set flag means the data beside it is there. No fence, no extra round trip:
  the lowest latency, and exactly half the bytes are payload.
* **LL128** does the same with 128-byte lines: 15 eight-byte elements of data and one of flag
  (``NCCL_LL128_DATAELEMS = NCCL_LL128_LINEELEMS - 1``), 120/128 = 93.75 % payload. It relies on
  128-byte stores arriving whole, which NVLink gives, so NCCL enables it only on such paths.
* **Simple** copies plain data into a step of the receiver's buffer, makes it visible with a
  memory fence, then bumps a 64-bit step counter: one flag per step of up to 512 KiB
  (a 4 MiB buffer in 8 steps), so the payload share is all but 1, and the fence costs latency.

:func:`protocol_format` derives each protocol's payload share from these formats;
:func:`wire_bytes` counts the bytes a payload costs on the wire; :func:`crossovers` finds the
sizes where NCCL's tuner (:mod:`netlab.collectives.nccl_tuner`) switches from one protocol to
the next, for one algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.collectives import nccl_tuner
from netlab.units import format_bytes

PROTOCOLS = ("ll", "ll128", "simple")
NAMES = {"ll": "LL", "ll128": "LL128", "simple": "Simple"}


@dataclass(frozen=True)
class ProtocolFormat:
    """The unit one flag guards, for one of NCCL's protocols, and what follows from it."""

    protocol: str
    unit: str                  # what one flag guards, in words
    payload_bytes: int         # data bytes per flag
    flag_bytes: int            # flag bytes per unit
    buffer_bytes: int          # one connection's buffer per channel (all NCCL_STEPS steps)
    step_latency_nvlink_s: float   # the tuner's latency per ring step over NVLink

    @property
    def wire_bytes(self) -> int:
        """Bytes one unit occupies on the wire (payload plus flag)."""
        return self.payload_bytes + self.flag_bytes

    @property
    def efficiency(self) -> float:
        """Payload share of the bytes written, ``payload / (payload + flag)``."""
        return self.payload_bytes / self.wire_bytes

    @property
    def payload_per_buffer_bytes(self) -> float:
        """Data bytes one full buffer carries."""
        return self.buffer_bytes * self.payload_bytes / self.wire_bytes if self.protocol != "simple" \
            else float(self.buffer_bytes)

    def __repr__(self) -> str:
        return (f"{NAMES[self.protocol]}: {self.unit}, {self.payload_bytes} B of data per "
                f"{self.flag_bytes} B flag -> {100 * self.efficiency:.5g} % payload; buffer "
                f"{format_bytes(self.buffer_bytes, binary=True)} per channel and peer, "
                f"{self.step_latency_nvlink_s * 1e6:g} µs per NVLink ring step")


def _int(key: str) -> int:
    return int(specs.value(key))


def protocol_format(protocol: str) -> ProtocolFormat:
    """The format of ``protocol`` (``"ll"``, ``"ll128"`` or ``"simple"``), from NCCL 2.30.7's constants.

    >>> protocol_format("ll128").efficiency
    0.9375
    """
    validate.choice("protocol", protocol, PROTOCOLS)
    steps = _int("nccl.proto.steps")
    latency = specs.value(f"nccl.tuner.step_latency.nvlink.ring.{protocol}")
    if protocol == "ll":
        store = _int("nccl.proto.ll.store_bytes")
        flag = _int("nccl.proto.ll.flag_bytes")
        line = 2 * store                       # a 16-byte ncclLLFifoLine: two (data, flag) stores
        buffer = _int("nccl.proto.ll.lines_per_thread") * _int("nccl.proto.ll.max_threads") * steps * line
        return ProtocolFormat("ll", "an 8-byte store", store - flag, flag, buffer, latency)
    if protocol == "ll128":
        line = _int("nccl.proto.ll128.line_bytes")
        flag = _int("nccl.proto.ll128.flag_bytes")
        buffer = _int("nccl.proto.ll128.elems_per_thread") * _int("nccl.proto.ll128.max_threads") * steps * 8
        return ProtocolFormat("ll128", "a 128-byte line", line - flag, flag, buffer, latency)
    buffer = _int("nccl.proto.simple.buffer_bytes")
    return ProtocolFormat("simple", f"one step of the buffer (1/{steps} of it)", buffer // steps,
                          _int("nccl.proto.simple.flag_bytes"), buffer, latency)


def protocol_formats() -> tuple[ProtocolFormat, ...]:
    """:func:`protocol_format` of LL, LL128 and Simple."""
    return tuple(protocol_format(p) for p in PROTOCOLS)


def wire_bytes(n_bytes: float, protocol: str) -> float:
    """Bytes written to carry ``n_bytes`` of data with ``protocol``: whole units, flags included.

    >>> wire_bytes(1000, "ll"), wire_bytes(1000, "ll128")
    (2000, 1152)
    """
    n = validate.non_negative("n_bytes", n_bytes)
    f = protocol_format(protocol)
    return math.ceil(n / f.payload_bytes) * f.wire_bytes


@dataclass(frozen=True)
class Crossover:
    """Where NCCL's tuner stops preferring one protocol to the next, for one algorithm."""

    algorithm: str
    faster_small: str
    faster_large: str
    n_bytes: float | None      # None when one protocol wins at every size in the searched range

    def __repr__(self) -> str:
        if self.n_bytes is None:
            return f"{self.algorithm}: {NAMES[self.faster_small]} and {NAMES[self.faster_large]} never cross"
        return (f"{self.algorithm}: {NAMES[self.faster_small]} below {format_bytes(self.n_bytes)}, "
                f"{NAMES[self.faster_large]} above")


def crossovers(n_ranks: int, n_nodes: int = 1, algorithm: str = "ring", fabric: str = "nvlink",
               arch: str = "hopper", nic_bps: float | None = None) -> tuple[Crossover, ...]:
    """The sizes at which the tuner's time for ``algorithm`` with LL equals LL128, and LL128 equals Simple.

    Found by bisection on ``log(size)`` between 1 B and 1 TB on :func:`netlab.collectives.nccl_tuner.estimate`;
    over PCIe (no LL128) the one crossover is LL against Simple. For one node and the ring it is
    the closed form ``(lat_b - lat_a) / (1/algbw_a - 1/algbw_b)``.
    """
    validate.choice("algorithm", algorithm, ("ring", "tree"))
    pairs = [("ll", "simple")] if fabric == "pcie" else [("ll", "ll128"), ("ll128", "simple")]

    def gap(size: float, a: str, b: str) -> float:
        ta = nccl_tuner.estimate(size, n_ranks, n_nodes, algorithm, a, fabric=fabric, arch=arch,
                                 nic_bps=nic_bps).time_s
        tb = nccl_tuner.estimate(size, n_ranks, n_nodes, algorithm, b, fabric=fabric, arch=arch,
                                 nic_bps=nic_bps).time_s
        return ta - tb

    out = []
    for a, b in pairs:
        lo, hi = 0.0, 12.0                     # log10 of the size in bytes
        if gap(10 ** lo, a, b) >= 0 or gap(10 ** hi, a, b) <= 0:
            out.append(Crossover(algorithm, a, b, None))
            continue
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if gap(10 ** mid, a, b) < 0 else (lo, mid)
        out.append(Crossover(algorithm, a, b, 10 ** ((lo + hi) / 2)))
    return tuple(out)
