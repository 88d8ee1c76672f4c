"""The spatial operators of the kernels, written on numbers, and the layout of the
arrays they read and write.

A twist is a pair ``(w, v)`` of 3-tuples, a rotation a 3-tuple of rows, a
generalized inertia the blocks ``(A, B, C)`` of ``[[A, B], [B^T, C]]`` (Kim (2012),
Section 1). The operators are named as the book names them (``Ad_inv_mul``,
``ad_star_mul``, ``inertia_mul``, the congruence ``Ad* I Ad``), so that a kernel
line reads like its equation; they compute one state.

The kernels run up to :data:`LANES` states at once, a *chunk*: each quantity of a
body (a twist, a rotation, an inertia) is a *slot* of the body's row of the chunk's
workspace, a run of components, each component a number per state of the chunk
(component ``j`` of the slot ``X`` of body ``i``, state ``l``:
``w[i, at(X + j, l)]``).
A loop over the states of the chunk, innermost, loads one state's quantities into
tuples, applies the operators and stores the results: numba compiles it into
instructions that each work on several states (packed vector instructions).
"""
import numpy as np

from .jit import exp_coefficients, kernel

# --- the flattened model (liedyn.engine.dispatch.flat_model) ----------------------
# topo columns: parent, joint code, offsets of the joint's q and dq, its nv and nq
PARENT, JOINT, QI, VI, NV, NQ = 0, 1, 2, 3, 4, 5
TOPO_COLUMNS = 6
# topo row 0: -1, what the model holds (the flags below), nq, nv, 0, 0
QUATERNIONS, CHARTS, VARYING_S = 1, 2, 4
# body columns: joint parameters, placement X_i = (RX, pX), inertia I_i (row-major),
# the armature of the joint's degrees of freedom
PAR, RX, PX, INERTIA, ARM = 0, 12, 21, 24, 60
BODY_COLUMNS = 66
# joint codes
(FIXED, REVOLUTE, PRISMATIC, HELICAL, SCREW, UNIVERSAL, PLANAR, SPHERICAL,
 SPHERICAL_ZYX, SPHERICAL_EXP, FREE) = range(11)

# --- a chunk of states: its workspaces --------------------------------------------
LANES = 16
"""The most states of a chunk: the states of a batch go through the kernels this
many at a time; a fixed number, so that the compiler knows how far apart the
components of a slot lie (and that the states are independent)."""
# The slots of a body's row ``w[i]``, each after the one before; the slots after
# BODY_SLOTS hold what one algorithm needs (ABA and CRBA, or the partials in the
# ground frame), not both.
Q = 0                    # q_i (up to 7 numbers)
R = Q + 7                # T_{lambda(i),i} = (R, p)
P = R + 9
V = P + 3                # V_i, dV_i (adjacent: a parent's are copied at once)
DV = V + 6
ETA = DV + 6             # eta_i = ad_{V_i} S_i dq_i + dS_i dq_i
DSDQ = ETA + 6           # dS_i dq_i (zero where S_i does not depend on q)
SDQ = DSDQ + 6           # S_i dq_i
SDDQ = SDQ + 6           # S_i ddq_i
FEXT = SDDQ + 6          # F_i^ext
F = FEXT + 6             # F_i
FP = F + 6               # Ad*_{T^-1} F_i: its term in the parent's F
SIN = FP + 6             # sin and cos of the joint's angles (up to 3)
COS = SIN + 3
BODY_SLOTS = COS + 3
IH = BODY_SLOTS          # ABA: I_hat_i (27: the blocks A, B, C), B_hat_i
BH = IH + 27
PI = BH + 6              # Pi_i, beta_i, then moved into the parent's frame
BETA = PI + 27
IAB = BETA + 6           # I_hat_i a_i + B_hat_i
ABA_SLOTS = IAB + 6
R0 = BODY_SLOTS          # the partials: T_{0,i}
P0 = R0 + 9
V0 = P0 + 3              # V_i, dV_i, F_i in the ground frame
A0 = V0 + 6
F0 = A0 + 6
IC0 = F0 + 6             # the composite of I_i over the subtree, then of B(V_i)
BC = IC0 + 27            # (6 columns; adjacent: a child's are added at once)
PARTIALS_SLOTS = BC + 36
# The slots of a coordinate's row ``c[k]`` (a velocity coordinate of joint i)
S = 0                    # column k of S_i
DQ, DDQ, TAU = 6, 7, 8   # dq_k, ddq_k, tau_k
U, UK = 9, 15            # ABA: U_k = I_hat_i S_k, u_k; CRBA: F (6) in U
S0, AK, BK = 16, 22, 28  # the partials: Ad_{T_0i} S_k, I^c_i S0_k, B^c_i^T S0_k
COORDINATE_SLOTS = 34
# The slots of a joint block's row ``d[k]``: row k of the joint's n x n blocks
D, PSI = 0, 6            # S_i^T I_hat_i S_i + diag(armature), Psi_i = D^-1
TOL, RECIP, FACTOR = 12, 13, 14   # pivot k: its tolerance, 1 / pivot; a row factor
UPSI, PSIU = 15, 21      # (U Psi)_k, (Psi u)_k
BLOCK_SLOTS = 22
DV0Q, DA0Q, DA0V = 0, 6, 12      # the partials along column k of S_j: dV_0, dA_0
XI, GQ, GV, AJ = 18, 24, 30, 36  # along q_k, dA_0 along dq_k, xi, G_q, G_v, a_k
PARTIALS_BLOCK_SLOTS = 42


