"""What the browser tests share (and scripts/print_pdf.py).

The book is served on 127.0.0.1 and opened in Debian's chromium (`apt-get install -y
chromium`) through playwright, which installs no browser of its own. Every request to another
address is aborted and recorded: the book, its scenes and JupyterLab must not need the network.
"""
import functools
import http.server
import re
import threading
from pathlib import Path
from urllib.parse import urlsplit

import yaml

# (also imported by scripts/print_pdf.py, outside pytest: so not from tests/common.py)
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
VIEWPORT = {"width": 1400, "height": 900}  # of the page and scene tests
# Console errors that are not the book's fault: (regex, why). Keep it short.
ALLOW_LIST = [
    # (regex, why): none today. The Thebe configuration script that used to log an error on
    # every page is removed by book/_ext/publishing.py.
]


def toc_pages(toc_path):
    """Docnames of the root and of every `file:` entry of a Jupyter Book 1 table of contents.

    >>> toc_pages(ROOT / "_toc.yml")[0]
    'book/intro'
    """
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


class Watch:
    """What went wrong while a page was open: requests to non-local addresses (aborted),
    uncaught exceptions and, if asked for, console errors and failed requests (HTTP >= 400,
    or no answer); `requested` lists every URL the page asked for."""

    def __init__(self, page, console=True, http=True):
        self.blocked, self.problems, self.requested = [], [], []  # problems: (kind, text)
        page.on("pageerror", lambda e: self.problems.append(("uncaught", f"uncaught: {e}")))
        if console:
            page.on("console", lambda m: m.type == "error" and self.problems.append(
                ("console", f"{m.text} ({m.location.get('url', '')})")))
        if http:
            page.on("response", lambda r: r.status >= 400 and self.problems.append(
                ("http", f"HTTP {r.status} {r.url}")))
            page.on("requestfailed", lambda r: r.url not in self.blocked and self.problems.append(
                ("failed", f"failed {r.url}: {r.failure}")))
        page.route("**/*", self._route)

    def _route(self, route):
        self.requested.append(route.request.url)
        url = urlsplit(route.request.url)
        if url.scheme in ("http", "https", "ws", "wss") and url.hostname not in LOCAL_HOSTS:
            self.blocked.append(route.request.url)
            return route.abort()
        return route.continue_()

    def mark(self):
        """Where the record stands now: failures(since=mark()) reports only what comes later."""
        return len(self.blocked), len(self.problems)

    def failures(self, since=(0, 0), ignore=()):
        """Failures in words; a console error or failed request that names a URL already
        reported (aborted, or HTTP >= 400) is not repeated, nor one matching a regex of
        ALLOW_LIST or `ignore`."""
        blocked, problems = self.blocked[since[0]:], self.problems[since[1]:]
        failures = [f"request to a non-local address (aborted): {u}" for u in blocked]
        bad = blocked + [t.split()[2] for k, t in problems if k == "http"]
        allowed = [rx for rx, _ in ALLOW_LIST] + list(ignore)
        for kind, text in problems:
            if kind in ("console", "failed") and any(u in text for u in bad):
                continue
            if not any(re.search(rx, text) for rx in allowed):
                failures.append(text)
        return failures


def fail_with(failures, what):
    """Fail the test with every failure listed under `what` (nothing when there are none)."""
    if failures:
        import pytest
        pytest.fail(f"{what}:\n" + "\n".join(f"  - {f}" for f in failures), pytrace=False)
