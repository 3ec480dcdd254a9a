"""Costs: what a fabric's switches and optics cost, one price model for chapters 5, 9 and 11.

A fabric's capital cost here is its switches plus one optical module per optical link end. The
registry holds street-price estimates (``cost.*``, grade S), so every price is a low-high range:

* a switch is priced by capacity from the 64 x 800G Ethernet street price (a 64 x 400G
  Quantum-2 counts as half of one; no InfiniBand or photonic-switch price was found:
  ``assume.switch_price_scales_with_capacity``);
* a DSP pluggable at 800G or 400G street prices (other rates scaled from 400G by rate); an LPO
  module at the 800G LPO-to-DR8 price ratio; co-packaged optics at
  ``assume.cpo_optics_price_vs_lpo`` times LPO;
* the switch optics choice applies to the switch-side link ends only: a NIC keeps its DSP
  pluggable, as the power model of :mod:`netlab.optics.power` has it.

Chapter 5's rails (:mod:`netlab.fabric.rails`) and the capstone designer (:mod:`netlab.cluster`)
both price fabrics with :func:`fabric_price`.
References: ``luxoptx-800g-cost`` (module prices) and the registry's ``cost.switch_64x800g.*``.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab import specs, validate
from netlab.fabric import clos
from netlab.optics import cpo, power

_REFERENCE_CAPACITY_BPS = 64 * 800e9     # the switch whose street price the registry holds


def module_price_range(port_rate_bps: float, optics: str) -> tuple[float, float]:
    """Price (low, high, USD) of one link end's optics at ``port_rate_bps`` with ``optics``.

    >>> module_price_range(400e9, "dsp_pluggable")      # the 400G street price
    (600.0, 800.0)
    """
    rate = validate.positive("port_rate_bps", port_rate_bps, maximum=100e12, why="100 Tb/s per port")
    optics = validate.choice("optics", optics, cpo.OPTIONS)
    v = specs.value
    if rate >= 800e9:
        dsp = (float(v("cost.optics_800g_dr8.price_low")), float(v("cost.optics_800g_dr8.price_high")))
    else:
        scale = rate / 400e9
        dsp = (scale * v("cost.optics_400g.price_low"), scale * v("cost.optics_400g.price_high"))
    if optics == "dsp_pluggable":
        return dsp
    lpo_ratio = ((v("cost.optics_800g_lpo.price_low") + v("cost.optics_800g_lpo.price_high"))
                 / (v("cost.optics_800g_dr8.price_low") + v("cost.optics_800g_dr8.price_high")))
    factor = lpo_ratio * (1.0 if optics == "lpo" else v("assume.cpo_optics_price_vs_lpo"))
    return dsp[0] * factor, dsp[1] * factor


@dataclass(frozen=True)
class FabricPrice:
    """A fabric's capital cost, a low-high range in USD: switches, then optics."""

    optics: str
    n_switches: int
    switch_side_ends: int
    nic_side_ends: int
    switches_low_usd: float
    switches_high_usd: float
    optics_low_usd: float
    optics_high_usd: float

    @property
    def low_usd(self) -> float:
        return self.switches_low_usd + self.optics_low_usd

    @property
    def high_usd(self) -> float:
        return self.switches_high_usd + self.optics_high_usd

    def __repr__(self) -> str:
        return (f"FabricPrice({self.n_switches:,} switches ${self.switches_low_usd / 1e6:,.1f}-"
                f"{self.switches_high_usd / 1e6:,.1f} M + {self.switch_side_ends + self.nic_side_ends:,} optical ends "
                f"({cpo.option_name(self.optics)} on the switches) ${self.optics_low_usd / 1e6:,.1f}-"
                f"{self.optics_high_usd / 1e6:,.1f} M = ${self.low_usd / 1e6:,.1f}-{self.high_usd / 1e6:,.1f} M)")


def fabric_price(fab: clos.Fabric, optics: str = "dsp_pluggable") -> FabricPrice:
    """Switches and optics of ``fab`` priced from the registry's street-price estimates.

    Example, by hand: a two-tier Quantum-2 fabric of 1,024 hosts has 32 leaves + 16 spines, each
    half a 64 x 800G switch ($75,000-125,000), and 4,096 optical link ends at $600-800:
    48 x 75,000 + 4,096 x 600 = $6,057,600, 48 x 125,000 + 4,096 x 800 = $9,276,800.

    >>> p = fabric_price(clos.for_switch("quantum2", 1024))
    >>> p.n_switches, round(p.low_usd), round(p.high_usd)
    (48, 6057600, 9276800)
    """
    validate.instance("fab", fab, clos.Fabric, "a Fabric from netlab.fabric.clos")
    optics = validate.choice("optics", optics, cpo.OPTIONS)
    share = fab.radix * fab.port_rate_bps / _REFERENCE_CAPACITY_BPS
    switch_ends, nic_ends = power.optical_port_ends(fab)
    module = module_price_range(fab.port_rate_bps, optics)
    nic_module = module_price_range(fab.port_rate_bps, "dsp_pluggable")
    return FabricPrice(optics=optics, n_switches=fab.n_switches, switch_side_ends=switch_ends, nic_side_ends=nic_ends,
                       switches_low_usd=specs.value("cost.switch_64x800g.price_low") * share * fab.n_switches,
                       switches_high_usd=specs.value("cost.switch_64x800g.price_high") * share * fab.n_switches,
                       optics_low_usd=switch_ends * module[0] + nic_ends * nic_module[0],
                       optics_high_usd=switch_ends * module[1] + nic_ends * nic_module[1])
