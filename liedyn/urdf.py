"""Models from URDF files: ``load_urdf``, and the robots of example-robot-data
(``load_robot``); derived in :ref:`sec-real-robots`.

A URDF file is a tree of *links* joined by *joints* (origin in the parent link's
frame, type, axis); a link may have an ``<inertial>`` (mass, centre of mass and
rotational inertia in the frame of its origin). The file is checked
(``liedyn._urdf_checks``; a malformed one raises ``ValueError`` naming the
element), parsed with `yourdfpy <https://github.com/clemense/yourdfpy>`_ (no
meshes loaded) and turned into a :class:`URDFModel`:

* one body per revolute, continuous, prismatic, floating or planar joint, named
  after its child link; body frame = link frame, so the joint origin is ``X_i``
  (Kim (2012), Sec. 2.1). ``revolute`` and ``continuous`` become
  :class:`~liedyn.joints.Revolute` (an angle, where Pinocchio stores ``(cos, sin)``
  for continuous), ``prismatic`` :class:`~liedyn.joints.Prismatic`, ``floating``
  :class:`~liedyn.joints.Free`, ``planar`` :class:`~liedyn.joints.Planar` in the
  plane normal to the axis (the body frame turned so that z is the axis;
  ``model.link_frames`` records the link frame in it);
* a link welded by a ``fixed`` joint (or by ``locked_joints``, like Pinocchio's
  ``buildReducedModel``) joins the nearest moving ancestor body, its inertia moved
  there by Kim eq. (21); links welded to a fixed base are part of the ground;
* ``floating_base=True`` adds a :class:`~liedyn.joints.Free` joint ``root_joint``;
* a ``<mimic>`` joint stays independent (as in Pinocchio); ``model.mimic`` records
  the coupling and :meth:`URDFModel.enforce_mimic` applies it;
* ``<visual>`` shapes are listed in ``model.visuals`` (:mod:`liedyn.urdf_visuals`),
  for :func:`liedyn.teach.scene.scene`;
* a link without ``<inertial>``, or with zero mass and a rotational inertia only,
  is massless (a massless leaf makes forward dynamics singular); an inconsistent
  inertia (not positive semi-definite, principal moments of a mass against the
  triangle inequality), as real files have, is loaded with a warning naming the
  link, as Pinocchio does;
  ``inertia_check="raise"`` refuses it, ``"ignore"`` is silent.
"""
from __future__ import annotations

import functools
import io
import os
import sys
import warnings
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from . import joints as J
from ._urdf_checks import JOINT_TYPES, check_xml, tree
from ._urdf_checks import bad as _bad
from .inertia import check_inertia, compose, transform_inertia
from .kinematics import forward_kinematics
from .lie import exp_so3, inverse
from .model import Model
from .urdf_visuals import visuals

if TYPE_CHECKING:
    from ._types import Locked

__all__ = ["URDFModel", "load_urdf", "load_robot", "robot_path",
           "available_robots", "ROBOTS",
           "JOINT_TYPES", "link_placement"]

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
"""Robot name -> URDF path under example-robot-data's ``robots/``: every file of
version 6.0 but ``ur_description/urdf/ur3.urdf`` (an empty ``<robot>``, which
Pinocchio rejects too)."""


class URDFModel(Model):
    """A :class:`~liedyn.model.Model` built from a URDF file, with its names and
    limits.

    Attributes
    ----------
    joint_names : list of N+1 str
        the URDF joint moving body ``i`` (``"universe"``, ``"root_joint"``)
    link_frames : dict
        every link (welded ones too) -> ``(body, T_body_link)``
    mimic : dict
        mimic joint -> ``(leader, multiplier, offset)``
    locked : dict
        the joints welded by ``locked_joints`` -> their positions
    q_lower, q_upper : (nq,) arrays
        ``<limit>`` positions (``-inf``, ``inf`` where none, and for continuous,
        floating and planar joints)
    velocity_limit, effort_limit : (nv,) arrays, ``inf`` where not given
    source : str or None, the file (None for an XML string)
    visuals : list of :class:`Visual`

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
        """``q`` (..., nq) with every mimic joint set to ``multiplier * q_leader +
        offset``."""
        q = np.array(self.check_q(q), dtype=float)
        for follower, (leader, mult, offset) in self.mimic.items():
            qf, ql = (self.q_slice[self.joint(follower)],
                      self.q_slice[self.joint(leader)])
            q[..., qf] = mult * q[..., ql] + offset
        return q


def _read(source):
    """The URDF bytes and a label for messages, from a path or an XML string."""
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
    I = compose(m, c, Ic)                                   # Kim eq. (22)
    problem = None              # (m = 0, rotational inertia only: a massless link)
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
    """``locked_joints`` validated: name -> position (a sequence of names means
    0)."""
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


def load_urdf(path_or_xml: str | os.PathLike[str] | bytes,
              floating_base: bool = False, root: str | None = None,
              inertia_check: str = "warn",
              locked_joints: Locked | None = None) -> URDFModel:
    """Build a model from a URDF file or string.

    Moving joints become bodies in depth-first order (as in Pinocchio), fixed joints
    are merged into their parent body, and inertias are moved into the body frames
    by Kim eq. (21); the module docstring lists every choice. Derived in
    :ref:`sec-real-robots`.

    Parameters
    ----------
    path_or_xml : str or os.PathLike or bytes
        a file name, or the URDF text itself (a string starting with ``<``)
    floating_base : bool
        add a :class:`~liedyn.joints.Free` joint ``root_joint`` at the root link
    root : str, optional
        the root link, when the file has several trees (the others are ignored)
    inertia_check : {"warn", "raise", "ignore"}
        for a physically inconsistent ``<inertial>``
    locked_joints : dict or sequence of str, optional
        revolute, continuous or prismatic joints welded at ``{name: value}`` (names
        alone: at 0), like Pinocchio's ``buildReducedModel``

    Returns
    -------
    URDFModel

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
    locked = _locked(locked_joints, check_xml(data, label, root), label)
    robot = _parse(data, label)
    root, children = tree(robot, label, root)
    model = URDFModel(name=robot.name)
    model.locked = locked
    model.source = None if label == "string" else os.fspath(path_or_xml)
    links = {link.name: link for link in robot.links}
    bodies = _Bodies()
    if floating_base:
        inf7, inf6 = np.full(7, np.inf), np.full(6, np.inf)
        b = bodies.new(root, 0, J.Free(), np.eye(4), "root_joint", (-inf7, inf7),
                       (inf6, inf6))
        model.link_frames[root] = (b, np.eye(4))
        bodies.add(_link_inertia(links[root], label, inertia_check), b, np.eye(4))
    else:
        model.link_frames[root] = (0, np.eye(4))
    stack = list(reversed(children[root]))
    while stack:                               # depth-first, children in file order
        j = stack.pop()
        _place_child(model, bodies, j, locked, label)
        bodies.add(_link_inertia(links[j.child], label, inertia_check),
                   *model.link_frames[j.child])
        stack.extend(reversed(children[j.child]))
    _add_bodies(model, bodies, label, inertia_check)
    _add_mimics(model, robot, {j.name: j for j in robot.joints}, label)
    model.visuals = visuals(robot, model.link_frames, model.source)
    return model


