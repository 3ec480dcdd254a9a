"""Units: decimal and binary prefixes apart; formatters."""

from netlab import units


def test_prefix_families_differ():
    assert units.KB == 1000 and units.KiB == 1024
    assert units.GiB / units.GB == 1.073741824


def test_byte_rates_are_bits_inside():
    assert 400 * units.Gbps / units.GBps == 50.0


def test_formatters():
    assert units.format_time(1.5e-6) == "1.5 µs"
    assert units.format_rate(4e11) == "400 Gb/s"
    assert units.format_byte_rate(4e11) == "50 GB/s"
    assert units.format_bytes(80e9) == "80 GB"
    assert units.format_bytes(80e9, binary=True) == "74.5 GiB"
    assert units.format_power(1.2e6) == "1.2 MW"
