"""Time integration of a multibody model: explicit Euler, symplectic Euler and RK4
on the manifold.

The state is ``(q, dq)`` and the equations of motion are the first-order system
``d/dt (q, dq) = (dq, aba(q, dq, tau))`` of Zhang, Lecture 9 (forward dynamics by
the articulated-body algorithm, Kim (2012), Table 3). Configurations with
quaternions (spherical and free joints) live on a Lie group, and ``dq`` is a body
velocity there, not ``dq/dt``: every position update therefore goes through
:meth:`liedyn.model.Model.integrate`, ``q (+) v dt = q exp(v dt)`` per joint, so
unit quaternions stay unit quaternions (to rounding) with no renormalisation.

Methods (``h`` the step, ``a(t, q, dq)`` the ABA acceleration, ``(+)`` =
``model.integrate``):

``"euler"`` (explicit Euler, order 1)
    ``q+ = q (+) h dq``, ``dq+ = dq + h a(t, q, dq)``.
``"semi_implicit"`` (symplectic Euler, order 1, bounded energy error)
    ``dq+ = dq + h a(t, q, dq)`` first, then ``q+ = q (+) h dq+`` with the new
    velocity.
``"rk4"`` (classical Runge-Kutta on the manifold)
    stages ``k_j = (v_j, a_j)`` evaluated at ``q_j = q (+) c_j h v_{j-1}``,
    ``dq_j = dq + c_j h a_{j-1}`` (``c = 0, 1/2, 1/2, 1``); the tangent increments
    are accumulated at the base point,
    ``q+ = q (+) h (v_1 + 2 v_2 + 2 v_3 + v_4) / 6``. On vector-space joints this is
    exactly classical RK4 (order 4). On a non-commutative group (a spherical or free
    joint whose axis of rotation changes) the body velocities ``v_j`` are not the
    derivatives of the increments, and the configuration is only second-order
    accurate: so is the energy once gravity makes it depend on the orientation
    (measured in :ref:`sec-forward-dynamics`).
``"rkmk4"`` (Runge-Kutta-Munthe-Kaas, order 4 on the group)
    the same stages, with each increment mapped by the inverse right differential of
    ``exp``, ``k_j = dexp_inv(theta_j) v_j`` (:func:`liedyn.lie.dexp_inv_so3` for
    spherical joints, :func:`liedyn.lie.dexp_inv` for free joints, identity for the
    others) at the stage's increment ``theta_j = c_j h k_{j-1}``; then
    ``q+ = q (+) h (k_1 + 2 k_2 + 2 k_3 + k_4) / 6`` is fourth-order on the group
    too (the method of :func:`liedyn.body.rkmk4_step`).

Derived in :ref:`sec-forward-dynamics`.
"""
import numbers
from dataclasses import dataclass

import numpy as np

from . import _checks, joints
from ._spatial import matvec
from .forward_dynamics import aba
from .crba import kinetic_energy, potential_energy
from .kinematics import forward_kinematics
from .lie import dexp_inv, dexp_inv_so3

__all__ = ["Trajectory", "simulate", "METHODS", "ENERGY_GROWTH"]

METHODS = ("euler", "semi_implicit", "rk4", "rkmk4")
"""Names accepted by :func:`simulate`."""

ENERGY_GROWTH = 1e3
"""A passive simulation (no ``control``, no ``f_ext``) diverges when its energy
moves away from the initial value by more than this factor (three orders of
magnitude) times the energy scale of the initial state,
``|T_0| + |U_0| + sum_i m_i |g| |c_i|`` (kinetic energy, potential energy, and the
potential energy each body would have with its centre of mass ``c_i`` straight above
the origin)."""


