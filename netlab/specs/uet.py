"""Ultra Ethernet transport (UET), IRN and retransmission timers (chapter 8).

Grades follow the fact sheet's section F: the UET mechanisms are read in the UEC
reference provider's *code* (primary, but not the normative specification
prose), NSCC and RCCC in blogs (secondary). The IRN figures are the paper's own
abstract. netlab's simulator settings are assumptions, stated so a reader can
change them.
"""

from netlab.specs import Spec, register
from netlab.units import KB, us

REF = "uet-ref-prov"
REF_NOTE = "Read in the UEC reference provider's code, not in the normative spec prose"

register(
    # --- UET wire format, as the reference provider encodes it -------------------------
    Spec("uet.sack_bitmap_bits", 64, "1",
         "Width of the selective-ACK bitmap in a UET ACK_CC header (beside a sack_psn_offset)",
         REF, "2025", "shipping", "P", published="64-bit sack_bitmap", note=REF_NOTE),
    Spec("uet.entropy_bits", 16, "1",
         "Width of the entropy field in the UET header over IP: the value switches hash to pick "
         "a path, so a sender can spray packets of one message over many paths",
         REF, "2025", "shipping", "P", published="16-bit entropy", note=REF_NOTE),
    Spec("uet.spec_1_0_year", 2025, "1",
         "Year UE Specification 1.0 was published (11 June 2025)",
         "uec-spec-aiwiki", "2025-06-11", "standard", "S", published="June 11, 2025",
         note="Date from secondary sources (aiwiki, a Hacker News thread linking the PDF)"),
    Spec("uec.founded_year", 2023, "1",
         "Year the Ultra Ethernet Consortium was announced by the Linux Foundation (19 July 2023)",
         "tomshardware-uec", "2023-07-19", "announced", "S", published="July 19, 2023",
         note="Founding members AMD, Arista, Broadcom, Cisco, Eviden, HPE, Intel, Meta, Microsoft"),

    # --- IRN (Mittal et al., SIGCOMM 2018), abstract figures ------------------------------
    Spec("irn.gain_over_roce_pfc_low", 0.06, "1",
         "IRN without PFC over RoCE with PFC, low end of the range for typical scenarios",
         "mittal-irn", "2018", "simulated", "P", published="6 %",
         note="Simulation results reported in the paper's abstract; the range is 6-83 %"),
    Spec("irn.gain_over_roce_pfc_high", 0.83, "1",
         "IRN without PFC over RoCE with PFC, high end of the range for typical scenarios",
         "mittal-irn", "2018", "simulated", "P", published="83 %"),
    Spec("irn.nic_overhead_low", 0.03, "1",
         "IRN's extra NIC resources, low end", "mittal-irn", "2018", "estimate", "P",
         published="3 %"),
    Spec("irn.nic_overhead_high", 0.10, "1",
         "IRN's extra NIC resources, high end", "mittal-irn", "2018", "estimate", "P",
         published="10 %"),

    # --- retransmission timers ---------------------------------------------------------------
    Spec("transport.roce.ack_timeout_unit", 4.096 * us, "s",
         "InfiniBand/RoCE local ACK timeout unit: the timeout is 4.096 µs x 2^timeout "
         "(a 5-bit QP attribute)",
         "linux-cma-ack-timeout", "2019", "standard", "P", published="4.096 * 2^(timeout) usec",
         note="Drivers pick the exponent: bnxt_re reports 16 (about 268 ms); mlx5 steering QPs use 8 (~1 ms)"),
    Spec("transport.roce.perftest_timeout_exponent", 14, "1",
         "Default local ACK timeout exponent of the perftest tools (ib_send_lat, ib_write_bw, ...): "
         "4.096 µs x 2^14 = 67.1 ms per attempt",
         "perftest-def-qp-time", "2026", "shipping", "P", published="DEF_QP_TIME (14)",
         note="src/perftest_parameters.h; also NCCL's default before 2.14 and netlab.rdma's QP default"),
    Spec("transport.roce.nccl_ib_timeout_exponent", 20, "1",
         "NCCL's default NCCL_IB_TIMEOUT, the local ACK timeout exponent it sets on its "
         "InfiniBand/RoCE QPs: 4.096 µs x 2^20 = 4.29 s per attempt, 7 retries, so 8 attempts (about 34 s) "
         "before an error",
         "nccl-env-ib-timeout", "2026", "shipping", "P",
         published="default 20 (since 2.23; 18 since 2.14, 14 before)"),
    Spec("transport.roce.default_ack_timeout", 4.096e-6 * 2 ** 14, "s",
         "Default RoCE/InfiniBand local ACK (retransmission) timeout used in netlab's "
         "simulations: perftest's default exponent 14, 4.096 µs x 2^14",
         "perftest-def-qp-time", "2026", "derived", "D", published="67.1 ms",
         note="4.096 µs x 2^14 = 67.1 ms (perftest DEF_QP_TIME; NCCL before 2.14). NCCL 2.23+ "
              "sets exponent 20, 4.29 s: with adaptive retransmission off, a lost tail then costs seconds, not "
              "milliseconds; adapters that run adaptive retransmission resend far sooner (chapter 4)."),
    Spec("transport.tcp.rto_min", 0.2, "s",
         "Linux minimum TCP retransmission timeout, TCP_RTO_MIN = HZ/5",
         "linux-tcp-h", "2019", "shipping", "P", published="HZ/5 (200 ms)"),

    # --- netlab's own settings for the chapter 8 simulations -----------------------------
    Spec("assume.connection_context_bytes", 512, "B",
         "NIC memory held per connection (a RoCE QP or a UET PDC), the same for both so that "
         "only the count differs",
         "netlab-assumptions", "2026", "assumption", "-", published="512 B",
         note="No published per-QP or per-PDC context size was found; change it freely"),
    Spec("assume.uet.window_bytes", 256 * KB, "B",
         "Initial and maximum send window of the chapter 8 transports: about one "
         "bandwidth-delay product of a 100 Gb/s leaf-spine with an RTT near 20 µs",
         "netlab-assumptions", "2026", "assumption", "-", published="256 KB"),
)
