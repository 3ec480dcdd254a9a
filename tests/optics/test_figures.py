"""netlab.optics.figures: lab 9's two sentences and the power figure's text, worked by hand.

Per-bit energies from the registry's inputs: SerDes 1 + 0.2 pJ/bit per dB (5.4 at a pluggable's
22 dB, 1.8 at CPO's 4 dB); a DSP (15 - 8.5) W / 800 Gb/s = 8.125 pJ/bit; linear optics 8.5 W /
800 Gb/s = 10.625; a CPO engine 9 W / 1.6 Tb/s = 5.625; a switch core 500 W / 51.2 Tb/s - 5.4 =
4.365625. So an 800G port draws DSP (5.4 + 8.125 + 10.625) x 0.8 = 19.32 W, LPO (5.4 + 10.625) x 0.8
= 12.82 W, CPO (1.8 + 5.625) x 0.8 = 5.94 W; NIC ends are DSP pluggables.
"""

from netlab.optics import figures

# SN6800 (512 x 800G), 100,000 GPUs: two tiers (512 x 256 = 131,072 >= 100,000).
#   leaves ceil(100,000 / 256) = 391, their uplinks 391 x 256 = 100,096, spines ceil(100,096 / 512)
#   = 196: 587 switches; optical ends 2 x 100,096 + 2 x 100,000 = 400,192 (switch side 300,192).
#   cores 587 x 512 x 800e9 x 4.365625e-12 = 1,049,649.9 W; NICs 100,000 x 19.32 = 1,932,000 W.
#   DSP: + 300,192 x 19.32 = 5,799,709.4 -> 8,781,359.3 W, 87.8 W per GPU
#   LPO: + 300,192 x 12.82 = 3,848,461.4 -> 6,830,111.3 W, 68.3 W per GPU
#   CPO: + 300,192 x 5.94  = 1,783,140.5 -> 4,764,790.4 W, 47.6 W per GPU
#   CPO saves (8,781,359.3 - 4,764,790.4) x PUE 1.3 = 5,221,539.6 W at the facility.


def test_lab_9_power_summary_for_100k_gpus_on_sn6800():
    text = figures.fabric_power_summary("sn6800", 100_000, 1.3)
    assert text == ("587 switches and 400,192 optical link ends; network power per GPU port 88 W with DSP "
                    "pluggables, 68 W with LPO, 48 W with CPO; CPO saves 5.22 MW at the facility (PUE 1.3).")


def test_the_power_figure_says_the_fabric_and_each_options_total():
    fig = figures.plot_fabric_power("sn6800", 100_000)
    assert fig.axes[0].get_title() == "100,000 GPUs at 800 Gb/s, 2 tiers of 512-port switches"
    assert fig.alt.endswith("DSP pluggable 8.78 MW, linear pluggable (LPO) 6.83 MW, co-packaged (CPO) 4.76 MW")


# Quantum-X800 (144 x 800G), 100,000 GPUs: three tiers (144 x 72 = 10,368 < 100,000). Leaves
# ceil(100,000 / 72) = 1,389 with 100,008 uplinks, as many links again above: switch-side optical
# ends 2 x (100,008 + 100,008) + 100,000 = 500,032, NIC ends 100,000. Eight lasers per 800G pluggable,
# a quarter of that (2) per CPO port. 100 FIT = 1e-7 failures per laser-hour.


def test_lab_9_failures_summary_at_100_fit_without_a_cpo_gain():
    # pluggable: 600,032 x 8 = 4,800,256 lasers: 0.48003 per hour, 11.52 a day, one every 2.083 h
    # CPO: 500,032 x 2 + 100,000 x 8 = 1,000,064 + 800,000 = 1,800,064 lasers: 0.18001 per hour,
    #   4.320 a day, one every 5.555 h; the NICs' 800,000 are 44.4 % of them
    assert figures.fabric_failures_summary(100_000, 100, 1) == (
        "100,000 GPUs: 12 laser failures a day with pluggables (one every 2.1 h), 4.3 with CPO switches "
        "(one every 5.6 h, 44 % of them in the NIC pluggables).")


def test_a_10x_cpo_laser_gain_reaches_only_the_switch_side():
    # CPO switch lasers at 10 FIT: 1,000,064 x 1e-8 = 0.0100 per hour; NIC lasers unchanged at 0.0800:
    # 0.0900 per hour, 2.160 a day, one every 11.1 h, 88.9 % of them in the NICs
    text = figures.fabric_failures_summary(100_000, 100, 10)
    assert "2.2 with CPO switches (one every 11 h, 89 % of them in the NIC pluggables)" in text, text
    assert "12 laser failures a day with pluggables (one every 2.1 h)" in text, text
