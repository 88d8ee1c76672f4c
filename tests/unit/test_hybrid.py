"""Hybrid dynamics, Kim (2012), Table 4: against inverse, forward and direct dynamics.

* every joint prescribed is RNEA, none prescribed is ABA;
* random masks on 120 random trees mixing every joint type (fixed joints included):
  ``hybrid == hybrid_direct`` (eq. (34)) to 1e-10 relative, ``M ddq_out + b == tau_out``, the
  known entries are copied and the unknown input entries are ignored;
* an independent transcription of Table 4 with 6x6 matrices from :mod:`liedyn.lie` agrees,
  and the same transcription with the seed's printed operators (``Ad^-1`` for ``Ad*`` in the
  sums) does not: the comparisons can fail;
* batching, external wrenches, intermediates of :func:`hybrid_pass`, input validation.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from liedyn import lie
from liedyn.crba import bias_force, mass_matrix
from liedyn.forward_dynamics import aba
from liedyn.hybrid_dynamics import check_prescribed, hybrid, hybrid_direct, hybrid_pass
from liedyn.inverse_dynamics import gravity_acceleration, rnea, rnea_pass
from liedyn.kinematics import forward_pass
from liedyn.robots import JOINT_TYPES, double_pendulum, random_tree, serial_chain

from common import random_state, relerr

N_TREES = 120
TOL = 1e-10


def hybrid_case(seed):
    """A random tree over every joint type, a state, inputs, external wrenches and a mask."""
    model, q, dq, ddq, f_ext = random_state(seed)
    rng = np.random.default_rng(seed + 1)
    tau = rng.normal(size=model.nv)
    mask = rng.uniform(size=model.nbodies) < 0.5
    return model, q, dq, ddq, tau, f_ext, mask


def coordinate_mask(model, mask):
    """The per-joint mask expanded to the velocity coordinates."""
    u = np.zeros(model.nv, dtype=bool)
    for i in range(1, model.nbodies + 1):
        u[model.v_slice[i]] = mask[i - 1]
    return u


def table4(model, q, dq, ddq, tau, prescribed, f_ext, printed=None):
    """Kim (2012), Table 4, transcribed line by line with the 6x6 matrices of liedyn.lie.

    ``printed="table4"`` uses the operator the seed prints in Table 4's two backward sums,
    ``Ad^-1_{T^-1}`` (= ``Ad_T``), instead of ``Ad*_{T^-1}``; ``printed="eq52"`` the seed's
    eq. (52), whose sum over prescribed children ends in ``Ad^-1_{T^-1}`` instead of ``Ad_{T^-1}``.
    """
    N, par = model.nbodies, model.parent
    T, S, V, eta = [None] * (N + 1), [None] * (N + 1), [np.zeros(6)] * (N + 1), [None] * (N + 1)
    for i in range(1, N + 1):                              # forward recursion
        qi, dqi = q[model.q_slice[i]], dq[model.v_slice[i]]
        T[i] = model.placements[i] @ model.joints[i].transform(qi)
        S[i] = model.joints[i].S(qi)
        V[i] = lie.Ad(lie.inverse(T[i])) @ V[par[i]] + S[i] @ dqi
        eta[i] = lie.ad(V[i]) @ S[i] @ dqi + model.joints[i].dS(qi, dqi) @ dqi
    Ih, Bh, Psi, Pi, beta = ([None] * (N + 1) for _ in range(5))
    for i in range(N, 0, -1):                              # backward recursion
        I, vi = model.inertias[i], model.v_slice[i]
        Ih[i] = I.copy()
        Bh[i] = -lie.ad_star(V[i]) @ I @ V[i] - f_ext[i - 1]
        for k in model.children[i]:
            A = lie.Ad(lie.inverse(T[k]))
            L = np.linalg.inv(A) if printed == "table4" else A.T
            Rt = np.linalg.inv(A) if printed == "eq52" and prescribed[k - 1] else A
            Ih[i] = Ih[i] + L @ Pi[k] @ Rt
            Bh[i] = Bh[i] + L @ beta[k]
        if prescribed[i - 1]:
            Pi[i] = Ih[i]
            beta[i] = Bh[i] + Ih[i] @ (eta[i] + S[i] @ ddq[vi])
        else:
            Psi[i] = np.linalg.inv(S[i].T @ Ih[i] @ S[i])
            Pi[i] = Ih[i] - Ih[i] @ S[i] @ Psi[i] @ S[i].T @ Ih[i]
            beta[i] = Bh[i] + Ih[i] @ (eta[i] + S[i] @ Psi[i] @ (
                tau[vi] - S[i].T @ (Ih[i] @ eta[i] + Bh[i])))
    tau_out, ddq_out = np.array(tau, dtype=float), np.array(ddq, dtype=float)
    dV = [gravity_acceleration(model)] + [None] * N
    for i in range(1, N + 1):                              # forward recursion
        vi = model.v_slice[i]
        a = lie.Ad(lie.inverse(T[i])) @ dV[par[i]]
        if not prescribed[i - 1]:
            ddq_out[vi] = Psi[i] @ (tau[vi] - S[i].T @ Ih[i] @ (a + eta[i]) - S[i].T @ Bh[i])
        dV[i] = a + S[i] @ ddq_out[vi] + eta[i]
        if prescribed[i - 1]:
            tau_out[vi] = S[i].T @ (Ih[i] @ dV[i] + Bh[i])
    return tau_out, ddq_out


def test_random_trees_cover_every_joint_type_and_mask():
    seen = set()
    for seed in range(N_TREES):
        model, *_, mask = hybrid_case(seed)
        seen |= {(type(model.joints[i]).__name__, bool(mask[i - 1]))
                 for i in range(1, model.nbodies + 1)}
    kinds = {"Revolute", "Prismatic", "Helical", "Screw", "Universal", "Planar", "Spherical",
             "SphericalZYX", "SphericalExp", "Free", "Fixed"}
    assert seen == {(k, m) for k in kinds for m in (False, True)}


@pytest.mark.parametrize("seed", range(N_TREES))
def test_hybrid_matches_direct_and_equations_of_motion(seed):
    model, q, dq, ddq, tau, f_ext, mask = hybrid_case(seed)
    tau_out, ddq_out = hybrid(model, q, dq, ddq, tau, mask, f_ext)
    tau_d, ddq_d = hybrid_direct(model, q, dq, ddq, tau, mask, f_ext)
    assert relerr(tau_out, tau_d) <= TOL
    assert relerr(ddq_out, ddq_d) <= TOL
    M = mass_matrix(model, q)
    b = bias_force(model, q, dq, f_ext)
    assert relerr(M @ ddq_out + b, tau_out) <= TOL                       # eq. (32)
    u = coordinate_mask(model, mask)
    assert np.array_equal(ddq_out[u], ddq[u])                            # known entries copied
    assert np.array_equal(tau_out[~u], tau[~u])                          # (exact)


@pytest.mark.parametrize("seed", range(0, N_TREES, 3))
def test_independent_transcription_of_table4(seed):
    model, q, dq, ddq, tau, f_ext, mask = hybrid_case(seed)
    ref = table4(model, q, dq, ddq, tau, mask, f_ext)
    for a, b in zip(hybrid(model, q, dq, ddq, tau, mask, f_ext), ref, strict=True):
        assert relerr(a, b) <= TOL


def test_printed_table4_operators_fail():
    """The seed's ``Ad^-1_{T^-1}`` in Table 4's backward sums and in the prescribed-children
    sum of eq. (52) give wrong results (errata); ``Ad_T^-1`` of the prescribed branch is fine."""
    rng = np.random.default_rng(7)
    model = random_tree(5, rng)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    f_ext = np.zeros((model.nbodies, 6))
    checked_eq52 = 0
    for mask in ([True, False] * 3)[:5], [False] * 5, [True] * 5:
        direct = hybrid_direct(model, q, dq, ddq, tau, mask, f_ext)
        good = table4(model, q, dq, ddq, tau, mask, f_ext)
        bad = table4(model, q, dq, ddq, tau, mask, f_ext, printed="table4")
        assert max(relerr(a, b) for a, b in zip(good, direct, strict=True)) <= TOL
        assert max(relerr(a, b) for a, b in zip(bad, direct, strict=True)) > 1e-3
        if any(mask[k - 1] and model.parent[k] > 0 for k in range(1, 6)):
            bad52 = table4(model, q, dq, ddq, tau, mask, f_ext, printed="eq52")
            assert max(relerr(a, b) for a, b in zip(bad52, direct, strict=True)) > 1e-3
            checked_eq52 += 1
    assert checked_eq52 == 2
    T = model.placements[2] @ model.joints[2].transform(q[model.q_slice[2]])
    assert np.allclose(np.linalg.inv(lie.Ad(T)), lie.Ad_inv(T))     # Ad_T^-1 = Ad_{T^-1}
    assert not np.allclose(lie.Ad(T), lie.Ad_inv(T))


def test_printed_eq34_coupling_term_fails():
    """Eq. (34) needs ``M_vu ddq_u``; the printed ``M_uv ddq_u`` only type-checks when
    ``n_u = n_v`` and is wrong even then (errata)."""
    model = serial_chain(6)
    rng = np.random.default_rng(34)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    mask = np.array([True, False, False, True, True, False])        # n_u = n_v = 3
    u, v = mask, ~mask
    M, b = mass_matrix(model, q), bias_force(model, q, dq)
    M_uv, M_vu, M_vv = M[np.ix_(u, v)], M[np.ix_(v, u)], M[np.ix_(v, v)]
    assert np.array_equal(M_vu, M_uv.T)          # exact: blocks of two joints are mirrored
    ddq_v = hybrid(model, q, dq, ddq, tau, mask)[1][v]
    right = np.linalg.solve(M_vv, tau[v] - b[v] - M_vu @ ddq[u])
    printed = np.linalg.solve(M_vv, tau[v] - b[v] - M_uv @ ddq[u])
    assert relerr(right, ddq_v) <= TOL and relerr(printed, ddq_v) > 1e-3


@pytest.mark.parametrize("seed", range(0, N_TREES, 3))
def test_all_prescribed_is_inverse_dynamics(seed):
    model, q, dq, ddq, tau, f_ext, _ = hybrid_case(seed)
    tau_out, ddq_out = hybrid(model, q, dq, ddq, tau, [True] * model.nbodies, f_ext)
    assert relerr(tau_out, rnea(model, q, dq, ddq, f_ext)) <= TOL
    assert np.array_equal(ddq_out, ddq)                                 # copied


@pytest.mark.parametrize("seed", range(1, N_TREES, 3))
def test_none_prescribed_is_forward_dynamics(seed):
    model, q, dq, ddq, tau, f_ext, _ = hybrid_case(seed)
    tau_out, ddq_out = hybrid(model, q, dq, ddq, tau, [False] * model.nbodies, f_ext)
    assert relerr(ddq_out, aba(model, q, dq, tau, f_ext)) <= TOL
    assert np.array_equal(tau_out, tau)                                 # copied


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(1e-3, 1e3))
def test_unknown_input_slots_are_ignored(seed, scale):
    model, q, dq, ddq, tau, f_ext, mask = hybrid_case(seed)
    u = coordinate_mask(model, mask)
    rng = np.random.default_rng(seed + 1)
    ddq2, tau2 = ddq.copy(), tau.copy()
    ddq2[~u] = scale * rng.normal(size=(~u).sum())                     # unknowns: ddq_v, tau_u
    tau2[u] = scale * rng.normal(size=u.sum())
    for f in (hybrid, hybrid_direct):        # the same function; the slots never enter it
        a = f(model, q, dq, ddq, tau, mask, f_ext)
        b = f(model, q, dq, ddq2, tau2, mask, f_ext)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 2**32 - 1))
def test_hybrid_pass_intermediates(seed):
    """Eq. (51) per body, F and dV as in RNEA, Pi = I_hat on u, Pi S = 0 on v."""
    model, q, dq, ddq, tau, f_ext, mask = hybrid_case(seed)
    out = hybrid_pass(model, q, dq, ddq, tau, mask, f_ext)
    ref = rnea_pass(model, q, dq, out.ddq, f_ext)
    assert relerr(ref.tau, out.tau) <= TOL
    for i in range(1, model.nbodies + 1):
        assert relerr(out.dV[i], ref.forward.dV[i]) <= TOL
        assert relerr(out.F[i], ref.F[i]) <= TOL
        assert relerr(out.I_hat[i] @ out.dV[i] + out.B_hat[i], out.F[i]) <= TOL   # eq. (51)
        if mask[i - 1]:
            assert out.Psi[i] is None and np.array_equal(out.Pi[i], out.I_hat[i])  # the same
        else:
            PiS = out.Pi[i] @ out.forward.S[i]                 # (6, 0) for a fixed joint
            assert relerr(PiS, np.zeros_like(PiS)) <= 1e-9 * max(1.0, np.max(np.abs(out.I_hat[i])))


def test_batched_equals_looped():
    rng = np.random.default_rng(3)
    model = random_tree(6, rng, joint_types=JOINT_TYPES)
    mask = [True, False, False, True, False, True]
    q = np.stack([[model.random_configuration(rng) for _ in range(3)] for _ in range(4)])
    dq, ddq, tau = rng.normal(size=(3, 4, 3, model.nv))
    f_ext = rng.normal(size=(4, 3, model.nbodies, 6))
    for f in (hybrid, hybrid_direct):
        tau_b, ddq_b = f(model, q, dq, ddq, tau, mask, f_ext)
        assert tau_b.shape == ddq_b.shape == (4, 3, model.nv)
        for j in range(4):
            for k in range(3):
                t, d = f(model, q[j, k], dq[j, k], ddq[j, k], tau[j, k], mask, f_ext[j, k])
                assert relerr(tau_b[j, k], t) <= 1e-12 and relerr(ddq_b[j, k], d) <= 1e-12
    tau_b, ddq_b = hybrid(model, q, dq[0, 0], ddq[0, 0], tau[0, 0], mask)   # broadcast batch
    t, d = hybrid(model, q[2, 1], dq[0, 0], ddq[0, 0], tau[0, 0], mask)
    assert tau_b.shape == (4, 3, model.nv)
    assert relerr(tau_b[2, 1], t) <= 1e-12 and relerr(ddq_b[2, 1], d) <= 1e-12


def test_external_wrenches():
    rng = np.random.default_rng(11)
    model = random_tree(5, rng)
    q = model.random_configuration(rng)
    dq, ddq, tau = rng.normal(size=(3, model.nv))
    f_ext = rng.normal(size=(model.nbodies, 6))
    mask = [False, True, False, True, True]
    with_f = hybrid(model, q, dq, ddq, tau, mask, f_ext)
    without = hybrid(model, q, dq, ddq, tau, mask)
    assert relerr(with_f[0], without[0]) > 1e-3 and relerr(with_f[1], without[1]) > 1e-3
    for a, b in zip(with_f, hybrid_direct(model, q, dq, ddq, tau, mask, f_ext), strict=True):
        assert relerr(a, b) <= TOL
    assert relerr(rnea(model, q, dq, with_f[1], f_ext), with_f[0]) <= TOL
    zero = hybrid(model, q, dq, ddq, tau, mask, np.zeros((model.nbodies, 6)))
    # exact: adds zeros
    assert all(np.array_equal(a, b) for a, b in zip(zero, without, strict=True))


def test_serial_chain_and_double_pendulum_agree_with_direct():
    for model in (serial_chain(7), serial_chain(4, joint="spherical"), double_pendulum()):
        rng = np.random.default_rng(model.nv)
        q = model.random_configuration(rng)
        dq, ddq, tau = rng.normal(size=(3, model.nv))
        mask = np.arange(model.nbodies) % 2 == 0
        for a, b in zip(hybrid(model, q, dq, ddq, tau, mask),
                        hybrid_direct(model, q, dq, ddq, tau, mask), strict=True):
            assert relerr(a, b) <= TOL


@pytest.mark.parametrize("f", [hybrid, hybrid_direct, hybrid_pass])
def test_bad_mask_is_rejected(f):
    model = double_pendulum()
    args = (model, [0.1, 0.2], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    for bad in ([True], [True, False, True], [[True, False]], []):
        with pytest.raises(ValueError, match="prescribed"):
            f(*args, bad)
    for bad in ([1, 0], [0.0, 1.0], ["yes", "no"]):
        with pytest.raises(TypeError, match="prescribed"):
            f(*args, bad)
    with pytest.raises(ValueError, match="prescribed.*2 booleans"):
        check_prescribed(serial_chain(2, joint="spherical"), [True] * 6)   # per coordinate


@pytest.mark.parametrize("f", [hybrid, hybrid_direct])
def test_nan_input_is_rejected(f):
    model = double_pendulum()
    good = {"q": [0.1, 0.2], "dq": [0.0, 0.0], "ddq": [0.0, 0.0], "tau": [0.0, 0.0]}
    for name in good:
        args = dict(good)
        args[name] = [np.nan, 0.0]
        with pytest.raises(ValueError, match=f"'{name}'.*NaN"):
            f(model, args["q"], args["dq"], args["ddq"], args["tau"], [True, False])
    with pytest.raises(ValueError, match="'f_ext'.*NaN"):
        f(model, *good.values(), [True, False], np.full((2, 6), np.nan))


def test_forward_pass_shared_with_kinematics():
    """The V_i and eta_i of hybrid_pass are those of the forward recursion (37), (41)."""
    rng = np.random.default_rng(5)
    model = random_tree(4, rng)
    q = model.random_configuration(rng)
    dq = rng.normal(size=model.nv)
    out = hybrid_pass(model, q, dq, np.zeros(model.nv), np.zeros(model.nv), [True] * 4)
    fw = forward_pass(model, q, dq, np.zeros(model.nv), gravity_acceleration(model))
    for i in range(1, 5):
        assert relerr(out.forward.V[i], fw.V[i]) <= TOL
        assert relerr(out.eta[i] + lie.Ad_inv(model.placements[i] @ model.joints[i].transform(
            q[model.q_slice[i]])) @ fw.dV[model.parent[i]], fw.dV[i]) <= TOL


def test_aba_and_hybrid_share_one_articulation_step(monkeypatch):
    """aba_pass and hybrid_pass run one articulation_step (backward) and one
    acceleration_step (second forward sweep) per body: the same functions, spied."""
    from liedyn import forward_dynamics, hybrid_dynamics
    from liedyn.forward_dynamics import aba_pass
    steps = ("articulation_step", "acceleration_step")
    for name in steps:
        assert getattr(hybrid_dynamics, name) is getattr(forward_dynamics, name)
    calls = {name: [] for name in steps}

    def spy(name, step):
        def counted(*args, **kwargs):
            calls[name].append(args[1] if name == "articulation_step" else None)
            return step(*args, **kwargs)
        return counted
    for name in steps:
        counted = spy(name, getattr(forward_dynamics, name))
        for module in (forward_dynamics, hybrid_dynamics):
            monkeypatch.setattr(module, name, counted)
    model, q, dq, tau, _ = random_state(3, n_max=6,
                                        joint_types=["revolute", "prismatic", "spherical"])
    N = model.nbodies
    assert N > 2
    out = aba_pass(model, q, dq, tau)
    assert calls["articulation_step"] == list(range(N, 0, -1))      # leaves first
    assert len(calls["acceleration_step"]) == N
    calls = {name: [] for name in steps}
    prescribed = [i % 2 == 0 for i in range(N)]
    hp = hybrid_pass(model, q, dq, out.ddq, tau, prescribed)
    assert calls["articulation_step"] == list(range(N, 0, -1))
    assert len(calls["acceleration_step"]) == N
    assert relerr(hp.ddq, out.ddq) < 1e-10 and relerr(hp.tau, tau) < 1e-10
