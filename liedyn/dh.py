"""Models from Denavit-Hartenberg tables, standard or modified; the Puma 560 and the
Stanford arm.

A serial arm is a table of rows, one per joint: ``theta`` (the joint angle's
offset), ``d``, ``a``, ``alpha`` and the joint kind. Standard DH (Denavit and
Hartenberg 1955, as Corke's Robotics Toolbox uses it) puts link frame ``i`` at the
far end of link ``i``: ``T_{i-1,i} = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)``,
joint ``i`` turning about ``z_{i-1}``. Modified DH (Craig 1986) puts it at the
joint: ``T_{i-1,i} = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i)``, joint
``i`` turning about ``z_i``. The joint variable adds to ``theta`` (revolute) or to
``d`` (prismatic).

In liedyn's model (Kim (2012), Section 2.1) body ``i`` hangs from its parent by
``X_i Phi_i(q_i)`` with the joint's motion last. For modified DH the body frame is
the link frame. For standard DH the constant part after the joint, ``C_i = Tz(d_i)
Tx(a_i) Rx(alpha_i)`` (or ``Tx(a_i) Rx(alpha_i)`` for a prismatic joint), moves
into the next body's placement, the body frame is the frame right after joint
``i``'s motion, and ``model.link_frames[i] = C_i`` is the DH link frame in it (the
last one is the flange). Each row's mass, centre of mass and inertia about the
centre of mass are given in its DH link frame, as in the Toolbox; ``armature`` is
the rotor inertia reflected through the gear (Toolbox: ``Jm G^2``).
"""
from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from . import joints as J
from .inertia import compose, spatial_inertia, transform_inertia
from .lie import exp_so3, inverse, make_transform
from .model import Model

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from ._types import ArrayLike
    from .model import Model

__all__ = ["from_dh", "puma560", "stanford_arm", "DH_FIELDS"]

DH_FIELDS = ("theta", "d", "a", "alpha")
"""The kinematic fields every row needs; ``joint`` ("revolute" or "prismatic"),
``mass``, ``com``, ``inertia`` and ``armature`` are optional."""


def _Rx(angle):
    return make_transform(exp_so3([angle, 0.0, 0.0]), np.zeros(3))


def _Rz(angle):
    return make_transform(exp_so3([0.0, 0.0, angle]), np.zeros(3))


def _Tx(x):
    return make_transform(np.eye(3), [x, 0.0, 0.0])


def _Tz(z):
    return make_transform(np.eye(3), [0.0, 0.0, z])


def _number(row, k, field, value):
    x = _checks.array(f"rows[{k}]['{field}']", value, ())
    if x.ndim or x.dtype.kind not in "iuf":
        raise ValueError(f"rows[{k}]['{field}']: expected one real number, got "
                         f"{value!r}")
    return float(x)


def _inertia(k, mass, com, I, policy):
    """Kim (2012), eq. (22) of row ``k``; an inconsistent one (as real tables have)
    warned about or refused by ``policy``, as :func:`liedyn.urdf.load_urdf` does."""
    try:
        return spatial_inertia(mass, com, I), True
    except ValueError as err:
        if policy == "raise" or mass < 0:
            raise ValueError(f"rows[{k}]: {err}") from None
        if policy == "warn":
            warnings.warn(f"rows[{k}]: inertia not physically consistent ({err}); "
                          "kept as given, as Pinocchio does", UserWarning,
                          stacklevel=4)
    return compose(mass, com, I), False


def _inertia_matrix(k, value):
    """Row ``k``'s inertia about the centre of mass: a (3, 3) matrix, or the
    Toolbox's 6 numbers ``(Ixx, Iyy, Izz, Ixy, Iyz, Ixz)``."""
    name = f"rows[{k}]['inertia']"
    I = _checks.array(name, value, ())
    if I.shape == (6,):
        xx, yy, zz, xy, yz, xz = I
        I = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    if I.shape != (3, 3):
        raise ValueError(f"argument '{name}': expected a (3, 3) matrix or the 6 "
                         "numbers (Ixx, Iyy, Izz, Ixy, Iyz, Ixz), got shape "
                         f"{I.shape}")
    return I


def _row(k, row, policy):
    """Row ``k`` checked: the four DH numbers, the joint kind and the inertia."""
    if not isinstance(row, dict):
        raise TypeError(f"rows[{k}]: expected a dict with keys {DH_FIELDS} (and "
                        f"optionally joint, mass, com, inertia, armature), got "
                        f"{type(row).__name__}")
    unknown = set(row) - set(DH_FIELDS) - {"joint", "mass", "com", "inertia",
                                           "armature"}
    missing = [f for f in DH_FIELDS if f not in row]
    if unknown or missing:
        wrong = [f"{what} {names}" for what, names in
                 (("missing", missing), ("unknown", sorted(unknown))) if names]
        raise ValueError(f"rows[{k}]: {', '.join(wrong)} field(s); expected the "
                         f"keys {DH_FIELDS} (required) and joint, mass, com, "
                         "inertia, armature (optional)")
    theta, d, a, alpha = (_number(row, k, f, row[f]) for f in DH_FIELDS)
    kind = _checks.choice(f"rows[{k}]['joint']", row.get("joint", "revolute"),
                          ("revolute", "prismatic"))
    mass = _number(row, k, "mass", row.get("mass", 0.0))
    com = _checks.array(f"rows[{k}]['com']", row.get("com", np.zeros(3)), (3,))
    I = _inertia_matrix(k, row.get("inertia", np.zeros((3, 3))))
    armature = _number(row, k, "armature", row.get("armature", 0.0))
    return (theta, d, a, alpha), kind, _inertia(k, mass, com, I, policy), armature


