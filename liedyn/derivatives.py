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
quantities of Tables 6-7; constrained forward dynamics in
:mod:`liedyn.constrained_derivatives`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks, _math
from ._spatial import (
    Ad_inv_mul,
    Ad_star_inv_mul,
    ad_mul,
    ad_star_mul,
    matvec,
    transpose,
)
from .crba import mass_matrix
from .engine import dispatch as _exec
from .forward_dynamics import aba, inverse_mass_matrix
from .hybrid_dynamics import check_prescribed, hybrid
from .inertia import from_parameters
from .inverse_dynamics import rnea_pass

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .model import Model

__all__ = ["rnea_derivative", "rnea_partials", "rnea_inertial_partials",
           "aba_derivative", "aba_partials", "hybrid_derivative", "hybrid_partials",
           "HybridPartials"]


def _optional(model, name, x, tail):
    return None if x is None else _checks.array(name, x, tail)


def rnea_derivative(model, q, dq, ddq, delta_q=None,
                    delta_dq=None, delta_ddq=None,
                    delta_I=None, delta_f_ext=None,
                    delta_X=None, f_ext=None):
    """Directional derivative ``dtau/dp`` of inverse dynamics: Kim (2012), Table 5.

    With ``A = Ad_{T^-1}``, ``dh_i = S_i delta_q_i + Ad_{Phi_i^-1} delta_X_i`` and
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
    fd = table5_forward(model, nominal.forward, q, dq, ddq,
                        delta_q, delta_dq, delta_ddq, dl_X)
    dtau = table5_backward(model, nominal, fd, q, dl_I, dl_f)
    if delta_ddq is not None and np.any(model.armature):    # rotors: armature ddq
        dl_ddq = _checks.array("delta_ddq", delta_ddq, (model.nv,))
        dtau = dtau + model.armature * dl_ddq
    return dtau


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


def table5_forward(model, fw, q, dq, ddq, delta_q, delta_dq, delta_ddq, dl_X,
                   with_xi=False):
    """Table 5's forward half: the derivatives of Kim's eqs. (37) and (41)."""
    deltas = [None if x is None else model.check_v(x, n)
              for x, n in ((delta_q, "delta_q"), (delta_dq, "delta_dq"),
                           (delta_ddq, "delta_ddq"))]
    dtype = _math.result_dtype(q, dq, ddq, *(x for x in deltas if x is not None))
    zero = np.zeros(model.nv, dtype=dtype)            # integers for sympy: exact
    dl_q, dl_dq, dl_ddq = (zero if x is None else x for x in deltas)
    dh, S_p, dV, ddV, xi = ([None], [None], [np.zeros(6, dtype)],
                            [np.zeros(6, dtype)], [np.zeros(6, dtype)])
    for i in range(1, model.nbodies + 1):
        joint, lam = model.joints[i], model.parent[i]
        qs, vs = model.q_slice[i], model.v_slice[i]
        qi, dqi, ddqi = q[..., qs], dq[..., vs], ddq[..., vs]
        dqi_p, ddqi_p, dlq_i = dl_dq[..., vs], dl_ddq[..., vs], dl_q[..., vs]
        R, p, S, dS = fw.R[i], fw.p[i], fw.S[i], fw.dS[i]
        dh_i = matvec(S, dlq_i)                                          # (89)-(90)
        if dl_X is not None:
            Phi_i = joint._transform(qi)
            dh_i = dh_i + Ad_inv_mul(Phi_i[..., :3, :3], Phi_i[..., :3, 3],
                                     dl_X[..., i - 1, :])
        S_p_i = _math.exact(joint._dS(qi, dlq_i), dtype)            # dS_i/dp
        dS_p_i = _math.exact(joint._d2S(qi, dqi, dlq_i) + joint._dS(qi, dqi_p),
                             dtype)                                 # d(dS_i)/dp
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


def table5_backward(model, nominal, fd, q, dl_I, dl_f):
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
        dtau.append(matvec(transpose(fd.S_p[i]), F)
                    + matvec(transpose(fw.S[i]), dF_i))
    dtau = dtau[::-1]
    batch = np.broadcast_shapes(q.shape[:-1], *[x.shape[:-1] for x in dtau])
    return np.concatenate(
        [np.zeros(batch + (0,))]
        + [np.broadcast_to(x, batch + x.shape[-1:]) for x in dtau],
        axis=-1,
    )


def _exact_dtype(*arrays):
    """``object`` if some array is (sympy: integer ones and zeros keep exact input
    exact), else ``float``: the dtype of unit directions and zeros."""
    return object if _math.result_dtype(*arrays) == object else float


def _directions(model, q, *vectors):
    """The validated state with a direction axis, (..., 1, n): nv directions
    broadcast."""
    names = ("dq", "ddq", "tau") if len(vectors) == 3 else ("dq", "ddq")
    q = model.check_q(q)
    vectors = [model.check_v(v, name)
               for v, name in zip(vectors, names, strict=True)]
    return [x[..., None, :] for x in [q] + vectors]


def rnea_partials(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
                  f_ext: ArrayLike | None = None,
                  out: tuple[Array, Array, Array] | None = None
                  ) -> tuple[Array, ...]:
    """Full partial derivatives of inverse dynamics: ``(dtau/dq, dtau/d(dq), M)``.

    Kim (2012), Table 5 with the ``nv`` unit directions of ``q``, ``dq`` and ``ddq``
    as one batch axis (``dtau/d(ddq) = M``); the compiled kernels compute the same
    matrices in the ground frame (:ref:`ch10-ground-frame`). ``dtau/dq`` is in the
    tangent space (as Pinocchio's ``computeRNEADerivatives``).

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq : (..., nv) arrays;  f_ext : (..., N, 6) array
    out : tuple of three (..., nv, nv) arrays, optional
        where to write the results (and the tuple returned): of the results' shape
        and dtype (float64 for real input), writable, none sharing memory with
        another or with an input. A loop over batches then allocates nothing, as
        Pinocchio's ``Data`` (for a large batch, fresh memory for the results costs
        about as much as the compiled kernels).

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
    done = _exec.rnea_partials(model, q, dq, ddq, f_ext, out)   # the kernels
    if done is not None:
        return done
    qx, dqx, ddqx = _directions(model, q, dq, ddq)
    E = np.eye(model.nv, dtype=_exact_dtype(qx, dqx, ddqx))
    fx = None if f_ext is None else model.check_f_ext(f_ext)[..., None, :, :]
    result = [transpose(rnea_derivative(model, qx, dqx, ddqx, f_ext=fx,
                                        **{name: E}))
              for name in ("delta_q", "delta_dq", "delta_ddq")]
    return _checks.outputs("out", out, result, (q, dq, ddq, f_ext))


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
    return transpose(rnea_derivative(model, qx, dqx, ddqx, delta_I=dI, f_ext=fx))


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
    return _math.solve(np.broadcast_to(M, rhs.shape + (model.nv,)),
                       rhs[..., None])[..., 0]


