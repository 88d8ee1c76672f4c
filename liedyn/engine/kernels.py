"""The recursive algorithms written once, per state, on 3-vectors and 3x3 blocks.

This is the single source of the fast paths of :func:`liedyn.inverse_dynamics.rnea`,
:func:`liedyn.crba.mass_matrix` and :func:`liedyn.forward_dynamics.aba`. Every
function here handles one state: a twist is a pair ``(w, v)`` of 3-tuples, a
rotation a 3-tuple of rows, a generalized inertia the blocks ``(A, B, C)`` of ``[[A,
B], [B^T, C]]``. Only ``+``, ``-``, ``*``, ``/``, indexing and the functions of
:mod:`liedyn.engine.jit` are used: numba compiles the code for float64 and
complex128 numbers into the drivers (:mod:`liedyn.engine.drivers`), which
:mod:`liedyn.engine.dispatch` calls on a flattened batch; called directly, a kernel
is plain Python on numbers (chapter 11 counts its operations that way). The
operators are in :mod:`liedyn.engine.spatial`, the joints in
:mod:`liedyn.engine.joints`.

The model arrives flattened (:func:`liedyn.engine.dispatch.flat_model`): ``topo[i]``
holds the parent, joint code, and the offsets and sizes of body ``i``'s coordinates
(``topo[0, QI]``, ``topo[0, VI]``: the offsets past the last body, ``nq`` and
``nv``); ``body[i]`` its joint parameters, placement ``X_i`` and inertia ``I_i``;
``body[0, :6]`` is the ground acceleration ``dV_0 = (0, -g)`` (Kim (2012), footnote
6). Results go into workspaces: ``R[i], p[i]`` (``T_{lambda(i),i}``), ``S[k],
dS[k]`` (one row per velocity coordinate ``k``), ``V[i]``, ``dV[i]``, ``F[i]`` etc.;
row 0 of ``V`` is the ground's twist, zero, and also serves as the zero of the right
type (float or complex) wherever one is needed.
"""
from math import nan

from ..joint import PIVOT_TOL
from .jit import kernel
from .joints import *  # noqa: F401,F403  (jcalc, joint_dS)
from .spatial import *  # noqa: F401,F403  (the operators, the model layout)

# --- the recursions ---------------------------------------------------------------
@kernel(inline=True)
def velocity_pass(topo, body, q, dq, R, p, S, dS, V, eta):
    """Forward recursion of Kim (2012), Tables 2 and 3: ``T_{lambda(i),i}``,
    ``S_i``, ``dS_i``,

    ``V_i = Ad_{T^-1} V_{lambda(i)} + S_i dq_i`` (37) and the velocity-product
    acceleration ``eta_i = ad_{V_i} S_i dq_i + dS_i dq_i`` (the part of (41) without
    ``ddq``).
    """
    zero = V[0, 0]
    for i in range(1, topo.shape[0]):
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        Ri, pi = jcalc(topo, body, i, q, S, zero)
        joint_dS(topo, body, i, q, dq, dS, zero)
        store_transform(R, p, i, Ri, pi)
        Sdq = S_mul(S, v, n, dq, zero)
        Vi = sadd(Ad_inv_mul(Ri, pi, load6(V, lam)), Sdq)                     # (37)
        store6(V, i, Vi)
        store6(eta, i, sadd(ad_mul(Vi, Sdq), S_mul(dS, v, n, dq, zero)))


