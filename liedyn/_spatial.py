"""Structure-exploiting spatial products used inside the recursive algorithms.

The 6x6 matrices of :mod:`liedyn.lie` are what the book writes; inside the recursions the same
products are computed from ``R`` and ``p`` directly, which avoids building 6x6 matrices and
skips the input validation that the public functions do (the algorithms validate their inputs
once, at the entry). Every function is batched over leading dimensions and dtype-generic.

With ``T = (R, p)``:

* ``Ad_inv_mul(R, p, V)``   = ``Ad_{T^-1} V``  = ``(R^T w, R^T (v - p x w))``
* ``Ad_mul(R, p, V)``       = ``Ad_T V``       = ``(R w, p x R w + R v)``
* ``Ad_star_inv_mul(R, p, F)`` = ``Ad*_{T^-1} F`` = ``(R m + p x R f, R f)``
* ``Ad_star_mul(R, p, F)``  = ``Ad*_T F``      = ``(R^T (m - p x f), R^T f)``
* ``ad_mul(V, X)``          = ``ad_V X``       = ``(w x wx, v x wx + w x vx)``
* ``ad_star_mul(V, F)``     = ``ad*_V F``      = ``(-(w x m) - v x f, -(w x f))``
"""
import numpy as np


_NEXT, _PREV = [1, 2, 0], [2, 0, 1]


def cross(a, b):
    """Cross product of (..., 3) arrays: ``(a x b)_i = a_{i+1} b_{i+2} - a_{i+2} b_{i+1}``.

    Written out (``np.cross`` costs about 40 us on small arrays here); single vectors go through
    Python scalars, which also works for complex and sympy entries.
    """
    if a.ndim == 1 and b.ndim == 1:
        a0, a1, a2 = a.tolist()
        b0, b1, b2 = b.tolist()
        return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0],
                        dtype=np.result_type(a, b))
    return a[..., _NEXT] * b[..., _PREV] - a[..., _PREV] * b[..., _NEXT]


def rot(R, x):
    """``R x`` for (..., 3, 3) and (..., 3)."""
    return matvec(R, x)


def rot_T(R, x):
    """``R^T x`` for (..., 3, 3) and (..., 3)."""
    if R.ndim == 2:
        return x @ R
    return np.einsum("...ji,...j->...i", R, x)


def Ad_inv_mul(R, p, V):
    """``Ad_{T^-1} V`` for ``T = (R, p)``."""
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate([rot_T(R, w), rot_T(R, v - cross(p, w))], axis=-1)


def Ad_mul(R, p, V):
    """``Ad_T V`` for ``T = (R, p)``."""
    Rw = rot(R, V[..., :3])
    return np.concatenate([Rw, cross(p, Rw) + rot(R, V[..., 3:])], axis=-1)


def Ad_star_inv_mul(R, p, F):
    """``Ad*_{T^-1} F`` for ``T = (R, p)``: a wrench in the child frame, expressed in the parent."""
    Rf = rot(R, F[..., 3:])
    return np.concatenate([rot(R, F[..., :3]) + cross(p, Rf), Rf], axis=-1)


def Ad_star_mul(R, p, F):
    """``Ad*_T F`` for ``T = (R, p)``."""
    m, f = F[..., :3], F[..., 3:]
    return np.concatenate([rot_T(R, m - cross(p, f)), rot_T(R, f)], axis=-1)


def ad_mul(V, X):
    """``ad_V X``, the Lie bracket ``[V, X]``."""
    w, v = V[..., :3], V[..., 3:]
    return np.concatenate([cross(w, X[..., :3]), cross(v, X[..., :3]) + cross(w, X[..., 3:])],
                          axis=-1)


def ad_star_mul(V, F):
    """``ad*_V F = ad_V^T F``."""
    w, v = V[..., :3], V[..., 3:]
    m, f = F[..., :3], F[..., 3:]
    return np.concatenate([-cross(w, m) - cross(v, f), -cross(w, f)], axis=-1)


def Ad_matrix(R, p):
    """The 6x6 matrix ``Ad_T`` from ``R`` and ``p`` (no validation)."""
    return _blocks(R, np.zeros_like(R), skew(p) @ R, R)


def Ad_inv_matrix(R, p):
    """The 6x6 matrix ``Ad_{T^-1}`` from ``R`` and ``p`` (no validation)."""
    Rt = np.swapaxes(R, -1, -2)
    return _blocks(Rt, np.zeros_like(Rt), -Rt @ skew(p), Rt)


def skew(w):
    """``[w]`` without validation."""
    z = np.zeros_like(w[..., 0])
    return np.stack([np.stack([z, -w[..., 2], w[..., 1]], -1),
                     np.stack([w[..., 2], z, -w[..., 0]], -1),
                     np.stack([-w[..., 1], w[..., 0], z], -1)], -2)


def _blocks(A, B, C, D):
    return np.concatenate([np.concatenate([A, B], -1), np.concatenate([C, D], -1)], -2)


def homogeneous(R, p):
    """The 4x4 matrices ``[[R, p], [0, 1]]`` from (..., 3, 3) and (..., 3) arrays (no validation)."""
    T = np.zeros(np.broadcast_shapes(R.shape[:-2], p.shape[:-1]) + (4, 4),
                 dtype=np.result_type(R, p))
    T[..., :3, :3], T[..., :3, 3], T[..., 3, 3] = R, p, 1
    return T


def inverse(T):
    """``T^-1 = [[R^T, -R^T p], [0, 1]]`` (Kim (2012), eq. (4)) without validation."""
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    return homogeneous(Rt, -matvec(Rt, T[..., :3, 3]))


def compose(R1, p1, R2, p2):
    """``T1 T2`` for ``T1 = (R1, p1)``, ``T2 = (R2, p2)``: returns ``(R1 R2, R1 p2 + p1)``."""
    return R1 @ R2, rot(R1, p2) + p1


def matvec(A, x):
    """``A x`` for (..., m, n) and (..., n), with fast paths when either is unbatched.

    Stacks of small matrices go through ``einsum``, about twice as fast as ``matmul`` there.
    """
    if A.ndim == 2:
        return x @ A.T
    if x.ndim == 1 and A.dtype != object:
        return A @ x
    return np.einsum("...ij,...j->...i", A, x)
