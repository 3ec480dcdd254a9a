"""Figures and readouts for chapter 8's explorers: loss recovery and connection state (lab 8).

``draw_loss``/``loss_readout`` plot the closed forms of :mod:`netlab.uet.loss_recovery` for
go-back-N (RoCE, and UET's ordered ROD mode) against selective repeat (UET's RUD mode);
``draw_goodput`` sets simulated goodput over many seeds (mean and spread) beside them;
``draw_state``/``state_readout`` plot :mod:`netlab.uet.connections`. Controls are display
names ("400G", "ring (2 peers)").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from netlab import plots, specs, validate
from netlab.uet import connections, loss_recovery as transport
from netlab.units import us

RATES = {"100G": "eth.100g.port_rate", "400G": "eth.400g.port_rate", "800G": "eth.800g.port_rate"}
LOSS_GRID = np.logspace(-5, -1, 30)
WORLD = (8, 64, 512, 4096, 32768)
# pattern -> (peers per phase, partners change every phase until every peer is used?)
PATTERNS = {"ring (2 peers)": (2, False), "tree (3 peers)": (3, False), "all-to-all phase (255 peers)": (255, False),
            "changing partners (8 per phase)": (8, True)}


def wire_packet_bytes() -> float:
    """A full packet on the wire in the simulator's settings: payload (MTU) plus headers."""
    return specs.value("sim.assume.mtu") + specs.value("sim.assume.header")


def _pipe(rate: str, delay_us: float) -> float:
    validate.choice("rate", rate, RATES)
    delay_us = validate.positive("delay_us", delay_us)
    return transport.pipe_packets(specs.value(RATES[rate]), delay_us * us, wire_packet_bytes())


def draw_loss(rate: str, delay_us: float):
    """Share of the link carrying new data against loss rate, go-back-N vs selective repeat."""
    k = _pipe(rate, delay_us)
    fig, ax = plots.figure(width_in=5.6, height_in=3.0)
    ax.semilogx(LOSS_GRID, [transport.go_back_n_efficiency(p, 10 * k, k) * 100 for p in LOSS_GRID],
                color=plots.color("roce"), label="go-back-N (RoCE; UET ROD)")
    ax.semilogx(LOSS_GRID, [transport.selective_repeat_efficiency(p, 10 * k, k) * 100 for p in LOSS_GRID],
                color=plots.color("uet"), label="selective repeat (UET RUD)")
    ax.set_ylim(0, 102)
    ax.set_xlabel("loss rate")
    ax.set_ylabel("link carrying new data (%)")
    ax.set_title(f"{rate}, {delay_us:g} µs feedback: pipe K = {k:.0f} packets")
    ax.legend(loc="lower left")
    return fig


def loss_readout(rate: str, delay_us: float) -> str:
    """One sentence: the pipe and what 0.1 % loss leaves each scheme."""
    k = _pipe(rate, delay_us)
    gbn = transport.go_back_n_efficiency(1e-3, 10 * k, k)
    sr = transport.selective_repeat_efficiency(1e-3, 10 * k, k)
    return (f"The pipe holds K = {k:.1f} packets; at 0.1 % loss go-back-N keeps {gbn:.1%} of the link "
            f"and selective repeat {sr:.1%}.")


def draw_goodput(loss_rates: Sequence[float], simulated: dict, window_packets: float, pipe_packets: float):
    """Simulated goodput (mean over seeds, bars from lowest to highest seed) beside the closed forms.

    ``simulated`` maps ``"roce"`` and ``"uet"`` to arrays of shape (len(loss_rates), seeds).
    """
    p = np.array([validate.in_range("loss_rates", x, 0.0, 1.0, low_open=True, high_open=True)
                  for x in validate.sequence("loss_rates", loss_rates, "a list of loss rates")])
    if not len(p):
        raise ValueError("loss_rates must hold at least one loss rate")
    if not isinstance(simulated, dict) or not {"roce", "uet"} <= set(simulated):
        raise TypeError(f"simulated must be a dict of 'roce' and 'uet' arrays, got {simulated!r:.80}")
    w = validate.positive("window_packets", window_packets)
    k = validate.positive("pipe_packets", pipe_packets)
    fig, ax = plots.figure(width_in=6.4, height_in=3.4)
    grid = np.logspace(np.log10(p.min() / 2), np.log10(min(p.max() * 1.25, 0.5)), 40)
    ax.semilogx(grid, [transport.go_back_n_efficiency(x, w, k) * 100 for x in grid],
                color=plots.color("roce"), label="go-back-N, closed form")
    ax.semilogx(grid, (1 - grid) * 100, color=plots.color("uet"), label="selective repeat, closed form")
    for name, marker, label in (("roce", "o", "RoCE-like, simulated"), ("uet", "s", "UET-like (RUD), simulated")):
        runs = np.asarray(simulated[name], dtype=float) * 100
        mean = runs.mean(axis=1)
        ax.errorbar(p, mean, yerr=[mean - runs.min(axis=1), runs.max(axis=1) - mean], fmt=marker,
                    color=plots.color(name), capsize=3, label=f"{label}: mean, seed range")
    ax.set_xlabel("loss rate")
    ax.set_ylabel("goodput vs lossless (%)")
    ax.legend(loc="lower left", fontsize=8)
    return fig


def draw_state(pattern: str, idle_ms: float):
    """Connection contexts per NIC against job size: RoCE QPs held vs UET PDCs alive."""
    validate.choice("pattern", pattern, PATTERNS)
    idle_ms = validate.positive("idle_ms", idle_ms)
    peers, every = PATTERNS[pattern]
    rows = connections.state_vs_job_size(list(WORLD), peers, every_peer=every, phase_s=1e-3,
                                         idle_timeout_s=idle_ms * 1e-3)
    fig, ax = plots.figure(width_in=5.6, height_in=3.0)
    ax.loglog(WORLD, [r.roce_qps for r in rows], "o-", color=plots.color("roce"),
              label="RoCE QPs, every peer at start (eager)")
    ax.loglog(WORLD, [r.roce_lazy_qps for r in rows], "^--", color=plots.color("roce"),
              label="RoCE QPs, on first use (lazy: NCCL's default)")
    ax.loglog(WORLD, [r.uet_pdcs for r in rows], "s-", color=plots.color("uet"), label="UET PDCs alive")
    ax.set_xlabel("ranks in the job (one per NIC)")
    ax.set_ylabel("connection contexts per NIC")
    ax.set_title(pattern)
    ax.legend(loc="upper left")
    return fig


def state_readout(pattern: str, idle_ms: float) -> str:
    """One sentence: the contexts per NIC at the largest job size."""
    validate.choice("pattern", pattern, PATTERNS)
    idle_ms = validate.positive("idle_ms", idle_ms)
    peers, every = PATTERNS[pattern]
    return repr(connections.connection_state(WORLD[-1], peers, phase_s=1e-3, idle_timeout_s=idle_ms * 1e-3,
                                             distinct_peers=WORLD[-1] - 1 if every else None))
