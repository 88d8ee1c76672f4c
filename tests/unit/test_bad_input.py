"""The catalogue of bad input: every public entry point fails loudly and names what is wrong.

One table, one row per kind of bad input: the call, the exception type it must raise, and a
regular expression that the message must contain, which names the argument the user wrote (and
the joint, for a joint's own methods; for a URDF or MJCF file, the line, element and attribute;
for a Denavit-Hartenberg table, the row and field). No row may return, hang or raise an
exception from deep inside numpy, yourdfpy or MuJoCo. The table covers models, joints and
their methods, inertias, states, chart singularities, constraints, simulation settings,
malformed or hostile URDF files and the required attributes of URDF, MJCF and DH.
"""
import re
import warnings

import numpy as np
import pytest

from liedyn import joints as J
from liedyn._checks import ChartSingularityError, DivergenceError, NonFiniteResultError, URDFError
from liedyn.constrained_derivatives import constrained_forward_partials
from liedyn.constrained_dynamics import constrained_forward, constrained_hybrid, constrained_inverse
from liedyn.constraints import LoopClosure, Pfaffian, constraint_jacobian, project
from liedyn.crba import bias_force, gravity_torque, mass_matrix
from liedyn.derivatives import aba_partials, hybrid_partials, rnea_partials
from liedyn.dh import from_dh
from liedyn.forward_dynamics import aba, inverse_mass_matrix
from liedyn.hybrid_dynamics import hybrid
from liedyn.inertia import check_inertia, spatial_inertia
from liedyn.inverse_dynamics import rnea
from liedyn.kinematics import body_jacobian, forward_kinematics, frame_jacobian
from liedyn.mjcf import MJCFError, load_mjcf
from liedyn.model import Model
from liedyn.robots import (
    double_pendulum,
    five_bar,
    four_bar,
    pendulum,
    planar_arm,
    random_tree,
    serial_chain,
    two_link_arm,
)
from liedyn.simulation import simulate
from liedyn.urdf import load_urdf

from common import joint_xml, link_xml, massless_leaf, robot_xml

I1 = spatial_inertia(1.0, [0.0, 0.0, -0.5], 0.01 * np.eye(3))


def one_body(joint):
    """A model with one body on ``joint`` (its centre of mass off the joint)."""
    m = Model()
    m.add_body("b", 0, joint, inertia=I1)
    return m


P = pendulum()                                   # nq = nv = 1
DP = double_pendulum()                           # nq = nv = 2
BALL = one_body(J.Spherical())                   # nq = 4, nv = 3
FREE = one_body(J.Free())                        # nq = 7, nv = 6
ZYX = one_body(J.SphericalZYX())
EXP = one_body(J.SphericalExp())
FOUR, LOOPS, Q4 = four_bar()
Z1, Z2 = np.zeros(1), np.zeros(2)
PFAFF = Pfaffian(lambda q: np.array([[1.0, -1.0]]), lambda q, dq: np.zeros(1), m=1)


def bad_pfaffian(A_rows=1, drift_rows=1, m=1):
    return Pfaffian(lambda q: np.ones((A_rows, 2)), lambda q, dq: np.zeros(drift_rows), m=m)


def edit(obj, fun):
    """A call that edits ``obj`` with ``fun`` (for assignments, which a lambda cannot hold)."""
    return lambda: fun(obj)


def setattr_(obj, name, value):
    setattr(obj, name, value)


def setitem(seq, key, value):
    seq[key] = value


def delitem(seq, key):
    del seq[key]


# ---------------------------------------------------------------------------------------------
# URDF builders
# ---------------------------------------------------------------------------------------------
LINK = ('<link name="{name}"><inertial><origin xyz="{com}"/><mass value="{mass}"/>'
        '<inertia ixx="{ixx}" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>')


def urdf(mass="1", com="0 0 0", ixx="1", xyz="0 0 1", rpy="0 0 0", axis="0 0 1", kind="revolute",
         limit='lower="-1" upper="1" effort="10" velocity="2"', extra=""):
    """A two-link URDF with one joint ``j`` whose parts can be spoiled one at a time."""
    return ('<robot name="r"><link name="base"/>'
            + LINK.format(name="arm", com=com, mass=mass, ixx=ixx)
            + f'<joint name="j" type="{kind}"><parent link="base"/><child link="arm"/>'
            f'<origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/><limit {limit}/>{extra}'
            '</joint></robot>')


def link(name):
    return link_xml(name, mass=None)


def hinge(name, parent, child):
    return joint_xml(name, "revolute", parent, child)


def deep(n):
    return robot_xml(link("a"), "<x>" * n + "</x>" * n)


BILLION_LAUGHS = ('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
                  + "".join(f'<!ENTITY {chr(98 + k)} "{("&" + chr(97 + k) + ";") * 10}">'
                            for k in range(8))
                  + ']><robot name="&i;"><link name="a"/></robot>')

# ---------------------------------------------------------------------------------------------
# the catalogue: (id, call, exception type, pattern the message must contain)
# ---------------------------------------------------------------------------------------------
CASES = []


def case(name, call, exc, pattern):
    CASES.append(pytest.param(call, exc, pattern, id=name))


# --- models: construction -----------------------------------------------------------------
case("Model gravity None", lambda: Model(gravity=None), TypeError, "'gravity'")
case("Model gravity str", lambda: Model(gravity="down"), TypeError, "'gravity'")
case("Model gravity bool", lambda: Model(gravity=[True, False, True]), TypeError, "'gravity'")
case("Model gravity 2-vector", lambda: Model(gravity=[0.0, -9.81]), ValueError, "'gravity'")
case("Model gravity NaN", lambda: Model(gravity=[0, 0, np.nan]), ValueError, "'gravity'")
case("Model gravity object", lambda: Model(gravity=[0, None, 1]), TypeError, "'gravity'")
case("Model name int", lambda: Model(name=3), TypeError, "'name'")
case("add_body empty name", lambda: Model().add_body("", 0, J.Revolute()), ValueError, "'name'")
case("add_body name None", lambda: Model().add_body(None, 0, J.Revolute()), ValueError, "'name'")
case("add_body duplicate name", lambda: pendulum().add_body("bob", 0, J.Revolute()), ValueError,
     "body 'bob': duplicate")
case("add_body unknown parent index", lambda: Model().add_body("x", 3, J.Revolute()),
     ValueError, "'parent'")
case("add_body unknown parent name", lambda: Model().add_body("x", "arm", J.Revolute()),
     ValueError, "'parent'.*'arm'")
case("add_body parent bool", lambda: Model().add_body("x", True, J.Revolute()), TypeError,
     "'parent'")
case("add_body parent float", lambda: Model().add_body("x", 0.0, J.Revolute()), TypeError,
     "'parent'")
case("add_body parent negative", lambda: Model().add_body("x", -1, J.Revolute()), ValueError,
     "'parent'")
case("add_body joint str", lambda: Model().add_body("x", 0, "revolute"), TypeError, "'joint'")
case("add_body joint None", lambda: Model().add_body("x", 0, None), TypeError, "'joint'")
case("add_body joint class", lambda: Model().add_body("x", 0, J.Revolute), TypeError, "'joint'")
for label, X, exc in [("3x3", np.eye(3), ValueError), ("scaled", np.diag([2.0, 1, 1, 1]),
                      ValueError), ("reflection", np.diag([-1.0, 1, 1, 1]), ValueError),
                      ("last row", np.vstack([np.eye(4)[:3], [0, 0, 1, 1]]), ValueError),
                      ("NaN", np.full((4, 4), np.nan), ValueError),
                      ("batch", np.stack([np.eye(4)] * 2), ValueError),
                      ("str", "identity", TypeError), ("bool", np.eye(4, dtype=bool), TypeError)]:
    case(f"add_body placement {label}",
         lambda X=X: Model().add_body("x", 0, J.Revolute(), placement=X), exc, "'placement")
for label, I, exc in [("3x3", np.eye(3), ValueError), ("negative mass", -I1, ValueError),
                      ("massless, not PSD", np.diag([-1.0, 1, 1, 0, 0, 0]), ValueError),
                      ("asymmetric", I1 + np.triu(np.ones((6, 6)), 1), ValueError),
                      ("not PSD", spatial_inertia(1.0, [0, 0, 0], np.eye(3)) - 2 * np.diag(
                          [1.0, 0, 0, 0, 0, 0]), ValueError),
                      ("triangle", np.diag([1.0, 1.0, 3.0, 1, 1, 1]), ValueError),
                      ("NaN", np.full((6, 6), np.nan), ValueError),
                      ("bool", np.eye(6, dtype=bool), TypeError), ("str", "heavy", TypeError)]:
    case(f"add_body inertia {label}",
         lambda I=I: Model().add_body("x", 0, J.Revolute(), inertia=I), exc, "'inertia'")

# --- models: topology is fixed after construction -------------------------------------------
case("edit parent item", edit(DP, lambda m: setitem(m.parent, 1, 2)), TypeError, "parent")
case("append parent", lambda: DP.parent.append(0), TypeError, "parent")
case("delete parent item", edit(DP, lambda m: delitem(m.parent, 1)), TypeError, "parent")
case("assign parent", edit(DP, lambda m: setattr_(m, "parent", [-1, 2, 0])), AttributeError,
     "parent")
