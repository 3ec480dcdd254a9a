# Cython declarations for cc.py (the compiled fast path; see netlab/sim/compiled.py).
# The base class is an extension type so that NSCC (uet_cc.pxd) can be one; it keeps a
# per-object dictionary, as subclasses written in Python (DCQCN, a reader's own) set
# attributes of their own.

cdef class CongestionControl:
    cdef dict __dict__

    cpdef attach(self, sender)
    cpdef detach(self, sender)
    cpdef on_send(self, sender, packet)
    cpdef on_ack(self, sender, packet)
    cpdef on_cnp(self, sender, packet)
    cpdef on_timeout(self, sender)
