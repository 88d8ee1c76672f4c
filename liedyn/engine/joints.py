"""The joints in the kernels, for every state of a chunk: ``T_{lambda(i),i} = X_i
Phi_i(q_i)``, ``S_i`` and ``dS_i dq_i`` per joint code, in one :func:`joint_motion`
that dispatches on the code (as in Featherstone's spatial_v2); the joints are those
of :mod:`liedyn.joints`.

The columns of ``S_i`` that do not depend on ``q`` (:func:`joint_axis`) are written
into the coordinate rows once per call (:func:`liedyn.engine.drivers.prepare`);
:func:`joint_motion` writes the others, chunk by chunk.
"""
from .jit import SINCOS_REACH, cos, kernel, normalise_quaternion, sin, sincos
from .spatial import (
    COS,
    DQ,
    DSDQ,
    FREE,
    HELICAL,
    JOINT,
    PAR,
    PLANAR,
    PRISMATIC,
    REVOLUTE,
    SCREW,
    SIN,
    SPHERICAL,
    SPHERICAL_EXP,
    SPHERICAL_ZYX,
    UNIVERSAL,
    VI,
    P,
    Q,
    R,
    S,
    V,
    at,
    axes,
    cross,
    exp_chart,
    exp_chart_rate,
    load3,
    matmul,
    placement,
    quaternion_rotation,
    rot,
    rot_T,
    rotation_about,
    store3,
    store6,
    store_rotation,
    unit_twist,
    vadd,
    vscale,
)


@kernel
def joint_axis(body, i, code, r, zero):
    """Column ``r`` of ``S_i`` where it does not depend on ``q`` (Kim (2012), eq.
    (37)); zero where it does (those :func:`joint_motion` writes)."""
    a, b = axes(body, i)
    o = (zero, zero, zero)
    if code == REVOLUTE:                                 # S = (a, 0)
        return (vadd(a, o), o)
    if code == PRISMATIC:                                # S = (0, b)
        return (o, vadd(b, o))
    if code == HELICAL:                                  # S = (a, pitch a)
        return (vadd(a, o), vscale(body[i, PAR + 7], vadd(a, o)))
    if code == SCREW:                                    # S = k (a, u), or (0, u)
        kk = body[i, PAR + 6]
        return (o, vadd(b, o)) if kk == 0.0 else (vscale(kk, vadd(a, o)),
                                                  vscale(kk, vadd(b, o)))
    if code == UNIVERSAL and r == 1:                     # S = (exp(-[b] q2) a, b)
        return (vadd(b, o), o)
    if code == PLANAR and r == 2:                        # the rotation about z
        return ((zero, zero, zero + 1), o)
    if code == SPHERICAL_ZYX and r == 2:                 # the rate of qx about x
        return ((zero + 1, zero, zero), o)
    if code == SPHERICAL or code == FREE:                # S = 1
        return unit_twist(r, zero)
    return (o, o)


@kernel
def screw_motion(a, u, kk, t, RX, pX):
    """``X J`` for the screw joint's ``J = exp(A t)``, ``A = kk (a, u)`` (a pure
    translation along ``u`` when ``kk = 0``), as ``(R, p)``."""
    if kk == 0.0:
        return RX, vadd(rot(RX, vscale(t, u)), pX)
    th = kk * t
    s, c = sin(th), cos(th)
    au = cross(a, u)
    p = vadd(vadd(vscale(th, u), vscale(1 - c, au)), vscale(th - s, cross(a, au)))
    return matmul(RX, rotation_about(a, s, c)), vadd(rot(RX, p), pX)


@kernel
def zyx_rotation(sz, cz, sy, cy, sx, cx):
    """``R = Rz(qz) Ry(qy) Rx(qx)`` of the Euler-angle joint, from the sines and
    cosines of its angles."""
    return matmul(matmul(rotation_about((0.0, 0.0, 1.0), sz, cz),
                         rotation_about((0.0, 1.0, 0.0), sy, cy)),
                  rotation_about((1.0, 0.0, 0.0), sx, cx))


