"""Across datacenters: NVIDIA's Spectrum-XGS "scale-across" claims (seed D4).

The speed-up reached us through summaries of an NVIDIA blog (grade S); the
mechanisms (distance-aware congestion control, telemetry, adaptive routing) are
described in the blog itself. Fibre's group index is in ``media``.
"""

from netlab.specs import Spec, register
from netlab.units import km, m

register(
    Spec("xgs.allreduce_speedup", 1.9, "1",
         "NCCL all-reduce bandwidth with Spectrum-XGS over off-the-shelf Ethernet between two sites, "
         "mainly for large messages",
         "brainai-xgs", "2025-09", "vendor claim", "S", published="up to 1.9x",
         note="Reported as 'nearly double' NCCL performance."),
    Spec("xgs.claim_distance", 10 * km, "m", "Site separation at which the 1.9x speed-up is reported",
         "brainai-xgs", "2025-09", "vendor claim", "S", published="10 km"),
    Spec("xgs.min_distance", 500 * m, "m", "Distances Spectrum-XGS targets: beyond about 500 m",
         "brainai-xgs", "2025-09", "vendor claim", "S", published="> 500 m"),
)
