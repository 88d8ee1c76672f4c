"""Print the whole book to one PDF with Debian's Chromium: `make pdf`.

    .venv/bin/python scripts/print_pdf.py [SINGLEHTML_DIR] [-o PDF]

`make pdf` first builds the book as one HTML page (`jupyter-book build . --builder singlehtml`,
into `_build/singlehtml`), then this script opens that page in headless Chromium (served on
127.0.0.1, every non-local request blocked), waits for MathJax and the widgets, prepares the page
for paper and prints it with Chromium's PDF backend (`_build/pdf/liedyn.pdf` by default):

* a contents page and one PDF bookmark per chapter and appendix, with its sections below (the
  page of each comes from the named destination Chromium writes for a link target, checked
  against the text of the page; pypdf writes the outline);
* a report of what the printed page showed, next to the PDF (`liedyn.json`: MathJax errors,
  raw TeX, equation and figure numbers, solutions), which tests/browser/test_pdf.py reads;
* equations and figures keep the numbers Sphinx gave them, e.g. (5.3) and Fig. 7.2, and every
  cross-reference is a link inside the PDF;
* the solutions of the exercises move to a last part, "Solutions to the exercises", grouped by
  chapter; each exercise links to its solution and each solution back to its exercise;
* hidden plotting code stays hidden, display equations too wide for the page are scaled down,
  long code lines wrap.

Why Chromium and not LaTeX: Chromium is already installed for the browser check, prints MathJax
exactly as the HTML book shows it, and needs no TeX (texlive-xetex with latexmk is about 350 MB of
Debian packages, and the LaTeX route needs every MathJax macro and widget translated).
"""
import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from helpers import ARGS, CHROMIUM, LOCAL_HOSTS, serve, toc_pages  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_MS = 900_000

