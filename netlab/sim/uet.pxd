# Cython declarations for uet.py (the compiled fast path; see netlab/sim/compiled.py).
# Counters, byte counts, sequence numbers and transmission indices are C integers, a SACK's
# 64-bit bitmap a C unsigned integer, windows and credits C doubles.
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
    cdef public long long n_acked
    cdef public long long cumulative_acked
    cdef public long long next_new
    cdef public object resend
    cdef public list tx_seq
    cdef public bytearray tx_live
    cdef public long long oldest_tx
    cdef public long long n_in_flight
    cdef public list tx_of
    cdef public long long in_flight_bytes
    cdef public long long tx_count
    cdef public double credits
    cdef public long long trim_nacks
    cdef public long long presumed_lost
    cdef public long long ack_request_tx
    cdef public bint probe_pending
    cdef public long long ack_probes

    cpdef _next_seq(self)
    cpdef has_packet(self)
    cpdef next_size_bytes(self)
    @cython.locals(packet=Packet, tx=cython.longlong, resent=cython.bint)
    cpdef make_packet(self)
    @cython.locals(packet=Packet)
    cpdef _ack_request_probe(self)
    @cython.locals(tx=cython.Py_ssize_t)
    cpdef _check_blocked(self)
    cpdef on_control(self, Packet packet)
    @cython.locals(before=cython.longlong, limit=cython.longlong, s=cython.Py_ssize_t, n=cython.Py_ssize_t,
                   tx=cython.longlong, cumulative=cython.Py_ssize_t, bitmap=cython.ulonglong, seq=cython.Py_ssize_t,
                   first=cython.Py_ssize_t)
    cpdef on_sack(self, Packet packet)
    cpdef on_nack(self, Packet packet)
    @cython.locals(first=cython.Py_ssize_t)
    cpdef on_timeout(self)
    cpdef long long _wire_bytes(self, long long seq) except? -1
    cpdef _window_full(self)
    @cython.locals(seq=cython.Py_ssize_t)
    cpdef _forget(self, Py_ssize_t tx)
    @cython.locals(tx=cython.Py_ssize_t)
    cpdef _ack(self, Py_ssize_t seq)

cdef class UETReceiver(Receiver):
    cdef public object config
    cdef public long long ack_every
    cdef public bint rod
    cdef public long long n_packets
    cdef public bytearray received
    cdef public long long highest
    cdef public long long n_received
    cdef public long long cumulative
    cdef public long long trimmed_received
    cdef public object released_bytes
    cdef public CreditScheduler scheduler
    cdef public object grants
    cdef public long long unacked
    cdef public long long sacks_sent
    cdef public bint ack_next

    @cython.locals(seq=cython.Py_ssize_t)
    cpdef on_packet(self, Packet packet)
    cpdef place(self, Packet packet)
    @cython.locals(bitmap=cython.ulonglong, s=cython.Py_ssize_t, count=cython.longlong)
    cpdef _sack(self, Packet packet)
