"""Small numeric dispatch: the same code on float64, complex128 (complex-step
derivatives) and numpy object arrays of sympy expressions. ``np.sin`` fails on
sympy objects and ``math.sin`` on arrays; these pick the right one. The small
linear algebra of the algorithms (``inv``, ``solve``, ``cholesky``) runs numpy's
on numbers and sympy's, matrix by matrix, on object arrays (exact on rationals).
"""
import numpy as np


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


def exact(x, dtype):
    """A model constant ``x`` (an array) for arithmetic of ``dtype``: unchanged,
    except for object (sympy) arithmetic, where its floats that are integers (the
    ``1.0`` and ``0.0`` of a joint axis, a point mass of ``1.0``), also inside
    sympy expressions, become integers: ``1.0 * Rational(1, 3)`` would be a float,
    and exact input would give an inexact result. Other floats stay floats.

    >>> import sympy
    >>> exact(np.array([1.0, 0.5]), object) * sympy.Rational(1, 3)
    array([1/3, 0.166666666666667], dtype=object)
    """
    if dtype != object:
        return x
    import sympy

    def one(v):
        if isinstance(v, (float, np.floating)):
            return int(v) if float(v).is_integer() else float(v)
        if isinstance(v, sympy.Basic):
            floats = {f: sympy.Integer(int(f)) for f in v.atoms(sympy.Float)
                      if float(f).is_integer()}
            return v.xreplace(floats) if floats else v
        return v
    return np.asarray(np.frompyfunc(one, 1, 1)(np.asarray(x, dtype=object)),
                      dtype=object)


def _sympy_sqrt(x):
    import sympy
    return np.frompyfunc(sympy.sqrt, 1, 1)(x)


def decidable(*arrays):
    """True unless some argument is an object array holding a free symbol: a test
    on its values (a sign, a rank, a tolerance) can then be decided."""
    for a in arrays:
        a = np.asarray(a)
        if a.dtype == object and any(getattr(x, "free_symbols", None)
                                     for x in a.flat):
            return False
    return True


def _each(f, *arrays):
    """``f`` on the sympy Matrices of each (..., n, k) state of object arrays (the
    leading dimensions broadcast), stacked back into an object array."""
    import sympy
    arrays = [np.asarray(a) for a in arrays]
    batch = np.broadcast_shapes(*(a.shape[:-2] for a in arrays))
    arrays = [np.broadcast_to(a, batch + a.shape[-2:]) for a in arrays]
    out = None
    for idx in np.ndindex(batch):
        x = f(*(sympy.Matrix(a[idx]) for a in arrays))
        if out is None:
            out = np.empty(batch + x.shape, dtype=object)
        out[idx] = np.array(x.tolist(), dtype=object).reshape(x.shape)
    return out


def inv(A):
    """``A^-1`` for (..., n, n): numpy's on numbers, the adjugate over the
    determinant per matrix on object arrays (sympy).

    >>> import sympy
    >>> inv(np.array([[2, 1], [1, 1]], dtype=object) / sympy.Integer(3)).tolist()
    [[3, -3], [-3, 6]]
    """
    A = np.asarray(A)
    if A.dtype != object:
        return np.linalg.inv(A)
    return _each(_sympy_inv, A)


def _sympy_inv(M):
    """``M^-1`` of a sympy Matrix as ``adj(M) / det(M)`` (Berkowitz: no search for
    a non-zero pivot, which would simplify large expressions); a determinant that
    is the number 0 raises numpy's ``LinAlgError``."""
    if M.shape == (1, 1):
        if M[0, 0].is_number and M[0, 0].is_zero:
            raise np.linalg.LinAlgError("Singular matrix")
        return M.applyfunc(lambda x: 1 / x)
    det = M.det(method="berkowitz")
    if det.is_number and det.is_zero:
        raise np.linalg.LinAlgError("Singular matrix")
    return M.adjugate(method="berkowitz") / det


def solve(A, b):
    """``A^-1 b`` for ``A`` (..., n, n) and ``b`` (n,) or (..., n, k), as
    ``np.linalg.solve``: numpy's on numbers, sympy's LU solve per matrix on
    object arrays.

    >>> import sympy
    >>> A = np.array([[2, 0], [0, 4]], dtype=object)
    >>> solve(A, np.array([1, 1], dtype=object)).tolist()
    [1/2, 1/4]
    """
    A, b = np.asarray(A), np.asarray(b)
    if A.dtype != object and b.dtype != object:
        return np.linalg.solve(A, b)
    if b.ndim == 1:
        return solve(A, b[:, None])[..., 0]
    return _each(lambda M, B: M.LUsolve(B), A, b)


def cholesky(A):
    """The lower triangular ``L`` with ``A = L L^T`` for a symmetric positive
    definite (..., n, n) ``A``: numpy's on floats; otherwise row by row with plain
    products (no complex conjugate: the complex step passes through) and the
    ``sqrt`` above. ``numpy.linalg.LinAlgError`` where a float pivot is not
    positive.

    >>> cholesky(np.array([[4.0, 2.0], [2.0, 5.0]])).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
    """
    A = np.asarray(A)
    if A.dtype.kind == "f":
        return np.linalg.cholesky(A)
    n = A.shape[-1]
    L = np.zeros(A.shape, dtype=A.dtype)
    for j in range(n):
        d = A[..., j, j] - np.sum(L[..., j, :j] * L[..., j, :j], axis=-1)
        if A.dtype != object and not np.all(d.real > 0):
            raise np.linalg.LinAlgError("Matrix is not positive definite")
        L[..., j, j] = _sympy_sqrt(d) if A.dtype == object else np.sqrt(d)
        L[..., j + 1:, j] = (A[..., j + 1:, j] - np.sum(
            L[..., j + 1:, :j] * L[..., j, None, :j], axis=-1)) / L[..., j, j, None]
    return L
