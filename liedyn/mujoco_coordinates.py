"""MuJoCo's coordinates and liedyn's: the states and forces of a model read by
:func:`liedyn.mjcf.load_mjcf`, converted both ways.

Hinge, slide and ball joints have the same coordinates in both (the loader keeps
MuJoCo's order). A free joint differs (MuJoCo documentation, "Overview: Floating
objects"): MuJoCo's ``qvel`` is the body origin's velocity in the world frame, then
the angular velocity in the body frame; liedyn's velocity is the body twist
``V = (w, v)`` (Kim (2012), eq. (9)), and accelerations and forces follow.
MuJoCo's forces on bodies, ``xfrc_applied``, become liedyn's ``f_ext``
(:func:`f_ext_from_mujoco`).
"""
from __future__ import annotations

import collections
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from . import joints as J
from ._spatial import cross, rot, rot_T
from .kinematics import forward_kinematics
from .lie import quat_to_rot

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .mjcf import MJCFModel

__all__ = ["from_mujoco", "to_mujoco", "f_ext_from_mujoco", "MuJoCoState",
           "LiedynState"]


class MuJoCoState(collections.namedtuple("MuJoCoState", "qpos qvel qacc qfrc")):
    """MuJoCo's ``(qpos, qvel, qacc, qfrc)`` (:func:`to_mujoco`), None where not
    given."""
    __slots__ = ()


class LiedynState(collections.namedtuple("LiedynState", "q dq ddq tau")):
    """liedyn's ``(q, dq, ddq, tau)`` (:func:`from_mujoco`), None where not
    given."""
    __slots__ = ()


def _free_from_mujoco(R, qvel, qacc, qfrc):
    """liedyn's ``(dq, ddq, tau)`` of one free joint from MuJoCo's (..., 6) slices
    (None stays None)."""
    dq = ddq = tau = None
    if qvel is not None:
        w, v = qvel[..., 3:], rot_T(R, qvel[..., :3])
        dq = np.concatenate([w, v], axis=-1)
    if qacc is not None:
        dv = rot_T(R, qacc[..., :3]) - cross(w, v)
        ddq = np.concatenate([qacc[..., 3:], dv], axis=-1)
    if qfrc is not None:
        tau = np.concatenate([qfrc[..., 3:], rot_T(R, qfrc[..., :3])], axis=-1)
    return dq, ddq, tau


def _free_to_mujoco(R, dq, ddq, tau):
    """MuJoCo's ``(qvel, qacc, qfrc)`` of one free joint from liedyn's (..., 6)
    slices (None stays None)."""
    qvel = qacc = qfrc = None
    if dq is not None:
        w, v = dq[..., :3], dq[..., 3:]
        qvel = np.concatenate([rot(R, v), w], axis=-1)
    if ddq is not None:
        pddot = rot(R, ddq[..., 3:] + cross(w, v))
        qacc = np.concatenate([pddot, ddq[..., :3]], axis=-1)
    if tau is not None:
        qfrc = np.concatenate([rot(R, tau[..., 3:]), tau[..., :3]], axis=-1)
    return qvel, qacc, qfrc


def _map_free(model, q, x, free_map):
    """Replace, in place, the free-joint slices of the (..., nv) arrays ``x`` (a
    dict, None entries skipped) by ``free_map`` at the orientations of ``q``."""
    for i in range(1, model.nbodies + 1):
        if not isinstance(model.joints[i], J.Free):
            continue
        quat = q[..., model.q_slice[i]][..., 3:]
        R = quat_to_rot(quat / np.linalg.norm(quat, axis=-1, keepdims=True))
        s = model.v_slice[i]
        slices = [None if a is None else a[..., s] for a in x.values()]
        for a, new in zip(x.values(), free_map(R, *slices), strict=True):
            if a is not None:
                a[..., s] = new


def _batch(name, leading, q_name, q_leading):
    """The batch shape of ``leading`` broadcast with ``q_leading``, or the error
    naming both arguments."""
    try:
        return np.broadcast_shapes(q_leading, leading)
    except ValueError:
        raise ValueError(f"argument '{name}': leading dimensions {leading} do not "
                         f"broadcast against those of '{q_name}', {q_leading}"
                         ) from None