def _split(modified, kind, theta, d, a, alpha):
    """``(X, C)``: the link's transform before its joint's motion and after it."""
    if modified:
        X = _Rx(alpha) @ _Tx(a) @ _Rz(theta) @ _Tz(d)
        return X, np.eye(4)
    if kind == "revolute":
        return _Rz(theta), _Tz(d) @ _Tx(a) @ _Rx(alpha)
    return _Rz(theta) @ _Tz(d), _Tx(a) @ _Rx(alpha)


def from_dh(rows: Sequence[Mapping[str, Any]], modified: bool = False,
            gravity: ArrayLike = (0.0, 0.0, -9.81), name: str = "dh",
            inertia_check: str = "warn", base: ArrayLike | None = None) -> Model:
    """A serial arm from a Denavit-Hartenberg table (see the module docstring).

    Kim (2012), Section 2.1: each row gives a placement ``X_i`` and a joint
    motion ``Phi_i`` about ``z``; Kim eq. (21) moves a standard-DH link's inertia
    into its body frame.

    Parameters
    ----------
    rows : sequence of dict
        per joint: ``theta``, ``d``, ``a``, ``alpha`` (rad, m); optional ``joint``
        ("revolute", default, or "prismatic"), ``mass`` (kg, default 0), ``com``
        (3,) and ``inertia`` (3, 3) or the 6 numbers ``(Ixx, Iyy, Izz, Ixy, Iyz,
        Ixz)`` about the centre of mass, both in the row's DH link frame,
        ``armature``
    modified : bool, Craig's modified convention (default: standard)
    gravity : (3,) array, in the ground frame
    name : str
    inertia_check : {"warn", "raise", "ignore"}
        an inertia that no mass distribution has (principal moments against the
        triangle inequality, as the Puma 560's link 3 in the Toolbox) is kept with a
        warning naming the row, refused, or kept silently
    base : (4, 4) array, optional
        the pose of the DH base frame 0 in the ground frame (the Robotics
        Toolbox's ``robot.base``); the identity by default

    Returns
    -------
    Model, with ``link_frames`` (list of (4, 4): the DH link frame of each body in
    its body frame; ``link_frames[0]``, frame 0 in the ground frame, is ``base``)
    and ``convention``

    Examples
    --------
    >>> link = dict(theta=0, d=0, a=1.0, alpha=0, mass=1.0, com=[-0.5, 0, 0])
    >>> arm = from_dh([link, link], gravity=(0.0, -9.81, 0.0))
    >>> from liedyn.inverse_dynamics import rnea
    >>> rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]).round(6).tolist()
    [19.62, 4.905]
    """
    policy = _checks.choice("inertia_check", inertia_check,
                            ("warn", "raise", "ignore"))
    modified = _checks.boolean("modified", modified)
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        raise TypeError("argument 'rows': expected a sequence of dicts (one per "
                        f"joint), got {type(rows).__name__}")
    rows = list(rows) if not isinstance(rows, dict) else [rows]
    if not rows:
        raise ValueError("argument 'rows': expected at least one row")
    base = np.eye(4) if base is None else _checks.transform("base", base)
    model = Model(gravity=gravity, name=name)
    link_frames = [base]
    model.link_frames = link_frames
    model.convention = "modified" if modified else "standard"
    before = base                       # the part of the last link after its joint
    for k, row in enumerate(rows):
        (theta, d, a, alpha), kind, (inertia, ok), armature = _row(k, row, policy)
        X, after = _split(modified, kind, theta, d, a, alpha)
        joint = (J.Revolute([0, 0, 1]) if kind == "revolute"
                 else J.Prismatic([0, 0, 1]))
        I = transform_inertia(inertia, inverse(after))      # in the body frame
        i = model.add_body(f"link{k + 1}", k, joint, placement=before @ X,
                           inertia=I if ok else None, armature=armature)
        if not ok:
            model.set_inertia_unchecked(i, I)
        link_frames.append(after)
        before = after
    return model


