"""Lie-group calculus on SO(3) and SE(3): the operators of Kim (2012), Sections
1.1-1.4, derived in :ref:`sec-rigid-body-motion`.

A twist ``V = (w, v)`` (any element of se(3)) is a 6-vector, angular part first,
with 4x4 form ``hat(V)`` (Kim eq. (5)); a wrench ``F = (m, f)`` has the moment first
(Kim eq. (12)); ``T`` in SE(3) is a 4x4 homogeneous matrix, ``T_ab`` frame {b} seen
from {a}. Every function takes leading batch dimensions (``w`` (..., 3), ``V``
(..., 6), ``R`` (..., 3, 3), ``T`` (..., 4, 4)) and returns the same ones. The
matrix operators have no branches and run on sympy object arrays; ``exp_*`` and
``dexp*`` run on complex arrays (complex step) and use Taylor series near 0.
"""
import numpy as np

from . import _checks, _spatial
from ._math import cos, is_symbolic, sin, sqrt

__all__ = ["skew", "unskew", "hat", "vee", "exp_so3", "log_so3", "exp_se3",
           "log_se3", "inverse", "Ad", "Ad_inv", "ad", "Ad_star", "ad_star",
           "quat_multiply", "quat_conjugate", "quat_to_rot",
           "rot_to_quat", "exp_quat", "log_quat", "make_transform"]


# --- so(3) and se(3) as matrices --------------------------------------------------
def skew(w):
    """The 3x3 skew-symmetric matrix ``[w]`` with ``[w] x = w x x``.

    Kim (2012), definition below Kim's eq. (5).

    Parameters
    ----------
    w : (..., 3) array

    Returns
    -------
    W : (..., 3, 3) array

    Examples
    --------
    >>> skew([1.0, 2.0, 3.0])
    array([[ 0., -3.,  2.],
           [ 3.,  0., -1.],
           [-2.,  1.,  0.]])
    """
    return _spatial.skew(_checks.array("w", w, (3,)))


def unskew(W):
    """Inverse of :func:`skew`: ``w`` from ``[w]`` (its lower triangle).

    Parameters
    ----------
    W : (..., 3, 3) array

    Returns
    -------
    w : (..., 3) array

    Examples
    --------
    >>> unskew(skew([1.0, 2.0, 3.0]))
    array([1., 2., 3.])
    """
    W = _checks.array("W", W, (3, 3))
    return np.stack([W[..., 2, 1], W[..., 0, 2], W[..., 1, 0]], axis=-1)


def hat(xi):
    """The 4x4 matrix ``[[ [w], v ], [0, 0]]`` of ``xi = (w, v)`` in se(3).

    Kim (2012), eq. (5).

    Parameters
    ----------
    xi : (..., 6) array

    Returns
    -------
    X : (..., 4, 4) array

    Examples
    --------
    >>> hat([1, 2, 3, 4, 5, 6])
    array([[ 0., -3.,  2.,  4.],
           [ 3.,  0., -1.,  5.],
           [-2.,  1.,  0.,  6.],
           [ 0.,  0.,  0.,  0.]])
    """
    xi = _checks.array("xi", xi, (6,))
    X = np.zeros(xi.shape[:-1] + (4, 4), dtype=xi.dtype)
    X[..., :3, :3] = skew(xi[..., :3])
    X[..., :3, 3] = xi[..., 3:]
    return X


def vee(X):
    """Inverse of :func:`hat`: the 6-vector ``(w, v)`` of a 4x4 se(3) matrix.

    Parameters
    ----------
    X : (..., 4, 4) array

    Returns
    -------
    xi : (..., 6) array

    Examples
    --------
    >>> vee(hat([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    array([1., 2., 3., 4., 5., 6.])
    """
    X = _checks.array("X", X, (4, 4))
    return np.concatenate([unskew(X[..., :3, :3]), X[..., :3, 3]], axis=-1)


