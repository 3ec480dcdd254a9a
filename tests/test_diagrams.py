"""Reading-page diagrams: the ring schedule is right, the committed SVGs are what netlab draws,
and every figure a chapter shows has alternative text and exists."""

import re
from pathlib import Path

from hypothesis import given, settings, strategies as st
import pytest

from netlab import diagrams, plots
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    diagrams.ring_reduce_scatter: dict(n=4),
    diagrams.draw_ring_allreduce: dict(n=4),
    diagrams.draw_leaf_spine: dict(n_spines=4, n_leaves=8, hosts_per_leaf=4),
    diagrams.pipeline_schedule: dict(n_packets=4, hops=3),
    diagrams.draw_pipeline: dict(n_packets=4, hops=3),
    diagrams.draw_scale_up_out: dict(gpus=8),
}


@pytest.mark.parametrize("n_packets, hops", [(1, 1), (4, 3), (7, 2)])
def test_pipeline_schedule_matches_the_store_and_forward_formula(n_packets, hops):
    """Last bit out after (packets + hops - 1) serializations: links.path_time with no fixed delay."""
    from netlab import links

    schedule = diagrams.pipeline_schedule(n_packets, hops)
    slots = max(start for _, _, start in schedule) + 1
    t = links.path_time(n_bytes=n_packets * 1000, hops=hops, bandwidth_bps=8e9, latency_per_hop_s=0.0,
                        mtu_bytes=1000, header_bytes=0)
    assert slots * 1e-6 == pytest.approx(t.time_s)     # 1000 B at 8 Gb/s = 1 µs
    # a hop never carries two packets at once, and a packet leaves a hop only after arriving whole
    assert len({(h, start) for _, h, start in schedule}) == len(schedule)

ROOT = Path(__file__).resolve().parents[1]
FIGURE = re.compile(r"```\{figure\}\s+(\S+)\n((?::[^\n]*\n)*)")


@pytest.mark.parametrize("n", range(2, 9))
def test_ring_reduce_scatter_leaves_one_full_chunk_per_rank(n):
    history = diagrams.ring_reduce_scatter(n)
    assert len(history) == n                       # the start and N-1 steps
    final = history[-1]
    for r in range(n):
        assert final[r][(r + 1) % n] == frozenset(range(n))           # chunk r+1 summed over all ranks
        assert all(len(final[r][c]) < n for c in range(n) if c != (r + 1) % n)
    # at step k (from 1) each rank adds one received partial sum of k ranks to one chunk
    for k, (before, after) in enumerate(zip(history, history[1:]), start=1):
        for r in range(n):
            grown = [c for c in range(n) if after[r][c] != before[r][c]]
            assert len(grown) == 1 and len(after[r][grown[0]]) == k + 1


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_ring_reduce_scatter_refuses_bad_sizes():
    with pytest.raises(ValueError, match="n"):
        diagrams.ring_reduce_scatter(1)


@pytest.mark.parametrize("name", sorted(diagrams.DIAGRAMS))
def test_committed_svg_is_what_netlab_draws(name):
    path = ROOT / "book" / "figures" / f"{name}.svg"
    assert path.read_text(encoding="utf-8") == diagrams.render(name), \
        f"{path} is stale: regenerate with python -m netlab.diagrams"


@pytest.mark.parametrize("name", sorted(diagrams.DIAGRAMS))
def test_diagrams_follow_the_theme_and_describe_themselves(name):
    fig = diagrams.DIAGRAMS[name]()
    assert len(fig.alt) > 40
    body = plots.figure_to_svg(fig).split("</style>", 1)[1]
    assert "#000000" not in body and "#ffffff" not in body


def _chapter_figures():
    out = {}
    for chapter in sorted((ROOT / "book").glob("ch[0-9]*.md")):
        out[chapter.name] = FIGURE.findall(chapter.read_text(encoding="utf-8"))
    return out


def test_every_chapter_figure_exists_and_has_alt_text():
    for chapter, figures in _chapter_figures().items():
        for target, options in figures:
            assert (ROOT / "book" / target).is_file(), (chapter, target)
            alt = re.search(r"^:alt:\s*(.+)$", options, re.M)
            assert alt and len(alt.group(1)) > 20, (chapter, target, "no alt text")


def test_every_diagram_is_shown_by_a_chapter():
    shown = {Path(t).stem for figures in _chapter_figures().values() for t, _ in figures}
    assert set(diagrams.DIAGRAMS) <= shown


def test_every_chapter_has_a_figure_with_alt_text():
    empty = [chapter for chapter, figures in _chapter_figures().items() if not figures]
    assert not empty, f"chapters without a figure: {empty}"
