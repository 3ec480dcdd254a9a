"""ECMP's hash: CRC-32 of four little-endian 32-bit words (source, destination, entropy, salt).

:class:`~netlab.sim.switch.ECMP` takes ``flow_hash(...) % len(candidates)`` as a packet's
port, so every packet of a flow (same addresses, same entropy) takes the same path, and
each switch (its own ``salt``) spreads flows differently. This module is that and nothing
more: :mod:`zlib`'s CRC-32 of the 16 bytes that :mod:`struct` packs.

The compiled build (:mod:`netlab.sim.compiled`) replaces this module with
``ecmphash.pyx``: the same CRC-32 (the reflected polynomial 0xEDB88320, one table lookup
per byte) computed in C on the four numbers, without building the bytes object.
``tests/sim/test_ecmphash.py`` checks that both give zlib's value.
"""

import struct
from zlib import crc32

_FOUR_WORDS = struct.Struct("<IIII")


def flow_hash(src: int, dst: int, entropy: int, salt: int) -> int:
    """CRC-32 of (src, dst, entropy, salt), each a 32-bit unsigned word, little-endian."""
    return crc32(_FOUR_WORDS.pack(src, dst, entropy, salt))


__all__ = ["flow_hash"]
