"""Tests of the compiled engine (liedyn.engine): the kernels, the drivers, the dispatch.

* each named operator against its 6x6 matrix from liedyn.lie;
* compiled (numba) against the reference implementations (the *_pass functions, the
  chapters' code), on 200 random trees with every joint type that has a kernel, to
  1e-12 relative: rnea, aba, the mass matrix and hybrid dynamics, single states and
  batches, with external wrenches; and against sympy on a small chain;
* the compiled path keeps the input checks (NaN, non-unit quaternions, singular inertia),
  handles complex step, strided and read-only arrays, and notices an edited model;
* the compiled partials of inverse dynamics (all directions at once, in the ground frame)
  against Table 5 on numpy arrays (liedyn.derivatives), on random trees of joints with
  constant S;
* the kernel of exponential coordinates (SphericalExp) across the end of its Taylor
  series, compiled and by the reference, by complex step and on sympy;
* the drivers compile only the types the dispatch converts to (numba's explicit
  signatures), and the single-state machine code refuses every other type: the numba
  API the engine relies on; the branch-free finiteness test against numpy;
* with LIEDYN_DISABLE_JIT=1 (in a fresh interpreter) nothing is compiled and the
  public functions give their reference implementations' results.

``pytest --no-jit`` runs the same tests without the compiler (the reference path).
"""
import contextlib
import ctypes.util
import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn import joints as J
from liedyn._checks import ChartSingularityError, NonFiniteResultError
from liedyn.crba import composite_inertias, mass_matrix
from liedyn.derivatives import aba_partials, rnea_partials
from liedyn.engine import dispatch as _exec
from liedyn.engine import drivers as K
from liedyn.engine import jit as _jit
from liedyn.engine import kernels, one_state, spatial
from liedyn.forward_dynamics import aba, aba_pass, inverse_mass_matrix
from liedyn.hybrid_dynamics import hybrid, hybrid_pass
from liedyn.inertia import spatial_inertia
from liedyn.inverse_dynamics import rnea, rnea_pass
from liedyn.lie import Ad, Ad_star, ad, ad_star, exp_so3, inverse, make_transform
from liedyn.model import Model
from liedyn.robots import JOINT_TYPES, random_tree, serial_chain

from common import random_state, relerr

KERNEL_JOINTS = list(JOINT_TYPES)                     # every joint type has a kernel


def pair(x):
    return (tuple(x[:3]), tuple(x[3:]))


def flat(X):
    return np.array(X[0] + X[1])


def blocks(I):
    return (tuple(map(tuple, I[:3, :3])), tuple(map(tuple, I[:3, 3:])),
            tuple(map(tuple, I[3:, 3:])))


def test_operators_equal_their_6x6_matrices():
    rng = np.random.default_rng(0)
    R, p = exp_so3(rng.normal(size=3)), rng.normal(size=3)
    T = make_transform(R, p)
    V, X = rng.normal(size=6), rng.normal(size=6)
    A = rng.normal(size=(6, 6))
    I = A @ A.T
    Rt, pt = tuple(map(tuple, R)), tuple(p)
    S = spatial
    assert np.allclose(flat(S.Ad_inv_mul(Rt, pt, pair(V))), Ad(inverse(T)) @ V, atol=1e-13)
    assert np.allclose(flat(S.Ad_star_inv_mul(Rt, pt, pair(V))), Ad_star(inverse(T)) @ V,
                       atol=1e-13)
    assert np.allclose(flat(S.ad_mul(pair(V), pair(X))), ad(V) @ X, atol=1e-13)
    assert np.allclose(flat(S.ad_star_mul(pair(V), pair(X))), ad_star(V) @ X, atol=1e-13)
    assert np.allclose(flat(S.inertia_mul(blocks(I), pair(V))), I @ V, atol=1e-13)
    C = Ad_star(inverse(T)) @ I @ Ad(inverse(T))
    A, B, D = S.congruence(Rt, pt, blocks(I))              # [[A, B], [B^T, D]]
    assert np.allclose(np.block([[np.array(A), np.array(B)], [np.array(B).T, np.array(D)]]),
                       C, atol=1e-12)
    w = np.zeros((1, 40 * S.LANES))               # a row of a chunk, through its slots
    S.store_inertia(w, 0, 3, 5, S.congruence(Rt, pt, blocks(I)))
    assert S.load_inertia(w, 0, 3, 5) == S.congruence(Rt, pt, blocks(I))  # stored, read
    assert w[0, S.at(3, 5)] == A[0][0] and w[0, S.at(3 + 26, 5)] == D[2][2]


def test_coriolis_columns_equal_their_6x6_matrix():
    """store_coriolis (closed form) against B(V) Y = -I ad_V Y - ad*_Y h - ad*_V I Y
    with h = I V, column by column from liedyn.lie's matrices."""
    rng = np.random.default_rng(4)
    A, V = rng.normal(size=(6, 6)), rng.normal(size=6)
    I = A @ A.T
    h = I @ V
    E = np.eye(6)
    want = np.column_stack([-I @ ad(V) @ e - ad_star(e) @ h - ad_star(V) @ I @ e
                            for e in E])
    w = np.zeros((2, 50 * spatial.LANES))
    kernels.store_coriolis(w, 1, 7, 3, blocks(I), pair(V), 0.0)
    got = np.column_stack([flat(spatial.load6(w, 1, 7 + 6 * k, 3)) for k in range(6)])
    assert np.allclose(got, want, rtol=0, atol=1e-12)




def every_other_joint(model):
    """The ``prescribed`` mask of hybrid dynamics: joints 1, 3, 5, ..."""
    return np.arange(model.nbodies) % 2 == 0


def every_kernel(model, q, dq, ddq, f_ext):
    """tau, ddq, M and the two outputs of hybrid dynamics with every other joint
    prescribed (each by the kernels, unless they are switched off)."""
    tau = rnea(model, q, dq, ddq, f_ext)
    return (tau, aba(model, q, dq, tau, f_ext), mass_matrix(model, q),
            *hybrid(model, q, dq, ddq, tau, every_other_joint(model), f_ext))


@contextlib.contextmanager
def reference():
    """Within this block the public functions run their reference implementations."""
    _exec.use_kernels(False)
    try:
        yield
    finally:
        _exec.use_kernels(True)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("start", range(0, 200, 50))
def test_compiled_equals_the_reference_on_200_random_trees(start):
    for seed in range(start, start + 50):
        model, q, dq, ddq, f_ext = random_state(seed, batch=(2,) if seed % 2 else ())
        compiled = every_kernel(model, q, dq, ddq, f_ext)
        with reference():
            expected = every_kernel(model, q, dq, ddq, f_ext)
        for a, b in zip(compiled, expected, strict=True):
            assert relerr(a, b) <= 1e-12, f"seed {seed}"


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_switched_off_the_kernels_run_no_state_compiled(monkeypatch):
    """With the kernels switched off, one float64 state of a model whose flattened
    arrays are already cached still runs the reference: rnea_pass is called."""
    import liedyn.inverse_dynamics as inverse_dynamics
    model, q, dq, ddq, _ = random_state(3)
    rnea(model, q, dq, ddq)                       # compiled: the model is flattened
    calls = []

    def spy(*args, **kwargs):
        calls.append(args)
        return rnea_pass(*args, **kwargs)
    monkeypatch.setattr(inverse_dynamics, "rnea_pass", spy)
    rnea(model, q, dq, ddq)
    assert calls == []
    with reference():
        rnea(model, q, dq, ddq)
    assert len(calls) == 1


