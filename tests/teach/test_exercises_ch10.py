"""The chapter 10 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here the notebook's way, with liedyn (Lemma 3 and its corollaries,
rnea_partials / rnea_derivative / aba_partials, least squares on rnea_inertial_partials); the
checkers compute theirs by complex step of closed forms, so the two sides are independent.
"""
import re

import numpy as np
import pytest

from liedyn import lie
from liedyn.derivatives import aba_partials, rnea_derivative, rnea_inertial_partials, rnea_partials
from liedyn.inertia import spatial_inertia, to_parameters
from liedyn.model import Model
from liedyn.robots import _make_joint, double_pendulum, planar_arm
from liedyn.teach.exercises import WrongAnswer, check
from liedyn.teach.exercises import ch10 as ex


def T_p0():
    return lie.exp_se3(ex.P0 * ex.XI) @ ex.T0


def answer1():
    T = T_p0()
    dh = lie.Ad_inv(T) @ ex.XI                                  # eq. (89)
    return -lie.ad(dh) @ lie.Ad_inv(T)                          # eq. (87)


def answer2():
    T = T_p0()
    return (lie.ad(ex.XI) @ lie.Ad(T)).T                        # Lemma 3, transposed


def ex3_model():
    model = Model()
    rng = np.random.default_rng(0)
    for i, (p, kind) in enumerate(zip(ex.EX3_PARENTS, ex.EX3_JOINTS, strict=True), 1):
        X = lie.make_transform(lie.exp_so3(rng.normal(size=3)), rng.normal(size=3))
        model.add_body(f"b{i}", p, _make_joint(kind, np.array([0.0, 0.0, 1.0]), 0.1),
                       placement=X, inertia=spatial_inertia(1.0, rng.normal(size=3) * 0.2,
                                                             np.diag([0.1, 0.2, 0.25])))
    return model


def answer3():
    model = ex3_model()
    rng = np.random.default_rng(1)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    D = rnea_partials(model, q, dq, ddq)[0]
    return int(np.sum(np.abs(D) > 1e-10 * np.abs(D).max()))


def pendulum():
    return double_pendulum(**ex.PENDULUM)


def answer4(parts="both"):
    model = pendulum()
    l1 = ex.PENDULUM["lengths"][0]
    m1 = ex.PENDULUM["masses"][0]
    h = 1e-30
    dI = np.zeros((2, 6, 6))
    dI[0] = spatial_inertia(m1, [0.0, -(l1 + 1j * h), 0.0], np.zeros((3, 3))).imag / h
    dX = np.zeros((2, 6))
    dX[1] = [0.0, 0.0, 0.0, 0.0, -1.0, 0.0]                      # X_2 = Trans(0, -l_1, 0)
    kw = {"both": {"delta_I": dI, "delta_X": dX}, "X": {"delta_X": dX}, "I": {"delta_I": dI}}[parts]
    return rnea_derivative(model, ex.Q_EX4, ex.DQ_EX4, ex.DDQ_EX4, **kw)


def answer5():
    return aba_partials(pendulum(), ex.Q_EX5, ex.DQ_EX5, ex.TAU_EX5)[0]


def answer6():
    q, dq, ddq, tau = ex.ex6_data()
    arm = planar_arm(2, length=ex.ARM_EX6["length"], mass=1.0, gravity=ex.ARM_EX6["gravity"])
    Y = rnea_inertial_partials(arm, q, dq, ddq)                 # (30, 2, 20)
    cols = [Y[..., 10 * k:10 * k + 10] @ to_parameters(arm.inertias[k + 1]) for k in range(2)]
    A = np.stack(cols, axis=-1).reshape(-1, 2)
    return np.linalg.lstsq(A, tau.reshape(-1), rcond=None)[0]


RIGHT = {1: answer1, 2: answer2, 3: answer3, 4: answer4, 5: answer5, 6: answer6}


@pytest.mark.parametrize("k", sorted(RIGHT))
def test_right_answers_pass(k, capsys):
    assert check(f"ch10.ex{k}", RIGHT[k]()) is True
    assert "correct" in capsys.readouterr().out


def test_ex3_count_matches_the_rule():
    same, up, _ = ex._pair_counts(ex.EX3_PARENTS, ex.EX3_DOFS)
    assert answer3() == same + 2 * up == 54


