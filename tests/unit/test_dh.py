"""liedyn.dh: models from Denavit-Hartenberg tables, and the Puma 560.

Checked against an independent reading of the same tables: the DH link frames as the
plain product of the convention's four elementary transforms (numpy, written here),
and Pinocchio models built from them with Pinocchio's own revolute and prismatic
z-joints, each link's inertia placed at its DH link frame (``appendBodyToJoint``),
so that neither the frame bookkeeping nor the inertia transform of liedyn.dh is
reused. Both conventions, revolute and prismatic joints, offsets, the Puma 560 with
its massless first link, physically inconsistent third link and rotor armature.
"""
import numpy as np
import pinocchio as pin
import pytest

import liedyn as ld
from liedyn.dh import from_dh, puma560
from liedyn.kinematics import forward_kinematics

from common import relerr


def Rz(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])


def Rx(t):
    c, s = np.cos(t), np.sin(t)
    return np.array([[1.0, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1]])


def T(x=0.0, z=0.0):
    out = np.eye(4)
    out[0, 3], out[2, 3] = x, z
    return out


def link_transform(row, qi, modified):
    """``T_{i-1,i}`` of one row at joint value ``qi`` (the textbook formulas)."""
    theta, d = row["theta"], row["d"]
    if row.get("joint", "revolute") == "revolute":
        theta = theta + qi
    else:
        d = d + qi
    if modified:
        return Rx(row["alpha"]) @ T(x=row["a"]) @ Rz(theta) @ T(z=d)
    return Rz(theta) @ T(z=d) @ T(x=row["a"]) @ Rx(row["alpha"])


def random_rows(rng, n):
    rows = []
    for _ in range(n):
        m = rng.uniform(0.5, 5.0)
        Ic = np.diag(m * rng.uniform(0.01, 0.05) * np.array([1.0, 1.3, 1.6]))
        rows.append(dict(theta=rng.uniform(-1, 1), d=rng.normal() * 0.3,
                         a=rng.normal() * 0.3, alpha=rng.uniform(-np.pi, np.pi),
                         joint="prismatic" if rng.uniform() < 0.3 else "revolute",
                         mass=m, com=rng.normal(size=3) * 0.1, inertia=Ic,
                         armature=rng.uniform(0, 0.5)))
    return rows


def pinocchio_model(rows, modified, gravity=(0.0, 0.0, -9.81), base=None):
    """Pinocchio's model of a DH table: joint i a z-joint in the frame where the
    convention turns it, the link's inertia at its DH link frame; frame 0 at ``base`` (the
    identity when None)."""
    pm = pin.Model()
    pm.gravity = pin.Motion(np.array(gravity), np.zeros(3))
    parent, after = 0, np.eye(4) if base is None else base
    for k, r in enumerate(rows):
        revolute = r.get("joint", "revolute") == "revolute"
        if modified:
            before = Rx(r["alpha"]) @ T(x=r["a"]) @ Rz(r["theta"]) @ T(z=r["d"])
            link = np.eye(4)
        else:
            before = Rz(r["theta"]) @ T(z=r["d"]) if not revolute else Rz(r["theta"])
            link = (T(x=r["a"]) @ Rx(r["alpha"]) if not revolute
                    else T(z=r["d"]) @ T(x=r["a"]) @ Rx(r["alpha"]))
        X = after @ before
        joint = pin.JointModelRZ() if revolute else pin.JointModelPZ()
        jid = pm.addJoint(parent, joint, pin.SE3(X[:3, :3], X[:3, 3]), f"j{k + 1}")
        I = pin.Inertia(r["mass"], np.asarray(r["com"], float), np.asarray(r["inertia"]))
        pm.appendBodyToJoint(jid, I, pin.SE3(link[:3, :3], link[:3, 3]))
        pm.armature[jid - 1] = r.get("armature", 0.0)
        parent, after = jid, link
    return pm


@pytest.mark.parametrize("modified", [False, True], ids=["standard", "modified"])
@pytest.mark.parametrize("seed", range(5))
def test_link_frames_are_the_product_of_the_table(seed, modified):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng, 5)
    model = from_dh(rows, modified=modified)
    q = rng.normal(size=model.nv)
    Tw = forward_kinematics(model, q).T_world
    want = np.eye(4)
    for i, row in enumerate(rows, start=1):
        want = want @ link_transform(row, q[i - 1], modified)
        assert relerr(Tw[i] @ model.link_frames[i], want) < 1e-12


