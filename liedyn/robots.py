"""Ready-made models: pendulums, planar arms, the 2-link arm of the RNEA notes, chains, random trees.

Every builder returns a fresh :class:`~liedyn.model.Model`. Planar models move in the x-y plane
of the ground frame with gravity along -y (so the plane is vertical).

Derived in :ref:`sec-multibody-models`.
"""
import numpy as np

from . import joints as J
from .inertia import spatial_inertia
from .lie import exp_so3, make_transform
from .model import Model

__all__ = ["pendulum", "double_pendulum", "planar_arm", "two_link_arm", "serial_chain",
           "random_tree", "JOINT_TYPES"]


def _translation(x, y=0.0, z=0.0):
    return make_transform(np.eye(3), [x, y, z])


def _point_mass(mass, position):
    return spatial_inertia(mass, position, np.zeros((3, 3)))


def pendulum(mass=1.0, length=1.0, gravity=9.81):
    """A point mass on a massless rod, hinged about z at the origin; ``q = 0`` hangs down (-y).

    Equation of motion: ``m l^2 ddq + m g l sin(q) = tau``.

    Examples
    --------
    >>> model = pendulum(mass=2.0, length=0.5)
    >>> model.nq, float(model.inertias[1][3, 3])
    (1, 2.0)
    """
    model = Model(gravity=(0.0, -gravity, 0.0), name="pendulum")
    model.add_body("bob", 0, J.Revolute([0, 0, 1]), inertia=_point_mass(mass, [0, -length, 0]))
    return model


def double_pendulum(masses=(1.0, 1.0), lengths=(1.0, 1.0), gravity=9.81):
    """Two point masses on massless rods, hinged about z; ``q = 0`` hangs straight down.

    Examples
    --------
    >>> double_pendulum().nv
    2
    """
    (m1, m2), (l1, l2) = masses, lengths
    model = Model(gravity=(0.0, -gravity, 0.0), name="double pendulum")
    model.add_body("bob1", 0, J.Revolute([0, 0, 1]), inertia=_point_mass(m1, [0, -l1, 0]))
    model.add_body("bob2", 1, J.Revolute([0, 0, 1]), placement=_translation(0, -l1),
                   inertia=_point_mass(m2, [0, -l2, 0]))
    return model


def planar_arm(n, length=1.0, mass=1.0, gravity=9.81):
    """``n`` uniform thin links along x, revolute about z; ``q = 0`` is stretched along +x.

    Each link has mass ``mass``, length ``length``, its centre of mass at ``length/2`` and
    inertia ``m l^2 / 12`` about the axes perpendicular to it.

    Examples
    --------
    >>> planar_arm(3).nbodies
    3
    """
    if int(n) != n or n < 1:
        raise ValueError(f"argument 'n': expected a positive integer, got {n!r}")
    model = Model(gravity=(0.0, -gravity, 0.0), name=f"planar {n}R arm")
    I_com = np.diag([0.0, 1.0, 1.0]) * mass * length ** 2 / 12
    for i in range(1, int(n) + 1):
        model.add_body(f"link{i}", i - 1, J.Revolute([0, 0, 1]),
                       placement=None if i == 1 else _translation(length),
                       inertia=spatial_inertia(mass, [length / 2, 0, 0], I_com))
    return model


def two_link_arm(masses=(1.0, 1.0), lengths=(1.0, 1.0), inertias=None, gravity=9.81):
    """The 2-link planar arm of the RNEA notes, with body frames at the links' centres of mass.

    Joint ``i`` is a :class:`~liedyn.joints.Screw` with body-frame screw axis
    ``A_i = (z, b_i)``, ``b_i = (0, L_i/2, 0)`` (a rotation about z through the point
    ``(-L_i/2, 0, 0)`` of the link frame), and the home transforms are
    ``M_{0,1} = Trans(L_1/2)``, ``M_{1,2} = Trans(L_1/2 + L_2/2)``, as in
    ``T_{i-1,i} = M_{i-1,i} exp([A_i] theta_i)``. The generalized inertias are diagonal:
    ``diag(0, I_i, I_i, m_i, m_i, m_i)`` (a thin rod along x; only ``I_i`` about z matters in
    the plane) with ``I_i = m_i L_i^2 / 12`` by default.

    Examples
    --------
    >>> model = two_link_arm()
    >>> model.joints[1]
    Screw(screw=[0.0, 0.0, 1.0, 0.0, 0.5, 0.0])
    """
    (m1, m2), (L1, L2) = masses, lengths
    I1, I2 = inertias if inertias is not None else (m1 * L1 ** 2 / 12, m2 * L2 ** 2 / 12)
    model = Model(gravity=(0.0, -gravity, 0.0), name="2-link arm (RNEA notes)")
    for i, (m, L, Iz, M) in enumerate([(m1, L1, I1, L1 / 2), (m2, L2, I2, L1 / 2 + L2 / 2)], 1):
        model.add_body(f"link{i}", i - 1, J.Screw([0, 0, 1, 0, L / 2, 0]),
                       placement=_translation(M),
                       inertia=spatial_inertia(m, np.zeros(3), np.diag([0.0, Iz, Iz])))
    return model


