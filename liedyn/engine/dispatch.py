"""Which way an algorithm runs: the compiled engine, or the reference; and on how
many cores.

The public functions (:func:`liedyn.inverse_dynamics.rnea`,
:func:`liedyn.crba.mass_matrix`, :func:`liedyn.forward_dynamics.aba`,
:func:`liedyn.hybrid_dynamics.hybrid` and the partials) call the functions here
first. For float64 or complex128 input, with numba installed and enabled, they run
the compiled drivers of :mod:`liedyn.engine.drivers` on the leading batch
dimensions flattened into one, all through one helper (:func:`run`). Everything
else returns ``None``: another dtype (sympy objects, integers), numba absent or
disabled, a joint type without a kernel (a user's own subclass), a model with
complex or symbolic parameters, and any input the compiled checks refuse. The
public function then runs its reference implementation, which computes the same
result or raises the clear error naming the argument: one place says each error
message.

A batch large enough to gain runs on several threads (:func:`set_num_threads`), each
a driver on its share of the states: the drivers release the GIL.
"""
from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import _checks
from .. import joints as J
from . import drivers as K
from . import jit as _jit
from . import one_state as _one_state
from . import spatial as L
from .spatial import (
    ARM,
    BODY_COLUMNS,
    CHARTS,
    INERTIA,
    JOINT,
    PAR,
    PARENT,
    PX,
    QI,
    QUATERNIONS,
    RX,
    TOPO_COLUMNS,
    VARYING_S,
    VI,
)

__all__ = ["flat_model", "use_kernels", "work", "one_state", "run", "rnea",
           "mass_matrix", "aba", "hybrid", "inverse_mass_matrix", "rnea_partials",
           "aba_partials", "set_num_threads", "get_num_threads"]

_CODES = {J.Fixed: L.FIXED, J.Revolute: L.REVOLUTE, J.Prismatic: L.PRISMATIC,
          J.Helical: L.HELICAL, J.Screw: L.SCREW, J.Universal: L.UNIVERSAL,
          J.Planar: L.PLANAR, J.Spherical: L.SPHERICAL,
          J.SphericalZYX: L.SPHERICAL_ZYX, J.SphericalExp: L.SPHERICAL_EXP,
          J.Free: L.FREE}
_FLAGS = {J.Spherical: QUATERNIONS, J.Free: QUATERNIONS,
          J.SphericalZYX: CHARTS | VARYING_S, J.SphericalExp: CHARTS | VARYING_S,
          J.Universal: VARYING_S, J.Planar: VARYING_S}


def _joint_parameters(joint):
    """The joint's entries of the ``body`` array: axes ``a`` (0-2), ``b`` (3-5),
    ``k`` (6), pitch (7)."""
    par = np.zeros(12)
    if isinstance(joint, (J.Revolute, J.Helical)):
        par[0:3] = joint.axis
    if isinstance(joint, J.Helical):
        par[7] = joint.pitch
    if isinstance(joint, J.Prismatic):
        par[3:6] = joint.axis
    if isinstance(joint, J.Universal):
        par[0:3], par[3:6] = joint.axis1, joint.axis2
    if isinstance(joint, J.Screw):
        k = np.linalg.norm(joint.screw[:3])
        if k < 1e-12:
            par[3:6] = joint.screw[3:]
        else:
            par[0:3], par[3:6], par[6] = joint.screw[:3] / k, joint.screw[3:] / k, k
    return par


_KERNELS = [True]


def use_kernels(on):
    """Switch the kernels off (``False``) or on again: off, the public functions run
    their numpy reference implementations, the code the chapters list (e.g. to time
    one algorithm against another on equal terms)."""
    _KERNELS[0] = bool(on)


def flat_model(model):
    """The arrays the kernels read, built once and cached on the model
    (:attr:`liedyn.model.Model.flat_model`).

    Returns ``(topo, body, no_f_ext, spare)``: ``topo`` (N+1, 6) int64 with the
    parent, joint code, the offsets of each body's coordinates and its ``nv`` and
    ``nq`` (row 0: -1, what the model holds (quaternions, charts with singular
    sets, joints whose ``S`` depends on ``q``: the flags of
    :mod:`liedyn.engine.spatial`, which let the checks skip what a model lacks),
    ``nq``, ``nv``, 0, 0); ``body`` (N+1, 66) with joint parameters, placement
    ``X_i``, inertia ``I_i`` and armature (row 0: ``dV_0 = (0, -g)``); zero external
    wrenches (N, 6); the drivers' scratch memory for one float64 state that no call
    is using (a list of arrays, :func:`work`: each call takes one and puts it back).
    ``None`` if some joint has no kernel or some inertia or placement is not real
    (then the reference implementation runs). The model's edits drop the cache
    (:func:`liedyn.model.edited`): ``model.inertias[i] = ...`` rebuilds it (the
    model's arrays are read-only, so nothing is edited in place).
    """
    if not _KERNELS[0]:
        return None
    if model.flat_model is None:                # cached on the model, () if none
        model.flat_model = _flatten(model) or ()
    return model.flat_model or None


