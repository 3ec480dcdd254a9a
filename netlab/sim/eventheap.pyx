# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled build's event heap: a heap of four children a node, its keys in a C array.

See eventheap.py, the module this one stands in for. An event has a time (a float), a
sequence number (an int), a callback and its arguments (a tuple); it comes before another
if its time is earlier, or the times are equal and its sequence number is smaller.

:class:`EventHeap` is the heap the simulator runs on. It is heapq's algorithm (a push rises
towards the root; a pop moves the hole at the root down to a leaf along the earliest child,
then the last event rises from there) on a heap of four children a node (parent of
position i at (i - 1) // 4): half as many levels as heapq's binary heap, so a pop follows
half as many pointers down. Its position i is three entries: the event's two keys in a C
array (``keys[i]``, so a comparison reads two C numbers next to each other), its callback
(``items[i]``) and its arguments (``argss[i]``) in two lists. Moving an event moves its keys
and its two pointers, and never touches the objects, so :meth:`EventHeap.push` and
:meth:`EventHeap.pop_next`, the engine's two calls, make no tuple and no number object.
:func:`heappush` and :func:`heappop` also take whole event tuples: such an event keeps its
tuple in ``items[i]`` and None in ``argss[i]``, and pops as the same tuple. As no two events
have the same key (the sequence numbers are unique), any correct heap pops them in one
order: it pops the same events in the same order as heapq on a list
(``tests/sim/test_eventheap.py``).

``heappush`` and ``heappop`` take an :class:`EventHeap` or a plain list; on a list they are
heapq's algorithm with the same typed comparison, leaving the list in heapq's layout.
"""

from cpython.ref cimport PyObject, Py_DECREF, Py_INCREF
from libc.stdint cimport uintptr_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

cdef extern from "Python.h":
    ctypedef struct PyListObject:
        PyObject **ob_item
    bint PyObject_IS_GC(PyObject *obj)
    bint PyObject_GC_IsTracked(PyObject *obj)
    void PyObject_GC_UnTrack(void *obj)


cdef inline void _untrack_plain(object args):
    """Stop the cyclic garbage collector tracking an event's argument tuple that holds no
    object it tracks (a packet and a port number, most often), as CPython itself does with such
    a tuple when it survives a collection: it can be in no cycle. The collector then never links
    or unlinks it, which at thousands of hosts costs cache misses on every event."""
    cdef PyObject *tup = <PyObject *>args
    if not PyObject_GC_IsTracked(tup):
        return
    cdef PyObject *item
    for element in <tuple>args:
        item = <PyObject *>element
        if PyObject_IS_GC(item) and not (type(element) is tuple and not PyObject_GC_IsTracked(item)):
            return
    PyObject_GC_UnTrack(tup)


# --- the heap the simulator runs on ------------------------------------------------

cdef inline bint _key_before(Key *a, Key *b) noexcept nogil:
    if a.time_s != b.time_s:
        return a.time_s < b.time_s
    return a.seq < b.seq


cdef inline void _rise(Key *keys, PyObject **items, PyObject **argss, Py_ssize_t pos, Key key,
                       PyObject *item, PyObject *args) noexcept nogil:
    """The event (key, item, args) moves from ``pos`` towards the root, past every parent that
    comes after it, and is written where it stops (heapq's _siftdown, four children a node)."""
    cdef Py_ssize_t up
    while pos > 0:
        up = (pos - 1) >> 2
        if not _key_before(&key, &keys[up]):
            break
        keys[pos] = keys[up]
        items[pos] = items[up]
        argss[pos] = argss[up]
        pos = up
    keys[pos] = key
    items[pos] = item
    argss[pos] = args


cdef Key *_aligned_keys(Py_ssize_t n, void **block) noexcept:
    """Room for ``n`` keys (in ``*block``, to free) placed so that the four children of every
    position, ``4i+1 .. 4i+4``, fill one 64-byte cache line: position 0 sits 48 bytes past a line's
    start (keys are 16 bytes), so a step down the heap reads one line of keys, not two."""
    cdef char *raw = <char *>malloc(n * sizeof(Key) + 128)
    if raw is NULL:
        return NULL
    block[0] = raw
    cdef uintptr_t line = (<uintptr_t>raw + 63) & ~(<uintptr_t>63)
    return <Key *>(<char *>line + 64 - sizeof(Key))


cdef class EventHeap:
    """The simulator's events, four children a node; ``len()`` is the number of events held."""

    def __cinit__(self):
        self.items = []
        self.argss = []
        self.n = 0
        self.capacity = 1024
        self.block = NULL
        self.keys = _aligned_keys(self.capacity, &self.block)
        if self.keys is NULL:
            raise MemoryError()
        self.last_seq = 0
        self.time_s = 0.0
        self.seq = 0
        self.callback = None
        self.args = ()

    def __dealloc__(self):
        free(self.block)

    def __len__(self):
        return self.n

    cpdef long long new_seq(self):
        """The next sequence number (1, 2, ...): events scheduled later get larger ones."""
        self.last_seq += 1
        return self.last_seq

    cpdef push(self, double time_s, long long seq, object callback, tuple args):
        """Add the event ``callback(*args)`` at ``time_s`` with sequence number ``seq``."""
        self._add(time_s, seq, callback, args)

    cdef int _add(self, double time_s, long long seq, object item, object args) except -1:
        cdef Key key
        key.time_s = time_s
        key.seq = seq
        cdef Key *grown
        cdef void *block = NULL
        if self.n == self.capacity:
            grown = _aligned_keys(2 * self.capacity, &block)
            if grown is NULL:
                raise MemoryError()
            memcpy(grown, self.keys, self.n * sizeof(Key))
            free(self.block)
            self.block = block
            self.keys = grown
            self.capacity *= 2
        # the lists own the references, and only pointers move; they never shrink: the slots from
        # position n on hold None (so a pop moves pointers and never resizes a list)
        if self.n == len(self.items):
            self.items.append(None)
            self.argss.append(None)
        if type(args) is tuple:
            _untrack_plain(args)
        cdef PyObject **items = (<PyListObject *>self.items).ob_item
        cdef PyObject **argss = (<PyListObject *>self.argss).ob_item
        cdef Py_ssize_t pos = self.n
        Py_DECREF(<object>items[pos])         # the free slot's None, overwritten below
        Py_DECREF(<object>argss[pos])
        Py_INCREF(item)
        Py_INCREF(args)
        self.n += 1
        _rise(self.keys, items, argss, pos, key, <PyObject *>item, <PyObject *>args)
        return 0

    cdef int _remove_root(self) except -1:
        """Take the earliest event out: its keys to ``time_s`` and ``seq``, its item to
        ``callback`` and its arguments to ``args`` (the references move there)."""
        if self.n == 0:
            raise IndexError("pop from an empty event heap")
        cdef PyObject **items = (<PyListObject *>self.items).ob_item
        cdef PyObject **argss = (<PyListObject *>self.argss).ob_item
        cdef Key *keys = self.keys
        cdef Py_ssize_t end = self.n - 1
        self.time_s = keys[0].time_s
        self.seq = keys[0].seq
        # the root's references move to callback and args (the lists' references, handed over),
        # the last event's pointers fill the root, and the last slot, free now, takes None
        cdef PyObject *root_item = items[0]
        cdef PyObject *root_args = argss[0]
        cdef PyObject *item = items[end]
        cdef PyObject *args = argss[end]
        cdef Key key = keys[end]
        items[0] = item
        argss[0] = args
        Py_INCREF(None)
        Py_INCREF(None)
        items[end] = <PyObject *>None
        argss[end] = <PyObject *>None
        self.n = end
        self.callback = <object>root_item         # (a new reference each; the lists' are let go next)
        self.args = <object>root_args
        Py_DECREF(<object>root_item)
        Py_DECREF(<object>root_args)
        items = (<PyListObject *>self.items).ob_item      # (unchanged; re-read after Python-level code)
        argss = (<PyListObject *>self.argss).ob_item
        if end == 0:
            return 0
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
            argss[pos] = argss[best]
            pos = best
            child = 4 * pos + 1
        _rise(keys, items, argss, pos, key, item, args)
        return 0

    cpdef pop_next(self):
        """Remove the earliest event; its parts go to ``time_s``, ``seq``, ``callback``, ``args``."""
        self._remove_root()
        if self.args is None:                 # pushed as a whole tuple (heappush)
            event = <tuple>self.callback
            self.callback = event[2]
            self.args = event[3]

    cdef int push_tuple(self, tuple event) except -1:
        return self._add(event[0], event[1], event, None)

    cdef tuple pop_tuple(self):
        self._remove_root()
        cdef tuple event
        if self.args is None:                 # pushed as a tuple: the same tuple
            event = <tuple>self.callback
        else:
            event = (self.time_s, self.seq, self.callback, self.args)
        self.callback, self.args = None, ()   # the caller holds the only reference the heap gave
        return event


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
        (<EventHeap>heap).push_tuple(item)
        return
    cdef list as_list = heap
    as_list.append(item)
    _sift_towards_root(as_list, 0, len(as_list) - 1)


cpdef heappop(heap):
    """Remove and return the earliest event of ``heap`` (IndexError if it is empty)."""
    if type(heap) is EventHeap:
        return (<EventHeap>heap).pop_tuple()
    cdef list as_list = heap
    cdef tuple last = as_list.pop()
    cdef tuple first
    if not as_list:
        return last
    first = as_list[0]
    as_list[0] = last
    _sift_to_leaf(as_list, 0)
    return first