# --- 3-vectors and 3x3 matrices ---------------------------------------------------
@kernel
def vadd(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@kernel
def vsub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@kernel
def vscale(s, a):
    return (s * a[0], s * a[1], s * a[2])


@kernel
def vneg(a):
    return (-a[0], -a[1], -a[2])


@kernel
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@kernel
def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0])


@kernel
def rot(R, x):
    """``R x``."""
    return (dot(R[0], x), dot(R[1], x), dot(R[2], x))


@kernel
def rot_T(R, x):
    """``R^T x``."""
    return vadd(vadd(vscale(x[0], R[0]), vscale(x[1], R[1])), vscale(x[2], R[2]))


@kernel
def transpose(A):
    return ((A[0][0], A[1][0], A[2][0]), (A[0][1], A[1][1], A[2][1]),
            (A[0][2], A[1][2], A[2][2]))


@kernel
def matmul(A, B):
    """``A B``: row ``r`` is ``B^T A[r]``."""
    return (rot_T(B, A[0]), rot_T(B, A[1]), rot_T(B, A[2]))


@kernel
def madd(A, B):
    return (vadd(A[0], B[0]), vadd(A[1], B[1]), vadd(A[2], B[2]))


@kernel
def msub(A, B):
    return (vsub(A[0], B[0]), vsub(A[1], B[1]), vsub(A[2], B[2]))


@kernel
def mscale(s, A):
    return (vscale(s, A[0]), vscale(s, A[1]), vscale(s, A[2]))


@kernel
def outer(a, b):
    """``a b^T``."""
    return (vscale(a[0], b), vscale(a[1], b), vscale(a[2], b))


@kernel
def skew_mul(p, A):
    """``[p] A``: column by column ``p x A[:, c]``, written by rows."""
    return (vsub(vscale(p[1], A[2]), vscale(p[2], A[1])),
            vsub(vscale(p[2], A[0]), vscale(p[0], A[2])),
            vsub(vscale(p[0], A[1]), vscale(p[1], A[0])))


@kernel
def mul_skew(M, x):
    """``M [x]``, row by row: ``M_r [x] = M_r x x`` (the row's cross product with
    ``x``)."""
    return (cross(M[0], x), cross(M[1], x), cross(M[2], x))


@kernel
def rotation_about(a, s, c):
    """``exp([a] t) = c 1 + s [a] + (1 - c) a a^T`` for a unit axis ``a``,
    ``s, c = sin, cos t``."""
    t = 1 - c
    return (
        (c + t * a[0] * a[0], t * a[0] * a[1] - s * a[2],
         t * a[0] * a[2] + s * a[1]),
        (t * a[1] * a[0] + s * a[2], c + t * a[1] * a[1],
         t * a[1] * a[2] - s * a[0]),
        (t * a[2] * a[0] - s * a[1], t * a[2] * a[1] + s * a[0],
         c + t * a[2] * a[2]),
    )


@kernel
def quaternion_rotation(w, x, y, z):
    """``R = (w^2 - |u|^2) 1 + 2 u u^T + 2 w [u]`` for a unit quaternion
    ``(w, u)``."""
    d = w * w - (x * x + y * y + z * z)
    return ((d + 2 * x * x, 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), d + 2 * y * y, 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), d + 2 * z * z))


