"""Chapter 3's figures (netlab.rdma.figures), against the host-path model they draw."""

import matplotlib
import pytest

matplotlib.use("Agg")

from hypothesis import given, settings, strategies as st

from netlab import specs
from netlab.rdma import hoststack, figures as ph
from netlab.units import KiB, MiB, us
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

R400 = specs.value("eth.400g.port_rate")

API = {
    ph.three_paths: dict(size_bytes=64 * KiB, bandwidth_bps=R400),
    ph.gain_crossing_bytes: dict(bandwidth_bps=R400),
    ph.draw_latency_breakdown: dict(size_bytes=64 * KiB, bandwidth_bps=R400),
    ph.draw_gpudirect_gain: dict(bandwidth_bps=R400, label="400G"),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_bad_numbers_are_refused(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_the_bars_add_up_to_each_paths_latency():
    fig = ph.draw_latency_breakdown(1 * MiB, R400)
    ax = fig.axes[0]
    totals = {}
    for patch in ax.patches:                       # horizontal stacked bars: one row per path
        row = round(patch.get_y() + patch.get_height() / 2)
        totals[row] = max(totals.get(row, 0.0), patch.get_x() + patch.get_width())
    paths = ph.three_paths(1 * MiB, R400)
    expected = sorted(r.latency_s / us for r in paths.values())
    assert sorted(totals.values()) == pytest.approx(expected, rel=1e-9)


def test_the_crossing_is_where_the_gain_falls_below_30_percent():
    cross = ph.gain_crossing_bytes(specs.value("eth.100g.port_rate"))
    assert cross is not None
    assert hoststack.gpudirect_gain(cross, specs.value("eth.100g.port_rate")).gain < 0.30
    smaller = [n for n in ph.GAIN_SIZES if n < cross]
    assert all(hoststack.gpudirect_gain(n, specs.value("eth.100g.port_rate")).gain >= 0.30 for n in smaller)


def test_the_gain_figure_marks_the_claim():
    fig = ph.draw_gpudirect_gain(R400, "400G")
    labels = [line.get_label() for line in fig.axes[0].get_lines()]
    assert "the claimed 30 %" in labels and "400G link" in labels
