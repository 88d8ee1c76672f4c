"""Checkers for the exercises of :ref:`sec-derivatives` (chapter 10).

Matrix derivatives are taken by complex step of the plain definitions, the double
pendulum and the planar arm written out in closed form; only exercise 7's checker,
:func:`liedyn.teach.implement.check_complex_step`, compares with liedyn's Table 5.

Examples
--------
>>> from liedyn.teach.exercises import check
>>> check("ch10.ex3", 54)  # doctest: +ELLIPSIS
ch10.ex3: correct. Checked: the count = sum of n_i n_j over the pairs ...
True
"""
import numpy as np

from ...lie import Ad, Ad_inv, ad, exp_se3, exp_so3, make_transform
from .. import implement
from . import WrongAnswer, diagnose, exercise, expect_shape
from ._closed_forms import double_pendulum, two_link_arm

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "T0", "XI", "P0",
           "EX3_PARENTS", "EX3_JOINTS", "EX3_DOFS", "PENDULUM", "Q_EX4", "DQ_EX4",
           "DDQ_EX4", "Q_EX5", "DQ_EX5", "TAU_EX5", "ARM_EX6", "ex6_data", "ex9",
           "DQ_EX9"]

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

DQ_EX9 = np.array([1.5, 0.0])
"""Exercise 9: the joint velocities (rad/s) of ``planar_arm(2, gravity=0.0)``, with
``ddq = 0`` and ``q_1 = 0``."""


def _complex_step(f, x0, h=1e-30):
    """``df/dx`` at ``x0`` (a scalar), exact to rounding."""
    return f(x0 + 1j * h).imag / h


def _jacobian(f, x0):
    """``df/dx`` at the vector ``x0``, column by column by complex step."""
    return np.stack([_complex_step(lambda s, e=e: f(x0 + s * e), 0.0)
                     for e in np.eye(len(x0))], axis=-1)


def _T_of(p):
    return exp_se3(p * XI) @ T0


@exercise("d/dp Ad_{T^-1}", rule="-ad_{dh} Ad_{T^-1} (Kim eq. (87))",
          hint="Kim eq. (87): -ad_{dh} Ad_{T^-1} with dh = T^-1 dT/dp; check by "
               "complex step.")
def ex1(answer):
    """``d/dp Ad_{T(p)^-1}`` at ``p = P0`` for ``T(p) = exp(p XI) T0``: a (6, 6)
    array."""
    T = _T_of(P0)
    dh = Ad_inv(T) @ XI                         # T^-1 dT/dp for a left perturbation
    return _complex_step(lambda p: Ad_inv(_T_of(p)), P0), [
        (-ad(XI) @ Ad_inv(T), "you used XI as dh = T^-1 dT/dp. Here the "
                              "perturbation multiplies from the left, dT/dp = XI^ "
                              "T, so dh = T^-1 XI^ T = Ad_{T^-1} XI."),
        (ad(dh) @ Ad_inv(T), "sign error: Kim eq. (87) is d/dp Ad_{T^-1} = "
                             "-ad_{dh} Ad_{T^-1} (the derivative of T^-1 is -T^-1 "
                             "dT T^-1)."),
        (-Ad_inv(T) @ ad(dh), "the factors are in the wrong order: Kim eq. (87) "
                              "puts ad_{dh} on the left, -ad_{dh} Ad_{T^-1}."),
        (Ad(T) @ ad(dh), "this is d/dp Ad_T (Lemma 3), not the derivative of "
                         "Ad_{T^-1}."),
        (-ad(dh) @ Ad(T), "you used Ad_T where Kim eq. (87) has Ad_{T^-1}."),
    ]


@exercise("d/dp Ad*_T", rule="(ad_{dT T^-1} Ad_T)^T (Lemma 3, transposed)",
          hint="transpose Lemma 3: d/dp Ad*_T = (ad_{dT T^-1} Ad_T)^T.")
