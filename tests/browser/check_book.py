"""Browser check of the built book: every page of `_toc.yml` opened in headless Chromium.

    .venv/bin/python tests/browser/check_book.py [HTML_DIR] [--toc TOC] [--full-page] [--part K/N]

HTML_DIR defaults to `_build/html`, TOC to `_toc.yml` (the root and every chapter are checked, so
new chapters are picked up). The HTML is served on 127.0.0.1; a page fails on
* any request to a non-local address (aborted and recorded: the book must not need a CDN),
* a local resource answering with HTTP >= 400 or failing to load,
* MathJax not loading (when the page has math), MathJax errors or undefined macros, raw `$$` or
  `\\[` left in the visible text outside code, math elements MathJax did not typeset,
* markdown that broke inline math (see tests/test_book_source.py): visible text outside code and
  rendered math with a `$...$` fragment, a TeX command such as `\\frac` or a raw MyST role such
  as `{cite}`, and typeset formulas whose TeX holds a role or a backtick (prose typeset as math),
* an image with naturalWidth 0, embedded widgets that did not render,
* an internal link to a missing file or a missing anchor,
* a console error or uncaught exception not in ALLOW_LIST,
* layout: at a phone's width (390 px) the page is wider than the viewport (the elements that
  stick out are named); at 1400 px a code block (cell source or listing) needs horizontal
  scrolling, unless its cell carries the tag `scroll-wide` (intentionally wide);
* a figure without a caption: an image of a cell output outside a `<figure>` with a
  `<figcaption>` (animations and widgets excepted: their cells come with a captioned static
  figure);
* an output that prints a bare `True` (a check belongs in an `assert`), or a filesystem path of
  the build machine (this checkout or the Python installation, e.g. in a traceback);
and the search page fails when a result snippet shows raw TeX.
Every numbered chapter's page contents (the "Contents" sidebar) are checked too, see
check_page_toc: visible at 1400 px with every section, a followed entry scrolls to its heading,
the highlight follows a jump, and at a phone's width the header button opens them.
Every 3D scene (an `iframe.liedyn-scene`, liedyn.teach.scene) is checked on the page that holds it, see
check_scene: its viewer starts, the canvas draws the model, pressing play advances the displayed
time and changes the pixels; the time to such a page's `load` event is printed.
(tests/browser/check_scenes.py runs the scene checks alone, also on saved standalone scenes.)
A screenshot of each page's first screen (of the whole page with `--full-page`: slower, a tall
chapter takes seconds to capture) goes to `screenshots/` next to HTML_DIR (`_build/screenshots`).
Uses Debian's chromium (`apt-get install -y chromium`) through playwright; installs nothing.
"""
import argparse
import functools
import http.server
import io
import re
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
# Console errors that are not the book's fault: (regex, why). Keep it short.
ALLOW_LIST = [
    # (regex, why): none today. The Thebe configuration script that used to log an error on
    # every page is removed by book/_ext/publishing.py.
]
PHONE, DESKTOP = 390, 1400  # viewport widths of the layout checks
# Paths of this machine that must not leak into the published pages (outputs, tracebacks).
LOCAL_PATHS = sorted({str(ROOT), str(Path(sys.prefix).resolve()), str(Path(sys.base_prefix))},
                     key=len, reverse=True)
# The repository the book was built for (book/_ext/publishing.py decides it the same way).
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from publishing import repository_url  # noqa: E402

REPO_URL = repository_url(
    (yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
     .get("liedyn_repository_url") or ""), ROOT)
LAUNCH_SITES = ("https://mybinder.org", "https://colab.research.google.com")
SCREENSHOT_TIMEOUT_MS = 120_000  # full-page screenshots of the API page take long on a busy machine
MATH_TIMEOUT_MS = 15_000  # for the MathJax script to load (typesetting itself is awaited)
WIDGET_TIMEOUT_MS = 10_000
WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'

SCENE_READY_MS = 60_000   # for a 3D scene's viewer to start (check_scene)
PLAY_S = 0.5
PLAY_ADVANCE_S = 0.2       # scene time that play must show before the check pauses it
PLAY_WAIT_MS = 30_000     # longest wait for a scene's first animation frames: under make
# test's load (two browsers on two cores, software WebGL) a scene once showed 0.01 s in 10 s

