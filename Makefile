# netlab: two commands do everything on a fresh machine.
#   make book   create .venv, install, execute every notebook once (nbmake), build the static site strictly
#   make test   every test CI runs (unit and notebook tests, strict book build, PDF, site checks, browser)
#   make pdf    the whole book as one PDF (after make book): $(PDF)
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
# Each notebook is executed once per run. The book's sources are copied to $(SRC); nbmake executes
# the notebooks there (a cell that raises fails its test) and writes their outputs into the copies
# (--overwrite); the book is then built from $(SRC) with execution off, rendering those outputs.
# ($(SRC) is beside $(BUILD_DIR), not in it: nbmake skips every path with a `_build` folder.)
SRC := $(BUILD_DIR)-src
BOOK_SOURCES := book labs _static _config.yml _toc.yml
NBMAKE := --nbmake --nbmake-timeout=300 --overwrite $(SRC)/labs $(SRC)/book
# nbmake's pytest plugin imports nbformat, and with it jsonschema, whose URI checker builds 38 lark
# grammars on import (2 s of CPU in each pytest process and each of its workers): only the notebook
# run loads it (NB_PYTEST); the others leave it out.
NB_PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
PYTEST := $(NB_PYTEST) -p no:nbmake
# uv installs the pinned requirements in parallel (pip took about 35 s of a CI run, uv about 10 s).
UV := uv==0.13.9

.PHONY: install book build stage test site-from-notebooks pdf-then-static test-unit test-notebooks test-site test-browser test-static pdf lab serve linkcheck bench screenshots clean

install: $(STAMP) $(SIM_FAST)

# The compile needs only Cython and setuptools (their pins from requirements.txt, installed first):
# it runs beside the install of everything else, which mostly waits on the disk.
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

# The compile, with Python's own C flags and then -g0 -O1: no debug information, and gcc's first level
# of optimisation instead of Python's -O3. gcc's debug-info passes on Cython's large C files were a
# fifth of the compile's CPU (118 -> 93 CPU-s, load 4-5) for the same machine code. -O3 spent 56-57
# CPU-s on the 16 modules, -O1 31-32 (-O0 19, but its simulator ran 2.6-2.8 times as slow); the -O1
# simulator ran the five runs of benchmarks/bench_sim.py in 4 % less to 5 % more time than the -O3 one
# (two rounds, same session).
# The install does not compile every installed package's bytecode (uv's --compile-bytecode: 16 CPU-s);
# Python writes the .pyc of what a run imports (the main packages, imported once: about 3 CPU-s).
SIM_BUILD = CFLAGS="$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_config_var("CFLAGS") or "")') -g0 -O1" \
	$(BIN)/python netlab/sim/compiled.py -q

