"""Checkers for the book's exercises: ``check("ch1.ex2", answer)``.

Each chapter ``N`` has a module ``liedyn.teach.exercises.chNN`` with one checker
per exercise, ``ex1(answer)``, ``ex2(answer)``, ... A checker returns ``True`` for a
right answer and raises :class:`WrongAnswer` with an explanation otherwise (so a
notebook cell shows the explanation, and a test can assert on it).

Most checkers are written with ``exercise``: the function returns the right value
and the typical mistakes it recognises, each a wrong value (or a test of the
answer) with the message that names the mistake; ``diagnose`` compares::

    @exercise("V_b", rule="Ad_{T_sb^-1} V_s")
    def ex2(answer):
        right = Ad_inv(T) @ V_s
        return right, [(Ad(T) @ V_s, "you applied Ad_{T_sb} ..."), ...]

The right values are written out from the chapters' formulas with plain numpy
(``_closed_forms``), not taken from the liedyn code that the notebooks use, so a
checker is a second, independent computation.

In the book each exercise has the same four parts: the exercise, a cell
``answer = ...`` for the reader's answer, a cell ``check("chN.exK", answer)``, and
the solution (folded). Until the reader replaces the ``...`` (or ``None``),
``check`` says the exercise is not attempted yet and returns ``None``: it neither
raises nor claims success. A right answer is confirmed with what was checked.

Examples
--------
>>> from liedyn.teach.exercises import check, expect_close, WrongAnswer
>>> check("ch1.ex1", ...)
ch1.ex1: not attempted yet. Write your answer in the cell above (answer = ...) and
run both cells.
>>> check("ch2.ex5", 3.0)
ch2.ex5: correct. Checked: the principal moment = the intermediate one of J_EX5
(the spin about it is unstable), to 1e-08.
True
>>> check("ch99.ex1", 0.0)
Traceback (most recent call last):
...
ValueError: argument 'exercise': chapter 99 has no exercises
>>> expect_close([1.0, 2.0], [1.0, 2.5],
...              hint="check the sign")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
liedyn.teach.exercises.WrongAnswer: your answer is off by 0.5 (largest ...
"""
import functools
import importlib
import re

import numpy as np

__all__ = ["check", "WrongAnswer", "exercise", "diagnose", "expect_close",
           "expect_shape"]

MATCH_RTOL = 1e-5
"""A typical mistake is recognised to the exercise's tolerance or to five digits."""


class WrongAnswer(AssertionError):
    """Raised by a checker when an answer is wrong; the message explains what is
    wrong."""


def check(exercise, answer):
    """Check ``answer`` to ``exercise`` (a string like ``"ch1.ex2"``).

    Returns ``True`` when the answer is right and prints what was checked; raises
    :class:`WrongAnswer` with an explanation when it is not, and ``ValueError`` for
    an unknown exercise. An answer that is still the placeholder ``...`` (or
    ``None``) is "not attempted yet": a message, and ``None``.
    """
    m = re.fullmatch(r"ch(\d+)\.ex(\d+)", str(exercise))
    if not m:
        raise ValueError("argument 'exercise': expected a name like 'ch1.ex2', "
                         f"got {exercise!r}")
    chapter, number = int(m.group(1)), int(m.group(2))
    try:
        module = importlib.import_module(f"liedyn.teach.exercises.ch{chapter:02d}")
    except ModuleNotFoundError:
        raise ValueError("argument 'exercise': chapter "
                         f"{chapter} has no exercises") from None
    checker = getattr(module, f"ex{number}", None)
    if checker is None:
        raise ValueError("argument 'exercise': chapter "
                         f"{chapter} has no exercise {number}")
    if answer is None or answer is Ellipsis:
        print(f"{exercise}: not attempted yet. Write your answer in the cell above "
              "(answer = ...) and run both cells.")
        return None
    try:
        checker(answer)
    except WrongAnswer as err:
        raise WrongAnswer(f"{exercise}: {err}") from None
    checked = getattr(checker, "checks", None)
    print(f"{exercise}: correct." + (f" Checked: {checked}." if checked else ""))
    return True


