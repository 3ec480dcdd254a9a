"""netlab.fabric.rails against hand-worked counts, the registry's prices, closed forms and the
Rail-only paper's ranges (Wang et al., arXiv 2307.12169)."""

import math
import pathlib
import re

from hypothesis import given, settings, strategies as st
import matplotlib
import pytest

from netlab import specs
from netlab.fabric import clos, figures, rails
from netlab.nvlink import domains
from netlab.optics import power
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    rails.size: dict(kind="rail_only", n_gpus=1024, switch="quantum2", domain="dgx-h100"),
    rails.traffic: dict(kind="rail_only", n_gpus=1024, n_bytes=64e6, switch="quantum2", domain="dgx-h100"),
    rails.buildable: dict(kind="fat_tree", n_gpus=4096, switch="quantum2", domain="dgx-h100"),
    rails.rail_only_saving: dict(n_gpus=4096, switch="quantum2", domain="dgx-h100"),
    rails.compare: dict(n_gpus=4608, switch="quantum2", domain="gb200-nvl72", n_bytes=64e6),
    rails.comparison_table: dict(sizes=(1024, 4096), switch="quantum2", domain="dgx-h100"),
    figures.draw_rails: dict(n_gpus=4608, domain="gb200-nvl72", switch="quantum2"),
    figures.rails_readout: dict(n_gpus=4608, domain="dgx-h100", switch="quantum2"),
    figures.rails_alt: dict(n_gpus=4608, domain="dgx-h100", switch="sn5600_400g"),
}
BOOK = pathlib.Path(__file__).resolve().parents[2] / "book"


@pytest.mark.parametrize("func", [f for f in API if numeric_params(API[f])], ids=lambda f: f.__name__)
@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


@pytest.mark.parametrize("kwargs, name", [
    (dict(kind="rail_only", n_gpus=1020), "n_gpus"),                  # not whole 8-GPU nodes
    (dict(kind="rail_only", n_gpus=1024, domain="gb200-nvl72"), "n_gpus"),   # 1,024 / 72 is not whole racks
    (dict(kind="ring", n_gpus=1024), "kind"),
    (dict(kind="fat_tree", n_gpus=1024, switch="qm9700"), "switch"),
    (dict(kind="fat_tree", n_gpus=1024, domain="dgx-a100"), "domain"),
    (dict(kind="fat_tree", n_gpus=73_728), "n_gpus"),                 # beyond three tiers of 64 ports
    (dict(kind="fat_tree", n_gpus=1024, optics="copper"), "optics"),
])
def test_refuses_what_cannot_be_built_by_name(kwargs, name):
    with pytest.raises(ValueError, match=name):
        rails.size(**kwargs)


def test_1024_gpus_on_64_port_switches_by_hand():
    # 128 DGX nodes of 8 GPUs, 64-port switches: a leaf has 32 host ports and 32 uplinks.
    # Fat tree: 1,024 / 32 = 32 leaves, 32 x 32 uplinks / 64 ports = 16 spines: 48 switches.
    # Rail-optimized: each rail's 128 NICs fill 128 / 32 = 4 leaves, 8 rails: 32 leaves, 16 spines.
    # Rail-only: each rail is a leaf-spine of 128 hosts: 4 leaves + 4 x 32 / 64 = 2 spines; x 8 = 48.
    # Cables: 1,024 host links + 1,024 uplinks; transceivers two per cable.
    for kind in rails.KINDS:
        f = rails.size(kind, 1024)
        assert (f.n_tiers, f.n_switches, f.n_cables, f.n_transceivers) == (2, 48, 2048, 4096), kind
        assert (f.n_rails, f.n_domains) == (8, 128)
    assert rails.size("rail_optimized", 1024).fabric.switches_per_tier == (32, 16)
    assert rails.size("rail_only", 1024).fabric.switches_per_tier == (8 * 4, 8 * 2)
    assert rails.rail_only_saving(1024).switches == 0.0