def ex2(answer):
    """``d/dp Ad*_{T(p)}`` (no inverse) at ``p = P0`` for the same ``T(p)``: a (6,
    6) array."""
    T = _T_of(P0)
    dh, AdsT = Ad_inv(T) @ XI, Ad(T).T
    return _complex_step(lambda p: Ad(_T_of(p)).T, P0), [
        (-AdsT @ ad(dh).T, "this is Kim's eq. (88) as printed, -Ad*_T ad*_{dh}. It "
                           "holds for Ad*_{T^-1}, not for Ad*_T: differentiate "
                           "Ad_T = (Ad_{T^-1})^-1 or transpose Lemma 3 instead "
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


def _pair_counts(parents, dofs):
    """Entries of the diagonal blocks, of one triangle of the off-diagonal blocks
    (pairs ancestor-descendant), and the number of such pairs of bodies."""
    anc = []
    for p in parents:
        anc.append(set() if p == 0 else anc[p - 1] | {p})
    same = sum(d * d for d in dofs)
    up = sum(dofs[i] * dofs[j - 1] for i in range(len(parents)) for j in anc[i])
    return same, up, len(parents) + 2 * sum(len(a) for a in anc)


@exercise("the count", tol=0.0, checks="the count = sum of n_i n_j over the pairs "
          "(i, j) with one joint an ancestor of the other, or i = j (54)")
def ex3(answer):
    """How many entries of ``dtau/dq`` (an nv x nv matrix) are not structurally
    zero? An int."""
    same, up, bodies = _pair_counts(EX3_PARENTS, EX3_DOFS)
    nv = sum(EX3_DOFS)
    return same + 2 * up, [
        (nv * nv, f"{nv * nv} = nv^2 counts every entry: dtau_i/dq_j vanishes "
                  "when joints i and j lie on different branches (neither is an "
                  "ancestor of the other)."),
        (same + up, "you counted only one triangle (j an ancestor of i, or only "
                    "descendants): tau_i depends on the joints above it (through "
                    "V_i, dV_i) and below it (through the wrenches F_k of its "
                    "subtree)."),
        (bodies, "you counted pairs of bodies; every pair (i, j) contributes n_i x "
                 "n_j entries (the spherical joint has 3 coordinates, the "
                 "universal 2)."),
        (same, "only the diagonal blocks? q_j moves every body below joint j, and "
               "gravity and the velocities of every body below an ancestor change "
               "with it."),
    ], ("{a:g} is not the count. Hint: entry (i, j) can be non-zero exactly when "
        "joints i and j are on one path from the root (one is an ancestor of the "
        "other, or i = j); sum n_i n_j over those pairs.")


def _pendulum(q, dq, ddq, l1=None, bob1=None):
    """``tau`` and ``M`` of the double pendulum; ``l1`` places joint 2, ``bob1`` the
    first mass (both the first length of :data:`PENDULUM` by default)."""
    l1 = PENDULUM["lengths"][0] if l1 is None else l1
    M, C, grav = double_pendulum(q, dq, PENDULUM["masses"],
                                 (l1, PENDULUM["lengths"][1]), PENDULUM["gravity"],
                                 bob1=l1 if bob1 is None else bob1)
    return M @ ddq + C @ dq + grav, M


@exercise("dtau/dl_1", rule="delta_I (body 1) + delta_X (body 2), Kim eq. (92)",
          hint="rnea_derivative with delta_I (body 1) and delta_X (body 2); check "
               "by finite differences of rnea on rebuilt models.")
def ex4(answer):
    """``dtau/dl_1`` of the double pendulum at ``(Q_EX4, DQ_EX4, DDQ_EX4)``: a (2,)
    array.

    ``l_1`` is the length of the first rod: it places bob 1 and joint 2.
    """
    l1, state = PENDULUM["lengths"][0], (Q_EX4, DQ_EX4, DDQ_EX4)
    right = _complex_step(lambda x: _pendulum(*state, l1=x)[0], l1)
    only_X = _complex_step(lambda x: _pendulum(*state, l1=x, bob1=l1)[0], l1)
    only_I = _complex_step(lambda x: _pendulum(*state, bob1=x)[0], l1)
    return right, [
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


@exercise("d ddq/dq", rule="-M^-1 dtau/dq at ddq = aba(q, dq, tau)", tol=1e-7,
          hint="aba_partials, or -M^-1 dtau/dq with rnea_partials at ddq = aba(q, "
               "dq, tau).")
def ex5(answer):
    """``d ddq/dq`` of the double pendulum at ``(Q_EX5, DQ_EX5, TAU_EX5)``: a (2, 2)
    array, entry ``[i, k] = d ddq_i / d q_k``."""
    def ddq_of(q):
        b, M = _pendulum(q, DQ_EX5, np.zeros(2))
        return np.linalg.solve(M, TAU_EX5 - b)

    def dtau_dq(ddq):
        return _jacobian(lambda q: _pendulum(q, DQ_EX5, ddq)[0], Q_EX5)
    right, ddq = _jacobian(ddq_of, Q_EX5), ddq_of(Q_EX5)
    M = _pendulum(Q_EX5, DQ_EX5, ddq)[1]
    return right, [
        (-np.linalg.solve(M, dtau_dq(np.zeros(2))),
         "you evaluated dtau/dq at ddq = 0: implicit differentiation of M ddq + b "
         "= tau needs it at the actual ddq = aba(q, dq, tau), since dM/dq ddq is "
         "part of d tau/dq."),
        (np.linalg.solve(M, dtau_dq(ddq)), "sign error: d ddq/dq = -M^-1 dtau/dq."),
        (-dtau_dq(ddq), "M^-1 is missing: d ddq/dq = -M^-1 dtau/dq."),
        (right.T, "transposed: entry [i, k] is d ddq_i / d q_k."),
    ]


def _arm_tau(q, dq, ddq, masses):
    """Inverse dynamics of the planar 2R arm of :data:`ARM_EX6` (one state)."""
    M, C, grav = two_link_arm(q, dq, masses, ARM_EX6["length"], ARM_EX6["gravity"])
    return M @ ddq + C @ dq + grav


def ex6_data():
    """Exercise 6: ``(q, dq, ddq, tau)``, each (30, 2), measured on the planar arm
    ``planar_arm(2, length=1.0)`` whose two link masses are unknown (noise-free)."""
    rng = np.random.default_rng(1010)
    n = ARM_EX6["samples"]
    q = rng.uniform(-np.pi, np.pi, (n, 2))
    dq, ddq = rng.normal(size=(2, n, 2))
    tau = np.array([_arm_tau(*state, _MASSES_EX6)
                    for state in zip(q, dq, ddq, strict=True)])
    return q, dq, ddq, tau


@exercise("(m_1, m_2)", tol=1e-6,
          rule="the least-squares fit of tau = m_1 Y_1 pi_1 + m_2 Y_2 pi_2",
          hint="tau is linear in the masses: with Y = rnea_inertial_partials(...) "
               "and pi_k the 10 parameters of link k at unit mass, tau = m_1 Y_1 "
               "pi_1 + m_2 Y_2 pi_2; solve by least squares over all samples.")
def ex6(answer):
    """The two link masses ``(m_1, m_2)`` (kg) of the arm of :func:`ex6_data`: a
    (2,) array."""
    return _MASSES_EX6, [
        (_MASSES_EX6[::-1], "the masses are in the wrong order: (m_1, m_2), link 1 "
                            "first."),
        (np.array([1.0, 1.0]), "these are the nominal masses of planar_arm(2): fit "
                               "them to the measured torques."),
    ]


def ex7(answer):
    """Implement: ``answer(rnea, model, q, dq, ddq) -> dtau/dq`` (nv, nv) by complex
    step of the given ``rnea``, run by
    :func:`liedyn.teach.implement.check_complex_step` on models the reader has not
    seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_complex_step, "
                          f"not a {type(answer).__name__}")
    return implement.check_complex_step(answer)


@exercise("dtau/dq_1", checks="dtau/dq_1 = dG/dq_1 at four states of the "
          "checker's own, to 1e-08")
def ex8(answer):
    """``dtau/dq_1`` of ``planar_arm(2)`` as a function ``answer(q, dq, ddq) ->
    (2,)``, evaluated at states of the checker's own."""
    if not callable(answer):
        raise WrongAnswer("give a function dtau_dq1(q, dq, ddq) that returns "
                          "(dtau_1/dq_1, dtau_2/dq_1), not a "
                          f"{type(answer).__name__}")
    g, ones = ARM_EX6["gravity"], (1.0, 1.0)         # planar_arm(2): unit masses
    rng = np.random.default_rng(8)
    for q in rng.uniform(-np.pi, np.pi, (4, 2)):
        dq, ddq = rng.normal(size=(2, 2))
        a = expect_shape(answer(q.copy(), dq.copy(), ddq.copy()), (2,), "dtau/dq_1")
        still = expect_shape(answer(q.copy(), 0 * dq, 0 * ddq), (2,), "dtau/dq_1")
        dtau_dq = _jacobian(lambda x, dq=dq, ddq=ddq: _arm_tau(x, dq, ddq, ones), q)
        right, c1, c12 = dtau_dq[:, 0], np.cos(q[0]), np.cos(q[0] + q[1])
        diagnose(a, right, [
            (dtau_dq[:, 1], "this is dtau/dq_2, the derivative along the second "
                            "joint."),
            (lambda x, still=still: np.max(np.abs(x - still)) > 1e-8,
             "your expression changes with dq or ddq, and dtau/dq_1 does not: M(q) "
             "and C(q, dq) contain q_2 only (turning joint 1 does not change the "
             "arm's shape)."),
            (_jacobian(lambda x, dq=dq, ddq=ddq: _arm_tau(x, 0 * dq, 0 * ddq, ones),
                       q)[:, 1],
             "you differentiated G with respect to q_2: this is the gravity part "
             "of dtau/dq_2."),
            (-right, "sign error: d/dq cos(q) = -sin(q)."),
            (right + [g * np.sin(q[0]), 0.0], "link 2 hangs from the tip of link "
                                              "1: its weight acts at l_1 c_1 + r_2 "
                                              "c_12, so tau_1 carries the term m_2 "
                                              "g l_1 c_1 too."),
            (right * [1.0, 0.0], "tau_2 changes too: its gravity term m_2 g r_2 "
                                 "cos(q_1 + q_2) contains q_1."),
            (g * np.array([1.5 * c1 + 0.5 * c12, 0.5 * c12]),
             "this is G(q), the gravity torques themselves: differentiate them "
             "with respect to q_1."),
        ], "dtau/dq_1", hint="M(q) and C(q, dq) contain q_2 only, so dtau/dq_1 = "
           "dG/dq_1 with G = g ((m_1 r_1 + m_2 l_1) cos q_1 + m_2 r_2 cos(q_1 + "
           "q_2), m_2 r_2 cos(q_1 + q_2)).")


def _dtau2_dq2(q2, g):
    """``d tau_2 / d q_2`` of ``planar_arm(2)`` at ``q = (0, q2)``, ``dq = DQ_EX9``,
    ``ddq = 0``, gravity ``g``, by complex step of the closed form."""
    def tau2(x):
        M, C, grav = two_link_arm(np.array([0.0, x]), DQ_EX9, (1.0, 1.0), 1.0, g)
        return (C @ DQ_EX9 + grav)[1]
    return _complex_step(tau2, q2)


@exercise("the constant", tol=0.02, one_number=True,
          rule="the largest d tau_2/d q_2 over q_2, divided by dq_1^2",
          hint="plot entry [1, 1] of rnea_partials(planar_arm(2, gravity=0.0), "
               "q, dq, 0)[0] over q_2 with q_1 = 0 and dq = (1.5, 0); take its "
               "largest value and divide it by dq_1^2 = 2.25.")
def ex9(answer):
    """The coupling constant of the two-link arm read off the plot of ``d tau_2 / d
    q_2`` over ``q_2`` (the largest value divided by ``dq_1^2``): one number."""
    grid = np.linspace(-np.pi, np.pi, 721)
    peak = max(_dtau2_dq2(x, 0.0) for x in grid)
    with_gravity = max(_dtau2_dq2(x, ARM_EX6["gravity"]) for x in grid)
    w2 = DQ_EX9[0] ** 2
    return peak / w2, [
        (peak, f"this is the largest value itself; divide it by dq_1^2 = {w2:g}."),
        (peak / DQ_EX9[0], f"you divided by dq_1; the term is kappa s_2 dq_1^2, so "
                           f"divide by dq_1^2 = {w2:g}."),
        (-peak / w2, "this is the smallest value (at q_2 = +-pi); read off the "
                     "largest."),
        (lambda a: abs(a - with_gravity / w2) < 0.1,
         "your plot includes gravity: its torque -g m_2 r_2 sin(q_1 + q_2) changes "
         "with q_2 too. Use planar_arm(2, gravity=0.0)."),
        (lambda a: abs(a) < 0.02, "this is d tau_1/d q_2, zero at this state; plot "
                                  "d tau_2/d q_2, entry [1, 1] of the first matrix "
                                  "of rnea_partials."),
    ]
