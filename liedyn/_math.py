"""Small numeric dispatch: the same code on float, complex and sympy-object arrays.

numpy's ``np.sin`` fails on object arrays of sympy expressions, and ``math.sin``
fails on arrays. The functions here pick the right one, so that every liedyn formula
runs on

* float64 (the normal case),
* complex128 (complex-step derivatives: ``f(x + i h)`` with ``h = 1e-30``),
* numpy object arrays holding sympy expressions (closed-form equations of motion).

Only the functions that later modules need are here; they are deliberately tiny.
"""
import numpy as np

__all__ = ["sin", "cos", "sqrt", "atan2", "is_symbolic", "asarray", "result_dtype",
           "zeros", "eye"]


def is_symbolic(x):
    """True if ``x`` is a numpy object array (e.g. of sympy expressions) or a sympy
    object."""
    if isinstance(x, np.ndarray):
        return x.dtype == object
    return hasattr(x, "free_symbols")


def _elementwise(numeric, symbolic_name):
    def f(x):
        if is_symbolic(x):
            import sympy
            g = getattr(sympy, symbolic_name)
            if isinstance(x, np.ndarray):
                # 0-d input gives a scalar
                return np.asarray(np.frompyfunc(g, 1, 1)(x), dtype=object)
            return g(x)
        return numeric(x)
    f.__name__ = symbolic_name
    f.__doc__ = f"``{symbolic_name}`` for float, complex and sympy-object inputs."
    return f


sin = _elementwise(np.sin, "sin")
cos = _elementwise(np.cos, "cos")
sqrt = _elementwise(np.sqrt, "sqrt")


def atan2(y, x):
    """``atan2`` for float and sympy inputs."""
    if is_symbolic(y) or is_symbolic(x):
        import sympy
        return np.frompyfunc(sympy.atan2, 2, 1)(y, x)
    return np.arctan2(y, x)


def asarray(x):
    """``np.asarray`` that keeps object (symbolic), complex and float dtypes,
    promoting ints to float."""
    x = np.asarray(x)
    if x.dtype == object or np.issubdtype(x.dtype, np.inexact):
        return x
    return x.astype(float)


def result_dtype(*arrays):
    """Common dtype of the arguments: object if any is symbolic, else the numpy
    float/complex type."""
    if any(np.asarray(a).dtype == object for a in arrays):
        return np.dtype(object)
    return np.result_type(float, *[np.asarray(a).dtype for a in arrays])


def zeros(shape, dtype):
    """Zeros of ``dtype``; for object arrays the entries are the integer 0
    (sympy-friendly)."""
    return np.zeros(shape, dtype=dtype)


def eye(n, dtype):
    """Identity of ``dtype`` (object arrays get integer 1 and 0)."""
    return np.eye(n, dtype=dtype)
