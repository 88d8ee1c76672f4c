"""Input validation shared by every liedyn module: one vocabulary of errors.

Every message reads ``argument 'NAME': expected WHAT, got RECEIVED``. ``TypeError``:
the wrong kind (a string, ``None``, booleans for numbers, a single constraint for a
sequence); ``ValueError``: the right kind, a wrong value (shape, NaN or inf, not a
rotation, non-physical inertia, inconsistent model or state); and the classes of
:mod:`liedyn.errors`. Object (sympy) arrays skip the numeric checks. The checks
are cheap and run at the entry of every public function.
"""
import math
import numbers

import numpy as np

from .errors import (
    ChartSingularityError,
    DivergenceError,
    NonFiniteResultError,
    URDFError,
)

__all__ = ["ChartSingularityError", "DivergenceError", "NonFiniteResultError",
           "URDFError"]

ROTATION_TOL = 1e-6
"""Tolerance on ``||R^T R - I||_max`` and ``|det R - 1|`` of a rotation."""


def _shape_text(tail):
    return "(..., " + ", ".join(map(str, tail)) + ")" if tail else "()"


def _numbers_only(name, x):
    """Object arrays may hold numbers and sympy expressions only (no None, str,
    bool)."""
    for v in x.flat:
        if isinstance(v, (bool, np.bool_)) or not (isinstance(v, numbers.Number)
                                                   or hasattr(v, "free_symbols")):
            raise TypeError(f"argument '{name}': expected numbers (or sympy "
                            f"expressions), got an element {v!r} of type "
                            f"{type(v).__name__}")


def array(name, x, tail, dtype=None):
    """``x`` as an array with trailing shape ``tail``: ints promoted to float,
    float, complex and object (sympy) kept; ``TypeError`` for ``None``, strings,
    booleans and non-numbers, ``ValueError`` for a wrong shape or NaN/inf, naming
    ``name``.
    """
    if x is None:
        raise TypeError(f"argument '{name}': expected an array of shape "
                        f"{_shape_text(tail)}, "
                        "got None")
    try:
        x = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as err:
        raise TypeError(f"argument '{name}': could not "
                        f"convert to an array ({err})") from None
    kind = x.dtype.kind
    if kind == "b":
        raise TypeError(f"argument '{name}': expected "
                        "numbers, got booleans (dtype bool)")
    if kind in "iu":
        x = x.astype(float)
    elif kind == "O":
        _numbers_only(name, x)
    elif kind not in "fc":
        raise TypeError(f"argument '{name}': expected a "
                        f"numeric array, got dtype {x.dtype}")
    k = len(tail)
    if x.ndim < k or x.shape[x.ndim - k:] != tail:
        raise ValueError(f"argument '{name}': expected shape {_shape_text(tail)}, "
                         f"got {x.shape}")
    return finite(name, x)


def finite(name, x):
    """Raise ``ValueError`` if a numeric array has NaN or inf entries (naming the
    first)."""
    if not all_finite(x):
        bad = np.argwhere(~np.isfinite(x))[0]
        where = f" at index {tuple(int(k) for k in bad)}" if x.ndim else ""
        raise ValueError(f"argument '{name}': contains NaN or inf (expected finite "
                         f"numbers, got {x[tuple(bad)].item()!r}{where})")
    return x


def all_finite(x):
    """``True`` unless a float or complex array has NaN or inf entries (object
    arrays: True); one dot product decides unless it overflows.
    """
    if x.dtype.kind == "f":
        flat = x.reshape(-1)
        if math.isfinite(flat.dot(flat)):
            return True
    return x.dtype == object or bool(np.isfinite(x).all())


def finite_result(function, result, **inputs):
    """``result`` of ``function`` if it is finite; else raise :func:`overflow`'s
    error.

    >>> finite_result("f", np.ones(2), x=1.0)
    array([1., 1.])
    """
    if not all_finite(result):
        raise overflow(function, **inputs)
    return result


