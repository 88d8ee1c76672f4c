"""Constrained dynamics (Kim (2012), Section 3): recursive vs KKT, constraint satisfaction, the
three inverse-dynamics regimes, hybrid consistency (both branches), Baumgarte stabilisation,
projection, Pinocchio's constraintDynamics, singular configurations and other errors."""
import warnings

import numpy as np
import pinocchio as pin
import pytest

from liedyn.constrained_dynamics import (
    constrained_forward,
    constrained_forward_kkt,
    constrained_hybrid,
    constrained_inverse,
)
from liedyn.constraints import (
    LoopClosure,
    Pfaffian,
    constraint_drift,
    constraint_jacobian,
    constraint_residual,
    project,
)
from liedyn.crba import kinetic_energy, mass_matrix, potential_energy
from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import forward_kinematics
from liedyn.robots import five_bar, four_bar, random_tree, rolling_disk, spatial_four_bar

from common import relerr as rel
from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map

MECHANISMS = [four_bar, five_bar, spatial_four_bar, rolling_disk]
PIN_JOINTS = ("revolute", "prismatic", "helical", "universal", "planar", "spherical",
              "spherical_zyx", "spherical_exp", "free")      # every joint with a Pinocchio twin
H = 1e-6


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


def nearby_states(model, cons, q0, rng, count, spread=0.2):
    """``count`` different consistent states near ``q0``: projected configurations, velocities
    in the null space of A there, random torques."""
    Q = np.stack([project(model, cons, model.integrate(q0, spread * rng.normal(size=model.nv)))
                  for _ in range(count)])
    dQ = np.stack([consistent_state(model, cons, q, rng) for q in Q])
    return Q, dQ, rng.normal(size=(count, model.nv))


@pytest.mark.parametrize("build", MECHANISMS)
def test_batched_forward_equals_looped(build):
    rng = np.random.default_rng(2)
    model, cons, q0 = build()
    Q, dQ, tau = nearby_states(model, cons, q0, rng, 4)
    assert np.ptp(Q, axis=0).max() > 0.05                             # genuinely different
    assert np.ptp(dQ, axis=0).max() > 0.05
    ddq, lam = constrained_forward(model, cons, Q, dQ, tau)
    ddq_k, lam_k = constrained_forward_kkt(model, cons, Q, dQ, tau)
    for k in range(len(Q)):
        d1, l1 = constrained_forward(model, cons, Q[k], dQ[k], tau[k])
        assert rel(ddq[k], d1) < 1e-13 and rel(lam[k], l1) < 1e-13
        assert rel(ddq[k], ddq_k[k]) < 1e-10 and rel(lam[k], lam_k[k]) < 1e-10


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
    assert np.all(t1[~act] == 0)                                   # the passive zeros, copied
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
    assert a[0] == ddq[0] and np.all(t[1:] == tau[1:])             # inputs, copied
    # the prescribed set of the unique inverse problem: hybrid == inverse
    act = np.array([True, False, True, False, False])
    t_inv, l_inv = constrained_inverse(model, cons, q, dq, ddq, act, tau_passive=np.zeros(5))
    t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, np.zeros(5), act)
    assert rel(a, ddq) < 1e-9 and rel(t, t_inv) < 1e-9 and rel(lam, l_inv) < 1e-9


def four_bar_fall(dt, duration=0.5):
    """Semi-implicit Euler with Baumgarte stabilisation and a projection every step: the worst
    loop residual and the worst energy error over the trajectory (the four-bar falls from rest)."""
    model, cons, q = four_bar()
    dq = np.zeros(model.nv)
    E0 = kinetic_energy(model, q, dq) + potential_energy(model, q)
    worst_f = worst_E = 0.0
    for _ in range(int(round(duration / dt))):
        ddq, _ = constrained_forward(model, cons, q, dq, np.zeros(model.nv), baumgarte=(5.0, 5.0))
        dq = dq + dt * ddq
        q = model.integrate(q, dq * dt)
        q, dq = project(model, cons, q, dq)
        worst_f = max(worst_f, np.max(np.abs(constraint_residual(model, cons, q))))
        worst_E = max(worst_E, abs(kinetic_energy(model, q, dq) + potential_energy(model, q) - E0))
    return worst_f, worst_E, E0


