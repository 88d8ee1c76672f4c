"""Convert liedyn models and states to Pinocchio's (test-only), minding the conventions.

* Pinocchio orders spatial vectors (v, w) (linear first); liedyn (w, v): permute with ``P``.
* Pinocchio's quaternions are (x, y, z, w); liedyn's (w, x, y, z).
* Joints whose velocity differs from liedyn's (Planar: Pinocchio uses the body velocity;
  SphericalExp: no Pinocchio joint, mapped to Spherical) get a per-joint map
  ``v_pin = B(q) dq``, ``a_pin = B ddq + dB dq`` and ``tau = B^T tau_pin``.
* Screw and Fixed joints have no Pinocchio counterpart: ``supported`` reports them.
"""
import numpy as np
import pinocchio as pin

from liedyn import dexp, lie
from liedyn import joints as J

P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
SUPPORTED = (J.Revolute, J.Prismatic, J.Helical, J.Universal, J.Planar, J.Spherical,
             J.SphericalZYX, J.SphericalExp, J.Free)


def supported(model):
    """True if every joint of ``model`` has a Pinocchio counterpart here."""
    return all(isinstance(j, SUPPORTED) for j in model.joints[1:])


def _joint_model(joint):
    if isinstance(joint, J.Revolute):
        return pin.JointModelRevoluteUnaligned(joint.axis)
    if isinstance(joint, J.Prismatic):
        return pin.JointModelPrismaticUnaligned(joint.axis)
    if isinstance(joint, J.Helical):
        return pin.JointModelHelicalUnaligned(joint.axis, joint.pitch)
    if isinstance(joint, J.Universal):
        return pin.JointModelUniversal(joint.axis1, joint.axis2)
    if isinstance(joint, J.Planar):
        return pin.JointModelPlanar()
    if isinstance(joint, (J.Spherical, J.SphericalExp)):
        return pin.JointModelSpherical()
    if isinstance(joint, J.SphericalZYX):
        return pin.JointModelSphericalZYX()
    if isinstance(joint, J.Free):
        return pin.JointModelFreeFlyer()
    raise TypeError(f"no Pinocchio joint for {joint!r}")


def inertia_to_pin(I):
    """A liedyn generalized inertia (6x6, (w, v), about the body origin) as a pin.Inertia."""
    m = I[3, 3]
    c = lie.unskew(I[:3, 3:]) / m if m else np.zeros(3)      # a massless link: no moment
    Ic = I[:3, :3] - m * lie.skew(c).T @ lie.skew(c)
    return pin.Inertia(m, c, (Ic + Ic.T) / 2)


def to_pinocchio(model):
    """A ``pinocchio.Model`` with the same bodies, in the same order (joint id i = body i)."""
    pm = pin.Model()
    pm.gravity = pin.Motion(np.asarray(model.gravity, float), np.zeros(3))
    for i in range(1, model.nbodies + 1):
        X = model.placements[i]
        jid = pm.addJoint(model.parent[i], _joint_model(model.joints[i]),
                          pin.SE3(X[:3, :3], X[:3, 3]), model.names[i])
        pm.appendBodyToJoint(jid, inertia_to_pin(model.inertias[i]), pin.SE3.Identity())
    return pm


def _B(joint, q):
    """``v_pin = B(q) dq`` for one joint (Pinocchio's (v, w) order already applied)."""
    if isinstance(joint, J.Planar):
        c, s = np.cos(q[2]), np.sin(q[2])
        return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])
    if isinstance(joint, J.SphericalExp):
        return dexp.dexp_so3(q, side="right")
    if isinstance(joint, J.Free):
        return P
    return np.eye(joint.nv)


def _dB(joint, q, dq):
    if isinstance(joint, J.Planar):
        c, s = np.cos(q[2]), np.sin(q[2])
        return dq[2] * np.array([[-s, c, 0.0], [-c, -s, 0.0], [0.0, 0.0, 0.0]])
    if isinstance(joint, J.SphericalExp):
        return dexp.dexp_so3_dot(q, dq, side="right")
    return np.zeros((joint.nv, joint.nv))


def _q_pin(joint, q):
    if isinstance(joint, J.Planar):
        return np.array([q[0], q[1], np.cos(q[2]), np.sin(q[2])])
    if isinstance(joint, J.Spherical):
        return np.array([q[1], q[2], q[3], q[0]])
    if isinstance(joint, J.SphericalExp):
        w, x, y, z = lie.exp_quat(q)
        return np.array([x, y, z, w])
    if isinstance(joint, J.Free):
        return np.concatenate([q[:3], q[4:], q[3:4]])
    return np.asarray(q, float)


def state_to_pin(model, q, dq=None, ddq=None):
    """Map a liedyn state ``(q, dq, ddq)`` to Pinocchio's ``(q, v, a)`` (unbatched)."""
    qs, vs, as_ = [], [], []
    for i in range(1, model.nbodies + 1):
        j, qi = model.joints[i], q[model.q_slice[i]]
        qs.append(_q_pin(j, qi))
        if dq is not None:
            B, dqi = _B(j, qi), dq[model.v_slice[i]]
            vs.append(B @ dqi)
            if ddq is not None:
                as_.append(B @ ddq[model.v_slice[i]] + _dB(j, qi, dqi) @ dqi)
    out = [np.concatenate(qs)]
    if dq is not None:
        out.append(np.concatenate(vs))
    if ddq is not None:
        out.append(np.concatenate(as_))
    return out if len(out) > 1 else out[0]


def velocity_map(model, q):
    """The block-diagonal ``B(q)`` with ``v_pin = B dq`` (so ``tau = B^T tau_pin``)."""
    B = np.zeros((model.nv, model.nv))
    for i in range(1, model.nbodies + 1):
        B[model.v_slice[i], model.v_slice[i]] = _B(model.joints[i], q[model.q_slice[i]])
    return B


def forces_to_pin(f_ext):
    """liedyn wrenches (N, 6), (m, f) per body, as Pinocchio's list of Forces (with the
    universe)."""
    return [pin.Force.Zero()] + [pin.Force(F[3:], F[:3]) for F in np.asarray(f_ext)]
