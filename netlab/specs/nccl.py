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
    Spec("nccl.alternative.custom_all_reduce.h100_tp8_16kib", 5.7 * us, "s",
         "Time per call of a custom (one-shot, NVLink peer-to-peer) all-reduce kernel of 16 KiB "
         "(4,096 float32 values) on 8 H100, as SGLang ships for tensor-parallel decode (no CUDA graphs)",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0057 ms at test_size = 4096",
         note="The table's size is a count of float32 values (sgl-kernel/tests/test_trt_reduce.py makes "
              "torch.randint(..., (sz,), dtype=torch.float32)), so 4096 is 16 KiB. Each time is 5,000 "
              "back-to-back calls timed on the host without synchronising the GPU, divided by 5,000: a "
              "time per call in a stream, not one call's latency. Same table: vLLM's kernel 9.3 µs."),
    Spec("nccl.alternative.custom_all_reduce.h100_tp8_128kib", 7.8 * us, "s",
         "Time per call of the same custom all-reduce kernel for 128 KiB (32,768 float32 values) on 8 H100",
         "sglang-pr-2904", "2025-01", "measured", "S", published="0.0078 ms at test_size = 32768",
         note="Sizes and timing as for the 16 KiB entry. Same table: vLLM's kernel 11.8 µs."),
)

# --- NCCL's protocols and channels as NCCL 2.30.7 defines them (src/include/device.h, src/init.cc) ---
# Software constants, not hardware figures; netlab.collectives.protocols derives each protocol's
# payload share and buffer size from them.
_SRC_2_30 = ("nccl-src-2-30-7", "2026-06", "shipping", "P")
register(
    Spec("nccl.proto.ll.store_bytes", 8, "B",
         "Size of one LL store: 4 bytes of data and a 4-byte flag written together by one 8-byte store",
         *_SRC_2_30, published="data1/flag1 (uint32_t each)",
         note="union ncclLLFifoLine in src/include/device.h: a 16-byte line holds two such pairs "
              "(data1, flag1, data2, flag2); the flag comes after the data so an 8-byte-atomic "
              "write never shows a flag without its data."),
    Spec("nccl.proto.ll.flag_bytes", 4, "B",
         "Flag bytes in one 8-byte LL store (the rest is payload)",
         *_SRC_2_30, published="uint32_t flag1", note="src/include/device.h, union ncclLLFifoLine."),
    Spec("nccl.proto.ll.lines_per_thread", 8, "1",
         "16-byte LL lines each thread handles per step (NCCL_LL_LINES_PER_THREAD)",
         *_SRC_2_30, published="8", note="src/include/device.h."),
    Spec("nccl.proto.ll.max_threads", 512, "1",
         "Most threads of an LL channel (NCCL_LL_MAX_NTHREADS)", *_SRC_2_30, published="512",
         note="src/include/device.h."),
    Spec("nccl.proto.ll128.line_bytes", 128, "B",
         "Size of one LL128 line (NCCL_LL128_LINESIZE): 16 eight-byte elements, one of them the flag",
         *_SRC_2_30, published="128", note="src/include/device.h: NCCL_LL128_DATAELEMS = "
                                          "NCCL_LL128_LINEELEMS - 1 = 15 data elements."),
    Spec("nccl.proto.ll128.flag_bytes", 8, "B",
         "Flag bytes in one LL128 line (one uint64_t element of the 16)", *_SRC_2_30, published="8",
         note="src/include/device.h (NCCL_LL128_LINEELEMS - NCCL_LL128_DATAELEMS = 1 element of 8 B)."),
    Spec("nccl.proto.ll128.elems_per_thread", 120, "1",
         "Eight-byte elements each LL128 thread holds per step (NCCL_LL128_ELEMS_PER_THREAD)",
         *_SRC_2_30, published="120", note="src/include/device.h."),
    Spec("nccl.proto.ll128.max_threads", 640, "1",
         "Most threads of an LL128 channel (NCCL_LL128_MAX_NTHREADS)", *_SRC_2_30, published="640",
         note="src/include/device.h."),
    Spec("nccl.proto.simple.buffer_bytes", 4 * 1024 * 1024, "B",
         "Buffer of one Simple-protocol connection per channel (DEFAULT_BUFFSIZE, 4 MiB), "
         "cut into NCCL_STEPS slots",
         *_SRC_2_30, published="1 << 22 (4 MiB)", note="src/init.cc; NCCL_BUFFSIZE overrides it."),
    Spec("nccl.proto.simple.flag_bytes", 8, "B",
         "Size of the counter a Simple step publishes after its data (a 64-bit head/tail step counter)",
         *_SRC_2_30, published="uint64_t* tail / head", note="struct ncclConnInfo in src/include/device.h."),
    Spec("nccl.proto.steps", 8, "1",
         "Slots (steps) a connection's buffer is cut into, so a sender can run ahead of its receiver "
         "(NCCL_STEPS)", *_SRC_2_30, published="8", note="src/include/device.h."),
    Spec("nccl.channels.max", 64, "1",
         "Most channels a communicator can use (MAXCHANNELS); NCCL_MAX_NCHANNELS lowers it",
         *_SRC_2_30, published="64", note="src/include/device.h; src/graph/connect.cc applies "
                                         "NCCL_MIN/MAX_NCHANNELS to the channels the search found."),
)
# The tuner's per-channel caps on Hopper and Blackwell (GB/s per channel; 1 node, 2 nodes, more), which bind when
# a communicator has few channels, and the CollNet / NVLS latencies netlab's tables cite.
_PER_CHANNEL = {"hopper": {"ring_ll128": (36.7, 36.7, 36.7), "tree": (38.7, 41.4, 36.0),
                           "tree_ll128": (36.7, 36.7, 29.0)},
                "blackwell": {"ring_ll128": (40.0, 40.0, 40.0), "tree": (70.0, 42.8, 24.0),
                              "tree_ll128": (55.6, 31.67, 20.0)}}
