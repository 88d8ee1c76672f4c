"""Sphinx extension: what the published book links to, and what a reader can download.

- The repository URL is configured once: the environment variable LIEDYN_REPOSITORY_URL, else
  `liedyn_repository_url` in _config.yml (sphinx: config:), else the git remote `origin` when
  it is a public hosting URL (GitHub, GitLab, Codeberg, Bitbucket). With a URL, the pages get
  the repository, issue and edit buttons and Binder/Colab launch buttons; without one, none of
  them (no dead buttons pointing at a placeholder).
- sphinx-thebe (pulled in by Jupyter Book) adds a Thebe configuration script to every page even
  though the book does not use Thebe; the script logs a console error. It is dropped.
- The download button gives the notebook *with its outputs*: the executed copies replace the
  output-free sources under _sources/. In the `cache` execution mode myst-nb writes the notebook
  to jupyter_execute/ without the outputs it took from the jupyter-cache, so they are merged in
  from the cache here.
- liedyn is not on the package index, so a chapter's setup cell installs it on Colab from the
  repository the book was built from: its line `LIEDYN = "..."` holds the pip requirement,
  ``liedyn @ git+<repository URL>@<branch>`` (the URL of the launch buttons), or plain "liedyn"
  (the index) when no repository is known. The downloadable copies get the build's URL. The
  Colab button opens the notebook from the repository itself, so the sources carry the URL
  configured in _config.yml: `python book/_ext/publishing.py` writes it into their setup cells
  (`--check` only reports; tests/book/test_notebook_portability.py runs the check).
"""
import json
import os
import re
import subprocess
import sys
from contextlib import suppress
from pathlib import Path

import nbformat

HOSTS = ("github.com", "gitlab.com", "codeberg.org", "bitbucket.org")
SCP_LIKE = re.compile(r"^[\w.-]+@(?P<host>[\w.-]+):(?P<path>[\w./-]+?)(?:\.git)?/?$")
HTTPS = re.compile(r"^https://(?P<host>[\w.-]+)/(?P<path>[\w./-]+?)(?:\.git)?/?$")
LIEDYN_LINE = re.compile(r'^LIEDYN = "[^"\n]*"', re.M)
ROOT = Path(__file__).resolve().parents[2]


def public_url(remote):
    """The https URL of a public hosting remote, or "" for anything else.

    >>> public_url("git@github.com:liedyn/liedyn.git")
    'https://github.com/liedyn/liedyn'
    >>> public_url("https://github.com/liedyn/liedyn.git")
    'https://github.com/liedyn/liedyn'
    >>> public_url("/srv/git/liedyn.git")
    ''
    """
    for pattern in (HTTPS, SCP_LIKE):
        match = pattern.match(remote.strip())
        if match and match["host"] in HOSTS and match["path"].count("/") == 1:
            return f"https://{match['host']}/{match['path']}"
    return ""


