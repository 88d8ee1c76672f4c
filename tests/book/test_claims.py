"""Every factor the prose claims is shown by a cell of its chapter, and every erratum says
what kind of slip it is.

The rule of the book: a number, ratio or comparison in a chapter's prose is printed or asserted
by a cell of that chapter (a timing as a ratio measured in the same run, asserted loosely). What
can be checked without running the chapters is checked here:

* every factor in a chapter's prose ("10 times", "three times faster", "2x", "a 3-fold", "two
  to three orders of magnitude", "10 %", "almost twice"), math and code spans left out, is a
  number that an ``assert`` statement or a ``print`` call of one of the chapter's code cells
  (or a stored output) contains: the factor itself or its reciprocal (a claim "ten times
  smaller" asserted as ``< 0.1 * ...``), ``10**N`` or ``10**-N`` for N orders of magnitude,
  N/100, 1 - N/100 or 1 + N/100 for N percent. Timing factors are left out of the prose for
  this reason: they change from run to run, so the text points at the printed ratio and the
  cell asserts it loosely;
* each table of the errata appendix has a "kind" column, and each entry's kind is one of the
  kinds the appendix defines (the RNEA notes' table once had none).
"""
import ast
import json
import math
import re

import pytest

from common import ROOT, chapters

WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15,
         "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100,
         "a hundred": 100, "thousand": 1000, "a thousand": 1000, "twice": 2, "half": 0.5}
NUMBER = (r"(?:\d+(?:\.\d+)?|a hundred|a thousand|" + "|".join(
    sorted((w for w in WORDS if " " not in w), key=len, reverse=True)) + ")")
RANGE = rf"(?P<a>{NUMBER})(?:\s*(?:to|-|–|or)\s*(?P<b>{NUMBER}))?"
CLAIMS = [  # (kind, pattern): the factor claims of prose
    # "N times" as a factor ("3 times faster", "ten times as", "2 times the"), not a count
    # ("sweeps the tree three times and ...")
    ("factor", re.compile(rf"\b{RANGE}\s+times\s+(?:\w+er\b|more\b|less\b|as\b|the\b|"
                          r"that\b|its\b|worse\b|better\b)", re.I)),
    ("factor", re.compile(rf"\b{RANGE}\s*-?\s*fold\b", re.I)),
    ("factor", re.compile(rf"(?<![\w.]){RANGE}\s?[x×](?![\w-])", re.I)),
    ("factor", re.compile(r"\b(?:about|almost|nearly|roughly|some|over|more than) "
                          r"(?P<a>twice|half)\b", re.I)),
    ("orders", re.compile(rf"\b{RANGE}\s+orders? of magnitude", re.I)),
    ("percent", re.compile(rf"(?<![\w.]){RANGE}\s?(?:%|per ?cent)", re.I)),
]
KINDS = ("wrong as printed", "conversion?", "in print", "notation", "wording")


def prose(markdown):
    """The words of a markdown cell: math, code, directives' options and targets left out."""
    text = re.sub(r"(?ms)^(`{3,}|:{3,})\s*(?:python|\{math\}|\{code-cell\}).*?^\1\s*$", " ",
                  markdown)
    text = re.sub(r"(?s)\$\$.*?\$\$", " ", text)
    text = re.sub(r"(?<!\\)\$[^$\n]+\$", " ", text)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"(?m)^\s*:[\w-]+:.*$", " ", text)
    return " ".join(text.split())


def value(word):
    word = word.lower()
    return WORDS[word] if word in WORDS else float(word)


def claims(markdown):
    """(kind, values, excerpt) of every factor claim in the prose of ``markdown``."""
    text = prose(markdown)
    found = []
    for kind, pattern in CLAIMS:
        for m in pattern.finditer(text):
            values = [value(m[g]) for g in ("a", "b") if g in m.groupdict() and m[g]]
            found.append((kind, values, text[max(0, m.start() - 50):m.end() + 20]))
    return found


