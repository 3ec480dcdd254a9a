# Cython declarations for queues.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.packet cimport Packet

cdef class QueuePolicy

cdef class OutputQueue:
    cdef public double capacity_bytes
    cdef public QueuePolicy policy
    cdef public object rng
    cdef public list fifos
    cdef public list priority_bytes
    cdef public long long bytes
    cdef public long long max_bytes
    cdef public long long packets
    cdef public long long dropped_packets
    cdef public long long dropped_bytes
    cdef public long long nonempty

    @cython.locals(admitted=Packet, prio=cython.int, size=cython.longlong)
    cpdef enqueue(self, Packet packet)
    @cython.locals(ready=object, prio=cython.int, packet=Packet, size=cython.longlong)
    cpdef dequeue(self, long long paused_mask, credits_bytes)

cdef class QueuePolicy:
    cdef public object ecn

    cpdef admit(self, OutputQueue queue, Packet packet)
    cpdef mark(self, OutputQueue queue, Packet packet)

cdef class DropTail(QueuePolicy):
    cpdef admit(self, OutputQueue queue, Packet packet)
