"""Jacobians of the exponential on SO(3) and SE(3): ``dexp`` and its inverse, and
the derivatives of ``dexp`` on SO(3) that the second-order partials need; derived in
:ref:`sec-rigid-body-motion` and used in :ref:`sec-derivatives`.

Conventions as in :mod:`liedyn.lie`: ``w`` (..., 3), twists ``xi = (w, v)``
(..., 6), leading batch dimensions; every function runs on complex arrays (complex
step) and uses Taylor series near 0 (``liedyn.lie.coefficient``).
"""
import numpy as np

from . import _checks
from ._math import cos, sin
from .lie import (
    blocks,
    coef_B,
    coef_C,
    coef_D,
    coefficient,
    scale,
    skew,
    theta_squared,
)

__all__ = ["dexp_so3", "dexp_so3_dot", "dexp_so3_d2", "dexp_inv_so3", "dexp",
           "dexp_inv"]

# the series of coef_E and coef_G; the compiled kernels evaluate the same ones
# (liedyn.engine.jit.exp_coefficients)
E_SERIES = (1 / 24, -1 / 720, 1 / 40320, -1 / 3628800, 1 / 479001600,
            -1 / 87178291200, 1 / 20922789888000, -1 / 6402373705728000)
G_SERIES = (1 / 120, -1 / 2520, 1 / 120960, -1 / 9979200, 1 / 1245404160,
            -1 / 217945728000, 1 / 50812489728000, -1 / 15205637551104000)


def coef_E(t2):  # (theta^2 + 2 cos(theta) - 2) / (2 theta^4)
    """``(theta^2 + 2 cos(theta) - 2) / (2 theta^4)`` at ``theta^2 = t2`` (...), a
    term of :func:`dexp_so3_dot` (Kim (2012), eq. (41)) and of ``Q`` in
    :func:`dexp`.

    >>> round(float(coef_E(0.0)), 12)
    0.041666666667
    """
    return coefficient(
        t2, lambda t: (t**2 + 2 * cos(t) - 2) / (2 * t**4), E_SERIES)


def coef_G(t2):  # (2 theta - 3 sin(theta) + theta cos(theta)) / (2 theta^5)
    """``(2 theta - 3 sin(theta) + theta cos(theta)) / (2 theta^5)`` at ``theta^2 =
    t2`` (...), a term of :func:`dexp_so3_dot` (Kim (2012), eq. (41)) and of ``Q``
    in :func:`dexp`.

    >>> round(float(coef_G(0.0)), 12)
    0.008333333333
    """
    return coefficient(
        t2, lambda t: (2 * t - 3 * sin(t) + t * cos(t)) / (2 * t**5), G_SERIES)


def _Ep(t2):  # dE/d(theta^2)
    return coefficient(
        t2,
        lambda t: (4 - 4 * cos(t) - t**2 - t * sin(t)) / (2 * t**6),
        (-1 / 720, 1 / 20160, -1 / 1209600, 1 / 119750400, -1 / 17435658240,
         1 / 3487131648000, -1 / 914624815104000, 1 / 304112751022080000),
    )


def _Gp(t2):  # dG/d(theta^2)
    return coefficient(
        t2,
        lambda t: (15 * sin(t) - 8 * t - 7 * t * cos(t) - t**2 * sin(t))
        / (4 * t**7),
        (-1 / 2520, 1 / 60480, -1 / 3326400, 1 / 311351040, -1 / 43589145600,
         1 / 8468748288000, -1 / 2172233935872000, 1 / 709596419051520000),
    )


def _sign(side):
    return {"left": 1.0, "right": -1.0}[
        _checks.choice("side", side, ("left", "right"))]


