# pygames: build, serve, test and benchmark the static site.
#   make build   npm ci when node_modules is missing or stale, then assemble dist/
#   make serve   build, then serve dist/ on http://127.0.0.1:$(PORT)/
#   make test    build, then ruff, the unit tests (tests/) and the browser tests (e2e/)
#   make bench   build, then run every e2e/bench/bench_*.py benchmark script
#   make clean   remove dist/, test artifacts and caches (node_modules stays)

PYTHON ?= python3
NPM ?= npm
PORT ?= 8000
# Extra arguments for web/tools/build.py, e.g. BUILD_ARGS="--base /pygames/"
BUILD_ARGS ?=

# npm ci writes node_modules/.package-lock.json: redo it when the lock changes.
NODE_STAMP := node_modules/.package-lock.json

.PHONY: build build-deps serve test test-deps bench clean

$(NODE_STAMP): package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

# The build's Python tools come from pyproject.toml's "build" extra (Jinja2): installed on first use.
build-deps:
	@$(PYTHON) -c "import jinja2, babel" 2>/dev/null || $(PYTHON) -m pip install --quiet -e '.[build]'

build: $(NODE_STAMP) build-deps
	$(PYTHON) web/tools/build.py $(BUILD_ARGS)

serve: build
	$(PYTHON) web/tools/serve.py $(PORT)

# The test tools come from pyproject.toml's "test" extra: installed on first use.
test-deps:
	@$(PYTHON) -c "import pytest, playwright, pytest_playwright, xdist, check_jsonschema, hypothesis, babel" 2>/dev/null \
		&& $(PYTHON) -m ruff --version 2>/dev/null | grep -qx "ruff 0.14.8" \
		|| $(PYTHON) -m pip install --quiet -e '.[test]'

# Two workers (pytest-xdist), a test file each at a time: about 20 minutes on 2 cores
# (CPU-bound: three workers are slower; half of the browser tests' time is pages starting).
test: build test-deps
	$(PYTHON) -m ruff check .
	PYGAMES_DIST_BUILT=1 $(PYTHON) -m pytest -n 2 --dist loadfile

bench: build
	@set -e; for script in e2e/bench/bench_*.py; do \
		echo "== $$script"; \
		PYGAMES_DIST_BUILT=1 $(PYTHON) $$script; \
	done

clean:
	rm -rf dist e2e/artifacts test-results .pytest_cache
	find . -path ./node_modules -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
