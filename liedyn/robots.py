"""Ready-made models: pendulums, planar arms, the 2-link arm of the RNEA notes,
chains, random trees.

Every builder returns a fresh :class:`~liedyn.model.Model`. Planar models move in
the x-y plane of the ground frame with gravity along -y (so the plane is vertical).

Derived in :ref:`sec-multibody-models`.
"""
import numpy as np

from . import joints as J
from .inertia import spatial_inertia
from .lie import exp_so3, make_transform
from .model import Model

__all__ = ["load", "pendulum", "double_pendulum", "planar_arm", "two_link_arm",
           "serial_chain", "random_tree", "JOINT_TYPES", "four_bar", "five_bar",
           "spatial_four_bar", "rolling_disk"]


def load(name, floating_base=False, **options):
    """A real robot of the example-robot-data package, e.g. ``"panda"``, ``"ur5"``,
    ``"talos"``.

    The same as :func:`liedyn.urdf.load_robot` (see there for ``options``); an
    unknown name or a missing package raises ``ValueError`` listing what is
    available.

    Examples
    --------
    >>> load("ur5").nv
    6
    """
    from .urdf import load_robot
    return load_robot(name, floating_base=floating_base, **options)


def _translation(x, y=0.0, z=0.0):
    return make_transform(np.eye(3), [x, y, z])


def _point_mass(mass, position):
    return spatial_inertia(mass, position, np.zeros((3, 3)))


def pendulum(mass=1.0, length=1.0, gravity=9.81):
    """A point mass on a massless rod, hinged about z at the origin; ``q = 0`` hangs
    down (-y).

    Equation of motion: ``m l^2 ddq + m g l sin(q) = tau``.

    Examples
    --------
    >>> model = pendulum(mass=2.0, length=0.5)
    >>> model.nq, float(model.inertias[1][3, 3])
    (1, 2.0)
    """
    model = Model(gravity=(0.0, -gravity, 0.0), name="pendulum")
    model.add_body("bob", 0, J.Revolute([0, 0, 1]),
                   inertia=_point_mass(mass, [0, -length, 0]))
    return model


def double_pendulum(masses=(1.0, 1.0), lengths=(1.0, 1.0), gravity=9.81):
    """Two point masses on massless rods, hinged about z; ``q = 0`` hangs straight
    down.

    Examples
    --------
    >>> double_pendulum().nv
    2
    """
    (m1, m2), (l1, l2) = masses, lengths
    model = Model(gravity=(0.0, -gravity, 0.0), name="double pendulum")
    model.add_body("bob1", 0, J.Revolute([0, 0, 1]),
                   inertia=_point_mass(m1, [0, -l1, 0]))
    model.add_body("bob2", 1, J.Revolute([0, 0, 1]), placement=_translation(0, -l1),
                   inertia=_point_mass(m2, [0, -l2, 0]))
    return model


def planar_arm(n, length=1.0, mass=1.0, gravity=9.81):
    """``n`` uniform thin links along x, revolute about z; ``q = 0`` is stretched
    along +x.

    Each link has mass ``mass``, length ``length``, its centre of mass at
    ``length/2`` and inertia ``m l^2 / 12`` about the axes perpendicular to it.

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


def two_link_arm(masses=(1.0, 1.0), lengths=(1.0, 1.0), inertias=None,
                 gravity=9.81):
    """The 2-link planar arm of the RNEA notes, with body frames at the links'
    centres of mass.

    Joint ``i`` is a :class:`~liedyn.joints.Screw` with body-frame screw axis
    ``A_i = (z, b_i)``, ``b_i = (0, L_i/2, 0)`` (a rotation about z through the
    point ``(-L_i/2, 0, 0)`` of the link frame), and the home transforms are
    ``M_{0,1} = Trans(L_1/2)``, ``M_{1,2} = Trans(L_1/2 + L_2/2)``, as in
    ``T_{i-1,i} = M_{i-1,i} exp([A_i] theta_i)``. The generalized inertias are
    diagonal: ``diag(0, I_i, I_i, m_i, m_i, m_i)`` (a thin rod along x; only ``I_i``
    about z matters in the plane) with ``I_i = m_i L_i^2 / 12`` by default.

    Examples
    --------
    >>> model = two_link_arm()
    >>> model.joints[1]
    Screw(screw=[0.0, 0.0, 1.0, 0.0, 0.5, 0.0])
    """
    (m1, m2), (L1, L2) = masses, lengths
    I1, I2 = (
        inertias if inertias is not None else (m1 * L1**2 / 12, m2 * L2**2 / 12))
    model = Model(gravity=(0.0, -gravity, 0.0), name="2-link arm (RNEA notes)")
    for i, (m, L, Iz, M) in enumerate(
        [(m1, L1, I1, L1 / 2), (m2, L2, I2, L1 / 2 + L2 / 2)], 1):
        model.add_body(
            f"link{i}", i - 1, J.Screw([0, 0, 1, 0, L / 2, 0]),
            placement=_translation(M),
            inertia=spatial_inertia(m, np.zeros(3), np.diag([0.0, Iz, Iz])))
    return model


def serial_chain(n, joint="revolute", length=0.5, mass=1.0, gravity=9.81):
    """A spatial chain of ``n`` identical links along x with joint axes alternating
    z, y, x.

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
        model.add_body(f"link{i}", i - 1,
                       _make_joint(joint, axes[(i - 1) % 3], 0.1),
                       placement=None if i == 1 else _translation(length),
                       inertia=spatial_inertia(mass, [length / 2, 0, 0], I_com))
    return model