def test_projection_and_simulation_keep_the_loop_closed():
    """The loop stays closed to rounding, and the energy error is that of a first-order method.

    Semi-implicit Euler is first order: halving the step must halve the largest energy error
    over the trajectory (measured: 0.197 J at dt = 4 ms, 0.0995 J at 2 ms, 0.0501 J at 1 ms,
    of E0 = 22.3 J; the largest error is reached within the first 0.5 s). The bound 0.12 J at
    2 ms leaves 20% over the measured value.
    """
    worst_f, err_coarse, E0 = four_bar_fall(4e-3)
    worst_f2, err_fine, _ = four_bar_fall(2e-3)
    assert max(worst_f, worst_f2) < 1e-10
    assert 1.8 < err_coarse / err_fine < 2.2          # error ~ C dt: first order
    assert err_fine < 0.12 and err_fine < 0.006 * abs(E0)


def pinocchio_constrained_acceleration(model, q, dq, tau, kind, body_a, frame_a, body_b, frame_b):
    """Pinocchio's constraintDynamics with one rigid constraint between two frames.

    ``tau`` is liedyn's: with ``v_pin = B dq`` (``velocity_map``) the powers agree,
    ``tau . dq = tau_pin . v_pin``, so ``tau = B^T tau_pin`` (a permutation for Free joints,
    a rotation for Planar ones, ``dexp`` for SphericalExp).
    """
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
    tau_pin = np.linalg.solve(velocity_map(model, q).T, tau)
    return pin.constraintDynamics(pm, data, qp, vp, tau_pin, models, datas,
                                  pin.ProximalSettings(1e-14, 1e-12, 100))


@pytest.mark.parametrize("axes,kind,n_min", [(("vx", "vy", "vz"), pin.ContactType.CONTACT_3D, 4),
                                             (("wx", "wy", "wz", "vx", "vy", "vz"),
                                              pin.ContactType.CONTACT_6D, 7)])
def test_chain_tip_fixed_to_ground_matches_pinocchio(axes, kind, n_min):
    """Chains of every joint type whose tip frame is held at its current pose (3D point or 6D
    weld): 30 random chains, the well-conditioned ones compared (the audit measured 2.7e-12
    and 3.7e-12 over 150 chains)."""
    compared, worst = 0, 0.0
    for seed in range(30):
        rng = np.random.default_rng(100 + seed)
        model = random_tree(int(rng.integers(n_min, 12)), rng, joint_types=PIN_JOINTS,
                            branching=0.0)
        q = model.random_configuration(rng)
        tip = model.nbodies
        offset = np.eye(4)
        offset[:3, 3] = rng.normal(size=3) * 0.2
        world = forward_kinematics(model, q).T_world[tip] @ offset
        cons = [LoopClosure(tip, 0, frame_a=offset, frame_b=world, axes=axes)]
        s = np.linalg.svd(constraint_jacobian(model, cons, q), compute_uv=False)
        if s[-1] < 1e-3 * s[0]:                     # near-singular pose: ill-conditioned
            continue
        dq = consistent_state(model, cons, q, rng)
        tau = rng.normal(size=model.nv)
        ddq, _ = constrained_forward(model, cons, q, dq, tau)
        a_pin = pinocchio_constrained_acceleration(model, q, dq, tau, kind, tip, offset, 0, world)
        _, _, a_ours = state_to_pin(model, q, dq, ddq)
        worst = max(worst, rel(a_ours, a_pin))
        compared += 1
    assert compared >= 25
    assert worst < 1e-10


