"""A receiver's record of delivered bytes against a byte-by-byte reference.

``Receiver.deliver`` keeps merged ``[start, end)`` ranges and finds its place among them by a
binary search; here random deliveries (overlapping, duplicate, touching, out of order) are
checked against the plain set of every byte delivered so far."""

import random

import pytest

from netlab.sim import single_switch
from netlab.sim.uet import UETConfig, UETReceiver


def _runs(covered: set[int]) -> list[list[int]]:
    """The maximal runs of consecutive bytes in ``covered``, as [start, end) pairs."""
    runs: list[list[int]] = []
    for b in sorted(covered):
        if runs and runs[-1][1] == b:
            runs[-1][1] = b + 1
        else:
            runs.append([b, b + 1])
    return runs


@pytest.mark.parametrize("seed", range(12))
def test_deliver_matches_a_set_of_bytes(seed):
    rng = random.Random(seed)
    net = single_switch(2, 100e9)
    flow = net.add_flow("h0", "h1", 10**9)           # never complete: only the record is checked
    rx = UETReceiver(net, flow, net.hosts["h1"], None, config=UETConfig())
    covered: set[int] = set()
    duplicates = 0
    for _ in range(300):
        start = rng.randrange(0, 3000)
        n = rng.randrange(1, 120)
        new = set(range(start, start + n)) - covered
        fresh = rx.deliver(start, n)
        duplicates += n - len(new)
        covered |= new
        assert fresh == bool(new)
        assert rx.ranges == _runs(covered)
        assert rx.delivered_bytes == len(covered)
        assert rx.duplicate_bytes == duplicates
