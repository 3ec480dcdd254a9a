"""The event heap: Python's :mod:`heapq` on ``(time_s, seq, callback, args)`` tuples.

Events are tuples that begin with their time and a sequence number unique to each event,
so tuples compare by time, then by sequence number, and the earliest event pops first
(:mod:`netlab.sim.engine`). ``heappush`` and ``heappop`` are heapq's.

The simulator's heap is an :class:`EventHeap`: a list kept in heapq's order, with the three
things the engine asks of it as methods. :meth:`EventHeap.new_seq` numbers events in the
order they are scheduled; :meth:`EventHeap.push` adds one event from its four parts;
:meth:`EventHeap.pop_next` removes the earliest and leaves its parts in the heap's
attributes ``time_s``, ``seq``, ``callback`` and ``args``, where the engine reads them.

The compiled build (:mod:`netlab.sim.compiled`) replaces this module with ``eventheap.pyx``:
heapq's algorithm on a heap of four children a node (half as many levels as heapq's binary
heap), whose ``EventHeap`` keeps the two keys of every event in a C array, and an event's
callback and arguments in two lists beside it, so pushing and popping an event makes no
tuple and no number object, and a comparison reads a C double and a C integer instead of
comparing two tuples element by element. As the keys are unique, both pop every event in
the same order; on a plain list the compiled functions even leave heapq's layout.
``tests/sim/test_eventheap.py`` checks both.
"""

from heapq import heappop, heappush
from typing import Any

__all__ = ["EventHeap", "heappop", "heappush"]


# fast path: an object with push and pop_next rather than heapq calls on a list of tuples, so that
# eventheap.pyx can stand in for it (keys in a C array, no tuple made per event)
class EventHeap(list):
    """The simulator's events, in heapq's order; ``len()`` is the number of events held."""

    def __init__(self) -> None:
        super().__init__()
        self.last_seq = 0               # the sequence number given last
        self.time_s = 0.0               # the event popped last: its time, sequence number,
        self.seq = 0                    # callback and arguments
        self.callback: Any = None
        self.args = ()

    def new_seq(self) -> int:
        """The next sequence number (1, 2, ...): events scheduled later get larger ones."""
        self.last_seq += 1
        return self.last_seq

    def push(self, time_s: float, seq: int, callback, args: tuple) -> None:
        """Add the event ``callback(*args)`` at ``time_s`` with sequence number ``seq``."""
        heappush(self, (time_s, seq, callback, args))

    def pop_next(self) -> None:
        """Remove the earliest event; its parts go to ``time_s``, ``seq``, ``callback``, ``args``."""
        self.time_s, self.seq, self.callback, self.args = heappop(self)
