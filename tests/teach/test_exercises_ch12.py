"""The chapter 12 exercise checkers accept the right answers and explain typical wrong ones.

Right answers are computed here with liedyn (the notebook's way: liedyn.control, rnea, the
Coriolis matrix, simulations); the checkers compute theirs in closed form with plain numpy, so
the two sides are independent.
"""
import numpy as np

from liedyn import control
from liedyn.crba import coriolis_matrix, gravity_torque, mass_matrix
from liedyn.kinematics import forward_kinematics, frame_jacobian
from liedyn.teach.exercises import ch12 as ex
from liedyn.teach.exercises import check

from common import hint, mdot, pendulum_of


def tip_jacobian(m, q):
    """(x, y) Jacobian of the second bob in the ground frame, from liedyn's body Jacobian."""
    T = forward_kinematics(m, q).T_world[2]
    r = np.array([0.0, -ex.PENDULUM["lengths"][1], 0.0])          # bob in body frame 2
    offset = np.eye(4)
    offset[:3, 3] = r
    J = frame_jacobian(m, q, 2, offset)                            # twist of the bob frame
    return (T[:3, :3] @ J[3:])[:2]


def rest_without_compensation(m, h=1e-6):
    """Newton on Kp (q - q_set) + g(q) = 0 with liedyn's gravity torque, central differences."""
    q = ex.Q_SET.copy()
    for _ in range(30):
        r = ex.KP * (q - ex.Q_SET) + gravity_torque(m, q)
        dN = np.stack([(gravity_torque(m, q + h * d) - gravity_torque(m, q - h * d)) / (2 * h)
                       for d in np.eye(2)], axis=-1)
        q = q - np.linalg.solve(np.diag(ex.KP) + dN, r)
    return q


def test_ex2_rest_is_where_the_simulation_stops():
    m = pendulum_of(ex)
    hold = lambda t, q, dq: control.pd_gravity(m, q, dq, ex.Q_SET, ex.KP, ex.KD) \
        - gravity_torque(m, q)                                                 # noqa: E731
    run = control.simulate_closed_loop(m, hold, ex.Q_SET, np.zeros(2), 0.02, duration=4.0)
    err = np.abs(run.q - rest_without_compensation(m)).max(axis=-1)
    assert err[-1] < 0.05 * err[0]                       # converging (slowly) to the rest


def test_right_answers_pass():
    m, r = pendulum_of(ex), ex.REFERENCE
    assert check("ch12.ex1", control.computed_torque(m, ex.Q, ex.DQ, r["q_d"], r["dq_d"],
                                                     r["ddq_d"], ex.KP, ex.KD))
    assert check("ch12.ex2", rest_without_compensation(m))
    C = coriolis_matrix(m, ex.Q, ex.DQ)
    assert check("ch12.ex3", mdot(m, ex.Q, ex.DQ) - 2 * C)
    assert check("ch12.ex4", control.passivity_based(m, ex.Q, ex.DQ, r["q_d"], r["dq_d"],
                                                     r["ddq_d"], ex.LAM, ex.KD))
    J = tip_jacobian(m, ex.Q)
    assert check("ch12.ex5", control.operational_space_inertia(m, ex.Q, J))
    # exercise 6 by simulation: the closed-loop error of computed torque on the pendulum
    e = ex.ERROR0
    w = e["omega"]
    q0, dq0 = ex.Q + e["e0"], e["de0"]
    law = lambda t, q, dq: control.computed_torque(m, q, dq, ex.Q, 0 * dq, 0 * dq,  # noqa
                                                   w ** 2, 2 * w)
    run = control.simulate_closed_loop(m, law, q0, dq0, 0.005, duration=ex.T_EX6)
    assert check("ch12.ex6", run.q[-1] - ex.Q)


def test_ex1_hints():
    m, r = pendulum_of(ex), ex.REFERENCE
    e, de = ex.Q - r["q_d"], ex.DQ - r["dq_d"]
    M, g = mass_matrix(m, ex.Q), gravity_torque(m, ex.Q)
    C = coriolis_matrix(m, ex.Q, ex.DQ)
    u = r["ddq_d"] - ex.KD * de - ex.KP * e
    hint("ch12.ex1", M @ (r["ddq_d"] + ex.KD * de + ex.KP * e) + C @ ex.DQ + g, "sign")
    hint("ch12.ex1", M @ u + g, "bias is missing")
    hint("ch12.ex1", M @ u + C @ ex.DQ, "bias is missing")
    hint("ch12.ex1", M @ u, "does not cancel")
    hint("ch12.ex1", M @ u + C @ ex.DQ + g + 0.01, "off by")


