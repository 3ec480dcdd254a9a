"""netlab's own modelling assumptions: round numbers a reader is invited to change.

They are not published figures. Each says what published range it stands in for,
and the labs expose it as a control wherever it matters.
"""

from netlab.specs import Spec, register
from netlab.units import us

register(
    Spec("assume.latency_per_hop", 0.5 * us, "s",
         "Fixed delay per hop in the chapter 2 path model: a switch's forwarding latency "
         "plus a few metres of cable",
         "netlab-assumptions", "2026", "assumption", "-", published="0.5 µs",
         note="At the high end: sourced switch port-to-port figures span 0.1-0.33 µs and are weakly "
              "sourced (chapter 4); cable adds about 5 ns per metre."),
)

register(
    Spec("assume.network_alpha", 5 * us, "s",
         "Start-up latency per step of a collective across the scale-out network, used in chapter 1",
         "netlab-assumptions", "2026", "assumption", "-", published="5 µs",
         note="Inside the 2.7-9.6 µs per network hop of NCCL's older tuning table (chapter 6)."),
    Spec("assume.mfu", 0.40, "1",
         "Model FLOPs utilisation assumed for training estimates (achieved / peak dense FLOP/s)",
         "netlab-assumptions", "2026", "assumption", "-", published="40 %",
         note="Meta reports 380-430 TFLOPS per H100 (38-43 %) for Llama 3.1 405B; MegaScale 55 %."),
)

register(
    Spec("assume.cpo_optics_price_vs_lpo", 1.0, "1",
         "Price of co-packaged optics per port relative to an 800G LPO module (capstone cost model)",
         "netlab-assumptions", "2026", "assumption", "-", published="1.0x",
         note="No CPO price was found; change it to see how the design ranking moves."),
)

register(
    Spec("assume.switch_price_scales_with_capacity", 1.0, "1",
         "A switch's price in the capstone cost model is the 64 x 800G street price times its capacity "
         "(ports x rate) over 51.2 Tb/s",
         "netlab-assumptions", "2026", "assumption", "-", published="price ∝ capacity",
         note="No street price was found for InfiniBand or photonic switches, nor for other capacities."),
)

register(
    Spec("assume.dcqcn.byte_counter", 10e6, "B",
         "DCQCN byte counter between rate-increase steps in chapter 4's scenario",
         "netlab-assumptions", "2026", "assumption", "-", published="10 MB",
         note="Two secondary reports give 10 MB as the DCQCN paper's byte counter (paper body not "
              "retrieved); the authors' ns-3 sample uses 300 000 B."),
)

