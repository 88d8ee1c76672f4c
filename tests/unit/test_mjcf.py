"""liedyn.mjcf against MuJoCo itself, on every MuJoCo model that ships in a PyPI wheel.

The models: gymnasium's MuJoCo environments (``gymnasium/envs/mujoco/assets/*.xml``: ant,
half_cheetah, hopper, humanoid, humanoidstandup, the inverted pendulums, point, pusher,
reacher, swimmer, walker2d and their v5 variants), MuJoCo's own ``testdata`` (``model.xml``:
a free body with hinge pairs, a ball, slide + hinge on one body, armature, tendons,
actuators, an equality; ``msh.xml`` and the zipped asset models: static geoms only), and
small files written here for what those lack (joint anchors and ``ref``, ball + slide on
one body, a welded chain, disabled gravity, armature on a free joint's rotation).

For each, at random states: liedyn's ``rnea`` against MuJoCo's ``M qacc + qfrc_bias``
(``mj_fullM``), its mass matrix against ``mj_fullM``, its ``aba`` against MuJoCo's ``qacc``
under ``qfrc_applied``, with contacts, constraints, limits, passive forces and actuation
disabled in MuJoCo (``opt.disableflags``), which liedyn does not model; the body frames
against ``xpos``/``xmat`` and the body twists against ``mj_objectVelocity``. Free joints go
through ``from_mujoco``/``to_mujoco``; the other coordinates pass unchanged. Relative
error below 1e-9 (``relerr``).

The second half: the maps' identities (round trip, the same power), the warnings and
refusals, and a catalogue of bad input, each error naming what is wrong.
"""
import importlib.util
import re
import sys
import warnings
import zipfile
from pathlib import Path

import mujoco
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn.crba import mass_matrix
from liedyn.forward_dynamics import aba
from liedyn.inverse_dynamics import rnea
from liedyn.joints import Fixed
from liedyn.kinematics import body_velocities, forward_kinematics
from liedyn.lie import Ad_inv
from liedyn.mjcf import JOINT_TYPES, MJCFError, MJCFWarning, load_mjcf
from liedyn.mujoco_coordinates import f_ext_from_mujoco, from_mujoco, to_mujoco
from liedyn.robots import pendulum

from common import assert_ulp_close, relerr

TOL = 1e-9


def _package_dir(name):
    return Path(importlib.util.find_spec(name).submodule_search_locations[0])


GYM = sorted((_package_dir("gymnasium") / "envs" / "mujoco" / "assets").glob("*.xml"))
MUJOCO_DATA = _package_dir("mujoco") / "testdata"
SHIPPED = GYM + sorted(MUJOCO_DATA.glob("*.xml"))

# MuJoCo's forces that liedyn does not model, switched off on the MuJoCo side
OFF = 0
for _flag in ("CONSTRAINT", "EQUALITY", "FRICTIONLOSS", "LIMIT", "CONTACT", "SPRING",
              "DAMPER", "ACTUATION"):
    OFF |= int(getattr(mujoco.mjtDisableBit, "mjDSBL_" + _flag))

CHAIN = """<mujoco model="chain">
  <option gravity="0.3 -0.2 -9.81"/>
  <default><geom contype="0" conaffinity="0"/></default>
  <worldbody>
    <body name="base" pos="0.1 0.2 0.3" quat="0.9 0.1 0.3 0.2">
      <joint name="slide_x" type="slide" axis="1 0.2 0" ref="0.3"/>
      <joint name="hinge_y" axis="0 1 0.1" pos="0.05 -0.1 0.2" ref="0.4" armature="0.02"/>
      <geom type="box" size="0.1 0.05 0.2" pos="0 0 0.1" euler="10 20 30" mass="1.5"/>
      <body name="arm" pos="0.3 0 0" euler="5 -10 15">
        <joint name="ball" type="ball" pos="0 0.1 0" armature="0.01"/>
        <joint name="slide_z" type="slide" axis="0 0 1" pos="0.2 0 0" ref="-0.1"/>
        <geom type="capsule" fromto="0 0 0 0.4 0.1 0" size="0.04" mass="0.7"/>
        <body name="hand" pos="0.4 0.1 0">
          <geom type="sphere" size="0.05" mass="0.2"/>
          <body name="finger" pos="0 0 0.05">
            <joint name="finger" axis="1 0 0" pos="0 0 -0.02"/>
            <geom type="cylinder" fromto="0 0 0 0 0.02 0.1" size="0.01" mass="0.05"/>
          </body>
        </body>
      </body>
    </body>
    <body name="floater" pos="1 0 1" euler="10 20 30">
      <freejoint name="root"/>
      <geom type="ellipsoid" size="0.1 0.2 0.3" mass="2"/>
      <body name="flap" pos="0 0 0.3">
        <joint name="flap" axis="0 1 0" pos="0.1 0 0" ref="0.2" armature="0.03"/>
        <geom type="box" size="0.2 0.01 0.1" pos="0.2 0 0" mass="0.3"/>
      </body>
    </body>
  </worldbody>
</mujoco>"""
NO_GRAVITY = CHAIN.replace('<option gravity="0.3 -0.2 -9.81"/>',
                           '<option><flag gravity="disable"/></option>')
