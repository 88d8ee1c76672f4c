"""The recursive algorithms written once, on a chunk of states.

This is the single source of the compiled paths of
:func:`liedyn.inverse_dynamics.rnea`, :func:`liedyn.crba.mass_matrix`,
:func:`liedyn.forward_dynamics.aba`, :func:`liedyn.hybrid_dynamics.hybrid` and the
partials, in the order of the book: Kim (2012), Table 2, the composite-rigid-body
algorithm, Tables 3 and 4, and the partials in the ground frame. Each function
works on the ``L`` states of a chunk (:data:`liedyn.engine.spatial.LANES` at most):
a loop over the bodies, as in the tables, and inside it loops over the states,
which load one state's quantities from the chunk's workspaces, apply the operators
of :mod:`liedyn.engine.spatial` and store the results. Only ``+``, ``-``, ``*``,
``/``, indexing and the functions of :mod:`liedyn.engine.jit` are used: numba
compiles the code for float64 and complex128 numbers into the drivers
(:mod:`liedyn.engine.drivers`); called directly, a kernel is plain Python on numbers
(chapter 11 counts its operations that way). The joints are in
:mod:`liedyn.engine.joints`.

The workspaces of a chunk (:func:`liedyn.engine.drivers.workspaces`): ``w`` has a
row per body ``i = 0..N``, ``c`` a row per velocity coordinate, ``d`` a row per
coordinate of a joint's ``n x n`` blocks; the slots of a row are named in
:mod:`liedyn.engine.spatial` (``w[i]``'s slot ``V`` holds ``V_i``). Row 0 of ``w``
is the ground: ``V_0 = 0`` and ``dV_0 = (0, -g)`` (Kim (2012), footnote 6), its
twist also the zero of the right type (float or complex) wherever one is needed.
The model arrives flattened (:func:`liedyn.engine.dispatch.flat_model`): ``topo[i]``
holds the parent, the joint code and the offsets and sizes of body ``i``'s
coordinates, ``body[i]`` its joint parameters, placement ``X_i``, inertia ``I_i``
and armature.

A loop over the states writes one row of each array it writes to: the compiler then
proves that its states are independent and compiles it into packed vector
instructions. A parent's quantities are therefore first copied into its child's row
(:func:`~liedyn.engine.spatial.copy_slots`), and a child's terms are added to its
parent's row by a loop of their own (:func:`~liedyn.engine.spatial.add_slots`).
"""
from math import nan

from ..joint import PIVOT_TOL
from .jit import kernel
from .joints import joint_motion
from .spatial import (
    A0,
    AJ,
    AK,
    ARM,
    BC,
    BETA,
    BH,
    BK,
    DA0Q,
    DA0V,
    DDQ,
    DQ,
    DSDQ,
    DV,
    DV0Q,
    ETA,
    F0,
    FACTOR,
    FEXT,
    FP,
    GQ,
    GV,
    IAB,
    IC0,
    IH,
    NV,
    P0,
    PARENT,
    PI,
    PSI,
    PSIU,
    R0,
    RECIP,
    S0,
    SDDQ,
    SDQ,
    TAU,
    TOL,
    UK,
    UPSI,
    V0,
    VI,
    XI,
    Ad_inv_mul,
    Ad_mul,
    Ad_star_inv_mul,
    D,
    F,
    S,
    U,
    V,
    ad_mul,
    ad_star_mul,
    add_slots,
    at,
    block_traces,
    body_inertia,
    columns_mul,
    columns_T_mul,
    congruence,
    copy_slots,
    dot,
    inertia_mul,
    inertia_sub_outer,
    load3,
    load6,
    load_columns,
    load_inertia,
    load_rotation,
    load_transform,
    madd,
    matmul,
    mul_skew,
    rot,
    sadd,
    sdot,
    sscale,
    ssub,
    store3,
    store6,
    store_inertia,
    store_rotation,
    transpose,
    vadd,
    vneg,
)


# --- sums over a joint's coordinates --------------------------------------------
@kernel
def joint_sum(w, i, X, c, v, n, Y, L):
    """``S_i y_i = sum_r S_r y_r`` into the slot ``X`` of body ``i``'s row, ``y``
    the slot ``Y`` of the joint's coordinate rows ``v .. v + n - 1`` (zero for a
    fixed joint)."""
    if n == 0:
        zero = w[0, at(V, 0)]
        for l in range(L):
            store6(w, i, X, l, ((zero, zero, zero), (zero, zero, zero)))
        return
    for l in range(L):
        store6(w, i, X, l, sscale(c[v, at(Y, l)], load6(c, v, S, l)))
    for r in range(1, n):
        for l in range(L):
            y_S = sscale(c[v + r, at(Y, l)], load6(c, v + r, S, l))
            store6(w, i, X, l, sadd(load6(w, i, X, l), y_S))


