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
    # --- NCCL's own per-step latencies for the other protocols (tuning model) ---------------
    Spec("nccl.ring_ll128_step_latency.nvlink", 1.9 * us, "s",
         "Latency NCCL's tuning model adds per ring step over NVLink (LL128 protocol)",
         "nccl-tuning-cc", "2020", "shipping", "P", published="1.9 µs",
         note="hwLat[NVLINK][RING][LL128] in src/graph/tuning.cc (NCCL ~2.7)."),
    Spec("nccl.ring_simple_step_latency.nvlink", 3.4 * us, "s",
         "Latency NCCL's tuning model adds per ring step over NVLink (Simple protocol)",
         "nccl-tuning-cc", "2020", "shipping", "P", published="3.4 µs"),
    Spec("nccl.ring_simple_step_latency.net", 9.6 * us, "s",
         "Latency NCCL's tuning model adds per ring step across the network (Simple protocol)",
         "nccl-tuning-cc", "2020", "shipping", "P", published="9.6 µs"),
)
