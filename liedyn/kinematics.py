"""Forward kinematics, body velocities and accelerations, and Jacobians of a
multibody tree.

The forward recursion of Kim (2012), Table 2 (Kim eqs. (37) and (41)) is written
once here, in :func:`forward_pass`, and shared by inverse dynamics, forward dynamics
and the Jacobians:

    ``T_{lambda(i),i} = X_i J_i(q_i)``
    ``V_i  = Ad_{T^-1} V_{lambda(i)} + S_i dq_i``                             (37)
    ``dV_i = Ad_{T^-1} dV_{lambda(i)} + S_i ddq_i``
    ``       + ad_{V_i} S_i dq_i + dS_i dq_i``                                (41)

Derived in :ref:`sec-multibody-models`.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from ._spatial import (Ad_inv_mul, Ad_matrix, ad_mul, compose, homogeneous, inverse,
                       matvec, rot)
from .model import state

__all__ = ["ForwardPass", "forward_pass", "forward_kinematics", "body_velocities",
           "body_accelerations", "body_jacobian", "frame_jacobian"]


@dataclass(frozen=True)
class ForwardPass:
    """Intermediates of the forward recursion, per body ``i = 0..N`` (entry 0 is the
    ground).

    Attributes
    ----------
    R, p : lists of (..., 3, 3) and (..., 3) arrays
        ``T_{lambda(i),i} = (R[i], p[i])``
    S, dS : lists of (..., 6, n_i) arrays: joint Jacobians and their time
        derivatives
    V, dV : lists of (..., 6) arrays: body twists and their component-wise
        derivatives
    """

    R: list
    p: list
    S: list
    dS: list
    V: list
    dV: list


def joint_transforms(model, q):
    """``T_{lambda(i),i} = X_i J_i(q_i)`` for every body, as lists ``R``, ``p``
    (entry 0 unused).

    ``q`` (..., nq) must already be validated (see
    :meth:`liedyn.model.Model.check_q`).
    """
    batch = q.shape[:-1]
    R, p = [np.eye(3)], [np.zeros(3)]
    for i in range(1, model.nbodies + 1):
        RJ, pJ = model.joints[i].motion(q[..., model.q_slice[i]])
        X = model.placements[i]
        Ri = X[:3, :3] if RJ is None else X[:3, :3] @ RJ       # R = R_X R_J
        # p = R_X p_J + p_X
        pi = X[:3, 3] if pJ is None else rot(X[:3, :3], pJ) + X[:3, 3]
        R.append(
            Ri if Ri.shape[:-2] == batch else np.broadcast_to(Ri, batch + (3, 3)))
        p.append(
            pi if pi.shape[:-1] == batch else np.broadcast_to(pi, batch + (3,)))
    return R, p


def world_poses(model, R, p):
    """``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` from the lists of
    :func:`joint_transforms`, as lists ``Rw``, ``pw`` (entry 0: the ground)."""
    Rw, pw = [R[0]], [p[0]]
    for i in range(1, model.nbodies + 1):
        Ri, pi = compose(Rw[model.parent[i]], pw[model.parent[i]], R[i], p[i])
        Rw.append(Ri)
        pw.append(pi)
    return Rw, pw


def forward_pass(model, q, dq, ddq=None, dV0=None):
    """The forward recursion of Kim (2012), Table 2: Kim eqs. (37) and (41) for
    every body.

    ``q``, ``dq``, ``ddq`` must already be validated and broadcast (see
    ``liedyn.model.state``); ``ddq`` may be ``None`` (then ``dV`` leaves out
    ``S ddq``, as the articulated-body algorithm needs). ``dV0`` is the ground
    acceleration (..., 6): zero for kinematics (``None``), ``(0, -g)`` for dynamics
    (Kim (2012), footnote 6).

    Returns
    -------
    ForwardPass
    """
    batch = q.shape[:-1]
    dtype = np.result_type(q, dq, float, *(x for x in (ddq, dV0) if x is not None))
    zero6 = np.zeros(batch + (6,), dtype=dtype)
    R, p = joint_transforms(model, q)
    S, dS = [None], [None]
    V, dV = [zero6], [zero6 if dV0 is None else np.broadcast_to(dV0, batch + (6,))]
    for i in range(1, model.nbodies + 1):
        joint, lam, vi = model.joints[i], model.parent[i], model.v_slice[i]
        qi, dqi = q[..., model.q_slice[i]], dq[..., vi]
        Si, dSi = joint.S(qi), joint.dS(qi, dqi)
        Sdq = matvec(Si, dqi)
        Vi = Ad_inv_mul(R[i], p[i], V[lam]) + Sdq                             # (37)
        dVi = Ad_inv_mul(R[i], p[i], dV[lam]) + ad_mul(Vi, Sdq)               # (41)
        if not joint.constant_S:
            dVi = dVi + matvec(dSi, dqi)
        if ddq is not None:
            dVi = dVi + matvec(Si, ddq[..., vi])
        S.append(Si)
        dS.append(dSi)
        V.append(Vi)
        dV.append(dVi)
    return ForwardPass(R, p, S, dS, V, dV)


@dataclass(frozen=True)
class Kinematics:
    """Poses of every body: ``T[..., i, :, :] = T_{lambda(i),i}``,
    ``T_world[..., i, :, :] = T_{0,i}``.

    Both have shape (..., N+1, 4, 4); entry 0 is the ground (identity).
    """

    T: np.ndarray
    T_world: np.ndarray


def forward_kinematics(model, q):
    """Poses of all bodies relative to their parents and to the ground.

    ``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` with
    ``T_{lambda(i),i} = X_i J_i(q_i)`` (Kim (2012), Section 2.1).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array

    Returns
    -------
    Kinematics
        with ``T`` and ``T_world`` of shape (..., N+1, 4, 4)

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
    T = [homogeneous(Ri, pi) for Ri, pi in zip(R, p)]
    Tw = [homogeneous(Ri, pi) for Ri, pi in zip(Rw, pw)]
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
    gravity : bool
        if True the ground accelerates with ``(0, -g)`` (footnote 6), as inside the
        dynamics

    Returns
    -------
    dV : (..., N+1, 6) array
    """
    _, _, q, dq, ddq, _ = state(model, q, dq, ddq)
    dV0 = np.concatenate([np.zeros(3), -model.gravity]) if gravity else None
    fw = forward_pass(model, q, dq, ddq, dV0)
    return np.stack(np.broadcast_arrays(*fw.dV), axis=-2)


def body_jacobian(model, q, body):
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
        S = model.joints[j].S(q[..., model.q_slice[j]])
        J[..., model.v_slice[j]] = _Ad(T_ij) @ S
    return J


def frame_jacobian(model, q, body, offset=None):
    """Jacobian of a frame ``{f}`` fixed on ``body`` at pose ``offset = T_{i,f}``:
    ``V_f = J_f dq``.

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
