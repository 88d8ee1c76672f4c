"""Checkers for the exercises of :ref:`sec-inverse-dynamics` (chapter 5): gravity as
a base acceleration, the pendulum, the planar 2R arm (uniform links, gravity along
-y) by the RNEA, an external wrench, the reader's RNEA, the elbow torque by
hand, the parts of the torque along a swing read off a plot. Exercise 9 asks for an
explanation in words and has no checker.
"""
import numpy as np

from .. import implement
from . import WrongAnswer, exercise
from ._closed_forms import two_link_arm

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ex10",
           "GRAVITY_EX1", "PENDULUM_EX2", "ARM", "Q_EX3", "DQ_EX4", "F_TIP_EX5",
           "ARM_EX6", "Q2_EX6", "STATE_EX8", "SWING_EX10"]

GRAVITY_EX1 = np.array([0.0, 0.0, -9.81])
"""Exercise 1: the gravity vector of ``Model(gravity=GRAVITY_EX1)`` (ground
frame)."""

PENDULUM_EX2 = {"mass": 2.0, "length": 0.5, "gravity": 9.81, "q": 0.6, "dq": 1.0,
                "ddq": 1.5}
"""Exercise 2: ``pendulum(mass, length, gravity)`` and the state (q, dq, ddq)."""

ARM = {"n": 2, "length": 1.0, "mass": 1.0, "gravity": 9.81}
"""Exercises 3-5: ``planar_arm(**ARM)``."""

Q_EX3 = np.array([0.2, 0.7])
"""Exercises 3-5: the configuration of the arm."""

DQ_EX4 = np.array([0.5, -1.5])
"""Exercise 4: the joint velocity of the arm."""

F_TIP_EX5 = np.array([0.0, -5.0, 0.0])
"""Exercise 5: the force (ground frame) that the environment applies at the tip of
link 2."""

ARM_EX6 = {"masses": (1.0, 2.0), "lengths": (1.0, 0.6)}
"""Exercise 6: ``two_link_arm(**ARM_EX6)``."""

Q2_EX6 = 1.0
"""Exercise 6: the elbow angle q2."""

STATE_EX8 = {"q2": 0.6, "dq": (1.5, -0.5)}
"""Exercise 8: the elbow angle q2 and the joint rates (dq1, dq2) of
``planar_arm(2)`` (links of 1 kg and 1 m, centres of mass at 0.5 m)."""

SWING_EX10 = {"offsets": (-np.pi / 2, 0.0), "amplitudes": (0.8, 1.2), "period": 2.0}
"""Exercise 10: the swing ``q(t) = offsets + amplitudes sin(2 pi t / period)`` of
``planar_arm(**ARM)`` (radians, seconds)."""

READ_OFF_RTOL = 0.02
"""Exercise 10: a value read off a plot is right to 2 %."""


def _arm(dq=(0.0, 0.0)):
    """``M``, the velocity terms ``C dq`` and the gravity torques of :data:`ARM` at
    :data:`Q_EX3`."""
    m, L = ARM["mass"], ARM["length"]
    M, C, grav = two_link_arm(Q_EX3, dq, (m, m), L, ARM["gravity"])
    return M, C @ dq, grav


@exercise("dV_0", rule="(0, -g) (Kim's footnote 6)", hint="")
def ex1(answer):
    """The ground acceleration dV_0 (6,) that stands for :data:`GRAVITY_EX1`
    (footnote 6)."""
    right = np.r_[np.zeros(3), -GRAVITY_EX1]
    return right, [
        (-right, "wrong sign: the ground accelerates *upwards*, dV_0 = (0, -g), so "
                 "that every body feels gravity as if the ground were still."),
        (np.roll(right, 3), "this is the (v, w) order; liedyn puts the angular "
                            "part first."),
    ]


@exercise("tau", rule="m l^2 ddq + m g l sin(q)", one_number=True)
def ex2(answer):
    """The torque of :data:`PENDULUM_EX2` (a scalar or a length-1 array)."""
    p = PENDULUM_EX2
    m, l, g, q = p["mass"], p["length"], p["gravity"], p["q"]
    inertial = m * l ** 2 * p["ddq"]
    right = inertial + m * g * l * np.sin(q)
    return right, [
        (inertial + m * g * l * np.cos(q), "cos instead of sin: q = 0 hangs "
                                           "straight down, where gravity has no "
                                           "lever arm."),
        (inertial, "gravity is missing: the model's gravity enters as dV_0 = (0, "
                   "-g)."),
        (inertial - m * g * l * np.sin(q), "wrong sign of the gravity torque: "
                                           "holding the pendulum at q > 0 needs a "
                                           "positive torque."),
        (right + m * l ** 2 * p["dq"] ** 2,
         "a one-DOF pendulum has no velocity term in its torque (the centripetal "
         "force passes through the hinge)."),
    ]


