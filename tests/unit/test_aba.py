"""Tests of liedyn.forward_dynamics: forward dynamics (Kim (2012), Table 3) and the factor
M = W W^T.

* inverse of rnea both ways, on random trees with every joint type;
* equal to solving ``M ddq = tau - b`` with ``M`` from the CRBA and ``b`` from rnea;
* against Pinocchio's ``aba`` on random trees (mapping ``(v, w)``, quaternions and the velocity
  map ``B`` of the bridge);
* batched == looped; ``inverse_mass_matrix @ M == I``; ``W W^T == M``;
* the three misprints of the seed's Table 3, each implemented here: each one alone disagrees
  with rnea, the corrected table agrees (the errata appendix cites these tests);
* Fixed joints: the same accelerations as the model with the welded bodies merged;
* a singular articulated inertia (massless leaf body) raises ``ValueError``.
"""
import sys

import numpy as np
import pinocchio as pin
import pytest
from hypothesis import assume, given, settings
from test_rnea import merge_fixed

from liedyn import joints as J
from liedyn.crba import bias_force, kinetic_energy, mass_matrix
from liedyn.forward_dynamics import aba, aba_pass, inverse_mass_matrix, mass_matrix_factor
from liedyn.inertia import spatial_inertia
from liedyn.inverse_dynamics import gravity_acceleration, rnea
from liedyn.kinematics import forward_kinematics
from liedyn.lie import Ad, Ad_inv, ad
from liedyn.model import Model
from liedyn.robots import JOINT_TYPES, double_pendulum, pendulum, random_tree, serial_chain

from common import random_state, relerr
from pinocchio_bridge import forces_to_pin, state_to_pin, to_pinocchio, velocity_map
from strategies import seeds

SETTINGS = settings(max_examples=30, deadline=None)
PIN_JOINTS = ("revolute", "prismatic", "helical", "universal", "planar", "spherical",
              "spherical_zyx", "spherical_exp", "free")
N_PIN_TREES = 120




# ---------------------------------------------------------------------------------------------
# aba is the inverse of rnea, and equals M^-1 (tau - b)
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_aba_inverts_rnea(seed):
    model, q, dq, ddq, f_ext = random_state(seed)
    tau = rnea(model, q, dq, ddq, f_ext)
    assert relerr(aba(model, q, dq, tau, f_ext), ddq) <= 1e-10


@SETTINGS
@given(seeds)
def test_rnea_inverts_aba(seed):
    model, q, dq, tau, f_ext = random_state(seed)
    ddq = aba(model, q, dq, tau, f_ext)
    assert relerr(rnea(model, q, dq, ddq, f_ext), tau) <= 1e-10


@SETTINGS
@given(seeds)
def test_aba_equals_solve_of_mass_matrix(seed):
    model, q, dq, tau, f_ext = random_state(seed)
    M, b = mass_matrix(model, q), bias_force(model, q, dq, f_ext)
    assert relerr(aba(model, q, dq, tau, f_ext), np.linalg.solve(M, tau - b)) <= 1e-10


ALL_JOINTS = {"Revolute", "Prismatic", "Helical", "Screw", "Universal", "Planar", "Spherical",
              "SphericalZYX", "SphericalExp", "Free", "Fixed"}


def test_every_joint_type_is_covered(monkeypatch):
    """Each hypothesis test of this file draws trees with every joint type (not only the
    first few): the test is run again with ``random_state`` wrapped to record its seeds. Under
    the default profile (derandomized, see conftest.py) a re-run draws exactly the seeds of
    the test's own run, since hypothesis seeds its generator from the test's source."""
    for test in (test_aba_inverts_rnea, test_rnea_inverts_aba,
                 test_aba_equals_solve_of_mass_matrix, test_inverse_mass_matrix):
        drawn = []

        def recording(seed, *args, _original=random_state, _drawn=drawn, **kwargs):
            state = _original(seed, *args, **kwargs)
            _drawn.append(state[0])
            return state
        with monkeypatch.context() as mp:
            mp.setattr(sys.modules[__name__], "random_state", recording)
            test()
        kinds = {type(j).__name__ for model in drawn for j in model.joints[1:]}
        assert len(drawn) >= SETTINGS.max_examples
        assert kinds == ALL_JOINTS, (test.__name__, ALL_JOINTS - kinds)


