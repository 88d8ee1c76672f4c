"""Checkers for the exercises of chapter 1, "Rigid-body motion"
(``book/01_rigid_body_motion``).

Rotations, adjoints, twists, wrenches, the exponential coordinates and the error
of a finite difference against the complex step, with :mod:`liedyn.lie` (chapter 1
builds it).

Examples
--------
>>> from liedyn.teach.exercises import check, WrongAnswer
>>> from liedyn.lie import Ad, make_transform
>>> T_ab = make_transform(ROT_Z_90, [1.0, 2.0, 0.0])
>>> check("ch1.ex1", Ad(T_ab))
ch1.ex1: correct. Checked: Ad_T = [[R, 0], [[p] R, R]] (Kim eq. (7)), to 1e-08.
True
>>> try:
...     check("ch1.ex1", Ad(T_ab).T)
... except WrongAnswer as err:
...     print(str(err)[:64])
ch1.ex1: this is the transpose of Ad_T, i.e. the coadjoint Ad*_T
"""
import numpy as np

from ...dexp import dexp_inv_so3, dexp_so3
from ...lie import Ad, Ad_inv, ad, ad_star, log_se3, make_transform
from . import WrongAnswer, exercise
from ._closed_forms import skew

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "ROT_Z_90", "STEPS_EX7"]

ROT_Z_90 = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
"""The rotation by 90 degrees about z used in exercises 1-4."""

_P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
"""Swaps the halves of a 6-vector: (w, v) <-> (v, w)."""

_ORDER = ("liedyn and Kim (2012) put the angular part first: twists are (w, v) and "
          "wrenches (m, f); you seem to have used the (v, w) order of Pinocchio "
          "and From (2012).")


@exercise("Ad_T", rule="[[R, 0], [[p] R, R]] (Kim eq. (7))")
def ex1(answer):
    """Ad of ``T_ab = (R, p)`` with ``R`` = 90 degrees about z and
    ``p = (1, 2, 0)``: a (6, 6) array."""
    R, p = ROT_Z_90, np.array([1.0, 2.0, 0.0])
    T, P, Z = make_transform(R, p), skew(p), np.zeros((3, 3))
    right = Ad(T)
    return right, [
        (right.T, "this is the transpose of Ad_T, i.e. the coadjoint Ad*_T "
                  "(Kim's eq. (8)), which acts on wrenches. "
                  "Ad_T = [[R, 0], [[p] R, R]] "
                  "has its zero block in the upper right."),
        (Ad_inv(T), "this is Ad of the inverse, Ad_{T^-1} = [[R^T, 0], [-R^T [p], "
                    "R^T]]. Use R and p of T itself."),
        (_P @ right @ _P, "your blocks are in (v, w) order, [[R, [p] R], [0, R]]. "
                          + _ORDER),
        (np.block([[R, Z], [R @ P, R]]), "the lower-left block is [p] R, not R "
                                         "[p]: the rotation acts first, then the "
                                         "cross product with p."),
        (np.block([[R, Z], [-P @ R, R]]), "sign error in the lower-left block: it "
                                          "is +[p] R (from T [w] T^-1 = [R w] and "
                                          "v' = R v + p x (R w))."),
        (np.block([[R, Z], [Z, R]]), "the lower-left block [p] R is missing: a "
                                     "rotation seen from an origin displaced by p "
                                     "also looks like a velocity."),
        (np.block([[R.T, Z], [P @ R.T, R.T]]), "you used R^T where R belongs: R is "
                                               "the orientation of {B} relative to "
                                               "{A}."),
    ]


@exercise("V_b", rule="Ad_{T_sb^-1} V_s with V_s = (0, 0, 2, 0, 0, 0)")
def ex2(answer):
    """Body twist of {B} on a turntable spinning at 2 rad/s about the z axis of {S}.

    ``T_sb`` has ``R`` = 90 degrees about z and ``p = (0.5, 0, 0.1)``. The answer is
    ``V_b``, a 6-vector ``(w, v)``.
    """
    T = make_transform(ROT_Z_90, [0.5, 0.0, 0.1])
    V_s = np.array([0.0, 0.0, 2.0, 0.0, 0.0, 0.0])
    right = Ad_inv(T) @ V_s
    return right, [
        (Ad(T) @ V_s, "you applied Ad_{T_sb}, which maps a body twist to the "
                      "spatial one. Here the spatial twist V_s is known; V_b = "
                      "Ad_{T_sb^-1} V_s."),
        (_P @ right, _ORDER),
        (right * [1, 1, 1, -1, -1, -1], "sign error in the linear part: the origin "
                                        "of {B} moves with w x p, not p x w."),
        (np.r_[V_s[:3], np.cross(V_s[:3], T[:3, 3])],
         "this is w x p expressed in {S}; the body twist is expressed in {B}, so "
         "rotate it by R^T."),
        (V_s, "the angular velocity is the same in every frame on the table, but "
              "the origin of {B} is 0.5 m from the axis: its velocity is not "
              "zero."),
    ]


