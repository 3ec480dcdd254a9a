"""Optics: where a switch port's watts go, and why moving the optics next to the chip saves them.

A bit leaving a switch chip for a fibre crosses three stages, and each costs energy:

* the **SerDes** on the switch chip drives the bit down an electrical channel
  (package substrate, PCB trace, cage connector). The channel attenuates the
  signal by ``loss_db`` decibels, a power ratio of ``10**(loss_db / 10)``; the
  SerDes spends more energy per bit the more loss it must equalise. netlab models
  this as ``e_serdes = e0 + k * loss_db`` (both assumptions, see the registry);
* a **DSP** in a pluggable module retimes the tired signal (a linear pluggable,
  LPO, leaves it out and lets the host SerDes drive the optics directly);
* the **optics**: lasers, modulator drivers, photodiodes and amplifiers.

A co-packaged optical engine (CPO) sits on the switch package, so the electrical
channel shrinks from about 22 dB to about 4 dB and the DSP disappears. Power per
port is ``P = (e_serdes + e_dsp + e_optics) * port_rate``; energy per bit
(``pJ/bit``) is the same sum, and is the fair way to compare ports of different
rates.

Where the numbers come from: the DSP and optics energies are backed out of
secondary module figures (800G DSP module ~15 W, 800G LPO ~8.5 W); the CPO
engine energy and the 22/4 dB losses are NVIDIA claims via the press (grade S);
the SerDes slope and the channel geometry are netlab assumptions. References:
``notebookcheck-photonics``, ``techinsights-cpo``, ``axiom-lpo-vs-dsp``.
"""

from __future__ import annotations

from dataclasses import dataclass
import math

from netlab import specs, validate
from netlab.units import format_power, pJ

OPTIONS = ("dsp_pluggable", "lpo", "cpo")
OPTION_NAMES = {"dsp_pluggable": "DSP pluggable", "lpo": "linear pluggable (LPO)", "cpo": "co-packaged (CPO)"}


def option_name(option: str) -> str:
    """Display name of an optics option: ``"dsp_pluggable"`` -> ``"DSP pluggable"``."""
    return OPTION_NAMES[validate.choice("option", option, OPTIONS)]


def lpo_specified(lane_rate_bps: float) -> bool:
    """True if a linear pluggable at ``lane_rate_bps`` per lane has a finished LPO MSA spec.

    The completed 100G-DR-LPO specification runs 100 Gb/s per lane (up to 800G with
    8 lanes); linear drive at 200 Gb/s per lane is future work of the MSA, so an LPO
    figure for a 200G-lane port is an extrapolation.

    >>> lpo_specified(100e9), lpo_specified(200e9)
    (True, False)
    """
    lane_rate_bps = validate.positive("lane_rate_bps", lane_rate_bps)
    return lane_rate_bps <= specs.value("optics.lpo_msa.lane_rate")


def db_to_ratio(loss_db: float) -> float:
    """Power ratio of ``loss_db`` decibels: ``10 ** (loss_db / 10)`` (22 dB is 158x)."""
    loss_db = validate.in_range("loss_db", loss_db, 0.0, 300.0)
    return 10.0 ** (loss_db / 10.0)


def ratio_to_db(ratio: float) -> float:
    """Decibels of a power ratio: ``10 * log10(ratio)`` (63x is 18 dB)."""
    ratio = validate.positive("ratio", ratio)
    return 10.0 * math.log10(ratio)


# --- the electrical channel ----------------------------------------------------------------

@dataclass(frozen=True)
class ChannelLoss:
    """Loss of the electrical channel from a switch chip to its optics, by segment."""

    package_db: float
    trace_db: float
    connector_db: float
    loss_db: float             # the sum of the three
    power_ratio: float         # 10 ** (loss_db / 10): power sent / power arriving

    def __repr__(self) -> str:
        return (f"ChannelLoss({self.loss_db:.1f} dB = {self.package_db:g} package + {self.trace_db:.1f} trace "
                f"+ {self.connector_db:g} connectors; {self.power_ratio:.3g}x in power)")

    def __str__(self) -> str:
        return (f"The channel loses {self.loss_db:.1f} dB ({self.package_db:g} dB in the package, "
                f"{self.trace_db:.1f} dB in the trace, {self.connector_db:g} dB in connectors): "
                f"{self.power_ratio:.3g} times less power arrives than was sent.")


