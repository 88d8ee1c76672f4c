"""Which way an algorithm runs: the compiled engine, or the reference.

The public functions (:func:`liedyn.inverse_dynamics.rnea`,
:func:`liedyn.crba.mass_matrix`, :func:`liedyn.forward_dynamics.aba`,
:func:`liedyn.hybrid_dynamics.hybrid` and the partials) call the functions here
first. For float64 or complex128 input, with numba installed and enabled, they run
the compiled drivers of :mod:`liedyn.engine.drivers`, looping over the leading
batch dimensions flattened into one. Everything else returns ``None``: another dtype
(sympy objects, integers), numba absent or disabled, a joint type without a kernel
(a user's own subclass), a model with complex or symbolic parameters, and any input
the compiled checks refuse. The public function then runs its reference
implementation, which computes the same result or raises the clear error naming
the argument: one place says each error message.
"""
import math

import numpy as np

from .. import _checks
from . import jit as _jit
from . import drivers as K
from .. import joints as J

__all__ = ["flat_model", "use_kernels", "rnea", "mass_matrix", "aba", "hybrid",
           "inverse_mass_matrix", "rnea_partials", "aba_partials"]

_CODES = {J.Fixed: K.FIXED, J.Revolute: K.REVOLUTE, J.Prismatic: K.PRISMATIC,
          J.Helical: K.HELICAL, J.Screw: K.SCREW, J.Universal: K.UNIVERSAL,
          J.Planar: K.PLANAR, J.Spherical: K.SPHERICAL,
          J.SphericalZYX: K.SPHERICAL_ZYX, J.SphericalExp: K.SPHERICAL_EXP,
          J.Free: K.FREE}


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
    """The arrays the kernels read, built once and cached on the model.

    Returns ``(topo, body, no_f_ext)``: ``topo`` (N+1, 5) int64 with the parent,
    joint code and the offsets and sizes of each body's coordinates (row 0: -1, 0,
    ``nq``, ``nv``, 0); ``body`` (N+1, 66) with joint parameters, placement ``X_i``,
    inertia ``I_i`` and armature (row 0: ``dV_0 = (0, -g)``); zero external
    wrenches (N, 6).
    ``None`` if some joint has no kernel or some inertia or placement is not real
    (then the reference implementation runs). The model's edits drop the cache
    (:func:`liedyn.model.edited`): ``model.inertias[i] = ...`` rebuilds it (the
    model's arrays are read-only, so nothing is edited in place).
    """
    if not _KERNELS[0]:
        return None
    flat = model.__dict__.get("_flat", _MISSING)
    if flat is _MISSING:
        flat = model.__dict__["_flat"] = _flatten(model)
    return flat


_MISSING = object()


def _flatten(model):
    N = model.nbodies
    if any(type(j) not in _CODES for j in model.joints[1:]):
        return None
    if any(
        np.asarray(x).dtype.kind != "f" for x in model.inertias + model.placements):
        return None           # complex or symbolic model parameters: reference path
    topo = np.zeros((N + 1, 5), dtype=np.int64)
    body = np.zeros((N + 1, K.BODY_COLUMNS))
    for i in range(1, N + 1):
        j = model.joints[i]
        topo[i] = (model.parent[i], _CODES[type(j)], model.q_slice[i].start,
                   model.v_slice[i].start, j.nv)
        X = np.asarray(model.placements[i], dtype=float)
        body[i, K.PAR:K.PAR + 12] = _joint_parameters(j)
        body[i, K.RX:K.RX + 9] = X[:3, :3].ravel()
        body[i, K.PX:K.PX + 3] = X[:3, 3]
        I = np.asarray(model.inertias[i], dtype=float)
        body[i, K.INERTIA:K.INERTIA + 36] = I.ravel()
        body[i, K.ARM:K.ARM + j.nv] = model.armature[model.v_slice[i]]
    topo[0, K.PARENT], topo[0, K.QI], topo[0, K.VI] = -1, model.nq, model.nv
    body[0, 3:6] = -np.asarray(model.gravity, dtype=float)        # dV_0 = (0, -g)
    return topo, body, np.zeros((N, 6))


# --- preparing the input ------------------------------------------------------
_F64 = np.dtype(np.float64)
STATE, ALL = K.CHECK_STATE, K.CHECK_ALL     # the drivers' checks (f_ext or not)
_COMPILED_DTYPES = (_F64, np.dtype(np.complex128))


def _single(model, q, x, y):
    """The flattened model if it is cached and ``q``, ``x``, ``y`` look like one
    state of float64 vectors, else ``None``: the compiled driver is then called on
    them as they are, and numba's test of their types (C-contiguous, writable)
    refuses anything else with a ``TypeError`` (:class:`liedyn.engine.jit.Driver`).
    Their lengths and values are checked in compiled code
    (:func:`liedyn.engine.drivers.bad_input`). The fast path of every call."""
    if (_jit.ENABLED and _KERNELS[0] and q.ndim == x.ndim == y.ndim == 1
            and q.dtype is x.dtype is y.dtype is _F64):
        return model.__dict__.get("_flat")
    return None


