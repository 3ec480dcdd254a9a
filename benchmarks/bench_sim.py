"""Benchmark of netlab.sim: events per second beside a bare heapq loop, and a large incast.

Run:  .venv/bin/python benchmarks/bench_sim.py [--quick]

1. A fixed scenario -- 16 senders x 1 MB to one receiver through one switch at
   100 Gb/s, go-back-N with an ACK per packet, no loss (a buffer large enough) -- run
   by netlab.sim and by ``bare_incast`` below: the same packets, the same events
   (send done, arrival at the switch, switch send done, arrival at the host, for data
   and ACKs alike) written as one function over a heapq of tuples, with no objects,
   flow control or policies. The ratio of their event rates is the price of the
   simulator's structure. A trivial heapq loop (push one event, pop one, no work) is
   printed as the ceiling of any Python event loop on this machine.
2. 128 senders x 2 MB incast at 100 Gb/s with PFC: wall and CPU time, events, peak
   memory. The paused senders' packets can wait up to 128 x XOFF (~127 MB, ~10 ms) in
   the switch, so the RTO is raised to 50 ms: with the 1 ms default, go-back-N would
   time out spuriously and resend data that was only queued.

Rates are per CPU second (``time.process_time``), which a busy shared machine
disturbs less than wall time. Figures are printed, never asserted.
"""

from __future__ import annotations

import heapq
import resource
import sys
import time
import tracemalloc

from netlab.sim import PFC, Lossy, single_switch

RATE = 100e9
MTU, HDR, ACK = 4096, 64, 64
PROP = 25e-9


def netlab_incast(n_senders: int, n_bytes: int, flow_control, rto_s: float | None = None):
    net = single_switch(n_senders + 1, RATE, propagation_s=PROP, flow_control=flow_control, seed=1,
                        rto_s=rto_s)
    for i in range(1, n_senders + 1):
        net.add_flow(f"h{i}", "h0", n_bytes)
    t0, c0 = time.perf_counter(), time.process_time()
    result = net.run()
    netlab_incast.cpu_s = time.process_time() - c0          # CPU time: robust on a shared machine
    return result, time.perf_counter() - t0


