"""netlab.collectives.nccl_tests: the parser accepts real nccl-tests layouts and refuses malformed text with a
message naming the line; the alpha-beta fit recovers the parameters of known (synthetic) data."""

import pathlib

from hypothesis import given, settings, strategies as st
import pytest

from netlab.collectives import nccl_tests as nt
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

SAMPLE = (pathlib.Path(__file__).parents[1] / "data" / "nccl_tests_synthetic_allreduce_8gpu.txt").read_text()

API = {
    nt.fit_alpha_beta: dict(run=nt.parse(SAMPLE), collective="all_reduce", world_size=8, min_bytes=0),
    nt.synthetic_output: dict(world_size=8, alpha_s=2e-6, bandwidth_bps=3e12, min_bytes=8, max_bytes=2**20,
                              noise=0.03, seed=0),
}

# The layout of a real run (columns and header as nccl-tests prints them), with log lines mixed in,
# "N/A" in #wrong, and values typed in by hand: algbw = size / time, busbw = algbw * 2 * 7 / 8.
HAND = """\
# nThread 1 nGpus 8 minBytes 1048576 maxBytes 8388608 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0
#
# Using devices
#  Rank  0 Group  0 Pid  11 on node1 device  0 [0x18] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  12 on node1 device  1 [0x2a] NVIDIA H100 80GB HBM3
node1:11:11 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
     1048576        262144     float     sum      -1    50.00   20.97   36.70      0    50.00   20.97   36.70    N/A
     2097152        524288     float     sum      -1    80.00   26.21   45.87      0    80.00   26.21   45.87    N/A
     4194304       1048576     float     sum      -1   140.00   29.96   52.43      0   140.00   29.96   52.43    N/A
# Out of bounds values : 0 OK
# Avg bus bandwidth    : 45.00
"""


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_parses_hand_table():
    run = nt.parse(HAND)
    assert [r.n_bytes for r in run.rows] == [1048576, 2097152, 4194304]
    assert run.n_ranks == 2                                    # two '# Rank' lines
    assert run.rows[1].time_s == pytest.approx(80e-6)
    assert run.rows[1].algbw_bps == pytest.approx(26.21 * 8e9)
    assert run.busbw_factor == pytest.approx(1.75, rel=1e-3)   # 2 (n-1)/n for n = 8


def test_fit_recovers_an_exact_line():
    # The hand table lies on t = 20 us + S / (34.9525 GB/s): 1 MiB -> 20 + 30 = 50 us,
    # 2 MiB -> 20 + 60 = 80 us, 4 MiB -> 20 + 120 = 140 us (30 us per MiB = 1048576 B / 30e-6 s).
    fit = nt.fit_alpha_beta(nt.parse(HAND), world_size=8)
    assert fit.intercept_s == pytest.approx(20e-6, rel=1e-9)
    assert fit.algbw_bps == pytest.approx(1048576 / 30e-6 * 8, rel=1e-9)
    assert fit.busbw_bps == pytest.approx(fit.algbw_bps * 1.75)
    assert fit.alpha_s == pytest.approx(20e-6 / 14)           # 2 (n-1) = 14 ring steps
    assert fit.rms_relative_error < 1e-9


def test_fit_recovers_noise_free_synthetic_parameters():
    # Times are printed with 2 decimals (0.01 us on >= 26 us): relative rounding < 2e-4.
    run = nt.parse(nt.synthetic_output(8, 1.9e-6, 370 * 8e9, noise=0.0))
    fit = nt.fit_alpha_beta(run)
    assert fit.alpha_s == pytest.approx(1.9e-6, rel=1e-3)
    assert fit.busbw_bps == pytest.approx(370 * 8e9, rel=1e-3)


@pytest.mark.parametrize("seed", range(5))
def test_fit_with_three_percent_noise_within_five_percent(seed):
    # 28 sizes x 3 % log-normal noise: the fitted alpha and B land within 5 % (about 4 sigma).
    run = nt.parse(nt.synthetic_output(8, 1.9e-6, 370 * 8e9, noise=0.03, seed=seed))
    fit = nt.fit_alpha_beta(run)
    assert fit.alpha_s == pytest.approx(1.9e-6, rel=0.05)
    assert fit.busbw_bps == pytest.approx(370 * 8e9, rel=0.05)
    assert 0.01 < fit.rms_relative_error < 0.06


def test_stored_sample_is_labelled_synthetic_and_fits():
    assert SAMPLE.startswith("# SYNTHETIC")
    run = nt.parse(SAMPLE)
    assert run.n_ranks == 8 and len(run.rows) == 28
    fit = nt.fit_alpha_beta(run)
    assert fit.busbw_bps == pytest.approx(370 * 8e9, rel=0.05)


def test_all_gather_table():
    # all_gather_perf prints redop "none"; busbw = algbw * (n-1)/n = 7/8 for 8 ranks.
    # 8388608 B in 100 us: algbw 83.89 GB/s, busbw 73.40 GB/s.
    text = (HEADER + "\n"
            "     8388608        262144     float    none      -1   100.00   83.89   73.40      0    "
            "100.00   83.89   73.40      0\n")
    run = nt.parse(text)
    assert run.rows[0].redop == "none"
    assert run.busbw_factor == pytest.approx(7 / 8, rel=1e-3)


def test_old_layout_without_root_column():
    old = ("#  size   count  type redop  time algbw busbw  error  time algbw busbw  error\n"
           "   1048576  262144  float  sum  50.00  20.97  36.70  0e+00  50.00  20.97  36.70  0e+00\n")
    assert nt.parse(old).rows[0].time_s == pytest.approx(50e-6)