@pytest.mark.parametrize("seed", range(10))
def test_kernels_equal_the_reference_implementations(seed):
    model, q, dq, ddq, f_ext = random_state(seed)
    tau, ddq_aba, M, tau_h, ddq_h = every_kernel(model, q, dq, ddq, f_ext)
    assert relerr(tau, rnea_pass(model, q, dq, ddq, f_ext).tau) <= 1e-10
    assert relerr(ddq_aba, ddq) <= 1e-9
    assert relerr(ddq_aba, aba_pass(model, q, dq, tau, f_ext).ddq) <= 1e-9
    assert relerr(tau_h, tau) <= 1e-9 and relerr(ddq_h, ddq) <= 1e-9   # consistent
    reference = hybrid_pass(model, q, dq, ddq, tau, every_other_joint(model), f_ext)
    assert relerr(tau_h, reference.tau) <= 1e-10
    assert relerr(ddq_h, reference.ddq) <= 1e-10
    Ic, _, S = composite_inertias(model, q)
    for i in range(1, model.nbodies + 1):
        vi = model.v_slice[i]
        assert relerr(M[vi, vi], S[i].T @ Ic[i] @ S[i]) <= 1e-10


@pytest.mark.parametrize("seed", range(5))
def test_compiled_batches_equal_single_states(seed):
    model, q, dq, ddq, f_ext = random_state(seed, batch=(2, 3))
    batched = every_kernel(model, q, dq, ddq, f_ext)
    for k in np.ndindex(2, 3):
        single = every_kernel(model, q[k], dq[k], ddq[k], f_ext[k])
        for a, b in zip(batched, single, strict=True):
            assert relerr(a[k], b) <= 1e-12


@pytest.mark.parametrize("seed", range(5))
def test_compiled_batches_broadcast_like_single_states(seed):
    model, q, dq, ddq, f_ext = random_state(seed, batch=(4,))
    tau = rnea(model, q[0], dq[:, None], ddq[0], f_ext[0])        # (4, 1, nv)
    assert tau.shape == (4, 1, model.nv)
    for k in range(4):
        assert relerr(tau[k, 0], rnea(model, q[0], dq[k], ddq[0], f_ext[0])) <= 1e-14


def test_sympy_chain_equals_numbers():
    model = serial_chain(2, joint="revolute")
    s = sympy.symbols("q1 q2 dq1 dq2 a1 a2")
    q, dq, ddq = np.array(s[:2]), np.array(s[2:4]), np.array(s[4:])
    tau = rnea(model, q, dq, ddq)
    M = mass_matrix(model, q)
    assert tau.dtype == object and M.dtype == object
    values = dict(zip(s, [0.3, -0.7, 0.5, 1.1, -0.2, 0.9], strict=True))
    x = np.array([values[v] for v in s])
    tau_num = np.array([float(sympy.sympify(t).subs(values)) for t in tau])
    M_num = np.array([[float(sympy.sympify(m).subs(values)) for m in row] for row in M])
    assert relerr(tau_num, rnea(model, x[:2], x[2:4], x[4:])) <= 1e-12
    assert relerr(M_num, mass_matrix(model, x[:2])) <= 1e-12


def test_complex_step_through_the_kernels():
    model, q, dq, ddq, f_ext = random_state(3)
    h, e = 1e-30, np.eye(model.nv)[0]
    tau_c = rnea(model, q, dq + 1j * h * e, ddq, f_ext)
    fd = (rnea(model, q, dq + 1e-6 * e, ddq, f_ext) - rnea(model, q, dq - 1e-6 * e, ddq, f_ext))
    assert tau_c.dtype == complex
    assert relerr(tau_c.imag / h, fd / 2e-6) <= 1e-7


def test_input_checks_stay_on_the_fast_path():
    model = serial_chain(3, joint="spherical")
    q = model.neutral_configuration()
    z = np.zeros(model.nv)
    bad = q.copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match="'q'"):
        rnea(model, bad, z, z)
    with pytest.raises(ValueError, match="unit norm"):
        aba(model, 2 * q, z, z)
    with pytest.raises(ValueError, match="'dq'"):
        rnea(model, q, np.full(model.nv, np.inf), z)
    with pytest.raises(ValueError, match="'tau'"):
        aba(model, q, z, np.zeros(model.nv + 1))


def test_massless_leaf_still_raises():
    model = serial_chain(2)
    model.inertias[2] = np.zeros((6, 6))
    with pytest.raises(ValueError, match="singular"):
        aba(model, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0])


def kernel_inverse(D, tols):
    """``kernels.invert`` of the (n, n) block ``D`` as plain Python, with the pivots'
    tolerances ``tols``: the block in the rows of a chunk of one state."""
    n, S = len(D), spatial
    d = np.zeros((n, S.BLOCK_SLOTS * S.LANES))
    for r in range(n):
        d[r, S.at(S.TOL, 0)] = tols[r]
        for c in range(n):
            d[r, S.at(S.D + c, 0)] = D[r][c]
    kernels.invert(0, n, d, 1)
    return np.array([[d[r, S.at(S.PSI + c, 0)] for c in range(n)] for r in range(n)])


def test_each_pivot_is_refused_not_above_its_bound():
    """Each pivot d_j of D = L diag(d) L^T against PIVOT_TOL times b_j = 2 (tr(I_ww)
    |s_w,j|^2 + tr(I_vv) |s_v,j|^2) + a_j: a turning column (tr(I_ww) = 3: b = 6)
    and a sliding one of 2 length units (tr(I_vv) = 5: b = 40), each with its own
    units; a negative pivot is refused (not |d| above the tolerance)."""
    from liedyn.joint import PIVOT_TOL
    traces = (2 * 3.0, 2 * 5.0)
    turning, sliding = ((0.0, 0.0, 1.0), (0.0, 0.0, 0.0)), ((0.0,) * 3, (2.0, 0.0, 0.0))
    assert kernels.pivot_tol(turning, traces, 0.0) == PIVOT_TOL * 6.0
    assert kernels.pivot_tol(sliding, traces, 0.0) == PIVOT_TOL * 40.0
    assert kernels.pivot_tol(turning, traces, 1e3) == PIVOT_TOL * 1006.0   # the armature
    tols = [PIVOT_TOL * 6.0, PIVOT_TOL * 40.0]
    D = np.array([[2.0, 1.0], [1.0, 3.0]])
    assert np.allclose(kernel_inverse(D, tols), np.linalg.inv(D))
    for j, bound in enumerate([6.0, 40.0]):
        for ratio, ok in [(2e-12, True), (0.5e-12, False), (-1.0, False)]:
            E = np.eye(2)
            E[j, j] = ratio * bound                       # d_j / b_j = ratio
            assert np.all(np.isfinite(kernel_inverse(E, tols))) == ok, (j, ratio)
    assert np.isnan(kernel_inverse(np.array([[-1e-3]]), tols[:1])).all()
    assert np.isfinite(kernel_inverse(np.array([[1e-11]]), tols[:1])).all()


