"""The "Implement ..." checkers accept a right implementation, name the body and the
quantity where a planted bug first shows, name the typical slip behind it, and refuse
an implementation that runs liedyn's own algorithm, however it reaches it.

The right implementations here are written from Kim (2012), Tables 2 and 3, with the
model's joints and liedyn.lie's operators only; each takes ``slip=`` and then makes
that one typical mistake, written the way a reader would write it (independently of
the checker's own passes with slips).
"""
import functools
import importlib
import re
import sys
import types

import numpy as np
import pytest

import liedyn
from liedyn import lie
from liedyn.crba import mass_matrix
from liedyn.derivatives import rnea_partials
from liedyn.forward_dynamics import aba, aba_pass
from liedyn.inverse_dynamics import rnea, rnea_pass
from liedyn.kinematics import forward_kinematics
from liedyn.teach import implement
from liedyn.teach.exercises import WrongAnswer


def joint_terms(model, q, dq, i):
    """``T_{lambda(i),i}``, ``S_i``, ``dS_i`` and ``dq_i`` of body ``i``."""
    j, qi, dqi = model.joints[i], q[model.q_slice[i]], dq[model.v_slice[i]]
    return model.placements[i] @ j.transform(qi), j.S(qi), j.dS(qi, dqi), dqi


def ground(model, slip=None):
    """``dV_0 = (0, -g)``, or one of the gravity slips."""
    g, z = np.asarray(model.gravity), np.zeros(3)
    return {"no gravity": np.zeros(6), "gravity sign": np.concatenate([z, g]),
            "gravity in w": np.concatenate([-g, z])}.get(slip, np.concatenate([z, -g]))


def my_fk(model, q, slip=None):
    T0 = [np.eye(4)] + [None] * model.nbodies
    for i in range(1, model.nbodies + 1):
        X, Phi = model.placements[i], model.joints[i].transform(q[model.q_slice[i]])
        T = X @ Phi
        if slip == "Phi X":
            T = Phi @ X
        elif slip == "no X":
            T = Phi
        elif slip == "no Phi":
            T = X
        elif slip == "inverse":
            T = lie.inverse(X @ Phi)
        parent = T0[i - 1 if slip == "parent i-1" else model.parent[i]]
        T0[i] = parent @ T
        if slip == "parent right":
            T0[i] = T @ parent
        elif slip == "no parent":
            T0[i] = T
    return T0


def my_rnea(model, q, dq, ddq, slip=None, bug_body=None):
    N = model.nbodies
    T, S, V, dV, F = ([None] * (N + 1) for _ in range(5))
    V[0], dV[0] = np.zeros(6), ground(model, slip)
    for i in range(1, N + 1):
        T[i], S[i], dS, dqi = joint_terms(model, q, dq, i)
        if slip == "Phi X":
            j = model.joints[i]
            T[i] = j.transform(q[model.q_slice[i]]) @ model.placements[i]
        A, p = lie.Ad_inv(T[i]), model.parent[i]
        if slip == "parent i-1":
            p = i - 1
        A_V = {"Ad for Ad_inv": lie.Ad(T[i]), "A^T for A": A.T}.get(slip, A)
        A_dV = {"Ad for Ad_inv in dV": lie.Ad(T[i]), "A^T for A in dV": A.T}.get(slip, A)
        V[i] = A_V @ V[p] + S[i] @ dqi                                    # (37)
        coriolis = lie.ad(V[i]) @ S[i] @ dqi
        if slip == "ad term sign" or i == bug_body:
            coriolis = lie.ad(S[i] @ dqi) @ V[i]
        elif slip == "no ad term":
            coriolis = 0.0
        dS_dq = 0.0 if slip == "no dS term" else dS @ dqi
        S_ddq = 0.0 if slip == "no S ddq" else S[i] @ ddq[model.v_slice[i]]
        dV[i] = A_dV @ dV[p] + coriolis + dS_dq + S_ddq                   # (41)
    tau = np.zeros(model.nv)
    for i in range(N, 0, -1):
        I = model.inertias[i]
        F[i] = I @ dV[i] - lie.ad_star(V[i]) @ I @ V[i]                  # (42)
        if slip == "ad for ad*":
            F[i] = I @ dV[i] - lie.ad(V[i]) @ I @ V[i]
        elif slip == "ad* sign":
            F[i] = I @ dV[i] + lie.ad_star(V[i]) @ I @ V[i]
        for k in [] if slip == "no children" else model.children[i]:
            A_k = lie.Ad_inv(T[k])
            move = {"A for A^T": A_k, "Ad* of T": lie.Ad_star(T[k]),
                    "Ad of T": lie.Ad(T[k])}.get(slip, A_k.T)
            F[i] = F[i] + move @ F[k]
        tau[model.v_slice[i]] = S[i].T @ F[i]
    return V, dV, F, tau


