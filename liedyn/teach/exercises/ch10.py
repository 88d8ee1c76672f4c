"""Checkers for the exercises of :ref:`sec-derivatives` (chapter 10, "Derivatives of
the dynamics").

Call them through :func:`liedyn.teach.exercises.check`, e.g.
``check("ch10.ex1", answer)``. The expected answers do not use
:mod:`liedyn.derivatives` (except exercise 7, whose checker,
:func:`liedyn.teach.implement.check_complex_step`, compares with Table 5):
matrix derivatives are taken by complex step of the plain definitions, and the
double pendulum and the planar arm are written out in closed form (Lagrange's
equations) with numpy. Typical wrong answers (a sign, the factors
of a product in the wrong order, the spatial twist ``dT T^-1`` where the body twist
``T^-1 dT`` belongs, Kim's eq. (88) as printed, a forgotten term of Kim eq. (92),
``ddq = 0`` instead of the actual acceleration) get a hint of their own.

========  ============================================================  ============
id        task                                                          answer
========  ============================================================  ============
ch10.ex1  ``d/dp Ad_{T^-1}`` for ``T(p) = exp(p XI) T0`` (Kim eq.       (6, 6) array
          (87))
ch10.ex2  ``d/dp Ad*_T`` for the same ``T(p)`` (Kim eq. (88))           (6, 6) array
ch10.ex3  structural non-zeros of ``dtau/dq`` on a small tree           int
ch10.ex4  ``dtau/dl_1`` of the double pendulum (Kim eq. (92))           (2,) array
ch10.ex5  ``d ddq/dq`` of the double pendulum (Table 6)                 (2, 2) array
ch10.ex6  the link masses of a planar arm from torque data              (2,) array
ch10.ex7  Implement ``dtau/dq`` by complex step of a given ``rnea``     function
ch10.ex8  Derive ``dtau/dq_1`` of ``planar_arm(2)`` by hand             function
========  ============================================================  ============

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch10.ex3", 54)
ch10.ex3: correct.
True
"""
import numpy as np

from ...lie import Ad, Ad_inv, ad, exp_se3, exp_so3, make_transform
from .. import implement
from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "T0", "XI", "P0",
           "EX3_PARENTS", "EX3_JOINTS", "EX3_DOFS", "PENDULUM", "Q_EX4", "DQ_EX4",
           "DDQ_EX4", "Q_EX5", "DQ_EX5", "TAU_EX5", "ARM_EX6", "ex6_data"]

T0 = make_transform(exp_so3(np.array([0.3, -0.5, 0.8])), [0.4, -0.2, 1.0])
"""Exercises 1-2: the pose ``T(0)``."""

XI = np.array([0.2, -0.7, 0.4, 1.0, 0.3, -0.5])
"""Exercises 1-2: the twist ``(w, v)`` of the left perturbation
``T(p) = exp(p XI) T0``."""

P0 = 0.5
"""Exercises 1-2: the value of ``p`` at which to differentiate."""

EX3_PARENTS = [0, 1, 1, 2, 2, 3, 0]
"""Exercise 3: ``parent[i]`` of bodies 1..7 (0 is the ground)."""

EX3_JOINTS = ["revolute", "spherical", "revolute", "prismatic", "universal",
              "helical", "revolute"]
"""Exercise 3: the joint of each body (names of
:data:`liedyn.robots.JOINT_TYPES`)."""

EX3_DOFS = [1, 3, 1, 1, 2, 1, 1]
"""Exercise 3: the number of velocity coordinates of each joint."""

PENDULUM = {"masses": (1.0, 1.0), "lengths": (1.0, 0.8), "gravity": 9.81}
"""Exercises 4-5: ``liedyn.robots.double_pendulum(**PENDULUM)``: point masses on
massless rods, revolute about z, hanging along -y at ``q = 0``."""

Q_EX4, DQ_EX4, DDQ_EX4 = (np.array([0.4, -0.3]), np.array([0.5, 1.0]),
                          np.array([0.2, -0.4]))
"""Exercise 4: the state ``(q, dq, ddq)``."""

Q_EX5, DQ_EX5, TAU_EX5 = (np.array([0.7, 0.5]), np.array([-0.4, 0.9]),
                          np.array([0.5, -0.2]))
"""Exercise 5: the state ``(q, dq)`` and the torques ``tau``."""

ARM_EX6 = {"length": 1.0, "gravity": 9.81, "samples": 30}
"""Exercise 6: ``liedyn.robots.planar_arm(2, length=1.0)`` with unknown link
masses."""

