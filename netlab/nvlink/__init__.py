"""Chapter 7, NVLink scale-up: domains of GPUs joined by NVLink, and what they change.

* :mod:`~netlab.nvlink.domains`: a PCIe mesh, an NVLink Switch node, an NVL72 rack, and
  hierarchical all-reduce across the domain and the fabric beyond;
* :mod:`~netlab.nvlink.inference`: tensor-parallel decode, its latency and tokens per joule;
* :mod:`~netlab.nvlink.moe`: how much of a mixture-of-experts all-to-all leaves the domain;
* :mod:`~netlab.nvlink.figures`: lab 7's figures and readouts.
"""
