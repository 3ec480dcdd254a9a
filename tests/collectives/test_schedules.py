"""netlab.collectives.schedules and netlab.collectives.trees: every schedule, executed on numpy buffers,
equals the numpy reference (sum, concatenation, transpose) for any rank count, size and dtype."""

from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from netlab.collectives import trees, schedules as coll
from tests.hang_guard import hang_guard
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

API = {
    coll.ring_reduce_scatter: dict(world_size=4),
    coll.ring_all_gather: dict(world_size=4),
    coll.ring_all_reduce: dict(world_size=4),
    coll.all_to_all: dict(world_size=4),
    coll.halving_doubling_all_reduce: dict(world_size=6),
    coll.hierarchical_all_reduce: dict(domain_size=4, n_domains=2),
    coll.multi_ring_all_reduce: dict(domain_size=4, n_domains=2),
    coll.in_network_all_reduce: dict(world_size=4, n_pipeline_chunks=2),
    trees.binomial_parents: dict(world_size=5),
    trees.binary_tree_parents: dict(world_size=5),
    trees.mirror_rank: dict(rank=1, world_size=5),
    trees.tree_all_reduce: dict(world_size=5, n_pipeline_chunks=2),
    trees.double_binary_tree_all_reduce: dict(world_size=5, n_pipeline_chunks=2),
}

ALL_REDUCES = {
    "ring": lambda n: coll.ring_all_reduce(n),
    "halving-doubling": lambda n: coll.halving_doubling_all_reduce(n),
    "binomial tree": lambda n: trees.tree_all_reduce(n),
    "pipelined binomial tree": lambda n: trees.tree_all_reduce(n, 3),
    "double binary tree": lambda n: trees.double_binary_tree_all_reduce(n),
    "pipelined double binary tree": lambda n: trees.double_binary_tree_all_reduce(n, 4),
    "in-network": lambda n: coll.in_network_all_reduce(n, 3),
}
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.float16, np.float32, np.float64]


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def _inputs(n, length, dtype, seed):
    """Integer-valued data: sums are exact in every dtype (int8 wraps the same way in numpy)."""
    rng = np.random.default_rng(seed)
    return [rng.integers(-8, 9, size=length).astype(dtype) for _ in range(n)]


def _sum(xs):
    return np.sum(np.stack(xs), axis=0, dtype=xs[0].dtype)


cases = dict(n=st.integers(1, 13), length=st.integers(0, 40), dtype=st.sampled_from(DTYPES),
             seed=st.integers(0, 2**32 - 1))


@pytest.mark.parametrize("algorithm", list(ALL_REDUCES))
@settings(max_examples=40, deadline=None)
@given(**cases)
def test_all_reduce_equals_numpy_sum(algorithm, n, length, dtype, seed):
    xs = _inputs(n, length, dtype, seed)
    for out in coll.execute(ALL_REDUCES[algorithm](n), xs):
        assert out.dtype == xs[0].dtype
        np.testing.assert_array_equal(out, _sum(xs))


@settings(max_examples=40, deadline=None)
@given(domain_size=st.integers(1, 5), n_domains=st.integers(1, 5), length=st.integers(0, 40),
       dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1))
def test_multi_ring_all_reduce_equals_numpy_sum(domain_size, n_domains, length, dtype, seed):
    xs = _inputs(domain_size * n_domains, length, dtype, seed)
    for out in coll.execute(coll.multi_ring_all_reduce(domain_size, n_domains), xs):
        np.testing.assert_array_equal(out, _sum(xs))


@settings(max_examples=40, deadline=None)
@given(domain_size=st.integers(1, 5), n_domains=st.integers(1, 5), length=st.integers(0, 40),
       dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**32 - 1))
def test_hierarchical_all_reduce_equals_numpy_sum(domain_size, n_domains, length, dtype, seed):
    xs = _inputs(domain_size * n_domains, length, dtype, seed)
    for out in coll.execute(coll.hierarchical_all_reduce(domain_size, n_domains), xs):
        np.testing.assert_array_equal(out, _sum(xs))


@settings(max_examples=60, deadline=None)
@given(**cases)
def test_reduce_scatter_all_gather_all_to_all(n, length, dtype, seed):
    xs = _inputs(n, length, dtype, seed)
    pieces = np.array_split(_sum(xs), n)              # rank r owns piece r of the sum
    for r, out in enumerate(coll.execute(coll.ring_reduce_scatter(n), xs)):
        np.testing.assert_array_equal(out, pieces[r])
    for out in coll.execute(coll.ring_all_gather(n), xs):
        np.testing.assert_array_equal(out, np.concatenate(xs))
    # all-to-all: rank r receives piece r of every rank's buffer, in rank order
    for r, out in enumerate(coll.execute(coll.all_to_all(n), xs)):
        np.testing.assert_array_equal(out, np.concatenate([np.array_split(x, n)[r] for x in xs]))


@given(n=st.integers(1, 9), block=st.integers(0, 5), seed=st.integers(0, 1000))
def test_all_to_all_is_a_transpose(n, block, seed):
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, n, block))               # m[q, r] = block rank q sends to rank r
    out = np.stack(coll.execute(coll.all_to_all(n), [m[q].ravel() for q in range(n)]))
    np.testing.assert_array_equal(out.reshape(n, n, block), m.transpose(1, 0, 2))


