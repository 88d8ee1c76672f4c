"""Time liedyn against Pinocchio (C++) and modern_robotics (pure numpy), side by side.

Robots: UR5 and the Panda arm (7 DOF, fingers locked), Solo12 and Talos with a
floating base, and a 50-link spatial chain (``liedyn.robots.serial_chain(50)`` and
its Pinocchio twin from ``tests/pinocchio_bridge.to_pinocchio``). Algorithms:
inverse dynamics (RNEA), mass matrix (CRBA), forward dynamics (ABA), their partials,
and hybrid dynamics (Kim's Table 4, compared with liedyn's own direct method
``hybrid_direct``, as no peer library has it).

Two regimes:

* single call: median over repeats of the time of one call (``time.perf_counter``);
  for rnea, mass matrix, aba and hybrid also the compiled driver alone on validated
  inputs, its checks off: the difference is the overhead of the input checks;
* batched: ``--states`` states (10^4 by default) at once. liedyn makes **one** call
  on arrays with a leading batch dimension, on one thread and (rnea, aba) on every
  core; Pinocchio runs a Python loop over the states, and also ``rneaInParallel`` /
  ``abaInParallel`` (its C++ loop) with one thread and with as many as cores;
  modern_robotics runs a Python loop on fewer states (it takes milliseconds per
  call), reported per state.

Besides the compiled engine (what the public functions choose), the reference
implementation (the numpy ``*_pass`` functions the chapters list, which run every
dtype) is timed on the same calls. Every library is first checked to give the same
numbers as liedyn on the same state. BLAS and OpenMP are limited to one thread, so
every number but those "on every core" is single-core. The floating-point operations
of one state of rnea and aba are counted (the kernels run in Python on numbers that
count them) against the peak of a core (``report.peak``). Writes
``benchmarks/results.md`` (included in the book) and ``benchmarks/results.json``; the
tables are written by ``benchmarks/report.py``, the first of them the targets of the
engine, beside the same table of an earlier run (``--before``, by default
``benchmarks/before.json``: a run of the engine before its kernels ran across states,
made with ``--source`` on that checkout).

Usage: ``python benchmarks/run.py [--quick] [--profile] [--no-compile-times]
[--render] [--overhead] [--before JSON] [--source DIR]`` (``--render`` rewrites
results.md from results.json; ``--overhead`` prints only the overhead table;
``--source DIR`` times the liedyn package in DIR instead of this checkout's). The
full run takes a few minutes; ``--quick`` has fewer states and repeats.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import cProfile  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import pstats  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import warnings  # noqa: E402

import modern_robotics as mr  # noqa: E402
import numpy as np  # noqa: E402
import pinocchio as pin  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = (sys.argv[sys.argv.index("--source") + 1] if "--source" in sys.argv
          else os.path.join(HERE, ".."))                 # this checkout's liedyn
sys.path[:0] = [SOURCE, os.path.join(HERE, "..", "tests")]   # the Pinocchio bridges

import liedyn  # noqa: E402
from liedyn import joints as J  # noqa: E402
from liedyn.crba import mass_matrix  # noqa: E402
from liedyn.derivatives import aba_partials, rnea_partials  # noqa: E402
from liedyn.engine import dispatch, jit, one_state  # noqa: E402
from liedyn.engine import drivers as K  # noqa: E402
from liedyn.forward_dynamics import aba  # noqa: E402
from liedyn.hybrid_dynamics import hybrid, hybrid_direct  # noqa: E402
from liedyn.inverse_dynamics import rnea  # noqa: E402
from liedyn.lie import Ad  # noqa: E402
from liedyn.robots import serial_chain  # noqa: E402
from liedyn.urdf import load_robot, robot_path  # noqa: E402

from pinocchio_bridge import to_pinocchio  # noqa: E402
from pinocchio_urdf import PinMap  # noqa: E402

sys.path.insert(0, HERE)
import report  # noqa: E402
from report import OVERHEAD_REPEATS, PARTIALS, PARTIALS_STATES  # noqa: E402

ALGORITHMS = ("rnea", "mass matrix", "aba", "hybrid", "rnea partials", "aba partials")
KERNEL_ALGORITHMS = ("rnea", "mass matrix", "aba", "hybrid")   # compiled drivers
BATCH_REPEATS = 7               # rounds of the batched calls, best of: a shared machine
WARM_UP_S = 10.0
FINGERS = ["panda_finger_joint1", "panda_finger_joint2"]


# --- the robots ----------------------------------------------------------------------
class Case:
    """One robot: the liedyn model, its Pinocchio twin, state maps and modern_robotics
    inputs."""

    def __init__(self, label, model, pm, pinmap, serial):
        self.label, self.model, self.pm, self.pinmap = label, model, pm, pinmap
        self.data = pm.createData()
        self.mr = mr_inputs(model) if serial else None
        floating = isinstance(model.joints[1], J.Free)
        # hybrid: floating base free (zero wrench), joints prescribed; arms: every
        # other joint
        self.prescribed = (np.arange(model.nbodies) > 0 if floating
                           else np.arange(model.nbodies) % 2 == 0)

    def states(self, n, rng):
        m = self.model
        q = np.stack([m.random_configuration(rng) for _ in range(n)])
        dq, ddq, tau = rng.normal(size=(3, n, m.nv))
        return q, dq, ddq, tau

    def to_pin(self, q, dq, ddq, tau):
        """Pinocchio's (q, v, a, tau) for each state, as (n, .) arrays."""
        if self.pinmap is None:        # the chain: revolute joints in the same order
            return q, dq, ddq, tau
        out = [], [], [], []
        for k in range(len(q)):
            B = self.pinmap.B(q[k])    # constant for these robots (no planar joints)
            xs = (self.pinmap.q(q[k]), B @ dq[k], B @ ddq[k], B @ tau[k])
            for lst, x in zip(out, xs, strict=True):
                lst.append(x)
        return tuple(np.array(x) for x in out)