ROW = "     1048576        262144     float     sum      -1    50.00   20.97   36.70      0    50.00   20.97   36.70    N/A"
HEADER = HAND.splitlines()[8]


@pytest.mark.parametrize("text, message", [
    ("", "no data rows"),
    ("I ran the test and it was fast", "no data rows"),
    ("# only comments\n#\n", "no data rows"),
    (HEADER + "\n" + ROW.replace("   36.70      0    50.00", "      0    50.00"), "13 columns"),
    (HEADER + "\n" + ROW.replace("50.00   20.97", "50.00   2.97", 1), "not size/time"),
    (HEADER + "\n" + ROW.replace("   20.97   36.70      0    50.00", "   36.70   20.97      0    50.00"),
     "not size/time"),
    (HEADER + "\n" + ROW.replace("float", "floot"), "unknown data type"),
    (HEADER + "\n" + ROW.replace("50.00", "fast", 1), "must be a number"),
    (HEADER + "\n" + ROW.replace("50.00", "nan", 1), "finite"),
    (HEADER + "\n" + ROW.replace("50.00", "0.00", 1), "> 0"),
    (HEADER + "\n" + ROW.replace("1048576", "1.5e6", 1), "whole numbers"),
    (HEADER + "\n" + ROW + "\n" + ROW, "sizes must increase"),
])
def test_malformed_text_is_refused_with_a_clear_message(text, message):
    with pytest.raises(ValueError, match=message) as info:
        nt.parse(text)
    if "no data rows" not in message:       # the first bad line is named: 2, or 3 for the repeat
        assert str(info.value).startswith(("line 2:", "line 3:"))


def test_parse_wants_text():
    with pytest.raises(TypeError, match="text"):
        nt.parse(SAMPLE.encode())


SLOW_ROW = ("           8             2     float     sum      -1   800.00    0.00    0.00      0   "
            "800.00    0.00    0.00    N/A")


def test_fit_needs_ranks_and_two_sizes():
    # 0.00 GB/s printed: the ratio says nothing, and there is no '# Rank' line.
    no_ranks = nt.parse(HEADER + "\n" + SLOW_ROW + "\n" + SLOW_ROW.replace("   8   ", "  16   ", 1))
    assert nt.ranks_from_busbw(no_ranks) == (2, None)
    with pytest.raises(ValueError, match="world_size must be given"):
        nt.fit_alpha_beta(no_ranks)
    with pytest.raises(ValueError, match="at least 2 sizes"):
        nt.fit_alpha_beta(nt.parse(HEADER + "\n" + ROW), world_size=8)
    with pytest.raises(ValueError, match="at least 2 sizes"):
        nt.fit_alpha_beta(nt.parse(HAND), world_size=8, min_bytes=4e6)


def test_a_truncated_header_is_caught_by_the_busbw_ratio():
    # HAND lists two '# Rank' lines, but busbw/algbw = 36.70 / 20.97 = 1.750 is 2(n-1)/n for n = 8.
    # The old fit took n = 2 from the header: alpha = a / 2 instead of a / 14, 7x too large.
    run = nt.parse(HAND)
    assert nt.ranks_from_busbw(run) == (8, 8)
    with pytest.raises(ValueError, match="truncated"):
        nt.fit_alpha_beta(run)
    assert nt.fit_alpha_beta(run, world_size=8).world_size_from == "given"


def test_a_world_size_that_disagrees_with_the_ratio_is_refused():
    with pytest.raises(ValueError, match="world_size=16 disagrees"):
        nt.fit_alpha_beta(nt.parse(SAMPLE), world_size=16)
    with pytest.raises(ValueError, match="allows 8 ranks"):
        nt.fit_alpha_beta(nt.parse(SAMPLE), world_size=4)
    # An all-reduce table read as an all-gather: f = 1.75 is not (n-1)/n for any n.
    with pytest.raises(ValueError, match="no whole number of ranks"):
        nt.fit_alpha_beta(nt.parse(SAMPLE), collective="all_gather")


def test_rank_count_is_inferred_from_the_ratio_when_the_header_is_gone():
    headless = "\n".join(line for line in SAMPLE.splitlines() if "Rank" not in line)
    run = nt.parse(headless)
    assert run.n_ranks is None
    fit = nt.fit_alpha_beta(run)
    assert fit.world_size == 8 and fit.world_size_from == "busbw/algbw"
    assert "inferred from busbw/algbw" in repr(fit)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 512), rate_gbs=st.floats(5, 900), seed=st.integers(0, 5))
def test_ratio_range_always_contains_the_true_rank_count(n, rate_gbs, seed):
    run = nt.parse(nt.synthetic_output(n, 1e-6, rate_gbs * 8e9, max_bytes=2**26, seed=seed))
    lowest, highest = nt.ranks_from_busbw(run)
    assert lowest <= n and (highest is None or n <= highest)


@settings(max_examples=20, deadline=None)
@given(n=st.integers(2, 64), alpha=st.floats(1e-7, 2e-5), rate_gbs=st.floats(5, 900))
def test_synthetic_output_round_trips(n, alpha, rate_gbs):
    text = nt.synthetic_output(n, alpha, rate_gbs * 8e9, max_bytes=2**26, noise=0.0)
    run = nt.parse(text)
    assert run.n_ranks == n
    assert run.rows[0].n_bytes == 8 and run.rows[-1].n_bytes == 2**26
