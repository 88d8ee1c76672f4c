"""Checkers for the exercises of :ref:`sec-hybrid-dynamics` (chapter 8).

The expected answers are written out in closed form with plain numpy (the planar
two-link arm's textbook mass matrix, the momentum balance of a two-body space robot,
the classical released rod), so they do not depend on the liedyn code the notebook
uses. Typical wrong answers (the outputs in the wrong order, gravity or the velocity
terms forgotten, the passive joint treated as if every torque were given, the
prescribed-joint ``Pi = I_hat``, a sign, the static weight) get a hint of their own.
"""
import numpy as np

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ARM", "Q_ARM",
           "DQ_ARM", "DDQ1_EX1", "DDQ2_EX2", "BODY_EX3", "SPACE_EX4", "GRAVITY",
           "RELEASE_EX6"]

GRAVITY = 9.81
"""Magnitude of the gravity acceleration (m/s^2) in every exercise."""

ARM = {"mass": 1.0, "length": 1.0}
"""Exercises 1-2: ``liedyn.robots.planar_arm(2)``: uniform thin links of this mass
and length, revolute about z, stretched along +x at ``q = 0``, gravity ``-GRAVITY``
along y."""

Q_ARM = np.array([0.4, -0.7])
DQ_ARM = np.array([0.3, -1.1])
"""Exercises 1-2: the state ``(q, dq)`` of the arm."""

DDQ1_EX1 = 2.0
"""Exercise 1: prescribed acceleration of joint 1 (the elbow, joint 2, is
passive)."""

DDQ2_EX2 = -1.5
"""Exercise 2: prescribed acceleration of joint 2 (the shoulder, joint 1, is
passive)."""


def _same(answer, value, tol=1e-8):
    a = np.asarray(answer, dtype=float)
    return a.shape == np.shape(value) and bool(np.max(np.abs(a - value)) <= tol)


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _arm_terms(q, dq, g=GRAVITY, velocity=True):
    """Closed-form ``M(q)``, ``b(q, dq)`` of the planar 2R arm with thin uniform
    links."""
    m, l = ARM["mass"], ARM["length"]
    lc, Iz = l / 2, m * l ** 2 / 12
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M = np.array([[2 * Iz + m * lc ** 2 + m * (l ** 2 + lc ** 2 + 2 * l * lc * c2),
                   Iz + m * (lc ** 2 + l * lc * c2)],
                  [Iz + m * (lc ** 2 + l * lc * c2), Iz + m * lc ** 2]])
    h = m * l * lc * s2 if velocity else 0.0
    grav = np.array(
        [(m * lc + m * l) * g * np.cos(q[0]) + m * lc * g * np.cos(q[0] + q[1]),
         m * lc * g * np.cos(q[0] + q[1])])
    b = np.array([-h * (2 * dq[0] * dq[1] + dq[1] ** 2), h * dq[0] ** 2]) + grav
    return M, b


def _hybrid_2r(u, ddq_u, **kw):
    """Solve Kim eq. (34) for the 2R arm with joint ``u`` (0 or 1) prescribed, the
    other passive."""
    M, b = _arm_terms(Q_ARM, DQ_ARM, **kw)
    v = 1 - u
    ddq = np.zeros(2)
    ddq[u] = ddq_u
    ddq[v] = (0.0 - b[v] - M[v, u] * ddq_u) / M[v, v]
    tau_u = M[u] @ ddq + b[u]
    return tau_u, ddq[v]


def _arm_hints(a, u, ddq_u, order):
    tau_u, ddq_v = _hybrid_2r(u, ddq_u)
    right = np.array([tau_u, ddq_v] if order == "tau, ddq" else [ddq_v, tau_u])
    if _same(a, right[::-1]):
        raise WrongAnswer("the two numbers are in the "
                          f"wrong order: give ({order}).")
    for kw, text in [({"g": 0.0}, "you left out gravity: b(q, dq) contains the "
                                  "gravity torques "
                                   "(the arm moves in a vertical plane)."),
                     ({"velocity": False}, "you left out the velocity (Coriolis "
                                           "and centrifugal) terms of b(q, dq).")]:
        t, d = _hybrid_2r(u, ddq_u, **kw)
        if _same(a, [t, d] if order == "tau, ddq" else [d, t]):
            raise WrongAnswer(text)
    M, b = _arm_terms(Q_ARM, DQ_ARM)
    v = 1 - u
    free = np.linalg.solve(M, -b)          # forward dynamics with every torque zero
    if np.isclose(a[1 if order == "tau, ddq" else 0], free[v], atol=1e-8):
        raise WrongAnswer("this passive acceleration is forward dynamics with "
                          "every torque zero; but the prescribed joint is driven: "
                          "its acceleration is given and its torque is an unknown. "
                          "Use Kim eq. (34) with the coupling term.")
    expect_close(a, right, f"({order})", hint="partition M and b into "
                                              "u and v (Kim eq. (33)), "
                 "solve Kim eq. (34) for the passive acceleration, then the u-rows "
                 "for the torque.")