# Runs in the page before printing. Returns counts for the log.
PREPARE_JS = r"""() => {
  // The single page nests every document under the root's title (h1), so a chapter's title is
  // an h2. Promote each document's headings by one level: chapters and appendices become h1,
  // which gives one top-level PDF bookmark each (the preface keeps the title's h1).
  const chapters = [];
  document.querySelectorAll('span[id^="document-"]').forEach(span => {
    let sec = span.nextElementSibling;
    while (sec && sec.tagName !== 'SECTION') sec = sec.nextElementSibling;
    if (sec) chapters.push(sec);
  });
  for (const sec of chapters) {
    sec.classList.add('pdf-chapter');
    sec.querySelectorAll('h2, h3, h4, h5, h6').forEach(h => {
      const up = document.createElement('h' + (Number(h.tagName[1]) - 1));
      for (const a of h.attributes) up.setAttribute(a.name, a.value);
      while (h.firstChild) up.appendChild(h.firstChild);
      h.replaceWith(up);
    });
  }
  const main = document.querySelector('article.bd-article') ||
               document.querySelector('main') || document.body;
  // Hidden code cells (plot helpers): drop the source, keep the outputs. Other drop-downs
  // print open.
  document.querySelectorAll('details.hide.above-input').forEach(d => d.remove());
  document.querySelectorAll('details').forEach(d => d.open = true);
  // Solutions to a last part, grouped by chapter.
  const part = document.createElement('section');
  part.id = 'pdf-solutions';
  part.className = 'pdf-chapter';
  const h = document.createElement('h1');
  h.textContent = 'Solutions to the exercises';
  part.appendChild(h);
  let moved = 0, current = null;
  document.querySelectorAll('div.solution').forEach(sol => {
    const chapter = sol.closest('section.pdf-chapter');
    if (chapter && chapter !== current) {
      const h2 = document.createElement('h2');
      h2.textContent = chapter.querySelector('h1').textContent.replace(/#\s*$/, '').trim();
      part.appendChild(h2);
      current = chapter;
    }
    // the exercise it solves (linked from its title) links forward to it
    const link = sol.querySelector('.admonition-title a[href^="#"]');
    const ex = link && document.getElementById(link.getAttribute('href').slice(1));
    if (ex && sol.id) {
      const p = document.createElement('p');
      p.className = 'pdf-solution-link';
      const a = document.createElement('a');
      a.href = '#' + sol.id;
      a.textContent = 'Solution in "Solutions to the exercises"';
      p.appendChild(a);
      ex.appendChild(p);
    }
    // sphinx-togglebutton hides the body of a drop-down: show it
    sol.classList.remove('dropdown', 'toggle', 'toggle-hidden');
    sol.querySelectorAll('.toggle-hidden').forEach(e => e.classList.remove('toggle-hidden'));
    part.appendChild(sol);
    moved += 1;
  });
  if (moved) main.appendChild(part);
  // A detailed table of contents (chapters and their sections) after the title page:
  // a reader's contents page, and every entry a link target, so Chromium writes a named
  // destination for it, from which print_pdf.py makes the PDF bookmarks.
  const texOf = h => {
    const items = MathJax.startup.document.getMathItemsWithin(h);
    h.querySelectorAll('mjx-container').forEach((m, k) => {
      const tex = items[k] ? items[k].math : '';
      m.setAttribute('data-pdf-text', tex
        .replace(/\\(mathfrak|mathrm|operatorname|mathbb)\{([^}]*)\}/g, '$2')
        .replace(/\\pi/g, '\u03c0').replace(/\\[A-Za-z]+/g, '').replace(/[{}]/g, ''));
    });
    let text = '';
    const walk = n => {
      if (n.nodeType === 3) { text += n.textContent; return; }
      if (n.nodeType !== 1 || n.classList.contains('headerlink')) return;
      if (n.tagName === 'MJX-CONTAINER') { text += n.getAttribute('data-pdf-text'); return; }
      n.childNodes.forEach(walk);
    };
    walk(h);
    return text.replace(/\s+/g, ' ').trim();
  };
  const entries = [];
  // (section ids repeat across chapters, e.g. "exercises": each entry gets its own anchor)
  const preface = document.querySelector('article section > h1');
  const headings = Array.from(document.querySelectorAll(
    'section.pdf-chapter h1, section.pdf-chapter h2'));
  if (preface) headings.unshift(preface);
  headings.forEach(h => {
    const sec = h.parentElement;
    const first = sec.id === 'pdf-solutions' ||
                  sec.querySelector(':scope > h1, :scope > h2') === h;
    if (sec.tagName !== 'SECTION' || !first) return;
    // the anchor goes inside the heading: an empty element before it would sit at the foot of
    // the previous page when the heading starts a new one (bookmark one page early). The
    // preface's title is not printed (the title page shows it): its anchor goes before it.
    const anchor = document.createElement('span');
    anchor.id = 'pdf-toc-' + entries.length;
    if (h === preface) h.before(anchor); else h.prepend(anchor);
    entries.push({level: Number(h.tagName[1]), id: anchor.id, title: texOf(h)});
  });
  const toc = document.createElement('nav');
  toc.className = 'pdf-toc';
  const tocTitle = document.createElement('p');
  tocTitle.className = 'pdf-toc-title';
  tocTitle.textContent = 'Contents';
  toc.appendChild(tocTitle);
  for (const e of entries) {
    const p = document.createElement('p');
    p.className = 'pdf-toc-' + e.level;
    const a = document.createElement('a');
    a.href = '#' + e.id;
    a.textContent = e.title;
    p.appendChild(a);
    toc.appendChild(p);
  }
  // the theme's print header lists the chapters only: put the detailed contents there
  const old = document.querySelector('#jb-print-toc');
  if (old) old.replaceWith(toc); else main.prepend(toc);
  // Screen-only controls.
  document.querySelectorAll('button.toggle-button, .headerlink, .copybtn, #pst-back-to-top')
    .forEach(e => e.remove());
  // Display equations wider than the text: scale them down to fit.
  let scaled = 0;
  document.querySelectorAll('mjx-container[display="true"]').forEach(m => {
    const box = m.parentElement.getBoundingClientRect().width;
    const w = m.scrollWidth;
    if (box > 0 && w > box + 1) {
      m.style.fontSize = Math.max(50, Math.floor(100 * box / w)) + '%';
      scaled += 1;
    }
  });
  // What the PDF will show, for tests/browser/test_pdf.py: math errors, raw TeX outside code
  // and math, math left untypeset, the equation and figure numbers, solutions left in chapters.
  const skip = 'pre, code, script, style, textarea, mjx-container, .highlight, .math, .pdf-hide';
  const raw = [];
  const walk = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n.textContent;
    const m = /\$\$|\\[\[\]()]|\\(?:frac|begin|end|mathrm|mathbf|operatorname)\b/.exec(t);
    if (m && !n.parentElement.closest(skip) && n.parentElement.offsetParent !== null)
      raw.push(t.slice(Math.max(0, m.index - 40), m.index + 30).trim());
  }
  const check = {
    merror: main.querySelectorAll('mjx-merror').length,
    raw_tex: raw.slice(0, 10),
    untypeset: Array.from(main.querySelectorAll('span.math, div.math'))
      .filter(e => !e.querySelector('mjx-container')).length,
    equations: Array.from(main.querySelectorAll('span.eqno'))
      .map(e => e.textContent.replace(/[^0-9.()]/g, '')),
    figures: Array.from(main.querySelectorAll('figcaption .caption-number'))
      .map(e => e.textContent.trim()),
    solutions_in_chapters: Array.from(main.querySelectorAll('div.solution'))
      .filter(e => !e.closest('#pdf-solutions')).length,
  };
  return {moved, scaled, entries, check};
}"""

