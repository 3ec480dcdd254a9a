# Cython declarations for uet_cc.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.cc cimport CongestionControl
from netlab.sim.engine cimport Simulator

cdef class NSCC(CongestionControl):
    cdef public double target_rtt_s
    cdef public double md_factor
    cdef public double ai_bytes
    cdef public double fi_bytes
    cdef public long long decreases
    cdef public list window_trace
    cdef public object sender
    cdef public double _last_decrease_s
    cdef public double _min_cwnd

    cpdef attach(self, sender)
    @cython.locals(now=cython.double)
    cpdef _decrease(self, sender)
    @cython.locals(info=tuple, ecn=cython.bint, sent_s=cython.double, rtt=cython.double, high=cython.bint,
                   step=cython.double, acked=cython.double)
    cpdef on_ack(self, sender, packet)
    cpdef on_trim(self, sender, packet)
    cpdef on_timeout(self, sender)

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
