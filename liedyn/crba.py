"""The terms of the equations of motion ``M(q) ddq + b(q, dq) = tau`` (Kim (2012),
eq. (32)).

* :func:`mass_matrix` by the composite-rigid-body algorithm (O(n^2), any tree,
  multi-DOF joints);
* :func:`bias_force` ``b = rnea(q, dq, 0)`` and :func:`gravity_torque`
  ``g = rnea(q, 0, 0)``;
* :func:`coriolis_matrix`, a factorization ``C(q, dq) dq = b - g`` with
  ``dM/dt - 2C`` skew;
* system energies and momentum.

Derived in :ref:`sec-equations-of-motion`.
"""
import numpy as np

from . import _checks
from .engine import dispatch as _exec
from ._spatial import Ad_inv_matrix, Ad_matrix, inverse, matvec, skew
from .kinematics import forward_kinematics, forward_pass, joint_transforms
from .model import state
from .inverse_dynamics import rnea

__all__ = ["mass_matrix", "composite_inertias", "bias_force", "gravity_torque",
           "coriolis_matrix", "kinetic_energy", "potential_energy", "momentum"]


def tr(A):
    """``A^T`` for a matrix or a stack of them (the last two axes swapped)."""
    return np.swapaxes(A, -1, -2)


def composite_inertias(model, q):
    """Composite inertias
    ``I^c_i = I_i + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} I^c_k Ad_{T_{i,k}^-1}``.

    The inertia of the subtree rooted at body ``i`` locked rigid, in ``{i}``
    (Featherstone (2008), Section 6.2, in Kim's notation: eq. (21) applied per
    child).

    Returns
    -------
    Ic : list of (..., 6, 6) arrays (entry 0 unused), and the list of
    ``Ad_{T_{lambda(i),i}^-1}``
    """
    q, A, S = _joint_terms(model, q)
    Ic = [None] + [np.broadcast_to(I, q.shape[:-1] + I.shape)     # per state
                   for I in model.inertias[1:]]
    for i in range(model.nbodies, 0, -1):
        for k in model.children[i]:                   # Ad*_{T_{i,k}^-1} = A_k^T
            Ic[i] = Ic[i] + tr(A[k]) @ Ic[k] @ A[k]
    return Ic, A, S


def _joint_terms(model, q):
    """``q`` checked, and ``A[i] = Ad_{T_{lambda(i),i}^-1}`` and ``S[i]`` of every
    body (entry 0 unused), for one state or a batch."""
    q = model.check_q(q)
    R, p = joint_transforms(model, q)
    bodies = range(1, model.nbodies + 1)
    A = [None] + [Ad_inv_matrix(R[i], p[i]) for i in bodies]
    S = [None] + [model.joints[i].S(q[..., model.q_slice[i]]) for i in bodies]
    return q, A, S


def mass_matrix(model, q):
    """The joint-space mass matrix ``M(q)`` by the composite-rigid-body algorithm.

    ``M_ii = S_i^T I^c_i S_i``; walking up from ``i``,
    ``F <- Ad*_{T_{lambda(j),j}^-1} F`` and ``M_{j,i} = S_j^T F`` for each ancestor
    ``j`` (Featherstone (2008), Table 6.2; Zhang, Lecture 9). Symmetric positive
    definite; O(n d) with d the tree depth.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array

    Returns
    -------
    M : (..., nv, nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> float(mass_matrix(pendulum(mass=2.0, length=0.5), [0.3])[0, 0])   # m l^2
    0.5
    """
    # the kernels of liedyn.engine.kernels
    M = _exec.mass_matrix(model, q)
    if M is not None:
        return M
    Ic, A, S = composite_inertias(model, q)
    M = {}                                        # M[j, i]: the blocks of M
    for i in range(1, model.nbodies + 1):
        F = Ic[i] @ S[i]                  # moves the locked subtree of joint i
        M[i, i] = tr(S[i]) @ F
        j = i
        while model.parent[j] > 0:
            F = tr(A[j]) @ F                            # Ad*_{T_{lambda(j),j}^-1} F
            j = model.parent[j]
            M[j, i] = tr(S[j]) @ F
    q = np.asarray(q)
    return _checks.finite_result("mass_matrix", _symmetric(model, M, q), q=q)


def _symmetric(model, blocks, q):
    """The symmetric (..., nv, nv) matrix with the blocks ``blocks[j, i]`` at the
    rows of joint ``j`` and the columns of joint ``i`` and their transposes."""
    M = np.zeros(q.shape[:-1] + (model.nv, model.nv),
                 dtype=np.result_type(q, float))
    for (j, i), block in blocks.items():
        M[..., model.v_slice[j], model.v_slice[i]] = block
        if j != i:
            M[..., model.v_slice[i], model.v_slice[j]] = tr(block)
    return M


def bias_force(model, q, dq, f_ext=None):
    """``b(q, dq) = rnea(q, dq, 0)``: Coriolis, centrifugal, gravity and external
    terms.

    Kim (2012), eq. (32); Zhang, Lecture 9 (``c`` and ``g`` from RNEA calls).

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)
    >>> b = bias_force(model, [np.pi / 2], [0.0])
    >>> round(float(b[0]), 12)                                 # m g l sin(q)
    10.0
    """
    q = model.check_q(q)
    dq = model.check_v(dq)
    return rnea(model, q, dq, np.zeros(model.nv), f_ext)


