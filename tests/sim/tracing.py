"""Record every packet arrival of a network, in either build of the simulator.

A port hands a packet to the node at its far end through ``port._deliver`` (bound to
that node's ``receive``, see :meth:`netlab.sim.port.Port.attach`). Wrapping it on every
port of a built network records each arrival without touching the classes, which the
compiled build (:mod:`netlab.sim.compiled`) would not allow.
"""


def trace_arrivals(net, log: list) -> list:
    """Append (time, node, in_port, kind, flow, seq, size, trimmed, ecn) to ``log`` at
    every arrival during ``net.run()``; call after building the network, before running."""
    sim = net.sim
    for node in (*net.hosts.values(), *net.switches.values()):
        for port in node.ports:
            port._deliver = _recorder(sim, port.peer.name, port._deliver, log)
    return log


def _recorder(sim, name, deliver, log):
    def receive(packet, in_port):
        log.append((sim.now_s, name, in_port, packet.kind, packet.flow_id, packet.seq,
                    packet.size_bytes, packet.trimmed, packet.ecn))
        return deliver(packet, in_port)
    return receive
