"""Generate the book's equation-to-code map, `book/appendix/equation_map.md`.

    .venv/bin/python scripts/equation_map.py          # rewrite the map
    .venv/bin/python scripts/equation_map.py --check  # exit 1 if the committed map is stale

Single source of truth, on both sides:

* **Code**: the docstring of every public function or class (listed in `__all__` of a public
  `liedyn` module, found with pkgutil; `liedyn.teach.exercises` and private modules are
  skipped) cites what it implements. A citation is a source name followed by a list of references:

      Kim (2012), eq. (31).                      Kim (2012), eqs. (37), (41); Table 2.
      Kim (2012), eqs. (6)-(7).                  Kim (2012), Table 2: forward pass eq. (37).
      From (2012), eq. (57).                     From (2012), Proposition 3.1, eq. (57).
      Murray, Li and Sastry, Ch. 4, eq. (4.12).  Zhang, Lecture 9, eq. (3).   RNEA notes, eq. (5).

  Source names (SOURCES below): `Kim (2012)` (year optional), `From (2012)` (year optional only
  right before a reference: `From eq. (58)`), `Murray, Li and Sastry` / `Murray-Li-Sastry` / `MLS`,
  `Zhang`, `RNEA notes`; any other `Name (year)` / `Name and Name (year)` / `Name et al. (year)`
  is kept as a further reference (shown in the by-function table, not in the equation rows).
  A source named with no reference after it counts as citing the whole work (for the texts
  without numbered equations: "Zhang, Lecture 9", "RNEA notes"); bare "Kim" or "From" does not.
  References: `eq.`/`eqs.`/`equation(s)` with `(N)`, ranges `(N)-(M)`, lists `(N), (M) and (K)`;
  `Table(s) N[-M]`; `Section`, `Sec.`, `Lemma`, `Proposition`, `Definition`, `Ch.`, ... N.
  The references run on after the name, separated by `,` `;` `:` `and` and at most four plain
  words (`definition below eq. (5)`, `eq. (7) applied to eq. (4)`); a sentence end, a code span
  or anything else ends the citation, so context such as "(see eq. (11))" is not counted.
  A docstring whose summary says "Inverse of :func:`f`" also implements what `f` cites.
* **Book**: the chapters listed in `_toc.yml` label equations `kim-eq-N` (``:label:`` of a
  ``{math}`` block or ``$$ ... $$ (kim-eq-N)``; `kim-eq-6-7` covers (6) and (7)) and tables or
  sections `(kim-table-N)=`; likewise `from-`, `mls-`, `zhang-`, `rnea-`. A comment in a code
  cell that cites an equation marks it as checked there: `# eq. (8): ...` (a bare reference in
  a code comment means Kim (2012)), `# From (2012), eq. (57)`.

A public function or class that cites nothing must match a pattern of EXEMPT, with a reason
(tests/book/test_equation_map.py checks it); any citation counts, also a section or another work.
"""
import argparse
import fnmatch
import importlib
import inspect
import json
import pkgutil
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "book" / "appendix" / "equation_map.md"
API_PAGE = ROOT / "book" / "appendix" / "api.md"

# The five source texts. key: (title in the map, regex of the name in a docstring); the key is
# also the prefix of the book's labels (`kim-eq-31`).
SOURCES = {
    "kim": ("Kim (2012)", r"\bKim(?:'s)?(?:\s*\(2012\))?"),
    "from": ("From (2012)",
             r"\bFrom(?:'s)?\s*\(2012\)|\bFrom(?:'s)?(?=\s+(?:eqs?\.|Table|Lemma|Prop))"),
    "mls": ("Murray, Li and Sastry",
            r"\bMurray(?:,\s*|-|\s+)Li,?(?:\s+(?:and|&)\s+|-|\s+)Sastry(?:\s*\(\d{4}\))?|\bMLS\b"),
    "zhang": ("Zhang, Lecture 9", r"\bZhang(?:\s*\(\d{4}\))?(?:,?\s*Lecture\s*9)?"),
    "rnea": ("RNEA notes", r"\bRNEA notes\b"),
}
OTHER_SOURCE = (r"\b[A-Z][A-Za-z'-]+(?:(?:,\s*[A-Z][A-Za-z'-]+)*,?\s+(?:and|&)\s+[A-Z][A-Za-z'-]+"
                r"|\s+et al\.)?\s*\(\d{4}\)")
