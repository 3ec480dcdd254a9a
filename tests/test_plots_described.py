"""A figure shown without alt text is described from its own titles and labels (the site needs a description)."""

from netlab import plots


def test_titles_and_labels_describe_a_figure_without_alt():
    fig, (left, right) = plots.figure(ncols=2)
    left.set_title("Switch queue")
    left.set_xlabel("time (ms)")
    left.set_ylabel("queue (KB)")
    right.set_xlabel("flow")
    right.set_ylabel("rate (Gb/s)")
    assert fig.described() == "Switch queue: queue (KB) against time (ms). rate (Gb/s) against flow."
    assert 'alt="Switch queue: queue (KB) against time (ms).' in fig._repr_html_()


def test_an_explicit_alt_wins_and_a_wordless_figure_stays_a_plain_png():
    fig, ax = plots.figure()
    ax.set_title("Goodput")
    fig.alt = "Goodput falls as loss grows"
    assert 'alt="Goodput falls as loss grows"' in fig._repr_html_()
    bare, ax = plots.figure()
    ax.plot([0, 1], [0, 1])
    assert bare.described() == "" and bare._repr_html_() is None
