"""Chapter 6, collectives: all-reduce and its kin, as schedules, as closed forms, and as NCCL runs them.

* :mod:`~netlab.collectives.schedules`: who sends which chunk to whom, step by step (ring,
  halving-doubling, hierarchical, all-to-all), executed on numpy buffers;
* :mod:`~netlab.collectives.trees`: the binomial tree and NCCL's double binary tree;
* :mod:`~netlab.collectives.alpha_beta`: the alpha-beta closed forms, and algbw and busbw as
  nccl-tests defines them;
* :mod:`~netlab.collectives.on_topology`: a schedule priced step by step on a topology;
* :mod:`~netlab.collectives.nccl_tuner`: NCCL's own cost model, as its tuner prices a collective,
  and its pick size by size under ``NCCL_ALGO`` / ``NCCL_PROTO``;
* :mod:`~netlab.collectives.protocols`: NCCL's LL, LL128 and Simple protocols from their formats;
* :mod:`~netlab.collectives.nccl_log`: reading an ``NCCL_DEBUG=INFO`` log;
* :mod:`~netlab.collectives.in_network`: in-network reduction (SHARP, NVLS): bytes and busbw;
* :mod:`~netlab.collectives.nccl_tests`: reading nccl-tests output and fitting alpha and beta;
* :mod:`~netlab.collectives.figures`: lab 6's figures and readouts.
"""

def __getattr__(name: str):     # the old flat module's names, for one release (netlab/_moved.py)
    from netlab import _moved
    return _moved.old_attribute(__name__, name)