def make_cases():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ur5 = load_robot("ur5")
        panda = load_robot("panda", locked_joints=FINGERS)
        solo = load_robot("solo12", floating_base=True)
        talos = load_robot("talos", floating_base=True)
    free = pin.JointModelFreeFlyer()
    pin_ur5 = pin.buildModelFromUrdf(robot_path("ur5"))
    pin_full = pin.buildModelFromUrdf(robot_path("panda"))
    pin_panda = pin.buildReducedModel(
        pin_full, [pin_full.getJointId(n) for n in FINGERS], pin.neutral(pin_full))
    pin_solo = pin.buildModelFromUrdf(robot_path("solo12"), free)
    pin_talos = pin.buildModelFromUrdf(robot_path("talos"), free)
    chain = serial_chain(50)
    return [Case("UR5", ur5, pin_ur5, PinMap(ur5, pin_ur5), True),
            Case("Panda (7-DOF arm)", panda, pin_panda, PinMap(panda, pin_panda), True),
            Case("Solo12 (floating)", solo, pin_solo, PinMap(solo, pin_solo), False),
            Case("Talos (floating)", talos, pin_talos, PinMap(talos, pin_talos), False),
            Case("50-link chain", chain, to_pinocchio(chain), None, True)]


def mr_inputs(model):
    """modern_robotics' (Mlist, Glist, Slist) from a liedyn serial chain of 1-DOF
    joints.

    The link frames {i} are liedyn's body frames: ``M_{i-1,i}`` is the placement
    ``X_i`` (the joints are at 0 there), ``G_i`` the generalized inertia in {i} (both
    libraries order twists (w, v)), and ``S_i = Ad_{M_{0,i}} A_i`` the joint's screw
    axis in the space frame.
    """
    assert all(model.parent[i] == i - 1 and model.joints[i].nv == 1
               for i in range(1, model.nbodies + 1)), \
        "modern_robotics needs a serial chain"
    Mlist, Glist, S = [], [], []
    M0i = np.eye(4)
    for i in range(1, model.nbodies + 1):
        X = model.placements[i]
        Mlist.append(X)
        Glist.append(model.inertias[i])
        M0i = M0i @ X
        S.append(Ad(M0i) @ model.joints[i].S(np.zeros(1))[:, 0])
    Mlist.append(np.eye(4))
    return np.array(Mlist), np.array(Glist), np.array(S).T


