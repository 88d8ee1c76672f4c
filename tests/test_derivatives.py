"""Derivatives of the dynamics (Kim (2012), Section 4) against finite differences on the manifold,
complex step, and Pinocchio's computeRNEADerivatives / computeABADerivatives."""
import copy

import numpy as np
import pinocchio as pin
import pytest

from liedyn.aba import aba
from liedyn.crba import mass_matrix
from liedyn.derivatives import (aba_derivative, aba_partials, hybrid_derivative, hybrid_partials,
                                rnea_derivative, rnea_inertial_partials, rnea_partials)
from liedyn.hybrid import hybrid
from liedyn.inertia import from_parameters, to_parameters
from liedyn.lie import exp_se3
from liedyn.rnea import rnea
from liedyn.robots import JOINT_TYPES, pendulum, random_tree

from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map

H = 1e-6          # central differences: truncation ~ H^2, round-off ~ eps / H
FD_TOL = 1e-6     # relative
CS_TOL = 1e-12    # complex step is exact to round-off
ALL = [k for k in JOINT_TYPES if k != "fixed"]


def rel(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


def case(seed, kinds=ALL, n=None):
    rng = np.random.default_rng(seed)
    model = random_tree(n or int(rng.integers(1, 7)), rng, joint_types=kinds)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    f = rng.normal(size=(model.nbodies, 6))
    return rng, model, q, dq, ddq, tau, f


def fd_q(model, fun, q):
    """Central differences in the tangent space: q (+) (+-h e_k)."""
    return np.stack([(fun(model.integrate(q, H * e)) - fun(model.integrate(q, -H * e))) / (2 * H)
                     for e in np.eye(model.nv)], axis=-1)


def fd_v(model, fun, x):
    return np.stack([(fun(x + H * e) - fun(x - H * e)) / (2 * H) for e in np.eye(model.nv)], -1)


@pytest.mark.parametrize("seed", range(25))
def test_rnea_partials_vs_finite_differences(seed):
    _, model, q, dq, ddq, _, f = case(seed)
    dtau_dq, dtau_dv, M = rnea_partials(model, q, dq, ddq, f)
    assert rel(dtau_dq, fd_q(model, lambda x: rnea(model, x, dq, ddq, f), q)) < FD_TOL
    assert rel(dtau_dv, fd_v(model, lambda x: rnea(model, q, x, ddq, f), dq)) < FD_TOL
    assert rel(M, mass_matrix(model, q)) < 1e-12


@pytest.mark.parametrize("seed", range(15))
def test_rnea_partials_vs_complex_step_for_coordinate_joints(seed):
    kinds = ["revolute", "prismatic", "helical", "screw", "universal", "planar", "spherical_zyx",
             "spherical_exp"]
    _, model, q, dq, ddq, _, f = case(seed, kinds)
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq, f)
    h = 1e-30
    cs_q = np.stack([rnea(model, q + 1j * h * e, dq, ddq, f).imag / h for e in np.eye(model.nv)], -1)
    cs_v = np.stack([rnea(model, q, dq + 1j * h * e, ddq, f).imag / h for e in np.eye(model.nv)], -1)
    assert rel(dtau_dq, cs_q) < CS_TOL
    assert rel(dtau_dv, cs_v) < CS_TOL


@pytest.mark.parametrize("seed", range(10))
def test_directional_derivative_wrt_model_parameters(seed):
    """p = a body mass, a COM coordinate, an inertia entry, a link placement (eq. (92))."""
    rng, model, q, dq, ddq, _, f = case(seed, n=4)
    k = int(rng.integers(1, model.nbodies + 1))
    for j in (0, 1, 4, 9):                          # mass, m c_x, Ixx, Izz
        e = np.zeros(10)
        e[j] = 1.0
        dI = np.zeros((model.nbodies, 6, 6))
        dI[k - 1] = from_parameters(e)

        def with_param(eps):
            m2 = copy.deepcopy(model)
            m2.inertias[k] = from_parameters(to_parameters(model.inertias[k]) + eps * e)
            return rnea(m2, q, dq, ddq, f)
        fd = (with_param(H) - with_param(-H)) / (2 * H)
        assert rel(rnea_derivative(model, q, dq, ddq, delta_I=dI, f_ext=f), fd) < FD_TOL
    xi = rng.normal(size=6)                         # a placement moving along a twist (e.g. a length)
    dX = np.zeros((model.nbodies, 6))
    dX[k - 1] = xi

    def with_X(eps):
        m2 = copy.deepcopy(model)
        m2.placements[k] = model.placements[k] @ exp_se3(eps * xi)
        return rnea(m2, q, dq, ddq, f)
    fd = (with_X(H) - with_X(-H)) / (2 * H)
    assert rel(rnea_derivative(model, q, dq, ddq, delta_X=dX, f_ext=f), fd) < FD_TOL
    df = rng.normal(size=(model.nbodies, 6))
    fd = (rnea(model, q, dq, ddq, f + H * df) - rnea(model, q, dq, ddq, f - H * df)) / (2 * H)
    assert rel(rnea_derivative(model, q, dq, ddq, delta_f_ext=df, f_ext=f), fd) < FD_TOL


@pytest.mark.parametrize("seed", range(10))
def test_inertial_partials_are_the_regressor(seed):
    _, model, q, dq, ddq, _, _ = case(seed)
    Y = rnea_inertial_partials(model, q, dq, ddq)
    pi = np.concatenate([to_parameters(I) for I in model.inertias[1:]])
    assert Y.shape == (model.nv, 10 * model.nbodies)
    assert rel(Y @ pi, rnea(model, q, dq, ddq)) < 1e-12


