"""Checkers for the exercises of :ref:`sec-constrained` (chapter 9).

The planar linkages of ``liedyn.robots.four_bar`` and ``five_bar`` are rebuilt here
as rods with world-frame angles: their loop equations written out and
differentiated by hand, their mass matrices from the centre-of-mass Jacobians
(``M = sum m J_v^T J_v + I J_w^T J_w``), their gravity torques from the potential
energy.

Examples
--------
>>> from liedyn.teach.exercises import check, WrongAnswer
>>> try:
...     check("ch9.ex2", 0.0)
... except WrongAnswer as err:
...     print(str(err)[:25])
ch9.ex2: lambda is off by
"""
import numpy as np

from . import WrongAnswer, exercise
from ._closed_forms import GRAVITY

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "ex7", "GRAVITY", "FOUR_BAR",
           "FIVE_BAR", "PENDULUM_EX2", "DISK_EX5", "CRANK_EX7",
           "four_bar_configuration", "five_bar_configuration", "holding_torque"]

FOUR_BAR = {"lengths": (1.0, 2.0, 1.5, 2.0), "mass": 1.0, "crank_angle": 1.0}
"""``liedyn.robots.four_bar()``: crank ``a``, coupler ``b``, rocker ``c``, ground
``d``; uniform thin rods of ``mass`` each;
``q = (crank angle, coupler angle relative to the crank, rocker angle)``, the crank
at ``crank_angle``."""

FIVE_BAR = {"lengths": (1.0, 1.5, 1.5, 1.0, 1.0), "mass": 1.0, "locked": (1.6, 1.3)}
"""``liedyn.robots.five_bar()``: ``lengths = (l1, l2, l4, l3, d)``; rods ``link1``
(l1, mass m), two halves of ``A-P`` (l2/2 and m/2 each), ``link3`` (l3, m),
``link4`` (l4, m); the ground joints at ``locked`` (q1, q3)."""

PENDULUM_EX2 = {"mass": 2.0, "length": 1.5, "angle": 0.6, "rate": 1.2}
"""Exercise 2: a point mass on a rod, ``q = (x, y)``, ``x = l sin(angle)``,
``y = -l cos(angle)``, velocity ``l * rate * (cos(angle), sin(angle))``; gravity
``-GRAVITY`` along y."""

DISK_EX5 = {"radius": 0.5, "mass": 1.0, "carrier_mass": 1e-3, "carrier_izz": 1e-4,
            "torque": 0.2, "time": 2.0}
"""Exercise 5: ``liedyn.robots.rolling_disk()``: a disk (``mass``, ``radius``,
principal inertias ``m r^2 / 4`` about its diameters and ``m r^2 / 2`` about its
spin axis) on a light planar carrier (``carrier_mass``, ``carrier_izz`` about the
vertical); a constant spin torque ``torque`` (N m) from rest for ``time`` seconds,
no steering torque."""

CRANK_EX7 = (0.2, 1.8)
"""Exercise 7: the crank angles (rad) over which the holding torque is plotted."""


# --- closed-form planar linkages (world-frame angles, rods along their body x axes)
def _e(angle):
    return np.array([np.cos(angle), np.sin(angle)])


def _rods(kind, q):
    """Per rod: (joints on its path, world angle, joint origin, length, mass);
    joints 0-based."""
    if kind == "four":
        (a, b, c, d), m = FOUR_BAR["lengths"], FOUR_BAR["mass"]
        return [([0], q[0], np.zeros(2), a, m),
                ([0, 1], q[0] + q[1], a * _e(q[0]), b, m),
                ([2], q[2], np.array([d, 0.0]), c, m)]
    (l1, l2, l4, l3, d), m = FIVE_BAR["lengths"], FIVE_BAR["mass"]
    B = np.array([d, 0.0]) + l3 * _e(q[2])
    P = B + l4 * _e(q[2] + q[3])
    return [([0], q[0], np.zeros(2), l1, m),
            ([0, 1], q[0] + q[1], l1 * _e(q[0]), l2 / 2, m / 2),
            ([2], q[2], np.array([d, 0.0]), l3, m),
            ([2, 3], q[2] + q[3], B, l4, m),
            ([2, 3, 4], q[2] + q[3] + q[4], P, l2 / 2, m / 2)]


def _point_jacobian(rods, n, path, point):
    """``d point / dq`` (2, n) for a point fixed on the rod whose joint path is
    ``path``: each joint j on it adds ``e_z x (point - origin_j)``."""
    origins = {rod[0][-1]: rod[2] for rod in rods}
    J = np.zeros((2, n))
    for j in path:
        r = point - origins[j]
        J[:, j] = [-r[1], r[0]]
    return J


