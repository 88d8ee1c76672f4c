"""Checkers for the exercises of :ref:`sec-lagrangian` (chapter 3): a spherical
pendulum, From's velocity map and Coriolis matrices on SO(3), SE(2) and SE(3), and
the angle at which the velocity map of SO(3) is singular (read off a plot).
Exercise 7 asks for an explanation in words and has no checker.
"""
import numpy as np

from . import exercise
from ._closed_forms import skew

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex8", "PENDULUM", "PHI_EX2",
           "BODY_EX3", "V_EX3", "J_EX4", "W_EX4", "I_EX5", "V_EX5", "AXIS_EX8"]

PENDULUM = {"mass": 1.0, "length": 2.0, "theta": np.pi / 3}
"""Exercise 1: a spherical pendulum at polar angle theta (from the downward
vertical)."""


@exercise("M(theta)", rule="m l^2 diag(1, sin^2(theta))", hint="")
def ex1(answer):
    """The 2x2 mass matrix of the spherical pendulum in the coordinates (theta,
    phi)."""
    m, l, th = PENDULUM["mass"], PENDULUM["length"], PENDULUM["theta"]
    return m * l ** 2 * np.diag([1.0, np.sin(th) ** 2]), [
        (m * l ** 2 * np.eye(2), "the azimuth phi moves the bob on a circle of "
                                 "radius l sin(theta), so M_22 = m l^2 "
                                 "sin^2(theta)."),
        (m * l ** 2 * np.diag([1.0, np.sin(th)]), "M_22 has sin(theta) squared: "
                                                  "the speed is l sin(theta) "
                                                  "dphi."),
    ]


PHI_EX2 = np.array([0.0, 0.0, np.pi / 2])
"""Exercise 2: local exponential coordinates on SO(3)."""


@exercise("S(phi)", rule="1 - (1 - cos a)/a^2 [phi] + (a - sin a)/a^3 [phi]^2, "
          "a = |phi|", hint="")
def ex2(answer):
    """From's velocity map ``S(phi)`` (the right Jacobian) at :data:`PHI_EX2`."""
    a, W = np.linalg.norm(PHI_EX2), skew(PHI_EX2)
    right = np.eye(3) - (1 - np.cos(a)) / a**2 * W + (a - np.sin(a)) / a**3 * W @ W
    return right, [
        (right.T, "this is the left Jacobian (spatial velocity). From's S maps "
                  "dphi to the body velocity: S = 1 - ad/2 + ad^2/6 - ... (right "
                  "Jacobian)."),
        (np.eye(3) - W / 2, "the series truncated after two terms is only right "
                            "near phi = 0; sum it: S = 1 - (1 - cos a)/a^2 [phi] + "
                            "(a - sin a)/a^3 [phi]^2 with a = |phi|."),
    ]


BODY_EX3 = {"mass": 2.0, "Iz": 0.5}
"""Exercise 3: a planar body, frame at its centre of mass."""
V_EX3 = np.array([1.0, 0.3, -0.2])
"""Exercise 3: the reduced velocity ``(wz, vx, vy)`` on SE(2), liedyn's order."""


@exercise("C(v)", rule="From eq. (83), permuted to (wz, vx, vy)", hint="")
def ex3(answer):
    """From's Coriolis matrix of the planar body on SE(2), in liedyn's order (wz,
    vx, vy)."""
    r, u, v = V_EX3
    p1, p2 = BODY_EX3["mass"] * u, BODY_EX3["mass"] * v      # From's p1, p2
    from_order = np.array([[0, 0, -p2], [0, 0, p1], [p2, -p1, 0]])  # (u, v, r)
    right = from_order[np.ix_([2, 0, 1], [2, 0, 1])]                # (r, u, v)
    return right, [
        (from_order, "this is From's matrix in his order (u, v, r); permute rows "
                     "and columns to liedyn's (wz, vx, vy)."),
        (-right, "the sign is flipped: C(v) v must equal -ad*_v M v (check with "
                 "v)."),
    ]


