"""The chapter 7 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
in closed form with plain numpy, so the two sides are independent.
"""
import numpy as np
import pytest

from liedyn import joints as J
from liedyn.crba import bias_force, mass_matrix, momentum
from liedyn.forward_dynamics import aba, aba_pass, mass_matrix_factor
from liedyn.inertia import spatial_inertia
from liedyn.lie import exp_quat, make_transform
from liedyn.model import Model
from liedyn.robots import double_pendulum, pendulum, planar_arm
from liedyn.simulation import simulate
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch07 as ex

from common import hint, pendulum_of


def floating():
    f = ex.FLOATING
    m = Model(gravity=(0.0, 0.0, 0.0))
    m.add_body("base", 0, J.Free(),
               inertia=spatial_inertia(f["base_mass"], f["base_com"], f["base_I_com"]))
    m.add_body("bob", 1, J.Spherical(), placement=make_transform(np.eye(3), f["joint_offset"]),
               inertia=spatial_inertia(f["bob_mass"], f["bob_com"], f["bob_I_com"]))
    return m


def D1():
    ap = aba_pass(pendulum_of(ex), ex.Q, np.zeros(2), np.zeros(2), dV0=np.zeros(6))
    S = ap.forward.S[1]
    return float((S.T @ ap.I_hat[1] @ S)[0, 0])


def test_right_answers_pass():
    assert check("ch7.ex1", D1())
    assert check("ch7.ex2", aba(pendulum_of(ex), ex.Q, ex.DQ, ex.TAU))
    assert check("ch7.ex3", mass_matrix_factor(pendulum_of(ex), ex.Q))
    fm = floating()
    f = ex.FLOATING
    q0 = fm.neutral_configuration()
    dq0 = np.concatenate([f["V_base"], f["w_joint"]])
    L = momentum(fm, q0, dq0)
    assert check("ch7.ex4", L[3:] / (f["base_mass"] + f["bob_mass"]))
    assert check("ch7.ex5", 2 * np.sqrt(ex.SWING["length"] / ex.GRAVITY))
    assert check("ch7.ex6", 2.0)


def test_ex1_hints():
    M = mass_matrix(pendulum_of(ex), ex.Q)
    hint("ch7.ex1", M[0, 0], "elbow locked")
    hint("ch7.ex1", M[1, 1], "D_2")
    hint("ch7.ex1", 3.0, "free pin")
    hint("ch7.ex1", D1() + 0.01, "off by")
    hint("ch7.ex1", [D1()], "shape")


def test_ex2_hints():
    m = pendulum_of(ex)
    M = mass_matrix(m, ex.Q)
    b = bias_force(m, ex.Q, ex.DQ)
    no_gravity = double_pendulum(**ex.PENDULUM, gravity=0.0)
    hint("ch7.ex2", aba(no_gravity, ex.Q, ex.DQ, ex.TAU), "gravity")
    hint("ch7.ex2", aba(m, ex.Q, np.zeros(2), ex.TAU), "velocity terms")
    hint("ch7.ex2", np.linalg.solve(M, ex.TAU + b), "sign")
    hint("ch7.ex2", np.linalg.solve(M, ex.TAU), "leaves out")


def test_ex3_hints():
    M = mass_matrix(pendulum_of(ex), ex.Q)
    W = mass_matrix_factor(pendulum_of(ex), ex.Q)
    hint("ch7.ex3", np.linalg.cholesky(M), "lower")
    hint("ch7.ex3", W.T, "transposed")
    hint("ch7.ex3", W * [[1, 1], [1, -1]] * [[1, 1], [1, 1]] * [[-1, -1], [1, 1]], "signs")


def test_ex4_conservation_and_hints():
    """The answer can also be read off a simulation: the COM velocity stays constant."""
    fm, f = floating(), ex.FLOATING
    q0 = fm.neutral_configuration()
    dq0 = np.concatenate([f["V_base"], f["w_joint"]])
    traj = simulate(fm, q0, dq0, 0.02, steps=25, method="rkmk4")
    L = momentum(fm, traj.q[-1], traj.dq[-1])
    m = f["base_mass"] + f["bob_mass"]
    assert check("ch7.ex4", L[3:] / m)
    hint("ch7.ex4", f["V_base"][3:], "base frame")
    hint("ch7.ex4", L[3:], "divide by the total mass")


def test_ex5_hints():
    omega = np.sqrt(ex.GRAVITY / ex.SWING["length"])
    hint("ch7.ex5", 2 * np.sqrt(2) / omega, "RK4")
    hint("ch7.ex5", 1 / omega, "trace")
    hint("ch7.ex5", 0.5, "off by")


def test_ex5_is_the_real_stability_limit():
    """Just below 2/omega the small swing stays bounded, just above it explodes."""
    model_ = pendulum(length=ex.SWING["length"], gravity=ex.GRAVITY)
    limit = 2 / np.sqrt(ex.GRAVITY / ex.SWING["length"])
    below = simulate(model_, [1e-3], [0.0], 0.98 * limit, steps=200, method="semi_implicit")
    above = simulate(model_, [1e-3], [0.0], 1.02 * limit, steps=200, method="semi_implicit")
    assert np.max(np.abs(below.q)) < 0.01 and np.max(np.abs(above.q)) > 0.1


