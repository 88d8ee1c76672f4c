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


# --- teach first, check after --------------------------------------------------------
CHECKING = "Checks, sources and timings"      # the last section of every chapter but 11
SUBJECT_OF_ITS_OWN = {"11_real_robots"}        # engines and timings are its subject
# code that runs another engine or a clock
CHECKING_CODE = re.compile(r"\b(import pinocchio|pinocchio\.|pin\.\w|mujoco|roboticstoolbox"
                           r"|rtb\.|modern_robotics|idyntree|timeit|perf_counter"
                           r"|process_time|time\.time\b|time\.monotonic)")
SOURCE_NOTE = re.compile(r"\{admonition\}\s*Source note", re.I)
TEACHING = [name for name in (Path(d).name for d in chapters())
            if name not in SUBJECT_OF_ITS_OWN]


def teaching_cells(name):
    """The cells of chapter ``name`` before its checking section, and whether it has one."""
    nb = json.loads((ROOT / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
    for k, cell in enumerate(nb["cells"]):
        if (cell["cell_type"] == "markdown"
                and re.search(rf"^## {CHECKING}\s*$", "".join(cell["source"]), re.M)):
            return nb["cells"][:k], True
    return nb["cells"], False


@pytest.mark.parametrize("name", TEACHING)
def test_the_teaching_comes_before_the_checks(name):
    cells, found = teaching_cells(name)
    assert found, f"{name}: no section '## {CHECKING}'"
    engines = [m.group(0) for c in cells if c["cell_type"] == "code"
               for m in CHECKING_CODE.finditer("".join(c["source"]))]
    notes = [k for k, c in enumerate(cells)
             if c["cell_type"] == "markdown" and SOURCE_NOTE.search("".join(c["source"]))]
    assert not engines, f"{name}: another engine or a clock before '{CHECKING}': {engines}"
    assert not notes, f"{name}: Source note boxes in cells {notes} before '{CHECKING}'"


def test_the_checking_pattern_sees_engines_and_clocks():
    for code in ("import pinocchio as pin", "pin.rnea(m, d, q, v, a)", "timeit.repeat(f)",
                 "t0 = time.perf_counter()", "mujoco.mj_forward(m, d)"):
        assert CHECKING_CODE.search(code), code
    for code in ("spin.rnea(x)", "t = np.linspace(0, 1)", "runtime = 3", "pinned_chain(4)"):
        assert not CHECKING_CODE.search(code), code


@pytest.mark.parametrize("name", [Path(d).name for d in chapters()])
def test_what_the_page_folds_is_collapsed_in_jupyter(name):
    """A cell whose code (output) the page folds or removes is stored with
    ``jupyter.source_hidden`` (``outputs_hidden``), and only such a cell: JupyterLab,
    Notebook 7 and Colab then show what the page shows."""
    nb = json.loads((ROOT / "book" / f"{name}.ipynb").read_text(encoding="utf-8"))
    source = {"hide-input", "hide-cell", "remove-input", "remove-cell"}
    output = {"hide-output", "hide-cell", "remove-output", "remove-cell"}
    wrong = []
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        tags, jupyter = set(cell["metadata"].get("tags", [])), cell["metadata"].get("jupyter", {})
        if bool(tags & source) != bool(jupyter.get("source_hidden")):
            wrong.append((k, "source_hidden", sorted(tags)))
        if bool(tags & output) != bool(jupyter.get("outputs_hidden")):
            wrong.append((k, "outputs_hidden", sorted(tags)))
    assert not wrong, f"{name}: run scripts/strip_notebooks.py: {wrong}"


# --- equations of other chapters in words ------------------------------------------------
# JupyterLab numbers the equations of one notebook and shows an {eq} reference to another
# notebook's equation as its bare label; such references are written in words ("Kim's eq.
# (11)", "the Lagrange equations of chapter 3").

def labels_and_references(name):
    text = "\n".join(chapter_cells(name, "markdown"))
    defined = set(re.findall(r"^:label:\s*(\S+)", text, re.M))
    return defined, re.findall(r"\{eq\}`([^`]+)`", text)


@pytest.mark.parametrize("name", [Path(d).name for d in chapters()])
def test_no_reference_to_an_equation_of_another_chapter(name):
    defined, referenced = labels_and_references(name)
    foreign = sorted(set(referenced) - defined)
    assert not foreign, f"{name}: {{eq}} to equations of other chapters: {foreign}"