def _vectors(model, q, q_name, named):
    """The (..., nv) arrays of ``named`` (None stays None), broadcast against the
    leading dimensions of ``q`` (called ``q_name``) and copied."""
    out = {}
    for name, x in named.items():
        if x is not None:
            x = _checks.array(name, x, (model.nv,))
            batch = _batch(name, x.shape[:-1], q_name, q.shape[:-1])
            x = np.array(np.broadcast_to(x, batch + (model.nv,)))
        out[name] = x
    return out


def from_mujoco(model: MJCFModel, qpos: ArrayLike, qvel: ArrayLike | None = None,
                qacc: ArrayLike | None = None,
                qfrc: ArrayLike | None = None) -> LiedynState:
    """liedyn's state and forces from MuJoCo's: ``(q, dq, ddq, tau)`` of
    ``(qpos, qvel, qacc, qfrc)``.

    Only free joints differ (MuJoCo documentation, "Overview: Floating objects",
    https://mujoco.readthedocs.io/en/stable/overview.html#floating-objects):
    MuJoCo's ``qvel`` of a free joint is ``(pdot, w)``, the body origin's velocity
    in the world frame then the angular velocity in the body frame; liedyn's is the
    body twist ``V = (w, R^T pdot)`` (Kim (2012), eq. (9)). Accelerations are the
    time derivatives of the velocities, so ``dV = (dw, R^T pddot - w x R^T pdot)``;
    forces are dual to the velocities (the same power ``qfrc . qvel = tau . dq``),
    so ``tau = (m, R^T f)`` of ``qfrc = (f, m)``. ``qpos = (p, w, x, y, z)`` is
    liedyn's ``q``. Hinge, slide and ball coordinates pass unchanged.

    Parameters
    ----------
    model : liedyn.model.Model, e.g. from :func:`load_mjcf`
    qpos : (..., nq) array
    qvel, qacc, qfrc : (..., nv) arrays, optional
        ``qacc`` needs ``qvel``; leading dimensions broadcast against ``qpos``'s

    Returns
    -------
    LiedynState
        ``(q, dq, ddq, tau)``, None where the MuJoCo array was not given

    Examples
    --------
    >>> xml = '''<mujoco><worldbody><body><freejoint/>
    ...   <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    ... </body></worldbody></mujoco>'''
    >>> from liedyn.mjcf import load_mjcf
    >>> model = load_mjcf(xml)
    >>> turned = [0.0, 0.0, 0.0, np.cos(np.pi / 4), 0.0, 0.0, np.sin(np.pi / 4)]
    >>> from_mujoco(model, turned, qvel=[1.0, 0, 0, 0, 0, 2.0]).dq.round(12) + 0.0
    array([ 0.,  0.,  2.,  0., -1.,  0.])
    """
    q = _checks.array("qpos", qpos, (model.nq,))
    x = _vectors(model, q, "qpos", dict(qvel=qvel, qacc=qacc, qfrc=qfrc))
    if qacc is not None and qvel is None:
        raise ValueError("argument 'qvel': needed to map qacc (a free joint's "
                         "acceleration has a term w x v), got None")
    _map_free(model, q, x, _free_from_mujoco)
    return LiedynState(np.array(q), x["qvel"], x["qacc"], x["qfrc"])