@dataclass(frozen=True)
class Trajectory:
    """A simulated motion, sampled at ``t = 0, dt, ..., steps dt`` (the state of
    Zhang, Lecture 9).

    The arrays are read-only; time is their first axis, then the batch of initial
    states.

    Attributes
    ----------
    t : (steps + 1,) array
        sample times (s)
    q : (steps + 1, ..., nq) array
        configurations (unit quaternions for spherical and free joints)
    dq : (steps + 1, ..., nv) array
        velocities (body angular velocity / body twist for spherical and free
        joints)
    energy : (steps + 1, ...) array
        kinetic plus potential energy (J), :func:`liedyn.crba.kinetic_energy` +
        :func:`liedyn.crba.potential_energy` (Kim (2012), eq. (15))
    """

    t: np.ndarray
    q: np.ndarray
    dq: np.ndarray
    energy: np.ndarray


class _Diverged(Exception):
    """Raised inside a step when a value became NaN or inf; the argument says
    which."""


def _finite(x, what="the state"):
    if not np.all(np.isfinite(x)):
        raise _Diverged(what)
    return x


def _time_step(dt):
    if isinstance(dt, (bool, np.bool_)) or not isinstance(dt, numbers.Real):
        raise TypeError("argument 'dt': expected a real number, got "
                        f"{type(dt).__name__}")
    dt = float(dt)
    if not np.isfinite(dt) or dt <= 0:
        raise ValueError("argument 'dt': expected a "
                         f"finite time step > 0, got {dt!r}")
    return dt


def _potential_scale(model, q):
    """``sum_i m_i |g| |c_i|``: the size of the potential energy at ``q`` whatever
    its zero."""
    Tw = forward_kinematics(model, q).T_world
    g = np.linalg.norm(model.gravity)
    scale = np.zeros(q.shape[:-1])
    for i in range(1, model.nbodies + 1):
        I = model.inertias[i].real
        m = I[3, 3]
        if m > 0:
            # from m [c] (Kim (2012), (22))
            c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
            c_world = matvec(Tw[..., i, :3, :3], c) + Tw[..., i, :3, 3]
            scale = scale + m * g * np.linalg.norm(c_world, axis=-1)
    return scale


def _energy_check(model, Q, T, U, dt, method):
    """Raise :class:`DivergenceError` at the first step whose energy ran away
    (passive runs).

    The reference is the energy scale of the initial state, ``|T_0| + |U_0|`` plus
    ``sum_i m_i |g| |c_i|`` (so that a start at rest at the zero of the potential
    has a scale), plus a millionth of the largest ``|T| + |U|`` of the run
    (round-off for a model at the origin).
    """
    E, TU = (T + U).reshape(T.shape[0], -1), (np.abs(T) + np.abs(U)).reshape(
        T.shape[0], -1)
    ref = (
        TU[0]
        + _potential_scale(model, Q[0]).reshape(-1)
        + 1e-6 * np.max(TU, axis=0))
    grown = np.abs(E - E[0]) > ENERGY_GROWTH * ref
    if np.any(grown):
        k = int(np.argmax(np.any(grown, axis=1)))
        raise _checks.DivergenceError(
            "simulate: the energy of this passive system grew from "
            f"{E[0].max():.6g} J to {E[k][np.argmax(np.abs(E[k] - E[0]))]:.6g} J "
            f"by step {k - 1} (t = {(k - 1) * dt:.6g} s to {k * dt:.6g} s), more "
            f"than {ENERGY_GROWTH:g} times its initial scale, with method "
            f"{method!r} and dt = {dt:g}: the "
            "integration diverged; use a smaller dt")


def _number_of_steps(steps, duration, dt):
    if (steps is None) == (duration is None):
        raise ValueError("give exactly one of 'steps' (number of steps) and "
                         f"'duration' (seconds); got steps={steps!r}, "
                         f"duration={duration!r}")
    if steps is not None:
        if isinstance(steps, (bool, np.bool_)) or not isinstance(
            steps, numbers.Integral):
            raise TypeError("argument 'steps': expected a "
                            f"positive integer, got {steps!r}")
        if steps < 1:
            raise ValueError("argument 'steps': expected a "
                             f"positive integer, got {steps!r}")
        return int(steps)
    if isinstance(duration, (bool, np.bool_)) or not isinstance(
        duration, numbers.Real):
        raise TypeError("argument 'duration': expected a real number, got "
                        f"{duration!r}")
    if not np.isfinite(duration) or duration <= 0:
        raise ValueError("argument 'duration': expected a finite duration > 0, "
                         f"got {duration!r}")
    n = int(round(duration / dt))
    if n < 1:
        raise ValueError(f"argument 'duration': {duration!r} s is shorter than "
                         f"half a time step dt = {dt!r} s")
    return n