# Pause a playing scene once its readout shows time t or later, in the frame that shows it:
# paused by a second click instead, a scene shorter than that click's delay under load had
# looped back to its start (t = 0.01 s: the picture of t = 0, "play did not change it").
PAUSE_AFTER_JS = """(t) => {
  if (parseFloat(document.querySelector('#time').innerText.split(' ')[2]) < t) return false;
  if (viewer.animator.playing) document.getElementById('play').click();
  return true;
}"""

# Raw TeX and stray `$$` in text nodes outside code and rendered math; images; widget views.
PAGE_JS = r"""(widgetView) => {
  const skip = 'pre, code, script, style, textarea, mjx-container, .highlight, .math';
  const raw = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const t = n.textContent, i = Math.max(t.indexOf('$$'), t.indexOf('\\['));
    if (i >= 0 && !n.parentElement.closest(skip))
      raw.push(t.slice(Math.max(0, i - 60), i + 20).trim());
  }
  // Text of each block outside code and math: a `$...$` fragment, a TeX command or a raw MyST
  // role there means the markdown parser cut a formula (a line of it became a list item...).
  const blocks = new Map();
  const walk2 = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk2.nextNode(); n; n = walk2.nextNode()) {
    if (n.parentElement.closest(skip)) continue;
    const block = n.parentElement.closest('p, li, dt, dd, th, td, h1, h2, h3, h4, h5, h6, '
                                          + 'figcaption, caption, div, section, body');
    blocks.set(block, (blocks.get(block) || '') + n.textContent);
  }
  const leak = [
    /\$[^$\s][^$]*\$/,                                        // a `$...$` fragment
    /\\(?:[A-Za-z]{2,}|[,;!])/,                                // \frac, \mathsf, \dot, \,
    /\{(?:cite|ref|eq|numref|doc|term|math|download|(?:prf|cite|py):[a-z]+)\}/,  // roles
  ];
  const leaks = [];
  for (const text of blocks.values()) {
    const m = leak.map(r => r.exec(text)).find(m => m);
    if (m) leaks.push(text.slice(Math.max(0, m.index - 40), m.index + 60).replace(/\s+/g, ' '));
  }
  const untypeset = Array.from(document.querySelectorAll('span.math, div.math'))
    .filter(e => !e.querySelector('mjx-container')).map(e => e.textContent.trim().slice(0, 80));
  return {
    raw, leaks, untypeset,
    math: document.querySelectorAll('mjx-container').length,
    merror: document.querySelectorAll('mjx-merror').length,
    images: document.images.length,
    broken_images: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0)
      .map(i => i.getAttribute('src')),
    widget_views: document.querySelectorAll(widgetView).length,
    widgets: document.querySelectorAll('.jupyter-widgets').length,
    links: Array.from(document.querySelectorAll('a[href]')).map(a => a.href),
    header_links: Array.from(document.querySelectorAll('.bd-header-article a[href]'))
      .map(a => a.href).filter(h => /^https?:/.test(h) && !h.startsWith(location.origin)),
    download_ipynb: Array.from(document.querySelectorAll('.bd-header-article a[href$=".ipynb"]'))
      .map(a => a.href),
  };
}"""
# Phone width: elements sticking out of the viewport that no scrolling box of their own clips.
OVERFLOW_JS = r"""() => {
  const vw = document.documentElement.clientWidth;
  const out = [];
  const clipped = e => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return true;
    }
    return false;
  };
  for (const e of document.querySelectorAll('.bd-main *')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1 && !clipped(e)) {
      if (Array.from(e.children).some(c => c.getBoundingClientRect().right > vw + 1)) continue;
      const name = e.tagName.toLowerCase() + (e.className && typeof e.className === 'string'
        ? '.' + e.className.trim().split(/\s+/).slice(0, 2).join('.') : '');
      out.push(`${name} (right edge ${Math.round(r.right)} px): `
               + (e.textContent || '').trim().slice(0, 50));
    }
  }
  return {width: document.documentElement.scrollWidth, viewport: vw, culprits: out};
}"""
# Desktop width: code blocks (cell sources and listings) that need horizontal scrolling.
CODE_SCROLL_JS = r"""() => Array.from(document.querySelectorAll(
    '.bd-article div.highlight pre'))
  .filter(pre => !pre.closest('.cell_output, .tag_scroll-wide'))
  .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
  .map(pre => {
    const line = pre.textContent.split('\n').reduce((a, b) => b.length > a.length ? b : a, '');
    return `${line.length} characters: ${line.trim().slice(0, 60)}`;
  })"""