PRINT_CSS = """
@page { size: A4; margin: 18mm 16mm 18mm 16mm; }
@media print {
  html { font-size: 11pt; }
  .bd-header, .bd-sidebar-primary, .bd-sidebar-secondary, .bd-footer, .bd-footer-article,
  .header-article, .prev-next-area, .bd-header-article, .search-button, .theme-switch-button,
  .pdf-hide { display: none !important; }
  .bd-main .bd-content .bd-article-container, .bd-page-width, .bd-article {
    max-width: 100% !important; width: 100% !important; padding: 0 !important; }
  pre, pre span { white-space: pre-wrap !important; word-break: break-all; }
  div.highlight pre { font-size: 8.5pt; }
  section.pdf-chapter { break-before: page; }
  /* the theme hides the first h1 of the article in print (it prints the title in its own
     header): every chapter's title is such an h1 here */
  section.pdf-chapter > h1 { display: block !important; }
  figure, img, .cell_output img, table { break-inside: avoid; }
  mjx-container[display="true"] { overflow: visible !important; }
  .solution { break-inside: auto; }
  a { color: inherit; }
  nav.pdf-toc { break-after: page; }
  nav.pdf-toc p { margin: 0; }
  .pdf-toc-title { font-size: 1.6rem; font-weight: 600; margin-bottom: 0.5rem !important; }
  .pdf-toc-1 { font-weight: 600; margin-top: 0.5rem !important; }
  .pdf-toc-2 { margin-left: 1.5rem !important; font-size: 0.9rem; }
}
"""


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", flush=True)


def lead(title):
    """The first words of a heading, before any formula, lower case: "9.6. Cost: O(n) ..." ->
    "9.6. cost" (pypdf extracts MathJax's formulas garbled)."""
    words = []
    for w in bare(title).split():
        # a lone letter or digit other than "a" is what is left of a formula
        if not re.fullmatch(r"[\d.]+|[a-z][a-z'-]*", w) or len(w) == 1 and w.isalpha() and w != "a":
            break
        words.append(w)
        if len(words) == 4:
            break
    return " ".join(words)


def normal(text):
    """Lower case, one space, straight apostrophes, no ligatures or soft hyphens (as pypdf
    extracts them): for substring tests (also used by tests/browser/test_pdf.py)."""
    for a, b in (("\u2019", "'"), ("\u00ad", ""), ("\ufb00", "ff"), ("\ufb01", "fi"),
                 ("\ufb02", "fl"), ("\ufb03", "ffi"), ("\ufb04", "ffl")):
        text = text.replace(a, b)
    return re.sub(r"\s+", " ", text).strip().lower()


def bare(text):
    """normal() without commas, colons and semicolons."""
    return normal(re.sub(r"[:,;]", "", text))


def heading_page(reader, page, title, texts):
    """The page that shows a heading: Chromium's named destination, or the next page.

    Chromium places the destination of a heading that a page break pushes to the top of the
    next page (headings keep with what follows) at the foot of the page before; the PDF text
    tells which of the two shows the heading.
    """
    words = lead(title)
    for p in (page, page + 1):
        if p >= len(reader.pages):
            break
        if p not in texts:
            texts[p] = bare(reader.pages[p].extract_text() or "")
        if words and words in texts[p]:
            return p
    return page