# --- Table 2: inverse dynamics ----------------------------------------------------
@kernel
def rnea_chunk(topo, body, w, c, L):
    """Kim (2012), Table 2: inverse dynamics of the ``L`` states of a chunk (``q``,
    ``dq``, ``ddq`` and ``F^ext`` in the slots ``Q``, ``DQ``, ``DDQ``, ``FEXT``;
    ``tau`` into the slots ``TAU``).

    ``V_i = Ad_{T^-1} V_{lambda(i)} + S_i dq_i`` (37);
    ``dV_i = Ad_{T^-1} dV_{lambda(i)} + eta_i + S_i ddq_i`` (41) with
    ``eta_i = ad_{V_i} S_i dq_i + dS_i dq_i``;
    ``F_i = I_i dV_i - ad*_{V_i} I_i V_i - F_i^ext``
    ``+ sum_{k in mu(i)} Ad*_{T_{i,k}^-1} F_k`` (42), each body adding its term to
    its parent's sum; ``tau_i = S_i^T F_i`` (plus the rotor's ``armature ddq_i``).
    """
    N = topo.shape[0] - 1
    for i in range(1, N + 1):
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        joint_motion(topo, body, i, w, c, True, L)
        joint_sum(w, i, SDQ, c, v, n, DQ, L)
        joint_sum(w, i, SDDQ, c, v, n, DDQ, L)
        copy_slots(w, i, V, lam, V, 12)         # V_lambda(i), dV_lambda(i)
        for l in range(L):
            Ri, pi = load_transform(w, i, l)
            Sdq = load6(w, i, SDQ, l)
            Vi = sadd(Ad_inv_mul(Ri, pi, load6(w, i, V, l)), Sdq)             # (37)
            eta = sadd(ad_mul(Vi, Sdq), load6(w, i, DSDQ, l))
            dVi = sadd(sadd(Ad_inv_mul(Ri, pi, load6(w, i, DV, l)), eta),
                       load6(w, i, SDDQ, l))                                  # (41)
            store6(w, i, V, l, Vi)
            store6(w, i, DV, l, dVi)
        body_wrench(body, i, w, L)                                            # (42)
    wrench_recursion(topo, body, w, c, L)


@kernel
def body_wrench(body, i, w, L):
    """Body ``i``'s own terms of Kim (2012), eq. (42), from ``V_i``, ``dV_i`` and
    ``F_i^ext`` in its slots ``V``, ``DV``, ``FEXT``: ``F_i = I_i dV_i - ad*_{V_i}
    I_i V_i - F_i^ext`` into its slot ``F``, before its children's wrenches are
    added (:func:`wrench_recursion`)."""
    I = body_inertia(body, i)
    for l in range(L):
        Vi, dVi = load6(w, i, V, l), load6(w, i, DV, l)
        IdV = ssub(inertia_mul(I, dVi), ad_star_mul(Vi, inertia_mul(I, Vi)))
        store6(w, i, F, l, ssub(IdV, load6(w, i, FEXT, l)))


@kernel
def wrench_recursion(topo, body, w, c, L):
    """The backward recursion of Kim (2012), Table 2, on the bodies' own terms
    (:func:`body_wrench`) in their slots ``F``: from the leaves, ``F_i +=
    sum_{k in mu(i)} Ad*_{T_{i,k}^-1} F_k`` (42), each body adding its term to its
    parent's sum, and ``tau_i = S_i^T F_i`` into the slots ``TAU`` (plus the rotor's
    ``armature ddq_i``, ``ddq`` in the slots ``DDQ``)."""
    N = topo.shape[0] - 1
    for i in range(N, 0, -1):                # F_i is complete: children came first
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        for r in range(n):
            a = body[i, ARM + r]
            for l in range(L):                   # tau = S^T F, plus the rotor's
                StF = sdot(load6(c, v + r, S, l), load6(w, i, F, l))
                c[v + r, at(TAU, l)] = StF + a * c[v + r, at(DDQ, l)]
        if lam > 0:
            for l in range(L):
                Ri, pi = load_transform(w, i, l)
                store6(w, i, FP, l, Ad_star_inv_mul(Ri, pi, load6(w, i, F, l)))
            add_slots(w, lam, F, i, FP, 6)


# --- the composite-rigid-body algorithm -----------------------------------------
@kernel
def crba_chunk(topo, body, w, c, M, L):
    """The composite-rigid-body algorithm (Featherstone (2008), Table 6.2) for the
    ``L`` states of a chunk: ``M`` into ``M[j nv + k]`` (entry ``(j, k)``, a row of
    ``LANES`` states; the entries of bodies on different branches stay as they were:
    zero).

    ``I^c_i = I_i + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} I^c_k Ad_{T_{i,k}^-1}``;
    ``M_ii = S_i^T I^c_i S_i`` (plus the armature on its diagonal); then
    ``F <- Ad*_{T_{lambda(j),j}^-1} F`` up the tree and ``M_{j,i} = S_j^T F``.
    """
    N, nv = topo.shape[0] - 1, topo[0, VI]
    for i in range(1, N + 1):
        joint_motion(topo, body, i, w, c, False, L)
        I = body_inertia(body, i)
        for l in range(L):
            store_inertia(w, i, IH, l, I)
    for i in range(N, 0, -1):               # I^c_i is complete: children came first
        lam = topo[i, PARENT]
        if lam > 0:
            for l in range(L):
                Ri, pi = load_transform(w, i, l)
                Ic = congruence(Ri, pi, load_inertia(w, i, IH, l))
                store_inertia(w, i, PI, l, Ic)
            add_slots(w, lam, IH, i, PI, 27)
    for i in range(1, N + 1):
        v, n = topo[i, VI], topo[i, NV]
        for r in range(n):
            k = v + r
            for l in range(L):                                         # I^c_i S_i
                store6(c, k, U, l, inertia_mul(load_inertia(w, i, IH, l),
                                               load6(c, k, S, l)))
            for cc in range(n):                          # M_ii = S_i^T I^c_i S_i
                for l in range(L):
                    M[(v + cc) * nv + k, l] = sdot(load6(c, v + cc, S, l),
                                                   load6(c, k, U, l))
            a = body[i, ARM + r]
            for l in range(L):                                       # + the rotor
                M[k * nv + k, l] = M[k * nv + k, l] + a
            j = i
            while topo[j, PARENT] > 0:
                for l in range(L):
                    Rj, pj = load_transform(w, j, l)
                    store6(c, k, U, l, Ad_star_inv_mul(Rj, pj, load6(c, k, U, l)))
                j = topo[j, PARENT]
                vj = topo[j, VI]
                for cc in range(topo[j, NV]):               # M_ji = S_j^T F, M_ij
                    for l in range(L):
                        M[(vj + cc) * nv + k, l] = sdot(load6(c, vj + cc, S, l),
                                                        load6(c, k, U, l))
                    for l in range(L):
                        M[k * nv + vj + cc, l] = M[(vj + cc) * nv + k, l]


