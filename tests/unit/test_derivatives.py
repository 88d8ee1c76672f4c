"""Derivatives of the dynamics (Kim (2012), Section 4) against finite differences on the manifold,
complex step, Pinocchio's computeRNEADerivatives / computeABADerivatives and finite differences
of Pinocchio's rnea / aba; derivatives of constrained forward dynamics (Section 3.2) on the
closed-chain robots.

Tolerances follow from the method: complex step (``h = 1e-30``, no subtraction) is exact to
round-off, so ``CS_TOL = 1e-12`` relative leaves room for the conditioning of ``M`` and of the KKT
matrix; central differences with ``H = 1e-6`` have truncation ``O(H^2) ~ 1e-12`` and round-off
``O(eps |f| / H) ~ 1e-10 |f|``, so ``FD_TOL = 1e-6`` relative.
"""
import copy
import warnings

import numpy as np
import pinocchio as pin
import pytest

from liedyn.constrained_derivatives import constrained_forward_partials
from liedyn.constrained_dynamics import constrained_forward
from liedyn.constraints import LoopClosure, Pfaffian, constraint_drift, constraint_jacobian
from liedyn.crba import mass_matrix
from liedyn.derivatives import (
    aba_derivative,
    aba_partials,
    hybrid_derivative,
    hybrid_partials,
    rnea_derivative,
    rnea_inertial_partials,
    rnea_partials,
)
from liedyn.forward_dynamics import aba
from liedyn.hybrid_dynamics import hybrid
from liedyn.inertia import from_parameters, spatial_inertia, to_parameters
from liedyn.inverse_dynamics import rnea
from liedyn.lie import exp_se3, skew, unskew
from liedyn.robots import (
    JOINT_TYPES,
    five_bar,
    four_bar,
    pendulum,
    random_tree,
    rolling_disk,
    spatial_four_bar,
)

from common import is_depth_first
from common import relerr as rel
from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map

H = 1e-6          # central differences: truncation ~ H^2, round-off ~ eps / H
FD_TOL = 1e-6     # relative
CS_TOL = 1e-12    # complex step is exact to round-off
CS_H = 1e-30
ALL = list(JOINT_TYPES)   # every joint type, Fixed included


def derivative_case(seed, kinds=ALL, n=None):
    rng = np.random.default_rng(seed)
    model = random_tree(n or int(rng.integers(1, 7)), rng, joint_types=kinds)
    while model.nv == 0:                            # all Fixed: nothing to differentiate
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


def cs_q(model, fun, q):
    """Complex step on the manifold: Im fun(q (+) i h e_k) / h (quaternions stay unit to O(h^2))."""
    qc = q.astype(complex)
    return np.stack([fun(model.integrate(qc, 1j * CS_H * e)).imag / CS_H
                     for e in np.eye(model.nv)], axis=-1)


def cs_v(model, fun, x):
    return np.stack([fun(x + 1j * CS_H * e).imag / CS_H for e in np.eye(model.nv)], -1)


def joint_counts(model):
    return {type(j).__name__ for j in model.joints[1:]}


@pytest.mark.parametrize("seed", range(25))
def test_rnea_partials_vs_finite_differences(seed):
    _, model, q, dq, ddq, _, f = derivative_case(seed)
    dtau_dq, dtau_dv, M = rnea_partials(model, q, dq, ddq, f)
    assert rel(dtau_dq, fd_q(model, lambda x: rnea(model, x, dq, ddq, f), q)) < FD_TOL
    assert rel(dtau_dv, fd_v(model, lambda x: rnea(model, q, x, ddq, f), dq)) < FD_TOL
    assert rel(M, mass_matrix(model, q)) < 1e-12


@pytest.mark.parametrize("seed", range(15))
def test_rnea_partials_vs_complex_step(seed):
    """Every joint type, quaternion (spherical, free) and Fixed joints included: q moves on the
    manifold by model.integrate(q.astype(complex), i h e_k)."""
    _, model, q, dq, ddq, _, f = derivative_case(seed, n=5)
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq, f)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)    # no silent real casts
        want_q = cs_q(model, lambda x: rnea(model, x, dq, ddq, f), q)
        want_v = cs_v(model, lambda x: rnea(model, q, x, ddq, f), dq)
    assert rel(dtau_dq, want_q) < CS_TOL
    assert rel(dtau_dv, want_v) < CS_TOL


