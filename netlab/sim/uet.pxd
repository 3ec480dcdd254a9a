# Cython declarations for uet.py (the compiled fast path; see netlab/sim/compiled.py).
# Bitmaps, sequence numbers and transmission indices stay Python integers.
cimport cython
from netlab.sim.packet cimport Packet
from netlab.sim.transport cimport Receiver, Sender

cdef class UETSender(Sender):
    cdef public object config
    cdef public object max_cwnd_bytes
    cdef public object cwnd_bytes
    cdef public object acked
    cdef public object acked_bits
    cdef public object _all_bits
    cdef public object n_acked
    cdef public object cumulative_acked
    cdef public object next_new
    cdef public object resend
    cdef public object in_flight
    cdef public dict tx_of
    cdef public object in_flight_bytes
    cdef public object tx_count
    cdef public object credits
    cdef public object trim_nacks
    cdef public object presumed_lost

    cpdef _next_seq(self)
    cpdef has_packet(self)
    cpdef next_size_bytes(self)
    cpdef make_packet(self)
    cpdef on_control(self, Packet packet)
    cpdef on_sack(self, packet)
    cpdef on_nack(self, packet)
    cpdef on_timeout(self)
    cpdef _wire_bytes(self, seq)
    cpdef _window_full(self)
    cpdef _forget(self, tx)
    cpdef _ack(self, seq)

cdef class UETReceiver(Receiver):
    cdef public object config
    cdef public object n_packets
    cdef public object received_mask
    cdef public object n_received
    cdef public object cumulative
    cdef public object trimmed_received
    cdef public object released_bytes
    cdef public object scheduler
    cdef public object grants
    cdef public object unacked
    cdef public object sacks_sent

    cpdef on_packet(self, Packet packet)
    cpdef place(self, Packet packet)
    cpdef _sack(self, Packet packet)