# --- Table 3: forward dynamics ---------------------------------------------------
@kernel
def velocity_pass(topo, body, w, c, L):
    """The first forward recursion of Kim (2012), Tables 3 and 4, and what each body
    brings to (49)-(50) itself: ``T_{lambda(i),i}``, ``S_i``,
    ``V_i = Ad_{T^-1} V_{lambda(i)} + S_i dq_i`` (37), the velocity-product
    acceleration ``eta_i = ad_{V_i} S_i dq_i + dS_i dq_i`` (the part of (41)
    without ``ddq``), ``I_hat_i = I_i`` and ``B_hat_i = -ad*_{V_i} I_i V_i -
    F_i^ext``."""
    for i in range(1, topo.shape[0]):
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        joint_motion(topo, body, i, w, c, True, L)
        joint_sum(w, i, SDQ, c, v, n, DQ, L)
        copy_slots(w, i, V, lam, V, 6)
        I = body_inertia(body, i)
        for l in range(L):
            Ri, pi = load_transform(w, i, l)
            Sdq = load6(w, i, SDQ, l)
            Vi = sadd(Ad_inv_mul(Ri, pi, load6(w, i, V, l)), Sdq)             # (37)
            store6(w, i, V, l, Vi)
            store6(w, i, ETA, l, sadd(ad_mul(Vi, Sdq), load6(w, i, DSDQ, l)))
            store_inertia(w, i, IH, l, I)
            adIV = ad_star_mul(Vi, inertia_mul(I, Vi))
            store6(w, i, BH, l, ssub((vneg(adIV[0]), vneg(adIV[1])),
                                     load6(w, i, FEXT, l)))


@kernel
def pivot_tol(Sk, traces, a):
    """The tolerance on the pivot of the column ``Sk = (s_w, s_v)`` of ``S``:
    :data:`~liedyn.joint.PIVOT_TOL` times its bound ``2 (tr(I_ww) |s_w|^2 +
    tr(I_vv) |s_v|^2) + a`` (``traces``: ``2 |tr(I_ww)|``, ``2 |tr(I_vv)|``;
    ``a`` its armature)."""
    w, x = Sk
    return (PIVOT_TOL * (traces[0] * dot(w, w) + traces[1] * dot(x, x) + a)).real


@kernel
def invert(v, n, d, L):
    """``Psi = D^-1`` for the symmetric positive definite ``n x n`` block in the
    rows ``v .. v + n - 1`` of ``d`` (Gauss-Jordan without pivoting, whose pivots
    are those of ``D = L diag(d) L^T``; ``D`` is overwritten). One DOF: a
    reciprocal. A pivot ``k`` not above its tolerance (slot ``TOL``,
    :func:`pivots`) makes ``Psi`` NaN (``D`` is singular, or not positive definite
    if the pivot is negative): the driver's result is then not finite, and the
    reference path names the body."""
    if n == 1:
        for l in range(L):
            p = d[v, at(D, l)]
            d[v, at(PSI, l)] = (1 / p if p.real > d[v, at(TOL, l)].real
                                     else p * nan)
        return
    for r in range(n):
        for cc in range(n):
            e = 1.0 if r == cc else 0.0
            for l in range(L):
                d[v + r, at(PSI + cc, l)] = e
    for k in range(n):
        for l in range(L):
            p = d[v + k, at(D + k, l)]
            d[v + k, at(RECIP, l)] = (1 / p if p.real > d[v + k, at(TOL, l)].real
                                           else p * nan)
        for cc in range(n):
            for l in range(L):
                x = d[v + k, at(RECIP, l)]
                d[v + k, at(D + cc, l)] = d[v + k, at(D + cc, l)] * x
                d[v + k, at(PSI + cc, l)] = d[v + k, at(PSI + cc, l)] * x
        for r in range(n):
            if r != k:
                for l in range(L):
                    d[v + r, at(FACTOR, l)] = -d[v + r, at(D + k, l)]
                for cc in range(n):
                    for l in range(L):
                        f = d[v + r, at(FACTOR, l)]
                        d[v + r, at(D + cc, l)] = (
                            d[v + r, at(D + cc, l)] + f * d[v + k, at(D + cc, l)])
                        d[v + r, at(PSI + cc, l)] = (
                            d[v + r, at(PSI + cc, l)]
                            + f * d[v + k, at(PSI + cc, l)])


