"""Forward kinematics, body velocities and accelerations, and Jacobians of a tree;
derived in :ref:`sec-multibody-models`.

The forward recursion of Kim (2012), Table 2 is written once, in
:func:`forward_pass`, and shared by the dynamics and the Jacobians::

    T_{lambda(i),i} = X_i Phi_i(q_i)
    V_i  = Ad_{T^-1} V_{lambda(i)} + S_i dq_i                               (37)
    dV_i = Ad_{T^-1} dV_{lambda(i)} + S_i ddq_i
           + ad_{V_i} S_i dq_i + dS_i dq_i                                  (41)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks, _math
from ._spatial import (
    Ad_inv_mul,
    Ad_matrix,
    ad_mul,
    compose,
    homogeneous,
    inverse,
    matvec,
    rot,
)
from .model import state

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .model import Model

__all__ = ["ForwardPass", "forward_pass", "forward_kinematics", "body_velocities",
           "body_accelerations", "body_jacobian", "frame_jacobian"]


@dataclass(frozen=True)
class ForwardPass:
    """Intermediates of the forward recursion per body ``i = 0..N`` (0: the ground).

    Attributes
    ----------
    R, p : lists of (..., 3, 3) and (..., 3) arrays
        ``T_{lambda(i),i} = (R[i], p[i])``
    S, dS : lists of (..., 6, n_i) arrays
        joint Jacobians and their time derivatives
    V, dV : lists of (..., 6) arrays, body twists and their derivatives
    """

    R: list
    p: list
    S: list
    dS: list
    V: list
    dV: list


def joint_transform(joint, X, qi):
    """``T_{lambda(i),i} = X_i Phi_i(q_i)`` of one body as ``(R, p)`` (Kim (2012),
    Section 2.1): the placement ``X`` (4, 4) times the joint's motion
    ``joint.motion(qi) = (R_Phi, p_Phi)``, whose parts are ``None`` when they are
    the identity or zero.

    >>> from liedyn.joints import Prismatic
    >>> R, p = joint_transform(Prismatic([1, 0, 0]), np.eye(4), [0.5])
    >>> p.tolist()
    [0.5, 0.0, 0.0]
    """
    R_Phi, p_Phi = joint._motion(qi)
    # (R, p) = (R_X R_Phi, R_X p_Phi + p_X), a part that is None skipped
    R = X[:3, :3] if R_Phi is None else X[:3, :3] @ R_Phi
    p = X[:3, 3] if p_Phi is None else rot(X[:3, :3], p_Phi) + X[:3, 3]
    return R, p


class _Exact:
    """``joint`` whose ``S``, ``dS`` and motion enter sympy arithmetic with their
    integral floats as integers (:func:`liedyn._math.exact`); the unchecked methods
    that the algorithms call on a state the model checked."""

    def __init__(self, joint):
        self._joint = joint

    def __getattr__(self, name):
        return getattr(self._joint, name)

    def _S(self, q):
        return _math.exact(self._joint._S(q), object)

    def _dS(self, q, dq):
        return _math.exact(self._joint._dS(q, dq), object)

    def _motion(self, q):
        return tuple(None if x is None else _math.exact(x, object)
                     for x in self._joint._motion(q))


def _exact_joint(joint, dtype):
    """``joint`` for arithmetic of ``dtype``: itself, or for sympy objects a joint
    whose constants are exact where they are integers (``1.0 * Rational(1, 3)``
    would be a float)."""
    return _Exact(joint) if dtype == object else joint


def joint_transforms(model, q):
    """``T_{lambda(i),i} = X_i Phi_i(q_i)`` as lists ``R``, ``p`` (entry 0 unused),
    for a validated ``q`` (..., nq).
    """
    batch = q.shape[:-1]
    R, p = [np.eye(3)], [np.zeros(3)]
    for i in range(1, model.nbodies + 1):
        Ri, pi = joint_transform(_exact_joint(model.joints[i], q.dtype),
                                 _math.exact(model.placements[i], q.dtype),
                                 q[..., model.q_slice[i]])
        R.append(
            Ri if Ri.shape[:-2] == batch else np.broadcast_to(Ri, batch + (3, 3)))
        p.append(
            pi if pi.shape[:-1] == batch else np.broadcast_to(pi, batch + (3,)))
    return R, p


def world_poses(model, R, p):
    """``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` as lists ``Rw``, ``pw``."""
    Rw, pw = [R[0]], [p[0]]
    for i in range(1, model.nbodies + 1):
        Ri, pi = compose(Rw[model.parent[i]], pw[model.parent[i]], R[i], p[i])
        Rw.append(Ri)
        pw.append(pi)
    return Rw, pw


def forward_step(joint, R, p, V_parent, dV_parent, qi, dqi, ddqi=None):
    """The forward recursion of Kim (2012), Table 2, for one body: Kim's eqs. (37),
    (41).

    ``(R, p)`` is ``T_{lambda(i),i}``, ``V_parent`` and ``dV_parent`` the parent's
    twist and acceleration, ``qi``, ``dqi``, ``ddqi`` the joint's coordinates, rates
    and accelerations (without ``ddqi``, ``dV`` leaves out ``S ddq``). Returns the
    joint's ``S``, ``dS`` and the body's ``V``, ``dV``.

    >>> from liedyn.joints import Revolute
    >>> S, dS, V, dV = forward_step(Revolute(), np.eye(3), np.zeros(3), np.zeros(6),
    ...                             np.zeros(6), [0.0], [2.0], [1.0])
    >>> V.tolist(), dV.tolist()      # turning about z at 2 rad/s, speeding up
    ([0.0, 0.0, 2.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
    """
    S, dS = joint._S(qi), joint._dS(qi, dqi)
    Sdq = matvec(S, dqi)
    V = Ad_inv_mul(R, p, V_parent) + Sdq                                     # (37)
    dV = Ad_inv_mul(R, p, dV_parent) + ad_mul(V, Sdq)                        # (41)
    if not joint.constant_S:
        dV = dV + matvec(dS, dqi)
    if ddqi is not None:
        dV = dV + matvec(S, ddqi)
    return S, dS, V, dV


def forward_pass(model, q, dq, ddq=None, dV0=None):
    """The forward recursion of Kim (2012), Table 2: Kim's eqs. (37) and (41) for
    every body.

    ``q``, ``dq``, ``ddq`` validated and broadcast (``liedyn.model.state``); without
    ``ddq``, ``dV`` leaves out ``S ddq`` (as the articulated-body algorithm needs).
    ``dV0`` (..., 6) is the ground acceleration: ``None`` (zero) for kinematics,
    ``(0, -g)`` for dynamics (Kim's footnote 6). Returns a :class:`ForwardPass`.
    """
    batch = q.shape[:-1]
    dtype = np.result_type(q, dq, float, *(x for x in (ddq, dV0) if x is not None))
    zero6 = np.zeros(batch + (6,), dtype=dtype)
    R, p = joint_transforms(model, q)
    S, dS = [None], [None]
    dV0 = None if dV0 is None else _math.exact(dV0, dtype)
    V, dV = [zero6], [zero6 if dV0 is None else np.broadcast_to(dV0, batch + (6,))]
    for i in range(1, model.nbodies + 1):
        lam, vi = model.parent[i], model.v_slice[i]
        Si, dSi, Vi, dVi = forward_step(
            _exact_joint(model.joints[i], dtype), R[i], p[i], V[lam], dV[lam],
            q[..., model.q_slice[i]],
            dq[..., vi], None if ddq is None else ddq[..., vi])
        S.append(Si)
        dS.append(dSi)
        V.append(Vi)
        dV.append(dVi)
    return ForwardPass(R, p, S, dS, V, dV)


@dataclass(frozen=True)
class Kinematics:
    """Poses (..., N+1, 4, 4): ``T[..., i, :, :] = T_{lambda(i),i}`` and
    ``T_world[..., i, :, :] = T_{0,i}``; entry 0 is the ground.
    """

    T: np.ndarray
    T_world: np.ndarray


def forward_kinematics(model: Model, q: ArrayLike) -> Kinematics:
    """Poses of all bodies relative to their parents and to the ground.

    ``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}``, ``T_{lambda(i),i} = X_i
    Phi_i(q_i)`` (Kim (2012), Section 2.1).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array

    Returns
    -------
    Kinematics
        ``T`` and ``T_world``, (..., N+1, 4, 4)

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> model = planar_arm(2, length=1.0)
    >>> np.round(forward_kinematics(model, [np.pi / 2, 0.0]).T_world[2, :3, 3], 12)
    array([0., 1., 0.])
    """
    q = model.check_q(q)
    R, p = joint_transforms(model, q)
    Rw, pw = world_poses(model, R, p)
    T = [homogeneous(Ri, pi) for Ri, pi in zip(R, p, strict=True)]
    Tw = [homogeneous(Ri, pi) for Ri, pi in zip(Rw, pw, strict=True)]
    return Kinematics(np.stack(np.broadcast_arrays(*T), axis=-3),
                      np.stack(np.broadcast_arrays(*Tw), axis=-3))


def body_velocities(model, q, dq):
    """Body twists ``V_i`` (in ``{i}``) of all bodies, Kim (2012), eq. (37).

    Parameters
    ----------
    q : (..., nq) array
    dq : (..., nv) array

    Returns
    -------
    V : (..., N+1, 6) array, ``V[..., 0, :] = 0`` (the ground)

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> V = body_velocities(planar_arm(2, length=1.0), [0.0, 0.0], [1.0, 0.0])
    >>> V[2].tolist()  # the second link spins at 1 rad/s, its origin moves at 1 m/s
    [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    """
    _, _, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    return np.stack(np.broadcast_arrays(*fw.V), axis=-2)


def body_accelerations(model, q, dq, ddq, gravity=False):
    """Component-wise derivatives ``dV_i`` of the body twists, Kim (2012), eq. (41).

    Parameters
    ----------
    q : (..., nq) array
    dq, ddq : (..., nv) arrays
    gravity : bool, the ground accelerates with ``(0, -g)`` (Kim's footnote 6)

    Returns
    -------
    dV : (..., N+1, 6) array
    """
    _, _, q, dq, ddq, _ = state(model, q, dq, ddq)
    dV0 = np.concatenate([np.zeros(3), -model.gravity]) if gravity else None
    fw = forward_pass(model, q, dq, ddq, dV0)
    return np.stack(np.broadcast_arrays(*fw.dV), axis=-2)


def body_jacobian(model: Model, q: ArrayLike, body: int | str) -> Array:
    """The body Jacobian ``J_i`` with ``V_i = J_i dq`` (in ``{i}``).

    Column block of joint ``j`` on the path to ``i``: ``Ad_{T_{j,i}^-1} S_j`` with
    ``T_{j,i} = T_{0,j}^-1 T_{0,i}``; zero for joints not on the path (Zhang,
    Lecture 9).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
    body : int or str

    Returns
    -------
    J : (..., 6, nv) array

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> J = body_jacobian(planar_arm(2, length=1.0), [0.0, 0.0], 2)
    >>> J[[2, 4]].tolist()         # w_z and v_y of link 2 per unit joint rate
    [[1.0, 1.0], [1.0, 0.0]]
    """
    i = model.body(body)
    q = model.check_q(q)
    Tw = forward_kinematics(model, q).T_world
    J = np.zeros(q.shape[:-1] + (6, model.nv), dtype=np.result_type(q, float))
    Ti_inv = inverse(Tw[..., i, :, :])
    for j in model.support(i):
        T_ij = Ti_inv @ Tw[..., j, :, :]                 # T_{i,j} = T_{j,i}^-1
        S = model.joints[j]._S(q[..., model.q_slice[j]])
        J[..., model.v_slice[j]] = _Ad(T_ij) @ S
    return J


def frame_jacobian(model: Model, q: ArrayLike, body: int | str,
                   offset: ArrayLike | None = None) -> Array:
    """Jacobian of a frame ``{f}`` on ``body`` at ``offset = T_{i,f}``: ``V_f = J_f
    dq``.

    ``J_f = Ad_{T_{i,f}^-1} J_i`` (Kim (2012), eq. (11)), expressed in ``{f}``.

    Parameters
    ----------
    q : (..., nq) array
    body : int or str
    offset : (4, 4) array, optional (identity)

    Returns
    -------
    J : (..., 6, nv) array
    """
    J = body_jacobian(model, q, body)
    if offset is None:
        return J
    offset = _checks.homogeneous("offset", offset)
    return _Ad(inverse(offset)) @ J


def _Ad(T):
    return Ad_matrix(T[..., :3, :3], T[..., :3, 3])
