"""Every page of `_toc.yml` in the built book, opened in headless Chromium; and the search page.

    .venv/bin/pytest -n 2 --dist loadscope -m browser tests/browser   # after make book

A page (test_page[book/05_inverse_dynamics]) fails on
* any request to a non-local address (aborted and recorded: the book must not need a CDN),
* a local resource answering with HTTP >= 400 or failing to load,
* MathJax not loading (when the page has math), MathJax errors or undefined macros, raw `$$` or
  `\\[` left in the visible text outside code, math elements MathJax did not typeset,
* markdown that broke inline math (see tests/test_book_source.py): visible text outside code and
  rendered math with a `$...$` fragment, a TeX command such as `\\frac` or a raw MyST role such
  as `{cite}`, and typeset formulas whose TeX holds a role or a backtick (prose typeset as math),
* an image with naturalWidth 0 (images load lazily: all are loaded first), embedded widgets that
  did not render once scrolled into view (their script loads then),
* an icon drawn from a Font Awesome face that is not in the book's icon subset
  (book/_ext/lightpages.py), a request for the theme's whole icon fonts or fontawesome.js,
* an internal link to a missing file or a missing anchor,
* a console error or uncaught exception not in helpers.ALLOW_LIST,
* layout: at a phone's width (390 px) the page is wider than the viewport (the elements that
  stick out are named); at 1400 px a code block (cell source or listing) needs horizontal
  scrolling, unless its cell carries the tag `scroll-wide` (intentionally wide);
* a figure without a caption: an image of a cell output outside a `<figure>` with a
  `<figcaption>` (animations and widgets excepted: their cells come with a captioned static
  figure);
* an output that prints a bare `True` (a check belongs in an `assert`), or a filesystem path of
  the build machine (the checkout or the Python installation, e.g. in a traceback);
* a header button to another repository than the configured one, or a notebook download
  without its outputs;
* on a numbered chapter, its page contents (the "Contents" sidebar), see check_page_toc.
test_first_load[book/11_real_robots] opens a page in an empty browser context and, without
scrolling, sums the bytes of every response until the network is idle, each compressed with gzip
(what a server that compresses sends; the test's server does not): it fails above
FIRST_LOAD_LIMIT, when a page without a widget loads a widget script, or when a request leaves
127.0.0.1. Its note is the page's line of the table of first loads.
The search page (test_search[coadjoint]) fails when a result snippet shows raw TeX.
The 3D scenes of the pages are tests/browser/test_book_scenes.py. A screenshot of each page's
first screen (of the whole page with `--full-page`: slower) goes to `screenshots/` next to the
HTML directory (`_build/screenshots`).
"""
import gzip
import re
import sys
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from .helpers import VIEWPORT, Watch, fail_with
from common import ROOT

pytestmark = pytest.mark.browser

PHONE, DESKTOP = 390, 1400  # viewport widths of the layout checks
LAUNCH_SITES = ("https://mybinder.org", "https://colab.research.google.com")
SCREENSHOT_TIMEOUT_MS = 120_000  # a full-page screenshot of the API page, on a busy machine
MATH_TIMEOUT_MS = 15_000  # for the MathJax script to load (typesetting itself is awaited)
WIDGET_TIMEOUT_MS = 30_000  # the widget script loads when a widget is scrolled into view
IMAGES_TIMEOUT_MS = 60_000
FIRST_LOAD_LIMIT = 1_500_000  # bytes (gzip) a page may fetch before the reader scrolls
GZIP_LEVEL = 6                # the usual level of servers that compress
WIDGET_SCRIPTS = re.compile(r"/_static/widgets(?:/|-lazy\.js)")
FULL_ICON_FONTS = re.compile(r"/_static/(?:vendor/fontawesome/|scripts/fontawesome\.js)")
WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'
PAGE_TOC_INTERACTIVE = ("book/06_equations_of_motion", "book/09_constrained_dynamics")
PAGE_TOC_MIN_SECTIONS = 5  # a long chapter's contents list at least this many sections
SEARCH_QUERIES = ("coadjoint", "articulated inertia")
TEX_IN_TEXT = re.compile(r"\\(?:[A-Za-z]{2,}|[\[\]()])")

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
# Every image loaded (they load lazily, when near the screen); true when all have settled.
LOAD_IMAGES_JS = r"""() => Promise.all(Array.from(document.images).map(i => {
  if (i.loading === 'lazy') i.loading = 'eager';
  return i.complete ? null : new Promise(r => { i.addEventListener('load', r);
                                                i.addEventListener('error', r); });
})).then(() => true)"""
# Bring the first widget near the screen: its script loads then (book/_static/widgets-lazy.js).
SHOW_WIDGET_JS = r"""(view) => { const v = document.querySelector(view);
  (v.closest('.cell') || v.parentElement).scrollIntoView(); }"""