@kernel
def pivots(body, i, v, n, w, c, d, L):
    """Kim (2012), Table 3, for a joint whose torque is given: ``U = I_hat S`` and
    ``Psi = (S^T I_hat S + diag(arm))^-1`` of (45), singular where a pivot is not
    above its :func:`pivot_tol` (``arm``: the joint's armature)."""
    for r in range(n):
        k, a = v + r, body[i, ARM + r]
        for l in range(L):                                         # U = I_hat S
            Ih = load_inertia(w, i, IH, l)
            store6(c, k, U, l, inertia_mul(Ih, load6(c, k, S, l)))
        for l in range(L):
            tr_w, tr_v = block_traces(load_inertia(w, i, IH, l))
            traces = (2 * abs(tr_w.real), 2 * abs(tr_v.real))
            d[k, at(TOL, l)] = pivot_tol(load6(c, k, S, l), traces, a)
    for r in range(n):
        for cc in range(n):
            a = body[i, ARM + r] if r == cc else 0.0                     # the rotor
            for l in range(L):                                         # S^T I_hat S
                d[v + r, at(D + cc, l)] = (
                    sdot(load6(c, v + r, S, l), load6(c, v + cc, U, l)) + a)
    invert(v, n, d, L)


@kernel
def articulate(i, v, n, w, c, d, L):
    """What a joint whose torque is given passes to its parent (Kim (2012), Table
    3, the braces of (49)-(50); ``U``, ``Psi`` from :func:`pivots`): ``Pi = I_hat
    - U Psi U^T`` and ``beta = B_hat + I_hat eta + U Psi u``, with ``u = tau - S^T
    (I_hat eta + B_hat)``."""
    for l in range(L):
        Ih_eta = inertia_mul(load_inertia(w, i, IH, l), load6(w, i, ETA, l))
        store6(w, i, IAB, l, sadd(Ih_eta, load6(w, i, BH, l)))
    joint_torques_left(i, v, n, w, c, L)
    for r in range(n):                   # row r of U Psi, entry r of Psi u: summed
        for l in range(L):
            p = d[v + r, at(PSI, l)]
            store6(d, v + r, UPSI, l, sscale(p, load6(c, v, U, l)))
            d[v + r, at(PSIU, l)] = p * c[v, at(UK, l)]
        for cc in range(1, n):
            for l in range(L):
                p = d[v + r, at(PSI + cc, l)]
                store6(d, v + r, UPSI, l, sadd(load6(d, v + r, UPSI, l),
                                               sscale(p, load6(c, v + cc, U, l))))
                Psi_u = p * c[v + cc, at(UK, l)]
                d[v + r, at(PSIU, l)] = d[v + r, at(PSIU, l)] + Psi_u
    copy_slots(w, i, PI, i, IH, 27)             # Pi = I_hat - sum U (U Psi)^T,
    copy_slots(w, i, BETA, i, IAB, 6)           # beta = I_hat eta + B_hat + ...
    for r in range(n):
        for l in range(L):
            Ur = load6(c, v + r, U, l)
            store_inertia(w, i, PI, l, inertia_sub_outer(
                load_inertia(w, i, PI, l), Ur, load6(d, v + r, UPSI, l)))
            store6(w, i, BETA, l, sadd(load6(w, i, BETA, l),
                                       sscale(d[v + r, at(PSIU, l)], Ur)))


@kernel
def push_to_parent(i, lam, w, L):
    """``I_hat_lambda += Ad*_{T^-1} Pi_i Ad_{T^-1}``, ``B_hat_lambda +=
    Ad*_{T^-1} beta_i`` (49)-(50), for a body whose parent is not the ground."""
    for l in range(L):
        Ri, pi = load_transform(w, i, l)
        store_inertia(w, i, PI, l, congruence(Ri, pi, load_inertia(w, i, PI, l)))
        store6(w, i, BETA, l, Ad_star_inv_mul(Ri, pi, load6(w, i, BETA, l)))
    add_slots(w, lam, IH, i, PI, 33)          # I_hat and B_hat, Pi and beta


@kernel
def bias_acceleration(i, lam, w, L):
    """``a_i = Ad_{T^-1} dV_{lambda(i)} + eta_i``, the acceleration of body ``i``
    without its joint's, into the slot ``DV``, and ``I_hat_i a_i + B_hat_i``."""
    copy_slots(w, i, DV, lam, DV, 6)
    for l in range(L):
        Ri, pi = load_transform(w, i, l)
        a = sadd(Ad_inv_mul(Ri, pi, load6(w, i, DV, l)), load6(w, i, ETA, l))
        store6(w, i, DV, l, a)
        store6(w, i, IAB, l, sadd(inertia_mul(load_inertia(w, i, IH, l), a),
                                  load6(w, i, BH, l)))


@kernel
def joint_torques_left(i, v, n, w, c, L):
    """``u_i = tau_i - S_i^T X`` into the slots ``UK``, ``X`` in the slot ``IAB``
    (``I_hat_i eta_i + B_hat_i`` or ``I_hat_i a_i + B_hat_i``): the torques left for
    the joint's own acceleration (Kim (2012), eq. (45))."""
    for r in range(n):
        for l in range(L):
            StX = sdot(load6(c, v + r, S, l), load6(w, i, IAB, l))
            c[v + r, at(UK, l)] = c[v + r, at(TAU, l)] - StX


