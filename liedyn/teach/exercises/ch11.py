"""Checkers for the exercises of :ref:`sec-real-robots` (chapter 11).

The robots come from example-robot-data through :func:`liedyn.urdf.load_robot`.
Masses are read from the URDF text with the standard library's XML parser, torques
are gradients of the potential energy by complex step through the forward
kinematics (``tau_g = dU/dq``): no checker reuses ``rnea``. Exercise 7 asks for an
explanation in words and has no checker; exercise 8 asks for a number read off a
plot.
"""
import functools
import warnings
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

from . import exercise

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex8", "FINGERS", "panda_arm",
           "TRAJECTORY", "trajectory", "Q_EX3", "Q_EX4", "PAYLOAD_EX4", "Q_EX5",
           "T_EX6"]

FINGERS = ("panda_finger_joint1", "panda_finger_joint2")
"""The Panda's finger joints, locked at 0 in the 7-DOF arm of exercises 3, 4 and
6."""

TRAJECTORY: dict[str, Any] = {"q0": np.array([0.0, -0.3, 0.0, -2.0, 0.0, 1.8, 0.8]),
              "amplitude": np.array([0.8, 0.4, 0.5, 0.4, 0.6, 0.4, 0.8]),
              "period": 3.0}
"""The Panda arm's trajectory in the chapter,
``q(t) = q0 + amplitude sin(2 pi t / period)``."""

Q_EX3 = np.array([0.3, -0.5, 0.2, -1.8, 0.1, 1.5, 0.4])
"""A configuration of the Panda arm (7 joints, fingers locked) for exercise 3."""

Q_EX4 = np.array([0.2, 0.3, -0.2, -1.6, 0.3, 1.2, 0.5])
"""A configuration of the Panda arm for exercise 4."""

PAYLOAD_EX4 = {"mass": 2.0, "link": "panda_hand",
               "point": np.array([0.05, 0.0, 0.1])}
"""The payload of exercise 4, a point mass (kg) at ``point`` (m) in the frame of
``link``."""

Q_EX5 = np.concatenate(
    [[0.0, 0.0, 0.3, 1.0, 0.0, 0.0, 0.0],
     [0.3, 1.0, -1.2, 0.0, 0.4, -0.8, 0.2, -0.3, 0.9, -0.1, -0.9, 1.7]])
"""Solo12 (floating base) for exercise 5, base 0.3 m up and level, legs in an uneven
stance."""

T_EX6 = TRAJECTORY["period"] / 4
"""The end time of exercise 6 (a quarter period); the work is wanted for
``0 <= t <= T_EX6``."""


def trajectory(t):
    """``(q, dq, ddq)`` of :data:`TRAJECTORY` at times ``t`` (...,): arrays of shape
    (..., 7)."""
    t = np.asarray(t, dtype=float)[..., None]
    w = 2 * np.pi / TRAJECTORY["period"]
    a = TRAJECTORY["amplitude"]
    return (TRAJECTORY["q0"] + a * np.sin(w * t), a * w * np.cos(w * t),
            -a * w ** 2 * np.sin(w * t))


@functools.lru_cache(maxsize=None)
def _robot(name, floating=False, locked=()):
    from ...urdf import load_robot
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_robot(name, floating_base=floating,
                          locked_joints=list(locked) or None)


def panda_arm():
    """The Panda of exercises 3, 4 and 6:
    ``load_robot("panda", locked_joints=FINGERS)``."""
    return _robot("panda", False, FINGERS)


def _link_masses(name):
    """Mass of every link of a robot's URDF, and the links welded to the root by
    fixed joints."""
    from ...urdf import robot_path
    root = ET.parse(robot_path(name)).getroot()
    mass = {}
    for link in root.findall("link"):
        m = link.find("inertial/mass")
        mass[link.get("name")] = 0.0 if m is None else float(m.get("value"))
    children = {j.find("child").get("link") for j in root.findall("joint")}
    base = [n for n in mass if n not in children][0]
    welded, grew = {base}, True
    while grew:
        grew = False
        for j in root.findall("joint"):
            if (j.get("type") == "fixed" and j.find("parent").get("link") in welded
                    and j.find("child").get("link") not in welded):
                welded.add(j.find("child").get("link"))
                grew = True
    return mass, welded