# Kim (2012): its sections, the equations and tables in each (from the text of the paper).
KIM_SECTIONS = [
    ("1", "Dynamics of a rigid body", [("1.1", 1, 8, []), ("1.2", 9, 13, []), ("1.3", 14, 24, []),
                                       ("1.4", 25, 29, []), ("1.5", 30, 31, [])]),
    ("2", "Dynamics of open chains", [("2", 32, 34, [1]), ("2.1", 35, 42, [2]),
                                      ("2.2", 43, 50, [3]), ("2.3", 51, 53, [4])]),
    ("3", "Dynamics of constrained systems", [("3", 54, 55, []), ("3.1", 56, 66, []),
                                              ("3.2", 67, 69, []), ("3.3", 70, 80, [])]),
    ("4", "Differentiation of the dynamics", [("4.1", 81, 91, []), ("4.2", 92, 92, [5, 6, 7])]),
]
KIM_EQUATIONS, KIM_TABLES = range(1, 93), range(1, 8)
# A bare "eq. (N)" or "Table N" in a code comment cites the chapter's own source: Kim (2012)
# except in the chapters listed here (chapter 3 follows From (2012): its "Table 1" is From's).
BARE_REFERENCE_SOURCE = {"book/03_lagrangian_mechanics": "from"}
# Public objects that implement no equation of the sources, with the reason. Keep it short:
# a function that implements an equation cites it in its docstring instead.
EXEMPT = {
    "record of an algorithm's intermediate results; the function returning it cites the source":
        ["liedyn.*.*Pass", "liedyn.*.*Partials"],
    "example models and random trees for the book and the tests": ["liedyn.robots.*"],
    "loading robot models from URDF and MJCF files":
        ["liedyn.urdf.*", "liedyn.urdf_visuals.*", "liedyn.mjcf.*",
         "liedyn.mujoco_coordinates.*"],
    "joint models: Kim (2012) takes each joint's T(q) and S(q) as given (Section 2)":
        ["liedyn.joints.*", "liedyn.joint.*"],
    "unit quaternions store spherical and free joint configurations; not in the sources":
        ["liedyn.lie.quat_*", "liedyn.lie.*_quat"],
    "rotational inertia of homogeneous solids, for building models":
        ["liedyn.inertia.box_inertia", "liedyn.inertia.cylinder_inertia",
         "liedyn.inertia.sphere_inertia", "liedyn.inertia.rod_inertia"],
    "numerical integration, not an equation of the sources":
        ["liedyn.body.lie_euler_step", "liedyn.body.simulate"],
    "the models an exercise checker tries": ["liedyn.teach.implement.unseen_models"],
    "exception types of the input checks (appendix Errors)": ["liedyn.errors.*"],
    "input conversion or validation helper":
        ["liedyn.symbolic.to_object_array", "liedyn.body.group",
         "liedyn.hybrid_dynamics.check_prescribed"],
}

NUM = r"\(\s*\d+(?:\.\d+)*[a-z]?\s*\)"
LIST_SEP = r"\s*(?:[-\u2013]|to|,\s*and|,|and)\s*"
EQ_REF = rf"(?:[Ee]qs?\.|[Ee]quations?)\s*{NUM}(?:{LIST_SEP}{NUM})*"
TABLE_REF = r"Tables?\s+\d+(?:\s*(?:[-\u2013]|to|,\s*and|,|and)\s*\d+)*"
OTHER_REF = (r"(?:Sections?|Secs?\.|\u00a7|Lemma|Proposition|Prop\.|Theorem|Definition|"
             r"Def\.|Property|Algorithm|Example|Figure|Fig\.|[Ff]ootnote|Chapter|Ch\.|Appendix)\s*"
             r"\d+(?:\.\d+)*(?:\s*[-\u2013]\s*\d+(?:\.\d+)*)?")
# the next reference of a citation: a separator, at most four plain words, a reference
NEXT_REF = re.compile(rf"\s*(?:[,;:]|\band\b)?\s*(?:[\w'/-]+\s+){{0,4}}?"
                      rf"({EQ_REF}|{TABLE_REF}|{OTHER_REF})")
