"""Checkers for the book's exercises: ``check("ch1.ex2", answer)``.

Each chapter ``N`` has a module ``liedyn.teach.exercises.chNN`` with one function
per exercise, ``ex1(answer)``, ``ex2(answer)``, ... A checker returns ``True`` for a
right answer and raises :class:`WrongAnswer` with an explanation of what is wrong
otherwise (so a notebook cell shows the explanation, and a test can assert on it).

In the book each exercise has the same four parts: the exercise, a cell
``answer = ...`` for the reader's answer, a cell ``check("chN.exK", answer)``, and
the solution (folded). Until the reader replaces the ``...`` (or ``None``),
``check`` says the exercise is not attempted yet and returns ``None``: it neither
raises nor claims success.

Examples
--------
>>> from liedyn.teach.exercises import check, expect_close, WrongAnswer
>>> check("ch1.ex1", ...)
ch1.ex1: not attempted yet. Write your answer in the cell above (answer = ...) and
run both cells.
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
import importlib
import re

import numpy as np

__all__ = ["check", "WrongAnswer", "expect_close", "expect_shape"]


class WrongAnswer(AssertionError):
    """Raised by a checker when an answer is wrong; the message explains what is
    wrong."""


def check(exercise, answer):
    """Check ``answer`` to ``exercise`` (a string like ``"ch1.ex2"``).

    Returns ``True`` when the answer is right; raises :class:`WrongAnswer` with an
    explanation when it is not, and ``ValueError`` for an unknown exercise. An
    answer that is still the placeholder ``...`` (or ``None``) is "not attempted
    yet": a message, and ``None``.
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
    print(f"{exercise}: correct.")
    return True


def expect_shape(answer, shape, what="your answer"):
    """Convert ``answer`` to a float array and raise :class:`WrongAnswer` unless it
    has ``shape``."""
    try:
        a = np.asarray(answer, dtype=float)
    except (TypeError, ValueError):
        raise WrongAnswer(f"{what} should be a numeric array of shape {shape}, "
                          f"got {type(answer).__name__}") from None
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
                          f"tolerance {tol:g})."
                          + (f" Hint: {hint}" if hint else ""))
    return a
