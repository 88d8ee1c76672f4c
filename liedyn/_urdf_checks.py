"""The checks of a URDF file before it is parsed (:func:`liedyn.urdf.load_urdf`).

yourdfpy raises ``KeyError``, fills in defaults or drops numbers where a file is
malformed; here every attribute and element the URDF specification requires is
present (the names of robot, link and joint, a joint's type, parent and child link,
``<axis xyz>``, ``<limit effort velocity>`` and the ``<limit>`` of a revolute or
prismatic joint, ``<mimic joint>``, ``<safety_controller k_velocity>``, ``<mass
value>`` and the six moments of ``<inertia>``, the ``<geometry>`` of a ``<visual>``
or ``<collision>`` with its ``<box size>``, ``<cylinder radius length>``,
``<sphere radius>`` or ``<mesh filename>``, a material's name and ``<color
rgba>``), every number is checked (count, finite, sign, ``lower <= upper``), the
nesting depth is bounded and the link/joint graph must be one tree. Each error is a
:class:`liedyn._checks.URDFError` naming the element, the attribute and the line
of the element.

>>> from liedyn.urdf import load_urdf
>>> try:
...     load_urdf('''<robot name="r">
...       <link name="a"><visual><geometry><box/></geometry></visual></link>
...     </robot>''')
... except ValueError as err:
...     print(err)
URDF string, line 2: link 'a' <visual> <box>, attribute 'size': required
attribute missing
"""
import xml.etree.ElementTree as ET
from collections import Counter
from types import SimpleNamespace
from xml.parsers import expat

import numpy as np

from . import _checks

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
"""The joint types of the URDF specification, all supported."""

MAX_DEPTH = 64
"""Deepest element nesting accepted in a URDF file (real files nest about 6)."""

_INERTIA_ATTRIBUTES = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")

GEOMETRIES = {"box": ("size",), "cylinder": ("radius", "length"),
              "sphere": ("radius",), "mesh": ()}
"""The geometries of the URDF specification and their required numbers (a mesh
requires a ``filename``)."""

_JOINT_NUMBERS = (("mimic", ("multiplier", "offset")),
                  ("dynamics", ("damping", "friction")),
                  ("calibration", ("rising", "falling")),
                  ("safety_controller", ("soft_lower_limit", "soft_upper_limit",
                                         "k_position", "k_velocity")))


def bad(label, message):
    """A :class:`~liedyn._checks.URDFError` about the file as a whole."""
    return _checks.URDFError(label, None, message)


def _few(names, k=10):
    """At most ``k`` names for a message, with the total when there are more."""
    names = list(names)
    return (
        str(names) if len(names) <= k else f"{names[:k]} ... ({len(names)} in all)")


def _error(label, where, node, message, attribute=None):
    """A :class:`~liedyn._checks.URDFError` about the element ``node`` (its line is
    added by :func:`check_xml`)."""
    error = _checks.URDFError(label, where, message, attribute)
    error.node = node
    return error


def _required(label, where, el, attribute, empty=False):
    """The value of ``el``'s required ``attribute`` (a missing one raises, an empty
    one too unless ``empty``)."""
    text = el.get(attribute)
    if text is None or not (empty or text.strip()):
        raise _error(label, where, el, "required attribute "
                     + ("missing" if text is None else "empty"), attribute)
    return text


def _child(label, where, el, tag):
    """The required child element ``<tag>`` of ``el``."""
    child = el.find(tag)
    if child is None:
        raise _error(label, where, el, f"required element <{tag}> missing")
    return child


def _numbers(label, where, el, attribute, n=None, default=None, required=False,
             minimum=None):
    """The finite numbers of ``el``'s ``attribute`` (exactly ``n`` if given; each
    ``>= minimum`` if given)."""
    text = _required(label, where, el, attribute) if required else el.get(attribute)
    if text is None:
        return default
    try:
        x = np.array([float(t) for t in text.split()])
    except ValueError:
        raise _error(label, where, el, f"expected numbers, got {text!r}",
                     attribute) from None
    if n is not None and x.size != n:
        raise _error(label, where, el, f"expected {n} numbers, got {x.size} "
                     f"({text!r})", attribute)
    if not np.all(np.isfinite(x)):
        raise _error(label, where, el, f"expected finite numbers, got {text!r}",
                     attribute)
    if minimum is not None and np.any(x < minimum):
        what, got = (("a number", f"{x[0]:g}") if x.size == 1
                     else ("numbers", repr(text)))
        raise _error(label, where, el, f"expected {what} >= {minimum:g}, got {got}",
                     attribute)
    return x


