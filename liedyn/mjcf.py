"""Models from MuJoCo's MJCF files, compiled by MuJoCo itself: ``load_mjcf``; the
maps of free-joint states and forces between MuJoCo and liedyn are in
:mod:`liedyn.mujoco_coordinates`.

MuJoCo (the ``mujoco`` package, ``pip install liedyn[mujoco]``) parses and compiles
the file: defaults, ``<include>``, ``fromto``, inertias from geoms, ``settotalmass``
and the rest are its own. liedyn reads the compiled ``mjModel`` arrays (MuJoCo
documentation, "API types: mjModel" and "Overview: Kinematic tree"):

* every MuJoCo body, in MuJoCo's order (parents first), becomes a liedyn body of the
  same name (``body<id>`` when unnamed): on its joint, or on
  :class:`~liedyn.joints.Fixed` when it has none (a welded body keeps its name and
  frame). A body with ``k > 1``
  joints becomes a chain of ``k`` bodies: the first ``k - 1`` massless and named
  after their joints, the last one the MuJoCo body, carrying its inertia;
* a body's frame is ``body_pos``, ``body_quat`` in its parent's frame; each joint
  then moves it as MuJoCo's ``mj_kinematics`` does, about the joint's anchor
  ``jnt_pos`` and axis ``jnt_axis`` in the current frame, by ``qpos - qpos0`` for
  hinge and slide joints (``qpos0`` holds the ``ref`` attribute). ``hinge`` becomes
  :class:`~liedyn.joints.Revolute`, ``slide`` :class:`~liedyn.joints.Prismatic`,
  ``ball`` :class:`~liedyn.joints.Spherical` (in both, a quaternion ``(w, x, y, z)``
  and the body angular velocity), ``free`` :class:`~liedyn.joints.Free` (the same
  ``qpos``, another velocity: :func:`~liedyn.mujoco_coordinates.from_mujoco`). A
  liedyn body frame is the MuJoCo frame moved to the joint's anchor and, for a
  ``ref``, turned back by it: ``model.body_frames[name]`` holds
  ``T_{liedyn, MuJoCo}``;
* the inertia is ``body_mass``, the centre of mass ``body_ipos`` and the principal
  moments ``body_inertia`` about the axes ``body_iquat`` (Kim (2012), eq. (22));
  ``dof_armature`` is ``model.armature``; ``opt.gravity`` is the gravity (zero if
  the file disables it);
* so ``q`` is MuJoCo's ``qpos`` and, for hinge, slide and ball joints, ``dq``,
  ``ddq`` and ``tau`` are ``qvel``, ``qacc`` and ``qfrc`` unchanged;
* the keyframes (``<keyframe><key>``) are ``model.keyframes``, liedyn's ``(q, dq)``
  of each key's ``qpos`` and ``qvel``; the ranges of limited hinge and slide joints
  are ``model.q_lower`` and ``model.q_upper`` (a ball joint's range bounds its
  rotation angle, no coordinate: left infinite);
* sphere, box, cylinder and capsule geoms are listed in ``model.visuals`` for
  :func:`liedyn.teach.scene.scene`; planes, height fields, ellipsoids and meshes are
  not.

liedyn models the rigid-body dynamics of the tree: actuators, tendons, equality
constraints, contacts, joint limits and the passive forces (damping, stiffness,
friction loss, gravity compensation, fluid forces) are left out with a
:class:`MJCFWarning` naming them (``unsupported="raise"`` refuses such files).
Armature on the translational degrees of freedom of a free joint (an added mass in
the world frame, without weight) has no liedyn counterpart: refused by name.
"""
from __future__ import annotations

import os
import re
import warnings

import numpy as np

from . import _checks
from . import joints as J
from .errors import ModelFileError
from .inertia import compose
from .lie import make_transform, quat_to_rot
from .model import Model
from .mujoco_coordinates import from_mujoco
from .urdf_visuals import Visual

__all__ = ["MJCFModel", "MJCFError", "MJCFWarning", "load_mjcf", "JOINT_TYPES"]

JOINT_TYPES = ("free", "ball", "slide", "hinge")
"""The joint types of MJCF (``mjtJoint``), all supported."""

