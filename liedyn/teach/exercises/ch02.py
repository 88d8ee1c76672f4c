"""Checkers for the exercises of :ref:`sec-rigid-body-dynamics` (chapter 2): the
inertia, kinetic energy and Newton-Euler wrench of a cylinder, Euler's equations,
the frame on the cylinder's axis where its inertia is least (read off a plot).
Exercise 7 asks for an explanation in words and has no checker.
"""
import numpy as np

from . import exercise
from ._closed_forms import Ad, inertia, rot

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex8", "CYLINDER", "V_EX2",
           "T_EX3", "V_EX4", "DV_EX4", "J_EX5", "OMEGA_EX6"]

CYLINDER = {"mass": 2.0, "radius": 0.1, "length": 0.5}
"""Exercise 1: a solid cylinder along z; body frame at the centre of its bottom
face."""


def _cylinder(at_com=False):
    """The inertia of :data:`CYLINDER` in the bottom-face frame (or in a frame at
    its centre of mass, with the same axes)."""
    m, r, l = CYLINDER["mass"], CYLINDER["radius"], CYLINDER["length"]
    I_c = np.diag([m * (3 * r ** 2 + l ** 2) / 12] * 2 + [m * r ** 2 / 2])
    return inertia(m, [0.0, 0.0, 0.0 if at_com else l / 2], I_c)


def _swap(A):
    """The blocks of a 6x6 matrix in the other order: (w, v) <-> (v, w)."""
    return np.roll(A, 3, axis=(0, 1))


@exercise("the generalized inertia", rule="Kim eq. (22) with p = (0, 0, l/2)",
          hint="use Kim eq. (22) with p = (0, 0, l/2) and the cylinder's I_c.")
def ex1(answer):
    """The 6x6 generalized inertia of :data:`CYLINDER` in the bottom-face frame (Kim
    eq. (22))."""
    right = _cylinder()
    swapped = right.copy()
    swapped[:3, 3:], swapped[3:, :3] = right[3:, :3], right[:3, 3:]
    return right, [
        (_cylinder(at_com=True), "this is the inertia in the centre-of-mass frame. "
                                 "Move it to the bottom face: add m [p]^T [p] to "
                                 "the rotational block and the coupling blocks m "
                                 "[p], m [p]^T (Kim eq. (22))."),
        (swapped, "the coupling blocks are swapped: the upper-right block is m [p] "
                  "(the integral of [r] dm, Kim eq. (20)), the lower-left m "
                  "[p]^T."),
        (_swap(right), "this is the (v, w) ordering of Murray and Pinocchio; "
                       "liedyn puts the angular part first, V = (w, v)."),
    ]


V_EX2 = np.array([1.0, 0.0, 3.0, 0.0, 0.5, 0.0])
"""Exercise 2: the body twist of the cylinder."""


@exercise("the kinetic energy", rule="V^T I V / 2 (Kim eq. (15))")
def ex2(answer):
    """The kinetic energy of the cylinder of exercise 1 moving with :data:`V_EX2`
    (Kim eq. (15))."""
    right = V_EX2 @ _cylinder() @ V_EX2 / 2
    return right, [
        (2 * right, "this is twice the kinetic energy: e = V^T I V / 2."),
        (V_EX2 @ _cylinder(at_com=True) @ V_EX2 / 2,
         "you used the centre-of-mass inertia with a twist given in the "
         "bottom-face frame: use the inertia of exercise 1 (same frame)."),
    ]


T_EX3 = np.eye(4)
T_EX3[:3, :3], T_EX3[:3, 3] = rot([1.0, 0.0, 0.0], np.pi / 2), [0.0, 0.0, 0.5]
"""Exercise 3: ``T_ab``, frame {b} (the top face, turned a quarter turn about x)
seen from {a}."""


@exercise("I_b", rule="Ad*_{T_ab} I_a Ad_{T_ab} (Kim eq. (21))",
          hint="I_b = Ad*_{T_ab} I_a Ad_{T_ab}.")
def ex3(answer):
    """The cylinder's inertia expressed in frame {b} of :data:`T_EX3` (Kim eq.
    (21))."""
    I_a, A = _cylinder(), Ad(T_EX3[:3, :3], T_EX3[:3, 3])
    A_inv = np.linalg.inv(A)
    return A.T @ I_a @ A, [
        (A_inv.T @ I_a @ A_inv, "you transformed with T_ba = T_ab^-1. For I_a "
                                "given in {a}, I_b = Ad*_{T_ab} I_a Ad_{T_ab} with "
                                "T_ab = T_EX3 (Kim eq. (21))."),
        (A @ I_a @ A.T, "Ad and Ad* are in the wrong places: I_b = Ad_{T_ab}^T I_a "
                        "Ad_{T_ab} (it comes from e = V_a^T I_a V_a / 2 with V_a = "
                        "Ad_{T_ab} V_b)."),
    ]


