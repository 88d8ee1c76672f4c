"""The chapter notebooks read the same in the HTML book, JupyterLab, Notebook 7 and Colab.

Source rules, checked without a browser (tests/browser/test_lab.py checks the rendering):
* no directive that only Sphinx can render (`literalinclude`, `include`, `eval-rst`, autodoc);
* library listings are written out ("**Listing** `liedyn.x.f`" + a python block) and agree with
  the library source (scripts/listings.py rewrites them);
* no macro of the book's MathJax configuration in notebook math (KaTeX in JupyterLab and Colab
  does not read _config.yml);
* every equation number of a source names the source ("Kim's eq. (42)", "Kim eq. (42)" in code);
* the first code cell is the setup cell, and it has no side effect when everything is installed;
* the repository URL that turns on the launch buttons is derived correctly;
* on Colab the setup cell installs liedyn, which the package index does not have, from the
  repository the book was built from: the downloadable notebooks of a build with a repository
  URL name it, and the sources name the URL configured in _config.yml (the Colab button opens
  them from the repository).
"""
import importlib.metadata
import json
import re
import subprocess
import sys
import types

import pytest
import yaml

from common import ROOT, load_script, notebook_cells, setup_cell

CHAPTERS = sorted(ROOT.glob("book/*.ipynb"))
SPHINX_ONLY = re.compile(r"^\s*[`:]{3,}\{(literalinclude|include|eval-rst|auto\w+)\}", re.M)
# A bare equation number: "eq. (42)" or "eqs. (43)-(50)" with no source named just before it.
EQ_NUMBER = re.compile(r"\beqs?\.\s*\(\d+[a-z]?\)")
SOURCE_NAMED = re.compile(r"(Kim|From|Murray|Zhang|notes|Featherstone|Lynch|Duindam|Stramigioli"
                          r"|Barfoot|Park|Sastry|[Hh]is|[Tt]heir|Kim's)[^.()]{0,12}$"
                          r"|\(20\d\d\),?\s*$")


def config_macros():
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["sphinx"]["config"]["mathjax3_config"]["tex"]["macros"]


def math_of(markdown):
    """The TeX of every display and inline formula of a markdown cell."""
    blocks = re.findall(r"```\{math\}\n(.*?)```", markdown, re.S)
    blocks += re.findall(r"\$\$(.*?)\$\$", markdown, re.S)
    blocks += re.findall(r"(?<![\\$])\$([^$\n]+)\$", markdown)
    return blocks


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_sphinx_only_directives(path):
    found = [m.group(0).strip() for md in notebook_cells(path, "markdown")
             for m in SPHINX_ONLY.finditer(md)]
    assert not found, f"{path.name}: JupyterLab cannot render {found}"


def test_listings_match_the_library():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "listings.py"), "--check"],
                         capture_output=True, text=True)
    assert out.returncode == 0, f"stale listings (run scripts/listings.py):\n{out.stdout}"


def test_listing_blocks_hold_the_code():
    listings = load_script(ROOT / "scripts" / "listings.py")
    n = 0
    for path in CHAPTERS:
        for md in notebook_cells(path, "markdown"):
            for name, code in listings.CAPTION.findall(md):
                short = name.rsplit(".", 1)[-1]
                assert re.match(rf"(@.*\n)*(def|class) {short}\b", code), (path.name, name)
                assert '"""' not in code.split("\n", 2)[1], f"{name}: docstring not removed"
                n += 1
    assert n >= 50


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_config_macros_in_notebook_math(path):
    macros = re.compile(r"\\(" + "|".join(map(re.escape, config_macros())) + r")(?![A-Za-z])")
    used = {m.group(0) for md in notebook_cells(path, "markdown") for tex in math_of(md)
            for m in macros.finditer(tex)}
    assert not used, f"{path.name}: {sorted(used)} are defined only in _config.yml"


