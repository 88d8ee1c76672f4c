"""The publishing files: the deployment workflow and the PDF target.

The workflow itself only runs on GitHub; here we check that it builds the book the way the
README says (`make book`) and deploys the directory `make book` writes.
"""

import yaml

from common import ROOT


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


def test_the_makefile_is_short_and_pytest_runs_the_tests():
    makefile = (ROOT / "Makefile").read_text()
    assert len(makefile.splitlines()) <= 80
    test_rule = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "$(PYTEST) -n 2" in test_rule                   # one runner, parallel by xdist


def test_make_pdf_and_pdf_test_targets_exist_outside_make_test():
    makefile = (ROOT / "Makefile").read_text()
    assert "\npdf:" in makefile and "\npdf-test: pdf" in makefile
    assert "scripts/print_pdf.py" in makefile and "tests/browser/test_pdf.py" in makefile
    test_rule = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert "pdf" not in test_rule  # the PDF rebuilds the whole book: not part of make test

