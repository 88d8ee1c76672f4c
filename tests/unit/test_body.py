"""Tests of liedyn.body: Kim (2012), eq. (31); From (2012), Sections 3-4; the integrators.

From's Coriolis matrices are typed in below from his paper, in his (v, w) order, and compared
with liedyn's after the permutation; Euler's equations are written out by hand.
"""
import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from liedyn import body as lb
from liedyn.inertia import box_inertia, kinetic_energy, spatial_inertia
from liedyn.lie import Ad_inv, Ad_star, ad

from common import random_inertia
from strategies import _skew, seeds, transforms

SETTINGS = settings(max_examples=30, deadline=None)


def ne_by_hand(I, V, dV):
    """Eq. (31) written with cross products: m = I_w dV + w x h + v x l,  f = ... + w x l."""
    w, v = V[:3], V[3:]
    h, l = (I @ V)[:3], (I @ V)[3:]
    return I @ dV + np.concatenate([np.cross(w, h) + np.cross(v, l), np.cross(w, l)])


# ---------------------------------------------------------------------------------------------
# eq. (31)
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seeds)
def test_newton_euler_matches_cross_product_form(seed):
    rng = np.random.default_rng(seed)
    I, V, dV = random_inertia(rng), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(lb.newton_euler(I, V, dV), ne_by_hand(I, V, dV), atol=1e-10)


@SETTINGS
@given(seeds)
def test_newton_euler_and_body_acceleration_are_inverses(seed):
    rng = np.random.default_rng(seed)
    I, V, dV, F = random_inertia(rng), rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(lb.body_acceleration(I, V, lb.newton_euler(I, V, dV)), dV,
                               atol=1e-9)
    np.testing.assert_allclose(lb.newton_euler(I, V, lb.body_acceleration(I, V, F)), F,
                               atol=1e-9)


@SETTINGS
@given(seeds, transforms(kinds=("uniform", "gaussian", "near_identity")))
def test_coordinate_invariance_of_eq31(seed, T_ab):
    rng = np.random.default_rng(seed)
    I_a, V_a, dV_a = random_inertia(rng), rng.normal(size=6), rng.normal(size=6)
    F_a = lb.newton_euler(I_a, V_a, dV_a)
    I_b = Ad_star(T_ab) @ I_a @ Ad_star(T_ab).T          # eq. (21), written out
    V_b, dV_b = Ad_inv(T_ab) @ V_a, Ad_inv(T_ab) @ dV_a   # eq. (11); T_ab is constant
    np.testing.assert_allclose(lb.newton_euler(I_b, V_b, dV_b), Ad_star(T_ab) @ F_a,
                               atol=1e-9)              # eq. (13)


def test_euler_equations_recovered_for_principal_axes():
    J, w, dw = np.array([1.0, 2.0, 2.5]), np.array([0.3, -1.2, 0.7]), np.array([0.5, 0.1, -2.0])
    I = spatial_inertia(4.0, np.zeros(3), np.diag(J))
    F = lb.newton_euler(I, np.concatenate([w, np.zeros(3)]), np.concatenate([dw, np.zeros(3)]))
    p, q, r = w
    euler = [J[0] * dw[0] - (J[1] - J[2]) * q * r,       # From (2012), eqs. (2)-(4)
             J[1] * dw[1] - (J[2] - J[0]) * r * p,
             J[2] * dw[2] - (J[0] - J[1]) * p * q]
    np.testing.assert_allclose(F, np.concatenate([euler, np.zeros(3)]), atol=1e-12)


def test_spatial_momentum_by_hand():
    I = spatial_inertia(2.0, [0.0, 0.0, 0.0], np.diag([1.0, 2.0, 3.0]))
    R = _skew([0, 0, 1]) + np.diag([0.0, 0.0, 1.0])       # a quarter turn about z
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, [1.0, 2.0, 0.0]
    V = np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0])
    h_body, p_body = np.array([0.0, 0.0, 3.0]), np.array([2.0, 0.0, 0.0])
    p_s = R @ p_body
    h_s = R @ h_body + np.cross(T[:3, 3], p_s)           # angular momentum about the origin
    np.testing.assert_allclose(lb.spatial_momentum(I, T, V), np.concatenate([h_s, p_s]),
                               atol=1e-12)


