"""The equations of motion of a serial chain in closed form, with stacked matrices;
derived in :ref:`sec-equations-of-motion`.

Murray, Li and Sastry, Ch. 4 notes (Li and Wu), "Coordinate invariance of
Newton-Euler equations": the Newton-Euler recursions for all ``n`` links at once::

    V   = G P_0 V_0 + G xi dq
    dV  = G xi ddq + G P_0 dV_0 + G ad_{xi dq} P_0 V_0 + G ad_{xi dq} Gamma V
    F   = G^T Mb dV + G^T ad_V^T Mb V,            tau = xi^T F
    M   = xi^T G^T Mb G xi
    C   = xi^T G^T (Mb G ad_{xi dq} Gamma + ad_V^T Mb) G xi
    phi = xi^T G^T Mb G P_0 dV_0

so that ``M ddq + C dq + phi = tau``. The notes' ``(v, w)`` order changes no
formula; their ``C_i``, ``g_{i-1,i}(q_i) = g_{i-1,i}(0) exp(xi_i q_i)``, ``xi_i``,
``M_i`` are our ``{i}``, ``T_{lambda(i),i} = X_i Phi_i(q_i)``, ``S_i``, ``I_i`` (Kim
(2012), eq. (20)); two stacked symbols carry a minus sign, ``ad_{xi dq} =
diag(-ad_{xi_i dq_i})`` and ``ad_V^T = diag(-ad_{V_i}^T)``. Only serial chains of
one-DOF constant-screw joints fit; the ``6n x 6n`` matrices make it a teaching
path, not a fast one.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from . import joints as J
from ._spatial import Ad_inv_matrix, skew, transpose
from .inverse_dynamics import gravity_acceleration
from .kinematics import joint_transforms, world_poses
from .lie import Ad, Ad_inv, ad, exp_se3, make_transform
from .model import state

__all__ = ["ClosedForm", "closed_form_matrices", "Property4", "property4",
           "property2"]

SCREW_JOINTS = (J.Revolute, J.Prismatic, J.Helical, J.Screw)
"""The joints with one degree of freedom and ``Phi(q) = exp(xi q)``, ``xi``
constant."""


@dataclass(frozen=True)
class ClosedForm:
    """The stacked matrices of a serial chain and its equations of motion (Murray,
    Li and Sastry, Ch. 4 notes); ``n`` links, leading batch dimensions of ``q``.

    Attributes
    ----------
    xi : (..., 6n, n) array
        block diagonal of the joint twists ``xi_i`` (our ``S_i``)
    Gamma : (..., 6n, 6n) array
        ``Ad_{g_{i-1,i}^-1}`` on the first block sub-diagonal
    G : (..., 6n, 6n) array
        ``(1 - Gamma)^-1``: block ``(i, j)`` is ``Ad_{g_{j,i}^-1}`` for ``i >= j``
    P0 : (..., 6n, 6) array
        ``(Ad_{g_{0,1}^-1}, 0, ..., 0)``
    Mb : (6n, 6n) array
        block diagonal of the inertias ``I_i``
    V : (..., 6n) array
        stacked body twists ``G xi dq``
    ad_xi_dq, ad_V_T : (..., 6n, 6n) arrays
        ``diag(-ad_{xi_i dq_i})`` and ``diag(-ad_{V_i}^T)``
    M, C : (..., n, n) arrays
        mass and Coriolis matrices (``C dq`` is right, ``dM/dt - 2C`` not skew)
    C_christoffel : (..., n, n) array
        ``C`` with the skew blocks ``B_i`` of :func:`liedyn.crba.coriolis_matrix`
        for ``-ad_{V_i}^T I_i``: ``dM/dt = C + C^T``
    phi : (..., n) array
        gravity torques ``xi^T G^T Mb G P_0 dV_0``
    Jt : (..., 6, n) array
        tool-frame Jacobian ``P_t G xi``, ``P_t = (0, ..., 0, Ad_{g_{n,t}^-1})``
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


