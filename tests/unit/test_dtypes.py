"""Every algorithm on every dtype it promises: float, complex and sympy objects.

One test per algorithm and dtype, at one point (float and complex on the reference path
and on the compiled one):

* float: against a second method (the mass matrix and a solve, finite differences, the
  dense KKT system, ...);
* complex: at a real point equal to the float result, and its complex step equal to
  central differences (the derivative along one direction);
* sympy: on symbols, the result with the point's numbers substituted equals the float
  result; on rationals (an exact model, sin and cos exact at ``q = 0``) the result is
  exact rationals.

A function that cannot take a dtype says so (the tests at the end).
"""
from dataclasses import dataclass

import numpy as np
import pytest
import sympy

import liedyn as ld
from liedyn.constrained_derivatives import constrained_forward_partials
from liedyn.constrained_dynamics import constrained_forward_kkt, constrained_hybrid
from liedyn.constraints import constraint_jacobian
from liedyn.forward_dynamics import mass_matrix_factor
from liedyn.hybrid_dynamics import hybrid_direct
from liedyn.simulation import METHODS

from common import relerr

H = 1e-20                        # the complex step
EPS = 1e-6                       # the central differences' step

# --- the models and points ----------------------------------------------------------------
PENDULUM = ld.robots.double_pendulum()
PENDULUM.armature = [0.1, 0.2]
POINT = (np.array([0.3, -0.7]), np.array([0.5, 1.1]), np.array([-0.2, 0.9]))

FOUR_BAR, LOOPS, Q4 = ld.robots.four_bar()
_NULL = np.linalg.svd(constraint_jacobian(FOUR_BAR, LOOPS, Q4))[2][-1]  # A n = 0
DQ4 = 0.7 * _NULL
TAU4 = np.array([0.3, 0.0, 0.0])                   # the crank driven, the rest passive
DDQ4 = ld.constrained_forward(FOUR_BAR, LOOPS, Q4, DQ4, TAU4)[0]   # consistent


def tuple_of(x):
    """The arrays of a result: one array, a tuple, or a record's fields."""
    if isinstance(x, np.ndarray):
        return (x,)
    if isinstance(x, (tuple, list)):
        return tuple(x)
    return tuple(vars(x).values())


def finite_differences(f, point, k, e):
    """Central differences of ``f(*point)`` along ``e`` in argument ``k``."""
    def at(s):
        moved = list(point)
        moved[k] = point[k] + s * e
        return tuple_of(f(*moved))
    return [(a - b) / (2 * EPS) for a, b in zip(at(EPS), at(-EPS), strict=True)]


def by_differences(f, point):
    """The full partials ``[..., i, k]`` of ``f``'s first results along ``q``,
    ``dq`` and the third argument (revolute joints: ``q + e_k`` is the tangent
    step)."""
    n = len(point[0])
    return [np.stack([finite_differences(f, point, k, e)[0] for e in np.eye(n)], -1)
            for k in range(3)]


@dataclass
class Case:
    """``call(q, dq, x)``: the algorithm; ``point``; ``second(q, dq, x)``: its float
    result by another method (or its finite differences); ``step``: the argument
    and the direction of the complex step; ``tol``: of the second method."""

    call: object
    point: tuple
    second: object
    step: tuple
    tol: float = 1e-10


def _mass_by_rnea(q):
    n = len(q)
    zero = np.zeros(n)
    return np.stack([ld.rnea(PENDULUM, q, zero, e) - ld.rnea(PENDULUM, q, zero, zero)
                     for e in np.eye(n)], -1)


def _hybrid_partials_by_differences(q, dq, x):
    """Finite differences of hybrid's (tau, ddq) along q, dq and the known input
    (ddq on joint 2, tau on joint 1)."""
    def known(q, dq, x):
        return ld.hybrid(PENDULUM, q, dq, x, x, [False, True])
    out = []
    for k in range(3):
        cols = [finite_differences(known, (q, dq, x), k, e) for e in np.eye(2)]
        out += [np.stack([c[0] for c in cols], -1), np.stack([c[1] for c in cols], -1)]
    return out


def _projected_partials(q, dq, tau):
    """The constrained forward partials along the consistent velocity direction
    and the crank torque."""
    P = constrained_forward_partials(FOUR_BAR, LOOPS, q, dq, tau)
    return (P.dddq_ddq_dot @ _NULL, P.dlam_ddq_dot @ _NULL, P.dddq_dtau[:, 0],
            P.dlam_dtau[:, 0])


