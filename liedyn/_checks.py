"""Input validation shared by every liedyn module.

Bad input gets a ``ValueError`` (or ``TypeError``) that names the argument, what was expected and
what was received. Object (sympy) arrays skip the numeric checks (finiteness, orthogonality).
"""
import numpy as np

ROTATION_TOL = 1e-6
"""Tolerance on ``||R^T R - I||_max`` and ``|det R - 1|`` for a matrix to count as a rotation."""


def array(name, x, tail, dtype=None):
    """Convert ``x`` to an array whose trailing shape is ``tail`` (a tuple of ints).

    Integer input is promoted to float; float, complex and object (sympy) arrays are kept.
    Raises ``ValueError`` naming ``name`` on a wrong shape and on NaN/inf entries.
    """
    try:
        x = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as err:
        raise TypeError(f"argument '{name}': could not convert to an array ({err})") from None
    if x.dtype.kind in "biu":
        x = x.astype(float)
    elif x.dtype.kind not in "fcO":
        raise TypeError(f"argument '{name}': expected a numeric array, got dtype {x.dtype}")
    k = len(tail)
    if x.ndim < k or tuple(x.shape[x.ndim - k:]) != tuple(tail):
        want = "(..., " + ", ".join(map(str, tail)) + ")" if k else "()"
        raise ValueError(f"argument '{name}': expected shape {want}, got {x.shape}")
    finite(name, x)
    return x


def finite(name, x):
    """Raise ``ValueError`` if a numeric array has NaN or inf entries."""
    if x.dtype != object and not np.all(np.isfinite(x)):
        raise ValueError(f"argument '{name}': contains NaN or inf")
    return x


def rotation(name, R, tol=ROTATION_TOL):
    """Raise ``ValueError`` unless every ``R`` in the batch is a rotation to within ``tol``."""
    if R.dtype == object:
        return R
    Rr = R.real
    RtR = np.swapaxes(Rr, -1, -2) @ Rr
    orth = np.max(np.abs(RtR - np.eye(3)), axis=(-1, -2)) if R.size else np.zeros(0)
    det = np.linalg.det(Rr) if R.size else np.zeros(0)
    if np.any(orth > tol) or np.any(np.abs(det - 1.0) > tol):
        raise ValueError(
            f"argument '{name}': not a rotation matrix (max |R^T R - I| = {np.max(orth):.3g}, "
            f"det = {np.ravel(det)[np.argmax(np.abs(np.ravel(det) - 1))]:.6g}; tolerance {tol:g})")
    return R


def homogeneous(name, T, tol=ROTATION_TOL):
    """Validate a batch of 4x4 homogeneous transforms: shape, finite, rotation block, last row."""
    T = array(name, T, (4, 4))
    if T.dtype != object:
        last = T[..., 3, :].real
        if np.any(np.abs(last - np.array([0.0, 0.0, 0.0, 1.0])) > tol):
            raise ValueError(f"argument '{name}': last row of a homogeneous transform must be "
                             f"(0, 0, 0, 1), got {last.reshape(-1, 4)[0]}")
    rotation(name + "[..., :3, :3]", T[..., :3, :3], tol)
    return T


def choice(name, value, allowed):
    """Raise ``ValueError`` unless ``value`` is one of ``allowed``."""
    if value not in allowed:
        raise ValueError(f"argument '{name}': expected one of {list(allowed)}, got {value!r}")
    return value