def _loop(kind, q):
    """World-frame loop residual ``f_w(q)`` (tip minus tip, and for the five-bar
    first the angle between the two halves of ``A-P``) and its Jacobian."""
    rods = _rods(kind, q)
    (p1, t1, o1, l1, _), (p2, t2, o2, l2, _) = rods[1], rods[-1]
    tip1, tip2 = o1 + l1 * _e(t1), o2 + l2 * _e(t2)
    f, J = tip1 - tip2, (_point_jacobian(rods, len(q), p1, tip1)
                         - _point_jacobian(rods, len(q), p2, tip2))
    if kind == "four":
        return f, J
    dtheta = np.zeros(len(q))
    dtheta[p1], dtheta[p2] = 1.0, -1.0
    angle = np.angle(np.exp(1j * (t1 - t2 - np.pi)))
    return np.r_[angle, f], np.vstack([dtheta, J])


def _close(kind, guess, locked):
    q = np.array(guess, dtype=float)
    free = [j for j in range(len(q)) if j not in locked]
    for _ in range(100):
        f, J = _loop(kind, q)
        if np.max(np.abs(f)) < 1e-14:
            break
        q[free] -= np.linalg.lstsq(J[:, free], f, rcond=None)[0]
    return q


def four_bar_configuration():
    """The closed configuration ``q0`` of :data:`FOUR_BAR` (the branch of
    ``four_bar()``)."""
    return _close("four", [FOUR_BAR["crank_angle"], -0.5, 1.5], locked=[0])


def five_bar_configuration():
    """The closed configuration ``q0`` of :data:`FIVE_BAR` (the branch of
    ``five_bar()``)."""
    q1, q3 = FIVE_BAR["locked"]
    return _close("five", [q1, -1.2, q3, 1.1, 2.0], locked=[0, 2])


def holding_torque(crank_angle):
    """The crank torque (N m) that holds :data:`FOUR_BAR` at rest with its crank at
    ``crank_angle`` (rad), by virtual work: ``t . dU/dq`` with ``t`` the allowed
    motion with ``dq1 = 1``. For crank angles from 0.25 to 1.7 rad the loop closes
    on the branch of ``four_bar(crank_angle=...)``.

    >>> round(float(holding_torque(FOUR_BAR["crank_angle"])), 3)
    7.616
    """
    q = _close("four", [crank_angle, -0.5, 1.5], locked=[0])
    J, grav = _loop("four", q)[1], _mass_and_gravity("four", q)[1]
    t = np.r_[1.0, np.linalg.solve(J[:, 1:], -J[:, 0])]    # the motion with dq1 = 1
    return t @ grav


