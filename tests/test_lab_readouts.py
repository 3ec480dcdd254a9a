"""The sentences under the labs' explorers, as the labs define them, against hand-worked numbers.

A lab's explorer takes ``readout=``, a function of the controls that returns the line a reader sees
under the figure (live in Jupyter, and in every precomputed frame of the published page). Labs 1-4
write theirs in the notebook; these tests run the lab's own cells, with ``widgets.Explorer`` replaced
by a recorder (nothing is drawn), and call the recorded readout. Labs 5-10 pass a function of
``netlab.<package>.figures``, tested with the same settings in ``tests/<package>/test_figures.py``;
lab 11's explorer is ``netlab.cluster.brief_explorer``, whose sentence is a :class:`Verdict` (below).
"""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import re
from dataclasses import replace
from types import SimpleNamespace

import pytest

from netlab import cluster, widgets
from netlab.collectives import figures as lab6
from netlab.fabric import figures as lab5
from netlab.longhaul import figures as lab10
from netlab.nvlink import figures as lab7
from netlab.optics import figures as lab9
from netlab.uet import figures as lab8
from netlab.units import KiB, MB

LABS = pathlib.Path(__file__).resolve().parents[1] / "labs"


def lab_explorers(stem: str, *markers: str) -> list[dict]:
    """Run lab ``stem``'s first code cell (its imports) and each code cell holding one of
    ``markers``, in the notebook's order, and return the keyword arguments of every
    ``widgets.Explorer(...)`` call they make (``draw`` and ``controls`` included)."""
    path = next(LABS.glob(f"{stem}-*.ipynb"))
    cells = ["".join(c["source"]) for c in json.loads(path.read_text(encoding="utf-8"))["cells"]
             if c["cell_type"] == "code"]
    recorded: list[dict] = []
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(cells[0], namespace)
        namespace["widgets"] = SimpleNamespace(
            Explorer=lambda draw, controls, **kw: recorded.append(dict(draw=draw, controls=controls, **kw)),
            choice=widgets.choice)
        for source in cells[1:]:
            if any(m in source for m in markers):
                exec(source, namespace)
    return recorded


def defaults(explorer: dict) -> dict:
    """The controls' default values: the frame a reader sees first."""
    return {name: control.default for name, control in explorer["controls"].items()}


# --- lab 1: data-parallel scaling ---------------------------------------------------------------

def test_lab_1_scaling_readout_for_7b_on_512_gpus():
    (ex,) = lab_explorers("lab01", "h100_achieved =", "def readout(", "readout=readout")
    assert defaults(ex) == {"model": "7 billion", "nic": "400G", "overlap": 0.0}
    # 512 GPUs: a 4 M-token batch of 4,096-token sequences allows at most 976 data-parallel replicas.
    # compute: 6 x 7e9 x 4e6 tokens / (512 x 989.4e12 x 0.40 MFU) = 1.68e17 / 2.02629e17 = 829.10 ms
    # ring all-reduce of 14 GB (2 B per parameter: ZeRO-1 moves what plain data parallelism does) over
    #   512 GPUs at 400 Gb/s, alpha 5 us: start-ups 2 x 511 x 5 us = 5.11 ms; bytes
    #   2 x 511/512 x 14e9 x 8 / 400e9 = 558.91 ms; 564.02 ms in all; nothing hidden: efficiency
    #   829.10 / 1,393.12 = 59.5 %, shown as 60 %; all-reduce < compute: compute-bound
    # ZeRO-1 state per GPU: 7e9 x (2 + 2 + 12 / 512) = 28.16 GB (a full replica, 112 GB, does not fit 80 GB)
    assert ex["readout"](**defaults(ex)) == (
        "At 512 GPUs: compute 829 ms, all-reduce 564 ms (559 ms moving bytes + 5.11 ms of start-ups), "
        "efficiency 60%, compute-bound; needs optimizer states sharded (ZeRO-1), 28.2 GB of state per GPU")
    # 90 % overlap hides min(0.9 x 564.02, 829.10) = 507.62 ms: 56.40 ms exposed, step 885.50 ms,
    # efficiency 93.6 %
    text = ex["readout"]("7 billion", "400G", 0.9)
    assert "efficiency 94%, compute-bound" in text, text


