"""Shared test configuration.

Hypothesis runs derandomized: the same examples on every run, so CI cannot turn red by chance;
a failure found once is found again. ``HYPOTHESIS_PROFILE=explore`` draws fresh random examples.

``pytest --no-jit`` runs the selected tests without the compiled engine: every public function
then takes its reference implementation (what a machine without numba runs).

The folders are the kinds of test, and each test carries its folder's marker: ``unit`` (the
library), ``teach`` (the exercise checkers, plots and scenes), ``book`` (the book's sources),
``package`` (the wheel), ``browser`` (the built book in Chromium). The notebooks run under
nbval from ``book/``.
"""
import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_addoption(parser):
    parser.addoption("--no-jit", action="store_true",
                     help="run liedyn without its compiled engine (the reference path)")


def pytest_configure(config):
    if config.getoption("--no-jit"):
        os.environ["LIEDYN_DISABLE_JIT"] = "1"     # read when liedyn.engine is imported


KINDS = ("unit", "teach", "book", "package")      # tests/browser marks its own


def pytest_collection_modifyitems(items):
    """Each test is marked by its folder (tests/unit, tests/book, ...): ``pytest -m
    book`` selects the checks of the book's sources."""
    for item in items:
        parts = item.path.parts
        if "tests" in parts and parts.index("tests") + 1 < len(parts) - 1:
            kind = parts[parts.index("tests") + 1]
            if kind in KINDS:
                item.add_marker(kind)


@pytest.fixture(params=[False, True], ids=["reference", "compiled"])
def both_paths(request):
    """The test runs on the reference implementation and on the compiled engine."""
    from liedyn.engine import dispatch
    dispatch.use_kernels(request.param)
    yield request.param
    dispatch.use_kernels(True)
