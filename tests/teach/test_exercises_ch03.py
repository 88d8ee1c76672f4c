"""The chapter 3 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
with plain numpy, so the two sides are independent.
"""
import numpy as np

from liedyn import body, lie
from liedyn.inertia import spatial_inertia
from liedyn.teach.exercises import ch03 as ex
from liedyn.teach.exercises import check

from common import hint


def se2_body():
    b = ex.BODY_EX3
    return spatial_inertia(b["mass"], np.zeros(3), np.diag([b["Iz"]] * 3))


def test_right_answers_pass():
    p = ex.PENDULUM
    M = p["mass"] * p["length"] ** 2 * np.diag([1.0, np.sin(p["theta"]) ** 2])
    assert check("ch3.ex1", M)
    assert check("ch3.ex2", body.velocity_map(ex.PHI_EX2, "SO3"))
    assert check("ch3.ex3", body.coriolis_matrix(se2_body(), ex.V_EX3, "SE2"))
    I4 = spatial_inertia(1.0, np.zeros(3), ex.J_EX4)
    assert check("ch3.ex4", body.coriolis_matrix(I4, ex.W_EX4, "SO3"))
    assert check("ch3.ex5", body.coriolis_matrix(ex.I_EX5, ex.V_EX5) @ ex.V_EX5)
    assert check("ch3.ex6", np.pi / 2)


def test_ex1_hints():
    hint("ch3.ex1", 4.0 * np.eye(2), "l sin")
    hint("ch3.ex1", 4.0 * np.diag([1.0, np.sin(np.pi / 3)]), "squared")


def test_ex2_hints():
    S = body.velocity_map(ex.PHI_EX2, "SO3")
    hint("ch3.ex2", S.T, "left Jacobian")
    hint("ch3.ex2", np.eye(3) - lie.skew(ex.PHI_EX2) / 2, "truncated")


def test_ex3_hints():
    C = body.coriolis_matrix(se2_body(), ex.V_EX3, "SE2")
    order = list(body.group("SE2").from_order)
    hint("ch3.ex3", C[np.ix_(order, order)], "his order")
    hint("ch3.ex3", -C, "sign is flipped")


def test_ex4_hint_is_from_table1():
    hint("ch3.ex4", lie.skew(ex.J_EX4 @ ex.W_EX4), "Table 1")


def test_ex5_hints():
    L = ex.I_EX5 @ ex.V_EX5
    hint("ch3.ex5", -lie.ad(L).T @ ex.V_EX5, "Duindam")
    hint("ch3.ex5", lie.ad(ex.V_EX5).T @ L, "sign is flipped")


def test_ex6_hints():
    hint("ch3.ex6", 90.0, "radians")
    hint("ch3.ex6", 0.0, "independent")


# exercise 8 (plot the smallest singular value of S on SO(3)): the angle read off
# liedyn's curve
def test_ex8_the_angle_read_off_liedyns_curve_passes():
    alphas = np.linspace(0.0, 3 * np.pi, 3001)[1:]
    smallest = [np.linalg.svd(body.velocity_map(a * ex.AXIS_EX8, "SO3"),
                              compute_uv=False).min() for a in alphas]
    first = alphas[np.argmin(smallest)]
    assert abs(np.linalg.norm(ex.AXIS_EX8) - 1) < 1e-15
    assert check("ch3.ex8", first)
    assert check("ch3.ex8", first - 0.04)                       # read off a plot
    assert check("ch3.ex8", np.array([first]))


def test_ex8_hints():
    hint("ch3.ex8", np.pi, "regular")
    hint("ch3.ex8", 360.0, "radians")
    hint("ch3.ex8", 4 * np.pi, "first zero")
    hint("ch3.ex8", 0.0, "identity")
    hint("ch3.ex8", 5.0, "off by")
