"""GPUs: memory size and bandwidth, dense 16-bit tensor throughput, power.

Memory sizes are decimal, as vendors quote them (80 GB = 80e9 bytes, about
74.5 GiB). Compute is dense BF16/FP16 tensor throughput without 2:4 sparsity,
which datasheets often show doubled.
"""

from netlab.specs import Spec, register
from netlab.units import GB, TBps, W

_TFLOPS = 1e12

register(
    # --- A100 ----------------------------------------------------------------------
    Spec("gpu.a100_40gb.memory", 40 * GB, "B", "A100 SXM HBM2 capacity",
         "glennklockwood-a100", "2020", "shipping", "S", published="40 GB"),
    Spec("gpu.a100_80gb.memory", 80 * GB, "B", "A100 SXM HBM2e capacity",
         "glennklockwood-a100", "2020", "shipping", "S", published="80 GB"),
    Spec("gpu.a100_80gb.memory_bandwidth", 2.039 * TBps, "bit/s", "A100 80 GB HBM2e bandwidth",
         "glennklockwood-a100", "2020", "shipping", "S", published="2.039 TB/s"),
    Spec("gpu.a100.bf16_dense", 312 * _TFLOPS, "FLOP/s", "A100 SXM dense BF16/FP16 tensor throughput",
         "glennklockwood-a100", "2020", "shipping", "S", published="312 TFLOPS"),
    Spec("gpu.a100.power", 400 * W, "W", "A100 SXM board power",
         "glennklockwood-a100", "2020", "shipping", "S", published="400 W"),
    # --- H100 ----------------------------------------------------------------------
    Spec("gpu.h100.memory", 80 * GB, "B", "H100 SXM5 HBM3 capacity",
         "hpctech-h100", "2023", "shipping", "P", published="80 GB"),
    Spec("gpu.h100.memory_bandwidth", 3.35 * TBps, "bit/s", "H100 SXM5 HBM3 bandwidth",
         "hpctech-h100", "2023", "shipping", "P", published="3.35 TB/s"),
    Spec("gpu.h100.bf16_dense", 989.4 * _TFLOPS, "FLOP/s",
         "H100 SXM5 dense BF16 tensor throughput (half the 1,978.9 TFLOPS sparse figure)",
         "hpctech-h100", "2023", "shipping", "P", published="989.4 TFLOPS"),
    Spec("gpu.h100.power", 700 * W, "W", "H100 SXM5 board power",
         "hpctech-h100", "2023", "shipping", "P", published="700 W"),
    # --- H200 ----------------------------------------------------------------------
    Spec("gpu.h200.memory", 141 * GB, "B", "H200 SXM HBM3e capacity",
         "mlperf-h200-system", "2024", "shipping", "P", published="141 GB"),
    Spec("gpu.h200.memory_bandwidth", 4.8 * TBps, "bit/s", "H200 SXM HBM3e bandwidth",
         "mlperf-h200-system", "2024", "shipping", "P", published="4.8 TB/s"),
    Spec("gpu.h200.power", 700 * W, "W", "H200 SXM total graphics power",
         "mlperf-h200-system", "2024", "shipping", "P", published="700 W"),
    # --- B200 / GB200 --------------------------------------------------------------
    Spec("gpu.b200.memory", 180 * GB, "B", "B200 HBM3e capacity as shipped in DGX B200 (1,440 GB / 8)",
         "nvidia-dgx-b200-guide", "2025", "shipping", "P", published="180 GB",
         note="Some spec pages say 192 GB."),
    Spec("gpu.b200.memory_bandwidth", 8 * TBps, "bit/s", "B200 HBM3e bandwidth",
         "glennklockwood-b200", "2024", "shipping", "S", published="8 TB/s"),
    Spec("gpu.b200.bf16_dense", 2250 * _TFLOPS, "FLOP/s", "B200 (HGX, 1,000 W) dense BF16 tensor throughput",
         "glennklockwood-b200", "2024", "shipping", "S", published="2,250 TFLOPS"),
    Spec("gpu.b200.power", 1000 * W, "W", "B200 (HGX) total graphics power",
         "glennklockwood-b200", "2024", "shipping", "S", published="1,000 W"),
    Spec("gpu.gb200.memory", 186 * GB, "B", "GB200 HBM3e visible per Blackwell GPU",
         "mlperf-gb200-system", "2025", "shipping", "P", published="186 GB"),
    Spec("gpu.gb200.bf16_dense", 2500 * _TFLOPS, "FLOP/s",
         "GB200 (1,200 W configuration) dense BF16 tensor throughput per GPU",
         "glennklockwood-b200", "2024", "shipping", "S", published="2,500 TFLOPS"),
)
