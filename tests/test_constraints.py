"""Constrained dynamics (Kim (2012), Section 3): recursive vs KKT, constraint satisfaction, the three
inverse-dynamics regimes, hybrid consistency, projection, Pinocchio's constraintDynamics, errors."""
import numpy as np
import pinocchio as pin
import pytest

from liedyn.constraints import (LoopClosure, Pfaffian, constrained_forward, constrained_forward_kkt,
                                constrained_hybrid, constrained_inverse, constraint_drift,
                                constraint_jacobian, constraint_residual, project)
from liedyn.crba import kinetic_energy, mass_matrix, potential_energy
from liedyn.rnea import rnea
from liedyn.robots import five_bar, four_bar, random_tree, rolling_disk, spatial_four_bar

from pinocchio_bridge import state_to_pin, to_pinocchio

MECHANISMS = [four_bar, five_bar, spatial_four_bar, rolling_disk]
H = 1e-6


def rel(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


def consistent_state(model, constraints, q, rng):
    A = constraint_jacobian(model, constraints, q)
    N = np.linalg.svd(A)[2][A.shape[0]:].T          # null space of A
    return N @ rng.normal(size=N.shape[1])


@pytest.mark.parametrize("build", MECHANISMS)
def test_forward_recursive_equals_kkt_and_satisfies_constraints(build):
    rng = np.random.default_rng(0)
    model, cons, q = build()
    for _ in range(5):
        dq = consistent_state(model, cons, q, rng)
        tau = rng.normal(size=model.nv)
        ddq, lam = constrained_forward(model, cons, q, dq, tau)
        ddq_k, lam_k = constrained_forward_kkt(model, cons, q, dq, tau)
        assert rel(ddq, ddq_k) < 1e-10 and rel(lam, lam_k) < 1e-10
        A = constraint_jacobian(model, cons, q)
        assert np.max(np.abs(A @ ddq + constraint_drift(model, cons, q, dq))) < 1e-10
        M, b = mass_matrix(model, q), rnea(model, q, dq, np.zeros(model.nv))
        assert rel(M @ ddq + b, tau + A.T @ lam) < 1e-10


@pytest.mark.parametrize("build", MECHANISMS)
def test_drift_and_residual_rate(build):
    """dA/dt dq from the code equals finite differences of A(q(t)) dq; df/dt == A dq."""
    rng = np.random.default_rng(1)
    model, cons, q = build()
    dq = rng.normal(size=model.nv)
    Ap = constraint_jacobian(model, cons, model.integrate(q, H * dq))
    Am = constraint_jacobian(model, cons, model.integrate(q, -H * dq))
    assert rel(constraint_drift(model, cons, q, dq), (Ap - Am) / (2 * H) @ dq) < 1e-7
    if build is not rolling_disk:
        fp = constraint_residual(model, cons, model.integrate(q, H * dq))
        fm = constraint_residual(model, cons, model.integrate(q, -H * dq))
        assert rel((fp - fm) / (2 * H), constraint_jacobian(model, cons, q) @ dq) < 1e-7


def test_batched_forward_equals_looped():
    rng = np.random.default_rng(2)
    model, cons, q0 = four_bar()
    Q = np.stack([q0, q0])
    dQ = np.stack([consistent_state(model, cons, q0, rng) for _ in range(2)])
    tau = rng.normal(size=(2, model.nv))
    ddq, lam = constrained_forward(model, cons, Q, dQ, tau)
    for k in range(2):
        d1, l1 = constrained_forward(model, cons, Q[k], dQ[k], tau[k])
        assert rel(ddq[k], d1) < 1e-13 and rel(lam[k], l1) < 1e-13


def five_bar_motion(seed=3):
    rng = np.random.default_rng(seed)
    model, cons, q = five_bar()
    dq = consistent_state(model, cons, q, rng)
    ddq, _ = constrained_forward(model, cons, q, dq, rng.normal(size=model.nv))
    return rng, model, cons, q, dq, ddq


def test_inverse_unique_with_two_actuators():
    rng, model, cons, q, dq, ddq = five_bar_motion()
    act = np.array([True, False, True, False, False])     # the two ground joints: m = n_p = 3
    t1, l1 = constrained_inverse(model, cons, q, dq, ddq, act, objective="min_torque")
    t2, l2 = constrained_inverse(model, cons, q, dq, ddq, act, objective="min_constraint_force")
    assert rel(t1, t2) < 1e-12 and rel(l1, l2) < 1e-12
    A = constraint_jacobian(model, cons, q)
    assert rel(mass_matrix(model, q) @ ddq + rnea(model, q, dq, 0 * ddq), t1 + A.T @ l1) < 1e-10
    assert np.all(t1[~act] == 0)
    # forward dynamics with these torques reproduces ddq
    assert rel(constrained_forward(model, cons, q, dq, t1)[0], ddq) < 1e-9


def test_inverse_redundant_optima():
    rng, model, cons, q, dq, ddq = five_bar_motion()
    act = np.array([True, True, True, False, False])      # m = 3 > n_p = 2
    A = constraint_jacobian(model, cons, q)
    M, b = mass_matrix(model, q), rnea(model, q, dq, 0 * ddq)
    t_min, l_min = constrained_inverse(model, cons, q, dq, ddq, act, objective="min_torque")
    t_lam, l_lam = constrained_inverse(model, cons, q, dq, ddq, act,
                                       objective="min_constraint_force")
    for t, lam in ((t_min, l_min), (t_lam, l_lam)):
        assert rel(M @ ddq + b, t + A.T @ lam) < 1e-10
    # the family of solutions: lambda + N s with N spanning null(A_p^T)
    p = ~np.repeat(act, 1)
    N = np.linalg.svd(A[:, p].T)[2][np.sum(p):].T
    for _ in range(20):
        lam = l_lam + N @ rng.normal(size=N.shape[1])
        tau_a = (M @ ddq + b - A.T @ lam)[act]
        assert np.linalg.norm(t_min[act]) <= np.linalg.norm(tau_a) + 1e-12
        assert np.linalg.norm(l_lam) <= np.linalg.norm(lam) + 1e-12


def test_inverse_impossible_with_one_actuator():
    _, model, cons, q, dq, ddq = five_bar_motion()
    with pytest.raises(ValueError, match="constrained_hybrid"):
        constrained_inverse(model, cons, q, dq, ddq, np.array([True, False, False, False, False]))


def test_hybrid_consistent_with_forward_and_inverse():
    rng, model, cons, q, dq, ddq = five_bar_motion()
    tau = rng.normal(size=model.nv)
    # all torque-given: hybrid == forward
    t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, tau, np.zeros(5, bool))
    a_f, l_f = constrained_forward(model, cons, q, dq, tau)
    assert rel(a, a_f) < 1e-10 and rel(lam, l_f) < 1e-10
    # one prescribed joint (m = 3 <= n_v = 4): the outputs satisfy (70)-(71)
    mask = np.array([True, False, False, False, False])
    t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, tau, mask)
    A = constraint_jacobian(model, cons, q)
    assert rel(mass_matrix(model, q) @ a + rnea(model, q, dq, 0 * a), t + A.T @ lam) < 1e-10
    assert np.max(np.abs(A @ a + constraint_drift(model, cons, q, dq))) < 1e-10
    assert a[0] == ddq[0] and np.all(t[1:] == tau[1:])
    # the prescribed set of the unique inverse problem: hybrid == inverse
    act = np.array([True, False, True, False, False])
    t_inv, l_inv = constrained_inverse(model, cons, q, dq, ddq, act, tau_passive=np.zeros(5))
    t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, np.zeros(5), act)
    assert rel(a, ddq) < 1e-9 and rel(t, t_inv) < 1e-9 and rel(lam, l_inv) < 1e-9