LABEL = r"(kim|from|mls|zhang|rnea)-(eq|table)-(\d+(?:\.\d+)*)(?:-(\d+))?"


def _numbers(text, pattern):
    """Expand '(6)-(8), (11)' or '5-7 and 9' into ['6', '7', '8', '11'] / ['5', '6', '7', '9']."""
    out, in_range = [], False
    for tok in re.findall(rf"{pattern}|[-\u2013]|\bto\b", text):
        num = tok.strip("() ")
        if num in ("-", "\u2013", "to"):
            in_range = True
        elif in_range and out and out[-1].isdigit() and num.isdigit():
            out += [str(k) for k in range(int(out[-1]) + 1, int(num) + 1)]
            in_range = False
        else:
            out.append(num)
            in_range = False
    return out


def parse_citations(text):
    """Citations in a docstring or comment: a list of (source key or other name, kind, number).

    kind is "eq", "table" or "other" (then number is the reference text, e.g. "Section 1.1").
    """
    text = re.sub(r"``.*?``|:\w+:`[^`]*`|`[^`]*`", "\x00", text, flags=re.S)  # code ends a clause
    text = re.sub(r"\s+", " ", text)
    names = [(m.start(), m.end(), key) for key, (_, rx) in SOURCES.items()
             for m in re.finditer(rx, text)]
    names += [(m.start(), m.end(), m.group(0)) for m in re.finditer(OTHER_SOURCE, text)
              if not any(s <= m.start() < e or m.start() <= s < m.end() for s, e, _ in names)]
    found = []
    names.sort()
    for i, (start, end, key) in enumerate(names):
        pos, before = end, len(found)
        stop = names[i + 1][0] if i + 1 < len(names) else len(text)  # the next source's name
        while m := NEXT_REF.match(text, pos, stop):
            ref = m.group(1)
            pos = m.end()
            if re.match(EQ_REF, ref):
                found += [(key, "eq", n) for n in _numbers(ref, NUM)]
            elif re.match(TABLE_REF, ref):
                found += [(key, "table", n) for n in _numbers(re.sub(r"^Tables?", "", ref), r"\d+")]
            else:
                found.append((key, "other", ref))
        if len(found) == before and (key not in ("kim", "from") or "(" in text[start:end]):
            found.append((key, "other", ""))  # the whole work: "(Zhang, Lecture 9)"
    return list(dict.fromkeys(found))


def public_objects():
    """{qualified name: (object, citations)} of every public function and class of liedyn."""
    import liedyn
    modules = sorted(m.name for m in pkgutil.walk_packages(liedyn.__path__, "liedyn.")
                     if not any(p.startswith("_") for p in m.name.split("."))
                     and not (m.name + ".").startswith(("liedyn.teach.exercises.",
                                                        "liedyn.engine.")))
    objects = {}
    for name in modules:
        module = importlib.import_module(name)
        public = getattr(module, "__all__", None) or [
            n for n, o in vars(module).items() if not n.startswith("_")
            and getattr(o, "__module__", None) == name]
        for attr in public:
            obj = getattr(module, attr)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                objects.setdefault(f"{obj.__module__}.{obj.__qualname__}", obj)
    cites = {q: parse_citations(inspect.getdoc(o) or "") for q, o in objects.items()}
    for qual, obj in objects.items():  # "Inverse of :func:`f`" implements what f implements
        summary = (inspect.getdoc(obj) or "").split("\n\n")[0]
        m = re.search(r"[Ii]nverse\s+of\s+:(?:func|meth|class):`~?([\w.]+)`", summary)
        if m:
            target = next((q for q in objects if q == m.group(1) or
                           q == f"{obj.__module__}.{m.group(1)}"), None)
            if target and target != qual:
                own = {c[:3] for c in cites[qual]}
                cites[qual] = cites[qual] + [(k, kind, n, "inverse") for k, kind, n, *_
                                             in cites[target] if (k, kind, n) not in own]
    return {q: (objects[q], cites[q]) for q in objects}


def bare_references(doc):
    """Equation and table references in a docstring that follow no source name (for messages)."""
    text = re.sub(r"\s+", " ", re.sub(r"``.*?``|`[^`]*`", "\x00", doc or "", flags=re.S))
    return [m.group(0) for m in re.finditer(f"{EQ_REF}|{TABLE_REF}", text)]