def aba_partials(model: Model, q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
                 f_ext: ArrayLike | None = None,
                 out: tuple[Array, Array, Array] | None = None
                 ) -> tuple[Array, Array, Array]:
    """Full partials of forward dynamics: ``(d ddq/dq, d ddq/d(dq), M^-1)``.

    The quantities of Kim (2012), Table 6: ``d ddq/dx = -M^-1 dtau/dx`` at ``ddq =
    aba(q, dq, tau)`` (:func:`rnea_partials`,
    :func:`liedyn.forward_dynamics.inverse_mass_matrix`), ``d ddq/dtau = M^-1``.

    Parameters
    ----------
    q : (..., nq) array;  dq, tau : (..., nv) arrays;  f_ext : (..., N, 6) array
    out : tuple of three (..., nv, nv) arrays, optional
        where to write the results, as in :func:`rnea_partials`

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
    done = _exec.aba_partials(model, q, dq, tau, f_ext, out)   # compiled, one call
    if done is not None:
        return done
    ddq = aba(model, q, dq, tau, f_ext)
    dtau_dq, dtau_dv, _ = rnea_partials(model, q, dq, ddq, f_ext)
    Minv = inverse_mass_matrix(model, q)
    return _checks.outputs("out", out, (-Minv @ dtau_dq, -Minv @ dtau_dv, Minv),
                           (q, dq, tau, f_ext))


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
    >>> # ddq_1 follows its input; tau_2 is an input (its 0 copied: exact)
    >>> float(da[0]), bool(dt[1] == 0.0)
    (1.0, True)
    """
    u = _coordinate_mask(model, prescribed)
    v = ~u
    _, ddq_out = hybrid(model, q, dq, ddq, tau, prescribed, f_ext)
    zero = np.zeros(model.nv, dtype=_exact_dtype(ddq_out))
    dl_ddq = (
        zero
        if delta_ddq is None
        else model.check_v(delta_ddq, "delta_ddq"))
    dl_ddq = np.where(u, dl_ddq, zero)
    r = rnea_derivative(model, q, dq, ddq_out, delta_q, delta_dq, dl_ddq, delta_I,
                        delta_f_ext, delta_X, f_ext)
    dl_tau = (
        zero
        if delta_tau is None
        else model.check_v(delta_tau, "delta_tau"))
    M = mass_matrix(model, q)
    batch = np.broadcast_shapes(r.shape[:-1], M.shape[:-2], dl_tau.shape[:-1])
    r, dl_tau = np.broadcast_to(r, batch + r.shape[-1:]), np.broadcast_to(
        dl_tau, batch + (model.nv,))
    M = np.broadcast_to(M, batch + M.shape[-2:])
    dddq = np.array(np.broadcast_to(dl_ddq, batch + (model.nv,)), dtype=r.dtype)
    Mvv = M[..., v, :][..., :, v]
    dddq[..., v] = _math.solve(Mvv, (dl_tau[..., v] - r[..., v])[..., None])[
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


def hybrid_partials(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
                    tau: ArrayLike, prescribed: ArrayLike,
                    f_ext: ArrayLike | None = None) -> HybridPartials:
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
    qx, dqx, ddqx, taux = _directions(model, q, dq, ddq, tau)
    E = np.eye(model.nv, dtype=_exact_dtype(qx, dqx, ddqx, taux))
    fx = None if f_ext is None else model.check_f_ext(f_ext)[..., None, :, :]
    args = (model, qx, dqx, ddqx, taux, prescribed)
    res = [hybrid_derivative(*args, f_ext=fx, **kw) for kw in
           ({"delta_q": E}, {"delta_dq": E},
            {"delta_ddq": E * u[:, None], "delta_tau": E * ~u[:, None]})]
    return HybridPartials(*[transpose(x) for pair in res for x in pair])