# --- lab 2: links ----------------------------------------------------------------------------------

def test_lab_2_path_readout_for_256_kib_over_4_hops():
    path, delay = lab_explorers("lab02", "hop_latency_s =", "def readout(", "readout=readout", "link_delay(size_bytes")
    assert defaults(path) == {"size_bytes": 256 * KiB, "rate": "400G", "hops": 4}
    # 262,144 B = 64 packets of 4,096 B (no headers in this model), store and forward, 0.5 us a hop:
    #   serialization 262,144 x 8 / 400e9 = 5.24288 us; pipeline fill 3 x 81.92 ns = 245.76 ns;
    #   hops 4 x 0.5 = 2 us: 7.48864 us. Goodput 2,097,152 bits / 7.48864 us = 280.04 Gb/s, 70 %
    assert path["readout"](**defaults(path)) == "time 7.49 µs; goodput 280 Gb/s (70% of the link); 64 packets"


def test_lab_2_link_delay_readout_at_10_m_and_100_km():
    _, delay = lab_explorers("lab02", "hop_latency_s =", "def readout(", "readout=readout", "link_delay(size_bytes")
    assert defaults(delay) == {"size_bytes": 4 * KiB, "rate": "400G", "distance_m": 10}
    # 4,096 B at 400 Gb/s: 81.92 ns; light in fibre 1.468 / c = 4.8967 ns/m: 48.97 ns over 10 m, equal
    # at 81.92 / 4.8967 = 16.73 m; round trip 97.93 ns holds 400e9 x 97.93e-9 / 8 = 4,897 B
    assert delay["readout"](**defaults(delay)) == (
        "4,096 bytes over 10 m at 400 Gb/s: serialization 81.9 ns, propagation 49 ns (serialization dominates; "
        "equal at 16.7 m); round trip 97.9 ns, bandwidth-delay product 4.9 KB")
    # 64 B at 100 Gb/s over 100 km: 5.12 ns against 489.67 us; equal at 1.05 m; round trip 979.3 us
    # holds 100e9 x 979.34e-6 / 8 = 12.24 MB
    text = delay["readout"](64, "100G", 100_000)
    assert "propagation 490 µs (propagation dominates; equal at 1.0 m)" in text, text
    assert text.endswith("round trip 979 µs, bandwidth-delay product 12.2 MB"), text


# --- lab 3: the host path ------------------------------------------------------------------------

def test_lab_3_latency_readout_for_64_kib_at_400g():
    latency, gain = lab_explorers("lab03", "def readout(", "def gain_readout(")
    assert defaults(latency) == {"size_bytes": 64 * KiB, "rate": "400G"}
    # GPU to GPU, 65,536 B. A staging copy: 5 us + 524,288 bits / 504.12 Gb/s (PCIe 5.0 x16) = 6.04 us.
    # The RDMA phase, one chunk: post 0.1 + NIC 0.25 + hop 0.5 + NIC 0.2 + poll 0.05 us + 524,288 / 400e9
    #   = 1.10 + 1.31072 = 2.41072 us. Staged: 6.04 + 2.41072 + 6.04 = 14.49072 us; GPUDirect 2.41072 us:
    #   1 - 2.41072 / 14.49072 = 83.4 % removed.
    # CPU per message, both hosts: TCP sender 0.5 + 1.5 + 1 (one segment) + 6.5536 (copy at 80 Gb/s)
    #   + 5 (cudaMemcpy) = 14.5536 us, receiver 2 + 1 + 3 + 0.5 + 6.5536 + 5 = 18.0536 us: 32.61 us;
    #   staged RDMA 2 x (0.1 + 0.05 + 5) = 10.3 us; GPUDirect 2 x 0.15 = 0.3 us
    assert latency["readout"](**defaults(latency)) == (
        "GPUDirect removes 83% of the staged latency. CPU time per message (both hosts): kernel TCP 32.6 µs, "
        "RDMA, staged 10.3 µs, GPUDirect RDMA 300 ns")


