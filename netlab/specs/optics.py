"""Optics: transceiver module power, co-packaged optics claims, photonic switches, lasers.

Most figures about co-packaged optics (CPO) reached us as NVIDIA or Broadcom
claims repeated by the press (grade S, status ``vendor claim``): a reader should
treat them as claims until a datasheet says otherwise. The module powers of
NVIDIA's own transceivers come from its product documentation (grade P). Power
and loss per *port* depend on the port rate, which the press reports of the
"30 W vs 9 W" comparison do not state; chapter 9 makes that explicit.
"""

from netlab.specs import Spec, register
from netlab.units import Gbps, W, hour

_FIT = 1e-9 / hour   # one failure per 10^9 device-hours, in failures per second

register(
    # --- NVIDIA's Hot Chips / GTC co-packaged optics claims (seed D10, D12) ----------------
    Spec("optics.pluggable.channel_loss", 22.0, "dB",
         "Electrical loss between switch ASIC and a pluggable transceiver at 200 Gb/s per lane",
         "notebookcheck-photonics", "2025-03", "vendor claim", "S", published="~22 dB"),
    Spec("optics.cpo.channel_loss", 4.0, "dB",
         "Electrical loss between switch ASIC and a co-packaged optical engine at 200 Gb/s per lane",
         "notebookcheck-photonics", "2025-03", "vendor claim", "S", published="~4 dB"),
    Spec("optics.pluggable.port_power", 30 * W, "W",
         "Power of one pluggable optical port (transceiver) in NVIDIA's CPO comparison",
         "notebookcheck-photonics", "2025-03", "vendor claim", "S", published="~30 W",
         note="The port rate is not stated in the reports; 200 Gb/s lanes suggest a 1.6 Tb/s (8-lane) port."),
    Spec("optics.cpo.port_power", 9 * W, "W",
         "Power of one co-packaged optical port in NVIDIA's CPO comparison",
         "notebookcheck-photonics", "2025-03", "vendor claim", "S", published="~9 W"),
    Spec("optics.cpo.power_efficiency_gain", 3.5, "1",
         "Claimed power-efficiency gain of CPO switches over pluggable optics",
         "techinsights-cpo", "2025-03", "vendor claim", "S", published="3.5x"),
    Spec("optics.cpo.signal_integrity_gain", 63.0, "1",
         "Claimed signal-integrity gain of CPO over pluggable optics",
         "techinsights-cpo", "2025-03", "vendor claim", "S", published="63x",
         note="10^((22 - 4) / 10) = 63.1: the ratio of the two electrical losses above."),
    Spec("optics.cpo.resiliency_gain", 10.0, "1",
         "Claimed network-resiliency gain of CPO at scale (not stated as MTBF)",
         "techinsights-cpo", "2025-03", "vendor claim", "S", published="10x"),
    Spec("optics.cpo.deployment_speedup", 1.3, "1",
         "Claimed speed-up of cluster bring-up (deployment) with CPO switches",
         "techinsights-cpo", "2025-03", "vendor claim", "S", published="1.3x"),
    Spec("optics.cpo.laser_fraction", 0.25, "1",
         "Lasers a CPO network needs, as a fraction of a pluggable network's (4x fewer)",
         "techinsights-cpo", "2025-03", "vendor claim", "S", published="25 % of the lasers"),
    # --- transceiver modules -------------------------------------------------------------------
    Spec("optics.nvidia_800g_sr8.module_power", 15 * W, "W",
         "NVIDIA MMA4Z00-NS twin-port 800G OSFP SR8 (multimode) module power",
         "nvidia-mma4z00-ns", "2024", "shipping", "P", published="15 W"),
    Spec("optics.nvidia_800g_dr8.module_power", 17 * W, "W",
         "NVIDIA MMS4X00-NS twin-port 800G OSFP DR8 (single-mode) module power",
         "nvidia-mms4x00-ns", "2024", "shipping", "P", published="17 W"),
    Spec("optics.nvidia_400g_dr4.module_power", 9 * W, "W",
         "NVIDIA MMS4X00-NS400 400G OSFP DR4 module power, maximum (NIC side)",
         "nvidia-mms4x00-ns400", "2024", "shipping", "P", published="9 W"),
    Spec("optics.nvidia_dac.module_power", 0.1 * W, "W",
         "NVIDIA MCP7Y60 passive copper (DAC) splitter cable power, at most",
         "nvidia-mcp7y60", "2024", "shipping", "P", published="<= 0.1 W"),
    Spec("optics.sn5600.cage_power", 18 * W, "W",
         "Power budget of each OSFP cage (ports 1-64) of an SN5600 switch",
         "nvidia-sn5000-manual", "2024", "shipping", "P", published="18 W per port"),
    Spec("optics.dsp_800g.module_power", 15 * W, "W",
         "Power of an 800G DSP-based pluggable module (midpoint of 14-16 W)",
         "axiom-lpo-vs-dsp", "2025", "vendor claim", "S", published="~14-16 W"),
    Spec("optics.lpo_800g.module_power", 8.5 * W, "W",
         "Power of an 800G linear pluggable (LPO, no DSP) module (midpoint of 8-9 W)",
         "axiom-lpo-vs-dsp", "2025", "vendor claim", "S", published="~8-9 W"),
    Spec("optics.lpo_msa.lane_rate", 100 * Gbps, "bit/s",
         "Lane rate of the LPO MSA's completed linear pluggable specification (100G-DR-LPO), "
         "for 100G to 800G Ethernet (800G = 8 lanes)",
         "convergedigest-lpo-msa", "2025", "standard", "S", published="100 Gb/s per lane",
         note="The MSA plans 200 Gb/s-per-lane work; no 200G-lane linear pluggable is specified yet, so "
              "an LPO port on 200G SerDes (1.6T, Quantum-X800, photonic switches) is hypothetical."),
    Spec("optics.module_rate", 800 * Gbps, "bit/s",
         "Rate of the 800G modules above, one-way (8 x 100G lanes)",
         "axiom-lpo-vs-dsp", "2025", "shipping", "S", published="800 Gb/s"),
    # --- switch silicon ---------------------------------------------------------------------------
    Spec("optics.th5.asic_power", 500 * W, "W", "Broadcom Tomahawk 5 switch chip power",
         "techinsights-th5", "2022", "estimate", "S", published="~500 W",
         note="Analyst estimate; another secondary source says 450 W typical. Switch system "
              "power (SN5600, QM9700) is unconfirmed."),
    Spec("optics.th6_davisson.power_reduction", 0.70, "1",
         "Claimed optics power saved by Broadcom's Tomahawk 6 Davisson CPO switch vs pluggables",
         "cloudnews-th6-davisson", "2025", "vendor claim", "S", published="70 % lower"),
    # --- lasers and reliability ---------------------------------------------------------------
    Spec("optics.lasers.pluggable_128k", 5e6, "1",
         "Lasers in a 128k-GPU cluster with pluggable optics",
         "wedoany-quantum-x800", "2025", "estimate", "S", published="~5 M"),
    Spec("optics.lasers.cpo_128k", 1e6, "1",
         "Lasers in a 128k-GPU cluster with co-packaged optics",
         "wedoany-quantum-x800", "2025", "estimate", "S", published="~1 M"),
    Spec("optics.laser.failure_rate", 100 * _FIT, "1/s",
         "Failure rate of one DFB laser at 70 °C junction temperature (100 FIT, inside the blog's 50-200 FIT range)",
         "luxoptx-800g-reliability", "2025", "estimate", "S", published="50-200 FIT",
         note="1 FIT = one failure per 10^9 device-hours. A vendor blog; field rates depend on heat, dust "
              "and handling."),
    Spec("optics.meta_cpo.flap_free_time", 1e6 * hour, "s",
         "Cumulative flap-free port operating time in Meta's CPO trial",
         "ico-meta-cpo", "2025", "measured", "S", published="> 1 M hours",
         note="The report calls the switch a '25.6 Tb/s Tomahawk 5', which is inconsistent (TH5 is 51.2 Tb/s)."),
)
