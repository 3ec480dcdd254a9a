"""The byte accounting of a network: what the data path counts as packets move.

Hosts, switches and ports add to these counters as data packets are sent, cross a
wire, wait in a switch's pipeline, are dropped, trimmed or received; control packets
(ACKs, NACKs, credits) are not counted. :class:`~netlab.sim.network.Network` is a
:class:`Ledger`, and at any stop of a run (the tests check it)::

    sent_bytes = received_bytes + dropped data bytes + trimmed_bytes + in_flight_bytes

where the bytes in flight are those in queues, on wires (``wire_bytes``) and in switch
pipelines (``pipeline_bytes``). (A class of its own so that the compiled build, see
:mod:`netlab.sim.compiled`, can give the counters C fields without an import circle.)
"""

from __future__ import annotations


class Ledger:
    """Counters of data bytes (wire size, resends included) and of drops and PFC frames."""

    def __init__(self) -> None:
        self.sent_bytes = 0           # put on the wire by a host NIC
        self.received_bytes = 0       # arrived at a host
        self.dropped_bytes = 0        # data bytes dropped (a full queue, PFC headroom overflow)
        self.trimmed_bytes = 0        # payload cut off by trimming switches
        self.wire_bytes = 0           # on a wire now
        self.pipeline_bytes = 0       # in a switch's forwarding pipeline now (switch latency)
        self.dropped_packets = 0      # every packet dropped, data or control
        self.pfc_frames = 0           # PAUSE and RESUME frames sent
