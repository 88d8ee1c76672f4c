"""The exceptions of liedyn beyond ``TypeError`` and ``ValueError``.

Every error message names the argument at fault, what was expected and what was
received (shape, dtype or value); for a URDF file, the file, the element and the
attribute. The four classes below derive from the built-in exception a user would
catch anyway (``ValueError`` or ``FloatingPointError``), so ``except ValueError``
keeps working; catch them by name to react to one cause only. The book's appendix
"Errors" lists when each is raised and what to do.

Examples
--------
>>> import numpy as np
>>> import liedyn as ld
>>> m = ld.Model()
>>> _ = m.add_body("ball", 0, ld.SphericalZYX(), inertia=np.diag([1.0] * 6))
>>> try:
...     ld.aba(m, [0.0, np.pi / 2, 0.0], np.zeros(3), np.zeros(3))
... except ld.ChartSingularityError as err:
...     print(str(err)[:58])
argument 'q': the SphericalZYX joint of body 'ball' is 6.1
"""

__all__ = ["ChartSingularityError", "URDFError", "NonFiniteResultError",
           "DivergenceError"]


class ChartSingularityError(ValueError):
    """A configuration at (or within ``liedyn.joints.CHART_TOL`` of) a chart
    singularity.

    Raised by the algorithms that invert a joint's ``S(q)`` (forward and hybrid
    dynamics, simulation) for Euler angles at gimbal lock and exponential
    coordinates on ``|phi| = 2 pi k``; the message names the joint's body and the
    remedy.
    """


class URDFError(ValueError):
    """A malformed or unsupported URDF file, with where the problem is.

    Parameters
    ----------
    label : str
        the file name (quoted) or ``"string"`` for URDF text; kept as ``file``
    element : str or None
        e.g. ``"joint 'elbow' <limit>"``; None for the file as a whole
    message : str
        what was expected and what the file has
    attribute : str, optional
        the attribute of ``element`` at fault, e.g. ``"lower"``
    line : int, optional
        the line of the file where the element starts
    """

    def __init__(self, label, element, message, attribute=None, line=None):
        self.file, self.element, self.attribute, self.line = (
            label, element, attribute, line)
        self._message = message
        where = f"URDF {label}" + (f", line {line}" if line else "") \
            + (f": {element}" if element else "") \
            + (f", attribute '{attribute}'" if attribute else "")
        super().__init__(f"{where}: {message}")

    def __reduce__(self):                      # pickle and copy
        return type(self), (self.file, self.element, self._message, self.attribute,
                            self.line)


class NonFiniteResultError(FloatingPointError):
    """Finite inputs produced NaN or inf (an overflow): reported, never returned."""


class DivergenceError(FloatingPointError):
    """A simulation diverged (non-finite state or runaway energy); the message names
    the step."""
