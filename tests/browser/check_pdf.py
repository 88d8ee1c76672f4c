"""Check the printed book (`make pdf`): every chapter and appendix is in it and has a bookmark.

    .venv/bin/python tests/browser/check_pdf.py [PDF] [--toc TOC]

PDF defaults to `_build/pdf/liedyn.pdf`. The titles come from the first `# ` heading of every
page of `_toc.yml` (so a new chapter is checked without editing this file). Fails when
* a chapter or appendix title is missing from the text of the PDF,
* a chapter or appendix has no top-level bookmark, or a numbered chapter has no sections below
  its bookmark,
* a numbered chapter's equations or figures lost their numbers (no "(N.k)" or "Fig. N.k" in the
  text of a chapter whose page has a labelled equation or a figure),
* the solutions are not gathered in the last part, "Solutions to the exercises".
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


def normal(text):
    """Lower case, one space, no soft hyphens or ligature quirks: for substring tests."""
    text = text.replace("\u00ad", "").replace("\ufb01", "fi").replace("\ufb02", "fl")
    return re.sub(r"\s+", " ", text).strip().lower()


def outline(reader):
    """[(title, [child titles])] of the top level of the PDF outline."""
    out = []
    for item in reader.outline:
        if isinstance(item, list):
            if out:
                out[-1][1].extend(x.title for x in item if not isinstance(x, list))
        else:
            out.append((item.title, []))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdf", nargs="?", default=str(ROOT / "_build" / "pdf" / "liedyn.pdf"))
    parser.add_argument("--toc", default=str(ROOT / "_toc.yml"))
    args = parser.parse_args()
    reader = pypdf.PdfReader(args.pdf)
    text = normal(" ".join(p.extract_text() or "" for p in reader.pages))
    marks = outline(reader)
    tops = {normal(t): kids for t, kids in marks}
    failures = []
    docs = toc_pages(args.toc)
    numbered = [d for d in docs if re.match(r"book/\d\d_", d)]
    for doc in docs[1:]:
        title = title_of(doc)
        if normal(title) not in text:
            failures.append(f"title of {doc} not in the text: {title!r}")
        number = numbered.index(doc) + 1 if doc in numbered else None
        label = f"{number}. {title}" if number else title
        if normal(label) not in tops:
            failures.append(f"no top-level bookmark {label!r}")
            continue
        source = page_source(doc)
        if number and not tops[normal(label)]:
            failures.append(f"bookmark {label!r} has no sections below it")
        if number and re.search(r":label:|\{math\}", source) and f"({number}." not in text:
            failures.append(f"no equation number ({number}.k) in the text")
        if number and re.search(r"\{figure\}|:name:", source) and f"fig. {number}." not in text:
            failures.append(f"no figure number Fig. {number}.k in the text")
    if "solutions to the exercises" not in tops:
        failures.append("no bookmark 'Solutions to the exercises'")
    elif not tops["solutions to the exercises"]:
        failures.append("'Solutions to the exercises' lists no chapter")
    print(f"{args.pdf}: {len(reader.pages)} pages, {len(marks)} top-level bookmarks, "
          f"{sum(len(k) for _, k in marks)} below them")
    for f in failures:
        print(f"FAIL {f}")
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
