"""Tests of liedyn.simulation: orders of convergence, conservation laws, the manifold, bad input.

* with no torque and no damping the energy error of each method shrinks with its order when the
  step is halved (explicit and symplectic Euler 1, RK4 4; RKMK4 4 also on SO(3)), on a
  pendulum and on a double pendulum;
* the symplectic Euler's energy error stays bounded over a long run, explicit Euler's grows;
* a tumbling free body keeps unit quaternions with every method (1e-12 over 10^4 steps, no
  renormalisation);
* the momentum of a free-floating system without gravity is conserved (to the method's order);
* the naive RK4 on a group is second order in the configuration, RKMK4 fourth (documented);
* control and external wrenches enter as in ``aba``; bad input raises clear errors.
"""
import numpy as np
import pytest

from liedyn import joints as J
from liedyn.crba import momentum
from liedyn.forward_dynamics import aba
from liedyn.inertia import spatial_inertia
from liedyn.lie import exp_quat
from liedyn.model import Model
from liedyn.robots import double_pendulum, pendulum
from liedyn.simulation import METHODS, Trajectory, simulate


def energy_error(model, q0, dq0, dt, duration, method):
    traj = simulate(model, q0, dq0, dt, duration=duration, method=method)
    return np.max(np.abs(traj.energy - traj.energy[0]))


def order(errors):
    errors = np.asarray(errors)
    return np.log2(errors[:-1] / errors[1:])


def free_body(gravity=0.0):
    model = Model(gravity=(0.0, 0.0, -gravity), name="free body")
    model.add_body("box", 0, J.Free(),
                   inertia=spatial_inertia(2.0, [0.1, 0.0, 0.05], np.diag([0.2, 0.3, 0.4])))
    return model


def floating_pendulum():
    """A free-floating box with a spherical-joint pendulum, no gravity."""
    model = free_body()
    model.add_body("rod", 1, J.Spherical(), placement=np.array(
        [[1.0, 0, 0, 0.3], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
        inertia=spatial_inertia(0.5, [0.0, 0.0, -0.6], np.diag([0.02, 0.02, 0.001])))
    return model


def spherical_pendulum():
    model = Model(gravity=(0.0, 0.0, -9.81), name="spherical pendulum")
    model.add_body("bob", 0, J.Spherical(),
                   inertia=spatial_inertia(1.0, [0.0, 0.0, -1.0], np.eye(3) * 0.01))
    return model


# ---------------------------------------------------------------------------------------------
# orders of convergence of the energy error
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method, expected, dts", [
    ("euler", 1, [0.01, 0.005, 0.0025]),
    ("semi_implicit", 1, [0.01, 0.005, 0.0025]),
    ("rk4", 4, [0.02, 0.01, 0.005]),
    ("rkmk4", 4, [0.02, 0.01, 0.005]),
])
def test_energy_error_order_on_a_pendulum(method, expected, dts):
    """Large swing (2.5 rad) for half a second: the asymptotic regime of all three methods."""
    errors = [energy_error(pendulum(), [2.5], [0.0], dt, 0.5, method) for dt in dts]
    assert np.all(np.abs(order(errors) - expected) <= 0.1 * expected), (errors, order(errors))


@pytest.mark.parametrize("method, expected, dts", [
    ("euler", 1, [0.01, 0.005, 0.0025]),
    ("semi_implicit", 1, [0.01, 0.005, 0.0025]),
    ("rk4", 4, [0.02, 0.01, 0.005]),
])
def test_energy_error_order_on_a_double_pendulum(method, expected, dts):
    """Two coupled links (tau = 0, no damping) from rest at (1, 0.5) rad for half a second.

    A chain of revolute joints has a vector space of configurations, so the classical RK4 is
    fourth order there (the loss of two orders is a matter of non-commutative groups only)."""
    errors = [energy_error(double_pendulum(), [1.0, 0.5], [0.0, 0.0], dt, 0.5, method)
              for dt in dts]
    assert np.all(np.abs(order(errors) - expected) <= 0.1 * expected), (errors, order(errors))


@pytest.fixture(scope="module")
def pendulum_reference():
    return simulate(pendulum(), [2.5], [0.0], 0.00125, duration=0.5, method="rk4").q[-1]


@pytest.mark.parametrize("method, expected, dts", [
    ("euler", 1, [0.01, 0.005]), ("semi_implicit", 1, [0.01, 0.005]),
    ("rk4", 4, [0.025, 0.0125])])
def test_state_error_order(method, expected, dts, pendulum_reference):
    errors = [np.max(np.abs(simulate(pendulum(), [2.5], [0.0], dt, duration=0.5,
                                     method=method).q[-1] - pendulum_reference)) for dt in dts]
    assert abs(order(errors)[0] - expected) <= 0.1 * expected, errors