def test_lab_3_gain_readout_against_the_claimed_30_percent():
    _, gain = lab_explorers("lab03", "def readout(", "def gain_readout(")
    assert defaults(gain) == {"rate": "100G"}
    # gain(n) = 2c / (2c + r), a copy c = 5 us + 8n / 504.12e9, the RDMA phase r = 1.1 us + 8n / 100e9.
    # 1 GB: c = 15.874 ms, r = 80.001 ms: 31.748 / 111.749 = 28.4 %. Below 30 % where 1.4 c < 0.3 r:
    #   7 - 0.33 us < 8n (3.0 - 2.7771) ps, n > 3.74 MB; the plotted grid (10^(k/4) B) first passes
    #   it at 10^6.75 = 5,623,413 B
    assert gain["readout"]("100G") == "100G: below 30 % from about 5,623,413 B; 28% at 1 GB"
    # At 800G the wire runs at PCIe's 504 Gb/s, so r < c always and the gain stays above 2/3:
    #   1 GB: 2 x 15.874 / (2 x 15.874 + 15.870) = 66.7 %
    assert gain["readout"]("800G") == "800G: never below 30 %; 67% at 1 GB"


# --- lab 4: InfiniBand vs Ethernet -----------------------------------------------------------------

def _lab_4():
    return lab_explorers("lab04", "def run_incast", "victims = {", "str(victims[mode])", "perf_per_dollar(share")


def test_lab_4_lossless_incast_readout_matches_the_closed_form():
    incast, victim, ppd = _lab_4()
    # 8 senders x 64,000 B = 16 packets each (15 x 4,096 + 2,560), 64 header bytes a packet:
    #   ideal 8 x 65,024 x 8 / 100e9 = 41.615 us. Lossless, the receiver's link never idles once the
    #   first packet is through: done at 4,160 x 8 / 100e9 + 2 x 25 ns + 41.615 = 41.998 us, 1.009x
    text = incast["readout"]("credits", 8, 200)
    assert text == ("credits, 8 senders: done in 42 µs, 1.0 times the ideal 41.6 µs; 0 drops, 0 timeouts, "
                    "0 pause events"), text


def test_lab_4_default_lossy_incast_readout_is_consistent():
    incast, _, _ = _lab_4()
    assert defaults(incast) == {"mode": "lossy", "n": 8, "buffer_kb": 50}
    text = incast["readout"](**defaults(incast))
    m = re.fullmatch(r"lossy, 8 senders: done in ([\d.]+) µs, ([\d.]+) times the ideal 41\.6 µs; "
                     r"(\d+) drops, (\d+) timeouts, 0 pause events", text)
    assert m, text
    done, ratio, drops, timeouts = float(m[1]), float(m[2]), int(m[3]), int(m[4])
    # 512 KB into a 50 KB buffer: drops, and each lost tail waits for a 100 us timeout
    assert drops > 0 and timeouts > 0 and done > 100
    assert abs(ratio - done / 41.615) < 0.06, text        # the ratio is the time over the ideal


def test_lab_4_victim_readout_gives_the_victims_time_alone_by_hand():
    _, victim, _ = _lab_4()
    assert defaults(victim) == {"mode": "pfc"}
    # Alone, 300,000 B = 74 packets (73 x 4,096 + 992) and 74 x 64 header bytes: 304,736 B x 8 / 100e9
    #   = 24.379 us, plus two more store-and-forward packets (2 x 332.8 ns) and three cables (3 x 25 ns):
    #   25.119 us
    for mode, tail in (("pfc", "the shared link s0 -> s1 was paused for"),
                       ("credits", "no pause frames: the shared link s0 -> s1 waited for credit instead"),
                       ("lossy", "the shared link s0 -> s1 was never paused")):
        text = victim["readout"](mode)
        m = re.fullmatch(rf"{mode}: the victim took ([\d.]+) µs against 25\.1 µs alone, ([\d.]+) times longer; "
                         r"(.*)", text)
        assert m and m[3].startswith(tail), text
        assert abs(float(m[2]) - float(m[1]) / 25.119) < 0.06, text


