"""Checkers for the exercises of :ref:`sec-control` (chapter 12): the double
pendulum of chapter 7 in closed form (``M``, the Christoffel ``C``, gravity, the tip
Jacobian), independent of :mod:`liedyn.control`; the slope of PD's rest offset
against the gain (read off a plot). Exercise 7 asks for an explanation in words and
has no checker.

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch12.ex6", [0.0398297, -0.0074681])
ch12.ex6: correct. Checked: e(T) = (e0 + (de0 + omega e0) T) exp(-omega T), to
1e-06.
True
"""
import numpy as np

from . import exercise
from ._closed_forms import double_pendulum
from .ch07 import GRAVITY, PENDULUM

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex8", "GRAVITY", "PENDULUM",
           "Q", "DQ", "REFERENCE", "KP", "KD", "LAM", "Q_SET", "ERROR0", "T_EX6",
           "GAINS_EX8"]

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
    M, C, N = double_pendulum(q, dq, **PENDULUM, g=GRAVITY)
    h = PENDULUM["masses"][1] * np.prod(PENDULUM["lengths"]) * np.sin(q[1])
    dM = np.array([[-2 * h * dq[1], -h * dq[1]], [-h * dq[1], 0.0]])
    return M, C, N, dM


def _tip_jacobian(q):
    (l1, l2), q12 = PENDULUM["lengths"], q[0] + q[1]
    return np.array([[l1 * np.cos(q[0]) + l2 * np.cos(q12), l2 * np.cos(q12)],
                     [l1 * np.sin(q[0]) + l2 * np.sin(q12), l2 * np.sin(q12)]])


@exercise("tau", rule="M (ddq_d - Kd de - Kp e) + C dq + N",
          hint="tau = rnea(model, Q, DQ, ddq_d - Kd de - Kp e).")
def ex1(answer):
    """Computed-torque torques at ``(Q, DQ)`` for :data:`REFERENCE` (gains KP,
    KD)."""
    r = REFERENCE
    M, C, N, _ = _terms(Q, DQ)
    e, de = Q - r["q_d"], DQ - r["dq_d"]
    u = r["ddq_d"] - KD * de - KP * e
    missing = ("a term of the bias is missing: the law cancels both C(q, dq) dq "
               "and the gravity torque g(q); rnea(q, dq, a) gives "
               "M a + C dq + g(q) at once.")
    return M @ u + C @ DQ + N, [
        (M @ (r["ddq_d"] + KD * de + KP * e) + C @ DQ + N,
         "the sign of the feedback: with e = q - q_d the commanded acceleration is "
         "ddq_d - Kd de - Kp e."),
        (M @ u + N, missing), (M @ u + C @ DQ, missing),
        (M @ u, "M a alone does not cancel the dynamics: add C(q, dq) dq + g(q)."),
    ]


def _rest_without_compensation():
    q = Q_SET.copy()
    (m1, m2), (l1, l2) = PENDULUM["masses"], PENDULUM["lengths"]
    for _ in range(50):                    # Newton on Kp (q - q_set) + g(q) = 0
        N = _terms(q, np.zeros(2))[2]
        c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
        k = m2 * l2 * c12
        dN = GRAVITY * np.array([[(m1 + m2) * l1 * c1 + k, k], [k, k]])
        q = q - np.linalg.solve(np.diag(KP) + dN, KP * (q - Q_SET) + N)
    return q


@exercise("the final configuration", tol=1e-4,
          rule="the solution of Kp (q - q_set) + g(q) = 0",
          hint="solve Kp (q - q_set) + g(q) = 0 (e.g. by Newton's method), or "
               "simulate for a few seconds and read off q.")
def ex2(answer):
    """Where ``tau = -Kp (q - Q_SET) - Kd dq`` (no gravity compensation) stops
    it."""
    return _rest_without_compensation(), [
        (Q_SET, "that is where PD + gravity compensation stops. Without g(q), the "
                "pendulum comes to rest where the spring Kp (q - q_set) balances "
                "gravity: Kp (q - q_set) + g(q) = 0."),
    ]


@exercise("dM/dt - 2C", rule="C^T - C (skew-symmetric) with the Christoffel C",
          hint="the (1, 2) entry is kappa sin(q2) (2 dq1 + dq2) with kappa = m2 "
               "l1 l2 (the notes' beta), as for the two-link arm.")
