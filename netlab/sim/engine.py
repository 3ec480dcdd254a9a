"""The event core: a clock and a heap of things that will happen.

A discrete-event simulation jumps from one event to the next instead of
ticking a clock. Every event is ``(time_s, seq, callback, args)`` on a binary
heap (:mod:`heapq`'s, through :mod:`netlab.sim.eventheap`); ``seq`` is a counter that breaks ties, so
events scheduled for the same instant run in the order they were scheduled and
a run is deterministic. The loop pops the earliest event, moves the clock to
its time and calls it; the callback may schedule more events. That is the whole
engine -- the network lives in callbacks (reference: ``banks-discrete-event``).

A :class:`Simulator` is an ordinary object: two simulations never share state,
and its random generator is seeded, so a rerun with the same seed gives the same
result. :meth:`Simulator.run` is always bounded, by simulated time and by a
number of events, so a bad configuration cannot hang a notebook.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import random

from netlab import validate
from netlab.sim.eventheap import EventHeap

DEFAULT_MAX_EVENTS = 20_000_000


@dataclass(frozen=True)
class RunStatus:
    """Why :meth:`Simulator.run` returned: ``"idle"`` (no events left), ``"until"``,
    ``"max_events"`` or ``"stopped"`` (a callback called :meth:`Simulator.stop`)."""

    reason: str
    time_s: float
    events_processed: int


class Simulator:
    """A clock, an event heap and a seeded random generator.

    >>> sim = Simulator(seed=1)
    >>> fired = []
    >>> sim.at(2e-6, fired.append, "b"); sim.at(1e-6, fired.append, "a")
    >>> sim.run().reason, fired, sim.now_s
    ('idle', ['a', 'b'], 2e-06)
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = validate.integer("seed", seed, minimum=0)
        self.rng = random.Random(self.seed)
        self.now_s = 0.0
        self.events_processed = 0
        self.seq_now = 0                      # sequence number of the event being run
        self._heap = EventHeap()              # (it also numbers the events: new_seq)
        self._stop_reason: str | None = None

    def at(self, time_s: float, callback, *args) -> None:
        """Call ``callback(*args)`` at simulated time ``time_s`` (not in the past, finite)."""
        try:
            if not self.now_s <= time_s < math.inf:      # also catches NaN
                raise ValueError(f"time_s must be finite and >= now ({self.now_s}), got {time_s}")
            time_s = float(time_s)
        except TypeError:
            raise TypeError(f"time_s must be a number, got {type(time_s).__name__} {time_s!r:.80}") from None
        except OverflowError:
            raise ValueError("time_s must be finite, got an integer too large for a float") from None
        if not callable(callback):                       # refused now, not when the event comes up
            raise TypeError(f"callback must be callable, got {type(callback).__name__} {callback!r:.80}")
        heap = self._heap
        heap.push(time_s, heap.new_seq(), callback, args)

    def after(self, delay_s: float, callback, *args) -> None:
        """Call ``callback(*args)`` ``delay_s`` seconds from now (``delay_s >= 0``)."""
        try:
            if not 0.0 <= delay_s < math.inf:
                raise ValueError(f"delay_s must be finite and >= 0, got {delay_s}")
            time_s = self.now_s + delay_s
        except TypeError:
            raise TypeError(f"delay_s must be a number, got {type(delay_s).__name__} {delay_s!r:.80}") from None
        except OverflowError:
            raise ValueError("delay_s must be finite, got an integer too large for a float") from None
        if not callable(callback):
            raise TypeError(f"callback must be callable, got {type(callback).__name__} {callback!r:.80}")
        heap = self._heap
        heap.push(time_s, heap.new_seq(), callback, args)

    def stop(self, reason: str = "stopped") -> None:
        """Ask :meth:`run` to return after the current event."""
        self._stop_reason = reason

    @property
    def pending_events(self) -> int:
        """Events scheduled but not yet run."""
        return len(self._heap)

    def run(self, until_s: float = math.inf, max_events: int = DEFAULT_MAX_EVENTS) -> RunStatus:
        """Run events in time order until none is left, the next one is later than
        ``until_s``, ``max_events`` have run in this call, or :meth:`stop` is called.

        ``until_s`` and ``max_events`` cannot both be unbounded: every run ends.
        """
        if until_s != math.inf:
            until_s = validate.non_negative("until_s", until_s)
        max_events = validate.integer("max_events", max_events, minimum=1)
        horizon = until_s                   # fast path: a local the compiled build keeps in a C double
        heap = self._heap
        self._stop_reason = None
        budget = max_events
        reason = "idle"
        while heap:
            heap.pop_next()                 # fast path: the earliest event, into heap.time_s, .seq, .callback, .args
            time_s = heap.time_s
            callback, args = heap.callback, heap.args
            if time_s > horizon or budget == 0:
                heap.push(time_s, heap.seq, callback, args)   # not run: back in its place (same key)
                if time_s > horizon:
                    self.now_s = until_s
                    reason = "until"
                else:
                    reason = "max_events"
                break
            self.now_s = time_s
            self.seq_now = heap.seq
            budget -= 1
            callback(*args)
            if self._stop_reason is not None:
                reason = self._stop_reason
                break
        self.events_processed += max_events - budget
        return RunStatus(reason, self.now_s, self.events_processed)
