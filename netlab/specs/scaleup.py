"""Scale-up domains: NVLink Switch trays, the GB200 NVL72 rack, DGX nodes, scale-out per GPU.

Per-GPU NVLink rates live in ``link_rates`` (``nvlink.N.per_gpu[_bidir]``) and GPU
compute and memory in ``gpus``; this module adds what a *domain* of GPUs needs:
how many GPUs share one NVLink fabric, the aggregate figures vendors quote for it,
the node and rack power, and the scale-out rate each GPU gets in NVIDIA's
reference architectures. As for NVLink, aggregate NVLink figures are quoted as
the sum of both directions: each ``_bidir`` entry has a one-way partner of half.
"""

from netlab.specs import Spec, register
from netlab.units import Gbps, TBps, kW

register(
    # --- GB200 NVL72 rack ---------------------------------------------------------------
    Spec("nvl72.n_gpus", 72, "1",
         "Blackwell GPUs in one GB200 NVL72 rack, all in one NVLink domain (with 36 Grace CPUs)",
         "textbookofai-nvlink", "2025", "shipping", "S", published="72 GPUs",
         note="The NVIDIA page says NVL72 connects 9x the GPUs of an 8-GPU system."),
    Spec("nvl72.n_switch_trays", 9, "1", "NVLink Switch trays in one GB200 NVL72 rack",
         "textbookofai-nvlink", "2025", "shipping", "S", published="9 trays"),
    Spec("nvl72.gpu_bandwidth_bidir", 130 * TBps, "bit/s",
         "GB200 NVL72 total NVLink GPU bandwidth, both directions added",
         "nvidia-nvlink-page", "2024", "vendor claim", "S", published="130 TB/s",
         note="72 GPUs x 1.8 TB/s = 129.6 TB/s, rounded; the AWS P6e-GB200 page quotes the "
              "same 130 TB/s and 1.8 TB/s per GPU."),
    Spec("nvl72.gpu_bandwidth", 65 * TBps, "bit/s",
         "GB200 NVL72 total NVLink GPU bandwidth, one direction",
         "nvidia-nvlink-page", "2024", "derived", "D", published="65 TB/s per direction",
         note="Half of the 130 TB/s bidirectional figure."),
    Spec("nvl72.rack_power", 120 * kW, "W", "GB200 NVL72 rack power, as reported by the press",
         "yahoo-nvl72-rack", "2024", "estimate", "S", published="~120 kW",
         note="Press report of a rack shown by ServeTheHome; no NVIDIA datasheet figure was found."),
    # --- NVLink Switch (5th generation, in the NVL72 switch tray) ------------------------
    Spec("nvswitch.5.tray_ports", 144, "1", "NVLink 5 ports of one NVLink Switch tray",
         "nvidia-nvlink-page", "2024", "shipping", "S", published="144 ports"),
    Spec("nvswitch.5.tray_bandwidth_bidir", 14.4 * TBps, "bit/s",
         "Non-blocking switching bandwidth of one NVLink Switch tray, both directions added",
         "nvidia-nvlink-page", "2024", "shipping", "S", published="14.4 TB/s",
         note="144 ports x 100 GB/s (an NVLink 5 link, both directions) = 14.4 TB/s."),
    Spec("nvswitch.5.tray_bandwidth", 7.2 * TBps, "bit/s",
         "Switching bandwidth of one NVLink Switch tray, one direction",
         "nvidia-nvlink-page", "2024", "derived", "D", published="7.2 TB/s per direction",
         note="Half of the 14.4 TB/s bidirectional figure."),
    Spec("nvlink.4.links_per_gpu", 18, "1", "NVLink 4 links of one H100/H200 GPU",
         "mlperf-h200-system", "2024", "shipping", "P", published="18 links x 50 GB/s"),
    Spec("nvlink.5.links_per_gpu", 18, "1", "NVLink 5 links of one Blackwell GPU",
         "nvidia-nvlink-page", "2024", "shipping", "S", published="18 links x 100 GB/s"),
    Spec("nvlink.5.max_domain_gpus", 576, "1", "Largest NVLink 5 domain NVIDIA documents",
         "nvidia-mission-control-nvlink", "2025", "shipping", "P", published="576 GPUs",
         note="The same page writes '900 GB/s bidirectional per link', inconsistent with "
              "18 links x 100 GB/s = 1.8 TB/s per GPU."),
    # --- DGX nodes (8 GPUs on NVLink Switch chips) ---------------------------------------
    Spec("dgx.n_gpus", 8, "1", "GPUs in one DGX/HGX node (H100, H200, B200)",
         "nvidia-dgx-h100-guide", "2023", "shipping", "P", published="8 GPUs"),
    Spec("dgx.h100.power", 10.2 * kW, "W", "DGX H100/H200 maximum system power (six 3.3 kW PSUs, 4+2)",
         "unanswered-dgx-power", "2024", "shipping", "S", published="10.2 kW max",
         note="A summary citing the NVIDIA DGX H100 user guide; Epoch AI's cost model uses the same "
              "figure."),
    Spec("dgx.b200.power", 14.3 * kW, "W", "DGX B200 maximum system power",
         "nvidia-dgx-b200-guide", "2025", "shipping", "P", published="14.3 kW max"),
    Spec("dgx.b200.nvlink_bandwidth_bidir", 14.4 * TBps, "bit/s",
         "DGX B200 total NVLink bandwidth over its two NVLink Switch chips, both directions added",
         "nvidia-dgx-b200-guide", "2025", "shipping", "P", published="14.4 TB/s",
         note="8 GPUs x 1.8 TB/s."),
    Spec("dgx.b200.nvlink_bandwidth", 7.2 * TBps, "bit/s",
         "DGX B200 total NVLink bandwidth, one direction",
         "nvidia-dgx-b200-guide", "2025", "derived", "D", published="7.2 TB/s per direction",
         note="Half of the 14.4 TB/s bidirectional figure."),
    # --- scale-out per GPU in NVIDIA's reference architectures ---------------------------
    Spec("ra.hgx.scaleout_per_gpu", 400 * Gbps, "bit/s",
         "Scale-out (east-west) network rate per GPU in the HGX H100/H200/B200 AI Factory reference "
         "architecture ('2-8-9-400'), one direction",
         "nvidia-hgx-ra", "2025", "shipping", "P", published="400 Gb/s per GPU"),
    Spec("ra.hgx_b300.scaleout_per_gpu", 800 * Gbps, "bit/s",
         "Scale-out network rate per GPU in the HGX B300 reference architecture ('2-8-9-800', "
         "ConnectX-8), one direction",
         "nvidia-hgx-b300-ra", "2025", "shipping", "P", published="800 Gb/s per GPU"),
    # --- netlab's assumption for the PCIe-mesh counterfactual ------------------------------
    Spec("assume.pcie_mesh_power_ratio", 1.0, "1",
         "Power of an 8-GPU node whose GPUs talk only over PCIe 5.0, as a fraction of a DGX H100 "
         "with the same GPUs",
         "netlab-assumptions", "2026", "assumption", "-", published="1.0",
         note="No published figure; the NVSwitch chips are a small share of a 10.2 kW node, so "
              "equal power isolates the effect of the interconnect on throughput."),
    # --- a GPU figure the gpus module does not hold ---------------------------------------
    Spec("gpu.gb200.memory_bandwidth", 8 * TBps, "bit/s", "GB200 HBM3e bandwidth per Blackwell GPU",
         "glennklockwood-b200", "2024", "shipping", "S", published="8 TB/s"),
    # --- model shapes used in the inference examples (published configurations) -----------
    # Architecture from each model's config.json; the parameter count is the sum of the
    # tensor shapes it implies (netlab.nvlink.inference.dense_transformer_params, checked in the tests).
    Spec("model.llama3_70b.n_params", 70_553_706_496, "1", "Parameters of Llama 3 70B",
         "hf-llama3-70b-config", "2024", "shipping", "P", published="70,553,706,496",
         note="Counted from the configuration below (untied embeddings). Before 2026-12 netlab "
              "stored 70.5629e9, 9.2 million too many."),
    Spec("model.llama31_405b.n_params", 405_853_388_800, "1", "Parameters of Llama 3.1 405B",
         "hf-llama31-405b-config", "2024", "shipping", "P", published="405,853,388,800",
         note="Counted from the configuration below (untied embeddings); 811.7 GB in BF16. Before "
              "2026-12 netlab stored 410.14e9, about 1 % too many."),
)
_LLAMA_CONFIGS = {
    "llama3_70b": ("hf-llama3-70b-config", "Llama 3 70B",
                   dict(n_layers=80, d_model=8192, d_ffn=28672, n_heads=64, n_kv_heads=8, vocab=128256)),
    "llama31_405b": ("hf-llama31-405b-config", "Llama 3.1 405B",
                     dict(n_layers=126, d_model=16384, d_ffn=53248, n_heads=128, n_kv_heads=8, vocab=128256)),
}
_FIELDS = {"n_layers": ("num_hidden_layers", "Transformer layers"), "d_model": ("hidden_size", "Hidden size"),
           "d_ffn": ("intermediate_size", "MLP (FFN) inner size"),
           "n_heads": ("num_attention_heads", "Attention (query) heads"),
           "n_kv_heads": ("num_key_value_heads", "Key-value heads (grouped-query attention)"),
           "vocab": ("vocab_size", "Vocabulary size")}