def test_symplectic_euler_energy_error_stays_bounded():
    model = pendulum()                                    # period about 2.1 s: 10 periods
    explicit = simulate(model, [1.0], [0.0], 0.05, steps=400, method="euler")
    symplectic = simulate(model, [1.0], [0.0], 0.05, steps=400, method="semi_implicit")
    drift = lambda tr, sl: np.max(np.abs(tr.energy[sl] - tr.energy[0]))   # noqa: E731
    first, last = slice(0, 100), slice(300, 401)
    assert drift(symplectic, last) <= 1.01 * drift(symplectic, first)     # no growth
    assert drift(symplectic, last) < 0.5                                  # O(dt), bounded
    assert drift(explicit, last) > 3 * drift(explicit, first)             # explicit Euler grows


def test_rk4_on_a_group_is_second_order_and_rkmk4_fourth():
    """A spherical pendulum under gravity: the naive RK4 loses two orders on SO(3)."""
    model = spherical_pendulum()
    q0, dq0 = exp_quat(np.array([1.0, 0.3, 0.0])), np.array([0.0, 0.0, 2.0])
    ref = simulate(model, q0, dq0, 0.005, duration=0.4, method="rkmk4")
    for method, expected, dts in [("rk4", 2, [0.02, 0.01]), ("rkmk4", 4, [0.04, 0.02])]:
        errors = [np.linalg.norm(model.difference(
            ref.q[-1], simulate(model, q0, dq0, dt, duration=0.4, method=method).q[-1]))
            for dt in dts]
        assert abs(order(errors)[0] - expected) <= 0.1 * expected, (method, errors)


# ---------------------------------------------------------------------------------------------
# the manifold and conservation laws
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("method, steps", [
    ("semi_implicit", 10_000), ("euler", 2_000), ("rk4", 1_000), ("rkmk4", 1_000)])
def test_quaternions_stay_unit_over_many_steps(method, steps):
    """Two tumbling bodies (one batch): the quaternions are only ever multiplied by unit
    quaternions (model.integrate, once per step whatever the method), never renormalised, so
    ``| |quat| - 1 |`` grows only by rounding, at most 1e-12 per 10^4 steps (measured, for
    every method: 3.6e-13 after 10^4 steps, 7e-14 after 2 10^3, 4e-14 after 10^3).

    Symplectic Euler runs the full 10^4 steps. The other methods check the same per-step
    bound on shorter runs, to keep the file fast (a step costs about 1 ms, four times that
    for RK4 and RKMK4, which evaluate the ABA four times): every method changes ``q`` by
    exactly one ``model.integrate`` a step (RK4's stage configurations are never stored), so
    the rounding per step is the same mechanism; explicit Euler shares its update with
    symplectic Euler and runs 2 10^3 steps, RK4 and RKMK4 10^3."""
    model = free_body()
    q0 = model.neutral_configuration()
    dq0 = np.array([[0.2, 3.0, 0.3, 1.0, 0.0, 0.5], [5.0, -1.0, 2.0, 0.0, 1.0, 0.0]])
    traj = simulate(model, q0, dq0, 0.002, steps=steps, method=method)
    assert traj.q.shape == (steps + 1, 2, 7)
    assert np.max(np.abs(np.linalg.norm(traj.q[..., 3:], axis=-1) - 1)) <= 1e-12 * steps / 10_000
    # the body really tumbles: its orientation visits far-apart quaternions
    assert np.min(traj.q[:, 0, 3]) < 0.0 < np.max(traj.q[:, 0, 3])


@pytest.mark.parametrize("method", METHODS)
def test_quaternions_stay_unit_with_every_method(method):
    model = floating_pendulum()
    q0 = np.concatenate([model.joints[1].neutral(), exp_quat(np.array([0.4, 0.0, 0.2]))])
    dq0 = np.array([0.5, 2.0, -1.0, 0.3, 0.0, 0.1, 3.0, 0.0, -2.0])
    traj = simulate(model, q0, dq0, 0.01, steps=50, method=method)
    for sl in (slice(3, 7), slice(7, 11)):
        assert np.max(np.abs(np.linalg.norm(traj.q[:, sl], axis=-1) - 1)) <= 1e-12


def test_momentum_of_a_floating_system_is_conserved():
    model = floating_pendulum()
    q0 = np.concatenate([model.joints[1].neutral(), exp_quat(np.array([0.4, 0.0, 0.2]))])
    dq0 = np.array([0.5, 2.0, -1.0, 0.3, 0.0, 0.1, 3.0, 0.0, -2.0])
    drifts = {}
    for dt in (0.02, 0.01):
        traj = simulate(model, q0, dq0, dt, duration=0.4, method="rkmk4")
        L = momentum(model, traj.q, traj.dq)
        drifts[dt] = np.max(np.abs(L - L[0]))
    assert drifts[0.01] < 1e-5
    assert abs(np.log2(drifts[0.02] / drifts[0.01]) - 4) <= 0.4
    assert np.max(np.abs(L[0])) > 0.5                     # a real, non-zero momentum


