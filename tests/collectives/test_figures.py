"""netlab.collectives.figures: lab 6's sentence under its explorer, the crossover worked by hand.

Ring all-reduce: 2 (n - 1) alpha + 2 (n - 1)/n x 8 N / B; binomial tree: 2 L (alpha + 8 N / B) with
L = ceil(log2 n). They meet at N* = alpha B / 8 x ((n - 1) - L) / (L - (n - 1)/n), on 400 Gb/s ports.
"""

from netlab.collectives import figures


def test_lab_6_default_frame_64_ranks_at_2_7_us():
    # n = 64, L = 6: 2.7e-6 x 400e9 / 8 = 135,000 B; x (63 - 6) / (6 - 63/64) = 57 / 5.015625
    # = 11.3645: N* = 1,534,206 B, 1.53 MB
    text = figures.algorithms_readout(64, 2.7)
    assert "The ring beats the binomial tree above 1.53 MB" in text, text


def test_eight_ranks_at_0_6_us_cross_at_56_kb():
    # n = 8, L = 3: 0.6e-6 x 400e9 / 8 = 30,000 B; x (7 - 3) / (3 - 7/8) = 4 / 2.125 = 1.8824: 56,471 B
    assert "above 56.5 KB" in figures.algorithms_readout(8, 0.6)


def test_1024_ranks_at_10_us_cross_at_56_mb():
    # n = 1024, L = 10: 10e-6 x 400e9 / 8 = 500,000 B; x 1013 / (10 - 1023/1024) = 1013 / 9.000977
    # = 112.543: 56,271,600 B
    assert "above 56.3 MB" in figures.algorithms_readout(1024, 10.0)