_FREE, _BALL, _SLIDE, _HINGE = range(4)           # mjtJoint
_SPHERE, _CAPSULE, _CYLINDER, _BOX = 2, 3, 5, 6   # mjtGeom

class MJCFError(ModelFileError):
    """A malformed MJCF file, or one liedyn cannot represent (see
    ``liedyn.errors.ModelFileError``; ``label`` may also be ``"MjModel"``).
    """

    FORMAT = "MJCF"


class MJCFWarning(UserWarning):
    """Elements of an MJCF file that liedyn leaves out (actuators, tendons,
    constraints, contacts, passive forces); each warning names them."""


class MJCFModel(Model):
    """A :class:`~liedyn.model.Model` built from an MJCF file by
    :func:`load_mjcf`, with MuJoCo's names and frames.

    Attributes
    ----------
    joint_names : list of N+1 (str or None)
        the MuJoCo joint moving body ``i`` (None: the ground, a welded body)
    body_frames : dict
        every MuJoCo body, by its liedyn name (its MuJoCo name; ``body<id>`` when
        unnamed) -> ``(i, T)``: its liedyn body ``i`` and the MuJoCo body frame in
        the liedyn body frame (identity unless the joint has an anchor or a ``ref``)
    mujoco_bodies : list of int
        the liedyn body of each MuJoCo body id (0 for the world body)
    mujoco_com : list of (3,) arrays
        each MuJoCo body's centre of mass (``xipos``, where MuJoCo applies
        ``xfrc_applied``) in its liedyn body frame
    qpos0 : (nq,) array, MuJoCo's reference configuration (the file's pose)
    q_lower, q_upper : (nq,) arrays
        the ``range`` of each limited hinge and slide joint (``-inf``, ``inf``
        elsewhere), as URDF models have them; the dynamics do not enforce them
    keyframes : dict
        MuJoCo's keyframes by name (``key<k>`` when unnamed) ->
        :class:`~liedyn.mujoco_coordinates.LiedynState` ``(q, dq, None, None)`` of
        the key's ``qpos`` and ``qvel``
    source : str or None, the file (None for an XML string or an MjModel)
    visuals : list of :class:`~liedyn.urdf_visuals.Visual`

    Examples
    --------
    >>> xml = '''<mujoco><worldbody><body name="cart">
    ...   <joint name="slider" type="slide" axis="1 0 0"/>
    ...   <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.1 0.1"/>
    ... </body></worldbody></mujoco>'''
    >>> model = load_mjcf(xml)
    >>> model.joint_names, model.body_frames["cart"][0]
    ([None, 'slider'], 1)
    """

    def __init__(self, gravity=(0.0, 0.0, -9.81), name="model"):
        super().__init__(gravity=gravity, name=name)
        self.joint_names = [None]
        self.body_frames = {}
        self.mujoco_bodies = [0]
        self.mujoco_com = [np.zeros(3)]
        self.qpos0 = np.zeros(0)
        self.keyframes = {}
        self.q_lower, self.q_upper = np.zeros(0), np.zeros(0)
        self.source = None
        self.visuals = []

    def joint(self, name):
        """The body index moved by the MuJoCo joint called ``name``."""
        if not isinstance(name, str):
            raise TypeError(f"argument 'name': expected a joint name, got {name!r}")
        try:
            return self.joint_names.index(name)
        except ValueError:
            raise ValueError(f"unknown joint {name!r}; the joints are "
                             f"{[n for n in self.joint_names if n]}") from None


# --- reading and compiling --------------------------------------------------------
def _import_mujoco():
    try:
        import mujoco
    except ModuleNotFoundError:
        raise ModuleNotFoundError("load_mjcf needs MuJoCo to compile MJCF files: "
                                  "pip install liedyn[mujoco]") from None
    return mujoco