@kernel
def rnea_state(topo, body, q, dq, ddq, f_ext, dV0, ws, tau):
    """Kim (2012), Table 2: inverse dynamics of one state (``f_ext`` (N, 6), in body
    frames).

    ``dV_i = Ad_{T^-1} dV_{lambda(i)} + eta_i + S_i ddq_i`` (41);
    ``F_i = I_i dV_i - ad*_{V_i} I_i V_i - F_i^ext``
    ``+ sum_{k in mu(i)} Ad*_{T_{i,k}^-1} F_k``
    (42), each body adding its term to its parent's sum; ``tau_i = S_i^T F_i``.
    """
    R, p, S, dS, V, eta, dV, F = ws
    velocity_pass(topo, body, q, dq, R, p, S, dS, V, eta)
    zero = V[0, 0]
    store6(dV, 0, dV0)
    for i in range(1, topo.shape[0]):
        Ri, pi = load_transform(R, p, i)
        v, n = topo[i, VI], topo[i, NV]
        dVi = sadd(
            sadd(Ad_inv_mul(Ri, pi, load6(dV, topo[i, PARENT])), load6(eta, i)),
            S_mul(S, v, n, ddq, zero))  # (41)
        store6(dV, i, dVi)
        I, Vi = body_inertia(body, i), load6(V, i)
        store6(
            F,
            i,
            ssub(ssub(inertia_mul(I, dVi), ad_star_mul(Vi, inertia_mul(I, Vi))),
                 load6(f_ext, i - 1)),
        )  # (42)
    for i in range(topo.shape[0] - 1, 0, -1):
        Fi = load6(F, i)                             # complete: children come later
        v = topo[i, VI]
        for r in range(topo[i, NV]):
            tau[v + r] = (sdot(load6(S, v + r), Fi)                          # S^T F
                          + body[i, ARM + r] * ddq[v + r])          # the rotor
        lam = topo[i, PARENT]
        if lam > 0:
            Ri, pi = load_transform(R, p, i)
            store6(F, lam, sadd(load6(F, lam), Ad_star_inv_mul(Ri, pi, Fi)))


@kernel
def crba_state(topo, body, q, ws, M):
    """The composite-rigid-body algorithm for one state (Featherstone (2008), Table
    6.2).

    ``I^c_i = I_i + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} I^c_k Ad_{T_{i,k}^-1}``;
    ``M_ii = S_i^T I^c_i S_i`` (plus the armature on its diagonal); then
    ``F <- Ad*_{T_{lambda(j),j}^-1} F`` up the tree and ``M_{j,i} = S_j^T F``.
    ``M`` must start at zero.
    """
    R, p, S, V, Ic = ws
    zero = V[0, 0]
    for i in range(1, topo.shape[0]):
        Ri, pi = jcalc(topo, body, i, q, S, zero)
        store_transform(R, p, i, Ri, pi)
        store_inertia(Ic, i, body_inertia(body, i))
    for i in range(topo.shape[0] - 1, 0, -1):
        lam = topo[i, PARENT]
        if lam > 0:
            Ri, pi = load_transform(R, p, i)
            store_inertia(
                Ic,
                lam,
                inertia_add(load_inertia(Ic, lam),
                            congruence(Ri, pi, load_inertia(Ic, i))),
            )
    for i in range(1, topo.shape[0]):
        v = topo[i, VI]
        Ici = load_inertia(Ic, i)
        for r in range(topo[i, NV]):
            F = inertia_mul(Ici, load6(S, v + r))                    # I^c_i S_i
            for c in range(topo[i, NV]):
                M[v + c, v + r] = sdot(load6(S, v + c), F)  # M_ii = S_i^T I^c_i S_i
            M[v + r, v + r] += body[i, ARM + r]                  # + the rotor
            j = i
            while topo[j, PARENT] > 0:
                Rj, pj = load_transform(R, p, j)
                F = Ad_star_inv_mul(Rj, pj, F)
                j = topo[j, PARENT]
                vj = topo[j, VI]
                for c in range(topo[j, NV]):
                    M[vj + c, v + r] = sdot(load6(S, vj + c), F)    # M_ji = S_j^T F
                    M[v + r, vj + c] = M[vj + c, v + r]