def my_crba(model, q, slip=None):
    N, zero = model.nbodies, np.zeros(model.nv)
    T, A, S = [None] * (N + 1), [None] * (N + 1), [None] * (N + 1)
    for i in range(1, N + 1):
        T[i], S[i], _, _ = joint_terms(model, q, zero, i)
        A[i] = lie.Ad_inv(T[i])
    Ic = [None] * (N + 1)
    for i in range(N, 0, -1):
        Ic[i] = np.array(model.inertias[i])
        for k in [] if slip == "no children" else model.children[i]:
            C = model.inertias[k] if slip == "own I_k" else Ic[k]
            Ic[i] = Ic[i] + {"untransformed": C, "A X A": A[k] @ C @ A[k],
                             "A X A^T": A[k] @ C @ A[k].T,
                             "Ad_T": lie.Ad_star(T[k]) @ C @ lie.Ad(T[k])}.get(
                                 slip, A[k].T @ C @ A[k])
    M = np.zeros((model.nv, model.nv))
    for i in range(1, N + 1):
        vi, j = model.v_slice[i], i
        F = (model.inertias[i] if slip == "I for Ic" else Ic[i]) @ S[i]
        M[vi, vi] = S[i].T @ F
        while model.parent[j] > 0:
            if slip == "walk order":
                j = model.parent[j]
                F = A[j].T @ F
            else:
                move = {"A for A^T in the walk": A[j],
                        "Ad* of T in the walk": lie.Ad_star(T[j])}.get(slip, A[j].T)
                F, j = move @ F, model.parent[j]
            M[model.v_slice[j], vi] = S[j].T @ F
            if slip != "one triangle":
                M[vi, model.v_slice[j]] = (S[j].T @ F).T
    return Ic, M


def my_aba(model, q, dq, tau, slip=None, bug_body=None):
    N = model.nbodies
    T, A, S, V, eta, Psi = ([None] * (N + 1) for _ in range(6))
    I_hat, B_hat, Pi, beta = ([None] * (N + 1) for _ in range(4))
    V[0] = np.zeros(6)
    for i in range(1, N + 1):
        T[i], S[i], dS, dqi = joint_terms(model, q, dq, i)
        A[i] = lie.Ad_inv(T[i])
        V[i] = A[i] @ V[model.parent[i]] + S[i] @ dqi
        coriolis = {"no ad term": 0.0,
                    "ad term sign": lie.ad(S[i] @ dqi) @ V[i]}.get(
                        slip, lie.ad(V[i]) @ S[i] @ dqi)
        eta[i] = coriolis + (0.0 if slip == "no dS term" else dS @ dqi)
    for i in range(N, 0, -1):
        I, kids = model.inertias[i], [] if slip == "no children" else model.children[i]
        I_hat[i] = np.array(I)
        for k in kids:
            I_hat[i] = I_hat[i] + {
                "A X A^T": A[k] @ Pi[k] @ A[k].T, "A X A": A[k] @ Pi[k] @ A[k],
                "Ad_T": lie.Ad_star(T[k]) @ Pi[k] @ lie.Ad(T[k])}.get(
                    slip, A[k].T @ Pi[k] @ A[k])
        J = I_hat[i] if slip == "I_hat in bias" else I
        B_hat[i] = {"ad for ad*": -lie.ad(V[i]) @ J @ V[i],
                    "ad* sign": lie.ad_star(V[i]) @ J @ V[i]}.get(
                        slip, -lie.ad_star(V[i]) @ J @ V[i])
        for k in kids:
            move = {"A for A^T": A[k], "Ad* of T": lie.Ad_star(T[k])}.get(slip, A[k].T)
            B_hat[i] = B_hat[i] + move @ beta[k]
        Ih, Si, ti = I_hat[i], S[i], tau[model.v_slice[i]]
        D = Si.T @ Ih @ Si
        Psi[i] = D if slip == "Psi not inverted" else np.linalg.inv(D)
        Pi[i] = {"I_hat for Pi": Ih, "Pi sign": Ih + Ih @ Si @ Psi[i] @ Si.T @ Ih,
                 "Pi last I_hat": Ih - Ih @ Si @ Psi[i] @ Si.T}.get(
                     slip, Ih - Ih @ Si @ Psi[i] @ Si.T @ Ih)
        if i == bug_body:
            Pi[i] = Ih
        eta_u = np.zeros(6) if slip in ("no eta in u", "no eta in beta, u") else eta[i]
        eta_beta = (np.zeros(6) if slip in ("no eta in beta", "no eta in beta, u")
                    else eta[i])
        u = (0.0 if slip == "no tau in u" else ti) - Si.T @ (Ih @ eta_u + B_hat[i])
        beta[i] = B_hat[i] + Ih @ (eta_beta + Si @ Psi[i] @ u)
        if slip == "B_hat for beta":
            beta[i] = B_hat[i]
    dV = [ground(model, slip)] + [None] * N
    ddq = np.zeros(model.nv)
    for i in range(1, N + 1):
        move = {"Ad for Ad_inv in a": lie.Ad(T[i]), "A^T for A in a": A[i].T}.get(slip,
                                                                                  A[i])
        a = move @ dV[model.parent[i]] + (0.0 if slip == "no eta in a" else eta[i])
        vi = model.v_slice[i]
        J = model.inertias[i] if slip == "I for I_hat in ddq" else I_hat[i]
        b = 0.0 if slip == "no B_hat in ddq" else B_hat[i]
        ddq[vi] = Psi[i] @ (tau[vi] - S[i].T @ (J @ a + b))
        dV[i] = a + S[i] @ ddq[vi]
        if slip == "no eta in dV":
            dV[i] = dV[i] - eta[i]
        elif slip == "no S ddq in dV":
            dV[i] = a
    return I_hat, B_hat, ddq