def _compile(mujoco, source):
    """(MjModel, label for messages, file name or None) of ``source``."""
    if isinstance(source, mujoco.MjModel):
        return source, "MjModel", None
    if isinstance(source, bytes):
        source = source.decode("utf-8")
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError("argument 'path_or_xml': expected a path, an MJCF (XML) "
                        f"string or a mujoco.MjModel, got {type(source).__name__}")
    text = os.fspath(source)
    is_xml = text.lstrip().startswith("<")
    label = "string" if is_xml else repr(text)
    if not is_xml and not os.path.isfile(text):
        raise FileNotFoundError(f"MJCF file {text!r} does not exist")
    told, handler = [], mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(told.append)      # not MUJOCO_LOG.TXT in the cwd
    try:
        m = (mujoco.MjModel.from_xml_string(text) if is_xml
             else mujoco.MjModel.from_xml_path(text))
    except ValueError as err:
        raise _compile_error(label, str(err)) from None
    finally:
        mujoco.set_mju_user_warning(handler)
    for note in told:
        warnings.warn(f"MJCF {label}: MuJoCo: {note}", MJCFWarning, stacklevel=3)
    return m, label, None if is_xml else text


_WHERE = (          # where MuJoCo's messages say the error is, and what they name
    re.compile(r"Element '(?P<tag>[^']*)', line (?P<line>\d+)"),
    re.compile(r"Element name '(?P<name>[^']*)', id \d+(?:, line (?P<line>\d+))?"),
    re.compile(r"Line number=(?P<line>\d+)(?:: XMLElement name=(?P<tag>\S+))?"))
_ATTRIBUTE = re.compile(r"attribute(?: missing:)? '(?P<attribute>[^']+)'")
_KIND = re.compile(r" in (?P<kind>[a-z]+)(?: '[^']*')?$"
                   r"|\b(?P<named>[a-z]+) '[^']*' \(id = \d+\)")
_NUMBERED = re.compile(r"\b(?P<attribute>[a-z_]+)(?:\[\d+\]| \d+|\(\d+\)) "
                       r"(?:must|should)")


def _compile_error(label, text):
    """The :class:`MJCFError` of MuJoCo's compiler message ``text``, with the
    element, attribute and line MuJoCo names in it."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    element = attribute = line = None
    for pattern in _WHERE:
        found = [m for m in map(pattern.search, lines) if m]
        if found:
            where = found[0].groupdict()
            line = int(where["line"]) if where.get("line") else None
            kind = _KIND.search(lines[0])           # "... in geom": compiler errors
            if where.get("tag") or kind:
                element = f"<{where.get('tag') or kind['kind'] or kind['named']}>"
            if where.get("name"):
                element = f"{element or 'element'} {where['name']!r}"
            if pattern is not _WHERE[2]:             # the "Element ..." line
                lines.remove(found[0].string)
            break
    named = _ATTRIBUTE.search(" ".join(lines)) or _NUMBERED.search(" ".join(lines))
    if named:
        attribute = named["attribute"]
    message = "; ".join(lines).replace(":; ", ": ")
    if "invalid keyword" in message and element == "<joint>":
        message += f" (MJCF joint types: {list(JOINT_TYPES)})"
    return MJCFError(label, element, f"MuJoCo could not compile it ({message})",
                     attribute, line)


def _few(names, k=8):
    """At most ``k`` names for a message, with the total when there are more."""
    names = list(names)
    return (str(names) if len(names) <= k
            else f"{str(names[:k])[:-1]}, ...] ({len(names)} in all)")


_OBJECTS = dict(body="BODY", joint="JOINT", actuator="ACTUATOR", tendon="TENDON",
                eq="EQUALITY", geom="GEOM", pair="PAIR", flex="FLEX")


def _name(m, kind, i):
    """The MuJoCo name of object ``i`` of ``kind`` (a key of ``_OBJECTS``), or
    ``kind<i>``."""
    import mujoco
    objtype = getattr(mujoco.mjtObj, "mjOBJ_" + _OBJECTS[kind])
    return mujoco.mj_id2name(m, objtype, int(i)) or f"{kind}{i}"


# the compiled numbers liedyn reads: (object, attribute, mjModel field)
_NUMBERS = (("body", "pos", "body_pos"), ("body", "quat", "body_quat"),
            ("body", "mass", "body_mass"), ("body", "inertial pos", "body_ipos"),
            ("body", "inertial quat", "body_iquat"),
            ("body", "inertia", "body_inertia"), ("joint", "pos", "jnt_pos"),
            ("joint", "axis", "jnt_axis"))


def _check_numbers(m, label):
    """Raise :class:`MJCFError` naming the element if a number liedyn reads is NaN
    or inf (MuJoCo accepts them with a printed warning)."""
    for kind, attribute, field in _NUMBERS:
        x = np.asarray(getattr(m, field))
        x = x if x.ndim == 2 else x[:, None]
        _nonfinite(label, x, lambda k, kind=kind: f"{kind} {_name(m, kind, k)!r}",
                   attribute, field)
    refs = m.qpos0[m.jnt_qposadr][:, None]
    _nonfinite(label, refs, lambda k: f"joint {_name(m, 'joint', k)!r}", "ref",
               "qpos0")
    arm = m.dof_armature[:, None]
    _nonfinite(label, arm, lambda k: f"joint {_name(m, 'joint', m.dof_jntid[k])!r}",
               "armature", "dof_armature")
    g = np.asarray(m.opt.gravity)[None]
    _nonfinite(label, g, lambda k: "<option>", "gravity", "opt.gravity")


def _nonfinite(label, x, element, attribute, field):
    bad = ~np.all(np.isfinite(x), axis=1)
    if np.any(bad):
        k = int(np.argmax(bad))
        raise MJCFError(label, element(k), f"{attribute} must be finite numbers, "
                        f"got {x[k].tolist()} (MuJoCo's compiled {field})")


def _check_free_armature(m, label):
    """Refuse armature on a free joint's translational degrees of freedom."""
    for j in np.flatnonzero(m.jnt_type == _FREE):
        a = m.dof_armature[m.jnt_dofadr[j]:m.jnt_dofadr[j] + 3]
        if np.any(a != 0):
            raise MJCFError(label, f"joint {_name(m, 'joint', j)!r}", "armature "
                            f"{a.tolist()} on the translational degrees of freedom "
                            "of a free joint: MuJoCo adds it to the world-frame "
                            "acceleration (an added mass without weight), which "
                            "liedyn's armature (a * ddq on the body twist) does "
                            "not represent; set armature=\"0\" on the free joint")


