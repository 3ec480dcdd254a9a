"""The bad-input sweep (issue 30): every public callable of netlab, found by walking the package.

A robustness sweep, not a behaviour test. :func:`tests.sweep.discover` lists every public function,
every public class (its constructor) and every public method defined in a netlab module; a new one
is swept as soon as it exists. Each parameter in turn receives each value of
:data:`tests.sweep.BAD_INPUTS` (None, a string, NaN, +-inf, 10**400, 2**63, -1, 0, an empty list,
True) while the others keep a valid value; the call must then

* refuse with a ValueError or TypeError whose message names that parameter, or
* answer with finite numbers, none of its times, sizes, rates, powers or counts negative, and
  survive what a user does next with the answer (print it; run the network; pass the record on to
  the model that reads it): an error there is one the call should have raised,

within :data:`tests.sweep.HANG_GUARD_S` seconds (a guard against a hang, not a speed test).

The valid calls come from the ``API`` tables of the test modules (functions), the defaults of the
signature, and :data:`CASES` below (constructors and methods, and functions of objects). A callable
that is not swept is in :data:`NOT_SWEPT` with the reason.
"""

from __future__ import annotations

import dataclasses
import enum
import tempfile

import numpy as np
import pytest

from netlab import cluster, exercises, rdma, specs, sweep, units
from netlab.collectives import nccl_log, nccl_tests, nccl_tuner, on_topology, schedules
from netlab.fabric import experiments as fabric_experiments, figures as fabric_figures, flowlevel
from netlab.lossless import dcqcn, experiments as lossless_experiments, figures as lossless_figures
from netlab.nvlink import domains, inference
from netlab.optics import figures as optics_figures, power
from netlab.rdma import Access, Opcode, QPState, hoststack
from netlab.rdma.core import CompletionQueue, SGE
from netlab.rdma.qp import QueuePair, RecvWR, SendWR
from netlab.rdma.verbs import Context, MemoryRegion, ProtectionDomain
from netlab.sim import topology
from netlab.sim.cc import DCQCN
from netlab.sim.engine import Simulator
from netlab.sim.loadbalance import Adaptive, PathAware, Spray
from netlab.sim.network import Network
from netlab.sim.queues import DropTail, ECNMarking, QueuePolicy
from netlab.sim.results import FlowTrace, RunResult
from netlab.sim.switch import ECMP, PFC, Credits, Lossy
from netlab.sim.trimming import RandomLoss, Trimming
from netlab.sim.uet import uet
from netlab.sim.uet_cc import NSCC
from netlab.uet import figures as uet_figures
from tests import properties as P, sweep as S
from tests.sweep import Case

TABLES = P.api_tables(exclude=("tests.test_bad_input",))


# --- what a user does next with an accepted value --------------------------------------------------
def _varied():
    return exercises.varied("ex", "{n} s?", {"n": [1, 2]}, answer=lambda n: 2.0 * n, unit="s")


def _run(flow=None, leaf_spine=False, **network_kwargs):
    """A small network with one 20 kB flow, run to the end; its result must be in range."""
    if leaf_spine:
        net = topology.leaf_spine(2, 2, 1, 100e9, 100e9, **network_kwargs)
    else:
        net = topology.single_switch(2, 100e9, **network_kwargs)
    net.add_flow("h0", "h1", 20_000, **(flow or {}))
    S.check(net.run(max_wall_s=S.HANG_GUARD_S))


def _build_and_run(net: Network):
    net.add_switch("s0")
    for h in ("h0", "h1"):
        net.add_host(h)
        net.connect(h, "s0", 100e9)
    net.add_flow("h0", "h1", 20_000)
    S.check(net.run(max_wall_s=S.HANG_GUARD_S))


def _fields(record) -> dict:
    """The constructor arguments that rebuild ``record`` (a valid call of its class)."""
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record) if f.init}


def _small_network():
    return topology.single_switch(2, 100e9)


def _verbs():
    """Two connected endpoints and a registered buffer on each (chapter 3's set-up)."""
    fabric = rdma.Fabric(100e9)
    a, b = rdma.endpoint(fabric, "a"), rdma.endpoint(fabric, "b")
    every = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
    rdma.connect(a.qp, b.qp, access=every)
    xa, xb = np.arange(64, dtype=np.uint8), np.zeros(64, dtype=np.uint8)
    return a, b, a.pd.reg_mr(xa, every), b.pd.reg_mr(xb, every)


def _mr():
    return _verbs()[2]


W = cluster.Workload(n_params=70e9, n_layers=80, hidden=8192, seq_len=4096, tokens_per_step=1152 * 4096,
                     n_tokens=15e12)
IB = cluster.Design("IB", 4608, "dgx-h100", "quantum2", 1.0, "adaptive", "dsp_pluggable", tp=8, pp=4)
BRIEF = cluster.Brief(28.5, 12.35e6, 230e6)
_EVAL = cluster.evaluate(IB, W, mfu=0.4)
_VERDICT = cluster.check(_EVAL, BRIEF)
DGX = domains.preset("dgx-h100")
LLAMA = inference.model("llama3-70b")
_FLAT = on_topology.flat_topology(4, 5e-6, 400e9)
_SHARING = lossless_experiments.dcqcn_sharing(n_flows=2, duration_s=50e-6, bandwidth_bps=25e9, stagger_s=10e-6,
                                              sample_interval_s=10e-6)
_INCAST = lossless_experiments.incast("pfc", 2, size_bytes=8_000, sample_interval_s=1e-6)
_VICTIM = lossless_experiments.victim("pfc", size_bytes=8_000, sample_interval_s=1e-6)
_FLOWLEVEL = flowlevel.leaf_spine_permutation(2, 2, 2, 100e9, 100e9)
_FABRIC_RUN = fabric_experiments.run_pattern("ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2,
                                             bytes_per_host=10_000)


def _traced_run() -> RunResult:
    net = topology.single_switch(2, 100e9)
    net.add_flow("h0", "h1", 20_000)
    net.sample_flows(1e-7)
    return net.run()


_RUN = _traced_run()

