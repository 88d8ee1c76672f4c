"""Checkers for the exercises of :ref:`sec-constrained` (chapter 9, constrained
systems).

The expected answers are computed here in closed form with plain numpy: the planar
linkages of ``liedyn.robots.four_bar`` and ``five_bar`` are rebuilt as rods with
world-frame angles, their loop equations written out and differentiated by hand,
their mass matrices assembled from the centre-of-mass Jacobians
(``M = sum m J_v^T J_v + I J_w^T J_w``) and their gravity torques from the potential
energy. Nothing here calls the liedyn code the notebook uses. Typical wrong answers
(the constraint Jacobian in the wrong frame or with the wrong sign, Murray's sign
convention for the multipliers, the open-chain torques that ignore the loop, a
forgotten inertia) get a hint of their own.

=======  =======================================================  ==================
id       task                                                     answer
=======  =======================================================  ==================
ch9.ex1  world-frame Jacobian of the four-bar's loop equations    (2, 3) array
ch9.ex2  the multiplier of the Cartesian pendulum (Kim's sign)    scalar ``lambda``
ch9.ex3  crank torque that holds the four-bar still             scalar ``tau_1``
         (Kim eq. (58))
ch9.ex4  least torques holding the fully actuated five-bar       (5,) array
         (Kim eq. (65))
ch9.ex5  forward speed of the rolling disk after a constant       scalar (m/s)
         torque
ch9.ex6  five-bar, crank held still, the rest released           ``(tau_1, ddq_3)``
         (Kim eq. (76))
=======  =======================================================  ==================

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

from . import WrongAnswer, expect_close, expect_shape

__all__ = ["ex1", "ex2", "ex3", "ex4", "ex5", "ex6", "GRAVITY", "FOUR_BAR",
           "FIVE_BAR", "PENDULUM_EX2", "DISK_EX5", "four_bar_configuration",
           "five_bar_configuration"]

GRAVITY = 9.81
"""Magnitude of the gravity acceleration (m/s^2), along -y for the planar
mechanisms."""

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


# --- closed-form planar linkages (world-frame angles, rods along their body x axes)
# ------------
def _e(angle):
    return np.array([np.cos(angle), np.sin(angle)])


def _rods(kind, q):
    """Per rod: (joints on its path, world angle, joint origin, length, mass);
    joints 0-based."""
    q = np.asarray(q, dtype=float)
    if kind == "four":
        a, b, c, d = FOUR_BAR["lengths"]
        m = FOUR_BAR["mass"]
        o_b = a * _e(q[0])
        return [([0], q[0], np.zeros(2), a, m),
                ([0, 1], q[0] + q[1], o_b, b, m),
                ([2], q[2], np.array([d, 0.0]), c, m)]
    l1, l2, l4, l3, d = FIVE_BAR["lengths"]
    m = FIVE_BAR["mass"]
    A = l1 * _e(q[0])
    B = np.array([d, 0.0]) + l3 * _e(q[2])
    P = B + l4 * _e(q[2] + q[3])
    return [([0], q[0], np.zeros(2), l1, m),
            ([0, 1], q[0] + q[1], A, l2 / 2, m / 2),
            ([2], q[2], np.array([d, 0.0]), l3, m),
            ([2, 3], q[2] + q[3], B, l4, m),
            ([2, 3, 4], q[2] + q[3] + q[4], P, l2 / 2, m / 2)]


def _joint_origins(kind, q):
    """World position of each joint (0-based), the point the joint's rod turns
    about."""
    return {j: origin for path, _, origin, _,
            _ in _rods(kind, q) for j in path[-1:]}


def _point_jacobian(kind, q, path, point):
    """``d point / dq`` (2, n) for a point fixed on the rod whose joint path is
    ``path``."""
    n = len(q)
    origins = _joint_origins(kind, q)
    J = np.zeros((2, n))
    for j in path:
        r = point - origins[j]
        J[:, j] = [-r[1], r[0]]                      # e_z x r
    return J


def _loop(kind, q):
    """World-frame loop residual ``f_w(q)`` and its Jacobian ``d f_w / dq``."""
    rods = _rods(kind, q)
    if kind == "four":
        (_, _, _, _, _), (pc, tc, oc, lc, _), (pr, tr, orr, lr, _) = rods
        tip_c, tip_r = oc + lc * _e(tc), orr + lr * _e(tr)
        f = tip_c - tip_r
        J = _point_jacobian(kind, q, pc, tip_c) - _point_jacobian(
            kind, q, pr, tip_r)
        return f, J
    pa, ta, oa, la, _ = rods[1]
    pb, tb, ob, lb, _ = rods[4]
    tip_a, tip_b = oa + la * _e(ta), ob + lb * _e(tb)
    dtheta = np.zeros(len(q))
    dtheta[pa], dtheta[pb] = 1.0, -1.0
    angle = np.angle(np.exp(1j * (ta - tb - np.pi)))
    f = np.concatenate([[angle], tip_a - tip_b])
    J_tip = _point_jacobian(kind, q, pa, tip_a) - _point_jacobian(
        kind, q, pb, tip_b)
    J = np.vstack([dtheta, J_tip])
    return f, J


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


def _mass_and_gravity(kind, q, g=GRAVITY):
    """``M(q)`` and the gravity torques ``dU/dq`` of a planar linkage of uniform
    thin rods."""
    n = len(q)
    M, grav = np.zeros((n, n)), np.zeros(n)
    for path, angle, origin, length, mass in _rods(kind, q):
        com = origin + length / 2 * _e(angle)
        Jv = _point_jacobian(kind, q, path, com)
        Jw = np.zeros(n)
        Jw[path] = 1.0
        M += mass * Jv.T @ Jv + mass * length ** 2 / 12 * np.outer(Jw, Jw)
        grav += mass * g * Jv[1]
    return M, grav


def _same(a, b, tol=1e-8):
    b = np.asarray(b, dtype=float)
    return a.shape == b.shape and bool(np.max(np.abs(a - b), initial=0.0) <= tol)


def _rot(angle):
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s], [s, c]])


# --- the exercises ----------------------------------------------------------------
def ex1(answer):
    """``d f_w / dq`` (2, 3) at ``q0``, ``f_w = (coupler tip) - (rocker tip)``,
    world frame."""
    q = four_bar_configuration()
    _, J = _loop("four", q)
    if np.shape(answer) == (3, 2):
        raise WrongAnswer("your matrix is 3 x 2: the Jacobian has one row per "
                          "constraint (m = 2) and one column per coordinate (n = "
                          "3); transpose it.")
    a = expect_shape(answer, (2, 3), "d f_w / dq")
    if _same(a, -J):
        raise WrongAnswer("wrong sign: f_w is the coupler's "
                          "tip minus the rocker's tip.")
    body = _rot(q[2]).T @ J
    for cand in (-body, body):
        if _same(a, cand):
            raise WrongAnswer("this is the Jacobian expressed in the rocker tip's "
                              "frame {b} "
                              "(liedyn's A, which constrains the relative twist in "
                              "{b}); the "
                              "exercise asks for the world "
                              "frame: multiply by R(q_3).")
    expect_close(a, J, "d f_w / dq", hint="differentiate a cos q1 "
                                          "+ b cos(q1 + q2) - d - "
                 "c cos q3 and a sin q1 + b sin(q1 + q2) - c sin q3 with respect "
                 "to q1, q2, q3.")


def _pendulum():
    p = PENDULUM_EX2
    m, l, phi, rate = p["mass"], p["length"], p["angle"], p["rate"]
    y = -l * np.cos(phi)                       # the mass is at (l sin(phi), y)
    v2 = (l * rate) ** 2
    return m, l, y, v2


def ex2(answer):
    """The multiplier ``lambda`` of the Cartesian pendulum in Kim's convention (Kim
    eq. (54))."""
    m, l, y, v2 = _pendulum()
    g = GRAVITY
    right = m / l ** 2 * (g * y - v2)     # -(A M^-1 A^T)^-1 (A ddq_r + dA dq), (67)
    a = float(expect_shape(answer, (), "lambda"))
    if np.isclose(a, -right, rtol=1e-8):
        raise WrongAnswer("wrong sign: this is Murray's convention, M ddq + N + "
                          "A^T lambda = F. In Kim's eq. (54) the constraint force "
                          "is +A^T lambda: here the rod pulls the mass towards the "
                          "pivot, so lambda < 0 with A = (x, y).")
    if np.isclose(a, -m / l ** 2 * (g * y + v2), rtol=1e-8):
        raise WrongAnswer("this is the formula printed in Murray's notes, "
                          "-(m/l^2)(g y + v^2); evaluate the explicit solution for "
                          "lambda yourself: its velocity term has the other sign "
                          "(see the errata appendix).")
    if np.isclose(a, m / l**2 * g * y, rtol=1e-8) or np.isclose(
        a, -m / l**2 * g * y, rtol=1e-8):
        raise WrongAnswer("you left out the drift term dA dq = dx^2 + dy^2: the "
                          "moving mass needs a centripetal "
                          "force m v^2 / l as well.")
    if np.isclose(abs(a), abs(right) * l, rtol=1e-8):
        raise WrongAnswer("this is the tension |A^T lambda| = l |lambda| (N); the "
                          "exercise asks for lambda itself, with A = (x, y).")
    expect_close(a, right, "lambda", tol=1e-8 * max(1.0, abs(right)),
                 hint="lambda = -(A M^-1 A^T)^-1 (A ddq_r + dA dq), Kim eq. (67), "
                      "with ddq_r = (0, -g), A = (x, y), dA dq = dx^2 + dy^2.")


def ex3(answer):
    """Crank torque ``tau_1`` that holds the four-bar at rest at ``q0`` (crank
    actuated only)."""
    q = four_bar_configuration()
    _, J = _loop("four", q)
    _, grav = _mass_and_gravity("four", q)
    # motion with dq1 = 1
    t = np.concatenate([[1.0], np.linalg.solve(J[:, 1:], -J[:, 0])])
    right = t @ grav
    a = float(expect_shape(answer, (), "tau_1"))
    if np.isclose(a, -right, rtol=1e-8):
        raise WrongAnswer("wrong sign: tau is the torque the motor applies to the "
                          "crank; it balances the weight, tau_1 = t . dU/dq with t "
                          "the motion with dq1 = 1.")
    if np.isclose(a, grav[0], rtol=1e-8):
        raise WrongAnswer("this is the open-chain gravity torque tau_r1 of the "
                          "crank and coupler alone (lambda = 0): the loop carries "
                          "part of the weight. Solve A_p^T lambda = tau_pr "
                          "(Kim eq. (57)) first, then tau_a = tau_ar - A_a^T "
                          "lambda (Kim eq. (58)).")
    expect_close(a, right, "tau_1", tol=1e-8,
                 hint="static: tau + A^T lambda = g(q) with "
                      "tau = (tau_1, 0, 0); m = n_p = 2.")


def ex4(answer):
    """Least-norm torques (all five joints actuated) holding the five-bar at rest at
    ``q0``."""
    q = five_bar_configuration()
    _, J = _loop("five", q)
    _, grav = _mass_and_gravity("five", q)
    right = grav - J.T @ np.linalg.solve(J @ J.T, J @ grav)     # Kim eqs. (65)-(66)
    a = expect_shape(answer, (5,), "tau")
    if _same(a, grav):
        raise WrongAnswer("tau = tau_r with lambda = 0 does hold the linkage (the "
                          "open tree holds itself up), and it is what "
                          "min_constraint_force gives with n_p = 0; but it is not "
                          "the least torque. Use Kim eqs. (65)-(66).")
    if _same(a, -right):
        raise WrongAnswer("wrong sign: tau = tau_r - A^T lambda with lambda = (A "
                          "A^T)^-1 A tau_r.")
    if _same(a[[1, 3, 4]], np.zeros(3)) and not _same(right[[1, 3, 4]],
                                                      np.zeros(3)):
        raise WrongAnswer("these are the torques of the two ground motors alone "
                          "(the unique case, Kim eq. (58)); with all five joints "
                          "actuated the least-norm solution spreads the load over "
                          "every joint.")
    expect_close(a, right, "tau", tol=1e-7,
                 hint="tau = (1 - A^T (A A^T)^-1 A) tau_r: the part of tau_r "
                      "orthogonal to the rows of A.")


def ex5(answer):
    """Forward speed (m/s) of the rolling disk of :data:`DISK_EX5` after ``time``
    seconds."""
    d = DISK_EX5
    r, m, mc, tq, T = (d["radius"], d["mass"], d["carrier_mass"], d["torque"],
                       d["time"])
    I_spin = m * r ** 2 / 2

    def speed(inertia):
        return r * tq * T / inertia

    right = speed(I_spin + (m + mc) * r ** 2)
    a = float(expect_shape(answer, (), "the forward speed"))
    for inertia, text in [
            (I_spin, "you left out the translational inertia m r^2: the constraint "
                     "makes the disk's centre move at r dphi, so Kim eq. (54) "
                     "projected on the allowed motion has (I_2 + m r^2) ddphi = "
                     "tau_phi (Murray's rolling disk)."),
            ((m + mc) * r ** 2, "you left out the disk's own "
                                "spin inertia I_2 = m r^2 / 2."),
            (m * r ** 2 / 4 + (m + mc) * r ** 2, "the disk spins about "
                                                 "its axis of symmetry: "
                                                  "I_2 = m r^2 / "
                                                  "2, not m r^2 / 4."),
            (I_spin + m * r ** 2, "the carrier moves with the disk: its mass (1 g) "
                                  "counts in the translational inertia too.")]:
        if np.isclose(a, speed(inertia), rtol=1e-9):
            raise WrongAnswer(text)
    if np.isclose(a, right / r, rtol=1e-9):
        raise WrongAnswer("this is the spin rate dphi (rad/s); "
                          "the forward speed is r dphi.")
    expect_close(a, right, "the forward speed", tol=1e-8,
                 hint="ddphi = tau_phi / (I_2 + m r^2) is constant; v = r ddphi T.")


def ex6(answer):
    """``(tau_1, ddq_3)``: five-bar at rest at ``q0``, crank held (``ddq_1 = 0``),
    rest passive."""
    q = five_bar_configuration()
    _, J = _loop("five", q)
    M, grav = _mass_and_gravity("five", q)
    n, m = 5, 3
    # unknowns (tau_1, ddq_2..5, lambda): M ddq + g = tau + J^T lambda, J ddq = 0
    # (Kim eqs. (70)-(71))
    K = np.zeros((n + m, n + m))
    rhs = np.concatenate([-grav, np.zeros(m)])
    K[0, 0] = -1.0                                    # -tau_1 e_1
    K[:n, 1:n] = M[:, 1:]
    K[:n, n:] = -J.T
    K[n:, 1:n] = J[:, 1:]
    x = np.linalg.solve(K, rhs)
    right = np.array([x[0], x[2]])
    a = expect_shape(answer, (2,), "(tau_1, ddq_3)")
    if _same(a, right[::-1]):
        raise WrongAnswer("the two numbers are in the "
                          "wrong order: give (tau_1, ddq_3).")
    free = np.linalg.solve(np.block([[M, -J.T], [J, np.zeros((m, m))]]),
                           np.concatenate([-grav, np.zeros(m)]))[:n]
    if np.isclose(a[1], free[2], rtol=1e-8):
        raise WrongAnswer("this ddq_3 is the free fall with every torque zero; the "
                          "crank is held (ddq_1 = 0 prescribed), which changes how "
                          "the rest moves.")
    # the open tree without the loop: the crank's branch is link1 + link2a alone
    Mu = M[np.ix_([0, 1], [0, 1])]
    ddq2 = -grav[1] / Mu[1, 1]
    if np.isclose(a[0], Mu[0, 1] * ddq2 + grav[0], rtol=1e-8):
        raise WrongAnswer("this tau_1 ignores the loop (lambda = 0): the crank "
                          "then only carries its own branch. Solve Kim eq. (76) "
                          "for lambda and use Kim eq. (79).")
    if np.isclose(a[0], -right[0], rtol=1e-8):
        raise WrongAnswer("wrong sign of tau_1.")
    expect_close(a, right, "(tau_1, ddq_3)", tol=1e-7,
                 hint="with q_u = q_1 and q_v = (q_2, ..., q_5): Kim eqs. "
                      "(70)-(71) at rest (dA dq = 0), or constrained_hybrid.")