@exercise("F_s", rule="Ad*_{T_gs} F_g = Ad_{T_sg^-1}^T F_g")
def ex3(answer):
    """Wrench measured by a sensor {S} when the force f_g = (5, 0, 0) acts at the
    tool origin.

    ``T_sg`` has ``R`` = 90 degrees about z and ``p = (0, 0, 0.2)``; the force is
    expressed in {G}. The answer is ``F_s = (m, f)`` in {S}.
    """
    T = make_transform(ROT_Z_90, [0.0, 0.0, 0.2])
    F_g = np.array([0.0, 0.0, 0.0, 5.0, 0.0, 0.0])
    right = Ad_inv(T).T @ F_g
    return right, [
        (Ad(T).T @ F_g, "you applied Ad*_{T_sg}, which moves a wrench from {S} to "
                        "{G} (Kim eq. (13): F_b = Ad*_{T_ab} F_a). From {G} to {S} "
                        "use Ad*_{T_gs} = Ad_{T_sg^-1}^T."),
        (_P @ right, _ORDER),
        (right * [-1, -1, -1, 1, 1, 1], "sign error in the moment: m = p x f "
                                        "(lever arm first), not f x p."),
        (np.r_[np.cross(T[:3, 3], F_g[3:]), F_g[3:]],
         "the force is expressed in {G}: rotate it into {S} with R before taking "
         "the moment."),
        (np.r_[np.zeros(3), right[3:]], "the moment is missing: the force acts 0.2 "
                                        "m from the sensor's origin, so it has a "
                                        "moment about it."),
    ]


@exercise("xi", rule="log_se3(T), or v = -w x r + ell w in closed form")
def ex4(answer):
    """The twist ``xi = (w, v)`` with ``exp(xi) = T`` for the screw motion of
    exercise 4.

    ``T``: rotation by 90 degrees about the axis through ``r = (1, 0, 0)`` parallel
    to z, with an advance of 0.5 along z, so ``R`` = 90 degrees about z and
    ``p = (1, -1, 0.5)``.
    """
    T = make_transform(ROT_Z_90, [1.0, -1.0, 0.5])
    right = log_se3(T)
    w = right[:3]
    return right, [
        (np.r_[w, T[:3, 3]], "v is not the translation p of T: the translation of "
                             "exp(xi) is J_l(w) v, so v = J_l(w)^-1 p (or: v = -w "
                             "x r + ell w for a screw with axis point r and pitch "
                             "ell)."),
        (_P @ right, _ORDER),
        (np.r_[np.degrees(w), right[3:]], "the angle must be in radians: |w| = "
                                          "pi/2, not 90."),
        (right * [1, 1, 1, -1, -1, 1], "sign error in v: for a rotation about an "
                                       "axis through r, v = -w x r = r x w."),
        (right * [1, 1, 1, 1, 1, -1], "the advance along the axis is +0.5: the "
                                      "pitch term ell w points along +w."),
        (-right, "this is the log of T^-1: the motion turns +90 degrees about +z."),
    ]


