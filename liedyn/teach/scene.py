"""Interactive 3D scenes of a model's motion, offline: in the book, Jupyter, a file.

:func:`scene` turns a model and a motion (a :class:`~liedyn.simulation.Trajectory`
or configurations) into a :class:`Scene`: the body poses by forward kinematics,
``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` (Kim (2012), Section 2.1), at every
frame, played by the `MeshCat <https://github.com/meshcat-dev/meshcat>`_ viewer
(three.js inside). A :class:`Scene` is one HTML document (the viewer's script from
the ``meshcat`` wheel, the shapes, the animation; no request to any server), shown
in a notebook as an ``<iframe srcdoc=...>`` and written by :meth:`Scene.save`.

What is drawn: the ``<visual>`` shapes of a URDF model's links (meshes read with
trimesh and decimated to ``max_faces`` triangles per file, boxes, cylinders,
spheres); any other body from its inertia (:func:`inertia_box` at the centre of
mass, a ball for a point mass, rods from its joint to its centre of mass and to
its children's joints, a ball at the joint); with ``frames=True`` the body frames
as red-green-blue (x-y-z) triads. The viewer's world is z-up: the model is turned
so that its gravity points down (``Scene.root``), over a grid under the lowest
body. Below the picture: play/pause, a time slider and a checkbox for the frames.

Derived in :ref:`sec-forward-dynamics`.
"""
import base64
import functools
import html
import importlib.util
import itertools
import json
import pathlib

import numpy as np

from .. import _checks
from ..kinematics import forward_kinematics
from ..lie import exp_so3, rot_to_quat, skew

__all__ = ["Scene", "scene", "inertia_box", "viewer_script"]

_PALETTE = (0x4C72B0, 0xDD8452, 0x55A868, 0xC44E52, 0x8172B3, 0x937860, 0xDA8BC3,
            0x8C8C8C, 0xCCB974, 0x64B5CD)
_GREY, _ROD, _JOINT = 0xB4B4B4, 0x707070, 0x404040
_FLOAT32, _UINT16, _UINT32 = 0x17, 0x14, 0x16    # msgpack ext codes of typed arrays


@functools.lru_cache(maxsize=1)
def viewer_script():
    """The MeshCat viewer (three.js inside): ``main.min.js`` of ``meshcat``.

    >>> "exports.MeshCat" in viewer_script()
    True
    """
    spec = importlib.util.find_spec("meshcat")     # found, not imported (no zmq)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("liedyn.teach.scene needs the viewer of the "
                                  "meshcat package (pip install meshcat)")
    folder = pathlib.Path(spec.submodule_search_locations[0])
    return (folder / "viewer" / "dist" / "main.min.js").read_text(encoding="utf-8")


# --- three.js objects in the JSON form of THREE.ObjectLoader (MeshCat's set_object)

def _typed(x, code):
    import umsgpack
    return umsgpack.Ext(code, np.ascontiguousarray(x).tobytes())


def _attribute(x):
    """A float32 BufferAttribute of (V, 3) values."""
    return {"itemSize": 3, "type": "Float32Array", "normalized": False,
            "array": _typed(np.asarray(x, dtype=np.float32), _FLOAT32)}


def _lines(vertices, colours=None):
    """A BufferGeometry of line segments between vertex pairs (2 k, 2 k + 1)."""
    attributes = {"position": _attribute(vertices)}
    if colours is not None:
        attributes["color"] = _attribute(colours)
    return {"type": "BufferGeometry", "data": {"attributes": attributes}}


def _buffer(vertices, faces):
    """A BufferGeometry of (V, 3) positions, (F, 3) triangles (no normals)."""
    small = len(vertices) < 65536
    index = np.asarray(faces, dtype=np.uint16 if small else np.uint32).ravel()
    geometry = _lines(vertices)
    kind, code = ("Uint16Array", _UINT16) if small else ("Uint32Array", _UINT32)
    geometry["data"]["index"] = {"itemSize": 1, "type": kind,
                                 "array": _typed(index, code)}
    return geometry


