"""The printed book (`make pdf`): chapters, bookmarks, numbers, solutions, math, paper.

    .venv/bin/pytest -m pdf tests/browser      # after make pdf; not part of make test

The PDF is `_build/pdf/liedyn.pdf` (or `--pdf`); `scripts/print_pdf.py` writes next to it a
report of what the printed page showed (the PDF with the suffix .json). The titles come from
the first `# ` heading of every page of `_toc.yml` (a new chapter is checked without editing
this file). The tests fail when
* a chapter or appendix title is missing from the text of the PDF, or has no top-level bookmark
  ("N. Title" for a numbered chapter), or its bookmark points at a page that does not show the
  title (test_chapter_bookmarks[book/05_inverse_dynamics]), or the chapters' bookmarks are out
  of the order of `_toc.yml`;
* a numbered chapter has no section bookmarks below its own, or a section bookmark points at a
  page that does not show the section's heading, or a contents entry has no bookmark;
* an equation number or figure number of the page, e.g. (5.3) or Fig. 7.2, is not in the text
  of the PDF (the book numbers them as the HTML book does);
* a solution is left inside a chapter: the solutions belong to the last part, "Solutions to
  the exercises" (one "Solution to Exercise N.k" each), and no chapter page shows one;
* the printed page had a MathJax error, math left untypeset, or raw TeX (`$$`, `\\[`, `\\frac`,
  ...) in text outside code; or the PDF text holds a MathJax error message;
* a page is not A4 portrait, or text on a sample of pages starts inside the 10 mm next to a
  page edge (the margins are 16-18 mm; the page number sits in the bottom margin).
"""
import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from .helpers import fail_with, toc_pages
from common import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
from print_pdf import bare, lead, normal  # noqa: E402  (how the printer reads the PDF)

pytestmark = pytest.mark.pdf

DOCS = toc_pages(ROOT / "_toc.yml")
NUMBERED = [d for d in DOCS if re.match(r"book/\d\d_", d)]
A4 = (595.28, 841.89)  # points
MM = 72 / 25.4
EDGE = 10 * MM  # no text closer than this to a page edge
MARGIN_SAMPLE = 30  # pages sampled for the margin check
MATH_ERRORS = ("Math input error", "Undefined control sequence", "Missing argument for",
               "Missing close brace", "Extra close brace")
SOLUTIONS = "solutions to the exercises"


@pytest.fixture(scope="module")
def pdf(pytestconfig):
    """The PDF read once: reader, report, text of each page, the outline."""
    import pypdf
    path = Path(pytestconfig.getoption("pdf")).resolve()
    report_path = path.with_suffix(".json")
    if not path.is_file() or not report_path.is_file():
        pytest.fail(f"no {path} with its report {report_path.name}: run make pdf first",
                    pytrace=False)
    reader = pypdf.PdfReader(path)
    pages = [normal(p.extract_text() or "") for p in reader.pages]
    marks = outline(reader)
    return SimpleNamespace(
        path=path, reader=reader, report=json.loads(report_path.read_text()), pages=pages,
        text=" ".join(pages), marks=marks, tops={normal(t): (p, k) for t, p, k in marks})


def outline(reader):
    """[(title, page, [(child title, page)])] of the PDF outline, pages counted from 0."""
    out = []
    for item in reader.outline:
        if isinstance(item, list):
            if out:
                out[-1][2].extend((x.title, reader.get_destination_page_number(x))
                                  for x in item if not isinstance(x, list))
        else:
            out.append((item.title, reader.get_destination_page_number(item), []))
    return out


def page_source(docname, book_dir):
    """Markdown text of a page of the book (a notebook's markdown cells, or the .md file)."""
    base = book_dir.parent / docname
    if base.with_suffix(".ipynb").is_file():
        nb = json.loads(base.with_suffix(".ipynb").read_text())
        return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return base.with_suffix(".md").read_text()


def label_of(docname, book_dir):
    """The title of a page as its top-level bookmark shows it ("N. Title" when numbered)."""
    m = re.search(r"^# (.+)$", page_source(docname, book_dir), flags=re.M)
    if not m:
        pytest.fail(f"{docname} has no '# ' title", pytrace=False)
    title = m.group(1).strip()
    return title, (f"{NUMBERED.index(docname) + 1}. {title}" if docname in NUMBERED else title)


@pytest.mark.parametrize("doc", DOCS[1:], ids=str)
def test_chapter_bookmarks(doc, pdf, pytestconfig):
    """Title in the text, a bookmark on the page that shows it, sections below it."""
    title, label = label_of(doc, Path(pytestconfig.getoption("book_dir")).resolve())
    failures = [] if normal(title) in pdf.text else [f"title not in the text: {title!r}"]
    if normal(label) not in pdf.tops:
        fail_with(failures + [f"no top-level bookmark {label!r}"], doc)
    page, kids = pdf.tops[normal(label)]
    if normal(label) not in pdf.pages[page]:
        failures.append(f"bookmark {label!r} points at page {page + 1}, which does not show "
                        "the title")
    if doc in NUMBERED and not kids:
        failures.append(f"bookmark {label!r} has no sections below it")
    for kid, kid_page in kids:
        if lead(kid) not in bare(pdf.pages[kid_page]):
            failures.append(f"section bookmark {kid!r} points at page {kid_page + 1}, which "
                            f"does not show {lead(kid)!r}")
    fail_with(failures, doc)