def test_edited_model_is_not_served_from_a_stale_cache():
    model = serial_chain(3)
    q, dq, ddq = np.full(3, 0.3), np.full(3, -0.2), np.full(3, 0.5)
    before = rnea(model, q, dq, ddq)
    model.inertias[2] = spatial_inertia(5.0, [0.1, 0.0, 0.0], np.eye(3) * 0.01)
    after = rnea(model, q, dq, ddq)
    assert relerr(after, rnea_pass(model, q, dq, ddq).tau) <= 1e-12
    assert relerr(after, before) > 1e-3
    model.placements[3] = make_transform(np.eye(3), [0.0, 0.7, 0.0])
    assert relerr(mass_matrix(model, q), mass_matrix_reference(model, q)) <= 1e-12


def mass_matrix_reference(model, q):
    zero = np.zeros(model.nv)
    return np.stack([rnea_pass(model, q, zero, e).tau - rnea_pass(model, q, zero, zero).tau
                     for e in np.eye(model.nv)], axis=-1)


class Hinge(J.Revolute):
    """A joint type of a user's, unknown to the kernels."""


def test_unsupported_joints_use_the_reference_path():
    model = serial_chain(2)
    model.add_body("user's", 2, Hinge([0.0, 1.0, 0.0]), inertia=model.inertias[2])
    assert _exec.flat_model(model) is None
    q = np.array([0.1, 0.2, 0.3])                   # the reference runs: exactly the same
    assert relerr(rnea(model, q, q, q), rnea_pass(model, q, q, q).tau) == 0.0


# |phi| at 0, below, at and just above the end of the Taylor series (0.5), and
# near pi
EXP_ANGLES = (0.0, 1e-9, 0.3, 0.5 - 1e-9, 0.5, 0.5 + 1e-9, 1.2, 3.1)


def exp_chain_states(rng):
    """A chain of three SphericalExp joints at each angle of EXP_ANGLES."""
    model = serial_chain(3, joint="spherical_exp")
    for t in EXP_ANGLES:
        axes = rng.normal(size=(3, 3))
        phi = t * axes / np.linalg.norm(axes, axis=-1, keepdims=True)
        yield model, phi.ravel(), rng.normal(size=9), rng.normal(size=9)


def test_exponential_coordinates_compiled_equal_the_reference():
    """The SphericalExp kernel (R = exp([phi]), S = (J_r, 0), dS = (dJ_r/dt, 0) in
    closed form, by series below |phi| = 0.5) against the reference implementation,
    which builds them with liedyn.lie's matrices; compiled on single states and
    batched."""
    rng = np.random.default_rng(7)
    cases = list(exp_chain_states(rng))
    for model, q, dq, ddq in cases:
        tau = rnea_pass(model, q, dq, ddq).tau
        M = mass_matrix_reference(model, q)
        assert relerr(rnea(model, q, dq, ddq), tau) <= 1e-13
        assert relerr(mass_matrix(model, q), M) <= 1e-13
        assert relerr(aba(model, q, dq, tau), ddq) <= 1e-9
    model = cases[0][0]
    Q, dQ, ddQ = (np.stack([c[k] for c in cases]) for k in (1, 2, 3))
    tau = rnea(model, Q, dQ, ddQ)
    for k, (_, q, dq, ddq) in enumerate(cases):
        assert relerr(tau[k], rnea_pass(model, q, dq, ddq).tau) <= 1e-13


def test_exponential_coordinates_complex_step_and_sympy():
    """Complex step across the end of the series (|phi| = 0.5): the derivative of
    the kernels' tau in q matches central differences of the reference; the sympy
    chain (closed forms, no branch) matches the numbers."""
    model = serial_chain(1, joint="spherical_exp")
    rng = np.random.default_rng(3)
    dq, ddq = rng.normal(size=3), rng.normal(size=3)
    for t in (0.3, 0.5, 1.2):
        q, e, h = np.array([t, 0.0, 0.0]), rng.normal(size=3), 1e-30
        d = rnea(model, q + 1j * h * e, dq, ddq).imag / h
        fd = (rnea_pass(model, q + 1e-6 * e, dq, ddq).tau
              - rnea_pass(model, q - 1e-6 * e, dq, ddq).tau) / 2e-6
        assert relerr(d, fd) <= 1e-7
    s = sympy.symbols("x y z")
    tau = rnea(model, np.array(s), dq, ddq)
    assert tau.dtype == object
    values = dict(zip(s, (0.4, -0.7, 0.2), strict=True))
    numbers = np.array([float(sympy.sympify(x).subs(values)) for x in tau])
    assert relerr(numbers, rnea(model, np.array([0.4, -0.7, 0.2]), dq, ddq)) <= 1e-12


def test_exponential_coordinates_near_their_singular_sphere_are_refused():
    model = serial_chain(2, joint="spherical_exp")
    z = np.zeros(model.nv)
    q = np.zeros(model.nq)
    q[3] = 2 * np.pi + 1e-8                          # |phi| = 2 pi: J_r is singular
    with pytest.raises(ChartSingularityError, match="'q'.*SphericalExp"):
        aba(model, q, z, z)
    with pytest.raises(ChartSingularityError, match="'q'.*SphericalExp"):
        aba(model, np.stack([np.zeros(model.nq), q]), z, z)
    q[3] = 4 * np.pi - 1e-3                          # 1e-3 from |phi| = 4 pi: allowed
    assert np.all(np.isfinite(aba(model, q, z, z)))


def strided(x):
    """The same numbers in a view that is not C-contiguous."""
    return np.stack([x, 2 * x], axis=-1)[..., 0]


def read_only(x):
    y = np.array(x)
    y.setflags(write=False)
    return y


@pytest.mark.parametrize("layout", [strided, read_only])
def test_views_and_read_only_arrays_give_the_same_results(layout):
    for seed in range(3):
        model, q, dq, ddq, f_ext = random_state(seed)
        expected = every_kernel(model, q, dq, ddq, f_ext)
        got = every_kernel(model, *(layout(x) for x in (q, dq, ddq, f_ext)))
        for a, b in zip(got, expected, strict=True):
            assert relerr(a, b) <= 1e-14, f"seed {seed}"


def test_overflow_of_one_state_raises_the_overflow_error():
    two = serial_chain(2)
    z = np.zeros(2)
    with pytest.raises(NonFiniteResultError, match="'dq'"):
        rnea(two, z, np.array([1e200, 0.0]), z)
    with pytest.raises(NonFiniteResultError, match="'dq'"):
        aba(two, z, np.array([0.0, 1e200]), z)
    arm = Model()                    # a slider on a turning arm: M_11 = m x^2
    arm.add_body("arm", 0, J.Revolute([0.0, 0.0, 1.0]),
                 inertia=spatial_inertia(1.0, [0.0, 0.0, 0.0], 0.01 * np.eye(3)))
    arm.add_body("slider", 1, J.Prismatic([1.0, 0.0, 0.0]),
                 inertia=spatial_inertia(1.0, [0.0, 0.0, 0.0], 0.01 * np.eye(3)))
    assert _exec.flat_model(arm) is not None
    with pytest.raises(NonFiniteResultError, match="'q'"):
        mass_matrix(arm, np.array([0.0, 1e200]))


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("loop", ["rnea_partials_loop", "aba_partials_loop"])
def test_the_partials_drivers_report_a_non_finite_state_of_any_chunk(loop):
    """The partials drivers test the results chunk by chunk (while they are in
    cache): one overflowing state among 20 (its chunk the second) gives status 2,
    the same batch without it 0."""
    two = serial_chain(2)
    topo, body, no_f, _ = _exec.flat_model(two)
    B = 20
    q, x = np.zeros(B * 2), np.full(B * 2, 0.5)
    outputs = [np.empty((B * 2, 2)) for _ in range(3)]
    driver, work = getattr(K, loop), _exec.work(topo, np.float64)
    dq = np.full(B * 2, 0.5)
    assert driver.run(topo, body, q, dq, x, no_f, *outputs, work, K.CHECK_STATE) == 0
    dq[2 * 17] = 1e200
    assert driver.run(topo, body, q, dq, x, no_f, *outputs, work, K.CHECK_STATE) == 2