def test_lab_4_performance_per_dollar_readout():
    _, _, ppd = _lab_4()
    assert defaults(ppd) == {"share": 0.20, "speedup": 1.2}
    # The same GPUs cost 80 % of one cluster and 90 % of the other: (1 - 0.10) / (1 - 0.20) = 1.125 times
    # as much; 1.2 / 1.125 = 1.0667 the performance per dollar; break-even at a 1.125x speed-up
    assert ppd["readout"](0.20, 1.2) == (
        "network 20% vs 10% of the cost: the cluster costs 1.125 times as much; a 1.20x speed-up gives "
        "1.067 times the performance per dollar; break-even at 1.125x")
    # 25 % with no speed-up: 0.9 / 0.75 = 1.2 times the cost, 1 / 1.2 = 0.833
    assert ppd["readout"](0.25, 1.0).startswith("network 25% vs 10% of the cost: the cluster costs 1.200 times "
                                                "as much; a 1.00x speed-up gives 0.833 times")


# --- labs 5-10: the readouts are netlab's, value-tested in tests/<package>/test_figures.py ------------

@pytest.mark.parametrize("stem, markers, readouts", [
    ("lab05", ["readout=figures.paths_readout"], [lab5.paths_readout]),
    ("lab06", ["readout=figures.algorithms_readout"], [lab6.algorithms_readout]),
    ("lab07", ["readout=figures.hierarchical_readout", "readout=figures.pareto_readout"],
     [lab7.hierarchical_readout, lab7.pareto_readout]),
    ("lab08", ["readout=figures.loss_readout", "readout=figures.state_readout"],
     [lab8.loss_readout, lab8.state_readout]),
])
def test_labs_5_to_8_show_the_tested_readouts(stem, markers, readouts):
    # (lab 5's second explorer passes figures.completions_readout over its simulated runs)
    assert [ex["readout"] for ex in lab_explorers(stem, *markers)] == readouts


def test_labs_9_and_10_show_the_tested_summaries_at_their_settings():
    power, failures = lab_explorers("lab09", "fabric_power_summary(", "fabric_failures_summary(")
    assert power["readout"](**defaults(power)) == lab9.fabric_power_summary("sn6800", 100_000, 1.3)
    assert failures["readout"](**defaults(failures)) == lab9.fabric_failures_summary(100_000, 100, 1)
    (two_site,) = lab_explorers("lab10", "two_site_summary(")
    assert defaults(two_site) == {"n_bytes": 1000 * MB, "window": "1 MB (datacenter)"}
    assert two_site["readout"](**defaults(two_site)) == lab10.two_site_summary(1000 * MB, 1 * MB)


# --- lab 11: the capstone's sentences ----------------------------------------------------------------

WORK = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, tokens_per_step=1152 * 4096,
                        n_tokens=15e12)
BRIEF = cluster.Brief(max_days=28.5, max_facility_w=12.35e6, max_capex_usd=230e6, n_gpus=4608)


@pytest.fixture(scope="module")
def evaluation():
    return cluster.evaluate(cluster.capstone_design("dgx-h100", "ib-adaptive", "dsp_pluggable", 1.0), WORK)


def _as(evaluation, days, facility_w, capex_low, capex_high):
    """``evaluation`` with the numbers a verdict reads set by hand."""
    return replace(evaluation, training_days=days, site=replace(evaluation.site, facility_w=facility_w),
                   capex_low_usd=capex_low, capex_high_usd=capex_high)


def test_lab_11_brief_reads_as_its_limits():
    assert str(BRIEF) == ("at most 28.5 days, 12.35 MW at the facility and $230 M of hardware (high estimate), "
                          "4,608 GPUs, gradients all-reduced in 25 MiB buckets behind a backward pass of 0.667 "
                          "of the compute")


