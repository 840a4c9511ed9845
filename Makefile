# The two commands a newcomer runs: `make demo` and `make test`.
# Both build the virtual environment from nothing on first use.
# `make test` lints (ruff) and type-checks (mypy) both packages first, then runs the tests.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# What mypy checks: the whole package and the compat runner (benchmarks/ and
# notebooks/ are scripts, not checked).
TYPED  := tf1_pipelines compat

.PHONY: demo lint test test-fast bench notebooks notebooks-update lab clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m tf1_pipelines demo

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m mypy $(TYPED)

# Every tier: tests/unit, tests/integration, tests/legacy (old scripts under the
# runner) and tests/notebooks.
# Two workers (pytest-xdist), each test file whole in one of them: most tests wait on
# TensorFlow subprocesses, so one process alone leaves a core idle half the time.
test: $(STAMP) lint
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) -m pytest -q -n 2 --dist loadfile --durations=20

# The unit tier alone: in-process tests of one module each, under a minute (two workers,
# as for `make test`: most of the time is each file's imports, which a second core overlaps).
test-fast: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) -m pytest -q -n 2 --dist loadfile tests/unit

bench: $(STAMP)
	$(PY) -m tf1_pipelines bench

# Executes every notebook at full size into notebooks/executed/ (not tracked); the
# tracked notebooks stay byte-identical. `make notebooks-update` rewrites them instead.
notebooks: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) notebooks/build.py

notebooks-update: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) notebooks/build.py --in-place

# JupyterLab in the virtual environment and the tf1-compat kernel ("Python 3 (TensorFlow 1
# compat)") in it; then `.venv/bin/jupyter lab notebooks/` opens the notebooks. Not part of `make test`.
lab: $(STAMP)
	$(PY) -m pip install --quiet jupyterlab
	$(PY) -m compat kernel install --sys-prefix
	@echo "open the notebooks with: $(VENV)/bin/jupyter lab notebooks/"

clean:
	rm -rf $(VENV) build *.egg-info demo_output .mypy_cache .ruff_cache