def exemption(qualname):
    """The reason why `qualname` cites nothing, from EXEMPT, or None."""
    return next((why for why, patterns in EXEMPT.items()
                 if any(fnmatch.fnmatchcase(qualname, p) for p in patterns)), None)


def toc_files():
    """Source files (relative to the repo root) of the root and every chapter of `_toc.yml`."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    docs = [toc["root"]]

    def visit(entries):
        for entry in entries or []:
            docs.extend([entry["file"]] if "file" in entry else [])
            for key in ("parts", "chapters", "sections"):
                visit(entry.get(key))
    visit([toc])
    found = []
    for doc in docs:
        doc = re.sub(r"\.(md|ipynb)$", "", doc)
        path = next((ROOT / f"{doc}{ext}" for ext in (".ipynb", ".md")
                     if (ROOT / f"{doc}{ext}").is_file()), None)
        if path:  # a chapter in the toc that is not written yet is skipped
            found.append((doc, path))
    return found


def book_labels():
    """Labels and checks in the book: ({(source, kind, number): (role, label, doc)},
    {(source, kind, number): [docs with a code cell citing it]})."""
    labels, checks = {}, {}
    for doc, path in toc_files():
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text())["cells"]
            text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
            code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        else:
            text, code = path.read_text(), []
        found = [("eq", m) for m in re.findall(rf":label:\s*({LABEL})\s*$", text, re.M)]
        found += [("eq", m) for m in re.findall(rf"\$\$[ \t]*\(({LABEL})\)", text)]
        found += [("ref", m) for m in re.findall(rf"^\(({LABEL})\)=\s*$", text, re.M)]
        found += [("ref", m) for m in re.findall(rf":name:\s*({LABEL})\s*$", text, re.M)]
        for role, (label, src, kind, first, last) in found:
            numbers = [str(k) for k in range(int(first), int(last) + 1)] if last else [first]
            for n in numbers:
                labels.setdefault((src, kind, n), (role, label, doc))
        for key, kind, n in comment_citations(doc, code):
            if kind != "other":
                checks.setdefault((key, kind, n), []).append(doc)
    return labels, checks


def comment_citations(doc, code):
    """Citations in the code comments of a chapter; a bare "eq. (N)" or "Table N" cites the
    chapter's own source (BARE_REFERENCE_SOURCE: Kim (2012) unless listed)."""
    bare = SOURCES[BARE_REFERENCE_SOURCE.get(doc, "kim")][0]
    found = []
    for comment in re.findall(r"#(.*)", "\n".join(code)):
        found += [c for c in parse_citations(f"{bare}, " + comment.strip())
                  if c[0] in SOURCES and c[2]]
    return found


def book_index():
    """({label: (role, doc)} for every label in the toc chapters, {doc: text of all cells},
    {(source, kind, number): [docs whose code comments cite it]}, named results included)."""
    all_labels, texts, cites = {}, {}, {}
    for doc, path in toc_files():
        if path.suffix == ".ipynb":
            cells = json.loads(path.read_text())["cells"]
            text = "\n".join("".join(c["source"]) for c in cells)
            code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        else:
            text, code = path.read_text(), []
        texts[doc] = text
        for role, pattern in (("eq", r":label:\s*([\w.-]+)"), ("eq", r"\$\$[ \t]*\(([\w.-]+)\)"),
                              ("ref", r"^\(([\w.-]+)\)="), ("ref", r":name:\s*([\w.-]+)")):
            for label in re.findall(pattern, text, re.M):
                all_labels.setdefault(label, (role, doc))
        for key, kind, n in comment_citations(doc, code):
            cites.setdefault((key, kind, n), []).append(doc)
    return all_labels, texts, cites


def documented_modules():
    """Modules and objects autodoc'd on the API page: only those can be {py:func} targets."""
    text = API_PAGE.read_text() if API_PAGE.is_file() else ""
    return set(re.findall(r"^\s*\.\. auto(?:module|function|class)::\s*(\S+)", text, re.M))


