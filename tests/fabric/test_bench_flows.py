"""benchmarks/bench_sim.py writes htsim the same traffic matrix netlab's run_pattern draws."""

import importlib.util
from pathlib import Path

import pytest

from netlab.fabric import experiments


def _bench():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_sim.py"
    spec = importlib.util.spec_from_file_location("bench_sim", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [1, 2])
def test_the_htsim_permutation_is_run_patterns(seed):
    # permutation_flows passed the hosts-per-leaf count (an int) where _flows wants a function since the
    # routes-by-edge change: `bench_sim.py --htsim` stopped with "'int' object is not callable"
    bench = _bench()
    n_leaves, n_spines, per_leaf = bench.FABRIC
    flows = bench.permutation_flows(n_leaves * per_leaf, 10_000, seed)
    run = experiments.run_pattern("ecmp", n_leaves=n_leaves, n_spines=n_spines, hosts_per_leaf=per_leaf,
                                  bytes_per_host=10_000, seed=seed)
    assert sorted(d for _, d, _ in flows) == list(range(n_leaves * per_leaf))     # a permutation
    assert all(s // per_leaf != d // per_leaf for s, d, _ in flows)                # every flow leaves its leaf
    assert len(flows) == run.n_flows
    # run_pattern's own draw: one job of every host, leaf h // per_leaf, random.Random(seed)
    import random
    assert flows == experiments._flows("permutation", list(range(n_leaves * per_leaf)), lambda h: h // per_leaf,
                                       10_000, random.Random(seed))
