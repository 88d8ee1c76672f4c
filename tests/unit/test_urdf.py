"""liedyn.urdf against Pinocchio's own URDF parser, on every robot of example-robot-data.

For each robot of :data:`liedyn.urdf.ROBOTS`, with a fixed and with a floating base, the model
loaded by :func:`liedyn.urdf.load_robot` and the one from ``pin.buildModelFromUrdf`` give the
same inverse dynamics, mass matrix and forward dynamics at random states (relative error below
1e-9). Joints are matched by name. Conventions mapped here:

* Pinocchio's free-flyer q is (p, qx, qy, qz, qw), v is (v, w); liedyn's (p, qw, qx, qy, qz)
  and (w, v);
* Pinocchio's continuous joints store (cos, sin) (nq = 2, nv = 1), liedyn the angle;
* Pinocchio's planar joint uses the body velocity, liedyn the coordinate rates
  (``pinocchio_bridge._B``).

Two robots have a singular mass matrix: ``romeo`` (``RThumb3Link`` has mass 0) and
``romeo_laas_small`` (``r_gripper`` has no ``<inertial>``): both are massless links at the
end of a moving joint. There inverse dynamics and the mass matrix agree, and liedyn's ABA
refuses with an error naming the body (Pinocchio returns numbers without complaint).

The second half checks malformed files: each error names the offending element.
"""
import warnings

import numpy as np
import pinocchio as pin
import pytest

from liedyn import joints as J
from liedyn import urdf
from liedyn.crba import mass_matrix
from liedyn.forward_dynamics import aba
from liedyn.inverse_dynamics import rnea

from common import joint_xml, link_xml, relative_error, robot_xml
from pinocchio_urdf import PinMap

SINGULAR = {"romeo": "RThumb3Link", "romeo_laas_small": "r_gripper"}
TOL = 1e-9


def load_pair(name, floating):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # inconsistent inertias of some real files
        model = urdf.load_robot(name, floating_base=floating)
    path = urdf.robot_path(name)
    pm = (pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating
          else pin.buildModelFromUrdf(path))
    return model, pm


@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "floating"])
@pytest.mark.parametrize("name", sorted(urdf.ROBOTS))
def test_robot_matches_pinocchio(name, floating):
    model, pm = load_pair(name, floating)
    assert not any(isinstance(j, J.Fixed) for j in model.joints[1:])
    data = pm.createData()
    maps = PinMap(model, pm)
    rng = np.random.default_rng(sum(map(ord, name)))
    for _ in range(2):
        q = model.random_configuration(rng)
        dq, ddq, tau = rng.normal(size=(3, model.nv))
        qp, B, dB = maps.q(q), maps.B(q), maps.B(q, dq)
        vp, ap = B @ dq, B @ ddq + dB @ dq
        tau_pin = pin.rnea(pm, data, qp, vp, ap)
        assert relative_error(rnea(model, q, dq, ddq), B.T @ tau_pin) < TOL
        Mp = pin.crba(pm, data, qp)
        Mp = np.triu(Mp) + np.triu(Mp, 1).T
        assert relative_error(mass_matrix(model, q), B.T @ Mp @ B) < TOL
        if name in SINGULAR:
            with pytest.raises(ValueError, match=SINGULAR[name]):
                aba(model, q, dq, tau)
            continue
        a_pin = pin.aba(pm, data, qp, vp, np.linalg.solve(B.T, tau))
        assert relative_error(aba(model, q, dq, tau), np.linalg.solve(B, a_pin - dB @ dq)) < TOL


