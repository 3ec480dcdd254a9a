# netlab: two commands do everything on a fresh machine.
#   make book   create .venv, install, build the static site strictly
#   make test   every test CI runs (unit, notebooks, strict book build, site checks, browser)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
BUILD_DIR ?= _build
SITE := $(BUILD_DIR)/_build/html
STAMP := $(VENV)/.installed-stamp
PORT ?= 8000
export NETLAB_SITE_DIR := $(abspath $(SITE))

.PHONY: install book test test-unit test-notebooks test-site lab serve linkcheck bench screenshots clean

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

book: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build . --path-output $(BUILD_DIR) -W -n --keep-going
	@echo ""
	@echo "The site is in $(SITE)/index.html"
	@echo "Serve it with: make serve   (then open http://127.0.0.1:$(PORT)/)"

test: test-unit test-notebooks book test-site

test-unit: $(STAMP)
	$(BIN)/python -m pytest tests -m "not site and not browser" -n 2 -q -p no:cacheprovider

test-notebooks: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(BIN)/python -m pytest --nbmake --nbmake-timeout=300 labs book -n 2 -q -p no:cacheprovider

# Static checks of the built HTML, then every page in headless Chromium (/usr/bin/chromium) with
# the network blocked. Without Chromium the browser tests are skipped with a message, unless
# NETLAB_REQUIRE_BROWSER=1 (CI), which makes that a failure.
test-site: $(STAMP)
	$(BIN)/python -m pytest tests -m "site or browser" -q -p no:cacheprovider

lab: $(STAMP)
	$(BIN)/jupyter lab labs

serve:
	$(BIN)/python -m http.server --directory $(SITE) --bind 127.0.0.1 $(PORT)

# External links (needs the network; internal links and anchors are checked by test-site).
linkcheck: $(STAMP)
	NETLAB_STATIC_WIDGETS=1 $(BIN)/jupyter-book build . --path-output $(BUILD_DIR)/linkcheck --builder linkcheck

# PNGs of a reading page (light and dark), a lab and a widget in two states, for review (after make book).
screenshots: $(STAMP)
	$(BIN)/python -m tests.site.screenshots

bench: $(STAMP)
	for f in benchmarks/bench_*.py; do $(BIN)/python $$f || exit 1; done

clean:
	rm -rf $(BUILD_DIR) .pytest_cache
