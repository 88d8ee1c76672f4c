"""Checkers for the exercises of :ref:`sec-inverse-dynamics` (chapter 5).

The expected answers are the closed forms of the chapter written out with plain
numpy (not with liedyn): the pendulum, the planar 2R arm with uniform links (centre
of mass at mid-length, ``I_c = m L^2 / 12``, gravity along -y). Typical wrong
answers get their own hint: gravity with the wrong sign or in the (v, w) order, a
mass matrix with the gravity column left in, the external wrench with the wrong sign
or applied at the wrong point.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "GRAVITY_EX1", "PENDULUM_EX2",
           "ARM", "Q_EX3", "DQ_EX4", "F_TIP_EX5", "ARM_EX6", "Q2_EX6"]

GRAVITY_EX1 = np.array([0.0, 0.0, -9.81])
"""Exercise 1: the gravity vector of ``Model(gravity=GRAVITY_EX1)`` (ground
frame)."""

PENDULUM_EX2 = {"mass": 2.0, "length": 0.5, "gravity": 9.81, "q": 0.6, "dq": 1.0,
                "ddq": 1.5}
"""Exercise 2: ``pendulum(mass, length, gravity)`` and the state (q, dq, ddq)."""

ARM = {"n": 2, "length": 1.0, "mass": 1.0, "gravity": 9.81}
"""Exercises 3-5: ``planar_arm(**ARM)``."""

Q_EX3 = np.array([0.2, 0.7])
"""Exercises 3-5: the configuration of the arm."""

DQ_EX4 = np.array([0.5, -1.5])
"""Exercise 4: the joint velocity of the arm."""

F_TIP_EX5 = np.array([0.0, -5.0, 0.0])
"""Exercise 5: the force (ground frame) that the environment applies at the tip of
link 2."""

ARM_EX6 = {"masses": (1.0, 2.0), "lengths": (1.0, 0.6)}
"""Exercise 6: ``two_link_arm(**ARM_EX6)``."""

Q2_EX6 = 1.0
"""Exercise 6: the elbow angle q2."""


def _same(answer, value, tol=1e-8):
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    return (
        a.shape == np.shape(value) and np.max(np.abs(a - value), initial=0.0) <= tol
    )


def ex1(answer):
    """The ground acceleration dV_0 (6,) that stands for :data:`GRAVITY_EX1`
    (footnote 6)."""
    expected = np.concatenate([np.zeros(3), -GRAVITY_EX1])
    expect_shape(answer, (6,), "dV_0")
    if _same(answer, -expected):
        raise WrongAnswer("wrong sign: the ground accelerates *upwards*, dV_0 = "
                          "(0, -g), so that every body feels gravity as if the "
                          "ground were still.")
    if _same(answer, np.concatenate([-GRAVITY_EX1, np.zeros(3)])):
        raise WrongAnswer("this is the (v, w) order; liedyn "
                          "puts the angular part first.")
    expect_close(answer, expected, "dV_0")


def _pendulum_tau(p, gravity=True):
    m, l, g = p["mass"], p["length"], p["gravity"]
    return m * l ** 2 * p["ddq"] + (m * g * l * np.sin(p["q"]) if gravity else 0.0)


def ex2(answer):
    """The torque of :data:`PENDULUM_EX2` (a scalar or a length-1 array)."""
    p = PENDULUM_EX2
    expected = _pendulum_tau(p)
    a = float(np.ravel(expect_shape(np.ravel(answer), (1,), "tau"))[0])
    m, l, g = p["mass"], p["length"], p["gravity"]
    if np.isclose(a, m * l ** 2 * p["ddq"] + m * g * l * np.cos(p["q"])):
        raise WrongAnswer("cos instead of sin: q = 0 hangs straight down, where "
                          "gravity has no lever arm.")
    if np.isclose(a, _pendulum_tau(p, gravity=False)):
        raise WrongAnswer("gravity is missing: the model's "
                          "gravity enters as dV_0 = (0, -g).")
    if np.isclose(a, m * l ** 2 * p["ddq"] - m * g * l * np.sin(p["q"])):
        raise WrongAnswer("wrong sign of the gravity torque: holding the pendulum "
                          "at q > 0 needs a positive torque.")
    if np.isclose(a, expected + m * l ** 2 * p["dq"] ** 2):
        raise WrongAnswer("a one-DOF pendulum has no velocity term in its torque "
                          "(the centripetal force passes through the hinge).")
    expect_close(a, expected, "tau", hint="tau = m l^2 ddq + m g l sin(q).")


def _arm_terms(q, dq):
    """M, the velocity terms and the gravity torque of the planar 2R arm
    :data:`ARM`."""
    m, L, g = ARM["mass"], ARM["length"], ARM["gravity"]
    Ic, lc = m * L ** 2 / 12, L / 2
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M = np.array([[2 * Ic + m * lc ** 2 + m * (L ** 2 + lc ** 2 + 2 * L * lc * c2),
                   Ic + m * (lc ** 2 + L * lc * c2)],
                  [Ic + m * (lc ** 2 + L * lc * c2), Ic + m * lc ** 2]])
    h = -m * L * lc * s2
    c = np.array([h * (2 * dq[0] * dq[1] + dq[1] ** 2), -h * dq[0] ** 2])
    grav = np.array(
        [(m * lc + m * L) * g * np.cos(q[0]) + m * lc * g * np.cos(q[0] + q[1]),
         m * lc * g * np.cos(q[0] + q[1])])
    return M, c, grav


def ex3(answer):
    """The mass matrix (2x2) of ``planar_arm(**ARM)`` at :data:`Q_EX3`."""
    M, _, grav = _arm_terms(Q_EX3, np.zeros(2))
    expect_shape(answer, (2, 2), "M")
    if _same(answer, M + grav[:, None]):
        raise WrongAnswer("each column still contains the gravity torque: rnea(q, "
                          "0, e_j) = M e_j + g(q). Subtract rnea(q, 0, 0), or use "
                          "a model without gravity.")
    expect_close(answer, M, "M", hint="column j is rnea(q, 0, "
                                      "e_j) - rnea(q, 0, 0).")


def ex4(answer):
    """The bias b(q, dq) (2,) of ``planar_arm(**ARM)`` at :data:`Q_EX3`,
    :data:`DQ_EX4`."""
    _, c, grav = _arm_terms(Q_EX3, DQ_EX4)
    expect_shape(answer, (2,), "b")
    if _same(answer, c):
        raise WrongAnswer("this is only the velocity part; b(q, dq) = rnea(q, dq, "
                          "0) also holds the gravity torque (Kim, eq. (32)).")
    if _same(answer, grav):
        raise WrongAnswer("this is only the gravity torque; "
                          "pass the velocity dq as well.")
    if _same(answer, -(c + grav)):
        raise WrongAnswer("wrong sign: b is on the left of M ddq + b = tau.")
    expect_close(answer, c + grav, "b", hint="b = rnea(q, dq, 0).")


def _tip_jacobian(q):
    L = ARM["length"]
    s1, c1 = np.sin(q[0]), np.cos(q[0])
    s12, c12 = np.sin(q[0] + q[1]), np.cos(q[0] + q[1])
    return np.array(
        [[-L * s1 - L * s12, -L * s12], [L * c1 + L * c12, L * c12], [0.0, 0.0]])


def ex5(answer):
    """Static torques (2,) holding ``planar_arm(**ARM)`` at :data:`Q_EX3` while the
    environment pushes the tip of link 2 with :data:`F_TIP_EX5` (a force in the
    ground frame)."""
    _, _, grav = _arm_terms(Q_EX3, np.zeros(2))
    J = _tip_jacobian(Q_EX3)
    expected = grav - J.T @ F_TIP_EX5
    expect_shape(answer, (2,), "tau")
    if _same(answer, grav + J.T @ F_TIP_EX5):
        raise WrongAnswer("wrong sign of the external wrench: f_ext is applied "
                          "*by* the environment to the body, and enters Kim eq. "
                          "(42) as -F_ext (the motors need less torque when the "
                          "environment helps).")
    L = ARM["length"]
    c1, s1 = np.cos(Q_EX3[0]), np.sin(Q_EX3[0])
    # origin of {2}
    J_origin = np.array([[-L * s1, 0.0], [L * c1, 0.0], [0.0, 0.0]])
    if _same(answer, grav - J_origin.T @ F_TIP_EX5):
        raise WrongAnswer("the force acts at the tip, (L, 0, 0) in {2}, not at the "
                          "origin of {2}: the wrench has a moment r x f.")
    if _same(answer, grav):
        raise WrongAnswer("the external force is missing: "
                          "pass f_ext with one row per body.")
    s2, c2 = np.sin(Q_EX3[1]), np.cos(Q_EX3[1])
    # tip velocity in {2}
    J2_tip = np.array([[L * s2, 0.0], [L * c2 + L, L], [0.0, 0.0]])
    if _same(answer, grav - J2_tip.T @ F_TIP_EX5):
        raise WrongAnswer("f_ext is expressed in the body frame {2}: rotate the "
                          "ground-frame force with R_{0,2}^T first, then take the "
                          "moment about the origin of {2}.")
    expect_close(answer, expected, "tau", hint="f_ext[1] = (r x f, f) with f = "
                                               "R_{0,2}^T F and "
                 "r = (L, 0, 0).")


def ex6(answer):
    """The coefficient of dq1^2 in tau_2 of ``two_link_arm(**ARM_EX6)`` at q2 =
    :data:`Q2_EX6`."""
    (_, m2), (L1, L2) = ARM_EX6["masses"], ARM_EX6["lengths"]
    h = m2 * L1 * (L2 / 2) * np.sin(Q2_EX6)
    a = float(np.ravel(expect_shape(np.ravel(answer), (1,), "the coefficient"))[0])
    if np.isclose(a, -h):
        raise WrongAnswer("wrong sign: the centrifugal force of link 1's rotation "
                          "pulls link 2 outwards, tau_2 contains + m2 L1 (L2/2) "
                          "sin(q2) dq1^2.")
    if np.isclose(a, -2 * h):
        raise WrongAnswer("this is the coefficient of dq1 dq2 in tau_1 (Coriolis).")
    if np.isclose(a, 2 * h):
        raise WrongAnswer("the centre of mass of link 2 is at L2/2, not L2.")
    expect_close(a, h, "the coefficient")
