"""Issue 17's named reproducers in the shared layers, each with its before -> after:
a clear error at once, or a correct value (the simulator's are in tests/sim/test_hardening.py,
the verbs' in tests/rdma/test_verbs_faults.py)."""

import time

import pytest

from netlab import validate
from netlab.collectives import trees as collective_trees, schedules as collectives
from netlab.fabric import ecmp


def refused_at_once(func, *args, match):
    t0 = time.monotonic()
    with pytest.raises(ValueError, match=match):
        func(*args)
    assert time.monotonic() - t0 < 2.0        # at once (well under a second on an idle machine)


@pytest.mark.parametrize("world_size", [2**31, 10**12])
@pytest.mark.parametrize("build", [collectives.ring_all_reduce, collectives.ring_reduce_scatter,
                                   collectives.ring_all_gather, collectives.all_to_all,
                                   collectives.halving_doubling_all_reduce, collectives.in_network_all_reduce,
                                   collective_trees.tree_all_reduce, collective_trees.double_binary_tree_all_reduce,
                                   collective_trees.binomial_parents, collective_trees.binary_tree_parents],
                         ids=lambda f: f.__name__)
def test_schedules_refuse_huge_world_sizes_at_once(build, world_size):
    # before: MemoryError or minutes of work; after: a ValueError saying what is reasonable
    refused_at_once(build, world_size, match=r"world_size must be an integer >= 1 and <= \d+ \(a schedule")


def test_hierarchical_schedule_bounds_the_product():
    refused_at_once(collectives.hierarchical_all_reduce, 64, 2**20, match="n_domains")


def test_schedules_at_their_bound_still_answer():
    assert collectives.ring_all_reduce(collectives.MAX_SCHEDULE_RANKS).world_size == 256


def test_monte_carlo_with_2_31_paths_is_refused_not_memory_error():
    # before: MemoryError allocating 2**31 x 1000 loads; after: ValueError naming n_paths
    refused_at_once(ecmp.monte_carlo, 16, 2**31, match="n_paths")


def test_shared_validators_turn_overflow_into_value_error():
    # before: float(10**400) raised OverflowError inside validate.positive
    for check in (validate.positive, validate.non_negative):
        with pytest.raises(ValueError, match="x must be .*too large for a float"):
            check("x", 10**400)
    with pytest.raises(ValueError, match="x must be an integer"):
        validate.integer("x", 10**400)
