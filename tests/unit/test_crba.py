"""liedyn.crba: mass matrix, Coriolis matrix, energies, against second methods and Pinocchio.

* ``mass_matrix`` (CRBA) against the columns of ``rnea`` (Zhang, Lecture 9), against
  Pinocchio's ``crba`` on depth-first trees of every joint type Pinocchio has (``M = B^T M_pin B``
  with the bridge's velocity map ``B``) and against Pinocchio's ``rnea`` columns on trees in any
  topological order (where Pinocchio's own ``crba`` is wrong);
* ``coriolis_matrix`` against Pinocchio's ``computeCoriolisMatrix`` (depth-first trees of joints
  with ``B = 1`` or a permutation), ``C dq = b - g``, ``dM/dt - 2C`` skew with ``dM/dt`` from
  finite differences on the manifold, and the Christoffel symbols of finite differences of
  ``M`` for joints whose velocity is ``dq/dt``;
* the energy balance ``d/dt (T + U) = dq^T tau``;
* sympy: ``mass_matrix`` on object arrays, and the 2-link arm's ``M``, ``C``, ``b`` equal to
  Lagrange's equations;
* batching and bad inputs.
"""
import numpy as np
import pinocchio as pin
import pytest
import sympy
from hypothesis import given, settings

from liedyn.crba import (
    bias_force,
    composite_inertias,
    coriolis_matrix,
    gravity_torque,
    kinetic_energy,
    mass_matrix,
    momentum,
    potential_energy,
)
from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import body_jacobian, forward_kinematics
from liedyn.lie import Ad_inv, inverse
from liedyn.robots import JOINT_TYPES, pendulum, planar_arm, serial_chain
from liedyn.symbolic import lagrange_equations, mass_matrix_and_bias

from common import depth_first, is_depth_first, mdot, random_state, relerr
from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map
from strategies import seeds

SETTINGS = settings(max_examples=15, deadline=None)
PIN_JOINTS = ("revolute", "prismatic", "helical", "universal", "planar", "spherical",
              "spherical_zyx", "spherical_exp", "free")
COORDINATE_JOINTS = ("revolute", "prismatic", "helical", "screw", "universal", "planar",
                     "spherical_zyx", "spherical_exp")     # velocity = dq/dt
CORIOLIS_PIN_JOINTS = ("revolute", "prismatic", "helical", "spherical", "free")  # B = 1 or P


def rnea_columns(model, q):
    """Zhang, Lecture 9: column j of M is rnea(q, 0, e_j) - rnea(q, 0, 0) (one batched call)."""
    zero = np.zeros(model.nv)
    return (rnea(model, q, zero, np.eye(model.nv)) - rnea(model, q, zero, zero)).T


# ---------------------------------------------------------------------------------------------
# Mass matrix
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_mass_matrix_equals_rnea_columns(seed):
    model, q, _, _, _ = random_state(seed, JOINT_TYPES, n_max=7)  # every joint type, also fixed
    M = mass_matrix(model, q)
    assert relerr(M, rnea_columns(model, q)) < 1e-12
    assert relerr(M, M.T) < 1e-14


@SETTINGS
@given(seeds)
def test_mass_matrix_is_sum_of_body_jacobian_terms_and_positive_definite(seed):
    model, q, _, _, _ = random_state(seed, n_max=7)
    M = mass_matrix(model, q)
    J = [body_jacobian(model, q, i) for i in range(1, model.nbodies + 1)]
    assert relerr(M, sum(Ji.T @ I @ Ji
                         for Ji, I in zip(J, model.inertias[1:], strict=True))) < 1e-12
    assert model.nv == 0 or np.linalg.eigvalsh(M).min() > 0


def test_composite_inertia_of_root_is_whole_tree():
    """I^c of a chain's first body is the sum of all inertias moved into its frame (eq. (21))."""
    model, q, _, _, _ = random_state(3, ("revolute", "spherical"), n_max=7, branching=0.0)
    Ic, _, _ = composite_inertias(model, q)
    Tw = forward_kinematics(model, q).T_world
    A = [Ad_inv(inverse(Tw[1]) @ Tw[i]) for i in range(1, model.nbodies + 1)]   # Ad_{T_1i^-1}
    total = sum(Ai.T @ I @ Ai for Ai, I in zip(A, model.inertias[1:], strict=True))
    assert relerr(Ic[1], total) < 1e-12


