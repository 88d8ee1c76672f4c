"""Checkers for the "Implement ..." exercises: the reader writes the algorithm.

Each checker takes the reader's function, runs it on models the reader has not seen
(random trees of several joint types and, when example-robot-data is installed, the
Panda) at random states, and compares what it returns, quantity by quantity and body
by body, in the order the algorithm computes them, with liedyn's reference
implementation. The first quantity that differs is named with its body, so that the
reader knows where to look ("body 3 (a Prismatic joint, parent 1): dV_3 differs"),
and printed beside liedyn's, twists as ``(w | v)`` and wrenches as ``(m | f)``.

When that quantity is what a typical slip gives, the message names the slip in one
sentence. A slip is recognised, never guessed: the checker runs the algorithm again
with one term changed (``SLIPS``: ``ad`` in place of ``ad*``, ``A_k`` in place
of ``A_k^T``, gravity left out, ...) and names each slip that reproduces the
reader's value to ``SLIP_TOL``. A non-symmetric inertia is called so.

While the reader's function runs, the checker watches which Python functions run
(``sys.setprofile``): liedyn's own algorithm for the job (``FORBIDDEN``) is
refused with a :class:`~liedyn.teach.exercises.WrongAnswer` that names it, however
it is reached: imported, captured as a default argument, copied under another name,
through a reloaded module (its code is compared, not its identity) or inside another
liedyn function. The building blocks stay allowed: the model, its joints,
:mod:`liedyn.lie`.

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
import importlib
import sys
from dataclasses import dataclass

import numpy as np

from .. import lie
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

SLIP_TOL = 1e-6
"""A slip is named when the value recomputed with it is this close to the reader's,
relative to ``max(1, |that value|)``, and a thousand times closer than liedyn's."""

FORBIDDEN = {
    "forward kinematics": ["kinematics.forward_kinematics",
                           "kinematics.forward_pass", "kinematics.joint_transforms",
                           "kinematics.joint_transform", "kinematics.world_poses"],
    "rnea": ["inverse_dynamics.rnea", "inverse_dynamics.rnea_pass",
             "inverse_dynamics.backward_step", "kinematics.forward_pass",
             "kinematics.forward_step", "kinematics.body_velocities",
             "kinematics.body_accelerations", "hybrid_dynamics.hybrid",
             "hybrid_dynamics.hybrid_pass", "engine.dispatch.rnea",
             "engine.dispatch.hybrid"],
    "crba": ["crba.mass_matrix", "crba.composite_inertias", "inverse_dynamics.rnea",
             "inverse_dynamics.rnea_pass", "forward_dynamics.inverse_mass_matrix",
             "forward_dynamics.mass_matrix_factor", "derivatives.rnea_partials",
             "derivatives.aba_partials", "engine.dispatch.mass_matrix",
             "engine.dispatch.rnea", "engine.dispatch.inverse_mass_matrix",
             "engine.dispatch.rnea_partials", "engine.dispatch.aba_partials"],
    "aba": ["forward_dynamics.aba", "forward_dynamics.aba_pass",
            "forward_dynamics.articulation_step",
            "forward_dynamics.acceleration_step",
            "forward_dynamics.inverse_mass_matrix",
            "forward_dynamics.mass_matrix_factor", "crba.mass_matrix",
            "hybrid_dynamics.hybrid", "hybrid_dynamics.hybrid_pass",
            "hybrid_dynamics.hybrid_direct", "derivatives.rnea_partials",
            "derivatives.aba_partials", "engine.dispatch.aba",
            "engine.dispatch.hybrid", "engine.dispatch.mass_matrix",
            "engine.dispatch.inverse_mass_matrix", "engine.dispatch.rnea_partials",
            "engine.dispatch.aba_partials"],
    "complex step": ["derivatives.rnea_partials", "derivatives.rnea_derivative",
                     "derivatives.aba_partials", "derivatives.aba_derivative",
                     "derivatives.hybrid_partials", "derivatives.hybrid_derivative",
                     "engine.dispatch.rnea_partials",
                     "engine.dispatch.aba_partials"],
}
"""Per job, liedyn's functions (``module.name`` under ``liedyn``) that the reader's
function must not run, directly or through anything that calls them."""


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


# --- the reader's function, watched ---
class _Watch:
    """A profile function (``sys.setprofile``) that stops the reader's function at
    the first call of one of ``FORBIDDEN[job]``, recognised by its code object
    (equal for a copy, a function captured earlier and a reloaded module's)."""

    def __init__(self, job):
        self.job, self.codes, self.called, self.paused = job, {}, None, False
        for name in FORBIDDEN[job]:
            module, attr = name.rsplit(".", 1)
            code = getattr(importlib.import_module("liedyn." + module),
                           attr).__code__
            self.codes[code] = "liedyn." + name
        self.names = frozenset(code.co_name for code in self.codes)

    def __call__(self, frame, event, _arg):
        if event != "call" or self.paused or self.called:
            return
        code = frame.f_code
        if code.co_name in self.names and code in self.codes:
            self.called = self.codes[code]
            raise WrongAnswer(self.refusal())

    def refusal(self):
        return (f"your function called {self.called}: this exercise asks you to "
                f"write the {self.job} yourself, from the model's joints, "
                "placements and inertias and the operators of liedyn.lie")

    @contextlib.contextmanager
    def pause(self):
        """Calls the checker makes for the reader (the ``rnea`` it hands over)."""
        self.paused = True
        try:
            yield
        finally:
            self.paused = False