def test_spherical_cut_against_pinocchio_3d_contact():
    """The RSSR's spherical cut is a 3D contact between two bodies in Pinocchio."""
    model, cons, q = spatial_four_bar()
    c = cons[0]
    for seed in range(5):
        rng = np.random.default_rng(8 + seed)
        dq = consistent_state(model, cons, q, rng)
        tau = rng.normal(size=model.nv)
        ddq, lam = constrained_forward(model, cons, q, dq, tau)
        a_pin = pinocchio_constrained_acceleration(model, q, dq, tau, pin.ContactType.CONTACT_3D,
                                                   model.body(c.body_a), c.frame_a,
                                                   model.body(c.body_b), c.frame_b)
        _, _, a_ours = state_to_pin(model, q, dq, ddq)
        assert rel(a_ours, a_pin) < 1e-10


def tree_with_loops(seed, n=8, weld=False):
    """A random branched tree of every joint type with two loop closures between its bodies,
    closed at the drawn configuration (the frames coincide there)."""
    rng = np.random.default_rng(seed)
    model = random_tree(n, rng, joint_types=PIN_JOINTS + ("screw",), branching=0.6)
    q = model.random_configuration(rng)
    Tw = forward_kinematics(model, q).T_world
    cons = []
    for axes in (("wx", "wy", "wz", "vx", "vy", "vz") if weld else ("vx", "vy", "vz"),
                 ("wz", "vx", "vy")):
        a, b = rng.choice(np.arange(model.nbodies + 1), size=2, replace=False)
        frame_a = np.eye(4)
        frame_a[:3, 3] = rng.normal(size=3) * 0.3
        frame_b = np.linalg.inv(Tw[b]) @ Tw[a] @ frame_a
        cons.append(LoopClosure(int(a), int(b), frame_a=frame_a, frame_b=frame_b, axes=axes))
    return model, cons, q, rng


def dense_hybrid(model, cons, q, dq, ddq, tau, u, f_ext=None):
    """Eqs. (70)-(71) as one dense linear system in (ddq_v, tau_u, lambda)."""
    A = constraint_jacobian(model, cons, q)
    M = mass_matrix(model, q)
    b = rnea(model, q, dq, np.zeros(model.nv), f_ext)
    v, (m, n) = ~u, A.shape
    E_u = np.eye(n)[:, u]
    K = np.block([[M[:, v], -E_u, -A.T], [A[:, v], np.zeros((m, u.sum() + m))]])
    tau_v = np.where(v, tau, 0.0)
    rhs = np.concatenate([tau_v - b - M[:, u] @ ddq[u],
                          -A[:, u] @ ddq[u] - constraint_drift(model, cons, q, dq)])
    x = np.linalg.solve(K, rhs)
    ddq_out, tau_out = ddq.copy(), tau.copy()
    ddq_out[v], tau_out[u] = x[:v.sum()], x[v.sum():n]
    return tau_out, ddq_out, x[n:]


