"""liedyn vs Pinocchio: forward kinematics, body Jacobians and RNEA on random trees.

The same 200 random trees for every comparison, mixing every joint type that Pinocchio has
(revolute/prismatic about any axis, helical, universal, planar, spherical, free) plus
SphericalZYX (same convention as Pinocchio's) and SphericalExp (mapped to Pinocchio's
Spherical). Relative error <= 1e-10.
"""
import functools

import numpy as np
import pinocchio as pin
import pytest

from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import body_jacobian, forward_kinematics

from common import random_state, relerr
from pinocchio_bridge import P, forces_to_pin, state_to_pin, to_pinocchio, velocity_map

PIN_JOINTS = ("revolute", "prismatic", "helical", "universal", "planar", "spherical",
              "spherical_zyx", "spherical_exp", "free")
N_TREES = 200


@functools.lru_cache(maxsize=None)     # shared by the tests below (read only)
@pytest.mark.parametrize("seed", range(N_TREES))
def test_rnea_matches_pinocchio(seed):
    model, q, dq, ddq, f_ext = random_state(seed, PIN_JOINTS)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp, ap = state_to_pin(model, q, dq, ddq)
    B = velocity_map(model, q)
    tau_pin = pin.rnea(pm, data, qp, vp, ap, forces_to_pin(f_ext))
    assert relerr(rnea(model, q, dq, ddq, f_ext), B.T @ tau_pin) <= 1e-10
    tau_pin0 = pin.rnea(pm, data, qp, vp, ap)
    assert relerr(rnea(model, q, dq, ddq), B.T @ tau_pin0) <= 1e-10


@pytest.mark.parametrize("seed", range(N_TREES))
def test_kinematics_and_jacobians_match_pinocchio(seed):
    model, q, *_ = random_state(seed, PIN_JOINTS)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp = state_to_pin(model, q)
    pin.forwardKinematics(pm, data, qp)
    pin.computeJointJacobians(pm, data, qp)
    Tw = forward_kinematics(model, q).T_world
    B = velocity_map(model, q)
    for i in range(1, model.nbodies + 1):
        assert relerr(Tw[i], data.oMi[i].homogeneous) <= 1e-10
        # 6 x nv, but Pinocchio hands back a 1-D array when the model has a single dof
        J_pin = np.reshape(pin.getJointJacobian(pm, data, i, pin.ReferenceFrame.LOCAL), (6, -1))
        assert J_pin.shape == (6, model.nv)
        assert relerr(body_jacobian(model, q, i), P @ J_pin @ B) <= 1e-10


def test_trees_cover_every_joint_type_and_a_single_dof():
    """The N_TREES trees above exercise each joint type, and single-dof models (nv = 1, for
    which Pinocchio's Jacobians come back 1-D)."""
    seen, nvs = set(), set()
    for seed in range(N_TREES):
        model = random_state(seed, PIN_JOINTS)[0]
        seen.update(type(j).__name__ for j in model.joints[1:])
        nvs.add(model.nv)
    assert seen >= {"Revolute", "Prismatic", "Helical", "Universal", "Planar", "Spherical",
                    "SphericalZYX", "SphericalExp", "Free"}, seen
    assert 1 in nvs
