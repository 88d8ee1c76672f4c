"""Checkers for the exercises of :ref:`sec-lagrangian` (chapter 3).

The expected answers are written out from the formulas of the chapter with plain
numpy; typical wrong answers (a forgotten sin^2, the left instead of the right
Jacobian, From's ordering used unpermuted, the sign of From's Table 1,
Duindam-Stramigioli's Coriolis matrix, degrees) get a hint of their own.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "PENDULUM", "PHI_EX2",
           "BODY_EX3", "V_EX3", "J_EX4", "W_EX4", "I_EX5", "V_EX5"]


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _same(answer, value, tol=1e-8):
    a = np.asarray(answer, dtype=float)
    return a.shape == np.shape(value) and np.max(np.abs(a - value)) <= tol


PENDULUM = {"mass": 1.0, "length": 2.0, "theta": np.pi / 3}
"""Exercise 1: a spherical pendulum at polar angle theta (from the downward
vertical)."""


def ex1(answer):
    """The 2x2 mass matrix of the spherical pendulum in the coordinates (theta,
    phi)."""
    m, l, th = PENDULUM["mass"], PENDULUM["length"], PENDULUM["theta"]
    expected = m * l ** 2 * np.diag([1.0, np.sin(th) ** 2])
    expect_shape(answer, (2, 2), "M(theta)")
    if _same(answer, m * l ** 2 * np.eye(2)):
        raise WrongAnswer("the azimuth phi moves the bob on a circle of radius l "
                          "sin(theta), so M_22 = m l^2 sin^2(theta).")
    if _same(answer, m * l ** 2 * np.diag([1.0, np.sin(th)])):
        raise WrongAnswer("M_22 has sin(theta) squared: "
                          "the speed is l sin(theta) dphi.")
    expect_close(answer, expected, "M(theta)")


PHI_EX2 = np.array([0.0, 0.0, np.pi / 2])
"""Exercise 2: local exponential coordinates on SO(3)."""


def _J_right(phi):
    t = np.linalg.norm(phi)
    W = _skew(phi)
    return np.eye(3) - (1 - np.cos(t)) / t**2 * W + (t - np.sin(t)) / t**3 * W @ W


def ex2(answer):
    """From's velocity map ``S(phi)`` (the right Jacobian) at :data:`PHI_EX2`."""
    expected = _J_right(PHI_EX2)
    expect_shape(answer, (3, 3), "S(phi)")
    if _same(answer, expected.T):
        raise WrongAnswer("this is the left Jacobian (spatial velocity). From's S "
                          "maps dphi to the body velocity: S = 1 - ad/2 + ad^2/6 - "
                          "... (right Jacobian).")
    if _same(answer, np.eye(3) - _skew(PHI_EX2) / 2):
        raise WrongAnswer("the series truncated after two terms is only right near "
                          "phi = 0; sum it: S = 1 - (1 - cos t)/t^2 [phi] + (t - "
                          "sin t)/t^3 [phi]^2.")
    expect_close(answer, expected, "S(phi)")


BODY_EX3 = {"mass": 2.0, "Iz": 0.5}
"""Exercise 3: a planar body, frame at its centre of mass."""
V_EX3 = np.array([1.0, 0.3, -0.2])
"""Exercise 3: the reduced velocity ``(wz, vx, vy)`` on SE(2), liedyn's order."""


def ex3(answer):
    """From's Coriolis matrix of the planar body on SE(2), in liedyn's order (wz,
    vx, vy)."""
    m, Iz = BODY_EX3["mass"], BODY_EX3["Iz"]
    r, u, v = V_EX3
    p1, p2 = m * u, m * v                          # linear momentum (From's p1, p2)
    # From eq. (83), (u, v, r)
    from_order = np.array([[0, 0, -p2], [0, 0, p1], [p2, -p1, 0]])
    perm = [2, 0, 1]                                      # (u, v, r) -> (r, u, v)
    expected = from_order[np.ix_(perm, perm)]
    expect_shape(answer, (3, 3), "C(v)")
    if _same(answer, from_order):
        raise WrongAnswer("this is From's matrix in his order (u, v, r); permute "
                          "rows and columns to liedyn's (wz, vx, vy).")
    if _same(answer, -expected):
        raise WrongAnswer("the sign is flipped: C(v) v must equal -ad*_v M v "
                          "(check with v).")
    expect_close(answer, expected, "C(v)")


J_EX4 = np.diag([1.0, 2.0, 3.0])
W_EX4 = np.array([0.4, -0.7, 1.1])
"""Exercise 4: principal inertia and body angular velocity on SO(3)."""


def ex4(answer):
    """From's Coriolis matrix ``C(w)`` on SO(3) for :data:`J_EX4`, :data:`W_EX4`."""
    p = J_EX4 @ W_EX4
    expect_shape(answer, (3, 3), "C(w)")
    if _same(answer, _skew(p)):
        raise WrongAnswer("this is the SO(3) entry of From's Table 1, +[Jw], which "
                          "has the wrong sign (see the errata): From eq. (68) "
                          "gives C = -[Jw], and only then is C w = w x (J w), "
                          "Euler's term.")
    expect_close(answer, -_skew(p), "C(w)")


I_EX5 = np.diag([2.0, 2.5, 3.0, 4.0, 4.0, 4.0])
I_EX5[0, 4], I_EX5[4, 0] = -0.8, -0.8     # a body whose COM is off the frame origin
I_EX5[1, 3], I_EX5[3, 1] = 0.8, 0.8
V_EX5 = np.array([0.3, -0.5, 0.8, 1.0, 0.2, -0.4])
"""Exercise 5: a generalized inertia (COM at (0, 0, 0.2)) and a twist on SE(3)."""


def _ad(V):
    W = _skew(V[:3])
    return np.block([[W, np.zeros((3, 3))], [_skew(V[3:]), W]])


def ex5(answer):
    """The Coriolis wrench ``C(v) v`` of From eq. (57) for :data:`I_EX5`,
    :data:`V_EX5`."""
    expected = -_ad(V_EX5).T @ I_EX5 @ V_EX5
    expect_shape(answer, (6,), "C(v) v")
    if _same(answer, -_ad(I_EX5 @ V_EX5).T @ V_EX5):
        raise WrongAnswer("this is Duindam and Stramigioli's C = -ad_{Mv}^T "
                          "(From eqs. (36)-(37)), which treats the momentum as a "
                          "twist; From eq. (57) gives -ad_v^T M v.")
    if _same(answer, _ad(V_EX5).T @ I_EX5 @ V_EX5):
        raise WrongAnswer("the sign is flipped: M dv + C(v) v = tau with C(v) v = "
                          "-ad_v^T M v.")
    expect_close(answer, expected, "C(v) v")


def ex6(answer):
    """The pitch angle (rad, in [0, pi]) at which ZYX Euler angles lose a degree of
    freedom."""
    a = float(expect_shape(answer, (), "the pitch angle"))
    if np.isclose(a, 90.0):
        raise WrongAnswer("give the angle in radians.")
    if np.isclose(a, 0.0) or np.isclose(a, np.pi):
        raise WrongAnswer("at zero pitch the three axes z, y, x are independent; "
                          "the map from angle rates to w has det = cos(pitch).")
    expect_close(a, np.pi / 2, "the pitch angle")