def dexp_so3(w, side="right"):
    """Left or right Jacobian of the exponential on SO(3).

    Left: ``J_l(w) = I + (1 - cos t)/t^2 [w] + (t - sin t)/t^3 [w]^2``, with
    ``d/dt exp([w]) exp([w])^T = [J_l(w) dw]`` (spatial angular velocity). Right:
    ``J_r(w) = J_l(-w)``, with ``exp([w])^T d/dt exp([w]) = [J_r(w) dw]`` (body
    angular velocity): From (2012), eq. (29), ``S(phi) = I - ad/2 + ...`` on SO(3).

    Parameters
    ----------
    w : (..., 3) array
    side : {"right", "left"}

    Returns
    -------
    J : (..., 3, 3) array

    Examples
    --------
    >>> np.allclose(dexp_so3([0.0, 0.0, 0.0]), np.eye(3))
    True
    """
    w = _checks.array("w", w, (3,))
    W = _sign(side) * skew(w)
    t2 = theta_squared(w)
    return np.eye(3) + scale(coef_B(t2), W) + scale(coef_C(t2), W @ W)


def dexp_so3_dot(w, dw, side="right"):
    """Time derivative of :func:`dexp_so3` along ``w(t)`` with rate ``dw``.

    With ``J = I + B W + C W^2`` (``W = +-[w]``), ``dB/d(t^2) = E - C/2`` and
    ``dC/d(t^2) = -G``: ``dJ/dt = 2 (w . dw) ((E - C/2) W - G W^2) + B dW
    + C (dW W + W dW)``; the ``dS`` of a spherical joint in exponential coordinates
    (Kim (2012), eq. (41)).

    Parameters
    ----------
    w, dw : (..., 3) arrays
    side : {"right", "left"}

    Returns
    -------
    dJ : (..., 3, 3) array

    Examples
    --------
    >>> w, dw, h = np.array([0.3, -0.5, 0.2]), np.array([1.0, 0.5, -2.0]), 1e-6
    >>> fd = (dexp_so3(w + h * dw) - dexp_so3(w - h * dw)) / (2 * h)
    >>> np.allclose(dexp_so3_dot(w, dw), fd, atol=1e-8)
    True
    """
    w, dw = _checks.array("w", w, (3,)), _checks.array("dw", dw, (3,))
    s = _sign(side)
    W, dW = s * skew(w), s * skew(dw)
    t2 = theta_squared(w)
    B, C, E, G = coef_B(t2), coef_C(t2), coef_E(t2), coef_G(t2)
    rate = 2 * np.sum(w * dw, axis=-1)
    return (scale(rate * (E - C / 2), W) - scale(rate * G, W @ W) + scale(B, dW)
            + scale(C, dW @ W + W @ dW))


def dexp_so3_d2(w, a, b, side="right"):
    """Second directional derivative ``sum_kl d^2 J / dw_k dw_l a_k b_l`` of
    :func:`dexp_so3`.

    :func:`dexp_so3_dot` differentiated once more (``B'' = E' + G/2``,
    ``C'' = -G'`` in ``t^2``); it enters the derivative of a spherical joint's
    ``dS`` in exponential coordinates (Kim (2012), Table 5).

    Parameters
    ----------
    w, a, b : (..., 3) arrays
    side : {"right", "left"}

    Returns
    -------
    d2J : (..., 3, 3) array

    Examples
    --------
    >>> w, a = np.array([0.3, -0.5, 0.2]), np.array([1.0, 0.5, -2.0])
    >>> b, h = np.eye(3)[0], 1e-6
    >>> fd = (dexp_so3_dot(w + h * b, a) - dexp_so3_dot(w - h * b, a)) / (2 * h)
    >>> np.allclose(dexp_so3_d2(w, a, b), fd, atol=1e-8)
    True
    """
    w, a, b = (_checks.array(n, x, (3,)) for n, x in (("w", w), ("a", a), ("b", b)))
    s = _sign(side)
    W, Wa, Wb = s * skew(w), s * skew(a), s * skew(b)
    t2 = theta_squared(w)
    C, E, G, Ep, Gp = coef_C(t2), coef_E(t2), coef_G(t2), _Ep(t2), _Gp(t2)
    B1, C1, B2, C2 = E - C / 2, -G, Ep + G / 2, -Gp
    wa, wb, ab = (np.sum(x * y, axis=-1) for x, y in ((w, a), (w, b), (a, b)))
    WW = W @ W
    return (scale(2 * ab * B1, W) + scale(2 * ab * C1, WW)
            + scale(4 * wa * wb * B2, W) + scale(4 * wa * wb * C2, WW)
            + scale(2 * wa * B1, Wb) + scale(2 * wa * C1, Wb @ W + W @ Wb)
            + scale(2 * wb * B1, Wa) + scale(2 * wb * C1, Wa @ W + W @ Wa)
            + scale(C, Wa @ Wb + Wb @ Wa))


