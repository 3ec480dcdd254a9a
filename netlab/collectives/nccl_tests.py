"""Reading nccl-tests output, and fitting alpha and beta to it.

``nccl-tests`` (``all_reduce_perf -b 8 -e 8G -f 2 -g 8`` and friends) prints, per
message size, the time of a collective and two bandwidths :cite:p:`nccl-tests-performance`:
``algbw = size / time`` and ``busbw = algbw * factor`` (``2(n-1)/n`` for all-reduce).
:func:`parse` reads the table a reader pastes from their own cluster and refuses
text it cannot trust, saying which line is wrong and why: a row with missing
columns, a number that is not one, or an ``algbw`` that does not equal
``size / time`` (columns shifted or edited).

:func:`fit_alpha_beta` fits ``t(S) = a + S / beta`` by least squares on relative
errors (so that small sizes, which fix ``a``, weigh as much as large ones, which fix
``beta``), and converts with the ring model: ``a = 2(n-1) alpha`` and
``1/beta = 2(n-1)/n / B``, so ``B`` is the asymptotic busbw.

:func:`synthetic_output` writes nccl-tests-style text from the ring model plus
stated noise, for exercises; its first line says it is synthetic.
"""

from __future__ import annotations

from dataclasses import dataclass
import math
import re
import statistics

from netlab import validate
from netlab.collectives.alpha_beta import COLLECTIVES, busbw_factor
from netlab.units import format_byte_rate, format_time

DTYPES = ("int8", "uint8", "int32", "uint32", "int64", "uint64", "half", "float", "double", "bfloat16",
          "f8e4m3", "f8e5m2", "int", "char", "fp8_e4m3", "fp8_e5m2")
_NUM = re.compile(r"^-?\d+$")


@dataclass(frozen=True)
class NcclRow:
    """One size of an nccl-tests table (out-of-place columns, then in-place)."""

    n_bytes: int
    count: int
    dtype: str
    redop: str
    time_s: float
    algbw_bps: float
    busbw_bps: float
    in_place_time_s: float
    in_place_algbw_bps: float
    in_place_busbw_bps: float


@dataclass(frozen=True)
class NcclTestsRun:
    """A parsed nccl-tests table: its rows, the rank count if the header lists ranks,
    and busbw/algbw as printed (which names the collective and ``n``)."""

    rows: tuple[NcclRow, ...]
    n_ranks: int | None
    busbw_factor: float | None

    def __repr__(self) -> str:
        lo, hi = self.rows[0].n_bytes, self.rows[-1].n_bytes
        ranks = (f"the header lists {self.n_ranks} ranks" if self.n_ranks
                 else "the header lists no ranks")
        factor = (f"busbw/algbw is {self.busbw_factor:.4g}" if self.busbw_factor
                  else "busbw/algbw cannot be read")
        return f"An nccl-tests table of {len(self.rows)} sizes, {lo} to {hi} bytes; {ranks}; {factor}."


def _error(number: int, line: str, why: str) -> ValueError:
    return ValueError(f"line {number}: {why}\n    in text: {line.strip()[:120]}")


