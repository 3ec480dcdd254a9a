"""How long the calls that tests/ guard against hangs take: printed, never asserted.

Run:  .venv/bin/python benchmarks/bench_hang_guards.py [--quick]

The tests that once asserted "refused at once" (under 2, 5 or 10 s) now check only the refusal, under
a hang guard of a minute (tests/hang_guard.py, tests/properties.py). The durations they used to assert
are measured here instead, best of three, in wall and CPU time:

1. absurd sizes refused before any work: schedules of 2^31 and 10^12 ranks, a hierarchical schedule
   of 64 x 2^20 ranks, a Monte Carlo over 2^31 paths, closed forms at 10^16 ranks, a switch of
   10^6 or 2^31 hosts, PFC thresholds above the headroom, a 1e-300 s timer;
2. a simulator run bounded by ``max_wall_s=0.2``: how long after 0.2 s it stops;
3. the slowest valid call of the API sweep (tests/test_api_properties.py scales ``k=4`` by 10):
   the flow-level model's fat tree of k = 40 (16,000 hosts), whose 4 s limit failed under load.

``--quick`` runs each call once and leaves out section 3.
"""

from __future__ import annotations

import sys
import time

from netlab.collectives import alpha_beta, schedules, trees
from netlab.fabric import ecmp, flowlevel
from netlab.sim import PFC, single_switch


def timed(func, repeats: int) -> tuple[float, float, str]:
    """Best wall and CPU seconds of ``repeats`` calls, and what the call ended with."""
    best_wall, best_cpu, outcome = float("inf"), float("inf"), ""
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        try:
            result = func()
            outcome = f"answered ({type(result).__name__})"
        except (ValueError, TypeError) as err:
            outcome = f"{type(err).__name__}: {str(err)[:60]}"
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best_wall, best_cpu, outcome


REFUSALS = {
    "ring_all_reduce(2**31)": lambda: schedules.ring_all_reduce(2**31),
    "all_to_all(10**12)": lambda: schedules.all_to_all(10**12),
    "double_binary_tree_all_reduce(2**31)": lambda: trees.double_binary_tree_all_reduce(2**31),
    "binomial_parents(2**31)": lambda: trees.binomial_parents(2**31),
    "hierarchical_all_reduce(64, 2**20)": lambda: schedules.hierarchical_all_reduce(64, 2**20),
    "ecmp.monte_carlo(16, 2**31)": lambda: ecmp.monte_carlo(16, 2**31),
    "ring_all_reduce_time at 10**16 ranks": lambda: alpha_beta.ring_all_reduce_time(1e6, 10**16, 1e-6, 4e11),
    "single_switch(10**6 hosts)": lambda: single_switch(10**6, 100e9),
    "single_switch(2**31 hosts)": lambda: single_switch(2**31, 100e9),
    "PFC xoff above the headroom": lambda: single_switch(5, 100e9, flow_control=PFC(20000, xoff_bytes=19000)),
    "rto_s = 1e-300": lambda: single_switch(2, 100e9, rto_s=1e-300),
}


def main() -> None:
    quick = "--quick" in sys.argv
    repeats = 1 if quick else 3
    print(f"1. refusals of absurd inputs (best of {repeats}: wall, CPU)")
    for label, call in REFUSALS.items():
        wall, cpu, outcome = timed(call, repeats)
        print(f"   {label:40s} {wall * 1e3:9.3f} ms {cpu * 1e3:9.3f} ms CPU   {outcome}")

    net = single_switch(3, 100e9)
    net.add_flow("h1", "h0", 4_000_000_000)       # about a million packets: minutes of work unbounded
    w0 = time.perf_counter()
    run = net.run(max_wall_s=0.2)
    print(f"2. run(max_wall_s=0.2) stopped after {time.perf_counter() - w0:.3f} s of wall time "
          f"(stop reason {run.stop_reason!r}, {run.events_processed:,} events)")

    if not quick:
        wall, cpu, outcome = timed(lambda: flowlevel.fat_tree_permutation(
            40, 100e9, scheme="ecmp", n_bytes=10_000, propagation_s=1e-6), 1)
        print(f"3. fat_tree_permutation(k=40, ECMP, 10 kB per host): {wall:.2f} s wall, {cpu:.2f} s CPU; {outcome}")


if __name__ == "__main__":
    main()
