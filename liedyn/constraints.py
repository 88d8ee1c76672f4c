"""Constrained systems: closed loops and Pfaffian constraints, Kim (2012), Section 3.

A closed-loop mechanism is modelled as an open tree (the loops cut) plus constraints
``A(q) dq = 0`` (eq. (55)). The equations of motion gain the constraint forces ``A^T lambda``:

    ``M ddq + b = tau + A^T lambda``   (54),        ``A ddq + dA dq = 0``   (derivative of (55)).

Two kinds of constraints give ``A(q)`` (..., m, nv), the drift ``dA dq`` (..., m) and, for the
holonomic ones, the residual ``f(q)`` (..., m):

* :class:`LoopClosure`: a frame ``{a}`` on one body must coincide with a frame ``{b}`` on another
  in the selected directions of their relative twist (3 for a planar loop cut through a link,
  2 for a planar loop cut at a revolute joint, 3 for a spherical cut, 6 for a weld);
* :class:`Pfaffian`: ``A(q) dq = 0`` given by callables (e.g. rolling without slipping).

Then :func:`constrained_forward` (§3.2, eqs. (67)-(69)), :func:`constrained_inverse` (§3.1,
eqs. (56)-(66)) and :func:`constrained_hybrid` (§3.3, eqs. (70)-(80)), plus :func:`project`
onto the constraint manifold.

Derived in :ref:`sec-constrained`.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from ._spatial import Ad_matrix, ad_mul, inverse, matvec
from .aba import aba, aba_pass
from .hybrid import hybrid, hybrid_pass
from .kinematics import forward_kinematics, forward_pass
from .lie import log_so3
from .model import state
from .rnea import rnea

__all__ = ["LoopClosure", "Pfaffian", "constraint_jacobian", "constraint_drift",
           "constraint_residual", "constrained_forward", "constrained_forward_kkt",
           "constrained_inverse", "constrained_hybrid", "project", "RANK_TOL"]

RANK_TOL = 1e-10
"""Relative singular-value threshold below which a constraint Jacobian counts as rank deficient."""

AXES = {"wx": 0, "wy": 1, "wz": 2, "vx": 3, "vy": 4, "vz": 5}


def _T(A):
    return np.swapaxes(A, -1, -2)


class LoopClosure:
    """Frame ``{b}`` on ``body_b`` must follow frame ``{a}`` on ``body_a`` along ``axes``.

    The constrained quantity is the twist of ``{b}`` relative to ``{a}``, expressed in ``{b}``:
    ``V_rel = V_b - Ad_{T_{b,a}} V_a``; ``A = P (J_b - Ad_{T_{b,a}} J_a)`` with ``P`` selecting
    ``axes`` (names from ``"wx", "wy", "wz", "vx", "vy", "vz"`` or indices 0-5). The residual is
    ``P (log(R_a^T R_b), R_b^T (p_b - p_a))`` (zero when the frames coincide), and the drift
    ``dA dq = P (dV_b - Ad_{T_{b,a}} dV_a + ad_{V_rel} Ad_{T_{b,a}} V_a)`` with the body
    accelerations at ``ddq = 0`` (Kim (2012), eq. (41); Lemma 1).

    On the constraint manifold ``d/dt f = A dq`` when all three rotations or none are
    constrained, and for planar cuts (``"wz"`` with motion in the x-y plane). For other subsets
    of rotations with a nonzero free relative rotation (e.g. a spatial revolute cut,
    ``axes=("wx", "wy", "vx", "vy", "vz")``) the rotational rows of ``d/dt f`` are an invertible
    recombination of those of ``A dq``: the same constraint, enough for :func:`project`, but the
    ``beta`` term of Baumgarte stabilisation is then only approximate.

    Parameters
    ----------
    body_a, body_b : int or str (0 / "ground" allowed for one of them)
    frame_a, frame_b : (4, 4) arrays, optional: the frames in their bodies (identity)
    axes : sequence of axis names or indices (default all six: a weld)

    Examples
    --------
    >>> from liedyn.robots import four_bar
    >>> model, loops, q0 = four_bar()
    >>> loops[0].jacobian(model, q0).shape
    (2, 3)
    """

    def __init__(self, body_a, body_b, frame_a=None, frame_b=None,
                 axes=("wx", "wy", "wz", "vx", "vy", "vz")):
        self.body_a, self.body_b = body_a, body_b
        self.frame_a = np.eye(4) if frame_a is None else _checks.homogeneous("frame_a", frame_a)
        self.frame_b = np.eye(4) if frame_b is None else _checks.homogeneous("frame_b", frame_b)
        idx = [AXES.get(a, a) for a in axes]
        if not idx or any(not isinstance(k, (int, np.integer)) or not 0 <= k < 6 for k in idx) \
                or len(set(idx)) != len(idx):
            raise ValueError(f"argument 'axes': expected distinct names in {list(AXES)} or "
                             f"indices 0-5, got {list(axes)}")
        self.axes = np.array(idx)
        self.m = len(idx)

    def __repr__(self):
        return f"LoopClosure({self.body_a!r}, {self.body_b!r}, axes={self.axes.tolist()})"

    def _frames(self, model, q):
        a, b = model.body(self.body_a), model.body(self.body_b)
        Tw = forward_kinematics(model, q).T_world
        return a, b, Tw[..., a, :, :] @ self.frame_a, Tw[..., b, :, :] @ self.frame_b

    def _jacobian(self, model, q, body, frame):
        from .kinematics import frame_jacobian
        if body == 0:
            return np.zeros(q.shape[:-1] + (6, model.nv))
        return frame_jacobian(model, q, body, frame)

    def residual(self, model, q):
        """``f(q)`` (..., m): the selected rotation-vector and position errors of {b} from {a}."""
        q = model.check_q(q)
        _, _, Ta, Tb = self._frames(model, q)
        Rab = _T(Ta[..., :3, :3]) @ Tb[..., :3, :3]
        err = np.concatenate([log_so3(Rab), matvec(_T(Tb[..., :3, :3]),
                                                   Tb[..., :3, 3] - Ta[..., :3, 3])], axis=-1)
        return err[..., self.axes]

    def jacobian(self, model, q):
        """``A(q)`` (..., m, nv) with ``A dq = P V_rel``."""
        q = model.check_q(q)
        a, b, Ta, Tb = self._frames(model, q)
        Tba = inverse(Tb) @ Ta
        A = self._jacobian(model, q, b, self.frame_b) - \
            Ad_matrix(Tba[..., :3, :3], Tba[..., :3, 3]) @ self._jacobian(model, q, a, self.frame_a)
        return A[..., self.axes, :]

    def drift(self, model, q, dq):
        """``dA/dt dq`` (..., m): the part of ``d/dt (A dq)`` that does not depend on ``ddq``."""
        _, _, q, dq, _ = state(model, q, dq)
        a, b, Ta, Tb = self._frames(model, q)
        fw = forward_pass(model, q, dq)
        Va, dVa = _frame_motion(fw, a, self.frame_a)
        Vb, dVb = _frame_motion(fw, b, self.frame_b)
        Tba = inverse(Tb) @ Ta
        Ad_ba = Ad_matrix(Tba[..., :3, :3], Tba[..., :3, 3])
        AVa = matvec(Ad_ba, Va)
        acc = dVb - matvec(Ad_ba, dVa) + ad_mul(Vb - AVa, AVa)
        return acc[..., self.axes]


def _frame_motion(fw, body, frame):
    """Twist and acceleration (at ddq = 0, no gravity) of a frame fixed on ``body``."""
    from ._spatial import Ad_inv_mul
    if body == 0:
        return np.zeros(6), np.zeros(6)
    R, p = frame[:3, :3], frame[:3, 3]
    return Ad_inv_mul(R, p, fw.V[body]), Ad_inv_mul(R, p, fw.dV[body])


class Pfaffian:
    """A (possibly non-holonomic) constraint ``A(q) dq = 0`` given by callables.

    Kim (2012), eq. (55); Murray, Li and Sastry, Ch. 4 (Pfaffian constraints).

    Parameters
    ----------
    A : callable ``(q) -> (m, nv)`` array
    drift : callable ``(q, dq) -> (m,)`` array, the term ``dA/dt dq``
    residual : callable ``(q) -> (m,)``, optional (holonomic constraints only)
    m : int, the number of rows

    Examples
    --------
    >>> from liedyn.robots import rolling_disk
    >>> model, cons, q0 = rolling_disk()
    >>> cons[0].jacobian(model, q0).shape
    (2, 4)
    """

    def __init__(self, A, drift, m, residual=None):
        for name, f in (("A", A), ("drift", drift)):
            if not callable(f):
                raise TypeError(f"argument '{name}': expected a callable, got {type(f).__name__}")
        self._A, self._drift, self._residual, self.m = A, drift, residual, int(m)

    def __repr__(self):
        return f"Pfaffian(m={self.m})"

    def residual(self, model, q):
        if self._residual is None:
            return np.zeros(np.shape(q)[:-1] + (0,))
        return np.asarray(self._residual(model.check_q(q)))

    def jacobian(self, model, q):
        A = np.asarray(self._A(model.check_q(q)), dtype=float)
        if A.shape[-2:] != (self.m, model.nv):
            raise ValueError(f"Pfaffian A(q): expected shape (..., {self.m}, {model.nv}), "
                             f"got {A.shape}")
        return A

    def drift(self, model, q, dq):
        return np.asarray(self._drift(model.check_q(q), model.check_v(dq)), dtype=float)


def constraint_jacobian(model, constraints, q):
    """All constraints' ``A(q)`` stacked: (..., m, nv). Kim (2012), eq. (55)."""
    return np.concatenate([c.jacobian(model, q) for c in constraints], axis=-2)


