"""Tests of liedyn.symbolic: Lagrange's equations (Murray, Li and Sastry, Ch. 4)."""
import numpy as np
import pytest
import sympy

from liedyn import symbolic as sy
from liedyn.body import newton_euler
from liedyn.inertia import kinetic_energy, spatial_inertia

m, l, g, t = sympy.symbols("m l g t", positive=True)
th, ph, dth, dph = sympy.symbols("theta phi dtheta dphi")


def test_pendulum():
    L = m * l ** 2 * dth ** 2 / 2 + m * g * l * sympy.cos(th)
    tau, (ddth,) = sy.lagrange_equations(L, [th], [dth], t)
    assert sympy.simplify(tau[0] - (m * l ** 2 * ddth + m * g * l * sympy.sin(th))) == 0


def test_spherical_pendulum_by_hand():
    # theta from the downward vertical, phi the azimuth (Murray, Li and Sastry, Ch. 4)
    L = m * l ** 2 / 2 * (dth ** 2 + sympy.sin(th) ** 2 * dph ** 2) + m * g * l * sympy.cos(th)
    tau, (ddth, ddph) = sy.lagrange_equations(L, [th, ph], [dth, dph], t)
    s, c = sympy.sin(th), sympy.cos(th)
    expected = [m * l ** 2 * ddth - m * l ** 2 * s * c * dph ** 2 + m * g * l * s,
                m * l ** 2 * s ** 2 * ddph + 2 * m * l ** 2 * s * c * dth * dph]
    for e, x in zip(tau, expected, strict=True):
        assert sympy.simplify(e - x) == 0
    M, b = sy.mass_matrix_and_bias(tau, [ddth, ddph])
    assert M.det().subs(th, 0) == 0                           # singular at the pole
    assert sympy.simplify(M.det() - m ** 2 * l ** 4 * s ** 2) == 0


def test_spherical_pendulum_from_group_kinematics():
    # the same Lagrangian from R = Rz(phi) Ry(theta), the body twist and eq. (15)
    T = np.eye(4, dtype=object)
    T[:3, :3] = sy.axis_rotation([0, 0, 1], ph) @ sy.axis_rotation([0, 1, 0], th)
    V = sy.body_twist(T, [th, ph], [dth, dph])
    I = spatial_inertia(np.array(m, dtype=object), np.array([0, 0, -l], dtype=object),
                        np.zeros((3, 3), dtype=object))
    K = kinetic_energy(I, V)
    assert sympy.simplify(K - m * l ** 2 / 2 * (dth ** 2 + sympy.sin(th) ** 2 * dph ** 2)) == 0


def test_pendulum_lagrange_matches_newton_euler():
    # body frame at the pivot, rotating about z; COM at (l, 0, 0); gravity -g y as a base
    # acceleration (Kim footnote 6), expressed in the body frame: dV_0 = (0, R^T (0, g, 0))
    L = m * l ** 2 * dth ** 2 / 2 - m * g * l * sympy.sin(th)     # height of the COM: l sin
    tau, (ddth,) = sy.lagrange_equations(L, [th], [dth], t)
    vals = {m: 1.3, l: 0.7, g: 9.81, th: 0.4, dth: -1.1, ddth: 2.0}
    R = sy.axis_rotation([0, 0, 1], 0.4)
    I = spatial_inertia(1.3, [0.7, 0.0, 0.0], np.zeros((3, 3)))
    V = np.array([0, 0, -1.1, 0, 0, 0.0])
    dV = np.concatenate([[0, 0, 2.0], R.T @ [0.0, 9.81, 0.0]])
    assert np.isclose(float(tau[0].subs(vals)), newton_euler(I, V, dV)[2], rtol=1e-12)


def test_axis_rotation_numeric_and_symbolic_agree():
    R = sy.axis_rotation([0.0, 0.6, 0.8], 0.9)
    np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-14)
    Rs = sy.axis_rotation([0, sympy.Rational(3, 5), sympy.Rational(4, 5)], th)
    Rn = np.array(sympy.Matrix(Rs).subs(th, 0.9).evalf(), dtype=float)
    np.testing.assert_allclose(Rn, R, atol=1e-14)


def test_body_twist_of_a_screw():
    x, dx = sympy.symbols("x dx")
    T = np.eye(4, dtype=object)
    T[:3, :3] = sy.axis_rotation([0, 0, 1], th)
    T[:3, 3] = [x, 0, 0]
    V = sy.body_twist(T, [th, x], [dth, dx])
    expected = [0, 0, dth, dx * sympy.cos(th), -dx * sympy.sin(th), 0]   # R^T (dx, 0, 0)
    assert all(sympy.simplify(a - b) == 0 for a, b in zip(V, expected, strict=True))


def test_lagrange_rejects_mismatched_velocities():
    with pytest.raises(ValueError, match="'dq': expected 2 velocities"):
        sy.lagrange_equations(dth ** 2, [th, ph], [dth], t)


def test_to_object_array():
    a = sy.to_object_array([[1, th], [0, 2]])
    assert a.dtype == object and a.shape == (2, 2) and a[0, 1] == th


def test_boltzmann_hamel_se3_at_zero_is_newton_euler():
    # From (2012), eq. (26) in local exponential coordinates Q = Qbar exp(phi), evaluated at
    # phi = 0: Lagrange's equations of Lbar(phi, dphi) = |S(phi) dphi|_I^2 / 2 with
    # S = 1 - ad_phi / 2 are eq. (31). Only the terms of Lbar up to first order in phi enter
    # the equations at phi = 0, so Lbar is truncated there.
    from liedyn.lie import ad
    phi, dphi = sympy.symbols("phi1:7"), sympy.symbols("v1:7")
    rng = np.random.default_rng(10)
    masses, pts = rng.uniform(0.2, 1.0, 4), rng.normal(size=(4, 3))
    I_num = sum(spatial_inertia(mk, r, np.zeros((3, 3))) for mk, r in zip(masses, pts, strict=True))
    v, I_s = sympy.Matrix(dphi), sympy.Matrix(I_num)
    ad_phi = sympy.Matrix(ad(np.array(phi, dtype=object)))
    L_bar = sympy.expand((v.T * I_s * v)[0] / 2 - (v.T * I_s * ad_phi * v)[0] / 2)
    tau, ddphi = sy.lagrange_equations(L_bar, phi, dphi, t)
    V, dV = rng.normal(size=6), rng.normal(size=6)
    values = {**{p: 0 for p in phi}, **dict(zip(dphi, V, strict=True)),
              **dict(zip(ddphi, dV, strict=True))}
    tau_num = np.array([float(e.subs(values)) for e in tau])
    np.testing.assert_allclose(tau_num, newton_euler(I_num, V, dV), atol=1e-10)