def my_complex_step(rnea, model, q, dq, ddq, h=1e-20, slip=None):
    D = np.zeros((model.nv, model.nv))
    e = np.zeros(model.nq)
    for k in range(model.nq):
        if slip != "e not reset":
            e = np.zeros(model.nq)
        e[k] = h
        column = rnea(model, q + (-1j if slip == "sign" else 1j) * e, dq, ddq).imag / h
        if slip == "transposed":
            D[k, :] = column
        else:
            D[:, k] = column
    return D


def finite_difference(rnea, model, q, dq, ddq, h=1e-6):
    tau = rnea(model, q, dq, ddq)
    return np.stack([(rnea(model, q + h * e, dq, ddq) - tau) / h
                     for e in np.eye(model.nq)], axis=-1)


RIGHT = [(implement.check_forward_kinematics, my_fk), (implement.check_rnea, my_rnea),
         (implement.check_crba, my_crba), (implement.check_aba, my_aba),
         (implement.check_complex_step, my_complex_step)]


@pytest.mark.parametrize("check, student", RIGHT, ids=lambda x: x.__name__)
def test_a_right_implementation_passes(check, student, capsys):
    assert check(student) is True
    assert "agrees with liedyn on" in capsys.readouterr().out


def test_the_right_implementations_are_independent_of_the_checker():
    """The implementations above agree with liedyn's public functions (not only with
    the reference passes the checkers read)."""
    model = implement.unseen_models()[1][1]
    rng = np.random.default_rng(3)
    q, dq, x = model.random_configuration(rng), rng.normal(size=model.nv), \
        rng.normal(size=model.nv)
    np.testing.assert_allclose(my_fk(model, q), forward_kinematics(model, q).T_world,
                               atol=1e-12)
    np.testing.assert_allclose(my_rnea(model, q, dq, x)[3], rnea(model, q, dq, x),
                               atol=1e-10)
    np.testing.assert_allclose(my_crba(model, q)[1], mass_matrix(model, q), atol=1e-10)
    np.testing.assert_allclose(my_aba(model, q, dq, x)[2], aba(model, q, dq, x),
                               atol=1e-8)
    np.testing.assert_allclose(my_complex_step(rnea, model, q, dq, x),
                               rnea_partials(model, q, dq, x)[0], atol=1e-9)


@pytest.mark.parametrize("description, model", implement.unseen_models(),
                         ids=lambda x: x if isinstance(x, str) else "")
def test_the_checkers_passes_without_a_slip_are_liedyns(description, model):
    """The passes with which a checker recognises a slip are liedyn's algorithms when
    no term is changed."""
    rng = np.random.default_rng(5)
    q, dq, x = model.random_configuration(rng), rng.normal(size=model.nv), \
        rng.normal(size=model.nv)
    N, vs = model.nbodies, model.v_slice
    fk, ref_T = implement._fk_with(model, q), forward_kinematics(model, q).T_world
    out, ref = implement._rnea_with(model, q, dq, x), rnea_pass(model, q, dq, x)
    crba, M = implement._crba_with(model, q), mass_matrix(model, q)
    ab, ref_ab = implement._aba_with(model, q, dq, x), aba_pass(model, q, dq, x)
    for i in range(1, N + 1):
        np.testing.assert_allclose(fk["T", i], ref_T[i], atol=1e-12)
        for name, value in (("V", ref.forward.V[i]), ("dV", ref.forward.dV[i]),
                            ("F", ref.F[i]), ("tau", ref.tau[vs[i]])):
            np.testing.assert_allclose(out[name, i], value, atol=1e-9)
        np.testing.assert_allclose(crba["M", i], M[:, vs[i]], atol=1e-9)
        for name, value in (("I_hat", ref_ab.I_hat[i]), ("B_hat", ref_ab.B_hat[i]),
                            ("ddq", ref_ab.ddq[vs[i]])):
            np.testing.assert_allclose(ab[name, i], value, atol=1e-8)