@kernel(inline=True)
def pivot_tol(Sk, traces, a):
    """The tolerance on the pivot of the column ``Sk = (s_w, s_v)`` of ``S``:
    :data:`~liedyn.joint.PIVOT_TOL` times its bound ``2 (tr(I_ww) |s_w|^2 +
    tr(I_vv) |s_v|^2) + a`` (``traces``: ``2 |tr(I_ww)|``, ``2 |tr(I_vv)|``;
    ``a`` its armature)."""
    w, x = Sk
    return (PIVOT_TOL * (traces[0] * dot(w, w) + traces[1] * dot(x, x) + a)).real


@kernel(inline=True)
def invert(D, v, n, Psi, tols):
    """``Psi = D^-1`` for the symmetric positive definite ``n x n`` block in rows
    ``v..v+n-1`` (Gauss-Jordan without pivoting, whose pivots are those of ``D = L
    diag(d) L^T``; ``D`` is overwritten). One DOF: a reciprocal. A pivot ``k`` not
    above ``tols[k]`` (:func:`pivots`) makes ``Psi`` NaN (``D`` is singular, or not
    positive definite if the pivot is negative): the driver's result is then not
    finite, and the reference path names the body."""
    if n == 1:
        d = D[v, 0]
        Psi[v, 0] = 1 / d if d.real > tols[0] else d * nan
        return
    for r in range(n):
        for c in range(n):
            Psi[v + r, c] = D[v + r, c] * 0
        Psi[v + r, r] = Psi[v + r, r] + 1
    for k in range(n):
        d = D[v + k, k]
        inv_pivot = 1 / d if d.real > tols[k] else d * nan
        for c in range(n):
            D[v + k, c] = D[v + k, c] * inv_pivot
            Psi[v + k, c] = Psi[v + k, c] * inv_pivot
        for r in range(n):
            if r != k:
                f = -D[v + r, k]
                for c in range(n):
                    D[v + r, c] = D[v + r, c] + f * D[v + k, c]
                    Psi[v + r, c] = Psi[v + r, c] + f * Psi[v + k, c]


@kernel(inline=True)
def bias_wrenches(topo, body, f_ext, V, I_hat, B_hat):
    """``I_hat_i = I_i``, ``B_hat_i = -ad*_{V_i} I_i V_i - F_i^ext``: the terms of
    (49)-(50) that body ``i`` brings itself; its children add theirs
    (:func:`push_to_parent`)."""
    for i in range(1, topo.shape[0]):
        I, Vi = body_inertia(body, i), load6(V, i)
        store_inertia(I_hat, i, I)
        store6(
            B_hat, i,
            ssub(vneg_s(ad_star_mul(Vi, inertia_mul(I, Vi))), load6(f_ext, i - 1)))


@kernel(inline=True)
def pivots(S, U, D, Psi, v, n, Ih, arm):
    """Kim (2012), Table 3, for a joint whose torque is given: ``U = I_hat S`` and
    ``Psi = (S^T I_hat S + diag(arm))^-1`` of (45) (``arm``: the joint's row of
    ``body``, its armature from column ``ARM``), into the workspaces; singular
    where a pivot is not above its :func:`pivot_tol` (handed to :func:`invert` as
    numbers, six of them: arrays there would cost reference counts per body)."""
    tr_w, tr_v = block_traces(Ih)
    traces = (2 * abs(tr_w.real), 2 * abs(tr_v.real))
    for r in range(n):
        store6(U, v + r, inertia_mul(Ih, load6(S, v + r)))             # U = I_hat S
    for r in range(n):
        for c in range(n):
            D[v + r, c] = sdot(load6(S, v + r), load6(U, v + c))       # S^T I_hat S
        D[v + r, r] += arm[ARM + r]                                    # the rotor
    tols = (pivot_tol(load6(S, v), traces, arm[ARM]),
            pivot_tol(load6(S, v + 1), traces, arm[ARM + 1]) if n > 1 else 0.0,
            pivot_tol(load6(S, v + 2), traces, arm[ARM + 2]) if n > 2 else 0.0,
            pivot_tol(load6(S, v + 3), traces, arm[ARM + 3]) if n > 3 else 0.0,
            pivot_tol(load6(S, v + 4), traces, arm[ARM + 4]) if n > 4 else 0.0,
            pivot_tol(load6(S, v + 5), traces, arm[ARM + 5]) if n > 5 else 0.0)
    invert(D, v, n, Psi, tols)


