"""Checkers for the "Implement ..." exercises: the reader writes the algorithm.

Each checker takes the reader's function, runs it on models the reader has not seen
(random trees of several joint types and, when example-robot-data is installed, the
Panda) at random states, and compares what it returns, quantity by quantity and body
by body, in the order the algorithm computes them, with liedyn's reference
implementation. The first quantity that differs is named with its body, so that the
reader knows where to look: "body 3 (a Prismatic joint, parent 1): dV_3 differs".

While the reader's function runs, liedyn's own algorithms for the same job raise
:class:`~liedyn.teach.exercises.WrongAnswer` (the building blocks stay allowed: the
model, its joints, :mod:`liedyn.lie`): an implementation that calls them is refused.

Examples
--------
>>> from liedyn.teach.implement import check_rnea
>>> from liedyn.inverse_dynamics import rnea_pass
>>> def calls_liedyn(model, q, dq, ddq):
...     out = rnea_pass(model, q, dq, ddq)
...     return out.forward.V, out.forward.dV, out.F, out.tau
>>> check_rnea(calls_liedyn)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
liedyn.teach.exercises.WrongAnswer: your function called liedyn.inverse_dynamics...
"""
import contextlib
import sys

import numpy as np

from ..crba import composite_inertias, mass_matrix
from ..derivatives import rnea_partials
from ..forward_dynamics import aba_pass
from ..inverse_dynamics import rnea, rnea_pass
from ..kinematics import forward_kinematics
from ..robots import random_tree
from .exercises import WrongAnswer

__all__ = ["check_forward_kinematics", "check_rnea", "check_crba", "check_aba",
           "check_complex_step", "unseen_models"]

TOL = 1e-8
"""Largest error accepted, relative to ``max(1, |liedyn's value|)``."""

FORBIDDEN = {
    "forward kinematics": ["kinematics.forward_kinematics",
                           "kinematics.forward_pass", "kinematics.joint_transforms",
                           "kinematics.joint_transform", "kinematics.world_poses"],
    "rnea": ["inverse_dynamics.rnea", "inverse_dynamics.rnea_pass",
             "inverse_dynamics.backward_step", "kinematics.forward_pass",
             "kinematics.forward_step", "kinematics.body_velocities",
             "kinematics.body_accelerations"],
    "crba": ["crba.mass_matrix", "crba.composite_inertias", "inverse_dynamics.rnea",
             "inverse_dynamics.rnea_pass"],
    "aba": ["forward_dynamics.aba", "forward_dynamics.aba_pass",
            "forward_dynamics.inverse_mass_matrix", "crba.mass_matrix",
            "hybrid_dynamics.hybrid", "hybrid_dynamics.hybrid_pass"],
    "complex step": ["derivatives.rnea_partials", "derivatives.rnea_derivative",
                     "derivatives.aba_partials"],
}


def unseen_models(kinds=None, seed=20_241_128):
    """The models a checker tries: ``(description, model)`` pairs.

    Random trees of 4, 7 and 9 bodies with ``kinds`` of joints (default: every
    kind), and the Panda of example-robot-data when it is installed.
    """
    rng = np.random.default_rng(seed)
    shapes = [(4, ["revolute"]), (7, ["revolute", "prismatic", "helical"]),
              (9, kinds)]
    models = [(f"a random tree of {n} bodies", random_tree(n, rng, joint_types=k))
              for n, k in shapes]
    try:
        from ..urdf import load_robot
        models.append(("the Panda", load_robot("panda")))
    except (ImportError, OSError, ValueError):
        pass
    return models


def _states(model, rng):
    """``q``, ``dq`` and a third vector (``ddq`` or ``tau``) at random."""
    return (model.random_configuration(rng), rng.normal(size=model.nv),
            rng.normal(size=model.nv))


# --- the reader's function, with liedyn's own algorithm switched off ---
@contextlib.contextmanager
def _forbidden(student, job):
    """Within this block the algorithms of ``FORBIDDEN[job]`` raise
    :class:`WrongAnswer`, wherever liedyn or the reader's module holds them."""
    banned = {}
    for name in FORBIDDEN[job]:
        module, attr = name.rsplit(".", 1)
        original = getattr(sys.modules["liedyn." + module], attr)
        banned[id(original)] = "liedyn." + name
    namespaces = [vars(m) for n, m in list(sys.modules.items())
                  if n == "liedyn" or n.startswith("liedyn.")]
    namespaces.append(getattr(student, "__globals__", {}))
    saved = [(ns, k, v) for ns in namespaces for k, v in list(ns.items())
             if id(v) in banned]
    for ns, k, v in saved:
        ns[k] = _refusal(banned[id(v)], job)
    try:
        yield
    finally:
        for ns, k, v in saved:
            ns[k] = v