def test_complex_step_covers_lie_group_and_fixed_joints():
    """The seeds above do draw spherical, free and Fixed joints."""
    kinds = set().union(*(joint_counts(derivative_case(seed, n=5)[1]) for seed in range(15)))
    assert {"Spherical", "Free", "Fixed", "SphericalExp", "Planar"} <= kinds


@pytest.mark.parametrize("seed", range(10))
def test_directional_derivative_wrt_model_parameters(seed):
    """p = a body mass, a COM coordinate, an inertia entry, a link placement (eq. (92))."""
    rng, model, q, dq, ddq, _, f = derivative_case(seed, n=4)
    k = int(rng.integers(1, model.nbodies + 1))
    for j in (0, 1, 4, 9):                          # mass, m c_x, Ixx, Izz
        e = np.zeros(10)
        e[j] = 1.0
        dI = np.zeros((model.nbodies, 6, 6))
        dI[k - 1] = from_parameters(e)

        def with_param(eps, e=e):
            m2 = copy.deepcopy(model)
            m2.inertias[k] = from_parameters(to_parameters(model.inertias[k]) + eps * e)
            return rnea(m2, q, dq, ddq, f)
        fd = (with_param(H) - with_param(-H)) / (2 * H)
        assert rel(rnea_derivative(model, q, dq, ddq, delta_I=dI, f_ext=f), fd) < FD_TOL
    xi = rng.normal(size=6)             # a placement moving along a twist (e.g. a length)
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
    _, model, q, dq, ddq, _, _ = derivative_case(seed)
    Y = rnea_inertial_partials(model, q, dq, ddq)
    pi = np.concatenate([to_parameters(I) for I in model.inertias[1:]])
    assert Y.shape == (model.nv, 10 * model.nbodies)
    assert rel(Y @ pi, rnea(model, q, dq, ddq)) < 1e-12


def split_inertia(I):
    """(m, c, I_com) of a generalized inertia (inverse of spatial_inertia with R = 1)."""
    m = I[3, 3]
    c = unskew(I[:3, 3:]) / m
    return m, c, I[:3, :3] - m * skew(c).T @ skew(c)


def parameter_cases(model, k, rng):
    """p = the mass, a COM coordinate, an inertia entry of body k and the length of the offset of
    a joint from its parent body (joint k, or the last joint not on the ground: a root offset only
    translates the whole tree, which uniform gravity does not feel), each as
    (model(p) for complex or real p, the eq. (92) arguments)."""
    m, c, Ic = split_inertia(model.inertias[k])
    j = int(rng.integers(3))
    E = np.zeros((3, 3))
    E[0, 1] = E[1, 0] = 1.0                              # the entry I_xy (and I_yx) of I_com
    inertia_of = {"mass": lambda p: spatial_inertia(m + p, c, Ic),
                  "com": lambda p: spatial_inertia(m, c + p * np.eye(3)[j], Ic),
                  "inertia entry": lambda p: spatial_inertia(m, c, Ic + p * E)}
    out = {}
    for name, fun in inertia_of.items():
        dI = np.zeros((model.nbodies, 6, 6))
        dI[k - 1] = fun(1j * CS_H).imag / CS_H          # dI_k/dp: exact (spatial_inertia is linear
                                                        # in m and I_com, quadratic in c)

        def moved(p, fun=fun):
            m2 = copy.deepcopy(model)
            m2.inertias[k] = fun(p)
            return m2
        out[name] = (moved, {"delta_I": dI})
    kl = k if model.parent[k] else max([i for i in range(1, model.nbodies + 1)
                                          if model.parent[i]], default=k)
    X = model.placements[kl]                             # X(L) = (R, L u): L = |p|, u = p / |p|
    L = np.linalg.norm(X[:3, 3])
    u = X[:3, 3] / L
    dX = np.zeros((model.nbodies, 6))
    dX[kl - 1, 3:] = X[:3, :3].T @ u                     # X^-1 dX/dL = (0, R^T u)

    def moved_length(p):
        m2 = copy.deepcopy(model)
        T = X.astype(np.result_type(p, float))
        T[:3, 3] = (L + p) * u
        m2.placements[kl] = T
        return m2
    out["link length"] = (moved_length, {"delta_X": dX})
    return out


