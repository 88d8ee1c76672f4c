"""The chapters in JupyterLab, as a reader opens them after `make lab`.

    .venv/bin/pytest -n 2 --dist loadscope -m browser tests/browser

JupyterLab (with jupyterlab-myst) runs headless on 127.0.0.1 with a token of its own (the
`lab` fixture of conftest.py); one page of Debian's chromium opens every chapter notebook of
`_toc.yml` in it, test_chapter[book/01_rigid_body_motion], and checks its rendered markdown:
* every markdown cell is rendered by MyST, with no raw directive or role text left visible
  (`:label:`, `:pyobject:`, a ```` ```{ ```` fence, `{eq}`, `{cite}`, ...) and no math error;
* every labelled equation of the source is displayed with its number, every exercise as an
  exercise block, every proof-type block as one, every "**Listing**" caption with its code;
* no equation label shows as bare text (a reference to another chapter's equation would);
* every code cell the page folds is shown collapsed, and no solution's code is visible;
* no request leaves 127.0.0.1 and no uncaught error is raised.
The notebooks of RUN are then run with "Run All Cells": every code cell must finish with an
execution count and no error output (read from the notebook's model:
a collapsed cell shows no prompt). In chapter 1 the test moves a slider of the twist
explorer and requires the plotted figure to change. The kernels are stopped after each chapter.
The tests share the server and the page (under pytest-xdist, `--dist loadscope` keeps them on
one worker).
"""
import json
import re
import time
import urllib.request
from pathlib import Path

import pytest

from .helpers import Watch, fail_with

pytestmark = pytest.mark.browser

RUN = ("book/01_rigid_body_motion", "book/07_forward_dynamics")
RAW = [":label:", ":pyobject:", ":class:", "```{", "{eq}`", "{cite", "{numref}`", "{ref}`",
       "{doc}`", "{prf:", "{exercise}", "{solution}", "{math}", "{index}", "{figure}", ":::"]
RENDER_TIMEOUT_MS = 300_000
RUN_TIMEOUT_S = 240

# Per rendered markdown cell: its visible text and what MyST made of it.
CELLS_JS = r"""() => Array.from(document.querySelectorAll('.jp-MarkdownCell')).map(c => {
  const m = c.querySelector('.myst');
  if (!m) return null;
  const listings = Array.from(m.querySelectorAll('p')).filter(p => /^Listing\s/.test(p.innerText))
    .map(p => { let n = p.nextElementSibling;
                return n && n.matches('.myst-code, pre, div') ? n.innerText : ''; });
  return {
    text: m.innerText,
    errors: Array.from(m.querySelectorAll('.katex-error, .text-red-500, [class*="myst-error"]'))
      .map(e => e.innerText.slice(0, 120)),
    equations: Array.from(m.querySelectorAll('[id] > div > .katex-display'))
      .map(e => ({id: e.parentElement.parentElement.id,
                  number: e.parentElement.parentElement.innerText.trim().split('\n').pop()})),
    exercises: m.querySelectorAll('aside.myst-exercise').length,
    proofs: m.querySelectorAll('aside[class*="myst-proof"], aside[class*="proof"]').length,
    listings,
  };
})"""


@pytest.fixture(scope="session")
def lab_page(browser, lab):
    """JupyterLab loaded once in a page of its own (chapters are opened inside it, no reload
    per chapter), watched for uncaught errors and non-local requests."""
    base, token = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    watch = Watch(page, console=False, http=False)
    open_lab(page, base, token)
    yield page, watch
    context.close()


def test_chapter(chapter, lab, lab_page, pytestconfig, note):
    """One chapter: its rendering, and for RUN its cells run (chapter 1: the slider)."""
    page, watch = lab_page
    since = watch.mark()
    notebook = chapter + ".ipynb"
    want = expected(Path(pytestconfig.getoption("book_dir")).resolve().parent / notebook)
    try:
        open_notebook(page, notebook, want)
        failures = check_rendering(page.evaluate(CELLS_JS), want)
        failures += check_collapsed(page.evaluate(COLLAPSED_JS), want)
        if chapter in RUN:
            failures += run_all(page, want)
            if chapter == "book/01_rigid_body_motion" and not failures:
                failures += move_slider(page)
    finally:
        close_notebooks(page)      # the page lets go of the kernel before the server stops it
        time.sleep(0.5)
        stop_kernels(*lab)
    note(f"{want['cells']} markdown cells, {len(want['labels'])} equations, "
         f"{want['exercises']} exercises, {len(want['listings'])} listings"
         + (", ran" if chapter in RUN else ""))
    fail_with(failures + watch.failures(since), notebook)


