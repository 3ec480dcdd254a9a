"""The compiled build of the simulator gives exactly what its plain Python modules give.

``netlab.sim.compiled`` builds the hottest modules with Cython from the same ``.py``
files (typed by the ``.pxd`` beside them). This test runs the same scenarios in this
process (the compiled build, which ``make install`` makes) and in a fresh interpreter
with ``NETLAB_SIM_PURE=1`` (the plain modules), and asks for identical arrival traces
-- every packet at every node, in order, at the same float time -- identical results
and identical event counts. The scenarios are those of the fast-path property test
(lossy, ECN, trimming, PFC, credits, cut-through, switch latency, go-back-N with and
without DCQCN, UET-like with spraying, credits, NSCC, coalescing; ECMP, spraying and
adaptive routing), drawn from a fixed seed; those small draws seldom fill a queue, so
six chosen scenarios make sure that PFC pauses, queues trim, drop and mark, and DCQCN
gets congestion notifications (the test checks each happens); plus small versions of the
benchmark's fabric runs.
"""

import dataclasses
import os
import pathlib
import pickle
import random
import subprocess
import sys

import pytest

import netlab.sim
from netlab.sim import compiled
from netlab.fabric.experiments import run_pattern
from netlab.sim.packet import CNP
from netlab.sim.results import RunResult
from netlab.uet.experiments import incast
from tests.sim.test_fastpath import build
from tests.sim.test_properties import comparable
from tests.sim.tracing import trace_arrivals

ROOT = pathlib.Path(__file__).resolve().parents[2]
N_SCENARIOS = 48
# Seven senders of 60 kB into h0 with a 20 kB buffer: each (mode, transport, leaf-spine)
# below makes one mechanism act, which the random draws above rarely do.
CHOSEN = [("pfc", "gbn", True), ("pfc", "uet-spray", True), ("trim", "uet", False),
          ("trim", "uet-coalesced", True), ("lossy", "gbn", False), ("ecn", "gbn-dcqcn", True)]


def draw(rng: random.Random) -> dict:
    """One scenario of the kind tests/sim/test_fastpath.py's strategy draws."""
    return {
        "mode": rng.choice(["lossy", "ecn", "trim", "pfc", "credits"]),
        "transport": rng.choice(["gbn", "gbn-dcqcn", "uet", "uet-spray", "uet-credits", "uet-nscc",
                                 "uet-coalesced", "uet-credits-coalesced"]),
        "leaf_spine": rng.random() < 0.5,
        "balancer": rng.choice(["ecmp", "spray", "adaptive"]),
        "buffer_bytes": rng.randint(20_000, 120_000),
        "seed": rng.randint(0, 2**16),
        "cut_through": rng.random() < 0.5,
        "latency": rng.choice([0.0, 100e-9]),
        "flows": [(rng.randint(0, 7), rng.randint(0, 7), rng.randint(1, 60_000),
                   rng.choice([0.0, 0.0, 1e-6, 3.3e-6])) for _ in range(rng.randint(1, 6))],
    }


def record() -> list:
    """Everything compared: per scenario its trace, result and event count."""
    rng = random.Random(20261203)
    chosen = [{"mode": mode, "transport": transport, "leaf_spine": leaf_spine,
               "balancer": "spray" if leaf_spine else "ecmp", "buffer_bytes": 20_000, "seed": 7,
               "cut_through": False, "latency": 0.0, "flows": [(i, 0, 60_000, 0.0) for i in range(1, 8)]}
              for mode, transport, leaf_spine in CHOSEN]
    out = []
    for k in range(N_SCENARIOS + len(CHOSEN)):
        s = draw(rng) if k < N_SCENARIOS else chosen[k - N_SCENARIOS]
        net = build(s, event_by_event=(k % 4 == 0))
        trace = trace_arrivals(net, [])
        result = net.run(until_s=2e-3, max_events=300_000)
        out.append((s, trace, comparable(result)))
    # small versions of the benchmark's fabric runs (bench_sim.py section 2)
    for scheme in ("ecmp", "spray", "adaptive"):
        r = run_pattern(scheme, n_leaves=4, n_spines=4, hosts_per_leaf=4, bytes_per_host=200_000,
                        propagation_s=1e-6, seed=1, ack_every=4)
        out.append((scheme, r.completion_times_s, r.uplink_bytes, r.out_of_order_packets, r.events_processed))
    for config, coalesce in (("roce-pfc", 1), ("uet-trim-credits", 4), ("uet-trim-credits", 1)):
        r = incast(config, 15, 200_000, propagation_s=1e-6, seed=1, fabric=(4, 4, 4),
                   ack_every=coalesce, packets_per_credit=coalesce)
        out.append((config, coalesce, comparable(dataclasses.replace(r, wall_s=0.0))))   # all but the wall time
    return out


