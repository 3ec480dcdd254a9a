"""netlab.links against hand-computed values."""

import math

from hypothesis import given, settings, strategies as st
import pytest

from netlab import links
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    links.serialization_time: dict(n_bytes=4096, bandwidth_bps=100e9),
    links.propagation_time: dict(distance_m=1000.0, group_index=1.468),
    links.bandwidth_delay_product: dict(bandwidth_bps=400e9, rtt_s=8e-6),
    links.alpha_beta: dict(n_bytes=1e6, alpha_s=5e-6, bandwidth_bps=100e9),
    links.path_time: dict(n_bytes=1e6, hops=3, bandwidth_bps=100e9, latency_per_hop_s=1e-6,
                          mtu_bytes=4096, header_bytes=0),
    links.serialization_propagation_crossover_m: dict(n_bytes=4096, bandwidth_bps=400e9, group_index=1.468),
    links.link_delay: dict(n_bytes=4096, bandwidth_bps=400e9, distance_m=10.0),
    links.draw_link_delay: dict(n_bytes=4096, bandwidth_bps=400e9, distance_m=10.0),
    links.draw_path_breakdown: dict(n_bytes=1e6, bandwidth_bps=100e9, hops=3, latency_per_hop_s=1e-6),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_serialization_4kib_at_100g():
    # 4096 B * 8 = 32768 bits; / 1e11 b/s = 327.68 ns
    assert links.serialization_time(4096, 100e9) == pytest.approx(327.68e-9, rel=1e-12)


def test_zero_bandwidth_is_refused():
    with pytest.raises(ValueError, match="bandwidth_bps"):
        links.serialization_time(1, 0)


def test_issue_example_1mb_4kib_3_hops():
    # 1 MB = 1e6 B in 4096-B packets: 245 packets (244 full, one of 576 B).
    # Store-and-forward: 3 hops x 1 us + 2 x 4096*8/1e11 + 8e6/1e11
    #   = 3 us + 0.65536 us + 80 us = 83.65536 us.
    r = links.path_time(1e6, hops=3, bandwidth_bps=100e9, latency_per_hop_s=1e-6, mtu_bytes=4096)
    assert r.n_packets == 245
    assert r.time_s == pytest.approx(83.65536e-6, rel=1e-12)
    assert r.serialization_s == pytest.approx(80e-6)
    assert r.pipeline_fill_s == pytest.approx(0.65536e-6)


def test_cut_through_waits_only_for_headers():
    # 2 switches, 64-B headers: fill = 2 x 64*8/1e11 = 10.24 ns; wire bytes include 245 headers.
    r = links.path_time(1e6, 3, 100e9, 1e-6, mtu_bytes=4096, header_bytes=64, switching="cut_through")
    wire = (1e6 + 245 * 64) * 8 / 100e9
    assert r.time_s == pytest.approx(wire + 2 * 64 * 8 / 100e9 + 3e-6, rel=1e-12)


def test_single_small_packet_is_store_and_forward_per_hop():
    # One 100-byte packet over 4 hops: each hop serializes it once, plus 4 latencies.
    r = links.path_time(100, 4, 10e9, 2e-6)
    assert r.time_s == pytest.approx(4 * (100 * 8 / 10e9) + 4 * 2e-6, rel=1e-12)


def test_alpha_beta_half_bandwidth_point():
    r = links.alpha_beta(62_500, 5e-6, 100e9)   # n = alpha * beta = 62.5 KB
    assert r.effective_bandwidth_bps == pytest.approx(50e9)
    assert r.half_bandwidth_bytes == pytest.approx(62_500)
    assert links.alpha_beta(1e3, 5e-6, 100e9).regime == "latency-bound"
    assert links.alpha_beta(1e8, 5e-6, 100e9).regime == "bandwidth-bound"


def test_fibre_propagation_per_km():
    # 1.468 / 299792.458 km/s = 4.8967 us per km (fact sheet H: 4.897 us/km)
    assert links.propagation_time(1000) == pytest.approx(4.897e-6, rel=1e-3)
    assert links.propagation_time(1000, group_index=1.0) == pytest.approx(3.3356e-6, rel=1e-4)


def test_bdp_400g_8us():
    assert links.bandwidth_delay_product(400e9, 8e-6) == pytest.approx(400_000)


