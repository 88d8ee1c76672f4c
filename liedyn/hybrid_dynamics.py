"""Hybrid dynamics: prescribed accelerations on some joints, given torques on the
others; derived in :ref:`sec-hybrid-dynamics`.

Kim (2012), Table 1, Section 2.3, Kim's eqs. (51)-(53), Table 4: a joint in the set
``u`` (``prescribed[i]`` True) has its acceleration given and its torque unknown,
one in ``v`` the reverse. A prescribed joint passes its whole articulated inertia to
its parent (``Pi_i = I_hat_i``), a free joint the projected one. All prescribed:
inverse dynamics; none: forward dynamics.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _checks
from .engine import dispatch as _exec
from ._spatial import Ad_inv_matrix, Ad_inv_mul, ad_star_mul, matvec, tr
from .forward_dynamics import _inv
from .crba import mass_matrix
from .kinematics import ForwardPass, forward_pass
from .model import state
from .inverse_dynamics import gravity_acceleration, rnea

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .model import Model

__all__ = ["HybridPass", "hybrid", "hybrid_pass", "hybrid_direct",
           "check_prescribed"]


def check_prescribed(model, prescribed):
    """``prescribed`` (N booleans, one per joint) validated, with a first entry
    (False) for the ground, to index by body.
    """
    mask = _checks.booleans("prescribed", prescribed, model.nbodies,
                            "one per joint")
    return np.concatenate([[False], mask])


@dataclass(frozen=True)
class HybridPass:
    """Intermediates of :func:`hybrid_pass` per body (0 unused); see ``ABAPass``."""

    forward: ForwardPass
    prescribed: np.ndarray
    eta: list
    I_hat: list
    B_hat: list
    Psi: list
    Pi: list
    beta: list
    dV: list
    F: list
    tau: np.ndarray
    ddq: np.ndarray


class _Given:
    """Table 4's given ``f_ext[i]``, ``ddq[i]``, ``tau[i]`` per body ``i =
    1..N``."""

    def __init__(self, model, batch, dtype, ddq, tau, f_ext):
        shape, bodies = batch + (model.nv,), range(1, model.nbodies + 1)
        self._batch, self._slices = batch, [model.v_slice[i] for i in bodies]
        self._ddq = np.array(np.broadcast_to(ddq, shape), dtype=dtype)
        self._tau = np.array(np.broadcast_to(tau, shape), dtype=dtype)
        self.ddq = [None] + [self._ddq[..., s] for s in self._slices]
        self.tau = [None] + [self._tau[..., s] for s in self._slices]
        self.f_ext = [None] + [f_ext[..., i - 1, :] for i in bodies]

    def batched(self, I):
        """``I`` once per state of the batch (a read-only view)."""
        return np.broadcast_to(I, self._batch + I.shape)

    def joined(self, ddq, tau):
        """The full vectors ``(tau, ddq)`` from per-body lists."""
        for i, s in enumerate(self._slices, start=1):
            self._ddq[..., s], self._tau[..., s] = ddq[i], tau[i]
        return self._tau, self._ddq


def _first_recursion(model, q, dq, ddq, tau, prescribed, f_ext, dV0):
    """The checks, and Table 4's first forward recursion: the forward pass, ``eta``
    and ``A[i] = Ad_{T_{lambda(i),i}^-1}``.
    """
    u = check_prescribed(model, prescribed)
    batch, dtype, q, dq, ddq, tau, f_ext = state(
        model, q, dq, ddq, tau, f_ext=f_ext, names=("dq", "ddq", "tau"))
    model.check_chart(q, bodies=~u)     # S is inverted where tau is given
    dV0 = gravity_acceleration(model) if dV0 is None else dV0
    fw = forward_pass(model, q, dq, None, dV0)
    bodies = range(1, model.nbodies + 1)
    A = [None] + [Ad_inv_matrix(fw.R[i], fw.p[i]) for i in bodies]
    eta = [None] + [fw.dV[i] - Ad_inv_mul(fw.R[i], fw.p[i], fw.dV[model.parent[i]])
                    for i in bodies]
    return u, fw, A, eta, _Given(model, batch, dtype, ddq, tau, f_ext)


def hybrid_pass(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
                tau: ArrayLike, prescribed: ArrayLike,
                f_ext: ArrayLike | None = None,
                dV0: ArrayLike | None = None) -> HybridPass:
    """Kim (2012), Table 4, with every intermediate kept (see :class:`HybridPass`);
    arguments as in :func:`hybrid`, ``dV0`` overrides ``(0, -g)``.
    """
    u, fw, A, eta, given = _first_recursion(
        model, q, dq, ddq, tau, prescribed, f_ext, dV0)
    N, S, V = model.nbodies, fw.S, fw.V
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):           # backward recursion, (51)-(53)
        I = model.inertias[i]
        I_hat[i] = given.batched(I)
        B_hat[i] = -ad_star_mul(V[i], matvec(I, V[i])) - given.f_ext[i]
        for k in model.children[i]:
            I_hat[i] = I_hat[i] + tr(A[k]) @ Pi[k] @ A[k]
            B_hat[i] = B_hat[i] + matvec(tr(A[k]), beta[k])
        if u[i]:                        # acceleration prescribed
            Pi[i] = I_hat[i]
            beta[i] = B_hat[i] + matvec(I_hat[i],
                                        eta[i] + matvec(S[i], given.ddq[i]))
        else:                           # torque given
            IS = I_hat[i] @ S[i]
            Psi[i] = _inv(tr(S[i]) @ IS + model.rotor(i), I_hat[i], S[i],
                          model, i)
            Pi[i] = I_hat[i] - IS @ Psi[i] @ tr(IS)
            bias = matvec(I_hat[i], eta[i]) + B_hat[i]
            r = given.tau[i] - matvec(tr(S[i]), bias)
            a_i = eta[i] + matvec(S[i] @ Psi[i], r)
            beta[i] = B_hat[i] + matvec(I_hat[i], a_i)
    ddq, tau = list(given.ddq), list(given.tau)
    dV, F = [fw.dV[0]] + [None] * N, [None] * (N + 1)
    for i in range(1, N + 1):           # second forward recursion
        a = matvec(A[i], dV[model.parent[i]]) + eta[i]
        if not u[i]:                    # (45)
            r = tau[i] - matvec(tr(S[i]), matvec(I_hat[i], a) + B_hat[i])
            ddq[i] = matvec(Psi[i], r)
        dV[i] = a + matvec(S[i], ddq[i])
        F[i] = matvec(I_hat[i], dV[i]) + B_hat[i]
        if u[i]:                        # (53), and the rotor's a ddq
            tau[i] = (matvec(tr(S[i]), F[i])
                      + matvec(model.rotor(i), ddq[i]))
    tau_out, ddq_out = given.joined(ddq, tau)
    return HybridPass(fw, u[1:], eta, I_hat, B_hat, Psi, Pi, beta, dV, F,
                      tau_out, ddq_out)


def hybrid(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
           tau: ArrayLike, prescribed: ArrayLike,
           f_ext: ArrayLike | None = None) -> tuple[Array, Array]:
    """Hybrid dynamics ``(ddq_u, tau_v) -> (tau_u, ddq_v)`` in O(n).

    Kim (2012), eqs. (51)-(53) and Table 4, with multi-DOF joints. Entries of
    ``ddq`` on ``v`` and of ``tau`` on ``u`` are unknowns: their input values are
    ignored. Derived in :ref:`sec-hybrid-dynamics`.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
    dq, ddq, tau : (..., nv) arrays
    prescribed : sequence of N bool
        per joint (body 1..N): True if its acceleration is prescribed (set u), False
        if its torque is given (set v)
    f_ext : (..., N, 6) array, optional

    Returns
    -------
    tau_out, ddq_out : (..., nv) arrays
        ``ddq_out`` copies ``ddq`` on u, ``tau_out`` copies ``tau`` on v

    Any dtype (float, complex, sympy objects); the pivots of the torque-given
    joints are tested as in :func:`liedyn.forward_dynamics.aba`.

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> model = double_pendulum()
    >>> q, dq = [0.3, -0.2], [0.1, 0.5]
    >>> tau, ddq = hybrid(model, q, dq, [1.0, 0.0], [0.0, 0.0],
    ...                   prescribed=[True, False])
    >>> np.allclose(rnea(model, q, dq, ddq), tau)
    True
    """
    fast = _exec.hybrid(model, q, dq, ddq, tau, prescribed, f_ext)   # the kernels
    if fast is not None:                                # checked there, finite
        return fast
    out = hybrid_pass(model, q, dq, ddq, tau, prescribed, f_ext)   # reference path
    if not (_checks.all_finite(out.tau) and _checks.all_finite(out.ddq)):
        raise _checks.overflow("hybrid", q=q, dq=dq, ddq=ddq, tau=tau, f_ext=f_ext)
    return out.tau, out.ddq


def hybrid_direct(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """Hybrid dynamics by the direct method of Kim (2012), eq. (34).

    ``ddq_v = M_vv^-1 (tau_v - b_v - M_vu ddq_u)``, ``tau_u = M_uu ddq_u + M_uv
    ddq_v + b_u``, in O(n^2 + n_v^3): a check of :func:`hybrid`, with the same
    arguments and results.

    >>> from liedyn.robots import double_pendulum
    >>> model = double_pendulum()
    >>> args = (model, [0.3, -0.2], [0.1, 0.5], [1.0, 0.0], [0.0, 0.0],
    ...         [True, False])
    >>> all(np.allclose(a, b) for a, b in zip(hybrid_direct(*args), hybrid(*args)))
    True
    """
    u_body = check_prescribed(model, prescribed)
    batch, dtype, q, dq, ddq, tau, f_ext = state(
        model, q, dq, ddq, tau, f_ext=f_ext, names=("dq", "ddq", "tau"))
    model.check_chart(q, bodies=~u_body)
    u = np.zeros(model.nv, dtype=bool)
    for i in range(1, model.nbodies + 1):
        u[model.v_slice[i]] = u_body[i]
    v = ~u
    M = mass_matrix(model, q)
    b = rnea(model, q, dq, np.zeros(model.nv), f_ext)
    rhs = tau[..., v] - b[..., v] - matvec(M[..., v, :][..., :, u], ddq[..., u])
    ddq_out = np.array(ddq, dtype=dtype)
    ddq_out[..., v] = np.linalg.solve(M[..., v, :][..., :, v], rhs[..., None])[
        ..., 0]
    tau_out = np.array(tau, dtype=dtype)
    tau_out[..., u] = matvec(M[..., u, :], ddq_out) + b[..., u]
    return tau_out, ddq_out