def _control(model, control, steps, batch):
    """Return ``tau(k, t, q, dq)`` (zero-order hold over step ``k`` for an array
    control)."""
    zero = np.zeros(batch + (model.nv,))
    if control is None:
        return lambda k, t, q, dq: zero
    if callable(control):
        def tau(k, t, q, dq):
            u = np.asarray(control(t, q, dq), dtype=float)
            try:
                u = np.broadcast_to(u, batch + (model.nv,))
            except ValueError:
                raise ValueError(f"control(t, q, dq) must return an array of shape "
                                 f"{batch + (model.nv,)} (nv = {model.nv}), got "
                                 f"{u.shape} at step {k} (t = {t:.6g})") from None
            return _finite(u, "the torque returned by control(t, q, dq)")
        return tau
    if isinstance(control, (str, bytes)) or not hasattr(control, "__len__"):
        raise TypeError("argument 'control': expected None, a callable (t, q, dq) "
                        "-> tau or an array of shape (steps, nv), got "
                        f"{type(control).__name__}")
    try:
        u = np.asarray(control, dtype=float)
    except (TypeError, ValueError):
        raise TypeError("argument 'control': could "
                        "not convert to a float array") from None
    want = (steps,) + batch + (model.nv,)
    try:
        if u.ndim < 2 or u.shape[0] != steps or u.shape[-1] != model.nv:
            raise ValueError
        u = np.broadcast_to(u, want)
    except ValueError:
        raise ValueError("argument 'control': expected an array of shape (steps, "
                         f"nv) = {(steps, model.nv)} "
                         f"(or {want}), got {u.shape}") from None
    if not np.all(np.isfinite(u)):
        raise ValueError("argument 'control': contains NaN or inf")
    return lambda k, t, q, dq: u[k]


def _external(model, f_ext, batch):
    """Return ``f(k, t, q, dq)`` -> (..., N, 6) wrenches or None."""
    shape = (model.nbodies, 6)
    if f_ext is None:
        return lambda k, t, q, dq: None
    if callable(f_ext):
        def wrench(k, t, q, dq):
            f = np.asarray(f_ext(t, q, dq), dtype=float)
            if f.shape[-2:] != shape:
                raise ValueError("f_ext(t, q, dq) must return wrenches of shape "
                                 f"(..., N, 6) = (..., {model.nbodies}, 6), got "
                                 f"{f.shape} at step {k}")
            return _finite(f, "the wrench returned by f_ext(t, q, dq)")
        return wrench
    f = model.check_f_ext(f_ext)
    return lambda k, t, q, dq: f


def _dexp_inv_map(model):
    """``(theta, v) -> k``, ``k = dexp_inv(theta) v`` on the group joints (right
    trivialised)."""
    group = [
        (model.v_slice[i],
         dexp_inv_so3 if isinstance(j, joints.Spherical) else dexp_inv)
        for i, j in enumerate(model.joints)
        if isinstance(j, (joints.Spherical, joints.Free))]

    def apply(theta, v):
        if not group:
            return v
        k = np.array(v, dtype=float)
        for vi, dinv in group:
            k[..., vi] = matvec(dinv(theta[..., vi], side="right"), v[..., vi])
        return k
    return apply


