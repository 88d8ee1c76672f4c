"""Structure-exploiting spatial products for the recursions: the operators of
:mod:`liedyn.lie` computed from ``R`` and ``p`` without 6x6 matrices or input
checks (the algorithms validate once, at the entry); batched and dtype-generic.
With ``T = (R, p)``:

* ``Ad_inv_mul(R, p, V)``   = ``Ad_{T^-1} V``  = ``(R^T w, R^T (v - p x w))``
* ``Ad_mul(R, p, V)``       = ``Ad_T V``       = ``(R w, p x R w + R v)``
* ``Ad_star_inv_mul(R, p, F)`` = ``Ad*_{T^-1} F`` = ``(R m + p x R f, R f)``
* ``Ad_star_mul(R, p, F)``  = ``Ad*_T F``      = ``(R^T (m - p x f), R^T f)``
* ``ad_mul(V, X)``          = ``ad_V X``       = ``(w x wx, v x wx + w x vx)``
* ``ad_star_mul(V, F)``     = ``ad*_V F``      = ``(-(w x m) - v x f, -(w x f))``
"""
import numpy as np


def cross(a, b):
    """``a x b`` for (..., 3) arrays, written out; single vectors go through Python
    scalars, which also serves complex and sympy entries.
    """
    if a.ndim == 1 and b.ndim == 1:
        return _out(_c(a.tolist(), b.tolist()), a, b)
    # batched: component by component into one output
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    out = np.empty(np.broadcast_shapes(a.shape, b.shape),
                   dtype=np.result_type(a, b))
    np.subtract(a1 * b2, a2 * b1, out=out[..., 0])
    np.subtract(a2 * b0, a0 * b2, out=out[..., 1])
    np.subtract(a0 * b1, a1 * b0, out=out[..., 2])
    return out


def transpose(A):
    """``A^T`` for a matrix or a stack of them (the last two axes swapped).

    >>> transpose(np.arange(6).reshape(1, 2, 3)).shape
    (1, 3, 2)
    """
    return np.swapaxes(A, -1, -2)


def rot(R, x):
    """``R x`` for (..., 3, 3) and (..., 3)."""
    return matvec(R, x)


def rot_T(R, x):
    """``R^T x`` for (..., 3, 3) and (..., 3)."""
    if R.ndim == 2:
        return x @ R
    return np.einsum("...ji,...j->...i", R, x)


def _single(matrices, vectors):
    """One unbatched state (2-D matrices, 1-D vectors): Python lists beat numpy
    calls."""
    return all(M.ndim == 2 for M in matrices) and all(x.ndim == 1 for x in vectors)


def _c(a, b):
    """``a x b`` on lists."""
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0]]


def _r(R, x):
    """``R x`` on lists."""
    return [R[0][0] * x[0] + R[0][1] * x[1] + R[0][2] * x[2],
            R[1][0] * x[0] + R[1][1] * x[1] + R[1][2] * x[2],
            R[2][0] * x[0] + R[2][1] * x[1] + R[2][2] * x[2]]


def _rt(R, x):
    """``R^T x`` on lists."""
    return [R[0][0] * x[0] + R[1][0] * x[1] + R[2][0] * x[2],
            R[0][1] * x[0] + R[1][1] * x[1] + R[2][1] * x[2],
            R[0][2] * x[0] + R[1][2] * x[1] + R[2][2] * x[2]]


def _add(a, b, sign=1):
    return [x + sign * y for x, y in zip(a, b)]


def _out(values, *arrays):
    return np.array(values, dtype=np.result_type(*arrays))


def Ad_inv_mul(R, p, V):
    """``Ad_{T^-1} V`` for ``T = (R, p)``."""
    if _single([R], [p, V]):
        Rl, w, v = R.tolist(), V[:3].tolist(), V[3:].tolist()
        return _out(_rt(Rl, w) + _rt(Rl, _add(v, _c(p.tolist(), w), -1)), R, p, V)
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate([rot_T(R, w), rot_T(R, v - cross(p, w))], axis=-1)


def Ad_mul(R, p, V):
    """``Ad_T V`` for ``T = (R, p)``."""
    Rw = rot(R, V[..., :3])
    return np.concatenate([Rw, cross(p, Rw) + rot(R, V[..., 3:])], axis=-1)


def Ad_star_inv_mul(R, p, F):
    """``Ad*_{T^-1} F``: a wrench in the child frame, expressed in the parent."""
    if _single([R], [p, F]):
        Rl = R.tolist()
        Rf = _r(Rl, F[3:].tolist())
        return _out(_add(_r(Rl, F[:3].tolist()), _c(p.tolist(), Rf)) + Rf, R, p, F)
    Rf = rot(R, F[..., 3:])
    return np.concatenate([rot(R, F[..., :3]) + cross(p, Rf), Rf], axis=-1)


