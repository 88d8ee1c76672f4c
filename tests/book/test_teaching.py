"""The chapters teach: a worked example before the general algorithm, source notes out of
the reading path, exercises that build the algorithms, code cells short enough to read.

Checked on the notebooks' sources, without running them.
"""
import json
import re
from pathlib import Path

import pytest

from common import ROOT, chapters, notebook_cells

MAX_VISIBLE_LINES = 40
HIDDEN = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
WORKED = {"05_inverse_dynamics", "07_forward_dynamics", "10_derivatives"}
SOURCE_AUDITED = WORKED | {"08_hybrid_dynamics"}
ALGORITHM_CHAPTERS = ["05_inverse_dynamics", "06_equations_of_motion", "07_forward_dynamics",
                      "08_hybrid_dynamics", "10_derivatives"]
IMPLEMENT = {"04_multibody_models": "check_forward_kinematics",
             "05_inverse_dynamics": "check_rnea", "06_equations_of_motion": "check_crba",
             "07_forward_dynamics": "check_aba", "10_derivatives": "check_complex_step"}
# words that discuss a source's misprints; outside a source note they interrupt the reading
MISPRINT = re.compile(r"\b(misprint\w*|typo\w*|errat(?:a|um)|as printed|corrected|printed "
                      r"(?:formula|sign|version|table|text|equation))\b", re.I)


def chapter_cells(name, kind):
    return notebook_cells(ROOT / "book" / f"{name}.ipynb", kind)


def outside_source_notes(markdown):
    """The markdown without its source-note boxes (an admonition whose title starts
    with "Source note") and without the targets of roles (``{ref}`...` ``)."""
    text = re.sub(r"(?ms)^(:{3,}|`{3,})\{admonition\} Source note.*?^\1\s*$", "", markdown)
    return re.sub(r"\{\w+\}`[^`]*`", "", text)


def titled(name, pattern):
    """The exercise directives of chapter ``name`` whose title matches ``pattern``."""
    found = []
    for cell in chapter_cells(name, "markdown"):
        for m in re.finditer(r"\{exercise\}\s*(.*)", cell):
            if re.search(pattern, m.group(1)):
                found.append(m.group(1))
    return found


@pytest.mark.parametrize("name", [Path(d).name for d in chapters()])
def test_no_visible_code_cell_is_longer_than_a_screen(name):
    nb = json.loads((ROOT / "book" / f"{name}.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    long = [(k, len(c["source"])) for k, c in enumerate(code)
            if len("".join(c["source"]).splitlines()) > MAX_VISIBLE_LINES
            and not HIDDEN & set(c.get("metadata", {}).get("tags", []))]
    assert not long, f"{name}: visible code cells over {MAX_VISIBLE_LINES} lines: {long}"


@pytest.mark.parametrize("name", sorted(WORKED))
def test_the_algorithm_opens_with_a_worked_example(name):
    text = "\n".join(chapter_cells(name, "markdown"))
    headings = re.findall(r"^#{2,3} (.+)$", text, flags=re.M)
    worked = [h for h in headings if re.match(r"(?i)worked example", h)]
    assert worked, f"{name}: no section titled 'Worked example ...'"
    first_table = next((k for k, h in enumerate(headings) if re.search(r"Table \d", h)), None)
    assert first_table is None or headings.index(worked[0]) < first_table, \
        f"{name}: the worked example comes after the general table"


@pytest.mark.parametrize("name", sorted(SOURCE_AUDITED))
def test_misprints_are_discussed_only_in_source_notes(name):
    found = [m.group(0) for c in chapter_cells(name, "markdown")
             for m in MISPRINT.finditer(outside_source_notes(c))]
    assert not found, f"{name}: misprint discussion outside a Source note box: {found}"


def test_the_outside_filter_keeps_the_prose_and_drops_the_note():
    md = ("Kim's eq. (41).\n\n:::{admonition} Source note: eq. (41)\n:class: dropdown\n"
          "A misprint.\n:::\n\nSee {ref}`the errata <sec-errata-misprints>`.")
    kept = outside_source_notes(md)
    assert "Kim's eq. (41)" in kept and not MISPRINT.search(kept)
    assert MISPRINT.search(md)


@pytest.mark.parametrize("name", sorted(IMPLEMENT))
def test_an_exercise_builds_the_algorithm(name):
    assert titled(name, r"^Implement"), f"{name}: no exercise titled 'Implement ...'"
    checkers = (ROOT / "liedyn" / "teach" / "exercises" / f"ch{name[:2]}.py").read_text()
    assert f"implement.{IMPLEMENT[name]}" in checkers, \
        f"{name}: no checker calls liedyn.teach.implement.{IMPLEMENT[name]}"


@pytest.mark.parametrize("name", ALGORITHM_CHAPTERS)
def test_an_exercise_derives(name):
    assert titled(name, r"^(Derive|Show)"), \
        f"{name}: no derivation exercise (title starting with 'Derive' or 'Show')"


def test_chapter_3_is_optional_on_a_first_reading():
    opening = "\n".join(chapter_cells("03_lagrangian_mechanics", "markdown")[:2])
    assert re.search(r"(?i)optional on a first reading", opening)
