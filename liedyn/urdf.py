"""Models from URDF files: ``load_urdf`` and the robots of example-robot-data
(``load_robot``).

A URDF file describes a tree of *links* connected by *joints*. Each joint has an
origin (the joint frame in the parent link's frame), a type and an axis; each link
may have an ``<inertial>``: mass, centre of mass and rotational inertia in a frame
given by its own origin. The file is parsed with `yourdfpy
<https://github.com/clemense/yourdfpy>`_ (no meshes are loaded) after a light
structural check of the XML, and turned into a :class:`URDFModel`:

* **bodies** are the links that move: one body per revolute, continuous, prismatic,
  floating or planar joint, named after the joint's child link. Body frame = link
  frame, so the joint origin is the placement ``X_i`` and the joint motion is
  ``J_i(q_i)`` (Kim (2012), Sec. 2.1).
* **joint types**: ``revolute`` and ``continuous`` become
  :class:`~liedyn.joints.Revolute` (one angle; Pinocchio stores a continuous joint
  as ``(cos, sin)``, liedyn as the angle), ``prismatic``
  :class:`~liedyn.joints.Prismatic`, ``floating`` :class:`~liedyn.joints.Free`,
  ``planar`` :class:`~liedyn.joints.Planar` in the plane normal to the axis (the
  body frame is then turned so that its z axis is the joint axis;
  ``model.link_frames`` records where the link frame sits in it).
* **fixed joints are merged**: a link welded to its parent by a ``fixed`` joint
  becomes part of the nearest moving ancestor body; its inertia is added after the
  change of frame of Kim eq. (21) (:func:`liedyn.inertia.transform_inertia`) and its
  children are re-placed in that body's frame. No zero-DOF body reaches the
  algorithms. With a fixed base, links welded to the root are part of the ground and
  their inertia plays no role.
* ``floating_base=True`` adds a :class:`~liedyn.joints.Free` joint (named
  ``root_joint``, as in Pinocchio) between the ground and the root link.
* ``<mimic>``: a mimic joint is loaded as an **independent** joint (as Pinocchio's
  parser does by default). The coupling
  ``q_follower = multiplier q_leader + offset`` is recorded in ``model.mimic``, and
  :meth:`URDFModel.enforce_mimic` applies it to a configuration.
* ``<visual>`` elements are kept (not loaded): ``model.visuals`` lists, per link,
  the shape (mesh file, box, cylinder or sphere), its pose in the body frame and its
  colour, for :func:`liedyn.teach.scene.scene`. ``package://pkg/...`` mesh names are
  resolved against the directories above the URDF file (a folder named ``pkg``, or
  one containing it).
* ``locked_joints`` welds chosen revolute, continuous or prismatic joints at given
  positions (like Pinocchio's ``buildReducedModel``); they are then merged like
  fixed joints.
* a link **without** ``<inertial>`` is massless, as the URDF specification says (and
  as Pinocchio does): zero inertia, which :class:`~liedyn.model.Model` allows. A
  massless body at the end of a moving joint makes the mass matrix singular (forward
  dynamics then fails); inverse dynamics is unaffected.
* inertias that are not physically consistent (rotational inertia not positive
  semi-definite, or principal moments violating the triangle inequality, or zero
  mass with non-zero rotational inertia) are common in real files. By default they
  are loaded as given with a warning naming the link, because Pinocchio loads them
  too; ``inertia_check="raise"`` refuses them and ``"ignore"`` loads them silently.
  A negative mass is always an error.

Malformed files raise ``ValueError`` naming the element: a missing name or
attribute, an unknown joint type, an undefined link, a negative mass, a zero axis,
several root links, a link with two parents or a closed loop of joints.

Derived in :ref:`sec-real-robots`.
"""
import functools
import io
import os
import re
import sys
import warnings
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from . import _checks
from . import joints as J
from .inertia import check_inertia, transform_inertia
from .kinematics import forward_kinematics
from .lie import exp_so3, inverse, skew
from .model import Model

__all__ = ["URDFModel", "Visual", "load_urdf", "load_robot", "robot_path",
           "available_robots", "ROBOTS",
           "JOINT_TYPES", "link_placement"]

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
"""The joint types of the URDF specification, all supported."""