@pytest.mark.parametrize("seed", range(40))
def test_mass_matrix_matches_pinocchio_crba(seed):
    model, q, _, _, _ = random_state(seed, PIN_JOINTS, n_max=8, reorder=True)
    pm = to_pinocchio(model)
    data = pm.createData()
    assert pm.check(data) and is_depth_first(model)
    M_pin = pin.crba(pm, data, state_to_pin(model, q)).copy()
    # the C++ crba fills only the upper triangle of data.M; the Python pin.crba returns it
    # symmetrised (chapters 6 and 11 say so): no mirroring needed
    assert np.array_equal(M_pin, M_pin.T)                # mirrored by pin.crba: exact
    B = velocity_map(model, q)
    assert relerr(mass_matrix(model, q), B.T @ M_pin @ B) <= 1e-12


def test_python_crba_returns_the_full_symmetric_matrix():
    """What chapters 6 and 11 state: the Python ``pin.crba`` (4.1) returns, and leaves in
    ``data.M``, the full symmetric matrix; only the C++ ``crba`` fills just the upper triangle."""
    model, q, _, _, _ = random_state(3, PIN_JOINTS, n_max=6, reorder=True)
    pm = to_pinocchio(model)
    data = pm.createData()
    M_py = pin.crba(pm, data, state_to_pin(model, q)).copy()
    # exact: pin.crba mirrors the triangle, and M_py is a copy of data.M
    assert np.abs(np.tril(M_py, -1)).max() > 1e-3 and np.array_equal(M_py, M_py.T)
    assert np.array_equal(data.M, M_py)


@pytest.mark.parametrize("seed", range(20))
def test_mass_matrix_matches_pinocchio_rnea_columns_on_any_tree(seed):
    """Trees not in depth-first order: Pinocchio's crba is unreliable there, its rnea is not."""
    model, q, _, _, _ = random_state(seed, PIN_JOINTS, n_max=8, branching=0.8)
    pm = to_pinocchio(model)
    data = pm.createData()
    pm.gravity = pin.Motion.Zero()
    qp = state_to_pin(model, q)
    zero = np.zeros(pm.nv)
    M_pin = np.column_stack([pin.rnea(pm, data, qp, zero, e).copy() for e in np.eye(pm.nv)])
    B = velocity_map(model, q)
    assert relerr(mass_matrix(model, q), B.T @ M_pin @ B) <= 1e-12


def test_pinocchio_crba_is_wrong_off_depth_first_order():
    """The pitfall that the depth-first reordering above avoids (TOOLCHAIN.md), found once."""
    for seed in range(200):
        model, q, _, _, _ = random_state(seed, ("revolute",), n_max=6, branching=0.9)
        if not is_depth_first(model):
            break
    pm = to_pinocchio(model)
    data = pm.createData()
    M_pin = pin.crba(pm, data, state_to_pin(model, q)).copy()
    M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T
    assert relerr(mass_matrix(model, q), M_pin) > 1e-3
    assert relerr(mass_matrix(depth_first(model), q[_dfs_perm(model)]),
                  mass_matrix(model, q)[np.ix_(_dfs_perm(model), _dfs_perm(model))]) < 1e-12


def _dfs_perm(model):
    """Old indices (0-based dofs of 1-DOF joints) in depth-first order."""
    order = []

    def visit(i):
        order.append(i - 1)
        for k in model.children[i]:
            visit(k)

    for k in model.children[0]:
        visit(k)
    return order


def test_mass_matrix_hand_values():
    assert np.isclose(mass_matrix(pendulum(mass=2.0, length=0.5), [1.0])[0, 0], 0.5)
    q2 = 0.7                                       # Murray's 2-DOF arm: a + 2 b c2, d + b c2, d
    a, b, d = 2 / 12 + 0.25 + 1.25, 0.5, 1 / 12 + 0.25
    M = np.array([[a + 2 * b * np.cos(q2), d + b * np.cos(q2)], [d + b * np.cos(q2), d]])
    assert relerr(mass_matrix(planar_arm(2), [0.3, q2]), M) < 1e-14


