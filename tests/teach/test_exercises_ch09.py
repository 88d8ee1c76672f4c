"""The chapter 9 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn's constrained solvers (the notebook's way); the
checkers compute theirs in closed form with plain numpy (planar rods, hand-differentiated loop
equations), so the two sides are independent.
"""
import numpy as np

from liedyn import joints as J
from liedyn.constrained_dynamics import constrained_forward, constrained_hybrid, constrained_inverse
from liedyn.constraints import Pfaffian, constraint_jacobian
from liedyn.crba import mass_matrix
from liedyn.inertia import spatial_inertia
from liedyn.inverse_dynamics import rnea
from liedyn.model import Model
from liedyn.robots import five_bar, four_bar, rolling_disk
from liedyn.teach.exercises import ch09 as ex
from liedyn.teach.exercises import check

from common import hint

Z3, Z5 = np.zeros(3), np.zeros(5)


def four_bar_jacobian_world():
    model, cons, q = four_bar()
    a, b, c, _ = ex.FOUR_BAR["lengths"]
    q1, q2, q3 = q
    J_w = np.array([[-a * np.sin(q1) - b * np.sin(q1 + q2), -b * np.sin(q1 + q2), c * np.sin(q3)],
                    [a * np.cos(q1) + b * np.cos(q1 + q2), b * np.cos(q1 + q2), -c * np.cos(q3)]])
    R3 = np.array([[np.cos(q3), -np.sin(q3)], [np.sin(q3), np.cos(q3)]])
    return J_w, R3, constraint_jacobian(model, cons, q)


def pendulum_lambda():
    p = ex.PENDULUM_EX2
    model = Model(gravity=(0.0, -ex.GRAVITY, 0.0))
    model.add_body("slider", 0, J.Prismatic([1, 0, 0]))
    model.add_body("bob", "slider", J.Prismatic([0, 1, 0]),
                   inertia=spatial_inertia(p["mass"], np.zeros(3), np.zeros((3, 3))))
    rod = Pfaffian(lambda q: np.asarray(q)[..., None, :],
                   lambda q, dq: np.sum(np.asarray(dq) ** 2, axis=-1)[..., None], m=1)
    q = p["length"] * np.array([np.sin(p["angle"]), -np.cos(p["angle"])])
    dq = p["length"] * p["rate"] * np.array([np.cos(p["angle"]), np.sin(p["angle"])])
    return constrained_forward(model, [rod], q, dq, np.zeros(2))[1][0]


def test_configurations_match_the_builders():
    assert np.max(np.abs(ex.four_bar_configuration() - four_bar()[2])) < 1e-12
    assert np.max(np.abs(ex.five_bar_configuration() - five_bar()[2])) < 1e-12


def test_closed_form_mass_matrix_and_gravity_match_liedyn():
    for kind, build in (("four", four_bar), ("five", five_bar)):
        model, _, q = build()
        M, g = ex._mass_and_gravity(kind, q)
        z = np.zeros(model.nv)
        assert np.max(np.abs(M - mass_matrix(model, q))) < 1e-12
        assert np.max(np.abs(g - rnea(model, q, z, z))) < 1e-12


def test_right_answers_pass():
    J_w, R3, A = four_bar_jacobian_world()
    assert np.max(np.abs(A + R3.T @ J_w)) < 1e-12          # liedyn's A is -R^T J_w (frame {b})
    assert check("ch9.ex1", J_w)
    assert check("ch9.ex2", pendulum_lambda())
    model4, cons4, q4 = four_bar()
    assert check("ch9.ex3", constrained_inverse(model4, cons4, q4, Z3, Z3,
                                                [True, False, False])[0][0])
    model5, cons5, q5 = five_bar()
    assert check("ch9.ex4", constrained_inverse(model5, cons5, q5, Z5, Z5, np.ones(5, bool))[0])
    disk, dcons, qd = rolling_disk()
    d = ex.DISK_EX5
    ddq = constrained_forward(disk, dcons, qd, np.zeros(4), [0.0, 0.0, 0.0, d["torque"]])[0]
    assert check("ch9.ex5", d["radius"] * ddq[3] * d["time"])
    t, a, _ = constrained_hybrid(model5, cons5, q5, Z5, Z5, Z5, [True, False, False, False, False])
    assert check("ch9.ex6", [t[0], a[2]])


def test_ex1_hints():
    J_w, R3, A = four_bar_jacobian_world()
    hint("ch9.ex1", J_w.T, "transpose")
    hint("ch9.ex1", -J_w, "wrong sign")
    hint("ch9.ex1", A, "rocker tip's frame")
    hint("ch9.ex1", J_w + 1e-3, "off by")
    hint("ch9.ex1", np.zeros(3), r"shape \(2, 3\)")