@pytest.mark.parametrize("kind", [k for k in JOINT_TYPES if k != "fixed"])
def test_aba_on_chains_of_each_joint_type(kind):
    """A chain of Fixed joints does not move (nv = 0): Fixed joints are tested below, welded
    between moving ones."""
    rng = np.random.default_rng(len(kind))
    model = serial_chain(4, joint=kind)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    # The round trip loses what solving with M loses: a tolerance of a few hundred n eps
    # cond(M) (cond(M) is about 3e4 for the exponential-coordinate chain, 30 for revolute).
    tol = 200 * model.nv * np.finfo(float).eps * np.linalg.cond(mass_matrix(model, q))
    assert relerr(aba(model, q, dq, rnea(model, q, dq, ddq)), ddq) <= tol


@SETTINGS
@given(seeds)
def test_fixed_joints_equal_the_merged_model(seed):
    """A welded (Fixed) body only adds its inertia and its external wrench to its nearest
    moving ancestor: aba on a tree with Fixed joints equals aba on the model with them merged
    (built by ``merge_fixed`` of test_rnea.py, with eq. (21) and Ad*, not with aba)."""
    model, q, dq, tau, f_ext = random_state(seed, joint_types=("revolute", "fixed",
                                                               "spherical", "prismatic"))
    assume(any(isinstance(j, J.Fixed) for j in model.joints[1:]) and model.nv > 0)
    merged, map_f_ext = merge_fixed(model)
    moving = [i for i in range(1, model.nbodies + 1) if not isinstance(model.joints[i], J.Fixed)]
    q_m = np.concatenate([q[model.q_slice[i]] for i in moving])
    assert merged.nbodies == len(moving) < model.nbodies and merged.nv == model.nv
    assert relerr(aba(merged, q_m, dq, tau, map_f_ext(f_ext)),
                  aba(model, q, dq, tau, f_ext)) <= 1e-10
    assert relerr(aba(merged, q_m, dq, tau), aba(model, q, dq, tau)) <= 1e-10


def test_pendulum_closed_form():
    m, l, g = 2.0, 0.5, 9.81
    model = pendulum(mass=m, length=l, gravity=g)
    q, tau = 0.7, 0.3
    ddq = aba(model, [q], [1.3], [tau])[0]
    assert ddq == pytest.approx((tau - m * g * l * np.sin(q)) / (m * l ** 2), rel=1e-13)


# ---------------------------------------------------------------------------------------------
# Pinocchio
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(N_PIN_TREES))
def test_aba_matches_pinocchio(seed):
    model, q, dq, tau, f_ext = random_state(seed, joint_types=PIN_JOINTS)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp = state_to_pin(model, q, dq)
    B = velocity_map(model, q)
    tau_pin = np.linalg.solve(B.T, tau)                       # tau = B^T tau_pin
    for fe in (None, f_ext):
        ddq = aba(model, q, dq, tau, fe)
        a_pin = (pin.aba(pm, data, qp, vp, tau_pin) if fe is None
                 else pin.aba(pm, data, qp, vp, tau_pin, forces_to_pin(fe)))
        a_ours = state_to_pin(model, q, dq, ddq)[2]           # B ddq + dB dq
        assert relerr(a_ours, a_pin) <= 1e-10


# ---------------------------------------------------------------------------------------------
# batching, inverse mass matrix, square-root factor
# ---------------------------------------------------------------------------------------------
def test_batched_equals_looped():
    rng = np.random.default_rng(7)
    model = random_tree(6, rng)
    q = np.stack([model.random_configuration(rng) for _ in range(6)]).reshape(2, 3, model.nq)
    dq, tau = rng.normal(size=(2, 2, 3, model.nv))
    f_ext = rng.normal(size=(2, 3, model.nbodies, 6))
    batched = aba(model, q, dq, tau, f_ext)
    assert batched.shape == (2, 3, model.nv)
    for idx in np.ndindex(2, 3):
        np.testing.assert_allclose(batched[idx], aba(model, q[idx], dq[idx], tau[idx],
                                                     f_ext[idx]), rtol=0, atol=1e-12)
    # broadcasting: one configuration, many torques
    many = aba(model, q[0, 0], dq[0, 0], tau.reshape(6, model.nv))
    for k in range(6):
        np.testing.assert_allclose(many[k], aba(model, q[0, 0], dq[0, 0], tau.reshape(6, -1)[k]),
                                   rtol=0, atol=1e-12)


@SETTINGS
@given(seeds)
def test_inverse_mass_matrix(seed):
    model, q, *_ = random_state(seed)
    M = mass_matrix(model, q)
    assert relerr(inverse_mass_matrix(model, q) @ M, np.eye(model.nv)) <= 1e-10


