"""The joint interface: the motion ``Phi(q)`` of a child frame in its joint frame,
and its Jacobian; derived in :ref:`sec-multibody-models`. The joint types are in
:mod:`liedyn.joints`.

Body ``i`` hangs from its parent by ``T_{lambda(i),i}(q_i) = X_i Phi_i(q_i)``: the
model's constant placement ``X_i`` times the joint motion given here. The joint
Jacobian is ``S_i = [Phi^-1 dPhi/dq^1, ...]`` (body frame), so the relative twist is
``S_i dq_i`` (Kim (2012), eq. (37)); the printed definition below Kim eq. (42) has a
misplaced inverse (see the errata). ``dS`` is ``dS/dt`` along ``dq`` (Kim's eq.
(41)). Every joint gives ``nq``, ``nv``, ``transform(q)`` (..., 4, 4), ``S(q)`` and
``dS(q, dq)`` (..., 6, nv), ``integrate``, ``difference``, ``neutral`` and
``random``.
"""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from . import _checks, lie
from ._math import cos, exact, is_symbolic, sin

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ._types import Array

__all__ = ["Joint", "QUAT_TOL", "CHART_TOL", "PIVOT_TOL"]

QUAT_TOL = 1e-6
"""Quaternions with ``| |q| - 1 |`` above this raise ``ValueError``; below, they are
normalised."""

CHART_TOL = 1e-6
"""Distance (rad) to a chart's singular set (gimbal lock of :class:`SphericalZYX`,
``|phi| = 2 pi k`` of :class:`SphericalExp`) below which forward dynamics refuse
``q``: ``S`` has a singular value about that small there."""

PIVOT_TOL = 1e-12
"""A joint's ``D_i = S_i^T I_hat_i S_i + diag(a)`` (``a`` its armature) counts as
singular in forward dynamics when a pivot ``d_j`` of ``D_i = L diag(d) L^T`` is not
above this fraction of its bound

    ``b_j = 2 (tr(I_ww) |s_w,j|^2 + tr(I_vv) |s_v,j|^2) + a_j``,

``I_ww`` and ``I_vv`` the rotational and translational 3x3 blocks of ``I_hat_i``,
``(s_w,j, s_v,j)`` column ``j`` of ``S_i``. It bounds ``d_j``: for a positive
semi-definite ``I_hat``, ``(x + y)^T I (x + y) <= 2 (x^T I x + y^T I y)`` with ``x
= (s_w, 0)``, ``y = (0, s_v)``, and ``x^T I x = s_w^T I_ww s_w <= tr(I_ww)
|s_w|^2`` (likewise ``y``), so ``d_j <= D_jj <= b_j``. Each term has the units of
``D_jj`` (kg m^2 along a turning column, whose ``s_v`` is a length; kg along a
sliding one), so the verdict is the same in any units of mass and length (and of
each coordinate: ``d_j`` and ``b_j`` both scale by the square of its unit). ``D``
does not depend on where the body frame's origin sits; ``b_j`` grows with its
distance ``r`` from the mass (terms in ``m r^2``), as does the round-off of ``D``
computed in that frame, so the verdict holds while the origin is near the body.

Below the tolerance, the subtree has no inertia along the joint's motion but
round-off (a massless leaf turning about an axis it has no inertia about); below
minus it, ``I_hat_i`` is not positive semi-definite (a non-physical inertia); both
raise ``ValueError`` naming the body. Physical bodies are far above it: a 5 cm steel
wire of radius 1 micrometre spinning about its own axis has ``d / b = 3 (r / l)^2 /
2 = 6e-10``. On sympy objects a pivot is exact: one that is a number is refused at
``<= 0``; one with free symbols is not tested."""


def unit_axis(name, axis):
    """The joint axis ``axis`` (argument ``name``) checked (a finite non-zero
    3-vector) and scaled to unit length.

    >>> unit_axis("axis", [0, 0, 2]).tolist()
    [0.0, 0.0, 1.0]
    """
    axis = _checks.array(name, axis, (3,)).real.astype(float)
    if axis.shape != (3,):
        raise ValueError(f"argument '{name}': expected a 3-vector, got shape "
                         f"{axis.shape}")
    n = np.linalg.norm(axis)
    if not np.isfinite(n) or n < 1e-12:
        raise ValueError(f"argument '{name}': a joint axis must be a finite "
                         f"non-zero vector, got {axis.tolist()}")
    return axis / n


