"""Forward dynamics by the articulated-body algorithm, Kim (2012), Table 3
(corrected); derived in :ref:`sec-forward-dynamics`.

Three recursions (Section 2.2): forward, ``V_i`` (Kim's eq. (37)) and ``eta_i =
ad_{V_i} S_i dq_i + dS_i dq_i``; backward, the articulated inertias and bias forces
(Kim's eqs. (49)-(50)); forward, ``ddq_i`` (Kim's eq. (45)) and ``dV_i`` (Kim's eq.
(41)). The printed Table 3 misprints three operators; the code follows the
derivation and the errata appendix records the corrections.
"""
from dataclasses import dataclass

import numpy as np

from . import _checks
from .engine import dispatch as _exec
from ._spatial import Ad_inv_matrix, Ad_inv_mul, ad_star_mul, matvec, tr
from .kinematics import ForwardPass, forward_pass
from .model import state
from .inverse_dynamics import gravity_acceleration
from .joint import PIVOT_TOL

__all__ = ["ABAPass", "aba", "aba_pass", "inverse_mass_matrix",
           "mass_matrix_factor"]


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


def _inv(D, I_hat, S, model, i):
    """``Psi_i = D^-1`` for body ``i``'s ``D = S^T I_hat S`` plus its rotors (Kim's
    eq. (45)), or the error naming the body where ``D`` is singular: a pivot of its
    Cholesky factorization below :data:`~liedyn.joint.PIVOT_TOL` times ``tr(I_hat)
    |S|_F^2 + sum(armature)``, the largest value ``D`` can take."""
    if D.dtype == object:                                   # symbolic: as it is
        return np.linalg.inv(D)
    largest = (np.trace(I_hat.real, axis1=-2, axis2=-1)
               * np.sum(S.real ** 2, axis=(-2, -1)) + np.trace(model.rotor(i)))
    if _singular(D.real, PIVOT_TOL * largest):
        raise ValueError(f"body {model.names[i]!r}: S^T I_hat S is singular (a "
                         f"pivot below PIVOT_TOL = {PIVOT_TOL:g} of its largest "
                         "possible value); the subtree of this joint has no "
                         "inertia along the joint's motion (a massless body?)")
    return 1 / D if D.shape[-1] == 1 else np.linalg.inv(D)


def _singular(D, tol):
    """True if, for some state, a pivot of ``D = L L^T`` (the squares of ``L``'s
    diagonal) is not above that state's ``tol`` (...), or ``D`` is not positive
    definite."""
    if D.shape[-1] == 1:                                # one DOF: D is the pivot
        return bool(np.any(D[..., 0, 0] <= tol))
    try:
        L = np.linalg.cholesky(D)
    except np.linalg.LinAlgError:
        return True
    return bool(np.any(np.diagonal(L, axis1=-2, axis2=-1) ** 2 <= tol[..., None]))


class _Given:
    """Table 3's given ``tau[i]`` and ``f_ext[i]`` per body ``i = 1..N`` (entry 0
    unused)."""

    def __init__(self, model, batch, dtype, tau, f_ext):
        bodies = range(1, model.nbodies + 1)
        self._model, self._batch, self._dtype = model, batch, dtype
        self.tau = [None] + [tau[..., model.v_slice[i]] for i in bodies]
        self.f_ext = [None] + [f_ext[..., i - 1, :] for i in bodies]

    def batched(self, I):
        """``I`` once per state of the batch (a read-only view)."""
        return np.broadcast_to(I, self._batch + I.shape)

    def joined(self, ddq):
        """The full vector ``ddq`` (..., nv) from the per-body list."""
        out = np.zeros(self._batch + (self._model.nv,), dtype=self._dtype)
        for i in range(1, self._model.nbodies + 1):
            out[..., self._model.v_slice[i]] = ddq[i]
        return out