@pytest.mark.parametrize("seed", range(8))
def test_aba_and_hybrid_derivative_wrt_model_parameters(seed):
    """Table 6/7 quantities w.r.t. a mass, a COM coordinate, an inertia entry and a link length,
    against complex step (complex parameter; a complex q of zero imaginary part makes the
    algorithms' work arrays complex) and central differences."""
    rng, model, q, dq, ddq, tau, f = derivative_case(100 + seed, n=4)
    k = int(rng.integers(1, model.nbodies + 1))
    mask = rng.uniform(size=model.nbodies) < 0.5
    qc = q.astype(complex)
    for name, (moved, kw) in parameter_cases(model, k, rng).items():
        got_a = aba_derivative(model, q, dq, tau, f_ext=f, **kw)
        got_h = np.concatenate(hybrid_derivative(model, q, dq, ddq, tau, mask, f_ext=f, **kw))

        def out(p, x, moved=moved):
            m2 = moved(p)
            return (aba(m2, x, dq, tau, f), np.concatenate(hybrid(m2, x, dq, ddq, tau, mask, f)))
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            cs = [y.imag / CS_H for y in out(1j * CS_H, qc)]
        fd = [(yp - ym) / (2 * H) for yp, ym in zip(out(H, q), out(-H, q), strict=True)]
        assert rel(got_a, cs[0]) < CS_TOL, name
        assert rel(got_h, cs[1]) < CS_TOL, name
        assert rel(got_a, fd[0]) < FD_TOL, name
        assert rel(got_h, fd[1]) < FD_TOL, name


@pytest.mark.parametrize("seed", range(20))
def test_aba_partials(seed):
    _, model, q, dq, _, tau, f = derivative_case(seed)
    a_q, a_v, Minv = aba_partials(model, q, dq, tau, f)
    assert rel(a_q, fd_q(model, lambda x: aba(model, x, dq, tau, f), q)) < FD_TOL
    assert rel(a_v, fd_v(model, lambda x: aba(model, q, x, tau, f), dq)) < FD_TOL
    assert rel(Minv @ mass_matrix(model, q), np.eye(model.nv)) < 1e-10
    # an independent reference: complex step of the articulated-body algorithm itself (aba_partials
    # is built from rnea_partials, so M a_q == -dtau_dq would only restate its definition)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        assert rel(a_q, cs_q(model, lambda x: aba(model, x, dq, tau, f), q)) < CS_TOL
        assert rel(a_v, cs_v(model, lambda x: aba(model, q, x, tau, f), dq)) < CS_TOL
        assert rel(Minv, cs_v(model, lambda x: aba(model, q, dq, x, f), tau)) < CS_TOL
    # one direction through aba_derivative
    d = np.random.default_rng(seed).normal(size=(3, model.nv))
    want = a_q @ d[0] + a_v @ d[1] + Minv @ d[2]
    got = aba_derivative(model, q, dq, tau, delta_q=d[0], delta_dq=d[1], delta_tau=d[2], f_ext=f)
    assert rel(got, want) < 1e-10


@pytest.mark.parametrize("seed", range(15))
def test_hybrid_partials(seed):
    rng, model, q, dq, ddq, tau, _ = derivative_case(seed)
    mask = rng.uniform(size=model.nbodies) < 0.5

    def out(qq=q, vv=dq, a=ddq, t=tau):
        return np.concatenate(hybrid(model, qq, vv, a, t, mask))
    hp = hybrid_partials(model, q, dq, ddq, tau, mask)
    assert rel(np.concatenate([hp.dtau_dq, hp.dddq_dq]),
               fd_q(model, lambda x: out(qq=x), q)) < FD_TOL
    assert rel(np.concatenate([hp.dtau_ddq_dot, hp.dddq_ddq_dot]),
               fd_v(model, lambda x: out(vv=x), dq)) < FD_TOL
    u = np.concatenate([np.full(model.joints[i].nv, mask[i - 1])
                        for i in range(1, model.nbodies + 1)])
    x = np.where(u, ddq, tau)
    fd_in = fd_v(model, lambda y: out(a=np.where(u, y, ddq), t=np.where(u, tau, y)), x)
    assert rel(np.concatenate([hp.dtau_dinput, hp.dddq_dinput]), fd_in) < FD_TOL
    d = rng.normal(size=model.nv)
    dt, da = hybrid_derivative(model, q, dq, ddq, tau, mask, delta_q=d)
    assert rel(np.concatenate([dt, da]), np.concatenate([hp.dtau_dq, hp.dddq_dq]) @ d) < 1e-10


PIN_KINDS = ("revolute", "prismatic", "helical", "spherical", "free")   # dS = 0 joints