def _as_batches(arrays, tails, dtype):
    """Every array as one state or ``B`` states flattened into its first axis
    (``(..., n)`` -> ``(B n,)``, ``(..., N, 6)`` -> ``(B N, 6)``), C-contiguous,
    writable, of ``dtype``. Returns ``(batch_shape, arrays)``, or ``None`` for a
    wrong shape."""
    batches = []
    for x, tail in zip(arrays, tails):
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
    for x, b, tail in zip(arrays, batches, tails):
        if b != batch and any(n != 1 for n in b):
            x, b = np.broadcast_to(x, batch + tail), batch
        x = x.reshape(((B if b == batch else 1) * tail[0],) + tail[1:])
        if x.dtype != dtype or not (x.flags.c_contiguous and x.flags.writeable):
            x = np.array(x, dtype=dtype)
        out.append(x)
    return batch, out


def _compiled_inputs(arrays, tails):
    """``(batch_shape, arrays)`` for a compiled driver (:func:`_as_batches`), all
    of one compiled dtype; ``None`` if numba is absent, or for another dtype or
    shape."""
    if not _jit.ENABLED:
        return None
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


# --- the algorithms -----------------------------------------------------------
# Each returns a finite result, or None: the public function then runs its
# reference implementation, which computes the same result or raises the clear
# error naming the argument.
def _flat_and_f_ext(model, f_ext):
    """``(topo, body, f_ext, check)`` for a driver, or ``None`` (no compiled engine,
    or a model it cannot run)."""
    flat = flat_model(model) if _jit.ENABLED else None
    if flat is None:
        return None
    topo, body, no_f_ext = flat
    fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
    return topo, body, fe, check


def _run(driver, model, arrays, tails, outputs, *extra):
    """``driver`` on ``arrays`` (state vectors and ``f_ext``) converted to one
    compiled dtype and flattened into batches: ``outputs`` arrays of shape
    ``batch + tail`` each, or ``None``."""
    prepared = _compiled_inputs(arrays, tails)
    if prepared is None:
        return None
    batch, arrays = prepared
    B = math.prod(batch)
    out = [np.zeros((B * tail[0],) + tail[1:], arrays[0].dtype) for tail in outputs]
    topo, body, check = extra[0], extra[1], extra[-1]
    if driver.run(topo, body, *arrays, *extra[2:-1], *out, check):
        return None
    return [x.reshape(batch + tail) for x, tail in zip(out, outputs)]


def rnea(model, q, dq, ddq, f_ext=None):
    """``tau`` by the compiled kernels (Kim (2012), Table 2), or ``None``."""
    try:                                                # the common case first
        flat = _single(model, q, dq, ddq)
        if flat is not None:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            tau = np.empty(model.nv)
            bad = K.rnea_loop.fast(topo, body, q, dq, ddq, fe, tau, check)
            return None if bad else tau
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    prepared = _flat_and_f_ext(model, f_ext)
    if prepared is None:
        return None
    topo, body, fe, check = prepared
    nv = model.nv
    out = _run(K.rnea_loop, model, (q, dq, ddq, fe),
               ((model.nq,), (nv,), (nv,), (model.nbodies, 6)), [(nv,)],
               topo, body, check)
    return None if out is None else out[0]


def mass_matrix(model, q):
    """``M(q)`` by the compiled kernels (composite-rigid-body algorithm), or
    ``None``."""
    nv = model.nv
    try:                                                # the common case first
        flat = _single(model, q, q, q)                  # (q is the whole state)
        if flat is not None:
            M = np.zeros((nv, nv))
            return None if K.crba_loop.fast(flat[0], flat[1], q, M, ALL) else M
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    prepared = _flat_and_f_ext(model, None)
    if prepared is None:
        return None
    out = _run(K.crba_loop, model, (q,), ((model.nq,),), [(nv, nv)],
               prepared[0], prepared[1], ALL)
    return None if out is None else out[0]


def aba(model, q, dq, tau, f_ext=None):
    """``ddq`` by the compiled kernels (Kim (2012), Table 3), or ``None``; the
    drivers also refuse chart singularities (:meth:`Model.check_chart`)."""
    try:                                                # the common case first
        flat = _single(model, q, dq, tau)
        if flat is not None:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            ddq = np.empty(model.nv)
            bad = K.aba_loop.fast(topo, body, q, dq, tau, fe, ddq, check)
            return None if bad else ddq
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    prepared = _flat_and_f_ext(model, f_ext)
    if prepared is None:
        return None
    topo, body, fe, check = prepared
    nv = model.nv
    out = _run(K.aba_loop, model, (q, dq, tau, fe),
               ((model.nq,), (nv,), (nv,), (model.nbodies, 6)), [(nv,)],
               topo, body, check)
    return None if out is None else out[0]


