"""Load balancing on a leaf-spine: per-flow ECMP, per-packet spraying, adaptive routing.

Between two leaves of a two-tier fabric there are as many equal-cost paths as
spines. How a switch spreads packets over them decides whether a non-blocking
fabric behaves as one:

* **ECMP** (:class:`netlab.sim.ECMP <netlab.sim.switch.ECMP>`): a hash of the flow's addresses and entropy;
  a flow keeps one path, and flows collide as balls fall into bins (chapter 5,
  :mod:`netlab.fabric.ecmp`): some uplinks carry two or three flows while others idle.
* **Spraying** (:class:`Spray`): every packet to the next path in turn (the
  ``"spray"`` scheme reshuffles the order every round), or to a random path. Load
  evens out (exactly, in turn; by the law of large numbers, at random); packets of one flow arrive
  out of order, so the receiver must place them by offset (as UET's RUD mode
  does, chapter 8), not discard them as go-back-N does.
* **Adaptive routing** (:class:`Adaptive`): every packet to the equal-cost port
  whose output queue holds the fewest bytes, the local queue state that InfiniBand
  adaptive routing uses {nvidia-ib-adaptive-routing}.
* **Path telemetry** (:class:`PathAware`): adaptive routing that also counts the
  queue the packet will meet at the next switch, the congestion further along the
  path that CONGA {alizadeh-conga} feeds back to the source leaf.

The policies subclass the simulator's ``LoadBalancer`` extension point;
:func:`balancer` makes one by name. The experiments that compare them on a leaf-spine are
chapter 5's, in :mod:`netlab.fabric.experiments`.
"""

from __future__ import annotations


from netlab import validate
from netlab.sim.packet import DATA
from netlab.sim.switch import ECMP, LoadBalancer

#: The names :func:`balancer` accepts.
SCHEMES = ("ecmp", "spray", "adaptive", "telemetry")


class Spray(LoadBalancer):
    """Per-packet spraying: each packet to the next candidate port in turn at this
    switch (round robin per set of candidates), to a random one with ``random=True``,
    or, with ``shuffle=True``, round robin over an order drawn afresh every round (each
    port once per round, in a random order).

    Data and control packets (ACKs) keep separate turns, as a sprayer at the NIC gives
    each direction of a connection its own path choice: a shared turn lets the ACKs,
    which arrive irregularly, push the data of one flow onto some paths 20 % more often
    than onto others. A fixed order has its own flaw: every leaf then walks the spines
    in the same order at the same pace, and their packets keep meeting at the same spine
    downlinks; reshuffling each round keeps the exact balance and breaks that lockstep."""

    def __init__(self, random: bool = False, shuffle: bool = False) -> None:
        self.random = validate.boolean("random", random)
        self.shuffle = validate.boolean("shuffle", shuffle)
        self._turn: dict = {}

    def choose(self, switch, packet, candidates):
        if self.random:
            return candidates[switch.sim.rng.randrange(len(candidates))]
        key = (switch.name, candidates, getattr(packet, "kind", DATA) == DATA)   # kind-less: data
        turn = self._turn.get(key)
        if turn is None:
            turn = self._turn[key] = [0, None]          # [packets so far, this round's order]
        i = turn[0]
        turn[0] = i + 1
        n = len(candidates)
        if not self.shuffle:
            return candidates[i % n]
        if i % n == 0:                                    # a new round: a new order
            order = list(candidates)
            switch.sim.rng.shuffle(order)
            turn[1] = order
        return turn[1][i % n]


class Adaptive(LoadBalancer):
    """Adaptive routing: the candidate whose output queue holds the fewest bytes
    (an idle wire before a busy one); ties go round robin, so an idle fabric sprays."""

    def __init__(self) -> None:
        self._turn: dict = {}

    def choose(self, switch, packet, candidates):
        n = len(candidates)
        name = switch.name
        start = self._turn.get(name, 0)
        self._turn[name] = start + 1
        # The first port, in turn from ``start``, with the least (queued bytes, busy): a
        # port replaces the best so far only if it holds fewer bytes, or as many and is idle
        # while the best is busy ("busy?" is asked only of ports that hold no more).
        queues, ports = switch.queues, switch.ports
        best, best_bytes, best_busy = -1, 0, True
        for k in range(n):
            port = candidates[(start + k) % n]
            load = queues[port].bytes
            if best >= 0 and (load > best_bytes or (load == best_bytes and not best_busy)):
                continue
            busy = ports[port].busy
            if best < 0 or load < best_bytes or not busy:
                best, best_bytes, best_busy = port, load, busy
        return best


class PathAware(Adaptive):
    """Adaptive routing with path telemetry: a candidate's load is its own output queue
    plus the queue the next switch will put the packet in (e.g. a spine's link down to
    the destination leaf). The next switch's state is read the instant the packet is
    routed: an idealisation of telemetry that real fabrics receive a round trip late."""

    def choose(self, switch, packet, candidates):
        n = len(candidates)
        start = self._turn.get(switch.name, 0)
        self._turn[switch.name] = start + 1
        best, best_load = candidates[start % n], None
        for k in range(n):
            port = candidates[(start + k) % n]
            load = switch.queues[port].bytes
            busy = switch.ports[port].busy
            nxt = switch.ports[port].peer
            route = getattr(nxt, "route", None)        # a switch's lookup (a host has none)
            onward: tuple = ((route(packet.dst) or ()) if route is not None
                             else getattr(nxt, "routes", {}).get(packet.dst, ()))
            if len(onward) == 1:                      # the next hop has one way on: count it
                load += nxt.queues[onward[0]].bytes
                busy += nxt.ports[onward[0]].busy
            if best_load is None or (load, busy) < best_load:
                best, best_load = port, (load, busy)
        return best


def balancer(scheme: str) -> LoadBalancer:
    """A fresh load balancer for ``scheme`` in ``SCHEMES``; ``"spray"`` is
    ``Spray(shuffle=True)``, round robin in a fresh random order every round (see
    :class:`Spray` for why neither a fixed order nor a shared ACK turn)."""
    validate.choice("scheme", scheme, SCHEMES)
    if scheme == "spray":
        return Spray(shuffle=True)
    return {"ecmp": ECMP, "adaptive": Adaptive, "telemetry": PathAware}[scheme]()


def __getattr__(name: str):     # the fabric experiments that lived here, for one release (netlab/_moved.py)
    from netlab import _moved
    return _moved.old_attribute(__name__, name)
