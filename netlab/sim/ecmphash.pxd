# Declarations of ecmphash.pyx (the compiled build's ECMP hash; see netlab/sim/compiled.py).
# switch.pxd cimports flow_hash, so the compiled ECMP calls it as a C function.

cpdef unsigned int flow_hash(unsigned int src, unsigned int dst, unsigned int entropy, unsigned int salt)
