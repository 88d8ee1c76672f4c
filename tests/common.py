"""Helpers the tests share (one place for each)."""
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


# --- the book's sources ------------------------------------------------------------------
def load_script(path):
    """The Python file at ``path`` (a script or Sphinx extension) as a module."""
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chapters():
    """Docnames (``book/05_inverse_dynamics``) of the numbered parts of ``_toc.yml``:
    the chapters, not the appendices."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [ch["file"] for part in toc["parts"] if part.get("numbered")
            for ch in part["chapters"]]


def setup_cell(path):
    """The source of a chapter's setup cell: its first code cell, which lists
    ``NEEDS = [...]``."""
    code = notebook_cells(path, "code")[0]
    assert "NEEDS = " in code, f"{path}: the first code cell is no setup cell"
    return code


def notebook_cells(path, kind):
    """The sources of the cells of one ``kind`` ("markdown", "code") of a notebook."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]



def relerr(a, b):
    """The largest entry error of ``a`` relative to the size of ``b``, at least 1
    (an absolute error where ``b`` is small)."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b), initial=0.0)
                 / max(1.0, np.max(np.abs(b), initial=0.0)))


def relative_error(a, b):
    """The largest entry error of ``a`` relative to the largest entry of ``b``."""
    a, b = np.asarray(a), np.asarray(b)
    if b.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


# --- floats reached along two code paths ---------------------------------------------------
# Two code paths to the same float result (batched and single, compiled and reference, two
# array shapes, two functions) may sum in different orders: OpenBLAS picks its kernels by
# CPU and by shape, numpy its SIMD loops by CPU. A short sum in another order moves the
# result by a few units in the last place of its largest entry. Such results are compared
# to ULPS of those units, never bit for bit, so that no test depends on the CPU. Bitwise
# equality stays where the path is the same by construction (the same function on the
# same input, a copy, an integer array, a constant read back, an exact zero by structure),
# with a comment that says which.
ULPS = 4


def assert_ulp_close(actual, desired, ulps=ULPS, err_msg=""):
    """``actual`` equals ``desired`` to ``ulps`` units in the last place of the largest
    entry of ``desired``: ``|actual - desired| <= ulps * spacing(max |desired|)``
    entrywise (``np.testing.assert_allclose`` with that ``atol``, same shape asked).

    The unit is that of the largest entry, not each entry's own
    (``np.testing.assert_array_max_ulp``): a sum in another order errs relative to
    the size of its terms, so an entry that cancels to near zero may differ by many of
    its own ulps. On failure the message adds the largest difference, its index, and
    its size in ulps of the largest entry and of that entry."""
    a = np.asarray(actual)
    b = np.asarray(desired)
    b = b.astype(np.result_type(b, 0.0), copy=False)        # integers compare as floats
    assert a.shape == b.shape, f"shapes differ: {a.shape} (actual), {b.shape} (desired)"
    scale = np.max(np.abs(b), initial=0.0, where=np.isfinite(b))
    unit = np.spacing(scale)
    try:
        np.testing.assert_allclose(a, b, rtol=0, atol=ulps * unit, err_msg=err_msg)
    except AssertionError as error:
        diff = np.where(np.isnan(a - b), 0.0, np.abs(a - b))   # NaN, inf: numpy's message
        if not np.max(diff, initial=0.0) > ulps * unit:
            raise
        k = np.unravel_index(np.argmax(diff), diff.shape)
        raise AssertionError(
            f"{error}\nLargest difference {diff[k]:.3g} at index {tuple(map(int, k))}: "
            f"{a[k].item()!r} (actual) against {b[k].item()!r} (desired), "
            f"{diff[k] / unit:.3g} ulps of the largest entry {scale:.6g} (allowed "
            f"{ulps}), {diff[k] / np.spacing(np.abs(b[k])):.3g} ulps of that entry"
        ) from None


def pendulum_of(ex):
    """The double pendulum of an exercise module's ``PENDULUM`` and ``GRAVITY``."""
    from liedyn.robots import double_pendulum
    return double_pendulum(**ex.PENDULUM, gravity=ex.GRAVITY)


def hint(exercise, answer, text):
    """``check(exercise, answer)`` refuses the answer with a message matching
    ``text``."""
    from liedyn.teach.exercises import WrongAnswer, check
    with pytest.raises(WrongAnswer, match=text):
        check(exercise, answer)


