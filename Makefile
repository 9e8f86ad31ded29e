# The two commands of the README: `make book` and `make test`. Each sets up what it needs.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000
# The test targets' steps: .ci/steps runs pytest (exit 5, no test collected, alone is not a failure),
# times each step into $(TIMES) and builds the site beside a step; its header lists its commands.
TIMES := _build/.test-times
SITE_LOG := _build/site.log
STEPS = PYTHON=$(BIN)/python TIMES=$(TIMES) SITE_LOG=$(SITE_LOG) .ci/steps

.PHONY: book site serve test test-portable test-envs test-pdf execute clean help browser-deps pdf pdf-deps bench page-weight

help:
	@echo "The two commands:"
	@echo "  make book          build the site into _build/html (setup, npm assets, then the Jupyter Book build)"
	@echo "  make test          lint, unit/property tests, nbval on every chapter, the site build, browser tests"
	@echo "For contributors:"
	@echo "  make serve         serve _build/html on http://localhost:$(PORT)"
	@echo "  make execute NB=book/NN_slug.ipynb   re-run chapters from a clean kernel and store their outputs"
	@echo "  make test-portable nbval on every chapter with generic CPU kernels and one thread (CI runs it too)"
	@echo "  make test-envs     every chapter in a fresh Binder and a Colab-like environment (slow)"
	@echo "  make pdf           the whole book as one PDF, _build/latex/book.pdf (installs TeX Live with apt)"
	@echo "  make test-pdf      build the PDF and check it (pages, chapters, a math and a figure page)"
	@echo "  make bench         time and peak memory of readable, chunked and fused attention -> benchmarks/RESULTS.md"
	@echo "  make page-weight   gzip bytes of a first visit to every page -> benchmarks/PAGE_WEIGHT_TABLE.md"
	@echo "  make clean         remove _build"
	@echo "Steps the targets above run themselves: make setup (.venv), make site (the build alone),"
	@echo "  make browser-deps (Debian's headless Chromium), make pdf-deps (TeX Live). Other scripts run"
	@echo "  as python -m tools.<name> or python -m benchmarks.<name> (see CONTRIBUTING.md and README.md)."

# --- setup -----------------------------------------------------------------------------------
$(STAMP): requirements.txt pyproject.toml
	@echo "==> setting up $(VENV) (python: $$($(PYTHON) --version))"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --progress-bar off -q --upgrade pip
	@echo "==> installing pinned requirements (torch CPU build, Jupyter Book 1, test tools)"
	$(BIN)/python -m pip install --progress-bar off -r requirements.txt
	$(BIN)/python -m pip install --progress-bar off -q -e . --no-deps
	@# jsonschema (under nbformat, jupyter-events) imports rfc3987-syntax when it is there, for its IRI format
	@# check, which builds three Earley parsers on import: 1.9 s of CPU in every process that reads a notebook
	@# (each chapter's kernel that glues, every nbval and Sphinx process), about 25 of them in make test. Nothing
	@# here validates IRIs; without it jsonschema leaves that one format unchecked (docs/notes/TEST_TIME.md).
	$(BIN)/python -m pip uninstall -q -y rfc3987-syntax
	@touch $@

.PHONY: setup
setup: $(STAMP)

# Front-end assets pinned in package-lock.json (require.js, widget html-manager, anywidget, MathJax,
# axe-core; esbuild, which bundles the slider pages' widget manager during the site build), installed
# exactly with `npm ci`.
NPM_STAMP := node_modules/.installed
$(NPM_STAMP): package.json package-lock.json
	@echo "==> installing pinned front-end assets (npm ci)"
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# --- the book --------------------------------------------------------------------------------
book: site
	@echo "==> built: open $(CURDIR)/_build/html/index.html, or run 'make serve'"

# The site serves its own front-end assets: _ext/site_assets/ copies them from node_modules (hence
# the npm stamp). The build renders each notebook's committed outputs and executes nothing
# (_config.yml: execute_notebooks: "off"); `make test` re-executes every chapter with nbval and
# compares, and `make execute` refreshes a chapter's outputs after a change.
site: $(STAMP) $(NPM_STAMP)
	@echo "==> building the book from the chapters' committed outputs (-W: warnings fail)"
	$(BIN)/jupyter-book build -W -n --keep-going .

serve:
	@test -f _build/html/index.html || { echo "no site yet: run 'make book' first"; exit 1; }
	@echo "==> serving _build/html on http://localhost:$(PORT) (Ctrl-C to stop)"
	$(BIN)/python -m http.server $(PORT) --bind 127.0.0.1 --directory _build/html