@pytest.mark.parametrize("kind", JOINT_TYPES)
def test_mass_matrix_factor_on_chains(kind):
    rng = np.random.default_rng(3)
    model = serial_chain(5, joint=kind)
    q = np.stack([model.random_configuration(rng) for _ in range(3)])
    W, M = mass_matrix_factor(model, q), mass_matrix(model, q)
    assert W.shape == M.shape == (3, model.nv, model.nv)
    assert relerr(W @ np.swapaxes(W, -1, -2), M) <= 1e-12
    for k in range(3):                       # block upper triangular, in the body order
        for i in range(1, model.nbodies + 1):
            for j in range(i + 1, model.nbodies + 1):
                assert np.all(W[k][model.v_slice[j], model.v_slice[i]] == 0)  # never written
        np.testing.assert_allclose(W[k], mass_matrix_factor(model, q[k]), rtol=0, atol=1e-13)


def test_mass_matrix_factor_is_the_reverse_cholesky_factor():
    """For one-DOF joints W is the unique upper-triangular factor with a positive diagonal."""
    rng = np.random.default_rng(4)
    model = serial_chain(7, joint="revolute")
    q = rng.normal(size=7)
    M = mass_matrix(model, q)
    P = np.eye(7)[::-1]
    W_ref = P @ np.linalg.cholesky(P @ M @ P) @ P
    assert relerr(mass_matrix_factor(model, q), W_ref) <= 1e-12
    dq = rng.normal(size=7)
    W = mass_matrix_factor(model, q)
    assert np.sum((W.T @ dq) ** 2) / 2 == pytest.approx(kinetic_energy(model, q, dq), rel=1e-12)


def test_mass_matrix_factor_diagonal_is_articulated_inertia():
    model = double_pendulum(masses=(1.0, 2.0), lengths=(1.0, 0.5))
    q = np.array([0.3, 1.1])
    W, M = mass_matrix_factor(model, q), mass_matrix(model, q)
    ap = aba_pass(model, q, np.zeros(2), np.zeros(2), dV0=np.zeros(6))
    D = [(ap.forward.S[i].T @ ap.I_hat[i] @ ap.forward.S[i])[0, 0] for i in (1, 2)]
    assert W[0, 0] ** 2 == pytest.approx(D[0], rel=1e-12)
    assert W[1, 1] ** 2 == pytest.approx(D[1], rel=1e-12)
    assert D[0] == pytest.approx(1 / np.linalg.inv(M)[0, 0], rel=1e-12)   # elbow free
    assert D[1] == pytest.approx(M[1, 1], rel=1e-12)


def test_mass_matrix_factor_rejects_trees():
    model = Model()
    I = spatial_inertia(1.0, [0.5, 0, 0], np.eye(3) * 0.01)
    model.add_body("a", 0, J.Revolute([0, 0, 1]), inertia=I)
    model.add_body("b", 1, J.Revolute([0, 1, 0]), inertia=I)
    model.add_body("c", 1, J.Revolute([1, 0, 0]), inertia=I)
    with pytest.raises(ValueError, match="serial chain.*'c'"):
        mass_matrix_factor(model, np.zeros(3))


# ---------------------------------------------------------------------------------------------
# singular articulated inertia
# ---------------------------------------------------------------------------------------------
def test_massless_leaf_raises():
    model = Model()
    model.add_body("link", 0, J.Revolute([0, 0, 1]),
                   inertia=spatial_inertia(1.0, [0.5, 0, 0], np.eye(3) * 0.01))
    model.add_body("ghost", 1, J.Revolute([0, 0, 1]))            # no inertia at all
    with pytest.raises(ValueError, match="ghost.*singular"):
        aba(model, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="ghost"):
        inverse_mass_matrix(model, [0.1, 0.2])
    with pytest.raises(ValueError, match="ghost"):
        mass_matrix_factor(model, [0.1, 0.2])


def test_point_mass_on_its_own_axis_raises():
    """A point mass on the axis of its revolute joint has no inertia about that axis."""
    model = Model()
    model.add_body("bead", 0, J.Revolute([0, 0, 1]),
                   inertia=spatial_inertia(1.0, [0, 0, 0.5], np.zeros((3, 3))))
    with pytest.raises(ValueError, match="bead"):
        aba(model, [0.0], [0.0], [1.0])