def test_centre_of_mass_of_a_floating_system_moves_uniformly():
    """Linear momentum = total mass x velocity of the centre of mass, so the COM moves on a
    straight line at constant speed: an independent check of the same law."""
    from liedyn.kinematics import forward_kinematics
    model = floating_pendulum()
    q0 = np.concatenate([model.joints[1].neutral(), exp_quat(np.array([0.4, 0.0, 0.2]))])
    dq0 = np.array([0.5, 2.0, -1.0, 0.3, 0.0, 0.1, 3.0, 0.0, -2.0])
    traj = simulate(model, q0, dq0, 0.01, steps=30, method="rkmk4")
    Tw = forward_kinematics(model, traj.q).T_world
    com = 0.0
    for i, c in ((1, [0.1, 0.0, 0.05]), (2, [0.0, 0.0, -0.6])):
        m = model.inertias[i][3, 3]
        com = com + m * (np.einsum("tij,j->ti", Tw[:, i, :3, :3], c) + Tw[:, i, :3, 3])
    com /= 2.5
    line = com[0] + np.outer(traj.t / traj.t[-1], com[-1] - com[0])
    assert np.max(np.abs(com - line)) < 1e-6


def test_trajectory_record():
    traj = simulate(pendulum(), [0.3], [0.0], 0.1, steps=3)
    assert isinstance(traj, Trajectory)
    np.testing.assert_allclose(traj.t, [0.0, 0.1, 0.2, 0.3])
    with pytest.raises(AttributeError):
        traj.q = None
    with pytest.raises(ValueError):
        traj.q[0, 0] = 1.0                       # read-only arrays
    assert simulate(pendulum(), [0.3], [0.0], 0.1, duration=0.3).q.shape == (4, 1)


