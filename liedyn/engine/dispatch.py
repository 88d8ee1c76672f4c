"""The three executors of the per-state kernels in :mod:`liedyn.engine.kernels`.

The public functions (:func:`liedyn.inverse_dynamics.rnea`,
:func:`liedyn.crba.mass_matrix`, :func:`liedyn.forward_dynamics.aba`) call the
functions here, which pick how to run the one source:

* float64 / complex128 input and numba available: the compiled drivers, looping over
  the leading batch dimensions flattened into one;
* other numeric input, or numba absent or disabled
(:data:`liedyn.engine.jit.ENABLED`):
  plain Python, on numpy arrays holding one component over the whole batch (batch on
  the last axis; the model's exact zeros and ones fold away,
  :mod:`liedyn.engine.exact`), or on Python numbers for a single state;
* sympy (object) input: plain Python on the expressions.

Each returns ``None`` when it cannot handle a case (a joint type the kernels do not
know, such as a user's own subclass of a joint, or input that the compiled checks
reject); the public function then runs its
reference implementation, which computes the same result or raises the clear error
naming the argument.
"""
import math

import numpy as np

from .. import _checks
from . import exact as _exact, jit as _jit
from . import kernels as K
from .. import joints as J
from ..model import state

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
    ``nq``, ``nv``, 0); ``body`` (N+1, 60) with joint parameters, placement ``X_i``
    and inertia ``I_i`` (row 0: ``dV_0 = (0, -g)``); zero external wrenches (N, 6).
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
    refuses anything else with a ``TypeError`` (:func:`liedyn.engine.jit.compiled`).
    Their lengths and values are checked in compiled code
    (:func:`liedyn.engine.kernels.bad_input`). The fast path of every call: it costs
    about 0.2 us (issue 16)."""
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


def _plain(run, model, arrays, ws_shapes, out_len, batch, dtype, no_f_ext=False):
    """Run a per-state kernel in plain Python: ``run(body, inputs, workspaces,
    out)``.

    One state: on Python numbers (or sympy expressions). A batch: on numpy arrays
    holding one component over the whole batch, with the model's constants, the
    workspaces and, when ``no_f_ext``, the external wrenches (the last input) as
    exact constants that fold away (:mod:`liedyn.engine.exact`)."""
    body = flat_model(model)[1]
    if batch == ():
        arrays = [np.asarray(x).astype(object) for x in arrays]
        ws = tuple(np.zeros(s, dtype=object) for s in ws_shapes)
        out = np.zeros(out_len, dtype=object)
        with np.errstate(divide="ignore", invalid="ignore"):
            run(body, arrays, ws, out)
        return out if dtype == object else out.astype(dtype)
    B = math.prod(batch)
    arrays = [
        np.moveaxis(np.asarray(x).reshape((B,) + x.shape[len(batch) :]), 0, -1)
        for x in arrays]
    if no_f_ext:
        arrays[-1] = _exact.zeros(arrays[-1].shape[:-1])
    ws = tuple(_exact.zeros(s) for s in ws_shapes)
    out = _exact.zeros(out_len)
    with np.errstate(divide="ignore", invalid="ignore"):
        run(_constants(model, body), arrays, ws, out)
    out = _exact.numbers(out, B, dtype)
    return np.moveaxis(out, -1, 0).reshape(batch + out_len)


def _shapes(*workspaces):
    """The shapes of the kernels' own workspaces
    (``liedyn.engine.kernels.*_workspace``),
    for :func:`_plain`, which makes them of its own kind."""
    return tuple(w.shape for ws in workspaces for w in ws)


_LIKE = np.zeros(0)


def _constants(model, body):
    """The flattened model's ``body`` as exact constants, cached on the model."""
    view = model.__dict__.get("_flat_constants")
    if view is None:
        view = model.__dict__["_flat_constants"] = _exact.Constants(body)
    return view


