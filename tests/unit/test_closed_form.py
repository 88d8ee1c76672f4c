"""liedyn.closed_form: Murray-Li-Sastry's stacked closed form against the recursive algorithms.

* ``M``, ``C dq``, ``phi``, ``J_t`` against CRBA, the bias force, the gravity torque and the
  frame Jacobian on random serial chains of revolute, prismatic, helical and screw joints;
* the stacked recursions ``V = G xi dq``, ``dV = G xi ddq + G P_0 dV_0 + G ad Gamma V``,
  ``F = G^T Mb dV + G^T ad_V^T Mb V``, ``tau = xi^T F`` against the RNEA's intermediates;
* Property 4 (``Gamma^n = 0``, ``G = 1 + ... + Gamma^(n-1)``, ``1 + Gamma G = G``);
* the notes' ``C`` is a factorization of ``C dq`` but not skew-consistent, the modified one is
  ``crba.coriolis_matrix``;
* the worked 3-DOF example of the notes (errata: xi_2, xi_3, M_22, Gamma_112, J_3, V(theta));
* batching, sympy input, and clear errors for trees, multi-DOF joints and bad inputs.
"""
import numpy as np
import pytest
import sympy
from hypothesis import given, settings

from liedyn import joints as J
from liedyn.closed_form import closed_form_matrices, property4
from liedyn.crba import bias_force, coriolis_matrix, gravity_torque, mass_matrix, potential_energy
from liedyn.inertia import spatial_inertia
from liedyn.inverse_dynamics import rnea, rnea_pass
from liedyn.kinematics import body_accelerations, body_jacobian, forward_kinematics, frame_jacobian
from liedyn.lie import Ad_inv, exp_se3, make_transform
from liedyn.model import Model
from liedyn.robots import planar_arm, random_tree, serial_chain

from common import relerr
from strategies import seeds

SETTINGS = settings(max_examples=25, deadline=None)
SCREW_JOINTS = ("revolute", "prismatic", "helical", "screw")
P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])  # (v, w) <-> (w, v)


def random_chain(seed, n_max=6):
    rng = np.random.default_rng(seed)
    model = random_tree(int(rng.integers(1, n_max + 1)), rng, joint_types=SCREW_JOINTS,
                        branching=0.0)
    q, dq, ddq = rng.normal(size=(3, model.nv))
    return model, q, dq, ddq, rng


@SETTINGS
@given(seeds)
def test_closed_form_equals_recursive_algorithms(seed):
    model, q, dq, _, rng = random_chain(seed)
    tool = exp_se3(rng.normal(size=6))
    cf = closed_form_matrices(model, q, dq, tool=tool)
    assert relerr(cf.M, mass_matrix(model, q)) < 1e-12
    assert relerr(cf.C @ dq, bias_force(model, q, dq) - gravity_torque(model, q)) < 1e-12
    assert relerr(cf.phi, gravity_torque(model, q)) < 1e-12
    assert relerr(cf.Jt, frame_jacobian(model, q, model.nbodies, tool)) < 1e-12
    assert relerr(cf.C_christoffel, coriolis_matrix(model, q, dq)) < 1e-12


@SETTINGS
@given(seeds)
def test_stacked_recursions_equal_rnea_intermediates(seed):
    model, q, dq, ddq, _ = random_chain(seed)
    cf = closed_form_matrices(model, q, dq)
    n = model.nbodies
    dV0 = np.concatenate([np.zeros(3), -model.gravity])
    G, Gamma, xi = cf.G, cf.Gamma, cf.xi
    dV = G @ xi @ ddq + G @ cf.P0 @ dV0 + G @ cf.ad_xi_dq @ Gamma @ cf.V     # V_0 = 0
    assert relerr(dV, body_accelerations(model, q, dq, ddq, gravity=True)[1:].ravel()) < 1e-12
    F = G.T @ cf.Mb @ dV + G.T @ cf.ad_V_T @ cf.Mb @ cf.V
    assert relerr(F, np.concatenate(rnea_pass(model, q, dq, ddq).F[1:])) < 1e-12
    assert relerr(xi.T @ F, rnea(model, q, dq, ddq)) < 1e-12
    assert relerr(cf.M @ ddq + cf.C @ dq + cf.phi, rnea(model, q, dq, ddq)) < 1e-12
    assert cf.G.shape == (6 * n, 6 * n) and cf.xi.shape == (6 * n, n) and cf.P0.shape == (6 * n, 6)