def _first_sweep(model, q, dq, tau, f_ext, dV0):
    """The checks, and Table 3's first forward sweep: the forward pass,
    ``A[i] = Ad_{T_{lambda(i),i}^-1}`` and ``eta[i]`` (Kim's eq. (41) without ``S
    ddq``).
    """
    batch, dtype, q, dq, tau, f_ext = state(model, q, dq, tau, f_ext=f_ext,
                                            names=("dq", "tau"))
    model.check_chart(q)
    dV0 = gravity_acceleration(model) if dV0 is None else dV0
    fw = forward_pass(model, q, dq, None, dV0)
    bodies = range(1, model.nbodies + 1)
    A = [None] + [Ad_inv_matrix(fw.R[i], fw.p[i]) for i in bodies]
    eta = [None] + [fw.dV[i] - Ad_inv_mul(fw.R[i], fw.p[i], fw.dV[model.parent[i]])
                    for i in bodies]
    return fw, A, eta, _Given(model, batch, dtype, tau, f_ext)


def aba_pass(model, q, dq, tau, f_ext=None, dV0=None):
    """Kim (2012), Table 3 (corrected), with every intermediate kept (see
    :class:`ABAPass`); arguments as in :func:`aba`, ``dV0`` overrides ``(0, -g)``.
    """
    fw, A, eta, given = _first_sweep(model, q, dq, tau, f_ext, dV0)
    N, S, V = model.nbodies, fw.S, fw.V
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):                     # backward sweep, (49)-(50)
        I = model.inertias[i]
        I_hat[i] = given.batched(I)
        B_hat[i] = -ad_star_mul(V[i], matvec(I, V[i])) - given.f_ext[i]
        for k in model.children[i]:                   # Ad*_{T_{i,k}^-1} = A_k^T
            I_hat[i] = I_hat[i] + tr(A[k]) @ Pi[k] @ A[k]
            B_hat[i] = B_hat[i] + matvec(tr(A[k]), beta[k])
        IS = I_hat[i] @ S[i]
        Psi[i] = _inv(tr(S[i]) @ IS + model.rotor(i), I_hat[i], S[i], model, i)
        Pi[i] = I_hat[i] - IS @ Psi[i] @ tr(IS)
        u = given.tau[i] - matvec(tr(S[i]), matvec(I_hat[i], eta[i]) + B_hat[i])
        beta[i] = B_hat[i] + matvec(I_hat[i], eta[i] + matvec(S[i] @ Psi[i], u))
    ddq, dV, F = [None] * (N + 1), [fw.dV[0]] + [None] * N, [None] * (N + 1)
    for i in range(1, N + 1):                     # second forward sweep, (45), (41)
        a = matvec(A[i], dV[model.parent[i]]) + eta[i]
        u = given.tau[i] - matvec(tr(S[i]), matvec(I_hat[i], a) + B_hat[i])
        ddq[i] = matvec(Psi[i], u)
        dV[i] = a + matvec(S[i], ddq[i])
        F[i] = matvec(I_hat[i], dV[i]) + B_hat[i]
    return ABAPass(fw, eta, I_hat, B_hat, Psi, Pi, beta, given.joined(ddq), dV, F)


def aba(model, q, dq, tau, f_ext=None):
    """Forward dynamics: the accelerations ``ddq`` produced by torques ``tau``, in
    O(n).

    Kim (2012), Table 3 and Kim's eqs. (43)-(50) (corrected: see the errata
    appendix); for a multi-DOF joint ``Psi_i = (S_i^T I_hat_i S_i)^-1`` is an ``n_i
    x n_i`` inverse. Derived in :ref:`sec-forward-dynamics`.

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
        naming the body, if some ``S^T I_hat S`` is singular (a massless leaf body:
        a pivot below :data:`liedyn.joint.PIVOT_TOL` of its largest value)
    ChartSingularityError
        within :data:`liedyn.joint.CHART_TOL` of a joint chart's singular set

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
    """``M(q)^-1`` (..., nv, nv) by the articulated-body structure, without forming
    ``M``.

    Kim (2012), Table 3 run with unit torques (the simplified algorithm of Section
    3.2): column ``k`` is ``aba(q, 0, e_k)`` without gravity, all columns as one
    batch.

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
    return tr(_checks.finite_result("inverse_mass_matrix", cols, q=q))


