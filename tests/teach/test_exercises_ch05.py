"""The chapter 5 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn's rnea (the notebook's way); the checkers use the
closed forms written out with plain numpy, so the two sides are independent.
"""
import numpy as np
import pytest

from liedyn.inverse_dynamics import gravity_acceleration, rnea
from liedyn.kinematics import forward_kinematics
from liedyn.model import Model
from liedyn.robots import pendulum, planar_arm, two_link_arm
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch05 as ex

from common import hint


def arm(gravity=None):
    kw = dict(ex.ARM)
    if gravity is not None:
        kw["gravity"] = gravity
    return planar_arm(**kw)


def answer_ex2():
    p = ex.PENDULUM_EX2
    model = pendulum(p["mass"], p["length"], p["gravity"])
    return rnea(model, [p["q"]], [p["dq"]], [p["ddq"]])


def mass_matrix(model, q):
    b = rnea(model, q, np.zeros(2), np.zeros(2))
    return np.stack([rnea(model, q, np.zeros(2), e) - b for e in np.eye(2)], axis=-1)


def f_ext_ex5(model, q, F_world):
    R02 = forward_kinematics(model, q).T_world[2, :3, :3]
    f = R02.T @ F_world
    r = np.array([ex.ARM["length"], 0.0, 0.0])
    return np.array([np.zeros(6), np.concatenate([np.cross(r, f), f])])


def coefficient_ex6():
    model = two_link_arm(**ex.ARM_EX6, gravity=0.0)
    return rnea(model, [0.3, ex.Q2_EX6], [1.0, 0.0], [0.0, 0.0])[1]


def test_right_answers_pass():
    assert check("ch5.ex1", gravity_acceleration(Model(gravity=ex.GRAVITY_EX1)))
    assert check("ch5.ex2", answer_ex2())
    assert check("ch5.ex2", float(answer_ex2()[0]))
    assert check("ch5.ex3", mass_matrix(arm(), ex.Q_EX3))
    assert check("ch5.ex4", rnea(arm(), ex.Q_EX3, ex.DQ_EX4, np.zeros(2)))
    model = arm()
    tau = rnea(model, ex.Q_EX3, np.zeros(2), np.zeros(2), f_ext_ex5(model, ex.Q_EX3, ex.F_TIP_EX5))
    assert check("ch5.ex5", tau)
    assert check("ch5.ex6", coefficient_ex6())


def test_ex1_hints():
    dV0 = gravity_acceleration(Model(gravity=ex.GRAVITY_EX1))
    hint("ch5.ex1", -dV0, "wrong sign")
    hint("ch5.ex1", np.concatenate([dV0[3:], dV0[:3]]), r"\(v, w\) order")
    hint("ch5.ex1", dV0[3:], r"shape \(6,\)")


def test_ex2_hints():
    p = ex.PENDULUM_EX2
    m, l, g, q = p["mass"], p["length"], p["gravity"], p["q"]
    base = m * l ** 2 * p["ddq"]
    hint("ch5.ex2", base + m * g * l * np.cos(q), "cos instead of sin")
    model0 = pendulum(m, l, 0.0)
    hint("ch5.ex2", rnea(model0, [q], [p["dq"]], [p["ddq"]]), "gravity is missing")
    hint("ch5.ex2", base - m * g * l * np.sin(q), "wrong sign")
    hint("ch5.ex2", answer_ex2() + m * l ** 2 * p["dq"] ** 2, "no velocity term")
    hint("ch5.ex2", [1.0, 2.0], r"shape \(1,\)")


def test_ex3_hints():
    model = arm()
    wrong = np.stack([rnea(model, ex.Q_EX3, np.zeros(2), e) for e in np.eye(2)], axis=-1)
    hint("ch5.ex3", wrong, "gravity torque")
    hint("ch5.ex3", mass_matrix(model, ex.Q_EX3) * 1.01, "off by")


def test_ex4_hints():
    hint("ch5.ex4", rnea(arm(gravity=0.0), ex.Q_EX3, ex.DQ_EX4, np.zeros(2)), "velocity part")
    hint("ch5.ex4", rnea(arm(), ex.Q_EX3, np.zeros(2), np.zeros(2)), "only the gravity")
    hint("ch5.ex4", -rnea(arm(), ex.Q_EX3, ex.DQ_EX4, np.zeros(2)), "wrong sign")


def test_ex5_hints():
    model, q, z = arm(), ex.Q_EX3, np.zeros(2)
    f = f_ext_ex5(model, q, ex.F_TIP_EX5)
    hint("ch5.ex5", rnea(model, q, z, z, -f), "wrong sign of the external wrench")
    at_origin = f.copy()
    at_origin[1, :3] = 0.0
    hint("ch5.ex5", rnea(model, q, z, z, at_origin), "not at the origin")
    hint("ch5.ex5", rnea(model, q, z, z), "missing")
    r = np.array([ex.ARM["length"], 0.0, 0.0])
    unrotated = np.array([np.zeros(6), np.concatenate([np.cross(r, ex.F_TIP_EX5), ex.F_TIP_EX5])])
    hint("ch5.ex5", rnea(model, q, z, z, unrotated), "rotate")


