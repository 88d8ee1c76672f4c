"""Checkers for the exercises of :ref:`sec-control` (chapter 12, control).

Call them through :func:`liedyn.teach.exercises.check`, e.g.
``check("ch12.ex1", answer)``. The expected answers are written out here in closed
form with plain numpy for the double pendulum of chapter 7 (the textbook ``M``, the
Christoffel ``C`` of Murray, Li and Sastry's planar arm, gravity, the tip Jacobian),
so they do not depend on :mod:`liedyn.control` or on the algorithms the notebook
uses. Typical wrong answers get a hint of their own.

========  ==============================================  ==========================
id        task                                            answer
========  ==============================================  ==========================
ch12.ex1  computed-torque torques at a state              ``M a + C dq + N``
ch12.ex2  where PD without gravity compensation stops     ``Kp (q - q_d) + N = 0``
ch12.ex3  ``dM/dt - 2C`` of the double pendulum (skew)    2x2 matrix
ch12.ex4  Slotine-Li torques at a state                   ``M ddq_r + C dq_r + ...``
ch12.ex5  operational-space inertia of the tip            ``(J M^-1 J^T)^-1``
ch12.ex6  computed-torque error at time ``T_EX6``         closed form of the ODE
========  ==============================================  ==========================

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch12.ex6", [0.0398297, -0.0074681])
ch12.ex6: correct.
True
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape
from .ch07 import GRAVITY, PENDULUM

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "GRAVITY", "PENDULUM", "Q",
           "DQ", "REFERENCE", "KP", "KD", "LAM", "Q_SET", "ERROR0", "T_EX6"]

Q = np.array([0.4, 0.9])
DQ = np.array([0.8, -0.6])
"""The measured state of exercises 1, 3 and 4 (rad, rad/s)."""

REFERENCE = {"q_d": np.array([0.5, 0.7]), "dq_d": np.array([0.2, 0.3]),
             "ddq_d": np.array([-1.0, 0.5])}
"""The desired position, velocity and acceleration of exercises 1 and 4."""

KP = np.array([25.0, 16.0])
KD = np.array([10.0, 8.0])
LAM = np.array([4.0, 3.0])
"""Diagonal gains: ``Kp``, ``Kd`` (exercises 1, 2, 4) and ``Lam`` (exercise 4)."""

Q_SET = np.array([0.8, -0.4])
"""Exercise 2: the set point of a PD controller without gravity compensation."""

ERROR0 = {"e0": np.array([0.2, -0.1]), "de0": np.array([0.0, 0.5]), "omega": 6.0}
"""Exercise 6: initial error and rate; ``Kp = omega^2`` and ``Kd = 2 omega``."""

T_EX6 = 0.5
"""Exercise 6: the time (s) at which the error is wanted."""


def _terms(q, dq):
    """Closed-form ``M``, Christoffel ``C``, gravity ``N`` and ``dM/dt``."""
    (m1, m2), (l1, l2) = PENDULUM["masses"], PENDULUM["lengths"]
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    b = m2 * l1 * l2
    M11 = m1 * l1 ** 2 + m2 * (l1 ** 2 + l2 ** 2) + 2 * b * c2
    M12 = m2 * l2 ** 2 + b * c2
    M = np.array([[M11, M12], [M12, m2 * l2 ** 2]])
    h = b * s2
    C = np.array([[-h * dq[1], -h * (dq[0] + dq[1])], [h * dq[0], 0.0]])
    s1, s12 = np.sin(q[0]), np.sin(q[0] + q[1])
    N = GRAVITY * np.array([(m1 + m2) * l1 * s1 + m2 * l2 * s12, m2 * l2 * s12])
    dM = np.array([[-2 * h * dq[1], -h * dq[1]], [-h * dq[1], 0.0]])
    return M, C, N, dM


def _tip_jacobian(q):
    (l1, l2) = PENDULUM["lengths"]
    c1, s1 = np.cos(q[0]), np.sin(q[0])
    c12, s12 = np.cos(q[0] + q[1]), np.sin(q[0] + q[1])
    return np.array(
        [[l1 * c1 + l2 * c12, l2 * c12], [l1 * s1 + l2 * s12, l2 * s12]])


def _same(a, b, tol=1e-8):
    a = np.asarray(a, dtype=float)
    if a.shape != np.shape(b):
        return False
    return bool(np.max(np.abs(a - np.asarray(b)), initial=0) <= tol)


def ex1(answer):
    """Computed-torque torques at ``(Q, DQ)`` for :data:`REFERENCE` (gains KP,
    KD)."""
    a = expect_shape(answer, (2,), "tau")
    r = REFERENCE
    M, C, N, _ = _terms(Q, DQ)
    e, de = Q - r["q_d"], DQ - r["dq_d"]
    u = r["ddq_d"] - KD * de - KP * e
    if _same(a, M @ (r["ddq_d"] + KD * de + KP * e) + C @ DQ + N):
        raise WrongAnswer("the sign of the feedback: with e = q - q_d the "
                          "commanded acceleration is ddq_d - Kd de - Kp e.")
    if _same(a, M @ u + N) or _same(a, M @ u + C @ DQ):
        raise WrongAnswer("a term of the bias is missing: the law cancels both "
                          "C(q, dq) dq and the gravity torque N(q); rnea(q, dq, a) "
                          "gives M a + C dq + N at once.")
    if _same(a, M @ u):
        raise WrongAnswer("M a alone does not cancel the dynamics: add "
                          "C(q, dq) dq + N(q).")
    expect_close(a, M @ u + C @ DQ + N, "tau", tol=1e-8,
                 hint="tau = rnea(model, Q, DQ, ddq_d - Kd de - Kp e).")


def _rest_without_compensation():
    q = Q_SET.copy()
    for _ in range(50):                    # Newton on Kp (q - q_set) + N(q) = 0
        M, _, N, _ = _terms(q, np.zeros(2))
        (m1, m2), (l1, l2) = PENDULUM["masses"], PENDULUM["lengths"]
        c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
        dN = GRAVITY * np.array(
            [[(m1 + m2) * l1 * c1 + m2 * l2 * c12, m2 * l2 * c12],
             [m2 * l2 * c12, m2 * l2 * c12]])
        q = q - np.linalg.solve(np.diag(KP) + dN, KP * (q - Q_SET) + N)
    return q


def ex2(answer):
    """Where ``tau = -Kp (q - Q_SET) - Kd dq`` (no gravity compensation) stops
    it."""
    a = expect_shape(answer, (2,), "the final configuration")
    if _same(a, Q_SET, tol=1e-4):
        raise WrongAnswer("that is where PD + gravity compensation stops. Without "
                          "N(q), the pendulum comes to rest where the spring "
                          "Kp (q - q_set) balances gravity: "
                          "Kp (q - q_set) + N(q) = 0.")
    expect_close(a, _rest_without_compensation(), "the final "
                                                  "configuration", tol=1e-4,
                 hint="solve Kp (q - q_set) + N(q) = 0 (e.g. by Newton's method), "
                      "or simulate for a few seconds and read off q.")


def ex3(answer):
    """``dM/dt - 2C`` at ``(Q, DQ)`` with the Christoffel ``C`` (a 2x2 matrix)."""
    a = expect_shape(answer, (2, 2), "dM/dt - 2C")
    M, C, N, dM = _terms(Q, DQ)
    expected = dM - 2 * C
    if _same(a, dM):
        raise WrongAnswer("this is dM/dt alone: subtract 2 C.")
    if np.max(np.abs(a + a.T)) > 1e-8:
        raise WrongAnswer("dM/dt - 2C is skew-symmetric (Property 1 of Murray, Li "
                          "and Sastry); your matrix is not: check the sign of one "
                          "off-diagonal entry.")
    expect_close(a, expected, "dM/dt - 2C", tol=1e-8,
                 hint="the (1, 2) entry is beta sin(q2) (2 dq1 + dq2) with "
                      "beta = m2 l1 l2, as in the notes' planar arm.")


def ex4(answer):
    """Slotine and Li's torques at ``(Q, DQ)`` for :data:`REFERENCE` (LAM, KD)."""
    a = expect_shape(answer, (2,), "tau")
    r = REFERENCE
    M, C, N, _ = _terms(Q, DQ)
    e, de = Q - r["q_d"], DQ - r["dq_d"]
    dq_r, ddq_r = r["dq_d"] - LAM * e, r["ddq_d"] - LAM * de
    s = DQ - dq_r
    if _same(a, M @ ddq_r + C @ DQ + N - KD * s):
        raise WrongAnswer("C multiplies the reference velocity dq_r, not dq: "
                          "C(q, dq) dq_r. That is what makes M ds + (C + Kd) s = 0 "
                          "and the argument work.")
    if _same(a, M @ ddq_r + C @ dq_r + N + KD * s):
        raise WrongAnswer("sign: the damping term is -Kd s with s = dq - dq_r.")
    expect_close(a, M @ ddq_r + C @ dq_r + N - KD * s, "tau", tol=1e-8,
                 hint="dq_r = dq_d - Lam e, ddq_r = ddq_d - Lam de, s = dq - dq_r; "
                      "tau = M ddq_r + C(q, dq) dq_r + N - Kd s.")


