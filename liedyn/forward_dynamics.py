"""Forward dynamics by the articulated-body algorithm, Kim (2012), Table 3
(corrected); derived in :ref:`sec-forward-dynamics`.

Three recursions (Section 2.2): forward, ``V_i`` (Kim's eq. (37)) and ``eta_i =
ad_{V_i} S_i dq_i + dS_i dq_i``; backward, the articulated inertias and bias forces
(Kim's eqs. (49)-(50)); forward, ``ddq_i`` (Kim's eq. (45)) and ``dV_i`` (Kim's eq.
(41)). The printed Table 3 misprints three operators; the code follows the
derivation and the errata appendix records the corrections.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks, _math
from ._spatial import Ad_inv_matrix, Ad_inv_mul, ad_star_mul, matvec, transpose
from .engine import dispatch as _exec
from .inverse_dynamics import gravity_acceleration
from .joint import PIVOT_TOL
from .kinematics import ForwardPass, forward_pass
from .model import state

if TYPE_CHECKING:
    from ._types import Array, ArrayLike
    from .model import Model

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
    Psi : list of (..., n_i, n_i)  ``(S_i^T I_hat_i S_i)^-1`` (``None`` where the
        acceleration is prescribed, in :class:`~liedyn.hybrid_dynamics.HybridPass`)
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


def joint_inverse(D, I_hat, S, model, i):
    """``Psi_i = D^-1`` for body ``i``'s ``D = S^T I_hat S`` plus its rotors (Kim's
    eq. (45)), after the pivot test of :func:`_check_pivots`; on object arrays,
    sympy's inverse.

    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=2.0, length=0.5)
    >>> I, S = model.inertias[1], model.joints[1].S(np.zeros(1))
    >>> float(joint_inverse(S.T @ I @ S, I, S, model, 1)[0, 0])      # 1 / (m l^2)
    2.0
    """
    _check_pivots(D, I_hat, S, model.armature[model.v_slice[i]], model.names[i])
    if D.dtype == object:
        return _math.inv(D)
    return 1 / D if D.shape[-1] == 1 else np.linalg.inv(D)


def _pivot_bounds(I_hat, S, armature):
    """The bounds ``b_j = 2 (tr(I_ww) |s_w,j|^2 + tr(I_vv) |s_v,j|^2) + a_j``
    (..., n) on the pivots of ``D = S^T I_hat S + diag(a)``, one per column ``j =
    (s_w,j, s_v,j)`` of ``S`` (..., 6, n); ``I_ww``, ``I_vv`` the rotational and
    translational blocks of ``I_hat`` (..., 6, 6) (derived at
    :data:`liedyn.joint.PIVOT_TOL`; absolute values of the traces, so that a
    non-physical ``I_hat`` has a bound too). Real parts of complex input.

    >>> from liedyn.inertia import spatial_inertia
    >>> I = spatial_inertia(2.0, np.zeros(3), np.diag([0.1, 0.2, 0.3]))
    >>> S = np.array([[0.0], [0.0], [1.0], [0.5], [0.0], [0.0]])  # about z, 0.5 off
    >>> _pivot_bounds(I, S, [0.01]).tolist()       # 2 (0.6 * 1 + 6 * 0.25) + 0.01
    [4.21]
    """
    I_hat, S = np.asarray(I_hat).real, np.asarray(S).real
    t_w = np.abs(np.trace(I_hat[..., :3, :3], axis1=-2, axis2=-1))[..., None]
    t_v = np.abs(np.trace(I_hat[..., 3:, 3:], axis1=-2, axis2=-1))[..., None]
    S2 = S ** 2
    s_w, s_v = np.sum(S2[..., :3, :], axis=-2), np.sum(S2[..., 3:, :], axis=-2)
    return 2 * (t_w * s_w + t_v * s_v) + np.asarray(armature)


def _ldl_pivots(D):
    """The pivots ``d`` (..., n) of ``D = L diag(d) L^T`` (..., n, n), Gaussian
    elimination without row exchanges (those of the kernels' Gauss-Jordan); after a
    zero pivot the later ones of that state are not finite."""
    D, n = np.array(D), D.shape[-1]
    d = np.empty(D.shape[:-1], dtype=D.dtype)
    for k in range(n):
        d[..., k] = D[..., k, k]
        if k + 1 < n:
            with np.errstate(divide="ignore", invalid="ignore"):
                D[..., k + 1:, k + 1:] = D[..., k + 1:, k + 1:] - (
                    D[..., k + 1:, k, None] * D[..., None, k, k + 1:]
                    / D[..., k, k, None, None])
    return d


def _check_pivots(D, I_hat, S, armature, body):
    """Refuse a singular or negative pivot of a joint's ``D = S^T I_hat S +
    diag(armature)`` (..., n, n), naming ``body``.

    The pivots ``d_j`` of ``D = L diag(d) L^T`` (in the order of ``S``'s columns)
    are compared with :data:`~liedyn.joint.PIVOT_TOL` times their bounds
    :func:`_pivot_bounds`: ``d_j`` not above it is singular (the subtree has no
    inertia along that motion but round-off), below minus it negative (``I_hat`` is
    not positive semi-definite: a non-physical inertia). Complex input: the real
    parts. Object arrays (sympy) are exact: a pivot that is a number is refused
    when ``<= 0``; a pivot with free symbols cannot be decided and is not tested.

    Raises
    ------
    ValueError
        ``"body '...': S^T I_hat S is singular ..."`` or ``"... has a negative
        pivot ... non-physical"``

    >>> _check_pivots(np.array([[-1.0]]), np.eye(6), np.eye(6)[:, 2:3], [0.0],
    ...               "tip")     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: body 'tip': S^T I_hat S has a negative pivot (pivot 0 is -1, ...
    """
    if D.dtype == object:
        if not _math.decidable(D):
            return
        d = _ldl_pivots(D)
        tol = bound = np.zeros(d.shape, dtype=object)
    else:
        d = _ldl_pivots(D.real)
        bound = np.broadcast_to(_pivot_bounds(I_hat, S, armature), d.shape)
        tol = PIVOT_TOL * bound
    bad = ~np.array(d > tol, dtype=bool)            # NaN after a zero pivot: bad
    if not bad.any():
        return
    j = np.argmax(bad, axis=-1)[..., None]             # the first bad pivot, each
    dj, tj, bj = (np.take_along_axis(x, j, -1)[..., 0] for x in (d, tol, bound))
    negative = bad.any(axis=-1) & np.array(dj < -tj, dtype=bool)
    pick = negative if negative.any() else bad.any(axis=-1)
    at = np.unravel_index(np.argmax(pick), pick.shape)
    j, dj, bj = int(j[at][0]), dj[at], bj[at]
    if D.dtype == object:                       # exact: no tolerance
        where = f"pivot {j} is {dj}, exactly"
    else:
        side = "below -" if negative.any() else "not above "
        where = (f"pivot {j} is {dj:.3g}, {side}PIVOT_TOL = {PIVOT_TOL:g} times "
                 f"its bound {bj:.3g}")
    if negative.any():
        raise ValueError(
            f"body {body!r}: S^T I_hat S has a negative pivot ({where}): the "
            "articulated inertia of this joint's subtree is not positive "
            "semi-definite, some inertia in it is non-physical (kept by "
            "inertia_check='warn' or 'ignore', or assigned to model.inertias)")
    raise ValueError(
        f"body {body!r}: S^T I_hat S is singular ({where}); the subtree of this "
        "joint has no inertia along the joint's motion (a massless body?)")


class Given:
    """The given inputs of Kim (2012), Tables 3 and 4, per body ``i = 1..N``
    (entry 0 unused): ``tau[i]``, ``f_ext[i]`` and (Table 4) ``ddq[i]``, views of
    whole vectors (..., nv) that :meth:`joined` fills with the results.

    >>> from liedyn.robots import double_pendulum
    >>> model = double_pendulum()
    >>> given = Given(model, (), float, np.array([1.0, 2.0]), np.zeros((2, 6)))
    >>> given.tau[2].tolist(), given.ddq[1].tolist()
    ([2.0], [0.0])
    """

    def __init__(self, model, batch, dtype, tau, f_ext, ddq=None):
        shape, bodies = batch + (model.nv,), range(1, model.nbodies + 1)
        self.batch, self._slices = batch, [model.v_slice[i] for i in bodies]
        self._tau = np.array(np.broadcast_to(tau, shape), dtype=dtype)
        self._ddq = (np.zeros(shape, dtype=dtype) if ddq is None else
                     np.array(np.broadcast_to(ddq, shape), dtype=dtype))
        self.tau = [None] + [self._tau[..., s] for s in self._slices]
        self.ddq = [None] + [self._ddq[..., s] for s in self._slices]
        self.f_ext = [None] + [f_ext[..., i - 1, :] for i in bodies]

    def joined(self, ddq, tau):
        """The full vectors ``(tau, ddq)`` (..., nv) from per-body lists."""
        for i, s in enumerate(self._slices, start=1):
            self._ddq[..., s], self._tau[..., s] = ddq[i], tau[i]
        return self._tau, self._ddq


def first_sweep(model, q, dq, tau, f_ext, dV0, ddq=None, torque_given=None):
    """The checks, and the first forward sweep of Kim (2012), Tables 3 and 4: the
    forward pass, ``A[i] = Ad_{T_{lambda(i),i}^-1}`` and ``eta[i]`` (Kim's eq. (41)
    without ``S ddq``), and the :class:`Given` inputs (``ddq`` for Table 4, whose
    ``torque_given`` (a boolean per body ``0..N``) limits the chart check to the
    joints whose ``S`` is inverted).

    >>> from liedyn.robots import pendulum
    >>> model = pendulum()
    >>> fw, A, eta, given = first_sweep(model, [0.3], [0.0], [0.0], None, None)
    >>> A[1].shape, eta[1].tolist()
    ((6, 6), [0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    """
    vectors, names = (dq, tau), ("dq", "tau")
    if ddq is not None:
        vectors, names = (dq, ddq, tau), ("dq", "ddq", "tau")
    batch, dtype, q, *vectors, f_ext = state(model, q, *vectors, f_ext=f_ext,
                                             names=names)
    model.check_chart(q, bodies=torque_given)
    dV0 = gravity_acceleration(model) if dV0 is None else dV0
    fw = forward_pass(model, q, vectors[0], None, dV0)
    bodies = range(1, model.nbodies + 1)
    A = [None] + [Ad_inv_matrix(fw.R[i], fw.p[i]) for i in bodies]
    eta = [None] + [fw.dV[i] - Ad_inv_mul(fw.R[i], fw.p[i], fw.dV[model.parent[i]])
                    for i in bodies]
    ddq = None if ddq is None else vectors[1]
    return fw, A, eta, Given(model, batch, dtype, vectors[-1], f_ext, ddq)


def articulation_step(model, i, V, S, eta, f_ext, children, batch, tau=None,
                      ddq=None):
    """The backward sweep of Kim (2012), Tables 3 and 4, at body ``i``: its
    articulated inertia and bias force (Kim's eqs. (49)-(50)) and what it passes to
    its parent.

    ``V``, ``S``, ``eta`` and ``f_ext`` are the body's twist, its joint's Jacobian,
    ``eta_i`` and external wrench; ``children`` holds a triple ``(A_k, Pi_k,
    beta_k)`` per child ``k``; ``batch`` the leading shape of the states. With the
    joint's torque ``tau`` given (Table 3, and Table 4 on ``v``): ``Psi = (S^T I_hat
    S)^-1``, ``Pi = I_hat - I_hat S Psi S^T I_hat``, ``beta = B_hat + I_hat (eta + S
    Psi (tau - S^T (I_hat eta + B_hat)))``; with its acceleration ``ddq``
    prescribed (Table 4 on ``u``, Kim's eqs. (51)-(52)): ``Psi = None``, ``Pi =
    I_hat``, ``beta = B_hat + I_hat (eta + S ddq)``. Returns ``(I_hat, B_hat, Psi,
    Pi, beta)``.

    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=2.0, length=0.5)
    >>> S, zero = model.joints[1].S(np.zeros(1)), np.zeros(6)
    >>> I_hat, B_hat, Psi, Pi, beta = articulation_step(
    ...     model, 1, zero, S, zero, zero, [], (), tau=np.zeros(1))
    >>> float(Psi[0, 0]), bool(np.allclose(Pi @ S, 0))      # 1/(m l^2); Pi S = 0
    (2.0, True)
    """
    I = model.inertias[i]
    I_hat = np.broadcast_to(I, batch + I.shape)
    B_hat = -ad_star_mul(V, matvec(I, V)) - f_ext
    for A_k, Pi_k, beta_k in children:              # Ad*_{T_{i,k}^-1} = A_k^T
        I_hat = I_hat + transpose(A_k) @ Pi_k @ A_k
        B_hat = B_hat + matvec(transpose(A_k), beta_k)
    if ddq is not None:                             # acceleration prescribed
        beta = B_hat + matvec(I_hat, eta + matvec(S, ddq))
        return I_hat, B_hat, None, I_hat, beta
    IS = I_hat @ S
    Psi = joint_inverse(transpose(S) @ IS + model.rotor(i), I_hat, S, model, i)
    Pi = I_hat - IS @ Psi @ transpose(IS)
    u = tau - matvec(transpose(S), matvec(I_hat, eta) + B_hat)
    beta = B_hat + matvec(I_hat, eta + matvec(S @ Psi, u))
    return I_hat, B_hat, Psi, Pi, beta


def acceleration_step(A, dV_parent, eta, S, I_hat, B_hat, Psi, tau, ddq=None):
    """The second forward sweep of Kim (2012), Tables 3 and 4, at one body: its
    joint's ``ddq = Psi (tau - S^T (I_hat a + B_hat))`` (Kim's eq. (45)) with ``a =
    A dV_parent + eta`` (unless ``ddq`` is given), ``dV = a + S ddq`` (41) and the
    joint's wrench ``F = I_hat dV + B_hat`` (43). Returns ``(ddq, dV, F)``.

    >>> S, zero = np.eye(6)[:, 2:3], np.zeros(6)
    >>> ddq, dV, F = acceleration_step(np.eye(6), zero, zero, S, np.eye(6), zero,
    ...                                np.eye(1), np.array([3.0]))
    >>> ddq.tolist(), F.tolist()
    ([3.0], [0.0, 0.0, 3.0, 0.0, 0.0, 0.0])
    """
    a = matvec(A, dV_parent) + eta
    if ddq is None:                                                     # (45)
        ddq = matvec(Psi, tau - matvec(transpose(S), matvec(I_hat, a) + B_hat))
    dV = a + matvec(S, ddq)                                             # (41)
    return ddq, dV, matvec(I_hat, dV) + B_hat


def aba_pass(model: Model, q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
             f_ext: ArrayLike | None = None,
             dV0: ArrayLike | None = None) -> ABAPass:
    """Kim (2012), Table 3 (corrected), with every intermediate kept (see
    :class:`ABAPass`); arguments as in :func:`aba`, ``dV0`` overrides ``(0, -g)``.
    """
    fw, A, eta, given = first_sweep(model, q, dq, tau, f_ext, dV0)
    N, S, V = model.nbodies, fw.S, fw.V
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):                     # backward sweep, (49)-(50)
        children = [(A[k], Pi[k], beta[k]) for k in model.children[i]]
        I_hat[i], B_hat[i], Psi[i], Pi[i], beta[i] = articulation_step(
            model, i, V[i], S[i], eta[i], given.f_ext[i], children, given.batch,
            tau=given.tau[i])
    ddq, dV, F = [None] * (N + 1), [fw.dV[0]] + [None] * N, [None] * (N + 1)
    for i in range(1, N + 1):                     # second forward sweep, (45), (41)
        ddq[i], dV[i], F[i] = acceleration_step(
            A[i], dV[model.parent[i]], eta[i], S[i], I_hat[i], B_hat[i], Psi[i],
            given.tau[i])
    _, ddq_out = given.joined(ddq, given.tau)
    return ABAPass(fw, eta, I_hat, B_hat, Psi, Pi, beta, ddq_out, dV, F)


def aba(model: Model, q: ArrayLike, dq: ArrayLike, tau: ArrayLike,
        f_ext: ArrayLike | None = None) -> Array:
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

    Float, complex (the real parts decide the pivots) and sympy objects (exact on
    rationals; symbolic pivots are not tested).

    Raises
    ------
    ValueError
        naming the body, if some ``S^T I_hat S`` has a pivot not above
        :data:`liedyn.joint.PIVOT_TOL` times its bound (a massless leaf) or a
        negative one (a non-physical inertia)
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
    if model.chart_bodies:                  # the reference path and its errors,
        model.check_chart(model.check_q(q))  # a chart singularity first
    ddq = aba_pass(model, q, dq, tau, f_ext).ddq
    return _checks.finite_result("aba", ddq, q=q, dq=dq, tau=tau, f_ext=f_ext)


def inverse_mass_matrix(model: Model, q: ArrayLike) -> Array:
    """``M(q)^-1`` (..., nv, nv) by the articulated-body structure, without forming
    ``M``.

    Kim (2012), Table 3 run with unit torques (the simplified algorithm of Section
    3.2): column ``k`` is ``aba(q, 0, e_k)`` without gravity, all columns as one
    batch. Any dtype, with the pivot test and its errors of :func:`aba`.

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
    dtype = _math.result_dtype(q)                    # integers for sympy: exact
    E, zero = np.eye(model.nv, dtype=dtype), np.zeros(model.nv, dtype=dtype)
    cols = aba_pass(model, q[..., None, :], zero, E,
                    dV0=np.zeros(6, dtype=dtype)).ddq
    return transpose(_checks.finite_result("inverse_mass_matrix", cols, q=q))


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
    W^-1``. On complex input the factors take plain products (no conjugate: the
    complex step passes through), on sympy objects sympy's square roots.

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
        D = transpose(S[i]) @ U + model.rotor(i)
        L = _cholesky(D, model, i)                               # D_i = L_i L_i^T
        F = transpose(_math.solve(L, transpose(U)))             # I_hat_i S_i L_i^-T
        W[i, i], j = L, i
        while model.parent[j] > 0:
            A_j = Ad_inv_matrix(ap.forward.R[j], ap.forward.p[j])
            F = transpose(A_j) @ F                                           # Ad* F
            j = model.parent[j]
            W[j, i] = transpose(S[j]) @ F
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
    zero = np.zeros(model.nv, dtype=_math.result_dtype(q))   # integers for sympy
    return q, aba_pass(model, q, zero, zero, dV0=np.zeros(6, dtype=zero.dtype))


def _cholesky(D, model, i):
    """The lower Cholesky factor of body ``i``'s ``D = S^T I_hat S`` (plain
    products on complex input, sympy's square roots on object arrays)."""
    try:
        return _math.cholesky(D)
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
