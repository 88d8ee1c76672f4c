"""Massless links: a generalized inertia with m = 0, rotational inertia only (or none).

The Puma 560's first link, as the Robotics Toolbox models it (Corke and Armstrong-Helouvry
1994), has no mass and a rotational inertia of 0.35 kg m^2 about its joint axis only: a
lumped rotor, not a mass distribution. liedyn accepts it, and the dynamics of a chain that
starts with it agree with Pinocchio's, on the reference path and the compiled one. Forward
dynamics refuse a model only where a pivot is singular (a massless leaf on a moving joint),
naming the body, or negative (a non-physical inertia); the verdict does not depend on the
units of mass and length, nor on where a body frame's origin sits (a thin wire and a
round-off leaf in rescaled models).
"""
import numpy as np
import pinocchio as pin
import pytest

import liedyn as ld
from liedyn.forward_dynamics import mass_matrix_factor
from liedyn.lie import Ad, exp_so3, make_transform

from common import joint_xml, link_xml, massless_leaf, relerr, robot_xml
from pinocchio_bridge import state_to_pin, to_pinocchio, velocity_map

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
    assert model.inertias[1][3, 3] == 0.0                   # the mass 0, read back
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
    model = massless_leaf(leaf)
    q = np.array([0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="body 'tip': S\\^T I_hat S is singular"):
        ld.aba(model, q, np.zeros(3), np.zeros(3))


def round_off_leaf(joint):
    """The double pendulum with a massless leaf ``tip`` on ``joint``: inertia 0.2
    kg m^2 about a rotated axis u only, joint axes perpendicular to u. Rotating
    diag(0.2, 0, 0) leaves round-off along the joint axes: S^T I_hat S is a few
    times 1e-18, not 0."""
    R = exp_so3([0.3, -0.4, 0.7])
    return massless_leaf(R @ np.diag([0.2, 0.0, 0.0]) @ R.T, joint(R[:, 0]))


def revolute_perpendicular_to(u):
    axis = np.cross(u, [0.3, 0.1, 0.9])
    return ld.Revolute(axis / np.linalg.norm(axis))


def spherical(u):
    return ld.Spherical()


@pytest.mark.parametrize("joint", [revolute_perpendicular_to, spherical])
def test_a_singular_pivot_made_of_round_off_is_refused_by_name(joint, both_paths):
    """Not a huge finite ddq (about 1e17 for a pivot compared with 0 only): every
    forward-dynamics function names the body."""
    model = round_off_leaf(joint)
    I, S = model.inertias[3], model.joints[3].S(model.joints[3].neutral())
    smallest = np.linalg.eigvalsh(S.T @ I @ S)[0]
    assert smallest != 0 and abs(smallest) < 1e-16          # round-off, not 0
    rng = np.random.default_rng(0)
    q = model.random_configuration(rng)
    dq, tau = rng.normal(size=(2, model.nv))
    message = "body 'tip': S\\^T I_hat S is singular"
    calls = [lambda: ld.aba(model, q, dq, tau),
             lambda: ld.aba(model, np.stack([q, q]), dq, tau),
             lambda: ld.inverse_mass_matrix(model, q),
             lambda: mass_matrix_factor(model, q),
             lambda: ld.aba_partials(model, q, dq, tau),
             lambda: ld.hybrid(model, q, dq, np.zeros(model.nv), tau,
                               [True, False, False])]
    for call in calls:
        with pytest.raises(ValueError, match=message):
            call()


def wire(radius, scale=1.0):
    """A steel wire of ``radius`` (m), 5 cm long, spinning about its own axis z at
    the tip of the double pendulum; every inertia times ``scale``."""
    model = ld.robots.double_pendulum()
    m = 7850 * np.pi * radius ** 2 * 0.05
    Ic = m * np.diag([0.05 ** 2 / 12 + radius ** 2 / 4] * 2 + [radius ** 2 / 2])
    model.add_body("wire", 2, ld.Revolute([0.0, 0.0, 1.0]),
                   inertia=ld.spatial_inertia(m, np.zeros(3), Ic))
    return in_other_mass_units(model, scale)


def in_other_mass_units(model, scale):
    """``model`` with every inertia times ``scale`` (kg -> kg / scale)."""
    for i in range(1, model.nbodies + 1):
        model.inertias[i] = scale * model.inertias[i]
    return model


def rescaled(model, length=1.0, mass=1.0):
    """The same model with every length times ``length`` and every mass times
    ``mass`` (new units): translations, gravity, the inertias' blocks (kg m^2, kg
    m, kg), a Screw's linear part; revolute and spherical joints have no length."""
    out = ld.Model(gravity=length * np.asarray(model.gravity), name=model.name)
    units = np.diag([length] * 3 + [1.0] * 3)          # (m_1, f_1) -> (m_1 L, f_1)
    for i in range(1, model.nbodies + 1):
        X = np.array(model.placements[i])
        X[:3, 3] *= length
        joint = model.joints[i]
        if isinstance(joint, ld.Screw):
            joint = ld.Screw(joint.screw * [1, 1, 1, length, length, length])
        out.add_body(model.names[i], model.parent[i], joint, placement=X,
                     inertia=mass * units @ model.inertias[i] @ units,
                     armature=mass * length ** 2 * model.armature[model.v_slice[i]])
    return out


def with_leaf_origin_moved(model, o):
    """The same model with the frame of its last body (a leaf on a revolute joint)
    at ``o`` in the old frame: placement ``X Trans(o)``, the joint a Screw about the
    old axis, through ``-o``, and the inertia ``Ad^T I Ad`` with ``Ad = Ad_{Trans(o)}``
    (Kim (2012), eq. (21))."""
    out = ld.Model(gravity=model.gravity, name=model.name)
    N = model.nbodies
    for i in range(1, N + 1):
        X, joint, I = model.placements[i], model.joints[i], model.inertias[i]
        if i == N:
            T = make_transform(np.eye(3), o)
            X, joint = X @ T, ld.Screw(np.concatenate([joint.axis,
                                                       -np.cross(o, joint.axis)]))
            I = Ad(T).T @ I @ Ad(T)
        out.add_body(model.names[i], model.parent[i], joint, placement=X, inertia=I)
    return out


CHANGES = {"in mm": dict(length=1e3), "in km": dict(length=1e-3),
           "in mg": dict(mass=1e6), "in kt": dict(mass=1e-6),
           "in mm and g": dict(length=1e3, mass=1e3), "origin moved": None}
ORIGIN = np.array([0.02, -0.01, 0.025])               # m: within the wire's reach


def changed(model, change):
    if CHANGES[change] is None:
        return with_leaf_origin_moved(model, ORIGIN)
    return rescaled(model, **CHANGES[change])


def torque_scale(change):
    """Torques' factor (kg m^2 / s^2) of a change: revolute ``ddq`` does not move."""
    c = CHANGES[change] or {}
    return c.get("mass", 1.0) * c.get("length", 1.0) ** 2


def leaf_pivot_and_bound(model):
    """The last joint's pivot ``S^T I S`` (a leaf, one DOF) and its bound ``2
    (tr(I_ww) |s_w|^2 + tr(I_vv) |s_v|^2)``."""
    I, S = model.inertias[-1], model.joints[-1].S(np.zeros(1))[:, 0]
    bound = 2 * (np.trace(I[:3, :3]) * S[:3] @ S[:3] + np.trace(I[3:, 3:]) * S[3:] @ S[3:])
    return S @ I @ S, bound


def wire_rtol(model):
    """How closely two computations of the wire's ``ddq`` can agree: the round-off
    of its pivot, eps times the bound, over the pivot (times 50). The bound grows
    with the distance of the body frame's origin from the mass, and so does the
    round-off of ``D`` computed in that frame (with ``ORIGIN``: 2e-4)."""
    pivot, bound = leaf_pivot_and_bound(model)
    return 50 * np.finfo(float).eps * bound / pivot


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_a_thin_wire_spinning_about_its_axis_is_not_singular(scale, both_paths):
    """Its pivot m r^2 / 2 is about 3 (r / l)^2 / 2 of its bound m l^2 / 3 (l = 5
    cm): 6e-8 for r = 10 micrometres, far above PIVOT_TOL."""
    model = wire(1e-5, scale)
    pivot, bound = leaf_pivot_and_bound(model)
    assert 5e-8 < pivot / bound < 7e-8
    q, dq, tau = np.array([0.3, 0.2, 0.1]), np.array([0.1, -0.2, 3.0]), np.ones(3)
    ddq = ld.aba(model, q, dq, tau)
    assert relerr(ld.rnea(model, q, dq, ddq), tau) < 1e-9


def wire_state(model):
    """A state of the wire model (SI units) whose torques move each joint by O(1)
    rad/s^2: the wire's own torque is twice its pivot m r^2 / 2."""
    pivot, _ = leaf_pivot_and_bound(model)
    return (np.array([0.3, 0.2, 0.1]), np.array([0.1, -0.2, 3.0]),
            np.array([1.0, 0.5, 2 * pivot]))


def test_a_1_micrometre_wire_moves_in_metres_and_in_millimetres(both_paths):
    """The 5 cm steel wire of radius 1 micrometre spinning about its own axis: its
    pivot is 6e-10 of its bound in any unit (the old bound tr(I_hat) |S|_F^2 refused
    it in metres, 1.7e-13 of it, and accepted it in millimetres); the same ddq in
    both units, solving M ddq + b = tau joint by joint (RNEA, no pivot test)."""
    metres = wire(1e-6)
    millimetres = rescaled(metres, length=1e3)
    pivot, bound = leaf_pivot_and_bound(metres)
    assert 5e-10 < pivot / bound < 7e-10
    assert np.isclose(pivot / bound, np.divide(*leaf_pivot_and_bound(millimetres)))
    q, dq, tau = wire_state(metres)
    ddq = ld.aba(metres, q, dq, tau)
    assert np.allclose(ld.rnea(metres, q, dq, ddq), tau, rtol=wire_rtol(metres), atol=0)
    ddq_mm = ld.aba(millimetres, q, dq, 1e6 * tau)          # N m = 1e6 kg mm^2 / s^2
    assert np.allclose(ddq_mm, ddq, rtol=wire_rtol(metres), atol=0)


@pytest.mark.parametrize("change", CHANGES)
def test_rescaled_wire_has_the_same_ddq(change, both_paths):
    """The same verdict (not singular) and the same ddq in the new units."""
    model = wire(1e-6)
    q, dq, tau = wire_state(model)
    other = changed(model, change)
    assert relerr(ld.mass_matrix(other, q), torque_scale(change)
                  * ld.mass_matrix(model, q)) < 1e-12          # the same physics
    ddq = ld.aba(other, q, dq, torque_scale(change) * tau)
    rtol = max(wire_rtol(model), wire_rtol(other))
    assert np.allclose(ddq, ld.aba(model, q, dq, tau), rtol=rtol, atol=0), change


@pytest.mark.parametrize("change", CHANGES)
def test_rescaled_round_off_leaf_is_still_refused(change, both_paths):
    model = changed(round_off_leaf(revolute_perpendicular_to), change)
    q = np.array([0.3, 0.2, 0.1])
    with pytest.raises(ValueError, match="body 'tip': S\\^T I_hat S is singular"):
        ld.aba(model, q, np.zeros(3), torque_scale(change) * np.ones(3))
    with pytest.raises(ValueError, match="body 'tip': S\\^T I_hat S is singular"):
        ld.inverse_mass_matrix(model, q)


@pytest.mark.parametrize("scale", [1e-6, 1.0, 1e6])
def test_the_pivot_test_does_not_depend_on_the_unit_of_mass(scale, both_paths):
    model = in_other_mass_units(round_off_leaf(revolute_perpendicular_to), scale)
    with pytest.raises(ValueError, match="body 'tip'"):
        ld.aba(model, np.zeros(3), np.zeros(3), np.ones(3))


def non_physical_leaf():
    """A URDF with a leaf whose inertia about its joint axis is negative (izz =
    -0.1), kept by ``inertia_check="ignore"``."""
    xml = robot_xml(link_xml("base"), link_xml("arm"),
                    joint_xml("j1", "revolute", "base", "arm"),
                    link_xml("tip", mass=1.0, com="0 0 0", rpy="0 0 0",
                             inertia=(0.1, 0.0, 0.0, 0.1, 0.0, -0.1)),
                    joint_xml("j2", "revolute", "arm", "tip", rpy="0 0 0"))
    return ld.load_urdf(xml, inertia_check="ignore")


def test_a_negative_pivot_gets_the_same_error_on_both_paths(both_paths):
    """Not accepted as |d| above the tolerance: every forward-dynamics function
    names the body and the non-physical inertia."""
    model = non_physical_leaf()
    I, S = model.inertias[2], model.joints[2].S(np.zeros(1))
    assert (S.T @ I @ S)[0, 0] < 0
    q, dq, tau = np.array([0.3, 0.2]), np.array([0.1, -0.4]), np.array([0.5, 1.0])
    message = ("body 'tip': S\\^T I_hat S has a negative pivot .*below -PIVOT_TOL.*"
               "non-physical")
    calls = [lambda: ld.aba(model, q, dq, tau),
             lambda: ld.aba(model, np.stack([q, q]), dq, tau),
             lambda: ld.inverse_mass_matrix(model, q),
             lambda: mass_matrix_factor(model, q),
             lambda: ld.aba_partials(model, q, dq, tau),
             lambda: ld.hybrid(model, q, dq, np.zeros(2), tau, [True, False]),
             lambda: ld.simulate(model, q, dq, dt=0.01, steps=2)]
    for call in calls:
        with pytest.raises(ValueError, match=message):
            call()


def test_an_armature_makes_the_pivot_regular(both_paths):
    """A rotor on the massless leaf's joint: D = S^T I_hat S + armature is not
    singular, and the leaf turns as the rotor alone would, ddq = tau / armature."""
    model = round_off_leaf(revolute_perpendicular_to)
    model.armature = [0.0, 0.0, 0.01]
    q, tau = np.array([0.3, 0.2, 0.1]), np.array([0.0, 0.0, 0.5])
    ddq = ld.aba(model, q, np.zeros(3), tau)
    assert relerr(ld.rnea(model, q, np.zeros(3), ddq), tau) < 1e-12


def test_a_massless_leaf_with_inertia_about_its_axis_moves():
    """The same leaf turning about the axis of its inertia is not singular: the
    rotor has inertia along the joint's motion."""
    model = massless_leaf(np.diag([0.0, 0.0, 0.2]), name="rotor")
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
