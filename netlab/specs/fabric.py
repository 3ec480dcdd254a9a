"""Fabric switches and load-balancing claims: radix, port rate, capacity; what vendors say.

Sizing a Clos fabric needs two numbers per switch: how many ports (the radix) and
how fast each is. Capacities are the sum of the ports in one direction unless the
description says bidirectional (vendors often quote 51.2 Tb/s for 64 x 800 Gb/s,
which is one direction; NADDOD quotes Quantum-2's 64 x 400 Gb/s as "51.2 Tb/s
bidirectional"). Chapter 5 uses these; chapter 9 reuses them for fabric power.

The load-balancing figures at the end are vendor claims or paper abstracts, kept
here so the chapter can set them beside its own computation.
"""

from netlab.specs import Spec, register
from netlab.units import Gbps, Tbps

register(
    # --- InfiniBand -------------------------------------------------------------------
    Spec("fabric.quantum_hdr.ports", 40, "1",
         "Ports of an HDR Quantum (QM87xx) InfiniBand switch, 200 Gb/s each",
         "nvidia-superpod-cabling", "2023", "shipping", "P", published="40 ports",
         note="NVIDIA: NDR is an 'increase from HDR's 40 switch ports to 64'."),
    Spec("fabric.quantum2.ports", 64, "1",
         "Ports of a Quantum-2 (QM97xx) NDR InfiniBand switch: 64 logical ports over 32 "
         "OSFP cages, two ports per cage",
         "nvidia-qm97xx-manual", "2023", "shipping", "P", published="64 x 400 Gb/s",
         note="A twin-port 800G OSFP transceiver serves two 400G switch ports."),
    Spec("fabric.quantum2.port_rate", 400 * Gbps, "bit/s",
         "Rate of one Quantum-2 port, one direction (NDR, 4 lanes of 100 Gb/s)",
         "nvidia-qm97xx-manual", "2023", "shipping", "P", published="400 Gb/s"),
    Spec("fabric.quantum_x800.ports", 144, "1",
         "Ports of a Quantum-X800 (XDR) InfiniBand switch, 800 Gb/s each (115.2 Tb/s)",
         "wedoany-quantum-x800", "2025", "shipping", "S", published="144 x 800 Gb/s",
         note="A secondary source (a news summary of Lambda's report on its Q3450-LD deployment); no "
              "NVIDIA primary source for the port count was found."),
    Spec("fabric.quantum_x800.port_rate", 800 * Gbps, "bit/s",
         "Rate of one Quantum-X800 port, one direction (XDR)",
         "nvidia-xdr-switch-manual", "2025", "shipping", "P", published="800 Gb/s"),
    # --- Ethernet -----------------------------------------------------------------------
    Spec("fabric.sn5600.ports", 64, "1",
         "Ports of a Spectrum-4 SN5600 Ethernet switch at 800 GbE (100 Gb/s per lane); "
         "breaks out to 128 x 400G or 256 x 200G",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="64 x 800GbE"),
    Spec("fabric.sn5600.port_rate", 800 * Gbps, "bit/s",
         "Rate of one SN5600 port, one direction",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="800 Gb/s"),
    Spec("fabric.sn5600.buffer", 128e6, "B",
         "Shared packet buffer of a Spectrum-4 SN5600 switch, for all 64 ports",
         "probsee-sn5600", "2024", "shipping", "S", published="128 MB shared",
         note="A secondary source (a product summary); NVIDIA's manual gives no buffer size."),
    Spec("fabric.sn5600.cage_power", 18.0, "W",
         "Power budget of one SN5600 OSFP cage (ports 1-64, dual 3 kW supplies)",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="18 W per port"),
    Spec("fabric.sn5600.ports_400g", 128, "1",
         "SN5600 ports when each 800G port is split into two 400G ports (breakout)",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="128 x 400G"),
    Spec("fabric.sn5400.ports", 64, "1",
         "Ports of a Spectrum-4 SN5400 Ethernet switch at 400 GbE (50 Gb/s per lane)",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="64 x 400GbE"),
    Spec("fabric.tomahawk5.ports", 64, "1",
         "Ports of a Broadcom Tomahawk 5 (BCM78900) switch chip at 800GbE; also 128 x 400G "
         "or 256 x 200G from 512 SerDes of 100 Gb/s",
         "convergedigest-tomahawk5", "2022-08", "shipping", "S", published="64 x 800GbE"),
    Spec("fabric.tomahawk5.capacity", 51.2 * Tbps, "bit/s",
         "Switching capacity of Tomahawk 5, one direction (sum of its ports)",
         "convergedigest-tomahawk5", "2022-08", "shipping", "S", published="51.2 Tb/s"),
    Spec("fabric.tomahawk6.capacity", 102.4 * Tbps, "bit/s",
         "Switching capacity of Tomahawk 6, one direction: 64 x 1.6TbE, 512 x 200G or 1,024 x 100G SerDes",
         "electronics-journal-tomahawk6", "2025-06", "shipping", "S", published="102.4 Tb/s"),
    Spec("fabric.sn6810.ports", 128, "1",
         "Ports of the Spectrum-X Photonics SN6810 co-packaged-optics switch, 800 Gb/s each "
         "(102.4 Tb/s); announced for 2H 2026",
         "particle-news-photonics", "2025-03", "announced", "S", published="128 x 800 Gb/s",
         note="The seed article (D11) writes '102.4 TB/s'; 128 x 800 Gb/s is 102.4 Tb/s."),
    Spec("fabric.sn6800.ports", 512, "1",
         "Ports of the Spectrum-X Photonics SN6800 switch, 800 Gb/s each (409.6 Tb/s); "
         "announced for 2H 2026",
         "particle-news-photonics", "2025-03", "announced", "S", published="512 x 800 Gb/s",
         note="Another report says 1.6 Tb/s per port and 2,048 ports at 200G; treat the "
              "configuration as provisional."),
    Spec("fabric.photonics.port_rate", 800 * Gbps, "bit/s",
         "Rate of one Spectrum-X Photonics port, one direction",
         "particle-news-photonics", "2025-03", "announced", "S", published="800 Gb/s"),
    # --- deployed fabrics ------------------------------------------------------------------
    Spec("fabric.meta_24k.taper", 7.0, "1",
         "Oversubscription (taper) between the T1 and T2 tiers of Meta's 24k-GPU H100 clusters",
         "glennklockwood-meta-h100", "2024", "shipping", "S", published="7:1",
         note="Read from a summary of the Llama 3 paper and Meta talks."),
    # --- load-balancing claims and published results ---------------------------------------
    Spec("fabric.claim.spectrum_x_throughput", 0.95, "1",
         "Data throughput Spectrum-X maintained on xAI Colossus (100k Hopper GPUs), as a "
         "share of the theoretical",
         "nvidia-colossus-release", "2024-10", "vendor claim", "S", published="95 %",
         note="Known only through the press release and its coverage; the Spectrum-X "
              "whitepaper behind it is UNCONFIRMED."),
    Spec("fabric.claim.standard_ethernet_throughput", 0.60, "1",
         "Data throughput of 'standard Ethernet' at scale with flow collisions, per the same "
         "NVIDIA release",
         "nvidia-colossus-release", "2024-10", "vendor claim", "S", published="60 %",
         note="No workload, fabric or method is given."),
    Spec("fabric.claim.spectrum_x_speedup", 1.6, "1",
         "AI performance of Spectrum-X over traditional Ethernet, vendor launch figure",
         "networkworld-spectrum-x", "2023-11", "vendor claim", "S", published="1.6x"),
    Spec("fabric.claim.gpu_cycle_gain", 0.35, "1",
         "'Up to 35 %' more effective GPU-cycle use with Spectrum-X (seed claim D6)",
         "factsheet-unconfirmed", "2025", "unconfirmed", "U", published="up to 35 %",
         note="No source found; shown only as unconfirmed."),
    Spec("fabric.hedera.share_of_optimal", 0.96, "1",
         "Bisection bandwidth Hedera's flow scheduler reaches in a simulated 8,192-host "
         "fabric, as a share of optimal",
         "al-fares-hedera", "2010", "simulated", "P", published="96 % of optimal",
         note="Simulation result from the paper's abstract; also 'up to 113 % better' than "
              "static hashing."),
    Spec("fabric.conga.fct_gain", 5.0, "1",
         "Flow-completion-time improvement of CONGA over ECMP (also with one link failed)",
         "alizadeh-conga", "2014", "measured", "P", published="5x"),
    Spec("fabric.meta.eecmp_gain", 0.40, "1",
         "All-reduce improvement Meta reports from enhanced ECMP with more queue pairs, "
         "over baseline ECMP",
         "meta-roce-ecmp", "2024-08", "measured", "S", published="up to 40 %"),
)
