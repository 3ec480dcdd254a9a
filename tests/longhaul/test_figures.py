"""netlab.longhaul.figures: lab 10's sentence under its explorer, every number worked by hand.

Chapter 10's example: 2 sites x 8 GPUs, NVLink 5 inside a site (900 GB/s = 7.2e12 b/s each way),
800 Gb/s per GPU across, alpha 5 us; fibre one way 1.468 / c = 4.8967 us per km. The phases:
reduce-scatter and all-gather inside a site, (8 - 1) alpha + 7/8 x 8 N / 7.2e12 each; across, a
two-rank all-reduce of the N / 8 shard, 2 (alpha + one way) + 8 (N / 8) / rate, where a window W
caps the rate at 8 W / (RTT + 2 alpha).
"""

from netlab.longhaul import figures
from netlab.units import MB


def _says(text: str, *fragments: str) -> None:
    for fragment in fragments:
        assert fragment in text, f"{fragment!r} not in {text!r}"


def test_a_full_bdp_at_100_km_with_a_64_mb_window_is_1_16_times_faster():
    # 1 GB at 100 km: one way 489.672 us, RTT 979.344 us.
    #   inside: 2 x (7 x 5 us + 7/8 x 8e9 / 7.2e12) = 2 x (35 + 972.222) us = 2,014.444 us
    #   capped rate: 8 x 64e6 / (979.344 + 10) us = 517.5 Gb/s
    #   across, capped: 2 x 494.672 us + 8 x 125e6 / 517.5e9 = 989.344 + 1,932.31 = 2,921.65 us
    #   total 4,936.10 us, of which 2,921.65 across: 59.2 %
    #   across, full BDP: 989.344 + 1e9 / 800e9 = 2,239.34 us; total 4,253.78 us
    #   4,936.10 / 4,253.78 = 1.1604: the full BDP is 1.16 times faster (inverted, 0.86)
    text = figures.two_site_summary(1e9, 64e6, 100e3)
    _says(text, "At 100 km: 4.94 ms", "59 % of it across the long link", "518 Gb/s per GPU",
          "a full BDP in flight is 1.16 times faster")


def test_lab_10_default_frame_1000_mb_with_a_1_mb_window_at_10_km():
    # The explorer's first frame (1,000 MB, 1 MB in flight, the summary's 10 km). One way 48.9672 us,
    # RTT 97.9344 us. Inside: 2,014.444 us as above (the buffer is the same 1 GB).
    #   capped rate: 8 x 1e6 / (97.9344 + 10) us = 74.12 Gb/s
    #   across, capped: 2 x 53.9672 us + 125 x 107.9344 us = 107.934 + 13,491.80 = 13,599.73 us
    #   total 15,614.18 us; across 87.1 %
    #   full BDP: 107.934 + 1,250 = 1,357.93 us across, 3,372.38 us in all; 15,614.18 / 3,372.38 = 4.630
    text = figures.two_site_summary(1000 * MB, 1 * MB)
    _says(text, "At 10 km: 15.6 ms", "87 % of it across the long link", "74.1 Gb/s per GPU",
          "a full BDP in flight is 4.63 times faster")


def test_the_distance_aware_frame_says_so_and_spends_40_percent_across():
    # No cap: across 1,357.93 us of 3,372.38 us = 40.3 %, at the full 800 Gb/s.
    text = figures.two_site_summary(1000 * MB, None)
    _says(text, "At 10 km: 3.37 ms", "40 % of it across the long link", "800 Gb/s per GPU",
          "this is the distance-aware case")
    assert "times faster" not in text


def test_the_lossless_summary_at_10_km():
    # 800 Gb/s, 10 km: 10.04 MB per priority and port (9.79 MB of fibre), 64 ports: 643 MB, 5.02 x 128 MB.
    _says(figures.lossless_summary(800, 1), "10 km at 800 Gb/s: headroom 10.04 MB", "(9.79 MB of it",
          "64 ports x 1 reserve 643 MB, 5.02 x a 128 MB buffer")
    # 100 Gb/s: an eighth of the fibre term, 1.224 MB, plus 30.1 KB of response and 8.3 KB of frames:
    # 1.262 MB; 64 ports: 80.8 MB, 0.63 x 128 MB.
    _says(figures.lossless_summary(100, 1), "headroom 1.26 MB", "81 MB, 0.63 x")