def outputs(name, out, results, inputs=()):
    """``results`` written into the arrays of ``out`` and returned as a tuple
    (``results`` itself if ``out`` is ``None``): ``out`` holds as many writable
    arrays, each of its result's shape and dtype, none sharing memory with another
    or with an array of ``inputs``.

    >>> out = (np.empty(2), np.empty(3))
    >>> outputs("out", out, (np.ones(2), np.zeros(3)))[0] is out[0]
    True
    >>> outputs("out", (np.empty(2),), (np.ones(3),))
    Traceback (most recent call last):
    ...
    ValueError: argument 'out[0]': expected a float64 array of shape (3,), got a \
float64 array of shape (2,)
    """
    results = tuple(results)
    if out is None:
        return results
    if not isinstance(out, (tuple, list)) or len(out) != len(results):
        got = (f"{len(out)} items" if isinstance(out, (tuple, list))
               else type(out).__name__)
        raise TypeError(f"argument '{name}': expected a tuple of {len(results)} "
                        f"arrays, got {got}")
    for k, (o, r) in enumerate(zip(out, results, strict=True)):
        if not isinstance(o, np.ndarray):
            raise TypeError(f"argument '{name}[{k}]': expected an array, got "
                            f"{type(o).__name__}")
        if o.shape != r.shape or o.dtype != r.dtype:
            raise ValueError(f"argument '{name}[{k}]': expected a {r.dtype} array "
                             f"of shape {r.shape}, got a {o.dtype} array of shape "
                             f"{o.shape}")
        if not o.flags.writeable:
            raise ValueError(f"argument '{name}[{k}]': expected a writable array, "
                             "got a read-only one")
    arrays = [x for x in inputs if isinstance(x, np.ndarray)]
    for k, o in enumerate(out):
        if any(np.may_share_memory(o, x) for x in list(out[:k]) + arrays):
            raise ValueError(f"argument '{name}[{k}]': expected an array of its "
                             "own, got one that shares memory with another "
                             "argument")
    for o, r in zip(out, results, strict=True):
        o[...] = r
    return tuple(out)


def overflow(function, **inputs):
    """The :class:`NonFiniteResultError` of ``function`` whose finite inputs gave
    NaN or inf, naming the largest of ``inputs`` (argument name -> value), the
    likely cause.
    """
    size = {}
    for name, value in inputs.items():
        try:
            size[name] = float(
                np.max(np.abs(np.asarray(value, dtype=complex)), initial=0.0))
        except (TypeError, ValueError):
            continue
    cause = ""
    if size:
        name = max(size, key=size.get)
        cause = (f"; the largest input is argument '{name}' "
                 f"(max |{name}| = {size[name]:.3g})")
    return NonFiniteResultError(f"{function}: the result contains NaN or inf "
                                "although every input is finite (an "
                                f"overflow){cause}; scale the "
                                "inputs down (e.g. other units)")


def batch_shape(shapes):
    """The broadcast of ``{argument name: batch shape}``, or a ``ValueError`` naming
    them.

    >>> batch_shape({"q": (5, 1), "dq": (3,)})
    (5, 3)
    """
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        listed = ", ".join(f"'{k}' {v}" for k, v in shapes.items())
        raise ValueError(f"arguments {', '.join(repr(k) for k in shapes)}: batch "
                         "shapes (the leading dimensions) do not broadcast "
                         f"together: {listed}") from None


def scalar(name, x, positive=False, integer=False, allow_none=False):
    """A real number (``bool`` refused); ``positive``: ``> 0``; ``integer``: an
    int."""
    if x is None and allow_none:
        return None
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, kind):
        what = "an integer" if integer else "a real number"
        raise TypeError(f"argument '{name}': expected {what}, got {x!r} "
                        f"(type {type(x).__name__})")
    if not integer:
        x = float(x)
        if not np.isfinite(x):
            raise ValueError(f"argument '{name}': expected "
                             f"a finite number, got {x!r}")
    if positive and x <= 0:
        raise ValueError(f"argument '{name}': expected a number > 0, got {x!r}")
    return x


