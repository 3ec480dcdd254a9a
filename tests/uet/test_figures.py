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
    # A ring: the same 2 peers every phase. Eagerly, RoCE connects all 32,767 peers at start; lazily,
    # the 2 it uses; UET keeps min(2 peers, 2 x (1 + ceil(1 ms / 1 ms))) = 2 PDCs. 512 B a context:
    # 16,776,704 B, 1,024 B and 1,024 B; 32,767 / 2 = 16,383.5 times as many eagerly, 1 lazily.
    assert figures.state_readout("ring (2 peers)", 1) == (
        "At 32,768 ranks a NIC holds 32,767 RoCE QPs if it connects every peer at start (16.8 MB), 2 if it "
        "connects on first use (1.02 KB), against 2 UET PDCs alive (1.02 KB): 1.64e+04x eager, 1x lazy.")


def test_changing_partners_is_where_pdcs_beat_lazy_qps():
    # 8 new peers a phase until every peer has been one: lazy RoCE ends up holding all 32,767; UET
    # keeps the current phase and the 5 that ended within the 5 ms timeout, 8 x 6 = 48 PDCs (24,576 B);
    # 32,767 / 48 = 682.6 times as many, eagerly or lazily
    text = figures.state_readout("changing partners (8 per phase)", 5)
    assert "32,767 if it connects on first use (16.8 MB), against 48 UET PDCs alive (24.6 KB)" in text, text
    assert text.endswith("683x eager, 683x lazy."), text


def test_an_all_to_all_phase_keeps_a_pdc_per_peer():
    # 255 peers every phase: min(255, 255 x 6) = 255 PDCs, as many as lazy QPs (130,560 B);
    # 32,767 / 255 = 128.5 eagerly
    text = figures.state_readout("all-to-all phase (255 peers)", 5)
    assert "255 if it connects on first use (131 KB), against 255 UET PDCs alive (131 KB): 128x eager" in text, text
