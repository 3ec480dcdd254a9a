"""netlab.collectives.in_network: bytes per GPU and the bandwidths nccl-tests prints, in closed form."""

from hypothesis import given, settings, strategies as st
import pytest

from netlab.collectives import in_network as inet

API = {
    inet.bytes_sent_per_gpu: dict(n_bytes=1e9, n_ranks=8, variant="nvls"),
    inet.all_reduce_traffic: dict(n_bytes=1e9, n_ranks=8, port_bps=400e9, variant="sharp", latency_s=0.0),
}


def test_bytes_per_gpu_ring_nvls_sharp():
    # ring 2(n-1)/n S, NVLS (n+1)/n S, SHARP S; 8 GPUs, 1 GB: 1.75, 1.125, 1 GB.
    assert inet.bytes_sent_per_gpu(1e9, 8, "ring") == pytest.approx(1.75e9)
    assert inet.bytes_sent_per_gpu(1e9, 8, "nvls") == pytest.approx(1.125e9)
    assert inet.bytes_sent_per_gpu(1e9, 8, "sharp") == pytest.approx(1e9)
    # Two GPUs: the ring sends S, NVLS 1.5 S: in-network reduction does not pay on 2 GPUs.
    assert inet.bytes_sent_per_gpu(1e9, 2, "ring") < inet.bytes_sent_per_gpu(1e9, 2, "nvls")


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 4096), size=st.floats(1.0, 1e12))
def test_saving_tends_to_two_and_busbw_printed_exceeds_the_wire(n, size):
    ring = inet.all_reduce_traffic(size, n, 400e9, "ring")
    sharp = inet.all_reduce_traffic(size, n, 400e9, "sharp")
    nvls = inet.all_reduce_traffic(size, n, 400e9, "nvls")
    assert sharp.traffic_saving == pytest.approx(2 * (n - 1) / n)
    assert nvls.traffic_saving == pytest.approx(2 * (n - 1) / (n + 1))
    # Without latency every port runs at its rate: the ring's printed busbw IS the wire rate ...
    assert ring.busbw_printed_bps == pytest.approx(400e9) and ring.wire_bps == pytest.approx(400e9)
    # ... SHARP's printed busbw is the port rate times 2(n-1)/n, its algbw the port rate itself.
    assert sharp.algbw_bps == pytest.approx(400e9)
    assert sharp.busbw_printed_bps == pytest.approx(400e9 * 2 * (n - 1) / n)
    assert nvls.algbw_bps == pytest.approx(400e9 * n / (n + 1))


def test_measured_nvls_on_h100_read_through_the_model():
    # nccl-tests issue 212 (maintainer): 8 H100 with NVLS print ~480 GB/s busbw and ~275 GB/s algbw.
    # Busbw / algbw = 2(n-1)/n = 1.75: 275 x 1.75 = 481. The wire carries (n+1)/n of algbw:
    # 275 x 9/8 = 309 GB/s per port, 83 % of the ring's 370.8 GB/s: NVLS saves 1.56x the bytes but
    # its ports run slower, so it beats the ring by 275 / (370.8 x 8/14) = 1.30x, not 1.56x.
    n, algbw = 8, 275e9 * 8
    t = inet.all_reduce_traffic(1e9, n, port_bps=algbw * (n + 1) / n, variant="nvls")
    assert t.algbw_bps == pytest.approx(algbw)
    assert t.busbw_printed_bps / 8e9 == pytest.approx(275 * 1.75)
    assert t.wire_bps / 8e9 == pytest.approx(309.375)
    assert (275 / (370.8 * 8 / 14)) == pytest.approx(1.298, abs=1e-3)


def test_latency_makes_small_messages_lose():
    # A 25 µs in-network latency (NCCL's NVLS figure) against a 15 µs ring on 8 GPUs at 370.8 GB/s:
    # equal when 25e-6 + 1.125 S / B = 15e-6 + 1.75 S / B, S = 10e-6 B / 0.625 = 5.93 MB.
    B = 370.8e9 * 8
    s_star = 10e-6 * (B / 8) / 0.625
    small = 0.5 * s_star
    large = 2 * s_star
    assert (inet.all_reduce_traffic(small, 8, B, "nvls", 25e-6).time_s
            > inet.all_reduce_traffic(small, 8, B, "ring", 15e-6).time_s)
    assert (inet.all_reduce_traffic(large, 8, B, "nvls", 25e-6).time_s
            < inet.all_reduce_traffic(large, 8, B, "ring", 15e-6).time_s)


def test_refusals():
    with pytest.raises(ValueError, match="variant"):
        inet.bytes_sent_per_gpu(1e9, 8, "collnet")
    with pytest.raises(ValueError, match="n_ranks"):
        inet.all_reduce_traffic(1e9, 1, 400e9)
