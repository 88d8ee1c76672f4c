"""Partial derivatives of constrained forward dynamics, Kim (2012), Sections 3-4;
derived in :ref:`sec-derivatives`.

:func:`constrained_forward_partials` differentiates the KKT system of
:func:`liedyn.constrained_dynamics.constrained_forward` (Kim's eqs. (54)-(55)): the
unconstrained terms by Table 5 (:func:`liedyn.derivatives.rnea_derivative`), a
:class:`~liedyn.constraints.LoopClosure`'s ``A`` and drift by Lemma 3 along the same
directions; only :class:`~liedyn.constraints.Pfaffian` callables are differenced
numerically (:data:`PFAFFIAN_STEP`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _math
from ._spatial import (
    Ad_inv_mul,
    Ad_mul,
    Ad_star_inv_mul,
    Ad_star_mul,
    ad_mul,
    ad_star_mul,
    cross,
    inverse,
    matvec,
    transpose,
)
from .constrained_dynamics import VELOCITY_TOL, constrained_forward
from .constraints import LoopClosure, Pfaffian, constraint_jacobian, constraint_list
from .crba import mass_matrix
from .derivatives import table5_backward, table5_forward
from .dexp import dexp_inv_so3
from .inverse_dynamics import gravity_acceleration, rnea_pass
from .kinematics import forward_kinematics
from .lie import log_so3
from .model import state

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._types import ArrayLike
    from .constraints import LoopClosure, Pfaffian
    from .model import Model

__all__ = ["constrained_forward_partials", "ConstrainedForwardPartials",
           "PFAFFIAN_STEP"]

PFAFFIAN_STEP = np.finfo(float).eps ** (1 / 3)
"""Central-difference step for Pfaffian callables: truncation ``O(h^2)`` and
round-off ``O(eps/h)`` balance near ``1e-10`` relative."""


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
    dF = np.zeros(batch + (fd.V[-1].shape[-2], N, 6),
                  dtype=np.result_type(mu, Tw, fd.V[-1], fw.V[-1]))
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
            Rab = transpose(Ra) @ Rb
            phi = log_so3(Rab)
            e = matvec(transpose(Rb), Tb[..., None, :3, 3] - Ta[..., None, :3, 3])
            dphi = matvec(dexp_inv_so3(phi, side="right"),
                          xb[..., :3] - matvec(transpose(Rab), xa[..., :3]))
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
        np.broadcast_shapes(mu.shape[:-1], Tw.shape[:-3]) + (model.nbodies, 6),
        dtype=np.result_type(mu, Tw))
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
        dAT_lam.append(matvec(transpose(dA), lam_c))
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


def constrained_forward_partials(model: Model,
                                 constraints: Sequence[LoopClosure | Pfaffian],
                                 q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
                                 f_ext: ArrayLike | None = None,
                                 baumgarte: tuple[float, float] | None = None,
                                 velocity_tol: float | None = VELOCITY_TOL,
                                 fd_step: float = PFAFFIAN_STEP,
                                 ) -> ConstrainedForwardPartials:
    """Partial derivatives of constrained forward dynamics w.r.t. ``q``, ``dq``,
    ``tau``.

    Kim (2012), eqs. (54)-(55) and (67)-(69) differentiated with Section 4 (Lemma 3,
    Table 5). :func:`liedyn.constrained_dynamics.constrained_forward` solves
    ``M ddq + b - A^T lambda = tau``, ``A ddq + c = 0`` (``c = dA dq``, plus
    Baumgarte's ``2 alpha A dq + beta^2 f``); along any ``x``, ``[[M, -A^T], [A,
    0]] [ddq'; lambda'] = [tau' - r';
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
        as in :func:`~liedyn.constrained_dynamics.constrained_forward`
    fd_step : float, the central-difference step for Pfaffian callables

    Returns
    -------
    ConstrainedForwardPartials

    Float, complex and sympy objects; with a Pfaffian constraint (differenced
    numerically) numbers only: ``TypeError`` on sympy objects.

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
    constraints = constraint_list(constraints)
    _, dtype, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                        names=("dq", "tau"))
    if dtype == object and any(isinstance(c, Pfaffian) for c in constraints):
        raise TypeError("constrained_forward_partials differences Pfaffian "
                        "callables numerically (fd_step): not on sympy objects "
                        "(dtype object); differentiate the symbolic result of "
                        "constrained_forward instead")
    ddq, lam = constrained_forward(model, constraints, q, dq, tau, f_ext, baumgarte,
                                   velocity_tol=velocity_tol)
    n = model.nv
    starts = np.cumsum([0] + [c.m for c in constraints])
    rows = [slice(s, s + c.m)
            for s, c in zip(starts[:-1], constraints, strict=True)]
    R1, R2 = _loop_closure_partials(model, constraints, rows, q, dq, ddq, lam,
                                    f_ext, baumgarte)
    for c, r in zip(constraints, rows, strict=True):
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
    dtype = np.result_type(q, dq, ddq, lam, f_ext, float)
    loops = [(c, r) for c, r in zip(constraints, rows, strict=True)
             if isinstance(c, LoopClosure)]
    Tw = forward_kinematics(model, q).T_world
    mus = []
    for c, r in loops:
        mu = np.zeros(batch + (6,), dtype=dtype)
        mu[..., c.axes] = lam[..., r]
        mus.append(mu)
    E, Z = np.eye(n), np.zeros((n, n))
    dl_q, dl_dq = np.concatenate([E, Z]), np.concatenate([Z, E])
    qx, dqx, ddqx = (x[..., None, :] for x in (q, dq, ddq))
    F_c = sum((_loop_wrenches(model, c, mu, Tw)
               for (c, _), mu in zip(loops, mus, strict=True)),
              np.zeros(batch + (N, 6), dtype=dtype))
    nominal = rnea_pass(model, qx, dqx, ddqx, (f_ext + F_c)[..., None, :, :])
    fw = nominal.forward
    fd = table5_forward(model, fw, qx, dqx, ddqx, dl_q, dl_dq, None, None,
                        with_xi=bool(loops))
    dF_c = np.zeros(batch + (2 * n, N, 6), dtype=dtype)
    R2 = np.zeros(batch + (2 * n, m), dtype=dtype)
    for (c, r), mu in zip(loops, mus, strict=True):
        dF, R2[..., r] = _loop_closure_terms(model, c, mu, Tw, fw, fd, baumgarte)
        dF_c = dF_c + dF
    R1 = table5_backward(model, nominal, fd, qx, None, dF_c if loops else None)
    return np.array(np.broadcast_to(R1, batch + (2 * n, n))), R2


def _kkt_partials(model, constraints, q, R1, R2):
    """The differentiated KKT system ``[[M, -A^T], [A, 0]] X = [[-r'^T, 1];
    [-g'^T, 0]]`` solved for the ``3 nv`` directions ``(q, dq, tau)`` at once."""
    batch, n, m = q.shape[:-1], model.nv, R2.shape[-1]
    A = constraint_jacobian(model, constraints, q)
    M = mass_matrix(model, q)
    dtype = np.result_type(M, A, R1, R2)
    K = np.zeros(batch + (n + m, n + m), dtype=dtype)
    K[..., :n, :n], K[..., :n, n:], K[..., n:, :n] = M, -transpose(A), A
    rhs = np.zeros(batch + (n + m, 3 * n), dtype=dtype)
    rhs[..., :n, : 2 * n], rhs[..., n:, : 2 * n], rhs[..., :n, 2 * n :] = (
        -transpose(R1), -transpose(R2), np.eye(n))
    return _math.solve(K, rhs)