@kernel(inline=True)
def articulate(S, U, Psi, u, v, n, tau, Ih, Bh, eta_i, zero):
    """What a joint whose torque is given passes to its parent (Kim (2012), Table
    3, the braces of (49)-(50); ``U``, ``Psi`` from :func:`pivots`): ``Pi = I_hat
    - U Psi U^T`` and ``beta = B_hat + I_hat eta + U Psi u``, with ``u = tau - S^T
    (I_hat eta + B_hat)``."""
    Ih_eta_Bh = sadd(inertia_mul(Ih, eta_i), Bh)
    for r in range(n):
        u[v + r] = tau[v + r] - sdot(load6(S, v + r), Ih_eta_Bh)
    Pi, beta = Ih, Ih_eta_Bh
    for r in range(n):                   # row r of U Psi, entry r of Psi u: summed
        U_Psi, Psi_u = ((zero, zero, zero), (zero, zero, zero)), zero
        for c in range(n):
            U_Psi = sadd(U_Psi, sscale(Psi[v + r, c], load6(U, v + c)))
            Psi_u = Psi_u + Psi[v + r, c] * u[v + c]
        Pi = inertia_sub_outer(Pi, load6(U, v + r), U_Psi)
        beta = sadd(beta, sscale(Psi_u, load6(U, v + r)))
    return Pi, beta


@kernel(inline=True)
def push_to_parent(topo, R, p, I_hat, B_hat, i, Pi, beta):
    """``I_hat_lambda += Ad*_{T^-1} Pi_i Ad_{T^-1}``, ``B_hat_lambda +=
    Ad*_{T^-1} beta_i`` (49)-(50), for a body whose parent is not the ground."""
    lam = topo[i, PARENT]
    Ri, pi = load_transform(R, p, i)
    store_inertia(I_hat, lam, inertia_add(load_inertia(I_hat, lam),
                                          congruence(Ri, pi, Pi)))
    store6(B_hat, lam, sadd(load6(B_hat, lam), Ad_star_inv_mul(Ri, pi, beta)))


@kernel(inline=True)
def joint_acceleration(S, I_hat, B_hat, Psi, u, i, v, n, a, tau, ddq, zero):
    """``ddq_i = Psi_i (tau_i - S_i^T (I_hat_i a + B_hat_i))`` (45), ``a`` the
    acceleration of body ``i`` without its joint's."""
    Ih_a_Bh = sadd(inertia_mul(load_inertia(I_hat, i), a), load6(B_hat, i))
    for r in range(n):
        u[v + r] = tau[v + r] - sdot(load6(S, v + r), Ih_a_Bh)
    for r in range(n):
        x = zero
        for c in range(n):
            x = x + Psi[v + r, c] * u[v + c]
        ddq[v + r] = x


