"""The package as a user meets it: a wheel and an sdist built from this tree, their metadata
checked, and the wheel installed into a clean venv (numpy, sympy and matplotlib only) where
`import liedyn` and an exercise checker work, far from the repository.

Also the chapters' setup cell in that venv before liedyn is installed: it must stop with one
clear install message, not a traceback.
"""
import shutil
import subprocess
import sys
import venv
from email.parser import Parser
from pathlib import Path
from zipfile import ZipFile

import pytest

from common import ROOT, setup_cell

PINS = {line.split("==")[0]: line.strip() for line in (ROOT / "requirements.txt").read_text()
        .splitlines() if "==" in line and not line.startswith("#")}


def run(*cmd, cwd, check=True):
    out = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True,
                         timeout=600)
    if check and out.returncode:
        pytest.fail(f"{' '.join(map(str, cmd))} failed ({out.returncode}):\n"
                    f"{out.stdout[-2000:]}\n{out.stderr[-3000:]}")
    return out


# what a build must not see: the venv, the built book, the caches and earlier builds
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "_build", "_vendor", "build", "dist",
                                    "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
                                    "node_modules")


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The wheel and the sdist, built from a copy of the tree: setuptools writes build/ and
    liedyn.egg-info/ beside the sources, and the checkout stays as it was."""
    src, out = tmp_path_factory.mktemp("src") / "liedyn", tmp_path_factory.mktemp("dist")
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, src, cwd=out)
    return out


UV = Path(sys.executable).with_name("uv")     # installed with the project's venv (Makefile)


@pytest.fixture(scope="module")
def clean_venv(tmp_path_factory):
    """A venv with only numpy, sympy and matplotlib (the pinned versions of requirements.txt).

    They come from uv's cache when the project's venv has uv (seconds, where pip takes most of
    a minute); liedyn's wheel itself is installed by the venv's own pip, as a user would."""
    home = tmp_path_factory.mktemp("venv")
    venv.create(home / "env", with_pip=True, clear=True)
    python = home / "env" / "bin" / "python"
    deps = [PINS["numpy"], PINS["sympy"], PINS["matplotlib"]]
    if not UV.exists() or run(UV, "pip", "install", "-q", "--python", python, *deps,
                              cwd=home, check=False).returncode:
        run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", *deps,
            cwd=home)
    return python


def test_wheel_and_sdist_metadata(dist):
    wheels, sdists = list(dist.glob("liedyn-*.whl")), list(dist.glob("liedyn-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1, sorted(p.name for p in dist.iterdir())
    run(sys.executable, "-m", "twine", "check", "--strict", *wheels, *sdists, cwd=dist)
    with ZipFile(wheels[0]) as whl:
        names = whl.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(whl.read(meta_name).decode())
    assert "liedyn/teach/exercises/ch01.py" in names
    assert not any(n.startswith(("tests/", "book/")) for n in names)
    assert meta["License-Expression"] == "MIT"
    assert any(n.endswith("licenses/LICENSE") for n in names)
    assert meta["Description-Content-Type"] == "text/markdown"
    assert "make book" in meta.get_payload()           # the README is the description
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    assert any(c.startswith("Topic :: Scientific") for c in meta.get_all("Classifier"))
    requires = meta.get_all("Requires-Dist")
    assert {r.split(">=")[0] for r in requires if "extra" not in r} == \
        {"numpy", "sympy", "matplotlib"}


def test_setup_cell_without_liedyn(clean_venv, tmp_path):
    out = run(clean_venv, "-c", setup_cell(ROOT / "book/01_rigid_body_motion.ipynb"),
              cwd=tmp_path, check=False)
    assert out.returncode == 1
    assert "This chapter needs liedyn. Install with" in out.stderr
    assert "pip install liedyn" in out.stderr
    assert "Traceback" not in out.stderr


def test_wheel_in_clean_venv(dist, clean_venv, tmp_path):
    wheel = next(dist.glob("liedyn-*.whl"))
    run(clean_venv, "-m", "pip", "install", "-q", "--no-deps", wheel, cwd=tmp_path)
    run(clean_venv, "-m", "pip", "check", cwd=tmp_path)
    script = """
import numpy as np, liedyn
from liedyn.teach.exercises import check
# ch1.ex1: the adjoint of T_ab, R = rotation by 90 degrees about z, p = (1, 2, 0),
# written out by hand: Ad_T = [[R, 0], [[p] R, R]]
R = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
p_hat = np.array([[0.0, 0.0, 2.0], [0.0, 0.0, -1.0], [-2.0, 1.0, 0.0]])
Ad = np.block([[R, np.zeros((3, 3))], [p_hat @ R, R]])
assert check("ch1.ex1", Ad) is True
print(liedyn.__file__)
"""
    out = run(clean_venv, "-c", script, cwd=tmp_path)
    assert "site-packages/liedyn/__init__.py" in out.stdout, out.stdout
    assert "ch1.ex1: correct." in out.stdout
    cell = setup_cell(ROOT / "book/01_rigid_body_motion.ipynb")
    assert run(clean_venv, "-c", cell, cwd=tmp_path).stderr == ""
