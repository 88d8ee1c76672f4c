"""Multibody models: a tree of rigid bodies connected by joints; derived in
:ref:`sec-multibody-models`.

Bodies are numbered ``1..N`` in topological order (``parent[i] < i``), ``0`` is the
ground (Kim (2012), Section 2.1). Body ``i`` hangs from ``parent[i]`` by
``T_{lambda(i),i}(q_i) = X_i Phi_i(q_i)``: the placement ``X_i`` of the joint frame
in the parent's frame times the joint motion (:mod:`liedyn.joints`); its frame
``{i}`` is the joint's child frame, in which its inertia ``I_i`` (Kim's eq. (20)) is
expressed. :meth:`Model.add_body` builds and validates the tree, which is then
read-only (an edited ``parent`` could close a cycle); inertias, placements, gravity
and the armature may be assigned, validated the same way. The armature (rotor
inertia reflected through the gear, per degree of freedom, as in Pinocchio and
MuJoCo) adds ``armature * ddq`` to the joint torques, ``diag(armature)`` to ``M``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, overload

import numpy as np

from . import _checks
from .inertia import check_inertia
from .joint import frozen
from .joints import CHART_TOL, Joint

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .joint import Joint

__all__ = ["Model"]


def edited(model):
    """Drop the flattened model cached on ``model`` (:attr:`Model.flat_model`):
    called by every edit (a body added, an inertia, placement, gravity or
    armature assigned)."""
    model.flat_model = None


_TOPOLOGY = frozenset({"parent", "joints", "names", "children", "q_slice",
                       "v_slice", "nq", "nv", "placements", "inertias",
                       "chart_bodies"})


class _ReadOnly(list):
    """A list that cannot be changed: the tree is fixed by ``Model.add_body``."""

    def __init__(self, items, field="children"):
        super().__init__(items)
        self._field = field

    def _refuse(self, *args, **kwargs):
        raise TypeError(f"Model.{self._field} is read-only: the tree is fixed by "
                        "add_body; build a new Model to change it")

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self):                       # copy, deepcopy and pickle
        return _ReadOnly, (list(self), self._field)


class _BodyParameters(_ReadOnly):
    """Per-body inertias or placements: assignable (validated), never resized."""

    def __init__(self, items, model, field):
        super().__init__(items, field)
        self._model = model

    def __setitem__(self, i, value):
        names = self._model.names
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) \
                or not 1 <= i < len(names):
            raise IndexError(f"Model.{self._field}[{i!r}]: expected a body index "
                             f"1..{len(names) - 1} (entry 0 is the ground)")
        check = _placement if self._field == "placements" else _inertia
        list.__setitem__(self, int(i), check(names[i], value))
        edited(self._model)

    def __reduce__(self):
        return _BodyParameters, (list(self), self._model, self._field)


def _armature(value, n, name="armature"):
    """A validated armature: ``n`` finite numbers >= 0 (a scalar is broadcast),
    stored read-only."""
    a = _checks.array(name, value, ())
    if a.ndim == 0:
        a = np.full(n, a)
    if a.shape != (n,) or a.dtype.kind not in "iuf":
        raise ValueError(f"argument '{name}': expected {n} real numbers (one per "
                         f"degree of freedom), got shape {a.shape}, dtype "
                         f"{a.dtype}")
    _checks.finite(name, a)
    if np.any(a < 0):
        raise ValueError(f"argument '{name}': expected values >= 0 (a rotor "
                         f"inertia), got {a.tolist()}")
    return frozen(a.astype(float))


def _placement(body, X):
    """A validated (4, 4) placement of the joint of ``body``, stored read-only."""
    if X is None:
        return frozen(np.eye(4))
    try:
        X = _checks.transform("placement", X)
    except (TypeError, ValueError) as err:
        raise type(err)(f"body {body!r}: {err}") from None
    return frozen(np.array(X, dtype=np.result_type(X, float)))


def _inertia(body, I):
    """A validated (6, 6) inertia (exact zero: a massless body), stored
    read-only."""
    if I is None:
        return frozen(np.zeros((6, 6)))
    try:
        I = _checks.array("inertia", I, (6, 6))
        if I.shape != (6, 6):
            raise ValueError("argument 'inertia': expected "
                             f"shape (6, 6), got {I.shape}")
        if I.dtype == object or np.any(I):
            check_inertia(I, name="inertia")
    except (TypeError, ValueError) as err:
        raise type(err)(f"body {body!r}: {err}") from None
    return frozen(np.array(I, dtype=np.result_type(I, float)))


class Model:
    """A kinematic tree with joints, placements, inertias, names and gravity.

    Parameters
    ----------
    gravity : (3,) array
        in the ground frame; it enters as the ground acceleration ``dV_0 = (0, -g)``
        (Kim (2012), footnote 6)
    name : str

    Attributes
    ----------
    parent : list of int, length N+1 (``parent[0] = -1``)
    joints, names : lists of length N+1, entry 0 for the ground
    placements, inertias : lists of length N+1 of read-only arrays
        ``model.inertias[i] = I`` (``i >= 1``) replaces one, validated
    nq, nv : int, sizes of the configuration and velocity vectors
    armature : (nv,) read-only array, default zeros
        rotor inertia per degree of freedom; ``model.armature = a`` (``nv``
        numbers >= 0, or one for all) replaces it, validated
    q_slice, v_slice : lists of slices into ``q`` and ``dq`` per body
    chart_bodies : tuple of int
        the bodies whose joint has a chart with a singular set
        (``joint.chart_singular``), in order
    flat_model : tuple or None
        the model flattened for the compiled engine, cached by
        ``liedyn.engine.dispatch.flat_model`` on first use: its arrays, or ``()``
        if the engine cannot run this model; ``None`` until then, and again after
        every edit (``liedyn.model.edited``)

    Examples
    --------
    >>> from liedyn.joints import Revolute
    >>> from liedyn.inertia import spatial_inertia
    >>> m = Model()
    >>> m.add_body("link", parent=0, joint=Revolute([0, 0, 1]),
    ...            inertia=spatial_inertia(1.0, [1.0, 0, 0], np.zeros((3, 3))))
    1
    >>> m.nbodies, m.nq, m.nv
    (1, 1, 1)
    """

    # set by __init__ and add_body (object.__setattr__: the tree is read-only); the
    # entries 0 are the ground's (its joint None)
    parent: list[int]
    joints: list[Joint]
    names: list[str]
    children: list[list[int]]
    q_slice: list[slice]
    v_slice: list[slice]
    placements: list[Array]
    inertias: list[Array]
    nq: int
    nv: int
    armature: Array
    gravity: Array
    chart_bodies: tuple[int, ...]
    _group_joints: tuple[int, ...]
    flat_model: tuple | None

    def __init__(self, gravity: ArrayLike = (0.0, 0.0, -9.81),
                 name: str = "model") -> None:
        if not isinstance(name, str):
            raise TypeError("argument 'name': expected a string, got "
                            f"{type(name).__name__}")
        # an array once __setattr__ has validated it
        self.gravity = gravity                          # type: ignore[assignment]
        self.name = name
        fields = dict(parent=[-1], joints=[None], names=["ground"],
                      children=[_ReadOnly([])], q_slice=[slice(0, 0)],
                      v_slice=[slice(0, 0)])
        for key, value in fields.items():
            object.__setattr__(self, key, _ReadOnly(value, key))
        object.__setattr__(
            self, "placements",
            _BodyParameters([frozen(np.eye(4))], self, "placements"))
        object.__setattr__(
            self, "inertias",
            _BodyParameters([frozen(np.zeros((6, 6)))], self, "inertias"))
        object.__setattr__(self, "nq", 0)
        object.__setattr__(self, "nv", 0)
        object.__setattr__(self, "armature", frozen(np.zeros(0)))
        object.__setattr__(self, "chart_bodies", ())
        object.__setattr__(self, "_group_joints", ())
        object.__setattr__(self, "flat_model", None)

    def __setattr__(self, key, value):
        """The tree is read-only; ``gravity`` is validated on assignment."""
        if key in _TOPOLOGY and key in self.__dict__:
            raise AttributeError(f"Model.{key} is read-only: the tree (parents, "
                                 "joints, names, index maps) is fixed by add_body; "
                                 "build a new Model to change it (inertias and "
                                 "placements can be assigned per body)")
        if key == "gravity":
            g = _checks.array("gravity", value, (3,))
            if g.shape != (3,) or g.dtype.kind == "c":
                raise ValueError("argument 'gravity': expected a real 3-vector, "
                                 f"got shape {g.shape}, dtype {g.dtype}")
            value = frozen(g.astype(float))
        if key == "armature":
            value = _armature(value, self.nv)
        object.__setattr__(self, key, value)
        if key in ("gravity", "armature"):
            edited(self)

    def __repr__(self):
        return (f"Model({self.name!r}: {self.nbodies} bodies, nq={self.nq}, "
                f"nv={self.nv}, gravity={self.gravity.tolist()})")

    @property
    def nbodies(self) -> int:
        """The number of bodies N (the ground not counted)."""
        return len(self.names) - 1

    def body(self, name: int | str) -> int:
        """The index of the body called ``name`` (``"ground"`` is 0)."""
        if isinstance(name, (bool, np.bool_)):
            raise TypeError(f"unknown body {name!r}: expected a body index or "
                            "name, not a bool")
        if isinstance(name, (int, np.integer)):
            if not 0 <= name <= self.nbodies:
                raise ValueError(f"unknown body index {name}: the model has bodies "
                                 f"0..{self.nbodies}")
            return int(name)
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"unknown body {name!r}; bodies are "
                             f"{self.names}") from None

    def add_body(self, name: str, parent: int | str, joint: Joint,
                 placement: ArrayLike | None = None,
                 inertia: ArrayLike | None = None,
                 armature: ArrayLike = 0.0) -> int:
        """Add a body hanging from ``parent`` through ``joint``; return its index.

        Parameters
        ----------
        name : str, unique
        parent : int or str, an existing body (0 or "ground" for the ground)
        joint : liedyn.joints.Joint
        placement : (4, 4) array, optional
            ``X_i``: the joint frame in the parent's body frame (default identity)
        inertia : (6, 6) array, optional
            generalized inertia in the body frame (Kim (2012), eq. (20)); default
            zero, a massless body
        armature : float or (joint.nv,) array, optional
            rotor inertia of the joint's degrees of freedom (default 0)

        A ``ValueError`` naming the body refuses a duplicate name, an unknown
        parent, a placement not in SE(3) or a non-physical inertia.
        """
        if not isinstance(name, str) or not name:
            raise ValueError("argument 'name': expected a non-empty string (the "
                             f"body name), got {name!r}")
        if name in self.names:
            raise ValueError(f"body {name!r}: duplicate name (bodies are "
                             f"{self.names})")
        if isinstance(parent, (bool, np.bool_)) or not isinstance(
            parent, (str, int, np.integer)):
            raise TypeError(f"body {name!r}: argument 'parent': expected a body "
                            f"index or name, got {parent!r} (type "
                            f"{type(parent).__name__})")
        try:
            p = self.body(parent)
        except ValueError as err:
            raise ValueError(f"body {name!r}: argument 'parent' must be an "
                             "existing body added earlier "
                             f"(topological order); {err}") from None
        if not isinstance(joint, Joint):
            raise TypeError(f"body {name!r}: joint must be a liedyn.joints.Joint "
                            f"(argument 'joint'), got {type(joint).__name__}")
        X = _placement(name, placement)
        I = _inertia(name, inertia)
        try:
            arm = _armature(armature, joint.nv)
        except (TypeError, ValueError) as err:
            raise type(err)(f"body {name!r}: {err}") from None
        i = len(self.names)
        if name not in joint.bodies:
            joint.bodies = joint.bodies + (name,)
        for key, value in (("names", name), ("parent", p),
                           ("children", _ReadOnly([])), ("joints", joint),
                           ("q_slice", slice(self.nq, self.nq + joint.nq)),
                           ("v_slice", slice(self.nv, self.nv + joint.nv))):
            list.append(self.__dict__[key], value)
        list.append(self.children[p], i)
        list.append(self.placements, X)
        list.append(self.inertias, I)
        object.__setattr__(self, "nq", self.nq + joint.nq)
        object.__setattr__(self, "nv", self.nv + joint.nv)
        object.__setattr__(self, "armature",
                           frozen(np.concatenate([self.armature, arm])))
        edited(self)
        if joint.chart_singular:
            object.__setattr__(self, "chart_bodies", self.chart_bodies + (i,))
        if type(joint).check_q is not Joint.check_q:       # quaternions
            object.__setattr__(self, "_group_joints", self._group_joints + (i,))
        return i

    def set_inertia_unchecked(self, i: int, I: ArrayLike) -> None:
        """Store body ``i``'s inertia (6, 6) without the physical checks of
        :func:`liedyn.inertia.check_inertia` (the loaders keep a file's inconsistent
        inertias this way when asked to warn or ignore).

        >>> from liedyn.robots import pendulum
        >>> model = pendulum()
        >>> model.set_inertia_unchecked(1, -np.eye(6))
        >>> float(model.inertias[1][0, 0])
        -1.0
        """
        I = _checks.array("inertia", I, (6, 6))
        list.__setitem__(self.inertias, i, frozen(np.array(I, dtype=float)))
        edited(self)

    def rotor(self, i: int) -> Array:
        """``diag(armature)`` (n_i, n_i) of joint ``i``: the rotor inertia that adds
        to ``M_ii`` and to ``D_i = S_i^T I_hat_i S_i`` of the articulated-body
        algorithm (and ``armature * ddq`` to ``tau``).

        >>> from liedyn.robots import double_pendulum
        >>> model = double_pendulum()
        >>> model.armature = [0.1, 0.2]
        >>> model.rotor(2).tolist()
        [[0.2]]

        Without a rotor, integer zeros: they leave exact (sympy) numbers exact,
        where a float ``0.0`` would make them floats.
        """
        armature = self.armature[self.v_slice[i]]
        if not np.any(armature):
            return np.zeros((armature.size,) * 2, dtype=int)
        return np.diag(armature)

    # --- tree queries -------------------------------------------------------------
    def support(self, i: int) -> list[int]:
        """Bodies from the ground to body ``i`` (ascending, ``i`` included, 0
        not)."""
        path = []
        while i > 0:
            path.append(i)
            i = self.parent[i]
        return path[::-1]

    def subtree(self, i: int) -> list[int]:
        """Body ``i`` and all its descendants (ascending)."""
        return [k for k in range(1, self.nbodies + 1) if i in self.support(k)]

    # --- configurations -----------------------------------------------------------
    def neutral_configuration(self) -> Array:
        """Every joint at its neutral (identity) motion, shape (nq,)."""
        return np.concatenate(
            [np.zeros(0)] + [j.neutral() for j in self.joints[1:]])

    def random_configuration(self, rng: np.random.Generator) -> Array:
        """A random configuration (nq,) drawn with the numpy Generator ``rng``."""
        if not isinstance(rng, np.random.Generator):
            raise TypeError("argument 'rng': expected a numpy Generator "
                            "(numpy.random.default_rng(seed)), got "
                            f"{type(rng).__name__}")
        return np.concatenate(
            [np.zeros(0)] + [j.random(rng) for j in self.joints[1:]])

    def integrate(self, q: ArrayLike, v: ArrayLike, dt: float = 1.0,
                  normalize: bool = True) -> Array:
        """Move ``q`` with velocity ``v`` for time ``dt`` on the configuration
        manifold.

        Vector-space joints add ``v dt``, spherical and free joints compose
        ``q exp(v dt)``; exponential coordinates are kept in ``|phi| <= pi``
        (:meth:`normalize`), away from the chart's singular sphere.

        Parameters
        ----------
        q : (..., nq) array
        v : (..., nv) array
        dt : float (or complex, for complex-step derivatives)
        normalize : bool, ``False`` keeps the chart (as inside an integrator step)

        Returns
        -------
        q_next : (..., nq) array

        Examples
        --------
        >>> from liedyn.joints import SphericalExp
        >>> m = Model()
        >>> _ = m.add_body("ball", 0, SphericalExp())
        >>> m.integrate([3.0, 0.0, 0.0], [1.0, 0.0, 0.0])  # 4 rad = -(2 pi - 4) rad
        array([-2.28318531,  0.        ,  0.        ])
        """
        q, v = self.check_q(q), self.check_v(v, "v")
        dt = _checks.array("dt", dt, ())
        q, v = _broadcast(q=q, v=v)
        out = [j._integrate(q[..., self.q_slice[i]], v[..., self.v_slice[i]], dt)
               for i, j in enumerate(self.joints) if i > 0]
        q1 = np.concatenate([np.zeros(q.shape[:-1] + (0,), dtype=q.dtype)] + out,
                            axis=-1)
        if not _checks.all_finite(q1):
            raise _checks.overflow("Model.integrate", q=q, v=v, dt=dt)
        return self.normalize(q1) if normalize and self.chart_bodies else q1

    @overload
    def normalize(self, q: ArrayLike, dq: None = None) -> Array: ...
    @overload
    def normalize(self, q: ArrayLike, dq: ArrayLike) -> tuple[Array, Array]: ...

    def normalize(self, q: ArrayLike,
                  dq: ArrayLike | None = None) -> Array | tuple[Array, Array]:
        """``q`` (..., nq) in each joint's preferred chart, and ``dq`` (..., nv)
        carried along: exponential coordinates with ``|phi| > pi`` become the same
        rotation with ``|phi| <= pi``. Returns ``q``, or ``(q, dq)`` when ``dq`` is
        given.
        """
        q = np.array(self.check_q(q))
        if dq is not None:
            q, dq = _broadcast(q=q, dq=self.check_v(dq))
            q, dq = np.array(q), np.array(dq, dtype=np.result_type(q, dq))
        for i in self.chart_bodies:
            qi, vi = self.q_slice[i], self.v_slice[i]
            new = self.joints[i]._normalize(q[..., qi],
                                            None if dq is None else dq[..., vi])
            if dq is None:
                q[..., qi] = new
            else:
                q[..., qi], dq[..., vi] = new
        return q if dq is None else (q, dq)

    def difference(self, q0: ArrayLike, q1: ArrayLike) -> Array:
        """The velocity ``v`` (..., nv) with ``integrate(q0, v) == q1``; for
        exponential coordinates, the shortest.
        """
        q0, q1 = _broadcast(q0=self.check_q(q0, "q0"), q1=self.check_q(q1, "q1"))
        out = [j._difference(q0[..., self.q_slice[i]], q1[..., self.q_slice[i]])
               for i, j in enumerate(self.joints) if i > 0]
        return np.concatenate(
            [np.zeros(q0.shape[:-1] + (0,), dtype=q0.dtype)] + out, axis=-1)

    def check_chart(self, q: Array, name: str = "q",
                    bodies: Array | None = None) -> Array:
        """Raise :class:`ChartSingularityError` if a joint's coordinates are within
        :data:`liedyn.joint.CHART_TOL` of their singular set; ``bodies`` (a boolean
        per body ``0..N``) restricts the check. For the algorithms that invert
        ``S``.
        """
        for i in self.chart_bodies:
            if bodies is not None and not bodies[i]:
                continue
            joint = self.joints[i]
            d = joint._chart_distance(q[..., self.q_slice[i]])
            if d.dtype != object and np.any(d.real < CHART_TOL):
                at = np.unravel_index(np.argmin(d.real), d.shape) if d.ndim else ()
                raise _checks.ChartSingularityError(
                    f"argument '{name}': the {type(joint).__name__} joint of body "
                    f"{self.names[i]!r} is {float(np.min(d.real)):.3g} from its "
                    f"singular set ({joint.singular_set}; tolerance CHART_TOL = "
                    f"{CHART_TOL:g})"
                    + (f" at batch index {tuple(int(k) for k in at)}" if at else "")
                    + f"; {joint.remedy}")
        return q

    # --- validation ---------------------------------------------------------------
    def check_q(self, q: ArrayLike, name: str = "q") -> Array:
        """Validate a configuration: shape (..., nq), finite, unit quaternions."""
        q = _checks.array(name, q, (self.nq,))
        for i in self._group_joints:
            self.joints[i]._check_q(q[..., self.q_slice[i]],
                                    f"{name} (joint of body {self.names[i]!r})")
        return q

    def check_v(self, v: ArrayLike, name: str = "dq") -> Array:
        """Validate a velocity-like vector: shape (..., nv), finite."""
        return _checks.array(name, v, (self.nv,))

    def check_f_ext(self, f_ext: ArrayLike | None, name: str = "f_ext") -> Array:
        """Validate external wrenches: shape (..., N, 6), finite."""
        return _checks.array(name, f_ext, (self.nbodies, 6))


def _broadcast(**arrays):
    """Broadcast the batch dimensions of named arrays with different trailing shapes
    (a ``ValueError`` names them when they do not broadcast)."""
    batch = _checks.batch_shape({k: a.shape[:-1] for k, a in arrays.items()})
    return [np.broadcast_to(a, batch + a.shape[-1:]) for a in arrays.values()]


def state(model, q, *vectors, f_ext=None, names=("dq", "ddq")):
    """Validate ``q``, velocity-like ``vectors`` and ``f_ext`` and broadcast their
    batches: ``(batch_shape, dtype, q, vectors..., f_ext)``, ``f_ext`` zero when
    ``None``.
    """
    q = model.check_q(q)
    # names: for up to two vectors (dq, ddq), as many as given
    vectors = [model.check_v(v, n) for v, n in zip(vectors, names, strict=False)]
    arrays = [q] + vectors
    shapes = {"q": q.shape[:-1]}
    shapes.update((n, v.shape[:-1]) for v, n in zip(vectors, names, strict=False))
    if f_ext is not None:
        f_ext = model.check_f_ext(f_ext)
        arrays.append(f_ext[..., 0])      # (..., N): also fine for N = 0
        shapes["f_ext"] = f_ext.shape[:-2]
    batch = _checks.batch_shape(shapes)
    dtype = np.result_type(float, *[a.dtype for a in arrays])
    if f_ext is None:                                 # (integer zeros for sympy)
        f_ext = np.zeros(batch + (model.nbodies, 6),
                         dtype=object if dtype == object else float)
    q = np.broadcast_to(q, batch + (model.nq,))
    vectors = [np.broadcast_to(v, batch + (model.nv,)) for v in vectors]
    f_ext = np.broadcast_to(f_ext, batch + (model.nbodies, 6))
    return (batch, dtype, q, *vectors, f_ext)
