"""The joint types of Kim (2012), Section 2, and From (2012): revolute, prismatic,
helical, screw, universal, planar, three spherical charts, free and fixed; derived
in :ref:`sec-multibody-models`.

Each class gives ``Phi(q)``, ``S(q)`` and ``dS(q, dq)`` of the interface
:class:`liedyn.joint.Joint`. :class:`Spherical` and :class:`Free` store a unit
quaternion ``(w, x, y, z)`` (``nq != nv``), their velocity is the body angular
velocity or twist (a quasi-velocity, From (2012)) and ``integrate`` is
``q exp(v dt)``; the others have velocity ``dq/dt``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _checks, dexp, lie
from ._math import cos, sin
from ._spatial import cross, homogeneous
from .joint import (
    CHART_TOL,
    PIVOT_TOL,
    QUAT_TOL,
    Joint,
    frozen,
    rotation_about,
    unit_axis,
    zero_columns,
)

if TYPE_CHECKING:
    from ._types import Array, ArrayLike

__all__ = ["Joint", "Revolute", "Prismatic", "Helical", "Screw", "Universal",
           "Planar", "Spherical", "SphericalZYX", "SphericalExp", "Free", "Fixed",
           "QUAT_TOL", "CHART_TOL", "PIVOT_TOL"]


class Revolute(Joint):
    """Rotation ``q`` (rad) about a unit ``axis`` of the joint frame:
    ``S = (axis, 0)``.

    Examples
    --------
    >>> j = Revolute([0, 0, 1])
    >>> j.S([0.3])[:, 0]
    array([0., 0., 1., 0., 0., 0.])
    """

    nq = nv = 1

    def __init__(self, axis: ArrayLike = (0.0, 0.0, 1.0)) -> None:
        self.axis = unit_axis("axis", axis)
        self._S_constant = frozen(
            np.concatenate([self.axis, np.zeros(3)])[:, None])

    def __repr__(self):
        return f"Revolute(axis={self.axis.tolist()})"

    def transform(self, q: Array) -> Array:
        """``Phi(q) = [[exp([a] q), 0], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(rotation_about(self.axis, q[..., 0]),
                           np.zeros(q.shape[:-1] + (3,)))

    def motion(self, q: Array) -> tuple[Array | None, Array | None]:
        return rotation_about(self.axis, np.asarray(q)[..., 0]), None


class Prismatic(Joint):
    """Translation ``q`` along a unit ``axis``: ``S = (0, axis)``.

    Examples
    --------
    >>> Prismatic([1, 0, 0]).transform([0.5])[:3, 3]
    array([0.5, 0. , 0. ])
    """

    nq = nv = 1

    def __init__(self, axis: ArrayLike = (0.0, 0.0, 1.0)) -> None:
        self.axis = unit_axis("axis", axis)
        self._S_constant = frozen(
            np.concatenate([np.zeros(3), self.axis])[:, None])

    def __repr__(self):
        return f"Prismatic(axis={self.axis.tolist()})"

    def transform(self, q: Array) -> Array:
        """``Phi(q) = [[1, a q], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(np.broadcast_to(np.eye(3), q.shape[:-1] + (3, 3)),
                           q * self.axis)

    def motion(self, q: Array) -> tuple[Array | None, Array | None]:
        return None, np.asarray(q) * self.axis

    def random(self, rng: np.random.Generator) -> Array:
        return rng.uniform(-1.0, 1.0, 1)


class Helical(Joint):
    """Screw motion: rotation ``q`` about ``axis`` and translation ``pitch * q``
    along it.

    ``S = (axis, pitch * axis)``, pitch in length per radian (Pinocchio's
    HelicalUnaligned).

    Examples
    --------
    >>> Helical([0, 0, 1], pitch=0.1).transform([np.pi])[:3, 3]
    array([0.        , 0.        , 0.31415927])
    """

    nq = nv = 1

    def __init__(self, axis: ArrayLike = (0.0, 0.0, 1.0),
                 pitch: float = 0.0) -> None:
        self.axis = unit_axis("axis", axis)
        self.pitch = _checks.scalar("pitch", pitch)
        self._S_constant = frozen(
            np.concatenate([self.axis, self.pitch * self.axis])[:, None])

    def __repr__(self):
        return f"Helical(axis={self.axis.tolist()}, pitch={self.pitch})"

    def transform(self, q: Array) -> Array:
        """``Phi(q) = [[exp([a] q), pitch q a], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(rotation_about(self.axis, q[..., 0]),
                           self.pitch * q * self.axis)


class Screw(Joint):
    """Motion ``Phi(q) = exp(A q)`` along a constant screw ``A`` of the child frame.

    The product-of-exponentials joint of Lynch and Park (2017) and of the RNEA notes
    (``T_{i-1,i} = M_{i-1,i} exp([A_i] theta_i)``): the body frame may sit anywhere,
    e.g. at the centre of mass. ``S = A``; a revolute axis through ``r`` is
    ``A = (a, -a x r)``, a prismatic one ``A = (0, a)``.

    Examples
    --------
    >>> # rotation about z through the point (1, 0, 0)
    >>> j = Screw([0, 0, 1, 0, -1, 0])
    >>> np.round(j.transform([np.pi])[:3, 3], 12) + 0.0
    array([2., 0., 0.])
    """

    nq = nv = 1

    def __init__(self, screw: ArrayLike) -> None:
        A = _checks.array("screw", screw, (6,)).astype(float)
        if A.shape != (6,) or np.linalg.norm(A) < 1e-12:
            raise ValueError("argument 'screw': expected a finite non-zero "
                             "6-vector (w, v), got "
                             f"{A.tolist() if A.size < 10 else A.shape}")
        self.screw = A
        self._S_constant = frozen(A[:, None].copy())

    def __repr__(self):
        return f"Screw(screw={self.screw.tolist()})"

    def transform(self, q: Array) -> Array:
        """``exp(hat(A) q)`` in closed form, branch-free in ``q`` (sympy works).

        With ``A = k (a, u)``, ``|a| = 1``, ``t = k q``: ``R = exp([a] t)``,
        ``p = (t + (1 - cos t) [a] + (t - sin t) [a]^2) u`` (Lynch and Park (2017),
        Prop. 3.25); ``a = 0`` gives ``R = 1``, ``p = v q``.
        """
        q = np.asarray(q)
        k = np.linalg.norm(self.screw[:3])
        if k < 1e-12:
            return homogeneous(np.broadcast_to(np.eye(3), q.shape[:-1] + (3, 3)),
                              q * self.screw[3:])
        a, u = self.screw[:3] / k, self.screw[3:] / k
        t = np.asarray(q[..., 0] if k == 1 else k * q[..., 0])
        A = lie.skew(a)
        G = (
            t[..., None, None] * np.eye(3)
            + np.asarray(1 - cos(t))[..., None, None] * A
            + np.asarray(t - sin(t))[..., None, None] * (A @ A))
        return homogeneous(rotation_about(a, t), (G @ u[:, None])[..., 0])


class Universal(Joint):
    """Two rotations: ``R = exp([a1] q1) exp([a2] q2)`` (Pinocchio's
    JointModelUniversal).

    ``S = [(exp(-[a2] q2) a1, 0), (a2, 0)]``, so ``dS != 0``. The axes must not be
    parallel; then ``S`` has full rank at every ``q`` (no singular configuration).

    Examples
    --------
    >>> j = Universal([1, 0, 0], [0, 1, 0])
    >>> np.round(j.S([0.0, np.pi / 2])[:3], 12) + 0.0
    array([[0., 0.],
           [0., 1.],
           [1., 0.]])
    """

    nq = nv = 2

    def __init__(self, axis1: ArrayLike = (1.0, 0.0, 0.0),
                 axis2: ArrayLike = (0.0, 1.0, 0.0)) -> None:
        self.axis1 = unit_axis("axis1", axis1)
        self.axis2 = unit_axis("axis2", axis2)
        if np.linalg.norm(np.cross(self.axis1, self.axis2)) < 1e-6:
            raise ValueError("arguments 'axis1', 'axis2': the axes of a universal "
                             "joint must not be parallel, got "
                             f"{self.axis1.tolist()} and {self.axis2.tolist()}")

    def __repr__(self):
        return (
            f"Universal(axis1={self.axis1.tolist()}, axis2={self.axis2.tolist()})")

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        R = (rotation_about(self.axis1, q[..., 0])
             @ rotation_about(self.axis2, q[..., 1]))
        return homogeneous(R, np.zeros(q.shape[:-1] + (3,)))

    def S(self, q: Array) -> Array:
        q = np.asarray(q)
        R2 = rotation_about(self.axis2, q[..., 1])
        a1 = np.swapaxes(R2, -1, -2) @ self.axis1
        S = zero_columns(2, q)
        S[..., :3, 0] = a1
        S[..., :3, 1] = self.axis2
        return S

    def dS(self, q: Array, dq: Array) -> Array:
        q, dq = np.asarray(q), np.asarray(dq)
        a1 = self._S(q)[..., :3, 0]
        dS = zero_columns(2, q, dq)
        dS[..., :3, 0] = -dq[..., 1:2] * cross(self.axis2, a1)
        return dS

    def d2S(self, q: Array, a: Array, b: Array) -> Array:
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        a1 = self._S(q)[..., :3, 0]
        d2S = zero_columns(2, q, a, b)
        a2 = self.axis2
        d2S[..., :3, 0] = (a[..., 1:2] * b[..., 1:2]) * cross(a2, cross(a2, a1))
        return d2S


class Planar(Joint):
    """Planar motion ``T = Trans(x, y) Rot_z(theta)``, ``q = (x, y, theta)``.

    The velocity is ``dq`` (not Pinocchio's body velocity), so ``S(theta)`` turns
    the in-plane translation into the body frame and ``dS != 0``.

    Examples
    --------
    >>> Planar().transform([1.0, 2.0, 0.0])[:3, 3]
    array([1., 2., 0.])
    """

    nq = nv = 3

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        p = np.stack([q[..., 0], q[..., 1], np.zeros_like(q[..., 0])], axis=-1)
        return homogeneous(rotation_about(np.array([0.0, 0.0, 1.0]), q[..., 2]), p)

    def S(self, q: Array) -> Array:
        q = np.asarray(q)
        c, s = cos(q[..., 2]), sin(q[..., 2])
        S = zero_columns(3, q)
        S[..., 3, 0], S[..., 4, 0] = c, -s
        S[..., 3, 1], S[..., 4, 1] = s, c
        S[..., 2, 2] = 1
        return S

    def dS(self, q: Array, dq: Array) -> Array:
        q, dq = np.asarray(q), np.asarray(dq)
        c, s, dth = cos(q[..., 2]), sin(q[..., 2]), dq[..., 2]
        dS = zero_columns(3, q, dq)
        dS[..., 3, 0], dS[..., 4, 0] = -s * dth, -c * dth
        dS[..., 3, 1], dS[..., 4, 1] = c * dth, -s * dth
        return dS

    def random(self, rng: np.random.Generator) -> Array:
        return np.concatenate(
            [rng.uniform(-1.0, 1.0, 2), rng.uniform(-np.pi, np.pi, 1)])

    def d2S(self, q: Array, a: Array, b: Array) -> Array:
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        d2S = zero_columns(3, q, a, b)
        d2S[..., 3:5, 0:2] = (-np.asarray(a[..., 2] * b[..., 2])[..., None, None]
                              * self._S(q)[..., 3:5, 0:2])
        return d2S


def _check_quaternion(q, name):
    if q.dtype == object:
        return q
    err = np.abs(np.linalg.norm(q.real, axis=-1) - 1)
    if np.any(err > QUAT_TOL):
        raise ValueError(f"argument '{name}': quaternion (w, x, y, z) must have "
                         f"unit norm to within {QUAT_TOL:g}; got norm off by "
                         f"{np.max(err):.3g}")
    return q


def _normalised(quat):
    if quat.dtype == object:
        return quat
    return quat / np.sqrt(np.sum(quat * quat, axis=-1, keepdims=True))


def _random_quaternion(rng):
    quat = rng.normal(size=4)
    quat /= np.linalg.norm(quat)
    return quat if quat[0] >= 0 else -quat


class Spherical(Joint):
    """Ball joint on a unit quaternion ``q = (w, x, y, z)``; ``nq = 4``, ``nv = 3``.

    The velocity is the body angular velocity: ``S = [[1], [0]]`` and
    ``integrate(q, v, dt) = q * exp(v dt)``. Norm errors above
    :data:`~liedyn.joint.QUAT_TOL` raise, smaller ones are normalised away.

    Examples
    --------
    >>> j = Spherical()
    >>> q1 = j.integrate(j.neutral(), np.array([0.0, 0.0, np.pi / 2]))
    >>> np.round(j.transform(q1)[:3, :3], 12)
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """

    nq, nv = 4, 3
    _S_constant = frozen(np.vstack([np.eye(3), np.zeros((3, 3))]))

    def check_q(self, q: Array, name: str = "q") -> Array:
        return _check_quaternion(q, name)

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        return homogeneous(lie.quat_to_rot(_normalised(q)),
                           np.zeros(q.shape[:-1] + (3,)))

    def integrate(self, q: Array, v: Array, dt: float = 1.0) -> Array:
        return lie.quat_multiply(q, lie.exp_quat(v * dt))

    def difference(self, q0: Array, q1: Array) -> Array:
        return lie.log_quat(lie.quat_multiply(lie.quat_conjugate(q0), q1))

    def neutral(self) -> Array:
        return np.array([1.0, 0.0, 0.0, 0.0])

    def random(self, rng: np.random.Generator) -> Array:
        return _random_quaternion(rng)


class SphericalZYX(Joint):
    """Ball joint in Euler angles ``q = (z, y, x)``: ``R = Rz(q0) Ry(q1) Rx(q2)``.

    ``S`` maps angle rates to the body angular velocity; ``det S_w = -cos(q1)``
    (gimbal lock), and forward dynamics refuse ``|cos(q1)| <``
    :data:`~liedyn.joint.CHART_TOL`.

    Examples
    --------
    >>> np.round(SphericalZYX().S([0.0, 0.0, 0.0])[:3], 12) + 0.0
    array([[0., 0., 1.],
           [0., 1., 0.],
           [1., 0., 0.]])
    """

    nq = nv = 3
    chart_singular = True
    singular_set = "gimbal lock, cos(q[1]) = 0"
    remedy = ("Euler angles cannot represent every angular velocity there: use a "
              "Spherical (quaternion) joint instead")

    def chart_distance(self, q: Array) -> Array:
        """``|cos(q1)|``: about the distance in radians to gimbal lock."""
        return np.abs(np.cos(np.asarray(q)[..., 1]))

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        ez, ey, ex = np.eye(3)[2], np.eye(3)[1], np.eye(3)[0]
        R = (rotation_about(ez, q[..., 0]) @ rotation_about(ey, q[..., 1])
             @ rotation_about(ex, q[..., 2]))
        return homogeneous(R, np.zeros(q.shape[:-1] + (3,)))

    def S(self, q: Array) -> Array:
        q = np.asarray(q)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        S = zero_columns(3, q)
        # the columns Rx^T Ry^T z, Rx^T y and x
        S[..., 0, 0], S[..., 1, 0], S[..., 2, 0] = -sb, sc * cb, cc * cb
        S[..., 1, 1], S[..., 2, 1] = cc, -sc
        S[..., 0, 2] = 1
        return S

    def dS(self, q: Array, dq: Array) -> Array:
        q, dq = np.asarray(q), np.asarray(dq)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        db, dc = dq[..., 1], dq[..., 2]
        dS = zero_columns(3, q, dq)
        dS[..., 0, 0] = -cb * db
        dS[..., 1, 0] = cc * cb * dc - sc * sb * db
        dS[..., 2, 0] = -sc * cb * dc - cc * sb * db
        dS[..., 1, 1], dS[..., 2, 1] = -sc * dc, -cc * dc
        return dS

    def random(self, rng: np.random.Generator) -> Array:
        return np.array([rng.uniform(-np.pi, np.pi), rng.uniform(-1.3, 1.3),
                         rng.uniform(-np.pi, np.pi)])

    def d2S(self, q: Array, a: Array, b: Array) -> Array:
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        bb, bc = a[..., 1] * b[..., 1], a[..., 2] * b[..., 2]
        mixed = a[..., 1] * b[..., 2] + a[..., 2] * b[..., 1]
        d2S = zero_columns(3, q, a, b)
        d2S[..., 0, 0] = sb * bb
        d2S[..., 1, 0] = -sc * cb * bb - cc * sb * mixed - sc * cb * bc
        d2S[..., 2, 0] = -cc * cb * bb + sc * sb * mixed - cc * cb * bc
        d2S[..., 1, 1], d2S[..., 2, 1] = -cc * bc, sc * bc
        return d2S


class SphericalExp(Joint):
    """Ball joint in exponential coordinates ``q = phi``: ``R = exp([phi])``.

    ``S = [[J_r(phi)], [0]]`` with the right Jacobian :func:`liedyn.dexp.dexp_so3`
    (From (2012), eq. (29)), ``dS`` from :func:`liedyn.dexp.dexp_so3_dot`. ``J_r``
    is singular on ``|phi| = 2 pi k`` (``k >= 1``): forward dynamics refuse ``q``
    within :data:`~liedyn.joint.CHART_TOL`, and :meth:`liedyn.model.Model.integrate`
    keeps ``|phi| <= pi`` (:meth:`normalize`).

    Examples
    --------
    >>> np.allclose(SphericalExp().S([0.0, 0.0, 0.0])[:3], np.eye(3))
    True
    """

    nq = nv = 3
    chart_singular = True
    singular_set = (
        "|phi| = 2 pi k, k >= 1, where the right Jacobian of exp is singular")
    remedy = ("re-normalise with Model.normalize (the same rotation with |phi| <= "
              "pi; Model.integrate does it) or use a Spherical (quaternion) joint")

    def chart_distance(self, q: Array) -> Array:
        """``| |phi| - 2 pi k |`` for the nearest ``k >= 1``."""
        theta = np.linalg.norm(np.asarray(q).real, axis=-1)
        return np.abs(
            theta - 2 * np.pi * np.maximum(np.round(theta / (2 * np.pi)), 1))

    def normalize(self, q: Array,
                  dq: Array | None = None) -> Array | tuple[Array, Array]:
        """The same rotation with ``|phi| <= pi``: ``phi (1 - 2 pi k / |phi|)``,
        ``k = round(|phi| / 2 pi)``, rates mapped by the Jacobian of the change of
        chart ``dphi' = (1 - 2 pi k / |phi|) dphi + 2 pi k phi (phi . dphi) /
        |phi|^3``.
        """
        q = np.asarray(q)
        if q.dtype == object:
            return q if dq is None else (q, dq)
        theta = np.sqrt(np.sum(q * q, axis=-1, keepdims=True))       # analytic in q
        k = np.where(theta.real > np.pi, np.round(theta.real / (2 * np.pi)), 0.0)
        if not np.any(k):
            return q if dq is None else (q, dq)
        theta = np.where(k > 0, theta, 1.0)
        phi = q * (1 - 2 * np.pi * k / theta)
        if dq is None:
            return phi
        dq = np.asarray(dq)
        radial = np.sum(q * dq, axis=-1, keepdims=True)
        return phi, ((1 - 2 * np.pi * k / theta) * dq
                     + 2 * np.pi * k * q * radial / theta ** 3)

    def difference(self, q0: Array, q1: Array) -> Array:
        """``q1 - q0`` with ``q1`` in the chart nearest ``q0``."""
        q0, q1 = np.asarray(q0), np.asarray(q1)
        if np.result_type(q0, q1) == object:
            return q1 - q0
        theta = np.sqrt(np.sum(q1 * q1, axis=-1, keepdims=True))
        unit = q1 / np.where(theta.real > 0, theta, 1.0)
        best = q1 - q0
        for k in (-1, 1):                              # the neighbouring charts
            other = q1 + 2 * np.pi * k * unit - q0
            closer = (
                np.linalg.norm(other.real, axis=-1, keepdims=True)
                < np.linalg.norm(best.real, axis=-1, keepdims=True)
            ) & (theta.real > 0)
            best = np.where(closer, other, best)
        return best

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        return homogeneous(lie.exp_so3(q), np.zeros(q.shape[:-1] + (3,)))

    def S(self, q: Array) -> Array:
        q = np.asarray(q)
        S = zero_columns(3, q)
        S[..., :3, :] = dexp.dexp_so3(q, side="right")
        return S

    def dS(self, q: Array, dq: Array) -> Array:
        q, dq = np.asarray(q), np.asarray(dq)
        dS = zero_columns(3, q, dq)
        dS[..., :3, :] = dexp.dexp_so3_dot(q, dq, side="right")
        return dS

    def random(self, rng: np.random.Generator) -> Array:
        w = rng.normal(size=3)
        return w / np.linalg.norm(w) * rng.uniform(0, 0.9 * np.pi)

    def d2S(self, q: Array, a: Array, b: Array) -> Array:
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        d2S = zero_columns(3, q, a, b)
        d2S[..., :3, :] = dexp.dexp_so3_d2(q, a, b, side="right")
        return d2S


class Free(Joint):
    """Six-DOF floating joint, ``q = (p, w, x, y, z)``: position and unit
    quaternion.

    The velocity is the body twist: ``S = 1`` (6x6) and ``integrate(q, V, dt) =
    T(q) exp(V dt)``, a right perturbation as in Pinocchio's FreeFlyer (which orders
    (v, w) and stores (x, y, z, w)).

    Examples
    --------
    >>> j = Free()
    >>> q1 = j.integrate(j.neutral(), np.array([0, 0, 0, 1.0, 0, 0]))
    >>> q1[:3]
    array([1., 0., 0.])
    """

    nq, nv = 7, 6
    _S_constant = frozen(np.eye(6))

    def check_q(self, q: Array, name: str = "q") -> Array:
        _check_quaternion(q[..., 3:], name + " (quaternion part)")
        return q

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        return homogeneous(lie.quat_to_rot(_normalised(q[..., 3:])), q[..., :3])

    def integrate(self, q: Array, v: Array, dt: float = 1.0) -> Array:
        step = lie.exp_se3(v * dt)
        R = lie.quat_to_rot(q[..., 3:])
        p = q[..., :3] + (R @ step[..., :3, 3, None])[..., 0]
        quat = lie.quat_multiply(q[..., 3:], lie.exp_quat(v[..., :3] * dt))
        return np.concatenate([p, quat], axis=-1)

    def difference(self, q0: Array, q1: Array) -> Array:
        return lie.log_se3(lie.inverse(self._transform(q0)) @ self._transform(q1))

    def neutral(self) -> Array:
        return np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])

    def random(self, rng: np.random.Generator) -> Array:
        return np.concatenate([rng.uniform(-1.0, 1.0, 3), _random_quaternion(rng)])


class Fixed(Joint):
    """A weld: no degrees of freedom (``nq = nv = 0``); ``Phi = 1``.

    Examples
    --------
    >>> Fixed().S(np.zeros(0)).shape
    (6, 0)
    """

    nq = nv = 0
    _S_constant = frozen(np.zeros((6, 0)))

    def transform(self, q: Array) -> Array:
        q = np.asarray(q)
        return np.broadcast_to(np.eye(4), q.shape[:-1] + (4, 4)).copy()