def test_panda_frames_limits_and_mimic():
    model, pm = load_pair("panda", False)
    data = pm.createData()
    maps = PinMap(model, pm)
    q = model.random_configuration(np.random.default_rng(1))
    pin.framesForwardKinematics(pm, data, maps.q(q))
    for link in ("panda_hand", "panda_link8", "panda_leftfinger", "panda_link3"):
        T = urdf.link_placement(model, q, link)
        assert relative_error(T, data.oMf[pm.getFrameId(link)].homogeneous) < 1e-12
    assert np.allclose(maps.q(model.q_lower), pm.lowerPositionLimit)
    assert np.allclose(maps.q(model.q_upper), pm.upperPositionLimit)
    assert np.allclose(maps.B(q) @ model.effort_limit, pm.effortLimit)
    assert model.mimic == {"panda_finger_joint2": ("panda_finger_joint1", 1.0, 0.0)}
    qm = model.enforce_mimic(q)                         # multiplier 1, offset 0: exact
    assert qm[model.joint("panda_finger_joint2")
              - 1] == qm[model.joint("panda_finger_joint1") - 1]


def test_string_and_file_give_the_same_model():
    path = urdf.robot_path("ur5")
    with open(path) as f:
        text = f.read()
    a, b = urdf.load_urdf(path), urdf.load_urdf(text)
    assert a.source == path and b.source is None
    assert a.joint_names == b.joint_names and a.parent == b.parent
    for i in range(1, a.nbodies + 1):                   # the same text, the same reader
        assert np.array_equal(a.placements[i], b.placements[i])
        assert np.array_equal(a.inertias[i], b.inertias[i])


def test_unknown_robot_and_missing_package(monkeypatch):
    with pytest.raises(ValueError, match="unknown robot 'r2d2'; available robots: .*panda"):
        urdf.load_robot("r2d2")
    monkeypatch.setattr("sys.path", ["/nonexistent"])
    monkeypatch.setattr("sys.prefix", "/nonexistent")
    with pytest.raises(ModuleNotFoundError, match="pip install example-robot-data"):
        urdf._robots_dir.__wrapped__()


# --- small hand-written files ------------------------------------------------------------------
def compare_with_pinocchio(xml, floating=False, seed=0):
    model = urdf.load_urdf(xml, floating_base=floating)
    pm = (pin.buildModelFromXML(xml, pin.JointModelFreeFlyer()) if floating
          else pin.buildModelFromXML(xml))
    data, maps = pm.createData(), PinMap(model, pm)
    rng = np.random.default_rng(seed)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    B, dB = maps.B(q), maps.B(q, dq)
    tau_pin = pin.rnea(pm, data, maps.q(q), B @ dq, B @ ddq + dB @ dq)
    assert relative_error(rnea(model, q, dq, ddq), B.T @ tau_pin) < TOL
    a_pin = pin.aba(pm, data, maps.q(q), B @ dq, np.linalg.solve(B.T, tau))
    assert relative_error(aba(model, q, dq, tau), np.linalg.solve(B, a_pin - dB @ dq)) < TOL
    return model


TREE = robot_xml(
    link_xml("base"),
    link_xml("a"),
    link_xml("b", mass=0.5),
    link_xml("c", mass=2.0),
    link_xml("d"),
    link_xml("e", mass=0.7),
    joint_xml("ja", "revolute", "base", "a", axis="0.3 0.4 0.5"),
    joint_xml("jb", "fixed", "a", "b"),
    joint_xml("jc", "prismatic", "b", "c", axis="1 0 0"),
    joint_xml("jd", "continuous", "a", "d", axis="0 1 0"),
    joint_xml("je", "fixed", "d", "e", xyz="0 0 0.4"),
)


@pytest.mark.parametrize("floating", [False, True])
def test_fixed_joints_merge_into_the_parent_body(floating):
    model = compare_with_pinocchio(TREE, floating)
    assert model.joint_names[1 + floating:] == ["ja", "jc", "jd"]
    assert model.names[1 + floating:] == ["a", "c", "d"]
    assert model.link_frames["b"][0] == model.body("a")
    assert model.link_frames["e"][0] == model.body("d")
    assert model.parent[model.body("c")] == model.body("a")
    assert np.isclose(model.inertias[model.body("a")][3, 3], 1.5)   # a + b
    assert np.isclose(model.inertias[model.body("d")][3, 3], 1.7)   # d + e


