"""Benchmark: the simulator at the scale the book talks about (issue 35).

Run::

    .venv/bin/python benchmarks/bench_scale.py --hosts 8192 --routing ecmp      # packet model
    .venv/bin/python benchmarks/bench_scale.py --flowlevel --hosts 1000000     # flow-level model
    .venv/bin/python benchmarks/bench_scale.py --hosts 1024 --routing spray --ack-every 1

Each run prints one JSON line: ``wall_s`` (the run, set-up and routes included; ``cpu_s`` the
same in CPU seconds, the figure to read on a shared machine), ``events``
(simulator events; for the flow-level model the number of max-min rate fills), ``peak_rss_mb``
(the process's peak resident set), ``fct_median_us`` and ``fct_max_us`` (flow completion
times), the fabric (``k``, ``tiers``, ``hosts``), ``bare_loop_s`` (a bare heapq loop of 1M
timer events, timed in the same process just before: the yardstick to compare machines and
loads by) and ``load`` (the 1-minute load average at the start; the machine is shared).

The packet model runs a permutation (every host sends ``--bytes``, default 2 MB, to a host
under another edge switch) on the smallest three-tier fat tree of radix ``k`` with at least
``--hosts`` hosts (``k^3/4``: 128 at k = 8, 1,024 at 16, 4,394 at 26, 8,192 at 32), every
link 100 Gb/s and 1 µs, lossless (PFC), with the UET-like RUD transport as chapter 5 runs it
(:func:`netlab.fabric.experiments.fat_tree_pattern`) and one SACK per ``--ack-every`` packets
(default 4, as htsim's UEC sink; the chapters' default is 1). The flow-level model runs the
same permutation on the same fat tree (:func:`netlab.fabric.flowlevel.fat_tree_permutation`,
capacities scaled to the payload share as the packet model's goodput is); 1,000,000 hosts
asks for k = 160 (1,024,000 hosts).

Measured figures are kept in ``benchmarks/README.md`` ("The simulator at scale"), with the
load they were taken at; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import random
import resource
import sys
import time

from netlab import specs


def bare_loop_s(n_events: int = 1_000_000, n_timers: int = 1000) -> float:
    """Wall seconds of a bare heapq loop: ``n_timers`` timers, each re-armed after a random
    delay when it fires, until ``n_events`` have fired (no model, the floor of a Python loop)."""
    rng = random.Random(1)
    heap = [(rng.random(), i, i) for i in range(n_timers)]
    heapq.heapify(heap)
    seq = n_timers
    start = time.perf_counter()
    for _ in range(n_events):
        t, _, timer = heapq.heappop(heap)
        seq += 1
        heapq.heappush(heap, (t + rng.random(), seq, timer))
    return time.perf_counter() - start


def radix_for(n_hosts: int, minimum: int = 4) -> int:
    """The smallest even k >= ``minimum`` whose three-tier fat tree has at least ``n_hosts`` hosts."""
    k = minimum
    while k ** 3 // 4 < n_hosts:
        k += 2
    return k


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hosts", type=int, default=1024)
    ap.add_argument("--routing", choices=("ecmp", "spray", "adaptive"), default="ecmp")
    ap.add_argument("--flowlevel", action="store_true")
    ap.add_argument("--bytes", type=int, default=2_000_000)
    ap.add_argument("--ack-every", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-wall-s", type=float, default=3600.0, help="the packet run's guard in real seconds")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    bare = bare_loop_s()
    k = radix_for(args.hosts)
    start, cpu = time.perf_counter(), time.process_time()
    if args.flowlevel:
        from netlab.fabric import flowlevel
        payload = specs.value("sim.assume.mtu") / (specs.value("sim.assume.mtu") + specs.value("sim.assume.header"))
        scheme = "ecmp" if args.routing == "ecmp" else "spray"
        fluid = flowlevel.fat_tree_permutation(k, 100e9, scheme=scheme, n_bytes=args.bytes, propagation_s=1e-6,
                                               payload_fraction=payload, seed=args.seed)
        wall = time.perf_counter() - start
        times = sorted(fluid.completion_times_s)
        out = dict(model="flowlevel", routing=scheme, events=fluid.rate_recomputations)
    else:
        from netlab import sim
        from netlab.fabric.experiments import fat_tree_pattern
        run = fat_tree_pattern(args.routing, k, bytes_per_host=args.bytes, seed=args.seed, propagation_s=1e-6,
                               ack_every=args.ack_every, max_wall_s=args.max_wall_s)
        wall = time.perf_counter() - start
        times = sorted(run.completion_times_s)
        out = dict(model="packet", routing=args.routing, events=run.events_processed, loop_s=round(run.wall_s, 2),
                   compiled=sim.COMPILED, ack_every=args.ack_every)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.update(hosts=k ** 3 // 4, k=k, tiers=3, bytes=args.bytes, seed=args.seed, wall_s=round(wall, 2),
               cpu_s=round(time.process_time() - cpu, 2),
               peak_rss_mb=round(rss), fct_median_us=round(times[(len(times) - 1) // 2] * 1e6, 1),
               fct_max_us=round(times[-1] * 1e6, 1), bare_loop_s=round(bare, 3), load=round(load, 2))
    print(json.dumps(out), flush=True)
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
