"""RDMA and the host network stack: measured latencies and the host-path cost model.

Published figures (perftest latencies, the eRPC and Cai et al. results) sit next
to netlab's own assumptions for the cost of each step of a message's path through
a host: a system call, a copy, an interrupt, a doorbell, a DMA. Few of these steps
have a citable number on current hardware, so they are assumptions (grade ``-``):
round numbers, each with the published range or reasoning behind it, which the
chapter 3 lab lets a reader change. Figures the fact sheet could not confirm are
registered with status ``unconfirmed`` so that tables show them with that label.
"""

from netlab.specs import Spec, register
from netlab.units import GBps, Gbps, KiB, us

_A = ("netlab-assumptions", "2026", "assumption", "-")

register(
    # --- published measurements and statements --------------------------------------------
    Spec("rdma.measured.ib_send_lat_rc_32b", 0.82 * us, "s",
         "ib_send_lat (perftest), RC transport, 32-byte messages: one-way latency "
         "(perftest halves the measured round trip)",
         "potter-thesis-mtu", "2019", "measured", "S", published="0.81-0.83 µs",
         note="Range over MTU 256-4096; the HCA model is not in the table."),
    Spec("rdma.measured.ib_send_lat_rc_4kb", 2.265 * us, "s",
         "ib_send_lat (perftest), RC transport, 4 KB messages: one-way latency",
         "potter-thesis-mtu", "2019", "measured", "S", published="2.25-2.28 µs"),
    Spec("transport.roce.adaptive_retx_min_base_timeout", 4 * us, "s",
         "NVIDIA ConnectX adaptive retransmission: the minimum base timeout the firmware allows "
         "(adp_retx_base_timeout_min in the ROCE_ACCL register); the first retransmission timeout "
         "is drawn per QP from a profile built on a base of at least this",
         "nvidia-adaptive-retx", "2025", "shipping", "P", published="0xFA0 ns (4 µs)",
         note="The default profile's values are not published; NVIDIA notes the design may delay the "
              "effective timeout up to 4x, so 4-16 µs is the first timeout at the floor. The QP's "
              "configured local ACK timeout (4.096 µs x 2^timeout) is what a requester waits with it off."),
    Spec("nic.mlx5.pfc_xoff_fixed", 301, "B/(Gb/s)",
         "Linux mlx5e driver's PFC headroom (xoff) formula: fixed term, bytes per Gb/s of port speed "
         "(about 2.4 µs of reaction and processing delay)",
         "linux-mlx5e-port-buffer", "2024", "shipping", "P",
         published="xoff = (301 + 2.16 x len[m]) x speed[Gb/s] + 2.72 x MTU[B]"),
    Spec("nic.mlx5.pfc_xoff_per_metre", 2.16, "B/(m·Gb/s)",
         "Linux mlx5e driver's PFC headroom formula: bytes per metre of cable per Gb/s",
         "linux-mlx5e-port-buffer", "2024", "shipping", "P", published="2.16 x len [m] x speed [Gb/s]"),
    Spec("nic.mlx5.pfc_xoff_mtu_factor", 2.72, "1",
         "Linux mlx5e driver's PFC headroom formula: multiple of the MTU",
         "linux-mlx5e-port-buffer", "2024", "shipping", "P", published="2.72 x MTU [B]"),
    Spec("rdma.measured.ib_write_lat_cx7_b2b", 1.47 * us, "s",
         "ib_write_lat (perftest), 2-byte writes, two DGX Spark hosts with ConnectX-7 RoCE cabled "
         "back to back: typical (median) one-way latency, a user's measurement log",
         "spark-ib-write-lat", "2025", "measured", "S", published="t_typical 1.47 µs (min 1.42)",
         note="The fact sheet (J3) holds three more user logs: ConnectX-6 HDR on A100 nodes 1.87 µs, "
              "ConnectX-3 40GbE RoCE 0.85 µs, mlx4 InfiniBand 0.89 µs."),
    Spec("rdma.unconfirmed.ib_write_lat_modern", 1.0 * us, "s",
         "The popular 'ib_write_lat is about 1 µs on modern hardware' as a vendor or published "
         "figure: none was found; user logs range 0.85-1.87 µs (rdma.measured.ib_write_lat_cx7_b2b)",
         "factsheet-unconfirmed", "2026", "unconfirmed", "U", published="~1 µs (unconfirmed)"),
    Spec("host.unconfirmed.tcp_latency_modern", 10 * us, "s",
         "Kernel-TCP small-message one-way latency on 100-400 Gb/s NICs: no measured "
         "number found; a vendor design document estimates 10-30 µs",
         "factsheet-unconfirmed", "2026", "unconfirmed", "U", published="10-30 µs (estimate; unconfirmed)"),
    Spec("gpudirect.unconfirmed.latency_gain", 0.30, "1",
         "The seed claim (E5) that GPUDirect RDMA cuts latency by a further ~30 %: the 30 % "
         "found in a source belongs to GPUDirect 1.0 (shared pinned host memory); no numeric "
         "GPUDirect RDMA gain was found in a primary source",
         "mellanox-gpudirect-page", "2013", "unconfirmed", "U", published="30 % (GPUDirect 1.0)"),
    Spec("host.measured.tcp_rtt_1gbe_2012", 84.7 * us, "s",
         "Kernel-TCP round-trip time of a 10-byte RPC on 1 GbE, no interrupt coalescing "
         "(older hardware)",
         "ramcloud-rpc-numbers", "2012", "measured", "S", published="84.7 µs RTT"),
    Spec("host.measured.tcp_core_rate_low", 40 * Gbps, "bit/s",
         "A single core could saturate 40 Gb/s of kernel TCP, but not 100 Gb/s "
         "(lower bound of one core's TCP throughput, one direction)",
         "cai-host-stack-2021", "2021", "measured", "P", published="40 Gb/s yes, 100 Gb/s no"),
    Spec("host.measured.tcp_core_rate_high", 100 * Gbps, "bit/s",
         "The rate one core could not reach with kernel TCP (upper bound, one direction)",
         "cai-host-stack-2021", "2021", "measured", "P", published="100 Gb/s"),

    # --- assumptions: kernel TCP path -------------------------------------------------------
    Spec("host.assume.syscall", 0.5 * us, "s",
         "One send() or recv() system call: entry, socket layer and exit, without the copy",
         *_A, published="0.5 µs",
         note="Bare system calls cost 0.05-0.3 µs with mitigations; the socket layer adds more."),
    Spec("host.assume.tcp_tx_stack", 1.5 * us, "s",
         "TCP/IP transmit processing per message on the sending core (headers, queueing "
         "discipline, driver)", *_A, published="1.5 µs"),
    Spec("host.assume.tcp_rx_stack", 2.0 * us, "s",
         "Interrupt, NAPI poll and TCP/IP receive processing per message on the receiving core",
         *_A, published="2 µs", note="Interrupt coalescing, when on, adds tens of µs."),
    Spec("host.assume.wakeup", 3.0 * us, "s",
         "Waking the application thread blocked in recv() (scheduler, context switch)",
         *_A, published="3 µs", note="Busy-polling sockets avoid most of it."),
    Spec("host.assume.tcp_per_segment", 1.0 * us, "s",
         "Protocol work per TSO/GRO segment of a large transfer, on each side",
         *_A, published="1 µs per segment"),
    Spec("host.assume.tcp_segment_bytes", 64 * KiB, "B",
         "Bytes per TSO/GRO segment: the unit the kernel stack handles at once",
         *_A, published="64 KiB"),
    Spec("host.assume.memcpy_rate", 10 * GBps, "bit/s",
         "Rate of one core copying between kernel and user buffers (cache-cold, one direction)",
         *_A, published="10 GB/s",
         note="Cai et al. find the receive-side copy the bottleneck at 100 Gb/s."),

    # --- assumptions: RDMA NIC path ---------------------------------------------------------
    Spec("rdma.assume.post", 0.1 * us, "s",
         "CPU time to build a work request and ring the NIC's doorbell (an MMIO write)",
         *_A, published="0.1 µs"),
    Spec("rdma.assume.poll", 0.05 * us, "s",
         "CPU time to poll a completion from the completion queue", *_A, published="0.05 µs"),
    Spec("rdma.assume.nic_tx", 0.25 * us, "s",
         "Sending NIC: fetch the work request and the first bytes over PCIe, build the packet",
         *_A, published="0.25 µs", note="Roughly one PCIe read round trip plus processing."),
    Spec("rdma.assume.nic_rx", 0.2 * us, "s",
         "Receiving NIC: check keys, DMA the payload into memory, write the completion",
         *_A, published="0.2 µs"),
    Spec("rdma.assume.rnr_timer", 10 * us, "s",
         "RNR NAK timer: how long a sender waits before retrying a SEND that found no "
         "posted receive", *_A, published="10 µs",
         note="Set per QP (min_rnr_timer); the encoded values span 0.01-655 ms."),
    Spec("rdma.assume.reg_base", 5 * us, "s",
         "Fixed cost of one memory registration (system call, NIC translation-table update)",
         *_A, published="5 µs",
         note="The verbs documentation only says registration 'takes some time'."),
    Spec("rdma.assume.reg_per_page", 0.2 * us, "s",
         "Registration cost per 4 KiB page: pinning it and writing its translation to the NIC",
         *_A, published="0.2 µs per page"),
    Spec("rdma.assume.page_bytes", 4 * KiB, "B", "Page size used by registration", *_A,
         published="4 KiB", note="Huge pages (2 MiB) cut the per-page term 512-fold."),

    # --- assumptions: GPU memory ------------------------------------------------------------
    Spec("gpu.assume.memcpy_overhead", 5.0 * us, "s",
         "Fixed cost of one cudaMemcpy between GPU and pinned host memory (launch and "
         "synchronisation), which staging pays on each side", *_A, published="5 µs",
         note="GDRCopy exists to avoid it for small messages."),
)


