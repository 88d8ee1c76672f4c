"""Inverse dynamics by the recursive Newton-Euler algorithm, Kim (2012), Table 2.

Derived in :ref:`sec-inverse-dynamics`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from ._spatial import Ad_star_inv_mul, ad_star_mul, matvec
from .engine import dispatch as _exec
from .kinematics import ForwardPass, forward_pass
from .model import state

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .model import Model

__all__ = ["RNEAPass", "rnea", "rnea_pass", "gravity_acceleration"]


@dataclass(frozen=True)
class RNEAPass:
    """Everything :func:`rnea_pass` computes: the forward pass, ``F`` and ``tau``.

    Attributes
    ----------
    forward : liedyn.kinematics.ForwardPass
        ``R``, ``p`` (of ``T_{lambda(i),i}``), ``S``, ``dS``, ``V``, ``dV`` per body
    F : list of (..., 6) arrays
        the wrench on body ``i`` from its parent through joint ``i``, in ``{i}``
    tau : (..., nv) array
    """

    forward: ForwardPass
    F: list
    tau: np.ndarray


def gravity_acceleration(model):
    """The ground acceleration ``dV_0 = (0, -g)`` that stands for gravity (Kim
    (2012), footnote 6).

    >>> from liedyn.model import Model
    >>> gravity_acceleration(Model()).tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 9.81]
    """
    return np.concatenate([np.zeros(3), np.zeros(3) - model.gravity])


def matvec_T(A, x):
    """``A^T x`` for (..., m, n) and (..., m) arrays: ``tau_i = S_i^T F_i`` of Kim
    (2012), Table 2.

    >>> matvec_T(np.eye(6)[:, 2:3], np.arange(6.0)).tolist()
    [2.0]
    """
    return matvec(np.swapaxes(A, -1, -2), x)


def backward_step(I, S, V, dV, F_ext, children):
    """The backward recursion of Kim (2012), Table 2, for one body: Kim's eq. (42)
    and ``tau_i = S_i^T F_i``.

    ``I``, ``S``, ``V``, ``dV`` and ``F_ext`` are the body's inertia, its joint's
    Jacobian, its twist, acceleration and external wrench; ``children`` holds a pair
    ``((R_k, p_k), F_k)`` per child ``k``: ``T_{i,k}`` and the child's wrench.
    Returns the body's ``F`` and its joint's ``tau``.

    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(2.0, [0.0, 0.0, 0.0], np.eye(3))
    >>> dV = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 9.81])   # held up against gravity
    >>> S = np.eye(6)[:, 5:]                         # a prismatic joint along z
    >>> F, tau = backward_step(I, S, np.zeros(6), dV, np.zeros(6), [])
    >>> F.tolist(), tau.tolist()
    ([0.0, 0.0, 0.0, 0.0, 0.0, 19.62], [19.62])
    """
    F = matvec(I, dV) - ad_star_mul(V, matvec(I, V)) - F_ext                  # (42)
    for (R, p), F_k in children:
        F = F + Ad_star_inv_mul(R, p, F_k)
    return F, matvec_T(S, F)


def rnea_pass(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
              f_ext: ArrayLike | None = None) -> RNEAPass:
    """Kim (2012), Table 2, with every intermediate kept (see :class:`RNEAPass`).

    Forward recursion Kim eqs. (37) and (41)
    (:func:`liedyn.kinematics.forward_pass`); backward recursion Kim eq. (42), ``F_i
    = I_i dV_i - ad*_{V_i} I_i V_i - F_i^ext + sum_{k in mu(i)} Ad*_{T_{i,k}^-1}
    F_k``, ``tau_i = S_i^T F_i``. Arguments as in :func:`rnea`.
    """
    batch, dtype, q, dq, ddq, f_ext = state(model, q, dq, ddq, f_ext=f_ext)
    fw = forward_pass(model, q, dq, ddq, gravity_acceleration(model))
    F_ext = [None] + [f_ext[..., i, :] for i in range(model.nbodies)]   # per body
    F = [None] * (model.nbodies + 1)
    tau = np.zeros(batch + (model.nv,), dtype=dtype)
    for i in range(model.nbodies, 0, -1):
        children = [((fw.R[k], fw.p[k]), F[k]) for k in model.children[i]]
        F[i], tau[..., model.v_slice[i]] = backward_step(
            model.inertias[i], fw.S[i], fw.V[i], fw.dV[i], F_ext[i], children)
    if np.any(model.armature):                  # rotors: armature * ddq
        tau = tau + model.armature * ddq
    return RNEAPass(fw, F, tau)


def rnea(model: Model, q: ArrayLike, dq: ArrayLike, ddq: ArrayLike,
         f_ext: ArrayLike | None = None) -> Array:
    """Inverse dynamics: the joint torques ``tau`` that produce the accelerations
    ``ddq``.

    Kim (2012), Table 2: forward pass Kim's eqs. (37) and (41), backward pass Kim's
    eq. (42), ``tau_i = S_i^T F_i``; gravity is the ground acceleration ``dV_0 = (0,
    -g)`` (footnote 6). Derived in :ref:`sec-inverse-dynamics`.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
        joint configuration
    dq, ddq : (..., nv) arrays
        joint velocities and accelerations
    f_ext : (..., N, 6) array, optional
        wrench (m, f) that the environment applies to each body 1..N, in its frame

    Returns
    -------
    tau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=0.0)
    >>> float(rnea(model, [0.0], [0.0], [1.0])[0])   # tau = m l^2 ddq
    1.0
    """
    # the kernels of liedyn.engine.kernels
    tau = _exec.rnea(model, q, dq, ddq, f_ext)
    if tau is not None:                                 # checked there, finite
        return tau
    tau = rnea_pass(model, q, dq, ddq, f_ext).tau   # the reference path, its errors
    return _checks.finite_result("rnea", tau, q=q, dq=dq, ddq=ddq, f_ext=f_ext)
