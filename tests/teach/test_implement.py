"""The "Implement ..." checkers accept a right implementation, name the body and the
quantity where a planted bug first shows, and refuse one that calls liedyn's own
algorithm.

The right implementations here are written from Kim (2012), Tables 2 and 3, with the
model's joints and liedyn.lie's operators only.
"""
import numpy as np
import pytest

from liedyn import lie
from liedyn.crba import mass_matrix
from liedyn.derivatives import rnea_partials
from liedyn.forward_dynamics import aba
from liedyn.inverse_dynamics import rnea, rnea_pass
from liedyn.kinematics import forward_kinematics
from liedyn.teach import implement
from liedyn.teach.exercises import WrongAnswer


def joint_terms(model, q, dq, i):
    """``T_{lambda(i),i}``, ``S_i``, ``dS_i`` and ``dq_i`` of body ``i``."""
    j, qi, dqi = model.joints[i], q[model.q_slice[i]], dq[model.v_slice[i]]
    return model.placements[i] @ j.transform(qi), j.S(qi), j.dS(qi, dqi), dqi


def my_fk(model, q, swap=False):
    T0 = [np.eye(4)] + [None] * model.nbodies
    for i in range(1, model.nbodies + 1):
        X, J = model.placements[i], model.joints[i].transform(q[model.q_slice[i]])
        T0[i] = T0[model.parent[i]] @ (J @ X if swap else X @ J)
    return T0


def my_rnea(model, q, dq, ddq, bug_body=None):
    N = model.nbodies
    T, S, V, dV, F = ([None] * (N + 1) for _ in range(5))
    V[0] = np.zeros(6)
    dV[0] = np.concatenate([np.zeros(3), -np.asarray(model.gravity)])
    for i in range(1, N + 1):
        T[i], S[i], dS, dqi = joint_terms(model, q, dq, i)
        A, p = lie.Ad_inv(T[i]), model.parent[i]
        V[i] = A @ V[p] + S[i] @ dqi                                       # (37)
        coriolis = lie.ad(V[i]) @ S[i] @ dqi
        if i == bug_body:
            coriolis = -coriolis
        dV[i] = A @ dV[p] + coriolis + dS @ dqi + S[i] @ ddq[model.v_slice[i]]  # (41)
    tau = np.zeros(model.nv)
    for i in range(N, 0, -1):
        I = model.inertias[i]
        F[i] = I @ dV[i] - lie.ad_star(V[i]) @ I @ V[i]                     # (42)
        for k in model.children[i]:
            F[i] = F[i] + lie.Ad_inv(T[k]).T @ F[k]
        tau[model.v_slice[i]] = S[i].T @ F[i]
    return V, dV, F, tau


def my_crba(model, q, bug=False):
    N, zero = model.nbodies, np.zeros(model.nv)
    T, S = [None] * (N + 1), [None] * (N + 1)
    for i in range(1, N + 1):
        T[i], S[i], _, _ = joint_terms(model, q, zero, i)
    Ic = [None] + [np.array(I) for I in model.inertias[1:]]
    for i in range(N, 0, -1):
        A = lie.Ad_inv(T[i])
        if model.parent[i] > 0:
            Ic[model.parent[i]] = Ic[model.parent[i]] + (Ic[i] if bug else A.T @ Ic[i] @ A)
    M = np.zeros((model.nv, model.nv))
    for i in range(1, N + 1):
        F, j = Ic[i] @ S[i], i
        M[model.v_slice[i], model.v_slice[i]] = S[i].T @ F
        while model.parent[j] > 0:
            F, j = lie.Ad_inv(T[j]).T @ F, model.parent[j]
            M[model.v_slice[j], model.v_slice[i]] = S[j].T @ F
            M[model.v_slice[i], model.v_slice[j]] = (S[j].T @ F).T
    return Ic, M


