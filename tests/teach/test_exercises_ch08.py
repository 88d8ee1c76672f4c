"""The chapter 8 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way: hybrid dynamics, simulation,
momentum); the checkers compute theirs in closed form with plain numpy, so the two sides are
independent.
"""
import numpy as np

from liedyn import joints as J
from liedyn import lie
from liedyn.crba import bias_force, composite_inertias, mass_matrix, momentum
from liedyn.forward_dynamics import aba
from liedyn.hybrid_dynamics import hybrid, hybrid_pass
from liedyn.inertia import rod_inertia, spatial_inertia
from liedyn.model import Model
from liedyn.robots import planar_arm
from liedyn.teach.exercises import ch08 as ex
from liedyn.teach.exercises import check

from common import hint


def arm_answers():
    model = planar_arm(2, length=ex.ARM["length"], mass=ex.ARM["mass"], gravity=ex.GRAVITY)
    t1, d1 = hybrid(model, ex.Q_ARM, ex.DQ_ARM, [ex.DDQ1_EX1, 0.0], [0.0, 0.0], [True, False])
    t2, d2 = hybrid(model, ex.Q_ARM, ex.DQ_ARM, [0.0, ex.DDQ2_EX2], [0.0, 0.0], [False, True])
    return np.array([t1[0], d1[1]]), np.array([d2[0], t2[1]])


def pi_ex3():
    b = ex.BODY_EX3
    I = spatial_inertia(b["mass"], b["com"], b["I_com"])
    S = J.Revolute(b["axis"]).S(np.zeros(1))
    return I - I @ S @ np.linalg.inv(S.T @ I @ S) @ S.T @ I, I, S


def space_rotation(steps=400):
    """Simulate exercise 4 with hybrid dynamics (semi-implicit Euler) and return the base turn."""
    s = ex.SPACE_EX4
    model = Model(gravity=(0.0, 0.0, 0.0))
    model.add_body("base", 0, J.Free(),
                   inertia=spatial_inertia(5.0, np.zeros(3), np.diag([1.0, 1.0, s["base_izz"]])))
    model.add_body("link", "base", J.Revolute([0, 0, 1]),
                   inertia=spatial_inertia(1.0, np.zeros(3), np.diag([0.3, 0.3, s["link_izz"]])))
    q, v = model.neutral_configuration(), np.zeros(model.nv)
    T = 1.0
    dt = T / steps
    for k in range(steps):                       # joint: 1 - cos ramp from 0 to "turn"
        ddq = np.zeros(model.nv)
        ddq[6] = s["turn"] / 2 * (np.pi / T) ** 2 * np.cos(np.pi * k * dt / T)
        _, a = hybrid(model, q, v, ddq, np.zeros(model.nv), [False, True])
        v = v + dt * a
        q = model.integrate(q, v, dt)
    yaw = lie.log_so3(lie.quat_to_rot(q[3:7]))[2]
    return yaw, q[7]


def humanoid_com_acceleration():
    """A small floating tree falling under gravity: d/dt of the world linear momentum / mass."""
    rng = np.random.default_rng(0)
    model = Model(gravity=(0.0, 0.0, -ex.GRAVITY))
    model.add_body("torso", 0, J.Free(), inertia=spatial_inertia(10.0, [0, 0, 0.1], np.eye(3)))
    for side in (1, -1):
        model.add_body(f"thigh{side}", "torso", J.Revolute([0, 1, 0]),
                       placement=lie.make_transform(np.eye(3), [0, 0.1 * side, -0.2]),
                       inertia=spatial_inertia(3.0, [0, 0, -0.2], rod_inertia(3.0, 0.4)))
        model.add_body(f"arm{side}", "torso", J.Revolute([1, 0, 0]),
                       placement=lie.make_transform(np.eye(3), [0, 0.25 * side, 0.3]),
                       inertia=spatial_inertia(2.0, [0, 0, -0.15], rod_inertia(2.0, 0.3)))
    mask = [False, True, False, True, False]
    q, v = model.random_configuration(rng), rng.normal(size=model.nv)
    ddq = rng.normal(size=model.nv)
    _, a = hybrid(model, q, v, ddq, np.zeros(model.nv), mask)
    eps = 1e-6
    L = [momentum(model, model.integrate(q, v, s * eps), v + s * eps * a) for s in (1, -1)]
    mass = sum(I[3, 3] for I in model.inertias[1:])
    return (L[0][3:] - L[1][3:]) / (2 * eps) / mass


