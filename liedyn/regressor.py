"""The joint-torque regressor: inverse dynamics is linear in the inertial
parameters.

Zhang, Lecture 9 ("M, C and tau_g all depend on I_i linearly ... identification can
be done using linear least squares"). Each body's generalized inertia ``I_i`` (Kim
(2012), eq. (20)) is linear in its 10 inertial parameters
``pi_i = to_parameters(I_i)``
``(m, m c_x, m c_y, m c_z, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)`` (rotational inertia about
the body origin), so the body wrench of Kim's eq. (31) is

    ``I_i dV_i - ad*_{V_i} I_i V_i = A(V_i, dV_i) pi_i``,     
    ``A(V, dV) = K(dV) - ad*_V K(V)``

with ``K(x) pi = I x``. The backward pass of the recursive Newton-Euler algorithm
(Kim (2012), eq. (42)) is linear too; run on the 6 x 10N matrices ``A`` instead of
wrenches it gives ``Y(q, dq, ddq)`` with ``tau = Y pi``, ``pi = (pi_1, ..., pi_N)``.

Derived in :ref:`sec-equations-of-motion`.
"""
import numpy as np

from . import _checks
from ._spatial import Ad_inv_matrix, ad_star_mul
from .inertia import from_parameters, to_parameters
from .kinematics import forward_pass
from .model import state
from .inverse_dynamics import gravity_acceleration

__all__ = ["body_regressor", "joint_torque_regressor", "inertial_parameters"]

_BASIS = from_parameters(np.eye(10)).astype(int)
"""``E_k = from_parameters(e_k)``: the inertia of the k-th unit parameter, shape
(10, 6, 6)."""


def _K(x):
    """``K(x)`` (..., 6, 10) with ``K(x) pi = from_parameters(pi) x``: column k is
    ``E_k x``."""
    return np.swapaxes((_BASIS @ x[..., None, :, None])[..., 0], -1, -2)


def body_regressor(V, dV):
    """The 6 x 10 matrix ``A(V, dV)`` with
    ``I dV - ad*_V I V = A(V, dV) to_parameters(I)``.

    Kim (2012), eq. (31), written as a linear function of the 10 inertial
    parameters: ``A = K(dV) - ad*_V K(V)`` with ``K(x) pi = I x`` (Zhang, Lecture 9:
    the dynamics is linear in the inertia).

    Parameters
    ----------
    V : (..., 6) array
        body twist ``(w, v)``
    dV : (..., 6) array
        its component-wise time derivative (with ``(0, -g)`` added for gravity)

    Returns
    -------
    A : (..., 6, 10) array

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
    KV = _K(V)
    adsKV = np.stack([ad_star_mul(V, KV[..., :, k]) for k in range(10)], axis=-1)
    return _K(dV) - adsKV


def inertial_parameters(model):
    """The stacked inertial parameters
    ``pi = (to_parameters(I_1), ..., to_parameters(I_N))``.

    Zhang, Lecture 9 (identification by linear least squares); the parameters of
    each body are those of :func:`liedyn.inertia.to_parameters`.

    Returns
    -------
    pi : (10 N,) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> inertial_parameters(pendulum(mass=2.0, length=0.5))[:4]     # m, m c
    array([ 2.,  0., -1.,  0.])
    """
    if model.nbodies == 0:
        return np.zeros(0)
    return np.concatenate([to_parameters(I) for I in model.inertias[1:]])


def joint_torque_regressor(model, q, dq, ddq):
    """The regressor ``Y`` with
    ``rnea(model, q, dq, ddq) = Y @ inertial_parameters(model)``.

    Kim (2012), Table 2, Kim eqs. (37), (41) and (42), run on regressor matrices.
    The forward pass (Kim eqs. (37), (41), gravity as ``dV_0 = (0, -g)``) gives
    ``V_i`` and ``dV_i``, which do not depend on the inertias; the backward pass
    (Kim eq. (42)) is linear in them and is run on matrices instead of wrenches
    (Zhang, Lecture 9: linear in the inertial parameters):

        ``W_i = [0 ... A(V_i, dV_i) ... 0] + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} W_k``
        ``Y_i = S_i^T W_i``  (the rows of joint i)

    with ``A`` of :func:`body_regressor` in the columns of body ``i``. ``W_i pi`` is
    the wrench ``F_i`` of the RNEA. Works on any tree and every joint type; batched.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
        joint configuration
    dq, ddq : (..., nv) arrays
        joint velocities and accelerations

    Returns
    -------
    Y : (..., nv, 10 N) array
        columns ``10 (i-1) .. 10 i - 1`` belong to body ``i``

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
