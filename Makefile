# liedyn: two commands do everything on a fresh machine (README.md).
#   make book   the HTML book in _build/html, every notebook executed, warnings are errors
#   make test   every check: ruff, mypy and vulture (make lint); by pytest the package, the
#               book's sources, the notebooks cell by cell (nbval), the built pages, 3D scenes
#               and chapters in Chromium, the wheel; the algorithms' tests again without the
#               compiled engine
# For readers: make lab, make notebook. For writers: make quick, make lint, make pdf,
# make pdf-test, make bench, make clean (CONTRIBUTING.md).
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
PYTEST := $(PY) -m pytest
JB := $(VENV)/bin/jupyter-book build . -W -n --keep-going
STAMP := $(VENV)/.installed
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

.PHONY: book test lint quick lab notebook pdf pdf-test bench chromium clean

# The venv from the pinned requirements: uv (from PyPI) installs them from its cache in
# seconds, pip when uv cannot run; liedyn itself in editable mode.
$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q uv==0.13.9
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -r requirements.txt -e . \
		|| $(PY) -m pip install -q -r requirements.txt -e .
	touch $@

# MathJax and the widget script from the npm registry: the book needs no CDN
_vendor/.stamp: scripts/vendor.sh
	bash scripts/vendor.sh

# Jupyter Book executes the notebooks into its jupyter-cache (_build/.jupyter_cache), which
# skips a notebook whose code did not change; make clean starts afresh.
book: $(STAMP) _vendor/.stamp
	$(JB)

# the algorithms' tests without the compiled engine: every public function on its reference
CORE := tests/unit/test_rnea.py tests/unit/test_aba.py tests/unit/test_crba.py \
	tests/unit/test_hybrid.py tests/unit/test_derivatives.py tests/unit/test_constraints.py

test: book chromium lint
	$(PYTEST) -n 2 --dist loadscope
	$(PYTEST) -q -n 2 --dist loadscope --no-jit $(CORE)

# the static checks (pyproject.toml): the linter, the types, unused code in the package
lint: $(STAMP)
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy
	$(VENV)/bin/vulture

# the library's unit tests and doctests, stopping at the first failure; writes nothing into
# the tree but git-ignored caches (pytest --lf reruns the last failures)
quick: lint
	$(PYTEST) -q -x -n 2 tests/unit liedyn

chromium:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab $(ALLOW_ROOT) --ServerApp.root_dir=$(CURDIR) \
		book/01_rigid_body_motion.ipynb

notebook: $(STAMP)
	$(VENV)/bin/jupyter notebook $(ALLOW_ROOT) --ServerApp.root_dir=$(CURDIR) book/

# the whole book as one PDF, _build/pdf/liedyn.pdf: one HTML page printed by Chromium
pdf: book chromium
	$(JB) --builder singlehtml
	$(PY) scripts/print_pdf.py

pdf-test: pdf
	$(PYTEST) -m pdf tests/browser/test_pdf.py

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf _build