def _refusal(name, job):
    def refuse(*args, **kwargs):
        raise WrongAnswer(f"your function called {name}: this exercise asks you to "
                          f"write the {job} yourself, from the model's joints, "
                          "placements and inertias and the operators of liedyn.lie")
    return refuse


def _run(student, job, *args):
    """``student(*args)``, with liedyn's own ``job`` refused."""
    with _forbidden(student, job):
        return student(*args)


# --- comparing, in the order the algorithm computes ---
def _body(model, i):
    joint = type(model.joints[i]).__name__
    return f"body {i} (a {joint} joint, parent {model.parent[i]})"


def _compare(where, steps):
    """Raise :class:`WrongAnswer` at the first ``(label, yours, liedyn's)`` of
    ``steps`` that differs."""
    for label, yours, expected in steps:
        expected = np.asarray(expected)
        try:
            a = np.asarray(yours, dtype=expected.dtype)
        except (TypeError, ValueError):
            raise WrongAnswer(f"{where}: {label} should be a numeric array, got "
                              f"{type(yours).__name__}") from None
        if a.shape != expected.shape:
            raise WrongAnswer(f"{where}: {label} should have shape "
                              f"{expected.shape}, got {a.shape}")
        scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
        err = float(np.max(np.abs(a - expected), initial=0.0))
        if not err <= TOL * scale:
            raise WrongAnswer(
                f"{where}: {label} differs from liedyn's by {err:.3g}; everything "
                f"computed before it agrees.\n  yours:\n{_show(a)}\n"
                f"  liedyn's:\n{_show(expected)}")


def _show(x):
    return np.array2string(np.real_if_close(x), precision=4, suppress_small=True)


def _unpack(result, names, where):
    """The reader's result as the tuple ``names`` asks for."""
    if not isinstance(result, (tuple, list)) or len(result) != len(names):
        raise WrongAnswer(f"{where}: your function should return the tuple "
                          f"({', '.join(names)})")
    return result


def _per_body(values, model, what):
    """``values`` as a list of N+1 entries (entry 0 the ground)."""
    values = list(values)
    if len(values) != model.nbodies + 1:
        raise WrongAnswer(f"{what} should have N+1 = {model.nbodies + 1} entries "
                          f"(entry 0 for the ground), got {len(values)}")
    return values


def _try_all(student, job, run_one, kinds=None):
    rng, models = np.random.default_rng(7), unseen_models(kinds)
    for description, model in models:
        run_one(student, model, rng, f"on {description}")
    print(f"Your {job} agrees with liedyn on {len(models)} models you have not "
          "seen, body by body.")
    return True


# --- the exercises ---
def check_forward_kinematics(student):
    """Check ``student(model, q) -> T``: the N+1 poses ``T_{0,i}`` (4x4, entry 0
    the identity), ``T_{0,i} = T_{0,lambda(i)} X_i J_i(q_i)`` (Kim (2012), Section
    2.1)."""
    def one(student, model, rng, where):
        q = model.random_configuration(rng)
        T = _per_body(_run(student, "forward kinematics", model, q), model, "T")
        ref = forward_kinematics(model, q).T_world
        _compare(where, [(f"{_body(model, i)}: T_0{i}", T[i], ref[i])
                         for i in range(model.nbodies + 1)])
    return _try_all(student, "forward kinematics", one)


def check_rnea(student):
    """Check ``student(model, q, dq, ddq) -> (V, dV, F, tau)`` against Kim (2012),
    Table 2: ``V, dV, F`` lists of N+1 twists and wrenches (entry 0 the ground),
    ``tau`` (nv,). Compared ``V_i, dV_i`` for ``i = 1..N``, then ``F_i, tau_i`` for
    ``i = N..1``."""
    def one(student, model, rng, where):
        q, dq, ddq = _states(model, rng)
        V, dV, F, tau = _unpack(_run(student, "rnea", model, q, dq, ddq),
                                ("V", "dV", "F", "tau"), where)
        V, dV, F = (_per_body(x, model, n) for x, n in ((V, "V"), (dV, "dV"),
                                                          (F, "F")))
        ref = rnea_pass(model, q, dq, ddq)
        N, vs = model.nbodies, model.v_slice
        steps = [s for i in range(1, N + 1) for s in (
            (f"{_body(model, i)}: V_{i}", V[i], ref.forward.V[i]),
            (f"{_body(model, i)}: dV_{i}", dV[i], ref.forward.dV[i]))]
        steps += [s for i in range(N, 0, -1) for s in (
            (f"{_body(model, i)}: F_{i}", F[i], ref.F[i]),
            (f"{_body(model, i)}: tau_{i}", np.asarray(tau)[vs[i]],
             ref.tau[vs[i]]))]
        _compare(where, steps)
    return _try_all(student, "rnea", one)


