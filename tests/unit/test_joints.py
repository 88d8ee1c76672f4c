"""Tests of liedyn.joints: every joint's transform, Jacobian S, its derivative dS, and its manifold.

The reference values are derivatives of ``transform`` taken here, by the complex step
(``f(x + i h)`` with ``h = 1e-30``: no subtraction, so exact to round-off), never the joint's own
``S``. For the quaternion joints (Spherical, Free) the perturbation goes through ``integrate``:
``q (+) i h e_k = q exp(i h e_k)``, the right (body-frame) perturbation of DESIGN.md.

Also here: the misplaced inverse in the definition of ``S_i`` below Kim (2012), eq. (42), as printed
(``T^-1 dT^-1/dq`` is printed; ``T^-1 dT/dq`` is right), see the errata appendix, chapter 4.
"""
import numpy as np
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn import joints as J
from liedyn import lie
from liedyn.model import Model

from common import translation
from strategies import seeds

SETTINGS = settings(max_examples=20, deadline=None)
H = 1e-30          # complex step
TOL = 1e-12


# ---------------------------------------------------------------------------------------------
# helpers (written here, independent of the code under test)
# ---------------------------------------------------------------------------------------------
def unit(rng):
    a = rng.normal(size=3)
    return a / np.linalg.norm(a)


def inv(T):
    R, p = T[:3, :3], T[:3, 3]
    Ti = np.eye(4, dtype=T.dtype)
    Ti[:3, :3], Ti[:3, 3] = R.T, -R.T @ p
    return Ti


def vee(X):
    """(w, v) of a 4x4 matrix in se(3) (reads the lower triangle of the rotation block)."""
    return np.array([X[2, 1], X[0, 2], X[1, 0], X[0, 3], X[1, 3], X[2, 3]])


def is_se3(X, tol=1e-9):
    """True if ``X`` is the 4x4 matrix of a twist: skew rotation block, zero last row."""
    return (np.max(np.abs(X[:3, :3] + X[:3, :3].T)) < tol and np.max(np.abs(X[3])) < tol)


JOINT_KINDS = ("revolute", "prismatic", "helical", "screw", "screw_translation", "universal",
               "planar", "spherical", "spherical_zyx", "spherical_exp", "free", "fixed")
GROUP_JOINTS = (J.Spherical, J.Free)       # configuration on a group, nq != nv


def make_joint(kind, rng):
    """A joint of the given kind with random (valid) axes."""
    if kind == "revolute":
        return J.Revolute(rng.normal(size=3))
    if kind == "prismatic":
        return J.Prismatic(rng.normal(size=3))
    if kind == "helical":
        return J.Helical(rng.normal(size=3), rng.uniform(-0.5, 0.5))
    if kind == "screw":
        return J.Screw(rng.normal(size=6))
    if kind == "screw_translation":
        return J.Screw(np.concatenate([np.zeros(3), rng.normal(size=3)]))
    if kind == "universal":
        a1 = unit(rng)
        return J.Universal(a1, np.cross(a1, unit(rng)))
    return {"planar": J.Planar, "spherical": J.Spherical, "spherical_zyx": J.SphericalZYX,
            "spherical_exp": J.SphericalExp, "free": J.Free, "fixed": J.Fixed}[kind]()


def perturb(joint, q, d):
    """``q (+) d``: through ``integrate`` for group joints, ``q + d`` otherwise (d may be
    complex)."""
    if isinstance(joint, GROUP_JOINTS):
        return joint.integrate(q.astype(complex), d)
    return q + d


def cs_body_jacobian(joint, q):
    """``[vee(T^-1 dT/dq^k)]_k`` with ``dT/dq^k`` by the complex step through ``perturb``."""
    T = joint.transform(q).real
    cols = []
    for k in range(joint.nv):
        d = np.zeros(joint.nv, dtype=complex)
        d[k] = 1j * H
        dT = joint.transform(perturb(joint, q, d)).imag / H
        cols.append(vee(inv(T) @ dT))
    return np.array(cols).T.reshape(6, joint.nv)