# Icons drawn with a Font Awesome face: [family, weight, code point] of every ::before and
# ::after (shown or not), and the Font Awesome faces that failed to load.
ICONS_JS = r"""() => {
  const icons = new Set();
  for (const e of document.querySelectorAll('body *'))
    for (const pseudo of ['::before', '::after']) {
      const s = getComputedStyle(e, pseudo);
      if (!/Font Awesome/.test(s.fontFamily) || !/^["']/.test(s.content)) continue;
      for (const ch of s.content.slice(1, -1)) {
        const c = ch.codePointAt(0);
        if (c >= 0xe000 && c <= 0xf8ff)
          icons.add(JSON.stringify([s.fontFamily.replace(/["']/g, ''), s.fontWeight, c]));
      }
    }
  const broken = Array.from(document.fonts).filter(
    f => /Font Awesome/.test(f.family) && f.status === 'error').map(f => f.family);
  return {icons: Array.from(icons).map(i => JSON.parse(i)), broken};
}"""
# MathJax has started and typeset what is on screen (lazily, a moment later), and the fonts
# that needs have loaded.
SETTLED_JS = r"""() => ((window.MathJax && MathJax.startup && MathJax.startup.promise)
                        || Promise.resolve())
  .then(() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 500))))
  .then(() => document.fonts.ready).then(() => true)"""
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
    .filter(img => { const f = img.closest('figure');
                     return !(f && f.querySelector('figcaption')); })
    .map(img => (img.getAttribute('src') || '').split('/').pop().slice(0, 24));
  const outputs = Array.from(document.querySelectorAll('.bd-article .cell_output'))
    .map(o => o.innerText);
  const bareTrue = outputs
    .filter(t => t.split('\n').some(line => /^\s*(True|False)\s*$/.test(line)))
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
# The page's contents (secondary sidebar "Contents", book/_static/page-toc.js): entries, headings.
PAGE_TOC_JS = r"""() => {
  const nav = document.querySelector('#pst-page-toc-nav');
  // the box that scrolls the contents when they are longer than the window
  let box = nav;
  while (box && !(/(auto|scroll)/.test(getComputedStyle(box).overflowY)
                  && box.scrollHeight > box.clientHeight)) box = box.parentElement;
  const boxBottom = box ? Math.min(box.getBoundingClientRect().bottom, innerHeight) : 0;
  // seen, or reached by scrolling that box (which ends inside the window)
  const shown = e => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    const inWindow = r.bottom > 0 && r.top < innerHeight;
    const byScroll = !!box && box !== document.documentElement && box.contains(e)
                     && boxBottom <= innerHeight + 1;
    return r.width > 0 && r.height > 0 && r.right <= innerWidth + 1 && (inWindow || byScroll)
           && s.visibility !== 'hidden' && Number(s.opacity) > 0; };
  const top = Array.from(nav
    ? nav.querySelectorAll('li.toc-h2 > a.nav-link, li.toc-h3 > a.nav-link') : []);
  const sections = Array.from(document.querySelectorAll(
    'article.bd-article section > h2, article.bd-article section > h3'))
    .map(h => h.parentElement.id);
  return {nav: !!nav, visible: !!nav && shown(nav), sections,
          entries: top.map(a => ({href: a.getAttribute('href'), text: a.textContent.trim(),
                                  shown: shown(a)}))};
}"""
PAGE_TOC_ACTIVE_JS = r"""() => Array.from(
  document.querySelectorAll('#pst-page-toc-nav a.nav-link.active'))
  .map(a => a.getAttribute('href'))"""
