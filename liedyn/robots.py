"""Ready-made models: pendulums, planar arms, the 2-link arm of the RNEA notes,
chains, random trees, closed linkages; derived in :ref:`sec-multibody-models`.

Every builder returns a fresh :class:`~liedyn.model.Model`; planar models move in
the vertical x-y plane, gravity along -y.
"""
import numbers

import numpy as np

from . import _checks
from . import joints as J
from .inertia import spatial_inertia
from .lie import exp_so3, make_transform
from .model import Model

__all__ = ["load", "pendulum", "double_pendulum", "planar_arm", "two_link_arm",
           "serial_chain", "random_tree", "JOINT_TYPES", "four_bar", "five_bar",
           "spatial_four_bar", "rolling_disk"]


def load(name, floating_base=False, **options):
    """A robot of example-robot-data, e.g. ``"panda"``:
    :func:`liedyn.urdf.load_robot`.

    >>> load("ur5").nv
    6
    """
    from .urdf import load_robot
    return load_robot(name, floating_base=floating_base, **options)


def _translation(x, y=0.0, z=0.0):
    return make_transform(np.eye(3), [x, y, z])


def _count(name, n):
    """``n`` checked as a count of bodies: an integer >= 1 (an integral float too;
    not a bool or a string)."""
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Real):
        raise TypeError(f"argument '{name}': expected a positive integer, got "
                        f"{n!r} (type {type(n).__name__})")
    if not (np.isfinite(n) and int(n) == n and n >= 1):
        raise ValueError(f"argument '{name}': expected a positive integer, got "
                         f"{n!r}")
    return int(n)


