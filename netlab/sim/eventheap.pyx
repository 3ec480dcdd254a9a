# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled build's event heap: a heap of four children a node, its keys in a C array.

See eventheap.py, the module this one stands in for. An event is a tuple whose first item
is its time (a float) and whose second is its sequence number (an int); it comes before
another if its time is earlier, or the times are equal and its sequence number is smaller.

:class:`EventHeap` is the heap the simulator runs on. It is heapq's algorithm (a push rises
towards the root; a pop moves the hole at the root down to a leaf along the earliest child,
then the last event rises from there) on a heap of four children a node (parent of
position i at (i - 1) // 4): half as many levels as heapq's binary heap, so a pop follows
half as many pointers down. It keeps each event's two keys in a C array beside the list of
events, so a comparison reads two C numbers next to each other instead of following
pointers into two tuples and two floats; moving an event moves its pointer in the list and
its keys in the array, and never touches the event itself. As no two events have the same
key (the sequence numbers are unique), any correct heap pops them in one order: it pops
the same events in the same order as heapq on a list (``tests/sim/test_eventheap.py``).

``heappush`` and ``heappop`` take an :class:`EventHeap` or a plain list; on a list they are
heapq's algorithm with the same typed comparison, leaving the list in heapq's layout.
"""

from cpython.ref cimport PyObject
from libc.stdlib cimport free, malloc, realloc

cdef extern from "Python.h":
    ctypedef struct PyListObject:
        PyObject **ob_item


# --- the heap the simulator runs on ------------------------------------------------

cdef inline bint _key_before(Key *a, Key *b) noexcept nogil:
    if a.time_s != b.time_s:
        return a.time_s < b.time_s
    return a.seq < b.seq


cdef inline void _rise(Key *keys, PyObject **items, Py_ssize_t pos, Key key, PyObject *item) noexcept nogil:
    """The event (key, item) moves from ``pos`` towards the root, past every parent that
    comes after it, and is written where it stops (heapq's _siftdown, four children a node)."""
    cdef Py_ssize_t up
    while pos > 0:
        up = (pos - 1) >> 2
        if not _key_before(&key, &keys[up]):
            break
        keys[pos] = keys[up]
        items[pos] = items[up]
        pos = up
    keys[pos] = key
    items[pos] = item


cdef class EventHeap:
    """A heap of event tuples, four children a node; ``len()`` is the number of events held."""

    def __cinit__(self):
        self.events = []
        self.n = 0
        self.capacity = 1024
        self.keys = <Key *>malloc(self.capacity * sizeof(Key))
        if self.keys is NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.keys)

    def __len__(self):
        return self.n

    cdef int push(self, tuple event) except -1:
        cdef Key key
        key.time_s = event[0]
        key.seq = event[1]
        cdef Key *grown
        if self.n == self.capacity:
            grown = <Key *>realloc(self.keys, 2 * self.capacity * sizeof(Key))
            if grown is NULL:
                raise MemoryError()
            self.keys = grown
            self.capacity *= 2
        self.events.append(event)             # the list owns the reference; only pointers move
        cdef PyObject **items = (<PyListObject *>self.events).ob_item
        cdef Py_ssize_t pos = self.n
        self.n += 1
        _rise(self.keys, items, pos, key, items[pos])
        return 0

    cdef tuple pop(self):
        if self.n == 0:
            raise IndexError("pop from an empty event heap")
        cdef PyObject **items = (<PyListObject *>self.events).ob_item
        cdef Key *keys = self.keys
        cdef Py_ssize_t end = self.n - 1
        # take the root out of the list: its reference goes to the caller, the last event's
        # pointer fills the root, and the list shrinks by one without touching either event
        cdef tuple first = <tuple>items[0]    # (a new reference)
        cdef PyObject *item = items[end]
        cdef Key key = keys[end]
        items[0] = item
        items[end] = <PyObject *>first        # one reference stays in the list's last slot...
        del self.events[end]                  # ...and is dropped here
        items = (<PyListObject *>self.events).ob_item     # (the list may have moved them)
        self.n = end
        if end == 0:
            return first
        # heapq's pop, on four children a node: the hole at the root moves down to a leaf
        # along the earliest child, then the moved event rises from there to its place
        cdef Py_ssize_t pos = 0
        cdef Py_ssize_t child = 1
        cdef Py_ssize_t best, last
        while child < end:
            best = child
            last = child + 4 if child + 4 <= end else end
            child += 1
            while child < last:
                if _key_before(&keys[child], &keys[best]):
                    best = child
                child += 1
            keys[pos] = keys[best]
            items[pos] = items[best]
            pos = best
            child = 4 * pos + 1
        _rise(keys, items, pos, key, item)
        return first


# --- heapq's algorithm on a plain list (what eventheap.py does with heapq) ----------

cdef inline bint _before(tuple a, tuple b):
    cdef double time_a = a[0]
    cdef double time_b = b[0]
    if time_a != time_b:
        return time_a < time_b
    return <long long>a[1] < <long long>b[1]


cdef void _sift_towards_root(list heap, Py_ssize_t start, Py_ssize_t pos):
    """Move heap[pos] up (towards start) past every parent that comes after it."""
    cdef tuple item = heap[pos]
    cdef tuple parent
    cdef Py_ssize_t up
    while pos > start:
        up = (pos - 1) >> 1
        parent = heap[up]
        if not _before(item, parent):
            break
        heap[pos] = parent
        pos = up
    heap[pos] = item


cdef void _sift_to_leaf(list heap, Py_ssize_t pos):
    """heapq's pop: move the hole at pos down to a leaf along the earlier child, fill it
    with the item that was there, and let that item rise to its place."""
    cdef Py_ssize_t end = len(heap)
    cdef Py_ssize_t start = pos
    cdef tuple item = heap[pos]
    cdef Py_ssize_t child = 2 * pos + 1
    while child < end:
        if child + 1 < end and not _before(<tuple>heap[child], <tuple>heap[child + 1]):
            child += 1
        heap[pos] = heap[child]
        pos = child
        child = 2 * pos + 1
    heap[pos] = item
    _sift_towards_root(heap, start, pos)


cpdef heappush(heap, tuple item):
    """Add ``item`` (an event tuple) to ``heap`` (an :class:`EventHeap` or a list)."""
    if type(heap) is EventHeap:
        (<EventHeap>heap).push(item)
        return
    cdef list as_list = heap
    as_list.append(item)
    _sift_towards_root(as_list, 0, len(as_list) - 1)


cpdef heappop(heap):
    """Remove and return the earliest event of ``heap`` (IndexError if it is empty)."""
    if type(heap) is EventHeap:
        return (<EventHeap>heap).pop()
    cdef list as_list = heap
    cdef tuple last = as_list.pop()
    cdef tuple first
    if not as_list:
        return last
    first = as_list[0]
    as_list[0] = last
    _sift_to_leaf(as_list, 0)
    return first