def _pure_record(tmp_path) -> list:
    path = tmp_path / "pure.pickle"
    env = dict(os.environ, NETLAB_SIM_PURE="1", PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    script = ("import importlib, pickle, sys, netlab.sim\n"
              "from netlab.sim.compiled import MODULES\n"
              "files = [importlib.import_module('netlab.sim.' + name).__file__ for name in MODULES]\n"
              "assert not netlab.sim.COMPILED and all(f.endswith('.py') for f in files), files\n"
              "from tests.sim.test_compiled import record\n"
              f"pickle.dump(record(), open({str(path)!r}, 'wb'))\n")
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, check=True, timeout=600)
    return pickle.loads(path.read_bytes())


def test_the_compiled_build_is_the_one_running():
    use, why = compiled.status()
    assert netlab.sim.COMPILED and use, f"the compiled simulator is not in use ({why}); run make install"
    assert netlab.sim.port.__file__.endswith(tuple(compiled.importlib.machinery.EXTENSION_SUFFIXES))


def test_compiled_and_plain_modules_give_identical_runs(tmp_path):
    assert netlab.sim.COMPILED
    fast = record()
    pure = _pure_record(tmp_path)
    n_traced = N_SCENARIOS + len(CHOSEN)
    assert len(fast) == len(pure) == n_traced + 6
    assert sum(len(run[1]) for run in fast[:N_SCENARIOS]) > 2_000       # the traces hold packets (about 5,300)
    # what the traced scenarios exercise (the same in both builds if the records are equal)
    field = {f.name: i for i, f in enumerate(dataclasses.fields(RunResult))}
    results = [run[2] for run in fast[:n_traced]]
    arrivals = [a for run in fast[:n_traced] for a in run[1]]
    assert any(r[field["pfc_frames"]] for r in results), "no scenario pauses"
    assert any(r[field["trimmed_bytes"]] for r in results), "no scenario trims"
    assert any(r[field["dropped_packets"]] for r in results), "no scenario drops"
    assert any(a[8] for a in arrivals) and any(a[3] == CNP for a in arrivals), "no ECN mark or no CNP"
    for k, (a, b) in enumerate(zip(fast, pure)):
        assert a == b, f"run {k} differs between the compiled and the plain modules: {a[0]!r}"


def test_pure_is_chosen_when_asked_and_when_the_build_is_stale(monkeypatch):
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))      # choose() may add a finder
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert compiled.status() == (False, f"{compiled.PURE_ENV} is set")
    monkeypatch.delenv(compiled.PURE_ENV)
    monkeypatch.setattr(compiled, "_source_hash", lambda: "edited since")
    assert compiled.status()[0] is False and "source changed" in compiled.status()[1]
    with pytest.warns(RuntimeWarning, match="plain Python modules"):
        assert compiled.choose() is False
    spec = next(f for f in sys.meta_path if isinstance(f, compiled._SourceFinder)).find_spec("netlab.sim.port")
    assert spec.origin.endswith("port.py")


def test_a_packet_refuses_a_size_that_a_c_integer_would_truncate():
    # The compiled build keeps sizes in 64-bit integers, which would cut 1500.7 to 1500 without
    # a word; both builds refuse it instead, naming the field.
    from netlab.sim.packet import DATA, Packet
    with pytest.raises(ValueError, match="size_bytes"):
        Packet(DATA, 0, 0, 1, 1500.7)
    packet = Packet(DATA, 0, 0, 1, 1500, payload_bytes=1436)
    with pytest.raises(ValueError, match="header_bytes"):
        packet.trim(64.5)
    packet.trim(64)
    assert packet.size_bytes == 64 and packet.trimmed
