"""Results of From (2012), the notes on Murray, Li and Sastry, Zhang's lecture and the RNEA
notes that liedyn implements: Kirchhoff's equations, From's lower-dimensional groups, Property 2
of the notes, and the appendix identities of the RNEA notes (one of them false)."""
import numpy as np
import pytest
from hypothesis import given, settings

from liedyn import body, crba, lie, robots
from liedyn.closed_form import property2
from liedyn.inertia import box_inertia, spatial_inertia

from strategies import seeds

SETTINGS = settings(max_examples=25, deadline=None)


def random_box(rng):
    m = rng.uniform(0.5, 2.0)
    return spatial_inertia(m, rng.normal(size=3), box_inertia(m, rng.uniform(0.2, 1.0, 3)),
                           R=lie.exp_so3(rng.normal(size=3)))


def random_pose(rng):
    return lie.make_transform(lie.exp_so3(rng.normal(size=3)), rng.normal(size=3))


# ---------------------------------------------------------------------------------------------
# From (2012), eqs. (9)-(10): Kirchhoff's equations
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds)
def test_kirchhoff_is_newton_euler(seed):
    rng = np.random.default_rng(seed)
    I, V, dV = random_box(rng), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(body.kirchhoff(I, V, dV), body.newton_euler(I, V, dV),
                               atol=1e-12)


def test_kirchhoff_from_the_energy_by_complex_step():
    """tau_v, tau_w from the partial derivatives of K(w, v) = V.I V / 2, taken numerically."""
    rng = np.random.default_rng(3)
    I, V, dV = random_box(rng), rng.normal(size=6), rng.normal(size=6)
    h = 1e-30
    grad = np.array([(0.5 * (V + 1j * h * e) @ I @ (V + 1j * h * e)).imag / h
                     for e in np.eye(6)])                  # (dK/dw, dK/dv)
    dgrad = I @ dV                                         # d/dt of the gradient
    w, v = V[:3], V[3:]
    tau_v = dgrad[3:] + np.cross(w, grad[3:])
    tau_w = dgrad[:3] + np.cross(v, grad[3:]) + np.cross(w, grad[:3])
    np.testing.assert_allclose(body.kirchhoff(I, V, dV), np.r_[tau_w, tau_v], atol=1e-12)


def test_from_se3_components_for_a_diagonal_inertia():
    """From (2012), the SE(3) equations after eq. (76) with M = diag(m, Ix, Iy, Iz); the last
    one is printed with I_y r q, which must be I_y p q (errata)."""
    m, Ix, Iy, Iz = 2.0, 0.3, 0.5, 0.7
    I = spatial_inertia(m, np.zeros(3), np.diag([Ix, Iy, Iz]))
    u, v, w, p, q, r = 0.4, -1.1, 0.8, 1.3, -0.6, 0.9
    du, dv, dw, dp, dq, dr = 0.2, 0.5, -0.3, 0.7, -0.1, 0.4
    tau = body.newton_euler(I, [p, q, r, u, v, w], [dp, dq, dr, du, dv, dw])
    from_eqs = [Ix * dp - Iy * r * q + Iz * q * r,
                Iy * dq + Ix * r * p - Iz * p * r,
                Iz * dr - Ix * q * p + Iy * p * q,            # printed: + Iy r q
                m * du - m * r * v + m * q * w,
                m * dv + m * r * u - m * p * w,
                m * dw - m * q * u + m * p * v]
    np.testing.assert_allclose(tau, from_eqs, atol=1e-14)
    assert abs(tau[2] - (Iz * dr - Ix * q * p + Iy * r * q)) > 0.1


# ---------------------------------------------------------------------------------------------
# From (2012), Section 4.6 and Table 1: the lower-dimensional groups
# ---------------------------------------------------------------------------------------------
LOWER = ["R2", "R", "SO2"]


@pytest.mark.parametrize("name", LOWER + ["helical"])
def test_lower_dimensional_groups_have_no_coriolis_terms(name):
    g = body.helical_group(0.3) if name == "helical" else body.group(name)
    rng = np.random.default_rng(1)
    m = g.H.shape[1]
    assert m <= 2
    for k in range(m):                                     # abelian: [H e_i, H e_j] = 0
        for j in range(m):
            assert np.allclose(lie.ad(g.H[:, k]) @ g.H[:, j], 0)
    I, v = random_box(rng), rng.normal(size=m)
    assert np.allclose(body.coriolis_matrix(I, v, g), 0)                        # Table 2: C = 0
    assert np.allclose(body.velocity_map(rng.normal(size=m), g), np.eye(m))     # S = 1
    assert np.allclose(body.velocity_map_derivative(g), 0)


@pytest.mark.parametrize("name", LOWER + ["helical"])
def test_lower_dimensional_groups_simulate_in_the_group(name):
    """A body on the group with a constant wrench: H^T I H dv = H^T F, exactly."""
    g = body.helical_group(0.3) if name == "helical" else body.group(name)
    rng = np.random.default_rng(2)
    I, F = random_box(rng), rng.normal(size=6)
    m = g.H.shape[1]
    v0 = rng.normal(size=m)
    T, V = body.simulate(I, np.eye(4), g.H @ v0, 0.01, 100, F=F, group_name=g)
    a = np.linalg.solve(g.H.T @ I @ g.H, g.H.T @ F)
    np.testing.assert_allclose(V[-1], g.H @ (v0 + a), atol=1e-10)
    # the pose is exp of the integrated twist: T(1) = exp(H (v0 + a / 2))
    np.testing.assert_allclose(T[-1], lie.exp_se3(g.H @ (v0 + a / 2)), atol=1e-10)


