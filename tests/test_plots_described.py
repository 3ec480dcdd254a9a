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


def _contrast_with_white(hex_colour):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    lum = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    return 1.05 / (lum + 0.05)


def test_every_figure_colour_has_3_to_1_contrast_on_the_white_background():
    """WCAG 1.4.11 (graphics): 3:1. The Ethernet orange was #E69F00, 2.25:1."""
    colours = set(plots.TECH_COLORS.values()) | set(plots.CYCLE) | set(plots.OKABE_ITO.values())
    low = {c: round(_contrast_with_white(c), 2) for c in colours if _contrast_with_white(c) < 3.0}
    assert not low, low
    assert round(_contrast_with_white("#E69F00"), 2) == 2.25   # the check itself, on the old orange