def make_transform(R, p):
    """The 4x4 homogeneous matrix ``T = [[R, p], [0, 1]]`` (Kim (2012), eq. (3)).

    Parameters
    ----------
    R : (..., 3, 3) array, a rotation
    p : (..., 3) array

    Returns
    -------
    T : (..., 4, 4) array

    Examples
    --------
    >>> make_transform(np.eye(3), [1.0, 2.0, 3.0])[:3, 3]
    array([1., 2., 3.])
    """
    R = _checks.rotation("R", _checks.array("R", R, (3, 3)))
    p = _checks.array("p", p, (3,))
    shape = np.broadcast_shapes(R.shape[:-2], p.shape[:-1])
    T = np.zeros(shape + (4, 4), dtype=np.result_type(R, p))
    T[..., :3, :3] = R
    T[..., :3, 3] = p
    T[..., 3, 3] = 1
    return T


# --- Coefficient functions of theta, with Taylor series near 0 --------------------
SMALL_T2 = 0.25
"""``theta^2`` below which :func:`coefficient` takes the 8-term Taylor series
(``theta < 0.5``; error below 1e-17)."""


def coefficient(t2, exact, series):
    """``exact(theta)`` at theta^2 = t2, or its series in t2 (coefficients of 1, t2,
    t2^2, ...) below theta = 0.5; symbolic input takes the exact formula.

    >>> float(coefficient(0.01, lambda t: np.sin(t) / t, A_SERIES))   # sin(0.1)/0.1
    0.9983341664682815
    """
    if is_symbolic(t2):
        return exact(sqrt(t2))
    t2 = np.asarray(t2)
    small = t2.real < SMALL_T2
    theta = np.sqrt(np.where(small, 1.0, t2))
    approx = series[-1]
    for c in series[-2::-1]:                                   # Horner's rule
        approx = approx * t2 + c
    return np.where(small, approx, exact(theta))


# the series of coef_A, coef_B, coef_C; the compiled kernels evaluate the same ones
# (liedyn.engine.jit.exp_coefficients)
A_SERIES = (1, -1/6, 1/120, -1/5040,
            1/362880, -1/39916800, 1/6227020800, -1/1307674368000)
B_SERIES = (1/2, -1/24, 1/720, -1/40320,
            1/3628800, -1/479001600, 1/87178291200, -1/20922789888000)
C_SERIES = (1 / 6, -1 / 120, 1 / 5040, -1 / 362880, 1 / 39916800, -1 / 6227020800,
            1 / 1307674368000, -1 / 355687428096000)


def coef_A(t2):  # sin(theta) / theta
    """``sin(theta) / theta`` at ``theta^2 = t2`` (...), the ``[w]`` term of
    :func:`exp_so3` (Rodrigues' formula, Lynch and Park (2017), eq. (3.51)).

    >>> float(coef_A(0.0))
    1.0
    """
    return coefficient(t2, lambda t: sin(t) / t, A_SERIES)


def coef_B(t2):  # (1 - cos(theta)) / theta^2, by the half angle (no cancellation)
    """``(1 - cos(theta)) / theta^2`` at ``theta^2 = t2`` (...), the ``[w]^2`` term
    of :func:`exp_so3` (Lynch and Park (2017), eq. (3.51)) and the ``[w]`` term of
    :func:`liedyn.dexp.dexp_so3` (From (2012), eq. (29)).

    >>> float(coef_B(0.0))
    0.5
    """
    return coefficient(t2, lambda t: 2 * sin(t / 2) ** 2 / t ** 2, B_SERIES)


def coef_C(t2):  # (theta - sin(theta)) / theta^3
    """``(theta - sin(theta)) / theta^3`` at ``theta^2 = t2`` (...), the ``[w]^2``
    term of :func:`liedyn.dexp.dexp_so3` (From (2012), eq. (29)).

    >>> round(float(coef_C(0.0)), 12)
    0.166666666667
    """
    return coefficient(t2, lambda t: (t - sin(t)) / t**3, C_SERIES)