# Valid calls that no API table holds: constructors of the records and policies a user builds,
# the methods a user calls, and functions of objects. ``then`` is what a user does next.
CASES = {
    # records a user builds and passes on to a model
    inference.ModelShape: Case(_fields(LLAMA), then=lambda shape, _: S.check(
        inference.decode_step(shape, DGX, tp=8, batch=4))),
    domains.ScaleUpDomain: Case(_fields(DGX), then=lambda d, _: (
        S.check(domains.check_domain(d)), S.check(domains.hierarchical_all_reduce(1e9, 64, d, 8)),
        repr(d)), related={n: "a domain may be built by hand; check_domain refuses it where a model reads it "
                              "(issue 17)" for n in ("n_gpus", "per_gpu_bps", "scaleout_per_gpu_bps", "power_w",
                                                     "intra_alpha_s", "inter_alpha_s")}),
    hoststack.HostCosts: Case(_fields(hoststack.default_costs()), then=lambda c, _: S.check(
        hoststack.host_path_latency("rdma", 4096, 100e9, costs=c))),
    on_topology.Topology: Case(_fields(_FLAT), then=lambda t, _: S.check(
        on_topology.schedule_time(schedules.ring_all_reduce(t.world_size), 1e6, t))),
    cluster.Workload: Case(_fields(W), then=lambda w, _: S.check(cluster.evaluate(IB, w, mfu=0.4)),
                           related={"tokens_per_step": "a whole number of the design's data-parallel batches"}),
    cluster.Design: Case(_fields(IB), then=lambda d, _: S.check(cluster.evaluate(d, W, mfu=0.4))),
    cluster.Brief: Case(_fields(BRIEF), then=lambda b, _: S.check(cluster.check(_EVAL, b))),
    dcqcn.Params: Case(then=lambda p, _: (S.check(dcqcn.fixed_point(p)),
                                          S.check(dcqcn.simulate(p, duration_s=1e-4)))),
    # the simulator's policies, each run in a small network
    Network: Case(then=lambda net, _: _build_and_run(net)),
    Lossy: Case(dict(buffer_bytes=100e3), then=lambda fc, _: _run(flow_control=fc),
                related={"buffer_bytes": "one packet of the network's mtu + header"}),
    PFC: Case(dict(buffer_bytes=100e3), then=lambda fc, _: _run(flow_control=fc),
              related={n: "the headroom of each link it guards (its rate and length)"
                       for n in ("buffer_bytes", "xoff_bytes", "xon_bytes")}),
    Credits: Case(dict(buffer_bytes=100e3), then=lambda fc, _: _run(flow_control=fc)),
    ECNMarking: Case(dict(kmin_bytes=5e3, kmax_bytes=200e3), then=lambda e, _: (
        _run(queue_policy=DropTail(ecn=e)), S.check(e.probability(10e3)))),
    QueuePolicy: Case(then=lambda p, _: _run(queue_policy=p)),
    DropTail: Case(then=lambda p, _: _run(queue_policy=p)),
    Trimming: Case(then=lambda p, _: _run(queue_policy=p)),
    RandomLoss: Case(dict(loss_rate=0.01), then=lambda p, _: _run(queue_policy=p)),
    ECMP: Case(then=lambda lb, _: _run(leaf_spine=True, load_balancer=lb)),
    Spray: Case(then=lambda lb, _: _run(leaf_spine=True, load_balancer=lb)),
    Adaptive: Case(then=lambda lb, _: _run(leaf_spine=True, load_balancer=lb)),
    PathAware: Case(then=lambda lb, _: _run(leaf_spine=True, load_balancer=lb)),
    DCQCN: Case(then=lambda cc, _: _run(flow=dict(cc=lambda: cc))),
    NSCC: Case(then=lambda cc, _: _run(flow=dict(cc=lambda: cc, transport=uet()))),
    Simulator: Case(then=lambda sim, _: sim.run()),
    # the network a user builds, step by step
    Network.add_host: Case(dict(name="h9"), make=_small_network),
    Network.add_switch: Case(dict(name="s9"), make=_small_network,
                             then=lambda sw, net: (net.connect(sw, "s0", 100e9), net.add_host("h9"),
                                                   net.connect("h9", sw, 100e9),
                                                   net.add_flow("h9", "h0", 20_000), S.check(net.run()))),
    Network.node: Case(dict(name_or_node="h0"), make=_small_network),
    # methods of chapter 6's NCCL records, on a small record each
    nccl_tuner.ChoiceTable.switch_points: Case(make=lambda: nccl_tuner.choice_table(8, sizes=(4096.0, 2.0**24))),
    nccl_log.NcclLog.network_hops: Case(make=lambda: nccl_log.parse(nccl_log.example_log(2, 2, 1))),
    nccl_log.NcclLog.nics_used: Case(make=lambda: nccl_log.parse(nccl_log.example_log(2, 2, 1))),
    nccl_log.NcclLog.explain: Case(make=lambda: nccl_log.parse(nccl_log.example_log(2, 2, 1))),
    Network.connect: Case(dict(a="h9", b="s0", bandwidth_bps=100e9),
                          make=lambda: (net := _small_network(), net.add_host("h9"))[0],
                          then=lambda _, net: (net.add_flow("h9", "h0", 20_000), S.check(net.run()))),
    Network.set_route: Case(dict(switch="s0", dst_host="h1", ports=(1,)), make=_small_network,
                            then=lambda _, net: (net.add_flow("h0", "h1", 20_000), S.check(net.run()))),
    Network.add_flow: Case(dict(src="h0", dst="h1", size_bytes=20_000), make=_small_network,
                           then=lambda _, net: S.check(net.run())),
    Network.sample_queues: Case(dict(ports=["s0[1]"], interval_s=1e-6), make=_small_network,
                                then=lambda _, net: (net.add_flow("h0", "h1", 20_000), S.check(net.run()))),
    Network.sample_flows: Case(dict(interval_s=1e-6), make=_small_network,
                               then=lambda _, net: (net.add_flow("h0", "h1", 20_000), S.check(net.run()))),
    Network.run: Case(make=lambda: (net := _small_network(), net.add_flow("h0", "h1", 20_000))[0]),
    Network.blocked_cycle: Case(make=_small_network),
    Simulator.at: Case(dict(time_s=1e-6, callback=int), make=Simulator, then=lambda _, sim: sim.run()),
    Simulator.after: Case(dict(delay_s=1e-6, callback=int), make=Simulator, then=lambda _, sim: sim.run()),
    Simulator.stop: Case(make=Simulator, then=lambda _, sim: S.check(sim.run())),
    Simulator.run: Case(make=lambda: (sim := Simulator(), sim.at(1e-6, int))[0]),
    ECNMarking.probability: Case(dict(queue_bytes=10e3), make=lambda: ECNMarking(5e3, 200e3, 0.01)),
    # chapter 3's verbs, as a user drives them
    rdma.endpoint: Case(lambda: dict(fabric=rdma.Fabric(100e9), host="a")),
    rdma.connect: Case(lambda: dict(qp_a=rdma.endpoint(f := rdma.Fabric(100e9), "a").qp,
                                    qp_b=rdma.endpoint(f, "b").qp)),
    rdma.Fabric.open_device: Case(dict(host="a"), make=lambda: rdma.Fabric(100e9)),
    rdma.Fabric.network_s: Case(dict(n_bytes=4096), make=lambda: rdma.Fabric(100e9)),
    Context.alloc_pd: Case(make=lambda: rdma.Fabric(100e9).open_device("a")),
    Context.create_cq: Case(make=lambda: rdma.Fabric(100e9).open_device("a")),
    ProtectionDomain.reg_mr: Case(dict(buffer=np.zeros(64, dtype=np.uint8)),
                                  make=lambda: rdma.Fabric(100e9).open_device("a").alloc_pd()),
    ProtectionDomain.create_qp: Case(lambda pd: dict(send_cq=pd.context.create_cq(), recv_cq=pd.context.create_cq()),
                                     make=lambda: rdma.Fabric(100e9).open_device("a").alloc_pd()),
    MemoryRegion.sge: Case(make=_mr),
    MemoryRegion.contains: Case(dict(addr=0, length=8), make=_mr),
    MemoryRegion.view: Case(dict(addr=0, length=8), make=_mr),
    MemoryRegion.dereg: Case(make=_mr),
    CompletionQueue.poll: Case(make=lambda: rdma.Fabric(100e9).open_device("a").create_cq()),
    QueuePair.modify: Case(dict(state=QPState.INIT), make=lambda: rdma.endpoint(rdma.Fabric(100e9), "a").qp),
    QueuePair.post_recv: Case(dict(wr=RecvWR(wr_id=1)), make=lambda: _verbs()[1].qp),
    QueuePair.post_send: Case(dict(wr=SendWR(wr_id=1, opcode=Opcode.SEND)), make=lambda: _verbs()[0].qp),
    SGE: Case(dict(addr=0, length=8, lkey=1)),
    SendWR: Case(dict(wr_id=1, opcode=Opcode.SEND)),
    rdma.UDAddress: Case(dict(host="b", qp_num=0x40, qkey=0x11)),
    ProtectionDomain.create_srq: Case(dict(max_wr=16), make=lambda: rdma.Fabric(100e9).open_device("a").alloc_pd()),
    rdma.SharedReceiveQueue.post_recv: Case(dict(wr=RecvWR(wr_id=1)),
                                            make=lambda: rdma.Fabric(100e9).open_device("a").alloc_pd().create_srq()),
    rdma.SharedReceiveQueue.arm: Case(dict(limit=4),
                                      make=lambda: rdma.Fabric(100e9).open_device("a").alloc_pd().create_srq()),
    RecvWR: Case(dict(wr_id=1)),
    # methods of results, as a reader calls them
    flowlevel.FlowLevelRun.percentile_s: Case(dict(q=50.0), make=lambda: _FLOWLEVEL),
    fabric_experiments.FabricRun.percentile_s: Case(dict(q=50.0), make=lambda: _FABRIC_RUN),
    sweep.Sweep.column: Case(dict(name="seed"), make=lambda: sweep.Sweep(("seed",), ((1,),), "serial")),
    sweep.Sweep.where: Case(make=lambda: sweep.Sweep(("seed",), ((1,),), "serial")),
    sweep.Sweep.records: Case(make=lambda: sweep.Sweep(("seed",), ((1,),), "serial")),
    dcqcn.Trajectory.mean_rates_bps: Case(dict(since_s=0.0), make=lambda: dcqcn.simulate(duration_s=1e-4)),
    lossless_experiments.SharingResult.mean_rates_bps: Case(dict(since_s=0.0), make=lambda: _SHARING),
    lossless_experiments.SharingResult.mean_queue_bytes: Case(dict(since_s=0.0), make=lambda: _SHARING),
    lossless_experiments.SharingResult.jain_index: Case(dict(since_s=0.0), make=lambda: _SHARING),
    hoststack.HostPathTime.by_category: Case(make=lambda: hoststack.host_path_latency("rdma", 4096, 100e9)),
    schedules.Schedule.describe: Case(make=lambda: schedules.ring_all_reduce(4)),
    RunResult.port: Case(dict(name="s0[1]"), make=lambda: _RUN),
    FlowTrace.rates_bps: Case(make=lambda: _RUN.flow_traces[0]),
    # functions of objects that other functions build
    flowlevel.complete: Case(lambda: dict(flow_of=np.array([0, 1, 1]), link_of=np.array([0, 0, 1]),
                                          weight=np.ones(3), capacity_bps=np.array([10.0, 3.0]),
                                          size_bits=np.array([8.0, 8.0]))),
    cluster.check: Case(dict(evaluation=_EVAL, brief=BRIEF)),
    cluster.gradient_overlap: Case(dict(grad_bytes=1e8, backward_s=0.01, dp=2, domain=cluster.scaleup.preset("dgx-h100"),
                                        domain_size=1, bucket_bytes=25e6)),
    cluster.bucket_all_reduce: Case(dict(n_bytes=2**20, dp=144, domain=cluster.scaleup.preset("dgx-h100"),
                                         domain_size=1)),
    cluster.best: Case(dict(verdicts=[_VERDICT])),
    cluster.binding_counts: Case(dict(verdicts=[_VERDICT])),
    cluster.results_table: Case(dict(verdicts=[_VERDICT])),
    cluster.step_parts: Case(dict(evaluation=_EVAL)),
    cluster.plot_brief_alt: Case(dict(verdict=_VERDICT)),
    cluster.plot_brief: Case(dict(verdict=_VERDICT)),
    cluster.plot_overlap: Case(dict(evaluation=_EVAL)),
    cluster.plot_overlap_alt: Case(dict(evaluation=_EVAL)),
    fabric_experiments.fail_spine_link: Case(lambda: dict(net=topology.leaf_spine(2, 2, 1, 100e9, 100e9), n_leaves=2,
                                                          n_spines=2, hosts_per_leaf=1, leaf=0, spine=1)),
    fabric_figures.draw_completions: Case(dict(runs={("ecmp", "permutation"): _FABRIC_RUN}, scenario="permutation",
                                               scheme="ecmp")),
    fabric_figures.completions_readout: Case(dict(runs={("ecmp", "permutation"): _FABRIC_RUN}, alone={},
                                                  scenario="permutation", scheme="ecmp")),
    lossless_figures.draw_incast: Case(dict(result=_INCAST, title="incast")),
    lossless_figures.draw_victim: Case(dict(result=_VICTIM)),
    lossless_figures.draw_sharing: Case(dict(result=_SHARING)),
    specs.registry_page: Case(dict(parts={"Ethernet": {"eth": "Ethernet"}})),
    units.bytes_to_bits: Case(dict(n_bytes=1.0)),
    units.bits_to_bytes: Case(dict(n_bits=8.0)),
    units.format_time: Case(dict(seconds=1e-6)),
    units.format_rate: Case(dict(bits_per_second=1e9)),
    units.format_byte_rate: Case(dict(bits_per_second=1e9)),
    units.format_bytes: Case(dict(n_bytes=1e6)),
    units.format_power: Case(dict(watts=1e3)),
    exercises.quantity_of: Case(dict(unit="s")),
    exercises.numeric: Case(dict(key="ex", prompt="How long?", answer=2.0, unit="s")),
    exercises.fmt: Case(dict(x=2.0)),
    exercises.read_answer: Case(dict(value="2 s", spec=exercises.numeric("ex", "How long?", 2.0, "s").spec())),
    exercises.check_spec: Case(dict(spec=exercises.numeric("ex", "How long?", 2.0, "s").spec(), value="2 s")),
    exercises.NumericExercise.check: Case(dict(value="2 s"), make=lambda: exercises.numeric("ex", "How long?",
                                                                                             2.0, "s")),
    exercises.NumericExercise.spec: Case(make=lambda: exercises.numeric("ex", "How long?", 2.0, "s")),
    exercises.student_id: Case(dict(name="Ada")),
    exercises.stable_hash: Case(dict(text="Ada")),
    exercises.variant_index: Case(dict(name="Ada", key="ex", n_variants=4)),
    exercises.varied: Case(dict(key="ex", prompt="{n} s?", params={"n": [1, 2]}, answer=lambda n: 2.0 * n, unit="s")),
    exercises.variant_delta: Case(dict(spec=exercises.numeric("ex", "q", 3.0, "s").spec(),
                                       base=exercises.numeric("ex", "q", 2.0, "s").spec())),
    exercises.variant_spec: Case(dict(delta={"answer": 3.0, "slips": [0]},
                                      base=exercises.numeric("ex", "q", 2.0, "s").spec())),
    exercises.report_markdown: Case(dict(report=exercises.Answers("Ada", "lab00").report())),
    exercises.Answers: Case(dict(name="Ada", lab="lab00")),
    exercises.Answers.check: Case(dict(exercise=exercises.numeric("ex", "q", 2.0, "s"), value="2 s"),
                                  make=lambda: exercises.Answers("Ada", "lab00")),
    exercises.Answers.add: Case(dict(exercise=exercises.numeric("ex", "q", 2.0, "s")),
                                make=lambda: exercises.Answers("Ada", "lab00")),
    exercises.Answers.question: Case(dict(exercise=exercises.numeric("ex", "q", 2.0, "s")),
                                     make=lambda: exercises.Answers("Ada", "lab00")),
    exercises.Answers.report: Case(make=lambda: exercises.Answers("Ada", "lab00")),
    exercises.Answers.save: Case(dict(folder=tempfile.gettempdir()), make=lambda: exercises.Answers("Ada", "lab00")),
    exercises.VariedExercise.for_student: Case(dict(name="Ada"), make=lambda: _varied()),
    exercises.VariedExercise.check: Case(dict(value="2 s"), make=lambda: _varied()),
    exercises.VariedExercise.spec: Case(make=lambda: _varied()),
    exercises.VariedExercise.answers: Case(make=lambda: _varied()),
    exercises.VariedExercise.variants_json: Case(make=lambda: _varied()),
}

