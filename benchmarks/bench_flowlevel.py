"""Benchmark: the flow-level (max-min fair) model at 100,000 GPUs, and beside the packet model.

Three parts, all on permutations (every host sends the same bytes to one host on
another leaf or edge switch) at 100 Gb/s:

1. A three-tier 74-ary fat tree (101,306 hosts, 6 links per flow across pods) under
   ECMP and under spraying: wall time, rate recomputations, median and slowest flow.
2. The two-tier fabric of ``bench_sim.py`` (16 leaves x 8 hosts, 8 spines, 1 µs links),
   2 MB per host: flow-level and packet-level medians and maxima, averaged over seeds
   (the models draw ECMP hashes differently, so only distributions compare), beside
   htsim's figures on the same fabric (uet-htsim 40ccb05, as quoted in ``bench_sim.py``):
   ECMP-like (``-paths 1``) median/max 335.9/833.9 µs; oblivious spraying 191.7/248.5 µs.
3. 1,024 hosts (32 leaves x 32 hosts, 32 spines), 500 kB per host, one seed each.

The flow-level model has no queues: under spraying it is the lower bound a perfect
fluid reaches, and the packet model's short queues make it slower. No assertion on
timing: the figures are for reading. Run with
``.venv/bin/python benchmarks/bench_flowlevel.py [n_seeds]``.
"""

import sys
import time
import tracemalloc

import numpy as np

from netlab import specs
from netlab.fabric import flowlevel as fl
from netlab.fabric.experiments import run_pattern

PAYLOAD = specs.value("sim.assume.mtu") / (specs.value("sim.assume.mtu") + specs.value("sim.assume.header"))


def big_fat_tree() -> None:
    print("74-ary fat tree, 101,306 hosts x 2 MB at 100 Gb/s")
    for scheme in fl.SCHEMES:
        tracemalloc.start()
        start = time.perf_counter()
        run = fl.fat_tree_permutation(74, 100e9, scheme=scheme, n_bytes=2_000_000)
        wall = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"  {scheme:6s} wall {wall:6.1f} s, {run.rate_recomputations} rate fills, peak memory "
              f"{peak / 2**20:.0f} MiB: median {run.median_s * 1e6:.1f} µs, slowest {run.max_s * 1e6:.1f} µs "
              f"({run.slowdown:.2f}x ideal)", flush=True)


def side_by_side(n_leaves: int, hosts_per_leaf: int, n_spines: int, n_bytes: int, seeds: range) -> None:
    n = n_leaves * hosts_per_leaf
    print(f"leaf-spine {n_leaves} x {hosts_per_leaf} hosts, {n_spines} spines, {n_bytes:,} B per host, "
          f"seeds {seeds.start}-{seeds.stop - 1} ({n} hosts)")
    print(f"  {'scheme':6s} {'model':7s} {'median µs':>10s} {'max µs':>8s} {'wall s':>7s}")
    for scheme in fl.SCHEMES:
        for model in ("flow", "packet"):
            med, top, wall = [], [], 0.0
            for seed in seeds:
                start = time.perf_counter()
                if model == "flow":
                    r = fl.leaf_spine_permutation(n_leaves, n_spines, hosts_per_leaf, 100e9, 100e9, scheme=scheme,
                                                  n_bytes=n_bytes, payload_fraction=PAYLOAD, seed=seed)
                    med.append(r.median_s)
                    top.append(r.max_s)
                else:
                    r = run_pattern(scheme, "permutation", n_leaves, n_spines, hosts_per_leaf, n_bytes, 100e9,
                                    seed=seed)
                    med.append(r.percentile_s(50))
                    top.append(max(r.completion_times_s))
                wall += time.perf_counter() - start
            print(f"  {scheme:6s} {model:7s} {np.mean(med) * 1e6:10.1f} {np.mean(top) * 1e6:8.1f} {wall:7.2f}",
                  flush=True)


def main() -> None:
    n_seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    big_fat_tree()
    side_by_side(16, 8, 8, 2_000_000, range(n_seeds))
    side_by_side(32, 32, 32, 500_000, range(1))


if __name__ == "__main__":
    main()
