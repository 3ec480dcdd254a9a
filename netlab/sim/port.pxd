# Cython declarations for port.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.eventheap cimport EventHeap
from netlab.sim.engine cimport Simulator
from netlab.sim.host cimport Host
from netlab.sim.packet cimport Packet
from netlab.sim.queues cimport OutputQueue

@cython.final
cdef class Port:
    cdef public Simulator sim
    cdef public object node
    cdef public Py_ssize_t index
    cdef public object name
    cdef public double bandwidth_bps
    cdef public double propagation_s
    cdef public object peer
    cdef public Py_ssize_t peer_index
    cdef public Port reverse
    cdef public OutputQueue queue
    cdef public Host lazy_host
    cdef public double busy_until
    cdef public list paused
    cdef public long long paused_mask
    cdef public long long n_paused
    cdef public double paused_since_s
    cdef public long long pause_events
    cdef public double paused_time_s
    cdef public object credits_bytes
    cdef public object min_credits_bytes
    cdef public long long tx_bytes
    cdef public long long tx_packets
    cdef public double _bits_to_s
    cdef public EventHeap _heap
    cdef public object _next_packet
    cdef public object _end
    cdef public long long _end_seq
    cdef public bint _end_pushed
    cdef public object _deliver
    cdef public object _peer_header_bytes

    @cython.locals(sim=Simulator)
    cpdef bint is_busy(self)
    cpdef kick(self)
    @cython.locals(packet=Packet)
    cpdef _start(self)
    @cython.locals(now=cython.double, size=cython.longlong, end=cython.double, tail=cython.double,
                   arrive=cython.double, queue=OutputQueue, defer=cython.bint, seq=cython.longlong, host=Host,
                   heap=EventHeap)
    cpdef transmit(self, Packet packet)
    cpdef notify(self)
    cpdef wait_for_end(self)