def coef_D(t2):  # (1 - (theta/2) cot(theta/2)) / theta^2, the [w]^2 term of dexp^-1
    """``(1 - (theta/2) cot(theta/2)) / theta^2`` at ``theta^2 = t2`` (...), the
    ``[w]^2`` term of :func:`liedyn.dexp.dexp_inv_so3` (the inverse of From (2012),
    eq. (29)).

    >>> round(float(coef_D(0.0)), 12)
    0.083333333333
    """
    return coefficient(
        t2,
        lambda t: (1 - (t / 2) * cos(t / 2) / sin(t / 2)) / t**2,
        (1 / 12, 1 / 720, 1 / 30240, 1 / 1209600, 1 / 47900160, 691 / 1307674368000,
         1 / 74724249600, 3617 / 10670622842880000),
    )


def theta_squared(w):
    """theta^2 = w . w, without conjugation (analytic: complex step works).

    >>> float(theta_squared(np.array([3.0, 0.0, 4.0])))
    25.0
    """
    return np.sum(w * w, axis=-1)


def scale(c, M):
    """Scalars ``c`` (...) times matrices ``M`` (..., n, n).

    >>> scale(np.array([1.0, 2.0]), np.eye(2)).tolist()
    [[[1.0, 0.0], [0.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]]
    """
    return np.asarray(c)[..., None, None] * M


