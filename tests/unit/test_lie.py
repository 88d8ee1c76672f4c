"""Property tests of ``liedyn.lie``: the se(3)/dse(3) calculus of Kim (2012), Sections 1.1-1.4.

Each test states a law of the book's chapter 1 (``book/01_rigid_body_motion.ipynb``) and checks it
on samples from ``tests/strategies.py``: uniform rotations, exp of Gaussian tangents, near the
identity (1e-7) and near pi (angle in [pi - 1e-6, pi]). Tolerances are set by the method, not by
what passes: laws that hold exactly in real arithmetic allow 1e-15 to 1e-12 relative error (a few
to a few thousand ulps, growing with the number of operations), complex-step derivatives are
exact to round-off, and central finite differences with step ``H`` carry an error of order
``H^2``. Every test also fails on a ``RuntimeWarning``: valid input must not produce one.
"""
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn import lie
from liedyn.dexp import dexp, dexp_inv, dexp_inv_so3, dexp_so3
from liedyn.lie import (
    Ad,
    Ad_inv,
    Ad_star,
    ad,
    ad_star,
    exp_quat,
    exp_se3,
    exp_so3,
    hat,
    inverse,
    log_quat,
    log_se3,
    log_so3,
    make_transform,
    quat_multiply,
    quat_to_rot,
    rot_to_quat,
    skew,
    unskew,
    vee,
)

from strategies import (
    KINDS,
    batches,
    rodrigues,
    rotations,
    se3_tangents,
    seeds,
    so3_tangents,
    transforms,
    vectors,
)

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")   # valid input: no warnings

SETTINGS = settings(deadline=None, max_examples=30, database=None)
FEW = settings(deadline=None, max_examples=12, database=None)
SIDES = st.sampled_from(["left", "right"])
H = 1e-5          # central finite-difference step: truncation error ~ H^2 / 6 |f'''| ~ 1e-10
FD_TOL = 1e-7     # for derivatives of size O(10) along the test trajectories
CS_H = 1e-30      # complex step: f'(x) = Im f(x + i h) / h, no cancellation


def close(a, b, tol):
    """Assert ``max |a - b| <= tol * max(1, max |b|)``: relative for big entries, absolute for
    small."""
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.max(np.abs(b)))) if b.size else 1.0
    err = float(np.max(np.abs(a - b))) if b.size else 0.0
    assert err <= tol * scale, f"max error {err:.3g} > {tol:g} * {scale:.3g}"


def expm(A, terms=30, squarings=8):
    """Matrix exponential by scaling and squaring of the Taylor series (independent of liedyn)."""
    A = np.asarray(A) / 2.0 ** squarings
    E, term = np.eye(A.shape[-1], dtype=A.dtype), np.eye(A.shape[-1], dtype=A.dtype)
    for k in range(1, terms):
        term = term @ A / k
        E = E + term
    for _ in range(squarings):
        E = E @ E
    return E


def central(f, t, h=H):
    """Central finite difference of ``f`` at ``t``."""
    return (f(t + h) - f(t - h)) / (2 * h)


def complex_step(f, t, h=CS_H):
    """Complex-step derivative of ``f`` at the real point ``t``."""
    return np.imag(f(t + 1j * h)) / h


def angle_is_pi(w):
    """Within round-off of pi, where w and -w are the same rotation (log may return either)."""
    return np.pi - np.linalg.norm(w) < 1e-12


# -------------------------------------------------------------------------------------------
# so(3), se(3) and their matrix forms (Kim eq. (5))
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(vectors(3), vectors(3))
def test_skew_is_the_cross_product(w, x):
    np.testing.assert_allclose(skew(w) @ x, np.cross(w, x), rtol=0, atol=1e-14)
    # exact by construction: skew places w's entries and their negatives; unskew reads them
    np.testing.assert_array_equal(skew(w), -skew(w).T)
    np.testing.assert_array_equal(unskew(skew(w)), w)


@SETTINGS
@given(vectors(6))
def test_hat_vee_round_trip(xi):
    X = hat(xi)                           # hat and vee copy entries: exact by construction
    np.testing.assert_array_equal(vee(X), xi)
    np.testing.assert_array_equal(X[:3, :3], skew(xi[:3]))
    np.testing.assert_array_equal(X[:3, 3], xi[3:])
    np.testing.assert_array_equal(X[3], np.zeros(4))


# -------------------------------------------------------------------------------------------
# Exponential and logarithm on SO(3)
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(so3_tangents())
def test_exp_so3_is_the_matrix_exponential(w):
    R = exp_so3(w)
    close(R, expm(skew(w)), 1e-13)
    close(R.T @ R, np.eye(3), 1e-14)
    assert abs(np.linalg.det(R) - 1) < 1e-14


@SETTINGS
@given(so3_tangents())
def test_exp_so3_matches_rodrigues_written_out(w):
    t = np.linalg.norm(w)
    if t > 1e-3:  # the written-out formula itself loses digits at small angles
        close(exp_so3(w), rodrigues(w / t, t), 1e-14)


