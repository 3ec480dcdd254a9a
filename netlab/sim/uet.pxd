# Cython declarations for uet.py (the compiled fast path; see netlab/sim/compiled.py).
# Bitmaps and sequence numbers that meet shifts stay Python integers; counters, byte
# counts and transmission indices are C integers, windows and credits C doubles.
cimport cython
from netlab.sim.packet cimport Packet
from netlab.sim.transport cimport Receiver, Sender
from netlab.sim.uet_cc cimport CreditScheduler

cdef class UETSender(Sender):
    cdef public object config
    cdef public bint spray
    cdef public long long ack_every
    cdef public long long reorder_threshold
    cdef public double max_cwnd_bytes
    cdef public double cwnd_bytes
    cdef public bytearray acked
    cdef public object acked_bits
    cdef public object _all_bits
    cdef public long long n_acked
    cdef public long long cumulative_acked
    cdef public long long next_new
    cdef public object resend
    cdef public object in_flight
    cdef public dict tx_of
    cdef public long long in_flight_bytes
    cdef public long long tx_count
    cdef public double credits
    cdef public long long trim_nacks
    cdef public long long presumed_lost

    cpdef _next_seq(self)
    cpdef has_packet(self)
    cpdef next_size_bytes(self)
    @cython.locals(packet=Packet, tx=cython.longlong, resent=cython.bint)
    cpdef make_packet(self)
    cpdef on_control(self, Packet packet)
    @cython.locals(before=cython.longlong, limit=cython.longlong, acked=bytearray, tx_of=dict, s=cython.Py_ssize_t,
                   tx=cython.longlong)
    cpdef on_sack(self, Packet packet)
    cpdef on_nack(self, Packet packet)
    cpdef on_timeout(self)
    cpdef long long _wire_bytes(self, long long seq) except? -1
    cpdef _window_full(self)
    cpdef _forget(self, tx)
    cpdef _ack(self, seq)

cdef class UETReceiver(Receiver):
    cdef public object config
    cdef public long long ack_every
    cdef public bint rod
    cdef public long long n_packets
    cdef public object received_mask
    cdef public long long n_received
    cdef public long long cumulative
    cdef public long long trimmed_received
    cdef public object released_bytes
    cdef public CreditScheduler scheduler
    cdef public object grants
    cdef public long long unacked
    cdef public long long sacks_sent

    cpdef on_packet(self, Packet packet)
    cpdef place(self, Packet packet)
    cpdef _sack(self, Packet packet)
