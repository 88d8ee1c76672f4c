"""The chapter 6 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
from closed forms with plain numpy, so the two sides are independent.
"""
import numpy as np
import pytest

from liedyn import joints as J
from liedyn.closed_form import closed_form_matrices
from liedyn.crba import coriolis_matrix, gravity_torque, mass_matrix
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch06 as ex
from liedyn.lie import Ad, exp_se3
from liedyn.model import Model
from liedyn.regressor import joint_torque_regressor
from liedyn.inverse_dynamics import rnea
from liedyn.robots import planar_arm, random_tree, serial_chain

ARM = planar_arm(2)


def zhang_mass_matrix(model, q):
    zero = np.zeros(model.nv)
    g = rnea(model, q, zero, zero)
    return np.column_stack([rnea(model, q, zero, e) - g for e in np.eye(model.nv)])


def tree_ex2():
    rng = np.random.default_rng(6)
    model = Model()
    for i, p in enumerate(ex.PARENTS_EX2, 1):
        inertia = random_tree(1, rng).inertias[1]
        model.add_body(f"b{i}", p, J.Revolute(rng.normal(size=3)),
                       placement=exp_se3(rng.normal(size=6)), inertia=inertia)
    return model


def answers():
    s = ex.STATE_EX5
    rng = np.random.default_rng(0)
    q, dq, ddq = rng.normal(size=(3, 200, 2))
    tree = tree_ex2()
    M_tree = mass_matrix(tree, tree.random_configuration(np.random.default_rng(1)))
    return {
        "ch6.ex1": zhang_mass_matrix(ARM, ex.Q_EX1),
        "ch6.ex2": int(np.count_nonzero(np.abs(M_tree) > 1e-12)),
        "ch6.ex3": closed_form_matrices(serial_chain(3), ex.Q_EX3, np.zeros(3)).G[12:18, 0:6],
        "ch6.ex4": coriolis_matrix(ARM, ex.Q_EX4, ex.DQ_EX4),
        "ch6.ex5": s["dq"] @ rnea(ARM, s["q"], s["dq"], s["ddq"]),
        "ch6.ex6": np.linalg.matrix_rank(joint_torque_regressor(ARM, q, dq, ddq).reshape(-1, 20)),
    }


def test_right_answers_pass():
    for name, value in answers().items():
        assert check(name, value)


def _hint(exercise, answer, text):
    with pytest.raises(WrongAnswer, match=text):
        check(exercise, answer)


def test_ex1_hints():
    M = zhang_mass_matrix(ARM, ex.Q_EX1)
    _hint("ch6.ex1", M + gravity_torque(ARM, ex.Q_EX1)[:, None], "gravity torque")
    _hint("ch6.ex1", M[:1], "shape")
    _hint("ch6.ex1", M + 0.1, "off by")


def test_ex2_hints():
    n = len(ex.PARENTS_EX2)
    _hint("ch6.ex2", n * n, "ancestor")
    _hint("ch6.ex2", 13, "other triangle")
    _hint("ch6.ex2", n * (n + 1) // 2, "branches")
    _hint("ch6.ex2", 20, "not the count")
    _hint("ch6.ex2", "many", "number")


def test_ex3_hints():
    cf = closed_form_matrices(serial_chain(3), ex.Q_EX3, np.zeros(3))
    G31 = cf.G[12:18, 0:6]
    _hint("ch6.ex3", cf.Gamma[12:18, 0:6], "block of Gamma")
    _hint("ch6.ex3", np.linalg.inv(G31), "inverse")
    _hint("ch6.ex3", cf.G[12:18, 6:12], "last step")
    _hint("ch6.ex3", Ad(np.eye(4)), "off by")


def test_ex4_hints():
    C = coriolis_matrix(ARM, ex.Q_EX4, ex.DQ_EX4)
    _hint("ch6.ex4", C @ ex.DQ_EX4, "vector")
    _hint("ch6.ex4", C.T, "transposed")
    _hint("ch6.ex4", closed_form_matrices(ARM, ex.Q_EX4, ex.DQ_EX4).C, "Christoffel")
    _hint("ch6.ex4", -C, "off by")


def test_ex5_hints():
    s = ex.STATE_EX5
    tau = rnea(ARM, s["q"], s["dq"], s["ddq"])
    _hint("ch6.ex5", s["dq"] @ (tau - gravity_torque(ARM, s["q"])), "kinetic energy only")
    _hint("ch6.ex5", s["dq"] @ mass_matrix(ARM, s["q"]) @ s["ddq"], "velocity terms")
    _hint("ch6.ex5", -s["dq"] @ tau, "off by")


def test_ex6_hints():
    _hint("ch6.ex6", 20, "not all 20")
    _hint("ch6.ex6", 4, "without gravity")
    _hint("ch6.ex6", 10, "not the rank")
