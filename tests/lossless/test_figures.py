"""netlab.lossless.figures: lab 4's figure titles carry the numbers of their runs."""

from netlab.lossless import experiments as sc, figures

API = {
    figures.draw_headroom: dict(gbps=100.0, cable_m=100.0, mtu_bytes=4096),
    figures.headroom_readout: dict(gbps=100.0, cable_m=100.0, mtu_bytes=4096),
}


def test_victim_title_gives_the_slowdown_against_the_victim_alone():
    # Alone the victim's 300,000 B take 25.119 us (304,736 wire bytes at 100 Gb/s, two more
    # store-and-forward packets of 332.8 ns, three 25 ns cables); the title divides its time by that.
    v = sc.victim("pfc", sample_interval_s=5e-6)
    assert abs(v.victim_alone_s - 25.119e-6) < 1e-9
    title = figures.draw_victim(v).axes[0].get_title()
    assert title == f"pfc: the victim takes {v.victim_time_s / 25.119e-6:.1f} times as long as alone"


def test_performance_per_dollar_title_names_both_shares():
    assert figures.draw_perf_per_dollar(0.25, 0.10, 1.2).axes[0].get_title() == "network 25% vs 10% of cluster cost"


def test_headroom_readout_by_hand():
    # (301 + 216) x 100 + 2.72 x 4096 = 62,841 B; fibre 12,241.9 + 30,100 + 8,256 = 50,597.9 B;
    # cable 21,600 / 62,841 = 34 %; 64 x 62,841 = 4.02 MB.
    assert figures.headroom_readout(100, 100, 4096) == ("NVIDIA's formula 62.8 KB, fibre budget 50.6 KB; cable 34% of "
                                                        "the formula's; 64 ports x 1 lossless priority reserve 4.0 MB")
    assert figures.draw_headroom(100, 100, 4096).axes[0].get_title() == "100 Gb/s, 100 m cable, MTU 4096 B"
