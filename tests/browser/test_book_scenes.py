"""The 3D scenes (liedyn.teach.scene) and animations of the built book, and standalone files.

    .venv/bin/pytest -m browser tests/browser/test_book_scenes.py   # after make book

Every scene of the pages of `_toc.yml` (an `iframe.liedyn-scene`) is a test,
test_scene[book/07_forward_dynamics#0]: its page is opened in headless Chromium from the
server on 127.0.0.1, the scene scrolled into view (its document, a file beside the page, is
fetched then: book/_ext/lightpages.py, book/_static/scene-lazy.js), and the scene must
* start its viewer (its script ran and built the scene: `window.liedynScene` in the frame),
* draw the model on the canvas: a screenshot of the frame changes when the model is hidden,
* on play, advance the displayed time ("t = ... s") and change the pixels;
and while the page is open no request may leave 127.0.0.1 (each is aborted and reported),
nothing may answer HTTP >= 400, and no uncaught exception or console error may occur.
test_scene_file runs the same checks on a saved scene opened the way a reader opens it (served
from its own directory): the files given with `--scene-file`, or else one it saves itself.
test_animation does the same for the matplotlib animations (`iframe.liedyn-animation`) of the
pages, and for one made here and put in a page the way the book's build does it
(test_animation[saved]): fetched when scrolled into view, its frame as tall as the player, the
first frame drawn, and play shows other frames.
"""
import io
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from .helpers import Watch, fail_with, serve
from common import ROOT

pytestmark = pytest.mark.browser

LOAD_MS = 120_000         # generous: the test may share a busy machine
SCENE_READY_MS = 60_000   # for a 3D scene's viewer to start
PLAY_S = 0.5
PLAY_ADVANCE_S = 0.2       # scene time that play must show before the check pauses it
EARLY_PX = 400             # a frame this far below the first screen waits for a scroll
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
LOAD_EVENT_JS = "() => performance.getEntriesByType('navigation')[0].loadEventStart"
SHOW_MODEL_JS = """(shown) => { viewer.scene_tree.find(["liedyn"]).object.visible = shown;
                                viewer.set_dirty(); }"""


def test_scene(scene_id, html_dir, book_url, context, note):
    """The k-th scene of a page (`docname#k`)."""
    if scene_id == "none":
        pytest.fail("no page of the book has a 3D scene (iframe.liedyn-scene)", pytrace=False)
    docname, k = scene_id.rsplit("#", 1)
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto(f"{book_url}{docname}.html", wait_until="load", timeout=LOAD_MS)
        element = page.query_selector_all("iframe.liedyn-scene")[int(k)]
        failures = fetched_early(page, element)
        element.scroll_into_view_if_needed()
        # it starts when it nears the screen (book/_static/scene-lazy.js)
        page.wait_for_function("e => !!e.getAttribute('src')", arg=element,
                               timeout=SCENE_READY_MS)
        checks, played = check_scene(element.content_frame(), element.screenshot)
        failures += checks
        load_ms = page.evaluate(LOAD_EVENT_JS)
    finally:
        page.close()
    note(f"page load {load_ms / 1000:.1f} s; {played}")
    fail_with(failures + watch.failures(), f"scene {scene_id}")


@pytest.fixture
def scene_path(scene_file, tmp_path):
    """The standalone scene to check: a --scene-file, or a double pendulum saved here."""
    if scene_file:
        return Path(scene_file).resolve()
    from liedyn.robots import double_pendulum
    from liedyn.teach.scene import scene
    t = np.linspace(0.0, 2.0, 61)
    q = np.column_stack([np.sin(3.0 * t), np.cos(2.0 * t) - 1.0])
    return scene(double_pendulum(), q, times=t).save(tmp_path / "double_pendulum.html")


def test_scene_file(scene_path, context, note):
    """A saved scene opened directly: the same checks on its main frame."""
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto(serve(scene_path.parent) + scene_path.name, wait_until="load",
                  timeout=LOAD_MS)
        failures, played = check_scene(page.main_frame, page.screenshot)
        load_ms, size = page.evaluate(LOAD_EVENT_JS), scene_path.stat().st_size
    finally:
        page.close()
    note(f"{size / 1e6:.1f} MB, load {load_ms / 1000:.1f} s; {played}")
    fail_with(failures + watch.failures(ignore=["favicon.ico"]), str(scene_path))


def fetched_early(page, element):
    """A failure if the frame `element`, far below the first screen, was fetched with it."""
    top = element.evaluate("e => e.getBoundingClientRect().top")
    if element.get_attribute("src") and top > page.viewport_size["height"] + EARLY_PX:
        return [f"fetched at load, {top:.0f} px down the page, before it is scrolled into "
                f"view ({element.get_attribute('src')})"]
    return []


