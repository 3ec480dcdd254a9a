# Cython declarations for switch.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.engine cimport Simulator
from netlab.sim.accounting cimport Ledger
from netlab.sim.ecmphash cimport flow_hash
from netlab.sim.packet cimport Packet
from netlab.sim.port cimport Port
from netlab.sim.queues cimport OutputQueue, QueuePolicy

# The packet kinds, imported from packet.py: C strings here, so a comparison is a C call.
cdef str DATA

cdef class Switch

cdef class LoadBalancer:

    cpdef choose(self, switch, packet, candidates)

cdef class ECMP(LoadBalancer):
    @cython.locals(sw=Switch, p=Packet)
    cpdef choose(self, switch, packet, candidates)

cdef class Switch:
    cdef public Ledger network
    cdef public Simulator sim
    cdef public object name
    cdef public object flow_control
    cdef public double latency_s
    cdef public bint cut_through
    cdef public object header_bytes
    cdef public QueuePolicy queue_policy
    cdef public LoadBalancer load_balancer
    cdef public object n_priorities
    cdef public unsigned int salt
    cdef public list ports
    cdef public list queues
    cdef public dict routes
    cdef public list by_edge
    cdef public list edge_of
    cdef public bint set_by_hand
    cdef public list ingress_bytes
    cdef public list pausing
    cdef public list xoff
    cdef public list xon
    cdef public bint _pfc
    cdef public bint _credits
    cdef public bint _lossless
    cdef public double _buffer_bytes

    @cython.locals(net=Ledger, size=cython.longlong, is_data=cython.bint, held=list, prio=cython.int, candidates=tuple,
                   upstream=Port, level=cython.longlong, xoff=cython.double, pausing=list)
    cpdef receive(self, Packet packet, Py_ssize_t in_port)
    @cython.locals(candidates=tuple)
    cpdef route(self, dst)
    @cython.locals(size=cython.longlong, is_data=cython.bint, queue=OutputQueue, port=Port, sim=Simulator,
                   now=cython.double, until=cython.double, busy=cython.bint, queued=Packet,
                   new_size=cython.longlong)
    cpdef _enqueue(self, Packet packet, Py_ssize_t out, bint delayed)
    cpdef _dropped(self, Packet packet, Py_ssize_t out)
    @cython.locals(queue=OutputQueue, packet=Packet)
    cpdef next_packet(self, Port port)
    @cython.locals(held=cython.longlong, in_port=cython.Py_ssize_t, prio=cython.int, ingress=list, upstream=Port,
                   level=cython.longlong, pausing=list)
    cpdef _release(self, Packet packet)
