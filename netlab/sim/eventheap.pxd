# Declarations of eventheap.pyx (the compiled build's event heap; see netlab/sim/compiled.py).
# engine.pxd and port.pxd cimport heappush and heappop, so the compiled engine and ports
# call them as C functions.

ctypedef struct Key:
    double time_s
    long long seq

cdef class EventHeap:
    cdef list events            # the event tuples, in heap order
    cdef Key *keys              # keys[i]: the time and sequence number of events[i]
    cdef Py_ssize_t n
    cdef Py_ssize_t capacity

    cdef int push(self, tuple event) except -1
    cdef tuple pop(self)

cpdef heappush(heap, tuple item)
cpdef heappop(heap)
