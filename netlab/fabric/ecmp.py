"""ECMP collisions: why hashing flows onto equal paths leaves about a third idle.

Equal-cost multi-path (ECMP) routing hashes each flow's 5-tuple to one of ``m``
equal paths. A good hash is uniform and independent, so ``n`` flows land on ``m``
paths like ``n`` balls thrown into ``m`` bins {raab-steger-balls}. A path stays
empty with probability ``(1 - 1/m)^n``, so the expected share of paths in use is

    used(n, m) = 1 - (1 - 1/m)^n        ->  1 - 1/e = 63.2 %  for n = m -> infinity.

With ``n = m`` long flows (a permutation on a non-blocking fabric) each path carries
its flows at line rate between them, so while all flows run the fabric moves
``used`` of what it could: the first-principles root of the "about 60 %" that is
quoted for traditional Ethernet (seed claim D5).

The job finishes when the busiest path has drained: a path with ``L`` flows of
``S`` bytes at rate ``B`` needs ``L * S / B``. The completion-time slowdown against
perfect balance is ``E[max load] / ceil(n / m)``. The expected maximum load is
computed here from the exact distribution of the maximum (Poissonization: the
loads are independent Poisson variables conditioned on their sum; see
``_prob_max_at_most``). It grows like ``ln m / ln ln m`` for ``n = m``.

Per-packet spraying throws ``n * P`` small balls (``P`` packets per flow) instead;
for many balls per bin (``mu = nP/m``) the loads are nearly normal and the maximum
is about ``mu + sqrt(mu) * E[max of m standard normals]`` (about
``mu + sqrt(2 mu ln m)`` for large m {raab-steger-balls}), so the slowdown tends
to 1 like ``1 / sqrt(P)``.

:func:`monte_carlo` throws the balls with numpy and reports means with 95 %
confidence intervals, so the closed forms can be checked.
"""

from __future__ import annotations

from dataclasses import dataclass
import functools
import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:     # numpy only inside the functions that compute with it
    import numpy as np

from netlab import validate

MAX_BALLS = 5000      # bounds the FFT length (n_bins * max load) and the run time
MAX_BINS = 4096
MAX_NORMALS = 10**12  # E[max of 10^12 normals] is about 7.0, well inside the +-9 sigma quadrature grid


def expected_paths_used(n_flows: int, n_paths: int) -> float:
    """Expected share of ``n_paths`` that carry at least one of ``n_flows`` hashed flows.

    >>> round(expected_paths_used(64, 64), 4)
    0.635
    """
    n_flows = validate.integer("n_flows", n_flows, minimum=1)
    n_paths = validate.integer("n_paths", n_paths, minimum=1)
    return 1.0 - (1.0 - 1.0 / n_paths) ** n_flows


def _prob_max_at_most(c: int, n: int, m: int) -> float:
    """P(no bin holds more than c of n balls in m bins), by Poissonization.

    With Y_1..Y_m independent Poisson(n/m), the bin loads are the Y_i given that
    they sum to n, so ``P(max <= c) = F(c)^m * P(sum Y'_i = n) / P(sum Y_i = n)``,
    where F is the Poisson CDF and Y' the Poisson truncated to 0..c. The sum of the
    m truncated variables is a convolution power, taken with an FFT.
    """
    import numpy as np

    mu = n / m
    j = np.arange(c + 1)
    log_pmf = j * math.log(mu) - mu - np.array([math.lgamma(k + 1) for k in j])
    pmf = np.exp(log_pmf)
    cdf = pmf.sum()
    length = 1 << int(math.ceil(math.log2(m * c + 1)))      # no wrap-around: the sum is <= m*c
    spectrum = np.fft.rfft(pmf / cdf, length) ** m
    p_sum_truncated = np.fft.irfft(spectrum, length)[n]
    if p_sum_truncated <= 0.0:                              # below float resolution
        return 0.0
    log_p_sum = n * math.log(n) - n - math.lgamma(n + 1)   # Poisson(n) at n
    return min(1.0, math.exp(m * math.log(cdf) + math.log(p_sum_truncated) - log_p_sum))