def test_a_verdict_reads_its_numbers_and_the_constraints_it_misses(evaluation):
    name = evaluation.design.name
    # 28.57 days > 28.5 misses on time; 12.0 MW <= 12.35 and $229.6 M <= $230 M meet
    late = cluster.check(_as(evaluation, 28.57, 12.0e6, 180e6, 229.6e6), BRIEF)
    assert str(late) == f"{name}: 28.6 days, 12.00 MW at the facility, $180-230 M; misses the brief on time."
    # memory: 70e9 x 16 B / (tp 8 x pp 4) = 35 GB of 80 GB = 0.44; 28.57 / 28.5 = 1.00;
    # 12.0 / 12.35 = 0.97; 229.6 / 230 = 1.00
    assert cluster.plot_brief_alt(late) == (f"{name}: memory per GPU 0.44 of the GPU's, training days 1.00, "
                                            "facility power 0.97, high capex 1.00 of the brief's limits")
    over = cluster.check(_as(evaluation, 27.94, 12.6e6, 200e6, 231e6), BRIEF)
    assert str(over).endswith("27.9 days, 12.60 MW at the facility, $200-231 M; misses the brief on power and budget.")
    assert cluster.results_table([over]).splitlines()[-1] == (
        f"| {name} | 27.9 | 12.60 MW | \\$200-231 M | misses power, budget |")
    fine = cluster.check(_as(evaluation, 20.04, 11.0e6, 150e6, 210e6), BRIEF)
    assert str(fine).endswith(": 20.0 days, 11.00 MW at the facility, $150-210 M; meets the brief.")


def test_robustness_table_bolds_the_decisions_a_brief_forces():
    # one setting where every design that meets the brief is an NVL72 on 2:1 or 3:1 with any optics
    row = cluster.Robustness(pue=1.3, bucket_bytes=100 * 2**20, backward_share=0.5, flows_per_gpu=4, n_meet=6,
                             misses={}, fastest=None, cheapest=None,
                             choices={"domain": ("gb200-nvl72",), "fabric": ("ib-adaptive",),
                                      "optics": ("cpo", "dsp_pluggable", "lpo"), "oversubscription": (1.0, 2.0, 3.0),
                                      "wiring": ("fat_tree", "rail_only")}, nonblocking_wirings=("rail_only",))
    assert cluster.robustness_table([row]).splitlines()[-1] == (
        "| 1.3 | 100 MiB | 0.5 | 4 | 6 | **NVL72** | **IB adaptive** | CPO / DSP / LPO | 1:1 / 2:1 / 3:1 "
        "| fat tree / rail-only | **rail-only** |")


def test_step_parts_reads_seconds(evaluation):
    e = replace(evaluation, compute_s=2.4, bubble_s=0.9, tp_s=0.41, pp_s=0.0123, dp_s=1.75, n_buckets=167,
                dp_exposed_s=0.4375, backward_window_s=0.0906, overlap=0.75)
    assert cluster.step_parts(e) == (f"{e.design.name}: compute 2.400 s, pipeline bubble 0.900 s, tensor parallel "
                                     "0.410 s, pipeline transfers 0.0123 s, gradient all-reduce 1.750 s in 167 "
                                     "buckets, of which 0.438 s exposed after a backward pass of 0.0906 s (75% "
                                     "hidden) per step.")


def test_lab_11_explorer_shows_the_verdict_of_the_chosen_design(monkeypatch, evaluation):
    recorded = []
    monkeypatch.setattr(widgets, "Explorer",
                        lambda draw, controls, **kw: recorded.append(dict(controls=controls, **kw)))
    cluster.brief_explorer(WORK, BRIEF)
    (ex,) = recorded
    assert defaults(ex) == {"domain": "dgx-h100", "fabric_key": "ib-adaptive", "optics": "dsp_pluggable",
                            "oversubscription": 1.0}
    assert ex["readout"](**defaults(ex)) == str(cluster.check(evaluation, BRIEF))