def test_projection_and_simulation_keep_the_loop_closed():
    """Semi-implicit Euler with Baumgarte stabilisation and a projection every step."""
    model, cons, q = four_bar()
    dq = np.zeros(model.nv)
    dt, worst = 2e-3, 0.0
    E0 = kinetic_energy(model, q, dq) + potential_energy(model, q)
    for _ in range(500):
        ddq, _ = constrained_forward(model, cons, q, dq, np.zeros(model.nv), baumgarte=(5.0, 5.0))
        dq = dq + dt * ddq
        q = model.integrate(q, dq * dt)
        q, dq = project(model, cons, q, dq)
        worst = max(worst, np.max(np.abs(constraint_residual(model, cons, q))))
    assert worst < 1e-10
    E1 = kinetic_energy(model, q, dq) + potential_energy(model, q)
    assert abs(E1 - E0) < 0.05 * abs(E0) + 0.05    # first-order integrator: bounded drift


def pinocchio_constrained_acceleration(model, q, dq, tau, kind, body_a, frame_a, body_b, frame_b):
    """Pinocchio's constraintDynamics with one rigid constraint between two frames."""
    pm = to_pinocchio(model)
    data = pm.createData()
    cm = pin.RigidConstraintModel(kind, pm, body_a, pin.SE3(frame_a[:3, :3], frame_a[:3, 3]),
                                  body_b, pin.SE3(frame_b[:3, :3], frame_b[:3, 3]),
                                  pin.ReferenceFrame.LOCAL)
    models, datas = pin.StdVec_RigidConstraintModel(), pin.StdVec_RigidConstraintData()
    models.append(cm)
    datas.append(cm.createData())
    pin.initConstraintDynamics(pm, data, models, datas)
    qp, vp = state_to_pin(model, q, dq)
    return pin.constraintDynamics(pm, data, qp, vp, tau, models, datas,
                                  pin.ProximalSettings(1e-14, 1e-12, 100))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("axes,kind,n", [(("vx", "vy", "vz"), pin.ContactType.CONTACT_3D, 5),
                                         (("wx", "wy", "wz", "vx", "vy", "vz"),
                                          pin.ContactType.CONTACT_6D, 8)])