def constraint_drift(model, constraints, q, dq):
    """All constraints' ``dA/dt dq`` stacked: (..., m). Kim (2012), eq. (67)."""
    parts = [np.broadcast_to(c.drift(model, q, dq), np.shape(q)[:-1] + (c.m,))
             for c in constraints]
    return np.concatenate(parts, axis=-1)


def constraint_residual(model, constraints, q):
    """The holonomic residuals ``f(q)`` stacked (Pfaffian constraints without one add nothing).

    Kim (2012), Section 3: ``f(q) = 0`` with ``A = df/dq``.
    """
    return np.concatenate([c.residual(model, q) for c in constraints], axis=-1)


def _check_rank(G, what):
    s = np.linalg.svd(G, compute_uv=False)
    if np.any(s[..., -1] <= RANK_TOL * np.maximum(s[..., 0], 1e-300)):
        raise ValueError(f"{what} is singular (smallest/largest singular value "
                         f"{np.min(s[..., -1] / np.maximum(s[..., 0], 1e-300)):.2e}): the "
                         "constraint Jacobian is rank deficient at this configuration (redundant "
                         "constraints or a singular pose)")


def _stabilised_rhs(model, constraints, q, dq, baumgarte):
    """``dA dq + 2 alpha A dq + beta^2 f``: the acceleration-level constraint right-hand side."""
    rhs = constraint_drift(model, constraints, q, dq)
    if baumgarte is not None:
        alpha, beta = baumgarte
        A = constraint_jacobian(model, constraints, q)
        rhs = rhs + 2 * alpha * matvec(A, dq)
        holonomic = [c for c in constraints if isinstance(c, LoopClosure)]
        if beta and len(holonomic) == len(constraints):
            rhs = rhs + beta ** 2 * constraint_residual(model, constraints, q)
    return rhs