@settings(max_examples=30, deadline=None)
@given(n=st.integers(2, 16), seed=st.integers(0, 1000))
def test_random_floats_within_rounding(n, seed):
    # Real-valued float32: the schedules add in a different order than np.sum, so compare
    # with a tolerance of n ulps of the largest partial sum.
    rng = np.random.default_rng(seed)
    xs = [rng.normal(size=37).astype(np.float32) for _ in range(n)]
    exact = np.sum(np.stack(xs).astype(np.float64), axis=0)
    tol = n * np.finfo(np.float32).eps * np.sum(np.abs(np.stack(xs)), axis=0)
    for make in ALL_REDUCES.values():
        for out in coll.execute(make(n), xs):
            assert np.all(np.abs(out - exact) <= tol)


def test_step_counts():
    assert coll.ring_all_reduce(8).n_steps == 14                    # 2(n-1)
    assert coll.halving_doubling_all_reduce(8).n_steps == 6         # 2 log2 n
    assert coll.halving_doubling_all_reduce(12).n_steps == 8        # 2 log2 8 + 2
    assert trees.tree_all_reduce(9).n_steps == 8                    # 2 ceil(log2 9)
    assert coll.all_to_all(8).n_steps == 7
    assert coll.hierarchical_all_reduce(4, 3).n_steps == 2 * 3 + 2 * 2
    assert coll.in_network_all_reduce(8, 5).n_steps == 6


def test_ring_reduce_scatter_hand_schedule():
    # 3 ranks: step 0 rank r sends chunk r-1 to r+1; step 1 chunk r-2. Rank r ends with chunk r.
    s = coll.ring_reduce_scatter(3)
    assert [(t.src, t.dst, t.chunk) for t in s.steps[0]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert [(t.src, t.dst, t.chunk) for t in s.steps[1]] == [(0, 1, 1), (1, 2, 2), (2, 0, 0)]
    assert all(t.reduce for step in s.steps for t in step)


@pytest.mark.parametrize("n", range(2, 40))
def test_double_binary_tree_structure(n):
    first = trees.binary_tree_parents(n)
    second = [None] * n
    for r in range(n):
        second[trees.mirror_rank(r, n)] = None if first[r] is None else trees.mirror_rank(first[r], n)
    for parents in (first, second):
        assert sum(p is None for p in parents) == 1                  # one root
        children = [parents.count(r) for r in range(n)]
        assert max(children) <= 2                                   # binary
        for r in range(n):                                          # every rank reaches the root
            seen, v = 0, r
            while parents[v] is not None:
                v, seen = parents[v], seen + 1
                assert seen < n
    inner1 = {p for p in first if p is not None}
    inner2 = {p for p in second if p is not None}
    assert not inner1 & inner2                                      # inner in at most one tree
    assert sorted(trees.mirror_rank(r, n) for r in range(n)) == list(range(n))


def test_binomial_tree_parents():
    assert trees.binomial_parents(8) == [None, 0, 0, 2, 0, 4, 4, 6]


def test_execute_refuses_wrong_inputs():
    s = coll.ring_all_reduce(3)
    with pytest.raises(ValueError, match="one array per rank"):
        coll.execute(s, [np.zeros(4)] * 2)
    with pytest.raises(ValueError, match="same length"):
        coll.execute(s, [np.zeros(4), np.zeros(4), np.zeros(5)])
    with pytest.raises(TypeError, match="Schedule"):
        coll.execute("ring", [np.zeros(4)] * 3)


def test_execute_detects_a_broken_schedule():
    s = coll.ring_all_gather(3)
    broken = coll.Schedule("broken", "all_gather", 3, 3, 3, s.inputs, s.outputs, tuple(reversed(s.steps)))
    with pytest.raises(RuntimeError, match="before holding it"):
        coll.execute(broken, [np.ones(2)] * 3)


# A schedule lists every rank's steps, so a world of 2^31 ranks once raised MemoryError or ran for
# minutes (issue 17). It is refused with a ValueError that says what is reasonable, before any list
# is built; the hang guard turns minutes of work into a failure, it does not time the refusal
# (benchmarks/bench_refusals.py prints how long a refusal takes).
@pytest.mark.robustness
@pytest.mark.parametrize("world_size", [2**31, 10**12])
@pytest.mark.parametrize("build", [coll.ring_all_reduce, coll.ring_reduce_scatter, coll.ring_all_gather,
                                   coll.all_to_all, coll.halving_doubling_all_reduce, coll.in_network_all_reduce,
                                   trees.tree_all_reduce, trees.double_binary_tree_all_reduce,
                                   trees.binomial_parents, trees.binary_tree_parents],
                         ids=lambda f: f.__name__)
def test_huge_world_sizes_are_refused_naming_the_bound(build, world_size):
    with hang_guard(what=f"{build.__name__}({world_size})"), pytest.raises(
            ValueError, match=r"world_size must be an integer >= 1 and <= \d+ \(a schedule"):
        build(world_size)


@pytest.mark.robustness
def test_hierarchical_schedule_bounds_the_product_of_its_sizes():
    # 64 ranks per domain x 2^20 domains: each size alone is a count, their product is not a schedule
    with hang_guard(what="hierarchical_all_reduce(64, 2**20)"), pytest.raises(ValueError, match="n_domains"):
        coll.hierarchical_all_reduce(64, 2**20)


def test_schedules_at_their_bound_still_answer():
    assert coll.ring_all_reduce(coll.MAX_SCHEDULE_RANKS).world_size == 256