def slip_passes(model, rng):
    """Per job, the checker's pass with a slip at a random state of ``model``."""
    q, dq, x = model.random_configuration(rng), rng.normal(size=model.nv), \
        rng.normal(size=model.nv)
    return {"forward kinematics": lambda slip: implement._fk_with(model, q, slip),
            "rnea": lambda slip: implement._rnea_with(model, q, dq, x, slip),
            "crba": lambda slip: implement._crba_with(model, q, slip),
            "aba": lambda slip: implement._aba_with(model, q, dq, x, slip),
            "complex step": lambda slip: implement._complex_step_with(model, q, dq, x,
                                                                      slip)}


def test_every_slip_changes_something_on_the_unseen_models():
    """Each slip's pass runs, and changes some quantity on some model the checkers
    try (a slip that changes nothing could never be named)."""
    rng, changed = np.random.default_rng(9), set()
    for kinds in (None, implement.VECTOR_JOINTS):
        for _, model in implement.unseen_models(kinds):
            passes = slip_passes(model, rng)
            for job, slips in implement.SLIPS.items():
                if job == "complex step" and kinds is None:
                    continue
                right = passes[job](None)
                for key, _ in slips:
                    out = passes[job](key)
                    assert out.keys() == right.keys()
                    assert all(np.all(np.isfinite(v)) for v in out.values())
                    if any(not np.allclose(out[k], right[k], atol=1e-6) for k in out):
                        changed.add((job, key))
    assert changed == {(job, key) for job, slips in implement.SLIPS.items()
                       for key, _ in slips}


def planted(student, **bug):
    return lambda *args: student(*args, **bug)