@dataclass(frozen=True)
class ConstrainedForward:
    """``ddq`` and ``lam`` of :func:`constrained_forward`, with ``ddq_r`` (unconstrained) and
    ``MinvAT`` (``M^-1 A^T``, (..., nv, m))."""

    ddq: np.ndarray
    lam: np.ndarray
    ddq_r: np.ndarray
    MinvAT: np.ndarray


def constrained_forward(model, constraints, q, dq, tau, f_ext=None, baumgarte=None,
                        full_output=False):
    """Forward dynamics of a constrained system by the recursive method of Kim (2012), §3.2.

    One full articulated-body call gives ``ddq_r = M^-1 (tau - b)``; ``m`` simplified calls
    (no velocity, no gravity; one vectorised pass with the ``m`` columns of ``A^T`` as torques)
    give ``M^-1 A^T``; then ``lambda = -(A M^-1 A^T)^-1 (A ddq_r + dA dq)`` (eq. (67)) and
    ``ddq = ddq_r + M^-1 A^T lambda`` (eqs. (68)-(69)): O(n m) + O(m^3).

    Parameters
    ----------
    model : liedyn.model.Model
    constraints : sequence of LoopClosure / Pfaffian
    q : (..., nq);  dq, tau : (..., nv);  f_ext : (..., N, 6), optional
    baumgarte : (alpha, beta), optional
        stabilisation: enforce ``A ddq + dA dq + 2 alpha A dq + beta^2 f = 0``
    full_output : bool, return a :class:`ConstrainedForward` record

    Returns
    -------
    ddq : (..., nv), lam : (..., m)

    Raises
    ------
    ValueError
        if ``A M^-1 A^T`` is singular (rank-deficient constraints or a singular pose)
    """
    _, _, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext, names=("dq", "tau"))
    A = constraint_jacobian(model, constraints, q)
    ddq_r = aba(model, q, dq, tau, f_ext)
    MinvAT = _T(aba_pass(model, q[..., None, :], np.zeros(model.nv), A,
                         dV0=np.zeros(6)).ddq)                         # (..., nv, m)
    G = A @ MinvAT
    _check_rank(G, "A M^-1 A^T")
    rhs = matvec(A, ddq_r) + _stabilised_rhs(model, constraints, q, dq, baumgarte)
    lam = -np.linalg.solve(G, rhs[..., None])[..., 0]                   # (67)
    ddq = ddq_r + matvec(MinvAT, lam)                                   # (69)
    if full_output:
        return ConstrainedForward(ddq, lam, ddq_r, MinvAT)
    return ddq, lam


