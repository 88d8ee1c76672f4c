"""Checkers for the exercises of :ref:`sec-equations-of-motion` (chapter 6): the
planar 2R arm ``planar_arm(2)`` (links of 1 kg and 1 m, Murray's ``M = [[a + 2 b
c2, d + b c2], [d + b c2, d]]``, ``a = 5/3``, ``b = 1/2``, ``d = 1/3``), the
structure of M on a tree, the transforms of ``serial_chain(3)``, the eigenvalues of
the arm's M read off a plot. Exercise 9 asks for an explanation in words and has no
checker.
"""
import numpy as np

from .. import implement
from . import WrongAnswer, diagnose, exercise
from ._closed_forms import Ad, rot, two_link_arm

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ex8", "ex10", "Q_EX1",
           "PARENTS_EX2", "Q_EX3", "Q_EX4", "DQ_EX4", "STATE_EX5", "READ_OFF_RTOL"]

Q_EX1 = np.array([0.4, 1.1])
"""Exercise 1: the configuration of the planar 2R arm."""


@exercise("M(q)", rule="[rnea(q, 0, e_j) - rnea(q, 0, 0)]_j",
          hint="column j of M is rnea(q, 0, e_j) - rnea(q, 0, 0).")
def ex1(answer):
    """The mass matrix of ``planar_arm(2)`` at :data:`Q_EX1`, from n calls of the
    RNEA."""
    M, _, grav = two_link_arm(Q_EX1, np.zeros(2))
    return M, [
        (M + grav[:, None], "every column carries the gravity torque g(q): "
                            "subtract rnea(q, 0, 0) from rnea(q, 0, e_j) (or "
                            "switch gravity off)."),
        (grav[:, None] * np.ones(2), "these are gravity torques: the unit "
                                     "accelerations e_j are missing."),
    ]


PARENTS_EX2 = (0, 1, 2, 1, 0, 5, 5)
"""Exercise 2: the parents of bodies 1..7 of a tree of one-degree-of-freedom
joints."""


@exercise("the count", tol=0.0, checks="the count of entries (i, j) with body i on "
          "the path from the ground to body j, or the other way round")
def ex2(answer):
    """The number of entries of ``M`` that are not zero by the structure of the
    tree."""
    n, depth = len(PARENTS_EX2), [0]
    for p in PARENTS_EX2:
        depth.append(depth[p] + 1)
    pairs = sum(depth)                              # (ancestor or self, body) pairs
    return 2 * pairs - n, [
        (n * n, "M_ij = 0 when neither body is an ancestor of the other: joint j "
                "moves no body whose inertia joint i supports."),
        (pairs, "that counts the (ancestor, body) pairs that CRBA visits, one "
                "triangle; M is symmetric, so count the other triangle too."),
        (n * (n + 1) / 2, "that is the lower triangle of a chain; the tree has "
                          "branches."),
    ], ("{a:g} is not the count. Entry (i, j) can be non-zero only if body i is on "
        "the path from the ground to body j, or the other way round.")


Q_EX3 = np.array([0.3, -0.7, 1.2])
"""Exercise 3: the configuration of ``serial_chain(3)``."""


def _chain_Ad_inv(i, q):
    """``Ad_{T_{i-1,i}^-1}`` of ``serial_chain(3)``: ``T = Trans(0.5 x)`` (for
    i > 1) times a rotation about z, y, x."""
    R = rot(np.eye(3)[[2, 1, 0][i - 1]], q[i - 1])
    p = np.array([0.5 if i > 1 else 0.0, 0.0, 0.0])
    return Ad(R.T, -R.T @ p)


@exercise("G_31", rule="Ad_{g_{2,3}^-1} Ad_{g_{1,2}^-1}",
          hint="G_31 = Ad_{g_{2,3}^-1} Ad_{g_{1,2}^-1}.")
def ex3(answer):
    """Block (3, 1) of ``G = (1 - Gamma)^-1`` of ``serial_chain(3)`` at
    :data:`Q_EX3`."""
    right = _chain_Ad_inv(3, Q_EX3) @ _chain_Ad_inv(2, Q_EX3)
    return right, [
        (np.zeros((6, 6)), "that is the block of Gamma; G = 1 + Gamma + Gamma^2 "
                           "collects the product of the two transforms on the way "
                           "from link 1 to link 3."),
        (np.linalg.inv(right), "G maps a twist of link 1 into link 3: Ad of the "
                               "inverse, Ad_{g_{1,3}^-1}."),
        (_chain_Ad_inv(3, Q_EX3), "that is only the last step Ad_{g_{2,3}^-1} "
                                  "(block (3, 2)); block (3, 1) also goes through "
                                  "joint 2."),
    ]


