"""The event heap's two operations: Python's :mod:`heapq`, on ``(time_s, seq, ...)`` tuples.

Events are tuples that begin with their time and a sequence number unique to each event,
so tuples compare by time, then by sequence number, and the earliest event pops first
(:mod:`netlab.sim.engine`). This module is that and nothing more: ``heappush`` and
``heappop`` are heapq's.

The simulator's heap is an :class:`EventHeap`, which here is simply a list.

The compiled build (:mod:`netlab.sim.compiled`) replaces this module with ``eventheap.pyx``:
heapq's algorithm on a heap of four children a node (half as many levels as heapq's binary
heap), whose ``EventHeap`` keeps the two
keys of every event in a C array beside the list of events, so a comparison reads a C
double and a C integer instead of comparing two tuples element by element. As the keys
are unique, both pop every event in the same order; on a plain list the compiled
functions even leave heapq's layout. ``tests/sim/test_eventheap.py`` checks both.
"""

from heapq import heappop, heappush

EventHeap = list

__all__ = ["EventHeap", "heappop", "heappush"]