case("edit children", lambda: DP.children[0].append(2), TypeError, "children")
case("edit joints", edit(DP, lambda m: setitem(m.joints, 1, J.Prismatic())), TypeError,
     "joints")
case("edit names", edit(DP, lambda m: setitem(m.names, 1, "x")), TypeError, "names")
case("edit q_slice", edit(DP, lambda m: setitem(m.q_slice, 1, slice(0, 2))), TypeError,
     "q_slice")
case("assign nq", edit(DP, lambda m: setattr_(m, "nq", 5)), AttributeError, "nq")
case("assign inertias list", edit(DP, lambda m: setattr_(m, "inertias", [])), AttributeError,
     "inertias")
case("append inertia", lambda: DP.inertias.append(I1), TypeError, "inertias")
case("set ground inertia", edit(DP, lambda m: setitem(m.inertias, 0, I1)), IndexError,
     "inertias")
case("set inertia non-physical", edit(DP, lambda m: setitem(m.inertias, 1, -I1)), ValueError,
     "'inertia'")
case("set placement not SE(3)", edit(DP, lambda m: setitem(m.placements, 2, np.ones((4, 4)))),
     ValueError, "'placement")
case("assign gravity 2-vector", edit(pendulum(), lambda m: setattr_(m, "gravity", [0, 1])),
     ValueError, "'gravity'")
case("assign gravity NaN", edit(pendulum(), lambda m: setattr_(m, "gravity", [0, 0, np.nan])),
     ValueError, "'gravity'")

# --- joints ---------------------------------------------------------------------------------
for kind in (J.Revolute, J.Prismatic, J.Helical):
    n = kind.__name__
    case(f"{n} axis str", lambda k=kind: k("z"), TypeError, "'axis'")
    case(f"{n} axis None", lambda k=kind: k(None), TypeError, "'axis'")
    case(f"{n} axis zero", lambda k=kind: k([0, 0, 0]), ValueError, "'axis'")
    case(f"{n} axis 2-vector", lambda k=kind: k([0, 1]), ValueError, "'axis'")
    case(f"{n} axis NaN", lambda k=kind: k([np.nan, 0, 1]), ValueError, "'axis'")
    case(f"{n} axis bool", lambda k=kind: k([True, False, False]), TypeError, "'axis'")
case("Helical pitch str", lambda: J.Helical([0, 0, 1], pitch="a"), TypeError, "'pitch'")
case("Helical pitch inf", lambda: J.Helical([0, 0, 1], pitch=np.inf), ValueError, "'pitch'")
case("Helical pitch bool", lambda: J.Helical([0, 0, 1], pitch=True), TypeError, "'pitch'")
case("Helical pitch None", lambda: J.Helical([0, 0, 1], pitch=None), TypeError, "'pitch'")
case("Screw 3-vector", lambda: J.Screw([1, 2, 3]), ValueError, "'screw'")
case("Screw zero", lambda: J.Screw(np.zeros(6)), ValueError, "'screw'")
case("Screw str", lambda: J.Screw(["a"] * 6), TypeError, "'screw'")
case("Universal parallel", lambda: J.Universal([1, 0, 0], [2, 0, 0]), ValueError, "'axis1'")
case("Universal zero axis1", lambda: J.Universal([0, 0, 0], [1, 0, 0]), ValueError, "'axis1'")
case("Universal axis2 str", lambda: J.Universal([1, 0, 0], "y"), TypeError, "'axis2'")

# --- inertias -------------------------------------------------------------------------------
C0, IC = [0.0, 0.0, 0.1], np.eye(3)
for label, mass, exc in [("tiny negative", -1e-12, ValueError), ("negative", -1.0, ValueError),
                         ("NaN", np.nan, ValueError), ("bool", True, TypeError),
                         ("str", "1", TypeError), ("None", None, TypeError)]:
    case(f"spatial_inertia mass {label}", lambda m=mass: spatial_inertia(m, C0, IC), exc,
         "'mass'")
case("spatial_inertia com 2-vector", lambda: spatial_inertia(1.0, [0, 0], IC), ValueError,
     "'com'")
case("spatial_inertia com NaN", lambda: spatial_inertia(1.0, [0, np.nan, 0], IC), ValueError,
     "'com'")
case("spatial_inertia I_com asymmetric",
     lambda: spatial_inertia(1.0, C0, IC + np.triu(np.ones((3, 3)), 1)), ValueError, "'I_com'")
case("spatial_inertia I_com negative", lambda: spatial_inertia(1.0, C0, -IC), ValueError,
     "'I_com'")
case("spatial_inertia I_com triangle", lambda: spatial_inertia(1.0, C0, np.diag([1, 1, 3.0])),
     ValueError, "'I_com'.*triangle")
case("spatial_inertia I_com vector", lambda: spatial_inertia(1.0, C0, [1, 1, 1]), ValueError,
     "'I_com'")
case("spatial_inertia R not rotation", lambda: spatial_inertia(1.0, C0, IC, R=2 * np.eye(3)),
     ValueError, "'R'")
case("spatial_inertia batches", lambda: spatial_inertia(np.ones(2), np.zeros((3, 3)), IC),
     ValueError, "'mass', 'com'")
case("check_inertia negative", lambda: check_inertia(-I1, name="I_body"), ValueError,
     "'I_body'")
MOMENT = np.zeros((6, 6))              # m = 0 with a first moment m [c]: no such link
MOMENT[:3, 3:], MOMENT[3:, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 0]], [[0, 1, 0], [-1, 0, 0],
                                                                      [0, 0, 0]]
case("check_inertia massless with a moment", lambda: check_inertia(MOMENT + np.eye(6) * [
    1, 1, 1, 0, 0, 0]), ValueError, "'I': a massless link .* no first moment")
case("check_inertia str", lambda: check_inertia("I"), TypeError, "'I'")
case("check_inertia triangle", lambda: check_inertia(np.diag([1.0, 1, 3, 1, 1, 1])),
     ValueError, "'I'.*triangle")

# --- states: every argument of inverse and forward dynamics ---------------------------------
GOOD = {"q": [0.3, -0.2], "dq": [0.1, 0.2], "ddq": [0.5, 0.0], "tau": [1.0, 0.0],
        "f_ext": np.zeros((2, 6))}
BAD = {"None": (None, TypeError), "str": ("abc", TypeError),
       "bool": (np.array([True, False]), TypeError), "object": ([None, 1.0], TypeError),
       "ragged": ([[1.0, 2.0], [3.0]], TypeError), "short": ([0.1], ValueError),
       "empty": ([], ValueError), "NaN": ([np.nan, 0.0], ValueError),
       "inf": ([0.0, np.inf], ValueError)}
for function, args in [(rnea, ("q", "dq", "ddq", "f_ext")), (aba, ("q", "dq", "tau", "f_ext"))]:
    for arg in args:
        for label, (value, exc) in BAD.items():
            if arg == "f_ext" and label == "None":
                continue                                  # the default: no external wrench
            if arg == "f_ext" and label in ("short", "empty", "NaN", "inf"):
                value = {"short": np.zeros((2, 5)), "empty": np.zeros((0, 6)),
                         "NaN": np.full((2, 6), np.nan), "inf": np.full((2, 6), np.inf)}[label]

            def call(function=function, arg=arg, value=value, args=args):
                kwargs = {a: GOOD[a] for a in args}
                kwargs[arg] = value
                return function(DP, **kwargs)
            case(f"{function.__name__} {arg} {label}", call, exc, f"'{arg}'")
case("rnea overflow", lambda: rnea(DP, Z2, [1e200, 0.0], Z2), NonFiniteResultError, "'dq'")
case("aba overflow", lambda: aba(DP, Z2, [0.0, 1e200], Z2), NonFiniteResultError, "'dq'")
case("rnea scalar q", lambda: rnea(P, 0.0, 0.0, 0.0), ValueError, "'q'")
case("rnea empty model", lambda: rnea(Model(), [1.0], [], []), ValueError, "'q'")
case("rnea f_ext with ground row", lambda: rnea(DP, Z2, Z2, Z2, np.zeros((3, 6))), ValueError,
     "'f_ext'")
case("rnea batches", lambda: rnea(DP, np.zeros((3, 2)), np.zeros((4, 2)), Z2), ValueError,
     "broadcast")
case("mass_matrix q None", lambda: mass_matrix(DP, None), TypeError, "'q'")
case("mass_matrix q bool", lambda: mass_matrix(DP, [False, True]), TypeError, "'q'")
case("mass_matrix q NaN", lambda: mass_matrix(DP, [np.nan, 0.0]), ValueError, "'q'")
case("mass_matrix q short", lambda: mass_matrix(DP, [0.0]), ValueError, "'q'")
case("bias_force dq str", lambda: bias_force(DP, Z2, "fast"), TypeError, "'dq'")
case("gravity_torque q inf", lambda: gravity_torque(DP, [np.inf, 0]), ValueError, "'q'")
case("inverse_mass_matrix q", lambda: inverse_mass_matrix(DP, [0.0, 0.0, 0.0]), ValueError,
     "'q'")
case("quaternion norm", lambda: rnea(BALL, [1.1, 0, 0, 0], np.zeros(3), np.zeros(3)),
     ValueError, "'q.*quaternion")
case("quaternion zero", lambda: aba(FREE, np.zeros(7), np.zeros(6), np.zeros(6)), ValueError,
     "'q.*quaternion")
