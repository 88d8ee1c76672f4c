"""Constrained systems, Kim (2012), Section 3: closed loops and Pfaffian
constraints; derived in :ref:`sec-constrained`.

A closed-loop mechanism is an open tree (the loops cut) plus constraints
``A(q) dq = 0`` (Kim's eq. (55)) whose forces ``A^T lambda`` enter the equations of
motion: ``M ddq + b = tau + A^T lambda`` (54) and ``A ddq + dA dq = 0``. A
:class:`LoopClosure` (a frame on one body follows a frame on another in chosen
directions) or a :class:`Pfaffian` (callables, e.g. rolling) gives ``A(q)`` (..., m,
nv), the drift ``dA dq`` (..., m) and, if holonomic, the residual ``f(q)``;
:func:`project` moves a state onto the constraint manifold. The dynamics (Kim's
§3.1-3.3) are in :mod:`liedyn.constrained_dynamics`; they evaluate all constraints
from the forward recursion of their articulated-body (or hybrid) pass
(:class:`Kinematics`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from ._spatial import Ad_inv_mul, Ad_mul, ad_mul, compose, matvec, transpose
from .kinematics import forward_pass, joint_transforms, world_poses
from .lie import log_so3
from .model import state

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ._types import Array, ArrayLike
    from .model import Model

__all__ = ["LoopClosure", "Pfaffian", "constraint_jacobian", "constraint_drift",
           "constraint_residual", "project"]

AXES = {"wx": 0, "wy": 1, "wz": 2, "vx": 3, "vy": 4, "vz": 5}


class Kinematics:
    """One forward recursion (Kim (2012), eqs. (37), (41)) shared by all
    constraints.

    Per body: ``R``, ``p`` of ``T_{lambda(i),i}``, ``S``, world poses ``Rw``, ``pw``
    and, given ``dq``, the twists ``V`` and accelerations at ``ddq = 0``. ``fw`` may
    be the forward pass of a dynamics call; its accelerations then include the
    ground acceleration ``ground``, which :meth:`motion` takes out.
    """

    def __init__(self, model, q, dq=None, fw=None, ground=None):
        self.q, self.dq, self.ground = q, dq, ground
        self.batch = (
            q.shape[:-1]
            if dq is None
            else np.broadcast_shapes(q.shape[:-1], dq.shape[:-1]))
        if fw is None and dq is None:                  # configuration only: T and S
            self.R, self.p = joint_transforms(model, q)
            self.S = [None] + [model.joints[i]._S(q[..., model.q_slice[i]])
                               for i in range(1, model.nbodies + 1)]
            self.V = self.dV = None
        else:
            fw = forward_pass(model, q, dq) if fw is None else fw
            self.R, self.p, self.S, self.V, self.dV = fw.R, fw.p, fw.S, fw.V, fw.dV
        self.Rw, self.pw = world_poses(model, self.R, self.p)
        self._columns = None

    def columns(self, model):
        """``Ad_{T_{0,j}} S_j`` of every joint (..., nv, 6): the world-frame
        Jacobian columns (Kim eq. (11)), computed once.
        """
        if self._columns is None:
            N = model.nbodies
            body = np.repeat(np.arange(N),
                             [model.joints[i].nv for i in range(1, N + 1)])
            Rw = np.stack(np.broadcast_arrays(*self.Rw[1:]), axis=-3)[
                ..., body, :, :]
            pw = np.stack(np.broadcast_arrays(*self.pw[1:]), axis=-2)[..., body, :]
            batch = self.q.shape[:-1]
            S = np.concatenate(
                [transpose(np.broadcast_to(self.S[i], batch + self.S[i].shape[-2:]))
                 for i in range(1, N + 1)], axis=-2)
            self._columns = Ad_mul(Rw, pw, S)
        return self._columns

    def pose(self, body, frame):
        """World pose ``(R, p)`` of the frame ``T_{i,f}`` fixed on ``body``."""
        return compose(self.Rw[body], self.pw[body], frame[:3, :3], frame[:3, 3])

    def motion(self, body, frame):
        """Twist and acceleration (``ddq = 0``, no gravity) of a frame on
        ``body``."""
        dV = self.dV[body]
        if self.ground is not None:           # Ad_{T_{0,i}^-1} dV_0 came along (41)
            dV = dV - Ad_inv_mul(self.Rw[body], self.pw[body], self.ground)
        R, p = frame[:3, :3], frame[:3, 3]
        return Ad_inv_mul(R, p, self.V[body]), Ad_inv_mul(R, p, dV)


class LoopClosure:
    """Frame ``{b}`` on ``body_b`` must follow frame ``{a}`` on ``body_a`` along
    ``axes``.

    The constrained quantity is the twist of {b} relative to {a}, in {b}:
    ``V_rel = V_b - Ad_{T_{b,a}} V_a``, so ``A = P (J_b - Ad_{T_{b,a}} J_a)`` with
    ``P`` selecting ``axes``. The residual is ``P (log(R_a^T R_b), R_b^T (p_b -
    p_a))`` and the drift ``dA dq = P (dV_b - Ad_{T_{b,a}} dV_a + ad_{V_rel}
    Ad_{T_{b,a}} V_a)`` at ``ddq = 0`` (Kim (2012), eq. (41); Lemma 1). ``d/dt f = A
    dq`` when all three rotations or none are constrained, and for planar cuts;
    otherwise the rotational rows differ by an invertible recombination (fine for
    :func:`project`, approximate for Baumgarte's ``beta``).

    Parameters
    ----------
    body_a, body_b : int or str (0 / "ground" allowed for one of them)
    frame_a, frame_b : (4, 4) arrays, optional
        the frames in their bodies (identity)
    axes : sequence of names ``"wx", "wy", "wz", "vx", "vy", "vz"`` or indices 0-5
        default all six: a weld; 3 for a planar loop cut through a link, 2 cut at a
        revolute joint, 3 for a spherical cut

    Examples
    --------
    >>> from liedyn.robots import four_bar
    >>> model, loops, q0 = four_bar()
    >>> loops[0].jacobian(model, q0).shape
    (2, 3)
    """

    holonomic = True

    def __init__(self, body_a: int | str, body_b: int | str,
                 frame_a: ArrayLike | None = None, frame_b: ArrayLike | None = None,
                 axes: Sequence[str | int] = ("wx", "wy", "wz", "vx", "vy", "vz"),
                 ) -> None:
        for name, body in (("body_a", body_a), ("body_b", body_b)):
            if isinstance(body, (bool, np.bool_)) or not isinstance(
                body, (str, int, np.integer)):
                raise TypeError(f"argument '{name}': expected a body index or "
                                f"name, got {body!r} (type {type(body).__name__})")
        if body_a == body_b:
            raise ValueError("arguments 'body_a', 'body_b': a loop closure joins "
                             f"two different bodies, got {body_a!r} twice")
        self.body_a, self.body_b = body_a, body_b
        self.frame_a = (np.eye(4) if frame_a is None
                        else _checks.transform("frame_a", frame_a))
        self.frame_b = (np.eye(4) if frame_b is None
                        else _checks.transform("frame_b", frame_b))
        if isinstance(axes, (str, bytes)) or not hasattr(axes, "__iter__"):
            raise TypeError("argument 'axes': expected a sequence of axis names "
                            f"or indices, got {axes!r}")
        idx = [AXES.get(a, a) if isinstance(a, str) else a for a in axes]
        if (
            not idx
            or any(
                isinstance(k, (bool, np.bool_))
                or not isinstance(k, (int, np.integer))
                or not 0 <= k < 6
                for k in idx)
            or len(set(idx)) != len(idx)
        ):
            raise ValueError("argument 'axes': expected distinct names in "
                             f"{list(AXES)} or indices 0-5, got {list(axes)}")
        self.axes = np.array(idx)
        self.m = len(idx)

    def __repr__(self):
        return (f"LoopClosure({self.body_a!r}, {self.body_b!r}, "
                f"axes={self.axes.tolist()})")

    def residual(self, model: Model, q: ArrayLike) -> Array:
        """``f(q)`` (..., m): the selected rotation-vector and position errors."""
        return self._terms(model, Kinematics(model, model.check_q(q)),
                           residual=True)[2]

    def jacobian(self, model: Model, q: ArrayLike) -> Array:
        """``A(q)`` (..., m, nv) with ``A dq = P V_rel``."""
        return self._terms(model, Kinematics(model, model.check_q(q)),
                           jacobian=True)[0]

    def drift(self, model: Model, q: ArrayLike, dq: ArrayLike) -> Array:
        """``dA/dt dq`` (..., m): the part of ``d/dt (A dq)`` without ``ddq``."""
        _, _, q, dq, _ = state(model, q, dq)
        return self._terms(model, Kinematics(model, q, dq), drift=True)[1]

    def _terms(self, model, kin, jacobian=False, drift=False, residual=False):
        """``(A, dA dq, f)`` from shared kinematics ``kin``; ``None`` if not
        asked."""
        a, b = model.body(self.body_a), model.body(self.body_b)
        Ta, Tb = kin.pose(a, self.frame_a), kin.pose(b, self.frame_b)
        return (self._jacobian(model, kin, a, b, Tb) if jacobian else None,
                self._drift(kin, a, b, Ta, Tb) if drift else None,
                self._residual(Ta, Tb) if residual else None)

    def _jacobian(self, model, kin, a, b, Tb):
        """``A = P (J_b - Ad_{T_ba} J_a)``; ``Tb = (R, p)`` is the world pose of
        ``{b}``.

        Joint ``j`` moves {b} by ``Ad_{T_{b,j}} S_j dq_j`` (Kim eq. (11)) if it is
        on the path to b, and {a} likewise; joints on both paths move them alike and
        cancel.
        """
        # joint j moves {b} by Ad_{T_{b,j}} S_j dq_j (Kim eq. (11)) if it is on the
        # path to b, and {a} by Ad_{T_{a,j}} S_j dq_j if it is on the path to a; as
        # Ad_{T_ba} Ad_{T_{a,j}} = Ad_{T_{b,j}}, A = P Ad_{T_{0,b}^-1} sum_j s_j
        # Ad_{T_{0,j}} S_j with s_j = +1 on the path to b only, -1 on the path to a
        # only, and 0 on both (those move {a} and {b} alike)
        path_a, path_b = model.support(a), model.support(b)
        s = np.zeros(model.nv)
        for j in set(path_a) ^ set(path_b):
            s[model.v_slice[j]] = 1.0 if j in path_b else -1.0
        Rb, pb = Tb
        cols = Ad_inv_mul(Rb[..., None, :, :], pb[..., None, :],
                          s[:, None] * kin.columns(model))    # (..., nv, 6), in {b}
        return transpose(cols[..., self.axes])

    def _drift(self, kin, a, b, Ta, Tb):
        """``dA dq = P (dV_b - Ad_{T_ba} dV_a + ad_{V_rel} Ad_{T_ba} V_a)``."""
        (Ra, pa), (Rb, pb) = Ta, Tb
        Va, dVa = kin.motion(a, self.frame_a)
        Vb, dVb = kin.motion(b, self.frame_b)
        Rba, pba = transpose(Rb) @ Ra, matvec(transpose(Rb), pa - pb)  # T_b^-1 T_a
        AVa = Ad_mul(Rba, pba, Va)
        acc = dVb - Ad_mul(Rba, pba, dVa) + ad_mul(Vb - AVa, AVa)
        return acc[..., self.axes]

    def _residual(self, Ta, Tb):
        """``f = P (log(R_a^T R_b), R_b^T (p_b - p_a))``."""
        (Ra, pa), (Rb, pb) = Ta, Tb
        err = np.concatenate([log_so3(transpose(Ra) @ Rb),
                              matvec(transpose(Rb), pb - pa)], axis=-1)
        return err[..., self.axes]


class Pfaffian:
    """A (possibly non-holonomic) constraint ``A(q) dq = 0`` given by callables.

    Kim (2012), eq. (55); Murray, Li and Sastry, Ch. 4 (Pfaffian constraints).

    Parameters
    ----------
    A : callable ``(q) -> (m, nv)`` array
    drift : callable ``(q, dq) -> (m,)`` array, the term ``dA/dt dq``
    m : int, the number of rows
    residual : callable ``(q) -> (m,)``, optional
        holonomic constraints only: ``f(q)`` with ``A = df/dq``, for :func:`project`
        and Baumgarte's ``beta`` term

    Examples
    --------
    >>> from liedyn.robots import rolling_disk
    >>> model, cons, q0 = rolling_disk()
    >>> cons[0].jacobian(model, q0).shape
    (2, 4)
    """

    def __init__(self, A: Callable[..., ArrayLike], drift: Callable[..., ArrayLike],
                 m: int, residual: Callable[..., ArrayLike] | None = None) -> None:
        for name, f in (("A", A), ("drift", drift)):
            if not callable(f):
                raise TypeError(f"argument '{name}': expected a callable, got "
                                f"{type(f).__name__}")
        if residual is not None and not callable(residual):
            raise TypeError("argument 'residual': expected a callable or None, "
                            f"got {type(residual).__name__}")
        self._A, self._drift, self._residual = A, drift, residual
        self.m = _checks.scalar("m", m, positive=True, integer=True)

    def __repr__(self):
        return f"Pfaffian(m={self.m})"

    @property
    def holonomic(self) -> bool:
        """True if the constraint has a residual ``f(q)``."""
        return self._residual is not None

    def residual(self, model: Model, q: ArrayLike) -> Array:
        """``f(q)`` (..., m), or an empty (..., 0) array without one."""
        if self._residual is None:
            return np.zeros(np.shape(q)[:-1] + (0,))
        f = _checks.array("residual", self._residual(model.check_q(q)), (self.m,))
        return f

    def jacobian(self, model: Model, q: ArrayLike) -> Array:
        """``A(q)`` (..., m, nv) from the callable."""
        try:
            return _checks.array("A", self._A(model.check_q(q)), (self.m, model.nv))
        except (TypeError, ValueError) as err:
            raise type(err)(f"Pfaffian: {err} (what A(q) returned; m = {self.m}, "
                            f"nv = {model.nv})") from None

    def drift(self, model: Model, q: ArrayLike, dq: ArrayLike) -> Array:
        """``dA/dt dq`` (..., m) from the callable."""
        try:
            return _checks.array(
                "drift", self._drift(model.check_q(q), model.check_v(dq)), (self.m,)
            )
        except (TypeError, ValueError) as err:
            raise type(err)(f"Pfaffian: {err} (what drift(q, "
                            f"dq) returned; m = {self.m})") \
                from None

    def _terms(self, model, kin, jacobian=False, drift=False, residual=False):
        """``(A, dA dq, f)`` as :meth:`LoopClosure._terms`; ``f`` zero without a
        residual."""
        return (self.jacobian(model, kin.q) if jacobian else None,
                self.drift(model, kin.q, kin.dq) if drift else None,
                (self.residual(model, kin.q) if self.holonomic
                 else np.zeros(kin.batch + (self.m,))) if residual else None)


def constraint_list(constraints, allow_empty=False):
    """A non-empty list of LoopClosure / Pfaffian (a single one must be wrapped)."""
    constraints = _checks.sequence("constraints", constraints,
                                   (LoopClosure, Pfaffian),
                                   "LoopClosure or Pfaffian constraints")
    if not constraints and not allow_empty:
        raise ValueError("argument 'constraints': expected at least one "
                         "LoopClosure or Pfaffian constraint, got an empty "
                         "sequence (without constraints use "
                         "liedyn.forward_dynamics.aba, rnea or hybrid)")
    return constraints


def baumgarte_gains(baumgarte):
    """``None`` or ``(alpha, beta)``: two finite numbers, ``alpha >= 0``."""
    if baumgarte is None:
        return None
    gains = _checks.array("baumgarte", baumgarte, (2,))
    if gains.shape != (2,) or gains.dtype == complex or gains[0] < 0:
        raise ValueError("argument 'baumgarte': expected (alpha, beta) with alpha "
                         f">= 0, got {baumgarte!r}")
    return tuple(gains)


def evaluate(model, constraints, kin, jacobian=False, drift=False, residual=False):
    """All constraints' ``A`` (..., m, nv), ``dA dq`` and ``f`` (..., m), stacked
    (zero rows of ``f`` without a residual; None for those not asked).
    """
    constraints = constraint_list(constraints)
    parts = [c._terms(model, kin, jacobian, drift, residual) for c in constraints]
    out = []
    for k, (wanted, tail) in enumerate(
        ((jacobian, (model.nv,)), (drift, ()), (residual, ()))):
        if not wanted:
            out.append(None)
            continue
        rows = [np.broadcast_to(p[k], kin.batch + (c.m,) + tail)
                for p, c in zip(parts, constraints, strict=True)]
        out.append(np.concatenate(rows, axis=-1 - len(tail)))
    return out


def constraint_jacobian(model, constraints, q):
    """All constraints' ``A(q)`` stacked: (..., m, nv). Kim (2012), eq. (55)."""
    return evaluate(model, constraints, Kinematics(model, model.check_q(q)),
                    jacobian=True)[0]


def constraint_drift(model, constraints, q, dq):
    """All constraints' ``dA/dt dq`` stacked: (..., m). Kim (2012), eq. (67)."""
    _, _, q, dq, _ = state(model, q, dq)
    return evaluate(model, constraints, Kinematics(model, q, dq), drift=True)[1]


def constraint_residual(model, constraints, q):
    """The holonomic residuals ``f(q)`` (..., m) stacked: Kim (2012), Section 3,
    ``f(q) = 0`` with ``A = df/dq`` (Pfaffians without one add nothing).
    """
    holonomic = [c for c in constraint_list(constraints) if c.holonomic]
    if not holonomic:
        return np.zeros(np.shape(q)[:-1] + (0,))
    return evaluate(model, holonomic, Kinematics(model, model.check_q(q)),
                    residual=True)[2]


def project(model, constraints, q, dq=None, tol=1e-12, max_iter=50):
    """Project ``(q, dq)`` onto the constraint manifold (Kim (2012), Section 3,
    Kim's eq. (55)).

    Gauss-Newton steps ``q <- q (+) (-A^+ f(q))`` on the manifold until ``|f| <
    tol``, then ``dq <- (1 - A^+ A) dq``, the nearest velocity with ``A dq = 0``;
    the pseudoinverse tolerates redundant constraints.

    Returns
    -------
    q : (nq,) array, and dq : (nv,) array when ``dq`` is given
    """
    constraints = constraint_list(constraints, allow_empty=dq is None)
    tol = _checks.scalar("tol", tol, positive=True)
    max_iter = _checks.scalar("max_iter", max_iter, positive=True, integer=True)
    q = np.array(model.check_q(q), dtype=float)
    holonomic = [c for c in constraints if c.holonomic]
    for _ in range(max_iter):
        if not holonomic:
            break
        A, _, f = evaluate(model, holonomic, Kinematics(model, q), jacobian=True,
                           residual=True)
        if np.max(np.abs(f)) < tol:
            break
        q = model.integrate(q, -np.linalg.pinv(A) @ f)
    else:
        raise ValueError(f"project: Newton's method did not reach |f(q)| < {tol:g} "
                         f"in {max_iter} steps (|f| = {np.max(np.abs(f)):.2e}); is "
                         "the configuration far from the "
                         "constraint manifold or singular?")
    if dq is None:
        return q
    A = constraint_jacobian(model, constraints, q)
    dq = model.check_v(dq)
    return q, dq - np.linalg.pinv(A) @ (A @ dq)
