"""Time integration of a multibody model on its configuration manifold; derived in
:ref:`sec-forward-dynamics`.

The state ``(q, dq)`` obeys ``d/dt (q, dq) = (dq, aba(q, dq, tau))`` (Zhang,
Lecture 9; Kim (2012), Table 3). For spherical and free joints ``dq`` is a body
velocity, not ``dq/dt``: every position update is ``q (+) v h = q exp(v h)``
(:meth:`liedyn.model.Model.integrate`), so quaternions stay unit. With ``a`` the
ABA acceleration:

``"euler"`` (order 1)
    ``q+ = q (+) h dq``, ``dq+ = dq + h a(t, q, dq)``.
``"semi_implicit"`` (symplectic Euler, order 1, bounded energy error)
    ``dq+ = dq + h a(t, q, dq)``, then ``q+ = q (+) h dq+``.
``"rk4"`` (classical Runge-Kutta)
    stages ``(v_j, a_j)`` at ``q_j = q (+) c_j h v_{j-1}``, ``dq_j = dq + c_j h
    a_{j-1}`` (``c = 0, 1/2, 1/2, 1``), ``q+ = q (+) h (v_1 + 2 v_2 + 2 v_3 + v_4)
    / 6``: order 4 on vector spaces, but only 2 on a non-commutative group, where
    the ``v_j`` are not the derivatives of the increments.
``"rkmk4"`` (Runge-Kutta-Munthe-Kaas, order 4 on the group)
    the same stages with ``k_j = dexp_inv(theta_j) v_j`` at ``theta_j = c_j h
    k_{j-1}`` (:func:`liedyn.dexp.dexp_inv_so3`, :func:`liedyn.dexp.dexp_inv`), as
    in :func:`liedyn.body.rkmk4_step`.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks, joints
from ._spatial import matvec
from .crba import kinetic_energy, potential_energy
from .dexp import dexp_inv, dexp_inv_so3
from .forward_dynamics import aba
from .kinematics import forward_kinematics

if TYPE_CHECKING:
    from ._types import ArrayLike, StateFunction
    from .model import Model

__all__ = ["Trajectory", "simulate", "METHODS", "ENERGY_GROWTH"]

METHODS = ("euler", "semi_implicit", "rk4", "rkmk4")
"""Names accepted by :func:`simulate`."""

ENERGY_GROWTH = 1e3
"""A passive run (no ``control``, no ``f_ext``) diverges when its energy moves by
more than this factor times the initial scale ``|T_0| + |U_0| + sum_i m_i |g|
|c_i|``."""


@dataclass(frozen=True)
class Trajectory:
    """A simulated motion at ``t = 0, dt, ..., steps dt`` (the state of Zhang,
    Lecture 9); read-only arrays, time first, then the batch of initial states.

    Attributes
    ----------
    t : (steps + 1,) array
    q : (steps + 1, ..., nq) array
    dq : (steps + 1, ..., nv) array
    energy : (steps + 1, ...) array
        kinetic (Kim (2012), eq. (15)) plus potential energy (J)
    """

    t: np.ndarray
    q: np.ndarray
    dq: np.ndarray
    energy: np.ndarray


class _Diverged(Exception):
    """A value became NaN or inf inside a step; the argument says which."""


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
    """``sum_i m_i |g| |c_i|``: the size of the potential energy at ``q``."""
    Tw = forward_kinematics(model, q).T_world
    g = np.linalg.norm(model.gravity)
    scale = np.zeros(q.shape[:-1])
    for i in range(1, model.nbodies + 1):
        I = model.inertias[i].real
        m = I[3, 3]
        if m > 0:
            c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
            c_world = matvec(Tw[..., i, :3, :3], c) + Tw[..., i, :3, 3]
            scale = scale + m * g * np.linalg.norm(c_world, axis=-1)
    return scale


def _energy_check(model, Q, T, U, dt, method):
    """Raise :class:`DivergenceError` at the first step whose energy ran away
    (passive runs): further than :data:`ENERGY_GROWTH` times the initial scale,
    ``|T_0| + |U_0| + sum_i m_i |g| |c_i|`` plus a millionth of the run's largest
    ``|T| + |U|``.
    """
    T, U = T.real, U.real                   # the complex step: its real parts
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


def _numbers(x):
    """``x`` as a float array, or complex if it is complex (the complex step)."""
    x = np.asarray(x)
    return np.asarray(x, dtype=complex if np.iscomplexobj(x) else float)


def _control(model, control, steps, batch):
    """``tau(k, t, q, dq)``; an array control is held over step ``k``."""
    zero = np.zeros(batch + (model.nv,))
    if control is None:
        return lambda k, t, q, dq: zero
    if callable(control):
        def tau(k, t, q, dq):
            u = _numbers(control(t, q, dq))
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
        u = _numbers(control)
    except (TypeError, ValueError):
        raise TypeError("argument 'control': could "
                        "not convert to a float or complex array") from None
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
            f = _numbers(f_ext(t, q, dq))
            if f.shape[-2:] != shape:
                raise ValueError("f_ext(t, q, dq) must return wrenches of shape "
                                 f"(..., N, 6) = (..., {model.nbodies}, 6), got "
                                 f"{f.shape} at step {k}")
            return _finite(f, "the wrench returned by f_ext(t, q, dq)")
        return wrench
    f = model.check_f_ext(f_ext)
    return lambda k, t, q, dq: f


def _dexp_inv_map(model):
    """``(theta, v) -> dexp_inv(theta) v`` on the group joints (right
    trivialised)."""
    group = [
        (model.v_slice[i],
         dexp_inv_so3 if isinstance(j, joints.Spherical) else dexp_inv)
        for i, j in enumerate(model.joints)
        if isinstance(j, (joints.Spherical, joints.Free))]

    def apply(theta, v):
        if not group:
            return v
        k = np.array(v, dtype=np.result_type(v, theta, float))
        for vi, dinv in group:
            k[..., vi] = matvec(dinv(theta[..., vi], side="right"), v[..., vi])
        return k
    return apply


def simulate(model: Model, q0: ArrayLike, dq0: ArrayLike, dt: float,
             steps: int | None = None, duration: float | None = None,
             control: StateFunction | ArrayLike | None = None,
             f_ext: StateFunction | ArrayLike | None = None,
             method: str = "rk4") -> Trajectory:
    """Integrate the equations of motion from ``(q0, dq0)`` with a fixed time step.

    Accelerations by the articulated-body algorithm (Kim (2012), Table 3) in the
    first-order form of Zhang, Lecture 9; positions move on the manifold with
    :meth:`liedyn.model.Model.integrate`. A batch of initial states runs as one.

    Parameters
    ----------
    model : liedyn.model.Model
    q0 : (..., nq) array
    dq0 : (..., nv) array
    dt : float, the time step (s)
    steps : int, optional
    duration : float, optional
        simulated time (s), ``steps = round(duration / dt)``; give exactly one of
        ``steps`` and ``duration``
    control : None, callable or array, optional
        joint torques: zero, ``tau = control(t, q, dq)`` at every stage, or an array
        ``(steps, nv)`` (or ``(steps, ..., nv)``) whose row ``k`` is held over step
        ``k``
    f_ext : None, (..., N, 6) array or callable ``f_ext(t, q, dq)``, optional
        wrenches (m, f) on bodies 1..N, in the body frames
    method : {"rk4", "rkmk4", "semi_implicit", "euler"}

    Returns
    -------
    Trajectory

    ``q0``, ``dq0`` (and an array ``control``) may be complex: the complex step of
    the whole trajectory (its imaginary part over the step is the derivative along
    the perturbation). Sympy objects raise ``TypeError``: each step would nest the
    expressions of the one before, and the checks for divergence need numbers.

    Raises
    ------
    DivergenceError
        if the state, an acceleration, ``control`` or ``f_ext`` becomes NaN or inf,
        or a passive run's energy grows by :data:`ENERGY_GROWTH` times its scale;
        the message names the step
    ChartSingularityError
        if a joint reaches the singular set of its coordinates

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
    for name, x in (("q0", q), ("dq0", dq)):
        if x.dtype == object:
            raise TypeError(
                f"argument {name!r}: simulate takes numbers (float, or complex for "
                "the complex step), got sympy objects (dtype object): each step "
                "would nest the expressions of the one before, and the checks "
                "for divergence need numbers; aba gives the symbolic equations "
                "of motion")
    batch = np.broadcast_shapes(q.shape[:-1], dq.shape[:-1])
    dtype = np.result_type(q, dq, float)
    q = np.array(np.broadcast_to(q, batch + (model.nq,)), dtype=dtype)
    dq = np.array(np.broadcast_to(dq, batch + (model.nv,)), dtype=dtype)
    tau = _control(model, control, n, batch)
    wrench = _external(model, f_ext, batch)

    step = getattr(_Stepper(model, dt, tau, wrench), method)
    qs, dqs = _integrate(model, step, q, dq, n, dt, method)
    return _trajectory(model, qs, dqs, dt, control is None and f_ext is None,
                       method)