def _number(node):
    """The value of a constant numeric expression (10 ** -7, 1 / 3, -2.5), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        x = _number(node.operand)
        return None if x is None else (-x if isinstance(node.op, ast.USub) else x)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.Div, ast.Mult)):
        a, b = _number(node.left), _number(node.right)
        if a is None or b is None or (isinstance(node.op, ast.Div) and b == 0):
            return None
        with_op = {ast.Pow: lambda: a ** b, ast.Div: lambda: a / b, ast.Mult: lambda: a * b}
        try:
            return float(with_op[type(node.op)]())
        except OverflowError:
            return None
    return None


def shown_numbers(code_cells, outputs=()):
    """The numbers that the ``assert`` statements and ``print`` calls of the code cells
    contain (constant expressions evaluated), and the numbers of stored outputs."""
    shown = set()
    for source in code_cells:
        lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
        try:
            tree = ast.parse("\n".join(lines))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            printed = (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                       and node.func.id == "print")
            if isinstance(node, ast.Assert) or printed:
                for sub in ast.walk(node):
                    x = _number(sub)
                    if x is not None:
                        shown.add(abs(x))
    for text in outputs:
        shown |= {abs(float(x)) for x in re.findall(r"\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)}
    return shown


def backed(kind, x, shown):
    """Whether a claim of ``kind`` and value ``x`` is among the ``shown`` numbers."""
    if kind == "orders":
        candidates = {x, 10.0 ** x, 10.0 ** -x}
    elif kind == "percent":
        candidates = {x, x / 100, 1 - x / 100, 1 + x / 100}
    else:
        candidates = {x, 1 / x}
    return any(math.isclose(c, s, rel_tol=1e-9) for c in candidates for s in shown)


def unbacked_claims(markdown_cells, code_cells, outputs=()):
    """The factor claims of the prose that no assert, print or output of the code shows."""
    shown = shown_numbers(code_cells, outputs)
    return [(kind, values, excerpt) for md in markdown_cells
            for kind, values, excerpt in claims(md)
            if not all(backed(kind, x, shown) for x in values)]


def chapter(docname):
    nb = json.loads((ROOT / (docname + ".ipynb")).read_text(encoding="utf-8"))
    markdown = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    outputs = ["".join(o.get("text", "")) if isinstance(o.get("text", ""), (str, list))
               else "" for c in nb["cells"] if c["cell_type"] == "code"
               for o in c.get("outputs", [])]
    return markdown, code, outputs


@pytest.mark.parametrize("docname", chapters(), ids=lambda d: d.rsplit("/", 1)[-1])
def test_every_factor_in_the_prose_is_shown_by_a_cell(docname):
    bad = unbacked_claims(*chapter(docname))
    assert not bad, (f"{docname}: factors in the prose that no assert or print of the "
                     f"chapter shows: {bad}")


def test_the_check_finds_a_planted_claim():
    markdown = ["The recursion is 7 times faster than the dense solve ($6\\times 6$ blocks)."]
    [(kind, values, _)] = unbacked_claims(markdown, ["ratio = t_dense / t_rec\nassert ratio > 3"])
    assert (kind, values) == ("factor", [7])
    assert unbacked_claims(markdown, ["print('7 calls')\nassert ratio > 7"]) == []
    assert unbacked_claims(markdown, ["# 7 times faster\nassert ratio > 3"]), \
        "a comment is not a check"
    # the reciprocal, orders of magnitude and percentages
    assert unbacked_claims(["Baumgarte's error stays ten times smaller."],
                           ["assert drift[1] < 0.1 * drift[0]"]) == []
    orders = ["two to three orders of magnitude slower"]
    assert unbacked_claims(orders, ["assert 1e2 < r < 10 ** 3"]) == []
    assert unbacked_claims(orders, ["assert 1e2 < r"])[0][1] == [2, 3]
    assert unbacked_claims(["masses 10 % light"], ["N_model = 0.9 * N(q)\nassert e > 0"])
    assert unbacked_claims(["masses 10 % light"], ["print(0.9 * N(q))"]) == []
    # stored outputs count; math and code spans are not claims
    assert unbacked_claims(["about 3 times faster"], [], ["ratio: 3 times"]) == []
    assert claims("a $6 \\times 6$ matrix, `2x` in code, $n$ times, visits twice, "
                  "sweeps the tree three times and stops") == []
    assert [c[1] for c in claims("a 3-fold gain, 2x faster, almost twice as much")] == \
        [[3], [2], [2]]


def errata_tables(text):
    """(header, rows) of every table of an errata page that lists slips."""
    tables, current = [], None
    for line in text.splitlines() + [""]:
        if line.startswith("| location |"):
            current = ([c.strip() for c in line.strip("|").split(" | ")], [])
        elif current and line.startswith("|") and not line.startswith("|---"):
            current[1].append([c.strip() for c in line.strip().strip("|").split(" | ")])
        elif current and not line.startswith("|"):
            tables.append(current)
            current = None
    return tables


def wrong_kinds(text):
    """Tables without a kind column, and entries whose kind is none of the defined ones."""
    bad = []
    for header, rows in errata_tables(text):
        if "kind" not in header:
            bad.append(("no kind column", header))
            continue
        k = header.index("kind")
        bad += [("kind", row[k]) for row in rows if not row[k].startswith(KINDS)]
    return bad


@pytest.mark.parametrize("path", sorted((ROOT / "book" / "appendix" / "errata").glob("*.md")),
                         ids=lambda p: p.stem)
def test_every_erratum_says_what_kind_of_slip_it_is(path):
    assert not wrong_kinds(path.read_text(encoding="utf-8")), path.name


def test_the_kinds_are_those_the_appendix_defines():
    intro = (ROOT / "book" / "appendix" / "errata.md").read_text(encoding="utf-8")
    for kind in KINDS:
        assert f"**{kind}**" in intro, kind
    planted = ("| location | as printed | corrected |\n|---|---|---|\n| appendix | x | y |\n\n"
               "| location | kind | as printed |\n|---|---|---|\n| s. 1 | typo | x |\n")
    assert wrong_kinds(planted) == [("no kind column", ["location", "as printed", "corrected"]),
                                    ("kind", "typo")]


def test_the_errors_appendix_states_the_constants_of_the_code():
    """Each "`NAME` = value" of the errors appendix is the value of liedyn's NAME (a
    tolerance changed in the code and not in the table fails here)."""
    import importlib
    import pkgutil

    import liedyn
    text = (ROOT / "book" / "appendix" / "errors.md").read_text()
    stated = re.findall(r"`([A-Z_]+)` = ([0-9.e+-]+)", text)
    assert {name for name, _ in stated} >= {"QUAT_TOL", "CHART_TOL", "PIVOT_TOL",
                                            "ENERGY_GROWTH", "MAX_DEPTH"}
    modules = [importlib.import_module(f"liedyn.{m.name}")
               for m in pkgutil.iter_modules(liedyn.__path__)]
    for name, value in stated:
        actual = {getattr(m, name) for m in modules if hasattr(m, name)}
        assert actual == {float(value)}, (name, value, actual)