def add_bookmarks(pdf, entries):
    """Bookmarks from the contents entries: one per chapter or appendix, its sections below.

    Each entry's page is that of the named destination Chromium wrote for its section id, or
    the next page when only that one shows the heading (see heading_page).
    """
    import pypdf
    reader = pypdf.PdfReader(pdf)
    texts = {}
    pages = {name.lstrip("/"): reader.get_destination_page_number(dest)
             for name, dest in reader.named_destinations.items()}
    pages = {e["id"]: heading_page(reader, pages[e["id"]], e["title"], texts)
             for e in entries if e["id"] in pages}
    writer = pypdf.PdfWriter(clone_from=reader)
    # Chromium's own outline (outline=True makes it write the named destinations) nests the
    # headings by their order on the page, not by chapter: replace it.
    if "/Outlines" in writer._root_object:
        del writer._root_object["/Outlines"]
    parent = None
    missing = []
    for e in entries:
        page = pages.get(e["id"])
        if page is None:
            missing.append(e["title"])
            continue
        if e["level"] == 1:
            parent = writer.add_outline_item(title=e["title"], page_number=page)
        else:
            writer.add_outline_item(title=e["title"], page_number=page, parent=parent)
    writer.page_mode = "/UseOutlines"
    with open(pdf, "wb") as f:
        writer.write(f)
    if missing:
        raise SystemExit(f"no page found for {len(missing)} heading(s): {missing[:5]}")


def print_book(html_dir, pdf):
    from playwright.sync_api import sync_playwright
    # Sphinx writes the single page under the root document's name (book/intro.html) but makes
    # its links relative to the output directory: put a copy where the links resolve.
    root = html_dir / (toc_pages(ROOT / "_toc.yml")[0] + ".html")
    (html_dir / "print.html").write_text(root.read_text())
    base = serve(html_dir)
    blocked = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 900, "height": 1200})

        def route(r):
            host = r.request.url.split("/")[2].split(":")[0] if "://" in r.request.url else ""
            if r.request.url.startswith(("http", "ws")) and host not in LOCAL_HOSTS:
                blocked.append(r.request.url)
                return r.abort()
            return r.continue_()
        page.route("**/*", route)
        # the whole book is one page: several minutes of MathJax on a busy machine
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(base + "print.html", wait_until="domcontentloaded", timeout=TIMEOUT_MS)
        page.wait_for_function("() => document.readyState === 'complete'", timeout=TIMEOUT_MS)
        page.wait_for_function(
            "() => !!(window.MathJax && MathJax.startup && MathJax.startup.promise)",
            timeout=TIMEOUT_MS)
        log("page loaded; typesetting the math")
        page.evaluate("() => MathJax.startup.promise.then(() => true)")
        page.evaluate("() => document.fonts.ready.then(() => true)")
        log("math typeset; preparing the page for paper")
        page.emulate_media(media="print")
        page.add_style_tag(content=PRINT_CSS)
        info = page.evaluate(PREPARE_JS)
        log("printing")
        pdf.parent.mkdir(parents=True, exist_ok=True)
        page.pdf(path=str(pdf), format="A4", print_background=True, outline=True,
                 tagged=True, display_header_footer=True,
                 header_template="<span></span>",
                 footer_template='<div style="font-size:8pt;width:100%;text-align:center">'
                                 '<span class="pageNumber"></span></div>',
                 margin={"top": "16mm", "bottom": "18mm", "left": "16mm", "right": "16mm"})
        browser.close()
    # what the page showed when printed, for tests/browser/test_pdf.py
    pdf.with_suffix(".json").write_text(json.dumps(
        {"entries": info["entries"], "moved": info["moved"], **info["check"]}, indent=1))
    add_bookmarks(pdf, info["entries"])
    chapters = sum(e["level"] == 1 for e in info["entries"])
    print(f"{pdf}: {pdf.stat().st_size / 1e6:.1f} MB; {chapters} chapter bookmarks, "
          f"{info['moved']} solutions moved to the end, {info['scaled']} wide equations scaled")
    if blocked:
        print(f"blocked {len(blocked)} non-local request(s), e.g. {blocked[0]}")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html_dir", nargs="?", default=str(ROOT / "_build" / "singlehtml"))
    parser.add_argument("-o", "--output", default=str(ROOT / "_build" / "pdf" / "liedyn.pdf"))
    args = parser.parse_args()
    html_dir = Path(args.html_dir).resolve()
    if not (html_dir / (toc_pages(ROOT / "_toc.yml")[0] + ".html")).is_file():
        sys.exit(f"no single-page book in {html_dir}: run "
                 "`jupyter-book build . --builder singlehtml` first (or `make pdf`)")
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} not found: `apt-get install -y chromium`")
    return print_book(html_dir, Path(args.output).resolve())


if __name__ == "__main__":
    sys.exit(main())