def _run(student, job, *args, watch=None):
    """``student(*args)``, refused if it runs liedyn's own ``job``."""
    watch = _Watch(job) if watch is None else watch
    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        result = student(*args)
        if hasattr(result, "__next__"):             # lazy parts run while watched
            result = list(result)
        if isinstance(result, (tuple, list)):
            result = [x if isinstance(x, (np.ndarray, list, tuple)) or
                      not hasattr(x, "__next__") else list(x) for x in result]
    except BaseException:
        if watch.called:                          # also if the reader caught it
            raise WrongAnswer(watch.refusal()) from None
        raise
    finally:
        replaced = sys.getprofile() is not watch
        sys.setprofile(previous)
    if watch.called:
        raise WrongAnswer(watch.refusal())
    if replaced:
        raise WrongAnswer("your function changed sys.setprofile, with which the "
                          "checker sees which liedyn functions it calls")
    return result


# --- the algorithms again, each with one term changed: the slips ---
def _parent(model, i, slip):
    return i - 1 if slip == "parent i-1" else model.parent[i]


def _joint(model, q, dq, i, slip=None):
    """``T_{lambda(i),i}``, ``S_i``, ``dS_i dq_i``, ``S_i dq_i`` of body ``i``."""
    joint, qi = model.joints[i], q[model.q_slice[i]]
    X, Phi = model.placements[i], joint.transform(qi)
    T, S = (Phi @ X if slip == "Phi X" else X @ Phi), joint.S(qi)
    if dq is None:
        return T, S, None, None
    dqi = dq[model.v_slice[i]]
    return T, S, joint.dS(qi, dqi) @ dqi, S @ dqi


def _ground(model, slip):
    """``dV_0 = (0, -g)`` (Kim (2012), footnote 6), or a gravity slip."""
    g, z = np.asarray(model.gravity, dtype=float), np.zeros(3)
    halves = {"no gravity": (z, z), "gravity sign": (z, g), "gravity in w": (-g, z)}
    return np.concatenate(halves.get(slip, (z, -g)))


def _twist_mover(T, slip, where=""):
    """``Ad_{T^-1}`` of Kim's eqs. (37), (41), or a slip ``where`` it is used:
    ``Ad_T``, ``Ad_{T^-1}^T``."""
    if slip == "Ad for Ad_inv" + where:
        return lie.Ad(T)
    return lie.Ad_inv(T).T if slip == "A^T for A" + where else lie.Ad_inv(T)


def _wrench_mover(T, slip, where=""):
    """``Ad*_{T^-1} = Ad_{T^-1}^T`` of Kim's eq. (42), or a slip ``where`` it is
    used: ``Ad_{T^-1}``, ``Ad*_T``, ``Ad_T``."""
    if slip == "A for A^T" + where:
        return lie.Ad_inv(T)
    if slip == "Ad* of T" + where:
        return lie.Ad(T).T
    return lie.Ad(T) if slip == "Ad of T" + where else lie.Ad_inv(T).T


def _congruence(T, X, slip):
    """``A^T X A`` with ``A = Ad_{T^-1}`` (Kim's eq. (21)), or a slip."""
    A = lie.Ad_inv(T)
    if slip == "A X A":
        return A @ X @ A
    if slip == "A X A^T":
        return A @ X @ A.T
    if slip == "Ad_T":
        return lie.Ad(T).T @ X @ lie.Ad(T)
    return A.T @ X @ A


def _eta(V, Sdq, dSdq, slip):
    """``ad_V S dq + dS dq`` (the velocity terms of Kim's eq. (41)), or a slip."""
    coriolis = {"no ad term": 0.0, "ad term sign": -1.0}.get(slip, 1.0)
    return coriolis * (lie.ad(V) @ Sdq) + (0.0 if slip == "no dS term" else dSdq)


def _bias(V, I, slip):
    """``-ad*_V I V`` (Kim's eqs. (31), (42)), or a slip."""
    ad = lie.ad(V) if slip == "ad for ad*" else lie.ad_star(V)
    return (1.0 if slip == "ad* sign" else -1.0) * (ad @ I @ V)


def _fk_with(model, q, slip=None):
    """``T_{0,i} = T_{0,lambda(i)} X_i Phi_i(q_i)`` with ``slip``."""
    T = [np.eye(4)] + [None] * model.nbodies
    for i in range(1, model.nbodies + 1):
        X, Phi = model.placements[i], model.joints[i].transform(q[model.q_slice[i]])
        rel = {"Phi X": Phi @ X, "no X": Phi, "no Phi": X,
               "inverse": np.linalg.inv(X @ Phi)}.get(slip, X @ Phi)
        parent = T[_parent(model, i, slip)]
        T[i] = {"no parent": rel, "parent right": rel @ parent}.get(slip,
                                                                     parent @ rel)
    return {("T", i): T[i] for i in range(model.nbodies + 1)}


