"""The compiled engine: the recursive algorithms per state on 3-vectors and 3x3
blocks, compiled by numba and chosen by :mod:`~liedyn.engine.dispatch` for float64
and complex128 input. The public functions of :mod:`liedyn` reach it only through
the dispatch; it computes the same numbers as their reference implementations,
faster.

* :mod:`~liedyn.engine.spatial`: the operators (``Ad_inv_mul``, ``ad_star_mul``,
  ``inertia_mul``, the congruence ``Ad* I Ad``) and the flattened model's layout;
* :mod:`~liedyn.engine.joints`: ``jcalc``, a joint's ``T`` and ``S`` by its code;
* :mod:`~liedyn.engine.kernels`: Kim's Tables 2-5 and the CRBA, one state at a time;
* :mod:`~liedyn.engine.drivers`: the loops over a batch, with the input checks;
* :mod:`~liedyn.engine.one_state`: the same modules executed again for chunks of one
  state, which single calls run;
* :mod:`~liedyn.engine.jit`: how they are compiled.
"""
