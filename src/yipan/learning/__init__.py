"""Learned evaluation: policy-value networks read in numpy, the evaluator PUCT asks, training.

``network`` holds the weights and the numpy forward pass (the base install needs nothing
more); ``evaluate`` turns a network into PUCT's evaluator and alpha-beta's ``evaluate``;
``train`` fits a network with JAX and optax (the ``[train]`` extra), from labelled positions
or from self-play (``selfplay``).
"""
