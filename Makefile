# The two commands a newcomer runs: `make demo` and `make test`.
# Both build the virtual environment from nothing on first use.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: demo test bench notebooks clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

demo: $(STAMP)
	$(PY) -m tf1_pipelines demo

test: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) -m pytest -q

bench: $(STAMP)
	$(PY) -m tf1_pipelines bench

notebooks: $(STAMP)
	TF_CPP_MIN_LOG_LEVEL=2 $(PY) notebooks/build.py

clean:
	rm -rf $(VENV) build *.egg-info demo_output
