"""Errata of the source texts found in review, each shown numerically (errata appendix).

* Kim (2012), Section 4.2, lists d(ddq_v)/dp among the inputs of the hybrid-dynamics
  derivative; the input is d(ddq_u)/dp (ddq_v is an output, Table 4).
* From (2012), Section 4.2, the explicit SE(3) equations for a diagonal inertia: the last line
  prints ``+ I_y r q`` where Euler's equation has ``+ I_y p q``.
* From (2012), Section 4.3, after eq. (87): the Coriolis term of the rotational row of eq. (86)
  is ``c_3 = -v (m u) + u (m v) = 0``, not ``-m r v + m r u``.
* The RNEA notes, appendix: ``(Ad_T)^T = Ad_{T^-1}^T != Ad_T^{-T}`` is false twice:
  ``Ad_{T^-1}^T = Ad_T^{-T}`` always, and ``(Ad_T)^T`` equals neither.
* The RNEA notes, Section 3.1, call ``dT T^-1`` the body velocity; it is the spatial twist
  (``T^-1 dT`` is the body twist, as the notes' own appendix says).
"""
import numpy as np
import pytest

from liedyn import lie
from liedyn.body import newton_euler
from liedyn.derivatives import hybrid_derivative
from liedyn.hybrid_dynamics import hybrid
from liedyn.inertia import spatial_inertia
from liedyn.robots import random_tree

RNG = np.random.default_rng(17)


def random_T(rng):
    return lie.exp_se3(rng.normal(size=6))


def test_kim_sec_4_2_hybrid_derivative_takes_dddq_u_not_dddq_v():
    rng = np.random.default_rng(3)
    model = random_tree(5, rng, joint_types=["revolute", "prismatic"])
    prescribed = [True, False, True, False, False]
    u = np.array(prescribed)
    q, dq = rng.normal(size=model.nq), rng.normal(size=model.nv)
    ddq, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    base = hybrid_derivative(model, q, dq, ddq, tau, prescribed,
                             delta_ddq=np.zeros(model.nv))
    # a direction in ddq_u changes both outputs, d tau_u and d ddq_v ...
    e_u = np.where(u, rng.normal(size=model.nv), 0.0)
    d_tau, d_ddq = hybrid_derivative(model, q, dq, ddq, tau, prescribed, delta_ddq=e_u)
    assert np.abs(d_tau[u] - base[0][u]).max() > 1e-3
    assert np.abs(d_ddq[~u] - base[1][~u]).max() > 1e-3
    # ... and it is the derivative of Table 4's outputs (central differences)
    h = 1e-6
    plus = hybrid(model, q, dq, ddq + h * e_u, tau, prescribed)
    minus = hybrid(model, q, dq, ddq - h * e_u, tau, prescribed)
    np.testing.assert_allclose(d_tau[u], (plus[0] - minus[0])[u] / (2 * h), atol=1e-6)
    np.testing.assert_allclose(d_ddq[~u], (plus[1] - minus[1])[~u] / (2 * h), atol=1e-6)
    # a "given" ddq_v is ignored by hybrid dynamics: it cannot be an input of the derivative
    e_v = np.where(~u, rng.normal(size=model.nv), 0.0)
    again = hybrid(model, q, dq, ddq + e_v, tau, prescribed)
    np.testing.assert_allclose(again[0], hybrid(model, q, dq, ddq, tau, prescribed)[0])


def from_se3_lines(m, Ix, Iy, Iz, V, dV, printed):
    """From (2012), Sec. 4.2: the six explicit lines, V = (u, v, w, p, q, r) in his (v, w) order."""
    u, v, w, p, q, r = V
    du, dv, dw, dp, dq, dr = dV
    last = Iy * r * q if printed else Iy * p * q
    return np.array([m * du - m * r * v + m * q * w,
                     m * dv + m * r * u - m * p * w,
                     m * dw - m * q * u + m * p * v,
                     Ix * dp - Iy * r * q + Iz * q * r,
                     Iy * dq + Ix * r * p - Iz * p * r,
                     Iz * dr - Ix * q * p + last])


def test_from_explicit_se3_equations_last_line():
    m, Ix, Iy, Iz = 2.0, 0.4, 0.5, 0.7
    I = spatial_inertia(m, np.zeros(3), np.diag([Ix, Iy, Iz]))
    for _ in range(5):
        V, dV = RNG.normal(size=6), RNG.normal(size=6)            # From's (v, w) order
        F = newton_euler(I, np.r_[V[3:], V[:3]], np.r_[dV[3:], dV[:3]])   # liedyn's (w, v)
        tau = np.r_[F[3:], F[:3]]
        np.testing.assert_allclose(from_se3_lines(m, Ix, Iy, Iz, V, dV, printed=False), tau,
                                   atol=1e-12)
        printed = from_se3_lines(m, Ix, Iy, Iz, V, dV, printed=True)
        np.testing.assert_allclose(printed[:5], tau[:5], atol=1e-12)   # five lines are right
        assert abs(printed[5] - tau[5]) > 1e-3                          # the last is not


def test_from_c3_after_eq87():
    m, Iz = 1.5, 0.4
    for _ in range(5):
        u, v, r = RNG.normal(size=3)
        # eq. (86): the Coriolis column is -[[0, r, 0], [-r, 0, 0], [v, -u, 0]] (m u, m v, Iz r)
        C = -np.array([[0, r, 0], [-r, 0, 0], [v, -u, 0]]) @ np.array([m * u, m * v, Iz * r])
        np.testing.assert_allclose(C[:2], [-m * r * v, m * r * u])    # rows 1, 2 of eq. (87)
        assert abs(C[2]) < 1e-12                                      # c_3 = -v m u + u m v = 0
        assert abs(-m * r * v + m * r * u) > 1e-3                     # the printed c_3 is not 0


def test_rnea_notes_transpose_identity():
    for _ in range(5):
        T = random_T(RNG)
        Ad, Ad_of_inv = lie.Ad(T), lie.Ad(lie.inverse(T))
        np.testing.assert_allclose(Ad_of_inv.T, np.linalg.inv(Ad).T, atol=1e-10)  # "!=" false
        assert np.abs(Ad.T - Ad_of_inv.T).max() > 1e-2       # (Ad_T)^T = Ad_{T^-1}^T false
        assert np.abs(Ad.T - np.linalg.inv(Ad).T).max() > 1e-2


@pytest.mark.parametrize("trial", range(3))
def test_rnea_notes_dT_Tinv_is_the_spatial_twist(trial):
    rng = np.random.default_rng(trial)
    T0, xi = random_T(rng), rng.normal(size=6)
    h = 1e-6
    T = lambda t: T0 @ lie.exp_se3(t * xi)                     # body twist xi, constant
    dT = (T(h) - T(-h)) / (2 * h)
    body = lie.vee(lie.inverse(T0) @ dT)
    spatial = lie.vee(dT @ lie.inverse(T0))
    np.testing.assert_allclose(body, xi, atol=1e-8)
    np.testing.assert_allclose(spatial, lie.Ad(T0) @ xi, atol=1e-8)
    assert np.abs(spatial - xi).max() > 1e-2                  # dT T^-1 is not the body twist