def wrong_answers():
    T = T_p0()
    dh = lie.Ad_inv(T) @ ex.XI
    right1, right2 = answer1(), answer2()
    AdsT = lie.Ad(T).T
    l1_only_X, l1_only_I = answer4("X"), answer4("I")
    model = pendulum()
    D0 = rnea_partials(model, ex.Q_EX5, ex.DQ_EX5, np.zeros(2))
    masses = answer6()
    return [
        (1, -lie.ad(ex.XI) @ lie.Ad_inv(T), "left"),
        (1, -right1, "sign"),
        (1, -lie.Ad_inv(T) @ lie.ad(dh), "order"),
        (1, right1 + 1e-3, "off by"),
        (2, -AdsT @ lie.ad(dh).T, "as printed"),
        (2, lie.ad(ex.XI) @ lie.Ad(T), "transpose"),
        (2, -right2, "sign"),
        (2, lie.ad(ex.XI).T @ AdsT, "order"),
        (3, 100, "nv^2"),
        (3, 36, "one triangle"),
        (3, 23, "pairs of bodies"),
        (3, 18, "diagonal"),
        (3, 53, "ancestor"),
        (3, "many", "one number"),
        (4, l1_only_X, "bob 1"),
        (4, l1_only_I, "placement"),
        (4, l1_only_I - l1_only_X, "sign of delta_X"),
        (4, -answer4(), "sign"),
        (5, -np.linalg.solve(D0[2], D0[0]), "ddq = 0"),
        (5, -answer5(), "sign"),
        (5, answer5().T, "transposed"),
        (6, masses[::-1], "wrong order"),
        (6, [1.0, 1.0], "nominal"),
        (6, masses + [0.01, 0.0], "off by"),
        (6, [1.0, 2.0, 3.0], "shape"),
    ]


@pytest.mark.parametrize("k, answer, message", wrong_answers())
def test_typical_wrong_answers_are_explained(k, answer, message):
    with pytest.raises(WrongAnswer, match=re.escape(message)):
        check(f"ch10.ex{k}", answer)


def test_ex5_wrong_at_zero_acceleration_differs():
    """The 'ddq = 0' hint is reachable: the two answers differ at this state."""
    model = pendulum()
    D0 = rnea_partials(model, ex.Q_EX5, ex.DQ_EX5, np.zeros(2))
    assert np.max(np.abs(-np.linalg.solve(D0[2], D0[0]) - answer5())) > 1e-3


def test_ex6_data_is_deterministic_and_consistent():
    a, b = ex.ex6_data(), ex.ex6_data()
    # the same function, twice
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert all(x.shape == (ex.ARM_EX6["samples"], 2) for x in a)


# exercise 7 (Implement a complex-step derivative): the book's solution passes, bugs are named
from test_implement import my_complex_step as book_complex_step  # noqa: E402


def test_ex7_the_books_complex_step_passes(capsys):
    assert check("ch10.ex7", book_complex_step) is True
    out = capsys.readouterr().out
    assert "agrees with liedyn on" in out and "ch10.ex7: correct." in out


@pytest.mark.parametrize("student, message", [
    (lambda rnea, model, q, dq, ddq: book_complex_step(rnea, model, q, dq, ddq, h=1e-3),
     r"body 1 .*dtau/dq_1 differs"),                                  # a step far too large
    (lambda rnea, model, q, dq, ddq: book_complex_step(rnea, model, q, dq, ddq).T,
     r"body \d+ .*dtau/dq_\d+ differs.*\n  Your dtau/dq_\d+ is the row of joint"),  # D^T
    (lambda rnea, model, q, dq, ddq: np.stack(                         # finite differences
        [(rnea(model, q + 1e-6 * e, dq, ddq) - rnea(model, q, dq, ddq)) / 1e-6
         for e in np.eye(model.nv)], axis=-1), r"never passed a complex q"),
    (lambda rnea, model, q, dq, ddq: (rnea(model, q.astype(complex), dq, ddq),
                                      rnea_partials(model, q, dq, ddq)[0])[1],
     r"called liedyn.*rnea_partials"),
    (3.0, "give your function"),
])
def test_ex7_a_planted_bug_is_reported(student, message):
    with pytest.raises(WrongAnswer, match=message):
        check("ch10.ex7", student)