SLIPS = {   # per checker: the slips of the implementations above, the words naming it
    "forward kinematics": (implement.check_forward_kinematics, my_fk, "T_0", {
        "Phi X": r"is T_0\d+ Phi_\d+ X_\d+: the placement comes first",
        "parent right": r"is X_\d+ Phi_\d+ T_0\d+: the parent's pose multiplies from",
        "no X": r"leaves out the placement X_\d+ = model.placements",
        "no Phi": r"leaves out the joint's motion Phi_\d+\(q_\d+\)",
        "inverse": r"\(X_\d+ Phi_\d+\)\^-1: .* not its inverse",
        "no parent": r"alone, the pose in the parent's frame",
        "parent i-1": r"pose of body \d+ = \d+ - 1: the parent of body \d+ is "
                      r"model.parent\[\d+\] = \d+ \(a tree",
    }),
    "rnea": (implement.check_rnea, my_rnea, "d?V_|F_|tau_", {
        "parent i-1": r"takes the twist and acceleration of body \d+ = \d+ - 1 for",
        "Phi X": r"T_\(\d+,\d+\) = Phi_\d+ X_\d+ gives: the placement comes first",
        "Ad for Ad_inv": r"moves the parent's twist with Ad_T where A_\d+ = Ad_\(T\^-1\)",
        "A^T for A": r"moves the parent's twist with A_\d+\^T where",
        "Ad for Ad_inv in dV": r"acceleration with Ad_T where A_\d+ = Ad_\(T\^-1\)",
        "A^T for A in dV": r"acceleration with A_\d+\^T where A_\d+ = Ad_",
        "no gravity": r"what a ground at rest gives: .* your dV_0 is 0",
        "gravity sign": r"dV_0 = \(w \| v\) = \(0 \| \+g\)",
        "gravity in w": r"dV_0 = \(w \| v\) = \(-g \| 0\) gives",
        "no ad term": r"leaves out the term ad_\(V_\d+\) S_\d+ dq_\d+ of Kim's eq. \(41\)",
        "ad term sign": r"ad_\(V_\d+\) S_\d+ dq_\d+ of Kim's eq. \(41\) with the wrong "
                        "sign",
        "no dS term": r"leaves out the term dS_\d+ dq_\d+",
        "no S ddq": r"leaves out the term S_\d+ ddq_\d+",
        "ad for ad*": r"has ad_\(V_\d+\) where ad\*_\(V_\d+\) = ad_\(V_\d+\)\^T belongs",
        "ad* sign": r"-ad\*_\(V_\d+\) I_\d+ V_\d+ of Kim's eq. \(42\) with the wrong sign",
        "A for A^T": r"wrenches with A_k = Ad_\(T_\(\d+,k\)\^-1\) where its transpose",
        "Ad* of T": r"wrenches with Ad\*_\(T_\(\d+,k\)\) .* the inverse is missing",
        "Ad of T": r"wrenches with Ad_\(T_\(\d+,k\)\), the rule for twists",
        "no children": r"leaves out the children's wrenches",
    }),
    "crba": (implement.check_crba, my_crba, r"Ic_|M_\(:,", {
        "A X A": r"adds A_k Ic_k A_k where A_k\^T Ic_k A_k belongs",
        "A X A^T": r"adds A_k Ic_k A_k\^T: the transpose belongs on the left",
        "Ad_T": r"adds Ad_\(T_k\)\^T Ic_k Ad_\(T_k\): the inverse is missing",
        "untransformed": r"adds the children's Ic_k as they are",
        "own I_k": r"adds the children's own inertias I_k",
        "no children": r"is the body's own inertia I_\d+",
        "A for A^T in the walk": r"moves F towards the root with A_j where A_j\^T",
        "Ad* of T in the walk": r"moves F towards the root with Ad_\(T_j\)\^T",
        "walk order": r"moves F with the parent's A_\(lambda\(j\)\)\^T",
        "I for Ic": r"starts the walk from the body's own I_\d+",
        "one triangle": r"is missing the blocks of joint \d+'s descendants",
    }),
    "aba": (implement.check_aba, my_aba, "I_hat_|B_hat_|ddq_", {
        "A X A^T": r"adds A_k Pi_k A_k\^T: the transpose belongs on the left",
        "A X A": r"adds A_k Pi_k A_k where A_k\^T Pi_k A_k belongs",
        "Ad_T": r"adds Ad_\(T_k\)\^T Pi_k Ad_\(T_k\): the inverse is missing",
        "I_hat for Pi": r"adds the children's A_k\^T I_hat_k A_k where",
        "Pi sign": r"Pi_k = I_hat_k \+ I_hat_k S_k Psi_k S_k\^T I_hat_k gives",
        "Pi last I_hat": r"the last factor I_hat_k is missing",
        "Psi not inverted": r"uses S\^T I_hat S where its inverse Psi",
        "no children": r"leaves out the children's terms",
        "ad for ad*": r"has ad_\(V_\d+\) where ad\*_\(V_\d+\) = ad_\(V_\d+\)\^T belongs, "
                      r"in the bias",
        "ad* sign": r"has the bias -ad\*_\(V_\d+\) I_\d+ V_\d+ with the wrong sign",
        "I_hat in bias": r"has I_hat_\d+ where the body's own I_\d+ belongs, in the bias",
        "A for A^T": r"moves the children's beta_k with A_k = .* where its transpose",
        "Ad* of T": r"moves the children's beta_k with Ad\*_\(T_\(\d+,k\)\) .* missing",
        "no eta in beta": r"leaves eta_k out of beta_k",
        "no eta in u": r"leaves eta_k out of u_k",
        "no eta in beta, u": r"leaves eta_k out of both beta_k",
        "B_hat for beta": r"passes on the children's B_hat_k where beta_k",
        "no tau in u": r"leaves tau_k out of u_k",
        "no ad term": r"leaves the term ad_V S dq out of eta",
        "ad term sign": r"has the term ad_V S dq of eta .* with the wrong sign",
        "no dS term": r"leaves the term dS dq out of eta",
        "no B_hat in ddq": r"leaves B_hat_\d+ out of ddq_\d+",
        "no gravity": r"what a ground at rest gives: .* your dV_0 is 0",
        "gravity sign": r"dV_0 = \(w \| v\) = \(0 \| \+g\)",
        "gravity in w": r"dV_0 = \(w \| v\) = \(-g \| 0\) gives",
        "no eta in a": r"leaves eta_\d+ out of A_\d+ dV_\d+ \+ eta_\d+ in ddq_\d+",
        "no eta in dV": r"what a parent's dV = A dV_p \+ S ddq without its eta gives",
        "no S ddq in dV": r"what a parent's dV = A dV_p \+ eta without its S ddq gives",
        "I for I_hat in ddq": r"has the body's own I_\d+ where I_hat_\d+ belongs",
        "Ad for Ad_inv in a": r"acceleration with Ad_T where A_\d+ = Ad_\(T\^-1\)",
        "A^T for A in a": r"acceleration with A_\d+\^T where A_\d+ = Ad_",
    }),
    "complex step": (implement.check_complex_step, my_complex_step, "dtau/dq_", {
        "transposed": r"is the row of joint \d+ of dtau/dq",
        "e not reset": r"is the sum of the columns up to joint \d+",
        "sign": r"has the wrong sign: Im rnea\(q \+ i h e_k\) / h",
    }),
}
PLANTED = [(job, slip) for job, (_, _, _, slips) in SLIPS.items() for slip in slips]


def test_every_slip_a_checker_names_is_planted_here():
    assert {(job, key) for job, slips in implement.SLIPS.items()
            for key, _ in slips} == set(PLANTED)


