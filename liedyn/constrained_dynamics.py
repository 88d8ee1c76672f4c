"""Dynamics of constrained systems, Kim (2012), Section 3; derived in
:ref:`sec-constrained`.

The constraints (:class:`~liedyn.constraints.LoopClosure`,
:class:`~liedyn.constraints.Pfaffian`) give ``A(q)`` (..., m, nv) and the drift
``dA dq``; their forces ``A^T lambda`` enter the equations of motion ``M ddq + b =
tau + A^T lambda`` (Kim's eq. (54)) with ``A ddq + dA dq = 0``.
:func:`constrained_inverse` (§3.1), :func:`constrained_forward` (§3.2) and
:func:`constrained_hybrid` (§3.3) evaluate all constraints from the forward
recursion inside the articulated-body (or hybrid) pass, whose articulated inertias
the ``m`` simplified passes of §3.2 reuse; :func:`constrained_forward_kkt` is the
direct solve of the saddle-point system, for checking.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, overload

import numpy as np

from . import _checks, _math
from ._spatial import Ad_inv_matrix, matvec, transpose
from .constraints import Kinematics, baumgarte_gains, constraint_list, evaluate
from .forward_dynamics import aba_pass
from .hybrid_dynamics import hybrid_pass
from .inverse_dynamics import gravity_acceleration, rnea
from .model import state

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._types import Array, ArrayLike
    from .constraints import LoopClosure, Pfaffian
    from .model import Model

__all__ = ["constrained_forward", "constrained_forward_kkt", "constrained_inverse",
           "constrained_hybrid", "RANK_TOL", "VELOCITY_TOL"]

RANK_TOL = 1e-10
"""Relative singular-value threshold below which a constraint Jacobian counts as
rank deficient."""

VELOCITY_TOL = 1e-6
"""Default tolerance of :func:`constrained_forward` on ``max |A dq|``, relative to
``1 + max |dq|``."""


def _check_rank(G, what):
    """Raise if ``G`` (..., k, n) is rank deficient: its smallest singular value not
    above :data:`RANK_TOL` of its largest; on sympy numbers exactly (sympy's rank);
    on symbols it cannot be decided and is not tested."""
    if G.dtype == object:
        if _math.decidable(G):
            import sympy
            for idx in np.ndindex(G.shape[:-2]):
                rank = sympy.Matrix(G[idx]).rank()
                if rank < min(G.shape[-2:]):
                    raise ValueError(
                        f"argument 'constraints': {what} is singular (rank {rank} "
                        f"< {min(G.shape[-2:])}, exactly): the constraint Jacobian "
                        "is rank deficient at this configuration (redundant "
                        "constraints or a singular pose)")
        return
    s = np.linalg.svd(G, compute_uv=False)
    if np.any(s[..., -1] <= RANK_TOL * np.maximum(s[..., 0], 1e-300)):
        raise ValueError(
            f"argument 'constraints': {what} is singular "
            f"(smallest/largest singular value "
            f"{np.min(s[..., -1] / np.maximum(s[..., 0], 1e-300)):.2e}): the "
            "constraint Jacobian is rank deficient at this "
            "configuration (redundant constraints or a singular pose)")


def _numbers(*arrays):
    """``arrays`` as float or complex arrays, or ``None`` if one holds a free
    symbol (a tolerance test on it cannot be decided)."""
    if not _math.decidable(*arrays):
        return None
    return [np.asarray(a, dtype=complex) if np.asarray(a).dtype == object else a
            for a in arrays]


def _numbers_only(what, *arrays):
    """The ``TypeError`` of ``what``, a branch that takes numbers, on sympy
    objects."""
    if any(np.asarray(a).dtype == object for a in arrays):
        raise TypeError(f"{what} takes numbers: its pseudo-inverse, least squares "
                        "and rank decisions cannot run on sympy objects (dtype "
                        "object); substitute numbers first")


def _check_velocity(A, dq, tol):
    """Raise if ``max |A dq| > tol (1 + max |dq|)`` (over the whole batch); not
    tested on symbols."""
    numbers = _numbers(A, dq)
    if numbers is None:
        return
    A, dq = numbers
    vel = np.max(np.abs(matvec(A, dq)), initial=0.0)
    if vel > tol * (1 + np.max(np.abs(dq), initial=0.0)):
        raise ValueError("argument 'dq': inconsistent with the constraints, max "
                         f"|A dq| = {vel:.2e} "
                         f"(tolerance {tol:g}, relative to 1 + max |dq|); use "
                         "liedyn.constraints.project, Baumgarte stabilisation "
                         "(baumgarte=...), or velocity_tol=None to accept it")


def _stabilised_rhs(A, drift, f, dq, baumgarte):
    """``dA dq + 2 alpha A dq + beta^2 f``: Baumgarte's right-hand side of Kim's eq.
    (67), from ``d^2f/dt^2 + 2 alpha df/dt + beta^2 f = 0`` (zero ``f`` rows for
    non-holonomic constraints).
    """
    if baumgarte is None:
        return drift
    alpha, beta = baumgarte
    return drift + 2 * alpha * matvec(A, dq) + beta ** 2 * f


def _simplified_pass(model, record, torques, prescribed=None):
    """``m`` simplified articulated-body (or hybrid) calls at once, Kim (2012),
    §3.2 (§3.3).

    The response of the tree at rest, without gravity, to the torques in the columns
    of ``torques`` (..., nv, m); ``record`` (an ``ABAPass`` or ``HybridPass`` at the
    same ``q``) lends its transforms, ``S``, ``I_hat`` and ``Psi``. With ``eta =
    0``, Kim's eqs. (49)-(50), (45), (41) become recursions on 6 x m matrices:
    backward ``B_i = sum_k Ad*_{T_{i,k}^-1} beta_k``, ``u_i = tau_i - S_i^T B_i``,
    ``beta_i = B_i + I_hat_i S_i Psi_i u_i``; forward ``a_i = Ad_{T^-1}
    dV_lambda(i)``, ``ddq_i = Psi_i (u_i - S_i^T I_hat_i a_i)``, ``dV_i = a_i + S_i
    ddq_i``. A prescribed joint passes ``beta_i = B_i`` and gets ``tau_i = S_i^T
    (I_hat_i dV_i + B_i)``. Returns ``ddq``, ``tau`` (..., nv, m).
    """
    fw, N = record.forward, model.nbodies
    u = (np.zeros(N + 1, bool) if prescribed is None
         else np.concatenate([[False], prescribed]))
    batch = np.broadcast_shapes(torques.shape[:-2], *(record.I_hat[i].shape[:-2]
                                                      for i in range(1, N + 1)))
    m = torques.shape[-1]
    dtype = np.result_type(torques, record.I_hat[N], fw.V[N], float)
    X = Ad_inv_matrix(np.stack(np.broadcast_arrays(*fw.R[1:]), axis=-3),
                      np.stack(np.broadcast_arrays(*fw.p[1:]), axis=-2))
    X = [None] + [X[..., i, :, :] for i in range(N)]
    IS = [None] + [record.I_hat[i] @ fw.S[i] for i in range(1, N + 1)]
    B, U, beta = ([None] * (N + 1) for _ in range(3))
    for i in range(N, 0, -1):                         # backward, Kim eqs. (49)-(50)
        B[i] = np.zeros(batch + (6, m), dtype=dtype)
        for k in model.children[i]:
            B[i] = B[i] + transpose(X[k]) @ beta[k]
        if u[i]:
            beta[i] = B[i]
        else:
            U[i] = torques[..., model.v_slice[i], :] - transpose(fw.S[i]) @ B[i]
            beta[i] = B[i] + IS[i] @ (record.Psi[i] @ U[i])
    ddq = np.zeros(batch + (model.nv, m), dtype=dtype)
    tau = np.array(np.broadcast_to(torques, batch + (model.nv, m)), dtype=dtype)
    dV = [np.zeros(batch + (6, m), dtype=dtype)] + [None] * N
    for i in range(1, N + 1):                         # forward, Kim eqs. (45), (41)
        a = X[i] @ dV[model.parent[i]]
        if u[i]:
            dV[i] = a
            tau[..., model.v_slice[i], :] = (transpose(IS[i]) @ a
                                             + transpose(fw.S[i]) @ B[i])
        else:
            ddq_i = record.Psi[i] @ (U[i] - transpose(IS[i]) @ a)
            ddq[..., model.v_slice[i], :] = ddq_i
            dV[i] = a + fw.S[i] @ ddq_i
    return ddq, tau


@dataclass(frozen=True)
class ConstrainedForward:
    """``ddq``, ``lam`` of :func:`constrained_forward`, with ``ddq_r``
    (unconstrained) and ``MinvAT`` (``M^-1 A^T``, (..., nv, m)).
    """

    ddq: np.ndarray
    lam: np.ndarray
    ddq_r: np.ndarray
    MinvAT: np.ndarray


@overload
def constrained_forward(model: Model, constraints: Sequence[LoopClosure | Pfaffian],
                        q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
                        f_ext: ArrayLike | None = None,
                        baumgarte: tuple[float, float] | None = None,
                        full_output: Literal[False] = False,
                        velocity_tol: float | None = VELOCITY_TOL,
                        ) -> tuple[Array, Array]: ...
@overload
def constrained_forward(model: Model, constraints: Sequence[LoopClosure | Pfaffian],
                        q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
                        f_ext: ArrayLike | None = None,
                        baumgarte: tuple[float, float] | None = None,
                        *, full_output: Literal[True],
                        velocity_tol: float | None = VELOCITY_TOL,
                        ) -> ConstrainedForward: ...


def constrained_forward(model: Model, constraints: Sequence[LoopClosure | Pfaffian],
                        q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
                        f_ext: ArrayLike | None = None,
                        baumgarte: tuple[float, float] | None = None,
                        full_output: bool = False,
                        velocity_tol: float | None = VELOCITY_TOL,
                        ) -> tuple[Array, Array] | ConstrainedForward:
    """Forward dynamics of a constrained system, Kim (2012), §3.2, Kim's eqs.
    (67)-(69).

    One articulated-body pass gives ``ddq_r = M^-1 (tau - b)`` and, from its forward
    recursion, ``A`` and ``dA dq``; ``m`` simplified passes reusing its articulated
    inertias give ``M^-1 A^T``; then ``lambda = -(A M^-1 A^T)^-1 (A ddq_r + dA dq)``
    (67) and ``ddq = ddq_r + M^-1 A^T lambda`` (68)-(69): O(n m + m^3).

    Parameters
    ----------
    model : liedyn.model.Model
    constraints : sequence of LoopClosure / Pfaffian
    q : (..., nq);  dq, tau : (..., nv);  f_ext : (..., N, 6), optional
    baumgarte : (alpha, beta), optional
        enforce ``A ddq + dA dq + 2 alpha A dq + beta^2 f = 0`` instead
    full_output : bool, return a :class:`ConstrainedForward` record
    velocity_tol : float or None
        without ``baumgarte``, ``dq`` must satisfy Kim eq. (55) to
        ``max |A dq| <= velocity_tol (1 + max |dq|)``; ``None`` skips the check

    Returns
    -------
    ddq : (..., nv), lam : (..., m)

    Any dtype; on sympy objects the rank of ``A M^-1 A^T`` is tested exactly on
    numbers, and neither it nor the velocity is tested where symbols appear.

    Raises
    ------
    ValueError
        if ``A M^-1 A^T`` is singular, or ``dq`` violates the constraints
    """
    constraints = constraint_list(constraints)
    baumgarte = baumgarte_gains(baumgarte)
    if velocity_tol is not None:
        velocity_tol = _checks.scalar("velocity_tol", velocity_tol, positive=True)
    _, _, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                    names=("dq", "tau"))
    full = aba_pass(model, q, dq, tau, f_ext)                 # the full call: ddq_r
    kin = Kinematics(model, q, dq, fw=full.forward,
                     ground=gravity_acceleration(model))
    A, drift, f = evaluate(model, constraints, kin, jacobian=True, drift=True,
                           residual=baumgarte is not None)
    if baumgarte is None and velocity_tol is not None:
        _check_velocity(A, dq, velocity_tol)
    ddq_r = full.ddq
    MinvAT = _simplified_pass(model, full, transpose(A))[0]     # m simplified calls
    G = A @ MinvAT
    _check_rank(G, "A M^-1 A^T")
    rhs = matvec(A, ddq_r) + _stabilised_rhs(A, drift, f, dq, baumgarte)
    lam = -_math.solve(G, rhs[..., None])[..., 0]                       # (67)
    ddq = ddq_r + matvec(MinvAT, lam)                                   # (68)-(69)
    if full_output:
        return ConstrainedForward(ddq, lam, ddq_r, MinvAT)
    return ddq, lam


def constrained_forward_kkt(model, constraints, q, dq, tau, f_ext=None,
                            baumgarte=None):
    """:func:`constrained_forward` by one dense KKT solve, for checking.

    Kim (2012), eqs. (54)-(55): ``[[M, -A^T], [A, 0]] [ddq; lambda] = [tau - b;
    -(dA dq)]``, ``M`` by CRBA, ``b`` by RNEA; the state is not checked.
    """
    from .crba import mass_matrix
    constraints = constraint_list(constraints)
    baumgarte = baumgarte_gains(baumgarte)
    _, _, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                    names=("dq", "tau"))
    A, drift, f = evaluate(model, constraints, Kinematics(model, q, dq),
                           jacobian=True, drift=True,
                           residual=baumgarte is not None)
    M = mass_matrix(model, q)
    b = rnea(model, q, dq, np.zeros(model.nv), f_ext)
    m, n = A.shape[-2], model.nv
    batch = np.broadcast_shapes(M.shape[:-2], A.shape[:-2])
    K = np.zeros(batch + (n + m, n + m), dtype=np.result_type(M, A, tau, b))
    K[..., :n, :n], K[..., :n, n:], K[..., n:, :n] = M, -transpose(A), A
    rhs_c = _stabilised_rhs(A, drift, f, dq, baumgarte)
    rhs = np.concatenate([np.broadcast_to(tau - b, batch + (n,)),
                          -np.broadcast_to(rhs_c, batch + (m,))], axis=-1)
    _check_rank(K, "the KKT matrix")
    x = _math.solve(K, rhs[..., None])[..., 0]
    return x[..., :n], x[..., n:]


def _coordinate_mask(model, per_joint, name):
    """A per-coordinate mask (nv,) from one boolean per joint, validated as
    ``name``."""
    mask = np.asarray(per_joint)
    if mask.shape != (model.nbodies,) or mask.dtype != bool:
        raise ValueError(f"argument '{name}': expected {model.nbodies} booleans "
                         f"(one per joint), got {mask.dtype} array of shape "
                         f"{mask.shape}")
    out = np.zeros(model.nv, dtype=bool)
    for i in range(1, model.nbodies + 1):
        out[model.v_slice[i]] = mask[i - 1]
    return out


def _null_space(B):
    """An orthonormal basis of the null space of ``B``."""
    _, s, Vt = np.linalg.svd(B)
    rank = int(np.sum(s > RANK_TOL * max(s[0] if s.size else 0, 1e-300)))
    return Vt[rank:].T


def _check_consistent(model, constraints, q, dq, ddq, tol=1e-6):
    """``A``, after checking ``A dq = 0`` and ``A ddq + dA dq = 0`` to ``tol``
    (relative); not tested on symbols."""
    A, drift, _ = evaluate(model, constraints, Kinematics(model, q, dq),
                           jacobian=True, drift=True)
    numbers = _numbers(matvec(A, dq), matvec(A, ddq) + drift, dq, ddq)
    if numbers is None:
        return A
    vel, acc, dq, ddq = numbers
    scale = 1 + np.max(np.abs(dq)) + np.max(np.abs(ddq))
    if np.max(np.abs(vel)) > tol * scale or np.max(np.abs(acc)) > tol * scale:
        raise ValueError("the state is inconsistent with the constraints: |A dq| "
                         f"= {np.max(np.abs(vel)):.2e}, |A ddq + dA dq| = "
                         f"{np.max(np.abs(acc)):.2e} (tolerance {tol:g}, "
                         "relative); use liedyn.constraints.project")
    return A


def constrained_inverse(model: Model, constraints: Sequence[LoopClosure | Pfaffian],
                        q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
                        actuated: ArrayLike, tau_passive: ArrayLike | None = None,
                        objective: str = "min_torque",
                        f_ext: ArrayLike | None = None) -> tuple[Array, Array]:
    """Inverse dynamics of a constrained system, Kim (2012), §3.1, Kim's eqs.
    (56)-(66).

    With ``tau_r = rnea(q, dq, ddq)`` split into actuated (a) and passive (p)
    coordinates, ``A_p^T lambda = tau_pr - tau_p`` (57) and ``tau_a = tau_ar - A_a^T
    lambda`` (58). ``m == n_p``: unique. ``m > n_p`` (redundant actuation): ``lambda
    = (A_p^T)^+ (tau_pr - tau_p) + Z s`` (59; ``Z`` a basis of the null space of
    ``A_p^T``, Kim's ``N``), ``s = 0`` for
    ``objective="min_constraint_force"``, ``s*`` of Kim's eqs. (62)-(64) (the least
    ``|tau_a|``) for ``"min_torque"``. ``m < n_p``: no exact solution,
    ``ValueError`` (use :func:`constrained_hybrid`). The state must satisfy ``A dq =
    0`` and ``A ddq + dA dq = 0`` (checked).

    Parameters
    ----------
    actuated : sequence of N bool, one per joint
    tau_passive : (nv,) array, optional
        torques of the passive joints (entries on actuated coordinates ignored)
    objective : {"min_torque", "min_constraint_force"}

    Returns
    -------
    tau : (nv,) array (passive entries = ``tau_passive``), lam : (m,) array

    Any dtype for ``m == n_p`` (the consistency of the state is not tested where
    symbols appear); ``m > n_p`` (a pseudo-inverse and rank decisions) takes
    numbers only: ``TypeError`` on sympy objects.
    """
    _checks.choice("objective", objective, ("min_torque", "min_constraint_force"))
    constraints = constraint_list(constraints)
    a = _coordinate_mask(model, actuated, "actuated")
    p = ~a
    q, dq, ddq = model.check_q(q), model.check_v(dq), model.check_v(ddq, "ddq")
    if q.ndim != 1:
        raise ValueError("constrained_inverse takes one state (q of shape (nq,)), "
                         f"got a batch {q.shape}")
    A = _check_consistent(model, constraints, q, dq, ddq)
    tau_r = rnea(model, q, dq, ddq, f_ext)
    tau_p = (np.zeros(model.nv) if tau_passive is None
             else model.check_v(tau_passive, "tau_passive"))
    m, n_p = A.shape[0], int(p.sum())
    Aa, Ap = A[:, a], A[:, p]
    if m < n_p:
        raise ValueError(f"{m} constraints cannot make {n_p} passive coordinates "
                         "follow a prescribed motion (m < n_p): no exact solution; "
                         "use liedyn.constrained_dynamics.constrained_hybrid "
                         "with the "
                         "actuated joints prescribed")
    r = tau_r[p] - tau_p[p]
    if m == n_p:
        _check_rank(Ap, "A_p")
        lam = _math.solve(Ap.T, r)
    else:
        _numbers_only(f"constrained_inverse with redundant actuation ({m} "
                      f"constraints > {n_p} passive coordinates)", A, tau_r)
        lam = np.linalg.pinv(Ap.T) @ r                             # (59) with s = 0
        residual = Ap.T @ lam - r
        scale = 1 + np.max(np.abs(r), initial=0.0)
        if np.max(np.abs(residual), initial=0.0) > 1e-8 * scale:
            raise ValueError("A_p^T lambda = tau_pr - tau_p has no solution: A_p "
                             "is rank deficient at this configuration")
        if objective == "min_torque":
            Z = _null_space(Ap.T)                                   # m x (m - rank)
            s = np.linalg.pinv(Aa.T @ Z) @ (tau_r[a] - Aa.T @ lam)  # (64)
            lam = lam + Z @ s                                       # (63)
    tau = np.array(tau_p, dtype=np.result_type(tau_p, tau_r, lam))
    tau[a] = tau_r[a] - Aa.T @ lam                                      # (58), (60)
    return tau, lam


def constrained_hybrid(model: Model, constraints: Sequence[LoopClosure | Pfaffian],
                       q: ArrayLike, dq: ArrayLike, ddq: ArrayLike, tau: ArrayLike,
                       prescribed: ArrayLike,
                       f_ext: ArrayLike | None = None,
                       ) -> tuple[Array, Array, Array]:
    """Hybrid dynamics of a constrained system, Kim (2012), §3.3, Kim's eqs.
    (70)-(80).

    ``m <= n_v``: one hybrid call gives ``(tau_ur, ddq_r)``, ``A`` and ``dA dq``;
    ``m`` simplified calls with ``(ddq_u = 0, tau_v = A_v^T e_k)`` give ``M_vv^-1
    A_v^T`` and ``tau_uc`` (78); ``lambda = -(A_v M_vv^-1 A_v^T)^-1 (A ddq_r + dA
    dq)`` (76), ``ddq_v = ddq_vr + M_vv^-1 A_v^T lambda`` (80), ``tau_u = tau_ur +
    tau_uc - A_u^T lambda`` (79). ``m > n_v`` (one state): the constraints fix
    ``ddq_v``, and :func:`constrained_inverse` gives ``tau_u`` and ``lambda``.

    Returns
    -------
    tau_out, ddq_out : (..., nv), lam : (..., m)

    Any dtype for ``m <= n_v`` (as :func:`constrained_forward`); ``m > n_v`` (a
    least-squares solve) takes numbers only: ``TypeError`` on sympy objects.

    Raises
    ------
    ValueError
        if ``A_v M_vv^-1 A_v^T`` is singular, or the prescribed accelerations admit
        no motion
    """
    constraints = constraint_list(constraints)
    u = _coordinate_mask(model, prescribed, "prescribed")
    v = ~u
    _, _, q, dq, ddq, tau, f_ext = state(model, q, dq, ddq, tau, f_ext=f_ext,
                                         names=("dq", "ddq", "tau"))
    m, n_v = sum(c.m for c in constraints), int(v.sum())
    if m > n_v:
        return _overdetermined_hybrid(model, constraints, q, dq, ddq, tau,
                                      prescribed, f_ext, u)
    mask = np.asarray(prescribed)
    full = hybrid_pass(model, q, dq, ddq, tau, mask, f_ext)    # the full call: (77)
    kin = Kinematics(model, q, dq, fw=full.forward,
                     ground=gravity_acceleration(model))
    A, drift, _ = evaluate(model, constraints, kin, jacobian=True, drift=True)
    tau_r, ddq_r = full.tau, full.ddq
    E = np.zeros(A.shape[:-2] + (model.nv, m), dtype=A.dtype)
    E[..., v, :] = transpose(A)[..., v, :]              # columns: tau_v = A_v^T e_k
    unit_ddq, unit_tau = _simplified_pass(model, full, E, mask)         # (78)
    Minv_AvT = unit_ddq[..., v, :]                                # (..., n_v, m)
    tau_uc = unit_tau[..., u, :]                                  # (..., n_u, m)
    K = A[..., :, v] @ Minv_AvT
    _check_rank(K, "A_v M_vv^-1 A_v^T")
    lam = -_math.solve(K, (matvec(A, ddq_r) + drift)[..., None])[..., 0]  # (76)
    ddq_out, tau_out = np.array(ddq_r), np.array(tau_r)
    ddq_out[..., v] = ddq_r[..., v] + matvec(Minv_AvT, lam)                   # (80)
    tau_out[..., u] = (tau_r[..., u] + matvec(tau_uc, lam)
                       - matvec(transpose(A[..., :, u]), lam))               # (79)
    return tau_out, ddq_out, lam


def _overdetermined_hybrid(model, constraints, q, dq, ddq, tau, prescribed, f_ext,
                           u):
    """:func:`constrained_hybrid` for ``m > n_v``: ``ddq_v`` from the constraints,
    then ``tau_u`` and ``lambda`` by :func:`constrained_inverse`."""
    v = ~u
    m, n_v = sum(c.m for c in constraints), int(v.sum())
    if q.ndim != 1:
        raise ValueError("constrained_hybrid with m > "
                         "n_v takes one state, not a batch")
    _numbers_only(f"constrained_hybrid with m = {m} constraints > n_v = {n_v} "
                  "torque-given coordinates", q, dq, ddq, tau)
    A, drift, _ = evaluate(model, constraints, Kinematics(model, q, dq),
                           jacobian=True, drift=True)
    rhs = -(A[:, u] @ ddq[u] + drift)
    ddq_v = np.linalg.lstsq(A[:, v], rhs, rcond=None)[0]
    residual = np.max(np.abs(A[:, v] @ ddq_v - rhs), initial=0.0)
    if residual > 1e-8 * (1 + np.max(np.abs(rhs))):
        raise ValueError(f"m = {m} constraints exceed the n_v = {n_v} "
                         "torque-given coordinates and the prescribed "
                         "accelerations admit no consistent motion (A_v ddq_v "
                         "= -A_u ddq_u - dA dq has no solution)")
    ddq_out = np.array(ddq, dtype=float)
    ddq_out[v] = ddq_v
    tau_out, lam = constrained_inverse(model, constraints, q, dq, ddq_out,
                                       np.asarray(prescribed), tau_passive=tau,
                                       f_ext=f_ext)
    return tau_out, ddq_out, lam
