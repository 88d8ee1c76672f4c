"""Tests of liedyn.inertia: Kim (2012), eqs. (14)-(24).

Expected values come from formulas written out here (point clouds, hand-computed solids,
Pinocchio's inertia), never from the function under test.
"""
import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from liedyn import inertia as li
from liedyn import joints as J
from liedyn.lie import Ad, Ad_inv, Ad_star, inverse
from liedyn.model import Model

from strategies import _skew, rotation, seeds, transforms

SETTINGS = settings(max_examples=40, deadline=None)


def random_body(rng):
    """(mass, com, I_com, R) of a random cloud of point masses: physical by construction."""
    masses = rng.uniform(0.1, 1.0, size=8)
    points = rng.normal(size=(8, 3))
    m = masses.sum()
    c = masses @ points / m
    r = points - c
    Ic = sum(mk * (np.dot(rk, rk) * np.eye(3) - np.outer(rk, rk))
             for mk, rk in zip(masses, r, strict=True))
    return m, c, Ic, masses, points


def cloud_inertia(masses, points):
    """Eq. (20) as a sum over point masses: [[sum m [r]^T[r], sum m [r]], [., m 1]].

    With [r]^T [r] = |r|^2 1 - r r^T and [r] written out entry by entry.
    """
    masses, r = np.asarray(masses), np.asarray(points)
    outer = np.einsum("k,ki,kj->ij", masses, r, r)
    J = np.trace(outer) * np.eye(3) - outer
    mc = masses @ r
    return np.block([[J, _skew(mc)], [_skew(mc).T, masses.sum() * np.eye(3)]])


# ---------------------------------------------------------------------------------------------
# eqs. (20)-(22)
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_spatial_inertia_equals_point_cloud_eq20(seed):
    m, c, Ic, masses, points = random_body(np.random.default_rng(seed))
    np.testing.assert_allclose(li.spatial_inertia(m, c, Ic), cloud_inertia(masses, points),
                               atol=1e-10)


@SETTINGS
@given(seeds, seeds)
def test_eq21_equals_eq22(seed, seed_R):
    rng = np.random.default_rng(seed)
    m, c, Ic, _, _ = random_body(rng)
    R = rotation(np.random.default_rng(seed_R), "uniform")
    T_body_com = np.eye(4)
    T_body_com[:3, :3], T_body_com[:3, 3] = R, c
    I_com = np.block([[Ic, np.zeros((3, 3))], [np.zeros((3, 3)), m * np.eye(3)]])
    via_21 = li.transform_inertia(I_com, inverse(T_body_com))   # {a} = COM frame, {b} = body
    np.testing.assert_allclose(li.spatial_inertia(m, c, Ic, R=R), via_21, atol=1e-10)


def test_box_point_cloud_eq14_to_20():
    # a 0.2 x 0.4 x 0.6 box of mass 3, sampled on a midpoint grid, offset from the body frame
    a, n, m = np.array([0.2, 0.4, 0.6]), 40, 3.0
    axes = [(np.arange(n) + 0.5) / n * ak - ak / 2 for ak in a]
    pts = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 3) + [0.1, -0.3, 0.5]
    I = cloud_inertia(np.full(len(pts), m / len(pts)), pts)
    np.testing.assert_allclose(I, li.spatial_inertia(m, [0.1, -0.3, 0.5], li.box_inertia(m, a)),
                               atol=m * np.max(a) ** 2 / n ** 2)


def test_solids_hand_computed():
    np.testing.assert_allclose(li.box_inertia(12.0, [1.0, 2.0, 3.0]), np.diag([13.0, 10.0, 5.0]))
    np.testing.assert_allclose(li.cylinder_inertia(4.0, 0.5, 2.0),
                               np.diag([4 * (0.75 + 4) / 12, 4 * (0.75 + 4) / 12, 0.5]))
    np.testing.assert_allclose(li.sphere_inertia(2.5, 2.0), 4.0 * np.eye(3))
    np.testing.assert_allclose(li.rod_inertia(3.0, 2.0), np.diag([1.0, 1.0, 0.0]))


def test_solids_batched_and_physical():
    J = li.box_inertia(np.ones(4), np.ones((4, 3)))
    assert J.shape == (4, 3, 3)
    assert li.cylinder_inertia(np.ones((2, 3)), 1.0, 2.0).shape == (2, 3, 3, 3)
    for Jc in (li.rod_inertia(1.0, 1.0), li.sphere_inertia(1.0, 1.0), J[0]):
        li.check_inertia(li.spatial_inertia(1.0, np.zeros(3), Jc))


