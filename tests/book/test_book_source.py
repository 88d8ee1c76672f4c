"""Source checks of the book's markdown: inline math that the markdown parser would break.

MyST parses blocks before inline math. In a paragraph whose `$...$` span continues on the next
line, a continuation line that starts with `+ `, `- `, `* `, `1. `, `#` or `>` opens a list item,
a heading or a block quote: the paragraph ends there, the math is cut in two, and the rest of the
paragraph pairs its `$` signs wrongly (raw TeX and raw `{cite}` roles in the HTML). A `$` left
without a partner in a paragraph is printed as a dollar sign. Both are caught here, on the markdown
cells of every notebook of `_toc.yml` and on every `.md` file of the table of contents (and the
`.md` files they `{include}`), without building the book. `tests/browser/test_book_pages.py` checks
the rendered pages for what gets through.

Mirrors the parser where it matters: fenced code and literal directives (`{math}`,
`{literalinclude}`, ...) are skipped, directives with markdown content (`{exercise}`,
`{prf:proof}`, `{note}`, ...) are scanned; `$$` blocks and `$$...$$` spans are display math;
`\\$` is an escaped dollar; a code span hides its `$` signs; a `$` inside inline math closes it.
"""
import json
import re

import pytest

from common import ROOT, load_script

# the toc walker of the equation-map generator (scripts/equation_map.py) lists the sources
EQUATION_MAP = load_script(ROOT / "scripts" / "equation_map.py")
# Directives whose body is not markdown text: skipped like fenced code.
LITERAL_DIRECTIVES = {
    "math", "code", "code-block", "sourcecode", "code-cell", "literalinclude", "include",
    "index", "raw", "eval-rst", "mermaid", "csv-table", "toctree", "bibliography",
    "tableofcontents", "autofunction", "autoclass", "automodule", "automethod", "autodata",
    "autoattribute", "autosummary", "graphviz", "jupyter-execute", "ipython", "doctest",
    "testcode", "testoutput",
}
FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*(.*?)\s*$")
# What a line may start with that ends a paragraph (or opens a container) instead of continuing it.
BLOCK_START = re.compile(r"^\s*(?:[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|#{1,6}(?:\s|$)|>|\$\$)")
DISPLAY_OPEN = re.compile(r"^\s*\$\$")
DISPLAY_CLOSE = re.compile(r"\$\$\s*(?:\([^()]*\))?\s*$")
TARGET = re.compile(r"^\s*\([^()]*\)=\s*$")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")


def toc_sources():
    """Files of the root and every `file:` entry of `_toc.yml`, plus `.md` files they include."""
    files = [path for _, path in EQUATION_MAP.toc_files()]
    queue = [f for f in files if f.suffix == ".md"]
    while queue:                                   # `{include}`d markdown is part of the page
        f = queue.pop()
        for inc in re.findall(r"^\s*[`:]{3,}\{include\}\s+(\S+\.md)\s*$", f.read_text(), re.M):
            g = (f.parent / inc).resolve()
            if g.is_file() and g not in files:
                files.append(g)
                queue.append(g)
    return files


def markdown_blocks(path):
    """(cell index or None, markdown text) of a notebook's markdown cells or of a `.md` file."""
    if path.suffix == ".ipynb":
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        return [(i, "".join(c["source"])) for i, c in enumerate(cells)
                if c["cell_type"] == "markdown"]
    return [(None, path.read_text(encoding="utf-8"))]


def paragraphs(text):
    """Paragraphs of prose, as lists of (line number, line), outside fences and `$$` blocks.

    A line that starts a block (list item, heading, `$$`, fence) is kept in its paragraph when
    inline math is open: `scan` reports it there.
    """
    stack = []            # open fences: (character, length, body is markdown)
    para, out, table = [], [], False
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        line, number = lines[k], k + 1
        k += 1
        fence = FENCE.match(line)
        prose = all(t for _, _, t in stack)
        if fence:
            char, length, info = fence.group(1)[0], len(fence.group(1)), fence.group(2)
            if stack and char == stack[-1][0] and length >= stack[-1][1] and not info:
                stack.pop()                        # closes the innermost fence
                para = _flush(para, out)
                continue
            if prose and not (char == "`" and "`" in info):
                name = re.match(r"\{([^}]*)\}", info)
                markdown = bool(name) and name.group(1) not in LITERAL_DIRECTIVES
                stack.append((char, length, markdown))
                para = _flush(para, out)
                continue
        if not prose:
            continue
        if not line.strip() or line.lstrip().startswith("%") or TARGET.match(line):
            para, table = _flush(para, out), False
            continue
        if line.lstrip().startswith("|") and (table or k < len(lines)
                                              and TABLE_RULE.match(lines[k])):
            para, table = _flush(para, out), True  # every cell of a table row is a paragraph
            out += [[(number, cell)] for cell in re.split(r"(?<!\\)\|", line)]
            continue
        table = False
        if DISPLAY_OPEN.match(line):
            if open_inline(para):                  # cut the paragraph: reported by `scan`
                para.append((number, line))
            para = _flush(para, out)
            rest = line.split("$$", 1)[1]
            if DISPLAY_CLOSE.search(rest):         # `$$ ... $$` on one line
                continue
            while k < len(lines) and not DISPLAY_CLOSE.search(lines[k]):
                k += 1
            k += 1                                 # the closing line
            continue
        if re.match(r"^\s*#{1,6}(\s|$)", line) and not open_inline(para):
            para = _flush(para, out)               # a heading is a paragraph of its own
            out.append([(number, line)])
            continue
        para.append((number, line))
    _flush(para, out)
    return out