ROBOTS = {
    "a1": "a1_description/urdf/a1.urdf",
    "alex_nub_hands": "alex_description/urdf/alex_nub_hands.urdf",
    "alex_psyonic_hands": "alex_description/urdf/alex_psyonic_hands.urdf",
    "alex_sake_hands": "alex_description/urdf/alex_sake_hands.urdf",
    "alexander": "alexander_description/urdf/alexander_v1.lowerBodyOnly.urdf",
    "allegro_left_hand": "allegro_hand_description/urdf/allegro_left_hand.urdf",
    "allegro_right_hand": "allegro_hand_description/urdf/allegro_right_hand.urdf",
    "anymal": "anymal_b_simple_description/robots/anymal.urdf",
    "anymal_kinova": "anymal_b_simple_description/robots/anymal-kinova.urdf",
    "anymal_c": "anymal_c_simple_description/urdf/anymal.urdf",
    "asr_twodof": "asr_twodof_description/urdf/TwoDofs.urdf",
    "b1": "b1_description/urdf/b1.urdf",
    "b1_z1": "b1_description/urdf/b1-z1.urdf",
    "baxter": "baxter_description/urdf/baxter.urdf",
    "bolt": "bolt_description/robots/bolt.urdf",
    "borinot": "borinot_description/urdf/borinot_flying_arm_2.urdf",
    "centauro": "centauro_description/urdf/centauro.urdf",
    "double_pendulum": "double_pendulum_description/urdf/double_pendulum.urdf",
    "double_pendulum_continuous":
        "double_pendulum_description/urdf/double_pendulum_continuous.urdf",
    "double_pendulum_simple":
        "double_pendulum_description/urdf/double_pendulum_simple.urdf",
    "finger_edu": "finger_edu_description/robots/finger_edu.urdf",
    "g1": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
    "g1_with_hand": "g1_description/urdf/g1_29dof_with_hand_rev_1_0.urdf",
    "go1": "go1_description/urdf/go1.urdf",
    "go2": "go2_description/urdf/go2.urdf",
    "hector": "hector_description/robots/quadrotor_base.urdf",
    "hextilt": "hextilt_description/urdf/hextilt_flying_arm_5.urdf",
    "human": "human_description/robots/human.urdf",
    "hyq": "hyq_description/robots/hyq_no_sensors.urdf",
    "icub": "icub_description/robots/icub.urdf",
    "icub_reduced": "icub_description/robots/icub_reduced.urdf",
    "iris": "iris_description/robots/iris.urdf",
    "iris_simple": "iris_description/robots/iris_simple.urdf",
    "kinova": "kinova_description/robots/kinova.urdf",
    "laikago": "laikago_description/urdf/laikago.urdf",
    "panda": "panda_description/urdf/panda.urdf",
    "panda_collision": "panda_description/urdf/panda_collision.urdf",
    "pr2": "pr2_description/urdf/pr2.urdf",
    "quadruped": "quadruped_description/urdf/quadruped.urdf",
    "romeo": "romeo_description/urdf/romeo.urdf",
    "romeo_small": "romeo_description/urdf/romeo_small.urdf",
    "romeo_laas_small": "romeo_description/urdf/romeo_laas_small.urdf",
    "simple_humanoid": "simple_humanoid_description/urdf/simple_humanoid.urdf",
    "simple_humanoid_classical":
        "simple_humanoid_description/urdf/simple_humanoid_classical.urdf",
    "so100": "so_arm_description/urdf/so100.urdf",
    "so101": "so_arm_description/urdf/so101.urdf",
    "solo8": "solo_description/robots/solo.urdf",
    "solo12": "solo_description/robots/solo12.urdf",
    "talos": "talos_data/robots/talos_reduced.urdf",
    "talos_box": "talos_data/robots/talos_reduced_box.urdf",
    "talos_corrected": "talos_data/robots/talos_reduced_corrected.urdf",
    "talos_full": "talos_data/robots/talos_full_v2.urdf",
    "talos_full_box": "talos_data/robots/talos_full_v2_box.urdf",
    "talos_arm": "talos_data/robots/talos_left_arm.urdf",
    "tiago": "tiago_description/robots/tiago.urdf",
    "tiago_dual": "tiago_description/robots/tiago_dual.urdf",
    "tiago_no_hand": "tiago_description/robots/tiago_no_hand.urdf",
    "tiago_pro": "tiago_pro_description/robots/tiago_pro.urdf",
    "ur3": "ur_description/urdf/ur3_robot.urdf",
    "ur3_gripper": "ur_description/urdf/ur3_gripper.urdf",
    "ur3_limited": "ur_description/urdf/ur3_joint_limited_robot.urdf",
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "ur5_gripper": "ur_description/urdf/ur5_gripper.urdf",
    "ur5_limited": "ur_description/urdf/ur5_joint_limited_robot.urdf",
    "ur10": "ur_description/urdf/ur10_robot.urdf",
    "ur10_limited": "ur_description/urdf/ur10_joint_limited_robot.urdf",
    "xarm7": "xarm_description/urdf/xarm7.urdf",
    "z1": "z1_description/urdf/z1.urdf",
}
"""Robot name -> URDF path relative to example-robot-data's ``robots/`` directory.

Every URDF file that example-robot-data 6.0 ships, except
``ur_description/urdf/ur3.urdf`` (an empty ``<robot>`` element, which Pinocchio
rejects too; ``"ur3"`` is ``ur3_robot.urdf``).
"""



@dataclass(frozen=True)
class Visual:
    """One ``<visual>`` element of a URDF link, placed in the frame of its body.

    Attributes
    ----------
    link : str
        the URDF link it belongs to
    body : int
        the body index (0: the ground, for links welded to a fixed base)
    T : (4, 4) array
        pose of the shape in the body frame, ``T_{body, link} T_{link, visual}``
    kind : {"mesh", "box", "cylinder", "sphere"}
    size : tuple of float
        mesh: the scale ``(sx, sy, sz)``; box: ``(x, y, z)``; cylinder:
        ``(radius, length)`` along its z axis; sphere: ``(radius,)``
    filename : str or None
        the mesh file, resolved to an existing path (None when it cannot be found,
        or for a primitive shape)
    rgba : tuple of 4 floats or None
        the URDF material colour, if the file gives one
    """

    link: str
    body: int
    T: np.ndarray
    kind: str
    size: tuple
    filename: str = None
    rgba: tuple = None


_INERTIA_ATTRIBUTES = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


