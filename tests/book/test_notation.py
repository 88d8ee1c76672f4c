"""The notation appendix lists each symbol once, in the table of the chapter that defines it.

book/appendix/notation.md includes one table per chapter (book/appendix/notation/chNN.md); a
row's first cell holds the symbols it defines. A later chapter that uses a symbol does not list
it again. A source's own letters carry the source's name, "$C$ (Murray's notes)", and so are
another symbol. The few letters that keep two meanings in the book are listed, with both
meanings, in the appendix's section "Letters with two meanings"; only they may head two rows.

Checked on the markdown sources, without building the book.
"""
import re

import pytest

from common import ROOT

APPENDIX = ROOT / "book" / "appendix"
TABLES = sorted((APPENDIX / "notation").glob("ch*.md"))
MACROS = [(r"\I", r"\mathcal I"), (r"\Ad", r"\mathrm{Ad}"), (r"\ad", r"\mathrm{ad}"),
          (r"\operatorname", r"\mathrm"), (r"\boldsymbol", ""), (r"\top", r"\mathsf T")]
ONE_ARGUMENT = {r"\mathcal", r"\mathbb", r"\mathfrak", r"\mathrm", r"\hat", r"\dot", r"\ddot",
                r"\bar", r"\tilde", r"\mathsf"}
TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\S")


def split_outside(text, sep):
    """``text`` split at ``sep``: a table's "|" outside $...$ and `...`; a "," or "=" of a
    formula outside brackets."""
    parts, depth, current, math, code, k = [], 0, "", False, False, 0
    while k < len(text):
        ch = text[k]
        if ch == "\\" and k + 1 < len(text):
            current += text[k:k + 2]
            k += 2
            continue
        if ch == "`" and not math:
            code = not code
        elif ch == "$" and not code:
            math = not math
        depth += (ch in "({[") - (ch in ")}]")
        split = not (math or code) if sep == "|" else depth == 0
        if ch == sep and split:
            parts.append(current)
            current = ""
        else:
            current += ch
        k += 1
    return parts + [current]


def rows(text):
    """(first cell, second cell) of every row of the symbol tables of a markdown text."""
    found, in_table = [], False
    for line in text.splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in split_outside(line.strip().strip("|"), "|")]
        if cells[0] == "symbol":
            in_table = True
        elif in_table and not set(cells[0]) <= set("-: "):
            found.append((cells[0], cells[1]))
    return found


def normalize(tex):
    """One spelling of a LaTeX symbol: the book's macros expanded, spaces and the braces
    around a single token dropped, a trailing argument list dropped unless it is a body
    index, as in $\\lambda(i)$ ($M(q)$ and $M$ are one symbol)."""
    for short, full in MACROS:
        tex = re.sub(re.escape(short) + r"(?![A-Za-z])", lambda _, full=full: full, tex)
    tex = re.sub(r"\\[,;!]|\\q?quad", "", tex)
    tokens = TOKEN.findall(tex)

    def group(k):
        items = []
        while k < len(tokens) and tokens[k] != "}":
            if tokens[k] == "{":
                inner, k = group(k + 1)
                items.append(inner)
            else:
                items.append(tokens[k])
            k += 1
        return items, k

    def render(items):
        out = ""
        for item in items:
            if isinstance(item, list):
                single = len(item) == 1 or (len(item) == 2 and item[0] in ONE_ARGUMENT)
                item = render(item) if single else "{" + render(item) + "}"
            if re.search(r"\\[A-Za-z]+$", out) and re.match(r"[A-Za-z]", item):
                out += " "
            out += item
        return out

    symbol = render(group(0)[0])
    call = re.fullmatch(r"(.+?)(\((?:[^()]|\([^()]*\))*\))", symbol)
    if call and not call[1].endswith(("^", "_")) and not re.fullmatch(r"\([ijk]\)", call[2]) \
            and not re.fullmatch(r"[A-Z]{2,}", call[1]):
        symbol = call[1]
    return symbol