def test_batched_newton_euler_matches_loop():
    rng = np.random.default_rng(4)
    I = np.stack([random_inertia(rng) for _ in range(6)]).reshape(2, 3, 6, 6)
    V, dV = rng.normal(size=(2, 3, 6)), rng.normal(size=(2, 3, 6))
    F = lb.newton_euler(I, V, dV)
    dV2 = lb.body_acceleration(I, V, F)
    for i, j in np.ndindex(2, 3):
        np.testing.assert_allclose(F[i, j], ne_by_hand(I[i, j], V[i, j], dV[i, j]), atol=1e-10)
    np.testing.assert_allclose(dV2, dV, atol=1e-9)


def test_newton_euler_complex_step_and_symbolic():
    rng = np.random.default_rng(5)
    I, V, dV, E = random_inertia(rng), rng.normal(size=6), rng.normal(size=6), rng.normal(size=6)
    h = 1e-30
    jac = lb.newton_euler(I.astype(complex), V + 1j * h * E, dV).imag / h
    np.testing.assert_allclose(jac, -(ad(V).T @ I @ E + ad(E).T @ I @ V), atol=1e-12)
    # symbolic: Euler's equations about principal axes
    Jx, Jy, Jz, p, q, r, dp, dq, dr = sympy.symbols("Jx Jy Jz p q r dp dq dr")
    Is = np.diag(np.array([Jx, Jy, Jz, 1, 1, 1], dtype=object))
    F = lb.newton_euler(Is, np.array([p, q, r, 0, 0, 0], dtype=object),
                        np.array([dp, dq, dr, 0, 0, 0], dtype=object))
    assert sympy.expand(F[0] - (Jx * dp - (Jy - Jz) * q * r)) == 0
    dVs = lb.body_acceleration(Is, np.array([p, q, r, 0, 0, 0], dtype=object), F)
    assert sympy.simplify(dVs[0] - dp) == 0


@pytest.mark.parametrize("args, match", [
    ((np.eye(5), np.zeros(6), np.zeros(6)), r"'I': expected shape \(\.\.\., 6, 6\)"),
    ((np.eye(6), np.zeros(5), np.zeros(6)), r"'V': expected shape \(\.\.\., 6\)"),
    ((np.eye(6), np.zeros(6), np.zeros(3)), r"'dV': expected shape \(\.\.\., 6\)"),
    ((np.eye(6), np.full(6, np.nan), np.zeros(6)), "'V': contains NaN"),
    ((-np.eye(6), np.zeros(6), np.zeros(6)), "'I': mass must be positive"),
    ((np.diag([1.0, 1.0, 3.0, 1.0, 1.0, 1.0]), np.zeros(6), np.zeros(6)),
     "'I'.*triangle inequality"),
])
def test_newton_euler_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        lb.newton_euler(*args)


def test_body_acceleration_and_simulate_reject_bad_input():
    with pytest.raises(ValueError, match="'F': contains NaN"):
        lb.body_acceleration(np.eye(6), np.zeros(6), [np.nan] * 6)
    with pytest.raises(ValueError, match="'T0'"):
        lb.simulate(np.eye(6), 2 * np.eye(4), np.zeros(6), 0.1, 1)
    with pytest.raises(ValueError, match="'method'"):
        lb.simulate(np.eye(6), np.eye(4), np.zeros(6), 0.1, 1, method="rk45")
    with pytest.raises(ValueError, match="'group'"):
        lb.coriolis_matrix(np.eye(6), np.zeros(3), "SO4")


ROD = spatial_inertia(2.0, [0.0, 0.0, 0.5], np.diag([1.0, 1.0, 0.0]) * 2.0 / 12)   # along z
POINT_MASS = spatial_inertia(1.5, [0.3, -0.2, 0.1], np.zeros((3, 3)))


@pytest.mark.parametrize("I", [ROD, POINT_MASS], ids=["rod", "point_mass"])
def test_singular_inertia_is_reported_not_a_linalg_error(I):
    """Physical but singular inertias (only positive semi-definite) have no unique dV."""
    I_batch = np.stack([random_inertia(np.random.default_rng(0)), I])
    for args in ((I, np.zeros(6), np.ones(6)), (I_batch, np.zeros((2, 6)), np.ones(6))):
        with pytest.raises(ValueError, match="argument 'I': the inertia is singular.*point mass"):
            lb.body_acceleration(*args)
    with pytest.raises(ValueError, match="argument 'I': the inertia is singular"):
        lb.simulate(I, np.eye(4), [0.0, 0.0, 1.0, 0.0, 0.0, 0.0], 0.01, 3)
    with pytest.raises(ValueError, match="argument 'I': the inertia is singular"):
        lb.rkmk4_step(I, np.eye(4), np.zeros(6), 0.01)
    # newton_euler (the inverse direction) is defined: the point mass / rod are physical
    np.testing.assert_allclose(lb.newton_euler(I, np.zeros(6), np.ones(6)), I @ np.ones(6))