# Why a public callable is not swept. A key is a callable's label, or a module or class label that
# covers everything inside it.
SIM_INTERNAL = ("built by Network.run or Network.add_* for each port, switch, host or flow, and driven by the "
                "event loop with its own packets: a user configures them through Network and the policies")
CALLBACK = "a callback the simulator calls with its own packets and senders (the policy's constructor is swept)"
RESULT = ("a result record: netlab builds it from inputs it has checked, and a user reads it (its methods "
          "that take arguments are swept)")
NOT_SWEPT = {
    "netlab.validate": "the checks themselves, called with the parameter's name (tests/test_validate.py)",
    "netlab.plots": "matplotlib plumbing on figures and axes, not a model (tests/test_plots*.py)",
    "netlab.widgets": "ipywidgets controls and figure encoders, not a model (tests/test_widgets.py)",
    "netlab.diagrams.render": "draws a named book figure (tests/test_diagrams.py draws each)",
    "netlab.diagrams.write_all": "writes every book figure into a directory (the book build)",
    "netlab.sim.compiled": "builds and picks the compiled simulator (tests/sim/test_compiled.py)",
    "netlab.sim.eventheap": "the event heap inside Simulator (tests/sim/test_eventheap.py against heapq)",
    "netlab.sim.ecmphash": "ECMP's CRC-32 inside the switch's hot path (tests/sim/test_ecmphash.py)",
    "netlab.sim.deadlock": "steps of a run, on live switch objects (tests/sim)",
    "netlab.sim.results.collect": "a step of Network.run, taking the network being run",
    "netlab.sim.routing.compute_routes": "a step of Network.run, taking the network being run",
    "netlab.specs.register": "adds to the process-wide registry (tests/test_specs.py)",
    "netlab.cluster.brief_explorer": "an ipywidgets explorer of a Workload and Brief (lab 10)",
    "netlab.sim.accounting.Ledger": SIM_INTERNAL,
    "netlab.sim.flow.Flow": SIM_INTERNAL,
    "netlab.sim.host.Host": SIM_INTERNAL,
    "netlab.sim.port.Port": SIM_INTERNAL,
    "netlab.sim.switch.Switch": SIM_INTERNAL,
    "netlab.sim.packet.Packet": SIM_INTERNAL,
    "netlab.sim.queues.OutputQueue": SIM_INTERNAL,
    "netlab.sim.transport": SIM_INTERNAL + " (a transport is passed as its class pair, e.g. GoBackN)",
    "netlab.sim.traffic.PoissonSender": SIM_INTERNAL + " (passed as a class, in a transport pair)",
    "netlab.sim.traffic.Sink": SIM_INTERNAL + " (passed as a class, in a transport pair)",
    "netlab.sim.uet.UETSender": SIM_INTERNAL + " (made by sim.uet.uet(), which is swept)",
    "netlab.sim.uet.UETReceiver": SIM_INTERNAL + " (made by sim.uet.uet(), which is swept)",
    "netlab.sim.uet.UETConfig": "built by sim.uet.uet() from its checked arguments (uet() is swept)",
    "netlab.sim.uet_cc.CreditScheduler": SIM_INTERNAL,
    "netlab.uet.experiments.SprayingGoBackNSender": SIM_INTERNAL + " (a transport of uet.experiments.spraying)",
    "netlab.sim.cc.CongestionControl": "the base class of congestion controls: every method is a callback",
    "netlab.sim.switch.LoadBalancer": "the base class of load balancers: choose() is a callback",
    "netlab.sim.network.Network.record_drop": CALLBACK,
    "netlab.sim.network.Network.flow_complete": CALLBACK,
    "netlab.rdma.core.CompletionQueue.push": "called by the QP to post a completion (chapter 3's emulation)",
    "netlab.rdma.verbs.Context.get_async_event": "takes no argument: it reads the device's event queue",
}
# Classes whose objects a verb makes, as the C verbs make them: their constructors are not swept
# (the verb that makes each is), their methods are.
MADE_BY_A_VERB = {
    "netlab.rdma.core.CompletionQueue": "made by Context.create_cq, as ibv_create_cq makes one (swept)",
    "netlab.rdma.verbs.Context": "made by Fabric.open_device, as ibv_open_device makes one (swept)",
    "netlab.rdma.verbs.ProtectionDomain": "made by Context.alloc_pd, as ibv_alloc_pd makes one (swept)",
    "netlab.rdma.verbs.MemoryRegion": "made by ProtectionDomain.reg_mr, as ibv_reg_mr makes one (swept)",
    "netlab.rdma.qp.QueuePair": "made by ProtectionDomain.create_qp, as ibv_create_qp makes one (swept)",
    "netlab.rdma.qp.SharedReceiveQueue": "made by ProtectionDomain.create_srq, as ibv_create_srq makes one (swept)",
}
# Callbacks of the policies whose constructors are swept (and run in a network by their Case).
for _cls, _names in ((DCQCN, ("attach", "detach", "on_cnp", "on_send")),
                     (NSCC, ("attach", "on_ack", "on_trim", "on_timeout")),
                     (QueuePolicy, ("admit", "mark")), (DropTail, ("admit",)),
                     (Trimming, ("admit",)), (RandomLoss, ("admit",)),
                     (ECMP, ("choose",)), (Spray, ("choose",)), (Adaptive, ("choose",)), (PathAware, ("choose",))):
    for _name in _names:
        NOT_SWEPT[f"{_cls.__module__}.{_cls.__name__}.{_name}"] = CALLBACK
