"""Tests of liedyn.teach.scene: the exported HTML is decoded and its poses checked against
kinematics.

The scene's data are read back from the HTML text itself (base64 msgpack commands of the MeshCat
viewer), so these tests see what a browser sees. Poses are rebuilt from the exported position and
quaternion tracks with the textbook quaternion-to-matrix formula and compared with
``forward_kinematics`` of the original configurations at three instants. The export is float32,
hence the tolerance of a few 1e-7 relative to the size of the motion.
"""
import base64
import re

import numpy as np
import pytest
import umsgpack

from liedyn.kinematics import forward_kinematics
from liedyn.robots import double_pendulum, four_bar
from liedyn.simulation import simulate
from liedyn.teach.scene import Scene, inertia_box, scene
from liedyn.urdf import load_robot, load_urdf


def commands(html):
    """The MeshCat commands embedded in a scene's HTML, decoded."""
    block = re.search(r"for \(const b of \[(.*?)\]\) \{", html, re.S).group(1)
    return [umsgpack.unpackb(base64.b64decode(b)) for b in re.findall(r'"([^"]+)"', block)]


def quat_to_matrix(x, y, z, w):
    """Rotation matrix of the unit quaternion w + xi + yj + zk."""
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def exported_poses(cmds, nbodies):
    """{body: (times, poses (K, 4, 4))} from the set_animation command."""
    anim = next(c for c in cmds if c["type"] == "set_animation")
    out = {}
    for a in anim["animations"]:
        i = int(a["path"].rsplit("body", 1)[1])
        tracks = {t["name"]: t["keys"] for t in a["clip"]["tracks"]}
        times = np.array([k["time"] for k in tracks[".position"]]) / a["clip"]["fps"]
        T = np.tile(np.eye(4), (len(times), 1, 1))
        T[:, :3, 3] = [k["value"] for k in tracks[".position"]]
        T[:, :3, :3] = [quat_to_matrix(*k["value"]) for k in tracks[".quaternion"]]
        out[i] = times, T
    assert sorted(out) == list(range(1, nbodies + 1))
    return out


def root_of(cmds):
    c = next(c for c in cmds if c["type"] == "set_transform" and c["path"] == "/liedyn")
    return np.array(c["matrix"]).reshape(4, 4).T


