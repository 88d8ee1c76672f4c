"""Tests of liedyn.inverse_dynamics (Kim (2012), Table 2) against second methods inside liedyn.

* the sum over bodies ``tau = sum_i J_i^T (I_i dV_i - ad*_{V_i} I_i V_i - F_i^ext)`` of Zhang,
  Lecture 9, with ``J_i`` from ``body_jacobian`` and ``V_i``, ``dV_i`` from the kinematics;
* the mass matrix three ways: complex step in ``ddq``, finite differences, rnea columns, and
  ``sum_i J_i^T I_i J_i``;
* closed forms written out here: a pendulum, the planar 2R arm;
* structure: batching, the sign of ``f_ext``, Fixed joints (merged inertia), Screw joints
  (same dynamics as Revolute joints with shifted frames), sympy input.

The cross-check against Pinocchio is in ``test_rnea_pinocchio.py``.
"""
import numpy as np
import pytest
import sympy
from hypothesis import assume, given, settings

from liedyn import joints as J
from liedyn.inertia import spatial_inertia, transform_inertia
from liedyn.inverse_dynamics import gravity_acceleration, rnea, rnea_pass
from liedyn.kinematics import body_accelerations, body_jacobian, body_velocities, forward_kinematics
from liedyn.lie import Ad_star, ad_star, inverse
from liedyn.model import Model
from liedyn.robots import pendulum, planar_arm, serial_chain, two_link_arm

from common import random_state, relerr, translation
from strategies import seeds

SETTINGS = settings(max_examples=20, deadline=None)


# ---------------------------------------------------------------------------------------------
# Zhang, Lecture 9: tau = sum_i J_i^T (I_i A_i + V_i x* I_i V_i - F_i^ext)
# ---------------------------------------------------------------------------------------------
def zhang_sum(model, q, dq, ddq, f_ext):
    V = body_velocities(model, q, dq)
    dV = body_accelerations(model, q, dq, ddq, gravity=True)
    tau = np.zeros(model.nv)
    for i in range(1, model.nbodies + 1):
        I = model.inertias[i]
        F = I @ dV[i] - ad_star(V[i]) @ I @ V[i] - f_ext[i - 1]
        tau += body_jacobian(model, q, i).T @ F
    return tau


@SETTINGS
@given(seeds)
def test_rnea_equals_sum_of_body_jacobian_terms(seed):
    model, q, dq, ddq, f_ext = random_state(seed)
    assert relerr(rnea(model, q, dq, ddq, f_ext), zhang_sum(model, q, dq, ddq, f_ext)) < 1e-12