@pytest.mark.parametrize("seed", range(4))
def test_random_trees_with_loops(seed):
    """Branched trees with screw, free, planar... joints and two loops (one between two branches):
    recursive forward == KKT with external forces, the simplified passes give M^-1 A^T, and
    constrained hybrid dynamics (random prescribed joints, batched) == the dense solve."""
    model, cons, q, rng = tree_with_loops(seed, weld=seed % 2 == 1)
    dq = consistent_state(model, cons, q, rng)
    tau = rng.normal(size=model.nv)
    f_ext = rng.normal(size=(model.nbodies, 6))
    out = constrained_forward(model, cons, q, dq, tau, f_ext=f_ext, full_output=True)
    ddq_k, lam_k = constrained_forward_kkt(model, cons, q, dq, tau, f_ext=f_ext)
    assert rel(out.ddq, ddq_k) < 1e-10 and rel(out.lam, lam_k) < 1e-10
    A = constraint_jacobian(model, cons, q)
    assert rel(out.MinvAT, np.linalg.solve(mass_matrix(model, q), A.T)) < 1e-10
    m = A.shape[0]
    states = []
    sizes = [model.joints[i].nv for i in range(1, model.nbodies + 1)]
    for _ in range(3):
        while True:                         # a prescribed set that leaves A_v of full row rank
            u_joint = rng.uniform(size=model.nbodies) < 0.3
            u = np.repeat(u_joint, sizes)
            if np.linalg.matrix_rank(A[:, ~u]) == m:
                break
        ddq = rng.normal(size=model.nv)
        t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, tau, u_joint, f_ext=f_ext)
        t_d, a_d, lam_d = dense_hybrid(model, cons, q, dq, ddq, tau, u, f_ext)
        assert rel(t, t_d) < 1e-9 and rel(a, a_d) < 1e-9 and rel(lam, lam_d) < 1e-9
        states.append((u_joint, ddq, t, a, lam))
    # a batch of states with one prescribed set
    u_joint = max(states, key=lambda st: st[0].sum())[0]         # the most prescribed set
    Q = np.stack([q, q, q])
    dQ = np.stack([dq, 0.5 * dq, -dq])
    ddQ = rng.normal(size=(3, model.nv))
    tb, ab, lb = constrained_hybrid(model, cons, Q, dQ, ddQ, tau, u_joint)
    for k in range(3):
        t1, a1, l1 = constrained_hybrid(model, cons, Q[k], dQ[k], ddQ[k], tau, u_joint)
        assert rel(tb[k], t1) < 1e-12 and rel(ab[k], a1) < 1e-12 and rel(lb[k], l1) < 1e-12


def cartesian_pendulum(length=1.5, mass=2.0, with_residual=True):
    """Murray's Cartesian pendulum: two prismatic joints and the rod as a Pfaffian constraint."""
    from liedyn import joints as J
    from liedyn.inertia import spatial_inertia
    from liedyn.model import Model
    model = Model(gravity=(0.0, -9.81, 0.0))
    model.add_body("slider", 0, J.Prismatic([1, 0, 0]))
    model.add_body("bob", "slider", J.Prismatic([0, 1, 0]),
                   inertia=spatial_inertia(mass, np.zeros(3), np.zeros((3, 3))))
    residual = (lambda q: (np.sum(np.asarray(q) ** 2, axis=-1)[..., None] - length ** 2) / 2) \
        if with_residual else None
    rod = Pfaffian(lambda q: np.asarray(q)[..., None, :],
                   lambda q, dq: np.sum(np.asarray(dq) ** 2, axis=-1)[..., None], m=1,
                   residual=residual)
    return model, [rod]


def test_baumgarte_acts_on_a_pfaffian_residual():
    """A Pfaffian with a residual gets the beta^2 f term (the bug: only LoopClosure did)."""
    model, cons = cartesian_pendulum()
    q = 1.1 * 1.5 * np.array([np.sin(0.4), -np.cos(0.4)])       # 10% too long: f != 0
    dq = np.array([np.cos(0.4), np.sin(0.4)]) + 0.05 * q          # A dq != 0 as well
    f = constraint_residual(model, cons, q)
    assert abs(f[0]) > 0.1
    plain, _ = constrained_forward(model, cons, q, dq, np.zeros(2), velocity_tol=None)
    for alpha, beta in ((0.0, 3.0), (2.0, 3.0)):
        ddq, _ = constrained_forward(model, cons, q, dq, np.zeros(2), baumgarte=(alpha, beta))
        ddq_k, _ = constrained_forward_kkt(model, cons, q, dq, np.zeros(2), baumgarte=(alpha, beta))
        assert rel(ddq, plain) > 1e-2 and rel(ddq, ddq_k) < 1e-12
        A = constraint_jacobian(model, cons, q)
        stabilised = A @ ddq + constraint_drift(model, cons, q, dq) + 2 * alpha * A @ dq \
            + beta ** 2 * f
        assert np.max(np.abs(stabilised)) < 1e-12
    # without a residual the constraint has no f(q): beta changes nothing
    model, cons = cartesian_pendulum(with_residual=False)
    ddq0, _ = constrained_forward(model, cons, q, dq, np.zeros(2), baumgarte=(2.0, 0.0))
    ddq1, _ = constrained_forward(model, cons, q, dq, np.zeros(2), baumgarte=(2.0, 3.0))
    assert np.array_equal(ddq0, ddq1)        # exact: beta^2 f adds f's zero rows, no more