def test_batch_of_initial_states_equals_separate_runs():
    model = double_pendulum()
    q0 = np.array([[0.5, 0.1], [1.0, -0.3], [2.0, 2.0]])
    batch = simulate(model, q0, np.zeros(2), 0.01, steps=20)
    assert batch.q.shape == (21, 3, 2) and batch.energy.shape == (21, 3)
    for k in range(3):
        one = simulate(model, q0[k], np.zeros(2), 0.01, steps=20)
        np.testing.assert_allclose(batch.q[:, k], one.q, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batch.energy[:, k], one.energy, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# control and external wrenches
# ---------------------------------------------------------------------------------------------
def test_euler_step_uses_aba_with_control_and_wrench():
    model = double_pendulum()
    q0, dq0, tau = np.array([0.3, 0.2]), np.array([0.1, -0.4]), np.array([0.5, -0.2])
    f = np.arange(12.0).reshape(2, 6) / 10
    traj = simulate(model, q0, dq0, 0.01, steps=1, control=tau[None], f_ext=f, method="euler")
    np.testing.assert_allclose(traj.dq[1], dq0 + 0.01 * aba(model, q0, dq0, tau, f), atol=1e-15)
    np.testing.assert_allclose(traj.q[1], q0 + 0.01 * dq0, atol=1e-15)
    same = simulate(model, q0, dq0, 0.01, steps=1, control=lambda t, q, dq: tau,
                    f_ext=lambda t, q, dq: f, method="euler")
    np.testing.assert_allclose(same.dq, traj.dq, atol=1e-15)


def test_semi_implicit_moves_q_with_the_new_velocity():
    model = pendulum()
    traj = simulate(model, [0.5], [0.0], 0.1, steps=1, method="semi_implicit")
    np.testing.assert_allclose(traj.q[1], 0.5 + 0.1 * traj.dq[1], atol=1e-15)
    assert traj.dq[1, 0] < 0


def test_control_does_work_equal_to_energy_change():
    """dE/dt = dq . tau: a constant torque on a pendulum (RK4, small step)."""
    model = pendulum()
    traj = simulate(model, [0.0], [0.0], 0.01, steps=100, control=np.full((100, 1), 2.0))
    work = 2.0 * (traj.q[-1, 0] - traj.q[0, 0])
    assert traj.energy[-1] - traj.energy[0] == pytest.approx(work, rel=1e-8)


def test_control_receives_time_and_state():
    seen = []

    def control(t, q, dq):
        seen.append(t)
        return -2.0 * dq                                  # damping
    traj = simulate(pendulum(), [1.0], [0.0], 0.05, steps=40, control=control)
    assert seen[:4] == pytest.approx([0.0, 0.025, 0.025, 0.05])
    assert traj.energy[-1] < traj.energy[0] - 1.0


# ---------------------------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dt", [0.0, -0.1, np.nan, np.inf])
def test_bad_time_step(dt):
    with pytest.raises(ValueError, match="dt"):
        simulate(pendulum(), [0.1], [0.0], dt, steps=10)


def test_bad_time_step_type():
    with pytest.raises(TypeError, match="dt"):
        simulate(pendulum(), [0.1], [0.0], "0.1", steps=10)


@pytest.mark.parametrize("kw, err, text", [
    ({}, ValueError, "exactly one"),
    ({"steps": 10, "duration": 1.0}, ValueError, "exactly one"),
    ({"steps": 0}, ValueError, "steps"),
    ({"steps": -3}, ValueError, "steps"),
    ({"steps": 2.5}, TypeError, "steps"),
    ({"duration": 0.0}, ValueError, "duration"),
    ({"duration": np.nan}, ValueError, "duration"),
    ({"duration": 0.001}, ValueError, "shorter"),
])
def test_bad_steps_or_duration(kw, err, text):
    with pytest.raises(err, match=text):
        simulate(pendulum(), [0.1], [0.0], 0.01, **kw)


def test_unknown_method():
    with pytest.raises(ValueError, match="method.*verlet"):
        simulate(pendulum(), [0.1], [0.0], 0.01, steps=2, method="verlet")


@pytest.mark.parametrize("control, err, text", [
    ("torque", TypeError, "control"),
    (3.0, TypeError, "control"),
    (np.zeros((5, 1)), ValueError, r"\(steps, nv\)"),
    (np.zeros((10, 2)), ValueError, r"\(steps, nv\)"),
    (np.zeros(10), ValueError, r"\(steps, nv\)"),
    (np.full((10, 1), np.nan), ValueError, "NaN"),
    (lambda t, q, dq: np.zeros(3), ValueError, "step 0"),
    (lambda t, q, dq: np.nan * q, FloatingPointError, "torque returned by control.*step 0"),
])
def test_bad_control(control, err, text):
    with pytest.raises(err, match=text):
        simulate(pendulum(), [0.1], [0.0], 0.01, steps=10, control=control)


@pytest.mark.parametrize("f_ext, text", [
    (np.zeros((2, 6)), "f_ext"),
    (np.zeros(6), "f_ext"),
    (lambda t, q, dq: np.zeros(6), "f_ext"),
])
def test_bad_external_wrench(f_ext, text):
    with pytest.raises(ValueError, match=text):
        simulate(pendulum(), [0.1], [0.0], 0.01, steps=10, f_ext=f_ext)


@pytest.mark.parametrize("q0, dq0, text", [
    ([0.1, 0.2], [0.0], "q0"),
    ([np.nan], [0.0], "q0"),
    ([0.1], [0.0, 1.0], "dq0"),
    ([0.1], [np.inf], "dq0"),
])
def test_bad_initial_state(q0, dq0, text):
    with pytest.raises(ValueError, match=text):
        simulate(pendulum(), q0, dq0, 0.01, steps=10)


def test_non_unit_quaternion_is_rejected():
    model = free_body()
    with pytest.raises(ValueError, match="quaternion"):
        simulate(model, [0, 0, 0, 2.0, 0, 0, 0], np.zeros(6), 0.01, steps=2)


@pytest.mark.parametrize("method", METHODS)
def test_blow_up_reports_the_step(method):
    """A free body spinning fast with a huge step: Euler's equations w' ~ w^2 explode."""
    model = free_body()
    with pytest.raises(FloatingPointError, match=r"step \d+ \(t = .*dt = 0.5"):
        simulate(model, model.neutral_configuration(), [30.0, 20.0, 10.0, 0, 0, 0], 0.5,
                 steps=500, method=method)


def test_blow_up_step_number_is_right():
    """Explicit Euler on v' = v^2 from v0 = 1e100 with h = 1: v1 = 1e200 is still finite; the
    torque v1^2 of step 1 overflows."""
    model = Model(gravity=(0.0, 0.0, 0.0))
    model.add_body("slider", 0, J.Prismatic([1.0, 0.0, 0.0]),
                   inertia=spatial_inertia(1.0, np.zeros(3), np.zeros((3, 3))))
    with np.errstate(over="ignore"):
        with pytest.raises(FloatingPointError, match=r"torque .* step 1 \(t = 1 s to 2 s\)"):
            simulate(model, [0.0], [1e100], 1.0, steps=5, method="euler",
                     control=lambda t, q, dq: dq ** 2)
