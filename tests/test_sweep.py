"""netlab.sweep: the same rows serially, on local processes and on a Dask cluster; the grid's order."""

import pytest

from netlab import sweep
from netlab.fabric import experiments


def tiny_fabric(scheme, seed):
    """Chapter 5's permutation on 8 hosts (4 leaves of 2, 2 spines), 20 kB each: a few ms."""
    return experiments.run_pattern(scheme, "permutation", n_leaves=4, n_spines=2, hosts_per_leaf=2,
                                   bytes_per_host=20_000, seed=seed)


GRID = dict(scheme=["ecmp", "spray"])
SEEDS = [3, 4]

API = {
    sweep.run: dict(function=tiny_fabric, grid=GRID, seeds=[1], measure=experiments.summary, workers=1,
                    progress=False),
}


def test_rows_follow_the_grid_and_equal_direct_calls():
    s = sweep.run(tiny_fabric, GRID, SEEDS, measure=experiments.summary, progress=False)
    assert [(r["scheme"], r["seed"]) for r in s.records()] == [("ecmp", 3), ("ecmp", 4), ("spray", 3), ("spray", 4)]
    direct = experiments.summary(tiny_fabric("spray", 4))        # the reference: one call by hand
    assert s.where(scheme="spray", seed=4)[0] == {"scheme": "spray", "seed": 4, **direct}


def test_serial_local_processes_and_dask_give_identical_rows():
    import distributed
    serial = sweep.run(tiny_fabric, GRID, SEEDS, measure=experiments.summary, progress=False)
    seen = []
    local = sweep.run(tiny_fabric, GRID, SEEDS, measure=experiments.summary, workers=2,
                      progress=lambda done, total: seen.append((done, total)))
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None) as client:
        dask = sweep.run(tiny_fabric, GRID, SEEDS, measure=experiments.summary, client=client, progress=False)
    assert serial.how == "serial" and local.how == "2 processes" and dask.how == "dask"
    assert serial.rows == local.rows == dask.rows
    assert seen[-1] == (4, 4) and [d for d, _ in seen] == [1, 2, 3, 4]


@pytest.mark.parametrize("kwargs, name", [
    (dict(function=3), "function"),
    (dict(function=tiny_fabric, grid=dict(scheme=[])), "scheme"),
    (dict(function=tiny_fabric, seeds=[-1]), "seeds"),
    (dict(function=tiny_fabric, workers=0), "workers"),
    (dict(function=tiny_fabric, client=object()), "client"),
    (dict(function=tiny_fabric, grid=dict(scheme=["ecmp"]), fixed=dict(scheme="spray")), "fixed"),
])
def test_bad_input_is_refused_by_name(kwargs, name):
    with pytest.raises((ValueError, TypeError), match=name):
        sweep.run(**kwargs, progress=False)