@SETTINGS
@given(seeds, st.floats(min_value=1e-9, max_value=1e-7))
def test_exp_so3_is_accurate_at_small_angles(seed, angle):
    """At 1e-8 rad every entry (also the O(t^2) ones) is right to a few ulps.

    ``I + W + W^2/2 + W^3/6`` is exact to 1e-32 here; a naive ``(1 - cos t)/t^2`` evaluates to
    0 and makes the off-diagonal entries wrong in their 8th digit.
    """
    a = np.random.default_rng(seed).normal(size=3)
    w = a / np.linalg.norm(a) * angle
    W = skew(w)
    ref = np.eye(3) + W + W @ W / 2 + W @ W @ W / 6
    R = exp_so3(w)
    np.testing.assert_allclose(R, ref, rtol=1e-15, atol=0)
    v = np.random.default_rng(seed + 1).normal(size=3)
    p = exp_se3(np.concatenate([w, v]))[:3, 3]
    np.testing.assert_allclose(p, v + W @ v / 2 + W @ W @ v / 6, rtol=0, atol=1e-15)


@SETTINGS
@given(seeds, st.floats(min_value=-9.0, max_value=-1.0))
def test_log_so3_is_accurate_at_small_angles(seed, exponent):
    """Angles from 1e-9 to 0.1 (both sides of the series switch at 1e-4): relative error 1e-13."""
    a = np.random.default_rng(seed).normal(size=3)
    w = a / np.linalg.norm(a) * 10.0 ** exponent
    close(log_so3(exp_so3(w)), w, 1e-13 * np.linalg.norm(w))
    xi = np.concatenate([w, np.random.default_rng(seed + 1).normal(size=3)])
    close(log_se3(exp_se3(xi)), xi, 1e-13)


@SETTINGS
@given(so3_tangents())
def test_log_exp_so3_round_trip(w):
    w_back = log_so3(exp_so3(w))
    if angle_is_pi(w):
        w_back = w_back if w_back @ w > 0 else -w_back
    close(w_back, w, 1e-12 * max(np.linalg.norm(w), 1e-300))


@SETTINGS
@given(rotations())
def test_exp_log_so3_round_trip(R):
    w = log_so3(R)
    assert np.linalg.norm(w) <= np.pi + 1e-15
    close(exp_so3(w), R, 1e-12)


@SETTINGS
@given(rotations(kinds=("near_pi",)))
def test_log_so3_near_pi(R):
    """The angle comes from atan2 and the axis from the symmetric part: exp(log R) == R."""
    w = log_so3(R)
    assert np.pi - 1e-6 - 1e-12 <= np.linalg.norm(w) <= np.pi + 1e-15
    close(exp_so3(w), R, 1e-9)
    close(exp_so3(w), R, 1e-13)   # in fact to round-off


HALF_TURNS = [np.diag([1.0, -1.0, -1.0]), np.diag([-1.0, 1.0, -1.0]), np.diag([-1.0, -1.0, 1.0]),
              2 * np.outer([0.6, 0.0, 0.8], [0.6, 0.0, 0.8]) - np.eye(3)]


@pytest.mark.parametrize("R", HALF_TURNS, ids=["x", "y", "z", "xz"])
def test_log_of_an_exact_half_turn(R):
    """sin(t) = 0 exactly: the near-pi branch answers, without divide-by-zero warnings."""
    w = log_so3(R)
    assert abs(np.linalg.norm(w) - np.pi) < 1e-15
    close(exp_so3(w), R, 1e-15)
    T = make_transform(R, [1.0, 2.0, 3.0])
    close(exp_se3(log_se3(T)), T, 1e-14)
    close(quat_to_rot(rot_to_quat(R)), R, 1e-15)


@SETTINGS
@given(rotations(), seeds)
def test_log_so3_of_a_slightly_non_orthogonal_matrix(R, seed):
    """A rotation spoiled by 1e-10 (within ``ROTATION_TOL``) still has a finite, accurate log.

    The generic branch divides the skew part by sin(t) >= sin(acos(-0.9)) = 0.44, so it can
    amplify the perturbation by at most t / sin(t) <= 6.2: 1e-9 is the bound for 1e-10 noise.
    """
    N = np.random.default_rng(seed).normal(size=(3, 3))
    Rn = R + 1e-10 * N / np.max(np.abs(N))
    w = log_so3(Rn)
    assert np.all(np.isfinite(w)) and np.linalg.norm(w) <= np.pi + 1e-9
    close(exp_so3(w), R, 1e-9)


# -------------------------------------------------------------------------------------------
# Exponential and logarithm on SE(3)
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(se3_tangents())
def test_exp_se3_is_the_matrix_exponential(xi):
    T = exp_se3(xi)
    close(T, expm(hat(xi)), 1e-13)
    np.testing.assert_array_equal(T[3], [0, 0, 0, 1])        # a constant row, set


@SETTINGS
@given(se3_tangents())
def test_log_exp_se3_round_trip(xi):
    xi_back = log_se3(exp_se3(xi))
    if angle_is_pi(xi[:3]) and xi_back[:3] @ xi[:3] < 0:
        close(exp_se3(xi_back), exp_se3(xi), 1e-12)
    else:
        close(xi_back, xi, 1e-12 * max(np.linalg.norm(xi), 1e-300))


