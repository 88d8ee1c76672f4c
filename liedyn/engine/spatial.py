"""The spatial operators of the kernels: 3-vectors, 3x3 blocks, twists, wrenches,
generalized inertias and the workspaces of a flattened model, written on numbers.

A twist is a pair ``(w, v)`` of 3-tuples, a rotation a 3-tuple of rows, a
generalized inertia the blocks ``(A, B, C)`` of ``[[A, B], [B^T, C]]`` (Kim (2012),
Section 1).
Named as the book names them (``Ad_inv_mul``, ``ad_star_mul``, ``inertia_mul``, the
congruence ``Ad* I Ad``), so that a kernel line reads like its equation.
"""
from .jit import exp_coefficients, kernel


# topo columns
PARENT, JOINT, QI, VI, NV = 0, 1, 2, 3, 4
# body columns: joint parameters, placement X_i = (RX, pX), inertia I_i (row-major),
# the armature of the joint's degrees of freedom
PAR, RX, PX, INERTIA, ARM = 0, 12, 21, 24, 60
BODY_COLUMNS = 66
# joint codes
(FIXED, REVOLUTE, PRISMATIC, HELICAL, SCREW, UNIVERSAL, PLANAR, SPHERICAL,
 SPHERICAL_ZYX, SPHERICAL_EXP, FREE) = range(11)


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
def inertia_add(I, J):
    return (madd(I[0], J[0]), madd(I[1], J[1]), madd(I[2], J[2]))


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


@kernel
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


# --- workspaces and the flattened model -------------------------------------------
@kernel
def load3(W, i):
    return (W[i, 0], W[i, 1], W[i, 2])


@kernel
def load6(W, i):
    return ((W[i, 0], W[i, 1], W[i, 2]), (W[i, 3], W[i, 4], W[i, 5]))


@kernel
def store6(W, i, X):
    W[i, 0], W[i, 1], W[i, 2] = X[0]
    W[i, 3], W[i, 4], W[i, 5] = X[1]


@kernel
def load_rotation(W, i):
    return ((W[i, 0, 0], W[i, 0, 1], W[i, 0, 2]),
            (W[i, 1, 0], W[i, 1, 1], W[i, 1, 2]),
            (W[i, 2, 0], W[i, 2, 1], W[i, 2, 2]))


@kernel
def store_transform(Rw, pw, i, R, p):
    for r in range(3):
        Rw[i, r, 0], Rw[i, r, 1], Rw[i, r, 2] = R[r]
    pw[i, 0], pw[i, 1], pw[i, 2] = p


@kernel
def load_transform(Rw, pw, i):
    return load_rotation(Rw, i), load3(pw, i)


@kernel
def load_inertia(W, i):
    """The blocks ``A, B, C`` of a (6, 6) inertia stored in ``W[i]``."""
    A = ((W[i, 0, 0], W[i, 0, 1], W[i, 0, 2]), (W[i, 1, 0], W[i, 1, 1], W[i, 1, 2]),
         (W[i, 2, 0], W[i, 2, 1], W[i, 2, 2]))
    B = ((W[i, 0, 3], W[i, 0, 4], W[i, 0, 5]), (W[i, 1, 3], W[i, 1, 4], W[i, 1, 5]),
         (W[i, 2, 3], W[i, 2, 4], W[i, 2, 5]))
    C = ((W[i, 3, 3], W[i, 3, 4], W[i, 3, 5]), (W[i, 4, 3], W[i, 4, 4], W[i, 4, 5]),
         (W[i, 5, 3], W[i, 5, 4], W[i, 5, 5]))
    return (A, B, C)


@kernel
def store_inertia(W, i, I):
    A, B, C = I
    for r in range(3):
        W[i, r, 0], W[i, r, 1], W[i, r, 2] = A[r]
        W[i, r, 3], W[i, r, 4], W[i, r, 5] = B[r]
        W[i, r + 3, 3], W[i, r + 3, 4], W[i, r + 3, 5] = C[r]
        W[i, 3, r], W[i, 4, r], W[i, 5, r] = B[r]                 # the block B^T


@kernel
def row_mul(W, i, k, X):
    """Row ``k`` of the (6, 6) matrix ``W[i]`` times the 6-vector ``X``."""
    (a, b, c), (d, e, f) = X
    return (W[i, k, 0] * a + W[i, k, 1] * b + W[i, k, 2] * c
            + W[i, k, 3] * d + W[i, k, 4] * e + W[i, k, 5] * f)


@kernel
def column_mul(W, i, k, X):
    """Column ``k`` of the (6, 6) matrix ``W[i]`` times the 6-vector ``X``."""
    (a, b, c), (d, e, f) = X
    return (W[i, 0, k] * a + W[i, 1, k] * b + W[i, 2, k] * c
            + W[i, 3, k] * d + W[i, 4, k] * e + W[i, 5, k] * f)


@kernel
def matrix_mul(W, i, X):
    """``W[i] X`` for a (6, 6) matrix ``W[i]``."""
    return ((row_mul(W, i, 0, X), row_mul(W, i, 1, X), row_mul(W, i, 2, X)),
            (row_mul(W, i, 3, X), row_mul(W, i, 4, X), row_mul(W, i, 5, X)))


@kernel
def matrix_T_mul(W, i, X):
    """``W[i]^T X`` for a (6, 6) matrix ``W[i]``."""
    return ((column_mul(W, i, 0, X), column_mul(W, i, 1, X),
             column_mul(W, i, 2, X)),
            (column_mul(W, i, 3, X), column_mul(W, i, 4, X),
             column_mul(W, i, 5, X)))


@kernel
def store_column(W, i, k, X):
    """Column ``k`` of the (6, 6) matrix ``W[i]`` := ``X``."""
    W[i, 0, k], W[i, 1, k], W[i, 2, k] = X[0]
    W[i, 3, k], W[i, 4, k], W[i, 5, k] = X[1]


@kernel
def unit_twist(k, zero):
    """The ``k``-th unit 6-vector ``e_k`` (of the type of ``zero``)."""
    one = zero + 1
    return ((one if k == 0 else zero, one if k == 1 else zero,
             one if k == 2 else zero),
            (one if k == 3 else zero, one if k == 4 else zero,
             one if k == 5 else zero))


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


@kernel(inline=True)
def S_mul(S, v, n, x, zero):
    """``S_i x_i = sum_r S[v + r] x[v + r]`` over the ``n`` coordinates of joint
    ``i``."""
    out = ((zero, zero, zero), (zero, zero, zero))
    for r in range(n):
        out = sadd(out, sscale(x[v + r], load6(S, v + r)))
    return out
