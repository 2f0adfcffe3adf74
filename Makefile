# The README's two commands: `make run` and `make test`. Both create .venv/ from the lock file first
# (--no-compile: Python compiles a module's bytecode when it is first imported, so the 1.5 GB of
# packages are not all compiled up front; that cut the install's CPU time from 105 s to 42 s). Then
# pipeline.run.kernels compiles every numba kernel once (the workers of a first run load them instead of
# each compiling them) and the bytecode of the modules the commands import (for PYTHONDONTWRITEBYTECODE=1).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# pytest-xdist processes for make test: both cores of the 2-core machine CI runs on (make test TEST_WORKERS=4 elsewhere)
TEST_WORKERS ?= 2

.PHONY: run test test-deep test-system test-fast lint bench clean-venv lock browser

$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile --no-deps -e .
	@echo "make: compiling the numba kernels and the bytecode the commands import, once per machine and version (about a minute)"
	$(BIN)/python -m pipeline.run.kernels || echo "make: the kernels could not be compiled ahead; they compile on first use" >&2
	touch $(STAMP)

run: $(STAMP)  ## make the default puzzle set (configs/default.yaml) and check it
	$(BIN)/numplace run configs/default.yaml
	$(BIN)/numplace check "$$(ls -d outputs/default-classic/2*/ | sort | tail -n 1)"

test: $(STAMP)  ## lint, then the test suite over TEST_WORKERS processes: every test not slow, deep or system (exit 5, no tests, fails)
	$(BIN)/ruff check pipeline tests bench
	$(BIN)/mypy pipeline
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=25; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

test-deep: $(STAMP)  ## the deep tier over TEST_WORKERS processes (.ci/run runs it after make test): the tests marked deep, those that cost DEEP_SECONDS or more (tests/costs.py)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile -m "deep and not slow and not system" --durations=0; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

test-system: $(STAMP) browser  ## the system tier, one test at a time (.ci/run runs it last): processes, clusters, Chromium
	$(BIN)/python -m pytest -m "system and not slow" --durations=0; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

test-fast: $(STAMP)  ## ruff, then the tests not marked heavy, deep, slow or system (most of make test's: minutes, not seconds; docs/testing.md)
	$(BIN)/ruff check pipeline tests bench
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile -m "not slow and not heavy and not deep and not system"; rc=$$?; \
	  if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing" >&2; exit 1; fi; exit $$rc

browser:  ## Debian's Chromium (and a Japanese font) for the browser tests (skipped, with a note, where it cannot be installed)
	@{ command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -qi ipagothic; } || \
	  { timeout 900 sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	  --no-install-recommends chromium fonts-ipafont-gothic >/dev/null' \
	  || echo "make: chromium could not be installed; the browser tests (report, studio) will be skipped" >&2; }

bench: $(STAMP)
	$(BIN)/python bench/bench_run.py
	$(BIN)/python bench/profile_phases.py

lock: $(STAMP)  ## re-resolve requirements.lock from pyproject.toml
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile -q --extra dev --extra studio --generate-hashes --strip-extras --allow-unsafe \
	  --no-emit-index-url --no-emit-find-links -o requirements.lock pyproject.toml

clean-venv:
	rm -rf $(VENV)