# --- the algorithms -----------------------------------------------------------
# Each returns a finite result, or None: the public function then runs its
# reference path, which computes the same result or raises the clear error naming
# the argument.
def rnea(model, q, dq, ddq, f_ext=None):
    """``tau`` by the kernels (Kim (2012), Table 2), or ``None``."""
    try:                                                # the common case first
        flat = _single(model, q, dq, ddq)
        if flat is not None:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            tau = np.empty(model.nv)
            bad = K.rnea_loop(topo, body, q, dq, ddq, fe, tau, check)
            return None if bad else tau
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    flat = flat_model(model)
    if flat is None:
        return None
    topo, body, no_f_ext = flat
    fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
    N, nv = model.nbodies, model.nv
    tails = ((model.nq,), (nv,), (nv,), (N, 6))
    prepared = _compiled_inputs((q, dq, ddq, fe), tails)
    if prepared is not None:
        batch, (q, dq, ddq, fe) = prepared
        tau = np.empty(math.prod(batch) * nv, q.dtype)
        if _jit.run(K.rnea_loop, topo, body, q, dq, ddq, fe, tau, check):
            return None
        return tau.reshape(batch + (nv,))
    batch, dtype, q, dq, ddq, fe = state(model, q, dq, ddq, f_ext=f_ext)
    nb = N + 1
    ws = _shapes(K.rnea_workspace(nb, nv, _LIKE))
    g = body[0, :6].tolist()

    def run(body, a, w, out):
        K.rnea_state(topo, body, a[0], a[1], a[2], a[3], (g[:3], g[3:]), w, out)
    return _finite(_plain(run, model, (q, dq, ddq, fe), ws, (nv,), batch, dtype,
                          no_f_ext=f_ext is None))


def mass_matrix(model, q):
    """``M(q)`` by the kernels (composite-rigid-body algorithm), or ``None``."""
    nv = model.nv
    try:                                                # the common case first
        flat = _single(model, q, q, q)                  # (q is the whole state)
        if flat is not None:
            M = np.zeros((nv, nv))
            return None if K.crba_loop(flat[0], flat[1], q, M, ALL) else M
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    flat = flat_model(model)
    if flat is None:
        return None
    topo, body, _ = flat
    prepared = _compiled_inputs((q,), ((model.nq,),))
    if prepared is not None:
        batch, (q,) = prepared
        M = np.zeros((math.prod(batch) * nv, nv), dtype=q.dtype)
        if _jit.run(K.crba_loop, topo, body, q, M, ALL):
            return None
        return M.reshape(batch + (nv, nv))
    q = model.check_q(q)
    batch = q.shape[:-1]
    dtype = np.result_type(float, q)
    nb = model.nbodies + 1
    ws = ((nb, 3, 3), (nb, 3), (nv, 6), (nb, 6), (nb, 6, 6))

    def run(body, a, w, out):
        K.crba_state(topo, body, a[0], w, out)
    return _finite(_plain(run, model, (q,), ws, (nv, nv), batch, dtype))


def aba(model, q, dq, tau, f_ext=None):
    """``ddq`` by the kernels (Kim (2012), Table 3), or ``None``; the compiled
    drivers also refuse chart singularities (:meth:`Model.check_chart`)."""
    try:                                                # the common case first
        flat = _single(model, q, dq, tau)
        if flat is not None:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            ddq = np.empty(model.nv)
            bad = K.aba_loop(topo, body, q, dq, tau, fe, ddq, check)
            return None if bad else ddq
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    flat = flat_model(model)
    if flat is None:
        return None
    topo, body, no_f_ext = flat
    fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
    N, nv = model.nbodies, model.nv
    tails = ((model.nq,), (nv,), (nv,), (N, 6))
    prepared = _compiled_inputs((q, dq, tau, fe), tails)
    if prepared is not None:
        batch, (q, dq, tau, fe) = prepared
        ddq = np.empty(math.prod(batch) * nv, q.dtype)
        if _jit.run(K.aba_loop, topo, body, q, dq, tau, fe, ddq, check):
            return None
        return ddq.reshape(batch + (nv,))
    if model._charts:                                # as the public function does
        model.check_chart(model.check_q(q))
    batch, dtype, q, dq, tau, fe = state(model, q, dq, tau, f_ext=f_ext,
                                         names=("dq", "tau"))
    nb = N + 1
    ws = _shapes(K.aba_workspace(nb, nv, _LIKE))
    g = body[0, :6].tolist()

    def run(body, a, w, out):
        K.aba_state(topo, body, a[0], a[1], a[2], a[3], (g[:3], g[3:]), w, out)
    return _finite(_plain(run, model, (q, dq, tau, fe), ws, (nv,), batch, dtype,
                          no_f_ext=f_ext is None))