@kernel
def so3_polynomial(c0, c1, c2, x):
    """``c0 1 + c1 [x] + c2 [x]^2``, with ``[x]^2 = x x^T - |x|^2 1``: the
    exponential of SO(3) and its Jacobians in closed form
    (:func:`liedyn.engine.jit.exp_coefficients`)."""
    x0, x1, x2 = x
    d = c0 - c2 * dot(x, x)
    return ((d + c2 * x0 * x0, c2 * x0 * x1 - c1 * x2, c2 * x0 * x2 + c1 * x1),
            (c2 * x1 * x0 + c1 * x2, d + c2 * x1 * x1, c2 * x1 * x2 - c1 * x0),
            (c2 * x2 * x0 - c1 * x1, c2 * x2 * x1 + c1 * x0, d + c2 * x2 * x2))


@kernel
def exp_chart(phi, one):
    """``exp([phi])`` and ``J_r(phi)^T = J_l(phi)`` (From (2012), eq. (29)): the
    rotation of a ball joint in exponential coordinates and the rows of its ``S``
    (:class:`liedyn.joints.SphericalExp`). Called, not inlined: only that joint
    pays for compiling it."""
    A, B, C, dB, dC = exp_coefficients(dot(phi, phi))
    return so3_polynomial(one, A, B, phi), so3_polynomial(one, B, C, phi)


@kernel
def exp_chart_rate(phi, dphi, zero):
    """``d/dt J_r(phi)^T`` along ``dphi`` (:func:`liedyn.dexp.dexp_so3_dot`): with
    ``J_r = 1 - B [phi] + C [phi]^2`` and ``r = d|phi|^2/dt = 2 phi . dphi``, it is
    ``r dB [phi] + r dC [phi]^2 + B [dphi] + C ([phi][dphi] + [dphi][phi])``, where
    ``[phi][dphi] + [dphi][phi] = dphi phi^T + phi dphi^T - 2 (phi . dphi) 1``."""
    A, B, C, dB, dC = exp_coefficients(dot(phi, phi))
    r = 2 * dot(phi, dphi)
    return madd(madd(so3_polynomial(zero, r * dB, r * dC, phi),
                     so3_polynomial(-r * C, B, zero, dphi)),
                mscale(C, madd(outer(dphi, phi), outer(phi, dphi))))


# --- twists, wrenches and inertias (Kim (2012), Section 1) ------------------------
@kernel
def sadd(X, Y):
    return (vadd(X[0], Y[0]), vadd(X[1], Y[1]))


@kernel
def ssub(X, Y):
    return (vsub(X[0], Y[0]), vsub(X[1], Y[1]))


@kernel
def sscale(s, X):
    return (vscale(s, X[0]), vscale(s, X[1]))


@kernel
def sdot(X, F):
    """The pairing ``<F, V> = F^T V`` of a wrench and a twist."""
    return dot(X[0], F[0]) + dot(X[1], F[1])


@kernel
def Ad_inv_mul(R, p, V):
    """``Ad_{T^-1} V = (R^T w, R^T (v - p x w))`` for ``T = (R, p)``, Kim (2012),
    eq. (7)."""
    w, v = V
    return (rot_T(R, w), rot_T(R, vsub(v, cross(p, w))))


@kernel
def Ad_mul(R, p, V):
    """``Ad_T V = (R w, R v + p x R w)`` for ``T = (R, p)``, Kim (2012), eq. (7): a
    twist of the child frame, in the parent's."""
    w, v = V
    Rw = rot(R, w)
    return (Rw, vadd(rot(R, v), cross(p, Rw)))


@kernel
def Ad_star_inv_mul(R, p, F):
    """``Ad*_{T^-1} F = (R m + p x R f, R f)``: a wrench in the child frame, in the
    parent's."""
    m, f = F
    Rf = rot(R, f)
    return (vadd(rot(R, m), cross(p, Rf)), Rf)


@kernel
def ad_mul(V, X):
    """``ad_V X = (w x w', v x w' + w x v')``, the Lie bracket, Kim (2012), eq.
    (9)."""
    w, v = V
    return (cross(w, X[0]), vadd(cross(v, X[0]), cross(w, X[1])))


@kernel
def ad_star_mul(V, F):
    """``ad*_V F = ad_V^T F = (-(w x m) - v x f, -(w x f))``, Kim (2012), eq.
    (10)."""
    w, v = V
    m, f = F
    return (vneg(vadd(cross(w, m), cross(v, f))), vneg(cross(w, f)))