def ex3(answer):
    """``dM/dt - 2C`` at ``(Q, DQ)`` with the Christoffel ``C`` (a 2x2 matrix)."""
    _, C, _, dM = _terms(Q, DQ)
    return dM - 2 * C, [
        (dM, "this is dM/dt alone: subtract 2 C."),
        (lambda a: np.max(np.abs(a + a.T)) > 1e-8,
         "dM/dt - 2C is skew-symmetric (Property 1 of Murray, Li and Sastry); your "
         "matrix is not: check the sign of one off-diagonal entry."),
    ]


@exercise("tau", rule="M ddq_r + C(q, dq) dq_r + g(q) - Kd s",
          hint="dq_r = dq_d - Lam e, ddq_r = ddq_d - Lam de, s = dq - dq_r; tau = "
               "M ddq_r + C(q, dq) dq_r + g(q) - Kd s.")
def ex4(answer):
    """Slotine and Li's torques at ``(Q, DQ)`` for :data:`REFERENCE` (LAM, KD)."""
    r = REFERENCE
    M, C, N, _ = _terms(Q, DQ)
    e, de = Q - r["q_d"], DQ - r["dq_d"]
    dq_r, ddq_r = r["dq_d"] - LAM * e, r["ddq_d"] - LAM * de
    s = DQ - dq_r
    return M @ ddq_r + C @ dq_r + N - KD * s, [
        (M @ ddq_r + C @ DQ + N - KD * s, "C multiplies the reference velocity "
                                          "dq_r, not dq: C(q, dq) dq_r. That is "
                                          "what makes M ds + (C + Kd) s = 0 and "
                                          "the argument work."),
        (M @ ddq_r + C @ dq_r + N + KD * s, "sign: the damping term is -Kd s with "
                                            "s = dq - dq_r."),
    ]


@exercise("Lambda", rule="(J M^-1 J^T)^-1",
          hint="J is the Jacobian of the second bob's (x, y) in the ground frame.")
def ex5(answer):
    """``Lambda`` (2x2) of the tip position of the double pendulum at :data:`Q`."""
    M, J = _terms(Q, np.zeros(2))[0], _tip_jacobian(Q)
    A = J @ np.linalg.solve(M, J.T)
    return np.linalg.inv(A), [
        (A, "this is J M^-1 J^T, the inverse of Lambda."),
        (J @ M @ J.T, "Lambda = (J M^-1 J^T)^-1: the inverse of M, not M, sits "
                      "between the Jacobians."),
    ]


@exercise("e(T)", rule="(e0 + (de0 + omega e0) T) exp(-omega T)", tol=1e-6,
          hint="fit c1 and c2 of (c1 + c2 t) exp(-omega t) to e(0) and de(0).")
def ex6(answer):
    """The computed-torque error ``e(T_EX6)`` (2,) from :data:`ERROR0`."""
    e0, de0, w, t = ERROR0["e0"], ERROR0["de0"], ERROR0["omega"], T_EX6
    return (e0 + (de0 + w * e0) * t) * np.exp(-w * t), [
        (e0 * np.exp(-w * t), "e0 exp(-omega t) solves a first-order equation; dde "
                              "+ 2 omega de + omega^2 e = 0 has the double root "
                              "-omega: e = (c1 + c2 t) exp(-omega t)."),
    ]


GAINS_EX8 = (1e3, 1e5)
"""Exercise 8: the range of the gain ``k`` (N m/rad), ``Kp = k 1``."""


@exercise("the slope", tol=0.05, one_number=True,
          rule="-1: the offset falls as 1/k, since k (q - q_set) = -g(q)",
          hint="at rest k (q - q_set) + g(q) = 0; for a stiff spring q - q_set is "
               "about -g(q_set) / k.")
def ex8(answer):
    """The slope of the log-log plot of PD's rest offset (no gravity compensation)
    against the gain ``k`` over :data:`GAINS_EX8`, read off to about 0.05."""
    return -1.0, [
        (1.0, "the offset falls as the gain grows: the slope of the log-log line "
              "is negative."),
        (-2.0, "the offset is proportional to 1/k, not 1/k^2: the spring force k "
               "(q - q_set) balances the weight g(q), which hardly changes."),
        (lambda a: abs(a + 0.5) < 0.05,
         "a slope of -1/2 would make the offset fall as 1/sqrt(k); the spring "
         "force k (q - q_set) balances g(q), so the offset falls as 1/k."),
        (0.0, "the offset does change with the gain: plot it against k on "
              "log-log axes."),
    ]