def test_singular_inertia_on_a_subgroup():
    # a rod translating (R3) has the regular reduced inertia m 1 and simulates; pivoting about
    # its end (SO3) it has no inertia about its own axis z
    T, V = lb.simulate(ROD, np.eye(4), [0.0, 0.0, 0.0, 1.0, 0.0, 0.0], 0.1, 10,
                       F=[0.0, 0.0, 0.0, 0.0, 2.0, 0.0], group_name="R3")
    np.testing.assert_allclose(T[-1][:3, 3], [1.0, 1.0 / 2.0, 0.0], atol=1e-12)  # F/m t^2/2
    with pytest.raises(ValueError, match="reduced inertia H\\^T I H on SO3 is singular"):
        lb.simulate(ROD, np.eye(4), [0.0, 1.0, 0.0, 0.0, 0.0, 0.0], 0.01, 3, group_name="SO3")


@pytest.mark.parametrize("call, match", [
    (lambda I: lb.newton_euler(I, np.zeros((3, 6)), np.zeros(6)),
     r"arguments 'I', 'V', 'dV': batch shapes .* 'I' \(2,\), 'V' \(3,\), 'dV' \(\)"),
    (lambda I: lb.newton_euler(I[0], np.zeros((2, 6)), np.zeros((4, 6))),
     r"arguments 'I', 'V', 'dV'.*'V' \(2,\), 'dV' \(4,\)"),
    (lambda I: lb.bias_force(I, np.zeros((3, 6))), r"arguments 'I', 'V'.*'I' \(2,\), 'V' \(3,\)"),
    (lambda I: lb.body_acceleration(I, np.zeros(6), np.zeros((5, 6))),
     r"arguments 'I', 'V', 'F'.*'F' \(5,\)"),
    (lambda I: lb.simulate(I, np.eye(4), np.zeros((3, 6)), 0.1, 1),
     r"'I', 'T0', 'V0'.*'V0' \(3,\)"),
    (lambda I: lb.simulate(I[0], np.eye(4), np.zeros((2, 6)), 0.1, 1, F=np.zeros((3, 6))),
     r"'I', 'T0', 'V0', 'F'.*'F' \(3,\)"),
])
def test_batch_shape_mismatch_names_the_arguments(call, match):
    rng = np.random.default_rng(3)
    I = np.stack([random_inertia(rng), random_inertia(rng)])
    with pytest.raises(ValueError, match=match):
        call(I)


# ---------------------------------------------------------------------------------------------
# From (2012): Coriolis matrices, typed in from the paper in his (v, w) order
# ---------------------------------------------------------------------------------------------
def from_se3(p):                                          # Table 1 / eq. (73)
    return np.array([[0, 0, 0, 0, p[2], -p[1]],
                     [0, 0, 0, -p[2], 0, p[0]],
                     [0, 0, 0, p[1], -p[0], 0],
                     [0, p[2], -p[1], 0, p[5], -p[4]],
                     [-p[2], 0, p[0], -p[5], 0, p[3]],
                     [p[1], -p[0], 0, p[4], -p[3], 0]])


def from_so3(p):                                          # eq. (68): C = -(Mv)^
    return -_skew(p)


def from_se2(p):                                          # eq. (83)
    return np.array([[0, 0, -p[1]], [0, 0, p[0]], [p[1], -p[0], 0]])


def from_x(p):                                            # Table 1, Schoenflies row
    return np.array([[0, 0, 0, -p[1]], [0, 0, 0, p[0]], [0, 0, 0, 0], [p[1], -p[0], 0, 0]])


def from_r3(p):
    return np.zeros((3, 3))


FROM_TABLE = {"SE3": from_se3, "SO3": from_so3, "SE2": from_se2, "X": from_x, "R3": from_r3}