def _numbers(name, values, n, what, non_negative=False):
    """``values`` checked as ``n`` finite numbers (floats, complex or sympy
    expressions; ``>= 0`` if ``non_negative``), ``what`` saying what each stands
    for; returned as a tuple."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__len__"):
        raise TypeError(f"argument '{name}': expected a sequence of {n} numbers "
                        f"({what}), got {values!r} (type {type(values).__name__})")
    if len(values) != n:
        raise ValueError(f"argument '{name}': expected {n} numbers ({what}), got "
                         f"{len(values)}: {values!r}")
    x = _checks.array(name, list(values), (n,))
    if non_negative and x.dtype != object and np.any(x.real < 0):
        raise ValueError(f"argument '{name}': expected numbers >= 0 ({what}), got "
                         f"{values!r}")
    return tuple(values)


def _gravity(gravity):
    """``gravity`` checked as one finite number (or a sympy expression)."""
    _checks.array("gravity", gravity, ())
    return gravity


def _point_mass(mass, position):
    return spatial_inertia(mass, position, np.zeros((3, 3)))


def pendulum(mass=1.0, length=1.0, gravity=9.81):
    """A point mass on a massless rod hinged about z; ``q = 0`` hangs down (-y):
    ``m l^2 ddq + m g l sin(q) = tau``.

    >>> model = pendulum(mass=2.0, length=0.5)
    >>> model.nq, float(model.inertias[1][3, 3])
    (1, 2.0)
    """
    gravity = _gravity(gravity)
    model = Model(gravity=(0.0, -gravity, 0.0), name="pendulum")
    model.add_body("bob", 0, J.Revolute([0, 0, 1]),
                   inertia=_point_mass(mass, [0, -length, 0]))
    return model


def double_pendulum(masses=(1.0, 1.0), lengths=(1.0, 1.0), gravity=9.81):
    """Two point masses on massless rods hinged about z; ``q = 0`` hangs straight
    down.

    >>> double_pendulum().nv
    2
    """
    m1, m2 = _numbers("masses", masses, 2, "the two bobs' masses", True)
    l1, l2 = _numbers("lengths", lengths, 2, "the two rods' lengths")
    model = Model(gravity=(0.0, -_gravity(gravity), 0.0), name="double pendulum")
    model.add_body("bob1", 0, J.Revolute([0, 0, 1]),
                   inertia=_point_mass(m1, [0, -l1, 0]))
    model.add_body("bob2", 1, J.Revolute([0, 0, 1]), placement=_translation(0, -l1),
                   inertia=_point_mass(m2, [0, -l2, 0]))
    return model


def planar_arm(n, length=1.0, mass=1.0, gravity=9.81):
    """``n`` uniform thin links (mass, length, inertia ``m l^2 / 12``) revolute
    about z; ``q = 0`` is stretched along +x.

    >>> planar_arm(3).nbodies
    3
    """
    n = _count("n", n)
    model = Model(gravity=(0.0, -_gravity(gravity), 0.0), name=f"planar {n}R arm")
    I_com = np.diag([0.0, 1.0, 1.0]) * mass * length ** 2 / 12
    for i in range(1, int(n) + 1):
        model.add_body(f"link{i}", i - 1, J.Revolute([0, 0, 1]),
                       placement=None if i == 1 else _translation(length),
                       inertia=spatial_inertia(mass, [length / 2, 0, 0], I_com))
    return model


def two_link_arm(masses=(1.0, 1.0), lengths=(1.0, 1.0), inertias=None,
                 gravity=9.81):
    """The 2-link planar arm of the RNEA notes, body frames at the links' centres of
    mass.

    Joint ``i`` is a :class:`~liedyn.joints.Screw` with ``A_i = (z, (0, L_i/2, 0))``
    (about z through ``(-L_i/2, 0, 0)``), home transforms ``M_{0,1} =
    Trans(L_1/2)``, ``M_{1,2} = Trans(L_1/2 + L_2/2)`` in ``T_{i-1,i} = M_{i-1,i}
    exp([A_i] theta_i)``; inertias ``diag(0, I_i, I_i, m_i, m_i, m_i)``, ``I_i = m_i
    L_i^2 / 12`` by default.

    >>> model = two_link_arm()
    >>> model.joints[1]
    Screw(screw=[0.0, 0.0, 1.0, 0.0, 0.5, 0.0])
    """
    m1, m2 = _numbers("masses", masses, 2, "the two links' masses", True)
    L1, L2 = _numbers("lengths", lengths, 2, "the two links' lengths")
    I1, I2 = (
        _numbers("inertias", inertias, 2, "the links' inertias about their centres",
                 True)
        if inertias is not None else (m1 * L1**2 / 12, m2 * L2**2 / 12))
    model = Model(gravity=(0.0, -_gravity(gravity), 0.0),
                  name="2-link arm (RNEA notes)")
    for i, (m, L, Iz, M) in enumerate(
        [(m1, L1, I1, L1 / 2), (m2, L2, I2, L1 / 2 + L2 / 2)], 1):
        model.add_body(
            f"link{i}", i - 1, J.Screw([0, 0, 1, 0, L / 2, 0]),
            placement=_translation(M),
            inertia=spatial_inertia(m, np.zeros(3), np.diag([0.0, Iz, Iz])))
    return model


def serial_chain(n, joint="revolute", length=0.5, mass=1.0, gravity=9.81):
    """A spatial chain of ``n`` links along x, axes alternating z, y, x; ``joint``:
    one of :data:`JOINT_TYPES`.

    >>> serial_chain(4, joint="spherical").nq
    16
    """
    n = _count("n", n)
    model = Model(gravity=(0.0, 0.0, -_gravity(gravity)),
                  name=f"{n}-link {joint} chain")
    axes = np.eye(3)[[2, 1, 0]]
    I_com = np.diag([0.02, 1.0, 1.0]) * mass * length ** 2 / 12
    for i in range(1, int(n) + 1):
        model.add_body(f"link{i}", i - 1,
                       _make_joint(joint, axes[(i - 1) % 3], 0.1),
                       placement=None if i == 1 else _translation(length),
                       inertia=spatial_inertia(mass, [length / 2, 0, 0], I_com))
    return model


JOINT_TYPES = ("revolute", "prismatic", "helical", "screw", "universal", "planar",
               "spherical", "spherical_zyx", "spherical_exp", "free", "fixed")
"""Names accepted by :func:`serial_chain` and :func:`random_tree`."""


def _universal(axis):
    other = [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0]
    return J.Universal(axis, np.cross(axis, other))


_JOINTS = {
    "revolute": lambda axis, pitch: J.Revolute(axis),
    "prismatic": lambda axis, pitch: J.Prismatic(axis),
    "helical": J.Helical,
    "screw": lambda axis, pitch: J.Screw(
        np.concatenate([axis, np.cross(axis, [0.1, 0.2, 0.3]) + pitch * axis])),
    "universal": lambda axis, pitch: _universal(axis),
    "planar": lambda axis, pitch: J.Planar(),
    "spherical": lambda axis, pitch: J.Spherical(),
    "spherical_zyx": lambda axis, pitch: J.SphericalZYX(),
    "spherical_exp": lambda axis, pitch: J.SphericalExp(),
    "free": lambda axis, pitch: J.Free(),
    "fixed": lambda axis, pitch: J.Fixed(),
}


def _make_joint(kind, axis, pitch):
    if kind not in _JOINTS:
        raise ValueError("argument 'joint': expected one of "
                         f"{list(JOINT_TYPES)}, got {kind!r}")
    return _JOINTS[kind](axis, pitch)


def _random_inertia(rng):
    """A physically valid inertia: random mass, centre of mass and principal
    moments."""
    mass = rng.uniform(0.5, 2.0)
    d = rng.uniform(0.01, 0.1, 3) * mass   # second moments of the mass distribution
    principal = np.array([d[1] + d[2], d[0] + d[2], d[0] + d[1]])
    R = exp_so3(rng.normal(size=3))
    return spatial_inertia(mass, rng.normal(scale=0.2, size=3),
                           R @ np.diag(principal) @ R.T)


def _joint_types(joint_types):
    """``joint_types`` checked: a non-empty sequence of names from
    :data:`JOINT_TYPES` (default: all but ``"fixed"``)."""
    if joint_types is None:
        return [k for k in JOINT_TYPES if k != "fixed"]
    if (isinstance(joint_types, (str, bytes))
            or not hasattr(joint_types, "__iter__")):
        raise TypeError("argument 'joint_types': expected a sequence of names from "
                        f"{list(JOINT_TYPES)}, got {joint_types!r} (wrap a single "
                        "one in a list)")
    kinds = list(joint_types)
    unknown = [k for k in kinds if not isinstance(k, str) or k not in _JOINTS]
    if unknown or not kinds:
        raise ValueError("argument 'joint_types': expected a non-empty sequence of "
                         f"names from {list(JOINT_TYPES)}, got {kinds!r}")
    return kinds


def random_tree(n_bodies, rng, joint_types=None, branching=0.5, gravity=9.81):
    """A random tree for testing: random parents, placements, axes and inertias.

    Parameters
    ----------
    n_bodies : int
    rng : numpy.random.Generator
    joint_types : sequence of str, optional
        from :data:`JOINT_TYPES`; default all but ``"fixed"``
    branching : float in [0, 1]
        probability that a body hangs from a random earlier body, not the last
    gravity : float

    Examples
    --------
    >>> model = random_tree(6, np.random.default_rng(0))
    >>> model.nbodies, all(model.parent[i] < i for i in range(1, 7))
    (6, True)
    """
    n_bodies, kinds = _count("n_bodies", n_bodies), _joint_types(joint_types)
    if not isinstance(rng, np.random.Generator):
        raise TypeError("argument 'rng': expected a numpy Generator "
                        "(numpy.random.default_rng(seed)), got "
                        f"{type(rng).__name__}")
    branching = _checks.scalar("branching", branching)
    if not 0.0 <= branching <= 1.0:
        raise ValueError("argument 'branching': expected a probability in [0, 1], "
                         f"got {branching!r}")
    model = Model(gravity=(0.0, 0.0, -_gravity(gravity)),
                  name=f"random tree ({n_bodies} bodies)")
    for i in range(1, n_bodies + 1):
        parent = int(rng.integers(0, i)) if rng.uniform() < branching else i - 1
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        placement = make_transform(exp_so3(rng.normal(size=3)),
                                   rng.normal(scale=0.5, size=3))
        kind = kinds[int(rng.integers(len(kinds)))]
        model.add_body(f"body{i}", parent,
                       _make_joint(kind, axis, rng.uniform(-0.2, 0.2)),
                       placement=placement, inertia=_random_inertia(rng))
    return model


# --- Closed chains: a tree plus loop-closure constraints (Kim (2012), Sec. 3) -----
def _rot_z(angle):
    return make_transform(exp_so3([0.0, 0.0, angle]), np.zeros(3))


def _rod(mass, length, radius=0.0):
    """A uniform rod along x from its frame origin: COM at length/2."""
    I_long = mass * radius ** 2 / 2
    I_perp = mass * length ** 2 / 12 + mass * radius ** 2 / 4
    return spatial_inertia(mass, [length / 2, 0, 0],
                           np.diag([I_long, I_perp, I_perp]))


def four_bar(lengths=(1.0, 2.0, 1.5, 2.0), mass=1.0, crank_angle=1.0, gravity=9.81):
    """A planar four-bar linkage cut at the coupler-rocker joint.

    Crank ``a`` from the origin, coupler ``b``, rocker ``c`` from ``(d, 0, 0)``
    (``lengths = (a, b, c, d)``), revolute about z; the cut is a
    :class:`~liedyn.constraints.LoopClosure` on ``("vx", "vy")``: one degree of
    freedom. Returns ``(model, constraints, q0)``, ``q0`` closing the loop with the
    crank at ``crank_angle``.

    >>> from liedyn.constraints import constraint_residual
    >>> model, constraints, q0 = four_bar()
    >>> bool(np.max(np.abs(constraint_residual(model, constraints, q0))) < 1e-10)
    True
    """
    from .constraints import LoopClosure
    a, b, c, d = _numbers("lengths", lengths, 4, "crank, coupler, rocker, ground")
    model = Model(gravity=(0.0, -_gravity(gravity), 0.0), name="four-bar linkage")
    model.add_body("crank", 0, J.Revolute([0, 0, 1]), inertia=_rod(mass, a))
    model.add_body("coupler", 1, J.Revolute([0, 0, 1]), placement=_translation(a),
                   inertia=_rod(mass, b))
    model.add_body("rocker", 0, J.Revolute([0, 0, 1]), placement=_translation(d),
                   inertia=_rod(mass, c))
    loop = LoopClosure("coupler", "rocker", frame_a=_translation(b),
                       frame_b=_translation(c), axes=("vx", "vy"))
    q0 = _close(model, [loop], np.array([crank_angle, -0.5, 1.5]), lock=[0])
    return model, [loop], q0


def five_bar(lengths=(1.0, 1.5, 1.5, 1.0, 1.0), mass=1.0, gravity=9.81):
    """A planar five-bar linkage, the loop cut through link ``A-P``.

    Pivots ``O = (0, 0)``, ``C = (d, 0)``; ``O -> A`` (``l1``) and half of ``A-P``;
    ``C -> B`` (``l3``), ``B -> P`` (``l4``) and the other half (``lengths = (l1,
    l2, l4, l3, d)``). The halves are welded in the plane (m = 3), as in Kim (2012),
    §3.1: two ground joints actuated make inverse dynamics unique, three redundant,
    one unsolvable. Bodies ``link1``, ``link2a``, ``link3``, ``link4``, ``link2b``;
    returns ``(model, constraints, q0)``.

    >>> model, constraints, q0 = five_bar()
    >>> model.nv, sum(c.m for c in constraints)
    (5, 3)
    """
    from .constraints import LoopClosure
    l1, l2, l4, l3, d = _numbers("lengths", lengths, 5, "l1, l2, l4, l3, d")
    model = Model(gravity=(0.0, -_gravity(gravity), 0.0), name="five-bar linkage")
    model.add_body("link1", 0, J.Revolute([0, 0, 1]), inertia=_rod(mass, l1))
    model.add_body("link2a", 1, J.Revolute([0, 0, 1]), placement=_translation(l1),
                   inertia=_rod(mass / 2, l2 / 2))
    model.add_body("link3", 0, J.Revolute([0, 0, 1]), placement=_translation(d),
                   inertia=_rod(mass, l3))
    model.add_body("link4", 3, J.Revolute([0, 0, 1]), placement=_translation(l3),
                   inertia=_rod(mass, l4))
    model.add_body("link2b", 4, J.Revolute([0, 0, 1]), placement=_translation(l4),
                   inertia=_rod(mass / 2, l2 / 2))
    weld = LoopClosure("link2a", "link2b", frame_a=_translation(l2 / 2),
                       frame_b=_translation(l2 / 2) @ _rot_z(np.pi),
                       axes=("wz", "vx", "vy"))
    q0 = _close(model, [weld], np.array([1.6, -1.2, 1.3, 1.1, 2.0]), lock=[0, 2])
    return model, [weld], q0


def spatial_four_bar(mass=1.0, gravity=9.81):
    """A spatial RSSR linkage: ``(model, constraints, q0)``.

    A crank about z, a coupler on a :class:`~liedyn.joints.Spherical` joint, a
    rocker about x at ``(1.5, 0.5, 0.5)``; the coupler's end meets the rocker's tip
    (a spherical cut, m = 3). Two degrees of freedom, one the coupler's spin (a
    thick rod).

    >>> model, constraints, q0 = spatial_four_bar()
    >>> model.nq, model.nv
    (6, 5)
    """
    from .constraints import LoopClosure
    model = Model(gravity=(0.0, 0.0, -gravity), name="spatial RSSR linkage")
    model.add_body("crank", 0, J.Revolute([0, 0, 1]), inertia=_rod(mass, 0.6, 0.05))
    model.add_body("coupler", 1, J.Spherical(), placement=_translation(0.6),
                   inertia=_rod(mass, 1.5, 0.1))
    model.add_body(
        "rocker",
        0,
        J.Revolute([1, 0, 0]),
        placement=_translation(1.5, 0.5, 0.5),
        inertia=spatial_inertia(
            mass, [0, 0.4, 0],
            np.diag([mass * 0.8**2 / 12, 1e-3, mass * 0.8**2 / 12])),
    )
    tip = make_transform(np.eye(3), [0.0, 0.8, 0.0])
    cut = LoopClosure("coupler", "rocker", frame_a=_translation(1.5), frame_b=tip,
                      axes=("vx", "vy", "vz"))
    guess = np.concatenate([[0.3], J.Spherical().neutral(), [0.2]])
    q0 = _close(model, [cut], guess, lock=[0])
    return model, [cut], q0


def rolling_disk(radius=0.5, mass=1.0, heading=0.3):
    """Murray, Li and Sastry's upright rolling disk, ``q = (x, y, theta, phi)``.

    A :class:`~liedyn.joints.Planar` carrier and a disk spinning by ``phi`` about
    body y. Rolling without slipping is the Pfaffian ``A(q) = [[1, 0, 0, -r cos
    theta], [0, 1, 0, -r sin theta]]``, ``dA dq = (r sin(theta) dtheta dphi, -r
    cos(theta) dtheta dphi)``. Returns ``(model, constraints, q0)``.

    >>> model, constraints, q0 = rolling_disk()
    >>> constraints[0].jacobian(model, q0).round(3).tolist()[0]
    [1.0, 0.0, 0.0, -0.478]
    """
    from ._math import cos, sin
    from .constraints import Pfaffian
    r = radius
    model = Model(gravity=(0.0, 0.0, -9.81), name="rolling disk")
    model.add_body(
        "carrier", 0, J.Planar(),
        inertia=spatial_inertia(1e-3 * mass, np.zeros(3), 1e-4 * mass * np.eye(3)))
    disk = np.diag([mass * r ** 2 / 4, mass * r ** 2 / 2, mass * r ** 2 / 4])
    model.add_body("disk", 1, J.Revolute([0, 1, 0]),
                   placement=_translation(0, 0, r),
                   inertia=spatial_inertia(mass, np.zeros(3), disk))

    def A(q):
        th = np.asarray(q)[..., 2]
        out = np.zeros(np.shape(q)[:-1] + (2, 4))
        out[..., 0, 0], out[..., 1, 1] = 1.0, 1.0
        out[..., 0, 3], out[..., 1, 3] = -r * cos(th), -r * sin(th)
        return out

    def drift(q, dq):
        th, dth, dphi = (np.asarray(q)[..., 2], np.asarray(dq)[..., 2],
                         np.asarray(dq)[..., 3])
        return np.stack([r * sin(th) * dth * dphi, -r * cos(th) * dth * dphi],
                        axis=-1)

    return model, [Pfaffian(A, drift, m=2)], np.array([0.0, 0.0, heading, 0.0])


def _close(model, constraints, guess, lock):
    """Newton on the loop residual with the coordinates in ``lock`` held fixed."""
    from .constraints import constraint_jacobian, constraint_residual
    q = np.array(guess, dtype=float)
    free = np.setdiff1d(np.arange(model.nv), lock)
    for _ in range(100):
        f = constraint_residual(model, constraints, q)
        if np.max(np.abs(f)) < 1e-13:
            return q
        A = constraint_jacobian(model, constraints, q)[:, free]
        step = np.zeros(model.nv)
        step[free] = -np.linalg.lstsq(A, f, rcond=None)[0]
        q = model.integrate(q, step)
    raise ValueError(f"{model.name}: could not close the loop from the initial "
                     f"guess (|f| = {np.max(np.abs(f)):.2e})")
