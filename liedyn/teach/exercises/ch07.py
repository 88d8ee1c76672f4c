"""Checkers for the exercises of :ref:`sec-forward-dynamics` (chapter 7): the
double pendulum of point masses, the momentum of a floating two-body system, the
stability of symplectic Euler, the two inertias of the two-link arm's shoulder.

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch7.ex6", 2.0)
ch7.ex6: correct. Checked: the order = 2 (the naive RK4 on SO(3)), to 0.25.
True
"""
import numpy as np

from .. import implement
from . import WrongAnswer, exercise
from ._closed_forms import GRAVITY, double_pendulum

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ex9", "GRAVITY",
           "PENDULUM", "Q", "DQ", "TAU", "FLOATING", "SWING", "ROD", "ARM"]

PENDULUM = {"masses": (1.0, 2.0), "lengths": (1.0, 0.5)}
"""Exercises 1-3: ``liedyn.robots.double_pendulum(**PENDULUM)``: point masses on
massless rods, hinged about z, hanging along -y at ``q = 0``, gravity ``-GRAVITY``
along y."""

Q = np.array([0.3, 1.1])
DQ = np.array([-0.5, 1.2])
TAU = np.array([0.4, -0.3])
"""Exercises 1-3: the configuration ``Q``; exercise 2 also the velocity ``DQ``,
torques ``TAU``."""


def _pendulum(dq=(0.0, 0.0), g=GRAVITY):
    """``M`` and ``b = C dq + g(q)`` of the double pendulum at :data:`Q`."""
    M, C, grav = double_pendulum(Q, dq, **PENDULUM, g=g)
    return M, C @ dq + grav


@exercise("D_1", rule="S_1^T I_hat_1 S_1 = 1 / (M^-1)_11",
          hint="run the backward recursion of Table 3 at zero velocity, or use D_1 "
               "= 1 / (M^-1)_11.")
def ex1(answer):
    """``D_1 = S_1^T I_hat_1 S_1`` at :data:`Q`: the inertia felt at joint 1, joint
    2 free."""
    M, _ = _pendulum()
    (m1, m2), (l1, _) = PENDULUM["masses"], PENDULUM["lengths"]
    return M[0, 0] - M[0, 1] ** 2 / M[1, 1], [
        (M[0, 0], "this is M_11, the inertia about joint 1 with the elbow locked "
                  "(the composite inertia of the CRBA). With the elbow free, the "
                  "second body passes only Pi_2 = I_hat_2 - I_hat_2 S Psi S^T "
                  "I_hat_2 to its parent."),
        (M[1, 1], "this is D_2 = S_2^T I_hat_2 S_2 (= M_22 for the last body); the "
                  "question asks for joint 1."),
        ((m1 + m2) * l1 ** 2, "this treats the second mass as if it sat at the "
                              "elbow; it hangs on a free pin, and resists only "
                              "accelerations along its rod."),
    ]


@exercise("ddq", rule="M^-1 (tau - b(q, dq))", hint="liedyn.forward_dynamics.aba("
          "model, Q, DQ, TAU) with the model of PENDULUM.")
def ex2(answer):
    """The accelerations ``ddq`` at ``(Q, DQ)`` with torques :data:`TAU` (gravity
    on)."""
    M, b = _pendulum(DQ)
    _, b_weightless = _pendulum(DQ, g=0.0)
    return np.linalg.solve(M, TAU - b), [
        (np.linalg.solve(M, TAU - b_weightless), "you left out gravity: it enters "
                                                 "as the ground acceleration dV_0 "
                                                 "= (0, -g) (Kim's footnote 6)."),
        (np.linalg.solve(M, TAU - _pendulum()[1]), "you left out the velocity "
                                                   "terms: eta_i = ad_{V_i} S_i "
                                                   "dq_i + dS_i dq_i and -ad*_V I "
                                                   "V in B_hat."),
        (np.linalg.solve(M, TAU + b), "sign of the bias force: M ddq + b = tau, so "
                                      "ddq = M^-1 (tau - b)."),
        (np.linalg.solve(M, TAU), "M^-1 tau leaves out b(q, dq): gravity and the "
                                  "velocity terms."),
    ]