def gravity_torque(model, q):
    """``g(q) = rnea(q, 0, 0)``: the torques that hold the model still against
    gravity.

    Zhang, Lecture 9: the gravity term of ``tau = M ddq + c + g``; Kim (2012),
    footnote 6.

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> round(float(gravity_torque(pendulum(gravity=10.0), [np.pi / 6])[0]), 12)
    5.0
    """
    return rnea(model, q, np.zeros(model.nv), np.zeros(model.nv))


def _bar(L):
    """The skew 6x6 matrix ``L-bar`` with ``ad*_V L = L-bar V`` for a momentum
    ``L = (m, f)``."""
    m, f = skew(L[..., :3]), skew(L[..., 3:])
    return np.concatenate([np.concatenate([m, f], -1),
                           np.concatenate([f, np.zeros_like(f)], -1)], -2)


def _ad(V):
    w, v = skew(V[..., :3]), skew(V[..., 3:])
    return np.concatenate([np.concatenate([w, np.zeros_like(w)], -1),
                           np.concatenate([v, w], -1)], -2)


def coriolis_matrix(model, q, dq):
    """A Coriolis matrix ``C(q, dq)`` with ``C dq = b - g`` and ``dM/dt - 2C``
    skew-symmetric.

    Built from body Jacobians (Zhang, Lecture 9):
    ``C = sum_i J_i^T (I_i dJ_i + B_i J_i)`` with the skew body term
    ``B_i = (I_i ad_{V_i} - ad*_{V_i} I_i - bar(I_i V_i)) / 2``, for which
    ``B_i V_i = -ad*_{V_i} I_i V_i`` (Kim (2012), eq. (31)) and
    ``ad*_V L = bar(L) V``. Then ``dM/dt = C + C^T``; for joints whose velocity is
    ``dq/dt`` it equals the Christoffel matrix ``C_ij = sum_k Gamma_ijk dq_k``
    (checked in the tests). Cost O(N n^2): a teaching implementation, not a fast
    one.

    ``dJ_i`` is assembled from
    ``dJ_i = -ad_{V_i} J_i + sum_j Ad_{T_{i,j}} (ad_{V_j} S_j + dS_j)`` over the
    joints ``j`` on the path to ``i``.

    Parameters
    ----------
    q : (..., nq) array
    dq : (..., nv) array

    Returns
    -------
    C : (..., nv, nv) array
    """
    batch, dtype, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    Tw = forward_kinematics(model, q).T_world
    C = np.zeros(batch + (model.nv, model.nv), dtype=dtype)
    for i in range(1, model.nbodies + 1):
        J = np.zeros(batch + (6, model.nv), dtype=dtype)
        dJ = np.zeros_like(J)
        Tinv = inverse(Tw[..., i, :, :])
        for j in model.support(i):
            T_ij = Tinv @ Tw[..., j, :, :]
            Ad_ij = Ad_matrix(T_ij[..., :3, :3], T_ij[..., :3, 3])
            vj = model.v_slice[j]
            J[..., vj] = Ad_ij @ fw.S[j]
            dJ[..., vj] = Ad_ij @ (_ad(fw.V[j]) @ fw.S[j] + fw.dS[j])
        dJ = dJ - _ad(fw.V[i]) @ J
        I, V = model.inertias[i], fw.V[i]
        B = (I @ _ad(V) - tr(_ad(V)) @ I - _bar(matvec(I, V))) / 2
        C = C + tr(J) @ (I @ dJ + B @ J)
    return C


def kinetic_energy(model, q, dq):
    """``sum_i V_i^T I_i V_i / 2`` (Kim (2012), eq. (15)), equal to
    ``dq^T M dq / 2``.

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> float(kinetic_energy(pendulum(mass=1.0, length=2.0), [0.0], [1.0]))
    2.0
    """
    _, _, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    return sum(np.sum(V * matvec(I, V), axis=-1) / 2
               for V, I in zip(fw.V[1:], model.inertias[1:]))


def potential_energy(model, q):
    """Gravitational potential ``-sum_i m_i g . c_i`` with ``c_i`` the world COM of
    body ``i``.

    Murray, Li and Sastry, Ch. 4 (the potential of the Lagrangian ``L = T - V``).

    Zero at the ground-frame origin height; ``d/dt (T + U) = dq^T tau`` along the
    motion.

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> # hanging
    >>> float(potential_energy(pendulum(mass=1.0, length=1.0, gravity=10.0), [0.0]))
    -10.0
    """
    Tw = forward_kinematics(model, q).T_world
    U = 0.0
    for i in range(1, model.nbodies + 1):
        I = model.inertias[i]
        m = I[3, 3]
        if m == 0:
            continue
        # from m [c] in the off-diagonal block
        c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
        c_world = matvec(Tw[..., i, :3, :3], c) + Tw[..., i, :3, 3]
        U = U - m * (c_world @ model.gravity)
    return U


def momentum(model, q, dq):
    """Spatial momentum of the whole system in the ground frame:
    ``sum_i Ad*_{T_{0,i}^-1} I_i V_i``.

    Kim (2012), eqs. (23)-(24); conserved for a free-floating system without
    gravity.

    Returns
    -------
    L : (..., 6) array, (angular, linear) about the ground origin
    """
    _, _, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    Tw = forward_kinematics(model, q).T_world
    L = 0.0
    for i in range(1, model.nbodies + 1):
        # Ad*_{T_{0,i}^-1}
        A = tr(Ad_inv_matrix(Tw[..., i, :3, :3], Tw[..., i, :3, 3]))
        L = L + matvec(A, matvec(model.inertias[i], fw.V[i]))
    return L