# Figures without caption; outputs that print a bare True; text of every output.
OUTPUTS_JS = r"""() => {
  const uncaptioned = Array.from(document.querySelectorAll('.bd-article .cell_output img'))
    .filter(img => !img.closest('.animation, .jupyter-widgets, .widget-subarea'))
    .filter(img => { const f = img.closest('figure'); return !(f && f.querySelector('figcaption')); })
    .map(img => (img.getAttribute('src') || '').split('/').pop().slice(0, 24));
  const outputs = Array.from(document.querySelectorAll('.bd-article .cell_output'))
    .map(o => o.innerText);
  const bareTrue = outputs.filter(t => t.split('\n').some(line => /^\s*(True|False)\s*$/.test(line)))
    .map(t => t.trim().slice(0, 60));
  return {uncaptioned, bareTrue, outputs};
}"""
# The book's pages typeset a formula when it comes into view (MathJax's ui/lazy, see
# book/_ext/presentation.py); the checks below read every formula, so all are typeset first (what
# the lazy extension itself does before printing).
TYPESET_ALL_JS = r"""() => {
  const doc = MathJax.startup.document;
  return (doc.lazyTypesetAll ? doc.lazyTypesetAll() : Promise.resolve()).then(() => true);
}"""
# TeX source of every formula MathJax rendered with an error or an undefined macro (red \name).
MATH_ERRORS_JS = r"""() => Array.from(MathJax.startup.document.math)
  .filter(m => /<merror|mathcolor="red">\\/.test(MathJax.startup.toMML(m.root)))
  .map(m => m.math.slice(0, 80))"""
# TeX source of formulas that hold a MyST role or a backtick: prose swallowed by a `$` pair that
# the markdown parser matched wrongly.
MATH_PROSE_JS = r"""() => Array.from(MathJax.startup.document.math)
  .filter(m => /`|\{(?:cite|ref|eq|numref|doc|term|prf:[a-z]+)\}/.test(m.math))
  .map(m => m.math.slice(0, 80))"""


def toc_pages(toc_path):
    """Docnames of the root and of every `file:` entry of a Jupyter Book 1 table of contents."""
    toc = yaml.safe_load(Path(toc_path).read_text())
    pages = [toc["root"]]

    def visit(entries):
        for entry in entries or []:
            if "file" in entry:
                pages.append(entry["file"])
            for key in ("parts", "chapters", "sections"):
                visit(entry.get(key))
    visit(toc.get("parts"))
    visit(toc.get("chapters"))
    visit(toc.get("sections"))
    return [re.sub(r"\.(md|ipynb|rst)$", "", p) for p in pages]


