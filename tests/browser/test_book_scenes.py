"""The 3D scenes (liedyn.teach.scene) of the built book, and standalone scene files.

    .venv/bin/pytest -m browser tests/browser/test_book_scenes.py   # after make book

Every scene of the pages of `_toc.yml` (an `iframe.liedyn-scene`) is a test,
test_scene[book/07_forward_dynamics#0]: its page is opened in headless Chromium from the
server on 127.0.0.1, and the scene must
* start its viewer (its script ran and built the scene: `window.liedynScene` in the frame),
* draw the model on the canvas: a screenshot of the frame changes when the model is hidden,
* on play, advance the displayed time ("t = ... s") and change the pixels;
and while the page is open no request may leave 127.0.0.1 (each is aborted and reported),
nothing may answer HTTP >= 400, and no uncaught exception or console error may occur.
test_scene_file runs the same checks on a saved scene opened the way a reader opens it (served
from its own directory): the files given with `--scene-file`, or else one it saves itself.
"""
import io
from pathlib import Path

import numpy as np
import pytest

from .helpers import Watch, fail_with, serve

pytestmark = pytest.mark.browser

LOAD_MS = 120_000         # generous: the test may share a busy machine
SCENE_READY_MS = 60_000   # for a 3D scene's viewer to start
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
        element.scroll_into_view_if_needed()
        # it starts when it nears the screen (book/_static/scene-lazy.js)
        page.wait_for_function("e => !e.dataset.srcdoc", arg=element, timeout=SCENE_READY_MS)
        failures, played = check_scene(element.content_frame(), element.screenshot)
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