@kernel
def joint_acceleration(i, v, n, w, c, d, L):
    """``ddq_i = Psi_i (tau_i - S_i^T (I_hat_i a_i + B_hat_i))`` (45), then
    ``dV_i = a_i + S_i ddq_i`` (41)."""
    joint_torques_left(i, v, n, w, c, L)
    for r in range(n):
        for l in range(L):
            c[v + r, at(DDQ, l)] = d[v + r, at(PSI, l)] * c[v, at(UK, l)]
        for cc in range(1, n):
            for l in range(L):
                Psi_u = d[v + r, at(PSI + cc, l)] * c[v + cc, at(UK, l)]
                c[v + r, at(DDQ, l)] = c[v + r, at(DDQ, l)] + Psi_u
    add_joint_acceleration(i, v, n, w, c, L)


@kernel
def add_joint_acceleration(i, v, n, w, c, L):
    """``dV_i = a_i + S_i ddq_i`` (41), ``a_i`` in the slot ``DV``."""
    joint_sum(w, i, SDDQ, c, v, n, DDQ, L)
    for l in range(L):
        store6(w, i, DV, l, sadd(load6(w, i, DV, l), load6(w, i, SDDQ, l)))


@kernel
def articulation_step(topo, body, i, torque_given, w, c, d, L):
    """The backward sweep of Kim (2012), Tables 3 and 4, at body ``i``, its
    children's terms already pushed into its slots ``IH`` and ``BH``: ``I_hat_i =
    I_i + sum Ad*_{T^-1} Pi_k Ad_{T^-1}``, ``B_hat_i = -ad*_{V_i} I_i V_i - F_i^ext
    + sum Ad*_{T^-1} beta_k`` (49)-(50). Where the joint's torque is given,
    ``Psi_i = (S_i^T I_hat_i S_i)^-1``, ``Pi_i = I_hat_i - I_hat_i S_i Psi_i S_i^T
    I_hat_i``, ``beta_i = B_hat_i + I_hat_i (eta_i + S_i Psi_i (tau_i - S_i^T
    (I_hat_i eta_i + B_hat_i)))``; where its acceleration is prescribed (Table 4),
    ``Pi_i = I_hat_i``, ``beta_i = B_hat_i + I_hat_i (eta_i + S_i ddq_i)``
    (51)-(52). Then ``Pi_i`` and ``beta_i`` are pushed to the parent. A body whose
    parent is the ground needs ``Psi_i`` only (its ``Pi_i``, ``beta_i`` would go
    nowhere: for a floating base, a 6 x 6 update saved)."""
    lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
    if torque_given:
        pivots(body, i, v, n, w, c, d, L)
    if lam == 0:                                        # the ground takes nothing
        return
    if torque_given:
        articulate(i, v, n, w, c, d, L)
    else:                                                           # (51)-(52)
        joint_sum(w, i, SDDQ, c, v, n, DDQ, L)
        for l in range(L):
            Ih = load_inertia(w, i, IH, l)
            store_inertia(w, i, PI, l, Ih)
            store6(w, i, BETA, l, sadd(load6(w, i, BH, l), inertia_mul(
                Ih, sadd(load6(w, i, ETA, l), load6(w, i, SDDQ, l)))))
    push_to_parent(i, lam, w, L)


@kernel
def acceleration_step(topo, body, i, torque_given, w, c, d, L):
    """The second forward sweep of Kim (2012), Tables 3 and 4, at body ``i``:
    ``ddq_i = Psi_i (tau_i - S_i^T (I_hat_i (Ad_{T^-1} dV_{lambda(i)} + eta_i) +
    B_hat_i))`` (45) where the joint's torque is given, then ``dV_i = Ad_{T^-1}
    dV_{lambda(i)} + eta_i + S_i ddq_i`` (41) and, where the acceleration is
    prescribed, ``tau_i = S_i^T (I_hat_i dV_i + B_hat_i)`` plus the rotor's ``a
    ddq_i`` (53)."""
    lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
    bias_acceleration(i, lam, w, L)
    if torque_given:
        joint_acceleration(i, v, n, w, c, d, L)                    # (45), (41)
        return
    add_joint_acceleration(i, v, n, w, c, L)                              # (41)
    for l in range(L):                                                   # (53)
        Ih_dV = inertia_mul(load_inertia(w, i, IH, l), load6(w, i, DV, l))
        store6(w, i, F, l, sadd(Ih_dV, load6(w, i, BH, l)))
    for r in range(n):
        a = body[i, ARM + r]
        for l in range(L):                                           # + the rotor
            StF = sdot(load6(c, v + r, S, l), load6(w, i, F, l))
            c[v + r, at(TAU, l)] = StF + a * c[v + r, at(DDQ, l)]


@kernel
def aba_chunk(topo, body, w, c, d, L):
    """Kim (2012), Table 3 (corrected, see :mod:`liedyn.forward_dynamics`): forward
    dynamics of the ``L`` states of a chunk (``q``, ``dq``, ``tau``, ``F^ext`` in
    the slots ``Q``, ``DQ``, ``TAU``, ``FEXT``; ``ddq`` into the slots ``DDQ``): the
    velocities, then :func:`articulation_step` from the leaves and
    :func:`acceleration_step` from the root, every torque given.
    """
    N = topo.shape[0] - 1
    velocity_pass(topo, body, w, c, L)
    for i in range(N, 0, -1):              # complete: children pushed their terms
        articulation_step(topo, body, i, True, w, c, d, L)            # (49)-(50)
    for i in range(1, N + 1):
        acceleration_step(topo, body, i, True, w, c, d, L)             # (45), (41)