def test_4096_gpus_rail_only_drops_a_tier_by_hand():
    # 4,096 > 64^2 / 2 = 2,048: the fat tree needs three tiers: 128 leaves, 4 pods of 32 aggregation
    # switches = 128, 128 x 32 / 64 = 64 core: 320. Each rail of 512 NICs fits two tiers:
    # 16 leaves + 8 spines = 24, x 8 rails = 192. Cables per GPU 3 -> 2, transceivers 6 -> 4.
    ft, rl = rails.size("fat_tree", 4096), rails.size("rail_only", 4096)
    assert ft.fabric.switches_per_tier == (128, 128, 64) and ft.n_switches == 320
    assert rl.fabric.switches_per_tier == (128, 64) and rl.n_switches == 192
    assert (ft.n_cables, rl.n_cables) == (3 * 4096, 2 * 4096)
    assert (ft.n_transceivers, rl.n_transceivers) == (6 * 4096, 4 * 4096)
    s = rails.rail_only_saving(4096)
    assert (s.tiers_rail_optimized, s.tiers_rail_only) == (3, 2)
    assert s.switches == pytest.approx(1 - 192 / 320) and s.transceivers == pytest.approx(1 / 3)


def test_nvl72_rails_of_one_switch_by_hand():
    # 64 NVL72 racks = 4,608 GPUs: 72 rails of 64 NICs, each on one 64-port switch, no tier above.
    # Fat tree: 4,608 / 32 = 144 leaves in ceil(144 / 32) = 5 pods of 32 aggregation switches (160),
    # 144 x 32 / 64 = 72 core: 376. Rail-optimized: 72 rails x 2 leaves = 144 leaves, the same 376.
    rl = rails.size("rail_only", 4608, domain="gb200-nvl72")
    assert (rl.n_tiers, rl.n_switches, rl.n_cables, rl.n_transceivers) == (1, 72, 4608, 2 * 4608)
    for kind in ("fat_tree", "rail_optimized"):
        f = rails.size(kind, 4608, domain="gb200-nvl72")
        assert f.fabric.switches_per_tier == (144, 160, 72), kind


def test_rail_optimized_pays_for_part_filled_rail_leaves():
    # 1,152 GPUs = 144 DGX nodes: a rail of 144 NICs needs ceil(144 / 32) = 5 leaves, 40 in all,
    # where a fat tree packs 1,152 / 32 = 36. Uplinks 40 x 32 = 1,280 -> 20 spines.
    ro, ft = rails.size("rail_optimized", 1152), rails.size("fat_tree", 1152)
    assert ro.fabric.switches_per_tier == (40, 20) and ft.fabric.switches_per_tier == (36, 18)
    assert ro.fabric.links_per_tier == (1152, 1280)
    assert ro.n_transceivers == 2 * (1152 + 1280)


@pytest.mark.parametrize("n_gpus", [2048, 8192, 32768, 65536])
def test_rail_optimized_equals_fat_tree_counts_when_rails_fill_whole_leaves(n_gpus):
    ro, ft = rails.size("rail_optimized", n_gpus), rails.size("fat_tree", n_gpus)
    assert ro.fabric.switches_per_tier == ft.fabric.switches_per_tier
    assert ro.n_transceivers == ft.n_transceivers and ro.cost_high_usd == ft.cost_high_usd


def test_rail_only_saves_nothing_when_a_rail_needs_as_many_tiers():
    # 32,768 GPUs in 8-GPU nodes: a rail of 4,096 NICs still exceeds 2,048, so three tiers per rail.
    s = rails.rail_only_saving(32768)
    assert (s.tiers_rail_optimized, s.tiers_rail_only) == (3, 3)
    assert s.switches == 0 and s.cost_low == 0 and s.power == 0


def test_cost_is_the_registry_street_prices_by_hand():
    # Quantum-2 is 64 x 400G = half the capacity of the priced 64 x 800G switch; every link end is a
    # 400G module. 1,024 GPUs: 48 switches and 4,096 module ends.
    v = specs.value
    f = rails.size("fat_tree", 1024)
    assert f.cost_low_usd == pytest.approx(48 * v("cost.switch_64x800g.price_low") / 2
                                           + 4096 * v("cost.optics_400g.price_low"))
    assert f.cost_high_usd == pytest.approx(48 * v("cost.switch_64x800g.price_high") / 2
                                            + 4096 * v("cost.optics_400g.price_high"))