def expected_max_load(n_balls: int, n_bins: int) -> float:
    """Exact expected load of the fullest of ``n_bins`` bins after ``n_balls`` uniform throws.

    ``E[max] = sum over c >= 0 of P(max > c)``.

    >>> round(expected_max_load(2, 2), 9)   # both in one bin with probability 1/2: 1.5
    1.5
    """
    n = validate.integer("n_balls", n_balls, minimum=1, maximum=MAX_BALLS)
    m = validate.integer("n_bins", n_bins, minimum=1, maximum=MAX_BINS)
    if m == 1:
        return float(n)
    floor_load = math.ceil(n / m)                # the max is at least the mean, rounded up
    total = float(floor_load)
    for c in range(floor_load, n):
        tail = 1.0 - _prob_max_at_most(c, n, m)
        total += tail
        if tail < 1e-9:      # tails fall faster than geometrically; below this, float
            break            # rounding in the programme (about 1e-12 per bin) would dominate
    return total


@dataclass(frozen=True)
class Collisions:
    """What ``n_flows`` hashed onto ``n_paths`` equal paths expect to see."""

    n_flows: int
    n_paths: int
    fraction_of_paths_used: float   # 1 - (1 - 1/m)^n
    busy_throughput_share: float    # paths used / min(n, m): throughput while every flow runs
    expected_max_load: float        # flows on the busiest path
    ideal_max_load: int             # ceil(n / m): perfect balance
    completion_slowdown: float      # E[max] / ceil(n/m): the last flow's finish vs perfect balance

    def __repr__(self) -> str:
        return (f"{self.n_flows} flows hashed onto {self.n_paths} paths use "
                f"{self.fraction_of_paths_used:.1%} of the paths on average; the busiest path carries "
                f"{self.expected_max_load:.2f} flows (ideal {self.ideal_max_load}), so the last flow "
                f"finishes {self.completion_slowdown:.2f}x later than with perfect balance.")


def ecmp_collisions(n_flows: int, n_paths: int) -> Collisions:
    """Closed forms for ``n_flows`` long flows hashed onto ``n_paths`` paths.

    >>> c = ecmp_collisions(128, 128)
    >>> round(c.fraction_of_paths_used, 3)
    0.634
    """
    n_flows = validate.integer("n_flows", n_flows, minimum=1, maximum=MAX_BALLS)
    n_paths = validate.integer("n_paths", n_paths, minimum=1, maximum=MAX_BINS)
    used = expected_paths_used(n_flows, n_paths)
    e_max = expected_max_load(n_flows, n_paths)
    ideal = math.ceil(n_flows / n_paths)
    return Collisions(
        n_flows=n_flows, n_paths=n_paths, fraction_of_paths_used=used,
        busy_throughput_share=used * n_paths / min(n_flows, n_paths),
        expected_max_load=e_max, ideal_max_load=ideal, completion_slowdown=e_max / ideal,
    )


def expected_max_of_normals(n_samples: int) -> float:
    """Expected largest of ``n_samples`` independent standard normal variables.

    ``E[max] = integral of x * m * phi(x) * Phi(x)^(m-1) dx``, by quadrature on a grid.

    >>> round(expected_max_of_normals(2), 4)        # 1 / sqrt(pi)
    0.5642
    """
    m = validate.integer("n_samples", n_samples, minimum=1, maximum=MAX_NORMALS,
                         why="the quadrature grid ends at 9 standard deviations")
    return _expected_max_of_normals(m)


@functools.lru_cache(maxsize=256)      # a pure function of m; the capstone asks for the same few m often
def _expected_max_of_normals(m: int) -> float:
    # the same 7,201-point grid as np.linspace(-9, 9, 7201), in plain Python (no numpy needed)
    step = 18.0 / 7200
    terms = []
    for i in range(7201):
        x = 9.0 if i == 7200 else -9.0 + i * step
        phi = math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)
        cdf = 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))
        terms.append(x * m * phi * cdf ** (m - 1))
    return math.fsum(terms) * step


def spraying_slowdown(n_flows: int, n_paths: int, packets_per_flow: int) -> float:
    """Approximate completion slowdown when every packet is sprayed onto a random path.

    Each path gets Binomial(nP, 1/m) packets, mean ``mu = nP/m`` and standard
    deviation ``sigma = sqrt(mu (1 - 1/m))``; for ``mu`` well above ``ln m`` the loads
    are nearly normal, so the busiest path holds about ``mu + sigma * E[max of m
    normals]`` packets and the slowdown is that over ``mu``. It shrinks like
    ``1 / sqrt(P)``: spraying balances by the law of large numbers.

    >>> round(spraying_slowdown(128, 128, 512), 3)
    1.114
    """
    n_flows = validate.integer("n_flows", n_flows, minimum=1)
    n_paths = validate.integer("n_paths", n_paths, minimum=1, maximum=MAX_NORMALS,
                               why="the quadrature grid ends at 9 standard deviations")
    packets_per_flow = validate.integer("packets_per_flow", packets_per_flow, minimum=1)
    mu = n_flows * packets_per_flow / n_paths
    sigma = math.sqrt(mu * (1.0 - 1.0 / n_paths))
    return 1.0 + sigma * expected_max_of_normals(n_paths) / mu


