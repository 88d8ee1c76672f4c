"""Analytic derivatives of inverse, forward and hybrid dynamics, Kim (2012), Section 4.

Everything rests on Lemma 3 and its corollaries (eqs. (81)-(91)): for ``T = T_{lambda(i),i}``
depending on a scalar ``p``, ``d/dp Ad_{T^-1} = -ad_{dh} Ad_{T^-1}`` and
``d/dp Ad*_{T^-1} = -Ad*_{T^-1} ad*_{dh}`` with ``dh = T^-1 dT/dp`` (eq. (89)); for
``p = q_i^k``, ``dh = S_i^k`` (eq. (90)). :func:`rnea_derivative` differentiates every line of
Table 2 by the chain rule: this is Kim's Table 5, for one scalar ``p`` *or* for a batch of
directions at once (a leading axis of the ``delta_*`` arguments), which is how the full
matrices of :func:`rnea_partials` are built: no Python loop over the ``n`` directions.

Conventions. ``delta_q`` is the derivative of the configuration in the tangent space: for
vector-space joints ``dq/dp``; for spherical and free joints the body-frame rotation/twist
``v`` with ``q(p) = q exp(p v)`` (the same right perturbation as
:meth:`liedyn.model.Model.integrate`).
``delta_X[i-1]`` is ``X_i^-1 dX_i/dp`` (a body-frame twist) for a placement that depends on
``p`` (e.g. a link length), ``delta_I[i-1] = dI_i/dp`` and ``delta_f_ext[i-1] = dF^ext_i/dp``
(eq. (92)). Arguments left ``None`` are zero, and so are the terms they feed: the sparsity that
Kim lists after eq. (92).

Forward and hybrid dynamics are differentiated implicitly: ``M ddq + b = tau`` holds along
``p``, so ``d ddq/dp = M^-1 (dtau/dp - dID/dp)`` with ``dID/dp`` the inverse-dynamics
derivative at fixed ``ddq`` (Table 5). This yields the same numbers as Kim's Tables 6-7 (which
differentiate the articulated-body recursion line by line) and is checked against finite
differences, complex step and Pinocchio.

Derived in :ref:`sec-derivatives`.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from ._spatial import Ad_inv_mul, Ad_star_inv_mul, ad_mul, ad_star_mul, matvec
from .aba import aba, inverse_mass_matrix
from .crba import mass_matrix
from .hybrid import check_prescribed, hybrid
from .inertia import from_parameters
from .rnea import rnea_pass

__all__ = ["rnea_derivative", "rnea_partials", "rnea_inertial_partials", "aba_derivative",
           "aba_partials", "hybrid_derivative", "hybrid_partials", "HybridPartials"]


def _T(A):
    return np.swapaxes(A, -1, -2)


def _optional(model, name, x, tail):
    return None if x is None else _checks.array(name, x, tail)


def rnea_derivative(model, q, dq, ddq, delta_q=None, delta_dq=None, delta_ddq=None,
                    delta_I=None, delta_f_ext=None, delta_X=None, f_ext=None):
    """Directional derivative ``dtau/dp`` of inverse dynamics: Kim (2012), Table 5.

    Forward recursion (with ``A = Ad_{T^-1}``, ``dh_i = S_i delta_q_i + Ad_{J_i^-1} delta_X_i``):
    ``dV_i' = A dV'_lambda - ad_{dh_i} A V_lambda + S_i' dq_i + S_i delta_dq_i`` and the
    derivative of eq. (41); backward recursion: the derivative of eq. (42),
    ``F_i' = I_i' dV_i + I_i dV_i' - ad*_{V_i'} I_i V_i - ad*_{V_i} (I_i' V_i + I_i V_i')
    - F_i^ext' + sum_k Ad*_{T_{i,k}^-1} (F_k' - ad*_{dh_k} F_k)``, ``tau_i' = S_i'^T F_i + S_i^T F_i'``.
    Primes are ``d/dp``; ``S_i' = dS(q_i, delta_q_i)``, ``dS_i' = d2S(q_i, dq_i, delta_q_i)
    + dS(q_i, delta_dq_i)`` (:mod:`liedyn.joints`).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array, optional
    delta_q, delta_dq, delta_ddq : (..., nv) arrays, optional
        derivatives of the state w.r.t. ``p`` (``delta_q`` in the tangent space, see module doc)
    delta_I : (..., N, 6, 6) array, optional;  delta_f_ext, delta_X : (..., N, 6) arrays, optional

    Returns
    -------
    dtau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)     # tau = ddq + 10 sin(q)
    >>> float(rnea_derivative(model, [0.0], [0.0], [0.0], delta_q=[1.0])[0])   # 10 cos(0)
    10.0
    """
    nominal = rnea_pass(model, q, dq, ddq, f_ext)
    fw = nominal.forward
    q = model.check_q(q)
    dq, ddq = model.check_v(dq), model.check_v(ddq, "ddq")
    zero = np.zeros(model.nv)
    dl_q, dl_dq, dl_ddq = (zero if x is None else model.check_v(x, n) for x, n in
                           ((delta_q, "delta_q"), (delta_dq, "delta_dq"), (delta_ddq, "delta_ddq")))
    N = model.nbodies
    dl_I = _optional(model, "delta_I", delta_I, (N, 6, 6))
    dl_f = _optional(model, "delta_f_ext", delta_f_ext, (N, 6))
    dl_X = _optional(model, "delta_X", delta_X, (N, 6))
    dh, S_p, dV, ddV = [None], [None], [np.zeros(6)], [np.zeros(6)]
    for i in range(1, N + 1):
        joint, lam = model.joints[i], model.parent[i]
        qs, vs = model.q_slice[i], model.v_slice[i]
        qi, dqi, ddqi = q[..., qs], dq[..., vs], ddq[..., vs]
        dqi_p, ddqi_p, dlq_i = dl_dq[..., vs], dl_ddq[..., vs], dl_q[..., vs]
        R, p, S, dS = fw.R[i], fw.p[i], fw.S[i], fw.dS[i]
        dh_i = matvec(S, dlq_i)                                                   # (89)-(90)
        if dl_X is not None:                                    # a placement that moves with p
            Ji = joint.transform(qi)
            dh_i = dh_i + Ad_inv_mul(Ji[..., :3, :3], Ji[..., :3, 3], dl_X[..., i - 1, :])
        S_p_i = joint.dS(qi, dlq_i)                                               # dS_i/dp
        dS_p_i = joint.d2S(qi, dqi, dlq_i) + joint.dS(qi, dqi_p)                  # d(dS_i)/dp
        Sdq_p = matvec(S_p_i, dqi) + matvec(S, dqi_p)                             # d(S_i dq_i)/dp
        dV_i = (Ad_inv_mul(R, p, dV[lam]) - ad_mul(dh_i, Ad_inv_mul(R, p, fw.V[lam]))
                + Sdq_p)                                                          # (87) in (37)
        ddV_i = (Ad_inv_mul(R, p, ddV[lam]) - ad_mul(dh_i, Ad_inv_mul(R, p, fw.dV[lam]))
                 + matvec(S_p_i, ddqi) + matvec(S, ddqi_p)
                 + ad_mul(dV_i, matvec(S, dqi)) + ad_mul(fw.V[i], Sdq_p)
                 + matvec(dS_p_i, dqi) + matvec(dS, dqi_p))                       # (87) in (41)
        dh.append(dh_i)
        S_p.append(S_p_i)
        dV.append(dV_i)
        ddV.append(ddV_i)
    dF = [None] * (N + 1)
    dtau = []
    for i in range(N, 0, -1):
        I, V, F = model.inertias[i], fw.V[i], nominal.F[i]
        dF_i = (matvec(I, ddV[i]) - ad_star_mul(dV[i], matvec(I, V))
                - ad_star_mul(V, matvec(I, dV[i])))
        if dl_I is not None:
            dI = dl_I[..., i - 1, :, :]
            dF_i = dF_i + matvec(dI, fw.dV[i]) - ad_star_mul(V, matvec(dI, V))
        if dl_f is not None:
            dF_i = dF_i - dl_f[..., i - 1, :]
        for k in model.children[i]:                                               # (88)
            dF_i = dF_i + Ad_star_inv_mul(fw.R[k], fw.p[k], dF[k] - ad_star_mul(dh[k], nominal.F[k]))
        dF[i] = dF_i
        dtau.append(matvec(_T(S_p[i]), F) + matvec(_T(fw.S[i]), dF_i))
    dtau = dtau[::-1]
    batch = np.broadcast_shapes(q.shape[:-1], *[x.shape[:-1] for x in dtau])
    return np.concatenate([np.zeros(batch + (0,))] + [np.broadcast_to(x, batch + x.shape[-1:])
                                                      for x in dtau], axis=-1)


def _directions(model, q, *vectors):
    """Add a direction axis: state arrays get shape (..., 1, n) so that (nv, nv) identities
    broadcast as ``nv`` directions."""
    return [np.asarray(x)[..., None, :] for x in (q,) + vectors]


def rnea_partials(model, q, dq, ddq, f_ext=None):
    """Full partial derivatives of inverse dynamics: ``(dtau/dq, dtau/d(dq), M)``.

    Table 5 of Kim (2012) with the ``nv`` unit directions of ``q``, ``dq`` and ``ddq`` carried
    as one batch axis through the recursions (``dtau/d(ddq) = M``). Derivatives with respect
    to spherical/free joints are taken in their tangent space (right perturbation
    ``q exp(delta)``, as Pinocchio's ``computeRNEADerivatives``).

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array, optional

    Returns
    -------
    dtau_dq, dtau_ddq_dot, M : (..., nv, nv) arrays, ``[..., i, k] = d tau_i / d x_k``

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> dq_, dv_, M = rnea_partials(pendulum(gravity=10.0), [0.0], [0.0], [0.0])
    >>> float(dq_[0, 0]), float(M[0, 0])
    (10.0, 1.0)
    """
    E = np.eye(model.nv)
    qx, dqx, ddqx = _directions(model, q, dq, ddq)
    fx = None if f_ext is None else np.asarray(f_ext)[..., None, :, :]
    out = [_T(rnea_derivative(model, qx, dqx, ddqx, f_ext=fx, **{name: E}))
           for name in ("delta_q", "delta_dq", "delta_ddq")]
    return tuple(out)


def rnea_inertial_partials(model, q, dq, ddq, f_ext=None):
    """``dtau/dpi``: the joint-torque regressor ``Y`` with ``tau = Y pi`` (pi: 10 N parameters).

    Kim (2012), Table 5 and eq. (92) with ``delta_I`` running over the 10 inertial parameters of each body
    (:func:`liedyn.inertia.from_parameters`; order ``(m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)``),
    all ``10 N`` directions as one batch axis. Gravity and ``f_ext`` enter ``tau`` but ``f_ext``
    does not depend on ``pi``: ``Y pi = tau + J^T``-terms of ``f_ext``, exactly ``tau`` when
    ``f_ext`` is None.

    Returns
    -------
    Y : (..., nv, 10 N) array
    """
    N = model.nbodies
    basis = from_parameters(np.eye(10))                       # (10, 6, 6)
    dI = np.zeros((10 * N, N, 6, 6))
    for i in range(N):
        dI[10 * i:10 * i + 10, i] = basis
    qx, dqx, ddqx = _directions(model, q, dq, ddq)
    fx = None if f_ext is None else np.asarray(f_ext)[..., None, :, :]
    return _T(rnea_derivative(model, qx, dqx, ddqx, delta_I=dI, f_ext=fx))


def aba_derivative(model, q, dq, tau, delta_q=None, delta_dq=None, delta_tau=None,
                   delta_I=None, delta_f_ext=None, delta_X=None, f_ext=None):
    """Directional derivative ``d(ddq)/dp`` of forward dynamics.

    Implicit differentiation of ``M ddq + b = tau`` (the quantity of Kim (2012), Table 6):
    ``d(ddq)/dp = M^-1 (dtau/dp - r)`` with ``r`` the Table 5 derivative at fixed ``ddq``.
    Arguments as :func:`rnea_derivative`, with ``tau`` and ``delta_tau`` for ``ddq``.

    Returns
    -------
    dddq : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)     # ddq = tau - 10 sin(q)
    >>> float(aba_derivative(model, [0.0], [0.0], [0.0], delta_q=[1.0])[0])
    -10.0
    """
    ddq = aba(model, q, dq, tau, f_ext)
    r = rnea_derivative(model, q, dq, ddq, delta_q, delta_dq, None, delta_I, delta_f_ext,
                        delta_X, f_ext)
    rhs = -r if delta_tau is None else model.check_v(delta_tau, "delta_tau") - r
    M = mass_matrix(model, q)
    rhs, M = np.broadcast_to(rhs, np.broadcast_shapes(rhs.shape, M.shape[:-1])), M
    return np.linalg.solve(np.broadcast_to(M, rhs.shape + (model.nv,)), rhs[..., None])[..., 0]


def aba_partials(model, q, dq, tau, f_ext=None):
    """Full partial derivatives of forward dynamics: ``(d ddq/dq, d ddq/d(dq), M^-1)``.

    Kim (2012), Table 6 (the quantities), computed as described below.

    ``d ddq/dx = -M^-1 dtau/dx`` evaluated at ``ddq = aba(q, dq, tau)`` (implicit
    differentiation of ``M ddq + b = tau``, with :func:`rnea_partials` and
    :func:`liedyn.aba.inverse_mass_matrix`); ``d ddq/dtau = M^-1``.

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