for (_arch, _what), _caps in (((a, w), c) for a, t in _PER_CHANNEL.items() for w, c in t.items()):
    for _nodes, _gbps in zip(("1_node", "2_nodes", "many_nodes"), _caps):
        register(Spec(f"nccl.tuner.per_channel_cap.{_arch}.{_what}.{_nodes}", _gbps * GBps, "bit/s",
                      f"Bus bandwidth per channel NCCL's tuner allows {_what.replace('_', ' ').replace('ll128', 'LL128')} "
                      f"on {_arch.capitalize()} ({_nodes.replace('_', ' ')})",
                      *_TUNER_SRC, published=f"{_gbps} GB/s",
                      note="perChMaxRingLL128Bws / perChMaxTreeBws / perChMaxTreeLL128Bws in "
                           "src/graph/tuning.cc; the cap is this times the channel count."))
register(
    Spec("nccl.tuner.step_latency.nvlink.collnet_direct.simple", 3.7 * us, "s",
         "Latency NCCL's tuner charges a CollNet Direct all-reduce for its step inside a node",
         *_TUNER_SRC, published="3.7 µs", note="hwLatencies[NVLINK][CollNetDirect][Simple]."),
    Spec("nccl.tuner.step_latency.net.collnet_direct.simple", 31.0 * us, "s",
         "Latency NCCL's tuner charges a CollNet Direct all-reduce for its trip through the "
         "network's in-switch reduction (SHARP)",
         *_TUNER_SRC, published="31 µs", note="hwLatencies[NET][CollNetDirect][Simple]."),
    Spec("nccl.tuner.step_latency.nvlink.collnet_chain.simple", 2.8 * us, "s",
         "Latency NCCL's tuner charges a CollNet Chain all-reduce per step of its chain inside a node",
         *_TUNER_SRC, published="2.8 µs", note="hwLatencies[NVLINK][CollNetChain][Simple]."),
    Spec("nccl.tuner.step_latency.net.collnet_chain.simple", 30.0 * us, "s",
         "Latency NCCL's tuner charges a CollNet Chain all-reduce for its trip through the network",
         *_TUNER_SRC, published="30 µs", note="hwLatencies[NET][CollNetChain][Simple]."),
    Spec("nccl.tuner.collnet_arity_latency", 0.4 * us, "s",
         "Serialization latency NCCL's tuner adds per GPU beyond the first in a node for CollNet Direct",
         *_TUNER_SRC, published="0.4 µs", note="'arity serialization latency' in ncclTopoTuneModel."),
)
register(
    # --- in-network reduction, published figures ----------------------------------------------
    Spec("nccl.h100_node.nvls_busbw.5_gpus", 420 * GBps, "bit/s",
         "All-reduce busbw with NVLS on 5 H100 of one node, as nccl-tests prints it (2(n-1)/n), user run",
         "nccl-issue-1455", "2024-09", "measured", "S", published="420 GB/s",
         note="Same run: 365-370 GB/s for 2-4 GPUs with NVLS or ring; 440/460/480 GB/s at 6/7/8 GPUs."),
    Spec("nccl.h100_node.nvls_busbw.6_gpus", 440 * GBps, "bit/s",
         "All-reduce busbw with NVLS on 6 H100 of one node, user run", "nccl-issue-1455", "2024-09",
         "measured", "S", published="440 GB/s"),
    Spec("nccl.h100_node.nvls_busbw.7_gpus", 460 * GBps, "bit/s",
         "All-reduce busbw with NVLS on 7 H100 of one node, user run", "nccl-issue-1455", "2024-09",
         "measured", "S", published="460 GB/s"),
    Spec("nccl.h100_node.nvls_algbw.5_gpus", 258 * GBps, "bit/s",
         "All-reduce algbw with NVLS on 5 H100 of one node, user run", "nccl-issue-1455", "2024-09",
         "measured", "S", published="258 GB/s", note="About 273 GB/s at 8 GPUs in the same run."),
    Spec("nccl.collnet.per_nic_rule_of_thumb", 20 * GBps, "bit/s",
         "The NCCL maintainer's rule of thumb for what one NIC gives a CollNet (SHARP) all-reduce "
         "(a thread about 8-NIC DGX A100 nodes)",
         "nccl-issue-320", "2023-01", "measured", "P", published="~20 GB/s per NIC",
         note="So 8 NICs could give 160 GB/s algbw, but NVLink, which still carries about twice the "
              "data inside the node, limits it to about 110 GB/s algbw (220 GB/s busbw)."),
    Spec("nccl.collnet.8_nic_algbw", 110 * GBps, "bit/s",
         "CollNet (SHARP) all-reduce algbw the NCCL maintainer expects with 8 NICs per node "
         "(a thread about DGX A100), limited by NVLink", "nccl-issue-320", "2023-01", "measured", "P", published="~110 GB/s algbw",
         note="'~220 GB/s BusBw'; with 4 NICs about 80 GB/s algbw."),
    Spec("nccl.collnet.sharp_streaming_aggregation_flows", 2, "1",
         "Streaming aggregation (SHARP) flows a switch allows at once, as NVIDIA's NCCL-SHARP plugin "
         "documentation states", "hpcx-nccl-sharp-plugin", "2025", "shipping", "P", published="max 2",
         note="The same page: CollNet is enabled with NCCL_COLLNET_ENABLE=1, and needs rail-aligned leaves."),
)
