"""The compiled event heap (netlab/sim/eventheap.pyx) behaves as heapq on event tuples.

Random pushes and pops of (time, seq, payload) events -- many equal times, times that are
ints, a growing and shrinking heap -- go to both; every pop must return the same event and
the two lists must hold the same layout after every operation (the same algorithm, so
not just the same order).
"""

import heapq
import random

import pytest

import netlab.sim
from netlab.sim import eventheap


def test_the_compiled_heap_is_the_one_imported():
    assert netlab.sim.COMPILED and eventheap.__file__.endswith(".so"), eventheap.__file__
    assert eventheap.heappush is not heapq.heappush


def _random_event(rng, seq):
    """An event tuple whose time often ties with others' (a few fixed values, and an int)."""
    time_s = rng.choice([rng.random() * 1e-3, float(rng.randrange(5)) * 1e-6, rng.randrange(3)])
    return (time_s, seq, f"cb{seq}", ())


@pytest.mark.parametrize("seed", range(6))
def test_same_pops_and_same_layout_as_heapq(seed):
    rng = random.Random(seed)
    ours, theirs, seq = [], [], 0
    for _ in range(4000):
        if rng.random() < 0.55 or not ours:
            seq += 1
            event = _random_event(rng, seq)
            eventheap.heappush(ours, event)
            heapq.heappush(theirs, event)
        else:
            assert eventheap.heappop(ours) == heapq.heappop(theirs)
        assert ours == theirs
    popped = [eventheap.heappop(ours) for _ in range(len(ours))]
    assert popped == sorted(popped, key=lambda e: (e[0], e[1])) and not ours


def test_an_empty_heap_raises_as_heapq_does():
    with pytest.raises(IndexError):
        eventheap.heappop([])
    with pytest.raises(IndexError):
        heapq.heappop([])


@pytest.mark.parametrize("seed", range(6))
def test_the_simulators_heap_pops_as_heapq_does(seed):
    """EventHeap (the heap the engine runs on; its keys live in a C array in the compiled
    build) against heapq on a list: the same event at every pop, the same length after
    every operation, past the array's first growth (1024 events) and back to empty."""
    rng = random.Random(seed)
    ours, theirs, seq = eventheap.EventHeap(), [], 0
    for step in range(12000):
        if rng.random() < (0.7 if step < 6000 else 0.3) or not theirs:
            seq += 1
            event = _random_event(rng, seq)
            eventheap.heappush(ours, event)
            heapq.heappush(theirs, event)
        else:
            assert eventheap.heappop(ours) is heapq.heappop(theirs)
        assert len(ours) == len(theirs) and bool(ours) == bool(theirs)
    while theirs:
        assert eventheap.heappop(ours) is heapq.heappop(theirs)
    assert len(ours) == 0 and not ours
    with pytest.raises(IndexError):
        eventheap.heappop(ours)


def test_the_simulators_heap_holds_each_event_once():
    """The compiled heap moves pointers, not references: after a push and pop of the same
    events their reference counts are what they were (no leak, no early free)."""
    import sys
    events = [(float(k % 7), k, object(), ()) for k in range(3000)]
    before = [sys.getrefcount(e) for e in events]
    heap = eventheap.EventHeap()
    for event in events:
        eventheap.heappush(heap, event)
    del event
    popped = [eventheap.heappop(heap) for _ in range(len(events))]
    assert popped == sorted(events, key=lambda e: (e[0], e[1]))
    del popped
    assert [sys.getrefcount(e) for e in events] == before


@pytest.mark.parametrize("seed", range(4))
def test_push_and_pop_next_run_the_events_of_heapq_in_its_order(seed):
    """The engine's calls: events pushed as four parts, numbered by new_seq, some pushed as
    tuples among them; pop_next leaves each event's parts where heapq's pop would give them."""
    rng = random.Random(seed)
    ours, theirs = eventheap.EventHeap(), []
    for step in range(8000):
        if rng.random() < (0.7 if step < 4000 else 0.3) or not theirs:
            seq = ours.new_seq()
            event = _random_event(rng, seq)
            event = (float(event[0]), seq, object(), (rng.random(),) * rng.randrange(3))
            if rng.random() < 0.2:
                eventheap.heappush(ours, event)
            else:
                ours.push(*event)
            heapq.heappush(theirs, event)
        else:
            time_s, seq, callback, args = heapq.heappop(theirs)
            ours.pop_next()
            assert (ours.time_s, ours.seq) == (time_s, seq)
            assert ours.callback is callback and ours.args is args
        assert len(ours) == len(theirs)
    while theirs:
        assert eventheap.heappop(ours) == heapq.heappop(theirs)
    assert not ours


def test_pop_next_holds_only_the_last_event():
    """The compiled heap hands its references over: pushed and popped through push and
    pop_next, every callback and argument tuple is back to its reference count once a
    later event has been popped (the heap keeps only the last event's parts)."""
    import sys
    callbacks = [object() for _ in range(2000)]
    argss = [(k,) for k in range(2000)]
    before = [sys.getrefcount(c) for c in callbacks] + [sys.getrefcount(a) for a in argss]
    heap = eventheap.EventHeap()
    for k in range(2000):
        heap.push(float(k % 13), heap.new_seq(), callbacks[k], argss[k])
    order = []
    while heap:
        heap.pop_next()
        order.append((heap.time_s, heap.seq))
    heap.push(99.0, heap.new_seq(), None, ())
    heap.pop_next()                               # the last real event's parts are let go
    assert order == sorted(order) and len(order) == 2000
    assert [sys.getrefcount(c) for c in callbacks] + [sys.getrefcount(a) for a in argss] == before


def test_packets_and_their_events_are_left_out_of_the_cyclic_collector():
    """A packet holds no reference that could lead back to it, so the compiled build keeps it out
    of the cyclic garbage collector (``no_gc``; declared only in packet.pxd, Cython ignored it and
    tracked every packet). An event's argument tuple of packets and numbers can then be in no
    cycle either, and the heap untracks it when pushed, as CPython untracks such a tuple at its
    first collection; a tuple that holds a list (which might lead back) stays tracked, and every
    event pops with its own arguments."""
    import gc

    from netlab.sim.packet import DATA, Packet
    packet = Packet(DATA, 0, 0, 1, 1500)
    assert not gc.is_tracked(packet)
    plain = (packet, int("3"))
    nested = (packet, (int("1"), int("2")))
    nested_holds_list = (packet, ([],))
    holds_list = (packet, [])
    for args in (plain, nested, nested_holds_list, holds_list):
        assert gc.is_tracked(args)                # as every tuple is when built at run time
    heap = eventheap.EventHeap()
    for k, args in enumerate((plain, nested, nested_holds_list, holds_list)):
        heap.push(float(k), heap.new_seq(), print, args)
    assert [gc.is_tracked(a) for a in (plain, nested, nested_holds_list, holds_list)] == [False, True, True, True]
    popped = []
    while heap:
        heap.pop_next()
        popped.append(heap.args)
    assert popped == [plain, nested, nested_holds_list, holds_list]