# ---------------------------------------------------------------------------------------------
# Coriolis matrix
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(25))
def test_coriolis_matches_pinocchio(seed):
    model, q, dq, _, _ = random_state(seed, CORIOLIS_PIN_JOINTS, n_max=7, reorder=True)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp = state_to_pin(model, q, dq)
    C_pin = pin.computeCoriolisMatrix(pm, data, qp, vp).copy()
    B = velocity_map(model, q)                     # 1 or the (v, w) permutation: constant
    assert relerr(coriolis_matrix(model, q, dq), B.T @ C_pin @ B) <= 1e-12


@SETTINGS
@given(seeds)
def test_coriolis_times_dq_is_bias_minus_gravity(seed):
    model, q, dq, _, _ = random_state(seed, n_max=7)
    b_minus_g = bias_force(model, q, dq) - gravity_torque(model, q)
    assert relerr(coriolis_matrix(model, q, dq) @ dq, b_minus_g) < 1e-12


@SETTINGS
@given(seeds)
def test_mdot_minus_2c_is_skew(seed):
    model, q, dq, _, _ = random_state(seed, n_max=7)            # every joint type: dM/dt = C + C^T
    N = mdot(model, q, dq) - 2 * coriolis_matrix(model, q, dq)
    assert np.max(np.abs(N + N.T), initial=0.0) < 1e-6 * max(1.0, np.max(np.abs(N), initial=0.0))


def test_mdot_minus_2c_skew_test_can_fail():
    """The check rejects a C right on dq but not skew-consistent (C + u w^T with w.dq = 0)."""
    model, q, dq, _, _ = random_state(5, ("revolute",), n_max=4)
    rng = np.random.default_rng(1)
    u, w = rng.normal(size=(2, model.nv))
    K = np.outer(u, w - (w @ dq) / (dq @ dq) * dq)          # K dq = 0
    C_bad = coriolis_matrix(model, q, dq) + K
    assert relerr(C_bad @ dq, coriolis_matrix(model, q, dq) @ dq) < 1e-12
    N = mdot(model, q, dq) - 2 * C_bad
    assert np.max(np.abs(N + N.T)) > 1e-3


def christoffel_matrix(model, q, dq, h=1e-6):
    """C_ij = sum_k Gamma_ijk dq_k, Gamma_ijk = (dM_ij/dq_k + dM_ik/dq_j - dM_kj/dq_i) / 2."""
    n = model.nv
    dM = np.stack([(mass_matrix(model, q + h * e) - mass_matrix(model, q - h * e)) / (2 * h)
                   for e in np.eye(n)])                  # dM[k, i, j] = dM_ij / dq_k
    Gamma = (np.transpose(dM, (1, 2, 0)) + np.transpose(dM, (1, 0, 2))
             - np.transpose(dM, (0, 2, 1))) / 2      # [i, j, k]
    return Gamma @ dq


@SETTINGS
@given(seeds)
def test_christoffel_symbols_equal_coriolis_for_coordinate_joints(seed):
    model, q, dq, _, _ = random_state(seed, COORDINATE_JOINTS, n_max=7)
    C = coriolis_matrix(model, q, dq)
    assert np.max(np.abs(christoffel_matrix(model, q, dq) - C)) < 1e-6 * max(1.0, np.abs(C).max())


def test_two_link_christoffel_hand_values():
    """Murray's 2-DOF arm: C = [[-b s2 dq2, -b s2 (dq1 + dq2)], [b s2 dq1, 0]], b = 1/2."""
    q, dq = np.array([0.3, 1.1]), np.array([0.8, -1.7])
    bs = 0.5 * np.sin(q[1])
    C = np.array([[-bs * dq[1], -bs * (dq[0] + dq[1])], [bs * dq[0], 0.0]])
    assert relerr(coriolis_matrix(planar_arm(2), q, dq), C) < 1e-14