def _object(ids, geometry, material, kind="Mesh", matrix=None):
    """The set_object payload for one geometry and material (dicts without uuid)."""
    g, m = dict(geometry, uuid=next(ids)), dict(material, uuid=next(ids))
    T = np.eye(4) if matrix is None else np.asarray(matrix)
    obj = {"uuid": next(ids), "type": kind, "geometry": g["uuid"],
           "material": m["uuid"],
           "matrix": T.T.ravel().tolist()}  # three.js matrices are column-major
    return {"metadata": {"version": 4.5, "type": "Object"}, "geometries": [g],
            "materials": [m], "object": obj}


def _material(color, opacity=1.0):
    return {"type": "MeshLambertMaterial", "color": int(color),
            "opacity": float(opacity), "transparent": bool(opacity < 1), "side": 2,
            "vertexColors": False}


def _rgba(rgba, default):
    """(colour as 0xRRGGBB, opacity) from a URDF rgba tuple (or the default)."""
    if rgba is None:
        return default, 1.0
    r, g, b = (int(round(255 * float(np.clip(c, 0, 1)))) for c in rgba[:3])
    return (r << 16) | (g << 8) | b, float(rgba[3])


def _solid(kind, size):
    """The three.js geometry of a "box" (sides), "sphere" (radius,) or "cylinder"
    (radius, length; along y, see :data:`_Y_TO_Z`)."""
    if kind == "box":
        return {"type": "BoxGeometry", "width": float(size[0]),
                "height": float(size[1]), "depth": float(size[2])}
    if kind == "sphere":
        return {"type": "SphereGeometry", "radius": float(size[0]),
                "widthSegments": 20, "heightSegments": 12}
    return {"type": "CylinderGeometry", "radiusTop": float(size[0]),
            "radiusBottom": float(size[0]), "height": float(size[1]),
            "radialSegments": 16}


def _turn(a, b):
    """The rotation (3, 3) taking the unit vector ``a`` to ``b`` about ``a x b`` (a
    half turn about x if they are opposite; one of them is the z axis)."""
    axis = np.cross(a, b)
    s, c = np.linalg.norm(axis), float(np.dot(a, b))
    if s > 1e-12:
        return exp_so3(axis / s * np.arctan2(s, c))
    return np.diag([1.0, np.sign(c), np.sign(c)])


_Y_TO_Z = np.eye(4)
_Y_TO_Z[:3, :3] = exp_so3([np.pi / 2, 0.0, 0.0])
"""three.js cylinders run along y; URDF cylinders and our rods along z."""


def _triad(length):
    """Three line segments x, y, z in red, green, blue."""
    v = np.zeros((6, 3))
    v[1], v[3, 1], v[5, 2] = (length, 0, 0), length, length
    c = np.array([[1, 0, 0]] * 2 + [[0, 0.7, 0]] * 2 + [[0, 0, 1]] * 2, dtype=float)
    material = {"type": "LineBasicMaterial", "vertexColors": True, "linewidth": 2}
    return _lines(v, c), material


def _grid(poses, root, scale):
    """A square grid of lines in the viewer's z-up frame, under the lowest body."""
    pts = poses[..., :3, 3].reshape(-1, 3) @ root[:3, :3].T + root[:3, 3]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    raw = scale / 8                              # about 25 lines across the motion
    unit = 10.0 ** np.floor(np.log10(raw))
    step = unit * next(m for m in (1, 2, 5, 10) if m * unit >= raw)
    half = step * np.ceil(1.5 * max(hi[0] - lo[0], hi[1] - lo[1], scale) / step)
    u = np.arange(-half, half + step / 2, step)
    h = np.full_like(u, half)            # per tick: (u, -h) (u, h) (-h, u) (h, u)
    ends = np.stack([u, -h, u, h, -h, u, h, u], axis=-1).reshape(-1, 2)
    v = np.zeros((len(ends), 3))
    v[:, :2] = ends + (lo[:2] + hi[:2]) / 2
    v[:, 2] = lo[2]
    material = {"type": "LineBasicMaterial", "color": 0x9A9A9A, "transparent": True,
                "opacity": 0.7}
    return _lines(v), material


