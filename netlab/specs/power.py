"""Power: facilities (PUE), a CPO saving claim, and netlab's assumptions for the optics models.

Power usage effectiveness (PUE) is facility power over IT power. The industry
average comes from the Uptime Institute's survey (grade P); hyperscaler figures
are secondary. Server power lives in ``scaleup`` (``dgx.*``).
The ``assume.*`` entries are netlab's own round numbers for the electrical-channel
and SerDes models of chapter 9: no source gives a split of a port's watts, so
the split is an assumption a reader can change.
"""

from netlab.specs import Spec, register
from netlab.units import Tbps, W, m, pJ

register(
    # --- facilities -------------------------------------------------------------------------
    Spec("power.pue.industry_2023", 1.58, "1", "Average data-centre PUE in the 2023 Uptime survey",
         "uptime-pue-2023", "2023", "measured", "P", published="1.58",
         note="1.55-1.59 every year since about 2020."),
    Spec("power.pue.new_facility", 1.3, "1", "PUE of new, large facilities ('1.3 or even better')",
         "cloudnews-uptime-pue", "2024", "measured", "S", published="~1.3"),
    Spec("power.pue.hyperscaler", 1.1, "1", "PUE reported by Google for its fleet (Q2 2021)",
         "cnbc-google-pue", "2022-04", "measured", "S", published="1.1"),
    Spec("power.cpo.site_saving", 60e6 * W, "W",
         "Power NVIDIA's CEO says CPO saves per AI datacenter",
         "convergedigest-photonics", "2025-03", "vendor claim", "S", published="up to 60 MW"),
    # --- netlab assumptions for the optics models (chapter 9) ---------------------------------
    Spec("assume.optics.claim_port_rate", 1.6 * Tbps, "bit/s",
         "Port rate at which the '30 W vs 9 W per port' comparison is read: 8 lanes of 200 Gb/s",
         "netlab-assumptions", "2026", "assumption", "-", published="1.6 Tb/s",
         note="The reports give 200 Gb/s lanes but no port rate; at 800 Gb/s every pJ/bit doubles."),
    Spec("assume.optics.serdes_base_energy", 1.0 * pJ, "J/bit",
         "Energy per bit of a SerDes driving a zero-loss channel",
         "netlab-assumptions", "2026", "assumption", "-", published="1 pJ/bit",
         note="With the slope below: 1.8 pJ/bit at 4 dB, 5.4 pJ/bit at 22 dB."),
    Spec("assume.optics.serdes_energy_per_db", 0.2 * pJ, "J/bit/dB",
         "Extra SerDes energy per bit for each dB of channel loss it must equalise",
         "netlab-assumptions", "2026", "assumption", "-", published="0.2 pJ/bit per dB"),
    Spec("assume.optics.package_loss", 3.0, "dB", "Loss of one crossing of the switch ASIC package substrate",
         "netlab-assumptions", "2026", "assumption", "-", published="3 dB"),
    Spec("assume.optics.pcb_loss_per_m", 60.0 / m, "dB/m",
         "Loss of a PCB trace at the 53 GHz Nyquist frequency of 200 Gb/s PAM4 (about 1.5 dB per inch)",
         "netlab-assumptions", "2026", "assumption", "-", published="60 dB/m"),
    Spec("assume.optics.connector_loss", 1.5, "dB", "Loss of one high-speed connector (the pluggable cage)",
         "netlab-assumptions", "2026", "assumption", "-", published="1.5 dB"),
    Spec("assume.optics.pluggable_host_trace", 0.25 * m, "m",
         "Host PCB trace from switch ASIC to a front-panel cage",
         "netlab-assumptions", "2026", "assumption", "-", published="25 cm"),
    Spec("assume.optics.pluggable_module_trace", 0.03 * m, "m", "Trace inside a pluggable module to its DSP or driver",
         "netlab-assumptions", "2026", "assumption", "-", published="3 cm"),
    Spec("assume.optics.cpo_substrate_trace", 0.01 * m, "m",
         "Substrate trace from switch ASIC to a co-packaged optical engine",
         "netlab-assumptions", "2026", "assumption", "-", published="1 cm"),
    Spec("assume.optics.lasers_per_module", 8, "1",
         "Lasers in one pluggable 800G module (one per lane, as in DR8 and SR8)",
         "netlab-assumptions", "2026", "assumption", "-", published="8",
         note="An 800G port on 200 Gb/s lanes (DR4) has 4 lanes; with one laser per lane the counts halve."),
)