def _rnea_with(model, q, dq, ddq, slip=None):
    """Kim (2012), Table 2 with ``slip``."""
    N, out = model.nbodies, {}
    T, S, V, dV, F = ([None] * (N + 1) for _ in range(5))
    V[0], dV[0] = np.zeros(6), _ground(model, slip)
    for i in range(1, N + 1):
        T[i], S[i], dSdq, Sdq = _joint(model, q, dq, i, slip)
        p, vs = _parent(model, i, slip), model.v_slice[i]
        V[i] = _twist_mover(T[i], slip) @ V[p] + Sdq                        # (37)
        dV[i] = (_twist_mover(T[i], slip, " in dV") @ dV[p]
                 + _eta(V[i], Sdq, dSdq, slip)
                 + (0.0 if slip == "no S ddq" else S[i] @ ddq[vs]))          # (41)
        out["V", i], out["dV", i] = V[i], dV[i]
    for i in range(N, 0, -1):
        I = model.inertias[i]
        F[i] = I @ dV[i] + _bias(V[i], I, slip)                              # (42)
        for k in [] if slip == "no children" else model.children[i]:
            F[i] = F[i] + _wrench_mover(T[k], slip) @ F[k]
        out["F", i], out["tau", i] = F[i], S[i].T @ F[i]
    return out


def _crba_with(model, q, slip=None):
    """The composite inertias and the mass matrix (Featherstone (2008), Table 6.2,
    in Kim's notation) with ``slip``."""
    N, vs, out = model.nbodies, model.v_slice, {}
    T, S = [None] * (N + 1), [None] * (N + 1)
    for i in range(1, N + 1):
        T[i], S[i], _, _ = _joint(model, q, None, i)
    Ic = [None] * (N + 1)
    for i in range(N, 0, -1):
        Ic[i] = np.array(model.inertias[i], dtype=float)
        for k in [] if slip == "no children" else model.children[i]:
            child = model.inertias[k] if slip == "own I_k" else Ic[k]
            Ic[i] = Ic[i] + (child if slip == "untransformed" else
                             _congruence(T[k], child, slip))
        out["Ic", i] = Ic[i]
    M = np.zeros((model.nv, model.nv))
    for i in range(1, N + 1):
        F, j = (model.inertias[i] if slip == "I for Ic" else Ic[i]) @ S[i], i
        M[vs[i], vs[i]] = S[i].T @ F
        while model.parent[j] > 0:
            if slip == "walk order":
                j = model.parent[j]
                F = lie.Ad_inv(T[j]).T @ F
            else:
                F = _wrench_mover(T[j], slip, " in the walk") @ F
                j = model.parent[j]
            M[vs[j], vs[i]] = S[j].T @ F
            if slip != "one triangle":
                M[vs[i], vs[j]] = (S[j].T @ F).T
    out.update({("M", i): M[:, vs[i]] for i in range(1, N + 1)})
    return out


def _aba_with(model, q, dq, tau, slip=None):
    """Kim (2012), Table 3 (corrected) with ``slip``."""
    N, vs, out = model.nbodies, model.v_slice, {}
    T, S, V, eta = ([None] * (N + 1) for _ in range(4))
    V[0] = np.zeros(6)
    for i in range(1, N + 1):                                   # first sweep
        T[i], S[i], dSdq, Sdq = _joint(model, q, dq, i)
        V[i] = lie.Ad_inv(T[i]) @ V[model.parent[i]] + Sdq
        eta[i] = _eta(V[i], Sdq, dSdq, slip)
    I_hat, B_hat, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):                                   # backward sweep
        I = model.inertias[i]
        kids = [] if slip == "no children" else model.children[i]
        I_hat[i] = I + sum(_congruence(T[k], Pi[k], slip) for k in kids)
        B_hat[i] = (_bias(V[i], I_hat[i] if slip == "I_hat in bias" else I, slip)
                    + sum(_wrench_mover(T[k], slip) @ beta[k] for k in kids))
        D = S[i].T @ I_hat[i] @ S[i]
        Psi[i] = D if slip == "Psi not inverted" else np.linalg.inv(D)
        IS = I_hat[i] @ S[i]
        Pi[i] = I_hat[i] - {"I_hat for Pi": 0.0, "Pi sign": -IS @ Psi[i] @ IS.T,
                            "Pi last I_hat": IS @ Psi[i] @ S[i].T}.get(
                                slip, IS @ Psi[i] @ IS.T)
        zero = np.zeros(6)
        e_u = zero if slip in ("no eta in u", "no eta in beta, u") else eta[i]
        e_b = zero if slip in ("no eta in beta", "no eta in beta, u") else eta[i]
        u = (0.0 if slip == "no tau in u" else tau[vs[i]]) - S[i].T @ (
            I_hat[i] @ e_u + B_hat[i])
        beta[i] = B_hat[i] + (0.0 if slip == "B_hat for beta" else
                              I_hat[i] @ (e_b + S[i] @ Psi[i] @ u))
        out["I_hat", i], out["B_hat", i] = I_hat[i], B_hat[i]
    dV = [_ground(model, slip)] + [None] * N
    for i in range(1, N + 1):                                   # second sweep
        a = (_twist_mover(T[i], slip, " in a") @ dV[model.parent[i]]
             + (0.0 if slip == "no eta in a" else eta[i]))
        Ia = (model.inertias[i] if slip == "I for I_hat in ddq" else I_hat[i]) @ a
        ddq = Psi[i] @ (tau[vs[i]] - S[i].T @ (
            Ia + (0.0 if slip == "no B_hat in ddq" else B_hat[i])))
        dV[i] = (a - (eta[i] if slip == "no eta in dV" else 0.0)
                 + (0.0 if slip == "no S ddq in dV" else S[i] @ ddq))
        out["ddq", i] = ddq
    return out


