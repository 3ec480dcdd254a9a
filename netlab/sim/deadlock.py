"""Deadlock: a cycle of switches, each waiting for buffer space at the next.

In a lossless network a port may hold packets it is not allowed to send: the next
switch has paused its priority (PFC) or given it no credit. If the switches whose
ports wait on each other form a cycle, none of them can ever send again -- a
deadlock from a *cyclic buffer dependency* (references ``hu-deadlock``,
``guo-rdma-at-scale``). :func:`blocked_cycle` finds such a cycle with a depth-first
search over "switch A holds packets blocked by switch B" edges; the network calls it
periodically and stops the run when the same cycle has sent nothing for a whole
check interval.
"""

from __future__ import annotations


def is_blocked(switch, port) -> bool:
    """Does ``port`` of ``switch`` hold packets it may not send (paused, or no credit)?"""
    queue = switch.queues[port.index]
    if not queue.packets:
        return False                      # (an empty queue holds nothing back)
    for prio in range(switch.n_priorities - 1, -1, -1):
        fifo = queue.fifos[prio]
        if fifo:
            if port.paused[prio]:
                continue
            return port.credits_bytes is not None and fifo[0].size_bytes > port.credits_bytes
    return queue.packets > 0


def blocked_cycle(switches) -> list:
    """Ports on a cycle of switches, each holding packets on a port that the next
    switch has paused (PFC) or gives no credit for; ``[]`` if there is none."""
    switches = list(switches)
    names = {sw.name for sw in switches}
    # (a port with an empty queue holds nothing back: most are skipped at the first test)
    edges = {sw: [p for p, queue in zip(sw.ports, sw.queues)
                  if queue.packets and p.peer.name in names and is_blocked(sw, p)] for sw in switches}
    state, stack = {}, []

    def visit(sw):                            # depth-first search for a back edge
        state[sw] = 1
        for port in edges[sw]:
            stack.append(port)
            nxt = port.peer
            if state.get(nxt) == 1:
                start = next(i for i, p in enumerate(stack) if p.node is nxt)
                return stack[start:]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
            stack.pop()
        state[sw] = 2
        return None

    for sw in edges:
        if sw not in state:
            found = visit(sw)
            if found:
                return found
    return []