# ---------------------------------------------------------------------------------------------
# Energy
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_energy_balance(seed):
    """d/dt (T + U) = dq^T tau along q(t) = q (+) (dq t + ddq t^2 / 2), tau = rnea(q, dq, ddq)."""
    model, q, dq, ddq, _ = random_state(seed, n_max=7)
    h = 1e-5

    def energy(t):
        qt = model.integrate(q, dq * t + ddq * t ** 2 / 2)
        return kinetic_energy(model, qt, dq + ddq * t) + potential_energy(model, qt)

    power = dq @ rnea(model, q, dq, ddq)
    assert abs((energy(h) - energy(-h)) / (2 * h) - power) < 1e-6 * max(1.0, abs(power))


def test_kinetic_energy_is_quadratic_form_of_M():
    model, q, dq, _, _ = random_state(8, n_max=7)
    assert np.isclose(kinetic_energy(model, q, dq), dq @ mass_matrix(model, q) @ dq / 2)


# ---------------------------------------------------------------------------------------------
# Bias force with external wrenches; momentum
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_bias_force_with_external_wrenches(seed):
    """``b(q, dq, f_ext) = rnea(q, dq, 0, f_ext)``, and the wrenches enter through the body
    Jacobians: ``b(f_ext) - b(0) = -sum_i J_i^T f_ext_i`` (the environment pushes on body i)."""
    model, q, dq, _, _ = random_state(seed, n_max=7)
    f_ext = np.random.default_rng(seed).normal(size=(model.nbodies, 6))
    b = bias_force(model, q, dq, f_ext)
    assert relerr(b, rnea(model, q, dq, np.zeros(model.nv), f_ext)) < 1e-12
    by_jacobians = -sum(body_jacobian(model, q, i).T @ f_ext[i - 1]
                        for i in range(1, model.nbodies + 1))
    assert relerr(b - bias_force(model, q, dq), by_jacobians) < 1e-10
    assert model.nv == 0 or np.max(np.abs(by_jacobians)) > 1e-3    # a non-trivial check


def momentum_by_hand(model, q, dq):
    """``sum_i`` of body i's momentum ``I_i V_i`` (eq. (23)) with ``V_i = J_i dq``, carried to
    the ground frame as in mechanics: linear ``p = R l``, angular about the ground origin
    ``R h + x * p`` with ``(R, x)`` the pose of body i."""
    Tw = forward_kinematics(model, q).T_world
    total = np.zeros(6)
    for i in range(1, model.nbodies + 1):
        h_l = model.inertias[i] @ body_jacobian(model, q, i) @ dq
        R, x = Tw[i][:3, :3], Tw[i][:3, 3]
        p = R @ h_l[3:]
        total += np.concatenate([R @ h_l[:3] + np.cross(x, p), p])
    return total


@SETTINGS
@given(seeds)
def test_momentum_is_the_sum_of_body_momenta_in_the_ground_frame(seed):
    model, q, dq, _, _ = random_state(seed, n_max=7)
    L = momentum(model, q, dq)
    assert L.shape == (6,)
    assert relerr(L, momentum_by_hand(model, q, dq)) < 1e-10


@pytest.mark.parametrize("seed", range(10))
def test_momentum_matches_pinocchio_centroidal_momentum(seed):
    """Pinocchio's centroidal momentum ``h_G = (p, k_G)`` (linear first) is about the centre of
    mass ``c``: about the ground origin the angular part is ``k_G + c x p``."""
    model, q, dq, _, _ = random_state(seed, joint_types=PIN_JOINTS, n_max=7)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp = state_to_pin(model, q, dq)
    hg = pin.computeCentroidalMomentum(pm, data, qp, vp)
    c = data.com[0]
    expected = np.concatenate([hg.angular + np.cross(c, hg.linear), hg.linear])
    assert relerr(momentum(model, q, dq), expected) < 1e-10