def release_wrench():
    r = ex.RELEASE_EX6
    model = Model(gravity=(0.0, -ex.GRAVITY, 0.0))
    model.add_body("base", 0, J.Free(),
                   inertia=spatial_inertia(r["base_mass"], np.zeros(3), 0.1 * np.eye(3)))
    L, m = r["rod_length"], r["rod_mass"]
    model.add_body("rod", "base", J.Revolute([0, 0, 1]),
                   inertia=spatial_inertia(m, [L / 2, 0, 0],
                                           np.diag([0.0, 1.0, 1.0]) * m * L ** 2 / 12))
    z = np.zeros(model.nv)
    tau, ddq = hybrid(model, model.neutral_configuration(), z, z, z, [True, False])
    return tau[:6], ddq[6]


def test_right_answers_pass():
    a1, a2 = arm_answers()
    assert check("ch8.ex1", a1)
    assert check("ch8.ex2", a2)
    assert check("ch8.ex3", pi_ex3()[0])
    yaw, turn = space_rotation()
    s = ex.SPACE_EX4
    k = -s["link_izz"] / (s["base_izz"] + s["link_izz"])
    assert abs(yaw - k * turn) <= 1e-9                     # exact ratio along the simulation
    assert abs(turn - s["turn"]) <= 1e-2                   # the ramp reaches the turn, O(dt)
    assert check("ch8.ex4", k * s["turn"])
    assert check("ch8.ex5", humanoid_com_acceleration())
    wrench, ddq_rod = release_wrench()
    assert abs(ddq_rod + 1.5 * ex.GRAVITY / ex.RELEASE_EX6["rod_length"]) <= 1e-12
    assert check("ch8.ex6", wrench)


def test_ex1_ex2_hints():
    a1, a2 = arm_answers()
    hint("ch8.ex1", a1[::-1], "wrong order")
    hint("ch8.ex2", a2[::-1], "wrong order")
    model0 = planar_arm(2, gravity=0.0)
    t, d = hybrid(model0, ex.Q_ARM, ex.DQ_ARM, [ex.DDQ1_EX1, 0.0], [0.0, 0.0], [True, False])
    hint("ch8.ex1", [t[0], d[1]], "gravity")
    model = planar_arm(2)
    M, g = mass_matrix(model, ex.Q_ARM), bias_force(model, ex.Q_ARM, np.zeros(2))
    ddq1 = (-g[0] - M[0, 1] * ex.DDQ2_EX2) / M[0, 0]              # b without velocity terms
    hint("ch8.ex2", [ddq1, M[1] @ [ddq1, ex.DDQ2_EX2] + g[1]], "velocity")
    free = aba(model, ex.Q_ARM, ex.DQ_ARM, np.zeros(2))
    hint("ch8.ex1", [a1[0], free[1]], "forward dynamics with every torque zero")
    hint("ch8.ex2", [free[0], a2[1]], "forward dynamics with every torque zero")
    hint("ch8.ex1", a1 + [0.0, 1e-3], "off by")
    hint("ch8.ex1", [1.0, 2.0, 3.0], r"shape \(2,\)")


def test_ex3_hints():
    Pi, I, S = pi_ex3()
    hint("ch8.ex3", I, "prescribed-joint case")
    hint("ch8.ex3", I - Pi, "part that is removed")
    hint("ch8.ex3", Pi + 1e-3 * np.eye(6), r"Pi S should be zero")
    hint("ch8.ex3", 1.001 * Pi, "off by")