@SETTINGS
@given(transforms())
def test_exp_log_se3_round_trip(T):
    xi = log_se3(T)
    assert np.linalg.norm(xi[:3]) <= np.pi + 1e-15
    close(exp_se3(xi), T, 1e-12)


@SETTINGS
@given(transforms())
def test_inverse_eq4(T):
    Ti = inverse(T)
    close(Ti @ T, np.eye(4), 1e-14)
    close(T @ Ti, np.eye(4), 1e-14)
    close(Ti, np.linalg.inv(T), 1e-13)


@SETTINGS
@given(transforms(), se3_tangents())
def test_exp_is_equivariant(T, xi):
    """``T exp(xi) = exp(Ad_T xi) T``: conjugation commutes with the exponential."""
    close(T @ exp_se3(xi), exp_se3(Ad(T) @ xi) @ T, 1e-12)


# -------------------------------------------------------------------------------------------
# Adjoint and coadjoint (Kim eqs. (6)-(8))
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(transforms(), vectors(6))
def test_Ad_is_conjugation_eq6(T, xi):
    close(T @ hat(xi) @ inverse(T), hat(Ad(T) @ xi), 1e-13)


@SETTINGS
@given(transforms(), transforms())
def test_Ad_is_a_group_homomorphism(T1, T2):
    close(Ad(T1 @ T2), Ad(T1) @ Ad(T2), 1e-13)
    np.testing.assert_array_equal(Ad(np.eye(4)), np.eye(6))  # exact: products of 0 and 1


@SETTINGS
@given(transforms())
def test_Ad_inv_is_the_inverse_of_Ad(T):
    close(Ad_inv(T), np.linalg.inv(Ad(T)), 1e-12)
    close(Ad_inv(T), Ad(inverse(T)), 1e-14)
    close(Ad_inv(T) @ Ad(T), np.eye(6), 1e-13)


@SETTINGS
@given(transforms(), vectors(6), vectors(6))
def test_Ad_star_is_the_dual_of_Ad_eq8(T, F, V):
    """``<Ad*_T F, V> = <F, Ad_T V>``: Ad* is the transpose, so power is frame independent."""
    close((Ad_star(T) @ F) @ V, F @ (Ad(T) @ V), 1e-13)
    np.testing.assert_array_equal(Ad_star(T), Ad(T).T)       # Ad_star transposes Ad's array


@SETTINGS
@given(transforms(), transforms())
def test_Ad_star_reverses_products(T1, T2):
    close(Ad_star(T1 @ T2), Ad_star(T2) @ Ad_star(T1), 1e-13)


# -------------------------------------------------------------------------------------------
# The small adjoint ad and ad* (Kim eqs. (27), (29))
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(vectors(6), vectors(6))
def test_ad_is_antisymmetric(X, Y):
    close(ad(X) @ Y, -(ad(Y) @ X), 1e-14)
    close(ad(X) @ X, np.zeros(6), 1e-14)


@SETTINGS
@given(vectors(6), vectors(6), vectors(6))
def test_ad_satisfies_the_jacobi_identity(X, Y, Z):
    jacobi = ad(X) @ ad(Y) @ Z + ad(Y) @ ad(Z) @ X + ad(Z) @ ad(X) @ Y
    close(jacobi, np.zeros(6), 1e-13 * (1 + np.max(np.abs(ad(X) @ ad(Y) @ Z))))


@SETTINGS
@given(vectors(6), vectors(6))
def test_ad_is_the_matrix_commutator(X, Y):
    close(hat(ad(X) @ Y), hat(X) @ hat(Y) - hat(Y) @ hat(X), 1e-14)


@SETTINGS
@given(transforms(), vectors(6))
def test_ad_is_Ad_equivariant(T, X):
    close(Ad(T) @ ad(X) @ Ad_inv(T), ad(Ad(T) @ X), 1e-12)


@SETTINGS
@given(vectors(6))
def test_ad_is_the_derivative_of_Ad(X):
    """``d/dt Ad(exp(t X)) at t = 0`` equals ``ad_X`` (complex step through exp_se3 and Ad)."""
    close(complex_step(lambda t: Ad(exp_se3(t * X)), 0.0), ad(X), 1e-14)


@SETTINGS
@given(vectors(6), vectors(6), vectors(6))
def test_ad_star_is_the_dual_of_ad(V, F, X):
    np.testing.assert_array_equal(ad_star(V), ad(V).T)       # ad_star transposes ad's array
    close((ad_star(V) @ F) @ X, F @ (ad(V) @ X), 1e-13)


# -------------------------------------------------------------------------------------------
# Twists and wrenches along a trajectory (Kim eqs. (9)-(13))
# -------------------------------------------------------------------------------------------
def trajectory(T0, xi1, xi2):
    """``T(t) = T0 exp(t xi1) exp(sin(t) xi2)`` and its body twist (known in closed form).

    ``T^-1 dT/dt = Ad_{exp(sin t xi2)^-1} xi1 + cos(t) xi2``.
    """
    def T(t):
        return T0 @ exp_se3(t * xi1) @ exp_se3(np.sin(t) * xi2)

    def V(t):
        return Ad_inv(exp_se3(np.sin(t) * xi2)) @ xi1 + np.cos(t) * xi2

    return T, V