@pytest.mark.parametrize("with_residual", [True, False])
def test_baumgarte_with_loops_and_pfaffians_mixed(with_residual):
    """Five-bar loop (m = 3) plus a Pfaffian ``dq_1 = 0`` (holonomic ``q_1 = 1.6`` or given
    without a residual): the loop rows always get beta^2 f, the Pfaffian rows only if it has f."""
    model, loops, q0 = five_bar()
    lock = Pfaffian(lambda q: np.broadcast_to(np.eye(5)[0], np.shape(q)[:-1] + (1, 5)),
                    lambda q, dq: np.zeros(np.shape(q)[:-1] + (1,)), m=1,
                    residual=(lambda q: np.asarray(q)[..., :1] - 1.6) if with_residual else None)
    cons = loops + [lock]
    q = model.integrate(q0, np.array([0.05, -0.03, 0.02, 0.04, -0.02]))    # off the manifold
    dq = np.array([0.3, -0.2, 0.1, 0.4, -0.3])
    f_loop = constraint_residual(model, loops, q)
    f = np.concatenate([f_loop, [q[0] - 1.6] if with_residual else [0.0]])
    assert np.min(np.abs(f)) > 1e-3 if with_residual else np.min(np.abs(f_loop)) > 1e-3
    alpha, beta = 1.5, 4.0
    ddq, _ = constrained_forward(model, cons, q, dq, np.zeros(5), baumgarte=(alpha, beta))
    ddq_k, _ = constrained_forward_kkt(model, cons, q, dq, np.zeros(5), baumgarte=(alpha, beta))
    A = constraint_jacobian(model, cons, q)
    stabilised = A @ ddq + constraint_drift(model, cons, q, dq) + 2 * alpha * A @ dq + beta ** 2 * f
    assert np.max(np.abs(stabilised)) < 1e-10 and rel(ddq, ddq_k) < 1e-10


def test_forward_rejects_an_inconsistent_velocity():
    model, cons, q = four_bar()
    rng = np.random.default_rng(4)
    dq = consistent_state(model, cons, q, rng)
    bad = dq + 1e-3
    with pytest.raises(ValueError, match="inconsistent with the constraints"):
        constrained_forward(model, cons, q, bad, np.zeros(3))
    with pytest.raises(ValueError, match="inconsistent"):           # one bad state in a batch
        constrained_forward(model, cons, np.stack([q, q]), np.stack([dq, bad]), np.zeros(3))
    # within the tolerance, switched off, or stabilised: accepted, and the same as KKT
    constrained_forward(model, cons, q, dq + 1e-9, np.zeros(3))
    for kwargs in ({"velocity_tol": None}, {"velocity_tol": 1e-2}, {"baumgarte": (1.0, 1.0)}):
        ddq, _ = constrained_forward(model, cons, q, bad, np.zeros(3), **kwargs)
        ddq_k, _ = constrained_forward_kkt(model, cons, q, bad, np.zeros(3),
                                           baumgarte=kwargs.get("baumgarte"))
        assert rel(ddq, ddq_k) < 1e-10


