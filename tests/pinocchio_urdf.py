"""Map states between a liedyn model loaded from URDF and Pinocchio's model of the same file.

Used by ``tests/test_urdf.py`` and ``benchmarks/run.py`` (test-only, like ``pinocchio_bridge``).
Joints are matched by name, so the two models may number their joints differently.

* Pinocchio's free-flyer q is (p, qx, qy, qz, qw), v is (v, w); liedyn's (p, qw, qx, qy, qz)
  and (w, v);
* Pinocchio's continuous joints store (cos, sin) (nq = 2, nv = 1), liedyn the angle;
* Pinocchio's planar joint uses the body velocity, liedyn the coordinate rates.
"""
import numpy as np

from liedyn import joints as J

from pinocchio_bridge import _B, _dB

P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])


class PinMap:
    """Maps between a liedyn URDFModel and a Pinocchio model of the same file, by joint name.

    ``v_pin = B(q) dq``, ``a_pin = B ddq + dB dq``, ``tau = B^T tau_pin``, ``M = B^T M_pin B``.
    """

    def __init__(self, model, pm):
        assert pm.nv == model.nv and pm.njoints == model.nbodies + 1
        assert sorted(pm.names[1:]) == sorted(model.joint_names[1:])
        self.model, self.pm = model, pm
        self.ids = [None] + [pm.getJointId(n) for n in model.joint_names[1:]]

    def _each(self):
        for i in range(1, self.model.nbodies + 1):
            yield i, self.model.joints[i], self.pm.joints[self.ids[i]]

    def q(self, q):
        qp = np.zeros(self.pm.nq)
        for i, j, jm in self._each():
            qi = q[self.model.q_slice[i]]
            if isinstance(j, J.Free):
                qi = np.concatenate([qi[:3], qi[4:], qi[3:4]])
            elif isinstance(j, J.Planar):
                qi = np.array([qi[0], qi[1], np.cos(qi[2]), np.sin(qi[2])])
            elif jm.nq == 2 and jm.nv == 1:          # continuous: (cos, sin)
                qi = np.array([np.cos(qi[0]), np.sin(qi[0])])
            qp[jm.idx_q:jm.idx_q + jm.nq] = qi
        return qp

    def B(self, q, dq=None):
        B = np.zeros((self.pm.nv, self.model.nv))
        for i, j, jm in self._each():
            qi, vs = q[self.model.q_slice[i]], self.model.v_slice[i]
            if dq is None:
                Bi = P if isinstance(j, J.Free) else _B(j, qi)
            else:
                Bi = _dB(j, qi, dq[vs])
            B[jm.idx_v:jm.idx_v + jm.nv, vs] = Bi
        return B