WRITTEN = {"chain": CHAIN, "chain without gravity": NO_GRAVITY}


def mj_compile(source):
    """MuJoCo's model of a file or string (its warnings kept out of MUJOCO_LOG.TXT)."""
    handler = mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(lambda text: None)
    try:
        if isinstance(source, Path):
            return mujoco.MjModel.from_xml_path(str(source))
        return mujoco.MjModel.from_xml_string(source)
    finally:
        mujoco.set_mju_user_warning(handler)


def quiet_load(source):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MJCFWarning)
        return load_mjcf(source)


def mujoco_dynamics(m, d, qpos, qvel, qfrc):
    """MuJoCo's (M, qfrc_bias, qacc under qfrc_applied = qfrc) with OFF set on ``m``."""
    d.qpos[:], d.qvel[:], d.qfrc_applied[:] = qpos, qvel, qfrc
    mujoco.mj_forward(m, d)
    for extra in (d.qfrc_passive, d.qfrc_constraint, d.qfrc_actuator):
        assert not np.any(extra)                 # nothing liedyn leaves out
    M = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, d, M)
    return M, d.qfrc_bias.copy(), d.qacc.copy()


def worst_errors(model, m, seed, n=3):
    """The largest relative errors of (rnea, M, aba) against MuJoCo at ``n`` random
    states, free joints mapped by from_mujoco / to_mujoco."""
    m.opt.disableflags |= OFF
    d = mujoco.MjData(m)
    rng = np.random.default_rng(seed)
    worst = np.zeros(3)
    for _ in range(n):
        qpos = model.random_configuration(rng)
        qvel, qacc, qfrc = rng.normal(size=(3, m.nv))
        M, bias, qacc_mj = mujoco_dynamics(m, d, qpos, qvel, qfrc)
        s = from_mujoco(model, qpos, qvel, qacc, qfrc)
        tau = to_mujoco(model, qpos, s.dq, tau=rnea(model, s.q, s.dq, s.ddq)).qfrc
        A = from_mujoco(model, qpos, qvel=np.eye(m.nv)).dq.T       # dq = A qvel
        ddq = aba(model, s.q, s.dq, s.tau)
        worst = np.maximum(worst, [
            relerr(tau, M @ qacc + bias),
            relerr(A.T @ mass_matrix(model, qpos) @ A, M),
            relerr(to_mujoco(model, qpos, s.dq, ddq).qacc, qacc_mj)])
    return worst


CASES = [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in SHIPPED] + [
    pytest.param(xml, id=name) for name, xml in WRITTEN.items()]


def test_the_shipped_models_are_found():
    names = {p.name for p in SHIPPED}
    assert {"ant.xml", "half_cheetah.xml", "hopper.xml", "humanoid.xml",
            "humanoidstandup.xml", "inverted_pendulum.xml",
            "inverted_double_pendulum.xml", "pusher.xml", "reacher.xml", "swimmer.xml",
            "walker2d.xml", "model.xml"} <= names


@pytest.mark.parametrize("source", CASES)
def test_dynamics_agree_with_mujoco(source):
    model = quiet_load(source)
    m = mj_compile(source)
    assert (model.nq, model.nv) == (m.nq, m.nv)
    worst = worst_errors(model, m, seed=len(str(source)))
    assert np.all(worst < TOL), dict(zip(("rnea", "M", "aba"), worst, strict=True))