# --- what liedyn leaves out -------------------------------------------------------
def _disabled(mujoco, m, *flags):
    return any(m.opt.disableflags & int(getattr(mujoco.mjtDisableBit, f))
               for f in flags)


def _names_where(m, kind, mask):
    return [_name(m, kind, i) for i in np.flatnonzero(mask)]


def _passive(m):
    """[(text, noun, names, remedy)] of the passive forces liedyn leaves out."""
    joints = lambda dofs: [_name(m, "joint", j)
                           for j in sorted(set(m.dof_jntid[np.flatnonzero(dofs)]))]
    damped = (m.dof_damping != 0) | np.any(
        np.asarray(m.dof_dampingpoly) != 0, axis=1)
    springs = (m.jnt_stiffness != 0) | np.any(
        np.asarray(m.jnt_stiffnesspoly) != 0, axis=1)
    return [("damping of ", "joint(s)", joints(damped), "add -damping * dq to tau"),
            ("stiffness (springs to springref) of ", "joint(s)",
             _names_where(m, "joint", springs), ""),
            ("frictionloss of ", "joint(s)", joints(m.dof_frictionloss != 0), ""),
            ("gravity compensation (gravcomp) of ", "body(ies)",
             _names_where(m, "body", m.body_gravcomp != 0), "")]


def _left_out(mujoco, m):
    """[(text, remedy)] naming the elements liedyn leaves out."""
    every = lambda n: np.ones(n, bool)
    rows = [("", "actuator(s)", _names_where(m, "actuator", every(m.nu)),
             "apply their forces as tau"),
            ("", "tendon(s)", _names_where(m, "tendon", every(m.ntendon)), ""),
            ("", "equality constraint(s)", _names_where(m, "eq", every(m.neq)),
             "liedyn.constraints has loop closures"),
            ("", "flex(es)", _names_where(m, "flex", every(m.nflex)), "")]
    if not _disabled(mujoco, m, "mjDSBL_CONTACT", "mjDSBL_CONSTRAINT"):
        collide = (m.geom_contype != 0) | (m.geom_conaffinity != 0)
        rows += [("contacts of ", "geom(s)", _names_where(m, "geom", collide), ""),
                 ("", "contact pair(s)", _names_where(m, "pair", every(m.npair)),
                  "")]
    rows.append(("limits of ", "joint(s)", _names_where(m, "joint", m.jnt_limited),
                 ""))
    out = [(f"{text}{len(names)} {noun} {_few(names)}", why)
           for text, noun, names, why in rows + _passive(m) if names]
    if m.opt.density > 0 or m.opt.viscosity > 0:
        out.append((f"fluid forces (density {m.opt.density:g}, viscosity "
                    f"{m.opt.viscosity:g})", ""))
    return out


