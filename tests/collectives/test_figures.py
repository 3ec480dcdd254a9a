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


# --- the NCCL explorers (lab 6's second half) --------------------------------------------------------
API = {
    figures.draw_protocols: dict(setup="8 GPUs, NVLink"),
    figures.protocols_readout: dict(setup="8 GPUs, NVLink"),
    figures.draw_choice: dict(setup="64 GPUs, 8 nodes", knob="none"),
    figures.choice_readout: dict(setup="64 GPUs, 8 nodes", knob="none"),
    figures.draw_log: dict(case="2 nodes, GDR on, PXN on", channel=0),
    figures.log_readout: dict(case="2 nodes, GDR on, PXN on", channel=0),
    figures.draw_in_network: dict(n_ranks=8),
    figures.in_network_readout: dict(n_ranks=8),
}


def test_protocols_readout_gives_the_ring_crossovers():
    # 8 H100: LL -> LL128 at 25.6 µs / (1/80.57 - 1/194.9 GB/s) = 3.52 MB; LL128 -> Simple at
    # 15.4 µs / (1/194.9 - 1/211.9 GB/s) = 37.5 MB (tests/collectives/test_protocols.py works them out).
    assert figures.protocols_readout("8 GPUs, NVLink") == (
        "8 GPUs, NVLink, ring all-reduce: LL below 3.52 MB, LL128 above; LL128 below 37.5 MB, Simple above "
        "(dotted lines).")


def test_choice_readout_on_8_and_64_gpus():
    # 8 GPUs: ring/LL until NVLS's flat 25 µs pays: at 1 MiB ring/LL 28.0 µs < NVLS 28.3 µs, at 2 MiB
    # ring/LL 15.0 + 26.0 = 41.0 µs > NVLS 25 + 6.65 = 31.7 µs.
    assert figures.choice_readout("8 GPUs, NVLink").startswith("ring/LL from 16 B, nvls/Simple from 2 MiB")
    # NCCL_ALGO=Ring keeps the ring, switching protocol as test_protocols' crossovers say.
    assert figures.choice_readout("8 GPUs, NVLink", "NCCL_ALGO=Ring").startswith(
        "ring/LL from 16 B, ring/LL128 from 4 MiB, ring/Simple from 64 MiB")
    text = figures.choice_readout("64 GPUs, 8 nodes")
    assert text.startswith("tree/LL from 16 B, tree/LL128 from 256 KiB, nvls/Simple from 32 MiB")


def test_log_and_in_network_readouts():
    text = figures.log_readout("2 nodes, GDR off, PXN off")
    assert "16 ranks on 2 node(s), 8 GPUs per node" in text and "staged through host memory" in text
    # 72 GPUs: SHARP saves 2 x 71/72 = 1.97x, NVLS 2 x 71/73 = 1.95x; printed busbw at 370.8 GB/s ports:
    # 370.8 x 1.972 = 731 GB/s (SHARP), 370.8 x 72/73 x 1.972 = 721 GB/s (NVLS).
    assert figures.in_network_readout(72).startswith(
        "72 GPUs: SHARP sends 1.97x fewer bytes than the ring, NVLS 1.95x; with every port at 370.8 GB/s "
        "nccl-tests would print busbw 731 (SHARP) and 721 GB/s (NVLS)")