# --- Table 4: hybrid dynamics -----------------------------------------------------
@kernel
def hybrid_chunk(topo, body, prescribed, w, c, d, L):
    """Kim (2012), Table 4: hybrid dynamics of the ``L`` states of a chunk,
    ``prescribed[i - 1]`` true where joint ``i``'s acceleration is given (its torque
    is then computed), false where its torque is given (as in :func:`aba_chunk`).
    The slots ``DDQ`` and ``TAU`` hold what is given and receive what is computed.
    The steps of :func:`aba_chunk`, each told which of the two its joint has.
    """
    N = topo.shape[0] - 1
    velocity_pass(topo, body, w, c, L)
    for i in range(N, 0, -1):              # complete: children pushed their terms
        articulation_step(topo, body, i, not prescribed[i - 1], w, c, d, L)
    for i in range(1, N + 1):
        acceleration_step(topo, body, i, not prescribed[i - 1], w, c, d, L)


# --- the partials of inverse dynamics in the ground frame (chapter 10) -----------
@kernel
def coriolis_column(P_col, P_row, H_col):
    """One column of ``B(V) = -(P + P^T + H)``, from the halves of column ``k`` of
    ``P``, of row ``k`` of ``P`` and of column ``k`` of ``H``."""
    return (vneg(vadd(vadd(P_col[0], P_row[0]), H_col[0])),
            vneg(vadd(vadd(P_col[1], P_row[1]), H_col[1])))


@kernel(inline=True)
def store_coriolis(w, i, X, l, I, V, zero):
    """The six columns of ``B(V)`` into slot ``X`` of row ``i``, state ``l``:
    ``B(V) Y = -I ad_V Y - ad*_Y h - ad*_V I Y`` with ``h = I V`` is the change of
    ``I dV - ad*_V I V`` when ``V`` gains ``Y`` and ``dV`` gains ``ad_Y V`` (a body
    whose base velocity changes by ``Y``, seen from a fixed frame; equation
    ``ch10-ground-coriolis`` of :ref:`ch10-ground-frame`). In closed form, with
    ``P = I ad_V`` (so ``ad*_V I = P^T``) and ``ad*_Y h = H Y``,
    ``H = [[[m], [f]], [[f], 0]]`` for ``h = (m, f)``: ``B(V) = -(P + P^T + H)``,
    ``P = [[A [w] + B [v], B [w]], [B^T [w] + C [v], C [w]]]`` for
    ``I = [[A, B], [B^T, C]]`` and ``V = (w, v)``. Inlined into the pass (as
    :func:`~liedyn.engine.spatial.congruence`): called, its loop over the states
    was not compiled into vector instructions."""
    A, B, C = I
    m, f = inertia_mul(I, V)
    P11 = madd(mul_skew(A, V[0]), mul_skew(B, V[1]))
    P12 = mul_skew(B, V[0])
    P21 = madd(mul_skew(transpose(B), V[0]), mul_skew(C, V[1]))
    P22 = mul_skew(C, V[0])
    c11, c12 = transpose(P11), transpose(P12)          # columns of P's blocks
    c21, c22 = transpose(P21), transpose(P22)
    mT = ((zero, m[2], -m[1]), (-m[2], zero, m[0]), (m[1], -m[0], zero))   # [m]^T
    fT = ((zero, f[2], -f[1]), (-f[2], zero, f[0]), (f[1], -f[0], zero))   # [f]^T
    o = (zero, zero, zero)
    store6(w, i, X, l, coriolis_column((c11[0], c21[0]), (P11[0], P12[0]),
                                       (mT[0], fT[0])))
    store6(w, i, X + 6, l, coriolis_column((c11[1], c21[1]), (P11[1], P12[1]),
                                           (mT[1], fT[1])))
    store6(w, i, X + 12, l, coriolis_column((c11[2], c21[2]), (P11[2], P12[2]),
                                            (mT[2], fT[2])))
    store6(w, i, X + 18, l, coriolis_column((c12[0], c22[0]), (P21[0], P22[0]),
                                            (fT[0], o)))
    store6(w, i, X + 24, l, coriolis_column((c12[1], c22[1]), (P21[1], P22[1]),
                                            (fT[1], o)))
    store6(w, i, X + 30, l, coriolis_column((c12[2], c22[2]), (P21[2], P22[2]),
                                            (fT[2], o)))