# --- meshes from files, decimated, cached per (file, max_faces) -------------------

def _colour_of(mesh):
    """The diffuse colour of a trimesh mesh as 0xRRGGBB (None: the default grey)."""
    visual, rgba = mesh.visual, None
    material = getattr(visual, "material", None)
    if material is not None:
        rgba = next((c for c in (getattr(material, "diffuse", None),
                                 getattr(material, "main_color", None))
                     if c is not None), None)
    elif getattr(visual, "kind", None) in ("face", "vertex"):
        rgba = visual.main_color
    if rgba is None:
        return None
    r, g, b = (int(c) for c in np.asarray(rgba)[:3])
    return None if (r, g, b) == (102, 102, 102) else (r << 16) | (g << 8) | b


@functools.lru_cache(maxsize=256)
def _mesh_parts(filename, max_faces):
    """[(vertices (V, 3), faces (F, 3), colour or None)] of a mesh file, in its
    frame: one part per material colour (a COLLADA scene has several), sharing the
    triangle budget ``max_faces`` in proportion to their size."""
    import trimesh

    loaded = trimesh.load(filename, force=None)
    meshes = loaded.dump() if isinstance(loaded, trimesh.Scene) else [loaded]
    meshes = [m for m in meshes if isinstance(m, trimesh.Trimesh) and len(m.faces)]
    groups = {}
    for m in meshes:
        groups.setdefault(_colour_of(m), []).append(m)
    total = sum(len(m.faces) for m in meshes)
    parts = []
    for colour, ms in groups.items():
        m = trimesh.util.concatenate(ms) if len(ms) > 1 else ms[0].copy()
        m.merge_vertices()
        budget = max(12, int(max_faces * len(m.faces) / total))
        if len(m.faces) > budget:
            m = m.simplify_quadric_decimation(face_count=budget)
        parts.append((np.asarray(m.vertices, dtype=np.float32),
                      np.asarray(m.faces, dtype=np.int64), colour))
    return parts


# --- shapes of a body: URDF visuals, or boxes, balls and rods from the inertias ---

def inertia_box(mass, I_com):
    """Sides and axes of the uniform box with the given mass and rotational inertia.

    The scenes draw a body as this box: mass and ``I_com`` are read from the body's
    generalized inertia, Kim (2012), eq. (22).

    A box of sides ``(a, b, c)`` has ``I_xx = m (b^2 + c^2) / 12`` and cyclic, so in
    the principal axes ``a^2 = 6 (I_yy + I_zz - I_xx) / m`` and cyclic (negative
    values, from an inertia violating the triangle inequality, are clipped to 0).

    Parameters
    ----------
    mass : float, > 0
    I_com : (3, 3) array, rotational inertia at the centre of mass

    Returns
    -------
    sides : (3,) array, R : (3, 3) array (columns: the box's axes, a rotation)

    Examples
    --------
    >>> sides, R = inertia_box(12.0, np.diag([5.0, 10.0, 13.0]))   # a 3 x 2 x 1 box
    >>> np.round(sides, 12).tolist()
    [3.0, 2.0, 1.0]
    """
    moments, R = np.linalg.eigh(np.asarray(I_com, dtype=float))
    sides = np.sqrt(np.clip(6.0 * (moments.sum() - 2 * moments) / mass, 0.0, None))
    if np.linalg.det(R) < 0:
        R, sides = R[:, [1, 0, 2]], sides[[1, 0, 2]]
    return sides, R


def _rods(ends, radius):
    """[(geometry, material, matrix)]: grey cylinders from the frame's origin to
    each point of ``ends`` (points too close to the origin are skipped)."""
    shapes = []
    for e in ends:
        length = float(np.linalg.norm(e))
        if length >= 1e-9:
            T = np.eye(4)
            T[:3, :3], T[:3, 3] = _turn([0.0, 0.0, 1.0], e / length), e / 2
            shapes.append((_solid("cylinder", (radius, length)), _material(_ROD),
                           T @ _Y_TO_Z))
    return shapes