def check_scene(frame, screenshot):
    """(failures, "t = ... -> t = ...") of the scene in `frame`; `screenshot()` returns PNG
    bytes of what shows the scene (its iframe, or the whole page)."""
    frame.wait_for_load_state("load", timeout=SCENE_READY_MS)
    try:
        frame.wait_for_function("() => !!window.liedynScene", timeout=SCENE_READY_MS)
    except Exception as e:  # noqa: BLE001 - the viewer never started
        return [f"the viewer did not start ({str(e).splitlines()[0]})"], ""
    failures = []
    frame.wait_for_timeout(300)                     # first frames rendered
    shown = screenshot()
    frame.evaluate(SHOW_MODEL_JS, False)
    frame.wait_for_timeout(200)
    hidden = screenshot()
    frame.evaluate(SHOW_MODEL_JS, True)
    frame.wait_for_timeout(200)
    if not pixels_differ(shown, hidden):
        failures.append("the canvas does not show the model (same pixels with the model "
                        "hidden)")
    before_text, before = frame.inner_text("#time"), screenshot()
    advanced = play(frame, float(before_text.split()[2]) + PLAY_ADVANCE_S)
    after_text, after = frame.inner_text("#time"), screenshot()
    t0, t1 = (float(s.split()[2]) for s in (before_text, after_text))
    if not advanced or not t1 > t0:
        failures.append(f"play did not show {PLAY_ADVANCE_S} s of scene time within "
                        f"{PLAY_WAIT_MS / 1000:.0f} s ({before_text!r} -> {after_text!r})")
    if not pixels_differ(before, after):
        failures.append("play did not change the picture")
    return failures, f"{before_text} -> {after_text}"


def play(frame, until):
    """Press play and pause once the readout shows time `until`; False if it never did."""
    frame.click("#play")
    frame.wait_for_timeout(int(PLAY_S * 1000))
    try:      # on a busy machine the first frames can come late: wait for the readout to
        frame.wait_for_function(PAUSE_AFTER_JS, arg=until,  # move on, pause in that frame
                                timeout=PLAY_WAIT_MS)
        return True
    except Exception:  # noqa: BLE001 - a timeout, reported by the caller
        # pause, so that the screenshot is stable; force: while a scene plays, software
        # WebGL keeps the frame busy and the actionability checks waited 1-2.5 s
        frame.click("#play", force=True)
        return False


def pixels_differ(png_a, png_b, threshold=0.002):
    """True if more than ``threshold`` of the pixels of two screenshots differ."""
    from PIL import Image, ImageChops
    a = Image.open(io.BytesIO(png_a)).convert("RGB")
    b = Image.open(io.BytesIO(png_b)).convert("RGB")
    if a.size != b.size:
        return True
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 8 else 0)
    return diff.histogram()[255] > threshold * a.size[0] * a.size[1]


# ---- animations (matplotlib's to_jshtml player, a file beside the page) --------------------

ANIMATION_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>an animation, as the book shows it</title>
<script src="scene-lazy.js"></script></head>
<body><div style="height: 2500px">a long text before the animation</div>
{output}
</body></html>
"""
FRAME_FITS_JS = """e => { const doc = e.contentDocument.documentElement;
  return doc.scrollHeight > 100 && Math.abs(e.getBoundingClientRect().height
                                            - doc.scrollHeight) < 4; }"""
FIRST_FRAME_JS = """() => { const img = document.querySelector('.animation img');
  return !!img && img.complete && img.naturalWidth > 0; }"""


@pytest.fixture
def animation_url(animation_id, book_url, tmp_path):
    """(URL of the page, index of the animation on it): a page of the book, or, for "saved",
    a page made here with an animation placed by book/_ext/lightpages.py."""
    if animation_id != "saved":
        docname, k = animation_id.rsplit("#", 1)
        return f"{book_url}{docname}.html", int(k)
    import matplotlib
    matplotlib.use("Agg")
    from liedyn.robots import double_pendulum
    from liedyn.simulation import simulate
    from liedyn.teach.plot import animate
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    from lightpages import externalize
    traj = simulate(double_pendulum(), [1.0, 0.5], [0.0, 0.0], dt=0.01, steps=100)
    output, files = externalize(animate(double_pendulum(), traj, stride=10).to_jshtml(),
                                "page.html")
    for path, doc in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(doc, encoding="utf-8")
    shutil.copy(ROOT / "book" / "_static" / "scene-lazy.js", tmp_path)
    (tmp_path / "page.html").write_text(ANIMATION_PAGE.format(output=output), encoding="utf-8")
    return serve(tmp_path) + "page.html", 0


def test_animation(animation_url, context, note):
    """An animation is fetched when scrolled into view, fits its frame, draws its first frame
    and plays."""
    url, k = animation_url
    page = context.new_page()
    watch = Watch(page)
    try:
        page.goto(url, wait_until="load", timeout=LOAD_MS)
        element = page.query_selector_all("iframe.liedyn-animation")[k]
        failures = fetched_early(page, element)
        element.scroll_into_view_if_needed()
        page.wait_for_function("e => !!e.getAttribute('src')", arg=element,
                               timeout=SCENE_READY_MS)
        frame = element.content_frame()
        frame.wait_for_load_state("load", timeout=SCENE_READY_MS)
        frame.wait_for_function(FIRST_FRAME_JS, timeout=SCENE_READY_MS)
        try:
            page.wait_for_function(FRAME_FITS_JS, arg=element, timeout=10_000)
        except Exception:  # noqa: BLE001 - reported
            failures.append("the frame does not take the height of the player")
        element.scroll_into_view_if_needed()
        first, before = frame.eval_on_selector(".animation img", "i => i.src"), element.screenshot()
        frame.click('button[title="Play"]')
        try:
            frame.wait_for_function("s => document.querySelector('.animation img').src !== s",
                                    arg=first, timeout=PLAY_WAIT_MS)
        except Exception:  # noqa: BLE001 - reported
            failures.append("play did not show another frame")
        frame.click('button[title="Pause"]')
        if not pixels_differ(before, element.screenshot()):
            failures.append("play did not change the picture")
        height = element.evaluate("e => e.getBoundingClientRect().height")
    finally:
        page.close()
    note(f"frame {height:.0f} px high, played")
    fail_with(failures + watch.failures(ignore=["favicon.ico"]), f"animation {url}#{k}")
