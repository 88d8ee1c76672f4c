"""The chapter 2 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
with plain numpy, so the two sides are independent.
"""
import numpy as np

from liedyn import body, inertia, lie
from liedyn.teach.exercises import ch02 as ex
from liedyn.teach.exercises import check

from common import hint


def cylinder():
    c = ex.CYLINDER
    J = inertia.cylinder_inertia(c["mass"], c["radius"], c["length"])
    return inertia.spatial_inertia(c["mass"], [0.0, 0.0, c["length"] / 2], J)


def test_right_answers_pass():
    I = cylinder()
    assert check("ch2.ex1", I)
    assert check("ch2.ex2", inertia.kinetic_energy(I, ex.V_EX2))
    assert check("ch2.ex3", inertia.transform_inertia(I, ex.T_EX3))
    assert check("ch2.ex4", body.newton_euler(I, ex.V_EX4, ex.DV_EX4))
    assert check("ch2.ex5", 3.0)
    assert check("ch2.ex6", 2.0 * np.sqrt(1.0 / 8.0))


def test_ex1_hints():
    I = cylinder()
    com = I.copy()
    com[:3, 3:] = com[3:, :3] = 0.0
    com[:3, :3] = inertia.cylinder_inertia(2.0, 0.1, 0.5)
    hint("ch2.ex1", com, "centre-of-mass frame")
    swapped = I.copy()
    swapped[:3, 3:], swapped[3:, :3] = I[3:, :3], I[:3, 3:]
    hint("ch2.ex1", swapped, "coupling blocks are swapped")
    P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
    hint("ch2.ex1", P @ I @ P, r"\(v, w\) ordering")
    hint("ch2.ex1", np.eye(3), r"shape \(6, 6\)")
    hint("ch2.ex1", I + 1e-3, "off by")


def test_ex2_hints():
    I = cylinder()
    hint("ch2.ex2", ex.V_EX2 @ I @ ex.V_EX2, "twice")
    com = np.diag([*np.diag(inertia.cylinder_inertia(2.0, 0.1, 0.5)), 2.0, 2.0, 2.0])
    hint("ch2.ex2", ex.V_EX2 @ com @ ex.V_EX2 / 2, "centre-of-mass inertia")


def test_ex3_hints():
    I = cylinder()
    hint("ch2.ex3", inertia.transform_inertia(I, lie.inverse(ex.T_EX3)), "T_ba")
    A = lie.Ad(ex.T_EX3)
    hint("ch2.ex3", A @ I @ A.T, "wrong places")


def test_ex4_hints():
    I = cylinder()
    hint("ch2.ex4", I @ ex.DV_EX4, "left out the velocity term")
    hint("ch2.ex4", I @ ex.DV_EX4 + lie.ad_star(ex.V_EX4) @ I @ ex.V_EX4, "wrong sign")


def test_ex5_ex6_hints():
    hint("ch2.ex5", 2.0, "stable")
    hint("ch2.ex5", 4.0, "stable")
    hint("ch2.ex5", 1.0, "axis index")
    hint("ch2.ex6", 4.0 / 8.0, "sigma")
    hint("ch2.ex6", np.sqrt(1.0 / 8.0), "multiply by Omega")
    hint("ch2.ex6", [1.0], r"shape \(\)")


# exercise 8 (plot I_xx of a frame sliding along the cylinder's axis): the height read off
# liedyn's curve
def test_ex8_the_height_read_off_liedyns_curve_passes():
    I = cylinder()
    heights = np.linspace(-0.5, 1.0, 1501)
    T = np.broadcast_to(np.eye(4), (len(heights), 4, 4)).copy()
    T[:, 2, 3] = heights
    I_xx = inertia.transform_inertia(I, T)[:, 0, 0]
    assert check("ch2.ex8", heights[np.argmin(I_xx)])
    assert check("ch2.ex8", heights[np.argmin(I_xx)] + 0.008)      # read off a plot
    assert check("ch2.ex8", [heights[np.argmin(I_xx)]])          # one number in an array


def test_ex8_hints():
    hint("ch2.ex8", -0.25, "T_sa")
    hint("ch2.ex8", 2.0 * (3 * 0.01 + 0.25) / 12, "least inertia itself")
    hint("ch2.ex8", 0.0, "bottom face")
    hint("ch2.ex8", 0.5, "top face")
    hint("ch2.ex8", 0.4, "off by")