@SETTINGS
@given(seeds)
def test_property4(seed):
    model, q, dq, _, _ = random_chain(seed)
    n = model.nbodies
    cf = closed_form_matrices(model, q, dq)
    p4 = property4(cf.Gamma)
    assert len(p4.powers) == n + 1
    assert np.max(np.abs(p4.powers[n])) == 0.0                       # Gamma^n = 0 exactly
    if n > 1:
        assert np.max(np.abs(p4.powers[n - 1])) > 0.1                # but Gamma^(n-1) != 0
    assert relerr(p4.G_series, cf.G) < 1e-13
    assert relerr(np.linalg.inv(np.eye(6 * n) - cf.Gamma), cf.G) < 1e-10
    assert relerr(np.eye(6 * n) + cf.Gamma @ cf.G, cf.G) < 1e-13


def test_G_blocks_are_adjoints_of_relative_transforms():
    model, q, dq, _, _ = random_chain(7)
    cf = closed_form_matrices(model, q, dq)
    Tw = forward_kinematics(model, q).T_world
    for i in range(1, model.nbodies + 1):
        for j in range(1, model.nbodies + 1):
            block = cf.G[6 * (i - 1):6 * i, 6 * (j - 1):6 * j]
            if i >= j:
                assert relerr(block, Ad_inv(np.linalg.inv(Tw[j]) @ Tw[i])) < 1e-12
            else:
                assert np.all(block == 0)                      # never written: exact


def test_murray_coriolis_factorization_is_not_skew_consistent():
    """The notes' C gives the right C dq, but dM/dt - 2C is not skew; C_christoffel's is."""
    model = serial_chain(3)
    q, dq = np.array([0.3, -0.2, 0.5]), np.array([1.0, -0.5, 2.0])
    cf = closed_form_matrices(model, q, dq)
    h = 1e-6
    Mdot = (mass_matrix(model, q + h * dq) - mass_matrix(model, q - h * dq)) / (2 * h)
    N, N_chr = Mdot - 2 * cf.C, Mdot - 2 * cf.C_christoffel
    assert np.max(np.abs(N + N.T)) > 0.1
    assert np.max(np.abs(N_chr + N_chr.T)) < 1e-8
    assert relerr(cf.C @ dq, cf.C_christoffel @ dq) < 1e-12


def test_batched_and_symbolic():
    model = serial_chain(3, joint="helical")
    rng = np.random.default_rng(3)
    q, dq = rng.normal(size=(2, 4, 2, 3))
    cf = closed_form_matrices(model, q, dq)
    assert cf.M.shape == (4, 2, 3, 3) and cf.G.shape == (4, 2, 18, 18) and cf.phi.shape == (4, 2, 3)
    assert relerr(cf.M[1, 1], closed_form_matrices(model, q[1, 1], dq[1, 1]).M) < 1e-14
    arm = planar_arm(2)
    qs = np.array(sympy.symbols("q1 q2"), dtype=object)
    dqs = np.array(sympy.symbols("dq1 dq2"), dtype=object)
    cf_sym = closed_form_matrices(arm, qs, dqs)
    assert cf_sym.M.dtype == object
    f = sympy.lambdify(list(qs) + list(dqs), sympy.Matrix(cf_sym.C))
    C_num = closed_form_matrices(arm, [0.3, 0.5], [1.0, -2.0]).C
    assert relerr(f(0.3, 0.5, 1.0, -2.0), C_num) < 1e-14
    assert property4(cf_sym.Gamma).powers[2].dtype == object
    h, e = 1e-30, np.array([0.0, 1.0, 0.0])                 # complex step in q_2
    dM = closed_form_matrices(model, q[0, 0] + 1j * h * e, dq[0, 0]).M.imag / h
    fd = (mass_matrix(model, q[0, 0] + 1e-6 * e) - mass_matrix(model, q[0, 0] - 1e-6 * e)) / 2e-6
    assert relerr(dM, fd) < 1e-8