def hybrid_derivative(model, q, dq, ddq, tau, prescribed, delta_q=None, delta_dq=None,
                      delta_ddq=None, delta_tau=None, delta_I=None, delta_f_ext=None,
                      delta_X=None, f_ext=None):
    """Directional derivative of hybrid dynamics: ``(dtau_out/dp, dddq_out/dp)``.

    The quantity of Kim (2012), Table 7, by implicit differentiation of eq. (33): with ``r`` the
    Table 5 derivative at ``ddq_out`` holding the unknown accelerations fixed,
    ``d ddq_v = M_vv^-1 (d tau_v - r_v)`` and ``d tau_u = r_u + M_uv d ddq_v``. Only the
    ``u`` entries of ``delta_ddq`` and the ``v`` entries of ``delta_tau`` are read.

    Returns
    -------
    dtau_out, dddq_out : (..., nv) arrays
    """
    u = _coordinate_mask(model, prescribed)
    v = ~u
    _, ddq_out = hybrid(model, q, dq, ddq, tau, prescribed, f_ext)
    dl_ddq = np.zeros(model.nv) if delta_ddq is None else model.check_v(delta_ddq, "delta_ddq")
    dl_ddq = np.where(u, dl_ddq, 0.0)
    r = rnea_derivative(model, q, dq, ddq_out, delta_q, delta_dq, dl_ddq, delta_I, delta_f_ext,
                        delta_X, f_ext)
    dl_tau = np.zeros(model.nv) if delta_tau is None else model.check_v(delta_tau, "delta_tau")
    M = mass_matrix(model, q)
    batch = np.broadcast_shapes(r.shape[:-1], M.shape[:-2], dl_tau.shape[:-1])
    r, dl_tau = np.broadcast_to(r, batch + r.shape[-1:]), np.broadcast_to(dl_tau, batch + (model.nv,))
    M = np.broadcast_to(M, batch + M.shape[-2:])
    dddq = np.array(np.broadcast_to(dl_ddq, batch + (model.nv,)), dtype=r.dtype)
    Mvv = M[..., v, :][..., :, v]
    dddq[..., v] = np.linalg.solve(Mvv, (dl_tau[..., v] - r[..., v])[..., None])[..., 0]
    dtau = np.array(dl_tau, dtype=r.dtype)
    dtau[..., u] = r[..., u] + matvec(M[..., u, :][..., :, v], dddq[..., v])
    return dtau, dddq


