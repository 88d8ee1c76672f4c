"""Armature (rotor inertia reflected through the gear), per degree of freedom.

It adds ``armature * ddq`` to the joint torques, ``diag(armature)`` to ``M`` and to
``D_i = S_i^T I_hat_i S_i`` of the articulated-body and hybrid algorithms, and
``armature dq^2 / 2`` to the kinetic energy. Checked against Pinocchio's
``model.armature`` (rnea, crba, aba), against the identities that tie the algorithms
together (``rnea = M ddq + b``, ``aba = M^-1 (tau - b)``, hybrid, ``W W^T = M``, the
closed forms), against complex-step derivatives, the compiled path against the
reference, the energy balance of a simulation, and bad values.
"""
import numpy as np
import pinocchio as pin
import pytest
from hypothesis import given, settings

import liedyn as ld
from liedyn.closed_form import closed_form_matrices, property2
from liedyn.derivatives import rnea_derivative
from liedyn.engine import dispatch
from liedyn.forward_dynamics import mass_matrix_factor
from liedyn.robots import planar_arm, serial_chain

from common import random_state, relerr
from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map
from strategies import seeds

SETTINGS = settings(max_examples=15, deadline=None)
# joints whose Pinocchio velocity is liedyn's up to a permutation (B = 1 or P)
PERMUTED_JOINTS = ("revolute", "prismatic", "helical", "spherical", "free")


def with_armature(model, seed):
    model.armature = np.random.default_rng(seed).uniform(0.05, 2.0, model.nv)
    return model


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_pinocchio(seed, both_paths):
    model, q, dq, ddq, _ = random_state(seed, PERMUTED_JOINTS, reorder=True)
    with_armature(model, seed)
    pm = to_pinocchio(model)
    B = velocity_map(model, q)
    pm.armature = np.abs(B) @ model.armature          # the permutation of (v, w)
    data = pm.createData()
    qp, vp, ap = state_to_pin(model, q, dq, ddq)
    assert relerr(ld.rnea(model, q, dq, ddq), B.T @ pin.rnea(pm, data, qp, vp, ap)) < 1e-12
    Mp = pin.crba(pm, data, qp)
    Mp = np.triu(Mp) + np.triu(Mp, 1).T
    assert relerr(ld.mass_matrix(model, q), B.T @ Mp @ B) < 1e-12
    tau = np.random.default_rng(seed).normal(size=model.nv)
    a_pin = pin.aba(pm, data, qp, vp, np.linalg.solve(B.T, tau))
    assert relerr(ld.aba(model, q, dq, tau), np.linalg.solve(B, a_pin)) < 1e-10


@SETTINGS
@given(seeds)
def test_the_algorithms_agree_with_each_other(seed):
    for compiled in (False, True):
        dispatch.use_kernels(compiled)
        model, q, dq, ddq, f_ext = random_state(seed)
        with_armature(model, seed)
        M = ld.mass_matrix(model, q)
        b = ld.bias_force(model, q, dq, f_ext)
        assert relerr(ld.rnea(model, q, dq, ddq, f_ext), M @ ddq + b) < 1e-11
        tau = ld.rnea(model, q, dq, ddq, f_ext)
        assert relerr(ld.aba(model, q, dq, tau, f_ext), ddq) < 1e-9
        assert relerr(ld.inverse_mass_matrix(model, q) @ M, np.eye(model.nv)) < 1e-9
        mask = np.random.default_rng(seed).uniform(size=model.nbodies) < 0.5
        tau_h, ddq_h = ld.hybrid(model, q, dq, ddq, tau, mask, f_ext)
        assert relerr(tau_h, tau) < 1e-9 and relerr(ddq_h, ddq) < 1e-9
    dispatch.use_kernels(True)


@pytest.mark.parametrize("seed", range(6))
def test_the_rotor_adds_exactly_its_armature(seed, both_paths):
    """The difference made by the armature is ``armature * ddq`` and ``diag``."""
    model, q, dq, ddq, f_ext = random_state(seed)
    tau0, M0 = ld.rnea(model, q, dq, ddq, f_ext), ld.mass_matrix(model, q)
    with_armature(model, seed)
    assert relerr(ld.rnea(model, q, dq, ddq, f_ext) - tau0, model.armature * ddq) < 1e-12
    assert relerr(ld.mass_matrix(model, q) - M0, np.diag(model.armature)) < 1e-12
    assert relerr(ld.bias_force(model, q, dq, f_ext), ld.rnea(model, q, dq, 0 * ddq, f_ext)) \
        < 1e-12


@pytest.mark.parametrize("seed", range(8))
def test_compiled_equals_reference_in_batches(seed):
    model, q, dq, ddq, f_ext = random_state(seed, batch=(3, 2))
    with_armature(model, seed)
    mask = np.random.default_rng(seed).uniform(size=model.nbodies) < 0.5
    calls = [lambda: ld.rnea(model, q, dq, ddq, f_ext), lambda: ld.mass_matrix(model, q),
             lambda: ld.aba(model, q, dq, ddq, f_ext),
             lambda: ld.hybrid(model, q, dq, ddq, ddq, mask, f_ext)[0],
             lambda: ld.inverse_mass_matrix(model, q)]
    dispatch.use_kernels(False)
    reference = [call() for call in calls]
    dispatch.use_kernels(True)
    assert dispatch.flat_model(model) is not None
    for call, want in zip(calls, reference, strict=True):
        assert relerr(call(), want) < 1e-10