def exercise(what, rule=None, tol=1e-8, rtol=0.0, hint=None, checks=None,
             one_number=False):
    """Make a checker of ``fn(answer) -> (right, mistakes[, otherwise])``.

    ``what`` names the answer in messages ("V_b"), ``rule`` says what it equals
    ("Ad_{T_sb^-1} V_s"); the checker accepts an answer within ``tol + rtol *
    max|right|`` of ``right`` and says so with ``checks`` (by default "what = rule,
    to tol"). ``mistakes`` go to :func:`diagnose`, with ``hint`` (by default
    "what = rule."; ``""`` for none) for an answer off by more. ``fn`` gets the
    answer as given, so it can refuse a telling shape first; a function that checks
    the answer itself (raising :class:`WrongAnswer`) returns ``None``. With
    ``one_number``, an array holding one number counts as that number.

    >>> @exercise("x", rule="2")
    ... def ex(answer):
    ...     return 2.0, [(-2.0, "wrong sign")]
    >>> ex(2.0), ex.checks
    (True, 'x = 2, to 1e-08')
    >>> ex(-2.0)
    Traceback (most recent call last):
    ...
    liedyn.teach.exercises.WrongAnswer: wrong sign
    """
    if hint is None:
        hint = f"{what} = {rule}." if rule else ""

    def wrap(fn):
        @functools.wraps(fn)
        def checker(answer):
            if one_number:
                answer = expect_shape(np.ravel(answer), (1,), what)[0]
            found = fn(answer)
            if found is not None:
                right, mistakes, *otherwise = found
                diagnose(answer, right, mistakes, what, tol, rtol, hint, *otherwise)
            return True
        within = (f"to {rtol:g} relative" if rtol else f"to {tol:g}" if tol
                  else "exactly")
        checker.checks = checks or f"{what} = {rule}, {within}"
        return checker
    return wrap


def diagnose(answer, right, mistakes=(), what="your answer", tol=1e-8, rtol=0.0,
             hint="", otherwise=None):
    """Accept ``answer`` if it is ``right``, else raise :class:`WrongAnswer` naming
    the first typical mistake it shows.

    ``mistakes``: pairs ``(wrong, message)``; ``wrong`` is a value (the answer
    shows the mistake when it equals ``wrong`` to ``tol`` or to
    :data:`MATCH_RTOL`) or a test ``wrong(a) -> bool`` of the answer as a float
    array; ``message`` may be a function of it. An answer that shows none gets
    ``otherwise`` (a message, formatted with ``a``), or :func:`expect_close`'s "off
    by" with ``hint``. Returns ``True``.

    >>> diagnose(2.0, 3.0, [(-3.0, "wrong sign")])
    Traceback (most recent call last):
    ...
    liedyn.teach.exercises.WrongAnswer: your answer is off by 1 (largest entry
    error; tolerance 1e-08).
    """
    a = _as_array(answer, np.shape(right), what)
    tol = tol + rtol * np.max(np.abs(right), initial=0.0)
    if _near(a, right, tol):
        return True
    for wrong, message in mistakes:
        if callable(wrong):              # a test, run on answers of the right shape
            found = a.shape == np.shape(right) and wrong(a)
        else:
            found = _near(a, wrong, tol, MATCH_RTOL)
        if found:
            raise WrongAnswer(message(a) if callable(message) else message)
    if otherwise is not None and a.ndim == np.ndim(right):
        raise WrongAnswer(otherwise.format(a=a[()]))
    expect_close(a, right, what, tol, hint)
    return True


def _near(a, b, tol, rtol=0.0):
    b = np.asarray(b)
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= tol + rtol * abs(b)))


def _as_array(answer, shape, what):
    try:
        return np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        kind = "one number" if shape == () else f"a numeric array of shape {shape}"
        raise WrongAnswer(f"{what} should be {kind}, "
                          f"got {type(answer).__name__}") from None


def expect_shape(answer, shape, what="your answer"):
    """Convert ``answer`` to a float array and raise :class:`WrongAnswer` unless it
    has ``shape``."""
    a = _as_array(answer, tuple(shape), what)
    if a.shape != tuple(shape):
        raise WrongAnswer(f"{what} should have shape {tuple(shape)}, got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise WrongAnswer(f"{what} contains NaN or inf")
    return a


def expect_close(answer, expected, what="your answer", tol=1e-8, hint=""):
    """Raise :class:`WrongAnswer` unless ``answer`` equals ``expected`` to ``tol``
    (max abs error)."""
    expected = np.asarray(expected, dtype=float)
    a = expect_shape(answer, expected.shape, what)
    err = np.max(np.abs(a - expected)) if a.size else 0.0
    if err > tol:
        raise WrongAnswer(f"{what} is off by {err:.3g} (largest entry error; "
                          f"tolerance {tol:.3g})."
                          + (f" Hint: {hint}" if hint else ""))
    return a
