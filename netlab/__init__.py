"""netlab: small, exact models of how AI datacenters move data.

One concept per module, named after what a learner already knows; each module
opens with a paragraph on its idea and its references. In the order of the book:

foundation    units (SI constants, formatters), validate (input checks), specs (the
              hardware registry), plots (one figure style), widgets (live and
              kernel-free explorers), exercises (answers checked with feedback);
              plots_hoststack, plots_fabric, plots_collectives, plots_scaleup,
              plots_transport (the explorers' figures and readouts of chapters 3 and 5-8),
              diagrams (the reading pages' figures)
chapter 1     memory (bytes per parameter), parallelism (traffic per step, scaling)
chapter 2     links (serialization, propagation, alpha-beta, paths of hops, BDP)
chapter 3     rdma (verbs emulation), hoststack (kernel TCP vs RDMA vs GPUDirect)
chapter 4     sim (the packet simulator), ib_vs_ethernet (latency figures, cost per performance),
              dcqcn (DCQCN's fluid model beside the simulator's packets)
chapter 5     fabric (fat-tree sizing), ecmp (hash collisions, balls into bins),
              sim.flowlevel (max-min fair flow rates on fabrics of 100,000 hosts)
chapter 6     collectives, collective_trees (schedules executed on numpy), collective_cost
              (alpha-beta, algbw and busbw), schedule_cost, nccl_tests (parse and fit),
              nccl_model (NCCL's own tuner: base and per-step latencies, bandwidth caps)
chapter 7     scaleup (NVLink domains), inference (tensor-parallel decode), moe (all-to-all)
chapter 8     transport (go-back-N vs selective repeat), connections (QPs vs PDCs)
chapter 9     optics (watts per port, loss budget), power (fabric and facility), reliability
chapter 10    longhaul (distance, BDP, collectives across sites)
chapter 11    cluster (the designer that composes all of the above)

Every public model function validates its input (``ValueError`` naming the
parameter and its valid range) and returns a small frozen dataclass with
unit-suffixed fields. Every hardware figure comes from ``netlab.specs``.
"""

__version__ = "0.1.0"
