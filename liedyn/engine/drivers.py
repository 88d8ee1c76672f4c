"""The drivers: a batch of states, chunk by chunk, through the kernels of
:mod:`liedyn.engine.kernels`, compiled by numba
(:func:`liedyn.engine.jit.compiled`), with the input checks and the finite-result
test inside.

A driver gets one state, or ``B`` states flattened into one axis: ``q`` of length
``nq`` or ``B nq``, ``dq`` of length ``nv`` or ``B nv``, ``f_ext`` of ``N`` or
``B N`` rows (one state's length: shared by the batch), the outputs of ``B nv``
rows, and its scratch memory ``work`` (:func:`work_length` numbers of the
outputs' dtype, allocated by the caller: a driver allocates nothing). It cuts the
workspaces of one chunk of :data:`~liedyn.engine.spatial.LANES` states from
``work`` (:func:`workspaces`) and, chunk after chunk, copies the chunk's states
into their rows (:func:`gather`), runs the kernel and copies the results out
(:func:`scatter`). It returns 0, or 1 for input that the checks refuse, or 2 for a
non-finite result, or 3 (the partials) for a joint whose ``S`` depends on ``q``;
the public function then re-runs the reference path, which computes the same
result or raises the clear error naming the argument. Its last argument says which
checks run: ``CHECK_OFF``, ``CHECK_STATE`` (all but ``f_ext``, the model's zeros
when no wrench is given) or ``CHECK_ALL``.
"""
import numpy as np

from ..joints import CHART_TOL, QUAT_TOL
from .jit import compiled, fence, kernel, stream
from .joints import joint_axis
from .kernels import (
    aba_chunk,
    body_wrench,
    coordinate_parents,
    crba_chunk,
    forward_partials,
    ground_frame_pass,
    hybrid_chunk,
    rnea_chunk,
    rnea_partials_chunk,
    wrench_recursion,
)
from .spatial import (
    A0,
    ABA_SLOTS,
    BLOCK_SLOTS,
    BODY_SLOTS,
    CHARTS,
    COORDINATE_SLOTS,
    DDQ,
    DQ,
    DSDQ,
    DV,
    FEXT,
    FREE,
    JOINT,
    LANES,
    NQ,
    NV,
    PARENT,
    PARTIALS_BLOCK_SLOTS,
    PARTIALS_SLOTS,
    QI,
    QUATERNIONS,
    R0,
    SPHERICAL,
    SPHERICAL_EXP,
    SPHERICAL_ZYX,
    TAU,
    V0,
    VARYING_S,
    VI,
    Q,
    S,
    V,
    at,
    store6,
)

CHECK_OFF, CHECK_STATE, CHECK_ALL = 0, 1, 2