@kernel
def inertia_mul(I, V):
    """``I V`` for ``I = [[A, B], [B^T, C]]``: the momentum of twist ``V``."""
    A, B, C = I
    w, v = V
    return (vadd(rot(A, w), rot(B, v)), vadd(rot_T(B, w), rot(C, v)))


@kernel
def block_traces(I):
    """``(tr A, tr C)`` of ``I = [[A, B], [B^T, C]]``: the rotational and the
    translational block's, of the units of a moment of inertia and of a mass."""
    A, _, C = I
    return A[0][0] + A[1][1] + A[2][2], C[0][0] + C[1][1] + C[2][2]


@kernel
def inertia_sub_outer(I, X, Y):
    """``I - X Y^T`` as blocks ``A, B, C`` (the lower left block taken as ``B^T``):
    right when the terms subtracted sum to a symmetric matrix, as ``U Psi U^T``
    does."""
    A, B, C = I
    return (msub(A, outer(X[0], Y[0])), msub(B, outer(X[0], Y[1])),
            msub(C, outer(X[1], Y[1])))


@kernel
def rotate_symmetric(R, A):
    """``R A R^T`` for a symmetric ``A`` (the diagonal blocks in
    :func:`congruence`, Kim (2012), eq. (21)): the upper triangle, mirrored."""
    X = matmul(R, A)
    a, b, c = dot(X[0], R[0]), dot(X[0], R[1]), dot(X[0], R[2])
    d, e, f = dot(X[1], R[1]), dot(X[1], R[2]), dot(X[2], R[2])
    return ((a, b, c), (b, d, e), (c, e, f))


@kernel(inline=True)
def congruence(R, p, I):
    """``Ad*_{T^-1} I Ad_{T^-1}``: an inertia of the child frame, in the parent's
    (Kim (2012), eq. (21); the articulated inertias of Kim (2012), eq. (49) move
    alike).

    With ``Ad_{T^-1} = diag(R^T, R^T) [[1, 0], [-[p], 1]]`` and the rotated blocks
    ``A' = R A R^T``, ``B' = R B R^T``, ``C' = R C R^T``:
    ``[[A' + [p] B'^T - (B' + [p] C') [p], B' + [p] C'], [., C']]``, where
    ``-B'' [p] = ([p] B''^T)^T`` for ``B'' = B' + [p] C'``.
    """
    A, B, C = I
    A1, B1, C1 = (rotate_symmetric(R, A), matmul(matmul(R, B), transpose(R)),
                  rotate_symmetric(R, C))
    B2 = madd(B1, skew_mul(p, C1))
    A2 = madd(madd(A1, skew_mul(p, transpose(B1))),
              transpose(skew_mul(p, transpose(B2))))
    return (A2, B2, C1)


# --- loading and storing one state of a chunk -------------------------------------
@kernel
def at(X, l):
    """The column of component ``X`` (a slot plus an offset), state ``l``, in a row
    of a chunk's workspace. Unsigned: numba then omits its test for a negative
    index, which would keep a loop over the states from compiling into packed
    vector instructions."""
    return np.uint64(X * LANES + l)


@kernel
def load3(w, i, X, l):
    """The 3-vector in slot ``X`` of row ``i``, state ``l``."""
    return (w[i, at(X, l)], w[i, at(X + 1, l)], w[i, at(X + 2, l)])


@kernel
def store3(w, i, X, l, x):
    w[i, at(X, l)] = x[0]
    w[i, at(X + 1, l)] = x[1]
    w[i, at(X + 2, l)] = x[2]


@kernel
def load6(w, i, X, l):
    """The twist or wrench in slot ``X`` of row ``i``, state ``l``."""
    return load3(w, i, X, l), load3(w, i, X + 3, l)


@kernel
def store6(w, i, X, l, Y):
    store3(w, i, X, l, Y[0])
    store3(w, i, X + 3, l, Y[1])


@kernel
def load_rotation(w, i, X, l):
    """The 3x3 matrix in slot ``X`` (9 numbers, row by row)."""
    return load3(w, i, X, l), load3(w, i, X + 3, l), load3(w, i, X + 6, l)


@kernel
def store_rotation(w, i, X, l, A):
    store3(w, i, X, l, A[0])
    store3(w, i, X + 3, l, A[1])
    store3(w, i, X + 6, l, A[2])


@kernel
def load_transform(w, i, l):
    """``T_{lambda(i),i} = (R, p)`` of body ``i``."""
    return load_rotation(w, i, R, l), load3(w, i, P, l)