@exercise("dY", rule="ad*_V Y (Lemma 2, Kim eq. (28), with d/dt Y = 0)")
def ex5(answer):
    """Component-wise rate of change of a space-fixed wrench Y seen from a moving
    body.

    The body moves with twist ``V = (1, 0, 0, 0, 0.5, 0)``; at this instant the
    wrench (say the weight of a point mass at the body origin) reads
    ``Y = (0, 0, 0, 0, 0, -9.81)`` in the body frame. Since Y is constant in the
    inertial frame, ``d/dt Y = 0``; the answer is ``dY``, the component-wise
    derivative (a 6-vector).
    """
    V = np.array([1.0, 0.0, 0.0, 0.0, 0.5, 0.0])
    Y = np.array([0.0, 0.0, 0.0, 0.0, 0.0, -9.81])
    right = ad_star(V) @ Y
    return right, [
        (-right, "sign error: Lemma 2 says d/dt Y = dY - ad*_V Y, so d/dt Y = 0 "
                 "gives dY = +ad*_V Y."),
        (ad(V) @ Y, "you used ad_V, the rule of Lemma 1 for twists. Y is a wrench, "
                    "an element of dse(3): its rule has ad*_V = ad_V^T (Lemma 2), "
                    "with the opposite sign."),
        (-(ad(V) @ Y), "you used -ad_V Y: right sign, but a wrench transforms with "
                       "ad*_V = ad_V^T (Lemma 2), not with ad_V."),
        (_P @ right, _ORDER),
        (np.zeros(6), "Y is constant in the inertial frame (d/dt Y = 0), but its "
                      "components in the moving body frame change: dY = ad*_V Y."),
    ]


@exercise("w", rule="J_r(phi) d(phi)/dt with J_r = dexp_so3(phi)")
def ex6(answer):
    """Body angular velocity of ``R(t) = exp([phi(t)])`` at t = 1, phi(t) = (0.3 t,
    0.2, -0.5 t^2).

    The answer is ``w`` with ``[w] = R^T dR/dt``, a 3-vector.
    """
    phi, dphi = np.array([0.3, 0.2, -0.5]), np.array([0.3, 0.0, -1.0])
    return dexp_so3(phi, side="right") @ dphi, [
        (dexp_so3(phi, side="left") @ dphi,
         "that is the spatial angular velocity dR/dt R^T = [J_l(phi) dphi]. The "
         "body angular velocity uses the right Jacobian J_r(phi) = J_l(-phi)."),
        (dphi, "the angular velocity is not d(phi)/dt unless phi and its rate are "
               "parallel: multiply by the right Jacobian J_r(phi)."),
        (dexp_inv_so3(phi, side="right") @ dphi,
         "you used the inverse Jacobian: it maps an angular velocity to d(phi)/dt, "
         "not back."),
    ]


STEPS_EX7 = 10.0 ** -np.arange(1, 17)
"""Exercise 7: the steps h = 1e-1, ..., 1e-16 of the finite differences."""


def _best_forward_step():
    """The step of :data:`STEPS_EX7` at which the forward difference of f(theta) =
    -0.8 sin(theta), the entry [0, 1] of exp(theta [a]) for a = (0.6, 0, 0.8), is
    nearest to f'(1) = -0.8 cos(1); and that smallest error."""
    f = lambda theta: -0.8 * np.sin(theta)
    error = np.abs((f(1 + STEPS_EX7) - f(1.0)) / STEPS_EX7 + 0.8 * np.cos(1.0))
    return STEPS_EX7[np.argmin(error)], error.min()


@exercise("the best step h", one_number=True,
          checks="the forward difference is most accurate at h = 1e-8, near "
                 "sqrt(eps) = 1.5e-8 (to a factor 2)")
def ex7(answer):
    """The step h of :data:`STEPS_EX7` at which the forward difference of
    ``exp_so3(theta * a)[0, 1]``, ``a = (0.6, 0, 0.8)``, at theta = 1 is most
    accurate, read off a plot of its error against h."""
    best, smallest_error = _best_forward_step()
    if answer <= 0:
        if answer == np.log10(best):
            raise WrongAnswer(f"give the step h itself, 10^{answer:g}, not its "
                              "exponent.")
        raise WrongAnswer("a step is a positive number, e.g. 1e-3.")
    if abs(np.log10(answer / best)) <= np.log10(2):
        return None
    if abs(np.log10(answer / smallest_error)) <= np.log10(2):
        raise WrongAnswer("that is about the smallest error of the forward "
                          "difference; the question asks for the step h at which "
                          "it is reached.")
    if answer < best:
        raise WrongAnswer(
            "at steps this small the forward difference loses digits to round-off: "
            "f(1 + h) and f(1) agree in more and more digits and their difference "
            "keeps fewer, an error like eps/h. Only the complex step stays exact "
            "there. Look for the lowest point of the forward difference's curve.")
    raise WrongAnswer(
        "at steps this large the forward difference is limited by its truncation "
        "error, about h |f''|/2, which still falls as h shrinks. Look for the "
        "lowest point of its curve.")
