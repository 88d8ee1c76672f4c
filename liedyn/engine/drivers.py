"""The drivers: the loop over a flattened batch of states, compiled by numba
(:func:`liedyn.engine.jit.compiled`), with the input checks and the finite-result
test inside, and the forward-dynamics partials (``M^-1`` by Cholesky).
"""
import numpy as np

from ..joints import CHART_TOL, QUAT_TOL
from .jit import compiled, kernel, sqrt
from .kernels import *  # noqa: F401,F403  (the per-state algorithms and operators)

# --- drivers: the loop over a flattened batch, compiled when numba is available ---
# A driver gets one state, or B states flattened into one axis: q of length nq or
# B nq, dq of length nv or B nv, f_ext of N or B N rows (one state's length: shared
# by the batch), the output of B nv rows. It returns 0, or 1 for input that the
# checks refuse, or 2 for a non-finite result; the public function then re-runs the
# reference path, which computes the same result or raises the clear error naming
# the argument. Its last argument says which checks run: CHECK_OFF, CHECK_STATE (all
# but f_ext, the model's zeros when no wrench is given) or CHECK_ALL.
CHECK_OFF, CHECK_STATE, CHECK_ALL = 0, 1, 2


@kernel
def part(x, b, n):
    """State ``b`` of a flattened batch: rows ``b n .. b n + n - 1`` of ``x``, or
    its first ``n`` rows when ``x`` holds one state shared by the whole batch."""
    return x[b * n:(b + 1) * n] if x.shape[0] > n else x[0:n]


@kernel
def all_finite(x):
    """True unless some entry of the C-contiguous float or complex array ``x`` is
    NaN or inf, i.e. has all 11 exponent bits set (IEEE 754): ``e + 1`` reaches
    ``0x800`` only for ``e = 0x7FF``. Integer operations without a branch per entry,
    so that the compiled loop is vectorised (it checks every output, mass matrices
    included)."""
    bits = x.reshape(-1).view(np.int64)
    seen = 0
    for k in range(bits.shape[0]):
        seen |= ((bits[k] >> 52) & 0x7FF) + 1
    return seen & 0x800 == 0


@kernel
def lengths_ok(x, n, B):
    """``x`` holds one state (``n`` rows) or ``B`` of them."""
    return x.shape[0] == n or x.shape[0] == B * n