def _constrained_forward_by_differences(q, dq, tau):
    def f(q, dq, t):
        return ld.constrained_forward(FOUR_BAR, LOOPS, q, dq, t)
    return (*finite_differences(f, (q, dq, tau), 1, _NULL),
            *finite_differences(f, (q, dq, tau), 2, np.eye(3)[0]))


P = PENDULUM
CASES = {
    "rnea": Case(lambda q, dq, x: ld.rnea(P, q, dq, x), POINT,
                 lambda q, dq, x: ld.mass_matrix(P, q) @ x + ld.bias_force(P, q, dq),
                 (1, np.array([1.0, -0.5]))),
    "mass_matrix": Case(lambda q, dq, x: ld.mass_matrix(P, q), POINT,
                        lambda q, dq, x: _mass_by_rnea(q), (0, np.array([1.0, 0.4]))),
    "bias_force": Case(lambda q, dq, x: ld.bias_force(P, q, dq), POINT,
                       lambda q, dq, x: ld.rnea(P, q, dq, x) - ld.mass_matrix(P, q) @ x,
                       (1, np.array([0.3, 1.0]))),
    "aba": Case(lambda q, dq, x: ld.aba(P, q, dq, x), POINT,
                lambda q, dq, x: np.linalg.solve(ld.mass_matrix(P, q),
                                                 x - ld.bias_force(P, q, dq)),
                (0, np.array([1.0, -0.5]))),
    "inverse_mass_matrix": Case(lambda q, dq, x: ld.inverse_mass_matrix(P, q), POINT,
                                lambda q, dq, x: np.linalg.inv(ld.mass_matrix(P, q)),
                                (0, np.array([0.2, 1.0]))),
    "mass_matrix_factor": Case(
        lambda q, dq, x: mass_matrix_factor(P, q), POINT,
        lambda q, dq, x: np.linalg.cholesky(ld.mass_matrix(P, q)[::-1, ::-1])[::-1, ::-1],
        (0, np.array([1.0, 1.0]))),
    "hybrid": Case(lambda q, dq, x: ld.hybrid(P, q, dq, x, x, [False, True]), POINT,
                   lambda q, dq, x: hybrid_direct(P, q, dq, x, x, [False, True]),
                   (0, np.array([1.0, -0.3]))),
    "rnea_partials": Case(lambda q, dq, x: ld.rnea_partials(P, q, dq, x), POINT,
                          lambda q, dq, x: by_differences(
                              lambda *a: ld.rnea(P, *a), (q, dq, x)),
                          (1, np.array([1.0, 0.5])), tol=1e-8),
    "aba_partials": Case(lambda q, dq, x: ld.aba_partials(P, q, dq, x), POINT,
                         lambda q, dq, x: by_differences(
                             lambda *a: ld.aba(P, *a), (q, dq, x)),
                         (1, np.array([1.0, 0.5])), tol=1e-8),
    "hybrid_partials": Case(
        lambda q, dq, x: ld.hybrid_partials(P, q, dq, x, x, [False, True]), POINT,
        _hybrid_partials_by_differences, (0, np.array([0.5, 1.0])), tol=1e-8),
    "constrained_forward": Case(
        lambda q, dq, t: ld.constrained_forward(FOUR_BAR, LOOPS, q, dq, t),
        (Q4, DQ4, TAU4),
        lambda q, dq, t: constrained_forward_kkt(FOUR_BAR, LOOPS, q, dq, t),
        (1, _NULL)),
    "constrained_inverse": Case(       # the torque that makes DDQ4, passive joints free
        lambda q, dq, a: ld.constrained_inverse(FOUR_BAR, LOOPS, q, dq, a,
                                                [True, False, False]),
        (Q4, DQ4, DDQ4),
        lambda q, dq, a: (TAU4, ld.constrained_forward(FOUR_BAR, LOOPS, q, dq, TAU4)[1]),
        (2, _NULL)),
    "constrained_hybrid": Case(        # the crank's DDQ4 prescribed: TAU4 back
        lambda q, dq, t: constrained_hybrid(FOUR_BAR, LOOPS, q, dq, DDQ4, t,
                                            [True, False, False]),
        (Q4, DQ4, TAU4),
        lambda q, dq, t: (TAU4, DDQ4,
                          ld.constrained_forward(FOUR_BAR, LOOPS, q, dq, TAU4)[1]),
        (2, np.array([0.0, 1.0, -0.5]))),
    "constrained_forward_partials": Case(_projected_partials, (Q4, DQ4, TAU4),
                                         _constrained_forward_by_differences,
                                         (1, _NULL), tol=1e-8),
}


