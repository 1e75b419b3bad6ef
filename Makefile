# apples: two commands from a fresh clone (Python 3.11+ and make only).
#   make book   create .venv, execute every notebook, write build/html/index.html
#   make test   create .venv if needed, lint, then run unit, property and notebook (nbval) tests
#   make lab    open JupyterLab on the collection
#   make student  the student edition: notebooks without solutions and a student HTML book, only (build/student)
#   make figures  every figure as SVG for slides (build/figures)
#   make lint   ruff (lint rules, formatting) on all code and mypy on apples/; make test runs it first
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
NOTEBOOKS := $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))

.PHONY: book test lint lab venv execute student figures clean

venv: $(STAMP)

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "apples needs Python 3.11 or newer")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

# Execute copies of the notebooks under build/book/notebooks (the committed ones are left as
# they are), then render them with Sphinx (book/conf.py): sidebar in reading order,
# previous/next links, search, MathJax shipped with the book. myst-nb renders the stored
# outputs and never executes a notebook a second time.
book: $(STAMP)
	rm -rf build/book build/html
	mkdir -p build/book/notebooks
	cp -r book/. build/book/
	cp $(NOTEBOOKS) build/book/notebooks/
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.timeout=1800 build/book/notebooks/*.ipynb
	$(BIN)/sphinx-build -q -b html build/book build/html
	@echo "Open build/html/index.html"

# ruff (lint rules and formatting) on all code and mypy on the package, configured in pyproject.toml;
# `make test` runs it first, so a lint or type error fails before pytest starts.
lint: $(STAMP)
	$(BIN)/ruff check apples tests benchmarks tools book
	$(BIN)/ruff format --check apples tests benchmarks tools book
	$(BIN)/mypy

# While lint runs, tools/ensure_browser.sh installs what tests/test_browser_e2e.py needs when missing (Debian's
# chromium with apt as root, at most 300 s; playwright with pip at its pin), or says why that test will be skipped.
test: $(STAMP)
	@mkdir -p build
	@PY=$(BIN)/python tools/ensure_browser.sh > build/ensure_browser.log 2>&1 & browser=$$!; \
	status=0; $(MAKE) --no-print-directory lint || status=$$?; \
	wait $$browser; cat build/ensure_browser.log; exit $$status
	$(BIN)/python -m pytest

# JupyterLab refuses to run as root without --allow-root (classroom containers often run as root).
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/

# Maintainers: re-execute the committed notebooks in place (stored outputs).
execute: $(STAMP)
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.timeout=1800 $(NOTEBOOKS)

# Teachers: the student edition under build/student, and nothing else there: notebooks/ (outputs and figures kept,
# each exercise's solution replaced by its numbered answer cells, instructor-only cells left out) and html/, a
# student book rendered from them (no teacher's guide, no quiz answers; stored outputs, nothing executed). Built in
# a temporary folder by tools/student_edition.py, which copies out only those two.
student: $(STAMP)
	$(BIN)/python tools/student_edition.py build/student $(NOTEBOOKS)

# Teachers: every figure the notebooks show, as SVG for slides, with an index of titles (executes copies).
figures: $(STAMP)
	$(BIN)/python tools/export_figures.py build/figures $(NOTEBOOKS)

clean:
	rm -rf build .pytest_cache .hypothesis .mypy_cache .ruff_cache