def symbols(cell):
    """The symbols a row defines. A cell with words outside its math ("support of $i$",
    "$C$ (Murray's notes)") names one thing; otherwise each comma-separated math item is a
    symbol, the left side of its first '=' (a parenthesized tuple is one symbol)."""
    words = re.sub(r"\$[^$]*\$", "", cell).replace(",", "").strip()
    if words:
        return [" ".join(re.sub(r"\$([^$]*)\$", lambda m: f"${normalize(m[1])}$",
                                cell).split())]
    found = []
    for math in re.findall(r"\$([^$]*)\$", cell):
        math = math.strip()
        if math.startswith("(") and math.endswith(")") and len(split_outside(math, ",")) == 1:
            found.append(normalize(math))
            continue
        for item in split_outside(math, ","):
            if item.strip():
                found.append(normalize(split_outside(item, "=")[0]))
    return found


def listings(tables):
    """{symbol: [(table name, meaning), ...]} over the given (name, text) tables."""
    where = {}
    for name, text in tables:
        for cell, meaning in rows(text):
            for symbol in symbols(cell):
                where.setdefault(symbol, []).append((name, meaning))
    return where


def two_meanings():
    """The letters of the appendix's section "Letters with two meanings"."""
    text = (APPENDIX / "notation.md").read_text(encoding="utf-8")
    section = text.split("## Letters with two meanings", 1)[1].split("```{include}", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("| $")]
    return {normalize(m) for line in table
            for m in re.findall(r"\$([^$]*)\$", split_outside(line.strip("|"), "|")[0])}


def chapter_tables():
    return [(path.stem, path.read_text(encoding="utf-8")) for path in TABLES]


def test_the_appendix_includes_a_table_per_chapter():
    text = (APPENDIX / "notation.md").read_text(encoding="utf-8")
    assert [p.stem for p in TABLES] == [f"ch{k:02d}" for k in range(1, 12)]
    for path in TABLES:
        assert f"```{{include}} notation/{path.name}" in text, path.name
        assert len(rows(path.read_text(encoding="utf-8"))) >= 5, path.name


def test_each_symbol_is_listed_once():
    allowed = two_meanings()
    twice = {symbol: places for symbol, places in listings(chapter_tables()).items()
             if len(places) > 1 and symbol not in allowed}
    assert not twice, (
        "list each symbol once, in the table of the chapter that defines it (a source's own "
        "letters with the source's name, a letter with two meanings in \"Letters with two "
        f"meanings\"): {twice}")


def test_each_letter_with_two_meanings_is_listed_with_both():
    where = listings(chapter_tables())
    single = {letter: where.get(letter, []) for letter in two_meanings()
              if len(where.get(letter, [])) < 2}
    assert not single, f"these letters have one meaning left; drop them from the list: {single}"


@pytest.mark.parametrize("a, b", [
    (r"\hat{\I}_i", r"\hat{\mathcal I}_i"), (r"M(q)", "M"), (r"\operatorname{Ad}_T", r"\Ad_T"),
    (r"\dot{q}", r"\dot q"), (r"K(q, \dot q)", "K")])
def test_spellings_of_one_symbol_are_one_symbol(a, b):
    assert normalize(a) == normalize(b)


@pytest.mark.parametrize("a, b", [(r"\lambda(i)", r"\lambda"), ("SO(3)", "SO"), ("J_i", "J")])
def test_different_symbols_stay_different(a, b):
    assert normalize(a) != normalize(b)


def test_the_check_finds_a_planted_duplicate_and_accepts_a_named_source():
    header = "| symbol | meaning | Python | shape | frame |\n|---|---|---|---|---|\n"
    first = header + "| $C(q, \\dot q)$ | Coriolis matrix | | | |\n| $N$ | bodies | | | |\n"
    second = header + ("| $C$ (Murray's notes) | their factorization | | | |\n"
                       "| $x$, $N = \\mathbf 1$ | a null-space basis | | | |\n"
                       "| $(x, y)$ | a point of the plane | | | |\n")
    where = listings([("one", first), ("two", second)])
    assert [name for name, _ in where["N"]] == ["one", "two"]
    assert len(where["C"]) == 1 and len(where["$C$ (Murray's notes)"]) == 1
    assert len(where["x"]) == 1 and "(x,y)" in where