def test_ex6_hints_and_the_measured_order():
    hint("ch7.ex6", 4.0, "vector-space")
    hint("ch7.ex6", 1.0, "Euler")
    hint("ch7.ex6", 3.0, "halving")
    m = Model(gravity=(0.0, 0.0, -ex.GRAVITY))
    m.add_body("bob", 0, J.Spherical(),
               inertia=spatial_inertia(1.0, [0.0, 0.0, -1.0], np.eye(3) * 0.01))
    q0, dq0 = exp_quat(np.array([1.0, 0.3, 0.0])), np.array([0.0, 0.0, 2.0])
    ref = simulate(m, q0, dq0, 0.005, duration=0.4, method="rkmk4").q[-1]
    err = [np.linalg.norm(m.difference(ref, simulate(m, q0, dq0, dt, duration=0.4,
                                                     method="rk4").q[-1])) for dt in (0.02, 0.01)]
    assert check("ch7.ex6", np.log2(err[0] / err[1]))


# exercise 7 (Implement the articulated-body algorithm): the checker of teach.implement
from test_implement import my_aba  # noqa: E402  (a right implementation, planted bugs)


def test_ex7_a_right_aba_passes(capsys):
    assert check("ch7.ex7", my_aba) is True
    out = capsys.readouterr().out
    assert "agrees with liedyn on" in out and "ch7.ex7: correct." in out


def test_ex7_a_planted_bug_is_reported_and_a_value_refused():
    with pytest.raises(WrongAnswer, match=r"body \d+ .*: I_hat_\d+ differs"):
        check("ch7.ex7", lambda *args: my_aba(*args, bug_body=4))
    with pytest.raises(WrongAnswer, match=r"ch7.ex7: .*\n  Your B_hat_\d+ leaves eta_k out "
                                          r"of beta_k"):
        check("ch7.ex7", lambda *args: my_aba(*args, slip="no eta in beta"))
    with pytest.raises(WrongAnswer, match="give your function"):
        check("ch7.ex7", np.zeros(3))


# exercise 8 (Show that Pi S = 0): the rod's Pi in the plane, from liedyn's sweep
PLANE = np.ix_([2, 3, 4], [2, 3, 4])                 # (w_z, v_x, v_y) of (w, v)


def rod_model():
    rod = ex.ROD
    m = Model(gravity=(0.0, 0.0, 0.0))
    m.add_body("rod", 0, J.Revolute([0, 0, 1]),
               inertia=spatial_inertia(rod["mass"], [rod["com"], 0.0, 0.0],
                                       np.diag([0.0, rod["I_zz"], rod["I_zz"]])))
    return m


def test_ex8_liedyns_pi_passes_and_vanishes_along_the_joint():
    Pi = aba_pass(rod_model(), [0.0], [0.0], [0.0], dV0=np.zeros(6)).Pi[1][PLANE]
    assert np.allclose(Pi[0], 0.0) and np.allclose(Pi[:, 0], 0.0)       # Pi S = 0
    assert check("ch7.ex8", Pi)


def test_ex8_hints():
    Pi = aba_pass(rod_model(), [0.0], [0.0], [0.0], dV0=np.zeros(6)).Pi[1][PLANE]
    m = ex.ROD["mass"]
    hint("ch7.ex8", rod_model().inertias[1][PLANE], "own inertia")
    hint("ch7.ex8", Pi + 0.1 * np.eye(3), r"Pi S = 0")
    hint("ch7.ex8", np.diag([0.0, m, m]), "swings")
    hint("ch7.ex8", np.diag([0.0, m, 0.0]), "point mass")
    hint("ch7.ex8", 1.1 * Pi, "off by")
    hint("ch7.ex8", np.zeros(3), "shape")


# exercise 9 (plot D_1 and M_11 of the arm against q_2): the angle read off liedyn's curves
def test_ex9_the_angle_read_off_liedyns_curves_passes():
    arm = planar_arm(2, mass=ex.ARM["mass"], length=ex.ARM["length"])
    q2 = np.linspace(0.0, np.pi, 1001)
    Q = np.stack([np.zeros_like(q2), q2], axis=-1)
    ap = aba_pass(arm, Q, np.zeros_like(Q), np.zeros_like(Q), dV0=np.zeros(6))
    S = ap.forward.S[1][..., 0]
    D1 = np.einsum("...i,...ij,...j->...", S, ap.I_hat[1], S)
    gap = mass_matrix(arm, Q)[:, 0, 0] - D1
    assert np.all(gap > -1e-12)
    assert check("ch7.ex9", q2[np.argmin(gap)])
    assert check("ch7.ex9", q2[np.argmin(gap)] + 0.04)       # read off a plot


def test_ex9_hints():
    right = np.arccos(-2 / 3)
    hint("ch7.ex9", -right, "angle in")
    hint("ch7.ex9", np.degrees(right), "radians")
    hint("ch7.ex9", -2 / 3, "cos q_2")
    hint("ch7.ex9", np.pi / 2, "middle")
    hint("ch7.ex9", 0.0, "largest")
    hint("ch7.ex9", right + 0.3, "off by")