@exercise("M", rule="[rnea(q, 0, e_j) - rnea(q, 0, 0)]_j",
          hint="column j is rnea(q, 0, e_j) - rnea(q, 0, 0).")
def ex3(answer):
    """The mass matrix (2x2) of ``planar_arm(**ARM)`` at :data:`Q_EX3`."""
    M, _, grav = _arm()
    return M, [
        (M + grav[:, None], "each column still contains the gravity torque: "
                            "rnea(q, 0, e_j) = M e_j + g(q). Subtract rnea(q, 0, "
                            "0), or use a model without gravity."),
    ]


@exercise("b", rule="rnea(q, dq, 0) (velocity terms and gravity)",
          hint="b = rnea(q, dq, 0).")
def ex4(answer):
    """The bias b(q, dq) (2,) of ``planar_arm(**ARM)`` at :data:`Q_EX3`,
    :data:`DQ_EX4`."""
    _, c, grav = _arm(DQ_EX4)
    return c + grav, [
        (c, "this is only the velocity part; b(q, dq) = rnea(q, dq, 0) also holds "
            "the gravity torque (Kim, eq. (32))."),
        (grav, "this is only the gravity torque; pass the velocity dq as well."),
        (-(c + grav), "wrong sign: b is on the left of M ddq + b = tau."),
    ]


@exercise("tau", rule="g(q) - J_tip^T F", hint="f_ext[1] = (r x f, f) with f = "
          "R_{0,2}^T F and r = (L, 0, 0).")
def ex5(answer):
    """Static torques (2,) holding ``planar_arm(**ARM)`` at :data:`Q_EX3` while the
    environment pushes the tip of link 2 with :data:`F_TIP_EX5` (a force in the
    ground frame)."""
    _, _, grav = _arm()
    L, (q1, q2), F = ARM["length"], Q_EX3, F_TIP_EX5
    s1, c1, s12, c12 = np.sin(q1), np.cos(q1), np.sin(q1 + q2), np.cos(q1 + q2)
    J_tip = L * np.array([[-s1 - s12, -s12], [c1 + c12, c12], [0.0, 0.0]])
    J_origin = L * np.array([[-s1, 0.0], [c1, 0.0], [0.0, 0.0]])     # origin of {2}
    J_unrotated = L * np.array([[np.sin(q2), 0], [np.cos(q2) + 1, 1], [0, 0]])
    return grav - J_tip.T @ F, [
        (grav + J_tip.T @ F, "wrong sign of the external wrench: f_ext is applied "
                             "*by* the environment to the body, and enters Kim eq. "
                             "(42) as -F_ext (the motors need less torque when the "
                             "environment helps)."),
        (grav - J_origin.T @ F, "the force acts at the tip, (L, 0, 0) in {2}, not "
                                "at the origin of {2}: the wrench has a moment r x "
                                "f."),
        (grav, "the external force is missing: pass f_ext with one row per body."),
        (grav - J_unrotated.T @ F, "f_ext is expressed in the body frame {2}: "
                                   "rotate the ground-frame force with R_{0,2}^T "
                                   "first, then take the moment about the origin "
                                   "of {2}."),
    ]


@exercise("the coefficient", rule="m2 L1 (L2/2) sin(q2)", hint="", one_number=True)
def ex6(answer):
    """The coefficient of dq1^2 in tau_2 of ``two_link_arm(**ARM_EX6)`` at q2 =
    :data:`Q2_EX6`."""
    (_, m2), (L1, L2) = ARM_EX6["masses"], ARM_EX6["lengths"]
    h = m2 * L1 * (L2 / 2) * np.sin(Q2_EX6)
    return h, [
        (-h, "wrong sign: the centrifugal force of link 1's rotation pulls link 2 "
             "outwards, tau_2 contains + m2 L1 (L2/2) sin(q2) dq1^2."),
        (-2 * h, "this is the coefficient of dq1 dq2 in tau_1 (Coriolis)."),
        (2 * h, "the centre of mass of link 2 is at L2/2, not L2."),
    ]


