# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled build's ECMP hash: zlib's CRC-32 of four 32-bit words, computed in C.

See ecmphash.py, the module this one stands in for: ``crc32(struct.pack("<IIII", src, dst,
entropy, salt))``. Here the 16 bytes are not built: each word is fed to the CRC low byte
first (little-endian), one lookup per byte in a table of the reflected polynomial
0xEDB88320 (the CRC-32 of zlib, Ethernet and PNG), with zlib's initial value and final
complement (0xFFFFFFFF). ``tests/sim/test_ecmphash.py`` checks it against zlib.
"""

cdef unsigned int _TABLE[256]


cdef void _fill_table():
    """_TABLE[b]: the CRC register after shifting byte b through it (reflected, bit by bit)."""
    cdef unsigned int b, crc
    cdef int bit
    for b in range(256):
        crc = b
        for bit in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0xEDB88320u
            else:
                crc >>= 1
        _TABLE[b] = crc


_fill_table()


cdef inline unsigned int _word(unsigned int crc, unsigned int word) noexcept nogil:
    """Feed one 32-bit word, low byte first."""
    cdef int k
    for k in range(4):
        crc = (crc >> 8) ^ _TABLE[(crc ^ word) & 0xFF]
        word >>= 8
    return crc


cpdef unsigned int flow_hash(unsigned int src, unsigned int dst, unsigned int entropy, unsigned int salt):
    """CRC-32 of (src, dst, entropy, salt), each a 32-bit unsigned word, little-endian."""
    cdef unsigned int crc = 0xFFFFFFFFu
    crc = _word(crc, src)
    crc = _word(crc, dst)
    crc = _word(crc, entropy)
    crc = _word(crc, salt)
    return crc ^ 0xFFFFFFFFu