class _Bodies:
    """The moving bodies found so far, and their inertias in the body frames."""

    def __init__(self):
        self.rows = []         # (name, parent, joint, placement, joint name,
        self.inertia = [None]  # limits); inertia[0] is the ground's, discarded

    def new(self, name, parent, joint, placement, joint_name, q_lim, v_lim):
        self.rows.append((name, parent, joint, placement, joint_name, q_lim, v_lim))
        self.inertia.append(None)
        return len(self.rows)

    def add(self, I, body, T_body_link):
        """Add a link's inertia ``I`` (in the link frame) to ``body`` (Kim eq.
        (21))."""
        if I is None:
            return
        if not np.allclose(T_body_link, np.eye(4), rtol=0, atol=1e-15):
            I = transform_inertia(I, inverse(T_body_link))
        old = self.inertia[body]
        self.inertia[body] = I if old is None else old + I


def _place_child(model, bodies, j, locked, label):
    """Place the child link of URDF joint ``j``: a new body, or welded to its
    parent."""
    parent, T_pl = model.link_frames[j.parent]
    origin = np.eye(4) if j.origin is None else np.asarray(j.origin, dtype=float)
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
        b = bodies.new(j.child, parent, joint, placement, j.name, q_lim, v_lim)
        model.link_frames[j.child] = (b, T_bl)


def _check_arguments(inertia_check, floating_base, root):
    """The options of :func:`load_urdf`, checked; ``floating_base`` as a bool."""
    _checks.choice("inertia_check", inertia_check, ("warn", "raise", "ignore"))
    if root is not None and not isinstance(root, str):
        raise TypeError("argument 'root': expected a link "
                        f"name (str) or None, got {root!r}")
    return _checks.boolean("floating_base", floating_base)


def _add_bodies(model, bodies, label, inertia_check):
    """Add the collected bodies to ``model`` with their inertias, names and limits;
    an inconsistent inertia is kept as given unless ``inertia_check == "raise"``."""
    for i, (name, parent, joint, placement, joint_name, q_lim, v_lim) in enumerate(
        bodies.rows, 1):
        I = bodies.inertia[i]
        joint.name = joint_name
        try:
            model.add_body(name, parent, joint, placement=placement, inertia=I)
        except ValueError as err:
            if I is None or inertia_check == "raise" or "inertia" not in str(err):
                raise _bad(label, f"link {name!r}: {err}") from None
            model.add_body(name, parent, joint, placement=placement)
            model.set_inertia_unchecked(i, I)        # _link_inertia warned
        model.joint_names.append(joint_name)
        model._q_lower.append(q_lim[0])
        model._q_upper.append(q_lim[1])
        model._vel.append(v_lim[0])
        model._eff.append(v_lim[1])


def _add_mimics(model, robot, joints, label):
    """Record each moving joint's ``<mimic>`` in ``model.mimic``; the joint stays
    independent."""
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


def link_placement(model, q, link):
    """World pose ``T_{0, link}`` (..., 4, 4) of any URDF link, merged fixed links
    too.

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
    """example-robot-data's ``robots/`` directory (under cmeel.prefix in the
    wheel)."""
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


def available_robots() -> list[str]:
    """The names accepted by :func:`load_robot` (sorted)."""
    return sorted(ROBOTS)


def robot_path(name):
    """The URDF file of the example-robot-data robot ``name`` (a key of
    :data:`ROBOTS`); ``ValueError`` lists the names, ``ModuleNotFoundError`` without
    the package.
    """
    if name not in ROBOTS:
        raise ValueError(f"unknown robot {name!r}; available robots: "
                         f"{', '.join(available_robots())}")
    return os.path.join(_robots_dir(), ROBOTS[name])


def load_robot(name: str, floating_base: bool = False, inertia_check: str = "warn",
               locked_joints: Locked | None = None) -> URDFModel:
    """Load a robot of example-robot-data by name, e.g. ``"panda"``, ``"ur5"``,
    ``"talos"``.

    Parameters
    ----------
    name : str, a key of :data:`ROBOTS` (see :func:`available_robots`)
    floating_base, inertia_check, locked_joints
        as in :func:`load_urdf`

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
