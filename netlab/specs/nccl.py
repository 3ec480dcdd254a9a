"""Measured NCCL collective bandwidths (nccl-tests busbw) and NCCL's per-step latencies.

All bandwidths are nccl-tests figures: one-way, in the units nccl-tests prints
(GB/s), stored in bit/s. ``busbw`` is ``algbw`` times the collective's factor
(``2(n-1)/n`` for all-reduce), so it can be set beside a link's one-way rate;
with NVLink SHARP (NVLS) it no longer maps to a wire (chapter 6). Most are
maintainer or NVIDIA-engineer statements in nccl-tests issues (grade P); user
reports are graded S. Ranges are stored at their midpoint, the range in
``published``.
"""

from netlab.specs import Spec, register
from netlab.units import GBps, us

register(
    # --- inside one 8-GPU NVLink node -------------------------------------------------------
    Spec("nccl.h100_node.ring_busbw", 370 * GBps, "bit/s",
         "All-reduce busbw on 8 H100 in one NVLink Switch node with the ring algorithm "
         "(also the ceiling of the other collectives), per direction",
         "nccl-tests-issue-212", "2024", "measured", "P", published="~370 GB/s",
         note="Maintainer: the 450 GB/s line rate minus about 20 % protocol overhead."),
    Spec("nccl.h100_node.nvls_busbw", 480 * GBps, "bit/s",
         "Peak all-reduce busbw on 8 H100 with NVLink SHARP (NVLS), as nccl-tests prints it "
         "(factor 2(n-1)/n)",
         "nccl-tests-issue-212", "2024", "measured", "P", published="~480 GB/s",
         note="About 30 % over the ring; above the 450 GB/s line rate because busbw no longer "
              "counts wire traffic when the switch reduces."),
    Spec("nccl.h100_node.nvls_algbw", 275 * GBps, "bit/s",
         "Peak all-reduce algbw on 8 H100 with NVLS (the row printing ~480 GB/s busbw)",
         "nccl-tests-issue-212", "2024", "measured", "P", published="~275 GB/s"),
    Spec("nccl.h100.p2p_copy", 380 * GBps, "bit/s",
         "H100 peer-to-peer copy over NVLink measured by cuda-samples, one direction",
         "nccl-issue-1264", "2024", "measured", "S", published="380 of 450 GB/s",
         note="Bidirectional: 749 of 900 GB/s."),
    Spec("nccl.a100_node.ring_busbw", 216 * GBps, "bit/s",
         "All-reduce busbw on 8 A100 in one NVLink node, user reports, per direction",
         "nccl-tests-a100-issues", "2023", "measured", "S", published="~200-232 GB/s",
         note="Midpoint of the reported range; NVLink 3 gives 300 GB/s per direction."),
    # --- across nodes, per NIC ---------------------------------------------------------------
    Spec("nccl.ndr.busbw_per_nic", 47 * GBps, "bit/s",
         "Inter-node busbw one should see per NDR 400 Gb/s NIC (ring), per direction",
         "nccl-tests-issue-290", "2025", "measured", "P", published="46-48 GB/s per NIC",
         note="An NVIDIA engineer's expectation: 92-96 % of the 50 GB/s line rate."),
    Spec("nccl.hdr.busbw_per_nic", 24 * GBps, "bit/s",
         "Inter-node ring all-reduce busbw per 200 Gb/s-class NIC that 'looks great', per direction",
         "nccl-tests-issue-252", "2024", "measured", "P", published="~24 GB/s per NIC",
         note="About 96 % of 25 GB/s; the run reported ~95 GB/s busbw over four such NICs."),
    Spec("nccl.nic_100g.busbw_per_nic", 12.2 * GBps, "bit/s",
         "Inter-node busbw on one 100 Gb/s NIC, 'as good as you can get', per direction",
         "nccl-tests-issue-29", "2019", "measured", "P", published="12.2 GB/s",
         note="98 % of 12.5 GB/s."),
    Spec("nccl.h200_248_nodes.busbw", 350 * GBps, "bit/s",
         "All-reduce busbw on 248 nodes of 8 H200 over InfiniBand, 512 MB, default algorithm",
         "nccl-tests-issue-283", "2025", "measured", "S", published="~350 GB/s, at times < 300",
         note="A user report; with 8 NICs per node, about 44 GB/s per NIC."),
    Spec("nccl.h100_2_nodes_roce.busbw", 223 * GBps, "bit/s",
         "All-reduce busbw on 2 nodes of 8 H100 with 8 x 400G RoCE NICs each, user report",
         "nccl-issue-2409", "2025", "measured", "S", published="216-231 GB/s",
         note="The user expected ~470 GB/s; two nodes run a tree, whose busbw can exceed the "
              "per-NIC figure (nccl-tests issue 196)."),
)