def dexp_inv_so3(w, side="right"):
    """Inverse of :func:`dexp_so3`: ``I -+ [w]/2 + (1 - (t/2) cot(t/2))/t^2 [w]^2``.

    Minus for ``side="left"``; singular at ``t = 2 pi`` only.

    Parameters
    ----------
    w : (..., 3) array
    side : {"right", "left"}

    Returns
    -------
    Jinv : (..., 3, 3) array

    Examples
    --------
    >>> w = np.array([0.4, -0.2, 0.9])
    >>> np.allclose(dexp_inv_so3(w) @ dexp_so3(w), np.eye(3))
    True
    """
    w = _checks.array("w", w, (3,))
    W = _sign(side) * skew(w)
    t2 = theta_squared(w)
    return np.eye(3) - W / 2 + scale(coef_D(t2), W @ W)


def _Q(w, v):
    """Lower-left block of SE(3)'s left Jacobian (Barfoot's Q(v, w))."""
    W, Vx = skew(w), skew(v)
    WV, VW, WVW = W @ Vx, Vx @ W, W @ Vx @ W
    t2 = theta_squared(w)
    return (Vx / 2 + scale(coef_C(t2), WV + VW + WVW)
            + scale(coef_E(t2), W @ WV + VW @ W - 3 * WVW)
            + scale(coef_G(t2), WVW @ W + W @ WVW))


def dexp(xi, side="right"):
    """Left or right Jacobian of the exponential on SE(3), ``xi = (w, v)``.

    Left: ``J_l(xi) = sum_k ad_xi^k / (k+1)! = [[J_l(w), 0], [Q(w, v), J_l(w)]]``,
    with ``(d/dt exp(xi)) exp(xi)^-1 = hat(J_l(xi) dxi)``. Right: ``J_r(xi) =
    J_l(-xi)``, with ``exp(xi)^-1 d/dt exp(xi) = hat(J_r(xi) dxi)`` (a body twist):
    From (2012), eq. (29), ``S(phi)``. ``Q`` in the closed form of Barfoot and
    Furgale (2014).

    Parameters
    ----------
    xi : (..., 6) array
    side : {"right", "left"}

    Returns
    -------
    J : (..., 6, 6) array

    Examples
    --------
    >>> xi = np.array([0.1, 0.2, -0.3, 1.0, 0.0, 0.5])
    >>> from liedyn.lie import ad
    >>> series = sum(np.linalg.matrix_power(-ad(xi), k)
    ...              / np.prod(np.arange(1, k + 2)) for k in range(20))
    >>> np.allclose(dexp(xi), series)
    True
    """
    xi = _checks.array("xi", xi, (6,))
    s = _sign(side)
    w, v = s * xi[..., :3], s * xi[..., 3:]
    J = dexp_so3(w, side="left")
    return blocks(J, np.zeros_like(J), _Q(w, v), J)


def dexp_inv(xi, side="right"):
    """Inverse of :func:`dexp`: ``[[J^-1, 0], [-J^-1 Q J^-1, J^-1]]``,
    ``J = J_l(+-w)``.

    Parameters
    ----------
    xi : (..., 6) array
    side : {"right", "left"}

    Returns
    -------
    Jinv : (..., 6, 6) array

    Examples
    --------
    >>> xi = np.array([0.1, 0.2, -0.3, 1.0, 0.0, 0.5])
    >>> np.allclose(dexp_inv(xi, side="left") @ dexp(xi, side="left"), np.eye(6))
    True
    """
    xi = _checks.array("xi", xi, (6,))
    s = _sign(side)
    w, v = s * xi[..., :3], s * xi[..., 3:]
    Ji = dexp_inv_so3(w, side="left")
    return blocks(Ji, np.zeros_like(Ji), -Ji @ _Q(w, v) @ Ji, Ji)