@dataclass(frozen=True)
class HybridPartials:
    """Partials of hybrid dynamics' outputs ``(tau_out, ddq_out)``, each (..., nv, nv).

    ``*_dq``: w.r.t. the configuration (tangent space); ``*_ddq_dot``: w.r.t. the velocity;
    ``*_dinput``: w.r.t. the known input ``x`` with ``x_k = ddq_k`` on prescribed coordinates and
    ``x_k = tau_k`` on torque-given ones.
    """

    dtau_dq: np.ndarray
    dddq_dq: np.ndarray
    dtau_ddq_dot: np.ndarray
    dddq_ddq_dot: np.ndarray
    dtau_dinput: np.ndarray
    dddq_dinput: np.ndarray


def hybrid_partials(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """All partial derivatives of :func:`liedyn.hybrid.hybrid`, directions batched.

    Kim (2012), Table 7 (the quantities), by :func:`hybrid_derivative` with the ``nv`` unit
    directions of ``q``, ``dq`` and of the known input as one batch axis.

    Returns
    -------
    HybridPartials
    """
    u = _coordinate_mask(model, prescribed)
    E = np.eye(model.nv)
    qx, dqx, ddqx, taux = _directions(model, q, dq, ddq, tau)
    fx = None if f_ext is None else np.asarray(f_ext)[..., None, :, :]
    args = (model, qx, dqx, ddqx, taux, prescribed)
    res = [hybrid_derivative(*args, f_ext=fx, **kw) for kw in
           ({"delta_q": E}, {"delta_dq": E},
            {"delta_ddq": E * u[:, None], "delta_tau": E * ~u[:, None]})]
    return HybridPartials(*[_T(x) for pair in res for x in pair])