@pytest.mark.parametrize("job, slip", PLANTED, ids=lambda x: x)
def test_a_planted_slip_is_named_with_its_body_and_numbers(job, slip):
    check, student, quantities, words = SLIPS[job]
    with pytest.raises(WrongAnswer) as info:
        check(planted(student, slip=slip))
    message = str(info.value)
    head = re.match(rf"on .*: body (\d+) \(a \w+ joint, parent -?\d+\): "
                    rf"(({quantities})\d+\)?)(, the columns of joint \d+,)? differs "
                    r"from liedyn's by [\d.e+-]+; "
                    "everything computed before it agrees.", message)
    assert head, message
    named = [line for line in message.splitlines()
             if line.startswith("  Your ") and "is not symmetric" not in line]
    assert len(named) == 1, message                  # the slip, and only it
    assert re.search(words[slip], named[0]), message
    assert named[0].startswith(f"  Your {head.group(2)} "), message   # its body
    assert re.search(r"\n  yours:\s+(\(\w \| \w\) = \()?\[*\s*-?\d", message), message
    assert re.search(r"\n  liedyn's:\s+(\(\w \| \w\) = \()?\[*\s*-?\d", message), message


@pytest.mark.parametrize("job, slip, kind", [
    ("rnea", "no gravity", "w | v"), ("rnea", "ad for ad*", "m | f"),
    ("aba", "ad for ad*", "m | f"),
])
def test_six_vectors_are_printed_with_their_halves(job, slip, kind):
    check, student, _, _ = SLIPS[job]
    with pytest.raises(WrongAnswer) as info:
        check(planted(student, slip=slip))
    lines = str(info.value).splitlines()
    number = r"-?[\d.]+(e[-+]\d+)?"
    three = rf"{number}, {number}, {number}"
    halves = rf"\({re.escape(kind)}\) = \({three} \| {three}\)"
    assert re.fullmatch(rf"  yours:    {halves}", lines[-2]), lines
    assert re.fullmatch(rf"  liedyn's: {halves}", lines[-1]), lines


@pytest.mark.parametrize("job, slip, name", [
    ("aba", "A X A", r"I_hat_\d+"), ("aba", "Pi last I_hat", r"I_hat_\d+"),
    ("crba", "A X A", r"Ic_\d+"), ("crba", "one triangle", "M"),
])
def test_a_non_symmetric_inertia_is_called_so(job, slip, name):
    check, student, _, _ = SLIPS[job]
    with pytest.raises(WrongAnswer) as info:
        check(planted(student, slip=slip))
    match = re.search(rf"Your ({name}) is not symmetric: ({name}) - ({name})\^T is "
                      r"([\d.e+-]+) at row \d, column \d+, and", str(info.value))
    assert match and len({match.group(1), match.group(2), match.group(3)}) == 1
    assert float(match.group(4)) > 1e-6


def test_a_symmetric_wrong_inertia_is_not_called_non_symmetric():
    with pytest.raises(WrongAnswer, match="I_hat_") as info:
        implement.check_aba(planted(my_aba, slip="A X A^T"))
    assert "not symmetric" not in str(info.value)


@pytest.mark.parametrize("check, student, where", [
    (implement.check_forward_kinematics, planted(my_fk, slip="Phi X"), r"body \d+ .*T_0\d"),
    (implement.check_rnea, planted(my_rnea, bug_body=3), r"body 3 .*: dV_3 differs"),
    (implement.check_crba, planted(my_crba, slip="untransformed"),
     r"body \d+ .*: Ic_\d+ differs"),
    (implement.check_aba, planted(my_aba, bug_body=4), r"body \d+ .*: I_hat_\d+ differs"),
    (implement.check_complex_step, planted(my_complex_step, h=1e-3),
     r"body 1 .*dtau/dq_1 differs"),
])
def test_a_planted_bug_is_found_at_its_body_and_quantity(check, student, where):
    with pytest.raises(WrongAnswer, match=where) as info:
        check(student)
    assert "everything computed before it agrees" in str(info.value)


def test_the_first_body_that_differs_is_the_one_with_the_bug():
    """dV_3 is wrong, and V_1..V_3, dV_1, dV_2 are reported as agreeing."""
    with pytest.raises(WrongAnswer, match=r"random tree of 4 bodies: body 3 .*dV_3"):
        implement.check_rnea(planted(my_rnea, bug_body=3))


def test_a_mistake_that_is_no_typical_slip_is_not_given_a_name():
    """A step far too large is no slip the checker knows: the body, the numbers, no
    sentence."""
    with pytest.raises(WrongAnswer) as info:
        implement.check_complex_step(planted(my_complex_step, h=1e-3))
    assert "\n  Your " not in str(info.value)
    assert "\n  yours:" in str(info.value)


