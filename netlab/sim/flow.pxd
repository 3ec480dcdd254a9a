# Cython declarations for flow.py (the compiled fast path; see netlab/sim/compiled.py).
cdef class Flow:
    cdef dict __dict__
    cdef public object flow_id
    cdef public object src
    cdef public object dst
    cdef public object src_id
    cdef public object dst_id
    cdef public object size_bytes
    cdef public object start_s
    cdef public object priority
    cdef public object ack_priority
    cdef public object entropy
    cdef public object sender
    cdef public object receiver
