"""The event heap's two operations: Python's :mod:`heapq`, on ``(time_s, seq, ...)`` tuples.

Events are tuples that begin with their time and a sequence number unique to each event,
so tuples compare by time, then by sequence number, and the earliest event pops first
(:mod:`netlab.sim.engine`). This module is that and nothing more: ``heappush`` and
``heappop`` are heapq's.

The compiled build (:mod:`netlab.sim.compiled`) replaces it with ``eventheap.pyx``, the
same binary heap (heapq's algorithm, step for step) whose comparison reads the two keys as
a C double and a C integer instead of comparing two tuples element by element. As the
keys are unique, both pop every event in the same order and even leave the heap's list
in the same layout; ``tests/sim/test_eventheap.py`` checks it.
"""

from heapq import heappop, heappush

__all__ = ["heappop", "heappush"]
