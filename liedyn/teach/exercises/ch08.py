"""Checkers for the exercises of :ref:`sec-hybrid-dynamics` (chapter 8): the planar
two-link arm with one joint prescribed, a leaf body's Pi, a two-body space robot,
a released rod, the slope of the pendubot's shoulder torque.
"""
import numpy as np

from . import exercise
from ._closed_forms import GRAVITY, Ad, inertia, rot, two_link_arm

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ARM", "Q_ARM",
           "DQ_ARM", "DDQ1_EX1", "DDQ2_EX2", "BODY_EX3", "SPACE_EX4", "GRAVITY",
           "RELEASE_EX6"]

ARM = {"mass": 1.0, "length": 1.0}
"""Exercises 1-2 and 7: ``liedyn.robots.planar_arm(2)``: uniform thin links of this
mass and length, revolute about z, stretched along +x at ``q = 0``, gravity
``-GRAVITY`` along y."""

Q_ARM = np.array([0.4, -0.7])
DQ_ARM = np.array([0.3, -1.1])
"""Exercises 1-2: the state ``(q, dq)`` of the arm."""

DDQ1_EX1 = 2.0
"""Exercise 1: prescribed acceleration of joint 1 (the elbow, joint 2, is
passive)."""

DDQ2_EX2 = -1.5
"""Exercise 2: prescribed acceleration of joint 2 (the shoulder, joint 1, is
passive)."""


def _hybrid_2r(u, ddq_u, dq=DQ_ARM, g=GRAVITY):
    """``(tau_u, ddq_v)`` of the arm with joint ``u`` (0 or 1) prescribed, the other
    passive: Kim eq. (34) for ``ddq_v``, then the u-row for ``tau_u``; and the
    ``ddq_v`` of forward dynamics with every torque zero."""
    M, C, grav = two_link_arm(Q_ARM, dq, (ARM["mass"],) * 2, ARM["length"], g)
    b, v = C @ dq + grav, 1 - u
    ddq = np.zeros(2)
    ddq[u] = ddq_u
    ddq[v] = (0.0 - b[v] - M[v, u] * ddq_u) / M[v, v]
    return M[u] @ ddq + b[u], ddq[v], np.linalg.solve(M, -b)[v]


def _arm_mistakes(u, ddq_u, order):
    """The right ``order`` = "tau, ddq" (or "ddq, tau") pair, and the mistakes."""
    def pair(t, d):
        return np.array([t, d] if order == "tau, ddq" else [d, t])
    tau, ddq, free = _hybrid_2r(u, ddq_u)
    right = pair(tau, ddq)
    passive = 1 if order == "tau, ddq" else 0
    return right, [
        (right[::-1], f"the two numbers are in the wrong order: give ({order})."),
        (pair(*_hybrid_2r(u, ddq_u, g=0.0)[:2]), "you left out gravity: b(q, dq) "
                                                 "contains the gravity torques "
                                                 "(the arm moves in a vertical "
                                                 "plane)."),
        (pair(*_hybrid_2r(u, ddq_u, dq=np.zeros(2))[:2]),
         "you left out the velocity (Coriolis and centrifugal) terms of b(q, dq)."),
        (lambda a: np.isclose(a[passive], free, atol=1e-8),
         "this passive acceleration is forward dynamics with every torque zero; "
         "but the prescribed joint is driven: its acceleration is given and its "
         "torque is an unknown. Use Kim eq. (34) with the coupling term."),
    ]


_HYBRID = dict(rule="Kim eq. (34) for the passive joint, a u-row for the torque",
               hint="partition M and b into u and v (Kim eq. (33)), solve Kim eq. "
                    "(34) for the passive acceleration, then the u-rows for the "
                    "torque.")


@exercise("(tau_1, ddq_2)", **_HYBRID)
def ex1(answer):
    """Pendubot: joint 1 prescribed (``DDQ1_EX1``), joint 2 passive;
    ``(tau_1, ddq_2)``."""
    return _arm_mistakes(0, DDQ1_EX1, "tau, ddq")


@exercise("(ddq_1, tau_2)", **_HYBRID)
def ex2(answer):
    """Acrobot: joint 1 passive, joint 2 prescribed (``DDQ2_EX2``);
    ``(ddq_1, tau_2)``."""
    return _arm_mistakes(1, DDQ2_EX2, "ddq, tau")