def Ad_star_mul(R, p, F):
    """``Ad*_T F`` for ``T = (R, p)``."""
    m, f = F[..., :3], F[..., 3:]
    return np.concatenate([rot_T(R, m - cross(p, f)), rot_T(R, f)], axis=-1)


def ad_mul(V, X):
    """``ad_V X``, the Lie bracket ``[V, X]``."""
    if _single([], [V, X]):
        w, v, wx, vx = (V[:3].tolist(), V[3:].tolist(), X[:3].tolist(),
                        X[3:].tolist())
        return _out(_c(w, wx) + _add(_c(v, wx), _c(w, vx)), V, X)
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate(
        [cross(w, X[..., :3]), cross(v, X[..., :3]) + cross(w, X[..., 3:])], axis=-1
    )


def ad_star_mul(V, F):
    """``ad*_V F = ad_V^T F``."""
    if _single([], [V, F]):
        w, v, m, f = V[:3].tolist(), V[3:].tolist(), F[:3].tolist(), F[3:].tolist()
        return _out([-x for x in _add(_c(w, m), _c(v, f))] + [-x for x in _c(w, f)],
                    V, F)
    w, v = V[..., :3], V[..., 3:]
    m, f = F[..., :3], F[..., 3:]
    return np.concatenate([-cross(w, m) - cross(v, f), -cross(w, f)], axis=-1)


def Ad_matrix(R, p):
    """The 6x6 ``Ad_T = [[R, 0], [[p] R, R]]`` from ``R`` and ``p`` (no
    validation)."""
    return _lower_blocks(R, skew(p) @ R)


def Ad_inv_matrix(R, p):
    """The 6x6 ``Ad_{T^-1} = [[R^T, 0], [-R^T [p], R^T]]`` from ``R`` and ``p``."""
    Rt = np.swapaxes(R, -1, -2)
    return _lower_blocks(Rt, -Rt @ skew(p))


def skew(w):
    """``[w]`` (..., 3, 3) with ``[w] x = w x x`` for ``w`` (..., 3), without
    validation (:func:`liedyn.lie.skew` validates, then calls this).

    >>> skew(np.array([1, 2, 3])).tolist()
    [[0, -3, 2], [3, 0, -1], [-2, 1, 0]]
    """
    W = np.zeros(w.shape + (3,), dtype=np.result_type(w, int))
    W[..., 0, 1], W[..., 0, 2], W[..., 1, 2] = -w[..., 2], w[..., 1], -w[..., 0]
    W[..., 1, 0], W[..., 2, 0], W[..., 2, 1] = w[..., 2], -w[..., 1], w[..., 0]
    return W


def _lower_blocks(A, C):
    """``[[A, 0], [C, A]]`` from 3x3 blocks."""
    out = np.zeros(np.broadcast_shapes(A.shape, C.shape)[:-2] + (6, 6),
                   dtype=np.result_type(A, C))
    out[..., :3, :3] = out[..., 3:, 3:] = A
    out[..., 3:, :3] = C
    return out


def homogeneous(R, p):
    """The 4x4 matrices ``[[R, p], [0, 1]]`` from (..., 3, 3) and (..., 3)
    arrays."""
    T = np.zeros(np.broadcast_shapes(R.shape[:-2], p.shape[:-1]) + (4, 4),
                 dtype=np.result_type(R, p))
    T[..., :3, :3], T[..., :3, 3], T[..., 3, 3] = R, p, 1
    return T


def inverse(T):
    """``T^-1 = [[R^T, -R^T p], [0, 1]]`` (Kim (2012), eq. (4)) for ``T`` (..., 4,
    4), without validation (:func:`liedyn.lie.inverse` validates, then calls this).

    >>> inverse(homogeneous(np.eye(3), np.array([1.0, 2.0, 3.0])))[:3, 3].tolist()
    [-1.0, -2.0, -3.0]
    """
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    return homogeneous(Rt, -matvec(Rt, T[..., :3, 3]))


def compose(R1, p1, R2, p2):
    """``T1 T2 = (R1 R2, R1 p2 + p1)`` for ``T1 = (R1, p1)``, ``T2 = (R2, p2)``."""
    return R1 @ R2, rot(R1, p2) + p1


def matvec(A, x):
    """``A x`` for (..., m, n) and (..., n): one matrix broadcast over a batch is
    used once; stacks of small matrices go through ``einsum``.
    """
    if (
        A.ndim > 2
        and A.size
        and A.shape[:-2] == x.shape[:-1]
        and not any(A.strides[:-2])
    ):
        A = A[(0,) * (A.ndim - 2)]             # one matrix broadcast over x's batch
    if A.ndim == 2:
        return x @ A.T
    if x.ndim == 1 and A.dtype != object:
        return A @ x
    return np.einsum("...ij,...j->...i", A, x)