def channel_loss(trace_length_m: float, n_connectors: int, n_package_crossings: int = 1,
                 pcb_loss_db_per_m: float | None = None, connector_loss_db: float | None = None,
                 package_loss_db: float | None = None) -> ChannelLoss:
    """Add up the dB of an electrical channel: package + trace * loss per metre + connectors.

    Parameters default to the registry assumptions ``assume.optics.*`` (60 dB/m of
    PCB trace at 53 GHz, 1.5 dB per connector, 3 dB per package crossing).

    >>> round(channel_loss(0.25, 1).loss_db, 2)     # 3 + 0.25 * 60 + 1.5
    19.5
    """
    trace_length_m = validate.non_negative("trace_length_m", trace_length_m, maximum=10.0,
                                           why="an electrical trace; longer reaches are optical")
    n_connectors = validate.integer("n_connectors", n_connectors, minimum=0, maximum=20)
    n_package_crossings = validate.integer("n_package_crossings", n_package_crossings, minimum=0, maximum=4)
    per_m = _default("pcb_loss_db_per_m", pcb_loss_db_per_m, "assume.optics.pcb_loss_per_m")
    per_connector = _default("connector_loss_db", connector_loss_db, "assume.optics.connector_loss")
    per_package = _default("package_loss_db", package_loss_db, "assume.optics.package_loss")
    package_db = n_package_crossings * per_package
    trace_db = trace_length_m * per_m
    connector_db = n_connectors * per_connector
    loss_db = package_db + trace_db + connector_db
    return ChannelLoss(package_db=package_db, trace_db=trace_db, connector_db=connector_db,
                       loss_db=loss_db, power_ratio=10.0 ** (loss_db / 10.0))


def pluggable_channel() -> ChannelLoss:
    """The modelled channel to a front-panel pluggable: package, host trace, cage, module trace."""
    length = specs.value("assume.optics.pluggable_host_trace") + specs.value("assume.optics.pluggable_module_trace")
    return channel_loss(length, n_connectors=1)


def cpo_channel() -> ChannelLoss:
    """The modelled channel to a co-packaged engine: package and a centimetre of substrate."""
    return channel_loss(specs.value("assume.optics.cpo_substrate_trace"), n_connectors=0)


def serdes_energy_per_bit(loss_db: float) -> float:
    """Joules per bit a SerDes spends to drive a channel of ``loss_db``: ``e0 + k * loss_db``.

    >>> round(serdes_energy_per_bit(22.0) / 1e-12, 3)   # 1 + 0.2 * 22 pJ/bit
    5.4
    """
    loss_db = validate.in_range("loss_db", loss_db, 0.0, 60.0)
    return specs.value("assume.optics.serdes_base_energy") + specs.value("assume.optics.serdes_energy_per_db") * loss_db


# --- a port's watts -------------------------------------------------------------------------------

def stage_energies() -> dict[str, float]:
    """Energy per bit of each optics stage (J/bit), derived from the registry.

    ``dsp``: (800G DSP module - 800G LPO module) / 800 Gb/s; ``linear_optics``: the LPO
    module / 800 Gb/s; ``cpo_engine``: NVIDIA's ~9 W CPO port at the assumed claim port rate.
    """
    rate = specs.value("optics.module_rate")
    dsp_module = specs.value("optics.dsp_800g.module_power")
    lpo_module = specs.value("optics.lpo_800g.module_power")
    return {"dsp": (dsp_module - lpo_module) / rate,
            "linear_optics": lpo_module / rate,
            "cpo_engine": specs.value("optics.cpo.port_power") / specs.value("assume.optics.claim_port_rate")}