case("hybrid prescribed short", lambda: hybrid(DP, Z2, Z2, Z2, Z2, [True]), ValueError,
     "'prescribed'")
case("hybrid prescribed ints", lambda: hybrid(DP, Z2, Z2, Z2, Z2, [1, 0]), TypeError,
     "'prescribed'")
case("hybrid prescribed str", lambda: hybrid(DP, Z2, Z2, Z2, Z2, "TF"), TypeError,
     "'prescribed'")
case("hybrid prescribed None", lambda: hybrid(DP, Z2, Z2, Z2, Z2, None), TypeError,
     "'prescribed'")
case("hybrid ddq NaN", lambda: hybrid(DP, Z2, Z2, [np.nan, 0], Z2, [True, False]), ValueError,
     "'ddq'")
case("hybrid tau bool", lambda: hybrid(DP, Z2, Z2, Z2, [True, True], [True, False]), TypeError,
     "'tau'")
case("forward_kinematics q object", lambda: forward_kinematics(DP, np.array([0, "a"], object)),
     TypeError, "'q'")
case("body_jacobian unknown body", lambda: body_jacobian(DP, Z2, "hand"), ValueError, "'hand'")
case("body_jacobian body bool", lambda: body_jacobian(DP, Z2, True), TypeError, "True")
case("frame_jacobian offset", lambda: frame_jacobian(DP, Z2, 1, offset=np.ones((4, 4))),
     ValueError, "'offset'")
case("integrate dt NaN", lambda: P.integrate(Z1, [1.0], dt=np.nan), ValueError, "'dt'")
case("integrate dt str", lambda: P.integrate(Z1, [1.0], dt="0.1"), TypeError, "'dt'")
case("integrate dt bool", lambda: P.integrate(Z1, [1.0], dt=True), TypeError, "'dt'")
case("integrate dt None", lambda: P.integrate(Z1, [1.0], dt=None), TypeError, "'dt'")
case("integrate v short", lambda: DP.integrate(Z2, [1.0]), ValueError, "'v'")
case("integrate overflow", lambda: P.integrate([1e308], [1e308], dt=10.0), NonFiniteResultError,
     "'(q|v)'")
case("difference q0 short", lambda: DP.difference([0.0], Z2), ValueError, "'q0'")
case("difference q1 NaN", lambda: DP.difference(Z2, [0, np.nan]), ValueError, "'q1'")

case("random_configuration rng", lambda: DP.random_configuration(3), TypeError, "'rng'")
case("pendulum mass", lambda: pendulum(mass=-1.0), ValueError, "'mass'")
case("serial_chain joint", lambda: serial_chain(3, joint="hinge"), ValueError, "'joint'")

# --- the ready robots, tried as a new user would ---------------------------------------------
RNG = np.random.default_rng(0)
case("double_pendulum one mass", lambda: double_pendulum(masses=(1.0,)), ValueError,
     "'masses': expected 2 numbers.*got 1")
case("double_pendulum three masses", lambda: double_pendulum(masses=(1, 2, 3)), ValueError,
     "'masses'")
case("double_pendulum lengths float", lambda: double_pendulum(lengths=1.0), TypeError,
     "'lengths': expected a sequence of 2")
case("double_pendulum masses None", lambda: double_pendulum(masses=None), TypeError, "'masses'")
case("double_pendulum negative mass", lambda: double_pendulum(masses=(1.0, -1.0)), ValueError,
     "'masses': expected numbers >= 0")
case("double_pendulum length str", lambda: double_pendulum(lengths=(1.0, "a")), TypeError,
     "'lengths'")
case("double_pendulum gravity str", lambda: double_pendulum(gravity="down"), TypeError,
     "'gravity'")
case("pendulum gravity None", lambda: pendulum(gravity=None), TypeError, "'gravity'")
case("two_link_arm one mass", lambda: two_link_arm(masses=(1.0,)), ValueError, "'masses'")
case("two_link_arm inertias NaN", lambda: two_link_arm(inertias=(0.1, np.nan)), ValueError,
     "'inertias'.*NaN")
case("random_tree negative", lambda: random_tree(-3, RNG), ValueError,
     "'n_bodies': expected a positive integer, got -3")
case("random_tree zero", lambda: random_tree(0, RNG), ValueError, "'n_bodies'")
case("random_tree fraction", lambda: random_tree(2.5, RNG), ValueError, "'n_bodies'")
case("random_tree str", lambda: random_tree("3", RNG), TypeError, "'n_bodies'")
case("random_tree bool", lambda: random_tree(True, RNG), TypeError, "'n_bodies'")
case("random_tree rng int", lambda: random_tree(3, 0), TypeError, "'rng'.*Generator")
case("random_tree joint_types str", lambda: random_tree(3, RNG, joint_types="revolute"),
     TypeError, "'joint_types'")
case("random_tree joint_types empty", lambda: random_tree(3, RNG, joint_types=[]), ValueError,
     "'joint_types'")
case("random_tree joint_types unknown", lambda: random_tree(3, RNG, joint_types=["hinge"]),
     ValueError, "'joint_types'.*'hinge'")
case("random_tree branching", lambda: random_tree(3, RNG, branching=1.5), ValueError,
     "'branching'")
case("planar_arm n bool", lambda: planar_arm(True), TypeError, "'n'")
case("planar_arm n str", lambda: planar_arm("3"), TypeError, "'n'")
case("serial_chain n None", lambda: serial_chain(None), TypeError, "'n'")
case("four_bar two lengths", lambda: four_bar(lengths=(1.0, 2.0)), ValueError,
     "'lengths': expected 4 numbers")
case("five_bar lengths NaN", lambda: five_bar(lengths=(1, 1, 1, 1, np.nan)), ValueError,
     "'lengths'")

# --- Denavit-Hartenberg tables ---------------------------------------------------------------
DH = dict(theta=0.0, d=0.1, a=0.5, alpha=0.0, mass=1.0)
case("from_dh rows None", lambda: from_dh(None), TypeError, "'rows'")
case("from_dh rows str", lambda: from_dh("theta d a alpha"), TypeError, "'rows'")
case("from_dh no rows", lambda: from_dh([]), ValueError, "'rows'.*at least one")
case("from_dh row tuple", lambda: from_dh([(0.0, 0.1, 0.5, 0.0)]), TypeError,
     r"rows\[0\]: expected a dict")
case("from_dh row short", lambda: from_dh([DH, dict(theta=0, d=0, a=0)]), ValueError,
     r"rows\[1\]: missing \['alpha'\]")
case("from_dh row unknown field", lambda: from_dh([dict(DH, offset=0.1)]), ValueError,
     r"rows\[0\].*unknown \['offset'\]")
case("from_dh joint unknown", lambda: from_dh([dict(DH, joint="ball")]), ValueError,
     r"'rows\[0\]\['joint'\]'.*'ball'")
case("from_dh d NaN", lambda: from_dh([dict(DH, d=np.nan)]), ValueError,
     r"'rows\[0\]\['d'\]'.*NaN")
case("from_dh alpha str", lambda: from_dh([dict(DH, alpha="90")]), TypeError,
     r"'rows\[0\]\['alpha'\]'")
case("from_dh negative mass", lambda: from_dh([DH, dict(DH, mass=-1.0)]), ValueError,
     r"rows\[1\]: argument 'mass'")
case("from_dh com short", lambda: from_dh([dict(DH, com=[0.0, 0.0])]), ValueError,
     r"'rows\[0\]\['com'\]'")
case("from_dh inertia five numbers", lambda: from_dh([dict(DH, inertia=[1, 1, 1, 0, 0])]),
     ValueError, r"'rows\[0\]\['inertia'\]'.*6 numbers")
case("from_dh inertia str", lambda: from_dh([dict(DH, inertia="diag")]), TypeError,
     r"'rows\[0\]\['inertia'\]'")
case("from_dh inconsistent inertia raise",
     lambda: from_dh([dict(DH, inertia=np.diag([-1.0, 1, 1]))], inertia_check="raise"),
     ValueError, r"rows\[0\].*positive semi-definite")
case("from_dh armature negative", lambda: from_dh([dict(DH, armature=-1.0)]), ValueError,
     "'armature'")
case("from_dh modified str", lambda: from_dh([DH], modified="yes"), TypeError, "'modified'")
case("from_dh inertia_check", lambda: from_dh([DH], inertia_check="maybe"), ValueError,
     "'inertia_check'")
case("from_dh gravity scalar", lambda: from_dh([DH], gravity=9.81), ValueError, "'gravity'")

# --- derivatives ----------------------------------------------------------------------------
case("rnea_partials q bool", lambda: rnea_partials(DP, [True, False], Z2, Z2), TypeError, "'q'")
case("rnea_partials dq short", lambda: rnea_partials(DP, Z2, [0.0], Z2), ValueError,
     "'dq'.*got \\(1,\\)")
case("rnea_partials f_ext", lambda: rnea_partials(DP, Z2, Z2, Z2, np.zeros(6)), ValueError,
     "'f_ext'")
case("aba_partials tau NaN", lambda: aba_partials(DP, Z2, Z2, [np.nan, 0]), ValueError, "'tau'")
E22 = np.empty((2, 2))
BUF = np.zeros((3, 2, 2))                       # dq below is a row of its first matrix
case("rnea_partials out array", lambda: rnea_partials(DP, Z2, Z2, Z2, out=np.empty((3, 2, 2))),
     TypeError, "'out': expected a tuple of 3 arrays, got ndarray")
