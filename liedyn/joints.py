"""Joint models: the motion ``J(q)`` of a child frame relative to its joint frame,
and its Jacobian.

A body ``i`` hangs from its parent through ``T_{lambda(i),i}(q_i) = X_i J_i(q_i)``:
a constant placement ``X_i`` (in the :class:`~liedyn.model.Model`) times the joint
motion ``J_i(q_i)`` given here. The joint Jacobian is the body-frame derivative

    ``S_i = [T^-1 dT/dq^1, ..., T^-1 dT/dq^n]  =  [J^-1 dJ/dq^1, ...]``  (as
    6-vectors),

so that the relative twist is ``S_i dq_i`` (Kim (2012), eq. (37)). The definition
below Kim eq. (42), as printed, has ``T^-1 dT^-1/dq``: a misplaced inverse (see the
errata appendix; the tests check the form above against finite differences of
``transform``). ``dS`` is its time derivative ``dS/dt`` along ``dq`` (Kim eq. (41));
it vanishes only when ``S`` is constant.

Every joint gives ``nq``, ``nv``, ``transform(q)`` (..., 4, 4), ``S(q)`` (..., 6,
nv), ``dS(q, dq)`` (..., 6, nv), ``integrate(q, v, dt)``, ``difference(q0, q1)``,
``neutral()`` and ``random(rng)``. Joints whose configuration lives on a group
(:class:`Spherical`, :class:`Free`) store a unit quaternion ``(w, x, y, z)``, so
``nq != nv`` and their velocity is the body angular velocity / body twist (a
quasi-velocity, From (2012)); ``integrate`` then moves on the group,
``q exp(v dt)``. All other joints have ``nv == nq`` and velocity ``dq/dt``.

Derived in :ref:`sec-multibody-models`.
"""
import functools

import numpy as np

from . import _checks, lie
from ._math import cos, sin
from ._spatial import cross, homogeneous

__all__ = ["Joint", "Revolute", "Prismatic", "Helical", "Screw", "Universal",
           "Planar", "Spherical", "SphericalZYX", "SphericalExp", "Free", "Fixed",
           "QUAT_TOL", "CHART_TOL"]

QUAT_TOL = 1e-6
"""Quaternions with ``| |q| - 1 |`` above this raise ``ValueError``; below it they
are normalised."""

CHART_TOL = 1e-6
"""Distance (rad) to the singular set of a joint's coordinates below which forward
dynamics refuse the configuration: ``|cos q[1]|`` for :class:`SphericalZYX` (gimbal
lock) and ``| |phi| - 2 pi k |`` (``k >= 1``) for :class:`SphericalExp`. Near it the
smallest singular value of ``S`` is about that distance (over ``2 pi`` for
``SphericalExp``), so the accelerations grow like its inverse square."""


def _unit(name, axis):
    axis = _checks.array(name, axis, (3,)).real.astype(float)
    if axis.shape != (3,):
        raise ValueError(f"argument '{name}': expected a 3-vector, got shape "
                         f"{axis.shape}")
    n = np.linalg.norm(axis)
    if not np.isfinite(n) or n < 1e-12:
        raise ValueError(f"argument '{name}': a joint axis must be a finite "
                         f"non-zero vector, got {axis.tolist()}")
    return axis / n


def _rotation_about(axis, angle):
    """``exp([axis] angle)`` for a unit ``axis`` (3,) and angles (...), any dtype
    (Rodrigues)."""
    A = _skew_cache(tuple(axis))
    s, c = sin(angle), cos(angle)
    # 0-d object arrays give a bare sympy scalar under arithmetic
    versine = np.asarray(1 - c)
    return np.eye(3) + s[..., None, None] * A + versine[..., None, None] * (A @ A)


def _frozen(a):
    """Make a constant array read-only (a joint hands out its constant ``S`` without
    copying)."""
    a.setflags(write=False)
    return a


