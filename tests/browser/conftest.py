"""Fixtures of the browser tests: the built book, its server, Chromium, JupyterLab.

    .venv/bin/pytest -n 2 --dist loadscope -m browser tests/browser   # after make book
    .venv/bin/pytest -m pdf tests/browser                             # after make pdf

Each session (each pytest-xdist worker) has its own HTTP server and browser, and JupyterLab
when it runs a test of test_lab.py: `--dist loadscope` gives each module to one worker, so
one JupyterLab serves all chapters. The tests are parametrised here: by page of `_toc.yml`
(`test_page[book/05_inverse_dynamics]`), by 3D scene of the built pages
(`test_scene[book/07_forward_dynamics#0]`), by animation (`test_animation[saved]`, one made by
the test), by standalone scene file, and by chapter for
JupyterLab (`test_chapter[book/01_rigid_body_motion]`). What each test prints when it passes
(load times, scene times, sections listed) is shown at the end, under "browser checks".
"""
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .helpers import ARGS, CHROMIUM, VIEWPORT, serve, toc_pages
from common import ROOT

SCENE_TAG = '<iframe class="liedyn-scene"'
ANIMATION_TAG = '<iframe class="liedyn-animation"'
LAB_START_S = 180
LAB_SETTINGS = {  # render every cell (no windowing), no news pop-up, never save
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false"},
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


def pytest_addoption(parser):
    group = parser.getgroup("liedyn browser tests (tests/browser)")
    group.addoption("--html-dir", default=str(ROOT / "_build" / "html"),
                    help="the built HTML book (default: _build/html)")
    group.addoption("--book-dir", default=str(ROOT / "book"),
                    help="the notebooks JupyterLab opens, with benchmarks/ beside them "
                         "(default: book/)")
    group.addoption("--pdf", default=str(ROOT / "_build" / "pdf" / "liedyn.pdf"),
                    help="the printed book of make pdf (default: _build/pdf/liedyn.pdf)")
    group.addoption("--scene-file", action="append", default=[],
                    help="a saved standalone scene to check (repeatable; default: one the "
                         "test saves with liedyn.teach.scene)")
    group.addoption("--full-page", action="store_true",
                    help="screenshots of whole pages (slower), not of the first screen")


def html_dir_of(config):
    return Path(config.getoption("html_dir")).resolve()


def book_pages():
    return toc_pages(ROOT / "_toc.yml")


def scene_ids(config):
    """`docname#k` of every scene of the built pages; a placeholder when there is none."""
    html_dir = html_dir_of(config)
    if not (html_dir / "index.html").is_file():
        return ["unbuilt"]            # the html_dir fixture fails these with its message
    ids = [f"{d}#{k}" for d in book_pages() if (html_dir / f"{d}.html").is_file()
           for k in range((html_dir / f"{d}.html").read_text(errors="replace").count(SCENE_TAG))]
    return ids or ["none"]


def animation_ids(config):
    """`docname#k` of every animation of the built pages, and "saved" (one the test makes)."""
    html_dir = html_dir_of(config)
    pages = [d for d in book_pages() if (html_dir / f"{d}.html").is_file()]
    return [f"{d}#{k}" for d in pages for k in range(
        (html_dir / f"{d}.html").read_text(errors="replace").count(ANIMATION_TAG))] + ["saved"]


def lab_chapters(config):
    """Docnames of the pages of `_toc.yml` that are notebooks of --book-dir."""
    book = Path(config.getoption("book_dir")).resolve()
    return [d for d in book_pages() if (book.parent / f"{d}.ipynb").is_file()]


def pytest_generate_tests(metafunc):
    config, names = metafunc.config, metafunc.fixturenames
    if "docname" in names:
        metafunc.parametrize("docname", book_pages(), ids=str)
    if "scene_id" in names:
        metafunc.parametrize("scene_id", scene_ids(config), ids=str)
    if "animation_id" in names:
        metafunc.parametrize("animation_id", animation_ids(config), ids=str)
    if "chapter" in names:
        metafunc.parametrize("chapter", lab_chapters(config), ids=str)
    if "scene_file" in names:       # None: the test saves a scene of its own
        files = config.getoption("scene_file") or [None]
        metafunc.parametrize("scene_file", files,
                             ids=lambda f: Path(f).name if f else "saved")


# ---- the built book, its server and the browser ------------------------------------------

@pytest.fixture(scope="session")
def html_dir(pytestconfig):
    """The built HTML book; a failure (not a skip) when it is missing."""
    path = html_dir_of(pytestconfig)
    if not (path / "index.html").is_file():
        pytest.fail(f"no built book in {path}: run make book first", pytrace=False)
    return path


@pytest.fixture(scope="session")
def book_url(html_dir):
    """Base URL of the book served on 127.0.0.1 (a free port)."""
    return serve(html_dir)


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless, through playwright (one per session or xdist worker)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} not found: install Debian's chromium with `apt-get install -y "
                    "chromium` (playwright's own browsers are not used)", pytrace=False)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def context(browser):
    """The browser context of the page and scene tests (1400 x 900 px)."""
    ctx = browser.new_context(viewport=VIEWPORT)
    yield ctx
    ctx.close()


@pytest.fixture(scope="session")
def shots(html_dir):
    """`screenshots/` next to the HTML directory (_build/screenshots)."""
    path = html_dir.parent / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


# ---- JupyterLab --------------------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def lab_command(root, port, token):
    cmd = [str(Path(sys.executable).with_name("jupyter")), "lab", "--no-browser",
           "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True"]
    return cmd + (["--allow-root"] if os.geteuid() == 0 else [])


def wait_for_lab(proc, base, token, log):
    deadline = time.time() + LAB_START_S
    while time.time() < deadline and proc.poll() is None:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            return
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"JupyterLab did not start; log:\n{log.read_text()[-3000:]}", pytrace=False)


@pytest.fixture(scope="session")
def lab(pytestconfig, tmp_path_factory):
    """JupyterLab (with jupyterlab-myst) on 127.0.0.1 with a token of its own, serving copies
    of --book-dir and the benchmarks/ beside it (the chapters read ../benchmarks/results.*), so
    that nothing a test does reaches the repository; yields (base URL, token)."""
    tmp = tmp_path_factory.mktemp("lab")
    for name, value in LAB_SETTINGS.items():
        path = tmp / "settings" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value))
    book = Path(pytestconfig.getoption("book_dir")).resolve()
    for source, name in ((book, "book"), (book.parent / "benchmarks", "benchmarks")):
        shutil.copytree(source, tmp / "root" / name,
                        ignore=shutil.ignore_patterns("_build", ".ipynb_checkpoints"))
    port, token = free_port(), secrets.token_hex(16)
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"))
    log = tmp / "lab.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(lab_command(tmp / "root", port, token), env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_lab(proc, base, token, log)
        yield base, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


# ---- what the tests noted, printed at the end ----------------------------------------------

@pytest.fixture
def note(record_property):
    """note(text): a line for the summary at the end of the run (it travels from xdist workers
    as a user property of the test's report)."""
    return lambda text: record_property("browser_note", text)


NOTES = []


def pytest_runtest_logreport(report):
    if report.when == "call":
        NOTES.extend(f"{report.nodeid.split('::')[-1]}: {text}"
                     for name, text in report.user_properties if name == "browser_note")


def pytest_terminal_summary(terminalreporter):
    if NOTES:
        terminalreporter.section("browser checks")
        for line in NOTES:
            terminalreporter.write_line(line)
