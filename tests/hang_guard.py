"""A hang guard: a generous real-time limit that turns a hang into a failing test.

It is not a speed limit. :data:`HANG_GUARD_S` is more than ten times what any guarded call takes on
a loaded two-core machine, so a test fails on it only if the call never returns (the failures it
guards against: a loop that does not end, minutes of work on an absurd input). How fast things run
is measured, printed and never asserted in ``benchmarks/`` (``benchmarks/bench_refusals.py`` times
the refusals guarded here).

    with hang_guard(what="ring_all_reduce(2**31)"):
        ...
"""

from __future__ import annotations

import contextlib
import signal

HANG_GUARD_S = 60.0


class Hang(AssertionError):
    """A guarded block did not finish within the hang guard."""


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_GUARD_S, what: str = "the guarded call"):
    """Fail with :class:`Hang` if the block runs longer than ``seconds`` of real time (SIGALRM)."""
    def alarm(signum, frame):
        raise Hang(f"hang guard: {what} ran for more than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