@dataclass(frozen=True)
class PortPower:
    """Watts of one optical switch port, split into host SerDes, DSP and optics.

    ``module_w = dsp_w + optics_w`` is what a transceiver datasheet (or a CPO
    engine) quotes; ``total_w`` adds the SerDes on the switch chip.
    """

    option: str
    port_rate_bps: float
    loss_db: float
    serdes_w: float
    dsp_w: float
    optics_w: float
    module_w: float
    total_w: float

    @property
    def energy_pj_per_bit(self) -> float:
        """Total energy per bit in picojoules:
        ``total_w / port_rate_bps / 1e-12``."""
        return self.total_w / self.port_rate_bps / pJ

    def __repr__(self) -> str:
        return (f"PortPower({self.option} at {self.port_rate_bps / 1e9:g} Gb/s: {format_power(self.total_w)} = "
                f"{format_power(self.serdes_w)} SerDes ({self.loss_db:g} dB) + {format_power(self.dsp_w)} DSP + "
                f"{format_power(self.optics_w)} optics; {self.energy_pj_per_bit:.3g} pJ/bit)")

    def __str__(self) -> str:
        return (f"A {option_name(self.option)} port at {self.port_rate_bps / 1e9:g} Gb/s draws "
                f"{format_power(self.total_w)}: {format_power(self.serdes_w)} in the SerDes ({self.loss_db:g} dB "
                f"channel), {'no DSP' if self.dsp_w == 0 else format_power(self.dsp_w) + ' in a DSP'} and "
                f"{format_power(self.optics_w)} in the optics, "
                f"{self.energy_pj_per_bit:.3g} pJ/bit.")


def port_power(option: str, port_rate_bps: float) -> PortPower:
    """Power of one switch port of ``port_rate_bps`` with optics ``option``.

    ``option`` is ``"dsp_pluggable"``, ``"lpo"`` (linear pluggable, no DSP) or
    ``"cpo"`` (co-packaged). Pluggables see the claimed ~22 dB channel, CPO ~4 dB.

    Example: at 1.6 Tb/s a DSP pluggable's module draws (8.125 + 10.625) pJ/bit
    x 1.6 Tb/s = 30 W, and its SerDes 5.4 pJ/bit x 1.6 Tb/s = 8.64 W.

    >>> round(port_power("dsp_pluggable", 1.6e12).total_w, 2)
    38.64
    """
    option = validate.choice("option", option, OPTIONS)
    port_rate_bps = validate.positive("port_rate_bps", port_rate_bps)
    e = stage_energies()
    loss_key = "optics.cpo.channel_loss" if option == "cpo" else "optics.pluggable.channel_loss"
    loss_db = specs.value(loss_key)
    serdes_w = serdes_energy_per_bit(loss_db) * port_rate_bps
    dsp_w = e["dsp"] * port_rate_bps if option == "dsp_pluggable" else 0.0
    optics_w = (e["cpo_engine"] if option == "cpo" else e["linear_optics"]) * port_rate_bps
    return PortPower(option=option, port_rate_bps=port_rate_bps, loss_db=loss_db, serdes_w=serdes_w,
                     dsp_w=dsp_w, optics_w=optics_w, module_w=dsp_w + optics_w,
                     total_w=serdes_w + dsp_w + optics_w)


# --- the seed claims D10-D12, recomputed ---------------------------------------------------------------

@dataclass(frozen=True)
class CpoClaims:
    """NVIDIA's CPO figures set beside what follows from the others (ratios are pluggable / CPO)."""

    loss_gap_db: float                  # 22 - 4
    signal_integrity_derived: float     # 10 ** (loss_gap_db / 10)
    signal_integrity_claimed: float     # 63
    power_gain_module_derived: float    # 30 W / 9 W
    power_gain_port_derived: float      # with the host SerDes on both sides (model)
    power_gain_claimed: float           # 3.5
    laser_gain_claimed: float           # 1 / 0.25
    resiliency_gain_claimed: float      # 10: not derivable from the others
    deployment_speedup_claimed: float   # 1.3: not derivable from the others

    def __repr__(self) -> str:
        return (f"CpoClaims(signal integrity {self.signal_integrity_derived:.1f}x derived vs "
                f"{self.signal_integrity_claimed:g}x claimed; power {self.power_gain_module_derived:.2f}x "
                f"(modules) / {self.power_gain_port_derived:.2f}x (ports) derived vs {self.power_gain_claimed:g}x "
                f"claimed; resiliency {self.resiliency_gain_claimed:g}x and bring-up "
                f"{self.deployment_speedup_claimed:g}x on trust)")

    def __str__(self) -> str:
        return (f"Signal integrity: {self.signal_integrity_derived:.1f}x derived from the loss gap, "
                f"{self.signal_integrity_claimed:g}x claimed. Power: {self.power_gain_module_derived:.2f}x from the "
                f"module figures, {self.power_gain_port_derived:.2f}x with the host SerDes, "
                f"{self.power_gain_claimed:g}x claimed. Resiliency {self.resiliency_gain_claimed:g}x and bring-up "
                f"{self.deployment_speedup_claimed:g}x follow from nothing else: on trust.")