J_EX4 = np.diag([1.0, 2.0, 3.0])
W_EX4 = np.array([0.4, -0.7, 1.1])
"""Exercise 4: principal inertia and body angular velocity on SO(3)."""


@exercise("C(w)", rule="-[J w] (From eq. (68))", hint="")
def ex4(answer):
    """From's Coriolis matrix ``C(w)`` on SO(3) for :data:`J_EX4`, :data:`W_EX4`."""
    return -skew(J_EX4 @ W_EX4), [
        (skew(J_EX4 @ W_EX4), "this is the SO(3) entry of From's Table 1, +[Jw], "
                              "which has the wrong sign (see the errata): From eq. "
                              "(68) gives C = -[Jw], and only then is C w = w x (J "
                              "w), Euler's term."),
    ]


I_EX5 = np.diag([2.0, 2.5, 3.0, 4.0, 4.0, 4.0])
I_EX5[0, 4], I_EX5[4, 0] = -0.8, -0.8     # a body whose COM is off the frame origin
I_EX5[1, 3], I_EX5[3, 1] = 0.8, 0.8
V_EX5 = np.array([0.3, -0.5, 0.8, 1.0, 0.2, -0.4])
"""Exercise 5: a generalized inertia (COM at (0, 0, 0.2)) and a twist on SE(3)."""


def _ad(V):
    W = skew(V[:3])
    return np.block([[W, np.zeros((3, 3))], [skew(V[3:]), W]])


@exercise("C(v) v", rule="-ad_v^T M v (From eq. (57))", hint="")
def ex5(answer):
    """The Coriolis wrench ``C(v) v`` of From eq. (57) for :data:`I_EX5`,
    :data:`V_EX5`."""
    right = -_ad(V_EX5).T @ I_EX5 @ V_EX5
    return right, [
        (-_ad(I_EX5 @ V_EX5).T @ V_EX5, "this is Duindam and Stramigioli's C = "
                                        "-ad_{Mv}^T (From eqs. (36)-(37)), which "
                                        "treats the momentum as a twist; From eq. "
                                        "(57) gives -ad_v^T M v."),
        (-right, "the sign is flipped: M dv + C(v) v = tau with C(v) v = -ad_v^T M "
                 "v."),
    ]


@exercise("the pitch angle", hint="", checks="the pitch angle = pi/2, where det = "
          "cos(pitch) of the map from angle rates to w vanishes, to 1e-08")
def ex6(answer):
    """The pitch angle (rad, in [0, pi]) at which ZYX Euler angles lose a degree of
    freedom."""
    independent = ("at zero pitch the three axes z, y, x are independent; the map "
                   "from angle rates to w has det = cos(pitch).")
    return np.pi / 2, [(90.0, "give the angle in radians."), (0.0, independent),
                       (np.pi, independent)]


AXIS_EX8 = np.array([2.0, -1.0, 2.0]) / 3.0
"""Exercise 8: a unit axis; the velocity map is plotted along ``phi = alpha *
AXIS_EX8``."""


@exercise("the angle alpha", tol=0.05, one_number=True,
          rule="2 pi, where sin(alpha/2) / (alpha/2) first vanishes",
          hint="the smallest singular value of S(alpha a) is |sin(alpha/2)| / "
               "(alpha/2); look for its first zero.")
def ex8(answer):
    """The first angle ``alpha > 0`` (rad) at which From's velocity map of SO(3) is
    singular along ``phi = alpha * AXIS_EX8``, read off a plot to about 0.05 rad."""
    return 2 * np.pi, [
        (np.pi, "at pi the map is regular (its smallest singular value is 2/pi); "
                "the logarithm of SO(3) has its trouble there, not S."),
        (360.0, "give the angle in radians."),
        (4 * np.pi, "S is singular at 4 pi too, but it is singular before: look "
                    "for the first zero."),
        (lambda a: abs(a) < 0.05, "at alpha = 0, S is the identity, as regular as "
                                  "it gets; look for alpha > 0."),
    ]
