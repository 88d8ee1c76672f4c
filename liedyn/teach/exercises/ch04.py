"""Checkers for the exercises of :ref:`sec-multibody-models` (chapter 4): the
support of a body, a universal joint's S and dS, a body Jacobian, forward
kinematics, nq and nv, the reader's forward kinematics, the elbow angle read off a
plot of the tip Jacobian's determinant.
"""
import numpy as np

from .. import implement
from . import WrongAnswer, diagnose, exercise
from ._closed_forms import rot

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "PARENTS_EX1",
           "Q_EX2", "DQ_EX3", "Q_EX4", "L_EX4", "Q_EX5", "L_EX5", "JOINTS_EX6"]

PARENTS_EX1 = (-1, 0, 1, 1, 2, 0, 5, 3, 7)
"""Exercise 1: ``parent[i]`` of bodies ``0..8`` (entry 0 is the ground)."""

Q_EX2 = np.array([0.3, -0.5])
"""Exercises 2 and 3: configuration of a universal joint with axes x then y."""

DQ_EX3 = np.array([0.7, -1.2])
"""Exercise 3: joint velocity of the universal joint."""

Q_EX4, L_EX4 = np.array([0.4, 1.1, -0.7]), 1.0
"""Exercise 4: configuration and link length of the planar 3R arm
``planar_arm(3, length=1)``."""

Q_EX5, L_EX5 = np.array([0.3, 0.4, -0.2]), 0.5
"""Exercise 5: configuration and link length of ``planar_arm(3, length=0.5)``."""

JOINTS_EX6 = ("free", "spherical", "revolute", "universal", "spherical", "revolute",
              "universal", "fixed")
"""Exercise 6: the joints of a small humanoid-like tree (one body per joint)."""

_VW = ("this is the (v, w) order; liedyn puts the angular part first.")


def _swap(J):
    """The rows of a Jacobian in the other order: (w, v) <-> (v, w)."""
    return np.vstack([J[3:], J[:3]])


@exercise("the support", checks="the support of body 8, from the ground outwards")
def ex1(answer):
    """The support of body 8 (bodies from the ground to 8, ascending, ground
    excluded)."""
    right, i = [], 8
    while i > 0:
        right, i = [i] + right, PARENTS_EX1[i]
    try:
        a = [int(x) for x in answer]
    except (TypeError, ValueError):
        raise WrongAnswer("give a list of body indices, e.g. [1, 2, 3]") from None
    diagnose(a, right, [
        ([0] + right, "the ground (index 0) is not a body of the support: leave it "
                      "out."),
        (right[::-1], "right bodies, wrong order: list them from the ground "
                      "outwards (ascending indices, since parent[i] < i)."),
        ([8], "the support of body 8 also holds its ancestors: every body whose "
              "joint moves body 8."),
    ], otherwise="follow the parents: 8 -> parent[8] -> ... until the ground, then "
                 "reverse.")


def _universal_S(q):
    S = np.zeros((6, 2))
    S[:3, 0] = rot([0, 1, 0], q[1]).T @ [1.0, 0.0, 0.0]
    S[:3, 1] = [0.0, 1.0, 0.0]
    return S


@exercise("S", rule="[(exp(-[a2] q2) a1, 0), (a2, 0)]")
def ex2(answer):
    """The 6x2 joint Jacobian S of ``Universal([1, 0, 0], [0, 1, 0])`` at
    :data:`Q_EX2`."""
    right = _universal_S(Q_EX2)
    spatial = right.copy()
    spatial[:3, 0] = rot([0, 1, 0], Q_EX2[1]) @ [1.0, 0.0, 0.0]
    return right, [
        (spatial, "the first column is exp(+[a2] q2) a1: that is the spatial axis. "
                  "In the child (body) frame it is exp(-[a2] q2) a1 = R_y(q2)^T "
                  "e_x, since S = T^-1 dT/dq."),
        (_universal_S(np.zeros(2)), "S of a universal joint is not constant: the "
                                    "first axis, seen from the child, turns with "
                                    "the second rotation q2."),
        (_swap(right), _VW),
    ]


@exercise("dS", rule="(-dq2 [a2] exp(-[a2] q2) a1, 0) in the first column",
          hint="differentiate the first column of S in time.")
def ex3(answer):
    """dS (6x2) of the universal joint of exercise 2 at :data:`Q_EX2` moving with
    :data:`DQ_EX3`."""
    right = np.zeros((6, 2))
    a1 = _universal_S(Q_EX2)[:3, 0]                           # exp(-[a2] q2) a1
    right[:3, 0] = -DQ_EX3[1] * np.cross([0.0, 1.0, 0.0], a1)
    return right, [
        (np.zeros((6, 2)), "dS is not zero: the first column of S depends on q2 "
                           "(exercise 2), so it changes when q2 moves (Kim's "
                           "remark after Kim eq. (41))."),
        (-right, "wrong sign: d/dt exp(-[a2] q2) a1 = -dq2 [a2] exp(-[a2] q2) a1."),
        (right / DQ_EX3[1], "this is dS/dq2; the time derivative is dS/dq2 times "
                            "dq2."),
    ]


@exercise("J_3", rule="[Ad_{T_{j,3}^-1} S_j]_j",
          hint="column j is Ad_{T_{j,3}^-1} S_j: joint j's twist carried into {3}.")