def cpo_claims() -> CpoClaims:
    """Recompute the seed's CPO ratios from the registry's per-port figures."""
    loss_gap_db = specs.value("optics.pluggable.channel_loss") - specs.value("optics.cpo.channel_loss")
    rate = specs.value("assume.optics.claim_port_rate")
    return CpoClaims(
        loss_gap_db=loss_gap_db,
        signal_integrity_derived=10.0 ** (loss_gap_db / 10.0),
        signal_integrity_claimed=specs.value("optics.cpo.signal_integrity_gain"),
        power_gain_module_derived=specs.value("optics.pluggable.port_power") / specs.value("optics.cpo.port_power"),
        power_gain_port_derived=port_power("dsp_pluggable", rate).total_w / port_power("cpo", rate).total_w,
        power_gain_claimed=specs.value("optics.cpo.power_efficiency_gain"),
        laser_gain_claimed=1.0 / specs.value("optics.cpo.laser_fraction"),
        resiliency_gain_claimed=specs.value("optics.cpo.resiliency_gain"),
        deployment_speedup_claimed=specs.value("optics.cpo.deployment_speedup"),
    )


def _default(name: str, value: float | None, key: str) -> float:
    """``value`` validated as >= 0, or the registry figure under ``key`` when None."""
    return specs.value(key) if value is None else validate.non_negative(
        name, value, maximum=1000.0, why="dB; 10**(loss/10) overflows near 3000 dB")


# --- energy per bit by generation (chapter 9) ----------------------------------------------------

#: Optics whose power per rate the registry holds, as name -> (power key, rate in bit/s or a registry key).
ENERGY_ROWS: dict[str, tuple[str, float | str]] = {
    "400G DR4 pluggable (NVIDIA, max)": ("optics.nvidia_400g_dr4.module_power", 400e9),
    "800G SR8 pluggable (NVIDIA, multimode)": ("optics.nvidia_800g_sr8.module_power", 800e9),
    "800G DR8 pluggable (NVIDIA, single-mode)": ("optics.nvidia_800g_dr8.module_power", 800e9),
    "800G DSP pluggable (typical)": ("optics.dsp_800g.module_power", 800e9),
    "800G linear pluggable (LPO)": ("optics.lpo_800g.module_power", 800e9),
    # NVIDIA's 30 W vs 9 W comes with no port rate: read at netlab's assumed 1.6 Tb/s, so marked "if"
    "pluggable port of NVIDIA's comparison, if 1.6 Tb/s": ("optics.pluggable.port_power",
                                                           "assume.optics.claim_port_rate"),
    "co-packaged port of NVIDIA's claim, if 1.6 Tb/s": ("optics.cpo.port_power", "assume.optics.claim_port_rate"),
    "passive copper (DAC), one end": ("optics.nvidia_dac.module_power", 800e9),
}


def energy_per_bit_table() -> str:
    """A Markdown table of optics energy per bit (module or port power over its rate), from the registry.

    pJ/bit = W / (Gb/s) x 1000; the module alone, without the host SerDes that drives it.
    """
    rows = ["| optics | rate | power | energy per bit | status, grade |", "|---|---|---|---|---|"]
    for name, (power_key, rate) in ENERGY_ROWS.items():
        spec = specs.get(power_key)
        rate_bps = specs.value(rate) if isinstance(rate, str) else float(rate)
        rows.append(f"| {name} | {rate_bps / 1e9:g} Gb/s | {spec.value:g} W | "
                    f"{spec.value / rate_bps / pJ:.3g} pJ/bit | {spec.status}, {spec.grade} |")
    return "\n".join(rows)
