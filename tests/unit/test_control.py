"""Tests of liedyn.control: the control laws, their Lyapunov claims, operational space.

Each law is checked against a second computation in liedyn (M, C, g assembled separately),
each Lyapunov derivative against a finite difference along the closed-loop flow, the
operational-space inertia and the point task against Pinocchio (``computeMinverse`` and frame
Jacobians; Pinocchio orders twists (v, w)), and the closed loops against the behaviour the
stability arguments promise (the closed-form error of computed torque, monotone Lyapunov
functions, convergence).
"""
import numpy as np
import pinocchio as pin
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn import control
from liedyn.crba import coriolis_matrix, gravity_torque, mass_matrix
from liedyn.forward_dynamics import aba, inverse_mass_matrix
from liedyn.kinematics import frame_jacobian
from liedyn.robots import double_pendulum, pendulum, planar_arm, random_tree
from liedyn.urdf import link_placement, load_robot, robot_path

from common import relative_error

P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
FINGERS = ["panda_finger_joint1", "panda_finger_joint2"]
TCP = "panda_hand_tcp"


@pytest.fixture(scope="module")
def panda():
    return load_robot("panda", locked_joints=FINGERS)


@pytest.fixture(scope="module")
def pin_panda():
    full = pin.buildModelFromUrdf(robot_path("panda"))
    pm = pin.buildReducedModel(full, [full.getJointId(n) for n in FINGERS], pin.neutral(full))
    return pm, pm.createData()


def revolute_tree(seed, n=4):
    rng = np.random.default_rng(seed)
    return random_tree(n, rng, joint_types=("revolute",)), rng


# --- gains and input errors -------------------------------------------------------------------

def test_gain_forms():
    # exact: gain scales the identity or places the entries, as the expected values do
    assert np.array_equal(control.gain("Kp", 2.0, 3), 2 * np.eye(3))
    assert np.array_equal(control.gain("Kp", [1.0, 2.0, 3.0], 3), np.diag([1.0, 2.0, 3.0]))
    K = np.array([[2.0, 0.5], [0.5, 1.0]])
    assert np.array_equal(control.gain("Kp", K, 2), K)


@pytest.mark.parametrize("K, message", [
    ([1.0, 2.0], r"argument 'Kd': expected a scalar gain or shape \(3,\) or \(3, 3\), got "
                 r"shape \(2,\)"),
    (np.array([[1.0, 0.2, 0], [0, 1, 0], [0, 0, 1]]), "argument 'Kd': expected a symmetric"),
    ([1.0, -2.0, 3.0], "argument 'Kd': expected a positive definite gain, got smallest "
                       "eigenvalue -2"),
    (0.0, "positive definite"),
    ([1.0, np.nan, 1.0], "argument 'Kd': contains NaN"),
])
def test_gain_errors_name_the_argument(K, message):
    with pytest.raises(ValueError, match=message):
        control.gain("Kd", K, 3)
    with pytest.raises(TypeError, match="argument 'Kd'"):
        control.gain("Kd", "stiff", 3)