def hybrid(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """``(tau_out, ddq_out)`` by the compiled kernels (Kim (2012), Table 4), or
    ``None``. ``prescribed`` has N booleans, one per joint. The drivers refuse
    chart singularities of any joint (also prescribed ones, which the reference
    path accepts)."""
    try:                                                # the common case first
        flat = _single(model, q, dq, tau)
        if flat is not None and ddq.ndim == 1 and ddq.dtype is _F64:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            out = np.empty(model.nv), np.empty(model.nv)
            bad = K.hybrid_loop.fast(topo, body, q, dq, ddq, tau, fe, prescribed,
                                     *out, check)
            return None if bad else out
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    prepared = _flat_and_f_ext(model, f_ext)
    if prepared is None:
        return None
    topo, body, fe, check = prepared
    N, nv = model.nbodies, model.nv
    mask = np.array(_checks.booleans("prescribed", prescribed, N, "one per joint"))
    out = _run(K.hybrid_loop, model, (q, dq, ddq, tau, fe),
               ((model.nq,), (nv,), (nv,), (nv,), (N, 6)), [(nv,), (nv,)],
               topo, body, mask, check)
    return None if out is None else tuple(out)


def inverse_mass_matrix(model, q):
    """``M(q)^-1`` by the compiled articulated-body algorithm, or ``None``: column
    ``k`` is ``aba(q, 0, e_k)`` without gravity, the ``nv`` columns of each state a
    batch of the driver."""
    prepared = _flat_and_f_ext(model, None)
    if prepared is None:
        return None
    topo, body = prepared[:2]
    inputs = _compiled_inputs((q,), ((model.nq,),))
    if inputs is None:
        return None
    batch, (q,) = inputs
    B, nv, dt = math.prod(batch), model.nv, q.dtype
    if B > 1:                                   # each state, once per column
        q = np.repeat(q.reshape(B, model.nq), nv, axis=0).reshape(-1)
    weightless = body.copy()
    weightless[0, :6] = 0.0                             # dV_0 = 0: no gravity
    E = np.tile(np.eye(nv, dtype=dt), (B, 1)).reshape(-1)
    cols = np.empty(B * nv * nv, dt)
    if K.aba_loop.run(topo, weightless, q, np.zeros(nv, dt), E,
                      np.zeros((model.nbodies, 6), dt), cols, STATE):
        return None
    return np.swapaxes(cols.reshape(batch + (nv, nv)), -1, -2)


def rnea_partials(model, q, dq, ddq, f_ext=None):
    """``(dtau/dq, dtau/d(dq), M)`` by the compiled kernels: Kim (2012), Table 5
    along the ``nv`` unit directions of ``q`` and of ``dq`` at once, in the ground
    frame (:func:`liedyn.engine.kernels.rnea_partials_state`), and ``M``; or
    ``None`` (and for joints whose ``S`` depends on ``q``: Table 5 on numpy
    arrays then runs, whose expressions chapter 10 prints)."""
    return _partials(K.rnea_partials_loop, model, q, dq, ddq, f_ext)


def aba_partials(model, q, dq, tau, f_ext=None):
    """``(d ddq/dq, d ddq/d(dq), M^-1)`` by the compiled kernels, or ``None``:
    ``ddq`` by ABA (Kim (2012), Table 3), the Table 5 partials of ``tau`` and ``M``
    at it (:func:`rnea_partials`), then per state ``M^-1`` by a Cholesky
    factorisation and ``d ddq/dx = -M^-1 dtau/dx``, all in one compiled call."""
    return _partials(K.aba_partials_loop, model, q, dq, tau, f_ext)


def _partials(driver, model, q, x, y, f_ext):
    """Three (nv, nv) matrices per state from a compiled partials driver, or
    ``None``."""
    prepared = _flat_and_f_ext(model, f_ext)
    if prepared is None:
        return None
    topo, body, fe, check = prepared
    N, nv = model.nbodies, model.nv
    try:                                                # the common case first
        if _single(model, q, x, y) is not None:
            out = [np.zeros((nv, nv)) for _ in range(3)]
            bad = driver.fast(topo, body, q, x, y, fe, *out, check)
            return None if bad else tuple(out)
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    out = _run(driver, model, (q, x, y, fe),
               ((model.nq,), (nv,), (nv,), (N, 6)), [(nv, nv)] * 3,
               topo, body, check)
    return None if out is None else tuple(out)