@pytest.mark.parametrize("name", sorted(FROM_TABLE))
@SETTINGS
@given(seed=seeds)
def test_coriolis_matrix_equals_from_table_after_permutation(name, seed):
    rng = np.random.default_rng(seed)
    g = lb.group(name)
    I, v = random_inertia(rng), rng.normal(size=g.H.shape[1])
    C = lb.coriolis_matrix(I, v, name)
    order = list(g.from_order)                            # v_from = v[order]
    M_from = (g.H.T @ I @ g.H)[np.ix_(order, order)]
    p_from = M_from @ v[order]
    np.testing.assert_allclose(C[np.ix_(order, order)], FROM_TABLE[name](p_from), atol=1e-10)


@pytest.mark.parametrize("name", sorted(FROM_TABLE))
@SETTINGS
@given(seed=seeds)
def test_coriolis_times_v_is_newton_euler_bias(name, seed):
    rng = np.random.default_rng(seed)
    H = lb.group(name).H
    I, v = random_inertia(rng), rng.normal(size=H.shape[1])
    C = lb.coriolis_matrix(I, v, name)
    np.testing.assert_allclose(C @ v, H.T @ (-ad(H @ v).T @ I @ H @ v), atol=1e-10)
    np.testing.assert_allclose(C, -C.T, atol=1e-12)      # skew: C v . v = 0, energy conserved


@pytest.mark.parametrize("name", sorted(FROM_TABLE))
def test_eq57_from_velocity_map_matches_closed_form(name):
    rng = np.random.default_rng(6)
    H = lb.group(name).H
    I, v = random_inertia(rng), rng.normal(size=H.shape[1])
    dS = lb.velocity_map_derivative(name)
    m = H.shape[1]
    # the series S = 1 - ad/2 + ... gives dS/dphi_k = -ad_{e_k}/2 on the subalgebra
    series = np.stack([-H.T @ ad(H @ np.eye(m)[k]) @ H / 2 for k in range(m)])
    np.testing.assert_allclose(dS, series, atol=1e-14)
    p = lb.reduced_inertia(I, name) @ v
    np.testing.assert_allclose(lb.coriolis_index_formula(dS, p), lb.coriolis_matrix(I, v, name),
                               atol=1e-12)


def test_duindam_stramigioli_eq33_is_wrong_for_se3():
    rng = np.random.default_rng(7)
    I, v, dv = random_inertia(rng), rng.normal(size=6), rng.normal(size=6)
    dS = lb.velocity_map_derivative("SE3")
    p = I @ v
    C_ds = lb.coriolis_index_formula(dS, p, form="duindam2008")
    np.testing.assert_allclose(C_ds, -ad(p).T, atol=1e-12)        # From (2012), eq. (36)
    tau_ne = lb.newton_euler(I, v, dv)
    tau_ds = I @ dv + C_ds @ v                                    # From (2012), eq. (37)
    assert np.max(np.abs(tau_ds - tau_ne)) > 0.1
    tau_57 = I @ dv + lb.coriolis_index_formula(dS, p) @ v
    np.testing.assert_allclose(tau_57, tau_ne, atol=1e-10)


def test_from_table1_so3_entry_has_the_wrong_sign():
    # Table 1 lists ad~_p = +p^ for SO(3); with it M dw + C w is not Euler's equations.
    J, w = np.diag([1.0, 2.0, 3.0]), np.array([0.4, -0.7, 1.1])
    euler_bias = np.cross(w, J @ w)
    assert np.max(np.abs(_skew(J @ w) @ w - euler_bias)) > 0.1
    np.testing.assert_allclose(from_so3(J @ w) @ w, euler_bias, atol=1e-14)