# --- the input checks -------------------------------------------------------------
@kernel
def all_finite(x):
    """True unless some entry of the C-contiguous float or complex array ``x`` is
    NaN or inf, i.e. has all 11 exponent bits set (IEEE 754): ``e + 1`` reaches
    ``0x800`` only for ``e = 0x7FF``. Integer operations without a branch per entry,
    so that the compiled loop is vectorised (it checks every output, mass matrices
    included). A vector is read as it is: numba's ``reshape`` calls a C function,
    a fixed cost that the checks of one state would feel."""
    bits = x.view(np.int64) if x.ndim == 1 else x.reshape(-1).view(np.int64)
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
    ``tol`` (at once if the model has none)."""
    nq = topo[0, QI]
    if not topo[0, JOINT] & QUATERNIONS:
        return True
    for b in range(min(B, q.shape[0] // nq)):
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
    :meth:`liedyn.joints.SphericalExp.chart_distance`); at once if the model has no
    such joint."""
    nq = topo[0, QI]
    if not topo[0, JOINT] & CHARTS:
        return True
    for b in range(min(B, q.shape[0] // nq)):
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


# --- a chunk's workspaces ---------------------------------------------------------
LINE = 64
"""Bytes of a cache line, and of the widest vectors (AVX-512: 8 doubles)."""


@kernel
def padded(n):
    """``n`` rounded up to a multiple of 8: the length of a row of a matrix whose
    row operations are loops along its rows, so that they compile into vector
    instructions (of 2, 4 or 8 numbers) with no remainder left to a scalar loop,
    and (for an array that starts on a cache line) every row starts on one."""
    return (n + 7) // 8 * 8


@kernel
def layout(topo):
    """Where the parts of a driver's scratch memory ``work`` start, and its length:
    ``(c, d, m, Mb, X, marks, end)``, each a multiple of 8 numbers past the one
    before. ``work`` holds the workspaces of a chunk, sized for the algorithm that
    needs most (the partials): ``w`` (the bodies' rows, from 0), ``c`` (the
    coordinates' rows), ``d`` (the joint blocks' rows), ``m`` (three (nv, nv)
    matrices per state of the chunk), one state's ``Mb`` (nv, nv) and system ``X``
    (nv, padded(3 nv)), and ``marks``, integers (:func:`marks`)."""
    N, nv = topo.shape[0] - 1, topo[0, VI]
    c = padded((N + 1) * max(ABA_SLOTS, PARTIALS_SLOTS) * LANES)
    d = c + padded(nv * COORDINATE_SLOTS * LANES)
    m = d + padded(nv * max(BLOCK_SLOTS, PARTIALS_BLOCK_SLOTS) * LANES)
    Mb = m + 3 * padded(nv * nv * LANES)
    X = Mb + padded(nv * nv)
    marks = X + nv * padded(3 * nv)
    return c, d, m, Mb, X, marks, marks + padded(N + 1 + nv + nv * nv)


@kernel
def work_length(topo):
    """The length of the array ``work`` that every driver takes: its scratch
    memory (:func:`layout`). The caller allocates it, starting on a cache line, so
    that the compiled drivers allocate nothing (numba then counts no references to
    arrays: :class:`~liedyn.engine.jit.Driver`)."""
    return layout(topo)[-1]


@kernel(inline=True)
def workspaces(work, topo, body_slots, block_slots):
    """The workspaces of a chunk, cut from ``work`` (:func:`layout`): ``w`` with
    ``body_slots`` slots per body, ``c`` with the coordinates' slots, ``d`` with
    ``block_slots`` slots per coordinate; not initialised (:func:`prepare` sets what
    the kernels read before they write it)."""
    N, nv = topo.shape[0] - 1, topo[0, VI]
    a, b, e = body_slots * LANES, COORDINATE_SLOTS * LANES, block_slots * LANES
    c, d = layout(topo)[:2]
    return (work[:(N + 1) * a].reshape((N + 1, a)),
            work[c:c + nv * b].reshape((nv, b)),
            work[d:d + nv * e].reshape((nv, e)))


@kernel(inline=True)
def matrices(work, topo, L):
    """Three (nv, nv) matrices of each of the ``L`` states of a chunk, cut from
    ``work``: entry ``(r, k)`` of a matrix of state ``l`` at ``[r nv + k, l]``;
    not initialised."""
    n, m = topo[0, VI] ** 2, layout(topo)[2]
    a = padded(n * LANES)                                # each on a cache line
    return (work[m:m + n * L].reshape((n, L)),
            work[m + a:m + a + n * L].reshape((n, L)),
            work[m + 2 * a:m + 2 * a + n * L].reshape((n, L)))


@kernel(inline=True)
def system(work, topo):
    """One state's ``(Mb, X)``, cut from ``work``: ``Mb`` (nv, nv) and ``X`` (nv,
    padded(3 nv)) (rows of whole cache lines), not initialised."""
    nv = topo[0, VI]
    Mb, X = layout(topo)[3:5]
    return (work[Mb:Mb + nv * nv].reshape((nv, nv)),
            work[X:X + nv * padded(3 * nv)].reshape((nv, padded(3 * nv))))


@kernel(inline=True)
def marks(work, topo):
    """The integers of a driver's scratch, the end of ``work`` seen as int64:
    ``inside`` (N+1), ``lam`` (nv) and ``rel`` (nv, nv): bodies in a subtree
    (:func:`~liedyn.engine.kernels.rnea_partials_chunk`), the coordinates' parents
    (:func:`~liedyn.engine.kernels.coordinate_parents`) and :func:`related`."""
    N, nv = topo.shape[0] - 1, topo[0, VI]
    k = layout(topo)[5]
    ints = work[k:k + N + 1 + nv + nv * nv].view(np.int64)
    return (ints[:N + 1], ints[N + 1:N + 1 + nv],
            ints[N + 1 + nv:N + 1 + nv + nv * nv].reshape((nv, nv)))


@kernel
def prepare(topo, body, w, c, L):
    """What the kernels read and no chunk changes, for the ``L`` states of the
    chunk: the ground's ``V_0 = 0`` and ``dV_0 = (0, -g)`` (row 0 of ``body``; in
    the ground frame also ``T_{0,0} = 1``), ``dS_i dq_i = 0`` and the columns of
    ``S_i`` that do not depend on ``q``
    (:func:`~liedyn.engine.joints.joint_axis`)."""
    w[0, at(V, 0)] = 0
    zero = w[0, at(V, 0)]                        # of the workspace's type
    o = (zero, zero, zero)
    g = ((body[0, 0] + zero, body[0, 1] + zero, body[0, 2] + zero),
         (body[0, 3] + zero, body[0, 4] + zero, body[0, 5] + zero))
    one = zero + 1
    for l in range(L):
        store6(w, 0, V, l, (o, o))
        store6(w, 0, DV, l, g)
    for i in range(1, topo.shape[0]):
        for l in range(L):
            store6(w, i, DSDQ, l, (o, o))
    if w.shape[1] >= PARTIALS_SLOTS * LANES:                # the ground frame
        for l in range(L):
            store6(w, 0, R0, l, ((one, zero, zero), (zero, one, zero)))
            store6(w, 0, R0 + 6, l, ((zero, zero, one), o))
            store6(w, 0, V0, l, (o, o))
            store6(w, 0, A0, l, g)
    for i in range(1, topo.shape[0]):
        for r in range(topo[i, NV]):
            axis = joint_axis(body, i, topo[i, JOINT], r, zero)
            for l in range(L):
                store6(c, topo[i, VI] + r, S, l, axis)


@kernel
def source(b0, l, B, one):
    """The state that goes into state ``l`` of the chunk that starts at ``b0``:
    ``b0 + l``, the batch's last one past its end (those results are dropped), or
    0 if the array holds one state for all."""
    return 0 if one else min(b0 + l, B - 1)


@kernel
def gather_q(topo, q, b0, B, w, L):
    """States ``b0 .. b0 + L - 1`` of ``q`` into the slots ``Q`` of the bodies'
    rows."""
    nq, one = topo[0, QI], q.shape[0] == topo[0, QI]
    for i in range(1, topo.shape[0]):
        k = topo[i, QI]
        for j in range(topo[i, NQ]):
            for l in range(L):
                w[i, at(Q + j, l)] = q[source(b0, l, B, one) * nq + k + j]


@kernel
def gather_wrenches(f_ext, b0, B, w, L):
    """States ``b0 .. b0 + L - 1`` of ``f_ext`` ((B N, 6) or (N, 6)) into the
    slots ``FEXT`` of the bodies' rows; nothing for a chunk after the first if it
    holds one state for all (no chunk changes those slots)."""
    N = w.shape[0] - 1
    one = f_ext.shape[0] == N
    if one and b0 > 0:
        return
    for i in range(1, N + 1):
        for j in range(6):
            for l in range(L):
                w[i, at(FEXT + j, l)] = f_ext[source(b0, l, B, one) * N + i - 1, j]


@kernel
def gather(c, X, x, b0, B, L):
    """States ``b0 .. b0 + L - 1`` of the vectors ``x`` ((B nv,) or (nv,)) into
    the slots ``X`` of the coordinates' rows."""
    nv = c.shape[0]
    one = x.shape[0] == nv
    for k in range(nv):
        for l in range(L):
            c[k, at(X, l)] = x[source(b0, l, B, one) * nv + k]


@kernel
def scatter(c, X, b0, B, out, L):
    """The slots ``X`` of the coordinates' rows into states ``b0 ..`` of ``out``
    (the chunk's, before the batch's end ``B``)."""
    nv = c.shape[0]
    for k in range(nv):
        for l in range(min(L, B - b0)):
            out[(b0 + l) * nv + k] = c[k, at(X, l)]


@kernel
def related(topo, out):
    """``out[r, k] = 1`` if coordinates ``r`` and ``k`` belong to bodies on one
    path to the ground (the same body, or one the other's ancestor), the entries of
    ``M`` and of the partials of ``tau`` that the kernels write, else 0 (bodies on
    different branches: those entries are zero). The forward partials read only
    these: skipping the others' reads measured faster than reading their zeros."""
    N = topo.shape[0] - 1
    out[...] = 0
    for i in range(1, N + 1):
        j = i
        while j > 0:                       # i and its ancestors j, both ways
            for r in range(topo[i, VI], topo[i, VI] + topo[i, NV]):
                for k in range(topo[j, VI], topo[j, VI] + topo[j, NV]):
                    out[r, k] = 1
                    out[k, r] = 1
            j = topo[j, PARENT]


STREAM_BYTES = 1 << 20
"""An output array of more bytes than this (a core's share of the caches, or more)
is written by non-temporal stores (:func:`~liedyn.engine.jit.stream`): written
plainly, each of its cache lines would be read from memory before being written,
to be evicted by the next ones anyway. The drivers that stream call
:func:`~liedyn.engine.jit.fence` before they return."""


@kernel
def put(out, i, j, x, far):
    """``out[i, j] = x``, streamed if ``far`` (``out.nbytes > STREAM_BYTES``)."""
    if far:
        stream(out, i, j, x)
    else:
        out[i, j] = x


@kernel
def scatter_matrix(m, b0, B, out, L):
    """The chunk's (nv, nv) matrices, entry ``(r, k)`` in row ``r nv + k`` of ``m``,
    into states ``b0 ..`` of ``out`` (``B nv`` rows; the chunk's, before ``B``).
    ``m`` starts as zeros: the kernels write the entries of coordinates on one path
    to the ground and leave the others (bodies on different branches) zero."""
    nv, far = out.shape[1], out.nbytes > STREAM_BYTES
    for l in range(min(L, B - b0)):
        for r in range(nv):
            for k in range(nv):
                put(out, (b0 + l) * nv + r, k, m[r * nv + k, l], far)


# --- the drivers ------------------------------------------------------------------
@kernel
def lanes(B):
    """The states of a chunk, for a batch of ``B``: :data:`LANES`, fewer for a
    smaller batch. In the engine for one state, one: a constant, which the compiler
    folds into the loops over the chunk's states and drops them."""
    return 1 if LANES == 1 else min(B, LANES)


# Each runs a batch of B states through its kernel in chunks of L = lanes(B).
def _rnea(topo, body, q, dq, ddq, f_ext, tau, work, check):
    B = states(topo, tau)
    if check and bad_input(topo, q, dq, ddq, f_ext, B, check):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, BODY_SLOTS, 0)
    prepare(topo, body, w, c, L)
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        gather_wrenches(f_ext, b0, B, w, L)
        gather(c, DQ, dq, b0, B, L)
        gather(c, DDQ, ddq, b0, B, L)
        rnea_chunk(topo, body, w, c, L)
        scatter(c, TAU, b0, B, tau, L)
    return 0 if not check or all_finite(tau) else 2


def _crba(topo, body, q, M, work, check):
    B = states(topo, M)
    if check and bad_configuration(topo, q, B):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, ABA_SLOTS, 0)
    m = matrices(work, topo, max(L, 1))[0]
    m[...] = 0                                        # zero off the paths
    prepare(topo, body, w, c, L)
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        crba_chunk(topo, body, w, c, m, L)
        scatter_matrix(m, b0, B, M, L)
    fence()
    return 0 if not check or all_finite(M) else 2


