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
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from ._spatial import matvec, transpose
from .crba import mass_matrix
from .engine import dispatch as _exec
from .forward_dynamics import (
    ABAPass,
    acceleration_step,
    articulation_step,
    first_sweep,
)
from .inverse_dynamics import rnea
from .model import state

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
class HybridPass(ABAPass):
    """Intermediates of :func:`hybrid_pass` per body (0 unused): those of
    :class:`~liedyn.forward_dynamics.ABAPass` (``Psi[i]`` is ``None`` where the
    acceleration is prescribed), ``prescribed`` (N,) and the torques ``tau``
    (..., nv)."""

    prescribed: np.ndarray
    tau: np.ndarray


def hybrid_pass(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
                tau: ArrayLike, prescribed: ArrayLike,
                f_ext: ArrayLike | None = None,
                dV0: ArrayLike | None = None) -> HybridPass:
    """Kim (2012), Table 4, with every intermediate kept (see :class:`HybridPass`);
    arguments as in :func:`hybrid`, ``dV0`` overrides ``(0, -g)``.
    """
    u = check_prescribed(model, prescribed)
    fw, A, eta, given = first_sweep(model, q, dq, tau, f_ext, dV0,
                                    ddq=ddq, torque_given=~u)  # S inverted
    N, S, V = model.nbodies, fw.S, fw.V
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):           # backward recursion, (49)-(53)
        children = [(A[k], Pi[k], beta[k]) for k in model.children[i]]
        I_hat[i], B_hat[i], Psi[i], Pi[i], beta[i] = articulation_step(
            model, i, V[i], S[i], eta[i], given.f_ext[i], children,
            given.batch, tau=given.tau[i],
            ddq=given.ddq[i] if u[i] else None)
    ddq, tau = list(given.ddq), list(given.tau)
    dV, F = [fw.dV[0]] + [None] * N, [None] * (N + 1)
    for i in range(1, N + 1):           # forward again, (45), (41)
        ddq[i], dV[i], F[i] = acceleration_step(
            A[i], dV[model.parent[i]], eta[i], S[i], I_hat[i], B_hat[i],
            Psi[i], tau[i], ddq=ddq[i] if u[i] else None)
        if u[i]:                        # (53), and the rotor's a ddq
            tau[i] = (matvec(transpose(S[i]), F[i])
                      + matvec(model.rotor(i), ddq[i]))
    tau_out, ddq_out = given.joined(ddq, tau)
    return HybridPass(fw, eta, I_hat, B_hat, Psi, Pi, beta, ddq_out, dV, F,
                      u[1:], tau_out)


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
