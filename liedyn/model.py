"""Multibody models: a tree of rigid bodies connected by joints.

Bodies are numbered ``1..N`` in topological order (``parent[i] < i``); index ``0`` is the
ground (Kim (2012), Section 2.1: ``lambda(i)`` is the parent, ``mu(i)`` the children). Body
``i`` hangs from ``parent[i]`` through ``T_{lambda(i),i}(q_i) = X_i J_i(q_i)``: the constant
placement ``X_i`` of the joint frame in the parent's body frame, times the joint motion
(:mod:`liedyn.joints`). The body frame ``{i}`` is the joint's child frame; the generalized
inertia ``I_i`` (Kim eq. (20)) is expressed in ``{i}``.

A :class:`Model` is built once with :meth:`Model.add_body`, which validates as it goes, and is
then only read by the algorithms (pure functions ``f(model, q, ...)``).

Derived in :ref:`sec-multibody-models`.
"""
import numpy as np

from . import _checks
from .inertia import check_inertia
from .joints import Joint

__all__ = ["Model"]


class Model:
    """A kinematic tree with joints, placements, inertias, names and gravity.

    Parameters
    ----------
    gravity : (3,) array
        gravity acceleration in the ground frame; enters the algorithms as the ground
        acceleration ``dV_0 = (0, -g)`` (Kim (2012), footnote 6).
    name : str

    Attributes
    ----------
    parent : list of int, length N+1 (``parent[0] = -1``)
    joints, placements, inertias, names : lists of length N+1 (entry 0 is the ground)
    nq, nv : int, sizes of the configuration and velocity vectors
    q_slice, v_slice : lists of slices into ``q`` and ``dq`` per body

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

    def __init__(self, gravity=(0.0, 0.0, -9.81), name="model"):
        self.gravity = _checks.array("gravity", gravity, (3,)).astype(float).reshape(3)
        self.name = name
        self.parent = [-1]
        self.joints = [None]
        self.placements = [np.eye(4)]
        self.inertias = [np.zeros((6, 6))]
        self.names = ["ground"]
        self.children = [[]]
        self.q_slice = [slice(0, 0)]
        self.v_slice = [slice(0, 0)]
        self.nq = self.nv = 0

    def __repr__(self):
        return (f"Model({self.name!r}: {self.nbodies} bodies, nq={self.nq}, nv={self.nv}, "
                f"gravity={self.gravity.tolist()})")

    @property
    def nbodies(self):
        """The number of bodies N (the ground not counted)."""
        return len(self.names) - 1

    def body(self, name):
        """The index of the body called ``name`` (``"ground"`` is 0)."""
        if isinstance(name, (int, np.integer)):
            if not 0 <= name <= self.nbodies:
                raise ValueError(f"unknown body index {name}: the model has bodies 0..{self.nbodies}")
            return int(name)
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"unknown body {name!r}; bodies are {self.names}") from None

    def add_body(self, name, parent, joint, placement=None, inertia=None):
        """Add a body hanging from ``parent`` through ``joint``; return its index.

        Parameters
        ----------
        name : str, unique
        parent : int or str, an existing body (0 or "ground" for the ground)
        joint : liedyn.joints.Joint
        placement : (4, 4) array, optional
            ``X_i``: the joint frame in the parent's body frame (default identity)
        inertia : (6, 6) array, optional
            generalized inertia in the body frame (Kim (2012), eq. (20)); default zero (a
            massless body: allowed, but a massless leaf makes forward dynamics singular)

        Raises
        ------
        ValueError
            for a duplicate name, an unknown parent, a placement that is not in SE(3), or a
            non-physical inertia; the message names the body.
        """
        if not isinstance(name, str) or not name:
            raise ValueError(f"body name must be a non-empty string, got {name!r}")
        if name in self.names:
            raise ValueError(f"body {name!r}: duplicate name (bodies are {self.names})")
        try:
            p = self.body(parent)
        except ValueError as err:
            raise ValueError(f"body {name!r}: parent must be an existing body added earlier "
                             f"(topological order); {err}") from None
        if not isinstance(joint, Joint):
            raise TypeError(f"body {name!r}: joint must be a liedyn.joints.Joint, got "
                            f"{type(joint).__name__}")
        X = np.eye(4) if placement is None else placement
        try:
            X = _checks.homogeneous("placement", X).astype(float)
            if X.shape != (4, 4):
                raise ValueError(f"argument 'placement': expected shape (4, 4), got {X.shape}")
        except ValueError as err:
            raise ValueError(f"body {name!r}: {err}") from None
        I = np.zeros((6, 6)) if inertia is None else np.asarray(inertia, dtype=float)
        if inertia is not None:
            try:
                if I.shape != (6, 6):
                    raise ValueError(f"argument 'inertia': expected shape (6, 6), got {I.shape}")
                check_inertia(I, name="inertia")
            except ValueError as err:
                raise ValueError(f"body {name!r}: {err}") from None
        i = len(self.names)
        self.names.append(name)
        self.parent.append(p)
        self.children.append([])
        self.children[p].append(i)
        self.joints.append(joint)
        self.placements.append(X)
        self.inertias.append(I)
        self.q_slice.append(slice(self.nq, self.nq + joint.nq))
        self.v_slice.append(slice(self.nv, self.nv + joint.nv))
        self.nq += joint.nq
        self.nv += joint.nv
        return i

    # --- tree queries --------------------------------------------------------------------
    def support(self, i):
        """Bodies on the path from the ground to body ``i`` (ascending, ``i`` included, 0 not)."""
        path = []
        while i > 0:
            path.append(i)
            i = self.parent[i]
        return path[::-1]

    def subtree(self, i):
        """Body ``i`` and all its descendants (ascending)."""
        return [k for k in range(1, self.nbodies + 1) if i in self.support(k)]

    # --- configurations ------------------------------------------------------------------
    def neutral_configuration(self):
        """The configuration with every joint at its neutral (identity) motion, shape (nq,)."""
        return np.concatenate([np.zeros(0)] + [j.neutral() for j in self.joints[1:]])

    def random_configuration(self, rng):
        """A random configuration drawn with the numpy Generator ``rng``, shape (nq,)."""
        return np.concatenate([np.zeros(0)] + [j.random(rng) for j in self.joints[1:]])

    def integrate(self, q, v, dt=1.0):
        """Move ``q`` with velocity ``v`` for time ``dt`` on the configuration manifold.

        Vector-space joints add ``v dt``; spherical and free joints compose ``q exp(v dt)``.

        Parameters
        ----------
        q : (..., nq) array
        v : (..., nv) array
        dt : float

        Returns
        -------
        q_next : (..., nq) array
        """
        q, v = self.check_q(q), self.check_v(v, "v")
        q, v = _broadcast(q, v)
        out = [j.integrate(q[..., self.q_slice[i]], v[..., self.v_slice[i]], dt)
               for i, j in enumerate(self.joints) if i > 0]
        return np.concatenate([np.zeros(q.shape[:-1] + (0,), dtype=q.dtype)] + out, axis=-1)

    def difference(self, q0, q1):
        """The velocity ``v`` with ``integrate(q0, v) == q1`` (per joint), shape (..., nv)."""
        q0, q1 = _broadcast(self.check_q(q0, "q0"), self.check_q(q1, "q1"))
        out = [j.difference(q0[..., self.q_slice[i]], q1[..., self.q_slice[i]])
               for i, j in enumerate(self.joints) if i > 0]
        return np.concatenate([np.zeros(q0.shape[:-1] + (0,), dtype=q0.dtype)] + out, axis=-1)

    # --- validation ----------------------------------------------------------------------
    def check_q(self, q, name="q"):
        """Validate a configuration: shape (..., nq), finite, unit quaternions."""
        q = _checks.array(name, q, (self.nq,))
        for i, j in enumerate(self.joints):
            if i > 0:
                j.check_q(q[..., self.q_slice[i]], f"{name} (joint of body {self.names[i]!r})")
        return q

    def check_v(self, v, name="dq"):
        """Validate a velocity-like vector: shape (..., nv), finite."""
        return _checks.array(name, v, (self.nv,))

    def check_f_ext(self, f_ext, name="f_ext"):
        """Validate external wrenches: shape (..., N, 6), finite."""
        return _checks.array(name, f_ext, (self.nbodies, 6))


def _broadcast(*arrays):
    """Broadcast the leading (batch) dimensions of arrays with different trailing shapes."""
    batch = np.broadcast_shapes(*[a.shape[:-1] for a in arrays])
    return [np.broadcast_to(a, batch + a.shape[-1:]) for a in arrays]


def state(model, q, *vectors, f_ext=None, names=("dq", "ddq")):
    """Validate ``q`` and velocity-like ``vectors`` (and ``f_ext``) and broadcast their batches.

    Returns ``(batch_shape, dtype, q, vectors..., f_ext)`` with ``f_ext`` zero when ``None``.
    Used at the entry of every algorithm.
    """
    q = model.check_q(q)
    vectors = [model.check_v(v, n) for v, n in zip(vectors, names)]
    arrays = [q] + vectors
    if f_ext is not None:
        f_ext = model.check_f_ext(f_ext)
        arrays.append(f_ext[..., 0])      # (..., N): also fine for N = 0
    batch = np.broadcast_shapes(*[a.shape[:-1] for a in arrays])
    dtype = np.result_type(float, *[a.dtype for a in arrays])
    if f_ext is None:
        f_ext = np.zeros(batch + (model.nbodies, 6))
    q = np.broadcast_to(q, batch + (model.nq,))
    vectors = [np.broadcast_to(v, batch + (model.nv,)) for v in vectors]
    f_ext = np.broadcast_to(f_ext, batch + (model.nbodies, 6))
    return (batch, dtype, q, *vectors, f_ext)