@kernel
def joint_angles(w, i, j0, n, L):
    """``sin`` and ``cos`` of the ``n`` angles ``q_i[j0 .. j0 + n - 1]`` of joint
    ``i`` into the slots ``SIN``, ``COS``, for the ``L`` states of a chunk:
    :func:`~liedyn.engine.jit.sincos`, compiled into packed vector instructions,
    and :func:`~liedyn.engine.jit.sin`, :func:`~liedyn.engine.jit.cos` for an angle
    that it does not reach."""
    for j in range(n):
        for l in range(L):
            s, c = sincos(w[i, at(Q + j0 + j, l)])
            w[i, at(SIN + j, l)] = s
            w[i, at(COS + j, l)] = c
        for l in range(L):
            t = w[i, at(Q + j0 + j, l)]
            if not abs(t.real) < SINCOS_REACH:
                w[i, at(SIN + j, l)] = sin(t)
                w[i, at(COS + j, l)] = cos(t)


@kernel
def joint_motion(topo, body, i, w, c, rates, L):
    """Joint ``i`` for the ``L`` states of a chunk: ``T_{lambda(i),i} = X_i
    Phi_i(q_i)`` into the slots ``R``, ``P`` of its row of ``w`` (from ``q_i`` in
    its slot ``Q``), the columns of ``S_i`` (Kim (2012), eq. (37)) that depend on
    ``q`` into its coordinate rows of ``c``, and, if ``rates``, ``dS_i dq_i`` (Kim
    (2012), eq. (41)) into the slot ``DSDQ`` (it stays zero for the other joints).
    Joints as in :mod:`liedyn.joints`."""
    code, v = topo[i, JOINT], topo[i, VI]
    RX, pX = placement(body, i)
    a, b = axes(body, i)
    zero = w[0, at(V, 0)]                            # the ground's twist: zero
    if code == REVOLUTE:
        joint_angles(w, i, 0, 1, L)
        for l in range(L):
            store_rotation(w, i, R, l, matmul(RX, rotation_about(
                a, w[i, at(SIN, l)], w[i, at(COS, l)])))
            store3(w, i, P, l, pX)
    elif code == PRISMATIC:
        for l in range(L):
            store_rotation(w, i, R, l, RX)
            store3(w, i, P, l, vadd(rot(RX, vscale(w[i, at(Q, l)], b)), pX))
    elif code == HELICAL:
        h = body[i, PAR + 7]
        joint_angles(w, i, 0, 1, L)
        for l in range(L):
            store_rotation(w, i, R, l, matmul(RX, rotation_about(
                a, w[i, at(SIN, l)], w[i, at(COS, l)])))
            store3(w, i, P, l, vadd(rot(RX, vscale(h * w[i, at(Q, l)], a)), pX))
    elif code == SCREW:
        kk = body[i, PAR + 6]
        for l in range(L):
            Ri, pi = screw_motion(a, b, kk, w[i, at(Q, l)], RX, pX)
            store_rotation(w, i, R, l, Ri)
            store3(w, i, P, l, pi)
    elif code == UNIVERSAL:                      # R = exp([a1] q1) exp([a2] q2)
        joint_angles(w, i, 0, 2, L)
        for l in range(L):
            R2 = rotation_about(b, w[i, at(SIN + 1, l)], w[i, at(COS + 1, l)])
            a1 = rot_T(R2, a)
            store_rotation(w, i, R, l, matmul(RX, matmul(rotation_about(
                a, w[i, at(SIN, l)], w[i, at(COS, l)]), R2)))
            store3(w, i, P, l, pX)
            store3(c, v, S, l, a1)
            store3(c, v, S + 3, l, (zero, zero, zero))
            if rates:                        # dq1 d/dt exp(-[a2] q2) a1
                dq1, dq2 = c[v, at(DQ, l)], c[v + 1, at(DQ, l)]
                store6(w, i, DSDQ, l, (vscale(-dq1 * dq2, cross(b, a1)),
                                       (zero, zero, zero)))
    elif code == PLANAR:                                 # q = (x, y, theta)
        joint_angles(w, i, 2, 1, L)
        for l in range(L):
            s, co = w[i, at(SIN, l)], w[i, at(COS, l)]
            store_rotation(w, i, R, l, matmul(RX, ((co, -s, zero), (s, co, zero),
                                                   (zero, zero, zero + 1))))
            store3(w, i, P, l, vadd(rot(RX, (w[i, at(Q, l)],
                                             w[i, at(Q + 1, l)], zero)), pX))
            o = (zero, zero, zero)
            store6(c, v, S, l, (o, (co, -s, zero)))              # R^T e_x
            store6(c, v + 1, S, l, (o, (s, co, zero)))           # R^T e_y
            if rates:                    # dx dS_x/dt + dy dS_y/dt, dth their rate
                dx, dy = c[v, at(DQ, l)], c[v + 1, at(DQ, l)]
                dth = c[v + 2, at(DQ, l)]
                store6(w, i, DSDQ, l, (o, ((co * dy - s * dx) * dth,
                                           -(co * dx + s * dy) * dth, zero)))
    elif code == SPHERICAL or code == FREE:        # unit quaternion (w, x, y, z)
        j = 3 if code == FREE else 0
        for l in range(L):
            qw, qx, qy, qz = normalise_quaternion(
                w[i, at(Q + j, l)], w[i, at(Q + j + 1, l)],
                w[i, at(Q + j + 2, l)], w[i, at(Q + j + 3, l)])
            RJ = quaternion_rotation(qw, qx, qy, qz)
            store_rotation(w, i, R, l, matmul(RX, RJ))
            if code == FREE:
                store3(w, i, P, l, vadd(rot(RX, load3(w, i, Q, l)), pX))
            else:
                store3(w, i, P, l, pX)
    elif code == SPHERICAL_ZYX:                          # R = Rz(q0) Ry(q1) Rx(q2)
        joint_angles(w, i, 0, 3, L)
        for l in range(L):
            sb, cb = w[i, at(SIN + 1, l)], w[i, at(COS + 1, l)]
            sc, cc = w[i, at(SIN + 2, l)], w[i, at(COS + 2, l)]
            store_rotation(w, i, R, l, matmul(RX, zyx_rotation(
                w[i, at(SIN, l)], w[i, at(COS, l)], sb, cb, sc, cc)))
            store3(w, i, P, l, pX)
            o = (zero, zero, zero)
            store6(c, v, S, l, ((-sb, sc * cb, cc * cb), o))
            store6(c, v + 1, S, l, ((zero, cc, -sc), o))
            if rates:
                dz, db, dc = (c[v, at(DQ, l)], c[v + 1, at(DQ, l)],
                              c[v + 2, at(DQ, l)])
                dw0 = (-cb * db, cc * cb * dc - sc * sb * db,
                       -sc * cb * dc - cc * sb * db)
                dw1 = (zero, -sc * dc, -cc * dc)
                store6(w, i, DSDQ, l, (vadd(vscale(dz, dw0), vscale(db, dw1)), o))
    elif code == SPHERICAL_EXP:                  # R = exp([phi]), S = (J_r(phi), 0)
        for l in range(L):
            phi = load3(w, i, Q, l)
            Rj, J_l = exp_chart(phi, zero + 1)           # J_l = J_r^T: rows of J_l
            store_rotation(w, i, R, l, matmul(RX, Rj))   # are the columns of S
            store3(w, i, P, l, pX)
            o = (zero, zero, zero)
            store6(c, v, S, l, (J_l[0], o))
            store6(c, v + 1, S, l, (J_l[1], o))
            store6(c, v + 2, S, l, (J_l[2], o))
            if rates:                                    # dS = (dJ_r/dt, 0)
                dphi = (c[v, at(DQ, l)], c[v + 1, at(DQ, l)],
                        c[v + 2, at(DQ, l)])
                dJ = exp_chart_rate(phi, dphi, zero)
                store6(w, i, DSDQ, l, (vadd(vadd(vscale(dphi[0], dJ[0]),
                                                 vscale(dphi[1], dJ[1])),
                                            vscale(dphi[2], dJ[2])), o))
    else:                                                # FIXED
        for l in range(L):
            store_rotation(w, i, R, l, RX)
            store3(w, i, P, l, pX)