# ---------------------------------------------------------------------------------------------
# eqs. (15), (21), (23), (24) under change of body frame
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds, transforms(kinds=("uniform", "gaussian", "near_identity")))
def test_kinetic_energy_invariant_under_change_of_frame(seed, T_ab):
    rng = np.random.default_rng(seed)
    m, c, Ic, _, _ = random_body(rng)
    I_a, V_a = li.spatial_inertia(m, c, Ic), rng.normal(size=6)
    I_b = li.transform_inertia(I_a, T_ab)
    V_b = Ad_inv(T_ab) @ V_a                     # eq. (11): V_b = Ad_{T_ba} V_a
    np.testing.assert_allclose(li.kinetic_energy(I_b, V_b), li.kinetic_energy(I_a, V_a),
                               rtol=1e-10)
    assert np.isclose(li.kinetic_energy(I_a, V_a), 0.5 * V_a @ I_a @ V_a, rtol=1e-12)


@SETTINGS
@given(seeds, transforms(kinds=("uniform", "gaussian")))
def test_momentum_transforms_like_a_wrench_eq24(seed, T_ab):
    rng = np.random.default_rng(seed)
    m, c, Ic, _, _ = random_body(rng)
    I_a, V_a = li.spatial_inertia(m, c, Ic), rng.normal(size=6)
    L_b = li.momentum(li.transform_inertia(I_a, T_ab), Ad_inv(T_ab) @ V_a)
    np.testing.assert_allclose(L_b, Ad_star(T_ab) @ li.momentum(I_a, V_a), atol=1e-10)


@SETTINGS
@given(seeds, transforms(kinds=("uniform",)))
def test_transformed_inertia_is_physical_with_moved_com(seed, T_ab):
    m, c, Ic, _, _ = random_body(np.random.default_rng(seed))
    I_b = li.check_inertia(li.transform_inertia(li.spatial_inertia(m, c, Ic), T_ab))
    c_b = inverse(T_ab) @ np.append(c, 1.0)      # the COM seen from {b}
    np.testing.assert_allclose(li.to_parameters(I_b)[1:4] / m, c_b[:3], atol=1e-10)


def test_transform_inertia_composes():
    rng = np.random.default_rng(0)
    m, c, Ic, _, _ = random_body(rng)
    I = li.spatial_inertia(m, c, Ic)
    A, B = (rotation(rng, "uniform") for _ in range(2))
    T1, T2 = np.eye(4), np.eye(4)
    T1[:3, :3], T1[:3, 3] = A, rng.normal(size=3)
    T2[:3, :3], T2[:3, 3] = B, rng.normal(size=3)
    np.testing.assert_allclose(li.transform_inertia(li.transform_inertia(I, T1), T2),
                               li.transform_inertia(I, T1 @ T2), atol=1e-10)
    np.testing.assert_allclose(li.transform_inertia(I, T1), Ad(T1).T @ I @ Ad(T1), atol=1e-12)


# ---------------------------------------------------------------------------------------------
# Inertial parameters, batching, dtypes
# ---------------------------------------------------------------------------------------------
def test_parameters_match_pinocchio():
    pin = pytest.importorskip("pinocchio")
    rng = np.random.default_rng(1)
    m, c, Ic, _, _ = random_body(rng)
    expected = pin.Inertia(m, c, Ic).toDynamicParameters()
    np.testing.assert_allclose(li.to_parameters(li.spatial_inertia(m, c, Ic)), expected,
                               atol=1e-12)


@SETTINGS
@given(seeds)
def test_parameters_roundtrip_and_linear(seed):
    rng = np.random.default_rng(seed)
    I1 = li.spatial_inertia(*random_body(rng)[:3])
    I2 = li.spatial_inertia(*random_body(rng)[:3])
    np.testing.assert_allclose(li.from_parameters(li.to_parameters(I1)), I1, atol=1e-12)
    a, b = rng.normal(size=2)
    np.testing.assert_allclose(li.to_parameters(a * I1 + b * I2),
                               a * li.to_parameters(I1) + b * li.to_parameters(I2), atol=1e-12)