def ex7(answer):
    """Implement: ``answer(model, q, dq, ddq) -> (V, dV, F, tau)``, Kim (2012),
    Table 2, run by :func:`liedyn.teach.implement.check_rnea` on models the reader
    has not seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_rnea, not a "
                          f"{type(answer).__name__}")
    return implement.check_rnea(answer)


@exercise("the part of tau_2", one_number=True,
          rule="n_z of -ad*_{V_2} I_2 V_2 = kappa s2 dq1 (dq1 + dq2), kappa = "
               "m2 l1 r2")
def ex8(answer):
    """The part of tau_2 (a number) that the velocity-product term of F_2 gives for
    ``planar_arm(2)`` at :data:`STATE_EX8`."""
    kappa, s2 = 1.0 * 1.0 * 0.5, np.sin(STATE_EX8["q2"])
    dq1, dq2 = STATE_EX8["dq"]
    right = kappa * s2 * dq1 * (dq1 + dq2)
    return right, [
        (kappa * s2 * dq1 ** 2,
         "this is the whole velocity term of tau_2, kappa s2 dq1^2. The "
         "velocity-product term -ad*_{V_2} I_2 V_2 gives only part of it; I_2 dV_2 "
         "gives the rest, -kappa s2 dq1 dq2."),
        (-kappa * s2 * dq1 * dq2,
         "this is the part that I_2 dV_2 gives (the term -l1 s2 dq1 dq2 of dV_2); "
         "the question asks for the part of -ad*_{V_2} I_2 V_2."),
        (-right, "wrong sign: the n_z of -ad*_V (h, p) is v_x p_y - v_y p_x."),
        (kappa * s2 * dq1 * dq2,
         "v_x p_y - v_y p_x with p = m2 (v_x, v_y + r2 w_z) is m2 r2 w_z v_x: the "
         "rate of turn of link 2 is dq1 + dq2, and v_x = l1 s2 dq1."),
    ]


def _swing(samples=2001):
    """The gravity torques, velocity terms ``C dq`` and inertial torques ``M ddq``
    (each ``(samples, 2)``) of ``planar_arm(**ARM)`` along one period of
    :data:`SWING_EX10`, from the closed form."""
    s = SWING_EX10
    w = 2 * np.pi / s["period"]
    off, amp = np.asarray(s["offsets"]), np.asarray(s["amplitudes"])
    m, L = ARM["mass"], ARM["length"]
    parts = []
    for t in np.linspace(0.0, s["period"], samples):
        q, dq = off + amp * np.sin(w * t), amp * w * np.cos(w * t)
        M, C, grav = two_link_arm(q, dq, (m, m), L, ARM["gravity"])
        parts.append((grav, C @ dq, M @ (-w ** 2 * amp * np.sin(w * t))))
    return [np.array(x) for x in zip(*parts, strict=True)]


def _read_off(value):
    """A test: the answer is ``value`` to :data:`READ_OFF_RTOL`."""
    return lambda a: abs(float(a) - value) <= READ_OFF_RTOL * abs(value)


@exercise("the largest |c_1|", one_number=True, rtol=READ_OFF_RTOL,
          rule="max over one period of |rnea(q, dq, 0)_1 - rnea(q, 0, 0)_1|",
          checks="the largest |c_1| over one period of the swing (closed form of "
                 "the two-link arm, 2001 samples), to 2 % (read off a plot)")
def ex10(answer):
    """The largest magnitude (N m) of the velocity terms c_1 of joint 1 along
    :data:`SWING_EX10`, read off a plot."""
    grav, c, Mddq = _swing()
    right = np.abs(c[:, 0]).max()
    return right, [
        (_read_off(np.abs(grav[:, 0]).max()),
         "this is the largest gravity torque g_1 (and of c_1 + g_1, which peaks "
         "where the arm is at rest, c_1 = 0). The velocity terms are "
         "rnea(q, dq, 0) - rnea(q, 0, 0): subtract the gravity part."),
        (_read_off(np.abs(Mddq[:, 0]).max()),
         "this is the largest inertial part (M ddq)_1, tau_1 - c_1 - g_1; the "
         "question asks for the velocity terms c_1."),
        (_read_off(np.abs((grav + c + Mddq)[:, 0]).max()),
         "this is the largest whole torque tau_1 = rnea(q, dq, ddq)_1; the "
         "question asks for its velocity terms c_1 = rnea(q, dq, 0)_1 - "
         "rnea(q, 0, 0)_1."),
        (_read_off(np.abs(c[:, 1]).max()),
         "this is the largest velocity term of joint 2, c_2; the question asks for "
         "joint 1's."),
    ]
