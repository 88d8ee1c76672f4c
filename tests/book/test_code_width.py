"""The code of the book fits the page: at most WIDTH characters a line.

At a 1400 px window a code cell of the HTML book shows 88 characters before it scrolls (a
library listing 89, a few cells 86); WIDTH leaves a margin. Checked here, without a browser:
* every line of the library `liedyn/` (code, comments and docstrings: the listings show the
  code, the API page the docstrings);
* every line of a notebook code cell, unless the cell carries the tag `scroll-wide`
  (intentionally wide; tests/browser/test_book_pages.py exempts the same cells);
* every line of fenced code in a markdown cell: the library listings written by
  scripts/listings.py and any other code block (directives such as `{math}` are prose).
tests/browser/test_book_pages.py measures the built pages themselves (code beside a table or an
equation has a narrower column).
"""
import json
import re

import pytest

from common import ROOT

WIDTH = 84
LIBRARY = sorted((ROOT / "liedyn").rglob("*.py"))
CHAPTERS = sorted(ROOT.glob("book/*.ipynb"))
FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*(.*)$")
CODE_DIRECTIVES = {"{code-block}", "{code}", "{code-cell}", "{sourcecode}"}


def fenced_code(markdown):
    """The lines of markdown that lie in fenced code blocks (not in other directives)."""
    stack, lines = [], []
    for line in markdown.splitlines():
        m = FENCE.match(line)
        if m and stack and m.group(1)[0] == stack[-1][0][0] \
                and len(m.group(1)) >= len(stack[-1][0]) and not m.group(2).strip():
            stack.pop()
        elif m and not (stack and stack[-1][1]):
            info = m.group(2).strip()
            code = m.group(1)[0] != ":" and (not info.startswith("{")
                                             or info.split()[0] in CODE_DIRECTIVES)
            stack.append((m.group(1), code))
        elif stack and stack[-1][1]:
            lines.append(line)
    return lines


def too_long(lines, where):
    return [f"{where}: {len(line)} characters: {line.strip()[:60]}"
            for line in lines if len(line) > WIDTH]


def notebook_lines(path):
    """(where, lines) of every code cell without the `scroll-wide` tag and of the fenced code
    of every markdown cell."""
    for k, cell in enumerate(json.loads(path.read_text())["cells"]):
        source = "".join(cell["source"])
        where = f"{path.name} cell {k}"
        if cell["cell_type"] == "code":
            if "scroll-wide" not in cell.get("metadata", {}).get("tags", []):
                yield where, source.splitlines()
        elif cell["cell_type"] == "markdown":
            yield where + " (fenced code)", fenced_code(source)


@pytest.mark.parametrize("path", LIBRARY, ids=lambda p: str(p.relative_to(ROOT)))
def test_library_lines_fit_the_page(path):
    found = too_long(path.read_text().splitlines(), path.relative_to(ROOT))
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_notebook_code_fits_the_page(path):
    found = [msg for where, lines in notebook_lines(path) for msg in too_long(lines, where)]
    assert not found, "\n".join(found)


def test_the_checks_see_long_lines():
    long = "x = " + "1 + " * 30 + "1"
    markdown = ("text " * 40 + "\n\n```python\n" + long + "\n```\n\n```{math}\n"
                + "a + " * 40 + "\n```\n\n````{solution} ex\n```python\n" + long
                + "\n```\n````\n")
    assert fenced_code(markdown) == [long, long]           # prose and math are not code
    assert len(too_long(fenced_code(markdown), "md")) == 2
    assert too_long(["y = 1", "z" * WIDTH], "ok") == []
    assert too_long(["z" * (WIDTH + 1)], "wide") == [f"wide: {WIDTH + 1} characters: "
                                                      + "z" * 60]


def test_scroll_wide_exempts_a_code_cell(tmp_path):
    long = "x = " + "1 + " * 30 + "1"
    cells = [{"cell_type": "code", "metadata": {"tags": tags}, "source": [long]}
             for tags in ([], ["scroll-wide"])]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells}))
    found = [m for where, lines in notebook_lines(path) for m in too_long(lines, where)]
    assert len(found) == 1 and found[0].startswith("nb.ipynb cell 0:")