def _report(rows, label, policy):
    """Warn about (or refuse, or ignore) what :func:`_left_out` found."""
    if policy == "ignore":
        return
    for text, why in rows:
        message = (f"{text} ignored: liedyn models the rigid-body dynamics of the "
                   "tree only" + (f" ({why})" if why else ""))
        if policy == "raise":
            raise MJCFError(label, None, message + " (unsupported='warn' loads "
                            "the tree without them)")
        warnings.warn(f"MJCF {label}: {message}", MJCFWarning, stacklevel=3)


# --- the tree ---------------------------------------------------------------------
def _pose(pos, quat):
    """The homogeneous transform of a MuJoCo position and quaternion
    (w, x, y, z)."""
    q = np.asarray(quat, dtype=float)
    return make_transform(quat_to_rot(q / np.linalg.norm(q)), pos)


def _factor(m, j):
    """``(P, joint, Q)`` with MuJoCo's motion of joint ``j`` = ``P J(qpos) Q``:
    ``Trans(a) Rot(u, qpos - ref) Trans(-a)`` (hinge), ``Trans(u (qpos - ref))``
    (slide), ``Trans(a) Rot(quat) Trans(-a)`` (ball)."""
    a, u = np.array(m.jnt_pos[j]), np.array(m.jnt_axis[j])
    ref = float(m.qpos0[m.jnt_qposadr[j]])
    A, A_inv = make_transform(np.eye(3), a), make_transform(np.eye(3), -a)
    kind = int(m.jnt_type[j])
    if kind == _HINGE:
        joint = J.Revolute(u)
        return A, joint, joint.transform([-ref]) @ A_inv
    if kind == _SLIDE:
        return np.eye(4), J.Prismatic(u), make_transform(np.eye(3), -ref * u)
    return A, J.Spherical(), A_inv


def _inertia(m, b, C):
    """MuJoCo body ``b``'s 6x6 inertia in the liedyn frame ``L``, with ``C =
    T_{L, M}`` (Kim (2012), eq. (22)); None when massless."""
    mass = float(m.body_mass[b])
    R = C[:3, :3] @ quat_to_rot(m.body_iquat[b] / np.linalg.norm(m.body_iquat[b]))
    Ic = R @ np.diag(m.body_inertia[b]) @ R.T
    if mass == 0 and not np.any(Ic):
        return None
    return compose(mass, C[:3, :3] @ m.body_ipos[b] + C[:3, 3], Ic)


def _armature(m, j):
    """Joint ``j``'s armature in liedyn's order (a free joint's: angular first)."""
    nv = {_FREE: 6, _BALL: 3}.get(int(m.jnt_type[j]), 1)
    a = np.array(m.dof_armature[m.jnt_dofadr[j]:m.jnt_dofadr[j] + nv])
    return np.concatenate([a[3:], a[:3]]) if nv == 6 else a


def _add(model, m, b, names, taken):
    """Add MuJoCo body ``b`` (and the massless bodies of its extra joints)."""
    parent, C_parent = model.body_frames[names[m.body_parentid[b]]]
    joints = range(m.body_jntadr[b], m.body_jntadr[b] + m.body_jntnum[b])
    X = C_parent @ _pose(m.body_pos[b], m.body_quat[b])
    if not joints:
        chain = [(np.eye(4), J.Fixed(), np.eye(4), None)]
    elif m.jnt_type[joints[0]] == _FREE:        # alone, on a child of the world:
        X = np.eye(4)                           # qpos is the body's world pose
        chain = [(np.eye(4), J.Free(), np.eye(4), joints[0])]
    else:
        chain = [_factor(m, j) + (j,) for j in joints]
    for k, (P, joint, Q, j) in enumerate(chain):
        last = k == len(chain) - 1
        name = names[b] if last else _fresh(_name(m, "joint", j), taken)
        joint.name = None if j is None else m.joint(j).name or None
        parent = model.add_body(
            name, parent, joint, X @ P, _inertia(m, b, Q) if last else None,
            armature=0.0 if j is None else _armature(m, j))
        model.joint_names.append(joint.name)
        X = Q
    model.body_frames[names[b]] = (parent, Q)
    model.mujoco_bodies.append(parent)
    model.mujoco_com.append(Q[:3, :3] @ m.body_ipos[b] + Q[:3, 3])


