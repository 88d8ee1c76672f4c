"""Exact zeros and ones: constant folding for the plain batched executor.

Run without the compiler on a batch, every scalar operation of the kernels of
:mod:`liedyn.engine.kernels` is one numpy operation over all the states. Many of
those operations multiply by a constant of the model that is exactly 0 or 1: a joint
axis ``(0, 0, 1)``, a placement without rotation, an inertia given in its principal
frame, the columns of ``S``. ``0 * x`` and ``1 * x`` are still passes over the whole
batch (when this module was added, folding them made the batched rnea and aba of
chapter 11's robots 30-37 % faster).

:data:`ZERO` and :data:`ONE` stand for those constants and fold them away, the way a
compiler would: ``ZERO * x`` is ``ZERO``, ``ZERO + x`` and ``ONE * x`` are ``x``,
without touching ``x``. The result is the same, to the last bit, because IEEE
arithmetic gives ``0 * x + y == y`` and ``1 * x == x`` for every finite ``x`` (the
inputs are checked to be finite first). numpy arrays defer to them
(``__array_ufunc__ = None``), so ``array * ZERO`` folds as well.

Examples
--------
>>> import numpy as np
>>> x = np.array([1.5, -2.0])
>>> ZERO * x is ZERO, ONE * x is x, (ZERO + x) is x
(True, True, True)
>>> constant(0.0) is ZERO, constant(1.0) is ONE, constant(0.5)
(True, True, 0.5)
"""
import numpy as np

__all__ = ["ZERO", "ONE", "Exact", "constant", "Constants", "zeros", "numbers"]


class Exact:
    """An exact constant that numpy arrays defer to in arithmetic; ``value`` is the
    number it stands for."""

    __slots__ = ()
    __array_ufunc__ = None
    value = None

    def __eq__(self, x):
        return x == self.value

    def __bool__(self):
        return bool(self.value)

    def __float__(self):
        return float(self.value)

    def __complex__(self):
        return complex(self.value)

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return "ZERO" if self.value == 0 else "ONE"


class _Zero(Exact):
    __slots__ = ()
    value = 0.0

    def __add__(self, x):
        return x

    __radd__ = __add__

    def __sub__(self, x):
        return -x

    def __rsub__(self, x):
        return x

    def __mul__(self, x):
        return self

    __rmul__ = __mul__

    def __truediv__(self, x):
        return self

    def __rtruediv__(self, x):
        raise ZeroDivisionError("division by an exact zero of the model")

    def __neg__(self):
        return self


class _One(Exact):
    __slots__ = ()
    value = 1.0

    def __add__(self, x):
        return self if x is ZERO else x + 1.0

    __radd__ = __add__

    def __sub__(self, x):
        return self if x is ZERO else 1.0 - x

    def __rsub__(self, x):
        return x - 1.0

    def __mul__(self, x):
        return x

    __rmul__ = __mul__

    def __truediv__(self, x):
        return 1.0 / x

    def __rtruediv__(self, x):
        return x

    def __neg__(self):
        return -1.0


ZERO = _Zero()
"""The exact 0: absorbs products, vanishes from sums."""
ONE = _One()
"""The exact 1: vanishes from products."""


def constant(x):
    """``ZERO`` for 0, ``ONE`` for 1, else ``float(x)`` (a real constant of the
    model)."""
    return ZERO if x == 0 else ONE if x == 1 else float(x)


class Constants:
    """A read-only view of a 2-D float array (the flattened model's ``body``), each
    entry passed through :func:`constant`; indexed ``view[i, k]``, as the kernels
    read it.

    >>> Constants(np.eye(2))[0, 1] is ZERO
    True
    """

    __slots__ = ("rows", "shape")

    def __init__(self, table):
        rows = np.asarray(table).tolist()
        self.rows = [[constant(x) for x in row] for row in rows]
        self.shape = np.shape(table)

    def __getitem__(self, index):
        i, k = index
        return self.rows[i][k]


def zeros(shape):
    """An object array of ``shape`` filled with :data:`ZERO` (a workspace of the
    plain batched executor, or an input known to be zero, e.g. absent external
    wrenches)."""
    out = np.empty(shape, dtype=object)
    out.fill(ZERO)
    return out


def numbers(x, batch, dtype):
    """The object array ``x`` of batch arrays and exact constants as one numpy array
    of ``dtype``, shape ``x.shape + (batch,)``."""
    out = np.empty(x.shape + (batch,), dtype)
    for k in np.ndindex(*x.shape):
        out[k] = float(x[k]) if isinstance(x[k], Exact) else x[k]
    return out
