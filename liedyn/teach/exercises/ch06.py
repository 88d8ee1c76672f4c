"""Checkers for the exercises of :ref:`sec-equations-of-motion` (chapter 6).

The expected answers are written out here with plain numpy from closed forms: the
planar 2R arm ``liedyn.robots.planar_arm(2)`` (links of mass 1 kg and length 1 m,
centre of mass at 0.5 m, ``I_zz = 1/12`` kg m^2, gravity 9.81 m/s^2 along -y), whose
mass matrix is Murray's ``[[a + 2 b c2, d + b c2], [d + b c2, d]]`` with
``a = 5/3``, ``b = 1/2``, ``d = 1/3``, and the transforms of
``liedyn.robots.serial_chain(3)``. Typical wrong answers (gravity left in, a dense
or triangular count, the inverse forgotten, Murray's non-Christoffel factorization,
the transpose, all 20 parameters) get a hint of their own.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "Q_EX1", "PARENTS_EX2",
           "Q_EX3", "Q_EX4", "DQ_EX4", "STATE_EX5"]

_M, _L, _R, _IZZ, _G = 1.0, 1.0, 0.5, 1.0 / 12, 9.81
_ALPHA = 2 * _IZZ + _M * _R ** 2 + _M * (_L ** 2 + _R ** 2)
_BETA = _M * _L * _R
_DELTA = _IZZ + _M * _R ** 2


def _arm_M(q):
    c2 = np.cos(q[1])
    return np.array([[_ALPHA + 2 * _BETA * c2, _DELTA + _BETA * c2],
                     [_DELTA + _BETA * c2, _DELTA]])


def _arm_C(q, dq):
    """The Christoffel Coriolis matrix of the arm (Murray's 2-DOF example)."""
    bs = _BETA * np.sin(q[1])
    return np.array([[-bs * dq[1], -bs * (dq[0] + dq[1])], [bs * dq[0], 0.0]])


def _arm_g(q):
    c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
    return _G * np.array([_M * _R * c1 + _M * (_L * c1 + _R * c12), _M * _R * c12])


def _same(answer, value, tol=1e-8):
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    return (
        a.shape == np.shape(value) and np.max(np.abs(a - value), initial=0.0) <= tol
    )


Q_EX1 = np.array([0.4, 1.1])
"""Exercise 1: the configuration of the planar 2R arm."""


def ex1(answer):
    """The mass matrix of ``planar_arm(2)`` at :data:`Q_EX1`, from n calls of the
    RNEA."""
    M = _arm_M(Q_EX1)
    expect_shape(answer, (2, 2), "M(q)")
    if _same(answer, M + _arm_g(Q_EX1)[:, None]):
        raise WrongAnswer("every column carries the gravity torque g(q): subtract "
                          "rnea(q, 0, 0) from rnea(q, 0, "
                          "e_j) (or switch gravity off).")
    if _same(answer, _arm_g(Q_EX1)[:, None] * np.ones(2)):
        raise WrongAnswer("these are gravity torques: the unit accelerations e_j "
                          "are missing.")
    expect_close(answer, M, "M(q)", hint="column j of M is rnea(q, 0, e_j) - "
                                         "rnea(q, 0, 0).")


PARENTS_EX2 = (0, 1, 2, 1, 0, 5, 5)
"""Exercise 2: the parents of bodies 1..7 of a tree of one-degree-of-freedom
joints."""


def _depths(parents):
    depth = [0]
    for p in parents:
        depth.append(depth[p] + 1)
    return depth[1:]


def ex2(answer):
    """The number of entries of ``M`` that are not zero by the structure of the
    tree."""
    n = len(PARENTS_EX2)
    pairs = sum(_depths(PARENTS_EX2))               # (ancestor or self, body) pairs
    expected = 2 * pairs - n
    try:
        a = float(answer)
    except (TypeError, ValueError):
        raise WrongAnswer("answer with a number, got "
                          f"{type(answer).__name__}") from None
    if a == n * n:
        raise WrongAnswer("M_ij = 0 when neither body is an ancestor of the other: "
                          "joint j moves no body whose inertia joint i supports.")
    if a == pairs:
        raise WrongAnswer("that counts the (ancestor, body) pairs that CRBA "
                          "visits, one triangle; M is symmetric, so count the "
                          "other triangle too.")
    if a == n * (n + 1) / 2:
        raise WrongAnswer("that is the lower triangle of "
                          "a chain; the tree has branches.")
    if a != expected:
        raise WrongAnswer(f"{a:g} is not the count. Entry (i, j) can be non-zero "
                          "only if body i is on the path from the ground to body "
                          "j, or the other way round.")


Q_EX3 = np.array([0.3, -0.7, 1.2])
"""Exercise 3: the configuration of ``serial_chain(3)``."""


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _rot(axis, t):
    A = _skew(axis)
    return np.eye(3) + np.sin(t) * A + (1 - np.cos(t)) * A @ A


def _hom(R, p):
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, p
    return T


def _Ad(T):
    R, p = T[:3, :3], T[:3, 3]
    return np.block([[R, np.zeros((3, 3))], [_skew(p) @ R, R]])


def _chain_T(i, q):
    """``T_{i-1,i}`` of ``serial_chain(3)``: Trans(0.5 x) (for i > 1), rotation
    about z, y, x."""
    axis = np.eye(3)[[2, 1, 0][i - 1]]
    p = np.zeros(3) if i == 1 else np.array([0.5, 0.0, 0.0])
    return _hom(np.eye(3), p) @ _hom(_rot(axis, q[i - 1]), np.zeros(3))


def ex3(answer):
    """Block (3, 1) of ``G = (1 - Gamma)^-1`` of ``serial_chain(3)`` at
    :data:`Q_EX3`."""
    T13 = _chain_T(2, Q_EX3) @ _chain_T(3, Q_EX3)
    expected = _Ad(np.linalg.inv(T13))
    expect_shape(answer, (6, 6), "G_31")
    if _same(answer, np.zeros((6, 6))):
        raise WrongAnswer("that is the block of Gamma; G = 1 + Gamma + Gamma^2 "
                          "collects the product of the two transforms on the way "
                          "from link 1 to link 3.")
    if _same(answer, _Ad(T13)):
        raise WrongAnswer("G maps a twist of link 1 into link 3: Ad of the "
                          "inverse, Ad_{g_{1,3}^-1}.")
    if _same(answer, _Ad(np.linalg.inv(_chain_T(3, Q_EX3)))):
        raise WrongAnswer("that is only the last step Ad_{g_{2,3}^-1} (block (3, "
                          "2)); block (3, 1) also goes through joint 2.")
    expect_close(answer, expected, "G_31", hint="G_31 = Ad_{g_{2,3}^-1} "
                                                "Ad_{g_{1,2}^-1}.")


Q_EX4 = np.array([0.2, np.pi / 3])
DQ_EX4 = np.array([1.0, -0.5])
"""Exercise 4: the state of the planar 2R arm."""


def ex4(answer):
    """The Christoffel Coriolis matrix of ``planar_arm(2)`` at (:data:`Q_EX4`,
    :data:`DQ_EX4`)."""
    C = _arm_C(Q_EX4, DQ_EX4)
    if np.shape(answer) == (2,):
        raise WrongAnswer("that is a vector (perhaps C dq); the exercise asks for "
                          "the matrix C.")
    expect_shape(answer, (2, 2), "C(q, dq)")
    if _same(answer, C.T):
        raise WrongAnswer("transposed: C_ij = sum_k Gamma_ijk dq_k, i is the row.")
    try:
        from ...closed_form import closed_form_matrices
        from ...robots import planar_arm
        murray = closed_form_matrices(planar_arm(2), Q_EX4, DQ_EX4).C
    except Exception:                                 # pragma: no cover - hint only
        murray = None
    if murray is not None and _same(answer, murray):
        raise WrongAnswer("that is the closed form's factorization xi^T G^T (...) "
                          "G xi: the right C dq, but not the Christoffel matrix "
                          "(its dM/dt - 2C is not skew).")
    expect_close(answer, C, "C(q, dq)",
                 hint="only Gamma_112, Gamma_121, Gamma_122 = -b sin(q2) and "
                      "Gamma_211 = b sin(q2) are non-zero.")


STATE_EX5 = {"q": np.array([0.5, -0.8]), "dq": np.array([1.5, 0.7]),
             "ddq": np.array([-0.4, 2.0])}
"""Exercise 5: a state and acceleration of the planar 2R arm."""


def ex5(answer):
    """``d/dt (T + U)`` of ``planar_arm(2)`` moving with ``ddq`` at the state
    :data:`STATE_EX5`."""
    q, dq, ddq = STATE_EX5["q"], STATE_EX5["dq"], STATE_EX5["ddq"]
    tau = _arm_M(q) @ ddq + _arm_C(q, dq) @ dq + _arm_g(q)
    expected = dq @ tau
    try:
        a = float(answer)
    except (TypeError, ValueError):
        raise WrongAnswer("answer with a number (watts), got "
                          f"{type(answer).__name__}") from None
    if abs(a - dq @ (tau - _arm_g(q))) < 1e-8:
        raise WrongAnswer("that is the rate of the kinetic energy only; the "
                          "potential energy changes too: use "
                          "the full tau, gravity included.")
    if abs(a - dq @ (_arm_M(q) @ ddq)) < 1e-8:
        raise WrongAnswer("the velocity terms C dq are missing, and gravity too.")
    expect_close(a, expected, "d/dt (T + U)", tol=1e-6,
                 hint="the power of the joint torques is "
                      "dq^T tau, tau = rnea(q, dq, ddq).")


def ex6(answer):
    """The rank of the regressor of ``planar_arm(2)`` stacked over many random
    states."""
    try:
        a = float(answer)
    except (TypeError, ValueError):
        raise WrongAnswer("answer with a number, got "
                          f"{type(answer).__name__}") from None
    if a == 20:
        raise WrongAnswer("not all 20 parameters change the torques: e.g. the "
                          "inertia about x never matters in the plane. Stack Y "
                          "over many states and take the rank.")
    if a == 4:
        raise WrongAnswer("that is the rank without gravity; with gravity the "
                          "first moments of link 1 show up separately.")
    if a != 6:
        raise WrongAnswer(f"{a:g} is not the rank; compute np.linalg.matrix_rank "
                          "of the stacked regressor, of "
                          "shape (2 K, 20) for K states.")
