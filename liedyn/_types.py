"""The types in liedyn's annotations, in one place.

Every reference function computes on numpy arrays of one of three kinds of entries
(the book's promise): ``float64`` numbers, ``complex128`` numbers (the complex-step
derivatives) and Python objects, sympy expressions (the exact and symbolic
results). Inputs are anything ``numpy.asarray`` turns into such an array: lists,
tuples, scalars and arrays of integers too.

The annotations are for readers and for mypy (``make test``); liedyn imports this
module only while type checking.
"""
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt
import sympy

#: One entry: a float, a complex number (complex step) or a sympy expression.
Scalar: TypeAlias = (float | complex | np.floating[Any]
                     | np.complexfloating[Any, Any] | sympy.Expr)

#: An array of float64, complex128 or object (sympy expression) entries. Its dtype
#: is left open, ``Any``: numpy's annotations give no arithmetic to an array whose
#: dtype is a union (``NDArray[float64 | complex128 | object_]``).
Array: TypeAlias = npt.NDArray[Any]

#: An input that numpy turns into an :data:`Array`: an array, a list, a number.
ArrayLike: TypeAlias = npt.ArrayLike

#: A function of the time and the state, ``f(t, q, dq)``: a control law, forces.
StateFunction: TypeAlias = Callable[[Array, Array, Array], ArrayLike]

#: Joints welded at a value, ``{name: value}``, or at 0, names alone.
Locked: TypeAlias = Mapping[str, float] | Sequence[str]