def draw_q(joint, rng, kind):
    """A configuration: the joint's random draw, or one near the identity (Taylor branches)."""
    if kind == "random":
        return joint.random(rng)
    d = rng.normal(size=joint.nv) * 1e-7
    return joint.integrate(joint.neutral(), d)


draws = st.sampled_from(("random", "random", "near_neutral"))


# ---------------------------------------------------------------------------------------------
# S, dS
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", JOINT_KINDS)
@SETTINGS
@given(seed=seeds, draw=draws)
def test_S_is_body_frame_derivative_of_transform(kind, seed, draw):
    rng = np.random.default_rng(seed)
    joint = make_joint(kind, rng)
    q = draw_q(joint, rng, draw)
    S = joint.S(q)
    assert S.shape == (6, joint.nv)
    np.testing.assert_allclose(S, cs_body_jacobian(joint, q), rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", JOINT_KINDS)
@SETTINGS
@given(seed=seeds, draw=draws)
def test_dS_is_derivative_of_S_along_dq(kind, seed, draw):
    rng = np.random.default_rng(seed)
    joint = make_joint(kind, rng)
    q = draw_q(joint, rng, draw)
    dq = rng.normal(size=joint.nv)
    expected = joint.S(perturb(joint, q, 1j * H * dq)).imag / H
    np.testing.assert_allclose(joint.dS(q, dq), expected, rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", ["universal", "planar", "spherical_zyx", "spherical_exp"])
def test_dS_nonzero_for_configuration_dependent_S(kind):
    rng = np.random.default_rng(1)
    joint = make_joint(kind, rng)
    q = joint.random(rng)
    assert np.max(np.abs(joint.dS(q, rng.normal(size=joint.nv)))) > 1e-3


@pytest.mark.parametrize("kind", ["revolute", "prismatic", "helical", "screw", "spherical",
                                  "free", "fixed"])
def test_dS_zero_for_constant_S(kind):
    rng = np.random.default_rng(2)
    joint = make_joint(kind, rng)
    q = joint.random(rng)
    # constants of the joint, not computed from q: exact
    assert np.all(joint.dS(q, rng.normal(size=joint.nv)) == 0)
    np.testing.assert_array_equal(joint.S(q), joint.S(joint.random(rng)))


@pytest.mark.parametrize("kind", JOINT_KINDS)
def test_batched_transform_S_dS(kind):
    rng = np.random.default_rng(3)
    joint = make_joint(kind, rng)
    q = np.array([[joint.random(rng) for _ in range(3)] for _ in range(2)])
    dq = rng.normal(size=(2, 3, joint.nv))
    T, S, dS = joint.transform(q), joint.S(q), joint.dS(q, dq)
    assert T.shape == (2, 3, 4, 4) and S.shape == (2, 3, 6, joint.nv)
    assert dS.shape == (2, 3, 6, joint.nv)
    for a in range(2):
        for b in range(3):
            np.testing.assert_allclose(T[a, b], joint.transform(q[a, b]), rtol=0, atol=1e-15)
            np.testing.assert_allclose(S[a, b], joint.S(q[a, b]), rtol=0, atol=1e-15)
            np.testing.assert_allclose(dS[a, b], joint.dS(q[a, b], dq[a, b]), rtol=0, atol=1e-15)


# ---------------------------------------------------------------------------------------------
# The seed's definition below eq. (42): T^-1 dT^-1/dq (printed) vs T^-1 dT/dq (right)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["revolute", "helical", "universal", "spherical_exp"])
def test_printed_S_below_eq42_is_not_the_joint_jacobian(kind):
    """With ``T = T_{lambda(i),i}(q) = X J(q)``: ``vee(T^-1 dT/dq)`` is the body Jacobian ``S``
    (the relative twist is ``S dq``, Kim (2012) eq. (37)); the printed ``T^-1 dT^-1/dq`` is a
    different matrix, here (a random placement) not even an element of se(3)."""
    rng = np.random.default_rng(4)
    joint = make_joint(kind, rng)
    X = lie.make_transform(lie.exp_so3(rng.normal(size=3)), rng.normal(size=3))
    q = joint.random(rng)
    T = X @ joint.transform(q)
    S = joint.S(q)
    for k in range(joint.nv):
        dq = np.zeros(joint.nv, dtype=complex)
        dq[k] = 1j * H
        Tq = X @ joint.transform(q + dq)
        dT = Tq.imag / H
        dTinv = inv(Tq).imag / H                      # d(T^-1)/dq^k by the complex step
        right = inv(T) @ dT
        printed = inv(T) @ dTinv
        assert is_se3(right)
        np.testing.assert_allclose(vee(right), S[:, k], rtol=0, atol=TOL)
        assert not is_se3(printed)
        assert np.max(np.abs(printed - lie.hat(S[:, k]))) > 0.1


def printed_S(X, joint, q):
    """Kim's printed ``T^-1 dT^-1/dq`` for a one-DOF joint behind placement X (complex step)."""
    Tq = X @ joint.transform(np.asarray(q, dtype=complex) + 1j * H)
    return inv(X @ joint.transform(q)) @ (inv(Tq).imag / H)


def test_printed_S_below_eq42_can_be_a_twist_and_still_wrong():
    """Why the printed form is rejected: not because it leaves se(3) (it need not), but because
    ``S dq`` must be the relative twist ``T^-1 dT/dt`` of eq. (37), and it is not."""
    # a prismatic joint behind a pure translation: printed is in se(3), but it is -S
    X = lie.make_transform(np.eye(3), [0.3, -1.0, 2.0])
    slide = J.Prismatic([0.0, 0.6, 0.8])
    P = printed_S(X, slide, [0.7])
    assert is_se3(P)
    np.testing.assert_allclose(vee(P), -slide.S([0.7])[:, 0], atol=TOL)
    # a revolute joint about z at q = pi/2 (identity placement): in se(3) and even equal to S,
    # while at q = 0 it is -S and at q = 1 not a twist: no fixed rule turns it into S
    rev = J.Revolute([0, 0, 1])
    S = rev.S([0.0])[:, 0]
    np.testing.assert_allclose(vee(printed_S(np.eye(4), rev, [np.pi / 2])), S, atol=TOL)
    np.testing.assert_allclose(printed_S(np.eye(4), rev, [0.0]), -lie.hat(S), atol=TOL)
    assert not is_se3(printed_S(np.eye(4), rev, [1.0]))


# ---------------------------------------------------------------------------------------------
# Manifold: integrate, difference, neutral, random
# ---------------------------------------------------------------------------------------------
def same_configuration(joint, q0, q1, tol):
    """Compare configurations through their transforms (q and -q are the same rotation)."""
    return np.max(np.abs(joint.transform(q0) - joint.transform(q1))) <= tol


@pytest.mark.parametrize("kind", JOINT_KINDS)
@SETTINGS
@given(seed=seeds)
def test_integrate_difference_round_trip(kind, seed):
    rng = np.random.default_rng(seed)
    joint = make_joint(kind, rng)
    q0, q1 = joint.random(rng), joint.random(rng)
    v = joint.difference(q0, q1)
    assert v.shape == (joint.nv,)
    assert same_configuration(joint, joint.integrate(q0, v), q1, 1e-12)
    w = rng.normal(size=joint.nv) * 0.5                # rotations below pi: difference inverts
    np.testing.assert_allclose(joint.difference(q0, joint.integrate(q0, w)), w, rtol=0, atol=1e-12)
    np.testing.assert_allclose(joint.integrate(q0, w, 0.5), joint.integrate(q0, w / 2),
                               rtol=0, atol=1e-15)


@pytest.mark.parametrize("kind", JOINT_KINDS)
@SETTINGS
@given(seed=seeds)
def test_integrate_follows_S(kind, seed):
    """Moving with velocity ``v`` for a short time ``h`` changes ``T`` by ``T hat(S v) h``."""
    rng = np.random.default_rng(seed)
    joint = make_joint(kind, rng)
    q, v = joint.random(rng), rng.normal(size=joint.nv)
    T = joint.transform(q)
    dT = joint.transform(joint.integrate(q.astype(complex), v, 1j * H)).imag / H
    np.testing.assert_allclose(inv(T) @ dT, lie.hat(joint.S(q) @ v), rtol=0, atol=TOL)


@pytest.mark.parametrize("kind", JOINT_KINDS)
def test_neutral_is_identity(kind):
    rng = np.random.default_rng(5)
    joint = make_joint(kind, rng)
    q0 = joint.neutral()
    assert q0.shape == (joint.nq,)
    np.testing.assert_allclose(joint.transform(q0), np.eye(4), rtol=0, atol=1e-15)
    np.testing.assert_allclose(joint.difference(q0, q0), np.zeros(joint.nv), atol=1e-15)


@pytest.mark.parametrize("kind", JOINT_KINDS)
def test_random_is_valid_and_seeded(kind):
    joint = make_joint(kind, np.random.default_rng(6))
    a = joint.random(np.random.default_rng(7))
    b = joint.random(np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)                 # the same draw of the same seed
    assert a.shape == (joint.nq,) and np.all(np.isfinite(a))
    T = joint.transform(a)
    np.testing.assert_allclose(T[:3, :3].T @ T[:3, :3], np.eye(3), atol=1e-12)
    joint.check_q(a)


# ---------------------------------------------------------------------------------------------
# Construction and validation
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [J.Revolute, J.Prismatic, J.Helical])
def test_axes_are_normalised(cls):
    joint = cls([0.0, 3.0, 4.0])
    np.testing.assert_allclose(joint.axis, [0.0, 0.6, 0.8], atol=1e-16)
    u = J.Universal([2.0, 0, 0], [0, 0, -5.0])
    np.testing.assert_allclose(u.axis1, [1, 0, 0])
    np.testing.assert_allclose(u.axis2, [0, 0, -1])


@pytest.mark.parametrize("make", [
    lambda: J.Revolute([0, 0, 0]), lambda: J.Prismatic([0, 0, 0]), lambda: J.Helical([0, 0, 0]),
    lambda: J.Revolute([0, 0, np.nan]), lambda: J.Revolute([1, 0]),
    lambda: J.Universal([0, 0, 0], [1, 0, 0]), lambda: J.Universal([1, 0, 0], [0, 0, 0]),
    lambda: J.Universal([1, 0, 0], [-2, 0, 0]), lambda: J.Universal([0, 1, 1], [0, 1, 1]),
    lambda: J.Screw(np.zeros(6)), lambda: J.Screw([1, 0, 0]), lambda: J.Screw([np.inf] * 6),
    lambda: J.Helical([0, 0, 1], pitch=np.nan),
])
def test_bad_axes_raise(make):
    with pytest.raises(ValueError, match="axis|axes|screw|pitch"):
        make()


@pytest.mark.parametrize("joint, block", [(J.Spherical(), slice(0, 4)), (J.Free(), slice(3, 7))])
def test_non_unit_quaternion_raises(joint, block):
    q = joint.neutral()
    q[block] *= 1 + 10 * J.QUAT_TOL
    with pytest.raises(ValueError, match="quaternion"):
        joint.check_q(q)
    q = joint.random(np.random.default_rng(8))
    q[block] *= 1 + 0.1 * J.QUAT_TOL                       # within tolerance: accepted,
    joint.check_q(q)
    R = joint.transform(q)[:3, :3]                          # and normalised in transform
    np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-15)