V_EX4 = np.array([0.2, -1.0, 0.5, 0.3, 0.0, -0.4])
DV_EX4 = np.array([1.0, 0.0, -0.5, 0.0, 2.0, 0.0])
"""Exercise 4: twist and acceleration of the cylinder (bottom-face frame)."""


@exercise("the wrench F", rule="I dV - ad*_V I V (Kim eq. (31))",
          hint="use Kim eq. (31).")
def ex4(answer):
    """The wrench ``F = I dV - ad*_V I V`` on the cylinder for :data:`V_EX4`,
    :data:`DV_EX4`."""
    I = _cylinder()
    w, v, L = V_EX4[:3], V_EX4[3:], I @ V_EX4
    bias = np.r_[np.cross(w, L[:3]) + np.cross(v, L[3:]), np.cross(w, L[3:])]
    return I @ DV_EX4 + bias, [
        (I @ DV_EX4, "you left out the velocity term -ad*_V I V: the body rotates, "
                     "so its momentum changes direction even at constant "
                     "components."),
        (I @ DV_EX4 - bias, "the velocity term has the wrong sign: F = I dV - "
                            "ad*_V I V, and -ad*_V L = (w x L_m + v x L_f, w x "
                            "L_f)."),
    ]


J_EX5 = np.array([4.0, 2.0, 3.0])
"""Exercise 5: principal moments of inertia (kg m^2) about the body axes x, y, z."""


@exercise("the principal moment", hint="", checks="the principal moment = the "
          "intermediate one of J_EX5 (the spin about it is unstable), to 1e-08")
def ex5(answer):
    """The principal moment of the axis about which a steady spin is unstable."""
    J = np.sort(J_EX5)
    extreme = ("spins about the axes of the smallest and the largest moment are "
               "stable; the unstable one is in between.")
    return J[1], [(J[0], extreme), (J[2], extreme)] + [
        (k, "give the moment of inertia (kg m^2), not an axis index.")
        for k in (0.0, 1.0, 2.0) if k != J[1]]


OMEGA_EX6 = 2.0
"""Exercise 6: spin rate (rad/s) about the intermediate axis of :data:`J_EX5`."""


@exercise("the growth rate", rule="Omega sqrt((J2 - J1) (J3 - J2) / (J1 J3))",
          tol=1e-6, hint="linearize Euler's equations about w = (0, Omega, 0) in "
                         "the principal frame ordered J1 < J2 < J3.")
def ex6(answer):
    """The exponential growth rate of a small perturbation of the unstable spin."""
    J1, J2, J3 = np.sort(J_EX5)
    sigma = OMEGA_EX6 * np.sqrt((J2 - J1) * (J3 - J2) / (J1 * J3))
    return sigma, [
        (sigma ** 2, "this is sigma^2, the coefficient of the linearized equation "
                     "d^2/dt^2 w1 = sigma^2 w1; take its square root."),
        (sigma / OMEGA_EX6, "the rate scales with the spin rate: multiply by "
                            "Omega."),
    ]


@exercise("the height s", tol=0.01, one_number=True,
          rule="l/2, the centre of mass (the parallel-axis theorem)",
          hint="plot entry (1, 1) of Ad*_{T_as} I_a Ad_{T_as} against s and look "
               "for its least value.")
def ex8(answer):
    """The height ``s`` (m) on the cylinder's axis at which the rotational inertia
    about the x axis of a frame there is least, read off a plot to about 0.01 m."""
    m, r, l = CYLINDER["mass"], CYLINDER["radius"], CYLINDER["length"]
    least = m * (3 * r ** 2 + l ** 2) / 12
    return l / 2, [
        (-l / 2, "that is where the least inertia lies when the frame is moved "
                 "by T_sa = T_as^-1: {S} sits at +s on the axis, T_as = (1, (0, "
                 "0, s))."),
        (lambda a: abs(a - least) < 1e-3,
         "that is the least inertia itself (kg m^2); give the height s where it "
         "is reached."),
        (0.0, "at the bottom face the inertia is I_c,xx + m (l/2)^2, larger than "
              "at the centre of mass."),
        (l, "at the top face the inertia is as large as at the bottom face; the "
            "least lies between."),
    ]
