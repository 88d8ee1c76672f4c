"""Check the printed book (`make pdf`): chapters, bookmarks, numbers, solutions, math, page.

    .venv/bin/python tests/browser/check_pdf.py [PDF] [--toc TOC]

PDF defaults to `_build/pdf/liedyn.pdf`; `scripts/print_pdf.py` writes next to it a report of
what the printed page showed (PDF with the suffix .json). The titles come from the first `# `
heading of every page of `_toc.yml` (so a new chapter is checked without editing this file).
Fails when
* a chapter or appendix title is missing from the text of the PDF, or has no top-level bookmark
  ("N. Title" for a numbered chapter), or its bookmark points at a page that does not show the
  title, or the chapters' bookmarks are out of the order of `_toc.yml`;
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
`make pdf-test` builds the PDF and runs this; it is not part of `make test` (the single-page
build executes every notebook again).
"""
import argparse
import json
import re
import sys
from pathlib import Path

import pypdf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_book import ROOT, toc_pages  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from print_pdf import bare, lead, normal  # noqa: E402  (how the printer reads the PDF)

A4 = (595.28, 841.89)  # points
MM = 72 / 25.4
EDGE = 10 * MM  # no text closer than this to a page edge
MARGIN_SAMPLE = 30  # pages sampled for the margin check
MATH_ERRORS = ("Math input error", "Undefined control sequence", "Missing argument for",
               "Missing close brace", "Extra close brace")


def page_source(docname):
    """Markdown text of a page of the book (a notebook's markdown cells, or the .md file)."""
    base = ROOT / docname
    if base.with_suffix(".ipynb").is_file():
        nb = json.loads(base.with_suffix(".ipynb").read_text())
        return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    return base.with_suffix(".md").read_text()


def title_of(docname):
    m = re.search(r"^# (.+)$", page_source(docname), flags=re.M)
    if not m:
        raise SystemExit(f"{docname} has no '# ' title")
    return m.group(1).strip()


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


def margin_failures(reader):
    """Text that starts within EDGE of a page edge, on MARGIN_SAMPLE pages spread over the book.

    Only words of ordinary text count (MathJax's stretched delimiters report odd positions)."""
    failures = []
    n = len(reader.pages)
    for i in sorted({round(k * (n - 1) / (MARGIN_SAMPLE - 1)) for k in range(MARGIN_SAMPLE)}):
        page = reader.pages[i]
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
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(ROOT / "_build" / "pdf" / "liedyn.pdf"))
    parser.add_argument("--toc", default=str(ROOT / "_toc.yml"))
    args = parser.parse_args()
    pdf = Path(args.pdf)
    report_path = pdf.with_suffix(".json")
    if not report_path.is_file():
        sys.exit(f"no {report_path}: print the book with scripts/print_pdf.py (make pdf)")
    report = json.loads(report_path.read_text())
    reader = pypdf.PdfReader(pdf)
    pages = [normal(p.extract_text() or "") for p in reader.pages]
    text = " ".join(pages)
    flat = text.replace(" ", "")
    marks = outline(reader)
    tops = {normal(t): (page, kids) for t, page, kids in marks}
    failures = []

    # chapters and appendices: title in the text, a bookmark on the page that shows it, in order
    docs = toc_pages(args.toc)
    numbered = [d for d in docs if re.match(r"book/\d\d_", d)]
    last_page = -1
    for doc in docs[1:]:
        title = title_of(doc)
        if normal(title) not in text:
            failures.append(f"title of {doc} not in the text: {title!r}")
        number = numbered.index(doc) + 1 if doc in numbered else None
        label = f"{number}. {title}" if number else title
        if normal(label) not in tops:
            failures.append(f"no top-level bookmark {label!r}")
            continue
        page, kids = tops[normal(label)]
        if normal(label) not in pages[page]:
            failures.append(f"bookmark {label!r} points at page {page + 1}, which does not show "
                            "the title")
        if page < last_page:
            failures.append(f"bookmark {label!r} (page {page + 1}) comes before the previous "
                            "chapter's page")
        last_page = page
        if number and not kids:
            failures.append(f"bookmark {label!r} has no sections below it")
        for kid, kid_page in kids:
            if lead(kid) not in bare(pages[kid_page]):
                failures.append(f"section bookmark {kid!r} points at page {kid_page + 1}, which "
                                f"does not show {lead(kid)!r}")
    printed = sum(1 + len(kids) for _, _, kids in marks)
    if printed != len(report["entries"]):
        failures.append(f"{printed} bookmarks for {len(report['entries'])} contents entries")

    # equation and figure numbers as in the HTML book
    equations, figures = report["equations"], report["figures"]
    if len(equations) < 100 or len(figures) < 20:
        failures.append(f"only {len(equations)} equation and {len(figures)} figure numbers on "
                        "the printed page")
    missing = [e for e in equations if e.replace(" ", "") not in flat]
    if missing:
        failures.append(f"{len(missing)} equation numbers not in the PDF text, e.g. {missing[:3]}")
    missing = [f for f in figures if normal(f).replace(" ", "") not in flat]
    if missing:
        failures.append(f"{len(missing)} figure numbers not in the PDF text, e.g. {missing[:3]}")

    # solutions: none in the chapters, all in the last part
    solutions = "solutions to the exercises"
    if solutions not in tops:
        failures.append("no bookmark 'Solutions to the exercises'")
    else:
        start, kids = tops[solutions]
        if not kids:
            failures.append("'Solutions to the exercises' lists no chapter")
        before = [i + 1 for i, p in enumerate(pages[:start]) if "solution to exercise" in p]
        if before or report["solutions_in_chapters"]:
            failures.append(f"solutions printed inside the chapters (pages {before[:5]}, "
                            f"{report['solutions_in_chapters']} on the printed page)")
        after = sum(p.count("solution to exercise") for p in pages[start:])
        if report["moved"] < 20 or after < report["moved"]:
            failures.append(f"{after} 'Solution to Exercise' titles in the last part for "
                            f"{report['moved']} solutions moved there")

    # math
    if report["merror"] or report["untypeset"] or report["raw_tex"]:
        failures.append(f"printed page: {report['merror']} MathJax errors, {report['untypeset']} "
                        f"formulas untypeset, raw TeX: {report['raw_tex'][:3]}")
    errors = [m for m in MATH_ERRORS if normal(m) in text]
    if errors:
        failures.append(f"MathJax error messages in the PDF text: {errors}")

    # paper
    sizes = {(round(float(p.mediabox.width)), round(float(p.mediabox.height)))
             for p in reader.pages}
    if any(abs(w - A4[0]) > 2 or abs(h - A4[1]) > 2 for w, h in sizes):
        failures.append(f"pages not A4 portrait: {sorted(sizes)} pt")
    failures += margin_failures(reader)

    print(f"{pdf}: {len(reader.pages)} pages, {pdf.stat().st_size / 1e6:.1f} MB, "
          f"{sorted(sizes)} pt; {len(marks)} top-level bookmarks, "
          f"{sum(len(k) for _, _, k in marks)} below them; {len(equations)} equation and "
          f"{len(figures)} figure numbers; {report['moved']} solutions in the last part")
    for f in failures:
        print(f"FAIL {f}")
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