def bare_incast(n_senders: int, n_bytes: int) -> tuple[int, float, float]:
    """The same incast as one function: returns (events, seconds, completion time)."""
    n_packets = -(-n_bytes // MTU)
    sizes = [min(MTU, n_bytes - k * MTU) + HDR for k in range(n_packets)]
    heap, seq = [], 0
    # state: per-sender next packet and NIC busy flag; switch port FIFOs and busy flags
    next_pkt = [0] * (n_senders + 1)
    nic_busy = [False] * (n_senders + 1)
    nic_ctrl = [[] for _ in range(n_senders + 1)]       # ACKs waiting at each host NIC
    port_fifo = [[] for _ in range(n_senders + 1)]      # switch output FIFO per port
    port_head = [0] * (n_senders + 1)
    port_busy = [False] * (n_senders + 1)
    acked = [0] * (n_senders + 1)
    done_at = [0.0]
    delivered = [0]
    total = n_senders * n_packets

    def push(t, kind, a, b):
        nonlocal seq
        seq += 1
        heapq.heappush(heap, (t, seq, kind, a, b))

    def host_send(now, h):                              # host h's NIC picks its next packet
        if nic_busy[h]:
            return
        if nic_ctrl[h]:
            pkt = nic_ctrl[h].pop()
        elif h and next_pkt[h] < n_packets:
            k = next_pkt[h]
            next_pkt[h] += 1
            pkt = (h, 0, k, sizes[k], True)
        else:
            return
        nic_busy[h] = True
        ser = pkt[3] * 8 / RATE
        push(now + ser, 0, h, None)                     # NIC done
        push(now + ser + PROP, 1, pkt, None)            # arrives at the switch

    def switch_send(now, p):
        if port_busy[p] or port_head[p] == len(port_fifo[p]):
            return
        pkt = port_fifo[p][port_head[p]]
        port_head[p] += 1
        port_busy[p] = True
        ser = pkt[3] * 8 / RATE
        push(now + ser, 2, p, None)                     # switch port done
        push(now + ser + PROP, 3, pkt, None)            # arrives at host p

    for h in range(1, n_senders + 1):
        host_send(0.0, h)
    events = 0
    t0 = time.process_time()
    while heap:
        now, _, kind, a, b = heapq.heappop(heap)
        events += 1
        if kind == 0:                                   # NIC done
            nic_busy[a] = False
            host_send(now, a)
        elif kind == 1:                                 # at the switch: forward to dst port
            dst = a[1]
            port_fifo[dst].append(a)
            switch_send(now, dst)
        elif kind == 2:                                 # switch port done
            port_busy[a] = False
            switch_send(now, a)
        else:                                           # at a host
            src, dst, k, size, is_data = a
            if is_data:
                delivered[0] += 1
                nic_ctrl[dst].append((dst, src, k + 1, ACK, False))
                host_send(now, dst)
                if delivered[0] == total:
                    done_at[0] = now
                    break
            else:
                acked[dst] = max(acked[dst], k)
    return events, time.process_time() - t0, done_at[0]


def trivial_loop(n_events: int) -> float:
    heap, seq = [(0.0, 0, None)], 0
    t0 = time.process_time()
    for _ in range(n_events):
        t, _, _ = heapq.heappop(heap)
        seq += 1
        heapq.heappush(heap, (t + 1e-9, seq, None))
    return n_events / (time.process_time() - t0)


def main(quick: bool = False) -> None:
    n, size = (8, 500_000) if quick else (16, 1_000_000)
    best_sim = best_bare = 0.0
    for _ in range(3):                                   # best of three: the machine is shared
        result, _ = netlab_incast(n, size, Lossy(100e6))
        events, bare_cpu, bare_done = bare_incast(n, size)
        best_sim = max(best_sim, result.events_processed / netlab_incast.cpu_s)
        best_bare = max(best_bare, events / bare_cpu)
    print(f"fixed scenario: {n} x {size / 1e6:g} MB incast at {RATE / 1e9:g} Gb/s")
    print(f"  netlab.sim : {result.events_processed} events, {best_sim:,.0f} events/s, "
          f"completion {result.max_completion_time_s * 1e6:.3f} us")
    print(f"  bare heapq : {events} events, {best_bare:,.0f} events/s, completion {bare_done * 1e6:.3f} us")
    print(f"  ratio sim / bare = {best_sim / best_bare:.2f}")
    print(f"  trivial heapq push/pop loop: {trivial_loop(200_000):,.0f} events/s")

    senders, n_bytes = (16, 2_000_000) if quick else (128, 2_000_000)
    tracemalloc.start()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result, wall = netlab_incast(senders, n_bytes, PFC(1_000_000), rto_s=50e-3)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"incast {senders} x {n_bytes / 1e6:g} MB at {RATE / 1e9:g} Gb/s, PFC: {result.stop_reason}, "
          f"completion {result.max_completion_time_s * 1e3:.3f} ms, {result.events_processed} events, "
          f"{wall:.1f} s wall (under tracemalloc), peak Python memory {peak / 1e6:.1f} MB, "
          f"max RSS growth {(rss1 - rss0) / 1e3:.1f} MB")
    ideal_s = senders * (n_bytes + -(-n_bytes // MTU) * HDR) * 8 / RATE
    print(f"  ideal (receiver link never idle) {ideal_s * 1e3:.3f} ms; "
          f"{sum(f.retransmitted_packets for f in result.flows)} packets resent")
    result, wall = netlab_incast(senders, n_bytes, PFC(1_000_000), rto_s=50e-3)
    cpu = netlab_incast.cpu_s
    print(f"  same run without tracemalloc: {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{result.events_processed / cpu:,.0f} events per CPU second")


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