def _complex_step_with(model, q, dq, ddq, slip=None):
    """``dtau/dq`` by Kim (2012), Table 5, or what a slip of the complex step gives:
    its transpose, the running sum of the columns (``e_k`` not reset),
    ``-dtau/dq``."""
    D = rnea_partials(model, q, dq, ddq)[0]
    D = {"transposed": D.T, "e not reset": np.cumsum(D, axis=1),
         "sign": -D}.get(slip, D)
    return {("dtau/dq", i): D[:, model.v_slice[i]]
            for i in range(1, model.nbodies + 1)}


_GRAVITY = [
    ("no gravity",
     "Your {q} is what a ground at rest gives: gravity enters as the ground's "
     "acceleration dV_0 = (w | v) = (0 | -g) (Kim (2012), footnote 6), and your "
     "dV_0 is 0."),
    ("gravity sign",
     "Your {q} is what dV_0 = (w | v) = (0 | +g) gives: the ground accelerates "
     "against gravity, dV_0 = (0 | -g) (Kim (2012), footnote 6)."),
    ("gravity in w",
     "Your {q} is what dV_0 = (w | v) = (-g | 0) gives: -g belongs in the linear "
     "half v, the last three entries."),
]

SLIPS = {
    "forward kinematics": [
        ("Phi X",
         "Your {q} is T_0{p} Phi_{i} X_{i}: the placement comes first and the "
         "joint's motion after it, T_0{i} = T_0{p} X_{i} Phi_{i}(q_{i})."),
        ("parent right",
         "Your {q} is X_{i} Phi_{i} T_0{p}: the parent's pose multiplies from the "
         "left, T_0{i} = T_0{p} X_{i} Phi_{i}(q_{i})."),
        ("no X",
         "Your {q} leaves out the placement X_{i} = model.placements[{i}] in "
         "T_0{i} = T_0{p} X_{i} Phi_{i}(q_{i})."),
        ("no Phi",
         "Your {q} leaves out the joint's motion Phi_{i}(q_{i}) = "
         "model.joints[{i}].transform(q_{i}) in T_0{i} = T_0{p} X_{i} Phi_{i}."),
        ("inverse",
         "Your {q} is T_0{p} (X_{i} Phi_{i})^-1: T_0{i} = T_0{p} X_{i} "
         "Phi_{i}(q_{i}) takes X_{i} Phi_{i} itself, not its inverse."),
        ("no parent",
         "Your {q} is X_{i} Phi_{i} alone, the pose in the parent's frame: T_0{i} "
         "= T_0{p} X_{i} Phi_{i}(q_{i}) composes it with the parent's pose."),
        ("parent i-1",
         "Your {q} composes with the pose of body {i_1} = {i} - 1: the parent of "
         "body {i} is model.parent[{i}] = {p} (a tree is not a chain)."),
    ],
    "rnea": [
        ("parent i-1",
         "Your {q} takes the twist and acceleration of body {i_1} = {i} - 1 for "
         "the parent's: the parent of body {i} is model.parent[{i}] = {p} (a "
         "tree is not a chain)."),
        ("Phi X",
         "Your {q} is what T_({p},{i}) = Phi_{i} X_{i} gives: the placement comes "
         "first, T_({p},{i}) = X_{i} Phi_{i}(q_{i})."),
        ("Ad for Ad_inv",
         "Your {q} moves the parent's twist with Ad_T where A_{i} = Ad_(T^-1), T "
         "= T_({p},{i}), belongs: V_{i} = A_{i} V_{p} + S_{i} dq_{i} "
         "(Kim's eq. (37))."),
        ("A^T for A",
         "Your {q} moves the parent's twist with A_{i}^T where A_{i} = "
         "Ad_(T_({p},{i})^-1) belongs: V_{i} = A_{i} V_{p} + S_{i} dq_{i} "
         "(Kim's eq. (37))."),
        ("Ad for Ad_inv in dV",
         "Your {q} moves the parent's acceleration with Ad_T where A_{i} = "
         "Ad_(T^-1), T = T_({p},{i}), belongs (Kim's eq. (41))."),
        ("A^T for A in dV",
         "Your {q} moves the parent's acceleration with A_{i}^T where A_{i} = "
         "Ad_(T_({p},{i})^-1) belongs (Kim's eq. (41))."),
        *_GRAVITY,
        ("no ad term",
         "Your {q} leaves out the term ad_(V_{i}) S_{i} dq_{i} of "
         "Kim's eq. (41)."),
        ("ad term sign",
         "Your {q} has the term ad_(V_{i}) S_{i} dq_{i} of Kim's eq. (41) with "
         "the wrong sign (ad_(S dq) V = -ad_V S dq)."),
        ("no dS term",
         "Your {q} leaves out the term dS_{i} dq_{i} of Kim's eq. (41) (the "
         "S_{i} of this joint changes with q_{i})."),
        ("no S ddq",
         "Your {q} leaves out the term S_{i} ddq_{i} of Kim's eq. (41)."),
        ("ad for ad*",
         "Your {q} has ad_(V_{i}) where ad*_(V_{i}) = ad_(V_{i})^T belongs, in "
         "the term -ad*_(V_{i}) I_{i} V_{i} of Kim's eq. (42)."),
        ("ad* sign",
         "Your {q} has the term -ad*_(V_{i}) I_{i} V_{i} of Kim's eq. (42) with "
         "the wrong sign."),
        ("A for A^T",
         "Your {q} moves the children's wrenches with A_k = Ad_(T_({i},k)^-1) "
         "where its transpose A_k^T = Ad*_(T_({i},k)^-1) belongs "
         "(Kim's eq. (42))."),
        ("Ad* of T",
         "Your {q} moves the children's wrenches with Ad*_(T_({i},k)) where "
         "Ad*_(T_({i},k)^-1) = A_k^T belongs: the inverse is missing."),
        ("Ad of T",
         "Your {q} moves the children's wrenches with Ad_(T_({i},k)), the rule "
         "for twists: a wrench moves with Ad*_(T_({i},k)^-1) = A_k^T "
         "(Kim's eq. (13))."),
        ("no children",
         "Your {q} leaves out the children's wrenches, the sum over k in mu({i}) "
         "of A_k^T F_k in Kim's eq. (42)."),
    ],
    "crba": [
        ("A X A",
         "Your {q} adds A_k Ic_k A_k where A_k^T Ic_k A_k belongs: the left "
         "factor is the transpose, Ad*_(T^-1) = A_k^T (Kim's eq. (21))."),
        ("A X A^T",
         "Your {q} adds A_k Ic_k A_k^T: the transpose belongs on the left, A_k^T "
         "Ic_k A_k (Kim's eq. (21))."),
        ("Ad_T",
         "Your {q} adds Ad_(T_k)^T Ic_k Ad_(T_k): the inverse is missing, A_k = "
         "Ad_(T_k^-1) with T_k = T_({i},k) (Kim's eq. (21))."),
        ("untransformed",
         "Your {q} adds the children's Ic_k as they are: each is expressed in "
         "its own frame and moves to body {i}'s as A_k^T Ic_k A_k "
         "(Kim's eq. (21))."),
        ("own I_k",
         "Your {q} adds the children's own inertias I_k where their composites "
         "Ic_k belong (a child carries its whole subtree)."),
        ("no children",
         "Your {q} is the body's own inertia I_{i}: the children's A_k^T Ic_k "
         "A_k are missing."),
        ("A for A^T in the walk",
         "Your {q} moves F towards the root with A_j where A_j^T = Ad*_(T_j^-1) "
         "belongs (F is a wrench)."),
        ("Ad* of T in the walk",
         "Your {q} moves F towards the root with Ad_(T_j)^T where A_j^T = "
         "Ad_(T_j^-1)^T belongs: the inverse is missing."),
        ("walk order",
         "Your {q} moves F with the parent's A_(lambda(j))^T where A_j^T "
         "belongs: move F with A_j^T first, then step to the parent."),
        ("I for Ic",
         "Your {q} starts the walk from the body's own I_{i} where the composite "
         "Ic_{i} belongs: F = Ic_{i} S_{i}."),
        ("one triangle",
         "Your {q} is missing the blocks of joint {i}'s descendants: the walk "
         "gives M_(j,i) for the ancestors j, and M is symmetric, M_(i,j) = "
         "M_(j,i)^T."),
    ],
    "aba": [
        ("A X A^T",
         "Your {q} adds A_k Pi_k A_k^T: the transpose belongs on the left, A_k^T "
         "Pi_k A_k (Kim's eq. (49))."),
        ("A X A",
         "Your {q} adds A_k Pi_k A_k where A_k^T Pi_k A_k belongs: the left "
         "factor is the transpose, Ad*_(T^-1) = A_k^T (Kim's eq. (49))."),
        ("Ad_T",
         "Your {q} adds Ad_(T_k)^T Pi_k Ad_(T_k): the inverse is missing, A_k = "
         "Ad_(T_k^-1) with T_k = T_({i},k) (Kim's eq. (49))."),
        ("I_hat for Pi",
         "Your {q} adds the children's A_k^T I_hat_k A_k where A_k^T Pi_k A_k "
         "belongs, Pi_k = I_hat_k - I_hat_k S_k Psi_k S_k^T I_hat_k "
         "(Kim's eq. (49))."),
        ("Pi sign",
         "Your {q} is what Pi_k = I_hat_k + I_hat_k S_k Psi_k S_k^T I_hat_k "
         "gives: the second term is subtracted (Kim's eq. (49))."),
        ("Pi last I_hat",
         "Your {q} is what Pi_k = I_hat_k - I_hat_k S_k Psi_k S_k^T gives: the "
         "last factor I_hat_k is missing (Kim's eq. (49))."),
        ("Psi not inverted",
         "Your {q} uses S^T I_hat S where its inverse Psi = (S^T I_hat S)^-1 "
         "belongs (Kim's eq. (45))."),
        ("no children",
         "Your {q} leaves out the children's terms, A_k^T Pi_k A_k and A_k^T "
         "beta_k (Kim's eqs. (49), (50))."),
        ("ad for ad*",
         "Your {q} has ad_(V_{i}) where ad*_(V_{i}) = ad_(V_{i})^T belongs, in "
         "the bias -ad*_(V_{i}) I_{i} V_{i} (Kim's eq. (50))."),
        ("ad* sign",
         "Your {q} has the bias -ad*_(V_{i}) I_{i} V_{i} with the wrong sign "
         "(Kim's eq. (50))."),
        ("I_hat in bias",
         "Your {q} has I_hat_{i} where the body's own I_{i} belongs, in the bias "
         "-ad*_(V_{i}) I_{i} V_{i} (Kim's eq. (50))."),
        ("A for A^T",
         "Your {q} moves the children's beta_k with A_k = Ad_(T_({i},k)^-1) "
         "where its transpose A_k^T belongs (Kim's eq. (50))."),
        ("Ad* of T",
         "Your {q} moves the children's beta_k with Ad*_(T_({i},k)) where "
         "Ad*_(T_({i},k)^-1) = A_k^T belongs: the inverse is missing."),
        ("no eta in beta",
         "Your {q} leaves eta_k out of beta_k = B_hat_k + I_hat_k (eta_k + S_k "
         "Psi_k u_k) (Kim's eq. (50))."),
        ("no eta in u",
         "Your {q} leaves eta_k out of u_k = tau_k - S_k^T (I_hat_k eta_k + "
         "B_hat_k) (Kim's eq. (50))."),
        ("no eta in beta, u",
         "Your {q} leaves eta_k out of both beta_k = B_hat_k + I_hat_k (eta_k + "
         "S_k Psi_k u_k) and u_k = tau_k - S_k^T (I_hat_k eta_k + B_hat_k) "
         "(Kim's eq. (50))."),
        ("B_hat for beta",
         "Your {q} passes on the children's B_hat_k where beta_k = B_hat_k + "
         "I_hat_k (eta_k + S_k Psi_k u_k) belongs (Kim's eq. (50))."),
        ("no tau in u",
         "Your {q} leaves tau_k out of u_k = tau_k - S_k^T (I_hat_k eta_k + "
         "B_hat_k) (Kim's eq. (50))."),
        ("no ad term",
         "Your {q} leaves the term ad_V S dq out of eta = ad_V S dq + dS dq."),
        ("ad term sign",
         "Your {q} has the term ad_V S dq of eta = ad_V S dq + dS dq with the "
         "wrong sign (ad_(S dq) V = -ad_V S dq)."),
        ("no dS term",
         "Your {q} leaves the term dS dq out of eta = ad_V S dq + dS dq."),
        ("no B_hat in ddq",
         "Your {q} leaves B_hat_{i} out of ddq_{i} = Psi_{i} (tau_{i} - S_{i}^T "
         "(I_hat_{i} (A_{i} dV_{p} + eta_{i}) + B_hat_{i})) (Kim's eq. (45))."),
        *_GRAVITY,
        ("no eta in a",
         "Your {q} leaves eta_{i} out of A_{i} dV_{p} + eta_{i} in ddq_{i} = "
         "Psi_{i} (tau_{i} - S_{i}^T (I_hat_{i} (A_{i} dV_{p} + eta_{i}) + "
         "B_hat_{i}))."),
        ("no eta in dV",
         "Your {q} is what a parent's dV = A dV_p + S ddq without its eta gives: "
         "eta belongs in the dV passed on, dV = A dV_p + S ddq + eta "
         "(Kim's eq. (41))."),
        ("no S ddq in dV",
         "Your {q} is what a parent's dV = A dV_p + eta without its S ddq gives: "
         "the dV passed on is A dV_p + S ddq + eta (Kim's eq. (41))."),
        ("I for I_hat in ddq",
         "Your {q} has the body's own I_{i} where I_hat_{i} belongs, in ddq_{i} "
         "= Psi_{i} (tau_{i} - S_{i}^T (I_hat_{i} (A_{i} dV_{p} + eta_{i}) + "
         "B_hat_{i})) (Kim's eq. (45))."),
        ("Ad for Ad_inv in a",
         "Your {q} moves the parent's acceleration with Ad_T where A_{i} = "
         "Ad_(T^-1), T = T_({p},{i}), belongs."),
        ("A^T for A in a",
         "Your {q} moves the parent's acceleration with A_{i}^T where A_{i} = "
         "Ad_(T_({p},{i})^-1) belongs."),
    ],
    "complex step": [
        ("transposed",
         "Your {q} is the row of joint {i} of dtau/dq: column k is Im rnea(q + i "
         "h e_k) / h (D[:, k], not D[k, :])."),
        ("e not reset",
         "Your {q} is the sum of the columns up to joint {i}: e_k should be zero "
         "but for entry k, a fresh vector per column."),
        ("sign",
         "Your {q} has the wrong sign: Im rnea(q + i h e_k) / h, with + i h."),
    ],
}
"""Per job, the slips a checker recognises: ``(key, sentence)``; ``key`` selects the
term that the job's pass (``_rnea_with``, ...) changes, ``sentence`` says it with
``{q}`` the quantity, ``{i}`` the body, ``{i_1}`` = ``i - 1`` and ``{p}`` its
parent."""