RESULT_RECORDS = [
    "netlab.lossless.roce.HeadroomBudget", "netlab.lossless.roce.LosslessClass",
    "netlab.lossless.counters.BandwidthRow", "netlab.lossless.counters.LatencyRow",
    "netlab.lossless.counters.PerftestReport", "netlab.lossless.counters.Diagnosis",
    "netlab.longhaul.distance.LosslessDistance",
    "netlab.cluster.Evaluation", "netlab.cluster.Verdict", "netlab.cluster.Robustness", "netlab.cluster.BucketAllReduce",
    "netlab.lossless.ib_vs_ethernet.Headroom", "netlab.lossless.ib_vs_ethernet.TimeoutCase",
    "netlab.rdma.core.AsyncEvent", "netlab.fabric.rails.RailFabric", "netlab.fabric.rails.Traffic",
    "netlab.fabric.rails.Saving", "netlab.sweep.Sweep",
    "netlab.collectives.alpha_beta.CollectiveTime", "netlab.collectives.nccl_tests.NcclRow",
    "netlab.collectives.nccl_tests.NcclTestsRun", "netlab.collectives.nccl_tests.AlphaBetaFit",
    "netlab.collectives.nccl_tuner.TunerEstimate", "netlab.collectives.nccl_tuner.SwitchLatencyEffect",
    "netlab.collectives.nccl_tuner.ChoiceTable", "netlab.collectives.protocols.ProtocolFormat",
    "netlab.collectives.protocols.Crossover", "netlab.collectives.in_network.InNetworkTraffic",
    "netlab.collectives.nccl_log.Hop", "netlab.collectives.nccl_log.NcclLog",
    "netlab.collectives.on_topology.ScheduleTime", "netlab.collectives.schedules.Transfer",
    "netlab.collectives.schedules.Schedule", "netlab.exercises.Feedback", "netlab.exercises.NumericExercise",
    "netlab.exercises.Reading", "netlab.exercises.Variant", "netlab.exercises.VariedExercise", "netlab.fabric.clos.Fabric", "netlab.fabric.ecmp.Collisions",
    "netlab.fabric.ecmp.MonteCarlo", "netlab.fabric.experiments.FabricRun", "netlab.fabric.flowlevel.FlowLevelRun", "netlab.fabric.flowlevel.AllToAllRun",
    "netlab.links.AlphaBeta", "netlab.links.PathTime", "netlab.links.LinkDelay", "netlab.longhaul.distance.LongLink",
    "netlab.longhaul.distance.TwoSiteAllReduce", "netlab.longhaul.experiments.WindowRun",
    "netlab.longhaul.experiments.OvershootRun", "netlab.lossless.dcqcn.FixedPoint", "netlab.lossless.dcqcn.Trajectory",
    "netlab.lossless.experiments.IncastResult", "netlab.lossless.experiments.VictimResult",
    "netlab.lossless.experiments.StormResult", "netlab.lossless.experiments.SharingResult",
    "netlab.lossless.ib_vs_ethernet.LatencyRange", "netlab.lossless.ib_vs_ethernet.SmallMessageLatency",
    "netlab.lossless.ib_vs_ethernet.PerfPerDollar", "netlab.lossless.ib_vs_ethernet.IncastCase",
    "netlab.nvlink.domains.NVL72Check", "netlab.nvlink.domains.HierarchicalAllReduce",
    "netlab.nvlink.inference.TPTraffic", "netlab.nvlink.inference.DecodeStep", "netlab.nvlink.moe.MoEAllToAll",
    "netlab.nvlink.moe.NodeLimitedDispatch", "netlab.nvlink.engines.EngineAllReduce",
    "netlab.nvlink.engines.TwoBoxDecode", "netlab.training.overlap.OverlapSchedule",
    "netlab.optics.cpo.ChannelLoss", "netlab.optics.cpo.PortPower", "netlab.optics.cpo.CpoClaims",
    "netlab.optics.power.FabricPower", "netlab.optics.power.SitePower", "netlab.optics.power.EnvelopeFit",
    "netlab.optics.reliability.FleetFailures", "netlab.optics.reliability.LaserCount",
    "netlab.optics.reliability.FabricFailures", "netlab.rdma.Endpoint", "netlab.rdma.core.WorkCompletion",
    "netlab.rdma.hoststack.HostPathTime", "netlab.rdma.hoststack.CoresNeeded",
    "netlab.rdma.hoststack.RegistrationCost", "netlab.rdma.hoststack.GpuDirectGain",
    "netlab.rdma.scaling.QPMemory", "netlab.rdma.scaling.SendQueue", "netlab.sim.engine.RunStatus",
    "netlab.sim.results.FlowResult", "netlab.sim.results.PortStats", "netlab.sim.results.QueueTrace",
    "netlab.sim.results.FlowTrace", "netlab.sim.results.RunResult", "netlab.specs.Spec",
    "netlab.training.memory.Recipe", "netlab.training.memory.Fit", "netlab.training.parallelism.StepTraffic",
    "netlab.training.parallelism.DataParallelStep", "netlab.uet.connections.ConnectionState",
    "netlab.uet.experiments.LossRun", "netlab.uet.experiments.IncastResult", "netlab.uet.experiments.SprayResult",
    "netlab.uet.loss_recovery.LossRecovery", "netlab.uet.loss_recovery.IncastEstimate",
    "netlab.optics.costs.FabricPrice", "netlab.training.failures.Checkpointing",
    "netlab.training.failures.FailureEffect",
]


