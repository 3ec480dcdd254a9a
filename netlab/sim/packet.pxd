# Cython declarations for packet.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
# Sequence numbers, offsets and entropy stay Python integers: they meet shifts and masks.
# (no_gc, that the collector need not track a packet, is said in packet.py: Cython ignores it here.)
cdef class Packet:
    cdef public str kind
    cdef public object flow_id
    cdef public object src
    cdef public object dst
    cdef public object seq
    cdef public object offset_bytes
    cdef public object payload_bytes
    cdef public long long size_bytes
    cdef public int priority
    cdef public object entropy
    cdef public bint ecn
    cdef public bint trimmed
    cdef public double sent_s
    cdef public double tail_s
    cdef public Py_ssize_t in_port
    cdef public long long held_bytes
    cdef public long long hops
    cdef public object info
    cdef public bint ack_request