def _start_lines(data):
    """The line of every element's start tag, in document order (as
    ``root.iter()`` visits them); None where the file cannot be read again."""
    parser = expat.ParserCreate()
    lines = []
    parser.StartElementHandler = (
        lambda tag, attributes: lines.append(parser.CurrentLineNumber))
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return None
    return lines


def _line(data, root, node):
    """The line of the element ``node`` of the tree ``root`` parsed from
    ``data``."""
    lines = _start_lines(data)
    if lines is None:
        return None
    for el, line in zip(root.iter(), lines, strict=True):
        if el is node:
            return line
    return None


def _check_depth(root, label):
    stack = [(root, 1)]
    while stack:
        el, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _error(label, f"<{el.tag}>", el, f"elements nested {depth} deep; "
                         "a URDF nests a few levels (at most MAX_DEPTH = "
                         f"{MAX_DEPTH})")
        stack.extend((child, depth + 1) for child in el)


def _check_origins(label, owner, el):
    for origin in el.iter("origin"):
        for attribute in ("xyz", "rpy"):
            _numbers(label, f"{owner} <origin>", origin, attribute, 3)


def _check_material(label, owner, material):
    """A ``<material>``: a name (empty in some real files, as urdfdom allows) and
    the ``rgba`` of its ``<color>`` (a ``<texture>`` without its file, as real
    files have, is ignored: liedyn reads no textures)."""
    where = f"{owner} <material>".lstrip()
    _required(label, where, material, "name", empty=True)
    color = material.find("color")
    if color is not None:
        _numbers(label, f"{where} <color>", color, "rgba", 4, required=True)


def _check_geometry(label, owner, shape):
    """The ``<geometry>`` of a ``<visual>`` or ``<collision>`` element ``shape``:
    one of its four kinds, with its required attributes."""
    where = f"{owner} <{shape.tag}>"
    geometry = _child(label, where, shape, "geometry")
    kinds = [el for el in geometry if el.tag in GEOMETRIES]
    if not kinds:
        got = ", ".join(f"<{el.tag}>" for el in geometry) or "nothing"
        raise _error(label, f"{where} <geometry>", geometry, "expected one of "
                     f"{', '.join(f'<{g}>' for g in GEOMETRIES)}, got {got}")
    el = kinds[0]
    where = f"{where} <{el.tag}>"
    if el.tag == "mesh":
        _required(label, where, el, "filename")
        _numbers(label, where, el, "scale", 3)
    for attribute in GEOMETRIES[el.tag]:
        _numbers(label, where, el, attribute, 3 if attribute == "size" else 1,
                 required=True, minimum=0.0)


def _check_link(label, link):
    name = _required(label, "<link>", link, "name")
    owner = f"link {name!r}"
    _check_origins(label, owner, link)
    for shape in (*link.findall("visual"), *link.findall("collision")):
        _check_geometry(label, owner, shape)
        material = shape.find("material")
        if material is not None:
            _check_material(label, f"{owner} <{shape.tag}>", material)
    inertial = link.find("inertial")
    if inertial is None:
        return
    where = f"{owner} <inertial>"
    mass, inertia = (_child(label, where, inertial, "mass"),
                     _child(label, where, inertial, "inertia"))
    _numbers(label, f"{owner} <mass>", mass, "value", 1, required=True,
             minimum=0.0)
    for a in _INERTIA_ATTRIBUTES:
        _numbers(label, f"{owner} <inertia>", inertia, a, 1, required=True)


def _check_joint(label, joint):
    name = _required(label, "<joint>", joint, "name")
    owner = f"joint {name!r}"
    kind = _required(label, owner, joint, "type")
    if kind not in JOINT_TYPES:
        raise _error(label, owner, joint, f"joint {name!r} has unknown type "
                     f"{kind!r} (URDF joint types: {list(JOINT_TYPES)})", "type")
    for tag in ("parent", "child"):
        el = _child(label, owner, joint, tag)
        _required(label, f"{owner} <{tag}>", el, "link")
    _check_origins(label, owner, joint)
    axis = joint.find("axis")
    if axis is not None:
        a = _numbers(label, f"{owner} <axis>", axis, "xyz", 3, required=True)
        if kind != "fixed" and not np.any(a):
            raise _error(label, f"{owner} <axis>", axis, "the axis must be a "
                         f"finite non-zero vector, got {a.tolist()}", "xyz")
    if kind in ("revolute", "prismatic"):
        _child(label, owner, joint, "limit")
    _check_joint_numbers(label, owner, joint)