@pytest.mark.parametrize("source", CASES)
def test_forces_on_bodies_agree_with_mujoco(source):
    """MuJoCo's ``xfrc_applied`` (world frame, at each body's centre of mass) as liedyn's
    ``f_ext``: aba against MuJoCo's qacc, and rnea at that qacc gives back the torques."""
    model = quiet_load(source)
    m = mj_compile(source)
    m.opt.disableflags |= OFF
    d = mujoco.MjData(m)
    rng = np.random.default_rng(len(str(source)) + 1)
    for _ in range(3):
        qpos = model.random_configuration(rng)
        qvel, qfrc = rng.normal(size=(2, m.nv))
        d.xfrc_applied[:] = rng.normal(size=(m.nbody, 6))
        qacc_mj = mujoco_dynamics(m, d, qpos, qvel, qfrc)[2]
        f_ext = f_ext_from_mujoco(model, qpos, d.xfrc_applied)
        s = from_mujoco(model, qpos, qvel, qacc_mj, qfrc)
        ddq = aba(model, s.q, s.dq, s.tau, f_ext)
        assert relerr(to_mujoco(model, qpos, s.dq, ddq).qacc, qacc_mj) < TOL
        assert relerr(rnea(model, s.q, s.dq, s.ddq, f_ext), s.tau) < TOL
        if m.nbody > 1 and np.any(d.xfrc_applied[1:]):   # the forces matter
            assert relerr(aba(model, s.q, s.dq, s.tau), ddq) > 1e-6


def test_forces_on_bodies_in_a_batch_and_on_the_world():
    """A batch of states at once equals them one by one; row 0, the world, acts on
    nothing."""
    model = quiet_load(CHAIN)
    rng = np.random.default_rng(4)
    Q = np.stack([model.random_configuration(rng) for _ in range(3)])
    X = rng.normal(size=(3, len(model.mujoco_bodies), 6))
    batch = f_ext_from_mujoco(model, Q, X)
    for k in range(3):
        np.testing.assert_allclose(batch[k], f_ext_from_mujoco(model, Q[k], X[k]),
                                   rtol=0, atol=1e-14)
    world_only = np.zeros_like(X[0])
    world_only[0] = 1.0
    assert not np.any(f_ext_from_mujoco(model, Q[0], world_only))


@pytest.mark.parametrize("source", CASES)
def test_frames_twists_and_coordinates_match_mujoco(source):
    model = quiet_load(source)
    m = mj_compile(source)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(7)
    moved = [i for i in range(1, model.nbodies + 1)
             if not isinstance(model.joints[i], Fixed)]
    assert [model.q_slice[i].start for i in moved] == list(m.jnt_qposadr)
    assert [model.v_slice[i].start for i in moved] == list(m.jnt_dofadr)
    assert [model.joint_names[i] for i in moved] == [m.joint(j).name or None
                                                     for j in range(m.njnt)]
    np.testing.assert_array_equal(model.qpos0, m.qpos0)      # a copy of MuJoCo's
    d.qpos[:], d.qvel[:] = model.random_configuration(rng), rng.normal(size=m.nv)
    mujoco.mj_forward(m, d)
    s = from_mujoco(model, d.qpos, d.qvel)
    T_world = forward_kinematics(model, s.q).T_world
    V = body_velocities(model, s.q, s.dq)
    for b in range(1, m.nbody):
        i = model.mujoco_bodies[b]
        C = model.body_frames[model.names[i]][1]            # MuJoCo frame in {i}
        T = T_world[i] @ C
        assert relerr(T[:3, 3], d.xpos[b]) < TOL
        assert relerr(T[:3, :3], d.xmat[b].reshape(3, 3)) < TOL
        twist = np.zeros(6)
        mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_XBODY, b, twist, 1)
        assert relerr(Ad_inv(C) @ V[i], twist) < TOL