def _aba(topo, body, q, dq, tau, f_ext, ddq, work, check):
    B = states(topo, ddq)
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, ABA_SLOTS, BLOCK_SLOTS)
    prepare(topo, body, w, c, L)
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        gather_wrenches(f_ext, b0, B, w, L)
        gather(c, DQ, dq, b0, B, L)
        gather(c, TAU, tau, b0, B, L)
        aba_chunk(topo, body, w, c, d, L)
        scatter(c, DDQ, b0, B, ddq, L)
    return 0 if not check or all_finite(ddq) else 2


def _hybrid(topo, body, q, dq, ddq, tau, f_ext, prescribed, tau_out, ddq_out,
            work, check):
    nv, N = topo[0, VI], topo.shape[0] - 1
    B = states(topo, tau_out)
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not (lengths_ok(ddq, nv, B) and all_finite(ddq))
                  or prescribed.shape[0] != N
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, ABA_SLOTS, BLOCK_SLOTS)
    prepare(topo, body, w, c, L)
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        gather_wrenches(f_ext, b0, B, w, L)
        gather(c, DQ, dq, b0, B, L)
        gather(c, DDQ, ddq, b0, B, L)
        gather(c, TAU, tau, b0, B, L)
        hybrid_chunk(topo, body, prescribed, w, c, d, L)
        scatter(c, TAU, b0, B, tau_out, L)
        scatter(c, DDQ, b0, B, ddq_out, L)
    if check and not (all_finite(tau_out) and all_finite(ddq_out)):
        return 2
    return 0


