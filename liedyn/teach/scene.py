"""Interactive 3D scenes of a model's motion, offline: in the book, Jupyter, a file.

:func:`scene` turns a model and a motion (a :class:`~liedyn.simulation.Trajectory`
or any sequence of configurations) into a :class:`Scene`: the poses of the bodies by
forward kinematics, ``T_{0,i} = T_{0,lambda(i)} T_{lambda(i),i}`` (Kim (2012),
Section 2.1), at every frame, played back by the `MeshCat
<https://github.com/meshcat-dev/meshcat>`_ viewer (three.js inside). A
:class:`Scene` is a complete HTML document: the viewer's script (from the
``meshcat`` wheel on PyPI), the shapes and the animation, with no request to any
server. A notebook shows it in an ``<iframe srcdoc=...>`` (JupyterLab, Notebook and
the static book alike, no kernel extension); :meth:`Scene.save` writes it to a file.

What is drawn:

* a model loaded from URDF (:func:`liedyn.urdf.load_urdf`) shows the ``<visual>``
  shapes of its links: meshes (STL, OBJ, DAE; read with trimesh and decimated, once
  per file, to at most ``max_faces`` triangles), boxes, cylinders and spheres;
* any other body (or a URDF link with no visual) is drawn from its inertia: the box
  with the same mass and rotational inertia (:func:`inertia_box`, in the principal
  axes at the centre of mass), a ball at a point mass, thin rods from the body's
  joint to its centre of mass and to its children's joints, and a ball at each
  joint;
* ``frames=True`` adds the body frames ``{i}`` as red-green-blue (x-y-z) triads.

The viewer's world is z-up: a model whose gravity points along another axis is
turned so that gravity points down (``Scene.root``); a grid is drawn under the
lowest body frame. Below the picture: play/pause, a time slider, the time and a
checkbox for the frames. Drag to orbit, scroll to zoom, right-drag to pan.

Derived in :ref:`sec-forward-dynamics`.
"""
import base64
import functools
import html
import importlib.util
import json
import os

import numpy as np

from ..kinematics import forward_kinematics
from ..lie import exp_so3

__all__ = ["Scene", "scene", "inertia_box", "viewer_script"]

_PALETTE = (0x4C72B0, 0xDD8452, 0x55A868, 0xC44E52, 0x8172B3, 0x937860, 0xDA8BC3,
            0x8C8C8C, 0xCCB974, 0x64B5CD)
_GREY = 0xB4B4B4
_FLOAT32, _UINT16, _UINT32 = 0x17, 0x14, 0x16    # msgpack ext codes of typed arrays


@functools.lru_cache(maxsize=1)
def viewer_script():
    """The MeshCat viewer: ``main.min.js`` of the ``meshcat`` wheel, three.js
    inside."""
    # found, not imported: no zmq, server
    spec = importlib.util.find_spec("meshcat")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("liedyn.teach.scene needs the viewer of the "
                                  "meshcat package (pip install meshcat)")
    folder = spec.submodule_search_locations[0]
    path = os.path.join(folder, "viewer", "dist", "main.min.js")
    with open(path, encoding="utf-8") as f:
        return f.read()


# ----------------------------------------------------------------------------------
# three.js objects in the JSON form of THREE.ObjectLoader, as MeshCat's set_object
# takes
# ----------------------------------------------------------------------------------

class _Ids:
    """Deterministic uuids, so that the same call writes the same file."""

    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return f"00000000-0000-4000-8000-{self.n:012d}"


def _typed(x, code):
    import umsgpack
    return umsgpack.Ext(code, np.ascontiguousarray(x).tobytes())


def _attribute(x):
    """A float32 BufferAttribute of (V, 3) values."""
    return {"itemSize": 3, "type": "Float32Array", "normalized": False,
            "array": _typed(np.asarray(x, dtype=np.float32), _FLOAT32)}


def _buffer(vertices, faces):
    """A BufferGeometry: (V, 3) positions, (F, 3) indices (the viewer adds
    normals)."""
    small = len(vertices) < 65536
    index = np.asarray(faces, dtype=np.uint16 if small else np.uint32)
    return {"type": "BufferGeometry",
            "data": {"attributes": {"position": _attribute(vertices)},
                     "index": {"itemSize": 1,
                               "type": "Uint16Array" if small else "Uint32Array",
                               "array": _typed(index.ravel(),
                                               _UINT16 if small else _UINT32)}}}


