"""Analytic derivatives of inverse, forward and hybrid dynamics, Kim (2012), Section
4; derived in :ref:`sec-derivatives`.

Everything rests on Lemma 3 and its corollaries (Kim's eqs. (81)-(91)): for ``T =
T_{lambda(i),i}`` depending on a scalar ``p``, ``d/dp Ad_{T^-1} = -ad_{dh}
Ad_{T^-1}`` and ``d/dp Ad*_{T^-1} = -Ad*_{T^-1} ad*_{dh}`` with ``dh = T^-1 dT/dp``
(Kim's eq. (89)); for ``p = q_i^k``, ``dh = S_i^k`` (Kim's eq. (90)).
:func:`rnea_derivative` differentiates every line of Table 2 (Table 5), for one
direction or a batch of them (a leading axis of the ``delta_*`` arguments): the full
matrices of :func:`rnea_partials` are one such batch.

``delta_q`` lives in the tangent space: ``dq/dp`` for vector-space joints, the body
rotation or twist ``v`` with ``q(p) = q exp(p v)`` for spherical and free joints (as
:meth:`liedyn.model.Model.integrate`). ``delta_X[i-1] = X_i^-1 dX_i/dp``,
``delta_I[i-1] = dI_i/dp``, ``delta_f_ext[i-1] = dF^ext_i/dp`` (Kim eq. (92));
``None`` is zero, and the terms it feeds are skipped. Forward and hybrid dynamics
are differentiated implicitly, ``d ddq/dp = M^-1 (dtau/dp - dID/dp)``: the
quantities of Tables 6-7. Constrained forward dynamics is differentiated through its
KKT system (Kim's eqs. (54)-(55)); only :class:`~liedyn.constraints.Pfaffian`
callables are differenced numerically.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from .engine import dispatch as _exec
from ._spatial import (Ad_inv_mul, Ad_mul, Ad_star_inv_mul, Ad_star_mul, ad_mul,
                       ad_star_mul, cross, inverse, matvec, tr)
from .forward_dynamics import aba, inverse_mass_matrix
from .constraints import (VELOCITY_TOL, LoopClosure, Pfaffian, _constraint_list,
                          constrained_forward, constraint_jacobian)
from .crba import mass_matrix
from .hybrid_dynamics import check_prescribed, hybrid
from .inertia import from_parameters
from .kinematics import forward_kinematics
from .lie import dexp_inv_so3, log_so3
from .model import state
from .inverse_dynamics import gravity_acceleration, rnea_pass

__all__ = ["rnea_derivative", "rnea_partials", "rnea_inertial_partials",
           "aba_derivative", "aba_partials", "hybrid_derivative", "hybrid_partials",
           "HybridPartials", "constrained_forward_partials",
           "ConstrainedForwardPartials", "PFAFFIAN_STEP"]

PFAFFIAN_STEP = np.finfo(float).eps ** (1 / 3)
"""Central-difference step for Pfaffian callables: truncation ``O(h^2)`` and
round-off ``O(eps/h)`` balance near ``1e-10`` relative."""


def _optional(model, name, x, tail):
    return None if x is None else _checks.array(name, x, tail)


def rnea_derivative(model, q, dq, ddq, delta_q=None,
                    delta_dq=None, delta_ddq=None,
                    delta_I=None, delta_f_ext=None,
                    delta_X=None, f_ext=None):
    """Directional derivative ``dtau/dp`` of inverse dynamics: Kim (2012), Table 5.

    With ``A = Ad_{T^-1}``, ``dh_i = S_i delta_q_i + Ad_{J_i^-1} delta_X_i`` and
    primes for ``d/dp``: forward, ``V_i' = A V'_lambda - ad_{dh_i} A V_lambda + S_i'
    dq_i + S_i delta_dq_i`` and likewise Kim eq. (41); backward, the derivative of
    Kim eq. (42), ``F_i' = I_i' dV_i + I_i dV_i' - ad*_{V_i'} I_i V_i - ad*_{V_i}
    (I_i' V_i + I_i V_i') - F_i^ext' + sum_k Ad*_{T_{i,k}^-1} (F_k' - ad*_{dh_k}
    F_k)``, ``tau_i' = S_i'^T F_i + S_i^T F_i'``, with ``S_i' = dS(q_i, delta_q_i)``
    and ``dS_i' = d2S(q_i, dq_i, delta_q_i) + dS(q_i, delta_dq_i)``.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array
    delta_q, delta_dq, delta_ddq : (..., nv) arrays, optional
        derivatives of the state (``delta_q`` in the tangent space)
    delta_I : (..., N, 6, 6) array;  delta_f_ext, delta_X : (..., N, 6) arrays
        optional model derivatives (Kim eq. (92))

    Returns
    -------
    dtau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> # tau = ddq + 10 sin(q)
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)
    >>> # 10 cos(0)
    >>> float(rnea_derivative(model, [0.0], [0.0], [0.0], delta_q=[1.0])[0])
    10.0
    """
    nominal = rnea_pass(model, q, dq, ddq, f_ext)
    q = model.check_q(q)
    dq, ddq = model.check_v(dq), model.check_v(ddq, "ddq")
    N = model.nbodies
    dl_I = _optional(model, "delta_I", delta_I, (N, 6, 6))
    dl_f = _optional(model, "delta_f_ext", delta_f_ext, (N, 6))
    dl_X = _optional(model, "delta_X", delta_X, (N, 6))
    fd = _table5_forward(model, nominal.forward, q, dq, ddq,
                         delta_q, delta_dq, delta_ddq, dl_X)
    return _table5_backward(model, nominal, fd, q, dl_I, dl_f)


@dataclass(frozen=True)
class _ForwardDerivative:
    """Per-body derivatives of Table 5's forward recursion (entry 0: the ground,
    zero): ``dh`` = ``h_i'`` (Kim's eq. (89)), ``S_p`` = ``S_i'``, ``V``, ``dV``
    and, if asked, ``xi[i] = T_{0,i}^-1 T_{0,i}'``, the body-frame twist of the pose
    of body ``i``.
    """

    dh: list
    S_p: list
    V: list
    dV: list
    xi: list


def _table5_forward(model, fw, q, dq, ddq, delta_q, delta_dq, delta_ddq, dl_X,
                    with_xi=False):
    """Table 5's forward half: the derivatives of Kim's eqs. (37) and (41)."""
    zero = np.zeros(model.nv)
    dl_q, dl_dq, dl_ddq = (
        zero if x is None else model.check_v(x, n)
        for x, n in ((delta_q, "delta_q"), (delta_dq, "delta_dq"),
                     (delta_ddq, "delta_ddq")))
    dh, S_p, dV, ddV, xi = ([None], [None], [np.zeros(6)], [np.zeros(6)],
                            [np.zeros(6)])
    for i in range(1, model.nbodies + 1):
        joint, lam = model.joints[i], model.parent[i]
        qs, vs = model.q_slice[i], model.v_slice[i]
        qi, dqi, ddqi = q[..., qs], dq[..., vs], ddq[..., vs]
        dqi_p, ddqi_p, dlq_i = dl_dq[..., vs], dl_ddq[..., vs], dl_q[..., vs]
        R, p, S, dS = fw.R[i], fw.p[i], fw.S[i], fw.dS[i]
        dh_i = matvec(S, dlq_i)                                          # (89)-(90)
        if dl_X is not None:
            Ji = joint.transform(qi)
            dh_i = dh_i + Ad_inv_mul(Ji[..., :3, :3], Ji[..., :3, 3],
                                     dl_X[..., i - 1, :])
        S_p_i = joint.dS(qi, dlq_i)                                 # dS_i/dp
        dS_p_i = joint.d2S(qi, dqi, dlq_i) + joint.dS(qi, dqi_p)    # d(dS_i)/dp
        Sdq_p = matvec(S_p_i, dqi) + matvec(S, dqi_p)               # d(S_i dq_i)/dp
        dV_i = (
            Ad_inv_mul(R, p, dV[lam])
            - ad_mul(dh_i, Ad_inv_mul(R, p, fw.V[lam]))
            + Sdq_p
        )  # (87) in (37)
        ddV_i = (
            Ad_inv_mul(R, p, ddV[lam])
            - ad_mul(dh_i, Ad_inv_mul(R, p, fw.dV[lam]))
            + matvec(S_p_i, ddqi)
            + matvec(S, ddqi_p)
            + ad_mul(dV_i, matvec(S, dqi))
            + ad_mul(fw.V[i], Sdq_p)
            + matvec(dS_p_i, dqi)
            + matvec(dS, dqi_p)
        )  # (87) in (41)
        dh.append(dh_i)
        S_p.append(S_p_i)
        dV.append(dV_i)
        ddV.append(ddV_i)
        if with_xi:                          # T_{0,i}' = T_{0,i} xi_i^, accumulated
            xi.append(Ad_inv_mul(R, p, xi[lam]) + dh_i)
    return _ForwardDerivative(dh, S_p, dV, ddV, xi if with_xi else None)


def _table5_backward(model, nominal, fd, q, dl_I, dl_f):
    """Table 5's backward half, the derivative of Kim's eq. (42): ``dtau``
    (..., nv)."""
    fw, N = nominal.forward, model.nbodies
    dF = [None] * (N + 1)
    dtau = []
    for i in range(N, 0, -1):
        I, V, F = model.inertias[i], fw.V[i], nominal.F[i]
        dF_i = (matvec(I, fd.dV[i]) - ad_star_mul(fd.V[i], matvec(I, V))
                - ad_star_mul(V, matvec(I, fd.V[i])))
        if dl_I is not None:
            dI = dl_I[..., i - 1, :, :]
            dF_i = dF_i + matvec(dI, fw.dV[i]) - ad_star_mul(V, matvec(dI, V))
        if dl_f is not None:
            dF_i = dF_i - dl_f[..., i - 1, :]
        for k in model.children[i]:                                           # (88)
            dF_i = dF_i + Ad_star_inv_mul(
                fw.R[k], fw.p[k], dF[k] - ad_star_mul(fd.dh[k], nominal.F[k]))
        dF[i] = dF_i
        dtau.append(matvec(tr(fd.S_p[i]), F) + matvec(tr(fw.S[i]), dF_i))
    dtau = dtau[::-1]
    batch = np.broadcast_shapes(q.shape[:-1], *[x.shape[:-1] for x in dtau])
    return np.concatenate(
        [np.zeros(batch + (0,))]
        + [np.broadcast_to(x, batch + x.shape[-1:]) for x in dtau],
        axis=-1,
    )


def _directions(model, q, *vectors):
    """The validated state with a direction axis, (..., 1, n): nv directions
    broadcast."""
    names = ("dq", "ddq", "tau") if len(vectors) == 3 else ("dq", "ddq")
    q = model.check_q(q)
    vectors = [model.check_v(v, name) for v, name in zip(vectors, names)]
    return [x[..., None, :] for x in [q] + vectors]


def rnea_partials(model, q, dq, ddq, f_ext=None):
    """Full partial derivatives of inverse dynamics: ``(dtau/dq, dtau/d(dq), M)``.

    Kim (2012), Table 5 with the ``nv`` unit directions of ``q``, ``dq`` and ``ddq``
    as one batch axis (``dtau/d(ddq) = M``); the compiled kernels compute the same
    matrices in the ground frame (:ref:`ch10-ground-frame`). ``dtau/dq`` is in the
    tangent space (as Pinocchio's ``computeRNEADerivatives``).

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array

    Returns
    -------
    dtau_dq, dtau_ddq_dot, M : (..., nv, nv) arrays, ``[..., i, k] = d tau_i / d
        x_k``

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> dq_, dv_, M = rnea_partials(pendulum(gravity=10.0), [0.0], [0.0], [0.0])
    >>> float(dq_[0, 0]), float(M[0, 0])
    (10.0, 1.0)
    """
    out = _exec.rnea_partials(model, q, dq, ddq, f_ext)   # the kernels, per state
    if out is not None:
        return out
    E = np.eye(model.nv)
    qx, dqx, ddqx = _directions(model, q, dq, ddq)
    fx = None if f_ext is None else model.check_f_ext(f_ext)[..., None, :, :]
    out = [tr(rnea_derivative(model, qx, dqx, ddqx, f_ext=fx, **{name: E}))
           for name in ("delta_q", "delta_dq", "delta_ddq")]
    return tuple(out)


def rnea_inertial_partials(model, q, dq, ddq, f_ext=None):
    """``dtau/dpi``: the joint-torque regressor ``Y`` with ``tau = Y pi`` (10 N
    parameters).

    Kim (2012), Table 5 and Kim's eq. (92), ``delta_I`` running over the 10 inertial
    parameters of each body (:func:`liedyn.inertia.from_parameters`), all ``10 N``
    directions as one batch axis. ``f_ext`` does not depend on ``pi``: ``Y pi =
    tau`` exactly without it.

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array

    Returns
    -------
    Y : (..., nv, 10 N) array

    Examples
    --------
    >>> from liedyn.inertia import to_parameters
    >>> from liedyn.inverse_dynamics import rnea
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(gravity=10.0)
    >>> Y = rnea_inertial_partials(model, [0.3], [0.5], [1.0])
    >>> Y.shape, bool(np.allclose(Y @ to_parameters(model.inertias[1]),
    ...                           rnea(model, [0.3], [0.5], [1.0])))
    ((1, 10), True)
    """
    N = model.nbodies
    basis = from_parameters(np.eye(10))                       # (10, 6, 6)
    dI = np.zeros((10 * N, N, 6, 6))
    for i in range(N):
        dI[10 * i:10 * i + 10, i] = basis
    qx, dqx, ddqx = _directions(model, q, dq, ddq)
    fx = None if f_ext is None else model.check_f_ext(f_ext)[..., None, :, :]
    return tr(rnea_derivative(model, qx, dqx, ddqx, delta_I=dI, f_ext=fx))


def aba_derivative(model, q, dq, tau, delta_q=None, delta_dq=None, delta_tau=None,
                   delta_I=None, delta_f_ext=None, delta_X=None, f_ext=None):
    """Directional derivative ``d(ddq)/dp`` of forward dynamics.

    The quantity of Kim (2012), Table 6, by implicit differentiation of ``M ddq + b
    = tau``: ``d(ddq)/dp = M^-1 (dtau/dp - r)``, ``r`` the Table 5 derivative at
    fixed ``ddq``.

    Parameters
    ----------
    q : (..., nq) array;  dq, tau : (..., nv) arrays;  f_ext : (..., N, 6) array
    delta_q, delta_dq, delta_tau : (..., nv) arrays, optional
    delta_I, delta_f_ext, delta_X : optional
        model derivatives, as in :func:`rnea_derivative` (Kim eq. (92))

    Returns
    -------
    dddq : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> # ddq = tau - 10 sin(q)
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)
    >>> float(aba_derivative(model, [0.0], [0.0], [0.0], delta_q=[1.0])[0])
    -10.0
    """
    ddq = aba(model, q, dq, tau, f_ext)
    r = rnea_derivative(model, q, dq, ddq, delta_q, delta_dq, None, delta_I,
                        delta_f_ext, delta_X, f_ext)
    rhs = -r if delta_tau is None else model.check_v(delta_tau, "delta_tau") - r
    M = mass_matrix(model, q)
    rhs, M = np.broadcast_to(rhs, np.broadcast_shapes(rhs.shape, M.shape[:-1])), M
    return np.linalg.solve(np.broadcast_to(M, rhs.shape + (model.nv,)),
                           rhs[..., None])[..., 0]


def aba_partials(model, q, dq, tau, f_ext=None):
    """Full partials of forward dynamics: ``(d ddq/dq, d ddq/d(dq), M^-1)``.

    The quantities of Kim (2012), Table 6: ``d ddq/dx = -M^-1 dtau/dx`` at ``ddq =
    aba(q, dq, tau)`` (:func:`rnea_partials`,
    :func:`liedyn.forward_dynamics.inverse_mass_matrix`), ``d ddq/dtau = M^-1``.

    Parameters
    ----------
    q : (..., nq) array;  dq, tau : (..., nv) arrays;  f_ext : (..., N, 6) array

    Returns
    -------
    dddq_dq, dddq_ddq_dot, Minv : (..., nv, nv) arrays

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> a_q, a_v, Minv = aba_partials(pendulum(gravity=10.0), [0.0], [0.0], [0.0])
    >>> float(a_q[0, 0]), float(Minv[0, 0])
    (-10.0, 1.0)
    """
    out = _exec.aba_partials(model, q, dq, tau, f_ext)   # compiled, one call
    if out is not None:
        return out
    ddq = aba(model, q, dq, tau, f_ext)
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq, f_ext)
    Minv = inverse_mass_matrix(model, q)
    return -Minv @ dtau_dq, -Minv @ dtau_dv, Minv


def _coordinate_mask(model, prescribed):
    u_body = check_prescribed(model, prescribed)
    u = np.zeros(model.nv, dtype=bool)
    for i in range(1, model.nbodies + 1):
        u[model.v_slice[i]] = u_body[i]
    return u


def hybrid_derivative(model, q, dq, ddq, tau, prescribed, delta_q=None,
                      delta_dq=None, delta_ddq=None, delta_tau=None, delta_I=None,
                      delta_f_ext=None, delta_X=None, f_ext=None):
    """Directional derivative of hybrid dynamics: ``(dtau_out/dp, dddq_out/dp)``.

    The quantity of Kim (2012), Table 7, by implicit differentiation of Kim's eq.
    (33): with ``r`` the Table 5 derivative at ``ddq_out``, ``d ddq_v = M_vv^-1 (d
    tau_v - r_v)`` and ``d tau_u = r_u + M_uv d ddq_v``. Only the ``u`` entries of
    ``delta_ddq`` and the ``v`` entries of ``delta_tau`` are read.

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq, tau : (..., nv) arrays
    f_ext : (..., N, 6) array
    prescribed : sequence of N bool, one per joint (``u``: ``ddq`` given)
    delta_q, delta_dq, delta_ddq, delta_tau : (..., nv) arrays, optional
    delta_I, delta_f_ext, delta_X : optional
        model derivatives, as in :func:`rnea_derivative` (Kim eq. (92))

    Returns
    -------
    dtau_out, dddq_out : (..., nv) arrays

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> model = double_pendulum()  # joint 1 prescribed, joint 2 torque-driven
    >>> dt, da = hybrid_derivative(model, [0.2, 0.1], [0.0, 0.0], [0.0, 0.0],
    ...                            [0.0, 0.0], [True, False], delta_ddq=[1.0, 0.0])
    >>> # ddq_1 follows its input; tau_2 is an input
    >>> float(da[0]), bool(dt[1] == 0.0)
    (1.0, True)
    """
    u = _coordinate_mask(model, prescribed)
    v = ~u
    _, ddq_out = hybrid(model, q, dq, ddq, tau, prescribed, f_ext)
    dl_ddq = (
        np.zeros(model.nv)
        if delta_ddq is None
        else model.check_v(delta_ddq, "delta_ddq"))
    dl_ddq = np.where(u, dl_ddq, 0.0)
    r = rnea_derivative(model, q, dq, ddq_out, delta_q, delta_dq, dl_ddq, delta_I,
                        delta_f_ext, delta_X, f_ext)
    dl_tau = (
        np.zeros(model.nv)
        if delta_tau is None
        else model.check_v(delta_tau, "delta_tau"))
    M = mass_matrix(model, q)
    batch = np.broadcast_shapes(r.shape[:-1], M.shape[:-2], dl_tau.shape[:-1])
    r, dl_tau = np.broadcast_to(r, batch + r.shape[-1:]), np.broadcast_to(
        dl_tau, batch + (model.nv,))
    M = np.broadcast_to(M, batch + M.shape[-2:])
    dddq = np.array(np.broadcast_to(dl_ddq, batch + (model.nv,)), dtype=r.dtype)
    Mvv = M[..., v, :][..., :, v]
    dddq[..., v] = np.linalg.solve(Mvv, (dl_tau[..., v] - r[..., v])[..., None])[
        ..., 0]
    dtau = np.array(dl_tau, dtype=r.dtype)
    dtau[..., u] = r[..., u] + matvec(M[..., u, :][..., :, v], dddq[..., v])
    return dtau, dddq


@dataclass(frozen=True)
class HybridPartials:
    """Partials (..., nv, nv) of hybrid dynamics' ``(tau_out, ddq_out)``: ``*_dq``
    (tangent space), ``*_ddq_dot`` (velocity) and ``*_dinput`` (the known input:
    ``ddq_k`` on prescribed coordinates, ``tau_k`` on the others).
    """

    dtau_dq: np.ndarray
    dddq_dq: np.ndarray
    dtau_ddq_dot: np.ndarray
    dddq_ddq_dot: np.ndarray
    dtau_dinput: np.ndarray
    dddq_dinput: np.ndarray


def hybrid_partials(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """All partial derivatives of :func:`liedyn.hybrid_dynamics.hybrid`.

    The quantities of Kim (2012), Table 7: :func:`hybrid_derivative` with the ``nv``
    unit directions of ``q``, ``dq`` and the known input as one batch axis.

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq, tau : (..., nv) arrays
    f_ext : (..., N, 6) array
    prescribed : sequence of N bool, one per joint

    Returns
    -------
    HybridPartials

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> hp = hybrid_partials(double_pendulum(), [0.2, 0.1], [0.0, 0.0], [0.0, 0.0],
    ...                      [0.0, 0.0], [True, False])
    >>> hp.dddq_dq.shape, hp.dddq_dinput[0].tolist()     # ddq_1 = its input
    ((2, 2), [1.0, 0.0])
    """
    u = _coordinate_mask(model, prescribed)
    E = np.eye(model.nv)
    qx, dqx, ddqx, taux = _directions(model, q, dq, ddq, tau)
    fx = None if f_ext is None else model.check_f_ext(f_ext)[..., None, :, :]
    args = (model, qx, dqx, ddqx, taux, prescribed)
    res = [hybrid_derivative(*args, f_ext=fx, **kw) for kw in
           ({"delta_q": E}, {"delta_dq": E},
            {"delta_ddq": E * u[:, None], "delta_tau": E * ~u[:, None]})]
    return HybridPartials(*[tr(x) for pair in res for x in pair])


@dataclass(frozen=True)
class ConstrainedForwardPartials:
    """:func:`constrained_forward_partials`: ``ddq`` (..., nv) and ``lam`` (..., m)
    at the state, and ``dddq_*`` (..., nv, nv), ``dlam_*`` (..., m, nv), ``[..., i,
    k] = d out_i / d x_k`` with ``x`` the configuration (``*_dq``, tangent space),
    velocity (``*_ddq_dot``) or torque (``*_dtau``).
    """

    ddq: np.ndarray
    lam: np.ndarray
    dddq_dq: np.ndarray
    dddq_ddq_dot: np.ndarray
    dddq_dtau: np.ndarray
    dlam_dq: np.ndarray
    dlam_ddq_dot: np.ndarray
    dlam_dtau: np.ndarray


def _frame_derivatives(model, fw, fd, body, frame, dV0):
    """Twist and acceleration (gravity included) of a frame on ``body``, their
    derivatives and the frame's pose-perturbation twist ``xi``, all in the frame.
    """
    R, p = frame[:3, :3], frame[:3, 3]
    if body == 0:                      # the ground: at rest, "accelerating" with -g
        z = np.zeros(6)
        return z, Ad_inv_mul(R, p, dV0), z, z, z
    return tuple(Ad_inv_mul(R, p, x) for x in (fw.V[body], fw.dV[body], fd.V[body],
                                               fd.dV[body], fd.xi[body]))


def _loop_closure_terms(model, c, mu, Tw, fw, fd, baumgarte):
    """One :class:`~liedyn.constraints.LoopClosure`'s ``dF`` (..., D, N, 6),
    derivatives of the wrenches of :func:`_loop_wrenches`, and ``g'`` (..., D, m_c),
    derivative of ``A ddq + dA dq`` (+ Baumgarte terms) at fixed ``ddq``, along
    ``fd``'s directions.
    """
    N = model.nbodies
    a, b = model.body(c.body_a), model.body(c.body_b)
    Xa, Xb = c.frame_a, c.frame_b
    Ta, Tb = Tw[..., a, :, :] @ Xa, Tw[..., b, :, :] @ Xb
    Tba = inverse(Tb) @ Ta
    Rba, pba = Tba[..., None, :3, :3], Tba[..., None, :3, 3]      # a direction axis
    dV0 = gravity_acceleration(model)
    Va, dVa, Va_p, dVa_p, xa = _frame_derivatives(model, fw, fd, a, Xa, dV0)
    Vb, dVb, Vb_p, dVb_p, xb = _frame_derivatives(model, fw, fd, b, Xb, dV0)
    batch = np.broadcast_shapes(mu.shape[:-1], Tw.shape[:-3])
    dF = np.zeros(batch + (fd.V[-1].shape[-2], N, 6))
    if a:              # the reaction -Ad*_{T_ba} mu on {a}, by Lemma 3 on Ad_{T_ba}
        mu_x = mu[..., None, :]
        dFa = -(ad_star_mul(xa, Ad_star_mul(Rba, pba, mu_x))
                - Ad_star_mul(Rba, pba, ad_star_mul(xb, mu_x)))
        dF[..., a - 1, :] = Ad_star_inv_mul(Xa[:3, :3], Xa[:3, 3], dFa)
    # the relative acceleration dV_b - Ad dV_a + ad_{V_b - W} W, W = Ad V_a
    W, Z = Ad_mul(Rba, pba, Va), Ad_mul(Rba, pba, dVa)
    W_p = Ad_mul(Rba, pba, Va_p + ad_mul(xa, Va)) - ad_mul(xb, W)
    Z_p = Ad_mul(Rba, pba, dVa_p + ad_mul(xa, dVa)) - ad_mul(xb, Z)
    acc_p = dVb_p - Z_p + ad_mul(Vb_p - W_p, W) + ad_mul(Vb - W, W_p)
    if baumgarte is not None:
        alpha, beta = baumgarte
        acc_p = acc_p + 2 * alpha * (Vb_p - W_p)          # d(A dq) = d(P V_rel)
        if beta:                                          # d f = P d(log, R_b^T dp)
            Ra, Rb = Ta[..., None, :3, :3], Tb[..., None, :3, :3]
            Rab = tr(Ra) @ Rb
            phi = log_so3(Rab)
            e = matvec(tr(Rb), Tb[..., None, :3, 3] - Ta[..., None, :3, 3])
            dphi = matvec(dexp_inv_so3(phi, side="right"),
                          xb[..., :3] - matvec(tr(Rab), xa[..., :3]))
            de = -cross(xb[..., :3], e) + xb[..., 3:] - matvec(Rba, xa[..., 3:])
            acc_p = acc_p + beta**2 * np.concatenate(np.broadcast_arrays(dphi, de),
                                                     axis=-1)
    return dF, acc_p[..., c.axes]


def _loop_wrenches(model, c, mu, Tw):
    """Body wrenches (..., N, 6) with ``sum_i J_i^T F_i = A^T lambda`` for a loop
    closure: ``mu = P^T lambda`` on {b}, its reaction ``-Ad*_{T_ba} mu`` on {a}.
    """
    a, b = model.body(c.body_a), model.body(c.body_b)
    Xa, Xb = c.frame_a, c.frame_b
    Tba = inverse(Tw[..., b, :, :] @ Xb) @ Tw[..., a, :, :] @ Xa
    F = np.zeros(
        np.broadcast_shapes(mu.shape[:-1], Tw.shape[:-3]) + (model.nbodies, 6))
    if b:
        F[..., b - 1, :] += Ad_star_inv_mul(Xb[:3, :3], Xb[:3, 3], mu)
    if a:
        F[..., a - 1, :] -= Ad_star_inv_mul(
            Xa[:3, :3], Xa[:3, 3],
            Ad_star_mul(Tba[..., :3, :3], Tba[..., :3, 3], mu))
    return F


def _pfaffian_terms(model, c, lam_c, q, dq, ddq, baumgarte, h):
    """Central differences of a Pfaffian's callables: ``d(A^T lambda)/dq`` (..., nv,
    nv) and ``g'`` (..., 2 nv, m_c) along ``(q, dq)``; ``q`` moves on the manifold.
    """
    n = model.nv
    alpha, beta = (0.0, 0.0) if baumgarte is None else baumgarte
    beta = beta if c.holonomic else 0.0
    dAT_lam, dg = [], []
    for e in np.eye(n):
        qp, qm = model.integrate(q, h * e), model.integrate(q, -h * e)
        dA = (c.jacobian(model, qp) - c.jacobian(model, qm)) / (2 * h)
        dAT_lam.append(matvec(tr(dA), lam_c))
        dg_k = (matvec(dA, ddq + 2 * alpha * dq)
                + (c.drift(model, qp, dq) - c.drift(model, qm, dq)) / (2 * h))
        if beta:
            dg_k = dg_k + beta**2 * (
                c.residual(model, qp) - c.residual(model, qm)) / (2 * h)
        dg.append(dg_k)
    A = c.jacobian(model, q)
    for e in np.eye(n):
        dg.append(
            (c.drift(model, q, dq + h * e) - c.drift(model, q, dq - h * e))
            / (2 * h)
            + 2 * alpha * matvec(A, np.broadcast_to(e, dq.shape)))
    return np.stack(dAT_lam, axis=-2), np.stack(dg, axis=-2)


def constrained_forward_partials(model, constraints, q, dq, tau, f_ext=None,
                                 baumgarte=None, velocity_tol=VELOCITY_TOL,
                                 fd_step=PFAFFIAN_STEP):
    """Partial derivatives of constrained forward dynamics w.r.t. ``q``, ``dq``,
    ``tau``.

    Kim (2012), eqs. (54)-(55) and (67)-(69) differentiated with Section 4 (Lemma 3,
    Table 5). :func:`liedyn.constraints.constrained_forward` solves ``M ddq + b -
    A^T lambda = tau``, ``A ddq + c = 0`` (``c = dA dq``, plus Baumgarte's ``2 alpha
    A dq + beta^2 f``); along any ``x``, ``[[M, -A^T], [A, 0]] [ddq'; lambda'] =
    [tau' - r';
    -g']`` with ``r'``, ``g'`` the derivatives at fixed ``ddq``, ``lambda``. For a
    loop closure both are analytic: its wrench ``mu = P^T lambda`` on {b} and
    reaction on {a} join ``f_ext`` of one Table 5 pass over the ``2 nv`` directions
    of ``q`` and ``dq``. Pfaffian callables are differenced centrally (step
    ``fd_step``, about ``1e-10`` relative error). ``q`` derivatives are in the
    tangent space.

    Parameters
    ----------
    model : liedyn.model.Model
    constraints : sequence of LoopClosure / Pfaffian
    q : (..., nq) array;  dq, tau : (..., nv) arrays;  f_ext : (..., N, 6) array
    baumgarte, velocity_tol
        as in :func:`~liedyn.constraints.constrained_forward`
    fd_step : float, the central-difference step for Pfaffian callables

    Returns
    -------
    ConstrainedForwardPartials

    Examples
    --------
    >>> from liedyn.robots import four_bar
    >>> model, loops, q0 = four_bar()
    >>> P = constrained_forward_partials(model, loops, q0, np.zeros(3), np.zeros(3))
    >>> P.dddq_dq.shape, P.dlam_dtau.shape
    ((3, 3), (2, 3))
    >>> # A ddq' = 0
    >>> bool(np.allclose(loops[0].jacobian(model, q0) @ P.dddq_dtau, 0))
    True
    """
    constraints = _constraint_list(constraints)
    _, _, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                    names=("dq", "tau"))
    ddq, lam = constrained_forward(model, constraints, q, dq, tau, f_ext, baumgarte,
                                   velocity_tol=velocity_tol)
    n = model.nv
    starts = np.cumsum([0] + [c.m for c in constraints])
    rows = [slice(s, s + c.m) for s, c in zip(starts, constraints)]
    R1, R2 = _loop_closure_partials(model, constraints, rows, q, dq, ddq, lam,
                                    f_ext, baumgarte)
    for c, r in zip(constraints, rows):
        if isinstance(c, Pfaffian):
            dAT_lam, g = _pfaffian_terms(model, c, lam[..., r], q, dq, ddq,
                                         baumgarte, fd_step)
            R1[..., :n, :] -= dAT_lam
            R2[..., r] = g
    X = _kkt_partials(model, constraints, q, R1, R2)
    return ConstrainedForwardPartials(ddq, lam, X[..., :n, :n],
                                      X[..., :n, n : 2 * n], X[..., :n, 2 * n :],
                                      X[..., n:, :n], X[..., n:, n : 2 * n],
                                      X[..., n:, 2 * n :])


def _loop_closure_partials(model, constraints, rows, q, dq, ddq, lam, f_ext,
                           baumgarte):
    """``r'`` (..., 2 nv, nv) and ``g'`` (..., 2 nv, m) along ``q`` and ``dq``: one
    Table 5 pass with the loop closures' wrenches in ``f_ext`` (Pfaffian rows
    zero)."""
    batch, n, m, N = q.shape[:-1], model.nv, lam.shape[-1], model.nbodies
    loops = [(c, r) for c, r in zip(constraints, rows)
             if isinstance(c, LoopClosure)]
    Tw = forward_kinematics(model, q).T_world
    mus = []
    for c, r in loops:
        mu = np.zeros(batch + (6,))
        mu[..., c.axes] = lam[..., r]
        mus.append(mu)
    E, Z = np.eye(n), np.zeros((n, n))
    dl_q, dl_dq = np.concatenate([E, Z]), np.concatenate([Z, E])
    qx, dqx, ddqx = (x[..., None, :] for x in (q, dq, ddq))
    F_c = sum((_loop_wrenches(model, c, mu, Tw) for (c, _), mu in zip(loops, mus)),
              np.zeros(batch + (N, 6)))
    nominal = rnea_pass(model, qx, dqx, ddqx, (f_ext + F_c)[..., None, :, :])
    fw = nominal.forward
    fd = _table5_forward(model, fw, qx, dqx, ddqx, dl_q, dl_dq, None, None,
                         with_xi=bool(loops))
    dF_c, R2 = np.zeros(batch + (2 * n, N, 6)), np.zeros(batch + (2 * n, m))
    for (c, r), mu in zip(loops, mus):
        dF, R2[..., r] = _loop_closure_terms(model, c, mu, Tw, fw, fd, baumgarte)
        dF_c = dF_c + dF
    R1 = _table5_backward(model, nominal, fd, qx, None, dF_c if loops else None)
    return np.array(np.broadcast_to(R1, batch + (2 * n, n))), R2


def _kkt_partials(model, constraints, q, R1, R2):
    """The differentiated KKT system ``[[M, -A^T], [A, 0]] X = [[-r'^T, 1];
    [-g'^T, 0]]`` solved for the ``3 nv`` directions ``(q, dq, tau)`` at once."""
    batch, n, m = q.shape[:-1], model.nv, R2.shape[-1]
    A = constraint_jacobian(model, constraints, q)
    K = np.zeros(batch + (n + m, n + m))
    K[..., :n, :n], K[..., :n, n:], K[..., n:, :n] = (mass_matrix(model, q), -tr(A),
                                                      A)
    rhs = np.zeros(batch + (n + m, 3 * n))
    rhs[..., :n, : 2 * n], rhs[..., n:, : 2 * n], rhs[..., :n, 2 * n :] = (
        -tr(R1), -tr(R2), np.eye(n))
    return np.linalg.solve(K, rhs)
