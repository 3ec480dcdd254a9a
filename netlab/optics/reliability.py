"""Reliability: lasers, failure rates, and how often a large fabric loses a link.

Component failure rates are quoted in FIT, failures per 10^9 device-hours. With
``N`` independent parts each failing at a constant rate ``lambda`` (the usual
exponential model), failures across the fleet arrive as a Poisson process of rate
``N * lambda``:

* expected failures per day ``= N * lambda * 86,400 s``;
* mean time between failures somewhere in the fleet ``= 1 / (N * lambda)``;
* probability a job touching all ``N`` parts runs ``T`` without one ``= exp(-N * lambda * T)``.

Lasers dominate optical-module failures, so the laser count is the lever: a
pluggable 800G module carries about one laser per lane, and NVIDIA claims CPO
needs a quarter of the lasers (external, shared, field-replaceable sources). A
"10x mean time between failures" divides the rate of the parts it covers by ten: a
CPO claim covers only the switch-side lasers (:func:`fabric_failures`), not the NICs' pluggables. The laser
rate (50-200 FIT at 70 °C) is a vendor blog's figure; field rates depend on heat,
dust and handling, so treat results as orders of magnitude.
References: ``luxoptx-800g-reliability``, ``techinsights-cpo``, ``wedoany-quantum-x800``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab.fabric import clos as fabric_mod
from netlab import specs, validate
from netlab.optics import cpo as optics, power
from netlab.units import day, hour

FIT = 1e-9 / hour   # one failure per 10^9 device-hours, in failures per second


@dataclass(frozen=True)
class FleetFailures:
    """Failures of ``n_parts`` independent parts, each failing at ``failure_rate_per_s``."""

    n_parts: float
    failure_rate_per_s: float      # one part
    failures_per_day: float        # the whole fleet
    mtbf_fleet_s: float            # mean time between failures anywhere in the fleet
    job_duration_s: float
    p_job_unaffected: float        # exp(-n * lambda * T)

    def __repr__(self) -> str:
        return (f"FleetFailures({self.n_parts:,.0f} parts at {self.failure_rate_per_s / FIT:.3g} FIT: "
                f"{self.failures_per_day:.3g} per day, one every {self.mtbf_fleet_s / hour:.3g} h; "
                f"a {self.job_duration_s / hour:.3g} h job sees none with p = {self.p_job_unaffected:.3g})")

    def __str__(self) -> str:
        return (f"{self.n_parts:,.0f} parts at {self.failure_rate_per_s / FIT:.3g} FIT fail {self.failures_per_day:.3g} "
                f"times a day, one every {self.mtbf_fleet_s / hour:.3g} h; a {self.job_duration_s / hour:.3g} h job "
                f"sees none with probability {self.p_job_unaffected:.3g}.")


def fleet_failures(n_parts: float, failure_rate_per_s: float | None = None, mtbf_gain: float = 1.0,
                   job_duration_s: float = day) -> FleetFailures:
    """Expected failures of ``n_parts`` parts (default rate: one laser, from the registry).

    ``mtbf_gain`` divides the rate: 10 models a "10x MTBF" claim.

    Example: 1,000,000 lasers at 100 FIT fail 1e6 * 100e-9 per hour = 0.1 per hour,
    2.4 per day.

    >>> round(fleet_failures(1e6, 100 * FIT).failures_per_day, 6)
    2.4
    """
    n_parts = validate.positive("n_parts", n_parts)
    rate = specs.value("optics.laser.failure_rate") if failure_rate_per_s is None else validate.positive(
        "failure_rate_per_s", failure_rate_per_s)
    mtbf_gain = validate.in_range("mtbf_gain", mtbf_gain, 1e-3, 1e6)
    job_duration_s = validate.non_negative("job_duration_s", job_duration_s)
    rate /= mtbf_gain
    fleet_rate = n_parts * rate
    return FleetFailures(n_parts=n_parts, failure_rate_per_s=rate, failures_per_day=fleet_rate * day,
                         mtbf_fleet_s=1.0 / fleet_rate, job_duration_s=job_duration_s,
                         p_job_unaffected=math.exp(-fleet_rate * job_duration_s))


@dataclass(frozen=True)
class LaserCount:
    """Lasers in a fabric: per optical port end, with one optics choice on the switches."""

    option: str
    switch_side_ports: int
    nic_side_ports: int
    lasers_per_pluggable_port: float
    lasers_per_switch_port: float
    n_lasers: float

    def __repr__(self) -> str:
        return (f"LaserCount({self.option}: {self.n_lasers:,.0f} lasers = {self.switch_side_ports:,} switch ports "
                f"x {self.lasers_per_switch_port:g} + {self.nic_side_ports:,} NIC ports x "
                f"{self.lasers_per_pluggable_port:g})")

    def __str__(self) -> str:
        return (f"With {optics.option_name(self.option)} switches: {self.n_lasers:,.0f} lasers, "
                f"{self.switch_side_ports:,} switch ports x {self.lasers_per_switch_port:g} + "
                f"{self.nic_side_ports:,} NIC pluggables x {self.lasers_per_pluggable_port:g}.")


def fabric_lasers(fab: fabric_mod.Fabric, option: str, lasers_per_module: float | None = None) -> LaserCount:
    """Count the lasers of ``fab``: switch-side ports with ``option``, NIC side pluggable.

    A pluggable carries ``lasers_per_module`` lasers per 800G module (default
    ``assume.optics.lasers_per_module``, 8: one per lane of an 8-lane DR8 module; an 800G port
    on four 200G lanes, as Quantum-X800's run, has 4), scaled to the port rate; a CPO port
    carries the claimed fraction of that.
    """
    option = validate.choice("option", option, optics.OPTIONS)
    if lasers_per_module is None:
        lasers_per_module = specs.value("assume.optics.lasers_per_module")
    lasers_per_module = validate.positive("lasers_per_module", lasers_per_module, maximum=64)
    switch_side, nic_side = power.optical_port_ends(fab)
    per_pluggable = lasers_per_module * fab.port_rate_bps / specs.value("optics.module_rate")
    per_switch_port = per_pluggable * (specs.value("optics.cpo.laser_fraction") if option == "cpo" else 1.0)
    return LaserCount(option=option, switch_side_ports=switch_side, nic_side_ports=nic_side,
                      lasers_per_pluggable_port=per_pluggable, lasers_per_switch_port=per_switch_port,
                      n_lasers=switch_side * per_switch_port + nic_side * per_pluggable)


@dataclass(frozen=True)
class FabricFailures:
    """Laser failures of a fabric, split by where the lasers sit.

    ``cpo_mtbf_gain`` divides the failure rate of the co-packaged (switch-side)
    lasers only: the NIC ends of the host links keep pluggables, whatever the
    switches use, so a CPO reliability claim cannot reach them.
    """

    lasers: LaserCount
    switch_side_per_day: float
    nic_side_per_day: float
    failures_per_day: float
    mtbf_fleet_s: float
    p_day_unaffected: float        # exp(-failures per day)

    @property
    def nic_share(self) -> float:
        """Share of the fabric's laser failures that happen in the NIC-side pluggables."""
        return self.nic_side_per_day / self.failures_per_day

    def __str__(self) -> str:
        return (f"{self.lasers.n_lasers:,.0f} lasers fail {self.failures_per_day:.3g} times a day, one every "
                f"{self.mtbf_fleet_s / hour:.3g} h; {100 * self.nic_share:.0f} % of the failures are in the NIC-side "
                f"pluggables; a day without one: p = {self.p_day_unaffected:.2g}")


def fabric_failures(fab: fabric_mod.Fabric, option: str, failure_rate_per_s: float | None = None,
                    cpo_mtbf_gain: float = 1.0) -> FabricFailures:
    """Laser failures per day of ``fab`` with switch optics ``option``.

    ``cpo_mtbf_gain`` (e.g. 10 for a "10x MTBF" claim) applies to the switch-side
    lasers when ``option == "cpo"`` and to nothing else: the NIC side is pluggable.

    Example: a k = 4 fat tree at 800 Gb/s with CPO has 80 switch ports x 2 lasers and
    16 NIC ports x 8; at 100 FIT and a 10x CPO gain, 160 x 10 FIT + 128 x 100 FIT
    = 14,400 FIT, 14,400e-9 x 24 = 3.456e-4 failures a day.

    >>> f = fabric_failures(fabric_mod.fat_tree(4, 800e9), "cpo", 100 * FIT, cpo_mtbf_gain=10)
    >>> round(f.failures_per_day, 7)
    0.0003456
    """
    option = validate.choice("option", option, optics.OPTIONS)
    rate = specs.value("optics.laser.failure_rate") if failure_rate_per_s is None else validate.positive(
        "failure_rate_per_s", failure_rate_per_s)
    cpo_mtbf_gain = validate.in_range("cpo_mtbf_gain", cpo_mtbf_gain, 1.0, 1e6)
    count = fabric_lasers(fab, option)
    switch_rate = rate / (cpo_mtbf_gain if option == "cpo" else 1.0)
    switch_per_s = count.switch_side_ports * count.lasers_per_switch_port * switch_rate
    nic_per_s = count.nic_side_ports * count.lasers_per_pluggable_port * rate
    total = switch_per_s + nic_per_s
    return FabricFailures(lasers=count, switch_side_per_day=switch_per_s * day, nic_side_per_day=nic_per_s * day,
                          failures_per_day=total * day, mtbf_fleet_s=1.0 / total,
                          p_day_unaffected=math.exp(-total * day))


# --- chapter 9's explorer: laser failures against cluster size ------------------------------------

FAILURE_SIZES = (10_000, 32_000, 100_000, 320_000, 700_000)