def test_helical_group_rejects_twists_off_the_screw():
    g = body.helical_group(0.5)
    with pytest.raises(ValueError, match="'V0'.*Lie algebra of H"):
        body.simulate(np.eye(6), np.eye(4), [0, 0, 1.0, 0, 0, 0.0], 0.1, 1, group_name=g)


# ---------------------------------------------------------------------------------------------
# Murray, Li and Sastry, Ch. 4 notes, Property 2
# ---------------------------------------------------------------------------------------------
ARMS = {"planar_arm(3)": lambda: robots.planar_arm(3),
        "serial_chain(5)": lambda: robots.serial_chain(5),
        "prismatic chain": lambda: robots.serial_chain(3, joint="prismatic"),
        "ur5": lambda: robots.load("ur5")}


@pytest.mark.parametrize("name", sorted(ARMS))
def test_property2_mass_matrix_and_derivative(name):
    model = ARMS[name]()
    rng = np.random.default_rng(4)
    q = rng.uniform(-2, 2, model.nq)
    M, dM = property2(model, q)
    np.testing.assert_allclose(M, crba.mass_matrix(model, q), atol=1e-12)
    h = 1e-20                                              # complex step through the CRBA
    cs = np.stack([crba.mass_matrix(model, q + 1j * h * e).imag / h for e in np.eye(model.nq)])
    np.testing.assert_allclose(dM, cs, atol=1e-11)


def test_property2_as_printed_is_wrong():
    model = robots.serial_chain(4)
    q = np.random.default_rng(5).uniform(-2, 2, 4)
    _, dM = property2(model, q)
    M_p, dM_p = property2(model, q, form="printed")
    np.testing.assert_allclose(M_p, crba.mass_matrix(model, q), atol=1e-12)
    assert np.max(np.abs(dM_p - dM)) > 0.1


def test_property2_rejects_trees_and_batches():
    with pytest.raises(ValueError, match="serial chain"):
        property2(robots.load("panda"), np.zeros(9))
    with pytest.raises(ValueError, match="'q'.*one state"):
        property2(robots.planar_arm(2), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="'form'"):
        property2(robots.planar_arm(2), np.zeros(2), form="book")


# ---------------------------------------------------------------------------------------------
# The RNEA notes, appendix "Useful identities"
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds)
def test_rnea_notes_skew_identities(seed):
    rng = np.random.default_rng(seed)
    a, b, c = rng.normal(size=(3, 3))
    R = lie.exp_so3(rng.normal(size=3))
    S = lie.skew
    np.testing.assert_allclose(S(a) @ b, -S(b) @ a, atol=1e-12)
    np.testing.assert_allclose(S(a) @ S(b), np.outer(b, a) - (a @ b) * np.eye(3), atol=1e-12)
    np.testing.assert_allclose(S(R @ a), R @ S(a) @ R.T, atol=1e-12)
    assert np.isclose(a @ S(b) @ c, c @ S(a) @ b) and np.isclose(a @ S(b) @ c, b @ S(c) @ a)


@SETTINGS
@given(seed=seeds)
def test_rnea_notes_adjoint_identities(seed):
    rng = np.random.default_rng(seed)
    T1, T2 = random_pose(rng), random_pose(rng)
    np.testing.assert_allclose(lie.Ad(T1 @ T2), lie.Ad(T1) @ lie.Ad(T2), atol=1e-10)
    np.testing.assert_allclose(np.linalg.inv(lie.Ad(T1)), lie.Ad(lie.inverse(T1)), atol=1e-10)
    # printed: (Ad_T)^T = Ad_{T^-1}^T != Ad_T^{-T}. Both halves are false: Ad_{T^-1}^T IS
    # Ad_T^{-T}, and it differs from Ad_T^T unless p = 0.
    np.testing.assert_allclose(lie.Ad(lie.inverse(T1)).T, np.linalg.inv(lie.Ad(T1)).T,
                               atol=1e-10)
    assert np.max(np.abs(lie.Ad(T1).T - lie.Ad(lie.inverse(T1)).T)) > 1e-3


def test_rnea_notes_derivative_of_adjoint_and_which_velocity():
    """d/dt Ad_T = Ad_T ad_{V_b} with V_b = T^-1 dT (right); dT T^-1 is the spatial twist,
    not the body twist as the notes' section 3.1 says."""
    rng = np.random.default_rng(7)
    T0, Vb = random_pose(rng), rng.normal(size=6)
    T = lambda t: T0 @ lie.exp_se3(t * Vb)                 # body twist Vb, constant
    h = 1e-6
    dAd = (lie.Ad(T(h)) - lie.Ad(T(-h))) / (2 * h)
    np.testing.assert_allclose(dAd, lie.Ad(T0) @ lie.ad(Vb), atol=1e-8)
    dT = (T(h) - T(-h)) / (2 * h)
    np.testing.assert_allclose(lie.vee(lie.inverse(T0) @ dT), Vb, atol=1e-8)
    np.testing.assert_allclose(lie.vee(dT @ lie.inverse(T0)), lie.Ad(T0) @ Vb, atol=1e-8)
    assert np.max(np.abs(lie.vee(dT @ lie.inverse(T0)) - Vb)) > 1e-3


# ---------------------------------------------------------------------------------------------
# Murray, Li and Sastry, Property 3
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds)
def test_property3_adjoint_is_a_lie_algebra_automorphism(seed):
    rng = np.random.default_rng(seed)
    g, x, y = random_pose(rng), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(lie.Ad(g) @ lie.ad(x) @ y, lie.ad(lie.Ad(g) @ x) @ lie.Ad(g) @ y,
                               atol=1e-10)