_MASSES_EX6 = np.array([1.7, 0.6])


def _same(a, b, tol=1e-8):
    b = np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.max(np.abs(a - b)) <= tol)


def _diagnose(a, right, wrong, what, hint, tol=1e-8):
    """Raise WrongAnswer naming the first typical mistake ``a`` matches, else
    compare to right."""
    if _same(a, right, tol):
        return True
    for candidate, message in wrong:
        if not _same(candidate, right, tol) and _same(a, candidate, tol):
            raise WrongAnswer(message)
    expect_close(a, right, what, tol=tol, hint=hint)
    return True


def _T_of(p):
    return exp_se3(p * XI) @ T0


def _complex_step(f, x0, h=1e-30):
    return f(x0 + 1j * h).imag / h


# ----------------------------------------------------------------------------------
def ex1(answer):
    """``d/dp Ad_{T(p)^-1}`` at ``p = P0`` for ``T(p) = exp(p XI) T0``: a (6, 6)
    array."""
    a = expect_shape(answer, (6, 6), "d/dp Ad_{T^-1}")
    T = _T_of(P0)
    right = _complex_step(lambda p: Ad_inv(_T_of(p)), P0)
    dh = Ad_inv(T) @ XI                         # T^-1 dT/dp for a left perturbation
    wrong = [
        (-ad(XI) @ Ad_inv(T), "you used XI as dh = T^-1 dT/dp. Here the "
                              "perturbation multiplies from the left, dT/dp = XI^ "
                              "T, so dh = T^-1 XI^ T = Ad_{T^-1} XI."),
        (ad(dh) @ Ad_inv(T), "sign error: Kim eq. (87) is d/dp Ad_{T^-1} = "
                             "-ad_{dh} Ad_{T^-1} "
                             "(the derivative of T^-1 is -T^-1 dT T^-1)."),
        (-Ad_inv(T) @ ad(dh), "the factors are in the wrong order: Kim eq. (87) "
                              "puts ad_{dh} on the "
                              "left, -ad_{dh} Ad_{T^-1}."),
        (Ad(T) @ ad(dh), "this is d/dp Ad_T (Lemma 3), not the derivative of "
                         "Ad_{T^-1}."),
        (-ad(dh) @ Ad(T), "you used Ad_T where Kim eq. (87) has Ad_{T^-1}."),
    ]
    return _diagnose(a, right, wrong, "d/dp Ad_{T^-1}",
                     "Kim eq. (87): -ad_{dh} Ad_{T^-1} with dh = T^-1 dT/dp; check "
                     "by complex step.")


def ex2(answer):
    """``d/dp Ad*_{T(p)}`` (no inverse) at ``p = P0`` for the same ``T(p)``: a (6,
    6) array."""
    a = expect_shape(answer, (6, 6), "d/dp Ad*_T")
    T = _T_of(P0)
    right = _complex_step(lambda p: Ad(_T_of(p)).T, P0)
    dh = Ad_inv(T) @ XI
    AdsT = Ad(T).T
    wrong = [
        (-AdsT @ ad(dh).T, "this is Kim's eq. (88) as printed, -Ad*_T ad*_{dh}. It "
                           "holds for Ad*_{T^-1}, not for Ad*_T: differentiate "
                           "Ad_T = (Ad_{T^-1})^-1 "
                           "or transpose Lemma 3 instead "
                           "(see the errata appendix)."),
        (ad(XI) @ Ad(T), "this is d/dp Ad_T; the coadjoint Ad*_T = Ad_T^T needs "
                         "its transpose."),
        (-AdsT @ ad(XI).T, "sign error: Lemma 3 gives d/dp Ad_T = +ad_{dT T^-1} "
                           "Ad_T."),
        (ad(XI).T @ AdsT, "the factors are in the wrong order: transposing Lemma 3 "
                          "reverses them, (ad_xi Ad_T)^T = Ad*_T ad*_xi."),
        (AdsT @ ad(dh).T, "you used the body twist dh = T^-1 dT/dp where Lemma 3 "
                          "(transposed) has the spatial twist dT/dp T^-1 = XI; or "
                          "write it as ad*_{dh} Ad*_T."),
    ]
    return _diagnose(a, right, wrong, "d/dp Ad*_T",
                     "transpose Lemma 3: d/dp Ad*_T = (ad_{dT T^-1} Ad_T)^T.")


# ----------------------------------------------------------------------------------
def _ancestors(parents):
    anc = []
    for i, p in enumerate(parents, 1):
        anc.append(set() if p == 0 else anc[p - 1] | {p})
    return anc


