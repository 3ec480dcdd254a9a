"""netlab.collectives.protocols: LL, LL128 and Simple derived from NCCL 2.30.7's formats, by hand."""

import pytest

from netlab import specs
from netlab.collectives import protocols as pr

API = {
    pr.protocol_format: dict(protocol="ll128"),
    pr.protocol_formats: dict(),
    pr.wire_bytes: dict(n_bytes=1000.0, protocol="ll"),
    pr.crossovers: dict(n_ranks=8, n_nodes=1, algorithm="ring", fabric="nvlink"),
}


def test_payload_shares_follow_from_the_line_formats():
    # LL: an 8-byte store = 4 B data + 4 B flag -> 1/2. LL128: 128 B line, one 8-byte element of 16
    # is the flag -> 120/128 = 15/16. Simple: one 8-byte counter per 512 KiB step (4 MiB / 8 steps).
    ll, ll128, simple = pr.protocol_formats()
    assert (ll.payload_bytes, ll.flag_bytes, ll.efficiency) == (4, 4, 0.5)
    assert (ll128.payload_bytes, ll128.flag_bytes, ll128.efficiency) == (120, 8, 0.9375)
    assert simple.payload_bytes == 4 * 2**20 // 8
    assert simple.efficiency == pytest.approx(1 - 8 / (512 * 1024 + 8), rel=1e-12)
    # NCCL's tuner charges LL exactly its format (0.5) but LL128 0.92, below the format's 0.9375.
    assert ll.efficiency == 0.5 and 0.92 < ll128.efficiency


def test_buffers_per_channel_by_hand():
    # LL: 8 lines per thread x 512 threads x 8 steps x 16 B = 512 KiB (half of it data);
    # LL128: 120 elements x 640 threads x 8 steps x 8 B = 4,915,200 B; Simple: 4 MiB.
    ll, ll128, simple = pr.protocol_formats()
    assert ll.buffer_bytes == 524288 and ll.payload_per_buffer_bytes == 262144
    assert ll128.buffer_bytes == 4915200 and ll128.payload_per_buffer_bytes == 4915200 * 15 / 16
    assert simple.buffer_bytes == 4194304


def test_wire_bytes_count_whole_units():
    assert pr.wire_bytes(1000, "ll") == 2000                  # 250 stores of 8 B
    assert pr.wire_bytes(1000, "ll128") == 9 * 128            # ceil(1000 / 120) = 9 lines
    assert pr.wire_bytes(120, "ll128") == 128
    assert pr.wire_bytes(0, "simple") == 0


def test_ring_crossovers_on_one_h100_node_in_closed_form():
    # LL: 15.0 µs, algbw 141 x 8/14 GB/s; LL128: 40.6 µs, 0.92 x 370.8 x 8/14; Simple: 56.0 µs,
    # 370.8 x 8/14. S* = (lat_b - lat_a) / (1/algbw_a - 1/algbw_b).
    ll, ll128, simple = 141 * 8 / 14 * 1e9, 0.92 * 370.8 * 8 / 14 * 1e9, 370.8 * 8 / 14 * 1e9
    first = 25.6e-6 / (1 / ll - 1 / ll128)
    second = 15.4e-6 / (1 / ll128 - 1 / simple)
    a, b = pr.crossovers(8)
    assert (a.faster_small, a.faster_large) == ("ll", "ll128")
    assert a.n_bytes == pytest.approx(first, rel=1e-6)           # 3.52 MB
    assert b.n_bytes == pytest.approx(second, rel=1e-6)          # 37.5 MB
    # Over PCIe there is no LL128: one crossover, LL to Simple, by hand:
    # LL 6.6 + 14 x 1.0 = 20.6 µs at min(141, 63/2 GB/s); Simple 8.4 + 14 x 5.7 = 88.2 µs at 63 GB/s.
    (pcie,) = pr.crossovers(8, fabric="pcie")
    pcie_bus = specs.value("pcie.5.x16_rate") / 8
    hand = (88.2e-6 - 20.6e-6) / (1 / (pcie_bus / 2 * 8 / 14) - 1 / (pcie_bus * 8 / 14))
    assert pcie.n_bytes == pytest.approx(hand, rel=1e-6)


def test_refusals():
    with pytest.raises(ValueError, match="protocol"):
        pr.protocol_format("ll64")
    with pytest.raises(ValueError, match="algorithm"):
        pr.crossovers(8, algorithm="nvls")