def constrained_forward_kkt(model, constraints, q, dq, tau, f_ext=None, baumgarte=None):
    """The same as :func:`constrained_forward` by one dense KKT solve, for checking.

    Kim (2012), eqs. (54)-(55):
    ``[[M, -A^T], [A, 0]] [ddq; lambda] = [tau - b; -(dA dq)]``, with ``M``
    by CRBA and ``b`` by RNEA: O(n^2) + O((n + m)^3).
    """
    from .crba import mass_matrix
    _, _, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext, names=("dq", "tau"))
    A = constraint_jacobian(model, constraints, q)
    M = mass_matrix(model, q)
    b = rnea(model, q, dq, np.zeros(model.nv), f_ext)
    m, n = A.shape[-2], model.nv
    batch = np.broadcast_shapes(M.shape[:-2], A.shape[:-2])
    K = np.zeros(batch + (n + m, n + m))
    K[..., :n, :n], K[..., :n, n:], K[..., n:, :n] = M, -_T(A), A
    rhs = np.concatenate([np.broadcast_to(tau - b, batch + (n,)),
                          -np.broadcast_to(_stabilised_rhs(model, constraints, q, dq, baumgarte),
                                           batch + (m,))], axis=-1)
    _check_rank(K, "the KKT matrix")
    x = np.linalg.solve(K, rhs[..., None])[..., 0]
    return x[..., :n], x[..., n:]


def _coordinate_mask(model, per_joint, name):
    """A per-coordinate boolean mask (nv,) from one boolean per joint, validated as ``name``."""
    mask = np.asarray(per_joint)
    if mask.shape != (model.nbodies,) or mask.dtype != bool:
        raise ValueError(f"argument '{name}': expected {model.nbodies} booleans (one per joint), "
                         f"got {mask.dtype} array of shape {mask.shape}")
    out = np.zeros(model.nv, dtype=bool)
    for i in range(1, model.nbodies + 1):
        out[model.v_slice[i]] = mask[i - 1]
    return out


def _null_space(B):
    """An orthonormal basis of the null space of ``B`` (rows: constraints)."""
    _, s, Vt = np.linalg.svd(B)
    rank = int(np.sum(s > RANK_TOL * max(s[0] if s.size else 0, 1e-300)))
    return Vt[rank:].T


def _check_consistent(model, constraints, q, dq, ddq, tol=1e-6):
    A = constraint_jacobian(model, constraints, q)
    vel = matvec(A, dq)
    acc = matvec(A, ddq) + constraint_drift(model, constraints, q, dq)
    scale = 1 + np.max(np.abs(dq)) + np.max(np.abs(ddq))
    if np.max(np.abs(vel)) > tol * scale or np.max(np.abs(acc)) > tol * scale:
        raise ValueError(f"the state is inconsistent with the constraints: |A dq| = "
                         f"{np.max(np.abs(vel)):.2e}, |A ddq + dA dq| = {np.max(np.abs(acc)):.2e} "
                         f"(tolerance {tol:g}, relative); use liedyn.constraints.project")
    return A