def test_bad_inputs():
    model = double_pendulum()
    q, z = np.array([0.3, 0.4]), np.zeros(2)
    with pytest.raises(ValueError, match="argument 'Kp'"):
        control.computed_torque(model, q, z, q, z, z, Kp=-1.0, Kd=1.0)
    with pytest.raises(ValueError, match="argument 'ddq_d'"):
        control.computed_torque(model, q, z, q, z, np.zeros(3), Kp=1.0, Kd=1.0)
    with pytest.raises(ValueError, match=r"argument 'q': expected shape \(\.\.\., 2\)"):
        control.pd_gravity(model, [0.1], z, q, 1.0, 1.0)
    with pytest.raises(ValueError, match="argument 'q_d'"):
        control.computed_torque(model, q, z, [0.1], z, z, 1.0, 1.0)
    with pytest.raises(ValueError, match="Lam Kd symmetric"):
        control.passivity_lyapunov(model, q, z, q, z, Lam=[[2.0, 1.0], [1.0, 2.0]], Kd=[1, 3])
    with pytest.raises(ValueError, match=r"argument 'J': expected a task Jacobian of shape "
                                         r"\(\.\.\., k, nv\) with nv = 2, got \(2,\)"):
        control.operational_space_inertia(model, q, [1.0, 0.0])
    with pytest.raises(ValueError, match=r"argument 'J': expected .* got \(1, 3\)"):
        control.operational_space_inertia(model, q, [[1.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="argument 'J': J M\\^-1 J\\^T is singular"):
        control.operational_space_inertia(model, q, [[1.0, 1.0], [2.0, 2.0]])
    with pytest.raises(ValueError, match="argument 'J': J M\\^-1 J\\^T is singular"):
        control.operational_space_inertia(model, q, np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"argument 'dJdq': expected shape \(\.\.\., 1\)"):
        control.operational_space_control(model, q, z, [[1.0, 0.0]], [0.0, 0.0], [1.0])
    with pytest.raises(ValueError, match=r"argument 'a': expected shape \(\.\.\., 1\)"):
        control.operational_space_control(model, q, z, [[1.0, 0.0]], [0.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="argument 'tau_null'"):
        control.operational_space_control(model, q, z, [[1.0, 0.0]], [0.0], [1.0], [1.0])
    with pytest.raises(ValueError, match="argument 'point'"):
        control.point_task(model, q, z, 2, [1.0, 0.0])
    with pytest.raises(TypeError, match="argument 'controller'"):
        control.simulate_closed_loop(model, "pd", q, z, dt=0.01, steps=2)
    with pytest.raises(ValueError, match="steps"):
        control.simulate_closed_loop(model, lambda t, q, dq: z, q, z, dt=0.01)


# --- the laws against a second computation -----------------------------------------------------

@settings(max_examples=15)
@given(seed=st.integers(0, 2**32 - 1))
def test_laws_match_their_formulas(seed):
    """Each law equals its formula with M, C and g assembled by other liedyn functions."""
    model, rng = revolute_tree(seed)
    n = model.nv
    q, dq, q_d, dq_d, ddq_d = rng.normal(size=(5, n))
    Kp, Kd, Lam = (np.diag(rng.uniform(0.5, 5.0, n)) for _ in range(3))
    M, C, g = mass_matrix(model, q), coriolis_matrix(model, q, dq), gravity_torque(model, q)
    e, de = q - q_d, dq - dq_d
    tau = control.computed_torque(model, q, dq, q_d, dq_d, ddq_d, Kp, Kd)
    assert relative_error(tau, M @ (ddq_d - Kd @ de - Kp @ e) + C @ dq + g) < 1e-10
    tau = control.pd_gravity(model, q, dq, q_d, Kp, Kd)
    assert relative_error(tau, -Kp @ e - Kd @ dq + g) < 1e-12
    dq_r, ddq_r = dq_d - Lam @ e, ddq_d - Lam @ de
    tau = control.passivity_based(model, q, dq, q_d, dq_d, ddq_d, Lam, Kd)
    assert relative_error(tau, M @ ddq_r + C @ dq_r + g - Kd @ (dq - dq_r)) < 1e-10


def test_laws_are_batched():
    model, rng = revolute_tree(3)
    q, dq, q_d = rng.normal(size=(3, 5, model.nv))
    z = np.zeros(model.nv)
    for law in (lambda q, dq: control.computed_torque(model, q, dq, q_d[0], z, z, 4.0, 2.0),
                lambda q, dq: control.pd_gravity(model, q, dq, q_d[0], 4.0, 2.0),
                lambda q, dq: control.passivity_based(model, q, dq, q_d[0], z, z, 2.0, 3.0)):
        batch = law(q, dq)
        assert batch.shape == (5, model.nv)
        assert relative_error(batch[3], law(q[3], dq[3])) < 1e-12


def test_computed_torque_gives_the_commanded_acceleration():
    """With the exact model, ddq = ddq_d - Kd de - Kp e (the error equation is linear)."""
    model, rng = revolute_tree(7, n=5)
    q, dq, q_d, dq_d, ddq_d = rng.normal(size=(5, model.nv))
    tau = control.computed_torque(model, q, dq, q_d, dq_d, ddq_d, 9.0, 6.0)
    ddq = aba(model, q, dq, tau)
    assert relative_error(ddq, ddq_d - 6.0 * (dq - dq_d) - 9.0 * (q - q_d)) < 1e-9


# --- Lyapunov derivatives by finite differences along the closed-loop flow ---------------------

def _flow_derivative(V, t, q, dq, ddq, h=1e-6):
    """d/dt V(t, q(t), dq(t)) by a central difference along (dq, ddq) (vector-space q)."""
    return (V(t + h, q + h * dq, dq + h * ddq) - V(t - h, q - h * dq, dq - h * ddq)) / (2 * h)


def _reference(t, n):
    k = np.arange(1, n + 1)
    return 0.5 * np.sin(k * t), 0.5 * k * np.cos(k * t), -0.5 * k ** 2 * np.sin(k * t)


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1))
def test_lyapunov_derivatives(seed):
    """dV/dt along each closed loop equals the formula of its stability argument."""
    model, rng = revolute_tree(seed)
    n = model.nv
    q, dq = rng.normal(size=(2, n))
    t = rng.uniform(0, 3)
    Kp, Kd, Lam = (np.diag(rng.uniform(0.5, 5.0, n)) for _ in range(3))
    ref = lambda t: _reference(t, n)                                     # noqa: E731

    # computed torque: dV/dt = -de^T Kd de
    tau = control.computed_torque(model, q, dq, *ref(t), Kp, Kd)
    V = lambda t, q, dq: control.computed_torque_lyapunov(model, q, dq, *ref(t)[:2], Kp)  # noqa
    de = dq - ref(t)[1]
    assert np.isclose(_flow_derivative(V, t, q, dq, aba(model, q, dq, tau)), -de @ Kd @ de,
                      rtol=1e-6, atol=1e-6)

    # PD + gravity (constant set point): dV/dt = -dq^T Kd dq, by the skew symmetry
    q_d = ref(0.3)[0]
    tau = control.pd_gravity(model, q, dq, q_d, Kp, Kd)
    V = lambda t, q, dq: control.pd_gravity_lyapunov(model, q, dq, q_d, Kp)   # noqa: E731
    assert np.isclose(_flow_derivative(V, t, q, dq, aba(model, q, dq, tau)), -dq @ Kd @ dq,
                      rtol=1e-6, atol=1e-6)

    # Slotine-Li: dV/dt = -de^T Kd de - e^T Lam Kd Lam e
    tau = control.passivity_based(model, q, dq, *ref(t), Lam, Kd)
    V = lambda t, q, dq: control.passivity_lyapunov(model, q, dq, *ref(t)[:2], Lam, Kd)  # noqa
    e = q - ref(t)[0]
    expected = -de @ Kd @ de - e @ Lam @ Kd @ Lam @ e
    assert np.isclose(_flow_derivative(V, t, q, dq, aba(model, q, dq, tau)), expected,
                      rtol=1e-6, atol=1e-6)


def test_passivity_needs_the_christoffel_consistent_C():
    """Another factorization C' dq = C dq breaks dV/dt of Slotine and Li's argument."""
    model, rng = revolute_tree(11, n=3)
    n = model.nv
    q, dq = rng.normal(size=(2, n))
    t0 = 0.4
    q_d, dq_d, ddq_d = _reference(t0, n)
    Lam, Kd = np.eye(n) * 2.0, np.eye(n) * 3.0
    w = rng.normal(size=n)
    w -= (w @ dq) / (dq @ dq) * dq                     # w perpendicular to dq
    N = np.outer(rng.normal(size=n), w)                # N dq = 0, N not skew
    e, de = q - q_d, dq - dq_d
    dq_r = dq_d - Lam @ e
    tau_good = control.passivity_based(model, q, dq, q_d, dq_d, ddq_d, Lam, Kd)
    tau_bad = tau_good + N @ dq_r                      # the same law with C' = C + N
    V = lambda t, q, dq: control.passivity_lyapunov(model, q, dq, *_reference(t, n)[:2],  # noqa
                                                    Lam, Kd)
    expected = -de @ Kd @ de - e @ Lam @ Kd @ Lam @ e
    good = _flow_derivative(V, t0, q, dq, aba(model, q, dq, tau_good))
    bad = _flow_derivative(V, t0, q, dq, aba(model, q, dq, tau_bad))
    assert np.isclose(good, expected, rtol=1e-6)
    assert not np.isclose(bad, expected, rtol=1e-2)


# --- closed loops -----------------------------------------------------------------------------

def test_computed_torque_error_is_the_closed_form_solution():
    """Critically damped: e(t) = (e0 + (de0 + w e0) t) exp(-w t), per joint."""
    model = double_pendulum()
    wn = 4.0
    ref = lambda t: _reference(np.asarray(t)[..., None], 2)             # noqa: E731
    law = lambda t, q, dq: control.computed_torque(model, q, dq, *ref(t), wn ** 2, 2 * wn)  # noqa
    q0, dq0 = np.array([0.3, -0.2]), np.array([0.5, 1.5])
    run = control.simulate_closed_loop(model, law, q0, dq0, dt=0.01, duration=1.0)
    e0, de0 = q0 - ref(0.0)[0], dq0 - ref(0.0)[1]
    t = run.t[:, None]
    exact = (e0 + (de0 + wn * e0) * t) * np.exp(-wn * t)
    assert np.max(np.abs(run.q - ref(run.t)[0] - exact)) < 1e-7
    assert run.tau.shape == (101, 2)
    assert relative_error(run.tau[100], law(run.t[100], run.q[100], run.dq[100])) < 1e-12


def test_pd_gravity_regulates_and_V_decreases(panda):
    q_d = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
    D = np.diag(mass_matrix(panda, q_d))
    Kp, Kd = 100 * D, 20 * D
    law = lambda t, q, dq: control.pd_gravity(panda, q, dq, q_d, Kp, Kd)     # noqa: E731
    run = control.simulate_closed_loop(panda, law, q_d + 0.2, np.zeros(7), dt=0.02,
                                       duration=1.5)
    V = control.pd_gravity_lyapunov(panda, run.q, run.dq, q_d, Kp)
    assert np.all(np.diff(V) <= 1e-9 * V[0])
    assert V[-1] < 1e-3 * V[0]
    assert np.max(np.abs(run.q[-1] - q_d)) < 1e-2


def test_pd_without_gravity_compensation_misses_the_set_point():
    """The same PD without N(q) stops where Kp e = N(q), not at q_d: the term is needed."""
    model = pendulum(gravity=10.0)
    compensate = np.array([[1.0], [0.0]])       # state 0 with N(q), state 1 without

    def law(t, q, dq):
        return (control.pd_gravity(model, q, dq, [1.0], 20.0, 8.0)
                - (1 - compensate) * gravity_torque(model, q))

    run = control.simulate_closed_loop(model, law, [[0.0], [0.0]], [0.0], 0.02, duration=3.0)
    q_with, q_without = run.q[-1, :, 0]
    assert abs(q_with - 1.0) < 1e-4
    assert abs(q_without - 1.0) > 0.1
    rest = 1.0                                  # Newton on Kp (q - q_d) + m g l sin q = 0
    for _ in range(20):
        rest -= (20.0 * (rest - 1.0) + 10.0 * np.sin(rest)) / (20.0 + 10.0 * np.cos(rest))
    assert abs(q_without - rest) < 1e-4


def test_passivity_based_tracks_with_decreasing_V():
    model = planar_arm(3)
    ref = lambda t: _reference(np.asarray(t)[..., None], 3)             # noqa: E731
    q0 = np.array([0.4, -0.3, 0.2])
    Lam, Kd = 5.0, 10 * mass_matrix(model, q0)          # s decays at a rate of about 10 / s
    law = lambda t, q, dq: control.passivity_based(model, q, dq, *ref(t), Lam, Kd)  # noqa
    run = control.simulate_closed_loop(model, law, q0, np.zeros(3), dt=0.02, duration=1.5)
    q_d, dq_d, _ = ref(run.t)
    V = control.passivity_lyapunov(model, run.q, run.dq, q_d, dq_d, Lam, Kd)
    assert np.all(np.diff(V) < 0)
    assert np.max(np.abs(run.q[-1] - q_d[-1])) < 1e-2 * np.max(np.abs(run.q[0] - q_d[0]))


def test_closed_loop_batches_states():
    model = double_pendulum()
    law = lambda t, q, dq: control.pd_gravity(model, q, dq, [0.5, 0.5], 30.0, 10.0)  # noqa
    q0 = np.array([[0.0, 0.0], [1.0, -1.0]])
    run = control.simulate_closed_loop(model, law, q0, np.zeros(2), dt=0.01, steps=50)
    assert run.q.shape == (51, 2, 2) and run.tau.shape == (51, 2, 2)
    single = control.simulate_closed_loop(model, law, q0[1], np.zeros(2), dt=0.01, steps=50)
    assert relative_error(run.q[:, 1], single.q) < 1e-12
    assert relative_error(run.tau[:, 1], single.tau) < 1e-12
    assert not run.tau.flags.writeable


# --- operational space: Lambda, the point task, the task-space closed loop -------------------

def test_lambda_matches_pinocchio(panda, pin_panda):
    """Lambda of the tool frame's body twist, with Pinocchio's M^-1 and LOCAL frame Jacobian."""
    pm, data = pin_panda
    assert [pm.names[k] for k in range(1, 8)] == panda.joint_names[1:]
    body, T_tcp = panda.link_frames[TCP]
    fid = pm.getFrameId(TCP)
    rng = np.random.default_rng(0)
    for _ in range(5):
        q = panda.random_configuration(rng)
        J = frame_jacobian(panda, q, body, T_tcp)
        Lam = control.operational_space_inertia(panda, q, J)
        Minv = pin.computeMinverse(pm, data, q)
        Minv = np.triu(Minv) + np.triu(Minv, 1).T
        pin.computeJointJacobians(pm, data, q)
        pin.updateFramePlacements(pm, data)
        J_pin = pin.getFrameJacobian(pm, data, fid, pin.LOCAL)             # (v, w)
        assert relative_error(J, P @ J_pin) < 1e-12
        Lam_pin = np.linalg.inv(J_pin @ Minv @ J_pin.T)
        assert relative_error(Lam, P @ Lam_pin @ P) < 1e-9
        # second method in liedyn: M^-1 from the articulated-body algorithm
        assert relative_error(Lam, np.linalg.inv(J @ inverse_mass_matrix(panda, q) @ J.T)) < 1e-9
        # the kinetic energy of a task motion of least kinetic energy is V^T Lambda V / 2
        dq = np.linalg.solve(mass_matrix(panda, q), J.T @ Lam @ rng.normal(size=6))
        V = J @ dq
        assert np.isclose(V @ Lam @ V, dq @ mass_matrix(panda, q) @ dq, rtol=1e-9)


def test_point_task_matches_pinocchio_and_finite_differences(panda, pin_panda):
    pm, data = pin_panda
    body, T_tcp = panda.link_frames[TCP]
    fid = pm.getFrameId(TCP)
    rng = np.random.default_rng(1)
    for _ in range(3):
        q, dq = panda.random_configuration(rng), rng.normal(size=7)
        task = control.point_task(panda, q, dq, body, T_tcp[:3, 3])
        assert relative_error(task.x, link_placement(panda, q, TCP)[:3, 3]) < 1e-12
        pin.forwardKinematics(pm, data, q, dq, np.zeros(7))
        pin.computeJointJacobians(pm, data, q)
        pin.updateFramePlacements(pm, data)
        J_pin = pin.getFrameJacobian(pm, data, fid, pin.LOCAL_WORLD_ALIGNED)[:3]
        a_pin = pin.getFrameClassicalAcceleration(pm, data, fid, pin.LOCAL_WORLD_ALIGNED)
        assert relative_error(task.J, J_pin) < 1e-12
        assert relative_error(task.dJdq, a_pin.linear) < 1e-10
        # finite differences along q(t) = q + t dq: dx/dt = J dq, d(J dq)/dt = dJdq
        h = 1e-6
        plus = control.point_task(panda, q + h * dq, dq, body, T_tcp[:3, 3])
        minus = control.point_task(panda, q - h * dq, dq, body, T_tcp[:3, 3])
        assert relative_error((plus.x - minus.x) / (2 * h), task.dx) < 1e-7
        assert relative_error((plus.J @ dq - minus.J @ dq) / (2 * h), task.dJdq) < 1e-6
    batch = control.point_task(panda, np.tile(q, (3, 1)), np.tile(dq, (3, 1)), body,
                               T_tcp[:3, 3])
    assert batch.J.shape == (3, 3, 7) and relative_error(batch.dJdq[2], task.dJdq) < 1e-12


def test_operational_space_control_decouples_the_task(panda):
    """J ddq + dJ dq = a exactly, and tau_null does not change the task acceleration."""
    body, T_tcp = panda.link_frames[TCP]
    rng = np.random.default_rng(2)
    q, dq = panda.random_configuration(rng), rng.normal(size=7)
    a, tau0 = rng.normal(size=3), rng.normal(size=7) * 5
    task = control.point_task(panda, q, dq, body, T_tcp[:3, 3])
    for null in (None, tau0):
        tau = control.operational_space_control(panda, q, dq, task.J, task.dJdq, a, null)
        ddq = aba(panda, q, dq, tau)
        assert relative_error(task.J @ ddq + task.dJdq, a) < 1e-9
    # the 6-D body twist of the tool frame: Lambda's task in (w, v)
    J6 = frame_jacobian(panda, q, body, T_tcp)
    h = 1e-6                                              # dJ dq by central differences
    dJdq6 = (frame_jacobian(panda, q + h * dq, body, T_tcp) @ dq
             - frame_jacobian(panda, q - h * dq, body, T_tcp) @ dq) / (2 * h)
    a6 = rng.normal(size=6)
    tau = control.operational_space_control(panda, q, dq, J6, dJdq6, a6)
    assert relative_error(J6 @ aba(panda, q, dq, tau) + dJdq6, a6) < 1e-6


def test_operational_space_tracking_on_the_panda(panda):
    """The tool point follows a circle; its error obeys dde + 2w de + w^2 e = 0."""
    body, T_tcp = panda.link_frames[TCP]
    r = T_tcp[:3, 3]
    q_home = np.array([0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785])
    x0 = control.point_task(panda, q_home, np.zeros(7), body, r).x
    w, rad, wn = np.pi, 0.1, 8.0

    def ref(t):
        t = np.asarray(t, dtype=float)[..., None]
        c, s, z = np.cos(w * t), np.sin(w * t), 0 * t
        return (x0 + rad * np.concatenate([z, s, 1 - c], -1),
                rad * w * np.concatenate([z, c, s], -1),
                rad * w ** 2 * np.concatenate([z, -s, c], -1))

    D = np.diag(mass_matrix(panda, q_home))

    def law(t, q, dq):
        task = control.point_task(panda, q, dq, body, r)
        x_d, dx_d, ddx_d = ref(t)
        a = ddx_d - 2 * wn * (task.dx - dx_d) - wn ** 2 * (task.x - x_d)
        return control.operational_space_control(panda, q, dq, task.J, task.dJdq, a,
                                                 -wn ** 2 * D * (q - q_home) - 2 * wn * D * dq)

    run = control.simulate_closed_loop(panda, law, q_home, np.zeros(7), dt=0.02, duration=1.0)
    task = control.point_task(panda, run.q, run.dq, body, r)
    x_d, dx_d, _ = ref(run.t)
    e0, de0 = task.x[0] - x_d[0], task.dx[0] - dx_d[0]
    t = run.t[:, None]
    exact = (e0 + (de0 + wn * e0) * t) * np.exp(-wn * t)
    assert np.max(np.abs(task.x - x_d - exact)) < 1e-6
