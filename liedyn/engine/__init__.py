"""The compiled engine: the recursive algorithms per state on 3-vectors and 3x3
blocks (:mod:`~liedyn.engine.kernels`), compiled by numba
(:mod:`~liedyn.engine.jit`) and chosen by :mod:`~liedyn.engine.dispatch` for float64
and complex128 input. The public functions of :mod:`liedyn` reach it only through
the dispatch; it computes the same numbers as their reference implementations,
faster.
"""