@pytest.mark.parametrize("path", CHAPTERS + sorted(ROOT.glob("liedyn/**/*.py"))
                         + sorted(ROOT.glob("book/appendix/**/*.md")),
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_equation_numbers_name_their_source(path):
    texts = (notebook_cells(path, "markdown") + notebook_cells(path, "code")
             if path.suffix == ".ipynb"
             else [path.read_text()])
    bare = [t[max(0, m.start() - 40):m.end()].replace("\n", " ")
            for t in texts for m in EQ_NUMBER.finditer(t)
            if not SOURCE_NAMED.search(t[max(0, m.start() - 20):m.start()])]
    assert not bare, f"{path.name}: equation numbers without their source: {bare[:5]}"


def test_labelled_source_equations_show_the_source_number():
    for path in CHAPTERS:
        for md in notebook_cells(path, "markdown"):
            for who, num, body in re.findall(
                    r"```\{math\}\n:label: (kim|from)-eq-(\d+)\n(.*?)```", md, re.S):
                name = {"kim": "Kim", "from": "From"}[who]
                assert f"\\text{{[{name} ({num})]}}" in body, (path.name, who, num)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_setup_cell_first(path):
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    setup = "".join(code[0]["source"])
    assert "NEEDS = " in setup and "google.colab" in setup, f"{path.name}: no setup cell first"
    assert "remove-cell" in code[0]["metadata"].get("tags", [])
    needs = json.loads(re.search(r"NEEDS = (\[.*?\])", setup, re.S)[1])
    assert needs[0] == "liedyn"
    imports = "\n".join("".join(c["source"]) for c in code[1:])
    if re.search(r"^\s*import pinocchio", imports, re.M):
        assert "pin" in needs, f"{path.name} imports pinocchio"
    namespace = {}
    exec(compile(setup, path.name, "exec"), namespace)   # everything is installed here
    assert namespace["missing"] == []


def test_repository_url_from_remote():
    publishing = load_script(ROOT / "book" / "_ext" / "publishing.py")
    assert publishing.public_url("git@github.com:owner/liedyn.git") == \
        "https://github.com/owner/liedyn"
    assert publishing.public_url("https://gitlab.com/owner/liedyn") == \
        "https://gitlab.com/owner/liedyn"
    for remote in ("", "/srv/git/liedyn.git", "https://example.org/owner/liedyn",
                   "https://github.com/owner", "file:///tmp/liedyn", "git@github.com:a/b/c"):
        assert publishing.public_url(remote) == "", remote


def test_binder_environment_is_lean_and_pinned_like_the_project():
    def pins(path):
        return dict(line.split("==") for line in path.read_text().splitlines()
                    if "==" in line and not line.startswith("#"))
    binder, project = pins(ROOT / "binder" / "requirements.txt"), pins(ROOT / "requirements.txt")
    assert {k: project.get(k) for k in binder} == binder, "binder pins differ from the project's"
    needed = {"numpy", "sympy", "matplotlib", "ipywidgets", "jupyterlab-myst"}
    for path in CHAPTERS:
        setup = next(c for c in notebook_cells(path, "code") if "NEEDS = " in c)
        needed |= set(json.loads(re.search(r"NEEDS = (\[.*?\])", setup, re.S)[1])) - {"liedyn"}
    assert needed <= set(binder), f"binder lacks {needed - set(binder)}"
    assert not {"pytest", "playwright", "jupyter-book", "nbval", "hypothesis"} & set(binder)
    assert "pip install --no-deps -e ." in (ROOT / "binder" / "postBuild").read_text()


def test_every_listed_function_is_on_the_api_page():
    """So that the HTML caption can link to its API entry and its highlighted source."""
    api = (ROOT / "book" / "appendix" / "api.md").read_text()
    documented = set(re.findall(r"\.\. auto(?:function|method|class):: (\S+)", api))
    modules = set(re.findall(r"\.\. automodule:: (\S+)", api))
    for path in CHAPTERS:
        for md in notebook_cells(path, "markdown"):
            for name in re.findall(r"^\*\*Listing\*\* `([\w.]+)`", md, re.M):
                private = any(part.startswith("_") for part in name.split("."))
                module = name.rsplit(".", 1)[0]
                assert name in documented or (not private and (
                    module in modules or module.rsplit(".", 1)[0] in modules)), \
                    f"{path.name}: listing {name} has no API entry"


def test_chapters_are_stored_without_outputs():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "strip_notebooks.py"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, f"run scripts/strip_notebooks.py:\n{out.stdout}"


def publishing():
    return load_script(ROOT / "book" / "_ext" / "publishing.py")


def run_setup(source, monkeypatch, installed=(), colab=True):
    """Run a setup cell where only the distributions ``installed`` are present (on Colab
    if ``colab``); the pip commands it would run, or its SystemExit message."""
    def version(dist):
        if dist not in installed:
            raise importlib.metadata.PackageNotFoundError(dist)
        return "1.0"
    commands = []
    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr(subprocess, "run", lambda args, **kw: commands.append(args))
    if colab:
        monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    else:
        monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    try:
        exec(compile(source, "setup", "exec"), {})
    except SystemExit as stop:
        return str(stop)
    return commands


def built_setup_cell(tmp_path, monkeypatch, url, chapter="12_control"):
    """The setup cell of ``chapter`` as a build with the repository ``url`` writes it to
    the downloadable notebooks (publishing.executed_notebooks, HTML builder)."""
    monkeypatch.delenv("LIEDYN_REPOSITORY_URL", raising=False)
    source = ROOT / "book" / f"{chapter}.ipynb"
    for folder in ("jupyter_execute/book", "html/_sources/book"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / source.name).write_text(source.read_text())
    config = types.SimpleNamespace(liedyn_repository_url=url, liedyn_repository_branch="main",
                                   nb_execution_mode="off")
    app = types.SimpleNamespace(builder=types.SimpleNamespace(format="html"), config=config,
                                outdir=str(tmp_path / "html"), confdir=str(tmp_path),
                                srcdir=str(tmp_path))
    publishing().executed_notebooks(app, None)
    return setup_cell(tmp_path / "html/_sources/book" / source.name)


def test_a_build_with_a_repository_installs_liedyn_from_it_on_colab(tmp_path, monkeypatch):
    cell = built_setup_cell(tmp_path, monkeypatch, "https://github.com/owner/liedyn")
    assert 'LIEDYN = "liedyn @ git+https://github.com/owner/liedyn@main"' in cell
    commands = run_setup(cell, monkeypatch, installed={"meshcat"})
    assert len(commands) == 1 and commands[0][1:4] == ["-m", "pip", "install"]
    assert "liedyn @ git+https://github.com/owner/liedyn@main" in commands[0]
    assert "liedyn" not in commands[0] and "yourdfpy" in commands[0]   # the others by name
    assert "meshcat" not in commands[0]                                 # installed: left alone
    # elsewhere the cell installs nothing and quotes the requirement for the shell
    message = run_setup(cell, monkeypatch, colab=False)
    assert 'pip install "liedyn @ git+https://github.com/owner/liedyn@main" yourdfpy' in message
    assert run_setup(cell, monkeypatch, installed=set(json.loads(
        re.search(r"NEEDS = (\[.*?\])", cell, re.S)[1]))) == []        # all there: no pip


def test_a_build_without_a_repository_falls_back_to_the_index(tmp_path, monkeypatch):
    cell = built_setup_cell(tmp_path, monkeypatch, "", chapter="01_rigid_body_motion")
    assert run_setup(cell, monkeypatch) == [[sys.executable, "-m", "pip", "install", "-q",
                                             "liedyn"]]


def test_every_setup_cell_uses_its_liedyn_line(monkeypatch):
    """The same setup cell in every chapter: the LIEDYN line exists once and is what pip
    gets (a chapter that still installed "liedyn" by name would fail here)."""
    for path in CHAPTERS:
        cell = setup_cell(path)
        assert len(publishing().LIEDYN_LINE.findall(cell)) == 1, path.name
        planted = publishing().LIEDYN_LINE.sub('LIEDYN = "liedyn @ git+https://h.org/o/r@b"',
                                               cell)
        commands = run_setup(planted, monkeypatch)
        assert "liedyn @ git+https://h.org/o/r@b" in commands[0], path.name


def test_sources_name_the_configured_repository():
    out = subprocess.run([sys.executable, str(ROOT / "book" / "_ext" / "publishing.py"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, f"run book/_ext/publishing.py:\n{out.stdout}{out.stderr}"
    expected = publishing().configured_requirement()
    for path in CHAPTERS:
        assert f'LIEDYN = "{expected}"' in setup_cell(path), path.name


def test_liedyn_requirement():
    p = publishing()
    assert p.liedyn_requirement("https://gitlab.com/o/liedyn/", "dev") == \
        "liedyn @ git+https://gitlab.com/o/liedyn@dev"
    assert p.liedyn_requirement("  ") == "liedyn"
