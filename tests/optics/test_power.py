"""netlab.optics.power: fabric power from chapter 5's Fabric objects, checked by hand."""

from hypothesis import given, settings, strategies as st
import pathlib

import pytest

from netlab import specs
from netlab.fabric import clos as fabric
from netlab.optics import cpo as optics, figures, power
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

K4 = fabric.fat_tree(4, 100e9)    # 16 hosts, 20 switches (8 leaf, 8 agg, 4 core), links (16, 16, 16)

API = {
    power.fabric_power_by_option: dict(switch="quantum2", n_gpus=1000),
    figures.fabric_power_summary: dict(switch="quantum2", n_gpus=1000, pue=1.3),
    figures.plot_fabric_power: dict(switch="quantum2", n_gpus=1000),
    power.site_power: dict(fab=K4, option="cpo", gpu_power_w=1000.0, pue=1.5),
    power.gpus_in_envelope: dict(envelope_w=1e6, switch="quantum2", option="cpo", gpu_power_w=1000.0,
                                 pue=1.3, oversubscription=1.0),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_switch_core_energy_by_hand():
    # Tomahawk 5: 500 W / 51.2 Tb/s = 9.765625 pJ/bit; minus SerDes at 22 dB (5.4 pJ/bit) = 4.365625 pJ/bit.
    assert power.switch_core_energy_per_bit() == pytest.approx(4.365625e-12)


def test_k4_fat_tree_power_by_hand():
    # Switch cores: 20 switches x 4 ports x 100 Gb/s x 4.365625 pJ/bit = 34.925 W.
    # Switch-side ports: 2 x (16 + 16) switch-link ends + 16 leaf ends = 80 ports;
    #   CPO at 100 Gb/s = (1.8 + 5.625) pJ/bit x 1e11 = 0.7425 W each -> 59.4 W.
    # NIC-side: 16 DSP pluggables = (5.4 + 8.125 + 10.625) pJ/bit x 1e11 = 2.415 W each -> 38.64 W.
    p = power.fabric_power(K4, "cpo")
    assert (p.switch_side_ports, p.nic_side_ports) == (80, 16)
    assert p.switch_core_w == pytest.approx(34.925)
    assert p.switch_ports_w == pytest.approx(59.4)
    assert p.nic_ports_w == pytest.approx(38.64)
    assert p.total_w == pytest.approx(132.965)
    assert p.per_host_w == pytest.approx(132.965 / 16)


def test_port_ends_are_the_fabric_transceivers():
    for fab in (K4, fabric.fat_tree(64, 400e9), fabric.for_switch("quantum_x800", 100_000)):
        switch_side, nic_side = power.optical_port_ends(fab)
        assert switch_side + nic_side == fab.n_transceivers
        assert nic_side == fab.n_hosts


def test_copper_host_links_cost_cables_only():
    # Copper host links: 16 links x 2 ends x 0.1 W = 3.2 W on the NIC side; 64 switch-side optical ends.
    fab = fabric.fat_tree(4, 100e9, host_links_optical=False)
    p = power.fabric_power(fab, "dsp_pluggable")
    assert (p.switch_side_ports, p.nic_side_ports) == (64, 0)
    assert p.nic_ports_w == pytest.approx(3.2)


def test_site_power_by_hand():
    # IT = 16 x 1000 W + 132.965 W = 16,132.965 W; facility = 1.5 x IT = 24,199.4475 W.
    s = power.site_power(K4, "cpo", gpu_power_w=1000.0, pue=1.5)
    assert s.it_w == pytest.approx(16_132.965)
    assert s.facility_w == pytest.approx(24_199.4475)
    assert s.network_share == pytest.approx(132.965 / 16_132.965)


def test_cpo_saves_power_at_every_scale():
    gpu_w = specs.value("dgx.h100.power") / specs.value("dgx.n_gpus")
    for n in (10_000, 100_000, 500_000):
        fab = fabric.for_switch("quantum_x800", n)
        watts = {o: power.fabric_power(fab, o).total_w for o in optics.OPTIONS}
        assert watts["cpo"] < watts["lpo"] < watts["dsp_pluggable"]
        assert power.site_power(fab, "cpo", gpu_w, 1.3).facility_w < power.site_power(
            fab, "dsp_pluggable", gpu_w, 1.3).facility_w


@pytest.mark.parametrize("option", optics.OPTIONS)
def test_envelope_fit_is_the_largest_that_fits(option):
    gpu_w = specs.value("dgx.h100.power") / specs.value("dgx.n_gpus")
    fit = power.gpus_in_envelope(20e6, "quantum2", option, gpu_w, 1.3)
    assert fit.limited_by == "power"
    assert fit.site.facility_w <= 20e6
    bigger = power.site_power(fabric.for_switch("quantum2", fit.n_gpus + 1), option, gpu_w, 1.3)
    assert bigger.facility_w > 20e6
    # Without a network every GPU costs 1.3 x 1,275 W: at most 20 MW / 1,657.5 W = 12,066 GPUs.
    assert fit.n_gpus < 20e6 / (1.3 * gpu_w)


def test_cpo_feeds_more_gpus_than_pluggables():
    gpu_w = specs.value("dgx.h100.power") / specs.value("dgx.n_gpus")
    fits = {o: power.gpus_in_envelope(50e6, "quantum_x800", o, gpu_w, 1.3).n_gpus for o in optics.OPTIONS}
    assert fits["cpo"] > fits["lpo"] > fits["dsp_pluggable"]


def test_envelope_limited_by_fabric():
    # Quantum-2 (radix 64): at most 64^3 / 4 = 65,536 hosts in three tiers.
    fit = power.gpus_in_envelope(1e12, "quantum2", "cpo", 1000.0, 1.1)
    assert (fit.n_gpus, fit.limited_by) == (65_536, "fabric")


def test_too_small_an_envelope_is_refused():
    with pytest.raises(ValueError, match="envelope_w"):
        power.gpus_in_envelope(100.0, "quantum2", "cpo", 1000.0, 1.3)


def test_fabric_power_needs_a_fabric():
    with pytest.raises(TypeError, match="fab"):
        power.fabric_power({"n_hosts": 16}, "cpo")


def test_chapter_9_share_pairs_h100_servers_with_their_400g_ports():
    """The H100 reference architecture gives each GPU 400 Gb/s; the chapter's share and envelope
    figures use a 400G fabric (SN5600 in 128 x 400G), not the 800G rows. Share by hand:
    network / (GPUs + network), PUE cancels."""
    from netlab import specs
    fab = fabric.for_switch("sn5600_400g", 100_000)
    assert fab.port_rate_bps == specs.value("ra.hgx.scaleout_per_gpu")
    gpu_w = specs.value("dgx.h100.power") / 8
    net = power.fabric_power(fab, "dsp_pluggable").total_w
    site = power.site_power(fab, "dsp_pluggable", gpu_w, 1.3)
    assert site.network_share == pytest.approx(net / (100_000 * gpu_w + net))
    assert 0.045 < site.network_share < 0.055          # "5.0 %" in chapter 9
    assert "SN5600" in (pathlib.Path(__file__).parents[2] / "book" / "ch09-optics-and-power.md").read_text()


@pytest.mark.parametrize("change", [dict(n_hosts=0), dict(radix=-4), dict(links_per_tier=(-16, -32)),
                                    dict(n_switches=0), dict(n_transceivers=10**6)])
def test_fabric_power_refuses_a_fabric_whose_counts_make_no_sense(change):
    from dataclasses import replace
    bad = replace(K4, **change)
    with pytest.raises(ValueError, match="fab\\."):
        power.fabric_power(bad, "cpo")
