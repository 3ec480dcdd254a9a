"""netlab.training.figures: lab 1's figure states its setting in the units a reader uses."""

from netlab.training import figures


def test_scaling_figure_names_the_model_rate_and_overlap():
    # 7e9 parameters = 7 billion; 400e9 b/s = 400 Gb/s; 0.5 = 50 %; 4e6 tokens = 4 M
    fig = figures.draw_scaling_efficiency(7e9, 400e9, 0.5, 989.4e12 * 0.4, 5e-6, max_log2_gpus=4)
    ax = fig.axes[0]
    assert ax.get_title() == "7 billion parameters, 400 Gb/s per GPU, 50% overlap"
    assert ax.get_xlabel() == "GPUs (data parallel, 4 M tokens per step)"
    # two GPUs: compute 6 x 7e9 x 4e6 / (2 x 395.76e12) = 212.25 s; the all-reduce of 14 GB,
    # 2 x 5 us + 14e9 x 8 / 400e9 = 0.28 s, half hidden: efficiency 212.25 / 212.39 = 0.99934
    assert abs(ax.lines[0].get_ydata()[0] - 0.99934) < 1e-5
