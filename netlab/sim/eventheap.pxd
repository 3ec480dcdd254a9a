# Declarations of eventheap.pyx (the compiled build's event heap; see netlab/sim/compiled.py).
# engine.pxd and port.pxd cimport EventHeap, so the compiled engine and ports call its
# methods as C functions.

ctypedef struct Key:
    double time_s
    long long seq

cdef class EventHeap:
    cdef list items             # items[i]: the callback of the event at position i (or its tuple)
    cdef list argss             # argss[i]: its arguments (None for an event pushed as a tuple)
    cdef Key *keys              # keys[i]: its time and sequence number
    cdef void *block            # the memory keys lie in (aligned within it)
    cdef Py_ssize_t n
    cdef Py_ssize_t capacity
    cdef public long long last_seq
    cdef public double time_s   # the event popped last
    cdef public long long seq
    cdef public object callback
    cdef public object args

    cpdef long long new_seq(self)
    cpdef push(self, double time_s, long long seq, object callback, tuple args)
    cpdef pop_next(self)
    cdef int _add(self, double time_s, long long seq, object item, object args) except -1
    cdef int _remove_root(self) except -1
    cdef int push_tuple(self, tuple event) except -1
    cdef tuple pop_tuple(self)

cpdef heappush(heap, tuple item)
cpdef heappop(heap)
