"""Dynamics of a single rigid body: Kim (2012), Section 1.5, and From (2012),
Sections 3-4, derived in :ref:`sec-rigid-body-dynamics` and :ref:`sec-lagrangian`.

``V = (w, v)`` is the body twist, ``F = (m, f)`` the net wrench on the body and
``I`` the generalized inertia, all in the body frame; the equation of motion is
``F = I dV - ad*_V I V`` (Kim eq. (31)). From's single-body models live on subgroups
of SE(3) with twists ``V = H v`` (a constant 6 x m selection ``H``); ``v`` keeps
liedyn's angular-first order and :data:`GROUPS` records the permutation to From's
(linear-first) order. The integrators move ``T`` only by exponentials, so it stays
on the group. Every function takes leading batch dimensions (they must broadcast);
the branch-free ones (``newton_euler``, ``bias_force``, ``ad_tilde``,
``reduced_inertia``, ``coriolis_matrix``, ``coriolis_index_formula``) run on sympy
object arrays, unvalidated.
"""
from collections import namedtuple

import numpy as np

from . import _checks
from .dexp import dexp, dexp_inv
from .inertia import check_inertia
from .lie import Ad_star, ad_star, exp_se3, inverse, skew

__all__ = ["newton_euler", "bias_force", "body_acceleration", "spatial_momentum",
           "kirchhoff", "Group", "GROUPS", "group", "helical_group",
           "reduced_inertia", "ad_tilde", "coriolis_matrix", "velocity_map",
           "velocity_map_derivative", "coriolis_index_formula", "lie_euler_step",
           "rkmk4_step", "simulate"]


# --- The equation of motion (31) and its inverse ----------------------------------
def _matvec(A, x):
    return (A @ x[..., None])[..., 0]


def _check_invertible(name, M, what="inertia"):
    """Raise ``ValueError`` if an inertia (..., n, n) has an eigenvalue <= 1e-12 of
    its largest entry (a point mass, a thin rod); object arrays pass.
    """
    if M.dtype == object or M.size == 0:
        return M
    Mr = M.real
    lam = np.linalg.eigvalsh((Mr + np.swapaxes(Mr, -1, -2)) / 2)[..., 0]
    scale = np.max(np.abs(Mr), axis=(-1, -2))
    if np.any(lam <= 1e-12 * scale):
        k = np.unravel_index(np.argmin(lam / scale), lam.shape)
        raise ValueError(f"argument '{name}': the {what} is singular (smallest "
                         f"eigenvalue {lam[k]:.3g}, largest entry {scale[k]:.3g}), "
                         "so the acceleration is not determined: a point mass has "
                         f"no rotational inertia, a thin rod none about its axis")
    return M


def _batch(**arrays):
    """Check that the batch shapes of ``{name: (array, trailing axes)}``
    broadcast."""
    return _checks.batch_shape({k: a.shape[:a.ndim - n]
                                for k, (a, n) in arrays.items()})


def bias_force(I, V):
    """The velocity-product (Coriolis and centrifugal) term ``-ad*_V I V``.

    Kim (2012), eq. (31): ``F = I dV + bias_force(I, V)``.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia
    V : (..., 6) array, body twist

    Returns
    -------
    b : (..., 6) array, a wrench in the body frame

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(1.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    >>> bias_force(I, [1.0, 1.0, 0.0, 0.0, 0.0, 0.0])   # w x (J w) = (0, 0, 1)
    array([0., 0., 1., 0., 0., 0.])
    """
    I = _checks.array("I", I, (6, 6))
    V = _checks.array("V", V, (6,))
    _batch(I=(I, 2), V=(V, 1))
    return -_matvec(ad_star(V), _matvec(I, V))


def newton_euler(I, V, dV):
    """The wrench ``F = I dV - ad*_V I V`` that produces the acceleration ``dV``.

    Kim (2012), eq. (31): ``F = dL/dt`` (Kim eq. (30)) with ``L = I V`` (Kim eq.
    (23)) differentiated in the moving frame by Lemma 2 (Kim eq. (28)).

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia (validated unless symbolic)
    V : (..., 6) array, body twist
    dV : (..., 6) array, its component-wise time derivative

    Returns
    -------
    F : (..., 6) array, net wrench on the body

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    >>> newton_euler(I, np.zeros(6), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0])   # f = m a
    array([0., 0., 0., 0., 0., 2.])
    """
    I = check_inertia(I)
    V = _checks.array("V", V, (6,))
    dV = _checks.array("dV", dV, (6,))
    _batch(I=(I, 2), V=(V, 1), dV=(dV, 1))
    return _matvec(I, dV) + bias_force(I, V)