@pytest.mark.parametrize("seed", range(30))
def test_partials_match_pinocchio(seed):
    """Depth-first trees (chains) of joints with constant S: where Pinocchio's derivatives are
    right."""
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


PIN_FD_KINDS = ("universal", "spherical_zyx", "planar", "revolute", "prismatic", "helical",
                "spherical", "spherical_exp", "free")


@pytest.mark.parametrize("seed", range(8))
def test_partials_match_finite_differences_of_pinocchio(seed):
    """Where Pinocchio's analytic derivatives are wrong (trees not numbered depth-first; universal,
    ZYX and planar joints, whose dS/dq they drop): central differences of Pinocchio's rnea and
    aba, composed with the state maps of pinocchio_bridge and moved on liedyn's manifold."""
    rng = np.random.default_rng(4000 + seed)
    model = random_tree(7, rng, joint_types=PIN_FD_KINDS, branching=0.7)
    while (is_depth_first(model)
           or not joint_counts(model) & {"Universal", "SphericalZYX", "Planar"}):
        model = random_tree(7, rng, joint_types=PIN_FD_KINDS, branching=0.7)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    pm = to_pinocchio(model)
    data = pm.createData()

    def tau_pin(x=q, v=dq):                   # liedyn's torque from Pinocchio's rnea
        qp, vp, ap = state_to_pin(model, x, v, ddq)
        return velocity_map(model, x).T @ pin.rnea(pm, data, qp, vp, ap)

    def ddq_pin(x=q, v=dq):                   # liedyn's acceleration from Pinocchio's aba
        B = velocity_map(model, x)
        qp, vp, dBdq = state_to_pin(model, x, v, np.zeros(model.nv))   # a_pin = B ddq + dB dq
        a_pin = pin.aba(pm, data, qp, vp, np.linalg.solve(B.T, tau))
        return np.linalg.solve(B, a_pin - dBdq)
    assert rel(rnea(model, q, dq, ddq), tau_pin()) < 1e-10          # the maps are right
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq)
    assert rel(dtau_dq, fd_q(model, lambda x: tau_pin(x=x), q)) < FD_TOL
    assert rel(dtau_dv, fd_v(model, lambda v: tau_pin(v=v), dq)) < FD_TOL
    a_q, a_v, _ = aba_partials(model, q, dq, tau)
    assert rel(a_q, fd_q(model, lambda x: ddq_pin(x=x), q)) < FD_TOL
    assert rel(a_v, fd_v(model, lambda v: ddq_pin(v=v), dq)) < FD_TOL


def test_batched_partials_equal_looped():
    rng = np.random.default_rng(5)
    model = random_tree(4, rng)
    Q = np.stack([model.random_configuration(rng) for _ in range(3)])
    V, A = rng.normal(size=(2, 3, model.nv))
    batched = rnea_partials(model, Q, V, A)
    for k in range(3):
        for got, want in zip(batched, rnea_partials(model, Q[k], V[k], A[k]), strict=True):
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


# --- constrained forward dynamics (Kim (2012), Section 3.2) -----------------------------------
CLOSED_CHAINS = {"four_bar": four_bar, "five_bar": five_bar, "spatial_four_bar": spatial_four_bar,
                 "rolling_disk": rolling_disk}


def constrained_case(name, seed=0):
    """A closed-chain robot at a state near (not on) its constraint manifold: the KKT system and
    its derivatives are defined there too, and a generic state exercises every term."""
    model, cons, q0 = CLOSED_CHAINS[name]()
    rng = np.random.default_rng(seed)
    q = model.integrate(q0, 0.05 * rng.normal(size=model.nv))
    dq, tau = rng.normal(size=(2, model.nv))
    return model, cons, q, dq, tau, rng.normal(size=(model.nbodies, 6))


def stacked(P):
    """(d(ddq, lam)/dq, d(ddq, lam)/d(dq), d(ddq, lam)/dtau), each (nv + m, nv)."""
    return [np.concatenate([P.dddq_dq, P.dlam_dq]),
            np.concatenate([P.dddq_ddq_dot, P.dlam_ddq_dot]),
            np.concatenate([P.dddq_dtau, P.dlam_dtau])]


