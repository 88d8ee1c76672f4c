"""The chapter 11 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here the notebook's way (``load_robot`` and ``rnea``); the checkers
compute theirs from the URDF text and from gradients of the potential energy, so the two sides
are independent.
"""
import warnings

import numpy as np

from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import forward_kinematics
from liedyn.teach.exercises import ch11 as ex
from liedyn.teach.exercises import check
from liedyn.urdf import load_robot

from common import hint


def quiet(name, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_robot(name, **kwargs)


def payload_wrench(arm, at_point=True, sign=1.0):
    p = ex.PAYLOAD_EX4
    body, T = arm.link_frames[p["link"]]
    r = T[:3, :3] @ p["point"] + T[:3, 3] if at_point else np.zeros(3)
    R = forward_kinematics(arm, ex.Q_EX4).T_world[body, :3, :3]
    f = sign * R.T @ (p["mass"] * arm.gravity)
    f_ext = np.zeros((arm.nbodies, 6))
    f_ext[body - 1] = np.concatenate([np.cross(r, f), f])
    return f_ext


def work(arm, n=2001):
    t = np.linspace(0.0, ex.T_EX6, n)
    q, dq, ddq = ex.trajectory(t)
    return np.trapezoid(np.sum(dq * rnea(arm, q, dq, ddq), axis=-1), t)


def test_right_answers_pass():
    panda = quiet("panda")
    assert check("ch11.ex1", sum(I[3, 3] for I in panda.inertias[1:]))
    talos = quiet("talos", floating_base=True)
    assert check("ch11.ex2", (talos.nq, talos.nv))
    arm = ex.panda_arm()
    z = np.zeros(arm.nv)
    assert check("ch11.ex3", rnea(arm, ex.Q_EX3, z, z))
    assert check("ch11.ex4", rnea(arm, ex.Q_EX4, z, z, payload_wrench(arm)))
    solo = quiet("solo12", floating_base=True)
    assert check("ch11.ex5", rnea(solo, ex.Q_EX5, np.zeros(18), np.zeros(18))[:6])
    assert check("ch11.ex6", work(arm))


def test_ex1_hints():
    panda = quiet("panda")
    bodies = sum(I[3, 3] for I in panda.inertias[1:])
    hint("ch11.ex1", bodies + 0.629769, "panda_link0")
    hint("ch11.ex1", bodies - 0.73, "hand is missing")
    hint("ch11.ex1", bodies + 1.0, "off by 1")


def test_ex2_hints():
    hint("ch11.ex2", (38, 38), "quaternion")
    hint("ch11.ex2", (32, 32), "free joint is added")
    hint("ch11.ex2", (39, 39), "off by 1")
    hint("ch11.ex2", (39,), "shape")


def test_ex3_hints():
    arm = ex.panda_arm()
    z = np.zeros(arm.nv)
    tau = rnea(arm, ex.Q_EX3, z, z)
    hint("ch11.ex3", -tau, "wrong sign")
    hint("ch11.ex3", np.zeros(9), r"shape \(7,\)")
    hint("ch11.ex3", tau + 0.01, "rnea")


def test_ex4_hints():
    arm = ex.panda_arm()
    z = np.zeros(arm.nv)
    hint("ch11.ex4", rnea(arm, ex.Q_EX4, z, z), "arm alone")
    hint("ch11.ex4", rnea(arm, ex.Q_EX4, z, z, payload_wrench(arm, sign=-1.0)), "wrong sign")
    hint("ch11.ex4", rnea(arm, ex.Q_EX4, z, z, payload_wrench(arm, at_point=False)),
          "moment is missing")


def test_ex5_hints():
    solo = quiet("solo12", floating_base=True)
    F = rnea(solo, ex.Q_EX5, np.zeros(18), np.zeros(18))[:6]
    hint("ch11.ex5", np.concatenate([F[3:], F[:3]]), r"\(f, m\) order")
    hint("ch11.ex5", -F, "push the robot up")
    hint("ch11.ex5", np.concatenate([np.zeros(3), F[3:]]), "moment is missing")


def test_ex6_hints():
    arm = ex.panda_arm()
    W = work(arm)
    hint("ch11.ex6", -W, "wrong sign")
    from liedyn.crba import kinetic_energy
    q, dq, _ = ex.trajectory(np.array([0.0, ex.T_EX6]))
    K = kinetic_energy(arm, q, dq)
    hint("ch11.ex6", K[1] - K[0], "kinetic energy only")
    hint("ch11.ex6", work(arm, n=5), "trapezoid")


def test_trajectory_stays_within_the_panda_limits():
    arm = ex.panda_arm()
    q, dq, _ = ex.trajectory(np.linspace(0.0, ex.TRAJECTORY["period"], 201))
    assert np.all(q > arm.q_lower) and np.all(q < arm.q_upper)
    assert np.all(np.abs(dq) < arm.velocity_limit)


# exercise 8 (plot |tau_j| / tau_max,j against the payload mass, read off where the
# first joint reaches its limit): the mass read off liedyn's curves
def test_ex8_the_mass_read_off_liedyns_curves_passes():
    arm = ex.panda_arm()
    z = np.zeros(arm.nv)
    masses = np.linspace(0.0, 20.0, 2001)
    unit = payload_wrench(arm) / ex.PAYLOAD_EX4["mass"]           # the wrench of 1 kg
    tau = rnea(arm, ex.Q_EX4, z, z) + masses[:, None] * (
        rnea(arm, ex.Q_EX4, z, z, unit) - rnea(arm, ex.Q_EX4, z, z))
    ratio = np.abs(tau) / arm.effort_limit
    first = masses[np.argmax(ratio.max(axis=1) >= 1.0)]
    assert np.argmax(ratio[np.argmax(ratio.max(axis=1) >= 1.0)]) == 1   # the shoulder
    assert check("ch11.ex8", first)
    assert check("ch11.ex8", first + 0.15)                       # read off a plot


def test_ex8_hints():
    arm = ex.panda_arm()
    z = np.zeros(arm.nv)
    unit = payload_wrench(arm) / ex.PAYLOAD_EX4["mass"]
    share = np.abs(rnea(arm, ex.Q_EX4, z, z, unit) - rnea(arm, ex.Q_EX4, z, z))
    hint("ch11.ex8", np.min(arm.effort_limit / share), "payload alone")
    hint("ch11.ex8", 16.56, "another joint")
    hint("ch11.ex8", 3.0, "rates")
    hint("ch11.ex8", 12.0, "off by")