register(
    # --- DCQCN ECN marking at the switch (Zhu et al. 2015), as other papers quote it ----------
    Spec("dcqcn.paper.kmin", 5e3, "B",
         "DCQCN's recommended ECN marking threshold K_min at 40 Gb/s: below it the switch marks "
         "nothing", "huang-swcc", "2025", "simulated", "S", published="Kmin = 5KB",
         note="Zhu et al. (SIGCOMM 2015) chose its parameters with its fluid model; the paper body was "
              "not retrieved, so the value is taken from a 2025 USENIX ATC paper that uses 'the default "
              "parameter setting' of DCQCN. Other repositories quote the same 5 KB / 200 KB / 1 %."),
    Spec("dcqcn.paper.kmax", 200e3, "B",
         "DCQCN's recommended K_max at 40 Gb/s: the marking probability reaches P_max there and "
         "jumps to 100 % above it", "huang-swcc", "2025", "simulated", "S", published="Kmax = 200KB"),
    Spec("dcqcn.paper.pmax", 0.01, "1",
         "DCQCN's recommended largest marking probability below K_max",
         "huang-swcc", "2025", "simulated", "S", published="Pmax = 1%"),
)



register(
    # --- queue sizes on mlx5 (rdma-core's provider), NCCL's queue requests, UD ----------------------
    Spec("rdma.mlx5.send_wqe_basic_block", 64, "B",
         "mlx5 send work-queue entries are built of 64-byte basic blocks (MLX5_SEND_WQE_BB); a send "
         "queue is a power-of-two number of bytes", "rdma-core-mlx5-qp", "2026", "shipping", "P",
         published="MLX5_SEND_WQE_BB = 64"),
    Spec("rdma.mlx5.data_segment", 16, "B",
         "mlx5 scatter/gather data segment (byte count, lkey, address): one per SGE of a send or "
         "receive WQE", "rdma-core-mlx5-qp", "2026", "shipping", "P",
         published="struct mlx5_wqe_data_seg: 4 + 4 + 8 bytes"),
    Spec("rdma.mlx5.rc_wqe_overhead", 192, "B",
         "Control segments the mlx5 provider reserves in every send WQE of an RC QP with the default "
         "opcodes, which include memory-window binds and local invalidation: the largest of them",
         "rdma-core-mlx5-qp", "2026", "derived", "D",
         published="16 (ctrl) + 48 (UMR ctrl) + 64 (mkey context) + 64 = 192 B",
         note="Derived from _sq_overhead() and the segment structs in rdma-core at commit 691953d "
              "(2026-08); an RC QP created with send_ops_flags limited to SEND/WRITE/READ/atomics needs "
              "only 48 B. With one SGE a WQE is 208 B, rounded to 256 B; the spare 60 B is inline room."),
    Spec("rdma.mlx5.ud_wqe_overhead", 64, "B",
         "Control segments of a UD send WQE on mlx5: the control segment and the 48-byte datagram "
         "segment (address vector)", "rdma-core-mlx5-qp", "2026", "derived", "D",
         published="16 (ctrl) + 48 (struct mlx5_wqe_av) = 64 B"),
    Spec("nccl.ib.max_send_wr", 512, "1",
         "Send-queue depth NCCL's InfiniBand/RoCE transport asks for each QP of a connection "
         "(2 x NCCL_NET_MAX_REQUESTS 32 x NCCL_NET_IB_MAX_RECVS 8)", "nccl-net-ib-connect", "2026",
         "shipping", "P", published="maxSendWorkRequest = 2 * NET_IB_MAX_REQUESTS"),
    Spec("nccl.ib.max_recv_wr", 256, "1",
         "Receive-queue depth NCCL asks for on the receiving end's QPs (the sending end's QPs ask "
         "for none)", "nccl-net-ib-connect", "2026", "shipping", "P",
         published="maxRecvWorkRequest = NET_IB_MAX_REQUESTS"),
    Spec("rdma.derived.nccl_qp_host_bytes", 133_120, "B",
         "Host memory of one NCCL QP's work queues on mlx5, averaged over a connection's two ends: "
         "a 512-deep send queue of 256-byte WQEs (128 KiB) on both, and a 256-deep receive queue "
         "of 16-byte entries (4 KiB) on the receiving end", "rdma-core-mlx5-qp", "2026", "derived", "D",
         published="(128 KiB + 132 KiB) / 2 = 130 KiB",
         note="netlab.rdma.scaling.nccl_qp_bytes(); excludes the adapter's own QP context, doorbell "
              "records and NCCL's FIFOs. Sources: rdma-core's mlx5 sizing and NCCL's requested caps."),
    Spec("rdma.ud.grh_bytes", 40, "B",
         "Bytes of the global routing header a UD receive buffer holds in front of the data, "
         "present or not", "ibv-post-recv-man", "2024", "standard", "P", published="40 bytes"),
    Spec("rdma.mlx5.mkey_variant_bits", 8, "bit",
         "Bits of an mlx5 memory key taken by the variant counter (the low byte); the upper 24 bits "
         "are the key-table index", "linux-mlx5-mr", "2024", "shipping", "P",
         published="key = index << 8 | variant"),
    Spec("rdma.assume.dc_initiators", 8, "1",
         "DC initiator QPs one process keeps in its pool (an assumption for the scaling model; "
         "libraries set their own)", *_A, published="8"),
)

register(
    Spec("rdma.roce.mtu_header_allowance", 96, "B",
         "Bytes Linux takes off a RoCE interface's Ethernet MTU before choosing the port's active "
         "(InfiniBand) MTU: GRH 40 + UDP 8 + BTH 12 + XRC 4 + atomic extension 28 + ICRC 4",
         "linux-ib-addr-mtu", "2024", "shipping", "P",
         published="iboe_get_mtu(): mtu - (IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES "
                   "+ IB_EXT_ATOMICETH_BYTES + IB_ICRC_BYTES)"),
)