def _rnea_partials(topo, body, q, dq, ddq, f_ext, dtau_dq, dtau_dv, M, work,
                   check):
    B = states(topo, M)
    if topo[0, JOINT] & VARYING_S:
        return 3
    if check and bad_input(topo, q, dq, ddq, f_ext, B, check):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, PARTIALS_SLOTS, PARTIALS_BLOCK_SLOTS)
    mq, mv, mM = matrices(work, topo, max(L, 1))
    for m in (mq, mv, mM):
        m[...] = 0                                   # zero off the paths
    inside = marks(work, topo)[0]
    prepare(topo, body, w, c, L)
    finite = True
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        gather_wrenches(f_ext, b0, B, w, L)
        gather(c, DQ, dq, b0, B, L)
        gather(c, DDQ, ddq, b0, B, L)
        rnea_chunk(topo, body, w, c, L)
        ground_frame_pass(topo, body, w, c, L)
        rnea_partials_chunk(topo, body, w, c, d, inside, mq, mv, mM, L)
        # the chunk's results, while they are in cache
        finite = finite and all_finite(mq) and all_finite(mv) and all_finite(mM)
        scatter_matrix(mq, b0, B, dtau_dq, L)
        scatter_matrix(mv, b0, B, dtau_dv, L)
        scatter_matrix(mM, b0, B, M, L)
    fence()
    return 2 if check and not finite else 0