def _pair_counts(parents, dofs):
    anc = _ancestors(parents)
    n = len(parents)
    same = sum(d * d for d in dofs)
    up = sum(
        dofs[i] * dofs[j] for i in range(n) for j in range(n) if (j + 1) in anc[i])
    bodies = n + 2 * sum(len(a) for a in anc)
    return same, up, bodies


def ex3(answer):
    """How many entries of ``dtau/dq`` (an nv x nv matrix) are not structurally
    zero? An int."""
    try:
        a = float(answer)
    except (TypeError, ValueError):
        raise WrongAnswer("give one number (an int), got "
                          f"{type(answer).__name__}") from None
    same, up, bodies = _pair_counts(EX3_PARENTS, EX3_DOFS)
    right = same + 2 * up
    nv = sum(EX3_DOFS)
    if a == right:
        return True
    hints = {
        nv * nv: f"{nv * nv} = nv^2 counts every entry: dtau_i/dq_j vanishes when "
                 "joints i and j lie on different branches (neither is an ancestor "
                 "of the other).",
        same + up: "you counted only one triangle (j an ancestor of i, or only "
                   "descendants): tau_i depends on the joints above it (through "
                   "V_i, dV_i) and below it (through "
                   "the wrenches F_k of its subtree).",
        bodies: "you counted pairs of bodies; every pair (i, j) contributes n_i x "
                "n_j entries (the spherical joint "
                "has 3 coordinates, the universal 2).",
        same: "only the diagonal blocks? q_j moves every body below joint j, and "
              "gravity and the velocities of every "
              "body below an ancestor change with it.",
    }
    if a in hints:
        raise WrongAnswer(hints[a])
    raise WrongAnswer(f"{a:g} is not the count. Hint: entry (i, j) can be non-zero "
                      "exactly when joints i and j are on one path from the root "
                      "(one is an ancestor of the other, or i = j); sum n_i n_j "
                      "over those pairs.")


# ----------------------------------------------------------------------------------
def _pendulum_tau(q, dq, ddq, a1, l1, g=None):
    """Closed-form inverse dynamics of the double pendulum; ``a1`` is the distance
    of bob 1 from joint 1, ``l1`` that of joint 2 from joint 1 (both the first
    length in the model)."""
    (m1, m2), (_, l2) = PENDULUM["masses"], PENDULUM["lengths"]
    g = PENDULUM["gravity"] if g is None else g
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    M = np.array([[m1 * a1 ** 2 + m2 * (l1 ** 2 + l2 ** 2 + 2 * l1 * l2 * c2),
                   m2 * (l2 ** 2 + l1 * l2 * c2)],
                  [m2 * (l2 ** 2 + l1 * l2 * c2), m2 * l2 ** 2 + 0 * l1]])
    h = m2 * l1 * l2 * s2
    c = np.array([-h * (2 * dq[0] * dq[1] + dq[1] ** 2), h * dq[0] ** 2])
    grav = np.array([m1 * g * a1 * np.sin(q[0]) + m2 * g * l1 * np.sin(q[0])
                     + m2 * g * l2 * np.sin(q[0] + q[1]),
                     m2 * g * l2 * np.sin(q[0] + q[1]) + 0 * l1])
    return M @ ddq + c + grav, M


def ex4(answer):
    """``dtau/dl_1`` of the double pendulum at ``(Q_EX4, DQ_EX4, DDQ_EX4)``: a (2,)
    array.

    ``l_1`` is the length of the first rod: it places bob 1 and joint 2.
    """
    a = expect_shape(answer, (2,), "dtau/dl_1")
    l1 = PENDULUM["lengths"][0]
    args = (Q_EX4, DQ_EX4, DDQ_EX4)
    right = _complex_step(lambda x: _pendulum_tau(*args, x, x)[0], l1)
    only_X = _complex_step(lambda x: _pendulum_tau(*args, l1, x)[0], l1)
    only_I = _complex_step(lambda x: _pendulum_tau(*args, x, l1)[0], l1)
    wrong = [
        (only_X, "you moved joint 2 (delta_X of body 2) but not bob 1: l_1 also "
                 "enters the inertia of body 1 (its centre of mass is at distance "
                 "l_1), so delta_I of body 1 is needed too (Kim eq. (92))."),
        (only_I, "you moved bob 1 (delta_I of body 1) but not the placement of "
                 "joint 2: l_1 also enters X_2 = Trans(0, -l_1), so delta_X of "
                 "body 2 is needed too (Kim eq. (92))."),
        (only_I - only_X, "sign of delta_X: X_2 = Trans(0, -l_1, 0), so X_2^-1 "
                          "dX_2/dl_1 is the twist (0, 0, 0, 0, -1, 0)."),
        (-right, "sign error."),
    ]
    return _diagnose(a, right, wrong, "dtau/dl_1",
                     "rnea_derivative with delta_I (body 1) and delta_X (body 2); "
                     "check by finite differences of rnea on rebuilt models.")