def ex1(answer):
    """Pendubot: joint 1 prescribed (``DDQ1_EX1``), joint 2 passive;
    ``(tau_1, ddq_2)``."""
    a = expect_shape(answer, (2,), "(tau_1, ddq_2)")
    _arm_hints(a, 0, DDQ1_EX1, "tau, ddq")


def ex2(answer):
    """Acrobot: joint 1 passive, joint 2 prescribed (``DDQ2_EX2``);
    ``(ddq_1, tau_2)``."""
    a = expect_shape(answer, (2,), "(ddq_1, tau_2)")
    _arm_hints(a, 1, DDQ2_EX2, "ddq, tau")


BODY_EX3 = {"mass": 2.0, "com": np.array([0.0, -0.5, 0.1]),
            "I_com": np.diag([0.01, 0.02, 0.03]), "axis": np.array([0.0, 0.0, 1.0])}
"""Exercise 3: a leaf body on a revolute joint about ``axis`` (its inertia in the
body frame: ``liedyn.inertia.spatial_inertia(mass, com, I_com)``)."""


def _body_ex3():
    b = BODY_EX3
    m, P = b["mass"], _skew(b["com"])
    I = np.block([[b["I_com"] + m * P.T @ P, m * P], [m * P.T, m * np.eye(3)]])
    S = np.concatenate([b["axis"], np.zeros(3)])[:, None]
    return I, S


def ex3(answer):
    """``Pi`` that the leaf body of :data:`BODY_EX3` passes to its parent, its joint
    passive."""
    I, S = _body_ex3()
    IS = I @ S
    removed = IS @ np.linalg.inv(S.T @ IS) @ IS.T
    a = expect_shape(answer, (6, 6), "Pi")
    if _same(a, I):
        raise WrongAnswer("Pi = I_hat is the prescribed-joint case (Table 4, i in "
                          "u). A passive joint lets the body move along S, so the "
                          "parent feels less: Pi = I_hat - I_hat S Psi S^T I_hat.")
    if _same(a, removed):
        raise WrongAnswer("this is the part that is removed, I_hat S Psi S^T "
                          "I_hat; Pi is what is left: I_hat minus it.")
    if np.max(np.abs(a @ S)) > 1e-8 and _same(a.T, a):
        raise WrongAnswer("Pi S should be zero (the joint transmits no inertia "
                          "along its own motion); yours gives |Pi S| = "
                          f"{np.max(np.abs(a @ S)):.3g}.")
    expect_close(a, I - removed, "Pi", hint="I_hat = I for a leaf; Psi = (S^T "
                                            "I_hat S)^-1.")


SPACE_EX4 = {"base_izz": 2.0, "link_izz": 0.5, "turn": np.pi / 2}
"""Exercise 4: a free-floating base and one link on a revolute joint about z whose
axis passes through both centres of mass (rotational inertias about it ``base_izz``,
``link_izz``); no gravity, at rest; the joint turns by ``turn`` (rad)."""


def ex4(answer):
    """The base's rotation angle about z (rad) when the joint of :data:`SPACE_EX4`
    turns."""
    Ib, Il, d = SPACE_EX4["base_izz"], SPACE_EX4["link_izz"], SPACE_EX4["turn"]
    expected = -Il / (Ib + Il) * d
    a = float(expect_shape(answer, (), "the base rotation"))
    if np.isclose(a, -expected, rtol=1e-6):
        raise WrongAnswer("wrong sign: the base turns against the link, so that "
                          "the total angular momentum stays zero.")
    if np.isclose(a, -Il / Ib * d, rtol=1e-6):
        raise WrongAnswer("the link's absolute angular velocity is w_base + "
                          "dtheta, not dtheta: I_b w_b + I_l (w_b + dtheta) = 0.")
    if np.isclose(a, np.degrees(expected), rtol=1e-6):
        raise WrongAnswer("give the angle in radians.")
    expect_close(a, expected, "the base rotation", tol=1e-6,
                 hint="write the angular momentum about "
                      "the joint axis and set it to zero.")


def ex5(answer):
    """The world-frame acceleration (m/s^2) of the centre of mass of the falling
    humanoid."""
    a = expect_shape(answer, (3,), "the centre-of-mass acceleration")
    g = np.array([0.0, 0.0, -GRAVITY])
    if _same(a, -g, tol=1e-5):
        raise WrongAnswer("wrong sign: gravity pulls the centre of mass down (-z).")
    if _same(a, np.zeros(3), tol=1e-5):
        raise WrongAnswer("nothing holds the robot up: no contact, a passive free "
                          "joint (tau_base = 0), so only "
                          "gravity acts on the whole system.")
    expect_close(a, g, "the centre-of-mass acceleration", tol=1e-5,
                 hint="the only external force is gravity; the joint torques are "
                      "internal. Compute d/dt of the world linear momentum "
                      "(liedyn.crba.momentum) and divide by the total mass.")