def _exemption(target: S.Target) -> str | None:
    """The reason ``target`` is not swept, or ``None``."""
    if target.kind == "class" and issubclass(target.obj, enum.Enum):
        return "an enumeration: a user picks a member (Opcode.SEND); Python itself refuses an unknown value"
    if target.kind == "class" and issubclass(target.obj, BaseException):
        return "an exception type"
    if target.kind == "class" and target.label in RESULT_RECORDS:
        return RESULT
    if target.kind == "class" and target.label in MADE_BY_A_VERB:
        return MADE_BY_A_VERB[target.label]
    for key, reason in NOT_SWEPT.items():
        if target.label == key or target.label.startswith(key + "."):
            return reason
    return None


def case_of(target: S.Target) -> Case | None:
    if target.obj in CASES:
        return CASES[target.obj]
    if target.obj in TABLES:
        return Case(TABLES[target.obj])
    return None


TARGETS = S.discover()
SWEPT = [t for t in TARGETS if _exemption(t) is None]


@pytest.mark.parametrize("target", SWEPT, ids=lambda t: t.label.replace("netlab.", ""))
def test_bad_input_is_refused_by_name_or_answered_in_range(target):
    case = case_of(target)
    findings = [f for name, bad in S.cases(target, case) if (f := S.judge(target, case, name, bad))]
    assert not findings, "\n".join(findings)