def test_chapter_order(pdf, pytestconfig):
    """The chapters' bookmarks point at pages in the order of `_toc.yml`."""
    book_dir = Path(pytestconfig.getoption("book_dir")).resolve()
    labels = [label_of(d, book_dir)[1] for d in DOCS[1:]]
    found = [(label, pdf.tops[normal(label)][0]) for label in labels if normal(label) in pdf.tops]
    fail_with([f"bookmark {b!r} (page {q + 1}) comes before the previous chapter's page"
               for (_, p), (b, q) in zip(found, found[1:], strict=True) if q < p], "chapter order")


def test_bookmarks_for_contents(pdf):
    """One bookmark for every entry of the contents page."""
    printed = sum(1 + len(kids) for _, _, kids in pdf.marks)
    entries = len(pdf.report["entries"])
    if printed != entries:
        fail_with([f"{printed} bookmarks for {entries} contents entries"], "bookmarks")


def test_equation_and_figure_numbers(pdf):
    """The equation and figure numbers of the printed page are in the text of the PDF."""
    equations, figures = pdf.report["equations"], pdf.report["figures"]
    flat = pdf.text.replace(" ", "")
    failures = []
    if len(equations) < 100 or len(figures) < 20:
        failures.append(f"only {len(equations)} equation and {len(figures)} figure numbers on "
                        "the printed page")
    missing = [e for e in equations if e.replace(" ", "") not in flat]
    if missing:
        failures.append(f"{len(missing)} equation numbers not in the PDF text, e.g. {missing[:3]}")
    missing = [f for f in figures if normal(f).replace(" ", "") not in flat]
    if missing:
        failures.append(f"{len(missing)} figure numbers not in the PDF text, e.g. {missing[:3]}")
    fail_with(failures, "numbers")


def test_solutions_at_the_end(pdf):
    """No solution in the chapters; all in the last part, listed by chapter."""
    if SOLUTIONS not in pdf.tops:
        pytest.fail("no bookmark 'Solutions to the exercises'", pytrace=False)
    start, kids = pdf.tops[SOLUTIONS]
    report, failures = pdf.report, []
    if not kids:
        failures.append("'Solutions to the exercises' lists no chapter")
    before = [i + 1 for i, p in enumerate(pdf.pages[:start]) if "solution to exercise" in p]
    if before or report["solutions_in_chapters"]:
        failures.append(f"solutions printed inside the chapters (pages {before[:5]}, "
                        f"{report['solutions_in_chapters']} on the printed page)")
    after = sum(p.count("solution to exercise") for p in pdf.pages[start:])
    if report["moved"] < 20 or after < report["moved"]:
        failures.append(f"{after} 'Solution to Exercise' titles in the last part for "
                        f"{report['moved']} solutions moved there")
    fail_with(failures, "solutions")


def test_math(pdf):
    """No MathJax error, untypeset formula or raw TeX on the printed page or in the PDF."""
    report, failures = pdf.report, []
    if report["merror"] or report["untypeset"] or report["raw_tex"]:
        failures.append(f"printed page: {report['merror']} MathJax errors, "
                        f"{report['untypeset']} formulas untypeset, raw TeX: "
                        f"{report['raw_tex'][:3]}")
    errors = [m for m in MATH_ERRORS if normal(m) in pdf.text]
    if errors:
        failures.append(f"MathJax error messages in the PDF text: {errors}")
    fail_with(failures, "math")


def test_a4_pages(pdf, note):
    """Every page is A4 portrait."""
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in pdf.reader.pages}
    note(f"{len(pdf.reader.pages)} pages, {pdf.path.stat().st_size / 1e6:.1f} MB, "
         f"{sorted(sizes)} pt; {len(pdf.marks)} top-level bookmarks, "
         f"{sum(len(k) for _, _, k in pdf.marks)} below them; "
         f"{len(pdf.report['equations'])} equation and {len(pdf.report['figures'])} figure "
         f"numbers; {pdf.report['moved']} solutions in the last part")
    if any(abs(w - A4[0]) > 2 or abs(h - A4[1]) > 2 for w, h in sizes):
        fail_with([f"pages not A4 portrait: {sorted(sizes)} pt"], "paper")


def test_margins(pdf):
    """No text starts within EDGE of a page edge, on MARGIN_SAMPLE pages spread over the book.

    Only words of ordinary text count (MathJax's stretched delimiters report odd positions)."""
    import pypdf
    failures = []
    n = len(pdf.reader.pages)
    for i in sorted({round(k * (n - 1) / (MARGIN_SAMPLE - 1)) for k in range(MARGIN_SAMPLE)}):
        page = pdf.reader.pages[i]
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        bad = []

        def visit(text, cm, tm, font, size, bad=bad, w=w, h=h):
            if not re.fullmatch(r"[A-Za-z][A-Za-z ,.;:'()-]{3,}", text.strip()):
                return
            x, y = pypdf.mult(tm, cm)[4:6]
            if not (EDGE <= x <= w - EDGE and EDGE <= y <= h - EDGE):
                bad.append(f"{text.strip()[:30]!r} at ({x / MM:.0f} mm, {y / MM:.0f} mm)")
        page.extract_text(visitor_text=visit)
        if bad:
            failures.append(f"page {i + 1}: text within {EDGE / MM:.0f} mm of the edge: {bad[0]}")
    fail_with(failures, "margins")