# --- NCCL's tuning model as shipped in NCCL 2.30.7 (src/graph/tuning.cc, src/graph/topo.h) ----
# The tuner predicts time = latency + bytes / bandwidth for every (algorithm, protocol) and
# runs the fastest. Its latency is a base per collective plus a per-step hardware latency;
# its bandwidth is the topology's bus bandwidth times a per-protocol efficiency, capped.
# netlab.collectives.nccl_tuner rebuilds the ring and tree part of that model from these entries.
_TUNER_SRC = ("nccl-tuning-cc-2-30", "2026-06", "shipping", "P")
_PROTOCOLS = ("ll", "ll128", "simple")
_BASE_US = {"tree": (6.8, 14.0, 8.4), "ring": (6.6, 14.0, 8.4)}
_HW_US = {"nvlink": {"tree": (0.6, 1.25, 4.0), "ring": (0.6, 1.9, 3.4)},
          "pcie": {"tree": (1.0, 1.9, 4.0), "ring": (1.0, 2.5, 5.7)},
          "net": {"tree": (5.0, 8.5, 14.0), "ring": (2.7, 4.0, 14.0)}}
for _algo, _values in _BASE_US.items():
    for _proto, _us in zip(_PROTOCOLS, _values):
        register(Spec(f"nccl.tuner.base_latency.{_algo}.{_proto}", _us * us, "s",
                      f"Base latency NCCL's tuner charges once per collective for the {_algo} "
                      f"algorithm with the {_proto.upper()} protocol",
                      *_TUNER_SRC, published=f"{_us} µs",
                      note="baseLatencies in the tuner constants of src/graph/tuning.cc (NCCL 2.30.7). "
                           "NCCL 2.7 had 3.6 µs for ring LL and 4.4 µs for tree LL."))
for _hw, _table in _HW_US.items():
    for _algo, _values in _table.items():
        for _proto, _us in zip(_PROTOCOLS, _values):
            register(Spec(f"nccl.tuner.step_latency.{_hw}.{_algo}.{_proto}", _us * us, "s",
                          f"Latency NCCL's tuner charges per {_algo} step over {_hw.upper()} "
                          f"with the {_proto.upper()} protocol",
                          *_TUNER_SRC, published=f"{_us} µs",
                          note="hwLatencies in src/graph/tuning.cc (NCCL 2.30.7). A ring all-reduce "
                               "pays 2(n-1) steps, a tree 2(ranks per node - 1) NVLink/PCIe steps "
                               "plus 2 log2(nodes) network steps."))