def test_floating_joint_and_planar_joint_about_z_match_pinocchio():
    xml = robot_xml(link_xml("base"), link_xml("a"), link_xml("b"), link_xml("c"),
                joint_xml("ja", "floating", "base", "a"), joint_xml("jb", "planar", "a", "b"),
                joint_xml("jc", "revolute", "b", "c", axis="0 1 0"))
    model = compare_with_pinocchio(xml)
    assert [type(j) for j in model.joints[1:]] == [J.Free, J.Planar, J.Revolute]


def test_planar_joint_moves_in_the_plane_normal_to_its_axis():
    # Pinocchio's parser ignores a planar joint's axis (it always uses the z plane); the URDF
    # specification says the plane is normal to the axis, which liedyn follows.
    xml = robot_xml(
        link_xml("base"),
        link_xml("b"),
        joint_xml("jb", "planar", "base", "b", xyz="0 0 0", rpy="0 0 0", axis="1 0 0"),
    )
    model = urdf.load_urdf(xml)
    T = urdf.link_placement(model, [0.3, -0.2, 0.7], "b")
    assert np.isclose(T[0, 3], 0.0) and np.isclose(np.hypot(T[1, 3], T[2, 3]), np.hypot(0.3, 0.2))
    assert np.allclose(T[:3, :3] @ [1.0, 0, 0], [1.0, 0, 0])          # rotation about x
    assert np.isclose(T[1, 1], np.cos(0.7))
    T0 = urdf.link_placement(model, [0.0, 0.0, 0.0], "b")
    assert np.allclose(T0, np.eye(4))                                  # link frame at q = 0


def test_missing_inertial_is_massless():
    xml = robot_xml(link_xml("base"), '<link name="tip"/>', link_xml("a"),
                joint_xml("ja", "revolute", "base", "a"), joint_xml("jt", "revolute", "a", "tip"))
    model = urdf.load_urdf(xml)
    assert not np.any(model.inertias[2])
    assert np.allclose(rnea(model, [0.1, 0.2], [0.0, 1.0], [0.0, 0.0])[1], 0.0)
    with pytest.raises(ValueError, match="'tip'"):
        aba(model, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0])


def test_root_selects_one_tree():
    xml = robot_xml(link_xml("r1"), link_xml("r2"), link_xml("a"), link_xml("b"),
                joint_xml("ja", "revolute", "r1", "a"), joint_xml("jb", "revolute", "r2", "b"))
    with pytest.raises(ValueError, match=r"2 root links .*\['r1', 'r2'\]"):
        urdf.load_urdf(xml)
    assert urdf.load_urdf(xml, root="r2").joint_names == ["universe", "jb"]
    with pytest.raises(ValueError, match="link 'b' is the child of joint 'jb'"):
        urdf.load_urdf(xml, root="b")
    with pytest.raises(ValueError, match="no link 'zz'"):
        urdf.load_urdf(xml, root="zz")


def test_mimic_to_an_unknown_joint_warns_and_is_ignored():
    xml = robot_xml(
        link_xml("base"),
        link_xml("a"),
        link_xml("b"),
        joint_xml("ja", "revolute", "base", "a"),
        joint_xml("jb", "revolute", "a", "b", extra='<mimic joint="nope" multiplier="2"/>'),
    )
    with pytest.warns(UserWarning, match="joint 'jb': <mimic joint='nope'>"):
        model = urdf.load_urdf(xml)
    assert model.mimic == {} and model.nv == 2


@pytest.mark.parametrize("policy", ["warn", "raise", "ignore"])
def test_inconsistent_inertia_policy(policy):
    xml = robot_xml(
        link_xml("base"),
        link_xml("a", inertia=(1.0, 0, 0, 0.1, 0, 0.1)),  # 0.1 + 0.1 < 1
        joint_xml("ja", "revolute", "base", "a"),
    )
    if policy == "raise":
        with pytest.raises(ValueError, match="link 'a': <inertial> is not physically consistent"
                                             ".*triangle"):
            urdf.load_urdf(xml, inertia_check=policy)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = urdf.load_urdf(xml, inertia_check=policy)
    messages = [str(w.message) for w in caught]
    assert (len(messages) == 1 and "link 'a'" in messages[0]) if policy == "warn" else not messages
    assert np.isclose(model.inertias[1][3, 3], 1.0)


