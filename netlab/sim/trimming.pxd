# Cython declarations for trimming.py (the compiled fast path; see netlab/sim/compiled.py).
from netlab.sim.packet cimport Packet
from netlab.sim.queues cimport DropTail, OutputQueue, QueuePolicy

cdef str DATA   # (packet.py's, imported: a C string here)

cdef class Trimming(QueuePolicy):
    cdef public object trim_priority
    cdef public object header_buffer_bytes
    cdef public object trimmed_packets
    cdef public object headers_dropped

    cpdef admit(self, OutputQueue queue, Packet packet)

cdef class RandomLoss(QueuePolicy):
    cdef public object loss_rate
    cdef public DropTail inner
    cdef public object random_drops

    cpdef admit(self, OutputQueue queue, Packet packet)