BODY_EX3 = {"mass": 2.0, "com": np.array([0.0, -0.5, 0.1]),
            "I_com": np.diag([0.01, 0.02, 0.03]), "axis": np.array([0.0, 0.0, 1.0])}
"""Exercise 3: a leaf body on a revolute joint about ``axis`` (its inertia in the
body frame: ``liedyn.inertia.spatial_inertia(mass, com, I_com)``)."""


@exercise("Pi", rule="I_hat - I_hat S Psi S^T I_hat",
          hint="I_hat = I for a leaf; Psi = (S^T I_hat S)^-1.")
def ex3(answer):
    """``Pi`` that the leaf body of :data:`BODY_EX3` passes to its parent, its joint
    passive."""
    b = BODY_EX3
    I = inertia(b["mass"], b["com"], b["I_com"])
    S = np.r_[b["axis"], np.zeros(3)][:, None]
    removed = I @ S @ np.linalg.inv(S.T @ I @ S) @ S.T @ I
    return I - removed, [
        (I, "Pi = I_hat is the prescribed-joint case (Table 4, i in u). A passive "
            "joint lets the body move along S, so the parent feels less: Pi = "
            "I_hat - I_hat S Psi S^T I_hat."),
        (removed, "this is the part that is removed, I_hat S Psi S^T I_hat; Pi is "
                  "what is left: I_hat minus it."),
        (lambda a: np.max(np.abs(a @ S)) > 1e-8 and np.allclose(a, a.T, atol=1e-8),
         lambda a: "Pi S should be zero (the joint transmits no inertia along its "
                   "own motion); yours gives |Pi S| = "
                   f"{np.max(np.abs(a @ S)):.3g}."),
    ]


SPACE_EX4 = {"base_izz": 2.0, "link_izz": 0.5, "turn": np.pi / 2}
"""Exercise 4: a free-floating base and one link on a revolute joint about z whose
axis passes through both centres of mass (rotational inertias about it ``base_izz``,
``link_izz``); no gravity, at rest; the joint turns by ``turn`` (rad)."""


@exercise("the base rotation", rule="-I_l / (I_b + I_l) turn", tol=1e-6,
          hint="write the angular momentum about the joint axis and set it to "
               "zero.")
def ex4(answer):
    """The base's rotation angle about z (rad) when the joint of :data:`SPACE_EX4`
    turns."""
    Ib, Il, d = SPACE_EX4["base_izz"], SPACE_EX4["link_izz"], SPACE_EX4["turn"]
    right = -Il / (Ib + Il) * d
    return right, [
        (-right, "wrong sign: the base turns against the link, so that the total "
                 "angular momentum stays zero."),
        (-Il / Ib * d, "the link's absolute angular velocity is w_base + dtheta, "
                       "not dtheta: I_b w_b + I_l (w_b + dtheta) = 0."),
        (np.degrees(right), "give the angle in radians."),
    ]


@exercise("the centre-of-mass acceleration", rule="(0, 0, -g)", tol=1e-5,
          hint="the only external force is gravity; the joint torques are "
               "internal. Compute d/dt of the world linear momentum "
               "(liedyn.crba.momentum) and divide by the total mass.")
def ex5(answer):
    """The world-frame acceleration (m/s^2) of the centre of mass of the falling
    humanoid."""
    g = np.array([0.0, 0.0, -GRAVITY])
    return g, [
        (-g, "wrong sign: gravity pulls the centre of mass down (-z)."),
        (np.zeros(3), "nothing holds the robot up: no contact, a passive free "
                      "joint (tau_base = 0), so only gravity acts on the whole "
                      "system."),
    ]


RELEASE_EX6 = {"base_mass": 3.0, "rod_mass": 2.0, "rod_length": 1.0}
"""Exercise 6: a base body (Free joint, centre of mass at its origin) holds a
uniform thin rod on a revolute joint about z at the base origin; the rod points
along +x, gravity is ``-GRAVITY`` along y. At rest; the base is prescribed not to
move, the rod's joint is passive."""


@exercise("tau_base", rule="(0, 0, 0, 0, (m_base + m_rod / 4) g, 0)", tol=1e-6,
          hint="the rod swings about the pivot with angular acceleration 3g/(2l).")
