# Cython declarations for loadbalance.py (the compiled fast path; see netlab/sim/compiled.py).
from netlab.sim.switch cimport LoadBalancer

cdef class Spray(LoadBalancer):
    cdef public object random
    cdef public object shuffle
    cdef public dict _turn

    cpdef choose(self, switch, packet, candidates)

cdef class Adaptive(LoadBalancer):
    cdef public dict _turn

    cpdef choose(self, switch, packet, candidates)

cdef class PathAware(Adaptive):
    cpdef choose(self, switch, packet, candidates)