def kkt_forward(model, cons, q, dq, tau, f, baumgarte):
    """(ddq, lam) from Kim (2012), eqs. (54)-(55) as one dense solve,
    ``[[M, -A^T], [A, 0]] [ddq; lam] = [tau - b; -(dA dq + 2 alpha A dq)]``, written here from
    dtype-generic pieces (CRBA, RNEA, the constraint objects' A and drift) so that complex step
    goes through: liedyn.constraints' solvers use real work arrays (they raise ComplexWarning)."""
    A, c = constraint_jacobian(model, cons, q), constraint_drift(model, cons, q, dq)
    if baumgarte is not None:
        assert baumgarte[1] == 0, "the residual's log_so3 is real-only"
        c = c + 2 * baumgarte[0] * A @ dq
    M, b = mass_matrix(model, q), rnea(model, q, dq, np.zeros(model.nv), f)
    K = np.block([[M, -A.T], [A, np.zeros((len(c), len(c)))]])
    return np.linalg.solve(K, np.concatenate([tau - b, -c]))


def constrained_reference(model, cons, q, dq, tau, f, baumgarte, method):
    """The same three matrices by central differences of constrained_forward (the recursive
    method of Section 3.2; q on the manifold) or by complex step of the dense KKT solve."""
    def out(x=q, v=dq, t=tau):
        if method == "cs":
            return kkt_forward(model, cons, x, v, t, f, baumgarte)
        return np.concatenate(constrained_forward(model, cons, x, v, t, f, baumgarte,
                                                  velocity_tol=None))
    if method == "fd":
        return [fd_q(model, lambda x: out(x=x), q), fd_v(model, lambda v: out(v=v), dq),
                fd_v(model, lambda t: out(t=t), tau)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        return [cs_q(model, lambda x: out(x=x), q), cs_v(model, lambda v: out(v=v), dq),
                cs_v(model, lambda t: out(t=t), tau)]


@pytest.mark.parametrize("baumgarte", [None, (2.0, 3.0)])
@pytest.mark.parametrize("name", list(CLOSED_CHAINS))
def test_constrained_forward_partials_vs_finite_differences(name, baumgarte):
    """Planar loop (four-bar: 2 rows; five-bar: a planar weld, 3 rows), spatial RSSR (a spherical
    cut, with a quaternion joint) and the rolling disk (non-holonomic Pfaffian, whose callables
    the function itself differentiates by central differences), with and without Baumgarte terms."""
    model, cons, q, dq, tau, f = constrained_case(name)
    P = constrained_forward_partials(model, cons, q, dq, tau, f, baumgarte, velocity_tol=None)
    want = constrained_forward(model, cons, q, dq, tau, f, baumgarte, velocity_tol=None)
    assert rel(np.concatenate([P.ddq, P.lam]), np.concatenate(want)) < 1e-14
    for got, want in zip(stacked(P), constrained_reference(model, cons, q, dq, tau, f, baumgarte,
                                                           "fd"), strict=True):
        assert rel(got, want) < FD_TOL


@pytest.mark.parametrize("baumgarte", [None, (2.0, 0.0)])
@pytest.mark.parametrize("name", ["four_bar", "five_bar", "spatial_four_bar"])
def test_constrained_forward_partials_vs_complex_step(name, baumgarte):
    """Loop closures are analytic throughout, so complex step checks them to round-off (of the
    dense KKT solve: see kkt_forward). beta = 0: the residual's log_so3 is real-only. Not the
    rolling disk: Pfaffian casts its callables' output to float."""
    model, cons, q, dq, tau, f = constrained_case(name, seed=1)
    P = constrained_forward_partials(model, cons, q, dq, tau, f, baumgarte, velocity_tol=None)
    for got, want in zip(stacked(P), constrained_reference(model, cons, q, dq, tau, f, baumgarte,
                                                           "cs"), strict=True):
        assert rel(got, want) < CS_TOL


def random_loop_case(seed):
    """A random tree (every joint type, Fixed included) with a loop closure between two random
    bodies (or a body and the ground) through random frames on a random subset of the six axes,
    and on odd seeds a Pfaffian row as well (holonomic, with a residual, on seeds 1 and 5);
    redrawn until A M^-1 A^T is regular."""
    rng = np.random.default_rng(500 + seed)
    while True:
        model = random_tree(int(rng.integers(3, 6)), rng, joint_types=ALL)
        N = model.nbodies
        a = int(rng.integers(0, N))
        b = int(rng.integers(a + 1, N + 1))
        axes = rng.choice(6, size=int(rng.integers(1, 5)), replace=False).tolist()
        cons = [LoopClosure(a, b, exp_se3(rng.normal(size=6)), exp_se3(rng.normal(size=6)), axes)]
        if seed % 2:
            a0, a1 = rng.normal(size=(2, model.nv))
            k = int(rng.integers(model.nq))
            def A(q, k=k, a0=a0, a1=a1):
                return (a0 + np.sin(q[..., k, None]) * a1)[..., None, :]

            def drift(q, dq, k=k, a1=a1):
                return (np.cos(q[..., k]) * (dq @ a1) * dq[..., 0])[..., None]

            def residual(q, k=k):
                return np.cos(q[..., k, None]) + q[..., :1] ** 2
            cons.append(Pfaffian(A, drift, m=1, residual=residual if seed % 4 == 1 else None))
        q = model.random_configuration(rng)
        dq, tau = rng.normal(size=(2, model.nv))
        f = rng.normal(size=(N, 6))
        try:
            constrained_forward(model, cons, q, dq, tau, f, velocity_tol=None)
        except ValueError:
            continue
        return model, cons, q, dq, tau, f


@pytest.mark.parametrize("seed", range(6))
def test_constrained_forward_partials_on_random_loops(seed):
    model, cons, q, dq, tau, f = random_loop_case(seed)
    loops_only = all(isinstance(c, LoopClosure) for c in cons)
    baumgarte = (1.5, 2.0 if seed % 3 == 1 else 0.0) if seed % 3 else None
    P = constrained_forward_partials(model, cons, q, dq, tau, f, baumgarte, velocity_tol=None)
    got = stacked(P)
    fd = constrained_reference(model, cons, q, dq, tau, f, baumgarte, "fd")
    for g, w in zip(got, fd, strict=True):
        assert rel(g, w) < FD_TOL
    if loops_only and not (baumgarte and baumgarte[1]):
        cs = constrained_reference(model, cons, q, dq, tau, f, baumgarte, "cs")
        for g, w in zip(got, cs, strict=True):
            assert rel(g, w) < CS_TOL


def test_constrained_forward_partials_structure():
    """d ddq/dtau keeps the constraint: A d(ddq)/dtau = 0, and it equals the projected inverse
    mass matrix M^-1 - M^-1 A^T (A M^-1 A^T)^-1 A M^-1 (Kim (2012), eqs. (67)-(69))."""
    for name in CLOSED_CHAINS:
        model, cons, q, dq, tau, f = constrained_case(name)
        P = constrained_forward_partials(model, cons, q, dq, tau, f, velocity_tol=None)
        A = np.concatenate([c.jacobian(model, q) for c in cons])
        Minv = np.linalg.inv(mass_matrix(model, q))
        G = A @ Minv @ A.T
        assert rel(A @ P.dddq_dtau, 0 * A) < 1e-12
        assert rel(P.dddq_dtau, Minv - Minv @ A.T @ np.linalg.solve(G, A @ Minv)) < 1e-10
        assert rel(P.dlam_dtau, -np.linalg.solve(G, A @ Minv)) < 1e-10


def test_constrained_forward_partials_batched_equal_looped():
    model, cons, q0 = spatial_four_bar()
    rng = np.random.default_rng(7)
    Q = np.stack([model.integrate(q0, 0.1 * rng.normal(size=model.nv)) for _ in range(3)])
    V, T = rng.normal(size=(2, 3, model.nv))
    batched = constrained_forward_partials(model, cons, Q, V, T, baumgarte=(1.0, 2.0))
    for k in range(3):
        single = constrained_forward_partials(model, cons, Q[k], V[k], T[k], baumgarte=(1.0, 2.0))
        for name in single.__dataclass_fields__:
            assert rel(getattr(batched, name)[k], getattr(single, name)) < 1e-13


def test_constrained_forward_partials_bad_inputs():
    model, cons, q0 = four_bar()
    with pytest.raises(TypeError, match="LoopClosure or Pfaffian"):
        constrained_forward_partials(model, [object()], q0, np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="tau"):
        constrained_forward_partials(model, cons, q0, np.zeros(3), np.zeros(2))
    redundant = cons + [LoopClosure("coupler", "rocker", frame_a=cons[0].frame_a,
                                    frame_b=cons[0].frame_b, axes=("vx",))]
    with pytest.raises(ValueError, match="singular"):
        constrained_forward_partials(model, redundant, q0, np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="inconsistent"):              # A dq != 0, no Baumgarte
        constrained_forward_partials(model, cons, q0, np.ones(3), np.zeros(3))