def test_ex4_to_ex6_hints():
    s = ex.SPACE_EX4
    k = -s["link_izz"] / (s["base_izz"] + s["link_izz"])
    hint("ch8.ex4", -k * s["turn"], "wrong sign")
    hint("ch8.ex4", -s["link_izz"] / s["base_izz"] * s["turn"], "absolute angular velocity")
    hint("ch8.ex4", np.degrees(k * s["turn"]), "radians")
    hint("ch8.ex5", [0.0, 0.0, ex.GRAVITY], "wrong sign")
    hint("ch8.ex5", [0.0, 0.0, 0.0], "nothing holds the robot up")
    hint("ch8.ex5", [0.0, 0.1, -ex.GRAVITY], "off by")
    wrench, _ = release_wrench()
    r = ex.RELEASE_EX6
    hint("ch8.ex6", np.roll(wrench, 3), "moment first")
    hint("ch8.ex6", [0, 0, 0, 0, (r["base_mass"] + r["rod_mass"]) * ex.GRAVITY, 0],
          "static weight")
    hint("ch8.ex6", [0, 0, 0, 0, r["rod_mass"] / 4 * ex.GRAVITY, 0], "own weight")
    hint("ch8.ex6", -wrench, "wrong sign")


def test_ex7_the_composite_inertia():
    model = planar_arm(2, length=ex.ARM["length"], mass=ex.ARM["mass"], gravity=ex.GRAVITY)
    I_hat_1 = hybrid_pass(model, ex.Q_ARM, ex.DQ_ARM, [0.0, 0.0], [0.0, 0.0],
                          [True, True]).I_hat[1]
    assert check("ch8.ex7", I_hat_1)
    assert check("ch8.ex7", composite_inertias(model, ex.Q_ARM)[0][1])
    I1, I2 = model.inertias[1], model.inertias[2]
    T12 = model.placements[2] @ model.joints[2].transform(ex.Q_ARM[1:])
    S = model.joints[2].S(ex.Q_ARM[1:])
    A = lie.Ad(lie.inverse(T12))
    hint("ch8.ex7", I1, "body 1 alone")
    hint("ch8.ex7", I1 + I2, "expressed in frame 2")
    Pi = I2 - I2 @ S @ np.linalg.inv(S.T @ I2 @ S) @ S.T @ I2
    hint("ch8.ex7", I1 + A.T @ Pi @ A, "torque-given")
    hint("ch8.ex7", I1 + lie.Ad(T12).T @ I2 @ lie.Ad(T12), "other way")
    hint("ch8.ex7", 1.001 * I_hat_1, "off by")


# exercise 8 (plot the pendubot's shoulder torque against its prescribed acceleration)
def pendubot_line():
    model = planar_arm(2, length=ex.ARM["length"], mass=ex.ARM["mass"], gravity=ex.GRAVITY)
    ddq1 = np.linspace(-5.0, 5.0, 21)
    tau1 = [hybrid(model, ex.Q_ARM, ex.DQ_ARM, [a, 0.0], [0.0, 0.0], [True, False])[0][0]
            for a in ddq1]
    return model, np.polyfit(ddq1, tau1, 1)


def test_ex8_the_slope_of_liedyns_line_passes_and_is_the_articulated_inertia():
    model, (slope, _) = pendubot_line()
    ap = hybrid_pass(model, ex.Q_ARM, ex.DQ_ARM, [0.0, 0.0], [0.0, 0.0], [False, False])
    S = ap.forward.S[1][:, 0]
    assert np.isclose(slope, S @ ap.I_hat[1] @ S)          # D_1 of the ABA
    assert check("ch8.ex8", slope)
    assert check("ch8.ex8", 1.015 * slope)                  # read off a plot


def test_ex8_hints():
    model, (slope, at_zero) = pendubot_line()
    M = mass_matrix(model, ex.Q_ARM)
    hint("ch8.ex8", M[0, 0], "elbow locked")
    hint("ch8.ex8", M[1, 1], "M_22")
    hint("ch8.ex8", at_zero, "value at")
    hint("ch8.ex8", -M[1, 0] / M[1, 1], "elbow's acceleration")
    hint("ch8.ex8", 1.1 * slope, "off by")
    hint("ch8.ex8", [slope, at_zero], "shape")