for _model, (_source, _title, _config) in _LLAMA_CONFIGS.items():
    for _field, _value in _config.items():
        register(Spec(f"model.{_model}.{_field}", _value, "1", f"{_FIELDS[_field][1]} of {_title}",
                      _source, "2024", "shipping", "P", published=f"{_FIELDS[_field][0]} = {_value}"))
register(
    # --- how PCIe 5.0 x16 is quoted (chapter 7's table sets it beside NVLink's quoted figures) ----
    Spec("pcie.5.x16_quoted_bidir", 128e9 * 8, "bit/s",
         "PCIe 5.0 x16 as commonly quoted: both directions added, at the raw 32 GT/s per lane "
         "before 128b/130b coding (2 x 64 GB/s)",
         "pcie-table", "2019", "standard", "S", published="~128 GB/s",
         note="After coding the data rate is 2 x 63.0 = 126 GB/s (pcie.5.x16_rate, each way)."),
    Spec("pcie.5.x16_quoted", 64e9 * 8, "bit/s",
         "PCIe 5.0 x16 as commonly quoted, one direction: half the quoted both-ways figure, before coding",
         "pcie-table", "2019", "derived", "D", published="~64 GB/s per direction",
         note="pcie.5.x16_quoted_bidir / 2; after 128b/130b coding, 63.0 GB/s (pcie.5.x16_rate)."),
)
