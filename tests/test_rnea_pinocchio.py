"""liedyn vs Pinocchio: forward kinematics, body Jacobians and RNEA on random trees.

200 random trees mixing every joint type that Pinocchio has (revolute/prismatic about any axis,
helical, universal, planar, spherical, free) plus SphericalZYX (same convention as Pinocchio's)
and SphericalExp (mapped to Pinocchio's Spherical). Relative error <= 1e-10.
"""
import numpy as np
import pinocchio as pin
import pytest

from liedyn.kinematics import body_jacobian, forward_kinematics
from liedyn.rnea import rnea
from liedyn.robots import random_tree

from pinocchio_bridge import (P, forces_to_pin, state_to_pin, to_pinocchio, velocity_map)

PIN_JOINTS = ("revolute", "prismatic", "helical", "universal", "planar", "spherical",
              "spherical_zyx", "spherical_exp", "free")
N_TREES = 200


def relerr(a, b):
    return np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b)))


def random_case(seed):
    rng = np.random.default_rng(seed)
    model = random_tree(int(rng.integers(1, 9)), rng, joint_types=PIN_JOINTS)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    f_ext = rng.normal(size=(model.nbodies, 6))
    return model, q, dq, ddq, f_ext


@pytest.mark.parametrize("seed", range(N_TREES))
def test_rnea_matches_pinocchio(seed):
    model, q, dq, ddq, f_ext = random_case(seed)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp, vp, ap = state_to_pin(model, q, dq, ddq)
    B = velocity_map(model, q)
    tau_pin = pin.rnea(pm, data, qp, vp, ap, forces_to_pin(f_ext))
    assert relerr(rnea(model, q, dq, ddq, f_ext), B.T @ tau_pin) <= 1e-10
    tau_pin0 = pin.rnea(pm, data, qp, vp, ap)
    assert relerr(rnea(model, q, dq, ddq), B.T @ tau_pin0) <= 1e-10


@pytest.mark.parametrize("seed", range(0, N_TREES, 4))
def test_kinematics_and_jacobians_match_pinocchio(seed):
    model, q, *_ = random_case(seed)
    pm = to_pinocchio(model)
    data = pm.createData()
    qp = state_to_pin(model, q)
    pin.forwardKinematics(pm, data, qp)
    pin.computeJointJacobians(pm, data, qp)
    Tw = forward_kinematics(model, q).T_world
    B = velocity_map(model, q)
    for i in range(1, model.nbodies + 1):
        assert relerr(Tw[i], data.oMi[i].homogeneous) <= 1e-10
        J_pin = pin.getJointJacobian(pm, data, i, pin.ReferenceFrame.LOCAL)
        assert relerr(body_jacobian(model, q, i), P @ J_pin @ B) <= 1e-10
