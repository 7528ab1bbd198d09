# rlm_gym: `make demo` runs the main job, `make test` runs the checks. Both create .venv.
PYTHON ?= python3
VENV ?= .venv
VENV_RAY ?= .venv-ray
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check
RAY_PY := $(VENV_RAY)/bin/python
RAY_PIP := $(RAY_PY) -m pip install --quiet --disable-pip-version-check
VENV_CLIENTS ?= .venv-clients
CLIENTS_PY := $(VENV_CLIENTS)/bin/python
CLIENTS_PIP := $(CLIENTS_PY) -m pip install --quiet --disable-pip-version-check
# The RL libraries tests/clients runs against, at the versions measured to install beside
# torch 2.13.0 (ray[rllib] 2.60 pins gymnasium==1.2.2, which the project's >=1.0 accepts).
CLIENT_LIBS := stable-baselines3==2.9.2 rl_zoo3==2.9.2 "ray[rllib]==2.60.0" torchrl==0.14.1 \
	envpool==1.2.5 mo-gymnasium==1.3.2 pytest

VENV_TRAINERS ?= .venv-trainers
TRAINERS_PY := $(VENV_TRAINERS)/bin/python
TRAINERS_PIP := $(TRAINERS_PY) -m pip install --quiet --disable-pip-version-check
# The LLM trainers tests/trainers runs against (issue 36), at the versions measured to install
# together beside torch 2.13.0. verifiers 0.3.1 still answers `import verifiers as vf` with the
# classic MultiTurnEnv / Rubric (0.4 dropped them); 0.1.x caps datasets below 4.7, which
# every trl 1.x needs.
TRAINER_LIBS := trl==1.16.0 transformers==5.24.0 verifiers==0.3.1 openai==3.57.0 pytest

# The CPU build of torch, installed before the extras so pip never pulls a CUDA build.
TORCH_PIN := torch==2.13.0

.PHONY: demo test test-fast lint test-ray test-clients test-trainers bench results readme clean

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

# The main job: PPO on the crawl env with the `crawl` policy, then the evaluation table.
demo: $(VENV)/.train-installed
	$(VENV)/bin/rlm-gym demo

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# ruff, then every test (slow training checks run with small budgets) on both cores.
test: lint
	$(PY) -m pytest -n 2 -q

# Everything not marked slow (no training runs, no notebooks): the loop while editing.
test-fast: $(VENV)/.dev-installed
	$(PY) -m pytest -n 2 -q -m "not slow"

# The Ray Tune ablation backend, in its own venv (Ray is an optional extra).
$(RAY_PY):
	$(PYTHON) -m venv $(VENV_RAY)
	$(RAY_PIP) --upgrade pip

$(VENV_RAY)/.installed: pyproject.toml | $(RAY_PY)
	$(RAY_PIP) $(TORCH_PIN)
	$(RAY_PIP) -e ".[train,ray]" pytest
	touch $@

test-ray: $(VENV_RAY)/.installed
	$(RAY_PY) -m pytest -q tests/training/studies/test_ablation.py -k ray

$(CLIENTS_PY):
	$(PYTHON) -m venv $(VENV_CLIENTS)
	$(CLIENTS_PIP) --upgrade pip

# torch first (CPU pin), then everything else under a constraint that keeps it at the pin.
$(VENV_CLIENTS)/.installed: pyproject.toml | $(CLIENTS_PY)
	$(CLIENTS_PIP) $(TORCH_PIN)
	echo "$(TORCH_PIN)" > $(VENV_CLIENTS)/constraints.txt
	$(CLIENTS_PIP) -c $(VENV_CLIENTS)/constraints.txt -e . $(CLIENT_LIBS)
	touch $@

# SB3, rl-zoo3, CleanRL's ppo.py idiom, RLlib and TorchRL each train on rlm_gym/Crawl-v1;
# EnvPool and MO-Gymnasium run through the vector wrapper and the vector reward.
test-clients: $(VENV_CLIENTS)/.installed
	$(CLIENTS_PY) -m pytest -q tests/clients

$(TRAINERS_PY):
	$(PYTHON) -m venv $(VENV_TRAINERS)
	$(TRAINERS_PIP) --upgrade pip

$(VENV_TRAINERS)/.installed: pyproject.toml | $(TRAINERS_PY)
	$(TRAINERS_PIP) $(TORCH_PIN)
	echo "$(TORCH_PIN)" > $(VENV_TRAINERS)/constraints.txt
	$(TRAINERS_PIP) -c $(VENV_TRAINERS)/constraints.txt -e ".[rlm,trl,verifiers]" $(TRAINER_LIBS)
	touch $@

# The RLM env's policies in TRL (two GRPO steps on a tiny model) and verifiers (rollouts
# scored by a policy rubric), and the OpenAI-compatible clients against a local server.
test-trainers: $(VENV_TRAINERS)/.installed
	$(TRAINERS_PY) -m pytest -q -p no:cacheprovider tests/trainers

bench: $(VENV)/.train-installed
	$(PY) benchmarks/run_all.py

# The learning studies behind the documented tables (resumable: a re-run continues), then the pages.
results: $(VENV)/.train-installed
	$(VENV)/bin/rlm-gym study defaults
	$(VENV)/bin/rlm-gym study ablation
	$(PY) docs/reliable_report.py
	$(PY) docs/render.py
	$(PY) docs/study_plots.py

# Rewrite the generated blocks of README.md and docs/*.md from the committed JSON files they read.
readme: $(VENV)/.train-installed
	$(PY) docs/reliable_report.py
	$(PY) docs/render.py
	$(PY) docs/study_plots.py

clean:
	rm -rf $(VENV) $(VENV_RAY) $(VENV_CLIENTS) $(VENV_TRAINERS) runs .pytest_cache .hypothesis
