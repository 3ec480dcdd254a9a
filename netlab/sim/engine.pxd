# Cython declarations for engine.py (the compiled fast path; see netlab/sim/compiled.py).
# The .py file is the model; this file only says which attributes are C fields.
cimport cython
from netlab.sim.eventheap cimport EventHeap

cdef class Simulator:
    cdef public object seed
    cdef public object rng
    cdef public double now_s
    cdef public object events_processed
    cdef public long long seq_now
    cdef public EventHeap _heap
    cdef public object _stop_reason

    @cython.locals(horizon=cython.double, heap=EventHeap, budget=cython.Py_ssize_t, time_s=cython.double, callback=object, args=tuple)
    cpdef run(self, until_s=*, max_events=*)