@SETTINGS
@given(seeds)
def test_body_accelerations_are_time_derivatives_of_velocities(seed):
    """The dV_i used above really are d/dt of V_i along (q, dq, ddq) (complex step in time):
    this makes the sum above independent of the forward recursion (41), dS_i included."""
    model, q, dq, ddq, _ = random_state(seed)
    h = 1e-30
    qc = model.integrate(q.astype(complex), dq, 1j * h)
    dV = body_velocities(model, qc, dq + 1j * h * ddq).imag / h
    np.testing.assert_allclose(body_accelerations(model, q, dq, ddq), dV, rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# batching
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_equals_looped(seed):
    model, *_ = random_state(seed)
    rng = np.random.default_rng(seed)
    q = np.array([[model.random_configuration(rng) for _ in range(3)] for _ in range(5)])
    dq, ddq = rng.normal(size=(2, 5, 3, model.nv))
    f_ext = rng.normal(size=(5, 3, model.nbodies, 6))
    tau = rnea(model, q, dq, ddq, f_ext)
    assert tau.shape == (5, 3, model.nv)
    for a in range(5):
        for b in range(3):
            np.testing.assert_allclose(tau[a, b], rnea(model, q[a, b], dq[a, b], ddq[a, b],
                                                       f_ext[a, b]), rtol=0, atol=1e-12)
    # broadcasting: one configuration, a batch of accelerations
    tau1 = rnea(model, q[0, 0], dq[0, 0], ddq[:, 0])
    assert tau1.shape == (5, model.nv)
    np.testing.assert_allclose(tau1[3], rnea(model, q[0, 0], dq[0, 0], ddq[3, 0]), atol=1e-12)


# ---------------------------------------------------------------------------------------------
# mass matrix: complex step, finite differences, rnea columns, sum_i J_i^T I_i J_i
# ---------------------------------------------------------------------------------------------
def mass_matrix_cs(model, q, dq, ddq, h=1e-30):
    E = np.eye(model.nv)
    return np.stack([rnea(model, q, dq, ddq + 1j * h * E[j]).imag / h
                     for j in range(model.nv)], axis=-1)


@SETTINGS
@given(seeds)
def test_mass_matrix_three_ways(seed):
    model, q, dq, ddq, f_ext = random_state(seed)
    assume(model.nv > 0)                                  # (a tree of welded bodies has no M)
    E = np.eye(model.nv)
    M_cs = mass_matrix_cs(model, q, dq, ddq)
    # rnea is affine in ddq: its columns minus the bias give M (Zhang, "Calculation of M")
    b = rnea(model, q, dq, np.zeros(model.nv), f_ext)
    M_col = np.stack([rnea(model, q, dq, E[j], f_ext) - b for j in range(model.nv)], axis=-1)
    eps = 1e-3
    M_fd = np.stack([(rnea(model, q, dq, ddq + eps * E[j]) - rnea(model, q, dq, ddq - eps * E[j]))
                     / (2 * eps) for j in range(model.nv)], axis=-1)
    M_J = sum(body_jacobian(model, q, i).T @ model.inertias[i] @ body_jacobian(model, q, i)
              for i in range(1, model.nbodies + 1))
    assert relerr(M_cs, M_J) < 1e-12
    assert relerr(M_col, M_cs) < 1e-12
    assert relerr(M_fd, M_cs) < 1e-10
    assert relerr(M_cs, M_cs.T) < 1e-12
    assert np.min(np.linalg.eigvalsh((M_cs + M_cs.T) / 2)) > 0


def test_complex_step_is_exact():
    """The complex step has no subtraction: the imaginary part is M e_j to round-off for any h."""
    model, q, dq, ddq, _ = random_state(5)
    M1 = mass_matrix_cs(model, q, dq, ddq, h=1e-30)
    M2 = mass_matrix_cs(model, q, dq, ddq, h=1e-100)
    assert np.max(np.abs(M1 - M2)) <= 1e-12 * max(1.0, np.max(np.abs(M1)))


# ---------------------------------------------------------------------------------------------
# closed forms
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("m, l, g", [(1.0, 1.0, 9.81), (2.5, 0.3, 3.7)])
def test_pendulum_closed_form(m, l, g):
    model = pendulum(mass=m, length=l, gravity=g)
    q = np.linspace(-3, 3, 13)[:, None]
    ddq = np.linspace(-2, 2, 13)[:, None]
    tau_g = rnea(model, q, np.zeros_like(q), np.zeros_like(q))
    np.testing.assert_allclose(tau_g[:, 0], m * g * l * np.sin(q[:, 0]), rtol=0, atol=1e-12)
    tau = rnea(model, q, np.ones_like(q) * 0.7, ddq)       # velocity adds nothing: one DOF
    np.testing.assert_allclose(tau[:, 0], m * l ** 2 * ddq[:, 0] + m * g * l * np.sin(q[:, 0]),
                               rtol=0, atol=1e-12)


def planar_2r_closed_form(q, dq, ddq, m, L, g):
    """Equal uniform links (mass m, length L, centre at L/2, I_c = m L^2/12), gravity -y,
    q = 0 along +x: the two-link planar arm of Murray, Li and Sastry, Ch. 4 (Lagrange)."""
    Ic, lc = m * L ** 2 / 12, L / 2
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M11 = 2 * Ic + m * lc ** 2 + m * (L ** 2 + lc ** 2 + 2 * L * lc * c2)
    M12 = Ic + m * (lc ** 2 + L * lc * c2)
    M22 = Ic + m * lc ** 2
    h = -m * L * lc * s2
    c = np.array([h * (2 * dq[0] * dq[1] + dq[1] ** 2), -h * dq[0] ** 2])
    grav = np.array([(m * lc + m * L) * g * np.cos(q[0]) + m * lc * g * np.cos(q[0] + q[1]),
                     m * lc * g * np.cos(q[0] + q[1])])
    return np.array([[M11, M12], [M12, M22]]) @ ddq + c + grav


@SETTINGS
@given(seeds)
def test_planar_arm_closed_form(seed):
    rng = np.random.default_rng(seed)
    m, L, g = rng.uniform(0.5, 2.0), rng.uniform(0.2, 1.5), rng.uniform(1.0, 10.0)
    model = planar_arm(2, length=L, mass=m, gravity=g)
    q, dq, ddq = rng.uniform(-np.pi, np.pi, 2), rng.normal(size=2), rng.normal(size=2)
    assert relerr(rnea(model, q, dq, ddq), planar_2r_closed_form(q, dq, ddq, m, L, g)) < 1e-12


def test_planar_arm_gravity_closed_form_3_links():
    """Static torque of joint k: g m sum over links j >= k of the horizontal lever to link j's
    centre, measured from joint k."""
    m, L, g = 1.3, 0.8, 9.81
    model = planar_arm(3, length=L, mass=m, gravity=g)
    q = np.array([0.4, -1.1, 2.0])
    phi = np.cumsum(q)                                    # absolute link angles
    joints_x = np.concatenate([[0.0], np.cumsum(L * np.cos(phi))])
    com_x = joints_x[:3] + L / 2 * np.cos(phi)
    expected = [m * g * np.sum(com_x[k:] - joints_x[k]) for k in range(3)]
    np.testing.assert_allclose(rnea(model, q, np.zeros(3), np.zeros(3)), expected, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# gravity and external wrenches: footnote 6, sign of f_ext
# ---------------------------------------------------------------------------------------------
def weights(model, q):
    """The gravity wrench on each body about its origin, in {i}: I_i (0, R_{0i}^T g)."""
    Tw = forward_kinematics(model, q).T_world
    return np.array([model.inertias[i] @ np.concatenate([np.zeros(3), Tw[i, :3, :3].T
                                                           @ model.gravity])
                     for i in range(1, model.nbodies + 1)])


@SETTINGS
@given(seeds)
def test_f_ext_that_balances_gravity_gives_zero_torque(seed):
    model, q, dq, ddq, _ = random_state(seed)
    np.testing.assert_allclose(rnea(model, q, np.zeros(model.nv), np.zeros(model.nv),
                                    -weights(model, q)), 0.0, rtol=0, atol=1e-12)
    # with motion: the balancing wrench cancels exactly the gravity part
    weightless = Model(gravity=(0.0, 0.0, 0.0))
    for i in range(1, model.nbodies + 1):
        weightless.add_body(model.names[i], model.parent[i], model.joints[i],
                            model.placements[i], model.inertias[i])
    assert relerr(rnea(model, q, dq, ddq, -weights(model, q)), rnea(weightless, q, dq, ddq)) < 1e-12


def test_gravity_is_a_base_acceleration():
    """Footnote 6: gravity g equals the ground accelerating with -g; dV_0 = (0, -g)."""
    model, q, dq, ddq, _ = random_state(3)
    # exact by construction: (0, 0 - g) is a negation, and the pass copies it as dV_0
    assert np.array_equal(gravity_acceleration(model)[3:], -model.gravity)
    out = rnea_pass(model, q, dq, ddq)
    np.testing.assert_array_equal(out.forward.dV[0], gravity_acceleration(model))
    np.testing.assert_array_equal(out.forward.V[0], np.zeros(6))


def test_f_ext_pushes_the_way_the_environment_does():
    """A pendulum pushed by the environment with a force along its swing direction needs less
    motor torque: tau = m g l sin(q) - l f."""
    model = pendulum(mass=1.0, length=2.0)
    f = 0.5
    f_ext = np.array([[0.0, 0.0, 0.0, f, 0.0, 0.0]])          # at the origin of {1}: no moment
    assert rnea(model, [0.3], [0.0], [0.0], f_ext)[0] == pytest.approx(rnea(model, [0.3], [0.0],
                                                                            [0.0])[0])
    moment = np.cross([0.0, -2.0, 0.0], [f, 0.0, 0.0])          # the force applied at the bob
    f_ext = np.array([np.concatenate([moment, [f, 0.0, 0.0]])])
    expected = 1.0 * 9.81 * 2.0 * np.sin(0.3) - 2.0 * f
    assert rnea(model, [0.3], [0.0], [0.0], f_ext)[0] == pytest.approx(expected, abs=1e-12)


# ---------------------------------------------------------------------------------------------
# sympy input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("make", [lambda: two_link_arm(masses=(1.2, 0.7), lengths=(0.9, 0.6)),
                                  lambda: planar_arm(2, length=0.8, mass=1.4)])
