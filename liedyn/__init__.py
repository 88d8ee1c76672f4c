"""liedyn: the Lie-group formulation of articulated rigid-body dynamics, in numpy.

The package behind the book *liedyn*. Conventions (see the book's notation
appendix):

* twists ``V = (w, v)`` and wrenches ``F = (m, f)``: angular part / moment
  **first**, expressed in the body frame (Kim (2012), eqs. (9)-(13)). Pinocchio
  orders (v, w).
* ``T`` in SE(3) is a 4x4 homogeneous matrix; ``T_ab`` is frame {b} seen from {a}.
* ``Ad_T = [[R, 0], [[p]R, R]]``, ``Ad*_T = Ad_T^T``,
  ``ad_V = [[[w], 0], [[v], [w]]]``, ``ad*_V = ad_V^T`` (Kim eqs. (7), (8), (27),
  (29)).
* bodies 1..N in topological order, ``parent[i] < i``, 0 is the ground; gravity
  enters as the ground acceleration ``dV_0 = (0, -g)``.
* every function accepts leading batch dimensions and runs on float, complex
  (complex step) and, where the math has no branches, numpy object arrays of sympy
  expressions.
"""
from . import lie

__version__ = "0.1.0"
__all__ = ["lie"]