def my_aba(model, q, dq, tau, bug_body=None):
    N = model.nbodies
    T, S, V, eta, Psi, dV = ([None] * (N + 1) for _ in range(6))
    I_hat, B_hat = [None] * (N + 1), [None] * (N + 1)
    V[0] = np.zeros(6)
    for i in range(1, N + 1):
        T[i], S[i], dS, dqi = joint_terms(model, q, dq, i)
        V[i] = lie.Ad_inv(T[i]) @ V[model.parent[i]] + S[i] @ dqi
        eta[i] = lie.ad(V[i]) @ S[i] @ dqi + dS @ dqi
        I_hat[i] = np.array(model.inertias[i])
        B_hat[i] = -lie.ad_star(V[i]) @ model.inertias[i] @ V[i]
    for i in range(N, 0, -1):
        Ih, Si, ti = I_hat[i], S[i], tau[model.v_slice[i]]
        Psi[i] = np.linalg.inv(Si.T @ Ih @ Si)
        Pi = Ih - Ih @ Si @ Psi[i] @ Si.T @ Ih
        if i == bug_body:
            Pi = Ih
        beta = B_hat[i] + Ih @ (eta[i] + Si @ Psi[i] @ (ti - Si.T @ (Ih @ eta[i]
                                                                     + B_hat[i])))
        p, A = model.parent[i], lie.Ad_inv(T[i])
        if p > 0:
            I_hat[p] = I_hat[p] + A.T @ Pi @ A
            B_hat[p] = B_hat[p] + A.T @ beta
    dV[0] = np.concatenate([np.zeros(3), -np.asarray(model.gravity)])
    ddq = np.zeros(model.nv)
    for i in range(1, N + 1):
        a = lie.Ad_inv(T[i]) @ dV[model.parent[i]]
        vi = model.v_slice[i]
        ddq[vi] = Psi[i] @ (tau[vi] - S[i].T @ (I_hat[i] @ (a + eta[i]) + B_hat[i]))
        dV[i] = a + S[i] @ ddq[vi] + eta[i]
    return I_hat, B_hat, ddq


def my_complex_step(rnea, model, q, dq, ddq, h=1e-20):
    D = np.zeros((model.nv, model.nv))
    for k in range(model.nq):
        e = np.zeros(model.nq)
        e[k] = h
        D[:, k] = rnea(model, q + 1j * e, dq, ddq).imag / h
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


def planted(student, **bug):
    return lambda *args: student(*args, **bug)


@pytest.mark.parametrize("check, student, where", [
    (implement.check_forward_kinematics, planted(my_fk, swap=True), r"body \d+ .*T_0\d"),
    (implement.check_rnea, planted(my_rnea, bug_body=3), r"body 3 .*: dV_3 differs"),
    (implement.check_crba, planted(my_crba, bug=True), r"body \d+ .*: Ic_\d+ differs"),
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


def test_a_finite_difference_is_not_a_complex_step():
    with pytest.raises(WrongAnswer, match="never passed a complex q"):
        implement.check_complex_step(finite_difference)


def rnea_by_liedyn(model, q, dq, ddq):
    out = rnea_pass(model, q, dq, ddq)
    return out.forward.V, out.forward.dV, out.F, out.tau


def crba_by_rnea(model, q):
    """The mass matrix by columns of rnea: right, but not the algorithm asked for."""
    Ic, _ = my_crba(model, q)
    z = np.zeros(model.nv)
    b = rnea(model, q, z, z)
    return Ic, np.stack([rnea(model, q, z, e) - b for e in np.eye(model.nv)], axis=-1)


def aba_by_liedyn(model, q, dq, tau):
    import liedyn as ld
    I_hat, B_hat, _ = my_aba(model, q, dq, tau)
    return I_hat, B_hat, ld.aba(model, q, dq, tau)


def fk_by_liedyn(model, q):
    return list(forward_kinematics(model, q).T_world)


def partials_by_liedyn(rnea, model, q, dq, ddq):
    rnea(model, q.astype(complex), dq, ddq)
    return rnea_partials(model, q, dq, ddq)[0]


@pytest.mark.parametrize("check, student, name", [
    (implement.check_forward_kinematics, fk_by_liedyn, "forward_kinematics"),
    (implement.check_rnea, rnea_by_liedyn, "rnea_pass"),
    (implement.check_crba, crba_by_rnea, "inverse_dynamics.rnea"),
    (implement.check_aba, aba_by_liedyn, "forward_dynamics.aba"),
    (implement.check_complex_step, partials_by_liedyn, "rnea_partials"),
])
def test_calling_liedyns_own_algorithm_is_refused(check, student, name):
    with pytest.raises(WrongAnswer, match=f"called liedyn.*{name}"):
        check(student)


def test_liedyn_is_restored_after_a_refusal():
    with pytest.raises(WrongAnswer):
        implement.check_rnea(rnea_by_liedyn)
    import liedyn as ld
    model = implement.unseen_models()[0][1]
    q = model.neutral_configuration()
    z = np.zeros(model.nv)
    assert ld.rnea is rnea and np.all(np.isfinite(ld.rnea(model, q, z, z)))
    assert rnea_by_liedyn.__globals__["rnea_pass"] is rnea_pass


def test_a_wrong_return_is_explained():
    with pytest.raises(WrongAnswer, match=r"should return the tuple \(V, dV, F, tau\)"):
        implement.check_rnea(lambda model, q, dq, ddq: my_rnea(model, q, dq, ddq)[3])
    with pytest.raises(WrongAnswer, match=r"N\+1 = 5 entries"):
        implement.check_forward_kinematics(lambda model, q: my_fk(model, q)[1:])
