"""Figures and readouts for chapter 9 (lab 9): a fabric's watts by optics option, and how often
a large fabric loses a link.

``plot_fabric_power``/``fabric_power_summary`` draw and say :func:`netlab.optics.power.fabric_power`
for each optics option; ``plot_fabric_failures``/``fabric_failures_summary`` do the same for
:func:`netlab.optics.reliability.fabric_failures`.
"""

from __future__ import annotations

from collections.abc import Sequence

from netlab import plots, validate
from netlab.fabric import clos as fabric_mod
from netlab.optics import cpo as optics
from netlab.optics.power import fabric_power_by_option
from netlab.optics.reliability import FAILURE_SIZES, FIT, fabric_failures
from netlab.units import MW, format_power, hour


def plot_fabric_power(switch: str, n_gpus: int):
    """Stacked bars of network power (switch chips, switch ports, NIC ports) per optics option."""
    fab, p = fabric_power_by_option(switch, n_gpus)
    fig, ax = plots.figure(width_in=6.4, height_in=2.6)
    plots.bar_breakdown(ax, [optics.option_name(o) for o in optics.OPTIONS], {
        "switch chips": [p[o].switch_core_w / MW for o in optics.OPTIONS],
        "switch ports": [p[o].switch_ports_w / MW for o in optics.OPTIONS],
        "NIC ports": [p[o].nic_ports_w / MW for o in optics.OPTIONS]})
    ax.set_xlabel("network power (MW)")
    ax.set_title(f"{n_gpus:,} GPUs at {fab.port_rate_bps / 1e9:g} Gb/s, {fab.n_tiers} tiers of "
                 f"{fab.radix}-port switches")
    fig.alt = (f"Stacked bars of network power for {n_gpus:,} GPUs: "
               + ", ".join(f"{optics.option_name(o)} {format_power(p[o].total_w)}" for o in optics.OPTIONS))
    return fig


def fabric_power_summary(switch: str, n_gpus: int, pue: float) -> str:
    """One sentence: switches, optical ends, network watts per GPU port, and what CPO saves."""
    pue = validate.in_range("pue", pue, 1.0, 5.0)
    fab, p = fabric_power_by_option(switch, n_gpus)
    saved = (p["dsp_pluggable"].total_w - p["cpo"].total_w) * pue
    return (f"{fab.n_switches:,} switches and {fab.n_transceivers:,} optical link ends; network power per GPU "
            f"port {p['dsp_pluggable'].per_host_w:.0f} W with DSP pluggables, {p['lpo'].per_host_w:.0f} W with "
            f"LPO, {p['cpo'].per_host_w:.0f} W with CPO; CPO saves {format_power(saved)} at the facility "
            f"(PUE {pue:g}).")


def plot_fabric_failures(fit: float, cpo_mtbf_gain: float, switch: str = "quantum_x800",
                         sizes: Sequence[int] = FAILURE_SIZES):
    """Laser failures per day against GPU count: pluggable fabric vs CPO switches (NICs pluggable)."""
    rate = validate.positive("fit", fit) * FIT
    validate.in_range("cpo_mtbf_gain", cpo_mtbf_gain, 1.0, 1e6)
    sizes = [validate.integer("sizes", n, minimum=1, maximum=validate.MAX_COUNT)
             for n in validate.sequence("sizes", sizes, "a tuple of GPU counts")]
    fig, ax = plots.figure(width_in=6.4, height_in=3.2)
    for option, color in (("dsp_pluggable", "optics"), ("cpo", "cpo")):
        per_day = [fabric_failures(fabric_mod.for_switch(switch, n), option, rate, cpo_mtbf_gain).failures_per_day
                   for n in sizes]
        ax.loglog(sizes, per_day, "o-", color=plots.color(color), label=optics.option_name(option))
    nic = [fabric_failures(fabric_mod.for_switch(switch, n), "cpo", rate, cpo_mtbf_gain).nic_side_per_day
           for n in sizes]
    ax.loglog(sizes, nic, ":", color=plots.color("grey"), label="of which NIC-side pluggables")
    ax.axhline(1.0, color=plots.color("grey"), linestyle="--", linewidth=1)
    ax.set_ylim(1e-2, 1e2)
    ax.minorticks_off()
    names = {"quantum_x800": "Quantum-X800", "quantum2": "Quantum-2", "sn6800": "SN6800", "sn6810": "SN6810",
             "sn5600": "SN5600", "sn5600_400g": "SN5600 (128 x 400G)"}
    ax.set_xlabel(f"GPUs ({names.get(switch, switch)} fabric)")
    ax.set_ylabel("laser failures per day")
    ax.set_title(f"{fit:g} FIT per laser, CPO lasers {cpo_mtbf_gain:g}x more reliable")
    ax.legend()
    fig.alt = f"Log-log lines of laser failures per day against GPU count at {fit:g} FIT, pluggable vs CPO"
    return fig