def test_chain_bodies_names_and_armature():
    model = load_mjcf(CHAIN)
    assert model.name == "chain"
    assert model.names == ["ground", "slide_x", "base", "ball", "arm", "hand", "finger",
                           "floater", "flap"]
    assert model.joint_names == [None, "slide_x", "hinge_y", "ball", "slide_z", None,
                                 "finger", "root", "flap"]
    assert [type(j).__name__ for j in model.joints[1:]] == [
        "Prismatic", "Revolute", "Spherical", "Prismatic", "Fixed", "Revolute", "Free",
        "Revolute"]
    assert not np.any(model.inertias[1]) and not np.any(model.inertias[3])   # massless
    np.testing.assert_array_equal(                          # the file's numbers, read back
        model.armature, [0, 0.02, 0.01, 0.01, 0.01, 0, 0, 0, 0, 0, 0, 0, 0, 0.03])
    assert model.mujoco_bodies == [0, 2, 4, 5, 6, 7, 8]
    np.testing.assert_allclose(model.gravity, [0.3, -0.2, -9.81])
    np.testing.assert_array_equal(load_mjcf(NO_GRAVITY).gravity, [0.0, 0.0, 0.0])  # constant


def test_rotational_armature_of_a_free_joint_agrees_and_translational_is_refused():
    m = mj_compile(CHAIN)
    k = m.jnt_dofadr[m.joint("root").id]
    m.dof_armature[k + 3:k + 6] = [0.1, 0.2, 0.3]           # rotation: liedyn's armature
    model = load_mjcf(m)
    np.testing.assert_array_equal(model.armature[model.v_slice[model.joint("root")]],
                                  [0.1, 0.2, 0.3, 0, 0, 0])         # read back, exact
    assert np.all(worst_errors(model, m, seed=3) < TOL)
    m.dof_armature[k:k + 3] = 0.05
    with pytest.raises(MJCFError, match=r"MJCF MjModel: joint 'root': armature \[0.05, "
                       r"0.05, 0.05\] on the translational degrees of freedom"):
        load_mjcf(m)
    xml = CHAIN.replace('<freejoint name="root"/>',
                        '<joint name="root" type="free" armature="0.1"/>')
    with pytest.raises(MJCFError, match="MJCF string: joint 'root': armature"):
        load_mjcf(xml)


def test_keyframes_are_liedyn_states():
    """Each <key> as liedyn's (q, dq): MuJoCo's qpos and qvel after mj_resetDataKeyframe,
    the free joint's velocity mapped; unnamed keys get key<k>."""
    n = 16
    rng = np.random.default_rng(5)
    q = FLOATER.random_configuration(rng)
    v = rng.normal(size=FLOATER.nv)
    text = lambda x: " ".join(f"{a:.17g}" for a in x)
    keys = (f'<keyframe><key name="pose" qpos="{text(q)}" qvel="{text(v)}"/>'
            '<key time="1"/></keyframe>')
    xml = CHAIN.replace("</mujoco>", keys + "</mujoco>")
    model, m = quiet_load(xml), mj_compile(xml)
    assert list(model.keyframes) == ["pose", "key1"] and model.nq == n
    d = mujoco.MjData(m)
    for k, name in enumerate(model.keyframes):
        mujoco.mj_resetDataKeyframe(m, d, k)
        state = model.keyframes[name]
        np.testing.assert_array_equal(state.q, d.qpos)         # both copy key_qpos
        assert relerr(state.dq, from_mujoco(model, d.qpos, d.qvel).dq) < 1e-15
        assert state.ddq is None and state.tau is None
    np.testing.assert_array_equal(model.keyframes["key1"].q, m.qpos0)    # copied
    free = model.v_slice[model.joint("root")]                   # mapped, not copied
    assert not np.allclose(model.keyframes["pose"].dq[free], v[free])


def test_joint_ranges_are_q_lower_and_q_upper():
    """Limited hinge and slide joints give their range (degrees compiled to radians); a
    ball's range (an angle) and unlimited joints stay infinite."""
    xml = """<mujoco><compiler angle="degree"/><worldbody>
      <body name="a"><joint name="h" axis="0 0 1" range="-30 60"/><geom size="0.1"/>
        <body name="b" pos="1 0 0"><joint name="s" type="slide" range="-0.1 0.2"/>
          <joint name="free_hinge" axis="0 1 0"/><geom size="0.1"/>
          <body name="c" pos="1 0 0"><joint name="ball" type="ball" range="0 45"/>
            <geom size="0.1"/></body></body></body></worldbody></mujoco>"""
    model = quiet_load(xml)
    inf = np.inf
    np.testing.assert_allclose(model.q_lower, [-np.pi / 6, -0.1, -inf, -inf, -inf, -inf, -inf])
    np.testing.assert_allclose(model.q_upper, [np.pi / 3, 0.2, inf, inf, inf, inf, inf])
    assert model.q_lower.shape == (model.nq,)