# --- threads and operations --------------------------------------------------------
CORES = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
    os.cpu_count()


def on_threads(f, n):
    """``f`` run with liedyn's engine on ``n`` threads (``None``: its default, every
    core); an engine without threads runs on one."""
    def g(*args):
        if not hasattr(liedyn, "set_num_threads"):
            return f(*args)
        before = liedyn.get_num_threads()
        liedyn.set_num_threads(n)
        try:
            return f(*args)
        finally:
            liedyn.set_num_threads(before)
    return g


class Counted(float):
    """A float whose arithmetic gives Counted numbers and counts the operations."""
    operations = 0

    def _count(op):
        def f(a, b):
            Counted.operations += 1
            return Counted(op(float(a), float(b)))
        return f

    __add__ = __radd__ = _count(lambda a, b: a + b)
    __mul__ = __rmul__ = _count(lambda a, b: a * b)
    __sub__ = _count(lambda a, b: a - b)
    __rsub__ = _count(lambda a, b: b - a)
    __truediv__ = _count(lambda a, b: a / b)
    __rtruediv__ = _count(lambda a, b: b / a)

    def __neg__(a):
        return Counted(-float(a))


def operations(model, alg, rng):
    """The floating-point operations (+, -, *, /) of one state of ``alg`` ("rnea"
    or "aba") in the kernels of ``liedyn.engine``, run in Python on numbers that
    count them (the sines and cosines of the joints not counted); ``None`` for an
    engine whose kernels are not on chunks of states."""
    try:
        from liedyn.engine import drivers as D
        from liedyn.engine import kernels as K
        from liedyn.engine import spatial as S
        chunk = {"rnea": K.rnea_chunk, "aba": K.aba_chunk}[alg]
    except (ImportError, AttributeError):
        return None
    topo, body = dispatch.flat_model(model)[:2]
    counted = np.vectorize(Counted, otypes=[object])
    ws = D.workspaces(dispatch.work(topo, float), topo, S.ABA_SLOTS, S.BLOCK_SLOTS)
    w, c, d = (np.zeros(x.shape, dtype=object) for x in ws)
    for x in (w, c, d):                      # state 0 counts, the other lanes not
        x[:] = 0.0
        x[:, ::S.LANES] = counted(np.zeros(x[:, ::S.LANES].shape))
    body = counted(body)
    D.prepare(topo, body, w, c, 1)
    q = counted(model.random_configuration(rng))
    dq, x = counted(rng.normal(size=(2, model.nv)))
    D.gather_q(topo, q, 0, 1, w, 1)
    D.gather(c, S.DQ, dq, 0, 1, 1)
    D.gather(c, S.DDQ if alg == "rnea" else S.TAU, x, 0, 1, 1)
    Counted.operations = 0
    if alg == "rnea":
        chunk(topo, body, w, c, 1)
    else:
        chunk(topo, body, w, c, d, 1)
    return Counted.operations


# --- the calls -----------------------------------------------------------------------
def liedyn_calls(case):
    m, u = case.model, case.prescribed
    return {"rnea": lambda q, dq, ddq, tau: rnea(m, q, dq, ddq),
            "mass matrix": lambda q, dq, ddq, tau: mass_matrix(m, q),
            "aba": lambda q, dq, ddq, tau: aba(m, q, dq, tau),
            "hybrid": lambda q, dq, ddq, tau: hybrid(m, q, dq, ddq, tau, u),
            "hybrid_direct": lambda q, dq, ddq, tau: hybrid_direct(m, q, dq, ddq, tau,
                                                                   u),
            "rnea partials": lambda q, dq, ddq, tau: rnea_partials(m, q, dq, ddq)[:2],
            "aba partials": lambda q, dq, ddq, tau: aba_partials(m, q, dq, tau)[:2]}