MALFORMED = {
    "not xml": ("<robot name='x'><link name='a'></robot>", "not well-formed XML"),
    "root": ("<model name='x'/>", "root element must be <robot>, got <model>"),
    "robot name": ("<robot><link name='a'/></robot>",
                   "line 1: <robot>, attribute 'name': required attribute missing"),
    "link name": (robot_xml("<link/>"), "<link>, attribute 'name': required attribute missing"),
    "joint name": (
        robot_xml(
            link_xml("a"),
            link_xml("b"),
            '<joint type="fixed"><parent link="a"/>' '<child link="b"/></joint>',
        ),
        "<joint>, attribute 'name': required attribute missing",
    ),
    "joint type": (
        robot_xml(
            link_xml("a"),
            link_xml("b"),
            '<joint name="j1"><parent link="a"/>' '<child link="b"/></joint>',
        ),
        "joint 'j1', attribute 'type': required attribute missing",
    ),
    "child": (
        robot_xml(link_xml("a"), '<joint name="j1" type="fixed"><parent link="a"/></joint>'),
        "joint 'j1': required element <child> missing",
    ),
    "unknown type": (
        robot_xml(link_xml("a"), link_xml("b"), joint_xml("hinge1", "hinge", "a", "b")),
        "joint 'hinge1' has unknown type 'hinge'",
    ),
    "undefined link": (
        robot_xml(link_xml("a"), joint_xml("j1", "revolute", "a", "ghost")),
        "joint 'j1': child link 'ghost' is not defined",
    ),
    "negative mass": (
        robot_xml(link_xml("a"), link_xml("b", mass=-1.0), joint_xml("j1", "revolute", "a", "b")),
        "link 'b'.*<mass>.*attribute 'value'.*>= 0, got -1",
    ),
    "no mass": (
        robot_xml(
            link_xml("a"),
            '<link name="b"><inertial><inertia ixx="1" ixy="0" ixz="0" '
            'iyy="1" iyz="0" izz="1"/></inertial></link>',
            joint_xml("j1", "revolute", "a", "b"),
        ),
        "link 'b' <inertial>: required element <mass> missing",
    ),
    "inertia attribute": (
        robot_xml(
            link_xml("a"),
            '<link name="b"><inertial><mass value="1"/>'
            '<inertia ixx="1" iyy="1" izz="1"/></inertial></link>',
            joint_xml("j1", "revolute", "a", "b"),
        ),
        "link 'b' <inertia>, attribute 'ixy': required attribute missing",
    ),
    "zero axis": (
        robot_xml(
            link_xml("a"), link_xml("b"), joint_xml("j1", "revolute", "a", "b", axis="0 0 0")
        ),
        "joint 'j1' <axis>, attribute 'xyz'",
    ),
    "bad number": (
        robot_xml(
            link_xml("a"), link_xml("b"), joint_xml("j1", "revolute", "a", "b", xyz="1 two 3")
        ),
        "joint 'j1' <origin>, attribute 'xyz': expected numbers, got '1 two 3'",
    ),
    "duplicate link": (
        robot_xml(link_xml("a"), link_xml("a")),
        r"link name\(s\) \['a'\] defined more than",
    ),
    "duplicate joint": (
        robot_xml(
            link_xml("a"),
            link_xml("b"),
            link_xml("c"),
            joint_xml("j", "fixed", "a", "b"),
            joint_xml("j", "fixed", "b", "c"),
        ),
        r"joint name\(s\) \['j'\] defined more than once",
    ),
    "two parents": (
        robot_xml(
            link_xml("a"),
            link_xml("b"),
            link_xml("c"),
            joint_xml("j1", "revolute", "a", "b"),
            joint_xml("j2", "revolute", "a", "c"),
            joint_xml("j3", "revolute", "c", "b"),
        ),
        "link 'b' is the child of two joints, 'j1' and 'j3'",
    ),
    "loop": (
        robot_xml(
            link_xml("a"),
            link_xml("b"),
            link_xml("c"),
            joint_xml("j1", "revolute", "b", "c"),
            joint_xml("j2", "revolute", "c", "b"),
        ),
        r"joints \['j2', 'j1'\] form a closed loop through links \['b', 'c'\]",
    ),
    "no root": (
        robot_xml(
            link_xml("b"),
            link_xml("c"),
            joint_xml("j1", "revolute", "b", "c"),
            joint_xml("j2", "revolute", "c", "b"),
        ),
        "closed loop",
    ),
    "multiple roots": (robot_xml(link_xml("a"), link_xml("b")), r"2 root links .*\['a', 'b'\]"),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_malformed_urdf_names_the_element(case):
    xml, message = MALFORMED[case]
    with pytest.raises(ValueError, match=message):
        urdf.load_urdf(xml)


def test_bad_arguments():
    with pytest.raises(FileNotFoundError, match="does not exist"):
        urdf.load_urdf("/nonexistent/robot.urdf")
    with pytest.raises(TypeError, match="path or a URDF"):
        urdf.load_urdf(3)
    with pytest.raises(ValueError, match="inertia_check"):
        urdf.load_urdf(TREE, inertia_check="maybe")
    with pytest.raises(ValueError, match="unknown link 'zz'"):
        urdf.link_placement(urdf.load_urdf(TREE), np.zeros(3), "zz")
    with pytest.raises(ValueError, match="unknown joint 'zz'"):
        urdf.load_urdf(TREE).joint("zz")


def test_merged_links_are_placed_as_in_pinocchio():
    model = urdf.load_urdf(TREE)
    pm = pin.buildModelFromXML(TREE)
    data, maps = pm.createData(), PinMap(model, pm)
    q = np.array([0.3, 0.2, -0.5])
    pin.framesForwardKinematics(pm, data, maps.q(q))
    for name in ("a", "b", "c", "d", "e"):
        T = urdf.link_placement(model, q, name)
        assert relative_error(T, data.oMf[pm.getFrameId(name)].homogeneous) < 1e-12
    assert np.allclose(urdf.link_placement(model, np.tile(q, (4, 1)), "e")[2],
                       urdf.link_placement(model, q, "e"))          # batched


def test_locked_joints_match_pinocchio_reduced_model():
    fingers = ["panda_finger_joint1", "panda_finger_joint2"]
    model = urdf.load_robot("panda", locked_joints={fingers[0]: 0.02, fingers[1]: 0.03})
    full = pin.buildModelFromUrdf(urdf.robot_path("panda"))
    q0 = pin.neutral(full)
    q0[full.joints[full.getJointId(fingers[0])].idx_q] = 0.02
    q0[full.joints[full.getJointId(fingers[1])].idx_q] = 0.03
    pm = pin.buildReducedModel(full, [full.getJointId(n) for n in fingers], q0)
    data, maps = pm.createData(), PinMap(model, pm)
    rng = np.random.default_rng(5)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    assert model.nv == 7 and model.locked == {fingers[0]: 0.02, fingers[1]: 0.03}
    assert relative_error(rnea(model, q, dq, ddq), pin.rnea(pm, data, maps.q(q), dq, ddq)) < TOL
    pin.framesForwardKinematics(pm, data, maps.q(q))
    T = urdf.link_placement(model, q, "panda_leftfinger")
    assert relative_error(T, data.oMf[pm.getFrameId("panda_leftfinger")].homogeneous) < 1e-12
    with pytest.raises(ValueError, match="no joint 'nope'"):
        urdf.load_robot("panda", locked_joints=["nope"])
    with pytest.raises(ValueError, match="joint 'panda_joint8' is fixed"):
        urdf.load_robot("panda", locked_joints=["panda_joint8"])