def hybrid(model, q, dq, ddq, tau, prescribed, f_ext=None):
    """``(tau_out, ddq_out)`` by the kernels (Kim (2012), Table 4), or ``None``.
    ``prescribed`` has N booleans, one per joint (a boolean array goes to numba as
    it is, its length checked there). The compiled drivers refuse chart
    singularities of any joint (also prescribed ones, which the reference path
    accepts)."""
    try:                                                # the common case first
        flat = _single(model, q, dq, tau)
        if flat is not None and ddq.ndim == 1 and ddq.dtype is _F64:
            topo, body, no_f_ext = flat
            fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
            out = np.empty(model.nv), np.empty(model.nv)
            bad = K.hybrid_loop(topo, body, q, dq, ddq, tau, fe, prescribed, *out,
                                check)
            return None if bad else out
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    N, nv = model.nbodies, model.nv
    flat = flat_model(model)
    if flat is None:
        return None
    topo, body, no_f_ext = flat
    mask = _checks.booleans("prescribed", prescribed, N, "one per joint")
    fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
    tails = ((model.nq,), (nv,), (nv,), (nv,), (N, 6))
    prepared = _compiled_inputs((q, dq, ddq, tau, fe), tails)
    if prepared is not None:
        batch, (q, dq, ddq, tau, fe) = prepared
        out = [np.empty(math.prod(batch) * nv, q.dtype) for _ in range(2)]
        mask = np.array(mask)                           # C-contiguous, writable
        if _jit.run(K.hybrid_loop, topo, body, q, dq, ddq, tau, fe, mask, *out,
                    check):
            return None
        return tuple(x.reshape(batch + (nv,)) for x in out)
    bodies = np.concatenate([[True], ~mask])               # as the reference path
    model.check_chart(model.check_q(q), bodies=bodies)
    batch, dtype, q, dq, ddq, tau, fe = state(model, q, dq, ddq, tau, f_ext=f_ext,
                                              names=("dq", "ddq", "tau"))
    nb = N + 1
    ws = _shapes(K.aba_workspace(nb, nv, _LIKE))
    g = body[0, :6].tolist()

    def run(body, a, w, out):
        K.hybrid_state(topo, body, a[0], a[1], a[2], a[3], a[4], mask,
                       (g[:3], g[3:]), w, out[0], out[1])
    out = _finite(_plain(run, model, (q, dq, ddq, tau, fe), ws, (2, nv), batch,
                         dtype, no_f_ext=f_ext is None))
    return None if out is None else (out[..., 0, :], out[..., 1, :])


def inverse_mass_matrix(model, q):
    """``M(q)^-1`` by the compiled articulated-body algorithm, or ``None``: column
    ``k`` is ``aba(q, 0, e_k)`` without gravity, the ``nv`` columns of each state a
    batch of the driver."""
    flat = flat_model(model)
    if flat is None or not _jit.ENABLED:
        return None
    topo, body, _ = flat
    prepared = _compiled_inputs((q,), ((model.nq,),))
    if prepared is None:
        return None
    batch, (q,) = prepared
    B, nv, dt = math.prod(batch), model.nv, q.dtype
    if B > 1:                                   # each state, once per column
        q = np.repeat(q.reshape(B, model.nq), nv, axis=0).reshape(-1)
    weightless = body.copy()
    weightless[0, :6] = 0.0                             # dV_0 = 0: no gravity
    E = np.tile(np.eye(nv, dtype=dt), (B, 1)).reshape(-1)
    cols = np.empty(B * nv * nv, dt)
    if _jit.run(K.aba_loop, topo, weightless, q, np.zeros(nv, dt), E,
                np.zeros((model.nbodies, 6), dt), cols, STATE):
        return None
    return np.swapaxes(cols.reshape(batch + (nv, nv)), -1, -2)