def test_every_public_callable_is_swept_or_has_a_reason():
    incomplete = {t.label: S.missing(t, case_of(t)) for t in SWEPT}
    incomplete = {label: names for label, names in incomplete.items() if names}
    assert not incomplete, ("give these a valid call (an API table or CASES in tests/test_bad_input.py) or a "
                            f"reason in NOT_SWEPT: {incomplete}")


def test_exemptions_name_real_callables():
    labels = {t.label for t in TARGETS} | {t.label.rsplit(".", 1)[0] for t in TARGETS}
    assert set(NOT_SWEPT) <= labels, sorted(set(NOT_SWEPT) - labels)
    assert set(RESULT_RECORDS) <= labels, sorted(set(RESULT_RECORDS) - labels)
    assert set(MADE_BY_A_VERB) <= labels, sorted(set(MADE_BY_A_VERB) - labels)


# --- one regression check per fix the sweep led to -------------------------------------------------
# Each row: a call that misbehaved before issue 30's fixes (what it did in the comment), the error
# it raises now and the parameter its message names. Run under the sweep's hang guard, since two of
# them never returned.
def _network_with_pfc_link(**pfc):
    net = Network(flow_control=PFC(100e3, **pfc))
    net.add_switch("s0")
    net.add_host("h0")
    net.connect("h0", "s0", 100e9)


_FLOW_PATHS = dict(flow_of=np.array([0, 1, 1]), link_of=np.array([0, 0, 1]), weight=np.ones(3),
                   size_bits=np.array([8.0, 8.0]))
_LLAMA_FIELDS, _DGX_FIELDS = _fields(LLAMA), _fields(DGX)
_SPEC = exercises.numeric("ex", "How long?", 2.0, "s").spec()