def test_visuals_sit_on_mujocos_geoms():
    model = load_mjcf(CHAIN)
    m = mj_compile(CHAIN)
    d = mujoco.MjData(m)
    d.qpos[:] = model.random_configuration(np.random.default_rng(1))
    mujoco.mj_forward(m, d)
    T_world = forward_kinematics(model, d.qpos).T_world
    expected = []                  # (kind, centre, rotation) from MuJoCo's geom poses
    for g in range(m.ngeom):
        R, p, size = d.geom_xmat[g].reshape(3, 3), d.geom_xpos[g], m.geom_size[g]
        kind = mujoco.mjtGeom(m.geom_type[g]).name
        if kind == "mjGEOM_CAPSULE":
            expected += [("cylinder", p, R), ("sphere", p + R[:, 2] * size[1], R),
                         ("sphere", p - R[:, 2] * size[1], R)]
        elif kind in ("mjGEOM_BOX", "mjGEOM_SPHERE", "mjGEOM_CYLINDER"):
            expected.append((kind[7:].lower(), p, R))
    assert [v.kind for v in model.visuals] == [e[0] for e in expected]
    for v, (_, p, R) in zip(model.visuals, expected, strict=True):
        T = T_world[v.body] @ v.T
        assert relerr(T[:3, 3], p) < TOL and relerr(T[:3, :3], R) < TOL
    assert model.visuals[0].size == (0.2, 0.1, 0.4)          # full box sizes


def test_names_are_unique_and_kept():
    xml = """<mujoco><worldbody>
      <body name="ground"><joint name="link" type="slide"/><joint name="hinge"/>
        <geom size="0.1" mass="1"/>
        <body name="link" pos="0 0 1"><joint/><geom size="0.1" mass="1"/></body>
        <body pos="1 0 0"><joint name="j3"/><geom size="0.1" mass="1"/></body>
      </body></worldbody></mujoco>"""
    model = load_mjcf(xml, unsupported="ignore")
    assert model.names == ["ground", "link_1", "ground_1", "link", "body3"]
    assert model.joint_names == [None, "link", "hinge", None, "j3"]
    assert model.joint("j3") == 4
    with pytest.raises(ValueError, match=r"unknown joint 'zz'; the joints are \['link', "):
        model.joint("zz")


def test_string_bytes_path_and_mjmodel_give_the_same_model(tmp_path):
    path = tmp_path / "chain.xml"
    path.write_text(CHAIN)
    models = [load_mjcf(CHAIN), load_mjcf(CHAIN.encode()), load_mjcf(path),
              load_mjcf(str(path)), load_mjcf(mj_compile(CHAIN))]
    assert models[2].source == str(path) and models[0].source is None
    q = models[0].random_configuration(np.random.default_rng(0))
    dq, ddq = np.random.default_rng(1).normal(size=(2, models[0].nv))
    tau = rnea(models[0], q, dq, ddq)
    for model in models[1:]:
        assert model.names == models[0].names
        # the same MjModel read by the same code: the same function on the same input
        np.testing.assert_array_equal(rnea(model, q, dq, ddq), tau)


def test_mujocos_zipped_asset_models_have_no_moving_body(tmp_path):
    for archive in sorted(MUJOCO_DATA.glob("*.zip")):
        with zipfile.ZipFile(archive) as z:
            z.extractall(tmp_path / archive.stem)
        for path in (tmp_path / archive.stem).rglob("*.xml"):
            model = quiet_load(path)
            assert model.nbodies == 0 and model.nv == 0
            assert model.name == "Textured cube and mesh"


