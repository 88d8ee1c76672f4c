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