def _aba_partials(topo, body, q, dq, tau, f_ext, dddq_dq, dddq_dv, Minv, work,
                  check):
    """``(d ddq/dq, d ddq/d(dq), M^-1)`` of ``B`` states in one call, each (nv, nv)
    as (B nv, nv): per chunk ``ddq`` by :func:`~liedyn.engine.kernels.aba_chunk`,
    the wrenches ``F_i`` of Table 2 at the ABA's ``V_i`` and ``dV_i``
    (:func:`~liedyn.engine.kernels.body_wrench`,
    :func:`~liedyn.engine.kernels.wrench_recursion`), the partials of ``tau`` and
    ``M`` there (:func:`~liedyn.engine.kernels.rnea_partials_chunk`), then per state
    :func:`~liedyn.engine.kernels.forward_partials`. Returns 3 if some
    joint's ``S`` depends on ``q``, 1 for bad input, a chart singularity or an
    ``M`` that is not positive definite, 2 for a non-finite result."""
    B, nv = states(topo, Minv), topo[0, VI]
    if topo[0, JOINT] & VARYING_S:
        return 3
    if check and (bad_input(topo, q, dq, tau, f_ext, B, check)
                  or not charts_ok(topo, q, B, CHART_TOL)):
        return 1
    L = lanes(B)
    w, c, d = workspaces(work, topo, PARTIALS_SLOTS, PARTIALS_BLOCK_SLOTS)
    mq, mv, mM = matrices(work, topo, max(L, 1))
    Mb, X = system(work, topo)       # one state's M, then its factor; [1, -dtau/dq,
    X[...] = 0                       # -dtau/dv, 0]
    inside, lam, rel = marks(work, topo)
    coordinate_parents(topo, lam)
    related(topo, rel)
    far = Minv.nbytes > STREAM_BYTES
    prepare(topo, body, w, c, L)
    finite = True
    for b0 in range(0, B, max(L, 1)):
        gather_q(topo, q, b0, B, w, L)
        gather_wrenches(f_ext, b0, B, w, L)
        gather(c, DQ, dq, b0, B, L)
        gather(c, TAU, tau, b0, B, L)
        aba_chunk(topo, body, w, c, d, L)       # ddq, V_i and dV_i in their slots
        for i in range(1, topo.shape[0]):       # F_i at them (42), then Table 5
            body_wrench(body, i, w, L)
        wrench_recursion(topo, body, w, c, L)
        ground_frame_pass(topo, body, w, c, L)
        rnea_partials_chunk(topo, body, w, c, d, inside, mq, mv, mM, L)
        for l in range(min(L, B - b0)):
            for r in range(nv):
                for k in range(nv):          # read only the entries on the paths
                    x = rel[r, k]
                    Mb[r, k] = mM[r * nv + k, l] if x else 0
                    X[r, k] = 1 if r == k else 0
                    X[r, nv + k] = -mq[r * nv + k, l] if x else 0
                    X[r, 2 * nv + k] = -mv[r * nv + k, l] if x else 0
            if not forward_partials(Mb, X, lam):
                fence()
                return 1
            finite = finite and all_finite(X)   # one state's results, in cache
            s = (b0 + l) * nv
            for r in range(nv):
                for k in range(nv):
                    put(Minv, s + r, k, X[r, k], far)
                    put(dddq_dq, s + r, k, X[r, nv + k], far)
                    put(dddq_dv, s + r, k, X[r, 2 * nv + k], far)
    fence()
    return 2 if check and not finite else 0


(rnea_loop, crba_loop, aba_loop, hybrid_loop, rnea_partials_loop,
 aba_partials_loop) = (
    compiled(f) for f in (_rnea, _crba, _aba, _hybrid, _rnea_partials,
                          _aba_partials))
