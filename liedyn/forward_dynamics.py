"""Forward dynamics by the articulated-body algorithm, Kim (2012), Table 3
(corrected).

Three recursions (Kim (2012), Section 2.2): forward, ``V_i`` by Kim eq. (37) and
``eta_i = ad_{V_i} S_i dq_i + dS_i dq_i``; backward, the articulated inertias and
bias forces of Kim eqs. (49)-(50); forward again, ``ddq_i`` by Kim eq. (45) and
``dV_i`` by Kim eq. (41). Kim's Table 3, as printed, misprints three operators (an
inverse for a star on ``Ad*`` in the two sums, and a missing inverse in the ``dV_i``
update): the code follows the derivation, and the errata appendix records the
corrections with their numerical checks.

Derived in :ref:`sec-forward-dynamics`.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from .engine import dispatch as _exec
from ._spatial import Ad_inv_matrix, Ad_inv_mul, ad_star_mul, matvec
from .kinematics import ForwardPass, forward_pass
from .model import state
from .inverse_dynamics import gravity_acceleration

__all__ = ["ABAPass", "aba", "aba_pass", "inverse_mass_matrix",
           "mass_matrix_factor"]


def _T(A):
    return np.swapaxes(A, -1, -2)


@dataclass(frozen=True)
class ABAPass:
    """Intermediates of :func:`aba_pass`, per body ``i = 0..N`` (entry 0 unused).

    Attributes
    ----------
    forward : liedyn.kinematics.ForwardPass
        (its ``dV`` holds only the ground acceleration)
    eta : list of (..., 6)        ``ad_{V_i} S_i dq_i + dS_i dq_i``
    I_hat, B_hat : lists of (..., 6, 6) and (..., 6)
        articulated inertia and bias force (43)
    Psi : list of (..., n_i, n_i)  ``(S_i^T I_hat_i S_i)^-1``
    Pi, beta : lists of (..., 6, 6) and (..., 6)
        what body ``i`` passes to its parent
    ddq : (..., nv)
    dV, F : lists of (..., 6)
        body accelerations and joint wrenches ``F_i = I_hat dV + B_hat``
    """

    forward: ForwardPass
    eta: list
    I_hat: list
    B_hat: list
    Psi: list
    Pi: list
    beta: list
    ddq: np.ndarray
    dV: list
    F: list


def _inv(A, model, i):
    try:
        if A.shape[-1] == 1 and A.dtype != object:     # one-DOF joint: a reciprocal
            if np.any(A == 0):
                raise np.linalg.LinAlgError
            return 1 / A
        return np.linalg.inv(A)
    except np.linalg.LinAlgError:
        raise ValueError(f"body {model.names[i]!r}: S^T I_hat S is singular; the "
                         "subtree of this joint has no inertia along the joint's "
                         "motion (a massless body?)") from None


def aba_pass(model, q, dq, tau, f_ext=None, dV0=None):
    """Kim (2012), Table 3 (corrected), with every intermediate kept (see
    :class:`ABAPass`).

    Arguments as in :func:`aba`; ``dV0`` overrides the ground acceleration
    ``(0, -g)``.
    """
    batch, dtype, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                            names=("dq", "tau"))
    model.check_chart(q)
    dV0 = gravity_acceleration(model) if dV0 is None else dV0
    fw = forward_pass(model, q, dq, None, dV0)
    N = model.nbodies
    A = [None] + [Ad_inv_matrix(fw.R[i], fw.p[i]) for i in range(1, N + 1)]
    # (41) without S ddq: ad_V S dq + dS dq
    eta = [None] + [fw.dV[i] - Ad_inv_mul(fw.R[i], fw.p[i], fw.dV[model.parent[i]])
                    for i in range(1, N + 1)]
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):                     # backward recursion, (49)-(50)
        I, V, S = model.inertias[i], fw.V[i], fw.S[i]
        Ih = np.broadcast_to(I, batch + (6, 6))
        Bh = -ad_star_mul(V, matvec(I, V)) - f_ext[..., i - 1, :]
        for k in model.children[i]:
            # Ad*_{T_{i,k}^-1} Pi_k Ad_{T_{i,k}^-1}
            Ih = Ih + _T(A[k]) @ Pi[k] @ A[k]
            Bh = Bh + matvec(_T(A[k]), beta[k])        # Ad*_{T_{i,k}^-1} beta_k
        IS = Ih @ S
        Psi[i] = _inv(_T(S) @ IS, model, i)
        Pi[i] = Ih - IS @ Psi[i] @ _T(IS)
        u = tau[..., model.v_slice[i]] - matvec(_T(S), matvec(Ih, eta[i]) + Bh)
        beta[i] = Bh + matvec(Ih, eta[i] + matvec(S @ Psi[i], u))
        I_hat[i], B_hat[i] = Ih, Bh
    ddq = np.zeros(batch + (model.nv,), dtype=dtype)
    dV, F = [fw.dV[0]] + [None] * N, [None] * (N + 1)
    for i in range(1, N + 1):                     # forward recursion, (45) and (41)
        S = fw.S[i]
        a = matvec(A[i], dV[model.parent[i]]) + eta[i]
        Fa = matvec(I_hat[i], a) + B_hat[i]
        ddq_i = matvec(Psi[i], tau[..., model.v_slice[i]] - matvec(_T(S), Fa))
        ddq[..., model.v_slice[i]] = ddq_i
        dV[i] = a + matvec(S, ddq_i)
        F[i] = matvec(I_hat[i], dV[i]) + B_hat[i]
    return ABAPass(fw, eta, I_hat, B_hat, Psi, Pi, beta, ddq, dV, F)


def aba(model, q, dq, tau, f_ext=None):
    """Forward dynamics: the accelerations ``ddq`` produced by torques ``tau``, in
    O(n).

    Kim (2012), Table 3 and Kim eqs. (43)-(50) (with the corrections of the errata
    appendix), for multi-DOF joints: ``Psi_i = (S_i^T I_hat_i S_i)^-1`` is an
    ``n_i x n_i`` inverse. Derived in :ref:`sec-forward-dynamics`.

    Parameters
    ----------
    model : liedyn.model.Model
    q : (..., nq) array
    dq, tau : (..., nv) arrays
    f_ext : (..., N, 6) array, optional
        wrench (m, f) applied to each body by the environment, in the body frame

    Returns
    -------
    ddq : (..., nv) array

    Raises
    ------
    ValueError
        if an articulated inertia ``S^T I_hat S`` is singular (e.g. a massless leaf
        body)
    ChartSingularityError
        if a joint's coordinates are within :data:`liedyn.joints.CHART_TOL` of their
        singular set (Euler angles at gimbal lock, exponential coordinates at
        ``|phi| = 2 pi``)
    NonFiniteResultError
        if finite inputs overflow to NaN or inf

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=1.0, length=1.0, gravity=10.0)
    >>> round(float(aba(model, [np.pi / 2], [0.0], [0.0])[0]), 12)    # -g/l sin(q)
    -10.0
    """
    # the kernels of liedyn.engine.kernels
    ddq = _exec.aba(model, q, dq, tau, f_ext)
    if ddq is not None:                                 # checked there, finite
        return ddq
    if model._charts:                       # the reference path and its errors,
        model.check_chart(model.check_q(q))  # a chart singularity first
    ddq = aba_pass(model, q, dq, tau, f_ext).ddq
    return _checks.finite_result("aba", ddq, q=q, dq=dq, tau=tau, f_ext=f_ext)


def inverse_mass_matrix(model, q):
    """``M(q)^-1`` by the articulated-body structure, without forming or factoring
    ``M``.

    Kim (2012), Table 3 run with unit torques (the simplified algorithm of Section
    3.2).

    Column ``k`` is the acceleration that a unit torque on coordinate ``k`` produces
    with no velocity and no gravity: ``aba(q, 0, e_k)``. The ``nv`` columns are a
    batch dimension of one vectorised pass (no Python loop over columns): O(n) per
    column, O(n^2) in total.

    Parameters
    ----------
    q : (..., nq) array

    Returns
    -------
    Minv : (..., nv, nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=2.0, length=0.5)
    >>> float(inverse_mass_matrix(model, [0.1])[0, 0])    # 1/(m l^2)
    2.0
    """
    # the kernels of liedyn.engine.kernels
    Minv = _exec.inverse_mass_matrix(model, q)
    if Minv is not None:
        return Minv
    q = model.check_q(q)
    E = np.eye(model.nv)
    cols = aba_pass(model, q[..., None, :], np.zeros(model.nv), E,
                    dV0=np.zeros(6)).ddq
    return _T(_checks.finite_result("inverse_mass_matrix", cols, q=q))


def mass_matrix_factor(model, q):
    """The square-root factor ``W`` of the mass matrix, ``M(q) = W W^T``, from the
    ABA sweep.

    Murray, Li and Sastry, Ch. 4 (lecture notes, "square root factorization of M"):
    with the articulated inertias ``I_hat_i`` of Kim (2012), eq. (49),
    ``D_i = S_i^T I_hat_i S_i`` and the block lower-triangular ``Y`` with blocks
    ``Y_ij = S_i^T I_hat_i Ad_{T_{j,i}^-1} S_j`` (``j`` on the path from the ground
    to ``i``), the mass matrix is ``M = Y^T D^-1 Y``. With the Cholesky factors
    ``D_i = L_i L_i^T`` this returns ``W = Y^T L^-T``, computed like the
    composite-rigid-body algorithm but with ``I_hat_i`` in place of the composite
    inertia: column block ``i`` starts as the wrench ``I_hat_i S_i L_i^-T`` and is
    carried towards the ground,
    ``W_ji = S_j^T Ad*_{T_{j,i}^-1} I_hat_i S_i L_i^-T``.

    Convention: ``W`` is block **upper** triangular (``W_ji = 0`` for ``j > i``) and
    its diagonal blocks are the lower Cholesky factors ``L_i`` of ``D_i``; for a
    chain of one-DOF joints it is the unique upper-triangular factor with a positive
    diagonal, ``W_ii = sqrt(D_i)`` (a Cholesky factorization that eliminates from
    the tip towards the base, as the backward sweep of the articulated-body
    algorithm does). Then ``M^-1 = W^-T W^-1`` and the kinetic energy is
    ``|W^T dq|^2 / 2``.

    Parameters
    ----------
    model : liedyn.model.Model
        a serial chain: ``parent[i] == i - 1`` for every body
    q : (..., nq) array

    Returns
    -------
    W : (..., nv, nv) array

    Raises
    ------
    ValueError
        if the model is not a serial chain (a branched tree), or if some ``D_i`` is
        singular

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> from liedyn.crba import mass_matrix
    >>> model = double_pendulum()
    >>> W = mass_matrix_factor(model, [0.3, 0.8])
    >>> bool(np.allclose(W @ W.T, mass_matrix(model, [0.3, 0.8]))), float(W[1, 0])
    (True, 0.0)
    """
    branched = [model.names[i] for i in range(1, model.nbodies + 1)
                if model.parent[i] != i - 1]
    if branched:
        raise ValueError("mass_matrix_factor needs a serial chain "
                         f"(parent[i] == i - 1); model {model.name!r} branches at "
                         f"bodies {branched}")
    q = model.check_q(q)
    zero = np.zeros(model.nv)
    ap = aba_pass(model, q, zero, zero, dV0=np.zeros(6))
    S = ap.forward.S
    W = np.zeros(q.shape[:-1] + (model.nv, model.nv),
                 dtype=np.result_type(q, float))
    for i in range(1, model.nbodies + 1):
        vi = model.v_slice[i]
        U = ap.I_hat[i] @ S[i]                                  # (..., 6, n_i)
        try:
            L = np.linalg.cholesky(_T(S[i]) @ U)                # D_i = L_i L_i^T
        except np.linalg.LinAlgError:
            raise ValueError(f"body {model.names[i]!r}: S^T I_hat S is not "
                             "positive definite") \
                from None
        F = _T(np.linalg.solve(L, _T(U)))                       # I_hat_i S_i L_i^-T
        W[..., vi, vi] = L
        j = i
        while model.parent[j] > 0:
            # Ad*_{T^-1} F
            F = _T(Ad_inv_matrix(ap.forward.R[j], ap.forward.p[j])) @ F
            j = model.parent[j]
            W[..., model.v_slice[j], vi] = _T(S[j]) @ F
    return W