@kernel
def aba_state(topo, body, q, dq, tau, f_ext, dV0, ws, ddq):
    """Kim (2012), Table 3 (corrected, see :mod:`liedyn.forward_dynamics`): forward
    dynamics of one state.

    Backward: ``I_hat_i = I_i + sum Ad*_{T^-1} Pi_k Ad_{T^-1}``,
    ``B_hat_i = -ad*_{V_i} I_i V_i
    - F_i^ext + sum Ad*_{T^-1} beta_k`` (49)-(50), ``Psi_i = (S_i^T I_hat_i
      S_i)^-1``,
    ``Pi_i = I_hat_i - I_hat_i S_i Psi_i S_i^T I_hat_i``,
    ``beta_i = B_hat_i + I_hat_i (eta_i + S_i Psi_i (tau_i - S_i^T (I_hat_i eta_i``
    ``+ B_hat_i)))``.
    Forward: ``ddq_i = Psi_i (tau_i
    - S_i^T (I_hat_i (Ad_{T^-1} dV_{lambda(i)} + eta_i) + B_hat_i))`` (45),
    ``dV_i = Ad_{T^-1} dV_{lambda(i)} + eta_i + S_i ddq_i`` (41). A body whose
    parent is the ground needs ``Psi_i`` only (its ``Pi_i``, ``beta_i`` would go
    nowhere: for a floating base, a 6 x 6 update saved).
    """
    R, p, S, dS, V, eta, dV, I_hat, B_hat, U, D, Psi, u = ws
    velocity_pass(topo, body, q, dq, R, p, S, dS, V, eta)
    bias_wrenches(topo, body, f_ext, V, I_hat, B_hat)
    zero = V[0, 0]
    N = topo.shape[0] - 1
    for i in range(N, 0, -1):                # complete: children pushed their terms
        Ih, v, n = load_inertia(I_hat, i), topo[i, VI], topo[i, NV]
        pivots(S, U, D, Psi, v, n, Ih, body[i])
        if topo[i, PARENT] > 0:                         # the ground takes nothing
            Pi, beta = articulate(S, U, Psi, u, v, n, tau, Ih, load6(B_hat, i),
                                  load6(eta, i), zero)
            push_to_parent(topo, R, p, I_hat, B_hat, i, Pi, beta)
    store6(dV, 0, dV0)
    for i in range(1, N + 1):
        Ri, pi = load_transform(R, p, i)
        v, n = topo[i, VI], topo[i, NV]
        a = sadd(Ad_inv_mul(Ri, pi, load6(dV, topo[i, PARENT])), load6(eta, i))
        joint_acceleration(S, I_hat, B_hat, Psi, u, i, v, n, a, tau, ddq,
                           zero)                                              # (45)
        store6(dV, i, sadd(a, S_mul(S, v, n, ddq, zero)))                     # (41)


@kernel
def hybrid_state(topo, body, q, dq, ddq, tau, f_ext, prescribed, dV0, ws,
                 tau_out, ddq_out):
    """Kim (2012), Table 4: hybrid dynamics of one state, ``prescribed[i - 1]`` true
    where joint ``i``'s acceleration is given (its torque is then computed), false
    where its torque is given (as in :func:`aba_state`).

    Backward, a prescribed joint passes its whole articulated inertia:
    ``Pi_i = I_hat_i``, ``beta_i = B_hat_i + I_hat_i (eta_i + S_i ddq_i)``
    (51)-(52).
    Forward: ``ddq_i`` by (45) where the torque is given, then
    ``dV_i = Ad_{T^-1} dV_{lambda(i)} + eta_i + S_i ddq_i`` (41) and, where the
    acceleration is prescribed, ``tau_i = S_i^T (I_hat_i dV_i + B_hat_i)`` (53).
    ``tau_out``, ``ddq_out`` copy ``tau``, ``ddq`` where they are given.
    """
    R, p, S, dS, V, eta, dV, I_hat, B_hat, U, D, Psi, u = ws
    velocity_pass(topo, body, q, dq, R, p, S, dS, V, eta)
    bias_wrenches(topo, body, f_ext, V, I_hat, B_hat)
    zero = V[0, 0]
    N = topo.shape[0] - 1
    for i in range(N, 0, -1):                # complete: children pushed their terms
        Ih, Bh, eta_i = load_inertia(I_hat, i), load6(B_hat, i), load6(eta, i)
        v, n = topo[i, VI], topo[i, NV]
        if not prescribed[i - 1]:
            pivots(S, U, D, Psi, v, n, Ih, body[i])
        if topo[i, PARENT] == 0:                        # the ground takes nothing
            continue
        if prescribed[i - 1]:                                       # (51)-(52)
            Pi = Ih
            beta = sadd(Bh, inertia_mul(Ih, sadd(eta_i, S_mul(S, v, n, ddq, zero))))
        else:
            Pi, beta = articulate(S, U, Psi, u, v, n, tau, Ih, Bh, eta_i, zero)
        push_to_parent(topo, R, p, I_hat, B_hat, i, Pi, beta)
    store6(dV, 0, dV0)
    for i in range(1, N + 1):
        Ri, pi = load_transform(R, p, i)
        v, n = topo[i, VI], topo[i, NV]
        a = sadd(Ad_inv_mul(Ri, pi, load6(dV, topo[i, PARENT])), load6(eta, i))
        if prescribed[i - 1]:
            for r in range(n):
                ddq_out[v + r] = ddq[v + r]
        else:
            joint_acceleration(S, I_hat, B_hat, Psi, u, i, v, n, a, tau, ddq_out,
                               zero)                                          # (45)
        dVi = sadd(a, S_mul(S, v, n, ddq_out, zero))                          # (41)
        store6(dV, i, dVi)
        if prescribed[i - 1]:                                             # (53)
            Fi = sadd(inertia_mul(load_inertia(I_hat, i), dVi), load6(B_hat, i))
            for r in range(n):
                tau_out[v + r] = (sdot(load6(S, v + r), Fi)
                                  + body[i, ARM + r] * ddq_out[v + r])  # the rotor
        else:
            for r in range(n):
                tau_out[v + r] = tau[v + r]