def simulate(model, q0, dq0, dt, steps=None, duration=None, control=None,
             f_ext=None, method="rk4"):
    """Integrate the equations of motion from ``(q0, dq0)`` with a fixed time step.

    The accelerations come from the articulated-body algorithm (Kim (2012), Table
    3); the first-order form ``d/dt (q, dq) = (dq, ddq)`` is that of Zhang, Lecture
    9. Positions move on the configuration manifold with
    :meth:`liedyn.model.Model.integrate`, for every method (see the module docstring
    for the three update rules). A batch of initial states runs as one vectorised
    simulation.

    Parameters
    ----------
    model : liedyn.model.Model
    q0 : (..., nq) array
        initial configuration(s)
    dq0 : (..., nv) array
        initial velocities
    dt : float
        time step (s), finite and > 0
    steps : int, optional
        number of steps
    duration : float, optional
        simulated time (s); ``steps = round(duration / dt)``, so the last sample
        time ``t[-1] = steps dt`` differs from ``duration`` by up to ``dt / 2``
        unless ``dt`` divides it. Give exactly one of ``steps`` and ``duration``.
    control : None, callable or array, optional
        joint torques: ``None`` (zero), a callable ``tau = control(t, q, dq)``
        evaluated at every stage, or an array of shape ``(steps, nv)`` (or
        ``(steps, ..., nv)``) whose row ``k`` is held over the step from ``t_k`` to
        ``t_{k+1}``
    f_ext : None, array or callable, optional
        wrenches ``(m, f)`` that the environment applies to bodies 1..N, in the body
        frames: a constant array of shape ``(..., N, 6)`` or a callable
        ``f_ext(t, q, dq)``
    method : {"rk4", "rkmk4", "semi_implicit", "euler"}

    Returns
    -------
    Trajectory
        ``t`` (steps + 1,), ``q`` (steps + 1, ..., nq), ``dq`` (steps + 1, ..., nv),
        ``energy`` (steps + 1, ...)

    Raises
    ------
    TypeError, ValueError
        for a bad time step, number of steps or duration, control or external
        wrench, or an unknown method
    DivergenceError
        (a ``FloatingPointError``) if the state, an acceleration, or the output of
        ``control`` or ``f_ext`` becomes NaN or inf during the run, or if the energy
        of a passive run (no ``control``, no ``f_ext``) moves from its initial value
        by more than :data:`ENERGY_GROWTH` times its initial scale; the message
        gives the step ``k`` (from ``t_k`` to ``t_{k+1}``) and suggests a smaller
        ``dt``
    ChartSingularityError
        if a joint reaches the singular set of its coordinates (Euler angles at
        gimbal lock); the message gives the step

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> traj = simulate(pendulum(), [1.0], [0.0], dt=0.01, duration=1.0)
    >>> traj.q.shape, traj.energy.shape
    ((101, 1), (101,))
    >>> bool(abs(traj.energy[-1] - traj.energy[0]) < 1e-8)  # RK4 conserves it well
    True
    """
    _checks.choice("method", method, METHODS)
    dt = _time_step(dt)
    n = _number_of_steps(steps, duration, dt)
    q = model.check_q(q0, "q0")
    dq = model.check_v(dq0, "dq0")
    batch = np.broadcast_shapes(q.shape[:-1], dq.shape[:-1])
    q = np.array(np.broadcast_to(q, batch + (model.nq,)), dtype=float)
    dq = np.array(np.broadcast_to(dq, batch + (model.nv,)), dtype=float)
    tau = _control(model, control, n, batch)
    wrench = _external(model, f_ext, batch)

    step = _stepper(model, method, dt, tau, wrench)
    qs, dqs = _integrate(model, step, q, dq, n, dt, method)
    return _trajectory(model, qs, dqs, dt, control is None and f_ext is None,
                       method)


