"""Checkers for the exercises of :ref:`sec-rigid-body-dynamics` (chapter 2).

The expected answers are written out from the formulas of the chapter with plain
numpy, and the typical wrong answers (a forgotten parallel-axis term, a missing 1/2,
the inverse transform, the wrong sign of the bias term, ...) get a hint of their
own.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "CYLINDER", "V_EX2", "T_EX3",
           "V_EX4", "DV_EX4", "J_EX5", "OMEGA_EX6"]


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _blocks(A, B, C, D):
    return np.block([[A, B], [C, D]])


CYLINDER = {"mass": 2.0, "radius": 0.1, "length": 0.5}
"""Exercise 1: a solid cylinder along z; body frame at the centre of its bottom
face."""


def _cylinder_parts():
    m, r, l = CYLINDER["mass"], CYLINDER["radius"], CYLINDER["length"]
    Ic = np.diag([m * (3 * r ** 2 + l ** 2) / 12] * 2 + [m * r ** 2 / 2])
    c = np.array([0.0, 0.0, l / 2])
    return m, c, Ic


def _cylinder_inertia():
    m, c, Ic = _cylinder_parts()
    P = _skew(c)
    return _blocks(Ic + m * P.T @ P, m * P, m * P.T, m * np.eye(3))


def _same(answer, value, tol=1e-8):
    a = np.asarray(answer, dtype=float)
    return a.shape == np.shape(value) and np.max(np.abs(a - value)) <= tol


def ex1(answer):
    """The 6x6 generalized inertia of :data:`CYLINDER` in the bottom-face frame (Kim
    eq. (22))."""
    expected = _cylinder_inertia()
    expect_shape(answer, (6, 6), "the generalized inertia")
    m, c, Ic = _cylinder_parts()
    P = _skew(c)
    if _same(answer,
             _blocks(Ic, np.zeros((3, 3)), np.zeros((3, 3)), m * np.eye(3))):
        raise WrongAnswer("this is the inertia in the centre-of-mass frame. Move "
                          "it to the bottom face: add m [p]^T [p] to the "
                          "rotational block and the coupling blocks m [p], m [p]^T "
                          "(Kim eq. (22)).")
    if _same(answer, _blocks(Ic + m * P.T @ P, m * P.T, m * P, m * np.eye(3))):
        raise WrongAnswer("the coupling blocks are swapped: the upper-right block "
                          "is m [p] (the integral of [r] dm, Kim eq. (20)), the "
                          "lower-left m [p]^T.")
    if _same(answer, _blocks(m * np.eye(3), m * P.T, m * P, Ic + m * P.T @ P)):
        raise WrongAnswer("this is the (v, w) ordering of Murray and Pinocchio; "
                          "liedyn puts the angular part first, V = (w, v).")
    expect_close(answer, expected, "the generalized inertia",
                 hint="use Kim eq. (22) with p = (0, "
                      "0, l/2) and the cylinder's I_c.")


V_EX2 = np.array([1.0, 0.0, 3.0, 0.0, 0.5, 0.0])
"""Exercise 2: the body twist of the cylinder."""


def ex2(answer):
    """The kinetic energy of the cylinder of exercise 1 moving with :data:`V_EX2`
    (Kim eq. (15))."""
    I = _cylinder_inertia()
    e = float(V_EX2 @ I @ V_EX2) / 2
    a = float(expect_shape(answer, (), "the kinetic energy"))
    if np.isclose(a, 2 * e, rtol=1e-10):
        raise WrongAnswer("this is twice the kinetic energy: e = V^T I V / 2.")
    m, c, Ic = _cylinder_parts()
    I_com = _blocks(Ic, np.zeros((3, 3)), np.zeros((3, 3)), m * np.eye(3))
    if np.isclose(a, float(V_EX2 @ I_com @ V_EX2) / 2, rtol=1e-10):
        raise WrongAnswer("you used the centre-of-mass inertia with a twist given "
                          "in the bottom-face frame: use the inertia of exercise 1 "
                          "(same frame).")
    expect_close(a, e, "the kinetic energy", hint="e = V^T I V / 2 (Kim eq. (15)).")


def _rot_x(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


T_EX3 = np.eye(4)
T_EX3[:3, :3], T_EX3[:3, 3] = _rot_x(np.pi / 2), [0.0, 0.0, 0.5]
"""Exercise 3: ``T_ab``, frame {b} (the top face, turned a quarter turn about x)
seen from {a}."""


def _Ad(T):
    R, p = T[:3, :3], T[:3, 3]
    return _blocks(R, np.zeros((3, 3)), _skew(p) @ R, R)


def ex3(answer):
    """The cylinder's inertia expressed in frame {b} of :data:`T_EX3` (Kim eq.
    (21))."""
    I_a, A = _cylinder_inertia(), _Ad(T_EX3)
    expect_shape(answer, (6, 6), "I_b")
    A_inv = np.linalg.inv(A)
    if _same(answer, A_inv.T @ I_a @ A_inv):
        raise WrongAnswer("you transformed with T_ba = T_ab^-1. For I_a given in "
                          "{a}, "
                          "I_b = Ad*_{T_ab} I_a Ad_{T_ab} with T_ab = T_EX3 "
                          "(Kim eq. (21)).")
    if _same(answer, A @ I_a @ A.T):
        raise WrongAnswer("Ad and Ad* are in the wrong places: I_b = Ad_{T_ab}^T "
                          "I_a Ad_{T_ab} "
                          "(it comes from e = V_a^T I_a V_a / 2 with V_a = "
                          "Ad_{T_ab} V_b).")
    expect_close(answer, A.T @ I_a @ A, "I_b", hint="I_b = Ad*_{T_ab} I_a "
                                                    "Ad_{T_ab}.")


V_EX4 = np.array([0.2, -1.0, 0.5, 0.3, 0.0, -0.4])
DV_EX4 = np.array([1.0, 0.0, -0.5, 0.0, 2.0, 0.0])
"""Exercise 4: twist and acceleration of the cylinder (bottom-face frame)."""


def ex4(answer):
    """The wrench ``F = I dV - ad*_V I V`` on the cylinder for :data:`V_EX4`,
    :data:`DV_EX4`."""
    I = _cylinder_inertia()
    w, v = V_EX4[:3], V_EX4[3:]
    L = I @ V_EX4
    bias = np.concatenate(
        [np.cross(w, L[:3]) + np.cross(v, L[3:]), np.cross(w, L[3:])])
    expect_shape(answer, (6,), "the wrench F")
    if _same(answer, I @ DV_EX4):
        raise WrongAnswer("you left out the velocity term -ad*_V I V: the body "
                          "rotates, so its momentum changes direction even at "
                          "constant components.")
    if _same(answer, I @ DV_EX4 - bias):
        raise WrongAnswer("the velocity term has the wrong sign: F = I dV - ad*_V "
                          "I V, and -ad*_V L = (w x L_m + v x L_f, w x L_f).")
    expect_close(answer, I @ DV_EX4 + bias, "the wrench F",
                 hint="use Kim eq. (31).")


J_EX5 = np.array([4.0, 2.0, 3.0])
"""Exercise 5: principal moments of inertia (kg m^2) about the body axes x, y, z."""


def ex5(answer):
    """The principal moment of the axis about which a steady spin is unstable."""
    a = float(expect_shape(answer, (), "the principal moment"))
    J = np.sort(J_EX5)
    if np.isclose(a, J[0]) or np.isclose(a, J[2]):
        raise WrongAnswer("spins about the axes of the smallest and the largest "
                          "moment are stable; the unstable one is in between.")
    if a in (0.0, 1.0, 2.0) and not np.isclose(a, J[1]):
        raise WrongAnswer("give the moment of inertia (kg m^2), not an axis index.")
    expect_close(a, J[1], "the principal moment")


OMEGA_EX6 = 2.0
"""Exercise 6: spin rate (rad/s) about the intermediate axis of :data:`J_EX5`."""


def ex6(answer):
    """The exponential growth rate of a small perturbation of the unstable spin."""
    J1, J2, J3 = np.sort(J_EX5)
    sigma = OMEGA_EX6 * np.sqrt((J2 - J1) * (J3 - J2) / (J1 * J3))
    a = float(expect_shape(answer, (), "the growth rate"))
    if np.isclose(a, sigma ** 2):
        raise WrongAnswer("this is sigma^2, the coefficient of the linearized "
                          "equation d^2/dt^2 w1 = sigma^2 "
                          "w1; take its square root.")
    if np.isclose(a, sigma / OMEGA_EX6):
        raise WrongAnswer("the rate scales with the spin rate: multiply by Omega.")
    expect_close(a, sigma, "the growth rate", tol=1e-6,
                 hint="linearize Euler's equations about w = (0, Omega, 0) in the "
                      "principal frame ordered J1 < J2 < J3.")