def git_remote(root):
    try:
        out = subprocess.run(["git", "-C", str(root), "remote", "get-url", "origin"],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def repository_url(configured, root):
    """The repository URL from the environment, the configuration or the git remote."""
    explicit = os.environ.get("LIEDYN_REPOSITORY_URL", "").strip() or configured.strip()
    return explicit.rstrip("/") if explicit else public_url(git_remote(root))


def liedyn_requirement(url, branch="main"):
    """The pip requirement that installs liedyn: from the repository at ``url`` (its
    ``branch``), or from the package index when there is no URL.

    >>> liedyn_requirement("https://github.com/owner/liedyn", "main")
    'liedyn @ git+https://github.com/owner/liedyn@main'
    >>> liedyn_requirement("")
    'liedyn'
    """
    url = url.strip().rstrip("/")
    return f"liedyn @ git+{url}@{branch}" if url else "liedyn"


def name_repository(cells, requirement):
    """Set the line ``LIEDYN = "..."`` of the setup cell (the first code cell with
    ``NEEDS = ``) among ``cells`` (notebook cells, nbformat or JSON) to ``requirement``;
    True if the cell changed."""
    for cell in cells:
        source = cell["source"]
        text = source if isinstance(source, str) else "".join(source)
        if cell["cell_type"] != "code" or "NEEDS = " not in text:
            continue
        new = LIEDYN_LINE.sub(f'LIEDYN = "{requirement}"', text, count=1)
        cell["source"] = new if isinstance(source, str) else new.splitlines(keepends=True)
        return new != text
    return False


def configure_buttons(app, config):
    url = repository_url(config.liedyn_repository_url, app.confdir)
    options = dict(config.html_theme_options)
    options.update(repository_url=url, use_repository_button=bool(url),
                   use_issues_button=bool(url), use_edit_page_button=bool(url),
                   repository_branch=config.liedyn_repository_branch,
                   path_to_docs="")
    launch = {"notebook_interface": "jupyterlab"}
    if url.startswith("https://github.com/"):
        launch.update(binderhub_url="https://mybinder.org",
                      colab_url="https://colab.research.google.com")
    elif url:
        launch.update(binderhub_url="https://mybinder.org")
    options["launch_buttons"] = launch if url else {}
    config.html_theme_options = options


def disconnect_thebe(app):
    """Remove sphinx-thebe's event handlers (its config script and kernel settings)."""
    for listeners in app.events.listeners.values():
        listeners[:] = [x for x in listeners
                        if getattr(x.handler, "__module__", "") != "sphinx_thebe"]


def drop_thebe(app, pagename, templatename, context, doctree):
    """Drop the Thebe script and stylesheet that sphinx-thebe registered at setup."""
    def thebe(asset):
        name = getattr(asset, "filename", asset) or ""
        body = getattr(asset, "attributes", {}).get("body", "") or ""
        return "thebe" in str(name) or "THEBE" in body
    for key in ("script_files", "css_files"):
        if key in context:
            context[key] = [a for a in context[key] if not thebe(a)]


def executed_notebooks(app, exception):
    if exception or app.builder.format != "html":
        return
    executed = Path(app.outdir).parent / "jupyter_execute"
    sources = Path(app.outdir) / "_sources"
    requirement = liedyn_requirement(
        repository_url(app.config.liedyn_repository_url, app.confdir),
        app.config.liedyn_repository_branch)
    cache = None
    if app.config.nb_execution_mode == "cache":
        from jupyter_cache import get_cache
        cache = get_cache(str(Path(app.srcdir) / app.config.nb_execution_cache_path))
    for path in executed.rglob("*.ipynb"):
        target = sources / path.relative_to(executed)
        if not target.exists():
            continue
        nb = nbformat.read(path, as_version=4)
        if cache is not None:
            with suppress(KeyError):             # not in the cache: executed by the build
                _, nb = cache.merge_match_into_notebook(nb)
        name_repository(nb.cells, requirement)
        nbformat.write(nb, target)


def setup(app):
    app.add_config_value("liedyn_repository_url", "", "html")
    app.add_config_value("liedyn_repository_branch", "main", "html")
    app.connect("config-inited", configure_buttons)
    app.connect("builder-inited", disconnect_thebe)
    app.connect("html-page-context", drop_thebe, priority=900)
    app.connect("build-finished", executed_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def configured_requirement(root=ROOT):
    """The liedyn requirement of the repository URL configured in _config.yml."""
    import yaml
    config = yaml.safe_load((Path(root) / "_config.yml").read_text())["sphinx"]["config"]
    return liedyn_requirement(config.get("liedyn_repository_url", ""),
                              config.get("liedyn_repository_branch", "main"))


def main(argv):
    """Write the configured repository into the chapters' setup cells (``--check``: list
    the chapters whose setup cell differs, exit status 1 if any)."""
    requirement, stale = configured_requirement(), []
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        if name_repository(nb["cells"], requirement):
            stale.append(path.name)
            if "--check" not in argv:
                path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n",
                                encoding="utf-8")
    for name in stale:
        print(f"{name}: setup cell {'differs from' if '--check' in argv else 'set to'} "
              f"LIEDYN = {requirement!r}")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
