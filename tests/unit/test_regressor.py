"""liedyn.regressor: tau = Y(q, dq, ddq) pi, linear in the inertial parameters (Zhang, Lecture 9).

* ``Y pi == rnea`` on random trees of every joint type, batched;
* the body regressor against Kim's eq. (31) for random inertias;
* ``Y`` does not depend on the inertias, and inverse dynamics is linear in them
  (``rnea`` of a model with inertias ``a I + b I'`` is ``a tau + b tau'``);
* mass matrix and gravity torque from regressors; least-squares identification recovers the
  torques; the rank (number of base parameters) of the planar 2R arm;
* sympy input, bad inputs.
"""
import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from liedyn.crba import gravity_torque, mass_matrix
from liedyn.inertia import from_parameters, to_parameters
from liedyn.inverse_dynamics import rnea
from liedyn.lie import ad_star
from liedyn.model import Model
from liedyn.regressor import body_regressor, inertial_parameters, joint_torque_regressor
from liedyn.robots import planar_arm, random_tree

from common import random_state, relerr
from strategies import seeds

SETTINGS = settings(max_examples=30, deadline=None)


def with_inertias(model, inertias):
    """The same tree with other inertias (bodies 1..N)."""
    out = Model(gravity=model.gravity, name=model.name)
    for i in range(1, model.nbodies + 1):
        out.add_body(model.names[i], model.parent[i], model.joints[i], model.placements[i],
                     inertias[i - 1])
    return out


@SETTINGS
@given(seeds)
def test_regressor_times_parameters_is_rnea(seed):
    model, q, dq, ddq, _ = random_state(seed, n_max=7)
    Y = joint_torque_regressor(model, q, dq, ddq)
    assert Y.shape == (model.nv, 10 * model.nbodies)
    assert relerr(Y @ inertial_parameters(model), rnea(model, q, dq, ddq)) < 1e-12


def test_regressor_is_batched():
    model, *_ = random_state(12, n_max=7)
    rng = np.random.default_rng(12)
    q = np.stack([model.random_configuration(rng) for _ in range(6)]).reshape(3, 2, -1)
    dq, ddq = rng.normal(size=(2, 3, 2, model.nv))
    Y = joint_torque_regressor(model, q, dq, ddq)
    assert Y.shape == (3, 2, model.nv, 10 * model.nbodies)
    assert relerr(Y[2, 1], joint_torque_regressor(model, q[2, 1], dq[2, 1], ddq[2, 1])) < 1e-14
    assert relerr(Y @ inertial_parameters(model), rnea(model, q, dq, ddq)) < 1e-12


@SETTINGS
@given(seeds)
def test_body_regressor_is_kims_eq_31(seed):
    rng = np.random.default_rng(seed)
    I = random_tree(1, rng).inertias[1]
    V, dV = rng.normal(size=(2, 6))
    A = body_regressor(V, dV)
    assert relerr(A @ to_parameters(I), I @ dV - ad_star(V) @ I @ V) < 1e-13
    assert relerr(body_regressor(np.zeros(6), dV) @ to_parameters(I), I @ dV) < 1e-13


@SETTINGS
@given(seeds)
def test_inverse_dynamics_is_linear_in_the_inertias(seed):
    model, q, dq, ddq, _ = random_state(seed, n_max=7)
    rng = np.random.default_rng(seed + 1)
    other = with_inertias(model, [random_tree(1, rng).inertias[1] for _ in range(model.nbodies)])
    a, b = rng.uniform(0.2, 2.0, 2)
    mixed = with_inertias(model, [a * I1 + b * I2 for I1, I2 in
                                  zip(model.inertias[1:], other.inertias[1:], strict=True)])
    tau, tau_other = rnea(model, q, dq, ddq), rnea(other, q, dq, ddq)
    assert relerr(rnea(mixed, q, dq, ddq), a * tau + b * tau_other) < 1e-12
    Y = joint_torque_regressor(model, q, dq, ddq)                 # Y knows no inertia:
    assert np.array_equal(Y, joint_torque_regressor(other, q, dq, ddq))    # the same path
    assert relerr(Y @ inertial_parameters(other), tau_other) < 1e-12