def test_symbolic_rnea_equals_numeric(make):
    model = make()
    qs, dqs, ddqs = (sympy.symbols(f"{n}1:3", real=True) for n in ("q", "dq", "ddq"))
    tau = rnea(model, np.array(qs, dtype=object), np.array(dqs, dtype=object),
               np.array(ddqs, dtype=object))
    assert tau.dtype == object and tau.shape == (2,)
    f = sympy.lambdify([qs, dqs, ddqs], list(tau), "numpy")
    rng = np.random.default_rng(12)
    for _ in range(5):
        q, dq, ddq = rng.uniform(-np.pi, np.pi, 2), rng.normal(size=2), rng.normal(size=2)
        np.testing.assert_allclose(np.array(f(q, dq, ddq), dtype=float), rnea(model, q, dq, ddq),
                                   rtol=0, atol=1e-12)
    # the closed form has no Abs and no sqrt (the Screw joint is branch-free in q)
    assert not any(e.has(sympy.Abs) or e.has(sympy.sqrt(qs[0])) for e in tau)


@pytest.mark.parametrize("joint", ["revolute", "prismatic", "helical"])   # Screw: above
def test_symbolic_rnea_spatial_chain(joint):
    model = serial_chain(3, joint=joint)
    q, dq, ddq = (np.array(sympy.symbols(f"{n}1:4", real=True), dtype=object)
                  for n in ("q", "dq", "ddq"))
    tau = rnea(model, q, dq, ddq)
    assert tau.dtype == object and tau.shape == (3,)
    f = sympy.lambdify([list(q), list(dq), list(ddq)], list(tau), "numpy")
    rng = np.random.default_rng(7)
    for _ in range(3):
        x, v, a = rng.uniform(-np.pi, np.pi, 3), rng.normal(size=3), rng.normal(size=3)
        np.testing.assert_allclose(np.array(f(x, v, a), float), rnea(model, x, v, a),
                                   rtol=0, atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Fixed joints: a welded body is its inertia merged into its parent
# ---------------------------------------------------------------------------------------------
def merge_fixed(model):
    """An equivalent model without Fixed bodies: each welded body's inertia (eq. (21)) and
    external wrench are moved into its nearest moving ancestor; its children are re-attached
    with composed placements. Returns the new model and a function mapping f_ext."""
    new = Model(gravity=model.gravity)
    home = {0: (0, np.eye(4))}          # body -> (index in new model, T_{anchor, body})
    inertias = {0: np.zeros((6, 6))}
    for i in range(1, model.nbodies + 1):
        anchor, T_ap = home[model.parent[i]]
        X = T_ap @ model.placements[i]
        if isinstance(model.joints[i], J.Fixed):
            home[i] = (anchor, X)
            inertias[anchor] = inertias[anchor] + transform_inertia(model.inertias[i], inverse(X))
        else:
            k = new.add_body(model.names[i], anchor, model.joints[i], X)
            home[i] = (k, np.eye(4))
            inertias[k] = model.inertias[i].copy()
    for k in range(1, new.nbodies + 1):
        new.inertias[k] = inertias[k]

    def map_f_ext(f_ext):
        out = np.zeros((new.nbodies, 6))
        for i in range(1, model.nbodies + 1):
            k, T = home[i]
            if k > 0:
                out[k - 1] += Ad_star(inverse(T)) @ f_ext[i - 1]   # wrench in {i} seen in {k}
        return out
    return new, map_f_ext


@SETTINGS
@given(seeds)
def test_fixed_joint_equals_merged_inertia(seed):
    model, q, dq, ddq, f_ext = random_state(seed, joint_types=("revolute", "fixed",
                                                                  "spherical", "prismatic"))
    merged, map_f = merge_fixed(model)
    moving = [i for i in range(1, model.nbodies + 1) if not isinstance(model.joints[i], J.Fixed)]
    q_m = np.concatenate([np.zeros(0)] + [q[model.q_slice[i]] for i in moving])
    assert merged.nv == model.nv and merged.nq == model.nq
    assert relerr(rnea(merged, q_m, dq, ddq, map_f(f_ext)), rnea(model, q, dq, ddq, f_ext)) < 1e-12


def test_fixed_body_example():
    """A welded 2 kg point mass 1 m out on a pendulum: the pendulum feels it."""
    model = pendulum(mass=1.0, length=1.0)
    model.add_body("weight", 1, J.Fixed(), placement=translation([0.0, -1.0, 0.0]),
                   inertia=spatial_inertia(2.0, np.zeros(3), np.zeros((3, 3))))
    assert model.nv == 1
    merged, _ = merge_fixed(model)
    assert merged.nbodies == 1
    np.testing.assert_allclose(merged.inertias[1][3:, 3:], 3.0 * np.eye(3))
    q = np.array([0.4])
    assert rnea(model, q, [0.0], [0.0])[0] == pytest.approx(3.0 * 9.81 * np.sin(0.4), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Screw joints: the notes' two-link arm equals a Revolute model with frames at the joints
# ---------------------------------------------------------------------------------------------
def two_link_revolute(masses, lengths, inertias, gravity=9.81):
    (m1, m2), (L1, L2), (I1, I2) = masses, lengths, inertias
    model = Model(gravity=(0.0, -gravity, 0.0))
    model.add_body("link1", 0, J.Revolute([0, 0, 1]),
                   inertia=spatial_inertia(m1, [L1 / 2, 0, 0], np.diag([0.0, I1, I1])))
    model.add_body("link2", 1, J.Revolute([0, 0, 1]), placement=translation([L1, 0.0, 0.0]),
                   inertia=spatial_inertia(m2, [L2 / 2, 0, 0], np.diag([0.0, I2, I2])))
    return model


@SETTINGS
@given(seeds)
def test_screw_two_link_arm_equals_revolute_model(seed):
    rng = np.random.default_rng(seed)
    masses, lengths = tuple(rng.uniform(0.5, 2, 2)), tuple(rng.uniform(0.3, 1.5, 2))
    inertias = tuple(rng.uniform(0.01, 0.2, 2))
    screw = two_link_arm(masses, lengths, inertias)
    rev = two_link_revolute(masses, lengths, inertias)
    q, dq, ddq = rng.uniform(-np.pi, np.pi, 2), rng.normal(size=2), rng.normal(size=2)
    # the body frames differ (centre of mass vs joint): T_{screw,rev} = Trans(-L_i/2), so a
    # wrench F_rev becomes F_screw = Ad*_{T_{rev,screw}} F_rev (eq. (13))
    f_rev = rng.normal(size=(2, 6))
    f_screw = np.array([Ad_star(translation([L / 2, 0.0, 0.0])) @ F
                        for L, F in zip(lengths, f_rev, strict=True)])
    assert relerr(rnea(screw, q, dq, ddq, f_screw), rnea(rev, q, dq, ddq, f_rev)) < 1e-12
    Tw_s, Tw_r = forward_kinematics(screw, q).T_world, forward_kinematics(rev, q).T_world
    for i, L in [(1, lengths[0]), (2, lengths[1])]:
        np.testing.assert_allclose(Tw_s[i], Tw_r[i] @ translation([L / 2, 0.0, 0.0]), atol=1e-13)


def test_two_link_arm_defaults_equal_planar_arm():
    rng = np.random.default_rng(13)
    q, dq, ddq = rng.normal(size=(3, 2))
    np.testing.assert_allclose(rnea(two_link_arm(), q, dq, ddq), rnea(planar_arm(2), q, dq, ddq),
                               rtol=0, atol=1e-12)


def test_no_jit_runs_the_reference(request):
    """``pytest --no-jit`` (make test's second run of the algorithms' tests) reaches the
    engine: the public functions then take their reference implementation."""
    if not request.config.getoption("--no-jit"):
        pytest.skip("checks pytest --no-jit")
    from liedyn.engine import jit
    assert not jit.ENABLED