class URDFModel(Model):
    """A :class:`~liedyn.model.Model` built from a URDF file, with the file's names
    and limits.

    Besides those of :class:`~liedyn.model.Model`, it has these attributes:

    * ``joint_names``, a list of N+1 strings: the URDF joint that moves body ``i``
      (``"universe"`` for the ground, ``"root_joint"`` for the free joint added by
      ``floating_base=True``);
    * ``link_frames``, a dict from every URDF link name (welded ones too) to
      ``(body index, T_body_link)``: the body it belongs to (0 is the ground) and
      its frame, a (4, 4) array, in that body's frame;
    * ``mimic``, a dict from a mimic joint's name to
      ``(leader joint name, multiplier, offset)``;
    * ``locked``, a dict from the joints welded by ``locked_joints`` to their
      positions;
    * ``q_lower``, ``q_upper``, (nq,) arrays: position limits from ``<limit>``
      (``-inf`` and ``inf`` for continuous, floating and planar joints and where no
      limit is given);
    * ``velocity_limit``, ``effort_limit``, (nv,) arrays:
      ``<limit velocity effort>`` (``inf`` where not given);
    * ``source``: the file the model was loaded from (None for an XML string);
    * ``visuals``, a list of :class:`Visual`: the ``<visual>`` shapes of the links.

    Examples
    --------
    >>> model = load_robot("ur5")
    >>> model.joint_names[1], model.effort_limit[0], model.link_frames["ee_link"][0]
    ('shoulder_pan_joint', np.float64(150.0), 6)
    """

    def __init__(self, gravity=(0.0, 0.0, -9.81), name="model"):
        super().__init__(gravity=gravity, name=name)
        self.joint_names = ["universe"]
        self.link_frames = {}
        self.mimic = {}
        self.locked = {}
        self.source = None
        self.visuals = []
        self._q_lower, self._q_upper, self._vel, self._eff = [], [], [], []

    @property
    def q_lower(self):
        return np.concatenate([np.zeros(0)] + self._q_lower)

    @property
    def q_upper(self):
        return np.concatenate([np.zeros(0)] + self._q_upper)

    @property
    def velocity_limit(self):
        return np.concatenate([np.zeros(0)] + self._vel)

    @property
    def effort_limit(self):
        return np.concatenate([np.zeros(0)] + self._eff)

    def joint(self, name):
        """The body index moved by the joint called ``name``."""
        try:
            return self.joint_names.index(name)
        except ValueError:
            raise ValueError(f"unknown joint {name!r}; the moving joints are "
                             f"{self.joint_names[1:]}") from None

    def enforce_mimic(self, q):
        """``q`` (..., nq) with every mimic joint set to
        ``multiplier * q_leader + offset``."""
        q = np.array(self.check_q(q), dtype=float)
        for follower, (leader, mult, offset) in self.mimic.items():
            qf, ql = (self.q_slice[self.joint(follower)],
                      self.q_slice[self.joint(leader)])
            q[..., qf] = mult * q[..., ql] + offset
        return q


def _read(source):
    """The URDF bytes and a label for error messages, from a path or an XML
    string."""
    if isinstance(source, bytes):
        return source, "string"
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        if text.lstrip().startswith("<"):
            return text.encode("utf-8"), "string"
        if not os.path.isfile(text):
            raise FileNotFoundError(f"URDF file {text!r} does not exist")
        with open(text, "rb") as f:
            return f.read(), repr(text)
    raise TypeError("argument 'path_or_xml': expected a path or a URDF (XML) "
                    f"string, got {type(source).__name__}")


MAX_DEPTH = 64
"""Deepest element nesting accepted in a URDF file (real files nest about 6
levels)."""


def _bad(label, message):
    """A :class:`~liedyn._checks.URDFError` about the file as a whole (no single
    element)."""
    return _checks.URDFError(label, None, message)


def _few(names, k=10):
    """At most ``k`` names for an error message, with the total when there are
    more."""
    names = list(names)
    return (
        str(names) if len(names) <= k else f"{names[:k]} ... ({len(names)} in all)")


def _numbers(label, where, el, attribute, n=None, default=None):
    """The finite numbers of ``el``'s ``attribute`` (exactly ``n`` of them if
    given)."""
    text = el.get(attribute)
    if text is None:
        return default
    try:
        x = np.array([float(t) for t in text.split()])
    except ValueError:
        raise _checks.URDFError(label, where, f"expected numbers, got {text!r}",
                                attribute) from None
    if n is not None and x.size != n:
        raise _checks.URDFError(label, where, f"expected {n} numbers, "
                                f"got {x.size} ({text!r})", attribute)
    if not np.all(np.isfinite(x)):
        raise _checks.URDFError(label, where, "expected finite "
                                              f"numbers, got {text!r}",
                                attribute)
    return x


def _line(data, tag, name):
    """The line where ``<tag name="name"`` starts in the file (None if not
    found)."""
    if not name:
        return None
    found = re.search(rb"<" + tag.encode() + rb"\s[^>]*?name\s*=\s*[\"']"
                      + re.escape(name.encode()) + rb"[\"']", data)
    return None if found is None else data.count(b"\n", 0, found.start()) + 1