# --- comparing, in the order the algorithm computes ---
def _body(model, i):
    if i == 0:
        return "the ground"
    joint = type(model.joints[i]).__name__
    return f"body {i} (a {joint} joint, parent {model.parent[i]})"


@dataclass
class _Step:
    """One quantity: ``key`` for the passes, ``name`` printed (``said`` after it
    where it differs), body ``i``; ``kind`` ``twist``, ``wrench`` or ``other``;
    ``symmetric``: ``(name, matrix, what it is)`` of a matrix that should be
    symmetric."""

    key: tuple
    name: str
    i: int
    yours: object
    expected: object
    kind: str = "other"
    symmetric: tuple | None = None
    said: str = ""


def _array(step, where):
    expected = np.asarray(step.expected)
    try:
        a = np.asarray(step.yours, dtype=expected.dtype)
    except (TypeError, ValueError):
        raise WrongAnswer(f"{where}: {step.name} should be a numeric array, got "
                          f"{type(step.yours).__name__}") from None
    if a.shape != expected.shape:
        raise WrongAnswer(f"{where}: {step.name} should have shape "
                          f"{expected.shape}, got {a.shape}")
    return a, expected


def _error(a, b):
    """The largest difference, and the scale ``max(1, |b|)`` it is judged by."""
    b = np.asarray(b)
    return (float(np.max(np.abs(a - b), initial=0.0)),
            max(1.0, float(np.max(np.abs(b), initial=0.0))))