@kernel
def ground_frame_pass(topo, body, w, c, L):
    """The nominal state of :func:`rnea_chunk` in the ground frame {0} (equation
    ``ch10-ground-rnea`` of :ref:`ch10-ground-frame`): ``T_{0,i}``, ``S_i``,
    ``V_i``, ``dV_i``, ``F_i`` moved by ``Ad_{T_{0,i}}`` (and ``Ad*_{T_{0,i}^-1}``),
    and the composites over the subtree of ``i`` of the inertia ``I_i`` and of
    ``B(V_i)`` (:func:`store_coriolis`); in {0} a composite is a plain sum. Also
    ``a_k = I^c_i S_k`` and ``b_k = B^c_i^T S_k`` per coordinate ``k`` of body
    ``i`` (slots ``AK``, ``BK``)."""
    N = topo.shape[0] - 1
    zero = w[0, at(V, 0)]
    for i in range(1, N + 1):
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        copy_slots(w, i, R0, lam, R0, 12)                  # T_{0,lambda(i)}
        I = body_inertia(body, i)
        for l in range(L):
            Rl, pl = load_rotation(w, i, R0, l), load3(w, i, P0, l)
            Ri, pi = load_transform(w, i, l)
            R0i, p0i = matmul(Rl, Ri), vadd(pl, rot(Rl, pi))      # T_0i = T_0l T_li
            store_rotation(w, i, R0, l, R0i)
            store3(w, i, P0, l, p0i)
            Vi = Ad_mul(R0i, p0i, load6(w, i, V, l))
            store6(w, i, V0, l, Vi)
            store6(w, i, A0, l, Ad_mul(R0i, p0i, load6(w, i, DV, l)))
            store6(w, i, F0, l, Ad_star_inv_mul(R0i, p0i, load6(w, i, F, l)))
            Ic = congruence(R0i, p0i, I)
            store_inertia(w, i, IC0, l, Ic)
            store_coriolis(w, i, BC, l, Ic, Vi, zero)
        for r in range(n):
            for l in range(L):
                R0i, p0i = load_rotation(w, i, R0, l), load3(w, i, P0, l)
                store6(c, v + r, S0, l, Ad_mul(R0i, p0i, load6(c, v + r, S, l)))
    for i in range(N, 0, -1):                    # complete: children came first
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        for r in range(n):
            for l in range(L):
                s = load6(c, v + r, S0, l)
                store6(c, v + r, AK, l, inertia_mul(load_inertia(w, i, IC0, l), s))
                store6(c, v + r, BK, l, columns_T_mul(load_columns(w, i, BC, l), s))
        if lam > 0:
            add_slots(w, lam, IC0, i, IC0, 63)        # I^c and B^c: plain sums


@kernel
def rnea_partials_chunk(topo, body, w, c, d, inside, dtau_dq, dtau_dv, M, L):
    """``dtau/dq``, ``dtau/d(dq)`` and ``M`` of the ``L`` states of a chunk from the
    ground-frame quantities of ``ground_frame_pass``, for joints with constant
    ``S``: Kim (2012), Lemma 3 and Table 5 along every unit direction at once
    (derived in :ref:`ch10-ground-frame`); entry ``(r, k)`` into the row
    ``r nv + k`` of each matrix (the others stay as they were: zero).

    Seen from {0}, a right perturbation of ``q_j`` along the column ``s`` of
    ``S_j`` turns the subtree of ``j`` rigidly about ``xi = Ad_{T_0j} s`` and
    changes its base velocity by ``dV0 = ad_{V_l} xi`` and base acceleration by
    ``dA0 = ad_{A_l} xi + ad_{V_l} dV0`` (``l`` the parent of ``j``); one of
    ``dq_j`` gives ``dV0 = xi``, ``dA0 = ad_{V_j + V_l} xi``. A body ``k`` of the
    subtree then has ``dV_k = dV0``, ``dA_k = dA0 + ad_{dV0} V_k``, so its wrench
    changes by ``I_k dA0 + B(V_k) dV0``, besides turning (``-ad*_xi F``).
    ``tau_i = S_i^T F_i`` does not see the turn when ``i`` is in the subtree (both
    turn): ``tau_i' = a_i . dA0 + b_i . dV0``; above ``j``,
    ``tau_i' = S_i^T (I^c_j dA0 + B^c_j dV0 - ad*_xi F_j)`` (no ``ad*`` term along
    ``dq``). ``M_ij = S_i^T I^c_j S_j`` comes with it, and the armature.
    """
    N, nv = topo.shape[0] - 1, topo[0, VI]
    for j in range(1, N + 1):
        lam, vj, nj = topo[j, PARENT], topo[j, VI], topo[j, NV]
        for i in range(j, N + 1):                        # the subtree of j
            inside[i] = i == j or (topo[i, PARENT] >= j and inside[topo[i, PARENT]])
        for cc in range(nj):
            k = vj + cc
            for l in range(L):
                Vl, Al = load6(w, lam, V0, l), load6(w, lam, A0, l)
                Vj, Fj = load6(w, j, V0, l), load6(w, j, F0, l)
                xi = load6(c, k, S0, l)
                dV0q = ad_mul(Vl, xi)                                    # along q_j
                dA0q = sadd(ad_mul(Al, xi), ad_mul(Vl, dV0q))
                dA0v = ad_mul(sadd(Vj, Vl), xi)                        # along dq_j
                Icj, Bcj = load_inertia(w, j, IC0, l), load_columns(w, j, BC, l)
                store6(d, k, DV0Q, l, dV0q)
                store6(d, k, DA0Q, l, dA0q)
                store6(d, k, DA0V, l, dA0v)
                store6(d, k, XI, l, xi)
                store6(d, k, GQ, l, ssub(sadd(inertia_mul(Icj, dA0q),
                                              columns_mul(Bcj, dV0q)),
                                         ad_star_mul(xi, Fj)))
                store6(d, k, GV, l, sadd(inertia_mul(Icj, dA0v),
                                         columns_mul(Bcj, xi)))
                store6(d, k, AJ, l, load6(c, k, AK, l))                  # I^c_j S_j
            for i in range(j, N + 1):
                if inside[i]:
                    for r in range(topo[i, VI], topo[i, VI] + topo[i, NV]):
                        for l in range(L):
                            ar, br = load6(c, r, AK, l), load6(c, r, BK, l)
                            dA0, dV0 = load6(d, k, DA0Q, l), load6(d, k, DV0Q, l)
                            dtau_dq[r * nv + k, l] = sdot(dA0, ar) + sdot(dV0, br)
                            dA0, dV0 = load6(d, k, DA0V, l), load6(d, k, XI, l)
                            dtau_dv[r * nv + k, l] = sdot(dA0, ar) + sdot(dV0, br)
            for r in range(vj, vj + nj):
                for l in range(L):
                    M[r * nv + k, l] = sdot(load6(c, r, S0, l), load6(d, k, AJ, l))
            i = lam
            while i > 0:                                 # the ancestors of j
                for r in range(topo[i, VI], topo[i, VI] + topo[i, NV]):
                    for l in range(L):
                        s = load6(c, r, S0, l)
                        dtau_dq[r * nv + k, l] = sdot(s, load6(d, k, GQ, l))
                        dtau_dv[r * nv + k, l] = sdot(s, load6(d, k, GV, l))
                    for l in range(L):
                        s = load6(c, r, S0, l)
                        M[r * nv + k, l] = sdot(s, load6(d, k, AJ, l))
                    for l in range(L):
                        M[k * nv + r, l] = M[r * nv + k, l]
                i = topo[i, PARENT]
    for i in range(1, N + 1):                   # M = dtau/dddq: the rotors
        for r in range(topo[i, NV]):
            k, a = topo[i, VI] + r, body[i, ARM + r]
            for l in range(L):
                M[k * nv + k, l] = M[k * nv + k, l] + a