def _flatten(model):
    N = model.nbodies
    if any(type(j) not in _CODES for j in model.joints[1:]):
        return None
    if any(
        np.asarray(x).dtype.kind != "f" for x in model.inertias + model.placements):
        return None           # complex or symbolic model parameters: reference path
    topo = np.zeros((N + 1, TOPO_COLUMNS), dtype=np.int64)
    body = np.zeros((N + 1, BODY_COLUMNS))
    flags = 0
    for i in range(1, N + 1):
        j = model.joints[i]
        topo[i] = (model.parent[i], _CODES[type(j)], model.q_slice[i].start,
                   model.v_slice[i].start, j.nv, j.nq)
        flags |= _FLAGS.get(type(j), 0)
        X = np.asarray(model.placements[i], dtype=float)
        body[i, PAR:PAR + 12] = _joint_parameters(j)
        body[i, RX:RX + 9] = X[:3, :3].ravel()
        body[i, PX:PX + 3] = X[:3, 3]
        I = np.asarray(model.inertias[i], dtype=float)
        body[i, INERTIA:INERTIA + 36] = I.ravel()
        body[i, ARM:ARM + j.nv] = model.armature[model.v_slice[i]]
    topo[0, PARENT], topo[0, JOINT] = -1, flags
    topo[0, QI], topo[0, VI] = model.nq, model.nv
    body[0, 3:6] = -np.asarray(model.gravity, dtype=float)        # dV_0 = (0, -g)
    return topo, body, np.zeros((N, 6)), []