RELEASE_EX6 = {"base_mass": 3.0, "rod_mass": 2.0, "rod_length": 1.0}
"""Exercise 6: a base body (Free joint, centre of mass at its origin) holds a
uniform thin rod on a revolute joint about z at the base origin; the rod points
along +x, gravity is ``-GRAVITY`` along y. At rest; the base is prescribed not to
move, the rod's joint is passive."""


def ex6(answer):
    """The wrench ``tau_base = (m, f)`` (base frame) that holds the base as the rod
    is released."""
    mb, m = RELEASE_EX6["base_mass"], RELEASE_EX6["rod_mass"]
    g = GRAVITY
    expected = np.array([0.0, 0.0, 0.0, 0.0, (mb + m / 4) * g, 0.0])
    a = expect_shape(answer, (6,), "tau_base")
    if _same(a, np.roll(expected, 3)):
        raise WrongAnswer("liedyn orders wrenches moment first: (m, f).")
    if _same(a, [0, 0, 0, 0, (mb + m) * g, 0]):
        raise WrongAnswer("(m_base + m_rod) g is the static weight; the released "
                          "rod's centre of mass accelerates downward (3g/4), so "
                          "the base carries less.")
    if _same(a, [0, 0, 0, 0, m / 4 * g, 0]):
        raise WrongAnswer("the base is held against its "
                          "own weight too: add m_base g.")
    if _same(a, -expected):
        raise WrongAnswer("wrong sign: tau_base is the wrench the support applies "
                          "to the base (upward, +y).")
    expect_close(a, expected, "tau_base", tol=1e-6,
                 hint="the rod swings about the pivot "
                      "with angular acceleration 3g/(2l).")


def _arm_inertia():
    """Spatial inertia of one link of the arm in its body frame (the joint at the
    origin, the link along +x)."""
    m, l = ARM["mass"], ARM["length"]
    P = _skew([l / 2, 0.0, 0.0])
    I_com = np.diag([0.0, 1.0, 1.0]) * m * l ** 2 / 12        # thin rod along x
    return np.block([[I_com + m * P.T @ P, m * P], [m * P.T, m * np.eye(3)]])


def _Ad(R, p):
    """``Ad_T`` of ``T = (R, p)``, twists ordered ``(w, v)``."""
    return np.block([[R, np.zeros((3, 3))], [_skew(p) @ R, R]])


def ex7(answer):
    """``I_hat_1`` (6x6, body frame 1) of the arm at ``Q_ARM`` with every joint
    prescribed: the composite inertia of both links."""
    a = expect_shape(answer, (6, 6), "I_hat_1")
    I = _arm_inertia()
    c, s = np.cos(Q_ARM[1]), np.sin(Q_ARM[1])
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])     # J_2(q_2)
    p = np.array([ARM["length"], 0.0, 0.0])
    A = _Ad(R.T, -R.T @ p)                          # Ad_{T_12^-1}, T_12 = X_2 J_2
    S = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])[:, None]
    Pi_v = I - I @ S @ np.linalg.inv(S.T @ I @ S) @ S.T @ I     # joint 2 given
    if _same(a, I):
        raise WrongAnswer("this is body 1 alone. With joint 2 prescribed, body 2 "
                          "passes its whole inertia (Pi_2 = I_hat_2 = I_2): add "
                          "it, moved into frame 1.")
    if _same(a, 2 * I):
        raise WrongAnswer("I_2 is expressed in frame 2: move it into frame 1 with "
                          "Ad_{T_12^-1}^T I_2 Ad_{T_12^-1} before adding it.")
    if _same(a, I + A.T @ Pi_v @ A):
        raise WrongAnswer("this Pi_2 is the torque-given one, with the inertia "
                          "along joint 2 projected out; a prescribed joint passes "
                          "I_hat_2 itself.")
    B = _Ad(R, p)                                              # Ad_{T_12}
    if _same(a, I + B.T @ I @ B):
        raise WrongAnswer("the transform goes the other way: Ad_{T_12^-1} maps "
                          "a twist of body 1 into frame 2, and I_2 is moved with "
                          "Ad_{T_12^-1}^T I_2 Ad_{T_12^-1}.")
    expect_close(a, I + A.T @ I @ A, "I_hat_1",
                 hint="I_hat_1 = I_1 + Ad_{T_12^-1}^T I_2 Ad_{T_12^-1}, with "
                      "T_12 = X_2 J_2(q_2).")