def check_crba(student):
    """Check ``student(model, q) -> (Ic, M)`` against the composite-rigid-body
    algorithm (Featherstone (2008), Table 6.2, in Kim's notation): the composite
    inertias ``Ic`` (N+1 6x6 matrices in the body frames, entry 0 unused) and the
    mass matrix (nv, nv), compared ``Ic_i`` for ``i = N..1``, then ``M``'s columns
    joint by joint."""
    def one(student, model, rng, where):
        q = model.random_configuration(rng)
        Ic, M = _unpack(_run(student, "crba", model, q), ("Ic", "M"), where)
        Ic = _per_body(Ic, model, "Ic")
        ref_Ic, ref_M = composite_inertias(model, q)[0], mass_matrix(model, q)
        N, vs = model.nbodies, model.v_slice
        M = np.asarray(M)
        if M.shape != ref_M.shape:
            raise WrongAnswer(f"{where}: M should have shape {ref_M.shape}, got "
                              f"{M.shape}")
        _compare(where, [(f"{_body(model, i)}: Ic_{i}", Ic[i], ref_Ic[i])
                         for i in range(N, 0, -1)]
                 + [(f"{_body(model, i)}: the columns of M of joint {i}",
                     M[:, vs[i]], ref_M[:, vs[i]]) for i in range(1, N + 1)])
    return _try_all(student, "crba", one)


def check_aba(student):
    """Check ``student(model, q, dq, tau) -> (I_hat, B_hat, ddq)`` against Kim
    (2012), Table 3: the articulated inertias and bias forces (N+1 entries, entry 0
    unused), compared for ``i = N..1``, then ``ddq`` joint by joint."""
    def one(student, model, rng, where):
        q, dq, tau = _states(model, rng)
        I_hat, B_hat, ddq = _unpack(_run(student, "aba", model, q, dq, tau),
                                    ("I_hat", "B_hat", "ddq"), where)
        I_hat, B_hat = _per_body(I_hat, model, "I_hat"), _per_body(B_hat, model,
                                                                     "B_hat")
        ref = aba_pass(model, q, dq, tau)
        N, vs = model.nbodies, model.v_slice
        steps = [s for i in range(N, 0, -1) for s in (
            (f"{_body(model, i)}: I_hat_{i}", I_hat[i], ref.I_hat[i]),
            (f"{_body(model, i)}: B_hat_{i}", B_hat[i], ref.B_hat[i]))]
        steps += [(f"{_body(model, i)}: ddq_{i}", np.asarray(ddq)[vs[i]],
                   ref.ddq[vs[i]]) for i in range(1, N + 1)]
        _compare(where, steps)
    return _try_all(student, "aba", one)


VECTOR_JOINTS = ["revolute", "prismatic", "helical"]
"""The joints whose configuration is a vector, where ``q + i h e_k`` is a state."""


def check_complex_step(student):
    """Check ``student(rnea, model, q, dq, ddq) -> dtau/dq`` (nv, nv), a
    complex-step derivative of the given ``rnea`` (``Im rnea(q + i h e_k) / h``),
    against Kim (2012), Table 5 (:func:`liedyn.derivatives.rnea_partials`), column
    by column."""
    def one(student, model, rng, where):
        q, dq, ddq = _states(model, rng)
        complex_calls = []

        def spy(model, q, dq, ddq):
            complex_calls.append(np.iscomplexobj(q))
            return rnea(model, q, dq, ddq)
        D = _run(student, "complex step", spy, model, q, dq, ddq)
        if not any(complex_calls):
            raise WrongAnswer(f"{where}: your function never passed a complex q to "
                              "rnea: complex step evaluates rnea(q + i h e_k)")
        ref = rnea_partials(model, q, dq, ddq)[0]
        D, vs = np.asarray(D), model.v_slice
        if D.shape != ref.shape:
            raise WrongAnswer(f"{where}: dtau/dq should have shape {ref.shape}, "
                              f"got {D.shape}")
        _compare(where, [(f"{_body(model, i)}: dtau/dq_{i}", D[:, vs[i]],
                          ref[:, vs[i]]) for i in range(1, model.nbodies + 1)])
    return _try_all(student, "complex-step derivative", one, VECTOR_JOINTS)