@exercise("W", rule="the upper-triangular factor of M = W W^T, W_ii = +sqrt(D_i)",
          hint="W_ii = sqrt(D_i) and W_12 = S_1^T Ad*_{T_12^-1} I_hat_2 S_2 / "
               "sqrt(D_2); or liedyn.forward_dynamics.mass_matrix_factor.")
def ex3(answer):
    """The factor ``W`` at :data:`Q`: upper triangular, positive diagonal,
    ``M = W W^T``."""
    M, _ = _pendulum()
    P = np.eye(2)[::-1]
    right = P @ np.linalg.cholesky(P @ M @ P) @ P
    L = np.linalg.cholesky(M)
    return right, [
        (L, "this is the usual (lower) Cholesky factor, which eliminates from the "
            "base to the tip; the articulated-body sweep eliminates from the tip, "
            "which gives an upper-triangular W with W_22 = sqrt(D_2)."),
        (right.T, "transposed: W is upper triangular and M = W W^T (not W^T W)."),
        (L.T, "transposed: W is upper triangular and M = W W^T (not W^T W)."),
        (lambda a: np.allclose(np.abs(a), right, rtol=0, atol=1e-8),
         "M = W W^T holds for every choice of signs of the diagonal; choose the "
         "positive one, W_ii = +sqrt(D_i)."),
    ]


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


@exercise("the centre-of-mass velocity", rule="(m_0 v_c0 + m_1 v_c1) / (m_0 + m_1)",
          tol=1e-6, hint="the linear part of liedyn.crba.momentum (world frame) "
                         "divided by the total mass; it stays constant along a "
                         "simulation without gravity.")
def ex4(answer):
    """The velocity (m/s, ground frame) of the system's centre of mass, constant in
    time."""
    f = FLOATING
    w0, v0, m0, m1 = f["V_base"][:3], f["V_base"][3:], f["base_mass"], f["bob_mass"]
    vc0 = v0 + np.cross(w0, f["base_com"])
    vc1 = (v0 + np.cross(w0, f["joint_offset"] + f["bob_com"])
           + np.cross(f["w_joint"], f["bob_com"]))
    momentum = m0 * vc0 + m1 * vc1
    return momentum / (m0 + m1), [
        (v0, "this is the velocity of the base frame's origin, not of the centre "
             "of mass of the whole system."),
        (momentum, "this is the linear momentum; divide by the total mass."),
    ]


SWING = {"length": 1.0}
"""Exercise 5: ``liedyn.robots.pendulum(length=SWING["length"])`` in small
oscillations."""


@exercise("the largest stable time step", rule="2 / omega", tol=2e-3,
          hint="linearise: x'' = -omega^2 x with omega^2 = g / l.")
def ex5(answer):
    """The bound on the time step (s) of symplectic Euler on small swings: bounded
    for h < 2/omega.

    At ``h = 2 / omega`` itself the one-step matrix has the double eigenvalue -1 and
    is not diagonalisable, so the solution grows linearly: 2/omega is the supremum
    of the stable steps.
    """
    omega = np.sqrt(GRAVITY / SWING["length"])
    trace = ("close in spirit, but compute it: the one-step matrix of symplectic "
             "Euler on x'' = -omega^2 x has determinant 1; it is stable while its "
             "trace 2 - (omega h)^2 stays strictly inside (-2, 2) (at -2 the "
             "solution grows linearly).")
    return 2 / omega, [
        (2 * np.sqrt(2) / omega, "2 sqrt(2) / omega is the limit of classical RK4 "
                                 "on an oscillator; for symplectic Euler, look at "
                                 "the trace of its one-step matrix."),
        (1 / omega, trace), (2 * np.pi / omega, trace),
    ]


@exercise("the order", rule="2 (the naive RK4 on SO(3))", tol=0.25, hint="")
def ex6(answer):
    """The order of convergence of the naive RK4 configuration error on a spherical
    pendulum."""
    return 2.0, [
        (lambda a: abs(a - 4) <= 0.3, "4 is the order of the velocities and of RK4 "
                                      "on vector-space joints. Measure the "
                                      "configuration error on SO(3) "
                                      "(model.difference) when dt is halved."),
        (lambda a: abs(a - 1) <= 0.3, "order 1 would be Euler's; RK4's stages "
                                      "still cancel the first-order error terms on "
                                      "the group."),
    ], ("{a:g} is not what halving dt gives: log2(error(dt) / error(dt/2)) with "
        "errors well above rounding and dt small enough.")