def _compare(where, model, steps, job, slipped):
    """Raise :class:`WrongAnswer` at the first of ``steps`` that differs from
    liedyn's, naming the slips of ``SLIPS[job]`` that reproduce it (``slipped(key)``
    runs the job's pass with one slip)."""
    for step in steps:
        a, expected = _array(step, where)
        err, scale = _error(a, expected)
        if err <= TOL * scale:
            continue
        notes = _slips(model, step, a, steps, job, slipped) + _asymmetry(step)
        raise WrongAnswer(
            f"{where}: {_body(model, step.i)}: {step.name}{step.said} differs from "
            f"liedyn's by {err:.3g}; everything computed before it agrees."
            + "".join(f"\n  {note}" for note in notes)
            + _side_by_side(a, expected, step.kind))


def _slips(model, step, a, steps, job, slipped):
    """The sentences of the slips whose pass gives the reader's value of ``step``;
    of several, those that give all the reader's values, if any does."""
    found, liedyns = [], _error(a, step.expected)[0]   # what a slip must explain
    for key, sentence in SLIPS[job]:
        try:
            values = slipped(key)
        except np.linalg.LinAlgError:                 # a slip with a singular Psi
            continue
        err, scale = _error(a, values[step.key])
        if err <= SLIP_TOL * scale and err <= 1e-3 * liedyns:
            found.append((key, sentence, values))
    if len(found) > 1:
        found = [s for s in found if _reproduces(steps, s[2])] or found
    p = model.parent[step.i]
    return [s[1].format(q=step.name, i=step.i, i_1=step.i - 1, p=p) for s in found]


