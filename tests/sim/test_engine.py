"""The event core: ordering, bounds, determinism."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab.sim import Simulator


def test_events_run_in_time_order_and_the_clock_follows():
    sim = Simulator()
    seen = []
    for t in (3e-6, 1e-6, 2e-6):
        sim.at(t, lambda t=t: seen.append((t, sim.now_s)))
    status = sim.run()
    assert [t for t, _ in seen] == [1e-6, 2e-6, 3e-6]
    assert all(t == now for t, now in seen)
    assert status.reason == "idle" and status.events_processed == 3


def test_scheduling_in_the_past_is_refused():
    sim = Simulator()
    sim.at(1.0, lambda: sim.at(0.5, print))
    with pytest.raises(ValueError, match="time_s"):
        sim.run()
    with pytest.raises(ValueError, match="delay_s"):
        sim.after(-1.0, print)


def test_run_is_bounded_by_events_and_time():
    sim = Simulator()

    def forever():
        sim.after(1e-6, forever)

    sim.at(0.0, forever)
    status = sim.run(max_events=1000)
    assert status.reason == "max_events" and status.events_processed == 1000
    status = sim.run(until_s=sim.now_s + 10e-6)
    assert status.reason == "until"
    assert status.events_processed == pytest.approx(1010, abs=1)


def test_stop_from_a_callback():
    sim = Simulator()
    sim.at(1.0, sim.stop, "enough")
    sim.at(2.0, print)
    assert sim.run().reason == "enough"
    assert sim.pending_events == 1


@settings(max_examples=50, deadline=None)
@given(delays=st.lists(st.floats(0, 1e-3), min_size=1, max_size=50), seed=st.integers(0, 1000))
def test_time_never_runs_backwards(delays, seed):
    sim = Simulator(seed)
    times = []

    def tick(depth):
        times.append(sim.now_s)
        if depth < 3:
            sim.after(sim.rng.choice(delays), tick, depth + 1)

    for d in delays:
        sim.after(d, tick, 0)
    sim.run()
    assert all(b >= a for a, b in zip(times, times[1:]))
    assert len(times) == 4 * len(delays)


def test_same_seed_same_random_stream():
    a, b = Simulator(7), Simulator(7)
    assert [a.rng.random() for _ in range(5)] == [b.rng.random() for _ in range(5)]


@pytest.mark.parametrize("bad", [-1, 1.5, "1", None])
def test_seed_must_be_a_non_negative_integer(bad):
    with pytest.raises((ValueError, TypeError), match="seed"):
        Simulator(bad)


def test_until_and_max_events_are_validated():
    sim = Simulator()
    with pytest.raises(ValueError, match="until_s"):
        sim.run(until_s=-1.0)
    with pytest.raises(ValueError, match="max_events"):
        sim.run(max_events=0)
    assert sim.run(until_s=math.inf).reason == "idle"