def _inertia_shapes(model, i, scale):
    """[(geometry, material, matrix)] drawing body ``i`` from its inertia and
    joints (body 0, the ground: rods to the joints on it)."""
    ends = [np.asarray(model.placements[k][:3, 3], dtype=float)
            for k in range(1, model.nbodies + 1) if model.parent[k] == i]
    if i == 0:
        return _rods(ends, 0.015 * scale)
    I, colour = model.inertias[i], _PALETTE[(i - 1) % len(_PALETTE)]
    thin, joint, m = 0.015 * scale, 0.035 * scale, float(I[3, 3])
    shapes = [(_solid("sphere", [joint]), _material(_JOINT), np.eye(4))]
    if m > 0:                         # centre of mass c and I_com: Kim eq. (22)
        c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
        ends.append(c)
        sides, R = inertia_box(m, I[:3, :3] - m * skew(c) @ skew(c).T)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, c
        shape = (_solid("sphere", [0.06 * scale]) if sides.max() < 2 * joint
                 else _solid("box", np.maximum(sides, 2 * thin)))
        shapes.append((shape, _material(colour), T))
    return shapes + _rods(ends, thin)


def _visual_shapes(visual, max_faces):
    """[(geometry, material, matrix)] of one URDF
    :class:`~liedyn.urdf_visuals.Visual`."""
    colour, opacity = _rgba(visual.rgba, _GREY)
    T = np.asarray(visual.T, dtype=float)
    if visual.kind != "mesh":
        return [(_solid(visual.kind, visual.size), _material(colour, opacity),
                 T @ _Y_TO_Z if visual.kind == "cylinder" else T)]
    S = T @ np.diag(list(visual.size) + [1.0])
    return [(_buffer(vertices, faces),
             _material(own if own is not None and visual.rgba is None else colour,
                       opacity), S)
            for vertices, faces, own in _mesh_parts(visual.filename, max_faces)]


def _body_shapes(model, visuals, scale, max_faces):
    """{body i: [(geometry, material, matrix)]}: the URDF visuals of a body, or its
    inertia box and rods; the ground's rods when no body has visuals."""
    visuals = list(getattr(model, "visuals", None) or [] if visuals is None
                   else visuals)
    for v in visuals:
        if not 0 <= getattr(v, "body", -1) <= model.nbodies:
            raise ValueError("argument 'visuals': expected "
                             "liedyn.urdf_visuals.Visual "
                             f"records on bodies 0..{model.nbodies}, got {v!r}")
    shown = [v for v in visuals if v.kind != "mesh" or v.filename is not None]
    shapes = {i: [] for i in range(model.nbodies + 1)}
    for v in shown:
        shapes[v.body] += _visual_shapes(v, max_faces)
    drawn = {v.body for v in shown}
    for i in range(0 if not visuals else 1, model.nbodies + 1):
        if i not in drawn:
            shapes[i] += _inertia_shapes(model, i, scale)
    return shapes


# --- the scene ------------------------------------------------------------------

def _frames(model, q, times, max_frames):
    """Validated (times, Q) with at most ``max_frames`` samples (evenly strided)."""
    if hasattr(q, "q") and hasattr(q, "t"):
        Q, t = np.asarray(q.q, dtype=float), np.asarray(q.t, dtype=float)
        if times is not None:
            raise ValueError("argument 'times': give times only with an array of "
                             "configurations (a Trajectory has its own)")
    else:
        Q = np.atleast_2d(np.asarray(model.check_q(q), dtype=float))
        t = None if times is None else np.asarray(times, dtype=float)
    if Q.ndim != 2 or Q.shape[-1] != model.nq:
        raise ValueError(f"argument 'q': expected configurations of shape (frames, "
                         f"{model.nq}) (one motion; select one from a batch "
                         f"first), got {Q.shape}")
    t = np.arange(len(Q)) / 30.0 if t is None else t
    if (t.shape != (len(Q),) or not np.all(np.isfinite(t))
            or np.any(np.diff(t) <= 0)):
        raise ValueError(f"argument 'times': expected {len(Q)} increasing finite "
                         f"times, got shape {t.shape}")
    _checks.finite("q", Q)
    _checks.scalar("max_frames", max_frames, positive=True, integer=True)
    idx = np.arange(0, len(Q), max(1, int(np.ceil(len(Q) / max_frames))))
    return t[idx] - t[0], Q[idx]