# The simulator's compiled fast path (netlab/sim/compiled.py), rebuilt when its sources change;
# without a C compiler the plain Python modules run (same results, five to seven times as slow).
$(SIM_FAST): $(wildcard netlab/sim/*.py netlab/sim/*.pxd netlab/sim/*.pyx) | $(STAMP)
	$(SIM_BUILD)

book: test-notebooks build
	@if [ -x "$${NETLAB_CHROMIUM:-/usr/bin/chromium}" ]; then $(MAKE) --no-print-directory pdf; \
	else echo "No Chromium: the PDF edition is not made (apt-get install chromium, then make pdf)"; fi
	@echo ""
	@echo "The site is in $(SITE)/index.html"
	@echo "Serve it with: make serve   (then open http://127.0.0.1:$(PORT)/)"

# A fresh copy of the book's sources, set to render the outputs nbmake leaves in it.
stage:
	rm -rf $(SRC)
	mkdir -p $(SRC)
	cp -r $(BOOK_SOURCES) $(SRC)/
	sed -i 's/^\(  execute_notebooks:\).*/\1 "off"/' $(SRC)/_config.yml
	grep -q 'execute_notebooks: "off"' $(SRC)/_config.yml

# The strict build (-W: any warning, a missing output included, fails it) of the executed copies.
build: $(STAMP)
	test -d $(SRC)/labs || { echo "no executed notebooks in $(SRC): run make book"; exit 1; }
	NETLAB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build $(SRC) --path-output $(BUILD_DIR) -W -n --keep-going

# Two lines of work side by side (make -j3, a job server shared by both): the unit tests, and the
# site: the notebooks (two workers), then the build, then the browser checks while the PDF is printed
# and the static checks (the PDF's among them) run after it. Side by side, the unit tests fill the cores
# while the site's line has only one process (a long notebook, the build). One after the other, the
# cores were idle 13 % of the time, side by side 8 % (make test 349 s, then 324 s, same clone, load
# about 1 at the start). The site's line is the run's critical path, so the unit tests run at nice 10
# and take what it leaves: its build went from 29 to 20 s, the whole clean-clone CI from 243 to 238 s
# (one run each, 5 December: within the machine's noise; the cores were busy 95 % of either run).
# The run is bound by CPU, so the unit tests run in one process: on two workers (xdist) each worker
# collected and imported every test module, 107 CPU-s against 95-97 in one process (5 December, same
# session; one process takes 95-97 s, well inside the site's line).
test: $(STAMP) stage
	$(MAKE) --no-print-directory -j3 --output-sync=target test-unit site-from-notebooks UNIT_NICE="nice -n 10"

site-from-notebooks: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(NB_PYTEST) $(NBMAKE) -n 2
	$(MAKE) --no-print-directory build
	$(MAKE) --no-print-directory test-browser pdf-then-static

pdf-then-static:
	$(MAKE) --no-print-directory pdf
	$(MAKE) --no-print-directory test-static

test-unit: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(UNIT_NICE) $(PYTEST) tests -m "not site and not browser"

test-notebooks: $(STAMP) stage
	NETLAB_STATIC_WIDGETS=1 $(NB_PYTEST) $(NBMAKE) -n 2

# Every page in headless Chromium (/usr/bin/chromium) with the network blocked, and the static checks
# of the built HTML and the PDF. Without Chromium the browser tests are skipped with a message,
# unless NETLAB_REQUIRE_BROWSER=1 (CI), which makes that a failure. The browser tests run on two
# workers, each test file on one (--dist loadfile), so a file's module and session fixtures (the visit
# of every page) are made once while the other files run beside it. The static checks run in one process:
# they ran beside the browser tests and the PDF, and two workers spent 17 CPU-s where one spends 12
# (5 December, in 10.5 s and 11.7 s). Only tests/site is collected (tests/test_site_tests_live_in_site.py
# checks that no site or browser test lives elsewhere): collecting all of tests imported every unit
# test module in each worker.
# (--dist loadgroup does not group under pytest 9.2 with xdist 3.8: xdist marks a group by
# renaming the test's nodeid, which pytest 9.2 ignores, so each worker visited every page.)
test-site: test-browser test-static

test-browser: $(STAMP)
	$(PYTEST) -p tests.site.notes tests/site -m "browser and not site" -n 2 --dist loadfile

test-static: $(STAMP)
	$(PYTEST) -p tests.site.notes tests/site -m site

# One PDF of the whole book: the built pages, in the order of the table of contents, printed by
# headless Chromium (book/_ext/pdf.py says how). Needs the built site (make book) and Chromium.
pdf: $(STAMP)
	$(BIN)/python book/_ext/pdf.py $(SITE) $(PDF)

lab: $(STAMP)
	$(BIN)/jupyter lab labs

serve:
	$(BIN)/python -m http.server --directory $(SITE) --bind 127.0.0.1 $(PORT)

# External links (needs the network; internal links and anchors are checked by test-site).
linkcheck: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build . --path-output $(BUILD_DIR)/linkcheck --builder linkcheck

# PNGs of a chapter, a lab and the registry, at phone and desktop width, light and dark (after make book).
screenshots: $(STAMP)
	$(BIN)/python -m tests.site.screenshots

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(BUILD_DIR) $(SRC) .pytest_cache build netlab/sim/*.so netlab/sim/_compiled.json