# --- the maps of free-joint states and forces ------------------------------------------------
FLOATER = quiet_load(CHAIN)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), scale=st.sampled_from([1e-8, 1.0, 1e3]))
def test_maps_round_trip_and_keep_the_power(seed, scale):
    rng = np.random.default_rng(seed)
    qpos = FLOATER.random_configuration(rng)
    qvel, qacc, qfrc = scale * rng.normal(size=(3, FLOATER.nv))
    s = from_mujoco(FLOATER, qpos, qvel, qacc, qfrc)
    back = to_mujoco(FLOATER, *s)
    for a, b in zip(back, (qpos, qvel, qacc, qfrc), strict=True):
        assert relerr(a, b) < 1e-13 * max(1.0, scale)
    # forces are dual to velocities: the same power
    assert abs(s.tau @ s.dq - qfrc @ qvel) <= 1e-14 * np.linalg.norm(qfrc) * np.linalg.norm(
        qvel)
    free = FLOATER.v_slice[FLOATER.body("floater")]
    rest = np.r_[0:free.start, free.stop:FLOATER.nv]
    for a, b in zip(s[1:], (qvel, qacc, qfrc), strict=True):
        np.testing.assert_array_equal(a[rest], b[rest])       # other joints: copied


def test_maps_broadcast_over_leading_dimensions():
    rng = np.random.default_rng(5)
    qpos = np.stack([FLOATER.random_configuration(rng) for _ in range(2)])
    qvel, qacc = rng.normal(size=(2, 3, 1, FLOATER.nv))
    s = from_mujoco(FLOATER, qpos, qvel, qacc)
    assert s.q.shape == (2, FLOATER.nq) and s.ddq.shape == (3, 2, FLOATER.nv)
    for a in range(3):
        for b in range(2):
            one = from_mujoco(FLOATER, qpos[b], qvel[a, 0], qacc[a, 0])
            assert_ulp_close(s.dq[a, b], one.dq)          # batched and single: two paths
            np.testing.assert_allclose(s.ddq[a, b], one.ddq, rtol=0, atol=1e-15)
    assert s.tau is None and to_mujoco(FLOATER, qpos).qvel is None


def test_free_joint_velocity_is_mujocos_body_velocity():
    """MuJoCo's own body twist of the floating body is liedyn's dq of the free joint."""
    m = mj_compile(CHAIN)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(11)
    d.qpos[:], d.qvel[:] = FLOATER.random_configuration(rng), rng.normal(size=m.nv)
    mujoco.mj_forward(m, d)
    twist = np.zeros(6)
    mujoco.mj_objectVelocity(m, d, mujoco.mjtObj.mjOBJ_XBODY, m.body("floater").id,
                             twist, 1)
    dq = from_mujoco(FLOATER, d.qpos, d.qvel).dq
    assert relerr(dq[FLOATER.v_slice[FLOATER.body("floater")]], twist) < TOL


# --- what liedyn leaves out ------------------------------------------------------------------
def test_left_out_elements_are_named_in_warnings():
    path = MUJOCO_DATA / "model.xml"
    with pytest.warns(MJCFWarning) as record:
        load_mjcf(path)
    text = "\n".join(str(w.message) for w in record)
    for expected in (r"10 actuator\(s\) \['actuator0', ", r"2 tendon\(s\) \['spatial', "
                     r"'fixed'\]", r"1 equality constraint\(s\) \['eq0'\]",
                     r"contacts of 18 geom\(s\) \['floor', ", r"limits of 4 joint\(s\) "
                     r"\['hipz_0', 'hipz_1', 'hipz_2', 'slider'\]",
                     r"damping of 11 joint\(s\)", r"stiffness \(springs to springref\) of "
                     r"6 joint\(s\)", r"gravity compensation \(gravcomp\) of 1 "
                     r"body\(ies\) \['head'\]", r"fluid forces \(density 1.225"):
        assert re.search(f"MJCF '{re.escape(str(path))}': {expected}", text), expected
    assert all("ignored: liedyn models the rigid-body dynamics of the tree only"
               in str(w.message) for w in record)


def test_frictionloss_pairs_and_flexes_are_named_too():
    xml = """<mujoco><worldbody>
      <body name="a"><joint name="j" frictionloss="0.1"/><geom name="g1" size="0.1"/></body>
      <body name="b" pos="1 0 0"><joint name="k"/><geom name="g2" size="0.1"/></body>
      <flexcomp name="cloth" type="grid" count="2 2 1" spacing=".1 .1 .1" dim="2"
                mass="1" radius="0.01"><edge equality="true"/></flexcomp>
      </worldbody><contact><pair geom1="g1" geom2="g2" name="touch"/></contact></mujoco>"""
    with pytest.warns(MJCFWarning) as record:
        load_mjcf(xml)
    text = "\n".join(str(w.message) for w in record)
    for expected in ("frictionloss of 1 joint(s) ['j']", "1 contact pair(s) ['touch']",
                     "1 flex(es) ['cloth']"):
        assert expected in text