@kernel
def unit_quaternions(topo, q, B, tol):
    """True if every quaternion of a spherical or free joint has unit norm to within
    ``tol``."""
    nq = topo[0, QI]
    for b in range(min(B, q.shape[0] // nq) if nq > 0 else 0):
        for i in range(1, topo.shape[0]):
            code = topo[i, JOINT]
            if code == SPHERICAL or code == FREE:
                j = b * nq + topo[i, QI] + (3 if code == FREE else 0)
                n2 = 0.0
                for r in range(4):
                    n2 += q[j + r].real ** 2
                if abs(np.sqrt(n2) - 1) > tol:
                    return False
    return True


@kernel
def charts_ok(topo, q, B, tol):
    """True unless some joint is within ``tol`` of its chart's singular set: an
    Euler-angle joint at gimbal lock, ``|cos q1| < tol``, or exponential
    coordinates near ``|phi| = 2 pi k``, ``k >= 1``
    (:meth:`liedyn.joints.SphericalZYX.chart_distance`,
    :meth:`liedyn.joints.SphericalExp.chart_distance`)."""
    nq = topo[0, QI]
    for b in range(min(B, q.shape[0] // nq) if nq > 0 else 0):
        for i in range(1, topo.shape[0]):
            j = b * nq + topo[i, QI]
            if topo[i, JOINT] == SPHERICAL_ZYX:
                if abs(np.cos(q[j + 1].real)) < tol:
                    return False
            elif topo[i, JOINT] == SPHERICAL_EXP:
                t = np.sqrt(
                    q[j].real ** 2 + q[j + 1].real ** 2 + q[j + 2].real ** 2)
                k = max(np.floor(t / (2 * np.pi) + 0.5), 1.0)
                if abs(t - 2 * np.pi * k) < tol:
                    return False
    return True


@kernel
def bad_configuration(topo, q, B):
    """The checks of ``q`` (:meth:`liedyn.model.Model.check_q`), compiled: 1 if it
    has the wrong length, a NaN or inf entry, or a quaternion that is not unit,
    else 0."""
    ok = lengths_ok(q, topo[0, QI], B) and all_finite(q)
    return 0 if ok and unit_quaternions(topo, q, B, QUAT_TOL) else 1


@kernel
def bad_input(topo, q, x, y, f_ext, B, check):
    """The input checks of the public functions, compiled: 1 if
    :func:`bad_configuration` refuses ``q`` or some other array has the wrong shape
    or a NaN or inf entry, else 0. ``check`` is ``CHECK_ALL``, or ``CHECK_STATE``
    when ``f_ext`` is the model's own zeros (no wrench given)."""
    nv, N = topo[0, VI], topo.shape[0] - 1
    if not (lengths_ok(x, nv, B) and lengths_ok(y, nv, B)
            and lengths_ok(f_ext, N, B) and f_ext.shape[1] == 6):
        return 1
    ok = all_finite(x) and all_finite(y)
    if ok and check == CHECK_ALL:
        ok = all_finite(f_ext)
    return bad_configuration(topo, q, B) if ok else 1


@kernel
def states(topo, out):
    """The number B of states of a driver's output (``out`` has ``B nv`` rows)."""
    nv = topo[0, VI]
    return out.shape[0] // nv if nv > 0 else 0


@kernel
def rnea_workspace(nb, nv, like):
    """The workspaces of :func:`rnea_state` (Kim (2012), Table 2): R, p, S, dS, V,
    eta, dV, F, of the dtype of ``like``."""
    dt = like.dtype
    return (np.zeros((nb, 3, 3), dt), np.zeros((nb, 3), dt), np.zeros((nv, 6), dt),
            np.zeros((nv, 6), dt), np.zeros((nb, 6), dt), np.zeros((nb, 6), dt),
            np.zeros((nb, 6), dt), np.zeros((nb, 6), dt))


@kernel
def ground_workspace(nb, nv, like):
    """The workspaces of :func:`ground_frame_pass` and :func:`rnea_partials_state`:
    R0, p0 (``T_{0,i}``), S0, V0, A0, F0, Ic, Bc, a, b, of the dtype of ``like``."""
    dt = like.dtype
    return (np.zeros((nb, 3, 3), dt), np.zeros((nb, 3), dt), np.zeros((nv, 6), dt),
            np.zeros((nb, 6), dt), np.zeros((nb, 6), dt), np.zeros((nb, 6), dt),
            np.zeros((nb, 6, 6), dt), np.zeros((nb, 6, 6), dt),
            np.zeros((nv, 6), dt), np.zeros((nv, 6), dt))


@kernel
def aba_workspace(nb, nv, like):
    """The workspaces of :func:`aba_state` and :func:`hybrid_state`: R, p, S, dS,
    V, eta, dV, I_hat, B_hat, U, D, Psi, u, of the dtype of ``like``."""
    dt = like.dtype
    return (np.zeros((nb, 3, 3), dt), np.zeros((nb, 3), dt), np.zeros((nv, 6), dt),
            np.zeros((nv, 6), dt), np.zeros((nb, 6), dt), np.zeros((nb, 6), dt),
            np.zeros((nb, 6), dt), np.zeros((nb, 6, 6), dt), np.zeros((nb, 6), dt),
            np.zeros((nv, 6), dt), np.zeros((nv, 6), dt), np.zeros((nv, 6), dt),
            np.zeros(nv, dt))


def _rnea_loop(topo, body, q, dq, ddq, f_ext, tau, check):
    nq, nv, N, B = topo[0, QI], topo[0, VI], topo.shape[0] - 1, states(topo, tau)
    if check and bad_input(topo, q, dq, ddq, f_ext, B, check):
        return 1
    ws = rnea_workspace(N + 1, nv, tau)
    g = load6(body, 0)                  # row 0: the ground acceleration (0, -g)
    for b in range(B):
        rnea_state(topo, body, part(q, b, nq), part(dq, b, nv), part(ddq, b, nv),
                   part(f_ext, b, N), g, ws, part(tau, b, nv))
    return 0 if not check or all_finite(tau) else 2


def _crba_loop(topo, body, q, M, check):
    nq, nv, N, B = topo[0, QI], topo[0, VI], topo.shape[0] - 1, states(topo, M)
    if check and bad_configuration(topo, q, B):
        return 1
    nb, dt = N + 1, M.dtype
    ws = (np.zeros((nb, 3, 3), dt), np.zeros((nb, 3), dt), np.zeros((nv, 6), dt),
          np.zeros((nb, 6), dt), np.zeros((nb, 6, 6), dt))
    for b in range(B):
        crba_state(topo, body, part(q, b, nq), ws, part(M, b, nv))
    return 0 if not check or all_finite(M) else 2


def _aba_loop(topo, body, q, dq, tau, f_ext, ddq, check):
    nq, nv, N, B = topo[0, QI], topo[0, VI], topo.shape[0] - 1, states(topo, ddq)
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    ws = aba_workspace(N + 1, nv, ddq)
    g = load6(body, 0)                  # row 0: the ground acceleration (0, -g)
    for b in range(B):
        aba_state(topo, body, part(q, b, nq), part(dq, b, nv), part(tau, b, nv),
                  part(f_ext, b, N), g, ws, part(ddq, b, nv))
    return 0 if not check or all_finite(ddq) else 2


def _hybrid_loop(topo, body, q, dq, ddq, tau, f_ext, prescribed, tau_out, ddq_out,
                 check):
    nq, nv, N = topo[0, QI], topo[0, VI], topo.shape[0] - 1
    B = states(topo, tau_out)
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not (lengths_ok(ddq, nv, B) and all_finite(ddq))
                  or prescribed.shape[0] != N
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    ws = aba_workspace(N + 1, nv, tau_out)
    g = load6(body, 0)                  # row 0: the ground acceleration (0, -g)
    for b in range(B):
        hybrid_state(topo, body, part(q, b, nq), part(dq, b, nv), part(ddq, b, nv),
                     part(tau, b, nv), part(f_ext, b, N), prescribed, g, ws,
                     part(tau_out, b, nv), part(ddq_out, b, nv))
    if check and not (all_finite(tau_out) and all_finite(ddq_out)):
        return 2
    return 0


@kernel
def constant_S(topo):
    """True if no joint's ``S`` depends on ``q`` (:func:`rnea_partials_state`)."""
    for i in range(1, topo.shape[0]):
        code = topo[i, JOINT]
        if (code == UNIVERSAL or code == PLANAR or code == SPHERICAL_ZYX
                or code == SPHERICAL_EXP):
            return False
    return True


@kernel
def rnea_and_partials_state(topo, body, q, dq, ddq, f_ext, dV0, ws, tau, wg, inside,
                            dtau_dq, dtau_dv, M):
    """``tau``, ``dtau/dq``, ``dtau/d(dq)`` and ``M`` of one state: Kim (2012),
    Table 2 (:func:`rnea_state`), then Table 5 in the ground frame
    (:func:`ground_frame_pass`, :func:`rnea_partials_state`)."""
    rnea_state(topo, body, q, dq, ddq, f_ext, dV0, ws, tau)
    ground_frame_pass(topo, body, ws, wg)
    rnea_partials_state(topo, wg, inside, dtau_dq, dtau_dv, M)
    for i in range(1, topo.shape[0]):                   # M = dtau/dddq: the rotors
        for r in range(topo[i, NV]):
            M[topo[i, VI] + r, topo[i, VI] + r] += body[i, ARM + r]


def _rnea_partials_loop(topo, body, q, dq, ddq, f_ext, dtau_dq, dtau_dv, M, check):
    nq, nv, N, B = topo[0, QI], topo[0, VI], topo.shape[0] - 1, states(topo, M)
    if not constant_S(topo):
        return 3
    if check and bad_input(topo, q, dq, ddq, f_ext, B, check):
        return 1
    ws, wg = rnea_workspace(N + 1, nv, M), ground_workspace(N + 1, nv, M)
    inside = np.zeros(N + 1, np.bool_)
    tau = np.zeros(nv, M.dtype)
    g = load6(body, 0)                  # row 0: the ground acceleration (0, -g)
    for b in range(B):
        rnea_and_partials_state(
            topo, body, part(q, b, nq), part(dq, b, nv), part(ddq, b, nv),
            part(f_ext, b, N), g, ws, tau, wg, inside, part(dtau_dq, b, nv),
            part(dtau_dv, b, nv), part(M, b, nv))
    if check and not (all_finite(dtau_dq) and all_finite(dtau_dv)
                      and all_finite(M)):
        return 2
    return 0


# --- the forward-dynamics partials: M^-1 from the mass matrix ---------------------
@kernel
def cholesky(M, L):
    """``M = L L^T`` with ``L`` lower triangular, for the symmetric positive
    definite ``M`` (n, n); False if a pivot is not positive (``M`` is not). Plain
    (non-conjugate) products, so that the complex step passes through. (ABA's
    :func:`invert`, Gauss-Jordan on its small ``D_i`` blocks, would take twice the
    operations on the whole ``M`` and could not tell that it is singular.)"""
    n = M.shape[0]
    for j in range(n):
        d = M[j, j]
        for k in range(j):
            d = d - L[j, k] * L[j, k]
        if not d.real > 0:
            return False
        L[j, j] = sqrt(d)
        for i in range(j + 1, n):
            s = M[i, j]
            for k in range(j):
                s = s - L[i, k] * L[j, k]
            L[i, j] = s / L[j, j]
    return True


@kernel
def cholesky_inverse(L, Z, Minv):
    """``Minv = M^-1 = Z^T Z`` with ``Z = L^-1`` (lower triangular, row by row:
    ``Z_i = (e_i - sum_k<i L_ik Z_k) / L_ii``), from the factor of
    :func:`cholesky`. Row operations only: the inner loops run along rows."""
    n = L.shape[0]
    for i in range(n):
        for j in range(i + 1):
            Z[i, j] = L[i, i] * 0 + (1 if i == j else 0)
        for k in range(i):
            a = L[i, k]
            for j in range(k + 1):
                Z[i, j] = Z[i, j] - a * Z[k, j]
        for j in range(i + 1):
            Z[i, j] = Z[i, j] / L[i, i]
    for i in range(n):
        for j in range(n):
            Minv[i, j] = L[i, i] * 0
    for k in range(n):                  # Minv = sum_k Z_k^T Z_k (row k of Z)
        for i in range(k + 1):
            a = Z[k, i]
            for j in range(k + 1):
                Minv[i, j] = Minv[i, j] + a * Z[k, j]


@kernel
def minus_mul(A, B, tmp):
    """``B <- -A B`` for (n, n) matrices (rows of ``B`` accumulated into rows of
    ``tmp``, then copied back)."""
    n = A.shape[0]
    for i in range(n):
        for j in range(n):
            tmp[i, j] = A[i, 0] * 0
        for k in range(n):
            a = A[i, k]
            for j in range(n):
                tmp[i, j] = tmp[i, j] - a * B[k, j]
    for i in range(n):
        for j in range(n):
            B[i, j] = tmp[i, j]


@kernel
def forward_partials(M, dtau_dq, dtau_dv, L, Z, Minv, tmp):
    """In place, for one state: ``M -> M^-1``, ``dtau/dx -> d ddq/dx = -M^-1
    dtau/dx`` (implicit differentiation of ``M ddq + b = tau``;
    :func:`liedyn.derivatives.aba_partials`), with ``L``, ``Z``, ``Minv``, ``tmp``
    (n, n) workspaces. False if ``M`` is not positive definite."""
    if not cholesky(M, L):
        return False
    cholesky_inverse(L, Z, Minv)
    minus_mul(Minv, dtau_dq, tmp)
    minus_mul(Minv, dtau_dv, tmp)
    n = M.shape[0]
    for i in range(n):
        for j in range(n):
            M[i, j] = Minv[i, j]
    return True


def _aba_partials_loop(topo, body, q, dq, tau, f_ext, dddq_dq, dddq_dv, Minv,
                       check):
    """``(d ddq/dq, d ddq/d(dq), M^-1)`` of ``B`` states in one call, each (nv, nv)
    as (B nv, nv): per state ``ddq`` by :func:`aba_state`, the partials of ``tau``
    and ``M`` at it (:func:`rnea_and_partials_state`), then
    :func:`forward_partials`. Returns 3 if some
    joint's ``S`` depends on ``q``, 1 for bad input, a chart singularity or an
    ``M`` that is not positive definite, 2 for a non-finite result."""
    nq, nv, N, B = topo[0, QI], topo[0, VI], topo.shape[0] - 1, states(topo, Minv)
    if not constant_S(topo):
        return 3
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    wa = aba_workspace(N + 1, nv, Minv)
    ws, wg = rnea_workspace(N + 1, nv, Minv), ground_workspace(N + 1, nv, Minv)
    inside = np.zeros(N + 1, np.bool_)
    ddq, tau_id = np.zeros(nv, Minv.dtype), np.zeros(nv, Minv.dtype)
    L, Z = np.zeros((nv, nv), Minv.dtype), np.zeros((nv, nv), Minv.dtype)
    inv, tmp = np.zeros((nv, nv), Minv.dtype), np.zeros((nv, nv), Minv.dtype)
    g = load6(body, 0)                  # row 0: the ground acceleration (0, -g)
    for b in range(B):
        qb, dqb, fb = part(q, b, nq), part(dq, b, nv), part(f_ext, b, N)
        aba_state(topo, body, qb, dqb, part(tau, b, nv), fb, g, wa, ddq)
        Aq, Av, Mb = part(dddq_dq, b, nv), part(dddq_dv, b, nv), part(Minv, b, nv)
        rnea_and_partials_state(topo, body, qb, dqb, ddq, fb, g, ws, tau_id, wg,
                                inside, Aq, Av, Mb)    # dtau/dx and M, at ddq
        if not forward_partials(Mb, Aq, Av, L, Z, inv, tmp):   # then in place
            return 1
    if check and not (all_finite(dddq_dq) and all_finite(dddq_dv)
                      and all_finite(Minv)):
        return 2
    return 0


(rnea_loop, crba_loop, aba_loop, hybrid_loop, rnea_partials_loop,
 aba_partials_loop) = (
    compiled(f) for f in (_rnea_loop, _crba_loop, _aba_loop, _hybrid_loop,
                          _rnea_partials_loop, _aba_partials_loop))