def test_rail_only_power_is_its_rails_power():
    one_rail = clos.for_switch("quantum2", 512)     # a rail of 512 DGX nodes
    assert rails.size("rail_only", 4096).power_w == pytest.approx(8 * power.fabric_power(one_rail, "dsp_pluggable").total_w)


def test_the_papers_cost_range_matches_dropping_one_or_two_tiers():
    """Wang et al.: network cost -38 to -77 % (abstract). In the model, removing the spine saves
    37-40 % when a rail needs one tier fewer than the cluster (3 -> 2), and 76 % when two fewer
    (3 -> 1): the paper's range is what dropping one or two tiers of a non-blocking Clos saves."""
    low, high = specs.value("fabric.rail_only.cost_saving_low"), specs.value("fabric.rail_only.cost_saving_high")
    one_tier = rails.rail_only_saving(4096)                              # DGX H100, 3 -> 2
    two_tiers = rails.rail_only_saving(4608, domain="gb200-nvl72")       # NVL72, 3 -> 1
    assert (two_tiers.tiers_rail_optimized, two_tiers.tiers_rail_only) == (3, 1)
    assert abs(one_tier.cost_low - low) < 0.02 and abs(one_tier.cost_high - low) < 0.02
    assert abs(two_tiers.cost_low - high) < 0.02 and abs(two_tiers.cost_high - high) < 0.02
    # Per host, a non-blocking Clos of t tiers has (2t - 1) / k switches: 3 -> 2 saves 2/5, 3 -> 1 4/5.
    full = rails.rail_only_saving(65536, domain="dgx-h100", switch="sn5600_400g")   # 128-port: 3 -> 2
    assert full.switches == pytest.approx(0.4, abs=0.01)


def test_all_reduce_is_rail_local_and_equal_on_every_wiring():
    dom = domains.preset("dgx-h100")
    expected = domains.hierarchical_all_reduce(256e6, 4096, dom).pipelined_s
    for kind in rails.KINDS:
        assert rails.traffic(kind, 4096, 256e6).all_reduce_s == pytest.approx(expected), kind


def test_ring_hops_leaving_the_leaf():
    # 128 nodes: top-of-rack leaves hold 32 / 8 = 4 nodes, so 32 of the 128 ring hops change leaf;
    # a rail leaf holds 32 nodes: 4 of 128.
    assert rails.traffic("fat_tree", 1024, 1e6).ring_hops_leaving_leaf == pytest.approx(32 / 128)
    assert rails.traffic("rail_optimized", 1024, 1e6).ring_hops_leaving_leaf == pytest.approx(4 / 128)
    assert rails.traffic("rail_only", 4608, 1e6, domain="gb200-nvl72").ring_hops_leaving_leaf == 0.0