def _reproduces(steps, values):
    """True if the pass's ``values`` give every one of the reader's ``steps``."""
    for step in steps:
        try:
            a = np.asarray(step.yours, dtype=np.asarray(step.expected).dtype)
            err, scale = _error(a, values[step.key])
        except (TypeError, ValueError):
            return False
        if not err <= SLIP_TOL * scale:
            return False
    return True


def _asymmetry(step):
    """The note that the reader's matrix ``step.symmetric`` is not symmetric."""
    if step.symmetric is None:
        return []
    name, X, what = step.symmetric
    X = np.real_if_close(np.asarray(X))
    gap = np.abs(X - X.T)
    r, c = np.unravel_index(np.argmax(gap), gap.shape)
    if gap[r, c] <= TOL * max(1.0, float(np.max(np.abs(X)))):
        return []
    return [f"Your {name} is not symmetric: {name} - {name}^T is {gap[r, c]:.3g} "
            f"at row {r}, column {c}, and {what} is symmetric."]


HALVES = {"twist": ("w", "v"), "wrench": ("m", "f")}
"""How 6-vectors are printed: a twist as ``(w | v)``, a wrench as ``(m | f)``."""


def _side_by_side(a, expected, kind):
    if kind in HALVES and a.shape == (6,):
        return (f"\n  yours:    {_halves(a, kind)}"
                f"\n  liedyn's: {_halves(expected, kind)}")
    return f"\n  yours:\n{_show(a)}\n  liedyn's:\n{_show(expected)}"


