"""Power: a fabric's watts, its share of the facility, and the GPUs a power budget feeds.

A scale-out fabric's power is counted from the same :class:`netlab.fabric.clos.Fabric`
that chapter 5 sizes, never re-derived:

* **switch chips**: every switch draws its switching core at
  ``e_core * radix * port_rate``, where ``e_core`` is the Tomahawk 5 estimate
  (~500 W for 51.2 Tb/s) minus the SerDes energy of its ~22 dB pluggable
  channels (the SerDes is counted per port, below);
* **switch-side ports**: each end of a switch-to-switch link, and the leaf end of
  each host link, costs :func:`netlab.optics.cpo.port_power` with the chosen optics;
* **NIC-side ports**: the GPU end of each optical host link keeps a pluggable
  (``nic_option``); NIC chips themselves are not counted (their power is
  unconfirmed). Copper host links cost a passive cable's ~0.1 W per end.

The facility draws ``PUE * IT power`` (PUE, power usage effectiveness: 1.58 on
average in 2023, ~1.1 at hyperscalers). IT power is the GPU servers plus the
fabric. Under a fixed facility envelope, every watt the network saves can feed
more GPUs: :func:`gpus_in_envelope` finds the largest cluster that fits.
References: ``uptime-pue-2023``, ``techinsights-th5``, and chapter 5's sources.
"""

from __future__ import annotations

from dataclasses import dataclass

from netlab.fabric import clos as fabric_mod
from netlab import specs, validate
from netlab.optics import cpo as optics
from netlab.units import format_power


def switch_core_energy_per_bit() -> float:
    """J/bit of a switch chip without its SerDes: TH5 power / capacity - SerDes at 22 dB."""
    total = specs.value("optics.th5.asic_power") / specs.value("fabric.tomahawk5.capacity")
    return total - optics.serdes_energy_per_bit(specs.value("optics.pluggable.channel_loss"))


def _checked_fabric(fab: fabric_mod.Fabric) -> fabric_mod.Fabric:
    """``fab`` if its counts make a fabric (a hand-edited one may not), else a clear error."""
    if not isinstance(fab, fabric_mod.Fabric):
        raise TypeError(f"fab must be a netlab.fabric.clos.Fabric, got {type(fab).__name__}")
    validate.integer("fab.n_hosts", fab.n_hosts, minimum=1)
    validate.integer("fab.radix", fab.radix, minimum=2)
    validate.integer("fab.n_switches", fab.n_switches, minimum=1)
    validate.positive("fab.port_rate_bps", fab.port_rate_bps)
    if not fab.links_per_tier:
        raise ValueError("fab.links_per_tier must list the links of each tier, got an empty tuple")
    links = [validate.integer(f"fab.links_per_tier[{i}]", n, minimum=0) for i, n in enumerate(fab.links_per_tier)]
    validate.integer("fab.n_transceivers", fab.n_transceivers, minimum=0, maximum=2 * sum(links))
    if links[0] < fab.n_hosts:
        raise ValueError(f"fab.links_per_tier[0] (host links) must be >= n_hosts ({fab.n_hosts}), got {links[0]}")
    return fab


def optical_port_ends(fab: fabric_mod.Fabric) -> tuple[int, int]:
    """``(switch_side, nic_side)``: optical link ends of ``fab`` on switches and on NICs.

    Each switch-to-switch link has two switch-side ends; an optical host link has a
    leaf end and a NIC end. Host links are optical when the fabric counts
    transceivers on them (``n_transceivers > 2 * switch links``).
    """
    fab = _checked_fabric(fab)
    host_links = fab.links_per_tier[0]
    switch_links = sum(fab.links_per_tier[1:])
    optical_hosts = fab.n_transceivers > 2 * switch_links
    return 2 * switch_links + (host_links if optical_hosts else 0), (host_links if optical_hosts else 0)


