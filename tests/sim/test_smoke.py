"""First checks of netlab.sim: the incast in the package docstring, and the engine."""

import doctest

import pytest

import netlab.sim
import netlab.sim.engine
from netlab.sim import PFC, Credits, Lossy, Simulator, single_switch


def test_docstrings():
    for module in (netlab.sim, netlab.sim.engine):
        assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("fc", [Lossy(200_000), PFC(200_000), Credits(200_000)], ids=lambda f: type(f).__name__)
def test_incast_completes_and_conserves_bytes(fc):
    net = single_switch(5, 100e9, flow_control=fc, seed=3)
    for i in range(1, 5):
        net.add_flow(f"h{i}", "h0", 300_000)
    r = net.run()
    assert r.stop_reason == "complete"
    assert r.sent_bytes == r.received_bytes + r.dropped_bytes + r.trimmed_bytes + r.in_flight_bytes
    if not isinstance(fc, Lossy):
        assert r.dropped_packets == 0


def test_engine_ties_run_in_scheduling_order():
    sim = Simulator()
    seen = []
    for k in range(5):
        sim.at(1.0, seen.append, k)
    sim.run()
    assert seen == [0, 1, 2, 3, 4]