def test_a_finite_difference_is_not_a_complex_step():
    with pytest.raises(WrongAnswer, match="never passed a complex q"):
        implement.check_complex_step(finite_difference)


# --- liedyn's own algorithm, however the reader reaches it ---
def fk_by_liedyn(model, q):
    return list(forward_kinematics(model, q).T_world)


def rnea_by_liedyn(model, q, dq, ddq):
    out = rnea_pass(model, q, dq, ddq)
    return out.forward.V, out.forward.dV, out.F, out.tau


def crba_by_liedyn(model, q):
    Ic, _ = my_crba(model, q)
    return Ic, mass_matrix(model, q)


def aba_by_liedyn(model, q, dq, tau):
    out = aba_pass(model, q, dq, tau)
    return out.I_hat, out.B_hat, out.ddq


def partials_by_liedyn(rnea, model, q, dq, ddq):
    rnea(model, q.astype(complex), dq, ddq)
    return rnea_partials(model, q, dq, ddq)[0]


# per checker: the module and function of liedyn's algorithm, and a reader's function
# made of any function with that signature
WAYS = {
    "forward kinematics": (implement.check_forward_kinematics, "liedyn.kinematics",
                           "forward_kinematics", fk_by_liedyn,
                           lambda f: lambda model, q: list(f(model, q).T_world)),
    "rnea": (implement.check_rnea, "liedyn.inverse_dynamics", "rnea_pass",
             rnea_by_liedyn, lambda f: lambda model, q, dq, ddq: (
                 lambda out: (out.forward.V, out.forward.dV, out.F, out.tau))(
                     f(model, q, dq, ddq))),
    "crba": (implement.check_crba, "liedyn.crba", "mass_matrix", crba_by_liedyn,
             lambda f: lambda model, q: (my_crba(model, q)[0], f(model, q))),
    "aba": (implement.check_aba, "liedyn.forward_dynamics", "aba_pass", aba_by_liedyn,
            lambda f: lambda model, q, dq, tau: (
                lambda out: (out.I_hat, out.B_hat, out.ddq))(f(model, q, dq, tau))),
    "complex step": (implement.check_complex_step, "liedyn.derivatives",
                     "rnea_partials", partials_by_liedyn,
                     lambda f: lambda rnea, model, q, dq, ddq: (
                         rnea(model, q.astype(complex), dq, ddq),
                         f(model, q, dq, ddq)[0])[1]),
}


def default_argument(f, make):
    def student(*args, _liedyn=f):
        return make(_liedyn)(*args)
    return student


def function_copy(f, make):
    copy = types.FunctionType(f.__code__, f.__globals__, "my_algorithm", f.__defaults__,
                              f.__closure__)
    copy.__kwdefaults__ = f.__kwdefaults__
    return make(copy)


def wrapped(f, make):
    @functools.wraps(f)
    def my_algorithm(*args, **kwargs):
        return f(*args, **kwargs)
    my_algorithm.__name__ = "my_algorithm"
    return make(my_algorithm)


def another_name(f, make):
    my_algorithm = f
    return make(my_algorithm)


@pytest.fixture
def reloaded():
    """``reloaded(module)``: the module run again by importlib.reload (new function
    objects); restored afterwards."""
    saved = {}

    def reload(name):
        module = importlib.import_module(name)
        saved[name] = dict(vars(module))
        return importlib.reload(module)
    yield reload
    for name, namespace in saved.items():
        vars(sys.modules[name]).clear()
        vars(sys.modules[name]).update(namespace)


@pytest.mark.parametrize("job", WAYS)
@pytest.mark.parametrize("way", ["imported", "default argument", "FunctionType copy",
                                 "functools.wraps", "another name", "reloaded module"])
def test_liedyns_own_algorithm_is_refused_however_it_is_reached(job, way, reloaded):
    check, module, name, imported, make = WAYS[job]
    f = getattr(importlib.import_module(module), name)
    if way == "reloaded module":
        f = getattr(reloaded(module), name)
        assert f is not getattr(implement, name, None)          # a new function
    student = {"imported": lambda: imported,
               "default argument": lambda: default_argument(f, make),
               "FunctionType copy": lambda: function_copy(f, make),
               "functools.wraps": lambda: wrapped(f, make),
               "another name": lambda: another_name(f, make),
               "reloaded module": lambda: default_argument(f, make)}[way]()
    with pytest.raises(WrongAnswer, match=rf"your function called {module}\.{name}: "
                                          "this exercise asks you to write"):
        check(student)


def rnea_by_public_rnea(model, q, dq, ddq):
    V, dV, F, _ = my_rnea(model, q, dq, ddq)
    return V, dV, F, liedyn.rnea(model, q, dq, ddq)