class Scene:
    """An interactive 3D scene: a self-contained HTML document (see :func:`scene`).

    It holds the body poses ``T_{0,i}`` of Kim (2012), Section 2.1, at every frame.

    Attributes
    ----------
    model : the model drawn
    times : (K,) array, the frame times (s), starting at 0
    q : (K, nq) array, the configuration at each frame
    poses : (K, N+1, 4, 4) array, ``T_{0,i}`` of every body at every frame
    root : (4, 4) array, the pose of the model's world in the viewer's z-up world
    commands : list of dict, the MeshCat commands (set_object, set_transform, ...)
    """

    def __init__(self, model, times, q, poses, root, commands, height, title):
        self.model, self.times, self.q = model, times, q
        self.poses, self.root, self.commands = poses, root, commands
        self.height, self.title = height, title

    def html(self):
        """The complete HTML document: viewer script, scene and controls."""
        return _document(self)

    def save(self, path):
        """Write :meth:`html` to ``path`` (opens offline); return ``path``."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.html())
        return path

    def _repr_html_(self):
        doc = html.escape(self.html(), quote=True)
        label = html.escape(self.title, quote=True)
        style = (f"width: 100%; height: {int(self.height)}px; border: 1px solid "
                 f"#ccc; border-radius: 4px;")
        return (f'<iframe class="liedyn-scene" title="{label}" srcdoc="{doc}" '
                f'style="{style}" loading="lazy"></iframe>')

    def __repr__(self):
        return (f"Scene({self.model.name!r}, {len(self.times)} frames, "
                f"{self.times[-1]:.2f} s)")


def scene(model, q, times=None, frames=False, max_frames=300, max_faces=2000,
          height=420, title=None, visuals=None):
    """A 3D scene of ``model`` moving through the configurations ``q``, to show or
    save.

    Each frame's body poses come from forward kinematics,
    ``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` (Kim (2012), Section 2.1),
    computed for all frames in one batched call, and become position and quaternion
    tracks of a three.js animation played by the MeshCat viewer. The module
    docstring says what is drawn.

    Parameters
    ----------
    model : liedyn.model.Model
        a :class:`~liedyn.urdf.URDFModel` shows its links' ``<visual>`` shapes
    q : Trajectory or (K, nq) array or (nq,) array
        the motion: a :class:`~liedyn.simulation.Trajectory` of one initial state
        (its ``t`` and ``q``), configurations at ``times``, or one configuration (a
        still)
    times : (K,) array, optional
        increasing times (s) of the configurations (default 30 frames per second)
    frames : bool
        draw the body frames as x-y-z triads (a checkbox toggles them)
    max_frames : int
        keep at most this many frames (every k-th), to bound the file size
    max_faces : int
        triangles per mesh file after decimation
    height : int
        height in pixels of the scene in a notebook or page
    title : str, optional
        default: the model's name
    visuals : list of liedyn.urdf_visuals.Visual, optional
        shapes to draw instead of ``model.visuals`` (e.g. a cylinder for a disk);
        bodies without one are drawn from their inertia

    Returns
    -------
    Scene
        displays itself in a notebook; ``Scene.save(path)`` writes a standalone file

    Examples
    --------
    >>> from liedyn.robots import double_pendulum
    >>> from liedyn.simulation import simulate
    >>> model = double_pendulum()
    >>> traj = simulate(model, [1.0, 0.0], [0.0, 0.0], dt=0.01, steps=100)
    >>> s = scene(model, traj)
    >>> s, s.poses.shape
    (Scene('double pendulum', 101 frames, 1.00 s), (101, 3, 4, 4))
    >>> s.html().startswith("<!DOCTYPE html>")
    True
    """
    times, Q = _frames(model, q, times, max_frames)
    if _checks.scalar("max_faces", max_faces, integer=True) < 12:
        raise ValueError(f"argument 'max_faces': expected an integer >= 12, got "
                         f"{max_faces!r}")
    poses = np.asarray(forward_kinematics(model, Q).T_world, dtype=float)
    root = np.eye(4)                              # the model's gravity points down
    g = np.asarray(model.gravity, dtype=float)
    if np.linalg.norm(g) > 0:
        root[:3, :3] = _turn(-g / np.linalg.norm(g), [0.0, 0.0, 1.0])
    pts = poses[..., :3, 3].reshape(-1, 3)
    scale = max(float(np.ptp(pts, axis=0).max()) if len(pts) > 1 else 0.0, 0.2)
    shapes = _body_shapes(model, visuals, scale, int(max_faces))
    commands = _commands(model, shapes, poses, root, scale, frames) + [
        _animation(model, times, poses)]
    title = model.name if title is None else str(title)
    return Scene(model, times, Q, poses, root, commands, height, title)


def _commands(model, shapes, poses, root, scale, frames):
    """The MeshCat commands that build the scene: the root turn, every shape, the
    floor, the frames if asked, and the bodies at their first poses."""
    ids = (f"00000000-0000-4000-8000-{n:012d}" for n in itertools.count(1))  # uuids

    def put(path, geometry, material, matrix=None, kind="Mesh"):
        return {"type": "set_object", "path": path,
                "object": _object(ids, geometry, material, kind, matrix)}
    commands = [{"type": "set_transform", "path": "/liedyn",
                 "matrix": root.T.ravel().tolist()}]
    commands += [put(f"/liedyn/body{i}/shape{k}", *shape)
                 for i, body in shapes.items() for k, shape in enumerate(body)]
    commands.append(put("/floor", *_grid(poses, root, scale), kind="LineSegments"))
    if frames:
        commands += [put(f"/liedyn/body{i}/frame", *_triad(0.12 * scale),
                         kind="LineSegments") for i in range(model.nbodies + 1)]
    return commands + [{"type": "set_transform", "path": f"/liedyn/body{i}",
                        "matrix": poses[0, i].T.ravel().tolist()}
                       for i in range(1, model.nbodies + 1)]


def _animation(model, times, poses):
    """One clip per body: position and quaternion tracks at the frame times; the
    quaternions (x, y, z, w), three.js's order, flipped to stay in one hemisphere
    from frame to frame."""
    positions = poses[..., :3, 3]
    quats = np.roll(rot_to_quat(poses[..., :3, :3]), -1, axis=-1)
    for k in range(1, len(quats)):
        quats[k][np.sum(quats[k] * quats[k - 1], axis=-1) < 0] *= -1
    animations = []
    for i in range(1, model.nbodies + 1):
        tracks = [{"name": ".position", "type": "vector3",
                   "keys": [{"time": float(t), "value": p.tolist()}
                            for t, p in zip(times, positions[:, i], strict=True)]},
                  {"name": ".quaternion", "type": "quaternion",
                   "keys": [{"time": float(t), "value": x.tolist()}
                            for t, x in zip(times, quats[:, i], strict=True)]}]
        clip = {"fps": 1.0, "name": "default", "tracks": tracks}
        animations.append({"path": f"/liedyn/body{i}", "clip": clip})
    return {"type": "set_animation", "path": "", "animations": animations,
            "options": {"play": False, "repetitions": float("inf"),
                        "clampWhenFinished": False}}


def _pack(command):
    """One command as base64 msgpack (floats as float32, arrays as typed-array
    ext)."""
    import umsgpack
    packed = umsgpack.packb(command, force_float_precision="single")
    return base64.b64encode(packed).decode()


_STYLE = """
html, body { margin: 0; height: 100%; overflow: hidden;
             font: 13px system-ui, sans-serif; }
#meshcat-pane { width: 100vw; height: 100vh; overflow: hidden; }
#bar { position: absolute; left: 0; right: 0; bottom: 0; display: flex; gap: 8px;
       align-items: center; padding: 4px 8px; background: rgba(255,255,255,0.85); }
#bar input[type=range] { flex: 1; }
#bar button { min-width: 5.5em; }
#time { font-variant-numeric: tabular-nums; min-width: 6.5em; }
"""

_CONTROLS = """
(function () {
  const a = viewer.animator, play = document.getElementById("play");
  const [slider, label, frames] = ["scrub", "time", "frames"].map(
    id => document.getElementById(id));
  a.folder.domElement.style.display = "none";  // our own controls replace these
  a.actions.forEach(x => { x.play(); x.paused = true; });
  slider.max = a.duration; slider.step = a.duration / 1000 || 0.001;
  function show() {
    label.textContent = "t = " + a.time.toFixed(2) + " s";
    slider.value = a.time;
    play.textContent = a.playing ? "\\u275A\\u275A pause" : "\\u25B6 play";
  }
  function seek(t) { a.seek(t); a.display_progress(t); show(); }
  play.onclick = () => {
    if (a.playing) { a.pause(); a.actions.forEach(x => { x.paused = true; }); }
    else { a.actions.forEach(x => { x.paused = false; }); a.play(); }
    show();
  };
  slider.oninput = () => { if (a.playing) play.onclick(); seek(+slider.value); };
  (function tick() { if (a.playing) show(); requestAnimationFrame(tick); })();
  frames.onchange = () => {
    FRAME_PATHS.forEach(p => viewer.set_property(p, "visible", frames.checked));
    viewer.set_dirty();
  };
  if (!FRAME_PATHS.length) frames.parentElement.style.display = "none";
  // camera: look at the motion's bounding box from the front-right, above
  const cam = viewer.camera, T = THREE_VECTOR;
  const centre = new T(...CENTRE), eye = new T(...EYE);
  viewer.scene.updateMatrixWorld(true);
  // from the scene's z-up coordinates to those of the camera's parent
  const local = v => cam.parent.worldToLocal(viewer.scene.localToWorld(v.clone()));
  cam.position.copy(local(eye));
  viewer.controls.target.copy(local(centre));
  viewer.controls.update();
  seek(0);
  window.liedynScene = { animator: a, duration: a.duration, show, seek };
})();
"""


def _document(s):
    """The standalone HTML text of scene ``s``."""
    pts = (s.root[:3, :3] @ s.poses[..., :3, 3].reshape(-1, 3).T).T + s.root[:3, 3]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre = (lo + hi) / 2
    radius = max(float(np.linalg.norm(hi - lo)) / 2, 0.3)
    eye = centre + radius * np.array([1.3, -1.9, 1.3])
    frame_paths = [c["path"].strip("/").split("/") + ["<object>"]
                   for c in s.commands if c["path"].endswith("/frame")]
    controls = (_CONTROLS.replace("FRAME_PATHS", json.dumps(frame_paths))
                .replace("CENTRE", json.dumps(np.round(centre, 4).tolist()))
                .replace("EYE", json.dumps(np.round(eye, 4).tolist()))
                .replace("THREE_VECTOR", "viewer.camera.position.constructor"))
    blobs = ",\n".join(f'"{_pack(c)}"' for c in s.commands)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(s.title)}</title>
<style>{_STYLE}</style></head>
<body>
<div id="meshcat-pane"></div>
<div id="bar"><button id="play" type="button">&#9654; play</button>
<input id="scrub" type="range" min="0" max="1" step="0.001" value="0"
       aria-label="time">
<span id="time">t = 0.00 s</span>
<label><input id="frames" type="checkbox" checked> frames</label></div>
<script>{viewer_script()}</script>
<script>
var viewer = new MeshCat.Viewer(document.getElementById("meshcat-pane"));
viewer.set_property(["Grid"], "visible", false);   // our floor is under the model
for (const b of [{blobs}]) {{
  viewer.handle_command_bytearray(Uint8Array.from(atob(b), c => c.charCodeAt(0)));
}}
{controls}
</script>
</body></html>
"""
