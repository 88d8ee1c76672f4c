"""The exercise protocol shared by every chapter: a placeholder answer is "not attempted yet".

Every chapter's notebook gives the reader a cell ``answer = ...`` and a cell ``check(...)``;
the book is built with the placeholder in place, so ``check`` must neither raise nor say
"correct." for it (the per-chapter files test right and wrong answers).
"""
import pkgutil

import pytest

import liedyn.teach.exercises as exercises
from liedyn.teach.exercises import WrongAnswer, check

EXERCISES = [f"ch{int(m.name[2:])}.{name}"
             for m in pkgutil.iter_modules(exercises.__path__) if m.name.startswith("ch")
             for name in sorted(vars(__import__(f"liedyn.teach.exercises.{m.name}",
                                               fromlist=["x"])))
             if name.startswith("ex") and name[2:].isdigit()]


def test_every_chapter_has_exercises():
    chapters = {e.split(".")[0] for e in EXERCISES}
    assert {f"ch{n}" for n in range(1, 12)} <= chapters


@pytest.mark.parametrize("exercise", EXERCISES)
@pytest.mark.parametrize("placeholder", [..., None])
def test_placeholder_is_not_attempted(exercise, placeholder, capsys):
    assert check(exercise, placeholder) is None
    out = capsys.readouterr().out
    assert out.startswith(f"{exercise}: not attempted yet.") and "correct" not in out


@pytest.mark.parametrize("exercise", EXERCISES)
def test_a_number_is_not_taken_for_the_placeholder(exercise, capsys):
    # 0 is an attempt (wrong for every exercise here, or of the wrong shape): it is checked
    with pytest.raises((WrongAnswer, ValueError, TypeError)):
        check(exercise, 0.0)
