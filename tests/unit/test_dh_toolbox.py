"""liedyn.dh against Corke's Robotics Toolbox (roboticstoolbox-python), on every DH robot it ships.

Each robot of ``rtb.models.DH`` is read link by link into a table for
:func:`liedyn.dh.from_dh`: a revolute link gives ``theta = offset`` and its ``d``, a prismatic
link its ``theta`` and ``d = offset`` (the Toolbox adds the joint value to ``theta`` or to ``d``
and ignores the other); ``mass``, ``com`` (``r``) and ``inertia`` (``I``, about the centre of
mass) in the link frame of the robot's convention; a joint with ``flip`` turns the other way,
so its ``q``, ``dq``, ``ddq`` and ``tau`` change sign. The Toolbox's ``gravity`` is in the world
frame, liedyn's ground, and its base transform is ``from_dh``'s ``base``.

The comparison is of rigid-body dynamics: the Toolbox's friction is off
(``nofriction(coulomb=True, viscous=True)``) and its motor inertia either zeroed (``Jm = 0``)
or kept, as liedyn's armature ``Jm G^2``. Relative error 1e-9 at random states: ``rnea``
against ``rne`` (compiled) and ``rne_python``, ``mass_matrix`` against ``inertia``,
``gravity_torque`` against ``gravload``, the Toolbox's compiled code where it can be trusted
(not on the P8, below); forward kinematics against ``fkine_all``; the same
models against Pinocchio through ``tests/pinocchio_bridge.py``. Most shipped robots have
kinematics only (the Toolbox refuses their dynamics); their kinematics are compared.
"""
import copy

import numpy as np
import pinocchio as pin
import pytest
import roboticstoolbox as rtb

import liedyn as ld
from liedyn.dh import from_dh, puma560, stanford_arm
from liedyn.kinematics import forward_kinematics

from common import relative_error, relerr
from pinocchio_bridge import to_pinocchio

NAMES = sorted(rtb.models.DH.__all__)
DYNAMICS = ("IRB140", "P8", "Panda", "Puma560", "Stanford", "TwoLink", "UR10", "UR3", "UR5")
"""The shipped robots with dynamic parameters (the others: kinematics only)."""


def toolbox(name, rotors=False):
    """The Toolbox's robot without friction; without its motors' inertia unless ``rotors``."""
    robot = getattr(rtb.models.DH, name)().nofriction(coulomb=True, viscous=True)
    if not rotors:
        for link in robot.links:
            link.Jm = 0.0
    return robot


def table(robot, rotors=False):
    """The robot's DH table as :func:`from_dh` rows (armature ``Jm G^2`` if ``rotors``)."""
    rows = []
    for L in robot.links:
        revolute = bool(L.isrevolute)
        rows.append(dict(
            theta=float(L.offset if revolute else L.theta),
            d=float(L.d if revolute else L.offset), a=float(L.a), alpha=float(L.alpha),
            joint="revolute" if revolute else "prismatic", mass=float(L.m),
            com=np.array(L.r, dtype=float), inertia=np.array(L.I, dtype=float),
            armature=float(L.Jm * L.G ** 2) if rotors else 0.0))
    return rows


def liedyn_model(robot, rotors=False):
    """``from_dh`` of the robot's table on its base, gravity in the world; and the joints'
    signs."""
    model = from_dh(table(robot, rotors), modified=bool(robot.mdh), gravity=robot.gravity,
                    inertia_check="ignore", base=robot.base.A)
    sign = np.array([-1.0 if L.isflip else 1.0 for L in robot.links])
    return model, sign


def states(robot, n=4, seed=0):
    rng = np.random.default_rng([seed, robot.n])
    return [rng.normal(size=(3, robot.n)) for _ in range(n)]


def compiled_rne_trusted(robot):
    """The Toolbox's compiled ``rne`` rotates gravity wrongly into a rotated base when the
    robot has a prismatic joint (see ``test_the_toolbox_compiled_rne_on_the_p8``)."""
    rotated = not np.allclose(robot.base.R, np.eye(3))
    return not (rotated and any(L.isprismatic for L in robot.links))