def _halves(x, kind):
    x = np.real_if_close(x)
    small = 1e-12 * max(1.0, float(np.max(np.abs(x))))
    text = ["0" if abs(t) < small else f"{t:.4g}" for t in x]
    top, bottom = HALVES[kind]
    return (f"({top} | {bottom}) = ({', '.join(text[:3])} | "
            f"{', '.join(text[3:])})")


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


def _passes(run):
    """``run(slip)``, each slip once."""
    cache = {}

    def slipped(slip):
        if slip not in cache:
            cache[slip] = run(slip)
        return cache[slip]
    return slipped


# --- the exercises ---
def check_forward_kinematics(student):
    """Check ``student(model, q) -> T``: the N+1 poses ``T_{0,i}`` (4x4, entry 0
    the identity), ``T_{0,i} = T_{0,lambda(i)} X_i Phi_i(q_i)`` (Kim (2012), Section
    2.1)."""
    job = "forward kinematics"

    def one(student, model, rng, where):
        q = model.random_configuration(rng)
        T = _per_body(_run(student, job, model, q), model, "T")
        ref = forward_kinematics(model, q).T_world
        _compare(where, model, [_Step(("T", i), f"T_0{i}", i, T[i], ref[i])
                                for i in range(model.nbodies + 1)],
                 job, _passes(lambda slip: _fk_with(model, q, slip)))
    return _try_all(student, job, one)


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
            _Step(("V", i), f"V_{i}", i, V[i], ref.forward.V[i], "twist"),
            _Step(("dV", i), f"dV_{i}", i, dV[i], ref.forward.dV[i], "twist"))]
        steps += [s for i in range(N, 0, -1) for s in (
            _Step(("F", i), f"F_{i}", i, F[i], ref.F[i], "wrench"),
            _Step(("tau", i), f"tau_{i}", i, np.asarray(tau)[vs[i]],
                  ref.tau[vs[i]]))]
        _compare(where, model, steps, "rnea",
                 _passes(lambda slip: _rnea_with(model, q, dq, ddq, slip)))
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
        _compare(where, model,
                 [_Step(("Ic", i), f"Ic_{i}", i, Ic[i], ref_Ic[i],
                        symmetric=(f"Ic_{i}", Ic[i], "a composite inertia"))
                  for i in range(N, 0, -1)]
                 + [_Step(("M", i), f"M_(:,{i})", i, M[:, vs[i]], ref_M[:, vs[i]],
                          symmetric=("M", M, "the mass matrix"),
                          said=f", the columns of joint {i},")
                    for i in range(1, N + 1)],
                 "crba", _passes(lambda slip: _crba_with(model, q, slip)))
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
            _Step(("I_hat", i), f"I_hat_{i}", i, I_hat[i], ref.I_hat[i],
                  symmetric=(f"I_hat_{i}", I_hat[i], "an articulated inertia")),
            _Step(("B_hat", i), f"B_hat_{i}", i, B_hat[i], ref.B_hat[i], "wrench"))]
        steps += [_Step(("ddq", i), f"ddq_{i}", i, np.asarray(ddq)[vs[i]],
                        ref.ddq[vs[i]]) for i in range(1, N + 1)]
        _compare(where, model, steps, "aba",
                 _passes(lambda slip: _aba_with(model, q, dq, tau, slip)))
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
        complex_calls, watch = [], _Watch("complex step")

        def given_rnea(model, q, dq, ddq):
            complex_calls.append(np.iscomplexobj(q))
            with watch.pause():
                return rnea(model, q, dq, ddq)
        D = _run(student, "complex step", given_rnea, model, q, dq, ddq,
                 watch=watch)
        if not any(complex_calls):
            raise WrongAnswer(f"{where}: your function never passed a complex q to "
                              "rnea: complex step evaluates rnea(q + i h e_k)")
        ref = rnea_partials(model, q, dq, ddq)[0]
        D, vs = np.asarray(D), model.v_slice
        if D.shape != ref.shape:
            raise WrongAnswer(f"{where}: dtau/dq should have shape {ref.shape}, "
                              f"got {D.shape}")
        _compare(where, model, [_Step(("dtau/dq", i), f"dtau/dq_{i}", i,
                                      D[:, vs[i]], ref[:, vs[i]])
                                for i in range(1, model.nbodies + 1)],
                 "complex step",
                 _passes(lambda slip: _complex_step_with(model, q, dq, ddq, slip)))
    return _try_all(student, "complex-step derivative", one, VECTOR_JOINTS)
