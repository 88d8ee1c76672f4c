"""The chapters' formulas written out with plain numpy, for the checkers.

A checker's right answer should not come from the liedyn code that the notebook
uses, so the small models of the exercises are written here in closed form
(Lagrange's equations by hand): the planar two-link arm of uniform thin links and
the double pendulum of point masses, with ``M``, the Christoffel ``C`` and the
gravity torques.
The tests compare them with liedyn.

>>> M, C, grav = two_link_arm([0.0, 0.0], [0.0, 0.0])
>>> round(float(M[1, 1]), 6), round(float(grav[1]), 4)    # I_c + m l_c^2, m l_c g
(0.333333, 4.905)
"""
import numpy as np

GRAVITY = 9.81
"""Magnitude of the gravity acceleration (m/s^2) of the exercises."""


def skew(a):
    """``[a]`` (3, 3) with ``[a] b = a x b``."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def rot(axis, angle):
    """Rotation (3, 3) by ``angle`` about the unit ``axis`` (Rodrigues)."""
    K = skew(np.asarray(axis, dtype=float))
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def Ad(R, p):
    """``Ad_T`` (6, 6) of ``T = (R, p)``, twists ``(w, v)`` (Kim eq. (7))."""
    return np.block([[R, np.zeros((3, 3))], [skew(p) @ R, R]])


def inertia(mass, com, I_com):
    """Generalized inertia (6, 6), frame off the centre of mass (Kim eq. (22))."""
    P = skew(com)
    return np.block([[I_com + mass * P.T @ P, mass * P],
                     [mass * P.T, mass * np.eye(3)]])


def two_link_arm(q, dq, masses=(1.0, 1.0), length=1.0, g=GRAVITY):
    """``M``, Christoffel ``C`` (2, 2), gravity torques (2,) of ``planar_arm(2)``.

    Uniform thin links of ``length``, centres of mass at ``length / 2``, revolute
    about z, stretched along +x at ``q = 0``, gravity ``-g`` along y.
    """
    (m1, m2), l = masses, length
    lc, I1, I2 = l / 2, m1 * l ** 2 / 12, m2 * l ** 2 / 12
    c2, h = np.cos(q[1]), m2 * l * lc * np.sin(q[1])
    M12 = I2 + m2 * (lc ** 2 + l * lc * c2)
    M11 = I1 + I2 + m1 * lc ** 2 + m2 * (l ** 2 + lc ** 2 + 2 * l * lc * c2)
    M = np.array([[M11, M12], [M12, I2 + m2 * lc ** 2]])
    C = np.array([[-h * dq[1], -h * (dq[0] + dq[1])], [h * dq[0], 0.0]])
    c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
    grav = g * np.array([(m1 * lc + m2 * l) * c1 + m2 * lc * c12, m2 * lc * c12])
    return M, C, grav


def double_pendulum(q, dq, masses, lengths, g=GRAVITY, bob1=None):
    """``M``, Christoffel ``C`` (2, 2) and gravity torques (2,) of
    ``double_pendulum(masses, lengths)``.

    Point masses on massless rods, revolute about z, hanging along -y at ``q = 0``;
    ``bob1`` is the distance of the first mass from joint 1 (by default the first
    length, which also places joint 2).
    """
    (m1, m2), (l1, l2) = masses, lengths
    a1 = l1 if bob1 is None else bob1
    c2, h = np.cos(q[1]), m2 * l1 * l2 * np.sin(q[1])
    M12 = m2 * (l2 ** 2 + l1 * l2 * c2)
    M = np.array([[m1 * a1 ** 2 + m2 * (l1 ** 2 + l2 ** 2 + 2 * l1 * l2 * c2), M12],
                  [M12, m2 * l2 ** 2]])
    C = np.array([[-h * dq[1], -h * (dq[0] + dq[1])], [h * dq[0], 0.0]])
    s1, s12 = np.sin(q[0]), np.sin(q[0] + q[1])
    grav = g * np.array([(m1 * a1 + m2 * l1) * s1 + m2 * l2 * s12,
                         m2 * l2 * s12])
    return M, C, grav
