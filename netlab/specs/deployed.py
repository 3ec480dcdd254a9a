"""Figures of systems and software as they are deployed (chapter 7's "as run" sections).

Defaults of the training and serving software that decide how communication overlaps
computation (PyTorch DDP's gradient buckets), the routing and kernels of a deployed
mixture-of-experts model (DeepSeek-V3's node-limited routing, DeepEP's measured dispatch and
combine), the custom all-reduce kernels of inference engines, and the smallest cluster a reader
can buy (two DGX Spark boxes joined by their ConnectX-7 ports).

Measurements are graded by who made them: a project's own benchmark table in its README or
pull request is primary for *what that project measured* (grade P when it is the authors'
published table, S when it is one developer's run in a pull request), never a vendor datasheet.
"""

from netlab.specs import Spec, register
from netlab.units import GB, GBps, Gbps, MiB, us

register(
    # --- PyTorch DistributedDataParallel --------------------------------------------------------
    Spec("pytorch.ddp.bucket_cap", 25 * MiB, "B",
         "Default gradient bucket size of PyTorch DistributedDataParallel (bucket_cap_mb = 25): "
         "gradients are all-reduced a bucket at a time as the backward pass fills them",
         "pytorch-ddp-source", "2025", "shipping", "P", published="bucket_cap_mb = 25",
         note="The code multiplies by 1024 * 1024, so the '25 MB' of the documentation is 25 MiB = "
              "26,214,400 bytes. The first bucket is capped at 1 MiB (dist._DEFAULT_FIRST_BUCKET_BYTES) "
              "so that communication starts early."),
    # --- DeepSeek-V3 (technical report, arXiv 2412.19437) ----------------------------------------
    Spec("deepseek_v3.max_nodes_per_token", 4, "1",
         "Node-limited routing of DeepSeek-V3: each token is sent to at most M = 4 nodes",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="M = 4 nodes"),
    Spec("deepseek_v3.routed_experts", 256, "1", "Routed experts per MoE layer of DeepSeek-V3",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="256 routed experts"),
    Spec("deepseek_v3.top_k", 8, "1", "Routed experts each token activates in DeepSeek-V3",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="8 activated experts"),
    Spec("deepseek_v3.d_model", 7168, "1", "Hidden size of DeepSeek-V3",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="hidden dimension 7168"),
    Spec("deepseek_v3.nvlink_rate", 160 * GBps, "bit/s",
         "NVLink bandwidth per H800 GPU as the DeepSeek-V3 report states it (one direction)",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="160 GB/s",
         note="The report: NVLink 160 GB/s, 'roughly 3.2 times' IB's 50 GB/s."),
    Spec("deepseek_v3.ib_rate", 50 * GBps, "bit/s",
         "InfiniBand bandwidth per H800 GPU as the DeepSeek-V3 report states it (400 Gb/s, one direction)",
         "deepseek-v3-report", "2024-12", "shipping", "P", published="50 GB/s"),
    Spec("deepseek_v3.free_experts_per_node", 3.2, "1",
         "Experts per node a token can select with no extra NVLink cost, as the DeepSeek-V3 report "
         "states (NVLink / IB = 160 / 50)",
         "deepseek-v3-report", "2024-12", "vendor claim", "P", published="3.2 experts per node",
         note="The report also gives the consequence: up to 13 experts (4 nodes x 3.2) at the same "
              "communication cost. netlab.nvlink.moe.free_experts_per_node derives 3.2."),
    # --- DeepEP (V1 figures, docs/legacy.md; H800, CX7 400 Gb/s InfiniBand) ---------------------
    Spec("deepep.normal.intranode_ep8_dispatch", 153 * GBps, "bit/s",
         "DeepEP normal-kernel dispatch inside one 8-GPU H800 node: bottleneck (NVLink) bandwidth, "
         "4,096 tokens, hidden 7168, top-8, FP8 dispatch",
         "deepep-readme", "2025", "measured", "P", published="153 GB/s (NVLink)",
         note="The authors' table; H800 NVLink about 160 GB/s. Combine: 158 GB/s."),
    Spec("deepep.normal.internode_ep32_dispatch", 58 * GBps, "bit/s",
         "DeepEP normal-kernel dispatch over 4 H800 nodes (EP 32): bottleneck (RDMA) bandwidth, "
         "logical bytes, 4,096 tokens, hidden 7168, top-4 groups, top-8, FP8 dispatch",
         "deepep-readme", "2025", "measured", "P", published="58 GB/s (RDMA)",
         note="Above the NIC's ~50 GB/s because the figure counts logical bytes: one RDMA send to a "
              "node serves every expert the token has there (NVLink forwarding). EP 16: 43, EP 64: 51 GB/s."),
    Spec("deepep.low_latency.ep8_dispatch", 77 * us, "s",
         "DeepEP low-latency (pure RDMA) dispatch latency at EP 8 on H800 with CX7 400 Gb/s: "
         "128 tokens, hidden 7168, top-8, FP8",
         "deepep-readme", "2025", "measured", "P", published="77 us",
         note="Combine 114 us. The RDMA bandwidth column reads 98 GB/s, twice a 400 Gb/s NIC: "
              "logical bytes again."),
    Spec("deepep.low_latency.ep256_dispatch", 194 * us, "s",
         "DeepEP low-latency dispatch latency at EP 256 on H800 (same setting)",
         "deepep-readme", "2025", "measured", "P", published="194 us",
         note="Combine 360 us; from EP 128 (192 us) on the latency barely grows."),
    # --- inference engines' custom all-reduce (vLLM's, in the SGLang measurement) ----------------
    Spec("serving.vllm_custom_all_reduce.h100_tp8_16kib", 9.3 * us, "s",
         "vLLM's custom (one-shot) all-reduce of 16 KiB (4,096 float32 values) on 8 H100, without CUDA "
         "graphs, time per call as measured beside SGLang's kernel",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0093 ms at test_size = 4096",
         note="Sizes are float32 counts and times per call in a stream: see nccl.alternative.custom_all_reduce.*."),
    Spec("serving.vllm_custom_all_reduce.h100_tp8_128kib", 11.8 * us, "s",
         "vLLM's custom all-reduce of 128 KiB (32,768 float32 values) on 8 H100 (same table)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0118 ms at test_size = 32768"),
    Spec("serving.sglang_custom_all_reduce.h100_tp8_1mib", 16.7 * us, "s",
         "SGLang's custom all-reduce of 1 MiB (262,144 float32 values) on 8 H100 (same table)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0167 ms at test_size = 262144"),
    Spec("serving.sglang_custom_all_reduce.h100_tp8_2mib", 22.1 * us, "s",
         "SGLang's custom all-reduce of 2 MiB (524,288 float32 values) on 8 H100 (same table)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0221 ms at test_size = 524288"),
    Spec("serving.sglang_custom_all_reduce.h100_tp8_4mib", 33.8 * us, "s",
         "SGLang's custom all-reduce of 4 MiB (1,048,576 float32 values, the table's largest size) on "
         "8 H100 (same table)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0338 ms at test_size = 1048576"),
    # --- DGX Spark (GB10) ---------------------------------------------------------------------------
    Spec("spark.memory", 128 * GB, "B", "DGX Spark coherent unified LPDDR5x memory (CPU and GPU share it)",
         "nvidia-nim-dgx-spark", "2025", "shipping", "P", published="128 GB"),
    Spec("spark.nic_rate", 200 * Gbps, "bit/s",
         "DGX Spark ConnectX-7 network bandwidth per system, one direction",
         "nvidia-nim-dgx-spark", "2025", "shipping", "P", published="up to 200 Gbps",
         note="Two QSFP ports; ServeTheHome found them behind two PCIe Gen5 x4 links (about 100 Gb/s "
              "each), so one link alone carries about half (spark.measured.one_link_rdma)."),
    Spec("spark.measured.one_link_rdma", 93.4 * Gbps, "bit/s",
         "ib_write_bw over one ConnectX-7 link between two DGX Spark systems, a user's tutorial",
         "spark-multirail-tutorial", "2025", "measured", "S", published="11,679 MB/s",
         note="11,679 MB/s x 8 = 93.4 Gb/s; the same tutorial reaches about 176 Gb/s over both links."),
    Spec("spark.memory_bandwidth", 273 * GBps, "bit/s", "DGX Spark (GB10) memory bandwidth",
         "meterpreter-dgx-spark", "2025", "shipping", "S", published="273 GB/s",
         note="The fact sheet (D13) lists 273-301 GB/s across secondary sources; 273 GB/s is the figure "
              "most of them give."),
)
