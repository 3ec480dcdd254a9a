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
         note="RDMA NICs use timeouts of milliseconds or more; lower it to see faster recovery."),
    Spec("sim.assume.link_propagation", 25 * ns, "s",
         "Propagation delay of one simulated cable (about 5 m of fibre at 4.9 ns/m)",
         "netlab-assumptions", "2026", "assumption", "-", published="25 ns"),
)
