"""The publishing files: the deployment workflow and the PDF target.

The workflow itself only runs on GitHub; here we check that it builds the book the way the
README says (`make book`) and deploys the directory `make book` writes.
"""
import importlib.util
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def test_deploy_workflow_tests_before_it_deploys_the_html():
    wf = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy-book.yml").read_text())
    on = wf[True] if True in wf else wf["on"]  # YAML 1.1 reads the key `on` as True
    assert "main" in on["push"]["branches"]
    test = wf["jobs"]["test"]["steps"]
    assert any(s.get("run", "").strip() == "make test" for s in test)  # builds the book too
    upload = [s for s in test if s.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload and upload[0]["with"]["path"] == "_build/html"
    deploy = wf["jobs"]["deploy"]
    assert deploy["needs"] == "test"              # only a run whose tests passed deploys
    assert any(s.get("uses", "").startswith("actions/deploy-pages") for s in deploy["steps"])
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}


def test_make_pdf_and_pdf_test_targets_exist_outside_make_test():
    makefile = (ROOT / "Makefile").read_text()
    assert "\npdf:" in makefile and "\npdf-test: pdf" in makefile
    assert "scripts/print_pdf.py" in makefile and "tests/browser/check_pdf.py" in makefile
    test_rule = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "pdf" not in test_rule  # the PDF rebuilds the whole book: not part of make test


def _book_inputs():
    spec = importlib.util.spec_from_file_location("book_inputs",
                                                  ROOT / "scripts" / "book_inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_test_reuses_a_build_only_of_the_same_files(tmp_path):
    """scripts/book_inputs.py: any change to a listed file, a new untracked file or a failed
    build (no stamp) makes make test build the book again; an ignored file does not."""
    bi = _book_inputs()
    repo, html = tmp_path / "repo", tmp_path / "html"
    html.mkdir()
    repo.mkdir()
    assert bi.inputs_hash(repo) is None                      # not a git checkout: rebuild
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / ".gitignore").write_text("_build/\n")
    (repo / "chapter.ipynb").write_text("{}")
    subprocess.run(["git", "-C", str(repo), "add", "."], check=True)
    assert not bi.built_from_inputs(html, repo)             # never built
    (html / bi.STAMP).write_text(bi.inputs_hash(repo) + "\n")
    assert bi.built_from_inputs(html, repo)
    (repo / "_build").mkdir()
    (repo / "_build" / "out.txt").write_text("ignored")
    assert bi.built_from_inputs(html, repo)
    (repo / "chapter.ipynb").write_text('{"cells": []}')    # an edit, not yet committed
    assert not bi.built_from_inputs(html, repo)
    (repo / "chapter.ipynb").write_text("{}")
    assert bi.built_from_inputs(html, repo)
    (repo / "new.py").write_text("")                        # a new file, not yet added
    assert not bi.built_from_inputs(html, repo)


def test_make_html_stamps_only_a_build_that_passed():
    makefile = (ROOT / "Makefile").read_text()
    html_rule = makefile.split("\nhtml:", 1)[1].split("\n\n", 1)[0].splitlines()
    steps = [line.strip() for line in html_rule[1:]]
    assert steps[0].startswith("rm -f _build/html/.book-inputs")  # an old stamp goes first
    assert steps[-1] == "mv _build/.book-inputs _build/html/.book-inputs"
    assert any(s.startswith("time $(JB) build") for s in steps[:-1])
