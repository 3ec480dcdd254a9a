"""netlab.lossless.roce: the PFC headroom budget against NVIDIA's published formula and hand sums."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import specs
from netlab.lossless import roce
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    roce.headroom: dict(bandwidth_bps=100e9, cable_m=100.0, mtu_bytes=4096, response_s=2e-6,
                        round_trip_s_per_m=9.8e-9, frames=2.0, pause_frame=True, label=""),
    roce.mlx5_headroom: dict(bandwidth_bps=100e9, cable_m=100.0, mtu_bytes=4096),
    roce.fibre_headroom: dict(bandwidth_bps=100e9, cable_m=100.0, mtu_bytes=4096, response_s=2e-6),
    roce.headroom_buffer_bytes: dict(headroom_bytes=60e3, n_ports=64, n_lossless=1),
    roce.mlx5_response_s: dict(),
    roce.nvidia_lossless_class: dict(),
}


@pytest.mark.parametrize("func", [f for f in API if numeric_params(API[f])], ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


# NVIDIA's published formula (Linux mlx5e driver, port_buffer.c):
#   xoff = (301 + 2.16 x len[m]) x speed[Gb/s] + 2.72 x MTU[B], speed at least 40 Gb/s.
# Each expected value is that formula worked by hand:
VENDOR_POINTS = [
    # (speed Gb/s, cable m, MTU B, bytes)
    (25, 3, 1024, 15_084.48),      # speed raised to 40: (301 + 6.48) x 40 = 12,299.2; + 2.72 x 1024 = 2,785.28
    (100, 5, 4096, 42_321.12),     # (301 + 10.8) x 100 = 31,180; + 2.72 x 4096 = 11,141.12
    (100, 100, 4096, 62_841.12),   # (301 + 216) x 100 = 51,700; + 11,141.12
    (200, 30, 9216, 98_227.52),    # (301 + 64.8) x 200 = 73,160; + 2.72 x 9216 = 25,067.52
    (400, 50, 4096, 174_741.12),   # (301 + 108) x 400 = 163,600; + 11,141.12
    (800, 2, 4096, 255_397.12),    # (301 + 4.32) x 800 = 244,256; + 11,141.12
]


@pytest.mark.parametrize("gbps, cable_m, mtu, expected", VENDOR_POINTS)
def test_the_budget_with_nvidias_constants_matches_the_published_formula(gbps, cable_m, mtu, expected):
    budget = roce.mlx5_headroom(gbps * 1e9, cable_m, mtu)
    assert budget.total_bytes == pytest.approx(expected, rel=1e-9)


def test_the_formula_read_as_delays():
    # 301 B per Gb/s: 301 x 8 bits at 1 Gb/s = 2.408 µs; 2.16 B per m and Gb/s: 17.28 ns of round trip per m.
    assert roce.mlx5_response_s() == pytest.approx(2.408e-6)
    b = roce.mlx5_headroom(100e9, 100, 4096)
    assert b.cable_bytes == pytest.approx(21_600) and b.response_bytes == pytest.approx(30_100)
    assert b.frames_bytes == pytest.approx(11_141.12) and b.response_s == pytest.approx(2.408e-6)


def test_the_fibre_budget_by_hand():
    # 100 Gb/s = 12.5e9 B/s; fibre 2 x 100 m x 1.468 / 299,792,458 m/s = 979.35 ns: 12,241.9 B;
    # 2 µs response: 25,000 B; two 4096-byte frames and the 64-byte pause frame: 8,256 B.
    b = roce.headroom(100e9, 100, 4096, 2e-6)
    assert b.cable_bytes == pytest.approx(12.5e9 * 2 * 100 * 1.468 / 299_792_458, rel=1e-9)
    assert b.total_bytes == pytest.approx(12_241.9 + 25_000 + 8_256, rel=1e-5)


def test_the_vendor_formula_is_above_the_fibre_budget_by_its_margins():
    # Same response time; the formula counts 17.28 ns/m of round trip (fibre 9.79) and 2.72 frames (2 + pause).
    for gbps, cable_m, mtu, _ in VENDOR_POINTS:
        if gbps >= 40:
            vendor, fibre = roce.mlx5_headroom(gbps * 1e9, cable_m, mtu), roce.fibre_headroom(gbps * 1e9, cable_m, mtu)
            assert vendor.response_bytes == pytest.approx(fibre.response_bytes)
            assert vendor.cable_bytes / fibre.cable_bytes == pytest.approx(17.28e-9 / 9.7935e-9, rel=1e-4)
            assert vendor.total_bytes > fibre.total_bytes


def test_the_ieee_pause_reaction_time_is_close_to_the_formulas():
    # 394 quanta x 512 bit at 100 Gb/s = 2.017 µs, below the formula's 2.408 µs.
    ieee = specs.value("roce.ieee.pause_response_100g")
    assert ieee == pytest.approx(394 * 512 / 100e9)
    assert 0.8 < ieee / roce.mlx5_response_s() < 0.9


def test_over_distance_the_cable_is_everything():
    # 800 Gb/s over 10 km: the fibre's round trip holds 1e11 B/s x 97.93 µs = 9.79 MB; response and frames
    # add a quarter of a MB.
    b = roce.fibre_headroom(800e9, 10_000)
    assert b.cable_bytes == pytest.approx(1e11 * 2 * 10_000 * 1.468 / 299_792_458, rel=1e-9)
    assert b.cable_bytes / b.total_bytes > 0.97


def test_headroom_is_reserved_per_port_and_priority():
    assert roce.headroom_buffer_bytes(62_841.12, 64, 2) == pytest.approx(62_841.12 * 128)


def test_the_lossless_class_is_nvidias_shipped_default():
    c = roce.nvidia_lossless_class()
    assert (c.roce_priority, c.cnp_priority) == (3, 6)
    assert (c.ecn_min_bytes, c.ecn_max_bytes) == (150e3, 1500e3)
    assert "priority 3" in str(c)


def test_shipped_ecn_thresholds_as_read_from_the_sources():
    # NVIDIA's 'show roce': Min 150, Max 1500 (read as KB); SONiC's qos_config.j2: 1048576 and 2097152 bytes,
    # probability 5 (per cent). Both far above the DCQCN paper's 5 KB / 200 KB for 40 Gb/s.
    assert (specs.value("roce.sonic.ecn_min"), specs.value("roce.sonic.ecn_max")) == (2 ** 20, 2 ** 21)
    assert specs.value("roce.sonic.ecn_pmax") == 0.05
    assert specs.value("roce.nvidia.ecn_min") / specs.value("dcqcn.paper.kmin") == pytest.approx(30)


def test_chapter_4_headroom_table_matches_the_model():
    # Each row of chapter 4's table: the formula by hand (VENDOR_POINTS), mlx5_headroom, and the fibre budget.
    import pathlib
    import re
    text = (pathlib.Path(__file__).resolve().parents[2] / "book" / "ch04-infiniband-vs-ethernet.md").read_text()
    rows = re.findall(r"^\| (\d+) Gb/s[^|]*\| (\d+) m \| ([\d,]+) B \| ([\d,.]+) B \| ([\d,.]+) B \| ([\d,.]+) B \|$",
                      text, re.M)
    assert len(rows) == len(VENDOR_POINTS)
    for (gbps, cable, mtu, by_hand, model, fibre), point in zip(rows, VENDOR_POINTS):
        g, L, m = int(gbps), int(cable), int(mtu.replace(",", ""))
        assert (g, L, m) == point[:3]
        assert float(by_hand.replace(",", "")) == pytest.approx(point[3], abs=0.005)
        assert float(model.replace(",", "")) == pytest.approx(roce.mlx5_headroom(g * 1e9, L, m).total_bytes, abs=0.005)
        assert float(fibre.replace(",", "")) == pytest.approx(roce.fibre_headroom(g * 1e9, L, m).total_bytes, abs=0.05)