def test_unsupported_policy():
    xml = ("<mujoco><worldbody><body name='b'><joint name='j'/><geom size='1' "
           "contype='0' conaffinity='0'/></body></worldbody><actuator><motor "
           "name='motor' joint='j'/></actuator></mujoco>")
    with pytest.raises(MJCFError, match=r"MJCF string: 1 actuator\(s\) \['motor'\] ignored"
                       r".*unsupported='warn'"):
        load_mjcf(xml, unsupported="raise")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_mjcf(xml, unsupported="ignore").nv == 1
    touching = xml.replace(" contype='0' conaffinity='0'", "")
    disabled = touching.replace("<worldbody>", "<option><flag contact='disable'/></option>"
                                "<worldbody>")
    for source, told in ((touching, ["1 actuator(s) ['motor']", "contacts of 1 geom(s) "
                                     "['geom0']"]),
                         (disabled, ["1 actuator(s) ['motor']"])):
        with pytest.warns(MJCFWarning) as record:
            load_mjcf(source)
        assert [re.match("MJCF string: (.*) ignored", str(w.message)).group(1)
                for w in record] == told


# --- bad input ---------------------------------------------------------------------------------
def one_joint(body="", joint="", inertial='pos="0 0 0" mass="1" diaginertia="1 1 1"',
              option=""):
    return (f"<mujoco>{option}<worldbody>\n<body name='b' {body}>\n<joint name='j' {joint}/>"
            f"\n<inertial {inertial}/></body></worldbody></mujoco>")


WELDED = ("<mujoco><worldbody><body name='w'><inertial mass='1' {}/><body name='c'><joint/>"
          "<geom size='1'/></body></body></worldbody></mujoco>")