def boolean(name, x):
    """``True`` or ``False`` (numpy booleans too); no truthiness of strings or
    numbers."""
    if not isinstance(x, (bool, np.bool_)):
        raise TypeError(f"argument '{name}': expected True or False, got {x!r} "
                        f"(type {type(x).__name__})")
    return bool(x)


def booleans(name, x, n, what):
    """An (n,) boolean array (``what``: what each entry stands for).

    >>> booleans("mask", [True, False], 2, "one per joint")
    array([ True, False])
    """
    if isinstance(x, (str, bytes)) or x is None:
        raise TypeError(f"argument '{name}': expected {n} booleans ({what}), got "
                        f"{x!r}")
    mask = np.asarray(x)
    if mask.shape != (n,):
        raise ValueError(f"argument '{name}': expected {n} booleans ({what}), got "
                         f"shape {mask.shape}")
    if mask.dtype != bool:
        raise TypeError(f"argument '{name}': expected booleans, got dtype "
                        f"{mask.dtype}")
    return mask


def rotation(name, R, tol=ROTATION_TOL):
    """Raise ``ValueError`` unless every ``R`` of the batch is a rotation to
    ``tol``."""
    if R.dtype == object:
        return R
    Rr = R.real
    RtR = np.swapaxes(Rr, -1, -2) @ Rr
    orth = np.max(np.abs(RtR - np.eye(3)), axis=(-1, -2)) if R.size else np.zeros(0)
    det = np.linalg.det(Rr) if R.size else np.zeros(0)
    if np.any(orth > tol) or np.any(np.abs(det - 1.0) > tol):
        raise ValueError(
            f"argument '{name}': not a rotation matrix (expected R^T R = 1 and "
            f"det R = 1, got max |R^T R - I| = {np.max(orth):.3g}, det = "
            f"{np.ravel(det)[np.argmax(np.abs(np.ravel(det) - 1))]:.6g}; "
            f"tolerance {tol:g})")
    return R


def homogeneous(name, T, tol=ROTATION_TOL):
    """Validate 4x4 homogeneous transforms: shape, finite, rotation block, last
    row."""
    T = array(name, T, (4, 4))
    if T.dtype != object:
        last = T[..., 3, :].real
        if np.any(np.abs(last - np.array([0.0, 0.0, 0.0, 1.0])) > tol):
            raise ValueError(f"argument '{name}': last row of a homogeneous "
                             "transform must be (0, 0, 0, 1), got "
                             f"{last.reshape(-1, 4)[0]}")
    rotation(name + "[..., :3, :3]", T[..., :3, :3], tol)
    return T


def transform(name, T):
    """One validated 4x4 homogeneous transform (:func:`homogeneous`, no batch)."""
    T = homogeneous(name, T)
    if T.shape != (4, 4):
        raise ValueError(f"argument '{name}': expected one (4, 4) transform, got "
                         f"shape {T.shape}")
    return T


def choice(name, value, allowed):
    """Raise ``ValueError`` unless ``value`` is one of ``allowed``."""
    try:
        ok = value in allowed
    except TypeError:                      # unhashable value
        ok = False
    if not ok or isinstance(value, (bool, np.bool_)):
        raise ValueError(f"argument '{name}': expected one "
                         f"of {list(allowed)}, got {value!r}")
    return value


def sequence(name, x, kinds, what):
    """A list of objects of ``kinds`` (a single object or a string is refused)."""
    if (
        isinstance(x, kinds)
        or isinstance(x, (str, bytes))
        or not hasattr(x, "__iter__")
    ):
        raise TypeError(f"argument '{name}': expected a sequence of {what}, got "
                        f"{type(x).__name__} (wrap a single one in a list)")
    x = list(x)
    for k, item in enumerate(x):
        if not isinstance(item, kinds):
            raise TypeError(f"argument '{name}': expected a sequence of {what}, "
                            f"got {type(item).__name__} at position {k}")
    return x
