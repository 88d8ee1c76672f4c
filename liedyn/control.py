"""Control laws on the dynamics: computed torque, PD with gravity compensation,
Slotine and Li's passivity-based controller and operational-space control; derived
in :ref:`sec-control`.

A law is a function ``tau = law(model, q, dq, ...)`` returning (..., nv) torques,
written with liedyn's own algorithms; the Lyapunov functions of the stability
arguments are functions too, for evaluation along a trajectory, and
:func:`simulate_closed_loop` closes the loop. The tracking error is ``e = q (-)
q_d`` (``model.difference(q_d, q)``; ``q - q_d`` on vector spaces) and ``de = dq -
dq_d``; configurations are (..., nq), velocities (..., nv). Gains are symmetric
positive definite (nv, nv) matrices, given as a matrix, a diagonal (nv,) or a
scalar (:func:`gain`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from . import _checks
from ._spatial import cross, matvec, skew, transpose
from .crba import (
    bias_force,
    coriolis_matrix,
    gravity_torque,
    kinetic_energy,
    mass_matrix,
)
from .inverse_dynamics import rnea
from .kinematics import body_accelerations, body_jacobian, forward_kinematics
from .simulation import simulate

if TYPE_CHECKING:
    from ._types import Array, ArrayLike, StateFunction
    from .model import Model

__all__ = ["gain", "tracking_error", "computed_torque", "computed_torque_lyapunov",
           "pd_gravity", "pd_gravity_lyapunov", "passivity_based",
           "passivity_lyapunov", "operational_space_inertia",
           "operational_space_control", "PointTask", "point_task", "ClosedLoop",
           "simulate_closed_loop"]


def gain(name, K, n):
    """A gain as a symmetric positive definite (n, n) matrix, or an error naming it.

    Murray, Li and Sastry, Ch. 4, "Control Algorithm": ``K_p``, ``K_v`` positive
    definite. ``K``: a scalar ``k`` means ``k I``, an (n,) array the diagonal.

    >>> gain("Kp", [1.0, 2.0], 2)
    array([[1., 0.],
           [0., 2.]])
    >>> gain("Kd", -1.0, 2)
    Traceback (most recent call last):
    ...
    ValueError: argument 'Kd': expected a positive definite gain, got
    smallest eigenvalue -1
    """
    try:
        K = np.asarray(K, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"argument '{name}': expected a number, an array of shape "
                        f"({n},) or ({n}, {n}), got {type(K).__name__}") from None
    if K.ndim == 0:
        K = K * np.eye(n)
    elif K.shape == (n,):
        K = np.diag(K)
    elif K.shape != (n, n):
        raise ValueError(f"argument '{name}': expected a scalar gain or shape "
                         f"({n},) or ({n}, {n}), got shape {K.shape}")
    _checks.finite(name, K)
    if np.max(np.abs(K - K.T), initial=0.0) > 1e-12 * max(1.0, np.max(np.abs(K))):
        raise ValueError(f"argument '{name}': expected a symmetric gain matrix, "
                         f"got max |K - K^T| = {np.max(np.abs(K - K.T)):.3g}")
    smallest = np.linalg.eigvalsh(K)[0] if n else 1.0
    if smallest <= 0:
        raise ValueError(f"argument '{name}': expected a positive definite gain, "
                         f"got smallest eigenvalue {smallest:.6g}")
    return K


def _error(model, q, q_d):
    return model.difference(model.check_q(q_d, "q_d"), model.check_q(q))


def tracking_error(model, q, dq, q_d, dq_d):
    """The tracking errors ``e = q (-) q_d`` and ``de = dq - dq_d``, (..., nv) each.

    Murray, Li and Sastry, Ch. 4, "Control Algorithm": ``e = q - q_d``, on the
    manifold (:meth:`liedyn.model.Model.difference`).

    >>> from liedyn.robots import double_pendulum
    >>> zero = [0.0, 0.0]
    >>> e, de = tracking_error(double_pendulum(), [0.5, 0.2], [1.0, 0.0],
    ...                        zero, zero)
    >>> e.tolist(), de.tolist()
    ([0.5, 0.2], [1.0, 0.0])
    """
    e = _error(model, q, q_d)
    de = model.check_v(dq) - model.check_v(dq_d, "dq_d")
    return e, de


def computed_torque(model: Model, q: ArrayLike, dq: ArrayLike, q_d: ArrayLike,
                    dq_d: ArrayLike, ddq_d: ArrayLike, Kp: ArrayLike,
                    Kd: ArrayLike) -> Array:
    """Computed torque: ``tau = M(q) (ddq_d - Kd de - Kp e) + C(q, dq) dq + g(q)``.

    Murray, Li and Sastry, Ch. 4, "Control Algorithm" (1) without constraints; one
    inverse-dynamics call ``rnea(q, dq, ddq_d - Kd de - Kp e)`` (Kim (2012), Table
    2). With an exact model, ``dde + Kd de + Kp e = 0``.

    Parameters
    ----------
    q, q_d : measured and desired configurations
    dq, dq_d, ddq_d : measured velocity, desired velocity and acceleration
    Kp, Kd : gains

    Returns
    -------
    tau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> up = [np.pi / 2]
    >>> tau = computed_torque(pendulum(gravity=10.0), up, [0.0], up, [0.0], [1.0],
    ...                       Kp=4.0, Kd=4.0)
    >>> round(float(tau[0]), 12)               # m l^2 ddq_d + m g l sin(q)
    11.0
    """
    Kp, Kd = gain("Kp", Kp, model.nv), gain("Kd", Kd, model.nv)
    e, de = tracking_error(model, q, dq, q_d, dq_d)
    a = model.check_v(ddq_d, "ddq_d") - matvec(Kd, de) - matvec(Kp, e)
    return rnea(model, q, dq, a)


def computed_torque_lyapunov(model, q, dq, q_d, dq_d, Kp):
    """``V = de^T de / 2 + e^T Kp e / 2`` (...): computed torque's Lyapunov
    function.

    Murray, Li and Sastry, Ch. 4: along ``dde = -Kd de - Kp e``, ``dV/dt = -de^T Kd
    de``.

    >>> from liedyn.robots import pendulum
    >>> float(computed_torque_lyapunov(pendulum(), [0.5], [1.0], [0.0], [0.0],
    ...                                Kp=4.0))
    1.0
    """
    Kp = gain("Kp", Kp, model.nv)
    e, de = tracking_error(model, q, dq, q_d, dq_d)
    return (np.sum(de * de, axis=-1) + np.sum(e * matvec(Kp, e), axis=-1)) / 2


def pd_gravity(model: Model, q: ArrayLike, dq: ArrayLike, q_d: ArrayLike,
               Kp: ArrayLike, Kd: ArrayLike) -> Array:
    """PD control with gravity compensation: ``tau = -Kp e - Kd dq + g(q)``.

    Takegaki and Arimoto (1981); Murray, Li and Sastry, Ch. 4 (PD control).
    Regulates to a constant set point ``q_d``; ``g(q) = gravity_torque(q)`` (Zhang,
    Lecture 9).

    Parameters
    ----------
    q, q_d : the configuration and the set point
    dq : the velocity
    Kp, Kd : gains

    Returns
    -------
    tau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> up = [np.pi / 2]
    >>> tau = pd_gravity(pendulum(gravity=10.0), up, [1.0], up, 5.0, 2.0)
    >>> round(float(tau[0]), 12)                      # -Kd dq + m g l
    8.0
    """
    Kp, Kd = gain("Kp", Kp, model.nv), gain("Kd", Kd, model.nv)
    e = _error(model, q, q_d)
    return gravity_torque(model, q) - matvec(Kp, e) - matvec(Kd, model.check_v(dq))


def pd_gravity_lyapunov(model, q, dq, q_d, Kp):
    """``V = dq^T M(q) dq / 2 + e^T Kp e / 2`` (...): PD + gravity's Lyapunov
    function.

    Murray, Li and Sastry, Ch. 4, Property 1 (``dM/dt - 2C`` skew): along ``M ddq +
    C dq = -Kp e - Kd dq``, ``dV/dt = dq^T (dM/dt - 2C) dq / 2 - dq^T Kd dq = -dq^T
    Kd dq``; LaSalle then gives ``q -> q_d``.

    >>> from liedyn.robots import pendulum
    >>> float(pd_gravity_lyapunov(pendulum(mass=2.0), [0.5], [1.0], [0.0], Kp=4.0))
    1.5
    """
    Kp = gain("Kp", Kp, model.nv)
    e = _error(model, q, q_d)
    return kinetic_energy(model, q, dq) + np.sum(e * matvec(Kp, e), axis=-1) / 2


def _reference_velocity(model, q, dq, q_d, dq_d, ddq_d, Lam):
    e, de = tracking_error(model, q, dq, q_d, dq_d)
    dq_r = dq_d - matvec(Lam, e)
    ddq_r = model.check_v(ddq_d, "ddq_d") - matvec(Lam, de)
    return e, de, dq_r, ddq_r, dq - dq_r


def passivity_based(model: Model, q: ArrayLike, dq: ArrayLike, q_d: ArrayLike,
                    dq_d: ArrayLike, ddq_d: ArrayLike, Lam: ArrayLike,
                    Kd: ArrayLike) -> Array:
    """Slotine and Li's controller: ``tau = M ddq_r + C(q, dq) dq_r + g(q) - Kd s``.

    Slotine and Li (1987): with ``dq_r = dq_d - Lam e`` and ``s = dq - dq_r = de +
    Lam e`` the closed loop is ``M ds + (C + Kd) s = 0``, passive for a
    Christoffel-consistent ``C`` (:func:`liedyn.crba.coriolis_matrix`; Murray, Li
    and Sastry, Ch. 4, Property 1). ``M ddq_r + g(q)`` is ``rnea(q, 0, ddq_r)`` (Kim
    (2012), Table 2).

    Parameters
    ----------
    q, q_d : configurations
    dq, dq_d, ddq_d : velocities, desired acceleration
    Lam, Kd : gains

    Returns
    -------
    tau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> tau = passivity_based(pendulum(gravity=10.0), [np.pi / 2], [0.0],
    ...                       [np.pi / 2], [0.0], [1.0], Lam=2.0, Kd=3.0)
    >>> round(float(tau[0]), 12)            # m l^2 ddq_d + m g l (all errors zero)
    11.0
    """
    Lam, Kd = gain("Lam", Lam, model.nv), gain("Kd", Kd, model.nv)
    _, _, dq_r, ddq_r, s = _reference_velocity(model, q, dq, q_d, dq_d, ddq_d, Lam)
    C = coriolis_matrix(model, q, dq)
    tau = rnea(model, q, np.zeros(model.nv), ddq_r)                 # M ddq_r + g
    return tau + matvec(C, dq_r) - matvec(Kd, s)


def passivity_lyapunov(model, q, dq, q_d, dq_d, Lam, Kd):
    """``V = s^T M(q) s / 2 + e^T Lam Kd e`` (...): Slotine and Li's Lyapunov
    function.

    Slotine and Li (1987): along ``M ds + (C + Kd) s = 0`` with ``dM/dt - 2C`` skew
    (Murray, Li and Sastry, Ch. 4, Property 1), ``dV/dt = -de^T Kd de - e^T Lam Kd
    Lam e``. Needs ``Lam Kd`` symmetric (else ``ValueError``).

    >>> from liedyn.robots import pendulum
    >>> V = passivity_lyapunov(pendulum(), [0.5], [0.0], [0.0], [0.0],
    ...                        Lam=2.0, Kd=3.0)
    >>> float(V)            # s = de + Lam e = 1: s M s / 2 + e Lam Kd e = 0.5 + 1.5
    2.0
    """
    Lam, Kd = gain("Lam", Lam, model.nv), gain("Kd", Kd, model.nv)
    P = Lam @ Kd
    if np.max(np.abs(P - P.T), initial=0.0) > 1e-12 * max(1.0, np.max(np.abs(P))):
        raise ValueError("arguments 'Lam', 'Kd': Slotine and Li's Lyapunov "
                         "function needs Lam Kd symmetric (e.g. both diagonal)")
    zero = np.zeros(model.nv)
    e, _, _, _, s = _reference_velocity(model, q, dq, q_d, dq_d, zero, Lam)
    M = mass_matrix(model, q)
    return np.sum(s * matvec(M, s), axis=-1) / 2 + np.sum(e * matvec(P, e), axis=-1)


def _task_jacobian(model, J, name="J"):
    J = _checks.array(name, J, ())
    if J.ndim < 2 or J.shape[-1] != model.nv:
        raise ValueError(f"argument '{name}': expected a task Jacobian of shape "
                         f"(..., k, nv) with nv = {model.nv}, got {J.shape}")
    return J


def operational_space_inertia(model, q, J):
    """The operational-space inertia ``Lambda = (J M^-1 J^T)^-1`` (..., k, k) of a
    task.

    Khatib (1987): the inertia the task ``dx = J dq`` "feels"; ``M^-1 J^T`` is a
    solve with the CRBA's ``M`` (Featherstone (2008), Table 6.2). ``J`` is (..., k,
    nv), e.g. a body Jacobian; a ``ValueError`` refuses a rank-deficient ``J``.

    >>> from liedyn.robots import pendulum
    >>> J = np.array([[2.0]])  # the bob's speed per joint rate: l = 2
    >>> model = pendulum(mass=3.0, length=2.0)
    >>> float(operational_space_inertia(model, [0.1], J)[0, 0])
    3.0
    """
    J = _task_jacobian(model, J)
    return _task_inertia(model, q, J)[0]


def _task_inertia(model, q, J):
    """``Lambda`` and ``X = M^-1 J^T`` (a linear solve with the CRBA's ``M``)."""
    X = np.linalg.solve(mass_matrix(model, q), transpose(J))    # M^-1 J^T
    A = J @ X                                             # J M^-1 J^T
    s = np.linalg.svd(A, compute_uv=False)
    singular = np.any(s[..., -1] <= 1e-12 * np.maximum(s[..., 0], 1e-300))
    if J.shape[-2] > model.nv or singular:
        raise ValueError(f"argument 'J': J M^-1 J^T is singular (the task Jacobian "
                         f"of shape {J.shape[-2:]} loses rank: a singular "
                         f"configuration or a task with more coordinates than the "
                         f"{model.nv} joints)")
    return np.linalg.inv(A), X


def operational_space_control(model: Model, q: ArrayLike, dq: ArrayLike,
                              J: ArrayLike, dJdq: ArrayLike, a: ArrayLike,
                              tau_null: ArrayLike | None = None) -> Array:
    """Operational-space control: torques for the task acceleration ``ddx = a``.

    Khatib (1987): ``F = Lambda (a - dJ dq) + mu + p`` with ``mu + p = Lambda J M^-1
    b`` (``b``: :func:`liedyn.crba.bias_force`), ``tau = J^T F + N^T tau_null``, and
    the dynamically consistent projector ``N^T = I - J^T Lambda J M^-1``; ``M^-1
    J^T`` by a solve with the CRBA's ``M`` (Featherstone (2008), Table 6.2). Then
    ``J ddq + dJ dq = a``.

    Parameters
    ----------
    J : (..., k, nv) array, the task Jacobian, ``dx = J dq``
    dJdq : (..., k) array, the task acceleration at ``ddq = 0``
    a : (..., k) array, the commanded task acceleration
    tau_null : (..., nv) array, optional, torques for the task's null space

    Returns
    -------
    tau : (..., nv) array

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(mass=3.0, length=2.0, gravity=10.0)
    >>> tau = operational_space_control(model, [0.0], [0.0], [[2.0]], [0.0], [1.0])
    >>> round(float(tau[0]), 12)          # m l^2 (a / l): the bob accelerates at a
    6.0
    """
    J = _task_jacobian(model, J)
    k = J.shape[-2]
    dJdq = _checks.array("dJdq", dJdq, (k,))
    a = _checks.array("a", a, (k,))
    Lam, X = _task_inertia(model, q, J)                   # X = M^-1 J^T
    b = bias_force(model, q, dq)
    F = matvec(Lam, a - dJdq + matvec(transpose(X), b))   # Lam (a - dJdq) + mu + p
    tau = matvec(transpose(J), F)
    if tau_null is not None:
        tau0 = model.check_v(tau_null, "tau_null")
        NT = np.eye(model.nv) - transpose(J) @ Lam @ transpose(X)  # I - J^T Lam X^T
        tau = tau + matvec(NT, tau0)
    return tau


@dataclass(frozen=True)
class PointTask:
    """A point on a body in the ground frame (Kim (2012), eq. (41) for the bias):
    ``x``, ``dx`` (..., 3); ``J`` (..., 3, nv) with ``dx = J dq``; ``dJdq`` (..., 3)
    with ``ddx = J ddq + dJdq``.
    """

    x: np.ndarray
    dx: np.ndarray
    J: np.ndarray
    dJdq: np.ndarray


def point_task(model, q, dq, body, point=None):
    """Position, velocity, Jacobian and acceleration bias of a point ``r`` on a
    body.

    With ``T_{0,i} = (R, p)``, ``V_i = (w, v) = J_i dq`` (body Jacobian, Zhang,
    Lecture 9) and ``dV_i = (dw, dv)`` of Kim (2012), eq. (41) at ``ddq = 0``
    without gravity: ``x = p + R r``, ``dx = R (v + w x r)``, ``dJdq = R (dv + dw x
    r + w x (v + w x r))``. ``point`` (3,) is in the body frame (default its
    origin).

    >>> from liedyn.robots import pendulum
    >>> task = point_task(pendulum(length=2.0), [0.0], [1.0], 1, [0.0, -2.0, 0.0])
    >>> # centripetal: w^2 l up
    >>> task.x.tolist(), task.dx.tolist(), task.dJdq.tolist()
    ([0.0, -2.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0])
    """
    i = model.body(body)
    r = (
        np.zeros(3)
        if point is None
        else _checks.array("point", point, (3,)).reshape(3))
    dq = model.check_v(dq)
    T = forward_kinematics(model, q).T_world[..., i, :, :]
    R, p = T[..., :3, :3], T[..., :3, 3]
    Ji = body_jacobian(model, q, i)
    J = R @ (Ji[..., 3:, :] - skew(r) @ Ji[..., :3, :])      # v + w x r = v - [r] w
    V = matvec(Ji, dq)
    w, v = V[..., :3], V[..., 3:]
    dV = body_accelerations(model, q, dq, np.zeros(model.nv))[..., i, :]
    dw, dv = dV[..., :3], dV[..., 3:]
    r_b = np.broadcast_to(r, w.shape)
    v_r = v + cross(w, r_b)
    dJdq = matvec(R, dv + cross(dw, r_b) + cross(w, v_r))
    return PointTask(p + matvec(R, r), matvec(R, v_r), J, dJdq)


@dataclass(frozen=True)
class ClosedLoop:
    """A closed-loop simulation (accelerations by Kim (2012), Table 3): ``t``,
    ``q``, ``dq`` as in :class:`liedyn.simulation.Trajectory`, ``tau[k]`` the
    controller's output at ``t[k]``, and the whole ``trajectory``.
    """

    t: np.ndarray
    q: np.ndarray
    dq: np.ndarray
    tau: np.ndarray
    trajectory: object


def simulate_closed_loop(model: Model,
                         controller: StateFunction,
                         q0: ArrayLike, dq0: ArrayLike, dt: float,
                         steps: int | None = None, duration: float | None = None,
                         method: str = "rk4") -> ClosedLoop:
    """Simulate ``M ddq + b = tau`` with ``tau = controller(t, q, dq)``; record
    ``tau``.

    The closed loop of Murray, Li and Sastry, Ch. 4, integrated by
    :func:`liedyn.simulation.simulate` (Kim (2012), Table 3); the controller is
    evaluated at every stage, then once more on the whole trajectory (``t`` of shape
    ``(steps + 1, 1, ...)``) to record the torques, so it must accept batches.
    ``dt``, ``steps``, ``duration`` and ``method`` as in ``simulate``.

    Returns
    -------
    ClosedLoop

    Examples
    --------
    >>> from liedyn.robots import pendulum
    >>> model = pendulum(gravity=10.0)
    >>> hold = lambda t, q, dq: pd_gravity(model, q, dq, [1.0], Kp=20.0, Kd=8.0)
    >>> run = simulate_closed_loop(model, hold, [0.0], [0.0], dt=0.01, duration=3.0)
    >>> run.tau.shape, round(float(run.q[-1, 0]), 3)  # settles at q_d = 1
    ((301, 1), 1.0)
    """
    if not callable(controller):
        raise TypeError(f"argument 'controller': expected a callable "
                        f"(t, q, dq) -> tau, got {type(controller).__name__}")
    traj = simulate(model, q0, dq0, dt, steps=steps, duration=duration,
                    control=controller, method=method)
    batch = traj.q.shape[1:-1]
    t = traj.t.reshape(traj.t.shape + (1,) * len(batch))
    tau = np.asarray(controller(t, traj.q, traj.dq), dtype=float)
    tau = np.broadcast_to(tau, traj.dq.shape).copy()
    tau.flags.writeable = False
    return ClosedLoop(traj.t, traj.q, traj.dq, tau, traj)
