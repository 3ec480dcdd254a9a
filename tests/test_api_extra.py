"""Valid calls for the public functions that no other test module's API table lists (mostly
registry lookups and functions of names or objects), so that the property tests of
tests/test_api_properties.py reach every public function (none of these takes a number)."""

import numpy as np
import pytest

from netlab import links, specs
from netlab.collectives import schedules as collectives, nccl_tests
from netlab.lossless import dcqcn, ib_vs_ethernet
from netlab.fabric import clos as fabric
from netlab.rdma import hoststack
from netlab.nvlink import inference, domains as scaleup
from netlab.training import memory
from netlab.optics import cpo as optics, power, reliability
from netlab.uet import figures as plots_transport
from netlab.sim import loadbalance

_FAB = fabric.fat_tree(8, 400e9)
_RUN = nccl_tests.parse(nccl_tests.synthetic_output(8, 5e-6, 400e9, max_bytes=2**20))

API = {
    collectives.execute: dict(schedule=collectives.ring_all_reduce(4), inputs=[np.arange(8.0) + r for r in range(4)]),
    dcqcn.fixed_point: dict(),
    fabric.switch_ports: dict(switch=sorted(fabric.SWITCHES)[0]),
    hoststack.default_costs: dict(),
    ib_vs_ethernet.switch_latency_range: dict(family="ethernet"),
    ib_vs_ethernet.nic_latency_range: dict(),
    inference.pareto_front: dict(latencies_s=[1e-3, 2e-3, 3e-3], values=[1.0, 3.0, 2.0]),
    links.fiber_group_index: dict(),
    memory.recipe: dict(name=sorted(memory.RECIPES)[0]),
    nccl_tests.parse: dict(text=nccl_tests.synthetic_output(8, 5e-6, 400e9, max_bytes=2**20)),
    nccl_tests.ranks_from_busbw: dict(run=_RUN),
    optics.option_name: dict(option=sorted(optics.OPTIONS)[0]),
    optics.pluggable_channel: dict(),
    optics.cpo_channel: dict(),
    optics.stage_energies: dict(),
    optics.cpo_claims: dict(),
    plots_transport.wire_packet_bytes: dict(),
    power.switch_core_energy_per_bit: dict(),
    power.optical_port_ends: dict(fab=_FAB),
    power.fabric_power: dict(fab=_FAB, option=sorted(optics.OPTIONS)[0]),
    reliability.fabric_lasers: dict(fab=_FAB, option=sorted(optics.OPTIONS)[0]),
    scaleup.preset: dict(name=sorted(scaleup.PRESETS)[0]),
    scaleup.check_domain: dict(domain=scaleup.preset(sorted(scaleup.PRESETS)[0])),
    scaleup.nvl72_check: dict(),
    loadbalance.balancer: dict(scheme=sorted(loadbalance.SCHEMES)[0]),
    specs.get: dict(key="eth.100g.port_rate"),
    specs.value: dict(key="eth.100g.port_rate"),
    specs.find: dict(prefix="eth.100g"),
    specs.all_specs: dict(),
    specs.table_markdown: dict(prefix="eth.100g"),
}

@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
def test_a_name_given_as_a_list_is_a_type_error(func):
    """Issue 17: a GPU name passed as a list reached a registry lookup and raised a KeyError
    quoting the list; every string parameter now refuses a list with a TypeError naming it."""
    for name, value in API[func].items():
        if isinstance(value, str):
            kwargs = dict(API[func], **{name: [value]})
            with pytest.raises(TypeError, match=name):
                func(**kwargs)