def expected(notebook):
    """What the markdown of a notebook asks for: labels, exercises, proofs, listings."""
    cells = json.loads(Path(notebook).read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return {
        "cells": sum(c["cell_type"] == "markdown" for c in cells),
        "code": sum(c["cell_type"] == "code" for c in cells),
        "labels": re.findall(r"^```\{math\}\n:label: (\S+)", text, re.M),
        "exercises": len(re.findall(r"^`{3,}\{exercise\}", text, re.M)),
        "proofs": len(re.findall(r"^`{3,}\{prf:(?!ref)[a-z]+\}", text, re.M)),
        "listings": re.findall(r"^\*\*Listing\*\* `([\w.]+)`", text, re.M),
        "collapsed": sum(c["cell_type"] == "code"
                         and c["metadata"].get("jupyter", {}).get("source_hidden", False)
                         for c in cells),
        "book_labels": book_labels(Path(notebook).parent),
    }


def book_labels(book):
    """Every equation label of the book's chapters: none may show as text."""
    labels = set()
    for path in book.glob("*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            if cell["cell_type"] == "markdown":
                labels.update(re.findall(r"^:label: (\S+)", "".join(cell["source"]), re.M))
    return labels


# The code cells shown collapsed (a placeholder, the editor hidden), and the cells whose
# visible editor shows a solution's code (its cells start "# The book's answer"; the
# placeholder of a collapsed cell shows that first line, which is meant to be seen).
COLLAPSED_JS = r"""() => ({
  collapsed: Array.from(document.querySelectorAll('.jp-CodeCell')).filter(c => {
    const input = c.querySelector('.jp-Cell-inputWrapper .jp-InputArea');
    return c.querySelector('.jp-InputPlaceholder') && (!input || !input.offsetParent);
  }).length,
  answers: Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell')).map((c, i) => {
    const input = c.querySelector('.jp-Cell-inputWrapper .jp-InputArea');
    return input && input.offsetParent && input.innerText.includes("The book's answer")
      ? i : -1;
  }).filter(i => i >= 0),
})"""


def check_collapsed(state, want):
    """What the page folds is collapsed in JupyterLab; no solution code until asked."""
    failures = []
    if state["collapsed"] != want["collapsed"]:
        failures.append(f"{state['collapsed']} code cells shown collapsed, "
                        f"{want['collapsed']} stored with source_hidden")
    if state["answers"]:
        failures.append(f"a solution's code is visible before the reader opens it: cells "
                        f"{state['answers']}")
    return failures


def api(base, token, path, method="GET"):
    req = urllib.request.Request(f"{base}{path}?token={token}", method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        body = r.read()
    return json.loads(body) if body else None


def stop_kernels(base, token):
    for session in api(base, token, "/api/sessions"):
        api(base, token, f"/api/sessions/{session['id']}", "DELETE")


def open_lab(page, base, token):
    """Load JupyterLab once; chapters are then opened inside it (no reload per chapter)."""
    page.goto(f"{base}/lab?reset&token={token}")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.commands",
                           timeout=RENDER_TIMEOUT_MS)
    page.evaluate("() => window.jupyterapp.restored.then(() => true)")


def close_notebooks(page):
    page.evaluate("""() => {            // outputs of a run are not to be saved: no dialog
      for (const w of window.jupyterapp.shell.widgets('main'))
        if (w.context) w.context.model.dirty = false;
      return window.jupyterapp.commands.execute('application:close-all').then(() => true);
    }""")
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel')",
                           timeout=RENDER_TIMEOUT_MS)


def open_notebook(page, notebook, want):
    close_notebooks(page)
    page.evaluate("""(path) => window.jupyterapp.commands.execute(
                       'docmanager:open', {path, factory: 'Notebook'}).then(() => true)""",
                  notebook)
    page.wait_for_function(
        "(n) => document.querySelectorAll('.jp-MarkdownCell .myst').length >= n",
        arg=want["cells"], timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function("() => document.fonts.ready.then(() => true)")
    page.evaluate("""() => {            // the kernel connected, and idle (no request pending)
      const ctx = window.jupyterapp.shell.currentWidget.sessionContext;
      return ctx.ready.then(() => new Promise(done => {
        const idle = () => !ctx.session || !ctx.session.kernel ||
                           ctx.session.kernel.status === 'idle';
        const poll = () => idle() ? done(true) : setTimeout(poll, 100);
        poll();
      }));
    }""")
    time.sleep(0.5)  # MyST renders references in a second pass


def check_rendering(cells, want):
    failures = []
    if any(c is None for c in cells) or len(cells) != want["cells"]:
        failures.append(f"{sum(c is not None for c in cells)} of {want['cells']} markdown "
                        "cells rendered by MyST")
    cells = [c for c in cells if c]
    for c in cells:
        for raw in RAW:
            if raw in c["text"]:
                i = c["text"].index(raw)
                failures.append(f"raw MyST text {raw!r}: ...{c['text'][max(0, i - 60):i + 60]!r}")
        failures += [f"math or MyST error: {e!r}" for e in c["errors"]]
        failures += [f"bare equation label {label!r}" for label in want["book_labels"]
                     if re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", c["text"])]
    shown = {e["id"]: e["number"] for c in cells for e in c["equations"]}
    for label in want["labels"]:
        if label not in shown:
            failures.append(f"labelled equation {label} not displayed")
        elif not re.fullmatch(r"\(\d+\)", shown[label]):
            failures.append(f"equation {label} shows no number (ends with {shown[label]!r})")
    for what in ("exercises", "proofs"):
        got = sum(c[what] for c in cells)
        if got != want[what]:
            failures.append(f"{got} {what} rendered, the source has {want[what]}")
    listings = [code for c in cells for code in c["listings"]]
    if len(listings) != len(want["listings"]):
        failures.append(f"{len(listings)} listings rendered, the source has "
                        f"{len(want['listings'])}")
    for name, code in zip(want["listings"], listings, strict=True):
        short = name.rsplit(".", 1)[-1]
        if not re.search(rf"^(def|class) {short}\b", code, re.M):
            failures.append(f"listing {name} shows no code (got {code[:60]!r})")
    return failures


# Per code cell of the open notebook, from its model (a collapsed cell shows no prompt):
# the execution count and the error outputs.
RUN_STATE_JS = r"""() => {
  const model = window.jupyterapp.shell.currentWidget.content.model;
  const counts = [], errors = [];
  for (let i = 0; i < model.cells.length; i++) {
    const cell = model.cells.get(i);
    if (cell.type !== 'code') continue;
    counts.push(cell.executionCount);
    for (let k = 0; k < cell.outputs.length; k++) {
      const o = cell.outputs.get(k).toJSON();
      if (o.output_type === 'error') errors.push(`${o.ename}: ${o.evalue}`.slice(0, 300));
      if (o.output_type === 'stream' && o.name === 'stderr' && /Traceback/.test(o.text))
        errors.push(String(o.text).slice(0, 300));
    }
  }
  return {counts, errors};
}"""


def run_all(page, want):
    """Run every cell; return failures (cells without a count, error outputs)."""
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()
    deadline = time.time() + RUN_TIMEOUT_S
    while time.time() < deadline:
        state = page.evaluate(RUN_STATE_JS)
        if state["errors"]:
            return [f"error output: {e!r}" for e in state["errors"]]
        # the kernel is fresh, so the last count equals the number of code cells when all ran
        counts = state["counts"]
        if all(counts) and len(counts) == want["code"] and max(counts) == want["code"]:
            return []
        time.sleep(1)
    waiting = [i for i, c in enumerate(state["counts"]) if not c]
    return [f"code cells {waiting} did not run within {RUN_TIMEOUT_S} s"]


def move_slider(page):
    """Move the last slider of the twist explorer; the figure must change."""
    figure = page.locator(".widget-interact .jp-OutputArea-output img").first
    figure.wait_for(timeout=30_000)
    before = figure.get_attribute("src")
    handle = page.locator(".widget-interact .noUi-handle").last
    handle.scroll_into_view_if_needed()
    handle.focus()
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    handle.dispatch_event("change")
    page.keyboard.press("Tab")  # continuous_update=False: the value is sent on change
    for _ in range(60):
        after = page.locator(".widget-interact .jp-OutputArea-output img").first
        if after.count() and after.get_attribute("src") != before:
            return []
        time.sleep(0.5)
    return ["moving a slider of the twist explorer did not change the figure"]