def test_batched_functions_match_loop():
    rng = np.random.default_rng(2)
    bodies = [random_body(rng)[:3] for _ in range(6)]
    m = np.array([b[0] for b in bodies]).reshape(2, 3)
    c = np.array([b[1] for b in bodies]).reshape(2, 3, 3)
    Ic = np.array([b[2] for b in bodies]).reshape(2, 3, 3, 3)
    V = rng.normal(size=(2, 3, 6))
    I = li.spatial_inertia(m, c, Ic)
    assert I.shape == (2, 3, 6, 6)
    li.check_inertia(I)
    for k, (mk, ck, Ick) in enumerate(bodies):
        i, j = divmod(k, 3)
        np.testing.assert_allclose(I[i, j], li.spatial_inertia(mk, ck, Ick))
        assert np.isclose(li.kinetic_energy(I, V)[i, j], li.kinetic_energy(I[i, j], V[i, j]))
        np.testing.assert_allclose(li.momentum(I, V)[i, j], I[i, j] @ V[i, j])
    assert li.to_parameters(I).shape == (2, 3, 10)
    assert li.spatial_inertia(1.0, np.zeros((5, 3)), np.eye(3)).shape == (5, 6, 6)


def test_complex_step_of_kinetic_energy():
    m, c, Ic, _, _ = random_body(np.random.default_rng(3))
    I, V, dV = li.spatial_inertia(m, c, Ic), np.arange(1.0, 7.0), np.ones(6)
    h = 1e-30
    slope = li.kinetic_energy(I.astype(complex), V + 1j * h * dV).imag / h
    assert np.isclose(slope, dV @ I @ V, rtol=1e-13)        # d/ds (V^T I V / 2) = dV^T I V


def test_symbolic_spatial_inertia_and_energy():
    m, x, y, z, w, u = sympy.symbols("m x y z w u")
    I = li.spatial_inertia(np.array(m, dtype=object), np.array([x, y, z], dtype=object),
                           np.zeros((3, 3), dtype=object))
    V = np.array([0, 0, w, u, 0, 0], dtype=object)
    e = sympy.expand(li.kinetic_energy(I, V))
    # a point mass at (x, y, z): velocity v + w x r = (u - w y, w x, 0)
    assert sympy.simplify(e - m * ((u - w * y) ** 2 + (w * x) ** 2) / 2) == 0
    assert li.check_inertia(I) is I
    pi = li.to_parameters(I)
    assert sympy.simplify(pi[4] - m * (y ** 2 + z ** 2)) == 0


# ---------------------------------------------------------------------------------------------
# Bad inputs
# ---------------------------------------------------------------------------------------------
GOOD = li.spatial_inertia(2.0, [0.1, 0.2, 0.3], np.diag([1.0, 2.0, 2.5]))


@pytest.mark.parametrize("args, match", [
    ((-1e-12, np.zeros(3), np.eye(3)), "'mass': must be positive or zero"),
    ((-1.0, np.zeros(3), np.eye(3)), "'mass': must be positive"),
    ((1.0, np.zeros(2), np.eye(3)), r"'com': expected shape \(\.\.\., 3\)"),
    ((1.0, [0.0, np.nan, 0.0], np.eye(3)), "'com': contains NaN"),
    ((1.0, np.zeros(3), np.eye(2)), r"'I_com': expected shape \(\.\.\., 3, 3\)"),
    ((1.0, np.zeros(3), [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]), "'I_com'.*not symmetric"),
    ((1.0, np.zeros(3), np.diag([1.0, -1.0, 1.0])), "'I_com'.*positive semi-definite"),
    ((1.0, np.zeros(3), np.diag([1.0, 1.0, 3.0])), "'I_com'.*triangle inequality"),
])
def test_spatial_inertia_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        li.spatial_inertia(*args)


def test_spatial_inertia_rejects_non_rotation():
    with pytest.raises(ValueError, match="'R': not a rotation"):
        li.spatial_inertia(1.0, np.zeros(3), np.eye(3), R=2 * np.eye(3))


def _modified(f):
    I = GOOD.copy()
    f(I)
    return I


@pytest.mark.parametrize("I, match", [
    (np.eye(5), r"'I_test': expected shape \(\.\.\., 6, 6\)"),
    (_modified(lambda I: I.__setitem__((0, 0), np.nan)), "'I_test': contains NaN"),
    (_modified(lambda I: I.__setitem__((0, 1), 5.0)), "'I_test': not symmetric"),
    (-GOOD, "'I_test': mass must be positive"),
    (_modified(lambda I: I.__setitem__((5, 5), 3.0)), "'I_test': lower-right block"),
    (_modified(lambda I: (I.__setitem__((0, 3), 1.0), I.__setitem__((3, 0), 1.0))),
     "'I_test': upper-right block"),
    (_modified(lambda I: I.__setitem__((0, 0), I[0, 0] - 2.0)),
     "'I_test'.*about the centre of mass is not positive semi-definite"),
    (_modified(lambda I: I.__setitem__((2, 2), I[2, 2] + 2.0)),
     "'I_test'.*triangle inequality"),
])
def test_check_inertia_rejects_non_physical(I, match):
    with pytest.raises(ValueError, match=match):
        li.check_inertia(I, name="I_test")


