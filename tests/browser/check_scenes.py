"""Browser check of the 3D scenes (liedyn.teach.scene) in the built book, or in standalone files.

    .venv/bin/python tests/browser/check_scenes.py [HTML_DIR] [--toc TOC]
    .venv/bin/python tests/browser/check_scenes.py --files scene.html ...

Every page of `_toc.yml` whose HTML holds a scene (an `iframe.liedyn-scene`) is opened in
headless Chromium from a server on 127.0.0.1 (`--files`: each file is served from its own
directory, the way a reader opens a saved scene). For every scene of the page it checks that
* the viewer starts (its script ran and built the scene: `window.liedynScene` in the frame),
* the canvas draws the model: a screenshot of the frame changes when the model is hidden,
* pressing play advances the displayed time ("t = ... s") and changes the pixels,
and, for the page as a whole, that no request left 127.0.0.1 (each is aborted and reported),
that nothing answered HTTP >= 400, and that no uncaught exception was thrown. It prints the
page's size and the time to its `load` event (served locally).
`make test` runs the same scene checks (check_book.check_scene) inside check_book.py, on the
page load that check already makes; this script is `make check-scenes`, and the check of saved
files. Uses Debian's chromium through playwright, like check_book.py.
"""
import argparse
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_book import (ALLOW_LIST, ARGS, CHROMIUM, LOCAL_HOSTS, ROOT,  # noqa: E402
                        check_scene, serve, toc_pages)

LOAD_MS = 120_000           # generous: the check may share a busy machine
SCENE_TAG = '<iframe class="liedyn-scene"'


def check_page(context, url):
    """Open one page; return (failures, summary)."""
    problems, blocked = [], []
    page = context.new_page()
    page.on("pageerror", lambda e: problems.append(f"uncaught: {e}"))
    page.on("response", lambda r: r.status >= 400 and problems.append(f"HTTP {r.status} {r.url}"))

    def route(r):
        u = urlsplit(r.request.url)
        if u.scheme in ("http", "https", "ws", "wss") and u.hostname not in LOCAL_HOSTS:
            blocked.append(r.request.url)
            return r.abort()
        return r.continue_()
    page.route("**/*", route)
    start = time.perf_counter()
    page.goto(url, wait_until="load", timeout=LOAD_MS)
    load = time.perf_counter() - start
    size = page.evaluate("() => document.documentElement.outerHTML.length")
    scenes = page.query_selector_all("iframe.liedyn-scene")
    failures, notes = [], []
    if page.query_selector("#meshcat-pane"):        # a standalone scene: the page itself
        scenes = [None]
    if not scenes:
        failures.append("no scene on the page")
    for k, element in enumerate(scenes):
        if element is None:
            failures_k, note = check_standalone(page)
        else:
            failures_k, note = check_scene(page, element, k)
        failures += failures_k
        notes.append(note)
    page.close()
    failures += [f"request to a non-local address (aborted): {u}" for u in blocked]
    failures += [p for p in problems if "favicon.ico" not in p
                 and not any(re.search(rx, p) for rx, _ in ALLOW_LIST)]
    summary = (f"{len(scenes)} scene(s), {size / 1e6:.1f} MB, load {load:.2f} s; "
               + "; ".join(notes))
    return failures, summary


def check_standalone(page):
    """A saved scene opened directly: run the same checks on its main frame."""
    class Whole:
        def scroll_into_view_if_needed(self):
            pass

        def content_frame(self):
            return page.main_frame

        def screenshot(self):
            return page.screenshot()
    return check_scene(page, Whole(), 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html_dir", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("--toc", default=str(ROOT / "_toc.yml"))
    parser.add_argument("--files", nargs="+", help="standalone scene files instead of the book")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        sys.exit(f"{CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium)")
    if args.files:
        targets = [(Path(f).resolve().parent, Path(f).name) for f in args.files]
    else:
        html_dir = Path(args.html_dir).resolve()
        if not (html_dir / "index.html").is_file():
            sys.exit(f"no built book in {html_dir}: run `make book` first")
        targets = [(html_dir, f"{d}.html") for d in toc_pages(args.toc)
                   if (html_dir / f"{d}.html").is_file()
                   and SCENE_TAG in (html_dir / f"{d}.html").read_text(errors="replace")]
        if not targets:
            sys.exit("no page of the book has a 3D scene (iframe.liedyn-scene)")
    from playwright.sync_api import sync_playwright
    passed = failed = 0
    start = time.perf_counter()
    bases = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 1000, "height": 700})
        for directory, name in targets:
            base = bases.setdefault(directory, serve(directory))
            try:
                failures, summary = check_page(context, base + name)
            except Exception as e:  # noqa: BLE001 - a page that hangs or crashes fails
                failures, summary = [f"check crashed: {str(e).splitlines()[0]}"], "error"
            print(f"{'FAIL' if failures else 'ok  '} {name}: {summary}")
            for f in failures:
                print(f"       - {f}")
            passed, failed = passed + (not failures), failed + bool(failures)
        browser.close()
    print(f"scenes: {passed} page(s) passed, {failed} failed; "
          f"{time.perf_counter() - start:.0f} s")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