def check_poses(model, html, t, Q):
    """Exported poses at three instants against forward kinematics of the original q."""
    cmds = commands(html)
    poses = exported_poses(cmds, model.nbodies)
    size = np.ptp(forward_kinematics(model, Q).T_world[..., :3, 3].reshape(-1, 3), axis=0).max()
    for k in (0, len(t) // 2, len(t) - 1):
        expected = forward_kinematics(model, Q[k]).T_world
        for i, (times, T) in poses.items():
            j = int(np.argmin(np.abs(times - (t[k] - t[0]))))
            assert abs(times[j] - (t[k] - t[0])) < 1e-5
            assert np.allclose(T[j, :3, 3], expected[i, :3, 3], atol=1e-6 * max(size, 1))
            assert np.allclose(T[j, :3, :3], expected[i, :3, :3], atol=2e-6)
    return cmds


def test_double_pendulum_without_meshes():
    model = double_pendulum()
    traj = simulate(model, [2.0, -1.0], [0.0, 0.0], dt=0.02, duration=2.0)
    s = scene(model, traj, frames=True)
    cmds = check_poses(model, s.html(), traj.t, traj.q)
    # drawn from the inertias: shapes on both bodies, triads, the viewer script inlined
    paths = [c["path"] for c in cmds if c["type"] == "set_object"]
    assert any(p.startswith("/liedyn/body1/shape") for p in paths)
    assert any(p.startswith("/liedyn/body2/shape") for p in paths)
    assert sum(p.endswith("/frame") for p in paths) == model.nbodies + 1
    assert "MeshCat" in s.html() and "http://" not in s.html().split("<script>")[0]
    # gravity (along -y for this model, check it) points down in the viewer: root (-g) ~ +z
    g = np.asarray(model.gravity)
    up = root_of(cmds)[:3, :3] @ (-g / np.linalg.norm(g))
    assert np.allclose(up, [0, 0, 1], atol=1e-7)


def test_panda_with_meshes_and_times(tmp_path):
    panda = load_robot("panda")
    rng = np.random.default_rng(3)
    t = np.linspace(0.0, 1.5, 40)
    Q = np.cumsum(rng.normal(scale=0.05, size=(40, panda.nq)), axis=0)
    s = scene(panda, Q, times=t + 0.5)                          # times need not start at 0
    path = s.save(tmp_path / "panda.html")
    html = path.read_text(encoding="utf-8")
    cmds = check_poses(panda, html, t, Q)
    # every link's mesh file is drawn, on the body that carries the link
    mesh_bodies = {v.body for v in panda.visuals if v.kind == "mesh"}
    for i in mesh_bodies:
        objs = [c for c in cmds if c["type"] == "set_object"
                and c["path"].startswith(f"/liedyn/body{i}/shape")]
        assert objs, f"body {i} has no shape"
        geometry = objs[0]["object"]["geometries"][0]
        assert geometry["type"] == "BufferGeometry"
        vertices = np.frombuffer(geometry["data"]["attributes"]["position"]["array"].data,
                                 dtype=np.float32).reshape(-1, 3)
        assert 3 < len(vertices) and np.ptp(vertices, axis=0).max() < 0.5  # a Panda link
    faces = sum(len(c["object"]["geometries"][0]["data"]["index"]["array"].data) // 6
                for c in cmds if c["type"] == "set_object" and "/shape" in c["path"]
                and c["object"]["geometries"][0]["type"] == "BufferGeometry")
    assert faces <= 2000 * len({v.filename for v in panda.visuals}) * 1.05


def test_four_bar_rods_follow_the_links():
    """The equivalent box of a thin rod of length L is L long, along the rod."""
    model, _, q0 = four_bar()
    s = scene(model, q0)
    assert s.poses.shape == (1, 4, 4, 4)
    cmds = commands(s.html())
    boxes = [c["object"] for c in cmds if c["type"] == "set_object"
             and c["object"]["geometries"][0]["type"] == "BoxGeometry"]
    assert sorted(round(b["geometries"][0]["width"], 9) for b in boxes) == [1.0, 1.5, 2.0]


def test_inertia_box_inverts_the_box_inertia():
    rng = np.random.default_rng(0)
    for _ in range(20):
        sides, m = rng.uniform(0.1, 2.0, 3), rng.uniform(0.5, 5.0)
        a, b, c = sides
        I = m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
        R = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        got, axes = inertia_box(m, R @ I @ R.T)
        assert np.isclose(np.linalg.det(axes), 1.0)
        # the box's inertia in its axes, rotated back, is the input
        A, B, C = got
        I_box = m / 12 * np.diag([B * B + C * C, A * A + C * C, A * A + B * B])
        assert np.allclose(axes @ I_box @ axes.T, R @ I @ R.T, atol=1e-12)


def test_repr_html_is_an_iframe_of_the_document():
    model = double_pendulum()
    s = scene(model, [0.3, 0.2])
    out = s._repr_html_()
    assert out.startswith("<iframe") and "srcdoc=" in out and "&lt;!DOCTYPE html&gt;" in out
    assert isinstance(s, Scene) and "1 frames" in repr(s)


@pytest.mark.parametrize("kwargs, match", [
    (dict(q=np.zeros((5, 3))), "argument 'q'"),
    (dict(q=np.zeros((5, 2)), times=np.zeros(5)), "argument 'times'"),
    (dict(q=np.full((2, 2), np.nan)), "NaN"),
    (dict(q=np.zeros((5, 2)), max_frames=0), "argument 'max_frames'"),
    (dict(q=np.zeros((5, 2)), max_faces=3), "argument 'max_faces'"),
])
def test_bad_input_names_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        scene(double_pendulum(), **kwargs)


def test_max_frames_strides_the_motion():
    model = double_pendulum()
    traj = simulate(model, [1.0, 0.0], [0.0, 0.0], dt=0.01, steps=299)
    s = scene(model, traj, max_frames=30)
    assert len(s.times) == 30 and np.isclose(s.times[1], 0.1)
    check_poses(model, s.html(), traj.t[::10], traj.q[::10])


URDF = """<robot name="r">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/>
    </inertial>
    <visual><origin xyz="0 0 0.5"/><geometry><box size="0.1 0.2 1"/></geometry>
      <material name="red"/></visual>
  </link>
  <link name="tool">
    <visual><origin xyz="0.1 0 0"/><geometry><mesh filename="part.stl" scale="2 2 2"/>
      </geometry></visual>
    <visual><geometry><cylinder radius="0.05" length="0.3"/></geometry>
      <material name="c"><color rgba="0 0 1 0.5"/></material></visual>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="weld" type="fixed"><parent link="arm"/><child link="tool"/>
    <origin xyz="0 0 1"/></joint>
</robot>"""


def test_urdf_keeps_visuals(tmp_path):
    import trimesh
    trimesh.creation.box(extents=(0.1, 0.1, 0.1)).export(tmp_path / "part.stl")
    (tmp_path / "r.urdf").write_text(URDF)
    model = load_urdf(tmp_path / "r.urdf")
    box, mesh, cyl = model.visuals
    assert (box.link, box.body, box.kind, box.size, box.rgba) == ("arm", 1, "box",
                                                                  (0.1, 0.2, 1.0), (1, 0, 0, 1))
    assert np.allclose(box.T[:3, 3], [0, 0, 0.5])
    # the tool is welded to the arm at z = 1: its visuals ride on body 1, placed through the weld
    assert (mesh.body, mesh.kind, mesh.size) == (1, "mesh", (2.0, 2.0, 2.0))
    assert mesh.filename == str(tmp_path / "part.stl")
    assert np.allclose(mesh.T[:3, 3], [0.1, 0, 1.0])
    assert (cyl.kind, cyl.size, cyl.rgba) == ("cylinder", (0.05, 0.3), (0, 0, 1, 0.5))
    # from a string, a relative mesh name cannot be resolved: kept, filename None
    assert load_urdf(URDF).visuals[1].filename is None
    # the scene draws all three (the mesh scaled by 2), and poses still match kinematics
    s = scene(model, np.linspace([-1.0], [1.0], 5))
    cmds = check_poses(model, s.html(), s.times, s.q)
    objs = [c for c in cmds if c["type"] == "set_object" and "/body1/" in c["path"]]
    assert [o["object"]["geometries"][0]["type"] for o in objs] == [
        "BoxGeometry", "BufferGeometry", "CylinderGeometry"]
    matrix = np.array(objs[1]["object"]["object"]["matrix"]).reshape(4, 4).T
    assert np.allclose(np.diag(matrix)[:3], 2.0)


def test_example_robot_data_meshes_resolve():
    for name in ("panda", "talos", "solo12"):
        model = load_robot(name, floating_base=name != "panda")
        meshes = [v for v in model.visuals if v.kind == "mesh"]
        assert meshes and all(v.filename is not None for v in meshes), name


def test_visuals_argument_replaces_the_inertia_shapes():
    from liedyn.robots import rolling_disk
    from liedyn.urdf_visuals import Visual
    model, _, q0 = rolling_disk()
    R = np.eye(4)
    R[:3, :3] = [[1, 0, 0], [0, 0, -1], [0, 1, 0]]           # cylinder axis z -> body y
    disk = Visual("disk", 2, R, "cylinder", (0.5, 0.05))
    cmds = commands(scene(model, q0, visuals=[disk]).html())
    kinds = {c["path"].split("/")[2]: [] for c in cmds if c["type"] == "set_object"
             and c["path"].startswith("/liedyn/")}
    for c in cmds:
        if c["type"] == "set_object" and c["path"].startswith("/liedyn/"):
            kinds[c["path"].split("/")[2]].append(c["object"]["geometries"][0]["type"])
    assert kinds["body2"] == ["CylinderGeometry"]               # the disk, not its inertia box
    assert "BoxGeometry" in kinds["body1"] or "SphereGeometry" in kinds["body1"]
    with pytest.raises(ValueError, match="argument 'visuals'"):
        scene(model, q0, visuals=[Visual("x", 7, np.eye(4), "sphere", (1.0,))])