def test_ex2_hints():
    lam = pendulum_lambda()
    p = ex.PENDULUM_EX2
    m, l, g = p["mass"], p["length"], ex.GRAVITY
    y, v2 = -l * np.cos(p["angle"]), (l * p["rate"]) ** 2
    hint("ch9.ex2", -lam, "Murray's convention")
    hint("ch9.ex2", -m / l ** 2 * (g * y + v2), "printed in Murray's notes")
    hint("ch9.ex2", m / l ** 2 * g * y, "drift term")
    hint("ch9.ex2", -l * lam, "tension")
    hint("ch9.ex2", lam + 0.01, "off by")


def test_ex3_hints():
    model, cons, q = four_bar()
    tau = constrained_inverse(model, cons, q, Z3, Z3, [True, False, False])[0][0]
    hint("ch9.ex3", -tau, "wrong sign")
    hint("ch9.ex3", rnea(model, q, Z3, Z3)[0], "open-chain gravity torque")
    hint("ch9.ex3", tau + 1e-3, "off by")


def test_ex4_hints():
    model, cons, q = five_bar()
    tau = constrained_inverse(model, cons, q, Z5, Z5, np.ones(5, bool))[0]
    hint("ch9.ex4", rnea(model, q, Z5, Z5), "not the least torque")
    lam_cf = constrained_inverse(model, cons, q, Z5, Z5, np.ones(5, bool),
                                 objective="min_constraint_force")[0]
    hint("ch9.ex4", lam_cf, "not the least torque")
    hint("ch9.ex4", -tau, "wrong sign")
    two = constrained_inverse(model, cons, q, Z5, Z5, np.array([True, False, True, False, False]))
    hint("ch9.ex4", two[0], "two ground motors")
    hint("ch9.ex4", tau + 1e-3, "off by")


def test_ex5_hints():
    d = ex.DISK_EX5
    r, m, mc, tq, T = d["radius"], d["mass"], d["carrier_mass"], d["torque"], d["time"]
    hint("ch9.ex5", r * tq * T / (m * r ** 2 / 2), "translational inertia")
    hint("ch9.ex5", r * tq * T / ((m + mc) * r ** 2), "spin inertia")
    hint("ch9.ex5", r * tq * T / (m * r ** 2 / 4 + (m + mc) * r ** 2), "axis of symmetry")
    hint("ch9.ex5", r * tq * T / (m * r ** 2 / 2 + m * r ** 2), "carrier")
    hint("ch9.ex5", tq * T / (m * r ** 2 / 2 + (m + mc) * r ** 2), "spin rate")
    hint("ch9.ex5", 0.5, "off by")


def test_ex6_hints():
    model, cons, q = five_bar()
    t, a, _ = constrained_hybrid(model, cons, q, Z5, Z5, Z5, [True, False, False, False, False])
    right = np.array([t[0], a[2]])
    hint("ch9.ex6", right[::-1], "wrong order")
    free = constrained_forward(model, cons, q, Z5, Z5)[0]
    hint("ch9.ex6", [right[0], free[2]], "free fall")
    M, g = mass_matrix(model, q), rnea(model, q, Z5, Z5)
    hint("ch9.ex6", [M[0, 1] * (-g[1] / M[1, 1]) + g[0], right[1]], "ignores the loop")
    hint("ch9.ex6", [-right[0], right[1]], "wrong sign")
    hint("ch9.ex6", right + 1e-3, "off by")
    hint("ch9.ex6", [1.0, 2.0, 3.0], r"shape \(2,\)")


def crank_of_balance():
    """The zero of the holding torque, the notebook's way: constrained_inverse on
    four_bar(crank_angle=a), the sign change of a fine sampling, refined linearly."""
    crank = np.linspace(*ex.CRANK_EX7, 161)
    tau = np.array([constrained_inverse(*four_bar(crank_angle=a), Z3, Z3,
                                        [True, False, False])[0][0] for a in crank])
    k = int(np.flatnonzero(np.diff(np.sign(tau)))[0])
    return crank[k] - tau[k] * (crank[k + 1] - crank[k]) / (tau[k + 1] - tau[k])


def test_ex7_holding_torque_is_liedyns_on_the_branch():
    for a in np.linspace(0.25, 1.7, 12):
        tau = constrained_inverse(*four_bar(crank_angle=a), Z3, Z3, [True, False, False])[0][0]
        assert abs(ex.holding_torque(a) - tau) < 1e-9


def test_ex7_right_answer_and_hints():
    right = crank_of_balance()
    assert check("ch9.ex7", right)
    assert check("ch9.ex7", round(right, 2))                 # read off to two decimals
    assert check("ch9.ex7", np.array([right]))
    hint("ch9.ex7", np.degrees(right), "degrees")
    hint("ch9.ex7", 0.65, "largest")
    hint("ch9.ex7", 2.5, "from 0.2 to 1.8 rad")
    hint("ch9.ex7", right + 0.1, "off by")