@given(n=st.floats(1, 1e9), hops=st.integers(1, 8), rate=st.floats(1e9, 1e12), lat=st.floats(0, 1e-5))
def test_path_time_bounds(n, hops, rate, lat):
    """Never faster than one serialization plus the latencies; never slower than full
    store-and-forward of the whole message at every hop."""
    r = links.path_time(n, hops, rate, lat)
    lower = n * 8 / rate + hops * lat
    upper = hops * (n * 8 / rate) + hops * lat
    assert lower * (1 - 1e-12) <= r.time_s <= upper * (1 + 1e-12)
    assert math.isclose(r.time_s, r.serialization_s + r.pipeline_fill_s + r.latency_s)


def test_serialization_propagation_crossover_by_hand():
    # 4096 bytes at 400 Gb/s: 81.92 ns; fibre 1.468 / 299,792,458 m/s = 4.8967 ns/m -> 16.73 m
    c = 299_792_458.0
    n_g = links.fiber_group_index()
    assert links.serialization_propagation_crossover_m(4096, 400e9) == pytest.approx(4096 * 8 / 400e9 * c / n_g)
    assert links.serialization_propagation_crossover_m(64, 800e9) == pytest.approx(0.1307, rel=1e-3)
    d = links.link_delay(4096, 400e9, 100_000)
    assert d.rtt_s == pytest.approx(2 * 100_000 * n_g / c)
    assert d.bdp_bytes == pytest.approx(400e9 * 2 * 100_000 * n_g / c / 8)   # 49.0 MB
    assert "propagation dominates" in str(d) and "serialization dominates" in str(links.link_delay(4096, 400e9, 2))


def test_e9_fifty_nanoseconds_is_ten_metres_of_fibre():
    assert 50e-9 / links.propagation_time(1.0) == pytest.approx(10.2, abs=0.05)


def test_path_time_reads_as_a_sentence():
    text = str(links.path_time(1e6, 3, 100e9, 0.5e-6))
    assert "PathTime(" not in text and "of the total" in text


def test_lab2_uses_distance_and_computes_the_bdp_outside_the_exercises():
    import json
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[1] / "labs" / "lab02-links.ipynb"
    cells = json.loads(path.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert any("distance_m" in c and "Explorer" in c for c in code)
    assert any("bandwidth_delay_product" in c and "exercises" not in c for c in code)
    assert all(len(c.split("\n")) <= 20 for c in code)


def test_one_symbol_one_meaning_for_hops_and_headers():
    # h was hops in chapters 2-3, header bytes in chapter 4 and hidden size in chapter 1.
    import pathlib
    import re
    book = pathlib.Path(__file__).resolve().parents[1] / "book"
    pages = {p.name: p.read_text() for p in book.glob("ch[0-9]*.md")}
    for name, text in pages.items():
        assert not re.search(r"\$h\$-byte|P ?\+ ?h\)|8h/B|\\frac\{8h\}|hidden size \$h\$", text), name
    assert "hidden size $d_{model}$" in pages["ch01-training-is-networking.md"]
    assert "$H$-byte header" in pages["ch04-infiniband-vs-ethernet.md"]
    notation = pages["ch00-how-to-use.md"].split("## Notation", 1)[1]
    rows = [r for r in notation.splitlines() if r.startswith("| $")]
    symbols = [r.split("|")[1].strip() for r in rows]
    assert len(symbols) == len(set(symbols)) and "$h$" in symbols and "$H$" in symbols
    assert len(rows) >= 20 and all(len(r.split("|")) == 6 for r in rows)


@pytest.mark.parametrize("n_bytes, hops", [(64, 1), (4096, 4), (1 << 20, 4)])
def test_the_path_breakdown_key_does_not_cover_its_bar(n_bytes, hops):
    """Lab 2's figure: its one bar spans the axes, and a key placed 'best' sat on it (text on the colours)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = links.draw_path_breakdown(n_bytes, 400e9, hops, 250e-9)
    FigureCanvasAgg(fig)
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    left = fig.axes[0]
    key = left.get_legend().get_window_extent(renderer)
    bars = [p.get_window_extent(renderer) for p in left.patches if p.get_width() > 0]
    assert len(bars) >= 2 and not any(key.overlaps(bar) for bar in bars)     # 1 hop: no pipeline fill