def ex4(answer):
    """The body Jacobian J_3 (6x3) of ``planar_arm(3, length=1)`` at :data:`Q_EX4`,
    in {3}."""
    (q1, q2, q3), L = Q_EX4, L_EX4
    s, c = np.sin, np.cos

    def jacobian(first, second):
        J = np.zeros((6, 3))
        J[2] = 1.0
        J[3:5, 0], J[3:5, 1] = first, second
        return J

    right = jacobian(L * np.array([s(q2 + q3) + s(q3), c(q2 + q3) + c(q3)]),
                     L * np.array([s(q3), c(q3)]))
    in_own = jacobian(L * np.array([-s(q2), 1 + c(q2)]), [0.0, L])
    one_link = jacobian(L * np.array([s(q2 + q3), c(q2 + q3)]),
                        L * np.array([s(q3), c(q3)]))
    o2 = L * np.array([c(q1), s(q1)])                 # joint origins in the ground
    o3 = o2 + L * np.array([c(q1 + q2), s(q1 + q2)])
    spatial = jacobian([0.0, 0.0], [o2[1], -o2[0]])
    spatial[3:5, 2] = [o3[1], -o3[0]]
    return right, [
        (in_own, "your columns give the velocity of the origin of {3} in the "
                 "axes of {j}, the joint's own frame; the body Jacobian expresses "
                 "every column in the axes of {3}: turn each by R_{j,3}^T "
                 "(Ad_{T_{j,3}^-1} S_j)."),
        (one_link, "the lever arm of joint 1 reaches the origin of {3} through "
                   "both links: it is p_13 = L (1 + cos q2, sin q2, 0) in {1}, not "
                   "one link length."),
        (spatial, "this is the spatial Jacobian (twists in the ground frame). The "
                  "body Jacobian gives V_3 in {3}: V_3 = J_3 dq."),
        (_swap(right), _VW),
    ]


@exercise("the tip position", rule="sum_k L (cos, sin)(q_1 + ... + q_k)", hint="")
def ex5(answer):
    """The ground-frame position (3,) of the tip of ``planar_arm(3, length=0.5)`` at
    :data:`Q_EX5`."""
    def tip(angles):
        return L_EX5 * np.array([sum(np.cos(angles)), sum(np.sin(angles)), 0.0])
    phi = np.cumsum(Q_EX5)
    return tip(phi), [
        (tip(phi[:2]), "this is the origin of body 3 (its joint); the tip is one "
                       "more link length along its x axis: T_{0,3} (L, 0, 0, 1)."),
        (tip(Q_EX5), "the joint angles are relative: link k points at q_1 + ... + "
                     "q_k. Compose T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}."),
    ]


_SIZES = {"free": (7, 6), "spherical": (4, 3), "revolute": (1, 1),
          "universal": (2, 2), "fixed": (0, 0)}


@exercise("(nq, nv)", rule="the sums of the joints' (nq, nv)", tol=0.0,
          hint="free: (7, 6), spherical: (4, 3), revolute: (1, 1), universal: (2, "
               "2).")
def ex6(answer):
    """``(nq, nv)`` of a model with the joints :data:`JOINTS_EX6`."""
    nq, nv = np.sum([_SIZES[j] for j in JOINTS_EX6], axis=0)
    return np.array([nq, nv]), [
        (lambda a: a[0] == a[1] == nv, "nv is right, but nq counts a unit "
                                       "quaternion with 4 numbers: a spherical "
                                       "joint has nq = 4, a free joint nq = 7."),
        (lambda a: a[1] == nv + 1 or a[0] == nq + 1, "a fixed joint has no "
                                                     "coordinates: nq = nv = 0."),
        ([nv, nq], "swapped: nq (configuration) comes first, and nq >= nv."),
    ]


def ex7(answer):
    """Implement: ``answer(model, q) -> T``, the N+1 poses ``T_{0,i}`` (Kim (2012),
    Section 2.1), run by :func:`liedyn.teach.implement.check_forward_kinematics` on
    models the reader has not seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_fk, not a "
                          f"{type(answer).__name__}")
    return implement.check_forward_kinematics(answer)


@exercise("the elbow angle q_2", tol=0.05, one_number=True,
          rule="pi/2, where |det| = l_1 l_2 |sin q_2| is largest",
          hint="the determinant of the (v_x, v_y) block of the tip's Jacobian is "
               "l_1 l_2 sin q_2.")
def ex8(answer):
    """The elbow angle in (0, pi) (rad) at which the determinant of the tip
    Jacobian's (v_x, v_y) block of ``planar_arm(2)`` is largest in magnitude, read
    off a plot to about 0.05 rad."""
    right = np.pi / 2
    return right, [
        (lambda a: abs(a + right) < 0.05,
         "|det| is as large there too, but the question asks for the angle in "
         "(0, pi)."),
        (lambda a: abs(a - 90) < 3, "give the angle in radians."),
        (lambda a: abs(a) < 0.1 or abs(abs(a) - np.pi) < 0.1,
         "there the determinant vanishes: the arm is stretched out or folded back. "
         "Look for where its magnitude is largest."),
        (lambda a: abs(a - 1.0) < 0.02,
         "1 m^2 is the largest value of the determinant, l_1 l_2; give the elbow "
         "angle at which it is reached."),
    ]
