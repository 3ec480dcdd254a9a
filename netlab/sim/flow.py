"""A flow: who sends how many bytes to whom, when, at which priority.

:meth:`netlab.sim.network.Network.add_flow` makes one per flow and checks its fields;
the transports read them for every packet (addresses, size, priority, the ECMP
entropy), and after a run ``flow.sender`` and ``flow.receiver`` hold the transport
objects. Results come back as :class:`~netlab.sim.results.FlowResult`.
"""

from __future__ import annotations

from collections.abc import Callable


class Flow:
    """One flow's identity and parameters (results come back as FlowResult)."""

    def __init__(self, flow_id, src, dst, size_bytes, start_s, priority, ack_priority, entropy):
        self.flow_id, self.src, self.dst = flow_id, src, dst
        self.src_id, self.dst_id = src.id, dst.id         # fast path: read for every packet
        self.size_bytes, self.start_s = size_bytes, start_s
        self.priority, self.ack_priority, self.entropy = priority, ack_priority, entropy
        self.sender = None
        self.receiver = None
        # set by Network.add_flow (declared here for the type checker; no value until then)
        self.sender_cls: type
        self.receiver_cls: type
        self.cc_factory: Callable[[], object] | None

    def __repr__(self) -> str:
        return f"Flow({self.flow_id} {self.src.name}->{self.dst.name}, {self.size_bytes} B at {self.start_s} s)"