def test_hybrid_with_more_constraints_than_free_coordinates():
    """m = 3 > n_v = 2: the constraints fix ddq_v; tau_u and lambda as in inverse dynamics."""
    rng, model, cons, q, dq, ddq = five_bar_motion()
    u = np.array([True, True, True, False, False])
    A = constraint_jacobian(model, cons, q)
    M, b = mass_matrix(model, q), rnea(model, q, dq, 0 * ddq)
    drift = constraint_drift(model, cons, q, dq)
    tau_in = np.array([0.0, 0.0, 0.0, 0.7, -0.4])                  # passive torques on v
    t, a, lam = constrained_hybrid(model, cons, q, dq, ddq, tau_in, u)
    assert np.array_equal(a[u], ddq[u]) and np.array_equal(t[~u], tau_in[~u])   # copied
    assert rel(a, ddq) < 1e-9                                       # the consistent motion
    assert rel(M @ a + b, t + A.T @ lam) < 1e-10                    # eq. (70)
    assert np.max(np.abs(A @ a + drift)) < 1e-10                    # eq. (71)
    t_i, l_i = constrained_inverse(model, cons, q, dq, ddq, u, tau_passive=tau_in)
    assert rel(t, t_i) < 1e-12 and rel(lam, l_i) < 1e-12
    # prescribed accelerations that no motion of the two free joints can match
    with pytest.raises(ValueError, match="admit no consistent motion"):
        constrained_hybrid(model, cons, q, dq, ddq + np.array([1.0, 0, 0, 0, 0]), tau_in, u)
    with pytest.raises(ValueError, match="one state"):
        constrained_hybrid(model, cons, np.stack([q, q]), dq, ddq, tau_in, u)


def test_singular_configuration_is_reported():
    """A flattened four-bar (every joint on the x axis): A loses rank, every solver says so."""
    model, cons, _ = four_bar(lengths=(1.0, 2.0, 1.5, 1.5))
    q = np.zeros(3)                      # crank and coupler end at x = 3, the rocker too
    assert np.max(np.abs(constraint_residual(model, cons, q))) < 1e-14
    assert np.linalg.matrix_rank(constraint_jacobian(model, cons, q)) == 1
    z = np.zeros(3)
    with pytest.raises(ValueError, match="A M\\^-1 A\\^T is singular.*rank deficient"):
        constrained_forward(model, cons, q, z, z)
    with pytest.raises(ValueError, match="KKT matrix is singular"):
        constrained_forward_kkt(model, cons, q, z, z)
    with pytest.raises(ValueError, match="singular"):
        constrained_hybrid(model, cons, q, z, z, z, [True, False, False])
    with pytest.raises(ValueError, match="A_p is singular"):
        constrained_inverse(model, cons, q, z, z, [True, False, False])
    # one step away from the singular pose the solvers work again
    q_ok = project(model, cons, np.array([0.3, -0.3, 0.3]))
    assert np.linalg.matrix_rank(constraint_jacobian(model, cons, q_ok)) == 2
    constrained_forward(model, cons, q_ok, z, z)


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


@pytest.mark.parametrize("make", [four_bar, five_bar, spatial_four_bar])
@pytest.mark.parametrize("solver", ["recursive", "kkt"])
def test_complex_step_flows_through_the_solvers(make, solver):
    """Complex torques give complex accelerations (no silent cast to float): the complex-step
    derivative d ddq / d tau equals the analytic partials of liedyn.derivatives."""
    from liedyn.constrained_derivatives import constrained_forward_partials
    model, constraints, q0 = make()
    A = constraint_jacobian(model, constraints, q0)
    dq = np.linalg.svd(A)[2][A.shape[0]:].T @ np.full(model.nv - A.shape[0], 0.7)
    tau = np.linspace(-1.0, 1.0, model.nv)
    h = 1e-30
    f = constrained_forward if solver == "recursive" else constrained_forward_kkt
    with warnings.catch_warnings():
        warnings.simplefilter("error")                       # a ComplexWarning is a failure
        out = f(model, constraints, q0, dq, tau + 1j * h * np.eye(model.nv))
    ddq = out[0]
    expected = constrained_forward_partials(model, constraints, q0, dq, tau).dddq_dtau
    assert np.max(np.abs(ddq.imag.T / h - expected)) < 1e-10 * (1 + np.max(np.abs(expected)))
