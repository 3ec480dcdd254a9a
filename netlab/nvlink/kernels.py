"""The custom all-reduce kernels of serving engines, as formulas: one-shot and two-shot.

A one-shot kernel passes one flag barrier, then every GPU reads the whole buffer of each of its
``n - 1`` peers over NVLink and adds: ``t_1 = t_sync + 8 (n - 1) S / B``. A two-shot kernel
reduce-scatters and all-gathers by direct reads behind two barriers, moving the ring's bytes:
``t_2 = 2 t_sync + 2 (n - 1)/n x 8 S / B``. ``t_sync`` (launch and barrier) is not derived: by
default it is calibrated on one measurement [sglang-pr-2904]. :mod:`netlab.nvlink.engines` sets
these beside NCCL's tuner and prices decode with them; :mod:`netlab.nvlink.inference` offers them as
``algorithm="custom"``.
"""

from __future__ import annotations

from netlab import specs, validate

#: The measurement the default synchronisation floor is calibrated on, as (bytes, TP, registry key).
CALIBRATION = (16384, 8, "nccl.alternative.custom_all_reduce.h100_tp8_16kib")


def default_sync_s() -> float:
    """The one-shot kernel's fixed cost, from SGLang's 16 KiB measurement on 8 H100 less its byte term.

    ``t_sync = t_measured - 8 (n - 1) S / B`` with H100 NVLink at 450 GB/s one way (registry
    ``nvlink.4.per_gpu``): 5.7 µs - 0.25 µs = 5.45 µs. A derived figure, not a measurement.
    (The pull request's sizes count float32 values: its 4,096 is 16 KiB.)
    """
    size, n, key = CALIBRATION
    return specs.value(key) - 8.0 * (n - 1) * size / specs.value("nvlink.4.per_gpu")


def fit_one_shot(n_gpus: int, sizes_bytes: tuple[float, float], times_s: tuple[float, float]) -> tuple[float, float]:
    """``(sync_s, bandwidth_bps)`` of the one-shot model through two measured points.

    ``t = t_sync + 8 (n-1) S / B`` is a line in ``S``: two points give its slope and intercept.
    Fitted on SGLang's 16 KiB and 128 KiB points on 8 H100 it gives about 5.4 µs and 382 GB/s, 85 % of
    NVLink's 450 GB/s: a kernel reading its peers' memory comes close to line rate, not to it.

    >>> sync, rate = fit_one_shot(8, (0, 1e6), (5e-6, 5e-6 + 7e6 * 8 / 800e9))
    >>> round(sync * 1e6, 6), round(rate / 8e9, 6)                   # 5 µs and 100 GB/s back
    (5.0, 100.0)
    """
    n = validate.integer("n_gpus", n_gpus, minimum=2, maximum=validate.MAX_RANKS)
    sizes = [validate.non_negative("sizes_bytes", v) for v in validate.sequence("sizes_bytes", sizes_bytes)]
    times = [validate.positive("times_s", v) for v in validate.sequence("times_s", times_s)]
    if len(sizes) != 2 or len(times) != 2:
        raise ValueError(f"sizes_bytes and times_s must hold two values each, got {len(sizes)} and {len(times)}")
    (s1, s2), (t1, t2) = sizes, times
    if not (s2 > s1 and t2 > t1):
        raise ValueError(f"sizes_bytes and times_s must both increase, got {sizes_bytes} and {times_s}")
    bandwidth = 8.0 * (n - 1) * (s2 - s1) / (t2 - t1)
    return t1 - 8.0 * (n - 1) * s1 / bandwidth, bandwidth


def one_shot_s(n_bytes: float, n_gpus: int, bandwidth_bps: float, sync_s: float | None = None) -> float:
    """One-shot all-reduce: one barrier, then every GPU reads all ``n - 1`` peer buffers.

    >>> round(one_shot_s(32768, 8, 450e9 * 8, sync_s=5e-6) * 1e6, 3)   # 5 µs + 7 x 32 KB / 450 GB/s
    5.51
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    n = validate.integer("n_gpus", n_gpus, minimum=1, maximum=validate.MAX_RANKS)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    sync = default_sync_s() if sync_s is None else validate.non_negative("sync_s", sync_s)
    return 0.0 if n == 1 else sync + 8.0 * (n - 1) * n_bytes / bandwidth_bps


def two_shot_s(n_bytes: float, n_gpus: int, bandwidth_bps: float, sync_s: float | None = None) -> float:
    """Two-shot all-reduce: reduce-scatter and all-gather by direct reads, two barriers.

    >>> round(two_shot_s(32768, 8, 450e9 * 8, sync_s=5e-6) * 1e6, 3)   # 10 µs + 2 x 7/8 x 32 KB / 450 GB/s
    10.127
    """
    n_bytes = validate.non_negative("n_bytes", n_bytes)
    n = validate.integer("n_gpus", n_gpus, minimum=1, maximum=validate.MAX_RANKS)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    sync = default_sync_s() if sync_s is None else validate.non_negative("sync_s", sync_s)
    return 0.0 if n == 1 else 2 * sync + 2.0 * (n - 1) / n * 8.0 * n_bytes / bandwidth_bps


def one_two_shot_crossover_bytes(n_gpus: int, bandwidth_bps: float, sync_s: float | None = None) -> float:
    """Message size above which two-shot beats one-shot: ``t_sync B / (8 (n-1)(1 - 2/n))``; inf for n <= 2.

    >>> round(one_two_shot_crossover_bytes(8, 450e9 * 8, sync_s=5e-6))   # 5 µs x 450 GB/s / (7 x 3/4)
    428571
    """
    n = validate.integer("n_gpus", n_gpus, minimum=1, maximum=validate.MAX_RANKS)
    bandwidth_bps = validate.positive("bandwidth_bps", bandwidth_bps)
    sync = default_sync_s() if sync_s is None else validate.non_negative("sync_s", sync_s)
    if n <= 2:
        return float("inf")
    return sync * bandwidth_bps / (8.0 * (n - 1) * (1 - 2 / n))
