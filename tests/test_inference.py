"""netlab.inference against hand-computed decode times, MoE traffic and the Pareto definition."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab import collective_cost, inference, scaleup
from tests.sweep import BAD_VALUES, assert_rejects, numeric_params

DGX_H100 = scaleup.preset("dgx-h100")
DGX_B200 = scaleup.preset("dgx-b200")
LLAMA70 = inference.model("llama3-70b")

API = {
    inference.transformer: dict(n_params=70e9, n_layers=80, d_model=8192, bytes_per_param=2.0,
                                bytes_per_activation=2.0),
    inference.model: dict(name="llama3-70b", bytes_per_param=2.0, bytes_per_activation=2.0),
    inference.tp_traffic_per_token: dict(d_model=8192, tp=8, bytes_per_activation=2.0),
    inference.tp_all_reduce_time: dict(n_bytes=16384, tp=8, domain=DGX_H100, algorithm="best"),
    inference.decode_step: dict(shape=LLAMA70, domain=DGX_H100, tp=8, batch=4, algorithm="best"),
}


@pytest.mark.parametrize("func", list(API), ids=lambda f: f.__name__)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_rejects_bad_input(func, data):
    name = data.draw(st.sampled_from(numeric_params(API[func])))
    assert_rejects(func, API[func], name, data.draw(BAD_VALUES))


def test_llama_shapes_from_the_registry():
    # Llama 3 70B: 70,562,938,880 params x 2 B = 141.1 GB of BF16 weights; 80 layers, d 8192.
    assert LLAMA70.weight_bytes == pytest.approx(141.1258e9, rel=1e-5)
    assert (LLAMA70.n_layers, LLAMA70.d_model) == (80, 8192)


def test_tp_traffic_per_token_per_layer():
    # d = 8192 BF16 activations = 16,384 B per all-reduce; ring sends 2(t-1)/t of it, twice per layer.
    t = inference.tp_traffic_per_token(8192, 8)
    assert t.message_bytes == 16384
    assert t.sent_per_gpu_bytes == pytest.approx(2 * 2 * 7 / 8 * 16384)
    assert inference.tp_traffic_per_token(8192, 1).sent_per_gpu_bytes == 0


def test_decode_llama70b_tp8_batch1_on_dgx_h100_by_hand():
    # Per layer: 70.5629e9 / 80 = 882.036e6 params.
    #   weights: 882.036e6 x 2 B / 8 GPUs / 3.35e12 B/s         = 65.823 us  (memory-bound)
    #   compute: 2 x 882.036e6 x 1 / 8 / 989.4e12 FLOP/s         =  0.223 us
    #   comm:    2 ring all-reduces of 16,384 B over 8 GPUs at 450 GB/s with 0.47 us per step:
    #            2 x (14 x 0.47 us + 2 x 7/8 x 16,384 x 8 / 3.6e12 s) = 2 x (6.58 + 0.0637) us
    # token latency = 80 x (65.823 + 13.287) us = 6.329 ms; power 8 x 10.2 kW / 8 = 10.2 kW.
    layer_params = 70.5629e9 / 80
    memory = layer_params * 2 / 8 / 3.35e12
    comm = 2 * (14 * 0.47e-6 + 2 * 7 / 8 * 16384 * 8 / 3.6e12)
    r = inference.decode_step(LLAMA70, DGX_H100, tp=8, batch=1, algorithm="ring")
    assert r.memory_s == pytest.approx(memory, rel=1e-9)
    assert r.compute_s == pytest.approx(2 * layer_params / 8 / 989.4e12, rel=1e-9)
    assert r.comm_s == pytest.approx(comm, rel=1e-9)
    assert r.token_latency_s == pytest.approx(80 * (memory + comm), rel=1e-9)
    assert r.token_latency_s == pytest.approx(6.329e-3, rel=1e-3)
    assert r.power_w == pytest.approx(10.2e3)
    assert r.tokens_per_joule == pytest.approx(1 / r.token_latency_s / 10.2e3, rel=1e-12)
    assert r.fits and not r.crosses_domain


def test_large_batch_becomes_compute_bound():
    # Compute = memory when batch = F x bytes_per_param / (2 x B_hbm) = 989.4e12 x 2 / (2 x 3.35e12)
    # = 295.3 sequences: below it the weights dominate, above it the FLOPs.
    assert inference.decode_step(LLAMA70, DGX_H100, 8, 295).compute_s < \
        inference.decode_step(LLAMA70, DGX_H100, 8, 295).memory_s
    r = inference.decode_step(LLAMA70, DGX_H100, 8, 296)
    assert r.compute_s > r.memory_s


def test_405b_does_not_fit_one_dgx_h100_and_spills_over():
    # 410.14e9 x 2 B = 820.3 GB: / 8 = 102.5 GB > 80 GB; / 16 = 51.3 GB fits, but crosses the domain.
    big = inference.model("llama3.1-405b")
    assert not inference.decode_step(big, DGX_H100, 8, 1).fits
    r = inference.decode_step(big, DGX_H100, 16, 1, algorithm="ring")
    assert r.fits and r.crosses_domain
    # Across two nodes the ring-based all-reduce is hierarchical: d = 8 inside, m = 2 across.
    expected = collective_cost.hierarchical_all_reduce_time(16384 * 2, 8, 2, 0.47e-6, 3.6e12,
                                                            2.7e-6, 4e11).time_s
    assert r.comm_s == pytest.approx(2 * expected, rel=1e-12)


def test_tp_must_fit_the_domain_or_be_a_multiple_of_it():
    with pytest.raises(ValueError, match="tp"):
        inference.decode_step(LLAMA70, DGX_H100, 12, 1)


@given(batch=st.integers(1, 1024))
def test_d9_pcie_to_nvlink_improves_latency_and_tokens_per_joule(batch):
    # Same GPUs, same power (assumption ratio 1.0): only the interconnect differs, and NVLink
    # has both a higher rate (450 vs 63 GB/s) and a lower step latency (0.47 vs 1.0 us).
    pcie = inference.decode_step(LLAMA70, scaleup.preset("pcie-h100"), 8, batch)
    nvl = inference.decode_step(LLAMA70, DGX_H100, 8, batch)
    assert nvl.token_latency_s < pcie.token_latency_s
    assert nvl.tokens_per_joule > pcie.tokens_per_joule


def test_pareto_front_small_case():
    # (1, 1) and (2, 3) and (2.5, 4) are not beaten on both axes; (3, 2) is beaten by (2, 3).
    assert inference.pareto_front([1.0, 2.0, 3.0, 2.5], [1.0, 3.0, 2.0, 4.0]) == [0, 1, 3]
    with pytest.raises(ValueError, match="same length"):
        inference.pareto_front([1.0], [1.0, 2.0])


@given(st.lists(st.tuples(st.floats(0, 1e3), st.floats(-1e3, 1e3)), min_size=1, max_size=30))
def test_pareto_front_definition(points):
    lat = [p[0] for p in points]
    val = [p[1] for p in points]
    front = set(inference.pareto_front(lat, val))

    def beats(j, i):
        return lat[j] <= lat[i] and val[j] >= val[i] and (lat[j] < lat[i] or val[j] > val[i])

    for i in range(len(points)):
        dominated = any(beats(j, i) for j in range(len(points)))
        assert (i in front) == (not dominated)


def test_best_inside_the_domain_is_the_faster_of_ring_and_tree():
    # 16 KB over 8 GPUs at 0.47 us per step: a ring takes 14 steps (6.64 us), a double binary
    # tree about 2 x 3 steps (NCCL's tree for small messages), so "best" picks the tree.
    n = 16384
    ring = collective_cost.ring_all_reduce_time(n, 8, 0.47e-6, 3.6e12).time_s
    tree = collective_cost.double_binary_tree_all_reduce_time(n, 8, 0.47e-6, 3.6e12).time_s
    assert tree < ring
    assert inference.tp_all_reduce_time(n, 8, DGX_H100) == pytest.approx(tree, rel=1e-12)
    assert inference.tp_all_reduce_time(n, 8, DGX_H100, algorithm="ring") == pytest.approx(ring, rel=1e-12)
    # 1 GB: the ring's bandwidth term wins.
    assert inference.tp_all_reduce_time(1e9, 8, DGX_H100) == pytest.approx(
        collective_cost.ring_all_reduce_time(1e9, 8, 0.47e-6, 3.6e12).time_s, rel=1e-12)


def test_leader_tree_across_domains_by_hand():
    # 4 bytes (latency only, almost) over 8 DGX H100 nodes, tp = 64:
    #   inside: double binary tree over 8, 2 x floor(log2 8) = 6 steps of 0.47 us = 2.82 us
    #   across: binomial tree over 8 leaders, 2 x 3 steps of 2.7 us = 16.2 us
    # The hierarchical ring needs 14 x 0.47 + 14 x 2.7 = 44.38 us, so "best" takes the tree.
    t = inference.tp_all_reduce_time(4, 64, DGX_H100)
    assert t == pytest.approx(6 * 0.47e-6 + 6 * 2.7e-6, rel=1e-3)
    ring = inference.tp_all_reduce_time(4, 64, DGX_H100, algorithm="ring")
    assert ring == pytest.approx(14 * 0.47e-6 + 14 * 2.7e-6, rel=1e-3)


@given(n=st.floats(0, 1e9), tp=st.sampled_from([1, 2, 3, 5, 8, 16, 24, 64]))
def test_best_is_never_slower_than_ring(n, tp):
    assert inference.tp_all_reduce_time(n, tp, DGX_H100) <= \
        inference.tp_all_reduce_time(n, tp, DGX_H100, algorithm="ring") * (1 + 1e-12)


def test_leaving_the_domain_stops_tp_from_paying_off():
    # Llama 3.1 405B, batch 8: inside the NVL72 the time per token keeps falling up to TP 64;
    # across DGX H100 nodes TP 64 is slower than TP 32 (the network steps grow with m).
    big = inference.model("llama3.1-405b")
    nvl72 = scaleup.preset("gb200-nvl72")
    inside = [inference.decode_step(big, nvl72, tp, 8).token_latency_s for tp in (16, 32, 64)]
    across = [inference.decode_step(big, DGX_H100, tp, 8).token_latency_s for tp in (16, 32, 64)]
    assert inside[0] > inside[1] > inside[2]
    assert across[2] > across[1]