def _pendulum_ddq(q, dq, tau):
    l1 = PENDULUM["lengths"][0]
    b, M = _pendulum_tau(q, dq, np.zeros(2), l1, l1)
    return np.linalg.solve(M, tau - b)


def ex5(answer):
    """``d ddq/dq`` of the double pendulum at ``(Q_EX5, DQ_EX5, TAU_EX5)``: a (2, 2)
    array, entry ``[i, k] = d ddq_i / d q_k``."""
    a = expect_shape(answer, (2, 2), "d ddq/dq")
    l1 = PENDULUM["lengths"][0]
    right = np.stack(
        [
            _complex_step(lambda x: _pendulum_ddq(Q_EX5 + x * e, DQ_EX5, TAU_EX5),
                          0.0)
            for e in np.eye(2)],
        axis=-1,
    )
    ddq = _pendulum_ddq(Q_EX5, DQ_EX5, TAU_EX5)
    M = _pendulum_tau(Q_EX5, DQ_EX5, ddq, l1, l1)[1]

    def dtau_dq(acc):
        return np.stack(
            [
                _complex_step(
                    lambda x: _pendulum_tau(Q_EX5 + x * e, DQ_EX5, acc, l1, l1)[0],
                    0.0)
                for e in np.eye(2)],
            axis=-1,
        )
    wrong = [
        (-np.linalg.solve(M, dtau_dq(np.zeros(2))), "you evaluated dtau/dq at ddq "
                                                    "= 0: implicit differentiation "
                                                    "of M ddq + b = tau needs it "
                                                    "at the actual ddq = aba(q, "
                                                    "dq, tau), since dM/dq ddq is "
                                                    "part of d tau/dq."),
        (np.linalg.solve(M, dtau_dq(ddq)), "sign error: d ddq/dq = -M^-1 dtau/dq."),
        (-dtau_dq(ddq), "M^-1 is missing: d ddq/dq = -M^-1 dtau/dq."),
        (right.T, "transposed: entry [i, k] is d ddq_i / d q_k."),
    ]
    return _diagnose(a, right, wrong, "d ddq/dq",
                     "aba_partials, or -M^-1 dtau/dq with rnea_partials at ddq = "
                     "aba(q, dq, tau).",
                     tol=1e-7)


# ----------------------------------------------------------------------------------
def _arm_tau(q, dq, ddq, masses):
    """Closed-form inverse dynamics of the planar 2R arm with uniform thin links
    (batched)."""
    m1, m2 = masses
    l, g = ARM_EX6["length"], ARM_EX6["gravity"]
    lc, I1, I2 = l / 2, m1 * l ** 2 / 12, m2 * l ** 2 / 12
    c2, s2 = np.cos(q[..., 1]), np.sin(q[..., 1])
    M11 = I1 + I2 + m1 * lc ** 2 + m2 * (l ** 2 + lc ** 2 + 2 * l * lc * c2)
    M12 = I2 + m2 * (lc ** 2 + l * lc * c2)
    M22 = I2 + m2 * lc ** 2
    h = m2 * l * lc * s2
    c1, c2_ = q[..., 0], q[..., 0] + q[..., 1]
    t1 = (
        M11 * ddq[..., 0]
        + M12 * ddq[..., 1]
        - h * (2 * dq[..., 0] * dq[..., 1] + dq[..., 1] ** 2)
        + (m1 * lc + m2 * l) * g * np.cos(c1)
        + m2 * lc * g * np.cos(c2_))
    t2 = (
        M12 * ddq[..., 0]
        + M22 * ddq[..., 1]
        + h * dq[..., 0] ** 2
        + m2 * lc * g * np.cos(c2_))
    return np.stack([t1, t2], axis=-1)


def ex6_data():
    """Exercise 6: ``(q, dq, ddq, tau)``, each (30, 2), measured on the planar arm
    ``planar_arm(2, length=1.0)`` whose two link masses are unknown (noise-free)."""
    rng = np.random.default_rng(1010)
    n = ARM_EX6["samples"]
    q = rng.uniform(-np.pi, np.pi, (n, 2))
    dq, ddq = rng.normal(size=(2, n, 2))
    return q, dq, ddq, _arm_tau(q, dq, ddq, _MASSES_EX6)