def _ad(V):
    """``ad_V`` (..., 6, 6) without validation (Kim (2012), eq. (27))."""
    w, v = skew(V[..., :3]), skew(V[..., 3:])
    return np.concatenate([np.concatenate([w, np.zeros_like(w)], -1),
                           np.concatenate([v, w], -1)], -2)


def _bar(L):
    """The skew ``bar(L)`` with ``ad*_V L = bar(L) V``, for ``L`` (..., 6, 1)."""
    m, f = skew(L[..., :3, 0]), skew(L[..., 3:, 0])
    return np.concatenate([np.concatenate([m, f], -1),
                           np.concatenate([f, np.zeros_like(f)], -1)], -2)


def check_serial_chain(model):
    """Raise ``ValueError`` unless ``model`` is a serial chain of 1-DOF screw
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
    """The stacked matrices of a serial chain and the terms ``M``, ``C``, ``phi``.

    Murray, Li and Sastry, Ch. 4 notes: ``M = xi^T G^T Mb G xi``, ``C = xi^T G^T (Mb
    G ad_{xi dq} Gamma + ad_V^T Mb) G xi``, ``phi = xi^T G^T Mb G P_0 dV_0``, ``J_t
    = P_t G xi``, ``G = (1 - Gamma)^-1`` (:func:`property4`); ``M ddq + C dq + phi =
    tau`` is Kim (2012), eq. (32). Float, complex and sympy-object input.

    Parameters
    ----------
    model : liedyn.model.Model
        a serial chain of Revolute, Prismatic, Helical or Screw joints
    q, dq : (..., n) arrays
    tool : (4, 4) array, optional
        pose ``g_{n,t}`` of a tool frame in the last link (for ``Jt``)

    Returns
    -------
    ClosedForm

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
    xi, Gamma, G, P0 = _stacked_operators(model, q, batch, dtype)
    Mb = np.zeros((6 * n, 6 * n))
    for i, b in enumerate(_blocks(n)):
        Mb[b, b] = model.inertias[i + 1]
    Gxi = G @ xi
    V = (Gxi @ dq[..., None])[..., 0]                      # V = G xi dq   (V_0 = 0)
    ad_xi_dq, ad_V_T, B = _velocity_blocks(model, xi, V, dq, Gamma)
    M = transpose(Gxi) @ Mb @ Gxi + np.diag(model.armature)          # + the rotors
    MGadG = Mb @ G @ ad_xi_dq @ Gamma
    C = transpose(Gxi) @ (MGadG + ad_V_T @ Mb) @ Gxi
    C_christoffel = transpose(Gxi) @ (MGadG + B) @ Gxi
    dV0 = gravity_acceleration(model).astype(dtype)
    phi = (transpose(Gxi) @ Mb @ G @ P0 @ dV0[:, None])[..., 0]
    Pt = _tool_selection(tool, n, batch, dtype)
    return ClosedForm(xi, Gamma, G, P0, Mb, V, ad_xi_dq, ad_V_T, M, C,
                      C_christoffel, phi, Pt @ Gxi)


def _blocks(n):
    """The slices of the 6-row blocks of links 1..n."""
    return [slice(6 * i, 6 * i + 6) for i in range(n)]


def _stacked_operators(model, q, batch, dtype):
    """``xi``, ``Gamma``, ``G = (1 - Gamma)^-1`` block by block (``G_ij =
    Ad_{g_{i-1,i}^-1} G_{i-1,j}``, any dtype) and ``P_0``."""
    n, blk = model.nbodies, _blocks(model.nbodies)
    R, p = joint_transforms(model, q)
    A = [None] + [np.broadcast_to(Ad_inv_matrix(R[i], p[i]), batch + (6, 6))
                  for i in range(1, n + 1)]                     # Ad_{g_{i-1,i}^-1}
    xi = np.zeros(batch + (6 * n, n), dtype=dtype)
    Gamma = np.zeros(batch + (6 * n, 6 * n), dtype=dtype)
    G = np.zeros_like(Gamma)
    P0 = np.zeros(batch + (6 * n, 6), dtype=dtype)
    P0[..., blk[0], :] = A[1]
    for i in range(n):
        xi[..., blk[i], i] = model.joints[i + 1]._S(q[..., i:i + 1])[..., 0]
        G[..., blk[i], blk[i]] = np.eye(6, dtype=int)
        if i > 0:
            Gamma[..., blk[i], blk[i - 1]] = A[i + 1]
            for j in range(i):                                 # G_ij = Ad G_{i-1,j}
                G[..., blk[i], blk[j]] = A[i + 1] @ G[..., blk[i - 1], blk[j]]
    return xi, Gamma, G, P0


