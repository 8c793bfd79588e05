# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Test processes of `make test` (0: one process). More than the two cores of the machines it
# runs on, since many tests wait on sockets, subprocesses and the database (tests/README.md).
TEST_JOBS ?= 4

.PHONY: run test lint bench gallery clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

# The Embedded App SDK the web board's Activity loads (package.json), where npm exists.
node_modules/.package-lock.json: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund; \
	else echo "npm not found: the Activity page will say the Embedded App SDK is missing"; fi

run: $(STAMP) node_modules/.package-lock.json
	$(PY) -m bot

test: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m pytest -q -n $(TEST_JOBS) --dist worksteal

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP)
	$(PY) -m bench.engines
	$(PY) -m bench.render
	$(PY) -m bench.store
	$(PY) -m bench.e2e
	$(PY) -m bench.e2e --think 0
	$(PY) -m bench.e2e --rtt-ms 80
	$(PY) -m bench.crash
	$(PY) -m bench.heavy
	$(PY) -m bench.tournaments
	$(PY) -m bench.review
	$(PY) -m bench.review_fairness
	$(PY) -m bench.profile
	$(PY) -m bench.web --browser

gallery: $(STAMP)
	$(PY) -m render.gallery

clean:
	rm -rf $(VENV) gallery .pytest_cache .ruff_cache
