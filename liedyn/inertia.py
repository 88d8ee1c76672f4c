"""Generalized (spatial) inertia of a rigid body: Kim (2012), Section 1.3, Kim's
eqs. (14)-(24), derived in :ref:`sec-rigid-body-dynamics`.

``I`` is the symmetric 6x6 matrix ``[[Ibar, m [c]], [m [c]^T, m 1]]`` (Kim eq. (20))
acting on twists ``V = (w, v)`` in a body-fixed frame: ``Ibar`` is the rotational
inertia about the frame's origin, ``c`` the centre of mass. Every function takes
leading batch dimensions and float or complex arrays; the branch-free ones (all but
``check_inertia``) also run on sympy object arrays, unvalidated.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from ._spatial import transpose
from .lie import Ad, Ad_star, blocks, skew, unskew

if TYPE_CHECKING:
    from ._types import Array, ArrayLike, Scalar

__all__ = ["spatial_inertia", "compose", "check_inertia", "transform_inertia",
           "kinetic_energy", "momentum", "box_inertia", "cylinder_inertia",
           "sphere_inertia", "rod_inertia", "to_parameters", "from_parameters"]


def _scale(M):
    """``max |M_ij|`` per matrix: tolerances relative to it do not depend on
    units."""
    return np.max(np.abs(M), axis=(-1, -2))


# The floor of the tolerances on the rotational inertia about the centre of mass,
# tol (1e-3 max |Ibar| + 1e-5 m (1 m)^2): the first term absorbs the round-off of
# Ibar - m [c]^T [c], so that a point mass or a thin rod is accepted; the second is
# a radius of gyration of 100 nm, for a point mass whose Ibar is itself round-off:
# moved by c (Kim (2012), eq. (21)), it keeps about 12 eps m |c|^2, a radius of
# 5e-8 |c| in any order of summation (any BLAS kernel): below the floor up to 2 m.
_FLOOR_REL, _FLOOR_MASS = 1e-3, 1e-5


def _floor(tol, I_bar, m):
    """The absolute tolerance floor of the rotational checks."""
    return tol * (_FLOOR_REL * I_bar + _FLOOR_MASS * m)


def _positive(name, x):
    """Raise ``ValueError`` unless every numeric entry of ``x`` is > 0."""
    if x.dtype != object and np.any(x.real <= 0):
        raise ValueError(f"argument '{name}': must be positive, got "
                         f"{np.ravel(x.real).min():g}")
    return x


def _non_negative(name, x):
    """Raise ``ValueError`` unless every numeric entry of ``x`` is >= 0."""
    if x.dtype != object and np.any(x.real < 0):
        raise ValueError(f"argument '{name}': must be positive or zero (a massless "
                         f"link), got {np.ravel(x.real).min():g}")
    return x


def _check_rotational(name, Ic, tol, floor=0.0, massless=False):
    """Check 3x3 inertias about the centre of mass: symmetric, PSD, ``J1 + J2 >=
    J3`` (to ``tol`` of their size, at least ``floor``); where ``massless`` (a
    boolean array over the batch) the triangle inequality is not asked: a massless
    link's inertia is a rotor's, lumped, not that of a mass distribution."""
    if Ic.dtype == object:
        return Ic
    Ir = Ic.real
    atol = np.maximum(tol * _scale(Ir), floor)
    asym = np.max(np.abs(Ir - transpose(Ir)), axis=(-1, -2))
    if np.any(asym > atol):
        raise ValueError(f"argument '{name}': rotational inertia is not symmetric "
                         f"(max |I - I^T| = {np.max(asym):.3g})")
    J = np.linalg.eigvalsh((Ir + transpose(Ir)) / 2)
    atol = np.maximum(tol * np.max(np.abs(J), axis=-1), floor)
    if np.any(J[..., 0] < -atol):
        raise ValueError(f"argument '{name}': rotational inertia is not positive "
                         "semi-definite (smallest principal moment "
                         f"{np.min(J[..., 0]):.3g})")
    slack = J[..., 0] + J[..., 1] - J[..., 2]
    if np.any((slack < -atol) & ~np.asarray(massless)):
        raise ValueError(f"argument '{name}': principal moments violate the "
                         "triangle inequality J1 + J2 >= J3 (J1 + J2 - J3 = "
                         f"{np.min(slack):.3g}); no mass "
                         "distribution has this inertia")
    return Ic


def compose(mass, com, I_com):
    """Kim (2012), eq. (22) without the physical checks: ``[[Ic + m [c]^T [c],
    m [c]], [m [c]^T, m 1]]`` for one body, from a file or table that may be
    inconsistent (its reader checks it with :func:`check_inertia` and decides).

    >>> compose(2.0, [0.0, 0.0, 1.0], np.diag([0.1, 0.2, 0.3]))[:3, :3].diagonal()
    array([2.1, 2.2, 0.3])
    """
    P = skew(com)
    return np.block([[I_com + mass * P.T @ P, mass * P],
                     [mass * P.T, mass * np.eye(3)]])


def spatial_inertia(mass: Scalar, com: ArrayLike, I_com: ArrayLike,
                    R: ArrayLike | None = None) -> Array:
    """The generalized inertia from mass, centre of mass and inertia about it.

    Kim (2012), eq. (22): ``I = [[R Ic R^T + m [p]^T [p], m [p]], [m [p]^T, m 1]]``
    with ``p = com``; :func:`transform_inertia` of ``diag(Ic, m 1)`` (Kim eq. (21)).

    Parameters
    ----------
    mass : (...) array, >= 0 (0: a massless link, rotational inertia only)
    com : (..., 3) array, centre of mass in the body frame
    I_com : (..., 3, 3) array
        rotational inertia about the centre of mass, in the centre-of-mass frame
        (physical to 1e-9 of its size: see :func:`check_inertia`)
    R : (..., 3, 3) array, optional
        rotation of the centre-of-mass frame in the body frame (default identity)

    Returns
    -------
    I : (..., 6, 6) array

    Examples
    --------
    >>> I = spatial_inertia(2.0, [0.0, 0.0, 1.0], np.eye(3))
    >>> I[:3, :3]                        # Ic + m [p]^T [p]: parallel-axis theorem
    array([[3., 0., 0.],
           [0., 3., 0.],
           [0., 0., 1.]])
    """
    m = _non_negative("mass", _checks.array("mass", mass, ()))
    p = _checks.array("com", com, (3,))
    Ic = _checks.array("I_com", I_com, (3, 3))
    if R is not None:
        R = _checks.array("R", R, (3, 3))
    shapes = {"mass": m.shape, "com": p.shape[:-1], "I_com": Ic.shape[:-2]}
    if R is not None:
        shapes["R"] = R.shape[:-2]
    batch = _checks.batch_shape(shapes)
    floor = 0.0 if object in (m.dtype, Ic.dtype) else _floor(1e-9, 0.0, m.real)
    Ic = _check_rotational("I_com", Ic, 1e-9, floor, massless=m == 0)
    if R is not None:
        Ic = _checks.rotation("R", R) @ Ic @ transpose(R)
    m = np.broadcast_to(m, batch)[..., None, None]
    P = np.broadcast_to(skew(p), batch + (3, 3))
    Ic = np.broadcast_to(Ic, batch + (3, 3))
    return blocks(Ic + m * transpose(P) @ P, m * P, m * transpose(P),
                  m * np.eye(3, dtype=int))


def check_inertia(I, name="I", tol=1e-9):
    """Validate generalized inertias (Kim (2012), eq. (20)); return them unchanged.

    Finite and symmetric; lower-right block ``m 1``, ``m >= 0``; upper-right block
    ``m [c]`` skew; ``Ibar - m [c]^T [c]`` positive semi-definite with principal
    moments obeying the triangle inequalities. ``m = 0`` is a massless link: its
    upper-right block is zero and ``Ibar`` (rotational inertia only, or none) need
    only be positive semi-definite (a lumped rotor, as Pinocchio and the Robotics
    Toolbox accept it); forward dynamics refuse it only where a pivot is singular,
    naming the body. Tolerances: ``tol`` times the size of the block concerned (so
    units do not matter), with a floor that accepts a point mass or a thin rod.
    Object (sympy) arrays are only shape-checked.

    Parameters
    ----------
    I : (..., 6, 6) array
    name : str, the argument name in error messages
    tol : float, relative tolerance

    Returns
    -------
    I : (..., 6, 6) array; a ``ValueError`` names ``name`` and the failed condition

    Examples
    --------
    >>> I = check_inertia(spatial_inertia(1.0, [0.1, 0.0, 0.0], np.eye(3)))
    >>> check_inertia(-I, name="I_body")
    Traceback (most recent call last):
    ...
    ValueError: argument 'I_body': mass must be positive or zero, got -1
    >>> Ibar = np.diag([0.35, 0.0, 0.0])                # a rotor, no mass
    >>> I0 = check_inertia(np.block([[Ibar, np.zeros((3, 3))], [np.zeros((3, 6))]]))
    """
    I = _checks.array(name, I, (6, 6))
    if I.dtype == object:
        return I
    Ir = I.real
    # block scales: kg m^2 (upper left), kg (lower right), their mean (kg m)
    s_ang, s_lin = _scale(Ir[..., :3, :3]), _scale(Ir[..., 3:, 3:])
    floor = _floor(tol, s_ang, s_lin)
    tol_ang, tol_lin = np.maximum(tol * s_ang, floor), tol * s_lin
    tol_mix = np.sqrt(tol_ang * tol_lin)
    A = np.abs(Ir - transpose(Ir))
    asym = np.max(A, axis=(-1, -2))
    if np.any((np.max(A[..., :3, :3], axis=(-1, -2)) > tol_ang)
              | (np.max(A[..., 3:, 3:], axis=(-1, -2)) > tol_lin)
              | (np.max(A[..., :3, 3:], axis=(-1, -2)) > tol_mix)):
        raise ValueError(f"argument '{name}': not symmetric (max |I - I^T| = "
                         f"{np.max(asym):.3g})")
    M = Ir[..., 3:, 3:]
    m = np.trace(M, axis1=-2, axis2=-1) / 3
    if np.any(m < 0):
        raise ValueError(f"argument '{name}': mass must be positive or zero, got "
                         f"{np.min(m):g}")
    massless = m == 0
    off = np.max(np.abs(M - m[..., None, None] * np.eye(3)), axis=(-1, -2))
    if np.any(off > tol_lin):
        raise ValueError(f"argument '{name}': lower-right block must be m * "
                         f"identity (max deviation {np.max(off):.3g})")
    B = Ir[..., :3, 3:]
    nonskew = np.max(np.abs(B + transpose(B)), axis=(-1, -2))
    if np.any(nonskew > tol_mix):
        raise ValueError(f"argument '{name}': upper-right block must be m [c], "
                         f"skew-symmetric (max |B + B^T| = {np.max(nonskew):.3g})")
    moment = np.max(np.abs(B), axis=(-1, -2))
    if np.any(massless & (moment > tol_ang)):
        raise ValueError(f"argument '{name}': a massless link (m = 0) has no first "
                         f"moment m [c], got max |B| = {np.max(moment):.3g}")
    Ic = (Ir[..., :3, :3]
          - transpose(B) @ B / np.where(massless, 1.0, m)[..., None, None])
    try:
        _check_rotational(name, Ic, tol, floor, massless)
    except ValueError as err:
        raise ValueError(str(err).replace("rotational inertia", "rotational "
                                                                "inertia about the "
                                          "centre of mass", 1)) from None
    return I


def transform_inertia(I, T):
    """Change of body frame of an inertia: ``I_b = Ad*_{T_ab} I_a Ad_{T_ab}``.

    Kim (2012), eq. (21): the kinetic energy is invariant under ``V_a = Ad_{T_ab}
    V_b`` (Kim eq. (11)).

    Parameters
    ----------
    I : (..., 6, 6) array, ``I_a`` in frame {a}
    T : (..., 4, 4) array, ``T_ab``: frame {b} seen from {a}

    Returns
    -------
    I_b : (..., 6, 6) array, the same inertia in frame {b}

    Examples
    --------
    >>> from liedyn.lie import make_transform
    >>> I_com = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    >>> # body frame 1 m below the COM
    >>> T = make_transform(np.eye(3), [0.0, 0.0, -1.0])
    >>> np.allclose(transform_inertia(I_com, T),
    ...             spatial_inertia(2.0, [0, 0, 1.0], np.eye(3)))
    True
    """
    I = _checks.array("I", I, (6, 6))
    return Ad_star(T) @ I @ Ad(T)


def kinetic_energy(I, V):
    """Kinetic energy ``e = V^T I V / 2`` of a rigid body (Kim (2012), eq. (15)).

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia in the body frame
    V : (..., 6) array, body twist in the same frame

    Returns
    -------
    e : (...) array

    Examples
    --------
    >>> I = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    >>> # (1 * 1 + 2 * 9) / 2
    >>> float(kinetic_energy(I, [0.0, 0.0, 1.0, 3.0, 0.0, 0.0]))
    9.5
    """
    I = _checks.array("I", I, (6, 6))
    V = _checks.array("V", V, (6,))
    return np.sum(V * momentum(I, V), axis=-1) / 2


def momentum(I, V):
    """Generalized momentum ``L = I V`` (Kim (2012), eq. (23)), a wrench-like
    element of dse(3): ``L_b = Ad*_{T_ab} L_a`` (Kim eq. (24)).

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia in the body frame
    V : (..., 6) array, body twist

    Returns
    -------
    L : (..., 6) array, (angular, linear) momentum in the body frame

    Examples
    --------
    >>> I = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    >>> momentum(I, [0.0, 0.0, 1.0, 3.0, 0.0, 0.0])
    array([0., 0., 1., 6., 0., 0.])
    """
    I = _checks.array("I", I, (6, 6))
    V = _checks.array("V", V, (6,))
    return (I @ V[..., None])[..., 0]


# --- Rotational inertias of homogeneous solids, about the centre of mass ----------
def _diagonal(m, d):
    """``m diag(d)`` for diagonals ``d`` (..., 3)."""
    d = np.asarray(m)[..., None] * d
    J = np.zeros(d.shape + (3,), dtype=d.dtype)
    for k in range(3):
        J[..., k, k] = d[..., k]
    return J


def box_inertia(mass, size):
    """A box's ``m / 12 diag(b^2 + c^2, a^2 + c^2, a^2 + b^2)``, edges
    ``size = (a, b, c)`` (..., 3) along x, y, z; ``mass`` (...). Returns (..., 3,
    3).

    >>> box_inertia(12.0, [1.0, 2.0, 3.0])
    array([[13.,  0.,  0.],
           [ 0., 10.,  0.],
           [ 0.,  0.,  5.]])
    """
    m = _positive("mass", _checks.array("mass", mass, ()))
    s2 = _positive("size", _checks.array("size", size, (3,))) ** 2
    d = np.stack(
        [s2[..., 1] + s2[..., 2], s2[..., 0] + s2[..., 2], s2[..., 0] + s2[..., 1]],
        -1)
    return _diagonal(m, d / 12)


def cylinder_inertia(mass, radius, length):
    """A solid cylinder along z: ``Ixx = Iyy = m (3 r^2 + l^2) / 12``,
    ``Izz = m r^2 / 2``; arguments (...), returns (..., 3, 3).

    >>> cylinder_inertia(12.0, 1.0, 3.0)
    array([[12.,  0.,  0.],
           [ 0., 12.,  0.],
           [ 0.,  0.,  6.]])
    """
    m = _positive("mass", _checks.array("mass", mass, ()))
    r2 = _positive("radius", _checks.array("radius", radius, ())) ** 2
    l2 = _positive("length", _checks.array("length", length, ())) ** 2
    r2, l2 = np.broadcast_arrays(r2, l2)
    side = (3 * r2 + l2) / 12
    return _diagonal(m, np.stack([side, side, r2 / 2], axis=-1))


def sphere_inertia(mass, radius):
    """A solid ball: ``2 m r^2 / 5 * 1``; arguments (...), returns (..., 3, 3).

    >>> sphere_inertia(5.0, 1.0)
    array([[2., 0., 0.],
           [0., 2., 0.],
           [0., 0., 2.]])
    """
    m = _positive("mass", _checks.array("mass", mass, ()))
    r2 = _positive("radius", _checks.array("radius", radius, ())) ** 2
    return _diagonal(m, np.stack([r2, r2, r2], axis=-1) * 2 / 5)


def rod_inertia(mass, length):
    """A thin rod along z: ``m l^2 / 12 diag(1, 1, 0)``, on the boundary of the
    triangle inequality; arguments (...), returns (..., 3, 3).

    >>> rod_inertia(12.0, 1.0)
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 0.]])
    """
    m = _positive("mass", _checks.array("mass", mass, ()))
    l2 = _positive("length", _checks.array("length", length, ())) ** 2
    return _diagonal(m, np.stack([l2, l2, 0 * l2], axis=-1) / 12)


# --- The ten inertial parameters --------------------------------------------------
def to_parameters(I):
    """The inertial parameters ``pi = (m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)``.

    The rotational inertia is ``Ibar`` of Kim (2012), eq. (20), about the body-frame
    origin; Pinocchio's order (``toDynamicParameters``). Eq. (31) is linear in pi.

    Parameters
    ----------
    I : (..., 6, 6) array

    Returns
    -------
    pi : (..., 10) array

    Examples
    --------
    >>> I = spatial_inertia(2.0, [0.0, 0.0, 1.0], np.eye(3))
    >>> to_parameters(I)
    array([2., 0., 0., 2., 3., 0., 3., 0., 0., 1.])
    """
    I = _checks.array("I", I, (6, 6))
    m = np.trace(I[..., 3:, 3:], axis1=-2, axis2=-1) / 3
    mc = unskew(I[..., :3, 3:])
    J = I[..., :3, :3]
    return np.stack([m, mc[..., 0], mc[..., 1], mc[..., 2],
                     J[..., 0, 0], J[..., 0, 1], J[..., 1, 1],
                     J[..., 0, 2], J[..., 1, 2], J[..., 2, 2]], axis=-1)


def from_parameters(pi):
    """Inverse of :func:`to_parameters`: the inertia (Kim (2012), eq. (20)) of
    ``pi``.

    Parameters
    ----------
    pi : (..., 10) array, ``(m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)``

    Returns
    -------
    I : (..., 6, 6) array, not validated (see :func:`check_inertia`)

    Examples
    --------
    >>> pi = np.array([2.0, 0.0, 0.0, 2.0, 3.0, 0.0, 3.0, 0.0, 0.0, 1.0])
    >>> np.allclose(from_parameters(pi),
    ...             spatial_inertia(2.0, [0.0, 0.0, 1.0], np.eye(3)))
    True
    """
    pi = _checks.array("pi", pi, (10,))
    m, mc = pi[..., 0], pi[..., 1:4]
    xx, xy, yy, xz, yz, zz = (pi[..., k] for k in range(4, 10))
    J = np.stack([np.stack([xx, xy, xz], -1),
                  np.stack([xy, yy, yz], -1),
                  np.stack([xz, yz, zz], -1)], axis=-2)
    C = skew(mc)
    return blocks(J, C, transpose(C), m[..., None, None] * np.eye(3, dtype=int))