def code_ref(qual, obj, documented):
    """A {py:func} link into the API page if it documents `qual`, else the name as code."""
    short = qual.split(".", 1)[1]
    if qual.rsplit(".", 1)[0] in documented or qual in documented:
        role = "py:class" if inspect.isclass(obj) else "py:func"
        return f"{{{role}}}`{short} <{qual}>`"
    return f"`{short}`"


def generate():
    """The map as a markdown string."""
    objects = public_objects()
    labels, checks = book_labels()
    documented = documented_modules()
    impl = {}
    for qual, (obj, cites) in objects.items():
        for key, kind, n, *inverse in cites:
            if key in SOURCES and (kind != "other" or n):
                ref = code_ref(qual, obj, documented) + (" (inverse)" if inverse else "")
                impl.setdefault((key, kind, n), []).append(ref)

    def row(key, kind, n, section=None):
        title = f"({n})" if kind == "eq" else f"Table {n}"
        role, label, doc = labels.get((key, kind, n), (None, None, None))
        book = (f"{{eq}}`{label}`" if role == "eq" else f"{{ref}}`derivation <{label}>`"
                if role else "")
        docs = list(dict.fromkeys(([doc] if doc else []) + checks.get((key, kind, n), [])))
        where = ", ".join(f"{{doc}}`/{d}`" for d in docs)
        code = ", ".join(impl.get((key, kind, n), []))
        status = "implemented" if code else "derived only" if docs else "not yet covered"
        cells = ([section] if section else []) + [title, book, where, code, status]
        return "| " + " | ".join(cells) + " |"

    head = "| {} | book | chapter | implemented by | status |\n|{}\n"
    out = [HEADER]
    kim_keys = [("eq", str(n)) for n in KIM_EQUATIONS] + [("table", str(n)) for n in KIM_TABLES]
    counts = {s: sum(row("kim", k, n).endswith(f"| {s} |") for k, n in kim_keys)
              for s in ("implemented", "derived only", "not yet covered")}
    out.append(f"Kim (2012): {counts['implemented']} of 99 equations and tables implemented, "
               f"{counts['derived only']} derived or checked only, "
               f"{counts['not yet covered']} not yet covered.\n")
    for number, title, subsections in KIM_SECTIONS:
        out.append(f"\n## Kim (2012), Section {number}: {title}\n\n")
        out.append(head.format("§ | Kim", "---|" * 6))
        for sec, first, last, tables in subsections:
            out += [row("kim", "eq", str(n), sec) + "\n" for n in range(first, last + 1)]
            out += [row("kim", "table", str(t), sec) + "\n" for t in tables]
    index = book_index()
    for key, (title, _) in SOURCES.items():
        if key == "kim":
            continue
        rows = source_rows(key, impl, labels, checks, index, objects, documented)
        status = [r.rsplit(" | ", 1)[1] for r in rows]
        counts = [sum(x.startswith(s) for x in status)
                  for s in ("implemented", "derived only", "not covered:", "**not covered")]
        out.append(f"\n## {title}\n\n{len(rows)} numbered equations, tables and named results: "
                   f"{counts[0]} implemented, {counts[1]} derived or checked only, {counts[2]} "
                   f"not covered, with the reason" + (f", {counts[3]} **not covered without a "
                                                      f"reason**" if counts[3] else "") +
                   ".\n\n" + head.format("§ | " + title, "---|" * 6))
        out += [r + "\n" for r in rows]
    out.append("\n## By function\n\nEvery public function and class of `liedyn` and what its "
               "docstring cites.\n\n| function | cites |\n|---|---|\n")
    for qual, (obj, cites) in objects.items():
        out.append(f"| {code_ref(qual, obj, documented)} | {describe(cites, qual)} |\n")
    return "".join(out)


