"""Chapter 1, AI training is a networking problem: what a model needs and what a step moves.

* :mod:`~netlab.training.memory`: bytes per parameter for inference and for mixed-precision
  training, and what fits on one GPU;
* :mod:`~netlab.training.parallelism`: the FLOPs of a step, the bytes each kind of
  parallelism moves, and when the network bounds a data-parallel step;
* :mod:`~netlab.training.failures`: which failed parts stop a synchronous job, its interruption
  rate, and the checkpoint interval and goodput that follow (chapters 9 and 11);
* :mod:`~netlab.training.figures`: lab 1's figures.
"""