# --- float: against a second method ---------------------------------------------------------
@pytest.mark.parametrize("name", CASES)
def test_float_agrees_with_a_second_method(name, both_paths):
    case = CASES[name]
    got, want = tuple_of(case.call(*case.point)), tuple_of(case.second(*case.point))
    assert len(got) >= len(want)
    for a, b in zip(got, want, strict=True):
        assert a.dtype == float
        assert relerr(a, np.asarray(b)) < case.tol, name


# --- complex: the float result at a real point, the derivative by the complex step ----------
def complex_step(case):
    k, e = case.step
    point = list(case.point)
    point[k] = point[k] + 1j * H * e
    return tuple_of(case.call(*point))


@pytest.mark.parametrize("name", CASES)
def test_complex_at_a_real_point_is_the_float_result(name, both_paths):
    case = CASES[name]
    real = [x + 0j for x in case.point]
    for a, b in zip(tuple_of(case.call(*real)), tuple_of(case.call(*case.point)), strict=True):
        assert a.dtype == complex and not np.any(a.imag)
        assert relerr(a.real, b) < 1e-13, name


@pytest.mark.parametrize("name", CASES)
def test_the_complex_step_is_the_derivative(name, both_paths):
    case = CASES[name]
    k, e = case.step
    fd = finite_differences(case.call, case.point, k, e)
    for a, b in zip(complex_step(case), fd, strict=True):
        assert relerr(a.imag / H, b) < 1e-6, name


def test_mass_matrix_factor_on_complex_takes_no_conjugate():
    """``W W^T = M`` holds for the complex-step input too (a Hermitian Cholesky
    factor would give ``W W^H``)."""
    q = POINT[0] + 1j * H * np.array([1.0, 1.0])
    W = mass_matrix_factor(PENDULUM, q)
    M = ld.mass_matrix(PENDULUM, q)
    assert np.max(np.abs((W @ W.T - M).imag)) < 1e-12 * H


# --- sympy: symbols, then numbers substituted; rationals exact -----------------------------
def symbols_like(point):
    names = ("q", "dq", "x")
    return [np.array(sympy.symbols(f"{n}1:{len(p) + 1}"), dtype=object)
            for n, p in zip(names, point, strict=True)]


def substituted(x, symbols, point):
    """The object array ``x`` with each symbol replaced by its number of
    ``point``: a float array."""
    values = [float(v) for p in point for v in p]
    f = sympy.lambdify([s for sym in symbols for s in sym], list(np.ravel(x)), "math")
    return np.array(f(*values), dtype=float).reshape(np.shape(x))


@pytest.mark.parametrize("name", CASES)
def test_sympy_symbols_give_the_float_result(name):
    case = CASES[name]
    symbols = symbols_like(case.point)
    got = tuple_of(case.call(*symbols))
    want = tuple_of(case.call(*case.point))
    for a, b in zip(got, want, strict=True):
        assert a.dtype == object, name
        assert relerr(substituted(a, symbols, case.point), b) < 1e-11, name


R = sympy.Rational


def exact_double_pendulum():
    """The double pendulum with sympy rationals: bobs of 1 and 2 kg on rods of 1 and
    1/2 m, gravity 10."""
    model = ld.Model(gravity=(0.0, -10.0, 0.0))
    for i, (mass, length) in enumerate([(R(1), R(1)), (R(2), R(1, 2))]):
        I = ld.spatial_inertia(mass, np.array([0, -length, 0], dtype=object),
                               np.zeros((3, 3), dtype=object))
        X = np.eye(4, dtype=object)
        X[1, 3] = -1 if i else 0
        model.add_body(f"bob{i + 1}", i, ld.Revolute([0, 0, 1]), placement=X, inertia=I)
    return model


