"""In-network reduction: the switch adds, so each GPU sends its data once instead of twice.

In a ring all-reduce every GPU sends ``2(n-1)/n * S`` bytes: a reduce-scatter passes partial
sums around, an all-gather passes the results. When the switch itself adds (InfiniBand SHARP
through NCCL's CollNet, or NVLink SHARP, "NVLS", in an NVSwitch) :cite:p:`graham-sharp-2016`,
a GPU sends its ``S`` bytes up once and receives the sum once:

* ``"sharp"``: each port sends ``S`` and receives ``S``: half the ring's ``2(n-1)/n * S``
  for large ``n``;
* ``"nvls"``: NCCL's NVLink SHARP all-reduce is a reduce-scatter through the switch (each GPU
  pulls the sum of one ``S/n`` shard) then a multicast all-gather (each GPU pushes its finished
  shard once, the switch copies it to all): ``S (n+1)/n`` per port each way
  :cite:p:`nccl-tests-pr-239`;
* ``"ring"``: the point-to-point reference, ``2(n-1)/n * S``.

nccl-tests still prints ``busbw = algbw * 2(n-1)/n`` (the ring's share) unless ``NCCL_ALGO``
names NVLS :cite:p:`nccl-tests-allreduce-src`, so with in-network reduction busbw can exceed
the link rate: it no longer counts wire bytes. :func:`all_reduce_traffic` returns the bytes,
the time at a port rate, and both bandwidths, so that a reader can see which number means what.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import validate
from netlab.units import format_byte_rate, format_bytes, format_time

VARIANTS = ("ring", "sharp", "nvls")
MAX_RANKS = 1 << 20


def bytes_sent_per_gpu(n_bytes: float, n_ranks: int, variant: str = "sharp") -> float:
    """Bytes each GPU's port sends for an all-reduce of ``n_bytes``: ring, SHARP or NVLS.

    >>> bytes_sent_per_gpu(1e9, 8, "ring"), bytes_sent_per_gpu(1e9, 8, "nvls")
    (1750000000.0, 1125000000.0)
    """
    s = validate.non_negative("n_bytes", n_bytes)
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=MAX_RANKS)
    validate.choice("variant", variant, VARIANTS)
    share = {"ring": 2 * (n - 1) / n, "sharp": 1.0, "nvls": (n + 1) / n}[variant]
    return share * s


@dataclass(frozen=True)
class InNetworkTraffic:
    """One all-reduce priced by the bytes its busiest port sends, with the bandwidths nccl-tests prints."""

    variant: str
    n_bytes: float
    n_ranks: int
    port_bps: float             # one-way port rate, bit/s
    latency_s: float
    sent_per_gpu_bytes: float   # what each GPU's port sends (and receives)
    ring_sent_per_gpu_bytes: float
    time_s: float

    @property
    def algbw_bps(self) -> float:
        """``S / t``, bit/s."""
        return 8 * self.n_bytes / self.time_s if self.time_s > 0 else 0.0

    @property
    def busbw_printed_bps(self) -> float:
        """What nccl-tests prints by default, ``algbw * 2(n-1)/n``, whatever the switch did."""
        return self.algbw_bps * 2 * (self.n_ranks - 1) / self.n_ranks

    @property
    def wire_bps(self) -> float:
        """The rate each port actually sends at (its bytes over the time)."""
        return 8 * self.sent_per_gpu_bytes / self.time_s if self.time_s > 0 else 0.0

    @property
    def traffic_saving(self) -> float:
        """``ring bytes / these bytes`` per GPU, 1 for the ring and up to 2 with the switch adding."""
        return self.ring_sent_per_gpu_bytes / self.sent_per_gpu_bytes if self.sent_per_gpu_bytes else 1.0

    def __repr__(self) -> str:
        return (f"{self.variant} all-reduce of {format_bytes(self.n_bytes)} on {self.n_ranks} GPUs: each sends "
                f"{format_bytes(self.sent_per_gpu_bytes)} (ring: {format_bytes(self.ring_sent_per_gpu_bytes)}, "
                f"x{self.traffic_saving:.2f} less); {format_time(self.time_s)}, algbw "
                f"{format_byte_rate(self.algbw_bps)}, busbw as printed {format_byte_rate(self.busbw_printed_bps)}, "
                f"on the wire {format_byte_rate(self.wire_bps)}")


def all_reduce_traffic(n_bytes: float, n_ranks: int, port_bps: float, variant: str = "sharp",
                       latency_s: float = 0.0) -> InNetworkTraffic:
    """An all-reduce limited by its ports: ``t = latency + 8 * bytes sent per GPU / port rate``.

    Parameters
    ----------
    n_bytes : float
        Buffer per GPU (nccl-tests' size), bytes.
    n_ranks : int
        GPUs, each on its own switch port.
    port_bps : float
        One-way port rate, bit/s (a GPU's NVLink bandwidth, or its NIC's).
    variant : {"ring", "sharp", "nvls"}
    latency_s : float
        Latency charged once (e.g. NCCL's 25 µs for NVLS inside a node), seconds.

    Examples
    --------
    >>> t = all_reduce_traffic(1e9, 8, 400e9, "sharp")   # 50 GB/s ports
    >>> round(t.algbw_bps / 8e9), round(t.busbw_printed_bps / 8e9, 1)
    (50, 87.5)
    """
    s = validate.non_negative("n_bytes", n_bytes)
    n = validate.integer("n_ranks", n_ranks, minimum=2, maximum=MAX_RANKS)
    b = validate.positive("port_bps", port_bps)
    lat = validate.non_negative("latency_s", latency_s)
    sent = bytes_sent_per_gpu(s, n, variant)
    return InNetworkTraffic(variant, s, n, b, lat, sent, bytes_sent_per_gpu(s, n, "ring"), lat + 8 * sent / b)