def into_calls(case, n):
    """The partials of ``n`` states written into arrays allocated once (``out=``),
    as Pinocchio writes into its ``Data``: a loop over batches allocates nothing."""
    m, nv = case.model, case.model.nv
    out = tuple(np.empty((n, nv, nv)) for _ in range(3))
    return {"rnea partials": lambda q, dq, ddq, tau: rnea_partials(
                m, q, dq, ddq, out=out)[:2],
            "aba partials": lambda q, dq, ddq, tau: aba_partials(
                m, q, dq, tau, out=out)[:2]}


def bare_calls(case):
    """The compiled drivers alone (of the engine for one state, which single calls
    run), on inputs already validated and flattened, with their checks off: what a
    public single call costs beyond them is the overhead of its input checks and
    dispatch."""
    single = one_state.drivers()
    m = case.model
    topo, body, no_f, _ = dispatch.flat_model(m)
    work = dispatch.work(topo, np.float64, single)
    nv, off = m.nv, K.CHECK_OFF
    u = np.array(case.prescribed)
    return {"rnea": lambda q, dq, ddq, tau: single.rnea_loop.fast(
                topo, body, q, dq, ddq, no_f, np.empty(nv), work, off),
            "mass matrix": lambda q, dq, ddq, tau: single.crba_loop.fast(
                topo, body, q, np.zeros((nv, nv)), work, off),
            "aba": lambda q, dq, ddq, tau: single.aba_loop.fast(
                topo, body, q, dq, tau, no_f, np.empty(nv), work, off),
            "hybrid": lambda q, dq, ddq, tau: single.hybrid_loop.fast(
                topo, body, q, dq, ddq, tau, no_f, u, np.empty(nv), np.empty(nv),
                work, off)}


def reference(f):
    """``f`` run by the reference implementation (the compiled engine switched off)."""
    def g(*args):
        dispatch.use_kernels(False)
        try:
            return f(*args)
        finally:
            dispatch.use_kernels(True)
    return g


def pin_calls(case):
    pm, d = case.pm, case.data

    def rnea_partials_pin(q, v, a, tau):
        pin.computeRNEADerivatives(pm, d, q, v, a)
        return d.dtau_dq, d.dtau_dv

    def aba_partials_pin(q, v, a, tau):
        pin.computeABADerivatives(pm, d, q, v, tau)
        return d.ddq_dq, d.ddq_dv
    return {"rnea": lambda q, v, a, tau: pin.rnea(pm, d, q, v, a),
            "mass matrix": lambda q, v, a, tau: pin.crba(pm, d, q),
            "aba": lambda q, v, a, tau: pin.aba(pm, d, q, v, tau),
            "rnea partials": rnea_partials_pin, "aba partials": aba_partials_pin}


def mr_calls(case):
    Ml, Gl, Sl = case.mr
    g, F = case.model.gravity, np.zeros(6)
    return {"rnea": lambda q, dq, ddq, tau: mr.InverseDynamics(q, dq, ddq, g, F, Ml,
                                                               Gl, Sl),
            "mass matrix": lambda q, dq, ddq, tau: mr.MassMatrix(q, Ml, Gl, Sl),
            "aba": lambda q, dq, ddq, tau: mr.ForwardDynamics(q, dq, tau, g, F, Ml,
                                                              Gl, Sl)}