def test_errors():
    rng = np.random.default_rng(0)
    tree = random_tree(4, rng, joint_types=("revolute",), branching=1.0)
    while all(tree.parent[i] == i - 1 for i in range(1, 5)):
        tree = random_tree(4, rng, joint_types=("revolute",), branching=1.0)
    with pytest.raises(ValueError, match="serial chain"):
        closed_form_matrices(tree, np.zeros(4), np.zeros(4))
    for kind in ("universal", "spherical", "fixed", "planar"):
        chain = serial_chain(2, joint=kind)
        with pytest.raises(ValueError, match="one-degree-of-freedom"):
            closed_form_matrices(chain, chain.neutral_configuration(), np.zeros(chain.nv))
    model = serial_chain(3)
    with pytest.raises(ValueError, match=r"argument 'q'.*shape"):
        closed_form_matrices(model, np.zeros(2), np.zeros(3))
    with pytest.raises(ValueError, match=r"argument 'dq'.*NaN"):
        closed_form_matrices(model, np.zeros(3), [0.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="argument 'tool'"):
        closed_form_matrices(model, np.zeros(3), np.zeros(3), tool=np.ones((4, 4)))
    with pytest.raises(ValueError, match="argument 'Gamma'"):
        property4(np.zeros((5, 5)))
    with pytest.raises(ValueError, match="at least one body"):
        closed_form_matrices(Model(), np.zeros(0), np.zeros(0))


# ---------------------------------------------------------------------------------------------
# The 3-DOF example of the notes ("Dynamics of a 3-dof robot"): errata
# ---------------------------------------------------------------------------------------------
L0, L1, R0, R1, R2 = 0.7, 0.9, 0.3, 0.4, 0.35
MASS = (1.3, 2.1, 1.7)
INERTIA = ((0.02, 0.03, 0.04), (0.05, 0.11, 0.07), (0.06, 0.13, 0.09))   # (Ix, Iy, Iz) per link
GRAV = 9.81


def murray_elbow(printed=False):
    """The notes' 3-DOF robot, link frames L_i at the centres of mass, as a liedyn model.

    ``g_{sl_i}(theta) = exp(xi_1 theta_1) ... exp(xi_i theta_i) g_{sl_i}(0)``, so
    ``T_{i-1,i} = g_{sl_{i-1}}(0)^-1 g_{sl_i}(0) exp(Ad_{g_{sl_i}(0)^-1} xi_i theta_i)``.
    ``printed``: xi_2, xi_3 with the printed last entry 1 (w = (-1, 0, 1)).
    """
    w_last = 1.0 if printed else 0.0
    xi = [np.array([0, 0, 1, 0, 0, 0.0]),                         # (w, v): z through 0
          np.array([-1, 0, w_last, 0, -L0, 0.0]),                 # -x through (0, 0, l0)
          np.array([-1, 0, w_last, 0, -L0, L1])]                  # -x through (0, l1, l0)
    p = [np.zeros(3), np.array([0, 0, R0]), np.array([0, R1, L0]), np.array([0, L1 + R2, L0])]
    model = Model(gravity=(0, 0, -GRAV), name="Murray's 3-DOF robot")
    for i in range(1, 4):
        g0 = make_transform(np.eye(3), p[i])
        model.add_body(f"link{i}", i - 1, J.Screw(Ad_inv(g0) @ xi[i - 1]),
                       placement=make_transform(np.eye(3), p[i] - p[i - 1]),
                       inertia=spatial_inertia(MASS[i - 1], np.zeros(3), np.diag(INERTIA[i - 1])))
    return model


def murray_M(th, printed=False):
    (_, m2, m3), ((_, _, Iz1), (Ix2, Iy2, Iz2), (Ix3, Iy3, Iz3)) = MASS, INERTIA
    s2, c2, c3 = np.sin(th[1]), np.cos(th[1]), np.cos(th[2])
    s23, c23 = np.sin(th[1] + th[2]), np.cos(th[1] + th[2])
    M11 = (Iy2 * s2 ** 2 + Iy3 * s23 ** 2 + Iz1 + Iz2 * c2 ** 2 + Iz3 * c23 ** 2
           + m2 * R1 ** 2 * c2 ** 2 + m3 * (L1 * c2 + R2 * c23) ** 2)
    if printed:                              # "M_22 = I_x2 + I_x3 + m_2 l_1^2 + M_2 r_1^2 + ..."
        M22 = Ix2 + Ix3 + m2 * L1 ** 2 + m2 * R1 ** 2 + m3 * R2 ** 2 + 2 * m3 * L1 * R2 * c3
    else:
        M22 = Ix2 + Ix3 + m3 * L1 ** 2 + m2 * R1 ** 2 + m3 * R2 ** 2 + 2 * m3 * L1 * R2 * c3
    M23 = Ix3 + m3 * R2 ** 2 + m3 * L1 * R2 * c3
    M33 = Ix3 + m3 * R2 ** 2
    return np.array([[M11, 0, 0], [0, M22, M23], [0, M23, M33]])


def murray_gamma_112(th, printed=False):
    m2, m3 = MASS[1], MASS[2]
    (_, Iy2, Iz2), (_, Iy3, Iz3) = INERTIA[1], INERTIA[2]
    s2, c2 = np.sin(th[1]), np.cos(th[1])
    s23, c23 = np.sin(th[1] + th[2]), np.cos(th[1] + th[2])
    t = m3 * (L1 * c2 + R2 * c23)
    first = Iy2 if printed else Iy3                 # printed: (I_y2 - I_z3) c23 s23
    return ((Iy2 - Iz2 - m2 * R1 ** 2) * c2 * s2 + (first - Iz3) * c23 * s23
            - t * (L1 * s2 + R2 * s23))


def christoffel(model, q, h=1e-6):
    dM = np.stack([(mass_matrix(model, q + h * e) - mass_matrix(model, q - h * e)) / (2 * h)
                   for e in np.eye(model.nv)])                     # dM[k, i, j]
    return (np.transpose(dM, (1, 2, 0)) + np.transpose(dM, (1, 0, 2))
            - np.transpose(dM, (0, 2, 1))) / 2                  # Gamma[i, j, k]


@pytest.mark.parametrize("seed", range(5))
def test_murray_3dof_example_and_its_errata(seed):
    model = murray_elbow()
    th = np.random.default_rng(seed).uniform(-np.pi, np.pi, 3)
    M = mass_matrix(model, th)
    assert relerr(closed_form_matrices(model, th, np.zeros(3)).M, M) < 1e-12
    # M: all entries as printed except M_22, whose "m_2 l_1^2 + M_2 r_1^2" is m_3 l_1^2 + m_2 r_1^2
    assert relerr(M, murray_M(th)) < 1e-12
    assert relerr(M, murray_M(th, printed=True)) > 1e-3
    # Christoffel symbols (1-based in the notes): Gamma_112 has I_y3, not I_y2; the rest as printed
    G = christoffel(model, th)
    s3, s23, c23 = np.sin(th[2]), np.sin(th[1] + th[2]), np.cos(th[1] + th[2])
    t = MASS[2] * (L1 * np.cos(th[1]) + R2 * c23)
    g113 = (INERTIA[2][1] - INERTIA[2][2]) * c23 * s23 - t * R2 * s23
    assert abs(G[0, 0, 1] - murray_gamma_112(th)) < 1e-7
    assert abs(G[0, 0, 1] - murray_gamma_112(th, printed=True)) > 1e-3
    assert abs(G[0, 1, 0] - murray_gamma_112(th)) < 1e-7                         # Gamma_121
    assert abs(G[1, 0, 0] + murray_gamma_112(th)) < 1e-7                         # Gamma_211
    assert abs(G[0, 0, 2] - g113) < 1e-7 and abs(G[0, 2, 0] - g113) < 1e-7      # Gamma_113, 131
    assert abs(G[2, 0, 0] + g113) < 1e-7                                         # Gamma_311
    lmr = L1 * MASS[2] * R2 * s3
    for ijk in [(1, 1, 2), (1, 2, 1), (1, 2, 2)]:                                # 223, 232, 233
        assert abs(G[ijk] + lmr) < 1e-7
    assert abs(G[2, 1, 1] - lmr) < 1e-7                                          # Gamma_322
    # body Jacobians in the notes' (v, w) order: J_3[0, 0] is -l_1 c2 - r_2 c23 (printed l_2)
    s2, c2 = np.sin(th[1]), np.cos(th[1])
    J2 = np.array([[-R1 * c2, 0, 0], [0, 0, 0], [0, -R1, 0], [0, -1, 0], [-s2, 0, 0], [c2, 0, 0]])
    J3 = np.array([[-L1 * c2 - R2 * c23, 0, 0], [0, L1 * s3, 0], [0, -R2 - L1 * np.cos(th[2]), -R2],
                   [0, -1, -1], [-s23, 0, 0], [c23, 0, 0]])
    assert relerr(P @ body_jacobian(model, th, 2), J2) < 1e-12
    assert relerr(P @ body_jacobian(model, th, 3), J3) < 1e-12
    # potential: V = m1 g h1 + m2 g h2 + m3 g h3 (printed: m2 g h3), h2 = l0 - r1 sin(theta_2)
    h = [R0, L0 - R1 * s2, L0 - L1 * s2 - R2 * s23]
    assert abs(potential_energy(model, th) - GRAV * np.dot(MASS, h)) < 1e-12
    printed = GRAV * (MASS[0] * h[0] + MASS[1] * h[1] + MASS[1] * h[2])
    assert abs(potential_energy(model, th) - printed) > 1e-3


def test_murray_3dof_printed_twists_contradict_printed_jacobian():
    """xi_2, xi_3 are printed as (0, -l0, 0, -1, 0, 1), (0, -l0, l1, -1, 0, 1) ((v, w) order):
    w = (-1, 0, 1) is not a unit axis, and the printed J_2 (second column w = (-1, 0, 0))
    only holds with a last entry 0."""
    th = np.array([0.4, -0.9, 1.3])
    J2_col2 = np.array([0, 0, -R1, -1, 0, 0])                     # printed J_2, (v, w)
    assert relerr(P @ body_jacobian(murray_elbow(), th, 2)[:, 1], J2_col2) < 1e-12
    assert relerr(P @ body_jacobian(murray_elbow(printed=True), th, 2)[:, 1], J2_col2) > 0.1