def _fresh(name, taken):
    """``name``, or ``name_<k>`` if taken; recorded as taken."""
    out, k = name, 1
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


def _body_names(m):
    """The liedyn name of every MuJoCo body (``body<id>`` if unnamed; the world
    body's own name), and the set of names taken."""
    taken = {"ground"} | {m.body(b).name for b in range(1, m.nbody)}
    names = [m.body(0).name or "world"]
    for b in range(1, m.nbody):
        given = m.body(b).name
        names.append(given if given and given != "ground"
                     else _fresh(given or f"body{b}", taken))
    return names, taken


# --- geoms ------------------------------------------------------------------------
def _shapes(kind, size):
    """[(kind, size, offset along z)] drawing a MuJoCo geom, [] if not simple."""
    if kind == _SPHERE:
        return [("sphere", (size[0],), 0.0)]
    if kind == _BOX:
        return [("box", tuple(2 * size), 0.0)]
    if kind == _CYLINDER:
        return [("cylinder", (size[0], 2 * size[1]), 0.0)]
    if kind == _CAPSULE:
        return [("cylinder", (size[0], 2 * size[1]), 0.0),
                ("sphere", (size[0],), size[1]), ("sphere", (size[0],), -size[1])]
    return []


def _visuals(m, model, names):
    """The simple visible geoms (groups 0-2, not transparent) as Visual records in
    the liedyn body frames."""
    out = []
    for g in range(m.ngeom):
        b = int(m.geom_bodyid[g])
        material = m.geom_matid[g]
        rgba = m.mat_rgba[material] if material >= 0 else m.geom_rgba[g]
        if m.geom_group[g] > 2 or rgba[3] == 0:
            continue
        body, C = model.body_frames[names[b]]
        T = C @ _pose(m.geom_pos[g], m.geom_quat[g])
        for kind, size, z in _shapes(int(m.geom_type[g]), np.array(m.geom_size[g])):
            Tz = T @ make_transform(np.eye(3), [0.0, 0.0, z])
            out.append(Visual(names[b], body, Tz, kind, tuple(map(float, size)),
                              rgba=tuple(map(float, rgba))))
    return out


def _ranges(m):
    """``(q_lower, q_upper)``: the ranges of the limited hinge and slide joints."""
    lower, upper = np.full(m.nq, -np.inf), np.full(m.nq, np.inf)
    for j in np.flatnonzero(m.jnt_limited):
        if m.jnt_type[j] in (_HINGE, _SLIDE):
            k = m.jnt_qposadr[j]
            lower[k], upper[k] = m.jnt_range[j]
    return lower, upper


def _keyframes(m, model, label):
    """``{name: (q, dq)}`` of MuJoCo's keys (``key<k>`` when unnamed); a key that
    is no state (NaN, a quaternion off unit norm) raises :class:`MJCFError`."""
    out = {}
    for k in range(m.nkey):
        name = _fresh(m.key(k).name or f"key{k}", set(out))
        try:
            out[name] = from_mujoco(model, m.key_qpos[k], qvel=m.key_qvel[k])
        except ValueError as err:
            attribute = "qvel" if "'qvel'" in str(err) else "qpos"
            raise MJCFError(label, f"<key> {name!r}", str(err).replace(
                f"argument '{attribute}': ", ""), attribute) from None
    return out


def _gravity(mujoco, m):
    if _disabled(mujoco, m, "mjDSBL_GRAVITY"):
        return np.zeros(3)
    return np.array(m.opt.gravity)


def _model_name(m, source):
    name = bytes(m.names).split(b"\0", 1)[0].decode("utf-8", "replace")
    return name or (os.path.basename(source) if source else "mjcf")


