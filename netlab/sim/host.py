"""Hosts and their NICs.

A host has one NIC port. When the wire is free the NIC sends, in this order, a
waiting control packet (ACK, NACK, CNP), then a data packet from the flows it
sends, taken round-robin among those that are ready: a transport is ready when
its window and its rate limiter (congestion control) allow a packet and the
port has credit and is not paused for the flow's priority. If no flow is ready
now but one will be at a known time (pacing), the NIC wakes itself then.

Arriving data goes to the flow's receiver; arriving control packets to its sender.
A host consumes everything at line rate: it never pauses its switch.
"""

from __future__ import annotations

from collections import deque
import math
from typing import Any

from netlab.sim.packet import DATA
from netlab.sim.port import Port


class Host:
    """An end host with one NIC port, its senders and receivers."""

    cut_through = False
    header_bytes = 0

    def __init__(self, network, name: str, host_id: int) -> None:
        self.network = network
        self.sim = network.sim
        self.name = name
        self.id = host_id
        self.ports: list[Port] = []
        self.nic: Port | None = None      # fast path: ports[0], once connected, without the property's check
        self.senders: list = []           # active senders, round-robin order
        self.senders_by_flow: dict[int, Any] = {}    # flow id -> its Sender (transport.py)
        self.receivers: dict[int, Any] = {}          # flow id -> its Receiver
        self.control: deque = deque()
        self._rr = 0
        self._wake_s = math.inf

    @property
    def port(self) -> Port:
        if not self.ports:
            raise ValueError(f"host {self.name} is not connected to the topology")
        return self.ports[0]

    def add_port(self, bandwidth_bps: float, propagation_s: float) -> Port:
        if self.ports:
            raise ValueError(f"host {self.name} already has a NIC port; hosts are single-homed")
        port = Port(self.sim, self, 0, bandwidth_bps, propagation_s)
        port.lazy_host = None if self.network.event_by_event else self    # fast path: lazy ends (Port.transmit)
        self.ports.append(port)
        self.nic = port
        return port

    def send_control(self, packet) -> None:
        """Queue an ACK/NACK/CNP (served before data) and start the NIC."""
        self.control.append(packet)
        self.nic.kick()

    def kick(self) -> None:
        """A sender may have become ready: start the NIC if it is idle."""
        self.nic.kick()

    def idle_after_send(self) -> bool:
        """Called as the NIC starts a packet: True if, unless something kicks the NIC
        first, the end of that transmission will find nothing to send (no control
        packet, no sender or one whose window is closed). Hosts with several senders
        answer False (checking them all would cost more than the event saved), and so
        do senders of classes that do not declare ``LAZY_NIC = True`` in their own body:
        the promise that their readiness changes only in methods that kick the host
        (or call ``notify``), which a subclass may break."""
        # fast path: the whole method; only a lazy end asks it (never in the reading mode)
        if self.control:
            return False
        senders = self.senders
        if not senders:
            return True
        if len(senders) > 1:
            return False
        sender = senders[0]
        if not sender.lazy_nic:             # (its class's LAZY_NIC, read once: see Sender)
            return False
        return sender.done or not sender.has_packet()

    def _wake(self) -> None:
        self._wake_s = math.inf
        self.kick()

    def next_packet(self, port: Port):
        if self.control:
            packet = self.control[0]
            if not port.paused[packet.priority] and (
                    port.credits_bytes is None or port.credits_bytes >= packet.size_bytes):
                return self.control.popleft()
        senders = self.senders
        n = len(senders)
        if n == 0:
            return None
        now = self.sim.now_s
        soonest = math.inf
        for i in range(n):
            sender = senders[(self._rr + i) % n]
            if port.paused[sender.priority]:
                continue
            ready_s = sender.ready_at(now)
            if ready_s <= now:
                if port.credits_bytes is not None and port.credits_bytes < sender.next_size_bytes():
                    continue
                self._rr = (self._rr + i + 1) % n
                packet = sender.next_packet()
                packet.sent_s = now
                self.network.sent_bytes += packet.size_bytes
                self.network.wire_bytes += packet.size_bytes
                return packet
            if ready_s < soonest:
                soonest = ready_s
        if soonest < self._wake_s:
            self._wake_s = soonest
            self.sim.at(soonest, self._wake)
        return None

    def receive(self, packet, in_port: int) -> None:
        if packet.kind == DATA:
            self.network.wire_bytes -= packet.size_bytes
            self.network.received_bytes += packet.size_bytes
            receiver = self.receivers.get(packet.flow_id)
            if receiver is not None:
                receiver.on_packet(packet)
        else:
            sender = self.senders_by_flow.get(packet.flow_id)
            if sender is not None:
                sender.on_control(packet)

    def retire(self, sender) -> None:
        """Remove a finished sender from the round-robin."""
        if sender in self.senders:
            self.senders.remove(sender)
            self._rr = 0

    def __repr__(self) -> str:
        return f"Host({self.name}, id {self.id})"
