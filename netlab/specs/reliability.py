"""Reliability at scale: interruptions of a large training run, checkpoints, copper reach, switch counts.

Chapter 9 and the capstone turn failures into lost training time. The measured figures are the
interruptions of Meta's 54-day Llama 3 405B pre-training run on 16,384 H100 GPUs (the paper's
Table 5, read here through two reproductions, so graded S); checkpoint-write and restart times
are netlab assumptions, chosen so that the run's reported "more than 90 %" effective training
time follows from them (the paper gives neither). The copper figures come from NVIDIA's LinkX
cable overview; the switch counts of published clusters, against which netlab's fabric
calculator is checked, from NVIDIA's DGX SuperPOD reference architectures.

Keys use the registry's existing prefixes: ``util.`` (measured utilisation and interruptions),
``optics.`` (cables), ``ra.`` (reference architectures), ``assume.`` (netlab's assumptions).
"""

from netlab.specs import Spec, register
from netlab.units import day, m, s

_TABLE5 = ("Table 5 of the paper, read through DatacenterDynamics' report and G. Lockwood's reproduction "
           "of the table; the paper itself was not opened for this entry.")

register(
    # --- the Llama 3 405B run (Meta) -----------------------------------------------------------
    Spec("util.llama3.n_gpus", 16_384, "1", "H100 GPUs of the Llama 3 405B pre-training job",
         "meta-llama3-herd", "2024-07", "measured", "S", published="16,384 H100",
         note=_TABLE5),
    Spec("util.llama3.snapshot_duration", 54 * day, "s",
         "Length of the pre-training snapshot over which Meta counted job interruptions",
         "meta-llama3-herd", "2024-07", "measured", "S", published="54 days", note=_TABLE5),
    Spec("util.llama3.unexpected_interruptions", 419, "1",
         "Unexpected job interruptions in the 54-day snapshot (all causes)",
         "meta-llama3-herd", "2024-07", "measured", "S", published="419",
         note="Plus 47 planned interruptions (automated maintenance), 466 in all. " + _TABLE5),
    Spec("util.llama3.planned_interruptions", 47, "1",
         "Planned job interruptions in the 54-day snapshot (firmware upgrades, configuration changes)",
         "meta-llama3-herd", "2024-07", "measured", "S", published="47"),
    Spec("util.llama3.gpu_share", 0.587, "1",
         "Share of the unexpected interruptions the paper attributes to GPU issues (faulty GPU, HBM3, "
         "SRAM, system processor, silent data corruption, thermal interface and sensor)",
         "meta-llama3-herd", "2024-07", "measured", "S", published="58.7 %",
         note="58.7 % is the sum of the table's percentages. The table's first row (faulty GPU, 148 "
              "interruptions, 30.1 %) is inconsistent: 148 of 419 is 35.3 %; every other row's count "
              "and percentage agree. " + _TABLE5),
    Spec("util.llama3.faulty_gpu_interruptions", 148, "1",
         "Unexpected interruptions attributed to a faulty GPU (NVLink failures included)",
         "meta-llama3-herd", "2024-07", "measured", "S", published="148 (printed as 30.1 %)",
         note="148 / 419 = 35.3 %, not the 30.1 % printed beside it."),
    Spec("util.llama3.hbm3_interruptions", 72, "1", "Unexpected interruptions attributed to GPU HBM3 memory",
         "meta-llama3-herd", "2024-07", "measured", "S", published="72 (17.2 %)"),
    Spec("util.llama3.network_interruptions", 35, "1",
         "Unexpected interruptions attributed to a network switch or cable",
         "meta-llama3-herd", "2024-07", "measured", "S", published="35 (8.4 %)"),
    Spec("util.llama3.nic_interruptions", 7, "1", "Unexpected interruptions attributed to a NIC",
         "meta-llama3-herd", "2024-07", "measured", "S", published="7 (1.7 %)"),
    Spec("util.llama3.effective_training_time", 0.90, "1",
         "Effective training time Meta reports for the run despite the interruptions (a lower bound)",
         "meta-llama3-herd", "2024-07", "measured", "S", published="higher than 90 %",
         note="Stored as 0.90, the bound; the paper also says only three interruptions needed "
              "significant manual intervention."),
    # --- netlab's checkpoint assumptions --------------------------------------------------------
    Spec("assume.training.checkpoint_write", 30 * s, "s",
         "Time a synchronous training job stalls to write one checkpoint (C in Young's and Daly's "
         "formulas)",
         "netlab-assumptions", "2026", "assumption", "-", published="30 s",
         note="No published figure for the runs netlab models. With the restart time below and Daly's "
              "interval, Llama 3's interruption rate gives 91.3 % goodput, consistent with the run's "
              "reported 'higher than 90 %'; asynchronous checkpointing to host memory stalls for less."),
    Spec("assume.training.restart", 180 * s, "s",
         "Time from an interruption to training again: detect, drain, swap or exclude the node, "
         "reload the last checkpoint (R in Daly's formula)",
         "netlab-assumptions", "2026", "assumption", "-", published="3 min",
         note="Chosen with the checkpoint write time so that the Llama 3 run's reported effective "
              "training time follows; tens of minutes are common when a node must be replaced by hand."),
    # --- copper at the first hop (NVIDIA LinkX) -------------------------------------------------
    Spec("optics.dac.max_reach", 2 * m, "m",
         "Longest straight passive copper (DAC) cable NVIDIA offers for its 100G-PAM4-lane (400G/800G) "
         "links",
         "nvidia-linkx-copper", "2025", "shipping", "P", published="0.5-2 m straight",
         note="Splitter DACs reach 3 m; thin 30 AWG wire to 1 m, thicker 26 AWG for 2-3 m."),
    Spec("optics.dac.splitter_reach", 3 * m, "m",
         "Longest passive copper splitter cable (one 800G port to two or four NICs) NVIDIA offers",
         "nvidia-linkx-copper", "2025", "shipping", "P", published="up to 3 m"),
    Spec("optics.lacc.max_reach", 5 * m, "m",
         "Longest linear active copper cable (LACC: a pre-emphasis amplifier in each end, no DSP) "
         "NVIDIA offers for 800G switch-to-switch links",
         "nvidia-linkx-copper", "2025", "shipping", "P", published="3-5 m"),
    Spec("optics.aec.max_reach", 7 * m, "m",
         "Reach a vendor gives for an 800G active electrical cable (AEC: a retimer in each end)",
         "ydfiber-800g-aec", "2025", "vendor claim", "S", published="2-7 m",
         note="A cable maker's page; it also puts passive 800G (112G-lane) copper at about 2 m."),
    # --- published switch counts (DGX SuperPOD reference architectures) --------------------------
    Spec("ra.superpod_h100.nodes_4su", 127, "1",
         "DGX H100 nodes in the 4-SU DGX SuperPOD (one node slot of the 128 is left to UFM)",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="127 nodes, 1,016 GPUs"),
    Spec("ra.superpod_h100.leaf_4su", 32, "1", "Leaf switches (QM9700) of the 4-SU DGX H100 SuperPOD compute fabric",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="32"),
    Spec("ra.superpod_h100.spine_4su", 16, "1", "Spine switches (QM9700) of the 4-SU DGX H100 SuperPOD compute fabric",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="16"),
    Spec("ra.superpod_h100.leaf_1su", 8, "1", "Leaf switches of a 1-SU (32-node slot) DGX H100 SuperPOD",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="8"),
    Spec("ra.superpod_h100.spine_1su", 4, "1", "Spine switches of a 1-SU DGX H100 SuperPOD",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="4"),
    Spec("ra.superpod_h100.leaf_3su", 24, "1", "Leaf switches of a 3-SU (95-node) DGX H100 SuperPOD",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="24"),
    Spec("ra.superpod_h100.spine_3su", 16, "1", "Spine switches of a 3-SU (95-node) DGX H100 SuperPOD",
         "nvidia-superpod-h100-ra", "2023", "shipping", "P", published="16",
         note="As many as at 4 SUs: the spine layer is built for the full four-SU fabric."),
    Spec("ra.superpod_b200.leaf_16su", 128, "1",
         "Leaf switches of the 16-SU (512 nodes, 4,096 GPUs) DGX B200 SuperPOD compute fabric",
         "nvidia-superpod-b200-ra", "2025", "shipping", "P", published="128"),
    Spec("ra.superpod_b200.spine_16su", 128, "1", "Spine switches of the 16-SU DGX B200 SuperPOD",
         "nvidia-superpod-b200-ra", "2025", "shipping", "P", published="128"),
    Spec("ra.superpod_b200.core_16su", 64, "1", "Core switches of the 16-SU DGX B200 SuperPOD",
         "nvidia-superpod-b200-ra", "2025", "shipping", "P", published="64"),
)
