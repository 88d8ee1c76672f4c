"""The chapter 6 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way); the checkers compute theirs
from closed forms with plain numpy, so the two sides are independent.
"""
import numpy as np
import pytest

from liedyn import joints as J
from liedyn.closed_form import closed_form_matrices
from liedyn.crba import coriolis_matrix, gravity_torque, mass_matrix
from liedyn.inverse_dynamics import rnea
from liedyn.lie import Ad, exp_se3
from liedyn.model import Model
from liedyn.regressor import joint_torque_regressor
from liedyn.robots import planar_arm, random_tree, serial_chain
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch06 as ex

from common import hint
from test_implement import my_crba

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


def test_ex1_hints():
    M = zhang_mass_matrix(ARM, ex.Q_EX1)
    hint("ch6.ex1", M + gravity_torque(ARM, ex.Q_EX1)[:, None], "gravity torque")
    hint("ch6.ex1", M[:1], "shape")
    hint("ch6.ex1", M + 0.1, "off by")


def test_ex2_hints():
    n = len(ex.PARENTS_EX2)
    hint("ch6.ex2", n * n, "ancestor")
    hint("ch6.ex2", 13, "other triangle")
    hint("ch6.ex2", n * (n + 1) // 2, "branches")
    hint("ch6.ex2", 20, "not the count")
    hint("ch6.ex2", "many", "number")


def test_ex3_hints():
    cf = closed_form_matrices(serial_chain(3), ex.Q_EX3, np.zeros(3))
    G31 = cf.G[12:18, 0:6]
    hint("ch6.ex3", cf.Gamma[12:18, 0:6], "block of Gamma")
    hint("ch6.ex3", np.linalg.inv(G31), "inverse")
    hint("ch6.ex3", cf.G[12:18, 6:12], "last step")
    hint("ch6.ex3", Ad(np.eye(4)), "off by")


def test_ex4_hints():
    C = coriolis_matrix(ARM, ex.Q_EX4, ex.DQ_EX4)
    hint("ch6.ex4", C @ ex.DQ_EX4, "vector")
    hint("ch6.ex4", C.T, "transposed")
    hint("ch6.ex4", closed_form_matrices(ARM, ex.Q_EX4, ex.DQ_EX4).C, "Christoffel")
    hint("ch6.ex4", -C, "off by")


def test_ex5_hints():
    s = ex.STATE_EX5
    tau = rnea(ARM, s["q"], s["dq"], s["ddq"])
    hint("ch6.ex5", s["dq"] @ (tau - gravity_torque(ARM, s["q"])), "kinetic energy only")
    hint("ch6.ex5", s["dq"] @ mass_matrix(ARM, s["q"]) @ s["ddq"], "velocity terms")
    hint("ch6.ex5", -s["dq"] @ tau, "off by")


def test_ex6_hints():
    hint("ch6.ex6", 20, "not all 20")
    hint("ch6.ex6", 4, "without gravity")
    hint("ch6.ex6", 10, "not the rank")


# exercise 7 (Implement the composite-rigid-body algorithm): the checker of
# teach.implement, on my_crba of test_implement (a right implementation, a planted bug)


def test_ex7_a_right_crba_passes_and_a_planted_bug_is_reported(capsys):
    assert check("ch6.ex7", my_crba) is True
    assert "agrees with liedyn on" in capsys.readouterr().out
    with pytest.raises(WrongAnswer, match=r"body \d+ .*: Ic_\d+ differs"):
        check("ch6.ex7", lambda model, q: my_crba(model, q, slip="untransformed"))
    with pytest.raises(WrongAnswer, match=r"ch6.ex7: .*\n  Your Ic_\d+ adds A_k Ic_k "
                                          r"A_k\^T: the transpose belongs on the left"):
        check("ch6.ex7", lambda model, q: my_crba(model, q, slip="A X A^T"))
    with pytest.raises(WrongAnswer, match="give your function"):
        check("ch6.ex7", 1.0)


# exercise 8 (Derive the arm's mass matrix with the CRBA): I^c_1 in the plane
PLANE = np.ix_([2, 3, 4], [2, 3, 4])                 # (w_z, v_x, v_y) of (w, v)


def Ic1(q2):
    c2, s2 = np.cos(q2), np.sin(q2)
    return np.array([[5 / 3 + c2, -s2 / 2, 3 / 2 + c2 / 2],
                     [-s2 / 2, 2.0, 0.0],
                     [3 / 2 + c2 / 2, 0.0, 2.0]])


def test_ex8_the_books_composite_inertia_is_liedyns_and_passes():
    from liedyn.crba import composite_inertias
    for q2 in (0.2, -2.0, 3.0):
        Ic = composite_inertias(ARM, np.array([0.0, q2]))[0]
        np.testing.assert_allclose(Ic1(q2), Ic[1][PLANE], atol=1e-12)
        assert np.isclose(Ic1(q2)[0, 0], mass_matrix(ARM, [0.0, q2])[0, 0])
    assert check("ch6.ex8", Ic1)


def planar_A(q2):
    c, s = np.cos(q2), np.sin(q2)
    return np.array([[1.0, 0.0, 0.0], [s, c, s], [c, -s, c]])


@pytest.mark.parametrize("answer, message", [
    (lambda q2: 2 * ARM.inertias[1][PLANE], "depends on q2"),
    (lambda q2: ARM.inertias[1][PLANE]
     + planar_A(q2) @ ARM.inertias[2][PLANE] @ planar_A(q2).T, "comes back with A^T"),
    (lambda q2: Ic1(q2) + np.diag([0.1, 0.0, 0.0]), "moment of inertia about joint 1"),
    (lambda q2: Ic1(q2) + np.diag([0.0, 0.1, 0.0]), "off by"),
    (np.eye(3), "give a function"),
])
def test_ex8_typical_slips_are_explained(answer, message):
    import re
    with pytest.raises(WrongAnswer, match=re.escape(message)):
        check("ch6.ex8", answer)


# exercise 10 (the eigenvalues of M read off a plot): the eigenvalues of liedyn's CRBA
def eigenvalues_ex10():
    q2 = np.linspace(-np.pi, np.pi, 2001)
    q = np.stack([np.zeros_like(q2), q2], axis=-1)
    return np.linalg.eigvalsh(mass_matrix(ARM, q))


def test_ex10_a_value_read_off_the_plot_passes_and_the_slips_are_named():
    ev = eigenvalues_ex10()
    smallest = ev[:, 0].min()
    assert check("ch6.ex10", smallest)
    assert check("ch6.ex10", round(smallest, 3))          # read to two digits
    assert check("ch6.ex10", [smallest * 0.985])
    hint("ch6.ex10", ev[:, 0].max(), "largest value of the smaller eigenvalue")
    hint("ch6.ex10", np.linalg.eigvalsh(mass_matrix(ARM, [0.0, np.pi]))[0], "folded arm")
    hint("ch6.ex10", ev[:, 1].min(), "larger eigenvalue")
    hint("ch6.ex10", ev[:, 1].max(), "largest eigenvalue")
    hint("ch6.ex10", smallest * 1.1, "off by")
