"""Symbolic mechanics with sympy: Lagrange's equations and closed-form kinematics.

Conventions:

* generalized coordinates ``q`` and velocities ``dq`` are plain sympy symbols (not
  functions of time); :func:`lagrange_equations` returns expressions in ``q``,
  ``dq`` and new acceleration symbols ``ddq``;
* rotations and twists reuse liedyn's numeric code on numpy object arrays: the
  sin/cos of ``liedyn._math`` dispatch to sympy, and :func:`liedyn.lie.inverse`,
  :func:`liedyn.lie.vee`, :func:`liedyn.inertia.kinetic_energy` run unchanged on
  symbols.

Derived in :ref:`sec-lagrangian`.
"""
import numpy as np
import sympy

from ._math import cos, sin
from .lie import inverse, skew, vee

__all__ = ["lagrange_equations", "mass_matrix_and_bias", "axis_rotation",
           "body_twist", "to_object_array"]


def to_object_array(x):
    """A numpy object array of sympy expressions from nested lists, a sympy Matrix
    or an array.

    Examples
    --------
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
    """Lagrange's equations ``d/dt (dL/d dq) - dL/dq = tau`` of a Lagrangian
    ``L(q, dq)``.

    Murray, Li and Sastry, Ch. 4; the left-hand side is returned, so the equations
    of motion read ``lagrange_equations(...)[0] = tau`` (generalized forces). The
    total time derivative is the chain rule
    ``d/dt p = dp/dt + sum_j (dp/dq_j dq_j + dp/d dq_j ddq_j)`` on plain symbols (no
    functions of time), so ``L`` may also depend on ``t`` explicitly.

    Parameters
    ----------
    L : sympy expression in the symbols ``q`` and ``dq`` (and constants)
    q : sequence of n sympy symbols, generalized coordinates
    dq : sequence of n sympy symbols, their velocities
    t : sympy symbol, time

    Returns
    -------
    tau : sympy Matrix (n x 1), in ``q``, ``dq`` and ``ddq``
    ddq : list of n sympy symbols ``dd<q_i>``, the accelerations

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
    for qi, dqi in zip(q, dq):
        p = L.diff(dqi)                             # generalized momentum dL/d dq_i
        dp_dt = p.diff(t) + sum(p.diff(qj) * dqj + p.diff(dqj) * ddqj   # chain rule
                                for qj, dqj, ddqj in zip(q, dq, ddq))
        rows.append(sympy.expand(dp_dt - L.diff(qi)))
    return sympy.Matrix(rows), ddq


def mass_matrix_and_bias(tau, ddq):
    """Split equations ``tau = M(q) ddq + b(q, dq)`` (linear in ``ddq``) into ``M``
    and ``b``.

    Kim (2012), eq. (32).

    Parameters
    ----------
    tau : sympy Matrix (n x 1), e.g. from :func:`lagrange_equations`
    ddq : sequence of n sympy symbols

    Returns
    -------
    M : sympy Matrix (n x n), symmetric
    b : sympy Matrix (n x 1), velocity products and gravity

    Examples
    --------
    >>> x, dx, ddx, k = sympy.symbols("x dx ddx k")
    >>> M, b = mass_matrix_and_bias(sympy.Matrix([2 * ddx + k * x]), [ddx])
    >>> M, b
    (Matrix([[2]]), Matrix([[k*x]]))
    """
    M = tau.jacobian(list(ddq))
    b = tau.subs({a: 0 for a in ddq})
    return sympy.simplify(M), sympy.simplify(b)


def axis_rotation(axis, angle):
    """Rotation by ``angle`` about a unit ``axis``:
    ``1 + sin(a) [n] + (1 - cos(a)) [n]^2``.

    Rodrigues' formula (Kim (2012), Section 1.1) with the sin/cos dispatch of
    ``liedyn._math``, so ``angle`` may be a float or a sympy expression.

    Parameters
    ----------
    axis : (3,) sequence, unit vector (numbers)
    angle : float or sympy expression

    Returns
    -------
    R : (3, 3) array (float, or object for symbolic ``angle``)

    Examples
    --------
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
    """The body twist ``V = vee(T^-1 dT/dt)`` of a symbolic pose ``T(q)`` (Kim
    (2012), eq. (9)).

    ``dT/dt = sum_i dT/dq_i dq_i`` by the chain rule. ``V`` is linear in ``dq``;
    each coefficient is simplified with ``trigsimp`` after ``expand`` (much faster
    than ``simplify`` on the whole entry).

    Parameters
    ----------
    T : (4, 4) object array of sympy expressions in ``q``
    q, dq : sequences of sympy symbols

    Returns
    -------
    V : (6,) object array ``(w, v)``, simplified

    Examples
    --------
    >>> th, dth = sympy.symbols("theta dtheta")
    >>> T = np.eye(4, dtype=object)
    >>> T[:3, :3] = axis_rotation([0, 0, 1], th)
    >>> body_twist(T, [th], [dth])
    array([0, 0, dtheta, 0, 0, 0], dtype=object)
    """
    T = to_object_array(T)
    dT = sum(
        np.vectorize(lambda e, qi=qi: sympy.diff(e, qi), otypes=[object])(T) * dqi
        for qi, dqi in zip(q, dq))
    V = vee(inverse(T) @ dT)

    def simplify(e):
        e = sympy.expand(e)
        return sum(sympy.trigsimp(e.coeff(dqi)) * dqi for dqi in dq)

    return np.vectorize(simplify, otypes=[object])(V)
