"""Checkers for the exercises of :ref:`sec-forward-dynamics` (chapter 7, forward
dynamics).

Call them through :func:`liedyn.teach.exercises.check`, e.g. ``check("ch7.ex1",
answer)``. The expected answers are written out here in closed form with plain numpy
(the double pendulum's textbook mass matrix and gravity, the momentum of a floating
two-body system, the stability region of the symplectic Euler method), so they do
not depend on the liedyn code that the notebook uses. Typical wrong answers get a
hint of their own.

=======  ===================================================  ======================
id       task                                                 answer
=======  ===================================================  ======================
ch7.ex1  inertia felt at the shoulder with the elbow free,    ``S^T I_hat_1 S``
         D_1
ch7.ex2  accelerations of the double pendulum (Table 3)       ``aba(...)``
ch7.ex3  the square-root factor W of M (upper triangular)     ``mass_matrix_factor``
ch7.ex4  velocity of the centre of mass of a floating system  ``L_linear / m_total``
ch7.ex5  largest stable step of symplectic Euler, small       ``2 sqrt(l / g)``
         swings
ch7.ex6  order of the naive RK4 in the configuration on       ``2``
         SO(3)
=======  ===================================================  ======================

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch7.ex6", 2.0)
ch7.ex6: correct.
True
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "GRAVITY", "PENDULUM", "Q",
           "DQ", "TAU", "FLOATING", "SWING"]

GRAVITY = 9.81
"""Magnitude of the gravity acceleration (m/s^2) in every exercise."""

PENDULUM = {"masses": (1.0, 2.0), "lengths": (1.0, 0.5)}
"""Exercises 1-3: ``liedyn.robots.double_pendulum(**PENDULUM)``: point masses on
massless rods, hinged about z, hanging along -y at ``q = 0``, gravity ``-GRAVITY``
along y."""

Q = np.array([0.3, 1.1])
DQ = np.array([-0.5, 1.2])
TAU = np.array([0.4, -0.3])
"""Exercises 1-3: the configuration ``Q``; exercise 2 also the velocity ``DQ``,
torques ``TAU``."""


def _same(a, b, tol=1e-8):
    a = np.asarray(a, dtype=float)
    return a.shape == np.shape(b) and bool(
        np.max(np.abs(a - np.asarray(b)), initial=0) <= tol)


def _pendulum_terms(q, dq, g=GRAVITY, velocity=True):
    """Closed-form ``M(q)`` and ``b(q, dq)`` of the double pendulum with point
    masses."""
    (m1, m2), (l1, l2) = PENDULUM["masses"], PENDULUM["lengths"]
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M = np.array([[m1 * l1 ** 2 + m2 * (l1 ** 2 + l2 ** 2 + 2 * l1 * l2 * c2),
                   m2 * (l2 ** 2 + l1 * l2 * c2)],
                  [m2 * (l2 ** 2 + l1 * l2 * c2), m2 * l2 ** 2]])
    h = m2 * l1 * l2 * s2 if velocity else 0.0
    grav = g * np.array(
        [(m1 + m2) * l1 * np.sin(q[0]) + m2 * l2 * np.sin(q[0] + q[1]),
         m2 * l2 * np.sin(q[0] + q[1])])
    return (
        M, np.array([-h * (2 * dq[0] * dq[1] + dq[1] ** 2), h * dq[0] ** 2]) + grav)


def ex1(answer):
    """``D_1 = S_1^T I_hat_1 S_1`` at :data:`Q`: the inertia felt at joint 1, joint
    2 free."""
    a = float(expect_shape(answer, (), "D_1"))
    M, _ = _pendulum_terms(Q, np.zeros(2))
    expected = M[0, 0] - M[0, 1] ** 2 / M[1, 1]
    (m1, m2), (l1, _) = PENDULUM["masses"], PENDULUM["lengths"]
    if np.isclose(a, M[0, 0], rtol=1e-8):
        raise WrongAnswer("this is M_11, the inertia about joint 1 with the elbow "
                          "locked (the composite inertia of the CRBA). With the "
                          "elbow free, the second body passes only Pi_2 = I_hat_2 "
                          "- I_hat_2 S Psi S^T I_hat_2 to its parent.")
    if np.isclose(a, M[1, 1], rtol=1e-8):
        raise WrongAnswer("this is D_2 = S_2^T I_hat_2 S_2 (= M_22 for the last "
                          "body); the question asks for joint 1.")
    if np.isclose(a, (m1 + m2) * l1 ** 2, rtol=1e-8):
        raise WrongAnswer("this treats the second mass as if it sat at the elbow; "
                          "it hangs on a free pin, and resists only accelerations "
                          "along its rod.")
    expect_close(a, expected, "D_1", tol=1e-8,
                 hint="run the backward recursion of Table 3 at zero velocity, or "
                      "use D_1 = 1 / (M^-1)_11.")


def ex2(answer):
    """The accelerations ``ddq`` at ``(Q, DQ)`` with torques :data:`TAU` (gravity
    on)."""
    a = expect_shape(answer, (2,), "ddq")
    M, b = _pendulum_terms(Q, DQ)
    expected = np.linalg.solve(M, TAU - b)
    for kw, text in [({"g": 0.0}, "you left out gravity: it enters as the ground "
                                  "acceleration dV_0 = (0, "
                                  "-g) (Kim's footnote 6)."),
                     ({"velocity": False}, "you left out the velocity terms: eta_i "
                                           "= ad_{V_i} "
                                           "S_i dq_i + dS_i dq_i "
                                           "and -ad*_V I V in B_hat.")]:
        M0, b0 = _pendulum_terms(Q, DQ, **kw)
        if _same(a, np.linalg.solve(M0, TAU - b0)):
            raise WrongAnswer(text)
    if _same(a, np.linalg.solve(M, TAU + b)):
        raise WrongAnswer("sign of the bias force: M ddq + "
                          "b = tau, so ddq = M^-1 (tau - b).")
    if _same(a, np.linalg.solve(M, TAU)):
        raise WrongAnswer("M^-1 tau leaves out b(q, dq): "
                          "gravity and the velocity terms.")
    expect_close(a, expected, "ddq", tol=1e-8,
                 hint="liedyn.forward_dynamics.aba(model, Q, DQ, "
                      "TAU) with the model of PENDULUM.")


def ex3(answer):
    """The factor ``W`` at :data:`Q`: upper triangular, positive diagonal,
    ``M = W W^T``."""
    a = expect_shape(answer, (2, 2), "W")
    M, _ = _pendulum_terms(Q, np.zeros(2))
    P = np.eye(2)[::-1]
    expected = P @ np.linalg.cholesky(P @ M @ P) @ P
    L = np.linalg.cholesky(M)
    if _same(a, L):
        raise WrongAnswer("this is the usual (lower) Cholesky factor, which "
                          "eliminates from the base to the tip; the "
                          "articulated-body sweep eliminates from the tip, which "
                          "gives an upper-triangular W with W_22 = sqrt(D_2).")
    if _same(a, expected.T) or _same(a, L.T):
        raise WrongAnswer("transposed: W is upper triangular "
                          "and M = W W^T (not W^T W).")
    if _same(np.abs(a), expected) and not _same(a, expected):
        raise WrongAnswer("M = W W^T holds for every choice of signs of the "
                          "diagonal; choose the positive one, W_ii = +sqrt(D_i).")
    expect_close(a, expected, "W", tol=1e-8,
                 hint="W_ii = sqrt(D_i) and W_12 = S_1^T Ad*_{T_12^-1} I_hat_2 S_2 "
                      "/ sqrt(D_2); or liedyn.forward_dynamics.mass_matrix_factor.")


FLOATING = {"base_mass": 3.0, "base_com": np.array([0.1, 0.0, 0.0]),
            "base_I_com": np.diag([0.1, 0.2, 0.25]),
            "joint_offset": np.array([0.4, 0.0, 0.0]),
            "bob_mass": 0.5, "bob_com": np.array([0.0, 0.0, -0.6]),
            "bob_I_com": np.eye(3) * 0.002,
            "V_base": np.array([0.3, -0.2, 1.0, 0.5, 0.1, 0.0]),
            "w_joint": np.array([2.0, 0.0, -1.0])}
"""Exercise 4: a free-floating base (``Free`` joint at the ground origin, pose
identity, body twist ``V_base = (w, v)``) with mass ``base_mass``, centre of mass
``base_com`` and rotational inertia ``base_I_com`` about it; a ``Spherical`` joint
at ``joint_offset`` in the base frame, at the identity rotation, with relative
angular velocity ``w_joint``, carries a small ball of mass ``bob_mass`` centred at
``bob_com`` in its frame (rotational inertia ``bob_I_com`` about its centre; a point
mass would make ``S^T I_hat S`` singular about the rod). No gravity."""


def _floating_com_velocity():
    f = FLOATING
    w0, v0 = f["V_base"][:3], f["V_base"][3:]
    vc0 = v0 + np.cross(w0, f["base_com"])
    vc1 = (
        v0
        + np.cross(w0, f["joint_offset"] + f["bob_com"])
        + np.cross(f["w_joint"], f["bob_com"]))
    return (f["base_mass"] * vc0 + f["bob_mass"] * vc1) / (
        f["base_mass"] + f["bob_mass"])


def ex4(answer):
    """The velocity (m/s, ground frame) of the system's centre of mass, constant in
    time."""
    a = expect_shape(answer, (3,), "the centre-of-mass velocity")
    f = FLOATING
    expected = _floating_com_velocity()
    if _same(a, f["V_base"][3:], tol=1e-6):
        raise WrongAnswer("this is the velocity of the base frame's origin, not of "
                          "the centre of mass of the whole system.")
    if _same(a, expected * (f["base_mass"] + f["bob_mass"]), tol=1e-6):
        raise WrongAnswer("this is the linear momentum; divide by the total mass.")
    expect_close(a, expected, "the centre-of-mass velocity", tol=1e-6,
                 hint="the linear part of liedyn.crba.momentum (world frame) "
                      "divided by the total mass; it stays constant along a "
                      "simulation without gravity.")


SWING = {"length": 1.0}
"""Exercise 5: ``liedyn.robots.pendulum(length=SWING["length"])`` in small
oscillations."""


def ex5(answer):
    """The bound on the time step (s) of symplectic Euler on small swings: bounded
    for h < 2/omega.

    At ``h = 2 / omega`` itself the one-step matrix has the double eigenvalue -1 and
    is not diagonalisable, so the solution grows linearly: 2/omega is the supremum
    of the stable steps.
    """
    a = float(expect_shape(answer, (), "the largest stable time step"))
    omega = np.sqrt(GRAVITY / SWING["length"])
    if np.isclose(a, 2 * np.sqrt(2) / omega, rtol=2e-3):
        raise WrongAnswer("2 sqrt(2) / omega is the limit of classical RK4 on an "
                          "oscillator; for symplectic Euler, look at the trace of "
                          "its one-step matrix.")
    if np.isclose(a, 1 / omega, rtol=2e-3) or np.isclose(a, 2 * np.pi / omega,
                                                         rtol=2e-3):
        raise WrongAnswer("close in spirit, but compute it: the one-step matrix of "
                          "symplectic Euler on x'' = -omega^2 x has determinant 1; "
                          "it is stable while its trace 2 - (omega h)^2 stays "
                          "strictly inside (-2, 2) (at -2 "
                          "the solution grows linearly).")
    expect_close(a, 2 / omega, "the largest stable time step", tol=2e-3,
                 hint="linearise: x'' = -omega^2 x with omega^2 = g / l.")


def ex6(answer):
    """The order of convergence of the naive RK4 configuration error on a spherical
    pendulum."""
    a = float(expect_shape(answer, (), "the order"))
    if abs(a - 4) <= 0.3:
        raise WrongAnswer("4 is the order of the velocities and of RK4 on "
                          "vector-space joints. Measure the configuration error on "
                          "SO(3) (model.difference) when dt is halved.")
    if abs(a - 1) <= 0.3:
        raise WrongAnswer("order 1 would be Euler's; RK4's stages still cancel the "
                          "first-order error terms on the group.")
    if abs(a - 2) > 0.25:
        raise WrongAnswer(f"{a:g} is not what halving dt gives: log2(error(dt) / "
                          "error(dt/2)) with errors well above rounding and dt "
                          "small enough.")
