"""The terms of the equations of motion ``M(q) ddq + b(q, dq) = tau`` (Kim (2012),
eq. (32)): :func:`mass_matrix` by the composite-rigid-body algorithm,
:func:`bias_force` and :func:`gravity_torque` by RNEA, a :func:`coriolis_matrix`
with ``dM/dt - 2C`` skew, energies and momentum. Derived in
:ref:`sec-equations-of-motion`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import _checks, _math
from ._spatial import Ad_inv_matrix, Ad_matrix, inverse, matvec, skew, transpose
from .engine import dispatch as _exec
from .inverse_dynamics import rnea
from .kinematics import forward_kinematics, forward_pass, joint_transforms
from .model import state

if TYPE_CHECKING:
    from ._types import Array, ArrayLike, Scalar
    from .model import Model

__all__ = ["mass_matrix", "composite_inertias", "bias_force", "gravity_torque",
           "coriolis_matrix", "kinetic_energy", "potential_energy", "momentum"]


def composite_inertias(model, q):
    """Composite inertias: the subtree of body ``i`` locked rigid, in ``{i}``.

    ``I^c_i = I_i + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} I^c_k Ad_{T_{i,k}^-1}``.

    Featherstone (2008), Section 6.2, in Kim's notation (Kim's eq. (21) per child).
    Returns the lists (entry 0 unused) ``Ic`` of (..., 6, 6) arrays, ``A`` of
    ``Ad_{T_{lambda(i),i}^-1}`` and ``S``.
    """
    q, A, S = _joint_terms(model, q)
    Ic = [None] + [np.broadcast_to(I, q.shape[:-1] + I.shape)     # per state
                   for I in model.inertias[1:]]
    for i in range(model.nbodies, 0, -1):
        for k in model.children[i]:                   # Ad*_{T_{i,k}^-1} = A_k^T
            Ic[i] = Ic[i] + transpose(A[k]) @ Ic[k] @ A[k]
    return Ic, A, S


def _joint_terms(model, q):
    """``q`` checked, and the lists ``A[i] = Ad_{T_{lambda(i),i}^-1}`` and
    ``S[i]``."""
    q = model.check_q(q)
    R, p = joint_transforms(model, q)
    bodies = range(1, model.nbodies + 1)
    A = [None] + [Ad_inv_matrix(R[i], p[i]) for i in bodies]
    S = [None] + [_math.exact(model.joints[i]._S(q[..., model.q_slice[i]]),
                              q.dtype)        # sympy: integral floats exact (_math)
                  for i in bodies]
    return q, A, S


def mass_matrix(model: Model, q: ArrayLike) -> Array:
    """The joint-space mass matrix ``M(q)`` by the composite-rigid-body algorithm.

    ``M_ii = S_i^T I^c_i S_i``; walking up from ``i``, ``F <-
    Ad*_{T_{lambda(j),j}^-1} F`` and ``M_{j,i} = S_j^T F`` for each ancestor ``j``
    (Featherstone (2008), Table 6.2; Zhang, Lecture 9).

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array

    Returns
    -------
    M : (..., nv, nv) array, symmetric positive definite

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
        M[i, i] = transpose(S[i]) @ F + model.rotor(i)   # + the rotor's armature
        j = i
        while model.parent[j] > 0:
            F = transpose(A[j]) @ F                     # Ad*_{T_{lambda(j),j}^-1} F
            j = model.parent[j]
            M[j, i] = transpose(S[j]) @ F
    q = np.asarray(q)
    return _checks.finite_result("mass_matrix", _symmetric(model, M, q), q=q)


def _symmetric(model, blocks, q):
    """The symmetric (..., nv, nv) matrix of the blocks ``blocks[j, i]`` (rows of
    ``j``)."""
    M = np.zeros(q.shape[:-1] + (model.nv, model.nv),
                 dtype=np.result_type(q, float))
    for (j, i), block in blocks.items():
        M[..., model.v_slice[j], model.v_slice[i]] = block
        if j != i:
            M[..., model.v_slice[i], model.v_slice[j]] = transpose(block)
    return M