@kernel
def load_inertia(w, i, X, l):
    """The blocks ``A, B, C`` of the inertia in slot ``X`` (27 numbers)."""
    return (load_rotation(w, i, X, l), load_rotation(w, i, X + 9, l),
            load_rotation(w, i, X + 18, l))


@kernel
def store_inertia(w, i, X, l, I):
    store_rotation(w, i, X, l, I[0])
    store_rotation(w, i, X + 9, l, I[1])
    store_rotation(w, i, X + 18, l, I[2])


@kernel
def load_columns(w, i, X, l):
    """The (6, 6) matrix in slot ``X`` as its six columns (36 numbers)."""
    return (load6(w, i, X, l), load6(w, i, X + 6, l), load6(w, i, X + 12, l),
            load6(w, i, X + 18, l), load6(w, i, X + 24, l), load6(w, i, X + 30, l))


# --- whole slots, every state of a chunk ------------------------------------------
@kernel
def copy_slots(w, i, X, k, Y, n):
    """Row ``i``'s ``n`` numbers from slot ``X`` := row ``k``'s from slot ``Y``, for
    every state of the chunk (a parent's twist handed to its child): one loop over
    the slots' numbers, which lie one after the other (of the states past the
    chunk's ``L`` too, which no result reads)."""
    for m in range(n * LANES):
        w[i, at(X, m)] = w[k, at(Y, m)]


@kernel
def add_slots(w, i, X, k, Y, n):
    """Row ``i``'s ``n`` numbers from slot ``X`` += row ``k``'s from slot ``Y``, for
    every state of the chunk (a child's term added to its parent's sum), as
    :func:`copy_slots`."""
    for m in range(n * LANES):
        w[i, at(X, m)] = w[i, at(X, m)] + w[k, at(Y, m)]


# --- the flattened model's numbers (the same for every state) ---------------------
@kernel
def body_inertia(body, i):
    """``I_i`` of the flattened model as blocks ``A, B, C``."""
    k = INERTIA
    A = ((body[i, k], body[i, k + 1], body[i, k + 2]),
         (body[i, k + 6], body[i, k + 7], body[i, k + 8]),
         (body[i, k + 12], body[i, k + 13], body[i, k + 14]))
    B = ((body[i, k + 3], body[i, k + 4], body[i, k + 5]),
         (body[i, k + 9], body[i, k + 10], body[i, k + 11]),
         (body[i, k + 15], body[i, k + 16], body[i, k + 17]))
    C = ((body[i, k + 21], body[i, k + 22], body[i, k + 23]),
         (body[i, k + 27], body[i, k + 28], body[i, k + 29]),
         (body[i, k + 33], body[i, k + 34], body[i, k + 35]))
    return (A, B, C)


@kernel
def placement(body, i):
    """``X_i = (R_X, p_X)`` of the flattened model."""
    k = RX
    return (((body[i, k], body[i, k + 1], body[i, k + 2]),
             (body[i, k + 3], body[i, k + 4], body[i, k + 5]),
             (body[i, k + 6], body[i, k + 7], body[i, k + 8])),
            (body[i, PX], body[i, PX + 1], body[i, PX + 2]))


@kernel
def axes(body, i):
    """The joint's axes ``a`` and ``b`` (see
    :func:`liedyn.engine.dispatch.flat_model`)."""
    return ((body[i, PAR], body[i, PAR + 1], body[i, PAR + 2]),
            (body[i, PAR + 3], body[i, PAR + 4], body[i, PAR + 5]))


@kernel
def unit_twist(k, zero):
    """The ``k``-th unit 6-vector ``e_k`` (of the type of ``zero``)."""
    one = zero + 1
    return ((one if k == 0 else zero, one if k == 1 else zero,
             one if k == 2 else zero),
            (one if k == 3 else zero, one if k == 4 else zero,
             one if k == 5 else zero))


@kernel
def columns_mul(C, X):
    """``M X`` for the (6, 6) matrix ``M`` of columns ``C``."""
    (a, b, c), (d, e, f) = X
    return sadd(sadd(sadd(sscale(a, C[0]), sscale(b, C[1])), sadd(sscale(c, C[2]),
                                                                 sscale(d, C[3]))),
                sadd(sscale(e, C[4]), sscale(f, C[5])))


@kernel
def columns_T_mul(C, X):
    """``M^T X`` for the (6, 6) matrix ``M`` of columns ``C``."""
    return ((sdot(C[0], X), sdot(C[1], X), sdot(C[2], X)),
            (sdot(C[3], X), sdot(C[4], X), sdot(C[5], X)))
