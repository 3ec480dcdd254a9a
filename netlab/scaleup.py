"""Scale-up domains: a PCIe mesh, an NVLink Switch node, an NVL72 rack, and the fabric beyond.

A *scale-up domain* is the set of GPUs that reach each other over a memory-semantic
link (NVLink through NVLink Switch chips) instead of a network card. Inside it every
GPU sends at its full NVLink rate to any other, one hop away; outside it each GPU
gets one scale-out port of a few hundred Gb/s. Three designs set the scale:

* a *PCIe mesh*: 8 GPUs that can only talk over their PCIe 5.0 x16 links (63 GB/s
  each way at best, less when GPUs share a PCIe switch uplink or cross CPU sockets);
* an *NVLink Switch node* (DGX/HGX): 8 GPUs at 450 GB/s (NVLink 4) or 900 GB/s
  (NVLink 5) each way;
* a *GB200 NVL72 rack*: 72 GPUs at 900 GB/s each way through 9 NVLink Switch trays.

Vendors quote NVLink as the sum of both directions: 1.8 TB/s per Blackwell GPU is
900 GB/s each way, and the NVL72's "130 TB/s" is 72 x 1.8 TB/s = 129.6 TB/s, both
directions added [nvidia-nvlink-page, nccl-issue-1442]. Here every rate is
one-way unless its name ends in ``_bidir``.

The *scale-up to scale-out ratio* ``per_gpu_bps / scaleout_per_gpu_bps`` (18 for
NVLink 5 against a 400 Gb/s NIC) decides where a collective spends its time: a
hierarchical all-reduce over a domain of ``d`` GPUs spends equal time inside and
between domains when ``d - 1`` is about that ratio (see :func:`crossover_domain_size`).
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import specs, validate
from netlab.units import format_byte_rate, format_power

FABRICS = ("pcie", "nvlink")


@dataclass(frozen=True)
class ScaleUpDomain:
    """A group of GPUs sharing one scale-up fabric, and the scale-out port each GPU has.

    All rates are one-way (one direction) in bit/s; ``*_bidir_bps`` add both directions,
    as vendors quote NVLink.
    """

    name: str
    fabric: str                    # "pcie" or "nvlink"
    n_gpus: int
    per_gpu_bps: float             # scale-up rate of one GPU, one way
    scaleout_per_gpu_bps: float    # scale-out (NIC) rate of one GPU, one way
    power_w: float                 # whole domain (node or rack), all GPUs and their hosts
    gpu: str                       # registry name of the GPU ("h100", "b200", "gb200")

    @property
    def per_gpu_bidir_bps(self) -> float:
        return 2.0 * self.per_gpu_bps

    @property
    def aggregate_bps(self) -> float:
        """Sum over the GPUs of what each can send at once, one way: ``n_gpus * per_gpu_bps``."""
        return self.n_gpus * self.per_gpu_bps

    @property
    def aggregate_bidir_bps(self) -> float:
        """The figure vendors quote: both directions of every GPU added."""
        return 2.0 * self.aggregate_bps

    @property
    def scaleout_aggregate_bps(self) -> float:
        return self.n_gpus * self.scaleout_per_gpu_bps

    @property
    def ratio(self) -> float:
        """Scale-up to scale-out bandwidth ratio per GPU (both one-way)."""
        return self.per_gpu_bps / self.scaleout_per_gpu_bps

    @property
    def power_per_gpu_w(self) -> float:
        return self.power_w / self.n_gpus

    def __repr__(self) -> str:
        return (f"ScaleUpDomain({self.name}: {self.n_gpus} x {self.gpu.upper()} on {self.fabric}, "
                f"{format_byte_rate(self.per_gpu_bps)} per GPU each way "
                f"({format_byte_rate(self.per_gpu_bidir_bps)} bidir), aggregate "
                f"{format_byte_rate(self.aggregate_bidir_bps)} bidir; scale-out "
                f"{format_byte_rate(self.scaleout_per_gpu_bps)} per GPU, ratio {self.ratio:.3g}; "
                f"{format_power(self.power_w)})")


def scaleup_domain(n_gpus: int, per_gpu_bps: float, scaleout_per_gpu_bps: float, power_w: float,
                   fabric: str = "nvlink", gpu: str = "h100", name: str = "custom") -> ScaleUpDomain:
    """A scale-up domain of ``n_gpus`` GPUs, each with ``per_gpu_bps`` one way inside it.

    Parameters
    ----------
    n_gpus : int
        GPUs in the domain (>= 1).
    per_gpu_bps : float
        Scale-up rate of one GPU, one direction, bit/s (halve a vendor's NVLink figure).
    scaleout_per_gpu_bps : float
        Scale-out (network) rate per GPU, one direction, bit/s.
    power_w : float
        Power of the whole domain, watts.
    fabric : {"pcie", "nvlink"}
    gpu : str
        Registry name of the GPU, used by :mod:`netlab.inference` for compute and memory.

    Example: 72 GPUs at 900 GB/s each way add up to 129.6 TB/s both ways.

    >>> d = scaleup_domain(72, 900e9 * 8, 400e9, 120e3)
    >>> round(d.aggregate_bidir_bps / 8e12, 1), round(d.ratio, 3)
    (129.6, 18.0)
    """
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1)
    per_gpu_bps = validate.positive("per_gpu_bps", per_gpu_bps)
    scaleout_per_gpu_bps = validate.positive("scaleout_per_gpu_bps", scaleout_per_gpu_bps)
    power_w = validate.positive("power_w", power_w)
    fabric = validate.choice("fabric", fabric, FABRICS)
    if not isinstance(gpu, str) or not isinstance(name, str):
        raise TypeError("gpu and name must be strings")
    return ScaleUpDomain(name=name, fabric=fabric, n_gpus=n_gpus, per_gpu_bps=per_gpu_bps,
                         scaleout_per_gpu_bps=scaleout_per_gpu_bps, power_w=power_w, gpu=gpu)


def _preset(name: str) -> ScaleUpDomain:
    v = specs.value
    node = int(v("dgx.n_gpus"))
    scaleout = v("ra.hgx.scaleout_per_gpu")
    if name == "pcie-h100":
        # Counterfactual: the DGX H100's GPUs and power, but only PCIe 5.0 x16 between them.
        return scaleup_domain(node, v("pcie.5.x16_rate"), scaleout,
                              v("dgx.h100.power") * v("assume.pcie_mesh_power_ratio"),
                              fabric="pcie", gpu="h100", name=name)
    if name == "dgx-h100":
        return scaleup_domain(node, v("nvlink.4.per_gpu"), scaleout, v("dgx.h100.power"),
                              gpu="h100", name=name)
    if name == "dgx-b200":
        return scaleup_domain(node, v("nvlink.5.per_gpu"), scaleout, v("dgx.b200.power"),
                              gpu="b200", name=name)
    # gb200-nvl72; the scale-out rate per GPU follows the same reference architecture.
    return scaleup_domain(int(v("nvl72.n_gpus")), v("nvlink.5.per_gpu"), scaleout,
                          v("nvl72.rack_power"), gpu="gb200", name=name)


PRESETS = ("pcie-h100", "dgx-h100", "dgx-b200", "gb200-nvl72")


def preset(name: str) -> ScaleUpDomain:
    """One of the domains of :data:`PRESETS`, built from the registry.

    ``pcie-h100`` is a counterfactual: the DGX H100's eight GPUs and power
    (times ``assume.pcie_mesh_power_ratio``) with only PCIe 5.0 between them.
    """
    validate.choice("name", name, PRESETS)
    return _preset(name)


@dataclass(frozen=True)
class NVL72Check:
    """Seed claim D7 recomputed: does 72 x 1.8 TB/s give the quoted 130 TB/s?"""

    gpu_sum_bidir_bps: float        # n_gpus x per-GPU bidirectional NVLink
    switch_sum_bidir_bps: float     # trays x tray switching bandwidth
    published_bidir_bps: float      # the quoted "130 TB/s"
    one_way_bps: float              # what all GPUs can send at once, one direction

    @property
    def rounding_error(self) -> float:
        """Relative gap between the published figure and the GPU sum."""
        return self.published_bidir_bps / self.gpu_sum_bidir_bps - 1.0

    def __repr__(self) -> str:
        return (f"NVL72Check(GPUs {format_byte_rate(self.gpu_sum_bidir_bps, 4)} bidir, switch trays "
                f"{format_byte_rate(self.switch_sum_bidir_bps, 4)} bidir, published "
                f"{format_byte_rate(self.published_bidir_bps)}; one way "
                f"{format_byte_rate(self.one_way_bps, 4)})")


def nvl72_check() -> NVL72Check:
    """Recompute the NVL72's 130 TB/s from its GPUs and from its switch trays (claim D7)."""
    v = specs.value
    gpus = v("nvl72.n_gpus") * v("nvlink.5.per_gpu_bidir")
    switches = v("nvl72.n_switch_trays") * v("nvswitch.5.tray_bandwidth_bidir")
    return NVL72Check(gpu_sum_bidir_bps=gpus, switch_sum_bidir_bps=switches,
                      published_bidir_bps=v("nvl72.gpu_bandwidth_bidir"), one_way_bps=gpus / 2.0)
