"""netlab.uet.figures: lab 8's two sentences and the loss figure's title, worked by hand.

A packet on the wire is 4,096 B of payload and 64 B of headers (the simulator's settings): 4,160 B.
The pipe K = 1 + feedback delay / packet time; go-back-N keeps (1 - p) / (1 + (K - 1) p) of the link
and selective repeat 1 - p, with the explorer's window of 10 K packets (never the limit).
"""

from netlab.uet import figures


def test_lab_8_default_frame_400g_with_8_us_of_feedback():
    # packet time 4,160 x 8 / 400e9 = 83.2 ns; K = 1 + 8 us / 83.2 ns = 1 + 96.154 = 97.154
    # at p = 0.001: go-back-N 0.999 / (1 + 96.154 x 0.001) = 0.999 / 1.096154 = 91.14 %; SR 99.9 %
    assert figures.loss_readout("400G", 8) == ("The pipe holds K = 97.2 packets; at 0.1 % loss go-back-N keeps "
                                               "91.1% of the link and selective repeat 99.9%.")
    assert figures.draw_loss("400G", 8).axes[0].get_title() == "400G, 8 µs feedback: pipe K = 97 packets"


def test_a_short_pipe_loses_little_to_go_back_n():
    # 100G, 2 us: packet time 332.8 ns, K = 1 + 2 / 0.3328 = 7.0096; 0.999 / 1.0060096 = 99.30 %
    assert figures.loss_readout("100G", 2) == ("The pipe holds K = 7.0 packets; at 0.1 % loss go-back-N keeps "
                                               "99.3% of the link and selective repeat 99.9%.")


def test_lab_8_state_readout_at_32768_ranks():
    # A ring: 2 peers per phase, phases of 1 ms, idle timeout 1 ms -> 1 + ceil(1) = 2 phases alive:
    # 4 PDCs, against a QP to each of 32,767 peers. 512 B each: 16,776,704 B and 2,048 B;
    # 32,767 / 4 = 8,191.75 times as many contexts.
    assert figures.state_readout("ring (2 peers)", 1) == (
        "At 32,768 ranks a NIC holds 32,767 RoCE QPs (16.8 MB) against 4 UET PDCs (2.05 KB): "
        "8.19e+03x as many contexts.")


def test_an_all_to_all_phase_keeps_a_pdc_for_most_peers():
    # 255 peers x (1 + ceil(5 ms / 1 ms)) = 1,530 PDCs (fewer than 32,767 peers); 783,360 B;
    # 32,767 / 1,530 = 21.4
    text = figures.state_readout("all-to-all phase (255 peers)", 5)
    assert "against 1,530 UET PDCs (783 KB): 21.4x as many contexts" in text, text
