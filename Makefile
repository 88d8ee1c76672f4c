# liedyn: two commands do everything on a fresh machine.
#   make book   build the HTML book (every notebook executed, warnings are errors) into _build/html
#   make test   unit/property tests + doctests, every notebook under nbval, the book build, and
#               a browser check of the built HTML
#   make pdf    the whole book as one PDF, _build/pdf/liedyn.pdf (make pdf-test checks it)
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
JB := $(VENV)/bin/jupyter-book
FILTER := grep -v 'is ignored: it is neither a file nor a directory' || true

.PHONY: book test unit notebooks check-book pdf pdf-test bench clean

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q -r requirements.txt 2>&1 | $(FILTER)
	$(PY) -m pip install -q --no-deps -e . 2>&1 | $(FILTER)
	$(PY) -c "import liedyn, pinocchio, numpy; print('liedyn', liedyn.__version__, 'installed in $(VENV)')"
	touch $(STAMP)

_vendor/.stamp: scripts/vendor.sh
	bash scripts/vendor.sh

book: $(STAMP) _vendor/.stamp
	time $(JB) build . -W -n --keep-going

unit: $(STAMP)
	$(PY) -m pytest -q

notebooks: $(STAMP)
	$(PY) -m pytest -q --nbval-lax --nbval-current-env -p no:cacheprovider book/

check-book: $(STAMP)
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	$(PY) tests/browser/check_book.py

# unit tests and notebooks run side by side (two cores); then the book and its browser check
test: $(STAMP) _vendor/.stamp
	$(MAKE) -j2 --output-sync=target unit notebooks
	$(MAKE) book
	$(MAKE) check-book

# The whole book as one PDF (_build/pdf/liedyn.pdf): the book built as a single HTML page (every
# notebook executed again), printed by Debian's chromium; see scripts/print_pdf.py.
pdf: $(STAMP) _vendor/.stamp
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	$(JB) build . --builder singlehtml -W -n --keep-going
	$(PY) scripts/print_pdf.py

# The PDF has every chapter and appendix, each with a bookmark (not part of `make test`)
pdf-test: pdf
	$(PY) tests/browser/check_pdf.py

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf _build