@pytest.mark.parametrize("seed", range(20))
def test_aba_partials(seed):
    _, model, q, dq, _, tau, f = case(seed)
    a_q, a_v, Minv = aba_partials(model, q, dq, tau, f)
    assert rel(a_q, fd_q(model, lambda x: aba(model, x, dq, tau, f), q)) < FD_TOL
    assert rel(a_v, fd_v(model, lambda x: aba(model, q, x, tau, f), dq)) < FD_TOL
    assert rel(Minv @ mass_matrix(model, q), np.eye(model.nv)) < 1e-10
    # consistency with the inverse-dynamics partials at ddq = aba(...)
    ddq = aba(model, q, dq, tau, f)
    dtau_dq, _, M = rnea_partials(model, q, dq, ddq, f)
    assert rel(M @ a_q, -dtau_dq) < 1e-10
    # one direction through aba_derivative
    d = np.random.default_rng(seed).normal(size=(3, model.nv))
    want = a_q @ d[0] + a_v @ d[1] + Minv @ d[2]
    got = aba_derivative(model, q, dq, tau, delta_q=d[0], delta_dq=d[1], delta_tau=d[2], f_ext=f)
    assert rel(got, want) < 1e-10


@pytest.mark.parametrize("seed", range(15))
def test_hybrid_partials(seed):
    rng, model, q, dq, ddq, tau, _ = case(seed)
    mask = rng.uniform(size=model.nbodies) < 0.5

    def out(qq=q, vv=dq, a=ddq, t=tau):
        return np.concatenate(hybrid(model, qq, vv, a, t, mask))
    hp = hybrid_partials(model, q, dq, ddq, tau, mask)
    assert rel(np.concatenate([hp.dtau_dq, hp.dddq_dq]), fd_q(model, lambda x: out(qq=x), q)) < FD_TOL
    assert rel(np.concatenate([hp.dtau_ddq_dot, hp.dddq_ddq_dot]),
               fd_v(model, lambda x: out(vv=x), dq)) < FD_TOL
    u = np.concatenate([np.full(model.joints[i].nv, mask[i - 1]) for i in range(1, model.nbodies + 1)])
    x = np.where(u, ddq, tau)
    fd_in = fd_v(model, lambda y: out(a=np.where(u, y, ddq), t=np.where(u, tau, y)), x)
    assert rel(np.concatenate([hp.dtau_dinput, hp.dddq_dinput]), fd_in) < FD_TOL
    d = rng.normal(size=model.nv)
    dt, da = hybrid_derivative(model, q, dq, ddq, tau, mask, delta_q=d)
    assert rel(np.concatenate([dt, da]), np.concatenate([hp.dtau_dq, hp.dddq_dq]) @ d) < 1e-10


PIN_KINDS = ("revolute", "prismatic", "helical", "spherical", "free")   # dS = 0 joints


@pytest.mark.parametrize("seed", range(30))
def test_partials_match_pinocchio(seed):
    """Depth-first trees (chains) of joints with constant S: where Pinocchio's derivatives are right."""
    rng = np.random.default_rng(1000 + seed)
    model = random_tree(int(rng.integers(1, 8)), rng, joint_types=PIN_KINDS, branching=0.0)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp, ap = state_to_pin(model, q, dq, ddq)
    B = velocity_map(model, q)
    pin.computeRNEADerivatives(pm, data, qp, vp, ap)
    dtau_dq_pin, dtau_dv_pin = data.dtau_dq.copy(), data.dtau_dv.copy()
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq)
    assert rel(dtau_dq, B.T @ dtau_dq_pin @ B) < 1e-9
    assert rel(dtau_dv, B.T @ dtau_dv_pin @ B) < 1e-9
    tau_pin = pin.rnea(pm, data, qp, vp, ap)
    pin.computeABADerivatives(pm, data, qp, vp, tau_pin)
    a_q, a_v, _ = aba_partials(model, q, dq, B.T @ tau_pin)
    assert rel(a_q, np.linalg.solve(B, data.ddq_dq.copy() @ B)) < 1e-9
    assert rel(a_v, np.linalg.solve(B, data.ddq_dv.copy() @ B)) < 1e-9


def test_batched_partials_equal_looped():
    rng = np.random.default_rng(5)
    model = random_tree(4, rng)
    Q = np.stack([model.random_configuration(rng) for _ in range(3)])
    V, A = rng.normal(size=(2, 3, model.nv))
    batched = rnea_partials(model, Q, V, A)
    for k in range(3):
        for got, want in zip(batched, rnea_partials(model, Q[k], V[k], A[k])):
            assert rel(got[k], want) < 1e-13


def test_closed_form_pendulum():
    """tau = m l^2 ddq + m g l sin q: d tau/dq = m g l cos q, d tau/d ddq = m l^2."""
    m, l, g, q = 2.0, 0.5, 9.81, 0.7
    dtau_dq, dtau_dv, M = rnea_partials(pendulum(m, l, g), [q], [0.3], [1.0])
    assert abs(dtau_dq[0, 0] - m * g * l * np.cos(q)) < 1e-12
    assert abs(dtau_dv[0, 0]) < 1e-15 and abs(M[0, 0] - m * l ** 2) < 1e-12


def test_bad_inputs():
    model = pendulum()
    with pytest.raises(ValueError, match="delta_q"):
        rnea_derivative(model, [0.0], [0.0], [0.0], delta_q=[1.0, 2.0])
    with pytest.raises(ValueError, match="delta_I"):
        rnea_derivative(model, [0.0], [0.0], [0.0], delta_I=np.zeros((2, 6, 6)))
    with pytest.raises(ValueError, match="NaN"):
        rnea_partials(model, [np.nan], [0.0], [0.0])
    with pytest.raises(ValueError, match="prescribed"):
        hybrid_partials(model, [0.0], [0.0], [0.0], [0.0], [True, False])