# --- Exponential and logarithm ----------------------------------------------------
def exp_so3(w):
    """Rodrigues' formula ``exp([w]) = I + sin(t)/t [w] + (1 - cos(t))/t^2 [w]^2``.

    Kim (2012), Section 1.1; Lynch and Park (2017), eq. (3.51). ``t = |w|``.

    Parameters
    ----------
    w : (..., 3) array, rotation vector (axis times angle)

    Returns
    -------
    R : (..., 3, 3) array in SO(3)

    Examples
    --------
    >>> np.round(exp_so3([0.0, 0.0, np.pi / 2]), 12)
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    w = _checks.array("w", w, (3,))
    W = skew(w)
    t2 = theta_squared(w)
    return np.eye(3) + scale(coef_A(t2), W) + scale(coef_B(t2), W @ W)


def log_so3(R):
    """Inverse of :func:`exp_so3`: the rotation vector ``w``, ``|w|`` in [0, pi].

    The angle is ``atan2(|vee(R - R^T)| / 2, (tr R - 1) / 2)``; near pi the axis
    comes from ``(R + R^T)/2 = cos(t) I + (1 - cos(t)) a a^T``, its sign from the
    skew part. ``R`` must be within ``liedyn._checks.ROTATION_TOL`` of SO(3).

    Parameters
    ----------
    R : (..., 3, 3) real array in SO(3)

    Returns
    -------
    w : (..., 3) array

    Examples
    --------
    >>> log_so3(exp_so3([0.1, -0.2, 0.3]))
    array([ 0.1, -0.2,  0.3])
    """
    R = _checks.rotation("R", _checks.array("R", R, (3, 3)))
    if R.dtype.kind != "f":
        raise TypeError("argument 'R': log_so3 needs a real float array, got "
                        f"dtype {R.dtype}")
    s = unskew(R - np.swapaxes(R, -1, -2)) / 2          # sin(t) a
    c = np.clip((np.trace(R, axis1=-2, axis2=-1) - 1) / 2, -1.0, 1.0)  # cos(t)
    sin_t = np.linalg.norm(s, axis=-1)
    t = np.arctan2(sin_t, c)
    # w = t / sin(t) s, with t / sin(t) = 1 + t^2/6 + ... near 0
    ratio = np.where(t < 1e-4, 1 + t**2 / 6,
                     t / np.where((t < 1e-4) | (c < -0.9), 1.0, sin_t))
    w_generic = ratio[..., None] * s
    # near pi: the column of a a^T with the largest diagonal entry, signed by s
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        aaT = (
            (R + np.swapaxes(R, -1, -2)) / 2 - c[..., None, None] * np.eye(3)
        ) / np.maximum(1 - c, 1e-300)[..., None, None]
        k = np.argmax(np.diagonal(aaT, axis1=-2, axis2=-1), axis=-1)
        col = np.take_along_axis(aaT, k[..., None, None], axis=-1)[..., 0]
        a = col / np.sqrt(
            np.maximum(np.take_along_axis(col, k[..., None], axis=-1), 1e-300))
        a = np.where(np.sum(a * s, axis=-1, keepdims=True) < 0, -a, a)
        w_pi = t[..., None] * a
    near_pi = (c < -0.9)[..., None]
    return np.where(near_pi, w_pi, w_generic)


def exp_se3(xi):
    """The exponential ``T = [[exp([w]), J_l(w) v], [0, 1]]`` of ``xi = (w, v)``.

    Kim (2012), Section 1.1; Lynch and Park (2017), Prop. 3.25. ``J_l`` is the left
    Jacobian of :func:`liedyn.dexp.dexp_so3`.

    Parameters
    ----------
    xi : (..., 6) array

    Returns
    -------
    T : (..., 4, 4) array in SE(3)

    Examples
    --------
    >>> # half a turn of a screw about z
    >>> T = exp_se3([0.0, 0.0, np.pi, 0.0, 1.0, 0.0])
    >>> np.round(T[:3, 3], 12)
    array([-0.63661977,  0.        ,  0.        ])
    """
    xi = _checks.array("xi", xi, (6,))
    w, v = xi[..., :3], xi[..., 3:]
    W, t2 = skew(w), theta_squared(w)
    J_l = np.eye(3) + scale(coef_B(t2), W) + scale(coef_C(t2), W @ W)  # left dexp
    T = np.zeros(xi.shape[:-1] + (4, 4), dtype=xi.dtype)
    T[..., :3, :3] = exp_so3(w)
    T[..., :3, 3] = (J_l @ v[..., None])[..., 0]
    T[..., 3, 3] = 1
    return T


def log_se3(T):
    """Inverse of :func:`exp_se3`: ``w = log_so3(R)``, ``v = J_l(w)^-1 p``.

    Lynch and Park (2017), Section 3.3.3.2; ``|w| <= pi``.

    Parameters
    ----------
    T : (..., 4, 4) real array in SE(3)

    Returns
    -------
    xi : (..., 6) array

    Examples
    --------
    >>> xi = np.array([0.3, -0.1, 0.2, 1.0, 2.0, 3.0])
    >>> np.allclose(log_se3(exp_se3(xi)), xi)
    True
    """
    T = _checks.homogeneous("T", T)
    w = log_so3(T[..., :3, :3])
    W, t2 = skew(w), theta_squared(w)
    J_l_inv = np.eye(3) - W / 2 + scale(coef_D(t2), W @ W)   # dexp_inv_so3, left
    v = (J_l_inv @ T[..., :3, 3, None])[..., 0]
    return np.concatenate([w, v], axis=-1)


def inverse(T):
    """``T^-1 = [[R^T, -R^T p], [0, 1]]`` (Kim (2012), eq. (4)).

    Parameters
    ----------
    T : (..., 4, 4) array in SE(3)

    Returns
    -------
    Tinv : (..., 4, 4) array

    Examples
    --------
    >>> T = exp_se3([0.1, 0.2, 0.3, 1.0, 2.0, 3.0])
    >>> np.allclose(inverse(T) @ T, np.eye(4))
    True
    """
    return _spatial.inverse(_checks.homogeneous("T", T))


# --- Adjoint and coadjoint operators ----------------------------------------------
def blocks(A, B, C, D):
    """The block matrices [[A, B], [C, D]] from equally batched blocks (..., n, n)
    (the 6x6 operators from 3x3 blocks).

    >>> blocks(*np.eye(1)[None].repeat(4, 0)).astype(int).tolist()
    [[1, 1], [1, 1]]
    """
    top = np.concatenate([A, B], axis=-1)
    bottom = np.concatenate([C, D], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def Ad(T):
    """The adjoint matrix ``Ad_T = [[R, 0], [[p] R, R]]`` of ``T = (R, p)``.

    Kim (2012), eqs. (6)-(7): ``Ad_T xi = T xi T^-1``; ``Ad_{T_ab}`` maps a twist
    in {b} to the same twist in {a} (Kim eq. (11)).

    Parameters
    ----------
    T : (..., 4, 4) array in SE(3)

    Returns
    -------
    AdT : (..., 6, 6) array

    Examples
    --------
    >>> T = make_transform(np.eye(3), [1.0, 0.0, 0.0])
    >>> # spin about z, seen 1 m away
    >>> V = Ad(T) @ np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    >>> V.tolist() == [0.0, 0.0, 1.0, 0.0, -1.0, 0.0]  # exact: sums of 0s and 1s
    True
    """
    T = _checks.homogeneous("T", T)
    R, p = T[..., :3, :3], T[..., :3, 3]
    Z = np.zeros_like(R)
    return blocks(R, Z, skew(p) @ R, R)


def Ad_inv(T):
    """``Ad_{T^-1} = [[R^T, 0], [-R^T [p], R^T]]``, without inverting anything.

    Kim (2012), eq. (7) applied to Kim's eq. (4); Table 2's
    ``Ad_{T_{lambda(i),i}^-1}``.

    Parameters
    ----------
    T : (..., 4, 4) array in SE(3)

    Returns
    -------
    AdTinv : (..., 6, 6) array, ``inv(Ad(T))``

    Examples
    --------
    >>> T = exp_se3([0.1, 0.2, 0.3, 1.0, 2.0, 3.0])
    >>> np.allclose(Ad_inv(T) @ Ad(T), np.eye(6))
    True
    """
    T = _checks.homogeneous("T", T)
    Rt = np.swapaxes(T[..., :3, :3], -1, -2)
    Z = np.zeros_like(Rt)
    return blocks(Rt, Z, -Rt @ skew(T[..., :3, 3]), Rt)


def ad(V):
    """The Lie bracket matrix ``ad_V = [[[w], 0], [[v], [w]]]`` of ``V = (w, v)``.

    Kim (2012), eq. (27): ``ad_V X = [V, X] = V X - X V`` in 4x4 form (Lemma 1,
    Kim eq. (26)).

    Parameters
    ----------
    V : (..., 6) array

    Returns
    -------
    adV : (..., 6, 6) array

    Examples
    --------
    >>> X, Y = np.eye(6)[0], np.eye(6)[1]     # unit rotations about x and y
    >>> ad(X) @ Y                              # [x, y] = z
    array([0., 0., 1., 0., 0., 0.])
    """
    V = _checks.array("V", V, (6,))
    W = skew(V[..., :3])
    return blocks(W, np.zeros_like(W), skew(V[..., 3:]), W)


def Ad_star(T):
    """The coadjoint matrix ``Ad*_T = Ad_T^T = [[R^T, -R^T [p]], [0, R^T]]``.

    Kim (2012), eq. (8); ``F_b = Ad*_{T_ab} F_a`` maps a wrench in {a} to {b}
    (Kim eq. (13)).

    Parameters
    ----------
    T : (..., 4, 4) array in SE(3)

    Returns
    -------
    AdsT : (..., 6, 6) array

    Examples
    --------
    >>> T = make_transform(np.eye(3), [1.0, 0.0, 0.0])
    >>> # a force along y, 1 m away
    >>> Ad_star(T) @ np.array([0.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    array([ 0.,  0., -1.,  0.,  1.,  0.])
    """
    return np.swapaxes(Ad(T), -1, -2)


def ad_star(V):
    """The small coadjoint ``ad*_V = ad_V^T = [[-[w], -[v]], [0, -[w]]]``.

    Kim (2012), eq. (29), as in Lemma 2, Kim eq. (28), and in
    the equation of motion (31).

    Parameters
    ----------
    V : (..., 6) array

    Returns
    -------
    adsV : (..., 6, 6) array

    Examples
    --------
    >>> V = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    >>> ad_star(V) @ np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    array([ 0.,  0.,  0.,  0., -1.,  0.])
    """
    return np.swapaxes(ad(V), -1, -2)


# --- Unit quaternions q = (w, x, y, z): spherical and free joint configurations ---
def quat_multiply(q1, q2):
    """Hamilton product ``q1 * q2`` of (..., 4) quaternions ``(w, x, y, z)``.

    >>> quat_multiply([0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0])   # i j = k
    array([0., 0., 0., 1.])
    """
    q1, q2 = _checks.array("q1", q1, (4,)), _checks.array("q2", q2, (4,))
    w1, x1, y1, z1 = np.moveaxis(q1, -1, 0)
    w2, x2, y2, z2 = np.moveaxis(q2, -1, 0)
    return np.stack([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2,
                     w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2,
                     w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2,
                     w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2], axis=-1)


def quat_conjugate(q):
    """The conjugate ``(w, -x, -y, -z)``: the inverse of a unit quaternion.

    >>> quat_conjugate([1.0, 2.0, 3.0, 4.0])
    array([ 1., -2., -3., -4.])
    """
    q = _checks.array("q", q, (4,))
    return q * np.array([1, -1, -1, -1])


def quat_to_rot(q):
    """The (..., 3, 3) rotation ``(w^2 - |u|^2) I + 2 u u^T + 2 w [u]`` of
    ``q = (w, u)`` (..., 4).

    >>> np.round(quat_to_rot([np.cos(np.pi / 4), 0.0, 0.0, np.sin(np.pi / 4)]), 12)
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    q = _checks.array("q", q, (4,))
    w, u = q[..., 0], q[..., 1:]
    return (
        scale(w * w - np.sum(u * u, axis=-1), np.eye(3))
        + 2 * u[..., :, None] * u[..., None, :]
        + 2 * w[..., None, None] * skew(u))


def exp_quat(w):
    """The unit quaternion ``(cos(t/2), sin(t/2)/t w)`` (..., 4) of ``exp([w])``,
    ``t = |w|``.

    >>> phi = [0.3, 0.2, -0.1]
    >>> np.allclose(quat_to_rot(exp_quat(phi)), exp_so3(phi))
    True
    """
    w = _checks.array("w", w, (3,))
    t2 = theta_squared(w)
    half_sinc = coefficient(
        t2,
        lambda t: sin(t / 2) / t,
        (1 / 2, -1 / 48, 1 / 3840, -1 / 645120, 1 / 185794560, -1 / 81749606400,
         1 / 51011754393600, -1 / 42849873690624000),
    )
    half_cos = coefficient(
        t2,
        lambda t: cos(t / 2),
        (1, -1 / 8, 1 / 384, -1 / 46080, 1 / 10321920, -1 / 3715891200,
         1 / 1961990553600, -1 / 1428329123020800),
    )
    return np.concatenate(
        [np.asarray(half_cos)[..., None], np.asarray(half_sinc)[..., None] * w],
        axis=-1)


def log_quat(q):
    """Inverse of :func:`exp_quat`: the rotation vector (..., 3), ``|w| <= pi``, of
    ``q`` or ``-q``.

    >>> log_quat(exp_quat([0.3, 0.2, -0.1]))
    array([ 0.3,  0.2, -0.1])
    """
    q = _checks.array("q", q, (4,))
    q = np.where(q[..., :1] < 0, -q, q)
    s = np.linalg.norm(q[..., 1:], axis=-1)
    t = 2 * np.arctan2(s, q[..., 0])
    ratio = np.where(s < 1e-8, 2 / np.where(s < 1e-8, 1.0, q[..., 0]),
                     t / np.where(s < 1e-8, 1.0, s))
    return ratio[..., None] * q[..., 1:]


def rot_to_quat(R):
    """The unit quaternion (..., 4), ``w >= 0``, of a rotation:
    ``exp_quat(log_so3(R))``.

    >>> rot_to_quat(np.eye(3))
    array([1., 0., 0., 0.])
    """
    return exp_quat(log_so3(R))