Q_EX4 = np.array([0.2, np.pi / 3])
DQ_EX4 = np.array([1.0, -0.5])
"""Exercise 4: the state of the planar 2R arm."""


def _closed_form_C():
    """The C of the closed form ``xi^T G^T (...) G xi`` (not Christoffel)."""
    from ...closed_form import closed_form_matrices
    from ...robots import planar_arm
    return closed_form_matrices(planar_arm(2), Q_EX4, DQ_EX4).C


@exercise("C(q, dq)", rule="sum_k Gamma_ijk dq_k (Christoffel)",
          hint="only Gamma_112, Gamma_121, Gamma_122 = -b sin(q2) and Gamma_211 = "
               "b sin(q2) are non-zero.")
def ex4(answer):
    """The Christoffel Coriolis matrix of ``planar_arm(2)`` at (:data:`Q_EX4`,
    :data:`DQ_EX4`)."""
    if np.shape(answer) == (2,):
        raise WrongAnswer("that is a vector (perhaps C dq); the exercise asks for "
                          "the matrix C.")
    C = two_link_arm(Q_EX4, DQ_EX4)[1]
    return C, [
        (C.T, "transposed: C_ij = sum_k Gamma_ijk dq_k, i is the row."),
        (lambda a: np.allclose(a, _closed_form_C(), rtol=0, atol=1e-8),
         "that is the closed form's factorization xi^T G^T (...) G xi: the right C "
         "dq, but not the Christoffel matrix (its dM/dt - 2C is not skew)."),
    ]


STATE_EX5 = {"q": np.array([0.5, -0.8]), "dq": np.array([1.5, 0.7]),
             "ddq": np.array([-0.4, 2.0])}
"""Exercise 5: a state and acceleration of the planar 2R arm."""


@exercise("d/dt (T + U)", rule="dq^T tau with tau = rnea(q, dq, ddq)", tol=1e-6,
          hint="the power of the joint torques is dq^T tau, tau = rnea(q, dq, "
               "ddq).")
def ex5(answer):
    """``d/dt (T + U)`` of ``planar_arm(2)`` moving with ``ddq`` at the state
    :data:`STATE_EX5`."""
    q, dq, ddq = STATE_EX5["q"], STATE_EX5["dq"], STATE_EX5["ddq"]
    M, C, grav = two_link_arm(q, dq)
    return dq @ (M @ ddq + C @ dq + grav), [
        (dq @ (M @ ddq + C @ dq), "that is the rate of the kinetic energy only; "
                                  "the potential energy changes too: use the full "
                                  "tau, gravity included."),
        (dq @ M @ ddq, "the velocity terms C dq are missing, and gravity too."),
    ]


@exercise("the rank", tol=0.0, checks="the rank of the stacked regressor of "
          "planar_arm(2) is 6")
def ex6(answer):
    """The rank of the regressor of ``planar_arm(2)`` stacked over many random
    states."""
    return 6, [
        (20, "not all 20 parameters change the torques: e.g. the inertia about x "
             "never matters in the plane. Stack Y over many states and take the "
             "rank."),
        (4, "that is the rank without gravity; with gravity the first moments of "
            "link 1 show up separately."),
    ], ("{a:g} is not the rank; compute np.linalg.matrix_rank of the stacked "
        "regressor, of shape (2 K, 20) for K states.")


def ex7(answer):
    """Implement: ``answer(model, q) -> (Ic, M)``, the composite-rigid-body
    algorithm (Featherstone (2008), Table 6.2), run by
    :func:`liedyn.teach.implement.check_crba` on models the reader has not seen."""
    if not callable(answer):
        raise WrongAnswer("give your function, e.g. answer = my_crba, not a "
                          f"{type(answer).__name__}")
    return implement.check_crba(answer)


