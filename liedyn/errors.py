"""The exceptions of liedyn beyond ``TypeError`` and ``ValueError``.

Each derives from the built-in exception a user would catch anyway (``ValueError``
or ``FloatingPointError``), so ``except ValueError`` keeps working; catch them by
name to react to one cause. The book's appendix "Errors" lists when each is raised.

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
    """A configuration within ``liedyn.joint.CHART_TOL`` of a chart singularity
    (Euler angles at gimbal lock, exponential coordinates on ``|phi| = 2 pi k``),
    raised by the algorithms that invert ``S(q)``; the message names the body and
    the remedy.
    """


class ModelFileError(ValueError):
    """A malformed or unsupported model file: ``<FORMAT> <label>, line <line>:
    <element>, attribute '<attribute>': <message>`` (``label``: the quoted file name
    or ``"string"``, kept as ``file``; the other parts optional, ``message`` kept
    as is). The base of ``URDFError`` and ``liedyn.mjcf.MJCFError``.

    >>> print(URDFError('"arm.urdf"', "link 'base'", "no mass", line=3))
    URDF "arm.urdf", line 3: link 'base': no mass
    """

    FORMAT = "model"

    def __init__(self, label: str, element: str | None, message: str,
                 attribute: str | None = None, line: int | None = None) -> None:
        self.file, self.element, self.attribute, self.line = (
            label, element, attribute, line)
        self.message = message
        where = f"{self.FORMAT} {label}" + (f", line {line}" if line else "") \
            + (f": {element}" if element else "") \
            + (f", attribute '{attribute}'" if attribute else "")
        super().__init__(f"{where}: {message}")

    def __reduce__(self):                      # pickle and copy
        return type(self), (self.file, self.element, self.message, self.attribute,
                            self.line)


class URDFError(ModelFileError):
    """A malformed or unsupported URDF file (see :class:`ModelFileError`)."""

    FORMAT = "URDF"


class NonFiniteResultError(FloatingPointError):
    """Finite inputs produced NaN or inf (an overflow): reported, never returned."""


class DivergenceError(FloatingPointError):
    """A simulation diverged (non-finite state or runaway energy), at the step
    named."""
