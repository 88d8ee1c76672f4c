"""Symbolic mechanics with sympy: Lagrange's equations and closed-form kinematics;
derived in :ref:`sec-lagrangian`.

Coordinates ``q`` and velocities ``dq`` are plain sympy symbols (not functions of
time). Rotations and twists reuse liedyn's numeric code on object arrays: the
sin/cos of ``liedyn._math`` dispatch to sympy.
"""
import numpy as np
import sympy

from ._math import cos, sin
from .lie import inverse, skew, vee

__all__ = ["lagrange_equations", "mass_matrix_and_bias", "axis_rotation",
           "body_twist", "to_object_array"]


def to_object_array(x):
    """A numpy object array of sympy expressions from nested lists, a Matrix or an
    array.

    >>> to_object_array(sympy.Matrix([1, 2])).shape
    (2,)
    """
    if isinstance(x, sympy.MatrixBase):
        x = x.tolist() if x.shape[1] != 1 else list(x)
    a = np.empty(np.shape(x), dtype=object)
    a[...] = np.vectorize(sympy.sympify, otypes=[object])(
        np.asarray(x, dtype=object))
    return a


def lagrange_equations(L, q, dq, t):
    """Lagrange's equations ``d/dt (dL/d dq) - dL/dq = tau`` of ``L(q, dq)``.

    Murray, Li and Sastry, Ch. 4; returns the left-hand side. ``d/dt`` is the chain
    rule ``dp/dt + sum_j (dp/dq_j dq_j + dp/d dq_j ddq_j)`` on plain symbols, so
    ``L`` may depend on ``t`` too.

    Parameters
    ----------
    L : sympy expression in ``q`` and ``dq``
    q, dq : sequences of n sympy symbols, coordinates and velocities
    t : sympy symbol, time

    Returns
    -------
    tau : sympy Matrix (n x 1), in ``q``, ``dq`` and ``ddq``
    ddq : list of n sympy symbols ``dd<q_i>``

    Examples
    --------
    >>> m, l, g, t = sympy.symbols("m l g t", positive=True)
    >>> th, dth = sympy.symbols("theta dtheta")
    >>> L = m * l**2 * dth**2 / 2 + m * g * l * sympy.cos(th)        # a pendulum
    >>> tau, (ddth,) = lagrange_equations(L, [th], [dth], t)
    >>> tau[0]
    ddtheta*l**2*m + g*l*m*sin(theta)
    """
    q, dq = list(q), list(dq)
    if len(q) != len(dq):
        raise ValueError(f"argument 'dq': expected {len(q)} velocities (one per "
                         f"coordinate), got {len(dq)}")
    ddq = [sympy.Symbol("dd" + qi.name) for qi in q]
    L = sympy.sympify(L)
    rows = []
    for qi, dqi in zip(q, dq, strict=True):
        p = L.diff(dqi)                             # generalized momentum dL/d dq_i
        dp_dt = p.diff(t) + sum(p.diff(qj) * dqj + p.diff(dqj) * ddqj   # chain rule
                                for qj, dqj, ddqj in zip(q, dq, ddq, strict=True))
        rows.append(sympy.expand(dp_dt - L.diff(qi)))
    return sympy.Matrix(rows), ddq


def mass_matrix_and_bias(tau, ddq):
    """Split ``tau = M(q) ddq + b(q, dq)`` (Kim (2012), eq. (32)) into ``M`` and
    ``b``.

    ``tau`` is a sympy Matrix (n x 1), ``ddq`` n symbols; returns the simplified
    Matrices ``M`` (n x n) and ``b`` (n x 1).

    >>> x, dx, ddx, k = sympy.symbols("x dx ddx k")
    >>> M, b = mass_matrix_and_bias(sympy.Matrix([2 * ddx + k * x]), [ddx])
    >>> M, b
    (Matrix([[2]]), Matrix([[k*x]]))
    """
    M = tau.jacobian(list(ddq))
    b = tau.subs({a: 0 for a in ddq})
    return sympy.simplify(M), sympy.simplify(b)


def axis_rotation(axis, angle):
    """Rotation ``1 + sin(a) [n] + (1 - cos(a)) [n]^2`` about a unit ``axis`` (3,).

    Rodrigues' formula (Kim (2012), Section 1.1); ``angle`` a float or a sympy
    expression. Returns a (3, 3) float or object array.

    >>> th = sympy.Symbol("theta")
    >>> axis_rotation([0, 0, 1], th)[0, :2]
    array([cos(theta), -sin(theta)], dtype=object)
    """
    symbolic = isinstance(angle, sympy.Basic)
    N = skew(np.asarray(axis, dtype=object if symbolic else float))
    R = np.eye(3, dtype=int) + sin(angle) * N + (1 - cos(angle)) * (N @ N)
    if symbolic:
        return np.vectorize(sympy.simplify, otypes=[object])(R)
    return R


def body_twist(T, q, dq):
    """The body twist ``V = vee(T^-1 dT/dt)`` (6,) of a symbolic pose ``T(q)`` (Kim
    (2012), eq. (9)).

    ``dT/dt = sum_i dT/dq_i dq_i``; each coefficient of ``dq`` is simplified with
    ``trigsimp`` after ``expand``.

    >>> th, dth = sympy.symbols("theta dtheta")
    >>> T = np.eye(4, dtype=object)
    >>> T[:3, :3] = axis_rotation([0, 0, 1], th)
    >>> body_twist(T, [th], [dth])
    array([0, 0, dtheta, 0, 0, 0], dtype=object)
    """
    T = to_object_array(T)
    dT = sum(
        np.vectorize(lambda e, qi=qi: sympy.diff(e, qi), otypes=[object])(T) * dqi
        for qi, dqi in zip(q, dq, strict=True))
    V = vee(inverse(T) @ dT)

    def simplify(e):
        e = sympy.expand(e)
        return sum(sympy.trigsimp(e.coeff(dqi)) * dqi for dqi in dq)

    return np.vectorize(simplify, otypes=[object])(V)