def test_check_inertia_accepts_and_returns_batch():
    batch = np.stack([GOOD, GOOD])
    assert li.check_inertia(batch) is not None
    bad = batch.copy()
    bad[1, 3, 3] = bad[1, 4, 4] = bad[1, 5, 5] = -1.0
    with pytest.raises(ValueError, match="'I': mass must be positive"):
        li.check_inertia(bad)


@pytest.mark.parametrize("f, args, match", [
    (li.box_inertia, (1.0, [1.0, -1.0, 1.0]), "'size': must be positive"),
    (li.cylinder_inertia, (1.0, 0.0, 1.0), "'radius': must be positive"),
    (li.sphere_inertia, (-1.0, 1.0), "'mass': must be positive"),
    (li.rod_inertia, (1.0, 0.0), "'length': must be positive"),
    (li.box_inertia, (1.0, [1.0, 1.0]), r"'size': expected shape \(\.\.\., 3\)"),
])
def test_solids_reject_bad_input(f, args, match):
    with pytest.raises(ValueError, match=match):
        f(*args)


def by_hand(m, c, Ic):
    """Eq. (22) assembled here (no validation), to build non-physical inertias too."""
    P = _skew(c)
    return np.block([[Ic + m * P.T @ P, m * P], [m * P.T, m * np.eye(3)]])


# a 1 g part of millimetre size; mass scale k and length scale l change units: (m, c, Ic) ->
# (k m, l c, k l^2 Ic). Physical or not does not depend on the units (down to radii of gyration
# of a few millimetres, where the absolute floor 1e-14 m (SI) of check_inertia takes over).
SMALL = (1e-3, np.array([2e-3, -1e-3, 3e-3]))
SCALES = [(1.0, 1.0), (1e10, 1.0), (1e-6, 1.0), (1.0, 1e3), (1e-3, 1e2), (1e5, 10.0)]


@pytest.mark.parametrize("k, l", SCALES)
@pytest.mark.parametrize("Ic, match", [
    (np.diag([1e-10, -5e-10, 1e-10]), "positive semi-definite"),      # a negative moment
    (np.diag([1e-10, 1e-10, 5e-10]), "triangle inequality"),          # J1 + J2 < J3
    (np.diag([1e-10, 1e-10, 2e-10 * (1 + 1e-6)]), "triangle inequality"),   # by 1e-6 of J3
    (np.diag([1e-10, 2e-10, 3e-10]) + np.diag([1e-16, 0.0], 1),      # asymmetric by 1e-6
     "symmetric"),
])
def test_tolerance_is_relative_to_the_inertia_not_absolute(Ic, match, k, l):
    """The same non-physical inertia is rejected in every unit, however small in SI (with
    the old absolute tolerance 1e-9 every one of these 1 g parts was accepted)."""
    m, c = SMALL
    Ic_s = k * l ** 2 * Ic
    with pytest.raises(ValueError, match="'I_com'.*" + match):
        li.spatial_inertia(k * m, l * c, Ic_s)
    with pytest.raises(ValueError, match="'I'.*" + match):
        li.check_inertia(by_hand(k * m, l * c, Ic_s))


@pytest.mark.parametrize("k, l", SCALES)
def test_physical_inertias_accepted_in_every_unit(k, l):
    m, c = SMALL
    rng = np.random.default_rng(5)
    mb, cb, Icb, _, _ = random_body(rng)                      # a point cloud, then rescaled
    cases = [(m, c, Icb * 1e-7),                              # 1 g, mm-size cloud
             (m, c, np.diag([1.0, 1.0, 0.0]) * m * 0.01 ** 2 / 12),   # a 1 cm rod
             (m, c, np.zeros((3, 3))),                        # a point mass off the origin
             (mb, cb, Icb)]
    for mass, com, Ic in cases:
        mass, com, Ic = k * mass, l * com, k * l ** 2 * Ic
        R = rotation(rng, "uniform")
        I = li.check_inertia(li.spatial_inertia(mass, com, Ic, R=R))
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = rotation(rng, "uniform"), l * rng.normal(size=3)
        li.check_inertia(li.transform_inertia(I, T))          # with the round-off of eq. (21)
        li.check_inertia(by_hand(mass, com, R @ Ic @ R.T))