def to_mujoco(model: MJCFModel, q: ArrayLike, dq: ArrayLike | None = None,
              ddq: ArrayLike | None = None,
              tau: ArrayLike | None = None) -> MuJoCoState:
    """MuJoCo's state and forces from liedyn's: ``(qpos, qvel, qacc, qfrc)`` of
    ``(q, dq, ddq, tau)``; the inverse of :func:`from_mujoco`.

    For a free joint with body twist ``V = (w, v)``, ``dV = (dw, dv)`` and wrench
    ``tau = (m, f)`` (body frame, Kim (2012), eqs. (9), (12)): ``qvel = (R v,
    w)``, ``qacc = (R (dv + w x v), dw)``, ``qfrc = (R f, m)`` (MuJoCo
    documentation, "Overview: Floating objects",
    https://mujoco.readthedocs.io/en/stable/overview.html#floating-objects). Hinge,
    slide and ball coordinates pass unchanged.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
    dq, ddq, tau : (..., nv) arrays, optional
        ``ddq`` needs ``dq``; leading dimensions broadcast against ``q``'s

    Returns
    -------
    MuJoCoState
        ``(qpos, qvel, qacc, qfrc)``, None where the liedyn array was not given

    Examples
    --------
    >>> xml = '''<mujoco><worldbody><body><freejoint/>
    ...   <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
    ... </body></worldbody></mujoco>'''
    >>> from liedyn.mjcf import load_mjcf
    >>> model = load_mjcf(xml)
    >>> turned = [0.0, 0.0, 0.0, np.cos(np.pi / 4), 0.0, 0.0, np.sin(np.pi / 4)]
    >>> to_mujoco(model, turned, dq=[0, 0, 2.0, 0, -1.0, 0]).qvel.round(12) + 0.0
    array([1., 0., 0., 0., 0., 2.])
    """
    q = _checks.array("q", q, (model.nq,))
    x = _vectors(model, q, "q", dict(dq=dq, ddq=ddq, tau=tau))
    if ddq is not None and dq is None:
        raise ValueError("argument 'dq': needed to map ddq (a free joint's "
                         "acceleration has a term w x v), got None")
    _map_free(model, q, x, _free_to_mujoco)
    return MuJoCoState(np.array(q), x["dq"], x["ddq"], x["tau"])


def f_ext_from_mujoco(model: MJCFModel, qpos: ArrayLike,
                      xfrc_applied: ArrayLike) -> Array:
    """liedyn's ``f_ext`` of MuJoCo's ``xfrc_applied``: the wrenches on the bodies.

    MuJoCo's ``xfrc_applied[b] = (f, m)`` (MuJoCo documentation, "API types:
    mjData") is a force and a torque in the world frame, the force acting at body
    ``b``'s centre of mass ``c`` (``xipos``). liedyn's ``f_ext[i - 1]`` is the
    wrench on body ``i`` in its body frame, moment first, about the body origin
    (Kim (2012), eq. (12)): with the body's orientation ``R`` and ``c`` in the body
    frame (:attr:`~liedyn.mjcf.MJCFModel.mujoco_com`), ``(R^T m + c x R^T f, R^T
    f)``.

    Parameters
    ----------
    model : liedyn.mjcf.MJCFModel, from :func:`~liedyn.mjcf.load_mjcf`
    qpos : (..., nq) array
    xfrc_applied : (..., nbody, 6) array
        MuJoCo's rows, one per MuJoCo body (row 0, the world, acts on nothing);
        leading dimensions broadcast against ``qpos``'s

    Returns
    -------
    f_ext : (..., N, 6) array, for :func:`~liedyn.forward_dynamics.aba`,
    :func:`~liedyn.inverse_dynamics.rnea` and the others

    Examples
    --------
    >>> xml = '''<mujoco><worldbody><body><freejoint/>
    ...   <inertial pos="0 0 0.5" mass="1" diaginertia="1 1 1"/>
    ... </body></worldbody></mujoco>'''
    >>> from liedyn.mjcf import load_mjcf
    >>> model = load_mjcf(xml)
    >>> push = [[0.0] * 6, [1.0, 0, 0, 0, 0, 0]]      # 1 N along x at the centre
    >>> f_ext_from_mujoco(model, model.qpos0, push).round(12) + 0.0
    array([[0. , 0.5, 0. , 1. , 0. , 0. ]])
    """
    com = getattr(model, "mujoco_com", None)
    if com is None:
        raise TypeError("argument 'model': expected a model from load_mjcf (with "
                        f"mujoco_com), got {type(model).__name__}")
    q = _checks.array("qpos", qpos, (model.nq,))
    x = _checks.array("xfrc_applied", xfrc_applied, (len(com), 6))
    batch = _batch("xfrc_applied", x.shape[:-2], "qpos", q.shape[:-1])
    R = forward_kinematics(model, q).T_world[..., :3, :3]
    f_ext = np.zeros(batch + (model.nbodies, 6), np.result_type(R, x))
    for b in range(1, len(com)):
        i = model.mujoco_bodies[b]
        f = rot_T(R[..., i, :, :], x[..., b, :3])                  # R^T f
        m = rot_T(R[..., i, :, :], x[..., b, 3:])                  # R^T m
        f_ext[..., i - 1, :3] = m + cross(com[b], f)              # Kim eq. (12)
        f_ext[..., i - 1, 3:] = f
    return f_ext
