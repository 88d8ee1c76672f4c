"""Checkers for the exercises of :ref:`sec-multibody-models` (chapter 4).

The expected answers are written out here with plain numpy from the chapter's
formulas (not with liedyn), and typical wrong answers get a hint of their own: the
ground counted as a body, the spatial instead of the body frame, a Jacobian column
left in the parent's frame, ``dS = 0`` for a universal joint, angles not accumulated
along the chain, a quaternion counted with 3 numbers.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "PARENTS_EX1", "Q_EX2",
           "DQ_EX3", "Q_EX4", "L_EX4", "Q_EX5", "L_EX5", "JOINTS_EX6"]

PARENTS_EX1 = (-1, 0, 1, 1, 2, 0, 5, 3, 7)
"""Exercise 1: ``parent[i]`` of bodies ``0..8`` (entry 0 is the ground)."""

Q_EX2 = np.array([0.3, -0.5])
"""Exercises 2 and 3: configuration of a universal joint with axes x then y."""

DQ_EX3 = np.array([0.7, -1.2])
"""Exercise 3: joint velocity of the universal joint."""

Q_EX4, L_EX4 = np.array([0.4, 1.1]), 1.0
"""Exercise 4: configuration and link length of the planar 2R arm
``planar_arm(2, length=1)``."""

Q_EX5, L_EX5 = np.array([0.3, 0.4, -0.2]), 0.5
"""Exercise 5: configuration and link length of ``planar_arm(3, length=0.5)``."""

JOINTS_EX6 = ("free", "spherical", "revolute", "universal", "spherical", "revolute",
              "universal", "fixed")
"""Exercise 6: the joints of a small humanoid-like tree (one body per joint)."""


def _same(answer, value, tol=1e-8):
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        return False
    return (
        a.shape == np.shape(value) and np.max(np.abs(a - value), initial=0.0) <= tol
    )


def _rot(axis, angle):
    a = np.asarray(axis, dtype=float)
    K = np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def _support(parents, i):
    path = []
    while i > 0:
        path.append(i)
        i = parents[i]
    return path[::-1]


def ex1(answer):
    """The support of body 8 (bodies from the ground to 8, ascending, ground
    excluded)."""
    expected = _support(PARENTS_EX1, 8)
    try:
        a = [int(x) for x in answer]
    except (TypeError, ValueError):
        raise WrongAnswer("give a list of body indices, e.g. [1, 2, 3]") from None
    if a == expected:
        return
    if a == [0] + expected:
        raise WrongAnswer("the ground (index 0) is not a body of the support: "
                          "leave it out.")
    if a == expected[::-1]:
        raise WrongAnswer("right bodies, wrong order: list them from the ground "
                          "outwards (ascending indices, since parent[i] < i).")
    if a == [8]:
        raise WrongAnswer("the support of body 8 also holds its ancestors: every "
                          "body whose joint moves body 8.")
    raise WrongAnswer("follow the parents: 8 -> parent[8] -> ... until the ground, "
                      "then reverse.")


def _universal_S(q):
    Ry = _rot([0, 1, 0], q[1])
    S = np.zeros((6, 2))
    S[:3, 0] = Ry.T @ np.array([1.0, 0.0, 0.0])
    S[:3, 1] = [0.0, 1.0, 0.0]
    return S


def ex2(answer):
    """The 6x2 joint Jacobian S of ``Universal([1, 0, 0], [0, 1, 0])`` at
    :data:`Q_EX2`."""
    expected = _universal_S(Q_EX2)
    expect_shape(answer, (6, 2), "S")
    spatial = expected.copy()
    spatial[:3, 0] = _rot([0, 1, 0], Q_EX2[1]) @ np.array([1.0, 0.0, 0.0])
    if _same(answer, spatial):
        raise WrongAnswer("the first column is exp(+[a2] q2) a1: that is the "
                          "spatial axis. In the child (body) frame it is exp(-[a2] "
                          "q2) a1 = R_y(q2)^T e_x, since S = T^-1 dT/dq.")
    if _same(answer, np.vstack([np.eye(3)[:, :2], np.zeros((3, 2))])):
        raise WrongAnswer("S of a universal joint is not constant: the first axis, "
                          "seen from the child, turns with the second rotation q2.")
    if _same(answer, np.vstack([expected[3:], expected[:3]])):
        raise WrongAnswer("this is the (v, w) order; liedyn "
                          "puts the angular part first.")
    expect_close(answer, expected, "S", hint="S = [(exp(-[a2] q2) "
                                             "a1, 0), (a2, 0)].")


def ex3(answer):
    """dS (6x2) of the universal joint of exercise 2 at :data:`Q_EX2` moving with
    :data:`DQ_EX3`."""
    S = _universal_S(Q_EX2)
    a2 = np.array([0.0, 1.0, 0.0])
    expected = np.zeros((6, 2))
    expected[:3, 0] = -DQ_EX3[1] * np.cross(a2, S[:3, 0])
    expect_shape(answer, (6, 2), "dS")
    if _same(answer, np.zeros((6, 2))):
        raise WrongAnswer("dS is not zero: the first column of S depends on q2 "
                          "(exercise 2), so it changes when q2 moves (Kim's remark "
                          "after Kim eq. (41)).")
    if _same(answer, -expected):
        raise WrongAnswer("wrong sign: d/dt exp(-[a2] q2) "
                          "a1 = -dq2 [a2] exp(-[a2] q2) a1.")
    if _same(answer, expected / DQ_EX3[1]):
        raise WrongAnswer("this is dS/dq2; the time "
                          "derivative is dS/dq2 times dq2.")
    expect_close(answer, expected, "dS", hint="differentiate the first "
                                              "column of S in time.")


def _planar_body_jacobian_2(q, L):
    J = np.zeros((6, 2))
    J[2] = [1.0, 1.0]
    J[3:5, 0] = [L * np.sin(q[1]), L * np.cos(q[1])]
    return J


def ex4(answer):
    """The body Jacobian J_2 (6x2) of ``planar_arm(2, length=1)`` at :data:`Q_EX4`,
    in {2}."""
    expected = _planar_body_jacobian_2(Q_EX4, L_EX4)
    expect_shape(answer, (6, 2), "J_2")
    in_parent = expected.copy()
    in_parent[3:5, 0] = [0.0, L_EX4]
    if _same(answer, in_parent):
        raise WrongAnswer("the first column is joint 1's twist seen from {1}; "
                          "express it in {2}: "
                          "Ad_{T_{1,2}^-1} S_1.")
    c1, s1 = np.cos(Q_EX4[0]), np.sin(Q_EX4[0])
    spatial = np.zeros((6, 2))
    spatial[2] = [1.0, 1.0]
    spatial[3:5, 1] = [L_EX4 * s1, -L_EX4 * c1]
    if _same(answer, spatial):
        raise WrongAnswer("this is the spatial Jacobian (twists in the ground "
                          "frame). The body Jacobian gives V_2 in {2}: V_2 = J_2 "
                          "dq.")
    if _same(answer, np.vstack([expected[3:], expected[:3]])):
        raise WrongAnswer("this is the (v, w) order; liedyn "
                          "puts the angular part first.")
    expect_close(answer, expected, "J_2", hint="column j is Ad_{T_{j,2}^-1} S_j.")


def ex5(answer):
    """The ground-frame position (3,) of the tip of ``planar_arm(3, length=0.5)`` at
    :data:`Q_EX5`."""
    phi = np.cumsum(Q_EX5)
    expected = np.array(
        [np.sum(L_EX5 * np.cos(phi)), np.sum(L_EX5 * np.sin(phi)), 0.0])
    expect_shape(answer, (3,), "the tip position")
    if _same(answer,
             expected - L_EX5 * np.array([np.cos(phi[2]), np.sin(phi[2]), 0.0])):
        raise WrongAnswer("this is the origin of body 3 (its joint); the tip is "
                          "one more link length along its x axis: T_{0,3} (L, 0, "
                          "0, 1).")
    if _same(answer,
             [np.sum(L_EX5 * np.cos(Q_EX5)), np.sum(L_EX5 * np.sin(Q_EX5)), 0.0]):
        raise WrongAnswer("the joint angles are relative: link k points at q_1 + "
                          "... + q_k. Compose T_{0,i} = T_{0,lambda(i)} "
                          "T_{lambda(i),i}.")
    expect_close(answer, expected, "the tip position")


_SIZES = {"free": (7, 6), "spherical": (4, 3), "revolute": (1, 1),
          "universal": (2, 2), "fixed": (0, 0)}


def ex6(answer):
    """``(nq, nv)`` of a model with the joints :data:`JOINTS_EX6`."""
    nq = sum(_SIZES[j][0] for j in JOINTS_EX6)
    nv = sum(_SIZES[j][1] for j in JOINTS_EX6)
    a = expect_shape(answer, (2,), "(nq, nv)")
    if a[1] == nv and a[0] == nv:
        raise WrongAnswer("nv is right, but nq counts a unit quaternion with 4 "
                          "numbers: a spherical joint has "
                          "nq = 4, a free joint nq = 7.")
    if a[1] == nv + 1 or a[0] == nq + 1:
        raise WrongAnswer("a fixed joint has no coordinates: nq = nv = 0.")
    if a[0] == nv and a[1] == nq:
        raise WrongAnswer("swapped: nq (configuration) comes first, and nq >= nv.")
    expect_close(answer, [nq, nv], "(nq, nv)", tol=0.0,
                 hint="free: (7, 6), spherical: (4, 3), revolute: (1, 1), "
                      "universal: (2, 2).")