def test_linearity_test_can_fail():
    """Wrong parameters (pi + pi^2 / 2) break Y pi == rnea: the check is not vacuous."""
    model, q, dq, ddq, _ = random_state(3, n_max=7)
    pi = inertial_parameters(model)
    pi = pi + pi ** 2 / 2
    assert relerr(joint_torque_regressor(model, q, dq, ddq) @ pi, rnea(model, q, dq, ddq)) > 1e-3


def test_mass_matrix_and_gravity_from_regressors():
    model, q, _, _, _ = random_state(5, n_max=7)
    pi, zero = inertial_parameters(model), np.zeros(model.nv)
    g = joint_torque_regressor(model, q, zero, zero) @ pi
    assert relerr(g, gravity_torque(model, q)) < 1e-12
    Y_cols = joint_torque_regressor(model, q, zero, np.eye(model.nv)) @ pi   # batch of e_j
    assert relerr((Y_cols - g).T, mass_matrix(model, q)) < 1e-12


def test_identification_of_the_planar_arm():
    """Least squares on noise-free samples: rank 6 = base parameters; torques reproduced."""
    model = planar_arm(2)
    rng = np.random.default_rng(0)
    q, dq, ddq = rng.normal(size=(3, 100, 2))
    Y = joint_torque_regressor(model, q, dq, ddq).reshape(-1, 20)
    tau = rnea(model, q, dq, ddq).ravel()
    assert np.linalg.matrix_rank(Y) == 6
    pi_hat = np.linalg.lstsq(Y, tau, rcond=None)[0]
    assert relerr(Y @ pi_hat, tau) < 1e-10
    q2, dq2, ddq2 = rng.normal(size=(3, 10, 2))                       # new states
    Y2 = joint_torque_regressor(model, q2, dq2, ddq2)
    assert relerr(Y2 @ pi_hat, rnea(model, q2, dq2, ddq2)) < 1e-9
    Y0 = joint_torque_regressor(planar_arm(2, gravity=0.0), q, dq, ddq)
    assert np.linalg.matrix_rank(Y0.reshape(-1, 20)) == 4


def test_inertial_parameters_round_trip():
    model, *_ = random_state(9, n_max=7)
    pi = inertial_parameters(model).reshape(model.nbodies, 10)
    for I, p in zip(model.inertias[1:], pi, strict=True):
        assert relerr(from_parameters(p), I) < 1e-14
    assert inertial_parameters(Model()).shape == (0,)


def test_symbolic_regressor():
    model = planar_arm(2)
    q = np.array(sympy.symbols("q1 q2"), dtype=object)
    dq = np.array(sympy.symbols("dq1 dq2"), dtype=object)
    Y = joint_torque_regressor(model, q, dq, np.zeros(2, dtype=object))
    assert Y.dtype == object and Y.shape == (2, 20)
    f = sympy.lambdify(list(q) + list(dq), sympy.Matrix(Y))
    assert relerr(f(0.3, -0.2, 1.0, 0.5), joint_torque_regressor(model, [0.3, -0.2], [1.0, 0.5],
                                                                  [0.0, 0.0])) < 1e-14


def test_bad_inputs():
    model = planar_arm(3)
    with pytest.raises(ValueError, match=r"argument 'ddq'.*shape"):
        joint_torque_regressor(model, np.zeros(3), np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match=r"argument 'q'.*NaN"):
        joint_torque_regressor(model, [0.0, np.nan, 0.0], np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match=r"argument 'V'.*shape"):
        body_regressor(np.zeros(5), np.zeros(6))
    with pytest.raises(ValueError, match=r"argument 'dV'.*NaN"):
        body_regressor(np.zeros(6), [np.inf, 0, 0, 0, 0, 0])