def test_gimbal_lock_of_one_state_raises_the_chart_error():
    model = serial_chain(2, joint="spherical_zyx")
    z = np.zeros(model.nv)
    q = np.zeros(model.nq)
    q[4] = np.pi / 2
    with pytest.raises(ChartSingularityError, match="'q'.*SphericalZYX"):
        aba(model, q, z, z)
    with pytest.raises(ChartSingularityError, match="'q'.*SphericalZYX"):
        aba(model, np.stack([np.zeros(model.nq), q]), z, z)


CONSTANT_S_JOINTS = [k for k in KERNEL_JOINTS
                     if k not in ("universal", "planar", "spherical_zyx",
                                  "spherical_exp")]


def reference_partials(model, q, dq, ddq, f_ext):
    """Table 5 on numpy arrays (liedyn.derivatives), the kernels switched off."""
    _exec.use_kernels(False)
    try:
        return rnea_partials(model, q, dq, ddq, f_ext)
    finally:
        _exec.use_kernels(True)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("start", range(0, 60, 20))
def test_compiled_rnea_partials_equal_table5_on_numpy(start):
    for seed in range(start, start + 20):
        model, q, dq, ddq, f_ext = random_state(seed, CONSTANT_S_JOINTS)
        compiled = _exec.rnea_partials(model, q, dq, ddq, f_ext)
        assert compiled is not None
        for a, b in zip(compiled, reference_partials(model, q, dq, ddq, f_ext), strict=True):
            assert relerr(a, b) <= 1e-12, f"seed {seed}"


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("seed", range(3))
def test_compiled_rnea_partials_of_batches_equal_single_states(seed):
    model, q, dq, ddq, f_ext = random_state(seed, CONSTANT_S_JOINTS, batch=(2, 3))
    batched = rnea_partials(model, q, dq[0, 0], ddq, f_ext)       # dq shared
    for k in np.ndindex(2, 3):
        single = _exec.rnea_partials(model, q[k], dq[0, 0], ddq[k], f_ext[k])
        for a, b in zip(batched, single, strict=True):
            assert relerr(a[k], b) <= 1e-14


def test_rnea_partials_of_joints_with_varying_S_use_numpy():
    model = serial_chain(2, joint="universal")
    q = np.full(model.nq, 0.3)
    assert _exec.rnea_partials(model, q, q, q) is None
    chain = serial_chain(2)
    x = np.array(sympy.symbols("x y"))                     # symbolic: Table 5
    assert _exec.rnea_partials(chain, x, x, x) is None


@pytest.mark.parametrize("seed", range(10))
def test_inverse_mass_matrix_by_the_kernels_equals_the_numpy_one(seed):
    model, q, dq, ddq, f_ext = random_state(seed, batch=(2,) if seed % 2 else ())
    Minv = inverse_mass_matrix(model, q)
    _exec.use_kernels(False)
    try:
        reference = inverse_mass_matrix(model, q)
    finally:
        _exec.use_kernels(True)
    assert relerr(Minv, reference) <= 1e-12
    one = np.broadcast_to(np.eye(model.nv), Minv.shape)
    assert relerr(Minv @ mass_matrix(model, q), one) <= 1e-10


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("seed", range(12))
def test_compiled_aba_partials_equal_the_numpy_composition(seed):
    """The compiled path (Cholesky of the M of the rnea partials) against the numpy one
    (ABA, the Table 5 partials, M^-1 by ABA columns), single and batched, float and
    complex (the complex step passes through: Cholesky without conjugates)."""
    batch = [(), (3,), (2, 2)][seed % 3]
    rng = np.random.default_rng(seed)
    constant_S = ("revolute", "prismatic", "helical", "spherical", "free")
    model = random_tree(int(rng.integers(1, 9)), rng, joint_types=constant_S)
    n = int(np.prod(batch))
    q = np.stack([model.random_configuration(rng) for _ in range(n)]).reshape(
        batch + (model.nq,))
    dq, tau = rng.normal(size=(2,) + batch + (model.nv,))
    f_ext = rng.normal(size=batch + (model.nbodies, 6))
    for dtau in (0, 1e-30j):
        args = (model, q, dq, tau + dtau, f_ext)
        got = _exec.aba_partials(*args)
        assert got is not None                       # the compiled path ran
        _exec.use_kernels(False)
        try:
            want = aba_partials(*args)
        finally:
            _exec.use_kernels(True)
        for a, b in zip(got, want, strict=True):
            assert a.shape == batch + (model.nv, model.nv)
            assert relerr(a, b) <= 1e-10


def test_forward_partials_refuse_a_singular_mass_matrix():
    """The kernel as plain Python on a branched tree (its M = L^T D L without
    fill-in): a positive definite M is inverted and the partials become
    -M^-1 dtau/dx, checked against numpy; a singular M (as of a massless last
    body: a zero pivot) makes it decline (the public function then raises the
    reference path's error). Compiled, it is a step of aba_partials_loop."""
    model = random_tree(5, np.random.default_rng(1), joint_types=("revolute",
                                                                  "spherical"))
    assert model.parent == [-1, 0, 1, 2, 2, 3]           # bodies 3 and 4: two branches
    topo = _exec.flat_model(model)[0]
    n, rng = model.nv, np.random.default_rng(5)
    lam = np.empty(n, np.int64)
    kernels.coordinate_parents(topo, lam)
    M0 = mass_matrix(model, model.random_configuration(rng))
    rel = M0 != 0
    assert not rel.all()                                 # zeros off the paths
    Dq, Dv = rng.normal(size=(2, n, n)) * rel
    M, X = M0.copy(), np.hstack([np.eye(n), -Dq, -Dv])
    assert kernels.forward_partials(M, X, lam)
    inv = np.linalg.inv(M0)
    assert relerr(X[:, :n], inv) < 1e-12
    assert relerr(X[:, n:2 * n], -inv @ Dq) < 1e-12
    assert relerr(X[:, 2 * n:], -inv @ Dv) < 1e-12
    M = M0.copy()
    M[n - 1, n - 1] = 0.0                                # a zero pivot
    assert not kernels.forward_partials(M, X, lam)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_compiled_aba_partials_decline_what_the_reference_path_must_report():
    """Joints with q-dependent S (3), a massless leaf (M singular: 1 or 2); the
    public function then gives Table 5's partials or the reference path's error."""
    model = serial_chain(2, joint="universal")
    q = np.full(model.nq, 0.3)
    assert _exec.aba_partials(model, q, q, q) is None
    chain = serial_chain(2)
    chain.inertias[2] = np.zeros((6, 6))
    assert _exec.aba_partials(chain, np.full(2, 0.3), np.zeros(2), np.zeros(2)) is None
    with pytest.raises(ValueError, match="singular"):
        aba_partials(chain, np.full(2, 0.3), np.zeros(2), np.zeros(2))


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_drivers_compile_only_the_converted_types():
    """Odd arrays (strided, read-only, int, mixed float and complex) and lists reach
    the drivers converted: no driver holds machine code for any other type than
    C-contiguous writable float64 or complex128 arrays, so no call compiles anew."""
    model, q, dq, ddq, f_ext = random_state(3)
    prescribed = np.repeat(np.arange(model.nbodies) % 3 == 0, 2)[::2]   # a view
    integers = lambda x: np.asarray(np.round(10 * x), dtype=int)    # noqa: E731
    odd = [strided, read_only, lambda x: x + 0j, lambda x: x.tolist()]
    for layout in odd + [integers]:
        cases = [(q, layout(dq), ddq), (q, dq, ddq, layout(f_ext))]
        if layout is not integers:                      # q holds unit quaternions
            cases.append((layout(q), dq, ddq))
            mass_matrix(model, layout(q))
        for args in cases:
            rnea(model, *args)
            aba(model, *args)
            hybrid(model, *args[:3], args[2], prescribed, *args[3:])
    for driver in (K.rnea_loop, K.aba_loop, K.crba_loop, K.hybrid_loop):
        for signature in driver.signatures:
            arrays = [t for t in signature if hasattr(t, "layout")]
            assert all(t.layout == "C" and t.mutable for t in arrays), signature
            assert {str(t.dtype) for t in arrays[2:]} <= {"float64", "complex128",
                                                          "bool"}
            assert str(signature[-1]) == "int64", signature