# exercise 8 (Derive dtau/dq_1 of planar_arm(2) by hand): the book's answer, typical slips
G, M1R1_M2L1, M2R2 = 9.81, 1.5, 0.5          # planar_arm(2): m_i = 1, l_1 = 1, r_i = 1/2


def dtau_dq1(q, dq, ddq):
    s1, s12 = np.sin(q[0]), np.sin(q[0] + q[1])
    return -G * np.array([M1R1_M2L1 * s1 + M2R2 * s12, M2R2 * s12])


def test_ex8_the_books_answer_passes_and_is_liedyns_column(capsys):
    assert check("ch10.ex8", dtau_dq1) is True
    assert "correct" in capsys.readouterr().out
    rng = np.random.default_rng(80)
    for q, dq, ddq in rng.normal(size=(5, 3, 2)):
        np.testing.assert_allclose(dtau_dq1(q, dq, ddq),
                                   rnea_partials(planar_arm(2), q, dq, ddq)[0][:, 0],
                                   atol=1e-12)


def dtau_dq2(q, dq, ddq):
    return rnea_partials(planar_arm(2), q, dq, ddq)[0][:, 1]


@pytest.mark.parametrize("answer, message", [
    (lambda q, dq, ddq: -dtau_dq1(q, dq, ddq), "sign"),
    (dtau_dq2, "second joint."),
    (lambda q, dq, ddq: dtau_dq1(q, dq, ddq) + 0.1 * ddq, "dq or ddq"),
    (lambda q, dq, ddq: dtau_dq2(q, 0 * dq, 0 * ddq), "gravity part of dtau/dq_2"),
    (lambda q, dq, ddq: dtau_dq1(q, dq, ddq) + [G * np.sin(q[0]), 0.0], "tip of link 1"),
    (lambda q, dq, ddq: dtau_dq1(q, dq, ddq) * [1.0, 0.0], "tau_2 changes too"),
    (lambda q, dq, ddq: G * np.array([1.5 * np.cos(q[0]) + 0.5 * np.cos(q[0] + q[1]),
                                      0.5 * np.cos(q[0] + q[1])]), "gravity torques"),
    (lambda q, dq, ddq: dtau_dq1(q, dq, ddq) + 0.01, "off by"),
    (lambda q, dq, ddq: np.zeros(3), "shape"),
    (0.0, "give a function"),
])
def test_ex8_typical_slips_are_explained(answer, message):
    with pytest.raises(WrongAnswer, match=re.escape(message)):
        check("ch10.ex8", answer)


# exercise 9 (read the coupling constant off a plot): the notebook's way, typical slips
def dtau2_dq2_curve(gravity):
    q2 = np.linspace(-np.pi, np.pi, 181)
    Q = np.stack([np.zeros_like(q2), q2], axis=-1)
    return rnea_partials(planar_arm(2, gravity=gravity), Q, ex.DQ_EX9, np.zeros(2))[0]


def test_ex9_the_plot_gives_the_coupling_constant(capsys):
    D = dtau2_dq2_curve(0.0)
    kappa = D[:, 1, 1].max() / ex.DQ_EX9[0] ** 2
    assert abs(kappa - 1.0 * 1.0 * 0.5) < 1e-12                 # m_2 l_1 r_2
    assert np.max(np.abs(D[:, 0, 1])) < 1e-12                  # d tau_1 / d q_2 = 0 here
    assert check("ch10.ex9", kappa) is True
    assert check("ch10.ex9", 0.49) is True                     # read off a plot
    assert "correct" in capsys.readouterr().out


@pytest.mark.parametrize("answer, message", [
    (1.125, "largest value itself"),
    (0.75, "divided by dq_1"),
    (-0.5, "smallest value"),
    (dtau2_dq2_curve(9.81)[:, 1, 1].max() / 2.25, "includes gravity"),
    (0.0, "d tau_1/d q_2"),
    (0.6, "off by"),
    ([0.5, 0.5], "shape (1,)"),
])
def test_ex9_typical_slips_are_explained(answer, message):
    with pytest.raises(WrongAnswer, match=re.escape(message)):
        check("ch10.ex9", answer)