BAD = [
    ("missing file", lambda: load_mjcf("/no/such/model.xml"), FileNotFoundError,
     "MJCF file '/no/such/model.xml' does not exist"),
    ("malformed XML", lambda: load_mjcf("<mujoco><worldbody><body></worldbody></mujoco>"),
     MJCFError, r"MJCF string, line 1: <body>: MuJoCo could not compile it \(XML parse "
                "error .*MISMATCHED_ELEMENT"),
    ("not MJCF", lambda: load_mjcf("<foo/>"), MJCFError,
     "Unrecognized XML model type: 'foo'"),
    ("unknown joint type", lambda: load_mjcf(one_joint(joint="type='revolute'")), MJCFError,
     r"MJCF string, line 3: <joint>: .*invalid keyword: 'revolute' \(MJCF joint types: "
     r"\['free', 'ball', 'slide', 'hinge'\]\)"),
    ("bad number", lambda: load_mjcf(one_joint(body="pos='0 0 x'")), MJCFError,
     "MJCF string, line 2: <body>, attribute 'pos': .*bad format in attribute 'pos'"),
    ("NaN pos", lambda: load_mjcf(one_joint(body="pos='nan 0 0'")), MJCFError,
     r"MJCF string: body 'b': pos must be finite numbers, got \[nan, 0.0, 0.0\] "
     r"\(MuJoCo's compiled body_pos\)"),
    ("inf quat", lambda: load_mjcf(one_joint(body="quat='1 0 0 inf'")), MJCFError,
     "body 'b': quat must be finite"),
    ("NaN axis", lambda: load_mjcf(one_joint(joint="axis='0 nan 1'")), MJCFError,
     r"joint 'j': axis must be finite numbers, got \[0.0, nan, 1.0\]"),
    ("NaN anchor", lambda: load_mjcf(one_joint(joint="pos='0 nan 1'")), MJCFError,
     "joint 'j': pos must be finite"),
    ("NaN ref", lambda: load_mjcf(one_joint(joint="ref='nan'")), MJCFError,
     r"joint 'j': ref must be finite numbers, got \[nan\] \(MuJoCo's compiled qpos0\)"),
    ("NaN armature", lambda: load_mjcf(one_joint(joint="armature='nan'")), MJCFError,
     "joint 'j': armature must be finite"),
    ("NaN mass", lambda: load_mjcf(one_joint(inertial="pos='0 0 0' mass='nan' "
                                                      "diaginertia='1 1 1'")),
     MJCFError, "MJCF string, line 2: element 'b': .*mass and inertia of moving bodies "
                "must be larger than mjMINVAL"),
    ("NaN inertia", lambda: load_mjcf(WELDED.format("pos='0 0 0' diaginertia='1 nan 1'")),
     MJCFError, r"MJCF string: body 'w': inertia must be finite numbers, got "
                r"\[1.0, nan, 1.0\]"),
    ("NaN centre of mass",
     lambda: load_mjcf(WELDED.format("pos='0 0 nan' diaginertia='1 1 1'")), MJCFError,
     "MJCF string: body 'w': inertial pos must be finite"),
    ("NaN gravity", lambda: load_mjcf(one_joint(option="<option gravity='0 0 nan'/>")),
     MJCFError, r"MJCF string: <option>: gravity must be finite numbers, got "
                r"\[0.0, 0.0, nan\]"),
    ("path type", lambda: load_mjcf(3), TypeError,
     "argument 'path_or_xml': expected a path, an MJCF"),
    ("None", lambda: load_mjcf(None), TypeError, "argument 'path_or_xml'"),
    ("policy", lambda: load_mjcf(one_joint(), unsupported="maybe"), ValueError,
     r"argument 'unsupported': expected one of \['warn', 'raise', 'ignore'\], got 'maybe'"),
    ("qpos shape", lambda: from_mujoco(FLOATER, np.zeros(3)), ValueError,
     r"argument 'qpos': expected shape \(\.\.\., 16\), got \(3,\)"),
    ("qvel NaN", lambda: from_mujoco(FLOATER, FLOATER.qpos0, np.full(FLOATER.nv, np.nan)),
     ValueError, "argument 'qvel': contains NaN"),
    ("qacc without qvel", lambda: from_mujoco(FLOATER, FLOATER.qpos0,
                                              qacc=np.zeros(FLOATER.nv)),
     ValueError, "argument 'qvel': needed to map qacc"),
    ("ddq without dq", lambda: to_mujoco(FLOATER, FLOATER.qpos0, ddq=np.zeros(FLOATER.nv)),
     ValueError, "argument 'dq': needed to map ddq"),
    ("tau shape", lambda: to_mujoco(FLOATER, FLOATER.qpos0, tau=np.zeros(3)), ValueError,
     r"argument 'tau': expected shape \(\.\.\., 14\)"),
    ("batch shapes", lambda: from_mujoco(FLOATER, np.tile(FLOATER.qpos0, (2, 1)),
                                         np.zeros((3, FLOATER.nv))), ValueError,
     "argument 'qvel': leading dimensions"),
    ("xfrc_applied rows", lambda: f_ext_from_mujoco(FLOATER, FLOATER.qpos0, np.zeros((2, 6))),
     ValueError, r"argument 'xfrc_applied': expected shape \(\.\.\., \d+, 6\), got \(2, 6\)"),
    ("xfrc_applied NaN", lambda: f_ext_from_mujoco(
        FLOATER, FLOATER.qpos0, np.full((len(FLOATER.mujoco_bodies), 6), np.nan)),
     ValueError, "argument 'xfrc_applied': contains NaN"),
    ("xfrc_applied batch", lambda: f_ext_from_mujoco(
        FLOATER, np.tile(FLOATER.qpos0, (2, 1)), np.zeros((3, len(FLOATER.mujoco_bodies), 6))),
     ValueError, "argument 'xfrc_applied': leading dimensions"),
    ("f_ext of a URDF model", lambda: f_ext_from_mujoco(pendulum(), [0.0], np.zeros((2, 6))),
     TypeError, "argument 'model': expected a model from load_mjcf"),
]


@pytest.mark.parametrize("call, error, message", [row[1:] for row in BAD],
                         ids=[row[0] for row in BAD])
def test_bad_input_names_what_is_wrong(call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MJCFWarning)      # MuJoCo's own NaN notice
        with pytest.raises(error, match=message):
            call()


def test_without_mujoco_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "mujoco", None)
    with pytest.raises(ModuleNotFoundError, match=r"pip install liedyn\[mujoco\]"):
        load_mjcf(CHAIN)


def test_joint_types_are_mujocos():
    assert JOINT_TYPES == tuple(t[len("mjJNT_"):].lower()
                                for t in mujoco.mjtJoint.__members__)
