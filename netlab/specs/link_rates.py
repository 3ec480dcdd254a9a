"""Link generations: InfiniBand 4x ports, Ethernet, PCIe x16, NVLink per GPU.

Rates are per direction (one-way) unless the key ends in ``_bidir``. InfiniBand
and Ethernet quote one-way port rates; NVLink figures are quoted as the sum of
both directions, so they are stored as such and halved in ``derived`` entries.
"""

from netlab.specs import Spec, register
from netlab.units import Gbps, GBps

# --- InfiniBand, 4x port --------------------------------------------------------
# Older generations quote the signalling rate; 8b/10b coding leaves 80 % for data.
_IB_8B10B = [("sdr", 2.5, "2005"), ("ddr", 5.0, "2005"), ("qdr", 10.0, "2008")]
for name, lane_gbps, _year in _IB_8B10B:
    register(
        Spec(f"ib.{name}.port_signal_rate", 4 * lane_gbps * Gbps, "bit/s",
             f"InfiniBand {name.upper()} 4x port signalling rate, per direction "
             f"({lane_gbps:g} Gb/s per lane)",
             "aicplight-ib-glossary", "2024", "standard", "S",
             published=f"{4 * lane_gbps:g} Gb/s"),
        Spec(f"ib.{name}.port_rate", 4 * lane_gbps * 0.8 * Gbps, "bit/s",
             f"InfiniBand {name.upper()} 4x port data rate after 8b/10b coding, per direction",
             "aicplight-ib-glossary", "2024", "derived", "D",
             published=f"~{4 * lane_gbps * 0.8:g} Gb/s effective",
             note="4 lanes x lane rate x 8/10 (8b/10b coding)"),
    )

register(
    Spec("ib.fdr.port_signal_rate", 4 * 14.0625 * Gbps, "bit/s",
         "InfiniBand FDR 4x port signalling rate, per direction (14.0625 Gb/s per lane)",
         "mellanox-msb7890-manual", "2016", "standard", "P", published="56.25 Gb/s"),
    Spec("ib.fdr.port_rate", 4 * 14.0625 * 64 / 66 * Gbps, "bit/s",
         "InfiniBand FDR 4x port data rate after 64b/66b coding, per direction",
         "mellanox-msb7890-manual", "2016", "derived", "D", published="54.5 Gb/s",
         note="56.25 Gb/s x 64/66"),
    Spec("ib.edr.port_rate", 100 * Gbps, "bit/s",
         "InfiniBand EDR 4x port data rate, per direction (25 Gb/s per lane, 64b/66b)",
         "mellanox-msb7890-manual", "2016", "standard", "P", published="100 Gb/s"),
    Spec("ib.hdr.port_rate", 200 * Gbps, "bit/s",
         "InfiniBand HDR 4x port data rate, per direction (four lanes of 50 Gb/s, PAM4)",
         "nvidia-superpod-cabling", "2023", "standard", "P", published="200 Gb/s"),
    Spec("ib.ndr.port_rate", 400 * Gbps, "bit/s",
         "InfiniBand NDR 4x port data rate, per direction (four lanes of 100 Gb/s)",
         "nvidia-superpod-cabling", "2023", "standard", "P", published="400 Gb/s"),
    Spec("ib.xdr.port_rate", 800 * Gbps, "bit/s",
         "InfiniBand XDR port data rate, per direction (Quantum-X800 switches)",
         "nvidia-xdr-switch-manual", "2025", "shipping", "P", published="800 Gb/s",
         note="The 200 Gb/s lane rate behind it is from a secondary source."),
)

# --- Ethernet ----------------------------------------------------------------------
register(
    Spec("eth.100g.port_rate", 100 * Gbps, "bit/s",
         "100 Gigabit Ethernet data rate, per direction (as in 802.3cu's single-lane 100GBASE-FR1/LR1 PHYs)",
         "ieee-802-3cu", "2021", "standard", "P", published="100 Gb/s"),
    Spec("eth.200g.port_rate", 200 * Gbps, "bit/s",
         "200 Gigabit Ethernet MAC data rate, per direction",
         "ieee-802-3bs", "2017-12", "standard", "P", published="200 Gb/s"),
    Spec("eth.400g.port_rate", 400 * Gbps, "bit/s",
         "400 Gigabit Ethernet MAC data rate, per direction",
         "ieee-802-3bs", "2017-12", "standard", "P", published="400 Gb/s"),
    Spec("eth.800g.port_rate", 800 * Gbps, "bit/s",
         "800 Gigabit Ethernet MAC data rate, per direction",
         "ieee-802-3df", "2024-02", "standard", "P", published="800 Gb/s"),
)

# --- PCIe, x16 ---------------------------------------------------------------------
# 3.0-5.0 use 128b/130b coding: 16 lanes x GT/s x 128/130 bits per transfer.
for gen, gts, year in (("3", 8, "2010"), ("4", 16, "2017"), ("5", 32, "2019")):
    register(
        Spec(f"pcie.{gen}.x16_rate", 16 * gts * 128 / 130 * Gbps, "bit/s",
             f"PCIe {gen}.0 x16 data rate per direction ({gts} GT/s per lane, 128b/130b)",
             "pcie-table", year, "derived", "D",
             published=f"{16 * gts * 128 / 130 / 8:.1f} GB/s",
             note=f"16 lanes x {gts} GT/s x 128/130 / 8 bits per byte"),
    )
register(
    Spec("pcie.6.x16_rate", 128 * GBps, "bit/s",
         "PCIe 6.0 x16 raw rate per direction (64 GT/s per lane, PAM4, FLIT mode)",
         "phoronix-pcie6", "2022-01-11", "standard", "S", published="~128 GB/s",
         note="Raw: FLIT framing and FEC take a few per cent more before payload."),
)

# --- NVLink, per GPU: quoted as the sum of both directions -------------------------
_NVLINK = [
    ("1", "P100", 160, "", "microway-p100", "2016", "S"),
    ("2", "V100", 300, "6 links x 50 GB/s", "wikimili-nvlink", "2017", "S"),
    ("3", "A100", 600, "12 links x 50 GB/s", "glennklockwood-a100", "2020", "S"),
    ("4", "H100/H200", 900, "18 links x 50 GB/s", "mlperf-h200-system", "2024", "P"),
    ("5", "Blackwell", 1800, "18 links x 100 GB/s", "nvidia-nvlink-page", "2024", "S"),
]
for gen, gpu, gbyte_s, links, source, year, grade in _NVLINK:
    register(
        Spec(f"nvlink.{gen}.per_gpu_bidir", gbyte_s * GBps, "bit/s",
             f"NVLink {gen} ({gpu}) total per GPU, both directions added"
             + (f" ({links})" if links else ""),
             source, year, "shipping", grade, published=f"{gbyte_s:g} GB/s bidirectional"),
        Spec(f"nvlink.{gen}.per_gpu", gbyte_s / 2 * GBps, "bit/s",
             f"NVLink {gen} ({gpu}) per GPU, one direction",
             source, year, "derived", "D", published=f"{gbyte_s / 2:g} GB/s per direction",
             note="Half the bidirectional figure of the same source: NVIDIA's NVLink figures add both "
                  "directions, as an NCCL maintainer confirms for the H100 ('900 GB/s is the sum of both "
                  "directions', nccl-issue-1442)."),
    )
