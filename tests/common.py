"""Helpers the tests share (one place for each)."""
import numpy as np
import pytest


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


def hint(exercise, answer, text):
    """``check(exercise, answer)`` refuses the answer with a message matching
    ``text``."""
    from liedyn.teach.exercises import WrongAnswer, check
    with pytest.raises(WrongAnswer, match=text):
        check(exercise, answer)


def random_state(seed, joint_types=None, n_max=8, batch=()):
    """A random tree of 1 to ``n_max`` bodies (``joint_types``: default all but
    fixed), a state ``q, dq``, a third vector (``ddq`` or ``tau``) and external
    wrenches, with leading ``batch`` dimensions."""
    from liedyn.robots import JOINT_TYPES, random_tree
    rng = np.random.default_rng(seed)
    kinds = JOINT_TYPES if joint_types is None else joint_types
    model = random_tree(int(rng.integers(1, n_max + 1)), rng, joint_types=kinds)
    n = int(np.prod(batch))
    q = np.stack([model.random_configuration(rng) for _ in range(n)]).reshape(
        batch + (model.nq,))
    dq, x = rng.normal(size=(2,) + batch + (model.nv,))
    f_ext = rng.normal(size=batch + (model.nbodies, 6))
    return model, q, dq, x, f_ext
