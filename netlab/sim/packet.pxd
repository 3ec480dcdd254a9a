# Cython declarations for packet.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
# Sequence numbers, offsets and entropy stay Python integers: they meet shifts and masks.
# no_gc: a packet holds no reference that could lead back to it (info is a number or a
# tuple of numbers), so the cyclic garbage collector need not track it.
@cython.no_gc
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
