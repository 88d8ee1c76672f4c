# liedyn: two commands do everything on a fresh machine.
#   make book   build the HTML book (every notebook executed, warnings are errors) into _build/html
#   make test   unit/property tests + doctests, the book build (every notebook executed, every
#               cell must run; not repeated when make book has just built the same files), a
#               browser check of the built HTML and of its 3D scenes, a browser check of the
#               chapters in JupyterLab, and the wheel and sdist installed into a clean venv
#   make pdf    the whole book as one PDF, _build/pdf/liedyn.pdf (make pdf-test checks it)
# and for readers:
#   make lab    JupyterLab on the chapters (MyST rendered by jupyterlab-myst), the book's kernel
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
JB := $(VENV)/bin/jupyter-book
FILTER := grep -v 'is ignored: it is neither a file nor a directory' || true

.PHONY: book html test unit nojit notebooks check-book check-scenes check-lab package chromium lab notebook pdf pdf-test bench clean

# The venv: uv (from PyPI) installs the pinned requirements from its cache; pip is the
# fallback when uv cannot run. --compile-bytecode, as pip does: without the .pyc files every
# process compiles the modules it imports, and a chapter's kernel, slow to start at its
# widgets, can be reported dead by nbclient.
UV_VERSION := 0.13.9
$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q uv==$(UV_VERSION) 2>&1 | $(FILTER)
	$(VENV)/bin/uv pip install -q --compile-bytecode --python $(PY) -r requirements.txt \
		|| $(PY) -m pip install -q -r requirements.txt 2>&1 | $(FILTER)
	$(VENV)/bin/uv pip install -q --python $(PY) --no-deps -e . \
		|| $(PY) -m pip install -q --no-deps -e . 2>&1 | $(FILTER)
	$(PY) -c "import liedyn, pinocchio, numpy; print('liedyn', liedyn.__version__, 'installed in $(VENV)')"
	touch $(STAMP)

# numba's cache of the compiled kernels, filled once (two processes, each its own drivers)
# before the notebooks that need it; a no-op when the cache is warm (make test: one process)
.PHONY: warm warm-rnea warm-aba
warm: warm-rnea warm-aba
warm-rnea warm-aba: $(STAMP)
	$(PY) scripts/warm_kernels.py $(@:warm-%=%)

_vendor/.stamp: scripts/vendor.sh
	bash scripts/vendor.sh

book: $(STAMP) _vendor/.stamp
	$(MAKE) -j2 warm
	$(MAKE) html

# the notebooks executed (all cores) into the jupyter-cache, then the build, which reads it;
# a build that passes records the hash of its inputs (scripts/book_inputs.py) for make test
html: $(STAMP) _vendor/.stamp
	rm -f _build/html/.book-inputs && mkdir -p _build
	$(PY) scripts/book_inputs.py > _build/.book-inputs
	$(PY) scripts/execute_notebooks.py
	time $(JB) build . -W -n --keep-going
	mv _build/.book-inputs _build/html/.book-inputs

unit: $(STAMP)
	$(PY) -m pytest -q --ignore=tests/test_packaging.py

# the core algorithm tests again with the same kernels uncompiled; not the tests of sympy
# input alone, which never reaches the compiler (they would only repeat themselves)
nojit: $(STAMP)
	LIEDYN_DISABLE_JIT=1 $(PY) -m pytest -q -p no:cacheprovider tests/test_kernels.py \
		tests/test_rnea.py tests/test_aba.py tests/test_crba.py tests/test_hybrid.py \
		-k "not (symbolic or sympy_symbols or lagrange)"

# every notebook under nbval, cell by cell (make test executes them once, in the book build)
notebooks: $(STAMP) warm
	$(PY) -m pytest -q --nbval-lax --nbval-current-env -p no:cacheprovider book/

# the wheel and sdist: built, metadata-checked, installed into a clean venv and imported
package: $(STAMP)
	$(PY) -m pytest -q tests/test_packaging.py