def _gradient(f, q, h=1e-20):
    """``df/dq`` by the complex step: ``Im f(q + i h e_k) / h`` (exact to
    rounding)."""
    q = np.asarray(q, dtype=float)
    steps = q + 1j * h * np.eye(len(q))            # (n, n): one perturbed q per row
    return np.imag(f(steps)) / h


def _potential(model, q, payload=None):
    from ...crba import potential_energy
    U = potential_energy(model, q)
    if payload is not None:
        from ...urdf import link_placement
        T = link_placement(model, q, payload["link"])
        x = (T[..., :3, :3] @ payload["point"]) + T[..., :3, 3]
        U = U - payload["mass"] * (x @ model.gravity)
    return U


def _torques(q, payload=None):
    """Torques holding :func:`panda_arm` at rest at ``q``: ``dU/dq``."""
    return _gradient(lambda qs: _potential(panda_arm(), qs, payload), q)


@exercise("the mass", tol=1e-9,
          rule="the sum of the masses of the links not welded to the ground",
          hint="the mass of body i is model.inertias[i][3, 3] (Kim eq. (22)).")
def ex1(answer):
    """Total mass (kg) of the moving bodies of ``load_robot("panda")`` (fixed
    base)."""
    mass, welded = _link_masses("panda")
    right = sum(m for n, m in mass.items() if n not in welded)
    return right, [
        (sum(mass.values()), "this includes panda_link0, which is welded to the "
                             "ground: with a fixed base it is part of the ground "
                             "and its mass plays no role."),
        (right - mass["panda_hand"], "the hand is missing: it is welded to link 7 "
                                     "(fixed joints panda_joint8 and "
                                     "panda_hand_joint), so its mass is merged "
                                     "into body 7's inertia."),
    ]


@exercise("(nq, nv)", rule="(nv + 1, nv): the free joint adds 7 and 6",
          tol=0.0, hint="")
def ex2(answer):
    """``(nq, nv)`` of ``load_robot("talos", floating_base=True)``."""
    model = _robot("talos", True)
    n = model.nv - 6
    return np.array([model.nq, model.nv]), [
        ([n + 6, n + 6], "the free joint stores a unit quaternion: 7 numbers "
                         "(position and (w, x, y, z)) for its 6 velocity "
                         "coordinates, so nq = nv + 1."),
        ([n, n], "with floating_base=True a free joint is added at the root: it "
                 "adds 7 configuration and 6 velocity coordinates."),
    ]


@exercise("the gravity torques", rule="dU/dq (rnea at rest)", tol=1e-7,
          hint="inverse dynamics at rest: rnea(model, q, 0, 0).")
def ex3(answer):
    """Gravity torques of :func:`panda_arm` at :data:`Q_EX3` (7,)."""
    right = _torques(Q_EX3)
    return right, [
        (-right, "wrong sign: these torques hold the arm up, tau_g = dU/dq, the "
                 "torque the motors must supply at rest (rnea with dq = ddq = 0)."),
    ]


@exercise("the torques", rule="dU/dq with the payload's potential energy",
          tol=1e-7, hint="rnea(model, q, 0, 0, f_ext) with one non-zero row, (r x "
                         "f, f).")
def ex4(answer):
    """Torques holding :func:`panda_arm` at rest at :data:`Q_EX4` with the payload
    (7,)."""
    arm, right = _torques(Q_EX4), _torques(Q_EX4, PAYLOAD_EX4)
    model = panda_arm()
    body = model.names[model.link_frames[PAYLOAD_EX4["link"]][0]]
    at_origin = dict(PAYLOAD_EX4, link=body, point=np.zeros(3))  # the body's origin
    return right, [
        (arm, "these hold the arm alone: add the payload's weight as an external "
              "wrench on the body that carries panda_hand (f_ext)."),
        (2 * arm - right, "the payload's wrench has the wrong sign: f_ext is what "
                          "the environment applies to the body; the weight m g "
                          "points down (along the model's gravity), expressed in "
                          "the body frame."),
        (_torques(Q_EX4, at_origin), "the moment is missing: the force acts at the "
                                     "point r of the body frame, so the wrench is "
                                     "(r x f, f)."),
    ]