def test_non_unit_quaternion_in_a_model_names_the_body():
    model = Model()
    model.add_body("ball", 0, J.Spherical())
    with pytest.raises(ValueError, match="ball.*quaternion"):
        model.check_q([1.0, 0.1, 0.0, 0.0])


# ---------------------------------------------------------------------------------------------
# Screw joints: equivalences
# ---------------------------------------------------------------------------------------------
@SETTINGS
@given(seed=seeds)
def test_revolute_screw_through_a_point_is_a_shifted_revolute(seed):
    """``A = (a, -a x r)``: ``exp(A q) = Trans(r) Rot(a, q) Trans(-r)``; with a pitch ``h``,
    ``A = (a, -a x r + h a)`` is a shifted Helical joint."""
    rng = np.random.default_rng(seed)
    a, r, h = unit(rng), rng.normal(size=3), rng.uniform(-0.3, 0.3)
    q = rng.uniform(-np.pi, np.pi, 1)
    screw = J.Screw(np.concatenate([a, -np.cross(a, r)]))
    expected = translation(r) @ J.Revolute(a).transform(q) @ translation(-r)
    np.testing.assert_allclose(screw.transform(q), expected, rtol=0, atol=1e-13)
    helical = J.Screw(np.concatenate([a, -np.cross(a, r) + h * a]))
    expected = translation(r) @ J.Helical(a, h).transform(q) @ translation(-r)
    np.testing.assert_allclose(helical.transform(q), expected, rtol=0, atol=1e-13)
    # T_screw = T_rev C with C = Trans(-r) constant, so S_screw = Ad_{C^-1} S_rev (eq. (11))
    Ad_shift = lie.Ad(translation(r))
    np.testing.assert_allclose(screw.S(q), Ad_shift @ J.Revolute(a).S(q), atol=1e-15)