def _object(ids, geometry, material, kind="Mesh", matrix=None):
    """The set_object payload for one geometry and material (dicts without uuid)."""
    g, m = dict(geometry, uuid=ids()), dict(material, uuid=ids())
    T = np.eye(4) if matrix is None else np.asarray(matrix)
    obj = {"uuid": ids(), "type": kind, "geometry": g["uuid"],
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


def _rotate_y_to_z():
    """three.js cylinders run along y; URDF cylinders and our rods along z."""
    T = np.eye(4)
    T[:3, :3] = exp_so3([np.pi / 2, 0.0, 0.0])
    return T


def _box(size):
    return {"type": "BoxGeometry", "width": float(size[0]),
            "height": float(size[1]), "depth": float(size[2])}


def _sphere(radius):
    return {"type": "SphereGeometry", "radius": float(radius), "widthSegments": 20,
            "heightSegments": 12}


def _cylinder(radius, length):
    return {"type": "CylinderGeometry", "radiusTop": float(radius),
            "radiusBottom": float(radius), "height": float(length),
            "radialSegments": 16}


def _triad(length):
    """Three line segments x, y, z in red, green, blue."""
    v = np.zeros((6, 3))
    v[1], v[3, 1], v[5, 2] = (length, 0, 0), length, length
    c = np.array([[1, 0, 0]] * 2 + [[0, 0.7, 0]] * 2 + [[0, 0, 1]] * 2, dtype=float)
    geometry = {"type": "BufferGeometry",
                "data": {"attributes": {"position": _attribute(v),
                                        "color": _attribute(c)}}}
    material = {"type": "LineBasicMaterial", "vertexColors": True, "linewidth": 2}
    return geometry, material


def _grid(poses, root, scale):
    """A square grid of lines in the viewer's z-up frame, under the lowest body."""
    pts = poses[..., :3, 3].reshape(-1, 3) @ root[:3, :3].T + root[:3, 3]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    raw = scale / 8                              # about 25 lines across the motion
    unit = 10.0 ** np.floor(np.log10(raw))
    step = unit * next(m for m in (1, 2, 5, 10) if m * unit >= raw)
    half = step * np.ceil(1.5 * max(hi[0] - lo[0], hi[1] - lo[1], scale) / step)
    ticks = np.arange(-half, half + step / 2, step)
    ends = []
    for u in ticks:
        ends += [(u, -half), (u, half), (-half, u), (half, u)]
    v = np.zeros((len(ends), 3))
    v[:, :2] = np.array(ends) + (lo[:2] + hi[:2]) / 2
    v[:, 2] = lo[2]
    geometry = {"type": "BufferGeometry",
                "data": {"attributes": {"position": _attribute(v)}}}
    material = {"type": "LineBasicMaterial", "color": 0x9A9A9A, "transparent": True,
                "opacity": 0.7}
    return geometry, material


# ----------------------------------------------------------------------------------
# meshes from files, decimated, cached per (file, max_faces)
# ----------------------------------------------------------------------------------

def _colour_of(mesh):
    """The diffuse colour of a trimesh mesh as 0xRRGGBB (None: the default grey)."""
    visual = mesh.visual
    material = getattr(visual, "material", None)
    rgba = None
    if material is not None:
        rgba = getattr(material, "diffuse", None)
        if rgba is None:
            rgba = getattr(material, "main_color", None)
    elif getattr(visual, "kind", None) in ("face", "vertex"):
        rgba = visual.main_color
    if rgba is None:
        return None
    r, g, b = (int(c) for c in np.asarray(rgba)[:3])
    return None if (r, g, b) == (102, 102, 102) else (r << 16) | (g << 8) | b


@functools.lru_cache(maxsize=256)
def _mesh_parts(filename, max_faces):
    """[(vertices (V, 3), faces (F, 3), colour or None)] of a mesh file, in its
    frame.

    A file with several parts (a COLLADA scene) keeps one part per material colour;
    the triangle budget ``max_faces`` is shared among the parts in proportion to
    their size.
    """
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


# ----------------------------------------------------------------------------------
# shapes of a body: URDF visuals, or boxes, balls and rods from the inertias
# ----------------------------------------------------------------------------------

def _centre_of_mass(I):
    """Mass, centre of mass and rotational inertia there, from Kim (2012), eq.
    (22)."""
    m = float(I[3, 3])
    if m <= 0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
    C = np.array([[0, -c[2], c[1]], [c[2], 0, -c[0]], [-c[1], c[0], 0]])
    return m, c, I[:3, :3] - m * C @ C.T


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
    sides : (3,) array, R : (3, 3) array (columns: the box's axes)

    Examples
    --------
    >>> sides, R = inertia_box(12.0, np.diag([5.0, 10.0, 13.0]))   # a 3 x 2 x 1 box
    >>> np.round(sides, 12).tolist()
    [3.0, 2.0, 1.0]
    """
    moments, R = np.linalg.eigh(np.asarray(I_com, dtype=float))
    s = moments.sum()
    sides = np.sqrt(np.clip(6.0 * (s - 2 * moments) / mass, 0.0, None))
    if np.linalg.det(R) < 0:
        R = R[:, [1, 0, 2]]
        sides = sides[[1, 0, 2]]
    return sides, R


def _rod(a, b, radius):
    """(geometry, matrix) of a cylinder from ``a`` to ``b`` (None if too short)."""
    d = np.asarray(b, float) - np.asarray(a, float)
    length = float(np.linalg.norm(d))
    if length < 1e-9:
        return None
    z = d / length
    axis = np.cross([0.0, 0.0, 1.0], z)
    s, c = np.linalg.norm(axis), z[2]
    if s > 1e-12:
        R = exp_so3(axis / s * np.arctan2(s, c))
    else:
        R = np.diag([1.0, np.sign(c), np.sign(c)])
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, (np.asarray(a, float) + np.asarray(b, float)) / 2
    return _cylinder(radius, length), T @ _rotate_y_to_z()


def _inertia_shapes(model, i, scale):
    """[(geometry, material, matrix)] drawing body ``i`` from its inertia and
    joints."""
    colour = _PALETTE[(i - 1) % len(_PALETTE)]
    m, c, Ic = _centre_of_mass(model.inertias[i])
    thin, joint = 0.015 * scale, 0.035 * scale
    shapes = [(_sphere(joint), _material(0x404040), np.eye(4))]
    ends = [model.placements[k][:3, 3] for k in range(1, model.nbodies + 1)
            if model.parent[k] == i]
    if m > 0:
        ends.append(c)
        sides, R = inertia_box(m, Ic)
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = R, c
        if sides.max() < 2 * joint:
            shapes.append((_sphere(0.06 * scale), _material(colour), T))
        else:
            shapes.append((_box(np.maximum(sides, 2 * thin)), _material(colour), T))
    for e in ends:
        rod = _rod(np.zeros(3), e, thin)
        if rod is not None:
            shapes.append((rod[0], _material(0x707070), rod[1]))
    return shapes


def _ground_shapes(model, scale):
    """Rods from the world origin to the joints of the bodies hanging from it."""
    shapes = []
    for k in range(1, model.nbodies + 1):
        if model.parent[k] == 0:
            rod = _rod(np.zeros(3), model.placements[k][:3, 3], 0.015 * scale)
            if rod is not None:
                shapes.append((rod[0], _material(0x707070), rod[1]))
    return shapes


def _visual_shapes(visual, max_faces):
    """[(geometry, material, matrix)] of one URDF :class:`~liedyn.urdf.Visual`."""
    colour, opacity = _rgba(visual.rgba, _GREY)
    T = np.asarray(visual.T, dtype=float)
    if visual.kind == "box":
        return [(_box(visual.size), _material(colour, opacity), T)]
    if visual.kind == "sphere":
        return [(_sphere(visual.size[0]), _material(colour, opacity), T)]
    if visual.kind == "cylinder":
        return [(_cylinder(*visual.size), _material(colour, opacity),
                 T @ _rotate_y_to_z())]
    shapes = []
    for vertices, faces, own in _mesh_parts(visual.filename, max_faces):
        S = T @ np.diag(list(visual.size) + [1.0])
        part_colour = own if (own is not None and visual.rgba is None) else colour
        shapes.append(
            (_buffer(vertices, faces), _material(part_colour, opacity), S))
    return shapes


# ----------------------------------------------------------------------------------
# the scene
# ----------------------------------------------------------------------------------

def _up_rotation(gravity):
    """A rotation taking ``-gravity`` to +z (identity without gravity)."""
    g = np.asarray(gravity, dtype=float)
    n = np.linalg.norm(g)
    T = np.eye(4)
    if n == 0:
        return T
    up = -g / n
    axis = np.cross(up, [0.0, 0.0, 1.0])
    s, c = np.linalg.norm(axis), up[2]
    if s > 1e-12:
        T[:3, :3] = exp_so3(axis / s * np.arctan2(s, c))
    elif c < 0:
        T[:3, :3] = np.diag([1.0, -1.0, -1.0])
    return T


def _quaternions(R):
    """Unit quaternions (x, y, z, w) (three.js order) of rotations (..., 3, 3)."""
    from ..lie import log_so3
    w = log_so3(R)
    angle = np.linalg.norm(w, axis=-1, keepdims=True)
    axis = np.divide(w, angle, out=np.zeros_like(w), where=angle > 1e-300)
    return np.concatenate([axis * np.sin(angle / 2), np.cos(angle / 2)], axis=-1)


def _frames(model, q, times, max_frames):
    """Validated (times, Q) with at most ``max_frames`` samples (evenly strided)."""
    if hasattr(q, "q") and hasattr(q, "t"):
        Q, t = np.asarray(q.q, dtype=float), np.asarray(q.t, dtype=float)
        if times is not None:
            raise ValueError("argument 'times': give times only with an array of "
                             "configurations (a Trajectory has its own)")
    else:
        Q = np.asarray(model.check_q(q), dtype=float)
        if Q.ndim == 1:
            Q = Q[None]
        t = None if times is None else np.asarray(times, dtype=float)
    if Q.ndim != 2 or Q.shape[-1] != model.nq:
        raise ValueError(f"argument 'q': expected configurations of shape (frames, "
                         f"{model.nq}) (one motion; select one from a batch "
                         f"first), got {Q.shape}")
    if t is None:
        t = np.arange(len(Q)) / 30.0
    if (t.shape != (len(Q),) or not np.all(np.isfinite(t))
            or np.any(np.diff(t) <= 0)):
        raise ValueError(f"argument 'times': expected {len(Q)} increasing finite "
                         f"times, got shape {t.shape}")
    if not np.all(np.isfinite(Q)):
        raise ValueError("argument 'q': the configurations contain NaN or inf")
    if (isinstance(max_frames, bool) or int(max_frames) != max_frames
            or max_frames < 1):
        raise ValueError(f"argument 'max_frames': expected a positive integer, got "
                         f"{max_frames!r}")
    stride = max(1, int(np.ceil(len(Q) / int(max_frames))))
    idx = np.arange(0, len(Q), stride)
    return t[idx] - t[0], Q[idx]


class Scene:
    """An interactive 3D scene: a self-contained HTML document (see :func:`scene`).

    It holds the body poses ``T_{0,i}`` of Kim (2012), Section 2.1, at every frame.

    Attributes
    ----------
    model : the model drawn
    times : (K,) array, the frame times (s), starting at 0
    q : (K, nq) array, the configuration at each frame
    poses : (K, N+1, 4, 4) array, ``T_{0,i}`` of every body at every frame, as
        exported
    root : (4, 4) array, the pose of the model's world in the viewer's z-up world
    commands : list of dict, the MeshCat commands (set_object, set_transform,
        set_animation)
    """

    def __init__(self, model, times, q, poses, root, commands, height, title):
        self.model, self.times, self.q = model, times, q
        self.poses, self.root, self.commands = poses, root, commands
        self.height, self.title = height, title

    def html(self):
        """The complete HTML document: viewer script, scene and controls."""
        return _document(self)

    def save(self, path):
        """Write :meth:`html` to ``path`` (opens offline in a browser); return
        it."""
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
        draw the body frames as red-green-blue (x-y-z) triads (a checkbox toggles
        them)
    max_frames : int
        keep at most this many frames (every k-th configuration), to bound the file
        size
    max_faces : int
        triangles per mesh file after decimation
    height : int
        height in pixels of the scene in a notebook or page
    title : str, optional
        default: the model's name
    visuals : list of liedyn.urdf.Visual, optional
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
    if isinstance(max_faces, bool) or int(max_faces) != max_faces or max_faces < 12:
        raise ValueError(f"argument 'max_faces': expected an integer >= 12, got "
                         f"{max_faces!r}")
    # (K,N+1,4,4)
    poses = np.asarray(forward_kinematics(model, Q).T_world, dtype=float)
    root = _up_rotation(model.gravity)
    pts = poses[..., :3, 3].reshape(-1, 3)
    scale = max(float(np.ptp(pts, axis=0).max()) if len(pts) > 1 else 0.0, 0.2)
    title = model.name if title is None else str(title)

    ids = _Ids()
    commands = [{"type": "set_transform", "path": "/liedyn",
                 "matrix": root.T.ravel().tolist()}]
    shapes = {i: [] for i in range(model.nbodies + 1)}
    if visuals is None:
        visuals = getattr(model, "visuals", None) or []
    visuals = list(visuals)
    for v in visuals:
        if not 0 <= getattr(v, "body", -1) <= model.nbodies:
            raise ValueError("argument 'visuals': expected liedyn.urdf.Visual "
                             f"records on bodies 0..{model.nbodies}, got {v!r}")
    for v in visuals:
        if v.kind != "mesh" or v.filename is not None:
            shapes[v.body] += _visual_shapes(v, int(max_faces))
    drawn = {v.body for v in visuals if v.kind != "mesh" or v.filename is not None}
    for i in range(1, model.nbodies + 1):
        if i not in drawn:
            shapes[i] += _inertia_shapes(model, i, scale)
    if not visuals:
        shapes[0] += _ground_shapes(model, scale)
    for i, body in shapes.items():
        for k, (geometry, material, T) in enumerate(body):
            commands.append({"type": "set_object",
                             "path": f"/liedyn/body{i}/shape{k}",
                             "object": _object(ids, geometry, material, matrix=T)})
    geometry, material = _grid(poses, root, scale)
    commands.append(
        {"type": "set_object", "path": "/floor",
         "object": _object(ids, geometry, material, kind="LineSegments")}
    )
    if frames:
        for i in range(model.nbodies + 1):
            geometry, material = _triad(0.12 * scale)
            commands.append({"type": "set_object", "path": f"/liedyn/body{i}/frame",
                             "object": _object(ids, geometry, material,
                                               kind="LineSegments")})
    for i in range(1, model.nbodies + 1):
        commands.append({"type": "set_transform", "path": f"/liedyn/body{i}",
                         "matrix": poses[0, i].T.ravel().tolist()})
    commands.append(_animation(model, times, poses))
    return Scene(model, times, Q, poses, root, commands, height, title)


def _animation(model, times, poses):
    """One clip per body: position and quaternion tracks at the frame times."""
    positions = poses[..., :3, 3]
    quats = _continuous(_quaternions(poses[..., :3, :3]))
    animations = []
    for i in range(1, model.nbodies + 1):
        tracks = [{"name": ".position", "type": "vector3",
                   "keys": [{"time": float(t), "value": p.tolist()}
                            for t, p in zip(times, positions[:, i])]},
                  {"name": ".quaternion", "type": "quaternion",
                   "keys": [{"time": float(t), "value": x.tolist()}
                            for t, x in zip(times, quats[:, i])]}]
        animations.append(
            {"path": f"/liedyn/body{i}",
             "clip": {"fps": 1.0, "name": "default", "tracks": tracks}}
        )
    return {"type": "set_animation", "path": "", "animations": animations,
            "options": {"play": False, "repetitions": float("inf"),
                        "clampWhenFinished": False}}


def _continuous(quats):
    """Flip signs so that consecutive quaternions of a body lie in one
    hemisphere."""
    quats = np.array(quats)
    for k in range(1, len(quats)):
        flip = np.sum(quats[k] * quats[k - 1], axis=-1) < 0
        quats[k][flip] *= -1
    return quats


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
  const slider = document.getElementById("scrub");
  const label = document.getElementById("time");
  const frames = document.getElementById("frames");
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
  slider.oninput = () => {
    if (a.playing) play.onclick();
    seek(parseFloat(slider.value));
  };
  const tick = () => { if (a.playing) show(); requestAnimationFrame(tick); };
  tick();
  frames.onchange = () => {
    for (const node of FRAME_PATHS)
      viewer.set_property(node, "visible", frames.checked);
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
  window.liedynScene = { animator: a, duration: a.duration,
                         show: show, seek: seek };
})();
"""


def _document(s):
    """The standalone HTML text of scene ``s``."""
    pts = (s.root[:3, :3] @ s.poses[..., :3, 3].reshape(-1, 3).T).T + s.root[:3, 3]
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    centre = (lo + hi) / 2
    radius = max(float(np.linalg.norm(hi - lo)) / 2, 0.3)
    eye = centre + radius * np.array([1.3, -1.9, 1.3])
    frame_paths = [c["path"].strip("/").split("/") for c in s.commands
                   if c["type"] == "set_object" and c["path"].endswith("/frame")]
    frame_paths = [p + ["<object>"] for p in frame_paths]
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
