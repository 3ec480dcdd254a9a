# Cython declarations for flow.py (the compiled fast path; see netlab/sim/compiled.py).
cdef class Flow:
    cdef dict __dict__
    cdef public Py_ssize_t flow_id
    cdef public object src
    cdef public object dst
    cdef public Py_ssize_t src_id
    cdef public Py_ssize_t dst_id
    cdef public long long size_bytes
    cdef public object start_s
    cdef public int priority
    cdef public int ack_priority
    cdef public object entropy
    cdef public object sender
    cdef public object receiver
