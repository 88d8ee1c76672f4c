"""The recursive algorithms written once, per state, on 3-vectors and 3x3 blocks.

This is the single source of the fast paths of :func:`liedyn.inverse_dynamics.rnea`,
:func:`liedyn.crba.mass_matrix` and :func:`liedyn.forward_dynamics.aba`. Every
function here handles one state: a twist is a pair ``(w, v)`` of 3-tuples, a
rotation a 3-tuple of rows, a generalized inertia the blocks ``(A, B, C)`` of ``[[A,
B], [B^T, C]]``. Only ``+``, ``-``, ``*``, ``/``, indexing and the functions of
:mod:`liedyn.engine.jit` are used: numba compiles the code for float64 and
complex128 numbers into the drivers at the end of this module, which
:mod:`liedyn.engine.dispatch` calls on a flattened batch; called directly, a kernel
is plain Python on numbers (chapter 11 counts its operations that way).

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
import numpy as np

from .jit import (compiled, cos, exp_coefficients, kernel, normalise_quaternion,
                   sin, sqrt)
from ..joints import CHART_TOL, QUAT_TOL

# topo columns
PARENT, JOINT, QI, VI, NV = 0, 1, 2, 3, 4
# body columns: joint parameters, placement X_i = (RX, pX), inertia I_i (row-major)
PAR, RX, PX, INERTIA = 0, 12, 21, 24
BODY_COLUMNS = 60
# joint codes
(FIXED, REVOLUTE, PRISMATIC, HELICAL, SCREW, UNIVERSAL, PLANAR, SPHERICAL,
 SPHERICAL_ZYX, SPHERICAL_EXP, FREE) = range(11)


# --- 3-vectors and 3x3 matrices
# ---------------------------------------------------------
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
    """``d/dt J_r(phi)^T`` along ``dphi`` (:func:`liedyn.lie.dexp_so3_dot`): with
    ``J_r = 1 - B [phi] + C [phi]^2`` and ``r = d|phi|^2/dt = 2 phi . dphi``, it is
    ``r dB [phi] + r dC [phi]^2 + B [dphi] + C ([phi][dphi] + [dphi][phi])``, where
    ``[phi][dphi] + [dphi][phi] = dphi phi^T + phi dphi^T - 2 (phi . dphi) 1``."""
    A, B, C, dB, dC = exp_coefficients(dot(phi, phi))
    r = 2 * dot(phi, dphi)
    return madd(madd(so3_polynomial(zero, r * dB, r * dC, phi),
                     so3_polynomial(-r * C, B, zero, dphi)),
                mscale(C, madd(outer(dphi, phi), outer(phi, dphi))))


# --- twists, wrenches and inertias (Kim (2012), Section 1)
# -------------------------------
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


# --- workspaces and the flattened model
# ---------------------------------------------------
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


# --- joints: T_{lambda(i),i} = X_i J_i(q_i), S_i and dS_i per joint code
# ----------------
@kernel(inline=True)
def screw_motion(a, u, kk, q, S, v, R1, o):
    """The screw joint's ``J = exp(A q)``, ``A = kk (a, u)`` (a pure translation
    along ``u`` when ``kk = 0``), as ``(R, p)``; writes ``S = A``."""
    if kk == 0.0:
        store6(S, v, (o, u))
        return R1, vscale(q, u)
    t = kk * q
    s, c = sin(t), cos(t)
    au = cross(a, u)
    store6(S, v, (vscale(kk, a), vscale(kk, u)))
    return rotation_about(a, s, c), vadd(vadd(vscale(t, u), vscale(1 - c, au)),
                                         vscale(t - s, cross(a, au)))


@kernel(inline=True)
def planar_motion(x, y, theta, S, v, zero):
    """The planar joint's ``J(x, y, theta)`` as ``(R, p)``; writes ``S``: the
    translations along ``R^T e_x``, ``R^T e_y`` and the rotation about ``z``."""
    s, c, o = sin(theta), cos(theta), (zero, zero, zero)
    store6(S, v, (o, (c, -s, zero)))                     # R^T e_x
    store6(S, v + 1, (o, (s, c, zero)))                  # R^T e_y
    store6(S, v + 2, ((zero, zero, zero + 1), o))
    return ((c, -s, zero), (s, c, zero), (zero, zero, zero + 1)), (x, y, zero)


@kernel(inline=True)
def zyx_motion(qz, qy, qx, S, v, zero):
    """``R = Rz(qz) Ry(qy) Rx(qx)`` of the Euler-angle joint; writes ``S`` (its
    columns: the angle rates' angular velocities in the child frame)."""
    sb, cb, sc, cc = sin(qy), cos(qy), sin(qx), cos(qx)
    o = (zero, zero, zero)
    store6(S, v, ((-sb, sc * cb, cc * cb), o))
    store6(S, v + 1, ((zero, cc, -sc), o))
    store6(S, v + 2, ((zero + 1, zero, zero), o))
    return matmul(matmul(rotation_about((0.0, 0.0, 1.0), sin(qz), cos(qz)),
                         rotation_about((0.0, 1.0, 0.0), sb, cb)),
                  rotation_about((1.0, 0.0, 0.0), sc, cc))


@kernel(inline=True)
def jcalc(topo, body, i, q, S, zero):
    """Joint ``i``: write the columns of ``S_i`` (Kim (2012), eq. (37)) and return
    ``T_{lambda(i),i} = X_i J_i(q_i)`` as ``(R, p)``. Joints as in
    :mod:`liedyn.joints`."""
    code, k, v = topo[i, JOINT], topo[i, QI], topo[i, VI]
    a = (body[i, PAR], body[i, PAR + 1], body[i, PAR + 2])
    b = (body[i, PAR + 3], body[i, PAR + 4], body[i, PAR + 5])
    one = zero + 1
    o = (zero, zero, zero)
    RJ = ((one, zero, zero), (zero, one, zero), (zero, zero, one))
    pJ = o
    if code == REVOLUTE:                                 # S = (a, 0)
        RJ = rotation_about(a, sin(q[k]), cos(q[k]))
        store6(S, v, (a, o))
    elif code == PRISMATIC:                              # S = (0, a)
        pJ = vscale(q[k], b)
        store6(S, v, (o, b))
    elif code == HELICAL:                                # S = (a, pitch a)
        RJ = rotation_about(a, sin(q[k]), cos(q[k]))
        pJ = vscale(body[i, PAR + 7] * q[k], a)
        store6(S, v, (a, vscale(body[i, PAR + 7], a)))
    elif code == SCREW:                             # J = exp(A q), S = A = k (a, u)
        RJ, pJ = screw_motion(a, b, body[i, PAR + 6], q[k], S, v, RJ, o)
    elif code == UNIVERSAL:                          # R = exp([a1] q1) exp([a2] q2)
        R2 = rotation_about(b, sin(q[k + 1]), cos(q[k + 1]))
        RJ = matmul(rotation_about(a, sin(q[k]), cos(q[k])), R2)
        store6(S, v, (rot_T(R2, a), o))
        store6(S, v + 1, (b, o))
    elif code == PLANAR:                                 # q = (x, y, theta)
        RJ, pJ = planar_motion(q[k], q[k + 1], q[k + 2], S, v, zero)
    elif code == SPHERICAL or code == FREE:           # unit quaternion (w, x, y, z)
        j = k + 3 if code == FREE else k
        w, x, y, z = normalise_quaternion(q[j], q[j + 1], q[j + 2], q[j + 3])
        RJ = quaternion_rotation(w, x, y, z)
        if code == FREE:
            pJ = (q[k], q[k + 1], q[k + 2])
        for r in range(topo[i, NV]):                     # S = 1
            S[v + r, r] = one
    elif code == SPHERICAL_ZYX:                          # R = Rz(q0) Ry(q1) Rx(q2)
        RJ = zyx_motion(q[k], q[k + 1], q[k + 2], S, v, zero)
    elif code == SPHERICAL_EXP:                  # R = exp([phi]), S = (J_r(phi), 0)
        RJ, J_l = exp_chart((q[k], q[k + 1], q[k + 2]), one)  # J_l = J_r^T
        store6(S, v, (J_l[0], o))                # the rows of J_l: the columns of S
        store6(S, v + 1, (J_l[1], o))
        store6(S, v + 2, (J_l[2], o))
    RX_i, pX_i = placement(body, i)
    return matmul(RX_i, RJ), vadd(rot(RX_i, pJ), pX_i)


@kernel(inline=True)
def joint_dS(topo, body, i, q, dq, dS, zero):
    """Write ``dS_i = dS_i/dt`` along ``dq`` (Kim (2012), eq. (41)) for joints whose
    ``S`` depends on ``q``; the rows of the other joints stay zero."""
    code, k, v = topo[i, JOINT], topo[i, QI], topo[i, VI]
    o = (zero, zero, zero)
    if code == UNIVERSAL:                                # d/dt exp(-[a2] q2) a1
        a = (body[i, PAR], body[i, PAR + 1], body[i, PAR + 2])
        b = (body[i, PAR + 3], body[i, PAR + 4], body[i, PAR + 5])
        a1 = rot_T(rotation_about(b, sin(q[k + 1]), cos(q[k + 1])), a)
        store6(dS, v, (vscale(-dq[v + 1], cross(b, a1)), o))
    elif code == PLANAR:
        s, c, dth = sin(q[k + 2]), cos(q[k + 2]), dq[v + 2]
        store6(dS, v, (o, (-s * dth, -c * dth, zero)))
        store6(dS, v + 1, (o, (c * dth, -s * dth, zero)))
    elif code == SPHERICAL_ZYX:
        sb, cb, sc, cc = sin(q[k + 1]), cos(q[k + 1]), sin(q[k + 2]), cos(q[k + 2])
        db, dc = dq[v + 1], dq[v + 2]
        store6(
            dS,
            v,
            (
                (-cb * db, cc * cb * dc - sc * sb * db,
                 -sc * cb * dc - cc * sb * db),
                o,
            ),
        )
        store6(dS, v + 1, ((zero, -sc * dc, -cc * dc), o))
    elif code == SPHERICAL_EXP:                       # dS = (dJ_r/dt, 0)
        phi, dphi = (q[k], q[k + 1], q[k + 2]), (dq[v], dq[v + 1], dq[v + 2])
        dJ_l = exp_chart_rate(phi, dphi, zero)
        store6(dS, v, (dJ_l[0], o))
        store6(dS, v + 1, (dJ_l[1], o))
        store6(dS, v + 2, (dJ_l[2], o))


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
            tau[v + r] = sdot(load6(S, v + r), Fi)                           # S^T F
        lam = topo[i, PARENT]
        if lam > 0:
            Ri, pi = load_transform(R, p, i)
            store6(F, lam, sadd(load6(F, lam), Ad_star_inv_mul(Ri, pi, Fi)))


@kernel
def crba_state(topo, body, q, ws, M):
    """The composite-rigid-body algorithm for one state (Featherstone (2008), Table
    6.2).

    ``I^c_i = I_i + sum_{k in mu(i)} Ad*_{T_{i,k}^-1} I^c_k Ad_{T_{i,k}^-1}``;
    ``M_ii = S_i^T I^c_i S_i``; then ``F <- Ad*_{T_{lambda(j),j}^-1} F`` up the tree
    and ``M_{j,i} = S_j^T F``. ``M`` must start at zero.
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
def invert(D, v, n, Psi):
    """``Psi = D^-1`` for the symmetric positive definite ``n x n`` block in rows
    ``v..v+n-1`` (Gauss-Jordan without pivoting; ``D`` is overwritten). One DOF: a
    reciprocal."""
    if n == 1:
        Psi[v, 0] = 1 / D[v, 0]
        return
    for r in range(n):
        for c in range(n):
            Psi[v + r, c] = D[v + r, c] * 0
        Psi[v + r, r] = Psi[v + r, r] + 1
    for k in range(n):
        inv_pivot = 1 / D[v + k, k]
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
def pivots(S, U, D, Psi, v, n, Ih):
    """Kim (2012), Table 3, for a joint whose torque is given: ``U = I_hat S`` and
    ``Psi = (S^T I_hat S)^-1`` of (45), into the workspaces."""
    for r in range(n):
        store6(U, v + r, inertia_mul(Ih, load6(S, v + r)))             # U = I_hat S
    for r in range(n):
        for c in range(n):
            D[v + r, c] = sdot(load6(S, v + r), load6(U, v + c))       # S^T I_hat S
    invert(D, v, n, Psi)


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
        pivots(S, U, D, Psi, v, n, Ih)
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
            pivots(S, U, D, Psi, v, n, Ih)
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
                tau_out[v + r] = sdot(load6(S, v + r), Fi)
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
    so that the compiled loop is vectorised (about 0.2 ns an entry, a fifth of a
    test per entry: it checks every mass matrix)."""
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
