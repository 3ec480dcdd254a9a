"""Prices, cost shares and achieved utilisation: the economics of a training cluster.

Vendor list prices are rarely published; most figures here are estimates by
analysts or modellers, and are labelled so.
"""

from netlab.specs import Spec, register

register(
    Spec("cost.h100.price_low", 25_000, "USD", "H100 sale price to end customers, low end of the range",
         "techspot-h100-price", "2023-08", "estimate", "S", published="$25,000",
         note="Raymond James estimate via Barron's; the same source puts the cost to make one at ~$3,320."),
    Spec("cost.h100.price_high", 30_000, "USD", "H100 sale price to end customers, high end of the range",
         "techspot-h100-price", "2023-08", "estimate", "S", published="$30,000"),
    Spec("cost.dgx_h100.price", 270_000, "USD", "DGX H100 (8 GPUs) selling price",
         "epoch-training-cost-trends", "2023-05", "estimate", "S", published="~$270,000",
         note="SemiAnalysis figure as recorded in Epoch AI's hardware price data."),
    Spec("cost.epoch.server_to_gpu_ratio", 1.64, "1",
         "Server cost as a multiple of its GPUs' price (Epoch AI's default model assumption)",
         "epoch-training-cost-trends", "2024", "estimate", "P", published="1.64x"),
    Spec("cost.epoch.interconnect_fraction", 0.19, "1",
         "Interconnect share of total cluster cost (Epoch AI's model assumption; justification not given)",
         "epoch-training-cost-trends", "2024", "estimate", "P", published="19 %"),
    Spec("util.llama3_405b.tflops_per_gpu_8k", 430e12, "FLOP/s",
         "Llama 3.1 405B training throughput per H100 at 8,192 GPUs (BF16)",
         "klockwood-llama31", "2024", "measured", "S", published="430 TFLOPS/GPU"),
    Spec("util.llama3_405b.tflops_per_gpu_16k", 400e12, "FLOP/s",
         "Llama 3.1 405B training throughput per H100 at 16,384 GPUs (BF16)",
         "klockwood-llama31", "2024", "measured", "S", published="400 TFLOPS/GPU"),
    Spec("util.megascale.mfu", 0.552, "1",
         "Model FLOPs utilisation training a 175B model on 12,288 GPUs (MegaScale)",
         "jiang-megascale", "2024", "measured", "P", published="55.2 % MFU"),
)

# --- network and rack street prices (low-quality sources: ranges, labelled estimates) ------
register(
    Spec("cost.switch_64x800g.price_low", 150_000, "USD", "64-port 800G Ethernet switch, street price, low end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$150,000",
         note="An optics vendor's blog; no vendor list price was found for any AI switch."),
    Spec("cost.switch_64x800g.price_high", 250_000, "USD", "64-port 800G Ethernet switch, street price, high end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$250,000"),
    Spec("cost.optics_800g_dr8.price_low", 1_100, "USD", "800G OSFP DR8 transceiver, street price, low end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$1,100"),
    Spec("cost.optics_800g_dr8.price_high", 1_400, "USD", "800G OSFP DR8 transceiver, street price, high end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$1,400"),
    Spec("cost.optics_800g_lpo.price_low", 700, "USD", "800G linear pluggable (LPO) transceiver, low end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$700"),
    Spec("cost.optics_800g_lpo.price_high", 900, "USD", "800G linear pluggable (LPO) transceiver, high end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$900"),
    Spec("cost.gb200_nvl72.price_low", 2_000_000, "USD", "GB200 NVL72 rack (72 GPUs), low end of estimates",
         "xataka-nvl72-price", "2025", "estimate", "S", published="$2 M"),
    Spec("cost.gb200_nvl72.price_high", 3_100_000, "USD", "GB200 NVL72 rack (72 GPUs), high end of estimates",
         "xataka-nvl72-price", "2025", "estimate", "S", published="$3.1 M"),
)

register(
    Spec("cost.optics_400g.price_low", 600, "USD", "400G QSFP-DD transceiver in volume, street price, low end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$600"),
    Spec("cost.optics_400g.price_high", 800, "USD", "400G QSFP-DD transceiver in volume, street price, high end",
         "luxoptx-800g-cost", "2025", "estimate", "S", published="$800"),
)