@pytest.mark.parametrize("modified", [False, True], ids=["standard", "modified"])
@pytest.mark.parametrize("seed", range(5))
def test_dynamics_agree_with_pinocchio(seed, modified):
    rng = np.random.default_rng(seed + 10)
    rows = random_rows(rng, 6)
    model = from_dh(rows, modified=modified)
    pm = pinocchio_model(rows, modified)
    data = pm.createData()
    q, dq, ddq, tau = rng.normal(size=(4, model.nv))
    assert relerr(ld.rnea(model, q, dq, ddq), pin.rnea(pm, data, q, dq, ddq)) < 1e-12
    M = pin.crba(pm, data, q)
    assert relerr(ld.mass_matrix(model, q), np.triu(M) + np.triu(M, 1).T) < 1e-12
    assert relerr(ld.aba(model, q, dq, tau), pin.aba(pm, data, q, dq, tau)) < 1e-10


def random_base(rng):
    return pin.SE3(pin.exp3(rng.normal(size=3)), rng.normal(size=3)).homogeneous


@pytest.mark.parametrize("modified", [False, True], ids=["standard", "modified"])
@pytest.mark.parametrize("seed", range(3))
def test_a_base_places_frame_0_in_the_ground(seed, modified):
    """Frames: the base times the textbook product. Dynamics, gravity in the ground frame:
    Pinocchio with the base as its first joint's placement, and liedyn without a base
    with gravity turned into frame 0 (the joint torques cannot tell the two apart)."""
    rng = np.random.default_rng(seed + 20)
    rows, base, g = random_rows(rng, 5), random_base(rng), rng.normal(size=3) * 5
    model = from_dh(rows, modified=modified, gravity=g, base=base)
    q, dq, ddq, tau = rng.normal(size=(4, model.nv))
    Tw, want = forward_kinematics(model, q).T_world, base
    assert relerr(model.link_frames[0], base) < 1e-15
    for i, row in enumerate(rows, start=1):
        want = want @ link_transform(row, q[i - 1], modified)
        assert relerr(Tw[i] @ model.link_frames[i], want) < 1e-12
    pm = pinocchio_model(rows, modified, gravity=g, base=base)
    data = pm.createData()
    assert relerr(ld.rnea(model, q, dq, ddq), pin.rnea(pm, data, q, dq, ddq)) < 1e-12
    assert relerr(ld.aba(model, q, dq, tau), pin.aba(pm, data, q, dq, tau)) < 1e-10
    unplaced = from_dh(rows, modified=modified, gravity=base[:3, :3].T @ g)
    assert relerr(ld.rnea(model, q, dq, ddq), ld.rnea(unplaced, q, dq, ddq)) < 1e-12


