# netlab: two commands do everything on a fresh machine, `make book` and `make test`.
# `make help` lists every target. Why the build is arranged as it is, and what each choice
# measured: benchmarks/README.md ("How the build is arranged").
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BUILD_DIR ?= _build
SITE := $(BUILD_DIR)/_build/html
PDF := $(SITE)/netlab.pdf
STAMP := $(VENV)/.installed-stamp
SIM_FAST := netlab/sim/_compiled.json
PORT ?= 8000
export NETLAB_SITE_DIR := $(abspath $(SITE))
# The in-page calculators' Python runtime (Pyodide, pinned and hash-checked: book/_ext/netlab_pyodide.py),
# downloaded once into this cache; an offline rebuild reuses it, and `make clean` leaves it.
export NETLAB_PYODIDE_CACHE := $(abspath .cache/pyodide)
# matplotlib's settings and font list of its own, beside the project: a font list another matplotlib left in
# ~/.cache can lack matplotlib's bundled fonts (STIX, Computer Modern), and eight labs then printed
# 'findfont: Font family ... not found' on their pages
export MPLCONFIGDIR := $(abspath .cache/matplotlib)
# Each notebook runs once: nbmake executes copies in $(SRC) and keeps their outputs; the book is then
# built from the copies with execution off. ($(SRC) sits beside $(BUILD_DIR): nbmake skips `_build`.)
SRC := $(BUILD_DIR)-src
BOOK_SOURCES := book labs _static _config.yml _toc.yml CHANGELOG.md CITATION.cff
NBMAKE := --nbmake --nbmake-timeout=300 --overwrite $(SRC)/labs $(SRC)/book
# Only the notebook run loads nbmake's pytest plugin, whose imports are slow; the others leave it out.
NB_PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
PYTEST := $(NB_PYTEST) -p no:nbmake
# uv installs the pinned requirements in parallel.
UV := uv==0.13.9
# What ruff checks (its rules: pyproject.toml); mypy's files are set there too.
LINT_PATHS := netlab tests benchmarks book/_ext

.PHONY: help install book build runtime stage test check lint site-from-notebooks pdf-then-static test-unit test-notebooks test-site test-browser test-static pdf lab serve linkcheck bench screenshots clean

install: $(STAMP) $(SIM_FAST) ## make .venv: pinned requirements, netlab, the compiled simulator

help: ## list every target
	@echo "Usage: make <target>"
	@awk 'BEGIN { FS = ":.*## " } /^[a-z][a-z-]*:.*## / { printf "  %-20s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

# The simulator's compile needs only Cython and setuptools (installed first), so it runs beside
# the install of everything else.
$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet $(UV)
	grep -iE '^(cython|setuptools)==' requirements.txt > $(VENV)/build-requirements.txt
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r $(VENV)/build-requirements.txt
	$(SIM_BUILD) & sim=$$!; \
	$(BIN)/uv pip install --quiet --python $(BIN)/python -r requirements.txt; uv=$$?; \
	wait $$sim; built=$$?; test $$uv -eq 0 -a $$built -eq 0
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps --no-build-isolation -e .
	touch $@

# The compile: Python's own C flags, then -g0 -O1 (no debug information, gcc's first optimisation
# level); the install leaves bytecode to the runs.
SIM_BUILD = CFLAGS="$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("CFLAGS") or "")') -g0 -O1" \
	$(BIN)/python netlab/sim/compiled.py -q