def crba_by_rnea(model, q):
    """The mass matrix by columns of rnea: right, but not the algorithm asked for."""
    Ic, _ = my_crba(model, q)
    z = np.zeros(model.nv)
    b = liedyn.rnea(model, q, z, z)
    return Ic, np.stack([liedyn.rnea(model, q, z, e) - b for e in np.eye(model.nv)],
                        axis=-1)


def aba_by_public_aba(model, q, dq, tau):
    I_hat, B_hat, _ = my_aba(model, q, dq, tau)
    return I_hat, B_hat, liedyn.aba(model, q, dq, tau)


def aba_by_hybrid(model, q, dq, tau):
    I_hat, B_hat, _ = my_aba(model, q, dq, tau)
    z = np.zeros(model.nv)
    return I_hat, B_hat, liedyn.hybrid(model, q, dq, z, tau, [False] * model.nbodies)[1]


def crba_by_inverse(model, q):
    Ic, _ = my_crba(model, q)
    return Ic, np.linalg.inv(liedyn.inverse_mass_matrix(model, q))


def fk_by_jacobian_helpers(model, q):
    liedyn.body_jacobian(model, q, 1)             # runs forward_kinematics inside
    return my_fk(model, q)


def partials_by_aba_partials(rnea, model, q, dq, ddq):
    rnea(model, q.astype(complex), dq, ddq)
    tau = rnea(model, q, dq, ddq)
    d_ddq, _, Minv = liedyn.aba_partials(model, q, dq, tau)
    return -np.linalg.solve(Minv, d_ddq)


@pytest.mark.parametrize("check, student, name", [
    (implement.check_forward_kinematics, fk_by_jacobian_helpers,
     "kinematics.forward_kinematics"),
    (implement.check_rnea, rnea_by_public_rnea, "inverse_dynamics.rnea"),
    (implement.check_crba, crba_by_rnea, "inverse_dynamics.rnea"),
    (implement.check_crba, crba_by_inverse, "forward_dynamics.inverse_mass_matrix"),
    (implement.check_aba, aba_by_public_aba, "forward_dynamics.aba"),
    (implement.check_aba, aba_by_hybrid, "hybrid_dynamics.hybrid"),
    (implement.check_complex_step, partials_by_aba_partials, "derivatives.aba_partials"),
])
def test_liedyns_public_functions_and_what_calls_them_are_refused(check, student, name):
    with pytest.raises(WrongAnswer, match=f"your function called liedyn.{name}:"):
        check(student)


def test_every_forbidden_function_is_its_own_code():
    """A forbidden function is recognised by its code object: none is a decorator's
    wrapper, whose code other functions would share."""
    for job, names in implement.FORBIDDEN.items():
        for name in names:
            module, attr = name.rsplit(".", 1)
            f = getattr(importlib.import_module("liedyn." + module), attr)
            assert f.__code__.co_name == attr, (job, name)


def test_a_reader_who_catches_the_refusal_is_still_refused():
    def careful(model, q, dq, ddq):
        try:
            return rnea_by_liedyn(model, q, dq, ddq)
        except Exception:
            return my_rnea(model, q, dq, ddq)
    with pytest.raises(WrongAnswer, match="called liedyn.inverse_dynamics.rnea_pass"):
        implement.check_rnea(careful)


def test_a_reader_who_switches_the_watch_off_is_refused():
    def quiet(model, q, dq, ddq):
        sys.setprofile(None)
        return rnea_by_liedyn(model, q, dq, ddq)
    with pytest.raises(WrongAnswer, match="changed sys.setprofile"):
        implement.check_rnea(quiet)


def test_a_lazy_result_runs_while_watched():
    def lazy(model, q, dq, ddq):
        return (x for x in rnea_by_liedyn(model, q, dq, ddq))
    with pytest.raises(WrongAnswer, match="called liedyn.inverse_dynamics.rnea_pass"):
        implement.check_rnea(lazy)


def test_liedyn_and_the_profiler_are_restored_after_a_refusal():
    before = sys.getprofile()
    with pytest.raises(WrongAnswer):
        implement.check_rnea(rnea_by_liedyn)
    assert sys.getprofile() is before
    model = implement.unseen_models()[0][1]
    q = model.neutral_configuration()
    z = np.zeros(model.nv)
    assert liedyn.rnea is rnea and np.all(np.isfinite(liedyn.rnea(model, q, z, z)))
    assert rnea_by_liedyn.__globals__["rnea_pass"] is rnea_pass


def test_a_wrong_return_is_explained():
    with pytest.raises(WrongAnswer, match=r"should return the tuple \(V, dV, F, tau\)"):
        implement.check_rnea(lambda model, q, dq, ddq: my_rnea(model, q, dq, ddq)[3])
    with pytest.raises(WrongAnswer, match=r"N\+1 = 5 entries"):
        implement.check_forward_kinematics(lambda model, q: my_fk(model, q)[1:])