# Where the heading of section `id` is: its top in the window, and whether it is the element seen
# at that place (not under the sticky header or a dialog).
HEADING_AT_JS = r"""(id) => { const s = document.getElementById(id);
  const h = s && (s.querySelector('h1, h2, h3, h4, h5, h6') || s);
  if (!h) return null;
  const r = h.getBoundingClientRect();
  const e = document.elementFromPoint(r.left + Math.min(20, r.width / 2),
                                      r.top + Math.min(10, r.height / 2));
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


@lru_cache(maxsize=None)
def repository_url():
    """The repository the book was built for (book/_ext/publishing.py decides it the same way)."""
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from publishing import repository_url as decide
    config = yaml.safe_load((ROOT / "_config.yml").read_text())["sphinx"]["config"]
    return decide(config.get("liedyn_repository_url") or "", ROOT)


def local_paths(html_dir):
    """Paths of this machine that must not leak into the published pages (outputs,
    tracebacks): this checkout, the one the book was built in, the Python installation."""
    paths = {str(ROOT), str(Path(sys.prefix).resolve()), str(Path(sys.base_prefix))}
    if html_dir.parent.name == "_build":
        paths.add(str(html_dir.parents[1]))
    return sorted(paths, key=len, reverse=True)


@pytest.fixture
def book_page(context):
    """A new page of the shared context, watched (helpers.Watch)."""
    page = context.new_page()
    watch = Watch(page)
    yield page, watch
    page.close()


def test_page(docname, html_dir, book_url, book_page, shots, pytestconfig, note):
    """One page of `_toc.yml`: every check of the module docstring."""
    page, watch = book_page
    if not (html_dir / f"{docname}.html").is_file():
        pytest.fail(f"{docname}.html was not built", pytrace=False)
    has_mathjax, failures = open_page(page, f"{book_url}{docname}.html")
    info = page.evaluate(PAGE_JS, WIDGET_VIEW)
    page.screenshot(path=str(shots / (docname.replace("/", "_") + ".png")),
                    full_page=pytestconfig.getoption("full_page"), animations="disabled",
                    timeout=SCREENSHOT_TIMEOUT_MS)
    load_ms = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventStart")
    failures += content_failures(info, has_mathjax, html_dir, book_url)
    failures += check_layout(page, local_paths(html_dir))         # at 1400 px
    failures += check_icons(page.evaluate(ICONS_JS), html_dir)
    failures += [f"the whole icon font is fetched: {u}" for u in watch.requested
                 if FULL_ICON_FONTS.search(u)]
    summary = (f"load {load_ms / 1000:.1f} s, math {info['math']}, images {info['images']}, "
               f"widgets {info['widgets']}, links {len(info['links'])}")
    chapter, interactive = re.match(r"book/\d\d_", docname), docname in PAGE_TOC_INTERACTIVE
    if chapter:
        toc_failures, hrefs = check_page_toc(page, interactive)
        failures += toc_failures
        summary += f", {len(hrefs)} sections in the page contents"
    failures += check_phone_width(page)                           # at 390 px
    if chapter and interactive and not toc_failures:
        failures += check_page_toc_phone(page, hrefs)
    failures += watch.failures()
    note(summary)
    fail_with(failures, f"{docname}.html")


def open_page(page, url):
    """Open `url` and wait for MathJax (every formula typeset), its fonts and the widgets;
    return (whether the page loads MathJax, failures of its math)."""
    page.goto(url, wait_until="load")
    failures = []
    has_mathjax = page.locator('script[src*="mathjax"]').count() > 0
    if has_mathjax:
        try:
            page.wait_for_function(
                "() => !!(window.MathJax && MathJax.startup && MathJax.startup.promise)",
                timeout=MATH_TIMEOUT_MS)
            page.evaluate("() => MathJax.startup.promise.then(() => true)")
            page.evaluate(TYPESET_ALL_JS)  # the formulas not yet in view (lazy typesetting)
            failures += [f"MathJax error or undefined macro in: {tex}"
                         for tex in page.evaluate(MATH_ERRORS_JS)]
            failures += [f"prose or a MyST role typeset as math: {tex!r}"
                         for tex in page.evaluate(MATH_PROSE_JS)]
        except Exception as e:  # noqa: BLE001 - any failure here means "MathJax never loaded"
            failures.append(f"MathJax did not load: {str(e).splitlines()[0]}")
    page.evaluate("() => document.fonts.ready.then(() => true)")  # MathJax's web fonts
    if page.locator(WIDGET_VIEW).count():  # the embed script renders widgets after `load`
        page.evaluate(SHOW_WIDGET_JS, WIDGET_VIEW)
        try:
            page.wait_for_selector(".jupyter-widgets", timeout=WIDGET_TIMEOUT_MS)
        except Exception:  # noqa: BLE001 - reported by content_failures as "none rendered"
            pass
        page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_function(LOAD_IMAGES_JS, timeout=IMAGES_TIMEOUT_MS)
    return has_mathjax, failures


def content_failures(info, has_mathjax, html_dir, base):
    """Failures of what PAGE_JS found: math, images, widgets, links, header buttons and the
    notebook download."""
    failures = [f"{info['merror']} mjx-merror element(s)"] if info["merror"] else []
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
    repo = repository_url()  # launch/repository buttons only for it (none without one)
    failures += [f"header button to {h} (repository URL: {repo or 'none configured'})"
                 for h in info["header_links"]
                 if not repo or not h.startswith(repo) and not h.startswith(LAUNCH_SITES)]
    for href in info["download_ipynb"]:
        nb = html_dir / unquote(urlsplit(href).path[len(urlsplit(base).path):])
        if nb.is_file() and '"output_type"' not in nb.read_text() and "code" in nb.read_text():
            failures.append(f"download {href} is the notebook without its outputs")
    return failures


@lru_cache(maxsize=None)
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


def check_layout(page, paths):
    """Failures of the output rules and of code width at 1400 px (the page's viewport);
    `paths`: the local paths no output may show."""
    failures = []
    out = page.evaluate(OUTPUTS_JS)
    failures += [f"figure without a caption: {src}" for src in out["uncaptioned"]]
    failures += [f"output prints a bare True/False: {t!r}" for t in out["bareTrue"]]
    for text in out["outputs"]:
        for path in paths:
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


@lru_cache(maxsize=None)
def icon_subset(html_dir):
    """{(family, weight): code points} of the icon faces of _static/icons.css, each checked
    against the characters its font file holds."""
    from fontTools.ttLib import TTFont
    css = html_dir / "_static" / "icons.css"
    faces = {}
    text = css.read_text() if css.is_file() else ""
    for face in re.findall(r"@font-face\s*\{([^}]*)\}", text):
        family = re.search(r'font-family:\s*"([^"]+)"', face)[1]
        weight = re.search(r"font-weight:\s*(\d+)", face)[1]
        font = TTFont(css.parent / re.search(r"url\(([^)]+)\)", face)[1])
        ranges = {int(c, 16) for c in re.findall(r"U\+([0-9A-Fa-f]+)", face)}
        faces[(family, weight)] = ranges & set(font.getBestCmap())
    return faces


def check_icons(found, html_dir):
    """Failures of the icons of a page (ICONS_JS): each icon of a family the theme declares
    (the families of the subset) is in the subset face of its weight, and no Font Awesome face
    failed to load. (The widget script brings Font Awesome 5 with its own fonts.)"""
    faces = icon_subset(html_dir)
    if not faces:
        return ["no icon subset in _static/icons.css (book/_ext/lightpages.py)"]
    families = {family for family, _ in faces}
    failures = [f"icon U+{c:X} ({family} {weight}) is not in the icon subset "
                "(_static/icons.css, book/_ext/lightpages.py)"
                for family, weight, c in sorted(map(tuple, found["icons"]))
                if family in families and c not in faces.get((family, str(weight)), ())]
    return failures + [f"icon font failed to load: {f}" for f in sorted(set(found["broken"]))]


def test_first_load(docname, html_dir, book_url, browser, note):
    """The bytes a page fetches before the reader scrolls (gzip), at most FIRST_LOAD_LIMIT."""
    if not (html_dir / f"{docname}.html").is_file():
        pytest.fail(f"{docname}.html was not built", pytrace=False)
    context = browser.new_context(viewport=VIEWPORT)  # an empty cache
    page = context.new_page()
    watch = Watch(page)
    sizes = {}                                        # url -> (type, bytes, gzip bytes)

    def measure(response):
        try:
            body = response.body()
        except Exception:  # noqa: BLE001 - no body (a redirect, an aborted request)
            return
        sizes[response.url] = (response.request.resource_type, len(body),
                               len(gzip.compress(body, GZIP_LEVEL)))
    page.on("response", measure)
    try:
        page.goto(f"{book_url}{docname}.html", wait_until="load")
        page.evaluate(SETTLED_JS)             # the first screen's math typeset, its fonts in
        page.wait_for_load_state("networkidle")
        has_widget = page.locator(WIDGET_VIEW).count() > 0
    finally:
        context.close()
    total = sum(z for _, _, z in sizes.values())
    kinds = {}
    for kind, _, z in sizes.values():
        kinds[kind] = kinds.get(kind, 0) + z
    parts = sorted(kinds.items(), key=lambda kv: -kv[1])
    note(f"{total / 1e6:.2f} MB gzip at first load, {len(sizes)} files ("
         + ", ".join(f"{k} {v / 1e6:.2f}" for k, v in parts) + ")")
    failures = []
    if total > FIRST_LOAD_LIMIT:
        largest = sorted(sizes.items(), key=lambda kv: -kv[1][2])[:5]
        failures.append(f"{total / 1e6:.2f} MB (gzip) at first load, above "
                        f"{FIRST_LOAD_LIMIT / 1e6:.1f} MB; largest: " + ", ".join(
                            f"{u.rsplit('/', 1)[-1]} {z / 1e6:.2f} MB"
                            for u, (_, _, z) in largest))
    if not has_widget:
        failures += [f"a widget script on a page without a widget: {u}" for u in sizes
                     if WIDGET_SCRIPTS.search(u)]
    failures += [f"the whole icon font is fetched: {u}" for u in sizes
                 if FULL_ICON_FONTS.search(u)]
    fail_with(failures + watch.failures(), f"first load of {docname}.html")


@pytest.mark.parametrize("query", SEARCH_QUERIES)
def test_search(query, context, book_url):
    """Search snippets come from the pages' HTML, where math is raw TeX: none may show it."""
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto(f"{book_url}search.html?q={query}", wait_until="load")
        try:
            page.wait_for_selector("p.context", timeout=60_000)
        except Exception:  # noqa: BLE001 - no result is a failure of its own
            pytest.fail(f"search for {query!r} shows no result", pytrace=False)
        page.wait_for_timeout(2000)  # snippets arrive one page fetch at a time
        snippets = page.eval_on_selector_all("p.context", "ps => ps.map(p => p.textContent)")
    finally:
        page.close()
    failures = [f"raw TeX in a search snippet: {text[max(0, m.start() - 30):m.end() + 30]!r}"
                for text in snippets if (m := TEX_IN_TEXT.search(text))]
    fail_with(failures + watch.failures(), f"search for {query!r}")


def check_page_toc(page, interactive=True):
    """Failures of a chapter's page contents (the theme's secondary sidebar, "Contents") at
    1400 px, the page's viewport, and the entries listed (hrefs) for check_page_toc_phone.

    Every chapter gets the static checks; the interactive ones (following entries, the jump,
    and at a phone's width check_page_toc_phone) run on the chapters of PAGE_TOC_INTERACTIVE,
    the longest ones (they exercise the same script and theme on every page, and take seconds
    each).

    The contents are visible, list every section and subsection (h2, h3) of the chapter, each
    seen or reached by scrolling the contents' own box, and at least PAGE_TOC_MIN_SECTIONS;
    following an entry brings its heading to the top of the window (below the sticky header,
    not covered) and highlights that entry; after a jump into the middle of a long section (as
    a drag of the scroll bar does: no heading passes the top of the window) the highlight is
    that section.
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