def test_the_robots_with_dynamics_are_the_expected_ones():
    """The parametrisations below cover every shipped robot; none drops out unseen."""
    have = []
    for name in NAMES:
        robot = getattr(rtb.models.DH, name)()
        if any(L.m for L in robot.links) or any(L.Jm for L in robot.links):
            have.append(name)
    assert tuple(have) == DYNAMICS
    assert {"Puma560", "Stanford"} <= set(NAMES) and len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_link_frames_agree_with_fkine(name):
    """``T_0i`` of every link: liedyn's body frame times its DH link frame (the base is the
    ground's placement of frame 0)."""
    robot = toolbox(name)
    model, sign = liedyn_model(robot)
    for q, _, _ in states(robot):
        Tw = forward_kinematics(model, sign * q).T_world
        frames = robot.fkine_all(q).A                   # the base, then links 1..n
        for i in range(1, robot.n + 1):
            assert relerr(Tw[i] @ model.link_frames[i], frames[i]) < 1e-12
        assert relerr(model.link_frames[0], frames[0]) < 1e-12
        flange = Tw[-1] @ model.link_frames[-1] @ robot.tool.A
        assert relerr(flange, robot.fkine(q).A) < 1e-12


@pytest.mark.parametrize("rotors", [False, True], ids=["rigid", "rotors"])
@pytest.mark.parametrize("name", DYNAMICS)
def test_dynamics_agree_with_rne_and_inertia(name, rotors):
    robot = toolbox(name, rotors)
    model, sign = liedyn_model(robot, rotors)
    S = np.outer(sign, sign)
    for q, dq, ddq in states(robot, seed=1):
        tau = sign * ld.rnea(model, sign * q, sign * dq, sign * ddq)
        assert relative_error(tau, robot.rne_python(q, dq, ddq)) < 1e-9
        if compiled_rne_trusted(robot):
            assert relative_error(tau, robot.rne(q, dq, ddq)) < 1e-9
        assert relative_error(S * ld.mass_matrix(model, sign * q), robot.inertia(q)) < 1e-9
        g, zero = sign * ld.gravity_torque(model, sign * q), np.zeros(robot.n)
        assert relative_error(g, robot.rne_python(q, zero, zero)) < 1e-9
        if compiled_rne_trusted(robot):                 # gravload runs the compiled rne
            assert relative_error(g, robot.gravload(q)) < 1e-9


def test_the_motors_inertia_is_compared_too():
    """The two parametrisations above differ by ``Jm G^2 ddq``, not negligible on the Puma."""
    robot = toolbox("Puma560", rotors=True)
    q, dq, ddq = states(robot)[0]
    rotor = np.array([L.Jm * L.G ** 2 for L in robot.links]) * ddq
    rigid = toolbox("Puma560").rne(q, dq, ddq)
    assert relative_error(robot.rne(q, dq, ddq) - rigid, rotor) < 1e-9
    assert relative_error(rigid + rotor, rigid) > 0.01


def pinocchio_twin(model):
    """Pinocchio's model through the bridge, each inertia set from its ten parameters
    (``pin.Inertia.FromDynamicParameters``: the bridge's ``pin.Inertia(m, c, Ic)`` refuses
    the round-off of ``Ic`` of a point mass, as the UR3's links are; a massless link, which
    the ten parameters cannot give, as ``pin.Inertia(0, 0, Ibar)``), and the armature."""
    twin = copy.deepcopy(model)
    for i in range(1, model.nbodies + 1):
        twin.inertias[i] = np.zeros((6, 6))
    pm = to_pinocchio(twin)
    for i in range(1, model.nbodies + 1):
        I = model.inertias[i]
        pi = [I[3, 3], I[2, 4], I[0, 5], I[1, 3], I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2],
              I[2, 2]]                                  # m, m c, Ibar about the body origin
        pm.inertias[i] = (pin.Inertia.FromDynamicParameters(np.array(pi)) if I[3, 3]
                          else pin.Inertia(0.0, np.zeros(3), I[:3, :3]))    # massless
    pm.armature[:] = model.armature
    return pm


