# Cython declarations for loadbalance.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.switch cimport LoadBalancer

cdef str DATA   # (packet.py's, imported: a C string here)

cdef class Spray(LoadBalancer):
    cdef public bint random
    cdef public bint shuffle
    cdef public dict _turn

    @cython.locals(n=cython.Py_ssize_t, i=cython.Py_ssize_t, turn=list, order=list)
    cpdef choose(self, switch, packet, candidates)

cdef class Adaptive(LoadBalancer):
    cdef public dict _turn

    @cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t, start=cython.Py_ssize_t, queues=list, ports=list,
                   best=cython.Py_ssize_t, best_bytes=cython.longlong, best_busy=cython.bint, port=cython.Py_ssize_t,
                   load=cython.longlong, busy=cython.bint)
    cpdef choose(self, switch, packet, candidates)

cdef class PathAware(Adaptive):
    cpdef choose(self, switch, packet, candidates)