@dataclass(frozen=True)
class FabricPower:
    """Watts of a fabric with one optics choice, from its topology counts."""

    option: str
    nic_option: str
    n_hosts: int
    n_switches: int
    switch_side_ports: int
    nic_side_ports: int
    switch_core_w: float
    switch_ports_w: float
    nic_ports_w: float
    total_w: float

    @property
    def per_host_w(self) -> float:
        """Network watts per attached host port (per GPU in a rail-optimised cluster)."""
        return self.total_w / self.n_hosts

    def __repr__(self) -> str:
        return (f"FabricPower({self.option}, {self.n_hosts:,} hosts: {format_power(self.total_w)} = "
                f"{format_power(self.switch_core_w)} switch cores ({self.n_switches:,} switches) + "
                f"{format_power(self.switch_ports_w)} switch ports ({self.switch_side_ports:,}) + "
                f"{format_power(self.nic_ports_w)} NIC ports ({self.nic_side_ports:,}); "
                f"{format_power(self.per_host_w)} per host)")


def fabric_power(fab: fabric_mod.Fabric, option: str, nic_option: str = "dsp_pluggable") -> FabricPower:
    """Power of the fabric ``fab`` (from :mod:`netlab.fabric.clos`) with switch optics ``option``.

    Example: a k = 4 fat tree at 100 Gb/s has 20 switches of 4 ports, 32 switch-to-switch
    links (64 switch-side ends) plus 16 host links (16 leaf ends, 16 NIC ends).
    """
    fab = _checked_fabric(fab)
    option = validate.choice("option", option, optics.OPTIONS)
    nic_option = validate.choice("nic_option", nic_option, ("dsp_pluggable", "lpo"))
    rate = fab.port_rate_bps
    switch_side, nic_side = optical_port_ends(fab)
    host_links = fab.links_per_tier[0]
    core_w = fab.n_switches * fab.radix * rate * switch_core_energy_per_bit()
    switch_ports_w = switch_side * optics.port_power(option, rate).total_w
    nic_ports_w = nic_side * optics.port_power(nic_option, rate).total_w
    if nic_side == 0:   # passive copper: a cable's watts at each end
        nic_ports_w = 2 * host_links * specs.value("optics.nvidia_dac.module_power")
    return FabricPower(option=option, nic_option=nic_option, n_hosts=fab.n_hosts, n_switches=fab.n_switches,
                       switch_side_ports=switch_side, nic_side_ports=nic_side, switch_core_w=core_w,
                       switch_ports_w=switch_ports_w, nic_ports_w=nic_ports_w,
                       total_w=core_w + switch_ports_w + nic_ports_w)


@dataclass(frozen=True)
class SitePower:
    """A cluster's IT and facility power, and the network's share of it."""

    n_gpus: int
    gpu_w: float              # GPU servers: n_gpus * power per GPU (server share included)
    network_w: float
    it_w: float               # gpu_w + network_w
    pue: float
    facility_w: float         # pue * it_w

    @property
    def network_share(self) -> float:
        """Network watts over facility watts (cooling scales both alike, so also over IT watts)."""
        return self.network_w * self.pue / self.facility_w

    def __repr__(self) -> str:
        return (f"SitePower({self.n_gpus:,} GPUs: {format_power(self.facility_w)} facility at PUE {self.pue:g}; "
                f"IT {format_power(self.it_w)}, network {format_power(self.network_w)} = "
                f"{self.network_share:.1%})")

    def __str__(self) -> str:
        return (f"{self.n_gpus:,} GPUs draw {format_power(self.facility_w)} at the facility (PUE {self.pue:g}); "
                f"the network is {format_power(self.network_w)} of the {format_power(self.it_w)} of IT power, "
                f"{100 * self.network_share:.1f} % of the total.")