def bias_force(model: Model, q: ArrayLike, dq: ArrayLike,
               f_ext: ArrayLike | None = None) -> Array:
    """``b(q, dq) = rnea(q, dq, 0)`` (..., nv): Coriolis, centrifugal, gravity and
    external terms.

    Kim (2012), eq. (32); Zhang, Lecture 9. Arguments as in
    :func:`liedyn.inverse_dynamics.rnea`.

    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)
    >>> b = bias_force(model, [np.pi / 2], [0.0])
    >>> round(float(b[0]), 12)                                 # m g l sin(q)
    10.0
    """
    q = model.check_q(q)
    dq = model.check_v(dq)
    return rnea(model, q, dq, np.zeros(model.nv, _math.result_dtype(q, dq)), f_ext)


def gravity_torque(model: Model, q: ArrayLike) -> Array:
    """``g(q) = rnea(q, 0, 0)`` (..., nv): the torques that hold the model still.

    Zhang, Lecture 9: the gravity term of ``tau = M ddq + c + g``; Kim (2012),
    footnote 6.

    >>> from liedyn.robots import pendulum
    >>> round(float(gravity_torque(pendulum(gravity=10.0), [np.pi / 6])[0]), 12)
    5.0
    """
    zero = np.zeros(model.nv, _math.result_dtype(model.check_q(q)))
    return rnea(model, q, zero, zero)


def _bar(L):
    """The skew 6x6 ``bar(L)`` with ``ad*_V L = bar(L) V`` for ``L = (m, f)``."""
    m, f = skew(L[..., :3]), skew(L[..., 3:])
    return np.concatenate([np.concatenate([m, f], -1),
                           np.concatenate([f, np.zeros_like(f)], -1)], -2)


def _ad(V):
    w, v = skew(V[..., :3]), skew(V[..., 3:])
    return np.concatenate([np.concatenate([w, np.zeros_like(w)], -1),
                           np.concatenate([v, w], -1)], -2)


def coriolis_matrix(model: Model, q: ArrayLike, dq: ArrayLike) -> Array:
    """A Coriolis matrix ``C(q, dq)`` with ``C dq = b - g`` and ``dM/dt - 2C`` skew.

    From the body Jacobians (Zhang, Lecture 9): ``C = sum_i J_i^T (I_i dJ_i + B_i
    J_i)`` with ``B_i = (I_i ad_{V_i} - ad*_{V_i} I_i - bar(I_i V_i)) / 2``, so that
    ``B_i V_i = -ad*_{V_i} I_i V_i`` (Kim (2012), eq. (31)), and ``dJ_i = -ad_{V_i}
    J_i + sum_j Ad_{T_{i,j}} (ad_{V_j} S_j + dS_j)``. Then ``dM/dt = C + C^T``; for
    velocities ``dq/dt`` it is the Christoffel matrix. O(N n^2).

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
        B = (I @ _ad(V) - transpose(_ad(V)) @ I - _bar(matvec(I, V))) / 2
        C = C + transpose(J) @ (I @ dJ + B @ J)
    return C


def kinetic_energy(model: Model, q: ArrayLike, dq: ArrayLike) -> Array | Scalar:
    """``sum_i V_i^T I_i V_i / 2 = dq^T M dq / 2`` (Kim (2012), eq. (15)), shape
    (...), plus the rotors' ``armature dq^2 / 2``.

    >>> from liedyn.robots import pendulum
    >>> float(kinetic_energy(pendulum(mass=1.0, length=2.0), [0.0], [1.0]))
    2.0
    """
    _, _, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    rotors = np.sum(model.armature * dq * dq, axis=-1) / 2
    return rotors + sum(np.sum(V * matvec(I, V), axis=-1) / 2
                        for V, I in zip(fw.V[1:], model.inertias[1:], strict=True))


def potential_energy(model: Model, q: ArrayLike) -> Array | Scalar:
    """Gravitational potential ``-sum_i m_i g . c_i``, ``c_i`` the world centre of
    mass.

    Murray, Li and Sastry, Ch. 4 (``L = T - V``); zero at the ground origin's
    height.

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
    """The system's momentum ``sum_i Ad*_{T_{0,i}^-1} I_i V_i`` (..., 6) in the
    ground frame, (angular about the origin, linear).

    Kim (2012), eqs. (23)-(24); conserved when free-floating without gravity.
    """
    _, _, q, dq, _ = state(model, q, dq)
    fw = forward_pass(model, q, dq)
    Tw = forward_kinematics(model, q).T_world
    L = 0.0
    for i in range(1, model.nbodies + 1):
        # Ad*_{T_{0,i}^-1}
        A = transpose(Ad_inv_matrix(Tw[..., i, :3, :3], Tw[..., i, :3, 3]))
        L = L + matvec(A, matvec(model.inertias[i], fw.V[i]))
    return L