@SETTINGS
@given(seed=seeds)
def test_screw_matches_exp_se3(seed):
    """The closed form of Screw.transform equals the general exponential of se(3)."""
    rng = np.random.default_rng(seed)
    A = rng.normal(size=6) * rng.choice([1e-7, 1.0, 3.0])
    q = rng.uniform(-np.pi, np.pi, (4, 1))
    np.testing.assert_allclose(J.Screw(A).transform(q), lie.exp_se3(q * A), rtol=0, atol=1e-12)


def test_translation_screw_is_prismatic():
    u = np.array([0.0, 3.0, 4.0])
    q = np.array([0.7])
    np.testing.assert_allclose(J.Screw(np.concatenate([np.zeros(3), u])).transform(q),
                               translation(u * q), atol=1e-15)
    np.testing.assert_allclose(J.Screw(np.concatenate([np.zeros(3), u / 5])).transform(q),
                               J.Prismatic(u).transform(q), atol=1e-15)


# ---------------------------------------------------------------------------------------------
# Symbolic input (the closed-form equations of motion of chapter 5 rely on it)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["revolute", "prismatic", "helical", "screw", "universal",
                                  "planar", "spherical_zyx"])
def test_symbolic_transform_S_dS_match_numeric(kind):
    rng = np.random.default_rng(9)
    joint = make_joint(kind, rng)
    qs = np.array(sympy.symbols(f"q0:{joint.nq}", real=True), dtype=object)
    dqs = np.array(sympy.symbols(f"dq0:{joint.nv}", real=True), dtype=object)
    q, dq = joint.random(rng), rng.normal(size=joint.nv)
    subs = {**dict(zip(qs, q, strict=True)), **dict(zip(dqs, dq, strict=True))}
    for sym, num in [(joint.transform(qs), joint.transform(q)), (joint.S(qs), joint.S(q)),
                     (joint.dS(qs, dqs), joint.dS(q, dq))]:
        value = np.array([[float(sympy.sympify(e).subs(subs)) for e in row] for row in sym])
        np.testing.assert_allclose(value, num, rtol=0, atol=1e-12)