def test_point_masses_are_accepted_despite_round_off():
    """For a point mass ``Ibar - m [c]^T [c]`` is pure round-off, sometimes negative; moved
    onto its own position by eq. (21), ``Ibar`` is round-off too. Both are accepted."""
    rng = np.random.default_rng(8)
    round_off = 0
    for _ in range(200):
        m, c = 10 ** rng.uniform(-3, 2), rng.uniform(-1.0, 1.0, 3)
        I = li.check_inertia(li.spatial_inertia(m, c, np.zeros((3, 3))))
        round_off += np.max(np.abs(I[:3, :3] - I[:3, 3:].T @ I[:3, 3:] / m)) > 0
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = rotation(rng, "uniform"), c
        li.check_inertia(li.transform_inertia(I, T))
    assert round_off > 100                                    # the round-off is really there


@pytest.mark.parametrize("args, match", [
    ((np.ones(2), np.zeros((3, 3)), np.eye(3)),
     r"arguments 'mass', 'com', 'I_com': batch shapes .*'mass' \(2,\), 'com' \(3,\), "
     r"'I_com' \(\)"),
    ((1.0, np.zeros(3), np.stack([np.eye(3)] * 4), np.stack([np.eye(3)] * 2)),
     r"arguments 'mass', 'com', 'I_com', 'R': .*'I_com' \(4,\), 'R' \(2,\)"),
])
def test_spatial_inertia_batch_shape_mismatch(args, match):
    with pytest.raises(ValueError, match=match):
        li.spatial_inertia(*args)


def test_rod_inertia_is_only_semi_definite():
    # Kim calls the generalized inertia positive definite; a thin rod (mass on a line) is the
    # boundary case: physical, but spinning about its own axis has zero kinetic energy.
    I = li.spatial_inertia(2.0, [0.0, 0.0, 0.5], li.rod_inertia(2.0, 1.0))
    li.check_inertia(I)
    V = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])                  # spin about the rod's axis
    assert li.kinetic_energy(I, V) == 0.0        # exact: every term has a zero factor
    assert np.min(np.linalg.eigvalsh(I)) < 1e-12


# ---------------------------------------------------------------------------------------------
# Massless links: m = 0, rotational inertia only (or none), as the Puma 560's first link
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("Ibar", [np.diag([0.0, 0.35, 0.0]), np.zeros((3, 3)),
                                  np.array([[0.2, 0.05, 0], [0.05, 0.1, 0], [0, 0, 0.0]])])
def test_a_massless_link_is_accepted(Ibar):
    """Symmetric positive semi-definite, no mass, no first moment: a lumped rotor
    inertia, which need not obey the triangle inequality of a mass distribution."""
    I = li.spatial_inertia(0.0, [0.3, -0.2, 0.1], Ibar)
    assert np.array_equal(I[3:, 3:], np.zeros((3, 3))) and not np.any(I[:3, 3:])  # m = 0
    assert np.allclose(I[:3, :3], Ibar)
    li.check_inertia(I)
    model = Model()
    model.add_body("rotor", 0, J.Revolute([0, 0, 1]), inertia=I)
    model.inertias[1] = I                               # assignment too


@pytest.mark.parametrize("I, match", [
    (np.diag([-0.1, 0.2, 0.2, 0, 0, 0]), "positive semi-definite"),
    (np.diag([0.1, 0.1, 0.1, -1, -1, -1]), "mass must be positive or zero"),
    (np.diag([0.1, 0.1, 0.1, 1, 0, 0]), "lower-right block must be m"),
])
def test_a_massless_link_keeps_the_other_checks(I, match):
    with pytest.raises(ValueError, match=match):
        li.check_inertia(I)


@pytest.mark.parametrize("mass, com", [(2.0, [0.1, -0.2, 0.3]), (0.0, [0.0, 0.0, 0.0])])
def test_compose_is_spatial_inertia_without_the_checks(mass, com):
    """The same Kim eq. (22) on a physical inertia, and an inconsistent one (principal
    moments against the triangle inequality) composed as given."""
    Ic = np.array([[0.3, 0.01, 0.0], [0.01, 0.2, 0.02], [0.0, 0.02, 0.25]])
    assert np.allclose(li.compose(mass, com, Ic), li.spatial_inertia(mass, com, Ic),
                       rtol=0, atol=1e-15)
    bad = np.diag([0.066, 0.086, 0.0125])
    with pytest.raises(ValueError, match="triangle"):
        li.spatial_inertia(4.8, com, bad)
    shifted = li.compose(4.8, com, bad)[:3, :3] - li.compose(4.8, com, 0 * bad)[:3, :3]
    assert np.allclose(shifted, bad, rtol=0, atol=1e-15)