def ex5(answer):
    """``Lambda`` (2x2) of the tip position of the double pendulum at :data:`Q`."""
    a = expect_shape(answer, (2, 2), "Lambda")
    M = _terms(Q, np.zeros(2))[0]
    J = _tip_jacobian(Q)
    A = J @ np.linalg.solve(M, J.T)
    if _same(a, A):
        raise WrongAnswer("this is J M^-1 J^T, the inverse of Lambda.")
    if _same(a, J @ M @ J.T):
        raise WrongAnswer("Lambda = (J M^-1 J^T)^-1: the inverse of M, not M, sits "
                          "between the Jacobians.")
    expect_close(a, np.linalg.inv(A), "Lambda", tol=1e-8,
                 hint="J is the Jacobian of the second "
                      "bob's (x, y) in the ground frame.")


def ex6(answer):
    """The computed-torque error ``e(T_EX6)`` (2,) from :data:`ERROR0`."""
    a = expect_shape(answer, (2,), "e(T)")
    e0, de0, w = ERROR0["e0"], ERROR0["de0"], ERROR0["omega"]
    t = T_EX6
    if _same(a, e0 * np.exp(-w * t), tol=1e-6):
        raise WrongAnswer("e0 exp(-omega t) solves a first-order equation; "
                          "dde + 2 omega de + omega^2 e = 0 has the double root "
                          "-omega: e = (c1 + c2 t) exp(-omega t).")
    expect_close(a, (e0 + (de0 + w * e0) * t) * np.exp(-w * t), "e(T)", tol=1e-6,
                 hint="fit c1 and c2 of (c1 + c2 t) "
                      "exp(-omega t) to e(0) and de(0).")