REGRESSIONS = {
    # never returned: a link of capacity 0 gave a rate of 0 and an infinite time step
    "flowlevel.complete zero capacity": (lambda: flowlevel.complete(
        capacity_bps=np.array([10.0, 0.0]), **_FLOW_PATHS), ValueError, "capacity_bps"),
    # never returned, the same way, on NaN
    "flowlevel.complete NaN capacity": (lambda: flowlevel.complete(
        capacity_bps=np.array([10.0, np.nan]), **_FLOW_PATHS), ValueError, "capacity_bps"),
    # IndexError
    "flowlevel.max_min_rates active": (lambda: flowlevel.max_min_rates(
        np.array([0]), np.array([0]), np.ones(1), np.array([1.0]), 1, active="1"), TypeError, "active"),
    # accepted: 2,000,000 steps, more than a minute of CPU
    "dcqcn.simulate 10 s": (lambda: dcqcn.simulate(duration_s=10.0), ValueError, "duration_s"),
    # AttributeError: 'str' object has no attribute 'capacity_bps'
    "dcqcn.fixed_point params": (lambda: dcqcn.fixed_point("1"), TypeError, "params"),
    # OverflowError: int too large to convert to float
    "dcqcn.simulate start rates": (lambda: dcqcn.simulate(start_rates_bps=10**400), TypeError, "start_rates_bps"),
    # accepted; fixed_point then said only "no fixed point in (1e-6, 1): check the parameters"
    "dcqcn.Params packet_bytes": (lambda: dcqcn.Params(packet_bytes=2**63), ValueError, "packet_bytes"),
    # accepted; run() failed with "'bool' object has no attribute 'kmin_bytes'"
    "Network ecn=True": (lambda: Network(ecn=True), TypeError, "ecn"),
    "DropTail ecn=True": (lambda: DropTail(ecn=True), TypeError, "ecn"),
    # returned NaN
    "ECNMarking.probability NaN": (lambda: ECNMarking(5e3, 200e3, 0.01).probability(np.nan), ValueError,
                                   "queue_bytes"),
    # AttributeError: 'NoneType' object has no attribute 'name'
    "Network.add_flow src=None": (lambda: _small_network().add_flow(None, "h1", 1000), TypeError, "src"),
    # AttributeError: 'NoneType' object has no attribute 'add_port'
    "Network.connect a=None": (lambda: _small_network().connect(None, "s0", 100e9), TypeError, "a"),
    # TypeError: 'NoneType' object is not iterable
    "Network.set_route ports=None": (lambda: _small_network().set_route("s0", "h1", None), TypeError, "ports"),
    # ValueError naming no parameter ("no host or switch '1'")
    "Network.node unknown": (lambda: _small_network().node("h9"), ValueError, "name_or_node"),
    # accepted; the run then retransmitted until its wall-clock limit
    "Network switch latency 2**63 s": (lambda: Network(switch_latency_s=2**63), ValueError, "switch_latency_s"),
    # accepted; the flow's goodput came out infinite
    "Network.add_flow start 2**63 s": (lambda: _small_network().add_flow("h0", "h1", 1000, start_s=2**63),
                                       ValueError, "start_s"),
    # accepted; run() failed with "'NoneType' object is not callable"
    "Simulator.at callback=None": (lambda: Simulator().at(1e-6, None), TypeError, "callback"),
    # TypeError: '<=' not supported between instances of 'float' and 'NoneType'
    "Simulator.at time_s=None": (lambda: Simulator().at(None, int), TypeError, "time_s"),
    # OverflowError: int too large to convert to float
    "Simulator.after 10**400": (lambda: Simulator().after(10**400, int), ValueError, "delay_s"),
    # the message named buffer_bytes only
    "PFC xoff below a packet": (lambda: _network_with_pfc_link(xoff_bytes=0), ValueError, "xoff_bytes"),
    "PFC headroom of a fast link": (lambda: fabric_experiments.run_pattern(
        "ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2, bytes_per_host=10_000, bandwidth_bps=2**63),
        ValueError, "bandwidth_bps"),
    # compiled build only: Cython's "Cannot convert str to netlab.sim.queues.QueuePolicy"
    "Network.add_switch queue_policy='1'": (lambda: _small_network().add_switch("s9", queue_policy="1"),
                                            TypeError, "queue_policy"),
    # AttributeError: 'NoneType' object has no attribute 'switches'
    "fail_spine_link net=None": (lambda: fabric_experiments.fail_spine_link(None, 2, 2, 1, 0, 1), TypeError, "net"),
    # KeyError
    "RunResult.port unknown": (lambda: _RUN.port("s9[0]"), ValueError, "name"),
    # accepted; decode_step then divided by zero
    "ModelShape zero layers": (lambda: inference.ModelShape(**dict(_LLAMA_FIELDS, n_layers=0)), ValueError,
                               "n_layers"),
    # accepted; decode_step then returned a negative memory time
    "ModelShape negative parameters": (lambda: inference.ModelShape(**dict(_LLAMA_FIELDS, n_params=-1.0)),
                                       ValueError, "n_params"),
    # accepted; the record held NaN until a model read it
    "ScaleUpDomain NaN rate": (lambda: domains.ScaleUpDomain(**dict(_DGX_FIELDS, per_gpu_bps=np.nan)),
                               ValueError, "per_gpu_bps"),
    # accepted; its repr failed with TypeError: unsupported operand type(s) for *: 'float' and 'NoneType'
    "ScaleUpDomain power None": (lambda: domains.ScaleUpDomain(**dict(_DGX_FIELDS, power_w=None)),
                                 TypeError, "power_w"),
    # accepted; its repr failed with "'int' object has no attribute 'upper'"
    "ScaleUpDomain gpu=0": (lambda: domains.ScaleUpDomain(**dict(_DGX_FIELDS, gpu=0)), TypeError, "gpu"),
    # 'NoneType' object is not iterable
    "cluster.design_space domains=None": (lambda: cluster.design_space(domains=None), TypeError, "domains"),
    "cluster.best verdicts=None": (lambda: cluster.best(None), TypeError, "verdicts"),
    # named "design", not the parameter
    "cluster.explore designs='1'": (lambda: cluster.explore(W, BRIEF, designs="1"), TypeError, "designs"),
    # AttributeError: 'NoneType' object has no attribute 'margins'
    "cluster.plot_brief_alt None": (lambda: cluster.plot_brief_alt(None), TypeError, "verdict"),
    # AttributeError: 'NoneType' object has no attribute 'margins'
    "cluster.plot_brief None": (lambda: cluster.plot_brief(None), TypeError, "verdict"),
    # TypeError: argument of type 'NoneType' is not iterable
    "fabric draw_completions runs=None": (lambda: fabric_figures.draw_completions(None, "permutation", "ecmp"),
                                          TypeError, "runs"),
    # unhashable type: 'list'
    "fabric completions_readout scheme=[]": (lambda: fabric_figures.completions_readout(
        {("ecmp", "permutation"): _FABRIC_RUN}, {}, "permutation", []), TypeError, "scheme"),
    # AttributeError: 'NoneType' object has no attribute 'run'
    "lossless draw_incast None": (lambda: lossless_figures.draw_incast(None, "incast"), TypeError, "result"),
    # AttributeError: 'str' object has no attribute 'rates_bps'
    "lossless draw_sharing fluid='1'": (lambda: lossless_figures.draw_sharing(_SHARING, fluid="1"), TypeError,
                                        "fluid"),
    # 'NoneType' object is not iterable
    "nccl_tuner.candidates algorithms=None": (lambda: nccl_tuner.candidates(1e6, 8, algorithms=None), TypeError,
                                              "algorithms"),
    "schedules.execute inputs=None": (lambda: schedules.execute(schedules.ring_all_reduce(4), None), TypeError,
                                      "inputs"),
    # '>' not supported between instances of 'int' and 'NoneType'
    "Schedule.describe max_steps=None": (lambda: schedules.ring_all_reduce(4).describe(None), TypeError,
                                         "max_steps"),
    # the message named a line but not the parameter
    "nccl_tests.parse junk": (lambda: nccl_tests.parse("1"), ValueError, "text"),
    # unhashable type: 'list'
    "exercises.quantity_of []": (lambda: exercises.quantity_of([]), TypeError, "unit"),
    "exercises.numeric quantity=[]": (lambda: exercises.numeric("ex", "?", 2.0, quantity=[]), TypeError, "quantity"),
    # 'NoneType' object is not iterable
    "exercises.numeric extra_slips=None": (lambda: exercises.numeric("ex", "?", 2.0, extra_slips=None), TypeError,
                                           "extra_slips"),
    # decimal.InvalidOperation
    "exercises.fmt digits=0": (lambda: exercises.fmt(2.0, digits=0), ValueError, "digits"),
    # must be real number, not NoneType
    "exercises.fmt x=None": (lambda: exercises.fmt(None), TypeError, "x"),
    # 'NoneType' object is not subscriptable
    "exercises.read_answer spec=None": (lambda: exercises.read_answer("2 s", None), TypeError, "spec"),
    # TypeError: Value after * must be an iterable, not int
    "run_pattern failed_link=0": (lambda: fabric_experiments.run_pattern(
        "ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2, bytes_per_host=10_000, failed_link=0),
        TypeError, "failed_link"),
    # 'float' object is not iterable
    "run_pattern jobs=nan": (lambda: fabric_experiments.run_pattern(
        "ecmp", n_leaves=2, n_spines=2, hosts_per_leaf=2, bytes_per_host=10_000, jobs=np.nan),
        TypeError, "jobs"),
    # the message named start_s, a parameter of add_flow
    "dcqcn_sharing stagger 2**63 s": (lambda: lossless_experiments.dcqcn_sharing(2, stagger_s=2**63), ValueError,
                                      "stagger_s"),
    # object of type 'NoneType' has no len()
    "inference.pareto_front None": (lambda: inference.pareto_front(None, [1.0]), TypeError, "latencies_s"),
    # 'NoneType' object is not iterable
    "optics plot_fabric_failures sizes=None": (lambda: optics_figures.plot_fabric_failures(100.0, 10.0, sizes=None), TypeError, "sizes"),
    # ValueError: zero-size array to reduction operation minimum
    "uet draw_goodput loss_rates=[]": (lambda: uet_figures.draw_goodput(
        [], {"roce": [], "uet": []}, 16.0, 8.0), ValueError, "loss_rates"),
    # the message named envelope_w only
    "gpus_in_envelope GPU of 2**63 W": (lambda: power.gpus_in_envelope(
        1e6, "quantum_x800", "cpo", 2**63, 1.3), ValueError, "gpu_power_w"),
    # AttributeError: 'NoneType' object has no attribute 'open_device'
    "rdma.endpoint fabric=None": (lambda: rdma.endpoint(None, "a"), TypeError, "fabric"),
    # AttributeError: 'NoneType' object has no attribute 'modify'
    "rdma.connect qp_a=None": (lambda: rdma.connect(None, rdma.endpoint(rdma.Fabric(100e9), "b").qp), TypeError,
                               "qp_a"),
    # returned an empty array: the address was taken as an offset from the region's start
    "rdma MemoryRegion.view outside": (lambda: _mr().view(0, 8), ValueError, "addr"),
    # TypeError: '<=' not supported between instances of 'int' and 'str'
    "rdma MemoryRegion.contains addr='1'": (lambda: _mr().contains("1", 8), TypeError, "addr"),
    # returned NaN
    "rdma Fabric.network_s NaN": (lambda: rdma.Fabric(100e9).network_s(np.nan), ValueError, "n_bytes"),
    # KeyError only
    "specs.get unknown": (lambda: specs.get("no.such.key"), ValueError, "key"),
    # unsupported operand type(s) for *: 'NoneType' and 'float'
    "units.bytes_to_bits None": (lambda: units.bytes_to_bits(None), TypeError, "n_bytes"),
    # returned NaN
    "units.bytes_to_bits NaN": (lambda: units.bytes_to_bits(np.nan), ValueError, "n_bytes"),
    # OverflowError
    "units.format_rate 10**400": (lambda: units.format_rate(10**400), ValueError, "bits_per_second"),
    # ValueError: Format specifier missing precision
    "units.format_time digits=None": (lambda: units.format_time(1e-6, digits=None), TypeError, "digits"),
}


@pytest.mark.parametrize("fix", list(REGRESSIONS))
def test_a_fixed_bad_input_is_refused_naming_its_parameter(fix):
    call, error, name = REGRESSIONS[fix]
    with pytest.raises(error, match=name):
        P.call_within(S.HANG_GUARD_S, call, {})


def test_an_unknown_spec_key_is_still_a_key_error():
    """specs.get's refusal became a ValueError naming the key, and stays a KeyError for old callers."""
    with pytest.raises(KeyError, match="no.such.key"):
        specs.get("no.such.key")


def test_dcqcn_limit_is_200000_steps_at_any_step():
    """At the default step of 5 µs the limit is 200,000 x 5 µs = 1 s; at 1 µs it is 0.2 s."""
    with pytest.raises(ValueError, match=r"duration_s must be <= 1 s .*200,000"):
        dcqcn.simulate(duration_s=1.0 + 1e-6)
    with pytest.raises(ValueError, match=r"duration_s must be <= 0.2 s"):
        dcqcn.simulate(duration_s=0.2 + 1e-6, dt_s=1e-6)


def test_a_feedback_delay_longer_than_the_run_costs_no_memory():
    """A 2**63 s feedback delay asked numpy for a ring buffer of 1.8e24 slots ("Maximum allowed
    dimension exceeded"); feedback that arrives after the run ends is the same as none, so the senders
    keep their start rates: line rate for both flows, 40 Gb/s each, with the queue rising meanwhile."""
    tr = dcqcn.simulate(dcqcn.Params(feedback_delay_s=2**63), duration_s=1e-4)
    assert tr.rates_bps.max() == 40e9 and tr.rates_bps.min() == 40e9


def test_sim_latency_and_start_limits_leave_the_usual_values_alone():
    """The new ceilings (1 s of switch latency, flows starting up to 1e6 s) are far from the
    settings the chapters use: a 1 µs switch and a flow at 1 s run as before."""
    net = topology.single_switch(2, 100e9, switch_latency_s=1e-6)
    net.add_flow("h0", "h1", 20_000, start_s=1.0)
    result = net.run()
    assert result.all_finished and result.flows[0].start_s == 1.0