case("rnea_partials out two", lambda: rnea_partials(DP, Z2, Z2, Z2, out=(E22, E22)), TypeError,
     "'out': expected a tuple of 3 arrays, got 2 items")
case("rnea_partials out list", lambda: rnea_partials(DP, Z2, Z2, Z2, out=(E22, [0], E22)),
     TypeError, "'out\\[1\\]': expected an array, got list")
case("rnea_partials out shape", lambda: rnea_partials(DP, Z2, Z2, Z2,
                                                      out=(E22, np.empty((1, 2, 2)), E22)),
     ValueError, "'out\\[1\\]': expected a float64 array of shape \\(2, 2\\), got a float64 "
     "array of shape \\(1, 2, 2\\)")
case("aba_partials out float32", lambda: aba_partials(DP, Z2, Z2, Z2, out=(
     E22, E22.copy(), np.empty((2, 2), np.float32))), ValueError,
     "'out\\[2\\]': expected a float64 array of shape \\(2, 2\\), got a float32")
case("aba_partials out read-only", lambda: aba_partials(DP, Z2, Z2, Z2, out=(
     np.empty((2, 2)), np.empty((2, 2)), np.broadcast_to(0.0, (2, 2)))), ValueError,
     "'out\\[2\\]': expected a writable array")
case("aba_partials out twice", lambda: aba_partials(DP, Z2, Z2, Z2, out=(E22, E22, E22)),
     ValueError, "'out\\[1\\]': expected an array of its own")
case("rnea_partials out overlaps dq", lambda: rnea_partials(DP, Z2, BUF[0, 0], Z2,
                                                            out=tuple(BUF)),
     ValueError, "'out\\[0\\]': expected an array of its own")
case("hybrid_partials prescribed", lambda: hybrid_partials(DP, Z2, Z2, Z2, Z2, "TF"), TypeError,
     "'prescribed'")
case("constrained_forward_partials single",
     lambda: constrained_forward_partials(FOUR, LOOPS[0], Q4, np.zeros(3), np.zeros(3)),
     TypeError, "'constraints'")

# --- chart singularities --------------------------------------------------------------------
LOCK = [0.3, np.pi / 2, -0.2]
case("aba ZYX gimbal lock", lambda: aba(ZYX, LOCK, np.zeros(3), np.zeros(3)),
     ChartSingularityError, "'q'.*SphericalZYX.*'b'.*Spherical \\(quaternion\\)")
case("aba ZYX near gimbal lock", lambda: aba(ZYX, [0, np.pi / 2 - 1e-8, 0], np.zeros(3),
                                             np.zeros(3)), ChartSingularityError, "'q'.*'b'")
case("aba ZYX gimbal lock batch", lambda: aba(ZYX, [[0, 0, 0], LOCK], np.zeros(3), np.zeros(3)),
     ChartSingularityError, "'q'.*batch index \\(1,\\)")
case("hybrid ZYX gimbal lock", lambda: hybrid(ZYX, LOCK, np.zeros(3), np.zeros(3),
                                              np.zeros(3), [False]),
     ChartSingularityError, "'q'.*'b'")
case("inverse_mass_matrix ZYX", lambda: inverse_mass_matrix(ZYX, LOCK), ChartSingularityError,
     "'q'.*'b'")
case("aba_partials ZYX", lambda: aba_partials(ZYX, LOCK, np.zeros(3), np.zeros(3)),
     ChartSingularityError, "'q'.*'b'")
for k, phi in [("2 pi", 2 * np.pi), ("4 pi", 4 * np.pi), ("2 pi + 1e-9", 2 * np.pi + 1e-9)]:
    case(f"aba SphericalExp |phi| = {k}",
         lambda phi=phi: aba(EXP, [0.0, phi, 0.0], np.zeros(3), np.zeros(3)),
         ChartSingularityError, "'q'.*SphericalExp.*'b'.*normali")
case("simulate from gimbal lock",
     lambda: simulate(ZYX, LOCK, [0, 1.0, 0], dt=0.01, steps=20, method="euler"),
     ChartSingularityError, "step 0 .*'b'")

# --- singular pivots: no inertia along a joint's motion --------------------------------------
ZERO_LEAF = massless_leaf(np.zeros((3, 3)))
ROUND_OFF_LEAF = massless_leaf(np.diag([0.2, 0.0, 1e-19]))    # round-off about its axis
Q3, Z3, T3 = np.array([0.3, 0.2, 0.1]), np.zeros(3), np.array([0.0, 0.0, 1.0])
for label, model in [("massless leaf", ZERO_LEAF), ("1e-19 leaf", ROUND_OFF_LEAF)]:
    case(f"aba {label}", lambda model=model: aba(model, Q3, Z3, T3), ValueError,
         "body 'tip': S\\^T I_hat S is singular")
    case(f"hybrid {label}", lambda model=model: hybrid(model, Q3, Z3, Z3, T3,
                                                        [False, True, False]),
         ValueError, "body 'tip'.*singular")
    case(f"inverse_mass_matrix {label}", lambda model=model: inverse_mass_matrix(model, Q3),
         ValueError, "body 'tip'.*singular")
    case(f"aba_partials {label}", lambda model=model: aba_partials(model, Q3, Z3, T3),
         ValueError, "body 'tip'.*singular")
    case(f"simulate {label}", lambda model=model: simulate(model, Q3, Z3, dt=0.01, steps=2),
         ValueError, "body 'tip'.*singular")

# --- constraints ----------------------------------------------------------------------------
CF = dict(q=Z2, dq=Z2, tau=Z2)
case("constraints empty", lambda: constrained_forward(DP, [], **CF), ValueError,
     "'constraints'")
case("constraints single", lambda: constrained_forward(DP, PFAFF, **CF), TypeError,
     "'constraints'.*list")
case("constraints None", lambda: constrained_forward(DP, None, **CF), TypeError,
     "'constraints'")
case("constraints str", lambda: constrained_forward(DP, ["loop"], **CF), TypeError,
     "'constraints'")
case("constraints redundant", lambda: constrained_forward(FOUR, LOOPS + LOOPS, Q4,
                                                          np.zeros(3), np.zeros(3)),
     ValueError, "'constraints'.*singular")
case("constraint_jacobian single", lambda: constraint_jacobian(FOUR, LOOPS[0], Q4), TypeError,
     "'constraints'")
case("Pfaffian A not callable", lambda: Pfaffian("A", lambda q, dq: 0, m=1), TypeError, "'A'")
case("Pfaffian drift None", lambda: Pfaffian(lambda q: 0, None, m=1), TypeError, "'drift'")
case("Pfaffian m zero", lambda: Pfaffian(lambda q: 0, lambda q, dq: 0, m=0), ValueError, "'m'")
case("Pfaffian m float", lambda: Pfaffian(lambda q: 0, lambda q, dq: 0, m=1.5), TypeError,
     "'m'")
case("Pfaffian m bool", lambda: Pfaffian(lambda q: 0, lambda q, dq: 0, m=True), TypeError,
     "'m'")
case("Pfaffian residual int", lambda: Pfaffian(lambda q: 0, lambda q, dq: 0, m=1, residual=3),
     TypeError, "'residual'")
case("Pfaffian wrong m", lambda: constrained_forward(DP, [bad_pfaffian(m=2)], **CF,
                                                     velocity_tol=None), ValueError, "'A'")
case("Pfaffian wrong drift", lambda: constrained_forward(DP, [bad_pfaffian(drift_rows=3)], **CF,
                                                         velocity_tol=None), ValueError,
     "'drift'")
case("LoopClosure unknown axis", lambda: LoopClosure(1, 2, axes=["wq"]), ValueError, "'axes'")
case("LoopClosure repeated axis", lambda: LoopClosure(1, 2, axes=["wx", 0]), ValueError,
     "'axes'")
case("LoopClosure no axes", lambda: LoopClosure(1, 2, axes=[]), ValueError, "'axes'")
case("LoopClosure axes str", lambda: LoopClosure(1, 2, axes="wx"), TypeError, "'axes'")
case("LoopClosure axes bool", lambda: LoopClosure(1, 2, axes=[True]), ValueError, "'axes'")
case("LoopClosure same body", lambda: LoopClosure(2, 2), ValueError, "'body_a'")
case("LoopClosure body bool", lambda: LoopClosure(True, 2), TypeError, "'body_a'")
case("LoopClosure body list", lambda: LoopClosure(1, [2]), TypeError, "'body_b'")
case("LoopClosure frame", lambda: LoopClosure(1, 2, frame_a=np.ones((4, 4))), ValueError,
     "'frame_a'")
case("LoopClosure unknown body", lambda: constraint_jacobian(FOUR, [LoopClosure(1, "ghost")],
                                                             Q4), ValueError, "'ghost'")
case("velocity inconsistent", lambda: constrained_forward(FOUR, LOOPS, Q4, [1.0, 0, 0],
                                                          np.zeros(3)), ValueError, "'dq'")
case("baumgarte one gain", lambda: constrained_forward(FOUR, LOOPS, Q4, np.zeros(3),
                                                       np.zeros(3), baumgarte=(1.0,)),
     ValueError, "'baumgarte'")