def body_acceleration(I, V, F):
    """Inverse of :func:`newton_euler`: ``dV = I^-1 (F + ad*_V I V)``.

    Kim (2012), eq. (31) solved for ``dV``; a singular inertia (a point mass, a thin
    rod) raises ``ValueError``, since ``dV`` is then not determined.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia, positive definite
    V : (..., 6) array, body twist
    F : (..., 6) array, net wrench on the body

    Returns
    -------
    dV : (..., 6) array

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    >>> body_acceleration(I, np.zeros(6), [0.0, 0.0, 0.0, 0.0, 0.0, 2.0])
    array([0., 0., 0., 0., 0., 1.])
    """
    I = _check_invertible("I", check_inertia(I))
    V = _checks.array("V", V, (6,))
    F = _checks.array("F", F, (6,))
    _batch(I=(I, 2), V=(V, 1), F=(F, 1))
    rhs = F - bias_force(I, V)
    if I.dtype == object:
        import sympy
        batch = np.broadcast_shapes(I.shape[:-2], rhs.shape[:-1])
        I = np.broadcast_to(I, batch + (6, 6))
        rhs = np.broadcast_to(rhs, batch + (6,))
        out = np.empty(rhs.shape, dtype=object)
        for idx in np.ndindex(I.shape[:-2]):
            x = sympy.Matrix(I[idx]).LUsolve(sympy.Matrix(rhs[idx]))
            out[idx] = np.array(x).ravel()
        return out
    return np.linalg.solve(I, rhs[..., None])[..., 0]


def spatial_momentum(I, T, V):
    """The momentum in the inertial frame, ``L_s = Ad*_{T^-1} I V``: constant for a
    free body.

    Kim (2012), eqs. (23)-(24) with ``T = T_sb`` and ``L_b = Ad*_T L_s``.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia
    T : (..., 4, 4) array, pose of the body in the inertial frame
    V : (..., 6) array, body twist

    Returns
    -------
    L_s : (..., 6) array, (angular momentum about the origin, linear momentum)

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> from liedyn.lie import make_transform
    >>> I = spatial_inertia(1.0, np.zeros(3), np.eye(3))
    >>> T = make_transform(np.eye(3), [0.0, 1.0, 0.0])
    >>> spatial_momentum(I, T, [0.0, 0.0, 0.0, 1.0, 0.0, 0.0])   # r x p = -z
    array([ 0.,  0., -1.,  1.,  0.,  0.])
    """
    I = _checks.array("I", I, (6, 6))
    V = _checks.array("V", V, (6,))
    return _matvec(Ad_star(inverse(T)), _matvec(I, V))


def kirchhoff(I, V, dV):
    """The wrench ``(tau_w, tau_v)`` from Kirchhoff's equations.

    From (2012), eqs. (9)-(10), with ``(p_m, p_f) = I V`` and ``d/dt p = I dV``:
    ``tau_v = d/dt p_f + w x p_f``, ``tau_w = d/dt p_m + v x p_f + w x p_m``. This
    is Kim (2012), eq. (31) component by component, and From's Boltzmann-Hamel
    equations (From eq. (26)) at ``phi = 0``.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia
    V : (..., 6) array, body twist
    dV : (..., 6) array, its time derivative

    Returns
    -------
    F : (..., 6) array

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(1.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    >>> V, dV = np.array([1.0, 1.0, 0.0, 0.0, 0.0, 0.0]), np.zeros(6)
    >>> np.allclose(kirchhoff(I, V, dV), newton_euler(I, V, dV))
    True
    """
    I = check_inertia(I)
    V = _checks.array("V", V, (6,))
    dV = _checks.array("dV", dV, (6,))
    _batch(I=(I, 2), V=(V, 1), dV=(dV, 1))
    w, v = V[..., :3], V[..., 3:]
    p, dp = _matvec(I, V), _matvec(I, dV)
    p_m, p_f = p[..., :3], p[..., 3:]
    tau_v = dp[..., 3:] + _matvec(skew(w), p_f)              # From (2012), eq. (9)
    tau_w = (dp[..., :3] + _matvec(skew(v), p_f)
             + _matvec(skew(w), p_m))                        # From (2012), eq. (10)
    return np.concatenate([tau_w, tau_v], axis=-1)


