"""The equations of motion of a serial chain in closed form, with stacked matrices.

Murray, Li and Sastry, Ch. 4 notes (Li and Wu), slides "Coordinate invariance of
Newton-Euler equations": the forward and backward recursions of the Newton-Euler
algorithm, written for all ``n`` links at once, give

    ``V  = G P_0 V_0 + G xi dq``
    ``dV = G xi ddq + G P_0 dV_0 + G ad_{xi dq} P_0 V_0 + G ad_{xi dq} Gamma V``
    ``F  = G^T Mb dV + G^T ad_V^T Mb V``,       ``tau = xi^T F``

and so ``M(q) ddq + C(q, dq) dq + phi(q) = tau`` with

    ``M   = xi^T G^T Mb G xi``
    ``C   = xi^T G^T (Mb G ad_{xi dq} Gamma + ad_V^T Mb) G xi``
    ``phi = xi^T G^T Mb G P_0 dV_0``.

The notes order twists ``(v, w)``; here they are ``(w, v)`` as everywhere in liedyn,
which changes no formula (every operator is conjugated by the same permutation).
Their link frame ``C_i`` is our body frame ``{i}``, their
``g_{i-1,i}(q_i) = g_{i-1,i}(0) exp(xi_i q_i)`` is our
``T_{lambda(i),i} = X_i J_i(q_i)``, their ``xi_i`` is our constant joint Jacobian
``S_i`` and their ``M_i`` is our generalized inertia ``I_i`` (Kim eq. (20) of Kim
(2012)). Two of their stacked symbols carry a minus sign inside:
``ad_{xi dq} = diag(-ad_{xi_i dq_i})`` and ``ad_V^T = diag(-ad_{V_i}^T)``.

Only serial chains of one-degree-of-freedom joints with a constant screw axis
(revolute, prismatic, helical, screw) fit this form; anything else raises
``ValueError``. The matrices are ``6n x 6n``: this is a teaching path, checked
against the recursive algorithms, not a fast one.

Derived in :ref:`sec-equations-of-motion`.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from . import joints as J
from ._spatial import Ad_inv_matrix, skew
from .kinematics import joint_transforms, world_poses
from .lie import Ad, Ad_inv, ad, exp_se3, make_transform
from .model import state
from .inverse_dynamics import gravity_acceleration

__all__ = ["ClosedForm", "closed_form_matrices", "Property4", "property4",
           "property2"]

SCREW_JOINTS = (J.Revolute, J.Prismatic, J.Helical, J.Screw)
"""Joint classes with one degree of freedom and ``J(q) = exp(xi q)``, ``xi``
constant."""


@dataclass(frozen=True)
class ClosedForm:
    """The stacked matrices of a serial chain and the terms of its equations of
    motion.

    Murray, Li and Sastry, Ch. 4 notes, slides "Coordinate invariance of
    Newton-Euler equations"; ``n`` is the number of links, every array has the
    leading batch dimensions of ``q``.

    Attributes
    ----------
    xi : (..., 6n, n) array
        block diagonal of the joint twists ``xi_i`` (our ``S_i``), each in its link
        frame
    Gamma : (..., 6n, 6n) array
        ``Ad_{g_{i-1,i}^-1}`` on the first block sub-diagonal, zero elsewhere
    G : (..., 6n, 6n) array
        ``(1 - Gamma)^-1``: block ``(i, j)`` is ``Ad_{g_{j,i}^-1}`` for ``i >= j``
    P0 : (..., 6n, 6) array
        ``(Ad_{g_{0,1}^-1}, 0, ..., 0)``: brings the ground's twist into link 1
    Mb : (6n, 6n) array
        block diagonal of the generalized inertias ``I_i`` (the notes' script M)
    V : (..., 6n) array
        stacked body twists ``G xi dq``
    ad_xi_dq : (..., 6n, 6n) array
        ``diag(-ad_{xi_i dq_i})`` (sign included, as in the notes)
    ad_V_T : (..., 6n, 6n) array
        ``diag(-ad_{V_i}^T)`` (sign included, as in the notes)
    M : (..., n, n) array
        mass matrix ``xi^T G^T Mb G xi``
    C : (..., n, n) array
        Coriolis matrix ``xi^T G^T (Mb G ad_{xi dq} Gamma + ad_V^T Mb) G xi`` (the
        notes' ``C(q, dq)`` is the vector ``C dq``); ``C dq`` is right, but
        ``dM/dt - 2C`` is not skew in general
    C_christoffel : (..., n, n) array
        ``xi^T G^T (Mb G ad_{xi dq} Gamma + B) G xi`` with the skew blocks
        ``B_i = (I_i ad_{V_i} - ad*_{V_i} I_i - bar(I_i V_i)) / 2`` in place of
        ``-ad_{V_i}^T I_i``: same ``C dq``, ``dM/dt = C + C^T``; equal to
        :func:`liedyn.crba.coriolis_matrix` and to the Christoffel matrix
    phi : (..., n) array
        gravity torques ``xi^T G^T Mb G P_0 dV_0`` with ``dV_0 = (0, -g)``
    Jt : (..., 6, n) array
        Jacobian ``P_t G xi`` of the tool frame,
        ``P_t = (0, ..., 0, Ad_{g_{n,t}^-1})``
    """

    xi: np.ndarray
    Gamma: np.ndarray
    G: np.ndarray
    P0: np.ndarray
    Mb: np.ndarray
    V: np.ndarray
    ad_xi_dq: np.ndarray
    ad_V_T: np.ndarray
    M: np.ndarray
    C: np.ndarray
    C_christoffel: np.ndarray
    phi: np.ndarray
    Jt: np.ndarray


def _T(A):
    return np.swapaxes(A, -1, -2)


def _ad(V):
    """``ad_V`` (..., 6, 6) without validation, dtype-generic (Kim (2012), eq.
    (27))."""
    w, v = skew(V[..., :3]), skew(V[..., 3:])
    return np.concatenate([np.concatenate([w, np.zeros_like(w)], -1),
                           np.concatenate([v, w], -1)], -2)


def _bar(L):
    """``bar(L)`` (..., 6, 6), skew, with ``ad*_V L = bar(L) V``, for ``L`` of shape
    (..., 6, 1)."""
    m, f = skew(L[..., :3, 0]), skew(L[..., 3:, 0])
    return np.concatenate([np.concatenate([m, f], -1),
                           np.concatenate([f, np.zeros_like(f)], -1)], -2)


def check_serial_chain(model):
    """Raise ``ValueError`` unless ``model`` is a serial chain of 1-DOF screw-type
    joints."""
    for i in range(1, model.nbodies + 1):
        if model.parent[i] != i - 1:
            raise ValueError(
                "closed_form_matrices needs a serial chain (parent[i] = i - 1), "
                f"but body {model.names[i]!r} (index {i}) hangs from body "
                f"{model.parent[i]}: the tree form "
                "of Gamma is not the notes' sub-diagonal one; use "
                "liedyn.crba.mass_matrix")
        joint = model.joints[i]
        if not isinstance(joint, SCREW_JOINTS):
            raise ValueError(
                "closed_form_matrices needs one-degree-of-freedom joints with a "
                "constant axis (Revolute, Prismatic, Helical, Screw), but body "
                f"{model.names[i]!r} has {joint!r} (nv = {joint.nv}); use "
                "liedyn.crba.mass_matrix")
    if model.nbodies == 0:
        raise ValueError("closed_form_matrices needs at least one body")


def closed_form_matrices(model, q, dq, tool=None):
    """Stacked matrices ``xi``, ``Gamma``, ``G``, ``P_0`` of a serial chain; ``M``,
    ``C``, ``phi``.

    Murray, Li and Sastry, Ch. 4 notes, slides "Coordinate invariance of
    Newton-Euler equations": ``M = xi^T G^T Mb G xi``,
    ``C = xi^T G^T (Mb G ad_{xi dq} Gamma + ad_V^T Mb) G xi``,
    ``phi = xi^T G^T Mb G P_0 dV_0``, ``J_t = P_t G xi``, with
    ``G = (1 - Gamma)^-1 = 1 + Gamma + ... + Gamma^(n-1)`` (their Property 4, see
    :func:`property4`). ``G`` is built block by block,
    ``G_ij = Ad_{g_{i-1,i}^-1} G_{i-1,j}``, so that the same code runs on float,
    complex and sympy-object arrays. The equations of motion read
    ``M ddq + C dq + phi = tau`` (Kim (2012), eq. (32), without external forces).

    Parameters
    ----------
    model : liedyn.model.Model
        a serial chain (``parent[i] = i - 1``) of Revolute, Prismatic, Helical or
        Screw joints
    q : (..., n) array
        joint positions
    dq : (..., n) array
        joint velocities
    tool : (4, 4) array, optional
        pose ``g_{n,t}`` of a tool frame in the last link's frame (default
        identity), for ``Jt``

    Returns
    -------
    ClosedForm
        ``xi`` (..., 6n, n), ``Gamma``, ``G`` (..., 6n, 6n), ``P0`` (..., 6n, 6),
        ``M``, ``C`` (..., n, n), ``phi`` (..., n), ``Jt`` (..., 6, n), ...

    Raises
    ------
    ValueError
        for a tree, a joint with several (or zero) degrees of freedom or a
        non-constant axis, and for inputs of the wrong shape or with NaN entries.

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> from liedyn.crba import mass_matrix
    >>> model = planar_arm(2)
    >>> cf = closed_form_matrices(model, [0.3, 0.5], [1.0, -2.0])
    >>> cf.G.shape, cf.xi.shape
    ((12, 12), (12, 2))
    >>> bool(np.allclose(cf.M, mass_matrix(model, [0.3, 0.5])))
    True
    """
    check_serial_chain(model)
    batch, dtype, q, dq, _ = state(model, q, dq)
    n = model.nbodies
    R, p = joint_transforms(model, q)
    A = [None] + [np.broadcast_to(Ad_inv_matrix(R[i], p[i]), batch + (6, 6))
                  for i in range(1, n + 1)]                     # Ad_{g_{i-1,i}^-1}
    blk = [slice(6 * i, 6 * i + 6) for i in range(n)]           # block of link i+1

    xi = np.zeros(batch + (6 * n, n), dtype=dtype)
    Gamma = np.zeros(batch + (6 * n, 6 * n), dtype=dtype)
    G = np.zeros_like(Gamma)
    P0 = np.zeros(batch + (6 * n, 6), dtype=dtype)
    P0[..., blk[0], :] = A[1]
    for i in range(n):
        xi[..., blk[i], i] = model.joints[i + 1].S(q[..., i:i + 1])[..., 0]
        G[..., blk[i], blk[i]] = np.eye(6, dtype=int)
        if i > 0:
            Gamma[..., blk[i], blk[i - 1]] = A[i + 1]
            for j in range(i):                                 # G_ij = Ad G_{i-1,j}
                G[..., blk[i], blk[j]] = A[i + 1] @ G[..., blk[i - 1], blk[j]]
    Mb = np.zeros((6 * n, 6 * n))
    for i in range(n):
        Mb[blk[i], blk[i]] = model.inertias[i + 1]

    Gxi = G @ xi
    V = (Gxi @ dq[..., None])[..., 0]                      # V = G xi dq   (V_0 = 0)
    ad_xi_dq = np.zeros_like(Gamma)
    ad_V_T = np.zeros_like(Gamma)
    B = np.zeros_like(Gamma)
    for i in range(n):
        Vi, Ii = V[..., blk[i]], model.inertias[i + 1]
        ad_xi_dq[..., blk[i], blk[i]] = -_ad(xi[..., blk[i], i] * dq[..., i:i + 1])
        ad_V_T[..., blk[i], blk[i]] = -_T(_ad(Vi))
        B[..., blk[i], blk[i]] = (
            Ii @ _ad(Vi) - _T(_ad(Vi)) @ Ii - _bar(Ii @ Vi[..., None])) / 2

    M = _T(Gxi) @ Mb @ Gxi
    MGadG = Mb @ G @ ad_xi_dq @ Gamma
    C = _T(Gxi) @ (MGadG + ad_V_T @ Mb) @ Gxi
    C_christoffel = _T(Gxi) @ (MGadG + B) @ Gxi
    dV0 = gravity_acceleration(model).astype(dtype)
    phi = (_T(Gxi) @ Mb @ G @ P0 @ dV0[:, None])[..., 0]
    Pt = np.zeros(batch + (6, 6 * n), dtype=dtype)
    if tool is None:
        Pt[..., blk[-1]] = np.eye(6, dtype=int)
    else:
        from ._checks import homogeneous
        tool = homogeneous("tool", tool)
        Pt[..., blk[-1]] = Ad_inv_matrix(tool[..., :3, :3], tool[..., :3, 3])
    return ClosedForm(xi, Gamma, G, P0, Mb, V, ad_xi_dq, ad_V_T, M, C,
                      C_christoffel, phi, Pt @ Gxi)


@dataclass(frozen=True)
class Property4:
    """Murray, Li and Sastry, Ch. 4 notes, Property 4, evaluated.

    Attributes
    ----------
    powers : list of (..., 6n, 6n) arrays
        ``Gamma^0 = 1, Gamma^1, ..., Gamma^n``; the last one is zero
    G_series : (..., 6n, 6n) array
        ``1 + Gamma + ... + Gamma^(n-1)``, equal to ``G = (1 - Gamma)^-1``
    """

    powers: list
    G_series: np.ndarray


def property4(Gamma):
    """Powers of ``Gamma`` and the finite Neumann series of ``G``: Property 4 of the
    notes.

    Murray, Li and Sastry, Ch. 4 notes, Property 4: ``Gamma^n = 0`` (``Gamma`` is
    strictly block lower triangular: each power moves its blocks one more step below
    the diagonal), so ``G = (1 - Gamma)^-1 = 1 + Gamma + ... + Gamma^(n-1)`` and
    ``1 + Gamma G = G``.

    Parameters
    ----------
    Gamma : (..., 6n, 6n) array, e.g. ``closed_form_matrices(...).Gamma``

    Returns
    -------
    Property4

    Examples
    --------
    >>> from liedyn.robots import serial_chain
    >>> cf = closed_form_matrices(serial_chain(3), [0.1, 0.2, 0.3], [0.0, 0.0, 0.0])
    >>> p4 = property4(cf.Gamma)
    >>> float(np.abs(p4.powers[3]).max()), bool(np.allclose(p4.G_series, cf.G))
    (0.0, True)
    """
    Gamma = np.asarray(Gamma)
    if Gamma.ndim < 2 or Gamma.shape[-1] != Gamma.shape[-2] or Gamma.shape[-1] % 6:
        raise ValueError("argument 'Gamma': expected shape (..., 6n, 6n), got "
                         f"{Gamma.shape}")
    n = Gamma.shape[-1] // 6
    powers = [
        np.broadcast_to(np.eye(6 * n, dtype=int), Gamma.shape).astype(Gamma.dtype)]
    for _ in range(n):
        powers.append(powers[-1] @ Gamma)
    return Property4(powers, sum(powers[:n]))


def _poe(model):
    """Space-frame twists ``xi_l`` and inertias ``M'_l`` at the home
    configuration."""
    n = model.nbodies
    R, p = joint_transforms(model, np.zeros(n))
    Rw, pw = world_poses(model, R, p)
    home = [make_transform(Rw[i], pw[i]) for i in range(n + 1)]        # g_{sl_i}(0)
    xi = [None] + [Ad(home[i]) @ model.joints[i].S(np.zeros(1))[:, 0]
                   for i in range(1, n + 1)]
    Mp = [None] + [Ad_inv(home[i]).T @ model.inertias[i] @ Ad_inv(home[i])
                   for i in range(1, n + 1)]
    return xi, Mp


def property2(model, q, form="corrected"):
    """The mass matrix and its derivatives in product-of-exponentials form: Property
    2.

    Murray, Li and Sastry, Ch. 4 notes, Property 2, with the space-frame joint
    twists ``xi_i`` and link inertias ``M'_l = Ad^T_{g_l(0)^-1} M_l Ad_{g_l(0)^-1}``
    at ``q = 0`` and ``A_lj = Ad^-1(exp(xi_{j+1} q_{j+1}) ... exp(xi_l q_l))``
    (``1`` for ``l = j``, ``0`` for ``l < j``)::

        M_ij = sum_{l >= max(i, j)} xi_i^T A_li^T M'_l A_lj xi_j
        dM_ij/dq_k = sum_{l >= max(i, j, k)} (
            [A_{k-1,i} xi_i, xi_k]^T A_{l,k-1}^T M'_l A_lj xi_j
            + xi_i^T A_li^T M'_l A_{l,k-1} [A_{k-1,j} xi_j, xi_k])

    where a bracket with ``k <= i`` (``k <= j``) is zero. The notes print ``A_lk``
    in place of ``A_{l,k-1}`` (``form="printed"``), which is wrong (see the errata);
    the form here is the derivative
    ``d(A_li xi_i)/dq_k = A_{l,k-1} [A_{k-1,i} xi_i, xi_k]`` of ``A_li`` written as
    ``A_lk Ad_{exp(-xi_k q_k)} A_{k-1,i}``.

    Parameters
    ----------
    model : liedyn.model.Model
        a serial chain of Revolute, Prismatic, Helical or Screw joints,
        ``J = exp(S q)``
    q : (n,) array, joint positions (one state)
    form : {"corrected", "printed"}
        ``"printed"`` evaluates the derivative as printed in the notes, for the
        errata

    Returns
    -------
    M : (n, n) array
    dM : (n, n, n) array, ``dM[k, i, j] = dM_ij / dq_k``

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> from liedyn.crba import mass_matrix
    >>> M, dM = property2(planar_arm(2), [0.3, 0.5])
    >>> bool(np.allclose(M, mass_matrix(planar_arm(2), [0.3, 0.5])))
    True
    """
    check_serial_chain(model)
    printed = _checks.choice("form", form, ("corrected", "printed")) == "printed"
    q = model.check_q(q)
    if q.ndim != 1:
        raise ValueError("argument 'q': expected one state of shape "
                         f"({model.nq},), got {q.shape}")
    n = model.nbodies
    xi, Mp = _poe(model)
    E = [None] + [exp_se3(xi[i] * q[i - 1]) for i in range(1, n + 1)]
    A = np.zeros((n + 1, n + 1, 6, 6))              # A[l, j] = A_lj, 1-based
    for j in range(n + 1):
        P = np.eye(4)
        A[j, j] = np.eye(6)
        for l in range(j + 1, n + 1):
            P = P @ E[l]                 # exp(xi_{j+1} q_{j+1}) ... exp(xi_l q_l)
            A[l, j] = Ad_inv(P)
    M, dM = np.zeros((n, n)), np.zeros((n, n, n))
    for i in range(1, n + 1):
        for j in range(1, n + 1):
            for l in range(max(i, j), n + 1):
                Ai, Aj = A[l, i] @ xi[i], A[l, j] @ xi[j]
                M[i - 1, j - 1] += Ai @ Mp[l] @ Aj
                for k in range(1, l + 1):
                    Alk = A[l, k] if printed else A[l, k - 1]
                    dAi = Alk @ ad(A[k - 1, i] @ xi[i]) @ xi[k] if k > i else 0 * Ai
                    dAj = Alk @ ad(A[k - 1, j] @ xi[j]) @ xi[k] if k > j else 0 * Aj
                    dM[k - 1, i - 1, j - 1] += dAi @ Mp[l] @ Aj + Ai @ Mp[l] @ dAj
    return M, dM
