"""netlab.optics.costs, the fabric price model chapters 5 and 11 share; chapter 9's energy-per-bit
table and goodput sentence, worked by hand."""

import pathlib

from hypothesis import given, settings, strategies as st
import pytest

from netlab.fabric import clos
from netlab import specs
from netlab.optics import costs, cpo, figures
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

_FAB = clos.for_switch("quantum2", 1024)

API = {
    costs.module_price_range: dict(port_rate_bps=400e9, optics="lpo"),
    costs.fabric_price: dict(fab=_FAB, optics="dsp_pluggable"),
    cpo.energy_per_bit_table: dict(),
    figures.goodput_summary: dict(n_gpus=4608, checkpoint_s=30.0, restart_s=180.0),
    figures.plot_goodput: dict(n_gpus=4608, checkpoint_s=30.0, restart_s=180.0),
}


@pytest.mark.parametrize("func", [f for f in API if numeric_params(API[f])], ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_module_prices_by_hand():
    # 400G DSP: the $600-800 street price; 800G: $1,100-1,400; 200G: half of 400G
    assert costs.module_price_range(400e9, "dsp_pluggable") == (600.0, 800.0)
    assert costs.module_price_range(800e9, "dsp_pluggable") == (1100.0, 1400.0)
    assert costs.module_price_range(200e9, "dsp_pluggable") == (300.0, 400.0)
    # LPO at the 800G LPO-to-DR8 ratio (700 + 900) / (1,100 + 1,400) = 0.64; CPO priced as LPO
    assert costs.module_price_range(400e9, "lpo") == (pytest.approx(384.0), pytest.approx(512.0))
    assert costs.module_price_range(400e9, "cpo") == costs.module_price_range(400e9, "lpo")


def test_fabric_price_by_hand():
    # 1,024 hosts on Quantum-2: 32 leaves + 16 spines, each 25.6 Tb/s = half of a $150,000-250,000
    # 64 x 800G switch; 1,024 host links + 1,024 leaf-spine links, all optical: 4,096 ends
    p = costs.fabric_price(_FAB)
    assert p.n_switches == 48 and p.switch_side_ends + p.nic_side_ends == 4096
    assert (p.switches_low_usd, p.switches_high_usd) == (48 * 75_000, 48 * 125_000)
    assert (p.low_usd, p.high_usd) == (48 * 75_000 + 4096 * 600, 48 * 125_000 + 4096 * 800)
    # LPO on the switches: the 1,024 NIC ends keep DSP pluggables
    lpo = costs.fabric_price(_FAB, "lpo")
    assert lpo.optics_low_usd == pytest.approx(3072 * 384 + 1024 * 600)


def test_energy_per_bit_by_hand_and_on_the_page():
    table = cpo.energy_per_bit_table()
    # 9 W / 400 Gb/s = 22.5 pJ/bit; 17 W / 800 Gb/s = 21.25; 8.5 / 800 = 10.625; 9 W / 1.6 Tb/s = 5.625;
    # 0.1 W / 800 Gb/s = 0.125 pJ/bit per copper end
    for text in ("22.5 pJ/bit", "21.2 pJ/bit", "10.6 pJ/bit", "5.62 pJ/bit", "0.125 pJ/bit"):
        assert text in table
    page = (pathlib.Path(__file__).parents[2] / "book" / "ch09-optics-and-power.md").read_text()
    assert table in page
    # a row divided by an assumed rate (NVIDIA's 30 W / 9 W come with no port rate) says so (review 31 F10)
    for name, (_, rate) in cpo.ENERGY_ROWS.items():
        assumed = isinstance(rate, str) and specs.get(rate).status == "assumption"
        assert assumed == ("if 1.6 Tb/s" in name), name
    assert sum("if 1.6 Tb/s" in line for line in table.splitlines()) == 2


def test_goodput_sentence_by_hand():
    # 4,608 GPUs at 419 / (54 d x 16,384) per GPU: M = 11.0 h; Daly at C = 30 s: 25.4 min; 95.7 %
    assert figures.goodput_summary(4608, 30.0, 180.0) == (
        "4,608 GPUs fail every 11 h (2.18 a day); checkpointing every 25.4 min (Daly; Young says 25.7) "
        "keeps 95.7 % of the time, losing 4.3 % to writes, redone work and restarts.")


def test_the_goodput_figure_marks_daly_and_young():
    fig = figures.plot_goodput(16_384, 30.0, 180.0)
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == ["goodput (Daly's model)", "Young 13.6 min", "Daly 13.3 min: 91.3 %"]