# --- From (2012): single bodies on subgroups of SE(3) -----------------------------
Group = namedtuple("Group", "name H from_order description")
Group.__doc__ = """A subgroup of SE(3) as a configuration space (From (2012),
Definition 4.1-4.2): ``V = H v`` (From eq. (58)) with ``H`` (6 x m) in (w, v) order;
``v_from = v[from_order]`` in From's linear-first order."""


def _selection(columns):
    return np.eye(6)[:, list(columns)]


GROUPS = {
    "SO3": Group("SO3", _selection([0, 1, 2]), (0, 1, 2),
                 "rotation about a fixed point, v = (wx, wy, wz)"),
    "SE3": Group("SE3", _selection(range(6)), (3, 4, 5, 0, 1, 2),
                 "free motion, v = (wx, wy, wz, vx, vy, vz)"),
    "SE2": Group("SE2", _selection([2, 3, 4]), (1, 2, 0),
                 "planar motion, v = (wz, vx, vy)"),
    "X": Group("X", _selection([2, 3, 4, 5]), (1, 2, 3, 0),
               "Schoenflies motion, v = (wz, vx, vy, vz)"),
    "R3": Group("R3", _selection([3, 4, 5]), (0, 1, 2),
                "translation, v = (vx, vy, vz)"),
    "R2": Group("R2", _selection([3, 4]), (0, 1),
                "translation in the xy-plane, v = (vx, vy)"),
    "R": Group("R", _selection([5]), (0,),
               "translation along z, v = (vz,)"),
    "SO2": Group("SO2", _selection([2]), (0,),
                 "rotation about the fixed z-axis, v = (wz,)"),
}
"""From (2012), Section 4 and Table 1's configuration spaces by name; ``R2``, ``R``,
``SO2`` (and :func:`helical_group`) are abelian: no Coriolis matrix."""


def group(name):
    """The :class:`Group` called ``name`` (a key of :data:`GROUPS`), or a Group
    itself.

    >>> group("SE2").H.shape
    (6, 3)
    """
    if isinstance(name, Group):
        return name
    return GROUPS[_checks.choice("group", name, tuple(GROUPS))]


def helical_group(pitch):
    """From's helical group: screw motion ``V = (0, 0, 1, 0, 0, pitch) v`` along z.

    From (2012), Section 4.6 and Table 1 (row ``H``): abelian, so ``C = 0``.
    ``pitch`` (the book's ``ell``) is the translation per radian; ``v`` is the
    rotation rate ``w_z``.

    >>> helical_group(0.5).H[:, 0]
    array([0. , 0. , 1. , 0. , 0. , 0.5])
    """
    pitch = float(_checks.array("pitch", pitch, ()))
    H = np.zeros((6, 1))
    H[2, 0], H[5, 0] = 1.0, pitch
    return Group("H", H, (0,), "helical motion along z, "
                               f"pitch {pitch:g}, v = (wz,)")


def _left_inverse(H):
    """``(H^T H)^-1 H^T`` (``= H^T`` for a selection matrix)."""
    return np.linalg.solve(H.T @ H, H.T)


def reduced_inertia(I, group_name):
    """The constant inertia ``M = H^T I H`` (..., m, m) of a body on a subgroup.

    From (2012), eq. (60); ``I`` is (..., 6, 6), ``group_name`` a name or a Group.

    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(2.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    >>> reduced_inertia(I, "SE2")  # diag(Iz, m, m): From (2012), eq. (86) reordered
    array([[3., 0., 0.],
           [0., 2., 0.],
           [0., 0., 2.]])
    """
    H = group(group_name).H
    I = _checks.array("I", I, (6, 6))
    return H.T @ I @ H