@kernel
def coriolis_mul(I, V, h, X):
    """``B(V) X = -I ad_V X - ad*_X h - ad*_V I X`` with ``h = I V``: the change of
    ``I dV - ad*_V I V`` when ``V`` gains ``X`` and ``dV`` gains ``ad_X V``
    (a body whose base velocity changes by ``X``, seen from a fixed frame; equation
    ``ch10-ground-coriolis`` of :ref:`ch10-ground-frame`)."""
    return ssub(ssub(vneg_s(inertia_mul(I, ad_mul(V, X))), ad_star_mul(X, h)),
                ad_star_mul(V, inertia_mul(I, X)))


@kernel
def ground_frame_pass(topo, body, ws, wg):
    """The nominal state of :func:`rnea_state` (``ws``) in the ground frame {0}
    (equation ``ch10-ground-rnea`` of :ref:`ch10-ground-frame`), into the
    workspaces of :func:`ground_workspace`: ``T_{0,i}``, ``S_i``, ``V_i``, ``dV_i``,
    ``F_i`` moved by ``Ad_{T_{0,i}}`` (and ``Ad*_{T_{0,i}^-1}``), and the composites
    over the subtree of ``i`` of the inertia ``I_i`` and of ``B(V_i)``
    (:func:`coriolis_mul`); in {0} a composite is a plain sum. Also
    ``a_k = I^c_i S_k`` and ``b_k = B^c_i^T S_k`` per coordinate ``k`` of body
    ``i``."""
    R, p, S, dS, V, eta, dV, F = ws
    R0, p0, S0, V0, A0, F0, Ic, Bc, a, b = wg
    zero = V[0, 0]
    for r in range(3):
        for c in range(3):
            R0[0, r, c] = zero + (1 if r == c else 0)
    store6(A0, 0, load6(dV, 0))             # V_0 = 0, dV_0 = (0, -g) already in {0}
    for i in range(1, topo.shape[0]):
        lam, v, n = topo[i, PARENT], topo[i, VI], topo[i, NV]
        Rl, pl = load_transform(R0, p0, lam)
        Ri, pi = load_transform(R, p, i)
        R0i, p0i = matmul(Rl, Ri), vadd(pl, rot(Rl, pi))          # T_0i = T_0l T_li
        store_transform(R0, p0, i, R0i, p0i)
        for r in range(n):
            store6(S0, v + r, Ad_mul(R0i, p0i, load6(S, v + r)))
        Vi = Ad_mul(R0i, p0i, load6(V, i))
        store6(V0, i, Vi)
        store6(A0, i, Ad_mul(R0i, p0i, load6(dV, i)))
        store6(F0, i, Ad_star_inv_mul(R0i, p0i, load6(F, i)))
        I = congruence(R0i, p0i, body_inertia(body, i))
        store_inertia(Ic, i, I)
        h = inertia_mul(I, Vi)
        for c in range(6):
            store_column(Bc, i, c, coriolis_mul(I, Vi, h, unit_twist(c, zero)))
    for i in range(topo.shape[0] - 1, 0, -1):        # complete: children came first
        v, lam = topo[i, VI], topo[i, PARENT]
        Ici = load_inertia(Ic, i)
        for r in range(topo[i, NV]):
            s = load6(S0, v + r)
            store6(a, v + r, inertia_mul(Ici, s))
            store6(b, v + r, matrix_T_mul(Bc, i, s))
        if lam > 0:
            store_inertia(Ic, lam, inertia_add(load_inertia(Ic, lam), Ici))
            for r in range(6):
                for c in range(6):
                    Bc[lam, r, c] = Bc[lam, r, c] + Bc[i, r, c]


