"""The partials written into the caller's arrays (``out=``): the numbers of a call without
``out``, into the very arrays given (a loop over batches allocates nothing), on the compiled
path and on the reference path, for float, complex and sympy input; arrays the compiled
drivers cannot write (Fortran order, strided) get the result copied. The errors for an
unusable ``out`` are in the catalogue of test_bad_input.py.
"""
import contextlib

import numpy as np
import pytest
import sympy

from liedyn.derivatives import aba_partials, rnea_partials
from liedyn.engine import dispatch as _exec
from liedyn.engine import jit as _jit
from liedyn.robots import pendulum

from common import assert_ulp_close, random_state, relerr

PARTIALS = {"rnea_partials": rnea_partials, "aba_partials": aba_partials}
BATCHES = [(), (3,), (2, 2)]


@contextlib.contextmanager
def kernels(on):
    _exec.use_kernels(on)
    try:
        yield
    finally:
        _exec.use_kernels(True)


def empty_like_result(batch, nv, dtype=float, order="C"):
    return tuple(np.empty(batch + (nv, nv), dtype, order=order) for _ in range(3))


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "reference"])
@pytest.mark.parametrize("batch", BATCHES, ids=str)
@pytest.mark.parametrize("name", PARTIALS)
def test_out_receives_the_partials(name, batch, compiled):
    f = PARTIALS[name]
    model, q, dq, x, f_ext = random_state(7, joint_types=("revolute", "prismatic", "free"),
                                          batch=batch)
    with kernels(compiled):
        want = f(model, q, dq, x, f_ext)
        out = empty_like_result(batch, model.nv)
        got = f(model, q, dq, x, f_ext, out=out)
        engine = getattr(_exec, name)(model, q, dq, x, f_ext, out)
    assert (engine is not None) == (compiled and _jit.ENABLED)   # which path wrote out
    assert all(g is o for g, o in zip(got, out, strict=True))
    for g, w in zip(got, want, strict=True):
        assert_ulp_close(g, w)                  # the same path, with or without out


@pytest.mark.parametrize("name", PARTIALS)
def test_a_loop_over_batches_reuses_out(name):
    """The second batch overwrites the first's numbers everywhere, zeros included."""
    f = PARTIALS[name]
    model, q, dq, x, _ = random_state(11, joint_types=("revolute", "spherical"), batch=(4,))
    out = empty_like_result((2,), model.nv)
    for part in (slice(0, 2), slice(2, 4)):
        f(model, q[part], dq[part], x[part], out=out)
        for o, w in zip(out, f(model, q[part], dq[part], x[part]), strict=True):
            assert_ulp_close(o, w)


@pytest.mark.parametrize("order", ["F", "strided"])
@pytest.mark.parametrize("name", PARTIALS)
def test_arrays_the_drivers_cannot_write_get_a_copy(name, order):
    f = PARTIALS[name]
    model, q, dq, x, _ = random_state(5, joint_types=("revolute",), batch=(2,))
    if order == "F":
        out = empty_like_result((2,), model.nv, order="F")
    else:
        out = tuple(np.empty((2, model.nv, 2 * model.nv))[..., ::2] for _ in range(3))
    got = f(model, q, dq, x, out=out)
    assert all(g is o for g, o in zip(got, out, strict=True))
    for g, w in zip(got, f(model, q, dq, x), strict=True):
        assert relerr(g, w) <= 1e-12


@pytest.mark.parametrize("name", PARTIALS)
def test_complex_out_takes_a_complex_step(name):
    """d/dq_k of the partials' real part by a complex step along q_k, read from out."""
    f = PARTIALS[name]
    model, q, dq, x, _ = random_state(3, joint_types=("revolute", "prismatic"))
    h = 1e-30
    out = empty_like_result((), model.nv, complex)
    got = f(model, q + 1j * h * np.eye(model.nq)[0], dq + 0j, x + 0j, out=out)
    assert got[0] is out[0]
    assert relerr(got[0].real, f(model, q, dq, x)[0]) <= 1e-12
    assert np.any(got[0].imag != 0)             # the step went through


@pytest.mark.parametrize("name", PARTIALS)
def test_sympy_out_holds_the_closed_form(name):
    """A pendulum of mass 1 and length 1 (its inertia about the pivot: 1): dtau/dq =
    g cos q and M = 1; ddq = tau - g sin q, d ddq/dq = -g cos q, M^-1 = 1."""
    th = sympy.Symbol("theta")
    model = pendulum(gravity=10.0)
    zero = np.array([sympy.Integer(0)], dtype=object)
    out = empty_like_result((), 1, object)
    got = PARTIALS[name](model, np.array([th], dtype=object), zero, zero, out=out)
    assert got[0] is out[0]
    sign = 1 if name == "rnea_partials" else -1
    assert sympy.simplify(got[0][0, 0] - sign * 10 * sympy.cos(th)) == 0
    assert sympy.simplify(got[2][0, 0] - 1) == 0