def check_agreement(case, rng):
    """Every library gives liedyn's numbers on one state (relative error < 1e-9)."""
    q, dq, ddq, tau = (x[0] for x in case.states(1, rng))
    qp, vp, ap, taup = (x[0] for x in case.to_pin(*(x[None] for x in (q, dq, ddq,
                                                                        tau))))
    B = np.eye(case.model.nv) if case.pinmap is None else case.pinmap.B(q)
    ours = {k: f(q, dq, ddq, tau) for k, f in liedyn_calls(case).items()}
    theirs = {k: copy(f(qp, vp, ap, taup)) for k, f in pin_calls(case).items()}
    Mp = theirs["mass matrix"]
    Mp = np.triu(Mp) + np.triu(Mp, 1).T
    peers = {"rnea": B.T @ theirs["rnea"], "mass matrix": B.T @ Mp @ B,
             "aba": B.T @ theirs["aba"]}
    # tangent maps: dtau/dq = B^T (dtau/dq)_pin B; ddq/dq = B^-1 (ddq/dq)_pin B
    ours["rnea partials"] = np.concatenate(ours["rnea partials"])
    peers["rnea partials"] = np.concatenate(
        [B.T @ X @ B for X in theirs["rnea partials"]])
    taup_ours = pin.rnea(case.pm, case.data, qp, vp, ap)
    ours["aba partials"] = np.concatenate(
        aba_partials(case.model, q, dq, B.T @ taup_ours)[:2])
    pin.computeABADerivatives(case.pm, case.data, qp, vp, taup_ours)
    peers["aba partials"] = np.concatenate(
        [np.linalg.solve(B, X @ B) for X in (case.data.ddq_dq, case.data.ddq_dv)])
    if case.mr is not None:
        for k, f in mr_calls(case).items():
            peers["mr " + k] = f(q, dq, ddq, tau)
    peers["hybrid_direct"] = ours["hybrid_direct"]
    for k, ref in peers.items():
        mine = ours[k.replace("mr ", "")]
        if k == "hybrid_direct":
            mine, ref = np.concatenate(ours["hybrid"]), np.concatenate(ref)
        err = np.max(np.abs(mine - ref)) / np.max(np.abs(ref))
        assert err < 1e-9, \
            f"{case.label}: {k} disagrees with liedyn (relative error {err:.2g})"


def copy(x):
    return tuple(np.array(a) for a in x) if isinstance(x, tuple) else np.array(x)


# --- timing --------------------------------------------------------------------------
def interleaved(calls, repeats, budget=2e-3, stat=np.median):
    """Median (or ``stat``) time of one call of each ``calls[name]()``, alternating.

    Each repeat times a block of calls of every function in turn (blocks of at least
    ``budget`` seconds, ``time.perf_counter``), so that all of them see the same load
    of a shared machine; the result per function is the median over ``repeats`` of
    the block's mean time per call (``stat=None``: the list of those block means, in
    order).
    """
    number = {}
    for name, f in calls.items():
        f()
        t0 = time.perf_counter()
        f()
        number[name] = max(1, int(budget / max(time.perf_counter() - t0, 1e-9)))
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, f in calls.items():
            t0 = time.perf_counter()
            for _ in range(number[name]):
                f()
            times[name].append((time.perf_counter() - t0) / number[name])
    if stat is None:
        return times
    return {name: float(stat(t)) for name, t in times.items()}


def best_of(calls, repeats):
    """Best time of one run of each ``calls[name]()`` over ``repeats`` alternating
    rounds."""
    times = {name: [] for name in calls}
    for _ in range(repeats):
        for name, f in calls.items():
            t0 = time.perf_counter()
            f()
            times[name].append(time.perf_counter() - t0)
    return {name: min(t) for name, t in times.items()}


