# Cython declarations for transport.py (the compiled fast path; see netlab/sim/compiled.py).
# Counters that meet shifts (packet counts, sequence numbers) stay Python integers.
cimport cython
from netlab.sim.engine cimport Simulator
from netlab.sim.packet cimport Packet
from netlab.sim.accounting cimport Ledger
from netlab.sim.flow cimport Flow
from netlab.sim.host cimport Host

cdef str ACK, CNP, DATA, NACK, SACK   # (packet.py's, imported: C strings here)

cdef class Sender:
    cdef public Ledger network
    cdef public Simulator sim
    cdef public Flow flow
    cdef public Host host
    cdef public int priority
    cdef public long long mtu_bytes
    cdef public long long header_bytes
    cdef public object n_packets
    cdef public double rto_s
    cdef public double line_rate_bps
    cdef public double rate_bps
    cdef public double next_send_s
    cdef public bint done
    cdef public long long packets_sent
    cdef public long long retransmitted_packets
    cdef public long long timeouts
    cdef public double _deadline_s
    cdef public bint _timer_pending
    cdef public bint lazy_nic
    cdef public object cc

    cpdef has_packet(self)
    cpdef make_packet(self)
    cpdef on_ack(self, Packet packet)
    cpdef on_nack(self, Packet packet)
    cpdef on_sack(self, Packet packet)
    cpdef on_timeout(self)
    cpdef double ready_at(self, double now_s) except? -1.0
    cpdef next_size_bytes(self)
    @cython.locals(packet=Packet, now=cython.double)
    cpdef next_packet(self)
    cpdef on_control(self, Packet packet)
    cpdef data_packet(self, seq)
    cpdef arm_timer(self, double deadline_s)
    cpdef cancel_timer(self)
    cpdef _timer_fire(self)
    cpdef finish(self)

cdef class Receiver:
    cdef dict __dict__
    cdef public Ledger network
    cdef public Simulator sim
    cdef public Flow flow
    cdef public Host host
    cdef public list ranges
    cdef public long long delivered_bytes
    cdef public long long duplicate_bytes
    cdef public long long out_of_order_packets
    cdef public long long packets_received
    cdef public object complete_s
    cdef public object cnp_interval_s
    cdef public double _last_cnp_s

    cpdef on_packet(self, Packet packet)
    @cython.locals(ranges=list, start=cython.longlong, end=cython.longlong, i=cython.Py_ssize_t, hi=cython.Py_ssize_t,
                   mid=cython.Py_ssize_t, mid_start=cython.longlong, covered=cython.longlong, j=cython.Py_ssize_t,
                   k=cython.Py_ssize_t, new_start=cython.longlong, new_end=cython.longlong, r_start=cython.longlong,
                   r_end=cython.longlong, fresh=cython.longlong)
    cpdef deliver(self, long long offset_bytes, long long n_bytes)
    cpdef send_ack(self, kind, seq, info=*)
    cpdef maybe_cnp(self, Packet packet)

cdef class GoBackNSender(Sender):
    cdef public long long acked
    cdef public long long next_seq
    cdef public long long highest_sent
    cdef public object window_packets

    cpdef has_packet(self)
    cpdef next_size_bytes(self)
    cpdef make_packet(self)
    cpdef _advance(self, cumulative)
    cpdef on_ack(self, Packet packet)
    cpdef on_nack(self, Packet packet)
    cpdef on_timeout(self)

cdef class GoBackNReceiver(Receiver):
    cdef public long long expected
    cdef public long long _nacked

    cpdef on_packet(self, Packet packet)