def work(topo, dtype, engine=K):
    """The scratch memory of a driver of ``engine`` (the drivers' module of the
    engine of chunks, or of the engine for one state): its
    :func:`~liedyn.engine.drivers.work_length` numbers of ``dtype``, starting on a
    cache line (numpy starts an array on a multiple of 16 bytes)."""
    n, size = engine.work_length(topo), np.dtype(dtype).itemsize
    raw = np.empty(n + K.LINE // size, dtype)
    start = -raw.ctypes.data % K.LINE // size
    return raw[start:start + n]


def one_state(driver):
    """``driver``'s twin in the engine for one state (:mod:`.one_state`), which
    every batch of one state runs: the same source compiled for chunks of one
    (found on first use, then kept as ``driver.twin``)."""
    if driver.twin is None:
        copy = vars(_one_state.drivers()).values()
        driver.twin = next(d for d in copy if isinstance(d, _jit.Driver)
                           and d.f.__name__ == driver.f.__name__)
    return driver.twin


# --- threads ----------------------------------------------------------------------
def _default_threads():
    """``LIEDYN_NUM_THREADS`` if set, else every core this process may use."""
    value = os.environ.get("LIEDYN_NUM_THREADS", "").strip()
    if value:
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n < 1:
            raise ValueError("environment variable LIEDYN_NUM_THREADS: expected a "
                             f"positive integer, got {value!r}")
        return n
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                                   # pragma: no cover
        return os.cpu_count() or 1


_THREADS: list[int | None] = [None]   # set_num_threads; None: _default_threads()
_POOL = [None, 0]           # the executor and its number of workers
_WORK_PER_THREAD = 4096     # body-states a thread must get for threads to gain


def set_num_threads(n: int | None = None) -> int:
    """Set the number of threads the compiled engine uses for a large batch.

    A batch of many states (``q`` of shape (..., nq)) is split into as many shares
    as threads, each computed by the compiled code while the others run: every core
    works. A small batch (below a few thousand bodies times states per thread) and
    a single state stay on the calling thread, where threads would cost more than
    they gain. By default the number is the environment variable
    ``LIEDYN_NUM_THREADS``, else the number of cores this process may use; ``1``
    keeps every call on one core. ``None`` restores the default.

    Parameters
    ----------
    n : int >= 1 or None

    Returns
    -------
    int
        the number of threads used from now on

    Examples
    --------
    >>> import liedyn as ld
    >>> before = ld.get_num_threads()
    >>> ld.set_num_threads(1)         # every call on the calling thread
    1
    >>> ld.set_num_threads(None) == before
    True
    """
    if n is not None:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ValueError(f"argument 'n': expected a positive integer or None, "
                             f"got {n!r}")
        n = int(n)
    _THREADS[0] = n
    return get_num_threads()


def get_num_threads() -> int:
    """The number of threads the compiled engine uses for a large batch
    (:func:`set_num_threads`).

    >>> import liedyn as ld
    >>> ld.get_num_threads() >= 1
    True
    """
    n = _THREADS[0]
    return _default_threads() if n is None else n


def _threads_for(B, N):
    """How many threads ``B`` states of ``N`` bodies get."""
    threads = get_num_threads()
    if threads == 1:
        return 1
    return max(1, min(threads, B * max(N, 1) // _WORK_PER_THREAD, B))


def _pool(workers):
    if _POOL[1] < workers:
        if _POOL[0] is not None:
            _POOL[0].shutdown(wait=False)
        _POOL[0], _POOL[1] = ThreadPoolExecutor(
            workers, thread_name_prefix="liedyn"), workers
    return _POOL[0]


def _in_threads(driver, engine, model, B, args, lengths, check):
    """``driver`` of ``engine`` on ``args`` (whose ``lengths`` are the rows of one
    state; ``0``: not per state), in as many threads as :func:`_threads_for` gives,
    each with its own scratch memory (:func:`work`); the worst status of the
    shares."""
    T = _threads_for(B, model.nbodies)
    works = [work(args[0], args[-1].dtype, engine) for _ in range(T)]
    compiled = driver.compiled(args + (works[0], check))
    if T == 1:
        return compiled(*args, works[0], check)
    bounds = [B * t // T for t in range(T + 1)]

    def share(t):
        a, b = bounds[t], bounds[t + 1]
        return compiled(*(x if n == 0 or x.shape[0] == n else x[a * n:b * n]
                          for x, n in zip(args, lengths, strict=True)),
                        works[t], check)
    futures = [_pool(T - 1).submit(share, t) for t in range(1, T)]
    status = [share(0)] + [f.result() for f in futures]
    return max(status)


# --- preparing the input ----------------------------------------------------------
_F64 = np.dtype(np.float64)
STATE, ALL = K.CHECK_STATE, K.CHECK_ALL     # the drivers' checks (f_ext or not)
_COMPILED_DTYPES = (_F64, np.dtype(np.complex128))


def _as_batches(arrays, tails, dtype):
    """Every array as one state or ``B`` states flattened into its first axis
    (``(..., n)`` -> ``(B n,)``, ``(..., N, 6)`` -> ``(B N, 6)``), C-contiguous,
    writable, of ``dtype``. Returns ``(batch_shape, arrays)``, or ``None`` for a
    wrong shape."""
    batches = []
    for x, tail in zip(arrays, tails, strict=True):
        k = len(tail)
        if x.ndim < k or x.shape[x.ndim - k:] != tail:
            return None
        batches.append(x.shape[:x.ndim - k])
    try:
        batch = batches[0] if all(b == batches[0] for b in batches) else \
            np.broadcast_shapes(*batches)
    except ValueError:
        return None
    B = math.prod(batch)
    out = []
    for x, b, tail in zip(arrays, batches, tails, strict=True):
        if b != batch and any(n != 1 for n in b):
            x, b = np.broadcast_to(x, batch + tail), batch
        x = x.reshape(((B if b == batch else 1) * tail[0],) + tail[1:])
        if x.dtype != dtype or not (x.flags.c_contiguous and x.flags.writeable):
            x = np.array(x, dtype=dtype)
        out.append(x)
    return batch, out


def _compiled_inputs(arrays, tails):
    """``(batch_shape, arrays)`` for a compiled driver (:func:`_as_batches`), all
    of one compiled dtype; ``None`` for another dtype or shape."""
    try:
        arrays = [x if type(x) is np.ndarray else np.asarray(x) for x in arrays]
    except (TypeError, ValueError):         # ragged or odd: the reference path says
        return None
    # bool, str, object: refused there
    if any(x.dtype.kind not in "iufc" for x in arrays):
        return None
    if all(x.dtype == _F64 for x in arrays):
        dtype = _F64
    else:
        dtype = np.result_type(float, *arrays)
    if dtype not in _COMPILED_DTYPES:
        return None
    return _as_batches(arrays, tails, dtype)


# --- the one way through the engine -----------------------------------------------
VECTOR, VECTORS, MATRICES = ("v",), ("v", "v"), ("vv", "vv", "vv")
"""The outputs of the drivers: a vector of ``nv`` (..., nv), two, or three (nv, nv)
matrices (..., nv, nv)."""


def _empty(outputs, nv, batch=1, dtype=_F64):
    """The output arrays of ``batch`` states, as the drivers take them."""
    n = batch * nv
    arrays = []
    for o in outputs:
        arrays.append(np.empty((n,) if o == "v" else (n, nv), dtype))
    return tuple(arrays)


def _into(out, outputs, nv, batch, dtype, inputs):
    """The arrays of ``out`` (the caller's, for the driver's ``outputs``) as the
    driver writes them ((B nv,) or (B nv, nv) views), or ``None`` unless each is a
    C-contiguous writable array of shape ``batch + (nv,)`` or ``batch + (nv, nv)``
    and of ``dtype``, sharing memory with no other and with none of the arrays
    among ``inputs``: then the reference path computes the result and copies it or
    says what is wrong (:func:`liedyn._checks.outputs`)."""
    if not isinstance(out, (tuple, list)) or len(out) != len(outputs):
        return None
    inputs = [x for x in inputs if isinstance(x, np.ndarray)]
    views = []
    for k, (x, o) in enumerate(zip(out, outputs, strict=True)):
        shape = batch + ((nv,) if o == "v" else (nv, nv))
        if not (type(x) is np.ndarray and x.shape == shape and x.dtype == dtype
                and x.flags.c_contiguous and x.flags.writeable) or any(
                    np.may_share_memory(x, y) for y in list(out[:k]) + inputs):
            return None
        views.append(x.reshape((-1,) + shape[len(batch) + 1:]))
    return tuple(views)


def run(driver, model, states, outputs, f_ext=None, extra=(), wrenches=True,
        body=None, out=None):
    """``driver`` (:mod:`liedyn.engine.drivers`) on the state arrays ``states``
    (``q`` first, then vectors of ``nv``), with ``f_ext`` if the driver takes
    wrenches and the arrays ``extra`` (one for the whole batch) after them; returns
    its ``outputs`` (:data:`VECTOR`, :data:`VECTORS`, :data:`MATRICES`) as a tuple,
    or ``None`` (no compiled engine, a model or an input it cannot run, a refusal of
    the checks). ``body`` replaces the flattened model's ``body`` (e.g. without
    gravity). ``out``: the caller's arrays to write the outputs into (and to
    return), if the driver can (:func:`_into`); else ``None`` is returned.

    One state of float64 vectors is the common case and goes straight to the
    compiled code: numba's test of the argument types (C-contiguous, writable,
    float64) refuses anything else with a ``TypeError`` (a ``ValueError`` for an
    empty list) (:class:`liedyn.engine.jit.Driver`), and the general path converts
    it. A batch of one state runs the driver's twin of the engine for one state
    (:func:`one_state`), larger batches the engine of chunks. The drivers' scratch
    memory (:func:`work`) of one float64 state is kept with the flattened model and
    used again; a batch gets its own.
    """
    flat = model.flat_model if _KERNELS[0] and _jit.ENABLED else None
    if flat and body is None:              # one state of float64 numbers?
        topo, body0, zeros, spare = flat
        if out is None:
            into = (np.empty(model.nv),) if outputs is VECTOR else _empty(
                outputs, model.nv)
        else:
            into = _into(out, outputs, model.nv, (), _F64, states + (f_ext,))
        if into is not None:
            wrench = (zeros if f_ext is None else f_ext,) if wrenches else ()
            try:
                scratch = spare.pop()      # one that no other call is using
            except IndexError:
                scratch = work(topo, _F64, _one_state.drivers())
            try:
                status = (driver.twin or one_state(driver)).fast(
                    topo, body0, *states, *wrench, *extra, *into, scratch,
                    STATE if f_ext is None else ALL)
            except (TypeError, ValueError):    # not numba's types: converted below
                pass
            else:
                return None if status else (into if out is None else tuple(out))
            finally:
                spare.append(scratch)
    flat = flat_model(model) if _jit.ENABLED else None
    if flat is None:
        return None
    topo, body0, zeros, _ = flat
    N, nq, nv = model.nbodies, model.nq, model.nv
    tails = [(nq,)] + [(nv,)] * (len(states) - 1)
    arrays = list(states)
    if wrenches:
        arrays.append(zeros if f_ext is None else f_ext)
        tails.append((N, 6))
    prepared = _compiled_inputs(arrays, tails)
    if prepared is None:
        return None
    batch, arrays = prepared
    B = math.prod(batch)
    engine = K
    if B == 1:
        driver, engine = one_state(driver), _one_state.drivers()
    if out is None:
        into = _empty(outputs, nv, B, arrays[0].dtype)
    else:
        into = _into(out, outputs, nv, batch, arrays[0].dtype, states + (f_ext,))
        if into is None:
            return None
    args = (topo, body0 if body is None else body, *arrays, *extra, *into)
    lengths = [0, 0, nq] + [nv] * (len(states) - 1) + [N] * wrenches
    lengths += [0] * len(extra) + [nv] * len(into)
    check = STATE if f_ext is None else ALL
    if _in_threads(driver, engine, model, B, args, lengths, check):
        return None
    if out is not None:
        return tuple(out)
    return tuple(x.reshape(batch + ((nv,) if o == "v" else (nv, nv)))
                 for x, o in zip(into, outputs, strict=True))


def rnea(model, q, dq, ddq, f_ext=None):
    """``tau`` by the compiled kernels (Kim (2012), Table 2), or ``None``."""
    out = run(K.rnea_loop, model, (q, dq, ddq), VECTOR, f_ext)
    return None if out is None else out[0]


def mass_matrix(model, q):
    """``M(q)`` by the compiled kernels (composite-rigid-body algorithm), or
    ``None``."""
    out = run(K.crba_loop, model, (q,), MATRICES[:1], wrenches=False)
    return None if out is None else out[0]


def aba(model, q, dq, tau, f_ext=None):
    """``ddq`` by the compiled kernels (Kim (2012), Table 3), or ``None``; the
    drivers also refuse chart singularities (:meth:`Model.check_chart`)."""
    out = run(K.aba_loop, model, (q, dq, tau), VECTOR, f_ext)
    return None if out is None else out[0]


def hybrid(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """``(tau_out, ddq_out)`` by the compiled kernels (Kim (2012), Table 4), or
    ``None``. ``prescribed`` has N booleans, one per joint. The drivers refuse
    chart singularities of any joint (also prescribed ones, which the reference
    path accepts)."""
    if not (type(prescribed) is np.ndarray and prescribed.dtype == bool):
        prescribed = _checks.booleans("prescribed", prescribed, model.nbodies,
                                      "one per joint")
    out = run(K.hybrid_loop, model, (q, dq, ddq, tau), VECTORS, f_ext,
              (np.ascontiguousarray(prescribed),))
    return out


def inverse_mass_matrix(model, q):
    """``M(q)^-1`` by the compiled articulated-body algorithm, or ``None``: column
    ``k`` is ``aba(q, 0, e_k)`` without gravity, the ``nv`` columns of each state a
    batch of the driver."""
    flat = flat_model(model) if _jit.ENABLED else None
    if flat is None:
        return None
    inputs = _compiled_inputs((q,), ((model.nq,),))
    if inputs is None:
        return None
    batch, (q,) = inputs
    nv, dt = model.nv, q.dtype
    B = math.prod(batch)
    q = np.repeat(q.reshape(B, model.nq), nv, axis=0)   # each state, per column
    weightless = flat[1].copy()
    weightless[0, :6] = 0.0                             # dV_0 = 0: no gravity
    E = np.broadcast_to(np.eye(nv, dtype=dt), (B, nv, nv))
    out = run(K.aba_loop, model, (q, np.zeros(nv, dt), E.reshape(-1, nv)), VECTOR,
              body=weightless)
    if out is None:
        return None
    return np.swapaxes(out[0].reshape(batch + (nv, nv)), -1, -2)


def rnea_partials(model, q, dq, ddq, f_ext=None, out=None):
    """``(dtau/dq, dtau/d(dq), M)`` by the compiled kernels: Kim (2012), Table 5
    along the ``nv`` unit directions of ``q`` and of ``dq`` at once, in the ground
    frame (:func:`liedyn.engine.kernels.rnea_partials_chunk`), and ``M``; or
    ``None`` (and for joints whose ``S`` depends on ``q``: Table 5 on numpy
    arrays then runs, whose expressions chapter 10 prints)."""
    return run(K.rnea_partials_loop, model, (q, dq, ddq), MATRICES, f_ext,
               out=out)


def aba_partials(model, q, dq, tau, f_ext=None, out=None):
    """``(d ddq/dq, d ddq/d(dq), M^-1)`` by the compiled kernels, or ``None``:
    ``ddq`` by ABA (Kim (2012), Table 3), the Table 5 partials of ``tau`` and ``M``
    at it (:func:`rnea_partials`), then ``M^-1`` and ``d ddq/dx = -M^-1 dtau/dx`` by
    the sparse factor ``M = L^T D L``, all in one compiled call."""
    return run(K.aba_partials_loop, model, (q, dq, tau), MATRICES, f_ext,
               out=out)