def serve(directory):
    """Serve `directory` on 127.0.0.1 on a free port in a daemon thread; return the base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


@functools.lru_cache(maxsize=None)
def anchors(path):
    """Every id (and legacy name) in a static HTML file."""
    return set(re.findall(r'\s(?:id|name)="([^"]+)"', path.read_text(errors="replace")))


def check_links(links, html_dir, base):
    """Broken internal links: a missing file, or an anchor that is no id of the target page."""
    broken = set()
    for href in links:
        url = urlsplit(href)
        if url.scheme not in ("http", "https") or not href.startswith(base):
            continue  # external links are not followed (offline); mailto:, javascript: skipped
        path = html_dir / unquote(url.path[len(urlsplit(base).path):])
        if url.path.endswith("/"):
            path = path / "index.html"
        if not path.is_file():
            broken.add(f"missing file: {href}")
        elif url.fragment and path.suffix == ".html" and unquote(url.fragment) not in anchors(path):
            broken.add(f"missing anchor: {href}")
    return sorted(broken)


def check_layout(page):
    """Failures of the output rules and of code width at 1400 px (the page's viewport)."""
    failures = []
    out = page.evaluate(OUTPUTS_JS)
    failures += [f"figure without a caption: {src}" for src in out["uncaptioned"]]
    failures += [f"output prints a bare True/False: {t!r}" for t in out["bareTrue"]]
    for text in out["outputs"]:
        for path in LOCAL_PATHS:
            if path in text:
                i = text.index(path)
                failures.append(f"output shows a path of the build machine: "
                                f"{text[max(0, i - 20):i + len(path) + 30]!r}")
                break
    failures += [f"code block scrolls at {DESKTOP} px ({w})"
                 for w in page.evaluate(CODE_SCROLL_JS)]
    return failures


def check_phone_width(page):
    """Failures of the layout at a phone's width; leaves the page at that width."""
    page.set_viewport_size({"width": PHONE, "height": 844})
    phone = page.evaluate(OVERFLOW_JS)
    if phone["width"] <= phone["viewport"] + 1:
        return []
    return ([f"page is {phone['width']} px wide at {PHONE} px; sticking out:"]
            + [f"    {c}" for c in phone["culprits"][:5]])


SEARCH_QUERIES = ("coadjoint", "articulated inertia")
TEX_IN_TEXT = re.compile(r"\\(?:[A-Za-z]{2,}|[\[\]()])")


def check_search(context, base):
    """Search snippets come from the pages' HTML, where math is raw TeX: none may show it."""
    failures = []
    page = context.new_page()
    for query in SEARCH_QUERIES:
        page.goto(f"{base}search.html?q={query}", wait_until="load")
        try:
            page.wait_for_selector("p.context", timeout=60_000)
        except Exception:  # noqa: BLE001 - no result is a failure of its own
            failures.append(f"search for {query!r} shows no result")
            continue
        page.wait_for_timeout(2000)  # snippets arrive one page fetch at a time
        for text in page.eval_on_selector_all("p.context", "ps => ps.map(p => p.textContent)"):
            m = TEX_IN_TEXT.search(text)
            if m:
                failures.append(f"raw TeX in a search snippet for {query!r}: "
                                f"{text[max(0, m.start() - 30):m.end() + 30]!r}")
    page.close()
    return failures


# The page's contents (secondary sidebar "Contents", book/_static/page-toc.js): entries, headings.
PAGE_TOC_JS = r"""() => {
  const nav = document.querySelector('#pst-page-toc-nav');
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && r.right <= innerWidth + 1 && r.bottom > 0
           && r.top < innerHeight && s.visibility !== 'hidden' && Number(s.opacity) > 0; };
  const top = Array.from(nav ? nav.querySelectorAll(':scope > ul > li.toc-h2 > a.nav-link') : []);
  const sections = Array.from(document.querySelectorAll('article.bd-article section > h2'))
    .map(h => h.parentElement.id);
  return {nav: !!nav, visible: !!nav && shown(nav), sections,
          entries: top.map(a => ({href: a.getAttribute('href'), text: a.textContent.trim(),
                                  shown: shown(a)}))};
}"""
PAGE_TOC_ACTIVE_JS = r"""() => Array.from(
  document.querySelectorAll('#pst-page-toc-nav a.nav-link.active')).map(a => a.getAttribute('href'))"""
# Where the heading of section `id` is: its top in the window, and whether it is the element seen
# at that place (not under the sticky header or a dialog).
HEADING_AT_JS = r"""(id) => { const s = document.getElementById(id);
  const h = s && (s.querySelector('h1, h2, h3, h4, h5, h6') || s);
  if (!h) return null;
  const r = h.getBoundingClientRect();
  const e = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + Math.min(10, r.height / 2));
  return {top: r.top, seen: !!e && h.contains(e)}; }"""
# Scroll so that the window shows the inside of section `id` with no heading in its upper 40 %
# (the reader is in the middle of a long section); false if the section is too short for that.
JUMP_INTO_JS = r"""(id) => { const heads = Array.from(document.querySelectorAll(
    'article.bd-article section > :is(h2, h3, h4)'));
  const s = document.getElementById(id);
  const h = s.querySelector('h1, h2, h3, h4, h5, h6') || s;
  const i = heads.indexOf(h);
  const y = e => window.scrollY + e.getBoundingClientRect().top;
  const from = y(h) + 50, to = i + 1 < heads.length ? y(heads[i + 1]) - 0.5 * innerHeight
                                                 : document.documentElement.scrollHeight;
  if (to <= from) return false;
  window.scrollTo(0, (from + to) / 2);
  return true; }"""
PAGE_TOC_MIN_SECTIONS = 5  # a long chapter's contents list at least this many sections


def check_page_toc(page, interactive=True):
    """Failures of a chapter's page contents (the theme's secondary sidebar, "Contents") at
    1400 px, the page's viewport, and the entries listed (hrefs) for check_page_toc_phone.

    Every chapter gets the static checks; the interactive ones (following entries, the jump,
    and at a phone's width check_page_toc_phone) run on the chapters of PAGE_TOC_INTERACTIVE,
    the longest ones (they exercise the same script and theme on every page, and take seconds
    each).

    The contents are visible, list every section (h2) of the chapter and at least
    PAGE_TOC_MIN_SECTIONS; following an entry brings its heading to the top of the window (below
    the sticky header, not covered) and highlights that entry; after a jump into the middle of a
    long section (as a drag of the scroll bar does: no heading passes the top of the window) the
    highlight is that section.
    """
    failures = []
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    toc = page.evaluate(PAGE_TOC_JS)
    hrefs = [e["href"] for e in toc["entries"]]
    if not toc["nav"]:
        return ["page contents: no #pst-page-toc-nav on the page"], []
    if not toc["visible"]:
        failures.append(f"not visible at {DESKTOP} px")
    hidden = [e["text"] for e in toc["entries"] if not e["shown"]]
    if hidden:
        failures.append(f"{len(hidden)} entries not visible at {DESKTOP} px, e.g. {hidden[0]!r}")
    missing = [s for s in toc["sections"] if "#" + s not in hrefs]
    if missing:
        failures.append(f"{len(missing)} section(s) missing: {missing[:3]}")
    if len(hrefs) < PAGE_TOC_MIN_SECTIONS:
        failures.append(f"{len(hrefs)} sections listed (< {PAGE_TOC_MIN_SECTIONS})")

    if interactive and len(hrefs) >= 3 and not failures:
        href = hrefs[2 * len(hrefs) // 3]  # an entry two thirds down the list
        page.locator(f'#pst-page-toc-nav a.nav-link[href="{href}"]').first.click()
        if not highlighted(page, href):
            failures.append(f"following {href} highlights {page.evaluate(PAGE_TOC_ACTIVE_JS)}")
        ok, where = at_top(page, href)
        if not ok:
            failures.append(f"following {href} leaves its heading at {where}")
        page.wait_for_timeout(1100)  # the theme holds a clicked entry's highlight for 1 s
        jumped = next((h for h in hrefs[:len(hrefs) // 2] if page.evaluate(JUMP_INTO_JS, h[1:])),
                      None)  # the first section of the first half long enough to jump into
        if not jumped:
            failures.append("no section in the first half long enough for the jump check")
        elif not highlighted(page, jumped):
            failures.append(f"after a jump into {jumped} the contents highlight "
                            f"{page.evaluate(PAGE_TOC_ACTIVE_JS)}")
    PAGE_TOC.append(f"{page.url.split('#')[0].rsplit('/', 1)[-1]}: {len(hrefs)}")
    return [f"page contents: {f}" for f in failures], hrefs


def check_page_toc_phone(page, hrefs):
    """At a phone's width (the page's viewport) the button in the article header opens the
    page contents, and following an entry there closes them and shows its heading."""
    failures = []
    page.evaluate("() => window.scrollTo(0, 0)")
    button = page.locator(".secondary-toggle:visible")
    entry = page.locator(f'#pst-page-toc-nav a.nav-link[href="{hrefs[-2]}"]').first
    if not button.count():
        failures.append(f"no visible button for the contents at {PHONE} px")
    else:
        button.first.click()
        try:
            entry.wait_for(state="visible", timeout=3000)
        except Exception:  # noqa: BLE001 - reported as a failure
            failures.append(f"the contents button at {PHONE} px does not show the contents")
    if entry.is_visible():
        entry.click()
        page.wait_for_timeout(800)
        ok, where = at_top(page, hrefs[-2])
        if page.evaluate("() => !!document.querySelector('dialog[open]')"):
            failures.append(f"at {PHONE} px the contents stay open after following an entry")
        elif not ok:
            failures.append(f"at {PHONE} px following {hrefs[-2]} leaves its heading at {where}")
    return [f"page contents: {f}" for f in failures]


def highlighted(page, href, timeout=3000):
    """True once the page contents highlight the entry ``href``."""
    try:
        page.wait_for_function(f"() => ({PAGE_TOC_ACTIVE_JS})()[0] === {href!r}",
                               timeout=timeout)
        return True
    except Exception:  # noqa: BLE001 - a timeout: the highlight is elsewhere
        return False


def at_top(page, href):
    """(True if the heading of ``href`` is at the top of the window and seen, where it is)."""
    where = page.evaluate(HEADING_AT_JS, href[1:])
    return where and where["seen"] and -2 <= where["top"] <= 120, where


def pixels_differ(png_a, png_b, threshold=0.002):
    """True if more than ``threshold`` of the pixels of two screenshots differ."""
    from PIL import Image, ImageChops
    a = Image.open(io.BytesIO(png_a)).convert("RGB")
    b = Image.open(io.BytesIO(png_b)).convert("RGB")
    if a.size != b.size:
        return True
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 8 else 0)
    return diff.histogram()[255] > threshold * a.size[0] * a.size[1]


def check_scene(page, element, k):
    """Failures of the k-th scene (an iframe element handle) of a page."""
    element.scroll_into_view_if_needed()
    if hasattr(element, "evaluate"):       # an iframe of the book, not a standalone file:
        # it starts when it nears the screen (book/_static/scene-lazy.js)
        page.wait_for_function("e => !e.dataset.srcdoc", arg=element, timeout=SCENE_READY_MS)
    frame = element.content_frame()
    frame.wait_for_load_state("load", timeout=SCENE_READY_MS)
    try:
        frame.wait_for_function("() => !!window.liedynScene", timeout=SCENE_READY_MS)
    except Exception as e:  # noqa: BLE001 - the viewer never started
        return [f"scene {k}: the viewer did not start ({str(e).splitlines()[0]})"], ""
    failures = []
    frame.wait_for_timeout(300)                     # first frames rendered
    shown = element.screenshot()
    frame.evaluate("""() => { viewer.scene_tree.find(["liedyn"]).object.visible = false;
                              viewer.set_dirty(); }""")
    frame.wait_for_timeout(200)
    hidden = element.screenshot()
    frame.evaluate("""() => { viewer.scene_tree.find(["liedyn"]).object.visible = true;
                              viewer.set_dirty(); }""")
    frame.wait_for_timeout(200)
    if not pixels_differ(shown, hidden):
        failures.append(f"scene {k}: the canvas does not show the model (same pixels with "
                        f"the model hidden)")
    before_text = frame.inner_text("#time")
    before = element.screenshot()
    frame.click("#play")
    frame.wait_for_timeout(int(PLAY_S * 1000))
    try:      # on a busy machine the first frames can come late: wait for the readout to
        frame.wait_for_function(      # move on by PLAY_ADVANCE_S, and pause in that frame
            PAUSE_AFTER_JS, arg=float(before_text.split()[2]) + PLAY_ADVANCE_S,
            timeout=PLAY_WAIT_MS)
        advanced = True
    except Exception:  # noqa: BLE001 - a timeout, reported below
        advanced = False
        # pause, so that the screenshot is stable; force: while a scene plays, software
        # WebGL keeps the frame busy and the actionability checks waited 1-2.5 s
        frame.click("#play", force=True)
    after_text = frame.inner_text("#time")
    after = element.screenshot()
    t0, t1 = (float(s.split()[2]) for s in (before_text, after_text))
    if not advanced or not t1 > t0:
        failures.append(f"scene {k}: play did not show {PLAY_ADVANCE_S} s of scene time "
                        f"within {PLAY_WAIT_MS / 1000:.0f} s ({before_text!r} -> "
                        f"{after_text!r})")
    if not pixels_differ(before, after):
        failures.append(f"scene {k}: play did not change the picture")
    return failures, f"{before_text} -> {after_text}"


PAGE_TOC = []  # sections listed in each chapter's page contents (printed at the end)
PAGE_TOC_INTERACTIVE = ("book/06_equations_of_motion", "book/09_constrained_dynamics")


def check_page(context, base, html_dir, docname, shots, full_page=False):
    """Open one page; return (list of failures, summary of what was checked)."""
    problems, blocked = [], []
    page = context.new_page()
    page.on("console", lambda m: m.type == "error" and problems.append(
        ("console", f"{m.text} ({m.location.get('url', '')})")))
    page.on("pageerror", lambda e: problems.append(("console", f"uncaught: {e}")))
    page.on("response", lambda r: r.status >= 400 and problems.append(
        ("http", f"HTTP {r.status} {r.url}")))
    page.on("requestfailed", lambda r: r.url not in blocked and problems.append(
        ("http", f"failed {r.url}: {r.failure}")))

    def route(r):
        url = urlsplit(r.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL_HOSTS:
            blocked.append(r.request.url)
            return r.abort()
        return r.continue_()
    page.route("**/*", route)

    page.goto(base + docname + ".html", wait_until="load")
    has_mathjax = page.locator('script[src*="mathjax"]').count() > 0
    if has_mathjax:
        try:
            page.wait_for_function(
                "() => !!(window.MathJax && MathJax.startup && MathJax.startup.promise)",
                timeout=MATH_TIMEOUT_MS)
            page.evaluate("() => MathJax.startup.promise.then(() => true)")
            page.evaluate(TYPESET_ALL_JS)  # the formulas not yet in view (lazy typesetting)
            for tex in page.evaluate(MATH_ERRORS_JS):
                problems.append(("math", f"MathJax error or undefined macro in: {tex}"))
            for tex in page.evaluate(MATH_PROSE_JS):
                problems.append(("math", f"prose or a MyST role typeset as math: {tex!r}"))
        except Exception as e:  # noqa: BLE001 - any failure here means "MathJax never loaded"
            problems.append(("math", f"MathJax did not load: {str(e).splitlines()[0]}"))
    page.evaluate("() => document.fonts.ready.then(() => true)")  # MathJax's web fonts
    if page.locator(WIDGET_VIEW).count():  # the embed script renders widgets after `load`
        try:
            page.wait_for_selector(".jupyter-widgets", timeout=WIDGET_TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - reported below as "none rendered"
            pass
    info = page.evaluate(PAGE_JS, WIDGET_VIEW)
    page.screenshot(path=str(shots / (docname.replace("/", "_") + ".png")), full_page=full_page,
                    animations="disabled", timeout=SCREENSHOT_TIMEOUT_MS)
    load = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventStart")
    layout = check_layout(page)         # at 1400 px: outputs, code width, contents, scenes
    chapter, interactive = re.match(r"book/\d\d_", docname), docname in PAGE_TOC_INTERACTIVE
    if chapter:
        toc_failures, hrefs = check_page_toc(page, interactive)
        layout += toc_failures
    scenes = page.query_selector_all("iframe.liedyn-scene")
    scene_notes = []
    for k, element in enumerate(scenes):                     # the 3D scenes (check_scene)
        scene_failures, note = check_scene(page, element, k)
        layout += scene_failures
        scene_notes.append(note)
    layout += check_phone_width(page)                           # at 390 px
    if chapter and interactive and not toc_failures:
        layout += check_page_toc_phone(page, hrefs)
    page.close()

    failures = [f"request to a non-local address (aborted): {u}" for u in blocked]
    bad_urls = blocked + [t.split()[2] for k, t in problems if k == "http" and t.startswith("HTTP")]
    for kind, text in problems:
        if not text.startswith("HTTP") and any(u in text for u in bad_urls):
            continue  # a console error or "failed" of a request reported above
        if kind == "console" and any(re.search(rx, text) for rx, _ in ALLOW_LIST):
            continue
        failures.append(text)
    if info["merror"]:
        failures.append(f"{info['merror']} mjx-merror element(s)")
    for what, texts in (("raw TeX left in text", info["raw"]),
                        ("raw math or MyST role in text (broken inline math?)", info["leaks"]),
                        ("math not typeset", info["untypeset"])):
        failures += [f"{what}: {t!r}" for t in texts[:5]]
        failures += [f"... and {len(texts) - 5} more"] if len(texts) > 5 else []
    if info["untypeset"] and not has_mathjax:
        failures.append("page has math but no MathJax script")
    failures += [f"image not loaded: {src}" for src in info["broken_images"]]
    if info["widget_views"] and not info["widgets"]:
        failures.append(f"{info['widget_views']} embedded widget view(s), none rendered")
    failures += check_links(info["links"], html_dir, base)
    failures += layout
    # launch/repository buttons only for the configured repository (none without one)
    failures += [f"header button to {h} (repository URL: {REPO_URL or 'none configured'})"
                 for h in info["header_links"]
                 if not REPO_URL or not h.startswith(REPO_URL) and not any(
                     h.startswith(s) for s in LAUNCH_SITES)]
    for href in info["download_ipynb"]:
        nb = html_dir / unquote(urlsplit(href).path[len(urlsplit(base).path):])
        if nb.is_file() and '"output_type"' not in nb.read_text() and "code" in nb.read_text():
            failures.append(f"download {href} is the notebook without its outputs")
    summary = (f"load {load / 1000:.1f} s, math {info['math']}, images {info['images']}, "
               f"widgets {info['widgets']}, links {len(info['links'])}")
    if scenes:
        summary += f"; {len(scenes)} scene(s): " + "; ".join(scene_notes)
    return failures, summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html_dir", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("--toc", default=str(ROOT / "_toc.yml"))
    parser.add_argument("--full-page", action="store_true", help="screenshots of whole pages")
    parser.add_argument("--part", default="1/1", metavar="K/N",
                        help="check only every N-th page from the K-th (and the search on "
                             "part 1): N processes share the pages")
    args = parser.parse_args()
    try:
        k, n = (int(x) for x in args.part.split("/"))
        assert 1 <= k <= n
    except (ValueError, AssertionError):
        parser.error(f"--part must be K/N with 1 <= K <= N, got {args.part!r}")
    html_dir = Path(args.html_dir).resolve()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium with "
                 "`apt-get install -y chromium` (playwright's own browsers are not used)")
    if not (html_dir / "index.html").is_file():
        sys.exit(f"no built book in {html_dir}: run `make book` first")
    shots = html_dir.parent / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    base = serve(html_dir)

    from playwright.sync_api import sync_playwright
    passed = failed = 0
    start = time.perf_counter()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": DESKTOP, "height": 900})
        for docname in toc_pages(args.toc)[k - 1::n]:
            t0 = time.perf_counter()
            if not (html_dir / f"{docname}.html").is_file():
                failures, summary = [f"{docname}.html was not built"], "missing"
            else:
                try:
                    failures, summary = check_page(context, base, html_dir, docname, shots,
                                                   args.full_page)
                except Exception as e:  # noqa: BLE001 - a page that hangs or crashes fails
                    failures, summary = [f"check crashed: {str(e).splitlines()[0]}"], "error"
            status = "FAIL" if failures else "ok  "
            print(f"{status} {docname}: {summary} ({time.perf_counter() - t0:.1f} s)")
            for f in failures:
                print(f"       - {f}")
            passed, failed = passed + (not failures), failed + bool(failures)
        if k == 1:
            failures = check_search(context, base)
            print(f"{'FAIL' if failures else 'ok  '} search results")
            for f in failures:
                print(f"       - {f}")
            passed, failed = passed + (not failures), failed + bool(failures)
        browser.close()
    print(f"screenshots in {shots}; {time.perf_counter() - start:.0f} s")
    if PAGE_TOC:
        print("sections in the page contents: " + ", ".join(PAGE_TOC))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
