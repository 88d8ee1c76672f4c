"""The checks of a URDF file before it is parsed (:func:`liedyn.urdf.load_urdf`).

yourdfpy raises ``KeyError``, fills in defaults or drops numbers where a file is
malformed; here every number the loader reads is checked (count, finite, sign,
``lower <= upper``), the nesting depth is bounded and the link/joint graph must be
one tree. Each error is a :class:`liedyn._checks.URDFError` naming the element, the
attribute and the line.
"""
import re
import xml.etree.ElementTree as ET
from collections import Counter
from types import SimpleNamespace

import numpy as np

from . import _checks

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
"""The joint types of the URDF specification, all supported."""

MAX_DEPTH = 64
"""Deepest element nesting accepted in a URDF file (real files nest about 6)."""

_INERTIA_ATTRIBUTES = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")


def bad(label, message):
    """A :class:`~liedyn._checks.URDFError` about the file as a whole."""
    return _checks.URDFError(label, None, message)


def _few(names, k=10):
    """At most ``k`` names for a message, with the total when there are more."""
    names = list(names)
    return (
        str(names) if len(names) <= k else f"{names[:k]} ... ({len(names)} in all)")


def _numbers(label, where, el, attribute, n=None, default=None):
    """The finite numbers of ``el``'s ``attribute`` (exactly ``n`` if given)."""
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
    """The line where ``<tag name="name"`` starts in the file, or None."""
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
    _check_joint_numbers(label, owner, joint)


def _check_joint_numbers(label, owner, joint):
    """The numbers of a joint's ``<limit>``, ``<mimic>`` and ``<dynamics>``."""
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
    for tag, attributes in (("mimic", ("multiplier", "offset")),
                            ("dynamics", ("damping", "friction"))):
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
    tree(SimpleNamespace(links=links, joints=joints), label, root_link)
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
                raise bad(label, f"joint {j.name!r}: {role} "
                          f"link {link!r} is not defined")
        if j.child in parent_joint:
            raise bad(label, f"link {j.child!r} is the child of two joints, "
                      f"{parent_joint[j.child].name!r} and {j.name!r}: a URDF "
                      f"describes a tree, closed loops are not supported")
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