def site_power(fab: fabric_mod.Fabric, option: str, gpu_power_w: float, pue: float,
               nic_option: str = "dsp_pluggable") -> SitePower:
    """Facility power of ``fab.n_hosts`` GPUs of ``gpu_power_w`` each plus their fabric.

    ``gpu_power_w`` is per GPU with its share of the server (a DGX H100 is 10.2 kW
    for 8 GPUs: 1,275 W). ``pue`` is facility power over IT power (>= 1).
    """
    gpu_power_w = validate.positive("gpu_power_w", gpu_power_w)
    pue = validate.in_range("pue", pue, 1.0, 5.0)
    net = fabric_power(fab, option, nic_option)
    gpu_w = fab.n_hosts * gpu_power_w
    it_w = gpu_w + net.total_w
    return SitePower(n_gpus=fab.n_hosts, gpu_w=gpu_w, network_w=net.total_w, it_w=it_w, pue=pue,
                     facility_w=pue * it_w)


@dataclass(frozen=True)
class EnvelopeFit:
    """The largest cluster a facility power envelope feeds with one optics choice."""

    envelope_w: float
    option: str
    n_gpus: int
    limited_by: str           # "power" or "fabric" (the switch's 3-tier maximum)
    site: SitePower

    def __repr__(self) -> str:
        return (f"EnvelopeFit({format_power(self.envelope_w)} with {self.option}: {self.n_gpus:,} GPUs, "
                f"limited by {self.limited_by}; network {self.site.network_share:.1%} of the facility)")

    def __str__(self) -> str:
        return (f"{format_power(self.envelope_w)} feeds {self.n_gpus:,} GPUs with {optics.option_name(self.option)} "
                f"optics (limited by {self.limited_by}); the network is "
                f"{100 * self.site.network_share:.1f} % of the facility's power.")


def gpus_in_envelope(envelope_w: float, switch: str, option: str, gpu_power_w: float, pue: float,
                     oversubscription: float = 1.0, nic_option: str = "dsp_pluggable") -> EnvelopeFit:
    """Most GPUs whose servers, fabric (of ``switch``) and cooling fit in ``envelope_w``.

    The fabric is rebuilt with :func:`netlab.fabric.clos.for_switch` for every candidate
    size; facility power grows with the GPU count, so a bisection finds the largest
    count that fits.
    """
    envelope_w = validate.positive("envelope_w", envelope_w)
    validate.choice("switch", switch, fabric_mod.SWITCHES)
    option = validate.choice("option", option, optics.OPTIONS)

    def facility(n: int) -> SitePower:
        fab = fabric_mod.for_switch(switch, n, oversubscription)
        return site_power(fab, option, gpu_power_w, pue, nic_option)

    radix, _ = fabric_mod.switch_ports(switch)
    most = fabric_mod.max_hosts(radix, 3, oversubscription)
    if facility(1).facility_w > envelope_w:
        raise ValueError(f"envelope_w must feed at least one GPU of gpu_power_w = {gpu_power_w:g} W and its "
                         f"fabric, got {envelope_w:g}")
    if facility(most).facility_w <= envelope_w:
        return EnvelopeFit(envelope_w, option, most, "fabric", facility(most))
    low, high = 1, most            # facility(low) fits, facility(high) does not
    while high - low > 1:
        mid = (low + high) // 2
        if facility(mid).facility_w <= envelope_w:
            low = mid
        else:
            high = mid
    return EnvelopeFit(envelope_w, option, low, "power", facility(low))


# --- chapter 9's explorers: a fabric's watts by optics choice ------------------------------------

def fabric_power_by_option(switch: str, n_gpus: int) -> tuple[fabric_mod.Fabric, dict[str, FabricPower]]:
    """The fabric of ``switch`` for ``n_gpus`` and its power with each optics option."""
    validate.choice("switch", switch, fabric_mod.SWITCHES)
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1, maximum=validate.MAX_COUNT)
    fab = fabric_mod.for_switch(switch, n_gpus)
    return fab, {o: fabric_power(fab, o) for o in optics.OPTIONS}
