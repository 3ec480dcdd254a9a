"""netlab.fabric.figures: lab 5's sentences under its two explorers, against numbers worked here.

The balls-into-bins readout describes one seeded throw and the closed forms' average. The throw is
redrawn here from numpy's generator (seed 5, as the explorer's); the averages come from methods
unlike the library's: an exact count of throws for E[max] (the library Poissonizes and uses an
FFT), and the expected largest of m normals by integrating 1 - Phi^m (the library integrates the
density).
"""

import math
from types import SimpleNamespace

import numpy as np

from netlab.fabric import figures

SEED = 5


def _counts_of_throws_with_max_at_most(c: int, n: int, m: int) -> int:
    """How many of the m^n throws of n labelled balls into m bins put at most c in every bin:
    n! [x^n] (sum_{j <= c} x^j / j!)^m, with integer coefficients k! [x^k] (binomial products)."""
    def times(a, b):
        return [sum(math.comb(k, j) * a[j] * b[k - j] for j in range(k + 1)) for k in range(n + 1)]
    result, power, e = [1] + [0] * n, [1 if k <= c else 0 for k in range(n + 1)], m
    while e:
        if e & 1:
            result = times(result, power)
        power, e = times(power, power), e >> 1
    return result[n]


def _expected_max_load(n: int, m: int) -> float:
    """E[max] = sum over c >= 0 of P(max > c), counted exactly until the tail is below 1e-15."""
    total = 0.0
    for c in range(n):
        tail = 1 - _counts_of_throws_with_max_at_most(c, n, m) / m ** n
        total += tail
        if tail < 1e-15:
            break
    return total


def _expected_max_of_normals(m: int, step: float = 1e-3, end: float = 10.0) -> float:
    """E[max of m standard normals] = int_0^inf (1 - Phi^m) - int_0^inf Phi(-x)^m, by Simpson's rule."""
    phi = lambda x: 0.5 * (1 + math.erf(x / math.sqrt(2)))  # noqa: E731
    xs = np.arange(0, end + step / 2, step)
    upper = np.array([1 - phi(x) ** m for x in xs])
    lower = np.array([phi(-x) ** m for x in xs])
    simpson = lambda f: step / 3 * (f[0] + f[-1] + 4 * f[1:-1:2].sum() + 2 * f[2:-1:2].sum())  # noqa: E731
    return simpson(upper) - simpson(lower)


def test_ecmp_throw_of_64_flows_uses_67_percent_of_the_paths():
    # The explorer's first frame. Seed 5 sends the 64 flows to 43 distinct paths (43 / 64 = 67.2 %;
    # counting paths with more than one flow instead would say 27 %), at most 3 on one path: 3.00x
    # a perfect spread. On average the busiest path holds E[max] = 3.958 flows (exact count below),
    # so the job takes 3.96x the ideal.
    flows = np.random.default_rng(SEED).integers(0, 64, 64)
    assert len(set(flows.tolist())) == 43 and np.bincount(flows).max() == 3
    expected = _expected_max_load(64, 64)
    assert abs(expected - 3.958) < 5e-4
    text = figures.paths_readout(64, "ECMP (per flow)")
    assert "uses 67" in text and "% of the paths" in text, text
    assert "busiest to 3.00x the ideal" in text and "would take 3.96x the ideal time" in text, text


def test_spraying_16_packets_per_flow_fills_every_path():
    # 1,024 packets (64 flows x 16) on 64 paths: every path gets some (10 at least), the busiest 25,
    # 25 / 16 = 1.56 flows' worth. Normal approximation: mu = 16 packets, sigma = sqrt(16 x 63/64)
    # = 3.969, E[max of 64 normals] = 2.3437, so 1 + 3.969 x 2.3437 / 16 = 1.581.
    packets = np.bincount(np.random.default_rng(SEED).integers(0, 64, 64 * 16), minlength=64)
    assert packets.min() == 10 and packets.max() == 25
    e_max = _expected_max_of_normals(64)
    assert abs(e_max - 2.3437) < 1e-4
    assert abs(1 + math.sqrt(16 * 63 / 64) * e_max / 16 - 1.581) < 1e-3
    text = figures.paths_readout(64, "spraying, 16 packets")
    assert "uses 100" in text and "busiest to 1.56x" in text and "would take 1.58x" in text, text


def _run(job_s, median_s, ideal_s=2e-6, reordered=0, dropped=0):
    return SimpleNamespace(completion_times_s=(ideal_s, median_s, job_s), ideal_s=ideal_s, job_times_s=(job_s,),
                           out_of_order_packets=reordered, dropped_packets=dropped,
                           percentile_s=lambda q: median_s)


def test_two_jobs_readout_sets_the_timed_job_beside_itself_alone():
    # The timed job: 5 us against an ideal of 2 us = 2.50x; alone 2.5 us = 1.25x; median flow 3 us = 1.50x.
    runs = {("spray", "two jobs"): _run(5e-6, 3e-6, reordered=12)}
    alone = {"spray": _run(2.5e-6, 2.5e-6)}
    text = figures.completions_readout(runs, alone, "two jobs", "spray")
    assert text == ("Two jobs with spraying: the timed job takes 2.50x the ideal (alone: 1.25x) and the median "
                    "flow 1.50x; 12 packets arrive out of order and 0 are dropped.")