def _check_depth(root, label):
    stack = [(root, 1)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _checks.URDFError(label, f"<{el.tag}>", "elements nested "
                                                          f"{depth} deep; a URDF "
                                    "nests a few levels (at most MAX_DEPTH = "
                                    f"{MAX_DEPTH})")
        stack.extend((child, depth + 1) for child in el)


def _check_origins(label, owner, el):
    for origin in el.iter("origin"):
        for attribute in ("xyz", "rpy"):
            _numbers(label, f"{owner} <origin>", origin, attribute, 3)


def _check_link(label, link):
    name = link.get("name")
    if not name:
        raise _checks.URDFError(label, "<link>", "a <link> element "
                                                 "has no name attribute",
                                "name")
    owner = f"link {name!r}"
    _check_origins(label, owner, link)
    inertial = link.find("inertial")
    if inertial is None:
        return
    mass, inertia = inertial.find("mass"), inertial.find("inertia")
    if mass is None or mass.get("value") is None:
        raise _checks.URDFError(label, owner, "<inertial> needs <mass value=...>")
    if inertia is None:
        raise _checks.URDFError(label, owner, "<inertial> needs <inertia>")
    missing = [a for a in _INERTIA_ATTRIBUTES if inertia.get(a) is None]
    if missing:
        raise _checks.URDFError(label, owner, "<inertia> lacks the "
                                              f"attribute(s) {missing} "
                                f"(all six of {list(_INERTIA_ATTRIBUTES)} "
                                "are required)")
    m = _numbers(label, f"{owner} <mass>", mass, "value", 1)[0]
    if m < 0:
        raise _checks.URDFError(label, f"{owner} <mass>", "expected a number >= "
                                                          f"0, got {m:g}",
                                "value")
    for a in _INERTIA_ATTRIBUTES:
        _numbers(label, f"{owner} <inertia>", inertia, a, 1)


def _check_joint(label, joint):
    name = joint.get("name")
    if not name:
        raise _checks.URDFError(label, "<joint>", "a <joint> element "
                                                  "has no name attribute",
                                "name")
    owner = f"joint {name!r}"
    kind = joint.get("type")
    if kind is None:
        raise _checks.URDFError(label, owner, f"joint {name!r} has "
                                              "no type attribute", "type")
    if kind not in JOINT_TYPES:
        raise _checks.URDFError(label, owner, f"joint {name!r} has unknown type "
                                              f"{kind!r} (URDF "
                                f"joint types: {list(JOINT_TYPES)})", "type")
    for tag in ("parent", "child"):
        el = joint.find(tag)
        if el is None or not el.get("link"):
            raise _checks.URDFError(label, owner, f"joint {name!r} needs "
                                                  f"<{tag} link=...>")
    _check_origins(label, owner, joint)
    axis = joint.find("axis")
    if axis is not None:
        a = _numbers(label, f"{owner} <axis>", axis, "xyz", 3)
        if a is not None and kind != "fixed" and not np.any(a):
            raise _checks.URDFError(label, f"{owner} <axis>", "the axis must "
                                                              "be a finite "
                                    f"non-zero vector, got {a.tolist()}", "xyz")
    limit = joint.find("limit")
    if limit is not None:
        where = f"{owner} <limit>"
        lo, up, effort, velocity = (
            _numbers(label, where, limit, a, 1)
            for a in ("lower", "upper", "effort", "velocity"))
        if lo is not None and up is not None and lo[0] > up[0]:
            raise _checks.URDFError(label, where, "expected lower <= "
                                                  "upper, got lower = "
                                    f"{lo[0]:g}, upper = {up[0]:g}", "lower")
        for attribute, x in (("effort", effort), ("velocity", velocity)):
            if x is not None and x[0] < 0:
                raise _checks.URDFError(label, where, "expected a number >= 0, "
                                                      f"got {x[0]:g}",
                                        attribute)
    mimic = joint.find("mimic")
    if mimic is not None:
        for attribute in ("multiplier", "offset"):
            _numbers(label, f"{owner} <mimic>", mimic, attribute, 1)
    dynamics = joint.find("dynamics")
    if dynamics is not None:
        for attribute in ("damping", "friction"):
            _numbers(label, f"{owner} <dynamics>", dynamics, attribute, 1)


def _check_xml(data, label, root_link=None):
    """Checks yourdfpy does not make (it raises KeyError, fills in defaults or drops
    numbers).

    Every number the loader reads is checked (count, finite, sign,
    ``lower <= upper``), the nesting depth is bounded and the link/joint graph must
    be one tree, before yourdfpy parses the file; the errors name the element and
    attribute (:class:`liedyn._checks.URDFError`).
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        raise _checks.URDFError(label, "<robot>", "not well-formed "
                                                  f"XML ({err})") from None
    if root.tag != "robot":
        raise _checks.URDFError(label, f"<{root.tag}>", "the root element "
                                                        "must be <robot>, "
                                f"got <{root.tag}>")
    if not root.get("name"):
        raise _checks.URDFError(label, "<robot>", "<robot> has no "
                                                  "name attribute", "name")
    _check_depth(root, label)
    for tag, check in (("link", _check_link), ("joint", _check_joint)):
        for el in root.findall(tag):
            try:
                check(label, el)
            except _checks.URDFError as err:
                raise _checks.URDFError(err.file, err.element, err._message,
                                        err.attribute,
                                        _line(data, tag, el.get("name"))) from None
    links = [
        SimpleNamespace(name=link.get("name")) for link in root.findall("link")]
    joints = [
        SimpleNamespace(name=j.get("name"), type=j.get("type"),
                        parent=j.find("parent").get("link"),
                        child=j.find("child").get("link"))
        for j in root.findall("joint")]
    _tree(SimpleNamespace(links=links, joints=joints), label, root_link)
    return {j.name: j for j in joints}


def _parse(data, label):
    import yourdfpy

    try:
        return yourdfpy.URDF.load(io.BytesIO(data), build_scene_graph=False,
                                  load_meshes=False,
                                  load_collision_meshes=False).robot
    # yourdfpy reports bad numbers etc. with bare exceptions
    except Exception as err:
        raise _bad(label, f"yourdfpy could not parse it "
                   f"({type(err).__name__}: {err})") from None


def _tree(robot, label, root):
    """Check the link/joint graph is one tree; return (root link, child joints per
    link)."""
    links = [link.name for link in robot.links]
    if len(set(links)) != len(links):
        dup = sorted(n for n, c in Counter(links).items() if c > 1)
        raise _bad(label, f"link name(s) {dup} defined more than once")
    names = [j.name for j in robot.joints]
    if len(set(names)) != len(names):
        dup = sorted(n for n, c in Counter(names).items() if c > 1)
        raise _bad(label, f"joint name(s) {dup} defined more than once")
    known = set(links)
    children = {n: [] for n in links}
    parent_joint = {}
    for j in robot.joints:
        for role, link in (("parent", j.parent), ("child", j.child)):
            if link not in known:
                raise _bad(label, f"joint {j.name!r}: {role} "
                           f"link {link!r} is not defined")
        if j.child in parent_joint:
            raise _bad(label, f"link {j.child!r} is the child of two joints, "
                       f"{parent_joint[j.child].name!r} and {j.name!r}: a URDF "
                       f"describes a tree, closed loops are not supported")
        parent_joint[j.child] = j
        children[j.parent].append(j)
    roots = [n for n in links if n not in parent_joint]
    reached = set()
    for r in roots:
        stack = [r]
        while stack:
            n = stack.pop()
            reached.add(n)
            stack.extend(j.child for j in children[n])
    if len(reached) < len(links):
        loop = [n for n in links if n not in reached]
        joints = [parent_joint[n].name for n in loop]
        raise _bad(label, f"joints {joints} form a closed loop through links "
                   f"{loop}: a URDF describes a tree")
    if root is None:
        if len(roots) != 1:
            raise _bad(label, f"{len(roots)} root links (links that are no joint's "
                       f"child): {_few(roots)}; a URDF describes one tree (pass "
                       f"root=... to load one of them)")
        root = roots[0]
    elif root not in known:
        raise ValueError(f"argument 'root': URDF {label} has no link {root!r}")
    elif root in parent_joint:
        raise ValueError(f"argument 'root': link {root!r} is the child of joint "
                         f"{parent_joint[root].name!r}; the root must be a link "
                         f"without a parent (root links: {roots})")
    return root, children


def _link_inertia(link, label, policy):
    """The link's 6x6 inertia in its own frame (None if massless), checked per
    ``policy``."""
    inertial = link.inertial
    if inertial is None:
        return None
    m = float(inertial.mass)
    if not np.isfinite(m) or m < 0:
        raise _bad(label, f"link {link.name!r}: <mass> must be a finite number "
                   f">= 0, got {m:g}")
    Ic = np.asarray(inertial.inertia, dtype=float)
    if not np.all(np.isfinite(Ic)):
        raise _bad(label, f"link {link.name!r}: <inertia> contains NaN or inf")
    T = (
        np.eye(4)
        if inertial.origin is None
        else np.asarray(inertial.origin, dtype=float))
    R, c = T[:3, :3], T[:3, 3]
    Ic = R @ Ic @ R.T
    if m == 0 and not np.any(Ic):
        return None
    P = skew(c)
    # Kim eq. (22)
    I = np.block([[Ic + m * P.T @ P, m * P], [m * P.T, m * np.eye(3)]])
    problem = None
    if m == 0:
        problem = "zero mass but non-zero rotational inertia"
    else:
        try:
            check_inertia(I, name="inertia")
        except ValueError as err:
            problem = str(err).replace("argument 'inertia': ", "")
    if problem is not None and policy != "ignore":
        error = _checks.URDFError(label, f"link {link.name!r}", "<inertial> is "
                                                                "not physically "
                                  f"consistent ({problem})")
        if policy == "raise":
            raise error
        warnings.warn(str(error) + "; loaded as given, as Pinocchio does "
                                   "(inertia_check='raise' "
                      "refuses such files, 'ignore' "
                      "silences this warning)", stacklevel=4)
    return I


def _align_z(axis):
    """A rotation whose z axis is the unit vector ``axis``."""
    z = np.array([0.0, 0.0, 1.0])
    c = float(z @ axis)
    if c < -1 + 1e-12:
        return np.diag([1.0, -1.0, -1.0])
    w = np.cross(z, axis)
    s = np.linalg.norm(w)
    return np.eye(3) if s < 1e-15 else exp_so3(w / s * np.arctan2(s, c))


def _joint(j, label):
    """(liedyn joint, T_{body, link}, q limits, v limits) of a moving URDF joint."""
    axis = np.asarray(j.axis if j.axis is not None else [1.0, 0.0, 0.0],
                      dtype=float)
    lim = j.limit
    lower = getattr(lim, "lower", None)
    upper = getattr(lim, "upper", None)
    vel = getattr(lim, "velocity", None)
    eff = getattr(lim, "effort", None)
    vel = np.inf if vel is None else float(vel)
    eff = np.inf if eff is None else float(eff)
    q_lim = (np.array([-np.inf if lower is None else float(lower)]),
             np.array([np.inf if upper is None else float(upper)]))
    try:
        if j.type in ("revolute", "continuous", "prismatic"):
            joint = (J.Prismatic if j.type == "prismatic" else J.Revolute)(axis)
            if j.type == "continuous":
                q_lim = (np.array([-np.inf]), np.array([np.inf]))
            return joint, np.eye(4), q_lim, (np.array([vel]), np.array([eff]))
    except ValueError as err:
        raise _bad(label, f"joint {j.name!r}: {err}") from None
    if j.type == "floating":
        inf = np.full(7, np.inf)
        return (J.Free(), np.eye(4), (-inf, inf),
                (np.full(6, np.inf), np.full(6, np.inf)))
    if j.type == "planar":
        n = np.linalg.norm(axis)
        if not np.isfinite(n) or n < 1e-12:
            raise _bad(label, f"joint {j.name!r}: the axis "
                              "must be a finite non-zero "
                       f"vector, got {axis.tolist()}")
        T = np.eye(4)
        T[:3, :3] = _align_z(axis / n)
        inf = np.full(3, np.inf)
        return J.Planar(), inverse(T), (-inf, inf), (inf, inf)
    raise _bad(label, f"joint {j.name!r} has unknown type {j.type!r} (URDF joint "
               f"types: {list(JOINT_TYPES)})")


def _locked(locked_joints, joints, label):
    """Validate ``locked_joints``: a dict name -> position (a sequence of names
    means 0)."""
    if locked_joints is None:
        return {}
    if isinstance(locked_joints, str) or not hasattr(locked_joints, "__iter__"):
        raise TypeError("argument 'locked_joints': expected a dict "
                        "{name: position} or a "
                        f"sequence of joint names, got {locked_joints!r}")
    if not isinstance(locked_joints, dict):
        locked_joints = {name: 0.0 for name in locked_joints}
    for name, value in locked_joints.items():
        if name not in joints:
            raise ValueError("argument 'locked_joints': URDF "
                             f"{label} has no joint {name!r}")
        if joints[name].type not in ("revolute", "continuous", "prismatic"):
            raise ValueError(f"argument 'locked_joints': joint {name!r} is "
                             f"{joints[name].type}; "
                             "only revolute, continuous and "
                             "prismatic joints can be locked")
        try:
            _checks.scalar("locked_joints", value)
        except (TypeError, ValueError):
            raise ValueError(f"argument 'locked_joints': joint {name!r}: expected "
                             f"a finite position, got {value!r}") from None
    return {name: float(v) for name, v in locked_joints.items()}


def load_urdf(path_or_xml, floating_base=False, root=None, inertia_check="warn",
              locked_joints=None):
    """Build a model from a URDF file or string.

    Moving joints become bodies in depth-first order (the order Pinocchio's parser
    uses), fixed joints are merged into their parent body, and inertias are moved
    into the body frames with Kim eq. (21). See the module docstring for every
    choice (mimic joints are independent, missing ``<inertial>`` means massless).
    Derived in :ref:`sec-real-robots`.

    Parameters
    ----------
    path_or_xml : str or os.PathLike or bytes
        a file name, or the URDF text itself (a string starting with ``<``; nothing
        is written to disk)
    floating_base : bool
        add a :class:`~liedyn.joints.Free` joint ``root_joint`` between the ground
        and the root link (``nq`` grows by 7, ``nv`` by 6)
    root : str, optional
        the root link; needed only when the file has several trees (the others are
        ignored)
    inertia_check : {"warn", "raise", "ignore"}
        what to do with a physically inconsistent ``<inertial>`` (see the module
        docstring)
    locked_joints : dict or sequence of str, optional
        revolute, continuous or prismatic joints to weld at a given position
        (``{name: value}``; a sequence of names locks them at 0), like Pinocchio's
        ``buildReducedModel``: e.g. the Panda arm without its fingers

    Returns
    -------
    URDFModel
        with ``joint_names``, ``link_frames``, ``mimic``, joint limits and
        ``source``

    Raises
    ------
    ValueError
        for a malformed file, naming the element; FileNotFoundError for a missing
        file.

    Examples
    --------
    >>> xml = '''<robot name="arm">
    ...   <link name="base"/>
    ...   <link name="upper"><inertial><mass value="2"/><origin xyz="0 0 -0.5"/>
    ...     <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/>
    ...   </inertial></link>
    ...   <joint name="shoulder" type="continuous">
    ...     <parent link="base"/><child link="upper"/>
    ...     <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint>
    ... </robot>'''
    >>> model = load_urdf(xml)
    >>> model.nq, model.joint_names, model.names
    (1, ['universe', 'shoulder'], ['ground', 'upper'])
    >>> float(model.inertias[1][1, 1])      # 0.1 + m d^2 about the joint axis
    0.6
    >>> load_urdf(xml, floating_base=True).nv
    7
    """
    floating_base = _check_arguments(inertia_check, floating_base, root)
    data, label = _read(path_or_xml)
    locked = _locked(locked_joints, _check_xml(data, label, root), label)
    robot = _parse(data, label)
    root, children = _tree(robot, label, root)
    links = {link.name: link for link in robot.links}
    joints = {j.name: j for j in robot.joints}

    model = URDFModel(name=robot.name)
    model.locked = locked
    model.source = None if label == "string" else os.fspath(path_or_xml)
    bodies = []       # (name, parent, joint, placement, joint name, limits)
    inertia = [None]  # per body, in the body frame (index 0: the ground, discarded)

    def add(I, body, T_body_link):
        if I is None:
            return
        if not np.allclose(T_body_link, np.eye(4), rtol=0, atol=1e-15):
            I = transform_inertia(I, inverse(T_body_link))
        inertia[body] = I if inertia[body] is None else inertia[body] + I

    def new_body(name, parent, joint, placement, joint_name, q_lim, v_lim):
        bodies.append((name, parent, joint, placement, joint_name, q_lim, v_lim))
        inertia.append(None)
        return len(bodies)

    if floating_base:
        inf7, inf6 = np.full(7, np.inf), np.full(6, np.inf)
        b = new_body(root, 0, J.Free(), np.eye(4), "root_joint", (-inf7, inf7),
                     (inf6, inf6))
        model.link_frames[root] = (b, np.eye(4))
        add(_link_inertia(links[root], label, inertia_check), b, np.eye(4))
    else:
        model.link_frames[root] = (0, np.eye(4))
    stack = list(reversed(children[root]))
    while stack:                               # depth-first, children in file order
        j = stack.pop()
        parent, T_pl = model.link_frames[j.parent]
        origin = (
            np.eye(4) if j.origin is None else np.asarray(j.origin, dtype=float))
        placement = T_pl @ origin           # joint frame in the parent body's frame
        if j.name in locked:
            joint = _joint(j, label)[0]
            model.link_frames[j.child] = (
                parent, placement @ joint.transform([locked[j.name]]))
        elif j.type == "fixed":
            model.link_frames[j.child] = (parent, placement)
        else:
            joint, T_bl, q_lim, v_lim = _joint(j, label)
            if isinstance(joint, J.Planar):
                placement = placement @ inverse(T_bl)
            b = new_body(j.child, parent, joint, placement, j.name, q_lim, v_lim)
            model.link_frames[j.child] = (b, T_bl)
        body, T_bl = model.link_frames[j.child]
        add(_link_inertia(links[j.child], label, inertia_check), body, T_bl)
        stack.extend(reversed(children[j.child]))

    _add_bodies(model, bodies, inertia, label, inertia_check)
    _add_mimics(model, robot, joints, label)
    model.visuals = _visuals(robot, model.link_frames, model.source)
    return model


def _check_arguments(inertia_check, floating_base, root):
    """The options of :func:`load_urdf`, checked; ``floating_base`` as a bool."""
    _checks.choice("inertia_check", inertia_check, ("warn", "raise", "ignore"))
    if root is not None and not isinstance(root, str):
        raise TypeError("argument 'root': expected a link "
                        f"name (str) or None, got {root!r}")
    return _checks.boolean("floating_base", floating_base)


def _add_bodies(model, bodies, inertia, label, inertia_check):
    """Add the collected bodies to ``model`` with their inertias, names and limits
    (an inertia that fails the physical checks is kept as given unless
    ``inertia_check == "raise"``; :func:`_link_inertia` warned about it)."""
    for i, (name, parent, joint, placement, joint_name, q_lim, v_lim) in enumerate(
        bodies, 1):
        I = inertia[i]
        try:
            model.add_body(name, parent, joint, placement=placement, inertia=I)
        except ValueError as err:
            if I is None or inertia_check == "raise" or "inertia" not in str(err):
                raise _bad(label, f"link {name!r}: {err}") from None
            model.add_body(name, parent, joint, placement=placement)
            # inconsistent, accepted (warned per link)
            model._set_inertia_as_given(i, I)
        model.joint_names.append(joint_name)
        model._q_lower.append(q_lim[0])
        model._q_upper.append(q_lim[1])
        model._vel.append(v_lim[0])
        model._eff.append(v_lim[1])


def _add_mimics(model, robot, joints, label):
    """Record each ``<mimic>`` tag of a moving joint as ``model.mimic[name] =
    (leader, multiplier, offset)``; the joint stays independent."""
    for j in robot.joints:
        if j.mimic is None or j.name not in model.joint_names:
            continue
        leader = j.mimic.joint
        if leader not in joints or leader not in model.joint_names:
            warnings.warn(f"URDF {label}: joint {j.name!r}: <mimic "
                          f"joint={leader!r}> does not "
                          "name a moving joint of the tree; the mimic tag is "
                          "ignored (the joint "
                          "is independent anyway)", stacklevel=3)
            continue
        mult = 1.0 if j.mimic.multiplier is None else float(j.mimic.multiplier)
        offset = 0.0 if j.mimic.offset is None else float(j.mimic.offset)
        model.mimic[j.name] = (leader, mult, offset)


def _resolve_mesh(uri, source):
    """An existing file for the mesh ``uri`` of the URDF file ``source``, or
    None."""
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    base = os.path.dirname(os.path.abspath(source)) if source else None
    if uri.startswith("package://"):
        package, _, rest = uri[len("package://"):].partition("/")
        folder = base
        while folder and os.path.dirname(folder) != folder:
            candidates = [os.path.join(folder, package, rest)]
            if os.path.basename(folder) == package:
                candidates.append(os.path.join(folder, rest))
            for candidate in candidates:
                if os.path.isfile(candidate):
                    return candidate
            folder = os.path.dirname(folder)
        return None
    path = uri if os.path.isabs(uri) or base is None else os.path.join(base, uri)
    return path if os.path.isfile(path) else None


def _visuals(robot, link_frames, source):
    """The ``<visual>`` shapes of every link of the tree, as :class:`Visual`
    records."""
    colours = {m.name: m.color.rgba for m in robot.materials if m.color is not None}
    out = []
    for link in robot.links:
        if link.name not in link_frames:
            continue
        body, T_bl = link_frames[link.name]
        for v in link.visuals:
            g = v.geometry
            origin = np.eye(4) if v.origin is None else np.asarray(v.origin, float)
            T = T_bl @ origin
            rgba = None
            if v.material is not None:
                if v.material.color is not None:
                    rgba = v.material.color.rgba
                else:
                    rgba = colours.get(v.material.name)
            rgba = None if rgba is None else tuple(float(c) for c in rgba)
            if g is None:
                continue
            if g.mesh is not None:
                scale = 1.0 if g.mesh.scale is None else g.mesh.scale
                scale = np.broadcast_to(scale, 3)
                shape = ("mesh", tuple(float(x) for x in scale),
                         _resolve_mesh(g.mesh.filename, source))
            elif g.box is not None:
                shape = ("box", tuple(float(x) for x in g.box.size), None)
            elif g.cylinder is not None:
                size = (float(g.cylinder.radius), float(g.cylinder.length))
                shape = ("cylinder", size, None)
            elif g.sphere is not None:
                shape = ("sphere", (float(g.sphere.radius),), None)
            else:
                continue
            out.append(
                Visual(link.name, body, T, shape[0], shape[1], shape[2], rgba))
    return out


def link_placement(model, q, link):
    """World pose ``T_{0, link}`` of any URDF link (merged fixed links too), shape
    (..., 4, 4).

    Examples
    --------
    >>> model = load_urdf('<robot name="r"><link name="a"/><link name="b"/>'
    ...                   '<joint name="j" type="fixed"><parent link="a"/>'
    ...                   '<child link="b"/><origin xyz="1 0 0"/></joint></robot>')
    >>> link_placement(model, np.zeros(0), "b")[:3, 3]
    array([1., 0., 0.])
    """
    if link not in model.link_frames:
        raise ValueError(f"unknown link {link!r}; the links are "
                         f"{sorted(model.link_frames)}")
    body, T = model.link_frames[link]
    return forward_kinematics(model, q).T_world[..., body, :, :] @ T


@functools.lru_cache(maxsize=None)
def _robots_dir():
    """example-robot-data's ``robots/`` directory (the PyPI wheel puts it under
    cmeel.prefix)."""
    tail = os.path.join("cmeel.prefix", "share", "example-robot-data", "robots")
    for base in [*sys.path, sys.prefix]:
        for candidate in (
            os.path.join(base or ".", tail),
            os.path.join(base or ".", "share", "example-robot-data", "robots")):
            if os.path.isdir(candidate):
                return candidate
    raise ModuleNotFoundError(
        "the robots need the URDF files of the example-robot-data package, which "
        "was not found (pip install example-robot-data)")


def available_robots():
    """The names accepted by :func:`load_robot` (sorted)."""
    return sorted(ROBOTS)


def robot_path(name):
    """The URDF file of the example-robot-data robot ``name`` (see :data:`ROBOTS`).

    Raises ``ValueError`` listing the names for an unknown robot and
    ``ModuleNotFoundError`` when example-robot-data is not installed.
    """
    if name not in ROBOTS:
        raise ValueError(f"unknown robot {name!r}; available robots: "
                         f"{', '.join(available_robots())}")
    return os.path.join(_robots_dir(), ROBOTS[name])


def load_robot(name, floating_base=False, inertia_check="warn", locked_joints=None):
    """Load a robot of example-robot-data by name, e.g. ``"panda"``, ``"ur5"``,
    ``"talos"``.

    Parameters
    ----------
    name : str, a key of :data:`ROBOTS` (see :func:`available_robots`)
    floating_base : bool, add a free joint at the root (legged robots, humanoids)
    inertia_check : {"warn", "raise", "ignore"}, see :func:`load_urdf`
    locked_joints : dict or sequence of str, optional, see :func:`load_urdf`

    Returns
    -------
    URDFModel

    Examples
    --------
    >>> panda = load_robot("panda")
    >>> panda.nq, panda.joint_names[1], panda.mimic
    (9, 'panda_joint1', {'panda_finger_joint2': ('panda_finger_joint1', 1.0, 0.0)})
    >>> load_robot("solo12", floating_base=True).nv
    18
    >>> fingers = ["panda_finger_joint1", "panda_finger_joint2"]
    >>> load_robot("panda", locked_joints=fingers).nv
    7
    """
    return load_urdf(robot_path(name), floating_base=floating_base,
                     inertia_check=inertia_check, locked_joints=locked_joints)
