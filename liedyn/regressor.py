"""The joint-torque regressor: inverse dynamics is linear in the inertial
parameters; derived in :ref:`sec-equations-of-motion`.

Zhang, Lecture 9 ("M, C and tau_g all depend on I_i linearly ... identification can
be done using linear least squares"). ``I_i`` (Kim (2012), eq. (20)) is linear in
``pi_i = to_parameters(I_i)``, so the body wrench of Kim's eq. (31) is ``I_i dV_i -
ad*_{V_i} I_i V_i = Y_body(V_i, dV_i) pi_i`` with ``Y_body(V, dV) = E(dV) - ad*_V
E(V)`` and ``E(x) pi = I x``. The backward pass (Kim's eq. (42)), linear too, run on
6 x 10N matrices gives ``Y(q, dq, ddq)`` with ``tau = Y pi``,
``pi = (pi_1, ..., pi_N)``.
"""
import numpy as np

from . import _checks
from ._spatial import Ad_inv_matrix, ad_star_mul
from .inertia import from_parameters, to_parameters
from .inverse_dynamics import gravity_acceleration
from .kinematics import forward_pass
from .model import state

__all__ = ["body_regressor", "joint_torque_regressor", "inertial_parameters"]

_BASIS = from_parameters(np.eye(10)).astype(int)   # E_k = from_parameters(e_k)


def _E(x):
    """``E(x)`` (..., 6, 10) with ``E(x) pi = from_parameters(pi) x``: column ``k``
    is ``E_k x`` for the unit inertia ``E_k = from_parameters(e_k)``."""
    return np.swapaxes((_BASIS @ x[..., None, :, None])[..., 0], -1, -2)


def body_regressor(V, dV):
    """The body regressor ``Y_body(V, dV)`` (..., 6, 10): the body wrench as a
    matrix of the inertial parameters.

    Kim (2012), eq. (31) as a linear function of the inertial parameters, ``I dV -
    ad*_V I V = Y_body(V, dV) to_parameters(I)``: ``Y_body = E(dV) - ad*_V E(V)``
    with ``E(x) pi = I x`` (Zhang, Lecture 9).

    Parameters
    ----------
    V : (..., 6) array, body twist
    dV : (..., 6) array, its derivative (with ``(0, -g)`` added for gravity)

    Returns
    -------
    Y_body : (..., 6, 10) array

    Examples
    --------
    >>> from liedyn.inertia import spatial_inertia
    >>> from liedyn.lie import ad_star
    >>> I = spatial_inertia(2.0, [0.1, 0.0, 0.3], np.diag([0.1, 0.2, 0.25]))
    >>> V = np.array([0.1, 0.2, 0.3, 1.0, 0.0, -1.0])
    >>> dV = np.array([1.0, 2, 3, 4, 5, 6])
    >>> F = I @ dV - ad_star(V) @ I @ V
    >>> bool(np.allclose(body_regressor(V, dV) @ to_parameters(I), F))
    True
    """
    V = _checks.array("V", V, (6,))
    dV = _checks.array("dV", dV, (6,))
    return _body_regressor(V, dV)


def _body_regressor(V, dV):
    V, dV = np.broadcast_arrays(V, dV)
    EV = _E(V)
    adsEV = np.stack([ad_star_mul(V, EV[..., :, k]) for k in range(10)], axis=-1)
    return _E(dV) - adsEV


def inertial_parameters(model):
    """The parameters ``pi = (pi_1, ..., pi_N)``, ``pi_i = to_parameters(I_i)``.

    The unknowns (10 N,) of Zhang, Lecture 9's least-squares identification.

    >>> from liedyn.robots import pendulum
    >>> inertial_parameters(pendulum(mass=2.0, length=0.5))[:4]     # m, m c
    array([ 2.,  0., -1.,  0.])
    """
    if model.nbodies == 0:
        return np.zeros(0)
    return np.concatenate([to_parameters(I) for I in model.inertias[1:]])


def joint_torque_regressor(model, q, dq, ddq):
    """The regressor ``Y`` with ``rnea(...) = Y @ inertial_parameters(model)``.

    Kim (2012), Table 2 on regressor matrices: the forward pass (Kim eqs. (37),
    (41)) gives ``V_i``, ``dV_i``, independent of the inertias; the backward pass
    (Kim eq. (42)) is linear in them (Zhang, Lecture 9)::

        W_i = [0 ... Y_body(V_i, dV_i) ... 0]
              + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} W_k
        Y_i = S_i^T W_i                                  (the rows of joint i)

    with :func:`body_regressor`'s ``Y_body`` in the columns of body ``i``;
    ``W_i pi = F_i``.

    Parameters
    ----------
    q : (..., nq) array;  dq, ddq : (..., nv) arrays

    Returns
    -------
    Y : (..., nv, 10 N) array, columns ``10 (i-1) .. 10 i - 1`` for body ``i``

    Examples
    --------
    >>> from liedyn.robots import planar_arm
    >>> from liedyn.inverse_dynamics import rnea
    >>> model = planar_arm(2)
    >>> q, dq, ddq = [0.3, -0.4], [1.0, 2.0], [0.5, -1.0]
    >>> Y = joint_torque_regressor(model, q, dq, ddq)
    >>> Y.shape
    (2, 20)
    >>> bool(np.allclose(Y @ inertial_parameters(model), rnea(model, q, dq, ddq)))
    True
    """
    batch, dtype, q, dq, ddq, _ = state(model, q, dq, ddq)
    N = model.nbodies
    fw = forward_pass(model, q, dq, ddq, gravity_acceleration(model))
    Y = np.zeros(batch + (model.nv, 10 * N), dtype=dtype)
    W = [None] * (N + 1)
    for i in range(N, 0, -1):
        Wi = np.zeros(batch + (6, 10 * N), dtype=dtype)
        # Kim eq. (31)
        Wi[..., 10 * (i - 1):10 * i] = _body_regressor(fw.V[i], fw.dV[i])
        for k in model.children[i]:
            Ad_star_k = np.swapaxes(Ad_inv_matrix(fw.R[k], fw.p[k]), -1, -2)
            Wi = Wi + Ad_star_k @ W[k]                             # Kim eq. (42)
        W[i] = Wi
        Y[..., model.v_slice[i], :] = np.swapaxes(fw.S[i], -1, -2) @ Wi      # S^T F
    return Y