JOINT_TYPES = ("revolute", "prismatic", "helical", "screw", "universal", "planar",
               "spherical", "spherical_zyx", "spherical_exp", "free", "fixed")
"""Names accepted by :func:`serial_chain` and :func:`random_tree`."""


def _make_joint(kind, axis, pitch, axis2=None):
    if kind == "revolute":
        return J.Revolute(axis)
    if kind == "prismatic":
        return J.Prismatic(axis)
    if kind == "helical":
        return J.Helical(axis, pitch)
    if kind == "screw":
        return J.Screw(
            np.concatenate([axis, np.cross(axis, [0.1, 0.2, 0.3]) + pitch * axis]))
    if kind == "universal":
        axis2 = np.cross(axis,
                         [1.0, 0.0, 0.0] if abs(axis[0]) < 0.9 else [0.0, 1.0, 0.0])
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
    raise ValueError("argument 'joint': expected one of "
                     f"{list(JOINT_TYPES)}, got {kind!r}")


def _random_inertia(rng):
    """A physically valid generalized inertia: random mass, COM and principal
    moments."""
    mass = rng.uniform(0.5, 2.0)
    d = rng.uniform(0.01, 0.1, 3) * mass   # second moments of the mass distribution
    # triangle inequality holds
    principal = np.array([d[1] + d[2], d[0] + d[2], d[0] + d[1]])
    R = exp_so3(rng.normal(size=3))
    return spatial_inertia(mass, rng.normal(scale=0.2, size=3),
                           R @ np.diag(principal) @ R.T)