@pytest.mark.parametrize("seed", range(6))
def test_partials_match_the_complex_step(seed, both_paths):
    kinds = ("revolute", "prismatic", "helical", "spherical", "free", "universal")
    model, q, dq, ddq, f_ext = random_state(seed, kinds)
    with_armature(model, seed)
    h, E = 1e-30, np.eye(model.nv)
    _, dtau_dv, M = ld.rnea_partials(model, q, dq, ddq, f_ext)
    cs = np.stack([ld.rnea(model, q, dq, ddq + 1j * h * e, f_ext).imag / h for e in E], -1)
    assert relerr(M, cs) < 1e-12
    assert relerr(rnea_derivative(model, q, dq, ddq, delta_ddq=E, f_ext=f_ext).T, cs) < 1e-12
    tau = ld.rnea(model, q, dq, ddq, f_ext)
    _, dddq_dv, Minv = ld.aba_partials(model, q, dq, tau, f_ext)
    cs = np.stack([ld.aba(model, q, dq + 1j * h * e, tau, f_ext).imag / h for e in E], -1)
    assert relerr(dddq_dv, cs) < 1e-9
    assert relerr(Minv, np.linalg.inv(ld.mass_matrix(model, q))) < 1e-9


@pytest.mark.parametrize("joint", ["revolute", "prismatic", "helical"])
def test_square_root_factor_and_closed_forms(joint):
    model = with_armature(serial_chain(4, joint=joint), 1)
    rng = np.random.default_rng(2)
    q, dq = rng.normal(size=(2, model.nv))
    M = ld.mass_matrix(model, q)
    W = mass_matrix_factor(model, q)
    assert relerr(W @ W.T, M) < 1e-12
    assert relerr(closed_form_matrices(model, q, dq).M, M) < 1e-12
    assert relerr(property2(model, q)[0], M) < 1e-12


def test_energy_balance_of_a_simulation():
    """With the rotors' energy in T, ``T + U`` stays constant without torques."""
    model = with_armature(planar_arm(3, gravity=9.81), 3)
    q0, dq0 = np.array([0.3, -0.2, 0.5]), np.array([1.0, 0.0, -1.0])
    traj = ld.simulate(model, q0, dq0, dt=1e-3, duration=1.0, method="rk4")
    E = [ld.kinetic_energy(model, q, dq) + ld.potential_energy(model, q)
         for q, dq in zip(traj.q, traj.dq, strict=True)]
    assert np.ptp(E) < 1e-8 * max(1.0, abs(E[0]))
    T = ld.kinetic_energy(model, q0, dq0)
    assert relerr(T, dq0 @ ld.mass_matrix(model, q0) @ dq0 / 2) < 1e-12
    model.armature = 0.0
    assert T - ld.kinetic_energy(model, q0, dq0) > 0.1     # the rotors' share is there


def test_add_body_assignment_and_the_urdf_loader():
    model = ld.Model()
    model.add_body("a", 0, ld.Revolute([0, 0, 1]), armature=0.5)
    model.add_body("b", 1, ld.Spherical(), armature=[0.1, 0.2, 0.3])
    assert model.armature.tolist() == [0.5, 0.1, 0.2, 0.3]       # read back: exact
    assert model.rotor(2).tolist() == np.diag([0.1, 0.2, 0.3]).tolist()
    model.armature = 2.0
    assert model.armature.tolist() == [2.0] * 4
    with pytest.raises(ValueError):
        model.armature[0] = 1.0                       # read-only: assign the whole
    assert not np.any(ld.load_robot("panda").armature)   # URDF has no armature


@pytest.mark.parametrize("value, error, text", [
    ([1.0, -0.5], ValueError, "expected values >= 0"),
    ([1.0, np.nan], ValueError, "NaN or inf"),
    ([1.0, 2.0, 3.0], ValueError, "expected 2 real numbers"),
    ("heavy", TypeError, "'armature'"),
    ([1j, 0.0], ValueError, "expected 2 real numbers"),
])
def test_bad_armature_is_refused_by_name(value, error, text):
    model = ld.robots.double_pendulum()
    with pytest.raises(error, match=text):
        model.armature = value
    assert not np.any(model.armature)                     # unchanged


def test_bad_armature_of_a_new_body_names_the_body():
    model = ld.robots.double_pendulum()
    with pytest.raises(ValueError, match="body 'c': argument 'armature': expected values"):
        model.add_body("c", 2, ld.Prismatic([1, 0, 0]), armature=-1.0)
    with pytest.raises(ValueError, match="body 'c': argument 'armature': expected 3 real"):
        model.add_body("c", 2, ld.Spherical(), armature=[1.0, 2.0])
    assert model.nbodies == 2 and model.armature.shape == (2,)