NB ?= $(wildcard book/*.ipynb)
execute: $(STAMP)
	$(BIN)/python -m tools.execute $(NB)

# --- the printable edition ------------------------------------------------------------------
# Jupyter Book's LaTeX builder, typeset by XeLaTeX from Debian's TeX Live (installed by pdf-deps,
# like browser-deps installs chromium). tools/pdf_source.py first writes a print copy of the book
# into _build/pdf-src, where each slider's output is its default figure plus a line saying it is
# interactive on the web page; the notebooks' stored outputs are used as they are (no execution).
TEX_PACKAGES := texlive-xetex texlive-latex-recommended texlive-latex-extra texlive-fonts-recommended \
  latexmk lmodern fonts-freefont-otf fonts-dejavu-core poppler-utils
PDF_SRC := _build/pdf-src
pdf: $(STAMP) pdf-deps
	@echo "==> writing the print copy of the book into $(PDF_SRC)"
	$(BIN)/python -m tools.pdf_source $(PDF_SRC)
	@echo "==> building the PDF (jupyter-book --builder pdflatex, engine: xelatex)"
	$(BIN)/jupyter-book build --builder pdflatex $(PDF_SRC)
	@mkdir -p _build/latex && cp $(PDF_SRC)/_build/latex/book.pdf _build/latex/book.pdf
	@echo "==> built: $(CURDIR)/_build/latex/book.pdf"

# Builds the PDF in a temporary copy and checks it: page count, every chapter named, a math page and
# a figure page rendered to PNG and not blank (tests/build/test_pdf.py). Not part of `make test`: see README.
test-pdf: $(STAMP) pdf-deps
	export BOOK_PDF_BUILD=1; $(STEPS) pytest tests/build/test_pdf.py

pdf-deps:
	@if command -v xelatex >/dev/null && command -v latexmk >/dev/null && command -v pdftoppm >/dev/null \
	  && kpsewhich capt-of.sty >/dev/null && fc-list | grep -i freeserif >/dev/null && fc-list | grep -i "dejavu sans mono" >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	if [ "$${CI:-}" = true ] || [ "$$(id -u)" = 0 ]; then \
	  echo "==> installing TeX Live and poppler-utils from Debian's packages with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    --no-install-recommends $(TEX_PACKAGES); \
	else echo "TeX Live is missing: sudo apt-get install -y --no-install-recommends $(TEX_PACKAGES)"; exit 1; fi

# --- tests -----------------------------------------------------------------------------------
# Each step prints its wall time; the last line sums them up. Unit tests with nbval, and the browser
# tests, run on two pytest-xdist workers (one per core): nbval keeps every notebook's cells in one
# worker, in order (--dist loadscope); the browser tests are independent of each other (every test
# loads its own page) and go to whichever worker is free (--dist load).
XDIST ?= -n 2
# One BLAS/OpenMP thread per process in steps 2 and 4: their two workers already keep both cores
# busy, and torch's default of a thread per core made every worker and kernel spin-wait against the
# other on the small tensor operations of the model tests, the chapters and the browser tests' Python
# twins (0.19 and 0.39 times the CPU seconds with one thread, docs/notes/TEST_TIME.md). test-portable
# runs every chapter with one thread too, so the stored outputs do not depend on it.
ONE_THREAD := OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# Python keeps its bytecode caches (__pycache__, ignored by git) even where the environment says not
# to: with PYTHONDONTWRITEBYTECODE set, every test process, kernel and build compiled the project's
# modules again, and pytest rewrote the asserts of every test module again (collection 15 s -> 8 s per
# pytest process; about 0.95 of step 2's CPU, docs/notes/TEST_TIME.md).
unexport PYTHONDONTWRITEBYTECODE
# Step 2 builds the site beside the tests (.ci/steps beside_site; the build's output goes to
# $(SITE_LOG), shown if it fails): Sphinx keeps one core busy while the tests leave about as much idle.
# nbval's kernels are forked from one process per worker that imported torch, numpy, matplotlib and
# attnlib once (bookdev/kernel_fork.py; about 3 s of CPU fewer per chapter); the stored outputs were
# made with ordinary kernels (make execute), and test-portable runs nbval with ordinary kernels
# (BOOK_FORKED_KERNELS=0), so both ways of starting a kernel are held to the same outputs.
test: $(STAMP) $(NPM_STAMP) browser-deps
	@mkdir -p _build && : > $(TIMES)
	@$(STEPS) step "[1/3] lint (ruff; forensic share of each chapter's visible prose, at most 10 %)" \
	  sh -c '$(BIN)/ruff check . && $(BIN)/python -m tools.forensic_share'
	@export $(ONE_THREAD); $(STEPS) step "[2/3] unit and property tests, and nbval: re-run every chapter and compare its stored outputs; the site builds beside them" \
	  beside_site pytest $(XDIST) --dist loadscope -p tests.nbval_report --nbval --nbval-current-env \
	  --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 tests --ignore=tests/browser --ignore=tests/envs book/
	@export $(ONE_THREAD); $(STEPS) step "[3/3] browser tests (headless Chromium via Playwright, all other hosts blocked)" \
	  pytest $(XDIST) --dist load tests/browser
	@$(STEPS) summary

# nbval on every chapter again, with torch, numpy and the BLAS libraries forced onto generic CPU kernels
# and one thread: what another x86-64 CPU (no AVX-512, say) computes differs from ours only in the last
# digits, so the stored outputs, figures and widget state must not depend on them. .ci/run runs it
# after make test. Its kernels are ordinary ones (see step 2 of make test). NPY_DISABLE_CPU_FEATURES
# lists every SIMD extension this numpy would dispatch to (read with the variable unset, so a caller
# that already disabled some, to mimic an AVX2 CPU, still gets them all).
PORTABLE_ENV = ATEN_CPU_CAPABILITY=default MKL_ENABLE_INSTRUCTIONS=SSE4_2 MKL_CBWR=COMPATIBLE DNNL_MAX_CPU_ISA=SSE41 \
  OPENBLAS_CORETYPE=Prescott OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
test-portable: $(STAMP)
	@feats="$$(env -u NPY_DISABLE_CPU_FEATURES $(BIN)/python -c 'from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f; print(" ".join(x for x in d if f.get(x)))')"; \
	echo "==> nbval on every chapter with generic CPU kernels and one thread (numpy without: $${feats:-nothing})"; \
	export $(PORTABLE_ENV) NPY_DISABLE_CPU_FEATURES="$$feats" BOOK_FORKED_KERNELS=0; $(STEPS) pytest $(XDIST) --dist loadscope -p tests.nbval_report \
	  --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg --nbval-cell-timeout=600 book/

# Every chapter in the two environments readers run it in, Binder's and a Colab-like one, each made
# from its own files alone and cached by their hash (tests/envs/test_reader_envs.py). Too slow for
# `make test` (two environments with torch, every chapter twice): its own target and CI job.
test-envs: $(STAMP)
	@mkdir -p _build && : > $(TIMES)
	@$(STEPS) step "reader environments: every chapter on Binder and on Colab" pytest tests/envs

# A Chromium for the browser tests, never a downloaded one: $CHROMIUM if set (GitHub's test workflow,
# .github/workflows/tests.yml, sets it to the runner's Google Chrome, so nothing is installed there),
# else Debian's headless build (package chromium-headless-shell: the same engine without the desktop
# browser, about 0.7 times the test time, docs/notes/TEST_TIME.md), installed here with apt-get when
# running as root or with CI=true (another CI running .ci/run), else an installed full chromium.
browser-deps:
	@if [ -n "$${CHROMIUM:-}" ] || command -v chromium-headless-shell >/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	if [ "$${CI:-}" = true ] || [ "$$(id -u)" = 0 ]; then \
	  echo "==> installing Debian's headless Chromium (chromium-headless-shell) with apt-get"; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium-headless-shell; \
	elif command -v chromium >/dev/null; then \
	  echo "note: using the full chromium; 'sudo apt-get install -y chromium-headless-shell' runs the browser tests faster"; \
	else echo "Chromium is missing: install it with 'sudo apt-get install -y chromium-headless-shell' (or set CHROMIUM=/path)"; exit 1; fi

# --- benchmarks (a few minutes each on 2 cores) ----------------------------------------------
bench: $(STAMP)
	$(BIN)/python -m benchmarks.bench_attention --out benchmarks/RESULTS.md

# Bytes a reader's browser transfers on a first visit to each page, gzip as a static host serves them
# (the budgets are checked on every chapter in make test by tests/browser/test_pages.py).
page-weight: $(STAMP) browser-deps
	@test -f _build/html/index.html || $(MAKE) --no-print-directory site
	$(BIN)/python -m tools.page_weight _build/html --out benchmarks/PAGE_WEIGHT_TABLE.md

clean:
	rm -rf _build