trajectories = st.builds(trajectory, transforms(kinds=("uniform", "gaussian")), vectors(6),
                         vectors(6))
times = st.floats(min_value=-2.0, max_value=2.0)


@SETTINGS
@given(trajectories, times)
def test_body_twist_eq9(traj, t):
    """``V = T^-1 dT/dt = (R^T dR/dt, R^T dp/dt)`` is in se(3) and agrees with the closed form."""
    T, V = traj
    dT_cs = complex_step(T, t)
    body = inverse(T(t)) @ dT_cs
    np.testing.assert_allclose(body[3], 0, atol=1e-13)
    close(body[:3, :3], -body[:3, :3].T, 1e-13)
    close(vee(body), V(t), 1e-12)
    R, dR, dp = T(t)[:3, :3], dT_cs[:3, :3], dT_cs[:3, 3]
    close(np.concatenate([unskew(R.T @ dR), R.T @ dp]), V(t), 1e-12)
    close(vee(inverse(T(t)) @ central(T, t)), V(t), FD_TOL)


@SETTINGS
@given(trajectories, transforms(kinds=("uniform", "gaussian")), times)
def test_twists_of_two_frames_on_one_body_eq11(traj, T_ab, t):
    """{B} is fixed on the body at T_ab from {A}; ``V_b = Ad_{T_ba} V_a`` with T_ba = T_ab^-1."""
    T_a, V_a = traj
    V_b = vee(inverse(T_a(t) @ T_ab) @ complex_step(lambda s: T_a(s) @ T_ab, t))
    close(V_b, Ad(inverse(T_ab)) @ V_a(t), 1e-12)
    close(V_b, Ad_inv(T_ab) @ V_a(t), 1e-12)


@SETTINGS
@given(transforms(kinds=("uniform", "gaussian")), vectors(3), vectors(3), vectors(6))
def test_wrench_of_a_point_force_eq13(T_ab, r_a, f_a, V_b):
    """A force f through the point r is the wrench (r x f, f) about the frame's origin.

    Expressing r and f in {B} and forming the wrench again gives ``Ad*_{T_ab} F_a`` (eq. (13)),
    and the power ``<F, V>`` is the same in both frames.
    """
    F_a = np.concatenate([np.cross(r_a, f_a), f_a])
    R, p = T_ab[:3, :3], T_ab[:3, 3]
    r_b, f_b = R.T @ (r_a - p), R.T @ f_a
    F_b = np.concatenate([np.cross(r_b, f_b), f_b])
    close(Ad_star(T_ab) @ F_a, F_b, 1e-13)
    V_a = Ad(T_ab) @ V_b
    close(F_a @ V_a, F_b @ V_b, 1e-13)


def test_inertia_and_momentum_rules_of_section_1_3():
    """Kim eqs. (15), (20)-(22), (24) for a body made of point masses (errata appendix, ch. 1).

    The kinetic energy sum_k m_k |p_k'|^2 / 2 equals V^T I V / 2 with I from eq. (20);
    eq. (21) moves I between frames, eq. (22) builds it from the centre of mass, eq. (24)
    moves the momentum L = I V like a wrench.
    """
    rng = np.random.default_rng(7)
    masses, points_a = rng.uniform(0.5, 2.0, size=8), rng.normal(size=(8, 3))

    def inertia(points):                      # eq. (20) as a sum over particles
        I6 = np.zeros((6, 6))
        for m, r in zip(masses, points, strict=True):
            S = skew(r)
            I6 += m * np.block([[S.T @ S, S], [S.T, np.eye(3)]])
        return I6

    T_a, T_ab = exp_se3(rng.normal(size=6)), exp_se3(rng.normal(size=6))
    V_a = rng.normal(size=6)
    dT_a = T_a @ hat(V_a)                      # eq. (9)
    energy = sum(m / 2 * np.sum((dT_a @ np.append(r, 1.0))[:3] ** 2)
                 for m, r in zip(masses, points_a, strict=True))
    I_a = inertia(points_a)
    close(V_a @ I_a @ V_a / 2, energy, 1e-13)                                   # eq. (15)
    points_b = (inverse(T_ab) @ np.c_[points_a, np.ones(8)].T).T[:, :3]
    I_b = inertia(points_b)
    close(Ad_star(T_ab) @ I_a @ Ad(T_ab), I_b, 1e-12)                           # eq. (21)
    V_b = Ad_inv(T_ab) @ V_a                                                    # eq. (11)
    close(I_b @ V_b, Ad_star(T_ab) @ (I_a @ V_a), 1e-12)                        # eq. (24)
    # eq. (22): {C} at the centre of mass, rotated by R_bc; (R, p) = T_bc
    R_bc = exp_so3(rng.normal(size=3))
    c_b = masses @ points_b / masses.sum()
    T_bc = make_transform(R_bc, c_b)
    points_c = (inverse(T_bc) @ np.c_[points_b, np.ones(8)].T).T[:, :3]
    I_c = inertia(points_c)[:3, :3]
    close(inertia(points_c)[:3, 3:], np.zeros((3, 3)), 1e-13)    # block diagonal at the c.o.m.
    m, P = masses.sum(), skew(c_b)
    I22 = np.block([[R_bc @ I_c @ R_bc.T + m * P.T @ P, m * P], [m * P.T, m * np.eye(3)]])
    close(I22, I_b, 1e-12)