case("baumgarte negative", lambda: constrained_forward(FOUR, LOOPS, Q4, np.zeros(3),
                                                       np.zeros(3), baumgarte=(-1.0, 1.0)),
     ValueError, "'baumgarte'")
case("baumgarte str", lambda: constrained_forward(FOUR, LOOPS, Q4, np.zeros(3), np.zeros(3),
                                                  baumgarte="ab"), TypeError, "'baumgarte'")
case("velocity_tol negative", lambda: constrained_forward(FOUR, LOOPS, Q4, np.zeros(3),
                                                          np.zeros(3), velocity_tol=-1.0),
     ValueError, "'velocity_tol'")
case("constrained_inverse actuated", lambda: constrained_inverse(
    FOUR, LOOPS, Q4, np.zeros(3), np.zeros(3), [True]), ValueError, "'actuated'")
case("constrained_inverse objective", lambda: constrained_inverse(
    FOUR, LOOPS, Q4, np.zeros(3), np.zeros(3), [True, False, False], objective="least"),
     ValueError, "'objective'")
case("constrained_hybrid prescribed", lambda: constrained_hybrid(
    FOUR, LOOPS, Q4, np.zeros(3), np.zeros(3), np.zeros(3), [1, 0, 0]), ValueError,
     "'prescribed'")
case("project tol", lambda: project(FOUR, LOOPS, Q4, tol=0.0), ValueError, "'tol'")
case("project max_iter", lambda: project(FOUR, LOOPS, Q4, max_iter=2.5), TypeError,
     "'max_iter'")

# --- simulation settings --------------------------------------------------------------------
for label, dt, exc in [("zero", 0.0, ValueError), ("negative", -0.1, ValueError),
                       ("NaN", np.nan, ValueError), ("inf", np.inf, ValueError),
                       ("str", "0.1", TypeError), ("bool", True, TypeError),
                       ("None", None, TypeError)]:
    case(f"simulate dt {label}", lambda dt=dt: simulate(P, [1.0], [0.0], dt=dt, steps=5), exc,
         "'dt'")
for label, kwargs, exc, name in [
        ("steps zero", dict(steps=0), ValueError, "steps"),
        ("steps negative", dict(steps=-3), ValueError, "steps"),
        ("steps float", dict(steps=2.5), TypeError, "steps"),
        ("steps bool", dict(steps=True), TypeError, "steps"),
        ("steps and duration", dict(steps=3, duration=1.0), ValueError, "steps"),
        ("neither steps nor duration", dict(), ValueError, "duration"),
        ("duration NaN", dict(duration=np.nan), ValueError, "duration"),
        ("duration str", dict(duration="1"), TypeError, "duration"),
        ("duration below half a step", dict(duration=1e-4), ValueError, "duration"),
        ("method unknown", dict(steps=2, method="rk5"), ValueError, "method"),
        ("method None", dict(steps=2, method=None), ValueError, "method"),
        ("control shape", dict(steps=3, control=np.zeros((3, 2))), ValueError, "control"),
        ("control str", dict(steps=3, control="pd"), TypeError, "control"),
        ("control NaN", dict(steps=3, control=np.full((3, 1), np.nan)), ValueError, "control"),
        ("control callable shape", dict(steps=3, control=lambda t, q, dq: np.zeros(4)),
         ValueError, "control"),
        ("control callable NaN", dict(steps=3, control=lambda t, q, dq: [np.nan]),
         DivergenceError, "control"),
        ("f_ext shape", dict(steps=3, f_ext=np.zeros((2, 6))), ValueError, "f_ext"),
        ("f_ext callable shape", dict(steps=3, f_ext=lambda t, q, dq: np.zeros(6)), ValueError,
         "f_ext")]:
    case(f"simulate {label}", lambda kw=kwargs: simulate(P, [1.0], [0.0], dt=0.01, **kw), exc,
         name)
case("simulate q0 short", lambda: simulate(DP, [1.0], Z2, 0.01, steps=2), ValueError, "'q0'")
case("simulate dq0 NaN", lambda: simulate(P, [1.0], [np.nan], 0.01, steps=2), ValueError,
     "'dq0'")
case("simulate diverges (energy)", lambda: simulate(P, [1.0], [0.0], dt=1e3, steps=50),
     DivergenceError, "step \\d+ .*smaller dt")
case("simulate diverges (euler)", lambda: simulate(DP, [1.0, 0.5], Z2, dt=0.5, steps=400,
                                                   method="euler"),
     DivergenceError, "step \\d+.*smaller dt")

# --- URDF: arguments ------------------------------------------------------------------------
for label, value in [("str", "no"), ("int", 1), ("None", None)]:
    case(f"load_urdf floating_base {label}",
         lambda v=value: load_urdf(urdf(), floating_base=v), TypeError, "'floating_base'")
case("load_urdf inertia_check", lambda: load_urdf(urdf(), inertia_check="maybe"), ValueError,
     "'inertia_check'")
case("load_urdf root int", lambda: load_urdf(urdf(), root=3), TypeError, "'root'")
case("load_urdf root unknown", lambda: load_urdf(urdf(), root="zz"), ValueError, "'root'")
case("load_urdf locked str", lambda: load_urdf(urdf(), locked_joints="j"), TypeError,
     "'locked_joints'")
case("load_urdf locked value", lambda: load_urdf(urdf(), locked_joints={"j": "a"}), ValueError,
     "'locked_joints'")
case("load_urdf locked unknown", lambda: load_urdf(urdf(), locked_joints=["nope"]), ValueError,
     "'locked_joints'")
case("load_urdf None", lambda: load_urdf(None), TypeError, "'path_or_xml'")
case("load_urdf int", lambda: load_urdf(3), TypeError, "'path_or_xml'")
case("load_urdf missing file", lambda: load_urdf("/no/such/robot.urdf"), FileNotFoundError,
     "robot.urdf")

# --- URDF: malformed elements and attributes ------------------------------------------------
U = URDFError
for label, kwargs, pattern in [
        ("origin xyz 4 numbers", dict(xyz="1 2 3 4"), "joint 'j' <origin>, attribute 'xyz'"),
        ("origin xyz 2 numbers", dict(xyz="1 2"), "joint 'j' <origin>, attribute 'xyz'"),
        ("origin xyz word", dict(xyz="1 two 3"), "joint 'j' <origin>, attribute 'xyz'"),
        ("origin xyz empty", dict(xyz=""), "joint 'j' <origin>, attribute 'xyz'"),
        ("origin rpy NaN", dict(rpy="0 nan 0"), "joint 'j' <origin>, attribute 'rpy'"),
        ("origin rpy inf", dict(rpy="inf 0 0"), "joint 'j' <origin>, attribute 'rpy'"),
        ("inertial origin", dict(com="0 0"), "link 'arm' <origin>, attribute 'xyz'"),
        ("axis zero", dict(axis="0 0 0"), "joint 'j' <axis>, attribute 'xyz'"),
        ("axis 2 numbers", dict(axis="1 0"), "joint 'j' <axis>, attribute 'xyz'"),
        ("limit lower > upper", dict(limit='lower="1" upper="-1"'),
         "joint 'j' <limit>, attribute 'lower'"),
        ("limit effort negative", dict(limit='effort="-1" velocity="1"'),
         "joint 'j' <limit>, attribute 'effort'"),
        ("limit velocity negative", dict(limit='effort="1" velocity="-2"'),
         "joint 'j' <limit>, attribute 'velocity'"),
        ("limit lower word", dict(limit='lower="low" upper="1"'),
         "joint 'j' <limit>, attribute 'lower'"),
        ("limit upper inf", dict(limit='lower="0" upper="inf"'),
         "joint 'j' <limit>, attribute 'upper'"),
        ("mass word", dict(mass="abc"), "link 'arm' <mass>, attribute 'value'"),
        ("mass negative", dict(mass="-1"), "link 'arm'.*attribute 'value'"),
        ("mass NaN", dict(mass="nan"), "link 'arm' <mass>, attribute 'value'"),
        ("mass two numbers", dict(mass="1 2"), "link 'arm' <mass>, attribute 'value'"),
        ("inertia word", dict(ixx="x"), "link 'arm' <inertia>, attribute 'ixx'"),
        ("joint type", dict(kind="hinge"), "joint 'j', attribute 'type'"),
        ("mimic multiplier", dict(extra='<mimic joint="j" multiplier="two"/>'),
         "joint 'j' <mimic>, attribute 'multiplier'"),
        ("dynamics damping", dict(extra='<dynamics damping="much"/>'),
         "joint 'j' <dynamics>, attribute 'damping'"),
        ("huge attribute", dict(xyz="1 " * 200_000), "joint 'j' <origin>, attribute 'xyz'")]:
    case(f"URDF {label}", lambda kw=kwargs: load_urdf(urdf(**kw)), U, pattern)
case("URDF line number", lambda: load_urdf(urdf(mass="abc").replace("<link", "\n<link")), U,
     "URDF string, line 3: link 'arm' <mass>, attribute 'value'")
