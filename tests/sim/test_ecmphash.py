"""ECMP's hash (netlab/sim/ecmphash.py, and ecmphash.pyx in the compiled build) is zlib's
CRC-32 of the four words packed little-endian, on random and edge-case words."""

import random
import struct
import zlib

import pytest

from netlab.sim import ecmphash


def _zlib(src, dst, entropy, salt):
    return zlib.crc32(struct.pack("<IIII", src, dst, entropy, salt))


EDGES = (0, 1, 0xFF, 0x100, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF)


@pytest.mark.parametrize("seed", range(4))
def test_flow_hash_is_zlibs_crc32_of_the_packed_words(seed):
    rng = random.Random(seed)
    for _ in range(3000):
        words = [rng.choice(EDGES) if rng.random() < 0.2 else rng.getrandbits(rng.choice((8, 16, 32)))
                 for _ in range(4)]
        assert ecmphash.flow_hash(*words) == _zlib(*words), words


def test_flow_hash_of_known_words():
    # zlib.crc32 of bytes(16) and of b"\x01\x00\x00\x00" * 4, their values written here so that a change of
    # byte order or of initial value fails even if both sides changed together
    assert ecmphash.flow_hash(0, 0, 0, 0) == zlib.crc32(bytes(16)) == 0xECBB4B55
    assert ecmphash.flow_hash(1, 1, 1, 1) == zlib.crc32(b"\x01\x00\x00\x00" * 4) == 0xAD60F150
    assert ecmphash.flow_hash(1, 2, 3, 4) != ecmphash.flow_hash(4, 3, 2, 1)


def test_a_word_beyond_32_bits_is_refused():
    with pytest.raises((OverflowError, struct.error)):
        ecmphash.flow_hash(1 << 32, 0, 0, 0)