def test_ex6_hints():
    c = coefficient_ex6()
    hint("ch5.ex6", -c, "wrong sign")
    model = two_link_arm(**ex.ARM_EX6, gravity=0.0)
    t11 = rnea(model, [0.3, ex.Q2_EX6], [1.0, 1.0], [0.0, 0.0])[0] \
        - rnea(model, [0.3, ex.Q2_EX6], [1.0, 0.0], [0.0, 0.0])[0] \
        - rnea(model, [0.3, ex.Q2_EX6], [0.0, 1.0], [0.0, 0.0])[0]
    hint("ch5.ex6", t11, "dq1 dq2 in tau_1")
    hint("ch5.ex6", 2 * c, "L2/2")


# exercise 7 (Implement the recursive Newton-Euler algorithm): the checker of
# teach.implement
from test_implement import my_rnea  # noqa: E402  (a right implementation, a planted bug)


def test_ex7_a_right_rnea_passes_and_a_planted_bug_is_reported(capsys):
    assert check("ch5.ex7", my_rnea) is True
    assert "agrees with liedyn on" in capsys.readouterr().out
    with pytest.raises(WrongAnswer, match=r"body 2 \(a \w+ joint, parent \d+\): dV_2 "
                                          "differs"):
        check("ch5.ex7", lambda model, q, dq, ddq: my_rnea(model, q, dq, ddq,
                                                            bug_body=2))
    with pytest.raises(WrongAnswer, match=r"ch5.ex7: .*F_\d+ differs.*\n  Your F_\d+ has "
                                          r"ad_\(V_\d+\) where ad\*_\(V_\d+\)"):
        check("ch5.ex7", lambda *args: my_rnea(*args, slip="ad for ad*"))
    with pytest.raises(WrongAnswer, match="give your function"):
        check("ch5.ex7", [0.0])


# exercise 8 (Derive the elbow torque from the backward pass): the n_z of the
# velocity-product term of F_2, from liedyn's rnea_pass and operators
def parts_ex8():
    """(the velocity-product part of tau_2, the whole velocity term of tau_2)."""
    from liedyn.inverse_dynamics import rnea_pass
    from liedyn.lie import ad_star
    model = planar_arm(2, gravity=0.0)
    out = rnea_pass(model, [0.0, ex.STATE_EX8["q2"]], ex.STATE_EX8["dq"], np.zeros(2))
    V2, I2 = out.forward.V[2], model.inertias[2]
    return (-ad_star(V2) @ I2 @ V2)[2], out.tau[1]


def test_ex8_right_answer_and_hints():
    part, whole = parts_ex8()
    assert check("ch5.ex8", part)
    assert check("ch5.ex8", [part])
    hint("ch5.ex8", whole, "whole velocity term")
    hint("ch5.ex8", whole - part, "I_2 dV_2 gives")
    hint("ch5.ex8", -part, "wrong sign")
    dq1, dq2 = ex.STATE_EX8["dq"]
    hint("ch5.ex8", part * dq2 / (dq1 + dq2), "rate of turn of link 2")
    hint("ch5.ex8", part * 1.1, "off by")


# exercise 10 (the parts of the torque along a swing, read off a plot): the parts by
# rnea on the whole batch of states, as the notebook computes them
def swing_parts(samples=4001):
    s = ex.SWING_EX10
    t = np.linspace(0.0, s["period"], samples)
    w = 2 * np.pi / s["period"]
    off, amp = np.asarray(s["offsets"]), np.asarray(s["amplitudes"])
    q = off + np.outer(np.sin(w * t), amp)
    dq, ddq = w * np.outer(np.cos(w * t), amp), -w ** 2 * (q - off)
    z = np.zeros_like(q)
    g, b = rnea(arm(), q, z, z), rnea(arm(), q, dq, z)
    return g, b - g, rnea(arm(), q, dq, ddq) - b


def test_ex10_a_value_read_off_the_plot_passes_and_the_slips_are_named():
    g, c, Mddq = swing_parts()
    peak = np.abs(c[:, 0]).max()
    assert check("ch5.ex10", peak)
    assert check("ch5.ex10", round(peak, 1))          # read to two digits
    assert check("ch5.ex10", [peak * 1.015])
    hint("ch5.ex10", np.abs(g[:, 0]).max(), "gravity torque")
    hint("ch5.ex10", np.abs((g + c)[:, 0]).max(), "gravity torque")
    hint("ch5.ex10", np.abs(Mddq[:, 0]).max(), "inertial part")
    hint("ch5.ex10", np.abs((g + c + Mddq)[:, 0]).max(), "whole torque")
    hint("ch5.ex10", np.abs(c[:, 1]).max(), "joint 2")
    hint("ch5.ex10", peak * 1.05, "off by")
    hint("ch5.ex10", [peak, peak], r"shape \(1,\)")