def ex6(answer):
    """The two link masses ``(m_1, m_2)`` (kg) of the arm of :func:`ex6_data`: a
    (2,) array."""
    a = expect_shape(answer, (2,), "(m_1, m_2)")
    right = _MASSES_EX6
    wrong = [
        (right[::-1], "the masses are in the wrong "
                      "order: (m_1, m_2), link 1 first."),
        (np.array([1.0, 1.0]), "these are the nominal masses of planar_arm(2): fit "
                               "them to the measured torques."),
    ]
    return _diagnose(a, right, wrong, "(m_1, m_2)",
                     "tau is linear in the masses: with Y = "
                     "rnea_inertial_partials(...) and pi_k the 10 parameters of "
                     "link k at unit mass, tau = m_1 Y_1 pi_1 + m_2 Y_2 pi_2; "
                     "solve by least squares over all samples.",
                     tol=1e-6)


# ----------------------------------------------------------------------------------
def ex7(answer):
    """Implement: ``answer(rnea, model, q, dq, ddq) -> dtau/dq`` (nv, nv) by complex
    step of the given ``rnea``, run by
    :func:`liedyn.teach.implement.check_complex_step` on models the reader has not
    seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_complex_step, "
                          f"not a {type(answer).__name__}")
    return implement.check_complex_step(answer)


_MASSES_EX8 = (1.0, 1.0)                      # planar_arm(2): the arm of _arm_tau


def _arm_dtau_dq(q, dq, ddq, k):
    """Column ``k`` of ``dtau/dq`` of ``planar_arm(2)``: complex step of the closed
    form."""
    e = np.eye(2)[k]
    return _complex_step(lambda x: _arm_tau(q + x * e, dq, ddq, _MASSES_EX8), 0.0)


def ex8(answer):
    """``dtau/dq_1`` of ``planar_arm(2)`` as a function ``answer(q, dq, ddq) ->
    (2,)``, evaluated at states of the checker's own."""
    if not callable(answer):
        raise WrongAnswer("give a function dtau_dq1(q, dq, ddq) that returns "
                          "(dtau_1/dq_1, dtau_2/dq_1), not a "
                          f"{type(answer).__name__}")
    g = ARM_EX6["gravity"]
    rng = np.random.default_rng(8)
    for q in rng.uniform(-np.pi, np.pi, (4, 2)):
        dq, ddq = rng.normal(size=(2, 2))
        a = expect_shape(answer(q.copy(), dq.copy(), ddq.copy()), (2,), "dtau/dq_1")
        still = expect_shape(answer(q.copy(), 0 * dq, 0 * ddq), (2,), "dtau/dq_1")
        if _same(a, _arm_dtau_dq(q, dq, ddq, 1)):
            raise WrongAnswer("this is dtau/dq_2, the derivative along the second "
                              "joint.")
        if not _same(a, still):
            raise WrongAnswer("your expression changes with dq or ddq, and "
                              "dtau/dq_1 does not: M(q) and C(q, dq) contain q_2 "
                              "only (turning joint 1 does not change the arm's "
                              "shape).")
        right = _arm_dtau_dq(q, dq, ddq, 0)
        c1, c12 = np.cos(q[0]), np.cos(q[0] + q[1])
        wrong = [
            (_arm_dtau_dq(q, 0 * dq, 0 * ddq, 1), "you differentiated G with "
             "respect to q_2: this is the gravity part of dtau/dq_2."),
            (-right, "sign error: d/dq cos(q) = -sin(q)."),
            (right + g * np.sin(q[0]) * np.array([1.0, 0.0]),
             "link 2 hangs from the tip of link 1: its weight acts at l_1 c_1 + "
             "r_2 c_12, so tau_1 carries the term m_2 g l_1 c_1 too."),
            (np.array([right[0], 0.0]), "tau_2 changes too: its gravity term "
                                        "m_2 g r_2 cos(q_1 + q_2) contains q_1."),
            (g * np.array([1.5 * c1 + 0.5 * c12, 0.5 * c12]),
             "this is G(q), the gravity torques themselves: differentiate them "
             "with respect to q_1."),
        ]
        _diagnose(a, right, wrong, "dtau/dq_1",
                  "M(q) and C(q, dq) contain q_2 only, so dtau/dq_1 = dG/dq_1 with "
                  "G = g ((m_1 r_1 + m_2 l_1) cos q_1 + m_2 r_2 cos(q_1 + q_2), "
                  "m_2 r_2 cos(q_1 + q_2)).")
    return True