def random_state(seed, joint_types=None, n_max=8, batch=(), branching=0.5, reorder=False):
    """A random tree of 1 to ``n_max`` bodies (``joint_types``: default every type,
    fixed included; ``reorder``: renumbered depth-first), a state ``q, dq``, a third
    vector (``ddq`` or ``tau``) and external wrenches, with leading ``batch`` dimensions."""
    from liedyn.robots import JOINT_TYPES, random_tree
    rng = np.random.default_rng(seed)
    kinds = JOINT_TYPES if joint_types is None else joint_types
    model = random_tree(int(rng.integers(1, n_max + 1)), rng, joint_types=kinds,
                        branching=branching)
    if reorder:
        model = depth_first(model)
    n = int(np.prod(batch))
    q = np.stack([model.random_configuration(rng) for _ in range(n)]).reshape(
        batch + (model.nq,))
    dq, x = rng.normal(size=(2,) + batch + (model.nv,))
    f_ext = rng.normal(size=batch + (model.nbodies, 6))
    return model, q, dq, x, f_ext


def depth_first(model):
    """The same tree with its bodies renumbered in depth-first order (subtrees contiguous)."""
    from liedyn.model import Model
    order = []

    def visit(i):
        order.append(i)
        for k in model.children[i]:
            visit(k)

    for k in model.children[0]:
        visit(k)
    new = {0: 0}
    out = Model(gravity=model.gravity, name=model.name + " (depth-first)")
    for i in order:
        new[i] = out.add_body(model.names[i], new[model.parent[i]], model.joints[i],
                              model.placements[i], model.inertias[i])
    return out


def is_depth_first(model):
    """True if every subtree occupies a contiguous range of body indices."""
    return all(model.subtree(i) == list(range(i, i + len(model.subtree(i))))
               for i in range(1, model.nbodies + 1))


def mdot(model, q, dq, h=1e-6):
    """dM/dt along dq by central differences on the manifold."""
    from liedyn.crba import mass_matrix
    return (mass_matrix(model, model.integrate(q, dq, h))
            - mass_matrix(model, model.integrate(q, dq, -h))) / (2 * h)


def translation(r):
    """The homogeneous transform of a pure translation by the 3-vector ``r``."""
    T = np.eye(4, dtype=np.result_type(np.asarray(r), float))
    T[:3, 3] = r
    return T


def random_inertia(rng):
    """A physical spatial inertia (Kim's [I, m[r]; m[r]^T, m 1]) of six point masses."""
    from strategies import _skew
    I = np.zeros((6, 6))
    for m, r in zip(rng.uniform(0.2, 1.0, 6), rng.normal(size=(6, 3)), strict=True):
        S = _skew(r)
        I += m * np.block([[S.T @ S, S], [S.T, np.eye(3)]])
    return I


def massless_leaf(rotational, joint=None, name="tip"):
    """The double pendulum with a massless leaf ``name`` on ``joint`` (revolute about z
    by default) at its tip: mass 0, rotational inertia ``rotational`` (3, 3)."""
    import liedyn as ld
    model = ld.robots.double_pendulum()
    model.add_body(name, 2, joint or ld.Revolute([0.0, 0.0, 1.0]),
                   inertia=ld.spatial_inertia(0.0, np.zeros(3), rotational))
    return model


# --- URDF text -----------------------------------------------------------------------------
def robot_xml(*elements):
    return '<robot name="test">' + "".join(elements) + "</robot>"


def link_xml(name, mass=1.0, com="0.1 0.2 0.3", rpy="0.3 -0.2 0.1",
             inertia=(0.3, 0.01, 0.02, 0.2, 0.03, 0.25)):
    """A ``<link>`` with an inertial (``mass=None``: a bare link)."""
    if mass is None:
        return f'<link name="{name}"/>'
    keys = ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    attrs = " ".join(f'{k}="{v}"' for k, v in zip(keys, inertia, strict=True))
    return (f'<link name="{name}"><inertial><mass value="{mass}"/><origin xyz="{com}" '
            f'rpy="{rpy}"/><inertia {attrs}/></inertial></link>')


def joint_xml(name, jtype, parent, child, xyz="0.5 0 0", rpy="0.1 0.2 0.3", axis="0 0 1",
              extra=""):
    if jtype in ("revolute", "prismatic"):
        extra += '<limit lower="-1" upper="1" effort="10" velocity="2"/>'
    return (f'<joint name="{name}" type="{jtype}"><parent link="{parent}"/>'
            f'<child link="{child}"/><origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/>'
            f'{extra}</joint>')