def ad_tilde(p):
    """From's matrix ``ad~_p = -[[ [p_m], [p_f] ], [ [p_f], 0 ]]``.

    From (2012), eq. (73) and Table 1, in (w, v) order: skew-symmetric, with
    ``ad~_p Y = -ad*_Y p`` (From's Lemma 5.1).

    Parameters
    ----------
    p : (..., 6) array, a momentum or wrench ``(m, f)``

    Returns
    -------
    K : (..., 6, 6) array

    Examples
    --------
    >>> p, Y = np.arange(1.0, 7.0), np.array([0.5, -1.0, 2.0, 0.0, 1.0, 3.0])
    >>> np.allclose(ad_tilde(p) @ Y, -ad_star(Y) @ p)
    True
    """
    p = _checks.array("p", p, (6,))
    Pm, Pf = skew(p[..., :3]), skew(p[..., 3:])
    top = np.concatenate([-Pm, -Pf], axis=-1)
    bottom = np.concatenate([-Pf, np.zeros_like(Pf)], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def coriolis_matrix(I, v, group_name="SE3"):
    """From's Coriolis matrix ``C(v) = H^T ad~_{I H v} H`` of a body on a subgroup.

    From (2012), Proposition 3.1, From's eq. (57) at ``phi = 0`` gives
    ``C_ij = (I H v) . [H e_i, H e_j]`` (From eqs. (68), (74), (82), (93)); then
    ``M dv + C(v) v = H^T F`` is Kim's eq. (31) restricted to the group.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia
    v : (..., m) array, reduced velocity, ``V = H v``
    group_name : str or Group

    Returns
    -------
    C : (..., m, m) array, skew-symmetric

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(1.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    >>> coriolis_matrix(I, [1.0, 0.0, 0.0], "SO3")  # -[M w]: From (2012), eq. (68)
    array([[ 0.,  0.,  0.],
           [ 0.,  0.,  1.],
           [ 0., -1.,  0.]])
    """
    H = group(group_name).H
    I = _checks.array("I", I, (6, 6))
    v = _checks.array("v", v, (H.shape[1],))
    return H.T @ ad_tilde(_matvec(I, _matvec(H, v))) @ H


def velocity_map(phi, group_name="SE3"):
    """From's ``S(phi)``, with ``v = S(phi) dphi`` for ``Q = Qbar exp(phi)``.

    From (2012), eqs. (29), (55): ``S = 1 - ad_phi/2 + ad_phi^2/6 - ...``, the right
    Jacobian of the exponential, ``H^+ dexp(H phi, side="right") H``.

    Parameters
    ----------
    phi : (..., m) array, local exponential coordinates (float or complex)
    group_name : str or Group

    Returns
    -------
    S : (..., m, m) array

    Examples
    --------
    >>> np.allclose(velocity_map(np.zeros(3), "SO3"), np.eye(3))
    True
    """
    H = group(group_name).H
    phi = _checks.array("phi", phi, (H.shape[1],))
    return _left_inverse(H) @ dexp(_matvec(H, phi), side="right") @ H


def velocity_map_derivative(group_name="SE3", h=1e-20):
    """``dS[k, i, j] = dS_ij / dphi_k`` (m, m, m) of :func:`velocity_map` at 0.

    The derivatives in From (2012), eq. (57), by complex step ``Im S(i h e_k) / h``.

    >>> dS = velocity_map_derivative("SO3")
    >>> np.allclose(dS[2], -skew([0.0, 0.0, 1.0]) / 2)        # -ad_{e_z} / 2
    True
    """
    m = group(group_name).H.shape[1]
    return velocity_map(1j * h * np.eye(m), group_name).imag / h


def coriolis_index_formula(dS, p, form="from2012"):
    """A Coriolis matrix from the derivatives of ``S(phi)`` at ``phi = 0``.

    ``form="from2012"``: From (2012), eq. (57),
    ``C_ij = sum_k (dS_ki/dphi_j - dS_kj/dphi_i) p_k``. ``form="duindam2008"``:
    Duindam and Stramigioli (2008), eq. (26) (From eq. (33) at ``phi = 0``),
    ``C_ij = sum_s (dS_ji/dphi_s - dS_js/dphi_i) p_s``, which contracts ``p`` with
    the differentiation index and gives the wrong ``C = -ad_p^T`` (From eq. (36)).

    Parameters
    ----------
    dS : (m, m, m) array, from :func:`velocity_map_derivative`
    p : (..., m) array, the reduced momentum ``M v``
    form : {"from2012", "duindam2008"}

    Returns
    -------
    C : (..., m, m) array

    Examples
    --------
    >>> dS = velocity_map_derivative("SE3")
    >>> p = np.arange(1.0, 7.0)
    >>> np.allclose(coriolis_index_formula(dS, p), ad_tilde(p))
    True
    """
    dS = np.asarray(dS)
    p = _checks.array("p", p, (dS.shape[0],))
    _checks.choice("form", form, ("from2012", "duindam2008"))
    if form == "from2012":
        # dS_ki/dphi_j = dS[j, k, i]
        return (np.einsum("jki,...k->...ij", dS, p)
                - np.einsum("ikj,...k->...ij", dS, p))
    # dS_ji/dphi_s = dS[s, j, i];  dS_js/dphi_i = dS[i, j, s]
    return np.einsum("sji,...s->...ij", dS, p) - np.einsum("ijs,...s->...ij", dS, p)


# --- Integration of a free body on SE(3) ------------------------------------------
def _wrench(F, t, T, V):
    if F is None:
        return np.zeros_like(V)
    if callable(F):
        return _checks.array("F(t, T, V)", F(t, T, V), (6,))
    return F


def _acceleration(I, V, F, H):
    """Eq. (31) solved for dV; on a subgroup ``dV = H (H^T I H)^-1 H^T rhs``."""
    rhs = F - bias_force(I, V)
    if H is None:
        return np.linalg.solve(I, rhs[..., None])[..., 0]
    dv = np.linalg.solve(H.T @ I @ H, (H.T @ rhs[..., None]))
    return (H @ dv)[..., 0]


def _rkmk4(I, T, V, dt, F, t, H):
    """RKMK4 step without validation (see :func:`rkmk4_step`)."""
    def rates(phi, W, s):
        # the pose is needed only by F(t, T, V)
        Ts = T @ exp_se3(phi) if callable(F) else T
        dphi = W if s == 0 else _matvec(dexp_inv(phi, side="right"), W)
        return dphi, _acceleration(I, W, _wrench(F, t + s, Ts, W), H)

    k1 = rates(np.zeros_like(V), V, 0)
    k2 = rates(dt / 2 * k1[0], V + dt / 2 * k1[1], dt / 2)
    k3 = rates(dt / 2 * k2[0], V + dt / 2 * k2[1], dt / 2)
    k4 = rates(dt * k3[0], V + dt * k3[1], dt)
    phi = dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
    dV = dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
    return T @ exp_se3(phi), V + dV


def _lie_euler(I, T, V, dt, F, t, H):
    """Lie-Euler step without validation (see :func:`lie_euler_step`)."""
    dV = _acceleration(I, V, _wrench(F, t, T, V), H)
    return T @ exp_se3(dt * V), V + dt * dV


_METHODS = {"rkmk4": _rkmk4, "lie_euler": _lie_euler}


def _prepare(I, T, V, F, group_name, names=("T", "V")):
    """The integrators' inputs, validated and broadcast, and H (None for SE(3))."""
    I = check_inertia(I)
    T = _checks.homogeneous(names[0], T)
    V = _checks.array(names[1], V, (6,))
    if F is not None and not callable(F):
        F = _checks.array("F", F, (6,))
        _batch(I=(I, 2), **{names[0]: (T, 2), names[1]: (V, 1)}, F=(F, 1))
    batch = _batch(I=(I, 2), **{names[0]: (T, 2), names[1]: (V, 1)})
    T, V = np.broadcast_to(T, batch + (4, 4)), np.broadcast_to(V, batch + (6,))
    H = group(group_name).H
    if H.shape[1] == 6:
        return _check_invertible("I", I), T, V, F, None
    _check_invertible("I", reduced_inertia(I, group_name),
                      f"reduced inertia H^T I H on {group(group_name).name}")
    projected = _matvec(H @ _left_inverse(H), V)
    off = 0.0 if V.dtype == object else np.max(np.abs(V - projected), initial=0.0)
    if off > 1e-12 * max(1.0, np.max(np.abs(V), initial=0.0)):
        raise ValueError(f"argument '{names[1]}': has components outside the Lie "
                         f"algebra of {group(group_name).name} (largest "
                         f"{off:.3g}); "
                         "use V = H v")
    return I, T, V, F, H


def lie_euler_step(I, T, V, dt, F=None, t=0.0, group_name="SE3"):
    """One Lie-Euler step, order 1: ``T+ = T exp(dt V)``, ``V+ = V + dt dV``.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia
    T : (..., 4, 4) array, pose of the body
    V : (..., 6) array, body twist, in the group's Lie algebra (``V = H v``)
    dt, t : float, time step and current time
    F : None, (..., 6) array or callable ``F(t, T, V)``, external wrench
    group_name : str or Group, the configuration space

    Returns
    -------
    T_next, V_next : (..., 4, 4) and (..., 6) arrays

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(1.0, np.zeros(3), np.eye(3))
    >>> T, V = lie_euler_step(I, np.eye(4), [0.0, 0.0, 0.0, 1.0, 0.0, 0.0], 0.5)
    >>> T[:3, 3]
    array([0.5, 0. , 0. ])
    """
    I, T, V, F, H = _prepare(I, T, V, F, group_name)
    return _lie_euler(I, T, V, dt, F, t, H)


def rkmk4_step(I, T, V, dt, F=None, t=0.0, group_name="SE3"):
    """One Runge-Kutta-Munthe-Kaas step of order 4 on the group.

    With ``T(t + s) = T exp(phi(s))``, RK4 integrates from ``phi(0) = 0`` the ODEs
    ``dphi/ds = dexp_inv(phi, side="right") V`` and ``dV/ds = I^-1 (F + ad*_V I V)``
    (Kim (2012), eq. (31); on a subgroup ``H (H^T I H)^-1 H^T (...)``, From (2012),
    eq. (48)); then ``T+ = T exp(phi(dt))``.

    Parameters
    ----------
    I, T, V, dt, F, t, group_name
        as in :func:`lie_euler_step`

    Returns
    -------
    T_next, V_next : (..., 4, 4) and (..., 6) arrays

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(1.0, np.zeros(3), np.eye(3))
    >>> T, V = rkmk4_step(I, np.eye(4), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0], np.pi / 2)
    >>> np.round(T[:3, :3], 12)  # a quarter turn about z, exact: phi stays along V
    array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]])
    """
    I, T, V, F, H = _prepare(I, T, V, F, group_name)
    return _rkmk4(I, T, V, dt, F, t, H)


def simulate(I, T0, V0, dt, steps, F=None, method="rkmk4", group_name="SE3"):
    """Integrate a rigid body from ``(T0, V0)`` for ``steps`` steps of size ``dt``.

    Parameters
    ----------
    I : (..., 6, 6) array, generalized inertia (its ``H^T I H`` must be invertible)
    T0, V0 : (..., 4, 4) and (..., 6) arrays, initial pose and body twist
    dt : float
    steps : int
    F : None, (..., 6) array or callable ``F(t, T, V)``, external wrench
    method : {"rkmk4", "lie_euler"}
    group_name : str or Group, e.g. ``"SE3"`` (free) or ``"SO3"`` (a pendulum)

    Returns
    -------
    T, V : (steps + 1, ..., 4, 4) and (steps + 1, ..., 6) arrays

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia, kinetic_energy
    >>> I = spatial_inertia(1.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    >>> T, V = simulate(I, np.eye(4), [0.1, 2.0, 0.1, 0.0, 0.0, 0.0], 0.01, 100)
    >>> bool(abs(kinetic_energy(I, V[-1]) - kinetic_energy(I, V[0])) < 1e-9)
    True
    """
    step = _METHODS[_checks.choice("method", method, tuple(_METHODS))]
    I, T, V, F, H = _prepare(I, T0, V0, F, group_name, names=("T0", "V0"))
    Ts, Vs = [T], [V]
    for n in range(int(steps)):
        T, V = step(I, T, V, dt, F, n * dt, H)
        Ts.append(T)
        Vs.append(V)
    return np.stack(Ts), np.stack(Vs)