def test_momentum_of_a_point_mass_by_hand():
    """A 2 kg point mass on a pendulum of length 1.5 at q = 0.3, dq = 2: speed 3 m/s, angular
    momentum m l^2 dq about z."""
    model = pendulum(mass=2.0, length=1.5)
    L = momentum(model, [0.3], [2.0])
    x = 1.5 * np.array([np.sin(0.3), -np.cos(0.3), 0.0])              # the bob (down is -y)
    v = 2.0 * np.cross([0.0, 0.0, 1.0], x)
    np.testing.assert_allclose(L, np.concatenate([[0.0, 0.0, 2.0 * 1.5 ** 2 * 2.0], 2.0 * v]),
                               atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Batching, sympy, errors
# ---------------------------------------------------------------------------------------------
def test_batched_mass_and_coriolis_matrices():
    model, _, _, _, _ = random_state(4, n_max=5)
    rng = np.random.default_rng(0)
    qs = np.stack([model.random_configuration(rng) for _ in range(6)]).reshape(2, 3, -1)
    dqs = rng.normal(size=(2, 3, model.nv))
    M, C = mass_matrix(model, qs), coriolis_matrix(model, qs, dqs)
    assert M.shape == C.shape == (2, 3, model.nv, model.nv)
    for idx in np.ndindex(2, 3):
        assert relerr(M[idx], mass_matrix(model, qs[idx])) < 1e-14
        assert relerr(C[idx], coriolis_matrix(model, qs[idx], dqs[idx])) < 1e-14


@pytest.mark.parametrize("joint", ["revolute", "prismatic", "helical", "screw"])
def test_mass_matrix_runs_on_sympy_symbols(joint):
    model = serial_chain(3, joint=joint)
    q = np.array(sympy.symbols("q1:4"), dtype=object)
    M = mass_matrix(model, q)
    assert M.dtype == object and M.shape == (3, 3)
    values = np.array([0.3, -0.5, 0.7])
    M_num = sympy.lambdify(list(q), sympy.Matrix(M))(*values)
    assert relerr(M_num, mass_matrix(model, values)) < 1e-13


def rational(expr):
    """Floats of liedyn's numeric model parameters (1/3 as 0.333...) as the rationals they are."""
    return sympy.nsimplify(expr, tolerance=1e-12, rational=True)


def is_zero(A):
    """Every entry of a sympy matrix simplifies to 0 (trigonometric identities included)."""
    return all(sympy.trigsimp(sympy.expand(sympy.expand_trig(e))) == 0 for e in A)


def test_symbolic_two_link_arm_equals_lagrange():
    """planar_arm(2): M, C and b from liedyn on sympy symbols equal Lagrange's equations."""
    q1, q2, dq1, dq2, t = sympy.symbols("q1 q2 dq1 dq2 t")
    q, dq = [q1, q2], [dq1, dq2]
    m, l, r, Iz, g = 1, 1, sympy.Rational(1, 2), sympy.Rational(1, 12), sympy.Rational(981, 100)
    c1 = (r * sympy.cos(q1), r * sympy.sin(q1))
    c2 = (l * sympy.cos(q1) + r * sympy.cos(q1 + q2), l * sympy.sin(q1) + r * sympy.sin(q1 + q2))

    def rate(e):
        return sum(sympy.diff(e, a) * b for a, b in zip(q, dq, strict=True))

    T = (m * (rate(c1[0]) ** 2 + rate(c1[1]) ** 2) / 2 + Iz * dq1 ** 2 / 2
         + m * (rate(c2[0]) ** 2 + rate(c2[1]) ** 2) / 2 + Iz * (dq1 + dq2) ** 2 / 2)
    U = m * g * c1[1] + m * g * c2[1]                 # gravity along -y
    tau, ddq = lagrange_equations(T - U, q, dq, t)
    M_lag, b_lag = tau.jacobian(ddq), tau.subs({a: 0 for a in ddq})
    C_lag = sympy.Matrix(2, 2, lambda i, j: sum(
        (M_lag[i, j].diff(q[k]) + M_lag[i, k].diff(q[j]) - M_lag[k, j].diff(q[i])) * dq[k]
        for k in range(2)) / 2)

    model = planar_arm(2)
    qs, dqs = np.array(q, dtype=object), np.array(dq, dtype=object)
    M = sympy.Matrix(mass_matrix(model, qs)).applyfunc(rational)
    C = sympy.Matrix(coriolis_matrix(model, qs, dqs)).applyfunc(rational)
    b = sympy.Matrix(rnea(model, qs, dqs, np.zeros(2, dtype=object))).applyfunc(rational)
    assert is_zero(M - M_lag) and is_zero(C - C_lag) and is_zero(b - b_lag)
    assert not is_zero(C.T - C_lag)                       # the comparison can fail
    assert is_zero(C_lag * sympy.Matrix(dq) + b_lag.subs({dq1: 0, dq2: 0}) - b_lag)
    M_murray, _ = mass_matrix_and_bias(tau, ddq)          # simplified: a + 2 b cos(q2), ...
    assert M_murray[0, 0] == sympy.cos(q2) + sympy.Rational(5, 3)


def test_bad_inputs_raise_clear_errors():
    model = serial_chain(3)
    with pytest.raises(ValueError, match=r"argument 'q'.*shape"):
        mass_matrix(model, np.zeros(2))
    with pytest.raises(ValueError, match=r"argument 'q'.*NaN"):
        mass_matrix(model, [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match=r"argument 'dq'.*shape"):
        coriolis_matrix(model, np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match=r"argument 'dq'.*NaN"):
        coriolis_matrix(model, np.zeros(3), [np.inf, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"argument 'q'.*shape"):
        kinetic_energy(model, np.zeros((2, 4)), np.zeros(3))


@pytest.mark.parametrize("call, match", [
    (lambda m: gravity_torque(m, np.zeros(2)), r"argument 'q'.*expected shape \(\.\.\., 3\)"),
    (lambda m: gravity_torque(m, [0.0, np.nan, 0.0]), r"argument 'q'.*NaN"),
    (lambda m: gravity_torque(m, [0.0, 0.0, np.inf]), r"argument 'q'.*NaN or inf"),
    (lambda m: potential_energy(m, np.zeros(4)), r"argument 'q'.*shape"),
    (lambda m: potential_energy(m, np.zeros((2, 2))), r"argument 'q'.*shape"),
    (lambda m: potential_energy(m, [np.nan, 0.0, 0.0]), r"argument 'q'.*NaN"),
    (lambda m: momentum(m, np.zeros(2), np.zeros(3)), r"argument 'q'.*shape"),
    (lambda m: momentum(m, np.zeros(3), np.zeros(4)), r"argument 'dq'.*shape"),
    (lambda m: momentum(m, [np.nan, 0.0, 0.0], np.zeros(3)), r"argument 'q'.*NaN"),
    (lambda m: momentum(m, np.zeros(3), [0.0, 0.0, np.nan]), r"argument 'dq'.*NaN"),
    (lambda m: bias_force(m, np.zeros(2), np.zeros(3)), r"argument 'q'.*shape"),
    (lambda m: bias_force(m, np.zeros(3), np.zeros(2)), r"argument 'dq'.*shape"),
    (lambda m: bias_force(m, [np.nan, 0.0, 0.0], np.zeros(3)), r"argument 'q'.*NaN"),
    (lambda m: bias_force(m, np.zeros(3), [np.inf, 0.0, 0.0]), r"argument 'dq'.*NaN or inf"),
    (lambda m: bias_force(m, np.zeros(3), np.zeros(3), np.zeros((2, 6))),
     r"argument 'f_ext'.*expected shape \(\.\.\., 3, 6\)"),
    (lambda m: bias_force(m, np.zeros(3), np.zeros(3), np.zeros((3, 5))),
     r"argument 'f_ext'.*shape"),
    (lambda m: bias_force(m, np.zeros(3), np.zeros(3), np.full((3, 6), np.nan)),
     r"argument 'f_ext'.*NaN"),
])
def test_bad_inputs_of_energies_momentum_and_forces(call, match):
    with pytest.raises(ValueError, match=match):
        call(serial_chain(3))