def fabric_failures_summary(n_gpus: int, fit: float, cpo_mtbf_gain: float, switch: str = "quantum_x800") -> str:
    """One sentence comparing a pluggable fabric with CPO switches at ``n_gpus``."""
    rate = validate.positive("fit", fit) * FIT
    n_gpus = validate.integer("n_gpus", n_gpus, minimum=1, maximum=validate.MAX_COUNT)
    fab = fabric_mod.for_switch(switch, n_gpus)
    plug = fabric_failures(fab, "dsp_pluggable", rate)
    cpo = fabric_failures(fab, "cpo", rate, cpo_mtbf_gain)
    return (f"{n_gpus:,} GPUs: {plug.failures_per_day:.2g} laser failures a day with pluggables (one every "
            f"{plug.mtbf_fleet_s / hour:.2g} h), {cpo.failures_per_day:.2g} with CPO switches (one every "
            f"{cpo.mtbf_fleet_s / hour:.2g} h, {100 * cpo.nic_share:.0f} % of them in the NIC pluggables).")


# --- chapter 9's failures explorer: goodput against the checkpoint interval ---------------------

GOODPUT_INTERVALS_MIN = tuple(round(2.0 ** (k / 4), 3) for k in range(0, 37))   # 1 min .. 8.5 h


def plot_goodput(n_gpus: int, checkpoint_s: float, restart_s: float):
    """Goodput against the work between checkpoints for a job on ``n_gpus`` GPUs (Daly's complete
    model at the Llama 3 run's interruption rate per GPU), with Young's and Daly's optima marked."""
    from netlab.training import failures
    ck = failures.checkpointing(n_gpus, validate.positive("checkpoint_s", checkpoint_s, maximum=86400.0),
                                validate.non_negative("restart_s", restart_s, maximum=86400.0))
    taus = [m * 60.0 for m in GOODPUT_INTERVALS_MIN]
    good = [failures.goodput(t, ck.checkpoint_s, ck.restart_s, ck.mtbf_s) for t in taus]
    fig, ax = plots.figure(width_in=6.4, height_in=3.0)
    ax.semilogx([t / 60 for t in taus], [100 * g for g in good], "-", color=plots.color("blue"),
                label="goodput (Daly's model)")
    ax.axvline(ck.young_s / 60, color=plots.color("grey"), linestyle="--", linewidth=1,
               label=f"Young {ck.young_s / 60:.1f} min")
    ax.plot([ck.daly_s / 60], [100 * ck.goodput], "o", color=plots.color("vermillion"),
            label=f"Daly {ck.daly_s / 60:.1f} min: {100 * ck.goodput:.1f} %")
    ax.set_ylim(0, 100)
    ax.minorticks_off()
    ticks = [1, 3, 10, 30, 100, 300]
    ax.set_xticks(ticks, [str(t) for t in ticks])
    ax.set_xlabel("work between checkpoints (minutes)")
    ax.set_ylabel("goodput (%)")
    ax.set_title(f"{n_gpus:,} GPUs: an interruption every {ck.mtbf_s / hour:.3g} h; "
                 f"checkpoint {ck.checkpoint_s:g} s, restart {ck.restart_s:g} s")
    ax.legend(loc="lower center")
    fig.alt = goodput_summary(n_gpus, checkpoint_s, restart_s)
    return fig


def goodput_summary(n_gpus: int, checkpoint_s: float, restart_s: float) -> str:
    """One sentence: the job's interruptions, Young's and Daly's intervals, and the goodput at Daly's."""
    from netlab.training import failures
    ck = failures.checkpointing(n_gpus, validate.positive("checkpoint_s", checkpoint_s, maximum=86400.0),
                                validate.non_negative("restart_s", restart_s, maximum=86400.0))
    lost = 1.0 - ck.goodput
    return (f"{n_gpus:,} GPUs fail every {ck.mtbf_s / hour:.3g} h ({ck.interruptions_per_day:.3g} a day); "
            f"checkpointing every {ck.daly_s / 60:.1f} min (Daly; Young says {ck.young_s / 60:.1f}) keeps "
            f"{100 * ck.goodput:.1f} % of the time, losing {100 * lost:.1f} % to writes, redone work and restarts.")