@pytest.mark.parametrize("name", DYNAMICS)
def test_the_toolbox_robots_agree_with_pinocchio(name):
    """The same models through the Pinocchio bridge: poses, rnea, crba, and aba where the
    mass matrix is regular (a massless leaf makes it singular)."""
    robot = toolbox(name, rotors=True)
    model, _ = liedyn_model(robot, rotors=True)
    pm = pinocchio_twin(model)
    data = pm.createData()
    for q, dq, ddq in states(robot, seed=2):
        pin.forwardKinematics(pm, data, q)
        Tw = forward_kinematics(model, q).T_world
        for i in range(1, model.nbodies + 1):
            assert relerr(Tw[i], data.oMi[i].homogeneous) < 1e-12
        assert relative_error(ld.rnea(model, q, dq, ddq), pin.rnea(pm, data, q, dq, ddq)) < 1e-9
        M = pin.crba(pm, data, q)
        M = np.triu(M) + np.triu(M, 1).T
        assert relative_error(ld.mass_matrix(model, q), M) < 1e-9
        if np.linalg.cond(M) < 1e8:
            tau = M @ ddq
            assert relative_error(ld.aba(model, q, dq, tau), pin.aba(pm, data, q, dq, tau)) < 1e-9


@pytest.mark.parametrize("armature", [False, True])
def test_the_ready_puma_560_is_the_toolbox_puma(armature):
    """``liedyn.dh.puma560`` against ``rtb.models.DH.Puma560``: the same dynamics; the same
    poses up to a constant lift along z (the pedestal, which the Toolbox's Python models
    include and its MATLAB ones do not)."""
    robot = toolbox("Puma560", rotors=armature)
    puma = puma560(armature=armature)
    lifts = []
    for q, dq, ddq in states(robot, seed=3):
        assert relative_error(ld.rnea(puma, q, dq, ddq), robot.rne(q, dq, ddq)) < 1e-9
        assert relative_error(ld.mass_matrix(puma, q), robot.inertia(q)) < 1e-9
        T = forward_kinematics(puma, q).T_world[-1] @ puma.link_frames[-1]
        lift = robot.fkine(q).A @ np.linalg.inv(T)
        assert relerr(lift[:3, :3], np.eye(3)) < 1e-12 and abs(lift[0, 3]) + abs(lift[1, 3]) < 1e-12
        lifts.append(lift[2, 3])
    assert np.ptp(lifts) < 1e-12
    assert min(abs(lifts[0]), abs(lifts[0] - 26.45 * 0.0254)) < 1e-12


@pytest.mark.parametrize("armature", [False, True])
def test_the_ready_stanford_arm_is_the_toolbox_stanford(armature):
    """``liedyn.dh.stanford_arm`` against ``rtb.models.DH.Stanford``: dynamics and poses."""
    robot = toolbox("Stanford", rotors=armature)
    arm = stanford_arm(armature=armature)
    assert [type(j).__name__ for j in arm.joints[1:]] == ["Revolute"] * 2 + ["Prismatic"] + [
        "Revolute"] * 3
    for q, dq, ddq in states(robot, seed=4):
        assert relative_error(ld.rnea(arm, q, dq, ddq), robot.rne(q, dq, ddq)) < 1e-9
        assert relative_error(ld.mass_matrix(arm, q), robot.inertia(q)) < 1e-9
        T = forward_kinematics(arm, q).T_world[-1] @ arm.link_frames[-1]
        assert relerr(T, robot.fkine(q).A) < 1e-12


def test_the_toolbox_compiled_rne_on_the_p8():
    """The P8 (a Puma on an x-y gantry, base turned so that the gantry is horizontal): the
    Toolbox's compiled ``rne`` gives the horizontal prismatic joints a gravity load at rest,
    its own ``rne_python`` and liedyn none. If this fails the Toolbox has been fixed: compare
    its compiled ``rne`` on every robot (drop ``compiled_rne_trusted``)."""
    robot = toolbox("P8")
    model, sign = liedyn_model(robot)
    q = states(robot)[0][0]
    zero = np.zeros(robot.n)
    ours = sign * ld.gravity_torque(model, sign * q)
    assert relative_error(ours, robot.rne_python(q, zero, zero)) < 1e-9
    assert np.allclose(ours[:2], 0.0, atol=1e-12)
    assert not compiled_rne_trusted(robot)
    assert np.max(np.abs(robot.rne(q, zero, zero)[:2])) > 1.0