def rotation_about(axis, angle):
    """``exp([axis] angle)`` for a unit axis (3,) and angles (...), any dtype
    (Rodrigues' formula, Lynch and Park (2017), eq. (3.51)).

    >>> rotation_about((0.0, 0.0, 1.0), np.pi / 2).round(12)[:2, :2].tolist()
    [[0.0, -1.0], [1.0, 0.0]]
    """
    A, one = _skew_cache(tuple(axis)), np.eye(3)
    s, c = sin(angle), cos(angle)
    if is_symbolic(angle):                  # exact 1 and 0 for sympy (_math.exact)
        A, one = exact(A, object), exact(one, object)
    versine = np.asarray(1 - c)
    return one + s[..., None, None] * A + versine[..., None, None] * (A @ A)


def frozen(a):
    """The array ``a`` made read-only and returned: a joint hands out its constant
    ``S``, a model its placements and inertias, without copying.

    >>> frozen(np.zeros(2)).flags.writeable
    False
    """
    a.setflags(write=False)
    return a


def zero_columns(nv, *arrays):
    """Zeros (..., 6, nv) of the broadcast batch and common dtype of ``arrays``
    (each (..., n)): the columns of a joint's ``S`` to fill.

    >>> zero_columns(2, np.zeros((4, 3))).shape
    (4, 6, 2)
    """
    shape = np.broadcast_shapes(*(a.shape for a in arrays))[:-1]
    return np.zeros(shape + (6, nv), dtype=np.result_type(*arrays, float))


@functools.lru_cache(maxsize=256)
def _skew_cache(axis):
    """``[axis]`` of a constant joint axis, computed once."""
    A = lie.skew(np.array(axis))
    A.setflags(write=False)
    return A


_ARGUMENTS = {
    "transform": ("q",), "motion": ("q",), "S": ("q",), "dS": ("q", "dq"),
    "d2S": ("q", "a", "b"), "integrate": ("q", "v", "dt"),
    "difference": ("q0", "q1"), "chart_distance": ("q",), "normalize": ("q", "dq"),
    "check_q": ("q",), "random": ("rng",)}
"""The methods whose arguments a joint checks, and their names in order."""

_CONFIGURATIONS = ("q", "q0", "q1")          # (..., nq); dq, v, a, b: (..., nv)


def _checking(method, names, named):
    """``method`` with its arguments ``names`` checked by :meth:`Joint._argument`
    (``None`` passes: an omitted optional ``dq``); ``named``: the argument ``name``
    (of ``check_q``) is how messages call ``q``."""

    @functools.wraps(method)
    def checked(self, *args, **kwargs):
        args = list(args)
        label = None
        if named:
            label = args[1] if len(args) > 1 else kwargs.get("name", "q")
        for k, name in enumerate(names):
            if k < len(args):
                args[k] = self._argument(name, args[k], label)
            elif kwargs.get(name) is not None:
                kwargs[name] = self._argument(name, kwargs[name], label)
        if named and (args or "q" in kwargs):     # check_q: _argument has run it
            return args[0] if args else kwargs["q"]
        return method(self, *args, **kwargs)

    return checked


def _check_arguments(cls):
    """Wrap each method of ``_ARGUMENTS`` that ``cls`` defines: ``cls.S`` checks
    ``q`` and calls ``cls._S``, the unchecked method the algorithms call."""
    for name, names in _ARGUMENTS.items():
        method = cls.__dict__.get(name)
        if method is not None:
            setattr(cls, "_" + name, method)
            setattr(cls, name, _checking(method, names, name == "check_q"))