# -------------------------------------------------------------------------------------------
# Time derivatives in a moving frame: eq. (25), Lemma 1 (26)-(27), Lemma 2 (28)-(29)
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(trajectories, vectors(9), times)
def test_derivative_of_a_vector_in_a_moving_frame_eq25(traj, c, t):
    T, V = traj
    x = lambda s: c[:3] + s * c[3:6] + s ** 2 * c[6:]          # components in the moving frame
    dx = c[3:6] + 2 * t * c[6:]
    R = lambda s: T(s)[:3, :3]
    lhs = R(t).T @ central(lambda s: R(s) @ x(s), t)
    close(lhs, dx + np.cross(V(t)[:3], x(t)), FD_TOL)


def _lemma1_lhs(T, X, t, derivative):
    """``Ad_{T^-1} d'/dt (Ad_T X)``: X moved to the inertial frame, differentiated, moved back."""
    return Ad_inv(T(t)) @ derivative(lambda s: Ad(T(s)) @ X(s), t)


def _lemma2_lhs(T, Y, t, derivative):
    """``Ad*_T d'/dt (Ad*_{T^-1} Y)`` for a wrench-like Y."""
    return Ad_star(T(t)) @ derivative(lambda s: Ad_star(inverse(T(s))) @ Y(s), t)


@SETTINGS
@given(trajectories, vectors(18), times)
def test_lemma_1_eq26(traj, c, t):
    T, V = traj
    X = lambda s: c[:6] + s * c[6:12] + s ** 2 * c[12:]
    dX = c[6:12] + 2 * t * c[12:]
    rhs = dX + ad(V(t)) @ X(t)
    close(_lemma1_lhs(T, X, t, central), rhs, FD_TOL)
    close(_lemma1_lhs(T, X, t, complex_step), rhs, 1e-12)


@SETTINGS
@given(trajectories, vectors(18), times)
def test_lemma_2_eq28(traj, c, t):
    T, V = traj
    Y = lambda s: c[:6] + s * c[6:12] + s ** 2 * c[12:]
    dY = c[6:12] + 2 * t * c[12:]
    rhs = dY - ad_star(V(t)) @ Y(t)
    close(_lemma2_lhs(T, Y, t, central), rhs, FD_TOL)
    close(_lemma2_lhs(T, Y, t, complex_step), rhs, 1e-12)


@SETTINGS
@given(trajectories, times)
def test_matrix_identities_in_the_proofs_of_the_lemmas(traj, t):
    """``Ad_{T^-1} d'/dt Ad_T = ad_V`` and ``Ad*_T d'/dt Ad*_{T^-1} = -ad*_V``."""
    T, V = traj
    close(Ad_inv(T(t)) @ complex_step(lambda s: Ad(T(s)), t), ad(V(t)), 1e-12)
    close(Ad_star(T(t)) @ complex_step(lambda s: Ad_star(inverse(T(s))), t),
          -ad_star(V(t)), 1e-12)


# -------------------------------------------------------------------------------------------
# dexp and its inverse (left and right Jacobians)
# -------------------------------------------------------------------------------------------
def _so3_velocity(w, dw, side, derivative):
    """Body (right) or spatial (left) angular velocity of ``R(s) = exp(w + s dw)`` at s = 0."""
    dR = derivative(lambda s: exp_so3(w + s * dw), 0.0)
    R = exp_so3(w)
    return unskew(R.T @ dR) if side == "right" else unskew(dR @ R.T)


def _se3_velocity(xi, dxi, side, derivative):
    dT = derivative(lambda s: exp_se3(xi + s * dxi), 0.0)
    Ti = inverse(exp_se3(xi))
    return vee(Ti @ dT) if side == "right" else vee(dT @ Ti)


@SETTINGS
@given(so3_tangents(), vectors(3), SIDES)
def test_dexp_so3_is_the_derivative_of_exp(w, dw, side):
    J = dexp_so3(w, side=side)
    close(_so3_velocity(w, dw, side, central), J @ dw, FD_TOL)
    close(_so3_velocity(w, dw, side, complex_step), J @ dw, 1e-13)


@SETTINGS
@given(se3_tangents(), vectors(6), SIDES)
def test_dexp_se3_is_the_derivative_of_exp(xi, dxi, side):
    J = dexp(xi, side=side)
    close(_se3_velocity(xi, dxi, side, central), J @ dxi, FD_TOL)
    close(_se3_velocity(xi, dxi, side, complex_step), J @ dxi, 1e-13)


def _series(A, terms=80):
    """``sum_k A^k / (k+1)!`` with float factorials."""
    S, term = np.zeros_like(A), np.eye(A.shape[-1])
    for k in range(terms):
        S = S + term / float(math.factorial(k + 1))
        term = term @ A
    return S


