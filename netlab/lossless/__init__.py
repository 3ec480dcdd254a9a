"""Chapter 4, InfiniBand vs Ethernet: lossless by credits, by pause frames (PFC), or lossy.

* :mod:`~netlab.lossless.ib_vs_ethernet`: the switch-latency figures and the cost shares,
  as latency of a small message and as performance per dollar;
* :mod:`~netlab.lossless.dcqcn`: DCQCN's fluid model, beside the simulator's packets;
* :mod:`~netlab.lossless.roce`: RoCE as configured: the lossless priority, its PFC headroom as a
  delay budget beside NVIDIA's published formula, the shipped ECN and CNP settings;
* :mod:`~netlab.lossless.counters`: perftest reports and NIC counters parsed, and a fault named
  from the counters of both ends of a flow;
* :mod:`~netlab.lossless.experiments`: the chapter's ready-made simulator runs (flow control
  under incast, a victim flow, deadlock, a pause storm, DCQCN sharing);
* :mod:`~netlab.lossless.figures`: lab 4's figures.

Credits, PFC and drop themselves are policies of the packet simulator
(:class:`netlab.sim.Credits <netlab.sim.switch.Credits>`, :class:`netlab.sim.PFC <netlab.sim.switch.PFC>`,
:class:`netlab.sim.Lossy <netlab.sim.switch.Lossy>`).
"""
