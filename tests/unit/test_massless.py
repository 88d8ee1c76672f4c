"""Massless links: a generalized inertia with m = 0, rotational inertia only (or none).

The Puma 560's first link, as the Robotics Toolbox models it (Corke and Armstrong-Helouvry
1994), has no mass and a rotational inertia of 0.35 kg m^2 about its joint axis only: a
lumped rotor, not a mass distribution. liedyn accepts it, and the dynamics of a chain that
starts with it agree with Pinocchio's, on the reference path and the compiled one. Forward
dynamics refuse a model only where a pivot is singular (a massless leaf on a moving joint),
naming the body.
"""
import numpy as np
import pinocchio as pin
import pytest

import liedyn as ld
from liedyn.lie import exp_so3, make_transform

from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map
from common import relerr

ROTOR = np.diag([0.0, 0.35, 0.0])       # kg m^2: the Puma's link 1, about its y axis


def puma_like(rng, first=ROTOR):
    """Six revolute joints; link 1 massless with rotational inertia ``first``, the
    others random physical bodies."""
    model = ld.Model(gravity=(0.0, 0.0, -9.81), name="puma-like")
    for i in range(6):
        X = make_transform(exp_so3(rng.normal(size=3)), rng.normal(size=3) * 0.3)
        if i == 0:
            I = ld.spatial_inertia(0.0, np.zeros(3), first)
        else:
            m = rng.uniform(0.5, 15.0)
            I = ld.spatial_inertia(m, rng.normal(size=3) * 0.1, np.diag(
                m * rng.uniform(0.01, 0.05) * np.array([1.0, 1.2, 1.5])))
        model.add_body(f"link{i + 1}", i, ld.Revolute([0.0, 1.0, 0.0] if i == 0
                                                      else rng.normal(size=3)),
                       placement=X, inertia=I)
    return model


@pytest.mark.parametrize("seed", range(6))
def test_a_massless_first_link_agrees_with_pinocchio(seed, both_paths):
    rng = np.random.default_rng(seed)
    model = puma_like(rng)
    assert model.inertias[1][3, 3] == 0.0
    pm = to_pinocchio(model)
    data = pm.createData()
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    B = velocity_map(model, q)
    qp, vp, ap = state_to_pin(model, q, dq, ddq)
    assert relerr(ld.rnea(model, q, dq, ddq), B.T @ pin.rnea(pm, data, qp, vp, ap)) < 1e-12
    Mp = pin.crba(pm, data, qp)
    Mp = np.triu(Mp) + np.triu(Mp, 1).T
    assert relerr(ld.mass_matrix(model, q), B.T @ Mp @ B) < 1e-12
    a_pin = pin.aba(pm, data, qp, vp, np.linalg.solve(B.T, tau))
    assert relerr(ld.aba(model, q, dq, tau), np.linalg.solve(B, a_pin)) < 1e-10


def test_a_massless_body_with_children_is_fine(both_paths):
    """A massless body in the middle of the chain: its children give the joint inertia."""
    rng = np.random.default_rng(3)
    model = puma_like(rng, first=np.zeros((3, 3)))
    model.inertias[3] = np.zeros((6, 6))
    q = model.random_configuration(rng)
    dq, tau = rng.normal(size=(2, model.nv))
    M, b = ld.mass_matrix(model, q), ld.bias_force(model, q, dq)
    assert relerr(ld.aba(model, q, dq, tau), np.linalg.solve(M, tau - b)) < 1e-9


@pytest.mark.parametrize("leaf", [np.zeros((3, 3)), np.diag([0.2, 0.0, 0.0])])
def test_a_massless_leaf_on_a_moving_joint_is_refused_by_name(leaf, both_paths):
    """No inertia along the joint's motion: S^T I_hat S = 0, the pivot is singular."""
    model = ld.robots.double_pendulum()
    model.add_body("tip", 2, ld.Revolute([0.0, 0.0, 1.0]),
                   inertia=ld.spatial_inertia(0.0, np.zeros(3), leaf))
    q = np.array([0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="body 'tip': S\\^T I_hat S is singular"):
        ld.aba(model, q, np.zeros(3), np.zeros(3))


def test_a_massless_leaf_with_inertia_about_its_axis_moves():
    """The same leaf turning about the axis of its inertia is not singular: the
    rotor has inertia along the joint's motion."""
    model = ld.robots.double_pendulum()
    model.add_body("rotor", 2, ld.Revolute([0.0, 0.0, 1.0]),
                   inertia=ld.spatial_inertia(0.0, np.zeros(3), np.diag([0.0, 0.0, 0.2])))
    q, dq, tau = np.array([0.3, 0.2, 0.1]), np.zeros(3), np.array([0.0, 0.0, 0.2])
    ddq = ld.aba(model, q, dq, tau)
    assert relerr(ld.rnea(model, q, dq, ddq), tau) < 1e-12


def test_the_urdf_loader_accepts_a_massless_link_silently(recwarn):
    from common import joint_xml, link_xml, robot_xml
    xml = robot_xml(link_xml("base"), link_xml("rotor", mass=0.0, com="0 0 0", rpy="0 0 0",
                                               inertia=(0, 0, 0, 0.35, 0, 0)),
                    joint_xml("j1", "revolute", "base", "rotor", axis="0 1 0"),
                    link_xml("arm"), joint_xml("j2", "revolute", "rotor", "arm"))
    model = ld.load_urdf(xml, inertia_check="raise")
    assert model.inertias[1][1, 1] == pytest.approx(0.35) and model.inertias[1][3, 3] == 0
    assert not [w for w in recwarn if "inertia" in str(w.message)]
