"""Packets: what moves through the simulated network.

A packet carries the fields a switch looks at (source, destination, the flow's
``entropy`` -- the UDP source port RoCEv2 puts in every packet, which ECMP hashes
-- priority, the ECN bits) and the fields a transport needs (flow id, sequence
number, byte offset and payload length). ``size_bytes`` is the size on the wire,
header included; serialization takes ``size_bytes * 8 / bandwidth_bps``.

Packets are mutable on purpose: a switch sets ``ecn`` (congestion experienced) or
trims the payload, as real switches rewrite headers. Kinds:

``DATA``  payload of a flow;  ``ACK``  cumulative acknowledgement (``seq`` = next
expected);  ``NACK``  go-back-N request (``seq`` = first missing);  ``CNP``  DCQCN
congestion notification;  ``SACK``  for selective-repeat transports (``info`` holds
what the transport needs).
"""

from __future__ import annotations

try:
    import cython  # type: ignore[import-untyped]
except ImportError:          # without Cython the two class decorators below change nothing
    from types import SimpleNamespace
    cython = SimpleNamespace(cclass=lambda cls: cls, no_gc=lambda cls: cls)

DATA, ACK, NACK, CNP, SACK = "data", "ack", "nack", "cnp", "sack"
CONTROL_KINDS = (ACK, NACK, CNP, SACK)


# fast path: in the compiled build a packet is not tracked by the cyclic garbage collector (no_gc;
# Cython honours it only here, not in packet.pxd). It holds no reference that could lead back to it
# (``info`` is a number or a tuple of numbers), so it can be in no cycle; an event's arguments that
# hold only packets and numbers are then not tracked either (eventheap.pyx).
@cython.no_gc
@cython.cclass
class Packet:
    """One packet on the wire (see the module docstring for the fields)."""

    # fast path: no per-object dictionary (a smaller object, faster attribute reads)
    __slots__ = ("kind", "flow_id", "src", "dst", "seq", "offset_bytes", "payload_bytes",
                 "size_bytes", "priority", "entropy", "ecn", "trimmed", "sent_s",
                 "tail_s", "in_port", "held_bytes", "hops", "info", "ack_request")

    def __init__(self, kind: str, flow_id: int, src: int, dst: int, size_bytes: int,
                 seq: int = 0, offset_bytes: int = 0, payload_bytes: int = 0,
                 priority: int = 0, entropy: int = 0, info: object = None) -> None:
        if not isinstance(size_bytes, int):     # fast path: the compiled build keeps it in a C integer
            raise ValueError(f"size_bytes must be a whole number of bytes (an int), got {size_bytes!r}")
        self.kind = kind
        self.flow_id = flow_id
        self.src = src                  # host id (int) of the sender
        self.dst = dst                  # host id (int) of the receiver
        self.seq = seq
        self.offset_bytes = offset_bytes
        self.payload_bytes = payload_bytes
        self.size_bytes = size_bytes
        self.priority = priority        # PFC priority / traffic class, 0..7
        self.entropy = entropy          # hashed by ECMP; a sprayer may vary it per packet
        self.ecn = False                # congestion experienced (set by a queue)
        self.trimmed = False            # payload cut off by a trimming switch
        self.sent_s = 0.0               # when the source NIC started sending it
        self.tail_s = 0.0               # when its last bit reaches the current node
        self.in_port = -1               # ingress port at the current switch
        self.held_bytes = 0             # bytes charged to that ingress port's buffer
        self.hops = 0                   # links crossed so far
        self.info = info                # free slot for transports (e.g. SACK blocks)
        self.ack_request = False        # the sender asks for an ACK at once (coalescing receivers)

    @property
    def is_data(self) -> bool:
        return self.kind == DATA

    def trim(self, header_bytes: int) -> None:
        """Cut the payload off, keeping a ``header_bytes`` packet (packet trimming)."""
        if not isinstance(header_bytes, int):
            raise ValueError(f"header_bytes must be a whole number of bytes (an int), got {header_bytes!r}")
        self.trimmed = True
        self.size_bytes = min(self.size_bytes, header_bytes)

    def __repr__(self) -> str:
        flags = ("E" if self.ecn else "") + ("T" if self.trimmed else "")
        return (f"Packet({self.kind} flow {self.flow_id} seq {self.seq} "
                f"{self.src}->{self.dst} {self.size_bytes} B prio {self.priority}{' ' + flags if flags else ''})")
