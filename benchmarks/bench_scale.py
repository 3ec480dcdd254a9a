"""Benchmark: the simulator at the scale the book talks about (issue 35).

Run::

    .venv/bin/python benchmarks/bench_scale.py --hosts 8192 --routing ecmp      # packet model
    .venv/bin/python benchmarks/bench_scale.py --flowlevel --hosts 1000000     # flow-level model
    .venv/bin/python benchmarks/bench_scale.py --flowlevel --pattern all_to_all --hosts 1000000 --routing spray
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
asks for k = 160 (1,024,000 hosts). ``--pattern all_to_all`` (flow-level only) has every host send
``--bytes`` to every other host at once (:func:`netlab.fabric.flowlevel.fat_tree_all_to_all`,
aggregated by class: n(n - 1) = 1.05e12 flows at k = 160); its line adds ``flows``, ``ideal_us``
(``(n - 1)`` times the bytes at the payload rate, plus 2 links), ``slowdown`` (slowest flow over
the ideal), ``busiest_link_flows`` and the bounds ``fct_median_low_us`` / ``fct_median_high_us``
(equal under spraying; under ECMP ``fct_median_us`` is their middle), and ``events`` counts the
max-min fills (1 under spraying; 0 under ECMP, whose figures follow from the drawn link counts).

Measured figures are kept here and in ``benchmarks/README.md`` ("The simulator at scale"), with
the load they were taken at; nothing here asserts a time.

Measured on 5 December 2026 (session c) on the shared two-core machine (AMD EPYC, 1 MiB of L2
per core, 32 MiB of L3 shared with the other sessions), ``--ack-every 4``, seed 1, 2 MB a host.
"old" is main at 9d6a9c8, "new" this branch; CPU seconds of the whole run (set-up included):

====================  ==========  ================  ========  =========  =====================  ====
run                   events      CPU s old / new   wall s    peak RSS   FCT median / max (µs)  load
====================  ==========  ================  ========  =========  =====================  ====
128 ECMP (k = 8)         738,085  0.56 / 0.47       0.6       29 MB      683.4 / 1,310.3        1.8
128 spray                844,787  0.75 / 0.74       0.8       30 MB      186.0 / 193.0          1.8
128 adaptive             806,673  0.69 / 0.63       0.7       30 MB      194.0 / 205.4          1.8
1,024 ECMP (k = 16)    5,912,405  7.29-8.56 /       7.3-8.6   72 MB      837.3 / 2,285.3        1.8-2.0
                                  7.21-8.41
4,394 ECMP (k = 26)   25,810,306  74.2 (old)        462       247 MB     438.1 / 983.5          7.5
4,394 spray           29,274,872  114.9 (new)       1,049     286 MB     191.5 / 201.7          12
8,192 ECMP (k = 32)   47,629,016  147.1 / 134.6     147 / 139 416 MB     1,039.5 / 2,777.4      0.1-1.8
  the same, busy                  165.1 / 138.3     803 / 349 416 MB     1,039.5 / 2,777.4      1-17
8,192 spray           54,809,420  219.2 / 197.7     219 / 198 521/517 MB 192.2 / 202.1          0.3-0.9
  the same, busy                  262.6 (old)       1,438     521 MB     192.2 / 202.1          1-17
8,192 adaptive        49,975,960  208.7 (new)       213       501 MB     196.3 / 222.2          2.9
====================  ==========  ================  ========  =========  =====================  ====

The 128- and 1,024-host pairs (three at 1,024 hosts) and the quiet 8,192-host runs ran back to back
on a quiet machine (the bare loop of 1M heapq timer events, timed at the start of each run in the
same process: 0.43-0.46 s; 0.442-0.457 s at 8,192 hosts). The busy runs shared the two cores with
5-17 runnable processes of other sessions, so their CPU seconds carry the contention for the
shared cache too (bare loop 0.87 s and 10.7 s at the starts of the busy 8,192-host ECMP pair, 3.8
and 4.3 s at the 4,394-host runs). Every event count and completion time is the same old and new.
The fluid on the packet model's own paths (:func:`netlab.fabric.experiments.fluid_on_packet_paths`)
gives 818.5 / 2,281.0, 493.5 / 981.0 and 1,069.6 / 2,768.5 µs at k = 16, 26, 32 (chapter 5's
table), and 168.5 µs for every sprayed flow.

Scaling from 128 to 8,192 hosts (quiet runs): events grow as hosts^1.00; CPU as hosts^1.34 (ECMP
old, 0.56 to 147.1 s), hosts^1.36 (ECMP new, 0.47 to 134.6 s), hosts^1.37 and 1.34 (spray old and
new, 0.75 to 219.2 s and 0.74 to 197.7 s) and hosts^1.40 (adaptive new, 0.63 to 208.7 s). The issue's 60 s for 8,192 hosts is not
met: it asks for about 1.2 µs an event, and an event costs 2.8-4.2 µs there (quiet) against
0.6-0.9 µs at 128 hosts.

Why, measured with callgrind (the same 292,436 events: 128 hosts x 800 kB against 1,024 hosts x
100 kB): an event executes about the same instructions at both sizes (3,694 against 3,989) and
misses the first-level cache as often (59 against 56 reads), so the growth must lie in where
those ~57 misses are served from: L2 while the working set is small, L3 and memory as it grows with
the hosts (peak RSS 29 MB at 128 hosts, 416 MB at 8,192; the simulated last-level cache of
callgrind was unusable on this VM, so this step is inferred, not counted). The heap's pops are
the largest single source of misses (23 %, and 16 % of the instructions). This branch removed
8.5 % of the instructions and 12.5 % of the first-level misses per event (packets and event
arguments out of the cyclic garbage collector, no list resizing per pop, the heap's keys aligned
to cache lines, routes read by edge first): 8.5 % (ECMP) and 9.8 % (spray) less CPU at 8,192
hosts, 1-16 % at 128. A 60 s run needs about three times fewer misses per event, i.e. ports, queues and packets as
compact C records, or no end-of-transmission event at busy ports (40 % of a leaf-spine
permutation's events in the 5 December performance review).

The all-to-all at a million hosts (branch ``a2a``, 5 December 2026 about 23:55 UTC, the
same machine, load average 3.8 at the start, bare loop 1.06 and 1.09 s), k = 160, 1,024,000 hosts,
2 MB a pair, 100 Gb/s and 1 µs links, seed 1:

=======  =======  =====  =========  ========================  ===================  ========
scheme   wall s   CPU s  peak RSS   median (s)                slowest (s)          slowdown
=======  =======  =====  =========  ========================  ===================  ========
spray    0.34     0.11   36 MB      166.399 844 (exact)       166.399 844          1.00000
ECMP     1.36     0.52   83 MB      in [165.483, 167.327]     167.327 069          1.00557
=======  =======  =====  =========  ========================  ===================  ========

The ideal is 166.399 840 s (1,023,999 x 16 Mbit at the payload share of 100 Gb/s, plus 2 links);
sprayed, every flow finishes then, plus the 4 more links of a flow between pods. Under ECMP the
busiest fabric link held 1,029,705 flows against a host link's 1,023,999; over seeds 1-8 the
slowdown was 1.0045-1.0056. Most of the ECMP run's time is drawing 2 x 2,048,000 multinomial link
counts. Against every flow hashed and filled one by one (the test's reference, 1 kB a pair, two
seeds each; the model's own draws differ, so only the laws compare), slowest and median over the
ideal:

=====  ============================  ===============================  =================
hosts  flow by flow: slowest         count model: slowest             flow by flow:
       (exact max-min)               (exact for its draws)            median
=====  ============================  ===============================  =================
128    1.197, 1.181                  1.213, 1.197                     1.011, 1.010
432    1.151, 1.104                  1.116, 1.137                     1.007, 1.004
1,024  1.085, 1.091 (1.2-1.5 CPU-s,      1.081, 1.078                     1.005, 1.004
       0.4-0.6 GB)
=====  ============================  ===============================  =================

ECMP's excess falls as the counts concentrate (relative spread ``1 / sqrt(n)``): 8 % at 1,024
hosts, 0.5 % at 1,024,000; the median's excess is smaller still, and every median lay inside the
model's bounds.
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
    ap.add_argument("--pattern", choices=("permutation", "all_to_all"), default="permutation",
                    help="all_to_all: the flow-level model only")
    ap.add_argument("--bytes", type=int, default=2_000_000)
    ap.add_argument("--ack-every", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-wall-s", type=float, default=3600.0, help="the packet run's guard in real seconds")
    args = ap.parse_args(argv)
    if args.pattern == "all_to_all" and not args.flowlevel:
        ap.error("--pattern all_to_all needs --flowlevel (n(n - 1) flows are out of the packet model's reach)")
    load = os.getloadavg()[0]
    bare = bare_loop_s()
    k = radix_for(args.hosts)
    start, cpu = time.perf_counter(), time.process_time()
    if args.flowlevel and args.pattern == "all_to_all":
        from netlab.fabric import flowlevel
        payload = specs.value("sim.assume.mtu") / (specs.value("sim.assume.mtu") + specs.value("sim.assume.header"))
        scheme = "ecmp" if args.routing == "ecmp" else "spray"
        a2a = flowlevel.fat_tree_all_to_all(k, 100e9, scheme=scheme, n_bytes=args.bytes, propagation_s=1e-6,
                                            payload_fraction=payload, seed=args.seed)
        wall = time.perf_counter() - start
        low, high = a2a.median_bounds_s
        times = [a2a.median_s, a2a.max_s]          # the median and the slowest flow, read below
        out = dict(model="flowlevel", routing=scheme, events=a2a.rate_recomputations,
                   flows=a2a.n_flows, fct_median_low_us=round(low * 1e6, 1), fct_median_high_us=round(high * 1e6, 1),
                   ideal_us=round(a2a.ideal_s * 1e6, 1), slowdown=round(a2a.slowdown, 5),
                   busiest_link_flows=a2a.busiest_link_flows)
    elif args.flowlevel:
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
    out.update(pattern=args.pattern, hosts=k ** 3 // 4, k=k, tiers=3, bytes=args.bytes, seed=args.seed, wall_s=round(wall, 2),
               cpu_s=round(time.process_time() - cpu, 2),
               peak_rss_mb=round(rss), fct_median_us=round(times[(len(times) - 1) // 2] * 1e6, 1),
               fct_max_us=round(times[-1] * 1e6, 1), bare_loop_s=round(bare, 3), load=round(load, 2))
    print(json.dumps(out), flush=True)
    return out


if __name__ == "__main__":
    main(sys.argv[1:])