def _results():
    """The inventory of scripts/source_results.py (loaded beside this script)."""
    spec = importlib.util.spec_from_file_location("source_results",
                                                  Path(__file__).with_name("source_results.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _from_reason(n, results):
    return next((why for (a, b), why in results.FROM_REASONS if a <= int(n) <= b), None)


def source_rows(key, impl, labels, checks, index, objects, documented):
    """Table rows of one source besides Kim: From's numbered equations and tables, then the
    named results of RESULTS[key], each with its status (and the reason if not covered)."""
    results = _results()
    all_labels, texts, comment_cites = index
    rows = []

    def cells(section, title, book, docs, code, reason):
        where = ", ".join(f"{{doc}}`/{d}`" for d in dict.fromkeys(docs))
        status = ("implemented" if code else "derived only" if docs else
                  f"not covered: {reason}" if reason else "**not covered, no reason given**")
        return "| " + " | ".join([section, title, book, where, ", ".join(code), status]) + " |"

    if key == "from":
        numbered = [(sec, "eq", str(n)) for sec, _, a, b in results.FROM_SECTIONS
                    for n in range(a, b + 1)]
        numbered += [(sec, "table", str(t)) for sec, t in results.FROM_TABLES]
        for sec, kind, n in numbered:
            role, label, doc = labels.get((key, kind, n), (None, None, None))
            book = (f"{{eq}}`{label}`" if role == "eq" else f"{{ref}}`derivation <{label}>`"
                    if role else "")
            docs = ([doc] if doc else []) + checks.get((key, kind, n), [])
            title = f"({n})" if kind == "eq" else f"Table {n}"
            rows.append(cells(sec, title, book, docs, impl.get((key, kind, n), []),
                              _from_reason(n, results) if kind == "eq" else None))
    for r in results.RESULTS.get(key, []):
        own = [f"{key}-res-{r.slug}", *r.labels]
        found = [lab for lab in own if lab in all_labels]
        role = all_labels[found[0]][0] if found else None
        book = (f"{{eq}}`{found[0]}`" if role == "eq" else
                f"{{ref}}`derivation <{found[0]}>`" if role else "")
        docs = [all_labels[lab][1] for lab in found]
        docs += [d for c in r.cites for d in comment_cites.get((key, *c), [])]
        docs += [d for d, phrase in r.found if phrase in texts.get(d, "")]
        code = [ref for c in r.cites for ref in impl.get((key, *c), [])]
        code += [code_ref(q, objects[q][0], documented) if q in objects else f"`{q[7:]}`"
                 for q in r.code]
        rows.append(cells(r.section, r.title, book, docs, list(dict.fromkeys(code)), r.reason))
    return rows


def describe(cites, qual):
    """'Kim (2012): eqs. (6), (7); Table 2' for the by-function table."""
    if not cites:
        why = exemption(qual)
        return f"no equation: {why}" if why else "**nothing cited**"
    parts = {}
    for key, kind, n, *inverse in cites:
        name = SOURCES[key][0] if key in SOURCES else key
        text = f"({n})" if kind == "eq" else f"Table {n}" if kind == "table" else n
        parts.setdefault(name + (" via the inverse" if inverse else ""), []).append(text)
    return "; ".join(name + (": " if any(refs) else "") + ", ".join(filter(None, refs))
                     for name, refs in parts.items())


HEADER = """\
% Generated by scripts/equation_map.py from the liedyn docstrings and the book's labels.
% Do not edit: run `.venv/bin/python scripts/equation_map.py` (tests/book/test_equation_map.py
% fails when this file is stale).

(sec-equation-map)=
# Equation-to-code map

Every equation and table of Kim (2012) {cite}`kim2012`, and the equations of the other sources
that the book uses, with the place in the book that derives or checks it and the `liedyn`
function that implements it. The first columns give the source's numbers, *book* the book's own
equation number and *chapter* the chapter that derives the equation or checks it in a code cell.
The function links lead to the {ref}`API reference <sec-api>`, whose `[source]` links show the
code. *implemented*: a function's docstring cites the equation; *derived only*: the book
derives or checks it but no function cites it; *not yet covered*: neither. For the other four
sources every numbered equation and table and every named result (proposition, lemma,
property, definition, example) is listed, from `scripts/source_results.py`; one the book
leaves out says why. A bare "eq. (N)" or "Table N" in a chapter's code means that chapter's
source: Kim (2012), except in {doc}`/book/03_lagrangian_mechanics`, where it is From (2012).

"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if the map is stale")
    args = parser.parse_args()
    text = generate()
    if args.check:
        if not OUTPUT.is_file() or OUTPUT.read_text() != text:
            sys.exit(f"{OUTPUT.relative_to(ROOT)} is stale: run .venv/bin/python "
                     "scripts/equation_map.py")
        return
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