def puma560(armature: bool = True, gravity: ArrayLike = (0.0, 0.0, -9.81)) -> Model:
    """The Puma 560 in standard DH, with the dynamic parameters of Corke and
    Armstrong-Helouvry (1994) as the Robotics Toolbox carries them.

    Link 1 is massless with a rotational inertia of 0.35 kg m^2 about its joint axis
    (the column that link 1 is; its motor's rotor enters as the armature): a
    massless link (:func:`liedyn.inertia.check_inertia`). Link 3's principal
    moments (0.066, 0.086, 0.0125) violate the triangle inequality: kept as given,
    as the Toolbox and Pinocchio keep them. ``armature``: the motors' rotor inertia
    ``Jm G^2`` at the joints (Toolbox ``Jm`` and gear ratios ``G``); friction is not
    modelled. The table has ``d_1 = 0``, without the pedestal (0.672 m) of the
    Python Toolbox's ``Puma560``, whose ``fkine`` is therefore lifted by it.

    >>> puma = puma560()
    >>> puma.nv, float(puma.inertias[1][3, 3]), round(float(puma.armature[1]), 3)
    (6, 0.0, 2.325)
    """
    pi = np.pi
    table = [   # d, a, alpha, mass, com, (Ixx, Iyy, Izz), Jm, G
        (0.0, 0.0, pi / 2, 0.0, (0, 0, 0), (0, 0.35, 0), 200e-6, -62.6111),
        (0.0, 0.4318, 0.0, 17.4, (-0.3638, 0.006, 0.2275), (0.13, 0.524, 0.539),
         200e-6, 107.815),
        (0.15005, 0.0203, -pi / 2, 4.8, (-0.0203, -0.0141, 0.070),
         (0.066, 0.086, 0.0125), 200e-6, -53.7063),
        (0.4318, 0.0, pi / 2, 0.82, (0, 0.019, 0), (1.8e-3, 1.3e-3, 1.8e-3), 33e-6,
         76.0364),
        (0.0, 0.0, -pi / 2, 0.34, (0, 0, 0), (0.3e-3, 0.4e-3, 0.3e-3), 33e-6,
         71.923),
        (0.0, 0.0, 0.0, 0.09, (0, 0, 0.032), (0.15e-3, 0.15e-3, 0.04e-3), 33e-6,
         76.686)]
    rows = [dict(theta=0.0, d=d, a=a, alpha=alpha, mass=m, com=c,
                 inertia=np.diag(I), armature=Jm * G ** 2 if armature else 0.0)
            for d, a, alpha, m, c, I, Jm, G in table]
    return from_dh(rows, gravity=gravity, name="Puma 560", inertia_check="ignore")


def stanford_arm(armature: bool = True,
                 gravity: ArrayLike = (0.0, 0.0, -9.81)) -> Model:
    """The Stanford arm (Scheinman) in standard DH, joint 3 prismatic, with the
    dynamic parameters of Paul (1981), Tables 6.5-6.6, as the Robotics Toolbox
    (Corke) carries them; kinematics from Stanford AIM-177.

    The numbers are kept as the Toolbox lists them, so that the dynamics agree with
    it; they are a test case more than a physical arm: link 3's centre of mass lies
    6.4 m from its frame, and link 5's principal moments (0.003, 0.0004, 0) violate
    the triangle inequality (kept as given, as the Toolbox keeps them).
    ``armature``: the rotor inertias reflected at the joints (the Toolbox's ``Jm``,
    gear ratios 1); friction is not modelled.

    >>> arm = stanford_arm()
    >>> [type(j).__name__ for j in arm.joints[1:4]], float(arm.armature[2])
    (['Revolute', 'Revolute', 'Prismatic'], 0.782)
    """
    pi = np.pi
    table = [   # joint, theta, d, a, alpha, mass, com, (Ixx, Iyy, Izz), Jm
        ("revolute", 0.0, 0.412, 0.0, -pi / 2, 9.29, (0, 0.0175, -0.1105),
         (0.276, 0.255, 0.071), 0.953),
        ("revolute", 0.0, 0.154, 0.0, pi / 2, 5.01, (0, -1.054, 0),
         (0.108, 0.018, 0.100), 2.193),
        ("prismatic", -pi / 2, 0.0, 0.0203, 0.0, 4.25, (0, 0, -6.447),
         (2.51, 2.51, 0.006), 0.782),
        ("revolute", 0.0, 0.0, 0.0, -pi / 2, 1.08, (0, 0.092, -0.054),
         (0.002, 0.001, 0.001), 0.106),
        ("revolute", 0.0, 0.0, 0.0, pi / 2, 0.630, (0, 0.566, 0.003),
         (0.003, 0.0004, 0.0), 0.097),
        ("revolute", 0.0, 0.0, 0.0, 0.0, 0.51, (0, 0, 1.554),
         (0.013, 0.013, 0.0003), 0.020)]
    rows = [dict(joint=kind, theta=theta, d=d, a=a, alpha=alpha, mass=m, com=c,
                 inertia=np.diag(I), armature=Jm if armature else 0.0)
            for kind, theta, d, a, alpha, m, c, I, Jm in table]
    return from_dh(rows, gravity=gravity, name="Stanford arm",
                   inertia_check="ignore")
