"""Small numeric dispatch: the same code on float64, complex128 (complex-step
derivatives) and numpy object arrays of sympy expressions. ``np.sin`` fails on
sympy objects and ``math.sin`` on arrays; these pick the right one.
"""
import numpy as np

__all__ = ["sin", "cos", "sqrt", "atan2", "is_symbolic", "asarray", "result_dtype",
           "zeros", "eye"]


def is_symbolic(x):
    """True for a numpy object array (e.g. of sympy expressions) or a sympy
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
    """``np.asarray`` keeping object, complex and float dtypes, ints promoted to
    float."""
    x = np.asarray(x)
    if x.dtype == object or np.issubdtype(x.dtype, np.inexact):
        return x
    return x.astype(float)


def result_dtype(*arrays):
    """The common dtype: object if any argument is symbolic, else numpy's
    float/complex."""
    if any(np.asarray(a).dtype == object for a in arrays):
        return np.dtype(object)
    return np.result_type(float, *[np.asarray(a).dtype for a in arrays])


def zeros(shape, dtype):
    """Zeros of ``dtype`` (object arrays hold the integer 0, sympy-friendly)."""
    return np.zeros(shape, dtype=dtype)


def eye(n, dtype):
    """Identity of ``dtype`` (object arrays get integer 1 and 0)."""
    return np.eye(n, dtype=dtype)