def _float(text: str, what: str, number: int, line: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise _error(number, line, f"{what} must be a number, got {text!r}") from None
    if not math.isfinite(x) or x < 0:
        raise _error(number, line, f"{what} must be a finite number >= 0, got {text!r}")
    return x


def _row(fields: list[str], number: int, line: str, has_root: bool | None) -> NcclRow:
    if len(fields) == 13:        # size count type redop root | time algbw busbw #wrong | x 2
        head, body = fields[:5], fields[5:]
    elif len(fields) == 12 and not has_root and "." in fields[4]:   # older nccl-tests: no root
        head, body = fields[:4], fields[4:]
    else:
        raise _error(number, line, "a data row needs 13 columns (size count type redop root, then time "
                                   f"algbw busbw #wrong out-of-place and in-place), got {len(fields)}")
    size, count, dtype, redop = head[:4]
    if not _NUM.match(size) or not _NUM.match(count):
        raise _error(number, line, f"size and count must be whole numbers, got {size!r} and {count!r}")
    if dtype not in DTYPES:
        raise _error(number, line, f"unknown data type {dtype!r}; expected one of {', '.join(DTYPES[:9])}, ...")
    values = []
    for label, (t, alg, bus) in (("out-of-place", body[0:3]), ("in-place", body[4:7])):
        t_us = _float(t, f"{label} time (us)", number, line)
        alg_gbs = _float(alg, f"{label} algbw (GB/s)", number, line)
        bus_gbs = _float(bus, f"{label} busbw (GB/s)", number, line)
        if t_us <= 0:
            raise _error(number, line, f"{label} time must be > 0 us, got {t}")
        expected = int(size) / (t_us * 1e-6) / 1e9        # GB/s
        if abs(alg_gbs - expected) > 0.006 + 0.01 * expected:
            raise _error(number, line, f"{label} algbw {alg_gbs} GB/s is not size/time = {expected:.3f} GB/s: "
                                       "are the columns shifted, or the units edited?")
        values += [t_us * 1e-6, alg_gbs * 8e9, bus_gbs * 8e9]
    return NcclRow(int(size), int(count), dtype, redop, *values)


def parse(text: str) -> NcclTestsRun:
    """Parse pasted nccl-tests output; ``ValueError`` naming the line if it is malformed.

    Comment lines (``#``), blank lines and NCCL log lines are skipped; every line that
    starts with a number must be a complete data row. Sizes must increase.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str (the pasted output), got {type(text).__name__}")
    rows: list[NcclRow]
    ranks: set[int]
    has_root: bool | None
    rows, ranks, has_root = [], set(), None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        rank = re.match(r"#\s*Rank\s+(\d+)\s+Group", stripped)
        if rank:
            ranks.add(int(rank.group(1)))
        if stripped.startswith("#") and all(w in stripped.split() for w in ("size", "count", "type")):
            has_root = "root" in stripped.split()        # the column header
        if not stripped or stripped.startswith("#") or not re.match(r"^-?\d", stripped):
            continue
        row = _row(stripped.split(), number, line, has_root)
        if rows and row.n_bytes <= rows[-1].n_bytes:
            raise _error(number, line, f"sizes must increase down the table ({rows[-1].n_bytes} then "
                                       f"{row.n_bytes}): paste one table (one type and operation) at a time")
        rows.append(row)
    if not rows:
        raise ValueError("no data rows found: paste the table printed by an nccl-tests binary, "
                         "whose rows start with the size in bytes (e.g. '8  2  float  sum  -1  ...')")
    ratios = [r.busbw_bps / r.algbw_bps for r in rows if r.algbw_bps >= 8e9]   # >= 1 GB/s: 3 digits
    return NcclTestsRun(tuple(rows), len(ranks) or None, float(statistics.median(ratios)) if ratios else None)


_PRINTED_HALF_STEP = 0.005   # nccl-tests prints algbw and busbw in GB/s with two decimals


def ranks_from_busbw(run: NcclTestsRun, collective: str = "all_reduce") -> tuple[int, int | None]:
    """The rank counts ``n`` that the printed busbw/algbw ratios allow, as ``(lowest, highest)``.

    nccl-tests prints ``busbw = algbw * f(n)``, ``f = 2(n-1)/n`` for all-reduce and
    ``(n-1)/n`` for reduce-scatter, all-gather and all-to-all, each rounded to 0.01 GB/s.
    Every row bounds ``f``; the bounds of all rows together bound ``n``. ``highest`` is
    None when the ratio cannot tell large ``n`` apart (small bandwidths, or broadcast and
    reduce, whose factor is 1).

    >>> text = synthetic_output(8, 1e-6, 370e9 * 8, max_bytes=2**24)
    >>> ranks_from_busbw(parse(text))
    (8, 8)
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must come from nccl_tests.parse(), got {type(run).__name__}")
    collective = validate.choice("collective", collective, COLLECTIVES)
    if collective in ("broadcast", "reduce"):
        return 2, None
    f_lo, f_hi = 0.0, math.inf
    for r in run.rows:
        for alg_bps, bus_bps in ((r.algbw_bps, r.busbw_bps), (r.in_place_algbw_bps, r.in_place_busbw_bps)):
            alg, bus = alg_bps / 8e9, bus_bps / 8e9
            if alg <= 2 * _PRINTED_HALF_STEP:
                continue
            f_lo = max(f_lo, (bus - _PRINTED_HALF_STEP) / (alg + _PRINTED_HALF_STEP))
            f_hi = min(f_hi, (bus + _PRINTED_HALF_STEP) / (alg - _PRINTED_HALF_STEP))
    if f_lo > f_hi:
        raise ValueError("the rows disagree on busbw/algbw: were two tables (different rank counts "
                         "or collectives) pasted together?")
    limit = 2.0 if collective == "all_reduce" else 1.0          # f -> limit as n -> infinity

    def n_of(f):
        return limit / (limit - f) if f < limit else math.inf

    highest: int | None
    if f_lo >= limit:
        lowest, highest = 2, 1                      # no n gives a factor this large
    else:
        lowest = max(2, math.ceil(n_of(f_lo) - 1e-9))
        top = n_of(f_hi)
        highest = None if math.isinf(top) else math.floor(top + 1e-9)
    if highest is not None and highest < lowest:
        raise ValueError(f"busbw/algbw (between {f_lo:.4f} and {f_hi:.4f}) matches no whole number of "
                         f"ranks for collective={collective!r}: is this the right collective?")
    return lowest, highest


@dataclass(frozen=True)
class AlphaBetaFit:
    """``t(S) = intercept_s + 8 S / algbw_bps``, and what it means for a ring."""

    collective: str
    world_size: int
    n_points: int
    intercept_s: float       # a: time of an empty collective
    algbw_bps: float         # asymptotic S / t
    busbw_bps: float         # algbw * nccl-tests factor: the rate of the busiest link, B
    alpha_s: float           # a per step of the ring: a / (2(n-1)) for all-reduce, a / (n-1) otherwise
    rms_relative_error: float
    world_size_from: str = "header"   # "header", "given", or "busbw/algbw" (inferred)

    def __repr__(self) -> str:
        source = {"header": "from the header", "given": "as given",
                  "busbw/algbw": "inferred from busbw/algbw"}[self.world_size_from]
        return (f"Fit of {self.collective.replace('_', '-')} on {self.world_size} ranks ({source}), "
                f"{self.n_points} sizes: a = {format_time(self.intercept_s)} "
                f"({format_time(self.alpha_s)} per ring step), busbw -> {format_byte_rate(self.busbw_bps)}; "
                f"rms error {self.rms_relative_error:.1%}")


def _world_size(run: NcclTestsRun, collective: str, world_size: int | None) -> tuple[int, str]:
    lowest, highest = ranks_from_busbw(run, collective)
    allowed = f"{lowest}" if highest == lowest else f"{lowest} to {highest or 'any larger number'}"

    def fits(n):
        return n >= lowest and (highest is None or n <= highest)

    if world_size is not None:
        n = validate.integer("world_size", world_size, minimum=2)
        if not fits(n):
            raise ValueError(f"world_size={n} disagrees with the printed busbw/algbw, which allows "
                             f"{allowed} ranks for collective={collective!r}")
        return n, "given"
    if run.n_ranks is not None:
        if not fits(run.n_ranks):
            raise ValueError(f"the header lists {run.n_ranks} '# Rank' lines, but the printed busbw/algbw "
                             f"allows {allowed} ranks for collective={collective!r}: is the header "
                             f"truncated, or the collective wrong? Pass world_size= to say how many.")
        return validate.integer("world_size", run.n_ranks, minimum=2), "header"
    if highest == lowest:
        return lowest, "busbw/algbw"
    raise ValueError("world_size must be given: the pasted output lists no '# Rank' lines and "
                     f"busbw/algbw allows {allowed} ranks")


def fit_alpha_beta(run: NcclTestsRun, collective: str = "all_reduce", world_size: int | None = None,
                   in_place: bool = False, min_bytes: float = 0) -> AlphaBetaFit:
    """Least-squares fit of ``t = a + 8S/algbw`` to the rows of ``run`` with ``size >= min_bytes``.

    The rank count ``n`` is ``world_size`` if given, else the ``# Rank`` lines of the
    header, and either is checked against the printed busbw/algbw ratio
    (:func:`ranks_from_busbw`): a truncated header or a wrong ``world_size`` raises
    ``ValueError`` instead of a wrong ``alpha``. With no header and no ``world_size``,
    ``n`` is inferred from the ratio when only one value fits (the fit says so).
    Minimises the relative error ``sum(((a + b S) - t) / t)^2``, a linear least-squares problem.
    """
    if not isinstance(run, NcclTestsRun):
        raise TypeError(f"run must come from nccl_tests.parse(), got {type(run).__name__}")
    collective = validate.choice("collective", collective, COLLECTIVES)
    n, source = _world_size(run, collective, world_size)
    validate.boolean("in_place", in_place)
    min_bytes = validate.non_negative("min_bytes", min_bytes)
    rows = [r for r in run.rows if r.n_bytes >= min_bytes]
    if len(rows) < 2:
        raise ValueError(f"need at least 2 sizes >= min_bytes={min_bytes:g} to fit a line, got {len(rows)}")
    import numpy as np    # here, not at the top: parse() and the module stay numpy-free

    S = np.array([r.n_bytes for r in rows], dtype=float)
    t = np.array([r.in_place_time_s if in_place else r.time_s for r in rows])
    design = np.column_stack([1.0 / t, S / t])          # rows divided by t: relative residuals
    (a, b), *_ = np.linalg.lstsq(design, np.ones_like(t), rcond=None)
    if b <= 0:
        raise ValueError("the fitted time does not grow with size: include larger messages")
    steps = 2 * (n - 1) if collective == "all_reduce" else n - 1
    alg = 8.0 / b
    residual = (a + b * S - t) / t
    return AlphaBetaFit(collective, n, len(rows), float(a), float(alg),
                        float(alg * busbw_factor(collective, n)), float(a) / steps,
                        float(np.sqrt(np.mean(residual ** 2))), source)


def synthetic_output(world_size: int, alpha_s: float, bandwidth_bps: float, min_bytes: int = 8,
                     max_bytes: int = 2**30, noise: float = 0.03, seed: int = 0) -> str:
    """nccl-tests-style all_reduce_perf text from the ring model times ``exp(noise * z)``.

    ``t = 2(n-1) alpha_s + 2(n-1)/n * 8S / bandwidth_bps`` with ``z`` standard normal,
    sizes doubling from ``min_bytes`` to ``max_bytes`` (float elements). Labelled synthetic.
    """
    n = validate.integer("world_size", world_size, minimum=2, maximum=4096, why="the header lists every rank")
    a = validate.non_negative("alpha_s", alpha_s)
    B = validate.positive("bandwidth_bps", bandwidth_bps)
    lo = validate.integer("min_bytes", min_bytes, minimum=4)
    hi = validate.integer("max_bytes", max_bytes, minimum=lo)
    noise = validate.in_range("noise", noise, 0.0, 0.5)
    seed = validate.integer("seed", seed, minimum=0)
    import numpy as np

    rng = np.random.default_rng(seed)
    factor = busbw_factor("all_reduce", n)
    lines = [(f"# SYNTHETIC: made by netlab.collectives.nccl_tests.synthetic_output from the ring model "
              f"(alpha = {a * 1e6:g} us per step, B = {B / 8e9:g} GB/s, {noise:.0%} log-normal noise, "
              f"seed {seed}). Not a measurement."),
             (f"# nThread 1 nGpus {n} minBytes {lo} maxBytes {hi} step: 2(factor) warmup iters: 5 iters: 20 "
              "agg iters: 1 validation: 1 graph: 0"), "#", "# Using devices"]
    lines += [f"#  Rank {r:2d} Group  0 Pid  {4242 + r} on  synthetic device {r:2d} [0x{r:02x}] synthetic GPU"
              for r in range(n)]
    lines += ["#", "#" + " " * 62 + "out-of-place" + " " * 23 + "in-place",
              "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong",
              "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)"]
    size, total = (lo + 3) // 4 * 4, []
    while size <= hi:
        cells = []
        for _ in range(2):                                        # out-of-place, in-place
            t_us = (2 * (n - 1) * a + 2 * (n - 1) / n * 8 * size / B) * math.exp(noise * rng.standard_normal()) * 1e6
            t_text = f"{t_us:7.2f}" if t_us < 1e4 else f"{t_us:7.0f}"
            if float(t_text) == 0:
                raise ValueError(f"alpha_s and bandwidth_bps give {t_us:.3g} us for {size} B, below the table's "
                                 f"0.01 us resolution; use a larger alpha_s or min_bytes")
            alg = size / (float(t_text) * 1e-6) / 1e9
            cells.append(f"  {t_text}  {alg:6.2f}  {alg * factor:6.2f}  {0:5d}")
            total.append(alg * factor)
        lines.append(f"{size:12d}  {size // 4:12d}  {'float':>8s}  {'sum':>6s}  {-1:6d}" + "".join(cells))
        size *= 2
    lines += ["# Out of bounds values : 0 OK", f"# Avg bus bandwidth    : {np.mean(total):.4f} ", "#"]
    return "\n".join(lines) + "\n"