@SETTINGS
@given(se3_tangents(), SIDES)
def test_dexp_is_the_series_of_ad(xi, side):
    """Left: ``sum ad^k/(k+1)!``; right: ``sum (-ad)^k/(k+1)! = I - ad/2 + ad^2/6 - ...``.

    The right Jacobian is the matrix S(phi) of From (2012), eq. (29), in (w, v) order.
    """
    s = 1.0 if side == "left" else -1.0
    close(dexp(xi, side=side), _series(s * ad(xi)), 1e-13)
    close(dexp_so3(xi[:3], side=side), _series(s * skew(xi[:3])), 1e-14)


@SETTINGS
@given(se3_tangents(), SIDES)
def test_dexp_inv_is_the_inverse(xi, side):
    close(dexp(xi, side=side) @ dexp_inv(xi, side=side), np.eye(6), 1e-12)
    close(dexp_so3(xi[:3], side=side) @ dexp_inv_so3(xi[:3], side=side), np.eye(3), 1e-13)


@SETTINGS
@given(se3_tangents())
def test_left_and_right_jacobians(xi):
    """``J_r(xi) = J_l(-xi)`` and ``J_l(xi) = Ad_{exp(xi)} J_r(xi)``."""
    close(dexp(xi, side="right"), dexp(-xi, side="left"), 1e-14)
    close(dexp(xi, side="left"), Ad(exp_se3(xi)) @ dexp(xi, side="right"), 1e-13)
    close(dexp_so3(xi[:3], side="left"), exp_so3(xi[:3]) @ dexp_so3(xi[:3], side="right"), 1e-14)


# -------------------------------------------------------------------------------------------
# Complex step, batching, symbolic input
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(so3_tangents(), vectors(3))
def test_complex_step_of_exp_so3_equals_finite_differences(w, dw):
    f = lambda s: exp_so3(w + s * dw)
    close(complex_step(f, 0.0), central(f, 0.0), FD_TOL)


@SETTINGS
@given(se3_tangents(), vectors(6))
def test_complex_step_of_exp_se3_equals_finite_differences(xi, dxi):
    f = lambda s: exp_se3(xi + s * dxi)
    close(complex_step(f, 0.0), central(f, 0.0), FD_TOL)


BATCHED = [
    ("skew", skew, 3), ("unskew", lambda w: unskew(skew(w)), 3), ("hat", hat, 6),
    ("vee", lambda xi: vee(hat(xi)), 6), ("exp_so3", exp_so3, 3),
    ("log_so3", lambda w: log_so3(exp_so3(w)), 3), ("exp_se3", exp_se3, 6),
    ("log_se3", lambda xi: log_se3(exp_se3(xi)), 6),
    ("inverse", lambda xi: inverse(exp_se3(xi)), 6), ("Ad", lambda xi: Ad(exp_se3(xi)), 6),
    ("Ad_inv", lambda xi: Ad_inv(exp_se3(xi)), 6), ("ad", ad, 6),
    ("Ad_star", lambda xi: Ad_star(exp_se3(xi)), 6), ("ad_star", ad_star, 6),
    ("dexp_so3-left", lambda w: dexp_so3(w, side="left"), 3), ("dexp_so3-right", dexp_so3, 3),
    ("dexp_inv_so3-left", lambda w: dexp_inv_so3(w, side="left"), 3),
    ("dexp_inv_so3-right", dexp_inv_so3, 3),
    ("dexp-left", lambda xi: dexp(xi, side="left"), 6), ("dexp-right", dexp, 6),
    ("dexp_inv-left", lambda xi: dexp_inv(xi, side="left"), 6), ("dexp_inv-right", dexp_inv, 6),
    ("exp_quat", exp_quat, 3), ("log_quat", lambda w: log_quat(exp_quat(w)), 3),
    ("quat_to_rot", lambda w: quat_to_rot(exp_quat(w)), 3),
    ("rot_to_quat", lambda w: rot_to_quat(exp_so3(w)), 3),
    ("quat_multiply", lambda w: quat_multiply(exp_quat(w), exp_quat(2 * w)), 3),
    ("make_transform", lambda w: make_transform(exp_so3(w), 3 * w), 3),
]


@pytest.mark.parametrize("name, f, n", BATCHED, ids=[b[0] for b in BATCHED])
@FEW
@given(data=st.data())
def test_batched_call_equals_a_loop(name, f, n, data):
    """Leading batch dimensions (n,) and (n, m) give the same numbers as a Python loop."""
    X = data.draw(batches(se3_tangents() if n == 6 else so3_tangents()))
    out = f(X)
    loop = np.stack([f(x) for x in X.reshape((-1, n))])
    assert out.shape == X.shape[:-1] + loop.shape[1:]
    np.testing.assert_allclose(out, loop.reshape(out.shape), rtol=1e-14, atol=1e-15)


_th = sp.symbols("theta1:4", real=True)
_p = sp.symbols("p1:4", real=True)
_w = sp.symbols("w1:4", real=True)
_v = sp.symbols("v1:4", real=True)