def test_all_to_all_bytes_and_forwarding_closed_form():
    # S per GPU, N GPUs, R per node: NIC carries (N - R)/N S; forwarding adds (N/R - 1)(R - 1)/N S of
    # NVLink to the (R - 1)/N S of the node's own share, (R - 1)/R S in all.
    n, r, s = 1024, 8, 64e6
    t = rails.traffic("rail_only", n, s)
    assert t.nic_bytes == pytest.approx((n - r) / n * s)
    assert t.nvlink_bytes == pytest.approx((r - 1) / r * s)
    assert t.forwarded_share == pytest.approx((n // r - 1) * (r - 1) / (n - r))
    ft = rails.traffic("fat_tree", n, s)
    assert ft.nvlink_bytes == pytest.approx((r - 1) / n * s) and ft.forwarded_share == 0
    no_pxn = rails.traffic("rail_optimized", n, s, pxn=False)
    assert no_pxn.all_to_all_s == pytest.approx(ft.all_to_all_s)
    assert rails.traffic("rail_optimized", n, s, pxn=True).all_to_all_s == pytest.approx(t.all_to_all_s)


@pytest.mark.parametrize("n_gpus", [1024, 8192, 65536])
def test_forwarding_overhead_lies_in_the_papers_range_for_dgx_h100(n_gpus):
    """Wang et al.: all-to-all through forwarding +8.2 to +11.2 %. Closed form for forwarding in
    series: (R - 1) N / (R (N - R)) x B_NIC / B_NVLink = 7/8 x 50/450 x N/(N - 8) ~ 9.7 % (DGX H100)."""
    ratio = 400e9 / 8 / 450e9
    over = rails.traffic("rail_only", n_gpus, 256e6).all_to_all_s / rails.traffic("fat_tree", n_gpus, 256e6).all_to_all_s - 1
    assert over == pytest.approx(7 / 8 * n_gpus / (n_gpus - 8) * ratio, rel=1e-9)
    assert specs.value("fabric.rail_only.all_to_all_overhead_low") <= over <= specs.value(
        "fabric.rail_only.all_to_all_overhead_high")
    piped = rails.traffic("rail_only", n_gpus, 256e6)
    assert piped.all_to_all_pipelined_s == pytest.approx(piped.all_to_all_network_s)   # NVLink hop hidden


def test_compare_marks_unbuildable_wirings():
    rows = rails.compare(73_728)                       # 64-port switches stop at 65,536 in three tiers
    assert rows["fat_tree"][0] is None and rows["rail_optimized"][0] is None
    assert rows["rail_only"][0].n_tiers == 3           # 9,216 NICs per rail
    assert rails.buildable("rail_only", 73_728) and not rails.buildable("fat_tree", 73_728)


def test_chapter_table_is_the_models():
    """The table in chapter 5's section on rails is what comparison_table prints (its own rows)."""
    text = (BOOK / "ch05-fabrics-at-scale.md").read_text(encoding="utf-8")
    section = text.split("## Rail-optimized and rail-only fabrics", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| ")]
    for switch, domain, sizes in rails.CHAPTER_TABLES:
        model = rails.comparison_table(sizes, switch, domain).splitlines()
        body = [row for row in model[2:]]
        assert all(row in table for row in body), (switch, domain)
    # And its hand-checkable corner: 4,096 GPUs on Quantum-2, 320 against 192 switches.
    assert any(re.match(r"\| 4,096 \| rail-only \| 2 \| 192 \|", row) for row in table)


def test_explorer_draws_and_reads_out():
    fig = figures.draw_rails(4608, "gb200-nvl72", "quantum2")
    assert isinstance(fig, matplotlib.figure.Figure) and "rail-only: 72 switches" in fig.alt
    text = figures.rails_readout(4608, "gb200-nvl72", "quantum2")
    assert "1 tier and 72 switches against 3 and 376" in text
    assert "4th tier" not in text
    assert "exceed three tiers" in figures.rails_readout(73_728, "dgx-h100", "quantum2")
    for n in figures.RAIL_SIZES:          # every frame of the explorer is a whole number of racks and nodes
        assert n % 72 == 0 and n % 8 == 0 and 1000 <= n <= 102_000
    assert math.isclose(figures.RAIL_BYTES, 256e6)


def test_chapter_says_what_padding_costs_a_small_cluster():
    # review 3, C7: ch05 said a part-filled rail leaf needs "a few more" switches. By hand, 64 DGX GPUs on
    # 64-port switches: top-of-rack, 2 leaves of 32 GPUs + 32 uplinks, 64 uplinks -> 1 spine = 3 switches;
    # by rail, 8 leaves of 8 NICs, each counted with all 32 uplinks: 256 uplinks -> 4 spines = 12.
    ro, ft = rails.size("rail_optimized", 64), rails.size("fat_tree", 64)
    assert ro.fabric.switches_per_tier == (8, 4) and ft.n_switches == 3
    text = " ".join((pathlib.Path(__file__).parents[2] / "book" / "ch05-fabrics-at-scale.md").read_text().split())
    assert "it needs a few more" not in text
    assert "64 GPUs: 8 leaves and 4 spines" in text and "against 3 switches" in text