# The simulator's compiled fast path (netlab/sim/compiled.py), rebuilt when its sources change;
# without a C compiler the plain Python modules run, with the same results.
$(SIM_FAST): $(wildcard netlab/sim/*.py netlab/sim/*.pxd netlab/sim/*.pyx) | $(STAMP)
	$(SIM_BUILD)

book: test-notebooks build ## install, run every notebook once, build the site strictly, print the PDF if Chromium
	@if [ -x "$${NETLAB_CHROMIUM:-/usr/bin/chromium}" ]; then $(MAKE) --no-print-directory pdf; \
	else echo "No Chromium: the PDF edition is not made (apt-get install chromium, then make pdf)"; fi
	@echo ""
	@echo "The site is in $(SITE)/index.html"
	@echo "Serve it with: make serve   (then open http://127.0.0.1:$(PORT)/)"

stage: ## copy the book's sources to _build-src/, set to render nbmake's outputs
	rm -rf $(SRC)
	mkdir -p $(SRC)
	cp -r $(BOOK_SOURCES) $(SRC)/
	sed -i 's/^\(  execute_notebooks:\).*/\1 "off"/' $(SRC)/_config.yml
	grep -q 'execute_notebooks: "off"' $(SRC)/_config.yml

# -W: any warning, a missing output included, fails the build.
build: $(STAMP) runtime ## build the site strictly from the executed copies in _build-src/
	test -d $(SRC)/labs || { echo "no executed notebooks in $(SRC): run make book"; exit 1; }
	NETLAB_STATIC_WIDGETS=1 NETLAB_SIM_PURE=1 $(BIN)/jupyter-book build $(SRC) --path-output $(BUILD_DIR) -W -n --keep-going

# Three lines of work side by side: the lint and the unit tests (both at nice 10), and the site's
# line, the critical path.
test: $(STAMP) stage ## every test CI runs: lint, unit, notebooks, strict build, PDF, static and browser checks
	$(MAKE) --no-print-directory -j3 --output-sync=target lint test-unit site-from-notebooks UNIT_NICE="nice -n 10"

check: lint ## the fast inner loop: lint, then the unit tests up to the first failure
	NETLAB_STATIC_WIDGETS=1 $(PYTEST) tests -m "not site and not browser" -x

lint: $(STAMP) ## ruff on the code, mypy on the models (both configured in pyproject.toml)
	$(UNIT_NICE) $(BIN)/ruff check $(LINT_PATHS)
	$(UNIT_NICE) $(BIN)/mypy

site-from-notebooks: $(STAMP) ## the site's line of make test: notebooks, build, browser, PDF, static
	NETLAB_STATIC_WIDGETS=1 $(NB_PYTEST) $(NBMAKE) -n 2
	$(MAKE) --no-print-directory build
	$(MAKE) --no-print-directory test-browser pdf-then-static

pdf-then-static: ## print the PDF, then run the static checks (which read it)
	$(MAKE) --no-print-directory pdf
	$(MAKE) --no-print-directory test-static

test-unit: $(STAMP) ## the unit and property tests, in one process
	NETLAB_STATIC_WIDGETS=1 $(UNIT_NICE) $(PYTEST) tests -m "not site and not browser"

test-notebooks: $(STAMP) stage ## execute every notebook once (nbmake, two workers)
	NETLAB_STATIC_WIDGETS=1 $(NB_PYTEST) $(NBMAKE) -n 2

# Without Chromium the browser tests skip with a message; NETLAB_REQUIRE_BROWSER=1 (CI) fails instead.
# Only tests/site is collected (tests/test_site_tests_live_in_site.py checks nothing is elsewhere).
test-site: test-browser test-static ## the built site's checks, browser and static (needs make book)

test-browser: $(STAMP) ## every page in headless Chromium, network blocked (two workers, a file per worker)
	$(PYTEST) -p tests.site.notes tests/site -m "browser and not site" -n 2 --dist loadfile

test-static: $(STAMP) ## static checks of the built HTML and the PDF, in one process
	$(PYTEST) -p tests.site.notes tests/site -m site

# book/_ext/pdf.py says how the pages are printed.
pdf: $(STAMP) ## the whole book as one PDF, netlab.pdf in the site (needs make book, Chromium)
	$(BIN)/python book/_ext/pdf.py $(SITE) $(PDF)

# The registry's published SHA-512 must equal the pin, and the bytes must match it; a cached copy is
# checked against the pin (no network). The site build stages it into _static/pyodide/ with netlab's wheel.
runtime: $(STAMP) ## fetch the calculators' Python runtime (Pyodide, pinned, hash-checked) into .cache/, once
	$(BIN)/python book/_ext/netlab_pyodide.py fetch

lab: $(STAMP) ## JupyterLab on labs/, with live widgets
	$(BIN)/jupyter lab labs

serve: ## serve the built site on http://127.0.0.1:8000/ (PORT=... to change)
	$(BIN)/python -m http.server --directory $(SITE) --bind 127.0.0.1 $(PORT)

linkcheck: $(STAMP) ## check the external links (needs the network; test-static checks internal ones)
	NETLAB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build . --path-output $(BUILD_DIR)/linkcheck --builder linkcheck

screenshots: $(STAMP) ## PNGs of a chapter, a lab and the registry, phone and desktop, light and dark
	$(BIN)/python -m tests.site.screenshots

bench: $(STAMP) ## run every benchmarks/bench_*.py; figures are printed, never asserted
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean: ## remove the builds, the staged sources and the compiled simulator
	rm -rf $(BUILD_DIR) $(SRC) .pytest_cache .ruff_cache .mypy_cache build netlab/sim/*.so netlab/sim/_compiled.json