def _check_joint_numbers(label, owner, joint):
    """The attributes of a joint's ``<limit>``, ``<mimic>``, ``<dynamics>``,
    ``<calibration>`` and ``<safety_controller>``."""
    limit = joint.find("limit")
    if limit is not None:
        where = f"{owner} <limit>"
        lo, up = (_numbers(label, where, limit, a, 1) for a in ("lower", "upper"))
        if lo is not None and up is not None and lo[0] > up[0]:
            raise _error(label, where, limit, "expected lower <= upper, got "
                         f"lower = {lo[0]:g}, upper = {up[0]:g}", "lower")
        for attribute in ("effort", "velocity"):
            _numbers(label, where, limit, attribute, 1, required=True, minimum=0.0)
    mimic = joint.find("mimic")
    if mimic is not None:
        _required(label, f"{owner} <mimic>", mimic, "joint")
    safety = joint.find("safety_controller")
    if safety is not None:
        _required(label, f"{owner} <safety_controller>", safety, "k_velocity")
    for tag, attributes in _JOINT_NUMBERS:
        el = joint.find(tag)
        if el is not None:
            for attribute in attributes:
                _numbers(label, f"{owner} <{tag}>", el, attribute, 1)


def check_xml(data, label, root_link=None):
    """Check the file ``data`` before yourdfpy parses it; return its joints by name
    (records with ``name``, ``type``, ``parent``, ``child``)."""
    try:
        root = ET.fromstring(data)
    except ET.ParseError as err:
        raise _checks.URDFError(label, "<robot>", "not well-formed "
                                                  f"XML ({err})") from None
    if root.tag != "robot":
        raise _checks.URDFError(label, f"<{root.tag}>", "the root element "
                                                        "must be <robot>, "
                                f"got <{root.tag}>")
    links = [
        SimpleNamespace(name=link.get("name")) for link in root.findall("link")]
    try:
        _required(label, "<robot>", root, "name")
        _check_depth(root, label)
        for material in root.findall("material"):
            _check_material(label, "", material)
        for tag, check in (("link", _check_link), ("joint", _check_joint)):
            for el in root.findall(tag):
                check(label, el)
        joints = [
            SimpleNamespace(name=j.get("name"), type=j.get("type"),
                            parent=j.find("parent").get("link"),
                            child=j.find("child").get("link"), node=j)
            for j in root.findall("joint")]
        tree(SimpleNamespace(links=links, joints=joints), label, root_link)
    except _checks.URDFError as err:
        node = getattr(err, "node", None)
        raise _checks.URDFError(err.file, err.element, err.message, err.attribute,
                                None if node is None else _line(data, root, node)
                                ) from None
    return {j.name: j for j in joints}


def _unique(label, kind, names):
    if len(set(names)) != len(names):
        dup = sorted(n for n, c in Counter(names).items() if c > 1)
        raise bad(label, f"{kind} name(s) {dup} defined more than once")


def tree(robot, label, root):
    """Check that the link/joint graph is one tree; return (root link, child joints
    per link)."""
    links = [link.name for link in robot.links]
    _unique(label, "link", links)
    _unique(label, "joint", [j.name for j in robot.joints])
    known = set(links)
    children = {n: [] for n in links}
    parent_joint = {}
    for j in robot.joints:
        for role, link in (("parent", j.parent), ("child", j.child)):
            if link not in known:
                raise _error(label, None, getattr(j, "node", None),
                             f"joint {j.name!r}: {role} link {link!r} is not "
                             "defined")
        if j.child in parent_joint:
            raise _error(label, None, getattr(j, "node", None),
                         f"link {j.child!r} is the child of two joints, "
                         f"{parent_joint[j.child].name!r} and {j.name!r}: a URDF "
                         "describes a tree, closed loops are not supported")
        parent_joint[j.child] = j
        children[j.parent].append(j)
    roots = [n for n in links if n not in parent_joint]
    _check_reached(label, links, roots, children, parent_joint)
    return _root(label, root, roots, known, parent_joint), children


def _check_reached(label, links, roots, children, parent_joint):
    """Raise unless every link hangs from a root (else a loop closes)."""
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
        raise bad(label, f"joints {joints} form a closed loop through links "
                  f"{loop}: a URDF describes a tree")


def _root(label, root, roots, known, parent_joint):
    """The root link: the only one, or the one asked for."""
    if root is None:
        if len(roots) != 1:
            raise bad(label, f"{len(roots)} root links (links that are no joint's "
                      f"child): {_few(roots)}; a URDF describes one tree (pass "
                      f"root=... to load one of them)")
        return roots[0]
    if root not in known:
        raise ValueError(f"argument 'root': URDF {label} has no link {root!r}")
    if root in parent_joint:
        raise ValueError(f"argument 'root': link {root!r} is the child of joint "
                         f"{parent_joint[root].name!r}; the root must be a link "
                         f"without a parent (root links: {roots})")
    return root