def load_mjcf(path_or_xml: str | os.PathLike[str] | bytes,
              unsupported: str = "warn") -> MJCFModel:
    """Build a model from an MJCF file, compiled by MuJoCo.

    MuJoCo (``mujoco.MjModel.from_xml_path`` or ``from_xml_string``) parses and
    compiles the file; liedyn reads the compiled arrays (MuJoCo documentation,
    "API types: mjModel" and "Overview: Kinematic tree",
    https://mujoco.readthedocs.io/en/stable/overview.html#kinematic-tree): bodies in
    MuJoCo's order with their frames ``body_pos``, ``body_quat``; joints (hinge,
    slide, ball, free) about their anchors ``jnt_pos`` and axes ``jnt_axis``, moved
    by ``qpos - qpos0`` as in MuJoCo's ``mj_kinematics``; several joints on one body
    as a chain through massless bodies named after the joints; the inertias
    ``body_mass``, ``body_ipos``, ``body_iquat``, ``body_inertia`` (Kim (2012),
    eq. (22)); ``dof_armature``; ``opt.gravity``. The module docstring lists every
    choice. ``q`` is MuJoCo's ``qpos``; for hinge, slide and ball joints ``dq``,
    ``ddq`` and ``tau`` are ``qvel``, ``qacc``, ``qfrc``; free joints differ in
    velocity (MuJoCo: world-frame linear velocity first), mapped by
    :func:`~liedyn.mujoco_coordinates.from_mujoco` and
    :func:`~liedyn.mujoco_coordinates.to_mujoco`.

    Parameters
    ----------
    path_or_xml : str or os.PathLike or bytes or mujoco.MjModel
        an MJCF file name, the MJCF text itself (a string starting with ``<``), or
        a model MuJoCo has compiled already
    unsupported : {"warn", "raise", "ignore"}
        for actuators, tendons, equality constraints, contacts, joint limits and
        passive forces, which liedyn leaves out: a :class:`MJCFWarning` naming
        them, an :class:`MJCFError`, or silence

    Returns
    -------
    MJCFModel

    Raises
    ------
    ModuleNotFoundError
        without the ``mujoco`` package (``pip install liedyn[mujoco]``)
    FileNotFoundError, MJCFError
        a missing file; a file MuJoCo refuses (its message, with the line, element
        and attribute it names: a required attribute missing, a size that is not
        positive, ...), NaN or inf in a number liedyn reads (a keyframe's too),
        armature on a free joint's translation

    Examples
    --------
    >>> xml = '''<mujoco model="arm"><worldbody>
    ...   <body name="upper"><joint name="shoulder" axis="0 1 0"/>
    ...     <inertial pos="0 0 -0.5" mass="1" diaginertia="0.1 0.1 0.01"/>
    ...     <body name="lower" pos="0 0 -1"><joint name="elbow" axis="0 1 0"/>
    ...       <inertial pos="0 0 -0.5" mass="1" diaginertia="0.1 0.1 0.01"/>
    ...     </body></body></worldbody></mujoco>'''
    >>> model = load_mjcf(xml)
    >>> model.name, model.names, model.nq
    ('arm', ['ground', 'upper', 'lower'], 2)
    >>> from liedyn.inverse_dynamics import rnea
    >>> horizontal = [np.pi / 2, 0.0]      # gravity torque (0.5 + 1.5) * 9.81
    >>> rnea(model, horizontal, [0.0, 0.0], [0.0, 0.0]).round(6).tolist()
    [19.62, 4.905]
    """
    _checks.choice("unsupported", unsupported, ("warn", "raise", "ignore"))
    mujoco = _import_mujoco()
    m, label, source = _compile(mujoco, path_or_xml)
    _check_numbers(m, label)
    _check_free_armature(m, label)
    _report(_left_out(mujoco, m), label, unsupported)
    model = MJCFModel(gravity=_gravity(mujoco, m), name=_model_name(m, source))
    model.source = source
    names, taken = _body_names(m)
    model.body_frames[names[0]] = (0, np.eye(4))
    for b in range(1, m.nbody):
        _add(model, m, b, names, taken)
    model.qpos0 = np.array(m.qpos0)
    model.keyframes = _keyframes(m, model, label)
    model.q_lower, model.q_upper = _ranges(m)
    model.visuals = _visuals(m, model, names)
    return model