# --- the partials of forward dynamics: M^-1 from the mass matrix -----------------
@kernel
def coordinate_parents(topo, lam):
    """``lam[k]``: the velocity coordinate before ``k`` on its path to the ground
    (the joint's previous one, else the last one of the nearest ancestor that
    moves), ``-1`` at the ground. ``M_rk`` can be non-zero only if one of ``r``,
    ``k`` is on the other's path (Featherstone (2008), Sec. 6.5)."""
    N = topo.shape[0] - 1
    for i in range(1, N + 1):
        j, last = topo[i, PARENT], -1
        while j > 0 and last < 0:
            if topo[j, NV] > 0:
                last = topo[j, VI] + topo[j, NV] - 1
            j = topo[j, PARENT]
        for r in range(topo[i, NV]):
            k = topo[i, VI] + r
            lam[k] = last if r == 0 else k - 1


@kernel
def ltdl(M, lam):
    """In place, for one state: ``M = L^T D L`` with ``L`` unit lower triangular
    and ``L_ki`` non-zero only for ``i`` on the path of ``k``
    (:func:`coordinate_parents`): no fill-in (Featherstone (2008), Sec. 6.5, the
    LTDL factorisation). ``D`` on the diagonal of ``M``, ``L`` below it. False if
    a pivot is not positive (``M`` is not positive definite). Plain
    (non-conjugate) products: the complex step passes."""
    n = lam.shape[0]
    for k in range(n - 1, -1, -1):
        if not M[k, k].real > 0:
            return False
        i = lam[k]
        while i >= 0:
            a = M[k, i] / M[k, k]
            j = i
            while j >= 0:                        # row i, on the path of i
                M[i, j] = M[i, j] - a * M[k, j]
                j = lam[j]
            M[k, i] = a
            i = lam[i]
    return True


@kernel
def ltdl_solve(M, lam, X):
    """``X <- M^-1 X`` for the factor of :func:`ltdl` in ``M``, the columns of ``X``
    (``n`` rows, any number of columns) at once (row operations: the inner loops run
    along rows): ``L^-T`` from the tips (each coordinate's row subtracted from the
    rows on its path), ``D^-1``, then ``L^-1`` from the ground (Featherstone (2008),
    Sec. 6.5)."""
    n, m = lam.shape[0], X.shape[1]
    for i in range(n - 1, -1, -1):
        j = lam[i]
        while j >= 0:
            f = M[i, j]
            for c in range(m):
                X[j, c] = X[j, c] - f * X[i, c]
            j = lam[j]
    for i in range(n):
        d = 1 / M[i, i]
        for c in range(m):
            X[i, c] = X[i, c] * d
    for i in range(n):
        j = lam[i]
        while j >= 0:
            f = M[i, j]
            for c in range(m):
                X[i, c] = X[i, c] - f * X[j, c]
            j = lam[j]


@kernel
def forward_partials(M, X, lam):
    """In place, for one state: ``X = [1, -dtau/dq, -dtau/d(dq)]`` (n, 3n, or wider
    with zero columns after) becomes ``[M^-1, d ddq/dq, d ddq/d(dq)]``:
    ``d ddq/dx = -M^-1 dtau/dx`` by implicit differentiation of
    ``M ddq + b = tau`` (the quantities of Kim (2012), Table 6;
    :func:`liedyn.derivatives.aba_partials`), every column in one solve by the
    factor of :func:`ltdl` (``M`` is overwritten by it). False if ``M`` is not
    positive definite."""
    if not ltdl(M, lam):
        return False
    ltdl_solve(M, lam, X)
    return True
