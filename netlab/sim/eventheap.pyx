# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled build's event heap: heapq's algorithm with a typed comparison.

See eventheap.py, the module this one stands in for. The list is a binary heap exactly as
heapq keeps it (parent of position i at (i - 1) // 2); an event comes before another if
its time is earlier, or the times are equal and its sequence number is smaller. Events
are tuples whose first item is a float (the time) and whose second is an int.
"""


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


def heappush(list heap, tuple item):
    """Add ``item`` (an event tuple) to ``heap``."""
    heap.append(item)
    _sift_towards_root(heap, 0, len(heap) - 1)


def heappop(list heap):
    """Remove and return the earliest event of ``heap`` (IndexError if it is empty)."""
    cdef tuple last = heap.pop()
    cdef tuple first
    if not heap:
        return last
    first = heap[0]
    heap[0] = last
    _sift_to_leaf(heap, 0)
    return first
