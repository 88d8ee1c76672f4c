"""The package's modules reach each other only through public names.

A name that another module of ``liedyn`` uses is public where it lives (no leading
underscore); private *modules* (``liedyn._checks``, ``liedyn._math``, ...) are the
package's own and may be imported whole or by their public names. Checked on the
syntax tree of every ``liedyn/**/*.py``:

* no ``from .module import _name`` (nor ``from liedyn.module import _name``) of a
  name of another module, and no ``import *``;
* no ``module._name`` where ``module`` is a liedyn module bound by an import.
"""
import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "liedyn"


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def _imported_module(node, path):
    """The dotted name of the module a ``from ... import`` reads, or None outside
    liedyn."""
    if node.level == 0:
        return node.module if (node.module or "").split(".")[0] == "liedyn" else None
    parts = ["liedyn", *path.relative_to(PACKAGE).with_suffix("").parts]
    base = parts[:len(parts) - node.level]
    return ".".join(base + ([node.module] if node.module else []))


def _is_module(dotted):
    """Whether ``dotted`` (``liedyn.x.y``) names a module or package of liedyn."""
    rel = Path(*dotted.split(".")[1:]) if "." in dotted else Path()
    return (PACKAGE / rel).with_suffix(".py").is_file() or (PACKAGE / rel).is_dir()


def reach_ins(path, source=None):
    """``(line, text)`` of each reach into another module's private name, or star
    import, in the file ``path`` (its text ``source`` if given)."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            origin = _imported_module(node, path)
            for alias in node.names:
                bound = alias.asname or alias.name
                if alias.name == "*":
                    found.append((node.lineno, f"from {origin or node.module} import *"))
                elif origin is None:
                    continue
                elif _is_module(f"{origin}.{alias.name}"):
                    modules.add(bound)                 # a module: private ones too
                elif _private(alias.name):
                    found.append((node.lineno,
                                  f"from {origin} import {alias.name}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "liedyn":
                    modules.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in modules):
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return sorted(found)


FILES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_has_modules():
    assert len(FILES) > 30 and PACKAGE / "lie.py" in FILES


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PACKAGE)) for p in FILES])
def test_no_module_reaches_into_another_ones_privates(path):
    found = reach_ins(path)
    assert not found, "\n".join(f"{path.relative_to(PACKAGE.parent)}:{line}: {text}"
                                for line, text in found)


@pytest.mark.parametrize("source, expected", [
    ("from .inertia import _batch_shape, check_inertia\n",
     [(1, "from liedyn.inertia import _batch_shape")]),
    ("from liedyn.lie import _B\n", [(1, "from liedyn.lie import _B")]),
    ("from .lie import *\n", [(1, "from liedyn.lie import *")]),
    ("import numpy as np\nfrom . import lie\nx = lie._A(0.1)\n", [(3, "lie._A")]),
    ("from .engine import dispatch as _exec\ny = _exec._KERNELS\n",
     [(2, "_exec._KERNELS")]),
    ("from . import _checks, lie\nx = _checks.array\ny = lie.skew\n", []),
    ("from ._urdf_checks import bad as _bad\n", []),
    ("import numpy as np\nx = np._NoValue\n", []),
    ("class A:\n    def f(self):\n        return self._x\n", []),
], ids=["private-name", "absolute", "star", "module-attribute", "aliased-module",
        "private-module", "public-name-aliased", "not-liedyn", "own-attribute"])
def test_the_check_finds_a_planted_reach_in(source, expected):
    """The check fails on a planted example, naming the line, and passes what the
    rule allows (as if the source were liedyn/model.py)."""
    assert reach_ins(PACKAGE / "model.py", source) == expected
