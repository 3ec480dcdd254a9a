# Cython declarations for accounting.py (the compiled fast path; see netlab/sim/compiled.py).
cdef class Ledger:
    cdef dict __dict__
    cdef public long long sent_bytes
    cdef public long long received_bytes
    cdef public long long dropped_bytes
    cdef public long long trimmed_bytes
    cdef public long long wire_bytes
    cdef public long long pipeline_bytes
    cdef public long long dropped_packets
    cdef public long long pfc_frames
    cdef public long long ack_bytes      # (set by Network: the size of an ACK on the wire)