class Joint:
    """Base class: a joint with ``nq`` configuration and ``nv`` velocity
    coordinates.

    Each public method checks its coordinates (``q``, ``q0``, ``q1``: shape (...,
    nq), unit quaternions where the joint has them; ``dq``, ``v``, ``a``, ``b``:
    (..., nv); ``dt``: a number): numbers (float, complex or sympy), finite, else a
    ``TypeError`` or ``ValueError`` naming the joint and the argument. It then
    calls the method of the same name with a leading underscore (``S`` calls
    ``_S``), which the algorithms call directly on a state the model has checked
    once (:meth:`liedyn.model.Model.check_q`); a subclass defines the public name
    (``def S(self, q)``) and gets both.

    Attributes
    ----------
    name : str or None
        the joint's name in a URDF or MJCF file (set by the readers)
    bodies : tuple of str
        the bodies it moves, recorded by :meth:`liedyn.model.Model.add_body`

    Examples
    --------
    >>> from liedyn.joints import Revolute
    >>> try:
    ...     Revolute().S([float("nan")])
    ... except ValueError as err:
    ...     print(err)
    Revolute joint: argument 'q': contains NaN or inf (expected finite numbers,
    got nan at index (0,))
    """

    nq = 0
    nv = 0
    chart_singular = False      # True when S(q) loses rank somewhere
    name = None
    bodies: tuple[str, ...] = ()
    # the unchecked methods the algorithms call (_check_arguments sets them from the
    # public ones), the constant S of a joint whose S does not depend on q, and what
    # the chart check says of a joint with a singular set
    _S_constant: Array
    _transform: Callable[[Array], Array]
    _S: Callable[[Array], Array]
    _integrate: Callable[[Array, Array, Any], Array]
    _normalize: Callable[[Array, Array | None], Any]
    _difference: Callable[[Array, Array], Array]
    _chart_distance: Callable[[Array], Array]
    _check_q: Callable[[Array, str], Array]
    singular_set: str
    remedy: str

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _check_arguments(cls)

    def __repr__(self):
        return f"{type(self).__name__}()"

    def _label(self):
        """How messages name this joint: its type, its name and its bodies, as far
        as known."""
        text = f"{type(self).__name__} joint"
        if self.name:
            text += f" {self.name!r}"
        if self.bodies:
            text += (" of body " if len(self.bodies) == 1 else " of bodies ") + \
                ", ".join(map(repr, self.bodies))
        return text

    def _argument(self, name, x, label=None):
        """Argument ``name`` of a public method, checked (``label``: its name in
        the message); ``TypeError`` or ``ValueError`` naming the joint."""
        if name == "rng":
            if not isinstance(x, np.random.Generator):
                raise TypeError(f"{self._label()}: argument 'rng': expected a "
                                "numpy Generator (numpy.random.default_rng(seed)), "
                                f"got {type(x).__name__}")
            return x
        configuration = name in _CONFIGURATIONS
        tail = () if name == "dt" else (self.nq,) if configuration else (self.nv,)
        try:
            x = _checks.array(label or name, x, tail)
            if configuration:
                x = self._check_q(x, label or name)  # quaternions of unit norm
        except (TypeError, ValueError) as err:
            raise type(err)(f"{self._label()}: {err}") from None
        return x

    def chart_distance(self, q: Array) -> Array:
        """Distance of ``q`` (..., nq) to the set where ``S(q)`` loses rank
        (``inf``: none)."""
        return np.full(np.shape(q)[:-1], np.inf)

    def normalize(self, q: Array,
                  dq: Array | None = None) -> Array | tuple[Array, Array]:
        """The same configuration in the joint's preferred chart (and ``dq`` carried
        along)."""
        return q if dq is None else (q, dq)

    def check_q(self, q: Array, name: str = "q") -> Array:
        """Validate a (..., nq) configuration of this joint: numbers, finite, unit
        quaternions (the hook of quaternion joints); ``name``: how messages call
        it. Returns ``q`` as an array."""
        return q

    def motion(self, q: Array) -> tuple[Array | None, Array | None]:
        """``Phi(q)`` as rotation (..., 3, 3) and translation (..., 3); either is
        ``None`` for a joint that never rotates or never translates.
        """
        J = self._transform(q)
        return J[..., :3, :3], J[..., :3, 3]

    @property
    def constant_S(self) -> bool:
        """``True`` when ``S`` does not depend on ``q``, so that ``dS = 0``."""
        return type(self).dS is Joint.dS

    def S(self, q: Array) -> Array:
        """Joint Jacobian ``S(q)`` (..., 6, nv) in the child frame (Kim (2012), eq.
        (37))."""
        if np.ndim(q) == 1:
            return self._S_constant
        return np.broadcast_to(self._S_constant,
                               np.shape(q)[:-1] + self._S_constant.shape)

    def dS(self, q: Array, dq: Array) -> Array:
        """Time derivative of ``S`` along ``dq`` (Kim (2012), eq. (41)); zero for
        constant ``S``."""
        shape = np.broadcast_shapes(np.shape(q)[:-1], np.shape(dq)[:-1])
        return np.zeros(shape + (6, self.nv))

    def d2S(self, q: Array, a: Array, b: Array) -> Array:
        """``sum_kl d^2 S / dq_k dq_l a_k b_l`` (..., 6, nv): ``d2S(q, dq, delta
        q)`` is the ``d(dS)/dp`` of Kim (2012), Table 5; zero when ``S`` is affine.
        """
        shape = np.broadcast_shapes(np.shape(q)[:-1], np.shape(a)[:-1],
                                    np.shape(b)[:-1])
        return np.zeros(shape + (6, self.nv))

    def integrate(self, q: Array, v: Array, dt: float = 1.0) -> Array:
        """Configuration reached from ``q`` moving with velocity ``v`` for ``dt``:
        ``q + v dt``."""
        return q + v * dt

    def difference(self, q0: Array, q1: Array) -> Array:
        """The velocity ``v`` with ``integrate(q0, v, 1) == q1``: ``q1 - q0``."""
        return q1 - q0

    def neutral(self) -> Array:
        """The zero configuration (identity motion)."""
        return np.zeros(self.nq)

    def random(self, rng: np.random.Generator) -> Array:
        """A random configuration drawn with the numpy Generator ``rng``."""
        return rng.uniform(-np.pi, np.pi, self.nq)


_check_arguments(Joint)