def _balance(lo=1.3, hi=1.7):
    """The crank angle in ``[lo, hi]`` where :func:`holding_torque` changes sign
    (from positive to negative), by bisection."""
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if holding_torque(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def _mass_and_gravity(kind, q, g=GRAVITY):
    """``M(q)`` and the gravity torques ``dU/dq`` of a planar linkage of uniform
    thin rods."""
    n, rods = len(q), _rods(kind, q)
    M, grav = np.zeros((n, n)), np.zeros(n)
    for path, angle, origin, length, mass in rods:
        Jv = _point_jacobian(rods, n, path, origin + length / 2 * _e(angle))
        Jw = np.zeros(n)
        Jw[path] = 1.0
        M += mass * Jv.T @ Jv + mass * length ** 2 / 12 * np.outer(Jw, Jw)
        grav += mass * g * Jv[1]
    return M, grav


# --- the exercises ----------------------------------------------------------------
@exercise("d f_w / dq", rule="the derivative of (coupler tip) - (rocker tip)",
          hint="differentiate a cos q1 + b cos(q1 + q2) - d - c cos q3 and a sin "
               "q1 + b sin(q1 + q2) - c sin q3 with respect to q1, q2, q3.")
def ex1(answer):
    """``d f_w / dq`` (2, 3) at ``q0``, ``f_w = (coupler tip) - (rocker tip)``,
    world frame."""
    if np.shape(answer) == (3, 2):
        raise WrongAnswer("your matrix is 3 x 2: the Jacobian has one row per "
                          "constraint (m = 2) and one column per coordinate (n = "
                          "3); transpose it.")
    q = four_bar_configuration()
    J = _loop("four", q)[1]
    c, s = np.cos(q[2]), np.sin(q[2])
    body = np.array([[c, s], [-s, c]]) @ J                     # R(q_3)^T J
    in_b = ("this is the Jacobian expressed in the rocker tip's frame {b} "
            "(liedyn's A, which constrains the relative twist in {b}); the "
            "exercise asks for the world frame: multiply by R(q_3).")
    return J, [(-J, "wrong sign: f_w is the coupler's tip minus the rocker's tip."),
               (-body, in_b), (body, in_b)]


@exercise("lambda", rule="-(A M^-1 A^T)^-1 (A ddq_r + dA dq) (Kim eq. (67))",
          rtol=1e-8, hint="lambda = -(A M^-1 A^T)^-1 (A ddq_r + dA dq), Kim eq. "
                          "(67), with ddq_r = (0, -g), A = (x, y), dA dq = dx^2 + "
                          "dy^2.")
def ex2(answer):
    """The multiplier ``lambda`` of the Cartesian pendulum in Kim's convention (Kim
    eq. (54))."""
    p, g = PENDULUM_EX2, GRAVITY
    m, l = p["mass"], p["length"]
    y, v2 = -l * np.cos(p["angle"]), (l * p["rate"]) ** 2   # the mass at (x, y)
    right = m / l ** 2 * (g * y - v2)
    drift = ("you left out the drift term dA dq = dx^2 + dy^2: the moving mass "
             "needs a centripetal force m v^2 / l as well.")
    return right, [
        (-right, "wrong sign: this is Murray's convention, M ddq + N + A^T lambda "
                 "= F. In Kim's eq. (54) the constraint force is +A^T lambda: here "
                 "the rod pulls the mass towards the pivot, so lambda < 0 with A = "
                 "(x, y)."),
        (-m / l ** 2 * (g * y + v2), "this is the formula printed in Murray's "
                                     "notes, -(m/l^2)(g y + v^2); evaluate the "
                                     "explicit solution for lambda yourself: its "
                                     "velocity term has the other sign (see the "
                                     "errata appendix)."),
        (m / l ** 2 * g * y, drift), (-m / l ** 2 * g * y, drift),
        (lambda a: np.isclose(abs(a), abs(right) * l, rtol=1e-8),
         "this is the tension |A^T lambda| = l |lambda| (N); the exercise asks for "
         "lambda itself, with A = (x, y)."),
    ]


@exercise("tau_1", rule="t . dU/dq, t the motion with dq1 = 1 (Kim eq. (58))",
          hint="static: tau + A^T lambda = g(q) with tau = (tau_1, 0, 0); m = n_p "
               "= 2.")
def ex3(answer):
    """Crank torque ``tau_1`` that holds the four-bar at rest at ``q0`` (crank
    actuated only)."""
    q = four_bar_configuration()
    J, grav = _loop("four", q)[1], _mass_and_gravity("four", q)[1]
    t = np.r_[1.0, np.linalg.solve(J[:, 1:], -J[:, 0])]    # the motion with dq1 = 1
    return t @ grav, [
        (-(t @ grav), "wrong sign: tau is the torque the motor applies to the "
                      "crank; it balances the weight, tau_1 = t . dU/dq with t the "
                      "motion with dq1 = 1."),
        (grav[0], "this is the open-chain gravity torque tau_r1 of the crank and "
                  "coupler alone (lambda = 0): the loop carries part of the "
                  "weight. Solve A_p^T lambda = tau_pr (Kim eq. (57)) first, then "
                  "tau_a = tau_ar - A_a^T lambda (Kim eq. (58))."),
    ]


@exercise("tau", rule="(1 - A^T (A A^T)^-1 A) tau_r (Kim eqs. (65)-(66))", tol=1e-7,
          hint="tau = (1 - A^T (A A^T)^-1 A) tau_r: the part of tau_r orthogonal "
               "to the rows of A.")
def ex4(answer):
    """Least-norm torques (all five joints actuated) holding the five-bar at rest at
    ``q0``."""
    q = five_bar_configuration()
    J, grav = _loop("five", q)[1], _mass_and_gravity("five", q)[1]
    right = grav - J.T @ np.linalg.solve(J @ J.T, J @ grav)
    return right, [
        (grav, "tau = tau_r with lambda = 0 does hold the linkage (the open tree "
               "holds itself up), and it is what min_constraint_force gives with "
               "n_p = 0; but it is not the least torque. Use Kim eqs. (65)-(66)."),
        (-right, "wrong sign: tau = tau_r - A^T lambda with lambda = (A A^T)^-1 A "
                 "tau_r."),
        (lambda a: np.allclose(a[[1, 3, 4]], 0.0, rtol=0, atol=1e-8),
         "these are the torques of the two ground motors alone (the unique case, "
         "Kim eq. (58)); with all five joints actuated the least-norm solution "
         "spreads the load over every joint."),
    ]


@exercise("the forward speed", rule="r tau_phi T / (I_2 + m r^2)",
          hint="ddphi = tau_phi / (I_2 + m r^2) is constant; v = r ddphi T.")
def ex5(answer):
    """Forward speed (m/s) of the rolling disk of :data:`DISK_EX5` after ``time``
    seconds."""
    d = DISK_EX5
    r, m, mc = d["radius"], d["mass"], d["carrier_mass"]
    I_spin, I_roll = m * r ** 2 / 2, (m + mc) * r ** 2
    impulse = r * d["torque"] * d["time"]                # v = r tau T / inertia
    right = impulse / (I_spin + I_roll)
    return right, [(impulse / inertia, text) for inertia, text in [
        (I_spin, "you left out the translational inertia m r^2: the constraint "
                 "makes the disk's centre move at r dphi, so Kim eq. (54) "
                 "projected on the allowed motion has (I_2 + m r^2) ddphi = "
                 "tau_phi (Murray's rolling disk)."),
        (I_roll, "you left out the disk's own spin inertia I_2 = m r^2 / 2."),
        (m * r ** 2 / 4 + I_roll, "the disk spins about its axis of symmetry: I_2 "
                                  "= m r^2 / 2, not m r^2 / 4."),
        (I_spin + m * r ** 2, "the carrier moves with the disk: its mass (1 g) "
                              "counts in the translational inertia too.")]] + [
        (right / r, "this is the spin rate dphi (rad/s); the forward speed is r "
                    "dphi.")]


@exercise("(tau_1, ddq_3)", rule="Kim eqs. (70)-(71) at rest", tol=1e-7,
          hint="with q_u = q_1 and q_v = (q_2, ..., q_5): Kim eqs. (70)-(71) at "
               "rest (dA dq = 0), or constrained_hybrid.")
def ex6(answer):
    """``(tau_1, ddq_3)``: five-bar at rest at ``q0``, crank held (``ddq_1 = 0``),
    rest passive."""
    q = five_bar_configuration()
    J = _loop("five", q)[1]
    M, grav = _mass_and_gravity("five", q)
    # M ddq + g = tau + J^T lambda, J ddq = 0; unknowns (tau_1, ddq_2..5, lambda)
    K = np.block([[M, -J.T], [J, np.zeros((3, 3))]])
    K[:, 0] = np.r_[-1.0, np.zeros(7)]                    # ddq_1 = 0 -> -tau_1 e_1
    x = np.linalg.solve(K, np.r_[-grav, np.zeros(3)])
    right = np.array([x[0], x[2]])
    K[:, 0] = np.r_[M[:, 0], J[:, 0]]                          # every torque zero
    free = np.linalg.solve(K, np.r_[-grav, np.zeros(3)])[2]
    open_tree = M[0, 1] * -grav[1] / M[1, 1] + grav[0]    # crank branch, lambda = 0
    return right, [
        (right[::-1], "the two numbers are in the wrong order: give (tau_1, "
                      "ddq_3)."),
        (lambda a: np.isclose(a[1], free, rtol=1e-8),
         "this ddq_3 is the free fall with every torque zero; the crank is held "
         "(ddq_1 = 0 prescribed), which changes how the rest moves."),
        (lambda a: np.isclose(a[0], open_tree, rtol=1e-8),
         "this tau_1 ignores the loop (lambda = 0): the crank then only carries "
         "its own branch. Solve Kim eq. (76) for lambda and use Kim eq. (79)."),
        (lambda a: np.isclose(a[0], -right[0], rtol=1e-8), "wrong sign of tau_1."),
    ]


@exercise("the crank angle of balance", tol=0.02, one_number=True,
          rule="the zero of the holding torque tau_1(q_1) on [0.2, 1.8] rad",
          hint="plot tau_1 from constrained_inverse (crank actuated, joints 2 "
               "and 3 passive, dq = ddq = 0) against the crank angle and read off "
               "where it crosses zero.")
def ex7(answer):
    """The crank angle (rad) at which :data:`FOUR_BAR` rests with no motor torque,
    read off the plot of the holding torque over :data:`CRANK_EX7`."""
    right = _balance()
    lo, hi = CRANK_EX7
    return right, [
        (np.degrees(right), "this is the angle in degrees; give it in radians."),
        (lambda a: 0.5 < a < 0.8,
         "that is where the holding torque is largest (about 9.5 N m); the linkage "
         "rests without a motor where tau_1 changes sign."),
        (lambda a: not lo <= a <= hi,
         f"the plot runs over crank angles from {lo} to {hi} rad, and the zero of "
         "tau_1 lies inside it."),
    ]