def _flush(para, out):
    if para:
        out.append(para)
    return []


def open_inline(para):
    """Whether the paragraph so far ends inside an inline math span."""
    return bool(para) and scan(para)[1] is not None


def scan(para):
    """Problems of one paragraph, and the unclosed math span at its end: (token, line) or None."""
    problems = []
    math = None           # None, or ("$" or "$$", line number where it opened)
    text = "\n".join(line for _, line in para)
    starts = [0]
    for _, line in para[:-1]:
        starts.append(starts[-1] + len(line) + 1)

    def line_of(pos):
        return para[max(j for j, s in enumerate(starts) if s <= pos)][0]

    i, next_line = 0, 1
    while i < len(text):
        while next_line < len(starts) and i >= starts[next_line]:
            # entering a new line: does it start a block while math is open?
            line = para[next_line][1]
            if math and BLOCK_START.match(line):
                problems.append((para[next_line][0],
                                 f"line starts a markdown block (list, heading, quote, $$) inside "
                                 f"`{math[0]}` math opened on line {math[1]}: {line.strip()!r}"))
                math = None                        # the parser cuts the span here
                if DISPLAY_OPEN.match(line):       # the rest is a `$$` block, skipped
                    i = starts[next_line] + len(line)
            next_line += 1
        if i >= len(text):
            break
        c = text[i]
        if c == "\\":
            i += 2
        elif c == "`" and not math:                # a code span hides everything up to the
            run = re.match(r"`+", text[i:]).group()    # next run of as many backticks
            end = re.compile(r"(?<!`)" + run + r"(?!`)").search(text, i + len(run))
            i = end.end() if end else i + len(run)
        elif c == "$" and math and math[0] == "$":  # the next `$` closes inline math
            math, i = None, i + 1
        elif c == "$" and math:                    # `$$` closes `$$`; a lone `$` is content
            if text.startswith("$$", i):
                math, i = None, i + 2
            else:
                i += 1
        elif c == "$":
            token = "$$" if text.startswith("$$", i) else "$"
            math, i = (token, line_of(i)), i + len(token)
        else:
            i += 1
    return problems, math


def problems_of(path):
    """'cell N, line L: what' for every problem of a notebook or `.md` file."""
    return problems_of_blocks(markdown_blocks(path))


def problems_of_blocks(blocks):
    found = []
    for cell, text in blocks:
        where = f"cell {cell}, " if cell is not None else ""
        for para in paragraphs(text):
            problems, math = scan(para)
            found += [f"{where}line {n}: {msg}" for n, msg in problems]
            if math:
                found.append(f"{where}line {math[1]}: unbalanced `{math[0]}` (no closing "
                             f"`{math[0]}` before the paragraph ends on line {para[-1][0]})")
    return found


def problems_of_text(text):
    return [msg.split(": ", 1)[0] for msg in problems_of_blocks([(None, text)])]


@pytest.mark.parametrize("text, expected", [
    ("a $x\n+ y$ b", ["line 2", "line 2"]),           # the bullet, then the orphan `$`
    ("a $x +\ny$ b\n- item $z$", []),
    ("a $x\n  1. y$", ["line 2", "line 2"]),
    ("a $x\n$$\ny\n$$", ["line 2"]),                  # `$$` opens a block mid-paragraph
    ("costs \\$5, `$HOME` and $$a$$ and $b$", []),
    ("one $ sign", ["line 1"]),
    ("```python\nx = '$'\n```\n```{note}\nodd $\n```", ["line 5"]),
    ("````{solution} e\n```python\n$\n```\n$y$\n````\n```{math}\n$\n```", []),
    ("$$\na $ b\n$$\n\n| $a$ | b |\n|---|---|\n| $c | d$ |", ["line 7"] * 2),
])
def test_scanner(text, expected):
    assert problems_of_text(text) == expected


@pytest.mark.parametrize("path", toc_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_inline_math_survives_markdown(path):
    found = problems_of(path)
    if found:
        pytest.fail(f"{path.relative_to(ROOT)}:\n  " + "\n  ".join(found), pytrace=False)


@pytest.mark.parametrize("path", toc_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_labels_are_lowercase(path):
    """MyST in JupyterLab lowercases the id of a labelled equation or target (Sphinx
    does too, for its references): a label with capitals is then not found by what
    links to it, nor by tests/browser/test_lab.py. Keep labels lowercase."""
    text = path.read_text()
    labels = re.findall(r":label: (\S+?)(?:\\n|\"|\s|$)", text, re.M)
    labels += re.findall(r"\((\S+?)\)=", text)
    assert labels == [] or all(label == label.lower() for label in labels), \
        [label for label in labels if label != label.lower()]