@functools.lru_cache(maxsize=256)
def _skew_cache(axis):
    """``[axis]`` of a constant joint axis, computed once (joint axes never
    change)."""
    A = lie.skew(np.array(axis))
    A.setflags(write=False)
    return A


class Joint:
    """Base class: a joint with ``nq`` configuration and ``nv`` velocity
    coordinates."""

    nq = 0
    nv = 0
    chart_singular = False
    """``True`` for joints whose ``S(q)`` loses rank somewhere (see
    :meth:`chart_distance`)."""

    def __repr__(self):
        return f"{type(self).__name__}()"

    def chart_distance(self, q):
        """Distance of ``q`` (..., nq) to the set where ``S(q)`` loses rank
        (``inf``: none)."""
        return np.full(np.shape(q)[:-1], np.inf)

    def normalize(self, q, dq=None):
        """The same configuration in the joint's preferred chart (and ``dq`` carried
        along)."""
        return q if dq is None else (q, dq)

    def check_q(self, q, name="q"):
        """Validate a (..., nq) configuration of this joint (hook for quaternion
        joints)."""
        return q

    def motion(self, q):
        """``J(q)`` as its rotation (..., 3, 3) and translation (..., 3), what the
        recursions use.

        Either may be ``None`` for a joint that never rotates or never translates.
        """
        J = self.transform(q)
        return J[..., :3, :3], J[..., :3, 3]

    @property
    def constant_S(self):
        """``True`` when ``S`` does not depend on ``q``, so that ``dS = 0``."""
        return type(self).dS is Joint.dS

    def S(self, q):
        """Joint Jacobian ``S(q)`` (..., 6, nv) in the child frame (Kim (2012), eq.
        (37))."""
        if np.ndim(q) == 1:
            return self._S
        return np.broadcast_to(self._S, np.shape(q)[:-1] + self._S.shape)

    def dS(self, q, dq):
        """Time derivative of ``S`` along ``dq`` (Kim (2012), eq. (41)); zero for
        constant ``S``."""
        shape = np.broadcast_shapes(np.shape(q)[:-1], np.shape(dq)[:-1])
        return np.zeros(shape + (6, self.nv))

    def d2S(self, q, a, b):
        """Second derivative ``sum_kl d^2 S / dq_k dq_l a_k b_l`` (..., 6, nv); zero
        if ``S`` is affine.

        With ``dS(q, dq) = sum_k dS/dq_k dq_k``, the derivative of ``dS`` along
        ``delta q`` is ``d2S(q, dq, delta q)``: the ``d(dS)/dp`` of Kim (2012),
        Table 5.
        """
        shape = np.broadcast_shapes(np.shape(q)[:-1], np.shape(a)[:-1],
                                    np.shape(b)[:-1])
        return np.zeros(shape + (6, self.nv))

    def integrate(self, q, v, dt=1.0):
        """Configuration reached from ``q`` moving with velocity ``v`` for ``dt``:
        ``q + v dt``."""
        return q + v * dt

    def difference(self, q0, q1):
        """The velocity ``v`` with ``integrate(q0, v, 1) == q1``: ``q1 - q0``."""
        return q1 - q0

    def neutral(self):
        """The zero configuration (identity motion)."""
        return np.zeros(self.nq)

    def random(self, rng):
        """A random configuration drawn with the numpy Generator ``rng``."""
        return rng.uniform(-np.pi, np.pi, self.nq)


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

    def __init__(self, axis=(0.0, 0.0, 1.0)):
        self.axis = _unit("axis", axis)
        self._S = _frozen(np.concatenate([self.axis, np.zeros(3)])[:, None])

    def __repr__(self):
        return f"Revolute(axis={self.axis.tolist()})"

    def transform(self, q):
        """``J(q) = [[exp([a] q), 0], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(_rotation_about(self.axis, q[..., 0]),
                           np.zeros(q.shape[:-1] + (3,)))

    def motion(self, q):
        return _rotation_about(self.axis, np.asarray(q)[..., 0]), None


class Prismatic(Joint):
    """Translation ``q`` along a unit ``axis``: ``S = (0, axis)``.

    Examples
    --------
    >>> Prismatic([1, 0, 0]).transform([0.5])[:3, 3]
    array([0.5, 0. , 0. ])
    """

    nq = nv = 1

    def __init__(self, axis=(0.0, 0.0, 1.0)):
        self.axis = _unit("axis", axis)
        self._S = _frozen(np.concatenate([np.zeros(3), self.axis])[:, None])

    def __repr__(self):
        return f"Prismatic(axis={self.axis.tolist()})"

    def transform(self, q):
        """``J(q) = [[1, a q], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(np.broadcast_to(np.eye(3), q.shape[:-1] + (3, 3)),
                           q * self.axis)

    def motion(self, q):
        return None, np.asarray(q) * self.axis

    def random(self, rng):
        return rng.uniform(-1.0, 1.0, 1)


class Helical(Joint):
    """Screw motion: rotation ``q`` about ``axis`` and translation ``pitch * q``
    along it.

    ``S = (axis, pitch * axis)`` (pitch in length per radian; Pinocchio's
    HelicalUnaligned).

    Examples
    --------
    >>> Helical([0, 0, 1], pitch=0.1).transform([np.pi])[:3, 3]
    array([0.        , 0.        , 0.31415927])
    """

    nq = nv = 1

    def __init__(self, axis=(0.0, 0.0, 1.0), pitch=0.0):
        self.axis = _unit("axis", axis)
        self.pitch = _checks.scalar("pitch", pitch)
        self._S = _frozen(
            np.concatenate([self.axis, self.pitch * self.axis])[:, None])

    def __repr__(self):
        return f"Helical(axis={self.axis.tolist()}, pitch={self.pitch})"

    def transform(self, q):
        """``J(q) = [[exp([a] q), pitch q a], [0, 1]]``."""
        q = np.asarray(q)
        return homogeneous(_rotation_about(self.axis, q[..., 0]),
                           self.pitch * q * self.axis)


class Screw(Joint):
    """Motion along a constant screw axis ``A = (a, b)`` given in the child frame:
    ``J(q) = exp(A q)``.

    The product-of-exponentials joint of Lynch and Park (2017) and of the RNEA notes
    (``T_{i-1,i} = M_{i-1,i} exp([A_i] theta_i)``): it lets the body frame sit
    anywhere, e.g. at the centre of mass. ``S = A`` is constant. A revolute axis
    through the point ``r`` is ``A = (a, -a x r)``; a prismatic one is
    ``A = (0, a)``.

    Examples
    --------
    >>> # rotation about z through the point (1, 0, 0)
    >>> j = Screw([0, 0, 1, 0, -1, 0])
    >>> np.round(j.transform([np.pi])[:3, 3], 12) + 0.0
    array([2., 0., 0.])
    """

    nq = nv = 1

    def __init__(self, screw):
        A = _checks.array("screw", screw, (6,)).astype(float)
        if A.shape != (6,) or np.linalg.norm(A) < 1e-12:
            raise ValueError("argument 'screw': expected a finite non-zero "
                             "6-vector (w, v), got "
                             f"{A.tolist() if A.size < 10 else A.shape}")
        self.screw = A
        self._S = _frozen(A[:, None].copy())

    def __repr__(self):
        return f"Screw(screw={self.screw.tolist()})"

    def transform(self, q):
        """``J(q) = exp(hat(A) q)``, in closed form (no branch on ``q``, so sympy
        input works).

        With ``A = k (a, u)``, ``|a| = 1`` and ``t = k q``: ``R = exp([a] t)``,
        ``p = (t + (1 - cos t) [a] + (t - sin t) [a]^2) u`` (Lynch and Park (2017),
        Prop. 3.25); a pure translation (``a = 0``) gives ``R = 1``, ``p = v q``.
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
        return homogeneous(_rotation_about(a, t), (G @ u[:, None])[..., 0])


class Universal(Joint):
    """Two rotations: ``R = exp([a1] q1) exp([a2] q2)`` (Pinocchio's
    JointModelUniversal).

    ``S = [(exp(-[a2] q2) a1, 0), (a2, 0)]``: the first column turns with ``q2``, so
    ``dS != 0``. The axes must not be parallel (the sine of their angle at least
    1e-6). A rotation about ``a2`` keeps the angle between the columns, so ``S`` has
    full rank at every ``q``: unlike Euler angles, the universal joint has no
    singular configuration (its singular set is the parallel axes, refused at
    construction).

    Examples
    --------
    >>> j = Universal([1, 0, 0], [0, 1, 0])
    >>> np.round(j.S([0.0, np.pi / 2])[:3], 12) + 0.0
    array([[0., 0.],
           [0., 1.],
           [1., 0.]])
    """

    nq = nv = 2

    def __init__(self, axis1=(1.0, 0.0, 0.0), axis2=(0.0, 1.0, 0.0)):
        self.axis1, self.axis2 = _unit("axis1", axis1), _unit("axis2", axis2)
        if np.linalg.norm(np.cross(self.axis1, self.axis2)) < 1e-6:
            raise ValueError("arguments 'axis1', 'axis2': the axes of a universal "
                             "joint must not be parallel, got "
                             f"{self.axis1.tolist()} and {self.axis2.tolist()}")

    def __repr__(self):
        return (
            f"Universal(axis1={self.axis1.tolist()}, axis2={self.axis2.tolist()})")

    def transform(self, q):
        q = np.asarray(q)
        R = (_rotation_about(self.axis1, q[..., 0])
             @ _rotation_about(self.axis2, q[..., 1]))
        return homogeneous(R, np.zeros(q.shape[:-1] + (3,)))

    def S(self, q):
        q = np.asarray(q)
        R2 = _rotation_about(self.axis2, q[..., 1])
        a1 = np.swapaxes(R2, -1, -2) @ self.axis1
        S = np.zeros(q.shape[:-1] + (6, 2), dtype=np.result_type(q, float))
        S[..., :3, 0] = a1
        S[..., :3, 1] = self.axis2
        return S

    def dS(self, q, dq):
        q, dq = np.asarray(q), np.asarray(dq)
        a1 = self.S(q)[..., :3, 0]
        dS = np.zeros(np.broadcast_shapes(q.shape, dq.shape)[:-1] + (6, 2),
                      dtype=np.result_type(q, dq, float))
        # d/dt exp(-[a2] q2) a1
        dS[..., :3, 0] = -dq[..., 1:2] * cross(self.axis2, a1)
        return dS


    def d2S(self, q, a, b):
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        a1 = self.S(q)[..., :3, 0]
        shape = np.broadcast_shapes(q.shape, a.shape, b.shape)[:-1]
        d2S = np.zeros(shape + (6, 2), dtype=np.result_type(q, a, b, float))
        a2 = self.axis2
        d2S[..., :3, 0] = (a[..., 1:2] * b[..., 1:2]) * cross(a2, cross(a2, a1))
        return d2S


class Planar(Joint):
    """Planar motion in the joint frame's x-y plane: ``q = (x, y, theta)``,
    ``T = Trans(x, y) Rot_z(theta)``.

    The velocity is ``dq = (dx, dy, dtheta)`` (rates of the coordinates, not
    Pinocchio's body velocity), so ``S(theta)`` rotates the in-plane translation
    into the body frame and ``dS != 0``.

    Examples
    --------
    >>> Planar().transform([1.0, 2.0, 0.0])[:3, 3]
    array([1., 2., 0.])
    """

    nq = nv = 3

    def transform(self, q):
        q = np.asarray(q)
        p = np.stack([q[..., 0], q[..., 1], np.zeros_like(q[..., 0])], axis=-1)
        return homogeneous(_rotation_about(np.array([0.0, 0.0, 1.0]), q[..., 2]), p)

    def S(self, q):
        q = np.asarray(q)
        c, s = cos(q[..., 2]), sin(q[..., 2])
        S = np.zeros(q.shape[:-1] + (6, 3), dtype=np.result_type(q, float))
        S[..., 3, 0], S[..., 4, 0] = c, -s      # R^T e_x
        S[..., 3, 1], S[..., 4, 1] = s, c       # R^T e_y
        S[..., 2, 2] = 1
        return S

    def dS(self, q, dq):
        q, dq = np.asarray(q), np.asarray(dq)
        c, s, dth = cos(q[..., 2]), sin(q[..., 2]), dq[..., 2]
        dS = np.zeros(np.broadcast_shapes(q.shape, dq.shape)[:-1] + (6, 3),
                      dtype=np.result_type(q, dq, float))
        dS[..., 3, 0], dS[..., 4, 0] = -s * dth, -c * dth
        dS[..., 3, 1], dS[..., 4, 1] = c * dth, -s * dth
        return dS

    def random(self, rng):
        return np.concatenate(
            [rng.uniform(-1.0, 1.0, 2), rng.uniform(-np.pi, np.pi, 1)])


    def d2S(self, q, a, b):
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        shape = np.broadcast_shapes(q.shape, a.shape, b.shape)[:-1]
        d2S = np.zeros(shape + (6, 3), dtype=np.result_type(q, a, b, float))
        d2S[..., 3:5, 0:2] = (
            -(a[..., 2] * b[..., 2])[..., None, None] * self.S(q)[..., 3:5, 0:2])
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
    """Ball joint with a unit quaternion ``q = (w, x, y, z)``; ``nq = 4``,
    ``nv = 3``.

    The velocity is the body angular velocity, so ``S = [[1], [0]]`` is constant and
    ``integrate(q, v, dt) = q * exp(v dt)``. Quaternions off unit norm by more than
    :data:`QUAT_TOL` raise; smaller errors are normalised away in ``transform``.

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
    _S = _frozen(np.vstack([np.eye(3), np.zeros((3, 3))]))

    def check_q(self, q, name="q"):
        return _check_quaternion(q, name)

    def transform(self, q):
        q = np.asarray(q)
        return homogeneous(lie.quat_to_rot(_normalised(q)),
                           np.zeros(q.shape[:-1] + (3,)))

    def integrate(self, q, v, dt=1.0):
        return lie.quat_multiply(q, lie.exp_quat(v * dt))

    def difference(self, q0, q1):
        return lie.log_quat(lie.quat_multiply(lie.quat_conjugate(q0), q1))

    def neutral(self):
        return np.array([1.0, 0.0, 0.0, 0.0])

    def random(self, rng):
        return _random_quaternion(rng)


class SphericalZYX(Joint):
    """Ball joint in Euler angles ``q = (z, y, x)``: ``R = Rz(q0) Ry(q1) Rx(q2)``
    (as Pinocchio).

    ``S`` maps angle rates to the body angular velocity; it is singular at
    ``cos(q1) = 0`` (gimbal lock: ``det S_w = -cos(q1)``) and depends on ``q``, so
    ``dS != 0``. Forward dynamics refuse configurations with ``|cos(q1)| <``
    :data:`CHART_TOL`.

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

    def chart_distance(self, q):
        """``|cos(q1)|``: about the distance in radians to gimbal lock
        ``q1 = pi/2 + k pi``."""
        return np.abs(np.cos(np.asarray(q)[..., 1]))

    def transform(self, q):
        q = np.asarray(q)
        ez, ey, ex = np.eye(3)[2], np.eye(3)[1], np.eye(3)[0]
        R = (_rotation_about(ez, q[..., 0]) @ _rotation_about(ey, q[..., 1])
             @ _rotation_about(ex, q[..., 2]))
        return homogeneous(R, np.zeros(q.shape[:-1] + (3,)))

    def S(self, q):
        q = np.asarray(q)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        S = np.zeros(q.shape[:-1] + (6, 3), dtype=np.result_type(q, float))
        # Rx^T Ry^T e_z
        S[..., 0, 0], S[..., 1, 0], S[..., 2, 0] = -sb, sc * cb, cc * cb
        S[..., 1, 1], S[..., 2, 1] = cc, -sc                              # Rx^T e_y
        S[..., 0, 2] = 1                                                  # e_x
        return S

    def dS(self, q, dq):
        q, dq = np.asarray(q), np.asarray(dq)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        db, dc = dq[..., 1], dq[..., 2]
        dS = np.zeros(np.broadcast_shapes(q.shape, dq.shape)[:-1] + (6, 3),
                      dtype=np.result_type(q, dq, float))
        dS[..., 0, 0] = -cb * db
        dS[..., 1, 0] = cc * cb * dc - sc * sb * db
        dS[..., 2, 0] = -sc * cb * dc - cc * sb * db
        dS[..., 1, 1], dS[..., 2, 1] = -sc * dc, -cc * dc
        return dS

    def random(self, rng):
        return np.array([rng.uniform(-np.pi, np.pi), rng.uniform(-1.3, 1.3),
                         rng.uniform(-np.pi, np.pi)])


    def d2S(self, q, a, b):
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        sb, cb, sc, cc = (sin(q[..., 1]), cos(q[..., 1]), sin(q[..., 2]),
                          cos(q[..., 2]))
        bb, bc = a[..., 1] * b[..., 1], a[..., 2] * b[..., 2]
        mixed = a[..., 1] * b[..., 2] + a[..., 2] * b[..., 1]
        shape = np.broadcast_shapes(q.shape, a.shape, b.shape)[:-1]
        d2S = np.zeros(shape + (6, 3), dtype=np.result_type(q, a, b, float))
        d2S[..., 0, 0] = sb * bb
        d2S[..., 1, 0] = -sc * cb * bb - cc * sb * mixed - sc * cb * bc
        d2S[..., 2, 0] = -cc * cb * bb + sc * sb * mixed - cc * cb * bc
        d2S[..., 1, 1], d2S[..., 2, 1] = -cc * bc, sc * bc
        return d2S


class SphericalExp(Joint):
    """Ball joint in exponential coordinates ``q = phi``: ``R = exp([phi])``.

    The velocity is ``dphi``; the body angular velocity is ``J_r(phi) dphi``, so
    ``S = [[J_r(phi)], [0]]`` (the right Jacobian :func:`liedyn.lie.dexp_so3`; From
    (2012), eq. (29)) and ``dS = [[dJ_r/dt], [0]]``
    (:func:`liedyn.lie.dexp_so3_dot`). The chart is singular on the spheres
    ``|phi| = 2 pi k`` (``k >= 1``), where ``J_r`` loses rank: forward dynamics
    refuse configurations within :data:`CHART_TOL` of them, and
    :meth:`liedyn.model.Model.integrate` re-normalises ``phi`` into ``|phi| <= pi``
    (:meth:`normalize`), so that a simulation never gets there.

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

    def chart_distance(self, q):
        """``| |phi| - 2 pi k |`` for the nearest ``k >= 1``."""
        theta = np.linalg.norm(np.asarray(q).real, axis=-1)
        return np.abs(
            theta - 2 * np.pi * np.maximum(np.round(theta / (2 * np.pi)), 1))

    def normalize(self, q, dq=None):
        """``phi (1 - 2 pi k / |phi|)`` with ``k = round(|phi| / 2 pi)``, where
        ``|phi| > pi``.

        The same rotation about the same axis, by ``|phi| - 2 pi k`` in
        ``[-pi, pi]``. Rates map by the Jacobian of this change of chart,
        ``dphi' = (1 - 2 pi k / |phi|) dphi + 2 pi k phi (phi . dphi) / |phi|^3``.
        Complex (complex-step) input is decided by its real part; sympy input is
        kept.
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

    def difference(self, q0, q1):
        """``q1 - q0`` with ``q1`` in the chart nearest ``q0``:
        ``q1 + 2 pi k q1 / |q1|``."""
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

    def transform(self, q):
        q = np.asarray(q)
        return homogeneous(lie.exp_so3(q), np.zeros(q.shape[:-1] + (3,)))

    def S(self, q):
        q = np.asarray(q)
        S = np.zeros(q.shape[:-1] + (6, 3), dtype=np.result_type(q, float))
        S[..., :3, :] = lie.dexp_so3(q, side="right")
        return S

    def dS(self, q, dq):
        q, dq = np.asarray(q), np.asarray(dq)
        dS = np.zeros(np.broadcast_shapes(q.shape, dq.shape)[:-1] + (6, 3),
                      dtype=np.result_type(q, dq, float))
        dS[..., :3, :] = lie.dexp_so3_dot(q, dq, side="right")
        return dS

    def random(self, rng):
        w = rng.normal(size=3)
        return w / np.linalg.norm(w) * rng.uniform(0, 0.9 * np.pi)


    def d2S(self, q, a, b):
        q, a, b = np.asarray(q), np.asarray(a), np.asarray(b)
        shape = np.broadcast_shapes(q.shape, a.shape, b.shape)[:-1]
        d2S = np.zeros(shape + (6, 3), dtype=np.result_type(q, a, b, float))
        d2S[..., :3, :] = lie.dexp_so3_d2(q, a, b, side="right")
        return d2S


class Free(Joint):
    """Six-DOF floating joint: ``q = (p, w, x, y, z)`` (position, unit quaternion);
    ``nq = 7``.

    The velocity is the body twist ``V = (w, v)`` (angular first), so ``S = 1``
    (6x6) and ``integrate(q, V, dt) = T(q) exp(V dt)``, a right (body-frame)
    perturbation as in Pinocchio's FreeFlyer (which orders (v, w) and stores (x, y,
    z, w)).

    Examples
    --------
    >>> j = Free()
    >>> q1 = j.integrate(j.neutral(), np.array([0, 0, 0, 1.0, 0, 0]))
    >>> q1[:3]
    array([1., 0., 0.])
    """

    nq, nv = 7, 6
    _S = _frozen(np.eye(6))

    def check_q(self, q, name="q"):
        _check_quaternion(q[..., 3:], name + " (quaternion part)")
        return q

    def transform(self, q):
        q = np.asarray(q)
        return homogeneous(lie.quat_to_rot(_normalised(q[..., 3:])), q[..., :3])

    def integrate(self, q, v, dt=1.0):
        step = lie.exp_se3(v * dt)
        R = lie.quat_to_rot(q[..., 3:])
        p = q[..., :3] + (R @ step[..., :3, 3, None])[..., 0]
        quat = lie.quat_multiply(q[..., 3:], lie.exp_quat(v[..., :3] * dt))
        return np.concatenate([p, quat], axis=-1)

    def difference(self, q0, q1):
        return lie.log_se3(lie.inverse(self.transform(q0)) @ self.transform(q1))

    def neutral(self):
        return np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0])

    def random(self, rng):
        return np.concatenate([rng.uniform(-1.0, 1.0, 3), _random_quaternion(rng)])


class Fixed(Joint):
    """A weld: no degrees of freedom (``nq = nv = 0``); ``J = 1``.

    Examples
    --------
    >>> Fixed().S(np.zeros(0)).shape
    (6, 0)
    """

    nq = nv = 0
    _S = _frozen(np.zeros((6, 0)))

    def transform(self, q):
        q = np.asarray(q)
        return np.broadcast_to(np.eye(4), q.shape[:-1] + (4, 4)).copy()
