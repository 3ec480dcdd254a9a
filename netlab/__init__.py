"""netlab: small, exact models of how AI datacenters move data.

One package per technology, named as the book names it; one concept per module,
each opening with a paragraph on its idea and its references. In the order of the book::

    foundation   units (SI constants, formatters), validate (input checks), specs/ (the
                 hardware registry), plots (one figure style), widgets (live and
                 kernel-free explorers), exercises (answers checked with feedback),
                 diagrams (the reading pages' figures)
    chapter 1    training/     memory (bytes per parameter), parallelism (traffic per step, scaling)
    chapter 2    links         serialization, propagation, alpha-beta, paths of hops, BDP
    chapter 3    rdma/         verbs emulation (core, qp, verbs), hoststack (kernel TCP vs RDMA vs GPUDirect)
    chapter 4    lossless/     ib_vs_ethernet (latency figures, cost per performance), dcqcn (fluid
                               model), experiments (credits vs PFC vs drop in the simulator)
    chapter 5    fabric/       clos (fat-tree sizing), ecmp (hash collisions), flowlevel (max-min
                               rates on 100,000 hosts), experiments (ECMP vs spraying vs adaptive)
    chapter 6    collectives/  schedules, trees (executed on numpy), alpha_beta (algbw and busbw),
                               on_topology, nccl_tuner (NCCL's own cost model), nccl_tests (parse and fit)
    chapter 7    nvlink/       domains (PCIe mesh, NVLink node, NVL72), inference (tensor-parallel
                               decode), moe (all-to-all)
    chapter 8    uet/          loss_recovery (go-back-N vs selective repeat), connections (QPs vs
                               PDCs), experiments (RoCE-like vs UET-like in the simulator)
    chapter 9    optics/       cpo (watts per port: pluggable, LPO, CPO), power (fabric and facility), reliability
    chapter 10   longhaul/     distance (fibre, BDP, collectives across sites), experiments
    chapter 11   cluster       the designer that composes all of the above
    simulator    sim/          the packet-level discrete-event simulator and its pluggable policies

Each package keeps its lab's figures in its ``figures.py`` and its ready-made simulator
runs in its ``experiments.py``. Every public model function validates its input
(``ValueError`` naming the parameter and its valid range) and returns a small frozen
dataclass with unit-suffixed fields. Every hardware figure comes from ``netlab.specs``.
The flat module names of 0.1 still import, with a warning, until 0.3 (``netlab._moved``).
"""

from netlab import _moved

__version__ = "0.2.0"

_moved.install()