def mass_matrix_factor(model, q):
    """The square-root factor ``W`` of the mass matrix, ``M(q) = W W^T``, from the
    ABA.

    Murray, Li and Sastry, Ch. 4 ("square root factorization of M"): with the
    articulated inertias ``I_hat_i`` of Kim (2012), eq. (49), ``D_i = S_i^T I_hat_i
    S_i = L_i L_i^T`` and ``Y_ij = S_i^T I_hat_i Ad_{T_{j,i}^-1} S_j``, ``M = Y^T
    D^-1 Y`` and ``W = Y^T L^-T``. Computed like the composite-rigid-body algorithm
    with ``I_hat_i`` for the composite inertia: ``W_ji = S_j^T Ad*_{T_{j,i}^-1}
    I_hat_i S_i L_i^-T``. ``W`` is block upper triangular with diagonal blocks
    ``L_i`` (a Cholesky factorization from the tip to the base); ``M^-1 = W^-T
    W^-1``.

    Parameters
    ----------
    model : liedyn.model.Model
        a serial chain, ``parent[i] == i - 1``
    q : (..., nq) array

    Returns
    -------
    W : (..., nv, nv) array

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> from liedyn.crba import mass_matrix
    >>> model = double_pendulum()
    >>> W = mass_matrix_factor(model, [0.3, 0.8])
    >>> bool(np.allclose(W @ W.T, mass_matrix(model, [0.3, 0.8]))), float(W[1, 0])
    (True, 0.0)
    """
    q, ap = _at_rest(model, q)                # Table 3 at rest, without gravity
    S, W = ap.forward.S, {}                   # W[j, i]: the blocks of W
    for i in range(1, model.nbodies + 1):
        U = ap.I_hat[i] @ S[i]
        L = _cholesky(tr(S[i]) @ U + model.rotor(i), model, i)  # D_i = L_i L_i^T
        F = tr(np.linalg.solve(L, tr(U)))                       # I_hat_i S_i L_i^-T
        W[i, i], j = L, i
        while model.parent[j] > 0:
            F = tr(Ad_inv_matrix(ap.forward.R[j], ap.forward.p[j])) @ F  # Ad* F
            j = model.parent[j]
            W[j, i] = tr(S[j]) @ F
    return _blocks(model, W, q)


def _at_rest(model, q):
    """``q`` checked, and :func:`aba_pass` at rest without gravity (a serial chain
    only)."""
    branched = [model.names[i] for i in range(1, model.nbodies + 1)
                if model.parent[i] != i - 1]
    if branched:
        raise ValueError("mass_matrix_factor needs a serial chain "
                         f"(parent[i] == i - 1); model {model.name!r} branches at "
                         f"bodies {branched}")
    q = model.check_q(q)
    zero = np.zeros(model.nv)
    return q, aba_pass(model, q, zero, zero, dV0=np.zeros(6))


def _cholesky(D, model, i):
    """The lower Cholesky factor of body ``i``'s ``D = S^T I_hat S``."""
    try:
        return np.linalg.cholesky(D)
    except np.linalg.LinAlgError:
        raise ValueError(f"body {model.names[i]!r}: S^T I_hat S is not positive "
                         "definite") from None


def _blocks(model, W, q):
    """The (..., nv, nv) matrix of the blocks ``W[j, i]`` (rows of ``j``), zero
    elsewhere."""
    out = np.zeros(q.shape[:-1] + (model.nv, model.nv),
                   dtype=np.result_type(q, float))
    for (j, i), block in W.items():
        out[..., model.v_slice[j], model.v_slice[i]] = block
    return out