@dataclass(frozen=True)
class MonteCarlo:
    """Sampled balls into bins: means and 95 % confidence half-widths."""

    n_flows: int
    n_paths: int
    packets_per_flow: int
    n_trials: int
    fraction_of_paths_used: float
    fraction_of_paths_used_ci: float
    max_load: float                 # in packets (flows when packets_per_flow = 1)
    max_load_ci: float
    completion_slowdown: float      # max load / ceil(n * P / m)
    completion_slowdown_ci: float

    def __repr__(self) -> str:
        return (f"Over {self.n_trials} trials of {self.n_flows} flows x {self.packets_per_flow} "
                f"packets on {self.n_paths} paths: {self.fraction_of_paths_used:.1%} "
                f"± {self.fraction_of_paths_used_ci:.1%} of the paths used, a slowdown of "
                f"{self.completion_slowdown:.3f} ± {self.completion_slowdown_ci:.3f} (95 % intervals).")


def monte_carlo(n_flows: int, n_paths: int, packets_per_flow: int = 1, n_trials: int = 1000,
                seed: int = 0) -> MonteCarlo:
    """Throw ``n_flows * packets_per_flow`` balls into ``n_paths`` bins ``n_trials`` times.

    ``packets_per_flow = 1`` is per-flow ECMP; more is random per-packet spraying.
    Deterministic for a ``seed``.
    """
    n = validate.integer("n_flows", n_flows, minimum=1)
    m = validate.integer("n_paths", n_paths, minimum=1)
    p = validate.integer("packets_per_flow", packets_per_flow, minimum=1)
    trials = validate.integer("n_trials", n_trials, minimum=2)
    seed = validate.integer("seed", seed, minimum=0)
    if n * p * trials > 50_000_000:
        raise ValueError(f"n_trials must keep n_flows * packets_per_flow * n_trials <= 5e7, got "
                         f"{n} * {p} * {trials}")
    if m * trials > 50_000_000:        # the per-trial load table has n_paths * n_trials cells
        raise ValueError(f"n_paths must keep n_paths * n_trials <= 5e7 (the table of loads), got {m} * {trials}")
    import numpy as np

    rng = np.random.default_rng(seed)
    bins = rng.integers(0, m, size=(trials, n * p))
    offsets = (np.arange(trials) * m)[:, None]
    loads = np.bincount((bins + offsets).ravel(), minlength=trials * m).reshape(trials, m)
    used = (loads > 0).mean(axis=1)
    peak = loads.max(axis=1).astype(float)
    slow = peak / math.ceil(n * p / m)

    def mean_ci(x: np.ndarray) -> tuple[float, float]:
        return float(x.mean()), float(1.96 * x.std(ddof=1) / math.sqrt(len(x)))

    (u, u_ci), (mx, mx_ci), (s, s_ci) = mean_ci(used), mean_ci(peak), mean_ci(slow)
    return MonteCarlo(n_flows=n, n_paths=m, packets_per_flow=p, n_trials=trials,
                      fraction_of_paths_used=u, fraction_of_paths_used_ci=u_ci,
                      max_load=mx, max_load_ci=mx_ci, completion_slowdown=s, completion_slowdown_ci=s_ci)


def one_throw(n_paths: int, packets_per_flow: int, seed: int = 0) -> np.ndarray:
    """One seeded throw of ``n_paths`` flows of ``packets_per_flow`` packets onto ``n_paths`` paths.

    Returns each path's load in flows' worth of bytes (packets on it / ``packets_per_flow``):
    1.0 everywhere would be a perfect spread.

    >>> float(one_throw(4, 1000, seed=1).sum())      # every flow's bytes land somewhere
    4.0
    """
    m = validate.integer("n_paths", n_paths, minimum=1, maximum=MAX_BINS)
    p = validate.integer("packets_per_flow", packets_per_flow, minimum=1, maximum=MAX_BALLS)
    seed = validate.integer("seed", seed, minimum=0)
    import numpy as np

    rng = np.random.default_rng(seed)
    return np.bincount(rng.integers(0, m, m * p), minlength=m) / p