def test_reduced_inertia_is_from_eq63_and_eq86():
    I = spatial_inertia(2.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(lb.reduced_inertia(I, "SO3"), np.diag([1.0, 2.0, 3.0]))
    np.testing.assert_allclose(lb.reduced_inertia(I, "SE2"), np.diag([3.0, 2.0, 2.0]))
    np.testing.assert_allclose(lb.reduced_inertia(I, "R3"), 2.0 * np.eye(3))


def test_ad_tilde_swaps_arguments_of_coadjoint():
    rng = np.random.default_rng(8)
    p, Y = rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(lb.ad_tilde(p) @ Y, -ad(Y).T @ p, atol=1e-12)
    K = lb.ad_tilde(p)
    for a in range(6):
        for b in range(6):
            assert np.isclose(K[a, b], p @ (ad(np.eye(6)[a]) @ np.eye(6)[b]))


# ---------------------------------------------------------------------------------------------
# Integrators: conservation over 1000 steps and observed order by halving the step
# ---------------------------------------------------------------------------------------------
I_FREE = spatial_inertia(2.0, [0.1, -0.2, 0.05], box_inertia(2.0, [0.3, 0.5, 0.9]))
V_FREE = np.array([0.3, 2.0, 0.2, 0.5, -0.3, 0.1])
T_END = 5.0


def conservation_errors(method, steps):
    T, V = lb.simulate(I_FREE, np.eye(4), V_FREE, T_END / steps, steps, method=method)
    E = kinetic_energy(I_FREE, V)
    L = lb.spatial_momentum(I_FREE, T, V)
    return (np.max(np.abs(E - E[0])) / E[0], np.max(np.abs(L - L[0])) / np.max(np.abs(L[0])),
            T[-1], V[-1])


@pytest.fixture(scope="module")
def rkmk4_runs():
    return {n: conservation_errors("rkmk4", n) for n in (500, 1000, 2000)}


def test_rkmk4_conserves_energy_and_momentum_over_1000_steps(rkmk4_runs):
    e_E, e_L, T, _ = rkmk4_runs[1000]
    assert e_E < 1e-10 and e_L < 1e-8
    np.testing.assert_allclose(T[:3, :3].T @ T[:3, :3], np.eye(3), atol=1e-12)   # on SO(3)


def test_rkmk4_observed_order_is_4(rkmk4_runs):
    """The momentum error's observed order is 4 (3.99-4.00 over random bodies and twists);
    the energy error's is body-dependent (4.4-5.3: its leading term can nearly cancel), so it
    is only required to converge at least at order 4."""
    (eE1, eL1, _, _), (eE2, eL2, _, _) = rkmk4_runs[1000], rkmk4_runs[2000]
    assert abs(np.log2(eL1 / eL2) - 4) < 0.4, np.log2(eL1 / eL2)
    assert np.log2(eE1 / eE2) >= 3.6, np.log2(eE1 / eE2)


def test_lie_euler_observed_order_is_1():
    (eE1, eL1, *_), (eE2, eL2, *_) = (conservation_errors("lie_euler", n) for n in (1000, 2000))
    assert abs(np.log2(eE1 / eE2) - 1) < 0.1, np.log2(eE1 / eE2)
    assert abs(np.log2(eL1 / eL2) - 1) < 0.1, np.log2(eL1 / eL2)


def test_rkmk4_state_converges_with_order_4(rkmk4_runs):
    # without a reference solution: successive differences shrink like h^4 as well
    def state(run):
        return np.concatenate([run[2].ravel(), run[3]])

    d1 = np.linalg.norm(state(rkmk4_runs[500]) - state(rkmk4_runs[1000]))
    d2 = np.linalg.norm(state(rkmk4_runs[1000]) - state(rkmk4_runs[2000]))
    assert abs(np.log2(d1 / d2) - 4) < 0.4, np.log2(d1 / d2)


def test_integrator_with_constant_force_matches_closed_form():
    # a point-like body at rest pushed along body x: no rotation, x = F t^2 / (2 m)
    I = spatial_inertia(2.0, np.zeros(3), np.eye(3))
    F = np.array([0.0, 0.0, 0.0, 4.0, 0.0, 0.0])
    T, V = lb.simulate(I, np.eye(4), np.zeros(6), 0.01, 100, F=F)
    assert np.isclose(T[-1][0, 3], 4.0 / 2.0 * 1.0 ** 2 / 2, rtol=1e-12)
    T2, _ = lb.simulate(I, np.eye(4), np.zeros(6), 0.01, 100, F=lambda t, T, V: F)
    np.testing.assert_allclose(T2, T, atol=1e-14)


def test_free_body_com_moves_on_a_straight_line():
    I = spatial_inertia(1.0, np.zeros(3), np.diag([1.0, 2.0, 3.0]))     # frame at the COM
    T, V = lb.simulate(I, np.eye(4), [0.5, 1.0, 0.2, 1.0, 0.0, 0.0], 0.01, 200)
    np.testing.assert_allclose(T[-1][:3, 3], [2.0, 0.0, 0.0], atol=1e-8)


def test_simulate_is_batched():
    V0 = np.stack([V_FREE, -V_FREE, 2 * V_FREE])
    T, V = lb.simulate(I_FREE, np.eye(4), V0, 0.01, 20)
    assert T.shape == (21, 3, 4, 4) and V.shape == (21, 3, 6)
    T1, V1 = lb.simulate(I_FREE, np.eye(4), V0[1], 0.01, 20)
    np.testing.assert_allclose(T[:, 1], T1, atol=1e-12)


def test_reduced_velocity_maps_have_minus_sign_eq79_eq90():
    # From (2012) prints S_r = +ad/2 for SE(2) (eq. (79)) and the Schoenflies group (eq. (90));
    # the series (29) gives -ad/2, as in his eq. (65) for SO(3).
    for name in ("SE2", "X", "SO3"):
        H = lb.group(name).H
        dS = lb.velocity_map_derivative(name)
        for k in range(H.shape[1]):
            ad_k = H.T @ ad(H[:, k]) @ H
            np.testing.assert_allclose(dS[k], -ad_k / 2, atol=1e-14)
            if ad_k.any():
                assert not np.allclose(dS[k], ad_k / 2)


def test_murray_coordinate_invariance_slide():
    # the slide's velocity term ends in "Ad_{g0}^-1 Ad_{g0} V_1"; it must be V_2
    rng = np.random.default_rng(9)
    g0 = np.eye(4)
    g0[:3, :3] = _skew([0, 0, 1]) + np.diag([0.0, 0.0, 1.0])
    g0[:3, 3] = rng.normal(size=3)
    A = np.block([[g0[:3, :3], np.zeros((3, 3))], [_skew(g0[:3, 3]) @ g0[:3, :3], g0[:3, :3]]])
    A_inv = np.linalg.inv(A)
    M2, V2, dV2 = random_inertia(rng), rng.normal(size=6), rng.normal(size=6)
    F2 = ne_by_hand(M2, V2, dV2)
    V1 = A @ V2
    corrected = A_inv.T @ M2 @ A_inv @ A @ dV2 - ad(V1).T @ A_inv.T @ M2 @ A_inv @ A @ V2
    as_printed = A_inv.T @ M2 @ A_inv @ A @ dV2 - ad(V1).T @ A_inv.T @ M2 @ A_inv @ A @ V1
    np.testing.assert_allclose(corrected, A_inv.T @ F2, atol=1e-10)
    assert np.max(np.abs(as_printed - A_inv.T @ F2)) > 1e-3


def test_heavy_body_on_so3_conserves_energy_and_keeps_the_pivot():
    # a spherical pendulum with a ball bob: a body on SO(3) under gravity (base acceleration)
    I = spatial_inertia(1.0, [0.0, 0.0, -1.0], np.diag([0.01, 0.01, 0.01]))
    g = np.array([0.0, 0.0, -9.81])

    def gravity(t, T, V):
        a = np.swapaxes(T[..., :3, :3], -1, -2) @ g
        return (I @ np.concatenate([np.zeros_like(a), a], -1)[..., None])[..., 0]

    R0 = np.array([[np.cos(1.0), 0, -np.sin(1.0)], [0, 1, 0], [np.sin(1.0), 0, np.cos(1.0)]])
    T0 = np.eye(4)
    T0[:3, :3] = R0
    V0 = np.concatenate([R0.T @ [0.0, 0.0, 0.5], np.zeros(3)])
    T, V = lb.simulate(I, T0, V0, 0.01, 200, F=gravity, group_name="SO3")
    E = kinetic_energy(I, V) + 9.81 * (T[:, :3, :3] @ [0.0, 0.0, -1.0])[:, 2]
    assert np.max(np.abs(E - E[0])) < 1e-6
    np.testing.assert_allclose(T[:, :3, 3], 0.0, atol=1e-14)          # the pivot stays put
    np.testing.assert_allclose(V[:, 3:], 0.0, atol=1e-14)             # V stays in so(3)
    # the vertical angular momentum about the pivot is conserved (gravity has no z moment)
    Lz = (T[:, :3, :3] @ (I @ V.T).T[:, :3, None])[:, 2, 0]
    assert np.max(np.abs(Lz - Lz[0])) < 1e-8
    with pytest.raises(ValueError, match="'V0': has components outside the Lie algebra of SO3"):
        lb.simulate(I, T0, np.ones(6), 0.01, 1, group_name="SO3")
