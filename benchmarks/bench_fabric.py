"""Benchmark: a permutation of 128 hosts x 2 MB at 100 Gb/s on a two-tier leaf-spine, per scheme.

The fabric is non-blocking: 16 leaves of 8 hosts, 8 spines, every link 100 Gb/s,
lossless (PFC). Every host sends 2 MB to one host on another leaf. Prints, for
per-flow ECMP, per-packet spraying and adaptive routing: the slowest flow and the
median and 99th-percentile flow against the ideal (2 MB at 100 Gb/s = 160 µs),
reordered and resent packets, events processed, wall time and events per second (of the
run), and CPU time and events per CPU second (steadier on a shared machine).
Then the same permutation with one spine link down. No assertion on timing: the
figures are for reading. Run with
``.venv/bin/python benchmarks/bench_fabric.py [n_leaves] [hosts_per_leaf] [n_spines] [bytes]``.
"""

import sys
import time

from netlab.fabric.experiments import run_pattern
from netlab.sim.loadbalance import SCHEMES


def main() -> None:
    args = [int(a) for a in sys.argv[1:]]
    n_leaves, hosts_per_leaf, n_spines, size = args + [16, 8, 8, 2_000_000][len(args):]
    n = n_leaves * hosts_per_leaf
    print(f"permutation: {n} hosts x {size:,} B at 100 Gb/s; {n_leaves} leaves x {hosts_per_leaf} hosts, "
          f"{n_spines} spines, PFC")
    header = (f"{'scheme':9s} {'failed':>7s} {'last/ideal':>10s} {'p50':>6s} {'p99':>6s} {'reordered':>10s} "
              f"{'resent':>7s} {'events':>9s} {'wall (s)':>9s} {'kev/s':>7s} {'cpu (s)':>8s} {'kev/cpu-s':>9s}")
    print(header)
    total = time.perf_counter()
    for failed in (None, (0, 0)):
        for scheme in SCHEMES:
            cpu = time.process_time()
            r = run_pattern(scheme, n_leaves=n_leaves, n_spines=n_spines, hosts_per_leaf=hosts_per_leaf,
                            bytes_per_host=size, failed_link=failed, seed=1)
            cpu = time.process_time() - cpu          # includes building the network
            print(f"{scheme:9s} {'1 link' if failed else 'none':>7s} {r.slowdown:10.3f} "
                  f"{r.percentile_s(50) / r.ideal_s:6.2f} {r.percentile_s(99) / r.ideal_s:6.2f} "
                  f"{r.out_of_order_packets:10d} {r.retransmitted_packets:7d} {r.events_processed:9d} "
                  f"{r.wall_s:9.2f} {r.events_per_s / 1e3:7.0f} {cpu:8.2f} "
                  f"{r.events_processed / cpu / 1e3:9.0f}", flush=True)
    print(f"ideal {size * 8 / 100e9 * 1e6:.1f} µs per flow; total wall time {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