def _rot(axis, angle):
    c, s = sp.cos(angle), sp.sin(angle)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    R = np.array([[sp.Integer(int(x)) for x in row] for row in np.eye(3)], dtype=object)
    R[i, i], R[i, j], R[j, i], R[j, j] = c, -s, s, c
    return R


@pytest.fixture(scope="module")
def symbolic():
    """Object arrays of sympy expressions through the branch-free operators, lambdified."""
    R = _rot(2, _th[0]) @ _rot(1, _th[1]) @ _rot(0, _th[2])
    T = np.zeros((4, 4), dtype=object)
    T[:3, :3], T[:3, 3], T[3, 3] = R, np.array(_p, dtype=object), 1
    V = np.array(_w + _v, dtype=object)
    out = {"skew": skew(V[:3]), "hat": hat(V), "Ad": Ad(T), "Ad_inv": Ad_inv(T),
           "Ad_star": Ad_star(T), "ad": ad(V), "ad_star": ad_star(V), "inverse": inverse(T),
           "make_transform": make_transform(R, np.array(_p, dtype=object))}
    for M in out.values():
        assert M.dtype == object
    args = _th + _p + _w + _v
    return T, {k: sp.lambdify(args, sp.Matrix(M), "numpy") for k, M in out.items()}


@FEW
@given(vectors(12))
def test_symbolic_input_matches_numeric(symbolic, x):
    T_sym, f = symbolic
    th, p, w, v = x[:3], x[3:6], x[6:9], x[9:]
    Rz = exp_so3([0, 0, th[0]])
    Ry = exp_so3([0, th[1], 0])
    Rx = exp_so3([th[2], 0, 0])
    T = make_transform(Rz @ Ry @ Rx, p)
    V = np.concatenate([w, v])
    numeric = {"skew": skew(w), "hat": hat(V), "Ad": Ad(T), "Ad_inv": Ad_inv(T),
               "Ad_star": Ad_star(T), "ad": ad(V), "ad_star": ad_star(V), "inverse": inverse(T),
               "make_transform": T}
    for name, value in numeric.items():
        close(np.asarray(f[name](*x), dtype=float), value, 1e-13)


def test_symbolic_Ad_is_exact():
    """With a symbolic rotation about z, Ad_T Ad_{T^-1} simplifies to the identity exactly."""
    R = _rot(2, _th[0])
    T = np.zeros((4, 4), dtype=object)
    T[:3, :3], T[:3, 3], T[3, 3] = R, np.array(_p, dtype=object), 1
    product = sp.Matrix(Ad(T) @ Ad_inv(T)).applyfunc(sp.trigsimp)
    assert product == sp.eye(6)
    X, Y = np.array(_w + _v, dtype=object), np.array(_v + _w, dtype=object)
    bracket = hat(X) @ hat(Y) - hat(Y) @ hat(X)
    assert (sp.Matrix(hat(ad(X) @ Y)) - sp.Matrix(bracket)).expand() == sp.zeros(4)


# -------------------------------------------------------------------------------------------
# Quaternions (used by spherical and free joints)
# -------------------------------------------------------------------------------------------
@SETTINGS
@given(so3_tangents(), so3_tangents())
def test_quaternions_represent_rotations(w1, w2):
    q1, q2 = exp_quat(w1), exp_quat(w2)
    close(quat_to_rot(q1), exp_so3(w1), 1e-14)
    close(quat_to_rot(quat_multiply(q1, q2)), exp_so3(w1) @ exp_so3(w2), 1e-14)
    close(quat_multiply(q1, lie.quat_conjugate(q1)), [1, 0, 0, 0], 1e-14)
    q_back = rot_to_quat(quat_to_rot(q1))
    close(q_back if q_back @ q1 > 0 else -q_back, q1, 1e-12)
    w_back = log_quat(q1)
    if angle_is_pi(w1) and w_back @ w1 < 0:
        w_back = -w_back
    close(w_back, w1, 1e-12 * max(np.linalg.norm(w1), 1e-300))


# -------------------------------------------------------------------------------------------
# Bad input: clear errors that name the argument
# -------------------------------------------------------------------------------------------
SHAPES = [
    (skew, "w", "(..., 3)", np.zeros(4)), (unskew, "W", "(..., 3, 3)", np.zeros((3, 4))),
    (hat, "xi", "(..., 6)", np.zeros(3)), (vee, "X", "(..., 4, 4)", np.zeros((3, 3))),
    (exp_so3, "w", "(..., 3)", np.zeros((2, 6))), (log_so3, "R", "(..., 3, 3)", np.eye(4)),
    (exp_se3, "xi", "(..., 6)", np.zeros(3)), (log_se3, "T", "(..., 4, 4)", np.eye(3)),
    (inverse, "T", "(..., 4, 4)", np.eye(3)), (Ad, "T", "(..., 4, 4)", np.eye(6)),
    (Ad_inv, "T", "(..., 4, 4)", np.eye(3)), (ad, "V", "(..., 6)", np.zeros(3)),
    (Ad_star, "T", "(..., 4, 4)", np.zeros(16)), (ad_star, "V", "(..., 6)", np.zeros((6, 3))),
    (dexp_so3, "w", "(..., 3)", np.zeros(6)), (dexp_inv_so3, "w", "(..., 3)", np.zeros(6)),
    (dexp, "xi", "(..., 6)", np.zeros(3)), (dexp_inv, "xi", "(..., 6)", np.zeros(3)),
    (exp_quat, "w", "(..., 3)", np.zeros(4)), (quat_to_rot, "q", "(..., 4)", np.zeros(3)),
]