for label, xml, pattern in [
    ("not XML", "<robot name='x'><link name='a'></robot>", "not well-formed"),
    ("root element", "<model name='x'/>", "<model>"),
    ("robot name", "<robot><link name='a'/></robot>", "<robot>, attribute 'name'"),
    ("link name", robot_xml("<link/>"), "<link>, attribute 'name'"),
    (
        "joint no parent",
        robot_xml(
            link("a"), link("b"), '<joint name="j" type="fixed">' '<child link="b"/></joint>'
        ),
        "joint 'j'.*<parent",
    ),
    ("undefined link", robot_xml(link("a"), hinge("j", "a", "ghost")), "'ghost'"),
    ("duplicate link", robot_xml(link("a"), link("a")), "\\['a'\\] defined more than once"),
    (
        "two parents",
        robot_xml(
            link("a"),
            link("b"),
            link("c"),
            hinge("j1", "a", "b"),
            hinge("j2", "a", "c"),
            hinge("j3", "c", "b"),
        ),
        "link 'b' is the child of two joints",
    ),
    (
        "loop",
        robot_xml(link("a"), link("b"), link("c"), hinge("j1", "b", "c"), hinge("j2", "c", "b")),
        "closed loop",
    ),
    ("two roots", robot_xml(link("a"), link("b")), "2 root links"),
    ("deep nesting", deep(10_000), "<x>: elements nested 65 deep"),
    ("billion laughs", BILLION_LAUGHS, "not well-formed"),
    (
        "huge: 20000 root links",
        robot_xml(*[link(f"l{k}") for k in range(20_000)]),
        "20000 root links.*in all",
    ),
    ("huge: 5 MB of padding", robot_xml(link("a"), " " * 5_000_000, link("b")), "2 root links"),
]:
    case(f"URDF {label}", lambda xml=xml: load_urdf(xml), U, pattern)


# =============================================================================================
# joints' own methods, and the readers' required attributes (URDF, MJCF, DH)
# =============================================================================================
JOINT_TYPES = [J.Revolute([0, 0, 1]), J.Prismatic([1, 0, 0]), J.Helical([0, 0, 1], 0.1),
               J.Screw([0, 0, 1, 0, -1, 0]), J.Universal(), J.Planar(), J.Spherical(),
               J.SphericalZYX(), J.SphericalExp(), J.Free(), J.Fixed()]
for _joint in JOINT_TYPES:                      # each on a body named after its type
    Model().add_body(f"on_{type(_joint).__name__}", 0, _joint)
JOINT_METHODS = {"transform": ("q",), "motion": ("q",), "S": ("q",), "dS": ("q", "dq"),
                 "d2S": ("q", "a", "b"), "integrate": ("q", "v"), "difference": ("q0", "q1"),
                 "chart_distance": ("q",), "normalize": ("q", "dq"), "check_q": ("q",)}


def joint_arguments(joint, names):
    """Good arguments ``names`` of a joint method: the neutral configuration, zero rates."""
    return {a: joint.neutral() if a in ("q", "q0", "q1") else np.zeros(joint.nv)
            for a in names}


def joint_call(joint, method, arg, value):
    """``joint.method(...)`` with argument ``arg`` replaced by ``value``."""
    def call():
        kwargs = joint_arguments(joint, JOINT_METHODS[method])
        kwargs[arg] = value
        return getattr(joint, method)(*kwargs.values())
    return call


def spoiled(joint, arg, bad):
    """The good value of ``arg`` with its last entry ``bad``."""
    value = joint_arguments(joint, [arg])[arg].copy()
    value[-1] = bad
    return value


def two_bodies_one_joint():
    m, joint = Model(), J.Revolute()
    m.add_body("a", 0, joint)
    m.add_body("b", 1, joint)
    return m


for joint in JOINT_TYPES[:-1]:                  # a Fixed joint has no coordinate to spoil
    kind = type(joint).__name__
    for method, names in JOINT_METHODS.items():
        for arg in names:
            for label, bad in (("NaN", np.nan), ("inf", np.inf)):
                value = spoiled(joint, arg, bad)
                case(f"{kind}.{method} {arg} {label}", joint_call(joint, method, arg, value),
                     ValueError, rf"^{kind} joint of body 'on_{kind}': argument '{arg}': "
                     rf"contains NaN or inf \(expected finite numbers, got {bad} at index "
                     rf"\({value.size - 1},\)\)$")
case("Revolute.integrate dt NaN", lambda: J.Revolute().integrate([0.0], [1.0], np.nan),
     ValueError, r"^Revolute joint: argument 'dt': contains NaN or inf")
case("Spherical.integrate dt inf", lambda: J.Spherical().integrate(
    [1.0, 0, 0, 0], np.zeros(3), dt=-np.inf), ValueError, "Spherical joint: argument 'dt'")
case("Revolute.S q None", lambda: J.Revolute().S(None), TypeError,
     r"Revolute joint: argument 'q': expected an array of shape \(\.\.\., 1\), got None")
case("Revolute.transform scalar q", lambda: J.Revolute().transform(0.3), ValueError,
     r"Revolute joint: argument 'q': expected shape \(\.\.\., 1\), got \(\)")
case("Universal.dS dq short", lambda: J.Universal().dS(Z2, [1.0]), ValueError,
     r"Universal joint: argument 'dq': expected shape \(\.\.\., 2\), got \(1,\)")
case("Planar.d2S b str", lambda: J.Planar().d2S(np.zeros(3), np.zeros(3), "abc"), TypeError,
     "Planar joint: argument 'b'")
case("Fixed.transform q of one", lambda: J.Fixed().transform([0.0]), ValueError,
     r"Fixed joint: argument 'q': expected shape \(\.\.\., 0\), got \(1,\)")
case("Spherical.transform zero quaternion", lambda: J.Spherical().transform(np.zeros(4)),
     ValueError, "Spherical joint: argument 'q': quaternion .* unit norm")
case("Free.integrate quaternion off unit norm", lambda: J.Free().integrate(
    [0, 0, 0, 2.0, 0, 0, 0], np.zeros(6)), ValueError,
     r"Free joint: argument 'q \(quaternion part\)': quaternion")
case("Free.check_q named", lambda: J.Free().check_q(np.zeros(7), "pose"), ValueError,
     r"Free joint: argument 'pose \(quaternion part\)'")
case("Revolute.random rng int", lambda: J.Revolute().random(3), TypeError,
     "Revolute joint: argument 'rng': expected a numpy Generator")
case("URDF joint named", lambda: load_urdf(urdf()).joints[1].S([np.nan]), ValueError,
     r"^Revolute joint 'j' of body 'arm': argument 'q': contains NaN")
case("joint of two bodies", lambda: two_bodies_one_joint().joints[1].S([np.inf]), ValueError,
     r"^Revolute joint of bodies 'a', 'b': argument 'q'")


# --- URDF: every required attribute and element, with its line ------------------------------
def numbered(*elements):
    """A robot whose k-th element starts on line k + 1 (the <robot> tag is on line 1)."""
    return robot_xml(*("\n" + e for e in elements))


BASE, ARM = link_xml("base", mass=None), link_xml("arm")
HINGE = joint_xml("j", "revolute", "base", "arm")


def with_visual(geometry, material="", kind="visual"):
    """A robot whose link 'shape' (line 4) has one <visual> (or <collision>)."""
    return numbered(BASE, ARM, f'<link name="shape"><{kind}><geometry>{geometry}</geometry>'
                    f'{material}</{kind}></link>', HINGE,
                    joint_xml("weld", "fixed", "arm", "shape"))


