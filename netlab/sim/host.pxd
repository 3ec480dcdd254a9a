# Cython declarations for host.py (the compiled fast path; see netlab/sim/compiled.py).
cimport cython
from netlab.sim.engine cimport Simulator
from netlab.sim.packet cimport Packet
from netlab.sim.port cimport Port
from netlab.sim.accounting cimport Ledger
from netlab.sim.transport cimport Receiver, Sender

cdef str DATA   # (packet.py's, imported: a C string here)

cdef class Host:
    cdef public Ledger network
    cdef public Simulator sim
    cdef public object name
    cdef public object id
    cdef public list ports
    cdef public Port nic
    cdef public list senders
    cdef public dict senders_by_flow
    cdef public dict receivers
    cdef public object control
    cdef public Py_ssize_t _rr
    cdef public double _wake_s

    cpdef send_control(self, Packet packet)
    cpdef kick(self)
    @cython.locals(senders=list, sender=Sender)
    cpdef idle_after_send(self)
    @cython.locals(packet=Packet, sender=Sender, senders=list, n=cython.Py_ssize_t, i=cython.Py_ssize_t, now=cython.double,
                   soonest=cython.double, ready_s=cython.double)
    cpdef next_packet(self, Port port)
    @cython.locals(receiver=Receiver, sender=Sender)
    cpdef receive(self, Packet packet, Py_ssize_t in_port)