def constrained_inverse(model, constraints, q, dq, ddq, actuated, tau_passive=None,
                        objective="min_torque", f_ext=None):
    """Inverse dynamics of a constrained system, Kim (2012), §3.1, eqs. (56)-(66).

    With ``tau_r = rnea(q, dq, ddq)`` split into actuated (a) and passive (p) coordinates,
    ``A_p^T lambda = tau_pr - tau_p`` (57) and ``tau_a = tau_ar - A_a^T lambda`` (58):

    * ``m == n_p``: unique (eq. (58));
    * ``m > n_p`` (redundant actuation): ``lambda = (A_p^T)^+ (tau_pr - tau_p) + N s``
      (eq. (59)); ``objective="min_constraint_force"`` takes ``s = 0``, the least ``|lambda|``;
      ``"min_torque"`` takes ``s* = (A_a^T N)^+ (...)`` (eqs. (62)-(64)), the least ``|tau_a|``;
    * ``m < n_p``: no exact solution: ``ValueError`` (use :func:`constrained_hybrid`).

    The state must satisfy ``A dq = 0`` and ``A ddq + dA dq = 0`` (checked, relative 1e-6).

    Parameters
    ----------
    actuated : sequence of N bool, one per joint
    tau_passive : (nv,) array, optional: torques of the passive joints (entries on actuated
        coordinates ignored); default zero
    objective : {"min_torque", "min_constraint_force"}

    Returns
    -------
    tau : (nv,) array (passive entries = ``tau_passive``), lam : (m,) array
    """
    _checks.choice("objective", objective, ("min_torque", "min_constraint_force"))
    a = _coordinate_mask(model, actuated, "actuated")
    p = ~a
    q, dq, ddq = model.check_q(q), model.check_v(dq), model.check_v(ddq, "ddq")
    if q.ndim != 1:
        raise ValueError("constrained_inverse takes one state (q of shape (nq,)), got a batch "
                         f"{q.shape}")
    A = _check_consistent(model, constraints, q, dq, ddq)
    tau_r = rnea(model, q, dq, ddq, f_ext)
    tau_p = np.zeros(model.nv) if tau_passive is None else model.check_v(tau_passive, "tau_passive")
    m, n_p = A.shape[0], int(p.sum())
    Aa, Ap = A[:, a], A[:, p]
    if m < n_p:
        raise ValueError(f"{m} constraints cannot make {n_p} passive coordinates follow a "
                         "prescribed motion (m < n_p): no exact solution; use "
                         "liedyn.constraints.constrained_hybrid with the actuated joints prescribed")
    r = tau_r[p] - tau_p[p]
    if m == n_p:
        _check_rank(Ap, "A_p")
        lam = np.linalg.solve(Ap.T, r)
    else:
        lam = np.linalg.pinv(Ap.T) @ r                                  # (59) with s = 0
        residual = Ap.T @ lam - r
        if np.max(np.abs(residual), initial=0.0) > 1e-8 * (1 + np.max(np.abs(r), initial=0.0)):
            raise ValueError("A_p^T lambda = tau_pr - tau_p has no solution: A_p is rank "
                             "deficient at this configuration")
        if objective == "min_torque":
            N = _null_space(Ap.T)                                       # m x (m - rank)
            s = np.linalg.pinv(Aa.T @ N) @ (tau_r[a] - Aa.T @ lam)      # (64)
            lam = lam + N @ s                                           # (63)
    tau = tau_p.copy()
    tau[a] = tau_r[a] - Aa.T @ lam                                      # (58), (60)
    return tau, lam