register(
    Spec("nccl.tuner.nvlink_bw_per_link.hopper", 20.6 * GBps, "bit/s",
         "Bandwidth NCCL's topology model assumes per NVLink of a Hopper GPU (SM90), per direction",
         *_TUNER_SRC, published="20.6 GB/s",
         note="SM90_NVLINK_BW in src/graph/topo.h; 18 links give the 370.8 GB/s ring cap, "
              "82 % of the 25 GB/s line rate per link."),
    Spec("nccl.tuner.nvlink_bw_per_link.blackwell", 40.1 * GBps, "bit/s",
         "Bandwidth NCCL's topology model assumes per NVLink of a Blackwell GPU (SM100), per direction",
         *_TUNER_SRC, published="40.1 GB/s",
         note="SM100_NVLINK_BW in src/graph/topo.h; 18 links give 721.8 GB/s, 80 % of 50 GB/s."),
    Spec("nccl.tuner.ll_max_busbw.hopper", 141.0 * GBps, "bit/s",
         "Cap NCCL's tuner puts on LL-protocol busbw inside one Hopper node",
         *_TUNER_SRC, published="141 GB/s", note="llMaxBws[Hopper][1 node] in src/graph/tuning.cc."),
    Spec("nccl.tuner.ll_max_busbw.blackwell", 282.0 * GBps, "bit/s",
         "Cap NCCL's tuner puts on LL-protocol busbw inside one Blackwell node",
         *_TUNER_SRC, published="2 x 141 GB/s", note="llMaxBws[Blackwell][1 node]."),
    Spec("nccl.tuner.ll_max_busbw.x86_2_nodes", 39.0 * GBps, "bit/s",
         "Cap NCCL's tuner puts on LL-protocol busbw across 2 nodes with Intel x86 hosts",
         *_TUNER_SRC, published="39.0 GB/s", note="llMaxBws[Intel][2 nodes]; 87.7 and 22.5 on AMD."),
    Spec("nccl.tuner.ll_max_busbw.x86_many_nodes", 20.4 * GBps, "bit/s",
         "Cap NCCL's tuner puts on LL-protocol busbw across more than 2 nodes with Intel x86 hosts",
         *_TUNER_SRC, published="20.4 GB/s", note="llMaxBws[Intel][4+ nodes]; 19.0 on AMD."),
    Spec("nccl.tuner.net_overhead.x86_intel", 1.0 * us, "s",
         "Per-step network post overhead NCCL's tuner charges a multi-node ring (x3 for Simple), "
         "Intel x86 hosts",
         *_TUNER_SRC, published="1.0 µs", note="getNetOverhead in src/graph/tuning.cc; 2.0 µs on AMD."),
)
register(
    Spec("nccl.tuner.step_latency.nvlink.nvls.simple", 25.0 * us, "s",
         "Latency NCCL's tuner charges an NVLink SHARP (NVLS) all-reduce inside an NVLink domain "
         "(the whole latency: NVLS has no base latency)",
         *_TUNER_SRC, published="25 µs", note="hwLatencies[NVLINK][NVLS][Simple] in src/graph/tuning.cc."),
    Spec("nccl.tuner.step_latency.net.nvls_tree.simple", 20.9 * us, "s",
         "Latency NCCL's tuner charges per network level of an NVLS-tree all-reduce across nodes",
         *_TUNER_SRC, published="20.9 µs",
         note="hwLatencies[NET][NVLSTree][Simple]; the total is 25 µs + 2 log2(nodes) x 20.9 µs."),
    Spec("nccl.tuner.nvls_efficiency.hopper", 0.85, "1",
         "Share of the NVLink bus bandwidth NCCL's tuner credits NVLS with on Hopper",
         *_TUNER_SRC, published="0.85", note="nvlsEfficiency in src/graph/tuning.cc; doubled for all-reduce."),
    Spec("nccl.tuner.nvls_efficiency.blackwell", 0.74, "1",
         "Share of the NVLink bus bandwidth NCCL's tuner credits NVLS with on Blackwell",
         *_TUNER_SRC, published="0.74", note="nvlsEfficiency in src/graph/tuning.cc."),
)
register(
    # --- what inference engines use instead of NCCL for small all-reduces (chapter 7) ------------
    Spec("nccl.alternative.custom_all_reduce.h100_tp8_4kb", 5.7 * us, "s",
         "Latency of a custom (one-shot, NVLink peer-to-peer) all-reduce kernel of 4 KB on 8 H100, "
         "as SGLang ships for tensor-parallel decode (without CUDA graphs)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0057 ms",
         note="Same table: vLLM's custom kernel 9.3 µs; NCCL's tuner predicts 15 µs for ring/LL."),
    Spec("nccl.alternative.custom_all_reduce.h100_tp8_32kb", 7.8 * us, "s",
         "Latency of the same custom all-reduce kernel for 32 KB on 8 H100",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0078 ms",
         note="Same table: vLLM's custom kernel 11.8 µs."),
)