def ex7(answer):
    """Implement: ``answer(model, q, dq, tau) -> (I_hat, B_hat, ddq)``, Kim (2012),
    Table 3, run by :func:`liedyn.teach.implement.check_aba` on models the reader
    has not seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_aba, not a "
                          f"{type(answer).__name__}")
    return implement.check_aba(answer)


ROD = {"mass": 2.0, "com": 0.3, "I_zz": 0.05}
"""Exercise 8: a rod on a revolute joint about z at one end: its mass (kg), the
distance (m) of its centre of mass from the joint along the rod (x), and its
rotational inertia about z through the centre of mass (kg m^2)."""


@exercise("Pi in the plane", rule="diag(0, m, m I_zz / (I_zz + m r^2)) (Pi S = 0)",
          hint="Pi = I - (I S)(I S)^T / (S^T I S) with the rod's planar inertia "
               "[[I_zz + m r^2, 0, m r], [0, m, 0], [m r, 0, m]].")
def ex8(answer):
    """``Pi`` of :data:`ROD` in the plane, a (3, 3) array in the components
    ``(w_z, v_x, v_y)``."""
    m, r, I_zz = ROD["mass"], ROD["com"], ROD["I_zz"]
    delta = I_zz + m * r ** 2
    own = np.array([[delta, 0.0, m * r], [0.0, m, 0.0], [m * r, 0.0, m]])
    return np.diag([0.0, m, m * I_zz / delta]), [
        (own, "this is the rod's own inertia, what its parent feels with the joint "
              "locked; with the joint free, subtract I S Psi S^T I (step 2 of the "
              "worked example)."),
        (lambda a: max(np.abs(a[0]).max(), np.abs(a[:, 0]).max()) > 1e-8,
         "Pi S = 0 with S = (1, 0, 0): the first row and column of Pi vanish (part "
         "(a) of the exercise)."),
        (np.diag([0.0, m, m]), "across the rod the rod swings about its joint and "
                               "gives way: the entry (v_y, v_y) is m I_zz / (I_zz "
                               "+ m r^2), not m."),
        (np.diag([0.0, m, 0.0]), "that is the Pi of a point mass; this rod has a "
                                 "rotational inertia I_zz about its centre of "
                                 "mass."),
    ]


ARM = {"mass": 1.0, "length": 1.0}
"""Exercise 9: ``liedyn.robots.planar_arm(2)``, the arm of the worked example:
uniform thin links of this mass (kg) and length (m), centres of mass at mid-link."""


@exercise("the elbow angle q_2", tol=0.05, one_number=True,
          rule="arccos(-delta / (m_2 l_1 r_2)), where M_12 = 0",
          hint="the curves touch where the gap M_11 - D_1 = M_12^2 / M_22 closes.")
def ex9(answer):
    """The elbow angle in (0, pi) (rad) at which ``D_1`` (elbow free) and ``M_11``
    (elbow locked) of the arm touch, read off a plot to about 0.05 rad."""
    m, l = ARM["mass"], ARM["length"]
    r = l / 2
    delta = m * l ** 2 / 12 + m * r ** 2            # I_zz,2 + m_2 r_2^2
    cos_q2 = -delta / (m * l * r)
    right = np.arccos(cos_q2)
    return right, [
        (-right, "the curves touch there too (they are even in q_2), but the "
                 "question asks for the angle in (0, pi)."),
        (lambda a: abs(a - np.degrees(right)) < 3, "give the angle in radians."),
        (lambda a: abs(a - cos_q2) < 0.05, "that is cos q_2 at the touching point; "
                                           "give the angle q_2 itself."),
        (lambda a: abs(a - np.pi / 2) < 0.1, "at pi/2 both inertias are near their "
                                             "middle; the curves touch where the "
                                             "gap between them closes."),
        (lambda a: abs(a) < 0.1 or abs(a - np.pi) < 0.1,
         "at 0 the gap between the curves is largest and at pi it is not zero; "
         "look for the angle where it closes."),
    ]