def test_ex2_hints():
    hint("ch12.ex2", ex.Q_SET, "gravity compensation")
    hint("ch12.ex2", [0.0, 0.0], "off by")


def test_ex3_hints():
    m = pendulum_of(ex)
    dM = mdot(m, ex.Q, ex.DQ)
    hint("ch12.ex3", dM, "dM/dt alone")
    hint("ch12.ex3", [[0.0, 1.0], [1.0, 0.0]], "skew")
    hint("ch12.ex3", [[0.0, 1.0], [-1.0, 0.0]], "off by")


def test_ex3_closed_form_is_the_christoffel_C():
    """The checker's closed-form C is liedyn's Christoffel-consistent C, at several states."""
    m = pendulum_of(ex)
    rng = np.random.default_rng(12)
    for q, dq in rng.normal(size=(5, 2, 2)):
        M, C, N, dM = ex._terms(q, dq)
        assert np.allclose(C, coriolis_matrix(m, q, dq), atol=1e-12)
        assert np.allclose(M, mass_matrix(m, q), atol=1e-12)
        assert np.allclose(N, gravity_torque(m, q), atol=1e-12)
        assert np.allclose(dM, mdot(m, q, dq), atol=1e-8)
        assert np.allclose(ex._tip_jacobian(q), tip_jacobian(m, q), atol=1e-12)


def test_ex4_hints():
    m, r = pendulum_of(ex), ex.REFERENCE
    M, g = mass_matrix(m, ex.Q), gravity_torque(m, ex.Q)
    C = coriolis_matrix(m, ex.Q, ex.DQ)
    e, de = ex.Q - r["q_d"], ex.DQ - r["dq_d"]
    dq_r, ddq_r = r["dq_d"] - ex.LAM * e, r["ddq_d"] - ex.LAM * de
    s = ex.DQ - dq_r
    hint("ch12.ex4", M @ ddq_r + C @ ex.DQ + g - ex.KD * s, "reference velocity")
    hint("ch12.ex4", M @ ddq_r + C @ dq_r + g + ex.KD * s, "sign")
    hint("ch12.ex4", [0.0, 0.0], "off by")


def test_ex5_hints():
    m = pendulum_of(ex)
    J, M = tip_jacobian(m, ex.Q), mass_matrix(m, ex.Q)
    hint("ch12.ex5", J @ np.linalg.solve(M, J.T), "inverse of Lambda")
    hint("ch12.ex5", J @ M @ J.T, "not M")
    hint("ch12.ex5", np.eye(2), "off by")


def test_ex6_hints():
    e = ex.ERROR0
    hint("ch12.ex6", e["e0"] * np.exp(-e["omega"] * ex.T_EX6), "double root")
    hint("ch12.ex6", e["e0"], "off by")


# exercise 8 (plot PD's rest offset against the gain, read off the slope): the slope of
# liedyn's curve, found by simulating to rest rather than by Newton's method
def test_ex8_the_slope_read_off_liedyns_curve_passes():
    model = pendulum_of(ex)
    gains = np.geomspace(*ex.GAINS_EX8, 3)
    offsets = []
    for k in gains:
        law = lambda t, q, dq, k=k: -k * (q - ex.Q_SET) - 3.5 * np.sqrt(k) * dq
        run = control.simulate_closed_loop(model, law, ex.Q_SET, np.zeros(2),
                                           0.05 / np.sqrt(k), duration=60 / np.sqrt(k))
        offset = np.abs(run.q[-1] - ex.Q_SET).max()
        assert np.abs(run.dq[-1]).max() < 1e-4 * offset * np.sqrt(k)   # at rest
        offsets.append(offset)
    slope = np.polyfit(np.log(gains), np.log(offsets), 1)[0]
    assert check("ch12.ex8", slope)
    assert check("ch12.ex8", slope + 0.03)                      # read off a plot


def test_ex8_hints():
    hint("ch12.ex8", 1.0, "negative")
    hint("ch12.ex8", -2.0, "not 1/k\\^2")
    hint("ch12.ex8", -0.5, "sqrt")
    hint("ch12.ex8", 0.0, "does change")
    hint("ch12.ex8", -1.3, "off by")
