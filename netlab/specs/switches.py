"""Switch and simulator figures: forwarding latencies (weakly sourced) and the
packet simulator's modelling assumptions.

Published port-to-port switch latencies are the weakest figures in this field:
no primary NVIDIA document giving InfiniBand or Spectrum latency was found, and
secondary sources conflict (fact sheet B.2, B.5, J1). The entries below say so in
their status and grade; chapter 4 shows them as a range, not a fact.
"""

from netlab.specs import Spec, register
from netlab.units import KB, ns, us, ms

register(
    # --- simulator defaults (netlab assumptions) -----------------------------------
    Spec("sim.assume.mtu", 4096, "B",
         "Payload bytes per packet in the simulator (the largest InfiniBand/RoCE MTU)",
         "netlab-assumptions", "2026", "assumption", "-", published="4096 B"),
    Spec("sim.assume.header", 64, "B",
         "Header bytes per simulated packet on the wire (Ethernet+IP+UDP+BTH+ICRC+FCS "
         "is about 62 B for RoCEv2; rounded)",
         "netlab-assumptions", "2026", "assumption", "-", published="64 B"),
    Spec("sim.assume.ack", 64, "B",
         "Wire size of a simulated ACK, NACK or CNP",
         "netlab-assumptions", "2026", "assumption", "-", published="64 B"),
    Spec("sim.assume.buffer_per_port", 500 * KB, "B",
         "Switch buffer per port in the simulator's default lossy mode",
         "netlab-assumptions", "2026", "assumption", "-", published="500 KB",
         note="Shared-buffer switch ASICs hold tens of MB for all ports; per-port shares "
              "under load are a fraction of a MB."),
    Spec("sim.assume.rto", 1 * ms, "s",
         "Retransmission timeout of the simulated go-back-N transport",
         "netlab-assumptions", "2026", "assumption", "-", published="1 ms",
         note="A RoCE QP's configured timeout is milliseconds (67.1 ms at perftest's exponent 14); adapters "
              "with adaptive retransmission may resend after as little as 4 us (chapter 4). Lower it to "
              "see faster recovery."),
    Spec("sim.assume.link_propagation", 25 * ns, "s",
         "Propagation delay of one simulated cable (about 5 m of fibre at 4.9 ns/m)",
         "netlab-assumptions", "2026", "assumption", "-", published="25 ns"),
)

register(
    # --- switch port-to-port latency: weakly sourced, shown as a range ----------------
    Spec("switch.eth.spectrum2.latency", 300 * ns, "s",
         "Port-to-port latency of the NVIDIA/Mellanox Spectrum-2 Ethernet switch chip (6.4 Tb/s)",
         "linley-spectrum2", "2017-07", "vendor claim", "S", published="300 ns",
         note="Analyst newsletter quoting the vendor; no primary Spectrum-3/4 figure found."),
    Spec("switch.eth.tomahawk_ultra.latency", 250 * ns, "s",
         "Port-to-port latency of Broadcom Tomahawk Ultra (51.2 Tb/s, low-latency Ethernet)",
         "briefly-tomahawk-ultra", "2025-07", "announced", "S", published="250 ns",
         note="Press summary of Broadcom's announcement."),
    Spec("switch.eth.nexus93180.latency", 1 * us, "s",
         "Upper bound on the latency of a Cisco Nexus 93180YC-FX datacenter switch",
         "cisco-nexus-93180-datasheet", "2018", "shipping", "S", published="< 1 µs",
         note="Datasheet wording quoted in a third-party repository."),
    Spec("switch.ib.quantum_hdr.latency", 130 * ns, "s",
         "Port-to-port latency of the HDR InfiniBand QM8790 switch ('sub-130ns')",
         "factsheet-unconfirmed", "2019", "unconfirmed", "U", published="< 130 ns (unconfirmed)",
         note="Quoted from the product brief in a third-party script; the NVIDIA manual only says "
              "'Latency updated' without a value."),
    Spec("switch.ib.quantum_x800.latency", 100 * ns, "s",
         "Port-to-port latency of the XDR Quantum-X800 InfiniBand switch ('<100 ns')",
         "factsheet-unconfirmed", "2024", "unconfirmed", "U", published="< 100 ns (unconfirmed)",
         note="Only seen in a third-party script; no NVIDIA document found."),
    Spec("switch.ib.quantum2.latency_low", 150 * ns, "s",
         "Port-to-port latency of the NDR Quantum-2 (QM9700) switch, lower of conflicting claims",
         "routerswitch-quantum2", "2024", "estimate", "S", published="< 150 ns",
         note="Reseller FAQ; conflicts with ~330 ns and < 400 ns elsewhere."),
    Spec("switch.ib.quantum2.latency_high", 330 * ns, "s",
         "Port-to-port latency of the NDR Quantum-2 switch, higher of conflicting claims",
         "yobitel-quantum2", "2024", "estimate", "S", published="~330 ns",
         note="Third-party knowledge base; conflicts with < 150 ns elsewhere."),
    # --- adapters -------------------------------------------------------------------
    Spec("nic.connectx6.latency", 600 * ns, "s",
         "Latency of a ConnectX-6 adapter ('sub-600ns'), as stated in NVIDIA's manual",
         "nvidia-connectx6-en-manual", "2020", "shipping", "P", published="< 600 ns",
         note="What is measured (one adapter, or a back-to-back pair) is not stated."),
    Spec("nic.connectx6_en.latency", 800 * ns, "s",
         "Latency of a ConnectX-6 EN (Ethernet) adapter ('sub 0.8 µsec'), product brief",
         "mellanox-connectx6-en-brief", "2019", "shipping", "P", published="< 0.8 µs"),
    # --- economics (seed claims C6, C7) ------------------------------------------------
    Spec("ibeth.claim.ib_cost_share", 0.20, "1",
         "Seed claim C6: InfiniBand is about 20 % of a cluster's cost",
         "factsheet-unconfirmed", "2024", "unconfirmed", "U", published="~20 % (unconfirmed)",
         note="Attributed to NVIDIA's CEO; no such statement was found."),
    Spec("ibeth.claim.ib_speedup", 1.20, "1",
         "Seed claim C6: InfiniBand raises training performance by about 20 %",
         "factsheet-unconfirmed", "2024", "unconfirmed", "U", published="+20 % (unconfirmed)"),
    Spec("ibeth.claim.eth_cost_share", 0.10, "1",
         "Seed claim C7: an Ethernet network adds about 10 % or less to a cluster's cost",
         "factsheet-unconfirmed", "2024", "unconfirmed", "U", published="~10 % (unconfirmed)"),
    Spec("ibeth.nvidia.efficiency_gain", 0.10, "1",
         "Efficiency gain NVIDIA's CEO attributed to InfiniBand and in-network computing on a "
         "$20 billion infrastructure ('improved by 10 %')",
         "nvidia-q3fy2023-call", "2022-11", "vendor claim", "S", published="10 %"),
)
