"""Hypothesis strategies for SO(3), SE(3) and their Lie algebras, shared by the test files.

Every sample family of jaxlie's test-suite plus one for the logarithm's hardest case:

* ``uniform``: rotations uniform in SO(3) (Haar measure, from a normalised Gaussian quaternion);
* ``gaussian``: exp of a Gaussian tangent vector;
* ``near_identity``: exp of a tangent vector of size about 1e-7 (exercises the Taylor branches);
* ``near_pi``: angle in [pi - 1e-6, pi] about a random axis (exercises the logarithm near pi).

Random draws come from ``numpy.random.default_rng(seed)`` with the seed chosen by hypothesis, so
a failure is reproducible from the seed hypothesis prints. The rotations are built here with
their own formulas (quaternion to matrix, Rodrigues written out), not with ``liedyn.lie``, so that
a bug in ``liedyn.lie.exp_so3`` cannot hide itself in its own test data.
"""
import numpy as np
from hypothesis import strategies as st

seeds = st.integers(min_value=0, max_value=2**32 - 1)

KINDS = ("uniform", "gaussian", "near_identity", "near_pi")


def _unit(rng, n=3):
    a = rng.normal(size=n)
    return a / np.linalg.norm(a)


def _skew(a):
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def rodrigues(axis, angle):
    """``cos(t) I + sin(t) [a] + (1 - cos(t)) a a^T`` for a unit axis ``a`` (test-side formula)."""
    a = np.asarray(axis, dtype=float)
    return (np.cos(angle) * np.eye(3) + np.sin(angle) * _skew(a)
            + (1 - np.cos(angle)) * np.outer(a, a))


def _quat_rotation(q):
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def tangent_so3(rng, kind):
    """A rotation vector of the given family with angle ``|w| <= pi``."""
    if kind == "uniform":
        return _unit(rng) * rng.uniform(0.0, np.pi)
    if kind == "gaussian":
        w = rng.normal(size=3)
        return w if np.linalg.norm(w) < np.pi else w / np.linalg.norm(w) * rng.uniform(0, np.pi)
    if kind == "near_identity":
        return rng.normal(size=3) * 1e-7
    if kind == "near_pi":
        return _unit(rng) * (np.pi - rng.uniform(0.0, 1e-6))
    raise ValueError(kind)


def rotation(rng, kind):
    """A rotation matrix of the given family (built without liedyn)."""
    if kind == "uniform":
        return _quat_rotation(rng.normal(size=4))
    w = tangent_so3(rng, kind)
    t = np.linalg.norm(w)
    if t == 0.0:
        return np.eye(3)
    return rodrigues(w / t, t)


@st.composite
def so3_tangents(draw, kinds=KINDS):
    """Rotation vectors ``w`` (shape (3,)) with ``|w| <= pi`` from the families ``kinds``."""
    kind = draw(st.sampled_from(kinds))
    return tangent_so3(np.random.default_rng(draw(seeds)), kind)


@st.composite
def se3_tangents(draw, kinds=KINDS):
    """Twists ``xi = (w, v)`` (shape (6,)): ``w`` from ``so3_tangents``, ``v`` Gaussian.

    For the near-identity family ``v`` is scaled like ``w`` (about 1e-7).
    """
    kind = draw(st.sampled_from(kinds))
    rng = np.random.default_rng(draw(seeds))
    w = tangent_so3(rng, kind)
    v = rng.normal(size=3) * (1e-7 if kind == "near_identity" else 1.0)
    return np.concatenate([w, v])


@st.composite
def rotations(draw, kinds=KINDS):
    """Rotation matrices (3, 3) from the families ``kinds``."""
    kind = draw(st.sampled_from(kinds))
    return rotation(np.random.default_rng(draw(seeds)), kind)


@st.composite
def transforms(draw, kinds=KINDS):
    """Homogeneous transforms (4, 4): a rotation from ``kinds`` and a Gaussian translation.

    Near identity the translation is also of size about 1e-7.
    """
    kind = draw(st.sampled_from(kinds))
    rng = np.random.default_rng(draw(seeds))
    T = np.eye(4)
    T[:3, :3] = rotation(rng, kind)
    T[:3, 3] = rng.normal(size=3) * (1e-7 if kind == "near_identity" else 1.0)
    return T


@st.composite
def vectors(draw, n=6, scale=1.0):
    """Gaussian vectors of length ``n`` (twists, wrenches, points)."""
    return np.random.default_rng(draw(seeds)).normal(size=n) * scale


@st.composite
def batches(draw, element, size=(1, 5)):
    """A stacked batch of ``element`` samples with a random leading shape of 1 or 2 dimensions."""
    n = draw(st.integers(*size))
    m = draw(st.integers(1, 3))
    shape = draw(st.sampled_from([(n,), (n, m)]))
    items = [draw(element) for _ in range(int(np.prod(shape)))]
    return np.stack(items).reshape(shape + items[0].shape)