chromium:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)

check-book: $(STAMP) chromium
	$(PY) tests/browser/check_book.py

check-scenes: $(STAMP) chromium
	$(PY) tests/browser/check_scenes.py

check-lab: $(STAMP) chromium
	$(PY) tests/browser/check_lab.py

# make test: the pieces below, two at a time, on two chains (one per core). The numba warm-up
# comes first, as one process (the drivers share their per-state kernels: two processes would
# compile those twice); then the book, whose browser check waits for it. Every notebook is
# executed once, by the book build (scripts/execute_notebooks.py: every code cell must run
# without an error), unless `make book` has just built it from the same files
# (scripts/book_inputs.py); `make notebooks` runs them once more under nbval, cell by cell (not
# part of make test: the same execution). The 3D scenes are checked by check-book, on its
# page loads; make test checks the pages in two halves, one browser each.
# The chains are written as prerequisites (t-unit after t-check-book-2, ...), because make -j2
# left to itself starts whatever is ready: the two short pieces first, during the warm-up of
# a warm cache, and the pages' second half last. The chains:
#   core 1: the Lab check, the pages (first half), the package
#   core 2: the book (built only if make book has not), the pages (second half), unit, nojit
# Without a fresh make book the book is built beside the Lab check.
TEST_PIECES := t-check-lab t-check-book-2 t-unit t-check-book-1 t-nojit t-package
test: $(STAMP) _vendor/.stamp chromium
	$(MAKE) -j2 --output-sync=target $(TEST_PIECES)
	@echo "make test: all passed"

.PHONY: t-book t-warm $(TEST_PIECES)
TIMED = start=$$(date +%s); $(1); echo "make test: $@ took $$(( $$(date +%s) - start )) s"
t-warm:
	@$(call TIMED,$(PY) scripts/warm_kernels.py)
t-book t-check-lab: t-warm
t-check-book-1: t-check-lab              # core 1: Lab, pages (first half), package
t-package: t-check-book-1
t-unit: t-check-book-2                   # core 2: (book), pages (second half), unit, nojit
t-nojit: t-unit
t-book:                 # not again when make book has just built the book from the same files
	@$(call TIMED,$(PY) scripts/book_inputs.py --built _build/html \
		&& echo "make test: _build/html was built by make html from these files: not rebuilt" \
		|| $(MAKE) html)
t-check-book-1 t-check-book-2: t-book      # the pages in two halves, one browser each
	@$(call TIMED,$(PY) tests/browser/check_book.py --part $(@:t-check-book-%=%)/2)
t-unit t-check-lab t-package t-nojit:
	@$(call TIMED,$(MAKE) $(@:t-%=%))

ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root)

# JupyterLab on the chapters with the book's kernel (the venv's python3)
lab: $(STAMP)
	$(VENV)/bin/jupyter lab $(ALLOW_ROOT) --ServerApp.root_dir=$(CURDIR) book/01_rigid_body_motion.ipynb

# the same notebooks in Jupyter Notebook 7 (jupyterlab-myst renders their MyST there too)
notebook: $(STAMP)
	$(VENV)/bin/jupyter notebook $(ALLOW_ROOT) --ServerApp.root_dir=$(CURDIR) book/

# The whole book as one PDF (_build/pdf/liedyn.pdf): the book built as a single HTML page (every
# notebook executed afresh), printed by Debian's chromium; see scripts/print_pdf.py.
pdf: $(STAMP) _vendor/.stamp
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	$(MAKE) -j2 warm
	$(PY) scripts/execute_notebooks.py
	$(JB) build . --builder singlehtml -W -n --keep-going
	$(PY) scripts/print_pdf.py

# The PDF has every chapter and appendix with its bookmark, the sections' bookmarks on their
# pages, the equation and figure numbers, the solutions at the end, no math errors, A4 pages
# (tests/browser/check_pdf.py; not part of `make test`)
pdf-test: pdf
	$(PY) tests/browser/check_pdf.py

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf _build
