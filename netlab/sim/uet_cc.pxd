# Cython declarations for uet_cc.py (the compiled fast path; see netlab/sim/compiled.py).
from netlab.sim.engine cimport Simulator

cdef class CreditScheduler:
    cdef public object network
    cdef public Simulator sim
    cdef public object host
    cdef public object packets_per_credit
    cdef public double interval_s
    cdef public list flows
    cdef public set _known
    cdef public Py_ssize_t _rr
    cdef public bint _ticking
    cdef public object credits_sent

    cpdef wake(self, receiver)
    cpdef _tick(self)