def test_aba_and_hybrid_chunks_share_one_articulation_step(monkeypatch):
    """aba_chunk and hybrid_chunk, run as plain Python, call the same
    articulation_step (backward, leaves first) and acceleration_step (root first)
    once per body, and give the reference's accelerations."""
    model = serial_chain(4)
    N, rng = model.nbodies, np.random.default_rng(5)
    q, dq, tau = rng.uniform(-1.0, 1.0, (3, model.nv))
    prescribed = np.array([True, False, True, False])
    calls = []

    def spy(name):
        step = getattr(kernels, name)

        def counted(topo, body, i, torque_given, *args):
            calls.append((name, i, bool(torque_given)))
            return step(topo, body, i, torque_given, *args)
        return counted
    for name in ("articulation_step", "acceleration_step"):
        monkeypatch.setattr(kernels, name, spy(name))
    topo, body = _exec.flat_model(model)[:2]
    body = body.copy()
    for chunk, args in ((kernels.aba_chunk, ()), (kernels.hybrid_chunk, (prescribed,))):
        calls.clear()
        w, c, d = K.workspaces(_exec.work(topo, q.dtype), topo, spatial.ABA_SLOTS,
                               spatial.BLOCK_SLOTS)
        K.prepare(topo, body, w, c, 1)
        K.gather_q(topo, q, 0, 1, w, 1)
        K.gather_wrenches(np.zeros((N, 6)), 0, 1, w, 1)
        for slot, x in ((spatial.DQ, dq), (spatial.DDQ, tau), (spatial.TAU, tau)):
            K.gather(c, slot, x, 0, 1, 1)
        chunk(topo, body, *args, w, c, d, 1)
        given = [not p for p in prescribed] if args else [True] * N
        assert calls == (
            [("articulation_step", i, given[i - 1]) for i in range(N, 0, -1)]
            + [("acceleration_step", i, given[i - 1]) for i in range(1, N + 1)])
        ddq = np.array([c[v, spatial.at(spatial.DDQ, 0)] for v in range(model.nv)])
        expected = (aba_pass(model, q, dq, tau).ddq if not args else
                    hybrid_pass(model, q, dq, tau, tau, prescribed).ddq)
        assert relerr(ddq, expected) < 1e-12


def test_an_edit_drops_the_flattened_model():
    model = serial_chain(2)
    flat = _exec.flat_model(model)
    assert _exec.flat_model(model) is flat                      # cached
    model.gravity = [0.0, 0.0, -1.0]
    assert _exec.flat_model(model) is not flat
    assert _exec.flat_model(model)[1][0, 5] == 1.0              # dV_0 = (0, -g)


SPECIAL = st.sampled_from([np.nan, np.inf, -np.inf, 1e308, -1e308, 5e-324, 0.0, -0.0])


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=0,
                       max_size=40),
       special=SPECIAL, where=st.integers(0, 39), as_complex=st.booleans())
def test_all_finite_reads_the_exponent_bits_right(values, special, where,
                                                  as_complex):
    """The branch-free test of the drivers (a kernel: plain Python here, and
    compiled below) against numpy's isfinite, also for complex entries."""
    x = np.array(values + [1.0], dtype=float)
    x[where % len(x)] = special
    if as_complex:                       # (x reversed) + i x, without arithmetic
        z = np.empty(len(x), complex)
        z.real, z.imag = x[::-1], x
        x = z
    assert K.all_finite(x) == bool(np.isfinite(x).all())
    assert K.all_finite(x.reshape(1, -1)) == bool(np.isfinite(x).all())
    if _jit.ENABLED:
        assert compiled_all_finite()(x) == bool(np.isfinite(x).all())