@pytest.mark.parametrize("f, name, want, x", SHAPES, ids=[s[0].__name__ for s in SHAPES])
def test_wrong_shape_names_argument_and_shapes(f, name, want, x):
    with pytest.raises(ValueError) as err:
        f(x)
    message = str(err.value)
    assert f"argument '{name}'" in message
    assert f"expected shape {want}" in message
    assert f"got {x.shape}" in message


def test_make_transform_checks_both_arguments():
    with pytest.raises(ValueError, match=r"argument 'p': expected shape \(\.\.\., 3\), got \(4,\)"):
        make_transform(np.eye(3), np.zeros(4))
    with pytest.raises(ValueError, match="argument 'R'.*not a rotation"):
        make_transform(2 * np.eye(3), np.zeros(3))


NOT_ROTATIONS = {
    "reflection": np.diag([1.0, 1.0, -1.0]),
    "scaled": 1.001 * np.eye(3),
    "sheared": np.array([[1.0, 1e-4, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    "zero": np.zeros((3, 3)),
}


@pytest.mark.parametrize("M", NOT_ROTATIONS.values(), ids=NOT_ROTATIONS.keys())
@pytest.mark.parametrize("f", [log_so3, lambda M: Ad(make_T(M)), lambda M: Ad_inv(make_T(M)),
                               lambda M: Ad_star(make_T(M)), lambda M: log_se3(make_T(M)),
                               lambda M: inverse(make_T(M)), rot_to_quat],
                         ids=["log_so3", "Ad", "Ad_inv", "Ad_star", "log_se3", "inverse",
                              "rot_to_quat"])
def test_non_rotation_is_rejected(f, M):
    with pytest.raises(ValueError, match="not a rotation matrix"):
        f(M)


def make_T(M):
    T = np.eye(4)
    T[:3, :3] = M
    return T


def test_rotation_tolerance_accepts_round_off():
    R = exp_so3([0.3, -0.2, 0.1]) + 1e-9
    assert np.all(np.isfinite(log_so3(R)))


def test_bad_last_row_of_a_transform():
    T = np.eye(4)
    T[3, 0] = 1.0
    with pytest.raises(ValueError, match=r"argument 'T': last row .* \(0, 0, 0, 1\)"):
        Ad(T)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("f, name, n", [
    (skew, "w", 3), (hat, "xi", 6), (exp_so3, "w", 3), (exp_se3, "xi", 6), (ad, "V", 6),
    (ad_star, "V", 6), (dexp_so3, "w", 3), (dexp, "xi", 6), (dexp_inv, "xi", 6),
    (lambda x: log_so3(x.reshape(3, 3)), "R", 9), (lambda x: Ad(x.reshape(4, 4)), "T", 16),
    (lambda x: log_se3(x.reshape(4, 4)), "T", 16),
], ids=["skew", "hat", "exp_so3", "exp_se3", "ad", "ad_star", "dexp_so3", "dexp", "dexp_inv",
        "log_so3", "Ad", "log_se3"])
def test_nan_and_inf_are_rejected(f, name, n, bad):
    x = np.eye(int(round(np.sqrt(n)))).ravel() if n in (9, 16) else np.ones(n)
    x[1] = bad
    with pytest.raises(ValueError, match=f"argument '{name}': contains NaN or inf"):
        f(x)


@pytest.mark.parametrize("f, n", [(dexp_so3, 3), (dexp_inv_so3, 3), (dexp, 6), (dexp_inv, 6)],
                         ids=["dexp_so3", "dexp_inv_so3", "dexp", "dexp_inv"])
@pytest.mark.parametrize("side", ["body", "Left", "", None])
def test_bad_side_is_rejected(f, n, side):
    with pytest.raises(ValueError, match=r"argument 'side': expected one of \['left', 'right'\]"):
        f(np.zeros(n), side=side)


def test_non_numeric_and_complex_input():
    with pytest.raises(TypeError, match="argument 'w'"):
        skew(["a", "b", "c"])
    with pytest.raises(TypeError, match="argument 'R': log_so3 needs a real float array"):
        log_so3(np.eye(3, dtype=complex))


@pytest.mark.parametrize("kind", KINDS)
def test_strategies_cover_their_families(kind):
    """The test data are what they claim: rotations, with angles in the stated ranges."""
    rng = np.random.default_rng(0)
    from strategies import rotation, tangent_so3
    for _ in range(20):
        R = rotation(rng, kind)
        close(R.T @ R, np.eye(3), 1e-14)
        t = np.linalg.norm(tangent_so3(rng, kind))
        assert {"uniform": 0 <= t <= np.pi, "gaussian": 0 <= t < np.pi,
                "near_identity": t < 1e-6, "near_pi": np.pi - 1e-6 <= t <= np.pi}[kind]