def _holding_wrench():
    """The wrench ``(c x f, f)`` (base frame) that holds Solo12 at :data:`Q_EX5`:
    ``f`` against the total weight, ``c`` the centre of mass."""
    from ...kinematics import forward_kinematics
    model = _robot("solo12", True)
    Tw = forward_kinematics(model, Q_EX5).T_world
    Tw = np.linalg.inv(Tw[1]) @ Tw                     # poses in the base frame {1}
    m_total, first = 0.0, np.zeros(3)
    for T, I in zip(Tw[1:], model.inertias[1:], strict=True):
        m = I[3, 3]
        c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m if m > 0 else np.zeros(3)
        m_total, first = m_total + m, first + m * (T[:3, :3] @ c + T[:3, 3])
    f = -m_total * (Tw[0, :3, :3] @ model.gravity)     # Tw[0] = T_{1,0}
    return np.cross(first / m_total, f), f


@exercise("the free joint's wrench", rule="(c x f, f) against the total weight",
          hint="rnea(model, q, zeros, zeros)[:6]: the wrench that holds the whole "
               "robot.")
def ex5(answer):
    """First six entries of ``rnea`` for Solo12 (floating base) at rest at
    :data:`Q_EX5`."""
    m, f = _holding_wrench()
    return np.r_[m, f], [
        (np.r_[f, m], "this is Pinocchio's (f, m) order; liedyn orders wrenches "
                      "(m, f), moment first."),
        (-np.r_[m, f], "wrong sign: the free joint must push the robot up, against "
                       "gravity."),
        (np.r_[np.zeros(3), f], "the moment is missing: the centre of mass is not "
                                "at the base frame's origin, so holding the robot "
                                "at the base takes a moment c x f."),
    ]


@exercise("the work", rule="the change of kinetic plus potential energy", tol=0.0,
          rtol=1e-4,
          hint="integrate the power dq . tau over time (np.trapezoid on a fine "
               "grid, one batched rnea call for all samples); it equals the change "
               "of kinetic plus potential energy.")
def ex6(answer):
    """Work (J) of the motors of :func:`panda_arm` along :data:`TRAJECTORY`, 0 <= t
    <= T_EX6."""
    from ...crba import kinetic_energy, potential_energy
    model = panda_arm()
    q, dq, _ = trajectory(np.array([0.0, T_EX6]))
    K = kinetic_energy(model, q, dq)
    E = K + potential_energy(model, q)
    right = float(E[1] - E[0])
    return right, [
        (-right, "wrong sign: the motors' power is dq . tau, with tau from rnea."),
        (K[1] - K[0], "this is the change of kinetic energy only: the motors also "
                      "lift the arm; keep gravity in the model's rnea."),
    ]


@exercise("the payload mass", tol=0.2, one_number=True,
          rule="the least m > 0 with |tau_j(m)| = tau_max,j for some joint j, "
               "tau(m) = tau(0) + m tau_1",
          hint="the holding torques are affine in m: tau(m) = tau(0) + m tau_1; "
               "find where the first |tau_j(m)| / tau_max,j reaches 1.")
def ex8(answer):
    """The payload mass (kg) at :data:`Q_EX4` and the point of :data:`PAYLOAD_EX4`
    at which the first joint of :func:`panda_arm` reaches its effort limit, read off
    a plot to about 0.2 kg."""
    limit = panda_arm().effort_limit
    tau_0 = _torques(Q_EX4)
    tau_1 = _torques(Q_EX4, dict(PAYLOAD_EX4, mass=1.0)) - tau_0
    with np.errstate(divide="ignore", invalid="ignore"):
        roots = np.concatenate([(limit - tau_0) / tau_1, (-limit - tau_0) / tau_1])
        alone = np.min(limit / np.abs(tau_1))
    crossings = np.sort(roots[np.isfinite(roots) & (roots > 0)])
    right = crossings[0]
    return right, [
        (lambda a: abs(a - alone) < 0.1,
         "that is where the payload alone would reach a joint's limit; the joint "
         "also holds the arm's own weight: tau(m) = tau(0) + m tau_1."),
        (lambda a: np.min(np.abs(crossings[1:] - a)) < 0.1,
         "another joint reaches its limit there, but a first one reaches it "
         "earlier: look at every joint's curve."),
        (lambda a: abs(a - 3.0) < 1e-9,
         "3 kg is the payload its maker rates the Panda for; the question asks "
         "where the holding torques of this pose reach the effort limits of the "
         "URDF file."),
    ]