def test_the_puma_560():
    """Massless link 1, inconsistent link 3 kept as given, rotors Jm G^2: against
    Pinocchio built from the same published numbers."""
    puma = puma560()
    assert puma.inertias[1][3, 3] == 0 and puma.inertias[1][:3, :3].trace() > 0
    G = np.array([-62.6111, 107.815, -53.7063, 76.0364, 71.923, 76.686])
    Jm = np.array([200e-6, 200e-6, 200e-6, 33e-6, 33e-6, 33e-6])
    assert relerr(puma.armature, Jm * G ** 2) < 1e-15
    rows = [dict(theta=0, d=d, a=a, alpha=al, mass=m, com=c, inertia=np.diag(I),
                 armature=arm) for d, a, al, m, c, I, arm in zip(
        [0, 0, 0.15005, 0.4318, 0, 0], [0, 0.4318, 0.0203, 0, 0, 0],
        [np.pi / 2, 0, -np.pi / 2, np.pi / 2, -np.pi / 2, 0],
        [0, 17.4, 4.8, 0.82, 0.34, 0.09],
        [(0, 0, 0), (-0.3638, 0.006, 0.2275), (-0.0203, -0.0141, 0.070), (0, 0.019, 0),
         (0, 0, 0), (0, 0, 0.032)],
        [(0, 0.35, 0), (0.13, 0.524, 0.539), (0.066, 0.086, 0.0125),
         (1.8e-3, 1.3e-3, 1.8e-3), (0.3e-3, 0.4e-3, 0.3e-3), (0.15e-3, 0.15e-3, 0.04e-3)],
        Jm * G ** 2, strict=True)]
    pm = pinocchio_model(rows, modified=False)
    data = pm.createData()
    rng = np.random.default_rng(560)
    for _ in range(5):
        q, dq, ddq = rng.normal(size=(3, 6))
        assert relerr(ld.rnea(puma, q, dq, ddq), pin.rnea(pm, data, q, dq, ddq)) < 1e-12
        assert relerr(ld.aba(puma, q, dq, ddq), pin.aba(pm, data, q, dq, ddq)) < 1e-10
    # the "ready" pose, arm up (q2 = pi/2, q3 = -pi/2): its flange, a hand computation
    q_r = np.array([0, np.pi / 2, -np.pi / 2, 0, 0, 0])
    flange = forward_kinematics(puma, q_r).T_world[6] @ puma.link_frames[6]
    assert np.allclose(flange[:3, 3], [0.0203, -0.15005, 0.4318 + 0.4318], atol=1e-12)


def test_an_inconsistent_inertia_is_warned_about_refused_or_kept():
    row = dict(theta=0, d=0, a=0.5, alpha=0, mass=4.8, inertia=np.diag([0.066, 0.086,
                                                                        0.0125]))
    with pytest.warns(UserWarning, match=r"rows\[0\]: inertia not physically consistent"):
        from_dh([row])
    with pytest.raises(ValueError, match=r"rows\[0\]: .*triangle inequality"):
        from_dh([row], inertia_check="raise")
    assert from_dh([row], inertia_check="ignore").inertias[1][4, 4] == 4.8   # the mass, read back


@pytest.mark.parametrize("rows, error, match", [
    ([], ValueError, "at least one row"),
    ([dict(theta=0, d=0, a=0)], ValueError, r"rows\[0\]: missing \['alpha'\]"),
    ([dict(theta=0, d=0, a=0, alpha=0, length=1)], ValueError, r"unknown \['length'\]"),
    ([dict(theta=0, d=0, a=0, alpha=0, joint="ball")], ValueError, r"rows\[0\]\['joint'\]"),
    ([dict(theta=0, d=np.nan, a=0, alpha=0)], ValueError, r"rows\[0\]\['d'\].*NaN"),
    ([dict(theta=0, d=0, a=0, alpha=0), dict(theta=0, d=0, a=0, alpha=0, mass=-1.0)],
     ValueError, r"rows\[1\]: argument 'mass'"),
    ([dict(theta=0, d=0, a=0, alpha=0, a_=1)], ValueError, r"unknown \['a_'\]"),
    ([dict(theta=[0, 1], d=0, a=0, alpha=0)], ValueError, r"rows\[0\]\['theta'\]: expected one"),
    ([(0, 0, 0, 0)], TypeError, r"rows\[0\]: expected a dict"),
    ([dict(theta=0, d=0, a=0, alpha=0, armature=-1)], ValueError, "'armature'"),
])
def test_bad_tables_are_refused_naming_the_row_and_field(rows, error, match):
    with pytest.raises(error, match=match):
        from_dh(rows)


ROW = dict(theta=0, d=0, a=0.5, alpha=0, mass=1.0)


@pytest.mark.parametrize("base, error, match", [
    (np.eye(3), ValueError, r"'base': expected shape \(\.\.\., 4, 4\)"),
    (np.stack([np.eye(4)] * 2), ValueError, r"'base': expected one \(4, 4\)"),
    (np.diag([2.0, 2.0, 2.0, 1.0]), ValueError, r"'base\[\.\.\., :3, :3\]'"),
    (np.full((4, 4), np.nan), ValueError, r"'base'.*NaN"),
    ("world", TypeError, r"'base'"),
])
def test_a_bad_base_is_refused_by_name(base, error, match):
    with pytest.raises(error, match=match):
        from_dh([ROW], base=base)