def rnea_partials(model, q, dq, ddq, f_ext=None):
    """``(dtau/dq, dtau/d(dq), M)`` by the kernels: Kim (2012), Table 5 along the
    ``nv`` unit directions of ``q`` and of ``dq`` at once, in the ground frame
    (:func:`liedyn.engine.kernels.rnea_partials_state`), and ``M``. ``None``: some
    joint's ``S`` depends on ``q``, or symbolic input (Table 5 on numpy arrays
    then runs, whose expressions chapter 10 prints)."""
    flat = flat_model(model)
    if flat is None:
        return None
    if not _jit.ENABLED:
        return _plain_rnea_partials(model, flat[0], q, dq, ddq, f_ext)
    return _compiled_partials(K.rnea_partials_loop, model, flat, q, dq, ddq, f_ext)


def _compiled_partials(driver, model, flat, q, x, y, f_ext):
    """Three (nv, nv) matrices per state from a compiled partials driver
    (``rnea_partials_loop``, ``aba_partials_loop``), or ``None``."""
    topo, body, no_f_ext = flat
    N, nv = model.nbodies, model.nv
    fe, check = (no_f_ext, STATE) if f_ext is None else (f_ext, ALL)
    try:                                                # the common case first
        if _single(model, q, x, y) is not None:
            out = [np.zeros((nv, nv)) for _ in range(3)]
            bad = driver(topo, body, q, x, y, fe, *out, check)
            return None if bad else tuple(out)
    except (AttributeError, TypeError):        # not arrays, or not numba's types
        pass
    tails = ((model.nq,), (nv,), (nv,), (N, 6))
    prepared = _compiled_inputs((q, x, y, fe), tails)
    if prepared is None:
        return None
    batch, (q, x, y, fe) = prepared
    shape = (math.prod(batch) * nv, nv)
    out = [np.zeros(shape, q.dtype) for _ in range(3)]
    if _jit.run(driver, topo, body, q, x, y, fe, *out, check):
        return None
    return tuple(a.reshape(batch + (nv, nv)) for a in out)


def _plain_rnea_partials(model, topo, q, dq, ddq, f_ext):
    """:func:`rnea_partials` by the plain executors (numbers, or batch arrays)."""
    if not K.constant_S(topo):
        return None
    batch, dtype, q, dq, ddq, fe = state(model, q, dq, ddq, f_ext=f_ext)
    if dtype == object:
        return None
    nb, nv = model.nbodies + 1, model.nv
    ws = _shapes(K.rnea_workspace(nb, nv, _LIKE), (np.zeros(nv),),   # and tau
                 K.ground_workspace(nb, nv, _LIKE))
    g = flat_model(model)[1][0, :6].tolist()

    def run(body, a, w, out):
        K.rnea_and_partials_state(topo, body, a[0], a[1], a[2], a[3],
                                  (g[:3], g[3:]), w[:8], w[8], w[9:],
                                  np.zeros(nb, bool), out[0], out[1], out[2])
    out = _finite(_plain(run, model, (q, dq, ddq, fe), ws, (3, nv, nv), batch,
                         dtype, no_f_ext=f_ext is None))
    return None if out is None else (out[..., 0, :, :], out[..., 1, :, :],
                                     out[..., 2, :, :])


def aba_partials(model, q, dq, tau, f_ext=None):
    """``(d ddq/dq, d ddq/d(dq), M^-1)`` by the compiled kernels, or ``None``:
    ``ddq`` by ABA (Kim (2012), Table 3), the Table 5 partials of ``tau`` and ``M``
    at it (:func:`rnea_partials`), then per state ``M^-1`` by a Cholesky
    factorisation and ``d ddq/dx = -M^-1 dtau/dx``, all in one compiled call
    (``liedyn.engine.kernels.aba_partials_loop``)."""
    flat = flat_model(model)
    if flat is None or not _jit.ENABLED:
        return None
    return _compiled_partials(K.aba_partials_loop, model, flat, q, dq, tau, f_ext)


def _finite(result):
    """``result``, or ``None`` if it has NaN or inf entries (the reference path then
    raises the overflow error)."""
    return result if _checks.all_finite(result) else None