def ex6(answer):
    """The wrench ``tau_base = (m, f)`` (base frame) that holds the base as the rod
    is released."""
    mb, m = RELEASE_EX6["base_mass"], RELEASE_EX6["rod_mass"]
    lift = np.array([0.0, 0.0, 0.0, 0.0, GRAVITY, 0.0])      # (m, f) per kg
    return (mb + m / 4) * lift, [
        (np.roll((mb + m / 4) * lift, 3), "liedyn orders wrenches moment first: "
                                          "(m, f)."),
        ((mb + m) * lift, "(m_base + m_rod) g is the static weight; the released "
                          "rod's centre of mass accelerates downward (3g/4), so "
                          "the base carries less."),
        (m / 4 * lift, "the base is held against its own weight too: add m_base "
                       "g."),
        (-(mb + m / 4) * lift, "wrong sign: tau_base is the wrench the support "
                               "applies to the base (upward, +y)."),
    ]


@exercise("I_hat_1", rule="I_1 + Ad_{T_12^-1}^T I_2 Ad_{T_12^-1}",
          hint="I_hat_1 = I_1 + Ad_{T_12^-1}^T I_2 Ad_{T_12^-1}, with T_12 = X_2 "
               "J_2(q_2).")
def ex7(answer):
    """``I_hat_1`` (6x6, body frame 1) of the arm at ``Q_ARM`` with every joint
    prescribed: the composite inertia of both links."""
    m, l = ARM["mass"], ARM["length"]
    I = inertia(m, [l / 2, 0.0, 0.0], np.diag([0.0, 1.0, 1.0]) * m * l ** 2 / 12)
    R, p = rot([0.0, 0.0, 1.0], Q_ARM[1]), np.array([l, 0.0, 0.0])    # T_12 = X Phi
    A, B = Ad(R.T, -R.T @ p), Ad(R, p)                  # Ad_{T_12^-1}, Ad_{T_12}
    S = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])[:, None]
    Pi_v = I - I @ S @ np.linalg.inv(S.T @ I @ S) @ S.T @ I     # joint 2 given
    return I + A.T @ I @ A, [
        (I, "this is body 1 alone. With joint 2 prescribed, body 2 passes its "
            "whole inertia (Pi_2 = I_hat_2 = I_2): add it, moved into frame 1."),
        (2 * I, "I_2 is expressed in frame 2: move it into frame 1 with "
                "Ad_{T_12^-1}^T I_2 Ad_{T_12^-1} before adding it."),
        (I + A.T @ Pi_v @ A, "this Pi_2 is the torque-given one, with the inertia "
                             "along joint 2 projected out; a prescribed joint "
                             "passes I_hat_2 itself."),
        (I + B.T @ I @ B, "the transform goes the other way: Ad_{T_12^-1} maps a "
                          "twist of body 1 into frame 2, and I_2 is moved with "
                          "Ad_{T_12^-1}^T I_2 Ad_{T_12^-1}."),
    ]


def _near(x, rtol=0.02):
    """A test of an answer read off a plot: within ``rtol`` of ``x``."""
    return lambda a: abs(a - x) <= rtol * abs(x)


@exercise("the slope d tau_1 / d ddq_1", rtol=0.02, tol=0.0, one_number=True,
          rule="M_11 - M_12^2 / M_22 = D_1",
          hint="the elbow is passive: solve its row for ddq_2 (Kim eq. (34)) and "
               "put it into the shoulder's row; tau_1 is affine in ddq_1.")
def ex8(answer):
    """The slope (kg m^2) of the pendubot's shoulder torque against its prescribed
    acceleration, the elbow passive, read off a plot to about 2 %."""
    M, C, grav = two_link_arm(Q_ARM, DQ_ARM, (ARM["mass"],) * 2, ARM["length"],
                              GRAVITY)
    b = C @ DQ_ARM + grav
    slope = M[0, 0] - M[0, 1] ** 2 / M[1, 1]
    at_zero = b[0] - M[0, 1] * b[1] / M[1, 1]
    return slope, [
        (_near(M[0, 0]), "this is M_11, the slope with the elbow locked; the "
                         "passive elbow gives way, and the shoulder feels less."),
        (_near(M[1, 1]), "this is M_22, the elbow's own inertia; the question asks "
                         "for the shoulder's torque against the shoulder's "
                         "acceleration."),
        (_near(at_zero), "this is the line's value at ddq_1 = 0 (gravity and "
                         "velocity terms); give its slope."),
        (_near(-M[1, 0] / M[1, 1]), "this is the slope of the elbow's acceleration "
                                    "ddq_2 against ddq_1; plot the shoulder torque "
                                    "tau_1."),
    ]