@kernel
def rnea_partials_state(topo, wg, inside, dtau_dq, dtau_dv, M):
    """``dtau/dq``, ``dtau/d(dq)`` and ``M`` of one state from the ground-frame
    quantities of ``ground_frame_pass``, for joints with constant ``S``: Kim (2012),
    Lemma 3 and Table 5 along every unit direction at once (derived in
    :ref:`ch10-ground-frame`).

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
    ``dq``). ``M_ij = S_i^T I^c_j S_j`` comes with it. ``M`` must start at zero.
    """
    R0, p0, S0, V0, A0, F0, Ic, Bc, a, b = wg
    N = topo.shape[0] - 1
    for j in range(1, N + 1):
        lam, vj, nj = topo[j, PARENT], topo[j, VI], topo[j, NV]
        for i in range(j, N + 1):                        # the subtree of j
            inside[i] = i == j or (topo[i, PARENT] >= j and inside[topo[i, PARENT]])
        Vl, Al, Vj, Fj = load6(V0, lam), load6(A0, lam), load6(V0, j), load6(F0, j)
        Icj = load_inertia(Ic, j)
        for c in range(nj):
            k = vj + c
            xi = load6(S0, k)
            dV0q = ad_mul(Vl, xi)                                        # along q_j
            dA0q = sadd(ad_mul(Al, xi), ad_mul(Vl, dV0q))
            dV0v, dA0v = xi, ad_mul(sadd(Vj, Vl), xi)                  # along dq_j
            for i in range(j, N + 1):
                if inside[i]:
                    for r in range(topo[i, VI], topo[i, VI] + topo[i, NV]):
                        ar, br = load6(a, r), load6(b, r)
                        dtau_dq[r, k] = sdot(dA0q, ar) + sdot(dV0q, br)
                        dtau_dv[r, k] = sdot(dA0v, ar) + sdot(dV0v, br)
            Gq = ssub(sadd(inertia_mul(Icj, dA0q), matrix_mul(Bc, j, dV0q)),
                      ad_star_mul(xi, Fj))
            Gv = sadd(inertia_mul(Icj, dA0v), matrix_mul(Bc, j, dV0v))
            ak = load6(a, k)                                         # I^c_j S_j
            for r in range(vj, vj + nj):
                M[r, k] = sdot(load6(S0, r), ak)
            i = lam
            while i > 0:                                 # the ancestors of j
                for r in range(topo[i, VI], topo[i, VI] + topo[i, NV]):
                    s = load6(S0, r)
                    dtau_dq[r, k] = sdot(s, Gq)
                    dtau_dv[r, k] = sdot(s, Gv)
                    M[r, k] = sdot(s, ak)
                    M[k, r] = M[r, k]
                i = topo[i, PARENT]


@kernel
def vneg_s(X):
    return (vneg(X[0]), vneg(X[1]))