# ---------------------------------------------------------------------------------------------
# Kim (2012), Table 3 as printed in the seed, and corrected
# ---------------------------------------------------------------------------------------------
def table3(model, q, dq, tau, f_ext, misprint=None):
    """Table 3 written out with 6x6 matrices, one body at a time (unbatched).

    ``misprint`` reproduces one typo of the seed's Table 3:
    ``"I_hat"``: ``Ad^{-1}_{T_{i,k}^-1}`` instead of ``Ad*_{T_{i,k}^-1}`` in the sum of Pi_k;
    ``"B_hat"``: ``Ad^{*-1}_{T_{i,k}^-1}`` instead of ``Ad*_{T_{i,k}^-1}`` in the sum of beta_k;
    ``"dV"``: ``Ad_{T_{lambda(i),i}}`` instead of ``Ad_{T_{lambda(i),i}^-1}`` in the dV update.
    """
    N = model.nbodies
    T = forward_kinematics(model, q).T                                # T_{lambda(i),i}
    A = [None] + [Ad_inv(T[i]) for i in range(1, N + 1)]              # Ad_{T^-1}
    V, S, eta = [np.zeros(6)] + [None] * N, [None] * (N + 1), [None] * (N + 1)
    for i in range(1, N + 1):
        j, qi, vi = model.joints[i], q[model.q_slice[i]], dq[model.v_slice[i]]
        S[i] = j.S(qi)
        V[i] = A[i] @ V[model.parent[i]] + S[i] @ vi
        eta[i] = ad(V[i]) @ S[i] @ vi + j.dS(qi, vi) @ vi
    Ih, Bh, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):
        I = model.inertias[i]
        Ih[i] = I.copy()
        Bh[i] = -ad(V[i]).T @ I @ V[i] - f_ext[i - 1]
        for k in model.children[i]:
            left = np.linalg.inv(A[k]) if misprint == "I_hat" else A[k].T
            Ih[i] += left @ Pi[k] @ A[k]
            Bh[i] += (np.linalg.inv(A[k].T) if misprint == "B_hat" else A[k].T) @ beta[k]
        Psi[i] = np.linalg.inv(S[i].T @ Ih[i] @ S[i])
        Pi[i] = Ih[i] - Ih[i] @ S[i] @ Psi[i] @ S[i].T @ Ih[i]
        u = tau[model.v_slice[i]] - S[i].T @ (Ih[i] @ eta[i] + Bh[i])
        beta[i] = Bh[i] + Ih[i] @ (eta[i] + S[i] @ Psi[i] @ u)
    ddq, dV = np.zeros(model.nv), [gravity_acceleration(model)] + [None] * N
    for i in range(1, N + 1):
        a = A[i] @ dV[model.parent[i]] + eta[i]
        ddq[model.v_slice[i]] = Psi[i] @ (tau[model.v_slice[i]] - S[i].T @ (Ih[i] @ a + Bh[i]))
        if misprint == "dV":                    # Ad_{T_{lambda(i),i}} dV_{lambda(i)}
            dV[i] = Ad(T[i]) @ dV[model.parent[i]] + S[i] @ ddq[model.v_slice[i]] + eta[i]
        else:                                   # Ad_{T_{lambda(i),i}^-1} dV_{lambda(i)}
            dV[i] = a + S[i] @ ddq[model.v_slice[i]]
    return ddq


def _chain_case(seed=11):
    rng = np.random.default_rng(seed)
    model = random_tree(5, rng, joint_types=("revolute", "spherical", "universal"), branching=0.0)
    q = model.random_configuration(rng)
    dq, tau = rng.normal(size=(2, model.nv))
    return model, q, dq, tau, rng.normal(size=(model.nbodies, 6))


def test_table3_corrected_agrees_with_rnea():
    model, q, dq, tau, f_ext = _chain_case()
    ddq = table3(model, q, dq, tau, f_ext)
    assert relerr(rnea(model, q, dq, ddq, f_ext), tau) <= 1e-10
    assert relerr(ddq, aba(model, q, dq, tau, f_ext)) <= 1e-12


@pytest.mark.parametrize("misprint", ["I_hat", "B_hat", "dV"])
def test_table3_misprints_disagree_with_rnea(misprint):
    model, q, dq, tau, f_ext = _chain_case()
    ddq = table3(model, q, dq, tau, f_ext, misprint=misprint)
    assert relerr(rnea(model, q, dq, ddq, f_ext), tau) > 1e-2


def test_table3_misprint_I_hat_is_harmless_without_offsets():
    """Ad^{-1}_{T^-1} = Ad_T equals Ad*_{T^-1} = Ad_{T^-1}^T exactly when p = 0: the typo hides
    in models whose joints all sit at their parent's origin (a reason to test with offsets)."""
    rng = np.random.default_rng(5)
    model = Model(gravity=(0.0, 0.0, -9.81))
    for i in range(1, 4):
        model.add_body(f"b{i}", i - 1, J.Revolute(rng.normal(size=3)),
                       inertia=spatial_inertia(1.0, rng.normal(size=3), np.eye(3) * 0.05))
    q, dq, tau = rng.normal(size=(3, 3))
    f = np.zeros((3, 6))
    np.testing.assert_allclose(table3(model, q, dq, tau, f, misprint="I_hat"),
                               aba(model, q, dq, tau), rtol=0, atol=1e-10)