EXACT = exact_double_pendulum()
FLOATS = ld.robots.double_pendulum(masses=(1.0, 2.0), lengths=(1.0, 0.5), gravity=10.0)
LOCK = ld.Pfaffian(lambda q: np.array([[0, 1]], dtype=q.dtype),        # dq_2 = 0
                   lambda q, dq: np.zeros(1, dtype=dq.dtype), m=1)
EXACT_CALLS = {    # (model, q, dq, tau, dq and ddq consistent with LOCK); the square
                   # roots of mass_matrix_factor: test_exact_values
    "rnea": lambda m, q, dq, tau, dq_c, ddq_c: ld.rnea(m, q, dq, tau),
    "mass_matrix": lambda m, q, dq, tau, dq_c, ddq_c: ld.mass_matrix(m, q),
    "bias_force": lambda m, q, dq, tau, dq_c, ddq_c: ld.bias_force(m, q, dq),
    "aba": lambda m, q, dq, tau, dq_c, ddq_c: ld.aba(m, q, dq, tau),
    "inverse_mass_matrix": lambda m, q, dq, tau, dq_c, ddq_c:
        ld.inverse_mass_matrix(m, q),
    "hybrid": lambda m, q, dq, tau, dq_c, ddq_c: ld.hybrid(m, q, dq, tau, tau,
                                                            [False, True]),
    "rnea_partials": lambda m, q, dq, tau, dq_c, ddq_c: ld.rnea_partials(m, q, dq,
                                                                          tau),
    "aba_partials": lambda m, q, dq, tau, dq_c, ddq_c: ld.aba_partials(m, q, dq, tau),
    "hybrid_partials": lambda m, q, dq, tau, dq_c, ddq_c: ld.hybrid_partials(
        m, q, dq, tau, tau, [False, True]),
    "constrained_forward": lambda m, q, dq, tau, dq_c, ddq_c:
        ld.constrained_forward(m, [LOCK], q, dq_c, tau),
    "constrained_inverse": lambda m, q, dq, tau, dq_c, ddq_c:
        ld.constrained_inverse(m, [LOCK], q, dq_c, ddq_c, [True, False],
                               tau_passive=tau),
    "constrained_hybrid": lambda m, q, dq, tau, dq_c, ddq_c:
        constrained_hybrid(m, [LOCK], q, dq_c, ddq_c, tau, [True, False]),
}


def exact_arguments(exact):
    """The model and the state, as rationals (or the same numbers as floats)."""
    numbers = [[0, 0], [R(1, 2), R(-1, 7)], [R(1, 3), R(1, 5)], [R(1, 2), 0],
               [R(2, 33), 0]]
    if exact:
        return (EXACT, *(np.array(x, dtype=object) for x in numbers))
    return (FLOATS, *(np.array(x, dtype=float) for x in numbers))


def is_rational(x):
    return isinstance(x, int) or (isinstance(x, sympy.Basic) and x.is_Rational)


@pytest.mark.parametrize("name", EXACT_CALLS)
def test_sympy_rationals_give_exact_rationals(name):
    """At q = 0 (sin and cos exact) with rational masses, lengths and state; the
    same numbers as floats give the float result."""
    out = tuple_of(EXACT_CALLS[name](*exact_arguments(True)))
    entries = [x for a in out for x in np.ravel(a)]
    assert entries and all(is_rational(x) for x in entries), [
        x for x in entries if not is_rational(x)]
    for a, b in zip(out, tuple_of(EXACT_CALLS[name](*exact_arguments(False))), strict=True):
        assert relerr(np.array(a, dtype=float), b) < 1e-12, name


def test_exact_values():
    """Two results by hand: at q = 0 the bobs hang at 1 and 3/2 m below the pivot,
    M = [[1 + 2 (3/2)^2, 2 (1/2)(3/2)], [., 2 (1/2)^2]] = [[11/2, 3/2], [3/2, 1/2]],
    and gravity pulls along the rods: ddq = M^-1 tau."""
    model, zero, _, tau = exact_arguments(True)[:4]
    M = ld.mass_matrix(model, zero)
    assert M.tolist() == [[R(11, 2), R(3, 2)], [R(3, 2), R(1, 2)]]
    assert ld.aba(model, zero, zero, tau).tolist() == list(
        sympy.Matrix(M).inv() @ sympy.Matrix(tau))
    W = mass_matrix_factor(model, zero)               # M = W W^T, with square roots
    assert sympy.simplify(sympy.Matrix(W) @ sympy.Matrix(W).T - sympy.Matrix(M)) == \
        sympy.zeros(2, 2)


