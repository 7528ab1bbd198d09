# rlm_gym: `make demo` runs the main job, `make test` runs the checks. Both create .venv.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
# The CPU build of torch, installed before the extras so pip never pulls a CUDA build.
TORCH_PIN := torch==2.13.0

.PHONY: demo test lint bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

$(VENV)/.train-installed: pyproject.toml | $(PY)
	$(PIP) $(TORCH_PIN)
	$(PIP) -e ".[train]"
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(PY)
	$(PIP) $(TORCH_PIN)
	$(PIP) -e ".[dev]"
	touch $@ $(VENV)/.train-installed

demo: $(VENV)/.train-installed
	$(VENV)/bin/rlm-gym compare --env CartPole-v1 --episodes 5

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

test: lint
	$(PY) -m pytest -n 2 -q

bench: $(VENV)/.train-installed
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) runs .pytest_cache .hypothesis