def once(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def warm_up(case, seconds):
    """Run liedyn's and Pinocchio's calls on ``case`` for ``seconds`` before anything
    is timed: on a shared machine the first seconds of a run are slower."""
    q, dq, ddq, tau = (x[0] for x in case.states(1, np.random.default_rng(0)))
    qp, vp, ap, taup = (x[0] for x in case.to_pin(*(x[None] for x in (q, dq, ddq,
                                                                        tau))))
    ours, theirs = liedyn_calls(case), pin_calls(case)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for f in ours.values():
            f(q, dq, ddq, tau)
        for g in theirs.values():
            g(qp, vp, ap, taup)


def overhead(public, bare):
    """A public single call against its driver alone, ``OVERHEAD_REPEATS`` blocks of
    each in alternation: the best block of each, and the median difference of
    adjacent blocks (which see the same phase of a shared machine)."""
    blocks = interleaved({"public": public, "bare": bare}, OVERHEAD_REPEATS,
                         stat=None)
    p, b = np.array(blocks["public"]), np.array(blocks["bare"])
    return {"public_best": p.min(), "bare_best": b.min(),
            "overhead": float(np.median(p - b))}


def contenders(case, alg, states, pin_states):
    """``(single, batch)``: the calls of one state and of all ``states`` that are
    timed against each other, by name (liedyn, reference, bare, pin, pin_loop,
    pin_parallel, direct)."""
    q, dq, ddq, tau = states
    qp, vp, ap, taup = pin_states
    f, n = liedyn_calls(case)[alg], len(q)
    single = {"liedyn": lambda: f(q[0], dq[0], ddq[0], tau[0])}
    one = on_threads(f, 1)
    batch = {"liedyn": lambda: one(q, dq, ddq, tau)}
    if alg in ("rnea", "aba"):                 # and on every core
        every = on_threads(f, None)
        batch["liedyn_all"] = lambda: every(q, dq, ddq, tau)
    if alg in PARTIALS:                        # and into arrays allocated once
        into = on_threads(into_calls(case, n)[alg], 1)
        batch["liedyn_out"] = lambda: into(q, dq, ddq, tau)
    if alg in KERNEL_ALGORITHMS and jit.ENABLED:   # the reference implementation
        single["reference"] = lambda: reference(f)(q[0], dq[0], ddq[0], tau[0])
        k = bare_calls(case)[alg]                   # and the driver alone
        single["bare"] = lambda: k(q[0], dq[0], ddq[0], tau[0])
        batch["reference"] = lambda: reference(one)(q, dq, ddq, tau)
    theirs = pin_calls(case)
    if alg in theirs:
        g = theirs[alg]
        single["pin"] = lambda: g(qp[0], vp[0], ap[0], taup[0])

        def loop():
            for k in range(n):
                g(qp[k], vp[k], ap[k], taup[k])
        batch["pin_loop"] = loop
        parallel = getattr(pin, {"rnea": "rneaInParallel",
                                 "aba": "abaInParallel"}.get(alg, "-"), None)
        if parallel is not None:
            pool, pool_all = pin.ModelPool(case.pm, 1), pin.ModelPool(case.pm, CORES)
            Q, V = np.asfortranarray(qp.T), np.asfortranarray(vp.T)
            A = np.asfortranarray((ap if alg == "rnea" else taup).T)
            batch["pin_parallel"] = lambda: parallel(1, pool, Q, V, A)
            batch["pin_parallel_all"] = lambda: parallel(CORES, pool_all, Q, V, A)
    else:                               # hybrid: liedyn's direct method is the peer
        h = liedyn_calls(case)["hybrid_direct"]
        single["direct"] = lambda: h(q[0], dq[0], ddq[0], tau[0])
        batch["direct"] = lambda: h(q, dq, ddq, tau)
    return single, batch


def time_mr(case, alg, states, args):
    """modern_robotics on one state and in a Python loop (per state)."""
    q, dq, ddq, tau = states
    m_ = mr_calls(case)[alg]
    slow = case.model.nv > 20
    single = float(np.median([once(lambda: m_(q[0], dq[0], ddq[0], tau[0]))
                              for _ in range(1 if slow else args.mr_repeats)]))
    nmr = max(1, min(args.mr_states, int(args.mr_budget / single)))

    def mr_loop():
        for k in range(nmr):
            m_(q[k], dq[k], ddq[k], tau[k])
    return {"mr_single": single, "mr_states": nmr, "mr_batch": once(mr_loop) / nmr}


def time_case(case, args, rng):
    """The rows of one robot: every algorithm, single and batched."""
    every = case.states(args.states, rng)
    pin_every = case.to_pin(*every)
    rows = []
    for alg in ALGORITHMS:
        n = min(args.states, PARTIALS_STATES) if alg in PARTIALS else args.states
        states = tuple(x[:n] for x in every)
        single, batch = contenders(case, alg, states,
                                   tuple(x[:n] for x in pin_every))
        row = {"robot": case.label, "algorithm": alg, "nq": case.model.nq,
               "nv": case.model.nv}
        for name, t in interleaved(single, args.repeats).items():
            row[f"{name}_single"] = t
        if "bare" in single:            # the best of many blocks
            row.update(overhead(single["liedyn"], single["bare"]))
        for name, t in best_of(batch, args.batch_repeats).items():
            row[name if name.startswith("pin") else f"{name}_batch"] = t / n
        row["liedyn_batch_states"] = n
        if alg in ("rnea", "aba"):
            row["operations"] = operations(case.model, alg, rng)
        if case.mr is not None and alg in ("rnea", "mass matrix", "aba"):
            row.update(time_mr(case, alg, states, args))
        rows.append(row)
        print_row(alg, row)
    return rows


def print_row(alg, row):
    def us(key):
        return f"{row[key] * 1e6:9.2f} us" if key in row else " " * 12
    print(f"  {alg:12s} single: liedyn {us('liedyn_single')} "
          f"bare {us('bare_single')} reference {us('reference_single')} "
          f"pin {us('pin_single')} direct {us('direct_single')} "
          f"mr {us('mr_single')} | per state: liedyn {us('liedyn_batch')} "
          f"reference {us('reference_batch')} pin loop {us('pin_loop')} "
          f"pin C++ {us('pin_parallel')} direct {us('direct_batch')} | every core: "
          f"liedyn {us('liedyn_all_batch')} pin C++ {us('pin_parallel_all')}",
          flush=True)


def overhead_only():
    """The overhead table alone (``--overhead``): each public single call against
    its driver, as in the full run."""
    rng = np.random.default_rng(7)
    rows = []
    for case in make_cases():
        state = tuple(x[0] for x in case.states(1, rng))       # q, dq, ddq, tau
        ours, bare = liedyn_calls(case), bare_calls(case)
        for alg in KERNEL_ALGORITHMS:
            rows.append({"robot": case.label, "algorithm": alg,
                         **overhead(lambda f=ours[alg], s=state: f(*s),
                                    lambda k=bare[alg], s=state: k(*s))})
    print("\n".join(report.overhead_table(rows)))


# --- compilation ---------------------------------------------------------------------
COMPILE_CALLS = {"rnea": lambda m, q, x: rnea(m, q, x, x),
                 "mass matrix": lambda m, q, x: mass_matrix(m, q),
                 "aba": lambda m, q, x: aba(m, q, x, x)}


def compile_probe(dtypes):
    """Time of the first call of each compiled function per dtype, in this
    process."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = load_robot("panda", locked_joints=FINGERS)
    q = model.neutral_configuration()
    out = {}
    for dtype in dtypes:
        for name, f in COMPILE_CALLS.items():
            x = np.zeros(model.nv, dtype=dtype)
            out[f"{name} ({dtype})"] = once(
                lambda f=f, dtype=dtype, x=x: f(model, q.astype(dtype), x))
    return out


def compile_times(quick):
    """First-call times in fresh processes: with an empty numba cache (compilation)
    and again with the cache that the first process wrote (loading it)."""
    dtypes = ["float64"] if quick else ["float64", "complex128"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cmd = [sys.executable, os.path.abspath(__file__), "--compile-probe", *dtypes]

        def run():
            out = subprocess.run(cmd, check=True, capture_output=True, text=True,
                                 env=env).stdout
            return json.loads(out.splitlines()[-1])
        cold = run()
        warm = run()
    return {"compile": cold, "cache_load": warm}


def profile_rnea_panda(top=15):
    """cProfile of single-call RNEA on the Panda arm: where the time goes."""
    model = load_robot("panda", locked_joints=FINGERS)
    rng = np.random.default_rng(0)
    q = model.random_configuration(rng)
    dq, ddq = rng.normal(size=(2, model.nv))
    rnea(model, q, dq, ddq)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(200):
        rnea(model, q, dq, ddq)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


# --- the run -------------------------------------------------------------------------
def render(args):
    """results.md from results.json, e.g. after a change of the tables' layout."""
    with open(args.json) as f:
        saved = json.load(f)
    args.quick, args.states = saved["quick"], saved["states"]
    args.batch_repeats = saved.get("batch_repeats", 1 if args.quick else 2)
    text = report.markdown(saved["rows"], saved["machine"], args,
                           saved.get("compiled", True), before(args))
    if saved.get("numba"):
        text += report.compile_markdown(saved["numba"])
    with open(args.out, "w") as f:
        f.write(text)


def parse(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer states and repeats")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of one RNEA call on the Panda, exit")
    parser.add_argument("--compile-probe", nargs="+", metavar="DTYPE",
                        help=argparse.SUPPRESS)     # first-call times, fresh process
    parser.add_argument("--overhead", action="store_true",
                        help="print only the overhead of the checks")
    parser.add_argument("--render", action="store_true",
                        help="rewrite results.md from results.json (no timing)")
    parser.add_argument("--no-compile-times", action="store_true",
                        help="skip measuring numba compilation and cache-load times")
    parser.add_argument("--out", default=os.path.join(HERE, "results.md"))
    parser.add_argument("--json", default=os.path.join(HERE, "results.json"))
    parser.add_argument("--before", default=os.path.join(HERE, "before.json"),
                        help="results.json of an earlier run, beside the targets")
    parser.add_argument("--source", default=None,
                        help="the checkout whose liedyn is timed (default: this one)")
    args = parser.parse_args(argv)
    args.states = 500 if args.quick else 10_000
    args.repeats = 5 if args.quick else 15
    args.batch_repeats = 1 if args.quick else BATCH_REPEATS
    args.mr_states = 5 if args.quick else 100
    args.mr_repeats = 3 if args.quick else 5
    args.mr_budget = 0.5 if args.quick else 4.0      # seconds per modern_robotics loop
    return args


def main(argv=None):
    args = parse(argv)
    if args.compile_probe:
        print(json.dumps(compile_probe(args.compile_probe)))
    elif args.overhead:
        overhead_only()
    elif args.render:
        render(args)
    elif args.profile:
        print(profile_rnea_panda())
    else:
        run(args)


def before(args):
    """The machine and rows of the earlier run, or ``None``."""
    if not args.before or not os.path.exists(args.before):
        return None
    with open(args.before) as f:
        return json.load(f)


def run(args):
    info = report.machine_info(pin, liedyn)
    print("machine:", json.dumps(info))
    t_start = time.perf_counter()
    rng = np.random.default_rng(2012)
    rows = []
    cases = make_cases()
    warm_up(cases[0], 1.0 if args.quick else WARM_UP_S)
    for case in cases:
        print(f"{case.label}: nq={case.model.nq}, nv={case.model.nv}", flush=True)
        check_agreement(case, rng)
        rows += time_case(case, args, rng)
    compiled = (compile_times(args.quick) if jit.ENABLED and not args.no_compile_times
                else None)
    total = time.perf_counter() - t_start
    text = report.markdown(rows, info, args, jit.ENABLED, before(args))
    if compiled:
        text += report.compile_markdown(compiled)
    with open(args.out, "w") as f:
        f.write(text)
    with open(args.json, "w") as f:
        json.dump({"machine": info, "quick": args.quick, "states": args.states,
                   "batch_repeats": args.batch_repeats, "seconds": total,
                   "rows": rows, "compiled": jit.ENABLED, "numba": compiled},
                  f, indent=1)
    print(text)
    print(f"total {total:.0f} s; wrote {args.out} and {args.json}")


if __name__ == "__main__":
    main()