# --- simulate: float and complex, not sympy ---------------------------------------------------
def test_simulate_float_satisfies_the_equations_of_motion():
    """Central differences of the trajectory give its velocity and aba's
    acceleration, to O(dt^2)."""
    dt = 1e-3
    traj = ld.simulate(PENDULUM, POINT[0], POINT[1], dt=dt, steps=50)
    assert traj.q.dtype == float
    dq = (traj.q[2:] - traj.q[:-2]) / (2 * dt)
    ddq = (traj.dq[2:] - traj.dq[:-2]) / (2 * dt)
    assert relerr(dq, traj.dq[1:-1]) < 1e-5
    assert relerr(ddq, ld.aba(PENDULUM, traj.q[1:-1], traj.dq[1:-1], np.zeros(2))) < 1e-5


@pytest.mark.parametrize("method", METHODS)
def test_simulate_complex_is_float_and_its_complex_step_the_derivative(method):
    """d(trajectory)/d(dq0) by the complex step equals central differences."""
    def run(dq0):
        return ld.simulate(PENDULUM, POINT[0], dq0, dt=0.01, steps=30, method=method)
    e = np.array([1.0, -0.5])
    real, step = run(POINT[1]), run(POINT[1] + 1j * H * e)
    plus, minus = run(POINT[1] + EPS * e), run(POINT[1] - EPS * e)
    for name in ("q", "dq", "energy"):
        a, b = getattr(step, name), getattr(real, name)
        assert a.dtype == complex and relerr(a.real, b) < 1e-13
        fd = (getattr(plus, name) - getattr(minus, name)) / (2 * EPS)
        assert relerr(a.imag / H, fd) < 1e-6, name


def test_simulate_refuses_sympy_by_name():
    q0, dq0 = symbols_like(POINT)[:2]
    with pytest.raises(TypeError, match="'q0'.*sympy objects \\(dtype object\\)"):
        ld.simulate(PENDULUM, q0, POINT[1], dt=0.01, steps=2)
    with pytest.raises(TypeError, match="'dq0'.*dtype object"):
        ld.simulate(PENDULUM, POINT[0], dq0, dt=0.01, steps=2)


# --- what cannot be decided or computed on symbols --------------------------------------------
def test_redundant_and_overdetermined_constraints_refuse_sympy_by_name():
    model, loops, q0 = ld.robots.five_bar()      # m = 3 constraints, nv = 5
    zero = np.zeros(model.nv, dtype=object)
    with pytest.raises(TypeError, match="constrained_inverse.*redundant.*dtype "
                                        "object"):
        ld.constrained_inverse(model, loops, q0, zero, zero,
                               [True, True, True, False, False])
    with pytest.raises(TypeError, match="constrained_hybrid.*m = 3.*dtype object"):
        constrained_hybrid(model, loops, q0, zero, zero, zero,
                           [True, True, True, False, True])


def test_constrained_forward_partials_refuse_a_pfaffian_on_sympy():
    q, dq, tau = symbols_like(POINT)
    with pytest.raises(TypeError, match="Pfaffian.*dtype object"):
        constrained_forward_partials(PENDULUM, [LOCK], q, dq, tau)


def test_a_symbolic_pivot_is_not_tested_a_zero_number_is():
    """A pivot with free symbols cannot be compared with a tolerance: forward
    dynamics go on; an exact zero pivot (a massless leaf, exact) is refused."""
    m = sympy.Symbol("m")
    model = exact_double_pendulum()
    model.add_body("tip", 2, ld.Revolute([0, 0, 1]), inertia=np.diag(
        [0, 0, m, m, m, m]).astype(object))
    q, dq, tau = (np.array(sympy.symbols(f"{n}1:4"), dtype=object)
                  for n in ("q", "dq", "t"))
    ddq = ld.aba(model, q, dq, tau)
    assert ddq[2].has(m)
    model.inertias[3] = np.zeros((6, 6), dtype=object)
    with pytest.raises(ValueError, match="body 'tip': S\\^T I_hat S is singular "
                                         "\\(pivot 0 is 0, exactly\\)"):
        ld.aba(model, np.zeros(3, dtype=object), np.zeros(3, dtype=object),
               np.ones(3, dtype=object))