def _arm_planar(q2):
    """``I_1``, ``I_2`` and ``A = Ad_{T_12^-1}`` of ``planar_arm(2)`` in the plane,
    components ``(w_z, v_x, v_y)``: links of 1 kg and 1 m, centre of mass at 0.5 m,
    ``I_zz = 1/12`` kg m^2."""
    m, l, r, I_zz = 1.0, 1.0, 0.5, 1.0 / 12
    I = np.array([[I_zz + m * r ** 2, 0.0, m * r], [0.0, m, 0.0], [m * r, 0.0, m]])
    c, s = np.cos(q2), np.sin(q2)
    return I, I, np.array([[1.0, 0.0, 0.0], [l * s, c, s], [l * c, -s, c]])


def ex8(answer):
    """The composite inertia ``I^c_1`` of ``planar_arm(2)`` in the plane as a
    function ``answer(q2) -> (3, 3)``, evaluated at angles of the checker's own."""
    if not callable(answer):
        raise WrongAnswer("give a function Ic1(q2) that returns the 3x3 matrix, "
                          f"not a {type(answer).__name__}")
    for q2 in (0.0, 0.7, 2.0, -1.3):
        I1, I2, A = _arm_planar(q2)
        right = I1 + A.T @ I2 @ A
        diagnose(answer(q2), right, [
            (I1 + I2, "I^c_1 depends on q2: carry I_2 into frame 1 before adding "
                      "it, A^T I_2 A with A = Ad_{T_12^-1}."),
            (I1 + A @ I2 @ A.T, "the congruence is A^T I_2 A: the twist goes into "
                                "frame 2 with A, the wrench comes back with A^T."),
            (lambda a, right=right: abs(a[0, 0] - right[0, 0]) > 1e-8,
             "the (w_z, w_z) entry is the moment of inertia about joint 1, M_11 = "
             "alpha + 2 kappa cos q2."),
        ], what=f"I^c_1(q2 = {q2:g})",
            hint="I^c_1 = I_1 + A^T I_2 A with the planar matrices of the "
                 "exercise.")
    return True


# what the checker checks, as exercises.check records it for the other checkers
ex8.checks = (  # type: ignore[attr-defined]
    "I^c_1(q2) = I_1 + Ad*_{T_12^-1} I_2 Ad_{T_12^-1} at four angles, to 1e-08")


READ_OFF_RTOL = 0.02
"""Exercise 10: a value read off a plot is right to 2 %."""


def _eigenvalues(samples=4001):
    """The elbow angles q2 in [-pi, pi] and the two eigenvalues (ascending) of the
    mass matrix of ``planar_arm(2)`` there, from the closed form."""
    q2 = np.linspace(-np.pi, np.pi, samples)
    ev = [np.linalg.eigvalsh(two_link_arm(np.array([0.0, x]), np.zeros(2))[0])
          for x in q2]
    return q2, np.array(ev)


def _read_off(value):
    """A test: the answer is ``value`` to :data:`READ_OFF_RTOL`."""
    return lambda a: abs(float(a) - value) <= READ_OFF_RTOL * abs(value)


@exercise("the smallest eigenvalue", one_number=True, rtol=READ_OFF_RTOL,
          rule="min over q2 of the smaller eigenvalue of M(q)",
          checks="the smallest eigenvalue of M(q) of planar_arm(2) over q2 in "
                 "[-pi, pi] (closed form, 4001 angles), to 2 % (read off a plot)")
def ex10(answer):
    """The smallest eigenvalue (kg m^2) of the mass matrix of ``planar_arm(2)`` over
    all configurations, read off a plot of the eigenvalues against q2."""
    _, ev = _eigenvalues()
    M_folded = two_link_arm(np.array([0.0, np.pi]), np.zeros(2))[0]
    folded = np.linalg.eigvalsh(M_folded)
    return ev[:, 0].min(), [
        (_read_off(ev[:, 0].max()),
         "this is the largest value of the smaller eigenvalue (where M is "
         "diagonal, delta + kappa c2 = 0); the question asks for its smallest "
         "value."),
        (_read_off(folded[0]),
         "this is the smaller eigenvalue of the folded arm, q2 = pi; it is smaller "
         "elsewhere. Plot it over the whole range of q2."),
        (_read_off(ev[:, 1].min()),
         "this is the smallest value of the larger eigenvalue; the question asks "
         "for the smaller one."),
        (_read_off(ev[:, 1].max()),
         "this is the largest eigenvalue; the question asks for the smallest."),
    ]