def _velocity_blocks(model, xi, V, dq, Gamma):
    """The block diagonals ``ad_{xi dq}``, ``ad_V^T`` (signs included) and ``B``
    (the skew blocks of :func:`liedyn.crba.coriolis_matrix`)."""
    ad_xi_dq, ad_V_T, B = (np.zeros_like(Gamma) for _ in range(3))
    for i, b in enumerate(_blocks(model.nbodies)):
        Vi, Ii = V[..., b], model.inertias[i + 1]
        ad_xi_dq[..., b, b] = -_ad(xi[..., b, i] * dq[..., i:i + 1])
        ad_V_T[..., b, b] = -transpose(_ad(Vi))
        B[..., b, b] = (
            Ii @ _ad(Vi) - transpose(_ad(Vi)) @ Ii - _bar(Ii @ Vi[..., None])) / 2
    return ad_xi_dq, ad_V_T, B


def _tool_selection(tool, n, batch, dtype):
    """``P_t = (0, ..., 0, Ad_{g_{n,t}^-1})`` (..., 6, 6n); identity tool if
    None."""
    Pt = np.zeros(batch + (6, 6 * n), dtype=dtype)
    if tool is None:
        Pt[..., _blocks(n)[-1]] = np.eye(6, dtype=int)
    else:
        tool = _checks.homogeneous("tool", tool)
        Pt[..., _blocks(n)[-1]] = Ad_inv_matrix(tool[..., :3, :3], tool[..., :3, 3])
    return Pt


@dataclass(frozen=True)
class Property4:
    """Murray, Li and Sastry, Ch. 4 notes, Property 4: ``powers`` ``Gamma^0, ...,
    Gamma^n`` (the last zero) and ``G_series = 1 + Gamma + ... + Gamma^(n-1) = G``.
    """

    powers: list
    G_series: np.ndarray


def property4(Gamma):
    """Powers of ``Gamma`` and the finite Neumann series of ``G``.

    Murray, Li and Sastry, Ch. 4 notes, Property 4: ``Gamma`` (..., 6n, 6n) is
    strictly block lower triangular, so ``Gamma^n = 0`` and ``G = (1 - Gamma)^-1 = 1
    + Gamma +
    ... + Gamma^(n-1)``. Returns a :class:`Property4`.

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
    """The mass matrix and its derivatives in product-of-exponentials form.

    Murray, Li and Sastry, Ch. 4 notes, Property 2, with space-frame twists
    ``xi_i``, ``M'_l = Ad^T_{g_l(0)^-1} M_l Ad_{g_l(0)^-1}`` and ``A_lj =
    Ad^-1(exp(xi_{j+1} q_{j+1}) ... exp(xi_l q_l))``::

        M_ij = sum_{l >= max(i, j)} xi_i^T A_li^T M'_l A_lj xi_j
        dM_ij/dq_k = sum_{l >= max(i, j, k)} (
            [A_{k-1,i} xi_i, xi_k]^T A_{l,k-1}^T M'_l A_lj xi_j
            + xi_i^T A_li^T M'_l A_{l,k-1} [A_{k-1,j} xi_j, xi_k])

    (a bracket with ``k <= i`` is zero). The notes print ``A_lk`` for ``A_{l,k-1}``
    (``form="printed"``, wrong: see the errata).

    Parameters
    ----------
    model : liedyn.model.Model, a serial chain of screw joints
    q : (n,) array, one state
    form : {"corrected", "printed"}

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
    M, dM = np.diag(model.armature), np.zeros((n, n, n))     # the rotors, then M_ij
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