def _stepper(model, method, dt, tau, wrench):
    """The step ``(k, t, q, dq) -> (q, dq)`` of ``method`` (see :data:`METHODS`)."""
    def move(q, v, h):
        # model.integrate validates its output's quaternions: a finite but
        # astronomically large velocity can still produce NaN there, which is a
        # blow-up, not a user error
        _finite(v, "the velocity")
        try:
            return _finite(model.integrate(q, v, h, normalize=False),
                           "the configuration")
        except (ValueError, FloatingPointError):
            raise _Diverged("the configuration") from None

    def accel(k, t, q, dq):
        _finite(q), _finite(dq)
        try:
            ddq = aba(model, q, dq, tau(k, t, q, dq), wrench(k, t, q, dq))
        except _checks.NonFiniteResultError:
            raise _Diverged("the acceleration") from None
        return _finite(ddq, "the acceleration")

    def step_euler(k, t, q, dq):
        a = accel(k, t, q, dq)
        return move(q, dq, dt), dq + dt * a

    def step_semi_implicit(k, t, q, dq):
        dq_next = _finite(dq + dt * accel(k, t, q, dq))
        return move(q, dq_next, dt), dq_next

    def step_rk4(k, t, q, dq):
        v1, a1 = dq, accel(k, t, q, dq)
        v2 = _finite(dq + dt / 2 * a1)
        a2 = accel(k, t + dt / 2, move(q, v1, dt / 2), v2)
        v3 = _finite(dq + dt / 2 * a2)
        a3 = accel(k, t + dt / 2, move(q, v2, dt / 2), v3)
        v4 = _finite(dq + dt * a3)
        a4 = accel(k, t + dt, move(q, v3, dt), v4)
        v = _finite((v1 + 2 * v2 + 2 * v3 + v4) / 6)
        return move(q, v, dt), dq + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)

    dexp_inv_map = _dexp_inv_map(model)

    def step_rkmk4(k, t, q, dq):
        k1, a1 = dq, accel(k, t, q, dq)
        v2 = _finite(dq + dt / 2 * a1)
        a2 = accel(k, t + dt / 2, move(q, k1, dt / 2), v2)
        k2 = _finite(dexp_inv_map(dt / 2 * k1, v2))
        v3 = _finite(dq + dt / 2 * a2)
        a3 = accel(k, t + dt / 2, move(q, k2, dt / 2), v3)
        k3 = _finite(dexp_inv_map(dt / 2 * k2, v3))
        v4 = _finite(dq + dt * a3)
        a4 = accel(k, t + dt, move(q, k3, dt), v4)
        k4 = _finite(dexp_inv_map(dt * k3, v4))
        theta = _finite((k1 + 2 * k2 + 2 * k3 + k4) / 6)
        return move(q, theta, dt), dq + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)

    return {"euler": step_euler, "semi_implicit": step_semi_implicit,
            "rk4": step_rk4, "rkmk4": step_rkmk4}[method]


def _integrate(model, step, q, dq, n, dt, method):
    """``n`` steps from ``(q, dq)``: the lists of configurations and velocities,
    or the clear error of a diverging motion or a chart singularity."""
    qs, dqs = [q], [dq]
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(n):
            try:
                q, dq = step(k, k * dt, q, dq)
                _finite(q), _finite(dq)
                if model._charts:         # exponential coordinates into |phi| <= pi
                    q, dq = model.normalize(q, dq)
            except _Diverged as err:
                raise _checks.DivergenceError(
                    f"simulate: {err} became NaN or inf during step {k} (t = "
                    f"{k * dt:.6g} s to {(k + 1) * dt:.6g} s) with method "
                    f"{method!r} and dt = {dt:g}; the "
                    "motion is unstable or the time "
                    "step too large: use a smaller dt") from None
            except _checks.ChartSingularityError as err:
                raise _checks.ChartSingularityError(
                    f"simulate: during step {k} "
                    f"(t = {k * dt:.6g} s): {err}") from None
            qs.append(q)
            dqs.append(dq)
    return qs, dqs


def _trajectory(model, qs, dqs, dt, free, method):
    """The :class:`Trajectory` of the states ``qs, dqs``, read-only, with its energy
    (checked for growth when the motion is ``free``: no control, no wrench)."""
    Q, DQ = np.stack(qs), np.stack(dqs)
    T, U = kinetic_energy(model, Q, DQ), potential_energy(model, Q)
    T, U = (
        np.broadcast_to(np.asarray(x, dtype=float), Q.shape[:-1]) for x in (T, U))
    if free:
        _energy_check(model, Q, T, U, dt, method)
    energy = T + U
    t = np.arange(len(qs)) * dt
    for a in (t, Q, DQ, energy):
        a.flags.writeable = False
    return Trajectory(t, Q, DQ, energy)
