"""The joints in the kernels: ``T_{lambda(i),i} = X_i J_i(q_i)``, ``S_i`` and
``dS_i`` per joint code, in one ``jcalc`` that dispatches on the code (as in
Featherstone's spatial_v2); the joints are those of :mod:`liedyn.joints`.
"""
from .jit import cos, kernel, normalise_quaternion, sin
from .spatial import *  # noqa: F401,F403  (the operators, the model layout)

# --- joints: T_{lambda(i),i} = X_i J_i(q_i), S_i and dS_i per joint code ----------
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
        dw = (-cb * db, cc * cb * dc - sc * sb * db, -sc * cb * dc - cc * sb * db)
        store6(dS, v, (dw, o))
        store6(dS, v + 1, ((zero, -sc * dc, -cc * dc), o))
    elif code == SPHERICAL_EXP:                       # dS = (dJ_r/dt, 0)
        phi, dphi = (q[k], q[k + 1], q[k + 2]), (dq[v], dq[v + 1], dq[v + 2])
        dJ_l = exp_chart_rate(phi, dphi, zero)
        store6(dS, v, (dJ_l[0], o))
        store6(dS, v + 1, (dJ_l[1], o))
        store6(dS, v + 2, (dJ_l[2], o))
