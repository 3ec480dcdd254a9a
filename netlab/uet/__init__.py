"""Chapter 8, Ultra Ethernet transport: what RoCE inherits, and what UET changes.

* :mod:`~netlab.uet.loss_recovery`: what a lost packet costs go-back-N and selective repeat
  (closed forms);
* :mod:`~netlab.uet.connections`: connection state per NIC, RoCE queue pairs vs UET's
  ephemeral PDCs;
* :mod:`~netlab.uet.experiments`: the chapter's simulator runs (goodput under loss, incast,
  spraying), RoCE-like against UET-like;
* :mod:`~netlab.uet.figures`: lab 8's figures and readouts.

The UET-like transport, its congestion control and packet trimming are policies of the
packet simulator: :mod:`netlab.sim.uet`, :mod:`netlab.sim.uet_cc`, :mod:`netlab.sim.trimming`.
"""