@functools.cache
def compiled_all_finite():
    """The kernel compiled on its own (numba then imported only where enabled)."""
    import numba
    return numba.njit(lambda x: K.all_finite(x))


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_the_single_state_code_refuses_other_types():
    """numba's public API as the engine uses it: a function compiled for explicit
    signatures raises TypeError for arguments of other types instead of compiling
    them (the single-state path relies on that to fall back), and compiles nothing
    new. If a numba release changes this, this test fails."""
    model, q, dq, ddq, f_ext = random_state(3)
    rnea(model, q, dq, ddq)                        # the float64 code exists now
    fast = _exec.one_state(K.rnea_loop).fast
    topo, body, zeros, _ = _exec.flat_model(model)
    tau, work = np.empty(model.nv), _exec.work(topo, np.float64, one_state.drivers())
    good = (topo, body, q, dq, ddq, zeros, tau, work, K.CHECK_STATE)
    assert fast(*good) == 0
    assert relerr(tau, rnea_pass(model, q, dq, ddq).tau) <= 1e-12
    odd = {2: q.astype(np.float32), 3: strided(dq), 4: read_only(ddq),
           5: zeros + 0j, 6: tau.tolist(), 7: work + 0j}
    for k, x in odd.items():
        with pytest.raises(TypeError):
            fast(*good[:k], x, *good[k + 1:])
    assert len(fast.signatures) == 1


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_one_state_runs_the_engine_compiled_for_chunks_of_one():
    """A batch of one state runs the twin of each driver that liedyn.engine.one_state
    executes from the same files with LANES = 1: its workspace rows hold one state,
    its machine code is cached apart, and the engine of chunks is left as it was
    (the other tests compare the two: single states against batches)."""
    copy = one_state.drivers()
    assert sys.modules[one_state.PACKAGE + ".spatial"].LANES == 1
    assert spatial.LANES == 16 and K.workspaces is not copy.workspaces
    assert [K.lanes(B) for B in (1, 3, 16, 40)] == [1, 3, 16, 16]
    assert [copy.lanes(B) for B in (1, 3, 40)] == [1, 1, 1]   # a constant there
    model, q, dq, ddq, _ = random_state(11)
    topo = _exec.flat_model(model)[0]
    narrow = copy.workspaces(_exec.work(topo, float, copy), topo, spatial.BODY_SLOTS,
                             0)[0]
    wide = K.workspaces(_exec.work(topo, float), topo, spatial.BODY_SLOTS, 0)[0]
    assert (narrow.shape[1], wide.shape[1]) == (spatial.BODY_SLOTS, 16 * spatial.BODY_SLOTS)
    twin = _exec.one_state(K.aba_loop)
    assert twin is copy.aba_loop and twin.folder != K.aba_loop.folder
    before = len(K.aba_loop.signatures)
    ddq1 = aba(model, q, dq, ddq)
    assert len(K.aba_loop.signatures) == before and twin.signatures
    assert relerr(ddq1, aba_pass(model, q, dq, ddq).ddq) <= 1e-12


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_single_calls_on_threads_each_get_their_own_scratch_memory():
    """Single states computed on four threads at once on one model (the drivers
    release the GIL) equal the reference, each call taking scratch memory that no
    other is using from those the flattened model keeps: afterwards it keeps at most
    one per thread, and the calls of one thread reuse one."""
    from concurrent.futures import ThreadPoolExecutor
    model = random_tree(6, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    states = [(model.random_configuration(rng), *rng.normal(size=(2, model.nv)))
              for _ in range(40)]
    rnea(model, *states[0])                     # flattens the model
    spare = _exec.flat_model(model)[3]
    rnea(model, *states[0])
    assert len(spare) == 1
    kept = spare[0]
    aba(model, *states[1])
    rnea_partials(model, *states[2])
    assert spare == [kept]

    def both(state):
        return rnea(model, *state), aba(model, *state)
    with ThreadPoolExecutor(4) as pool:
        for _ in range(5):
            results = list(pool.map(both, states))
    for (tau, ddq), state in zip(results, states, strict=True):
        assert relerr(tau, rnea_pass(model, *state).tau) <= 1e-12
        assert relerr(ddq, aba_pass(model, *state).ddq) <= 1e-12
    assert 1 <= len(spare) <= 4


def test_without_the_compiler_the_public_functions_run_the_reference():
    """LIEDYN_DISABLE_JIT=1, read at import: no driver exists, the dispatch
    declines, and rnea, aba, mass_matrix and hybrid give exactly what the
    reference implementations give, also on a model flattened already (as
    chapter 11 does to run the kernels as plain Python)."""
    script = """
import numpy as np
from liedyn.engine import dispatch, drivers, jit
from liedyn import aba, hybrid, mass_matrix, rnea
from liedyn.forward_dynamics import aba_pass
from liedyn.hybrid_dynamics import hybrid_pass
from liedyn.inverse_dynamics import rnea_pass
from liedyn.robots import random_tree
assert not jit.ENABLED and drivers.rnea_loop is None
rng = np.random.default_rng(5)
model = random_tree(6, rng)
q = model.random_configuration(rng)
dq, x = rng.normal(size=(2, model.nv))
assert dispatch.rnea(model, q, dq, x) is None
assert dispatch.flat_model(model) is not None
# the public functions call the reference: the same function on the same input
assert np.array_equal(rnea(model, q, dq, x), rnea_pass(model, q, dq, x).tau)
assert np.array_equal(aba(model, q, dq, x), aba_pass(model, q, dq, x).ddq)
mask = np.arange(model.nbodies) % 2 == 0
want = hybrid_pass(model, q, dq, x, x, mask)
assert all(np.array_equal(a, b) for a, b in
           zip(hybrid(model, q, dq, x, x, mask), (want.tau, want.ddq)))
z = np.zeros(model.nv)
M = np.stack([rnea_pass(model, q, z, e).tau - rnea_pass(model, q, z, z).tau
              for e in np.eye(model.nv)], axis=-1)
assert np.allclose(mass_matrix(model, q), M, rtol=0, atol=1e-12)
print("reference")
"""
    env = dict(os.environ, LIEDYN_DISABLE_JIT="1")
    run = subprocess.run([sys.executable, "-c", script], env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "reference"


# ---------------------------------------------------------------------------------------------
# numba's cache: a folder per content of the engine's sources
# ---------------------------------------------------------------------------------------------
def modules_the_compiled_code_reads():
    """The modules of liedyn outside the engine that the compiled modules import (their
    constants and series end up in the machine code); dispatch.py runs in Python."""
    engine = Path(_jit.__file__).parent
    names = set()
    for f in engine.glob("*.py"):
        if f.name in ("dispatch.py", "__init__.py"):
            continue
        text = f.read_text()
        names |= set(re.findall(r"^from \.\.(\w+) import", text, re.M))
        for group in re.findall(r"^from \.\. import ([\w, ]+)", text, re.M):
            names |= {n.strip() for n in group.split(",")}
    return names


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_compiled_drivers_are_cached_in_the_folder_of_their_sources():
    """numba checks only the driver's own file; an edited kernel (from kernels.py) or
    tolerance (from joint.py or joints.py) must not reuse the machine code of the old
    one: the folder's digest covers the engine and every module its compiled code
    reads from."""
    import liedyn
    engine = os.path.dirname(_jit.__file__)
    read = modules_the_compiled_code_reads()
    assert {"joint", "joints", "lie", "dexp"} <= read             # tolerances, series
    assert {m.__name__.split(".")[-1] for m in _jit.SOURCES} >= read
    sources = sorted(os.path.join(engine, f) for f in os.listdir(engine) if f.endswith(".py"))
    sources += [m.__file__ for m in _jit.SOURCES]
    assert all(getattr(liedyn, name).__file__ in sources for name in read)
    assert os.path.basename(_jit.CACHE_DIR) == "numba-" + _jit.sources_digest(sources)
    model = serial_chain(2)
    rnea(model, np.zeros(2), np.zeros(2), np.zeros(2))            # compiled, cached
    cached = [f for _, _, files in os.walk(_jit.CACHE_DIR) for f in files]
    assert any(f.endswith(".nbi") for f in cached), cached


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_numba_cache_dir_moves_the_cache(tmp_path):
    """NUMBA_CACHE_DIR, numba's setting of its cache folder, moves liedyn's too (to
    a folder ``liedyn`` there), and the drivers compiled in that process are cached
    there."""
    script = """
import numpy as np
import liedyn as ld
from liedyn.engine import jit
ld.rnea(ld.robots.serial_chain(2), np.zeros(2), np.zeros(2), np.zeros(2))
print(jit.CACHE_DIR)
"""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    folder = Path(run.stdout.strip())
    assert folder.parent == tmp_path / "liedyn" and folder.name.startswith("numba-")
    assert any(folder.rglob("*.nbi"))


def test_the_digest_follows_every_source(tmp_path):
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("x = 1\n")
    b.write_text("y = 2\n")
    before = _jit.sources_digest([a, b])
    b.write_text("y = 3\n")
    assert _jit.sources_digest([a, b]) != before
    assert _jit.sources_digest([a]) != _jit.sources_digest([b])


# ---------------------------------------------------------------------------------------------
# chunks of states and threads
# ---------------------------------------------------------------------------------------------
LANES = spatial.LANES
BATCHES = [1, LANES - 1, LANES, LANES + 1, 3 * LANES + 5]


@contextlib.contextmanager
def threads(n, every_batch=False):
    """``n`` threads; ``every_batch``: also for batches too small to gain from them
    (the engine's threshold of work per thread set to one state)."""
    before, work = _exec.get_num_threads(), _exec._WORK_PER_THREAD
    _exec.set_num_threads(n)
    if every_batch:
        _exec._WORK_PER_THREAD = 1
    try:
        yield
    finally:
        _exec.set_num_threads(before)
        _exec._WORK_PER_THREAD = work


def every_algorithm(model, q, dq, x, f_ext):
    """The results of every algorithm the engine runs (the partials for constant S)."""
    tau = rnea(model, q, dq, x, f_ext)
    out = [tau, aba(model, q, dq, x, f_ext), mass_matrix(model, q),
           *hybrid(model, q, dq, x, x, every_other_joint(model), f_ext),
           inverse_mass_matrix(model, q)]
    if _exec.flat_model(model)[0][0, spatial.JOINT] & spatial.VARYING_S == 0:
        out += [*rnea_partials(model, q, dq, x, f_ext), *aba_partials(model, q, dq, x, f_ext)]
    return out


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("joints", ["every", "constant S"])
@pytest.mark.parametrize("n_threads", [1, 2])
def test_batches_across_chunk_boundaries_equal_single_states(joints, n_threads):
    """A batch goes through the kernels a chunk of LANES states at a time (the last one
    filled up with copies of the batch's last state), and in shares on several threads:
    batches of 1, LANES - 1, LANES, LANES + 1 and 3 LANES + 5 states, on one thread and
    on two (every batch split), give each state what a call on that state alone gives,
    for every algorithm; the states of a chunk are computed by the same instructions
    but sum in the order of their own call, so to a stated tolerance."""
    kinds = None if joints == "every" else CONSTANT_S_JOINTS
    for seed, B in enumerate(BATCHES):
        model, q, dq, x, f_ext = random_state(seed + 40, kinds, batch=(B,))
        with threads(n_threads, every_batch=True):
            batched = every_algorithm(model, q, dq, x, f_ext)
        for k in range(B):
            single = every_algorithm(model, q[k], dq[k], x[k], f_ext[k])
            for a, b in zip(batched, single, strict=True):
                assert relerr(a[k], b) <= 1e-12, (B, k)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.parametrize("n_threads", [1, 2])
def test_outputs_larger_than_the_caches_equal_those_written_plainly(n_threads):
    """Matrices of a batch of more than STREAM_BYTES per output array (per thread's
    share) are written by non-temporal stores: the mass matrix and both partials of
    2,400 states of a 12-joint random tree equal those of the same states in batches
    of 40 (each output below the threshold, written plainly), to a stated tolerance
    (the same instructions, but two calls)."""
    rng = np.random.default_rng(5)
    model = random_tree(12, rng, joint_types=CONSTANT_S_JOINTS)
    B, nv = 2400, model.nv
    assert B * nv * nv * 8 > n_threads * K.STREAM_BYTES > 40 * nv * nv * 8
    q = np.stack([model.random_configuration(rng) for _ in range(B)])
    dq, x = rng.normal(size=(2, B, nv))

    def results(q, dq, x):
        return [mass_matrix(model, q), *rnea_partials(model, q, dq, x),
                *aba_partials(model, q, dq, x)]
    with threads(n_threads, every_batch=True):
        streamed = results(q, dq, x)
    for b0 in range(0, B, 600):              # a few slices of the batch, in pieces
        pieces = [results(q[k:k + 40], dq[k:k + 40], x[k:k + 40])
                  for k in range(b0, b0 + 80, 40)]
        for r, big in enumerate(streamed):
            plain = np.concatenate([p[r] for p in pieces])
            assert relerr(big[b0:b0 + 80], plain) <= 1e-12, (b0, r)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_the_scratch_memory_starts_on_a_cache_line_and_its_parts_are_apart(seed,
                                                                           dtype):
    """dispatch.work starts on a multiple of LINE bytes, whatever numpy's allocator
    gives; the parts the drivers cut from it (drivers.layout) lie inside it, none
    overlapping another, in both engines, the numbers' parts each on a cache line
    (rows of the chunk engine's workspaces: whole cache lines); the integers at its
    end are the driver's own."""
    model = random_tree(4 + seed, np.random.default_rng(seed))
    topo = _exec.flat_model(model)[0]
    for engine in (K, one_state.drivers()):
        works = [_exec.work(topo, dtype, engine) for _ in range(8)]
        assert all(x.ctypes.data % K.LINE == 0 for x in works)
        work = works[0]
        assert work.shape == (engine.work_length(topo),) and work.dtype == dtype
        parts = [*engine.workspaces(work, topo, spatial.PARTIALS_SLOTS,
                                    spatial.PARTIALS_BLOCK_SLOTS),
                 *engine.matrices(work, topo, engine.LANES),
                 *engine.system(work, topo), *engine.marks(work, topo)]
        for k, x in enumerate(parts):
            assert x.size and np.shares_memory(x, work), k
            assert k >= len(parts) - 3 or x.ctypes.data % K.LINE == 0, k
            assert not any(np.shares_memory(x, y) for y in parts[k + 1:]), k
        if engine is K:
            assert all(x.strides[0] % K.LINE == 0 for x in parts[:3])
        inside, lam, rel = parts[-3:]
        assert inside.dtype == lam.dtype == rel.dtype == np.int64
        assert (inside.shape, lam.shape, rel.shape) == (
            (model.nbodies + 1,), (model.nv,), (model.nv, model.nv))


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_stream_stores_non_temporally_and_fence_orders_them():
    """jit.stream writes out[i, j] (floats and complex numbers alike), compiled into a
    non-temporal store (``movnt...``) and jit.fence into ``sfence`` on x86; plain
    Python, an ordinary assignment."""
    import llvmlite.binding as llvm
    import numba

    @numba.njit
    def write(out, x):
        for i in range(out.shape[0]):
            for j in range(out.shape[1]):
                _jit.stream(out, i, j, x * (10 * i + j))
        _jit.fence()
    for dtype, x in ((float, 1.5), (complex, 1 - 2j)):
        out = np.zeros((3, 4), dtype)
        write(out, x)
        assert np.array_equal(out, x * (10 * np.arange(3)[:, None] + np.arange(4)))
    plain = np.zeros((2, 2))
    _jit.stream(plain, 1, 0, 3.0)
    _jit.fence()
    assert plain.tolist() == [[0, 0], [3, 0]]
    if not llvm.get_process_triple().startswith(("x86_64", "i386", "i686")):
        pytest.skip("the instructions are x86's")
    asm = write.inspect_asm(write.signatures[0])
    assert re.search(r"\smovnt\w+\s", asm) and re.search(r"\ssfence\b", asm)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_streamed_doubles_stay_non_temporal_on_a_cpu_without_sse4a():
    """Compiled for a CPU without AMD's SSE4a (Intel's, here Haswell's features:
    no lone double has a non-temporal store), jit.stream of floats and of complex
    numbers is still a non-temporal store (SSE2's movnti of their 64-bit words), not
    the plain store LLVM makes of a double's marked store there."""
    import llvmlite.binding as llvm
    if not llvm.get_process_triple().startswith("x86_64"):
        pytest.skip("the instructions are x86-64's")
    script = """
import re
import numba
import numpy as np
from liedyn.engine import jit

@numba.njit
def write(out, x):
    for i in range(out.shape[0]):
        jit.stream(out, i, 0, x)
for x in (1.5, 1.5 + 2j):
    out = np.zeros((3, 1), type(x))
    write(out, x)
    assert (out == x).all()
for sig in write.signatures:
    asm = write.inspect_asm(sig)
    print(len(re.findall(r"\\smovnti\\w*\\s", asm)))
"""
    env = dict(os.environ, NUMBA_CPU_NAME="haswell",
               NUMBA_CPU_FEATURES="+avx,+avx2,+fma,+sse4.2,+popcnt,+bmi,+bmi2,+f16c,"
                                  "+lzcnt,+movbe,+cx16,+xsave,-sse4a,-avx512f")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    counts = [int(n) for n in run.stdout.split()]        # floats, complex numbers
    assert len(counts) == 2 and min(counts) >= 1, counts


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_a_batch_shared_among_threads_is_split_at_the_state_and_shared_inputs_kept():
    """Inputs that hold one state for the whole batch (q, f_ext here) reach every share
    whole; the others are split by states."""
    model, q, dq, x, f_ext = random_state(7, batch=(37,))
    with threads(3, every_batch=True):
        tau = rnea(model, q[0], dq, x, f_ext[0])
    for k in (0, 18, 36):
        assert relerr(tau[k], rnea(model, q[0], dq[k], x[k], f_ext[0])) <= 1e-12


def test_the_number_of_threads_is_set_checked_and_restored():
    default = _exec.get_num_threads()
    assert default >= 1
    try:
        assert _exec.set_num_threads(1) == 1 and _exec.get_num_threads() == 1
        assert _exec._threads_for(10**6, 40) == 1            # one core: every batch
        _exec.set_num_threads(4)
        assert _exec._threads_for(1, 40) == 1                  # one state: no threads
        assert _exec._threads_for(10**6, 40) == 4
        for bad in (0, -2, 1.5, True, "2"):
            with pytest.raises(ValueError, match="argument 'n'"):
                _exec.set_num_threads(bad)
        assert _exec.get_num_threads() == 4                   # a refusal changes nothing
    finally:
        assert _exec.set_num_threads(None) == default


@pytest.mark.parametrize("value, expected", [("3", "3"), ("1", "1"), ("0", "ValueError"),
                                             ("two", "ValueError")])
def test_liedyn_num_threads_sets_the_default(value, expected):
    script = """
import liedyn as ld
try:
    print(ld.get_num_threads())
except ValueError as error:
    assert "LIEDYN_NUM_THREADS" in str(error), error
    print("ValueError")
"""
    env = dict(os.environ, LIEDYN_NUM_THREADS=value)
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == expected


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_the_loops_over_states_compile_to_packed_multiply_adds():
    """The hot loops run over the states of a chunk, and the compiled driver holds
    packed fused multiply-adds on vector registers (``vfmadd...pd`` on ``ymm`` or
    ``zmm``: 4 or 8 states per instruction), compiled afresh (numba cannot show cached
    machine code) for this machine's CPU. Skipped on a CPU without FMA."""
    import llvmlite.binding as llvm
    if not llvm.get_host_cpu_features().get("fma", False):
        pytest.skip("the CPU has no fused multiply-add")
    script = """
import re, tempfile
import numpy as np
from liedyn.engine import drivers, jit
jit.CACHE_DIR = tempfile.mkdtemp()               # compile, do not load
import liedyn as ld
model = ld.robots.serial_chain(3)
ld.rnea(model, np.zeros((2, 3)), np.zeros(3), np.zeros(3))   # a batch: in chunks
asm = drivers.rnea_loop.fast.inspect_asm(drivers.rnea_loop.fast.signatures[0])
packed = re.findall(r"vfmadd\\w*pd\\s[^\\n]*%[yz]mm", asm)
scalar = re.findall(r"vfmadd\\w*sd\\s", asm)
print(len(packed), len(scalar))
"""
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    packed, scalar = map(int, run.stdout.split())
    assert packed >= 50, (packed, scalar)


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
def test_kernels_are_compiled_without_reference_counts():
    """A kernel never allocates and only reads and writes the arrays it gets: compiled
    with numba's option _nrt=False (not part of its documented API), it counts no
    references to them, an atomic operation per array and call. The table's kernel
    and the joints' (too large for LLVM to inline into their caller) compiled here:
    their functions hold no reference count; nor do the drivers, compiled with it
    too (they allocate nothing: the caller gives them their scratch memory). If a
    numba release drops or ignores the option, this test fails."""
    import numba
    model = serial_chain(2)
    topo, body = _exec.flat_model(model)[:2]
    w, c, _ = K.workspaces(_exec.work(topo, float), topo, spatial.BODY_SLOTS, 0)
    K.prepare(topo, body, w, c, 1)
    caller = numba.njit(lambda topo, body, w, c: kernels.rnea_chunk(topo, body, w, c, 1))
    caller(topo, body, w, c)
    ir = caller.inspect_llvm(caller.signatures[0])
    functions = {re.search(r"@([^(\s]+)\(", f)[1]: f for f in ir.split("\ndefine ")[1:]}
    kernel_bodies = [f for name, f in functions.items()
                     if "10rnea_chunk" in name or "12joint_motion" in name]
    assert kernel_bodies, list(functions)
    for f in kernel_bodies:
        assert "@NRT_incref" not in f and "@NRT_decref" not in f
    rnea(model, *np.zeros((3, model.nv)))                  # the one-state driver
    fast = _exec.one_state(K.rnea_loop).fast
    ir = fast.inspect_llvm(fast.signatures[0])
    assert "@NRT_incref" not in ir and "@NRT_decref" not in ir


_MALLOC_DEBUG = ctypes.util.find_library("c_malloc_debug")     # glibc 2.34 and later


@pytest.mark.skipif(not _jit.ENABLED, reason="numba absent or disabled")
@pytest.mark.skipif(_MALLOC_DEBUG is None, reason="glibc's malloc checks absent")
def test_the_parts_of_the_scratch_memory_can_be_cut_by_code_that_counts_references():
    """The kernels that return views of the scratch memory, called 1,000 times from a
    function compiled with numba's reference counts: each view is counted there
    (the kernels are inlined), and no memory is freed while in use. glibc's checks of
    its heap (MALLOC_CHECK_=3, in the library it loads first) abort the process at
    the first corrupted block; compiled without the counts, the views were released
    once too often and the process aborted."""
    script = """
import numba
import numpy as np
from liedyn.engine import dispatch, drivers as K, spatial as SP
from liedyn.robots import serial_chain

topo = dispatch.flat_model(serial_chain(3))[0]
work = dispatch.work(topo, np.float64)


@numba.njit                                     # with numba's reference counts
def cut(work, topo):
    w, c, d = K.workspaces(work, topo, SP.PARTIALS_SLOTS, SP.PARTIALS_BLOCK_SLOTS)
    m = K.matrices(work, topo, 1)[0]
    Mb, X = K.system(work, topo)
    inside, lam, rel = K.marks(work, topo)
    return w.size + c.size + d.size + m.size + Mb.size + X.size + lam.size + rel.size


sizes = {cut(work, topo) for _ in range(1000)}
blocks = [np.ones(k) for k in range(2000)]      # the heap is still sound
print(len(sizes), sum(b.size for b in blocks))
"""
    env = dict(os.environ, LD_PRELOAD=_MALLOC_DEBUG, MALLOC_CHECK_="3")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                         text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1", str(sum(range(2000)))]
