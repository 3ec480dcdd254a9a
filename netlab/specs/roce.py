"""RoCE as it is configured: the lossless class, its ECN thresholds, the PFC watchdog, and the
IEEE delay budget behind PFC headroom (chapter 4, and chapter 10 for distance).

A RoCE fabric is made lossless on one priority, not as a whole: traffic is classified by its
DSCP, one switch priority gets PFC and the RoCE data, another (strict priority, no PFC) the
congestion notification packets. The figures below are the defaults vendors ship, read from
their manuals; the NIC-side headroom formula (``nic.mlx5.pfc_xoff_*``) is in ``rdma``. The
IEEE 802.3 pause reaction delays are standard values relayed by a secondary source, so they
are graded S.
"""

from netlab.specs import Spec, register
from netlab.units import KB, Gbps, ms

#: One IEEE 802.3 pause quantum is 512 bit times.
_QUANTUM_BITS = 512

register(
    # --- the lossless class as NVIDIA's switch software sets it up -------------------------
    Spec("roce.nvidia.roce_priority", 3, "1",
         "Switch priority (and traffic class) that NVIDIA's switch software gives RoCE traffic in its "
         "RoCE mode; PFC is enabled on this priority only in the lossless mode",
         "nvidia-onyx-roce", "2023", "shipping", "P", published="switch-priority 3, TC 3, WRR 50 %"),
    Spec("roce.nvidia.cnp_priority", 6, "1",
         "Switch priority (and traffic class) of congestion notification packets in the same RoCE mode, "
         "served by strict priority and without PFC",
         "nvidia-onyx-roce", "2023", "shipping", "P", published="switch-priority 6, TC 6, strict"),
    Spec("roce.nvidia.ecn_min", 150 * KB, "B",
         "ECN marking threshold K_min on the RoCE traffic class in NVIDIA's RoCE mode (absolute mode)",
         "nvidia-onyx-roce", "2023", "shipping", "P", published="Min : 150",
         note="The manual's 'show roce' prints 'Min : 150' and 'Max : 1500' without a unit; netlab reads "
              "them as KB (150 x 1000 B). The unit is netlab's reading, not printed in the source."),
    Spec("roce.nvidia.ecn_max", 1500 * KB, "B",
         "ECN marking threshold K_max on the RoCE traffic class in NVIDIA's RoCE mode (absolute mode)",
         "nvidia-onyx-roce", "2023", "shipping", "P", published="Max : 1500"),
    # --- SONiC's default QoS template (platforms may override it) ----------------------------
    Spec("roce.sonic.ecn_min", 1048576, "B",
         "ECN marking threshold (WRED green_min_threshold) of SONiC's default lossless profile AZURE_LOSSLESS, "
         "applied to the lossless queues 3 and 4",
         "sonic-qos-config", "2025", "shipping", "P", published="1048576 (bytes)",
         note="The template's default; a platform's own generate_wred_profiles() replaces it."),
    Spec("roce.sonic.ecn_max", 2097152, "B",
         "ECN marking threshold (green_max_threshold) of the same profile",
         "sonic-qos-config", "2025", "shipping", "P", published="2097152 (bytes)"),
    Spec("roce.sonic.ecn_pmax", 0.05, "1",
         "Marking probability at the maximum threshold (green_drop_probability, in per cent, with ecn_all)",
         "sonic-qos-config", "2025", "shipping", "P", published="5"),
    # --- what a Broadcom NIC marks, in a vendor's validated design ----------------------------
    Spec("roce.thor2.dscp_data", 26, "1",
         "DSCP value with which Broadcom Thor2 (BCM57608) NICs mark RoCE data, on priority 3, in "
         "Juniper's validated AI design",
         "juniper-jvd-thor2-dcqcn", "2025", "shipping", "S", published="DSCP 26, priority 3"),
    Spec("roce.thor2.dscp_cnp", 48, "1",
         "DSCP value with which the same NICs mark congestion notification packets (priority 7)",
         "juniper-jvd-thor2-dcqcn", "2025", "shipping", "S", published="DSCP 48, priority 7"),
    # --- the PFC watchdog ---------------------------------------------------------------------
    Spec("roce.pfcwd.juniper.detection", 200 * ms, "s",
         "Default PFC watchdog detection time on Junos: two polling intervals of 100 ms in which a "
         "paused queue holding packets sent nothing",
         "juniper-pfc-watchdog", "2024", "shipping", "P", published="2 x 100 ms",
         note="On detection the queue is disabled (its packets dropped) for the recovery time, then PFC "
              "is restored."),
    Spec("roce.pfcwd.juniper.recovery", 200 * ms, "s",
         "Default PFC watchdog recovery time on Junos: how long a stalled lossless queue stays disabled",
         "juniper-pfc-watchdog", "2024", "shipping", "P", published="200 ms"),
    # --- the IEEE delay budget of a pause (802.3 Annex 31B values, relayed) -------------------
    Spec("roce.ieee.pause_response_100g", 394 * _QUANTUM_BITS / (100 * Gbps), "s",
         "Largest delay IEEE 802.3 allows a 100 Gb/s port between receiving a pause frame and "
         "stopping (the PAUSE reaction time): 394 pause quanta of 512 bit times at 10 ps",
         "besthub-headroom-part2", "2023", "standard", "S", published="201,728 bit times (394 quanta)",
         note="2.02 µs. The page relays the headroom derivation of a "
              "Cisco Press book on IEEE 802.1Qbb; the standard itself was not read."),
)
