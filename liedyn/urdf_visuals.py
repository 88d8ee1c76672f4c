"""The ``<visual>`` shapes of a URDF file, placed in the bodies of its model, for
the 3D scenes of :mod:`liedyn.teach.scene`: boxes, cylinders, spheres and meshes
(``package://`` and relative names resolved against the folders above the file).
"""
import os
from dataclasses import dataclass

import numpy as np

__all__ = ["Visual", "visuals"]


@dataclass(frozen=True)
class Visual:
    """One ``<visual>`` element of a URDF link, placed in its body's frame.

    Attributes
    ----------
    link : str
    body : int, the body index (0: the ground)
    T : (4, 4) array, the shape's pose in the body frame
    kind : {"mesh", "box", "cylinder", "sphere"}
    size : tuple of float
        mesh: scale ``(sx, sy, sz)``; box ``(x, y, z)``; cylinder ``(radius,
        length)`` along z; sphere ``(radius,)``
    filename : str or None, the mesh file if found
    rgba : tuple of 4 floats or None, the material colour
    """

    link: str
    body: int
    T: np.ndarray
    kind: str
    size: tuple
    filename: str | None = None
    rgba: tuple | None = None


def _resolve_mesh(uri, source):
    """An existing file for the mesh ``uri`` of the URDF file ``source``, or
    None."""
    if uri.startswith("file://"):
        uri = uri[len("file://"):]
    base = os.path.dirname(os.path.abspath(source)) if source else None
    if uri.startswith("package://"):
        package, _, rest = uri[len("package://"):].partition("/")
        folder = base
        while folder and os.path.dirname(folder) != folder:
            candidates = [os.path.join(folder, package, rest)]
            if os.path.basename(folder) == package:
                candidates.append(os.path.join(folder, rest))
            for candidate in candidates:
                if os.path.isfile(candidate):
                    return candidate
            folder = os.path.dirname(folder)
        return None
    path = uri if os.path.isabs(uri) or base is None else os.path.join(base, uri)
    return path if os.path.isfile(path) else None


def visuals(robot, link_frames, source):
    """The ``<visual>`` shapes of every link of the tree, as :class:`Visual`
    records (``model.visuals`` of :func:`liedyn.urdf.load_urdf`).

    Parameters
    ----------
    robot : yourdfpy.URDF, the parsed file
    link_frames : dict, link name -> (body index, (4, 4) pose of the link frame in
        the body frame)
    source : str or None, the file's path (to resolve mesh names)

    Returns
    -------
    list of Visual

    Examples
    --------
    >>> from liedyn.urdf import load_robot
    >>> shape = load_robot("ur5").visuals[1]
    >>> shape.link, shape.kind, shape.body
    ('shoulder_link', 'mesh', 1)
    """
    colours = {m.name: m.color.rgba for m in robot.materials if m.color is not None}
    out = []
    for link in robot.links:
        if link.name not in link_frames:
            continue
        body, T_bl = link_frames[link.name]
        for v in link.visuals:
            g = v.geometry
            origin = np.eye(4) if v.origin is None else np.asarray(v.origin, float)
            T = T_bl @ origin
            rgba = None
            if v.material is not None:
                if v.material.color is not None:
                    rgba = v.material.color.rgba
                else:
                    rgba = colours.get(v.material.name)
            rgba = None if rgba is None else tuple(float(c) for c in rgba)
            if g is None:
                continue
            if g.mesh is not None:
                scale = 1.0 if g.mesh.scale is None else g.mesh.scale
                scale = np.broadcast_to(scale, 3)
                shape = ("mesh", tuple(float(x) for x in scale),
                         _resolve_mesh(g.mesh.filename, source))
            elif g.box is not None:
                shape = ("box", tuple(float(x) for x in g.box.size), None)
            elif g.cylinder is not None:
                size = (float(g.cylinder.radius), float(g.cylinder.length))
                shape = ("cylinder", size, None)
            elif g.sphere is not None:
                shape = ("sphere", (float(g.sphere.radius),), None)
            else:
                continue
            out.append(
                Visual(link.name, body, T, shape[0], shape[1], shape[2], rgba))
    return out