def test_chain_tip_fixed_to_ground_matches_pinocchio(seed, axes, kind, n):
    """A chain whose tip frame is held at its current pose (3D point or 6D weld)."""
    from liedyn.kinematics import forward_kinematics
    rng = np.random.default_rng(seed)
    model = random_tree(n, rng, joint_types=("revolute", "prismatic", "spherical"), branching=0.0)
    q = model.random_configuration(rng)
    tip = model.nbodies
    offset = np.eye(4)
    offset[:3, 3] = rng.normal(size=3) * 0.2
    world = forward_kinematics(model, q).T_world[tip] @ offset
    cons = [LoopClosure(tip, 0, frame_a=offset, frame_b=world, axes=axes)]
    dq = consistent_state(model, cons, q, rng)
    tau = rng.normal(size=model.nv)
    ddq, _ = constrained_forward(model, cons, q, dq, tau)
    a_pin = pinocchio_constrained_acceleration(model, q, dq, tau, kind, tip, offset, 0, world)
    _, _, a_ours = state_to_pin(model, q, dq, ddq)
    assert rel(a_ours, a_pin) < 1e-8


def test_spherical_cut_against_pinocchio_3d_contact():
    """The RSSR's spherical cut is a 3D contact between two bodies in Pinocchio."""
    model, cons, q = spatial_four_bar()
    rng = np.random.default_rng(8)
    dq = consistent_state(model, cons, q, rng)
    tau = rng.normal(size=model.nv)
    ddq, lam = constrained_forward(model, cons, q, dq, tau)
    c = cons[0]
    a_pin = pinocchio_constrained_acceleration(model, q, dq, tau, pin.ContactType.CONTACT_3D,
                                               model.body(c.body_a), c.frame_a,
                                               model.body(c.body_b), c.frame_b)
    _, _, a_ours = state_to_pin(model, q, dq, ddq)
    assert rel(a_ours, a_pin) < 1e-8


def test_rolling_disk_rolls_without_slipping():
    model, cons, q = rolling_disk()
    dq = np.array([0.0, 0.0, 0.5, 0.0])
    dq[3] = 2.0
    dq[0], dq[1] = 0.5 * 2.0 * np.cos(q[2]), 0.5 * 2.0 * np.sin(q[2])
    dt = 1e-3
    for _ in range(200):
        ddq, _ = constrained_forward(model, cons, q, dq, np.zeros(4), baumgarte=(10.0, 0.0))
        dq = dq + dt * ddq
        q = q + dt * dq
    A = constraint_jacobian(model, cons, q)
    assert np.max(np.abs(A @ dq)) < 1e-3       # no slip to integration accuracy
    assert abs(dq[3] - 2.0) < 1e-2              # spin conserved (no torque)


def test_bad_inputs():
    model, cons, q = four_bar()
    with pytest.raises(ValueError, match="axes"):
        LoopClosure("crank", "rocker", axes=("vx", "bogus"))
    with pytest.raises(ValueError, match="unknown body"):
        LoopClosure("crank", "nope").jacobian(model, q)
    with pytest.raises(TypeError, match="callable"):
        Pfaffian(np.zeros((1, 3)), lambda q, dq: 0, m=1)
    with pytest.raises(ValueError, match="inconsistent"):
        constrained_inverse(model, cons, q, np.ones(3), np.zeros(3), np.array([True, False, False]))
    with pytest.raises(ValueError, match="actuated"):
        constrained_inverse(model, cons, q, np.zeros(3), np.zeros(3), [True, False])
    # a duplicated constraint makes A rank deficient
    with pytest.raises(ValueError, match="rank deficient"):
        constrained_forward(model, cons + cons, q, np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="NaN"):
        constrained_forward(model, cons, q, np.full(3, np.nan), np.zeros(3))