def serial_chain(n, joint="revolute", length=0.5, mass=1.0, gravity=9.81):
    """A spatial chain of ``n`` identical links along x with joint axes alternating z, y, x.

    ``joint`` names the joint type of every link: one of :data:`JOINT_TYPES`.

    Examples
    --------
    >>> serial_chain(4, joint="spherical").nq
    16
    """
    if int(n) != n or n < 1:
        raise ValueError(f"argument 'n': expected a positive integer, got {n!r}")
    model = Model(gravity=(0.0, 0.0, -gravity), name=f"{n}-link {joint} chain")
    axes = np.eye(3)[[2, 1, 0]]
    I_com = np.diag([0.02, 1.0, 1.0]) * mass * length ** 2 / 12
    for i in range(1, int(n) + 1):
        model.add_body(f"link{i}", i - 1, _make_joint(joint, axes[(i - 1) % 3], 0.1),
                       placement=None if i == 1 else _translation(length),
                       inertia=spatial_inertia(mass, [length / 2, 0, 0], I_com))
    return model


JOINT_TYPES = ("revolute", "prismatic", "helical", "screw", "universal", "planar", "spherical",
               "spherical_zyx", "spherical_exp", "free", "fixed")
"""Names accepted by :func:`serial_chain` and :func:`random_tree`."""


def _make_joint(kind, axis, pitch, axis2=None):
    if kind == "revolute":
        return J.Revolute(axis)
    if kind == "prismatic":
        return J.Prismatic(axis)
    if kind == "helical":
        return J.Helical(axis, pitch)
    if kind == "screw":
        return J.Screw(np.concatenate([axis, np.cross(axis, [0.1, 0.2, 0.3]) + pitch * axis]))
    if kind == "universal":
        axis2 = np.cross(axis, [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0])
        return J.Universal(axis, axis2)
    if kind == "planar":
        return J.Planar()
    if kind == "spherical":
        return J.Spherical()
    if kind == "spherical_zyx":
        return J.SphericalZYX()
    if kind == "spherical_exp":
        return J.SphericalExp()
    if kind == "free":
        return J.Free()
    if kind == "fixed":
        return J.Fixed()
    raise ValueError(f"argument 'joint': expected one of {list(JOINT_TYPES)}, got {kind!r}")


def _random_inertia(rng):
    """A physically valid generalized inertia: random mass, COM and principal moments."""
    mass = rng.uniform(0.5, 2.0)
    d = rng.uniform(0.01, 0.1, 3) * mass                 # second moments of the mass distribution
    principal = np.array([d[1] + d[2], d[0] + d[2], d[0] + d[1]])  # triangle inequality holds
    R = exp_so3(rng.normal(size=3))
    return spatial_inertia(mass, rng.normal(scale=0.2, size=3), R @ np.diag(principal) @ R.T)


def random_tree(n_bodies, rng, joint_types=None, branching=0.5, gravity=9.81):
    """A random kinematic tree for testing: random parents, placements, axes and inertias.

    Parameters
    ----------
    n_bodies : int
    rng : numpy.random.Generator
    joint_types : sequence of str, optional
        joint kinds to draw from (:data:`JOINT_TYPES`); default: all but ``"fixed"``
    branching : float in [0, 1]
        probability that a body hangs from a random earlier body instead of the last one
    gravity : float

    Returns
    -------
    Model

    Examples
    --------
    >>> model = random_tree(6, np.random.default_rng(0))
    >>> model.nbodies, all(model.parent[i] < i for i in range(1, 7))
    (6, True)
    """
    kinds = [k for k in JOINT_TYPES if k != "fixed"] if joint_types is None else list(joint_types)
    for k in kinds:
        _make_joint(k, np.array([0.0, 0.0, 1.0]), 0.0)     # validates the names
    model = Model(gravity=(0.0, 0.0, -gravity), name=f"random tree ({n_bodies} bodies)")
    for i in range(1, int(n_bodies) + 1):
        parent = int(rng.integers(0, i)) if rng.uniform() < branching else i - 1
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        placement = make_transform(exp_so3(rng.normal(size=3)), rng.normal(scale=0.5, size=3))
        kind = kinds[int(rng.integers(len(kinds)))]
        model.add_body(f"body{i}", parent, _make_joint(kind, axis, rng.uniform(-0.2, 0.2)),
                       placement=placement, inertia=_random_inertia(rng))
    return model