MISSING = "required attribute missing"
for label, xml, pattern in [
        ("robot name", numbered(BASE).replace(' name="test"', ""),
         f"line 1: <robot>, attribute 'name': {MISSING}"),
        ("link name", numbered(BASE, "<link/>"), f"line 3: <link>, attribute 'name': {MISSING}"),
        ("link name empty", numbered(BASE, '<link name=""/>'),
         "line 3: <link>, attribute 'name': required attribute empty"),
        ("joint name", numbered(BASE, ARM, HINGE.replace(' name="j"', "")),
         f"line 4: <joint>, attribute 'name': {MISSING}"),
        ("joint type", numbered(BASE, ARM, HINGE.replace(' type="revolute"', "")),
         f"line 4: joint 'j', attribute 'type': {MISSING}"),
        ("joint parent link", numbered(BASE, ARM, HINGE.replace('<parent link="base"/>',
                                                                "<parent/>")),
         f"line 4: joint 'j' <parent>, attribute 'link': {MISSING}"),
        ("joint child link", numbered(BASE, ARM, HINGE.replace('<child link="arm"/>',
                                                               "<child/>")),
         f"line 4: joint 'j' <child>, attribute 'link': {MISSING}"),
        ("joint parent element", numbered(BASE, ARM, HINGE.replace('<parent link="base"/>', "")),
         "line 4: joint 'j': required element <parent> missing"),
        ("joint child element", numbered(BASE, ARM, HINGE.replace('<child link="arm"/>', "")),
         "line 4: joint 'j': required element <child> missing"),
        ("axis xyz", numbered(BASE, ARM, HINGE.replace('<axis xyz="0 0 1"/>', "<axis/>")),
         f"line 4: joint 'j' <axis>, attribute 'xyz': {MISSING}"),
        ("limit effort", numbered(BASE, ARM, HINGE.replace(' effort="10"', "")),
         f"line 4: joint 'j' <limit>, attribute 'effort': {MISSING}"),
        ("limit velocity", numbered(BASE, ARM, HINGE.replace(' velocity="2"', "")),
         f"line 4: joint 'j' <limit>, attribute 'velocity': {MISSING}"),
        ("revolute without limit", numbered(BASE, ARM, joint_xml("j", "continuous", "base",
                                                                 "arm").replace(
                                                                     "continuous", "revolute")),
         "line 4: joint 'j': required element <limit> missing"),
        ("prismatic without limit", numbered(BASE, ARM, joint_xml("j", "continuous", "base",
                                                                  "arm").replace(
                                                                      "continuous",
                                                                      "prismatic")),
         "line 4: joint 'j': required element <limit> missing"),
        ("mimic joint", numbered(BASE, ARM, joint_xml("j", "revolute", "base", "arm",
                                                      extra='<mimic multiplier="2"/>')),
         f"line 4: joint 'j' <mimic>, attribute 'joint': {MISSING}"),
        ("safety_controller k_velocity", numbered(
            BASE, ARM, joint_xml("j", "revolute", "base", "arm",
                                 extra='<safety_controller k_position="1"/>')),
         f"line 4: joint 'j' <safety_controller>, attribute 'k_velocity': {MISSING}"),
        ("inertial mass element", numbered(BASE, ARM.replace('<mass value="1.0"/>', ""), HINGE),
         "line 3: link 'arm' <inertial>: required element <mass> missing"),
        ("inertial mass value", numbered(BASE, ARM.replace('<mass value="1.0"/>', "<mass/>"),
                                         HINGE),
         f"line 3: link 'arm' <mass>, attribute 'value': {MISSING}"),
        ("inertial inertia element", numbered(BASE, ARM.split("<inertia ")[0]
                                              + "</inertial></link>", HINGE),
         "line 3: link 'arm' <inertial>: required element <inertia> missing"),
        *[(f"inertia {a}", numbered(BASE, ARM.replace(f' {a}="', f' x{a}="'), HINGE),
           f"line 3: link 'arm' <inertia>, attribute '{a}': {MISSING}")
          for a in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")],
        ("visual geometry element", numbered(BASE, '<link name="arm"><visual/></link>', HINGE),
         "line 3: link 'arm' <visual>: required element <geometry> missing"),
        ("collision geometry element", numbered(BASE, '<link name="arm"><collision/></link>',
                                                HINGE),
         "line 3: link 'arm' <collision>: required element <geometry> missing"),
        ("geometry empty", with_visual(""),
         "line 4: link 'shape' <visual> <geometry>: expected one of <box>, <cylinder>, "
         "<sphere>, <mesh>, got nothing"),
        ("geometry unknown", with_visual('<capsule radius="1" length="1"/>'),
         "line 4: link 'shape' <visual> <geometry>: expected one of .* got <capsule>"),
        ("box size", with_visual("<box/>"),
         f"line 4: link 'shape' <visual> <box>, attribute 'size': {MISSING}"),
        ("box size 2 numbers", with_visual('<box size="1 1"/>'),
         "line 4: link 'shape' <visual> <box>, attribute 'size': expected 3 numbers"),
        ("cylinder radius", with_visual('<cylinder length="1"/>'),
         f"line 4: link 'shape' <visual> <cylinder>, attribute 'radius': {MISSING}"),
        ("cylinder length", with_visual('<cylinder radius="1"/>'),
         f"line 4: link 'shape' <visual> <cylinder>, attribute 'length': {MISSING}"),
        ("sphere radius", with_visual("<sphere/>"),
         f"line 4: link 'shape' <visual> <sphere>, attribute 'radius': {MISSING}"),
        ("sphere radius negative", with_visual('<sphere radius="-1"/>'),
         "line 4: link 'shape' <visual> <sphere>, attribute 'radius': expected a number >= 0"),
        ("mesh filename", with_visual('<mesh scale="1 1 1"/>'),
         f"line 4: link 'shape' <visual> <mesh>, attribute 'filename': {MISSING}"),
        ("mesh scale 2 numbers", with_visual('<mesh filename="a.stl" scale="1 1"/>'),
         "line 4: link 'shape' <visual> <mesh>, attribute 'scale': expected 3 numbers"),
        ("collision box size", with_visual("<box/>", kind="collision"),
         f"line 4: link 'shape' <collision> <box>, attribute 'size': {MISSING}"),
        ("visual material name", with_visual('<sphere radius="1"/>', "<material/>"),
         f"line 4: link 'shape' <visual> <material>, attribute 'name': {MISSING}"),
        ("visual color rgba", with_visual('<sphere radius="1"/>',
                                          '<material name="m"><color/></material>'),
         f"line 4: link 'shape' <visual> <material> <color>, attribute 'rgba': {MISSING}"),
        ("color rgba 3 numbers", with_visual('<sphere radius="1"/>',
                                             '<material name="m"><color rgba="1 0 0"/>'
                                             '</material>'),
         "line 4: .* <color>, attribute 'rgba': expected 4 numbers"),
        ("robot material name", numbered('<material><color rgba="1 0 0 1"/></material>', BASE),
         f"line 2: <material>, attribute 'name': {MISSING}"),
        ("undefined link line", numbered(BASE, hinge("j", "base", "ghost")),
         "line 3: joint 'j': child link 'ghost' is not defined")]:
    case(f"URDF missing {label}", lambda xml=xml: load_urdf(xml), U, f"^URDF string, {pattern}")

# --- MJCF: MuJoCo's required attributes and the compiled model's numbers ----------------------
def mjcf(inertial='pos="0 0 0" mass="1" diaginertia="1 1 1"', joint="", geom="", extra=""):
    """A one-body MJCF file: <body> on line 3, its <joint> on 4, <inertial> on 5, a geom on 6."""
    return ("<mujoco>\n<worldbody>\n<body name='b'>\n"
            f"<joint name='j' {joint}/>\n<inertial {inertial}/>\n{geom}\n"
            f"</body></worldbody>{extra}</mujoco>")


def load_mjcf_quietly(xml):
    """``load_mjcf`` without MuJoCo's notices (warnings) about NaN in a file."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_mjcf(xml)


COMPILE = "MuJoCo could not compile it"
for label, xml, pattern in [
        ("inertial mass", mjcf(inertial='pos="0 0 0" diaginertia="1 1 1"'),
         rf"line 5: <inertial>, attribute 'mass': {COMPILE} \(XML Error: required attribute "
         r"missing: 'mass'\)$"),
        ("inertial pos", mjcf(inertial='mass="1" diaginertia="1 1 1"'),
         f"line 5: <inertial>, attribute 'pos': {COMPILE} .*required attribute missing"),
        ("inertial fullinertia short", mjcf(inertial='pos="0 0 0" mass="1" fullinertia="1 1"'),
         f"line 5: <inertial>, attribute 'fullinertia': {COMPILE} .*not have enough data"),
        ("body pos word", mjcf().replace("name='b'", "name='b' pos='0 0 x'"),
         f"line 3: <body>, attribute 'pos': {COMPILE} .*bad format"),
        ("joint type", mjcf(joint="type='revolute'"),
         rf"line 4: <joint>: {COMPILE} .*invalid keyword: 'revolute'.*\(MJCF joint types"),
        ("joint range of a limited joint", mjcf(joint="limited='true'"),
         rf"line 4: <joint> 'j', attribute 'range': {COMPILE} .*range\[0\] should be smaller"),
        ("joint axis zero", mjcf(joint="axis='0 0 0'"),
         f"line 4: <joint> 'j': {COMPILE} .*axis too small"),
        ("box size", mjcf(geom="<geom name='g' type='box' size='1'/>"),
         f"line 6: <geom> 'g', attribute 'size': {COMPILE} .*size 1 must be positive"),
        ("sphere size", mjcf(geom="<geom type='sphere'/>"),
         f"line 6: <geom>, attribute 'size': {COMPILE} .*size 0 must be positive"),
        ("capsule size", mjcf(geom="<geom type='capsule' size='0.1'/>"),
         f"line 6: <geom>, attribute 'size': {COMPILE} .*size 1 must be positive"),
        ("mesh geom without mesh", mjcf(geom="<geom type='mesh'/>"),
         f"line 6: <geom>: {COMPILE} .*must have valid meshid"),
        ("include file", mjcf(extra="<include/>"),
         f"line 7: <include>, attribute 'file': {COMPILE}"),
        ("massless moving body", mjcf(inertial='pos="0 0 0" mass="0" diaginertia="0 0 0"'),
         f"line 3: element 'b': {COMPILE} .*mass and inertia of moving bodies"),
        ("parse error", "<mujoco>\n<worldbody><body></worldbody></mujoco>",
         f"line 2: <body>: {COMPILE} .*MISMATCHED_ELEMENT"),
        ("motor without joint", mjcf(extra="<actuator><motor name='m'/></actuator>"),
         f"line 7: element 'm': {COMPILE} .*missing transmission target")]:
    case(f"MJCF {label}", lambda xml=xml: load_mjcf_quietly(xml), MJCFError,
         f"^MJCF string, {pattern}")
for label, key, pattern in [
        ("key qpos size", "qpos='1 2'", f"element 'k': {COMPILE} .*invalid qpos size"),
        ("key qpos NaN", "qpos='nan'", "<key> 'k', attribute 'qpos': contains NaN or inf"),
        ("key qvel inf", "qvel='inf'", "<key> 'k', attribute 'qvel': contains NaN or inf")]:
    case(f"MJCF {label}", lambda key=key: load_mjcf_quietly(
        mjcf(extra=f"<keyframe><key name='k' {key}/></keyframe>")), MJCFError,
         f"^MJCF string: {pattern}")


# --- Denavit-Hartenberg rows: every required field, by row and field -------------------------
for field in ("theta", "d", "a", "alpha"):
    row = {k: v for k, v in DH.items() if k != field}
    case(f"from_dh row without {field}", lambda row=row: from_dh([DH, row]), ValueError,
         rf"^rows\[1\]: missing \['{field}'\] field\(s\); expected the keys \('theta', 'd', "
         r"'a', 'alpha'\) \(required\)")
    case(f"from_dh row {field} None", lambda field=field: from_dh([dict(DH, **{field: None})]),
         TypeError, rf"argument 'rows\[0\]\['{field}'\]': expected an array .* got None")
case("from_dh row without two fields and with an unknown one",
     lambda: from_dh([dict(a=0.5, alpha=0.0, offset=1.0)]), ValueError,
     r"^rows\[0\]: missing \['theta', 'd'\], unknown \['offset'\] field\(s\)")


def test_catalogue_is_large():
    """The errors appendix says "more than seven hundred" rows."""
    assert len(CASES) > 700, len(CASES)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("call, exc, pattern", CASES)
def test_bad_input_is_refused_with_a_clear_message(call, exc, pattern):
    with pytest.raises(exc) as info:
        call()
    message = str(info.value)
    assert re.search(pattern, message), message
    assert type(info.value).__module__.split(".")[0] in ("builtins", "liedyn"), type(info.value)


# ---------------------------------------------------------------------------------------------
# what stays valid: the checks refuse nothing that is right
# ---------------------------------------------------------------------------------------------
def test_prescribed_gimbal_lock_is_fine_and_inverse_dynamics_too():
    """Only the joints whose S is inverted are checked: rnea and a prescribed joint are fine."""
    tau = rnea(ZYX, LOCK, [0.1, 0.2, 0.3], [1.0, 0.0, 0.0])
    tau_h, _ = hybrid(ZYX, LOCK, [0.1, 0.2, 0.3], [1.0, 0.0, 0.0], np.zeros(3), [True])
    np.testing.assert_allclose(tau_h, tau, rtol=0, atol=1e-12)


def test_inertias_and_placements_can_be_assigned_per_body():
    m = double_pendulum()
    m.inertias[2] = 2 * m.inertias[2]
    m.placements[2] = np.eye(4)
    m.inertias[1] = np.zeros((6, 6))                          # a massless body is allowed
    assert m.inertias[2][3, 3] == 2.0 and not m.inertias[1].flags.writeable


def test_integrate_renormalises_exponential_coordinates():
    """|phi| > pi becomes the same rotation with |phi| <= pi, and the rates follow."""
    from liedyn.kinematics import body_velocities
    rng = np.random.default_rng(1)
    for _ in range(20):
        phi, dphi = rng.normal(size=3), rng.normal(size=3)
        phi *= rng.uniform(np.pi + 0.1, 3 * np.pi - 0.1) / np.linalg.norm(phi)
        q1, dq1 = EXP.normalize(phi, dphi)
        assert np.linalg.norm(q1) <= np.pi + 1e-12
        np.testing.assert_allclose(forward_kinematics(EXP, q1).T, forward_kinematics(EXP, phi).T,
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(body_velocities(EXP, q1, dq1),
                                   body_velocities(EXP, phi, dphi), rtol=0, atol=1e-10)
    q = EXP.integrate([0.0, 3.0, 0.0], [0.0, 1.0, 0.0])
    np.testing.assert_allclose(q, [0.0, 4.0 - 2 * np.pi, 0.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(EXP.difference([0.0, 3.0, 0.0], q), [0.0, 1.0, 0.0], atol=1e-15)


def test_simulation_through_the_exponential_chart_boundary():
    """A spinning ball in exponential coordinates: re-normalised, same motion as quaternions."""
    dq = np.array([0.0, 0.0, 3.0])
    m_exp = one_body(J.SphericalExp())
    m_quat = one_body(J.Spherical())
    a = simulate(m_exp, [0.0, 0.0, 0.1], dq, 0.02, duration=1.2)
    b = simulate(m_quat, m_quat.integrate([1.0, 0, 0, 0], [0.0, 0.0, 0.1]), dq, 0.02,
                 duration=1.2)
    assert np.max(np.linalg.norm(a.q, axis=-1)) <= np.pi + 1e-12   # it crossed |phi| = pi
    np.testing.assert_allclose(forward_kinematics(m_exp, a.q).T_world,
                               forward_kinematics(m_quat, b.q).T_world, rtol=0, atol=1e-7)
    np.testing.assert_allclose(a.energy, b.energy, rtol=0, atol=1e-8)


def test_bounded_energy_error_is_not_divergence():
    """Started at rest where the potential energy is zero (E_0 = 0), explicit and symplectic
    Euler drift but stay bounded: no DivergenceError (the scale is m |g| |c|, not |E_0|)."""
    for method in ("euler", "semi_implicit"):
        traj = simulate(pendulum(), [np.pi / 2], [0.0], 0.02, duration=3.0, method=method)
        assert abs(traj.energy[0]) < 1e-12 and np.ptp(traj.energy) > 0.1


def test_deepcopy_and_pickle_keep_a_read_only_tree():
    import copy
    import pickle
    for m in (copy.deepcopy(DP), pickle.loads(pickle.dumps(DP))):
        assert m.parent == DP.parent and m.children == DP.children
        with pytest.raises(TypeError, match="parent"):
            m.parent[1] = 0
        m.inertias[1] = 2 * DP.inertias[1]
        assert DP.inertias[1][3, 3] == 1.0 and m.inertias[1][3, 3] == 2.0
        with pytest.raises(ValueError, match="'inertia'"):
            m.inertias[1] = -DP.inertias[1]


def test_the_ready_robots_still_take_what_they_took():
    """The constructors' checks refuse nothing that worked: complex steps, sympy symbols,
    numpy integers and integral floats."""
    import sympy
    m1, m2 = sympy.symbols("m_1 m_2", positive=True)
    assert two_link_arm(masses=(m1, m2)).inertias[2][3, 3] == m2
    h = 1e-20
    assert double_pendulum(lengths=(1.0 + 1j * h, 1.0)).placements[2][1, 3].imag == -h
    assert random_tree(np.int64(3), np.random.default_rng(1)).nbodies == 3
    assert planar_arm(3.0).nbodies == serial_chain(np.int32(2)).nbodies + 1
    assert random_tree(2, np.random.default_rng(1), joint_types=("revolute",),
                       branching=1).nbodies == 2


# --- joints' methods: the checks refuse no symbol and no complex step ------------------------
QUATERNION_DIFFERENCES = {("Spherical", "difference"), ("Free", "difference")}
"""The methods that take neither sympy symbols nor complex numbers, whatever the checks: the
logarithm of a quaternion branches on its sign and calls arctan2."""
SYMBOLIC_LIMITS = QUATERNION_DIFFERENCES | {("SphericalZYX", "chart_distance"),
                                            ("SphericalExp", "chart_distance")}
"""... and those that take no sympy symbols: a distance in floating point."""


@pytest.mark.parametrize("joint", JOINT_TYPES, ids=[type(j).__name__ for j in JOINT_TYPES])
def test_joint_methods_take_symbols_and_complex_steps(joint):
    """Every method of every joint type takes sympy symbols (the result, at numbers, is the
    float result) and complex input (whose real part gives the float result)."""
    import sympy
    rng = np.random.default_rng(3)
    for method, names in JOINT_METHODS.items():
        values = {a: joint.random(rng) if a in ("q", "q0", "q1") else rng.normal(size=joint.nv)
                  for a in names}
        expected = getattr(joint, method)(*values.values())
        h = 1e-20 * rng.normal(size=joint.nq)       # a complex step along the configuration
        steps = {a: v + 1j * h if a in ("q", "q0", "q1") and joint.nq == joint.nv else v + 0j
                 for a, v in values.items()}
        if (type(joint).__name__, method) not in QUATERNION_DIFFERENCES:
            assert_close(getattr(joint, method)(*steps.values()), expected, method, real=True)
        if (type(joint).__name__, method) in SYMBOLIC_LIMITS:
            continue
        symbols = {a: np.array(sympy.symbols(f"{a}_0:{v.size}"), dtype=object)
                   if v.size else np.zeros(0, dtype=object) for a, v in values.items()}
        at = {s: x for a in names for s, x in zip(symbols[a], values[a], strict=True)}
        result = getattr(joint, method)(*symbols.values())
        numeric = [None if r is None else np.array(
            [float(sympy.sympify(e).subs(at)) for e in np.ravel(r)]).reshape(np.shape(r))
            for r in (result if isinstance(result, tuple) else (result,))]
        assert_close(tuple(numeric) if isinstance(result, tuple) else numeric[0], expected,
                     method)


def assert_close(result, expected, method, real=False):
    """``result`` (or its real part) equals the float ``expected`` to 1e-12, part by part for
    the methods that return pairs (``motion``: ``None`` where the same)."""
    pairs = (zip(result, expected, strict=True) if isinstance(expected, tuple)
             else [(result, expected)])
    for r, e in pairs:
        assert (r is None) == (e is None), method
        if e is not None:
            r = np.real(r) if real else np.asarray(r, dtype=float)
            np.testing.assert_allclose(r, e, rtol=0, atol=1e-12, err_msg=method)