def random_tree(n_bodies, rng, joint_types=None, branching=0.5, gravity=9.81):
    """A random kinematic tree for testing: random parents, placements, axes and
    inertias.

    Parameters
    ----------
    n_bodies : int
    rng : numpy.random.Generator
    joint_types : sequence of str, optional
        joint kinds to draw from (:data:`JOINT_TYPES`); default: all but ``"fixed"``
    branching : float in [0, 1]
        probability that a body hangs from a random earlier body instead of the last
        one
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
    kinds = (
        [k for k in JOINT_TYPES if k != "fixed"]
        if joint_types is None
        else list(joint_types))
    for k in kinds:
        _make_joint(k, np.array([0.0, 0.0, 1.0]), 0.0)     # validates the names
    model = Model(gravity=(0.0, 0.0, -gravity), name="random tree "
                                                     f"({n_bodies} bodies)")
    for i in range(1, int(n_bodies) + 1):
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


# ----------------------------------------------------------------------------------
# Closed chains: a tree plus loop-closure constraints (liedyn.constraints), Kim
# (2012), Sec. 3
# ----------------------------------------------------------------------------------
def _rot_z(angle):
    return make_transform(exp_so3([0.0, 0.0, angle]), np.zeros(3))


def _rod(mass, length, radius=0.0):
    """A uniform rod along x from its frame origin: COM at length/2."""
    I_long = mass * radius ** 2 / 2
    I_perp = mass * length ** 2 / 12 + mass * radius ** 2 / 4
    return spatial_inertia(mass, [length / 2, 0, 0],
                           np.diag([I_long, I_perp, I_perp]))


def four_bar(lengths=(1.0, 2.0, 1.5, 2.0), mass=1.0, crank_angle=1.0, gravity=9.81):
    """A planar four-bar linkage, cut at the coupler-rocker revolute joint.

    Ground pivots at the origin and at ``(d, 0, 0)``; crank ``a``, coupler ``b``,
    rocker ``c`` (``lengths = (a, b, c, d)``), all revolute about z, gravity along
    -y. The cut joint becomes a :class:`~liedyn.constraints.LoopClosure` on the
    in-plane translations (``axes=("vx", "vy")``, m = 2): one degree of freedom.

    Returns
    -------
    model : Model, constraints : list, q0 : (3,) array (consistent, crank at
    ``crank_angle``)

    Examples
    --------
    >>> from liedyn.constraints import constraint_residual
    >>> model, constraints, q0 = four_bar()
    >>> bool(np.max(np.abs(constraint_residual(model, constraints, q0))) < 1e-10)
    True
    """
    from .constraints import LoopClosure
    a, b, c, d = lengths
    model = Model(gravity=(0.0, -gravity, 0.0), name="four-bar linkage")
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
    """A planar five-bar linkage with 5 revolute joints, the loop cut through the
    last link.

    Ground pivots ``O = (0, 0)`` and ``C = (d, 0)``; left branch ``O -> A`` (``l1``)
    and half of link ``A-P``; right branch ``C -> B`` (``l3``), ``B -> P`` (``l4``)
    and the other half of ``A-P`` (``lengths = (l1, l2, l4, l3, d)``, ``l2`` the
    length of ``A-P``). The two halves are welded in the plane
    (``axes=("wz", "vx", "vy")``, m = 3), as in Kim (2012), §3.1: with the two
    ground joints actuated (n_p = 3 = m) inverse dynamics is unique; with three
    actuated it is redundant; with one it has no exact solution. Bodies: ``link1``
    (O), ``link2a`` (A), ``link3`` (C), ``link4`` (B), ``link2b`` (P).

    Returns
    -------
    model, constraints, q0 (consistent)

    Examples
    --------
    >>> model, constraints, q0 = five_bar()
    >>> model.nv, sum(c.m for c in constraints)
    (5, 3)
    """
    from .constraints import LoopClosure
    l1, l2, l4, l3, d = lengths
    model = Model(gravity=(0.0, -gravity, 0.0), name="five-bar linkage")
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
    """A spatial RSSR linkage: revolute crank, spherical joint, coupler, cut
    spherical joint, revolute rocker.

    The crank turns about z at the origin; the rocker about x at
    ``(1.5, 0.5, 0.5)``. The coupler hangs from the crank by a
    :class:`~liedyn.joints.Spherical` joint, and its far end must meet the rocker's
    tip: a spherical cut (``axes=("vx", "vy", "vz")``, m = 3). With ``nv = 5`` this
    leaves two degrees of freedom, one of them the coupler's spin about its own axis
    (the coupler is a thick rod so that spin has inertia).

    Returns
    -------
    model, constraints, q0 (consistent)

    Examples
    --------
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
    """Murray, Li and Sastry's upright rolling disk: ``q = (x, y, theta, phi)``.

    A :class:`~liedyn.joints.Planar` joint (position and heading ``theta``) carries
    a disk that spins by ``phi`` about its horizontal axis (body y). Rolling without
    slipping is the non-holonomic Pfaffian constraint ``dx = r cos(theta) dphi``,
    ``dy = r sin(theta) dphi``:
    ``A(q) = [[1, 0, 0, -r cos theta], [0, 1, 0, -r sin theta]]``,
    ``dA dq = (r sin(theta) dtheta dphi, -r cos(theta) dtheta dphi)``.

    Returns
    -------
    model, constraints, q0

    Examples
    --------
    >>> model, constraints, q0 = rolling_disk()
    >>> constraints[0].jacobian(model, q0).round(3).tolist()[0]
    [1.0, 0.0, 0.0, -0.478]
    """
    from .constraints import Pfaffian
    from ._math import cos, sin
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