def constrained_hybrid(model, constraints, q, dq, ddq, tau, prescribed, f_ext=None):
    """Hybrid dynamics of a constrained system, Kim (2012), §3.3, eqs. (70)-(80).

    For ``m <= n_v``: one hybrid call gives the unconstrained solution ``(tau_ur, ddq_r)``; ``m``
    simplified calls with inputs ``(ddq_u = 0, tau_v = A_v^T e_k)`` give ``M_vv^-1 A_v^T`` and the
    matching ``tau_uc``; ``lambda = -(A_v M_vv^-1 A_v^T)^-1 (A ddq_r + dA dq)`` (eq. (76));
    ``ddq_v = ddq_vr + M_vv^-1 A_v^T lambda`` (80), ``tau_u = tau_ur + tau_uc - A_u^T lambda`` (79).
    For ``m > n_v`` the constraints fix ``ddq_v`` (``A_v ddq_v = -A_u ddq_u - dA dq``, solved
    exactly or ``ValueError`` if inconsistent) and ``tau_u``, ``lambda`` follow from the
    inverse-dynamics formulation with 'a', 'p' replaced by 'u', 'v' (minimum-torque choice).

    Returns
    -------
    tau_out, ddq_out : (..., nv), lam : (..., m)
    """
    u = _coordinate_mask(model, prescribed, "prescribed")
    v = ~u
    _, _, q, dq, ddq, tau, f_ext = state(model, q, dq, ddq, tau, f_ext=f_ext,
                                         names=("dq", "ddq", "tau"))
    A = constraint_jacobian(model, constraints, q)
    drift = constraint_drift(model, constraints, q, dq)
    m, n_v = A.shape[-2], int(v.sum())
    if m > n_v:
        if q.ndim != 1:
            raise ValueError("constrained_hybrid with m > n_v takes one state, not a batch")
        rhs = -(A[:, u] @ ddq[u] + drift)
        ddq_v = np.linalg.lstsq(A[:, v], rhs, rcond=None)[0]
        if np.max(np.abs(A[:, v] @ ddq_v - rhs), initial=0.0) > 1e-8 * (1 + np.max(np.abs(rhs))):
            raise ValueError(f"m = {m} constraints exceed the n_v = {n_v} torque-given "
                             "coordinates and the prescribed accelerations admit no consistent "
                             "motion (A_v ddq_v = -A_u ddq_u - dA dq has no solution)")
        ddq_out = np.array(ddq, dtype=float)
        ddq_out[v] = ddq_v
        tau_out, lam = constrained_inverse(model, constraints, q, dq, ddq_out,
                                           np.asarray(prescribed), tau_passive=tau, f_ext=f_ext)
        return tau_out, ddq_out, lam
    mask = np.asarray(prescribed)
    tau_r, ddq_r = hybrid(model, q, dq, ddq, tau, mask, f_ext)
    E = np.zeros(A.shape[:-2] + (m, model.nv))
    E[..., v] = A[..., :, v]                                      # rows: A_v^T e_k as torques
    unit = hybrid_pass(model, q[..., None, :], np.zeros(model.nv), np.zeros(model.nv), E, mask,
                       f_ext=None, dV0=np.zeros(6))
    Minv_AvT = _T(unit.ddq[..., v])                               # (..., n_v, m)
    tau_uc = _T(unit.tau[..., u])                                 # (..., n_u, m)
    K = A[..., :, v] @ Minv_AvT
    _check_rank(K, "A_v M_vv^-1 A_v^T")
    lam = -np.linalg.solve(K, (matvec(A, ddq_r) + drift)[..., None])[..., 0]     # (76)
    ddq_out, tau_out = np.array(ddq_r), np.array(tau_r)
    ddq_out[..., v] = ddq_r[..., v] + matvec(Minv_AvT, lam)                      # (80)
    tau_out[..., u] = tau_r[..., u] + matvec(tau_uc, lam) - matvec(_T(A[..., :, u]), lam)  # (79)
    return tau_out, ddq_out, lam


def project(model, constraints, q, dq=None, tol=1e-12, max_iter=50):
    """Project ``(q, dq)`` onto the constraint manifold: consistent initial conditions, drift repair.

    Kim (2012), Section 3 assumes a state consistent with ``f(q) = 0`` and eq. (55); this makes one.

    Newton-Gauss steps ``q <- q (+) (-A^+ f(q))`` (on the manifold,
    :meth:`liedyn.model.Model.integrate`) until ``|f| < tol``, then ``dq <- (1 - A^+ A) dq``
    (the nearest velocity with ``A dq = 0``).

    Returns
    -------
    q : (nq,) array, and dq : (nv,) array when ``dq`` is given

    Raises
    ------
    ValueError
        if Newton's method does not converge within ``max_iter`` steps
    """
    q = np.array(model.check_q(q), dtype=float)
    for _ in range(max_iter):
        f = constraint_residual(model, constraints, q)
        if f.size == 0 or np.max(np.abs(f)) < tol:
            break
        holonomic = [c for c in constraints if c.residual(model, q).size]
        A = constraint_jacobian(model, holonomic, q)
        q = model.integrate(q, -np.linalg.pinv(A) @ f)
    else:
        raise ValueError(f"project: Newton's method did not reach |f(q)| < {tol:g} in "
                         f"{max_iter} steps (|f| = {np.max(np.abs(f)):.2e}); is the "
                         "configuration far from the constraint manifold or singular?")
    if dq is None:
        return q
    A = constraint_jacobian(model, constraints, q)
    dq = model.check_v(dq)
    return q, dq - np.linalg.pinv(A) @ (A @ dq)