class _Stepper:
    """The steps ``(k, t, q, dq) -> (q, dq)`` of the :data:`METHODS`."""

    def __init__(self, model, dt, tau, wrench):
        self.model, self.dt, self.tau, self.wrench = model, dt, tau, wrench
        self.dexp_inv_map = _dexp_inv_map(model)

    def move(self, q, v, h):
        """``q (+) h v``; a NaN there (from a huge finite ``v``) is a blow-up."""
        _finite(v, "the velocity")
        try:
            return _finite(self.model.integrate(q, v, h, normalize=False),
                           "the configuration")
        except (ValueError, FloatingPointError):
            raise _Diverged("the configuration") from None

    def accel(self, k, t, q, dq):
        """``ddq`` by the articulated-body algorithm."""
        _finite(q), _finite(dq)
        try:
            ddq = aba(self.model, q, dq, self.tau(k, t, q, dq),
                      self.wrench(k, t, q, dq))
        except _checks.NonFiniteResultError:
            raise _Diverged("the acceleration") from None
        return _finite(ddq, "the acceleration")

    def euler(self, k, t, q, dq):
        a = self.accel(k, t, q, dq)
        return self.move(q, dq, self.dt), dq + self.dt * a

    def semi_implicit(self, k, t, q, dq):
        dq_next = _finite(dq + self.dt * self.accel(k, t, q, dq))
        return self.move(q, dq_next, self.dt), dq_next

    def rk4(self, k, t, q, dq):
        dt, accel, move = self.dt, self.accel, self.move
        v1, a1 = dq, accel(k, t, q, dq)
        v2 = _finite(dq + dt / 2 * a1)
        a2 = accel(k, t + dt / 2, move(q, v1, dt / 2), v2)
        v3 = _finite(dq + dt / 2 * a2)
        a3 = accel(k, t + dt / 2, move(q, v2, dt / 2), v3)
        v4 = _finite(dq + dt * a3)
        a4 = accel(k, t + dt, move(q, v3, dt), v4)
        v = _finite((v1 + 2 * v2 + 2 * v3 + v4) / 6)
        return move(q, v, dt), dq + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)

    def rkmk4(self, k, t, q, dq):
        dt, accel, move, dexp_inv_map = (self.dt, self.accel, self.move,
                                         self.dexp_inv_map)
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


def _integrate(model, step, q, dq, n, dt, method):
    """``n`` steps from ``(q, dq)``: the lists of states, or the clear error of a
    diverging motion or a chart singularity.
    """
    qs, dqs = [q], [dq]
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(n):
            try:
                q, dq = step(k, k * dt, q, dq)
                _finite(q), _finite(dq)
                if model.chart_bodies:
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
    """The read-only :class:`Trajectory` of ``qs, dqs`` with its energy, checked for
    growth when the motion is ``free`` (no control, no wrench).
    """
    Q, DQ = np.stack(qs), np.stack(dqs)
    T, U = kinetic_energy(model, Q, DQ), potential_energy(model, Q)
    T, U = (
        np.broadcast_to(_numbers(x), Q.shape[:-1]) for x in (T, U))
    if free:
        _energy_check(model, Q, T, U, dt, method)
    energy = T + U
    t = np.arange(len(qs)) * dt
    for a in (t, Q, DQ, energy):
        a.flags.writeable = False
    return Trajectory(t, Q, DQ, energy)
