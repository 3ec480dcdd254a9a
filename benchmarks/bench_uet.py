"""Benchmark: a 127-to-1 incast, 2 MB per sender at 100 Gb/s, in every chapter 8 configuration.

Prints, per configuration, the last and mean flow completion times against the ideal
(all 254 MB through the receiver's 100 Gb/s link back to back: 20.32 ms), drops,
trims, retransmissions, timeouts, events processed, wall time and events per second.
No assertion on timing: the figures are for reading. Run with
``.venv/bin/python benchmarks/bench_uet.py [n_senders] [bytes_per_sender]``.
"""

import sys
import time

from netlab.uet.experiments import INCAST_CONFIGS, incast


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 127
    size = int(sys.argv[2]) if len(sys.argv) > 2 else 2_000_000
    print(f"incast: {n} senders x {size:,} B -> 1 receiver, 100 Gb/s links, one switch")
    print(f"{'config':18s} {'last (ms)':>10s} {'mean (ms)':>10s} {'x ideal':>8s} {'drops':>8s} "
          f"{'trims':>8s} {'resent':>8s} {'RTOs':>6s} {'events':>9s} {'wall (s)':>9s} {'kev/s':>7s}")
    total = time.perf_counter()
    for config in INCAST_CONFIGS:
        r = incast(config, n, size, seed=1)
        print(f"{config:18s} {r.max_completion_s * 1e3:10.3f} {r.mean_completion_s * 1e3:10.3f} "
              f"{r.slowdown:8.3f} {r.dropped_packets:8d} {r.trimmed_packets:8d} "
              f"{r.retransmitted_packets:8d} {r.timeouts:6d} {r.events:9d} {r.wall_s:9.2f} "
              f"{r.events / r.wall_s / 1e3:7.0f}", flush=True)
    print(f"ideal {n * size * 8 / 100e9 * 1e3:.3f} ms; total wall time {time.perf_counter() - total:.1f} s")


if __name__ == "__main__":
    main()
