"""The notation appendix's dictionary between Featherstone (2008) and liedyn, checked.

Featherstone's spatial algebra is written here from the definitions in his book (Plücker
coordinates, angular part first): ``rot(E)``, ``xlt(r)``, ``crm(v) = v x``,
``crf(v) = v x* = -crm(v)^T`` and the spatial inertia about a frame whose origin is at ``c``
from the centre of mass. ``E`` rotates A-coordinates into B-coordinates and ``r`` is B's origin
in A-coordinates, so ``T_ab = (E^T, r)``. Every line of the appendix's table is one assertion.
"""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn.body import newton_euler
from liedyn.inertia import spatial_inertia, transform_inertia
from liedyn.lie import Ad, Ad_inv, Ad_star, ad, ad_star, exp_so3, make_transform


def cross_matrix(x):
    return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])


def X_motion(E, r):
    """Featherstone's ^B X_A = rot(E) xlt(r) = [[E, 0], [-E r x, E]]."""
    return np.block([[E, np.zeros((3, 3))], [-E @ cross_matrix(r), E]])


def X_force(E, r):
    """^B X_A^* = [[E, -E r x], [0, E]] (= ^B X_A^{-T})."""
    return np.block([[E, -E @ cross_matrix(r)], [np.zeros((3, 3)), E]])


def crm(v):
    return np.block([[cross_matrix(v[:3]), np.zeros((3, 3))],
                     [cross_matrix(v[3:]), cross_matrix(v[:3])]])


def crf(v):
    return -crm(v).T


def mcI(m, c, Ic):
    """Spatial inertia of a body of mass m, centre of mass at c, rotational inertia Ic about it."""
    C = cross_matrix(c)
    return np.block([[Ic + m * C @ C.T, m * C], [m * C.T, m * np.eye(3)]])


def random_motion(seed):
    """A rotation E, a translation r, a twist, an acceleration and a physical inertia."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(5, 3))                      # five unit point masses about their centre
    x -= x.mean(axis=0)
    Ic = sum(x_k @ x_k * np.eye(3) - np.outer(x_k, x_k) for x_k in x)
    return (exp_so3(rng.normal(size=3)), rng.normal(size=3), rng.normal(size=6),
            rng.normal(size=6), rng.normal(size=3), Ic, 5.0)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_featherstone_dictionary(seed):
    E, r, V, dV, c, Ic, m = random_motion(seed)
    T_ab = make_transform(E.T, r)
    # motion transform ^B X_A = Ad_{T_ba} = Ad_{T_ab}^-1, force transform ^B X_A^* = Ad*_{T_ab}
    assert np.allclose(X_motion(E, r), Ad_inv(T_ab), atol=1e-12)
    assert np.allclose(X_force(E, r), Ad_star(T_ab), atol=1e-12)
    assert np.allclose(X_force(E, r), np.linalg.inv(X_motion(E, r)).T, atol=1e-12)
    # v x = ad_V and v x* = -ad*_V (the sign trap)
    assert np.allclose(crm(V), ad(V), atol=1e-12)
    assert np.allclose(crf(V), -ad_star(V), atol=1e-12)
    # spatial inertia: the same matrix as Kim's eq. (22)
    I = mcI(m, c, Ic)
    assert np.allclose(I, spatial_inertia(m, c, Ic), atol=1e-12)
    # ^B I = ^B X_A^* ^A I ^A X_B  is Kim's eq. (21) with T = T_ab
    assert np.allclose(X_force(E, r) @ I @ np.linalg.inv(X_motion(E, r)),
                       transform_inertia(I, T_ab), atol=1e-10)
    # equation of motion: f = I a + v x* I v  is Kim's eq. (31)
    assert np.allclose(I @ dV + crf(V) @ I @ V, newton_euler(I, V, dV), atol=1e-10)
    # ^A X_B = Ad_{T_ab}: the inverse direction
    assert np.allclose(np.linalg.inv(X_motion(E, r)), Ad(T_ab), atol=1e-10)


def test_the_sign_trap_is_real():
    """crf(v) and ad*_V differ in sign, so copying a Featherstone formula verbatim is wrong."""
    V = np.array([0.3, -0.2, 0.5, 1.0, 0.4, -0.7])
    assert not np.allclose(crf(V), ad_star(V))
