"""The lab explorers' figure and readout functions (plots_fabric, plots_collectives, plots_scaleup,
plots_transport): valid calls draw and read out plain sentences; bad input is refused by name."""

import matplotlib
from hypothesis import given, settings, strategies as st
import numpy as np
import pytest

from netlab.collectives import figures as plots_collectives
from netlab.fabric import figures as plots_fabric
from netlab.nvlink import figures as plots_scaleup
from netlab.uet import figures as plots_transport
from netlab.units import GB
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

SIM = {"roce": np.array([[0.9, 0.8], [0.7, 0.75]]), "uet": np.array([[0.99, 0.97], [0.95, 0.9]])}
API = {
    plots_fabric.draw_paths: dict(n_paths=8, scheme="ECMP (per flow)"),
    plots_fabric.paths_readout: dict(n_paths=8, scheme="spraying, 16 packets"),
    plots_collectives.draw_algorithms: dict(world_size=8, alpha_us=2.7),
    plots_collectives.algorithms_readout: dict(world_size=64, alpha_us=2.7),
    plots_scaleup.hierarchical_split: dict(link="NVLink 5", port="400G", n_bytes=1 * GB),
    plots_scaleup.draw_hierarchical: dict(link="NVLink 4", port="800G", n_bytes=1 * GB),
    plots_scaleup.hierarchical_readout: dict(link="NVLink 5", port="400G", n_bytes=1 * GB),
    plots_scaleup.decode_curve: dict(model_name="llama3-70b", system="dgx-h100", tp=8),
    plots_scaleup.draw_pareto: dict(model_name="llama3-70b", tp=8),
    plots_scaleup.pareto_readout: dict(model_name="llama3.1-405b", tp=8),
    plots_transport.draw_loss: dict(rate="400G", delay_us=8),
    plots_transport.loss_readout: dict(rate="100G", delay_us=8),
    plots_transport.draw_goodput: dict(loss_rates=[0.01, 0.02], simulated=SIM, window_packets=62.5,
                                       pipe_packets=16),
    plots_transport.draw_state: dict(pattern="ring (2 peers)", idle_ms=1),
    plots_transport.state_readout: dict(pattern="tree (3 peers)", idle_ms=5),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f"{f.__module__}.{f.__name__}")
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


@pytest.mark.parametrize("func", list(API), ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_valid_calls_draw_or_read_out_a_sentence(func):
    out = func(**API[func])
    if isinstance(out, str):
        assert out.endswith(".") and "(" not in out.split()[0] and "=" not in out.split()[0], out
        assert not any(word in out for word in ("Result(", "Step(", "State(", "Check(")), out
    elif isinstance(out, list):
        assert out
    else:
        assert isinstance(out, matplotlib.figure.Figure)


def test_readouts_carry_the_numbers_of_the_models():
    # 405B does not fit eight 80 GB H100s (101.5 GB each): the readout says so by display name.
    assert "DGX H100" in plots_scaleup.pareto_readout("llama3.1-405b", 8).split("do not fit on")[1]
    # 8 GPUs per domain, NVLink 5 + 400G, 1 GB: the network tier is the bottleneck.
    assert "scale-out tier is the bottleneck" in plots_scaleup.hierarchical_readout("NVLink 5", "400G", 1 * GB)
    assert "K = 97" in plots_transport.loss_readout("400G", 8)


def test_lab5_completion_explorer_reads_out_a_sentence():
    from types import SimpleNamespace
    run = SimpleNamespace(completion_times_s=(2e-6, 3e-6, 4e-6), ideal_s=2e-6, job_times_s=(4e-6,),
                          out_of_order_packets=7, dropped_packets=0, percentile_s=lambda q: 3e-6)
    runs = {("ecmp", "permutation"): run, ("spray", "permutation"): run}
    text = plots_fabric.completions_readout(runs, {}, "permutation", "ecmp")
    assert text == ("Permutation with ECMP (per flow): the timed job takes 2.00x the ideal and the median "
                    "flow 1.50x; 7 packets arrive out of order and 0 are dropped.")
    assert isinstance(plots_fabric.draw_completions(runs, "permutation", "spray"), matplotlib.figure.Figure)
    with pytest.raises(ValueError, match="runs"):
        plots_fabric.completions_readout(runs, {}, "two jobs", "ecmp")
