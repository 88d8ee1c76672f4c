"""Every numbered chapter opens with what the reader will learn and what it assumes, and ends
with a summary.

Checked on the notebooks' markdown, without building the book: the chapter's first markdown
cells say **You will learn** ... and **It assumes** ... (in an "In this chapter" box, or as
paragraphs led by **What you will learn:** and **What it assumes:**), and its last level-2
sections are "Summary" followed only by exercises, errata and the checks.
"""
import re

import pytest

from common import ROOT, chapters, notebook_cells

# sections allowed after the summary
AFTER_SUMMARY = {"Exercises", "Errata met in this chapter", "Checks, sources and timings"}


def markdown_cells(docname):
    return notebook_cells(ROOT / (docname + ".ipynb"), "markdown")


def test_the_toc_has_numbered_chapters():
    assert len(chapters()) >= 12


@pytest.mark.parametrize("docname", chapters())
def test_chapter_opens_with_what_it_teaches_and_assumes(docname):
    opening = "\n".join(markdown_cells(docname)[:2])
    # the "In this chapter" box (**You will learn** ... **It assumes** ...) or the same two
    # statements as bold-led paragraphs (**What you will learn:** ...)
    for what in ("you will learn", "it assumes"):
        assert re.search(rf"\*\*(?:What )?{what}:?\*\*:? *\S", opening, flags=re.I), \
            f"{docname}: its opening does not say what {what}"


@pytest.mark.parametrize("docname", chapters())
def test_chapter_ends_with_a_summary(docname):
    sections = [m.group(1).strip() for cell in markdown_cells(docname)
                for m in re.finditer(r"^## (.+)$", cell, flags=re.M)]
    assert "Summary" in sections, f"{docname} has no '## Summary' section"
    after = sections[sections.index("Summary") + 1:]
    assert set(after) <= AFTER_SUMMARY, f"{docname}: sections after the summary: {after}"
