# The two commands of the README: `make book` and `make test`. Each sets up what it needs.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
# pytest exits 5 when it collects no test; that alone must not fail a run (the nbval report plugin
# fails the run itself when no stored output was compared).
PYTEST = pytest_rc() { $(BIN)/python -m pytest -q "$$@" || { rc=$$?; [ $$rc -eq 5 ] && echo "pytest: no tests collected" || return $$rc; }; }; pytest_rc

.PHONY: book serve test lint unit nbval execute clean help bench bench-build

help:
	@echo "make book   build the site into _build/html"
	@echo "make serve  serve _build/html on http://localhost:$(PORT)"
	@echo "make test   lint, unit/property tests, nbval on every chapter, browser tests"
	@echo "make execute  re-run every chapter from a clean kernel and store its outputs (authors)"
	@echo "make bench  time and peak memory of readable, chunked and fused attention -> benchmarks/RESULTS.md"
	@echo "make bench-build  time a clean, a no-op and a one-cell book build on a temporary copy"

# --- setup -----------------------------------------------------------------------------------
$(STAMP): requirements.txt pyproject.toml
	@echo "==> setting up $(VENV) (python: $$($(PYTHON) --version))"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --progress-bar off -q --upgrade pip
	@echo "==> installing pinned requirements (torch CPU build, Jupyter Book 1, test tools)"
	$(BIN)/python -m pip install --progress-bar off -r requirements.txt
	$(BIN)/python -m pip install --progress-bar off -q -e . --no-deps
	@touch $@

.PHONY: setup
setup: $(STAMP)

# --- the book --------------------------------------------------------------------------------
book: $(STAMP)
	@echo "==> building the book (notebooks executed with execute_notebooks: cache)"
	$(BIN)/jupyter-book build -W -n --keep-going .
	@echo "==> built: open $(CURDIR)/_build/html/index.html, or run 'make serve'"

serve:
	@test -f _build/html/index.html || { echo "no site yet: run 'make book' first"; exit 1; }
	@echo "==> serving _build/html on http://localhost:$(PORT) (Ctrl-C to stop)"
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory _build/html

NB ?= $(wildcard book/*.ipynb)
execute: $(STAMP)
	@for nb in $(NB); do echo "==> executing $$nb"; \
	  (cd "$$(dirname $$nb)" && $(CURDIR)/$(BIN)/jupyter execute --inplace --timeout=600 "$$(basename $$nb)"); \
	done

# --- tests -----------------------------------------------------------------------------------
test: $(STAMP)
	@echo "==> [1/3] lint (ruff)"
	$(BIN)/ruff check .
	@echo "==> [2/3] unit and property tests"
	$(PYTEST) tests
	@echo "==> [3/3] nbval: re-run every chapter and compare its stored outputs"
	$(PYTEST) -p tests.nbval_report --nbval --nbval-current-env \
	  --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 book/
	@echo "==> all tests passed"

# --- benchmarks (a few minutes each on 2 cores) ----------------------------------------------
bench: $(STAMP)
	$(BIN)/python benchmarks/bench_attention.py --out benchmarks/RESULTS.md

bench-build: $(STAMP)
	$(BIN)/python benchmarks/bench_build.py --out benchmarks/BUILD_RESULTS.md

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf _build
